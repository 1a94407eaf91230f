/* test_roundtrip.c: gathering back what was scattered returns the updates, bit for bit. */
/* GatherElements(ScatterElements(data, i, u), i) == u and GatherND(ScatterND(data, i, u), i) == u
 * for duplicate-free i, over random shapes, every dtype and both index dtypes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dcase.h"
#include "tests/support/writer.h"
#include "tests/support/check.h"

#define CASES_PER_COMBO 20
#define SEED 0x0DD5EEDull

/* Two nodes in one model: the scatter's output is an intermediate the gather reads. The
 * expected value is the test's own updates tensor, never something the runtime computed. */
static void roundtrip(const dcase *c, const char *gather, long long no) {
    osc_mw *mw = osc_mw_new(10);
    /* one opset serves both ops; GatherElements/GatherND exist from 11 */
    int64_t opset = c->opset < 11 ? 11 : c->opset;
    osc_mw_opset(mw, "", opset);
    int64_t unknown[OSC_MAX_RANK];
    for (int i = 0; i < OSC_MAX_RANK; i++) unknown[i] = -1;
    const char *names[3] = {"data", "indices", "updates"};
    for (int i = 0; i < 3; i++)
        osc_mw_input(mw, names[i], c->in[i].dtype, c->in[i].rank,
                     c->symbolic ? unknown : c->in[i].dims, NULL);
    const char *s_out[1] = {"scattered"}, *g_in[2] = {"scattered", "indices"}, *g_out[1] = {"y"};
    int s = osc_mw_node(mw, dc_op_name(c->k.op), "scatter", 3, names, 1, s_out);
    int g = osc_mw_node(mw, gather, "gather", 2, g_in, 1, g_out);
    if (c->has_axis) {
        osc_mw_attr_int(mw, s, "axis", c->axis);
        osc_mw_attr_int(mw, g, "axis", c->axis);
    }
    if (c->red >= 0 && opset >= 16) osc_mw_attr_string(mw, s, "reduction", "none");
    osc_mw_output(mw, "y", c->k.dtype, -1, NULL, NULL);
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    osc_model *m;
    char msg[512];
    osc_status st = osc_model_load_buffer(buf, len, NULL, NULL, &m, msg, sizeof msg);
    free(buf);
    static char desc[16384];
    dc_describe(c, desc, sizeof desc);
    if (st) fail_msg("round trip %lld: load failed: %s\n  %s", no, msg, desc);
    osc_session *ss;
    assert_int_equal(osc_session_create(m, &ss), OSC_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(osc_session_set_input(ss, names[i], &c->in[i]), OSC_OK);
    if ((st = osc_session_run(ss)))
        fail_msg("round trip %lld: run failed: %s\n  %s", no, osc_session_error(ss), desc);
    osc_tensor y;
    assert_int_equal(osc_session_output(ss, 0, &y), OSC_OK);
    char why[512];
    if (!dc_equal(&c->in[2], &y, false, why, sizeof why))
        fail_msg("round trip %lld (seed 0x%llx): %s(%s(data, i, u), i) != u: %s\n  %s", no,
                 (unsigned long long)SEED, gather, dc_op_name(c->k.op), why, desc);
    osc_session_free(ss);
    osc_model_free(m);
}

static void run_family(dop op, const char *gather) {
    size_t n;
    const dcombo *all = dc_combos(&n);
    long long done = 0, nonempty = 0;
    for (size_t i = 0; i < n; i++) {
        if (all[i].op != op || all[i].red != ORA_NONE) continue;
        if (all[i].version < 13 && all[i].dtype == OSC_BFLOAT16) continue; /* refused at load */
        for (int rep = 0; rep < CASES_PER_COMBO; rep++) {
            long long no = (long long)(i * CASES_PER_COMBO + (size_t)rep);
            drng r;
            dr_seed(&r, SEED, (uint64_t)no);
            dcase c;
            dc_generate_unique(&c, &all[i], &r);
            roundtrip(&c, gather, no);
            if (osc_tensor_count(&c.in[2]) > 0) nonempty++;
            done++;
            dc_free(&c);
        }
    }
    print_message("%s(%s): %lld round trips, %lld with non-empty updates\n", gather, dc_op_name(op),
                  done, nonempty);
    assert_true(nonempty > done / 2); /* the property was tested on real data, not empty */
}

static void test_gather_elements_undoes_scatter_elements(void **state) {
    (void)state;
    run_family(D_SE, "GatherElements");
}

static void test_gather_elements_undoes_scatter(void **state) {
    (void)state;
    run_family(D_SCATTER, "GatherElements");
}

static void test_gather_nd_undoes_scatter_nd(void **state) {
    (void)state;
    run_family(D_SND, "GatherND");
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_gather_elements_undoes_scatter_elements),
    cmocka_unit_test(test_gather_elements_undoes_scatter),
    cmocka_unit_test(test_gather_nd_undoes_scatter_nd),
)
