/* test_cli_print.c: unit tests of numpy-style printing (tools/print.c, tools/numfmt.c). */
/* Every expected text is what numpy (>= 1.14, default print options) prints for print(a). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "tests/support/check.h"

static osc_tensor tensor(int32_t dtype, int32_t rank, const int64_t *dims, const void *data,
                         size_t nbytes) {
    osc_tensor t = {.dtype = dtype, .rank = rank, .data = (void *)data, .nbytes = nbytes};
    for (int32_t d = 0; d < rank; d++) t.dims[d] = dims[d];
    return t;
}

/* Formats t (summarised beyond max_elems) and checks the exact text. */
static void expect_text(const osc_tensor *t, int64_t max_elems, const char *want) {
    char *text = NULL;
    assert_int_equal(cli_format_tensor(t, max_elems, &text), 0);
    if (strcmp(text, want)) fail_msg("printed:\n%s\nexpected:\n%s", text, want);
    free(text);
}

#define VEC(dtype, v) tensor(dtype, 1, (const int64_t[]){sizeof v / sizeof v[0]}, v, sizeof v)

static void test_header_line(void **state) {
    (void)state;
    const float v[] = {1, 2};
    osc_tensor t = VEC(OSC_FLOAT, v);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    cli_print_tensor(f, "y", &t, 1000);
    fclose(f);
    assert_string_equal(buf, "y: float [2]\n[1. 2.]\n");
    free(buf);
}

static void test_fixed_floats(void **state) {
    (void)state;
    const float a[] = {3, 2.1f, 1, 2, 1, 3.2f, 1, 3.1f, 2.2f};
    osc_tensor t = tensor(OSC_FLOAT, 2, (const int64_t[]){3, 3}, a, sizeof a);
    expect_text(&t, 1000, "[[3.  2.1 1. ]\n [2.  1.  3.2]\n [1.  3.1 2.2]]");
    const double b[] = {0.1, 0.2, 0.30000000000000004, 1.0 / 3};
    t = VEC(OSC_DOUBLE, b);
    expect_text(&t, 1000, "[0.1        0.2        0.3        0.33333333]");
    const double z[] = {0.0, -0.0};
    t = VEC(OSC_DOUBLE, z);
    expect_text(&t, 1000, "[ 0. -0.]");
    const float neg[] = {-1.5f, 10.25f};
    t = VEC(OSC_FLOAT, neg);
    expect_text(&t, 1000, "[-1.5  10.25]");
}

static void test_scientific(void **state) {
    (void)state;
    const float a[] = {1, 2.5f, -3, 0.1f, 1e20f, 10};
    osc_tensor t = tensor(OSC_FLOAT, 2, (const int64_t[]){2, 3}, a, sizeof a);
    expect_text(&t, 1000, "[[ 1.0e+00  2.5e+00 -3.0e+00]\n [ 1.0e-01  1.0e+20  1.0e+01]]");
    const double b[] = {1e-5, 1.0};
    t = VEC(OSC_DOUBLE, b);
    expect_text(&t, 1000, "[1.e-05 1.e+00]");
    const double c[] = {123456789.0};
    t = VEC(OSC_DOUBLE, c);
    expect_text(&t, 1000, "[1.23456789e+08]");
    const double d[] = {1e100, 1.0};
    t = VEC(OSC_DOUBLE, d);
    expect_text(&t, 1000, "[1.e+100 1.e+000]");
}

static void test_non_finite(void **state) {
    (void)state;
    const double a[] = {1.0, NAN};
    osc_tensor t = VEC(OSC_DOUBLE, a);
    expect_text(&t, 1000, "[ 1. nan]");
    const double b[] = {1.5, INFINITY, -INFINITY};
    t = VEC(OSC_DOUBLE, b);
    expect_text(&t, 1000, "[ 1.5  inf -inf]");
    const double c[] = {1e20, NAN};
    t = VEC(OSC_DOUBLE, c);
    expect_text(&t, 1000, "[1.e+20    nan]");
    const double d[] = {NAN, NAN};
    t = VEC(OSC_DOUBLE, d);
    expect_text(&t, 1000, "[nan nan]");
}

static void test_own_precision(void **state) {
    (void)state;
    const uint16_t h[] = {0x3555, 0x7E00}; /* float16 0.333251953125, nan */
    osc_tensor t = VEC(OSC_FLOAT16, h);
    expect_text(&t, 1000, "[0.3333    nan]");
    const float f[] = {0.1f, 1.0f / 3};
    t = VEC(OSC_FLOAT, f);
    expect_text(&t, 1000, "[0.1        0.33333334]");
    const uint16_t bf[] = {0x3F80, 0x4049}; /* bfloat16 1, 3.140625 */
    t = VEC(OSC_BFLOAT16, bf);
    expect_text(&t, 1000, "[1.   3.14]");
}

static void test_ints_and_bools(void **state) {
    (void)state;
    const int32_t v[] = {1, 2, 3, 4, 5, 6, 7, 8};
    osc_tensor t = tensor(OSC_INT32, 3, (const int64_t[]){2, 2, 2}, v, sizeof v);
    expect_text(&t, 1000, "[[[1 2]\n  [3 4]]\n\n [[5 6]\n  [7 8]]]");
    const int64_t w[] = {-1, 10, 100};
    t = VEC(OSC_INT64, w);
    expect_text(&t, 1000, "[ -1  10 100]");
    const uint8_t u[] = {0, 255};
    t = VEC(OSC_UINT8, u);
    expect_text(&t, 1000, "[  0 255]");
    const uint8_t b[] = {1, 0};
    t = VEC(OSC_BOOL, b);
    expect_text(&t, 1000, "[ True False]");
    const uint8_t i4[] = {0xF1}; /* int4 1, -1 */
    t = tensor(OSC_INT4, 1, (const int64_t[]){2}, i4, 1);
    expect_text(&t, 1000, "[ 1 -1]");
}

static void test_complex_and_strings(void **state) {
    (void)state;
    const double c[] = {1, 2, 3, -4};
    osc_tensor t = tensor(OSC_COMPLEX128, 1, (const int64_t[]){2}, c, sizeof c);
    expect_text(&t, 1000, "[1.+2.j 3.-4.j]");
    const float c2[] = {1.5f, 0, -2, NAN};
    t = tensor(OSC_COMPLEX64, 1, (const int64_t[]){2}, c2, sizeof c2);
    expect_text(&t, 1000, "[ 1.5 +0.j -2. +nanj]");
    const osc_string s[] = {{"hi", 2}, {"", 0}, {"it's", 4}, {"a\nb", 3}};
    t = VEC(OSC_STRING, s);
    expect_text(&t, 1000, "['hi' '' \"it's\" 'a\\nb']");
}

static void test_scalars_and_empty(void **state) {
    (void)state;
    const int64_t i[] = {42};
    osc_tensor t = tensor(OSC_INT64, 0, NULL, i, 8);
    expect_text(&t, 1000, "42");
    const float f[] = {1.5f};
    t = tensor(OSC_FLOAT, 0, NULL, f, 4);
    expect_text(&t, 1000, "1.5");
    const double d[] = {1.0}, e[] = {1e20};
    t = tensor(OSC_DOUBLE, 0, NULL, d, 8);
    expect_text(&t, 1000, "1.0");
    t.data = (void *)e;
    expect_text(&t, 1000, "1e+20");
    const double c[] = {1, 2};
    t = tensor(OSC_COMPLEX128, 0, NULL, c, 16);
    expect_text(&t, 1000, "(1+2j)");
    const uint8_t b[] = {1};
    t = tensor(OSC_BOOL, 0, NULL, b, 1);
    expect_text(&t, 1000, "True");
    t = tensor(OSC_FLOAT, 2, (const int64_t[]){0, 3}, f, 0);
    expect_text(&t, 1000, "[]");
}

static void test_summarised(void **state) {
    (void)state;
    int64_t v[20];
    for (int i = 0; i < 20; i++) v[i] = i;
    osc_tensor t = tensor(OSC_INT64, 1, (const int64_t[]){20}, v, sizeof v);
    expect_text(&t, 10, "[ 0  1  2 ... 17 18 19]");
    expect_text(&t, 20, "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19]");
    t = tensor(OSC_INT64, 2, (const int64_t[]){10, 2}, v, sizeof v); /* rows summarised */
    expect_text(&t, 10, "[[ 0  1]\n [ 2  3]\n [ 4  5]\n ...\n [14 15]\n [16 17]\n [18 19]]");
    /* the format fits the shown items only: 1e9 hidden in the middle keeps fixed notation */
    double w[9] = {1, 2, 3, 4, 1e9, 6, 7, 8, 9};
    t = tensor(OSC_DOUBLE, 1, (const int64_t[]){9}, w, sizeof w);
    expect_text(&t, 5, "[1. 2. 3. ... 7. 8. 9.]");
}

static void test_line_wrap(void **state) {
    (void)state;
    int64_t v[30];
    for (int i = 0; i < 30; i++) v[i] = i;
    osc_tensor t = tensor(OSC_INT64, 1, (const int64_t[]){30}, v, sizeof v);
    expect_text(&t, 1000, "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n"
                          " 24 25 26 27 28 29]");
    t = tensor(OSC_INT64, 2, (const int64_t[]){1, 30}, v, sizeof v);
    expect_text(&t, 1000, "[[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n"
                          "  24 25 26 27 28 29]]");
}

static void test_shapes(void **state) {
    (void)state;
    char buf[64];
    const int64_t dims[] = {-1, 3, -1};
    const char *names[] = {"N", NULL, NULL};
    cli_format_shape(3, dims, names, buf, sizeof buf);
    assert_string_equal(buf, "[N, 3, ?]");
    cli_format_shape(-1, dims, NULL, buf, sizeof buf);
    assert_string_equal(buf, "?");
    cli_format_shape(0, dims, NULL, buf, sizeof buf);
    assert_string_equal(buf, "[]");
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_header_line),
    cmocka_unit_test(test_fixed_floats),
    cmocka_unit_test(test_scientific),
    cmocka_unit_test(test_non_finite),
    cmocka_unit_test(test_own_precision),
    cmocka_unit_test(test_ints_and_bools),
    cmocka_unit_test(test_complex_and_strings),
    cmocka_unit_test(test_scalars_and_empty),
    cmocka_unit_test(test_summarised),
    cmocka_unit_test(test_line_wrap),
    cmocka_unit_test(test_shapes),
)
