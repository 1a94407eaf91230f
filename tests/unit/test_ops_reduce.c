/* test_ops_reduce.c: the Reduce* kernels and ArgMin run through kharness; expected values are
 * worked out by hand in the comments (or, for logs and roots, the formula written out in double
 * here, never the kernel's own path). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ops/registry.h"
#include "core/dtype.h"
#include "kharness.h"
#include "tests/support/check.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define N(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))

static osc_tensor T(int32_t dtype, int32_t rank, const int64_t *dims, const void *data) {
    return kh_tensor(dtype, rank, dims, data);
}

static const int64_t k_empty[1]; /* a stand-in pointer for zero-element tensors */

static void expect_floats(const osc_tensor *t, const double *want, int32_t n) {
    assert_int_equal(t->dtype, OSC_FLOAT);
    assert_int_equal(osc_tensor_count(t), n);
    for (int32_t i = 0; i < n; i++) {
        double got = ((const float *)t->data)[i];
        if (!(fabs(got - want[i]) <= 1e-6 * fabs(want[i]) + 1e-6))
            fail_msg("element %d: %.9g, expected %.9g", (int)i, got, want[i]);
    }
}

static void expect_msg(const kh *h, const char *part) {
    if (!strstr(h->err.msg, part)) fail_msg("message '%s' lacks '%s'", h->err.msg, part);
}

static void expect_fail(kh *h, osc_status got, osc_status want, const char *part) {
    if (got != want)
        fail_msg("status %s, expected %s (%s)", osc_status_name(got), osc_status_name(want),
                 h->err.msg);
    if (part) expect_msg(h, part);
}

/* Runs op at opset on x. axes: NULL for none; given as the attribute when attr, else as input 1
 * (n values, k_empty for an empty list). keepdims/noop < 0: attribute not set. */
static osc_status reduce(kh *h, const char *op, int64_t opset, osc_tensor x, const int64_t *axes,
                         int64_t n, bool attr, int64_t keepdims, int64_t noop) {
    static osc_tensor t[2];
    t[0] = x;
    t[1] = T(OSC_INT64, 1, D(n), axes);
    const osc_tensor *in[] = {&t[0], &t[1]};
    kh_init(h, op, opset);
    if (axes && attr) kh_attr_ints(h, "axes", axes, (size_t)n);
    if (keepdims >= 0) kh_attr_int(h, "keepdims", keepdims);
    if (noop >= 0) kh_attr_int(h, "noop_with_empty_axes", noop);
    return kh_run(h, axes && !attr ? 2 : 1, in);
}

/* [3,2,2] with x[i][j][k] = 1 + 4i + 2j + k; along axis 1 the pairs are (1,3) (2,4) (5,7) (6,8)
 * (9,11) (10,12). */
static const float k_x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static const int64_t k_pairs[6][2] = {{1, 3}, {2, 4}, {5, 7}, {6, 8}, {9, 11}, {10, 12}};

static double lse2(double a, double b) { return log(exp(a) + exp(b)); }

/* ReduceSum along the last axis only (eight outputs at a time, then the rest): every output
 * the left-to-right sum from its first element, bit for bit, in float and double; a row
 * of -0.0 stays -0.0, a NaN stays NaN; axis -1 and axes (1, 2) of [., ., 1] alike. */
static void sum_last_axis_in_order(void **state) {
    (void)state;
    enum { A = 13, B = 3, C = 19 }; /* 39 outputs: four groups of eight and seven more */
    float xf[A * B * C];
    double xd[A * B * C];
    uint32_t g = 11;
    for (int i = 0; i < A * B * C; i++) {
        g = g * 1664525u + 1013904223u;
        xd[i] = xf[i] = (float)((int32_t)(g >> 8) % 100000) / 997.0f;
    }
    for (int i = 0; i < C; i++) xd[5 * C + i] = xf[5 * C + i] = -0.0f; /* output 5: -0 */
    xd[9 * C + 4] = xf[9 * C + 4] = NAN;                              /* output 9: NaN */
    for (int dt = 0; dt < 2; dt++) {
        kh h;
        const int32_t dtype = dt ? OSC_DOUBLE : OSC_FLOAT;
        kh_expect_ok(&h, reduce(&h, "ReduceSum", 13, T(dtype, 3, D(A, B, C), dt ? (void *)xd : (void *)xf),
                             D(-1), 1, false, 0, -1));
        osc_check_shape(&h.out, dtype, 2, D(A, B));
        for (int e = 0; e < A * B; e++) {
            if (dt) {
                double want = xd[e * C];
                for (int i = 1; i < C; i++) want = want + xd[e * C + i];
                const double got = ((const double *)h.out.data)[e];
                if (memcmp(&got, &want, sizeof got) && !(isnan(got) && isnan(want)))
                    fail_msg("double output %d: %.17g, the sum in order gives %.17g", e, got, want);
            } else {
                float want = xf[e * C];
                for (int i = 1; i < C; i++) want = want + xf[e * C + i];
                const float got = ((const float *)h.out.data)[e];
                if (memcmp(&got, &want, sizeof got) && !(isnan(got) && isnan(want)))
                    fail_msg("float output %d: %.9g, the sum in order gives %.9g", e, got, want);
            }
        }
        assert_true(signbit(dt ? ((const double *)h.out.data)[5] : ((const float *)h.out.data)[5]));
        assert_true(isnan(dt ? ((const double *)h.out.data)[9] : ((const float *)h.out.data)[9]));
        kh_free(&h);
    }
}

/* Every reduction but LogSumExp over one axis of [5, 7, 37]: axis 1 (rows of outputs at a time)
 * and axis 2, the last (eight outputs at a time, then the rest): each output, bit for bit, the
 * fold in order over the axis of its elements' terms from the first, then finished, in float
 * and double, as reduce_rules.h states: sums left to right in the dtype; max and min by the
 * documented rule (a NaN on either side wins, the first of equal values (-0 and +0) stays). */
enum { F_SUM, F_SUMSQ, F_MEAN, F_PROD, F_L1, F_L2, F_LOGSUM, F_MAX, F_MIN, F_N };
static double fold_ref(int op, double a, double v) {
    if (op == F_PROD) return a * v;
    if (op != F_MAX && op != F_MIN) return a + v;
    if (isnan(a)) return a;
    if (isnan(v)) return v;
    return (op == F_MAX ? v > a : v < a) ? v : a;
}
static double term_d(int op, double v) {
    return op == F_SUMSQ || op == F_L2 ? v * v : op == F_L1 ? fabs(v) : v;
}
static float term_f(int op, float v) {
    return op == F_SUMSQ || op == F_L2 ? v * v : op == F_L1 ? fabsf(v) : v;
}
static double fin_d(int op, double a, int n) {
    return op == F_MEAN ? a / n : op == F_L2 ? sqrt(a) : op == F_LOGSUM ? log(a) : a;
}
static float fin_f(int op, float a, int n) {
    return op == F_MEAN       ? a / (float)n
           : op == F_L2     ? (float)sqrt((double)a)
           : op == F_LOGSUM ? (float)log((double)a) : a;
}

static void one_axis_in_order(void **state) {
    (void)state;
    enum { A = 5, B = 7, C = 37 };
    static const char *const ops[F_N] = {"ReduceSum", "ReduceSumSquare", "ReduceMean",
                                         "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
                                         "ReduceMax", "ReduceMin"};
    double xd[A * B * C];
    float xf[A * B * C];
    uint32_t g = 5;
    for (int i = 0; i < A * B * C; i++) {
        g = g * 1664525u + 1013904223u;
        const int k = (int)(g >> 24) % 16;
        const double v = (double)((int32_t)(g >> 4) % 1000) / 7;
        xd[i] = k == 0 ? NAN : k == 1 ? -0.0 : k == 2 ? 0.0 : v;
        xf[i] = (float)xd[i];
        xd[i] = xf[i];
    }
    for (int axis = 1; axis <= 2; axis++)
        for (int op = 0; op < F_N; op++)
            for (int dt = 0; dt < 2; dt++) {
                kh h;
                const int32_t dtype = dt ? OSC_DOUBLE : OSC_FLOAT;
                const osc_tensor x = T(dtype, 3, D(A, B, C), dt ? (void *)xd : (void *)xf);
                kh_expect_ok(&h, reduce(&h, ops[op], 18, x, D(axis), 1, false, 0, -1));
                /* output (u, v): the kept dims; the fold runs over the axis at stride st */
                const int nv = axis == 1 ? C : B, len = axis == 1 ? B : C, st = axis == 1 ? C : 1;
                osc_check_shape(&h.out, dtype, 2, D(A, nv));
                for (int u = 0; u < A; u++)
                    for (int v = 0; v < nv; v++) {
                        const int at = u * B * C + (axis == 1 ? v : v * C);
                        double wd = term_d(op, xd[at]);
                        float wf = term_f(op, xf[at]);
                        for (int i = 1; i < len; i++) {
                            wd = fold_ref(op, wd, term_d(op, xd[at + i * st]));
                            const float t = term_f(op, xf[at + i * st]);
                            wf = op == F_PROD ? wf * t
                                 : op == F_MAX || op == F_MIN ? (float)fold_ref(op, wf, t)
                                                              : wf + t;
                        }
                        wd = fin_d(op, wd, len);
                        wf = fin_f(op, wf, len);
                        const int e = u * nv + v;
                        const bool same = dt ? !memcmp(&((const double *)h.out.data)[e], &wd, 8)
                                             : !memcmp(&((const float *)h.out.data)[e], &wf, 4);
                        if (!same)
                            fail_msg("%s axis %d %s output (%d, %d) differs from the fold in "
                                     "order", ops[op], axis, dt ? "double" : "float", u, v);
                    }
                kh_free(&h);
            }
}

/* ======================= values of every reduction, every version ======================= */

static void every_reduction_axis1(void **state) {
    (void)state;
    static const char *const ops[] = {"ReduceSum", "ReduceSumSquare", "ReduceMean",
                                      "ReduceProd", "ReduceL1", "ReduceL2",
                                      "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
                                      "ReduceMin"};
    static const int64_t versions[] = {1, 11, 12, 13, 18, 20, 28};
    osc_tensor x = T(OSC_FLOAT, 3, D(3, 2, 2), k_x);
    for (int32_t o = 0; o < N(ops); o++) {
        double want[6];
        for (int32_t i = 0; i < 6; i++) {
            double a = (double)k_pairs[i][0], b = (double)k_pairs[i][1];
            double w[] = {a + b, a * a + b * b, (a + b) / 2, a * b, a + b,
                          sqrt(a * a + b * b), log(a + b), lse2(a, b), b, a};
            want[i] = w[o];
        }
        for (int32_t v = 0; v < N(versions); v++) {
            kh h;
            bool input = versions[v] >= (strcmp(ops[o], "ReduceSum") == 0 ? 13 : 18);
            kh_expect_ok(&h, reduce(&h, ops[o], versions[v], x, D(1), 1, !input, -1, -1));
            osc_check_shape(&h.out, OSC_FLOAT, 3, D(3, 1, 2));
            expect_floats(&h.out, want, 6);
            kh_free(&h);
            /* the same with keepdims 0 and the axis counted from the end */
            kh_expect_ok(&h, reduce(&h, ops[o], versions[v], x, D(-2), 1, !input, 0, -1));
            osc_check_shape(&h.out, OSC_FLOAT, 2, D(3, 2));
            expect_floats(&h.out, want, 6);
            kh_free(&h);
        }
    }
}

/* ---- every dtype each reduction's newest row allows, on the [3,2,2] input above ---- */

/* Element i of a real (or bool) tensor, as double. */
#define GET_FLOAT(T, p) ((double)*(const T *)(p))
#define GET_F16(T, p) ((double)osc_f16_to_f32(*(const uint16_t *)(p)))
#define GET_BF16(T, p) ((double)osc_bf16_to_f32(*(const uint16_t *)(p)))
#define GET_SINT(T, p) ((double)*(const T *)(p))
#define GET_UINT(T, p) ((double)*(const T *)(p))
#define GET_BOOL(T, p) ((double)*(const T *)(p))
#define GET_CASE(E, T, C) case E: return GET_##C(T, (const T *)t->data + i);
static double get(const osc_tensor *t, int64_t i) {
    switch (t->dtype) {
        OSC_REAL_TYPES(GET_CASE) GET_CASE(OSC_BOOL, uint8_t, BOOL)
    default: fail_msg("dtype %d", (int)t->dtype);
    }
    return 0;
}

/* x[i] = v of dtype (v small and whole: exact in every type). */
#define SET_FLOAT(T, p, v) (*(T *)(p) = (T)(v))
#define SET_F16(T, p, v) (*(uint16_t *)(p) = osc_f32_to_f16((float)(v)))
#define SET_BF16(T, p, v) (*(uint16_t *)(p) = osc_f32_to_bf16((float)(v)))
#define SET_SINT(T, p, v) (*(T *)(p) = (T)(v))
#define SET_UINT(T, p, v) (*(T *)(p) = (T)(v))
#define SET_BOOL(T, p, v) (*(T *)(p) = (T)((v) != 0))
#define SET_CASE(E, T, C) case E: SET_##C(T, (T *)buf + i, v); return sizeof(T);
static size_t set(int32_t dtype, void *buf, int64_t i, double v) {
    switch (dtype) {
        OSC_REAL_TYPES(SET_CASE) SET_CASE(OSC_BOOL, uint8_t, BOOL)
    default: fail_msg("dtype %d", (int)dtype);
    }
    return 0;
}

/* v (whole) stored into an integer dtype the way integer arithmetic does: modulo 2^bits. */
#define WRAP_CASE(E, T, C) case E: return (double)(T)iv;
static double wrap(int32_t dtype, double v) {
    int64_t iv = (int64_t)v;
    switch (dtype) {
        OSC_INT_TYPES(WRAP_CASE)
    default: return v;
    }
}

/* What the reduction o of the pair (a, b) stores in dtype (size bytes an element), from the value
 * in double: floats as is; integer sums, products and L1 wrap to the width, Mean truncates, the
 * ones computed in double (L2, LogSum, LogSumExp) truncate and saturate, NaN giving 0. */
static double expected(int32_t o, int32_t dtype, size_t size, double a, double b) {
    double w[] = {a + b, a * a + b * b, (a + b) / 2, a * b, fabs(a) + fabs(b),
                  sqrt(a * a + b * b), log(a + b), lse2(a, b), b > a ? b : a, b < a ? b : a};
    double v = w[o];
    bool fl = dtype == OSC_FLOAT || dtype == OSC_DOUBLE || dtype == OSC_FLOAT16 ||
              dtype == OSC_BFLOAT16;
    if (fl) return v;
    if (dtype == OSC_BOOL) return v != 0;
    if (o == 5 || o == 6 || o == 7) { /* L2, LogSum, LogSumExp */
        bool sgn = dtype == OSC_INT8 || dtype == OSC_INT16 || dtype == OSC_INT32 ||
                   dtype == OSC_INT64;
        double bits = 8.0 * (double)size;
        double lo = sgn ? -ldexp(1, (int)bits - 1) : 0;
        double hi = sgn ? ldexp(1, (int)bits - 1) - 1 : ldexp(1, (int)bits) - 1;
        if (isnan(v)) return 0;
        v = trunc(v);
        return v < lo ? lo : v > hi ? hi : v;
    }
    return wrap(dtype, trunc(v));
}

/* got equals want within tol (relative), NaN equal to NaN. */
static bool close_to(double got, double want, double tol) {
    if (isnan(want) || isnan(got)) return isnan(want) && isnan(got);
    return got == want || fabs(got - want) <= tol * fabs(want) + 1e-9;
}

/* The value an empty reduction stores in dtype (size bytes an element): sums 0, products 1, mean
 * NaN for floats and 0 for integers, logs and max the lowest value, min the highest. */
static double expected_empty(int32_t o, int32_t dtype, size_t size) {
    bool fl = dtype == OSC_FLOAT || dtype == OSC_DOUBLE || dtype == OSC_FLOAT16 ||
              dtype == OSC_BFLOAT16;
    bool sgn = dtype == OSC_INT8 || dtype == OSC_INT16 || dtype == OSC_INT32 || dtype == OSC_INT64;
    double bits = 8.0 * (double)size;
    double lo = fl ? -INFINITY : sgn ? -ldexp(1, (int)bits - 1) : 0;
    double hi = fl ? INFINITY : sgn ? ldexp(1, (int)bits - 1) - 1 : ldexp(1, (int)bits) - 1;
    if (dtype == OSC_BOOL) lo = 0, hi = 1;
    double w[] = {0, 0, fl ? NAN : 0, 1, 0, 0, lo, lo, lo, hi};
    return w[o];
}

static void every_dtype_every_reduction(void **state) {
    (void)state;
    static const char *const ops[] = {"ReduceSum", "ReduceSumSquare", "ReduceMean",
                                      "ReduceProd", "ReduceL1", "ReduceL2",
                                      "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
                                      "ReduceMin"};
    int tried = 0;
    for (int32_t o = 0; o < N(ops); o++) {
        const osc_kernel *row = osc_kernel_find("", ops[o], OSC_OPSET_NEWEST);
        assert_non_null(row);
        for (int32_t dt = 1; dt < OSC_DTYPE_COUNT; dt++) {
            if (!(row->types[0] & OSC_TS(dt))) continue;
            /* pairs along axis 1: (1,4) (3,-2) (-5,6) (7,-8) (100,120) (11,100): both orders,
             * signs (unsigned types take |v|), and values past int8 and uint8 */
            static const double vals[12] = {1, 3, 4, -2, -5, 7, 6, -8, 100, 11, 120, 100};
            uint64_t buf[12];
            bool uns = dt == OSC_UINT8 || dt == OSC_UINT16 || dt == OSC_UINT32 ||
                       dt == OSC_UINT64;
            size_t size = 0;
            for (int64_t i = 0; i < 12; i++)
                size = set(dt, buf, i, dt == OSC_BOOL ? (double)(i % 3 != 0)
                                       : uns            ? fabs(vals[i])
                                                        : vals[i]);
            osc_tensor x = T(dt, 3, D(3, 2, 2), buf);
            double want[6];
            for (int32_t i = 0; i < 6; i++)
                want[i] = expected(o, dt, size, get(&x, k_pairs[i][0] - 1),
                                   get(&x, k_pairs[i][1] - 1));
            kh h;
            kh_expect_ok(&h, reduce(&h, ops[o], OSC_OPSET_NEWEST, x, D(1), 1, false, 0, -1));
            osc_check_shape(&h.out, dt, 2, D(3, 2));
            double tol = dt == OSC_FLOAT16 ? 1e-3 : dt == OSC_BFLOAT16 ? 8e-3 : 1e-6;
            for (int32_t i = 0; i < 6; i++)
                if (!close_to(get(&h.out, i), want[i], tol))
                    fail_msg("%s on dtype %d, element %d: %.9g, expected %.9g", ops[o], (int)dt,
                             (int)i, get(&h.out, i), want[i]);
            kh_free(&h);
            /* floats: a NaN makes its own output element NaN, and only that one */
            if (dt == OSC_FLOAT || dt == OSC_DOUBLE || dt == OSC_FLOAT16 || dt == OSC_BFLOAT16) {
                set(dt, buf, 0, NAN); /* element 0 of pair 0 */
                kh_expect_ok(&h, reduce(&h, ops[o], OSC_OPSET_NEWEST, x, D(1), 1, false, 0, -1));
                for (int32_t i = 0; i < 6; i++)
                    if (!close_to(get(&h.out, i), i == 0 ? NAN : want[i], tol))
                        fail_msg("%s on dtype %d with a NaN: element %d is %.9g", ops[o],
                                 (int)dt, (int)i, get(&h.out, i));
                kh_free(&h);
            }
            /* the same over an empty axis: [3,0,2] reduced along axis 1 */
            osc_tensor e = T(dt, 3, D(3, 0, 2), buf);
            kh_expect_ok(&h, reduce(&h, ops[o], OSC_OPSET_NEWEST, e, D(1), 1, false, 0, -1));
            osc_check_shape(&h.out, dt, 2, D(3, 2));
            double empty = expected_empty(o, dt, size);
            for (int32_t i = 0; i < 6; i++)
                if (!close_to(get(&h.out, i), empty, 0))
                    fail_msg("%s on an empty axis of dtype %d, element %d: %.9g, expected %.9g",
                             ops[o], (int)dt, (int)i, get(&h.out, i), empty);
            kh_free(&h);
            tried++;
        }
    }
    fprintf(stderr, "%d (reduction, dtype) pairs\n", tried);
    assert_true(tried >= 10 * 8); /* at least the float and 32/64-bit integer types of each */
}

static void axes_sets_and_defaults(void **state) {
    (void)state;
    osc_tensor x = T(OSC_FLOAT, 3, D(3, 2, 2), k_x);
    kh h;
    /* axes [2, 0] (any order): over i and k: j=0: 1+2+5+6+9+10 = 33 -> mean 5.5; j=1 7.5 */
    kh_expect_ok(&h, reduce(&h, "ReduceMean", 18, x, D(2, 0), 2, false, 1, -1));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(1, 2, 1));
    osc_check_bytes(&h.out, (const float[]){5.5f, 7.5f}, 8);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceMax", 13, x, D(0, -1), 2, true, 0, -1));
    osc_check_shape(&h.out, OSC_FLOAT, 1, D(2));
    osc_check_bytes(&h.out, (const float[]){10, 12}, 8);
    kh_free(&h);
    /* no axes: all of them; keepdims 0 gives a scalar */
    kh_expect_ok(&h, reduce(&h, "ReduceMin", 18, x, NULL, 0, false, 0, -1));
    osc_check_shape(&h.out, OSC_FLOAT, 0, NULL);
    osc_check_bytes(&h.out, (const float[]){1}, 4);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceProd", 11, T(OSC_FLOAT, 2, D(2, 2), k_x), NULL, 0, true, -1,
                         -1));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(1, 1));
    osc_check_bytes(&h.out, (const float[]){24}, 4);
    kh_free(&h);
    /* an empty axes input without noop_with_empty_axes: all axes (1+...+12 = 78) */
    kh_expect_ok(&h, reduce(&h, "ReduceL1", 18, x, k_empty, 0, false, 1, 0));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(1, 1, 1));
    osc_check_bytes(&h.out, (const float[]){78}, 4);
    kh_free(&h);
    /* a rank-0 input reduces over nothing: the value itself (sum of squares: its square) */
    kh_expect_ok(&h, reduce(&h, "ReduceSumSquare", 18, T(OSC_FLOAT, 0, NULL, (const float[]){-3}),
                         NULL, 0, false, -1, -1));
    osc_check_shape(&h.out, OSC_FLOAT, 0, NULL);
    osc_check_bytes(&h.out, (const float[]){9}, 4);
    kh_free(&h);
}

/* noop_with_empty_axes (18): no reduction, but the non-reduction steps still apply */
static void noop_with_empty_axes(void **state) {
    (void)state;
    const float v[] = {-2, 0.5f, 4};
    osc_tensor x = T(OSC_FLOAT, 1, D(3), v);
    static const struct { const char *op; float want[3]; } cases[] = {
        {"ReduceMax", {-2, 0.5f, 4}},      {"ReduceMean", {-2, 0.5f, 4}},
        {"ReduceL1", {2, 0.5f, 4}},         {"ReduceL2", {2, 0.5f, 4}},
        {"ReduceSumSquare", {4, 0.25f, 16}}, {"ReduceProd", {-2, 0.5f, 4}},
    };
    for (int32_t c = 0; c < N(cases); c++) {
        kh h;
        /* with the axes input empty and with it absent */
        kh_expect_ok(&h, reduce(&h, cases[c].op, 18, x, k_empty, 0, false, -1, 1));
        osc_check_shape(&h.out, OSC_FLOAT, 1, D(3));
        osc_check_bytes(&h.out, cases[c].want, 12);
        kh_free(&h);
        kh_expect_ok(&h, reduce(&h, cases[c].op, 18, x, NULL, 0, false, 0, 1));
        osc_check_bytes(&h.out, cases[c].want, 12);
        kh_free(&h);
    }
    kh h;
    /* LogSum: log x (the spec's text: "ReduceLogSum returns the Log of input tensor") */
    const float pos[] = {1, 4};
    kh_expect_ok(&h, reduce(&h, "ReduceLogSum", 18, T(OSC_FLOAT, 1, D(2), pos), NULL, 0, false, -1,
                         1));
    expect_floats(&h.out, (const double[]){0, log(4.0)}, 2);
    kh_free(&h);
    /* an axis given: noop_with_empty_axes changes nothing */
    kh_expect_ok(&h, reduce(&h, "ReduceMax", 18, x, D(0), 1, false, 0, 1));
    osc_check_bytes(&h.out, (const float[]){4}, 4);
    kh_free(&h);
    /* not an attribute before 18 (ReduceSum: 13) */
    kh_init(&h, "ReduceMax", 13);
    kh_attr_int(&h, "noop_with_empty_axes", 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "noop_with_empty_axes");
    kh_free(&h);
}

/* ======================= types ======================= */

static void halves_round_once(void **state) {
    (void)state;
    kh h;
    /* float16 mean of 2048, 1, 1: 2050/3 = 683.33 -> 683.5 (0x6157) when rounded once; summed
     * in float16 it would be 2048/3 -> 682.5 (0x6155) */
    const uint16_t hx[] = {0x6800, 0x3c00, 0x3c00};
    kh_expect_ok(&h, reduce(&h, "ReduceMean", 18, T(OSC_FLOAT16, 1, D(3), hx), NULL, 0, false, 0,
                         -1));
    osc_check_bytes(&h.out, (const uint16_t[]){0x6157}, 2);
    kh_free(&h);
    /* float16 product 2 * 3 = 6 (0x4600); L1 of -1, 2: 3 (0x4200) */
    kh_expect_ok(&h, reduce(&h, "ReduceProd", 1, T(OSC_FLOAT16, 1, D(2), (const uint16_t[]){0x4000,
                         0x4200}), NULL, 0, true, 0, -1));
    osc_check_bytes(&h.out, (const uint16_t[]){0x4600}, 2);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceL1", 18, T(OSC_FLOAT16, 1, D(2), (const uint16_t[]){0xbc00,
                         0x4000}), NULL, 0, false, 0, -1));
    osc_check_bytes(&h.out, (const uint16_t[]){0x4200}, 2);
    kh_free(&h);
    /* bfloat16 1, 2, -3: max 2 (0x4000), min -3 (0xc040); from 13 only */
    const uint16_t bx[] = {0x3f80, 0x4000, 0xc040};
    osc_tensor xb = T(OSC_BFLOAT16, 1, D(3), bx);
    kh_expect_ok(&h, reduce(&h, "ReduceMax", 13, xb, NULL, 0, true, 0, -1));
    osc_check_bytes(&h.out, (const uint16_t[]){0x4000}, 2);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceMin", 18, xb, NULL, 0, false, 0, -1));
    osc_check_bytes(&h.out, (const uint16_t[]){0xc040}, 2);
    kh_free(&h);
    /* bfloat16 sum of squares 1 + 4 + 9 = 14 (0x4160) */
    kh_expect_ok(&h, reduce(&h, "ReduceSumSquare", 18, xb, NULL, 0, false, 0, -1));
    osc_check_bytes(&h.out, (const uint16_t[]){0x4160}, 2);
    kh_free(&h);
    expect_fail(&h, reduce(&h, "ReduceMax", 12, xb, NULL, 0, true, 0, -1), OSC_ERR_SHAPE,
                "bfloat16");
    kh_free(&h);
    /* double */
    kh_expect_ok(&h, reduce(&h, "ReduceL2", 18, T(OSC_DOUBLE, 1, D(2), (const double[]){3, -4}),
                         NULL, 0, false, 0, -1));
    osc_check_bytes(&h.out, (const double[]){5}, 8);
    kh_free(&h);
}

static void integer_types(void **state) {
    (void)state;
    kh h;
    /* int8/uint8 for max/min from 12 */
    osc_tensor i8 = T(OSC_INT8, 1, D(3), (const int8_t[]){-5, -2, -9});
    kh_expect_ok(&h, reduce(&h, "ReduceMax", 12, i8, NULL, 0, true, 0, -1));
    osc_check_bytes(&h.out, (const int8_t[]){-2}, 1);
    kh_free(&h);
    expect_fail(&h, reduce(&h, "ReduceMax", 11, i8, NULL, 0, true, 0, -1), OSC_ERR_SHAPE,
                "int8");
    kh_free(&h);
    expect_fail(&h, reduce(&h, "ReduceMean", 18, i8, NULL, 0, false, 0, -1), OSC_ERR_SHAPE,
                "int8");
    kh_free(&h);
    osc_tensor u8 = T(OSC_UINT8, 1, D(3), (const uint8_t[]){200, 7, 255});
    kh_expect_ok(&h, reduce(&h, "ReduceMin", 20, u8, NULL, 0, false, 0, -1));
    osc_check_bytes(&h.out, (const uint8_t[]){7}, 1);
    kh_free(&h);
    /* uint64 above 2^63 */
    osc_tensor u64 = T(OSC_UINT64, 1, D(2), (const uint64_t[]){UINT64_MAX, 5});
    kh_expect_ok(&h, reduce(&h, "ReduceMax", 13, u64, NULL, 0, true, 0, -1));
    osc_check_bytes(&h.out, (const uint64_t[]){UINT64_MAX}, 8);
    kh_free(&h);
    /* int32 product wraps: 65536 * 65536 = 2^32 = 0 modulo 2^32 */
    osc_tensor p32 = T(OSC_INT32, 1, D(2), (const int32_t[]){65536, 65536});
    kh_expect_ok(&h, reduce(&h, "ReduceProd", 13, p32, NULL, 0, true, 0, -1));
    osc_check_bytes(&h.out, (const int32_t[]){0}, 4);
    kh_free(&h);
    /* int32 mean truncates toward zero: (-7 + 0) / 2 = -3 */
    osc_tensor m32 = T(OSC_INT32, 1, D(2), (const int32_t[]){-7, 0});
    kh_expect_ok(&h, reduce(&h, "ReduceMean", 18, m32, NULL, 0, false, 0, -1));
    osc_check_bytes(&h.out, (const int32_t[]){-3}, 4);
    kh_free(&h);
    /* int64: L1 |-3| + 4 = 7, sum of squares 25, L2 5, LogSum log(7 + 13) = 2.99 -> 2,
     * LogSumExp log(e^-3 + e^4) = 4.0009 -> 4 */
    osc_tensor i64 = T(OSC_INT64, 1, D(2), (const int64_t[]){-3, 4});
    static const struct { const char *op; int64_t want; } cases[] = {
        {"ReduceL1", 7}, {"ReduceSumSquare", 25}, {"ReduceL2", 5}, {"ReduceLogSumExp", 4}};
    for (int32_t c = 0; c < N(cases); c++) {
        kh_expect_ok(&h, reduce(&h, cases[c].op, 18, i64, NULL, 0, false, 0, -1));
        osc_check_bytes(&h.out, &cases[c].want, 8);
        kh_free(&h);
    }
    kh_expect_ok(&h, reduce(&h, "ReduceLogSum", 13,
                         T(OSC_UINT32, 1, D(2), (const uint32_t[]){7, 13}), NULL, 0, true, 0,
                         -1));
    osc_check_bytes(&h.out, (const uint32_t[]){2}, 4);
    kh_free(&h);
    /* bool for max/min from 20 only: false < true */
    osc_tensor b = T(OSC_BOOL, 2, D(2, 2), (const uint8_t[]){0, 1, 0, 0});
    kh_expect_ok(&h, reduce(&h, "ReduceMax", 20, b, D(1), 1, false, 0, -1));
    osc_check_bytes(&h.out, (const uint8_t[]){1, 0}, 2);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceMin", 20, b, D(0), 1, false, 0, -1));
    osc_check_bytes(&h.out, (const uint8_t[]){0, 0}, 2);
    kh_free(&h);
    expect_fail(&h, reduce(&h, "ReduceMax", 18, b, D(1), 1, false, 0, -1), OSC_ERR_SHAPE,
                "bool");
    kh_free(&h);
}

/* ======================= NaN, infinities, empty sets ======================= */

static void nan_and_infinity(void **state) {
    (void)state;
    kh h;
    /* a NaN wins max and min (numpy) */
    osc_tensor xn = T(OSC_FLOAT, 1, D(3), (const float[]){1, NAN, 3});
    kh_expect_ok(&h, reduce(&h, "ReduceMax", 18, xn, NULL, 0, false, 0, -1));
    assert_true(isnan(((const float *)h.out.data)[0]));
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceMin", 11, xn, NULL, 0, true, 0, -1));
    assert_true(isnan(((const float *)h.out.data)[0]));
    kh_free(&h);
    /* log-sum-exp does not overflow: log(2 e^1000) = 1000 + log 2 */
    osc_tensor big = T(OSC_FLOAT, 1, D(2), (const float[]){1000, 1000});
    kh_expect_ok(&h, reduce(&h, "ReduceLogSumExp", 18, big, NULL, 0, false, 0, -1));
    expect_floats(&h.out, (const double[]){1000 + log(2.0)}, 1);
    kh_free(&h);
    /* -inf terms vanish, all -inf gives -inf, +inf gives +inf */
    osc_tensor li = T(OSC_FLOAT, 2, D(3, 2), (const float[]){-INFINITY, 0, -INFINITY, -INFINITY,
                                                             INFINITY, 5});
    kh_expect_ok(&h, reduce(&h, "ReduceLogSumExp", 13, li, D(1), 1, true, 0, -1));
    const float *y = h.out.data;
    assert_true(y[0] == 0.0f && y[1] == -INFINITY && y[2] == INFINITY);
    kh_free(&h);
}

static void empty_sets(void **state) {
    (void)state;
    kh h;
    osc_tensor xf = T(OSC_FLOAT, 2, D(2, 0), k_empty);
    /* reducing a zero-size axis: the spec's value of an empty reduction, per output element */
    static const struct { const char *op; float want; } cases[] = {
        {"ReduceMax", -INFINITY}, {"ReduceMin", INFINITY},      {"ReduceProd", 1},
        {"ReduceSum", 0},         {"ReduceSumSquare", 0},       {"ReduceL1", 0},
        {"ReduceL2", 0},          {"ReduceLogSum", -INFINITY}, {"ReduceLogSumExp", -INFINITY}};
    for (int32_t c = 0; c < N(cases); c++) {
        kh_expect_ok(&h, reduce(&h, cases[c].op, 18, xf, D(1), 1, false, 1, -1));
        osc_check_shape(&h.out, OSC_FLOAT, 2, D(2, 1));
        osc_check_bytes(&h.out, (const float[]){cases[c].want, cases[c].want}, 8);
        kh_free(&h);
    }
    kh_expect_ok(&h, reduce(&h, "ReduceMean", 18, xf, D(1), 1, false, 0, -1));
    assert_true(isnan(((const float *)h.out.data)[0]) && isnan(((const float *)h.out.data)[1]));
    kh_free(&h);
    /* integers: the type's lowest / highest value; bool false / true; float16 -inf */
    kh_expect_ok(&h, reduce(&h, "ReduceMax", 18, T(OSC_INT32, 1, D(0), k_empty), NULL, 0, false, 0,
                         -1));
    osc_check_bytes(&h.out, (const int32_t[]){INT32_MIN}, 4);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceMin", 18, T(OSC_UINT8, 1, D(0), k_empty), NULL, 0, false, 0,
                         -1));
    osc_check_bytes(&h.out, (const uint8_t[]){255}, 1);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceMin", 18, T(OSC_INT8, 1, D(0), k_empty), NULL, 0, false, 0,
                         -1));
    osc_check_bytes(&h.out, (const int8_t[]){127}, 1);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceMax", 20, T(OSC_BOOL, 1, D(0), k_empty), NULL, 0, false, 0,
                         -1));
    osc_check_bytes(&h.out, (const uint8_t[]){0}, 1);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceMin", 20, T(OSC_BOOL, 1, D(0), k_empty), NULL, 0, false, 0,
                         -1));
    osc_check_bytes(&h.out, (const uint8_t[]){1}, 1);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceMax", 13, T(OSC_FLOAT16, 1, D(0), k_empty), NULL, 0, true, 0,
                         -1));
    osc_check_bytes(&h.out, (const uint16_t[]){0xfc00}, 2);
    kh_free(&h);
    kh_expect_ok(&h, reduce(&h, "ReduceProd", 18, T(OSC_INT64, 1, D(0), k_empty), NULL, 0, false, 0,
                         -1));
    osc_check_bytes(&h.out, (const int64_t[]){1}, 8);
    kh_free(&h);
    /* an empty output (a kept dim of 0) writes nothing */
    kh_expect_ok(&h, reduce(&h, "ReduceLogSumExp", 18, T(OSC_FLOAT, 2, D(0, 3), k_empty), D(1), 1,
                         false, 1, -1));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(0, 1));
    kh_free(&h);
}

/* ======================= errors ======================= */

static void errors(void **state) {
    (void)state;
    osc_tensor x = T(OSC_FLOAT, 3, D(3, 2, 2), k_x);
    kh h;
    expect_fail(&h, reduce(&h, "ReduceMax", 18, x, D(3), 1, false, 1, -1), OSC_ERR_SHAPE,
                "input 1 'axes': value 3 at position 0 is out of range [-3, 2]");
    expect_msg(&h, "node 'n0' (ReduceMax-18)");
    kh_free(&h);
    expect_fail(&h, reduce(&h, "ReduceL2", 11, x, D(0, -4), 2, true, 1, -1), OSC_ERR_SHAPE,
                "attribute 'axes': value -4 at position 1 is out of range [-3, 2]");
    kh_free(&h);
    expect_fail(&h, reduce(&h, "ReduceProd", 18, x, D(1, -2), 2, false, 1, -1), OSC_ERR_SHAPE,
                "value -2 at position 1 repeats axis 1");
    kh_free(&h);
    /* axes input: int64 of rank 1 only */
    osc_tensor a32 = T(OSC_INT32, 1, D(1), (const int32_t[]){1});
    const osc_tensor *in[] = {&x, &a32};
    kh_init(&h, "ReduceMean", 18);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "input 1 'axes'");
    expect_msg(&h, "int32");
    kh_free(&h);
    osc_tensor a2 = T(OSC_INT64, 2, D(1, 1), D(1));
    in[1] = &a2;
    kh_init(&h, "ReduceMean", 18);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "expected rank 1");
    kh_free(&h);
    /* infer needs the axes data (the row's infer_reads) */
    osc_tensor a_nodata = T(OSC_INT64, 1, D(1), NULL);
    in[1] = &a_nodata;
    kh_init(&h, "ReduceMin", 18);
    assert_int_equal(h.kernel->infer_reads, 0x2);
    expect_fail(&h, kh_infer(&h, 2, in, 1), OSC_ERR_STATE, "axes");
    kh_free(&h);
    /* attributes: axes is an input from 18, an attribute before; keepdims is 0 or 1 */
    kh_init(&h, "ReduceSumSquare", 18);
    kh_attr_ints(&h, "axes", D(1), 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "unknown attribute 'axes'");
    kh_free(&h);
    kh_init(&h, "ReduceLogSumExp", 13);
    kh_attr_int(&h, "keepdims", 2);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "'keepdims' = 2 is out of range [0, 1]");
    kh_free(&h);
    /* versions: a row per changelog version; none before 1 */
    assert_int_equal(osc_kernel_find("", "ReduceMax", 12)->since, 12);
    assert_int_equal(osc_kernel_find("", "ReduceMax", 19)->since, 18);
    assert_int_equal(osc_kernel_find("", "ReduceMin", 28)->since, 20);
    assert_int_equal(osc_kernel_find("", "ReduceMean", 12)->since, 11);
    assert_int_equal(osc_kernel_find("", "ReduceL1", 17)->since, 13);
    assert_int_equal(osc_kernel_find("", "ReduceLogSumExp", 18)->inputs.max, 2);
    assert_int_equal(osc_kernel_find("", "ReduceProd", 17)->inputs.max, 1);
    assert_int_equal(osc_kernel_find("", "ArgMin", 12)->since, 12);
    assert_null(osc_kernel_find("", "ReduceMax", 0));
}

/* ======================= ArgMin ======================= */

static osc_status argmin(kh *h, int64_t opset, int64_t axis, int64_t keepdims, int64_t last,
                         osc_tensor x) {
    static osc_tensor t;
    t = x;
    const osc_tensor *in[] = {&t};
    kh_init(h, "ArgMin", opset);
    kh_attr_int(h, "axis", axis);
    if (keepdims >= 0) kh_attr_int(h, "keepdims", keepdims);
    if (last >= 0) kh_attr_int(h, "select_last_index", last);
    return kh_run(h, 1, in);
}

static void argmin_values(void **state) {
    (void)state;
    kh h;
    /* the spec's [[2, 1], [3, 10]]: axis 0 -> [[0, 0]], axis 1 -> [[1], [0]] */
    osc_tensor x = T(OSC_FLOAT, 2, D(2, 2), (const float[]){2, 1, 3, 10});
    kh_expect_ok(&h, argmin(&h, 1, 0, -1, -1, x));
    osc_check_shape(&h.out, OSC_INT64, 2, D(1, 2));
    osc_check_bytes(&h.out, D(0, 0), 16);
    kh_free(&h);
    kh_expect_ok(&h, argmin(&h, 11, 1, 1, -1, x));
    osc_check_shape(&h.out, OSC_INT64, 2, D(2, 1));
    osc_check_bytes(&h.out, D(1, 0), 16);
    kh_free(&h);
    kh_expect_ok(&h, argmin(&h, 13, -1, 0, -1, x));
    osc_check_shape(&h.out, OSC_INT64, 1, D(2));
    osc_check_bytes(&h.out, D(1, 0), 16);
    kh_free(&h);
    /* select_last_index: [[2, 2], [3, 10]] along axis 1: first [0, 0], last [1, 0] */
    osc_tensor xt = T(OSC_FLOAT, 2, D(2, 2), (const float[]){2, 2, 3, 10});
    kh_expect_ok(&h, argmin(&h, 12, 1, 0, 0, xt));
    osc_check_bytes(&h.out, D(0, 0), 16);
    kh_free(&h);
    kh_expect_ok(&h, argmin(&h, 13, 1, 0, 1, xt));
    osc_check_bytes(&h.out, D(1, 0), 16);
    kh_free(&h);
    expect_fail(&h, argmin(&h, 11, 1, 1, 1, xt), OSC_ERR_MODEL, "select_last_index");
    kh_free(&h);
    /* NaN first (numpy's argmin): first NaN at 1, last at 3 */
    osc_tensor xn = T(OSC_FLOAT, 1, D(4), (const float[]){1, NAN, 0, NAN});
    kh_expect_ok(&h, argmin(&h, 13, 0, 0, 0, xn));
    osc_check_bytes(&h.out, D(1), 8);
    kh_free(&h);
    kh_expect_ok(&h, argmin(&h, 13, 0, 0, 1, xn));
    osc_check_bytes(&h.out, D(3), 8);
    kh_free(&h);
    /* integers compare natively; float16 through float */
    kh_expect_ok(&h, argmin(&h, 13, 0, 0, -1, T(OSC_UINT64, 1, D(3), (const uint64_t[]){
                                                  UINT64_MAX, 1ull << 63, UINT64_MAX - 1})));
    osc_check_bytes(&h.out, D(1), 8);
    kh_free(&h);
    kh_expect_ok(&h, argmin(&h, 1, 0, 0, -1, T(OSC_INT8, 1, D(3), (const int8_t[]){-5, -2, -9})));
    osc_check_bytes(&h.out, D(2), 8);
    kh_free(&h);
    /* float16 1, -2, -2 (0x3c00, 0xc000): the first -2; the last with select_last_index */
    osc_tensor xh = T(OSC_FLOAT16, 1, D(3), (const uint16_t[]){0x3c00, 0xc000, 0xc000});
    kh_expect_ok(&h, argmin(&h, 12, 0, 0, 0, xh));
    osc_check_bytes(&h.out, D(1), 8);
    kh_free(&h);
    kh_expect_ok(&h, argmin(&h, 12, 0, 0, 1, xh));
    osc_check_bytes(&h.out, D(2), 8);
    kh_free(&h);
    /* bfloat16 from 13 */
    osc_tensor xb = T(OSC_BFLOAT16, 1, D(2), (const uint16_t[]){0x4000, 0x3f80});
    expect_fail(&h, argmin(&h, 12, 0, 0, -1, xb), OSC_ERR_SHAPE, "bfloat16");
    kh_free(&h);
    kh_expect_ok(&h, argmin(&h, 13, 0, 0, -1, xb));
    osc_check_bytes(&h.out, D(1), 8);
    kh_free(&h);
    /* an empty axis has no minimum; an empty output is fine; the axis is range-checked */
    expect_fail(&h, argmin(&h, 13, 1, 1, -1, T(OSC_FLOAT, 2, D(2, 0), k_empty)), OSC_ERR_SHAPE,
                "size 0 along axis 1; an empty set has no smallest element");
    kh_free(&h);
    kh_expect_ok(&h, argmin(&h, 13, 1, 1, -1, T(OSC_FLOAT, 2, D(0, 3), k_empty)));
    osc_check_shape(&h.out, OSC_INT64, 2, D(0, 1));
    kh_free(&h);
    expect_fail(&h, argmin(&h, 13, -3, 1, -1, x), OSC_ERR_MODEL,
                "attribute 'axis' = -3 is out of range [-2, 1]");
    expect_msg(&h, "node 'n0' (ArgMin-13)");
    kh_free(&h);
}

/* ArgMax and ArgMin on every dtype their newest rows allow, first and last of ties, along both
 * axes of a [2,3] input; expected indices found by a plain scan here. NaN first for floats. */
static void argminmax_every_dtype(void **state) {
    (void)state;
    static const char *const ops[] = {"ArgMax", "ArgMin"};
    static const double vals[6] = {1, 3, 3, 5, 2, 5};
    int tried = 0;
    for (int32_t o = 0; o < 2; o++) {
        const osc_kernel *row = osc_kernel_find("", ops[o], OSC_OPSET_NEWEST);
        assert_non_null(row);
        for (int32_t dt = 1; dt < OSC_DTYPE_COUNT; dt++) {
            if (!(row->types[0] & OSC_TS(dt))) continue;
            bool fl = dt == OSC_FLOAT || dt == OSC_DOUBLE || dt == OSC_FLOAT16 ||
                      dt == OSC_BFLOAT16;
            for (int nan = 0; nan <= fl; nan++) {
                uint64_t buf[6];
                for (int64_t i = 0; i < 6; i++) set(dt, buf, i, nan && i == 4 ? NAN : vals[i]);
                osc_tensor x = T(dt, 2, D(2, 3), buf);
                for (int64_t axis = 0; axis < 2; axis++) {
                    for (int64_t last = 0; last < 2; last++) {
                        int64_t outer = axis ? 2 : 3, n = axis ? 3 : 2, want[3];
                        for (int64_t e = 0; e < outer; e++) {
                            int64_t best = 0;
                            for (int64_t j = 1; j < n; j++) {
                                double a = get(&x, axis ? e * 3 + j : j * 3 + e);
                                double b = get(&x, axis ? e * 3 + best : best * 3 + e);
                                bool better = isnan(b) ? (last && isnan(a))
                                            : isnan(a) ? true
                                            : o == 0 ? (a > b || (last && a == b))
                                                     : (a < b || (last && a == b));
                                if (better) best = j;
                            }
                            want[e] = best;
                        }
                        kh h;
                        static osc_tensor t;
                        t = x;
                        const osc_tensor *in[] = {&t};
                        kh_init(&h, ops[o], OSC_OPSET_NEWEST);
                        kh_attr_int(&h, "axis", axis);
                        kh_attr_int(&h, "keepdims", 0);
                        kh_attr_int(&h, "select_last_index", last);
                        kh_expect_ok(&h, kh_run(&h, 1, in));
                        osc_check_shape(&h.out, OSC_INT64, 1, D(outer));
                        if (memcmp(h.out.data, want, (size_t)outer * 8))
                            fail_msg("%s dtype %d axis %d last %d nan %d: wrong indices", ops[o],
                                     (int)dt, (int)axis, (int)last, nan);
                        kh_free(&h);
                        tried++;
                    }
                }
            }
        }
    }
    assert_true(tried >= 2 * 12 * 4);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(every_reduction_axis1),
    cmocka_unit_test(axes_sets_and_defaults),
    cmocka_unit_test(noop_with_empty_axes),
    cmocka_unit_test(halves_round_once),
    cmocka_unit_test(integer_types),
    cmocka_unit_test(nan_and_infinity),
    cmocka_unit_test(empty_sets),
    cmocka_unit_test(errors),
    cmocka_unit_test(argmin_values),
    cmocka_unit_test(every_dtype_every_reduction),
    cmocka_unit_test(argminmax_every_dtype),
    cmocka_unit_test(sum_last_axis_in_order),
    cmocka_unit_test(one_axis_in_order),
)
