/* test_ops_trig_act.c: Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Mish, Swish,
 * ThresholdedRelu, Shrink and SwiGLU on what the official node tests leave out: double,
 * float16, bfloat16 and (Shrink) the integer types, attributes and their errors, and every row
 * on every dtype of its constraint (with the ops added beside them: the bitwise ones, Xor, Sum,
 * Mean). Expected values are literals from Python's math module or worked out by hand, never
 * computed by the code under test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "kharness.h"
#include "ops/registry.h"
#include "tests/support/check.h"

static osc_tensor vec(int32_t dtype, int64_t n, const void *data) {
    return kh_tensor(dtype, 1, &n, data);
}

/* |got - want| <= rel * |want| (+ a tiny absolute floor); NaN matches NaN, Inf itself. */
static void near(double got, double want, double rel, const char *what, int i) {
    if (isnan(want) && isnan(got)) return;
    if (isinf(want) && got == want) return;
    if (!(fabs(got - want) <= rel * fabs(want) + 1e-30))
        fail_msg("%s element %d: got %.17g, want %.17g", what, i, got, want);
}

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"Tan", 6, 0},       {"Tan", 7, 7},        {"Tan", 21, 7},      {"Tan", 22, 22},
        {"Asin", 7, 7},      {"Acos", 22, 22},     {"Atan", 28, 22},    {"Sinh", 8, 0},
        {"Sinh", 9, 9},      {"Cosh", 21, 9},      {"Asinh", 22, 22},   {"Acosh", 9, 9},
        {"Atanh", 22, 22},   {"Mish", 17, 0},      {"Mish", 18, 18},    {"Mish", 22, 22},
        {"Swish", 23, 0},    {"Swish", 24, 24},    {"ThresholdedRelu", 9, 0},
        {"ThresholdedRelu", 10, 10}, {"ThresholdedRelu", 22, 22}, {"Shrink", 9, 9},
        {"Shrink", 28, 9},   {"SwiGLU", 27, 0},    {"SwiGLU", 28, 28},
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
}

/* One op on x[n] in every float dtype of opset 22, against want[] (double: 1e-15 relative;
 * float: 1e-6; float16: 1e-3; bfloat16: 8e-3, about half their spacing). */
static void check_all_floats(const char *op, int64_t n, const double *x, const double *want) {
    static const struct {
        int32_t dtype;
        double rel;
    } k_types[] = {{OSC_DOUBLE, 1e-15}, {OSC_FLOAT, 1e-6}, {OSC_FLOAT16, 1e-3},
                   {OSC_BFLOAT16, 8e-3}};
    for (size_t t = 0; t < 4; t++) {
        const int32_t d = k_types[t].dtype;
        double xd[8];
        float xf[8];
        uint16_t xh[8];
        for (int64_t i = 0; i < n; i++) {
            xd[i] = x[i];
            xf[i] = (float)x[i];
            /* the inputs are exact in every format */
            xh[i] = d == OSC_FLOAT16 ? osc_f32_to_f16(xf[i]) : osc_f32_to_bf16(xf[i]);
        }
        const void *data = d == OSC_DOUBLE ? (const void *)xd : d == OSC_FLOAT ? (const void *)xf
                                                                              : xh;
        osc_tensor tx = vec(d, n, data);
        kh h;
        kh_init(&h, op, 22);
        assert_int_equal(kh_run1(&h, &tx), OSC_OK);
        for (int64_t i = 0; i < n; i++) {
            double got = d == OSC_DOUBLE  ? ((double *)h.out.data)[i]
                         : d == OSC_FLOAT ? ((float *)h.out.data)[i]
                         : d == OSC_FLOAT16 ? osc_f16_to_f32(((uint16_t *)h.out.data)[i])
                                            : osc_bf16_to_f32(((uint16_t *)h.out.data)[i]);
            near(got, want[i], k_types[t].rel, op, (int)i);
        }
        kh_free(&h);
    }
}

static void test_trig(void **state) {
    (void)state;
    static const struct {
        const char *op;
        double x[3], want[3];
    } k_cases[] = {
        {"Tan", {0.5, -1.0, 2.0}, {0.5463024898437905, -1.5574077246549023, -2.185039863261519}},
        {"Asin", {0.5, -1.0, 0.0}, {0.5235987755982989, -1.5707963267948966, 0.0}},
        {"Acos", {0.5, -1.0, 1.0}, {1.0471975511965979, 3.141592653589793, 0.0}},
        {"Atan", {0.5, -10.0, 0.0}, {0.4636476090008061, -1.4711276743037347, 0.0}},
        {"Sinh", {0.5, -3.0, 0.0}, {0.5210953054937474, -10.017874927409903, 0.0}},
        {"Cosh", {0.5, -3.0, 0.0}, {1.1276259652063807, 10.067661995777765, 1.0}},
        {"Asinh", {0.5, -3.0, 0.0}, {0.48121182505960347, -1.8184464592320668, 0.0}},
        {"Acosh", {1.0, 3.0, 0.5}, {0.0, 1.762747174039086, NAN}}, /* below 1: NaN */
        {"Atanh", {0.5, -0.25, 1.0}, {0.5493061443340548, -0.25541281188299536, INFINITY}},
    };
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++)
        check_all_floats(k_cases[i].op, 3, k_cases[i].x, k_cases[i].want);
    /* outside [-1, 1] Asin and Acos are NaN, Atanh too */
    static const double out[2] = {2.0, -1.5}, nan2[2] = {NAN, NAN};
    check_all_floats("Asin", 2, out, nan2);
    check_all_floats("Acos", 2, out, nan2);
    check_all_floats("Atanh", 2, out, nan2);
}

/* One float op with attributes (name NULL: none) on x[n]; float within 1e-6 relative. */
static void check_f32(const char *op, int64_t opset, const char *a1, float v1, const char *a2,
                      float v2, int64_t n, const float *x, const double *want) {
    kh h;
    kh_init(&h, op, opset);
    if (a1) kh_attr_float(&h, a1, v1);
    if (a2) kh_attr_float(&h, a2, v2);
    osc_tensor t = vec(OSC_FLOAT, n, x);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    for (int64_t i = 0; i < n; i++) near(((float *)h.out.data)[i], want[i], 1e-6, op, (int)i);
    kh_free(&h);
}

static void test_mish_swish(void **state) {
    (void)state;
    /* x * tanh(log1p(exp(x))) */
    static const double mx[5] = {1, -1, 0.5, -3, 20};
    static const double mish[5] = {0.8650983882673103, -0.30340146137410895, 0.3752452113048951,
                                   -0.1456474612756246, 20.0};
    check_all_floats("Mish", 5, mx, mish);
    static const float fx[5] = {1, -1, 0.5f, -3, 20};
    check_f32("Mish", 18, NULL, 0, NULL, 0, 5, fx, mish);
    /* x * sigmoid(alpha * x): alpha 1 (the default) and 2 */
    static const float sx[3] = {1, -1, 0};
    static const double sw1[3] = {0.7310585786300049, -0.2689414213699951, 0};
    static const double sw2[3] = {0.8807970779778823, -0.11920292202211755, 0};
    check_f32("Swish", 24, NULL, 0, NULL, 0, 3, sx, sw1);
    check_f32("Swish", 24, "alpha", 2.0f, NULL, 0, 3, sx, sw2);
}

static void test_thresholded_relu(void **state) {
    (void)state;
    static const float x[4] = {0.5f, 1.0f, 1.5f, -2.0f};
    static const double def[4] = {0, 0, 1.5, 0}; /* x > 1 (the default alpha), else 0 */
    check_f32("ThresholdedRelu", 10, NULL, 0, NULL, 0, 4, x, def);
    static const float y[3] = {-0.5f, -1.0f, -2.0f};
    static const double neg[3] = {-0.5, 0, 0}; /* alpha -1: x > -1 */
    check_f32("ThresholdedRelu", 22, "alpha", -1.0f, NULL, 0, 3, y, neg);
    static const double dx[3] = {2.0, 1.0, -3.0}, dw[3] = {2.0, 0, 0};
    check_all_floats("ThresholdedRelu", 3, dx, dw);
}

/* x < -lambd: x + bias; x > lambd: x - bias; else 0. Integers compute in double and convert
 * as a cast (truncation toward zero), saturated to the dtype's range. */
static void test_shrink(void **state) {
    (void)state;
    static const float x[5] = {-1, -0.5f, 0, 0.5f, 1};
    static const double def[5] = {-1, 0, 0, 0, 1}; /* lambd 0.5, bias 0 */
    check_f32("Shrink", 9, NULL, 0, NULL, 0, 5, x, def);
    static const float y[5] = {-2, -1, 0, 1, 2};
    static const double lb[5] = {-0.5, 0, 0, 0, 0.5};
    check_f32("Shrink", 9, "lambd", 1.5f, "bias", 1.5f, 5, y, lb);
    kh h;
    static const int8_t i8[9] = {-3, -2, -1, 0, 1, 2, 3, -128, 127};
    static const int8_t w8[9] = {-1, 0, 0, 0, 0, 0, 1, -126, 125};
    osc_tensor t = vec(OSC_INT8, 9, i8);
    kh_init(&h, "Shrink", 9);
    kh_attr_float(&h, "lambd", 1.5f);
    kh_attr_float(&h, "bias", 1.5f);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, w8, sizeof w8);
    kh_free(&h);
    /* bias -10, lambd 0: past the range saturates */
    static const int8_t s8[3] = {127, -128, 0}, ws8[3] = {127, -128, 0};
    t = vec(OSC_INT8, 3, s8);
    kh_init(&h, "Shrink", 9);
    kh_attr_float(&h, "lambd", 0);
    kh_attr_float(&h, "bias", -10);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, ws8, sizeof ws8);
    kh_free(&h);
    static const uint8_t u8[3] = {250, 0, 1}, wu8[3] = {255, 0, 11};
    t = vec(OSC_UINT8, 3, u8);
    kh_init(&h, "Shrink", 9);
    kh_attr_float(&h, "lambd", 0);
    kh_attr_float(&h, "bias", -10);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, wu8, sizeof wu8);
    kh_free(&h);
    /* bias 2.5 (lambd 0.5): -1000000004.5 and 2.5, truncated */
    static const int64_t i64[2] = {-1000000007, 5}, w64[2] = {-1000000004, 2};
    t = vec(OSC_INT64, 2, i64);
    kh_init(&h, "Shrink", 9);
    kh_attr_float(&h, "bias", 2.5f);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, w64, sizeof w64);
    kh_free(&h);
}

/* A * sigmoid(alpha * A) * B; float16/bfloat16 rounded once: 2 * sigmoid(2) = 1.76159...
 * -> float16 1 + 780/1024 (0x3F0C), bfloat16 1 + 97/128 (0x3FE1). */
static void test_swiglu(void **state) {
    (void)state;
    kh h;
    static const float a[4] = {1, -1, 0, 2}, b[4] = {2, 3, 5, -1};
    static const double want[4] = {1.4621171572600098, -0.8068242641099853, 0,
                                   -1.7615941559557646};
    osc_tensor ta = vec(OSC_FLOAT, 4, a), tb = vec(OSC_FLOAT, 4, b);
    kh_init(&h, "SwiGLU", 28);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    for (int i = 0; i < 4; i++) near(((float *)h.out.data)[i], want[i], 1e-6, "SwiGLU", i);
    kh_free(&h);
    static const double da[1] = {2}, db[1] = {1}; /* alpha 0.5: 2 * sigmoid(1) */
    osc_tensor tda = vec(OSC_DOUBLE, 1, da), tdb = vec(OSC_DOUBLE, 1, db);
    kh_init(&h, "SwiGLU", 28);
    kh_attr_float(&h, "alpha", 0.5f);
    assert_int_equal(kh_run2(&h, &tda, &tdb), OSC_OK);
    near(((double *)h.out.data)[0], 1.4621171572600098, 1e-15, "SwiGLU", 0);
    kh_free(&h);
    static const uint16_t h2[1] = {0x4000}, h1[1] = {0x3C00}, b1[1] = {0x3F80};
    uint16_t b2[1] = {0x4000}; /* written over in place */
    osc_tensor th2 = vec(OSC_FLOAT16, 1, h2), th1 = vec(OSC_FLOAT16, 1, h1);
    kh_init(&h, "SwiGLU", 28);
    assert_int_equal(kh_run2(&h, &th2, &th1), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3F0C);
    kh_free(&h);
    osc_tensor tb2 = vec(OSC_BFLOAT16, 1, b2), tb1 = vec(OSC_BFLOAT16, 1, b1);
    const osc_tensor *in[2] = {&tb2, &tb1};
    kh_init(&h, "SwiGLU", 28);
    assert_int_equal(kh_run_inplace(&h, 2, in), OSC_OK); /* over A, as the executor may */
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3FE1);
    kh_free(&h);
    /* no broadcasting; one dtype; float types only */
    osc_tensor t1 = vec(OSC_FLOAT, 1, a);
    kh_init(&h, "SwiGLU", 28);
    assert_int_equal(kh_run2(&h, &ta, &t1), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'B'");
    kh_assert_msg_has(&h, "no broadcasting");
    kh_free(&h);
    kh_init(&h, "SwiGLU", 28);
    assert_int_equal(kh_run2(&h, &ta, &tda), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "has dtype double");
    kh_free(&h);
    static const int32_t i[1] = {1};
    osc_tensor ti = vec(OSC_INT32, 1, i);
    kh_init(&h, "SwiGLU", 28);
    assert_int_equal(kh_run2(&h, &ti, &ti), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "input 0 'A'");
    kh_free(&h);
}

static void test_attribute_errors(void **state) {
    (void)state;
    kh h;
    kh_init(&h, "Shrink", 9);
    kh_attr_float(&h, "lambda", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'lambda'");
    kh_init(&h, "Swish", 24);
    kh_attr_str(&h, "alpha", "one");
    kh_init_fails(&h, OSC_ERR_MODEL, "'alpha'");
    kh_init(&h, "ThresholdedRelu", 10);
    kh_attr_float(&h, "alpha", NAN);
    kh_init_fails(&h, OSC_ERR_MODEL, "'alpha'");
    kh_init(&h, "Mish", 18);
    kh_attr_float(&h, "alpha", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'alpha'");
    kh_init(&h, "Tan", 7);
    kh_attr_ints(&h, "consumed_inputs", NULL, 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'consumed_inputs'");
    kh_init(&h, "SwiGLU", 28);
    kh_attr_float(&h, "beta", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'beta'");
    kh_init(&h, "SwiGLU", 28);
    kh_attr_float(&h, "alpha", NAN);
    kh_init_fails(&h, OSC_ERR_MODEL, "'alpha'");
}

/* Every row of the added ops runs on every dtype of its constraint (the kernels index their
 * loop tables by dtype without a check); BitShift with its required direction. */
static void test_every_row_every_dtype(void **state) {
    (void)state;
    static const char *const k_ops[] = {
        "Tan",  "Asin",  "Acos",  "Atan",  "Sinh",  "Cosh",  "Asinh", "Acosh",
        "Atanh", "Mish", "Swish", "ThresholdedRelu", "Shrink", "SwiGLU", "Sum", "Mean",
        "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot", "Xor"};
    const size_t n_ops = sizeof k_ops / sizeof k_ops[0];
    static const uint64_t zero[2];
    int runs = 0;
    for (size_t r = 0; r < osc_kernel_count(); r++) {
        const osc_kernel *row = osc_kernel_at(r);
        bool mine = false;
        for (size_t i = 0; i < n_ops && !mine; i++) mine = strcmp(row->op, k_ops[i]) == 0;
        if (!mine) continue;
        for (int32_t d = 1; d < OSC_DTYPE_COUNT; d++) {
            if (!(osc_kernel_types(row, 0) & OSC_TS(d))) continue;
            osc_tensor x = vec(d, 1, zero);
            const osc_tensor *in[3] = {&x, &x, &x};
            kh h;
            kh_init(&h, row->op, row->since);
            if (!strcmp(row->op, "BitShift")) kh_attr_str(&h, "direction", "LEFT");
            const int32_t n = row->inputs.max == OSC_VARIADIC ? 3 : row->inputs.max;
            osc_status st = kh_run(&h, n, in);
            if (st)
                fail_msg("%s-%lld on %s: %s", row->op, (long long)row->since,
                         osc_dtype_get(d)->name, h.err.msg);
            kh_free(&h);
            runs++;
        }
    }
    assert_true(runs > 100);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_rows_resolve),
    cmocka_unit_test(test_trig),
    cmocka_unit_test(test_mish_swish),
    cmocka_unit_test(test_thresholded_relu),
    cmocka_unit_test(test_shrink),
    cmocka_unit_test(test_swiglu),
    cmocka_unit_test(test_attribute_errors),
    cmocka_unit_test(test_every_row_every_dtype),
)
