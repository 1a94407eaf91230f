/* gen_bad_select.c: malformed-suite cases of Compress, Trilu, CumProd, EyeLike and
 * ReverseSequence: a condition that is not bool or selects past the axis, inputs of the wrong
 * rank, sequence lengths outside the time dim, attributes out of range, and a valid control of
 * each op. */
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

static const float k_x6[6] = {1, 2, 3, 4, 5, 6};

/* The same texts with fusion and without. */
static void msg(const char *texts) { expect_msg(texts, texts); }

/* Compress-11 of x float [2, 3] along axis 0 with a condition c of cdtype and n entries. */
static Onnx__ModelProto *compress_model(int32_t cdtype, int rank, const int64_t *cdims) {
    Onnx__ModelProto *m = model(11);
    input(m, "x", OSC_FLOAT, 2, (const int64_t[]){2, 3});
    input(m, "c", cdtype, rank, cdims);
    Onnx__NodeProto *n = node(m, "Compress", "cp", 2, (const char *[]){"x", "c"}, 1,
                              (const char *[]){"y"});
    attr_i(n, "axis", 0);
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

static void compress_cases(void) {
    static const uint8_t keep2[2] = {0, 1}, past[3] = {1, 0, 1}, tail[3] = {1, 1, 0};
    static const int64_t ints[2] = {0, 1};
    tin ins[2] = {{OSC_FLOAT, 2, {2, 3}, k_x6, sizeof k_x6}, {OSC_BOOL, 1, {2}, keep2, 2}};
    emit_model("compress_valid", compress_model(OSC_BOOL, 1, (const int64_t[]){2}), "OSC_OK",
               "run", "Compress-11 keeping row 1 of 2 (control)", 2, ins);
    ins[1] = (tin){OSC_BOOL, 1, {3}, tail, 3};
    emit_model("compress_condition_longer_false", compress_model(OSC_BOOL, 1,
               (const int64_t[]){3}), "OSC_OK", "run", "Compress condition of 3 entries on an "
               "axis of 2, the third false (numpy.compress allows it)", 2, ins);
    msg("node 'cp' (Compress-11)\ninput 1 'condition' (c) position 2: value true selects past "
        "the axis's 2 entries");
    ins[1] = (tin){OSC_BOOL, 1, {3}, past, 3};
    emit_model("compress_condition_true_past_axis", compress_model(OSC_BOOL, 1,
               (const int64_t[]){3}), "OSC_ERR_INDEX", "run", "Compress condition true at "
               "position 2 of an axis of 2 entries", 2, ins);
    msg("input 1 'c' has dtype int64; expected bool");
    ins[1] = (tin){OSC_INT64, 1, {2}, ints, sizeof ints};
    emit_model("compress_condition_not_bool", compress_model(OSC_INT64, 1, (const int64_t[]){2}),
               "OSC_ERR_SHAPE", "load", "Compress with an int64 condition (bool only)", 2, ins);
    msg("input 1 'condition' (c) has shape [1,2]; expected rank 1");
    ins[1] = (tin){OSC_BOOL, 2, {1, 2}, keep2, 2};
    emit_model("compress_condition_rank2", compress_model(OSC_BOOL, 2, (const int64_t[]){1, 2}),
               "OSC_ERR_SHAPE", "run", "Compress with a [1,2] condition (rank 1 only)", 2, ins);
}

/* Trilu-14 of x float of the given shape, with k an int64 input of shape kdims when krank >= 0. */
static Onnx__ModelProto *trilu_model(int rank, const int64_t *dims, int krank,
                                     const int64_t *kdims) {
    Onnx__ModelProto *m = model(14);
    input(m, "x", OSC_FLOAT, rank, dims);
    if (krank >= 0) input(m, "k", OSC_INT64, krank, kdims);
    node(m, "Trilu", "tr", krank >= 0 ? 2 : 1, (const char *[]){"x", "k"}, 1,
         (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

static void trilu_cases(void) {
    static const int64_t kv[2] = {1, 2};
    tin ins[2] = {{OSC_FLOAT, 2, {2, 3}, k_x6, sizeof k_x6}, {OSC_INT64, 0, {0}, kv, 8}};
    emit_model("trilu_valid", trilu_model(2, (const int64_t[]){2, 3}, 0, NULL), "OSC_OK", "run",
               "Trilu-14, upper from diagonal 1 of a 2x3 matrix (control)", 2, ins);
    msg("node 'tr' (Trilu-14)\ninput 0 'input' (x) has shape [6]; expected rank >= 2");
    ins[0] = (tin){OSC_FLOAT, 1, {6}, k_x6, sizeof k_x6};
    emit_model("trilu_rank1", trilu_model(1, (const int64_t[]){6}, -1, NULL), "OSC_ERR_SHAPE",
               "load", "Trilu of a rank-1 input (matrices only)", 0, NULL);
    msg("input 1 'k' (k) has shape [2]; expected a scalar");
    ins[0] = (tin){OSC_FLOAT, 2, {2, 3}, k_x6, sizeof k_x6};
    ins[1] = (tin){OSC_INT64, 1, {2}, kv, sizeof kv};
    emit_model("trilu_k_not_scalar", trilu_model(2, (const int64_t[]){2, 3}, 1,
               (const int64_t[]){2}), "OSC_ERR_SHAPE", "load", "Trilu with a k of two values",
               0, NULL);
}

/* CumProd-26 of x float [2, 3] along the int64 scalar input axis. */
static void cumprod_cases(void) {
    Onnx__ModelProto *m = model(26);
    input(m, "x", OSC_FLOAT, 2, (const int64_t[]){2, 3});
    input(m, "a", OSC_INT64, 0, NULL);
    node(m, "CumProd", "cp", 2, (const char *[]){"x", "a"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    tin ins[2] = {{OSC_FLOAT, 2, {2, 3}, k_x6, sizeof k_x6},
                  {OSC_INT64, 0, {0}, (const int64_t[]){1}, 8}};
    emit_model("cumprod_valid", m, "OSC_OK", "run", "CumProd-26 along axis 1 (control)", 2, ins);
    msg("node 'cp' (CumProd-26)\ninput 1 'axis' (a): value 2 is out of range [-2, 1]");
    ins[1].data = (const int64_t[]){2};
    emit_model("cumprod_axis_out_of_range", m, "OSC_ERR_SHAPE", "run", "CumProd axis 2 on a "
               "rank-2 input", 2, ins);
}

/* EyeLike-22 of x float of the given shape; dtype 0: no dtype attribute. */
static Onnx__ModelProto *eyelike_model(int rank, const int64_t *dims, int64_t dtype) {
    Onnx__ModelProto *m = model(22);
    input(m, "x", OSC_FLOAT, rank, dims);
    Onnx__NodeProto *n = node(m, "EyeLike", "eye", 1, (const char *[]){"x"}, 1,
                              (const char *[]){"y"});
    if (dtype) attr_i(n, "dtype", dtype);
    attr_i(n, "k", 1);
    output(m, "y", dtype ? (int32_t)dtype : OSC_FLOAT, -1, NULL);
    return m;
}

static void eyelike_cases(void) {
    tin ins[1] = {{OSC_FLOAT, 2, {2, 3}, k_x6, sizeof k_x6}};
    emit_model("eyelike_valid", eyelike_model(2, (const int64_t[]){2, 3}, OSC_INT32), "OSC_OK",
               "run", "EyeLike-22, int32 ones on diagonal 1 of 2x3 (control)", 1, ins);
    msg("node 'eye' (EyeLike-22)\ninput 0 'input' (x) has shape [1,2,3]; expected rank 2");
    emit_model("eyelike_rank3", eyelike_model(3, (const int64_t[]){1, 2, 3}, 0),
               "OSC_ERR_SHAPE", "load", "EyeLike of a rank-3 input (2-D only)", 0, NULL);
    msg("attribute 'dtype' = 8 (string) is not an output type of this op");
    emit_model("eyelike_dtype_string", eyelike_model(2, (const int64_t[]){2, 3}, OSC_STRING),
               "OSC_ERR_MODEL", "load", "EyeLike with dtype string (numbers and bool only)", 0,
               NULL);
}

/* ReverseSequence-10 of x float [4, 2] (time 4, batch 2) with the attributes given. */
static Onnx__ModelProto *revseq_model(int64_t batch_axis, int64_t time_axis) {
    Onnx__ModelProto *m = model(10);
    input(m, "x", OSC_FLOAT, 2, (const int64_t[]){4, 2});
    input(m, "lens", OSC_INT64, 1, (const int64_t[]){2});
    Onnx__NodeProto *n = node(m, "ReverseSequence", "rs", 2, (const char *[]){"x", "lens"}, 1,
                              (const char *[]){"y"});
    attr_i(n, "batch_axis", batch_axis);
    attr_i(n, "time_axis", time_axis);
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

static void revseq_cases(void) {
    static const float x8[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    tin ins[2] = {{OSC_FLOAT, 2, {4, 2}, x8, sizeof x8},
                  {OSC_INT64, 1, {2}, (const int64_t[]){4, 2}, 16}};
    emit_model("revseq_valid", revseq_model(1, 0), "OSC_OK", "run", "ReverseSequence-10 of "
               "lengths 4 and 2 (control)", 2, ins);
    msg("node 'rs' (ReverseSequence-10)\ninput 1 'sequence_lens' (lens) position 1: value 5 is "
        "out of range [0, 4]");
    ins[1].data = (const int64_t[]){4, 5};
    emit_model("revseq_len_past_time", revseq_model(1, 0), "OSC_ERR_INDEX", "run",
               "ReverseSequence length 5 with a time dim of 4, last position", 2, ins);
    msg("position 0: value -1 is out of range [0, 4]");
    ins[1].data = (const int64_t[]){-1, 2};
    emit_model("revseq_len_negative", revseq_model(1, 0), "OSC_ERR_INDEX", "run",
               "ReverseSequence length -1, first position", 2, ins);
    msg("attributes 'batch_axis' = 0 and 'time_axis' = 0; each must be 0 or 1, and they must "
        "differ");
    emit_model("revseq_same_axes", revseq_model(0, 0), "OSC_ERR_MODEL", "load",
               "ReverseSequence with batch_axis and time_axis both 0", 0, NULL);
}

void select_cases(void) {
    compress_cases();
    trilu_cases();
    cumprod_cases();
    eyelike_cases();
    revseq_cases();
}
