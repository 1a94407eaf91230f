/* test_ops_normalize.c: Hardmax, LpNormalization, MeanVarianceNormalization,
 * InstanceNormalization and GroupNormalization run one node at a time, on every float dtype
 * their versions allow, with their attribute and shape errors. Expected values are literals
 * worked out by hand or come from the naive loops below (the textbook formulas in double,
 * written apart from the kernels and never calling them). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "kharness.h"
#include "ops/registry.h"

static void near(double got, double want, double rel, int i) {
    if (isnan(want) && isnan(got)) return;
    if (!(fabs(got - want) <= rel * fabs(want) + 1e-6 * rel))
        fail_msg("element %d: got %.17g, want %.17g", i, got, want);
}

static double elem(const osc_tensor *t, int64_t i) {
    switch (t->dtype) {
    case OSC_FLOAT: return ((const float *)t->data)[i];
    case OSC_DOUBLE: return ((const double *)t->data)[i];
    case OSC_FLOAT16: return osc_f16_to_f32(((const uint16_t *)t->data)[i]);
    default: return osc_bf16_to_f32(((const uint16_t *)t->data)[i]);
    }
}

/* v[0..n-1] stored as dtype dt into buf (8 bytes an element at most), read back into v: the
 * values the kernel sees. */
static osc_tensor make(int32_t dt, int32_t rank, const int64_t *dims, double *v, int64_t n,
                       void *buf) {
    for (int64_t i = 0; i < n; i++) {
        if (dt == OSC_FLOAT) ((float *)buf)[i] = (float)v[i];
        if (dt == OSC_DOUBLE) ((double *)buf)[i] = v[i];
        if (dt == OSC_FLOAT16) ((uint16_t *)buf)[i] = osc_f32_to_f16((float)v[i]);
        if (dt == OSC_BFLOAT16) ((uint16_t *)buf)[i] = osc_f32_to_bf16((float)v[i]);
    }
    osc_tensor t = kh_tensor(dt, rank, dims, buf);
    for (int64_t i = 0; i < n; i++) v[i] = elem(&t, i);
    return t;
}

static const int32_t k_dts[4] = {OSC_FLOAT, OSC_DOUBLE, OSC_FLOAT16, OSC_BFLOAT16};
static double rel_of(int32_t dt) {
    return dt == OSC_DOUBLE ? 1e-13 : dt == OSC_FLOAT ? 1e-6 : dt == OSC_FLOAT16 ? 1e-3 : 8e-3;
}

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"Hardmax", 1, 1}, {"Hardmax", 10, 1}, {"Hardmax", 11, 11}, {"Hardmax", 12, 11},
        {"Hardmax", 13, 13}, {"Hardmax", 28, 13}, {"LpNormalization", 1, 1},
        {"LpNormalization", 21, 1}, {"LpNormalization", 22, 22},
        {"MeanVarianceNormalization", 8, 0}, {"MeanVarianceNormalization", 9, 9},
        {"MeanVarianceNormalization", 12, 9}, {"MeanVarianceNormalization", 13, 13},
        {"InstanceNormalization", 1, 1}, {"InstanceNormalization", 5, 1},
        {"InstanceNormalization", 6, 6}, {"InstanceNormalization", 21, 6},
        {"InstanceNormalization", 22, 22}, {"GroupNormalization", 17, 0},
        {"GroupNormalization", 18, 18}, {"GroupNormalization", 20, 18},
        {"GroupNormalization", 21, 21}, {"GroupNormalization", 28, 21},
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
    kh h;
    kh_init(&h, "GroupNormalization", 18);
    assert_true(h.kernel->flags & OSC_KF_DEPRECATED);
    kh_free(&h);
}

/* ---- Hardmax ---- */

/* Ties: the first largest wins; a NaN counts as the largest (the first one). Every dtype. */
static void test_hardmax_ties(void **state) {
    (void)state;
    static const double x0[12] = {3, 1, 3, 0, -2, -2, -2, -2, 1, NAN, 5, NAN};
    static const double want[12] = {1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
    for (int d = 0; d < 4; d++) {
        double x[12];
        memcpy(x, x0, sizeof x);
        unsigned char buf[96];
        osc_tensor t = make(k_dts[d], 2, (int64_t[]){3, 4}, x, 12, buf);
        kh h;
        kh_init_since(&h, "Hardmax", 13, 13);
        assert_int_equal(kh_run1(&h, &t), OSC_OK);
        for (int i = 0; i < 12; i++) {
            const double got = elem(&h.out, i);
            if (got != want[i]) fail_msg("%s element %d: got %g, want %g",
                                         osc_dtype_get(k_dts[d])->name, i, got, want[i]);
        }
        kh_free(&h);
    }
}

/* x [2, 2, 3]: version 11 coerces to 2-D at axis 1 (vectors [0,4,1,2,3,5] and [9,7,8,6,8,9]:
 * the 5, the first 9), 13 takes dim 1 alone (pairs three apart: (0,2) (4,3) (1,5) (9,6) (7,8)
 * (8,9)), axis -3 pairs six apart; in place gives the same. */
static void test_hardmax_versions(void **state) {
    (void)state;
    static const float x[12] = {0, 4, 1, 2, 3, 5, 9, 7, 8, 6, 8, 9};
    static const float w11[12] = {0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0};
    static const float w13[12] = {0, 1, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1};
    static const float w13a0[12] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
    const int64_t dims[3] = {2, 2, 3};
    osc_tensor t = kh_tensor(OSC_FLOAT, 3, dims, x);
    kh h;
    kh_init_since(&h, "Hardmax", 11, 11);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, w11, sizeof w11);
    kh_free(&h);
    kh_init_since(&h, "Hardmax", 1, 1);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, w11, sizeof w11);
    kh_free(&h);
    kh_init_since(&h, "Hardmax", 13, 13);
    kh_attr_int(&h, "axis", 1);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, w13, sizeof w13);
    kh_free(&h);
    kh_init_since(&h, "Hardmax", 13, 13);
    kh_attr_int(&h, "axis", -3);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, w13a0, sizeof w13a0);
    kh_free(&h);
    float buf[12];
    memcpy(buf, x, sizeof buf);
    osc_tensor tb = kh_tensor(OSC_FLOAT, 3, dims, buf);
    const osc_tensor *in[1] = {&tb};
    kh_init_since(&h, "Hardmax", 11, 11);
    assert_int_equal(kh_run_inplace(&h, 1, in), OSC_OK);
    assert_memory_equal(buf, w11, sizeof w11);
    kh_free(&h);
    /* axis out of range */
    kh_init_since(&h, "Hardmax", 13, 13);
    kh_attr_int(&h, "axis", 3);
    assert_int_equal(kh_run1(&h, &t), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "attribute 'axis' = 3 is out of range [-3, 2]");
    kh_free(&h);
}

/* ---- LpNormalization ---- */

static void test_lpnorm(void **state) {
    (void)state;
    /* [2, 3] by hand: rows (3, 0, -4) and (0, 0, 0); L2 norms 5 and 0, L1 norms 7 and 0 */
    static const double w2[6] = {0.6, 0, -0.8, 0, 0, 0}, w1[6] = {3.0 / 7, 0, -4.0 / 7, 0, 0, 0};
    for (int d = 0; d < 4; d++)
        for (int p = 1; p <= 2; p++) {
            double x[6] = {3, 0, -4, 0, 0, 0};
            unsigned char buf[48];
            osc_tensor t = make(k_dts[d], 2, (int64_t[]){2, 3}, x, 6, buf);
            kh h;
            kh_init(&h, "LpNormalization", k_dts[d] == OSC_BFLOAT16 ? 22 : 1);
            kh_attr_int(&h, "p", p);
            assert_int_equal(kh_run1(&h, &t), OSC_OK);
            for (int i = 0; i < 6; i++)
                near(elem(&h.out, i), (p == 1 ? w1 : w2)[i], rel_of(k_dts[d]), i);
            kh_free(&h);
        }
    /* axis 0 of [2, 3], p default 2: each column over its two values */
    static const double xc[6] = {1, 2, 0, -1, 2, 5};
    osc_tensor t = kh_tensor(OSC_DOUBLE, 2, (int64_t[]){2, 3}, xc);
    kh h;
    kh_init(&h, "LpNormalization", 22);
    kh_attr_int(&h, "axis", 0);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    for (int i = 0; i < 6; i++) {
        const int c = i % 3;
        const double nrm = sqrt(xc[c] * xc[c] + xc[c + 3] * xc[c + 3]);
        near(((double *)h.out.data)[i], xc[i] / nrm, 1e-15, i);
    }
    kh_free(&h);
    /* p other than 1 or 2; a scalar; bfloat16 before 22 */
    kh_init(&h, "LpNormalization", 22);
    kh_attr_int(&h, "p", 3);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'p' = 3; allowed: 1 or 2");
    osc_tensor s = kh_tensor(OSC_DOUBLE, 0, NULL, xc);
    kh_init(&h, "LpNormalization", 22);
    assert_int_equal(kh_run1(&h, &s), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "is a scalar");
    kh_free(&h);
    uint16_t hb[6] = {0};
    osc_tensor tb = kh_tensor(OSC_BFLOAT16, 1, (int64_t[]){6}, hb);
    kh_init(&h, "LpNormalization", 21);
    assert_int_equal(kh_run1(&h, &tb), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
}

/* ---- MeanVarianceNormalization ---- */

/* Naive MVN of x [a, b, c] over the dims whose bit is set in mask: for each position of the
 * other dims, (x - mean) / (sqrt(var) + 1e-9), var the mean of squared deviations. */
static void ref_mvn(const double *x, double *y, const int64_t *dims, unsigned mask) {
    const int64_t n = dims[0] * dims[1] * dims[2];
    for (int64_t i = 0; i < n; i++) {
        const int64_t ci[3] = {i / (dims[1] * dims[2]), i / dims[2] % dims[1], i % dims[2]};
        double sum = 0, sq = 0, cnt = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int64_t j = 0; j < n; j++) {
                const int64_t cj[3] = {j / (dims[1] * dims[2]), j / dims[2] % dims[1],
                                       j % dims[2]};
                bool same = true;
                for (int d = 0; d < 3; d++) same = same && ((mask >> d & 1) || ci[d] == cj[d]);
                if (!same) continue;
                if (pass == 0) sum += x[j], cnt++;
                else sq += (x[j] - sum / cnt) * (x[j] - sum / cnt);
            }
        y[i] = (x[i] - sum / cnt) / (sqrt(sq / cnt) + 1e-9);
    }
}

static void test_mvn(void **state) {
    (void)state;
    static const int64_t dims[3] = {2, 3, 4};
    static const struct {
        int64_t axes[3];
        int n;
        unsigned mask;
    } k_axes[] = {{{0, 2}, 2, 5}, {{1}, 1, 2}, {{-1, 0}, 2, 5}, {{0, 1, 2}, 3, 7}, {{0}, 0, 0}};
    for (int d = 0; d < 4; d++)
        for (size_t a = 0; a < sizeof k_axes / sizeof k_axes[0]; a++) {
            double x[24], y[24];
            for (int i = 0; i < 24; i++) x[i] = (double)((i * 5) % 7) * 0.5 - 1;
            unsigned char buf[192];
            osc_tensor t = make(k_dts[d], 3, dims, x, 24, buf);
            kh h;
            kh_init(&h, "MeanVarianceNormalization", k_dts[d] == OSC_BFLOAT16 ? 13 : 9);
            kh_attr_ints(&h, "axes", k_axes[a].axes, (size_t)k_axes[a].n);
            assert_int_equal(kh_run1(&h, &t), OSC_OK);
            ref_mvn(x, y, dims, k_axes[a].mask);
            for (int i = 0; i < 24; i++) near(elem(&h.out, i), y[i], rel_of(k_dts[d]), i);
            kh_free(&h);
        }
    /* the default axes [0, 2, 3] on [2, 2, 1, 3]: per channel over 6 values; a constant channel
     * gives zeros */
    static const double x4[12] = {1, 2, 3, 7, 7, 7, 4, 5, 6, 7, 7, 7};
    osc_tensor t4 = kh_tensor(OSC_DOUBLE, 4, (int64_t[]){2, 2, 1, 3}, x4);
    kh h;
    kh_init(&h, "MeanVarianceNormalization", 13);
    assert_int_equal(kh_run1(&h, &t4), OSC_OK);
    /* channel 0: 1..6, mean 3.5, var 35/12 */
    const double sd = sqrt(35.0 / 12);
    static const int ch0[6] = {0, 1, 2, 6, 7, 8};
    for (int i = 0; i < 6; i++)
        near(((double *)h.out.data)[ch0[i]], (x4[ch0[i]] - 3.5) / (sd + 1e-9), 1e-14, ch0[i]);
    for (int i = 3; i < 6; i++) assert_true(((double *)h.out.data)[i] == 0);
    kh_free(&h);
    /* repeated and out-of-range axes; the default axes on rank 3 */
    static const int64_t rep[2] = {1, -2}, far[1] = {3};
    double x[24] = {0};
    osc_tensor t = kh_tensor(OSC_DOUBLE, 3, dims, x);
    kh_init(&h, "MeanVarianceNormalization", 13);
    kh_attr_ints(&h, "axes", rep, 2);
    assert_int_equal(kh_run1(&h, &t), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "attribute 'axes': value -2 at position 1 repeats axis 1");
    kh_free(&h);
    kh_init(&h, "MeanVarianceNormalization", 13);
    kh_attr_ints(&h, "axes", far, 1);
    assert_int_equal(kh_run1(&h, &t), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "value 3 at position 0 is out of range [-3, 2]");
    kh_free(&h);
    kh_init(&h, "MeanVarianceNormalization", 13);
    assert_int_equal(kh_run1(&h, &t), OSC_ERR_SHAPE);
    kh_free(&h);
    kh_init(&h, "MeanVarianceNormalization", 13);
    kh_attr_int(&h, "axes", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'axes' must be a list of ints");
}

/* ---- InstanceNormalization, GroupNormalization ---- */

/* Naive group normalisation of x [n, c, s]: g groups of c / g channels; scale and bias per
 * channel, or per group when per_group. */
static void ref_gn(const double *x, double *y, int64_t n, int64_t c, int64_t s, int64_t g,
                   const double *scale, const double *bias, bool per_group, double eps) {
    const int64_t per = c / g;
    for (int64_t b = 0; b < n; b++)
        for (int64_t q = 0; q < g; q++) {
            const double *v = x + (b * c + q * per) * s;
            double sum = 0, sq = 0;
            for (int64_t i = 0; i < per * s; i++) sum += v[i];
            const double m = sum / (double)(per * s);
            for (int64_t i = 0; i < per * s; i++) sq += (v[i] - m) * (v[i] - m);
            const double sd = sqrt(sq / (double)(per * s) + eps);
            for (int64_t i = 0; i < per * s; i++) {
                const int64_t k = per_group ? q : q * per + i / s;
                y[(b * c + q * per) * s + i] = (v[i] - m) / sd * scale[k] + bias[k];
            }
        }
}

static void test_instancenorm(void **state) {
    (void)state;
    static const int64_t opsets[4] = {6, 1, 6, 22}; /* by dtype: bfloat16 from 22 */
    for (int d = 0; d < 4; d++) {
        double x[24], sc[3] = {1, -0.5, 2}, bi[3] = {0.25, 0, -1}, y[24];
        for (int i = 0; i < 24; i++) x[i] = (double)((i * 7) % 9) * 0.25;
        unsigned char bx[192], bs[24], bb[24];
        osc_tensor tx = make(k_dts[d], 4, (int64_t[]){2, 3, 2, 2}, x, 24, bx);
        osc_tensor ts = make(k_dts[d], 1, (int64_t[]){3}, sc, 3, bs);
        osc_tensor tb = make(k_dts[d], 1, (int64_t[]){3}, bi, 3, bb);
        kh h;
        kh_init(&h, "InstanceNormalization", opsets[d]);
        kh_attr_float(&h, "epsilon", 0.01f);
        if (opsets[d] == 1) kh_attr_ints(&h, "consumed_inputs", (const int64_t[]){0}, 1);
        assert_int_equal(kh_run3(&h, &tx, &ts, &tb), OSC_OK);
        ref_gn(x, y, 2, 3, 4, 3, sc, bi, false, (double)0.01f);
        for (int i = 0; i < 24; i++) near(elem(&h.out, i), y[i], rel_of(k_dts[d]) * 4, i);
        kh_free(&h);
    }
    /* rank 2 (no spatial dims): every value is its channel's bias */
    static const float x2[6] = {1, 2, 3, 4, 5, 6}, s2[3] = {1, 1, 1}, b2[3] = {7, 8, 9};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, x2);
    osc_tensor ts = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, s2);
    osc_tensor tb = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, b2);
    kh h;
    kh_init(&h, "InstanceNormalization", 22);
    assert_int_equal(kh_run3(&h, &tx, &ts, &tb), OSC_OK);
    for (int i = 0; i < 6; i++) assert_true(((float *)h.out.data)[i] == b2[i % 3]);
    kh_free(&h);
    /* errors: scale of the wrong length, rank 1, B of another dtype, a legacy attribute at 6 */
    osc_tensor bad = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, s2);
    kh_init(&h, "InstanceNormalization", 22);
    assert_int_equal(kh_run3(&h, &tx, &bad, &tb), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'scale'");
    kh_assert_msg_has(&h, "needs shape [3] (one value per channel, dim 1)");
    kh_free(&h);
    osc_tensor r1 = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, x2);
    kh_init(&h, "InstanceNormalization", 22);
    assert_int_equal(kh_run3(&h, &r1, &ts, &tb), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "it needs rank >= 2");
    kh_free(&h);
    static const double bd[3] = {0};
    osc_tensor tbd = kh_tensor(OSC_DOUBLE, 1, (int64_t[]){3}, bd);
    kh_init(&h, "InstanceNormalization", 22);
    assert_int_not_equal(kh_run3(&h, &tx, &ts, &tbd), OSC_OK);
    kh_assert_msg_has(&h, "'B'");
    kh_free(&h);
    kh_init(&h, "InstanceNormalization", 6);
    kh_attr_ints(&h, "consumed_inputs", (const int64_t[]){0}, 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "consumed_inputs");
}

/* 18 scales per group, 21 per channel: the same X, different results; every dtype. */
static void test_groupnorm(void **state) {
    (void)state;
    for (int d = 0; d < 4; d++)
        for (int v = 0; v < 2; v++) {
            const bool per_group = v == 0;
            double x[48], sc[4] = {1.5, -1, 0.5, 2}, bi[4] = {0, 1, -0.5, 0.25}, y[48];
            for (int i = 0; i < 48; i++) x[i] = (double)((i * 11) % 13) * 0.125 - 0.5;
            unsigned char bx[384], bs[32], bb[32];
            const int64_t len = per_group ? 2 : 4;
            osc_tensor tx = make(k_dts[d], 3, (int64_t[]){2, 4, 6}, x, 48, bx);
            osc_tensor ts = make(k_dts[d], 1, &len, sc, len, bs);
            osc_tensor tb = make(k_dts[d], 1, &len, bi, len, bb);
            kh h;
            kh_init_since(&h, "GroupNormalization", per_group ? 18 : 21, per_group ? 18 : 21);
            kh_attr_int(&h, "num_groups", 2);
            if (!per_group) kh_attr_int(&h, "stash_type", 1);
            assert_int_equal(kh_run3(&h, &tx, &ts, &tb), OSC_OK);
            ref_gn(x, y, 2, 4, 6, 2, sc, bi, per_group, (double)1e-5f);
            for (int i = 0; i < 48; i++) near(elem(&h.out, i), y[i], rel_of(k_dts[d]) * 4, i);
            kh_free(&h);
        }
    float x[8] = {0}, s4[4] = {1, 1, 1, 1};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 4}, x);
    osc_tensor ts = kh_tensor(OSC_FLOAT, 1, (int64_t[]){4}, s4);
    osc_tensor t3 = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, s4);
    kh h;
    /* num_groups missing, zero, not dividing C; stash_type not a float dtype */
    kh_init(&h, "GroupNormalization", 21);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'num_groups' is required but missing");
    kh_init(&h, "GroupNormalization", 21);
    kh_attr_int(&h, "num_groups", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'num_groups' = 0; it must be >= 1");
    kh_init(&h, "GroupNormalization", 21);
    kh_attr_int(&h, "num_groups", 2);
    kh_attr_int(&h, "stash_type", 7);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'stash_type' = 7");
    kh_init(&h, "GroupNormalization", 18);
    kh_attr_int(&h, "num_groups", 2);
    kh_attr_int(&h, "stash_type", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "stash_type");
    kh_init(&h, "GroupNormalization", 21);
    kh_attr_int(&h, "num_groups", 3);
    assert_int_equal(kh_run3(&h, &tx, &ts, &ts), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "has 4 channels (dim 1 of [2,4]), not a multiple of attribute "
                          "'num_groups' = 3");
    kh_free(&h);
    /* 18 wants [num_groups], 21 [C] */
    kh_init(&h, "GroupNormalization", 18);
    kh_attr_int(&h, "num_groups", 2);
    assert_int_equal(kh_run3(&h, &tx, &ts, &ts), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "needs shape [2] (one value per group, attribute 'num_groups')");
    kh_free(&h);
    kh_init(&h, "GroupNormalization", 21);
    kh_attr_int(&h, "num_groups", 2);
    assert_int_equal(kh_run3(&h, &tx, &ts, &t3), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 2 'bias'");
    kh_free(&h);
    /* an empty X runs and writes nothing */
    osc_tensor te = kh_tensor(OSC_FLOAT, 3, (int64_t[]){2, 4, 0}, x);
    kh_init(&h, "GroupNormalization", 21);
    kh_attr_int(&h, "num_groups", 4);
    assert_int_equal(kh_run3(&h, &te, &ts, &ts), OSC_OK);
    kh_free(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_resolve),  cmocka_unit_test(test_hardmax_ties),
        cmocka_unit_test(test_hardmax_versions), cmocka_unit_test(test_lpnorm),
        cmocka_unit_test(test_mvn),           cmocka_unit_test(test_instancenorm),
        cmocka_unit_test(test_groupnorm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
