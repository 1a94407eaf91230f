/* gen_bad_scat.c: malformed-suite cases of Unique, MaxUnpool and Col2Im: indices outside the
 * unpooled frame (nothing written), shapes that do not fit, attributes missing or out of range,
 * an omitted middle output, and a valid control of each op. */
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

static const int64_t k_d4[4] = {1, 1, 2, 2}, k_two[2] = {2, 2};
static const float k_x4[4] = {5, 6, 7, 8};

/* The same texts with fusion and without. */
static void msg(const char *texts) { expect_msg(texts, texts); }

/* MaxUnpool-11, kernel and strides 2x2, X and I [1,1,2,2] inputs; with_shape adds the input
 * output_shape [4]. */
static Onnx__ModelProto *unpool_model(int with_shape, int with_kernel) {
    Onnx__ModelProto *m = model(11);
    input(m, "x", OSC_FLOAT, 4, k_d4);
    input(m, "i", OSC_INT64, 4, k_d4);
    if (with_shape) input(m, "s", OSC_INT64, 1, (const int64_t[]){4});
    Onnx__NodeProto *n = node(m, "MaxUnpool", "u", 2 + with_shape,
                              (const char *[]){"x", "i", "s"}, 1, (const char *[]){"y"});
    if (with_kernel) attr_ints(n, "kernel_shape", 2, k_two);
    attr_ints(n, "strides", 2, k_two);
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

static void unpool_cases(void) {
    int64_t *ok = A(4 * sizeof *ok), *past = A(4 * sizeof *past), *neg = A(4 * sizeof *neg);
    const int64_t iv[4] = {5, 7, 13, 15};
    for (int k = 0; k < 4; k++) ok[k] = past[k] = neg[k] = iv[k];
    past[3] = 16;
    neg[0] = -1;
    tin ins[3] = {{OSC_FLOAT, 4, {1, 1, 2, 2}, k_x4, sizeof k_x4},
                  {OSC_INT64, 4, {1, 1, 2, 2}, ok, 4 * sizeof *ok},
                  {OSC_INT64, 1, {4}, NULL, 4 * sizeof(int64_t)}};
    emit_model("unpool_valid", unpool_model(0, 1), "OSC_OK", "run",
               "MaxUnpool-11, 2x2 into 4x4 (control)", 2, ins);
    msg("node 'u' (MaxUnpool-11)\ninput 1 'I' (i) flat position 3: value 16 is out of "
               "range [0, 15]");
    ins[1].data = past;
    emit_model("unpool_index_past_end", unpool_model(0, 1), "OSC_ERR_INDEX", "run",
               "MaxUnpool index 16 in a frame of 16 elements, last position", 2, ins);
    msg("flat position 0: value -1 is out of range [0, 15]");
    ins[1].data = neg;
    emit_model("unpool_index_negative", unpool_model(0, 1), "OSC_ERR_INDEX", "run",
               "MaxUnpool index -1 (no negative indices), first position", 2, ins);
    /* output_shape: the frame stays 4x4, so 16 is still out of range in a 5x5 output */
    ins[2].data = (const int64_t[]){1, 1, 5, 5};
    emit_model("unpool_output_shape_index_past_frame", unpool_model(1, 1), "OSC_ERR_INDEX",
               "run", "MaxUnpool index 16 with output_shape [1,1,5,5]: past the 4x4 frame", 3,
               ins);
    ins[1].data = ok;
    ins[2].data = (const int64_t[]){1, 1, 3, 5};
    msg("input 2 'output_shape' (s) holds 4 values; expected 4, each at least the "
               "unpooled shape's [1,1,4,4]");
    emit_model("unpool_output_shape_small", unpool_model(1, 1), "OSC_ERR_SHAPE", "run",
               "MaxUnpool output_shape [1,1,3,5] smaller than the 4x4 frame", 3, ins);
    msg("attribute 'kernel_shape' is required");
    emit_model("unpool_no_kernel_shape", unpool_model(0, 0), "OSC_ERR_MODEL", "load",
               "MaxUnpool without its required kernel_shape", 0, NULL);
}

/* Col2Im-18 of input [1, 4, l] with image_shape [3,3] and block_shape [2,2] as constants: l = 4
 * blocks fit, any other l does not. dynamic: the input's dims symbolic, checked at the run. */
static void col2im_case(const char *name, int64_t l, int dynamic, const char *status,
                        const char *stage, const char *why) {
    Onnx__ModelProto *m = model(18);
    const int64_t dims[3] = {1, 4, l}, sym[3] = {-1, -2, -3};
    input(m, "x", OSC_FLOAT, 3, dynamic ? sym : dims);
    init(m, tensor("img", OSC_INT64, 1, (const int64_t[]){2}, (const int64_t[]){3, 3}, 16));
    init(m, tensor("blk", OSC_INT64, 1, (const int64_t[]){2}, k_two, 16));
    node(m, "Col2Im", "c", 3, (const char *[]){"x", "img", "blk"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    float *x = A((size_t)(4 * l) * sizeof *x);
    for (int k = 0; k < 4 * l; k++) x[k] = (float)k;
    tin ins[1] = {{OSC_FLOAT, 3, {1, 4, l}, x, (size_t)(4 * l) * sizeof *x}};
    if (l != 4)
        msg(F("node 'c' (Col2Im-18)\ninput 0 'input' (x) has shape [1,4,%lld]; expected "
                     "dim 1 a multiple of 4 (the block's elements) and dim 2 4",
                     (long long)l));
    emit_model(name, m, status, stage, why, stage[0] == 'r' ? 1 : 0, ins);
}

/* Unique-11 of x [2, 3] (float), axis (99: none), with the outputs named in outs. */
static Onnx__ModelProto *unique_model(int64_t axis, int n_out, const char *const *outs) {
    Onnx__ModelProto *m = model(11);
    input(m, "x", OSC_FLOAT, 2, (const int64_t[]){2, 3});
    Onnx__NodeProto *n = node(m, "Unique", "q", 1, (const char *[]){"x"}, n_out, outs);
    if (axis != 99) attr_i(n, "axis", axis);
    for (int k = 0; k < n_out; k++)
        if (outs[k][0]) output(m, outs[k], k ? OSC_INT64 : OSC_FLOAT, -1, NULL);
    return m;
}

static void unique_cases(void) {
    static const float x[6] = {3, 1, 3, 3, 1, 3};
    static const char *const all[4] = {"y", "ind", "inv", "cnt"};
    static const char *const gap[4] = {"y", "", "", "cnt"};
    tin ins[1] = {{OSC_FLOAT, 2, {2, 3}, x, sizeof x}};
    emit_model("unique_valid", unique_model(1, 4, all), "OSC_OK", "run",
               "Unique-11 along axis 1 with all four outputs (control)", 1, ins);
    msg("node 'q' (Unique-11)\nattribute 'axis' = 2 is out of range [-2, 1]");
    emit_model("unique_axis_out_of_range", unique_model(2, 4, all), "OSC_ERR_MODEL", "run",
               "Unique axis 2 on rank 2 (the rank is known once X is)", 1, ins);
    emit_model("unique_middle_outputs_omitted", unique_model(99, 4, gap), "OSC_OK", "run",
               "Unique with outputs Y, '', '', counts: the empty ones are computed and dropped",
               1, ins);
}

void scat_cases(void) {
    unpool_cases();
    col2im_case("col2im_valid", 4, 0, "OSC_OK", "run", "Col2Im-18, four 2x2 blocks of a 3x3 "
                "image (control)");
    col2im_case("col2im_block_count", 3, 0, "OSC_ERR_SHAPE", "load", "Col2Im input with 3 "
                "blocks where image and block shapes give 4 (static shapes: at load)");
    col2im_case("col2im_block_count_run", 5, 1, "OSC_ERR_SHAPE", "run", "Col2Im input with 5 "
                "blocks where image and block shapes give 4 (symbolic dims: at the run)");
    unique_cases();
}
