/* test_cli_print.c: unit tests of the CLI's tensor and shape printing (tools/print.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"

/* Prints t with cli_print_tensor and checks the exact text. */
static void expect_print(const osc_tensor *t, int64_t max_elems, const char *want) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    cli_print_tensor(f, "y", t, max_elems);
    fclose(f);
    if (strcmp(buf, want)) fail_msg("printed:\n%s\nexpected:\n%s", buf, want);
    free(buf);
}

static void test_matrix(void **state) {
    (void)state;
    const float v[] = {1, 2.5f, -3, 0.1f, 1e20f, 10};
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = 2, .dims = {2, 3}, .data = (void *)v, .nbytes = sizeof v};
    expect_print(&t, 1000, "y: float [2, 3]\n[[1, 2.5, -3],\n [0.1, 1e+20, 10]]\n");
}

static void test_rank3_blank_line(void **state) {
    (void)state;
    const int32_t v[] = {1, 2, 3, 4, 5, 6, 7, 8};
    osc_tensor t = {.dtype = OSC_INT32, .rank = 3, .dims = {2, 2, 2}, .data = (void *)v, .nbytes = sizeof v};
    expect_print(&t, 1000, "y: int32 [2, 2, 2]\n[[[1, 2],\n  [3, 4]],\n\n [[5, 6],\n  [7, 8]]]\n");
}

static void test_scalar_and_empty(void **state) {
    (void)state;
    const int64_t v[] = {42};
    osc_tensor t = {.dtype = OSC_INT64, .rank = 0, .data = (void *)v, .nbytes = sizeof v};
    expect_print(&t, 1000, "y: int64 []\n42\n");
    osc_tensor e = {.dtype = OSC_FLOAT, .rank = 2, .dims = {0, 3}, .data = (void *)v, .nbytes = 0};
    expect_print(&e, 1000, "y: float [0, 3]\n[]\n");
}

static void test_summarised(void **state) {
    (void)state;
    int64_t v[20];
    for (int i = 0; i < 20; i++) v[i] = i;
    osc_tensor t = {.dtype = OSC_INT64, .rank = 1, .dims = {20}, .data = v, .nbytes = sizeof v};
    expect_print(&t, 10, "y: int64 [20]\n[0, 1, 2, ..., 17, 18, 19]\n");
    expect_print(&t, 20, "y: int64 [20]\n[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, "
                         "17, 18, 19]\n");
    t.rank = 2, t.dims[0] = 10, t.dims[1] = 2; /* rows summarised, short rows kept whole */
    expect_print(&t, 10, "y: int64 [10, 2]\n[[0, 1],\n [2, 3],\n [4, 5],\n ...,\n [14, 15],\n"
                         " [16, 17],\n [18, 19]]\n");
}

static void test_other_dtypes(void **state) {
    (void)state;
    const osc_string s[] = {{"hi", 2}, {"", 0}};
    osc_tensor t = {.dtype = OSC_STRING, .rank = 1, .dims = {2}, .data = (void *)s, .nbytes = sizeof s};
    expect_print(&t, 1000, "y: string [2]\n[\"hi\", \"\"]\n");
    const uint8_t b[] = {1, 0};
    osc_tensor tb = {.dtype = OSC_BOOL, .rank = 1, .dims = {2}, .data = (void *)b, .nbytes = 2};
    expect_print(&tb, 1000, "y: bool [2]\n[true, false]\n");
    const uint16_t h[] = {0x3555, 0x7E00}; /* float16 0.333251953125, nan */
    osc_tensor th = {.dtype = OSC_FLOAT16, .rank = 1, .dims = {2}, .data = (void *)h, .nbytes = 4};
    expect_print(&th, 1000, "y: float16 [2]\n[0.33325195, nan]\n");
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix),     cmocka_unit_test(test_rank3_blank_line),
        cmocka_unit_test(test_scalar_and_empty), cmocka_unit_test(test_summarised),
        cmocka_unit_test(test_other_dtypes), cmocka_unit_test(test_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
