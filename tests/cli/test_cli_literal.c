/* test_cli_literal.c: unit tests of inline tensor literals (tools/literal.c). */
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

static char g_msg[512];

static osc_tensor parse_ok(const char *text, int32_t model_dtype) {
    osc_tensor t;
    if (cli_literal_parse(text, model_dtype, &t, g_msg, sizeof g_msg)) fail_msg("%s: %s", text, g_msg);
    return t;
}

static void expect_error(const char *text, int32_t model_dtype, const char *want) {
    osc_tensor t;
    g_msg[0] = '\0';
    if (!cli_literal_parse(text, model_dtype, &t, g_msg, sizeof g_msg)) fail_msg("accepted %s", text);
    if (!strstr(g_msg, want)) fail_msg("%s: message '%s' lacks '%s'", text, g_msg, want);
    assert_null(t.data);
}

static void test_nested_ints(void **state) {
    (void)state;
    osc_tensor t = parse_ok("[[1,0],[2,1]]:int64", OSC_UNDEFINED);
    osc_check_shape(&t, OSC_INT64, 2, (const int64_t[]){2, 2});
    const int64_t want[] = {1, 0, 2, 1};
    assert_memory_equal(t.data, want, sizeof want);
    free(t.data);
    /* the model's dtype when there is no suffix; blanks as numpy prints them */
    t = parse_ok(" [ 1 2\n 3 ] ", OSC_INT32);
    osc_check_shape(&t, OSC_INT32, 1, (const int64_t[]){3});
    assert_int_equal(((int32_t *)t.data)[2], 3);
    free(t.data);
    t = parse_ok("[18446744073709551615, 0]:uint64", OSC_UNDEFINED);
    assert_true(((uint64_t *)t.data)[0] == UINT64_MAX);
    free(t.data);
    t = parse_ok("[-9223372036854775808, 2.0, true]", OSC_INT64);
    assert_true(((int64_t *)t.data)[0] == INT64_MIN && ((int64_t *)t.data)[1] == 2 &&
                ((int64_t *)t.data)[2] == 1);
    free(t.data);
    t = parse_ok("[-8, 7, 1, -1]:int4", OSC_UNDEFINED); /* packed, low nibble first */
    assert_int_equal(((uint8_t *)t.data)[0], 0x78);
    assert_int_equal(((uint8_t *)t.data)[1], 0xF1);
    free(t.data);
}

static void test_floats(void **state) {
    (void)state;
    osc_tensor t = parse_ok("[1.5, nan, -inf, 1e3, .5]", OSC_UNDEFINED);
    osc_check_shape(&t, OSC_FLOAT, 1, (const int64_t[]){5});
    const float *f = t.data;
    assert_true(f[0] == 1.5f && isnan(f[1]) && isinf(f[2]) && f[2] < 0 && f[3] == 1000 && f[4] == 0.5f);
    free(t.data);
    /* numpy's printed text pastes back */
    t = parse_ok("[[3.  2.1 1. ]\n [2.  1.  3.2]]", OSC_FLOAT);
    osc_check_shape(&t, OSC_FLOAT, 2, (const int64_t[]){2, 3});
    assert_true(((float *)t.data)[1] == 2.1f && ((float *)t.data)[5] == 3.2f);
    free(t.data);
    t = parse_ok("[0.1, 65520]:float16", OSC_UNDEFINED);
    assert_int_equal(((uint16_t *)t.data)[0], 0x2E66);
    assert_int_equal(((uint16_t *)t.data)[1], 0x7C00); /* rounds up to infinity */
    free(t.data);
    t = parse_ok("[1, 3.14]:bfloat16", OSC_UNDEFINED);
    assert_int_equal(((uint16_t *)t.data)[0], 0x3F80);
    assert_int_equal(((uint16_t *)t.data)[1], 0x4049);
    free(t.data);
    t = parse_ok("2.5:float64", OSC_UNDEFINED);
    osc_check_shape(&t, OSC_DOUBLE, 0, NULL);
    assert_true(*(double *)t.data == 2.5);
    free(t.data);
}

static void test_other_kinds(void **state) {
    (void)state;
    osc_tensor t = parse_ok("[True, false, 1]", OSC_BOOL);
    osc_check_shape(&t, OSC_BOOL, 1, (const int64_t[]){3});
    assert_memory_equal(t.data, "\x01\x00\x01", 3);
    free(t.data);
    t = parse_ok("[true, false]", OSC_UNDEFINED);
    assert_int_equal(t.dtype, OSC_BOOL);
    free(t.data);
    t = parse_ok("[1+2j, -3j, 4]", OSC_UNDEFINED);
    osc_check_shape(&t, OSC_COMPLEX64, 1, (const int64_t[]){3});
    const float *c = t.data;
    assert_true(c[0] == 1 && c[1] == 2 && c[2] == 0 && c[3] == -3 && c[4] == 4 && c[5] == 0);
    free(t.data);
    t = parse_ok("[\"a,b\", 'it\\'s', '\\x41\\n']", OSC_UNDEFINED);
    osc_check_shape(&t, OSC_STRING, 1, (const int64_t[]){3});
    const osc_string *s = t.data;
    assert_true(s[0].len == 3 && !memcmp(s[0].ptr, "a,b", 3));
    assert_true(s[1].len == 4 && !memcmp(s[1].ptr, "it's", 4));
    assert_true(s[2].len == 2 && !memcmp(s[2].ptr, "A\n", 2));
    free(t.data);
    t = parse_ok("['x:y']:string", OSC_UNDEFINED); /* ':' inside quotes is not the suffix */
    assert_int_equal(((osc_string *)t.data)[0].len, 3);
    free(t.data);
}

static void test_empty_and_scalars(void **state) {
    (void)state;
    osc_tensor t = parse_ok("[]", OSC_FLOAT);
    osc_check_shape(&t, OSC_FLOAT, 1, (const int64_t[]){0});
    free(t.data);
    t = parse_ok("[[], []]:int64", OSC_UNDEFINED);
    osc_check_shape(&t, OSC_INT64, 2, (const int64_t[]){2, 0});
    free(t.data);
    t = parse_ok("3", OSC_UNDEFINED);
    osc_check_shape(&t, OSC_INT64, 0, NULL);
    assert_int_equal(*(int64_t *)t.data, 3);
    free(t.data);
    t = parse_ok("[1, 2,]", OSC_UNDEFINED); /* a trailing comma, as Python allows */
    osc_check_shape(&t, OSC_INT64, 1, (const int64_t[]){2});
    free(t.data);
}

static void test_errors(void **state) {
    (void)state;
    expect_error("[[1,2],[3]]", OSC_UNDEFINED, "rows of different lengths");
    expect_error("[[1],2]", OSC_UNDEFINED, "scalars at different depths");
    expect_error("[1,2", OSC_UNDEFINED, "missing ']'");
    expect_error("[1,2]:int9", OSC_UNDEFINED, "unknown dtype 'int9'");
    expect_error("[300]:int8", OSC_UNDEFINED, "300 does not fit the integer dtype int8");
    expect_error("[-1]:uint8", OSC_UNDEFINED, "does not fit");
    expect_error("[1.5]", OSC_INT64, "1.5 does not fit the integer dtype int64");
    expect_error("[2]", OSC_BOOL, "is not true, false, 0 or 1");
    expect_error("[1]", OSC_STRING, "is not a quoted string");
    expect_error("[1+2j]", OSC_FLOAT, "is not a real number");
    expect_error("[1, x]", OSC_UNDEFINED, "expected a number");
    expect_error("[1.2.3]", OSC_UNDEFINED, "malformed number");
    expect_error("['abc]", OSC_UNDEFINED, "unterminated string");
    expect_error("[1] 2", OSC_UNDEFINED, "unexpected characters");
}

static void test_detection_and_names(void **state) {
    (void)state;
    assert_true(cli_looks_like_literal("[1]"));
    assert_true(cli_looks_like_literal("3"));
    assert_true(cli_looks_like_literal("-1.5:float"));
    assert_true(cli_looks_like_literal("true"));
    assert_true(cli_looks_like_literal("1+2j"));
    assert_false(cli_looks_like_literal("x.npy"));
    assert_false(cli_looks_like_literal("1.npy"));
    assert_false(cli_looks_like_literal("data/in.pb"));
    assert_false(cli_looks_like_literal("truest.npy"));
    assert_int_equal(cli_dtype_from_name("float32"), OSC_FLOAT);
    assert_int_equal(cli_dtype_from_name("float"), OSC_FLOAT);
    assert_int_equal(cli_dtype_from_name("f8"), OSC_DOUBLE);
    assert_int_equal(cli_dtype_from_name("bfloat16"), OSC_BFLOAT16);
    assert_int_equal(cli_dtype_from_name("str"), OSC_STRING);
    assert_int_equal(cli_dtype_from_name("int128"), OSC_UNDEFINED);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_nested_ints),
    cmocka_unit_test(test_floats),
    cmocka_unit_test(test_other_kinds),
    cmocka_unit_test(test_empty_and_scalars),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_detection_and_names),
)
