/* test_cli_compare.c: unit tests of the CLI's output comparison and element decoding. */
/* Covers tools/compare.c and tools/elem.c: node-test tolerance, NaN/inf, exact kinds, float16,
 * bfloat16, float8, float4, packed ints, complex, strings. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "tests/support/check.h"

static char g_msg[1024];

/* A rank-1 tensor of n elements over data. */
static osc_tensor vec(int32_t dtype, int64_t n, const void *data, size_t nbytes) {
    osc_tensor t = {.dtype = dtype, .rank = 1, .data = (void *)data, .nbytes = nbytes};
    t.dims[0] = n;
    return t;
}

static int cmp(const osc_tensor *exp, const osc_tensor *act) {
    g_msg[0] = '\0';
    return cli_compare("y", exp, act, &cli_default_tol, g_msg, sizeof g_msg);
}

static void expect_msg(const char *want) {
    if (strcmp(g_msg, want)) fail_msg("message '%s', expected '%s'", g_msg, want);
}

static void test_float_tolerance(void **state) {
    (void)state;
    const float e[] = {1.0f, 0.0f, 100.0f}, ok[] = {1.0009f, 0.9e-7f, 100.1f};
    const float bad1[] = {1.0f, 0.0f, 100.2f}, bad2[] = {1.0f, 3e-7f, 100.0f};
    osc_tensor te = vec(OSC_FLOAT, 3, e, sizeof e), t = vec(OSC_FLOAT, 3, ok, sizeof ok);
    assert_int_equal(cmp(&te, &t), 0); /* |a-b| <= 1e-7 + 1e-3*|b| */
    t.data = (void *)bad1;
    assert_int_equal(cmp(&te, &t), 1);
    expect_msg("output 'y' at flat index 2: expected 100, got 100.2 (1 of 3 elements differ; "
               "max abs error 0.199997, max rel error 0.00199997; atol 1e-07, rtol 0.001)");
    t.data = (void *)bad2;
    assert_int_equal(cmp(&te, &t), 1); /* the absolute term alone is 1e-7 */
    expect_msg("output 'y' at flat index 1: expected 0, got 3e-07 (1 of 3 elements differ; max "
               "abs error 3e-07; atol 1e-07, rtol 0.001)"); /* no relative error from 0 */
}

static void test_nan_inf(void **state) {
    (void)state;
    const double e[] = {NAN, INFINITY, -1.0}, same[] = {NAN, INFINITY, -1.0};
    const double a1[] = {0.0, INFINITY, -1.0}, a2[] = {NAN, -INFINITY, -1.0}, a3[] = {NAN, INFINITY, NAN};
    osc_tensor te = vec(OSC_DOUBLE, 3, e, sizeof e), t = vec(OSC_DOUBLE, 3, same, sizeof same);
    assert_int_equal(cmp(&te, &t), 0);
    t.data = (void *)a1;
    assert_int_equal(cmp(&te, &t), 1);
    expect_msg("output 'y' at flat index 0: expected nan, got 0 (1 of 3 elements differ; atol "
               "1e-07, rtol 0.001)"); /* NaN against a number: no distance */
    t.data = (void *)a2;
    assert_int_equal(cmp(&te, &t), 1);
    t.data = (void *)a3;
    assert_int_equal(cmp(&te, &t), 1);
}

static void test_dtype_and_shape(void **state) {
    (void)state;
    const float f[6] = {0};
    const double d[6] = {0};
    osc_tensor a = vec(OSC_FLOAT, 6, f, sizeof f), b = vec(OSC_DOUBLE, 6, d, sizeof d);
    assert_int_equal(cmp(&a, &b), 1);
    expect_msg("output 'y': dtype expected float, got double");
    b = a;
    a.rank = 2, a.dims[0] = 2, a.dims[1] = 3;
    b.rank = 2, b.dims[0] = 3, b.dims[1] = 2;
    assert_int_equal(cmp(&a, &b), 1);
    expect_msg("output 'y': shape expected [2, 3], got [3, 2]");
    b.rank = 1, b.dims[0] = 6;
    assert_int_equal(cmp(&a, &b), 1);
    expect_msg("output 'y': shape expected [2, 3], got [6]");
}

static void test_ints_exact(void **state) {
    (void)state;
    const int64_t e[] = {1000000000000, -5}, a[] = {1000000000001, -5};
    osc_tensor te = vec(OSC_INT64, 2, e, sizeof e), ta = vec(OSC_INT64, 2, a, sizeof a);
    assert_int_equal(cmp(&te, &ta), 1); /* within 1e-3 relative, but ints are exact */
    expect_msg("output 'y' at flat index 0: expected 1000000000000, got 1000000000001 (1 of 2 "
               "elements differ; max abs error 1, max rel error 1e-12)");
    ta.data = (void *)e;
    assert_int_equal(cmp(&te, &ta), 0);
}

static void test_half_floats(void **state) {
    (void)state;
    /* float16: 1.0, 1.0 + 2^-10, 1.0 + 2^-9, inf, nan, smallest subnormal 2^-24, -2 */
    const uint16_t h[] = {0x3C00, 0x3C01, 0x3C02, 0x7C00, 0x7E00, 0x0001, 0xC000};
    osc_tensor t = vec(OSC_FLOAT16, 7, h, sizeof h);
    assert_true(cli_elem_float(&t, 0) == 1.0);
    assert_true(cli_elem_float(&t, 1) == 1.0 + ldexp(1, -10));
    assert_true(isinf(cli_elem_float(&t, 3)) && isnan(cli_elem_float(&t, 4)));
    assert_true(cli_elem_float(&t, 5) == ldexp(1, -24));
    assert_true(cli_elem_float(&t, 6) == -2.0);
    const uint16_t e1[] = {0x3C00}, a1[] = {0x3C01}, a2[] = {0x3C02};
    osc_tensor te = vec(OSC_FLOAT16, 1, e1, 2), ta = vec(OSC_FLOAT16, 1, a1, 2);
    assert_int_equal(cmp(&te, &ta), 0); /* 9.8e-4 apart: within 1e-3 */
    ta.data = (void *)a2;
    assert_int_equal(cmp(&te, &ta), 1);
    expect_msg("output 'y' at flat index 0: expected 1, got 1.0019531 (1 of 1 elements differ; "
               "max abs error 0.00195312, max rel error 0.00195312; atol 1e-07, rtol 0.001)");
    /* bfloat16: the upper half of a float32 */
    const uint16_t b[] = {0x3F80, 0x4049, 0xFF80};
    t = vec(OSC_BFLOAT16, 3, b, sizeof b);
    assert_true(cli_elem_float(&t, 0) == 1.0);
    assert_true(cli_elem_float(&t, 1) == 3.140625);
    assert_true(isinf(cli_elem_float(&t, 2)) && cli_elem_float(&t, 2) < 0);
}

static void test_small_floats(void **state) {
    (void)state;
    const uint8_t e4[] = {0x38, 0x7F, 0x01}, e4uz[] = {0x40, 0x80}, e5[] = {0x3C, 0x7C, 0x7D};
    const uint8_t e5uz[] = {0x40, 0x80}, e8[] = {127, 0xFF, 130}, f4[] = {0x72};
    osc_tensor t = vec(OSC_FLOAT8E4M3FN, 3, e4, 3);
    assert_true(cli_elem_float(&t, 0) == 1.0 && isnan(cli_elem_float(&t, 1)));
    assert_true(cli_elem_float(&t, 2) == ldexp(1, -9)); /* subnormal: 1 * 2^(1-7-3) */
    t = vec(OSC_FLOAT8E4M3FNUZ, 2, e4uz, 2);
    assert_true(cli_elem_float(&t, 0) == 1.0 && isnan(cli_elem_float(&t, 1)));
    t = vec(OSC_FLOAT8E5M2, 3, e5, 3);
    assert_true(cli_elem_float(&t, 0) == 1.0 && isinf(cli_elem_float(&t, 1)));
    assert_true(isnan(cli_elem_float(&t, 2)));
    t = vec(OSC_FLOAT8E5M2FNUZ, 2, e5uz, 2);
    assert_true(cli_elem_float(&t, 0) == 1.0 && isnan(cli_elem_float(&t, 1)));
    t = vec(OSC_FLOAT8E8M0, 3, e8, 3);
    assert_true(cli_elem_float(&t, 0) == 1.0 && isnan(cli_elem_float(&t, 1)));
    assert_true(cli_elem_float(&t, 2) == 8.0);
    t = vec(OSC_FLOAT4E2M1, 2, f4, 1); /* low nibble first: 0x2 = 1.0, 0x7 = 6.0 */
    assert_true(cli_elem_float(&t, 0) == 1.0 && cli_elem_float(&t, 1) == 6.0);
    /* float8 compares exactly: one ulp apart fails */
    const uint8_t x[] = {0x38}, y[] = {0x39};
    osc_tensor tx = vec(OSC_FLOAT8E4M3FN, 1, x, 1), ty = vec(OSC_FLOAT8E4M3FN, 1, y, 1);
    assert_int_equal(cmp(&tx, &ty), 1);
    expect_msg("output 'y' at flat index 0: expected 1, got 1.125 (1 of 1 elements differ; max "
               "abs error 0.125, max rel error 0.125)");
}

static void test_packed_ints(void **state) {
    (void)state;
    const uint8_t b4[] = {0xF1}, b2[] = {0xE4};
    osc_tensor t = vec(OSC_INT4, 2, b4, 1);
    assert_int_equal(cli_elem_signed(&t, 0), 1);
    assert_int_equal(cli_elem_signed(&t, 1), -1);
    t = vec(OSC_UINT4, 2, b4, 1);
    assert_int_equal(cli_elem_unsigned(&t, 1), 15);
    t = vec(OSC_INT2, 4, b2, 1); /* 0b11'10'01'00: 0, 1, -2, -1 */
    assert_int_equal(cli_elem_signed(&t, 0), 0);
    assert_int_equal(cli_elem_signed(&t, 1), 1);
    assert_int_equal(cli_elem_signed(&t, 2), -2);
    assert_int_equal(cli_elem_signed(&t, 3), -1);
    const uint8_t a4[] = {0x71};
    osc_tensor te = vec(OSC_INT4, 2, b4, 1), ta = vec(OSC_INT4, 2, a4, 1);
    assert_int_equal(cmp(&te, &ta), 1);
    expect_msg("output 'y' at flat index 1: expected -1, got 7 (1 of 2 elements differ; max abs "
               "error 8, max rel error 8)");
}

static void test_complex(void **state) {
    (void)state;
    const float e[] = {1.0f, 2.0f, 3.0f, -4.0f}, ok[] = {1.0005f, 2.0f, 3.0f, -4.0f};
    const float bad[] = {1.0f, 2.0f, 3.0f, 4.0f};
    osc_tensor te = vec(OSC_COMPLEX64, 2, e, sizeof e), ta = vec(OSC_COMPLEX64, 2, ok, sizeof ok);
    assert_int_equal(cmp(&te, &ta), 0);
    ta.data = (void *)bad;
    assert_int_equal(cmp(&te, &ta), 1); /* the imaginary part alone differs */
    expect_msg("output 'y' at flat index 1: expected (3-4j), got (3+4j) (1 of 2 elements differ; "
               "max abs error 8, max rel error 1.6; atol 1e-07, rtol 0.001)"); /* |8i| / 5 */
}

static void test_strings_and_bools(void **state) {
    (void)state;
    const osc_string e[] = {{"ab", 2}, {"a\"\n", 3}}, same[] = {{"abX", 2}, {"a\"\n", 3}};
    const osc_string shorter[] = {{"ab", 2}, {"a\"", 2}};
    osc_tensor te = vec(OSC_STRING, 2, e, sizeof e), ta = vec(OSC_STRING, 2, same, sizeof same);
    assert_int_equal(cmp(&te, &ta), 0); /* by bytes: len counts, not NUL */
    ta.data = (void *)shorter;
    assert_int_equal(cmp(&te, &ta), 1);
    expect_msg("output 'y' at flat index 1: expected \"a\\\"\\x0a\", got \"a\\\"\" (1 of 2 "
               "elements differ)");
    const uint8_t be[] = {1, 0}, ba[] = {1, 1};
    te = vec(OSC_BOOL, 2, be, 2), ta = vec(OSC_BOOL, 2, ba, 2);
    assert_int_equal(cmp(&te, &ta), 1);
    expect_msg("output 'y' at flat index 1: expected false, got true (1 of 2 elements differ; max "
               "abs error 1)");
}

static void test_tolerance_options(void **state) {
    (void)state;
    const double e[] = {100.0}, a[] = {100.5};
    osc_tensor te = vec(OSC_DOUBLE, 1, e, sizeof e), ta = vec(OSC_DOUBLE, 1, a, sizeof a);
    cli_tol loose = {1e-2, 0}, abs_only = {0, 0.5}, tight = {0, 0.4};
    assert_int_equal(cmp(&te, &ta), 1); /* 0.5 > 1e-7 + 1e-3 * 100 */
    assert_int_equal(cli_compare("y", &te, &ta, &loose, g_msg, sizeof g_msg), 0);
    assert_int_equal(cli_compare("y", &te, &ta, &abs_only, g_msg, sizeof g_msg), 0);
    assert_int_equal(cli_compare("y", &te, &ta, &tight, g_msg, sizeof g_msg), 1);
}

static void test_max_abs_err(void **state) {
    (void)state;
    const float e[] = {1, 2, NAN, INFINITY}, a[] = {1.25f, 1.5f, NAN, INFINITY}, n[] = {1, 2, 3, INFINITY};
    osc_tensor te = vec(OSC_FLOAT, 4, e, sizeof e), ta = vec(OSC_FLOAT, 4, a, sizeof a);
    double err = 0;
    assert_int_equal(cli_max_abs_err("y", &te, &ta, &err, g_msg, sizeof g_msg), 0);
    assert_true(err == 0.5); /* NaN against NaN and equal infinities count 0 */
    ta.data = (void *)n;
    assert_int_equal(cli_max_abs_err("y", &te, &ta, &err, g_msg, sizeof g_msg), 1);
    expect_msg("output 'y' at flat index 2: expected nan, got 3");
    const int64_t ie[] = {INT64_MIN}, ia[] = {INT64_MAX};
    te = vec(OSC_INT64, 1, ie, 8), ta = vec(OSC_INT64, 1, ia, 8);
    err = 0;
    assert_int_equal(cli_max_abs_err("y", &te, &ta, &err, g_msg, sizeof g_msg), 0);
    assert_true(err == 18446744073709551615.0); /* no signed overflow on the way */
    const float ce[] = {0, 0}, ca[] = {3, 4};
    te = vec(OSC_COMPLEX64, 1, ce, 8), ta = vec(OSC_COMPLEX64, 1, ca, 8);
    err = 0;
    assert_int_equal(cli_max_abs_err("y", &te, &ta, &err, g_msg, sizeof g_msg), 0);
    assert_true(err == 5.0);
    const osc_string se[] = {{"a", 1}}, sa[] = {{"b", 1}};
    te = vec(OSC_STRING, 1, se, sizeof se), ta = vec(OSC_STRING, 1, sa, sizeof sa);
    assert_int_equal(cli_max_abs_err("y", &te, &ta, &err, g_msg, sizeof g_msg), 1);
}

/* encode(decode(code)) == code for every non-NaN code of the small float formats: the
 * encoder used by literals and --random rounds to the nearest representable value. */
static void test_encode_round_trip(void **state) {
    (void)state;
    for (uint32_t c = 0; c < 65536; c++) {
        double h = cli_decode_float(OSC_FLOAT16, c), b = cli_decode_float(OSC_BFLOAT16, c);
        if (h == h && cli_encode_float(OSC_FLOAT16, h) != c) fail_msg("float16 0x%04x", c);
        if (b == b && cli_encode_float(OSC_BFLOAT16, b) != c) fail_msg("bfloat16 0x%04x", c);
    }
    const int32_t small[] = {OSC_FLOAT8E4M3FN, OSC_FLOAT8E4M3FNUZ, OSC_FLOAT8E5M2,
                             OSC_FLOAT8E5M2FNUZ, OSC_FLOAT8E8M0, OSC_FLOAT4E2M1};
    for (size_t k = 0; k < sizeof small / sizeof small[0]; k++)
        for (uint32_t c = 0; c < (1u << osc_dtype_bits(small[k])); c++) {
            double v = cli_decode_float(small[k], c);
            if (v == v && cli_encode_float(small[k], v) != c) fail_msg("%s 0x%02x", osc_dtype_name(small[k]), c);
        }
    /* ties to even, overflow, NaN */
    assert_int_equal(cli_encode_float(OSC_FLOAT16, 1.0 + ldexp(1, -11)), 0x3C00);
    assert_int_equal(cli_encode_float(OSC_FLOAT16, 1.0 + 3 * ldexp(1, -11)), 0x3C02);
    assert_int_equal(cli_encode_float(OSC_FLOAT16, 65520.0), 0x7C00);
    assert_int_equal(cli_encode_float(OSC_FLOAT16, 65519.0), 0x7BFF);
    assert_int_equal(cli_encode_float(OSC_FLOAT16, -ldexp(1, -25)), 0x8000); /* tie to -0 */
    assert_int_equal(cli_encode_float(OSC_BFLOAT16, NAN) & 0x7FC0, 0x7FC0);
    assert_int_equal(cli_encode_float(OSC_FLOAT8E4M3FN, 1000.0), 0x7E); /* saturates at 448 */
    assert_int_equal(cli_encode_float(OSC_FLOAT8E5M2, -INFINITY), 0xFC);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_float_tolerance),
    cmocka_unit_test(test_nan_inf),
    cmocka_unit_test(test_dtype_and_shape),
    cmocka_unit_test(test_ints_exact),
    cmocka_unit_test(test_half_floats),
    cmocka_unit_test(test_small_floats),
    cmocka_unit_test(test_packed_ints),
    cmocka_unit_test(test_complex),
    cmocka_unit_test(test_strings_and_bools),
    cmocka_unit_test(test_tolerance_options),
    cmocka_unit_test(test_max_abs_err),
    cmocka_unit_test(test_encode_round_trip),
)
