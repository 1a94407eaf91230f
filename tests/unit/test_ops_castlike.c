/* test_ops_castlike.c: CastLike (the Cast kernel with the target dtype from input 1) on what
 * the official node tests leave out: float16/bfloat16 both ways, integers, packed int4, float8
 * saturation, strings, every dtype pair of every row, and the attribute and input errors.
 * Expected bits are worked out by hand (and checked against Python's struct 'e' format), never
 * by the code under test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "kharness.h"
#include "ops/registry.h"
#include "tests/support/check.h"

static osc_tensor vec(int32_t dtype, int64_t n, const void *data) {
    return kh_tensor(dtype, 1, &n, data);
}

/* CastLike at opset of x to the dtype of a one-element target; fails unless it succeeds. */
static void run_like(kh *h, int64_t opset, const osc_tensor *x, int32_t to) {
    static const uint64_t any[2]; /* the target's data is never read: any bytes */
    osc_tensor t = vec(to, 1, any);
    kh_init(h, "CastLike", opset);
    osc_status st = kh_run2(h, x, &t);
    if (st) fail_msg("CastLike-%lld: %s", (long long)opset, h->err.msg);
    assert_int_equal(h->out.dtype, to);
    assert_int_equal(h->out.rank, x->rank);
    assert_memory_equal(h->out.dims, x->dims, (size_t)x->rank * sizeof x->dims[0]);
}

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"CastLike", 14, 0},  {"CastLike", 15, 15}, {"CastLike", 18, 15}, {"CastLike", 19, 19},
        {"CastLike", 20, 19}, {"CastLike", 21, 21}, {"CastLike", 22, 21}, {"CastLike", 23, 23},
        {"CastLike", 24, 24}, {"CastLike", 25, 25}, {"CastLike", 28, 25},
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
}

/* float <-> float16 and float -> bfloat16: one rounding to nearest even, overflow to Inf. */
static void test_half_types(void **state) {
    (void)state;
    kh h;
    static const float f[6] = {1.0f, 0.5f, -2.0f, 65504.0f, 1e6f, 1.0f / 3.0f};
    osc_tensor x = vec(OSC_FLOAT, 6, f);
    run_like(&h, 15, &x, OSC_FLOAT16);
    static const uint16_t want_h[6] = {0x3C00, 0x3800, 0xC000, 0x7BFF, 0x7C00, 0x3555};
    assert_memory_equal(h.out.data, want_h, sizeof want_h);
    kh_free(&h);

    static const uint16_t hx[4] = {0x3C00, 0x3555, 0xFC00, 0x0001};
    x = vec(OSC_FLOAT16, 4, hx);
    run_like(&h, 19, &x, OSC_FLOAT);
    const float *o = h.out.data;
    assert_true(o[0] == 1.0f && o[1] == 0.333251953125f);
    assert_true(o[2] < 0 && o[2] * 0 != 0); /* -Inf */
    assert_true(o[3] == 0x1p-24f);          /* the smallest subnormal */
    kh_free(&h);

    /* bfloat16 keeps float's high half, rounded by the low half: 65504 is 0x477FE000 and 1/3
     * 0x3EAAAAAB, both past the tie (0x8000), so both round up; 1e6 (0x49742400) down */
    x = vec(OSC_FLOAT, 6, f);
    run_like(&h, 25, &x, OSC_BFLOAT16);
    static const uint16_t want_b[6] = {0x3F80, 0x3F00, 0xC000, 0x4780, 0x4974, 0x3EAB};
    assert_memory_equal(h.out.data, want_b, sizeof want_b);
    kh_free(&h);

    /* bfloat16 -> int32 truncates toward zero; 3.0, -5.0, 1.5, -1.5 */
    static const uint16_t bx[4] = {0x4040, 0xC0A0, 0x3FC0, 0xBFC0};
    x = vec(OSC_BFLOAT16, 4, bx);
    run_like(&h, 21, &x, OSC_INT32);
    static const int32_t want_i[4] = {3, -5, 1, -1};
    assert_memory_equal(h.out.data, want_i, sizeof want_i);
    kh_free(&h);

    /* int64 -> float16 from the exact value: 2049 and 2051 are ties (spacing 2 from 2048) and
     * go to the even neighbour, 2048 and 2052 */
    static const int64_t ix[3] = {2049, 2051, -3};
    x = vec(OSC_INT64, 3, ix);
    run_like(&h, 15, &x, OSC_FLOAT16);
    static const uint16_t want_ih[3] = {0x6800, 0x6802, 0xC200};
    assert_memory_equal(h.out.data, want_ih, sizeof want_ih);
    kh_free(&h);
}

/* float -> int4 (packed, first element in the low nibble), float8 with and without saturate. */
static void test_packed_and_float8(void **state) {
    (void)state;
    kh h;
    static const float f[4] = {1.0f, -1.0f, 7.0f, -8.0f};
    osc_tensor x = vec(OSC_FLOAT, 4, f);
    run_like(&h, 21, &x, OSC_INT4);
    static const uint8_t want4[2] = {0xF1, 0x87};
    assert_memory_equal(h.out.data, want4, sizeof want4);
    kh_free(&h);

    /* 1000 is past float8e4m3fn's largest finite value 448 (0x7E): saturate=1 (the default)
     * gives 448, saturate=0 gives NaN (0x7F) */
    static const float big[2] = {1000.0f, -1000.0f};
    x = vec(OSC_FLOAT, 2, big);
    run_like(&h, 19, &x, OSC_FLOAT8E4M3FN);
    static const uint8_t sat[2] = {0x7E, 0xFE};
    assert_memory_equal(h.out.data, sat, sizeof sat);
    kh_free(&h);
    static const uint64_t any[1];
    osc_tensor t = vec(OSC_FLOAT8E4M3FN, 1, any);
    kh_init(&h, "CastLike", 19);
    kh_attr_int(&h, "saturate", 0);
    assert_int_equal(kh_run2(&h, &x, &t), OSC_OK);
    static const uint8_t nan[2] = {0x7F, 0xFF};
    assert_memory_equal(h.out.data, nan, sizeof nan);
    kh_free(&h);
}

/* The output takes input 0's shape whatever target_type's shape: an empty target works, and
 * its data (NULL here) is never read. string -> string copies; string <-> number is refused. */
static void test_target_and_strings(void **state) {
    (void)state;
    kh h;
    static const double d[3] = {1.5, -2.5, 4.0};
    const int64_t dims[2] = {3, 1}, none = 0;
    osc_tensor x = kh_tensor(OSC_DOUBLE, 2, dims, d);
    osc_tensor t = kh_tensor(OSC_FLOAT, 1, &none, NULL);
    kh_init(&h, "CastLike", 23);
    assert_int_equal(kh_run2(&h, &x, &t), OSC_OK);
    assert_int_equal(h.out.rank, 2);
    assert_true(h.out.dims[0] == 3 && h.out.dims[1] == 1);
    static const float want[3] = {1.5f, -2.5f, 4.0f};
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);

    osc_string s[2] = {{"ab", 2}, {"", 0}};
    osc_tensor xs = vec(OSC_STRING, 2, s);
    run_like(&h, 15, &xs, OSC_STRING);
    const osc_string *o = h.out.data;
    assert_true(o[0].len == 2 && memcmp(o[0].ptr, "ab", 2) == 0 && o[1].len == 0);
    kh_free(&h);
    static const uint64_t any[1];
    osc_tensor tf = vec(OSC_FLOAT, 1, any), ts = vec(OSC_STRING, 1, (osc_string[]){{"", 0}});
    kh_init(&h, "CastLike", 15);
    assert_int_equal(kh_run2(&h, &xs, &tf), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "cast from string to float");
    kh_free(&h);
    kh_init(&h, "CastLike", 25);
    assert_int_equal(kh_run2(&h, &x, &ts), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "cast from double to string");
    kh_free(&h);
}

/* Attributes by version: none at 15, saturate from 19, round_mode from 24, never 'to'. */
static void test_attribute_errors(void **state) {
    (void)state;
    kh h;
    kh_init(&h, "CastLike", 15);
    kh_attr_int(&h, "saturate", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'saturate'");
    kh_init(&h, "CastLike", 21);
    kh_attr_int(&h, "to", OSC_FLOAT);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'to'");
    kh_init(&h, "CastLike", 19);
    kh_attr_int(&h, "saturate", 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'saturate' = 2; allowed: 0 or 1");
    kh_init(&h, "CastLike", 23);
    kh_attr_str(&h, "round_mode", "up");
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'round_mode'");
    kh_init(&h, "CastLike", 24);
    kh_attr_str(&h, "round_mode", "sideways");
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'round_mode' = 'sideways'; allowed: up, down");
    kh_init(&h, "CastLike", 25);
    kh_attr_str(&h, "round_mode", "nearest");
    kh_attr_int(&h, "saturate", 0);
    assert_int_equal(kh_check(&h), OSC_OK);
    kh_free(&h);
}

/* A missing target, a target of a dtype the version does not list (complex64; float8 before
 * 19; int4 before 21), an input dtype it does not list; nothing is written. */
static void test_input_errors(void **state) {
    (void)state;
    kh h;
    static const float f[2] = {1, 2};
    static const uint64_t any[2];
    osc_tensor x = vec(OSC_FLOAT, 2, f);
    kh_init(&h, "CastLike", 15);
    assert_int_equal(kh_run(&h, 1, (const osc_tensor *[]){&x}), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "target_type");
    kh_free(&h);
    static const struct {
        int64_t opset;
        int32_t in, to;
        const char *needle;
    } k_bad[] = {
        {25, OSC_FLOAT, OSC_COMPLEX64, "input 1 'target_type'"},
        {15, OSC_FLOAT, OSC_FLOAT8E5M2, "input 1 'target_type'"},
        {19, OSC_FLOAT, OSC_UINT4, "input 1 'target_type'"},
        {23, OSC_FLOAT, OSC_FLOAT8E8M0, "input 1 'target_type'"},
        {15, OSC_COMPLEX128, OSC_FLOAT, "input 0 'input'"},
    };
    for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0]; i++) {
        osc_tensor a = vec(k_bad[i].in, 1, any), t = vec(k_bad[i].to, 1, any);
        kh_init(&h, "CastLike", k_bad[i].opset);
        assert_int_equal(kh_run2(&h, &a, &t), OSC_ERR_UNSUPPORTED);
        kh_assert_msg_has(&h, k_bad[i].needle);
        kh_assert_msg_has(&h, "this op version accepts");
        kh_free(&h);
    }
}

/* Every row casts every dtype of its constraint to every other (string <-> number aside):
 * all-zero bytes, the value zero, go to all-zero bytes (float8e8m0 has no zero: its bits 0 are
 * 2^-127, so it is left out of that check on either side). */
static void test_every_pair(void **state) {
    (void)state;
    static const uint64_t zero[2];
    int runs = 0;
    for (size_t r = 0; r < osc_kernel_count(); r++) {
        const osc_kernel *row = osc_kernel_at(r);
        if (strcmp(row->op, "CastLike") != 0) continue;
        const osc_typeset ts = osc_kernel_types(row, 0);
        for (int32_t a = 1; a < OSC_DTYPE_COUNT; a++)
            for (int32_t b = 1; b < OSC_DTYPE_COUNT; b++) {
                if (!(ts & OSC_TS(a)) || !(ts & OSC_TS(b))) continue;
                if ((a == OSC_STRING) != (b == OSC_STRING)) continue;
                osc_string e[1] = {{"", 0}};
                const void *src = a == OSC_STRING ? (const void *)e : zero;
                osc_tensor x = vec(a, 1, src);
                kh h;
                run_like(&h, row->since, &x, b);
                if (b != OSC_STRING && b != OSC_FLOAT8E8M0 && a != OSC_FLOAT8E8M0) {
                    const size_t bytes = osc_dtype_get(b)->bits >= 8
                                             ? osc_dtype_get(b)->bits / 8 : 1;
                    assert_memory_equal(h.out.data, zero, bytes);
                }
                kh_free(&h);
                runs++;
            }
    }
    assert_true(runs > 2000);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_rows_resolve),
    cmocka_unit_test(test_half_types),
    cmocka_unit_test(test_packed_and_float8),
    cmocka_unit_test(test_target_and_strings),
    cmocka_unit_test(test_attribute_errors),
    cmocka_unit_test(test_input_errors),
    cmocka_unit_test(test_every_pair),
)
