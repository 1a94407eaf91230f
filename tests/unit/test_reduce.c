/* test_reduce.c: the scatter reductions of ops/scatter/reduce.h, per class, against hand values: which
 * (dtype, reduction) pairs are defined, and the OSC_COMBINE_* rules, each checked both as the
 * rule itself and through the library's typed loop (ops/scatter/scatter_loops.h), which must agree
 * bit for bit. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "ops/scatter/reduce.h"
#include "ops/scatter/scatter_loops.h"
#include "tests/support/check.h"

/* dst[j] = rule(dst[j], src[j]) for j < n: the OSC_COMBINE_* rule of the dtype's class
 * expanded per dtype from OSC_STD_TYPES (none: assignment), as the typed loops expand it.
 * String add is not a rule (it allocates): see test_string_add_concatenates. */
#define RULE_LOOP(T, CLS, RED)                                                              \
    for (int64_t j = 0; j < n; j++) d_[j] = OSC_COMBINE_##CLS##_##RED(T, d_[j], s_[j]);     \
    return
#define RULE_CASES_ANY(T, CLS)                                                              \
    case OSC_RED_ADD: RULE_LOOP(T, CLS, ADD);                                               \
    case OSC_RED_MUL: RULE_LOOP(T, CLS, MUL);                                               \
    case OSC_RED_MAX: RULE_LOOP(T, CLS, MAX);                                               \
    case OSC_RED_MIN: RULE_LOOP(T, CLS, MIN);
#define RULE_CASES_FLOAT RULE_CASES_ANY
#define RULE_CASES_F16 RULE_CASES_ANY
#define RULE_CASES_BF16 RULE_CASES_ANY
#define RULE_CASES_SINT RULE_CASES_ANY
#define RULE_CASES_UINT RULE_CASES_ANY
#define RULE_CASES_BOOL RULE_CASES_ANY
#define RULE_CASES_COMPLEX RULE_CASES_ANY
#define RULE_CASES_STRING(T, CLS)                                                           \
    case OSC_RED_MAX: RULE_LOOP(T, CLS, MAX);                                               \
    case OSC_RED_MIN: RULE_LOOP(T, CLS, MIN);
static void rule_apply(int32_t dtype, int32_t red, void *dst, const void *src, int64_t n) {
    switch (dtype) {
#define CASE(E, T, CLS)                                                                     \
    case E: {                                                                               \
        T *d_ = dst;                                                                        \
        const T *s_ = src;                                                                  \
        switch (red) {                                                                      \
            case OSC_RED_NONE: memmove(dst, src, (size_t)n * sizeof(T)); return;            \
            RULE_CASES_##CLS(T, CLS)                                                        \
            default: break;                                                                 \
        }                                                                                   \
        break;                                                                              \
    }
        OSC_STD_TYPES(CASE)
#undef CASE
        default: break;
    }
    fail_msg("no rule for dtype %d reduction %d", (int)dtype, (int)red);
}

/* The typed ScatterElements loop over one row of n elements, indices 0..n-1 (axis innermost):
 * dst[j] = f(dst[j], src[j]). -1 when done, else the element where string add failed. */
static int64_t loop_apply(int32_t dtype, int32_t red, osc_pool *strings, void *dst,
                          const void *src, int64_t n) {
    osc_strcat cat;
    osc_strcat_init(&cat, strings);
    int64_t idx[16];
    assert_true(n <= 16);
    for (int64_t j = 0; j < n; j++) idx[j] = j;
    osc_elem_fn fn = osc_se_loop(dtype, red, OSC_INT64, true);
    assert_non_null(fn);
    const osc_elem_block b = {.dst = dst, .src = src, .idx = idx, .rows = 1, .n = n,
                              .s = n, .astride = 1, .strings = &cat};
    return fn(&b);
}

/* dst = f(dst, src) elementwise by the rule, for non-string-add pairs; the typed loop must
 * give the same bytes. */
static void apply(int32_t dtype, int32_t red, void *dst, const void *src, int64_t n) {
    assert_true(osc_reduction_defined(dtype, red));
    const size_t bytes = (size_t)n * (osc_dtype_get(dtype)->bits / 8);
    unsigned char via_loop[256];
    assert_true(bytes <= sizeof via_loop);
    memcpy(via_loop, dst, bytes);
    rule_apply(dtype, red, dst, src, n);
    assert_int_equal(loop_apply(dtype, red, NULL, via_loop, src, n), -1);
    assert_memory_equal(via_loop, dst, bytes);
}

static osc_string S(const char *s) { return (osc_string){s, strlen(s)}; }

static void assert_string_is(osc_string s, const char *want, size_t want_len) {
    if (s.len != want_len || (want_len && memcmp(s.ptr, want, want_len) != 0))
        fail_msg("string \"%.*s\" (len %zu) != \"%.*s\"", (int)s.len, s.ptr ? s.ptr : "", s.len,
                 (int)want_len, want);
}

/* ---- which pairs are defined ---- */

static void test_defined_for_every_std_dtype(void **state) {
    (void)state;
    static const int32_t std[] = {
#define X(E, T, CLS) E,
        OSC_STD_TYPES(X)
#undef X
    };
    assert_int_equal(sizeof std / sizeof std[0], 16);
    for (size_t i = 0; i < sizeof std / sizeof std[0]; i++)
        for (int32_t r = 0; r < OSC_RED_COUNT; r++) {
            const bool want = !(std[i] == OSC_STRING && r == OSC_RED_MUL);
            if (osc_reduction_defined(std[i], r) != want)
                fail_msg("dtype %d reduction %d: defined %d, want %d", (int)std[i], (int)r,
                         (int)!want, (int)want);
            /* the typed loops exist for exactly the defined pairs */
            for (int32_t it = 0; it < 2; it++)
                for (int last = 0; last < 2; last++)
                    assert_true((osc_se_loop(std[i], r, it ? OSC_INT64 : OSC_INT32, last) !=
                                 NULL) == want);
            assert_true((osc_snd_loop(std[i], r) != NULL) == want);
        }
    static const int32_t not_std[] = {OSC_UNDEFINED, OSC_INT4, OSC_UINT4, OSC_FLOAT8E4M3FN,
                                      OSC_FLOAT4E2M1, OSC_INT2, -1, OSC_DTYPE_COUNT, 64, 1000};
    for (size_t i = 0; i < sizeof not_std / sizeof not_std[0]; i++)
        for (int32_t r = 0; r < OSC_RED_COUNT; r++) {
            assert_false(osc_reduction_defined(not_std[i], r));
            assert_null(osc_se_loop(not_std[i], r, OSC_INT64, true));
            assert_null(osc_snd_loop(not_std[i], r));
        }
    assert_false(osc_reduction_defined(OSC_FLOAT, -1));
    assert_false(osc_reduction_defined(OSC_FLOAT, OSC_RED_COUNT));
}

static void test_reduction_names(void **state) {
    (void)state;
    static const char *const names[OSC_RED_COUNT] = {"none", "add", "mul", "max", "min"};
    static const int32_t codes[OSC_RED_COUNT] = {OSC_RED_NONE, OSC_RED_ADD, OSC_RED_MUL,
                                                 OSC_RED_MAX, OSC_RED_MIN};
    for (int i = 0; i < OSC_RED_COUNT; i++) {
        assert_int_equal(osc_reduction_parse(names[i]), codes[i]);
        assert_string_equal(osc_reduction_name(codes[i]), names[i]);
    }
    assert_int_equal(osc_reduction_parse("sum"), -1);
    assert_int_equal(osc_reduction_parse(""), -1);
    assert_int_equal(osc_reduction_parse("Add"), -1);
    assert_int_equal(osc_reduction_parse("add "), -1);
    assert_int_equal(osc_reduction_parse("maximum"), -1);
    assert_string_equal(osc_reduction_name(-1), "?");
    assert_string_equal(osc_reduction_name(OSC_RED_COUNT), "?");
}

/* ---- none ---- */

static void test_none_assigns(void **state) {
    (void)state;
    int32_t d[3] = {1, 2, 3};
    static const int32_t s[3] = {4, -5, 6};
    apply(OSC_INT32, OSC_RED_NONE, d, s, 3);
    assert_memory_equal(d, s, sizeof d);
    osc_complex128 z[1] = {{1, 2}};
    static const osc_complex128 w[1] = {{-3, 4}};
    apply(OSC_COMPLEX128, OSC_RED_NONE, z, w, 1);
    assert_true(z[0].re == -3 && z[0].im == 4);
    osc_string sd[1] = {S("old")}, ss[1] = {S("new")};
    apply(OSC_STRING, OSC_RED_NONE, sd, ss, 1);
    assert_ptr_equal(sd[0].ptr, ss[0].ptr);
    assert_int_equal(sd[0].len, 3);
}

/* ---- integers: wrap modulo 2^bits, no int promotion overflow ---- */

static void test_unsigned_wrap(void **state) {
    (void)state;
    /* 65535 * 65535 = 2^32 - 2^17 + 1 = 1 (mod 2^16); promoted to int it would overflow. */
    uint16_t a16[3] = {65535, 300, 65535};
    static const uint16_t b16[3] = {65535, 300, 2};
    apply(OSC_UINT16, OSC_RED_MUL, a16, b16, 3);
    assert_int_equal(a16[0], 1);
    assert_int_equal(a16[1], 24464); /* 90000 - 65536 */
    assert_int_equal(a16[2], 65534); /* 131070 - 65536 */
    uint16_t c16[1] = {65535};
    static const uint16_t one16[1] = {1};
    apply(OSC_UINT16, OSC_RED_ADD, c16, one16, 1);
    assert_int_equal(c16[0], 0);
    uint8_t a8[2] = {255, 200};
    static const uint8_t b8[2] = {255, 100};
    apply(OSC_UINT8, OSC_RED_MUL, a8, b8, 2);
    assert_int_equal(a8[0], 1);  /* 65025 = 254 * 256 + 1 */
    assert_int_equal(a8[1], 32); /* 20000 = 78 * 256 + 32 */
    uint32_t a32[1] = {UINT32_MAX};
    static const uint32_t b32[1] = {UINT32_MAX};
    apply(OSC_UINT32, OSC_RED_MUL, a32, b32, 1);
    assert_int_equal(a32[0], 1);
    uint64_t a64[2] = {UINT64_MAX, UINT64_MAX};
    static const uint64_t b64[2] = {UINT64_MAX, 2};
    apply(OSC_UINT64, OSC_RED_MUL, a64, b64, 1);
    assert_true(a64[0] == 1);
    apply(OSC_UINT64, OSC_RED_ADD, a64 + 1, b64 + 1, 1);
    assert_true(a64[1] == 1);
}

static void test_signed_wrap(void **state) {
    (void)state;
    int8_t a8[2] = {127, -128};
    static const int8_t b8[2] = {1, -1};
    apply(OSC_INT8, OSC_RED_ADD, a8, b8, 2);
    assert_int_equal(a8[0], -128);
    assert_int_equal(a8[1], 127);
    int16_t a16[2] = {256, -32768};
    static const int16_t b16[2] = {256, -1};
    apply(OSC_INT16, OSC_RED_MUL, a16, b16, 2);
    assert_int_equal(a16[0], 0);
    assert_int_equal(a16[1], -32768);
    int32_t a32[2] = {INT32_MAX, INT32_MIN};
    static const int32_t b32[2] = {1, -1};
    apply(OSC_INT32, OSC_RED_ADD, a32, b32, 1);
    assert_int_equal(a32[0], INT32_MIN);
    apply(OSC_INT32, OSC_RED_MUL, a32 + 1, b32 + 1, 1);
    assert_int_equal(a32[1], INT32_MIN);
    int64_t a64[3] = {INT64_MAX, INT64_MIN, INT64_C(3037000500)};
    static const int64_t b64[3] = {1, -1, INT64_C(3037000500)};
    apply(OSC_INT64, OSC_RED_ADD, a64, b64, 1);
    assert_true(a64[0] == INT64_MIN);
    apply(OSC_INT64, OSC_RED_MUL, a64 + 1, b64 + 1, 2);
    assert_true(a64[1] == INT64_MIN);
    /* 3037000500^2 = 9223372037000250000 = 2^63 + 145474192 -> wraps negative */
    assert_true(a64[2] == INT64_MIN + INT64_C(145474192));
}

static void test_integer_min_max_extremes(void **state) {
    (void)state;
    int64_t mx[2] = {INT64_MIN, INT64_MAX}, mn[2] = {INT64_MIN, INT64_MAX};
    static const int64_t s[2] = {INT64_MAX, INT64_MIN};
    apply(OSC_INT64, OSC_RED_MAX, mx, s, 2);
    assert_true(mx[0] == INT64_MAX && mx[1] == INT64_MAX);
    apply(OSC_INT64, OSC_RED_MIN, mn, s, 2);
    assert_true(mn[0] == INT64_MIN && mn[1] == INT64_MIN);
    /* unsigned: UINT64_MAX is the largest, not -1 */
    uint64_t u[2] = {0, UINT64_MAX}, v[2] = {0, UINT64_MAX};
    static const uint64_t us[2] = {UINT64_MAX, 1};
    apply(OSC_UINT64, OSC_RED_MAX, u, us, 2);
    assert_true(u[0] == UINT64_MAX && u[1] == UINT64_MAX);
    apply(OSC_UINT64, OSC_RED_MIN, v, us, 2);
    assert_true(v[0] == 0 && v[1] == 1);
    int8_t c[2] = {-128, 127};
    static const int8_t cs[2] = {127, -128};
    apply(OSC_INT8, OSC_RED_MAX, c, cs, 2);
    assert_int_equal(c[0], 127);
    assert_int_equal(c[1], 127);
    uint8_t b[1] = {1};
    static const uint8_t bs[1] = {255};
    apply(OSC_UINT8, OSC_RED_MAX, b, bs, 1);
    assert_int_equal(b[0], 255);
}

/* ---- float / double ---- */

/* max/min: NaN on either side wins; equal (-0.0 vs +0.0) keeps dst; otherwise the usual. */
static void test_float_nan_and_zero_rules(void **state) {
    (void)state;
    for (int32_t r = OSC_RED_MAX; r <= OSC_RED_MIN; r++) {
        float d[6] = {NAN, 1.0f, -0.0f, 0.0f, 1.0f, 2.0f};
        const float s[6] = {1.0f, NAN, 0.0f, -0.0f, 2.0f, 1.0f};
        apply(OSC_FLOAT, r, d, s, 6);
        assert_true(isnan(d[0]) && isnan(d[1]));
        assert_true(d[2] == 0.0f && signbit(d[2]));
        assert_true(d[3] == 0.0f && !signbit(d[3]));
        assert_true(d[4] == (r == OSC_RED_MAX ? 2.0f : 1.0f));
        assert_true(d[5] == (r == OSC_RED_MAX ? 2.0f : 1.0f));

        double e[5] = {NAN, -1.0, -0.0, 0.0, -INFINITY};
        const double t[5] = {-INFINITY, NAN, 0.0, -0.0, INFINITY};
        apply(OSC_DOUBLE, r, e, t, 5);
        assert_true(isnan(e[0]) && isnan(e[1]));
        assert_true(e[2] == 0.0 && signbit(e[2]));
        assert_true(e[3] == 0.0 && !signbit(e[3]));
        assert_true(e[4] == (r == OSC_RED_MAX ? INFINITY : -INFINITY));
    }
}

static void test_float_add_mul_ieee(void **state) {
    (void)state;
    float d[3] = {16777216.0f, INFINITY, 0.5f};
    static const float s[3] = {1.0f, -INFINITY, 0.25f};
    apply(OSC_FLOAT, OSC_RED_ADD, d, s, 3);
    assert_true(d[0] == 16777216.0f); /* 2^24 + 1 rounds back to 2^24 in float */
    assert_true(isnan(d[1]));
    assert_true(d[2] == 0.75f);
    double e[2] = {0.0, 3.0};
    static const double t[2] = {INFINITY, -0.5};
    apply(OSC_DOUBLE, OSC_RED_MUL, e, t, 2);
    assert_true(isnan(e[0]));
    assert_true(e[1] == -1.5);
    double g[1] = {9007199254740992.0}; /* 2^53: +1 is lost in double, not in long double */
    static const double one[1] = {1.0};
    apply(OSC_DOUBLE, OSC_RED_ADD, g, one, 1);
    assert_true(g[0] == 9007199254740992.0);
}

/* ---- float16 / bfloat16: computed in float, rounded (nearest even) after every update ---- */

static void test_half_rounding(void **state) {
    (void)state;
    /* float16: spacing 2 at 2048: 2049 ties to 2048 (even), 2051 ties to 2052 (even) */
    uint16_t h[3] = {0x6800 /* 2048 */, 0x6801 /* 2050 */, 0x7BFF /* 65504 */};
    static const uint16_t one_h[3] = {0x3C00, 0x3C00, 0x7BFF};
    apply(OSC_FLOAT16, OSC_RED_ADD, h, one_h, 3);
    assert_int_equal(h[0], 0x6800);
    assert_int_equal(h[1], 0x6802);
    assert_int_equal(h[2], 0x7C00); /* overflow -> +Inf */
    /* (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 -> 1 + 2^-9 */
    uint16_t m[1] = {0x3C01};
    static const uint16_t ms[1] = {0x3C01};
    apply(OSC_FLOAT16, OSC_RED_MUL, m, ms, 1);
    assert_int_equal(m[0], 0x3C02);
    /* max/min: NaN wins, -0 vs +0 keeps dst */
    for (int32_t r = OSC_RED_MAX; r <= OSC_RED_MIN; r++) {
        uint16_t x[4] = {0x7E00, 0x3C00, 0x8000, 0x3C00};
        static const uint16_t y[4] = {0x3C00, 0x7E00, 0x0000, 0x4000 /* 2 */};
        apply(OSC_FLOAT16, r, x, y, 4);
        assert_true(isnan(osc_f16_to_f32(x[0])) && isnan(osc_f16_to_f32(x[1])));
        assert_int_equal(x[2], 0x8000);
        assert_int_equal(x[3], r == OSC_RED_MAX ? 0x4000 : 0x3C00);
    }

    /* bfloat16: spacing 2 at 256: 257 ties to 256, 259 ties to 260 */
    uint16_t b[2] = {0x4380 /* 256 */, 0x4381 /* 258 */};
    static const uint16_t one_b[2] = {0x3F80, 0x3F80};
    apply(OSC_BFLOAT16, OSC_RED_ADD, b, one_b, 2);
    assert_int_equal(b[0], 0x4380);
    assert_int_equal(b[1], 0x4382);
    for (int32_t r = OSC_RED_MAX; r <= OSC_RED_MIN; r++) {
        uint16_t x[3] = {0x7FC0, 0x3F80, 0x8000};
        static const uint16_t y[3] = {0x3F80, 0x7FC0, 0x0000};
        apply(OSC_BFLOAT16, r, x, y, 3);
        assert_true(isnan(osc_bf16_to_f32(x[0])) && isnan(osc_bf16_to_f32(x[1])));
        assert_int_equal(x[2], 0x8000);
    }
}

/* ---- bool ---- */

static void test_bool_truth_tables(void **state) {
    (void)state;
    static const uint8_t src[4] = {0, 1, 0, 1};
    static const uint8_t or_[4] = {0, 1, 1, 1}, and_[4] = {0, 0, 0, 1};
    static const int32_t reds[4] = {OSC_RED_ADD, OSC_RED_MUL, OSC_RED_MAX, OSC_RED_MIN};
    static const uint8_t *const want[4] = {or_, and_, or_, and_};
    for (int r = 0; r < 4; r++) {
        uint8_t d[4] = {0, 0, 1, 1};
        apply(OSC_BOOL, reds[r], d, src, 4);
        assert_memory_equal(d, want[r], 4);
    }
}

/* ---- complex ---- */

static void test_complex_arith(void **state) {
    (void)state;
    osc_complex64 a[2] = {{1, 2}, {1, 2}};
    static const osc_complex64 b[2] = {{3, 4}, {3, 4}};
    apply(OSC_COMPLEX64, OSC_RED_ADD, a, b, 1);
    assert_true(a[0].re == 4 && a[0].im == 6);
    apply(OSC_COMPLEX64, OSC_RED_MUL, a + 1, b + 1, 1);
    assert_true(a[1].re == -5 && a[1].im == 10); /* 3 + 4i + 6i + 8i^2 */
    osc_complex128 c[1] = {{0, 1}};
    static const osc_complex128 i1[1] = {{0, 1}};
    apply(OSC_COMPLEX128, OSC_RED_MUL, c, i1, 1);
    assert_true(c[0].re == -1 && c[0].im == 0);
}

/* max/min order (re, im) lexicographically; a NaN part on either side wins (numpy). */
static void test_complex_max_min(void **state) {
    (void)state;
    {
        osc_complex128 mx[4] = {{1, 5}, {1, 5}, {1, 6}, {0, -0.0}};
        osc_complex128 mn[4] = {{1, 5}, {1, 5}, {1, 6}, {0, -0.0}};
        static const osc_complex128 s[4] = {{2, 0}, {1, 6}, {1, 5}, {0, 0.0}};
        apply(OSC_COMPLEX128, OSC_RED_MAX, mx, s, 4);
        assert_true(mx[0].re == 2 && mx[0].im == 0);
        assert_true(mx[1].re == 1 && mx[1].im == 6);
        assert_true(mx[2].re == 1 && mx[2].im == 6);
        assert_true(signbit(mx[3].im)); /* equal: dst kept */
        apply(OSC_COMPLEX128, OSC_RED_MIN, mn, s, 4);
        assert_true(mn[0].re == 1 && mn[0].im == 5);
        assert_true(mn[1].re == 1 && mn[1].im == 5);
        assert_true(mn[2].re == 1 && mn[2].im == 5);
        assert_true(signbit(mn[3].im));
    }
    for (int32_t r = OSC_RED_MAX; r <= OSC_RED_MIN; r++) {
        /* NaN in src's imaginary part while dst's real part decides the order */
        osc_complex64 d[4] = {{2, 0}, {0, 0}, {1, NAN}, {NAN, 0}};
        const osc_complex64 s[4] = {{1, NAN}, {3, NAN}, {2, 0}, {1, 1}};
        apply(OSC_COMPLEX64, r, d, s, 4);
        assert_true(d[0].re == 1 && isnan(d[0].im));
        assert_true(d[1].re == 3 && isnan(d[1].im));
        assert_true(d[2].re == 1 && isnan(d[2].im));
        assert_true(isnan(d[3].re));
    }
}

/* ---- strings ---- */

static void test_string_max_min(void **state) {
    (void)state;
    static const char nul[3] = {'a', '\0', 'b'}, nul2[3] = {'a', '\0', 'c'};
    osc_string mx[7] = {S("abc"), S("ab"), S(""), S("b"), S("\xff"), {nul, 1}, {nul, 3}};
    osc_string mn[7] = {S("abc"), S("ab"), S(""), S("b"), S("\xff"), {nul, 1}, {nul, 3}};
    const osc_string s[7] = {S("ab"), S("abc"), S("a"), S("abc"), S("a"), {nul, 3}, {nul2, 3}};
    apply(OSC_STRING, OSC_RED_MAX, mx, s, 7);
    assert_string_is(mx[0], "abc", 3); /* a longer string after its prefix */
    assert_string_is(mx[1], "abc", 3);
    assert_string_is(mx[2], "a", 1);
    assert_string_is(mx[3], "b", 1);
    assert_string_is(mx[4], "\xff", 1); /* bytes compare unsigned */
    assert_string_is(mx[5], nul, 3);    /* bytes after a NUL count */
    assert_string_is(mx[6], nul2, 3);
    apply(OSC_STRING, OSC_RED_MIN, mn, s, 7);
    assert_string_is(mn[0], "ab", 2);
    assert_string_is(mn[1], "ab", 2);
    assert_string_is(mn[2], "", 0);
    assert_string_is(mn[3], "abc", 3);
    assert_string_is(mn[4], "a", 1);
    assert_string_is(mn[5], nul, 1);
    assert_string_is(mn[6], nul, 3);

    /* equal strings: dst kept (its pointer, not src's) */
    static const char one[] = "same", two[] = "same";
    osc_string e[2] = {{one, 4}, {one, 4}};
    const osc_string f[2] = {{two, 4}, {two, 4}};
    apply(OSC_STRING, OSC_RED_MAX, e, f, 1);
    apply(OSC_STRING, OSC_RED_MIN, e + 1, f + 1, 1);
    assert_ptr_equal(e[0].ptr, one);
    assert_ptr_equal(e[1].ptr, one);
}

static void test_string_add_concatenates(void **state) {
    (void)state;
    osc_allocator a;
    osc_allocator_init(&a, NULL);
    osc_pool pool;
    osc_pool_init(&pool, &a, 0);
    /* through the typed loop, which appends with osc_strcat_append */
    static const char ab[] = "ab";
    osc_string d[3] = {{ab, 2}, S(""), {ab, 2}};
    const osc_string s[3] = {S("cd"), S("cd"), S("")};
    assert_int_equal(loop_apply(OSC_STRING, OSC_RED_ADD, &pool, d, s, 3), -1);
    assert_string_is(d[0], "abcd", 4);
    assert_string_is(d[1], "cd", 2);
    assert_ptr_equal(d[2].ptr, ab); /* nothing appended */
    assert_string_is(d[2], "ab", 2);
    assert_int_equal(loop_apply(OSC_STRING, OSC_RED_ADD, &pool, d, s, 1), -1);
    assert_string_is(d[0], "abcdcd", 6);
    assert_string_is(s[0], "cd", 2);
    assert_memory_equal(ab, "ab", 3); /* the source bytes are never written */
    osc_pool_free(&pool);

    /* the pool's allocation failing is reported, not a crash: the loop names element 0 and
     * osc_strcat_append leaves the string as it was */
    osc_options opts;
    osc_options_init(&opts);
    opts.max_bytes = 1;
    osc_allocator_init(&a, &opts);
    osc_pool_init(&pool, &a, 0);
    osc_string g[1] = {S("x")};
    const osc_string h[1] = {S("y")};
    assert_int_equal(loop_apply(OSC_STRING, OSC_RED_ADD, &pool, g, h, 1), 0);
    osc_strcat cat;
    osc_strcat_init(&cat, &pool);
    assert_false(osc_strcat_append(&cat, &g[0], h[0]));
    assert_string_is(g[0], "x", 1);
    osc_pool_free(&pool);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_defined_for_every_std_dtype),
    cmocka_unit_test(test_reduction_names),
    cmocka_unit_test(test_none_assigns),
    cmocka_unit_test(test_unsigned_wrap),
    cmocka_unit_test(test_signed_wrap),
    cmocka_unit_test(test_integer_min_max_extremes),
    cmocka_unit_test(test_float_nan_and_zero_rules),
    cmocka_unit_test(test_float_add_mul_ieee),
    cmocka_unit_test(test_half_rounding),
    cmocka_unit_test(test_bool_truth_tables),
    cmocka_unit_test(test_complex_arith),
    cmocka_unit_test(test_complex_max_min),
    cmocka_unit_test(test_string_max_min),
    cmocka_unit_test(test_string_add_concatenates),
)
