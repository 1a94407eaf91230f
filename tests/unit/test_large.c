/* test_large.c: 64-bit sizes end to end: a uint8 tensor of 2^32 + 64 elements (over 4 GiB and
 * over 2^31 elements) is scattered into and gathered from at offsets past 2^31 and 2^32. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/writer.h"
#include "onnx_scatter.h"

#define BIG ((int64_t)1 << 32) + 64

static void scatter_gather_past_4gib(void **state) {
    (void)state;
    const int64_t n = BIG, k4[1] = {5}, dn[1] = {BIG};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "data", OSC_UINT8, 1, dn, NULL);
    osc_mw_input(mw, "indices", OSC_INT64, 1, k4, NULL);
    osc_mw_input(mw, "updates", OSC_UINT8, 1, k4, NULL);
    const char *in1[3] = {"data", "indices", "updates"}, *o1[1] = {"y"};
    const char *in2[2] = {"y", "indices"}, *o2[1] = {"g"};
    osc_mw_node(mw, "ScatterElements", "scatter", 3, in1, 1, o1);
    osc_mw_node(mw, "GatherElements", "gather", 2, in2, 1, o2);
    osc_mw_output(mw, "y", OSC_UINT8, 1, dn, NULL);
    osc_mw_output(mw, "g", OSC_UINT8, 1, k4, NULL);
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    osc_model *m;
    char msg[256];
    assert_int_equal(osc_model_load_buffer(buf, len, NULL, NULL, &m, msg, sizeof msg), OSC_OK);
    free(buf);
    assert_true(osc_model_arena_bytes(m) >= (uint64_t)n);

    uint8_t *data = calloc((size_t)n, 1);
    assert_non_null(data);
    data[(size_t)n - 2] = 9;
    int64_t idx[5] = {(int64_t)1 << 31, ((int64_t)1 << 31) + 7, ((int64_t)1 << 32) + 1, -1, 3};
    uint8_t upd[5] = {11, 22, 33, 44, 55};
    osc_tensor td = {.dtype = OSC_UINT8, .rank = 1, .dims = {n}, .data = data,
                     .nbytes = (size_t)n};
    osc_tensor ti = {.dtype = OSC_INT64, .rank = 1, .dims = {5}, .data = idx,
                     .nbytes = sizeof idx};
    osc_tensor tu = {.dtype = OSC_UINT8, .rank = 1, .dims = {5}, .data = upd,
                     .nbytes = sizeof upd};
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "data", &td), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "indices", &ti), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "updates", &tu), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_tensor y, g;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_int_equal(osc_session_output(s, 1, &g), OSC_OK);
    assert_int_equal(y.nbytes, (size_t)n);
    const uint8_t *yv = y.data;
    assert_int_equal(yv[(size_t)1 << 31], 11);
    assert_int_equal(yv[((size_t)1 << 31) + 7], 22);
    assert_int_equal(yv[((size_t)1 << 32) + 1], 33);
    assert_int_equal(yv[(size_t)n - 1], 44);
    assert_int_equal(yv[(size_t)n - 2], 9); /* copied from data */
    assert_int_equal(yv[3], 55);
    assert_int_equal(yv[((size_t)1 << 31) + 1], 0);
    assert_memory_equal(g.data, upd, sizeof upd);
    assert_int_equal(data[(size_t)n - 1], 0); /* the caller's buffer is untouched */
    osc_session_free(s);
    osc_model_free(m);
    free(data);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(scatter_gather_past_4gib)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
