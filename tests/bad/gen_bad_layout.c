/* gen_bad_layout.c: malformed-suite cases of DepthToSpace, SpaceToDepth, CenterCropPad, Det and
 * BitCast: block sizes that are zero or do not divide the dims, a bad mode, a negative or
 * mis-sized crop target, axes out of range, a non-square Det input, BitCast between widths; and a
 * valid control of each op. */
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

static const float k_x16[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* The same texts with fusion and without. */
static void msg(const char *texts) { expect_msg(texts, texts); }

/* op (DepthToSpace or SpaceToDepth) at opset 13 on x [d0,d1,d2,d3] float; blocksize b (0: the
 * attribute left out); mode NULL: none. */
static Onnx__ModelProto *depth_model(const char *op, const int64_t *d, int64_t b,
                                     const char *mode, int with_b) {
    Onnx__ModelProto *m = model(13);
    input(m, "x", OSC_FLOAT, 4, d);
    Onnx__NodeProto *n = node(m, op, "d", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    if (with_b) attr_i(n, "blocksize", b);
    if (mode) attr_s(n, "mode", mode);
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

static void depth_cases(void) {
    static const int64_t d4[4] = {1, 4, 2, 2}, d6[4] = {1, 6, 1, 1}, s3[4] = {1, 1, 3, 4},
                         r4[4] = {1, 1, 4, 4};
    tin in4[1] = {{OSC_FLOAT, 4, {1, 4, 2, 2}, k_x16, sizeof k_x16}};
    tin in_s[1] = {{OSC_FLOAT, 4, {1, 1, 4, 4}, k_x16, sizeof k_x16}};
    emit_model("depthtospace_valid", depth_model("DepthToSpace", d4, 2, "CRD", 1), "OSC_OK",
               "run", "DepthToSpace-13 CRD, [1,4,2,2] blocksize 2 into [1,1,4,4] (control)", 1,
               in4);
    emit_model("spacetodepth_valid", depth_model("SpaceToDepth", r4, 2, NULL, 1), "OSC_OK",
               "run", "SpaceToDepth-13, [1,1,4,4] blocksize 2 into [1,4,2,2] (control)", 1, in_s);
    msg("node 'd' (DepthToSpace-13)\nattribute 'blocksize' = 0 is out of range [1, 2^31-1]");
    emit_model("depthtospace_blocksize_zero", depth_model("DepthToSpace", d4, 0, NULL, 1),
               "OSC_ERR_MODEL", "load", "DepthToSpace with blocksize 0", 0, NULL);
    msg("attribute 'blocksize' = -2 is out of range [1, 2^31-1]");
    emit_model("spacetodepth_blocksize_negative", depth_model("SpaceToDepth", r4, -2, NULL, 1),
               "OSC_ERR_MODEL", "load", "SpaceToDepth with blocksize -2", 0, NULL);
    msg("attribute 'blocksize' is required");
    emit_model("depthtospace_no_blocksize", depth_model("DepthToSpace", d4, 0, NULL, 0),
               "OSC_ERR_MODEL", "load", "DepthToSpace without its required blocksize", 0, NULL);
    msg("attribute 'mode' = 'RDC'; allowed: DCR, CRD");
    emit_model("depthtospace_bad_mode", depth_model("DepthToSpace", d4, 2, "RDC", 1),
               "OSC_ERR_MODEL", "load", "DepthToSpace with mode RDC", 0, NULL);
    msg("input 0 'input' (x) has shape [1,6,1,1]: dim 1 (C) 6 is not a multiple of "
        "blocksize^2 = 4");
    emit_model("depthtospace_channels_not_divisible", depth_model("DepthToSpace", d6, 2, NULL, 1),
               "OSC_ERR_SHAPE", "load", "DepthToSpace of 6 channels with blocksize 2", 0, NULL);
    msg("input 0 'input' (x) has shape [1,1,3,4]: dims 2 and 3 (H, W) must be multiples of "
        "blocksize 2");
    emit_model("spacetodepth_height_not_divisible", depth_model("SpaceToDepth", s3, 2, NULL, 1),
               "OSC_ERR_SHAPE", "load", "SpaceToDepth of height 3 with blocksize 2", 0, NULL);
}

/* CenterCropPad-18 of x [3, 4] float with the target `shape` as a run input of n values and
 * axes (n_axes 0: none). */
static Onnx__ModelProto *ccp_model(int n, int n_axes, const int64_t *axes) {
    Onnx__ModelProto *m = model(18);
    input(m, "x", OSC_FLOAT, 2, (const int64_t[]){3, 4});
    input(m, "s", OSC_INT64, 1, (const int64_t[]){n});
    Onnx__NodeProto *nd = node(m, "CenterCropPad", "c", 2, (const char *[]){"x", "s"}, 1,
                               (const char *[]){"y"});
    if (n_axes) attr_ints(nd, "axes", n_axes, axes);
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

static void ccp_cases(void) {
    tin ins[2] = {{OSC_FLOAT, 2, {3, 4}, k_x16, 12 * sizeof(float)},
                  {OSC_INT64, 1, {2}, (const int64_t[]){2, 7}, 2 * sizeof(int64_t)}};
    emit_model("centercroppad_valid", ccp_model(2, 0, NULL), "OSC_OK", "run",
               "CenterCropPad-18 of [3,4] to [2,7]: crop one row, pad three columns (control)",
               2, ins);
    msg("node 'c' (CenterCropPad-18)\ninput 1 'shape' (s) position 1: value -3 is negative; "
        "allowed: [0, 2^63-1]");
    ins[1].data = (const int64_t[]){2, -3};
    emit_model("centercroppad_negative_target", ccp_model(2, 0, NULL), "OSC_ERR_SHAPE", "run",
               "CenterCropPad target [2,-3]", 2, ins);
    msg("input 1 'shape' (s) has 3 values; expected 2 (one for each of the 2 dims of input 0)");
    ins[1] = (tin){OSC_INT64, 1, {3}, (const int64_t[]){2, 2, 2}, 3 * sizeof(int64_t)};
    emit_model("centercroppad_target_length", ccp_model(3, 0, NULL), "OSC_ERR_SHAPE", "run",
               "CenterCropPad target of 3 values for a rank-2 input", 2, ins);
    msg("attribute 'axes'\n2");
    ins[1] = (tin){OSC_INT64, 1, {1}, (const int64_t[]){2}, sizeof(int64_t)};
    emit_model("centercroppad_axis_out_of_range", ccp_model(1, 1, (const int64_t[]){2}),
               "OSC_ERR_SHAPE", "run", "CenterCropPad axes [2] on a rank-2 input", 2, ins);
    msg("output would have more than 2^63-1 elements");
    ins[1] = (tin){OSC_INT64, 1, {2}, (const int64_t[]){INT64_MAX, 4}, 2 * sizeof(int64_t)};
    emit_model("centercroppad_absurd_target", ccp_model(2, 0, NULL), "OSC_ERR_LIMIT", "run",
               "CenterCropPad target [2^63-1, 4]: refused before anything is allocated", 2, ins);
}

/* Det at `opset` of x float with the given shape. */
static Onnx__ModelProto *det_model(int64_t opset, int rank, const int64_t *d) {
    Onnx__ModelProto *m = model(opset);
    input(m, "x", OSC_FLOAT, rank, d);
    node(m, "Det", "t", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

/* BitCast-26 of x (dtype from) to `to`. */
static Onnx__ModelProto *bitcast_model(int32_t from, int64_t to) {
    Onnx__ModelProto *m = model(26);
    input(m, "x", from, 1, (const int64_t[]){4});
    Onnx__NodeProto *n = node(m, "BitCast", "b", 1, (const char *[]){"x"}, 1,
                              (const char *[]){"y"});
    attr_i(n, "to", to);
    output(m, "y", (int32_t)to, -1, NULL);
    return m;
}

static void det_bitcast_cases(void) {
    tin det_in[1] = {{OSC_FLOAT, 3, {2, 2, 2}, k_x16, 8 * sizeof(float)}};
    emit_model("det_valid", det_model(22, 3, (const int64_t[]){2, 2, 2}), "OSC_OK", "run",
               "Det-22 of two 2x2 matrices (control)", 1, det_in);
    msg("node 't' (Det-11)\ninput 0 'X' (x) has shape [2,3]; expected [..., M, M]");
    emit_model("det_not_square", det_model(11, 2, (const int64_t[]){2, 3}), "OSC_ERR_SHAPE",
               "load", "Det of a 2x3 matrix", 0, NULL);
    msg("input 0 'X' (x) has shape [4]; expected [..., M, M]");
    emit_model("det_rank1", det_model(22, 1, (const int64_t[]){4}), "OSC_ERR_SHAPE", "load",
               "Det of a vector", 0, NULL);
    tin bc_in[1] = {{OSC_FLOAT, 1, {4}, k_x16, 4 * sizeof(float)}};
    emit_model("bitcast_valid", bitcast_model(OSC_FLOAT, OSC_INT32), "OSC_OK", "run",
               "BitCast-26 float to int32 (control)", 1, bc_in);
    msg("node 'b' (BitCast-26)\ninput 0 'input' (x) is float (32 bits) but attribute 'to' is "
        "int64 (64 bits)");
    emit_model("bitcast_width_mismatch", bitcast_model(OSC_FLOAT, OSC_INT64), "OSC_ERR_MODEL",
               "load", "BitCast float to int64", 0, NULL);
    msg("attribute 'to' = 8 is not a dtype BitCast allows");
    emit_model("bitcast_to_string", bitcast_model(OSC_FLOAT, OSC_STRING), "OSC_ERR_MODEL",
               "load", "BitCast to string", 0, NULL);
}

void layout_cases(void) {
    depth_cases();
    ccp_cases();
    det_bitcast_cases();
}
