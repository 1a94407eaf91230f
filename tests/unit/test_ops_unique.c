/* test_ops_unique.c: the Unique kernel run through kharness: the spec's examples, every dtype
 * and axes against a naive quadratic reference written here, NaN and signed zeros (numpy's
 * rules, worked out by hand), strings, zero-size inputs, omitted outputs, invalid nodes, and
 * in a session one sort per run (infer's, kept for run). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/gather/unique_sort.h"
#include "ops/registry.h"
#include "kharness.h"
#include "onnx_scatter.h"
#include "tests/support/check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define N(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))
#define MAXN 64

/* Unique at opset 11 with n_out outputs; axis 99 and sorted -1 leave those attributes out. */
static osc_status unique(kh *h, osc_tensor x, int64_t axis, int64_t sorted, int32_t n_out) {
    const osc_tensor *in[1] = {&x};
    kh_init(h, "Unique", 11);
    if (axis != 99) kh_attr_int(h, "axis", axis);
    if (sorted >= 0) kh_attr_int(h, "sorted", sorted);
    return kh_run_multi(h, 1, in, n_out);
}

/* indices, inverse_indices and counts are these int64 vectors */
static void expect_maps(const kh *h, const int64_t *ind, int32_t u, const int64_t *inv,
                        int32_t n, const int64_t *cnt) {
    osc_check_shape(&h->outs[1], OSC_INT64, 1, D(u));
    osc_check_shape(&h->outs[2], OSC_INT64, 1, D(n));
    osc_check_shape(&h->outs[3], OSC_INT64, 1, D(u));
    osc_check_bytes(&h->outs[1], ind, (size_t)u * 8);
    osc_check_bytes(&h->outs[2], inv, (size_t)n * 8);
    osc_check_bytes(&h->outs[3], cnt, (size_t)u * 8);
}

/* ---- small integers written as any dtype (strings as "%04d" of v + 500, so that their byte
 * order is the numbers' order; bool as v != 0; complex as (v, 0)) ---- */
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
#define PUT_BOOL(T) ((T *)b->bytes)[i] = v != 0;
#define PUT_COMPLEX(T) ((T *)b->bytes)[i] = (T){(float)v, 0};
#define PUT_STRING(T)                                                                          \
    snprintf(b->text[i], sizeof b->text[i], "%04d", (int)(v + 500));                           \
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
static const void *data_of(const vals *b, int32_t dt) {
    return dt == OSC_STRING ? (const void *)b->s : (const void *)b->bytes;
}

/* t holds the n elements of want (strings by their bytes). */
static void expect_elems(const osc_tensor *t, const vals *want, int32_t n) {
    if (t->dtype != OSC_STRING) {
        osc_check_bytes(t, want->bytes, (size_t)n * (osc_dtype_get(t->dtype)->bits / 8));
        return;
    }
    const osc_string *s = t->data;
    for (int32_t i = 0; i < n; i++)
        if (s[i].len != want->s[i].len || memcmp(s[i].ptr, want->s[i].ptr, s[i].len) != 0)
            fail_msg("string %d is '%.*s', expected '%s'", (int)i, (int)s[i].len, s[i].ptr,
                     want->text[i]);
}

/* ---- the naive reference: slices of ints compared element by element, groups found by a
 * quadratic scan in order of first occurrence, then sorted by insertion ---- */
typedef struct ref {
    int32_t u;
    int64_t first[MAXN], count[MAXN], inv[MAXN];
} ref;

/* element e of slice j of v seen with (outer, n, inner) */
static int64_t at(const int64_t *v, int64_t n, int64_t inner, int64_t j, int64_t e) {
    return v[(e / inner * n + j) * inner + e % inner];
}
static int cmp_slices(const int64_t *v, int64_t n, int64_t inner, int64_t len, int64_t a,
                      int64_t b) {
    for (int64_t e = 0; e < len; e++) {
        int64_t x = at(v, n, inner, a, e), y = at(v, n, inner, b, e);
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}
static int32_t find(const int64_t *v, int64_t n, int64_t inner, int64_t len, const ref *r,
                    int64_t j) {
    int32_t q = 0;
    while (q < r->u && cmp_slices(v, n, inner, len, r->first[q], j) != 0) q++;
    return q;
}
static void reference(const int64_t *v, int64_t outer, int64_t n, int64_t inner, bool sorted,
                      ref *r) {
    const int64_t len = outer * inner;
    r->u = 0;
    for (int64_t j = 0; j < n; j++) {
        const int32_t q = find(v, n, inner, len, r, j);
        if (q == r->u) r->first[r->u] = j, r->count[r->u++] = 0;
        r->count[q]++;
    }
    for (int32_t g = 1; sorted && g < r->u; g++) /* insertion sort of the groups' slices */
        for (int32_t q = g; q > 0; q--) {
            if (cmp_slices(v, n, inner, len, r->first[q - 1], r->first[q]) <= 0) break;
            int64_t t = r->first[q];
            r->first[q] = r->first[q - 1], r->first[q - 1] = t;
            t = r->count[q];
            r->count[q] = r->count[q - 1], r->count[q - 1] = t;
        }
    for (int64_t j = 0; j < n; j++) r->inv[j] = find(v, n, inner, len, r, j);
}

/* The spec's four examples. */
static void spec_examples(void **state) {
    (void)state;
    kh h;
    const float ex1[] = {2, 1, 1, 3, 4, 3};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 1, D(6), ex1), 99, 0, 4));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 1, D(4));
    osc_check_bytes(&h.outs[0], (const float[]){2, 1, 3, 4}, 16);
    expect_maps(&h, D(0, 1, 3, 4), 4, D(0, 1, 1, 2, 3, 2), 6, D(1, 2, 2, 1));
    kh_free(&h);
    const float ex2[] = {1, 3, 2, 3};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 2, D(2, 2), ex2), 99, -1, 4));
    osc_check_bytes(&h.outs[0], (const float[]){1, 2, 3}, 12);
    expect_maps(&h, D(0, 2, 1), 3, D(0, 2, 1, 2), 4, D(1, 1, 2));
    kh_free(&h);
    const float ex3[] = {1, 0, 0, 1, 0, 0, 2, 3, 4};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 2, D(3, 3), ex3), 0, 1, 4));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 2, D(2, 3));
    osc_check_bytes(&h.outs[0], (const float[]){1, 0, 0, 2, 3, 4}, 24);
    expect_maps(&h, D(0, 2), 2, D(0, 0, 1), 3, D(2, 1));
    kh_free(&h);
    /* example 4 through axis -2 of the rank-3 tensor (axis 1) */
    const float ex4[] = {1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 3, D(2, 4, 2), ex4), -2, 1, 4));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 3, D(2, 3, 2));
    osc_check_bytes(&h.outs[0], (const float[]){0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1}, 48);
    expect_maps(&h, D(1, 0, 2), 3, D(1, 0, 2, 0), 4, D(2, 1, 1));
    kh_free(&h);
    /* columns of [[1,0,1],[2,5,2]] along axis -1: (1,2) (0,5) (1,2) */
    const int32_t cols[] = {1, 0, 1, 2, 5, 2};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_INT32, 2, D(2, 3), cols), -1, 1, 4));
    osc_check_bytes(&h.outs[0], (const int32_t[]){0, 1, 5, 2}, 16);
    expect_maps(&h, D(1, 0), 2, D(1, 0, 1), 3, D(1, 2));
    kh_free(&h);
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_INT32, 2, D(2, 3), cols), -1, 0, 4));
    osc_check_bytes(&h.outs[0], (const int32_t[]){1, 0, 2, 5}, 16);
    expect_maps(&h, D(0, 1), 2, D(0, 1, 0), 3, D(2, 1));
    kh_free(&h);
}

/* Every dtype of the row, flattened, sorted and not, against the reference. */
static void every_dtype(void **state) {
    (void)state;
    static const int32_t types[] = {OSC_UINT8,  OSC_UINT16, OSC_UINT32,    OSC_UINT64,
                                    OSC_INT8,   OSC_INT16,  OSC_INT32,     OSC_INT64,
                                    OSC_FLOAT16, OSC_FLOAT, OSC_DOUBLE,    OSC_STRING,
                                    OSC_BOOL,   OSC_COMPLEX64, OSC_COMPLEX128};
    srand(7);
    static vals in, want;
    for (int32_t round = 0; round < 40; round++)
        for (int32_t t = 0; t < N(types); t++) {
            const int32_t dt = types[t], n = rand() % 25;
            const bool is_unsigned = dt == OSC_UINT8 || dt == OSC_UINT16 || dt == OSC_UINT32 ||
                                     dt == OSC_UINT64;
            int64_t v[MAXN];
            for (int32_t i = 0; i < n; i++) {
                v[i] = dt == OSC_BOOL ? rand() % 2 : rand() % 9 - (is_unsigned ? 0 : 4);
                put(&in, dt, i, v[i]);
            }
            for (int sorted = 0; sorted < 2; sorted++) {
                ref r;
                reference(v, 1, n, 1, sorted, &r);
                kh h;
                kh_expect_ok(&h, unique(&h, kh_tensor(dt, 1, D(n), data_of(&in, dt)), 99, sorted,
                                     4));
                osc_check_shape(&h.outs[0], dt, 1, D(r.u));
                for (int32_t q = 0; q < r.u; q++) put(&want, dt, q, v[r.first[q]]);
                expect_elems(&h.outs[0], &want, r.u);
                expect_maps(&h, r.first, r.u, r.inv, n, r.count);
                kh_free(&h);
            }
        }
}

/* Slices along every axis (negative too) of rank-3 int32 and double tensors, zero dims
 * included. */
static void axes(void **state) {
    (void)state;
    srand(11);
    for (int32_t round = 0; round < 300; round++) {
        int64_t dims[3], count = 1;
        for (int32_t d = 0; d < 3; d++) count *= dims[d] = rand() % 4;
        const int32_t axis = rand() % 3, neg = rand() % 2, sorted = rand() % 2;
        int64_t v[MAXN], outer = 1, inner = 1;
        int32_t iv[MAXN];
        double dv[MAXN];
        for (int32_t d = 0; d < axis; d++) outer *= dims[d];
        for (int32_t d = axis + 1; d < 3; d++) inner *= dims[d];
        for (int64_t i = 0; i < count; i++) v[i] = rand() % 2, iv[i] = (int32_t)v[i],
                                            dv[i] = (double)v[i] - 0.5;
        ref r;
        reference(v, outer, dims[axis], inner, sorted, &r);
        for (int32_t f = 0; f < 2; f++) {
            kh h;
            const osc_tensor x = kh_tensor(f ? OSC_DOUBLE : OSC_INT32, 3, dims,
                                           f ? (const void *)dv : (const void *)iv);
            kh_expect_ok(&h, unique(&h, x, neg ? axis - 3 : axis, sorted, 4));
            int64_t yd[3] = {dims[0], dims[1], dims[2]};
            yd[axis] = r.u;
            osc_check_shape(&h.outs[0], x.dtype, 3, yd);
            /* Y: slice first[q] of X at place q */
            const int64_t n = dims[axis];
            for (int64_t o = 0; o < outer; o++)
                for (int32_t q = 0; q < r.u; q++)
                    for (int64_t i = 0; i < inner; i++) {
                        const int64_t src = (o * n + r.first[q]) * inner + i;
                        const int64_t dst = (o * r.u + q) * inner + i;
                        if (f) assert_true(((const double *)h.outs[0].data)[dst] == dv[src]);
                        else assert_int_equal(((const int32_t *)h.outs[0].data)[dst], iv[src]);
                    }
            expect_maps(&h, r.first, r.u, r.inv, (int32_t)n, r.count);
            kh_free(&h);
        }
    }
}

static uint32_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* numpy's unique (1.24, with return_index): all NaNs are one value sorted last, -0.0 equals
 * +0.0, and Y holds the first occurrence's bits; along an axis a slice with a NaN equals no
 * other (structured comparison). */
static void nan_and_zeros(void **state) {
    (void)state;
    kh h;
    float na, nb;
    const uint32_t ba = 0x7fc00001u, bb = 0xffc00002u;
    memcpy(&na, &ba, 4);
    memcpy(&nb, &bb, 4);
    const float x[] = {na, 1, nb, -0.0f, 0.0f, 1};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 1, D(6), x), 99, 1, 4));
    const float *y = h.outs[0].data;
    assert_int_equal(f32_bits(y[0]), 0x80000000u); /* -0.0 came first */
    assert_true(y[1] == 1.0f);
    assert_int_equal(f32_bits(y[2]), ba);
    expect_maps(&h, D(3, 1, 0), 3, D(2, 1, 2, 0, 0, 1), 6, D(2, 2, 2));
    kh_free(&h);
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 1, D(6), x), 99, 0, 4));
    y = h.outs[0].data;
    assert_int_equal(f32_bits(y[0]), ba);
    assert_int_equal(f32_bits(y[2]), 0x80000000u);
    expect_maps(&h, D(0, 1, 3), 3, D(0, 1, 0, 2, 2, 1), 6, D(2, 2, 2));
    kh_free(&h);
    /* float16 and double the same way */
    const uint16_t h16[] = {0x7e00, 0x3c00, 0x7e01, 0x8000, 0x0000, 0x3c00};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT16, 1, D(6), h16), 99, 1, 4));
    osc_check_bytes(&h.outs[0], (const uint16_t[]){0x8000, 0x3c00, 0x7e00}, 6);
    expect_maps(&h, D(3, 1, 0), 3, D(2, 1, 2, 0, 0, 1), 6, D(2, 2, 2));
    kh_free(&h);
    const double xd[] = {NAN, -INFINITY, NAN, INFINITY, 0.0};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_DOUBLE, 1, D(5), xd), 99, 1, 4));
    const double *yd = h.outs[0].data;
    assert_true(yd[0] == -INFINITY && yd[1] == 0.0 && yd[2] == INFINITY && isnan(yd[3]));
    expect_maps(&h, D(1, 4, 3, 0), 4, D(3, 0, 3, 2, 1), 5, D(1, 1, 1, 2));
    kh_free(&h);
    /* rows [[NaN,1],[NaN,0],[NaN,0]] along axis 0: three distinct rows, NaN ties in order */
    const float rows[] = {NAN, 1, NAN, 0, NAN, 0};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 2, D(3, 2), rows), 0, 1, 4));
    y = h.outs[0].data;
    assert_true(isnan(y[0]) && y[1] == 0 && isnan(y[2]) && y[3] == 0 && isnan(y[4]) &&
                y[5] == 1);
    expect_maps(&h, D(1, 2, 0), 3, D(2, 0, 1), 3, D(1, 1, 1));
    kh_free(&h);
    /* complex: a NaN part in either place makes one value, after every number */
    const osc_complex64 c[] = {{1, NAN}, {NAN, 1}, {1, 0}, {NAN, NAN}, {0, 2}};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_COMPLEX64, 1, D(5), c), 99, 1, 4));
    const osc_complex64 *yc = h.outs[0].data;
    assert_true(yc[0].re == 0 && yc[0].im == 2 && yc[1].re == 1 && yc[1].im == 0);
    assert_true(yc[2].re == 1 && isnan(yc[2].im)); /* the first NaN value's bits */
    expect_maps(&h, D(4, 2, 0), 3, D(2, 2, 1, 2, 0), 5, D(1, 1, 3));
    kh_free(&h);
}

static void strings_and_bool(void **state) {
    (void)state;
    kh h;
    const osc_string s[] = {{"b", 1}, {"a", 1}, {"", 0}, {"ab", 2}, {"a", 1}, {"b", 1}};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_STRING, 1, D(6), s), 99, 1, 4));
    const osc_string *y = h.outs[0].data;
    assert_int_equal(y[0].len, 0);
    assert_true(y[1].len == 1 && y[1].ptr[0] == 'a');
    assert_true(y[2].len == 2 && !memcmp(y[2].ptr, "ab", 2));
    assert_true(y[3].len == 1 && y[3].ptr[0] == 'b');
    expect_maps(&h, D(2, 1, 3, 0), 4, D(3, 1, 0, 2, 1, 3), 6, D(1, 2, 1, 2));
    kh_free(&h);
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_STRING, 1, D(6), s), 99, 0, 4));
    y = h.outs[0].data;
    assert_true(y[0].ptr[0] == 'b' && y[1].ptr[0] == 'a' && y[2].len == 0 && y[3].len == 2);
    expect_maps(&h, D(0, 1, 2, 3), 4, D(0, 1, 2, 3, 1, 0), 6, D(2, 2, 1, 1));
    kh_free(&h);
    const uint8_t b[] = {1, 0, 1, 1};
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_BOOL, 1, D(4), b), 99, -1, 4));
    osc_check_bytes(&h.outs[0], (const uint8_t[]){0, 1}, 2);
    expect_maps(&h, D(1, 0), 2, D(1, 0, 1, 1), 4, D(1, 3));
    kh_free(&h);
}

/* numpy: no element, no value; slices without elements are all one value. */
static void zero_size(void **state) {
    (void)state;
    kh h;
    const float one = 5;
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 1, D(0), &one), 99, -1, 4));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 1, D(0));
    expect_maps(&h, NULL, 0, NULL, 0, NULL);
    kh_free(&h);
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 2, D(2, 0), &one), 0, -1, 4));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 2, D(1, 0));
    expect_maps(&h, D(0), 1, D(0, 0), 2, D(2));
    kh_free(&h);
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 2, D(0, 3), &one), 0, -1, 4));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 2, D(0, 3));
    expect_maps(&h, NULL, 0, NULL, 0, NULL);
    kh_free(&h);
    /* a scalar is one element */
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_FLOAT, 0, NULL, &one), 99, -1, 4));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 1, D(1));
    osc_check_bytes(&h.outs[0], &one, 4);
    expect_maps(&h, D(0), 1, D(0), 1, D(1));
    kh_free(&h);
}

/* Outputs after Y may be left out (the trailing ones); what is given is the same. */
static void outputs_omitted(void **state) {
    (void)state;
    const int64_t x[] = {3, 1, 3};
    for (int32_t n_out = 1; n_out <= 3; n_out++) {
        kh h;
        kh_expect_ok(&h, unique(&h, kh_tensor(OSC_INT64, 1, D(3), x), 99, 1, n_out));
        osc_check_bytes(&h.outs[0], D(1, 3), 16);
        if (n_out > 1) osc_check_bytes(&h.outs[1], D(1, 0), 16);
        if (n_out > 2) osc_check_bytes(&h.outs[2], D(1, 0, 1), 24);
        kh_free(&h);
    }
}

/* A large input: the stable sort against counts kept per value. */
static void large(void **state) {
    (void)state;
    enum { n = 200000, range = 1000 };
    int32_t *x = malloc(n * sizeof *x);
    int64_t first[range], count[range] = {0}, rank[range];
    srand(3);
    for (int32_t i = 0; i < n; i++) {
        x[i] = rand() % range - range / 2;
        if (!count[x[i] + range / 2]++) first[x[i] + range / 2] = i;
    }
    int32_t u = 0;
    for (int32_t v = 0; v < range; v++) rank[v] = count[v] ? u++ : -1;
    kh h;
    kh_expect_ok(&h, unique(&h, kh_tensor(OSC_INT32, 1, D(n), x), 99, 1, 4));
    osc_check_shape(&h.outs[0], OSC_INT32, 1, D(u));
    const int32_t *y = h.outs[0].data;
    const int64_t *ind = h.outs[1].data, *inv = h.outs[2].data, *cnt = h.outs[3].data;
    for (int32_t v = 0; v < range; v++) {
        if (rank[v] < 0) continue;
        assert_int_equal(y[rank[v]], v - range / 2);
        assert_int_equal(ind[rank[v]], first[v]);
        assert_int_equal(cnt[rank[v]], count[v]);
    }
    for (int32_t i = 0; i < n; i++) assert_int_equal(inv[i], rank[x[i] + range / 2]);
    kh_free(&h);
    free(x);
}

/* In a session, infer's sort serves the run: one sort block per run. The allocator counts
 * blocks of the sort's size (int32 X: not the arena's, 28 bytes per element); two runs over
 * one buffer whose contents change between them. */
typedef struct counter {
    size_t size;
    int blocks;
} counter;

static void *counting(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)osize;
    counter *c = ud;
    if (!nsize) {
        free(ptr);
        return NULL;
    }
    c->blocks += !ptr && nsize == c->size;
    return realloc(ptr, nsize);
}

static void sorts_once_per_run(void **state) {
    (void)state;
    enum { n = 1000 };
    const int64_t d[1] = {-1};
    osc_mw *mw = osc_mw_graph(11, 1, (const osc_mw_value[]){{"x", OSC_INT32, 1, d, NULL}});
    osc_mw_node(mw, "Unique", "u", 1, (const char *[]){"x"}, 4,
                (const char *[]){"y", "ind", "inv", "cnt"});
    osc_mw_output(mw, "y", OSC_INT32, 1, d, NULL);
    osc_mw_output(mw, "ind", OSC_INT64, 1, d, NULL);
    osc_mw_output(mw, "inv", OSC_INT64, 1, d, NULL);
    osc_mw_output(mw, "cnt", OSC_INT64, 1, d, NULL);
    void *buf = NULL;
    size_t len = 0;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    static int32_t x[n];
    const osc_uq_view v = {.x = x, .dtype = OSC_INT32, .flat = true, .n = n, .outer = 1,
                           .inner = 1};
    counter c = {osc_uq_block_bytes(&v), 0};
    osc_options o;
    osc_options_init(&o);
    o.alloc = counting;
    o.alloc_ud = &c;
    osc_model *m = NULL;
    char msg[512];
    assert_int_equal(osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg), OSC_OK);
    free(buf);
    osc_session *s = NULL;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < n; i++) x[i] = round ? i % 7 : n - i; /* 7 values, then n */
        osc_tensor t = osc_test_view(OSC_INT32, 1, (const int64_t[]){n}, x);
        osc_check_bind(s, 1, (const char *[]){"x"}, &t);
        c.blocks = 0;
        assert_int_equal(osc_session_run(s), OSC_OK);
        assert_int_equal(c.blocks, 1);
        osc_tensor y, cnt;
        assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
        assert_int_equal(osc_session_output(s, 3, &cnt), OSC_OK);
        assert_int_equal(y.dims[0], round ? 7 : n);
        const int32_t *yv = y.data;
        const int64_t *cv = cnt.data;
        for (int64_t q = 0; q < y.dims[0]; q++) {
            assert_int_equal(yv[q], round ? q : q + 1);
            assert_int_equal(cv[q], round ? (q < n % 7 ? n / 7 + 1 : n / 7) : 1);
        }
    }
    osc_session_free(s);
    osc_model_free(m);
}

static void invalid(void **state) {
    (void)state;
    kh h;
    const float x[] = {1, 2};
    kh_expect_fail(&h, unique(&h, kh_tensor(OSC_FLOAT, 1, D(2), x), 1, -1, 4), OSC_ERR_MODEL,
                "attribute 'axis' = 1 is out of range [-1, 0]");
    kh_free(&h);
    kh_expect_fail(&h, unique(&h, kh_tensor(OSC_FLOAT, 0, NULL, x), 0, -1, 4), OSC_ERR_MODEL,
                "axis");
    kh_free(&h);
    kh_expect_fail(&h, unique(&h, kh_tensor(OSC_FLOAT, 1, D(2), x), 99, 2, 4), OSC_ERR_MODEL,
                "sorted");
    kh_free(&h);
    kh_init(&h, "Unique", 11);
    kh_attr_int(&h, "return_counts", 1);
    kh_expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "return_counts");
    kh_free(&h);
    /* bfloat16 is not in Unique-11's type constraint */
    const uint16_t bf[] = {0x3f80};
    kh_expect_fail(&h, unique(&h, kh_tensor(OSC_BFLOAT16, 1, D(1), bf), 99, -1, 1),
                OSC_ERR_SHAPE, "bfloat16");
    kh_free(&h);
    /* infer reads X: its values unknown yet is a state error, not a guess */
    osc_tensor unknown = kh_tensor(OSC_FLOAT, 1, D(2), NULL);
    const osc_tensor *in[1] = {&unknown};
    kh_init(&h, "Unique", 11);
    kh_expect_fail(&h, kh_infer(&h, 1, in, 4), OSC_ERR_STATE, "not known yet");
    kh_free(&h);
    /* run with an output of the wrong length writes nothing */
    osc_tensor xt = kh_tensor(OSC_FLOAT, 1, D(2), x);
    in[0] = &xt;
    float y[3];
    memset(y, 0xA5, sizeof y);
    osc_tensor out = kh_tensor(OSC_FLOAT, 1, D(3), y);
    kh_init(&h, "Unique", 11);
    kh_expect_ok(&h, kh_check(&h));
    kh_expect_fail(&h, h.kernel->run(&h.k, in, 1, &out, 1), OSC_ERR_ARG, "[2]");
    kh_assert_untouched(&out);
    osc_err_clear(&h.err);
    kh_expect_fail(&h, h.kernel->run(&h.k, in, 1, &out, 0), OSC_ERR_MODEL, "output 0 'Y'");
    kh_free(&h);
    /* every version from 11; none before */
    const kh_row rows[] = {{"Unique", 10, 0}, {"Unique", 11, 11}, {"Unique", 28, 11}};
    kh_assert_rows(rows, N(rows));
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(spec_examples), cmocka_unit_test(every_dtype),
              cmocka_unit_test(axes), cmocka_unit_test(nan_and_zeros),
              cmocka_unit_test(strings_and_bool), cmocka_unit_test(zero_size),
              cmocka_unit_test(outputs_omitted), cmocka_unit_test(large),
              cmocka_unit_test(sorts_once_per_run),
              cmocka_unit_test(invalid))
