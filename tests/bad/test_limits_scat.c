/* test_limits_scat.c: the byte cap on Unique, MaxUnpool and Col2Im through the API: a Unique of
 * 10^7 elements under a small cap fails with OSC_ERR_LIMIT in under a second (its sort scratch
 * is refused before anything is sorted or written) and the same session then runs a small
 * input; huge unpooled and folded outputs are refused the same way. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "tests/support/mw_check.h"
#include "onnx_scatter.h"
#include "tests/support/check.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static osc_session *session(osc_mw *mw, uint64_t cap, osc_model **m) {
    osc_options o;
    osc_options_init(&o);
    o.max_bytes = cap;
    *m = osc_check_load(mw, &o);
    osc_session *s;
    assert_int_equal(osc_session_create(*m, &s), OSC_OK);
    return s;
}

static void msg_has(osc_session *s, const char *needle) {
    if (!strstr(osc_session_error(s), needle))
        fail_msg("message '%s' lacks '%s'", osc_session_error(s), needle);
}

static void unique_large(void **state) {
    (void)state;
    const int64_t dn[1] = {-1};
    const char *names[1] = {"N"};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 11);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, dn, names);
    osc_mw_node(mw, "Unique", "u", 1, (const char *[]){"x"}, 4,
                (const char *[]){"y", "i", "inv", "c"});
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    osc_mw_output(mw, "i", OSC_INT64, -1, NULL, NULL);
    osc_mw_output(mw, "inv", OSC_INT64, -1, NULL, NULL);
    osc_mw_output(mw, "c", OSC_INT64, -1, NULL, NULL);
    osc_model *m;
    osc_session *s = session(mw, (uint64_t)16 << 20, &m);
    const size_t n = 10 * 1000 * 1000;
    float *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) x[i] = (float)(i % 1000003);
    osc_tensor tx = {.dtype = OSC_FLOAT, .rank = 1, .dims = {(int64_t)n}, .data = x,
                     .nbytes = n * sizeof *x};
    assert_int_equal(osc_session_set_input(s, "x", &tx), OSC_OK);
    const double t0 = now();
    assert_int_equal(osc_session_run(s), OSC_ERR_LIMIT);
    const double dt = now() - t0;
    msg_has(s, "byte cap reached: this session");
    msg_has(s, "node 'u' (Unique-11): input 0 'X' (x): cannot allocate 320000000 bytes to sort "
               "its 10000000 elements");
    if (dt > 1.0) fail_msg("the refusal took %.2f s", dt);
    /* the session is intact: a small input runs */
    float small[5] = {2, 1, 2, 0, 1};
    tx.dims[0] = 5;
    tx.data = small;
    tx.nbytes = sizeof small;
    assert_int_equal(osc_session_set_input(s, "x", &tx), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_tensor y, c;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_int_equal(osc_session_output(s, 3, &c), OSC_OK);
    osc_check_bytes(&y, (const float[]){0, 1, 2}, 12);
    osc_check_bytes(&c, (const int64_t[]){1, 2, 2}, 24);
    osc_session_free(s);
    osc_model_free(m);
    free(x);
}

/* MaxUnpool whose output_shape asks for 2^40 floats; Col2Im whose image is 2^20 x 2^20. */
static void huge_outputs(void **state) {
    (void)state;
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 22);
    const int64_t d4[4] = {1, 1, 1, 1}, d1[1] = {4};
    osc_mw_input(mw, "x", OSC_FLOAT, 4, d4, NULL);
    osc_mw_input(mw, "i", OSC_INT64, 4, d4, NULL);
    osc_mw_input(mw, "s", OSC_INT64, 1, d1, NULL);
    int nd = osc_mw_node(mw, "MaxUnpool", "u", 3, (const char *[]){"x", "i", "s"}, 1,
                         (const char *[]){"y"});
    osc_mw_attr_ints(mw, nd, "kernel_shape", (const int64_t[]){1, 1}, 2);
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    osc_model *m;
    osc_session *s = session(mw, (uint64_t)16 << 20, &m);
    float xv = 1;
    int64_t iv = 0, sv[4] = {1, 1, (int64_t)1 << 20, (int64_t)1 << 20};
    const osc_tensor t[3] = {
        {.dtype = OSC_FLOAT, .rank = 4, .dims = {1, 1, 1, 1}, .data = &xv, .nbytes = 4},
        {.dtype = OSC_INT64, .rank = 4, .dims = {1, 1, 1, 1}, .data = &iv, .nbytes = 8},
        {.dtype = OSC_INT64, .rank = 1, .dims = {4}, .data = sv, .nbytes = 32}};
    osc_check_bind(s, 3, (const char *const[]){"x", "i", "s"}, t);
    assert_int_equal(osc_session_run(s), OSC_ERR_LIMIT);
    msg_has(s, "max_bytes");
    osc_session_free(s);
    osc_model_free(m);

    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    const int64_t d3[3] = {1, 1, 1};
    osc_mw_input(mw, "x", OSC_FLOAT, 3, d3, NULL);
    osc_mw_input(mw, "img", OSC_INT64, 1, (const int64_t[]){2}, NULL);
    osc_mw_input(mw, "blk", OSC_INT64, 1, (const int64_t[]){2}, NULL);
    nd = osc_mw_node(mw, "Col2Im", "c", 3, (const char *[]){"x", "img", "blk"}, 1,
                     (const char *[]){"y"});
    /* strides of 2^20: one block covers the image's corner */
    osc_mw_attr_ints(mw, nd, "strides", (const int64_t[]){(int64_t)1 << 20, 1 << 20}, 2);
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    s = session(mw, (uint64_t)16 << 20, &m);
    int64_t img[2] = {(int64_t)1 << 20, (int64_t)1 << 20}, blk[2] = {1, 1};
    const osc_tensor c[3] = {
        {.dtype = OSC_FLOAT, .rank = 3, .dims = {1, 1, 1}, .data = &xv, .nbytes = 4},
        {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = img, .nbytes = 16},
        {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = blk, .nbytes = 16}};
    osc_check_bind(s, 3, (const char *const[]){"x", "img", "blk"}, c);
    assert_int_equal(osc_session_run(s), OSC_ERR_LIMIT);
    msg_has(s, "max_bytes");
    osc_session_free(s);
    osc_model_free(m);
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(unique_large), cmocka_unit_test(huge_outputs))
