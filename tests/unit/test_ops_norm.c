/* test_ops_norm.c: Softmax, LogSoftmax, BatchNormalization, LayerNormalization and Dropout run
 * one node at a time. Expected values are literals worked out by hand or with Python, or come
 * from the naive formulas below (exp(x) / sum exp, the textbook normalisations in double),
 * written separately from the kernels' code and never calling it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kharness.h"
#include "ops/registry.h"
#include "tests/support/writer.h"
#include "tests/support/check.h"

/* ---- helpers ---- */

static void near(double got, double want, double rel, int i) {
    if (isnan(want) && isnan(got)) return;
    if (!(fabs(got - want) <= rel * fabs(want) + 1e-12))
        fail_msg("element %d: got %.17g, want %.17g", i, got, want);
}

static void check_f32(const osc_tensor *t, const double *want, int64_t n, double rel) {
    assert_int_equal(t->dtype, OSC_FLOAT);
    for (int64_t i = 0; i < n; i++) near(((const float *)t->data)[i], want[i], rel, (int)i);
}

/* Naive (log)softmax of the vectors x[b*n*inner + j*inner + i], j < n, straight from the
 * definition: exp(x) / sum(exp(x)), no shift (the inputs here are small). */
static void ref_softmax(const float *x, double *y, int64_t outer, int64_t n, int64_t inner,
                        bool lg) {
    for (int64_t b = 0; b < outer; b++)
        for (int64_t i = 0; i < inner; i++) {
            double sum = 0;
            for (int64_t j = 0; j < n; j++) sum += exp(x[(b * n + j) * inner + i]);
            for (int64_t j = 0; j < n; j++) {
                double v = exp(x[(b * n + j) * inner + i]) / sum;
                y[(b * n + j) * inner + i] = lg ? log(v) : v;
            }
        }
}

/* ---- dispatch ---- */

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"Softmax", 1, 1},  {"Softmax", 10, 1},  {"Softmax", 11, 11}, {"Softmax", 12, 11},
        {"Softmax", 13, 13}, {"Softmax", 28, 13}, {"LogSoftmax", 1, 1}, {"LogSoftmax", 12, 11},
        {"LogSoftmax", 13, 13}, {"BatchNormalization", 5, 1}, {"BatchNormalization", 6, 6},
        {"BatchNormalization", 8, 7}, {"BatchNormalization", 13, 9},
        {"BatchNormalization", 14, 14}, {"BatchNormalization", 15, 15},
        {"BatchNormalization", 28, 15}, {"LayerNormalization", 17, 17},
        {"LayerNormalization", 28, 17}, {"Dropout", 1, 1}, {"Dropout", 6, 6}, {"Dropout", 9, 7},
        {"Dropout", 11, 10}, {"Dropout", 12, 12}, {"Dropout", 21, 13}, {"Dropout", 28, 22},
        {"LayerNormalization", 16, 0}, /* none before 17 */
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
}

/* ---- Softmax, LogSoftmax ---- */

/* On a 3-D input, version 11 normalises the flattened dims from `axis` on, version 13 the one
 * dim `axis`: different results for the same node. */
static void test_softmax_11_vs_13(void **state) {
    (void)state;
    static const float x[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const int64_t dims[3] = {2, 2, 2};
    osc_tensor t = kh_tensor(OSC_FLOAT, 3, dims, x);
    double want[8];
    kh h;
    /* axis 1 (the default before 13): rows of 4 */
    kh_init_since(&h, "Softmax", 11, 11);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    static const double row4[4] = {0.03205860328008499, 0.08714431874203257,
                                   0.23688281808991013, 0.6439142598879722};
    check_f32(&h.out, row4, 4, 1e-6);
    ref_softmax(x, want, 2, 4, 1, false);
    check_f32(&h.out, want, 8, 1e-6);
    kh_free(&h);
    /* version 1 behaves as 11 */
    kh_init_since(&h, "Softmax", 1, 1);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    check_f32(&h.out, want, 8, 1e-6);
    kh_free(&h);
    /* 13 with axis 1: pairs two apart, each [1/(1+e^2), e^2/(1+e^2)] */
    kh_init_since(&h, "Softmax", 13, 13);
    kh_attr_int(&h, "axis", 1);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    static const double pair2[8] = {0.11920292202211755, 0.11920292202211755,
                                    0.8807970779778823,  0.8807970779778823,
                                    0.11920292202211755, 0.11920292202211755,
                                    0.8807970779778823,  0.8807970779778823};
    check_f32(&h.out, pair2, 8, 1e-6);
    kh_free(&h);
    /* 13's default axis is -1: neighbours, [1/(1+e), e/(1+e)] */
    kh_init_since(&h, "Softmax", 13, 13);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    ref_softmax(x, want, 4, 2, 1, false);
    assert_true(fabs(want[0] - 0.2689414213699951) < 1e-15);
    check_f32(&h.out, want, 8, 1e-6);
    kh_free(&h);
    /* 11 with axis 2 (= -1) coerces to [4, 2]: the same as 13's default */
    kh_init_since(&h, "LogSoftmax", 11, 11);
    kh_attr_int(&h, "axis", -1);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    ref_softmax(x, want, 4, 2, 1, true);
    check_f32(&h.out, want, 8, 1e-6);
    kh_free(&h);
    /* LogSoftmax-13 axis 0: vectors 4 apart */
    kh_init_since(&h, "LogSoftmax", 13, 13);
    kh_attr_int(&h, "axis", 0);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    ref_softmax(x, want, 1, 2, 4, true);
    check_f32(&h.out, want, 8, 1e-6);
    kh_free(&h);
    /* LogSoftmax-1 default axis 1 on [2, 4] */
    kh_init_since(&h, "LogSoftmax", 1, 1);
    osc_tensor t2 = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 4}, x);
    assert_int_equal(kh_run1(&h, &t2), OSC_OK);
    ref_softmax(x, want, 2, 4, 1, true);
    check_f32(&h.out, want, 8, 1e-6);
    kh_free(&h);
}

/* Large inputs do not overflow (the max is subtracted); NaN spreads to its own vector only. */
static void test_softmax_stable(void **state) {
    (void)state;
    static const double xd[6] = {1000, 1001, 1002, 1, NAN, 2};
    osc_tensor t = kh_tensor(OSC_DOUBLE, 2, (int64_t[]){2, 3}, xd);
    kh h;
    kh_init_since(&h, "Softmax", 13, 13);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    static const double w[6] = {0.09003057317038046, 0.24472847105479767, 0.6652409557748219,
                                NAN, NAN, NAN};
    for (int i = 0; i < 6; i++) near(((double *)h.out.data)[i], w[i], 1e-14, i);
    kh_free(&h);
    kh_init_since(&h, "LogSoftmax", 13, 13);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    static const double wl[3] = {-2.40760596444438, -1.40760596444438, -0.40760596444438};
    for (int i = 0; i < 3; i++) near(((double *)h.out.data)[i], wl[i], 1e-13, i);
    kh_free(&h);
    /* in place */
    float buf[2] = {0, 1};
    osc_tensor tb = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, buf);
    const osc_tensor *in[1] = {&tb};
    kh_init_since(&h, "Softmax", 13, 13);
    assert_true(h.kernel->flags & OSC_KF_INPLACE);
    assert_int_equal(kh_run_inplace(&h, 1, in), OSC_OK);
    near(buf[0], 0.2689414213699951, 1e-6, 0);
    near(buf[1], 0.7310585786300049, 1e-6, 1);
    kh_free(&h);
}

/* float16 and bfloat16 compute in float and round once: the bits of the nearest value. */
static void test_softmax_half(void **state) {
    (void)state;
    static const uint16_t h16[2] = {0x0000, 0x3c00}, b16[2] = {0x0000, 0x3f80}; /* 0, 1 */
    kh h;
    kh_init_since(&h, "Softmax", 13, 13);
    osc_tensor t = kh_tensor(OSC_FLOAT16, 1, (int64_t[]){2}, h16);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x344e); /* 0.26904296875 */
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x39d9);
    kh_free(&h);
    kh_init_since(&h, "Softmax", 13, 13);
    t = kh_tensor(OSC_BFLOAT16, 1, (int64_t[]){2}, b16);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3e8a);
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x3f3b);
    kh_free(&h);
    /* bfloat16 only from 13 */
    kh_init_since(&h, "Softmax", 11, 11);
    assert_int_equal(kh_run1(&h, &t), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "dtype bfloat16");
    kh_free(&h);
}

static void test_softmax_errors(void **state) {
    (void)state;
    static const float x[8] = {0};
    osc_tensor t = kh_tensor(OSC_FLOAT, 3, (int64_t[]){2, 2, 2}, x);
    kh h;
    kh_init_since(&h, "Softmax", 13, 13);
    kh_attr_int(&h, "axis", 3);
    assert_int_equal(kh_run1(&h, &t), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "node 'n0' (Softmax-13)");
    kh_assert_msg_has(&h, "'axis' = 3 is out of range [-3, 2]");
    kh_free(&h);
    kh_init_since(&h, "LogSoftmax", 11, 11);
    kh_attr_int(&h, "axis", -4);
    assert_int_equal(kh_run1(&h, &t), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "'axis' = -4 is out of range [-3, 2]");
    kh_free(&h);
    osc_tensor s = kh_tensor(OSC_FLOAT, 0, NULL, x);
    kh_init_since(&h, "Softmax", 13, 13);
    assert_int_equal(kh_run1(&h, &s), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "rank 0");
    kh_free(&h);
    kh_init_since(&h, "Softmax", 13, 13);
    kh_attr_int(&h, "axes", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'axes'");
    kh_init_since(&h, "Softmax", 13, 13);
    kh_attr_float(&h, "axis", 1.0f);
    kh_init_fails(&h, OSC_ERR_MODEL, "'axis' must be an int");
    /* an empty input is fine */
    osc_tensor e = kh_tensor(OSC_FLOAT, 2, (int64_t[]){0, 3}, x);
    kh_init_since(&h, "Softmax", 13, 13);
    assert_int_equal(kh_run1(&h, &e), OSC_OK);
    kh_free(&h);
}

/* ---- BatchNormalization ---- */

/* y = (x - mean) / sqrt(var + eps) * scale + b, per channel of [n, c, inner] (spatial) or per
 * element of a sample (c * inner parameters). */
static void ref_bn(const float *x, double *y, int64_t n, int64_t c, int64_t inner,
                   const float *s, const float *b, const float *m, const float *v, double eps,
                   bool spatial) {
    for (int64_t i = 0; i < n * c * inner; i++) {
        int64_t p = spatial ? i / inner % c : i % (c * inner);
        y[i] = (x[i] - m[p]) / sqrt((double)v[p] + eps) * s[p] + b[p];
    }
}

static osc_status run_bn(kh *h, const osc_tensor *x, const osc_tensor *p4, int32_t n_out) {
    const osc_tensor *in[5] = {x, &p4[0], &p4[1], &p4[2], &p4[3]};
    return n_out == 1 ? kh_run(h, 5, in) : kh_run_multi(h, 5, in, n_out);
}

static void test_batchnorm_inference(void **state) {
    (void)state;
    static const float x[6] = {-1, 0, 1, 2, 3, 4}, s[2] = {1.0f, 1.5f}, b[2] = {0, 1},
                       m[2] = {0, 3}, v[2] = {1, 1.5f};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 4, (int64_t[]){1, 2, 1, 3}, x);
    osc_tensor p[4] = {kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, s),
                       kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, b),
                       kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, m),
                       kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, v)};
    double want[6];
    ref_bn(x, want, 1, 2, 3, s, b, m, v, (double)1e-5f, true);
    near(want[3], (2 - 3) / sqrt(1.5 + 1e-5) * 1.5 + 1, 1e-6, 3); /* the formula by hand */
    static const int64_t k_versions[][2] = {{1, 1}, {6, 6}, {7, 7}, {9, 9}, {14, 14}, {15, 15}};
    for (size_t i = 0; i < 6; i++) {
        kh h;
        kh_init_since(&h, "BatchNormalization", k_versions[i][0], k_versions[i][1]);
        if (k_versions[i][0] == 1) kh_attr_ints(&h, "consumed_inputs", NULL, 0);
        if (k_versions[i][0] <= 6) kh_attr_int(&h, "is_test", 1);
        assert_int_equal(run_bn(&h, &tx, p, 1), OSC_OK);
        check_f32(&h.out, want, 6, 1e-6);
        kh_free(&h);
    }
    /* epsilon */
    kh h;
    kh_init_since(&h, "BatchNormalization", 15, 15);
    kh_attr_float(&h, "epsilon", 0.5f);
    assert_int_equal(run_bn(&h, &tx, p, 1), OSC_OK);
    ref_bn(x, want, 1, 2, 3, s, b, m, v, 0.5, true);
    check_f32(&h.out, want, 6, 1e-6);
    kh_free(&h);
    /* rank 1: one channel (9 on) */
    osc_tensor t1 = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, x);
    osc_tensor p1[4] = {kh_tensor(OSC_FLOAT, 1, (int64_t[]){1}, &s[1]),
                        kh_tensor(OSC_FLOAT, 1, (int64_t[]){1}, &b[1]),
                        kh_tensor(OSC_FLOAT, 1, (int64_t[]){1}, &m[1]),
                        kh_tensor(OSC_FLOAT, 1, (int64_t[]){1}, &v[1])};
    kh_init_since(&h, "BatchNormalization", 9, 9);
    assert_int_equal(run_bn(&h, &t1, p1, 1), OSC_OK);
    ref_bn(x, want, 3, 1, 1, &s[1], &b[1], &m[1], &v[1], (double)1e-5f, true);
    check_f32(&h.out, want, 3, 1e-6);
    kh_free(&h);
}

/* spatial = 0 (versions 1, 6, 7): one parameter per element of a sample */
static void test_batchnorm_non_spatial(void **state) {
    (void)state;
    static const float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, s[4] = {1, 2, 3, 4}, b[4] = {0, 1, 0, 1},
                       m[4] = {1, 1, 2, 2}, v[4] = {1, 4, 9, 16};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 3, (int64_t[]){2, 2, 2}, x);
    osc_tensor p[4] = {kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 2}, s),
                       kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 2}, b),
                       kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 2}, m),
                       kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 2}, v)};
    double want[8];
    ref_bn(x, want, 2, 2, 2, s, b, m, v, (double)1e-5f, false);
    kh h;
    kh_init_since(&h, "BatchNormalization", 7, 7);
    kh_attr_int(&h, "spatial", 0);
    assert_int_equal(run_bn(&h, &tx, p, 1), OSC_OK);
    check_f32(&h.out, want, 8, 1e-6);
    kh_free(&h);
    /* the same parameters with spatial = 1 have the wrong shape */
    kh_init_since(&h, "BatchNormalization", 7, 7);
    assert_int_equal(run_bn(&h, &tx, p, 1), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'scale'");
    kh_assert_msg_has(&h, "has shape [2,2]");
    kh_assert_msg_has(&h, "C = 2");
    kh_free(&h);
    /* spatial does not exist from 9 */
    kh_init_since(&h, "BatchNormalization", 9, 9);
    kh_attr_int(&h, "spatial", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'spatial'");
}

/* 14 lets the statistics have their own dtype; 15 scale and B too. */
static void test_batchnorm_mixed_types(void **state) {
    (void)state;
    static const uint16_t x[2] = {0x3c00, 0x4000}; /* float16 1, 2 */
    static const float s[1] = {2}, b[1] = {1};
    static const double m[1] = {1}, v[1] = {3};
    osc_tensor tx = kh_tensor(OSC_FLOAT16, 2, (int64_t[]){2, 1}, x);
    osc_tensor p[4] = {kh_tensor(OSC_FLOAT, 1, (int64_t[]){1}, s),
                       kh_tensor(OSC_FLOAT, 1, (int64_t[]){1}, b),
                       kh_tensor(OSC_DOUBLE, 1, (int64_t[]){1}, m),
                       kh_tensor(OSC_DOUBLE, 1, (int64_t[]){1}, v)};
    kh h;
    kh_init_since(&h, "BatchNormalization", 15, 15);
    kh_attr_float(&h, "epsilon", 1.0f);
    if (run_bn(&h, &tx, p, 1)) fail_msg("%s", h.err.msg);
    /* (x - 1) / 2 * 2 + 1: 1 and 2 exactly */
    assert_int_equal(h.out.dtype, OSC_FLOAT16);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3c00);
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x4000);
    kh_free(&h);
    /* 14: scale must be X's dtype */
    kh_init_since(&h, "BatchNormalization", 14, 14);
    assert_int_equal(run_bn(&h, &tx, p, 1), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'scale'");
    kh_assert_msg_has(&h, "dtype float but input 0 'X'");
    kh_free(&h);
    /* 15: mean and var must agree */
    osc_tensor q[4] = {p[0], p[1], p[2], kh_tensor(OSC_FLOAT, 1, (int64_t[]){1}, s)};
    kh_init_since(&h, "BatchNormalization", 15, 15);
    assert_int_equal(run_bn(&h, &tx, q, 1), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 4 'var'");
    kh_free(&h);
    /* before 14 every input has X's dtype */
    kh_init_since(&h, "BatchNormalization", 9, 9);
    assert_int_equal(run_bn(&h, &tx, p, 1), OSC_ERR_SHAPE);
    kh_free(&h);
}

/* training_mode = 1 (14 on): batch mean and population variance; running statistics out. */
static void test_batchnorm_training(void **state) {
    (void)state;
    /* channel 0: {1, 3, 5, 7} mean 4 var 5; channel 1: {2, 4, 2, 4} mean 3 var 1 */
    static const float x[8] = {1, 3, 2, 4, 5, 7, 2, 4}, s[2] = {1, 1}, b[2] = {0, 10},
                       m[2] = {0, 0}, v[2] = {1, 1};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 3, (int64_t[]){2, 2, 2}, x);
    osc_tensor p[4] = {kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, s),
                       kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, b),
                       kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, m),
                       kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, v)};
    kh h;
    kh_init_since(&h, "BatchNormalization", 15, 15);
    kh_attr_int(&h, "training_mode", 1);
    kh_attr_float(&h, "momentum", 0.5f);
    kh_attr_float(&h, "epsilon", 0.0f);
    assert_int_equal(run_bn(&h, &tx, p, 3), OSC_OK);
    const double r5 = 1 / sqrt(5.0);
    const double wy[8] = {-3 * r5, -1 * r5, 9, 11, 1 * r5, 3 * r5, 9, 11};
    check_f32(&h.outs[0], wy, 8, 1e-6);
    static const double wm[2] = {2, 1.5}, wv[2] = {3, 1}; /* in * 0.5 + batch * 0.5 */
    check_f32(&h.outs[1], wm, 2, 1e-7);
    check_f32(&h.outs[2], wv, 2, 1e-7);
    kh_free(&h);
    /* Y alone is fine too */
    kh_init_since(&h, "BatchNormalization", 14, 14);
    kh_attr_int(&h, "training_mode", 1);
    kh_attr_float(&h, "epsilon", 0.0f);
    assert_int_equal(run_bn(&h, &tx, p, 1), OSC_OK);
    check_f32(&h.out, wy, 8, 1e-6);
    kh_free(&h);
    /* extra outputs without training mode, and before 14 */
    kh_init_since(&h, "BatchNormalization", 15, 15);
    assert_int_equal(run_bn(&h, &tx, p, 3), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "only with training_mode = 1");
    kh_free(&h);
    kh_init_since(&h, "BatchNormalization", 9, 9);
    assert_int_equal(run_bn(&h, &tx, p, 3), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "versions before 14 are not supported");
    kh_free(&h);
    kh_init_since(&h, "BatchNormalization", 15, 15);
    kh_attr_int(&h, "training_mode", 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "'training_mode' = 2; allowed: 0 or 1");
    kh_init_since(&h, "BatchNormalization", 14, 14);
    kh_attr_int(&h, "is_test", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'is_test'");
}

static void test_batchnorm_errors(void **state) {
    (void)state;
    static const float x[6] = {0}, s3[3] = {1, 1, 1};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 3, (int64_t[]){1, 2, 3}, x);
    osc_tensor p2 = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, s3);
    osc_tensor p3 = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, s3);
    osc_tensor p[4] = {p2, p2, p3, p2};
    kh h;
    kh_init_since(&h, "BatchNormalization", 15, 15);
    assert_int_equal(run_bn(&h, &tx, p, 1), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "node 'n0' (BatchNormalization-15): input 3 'mean'");
    kh_assert_msg_has(&h, "has shape [3]; X [1,2,3] needs shape [C] with C = 2");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    /* a scalar X */
    osc_tensor sx = kh_tensor(OSC_FLOAT, 0, NULL, x);
    osc_tensor q[4] = {p2, p2, p2, p2};
    kh_init_since(&h, "BatchNormalization", 15, 15);
    assert_int_equal(run_bn(&h, &sx, q, 1), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "rank >= 1");
    kh_free(&h);
    /* a missing input */
    const osc_tensor *in[5] = {&tx, &p2, &p2, &p2, NULL};
    kh_init_since(&h, "BatchNormalization", 15, 15);
    assert_int_equal(kh_run(&h, 5, in), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "input 4 'var' is required");
    kh_free(&h);
}

/* ---- LayerNormalization ---- */

/* rows of n: (x - mean) / sqrt(var + eps) * s[j % ns] + b[j % nb] (b may be NULL) */
static void ref_ln(const float *x, double *y, double *mean, double *inv, int64_t rows, int64_t n,
                   double eps, const float *s, int64_t ns, const float *b, int64_t nb) {
    for (int64_t r = 0; r < rows; r++) {
        double m = 0, v = 0;
        for (int64_t j = 0; j < n; j++) m += x[r * n + j] / (double)n;
        for (int64_t j = 0; j < n; j++) v += (x[r * n + j] - m) * (x[r * n + j] - m) / (double)n;
        mean[r] = m;
        inv[r] = 1 / sqrt(v + eps);
        for (int64_t j = 0; j < n; j++)
            y[r * n + j] = (x[r * n + j] - m) * inv[r] * s[j % ns] + (b ? b[j % nb] : 0);
    }
}

static void test_layernorm(void **state) {
    (void)state;
    static const float x[6] = {1, 2, 4, -3, 0, 3}, s[3] = {1, 2, 0.5f}, b[3] = {0, 1, -1};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, x);
    osc_tensor ts = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, s);
    osc_tensor tb = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, b);
    const osc_tensor *in[3] = {&tx, &ts, &tb};
    double y[6], mean[2], inv[2];
    ref_ln(x, y, mean, inv, 2, 3, (double)1e-5f, s, 3, b, 3);
    near(mean[1], 0, 0, 1);
    near(inv[1], 1 / sqrt(6 + 1e-5), 1e-12, 1); /* [-3, 0, 3]: variance 6 */
    kh h;
    kh_init_since(&h, "LayerNormalization", 17, 17);
    assert_int_equal(kh_run_multi(&h, 3, in, 3), OSC_OK);
    check_f32(&h.outs[0], y, 6, 1e-6);
    assert_int_equal(h.outs[1].rank, 2);
    assert_int_equal(h.outs[1].dims[0], 2);
    assert_int_equal(h.outs[1].dims[1], 1);
    check_f32(&h.outs[1], mean, 2, 1e-6);
    check_f32(&h.outs[2], inv, 2, 1e-6);
    kh_free(&h);
    /* axis 0: one vector of 6; Scale [2, 3] and no B; Mean [1, 1] */
    static const float s6[6] = {1, 2, 3, 4, 5, 6};
    osc_tensor ts6 = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, s6);
    const osc_tensor *in2[2] = {&tx, &ts6};
    kh_init_since(&h, "LayerNormalization", 17, 17);
    kh_attr_int(&h, "axis", 0);
    kh_attr_float(&h, "epsilon", 0.25f);
    assert_int_equal(kh_run_multi(&h, 2, in2, 2), OSC_OK);
    ref_ln(x, y, mean, inv, 1, 6, 0.25, s6, 6, NULL, 1);
    check_f32(&h.outs[0], y, 6, 1e-6);
    assert_int_equal(h.outs[1].dims[0], 1);
    check_f32(&h.outs[1], mean, 1, 1e-6);
    kh_free(&h);
    /* Scale of one element broadcasts; stash_type 16 gives bfloat16 statistics */
    osc_tensor t1 = kh_tensor(OSC_FLOAT, 1, (int64_t[]){1}, &s[1]);
    const osc_tensor *in3[2] = {&tx, &t1};
    kh_init_since(&h, "LayerNormalization", 17, 17);
    kh_attr_int(&h, "stash_type", 16);
    assert_int_equal(kh_run_multi(&h, 2, in3, 3), OSC_OK);
    ref_ln(x, y, mean, inv, 2, 3, (double)1e-5f, &s[1], 1, NULL, 1);
    check_f32(&h.outs[0], y, 6, 1e-6);
    assert_int_equal(h.outs[1].dtype, OSC_BFLOAT16);
    assert_int_equal(((uint16_t *)h.outs[1].data)[0], 0x4015); /* 7/3 -> 2.328125 */
    assert_int_equal(((uint16_t *)h.outs[1].data)[1], 0x0000);
    kh_free(&h);
}

static void test_layernorm_half_and_errors(void **state) {
    (void)state;
    /* float16 [1, 3]: mean 2, variance 2/3, eps 1/3: inv 1; y = x - 2 exactly */
    static const uint16_t x[3] = {0x3c00, 0x4000, 0x4200}, one[1] = {0x3c00};
    osc_tensor tx = kh_tensor(OSC_FLOAT16, 1, (int64_t[]){3}, x);
    osc_tensor ts = kh_tensor(OSC_FLOAT16, 1, (int64_t[]){1}, one);
    kh h;
    kh_init_since(&h, "LayerNormalization", 17, 17);
    kh_attr_float(&h, "epsilon", 1.0f / 3);
    assert_int_equal(kh_run2(&h, &tx, &ts), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0xbc00);
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x0000);
    assert_int_equal(((uint16_t *)h.out.data)[2], 0x3c00);
    kh_free(&h);
    /* Scale of another dtype, a Scale that does not broadcast, a bad axis, a bad stash_type */
    static const float f[3] = {1, 2, 3};
    osc_tensor tf = kh_tensor(OSC_FLOAT, 1, (int64_t[]){1}, f);
    kh_init_since(&h, "LayerNormalization", 17, 17);
    assert_int_equal(kh_run2(&h, &tx, &tf), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'Scale'");
    kh_free(&h);
    osc_tensor x23 = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 3}, f);
    osc_tensor s2 = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, f);
    kh_init_since(&h, "LayerNormalization", 17, 17);
    assert_int_equal(kh_run2(&h, &x23, &s2), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'Scale' () has shape [2], which does not broadcast to "
                          "input 0 'X' [1,3]");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    kh_init_since(&h, "LayerNormalization", 17, 17);
    kh_attr_int(&h, "axis", 2);
    assert_int_equal(kh_run2(&h, &x23, &tf), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "'axis' = 2 is out of range [-2, 1]");
    kh_free(&h);
    kh_init_since(&h, "LayerNormalization", 17, 17);
    kh_attr_int(&h, "stash_type", 11);
    kh_init_fails(&h, OSC_ERR_MODEL, "'stash_type' = 11; allowed: 1 (float) or 16 (bfloat16)");
}

/* ---- Dropout ---- */

static void test_dropout(void **state) {
    (void)state;
    static const float x[3] = {1.5f, -2, 0};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, x);
    const osc_tensor *in1[1] = {&tx};
    static const uint8_t ones[3] = {1, 1, 1};
    static const float fones[3] = {1, 1, 1};
    kh h;
    /* before 10 the mask has data's dtype (1.0 = kept), from 10 it is bool */
    static const int64_t k_old[][2] = {{1, 1}, {6, 6}, {7, 7}, {10, 10}};
    for (size_t i = 0; i < 4; i++) {
        kh_init_since(&h, "Dropout", k_old[i][0], k_old[i][1]);
        kh_attr_float(&h, "ratio", 0.25f);
        if (k_old[i][0] < 7) kh_attr_int(&h, "is_test", 1);
        assert_int_equal(kh_run_multi(&h, 1, in1, 2), OSC_OK);
        assert_memory_equal(h.outs[0].data, x, sizeof x);
        if (k_old[i][0] < 10) {
            assert_int_equal(h.outs[1].dtype, OSC_FLOAT);
            assert_memory_equal(h.outs[1].data, fones, sizeof fones);
        } else {
            assert_int_equal(h.outs[1].dtype, OSC_BOOL);
            assert_memory_equal(h.outs[1].data, ones, sizeof ones);
        }
        assert_int_equal(h.n_warnings, 0);
        kh_free(&h);
    }
    /* versions 1 and 6 with is_test = 0 run in test mode, with a warning */
    kh_init_since(&h, "Dropout", 6, 6);
    assert_int_equal(kh_run1(&h, &tx), OSC_OK);
    assert_int_equal(h.n_warnings, 1);
    assert_memory_equal(h.out.data, x, sizeof x);
    kh_free(&h);
    kh_init_since(&h, "Dropout", 7, 7);
    kh_attr_int(&h, "is_test", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'is_test'");
    kh_init_since(&h, "Dropout", 12, 12);
    kh_attr_float(&h, "ratio", 0.5f);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'ratio'");
}

static void test_dropout_inputs(void **state) {
    (void)state;
    static const float x[3] = {1.5f, -2, 0}, r0[1] = {0}, r5[1] = {0.5f}, r15[1] = {1.5f};
    static const uint8_t yes[1] = {1}, no[1] = {0}, ones[3] = {1, 1, 1};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, x);
    osc_tensor t0 = kh_tensor(OSC_FLOAT, 0, NULL, r0), t5 = kh_tensor(OSC_FLOAT, 0, NULL, r5);
    osc_tensor t15 = kh_tensor(OSC_FLOAT, 0, NULL, r15);
    osc_tensor ty = kh_tensor(OSC_BOOL, 0, NULL, yes), tn = kh_tensor(OSC_BOOL, 0, NULL, no);
    kh h;
    /* training_mode false: ratio ignored; true with ratio 0: the same copy */
    const osc_tensor *cases[3][3] = {{&tx, &t5, &tn}, {&tx, &t0, &ty}, {&tx, NULL, NULL}};
    for (int i = 0; i < 3; i++) {
        kh_init_since(&h, "Dropout", 13, 13);
        kh_attr_int(&h, "seed", 7);
        assert_int_equal(kh_run_multi(&h, 3, cases[i], 2), OSC_OK);
        assert_memory_equal(h.outs[0].data, x, sizeof x);
        assert_memory_equal(h.outs[1].data, ones, sizeof ones);
        kh_free(&h);
    }
    /* training: numpy's draws after np.random.seed(0) are 0.5488135039273248,
     * 0.7151893663724195, 0.6027633760716439; after seed(1) 0.417022004702574,
     * 0.7203244934421581, 0.00011437481734488664. Kept when draw >= ratio, scaled 1/(1-r). */
    static const float r6[1] = {0.6f};
    osc_tensor t6 = kh_tensor(OSC_FLOAT, 0, NULL, r6);
    const osc_tensor *train6[3] = {&tx, &t6, &ty}, *dflt[3] = {&tx, NULL, &ty};
    kh_init_since(&h, "Dropout", 12, 12);
    assert_int_equal(kh_run_multi(&h, 3, train6, 2), OSC_OK);
    static const uint8_t m6[3] = {0, 1, 1};
    const double w6[3] = {0, -2 / (double)(1 - 0.6f), 0};
    check_f32(&h.outs[0], w6, 3, 1e-6);
    assert_memory_equal(h.outs[1].data, m6, sizeof m6);
    kh_free(&h);
    kh_init_since(&h, "Dropout", 22, 22); /* ratio 0.5 by default: seed 0 keeps all three */
    assert_int_equal(kh_run(&h, 3, dflt), OSC_OK);
    static const double w5[3] = {3, -4, 0};
    check_f32(&h.out, w5, 3, 0);
    kh_free(&h);
    kh_init_since(&h, "Dropout", 13, 13);
    kh_attr_int(&h, "seed", 1);
    assert_int_equal(kh_run_multi(&h, 3, train6, 2), OSC_OK);
    static const uint8_t m6s1[3] = {0, 1, 0};
    check_f32(&h.outs[0], w6, 3, 1e-6); /* x[2] is 0 either way */
    assert_memory_equal(h.outs[1].data, m6s1, sizeof m6s1);
    kh_free(&h);
    kh_init_since(&h, "Dropout", 13, 13);
    kh_attr_int(&h, "seed", -1);
    kh_init_fails(&h, OSC_ERR_MODEL, "'seed' = -1 is out of range [0, 4294967295]");
    const osc_tensor *bad[3] = {&tx, &t15, &ty};
    kh_init_since(&h, "Dropout", 22, 22);
    assert_int_equal(kh_run(&h, 3, bad), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "node 'n0' (Dropout-22): input 1 'ratio' () = 1.5 is out of range "
                          "[0, 1)");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    /* ratio must be a scalar; training_mode a bool */
    const osc_tensor *vec[2] = {&tx, &tx}, *notbool[3] = {&tx, NULL, &t0};
    kh_init_since(&h, "Dropout", 13, 13);
    assert_int_equal(kh_run(&h, 2, vec), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'ratio' () has shape [3]");
    kh_free(&h);
    kh_init_since(&h, "Dropout", 13, 13);
    assert_int_equal(kh_run(&h, 3, notbool), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "input 2 'training_mode'");
    kh_free(&h);
    /* float8 data from 22, in place */
    uint8_t f8[2] = {0x38, 0xc0};
    osc_tensor t8 = kh_tensor(OSC_FLOAT8E4M3FN, 1, (int64_t[]){2}, f8);
    const osc_tensor *in8[1] = {&t8};
    kh_init_since(&h, "Dropout", 22, 22);
    assert_int_equal(kh_run_inplace(&h, 1, in8), OSC_OK);
    assert_int_equal(f8[0], 0x38);
    assert_int_equal(f8[1], 0xc0);
    kh_free(&h);
    kh_init_since(&h, "Dropout", 21, 13);
    assert_int_equal(kh_run(&h, 1, in8), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
}

/* Every row runs on every dtype of its type constraint (all inputs of that dtype; Dropout's
 * training_mode bool): the kernels index their loop tables by dtype without a check. */
static void test_every_row_every_dtype(void **state) {
    (void)state;
    static const char *const k_ops[] = {"Softmax", "LogSoftmax", "BatchNormalization",
                                        "LayerNormalization", "Dropout"};
    static uint64_t zero[2];
    int runs = 0;
    for (size_t r = 0; r < osc_kernel_count(); r++) {
        const osc_kernel *row = osc_kernel_at(r);
        bool mine = false;
        for (size_t i = 0; i < 5 && !mine; i++) mine = strcmp(row->op, k_ops[i]) == 0;
        if (!mine) continue;
        for (int32_t d = 1; d < OSC_DTYPE_COUNT; d++) {
            if (!(osc_kernel_types(row, 0) & OSC_TS(d))) continue;
            /* data [1, 1] (Softmax's default axis 1 before 13 needs rank 2), the rest [1] */
            osc_tensor x = kh_tensor(d, 2, (int64_t[]){1, 1}, zero);
            osc_tensor p = kh_tensor(d, 1, (int64_t[]){1}, zero);
            osc_tensor bl = kh_tensor(OSC_BOOL, 1, (int64_t[]){1}, zero);
            const bool dropout = !strcmp(row->op, "Dropout");
            const osc_tensor *in[5] = {&x, dropout ? NULL : &p, dropout ? &bl : &p, &p, &p};
            kh h;
            kh_init(&h, row->op, row->since);
            if (!strcmp(row->op, "BatchNormalization")) kh_attr_float(&h, "epsilon", 1.0f);
            osc_status st = kh_run_multi(&h, row->inputs.max, in, row->outputs_min ? 2 : 1);
            if (!strcmp(row->op, "BatchNormalization") && st == OSC_ERR_UNSUPPORTED)
                st = kh_run(&h, 5, in); /* one output outside training mode */
            if (st)
                fail_msg("%s-%lld on %s: %s", row->op, (long long)row->since,
                         osc_dtype_get(d)->name, h.err.msg);
            kh_free(&h);
            runs++;
        }
    }
    assert_true(runs > 50);
}

/* ---- through the engine: optional outputs ---- */

/* A one-node model: op at opset 22 on x float [2], outputs named outs[0..n_out-1] ("" for an
 * omitted one), each declared float [2] except "" and "m" (bool). */
static osc_status load_one(const char *op, int n_out, const char *const *outs, osc_model **m,
                           char *msg) {
    static const int64_t d[1] = {2};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 22);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, d, NULL);
    const char *const in[1] = {"x"};
    osc_mw_node(mw, op, "n", 1, in, n_out, outs);
    for (int j = 0; j < n_out; j++)
        if (outs[j][0]) osc_mw_output(mw, outs[j], strcmp(outs[j], "m") ? OSC_FLOAT : OSC_BOOL,
                                      1, d, NULL);
    void *buf = NULL;
    size_t len = 0;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    osc_status st = osc_model_load_buffer(buf, len, NULL, NULL, m, msg, 512);
    free(buf);
    return st;
}

static void test_optional_outputs_in_a_model(void **state) {
    (void)state;
    char msg[512];
    osc_model *m = NULL;
    /* Dropout with its mask, then with a trailing empty output name (as absent) */
    static const char *const with_mask[2] = {"y", "m"}, *const empty_mask[2] = {"y", ""};
    for (int k = 0; k < 2; k++) {
        if (load_one("Dropout", 2, k ? empty_mask : with_mask, &m, msg)) fail_msg("%s", msg);
        assert_int_equal(osc_model_output_count(m), k ? 1 : 2);
        osc_session *s = NULL;
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        static const float x[2] = {1, -2};
        osc_tensor t = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, x), y;
        assert_int_equal(osc_session_set_input(s, "x", &t), OSC_OK);
        assert_int_equal(osc_session_run(s), OSC_OK);
        assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
        assert_memory_equal(y.data, x, sizeof x);
        if (!k) {
            assert_int_equal(osc_session_output(s, 1, &y), OSC_OK);
            assert_int_equal(y.dtype, OSC_BOOL);
            assert_memory_equal(y.data, "\1\1", 2);
        }
        osc_session_free(s);
        osc_model_free(m);
    }
    /* three outputs: one more than Dropout has */
    static const char *const three[3] = {"y", "m", "z"};
    assert_int_equal(load_one("Dropout", 3, three, &m, msg), OSC_ERR_MODEL);
    assert_non_null(strstr(msg, "expected 1 to 3 inputs and 1 to 2 output(s)"));
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_rows_resolve),
    cmocka_unit_test(test_softmax_11_vs_13),
    cmocka_unit_test(test_softmax_stable),
    cmocka_unit_test(test_softmax_half),
    cmocka_unit_test(test_softmax_errors),
    cmocka_unit_test(test_batchnorm_inference),
    cmocka_unit_test(test_batchnorm_non_spatial),
    cmocka_unit_test(test_batchnorm_mixed_types),
    cmocka_unit_test(test_batchnorm_training),
    cmocka_unit_test(test_batchnorm_errors),
    cmocka_unit_test(test_layernorm),
    cmocka_unit_test(test_layernorm_half_and_errors),
    cmocka_unit_test(test_dropout),
    cmocka_unit_test(test_dropout_inputs),
    cmocka_unit_test(test_every_row_every_dtype),
    cmocka_unit_test(test_optional_outputs_in_a_model),
)
