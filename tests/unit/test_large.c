/* test_large.c: 64-bit sizes end to end: a uint8 tensor of 2^32 + 64 elements (over 4 GiB and
 * over 2^31 elements) is scattered into and gathered from at offsets past 2^31 and 2^32. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/models.h"
#include "tests/support/mw_check.h"
#include "onnx_scatter.h"

#define BIG ((int64_t)1 << 32) + 64

static void scatter_gather_past_4gib(void **state) {
    (void)state;
    const int64_t n = BIG, k4[1] = {5}, dn[1] = {BIG};
    osc_mw *mw = osc_test_scatter_gather_model(18, "ScatterElements", "scatter", OSC_UINT8, 1, dn, 1,
                                               k4);
    osc_model *m = osc_check_load(mw, NULL);
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
