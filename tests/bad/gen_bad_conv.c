/* gen_bad_conv.c: malformed-suite cases of Conv, ConvTranspose and DeformConv: a kernel larger
 * than the padded input, groups that do not divide the channels, W's channels not C/group,
 * mismatched ranks, negative pads, a bias of the wrong length, an output_shape the input cannot
 * reach, a DeformConv offset of the wrong shape, sizes past 2^63-1, and valid controls (one with
 * a Relu after the Conv, which rule relu_epilogue takes in). */
#include <stdbool.h>
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

static const float k_z[64];

static void msg(const char *texts) { expect_msg(texts, texts); }

/* One node "cv" of `op` at `opset` over float inputs x, w (and b, offset when their rank is not
 * 0; DeformConv takes x, w, offset, b); output y. */
typedef struct shp {
    int rank;
    int64_t dims[4];
} shp;
static Onnx__ModelProto *conv_model(const char *op, int64_t opset, shp x, shp w, shp b,
                                    shp off) {
    Onnx__ModelProto *mo = model(opset);
    const bool deform = off.rank != 0;
    const char *names[4] = {"x", "w", deform ? "off" : "b", deform ? "b" : ""};
    const shp s[4] = {x, w, deform ? off : b, deform ? b : (shp){0, {0}}};
    int n_in = 0;
    for (int i = 0; i < 4; i++)
        if (s[i].rank) {
            input(mo, names[i], OSC_FLOAT, s[i].rank, s[i].dims);
            n_in = i + 1;
        }
    node(mo, op, "cv", n_in, names, 1, (const char *[]){"y"});
    output(mo, "y", OSC_FLOAT, -1, NULL);
    return mo;
}
#define S4(a, b, c, d) ((shp){4, {a, b, c, d}})
#define S3(a, b, c) ((shp){3, {a, b, c}})
#define S1(a) ((shp){1, {a}})
#define NO ((shp){0, {0}})

void conv_cases(void) {
    Onnx__ModelProto *m;
    const tin ins[2] = {{OSC_FLOAT, 4, {1, 1, 4, 4}, k_z, 64},
                        {OSC_FLOAT, 4, {1, 1, 3, 3}, k_z, 36}};
    emit_model("conv_valid", conv_model("Conv", 22, S4(1, 1, 4, 4), S4(1, 1, 3, 3), NO, NO),
               "OSC_OK", "run", "Conv-22, a 3x3 kernel over a 4x4 image (control)", 2, ins);
    static const float k_x16[16] = {1, -2, 3, -4, 0, 5, -6, 7, -8, 9, 0, -1, 2, -3, 4, -5};
    static const float k_w9[9] = {1, -1, 0.5f, -2, 0, 1, -0.5f, 2, -1}, k_b1[1] = {-0.25f};
    const tin rins[3] = {{OSC_FLOAT, 4, {1, 1, 4, 4}, k_x16, sizeof k_x16},
                         {OSC_FLOAT, 4, {1, 1, 3, 3}, k_w9, sizeof k_w9},
                         {OSC_FLOAT, 1, {1}, k_b1, sizeof k_b1}};
    m = conv_model("Conv", 22, S4(1, 1, 4, 4), S4(1, 1, 3, 3), S1(1), NO);
    m->graph->node[0]->output[0] = F("p"); /* the graph's output y is now the Relu's */
    node(m, "Relu", "relu", 1, (const char *[]){"p"}, 1, (const char *[]){"y"});
    emit_model("conv_relu_valid", m, "OSC_OK", "run", "Conv-22 with a bias, then Relu (one Conv "
               "storing Relu's values when fused; control)", 3, rins);
    msg("node 'cv' (Conv-22)\nspatial axis 0 (dim 2 of input 0 'X' (x)): the kernel spans 5 "
        "elements (size 5, dilation 1) but the padded input has 4 (size 4, pads 0 and 0)");
    emit_model("conv_kernel_larger_than_input", conv_model("Conv", 22, S4(1, 1, 4, 4),
               S4(1, 1, 5, 5), NO, NO), "OSC_ERR_SHAPE", "load",
               "Conv with a 5x5 kernel over a 4x4 image, no pads", 0, NULL);
    m = conv_model("Conv", 11, S4(1, 3, 4, 4), S4(2, 1, 3, 3), NO, NO);
    attr_i(m->graph->node[0], "group", 2);
    msg("input 0 'X' (x) has 3 channels (dim 1 of [1,3,4,4]); attribute 'group' is 2; expected "
        "a channel count divisible by the groups");
    emit_model("conv_group_not_dividing", m, "OSC_ERR_SHAPE", "load",
               "Conv with 3 channels in 2 groups", 0, NULL);
    msg("input 1 'W' (w) has shape [2,3,3,3]; expected dim 1 2 (channels 4 of X / group 2)");
    m = conv_model("Conv", 22, S4(1, 4, 4, 4), S4(2, 3, 3, 3), NO, NO);
    attr_i(m->graph->node[0], "group", 2);
    emit_model("conv_w_channels", m, "OSC_ERR_SHAPE", "load",
               "Conv whose W has 3 channels for 4 inputs in 2 groups", 0, NULL);
    msg("input 0 'X' (x) has shape [1,1,4] and input 1 'W' (w) shape [1,1,3,3]; expected the "
        "same rank, at least 3");
    emit_model("conv_rank_mismatch", conv_model("Conv", 22, S3(1, 1, 4), S4(1, 1, 3, 3), NO,
               NO), "OSC_ERR_SHAPE", "load", "Conv of a 1-D X with a 2-D kernel", 0, NULL);
    static const int64_t neg[4] = {0, -1, 0, 0}, huge[4] = {INT64_MAX, 0, 0, 0};
    m = conv_model("Conv", 22, S4(1, 1, 4, 4), S4(1, 1, 3, 3), NO, NO);
    attr_ints(m->graph->node[0], "pads", 4, neg);
    msg("node 'cv' (Conv-22)\nattribute 'pads' value 1 is -1; expected at least 0");
    emit_model("conv_negative_pads", m, "OSC_ERR_MODEL", "load", "Conv with a pad of -1", 0,
               NULL);
    m = conv_model("Conv", 22, S4(1, 1, 4, 4), S4(1, 1, 3, 3), NO, NO);
    attr_ints(m->graph->node[0], "pads", 4, huge);
    msg("spatial axis 0: input size 4 plus pads 9223372036854775807 and 0 is past 2^63-1");
    emit_model("conv_pads_overflow", m, "OSC_ERR_LIMIT", "load", "Conv with a pad of 2^63-1",
               0, NULL);
    msg("input 2 'B' (b) has shape [2]; expected [1] (one bias per output channel)");
    emit_model("conv_bias_length", conv_model("Conv", 22, S4(1, 1, 4, 4), S4(1, 1, 3, 3), S1(2),
               NO), "OSC_ERR_SHAPE", "load", "Conv with 2 biases for 1 output channel", 0,
               NULL);
    static const int64_t big[2] = {5, 9};
    m = conv_model("ConvTranspose", 22, S4(1, 1, 3, 3), S4(1, 1, 3, 3), NO, NO);
    attr_ints(m->graph->node[0], "output_shape", 2, big);
    msg("node 'cv' (ConvTranspose-22)\nattribute 'output_shape' value 1 is 9; input 0 'X' (x) "
        "with size 3, stride 1 and kernel span 3 gives at most 6 on that axis");
    emit_model("convtranspose_output_shape_unreachable", m, "OSC_ERR_SHAPE", "load",
               "ConvTranspose asked for 9 outputs from 3 inputs at stride 1", 0, NULL);
    msg("node 'cv' (DeformConv-22)\ninput 2 'offset' (off) has shape [1,8,2,3]; expected "
        "[1,8,2,2]");
    emit_model("deformconv_offset_shape", conv_model("DeformConv", 22, S4(1, 1, 3, 3),
               S4(1, 1, 2, 2), NO, S4(1, 8, 2, 3)), "OSC_ERR_SHAPE", "load",
               "DeformConv whose offset covers 2x3 outputs of 2x2", 0, NULL);
}
