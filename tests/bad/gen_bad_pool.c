/* gen_bad_pool.c: malformed-suite cases of the pooling ops: a window larger than the padded
 * input, zero strides, negative dilations, pads of the wrong length, a rank that does not match
 * kernel_shape, pads whose sum passes 2^63-1, an output past 2^63-1 elements, an attribute of a
 * later version, LpPool's p and LRN's size out of range, a Global pool of rank 1, and valid
 * controls (MaxPool with its Indices, AveragePool with ceil_mode). */
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

static const float k_x16[16] = {1, 5, 2, 7, 3, 9, 4, 0, 8, 6, 1, 2, 5, 3, 7, 4};

/* The same texts with fusion and without. */
static void msg(const char *texts) { expect_msg(texts, texts); }

/* One node `op` "p" at opset over float x of shape [1, 1, 4, 4] (or the rank-r dims xd), its
 * kernel_shape ks (nk values, none when 0) and n_out outputs y (and i). */
static Onnx__ModelProto *pool_model(const char *op, int64_t opset, int r, const int64_t *xd,
                                    int nk, const int64_t *ks, int n_out,
                                    Onnx__NodeProto **n) {
    Onnx__ModelProto *m = model(opset);
    input(m, "x", OSC_FLOAT, r, xd);
    *n = node(m, op, "p", 1, (const char *[]){"x"}, n_out, (const char *[]){"y", "i"});
    if (nk) attr_ints(*n, "kernel_shape", nk, ks);
    output(m, "y", OSC_FLOAT, -1, NULL);
    if (n_out > 1) output(m, "i", OSC_INT64, -1, NULL);
    return m;
}

static const int64_t k_d4[4] = {1, 1, 4, 4}, k_two[2] = {2, 2};

void pool_cases(void) {
    Onnx__NodeProto *n;
    tin ins[1] = {{OSC_FLOAT, 4, {1, 1, 4, 4}, k_x16, sizeof k_x16}};
    Onnx__ModelProto *m = pool_model("MaxPool", 12, 4, k_d4, 2, k_two, 2, &n);
    attr_ints(n, "strides", 2, k_two);
    emit_model("pool_maxpool_valid", m, "OSC_OK", "run",
               "MaxPool-12 2x2 stride 2 with its Indices (control)", 1, ins);
    m = pool_model("AveragePool", 19, 4, k_d4, 2, (const int64_t[]){3, 3}, 1, &n);
    attr_ints(n, "strides", 2, k_two);
    attr_ints(n, "pads", 4, (const int64_t[]){1, 1, 1, 1});
    attr_i(n, "ceil_mode", 1);
    attr_i(n, "count_include_pad", 1);
    emit_model("pool_averagepool_ceil_valid", m, "OSC_OK", "run",
               "AveragePool-19 3x3 stride 2, pads 1, ceil_mode, count_include_pad (control)", 1,
               ins);
    msg("node 'p' (MaxPool-12)\ninput 0 'X' (x) has shape [1,1,4,4]: spatial axis 1 (size 4, "
        "pads 0 and 0) is smaller than the window (kernel 5, dilation 1)");
    emit_model("pool_kernel_too_large", pool_model("MaxPool", 12, 4, k_d4, 2,
               (const int64_t[]){2, 5}, 1, &n), "OSC_ERR_SHAPE", "load",
               "MaxPool with a 2x5 kernel over a 4x4 input", 0, NULL);
    msg("node 'p' (AveragePool-19)\ninput 0 'X' (x) has shape [1,1,4,4]: spatial axis 0 (size "
        "4, pads 0 and 0) is smaller than the window (kernel 2, dilation 4)");
    m = pool_model("AveragePool", 19, 4, k_d4, 2, k_two, 1, &n);
    attr_ints(n, "dilations", 2, (const int64_t[]){4, 1});
    emit_model("pool_dilated_window_too_large", m, "OSC_ERR_SHAPE", "load",
               "AveragePool whose dilated window (5) passes the input (4)", 0, NULL);
    msg("node 'p' (MaxPool-12)\nattribute 'strides' value 0 is 0; expected at least 1");
    m = pool_model("MaxPool", 12, 4, k_d4, 2, k_two, 1, &n);
    attr_ints(n, "strides", 2, (const int64_t[]){0, 1});
    emit_model("pool_stride_zero", m, "OSC_ERR_MODEL", "load", "MaxPool with a zero stride", 0,
               NULL);
    msg("node 'p' (LpPool-18)\nattribute 'dilations' value 1 is -2; expected at least 1");
    m = pool_model("LpPool", 18, 4, k_d4, 2, k_two, 1, &n);
    attr_ints(n, "dilations", 2, (const int64_t[]){1, -2});
    emit_model("pool_dilation_negative", m, "OSC_ERR_MODEL", "load",
               "LpPool with a negative dilation", 0, NULL);
    msg("node 'p' (AveragePool-11)\nattribute 'pads' has 2 values; expected 4 (a begin and an "
        "end per spatial axis of 'kernel_shape')");
    m = pool_model("AveragePool", 11, 4, k_d4, 2, k_two, 1, &n);
    attr_ints(n, "pads", 2, (const int64_t[]){1, 1});
    emit_model("pool_pads_wrong_length", m, "OSC_ERR_MODEL", "load",
               "AveragePool with 2 pads for 2 spatial axes", 0, NULL);
    msg("node 'p' (MaxPool-12)\ninput 0 'X' (x) has shape [1,1,4]; expected rank 4 (N, C and "
        "the 2 spatial axes of 'kernel_shape')");
    emit_model("pool_rank_mismatch", pool_model("MaxPool", 12, 3, (const int64_t[]){1, 1, 4}, 2,
               k_two, 1, &n), "OSC_ERR_SHAPE", "load",
               "MaxPool with a 2-D kernel over a 3-D input", 0, NULL);
    msg("node 'p' (MaxPool-12)\ninput 0 'X' (x) has shape [1,1,4,4]: spatial axis 0 with its "
        "pads and window passes 2^63-1");
    m = pool_model("MaxPool", 12, 4, k_d4, 2, k_two, 1, &n);
    attr_ints(n, "pads", 4, (const int64_t[]){INT64_MAX, 0, 1, 0});
    emit_model("pool_pads_overflow", m, "OSC_ERR_SHAPE", "load",
               "MaxPool whose pads and input pass 2^63-1", 0, NULL);
    msg("node 'p' (MaxPool-12)\nwould have more than 2^63-1 elements");
    m = pool_model("MaxPool", 12, 4, k_d4, 2, k_two, 1, &n);
    attr_ints(n, "pads", 4, (const int64_t[]){INT64_MAX / 4, INT64_MAX / 4, 0, 0});
    emit_model("pool_output_overflow", m, "OSC_ERR_LIMIT", "load",
               "MaxPool whose output would have 2^124 elements", 0, NULL);
    msg("node 'p' (AveragePool-11)\ndilations");
    m = pool_model("AveragePool", 11, 4, k_d4, 2, k_two, 1, &n);
    attr_ints(n, "dilations", 2, k_two);
    emit_model("pool_attribute_of_later_version", m, "OSC_ERR_MODEL", "load",
               "AveragePool-11 with dilations (from 19)", 0, NULL);
    msg("node 'p' (LpPool-18)\nattribute 'p' = 0; expected at least 1");
    m = pool_model("LpPool", 18, 4, k_d4, 2, k_two, 1, &n);
    attr_i(n, "p", 0);
    emit_model("pool_lp_p_zero", m, "OSC_ERR_MODEL", "load", "LpPool with p = 0", 0, NULL);
    msg("node 'p' (LRN-13)\nattribute 'size' = 0; expected at least 1");
    m = pool_model("LRN", 13, 4, k_d4, 0, NULL, 1, &n);
    attr_i(n, "size", 0);
    emit_model("pool_lrn_size_zero", m, "OSC_ERR_MODEL", "load", "LRN with size 0", 0, NULL);
    msg("node 'p' (GlobalAveragePool-22)\ninput 0 'X' (x) has shape [16]; expected rank at "
        "least 2");
    emit_model("pool_global_rank1", pool_model("GlobalAveragePool", 22, 1,
               (const int64_t[]){16}, 0, NULL, 1, &n), "OSC_ERR_SHAPE", "load",
               "GlobalAveragePool over a vector", 0, NULL);
}
