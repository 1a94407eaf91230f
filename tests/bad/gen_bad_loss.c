/* gen_bad_loss.c: malformed-suite cases of the losses and the normalisations that group
 * channels: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss targets outside [0, C) (a
 * gather of the target class: OSC_ERR_INDEX at run, naming the target's coordinates, nothing
 * written), ignore_index the only way past that check, and shapes and attributes refused at
 * load (GroupNormalization's num_groups, LpNormalization's p, a weight of the wrong length). */
#include <stdbool.h>
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

static const float k_x6[6] = {-1, -2, -3, -0.5f, -0.25f, -4};

/* A loss node `op` at `opset` named "l" over x [2, 3], targets [2] of tdtype and, when wlen > 0,
 * weights [wlen]; log_prob also for SCE when two_out; reduction and ignore_index when given
 * (NULL, has_ii false: absent). */
static Onnx__ModelProto *loss_model(const char *op, int64_t opset, int32_t tdtype, int64_t wlen,
                                    const char *reduction, bool has_ii, int64_t ii,
                                    bool two_out) {
    Onnx__ModelProto *m = model(opset);
    input(m, "x", OSC_FLOAT, 2, (const int64_t[]){2, 3});
    input(m, "t", tdtype, 1, (const int64_t[]){2});
    if (wlen) input(m, "w", OSC_FLOAT, 1, &wlen);
    Onnx__NodeProto *n = node(m, op, "l", wlen ? 3 : 2, (const char *[]){"x", "t", "w"},
                              two_out ? 2 : 1, (const char *[]){"loss", "log_prob"});
    if (reduction) attr_s(n, "reduction", reduction);
    if (has_ii) attr_i(n, "ignore_index", ii);
    output(m, "loss", OSC_FLOAT, reduction && reduction[0] == 'n' ? 1 : 0,
           (const int64_t[]){2});
    if (two_out) output(m, "log_prob", OSC_FLOAT, 2, (const int64_t[]){2, 3});
    return m;
}

static void target_case(const char *name, const char *op, bool two_out, int64_t t0, int64_t t1,
                        bool has_ii, int64_t ii, const char *msg, const char *why) {
    const int64_t tg[2] = {t0, t1};
    const tin ins[2] = {{OSC_FLOAT, 2, {2, 3}, k_x6, sizeof k_x6},
                        {OSC_INT64, 1, {2}, tg, sizeof tg}};
    expect_msg(msg, msg);
    emit_model(name, loss_model(op, 13, OSC_INT64, 0, "none", has_ii, ii, two_out),
               msg ? "OSC_ERR_INDEX" : "OSC_OK", "run", why, 2, ins);
}

/* GroupNormalization-21 named "g" over x [1, 4, 2] with num_groups (absent when < 0). */
static Onnx__ModelProto *group_model(int64_t groups, int64_t scale_len) {
    Onnx__ModelProto *m = model(21);
    input(m, "x", OSC_FLOAT, 3, (const int64_t[]){1, 4, 2});
    input(m, "s", OSC_FLOAT, 1, (const int64_t[]){scale_len});
    input(m, "b", OSC_FLOAT, 1, (const int64_t[]){scale_len});
    Onnx__NodeProto *n = node(m, "GroupNormalization", "g", 3, (const char *[]){"x", "s", "b"},
                              1, (const char *[]){"y"});
    if (groups >= 0) attr_i(n, "num_groups", groups);
    output(m, "y", OSC_FLOAT, 3, (const int64_t[]){1, 4, 2});
    return m;
}

void loss_cases(void) {
    static const char *const nll = "NegativeLogLikelihoodLoss";
    static const char *const sce = "SoftmaxCrossEntropyLoss";
    target_case("nll_target_past_end", nll, false, 0, 3, false, 0,
                "node 'l' (NegativeLogLikelihoodLoss-13)\ninput 1 'target' (t) at [1]: value 3 "
                "is out of range [0, 2]",
                "NLL target 3 with C = 3, last position");
    target_case("nll_target_negative", nll, false, -1, 0, true, -100,
                "input 1 'target' (t) at [0]: value -1 is out of range [0, 2] or ignore_index "
                "-100",
                "NLL target -1 when ignore_index is -100, first position");
    target_case("sce_labels_int64_min", sce, true, 1, INT64_MIN, false, 0,
                "node 'l' (SoftmaxCrossEntropyLoss-13)\ninput 1 'labels' (t) at [1]: value "
                "-9223372036854775808 is out of range [0, 2]",
                "SCE label INT64_MIN with log_prob: neither output written");
    target_case("sce_labels_ignored_outside", sce, true, 7, 2, true, 7, NULL,
                "SCE label 7 equal to ignore_index: no error, loss 0 there");
    /* int32 labels */
    const int32_t t32[2] = {INT32_MAX, 0};
    const tin ins32[2] = {{OSC_FLOAT, 2, {2, 3}, k_x6, sizeof k_x6},
                          {OSC_INT32, 1, {2}, t32, sizeof t32}};
    expect_msg("at [0]: value 2147483647 is out of range [0, 2]",
               "at [0]: value 2147483647 is out of range [0, 2]");
    emit_model("nll_target_int32_max", loss_model(nll, 22, OSC_INT32, 0, "sum", false, 0, false),
               "OSC_ERR_INDEX", "run", "NLL-22 int32 target INT32_MAX, sum reduction", 2,
               ins32);
    /* load-time refusals */
    expect_msg("attribute 'reduction' = 'avg'", "attribute 'reduction' = 'avg'");
    emit_model("sce_bad_reduction", loss_model(sce, 13, OSC_INT64, 0, "avg", false, 0, false),
               "OSC_ERR_MODEL", "load", "SCE reduction 'avg'", 0, NULL);
    Onnx__ModelProto *m = loss_model(nll, 13, OSC_INT64, 4, NULL, false, 0, false);
    expect_msg("input 2 'weight' (w) has shape [4]", "input 2 'weight' (w) has shape [4]");
    emit_model("nll_weight_wrong_length", m, "OSC_ERR_SHAPE", "load",
               "NLL weight [4] for C = 3 classes", 0, NULL);
    expect_msg("attribute 'num_groups' = 3", "attribute 'num_groups' = 3");
    emit_model("group_norm_groups_not_dividing", group_model(3, 4), "OSC_ERR_SHAPE", "load",
               "GroupNormalization num_groups 3 for 4 channels", 0, NULL);
    expect_msg("attribute 'num_groups' is required", "attribute 'num_groups' is required");
    emit_model("group_norm_no_groups", group_model(-1, 4), "OSC_ERR_MODEL", "load",
               "GroupNormalization without num_groups", 0, NULL);
    expect_msg("input 1 'scale' (s) has shape [2]", "input 1 'scale' (s) has shape [2]");
    emit_model("group_norm21_scale_per_group", group_model(2, 2), "OSC_ERR_SHAPE", "load",
               "GroupNormalization-21 with scale per group (18's shape)", 0, NULL);
    m = model(22);
    input(m, "x", OSC_FLOAT, 2, (const int64_t[]){2, 3});
    attr_i(node(m, "LpNormalization", "p", 1, (const char *[]){"x"}, 1, (const char *[]){"y"}),
           "p", 3);
    output(m, "y", OSC_FLOAT, 2, (const int64_t[]){2, 3});
    expect_msg("attribute 'p' = 3; allowed: 1 or 2", "attribute 'p' = 3; allowed: 1 or 2");
    emit_model("lp_norm_p3", m, "OSC_ERR_MODEL", "load", "LpNormalization p = 3", 0, NULL);
}
