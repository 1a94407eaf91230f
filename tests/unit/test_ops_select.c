/* test_ops_select.c: Trilu, Compress, ReverseSequence, EyeLike, CumProd and CumSum run through
 * kharness on every dtype their rows accept, against naive references written here (which
 * source element lands where, or zero; sums and products in int64), and their refusals: bad
 * values leave the output untouched. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ops/registry.h"
#include "kharness.h"
#include "tests/support/check.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define MAXN 64

/* ---- small integers written as any dtype: strings as "s<v>", complex as (v, -v) ---- */
typedef struct vals {
    char text[MAXN][8];
    osc_string s[MAXN];
    unsigned char bytes[MAXN * 16];
} vals;
#define PUT_FLOAT(T) ((T *)b->bytes)[i] = (T)v;
#define PUT_F16(T) ((T *)b->bytes)[i] = osc_f32_to_f16((float)v);
#define PUT_BF16(T) ((T *)b->bytes)[i] = osc_f32_to_bf16((float)v);
#define PUT_SINT(T) ((T *)b->bytes)[i] = (T)v;
#define PUT_UINT(T) ((T *)b->bytes)[i] = (T)v;
#define PUT_BOOL(T) ((T *)b->bytes)[i] = (T)(v & 1);
#define PUT_COMPLEX(T) ((T *)b->bytes)[i] = (T){(float)v, (float)-v};
#define PUT_STRING(T)                                                                          \
    snprintf(b->text[i], sizeof b->text[i], "s%d", (int)v);                                    \
    b->s[i] = (osc_string){b->text[i], strlen(b->text[i])};
static void put(vals *b, int32_t dt, int32_t i, int64_t v) {
    switch (dt) {
#define PUT_CASE(E, T, CLS)                                                                    \
    case E: PUT_##CLS(T) break;
        OSC_STD_TYPES(PUT_CASE)
#undef PUT_CASE
    default: fail_msg("dtype %d", (int)dt);
    }
}
/* A tensor of dtype dt and the given shape holding 1, 2, 3, ... (n <= MAXN). */
static osc_tensor counting(vals *b, int32_t dt, int32_t rank, const int64_t *dims) {
    osc_tensor t = kh_tensor(dt, rank, dims, NULL);
    const int64_t n = osc_tensor_count(&t);
    assert_true(n <= MAXN);
    for (int32_t i = 0; i < n; i++) put(b, dt, i, i + 1);
    t.data = dt == OSC_STRING ? (void *)b->s : (void *)b->bytes;
    return t;
}

static size_t esize(int32_t dt) { return osc_dtype_get(dt)->bits / 8; }
/* Element i of t equals element j of u (strings by their bytes). */
static bool same(const osc_tensor *t, int64_t i, const osc_tensor *u, int64_t j) {
    if (t->dtype != OSC_STRING)
        return !memcmp((const char *)t->data + i * esize(t->dtype),
                       (const char *)u->data + j * esize(u->dtype), esize(t->dtype));
    const osc_string *a = (const osc_string *)t->data + i, *c = (const osc_string *)u->data + j;
    return a->len == c->len && !memcmp(a->ptr, c->ptr, a->len);
}
/* Element i of t is zero: every byte 0, an empty string. */
static bool zero(const osc_tensor *t, int64_t i) {
    if (t->dtype == OSC_STRING) return ((const osc_string *)t->data)[i].len == 0;
    const unsigned char *p = (const unsigned char *)t->data + i * esize(t->dtype);
    for (size_t q = 0; q < esize(t->dtype); q++)
        if (p[q]) return false;
    return true;
}
/* out holds x's elements src[0..n-1] (-1: zero) in order. */
static void expect_from(const kh *h, const osc_tensor *x, const int64_t *src, int64_t n) {
    assert_int_equal(osc_tensor_count(&h->out), n);
    for (int64_t i = 0; i < n; i++)
        if (src[i] < 0 ? !zero(&h->out, i) : !same(&h->out, i, x, src[i]))
            fail_msg("%s: element %lld, expected %s %lld", osc_dtype_get(x->dtype)->name,
                     (long long)i, src[i] < 0 ? "zero" : "input element", (long long)src[i]);
}
static bool has_type(osc_typeset s, int32_t d) { return (s & OSC_TS(d)) != 0; }
/* The standard dtypes of the row op resolves to at opset (input 0's list). */
static osc_typeset row_types(const char *op, int64_t opset) {
    kh h;
    kh_init(&h, op, opset);
    assert_non_null(h.kernel);
    osc_typeset s = osc_kernel_types(h.kernel, 0);
    kh_free(&h);
    return s;
}
#define EACH_TYPE(set, dt)                                                                     \
    for (int32_t dt = 1; dt < 64; dt++)                                                        \
        if (has_type(set, dt) && osc_dtype_get(dt)->standard)

static void trilu_all_types(void **state) {
    (void)state;
    static const int64_t ks[5] = {-5, -1, 0, 2, 9};
    EACH_TYPE(row_types("Trilu", 14), dt) {
        vals b;
        const osc_tensor x = counting(&b, dt, 3, D(2, 3, 4));
        for (int up = 0; up < 2; up++)
            for (int q = 0; q < 5; q++) {
                kh h;
                int64_t kv = ks[q], src[24];
                const osc_tensor kt = kh_tensor(OSC_INT64, 0, NULL, &kv);
                kh_init(&h, "Trilu", 14);
                kh_attr_int(&h, "upper", up);
                kh_expect_ok(&h, kh_run2(&h, &x, &kt));
                for (int64_t p = 0; p < 24; p++) {
                    const int64_t i = p / 4 % 3, j = p % 4;
                    src[p] = (up ? j - i >= kv : j - i <= kv) ? p : -1;
                }
                expect_from(&h, &x, src, 24);
                kh_free(&h);
            }
    }
}

/* Compress of x [2, 3, 4] with cond (n entries) along axis (99: flattened). */
static void compress_case(const osc_tensor *x, const uint8_t *cond, int64_t n, int64_t axis) {
    kh h;
    int64_t src[24], m = 0;
    const osc_tensor c = kh_tensor(OSC_BOOL, 1, D(n), cond);
    kh_init(&h, "Compress", 11);
    if (axis != 99) kh_attr_int(&h, "axis", axis);
    kh_expect_ok(&h, kh_run2(&h, x, &c));
    const int32_t a = axis == 99 ? -1 : (int32_t)(axis < 0 ? axis + 3 : axis);
    for (int64_t p = 0; p < 24; p++) { /* in order, the elements whose coordinate is kept */
        const int64_t coord = a < 0 ? p : a == 0 ? p / 12 : a == 1 ? p / 4 % 3 : p % 4;
        if (coord < n && cond[coord]) src[m++] = p;
    }
    expect_from(&h, x, src, m);
    kh_free(&h);
}

static void compress_all_types(void **state) {
    (void)state;
    static const uint8_t c3[3] = {1, 0, 1}, c7[7] = {0, 1, 1, 0, 0, 1, 0}, c2[2] = {0, 1};
    static const uint8_t c5[5] = {0, 1, 0, 0, 0}; /* longer than axis 2, the extra false */
    EACH_TYPE(row_types("Compress", 11), dt) {
        vals b;
        const osc_tensor x = counting(&b, dt, 3, D(2, 3, 4));
        compress_case(&x, c3, 3, 1);
        compress_case(&x, c7, 7, 99);
        compress_case(&x, c2, 2, -1);
        compress_case(&x, c5, 5, 0);
    }
}

static void revseq_all_types(void **state) {
    (void)state;
    static const int64_t lens[3] = {4, 0, 2};
    EACH_TYPE(row_types("ReverseSequence", 10), dt) {
        for (int bf = 0; bf < 2; bf++) {
            vals b;
            kh h;
            int64_t src[24];
            const osc_tensor x = counting(&b, dt, 3, bf ? D(3, 4, 2) : D(4, 3, 2));
            const osc_tensor l = kh_tensor(OSC_INT64, 1, D(3), lens);
            kh_init(&h, "ReverseSequence", 10);
            kh_attr_int(&h, "batch_axis", bf ? 0 : 1);
            kh_attr_int(&h, "time_axis", bf ? 1 : 0);
            kh_expect_ok(&h, kh_run2(&h, &x, &l));
            for (int64_t p = 0; p < 24; p++) {
                const int64_t e = p % 2, bt = bf ? p / 8 : p / 2 % 3, t = bf ? p / 2 % 4 : p / 6;
                const int64_t from = t < lens[bt] ? lens[bt] - 1 - t : t;
                src[p] = bf ? (bt * 4 + from) * 2 + e : (from * 3 + bt) * 2 + e;
            }
            expect_from(&h, &x, src, 24);
            kh_free(&h);
        }
    }
}

static void eyelike_all_types(void **state) {
    (void)state;
    static const int64_t ks[5] = {-5, -1, 0, 2, 10};
    static const float x12[12] = {0};
    const osc_tensor x = kh_tensor(OSC_FLOAT, 2, D(3, 4), x12);
    EACH_TYPE(row_types("EyeLike", 22), dt) {
        vals one;
        put(&one, dt, 0, 1);
        const osc_tensor o = kh_tensor(dt, 0, NULL, one.bytes);
        for (int q = 0; q < 5; q++) {
            kh h;
            kh_init(&h, "EyeLike", 22);
            kh_attr_int(&h, "dtype", dt);
            kh_attr_int(&h, "k", ks[q]);
            kh_expect_ok(&h, kh_run1(&h, &x));
            osc_check_shape(&h.out, dt, 2, D(3, 4));
            for (int64_t p = 0; p < 12; p++)
                if (p % 4 - p / 4 == ks[q] ? !same(&h.out, p, &o, 0) : !zero(&h.out, p))
                    fail_msg("%s k %lld: element %lld", osc_dtype_get(dt)->name,
                             (long long)ks[q], (long long)p);
            kh_free(&h);
        }
    }
}

/* CumProd-26 and CumSum-14 on every type of their rows, along each axis, in each mode (bit 0
 * exclusive, bit 1 reverse), against the sum or product of the elements the scan takes, made
 * naively here (small integers: exact in every type). */
static void cum_all_types(void **state) {
    (void)state;
    static const int64_t xv[6] = {1, 2, 3, 2, 1, 3};
    static const struct { const char *op; int64_t opset; bool prod; } ops[2] = {
        {"CumProd", 26, true}, {"CumSum", 14, false}};
    for (int c = 0; c < 2; c++) {
        EACH_TYPE(row_types(ops[c].op, ops[c].opset), dt)
        for (int32_t axis = 0; axis < 2; axis++)
            for (int mode = 0; mode < 4; mode++) {
                vals b, w;
                kh h;
                const osc_tensor x = kh_tensor(dt, 2, D(2, 3), b.bytes), a =
                    kh_tensor(OSC_INT32, 0, NULL, &axis);
                for (int32_t i = 0; i < 6; i++) put(&b, dt, i, xv[i]);
                for (int64_t p = 0; p < 6; p++) { /* the scan along the axis, naively */
                    const int64_t n = axis ? 3 : 2, s = axis ? 1 : 3, at = axis ? p % 3 : p / 3;
                    int64_t acc = ops[c].prod ? 1 : 0;
                    for (int64_t q = 0; q < n; q++) {
                        const bool before = mode & 2 ? q > at : q < at;
                        if (!before && !(q == at && !(mode & 1))) continue;
                        const int64_t v = xv[p + (q - at) * s];
                        acc = ops[c].prod ? acc * v : acc + v;
                    }
                    put(&w, dt, (int32_t)p, acc);
                }
                kh_init(&h, ops[c].op, ops[c].opset);
                kh_attr_int(&h, "exclusive", mode & 1);
                kh_attr_int(&h, "reverse", mode >> 1);
                kh_expect_ok(&h, kh_run2(&h, &x, &a));
                osc_check_bytes(&h.out, w.bytes, 6 * esize(dt));
                kh_free(&h);
            }
    }
}

static void refusals(void **state) {
    (void)state;
    kh h;
    static const float x6[6] = {1, 2, 3, 4, 5, 6}, x8v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    static const uint8_t past[3] = {0, 0, 1};
    static const int64_t long_lens[2] = {4, 5};
    const osc_tensor x = kh_tensor(OSC_FLOAT, 2, D(2, 3), x6);
    const osc_tensor c = kh_tensor(OSC_BOOL, 1, D(3), past);
    kh_init(&h, "Compress", 11);
    kh_attr_int(&h, "axis", 0);
    assert_int_equal(kh_run2(&h, &x, &c), OSC_ERR_INDEX);
    kh_assert_msg_has(&h, "position 2: value true selects past the axis's 2 entries");
    kh_free(&h);
    const osc_tensor x8 = kh_tensor(OSC_FLOAT, 2, D(4, 2), x8v);
    const osc_tensor l = kh_tensor(OSC_INT64, 1, D(2), long_lens);
    kh_init(&h, "ReverseSequence", 10);
    assert_int_equal(kh_run2(&h, &x8, &l), OSC_ERR_INDEX);
    kh_assert_msg_has(&h, "position 1: value 5 is out of range [0, 4]");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    const osc_tensor v = kh_tensor(OSC_FLOAT, 1, D(6), x6);
    kh_init(&h, "Trilu", 14);
    assert_int_equal(kh_run1(&h, &v), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "has shape [6]; expected rank >= 2");
    kh_free(&h);
    kh_init(&h, "EyeLike", 9);
    kh_attr_int(&h, "dtype", OSC_BFLOAT16);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'dtype' = 16 (bfloat16) is not an output type");
    kh_init(&h, "ReverseSequence", 10);
    kh_attr_int(&h, "batch_axis", 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "'batch_axis' = 2 and 'time_axis' = 0");
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(trilu_all_types), cmocka_unit_test(compress_all_types),
              cmocka_unit_test(revseq_all_types), cmocka_unit_test(eyelike_all_types),
              cmocka_unit_test(cum_all_types), cmocka_unit_test(refusals))
