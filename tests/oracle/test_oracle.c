/* test_oracle.c: the oracle checked on its own against values worked out by hand. */
/* Every case in tests/cases and the element rules of docs/semantics.md. The differential test
 * only shows that runtime and oracle agree; this shows the oracle says what the documents say. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cases/cases.h"
#include "diff/dcase.h"
#include "oracle/oracle.h"
#include "tests/support/check.h"

/* The kernel version an opset resolves to (largest listed version <= opset). */
static int64_t version_of(const char *op, int64_t opset) {
    static const struct {
        const char *op;
        int64_t v[4];
    } k[] = {{"Scatter", {9, 11}},
             {"ScatterElements", {11, 13, 16, 18}},
             {"ScatterND", {11, 13, 16, 18}},
             {"TensorScatter", {24}},
             {"GatherElements", {11, 13}},
             {"GatherND", {11, 12, 13}}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        if (strcmp(k[i].op, op) != 0) continue;
        int64_t best = -1;
        for (int j = 0; j < 4 && k[i].v[j]; j++)
            if (k[i].v[j] <= opset) best = k[i].v[j];
        return best;
    }
    return -1;
}

static int reduction_of(const char *s) {
    for (int r = 0; s && r < ORA_RED_COUNT; r++)
        if (strcmp(s, ora_reduction_name(r)) == 0) return r;
    return -1;
}

static void test_oracle_matches_every_hand_written_case(void **state) {
    (void)state;
    for (size_t i = 0; i < hc_count; i++) {
        const hc_case *c = &hc_cases[i];
        osc_string *strs[4];
        uint8_t *packed[4];
        osc_tensor in[3], want = hc_view(&c->out, &strs[3], &packed[3]);
        for (int j = 0; j < c->n_in; j++) in[j] = hc_view(&c->in[j], &strs[j], &packed[j]);
        int64_t v = version_of(c->op, c->opset), axis = c->has_axis ? c->axis : 0;
        int red = reduction_of(c->reduction);
        ora_result res;
        osc_status st;
        if (strncmp(c->op, "Scatter", 7) == 0 && strcmp(c->op, "ScatterND") != 0)
            st = ora_scatter_elements(v, &in[0], &in[1], &in[2], axis, red, &res);
        else if (strcmp(c->op, "ScatterND") == 0)
            st = ora_scatter_nd(v, &in[0], &in[1], &in[2], red, &res);
        else if (strcmp(c->op, "TensorScatter") == 0)
            st = ora_tensor_scatter(&in[0], &in[1], c->n_in > 2 ? &in[2] : NULL,
                                    c->has_axis ? c->axis : -2,
                                    c->mode && strcmp(c->mode, "circular") == 0, &res);
        else if (strcmp(c->op, "GatherElements") == 0)
            st = ora_gather_elements(v, &in[0], &in[1], axis, &res);
        else
            st = ora_gather_nd(v, &in[0], &in[1], c->has_batch_dims ? c->batch_dims : 0, &res);
        if (st) fail_msg("%s: the oracle failed: %s", c->name, res.msg);
        char why[512];
        /* NaN results compare as NaN: the hand values cannot say which payload survives */
        if (!dc_equal(&want, &res.t, true, why, sizeof why))
            fail_msg("%s: the oracle differs from the hand-written output: %s", c->name, why);
        ora_result_free(&res);
        for (int j = 0; j < 4; j++)
            if (j < c->n_in || j == 3) {
                free(strs[j]);
                free(packed[j]);
            }
    }
}

/* ---- single element rules, each straight from the semantics table ---- */

static float f(float dst, int red, float src) {
    ora_result res = {0};
    assert_true(ora_combine(OSC_FLOAT, red, &dst, &src, &res));
    return dst;
}

static uint32_t bits(float x) {
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

static void test_float_rules(void **state) {
    (void)state;
    const float nan = __builtin_nanf(""), inf = __builtin_inff();
    assert_true(f(1, ORA_MAX, 2) == 2);
    assert_true(f(1, ORA_MIN, 2) == 1);
    assert_true(f(1, ORA_MAX, nan) != f(1, ORA_MAX, nan));        /* NaN on the update side wins */
    assert_true(f(nan, ORA_MIN, 1) != f(nan, ORA_MIN, 1));        /* and on the existing side */
    assert_int_equal(bits(f(-0.0f, ORA_MAX, 0.0f)), 0x80000000u); /* ties keep the existing */
    assert_int_equal(bits(f(0.0f, ORA_MIN, -0.0f)), 0x00000000u);
    assert_true(f(inf, ORA_ADD, -inf) != f(inf, ORA_ADD, -inf)); /* IEEE: NaN */
    assert_true(f(3.4e38f, ORA_ADD, 3.4e38f) == inf);
    assert_true(f(7, ORA_NONE, -1) == -1);
    assert_true(f(7, -1, -1) == -1); /* absent reduction = none */
}

static void test_half_rules(void **state) {
    (void)state;
    ora_result res = {0};
    /* float16: 1 + 2^-11 rounds to even 1.0 at each step */
    uint16_t h = 0x3C00, u = 0x1000;
    for (int i = 0; i < 4; i++) assert_true(ora_combine(OSC_FLOAT16, ORA_ADD, &h, &u, &res));
    assert_int_equal(h, 0x3C00);
    assert_true(res.saw & ORA_SAW_HALF_ROUND);
    /* 65504 (the largest float16, odd mantissa) + 8 rounds back to 65504; + 16 is the exact
     * midpoint to 65536 and rounds to even, which overflows to Inf */
    h = 0x7BFF, u = 0x4800;
    assert_true(ora_combine(OSC_FLOAT16, ORA_ADD, &h, &u, &res));
    assert_int_equal(h, 0x7BFF);
    u = 0x4C00;
    assert_true(ora_combine(OSC_FLOAT16, ORA_ADD, &h, &u, &res));
    assert_int_equal(h, 0x7C00);
    /* bfloat16: 1 + 3*2^-8 rounds to even 1 + 2^-6 */
    h = 0x3F80, u = 0x3C40;
    assert_true(ora_combine(OSC_BFLOAT16, ORA_ADD, &h, &u, &res));
    assert_int_equal(h, 0x3F82);
    /* max with NaN gives the (quiet) NaN */
    h = 0x3C00, u = 0x7E00;
    assert_true(ora_combine(OSC_FLOAT16, ORA_MAX, &h, &u, &res));
    assert_int_equal(h, 0x7E00);
}

static void test_integer_rules(void **state) {
    (void)state;
    ora_result res = {0};
    int8_t a = 127, b = 1;
    assert_true(ora_combine(OSC_INT8, ORA_ADD, &a, &b, &res));
    assert_int_equal(a, -128);
    assert_true(res.saw & ORA_SAW_INT_WRAP);
    int16_t c = -32768, d = -1;
    assert_true(ora_combine(OSC_INT16, ORA_MUL, &c, &d, &res));
    assert_int_equal(c, -32768); /* 32768 wraps back to -32768 */
    int32_t e = INT32_MIN, g = -1;
    assert_true(ora_combine(OSC_INT32, ORA_ADD, &e, &g, &res));
    assert_int_equal(e, INT32_MAX);
    int64_t p = INT64_MIN, q = -1;
    assert_true(ora_combine(OSC_INT64, ORA_MUL, &p, &q, &res));
    assert_true(p == INT64_MIN);
    uint16_t x = 256, y = 256;
    assert_true(ora_combine(OSC_UINT16, ORA_MUL, &x, &y, &res));
    assert_int_equal(x, 0);
    uint32_t s = 0, t = 1;
    assert_true(ora_combine(OSC_UINT32, ORA_MIN, &s, &t, &res));
    assert_int_equal(s, 0);
    uint64_t m = UINT64_MAX, n = 3;
    assert_true(ora_combine(OSC_UINT64, ORA_MAX, &n, &m, &res));
    assert_true(n == UINT64_MAX);
    int32_t k = -5, l = 3;
    assert_true(ora_combine(OSC_INT32, ORA_MAX, &k, &l, &res));
    assert_int_equal(k, 3);
}

static void test_bool_rules(void **state) {
    (void)state;
    ora_result res = {0};
    /* add = or, mul = and, max = or, min = and, over every pair */
    for (int red = ORA_ADD; red <= ORA_MIN; red++)
        for (uint8_t a = 0; a <= 1; a++)
            for (uint8_t b = 0; b <= 1; b++) {
                uint8_t r = a;
                assert_true(ora_combine(OSC_BOOL, red, &r, &b, &res));
                bool is_or = red == ORA_ADD || red == ORA_MAX;
                assert_int_equal(r, is_or ? (a | b) : (a & b));
            }
}

static void test_string_rules(void **state) {
    (void)state;
    ora_result res = {0};
    osc_string a = {"ab", 2}, b = {"abc", 3}, c = {"\x80", 1}, d = {"\x7f\xff", 2};
    osc_string r = a;
    assert_true(ora_combine(OSC_STRING, ORA_MAX, &r, &b, &res));
    assert_int_equal(r.len, 3); /* a prefix sorts first */
    r = b;
    assert_true(ora_combine(OSC_STRING, ORA_MIN, &r, &a, &res));
    assert_int_equal(r.len, 2);
    r = d;
    assert_true(ora_combine(OSC_STRING, ORA_MAX, &r, &c, &res));
    assert_ptr_equal(r.ptr, c.ptr); /* bytes compare unsigned: 0x80 > 0x7f */
    r = a;
    assert_true(ora_combine(OSC_STRING, ORA_ADD, &r, &b, &res));
    assert_int_equal(r.len, 5);
    assert_memory_equal(r.ptr, "ababc", 5);
    assert_false(ora_combine(OSC_STRING, ORA_MUL, &r, &b, &res)); /* undefined */
    ora_result_free(&res);
}

static void test_complex_rules(void **state) {
    (void)state;
    ora_result res = {0};
    const double nan = __builtin_nan("");
    double z[2] = {1, 2}, w[2] = {3, -4};
    assert_true(ora_combine(OSC_COMPLEX128, ORA_MUL, z, w, &res));
    assert_true(z[0] == 11 && z[1] == 2); /* (1+2i)(3-4i) = 3 - 4i + 6i + 8 */
    double a[2] = {1, 5}, b[2] = {1, 7};
    assert_true(ora_combine(OSC_COMPLEX128, ORA_MAX, a, b, &res));
    assert_true(a[0] == 1 && a[1] == 7); /* equal re: im decides */
    /* numpy: a NaN in either part, on either side, wins max and min */
    double n1[2] = {1, nan}, n2[2] = {2, 0};
    assert_true(ora_combine(OSC_COMPLEX128, ORA_MAX, n1, n2, &res));
    assert_true(n1[1] != n1[1]);
    double n3[2] = {2, 0}, n4[2] = {1, nan};
    assert_true(ora_combine(OSC_COMPLEX128, ORA_MAX, n3, n4, &res));
    assert_true(n3[1] != n3[1] && n3[0] == 1);
    float c1[2] = {0, 1}, c2[2] = {0, 1};
    assert_true(ora_combine(OSC_COMPLEX64, ORA_MUL, c1, c2, &res));
    assert_true(c1[0] == -1 && c1[1] == 0); /* i * i = -1 */
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_oracle_matches_every_hand_written_case),
    cmocka_unit_test(test_float_rules),
    cmocka_unit_test(test_half_rules),
    cmocka_unit_test(test_integer_rules),
    cmocka_unit_test(test_bool_rules),
    cmocka_unit_test(test_string_rules),
    cmocka_unit_test(test_complex_rules),
)
