/* test_build_config.c: what the build options keep and leave out (OSC_OPS, OSC_THREADS): an op
 * left out is refused at load with the usual message naming it, the scatter family always runs,
 * and sessions of a build without threads run on the caller's thread. Built in every
 * configuration; the expectations follow the configuration (osc_ops_config.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onnx_scatter.h"
#include "osc_ops_config.h"
#include "tests/support/mw_check.h"
#include "unit/test_embed_models.h"
#include "tests/support/check.h"

/* a[2] + b[2] -> y (opset 14), the node named "plus"; op_type as given. */
static void *binary_model(const char *op_type, size_t *len) {
    const int64_t d[1] = {2};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 14);
    osc_mw_input(mw, "a", OSC_FLOAT, 1, d, NULL);
    osc_mw_input(mw, "b", OSC_FLOAT, 1, d, NULL);
    const char *in[2] = {"a", "b"}, *out[1] = {"y"};
    osc_mw_node(mw, op_type, "plus", 2, in, 1, out);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d, NULL);
    return osc_check_serialize(mw, len);
}

/* Add is not in the scatter family: a build without it refuses it at load, naming the op, the
 * node and the build option; a build with it runs it. */
static void test_left_out_op(void **state) {
    (void)state;
    size_t len;
    void *buf = binary_model("Add", &len);
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    osc_status st = osc_model_load_buffer(buf, len, NULL, NULL, &m, msg, sizeof msg);
    free(buf);
#if OSC_OP_Add
    if (st) fail_msg("%s", msg);
    osc_model_free(m);
#else
    assert_int_equal(st, OSC_ERR_UNSUPPORTED);
    assert_null(m);
    static const char spec[] = "OSC_OPS=" OSC_OPS_SPEC;
    const char *want[] = {"unsupported op Add-14", "node 'plus'", "not compiled into this build",
                          spec};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(msg, want[i])) fail_msg("'%s' not in: %s", want[i], msg);
#endif
}

/* An op no build has keeps the usual message, without the build's excuse. */
static void test_unknown_op(void **state) {
    (void)state;
    size_t len;
    void *buf = binary_model("NoSuchOp", &len);
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    assert_int_equal(osc_model_load_buffer(buf, len, NULL, NULL, &m, msg, sizeof msg),
                     OSC_ERR_UNSUPPORTED);
    free(buf);
    assert_non_null(strstr(msg, "unsupported op NoSuchOp-14"));
    assert_null(strstr(msg, "not compiled"));
}

/* Every row the registry lists is an op this build selected; the scatter family is all there. */
static void test_registry_rows(void **state) {
    (void)state;
    static const char *const family[] = {"Scatter", "ScatterElements", "ScatterND",
                                         "TensorScatter", "GatherElements", "GatherND"};
    int found[6] = {0}, add = 0;
    for (size_t i = 0; i < osc_op_count(); i++) {
        osc_op_desc d;
        assert_int_equal(osc_op_at(i, &d), OSC_OK);
        for (size_t f = 0; f < 6; f++) found[f] += !strcmp(d.op_type, family[f]);
        add += !strcmp(d.op_type, "Add");
    }
    for (size_t f = 0; f < 6; f++)
        if (!found[f]) fail_msg("%s has no row", family[f]);
    assert_int_equal(add > 0, OSC_OP_Add);
}

/* The scatter family runs in every build: ScatterND with reduction add, 2 updates into 4. */
static void test_scatter_runs(void **state) {
    (void)state;
    size_t len;
    void *buf = emb_scatternd_add_model(4, 2, &len);
    osc_options opts;
    osc_options_init(&opts);
    opts.threads = 3;
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    osc_status st = osc_model_load_buffer(buf, len, NULL, &opts, &m, msg, sizeof msg);
    free(buf);
    if (st) fail_msg("%s", msg);
    osc_session *s = NULL;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
#ifdef OSC_NO_THREADS
    assert_int_equal(osc_session_threads(s), 1); /* no pool without threads */
#else
    assert_int_equal(osc_session_threads(s), 3);
#endif
    float data[4] = {1, 2, 3, 4}, upd[2] = {10, 20};
    int64_t idx[2] = {3, -4};
    const long long dd[1] = {4}, id[2] = {2, 1}, ud[1] = {2};
    const osc_tensor in[3] = {emb_view(OSC_FLOAT, 1, dd, data, sizeof data),
                              emb_view(OSC_INT64, 2, id, idx, sizeof idx),
                              emb_view(OSC_FLOAT, 1, ud, upd, sizeof upd)};
    osc_tensor y = osc_check_run(s, 3, (const char *[]){"data", "indices", "updates"}, in);
    const float want[4] = {21, 2, 3, 14};
    assert_memory_equal(y.data, want, sizeof want);
    osc_session_free(s);
    osc_model_free(m);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_left_out_op),
    cmocka_unit_test(test_unknown_op),
    cmocka_unit_test(test_registry_rows),
    cmocka_unit_test(test_scatter_runs),
)
