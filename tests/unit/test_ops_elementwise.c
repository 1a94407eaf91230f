/* test_ops_elementwise.c: the elementwise kernels (broadcasting, arithmetic, comparison, logic,
 * Min/Max, Where, Cast, Identity) run one node at a time; expected values worked out by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "kharness.h"
#include "tests/support/check.h"

/* ---- helpers ---- */

static osc_tensor vec(int32_t dtype, int64_t n, const void *data) {
    return kh_tensor(dtype, 1, &n, data);
}

static osc_tensor scalar(int32_t dtype, const void *data) {
    return kh_tensor(dtype, 0, NULL, data);
}

/* Runs a binary op on two float vectors of n and checks the float result. */
static void check_f32_bin(const char *op, int64_t opset, int64_t n, const float *a,
                          const float *b, const float *want) {
    kh h;
    kh_init(&h, op, opset);
    osc_tensor ta = vec(OSC_FLOAT, n, a), tb = vec(OSC_FLOAT, n, b);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, want, (size_t)n * sizeof *want);
    kh_free(&h);
}

/* ---- dispatch and version gating ---- */

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"Add", 7, 7},      {"Add", 12, 7},      {"Add", 13, 13},      {"Add", 24, 14},
        {"Mod", 10, 10},    {"Mod", 18, 13},     {"Neg", 7, 6},        {"Neg", 13, 13},
        {"Abs", 7, 6},      {"Not", 7, 1},       {"Min", 7, 6},        {"Min", 8, 8},
        {"Max", 12, 12},    {"Max", 25, 13},     {"Equal", 7, 7},      {"Equal", 11, 11},
        {"Equal", 19, 19},  {"Less", 9, 9},      {"Greater", 13, 13},  {"LessOrEqual", 12, 12},
        {"GreaterOrEqual", 16, 16}, {"And", 7, 7}, {"Or", 8, 7},       {"Where", 9, 9},
        {"Where", 16, 16},  {"Cast", 7, 6},      {"Cast", 9, 9},       {"Cast", 13, 13},
        {"Cast", 19, 19},   {"Cast", 22, 21},    {"Cast", 23, 23},     {"Cast", 24, 24},
        {"Cast", 25, 25},   {"Identity", 7, 1},  {"Identity", 13, 13}, {"Identity", 15, 14},
        {"Identity", 16, 16}, {"Identity", 20, 19}, {"Identity", 21, 21}, {"Identity", 23, 23},
        {"Identity", 24, 24}, {"Identity", 25, 25},
        /* Versions with the old broadcast/axis attributes (before 7) are not rows. */
        {"Add", 6, 0}, {"Mod", 9, 0},
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
}

/* A dtype the version does not list is refused at infer, before anything is written. */
static void test_version_gating(void **state) {
    (void)state;
    static const int8_t i8[2] = {1, 2};
    static const int32_t i32[2] = {1, 2};
    static const uint16_t bf[2] = {0x3f80, 0x4000};
    static const uint8_t u8[2] = {1, 2};
    osc_tensor a8 = vec(OSC_INT8, 2, i8), a32 = vec(OSC_INT32, 2, i32);
    osc_tensor abf = vec(OSC_BFLOAT16, 2, bf), au8 = vec(OSC_UINT8, 2, u8);
    kh h;
    /* Add-13 lacks int8 (added in 14); Add-14 has it. */
    kh_init_since(&h, "Add", 13, 13);
    assert_int_equal(kh_run2(&h, &a8, &a8), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "dtype int8");
    kh_assert_msg_has(&h, "bfloat16");
    kh_free(&h);
    kh_init_since(&h, "Add", 14, 14);
    assert_int_equal(kh_run2(&h, &a8, &a8), OSC_OK);
    kh_free(&h);
    /* Add-7 lacks bfloat16 */
    kh_init_since(&h, "Add", 7, 7);
    assert_int_equal(kh_run2(&h, &abf, &abf), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    /* Less-7: floats only; Less-9: ints too */
    kh_init_since(&h, "Less", 8, 7);
    assert_int_equal(kh_run2(&h, &a32, &a32), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    kh_init_since(&h, "Less", 9, 9);
    assert_int_equal(kh_run2(&h, &a32, &a32), OSC_OK);
    kh_free(&h);
    /* Max-8: floats only; Max-12: ints */
    kh_init_since(&h, "Max", 11, 8);
    assert_int_equal(kh_run2(&h, &a32, &a32), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    /* Neg never takes unsigned */
    kh_init_since(&h, "Neg", 13, 13);
    assert_int_equal(kh_run1(&h, &au8), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    /* And takes bool only */
    kh_init_since(&h, "And", 7, 7);
    assert_int_equal(kh_run2(&h, &au8, &au8), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    /* Where-9 lacks bfloat16, Where-16 has it */
    static const uint8_t c[2] = {1, 0};
    osc_tensor tc = vec(OSC_BOOL, 2, c);
    kh_init_since(&h, "Where", 9, 9);
    assert_int_equal(kh_run3(&h, &tc, &abf, &abf), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    kh_init_since(&h, "Where", 16, 16);
    assert_int_equal(kh_run3(&h, &tc, &abf, &abf), OSC_OK);
    kh_free(&h);
    /* Identity-13 has no float8; 19 does */
    osc_tensor f8 = vec(OSC_FLOAT8E4M3FN, 2, u8);
    kh_init_since(&h, "Identity", 13, 13);
    assert_int_equal(kh_run1(&h, &f8), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    kh_init_since(&h, "Identity", 19, 19);
    assert_int_equal(kh_run1(&h, &f8), OSC_OK);
    assert_memory_equal(h.out.data, u8, 2);
    kh_free(&h);
}

static void test_attributes(void **state) {
    (void)state;
    static const int32_t a[1] = {1};
    osc_tensor t = vec(OSC_INT32, 1, a);
    kh h;
    kh_init_since(&h, "Add", 14, 14);
    kh_attr_int(&h, "broadcast", 1); /* opset < 7 only */
    assert_int_equal(kh_run2(&h, &t, &t), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "unknown attribute 'broadcast'");
    kh_free(&h);
    kh_init_since(&h, "Mod", 13, 13);
    kh_attr_int(&h, "fmod", 2);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "'fmod' = 2");
    kh_free(&h);
    kh_init_since(&h, "Cast", 13, 13);
    kh_attr_int(&h, "to", OSC_FLOAT);
    kh_attr_int(&h, "saturate", 1); /* from 19 on */
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_free(&h);
    kh_init_since(&h, "Cast", 13, 13);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL); /* 'to' is required */
    kh_assert_msg_has(&h, "'to'");
    kh_free(&h);
    kh_init_since(&h, "Cast", 25, 25);
    kh_attr_int(&h, "to", OSC_FLOAT8E8M0);
    kh_attr_str(&h, "round_mode", "sideways");
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_free(&h);
}

/* ---- broadcasting ---- */

static void test_bcast_scalar(void **state) {
    (void)state;
    static const float a[3] = {1.0f, 2.0f, 3.0f}, s = 10.0f;
    static const float want[3] = {11.0f, 12.0f, 13.0f}, want_rev[3] = {9.0f, 8.0f, 7.0f};
    osc_tensor ta = vec(OSC_FLOAT, 3, a), ts = scalar(OSC_FLOAT, &s);
    kh h;
    kh_init_since(&h, "Add", 14, 14);
    assert_int_equal(kh_run2(&h, &ta, &ts), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 1, (int64_t[]){3});
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
    kh_init_since(&h, "Sub", 14, 14);
    assert_int_equal(kh_run2(&h, &ts, &ta), OSC_OK); /* scalar first */
    assert_memory_equal(h.out.data, want_rev, sizeof want_rev);
    kh_free(&h);
    kh_init_since(&h, "Mul", 14, 14); /* scalar x scalar -> scalar */
    assert_int_equal(kh_run2(&h, &ts, &ts), OSC_OK);
    assert_int_equal(h.out.rank, 0);
    assert_true(((float *)h.out.data)[0] == 100.0f);
    kh_free(&h);
}

static void test_bcast_3x1_1x4(void **state) {
    (void)state;
    static const int32_t a[3] = {0, 10, 20}, b[4] = {1, 2, 3, 4};
    static const int32_t want[12] = {1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 24};
    osc_tensor ta = kh_tensor(OSC_INT32, 2, (int64_t[]){3, 1}, a);
    osc_tensor tb = kh_tensor(OSC_INT32, 2, (int64_t[]){1, 4}, b);
    kh h;
    kh_init_since(&h, "Add", 14, 14);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    osc_check_shape(&h.out, OSC_INT32, 2, (int64_t[]){3, 4});
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
}

/* Add, Sub, Mul and Div of float and double, [R, C] with [R, 1] and [R, 1] with [R, C] (rows
 * where one side is a single value: their own loop), and [R, C] with [R, C] and [1, C]: each
 * element the op's own expression on the two elements broadcasting pairs, bit for bit. */
static void test_bcast_row_single(void **state) {
    (void)state;
    enum { R = 5, C = 19 };
    static const char *const ops[4] = {"Add", "Sub", "Mul", "Div"};
    double full[R * C], col[R], row[C];
    for (int i = 0; i < R * C; i++) full[i] = (double)((i * 7919) % 101 - 50) / 7;
    for (int i = 0; i < R; i++) col[i] = (double)(i * 3 + 1) / 3;
    for (int i = 0; i < C; i++) row[i] = (double)(i - 9) / 5;
    for (int op = 0; op < 4; op++)
        for (int dt = 0; dt < 2; dt++)
            /* forms: full op col, col op full, full op full, full op row */
            for (int form = 0; form < 4; form++) {
                const int32_t dtype = dt ? OSC_DOUBLE : OSC_FLOAT;
                const size_t es = dt ? sizeof(double) : sizeof(float);
                unsigned char a[R * C * sizeof(double)], b[R * C * sizeof(double)];
                const double *sa = form == 1 ? col : full;
                const double *sb = form == 0 ? col : form == 3 ? row : full;
                const int na = form == 1 ? R : R * C, nb = form == 0 ? R : form == 3 ? C : R * C;
                for (int i = 0; i < na; i++) {
                    const float f = (float)sa[i];
                    memcpy(a + i * es, dt ? (const void *)&sa[i] : (const void *)&f, es);
                }
                for (int i = 0; i < nb; i++) {
                    const float f = (float)sb[i];
                    memcpy(b + i * es, dt ? (const void *)&sb[i] : (const void *)&f, es);
                }
                const int64_t da[2] = {R, form == 1 ? 1 : C};
                const int64_t db[2] = {form == 3 ? 1 : R, form == 0 ? 1 : C};
                osc_tensor ta = kh_tensor(dtype, 2, da, a), tb = kh_tensor(dtype, 2, db, b);
                kh h;
                kh_init_since(&h, ops[op], 14, 14);
                assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
                osc_check_shape(&h.out, dtype, 2, (int64_t[]){R, C});
                for (int r = 0; r < R; r++)
                    for (int c = 0; c < C; c++) {
                        const int ia = form == 1 ? r : r * C + c;
                        const int ib = form == 0 ? r : form == 3 ? c : r * C + c;
                        bool same;
                        if (dt) {
                            const double x = sa[ia], y = sb[ib];
                            const double w = op == 0   ? x + y
                                             : op == 1 ? x - y
                                             : op == 2 ? x * y : x / y;
                            same = !memcmp(&w, (const double *)h.out.data + r * C + c, es);
                        } else {
                            const float x = (float)sa[ia], y = (float)sb[ib];
                            const float w = op == 0   ? x + y
                                            : op == 1 ? x - y
                                            : op == 2 ? x * y : x / y;
                            same = !memcmp(&w, (const float *)h.out.data + r * C + c, es);
                        }
                        if (!same)
                            fail_msg("%s %s form %d: element (%d, %d) differs", ops[op],
                                     dt ? "double" : "float", form, r, c);
                    }
                kh_free(&h);
            }
}

/* [2,1,3] with [4,1]: rank mismatch, broadcast on both sides -> [2,4,3]. */
static void test_bcast_rank_mismatch(void **state) {
    (void)state;
    static const int64_t a[6] = {100, 200, 300, 400, 500, 600}, b[4] = {1, 2, 3, 4};
    int64_t want[24];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 3; k++) want[i * 12 + j * 3 + k] = a[i * 3 + k] - b[j];
    osc_tensor ta = kh_tensor(OSC_INT64, 3, (int64_t[]){2, 1, 3}, a);
    osc_tensor tb = kh_tensor(OSC_INT64, 2, (int64_t[]){4, 1}, b);
    kh h;
    kh_init_since(&h, "Sub", 14, 14);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    osc_check_shape(&h.out, OSC_INT64, 3, (int64_t[]){2, 4, 3});
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
    /* the same the other way round: [3] with [2,3] */
    static const double x[3] = {1, 2, 3}, y[6] = {1, 1, 1, 2, 2, 2};
    static const double wxy[6] = {1, 2, 3, 2, 4, 6};
    osc_tensor tx = vec(OSC_DOUBLE, 3, x), ty = kh_tensor(OSC_DOUBLE, 2, (int64_t[]){2, 3}, y);
    kh_init_since(&h, "Mul", 14, 14);
    assert_int_equal(kh_run2(&h, &tx, &ty), OSC_OK);
    osc_check_shape(&h.out, OSC_DOUBLE, 2, (int64_t[]){2, 3});
    assert_memory_equal(h.out.data, wxy, sizeof wxy);
    kh_free(&h);
}

static void test_bcast_zero_size(void **state) {
    (void)state;
    static const float b[3] = {1, 2, 3};
    osc_tensor ta = kh_tensor(OSC_FLOAT, 2, (int64_t[]){0, 3}, NULL);
    osc_tensor tb = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 3}, b);
    kh h;
    kh_init_since(&h, "Add", 14, 14);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 2, (int64_t[]){0, 3});
    kh_free(&h);
    /* 0 against 1 gives 0; an integer division with an empty output checks no divisor */
    static const int32_t zero = 0;
    osc_tensor te = vec(OSC_INT32, 0, NULL), tz = vec(OSC_INT32, 1, &zero);
    kh_init_since(&h, "Div", 14, 14);
    assert_int_equal(kh_run2(&h, &te, &tz), OSC_OK);
    osc_check_shape(&h.out, OSC_INT32, 1, (int64_t[]){0});
    kh_free(&h);
    /* 0 against 3 does not broadcast */
    osc_tensor t3 = vec(OSC_FLOAT, 3, b), t0 = vec(OSC_FLOAT, 0, NULL);
    kh_init_since(&h, "Add", 14, 14);
    assert_int_equal(kh_run2(&h, &t0, &t3), OSC_ERR_SHAPE);
    kh_free(&h);
}

static void test_bcast_incompatible(void **state) {
    (void)state;
    static const float a[6] = {0}, b[2] = {0};
    osc_tensor ta = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, a);
    osc_tensor tb = vec(OSC_FLOAT, 2, b);
    kh h;
    kh_init_since(&h, "Add", 14, 14);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "node 'n0' (Add-14)");
    kh_assert_msg_has(&h, "input 1 'B'");
    kh_assert_msg_has(&h, "[2,3]");
    kh_assert_msg_has(&h, "size 2 vs 3");
    kh_free(&h);
    /* dtypes must match too */
    static const double d[2] = {0};
    osc_tensor td = vec(OSC_DOUBLE, 2, d), tf = vec(OSC_FLOAT, 2, b);
    kh_init_since(&h, "Add", 14, 14);
    assert_int_equal(kh_run2(&h, &tf, &td), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "must match");
    kh_free(&h);
}

/* ---- arithmetic ---- */

static void test_float_arith(void **state) {
    (void)state;
    static const float a[4] = {1.5f, -2.0f, 0.0f, 1.0f}, b[4] = {0.5f, 4.0f, 0.0f, 0.0f};
    static const float add[4] = {2.0f, 2.0f, 0.0f, 1.0f}, sub[4] = {1.0f, -6.0f, 0.0f, 1.0f};
    static const float mul[4] = {0.75f, -8.0f, 0.0f, 0.0f};
    check_f32_bin("Add", 7, 4, a, b, add);
    check_f32_bin("Sub", 13, 4, a, b, sub);
    check_f32_bin("Mul", 14, 4, a, b, mul);
    /* float division by zero is IEEE: Inf and NaN, no error */
    kh h;
    kh_init_since(&h, "Div", 14, 14);
    osc_tensor ta = vec(OSC_FLOAT, 4, a), tb = vec(OSC_FLOAT, 4, b);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    const float *o = h.out.data;
    assert_true(o[0] == 3.0f && o[1] == -0.5f);
    assert_true(isnan(o[2]));
    assert_true(isinf(o[3]) && o[3] > 0);
    kh_free(&h);
}

/* float16/bfloat16 are computed in float and rounded to nearest even. */
static void test_half_rounding(void **state) {
    (void)state;
    /* float16: 1 + 2^-11 is a tie between 1 (even) and 1 + 2^-10: -> 1.
     * (1 + 2^-10) + 2^-11 ties between mantissa 1 and 2 (even): -> 1 + 2^-9. */
    static const uint16_t a[2] = {0x3c00, 0x3c01}, b[2] = {0x1000, 0x1000};
    static const uint16_t want[2] = {0x3c00, 0x3c02};
    osc_tensor ta = vec(OSC_FLOAT16, 2, a), tb = vec(OSC_FLOAT16, 2, b);
    kh h;
    kh_init_since(&h, "Add", 14, 14);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
    /* bfloat16: the same with ulp 2^-7 and half-ulp 2^-8 (0x3b80) */
    static const uint16_t c[2] = {0x3f80, 0x3f81}, d[2] = {0x3b80, 0x3b80};
    static const uint16_t want_bf[2] = {0x3f80, 0x3f82};
    osc_tensor tc = vec(OSC_BFLOAT16, 2, c), td = vec(OSC_BFLOAT16, 2, d);
    kh_init_since(&h, "Add", 14, 14);
    assert_int_equal(kh_run2(&h, &tc, &td), OSC_OK);
    assert_memory_equal(h.out.data, want_bf, sizeof want_bf);
    kh_free(&h);
    /* float16 overflow: 60000 * 2 = Inf (0x7c00); 60000 is 0x7b53 */
    static const uint16_t big = 0x7b53, two = 0x4000, inf = 0x7c00;
    osc_tensor tbig = scalar(OSC_FLOAT16, &big), ttwo = scalar(OSC_FLOAT16, &two);
    kh_init_since(&h, "Mul", 14, 14);
    assert_int_equal(kh_run2(&h, &tbig, &ttwo), OSC_OK);
    assert_memory_equal(h.out.data, &inf, 2);
    kh_free(&h);
}

static void test_int_wrap(void **state) {
    (void)state;
    kh h;
    static const int8_t a8[3] = {127, -128, 100}, b8[3] = {1, -1, 100};
    static const int8_t add8[3] = {-128, 127, -56}, mul8[3] = {127, -128, 16};
    osc_tensor ta = vec(OSC_INT8, 3, a8), tb = vec(OSC_INT8, 3, b8);
    kh_init_since(&h, "Add", 14, 14);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, add8, sizeof add8);
    kh_free(&h);
    kh_init_since(&h, "Mul", 14, 14); /* 10000 mod 256 = 16 */
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, mul8, sizeof mul8);
    kh_free(&h);
    static const uint8_t u0 = 0, u1 = 1, umax = 255;
    osc_tensor t0 = scalar(OSC_UINT8, &u0), t1 = scalar(OSC_UINT8, &u1);
    kh_init_since(&h, "Sub", 14, 14);
    assert_int_equal(kh_run2(&h, &t0, &t1), OSC_OK);
    assert_memory_equal(h.out.data, &umax, 1);
    kh_free(&h);
    static const uint16_t us = 65535, us_sq = 1; /* 65535^2 mod 2^16 = 1, no int overflow */
    osc_tensor tus = scalar(OSC_UINT16, &us);
    kh_init_since(&h, "Mul", 14, 14);
    assert_int_equal(kh_run2(&h, &tus, &tus), OSC_OK);
    assert_memory_equal(h.out.data, &us_sq, 2);
    kh_free(&h);
    static const int64_t big[2] = {INT64_MAX, INT64_MIN}, one[2] = {1, 2};
    static const int64_t add64[2] = {INT64_MIN, INT64_MIN + 2}, mul64[2] = {INT64_MAX, 0};
    osc_tensor tbig = vec(OSC_INT64, 2, big), tone = vec(OSC_INT64, 2, one);
    kh_init_since(&h, "Add", 7, 7);
    assert_int_equal(kh_run2(&h, &tbig, &tone), OSC_OK);
    assert_memory_equal(h.out.data, add64, sizeof add64);
    kh_free(&h);
    kh_init_since(&h, "Mul", 7, 7);
    assert_int_equal(kh_run2(&h, &tbig, &tone), OSC_OK);
    assert_memory_equal(h.out.data, mul64, sizeof mul64);
    kh_free(&h);
}

static void test_int_div(void **state) {
    (void)state;
    static const int32_t a[5] = {7, -7, 7, INT32_MIN, INT32_MIN};
    static const int32_t b[5] = {2, 2, -2, -1, 1};
    static const int32_t want[5] = {3, -3, -3, INT32_MIN, INT32_MIN}; /* truncation; wrap */
    osc_tensor ta = vec(OSC_INT32, 5, a), tb = vec(OSC_INT32, 5, b);
    kh h;
    kh_init_since(&h, "Div", 14, 14);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
    static const uint64_t ua[2] = {UINT64_MAX, 9}, ub[2] = {2, 10}, uw[2] = {UINT64_MAX / 2, 0};
    osc_tensor tua = vec(OSC_UINT64, 2, ua), tub = vec(OSC_UINT64, 2, ub);
    kh_init_since(&h, "Div", 7, 7);
    assert_int_equal(kh_run2(&h, &tua, &tub), OSC_OK);
    assert_memory_equal(h.out.data, uw, sizeof uw);
    kh_free(&h);
}

/* An integer zero divisor fails the run, names its flat position in B, writes nothing. */
static void test_div_by_zero(void **state) {
    (void)state;
    static const int16_t a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {1, 2, 0};
    osc_tensor ta = kh_tensor(OSC_INT16, 2, (int64_t[]){2, 3}, a), tb = vec(OSC_INT16, 3, b);
    static const char *const k_ops[3] = {"Div", "Mod", "Mod"};
    for (int i = 0; i < 3; i++) {
        kh h;
        kh_init(&h, k_ops[i], 14);
        if (i == 2) kh_attr_int(&h, "fmod", 1);
        assert_int_equal(kh_run2(&h, &ta, &tb), OSC_ERR_ARG);
        kh_assert_msg_has(&h, "input 1 'B'");
        kh_assert_msg_has(&h, "division by zero at flat position 2");
        kh_assert_untouched(&h.out);
        kh_free(&h);
    }
}

static void test_mod(void **state) {
    (void)state;
    static const int32_t a[6] = {-7, 7, -7, 7, INT32_MIN, 5};
    static const int32_t b[6] = {3, -3, -3, 3, -1, 5};
    static const int32_t np_mod[6] = {2, -2, -1, 1, 0, 0};   /* sign of the divisor */
    static const int32_t c_fmod[6] = {-1, 1, -1, 1, 0, 0};   /* sign of the dividend */
    osc_tensor ta = vec(OSC_INT32, 6, a), tb = vec(OSC_INT32, 6, b);
    kh h;
    kh_init_since(&h, "Mod", 10, 10);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, np_mod, sizeof np_mod);
    kh_free(&h);
    kh_init_since(&h, "Mod", 13, 13);
    kh_attr_int(&h, "fmod", 1);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, c_fmod, sizeof c_fmod);
    kh_free(&h);
    static const uint8_t ua[2] = {250, 7}, ub[2] = {7, 250}, uw[2] = {5, 7};
    osc_tensor tua = vec(OSC_UINT8, 2, ua), tub = vec(OSC_UINT8, 2, ub);
    kh_init_since(&h, "Mod", 13, 13);
    assert_int_equal(kh_run2(&h, &tua, &tub), OSC_OK);
    assert_memory_equal(h.out.data, uw, sizeof uw);
    kh_free(&h);
    /* floats need fmod=1 */
    static const float fa[2] = {-7.5f, 7.5f}, fb[2] = {2.0f, -2.0f}, fw[2] = {-1.5f, 1.5f};
    osc_tensor tfa = vec(OSC_FLOAT, 2, fa), tfb = vec(OSC_FLOAT, 2, fb);
    kh_init_since(&h, "Mod", 13, 13);
    assert_int_equal(kh_run2(&h, &tfa, &tfb), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "fmod=1");
    kh_free(&h);
    kh_init_since(&h, "Mod", 13, 13);
    kh_attr_int(&h, "fmod", 1);
    assert_int_equal(kh_run2(&h, &tfa, &tfb), OSC_OK);
    assert_memory_equal(h.out.data, fw, sizeof fw);
    kh_free(&h);
}

/* ---- unary ---- */

static void test_neg_abs_not(void **state) {
    (void)state;
    static const int8_t a[4] = {-128, -1, 0, 127};
    static const int8_t neg[4] = {-128, 1, 0, -127}, abs_[4] = {-128, 1, 0, 127};
    osc_tensor ta = vec(OSC_INT8, 4, a);
    kh h;
    kh_init_since(&h, "Neg", 7, 6);
    assert_int_equal(kh_run1(&h, &ta), OSC_OK);
    assert_memory_equal(h.out.data, neg, sizeof neg);
    kh_free(&h);
    kh_init_since(&h, "Abs", 13, 13);
    assert_int_equal(kh_run1(&h, &ta), OSC_OK);
    assert_memory_equal(h.out.data, abs_, sizeof abs_);
    kh_free(&h);
    static const float f[3] = {-0.0f, -2.5f, 3.0f};
    osc_tensor tf = vec(OSC_FLOAT, 3, f);
    kh_init_since(&h, "Abs", 13, 13);
    assert_int_equal(kh_run1(&h, &tf), OSC_OK);
    const float *o = h.out.data;
    assert_true(o[0] == 0.0f && !signbit(o[0]) && o[1] == 2.5f && o[2] == 3.0f);
    kh_free(&h);
    static const uint16_t h16[2] = {0x3c00, 0xfe00}; /* 1.0, -NaN */
    static const uint16_t neg16[2] = {0xbc00, 0x7e00}, abs16[2] = {0x3c00, 0x7e00};
    osc_tensor th = vec(OSC_FLOAT16, 2, h16);
    kh_init_since(&h, "Neg", 13, 13);
    assert_int_equal(kh_run1(&h, &th), OSC_OK);
    assert_memory_equal(h.out.data, neg16, sizeof neg16);
    kh_free(&h);
    kh_init_since(&h, "Abs", 13, 13);
    assert_int_equal(kh_run1(&h, &th), OSC_OK);
    assert_memory_equal(h.out.data, abs16, sizeof abs16);
    kh_free(&h);
    static const uint8_t b[3] = {0, 1, 1}, nb[3] = {1, 0, 0};
    osc_tensor tb = vec(OSC_BOOL, 3, b);
    kh_init_since(&h, "Not", 7, 1);
    assert_int_equal(kh_run1(&h, &tb), OSC_OK);
    assert_int_equal(h.out.dtype, OSC_BOOL);
    assert_memory_equal(h.out.data, nb, sizeof nb);
    kh_free(&h);
    /* in place, as the executor may run it */
    int8_t buf[4] = {-128, -1, 0, 127};
    osc_tensor tbuf = vec(OSC_INT8, 4, buf);
    const osc_tensor *in[1] = {&tbuf};
    kh_init_since(&h, "Neg", 13, 13);
    assert_true(h.kernel->flags & OSC_KF_INPLACE);
    assert_int_equal(kh_run_inplace(&h, 1, in), OSC_OK);
    assert_memory_equal(buf, neg, sizeof neg);
    kh_free(&h);
}

/* ---- comparison and logic ---- */

static void test_compare(void **state) {
    (void)state;
    static const int32_t a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {2, 2, 7};
    osc_tensor ta = kh_tensor(OSC_INT32, 2, (int64_t[]){2, 3}, a), tb = vec(OSC_INT32, 3, b);
    static const struct { const char *op; int64_t opset; uint8_t want[6]; } k_cases[] = {
        {"Equal", 11, {0, 1, 0, 0, 0, 0}},         {"Less", 9, {1, 0, 1, 0, 0, 1}},
        {"LessOrEqual", 12, {1, 1, 1, 0, 0, 1}},   {"Greater", 13, {0, 0, 0, 1, 1, 0}},
        {"GreaterOrEqual", 16, {0, 1, 0, 1, 1, 0}},
    };
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        kh h;
        kh_init(&h, k_cases[i].op, k_cases[i].opset);
        assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
        osc_check_shape(&h.out, OSC_BOOL, 2, (int64_t[]){2, 3});
        assert_memory_equal(h.out.data, k_cases[i].want, 6);
        kh_free(&h);
    }
    /* NaN compares false (and unequal) */
    static const float x[2] = {NAN, 1.0f}, y[2] = {NAN, NAN};
    osc_tensor tx = vec(OSC_FLOAT, 2, x), ty = vec(OSC_FLOAT, 2, y);
    static const char *const k_nan_ops[3] = {"Equal", "Less", "GreaterOrEqual"};
    for (int i = 0; i < 3; i++) {
        kh h;
        kh_init(&h, k_nan_ops[i], 16);
        assert_int_equal(kh_run2(&h, &tx, &ty), OSC_OK);
        static const uint8_t none[2] = {0, 0};
        assert_memory_equal(h.out.data, none, 2);
        kh_free(&h);
    }
    /* float16 compares values: -0 == +0 */
    static const uint16_t hz[2] = {0x8000, 0x3c00}, hw[2] = {0x0000, 0x3c01};
    static const uint8_t heq[2] = {1, 0};
    osc_tensor thz = vec(OSC_FLOAT16, 2, hz), thw = vec(OSC_FLOAT16, 2, hw);
    kh h;
    kh_init_since(&h, "Equal", 13, 13);
    assert_int_equal(kh_run2(&h, &thz, &thw), OSC_OK);
    assert_memory_equal(h.out.data, heq, 2);
    kh_free(&h);
}

static void test_equal_string(void **state) {
    (void)state;
    static const osc_string s[3] = {{"ab", 2}, {"", 0}, {"abc", 3}};
    static const osc_string t[3] = {{"ab", 2}, {"", 0}, {"abd", 3}};
    static const uint8_t want[3] = {1, 1, 0};
    osc_tensor ts = vec(OSC_STRING, 3, s), tt = vec(OSC_STRING, 3, t);
    kh h;
    kh_init_since(&h, "Equal", 19, 19);
    assert_int_equal(kh_run2(&h, &ts, &tt), OSC_OK);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
    kh_init_since(&h, "Equal", 13, 13); /* strings from 19 on */
    assert_int_equal(kh_run2(&h, &ts, &tt), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
}

static void test_and_or(void **state) {
    (void)state;
    static const uint8_t a[4] = {0, 0, 1, 1}, b[2] = {0, 1};
    static const uint8_t and_[4] = {0, 0, 0, 1}, or_[4] = {0, 1, 1, 1};
    static const uint8_t eq[4] = {1, 0, 0, 1};
    osc_tensor ta = kh_tensor(OSC_BOOL, 2, (int64_t[]){2, 2}, a), tb = vec(OSC_BOOL, 2, b);
    kh h;
    kh_init_since(&h, "And", 7, 7);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, and_, 4);
    kh_free(&h);
    kh_init_since(&h, "Or", 7, 7);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, or_, 4);
    kh_free(&h);
    kh_init_since(&h, "Equal", 7, 7);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, eq, 4);
    kh_free(&h);
}

/* ---- Min / Max ---- */

static void test_min_max(void **state) {
    (void)state;
    static const float a[3] = {1.0f, 5.0f, NAN}, b[1] = {3.0f};
    static const float c[6] = {0.0f, 9.0f, 2.0f, 4.0f, NAN, 2.0f};
    osc_tensor ta = vec(OSC_FLOAT, 3, a), tb = vec(OSC_FLOAT, 1, b);
    osc_tensor tc = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, c);
    const osc_tensor *in[3] = {&ta, &tb, &tc};
    kh h;
    kh_init_since(&h, "Max", 13, 13);
    assert_int_equal(kh_run(&h, 3, in), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 2, (int64_t[]){2, 3});
    const float *o = h.out.data;
    assert_true(o[0] == 3.0f && o[1] == 9.0f && isnan(o[2]));
    assert_true(o[3] == 4.0f && isnan(o[4]) && isnan(o[5]));
    kh_free(&h);
    kh_init_since(&h, "Min", 8, 8);
    assert_int_equal(kh_run(&h, 3, in), OSC_OK);
    o = h.out.data;
    assert_true(o[0] == 0.0f && o[1] == 3.0f && isnan(o[2]));
    assert_true(o[3] == 1.0f && isnan(o[4]) && isnan(o[5]));
    kh_free(&h);
    /* one input: a copy */
    kh_init_since(&h, "Min", 13, 13);
    assert_int_equal(kh_run1(&h, &ta), OSC_OK);
    assert_memory_equal(h.out.data, a, sizeof a);
    kh_free(&h);
    /* integers, four inputs */
    static const uint32_t u[4][2] = {{5, 0}, {7, 1}, {6, 4000000000u}, {1, 2}};
    osc_tensor tu[4];
    const osc_tensor *inu[4];
    for (int i = 0; i < 4; i++) {
        tu[i] = vec(OSC_UINT32, 2, u[i]);
        inu[i] = &tu[i];
    }
    static const uint32_t umax[2] = {7, 4000000000u};
    kh_init_since(&h, "Max", 12, 12);
    assert_int_equal(kh_run(&h, 4, inu), OSC_OK);
    assert_memory_equal(h.out.data, umax, sizeof umax);
    kh_free(&h);
    /* float16 keeps the original bits */
    static const uint16_t h1[2] = {0x3c00, 0xc000}, h2[2] = {0x4000, 0xbc00};
    static const uint16_t hmin[2] = {0x3c00, 0xc000};
    osc_tensor th1 = vec(OSC_FLOAT16, 2, h1), th2 = vec(OSC_FLOAT16, 2, h2);
    kh_init_since(&h, "Min", 13, 13);
    assert_int_equal(kh_run2(&h, &th1, &th2), OSC_OK);
    assert_memory_equal(h.out.data, hmin, sizeof hmin);
    kh_free(&h);
    /* Min-6/Max-6 do not broadcast */
    kh_init_since(&h, "Max", 7, 6);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "opset 8");
    kh_free(&h);
    /* a missing input */
    const osc_tensor *gap[2] = {&ta, NULL};
    kh_init_since(&h, "Max", 13, 13);
    assert_int_equal(kh_run(&h, 2, gap), OSC_ERR_MODEL);
    kh_free(&h);
}

/* ---- Where ---- */

static void test_where(void **state) {
    (void)state;
    static const uint8_t c[2] = {1, 0};
    static const int64_t x[3] = {1, 2, 3}, y = -1;
    static const int64_t want[6] = {1, 2, 3, -1, -1, -1};
    osc_tensor tc = kh_tensor(OSC_BOOL, 2, (int64_t[]){2, 1}, c);
    osc_tensor tx = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 3}, x);
    osc_tensor ty = scalar(OSC_INT64, &y);
    kh h;
    kh_init_since(&h, "Where", 16, 16);
    assert_int_equal(kh_run3(&h, &tc, &tx, &ty), OSC_OK);
    osc_check_shape(&h.out, OSC_INT64, 2, (int64_t[]){2, 3});
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
    /* strings, condition broadcast over both */
    static const uint8_t c3[3] = {0, 1, 0};
    static const osc_string xs[1] = {{"x", 1}}, ys[3] = {{"a", 1}, {"b", 1}, {"c", 1}};
    osc_tensor tc3 = vec(OSC_BOOL, 3, c3), txs = vec(OSC_STRING, 1, xs);
    osc_tensor tys = vec(OSC_STRING, 3, ys);
    kh_init_since(&h, "Where", 9, 9);
    assert_int_equal(kh_run3(&h, &tc3, &txs, &tys), OSC_OK);
    const osc_string *o = h.out.data;
    assert_true(o[0].len == 1 && o[0].ptr[0] == 'a');
    assert_true(o[1].len == 1 && o[1].ptr[0] == 'x');
    assert_true(o[2].len == 1 && o[2].ptr[0] == 'c');
    kh_free(&h);
    /* the condition must be bool; shapes must broadcast */
    osc_tensor bad = vec(OSC_INT64, 3, x);
    kh_init_since(&h, "Where", 16, 16);
    assert_int_equal(kh_run3(&h, &bad, &tx, &ty), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "input 0 'condition'");
    kh_free(&h);
    osc_tensor tc2 = vec(OSC_BOOL, 2, c);
    kh_init_since(&h, "Where", 16, 16);
    assert_int_equal(kh_run3(&h, &tc2, &tx, &ty), OSC_ERR_SHAPE);
    kh_free(&h);
}

/* ---- Cast ---- */

static osc_status cast(kh *h, int64_t opset, int32_t to, const osc_tensor *in) {
    kh_init(h, "Cast", opset);
    kh_attr_int(h, "to", to);
    return kh_run1(h, in);
}

/* float -> int: truncation toward zero; NaN -> 0; out of range saturates (C leaves it
 * undefined). float -> bool: nonzero (NaN included) is true. */
static void test_cast_float_to_int(void **state) {
    (void)state;
    static const float f[8] = {2.7f, -2.7f, NAN, INFINITY, -INFINITY, 3e9f, -3e9f, -0.5f};
    static const int32_t w32[8] = {2, -2, 0, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, 0};
    static const uint8_t wu8[8] = {2, 0, 0, 255, 0, 255, 0, 0};
    static const int64_t w64[8] = {2, -2, 0, INT64_MAX, INT64_MIN, 3000000000, -3000000000, 0};
    static const uint8_t wb[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    osc_tensor tf = vec(OSC_FLOAT, 8, f);
    kh h;
    assert_int_equal(cast(&h, 13, OSC_INT32, &tf), OSC_OK);
    assert_memory_equal(h.out.data, w32, sizeof w32);
    kh_free(&h);
    assert_int_equal(cast(&h, 13, OSC_UINT8, &tf), OSC_OK);
    assert_memory_equal(h.out.data, wu8, sizeof wu8);
    kh_free(&h);
    assert_int_equal(cast(&h, 13, OSC_INT64, &tf), OSC_OK);
    assert_memory_equal(h.out.data, w64, sizeof w64);
    kh_free(&h);
    assert_int_equal(cast(&h, 13, OSC_BOOL, &tf), OSC_OK);
    assert_memory_equal(h.out.data, wb, sizeof wb);
    kh_free(&h);
    static const double big[2] = {18446744073709549568.0, 1e30}; /* 2^64 - 2048, > 2^64 */
    static const uint64_t wbig[2] = {18446744073709549568ull, UINT64_MAX};
    osc_tensor tbig = vec(OSC_DOUBLE, 2, big);
    assert_int_equal(cast(&h, 13, OSC_UINT64, &tbig), OSC_OK);
    assert_memory_equal(h.out.data, wbig, sizeof wbig);
    kh_free(&h);
}

static void test_cast_ints(void **state) {
    (void)state;
    static const int16_t a[4] = {200, -1, 256, -129};
    static const int8_t w8[4] = {-56, -1, 0, 127}; /* low bits, as the spec says */
    static const uint32_t wu32[4] = {200, 0xffffffffu, 256, 0xffffff7fu};
    static const uint8_t wb[4] = {1, 1, 1, 1};
    osc_tensor ta = vec(OSC_INT16, 4, a);
    kh h;
    assert_int_equal(cast(&h, 6, OSC_INT8, &ta), OSC_OK);
    assert_memory_equal(h.out.data, w8, sizeof w8);
    kh_free(&h);
    assert_int_equal(cast(&h, 6, OSC_UINT32, &ta), OSC_OK);
    assert_memory_equal(h.out.data, wu32, sizeof wu32);
    kh_free(&h);
    assert_int_equal(cast(&h, 6, OSC_BOOL, &ta), OSC_OK);
    assert_memory_equal(h.out.data, wb, sizeof wb);
    kh_free(&h);
    static const uint8_t b[2] = {1, 0};
    static const double wd[2] = {1.0, 0.0};
    osc_tensor tb = vec(OSC_BOOL, 2, b);
    assert_int_equal(cast(&h, 6, OSC_DOUBLE, &tb), OSC_OK);
    assert_memory_equal(h.out.data, wd, sizeof wd);
    kh_free(&h);
    /* int64 -> float rounds once, to nearest even: 2^24 + 1 -> 2^24 */
    static const int64_t i64[2] = {16777217, -16777219};
    static const float wf[2] = {16777216.0f, -16777220.0f};
    osc_tensor ti = vec(OSC_INT64, 2, i64);
    assert_int_equal(cast(&h, 6, OSC_FLOAT, &ti), OSC_OK);
    assert_memory_equal(h.out.data, wf, sizeof wf);
    kh_free(&h);
}

/* One rounding from the exact value, never through float first. */
static void test_cast_half_rounding(void **state) {
    (void)state;
    /* double 1 + 2^-11 + 2^-40 lies above the float16 tie: -> 1 + 2^-10 (0x3c01). Through
     * float it would become the tie 1 + 2^-11 and round to 1.0. */
    static const double d[4] = {1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-11, 65520.0, -1e-8};
    static const uint16_t wh[4] = {0x3c01, 0x3c00, 0x7c00, 0x8000};
    osc_tensor td = vec(OSC_DOUBLE, 4, d);
    kh h;
    assert_int_equal(cast(&h, 13, OSC_FLOAT16, &td), OSC_OK);
    assert_memory_equal(h.out.data, wh, sizeof wh);
    kh_free(&h);
    /* int64 2^24 + 2^16 + 1 -> bfloat16: above the tie 2^24 + 2^16 -> 2^24 + 2^17 (0x4b81) */
    static const int64_t i[2] = {16777216 + 65536 + 1, 16777216 + 65536};
    static const uint16_t wb[2] = {0x4b81, 0x4b80};
    osc_tensor ti = vec(OSC_INT64, 2, i);
    assert_int_equal(cast(&h, 13, OSC_BFLOAT16, &ti), OSC_OK);
    assert_memory_equal(h.out.data, wb, sizeof wb);
    kh_free(&h);
    /* bfloat16 is not in Cast-9 */
    assert_int_equal(cast(&h, 9, OSC_BFLOAT16, &ti), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
}

static void test_cast_round_trips(void **state) {
    (void)state;
    static const int32_t a[5] = {0, 1, -1, 16777216, INT32_MIN};
    osc_tensor ta = vec(OSC_INT32, 5, a);
    kh h1, h2;
    assert_int_equal(cast(&h1, 13, OSC_DOUBLE, &ta), OSC_OK);
    assert_int_equal(cast(&h2, 13, OSC_INT32, &h1.out), OSC_OK);
    assert_memory_equal(h2.out.data, a, sizeof a);
    kh_free(&h1);
    kh_free(&h2);
    static const uint16_t hv[6] = {0x0001, 0x3555, 0x7bff, 0xfc00, 0x7e00, 0x8000};
    osc_tensor th = vec(OSC_FLOAT16, 6, hv);
    assert_int_equal(cast(&h1, 13, OSC_FLOAT, &th), OSC_OK);
    assert_int_equal(cast(&h2, 13, OSC_FLOAT16, &h1.out), OSC_OK);
    assert_memory_equal(h2.out.data, hv, sizeof hv);
    kh_free(&h1);
    kh_free(&h2);
    /* same dtype: a copy (strings too) */
    static const osc_string s[2] = {{"a", 1}, {"bc", 2}};
    osc_tensor ts = vec(OSC_STRING, 2, s);
    assert_int_equal(cast(&h1, 13, OSC_STRING, &ts), OSC_OK);
    assert_memory_equal(h1.out.data, s, sizeof s);
    kh_free(&h1);
}

static void test_cast_string_refused(void **state) {
    (void)state;
    static const float f[1] = {1.0f};
    static const osc_string s[1] = {{"1.5", 3}};
    osc_tensor tf = vec(OSC_FLOAT, 1, f), ts = vec(OSC_STRING, 1, s);
    kh h;
    assert_int_equal(cast(&h, 13, OSC_STRING, &tf), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "strings and numbers");
    kh_free(&h);
    assert_int_equal(cast(&h, 13, OSC_FLOAT, &ts), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    assert_int_equal(cast(&h, 6, OSC_FLOAT, &ts), OSC_ERR_UNSUPPORTED); /* no strings in 6 */
    kh_free(&h);
}

static void test_cast_float8(void **state) {
    (void)state;
    /* e4m3fn: 448 is the largest; 464 ties to 448 (even); 480 overflows */
    static const float f[6] = {448.0f, 464.0f, 480.0f, -INFINITY, NAN, 0.001953125f};
    static const uint8_t sat[6] = {0x7e, 0x7e, 0x7e, 0xfe, 0x7f, 0x01};
    static const uint8_t nosat[6] = {0x7e, 0x7e, 0x7f, 0xff, 0x7f, 0x01};
    osc_tensor tf = vec(OSC_FLOAT, 6, f);
    kh h;
    assert_int_equal(cast(&h, 19, OSC_FLOAT8E4M3FN, &tf), OSC_OK);
    assert_memory_equal(h.out.data, sat, sizeof sat);
    kh_free(&h);
    kh_init(&h, "Cast", 19);
    kh_attr_int(&h, "to", OSC_FLOAT8E4M3FN);
    kh_attr_int(&h, "saturate", 0);
    assert_int_equal(kh_run1(&h, &tf), OSC_OK);
    assert_memory_equal(h.out.data, nosat, sizeof nosat);
    kh_free(&h);
    /* FNUZ, saturating: -Inf is NaN (0x80) in Cast-19..23, -max (0xff) from Cast-24 on */
    static const float inf[1] = {-INFINITY};
    osc_tensor tinf = vec(OSC_FLOAT, 1, inf);
    assert_int_equal(cast(&h, 23, OSC_FLOAT8E4M3FNUZ, &tinf), OSC_OK);
    assert_int_equal(((uint8_t *)h.out.data)[0], 0x80);
    kh_free(&h);
    assert_int_equal(cast(&h, 24, OSC_FLOAT8E4M3FNUZ, &tinf), OSC_OK);
    assert_int_equal(((uint8_t *)h.out.data)[0], 0xff);
    kh_free(&h);
    /* back to float: exact */
    static const uint8_t e5[3] = {0x7b, 0x7c, 0x01}; /* 57344, Inf, 2^-16 */
    osc_tensor te5 = vec(OSC_FLOAT8E5M2, 3, e5);
    assert_int_equal(cast(&h, 19, OSC_FLOAT, &te5), OSC_OK);
    const float *o = h.out.data;
    assert_true(o[0] == 57344.0f && isinf(o[1]) && o[2] == 0x1p-16f);
    kh_free(&h);
    /* float8 is not in Cast-13 */
    assert_int_equal(cast(&h, 13, OSC_FLOAT8E5M2, &tf), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
}

/* float8e8m0 (powers of two) under each round_mode; float4e2m1 rounds to nearest even,
 * saturates at 6 and maps NaN to 0x8, as the ONNX reference data does. */
static void test_cast_e8m0_float4(void **state) {
    (void)state;
    static const float f[5] = {0.124f, 1.1f, 1.5f, 0.0f, 4.0f};
    static const struct { const char *mode; int64_t sat; uint8_t want[5]; } k_cases[] = {
        {"up", 1, {0x7c, 0x80, 0x80, 0x00, 0x81}},
        {"down", 1, {0x7b, 0x7f, 0x7f, 0x00, 0x81}},
        {"nearest", 1, {0x7c, 0x7f, 0x80, 0x00, 0x81}}, /* 1.5 is the tie: up */
        {"nearest", 0, {0x7c, 0x7f, 0x80, 0xff, 0x81}}, /* zero is below the range: NaN */
    };
    osc_tensor tf = vec(OSC_FLOAT, 5, f);
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        kh h;
        kh_init(&h, "Cast", 24);
        kh_attr_int(&h, "to", OSC_FLOAT8E8M0);
        kh_attr_str(&h, "round_mode", k_cases[i].mode);
        kh_attr_int(&h, "saturate", k_cases[i].sat);
        assert_int_equal(kh_run1(&h, &tf), OSC_OK);
        assert_memory_equal(h.out.data, k_cases[i].want, 5);
        kh_free(&h);
    }
    /* 0.25 ties to 0, 0.48 -> 0.5 (1), -3.5 ties to -4 (0xe), 9 -> 6 (7), NaN and -0 -> 0x8 */
    static const float g[6] = {0.25f, 0.48f, -3.5f, 9.0f, NAN, -0.0f};
    static const uint8_t w4[3] = {0x10, 0x7e, 0x88};
    osc_tensor tg = vec(OSC_FLOAT, 6, g);
    kh h;
    assert_int_equal(cast(&h, 23, OSC_FLOAT4E2M1, &tg), OSC_OK);
    assert_memory_equal(h.out.data, w4, sizeof w4);
    kh_free(&h);
    /* and back: exact */
    static const float back[6] = {0.0f, 0.5f, -4.0f, 6.0f, -0.0f, -0.0f};
    osc_tensor t4 = vec(OSC_FLOAT4E2M1, 6, w4);
    assert_int_equal(cast(&h, 23, OSC_FLOAT, &t4), OSC_OK);
    assert_memory_equal(h.out.data, back, sizeof back);
    kh_free(&h);
}

static void test_cast_packed(void **state) {
    (void)state;
    /* float -> int4 keeps the low 4 bits (the ONNX reference): -9 -> 7, 7 -> 7, 8 -> -8 */
    static const float f[3] = {-9.0f, 7.0f, 8.0f};
    static const uint8_t w[2] = {0x77, 0x08};
    osc_tensor tf = vec(OSC_FLOAT, 3, f);
    kh h;
    assert_int_equal(cast(&h, 21, OSC_INT4, &tf), OSC_OK);
    assert_int_equal(h.out.nbytes, 2);
    assert_memory_equal(h.out.data, w, sizeof w);
    kh_free(&h);
    /* int4 -> int8 sign-extends */
    static const uint8_t p[1] = {0x87};
    static const int8_t w8[2] = {7, -8};
    osc_tensor tp = vec(OSC_INT4, 2, p);
    assert_int_equal(cast(&h, 21, OSC_INT8, &tp), OSC_OK);
    assert_memory_equal(h.out.data, w8, sizeof w8);
    kh_free(&h);
    /* uint2: four per byte */
    static const uint8_t u[5] = {0, 1, 2, 3, 5};
    static const uint8_t w2[2] = {0xe4, 0x01};
    osc_tensor tu = vec(OSC_UINT8, 5, u);
    assert_int_equal(cast(&h, 25, OSC_UINT2, &tu), OSC_OK);
    assert_memory_equal(h.out.data, w2, sizeof w2);
    kh_free(&h);
    assert_int_equal(cast(&h, 24, OSC_UINT2, &tu), OSC_ERR_UNSUPPORTED); /* 2-bit from 25 */
    kh_free(&h);
    assert_int_equal(cast(&h, 25, 99, &tu), OSC_ERR_MODEL); /* not a dtype */
    kh_assert_msg_has(&h, "'to' = 99");
    kh_free(&h);
}

/* ---- Identity ---- */

static void test_identity(void **state) {
    (void)state;
    static const int64_t a[3] = {1, -2, 3};
    osc_tensor ta = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 3}, a);
    kh h;
    kh_init_since(&h, "Identity", 16, 16);
    assert_int_equal(kh_run1(&h, &ta), OSC_OK);
    osc_check_shape(&h.out, OSC_INT64, 2, (int64_t[]){1, 3});
    assert_memory_equal(h.out.data, a, sizeof a);
    kh_free(&h);
    int64_t buf[3] = {1, -2, 3};
    osc_tensor tb = vec(OSC_INT64, 3, buf);
    const osc_tensor *in[1] = {&tb};
    kh_init_since(&h, "Identity", 25, 25);
    assert_int_equal(kh_run_inplace(&h, 1, in), OSC_OK);
    assert_memory_equal(buf, a, sizeof a);
    kh_free(&h);
    static const uint8_t p[2] = {0x21, 0x03}; /* three int4 */
    osc_tensor tp = vec(OSC_INT4, 3, p);
    kh_init_since(&h, "Identity", 21, 21);
    assert_int_equal(kh_run1(&h, &tp), OSC_OK);
    assert_memory_equal(h.out.data, p, 2);
    kh_free(&h);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_rows_resolve),
    cmocka_unit_test(test_version_gating),
    cmocka_unit_test(test_attributes),
    cmocka_unit_test(test_bcast_scalar),
    cmocka_unit_test(test_bcast_3x1_1x4),
    cmocka_unit_test(test_bcast_row_single),
    cmocka_unit_test(test_bcast_rank_mismatch),
    cmocka_unit_test(test_bcast_zero_size),
    cmocka_unit_test(test_bcast_incompatible),
    cmocka_unit_test(test_float_arith),
    cmocka_unit_test(test_half_rounding),
    cmocka_unit_test(test_int_wrap),
    cmocka_unit_test(test_int_div),
    cmocka_unit_test(test_div_by_zero),
    cmocka_unit_test(test_mod),
    cmocka_unit_test(test_neg_abs_not),
    cmocka_unit_test(test_compare),
    cmocka_unit_test(test_equal_string),
    cmocka_unit_test(test_and_or),
    cmocka_unit_test(test_min_max),
    cmocka_unit_test(test_where),
    cmocka_unit_test(test_cast_float_to_int),
    cmocka_unit_test(test_cast_ints),
    cmocka_unit_test(test_cast_half_rounding),
    cmocka_unit_test(test_cast_round_trips),
    cmocka_unit_test(test_cast_string_refused),
    cmocka_unit_test(test_cast_float8),
    cmocka_unit_test(test_cast_e8m0_float4),
    cmocka_unit_test(test_cast_packed),
    cmocka_unit_test(test_identity),
)
