/* test_fusion_why.c: a fusion candidate left as it is says why (osc_node_desc.not_fused, the
 * first anchored rule's reason, rewrite/pass.c osc_rw_no): the rule and the condition that
 * failed. A node that is no candidate (its pattern's start is missing), a fused node and every
 * node of a model loaded with opts.no_fusion say nothing. The graphs:
 *     GatherElements(x [6, 4], Expand(Unsqueeze(idx [6], [1]), [6, 4]), axis)     row_gather
 *     GatherElements(x, idx2 [6, 4], axis 0)                                       no candidate
 *     ScatterElements(data [6, 4], Expand(Unsqueeze(idx [6], [1]), [6, 4]), Gather(x, idx), axis)
 *                                                                           gather_scatter_se
 *     ScatterElements(data, idx2 [6, 4], Gather(x, idx), axis 1)    gather_scatter_se (axis)
 *     ScatterElements(data, idx2 [6, 4], Gather(x, idx), axis 0)                  no candidate
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

enum { N = 6, C = 4 };

/* A graph of opset `opset` and inputs ins[0..2], one of them "idx" [N], with
 * ie = Expand(Unsqueeze(idx, [1]), [N, C]) made: the exporters' index of one row per update. */
static osc_mw *with_expanded_idx(int64_t opset, const osc_mw_value *ins) {
    const int64_t one[1] = {1}, two[1] = {2}, shape[2] = {N, C};
    osc_mw *mw = osc_mw_graph(opset, 3, ins);
    osc_tensor t = osc_test_view(OSC_INT64, 1, one, one);
    osc_mw_initializer(mw, "axes", &t);
    t = osc_test_view(OSC_INT64, 1, two, shape);
    osc_mw_initializer(mw, "shape", &t);
    osc_mw_node(mw, "Unsqueeze", "u", 2, (const char *[]){"idx", "axes"}, 1,
                (const char *[]){"i1"});
    osc_mw_node(mw, "Expand", "e", 2, (const char *[]){"i1", "shape"}, 1, (const char *[]){"ie"});
    return mw;
}

/* The writer's model (freed) loaded, fused unless no_fusion. */
static osc_model *load(osc_mw *mw, bool no_fusion) {
    void *buf = NULL;
    size_t len = 0;
    if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) fail_msg("writer: %s", osc_mw_error(mw));
    osc_mw_free(mw);
    osc_options o;
    osc_options_init(&o);
    o.no_fusion = no_fusion;
    osc_model *m = NULL;
    char msg[512];
    if (osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg)) fail_msg("load: %s", msg);
    free(buf);
    return m;
}

/* The row_gather graph along `axis`; expand: the index is ie (else a plain input). */
static osc_model *row_gather_model(int64_t axis, bool expand, bool no_fusion) {
    const int64_t xd[2] = {N, C}, id[1] = {N};
    const osc_mw_value ins[3] = {{"x", OSC_FLOAT, 2, xd, NULL}, {"idx", OSC_INT64, 1, id, NULL},
                                 {"idx2", OSC_INT64, 2, xd, NULL}};
    osc_mw *mw = with_expanded_idx(13, ins);
    int n = osc_mw_node(mw, "GatherElements", "g", 2, (const char *[]){"x", expand ? "ie" : "idx2"},
                        1, (const char *[]){"y"});
    osc_mw_attr_int(mw, n, "axis", axis);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, xd, NULL);
    return load(mw, no_fusion);
}

/* The gather_scatter_se graph of dtype `dt` (float or int64) along `axis`; plain: its indices
 * an input [N, C] (a scatter of single elements, as a mixture of experts' gate weights) instead
 * of the Expand. */
static osc_model *scatter_model_of(int32_t dt, int64_t axis, bool plain) {
    const int64_t xd[2] = {N, C}, id[1] = {N};
    const osc_mw_value ins[3] = {{"x", dt, 2, xd, NULL}, {"data", dt, 2, xd, NULL},
                                 {"idx", OSC_INT64, 1, id, NULL}};
    osc_mw *mw = with_expanded_idx(16, ins);
    if (plain) osc_mw_input(mw, "idx2", OSC_INT64, 2, xd, NULL);
    osc_mw_node(mw, "Gather", "g", 2, (const char *[]){"x", "idx"}, 1, (const char *[]){"xj"});
    int n = osc_mw_node(mw, "ScatterElements", "s", 3,
                        (const char *[]){"data", plain ? "idx2" : "ie", "xj"}, 1,
                        (const char *[]){"y"});
    osc_mw_attr_int(mw, n, "axis", axis);
    osc_mw_attr_string(mw, n, "reduction", "add");
    osc_mw_output(mw, "y", dt, 2, xd, NULL);
    return load(mw, false);
}

static osc_model *scatter_model(int32_t dt, int64_t axis) {
    return scatter_model_of(dt, axis, false);
}

/* The description of the node named `name` (the test fails when there is none). */
static osc_node_desc node_named(const osc_model *m, const char *name) {
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        osc_node_desc d;
        assert_int_equal(osc_model_node(m, i, &d), OSC_OK);
        if (d.name && !strcmp(d.name, name)) return d;
    }
    fail_msg("no node named '%s'", name);
    return (osc_node_desc){0};
}

/* No node of m says why it was not fused. */
static void no_reasons(const osc_model *m) {
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        osc_node_desc d;
        assert_int_equal(osc_model_node(m, i, &d), OSC_OK);
        if (d.not_fused) fail_msg("node %zu (%s) says '%s'", i, d.op_type, d.not_fused);
    }
}

static void row_gather_fused_says_nothing(void **state) {
    (void)state;
    osc_model *m = row_gather_model(0, true, false);
    osc_node_desc d = node_named(m, "g");
    assert_string_equal(d.op_type, "RowGather");
    assert_string_equal(d.fused_rule, "row_gather");
    no_reasons(m);
    osc_model_free(m);
}

static void row_gather_other_axis(void **state) {
    (void)state;
    osc_model *m = row_gather_model(1, true, false);
    osc_node_desc d = node_named(m, "g");
    assert_string_equal(d.op_type, "GatherElements");
    assert_null(d.fused_rule);
    assert_non_null(d.not_fused);
    assert_string_equal(d.not_fused, "row_gather: axis 1: the rule gathers along axis 0");
    osc_model_free(m);
    m = row_gather_model(1, true, true); /* no fusion: no rule was offered anything */
    no_reasons(m);
    osc_model_free(m);
}

static void not_a_candidate(void **state) {
    (void)state;
    osc_model *m = row_gather_model(1, false, false); /* its index is no Expand */
    assert_string_equal(node_named(m, "g").op_type, "GatherElements");
    no_reasons(m);
    osc_model_free(m);
}

static void scatter_reasons(void **state) {
    (void)state;
    osc_model *m = scatter_model(OSC_FLOAT, 0);
    assert_string_equal(node_named(m, "s").fused_rule, "gather_scatter_se");
    no_reasons(m);
    osc_model_free(m);
    m = scatter_model(OSC_FLOAT, 1);
    assert_string_equal(node_named(m, "s").not_fused,
                        "gather_scatter_se: axis 1: fused scatters run along axis 0");
    osc_model_free(m);
    m = scatter_model(OSC_INT64, 0);
    assert_string_equal(node_named(m, "s").not_fused,
                        "gather_scatter_se: data is int64: fused scatters take float or double");
    osc_model_free(m);
    /* single elements along axis 1 say so too; along axis 0 they are no candidate */
    m = scatter_model_of(OSC_FLOAT, 1, true);
    assert_string_equal(node_named(m, "s").not_fused,
                        "gather_scatter_se: axis 1: fused scatters run along axis 0");
    osc_model_free(m);
    m = scatter_model_of(OSC_FLOAT, 0, true);
    assert_null(node_named(m, "s").not_fused);
    osc_model_free(m);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(row_gather_fused_says_nothing),
    cmocka_unit_test(row_gather_other_axis),
    cmocka_unit_test(not_a_candidate),
    cmocka_unit_test(scatter_reasons),
)
