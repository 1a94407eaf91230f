/* test_ops_matmul.c: MatMul and Gemm run one node at a time: hand-checked values, 1-D operands,
 * batch broadcasting, every Gemm attribute and C form, integer wrap, float16/bfloat16 rounded
 * once, sizes across every block boundary of the kernel (against a double-precision reference
 * and against the documented summation order, bit for bit), empty dims and every error. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kharness.h"
#include "tests/support/check.h"
#include "ops/linalg/gemm_kernel.h"
#include "ops/linalg/linalg.h"

/* ---- helpers ---- */

static osc_tensor tens(int32_t dtype, int32_t rank, const int64_t *dims, const void *data) {
    return kh_tensor(dtype, rank, dims, data);
}

/* deterministic values in [-1, 1) */
static uint64_t g_rng = 12345;
static double rnd(void) {
    g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_rng >> 11) / 9007199254740992.0 * 2 - 1;
}

/* ---- dispatch ---- */

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"MatMul", 1, 1},  {"MatMul", 8, 1},  {"MatMul", 9, 9},  {"MatMul", 12, 9},
        {"MatMul", 13, 13}, {"MatMul", 28, 13}, {"Gemm", 1, 1},  {"Gemm", 5, 1},
        {"Gemm", 6, 6},    {"Gemm", 7, 7},    {"Gemm", 8, 7},    {"Gemm", 9, 9},
        {"Gemm", 10, 9},   {"Gemm", 11, 11},  {"Gemm", 12, 11},  {"Gemm", 13, 13},
        {"Gemm", 28, 13},
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
}

/* ---- MatMul values ---- */

static void test_matmul_2d_by_hand(void **state) {
    (void)state;
    /* [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]] = [[58,64],[139,154]] */
    static const float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, 8, 9, 10, 11, 12};
    static const float want[4] = {58, 64, 139, 154};
    const int64_t da[2] = {2, 3}, db[2] = {3, 2}, dy[2] = {2, 2};
    osc_tensor ta = tens(OSC_FLOAT, 2, da, a), tb = tens(OSC_FLOAT, 2, db, b);
    kh h;
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 2, dy);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
    /* double, MatMul-1 */
    static const double ad[6] = {1, 2, 3, 4, 5, 6}, bd[6] = {7, 8, 9, 10, 11, 12};
    static const double wantd[4] = {58, 64, 139, 154};
    ta = tens(OSC_DOUBLE, 2, da, ad);
    tb = tens(OSC_DOUBLE, 2, db, bd);
    kh_init_since(&h, "MatMul", 1, 1);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_memory_equal(h.out.data, wantd, sizeof wantd);
    kh_free(&h);
}

static void test_matmul_1d(void **state) {
    (void)state;
    static const float v[3] = {1, 2, 3}, m[6] = {1, 2, 3, 4, 5, 6}; /* m: 3x2 or 2x3 */
    const int64_t d3 = 3, d32[2] = {3, 2}, d23[2] = {2, 3}, d2 = 2, d123[3] = {1, 2, 3};
    kh h;
    /* 1-D x 1-D: the dot product, a scalar */
    osc_tensor tv = tens(OSC_FLOAT, 1, &d3, v);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &tv, &tv), OSC_OK);
    assert_int_equal(h.out.rank, 0);
    assert_true(((float *)h.out.data)[0] == 14);
    kh_free(&h);
    /* 1-D x 2-D: [1,2,3] x [[1,2],[3,4],[5,6]] = [22, 28], shape [2] */
    osc_tensor t32 = tens(OSC_FLOAT, 2, d32, m);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &tv, &t32), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 1, &d2);
    assert_true(((float *)h.out.data)[0] == 22 && ((float *)h.out.data)[1] == 28);
    kh_free(&h);
    /* 2-D x 1-D: [[1,2,3],[4,5,6]] x [1,2,3] = [14, 32] */
    osc_tensor t23 = tens(OSC_FLOAT, 2, d23, m);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &t23, &tv), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 1, &d2);
    assert_true(((float *)h.out.data)[0] == 14 && ((float *)h.out.data)[1] == 32);
    kh_free(&h);
    /* 3-D x 1-D: [1,2,3] x [3] -> [1,2] */
    osc_tensor t123 = tens(OSC_FLOAT, 3, d123, m);
    const int64_t d12[2] = {1, 2};
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &t123, &tv), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 2, d12);
    assert_true(((float *)h.out.data)[0] == 14 && ((float *)h.out.data)[1] == 32);
    kh_free(&h);
    /* 1-D x 3-D: [2] x [1,2,3] -> [1,3]: [1,2] x [[1,2,3],[4,5,6]] = [9,12,15] */
    const int64_t d13[2] = {1, 3};
    osc_tensor tv2 = tens(OSC_FLOAT, 1, &d2, v);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &tv2, &t123), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 2, d13);
    assert_true(((float *)h.out.data)[0] == 9 && ((float *)h.out.data)[2] == 15);
    kh_free(&h);
}

/* Batch dims broadcast: A [2,1,2,3] x B [3,3,2] -> [2,3,2,2]; every element against a
 * coordinate-by-coordinate reference. */
static void test_matmul_batch_broadcast(void **state) {
    (void)state;
    float a[12], b[18];
    for (int i = 0; i < 12; i++) a[i] = (float)(i - 5);
    for (int i = 0; i < 18; i++) b[i] = (float)(2 * i - 7);
    const int64_t da[4] = {2, 1, 2, 3}, db[3] = {3, 3, 2}, dy[4] = {2, 3, 2, 2};
    osc_tensor ta = tens(OSC_FLOAT, 4, da, a), tb = tens(OSC_FLOAT, 3, db, b);
    kh h;
    kh_init_since(&h, "MatMul", 9, 9);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 4, dy);
    const float *y = h.out.data;
    for (int x = 0; x < 2; x++)
        for (int z = 0; z < 3; z++)
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) {
                    double s = 0;
                    for (int p = 0; p < 3; p++) s += a[x * 6 + i * 3 + p] * b[z * 6 + p * 2 + j];
                    assert_true(y[((x * 3 + z) * 2 + i) * 2 + j] == (float)s);
                }
    kh_free(&h);
    /* A's batch broadcast against B's: A [1,2,3] x B [2,3,2] -> [2,2,2] (B varies) */
    const int64_t da3[3] = {1, 2, 3}, db3[3] = {2, 3, 2}, dy3[3] = {2, 2, 2};
    ta = tens(OSC_FLOAT, 3, da3, a);
    tb = tens(OSC_FLOAT, 3, db3, b);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 3, dy3);
    y = h.out.data;
    for (int z = 0; z < 2; z++)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                double s = 0;
                for (int p = 0; p < 3; p++) s += a[i * 3 + p] * b[z * 6 + p * 2 + j];
                assert_true(y[(z * 2 + i) * 2 + j] == (float)s);
            }
    kh_free(&h);
}

/* The documented summation order, in float: per element, each K block of OSC_GEMM_KC summed
 * from 0 in increasing p, each product by one fused multiply-add, the block sums added in
 * order. */
#define ORDERED_DOT(NAME, T, FMA)                                                            \
    static T NAME(const T *a, int64_t as, const T *b, int64_t bs, int64_t k) {                \
        T y = 0;                                                                              \
        for (int64_t q = 0; q < k; q += OSC_GEMM_KC) {                                        \
            T s = 0;                                                                          \
            for (int64_t p = q; p < k && p < q + OSC_GEMM_KC; p++)                            \
                s = FMA(a[p * as], b[p * bs], s);                                             \
            y = q == 0 ? s : y + s;                                                           \
        }                                                                                     \
        return y;                                                                             \
    }
ORDERED_DOT(ordered_dot, float, fmaf)
ORDERED_DOT(ordered_dot_d, double, fma)

/* Sizes across every boundary: M around the register tiles' rows (4, 6), N around NR (8, 16,
 * 32) and NC (256 floats, 128 doubles), K around KC (256). float: bit-equal to the documented
 * order; both: within the rounding bound of a double reference. */
static void test_matmul_blocks(void **state) {
    (void)state;
    static const int64_t k_shapes[][3] = {
        {1, 1, 1},    {5, 7, 3},     {6, 16, 16},  {7, 17, 33},  {13, 255, 31},
        {4, 256, 8},  {9, 257, 65},  {25, 513, 129}, {3, 40, 257}, {11, 300, 300},
        {2, 1000, 5}, {19, 64, 64},
    };
    for (size_t s = 0; s < sizeof k_shapes / sizeof k_shapes[0]; s++) {
        const int64_t m = k_shapes[s][0], k = k_shapes[s][1], n = k_shapes[s][2];
        float *a = malloc((size_t)(m * k) * 4), *b = malloc((size_t)(k * n) * 4);
        double *ad = malloc((size_t)(m * k) * 8), *bd = malloc((size_t)(k * n) * 8);
        for (int64_t i = 0; i < m * k; i++) ad[i] = a[i] = (float)rnd();
        for (int64_t i = 0; i < k * n; i++) bd[i] = b[i] = (float)rnd();
        const int64_t da[2] = {m, k}, db[2] = {k, n};
        osc_tensor ta = tens(OSC_FLOAT, 2, da, a), tb = tens(OSC_FLOAT, 2, db, b);
        osc_tensor tad = tens(OSC_DOUBLE, 2, da, ad), tbd = tens(OSC_DOUBLE, 2, db, bd);
        kh h, hd;
        kh_init_since(&h, "MatMul", 13, 13);
        kh_init_since(&hd, "MatMul", 13, 13);
        assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
        assert_int_equal(kh_run2(&hd, &tad, &tbd), OSC_OK);
        const float *y = h.out.data;
        const double *yd = hd.out.data;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double ref = 0, mag = 0;
                for (int64_t p = 0; p < k; p++) {
                    ref += ad[i * k + p] * bd[p * n + j];
                    mag += fabs(ad[i * k + p] * bd[p * n + j]);
                }
                const float want = ordered_dot(a + i * k, 1, b + j, n, k);
                if (y[i * n + j] != want)
                    fail_msg("%lldx%lldx%lld float (%lld,%lld): %.9g, the documented order "
                             "gives %.9g", (long long)m, (long long)k, (long long)n,
                             (long long)i, (long long)j, y[i * n + j], want);
                assert_true(fabs(y[i * n + j] - ref) <= 1e-6 * (double)k * mag + 1e-30);
                assert_true(fabs(yd[i * n + j] - ref) <= 1e-15 * (double)k * mag + 1e-300);
            }
        kh_free(&h);
        kh_free(&hd);
        free(a);
        free(b);
        free(ad);
        free(bd);
    }
}

/* Each kernel variant this CPU has (default, AVX2, AVX-512), called directly, in float and in
 * double: A row-major (read in place) and transposed (packed), without C, with one C row for
 * all (a bias) and with a full C, with and without Relu, across the tiles' and blocks'
 * boundaries: bit-equal to the documented order, then + C, then x < 0 ? +0 : x (row 0 is NaN:
 * Relu keeps it). Returns how many variants ran. */
#define GEMM_VARIANTS(NAME, E, T, DOT)                                                       \
    static int NAME(void) {                                                                   \
        static const int64_t k_shapes[][3] = {                                                \
            {1, 1, 1},     {6, 16, 16},  {7, 17, 33},  {13, 255, 31}, {9, 257, 65},           \
            {25, 513, 129}, {3, 40, 257}, {19, 64, 64}, {12, 6, 64},                           \
        };                                                                                    \
        int ran = 0;                                                                          \
        for (int32_t v = 0; v < 3; v++) {                                                     \
            const osc_gemm_fn fn = osc_gemm_variant(E, v);                                    \
            if (!fn) continue;                                                                \
            ran++;                                                                            \
            for (size_t s = 0; s < sizeof k_shapes / sizeof k_shapes[0]; s++) {               \
                const int64_t m = k_shapes[s][0], k = k_shapes[s][1], n = k_shapes[s][2];     \
                T *a = malloc((size_t)(m * k) * sizeof(T));                                   \
                T *at = malloc((size_t)(m * k) * sizeof(T));                                  \
                T *b = malloc((size_t)(k * n) * sizeof(T));                                   \
                T *c = malloc((size_t)(m * n) * sizeof(T));                                   \
                T *y = malloc((size_t)(m * n) * sizeof(T));                                   \
                void *pack = malloc(osc_gemm_pack_bytes(E, n, k));                            \
                for (int64_t i = 0; i < m * k; i++) a[i] = (T)rnd();                          \
                for (int64_t i = 0; i < k * n; i++) b[i] = (T)rnd();                          \
                for (int64_t i = 0; i < m * n; i++) c[i] = (T)rnd();                          \
                a[k - 1] = NAN; /* row 0: NaN, which Relu keeps */                            \
                for (int64_t i = 0; i < m; i++)                                               \
                    for (int64_t p = 0; p < k; p++) at[p * m + i] = a[i * k + p];             \
                for (int form = 0; form < 12; form++) { /* A's layout x C x Relu */           \
                    const int trans = form & 1, cf = form / 2 % 3, relu = form / 6;           \
                    const int64_t c_rs = cf == 2 ? n : 0; /* no C, a bias row, a full C */    \
                    const osc_gemm_args g = {                                                 \
                        .m = m, .n = n, .k = k, .a = trans ? at : a, .ars = trans ? 1 : k,    \
                        .acs = trans ? m : 1, .b = b, .brs = n, .bcs = 1, .y = y, .ldy = n,   \
                        .c = cf ? c : NULL, .c_rs = c_rs, .relu = relu};                      \
                    memset(y, 0xff, (size_t)(m * n) * sizeof(T));                             \
                    fn(&g, pack);                                                             \
                    for (int64_t i = 0; i < m; i++)                                           \
                        for (int64_t j = 0; j < n; j++) {                                     \
                            T want = DOT(a + i * k, 1, b + j, n, k);                          \
                            if (cf) want = want + c[i * c_rs + j];                            \
                            if (relu && want < 0) want = 0;                                   \
                            if (memcmp(&y[i * n + j], &want, sizeof(T)))                      \
                                fail_msg("%s variant %d, %lldx%lldx%lld, A %s, C form %d, "   \
                                         "Relu %d, (%lld,%lld): %.17g; the documented order " \
                                         "gives %.17g", #T, (int)v, (long long)m,             \
                                         (long long)k, (long long)n,                          \
                                         trans ? "transposed" : "row-major", cf, relu,        \
                                         (long long)i, (long long)j, (double)y[i * n + j],    \
                                         (double)want);                                       \
                        }                                                                     \
                }                                                                             \
                free(a), free(at), free(b), free(c), free(y), free(pack);                     \
            }                                                                                 \
        }                                                                                     \
        return ran;                                                                           \
    }
GEMM_VARIANTS(variants_f32, OSC_FLOAT, float, ordered_dot)
GEMM_VARIANTS(variants_f64, OSC_DOUBLE, double, ordered_dot_d)

static void test_gemm_variants(void **state) {
    (void)state;
    /* the default variant is always there */
    assert_true(variants_f32() >= 1);
    assert_true(variants_f64() >= 1);
    /* K == 0 through the dispatcher: Y = 0 + C */
    const float c0[2] = {1.5f, -0.0f};
    float y0[4] = {9, 9, 9, 9};
    const osc_gemm_args g0 = {.m = 2, .n = 2, .k = 0, .a = c0, .ars = 0, .acs = 1, .b = c0,
                              .brs = 2, .bcs = 1, .y = y0, .ldy = 2, .c = c0, .c_rs = 0};
    osc_gemm_get(OSC_FLOAT)(&g0, NULL);
    static const float want0[4] = {1.5f, 0.0f, 1.5f, 0.0f}; /* 0 + -0 is +0 */
    assert_memory_equal(y0, want0, sizeof want0);
}

/* The product's Relu epilogue (osc_product_params.relu: a tiled scatter's Relu fused into it): every element is the product's
 * own, bit for bit, passed through x < 0 ? +0 : x, on each path: MatMul (stored by the kernel),
 * Gemm with a bias row (added by the kernel) and with alpha 0.5 (the epilogue), K across KC;
 * NaN and -0 stay. */
static void test_relu_out(void **state) {
    (void)state;
    const int64_t m = 13, k = 300, n = 40, da[2] = {m, k}, db[2] = {k, n};
    float *a = malloc((size_t)(m * k) * 4), *b = malloc((size_t)(k * n) * 4), c[40];
    for (int64_t i = 0; i < m * k; i++) a[i] = (float)rnd();
    for (int64_t i = 0; i < k * n; i++) b[i] = (float)rnd();
    for (int j = 0; j < n; j++) c[j] = (float)rnd();
    for (int64_t p = 0; p < k; p++) a[1 * k + p] = 0; /* row 1: sums of +-0 */
    c[3] = -0.0f;
    a[2 * k + 7] = NAN; /* row 2: NaN everywhere */
    const int64_t dc = n;
    osc_tensor ta = tens(OSC_FLOAT, 2, da, a), tb = tens(OSC_FLOAT, 2, db, b);
    osc_tensor tc = tens(OSC_FLOAT, 1, &dc, c);
    for (int form = 0; form < 3; form++) { /* MatMul, Gemm + C, Gemm alpha 0.5 + C */
        kh plain, fused;
        for (int f = 0; f < 2; f++) {
            kh *h = f ? &fused : &plain;
            kh_init_since(h, form ? "Gemm" : "MatMul", 13, 13);
            if (form == 2) kh_attr_float(h, "alpha", 0.5f);
            assert_int_equal(form ? kh_run3(h, &ta, &tb, &tc) : kh_run2(h, &ta, &tb), OSC_OK);
            if (f) { /* again into the same output, the parameters' epilogue set */
                ((osc_product_params *)(uintptr_t)h->k.params)->relu = true;
                const osc_tensor *in[3] = {&ta, &tb, &tc};
                assert_int_equal(h->kernel->run(&h->k, in, form ? 3 : 2, &h->out, 1), OSC_OK);
            }
        }
        int negatives = 0;
        for (int64_t i = 0; i < m * n; i++) {
            const float x = ((const float *)plain.out.data)[i];
            const float want = x < 0 ? 0.0f : x, got = ((const float *)fused.out.data)[i];
            negatives += x < 0;
            if (memcmp(&got, &want, 4))
                fail_msg("form %d, element %lld: %.9g; Relu of the product %.9g is %.9g", form,
                         (long long)i, got, x, want);
        }
        assert_true(negatives > 0);
        assert_true(isnan(((const float *)fused.out.data)[2 * n + 5]));
        kh_free(&plain);
        kh_free(&fused);
    }
    free(a);
    free(b);
}

/* The same product twice gives the same bits (no state between runs). */
static void test_matmul_deterministic(void **state) {
    (void)state;
    const int64_t m = 37, k = 700, n = 45, da[2] = {m, k}, db[2] = {k, n};
    float *a = malloc((size_t)(m * k) * 4), *b = malloc((size_t)(k * n) * 4);
    for (int64_t i = 0; i < m * k; i++) a[i] = (float)rnd();
    for (int64_t i = 0; i < k * n; i++) b[i] = (float)rnd();
    osc_tensor ta = tens(OSC_FLOAT, 2, da, a), tb = tens(OSC_FLOAT, 2, db, b);
    kh h1, h2;
    kh_init_since(&h1, "MatMul", 13, 13);
    kh_init_since(&h2, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h1, &ta, &tb), OSC_OK);
    assert_int_equal(kh_run2(&h2, &ta, &tb), OSC_OK);
    assert_memory_equal(h1.out.data, h2.out.data, (size_t)(m * n) * 4);
    kh_free(&h1);
    kh_free(&h2);
    free(a);
    free(b);
}

/* Integers wrap modulo 2^bits. */
static void test_matmul_int_wrap(void **state) {
    (void)state;
    const int64_t d12[2] = {1, 2}, d21[2] = {2, 1}, d11[2] = {1, 1};
    kh h;
    /* int32: 2^30*2 + 2^30*2 = 2^32 -> 0; then -1*1 + 3*5 = 14 */
    static const int32_t a32[2] = {1 << 30, 1 << 30}, b32[2] = {2, 2};
    osc_tensor ta = tens(OSC_INT32, 2, d12, a32), tb = tens(OSC_INT32, 2, d21, b32);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    osc_check_shape(&h.out, OSC_INT32, 2, d11);
    assert_int_equal(((int32_t *)h.out.data)[0], 0);
    kh_free(&h);
    static const int32_t a32b[2] = {-1, 3}, b32b[2] = {1, 5};
    ta = tens(OSC_INT32, 2, d12, a32b);
    tb = tens(OSC_INT32, 2, d21, b32b);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_int_equal(((int32_t *)h.out.data)[0], 14);
    kh_free(&h);
    /* int64: INT64_MAX * 2 = -2 (mod 2^64), + (-1)*1 */
    static const int64_t a64[2] = {INT64_MAX, -1}, b64[2] = {2, 1};
    ta = tens(OSC_INT64, 2, d12, a64);
    tb = tens(OSC_INT64, 2, d21, b64);
    kh_init_since(&h, "MatMul", 9, 9);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_true(((int64_t *)h.out.data)[0] == -3);
    kh_free(&h);
    /* uint32: 0xffffffff * 2 + 3 * 1 = 1 (mod 2^32) */
    static const uint32_t au[2] = {0xffffffffu, 3}, bu[2] = {2, 1};
    ta = tens(OSC_UINT32, 2, d12, au);
    tb = tens(OSC_UINT32, 2, d21, bu);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_true(((uint32_t *)h.out.data)[0] == 1);
    kh_free(&h);
    /* uint64 with a transposed Gemm-13 and C: (2^63 * 2 + 1*7) + 1 = 8 */
    static const uint64_t a6[2] = {1ull << 63, 1}, b6[2] = {2, 7}, c6[1] = {1};
    ta = tens(OSC_UINT64, 2, d21, a6); /* transA: (K=2, M=1) */
    tb = tens(OSC_UINT64, 2, d21, b6);
    osc_tensor tc = tens(OSC_UINT64, 2, d11, c6);
    kh_init_since(&h, "Gemm", 13, 13);
    kh_attr_int(&h, "transA", 1);
    assert_int_equal(kh_run3(&h, &ta, &tb, &tc), OSC_OK);
    assert_true(((uint64_t *)h.out.data)[0] == 8);
    kh_free(&h);
}

/* float16/bfloat16 are summed in float and rounded once: 1 + 2^-11 + 2^-11 is 1 + 2^-10 in
 * float16 (rounding after each add would give 1); 1 + 2^-8 + 2^-8 is 1 + 2^-7 in bfloat16. */
static void test_matmul_half_rounds_once(void **state) {
    (void)state;
    const int64_t d13[2] = {1, 3}, d31[2] = {3, 1};
    static const uint16_t ones[3] = {0x3C00, 0x3C00, 0x3C00}, h_b[3] = {0x3C00, 0x1000, 0x1000};
    static const uint16_t bones[3] = {0x3F80, 0x3F80, 0x3F80}, bf_b[3] = {0x3F80, 0x3B80, 0x3B80};
    kh h;
    osc_tensor ta = tens(OSC_FLOAT16, 2, d13, ones), tb = tens(OSC_FLOAT16, 2, d31, h_b);
    kh_init_since(&h, "MatMul", 1, 1);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3C01);
    kh_free(&h);
    ta = tens(OSC_BFLOAT16, 2, d13, bones);
    tb = tens(OSC_BFLOAT16, 2, d31, bf_b);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3F81);
    kh_free(&h);
    /* Gemm float16: alpha 0.5, beta 2, C 2^-11: 0.5*(1+2^-10) + 2*2^-11 = 0.5 + 2^-11 + 2^-10
     * in float, one rounding: 0x3801 + ... = 0.5 + 3*2^-11 -> float16 0x3803 (exact) */
    static const uint16_t c16[1] = {0x1000};
    const int64_t d11[2] = {1, 1};
    ta = tens(OSC_FLOAT16, 2, d13, ones);
    tb = tens(OSC_FLOAT16, 2, d31, h_b);
    osc_tensor tc = tens(OSC_FLOAT16, 2, d11, c16);
    kh_init_since(&h, "Gemm", 13, 13);
    kh_attr_float(&h, "alpha", 0.5f);
    kh_attr_float(&h, "beta", 2.0f);
    assert_int_equal(kh_run3(&h, &ta, &tb, &tc), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], osc_f32_to_f16(0.5f + 3.0f / 2048.0f));
    kh_free(&h);
    /* bfloat16 Gemm without C (alpha 1): just the rounded product */
    ta = tens(OSC_BFLOAT16, 2, d13, bones);
    tb = tens(OSC_BFLOAT16, 2, d31, bf_b);
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3F81);
    kh_free(&h);
}

static void test_matmul_empty(void **state) {
    (void)state;
    kh h;
    /* M = 0: empty output */
    const int64_t d03[2] = {0, 3}, d34[2] = {3, 4}, d04[2] = {0, 4};
    static const float b[12] = {0};
    osc_tensor ta = tens(OSC_FLOAT, 2, d03, NULL), tb = tens(OSC_FLOAT, 2, d34, b);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 2, d04);
    kh_free(&h);
    /* K = 0: zeros (float and int) */
    const int64_t d20[2] = {2, 0}, d03b[2] = {0, 3}, d23[2] = {2, 3};
    ta = tens(OSC_FLOAT, 2, d20, NULL);
    tb = tens(OSC_FLOAT, 2, d03b, NULL);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 2, d23);
    for (int i = 0; i < 6; i++) assert_true(((float *)h.out.data)[i] == 0);
    kh_free(&h);
    ta = tens(OSC_INT64, 2, d20, NULL);
    tb = tens(OSC_INT64, 2, d03b, NULL);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    for (int i = 0; i < 6; i++) assert_true(((int64_t *)h.out.data)[i] == 0);
    kh_free(&h);
    /* a zero batch dim */
    const int64_t d023[3] = {0, 2, 3};
    ta = tens(OSC_FLOAT, 3, d023, NULL);
    tb = tens(OSC_FLOAT, 2, d34, b);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_int_equal(h.out.dims[0], 0);
    kh_free(&h);
    /* Gemm K = 0 with C: beta * C */
    static const float c[3] = {1, 2, 3};
    const int64_t d3 = 3;
    ta = tens(OSC_FLOAT, 2, d20, NULL);
    tb = tens(OSC_FLOAT, 2, d03b, NULL);
    osc_tensor tc = tens(OSC_FLOAT, 1, &d3, c);
    kh_init_since(&h, "Gemm", 13, 13);
    kh_attr_float(&h, "beta", 2.0f);
    assert_int_equal(kh_run3(&h, &ta, &tb, &tc), OSC_OK);
    for (int i = 0; i < 6; i++) assert_true(((float *)h.out.data)[i] == 2 * c[i % 3]);
    kh_free(&h);
    /* Gemm M = 0 */
    ta = tens(OSC_FLOAT, 2, d03, NULL);
    tb = tens(OSC_FLOAT, 2, d34, b);
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 2, d04);
    kh_free(&h);
}

/* ---- Gemm ---- */

/* Every transA x transB x alpha x beta x C form, float and double, against a reference. */
static void test_gemm_all_attributes(void **state) {
    (void)state;
    enum { M = 3, K = 4, N = 5 };
    static const int64_t k_cdims[][3] = {/* rank, dims */
                                         {0, 0, 0}, {1, N, 0}, {1, 1, 0}, {2, 1, N},
                                         {2, M, 1}, {2, M, N}, {2, 1, 1}};
    static const float k_alpha[] = {1.0f, 0.5f}, k_beta[] = {1.0f, 2.0f, 0.0f};
    double a[M * K], b[K * N], c[M * N];
    float af[M * K], bf[K * N], cf[M * N];
    for (int i = 0; i < M * K; i++) af[i] = (float)(a[i] = (double)(float)rnd());
    for (int i = 0; i < K * N; i++) bf[i] = (float)(b[i] = (double)(float)rnd());
    for (int i = 0; i < M * N; i++) cf[i] = (float)(c[i] = (double)(float)rnd());
    int cases = 0;
    for (int dt = 0; dt < 2; dt++)
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++)
                for (int al = 0; al < 2; al++)
                    for (int be = 0; be < 3; be++)
                        for (int cf_i = -1; cf_i < 7; cf_i++) {
                            /* stored operands: A as (M,K) or (K,M), B as (K,N) or (N,K) */
                            double sa[M * K], sb[K * N];
                            float saf[M * K], sbf[K * N];
                            for (int i = 0; i < M; i++)
                                for (int p = 0; p < K; p++) {
                                    int o = ta ? p * M + i : i * K + p;
                                    sa[o] = a[i * K + p];
                                    saf[o] = af[i * K + p];
                                }
                            for (int p = 0; p < K; p++)
                                for (int j = 0; j < N; j++) {
                                    int o = tb ? j * K + p : p * N + j;
                                    sb[o] = b[p * N + j];
                                    sbf[o] = bf[p * N + j];
                                }
                            const int64_t da[2] = {ta ? K : M, ta ? M : K};
                            const int64_t db[2] = {tb ? N : K, tb ? K : N};
                            const int32_t dtype = dt ? OSC_DOUBLE : OSC_FLOAT;
                            osc_tensor tA = tens(dtype, 2, da, dt ? (void *)sa : (void *)saf);
                            osc_tensor tB = tens(dtype, 2, db, dt ? (void *)sb : (void *)sbf);
                            osc_tensor tC;
                            if (cf_i >= 0)
                                tC = tens(dtype, (int32_t)k_cdims[cf_i][0], &k_cdims[cf_i][1],
                                          dt ? (void *)c : (void *)cf);
                            kh h;
                            kh_init_since(&h, "Gemm", 13, 13);
                            kh_attr_int(&h, "transA", ta);
                            kh_attr_int(&h, "transB", tb);
                            kh_attr_float(&h, "alpha", k_alpha[al]);
                            kh_attr_float(&h, "beta", k_beta[be]);
                            osc_status st = cf_i >= 0 ? kh_run3(&h, &tA, &tB, &tC) : kh_run2(&h, &tA, &tB);
                            assert_int_equal(st, OSC_OK);
                            const int64_t dy[2] = {M, N};
                            osc_check_shape(&h.out, dtype, 2, dy);
                            for (int i = 0; i < M; i++)
                                for (int j = 0; j < N; j++) {
                                    double s = 0;
                                    for (int p = 0; p < K; p++) s += a[i * K + p] * b[p * N + j];
                                    double want = k_alpha[al] * s;
                                    if (cf_i >= 0 && k_beta[be] != 0) {
                                        const int64_t r = k_cdims[cf_i][0], *cd = &k_cdims[cf_i][1];
                                        int64_t ci = 0;
                                        if (r == 1) ci = cd[0] == 1 ? 0 : j;
                                        if (r == 2) ci = (cd[0] == 1 ? 0 : i) * cd[1] + (cd[1] == 1 ? 0 : j);
                                        want += k_beta[be] * c[ci];
                                    }
                                    double got = dt ? ((double *)h.out.data)[i * N + j]
                                                    : ((float *)h.out.data)[i * N + j];
                                    assert_true(fabs(got - want) <= (dt ? 1e-14 : 1e-5));
                                }
                            kh_free(&h);
                            cases++;
                        }
    assert_int_equal(cases, 2 * 2 * 2 * 2 * 3 * 8);
}

/* Gemm by hand; a large transposed product across the blocks against a double reference;
 * beta 0 does not read C (NaN in C stays out). */
static void test_gemm_values(void **state) {
    (void)state;
    /* [[1,2],[3,4]] x [[5,6],[7,8]] = [[19,22],[43,50]]; alpha 2, beta 1, C [1,10] */
    static const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[2] = {1, 10};
    static const float want[4] = {39, 54, 87, 110};
    const int64_t d22[2] = {2, 2}, d2 = 2;
    osc_tensor ta = tens(OSC_FLOAT, 2, d22, a), tb = tens(OSC_FLOAT, 2, d22, b);
    osc_tensor tc = tens(OSC_FLOAT, 1, &d2, c);
    kh h;
    kh_init_since(&h, "Gemm", 7, 7);
    kh_attr_float(&h, "alpha", 2.0f);
    assert_int_equal(kh_run3(&h, &ta, &tb, &tc), OSC_OK);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
    /* beta 0 and C NaN: C is not read */
    static const float cn[2] = {NAN, NAN};
    osc_tensor tcn = tens(OSC_FLOAT, 1, &d2, cn);
    kh_init_since(&h, "Gemm", 11, 11);
    kh_attr_float(&h, "beta", 0.0f);
    assert_int_equal(kh_run3(&h, &ta, &tb, &tcn), OSC_OK);
    static const float prod[4] = {19, 22, 43, 50};
    assert_memory_equal(h.out.data, prod, sizeof prod);
    kh_free(&h);
    /* a large product with both transposes, double, across KC and NC */
    const int64_t m = 14, k = 300, n = 140;
    double *sa = malloc((size_t)(m * k) * 8), *sb = malloc((size_t)(k * n) * 8);
    for (int64_t i = 0; i < m * k; i++) sa[i] = rnd();
    for (int64_t i = 0; i < k * n; i++) sb[i] = rnd();
    const int64_t da[2] = {k, m}, db[2] = {n, k};
    ta = tens(OSC_DOUBLE, 2, da, sa);
    tb = tens(OSC_DOUBLE, 2, db, sb);
    kh_init_since(&h, "Gemm", 9, 9);
    kh_attr_int(&h, "transA", 1);
    kh_attr_int(&h, "transB", 7); /* any non-zero value transposes */
    double *cc = malloc(8);
    cc[0] = 0.25;
    osc_tensor tcc = tens(OSC_DOUBLE, 0, NULL, cc);
    assert_int_equal(kh_run3(&h, &ta, &tb, &tcc), OSC_OK);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0, mag = 0;
            for (int64_t p = 0; p < k; p++) {
                s += sa[p * m + i] * sb[j * k + p];
                mag += fabs(sa[p * m + i] * sb[j * k + p]);
            }
            assert_true(fabs(((double *)h.out.data)[i * n + j] - (s + 0.25)) <= 1e-14 * mag + 1e-14);
        }
    kh_free(&h);
    free(sa);
    free(sb);
    free(cc);
}

/* Gemm before 7: C broadcasts only with broadcast=1; integer Gemm with whole alpha/beta. */
static void test_gemm_old_broadcast_and_int(void **state) {
    (void)state;
    static const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c2[2] = {1, 10};
    static const float c22[4] = {1, 2, 3, 4};
    const int64_t d22[2] = {2, 2}, d2 = 2;
    osc_tensor ta = tens(OSC_FLOAT, 2, d22, a), tb = tens(OSC_FLOAT, 2, d22, b);
    osc_tensor tc2 = tens(OSC_FLOAT, 1, &d2, c2), tc22 = tens(OSC_FLOAT, 2, d22, c22);
    kh h;
    kh_init_since(&h, "Gemm", 6, 6);
    assert_int_equal(kh_run3(&h, &ta, &tb, &tc22), OSC_OK);
    static const float w1[4] = {20, 24, 46, 54};
    assert_memory_equal(h.out.data, w1, sizeof w1);
    kh_free(&h);
    kh_init_since(&h, "Gemm", 1, 1);
    assert_int_equal(kh_run3(&h, &ta, &tb, &tc2), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "attribute 'broadcast' is 0");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    kh_init_since(&h, "Gemm", 1, 1);
    kh_attr_int(&h, "broadcast", 1);
    assert_int_equal(kh_run3(&h, &ta, &tb, &tc2), OSC_OK);
    static const float w2[4] = {20, 32, 44, 60};
    assert_memory_equal(h.out.data, w2, sizeof w2);
    kh_free(&h);
    /* int32: alpha 2, beta -3: 2*[[19,22],[43,50]] - 3*[[1,2],[3,4]] */
    static const int32_t ai[4] = {1, 2, 3, 4}, bi[4] = {5, 6, 7, 8}, ci[4] = {1, 2, 3, 4};
    static const int32_t wi[4] = {35, 38, 77, 88};
    osc_tensor tai = tens(OSC_INT32, 2, d22, ai), tbi = tens(OSC_INT32, 2, d22, bi);
    osc_tensor tci = tens(OSC_INT32, 2, d22, ci);
    kh_init_since(&h, "Gemm", 9, 9);
    kh_attr_float(&h, "alpha", 2.0f);
    kh_attr_float(&h, "beta", -3.0f);
    assert_int_equal(kh_run3(&h, &tai, &tbi, &tci), OSC_OK);
    assert_memory_equal(h.out.data, wi, sizeof wi);
    kh_free(&h);
    /* int64 without C (Gemm-11), alpha 1 */
    static const int64_t al[4] = {1, 2, 3, 4}, bl[4] = {5, 6, 7, 8}, wl[4] = {19, 22, 43, 50};
    osc_tensor tal = tens(OSC_INT64, 2, d22, al), tbl = tens(OSC_INT64, 2, d22, bl);
    kh_init_since(&h, "Gemm", 11, 11);
    assert_int_equal(kh_run2(&h, &tal, &tbl), OSC_OK);
    assert_memory_equal(h.out.data, wl, sizeof wl);
    kh_free(&h);
    /* a fractional alpha with integers is refused */
    kh_init_since(&h, "Gemm", 13, 13);
    kh_attr_float(&h, "alpha", 0.5f);
    assert_int_equal(kh_run3(&h, &tai, &tbi, &tci), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "attribute 'alpha' = 0.5 is not a whole number");
    kh_free(&h);
    kh_init_since(&h, "Gemm", 13, 13);
    kh_attr_float(&h, "beta", 1e30f);
    assert_int_equal(kh_run3(&h, &tai, &tbi, &tci), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "attribute 'beta'");
    kh_free(&h);
}

/* ---- errors: status, message words, nothing written ---- */

static void test_matmul_errors(void **state) {
    (void)state;
    static const float f[24] = {0};
    static const int8_t i8[4] = {0};
    static const int32_t i32[4] = {0};
    static const uint16_t bf[4] = {0};
    const int64_t d22[2] = {2, 2}, d23[2] = {2, 3}, d3 = 3, d232[3] = {2, 3, 2};
    const int64_t d322[3] = {3, 2, 2};
    osc_tensor t22 = tens(OSC_FLOAT, 2, d22, f), t23 = tens(OSC_FLOAT, 2, d23, f);
    osc_tensor tv3 = tens(OSC_FLOAT, 1, &d3, f), ts = tens(OSC_FLOAT, 0, NULL, f);
    kh h;
    /* missing input */
    kh_init_since(&h, "MatMul", 13, 13);
    const osc_tensor *one[1] = {&t22};
    assert_int_equal(kh_run(&h, 1, one), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "input 1 'B' is required");
    kh_free(&h);
    /* dtypes the version does not list */
    struct { int64_t opset; int32_t dtype; const void *data; } bad[] = {
        {13, OSC_INT8, i8}, {9, OSC_BFLOAT16, bf}, {1, OSC_INT32, i32}};
    for (size_t i = 0; i < 3; i++) {
        osc_tensor x = tens(bad[i].dtype, 2, d22, bad[i].data);
        kh_init(&h, "MatMul", bad[i].opset);
        assert_int_equal(kh_run2(&h, &x, &x), OSC_ERR_UNSUPPORTED);
        kh_assert_msg_has(&h, "this op version accepts");
        kh_free(&h);
    }
    /* mixed dtypes */
    osc_tensor ti = tens(OSC_INT32, 2, d22, i32);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &t22, &ti), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'B'");
    kh_free(&h);
    /* scalars */
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &ts, &t22), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 0 'A'");
    kh_assert_msg_has(&h, "is a scalar");
    kh_free(&h);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &t22, &ts), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'B'");
    kh_free(&h);
    /* contracted sizes differ: 2-D and 1-D B */
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &t23, &t22), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "[2,3]");
    kh_assert_msg_has(&h, "second-to-last dim (2)");
    kh_free(&h);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &t22, &tv3), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "only dim (3)");
    kh_free(&h);
    /* batch dims that do not broadcast: [2,3,2] x [3,2,2] */
    osc_tensor tb1 = tens(OSC_FLOAT, 3, d232, f), tb2 = tens(OSC_FLOAT, 3, d322, f);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_run2(&h, &tb1, &tb2), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "batch dims do not broadcast: size 2 vs 3");
    kh_free(&h);
    /* an output of more than 2^63-1 elements (infer only: no data) */
    const int64_t dbig1[2] = {(int64_t)1 << 40, 1}, dbig2[2] = {1, (int64_t)1 << 40};
    osc_tensor g1 = tens(OSC_FLOAT, 2, dbig1, NULL), g2 = tens(OSC_FLOAT, 2, dbig2, NULL);
    const osc_tensor *big[2] = {&g1, &g2};
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_infer(&h, 2, big, 1), OSC_ERR_LIMIT);
    kh_assert_msg_has(&h, "more than 2^63-1 elements");
    kh_free(&h);
    /* unknown attribute */
    kh_init_since(&h, "MatMul", 13, 13);
    kh_attr_int(&h, "transA", 1);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "unknown attribute 'transA'");
    kh_free(&h);
    /* the scratch cannot be had */
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_check(&h), OSC_OK);
    h.alloc.cap = h.alloc.used + 1;
    assert_int_equal(kh_run2(&h, &t22, &t22), OSC_ERR_NOMEM);
    kh_assert_msg_has(&h, "bytes of scratch");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    /* half types need float copies too */
    static const uint16_t hv[4] = {0};
    osc_tensor th = tens(OSC_FLOAT16, 2, d22, hv);
    kh_init_since(&h, "MatMul", 13, 13);
    assert_int_equal(kh_check(&h), OSC_OK);
    h.alloc.cap = h.alloc.used + 1;
    assert_int_equal(kh_run2(&h, &th, &th), OSC_ERR_NOMEM);
    kh_assert_msg_has(&h, "float copies of A, B and Y");
    kh_free(&h);
}

static void test_gemm_errors(void **state) {
    (void)state;
    static const float f[24] = {0};
    static const double d[24] = {0};
    const int64_t d22[2] = {2, 2}, d23[2] = {2, 3}, d3 = 3, d222[3] = {2, 2, 2}, d32[2] = {3, 2};
    osc_tensor t22 = tens(OSC_FLOAT, 2, d22, f), t23 = tens(OSC_FLOAT, 2, d23, f);
    osc_tensor tv3 = tens(OSC_FLOAT, 1, &d3, f), t222 = tens(OSC_FLOAT, 3, d222, f);
    osc_tensor t32 = tens(OSC_FLOAT, 2, d32, f), td = tens(OSC_DOUBLE, 2, d22, d);
    kh h;
    /* C required before 11 */
    kh_init_since(&h, "Gemm", 9, 9);
    assert_int_equal(kh_run2(&h, &t22, &t22), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "input 2 'C' is required");
    kh_free(&h);
    /* A not a matrix */
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run2(&h, &tv3, &t22), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "Gemm needs a matrix (rank 2)");
    kh_free(&h);
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run2(&h, &t22, &t222), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'B'");
    kh_free(&h);
    /* K differs, the message names the transposes */
    kh_init_since(&h, "Gemm", 13, 13);
    kh_attr_int(&h, "transA", 1);
    assert_int_equal(kh_run2(&h, &t23, &t32), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "transA=1: K = 2");
    kh_free(&h);
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run2(&h, &t23, &t22), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "transB=0: K = 2");
    kh_free(&h);
    /* C that does not broadcast: [3] against [2,2]; rank 3 */
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run3(&h, &t22, &t22, &tv3), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "does not broadcast unidirectionally to the output shape [2,2]");
    kh_free(&h);
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run3(&h, &t22, &t22, &t222), OSC_ERR_SHAPE);
    kh_free(&h);
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run3(&h, &t22, &t22, &t32), OSC_ERR_SHAPE);
    kh_free(&h);
    /* dtypes: B or C differ from A; int8 not listed; bfloat16 not before 13 */
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run3(&h, &t22, &t22, &td), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 2 'C'");
    kh_free(&h);
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run2(&h, &t22, &td), OSC_ERR_SHAPE);
    kh_free(&h);
    static const uint16_t bfv[4] = {0};
    osc_tensor tbf = tens(OSC_BFLOAT16, 2, d22, bfv);
    kh_init_since(&h, "Gemm", 11, 11);
    assert_int_equal(kh_run2(&h, &tbf, &tbf), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "dtype bfloat16");
    kh_free(&h);
    /* attributes: unknown (broadcast from 7 on), wrong types */
    kh_init_since(&h, "Gemm", 7, 7);
    kh_attr_int(&h, "broadcast", 1);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "unknown attribute 'broadcast'");
    kh_free(&h);
    kh_init_since(&h, "Gemm", 13, 13);
    kh_attr_int(&h, "alpha", 2);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "attribute 'alpha' must be a float");
    kh_free(&h);
    kh_init_since(&h, "Gemm", 13, 13);
    kh_attr_float(&h, "transB", 1.0f);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "attribute 'transB' must be an int");
    kh_free(&h);
    /* an output of more than 2^63-1 elements */
    const int64_t dbig1[2] = {(int64_t)1 << 40, 1}, dbig2[2] = {1, (int64_t)1 << 40};
    osc_tensor g1 = tens(OSC_FLOAT, 2, dbig1, NULL), g2 = tens(OSC_FLOAT, 2, dbig2, NULL);
    const osc_tensor *big[2] = {&g1, &g2};
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_infer(&h, 2, big, 1), OSC_ERR_LIMIT);
    kh_free(&h);
    /* C's buffer too small at run: nothing written */
    osc_tensor small = tens(OSC_FLOAT, 2, d22, f);
    small.nbytes = 4;
    kh_init_since(&h, "Gemm", 13, 13);
    assert_int_equal(kh_run3(&h, &t22, &t22, &small), OSC_ERR_ARG);
    kh_assert_msg_has(&h, "input 2 'C' buffer");
    kh_assert_untouched(&h.out);
    kh_free(&h);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_rows_resolve),
    cmocka_unit_test(test_matmul_2d_by_hand),
    cmocka_unit_test(test_matmul_1d),
    cmocka_unit_test(test_matmul_batch_broadcast),
    cmocka_unit_test(test_matmul_blocks),
    cmocka_unit_test(test_gemm_variants),
    cmocka_unit_test(test_relu_out),
    cmocka_unit_test(test_matmul_deterministic),
    cmocka_unit_test(test_matmul_int_wrap),
    cmocka_unit_test(test_matmul_half_rounds_once),
    cmocka_unit_test(test_matmul_empty),
    cmocka_unit_test(test_gemm_all_attributes),
    cmocka_unit_test(test_gemm_values),
    cmocka_unit_test(test_gemm_old_broadcast_and_int),
    cmocka_unit_test(test_matmul_errors),
    cmocka_unit_test(test_gemm_errors),
)
