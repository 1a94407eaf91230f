/* test_ops_math.c: the activations (Relu ... Erf, PRelu) and the elementwise math ops (Exp ...
 * Cos, Pow, IsInf, IsNaN, Clip) run one node at a time. Expected values are worked out by hand
 * or with Python's math module (written here as literals), never by the code under test. */
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

/* ---- helpers ---- */

static osc_tensor vec(int32_t dtype, int64_t n, const void *data) {
    return kh_tensor(dtype, 1, &n, data);
}

/* |got - want| <= rel * |want| (+ a tiny absolute floor); NaN matches NaN. */
static void near(double got, double want, double rel, int i) {
    if (isnan(want) && isnan(got)) return;
    if (isinf(want) && got == want) return;
    if (!(fabs(got - want) <= rel * fabs(want) + 1e-300))
        fail_msg("element %d: got %.17g, want %.17g", i, got, want);
}

/* Runs a one-input op on float x[n] and checks every element within 1e-6 relative. */
static void check_f32(const char *op, int64_t opset, int64_t n, const float *x,
                      const double *want) {
    kh h;
    kh_init(&h, op, opset);
    osc_tensor t = vec(OSC_FLOAT, n, x);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_int_equal(h.out.dtype, OSC_FLOAT);
    for (int64_t i = 0; i < n; i++) near(((float *)h.out.data)[i], want[i], 1e-6, (int)i);
    kh_free(&h);
}

/* The same on double, within 1e-14 relative. */
static void check_f64(const char *op, int64_t opset, int64_t n, const double *x,
                      const double *want) {
    kh h;
    kh_init(&h, op, opset);
    osc_tensor t = vec(OSC_DOUBLE, n, x);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_int_equal(h.out.dtype, OSC_DOUBLE);
    for (int64_t i = 0; i < n; i++) near(((double *)h.out.data)[i], want[i], 1e-14, (int)i);
    kh_free(&h);
}

/* ---- dispatch ---- */

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"Relu", 1, 1},         {"Relu", 5, 1},         {"Relu", 6, 6},
        {"Relu", 13, 13},       {"Relu", 14, 14},       {"Relu", 28, 14},
        {"LeakyRelu", 1, 1},    {"LeakyRelu", 15, 6},   {"LeakyRelu", 16, 16},
        {"Elu", 6, 6},          {"Elu", 22, 22},        {"Selu", 21, 6},
        {"Selu", 22, 22},       {"Celu", 12, 12},       {"Celu", 27, 12},
        {"Celu", 28, 28},       {"Sigmoid", 12, 6},     {"Sigmoid", 13, 13},
        {"HardSigmoid", 1, 1},  {"HardSigmoid", 22, 22}, {"HardSwish", 14, 14},
        {"HardSwish", 22, 22},  {"Tanh", 6, 6},         {"Tanh", 13, 13},
        {"Softplus", 1, 1},     {"Softplus", 22, 22},   {"Softsign", 21, 1},
        {"Softsign", 22, 22},   {"Gelu", 20, 20},       {"Erf", 9, 9},
        {"Erf", 13, 13},        {"PRelu", 1, 1},        {"PRelu", 6, 6},
        {"PRelu", 8, 7},        {"PRelu", 9, 9},        {"PRelu", 16, 16},
        {"Exp", 1, 1},          {"Exp", 6, 6},          {"Exp", 13, 13},
        {"Log", 13, 13},        {"Sqrt", 12, 6},        {"Reciprocal", 13, 13},
        {"Floor", 6, 6},        {"Ceil", 13, 13},       {"Pow", 1, 1},
        {"Pow", 7, 7},          {"Pow", 11, 7},         {"Pow", 12, 12},
        {"Pow", 14, 13},        {"Pow", 15, 15},        {"Round", 11, 11},
        {"Round", 22, 22},      {"Sign", 9, 9},         {"Sign", 13, 13},
        {"Sin", 7, 7},          {"Sin", 22, 22},        {"Cos", 21, 7},
        {"Cos", 22, 22},        {"IsInf", 10, 10},      {"IsInf", 20, 20},
        {"IsNaN", 9, 9},        {"IsNaN", 13, 13},      {"IsNaN", 20, 20},
        {"Clip", 1, 1},         {"Clip", 6, 6},         {"Clip", 10, 6},
        {"Clip", 11, 11},       {"Clip", 12, 12},       {"Clip", 13, 13},
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
    /* before each op's first version there is no row */
    static const kh_row k_none[] = {
        {"Celu", 11, 0}, {"Gelu", 19, 0}, {"HardSwish", 13, 0}, {"Erf", 8, 0}, {"Round", 10, 0},
        {"Sign", 8, 0},  {"Sin", 6, 0},   {"Cos", 6, 0},        {"IsInf", 9, 0}, {"IsNaN", 8, 0},
    };
    kh_assert_rows(k_none, sizeof k_none / sizeof k_none[0]);
}

/* ---- activations ---- */

static void test_relu(void **state) {
    (void)state;
    static const float x[5] = {-1.5f, -0.0f, 0.0f, 2.5f, NAN};
    static const double want[5] = {0, 0, 0, 2.5, NAN};
    check_f32("Relu", 6, 5, x, want);
    check_f32("Relu", 1, 5, x, want);
    static const double xd[3] = {-1e300, 1e300, -0.25}, wd[3] = {0, 1e300, 0};
    check_f64("Relu", 14, 3, xd, wd);
    /* integers from 14 only */
    static const int8_t i8[4] = {-128, -1, 0, 127}, w8[4] = {0, 0, 0, 127};
    static const int64_t i64[2] = {INT64_MIN, INT64_MAX}, w64[2] = {0, INT64_MAX};
    osc_tensor t8 = vec(OSC_INT8, 4, i8), t64 = vec(OSC_INT64, 2, i64);
    kh h;
    kh_init_since(&h, "Relu", 14, 14);
    assert_int_equal(kh_run1(&h, &t8), OSC_OK);
    assert_memory_equal(h.out.data, w8, sizeof w8);
    kh_free(&h);
    kh_init_since(&h, "Relu", 20, 14);
    assert_int_equal(kh_run1(&h, &t64), OSC_OK);
    assert_memory_equal(h.out.data, w64, sizeof w64);
    kh_free(&h);
    kh_init_since(&h, "Relu", 13, 13);
    assert_int_equal(kh_run1(&h, &t8), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "dtype int8");
    kh_assert_msg_has(&h, "bfloat16");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    /* bfloat16 from 13, not before */
    static const uint16_t bf[2] = {0xbf80, 0x4040}; /* -1, 3 */
    osc_tensor tb = vec(OSC_BFLOAT16, 2, bf);
    kh_init_since(&h, "Relu", 13, 13);
    assert_int_equal(kh_run1(&h, &tb), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x0000);
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x4040);
    kh_free(&h);
    kh_init_since(&h, "Relu", 6, 6);
    assert_int_equal(kh_run1(&h, &tb), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    /* unsigned integers are never a Relu type */
    static const uint8_t u8[1] = {1};
    osc_tensor tu = vec(OSC_UINT8, 1, u8);
    kh_init_since(&h, "Relu", 14, 14);
    assert_int_equal(kh_run1(&h, &tu), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
}

static void test_leaky_elu_selu_celu(void **state) {
    (void)state;
    static const float x[3] = {-2.0f, 0.0f, 3.0f};
    /* LeakyRelu: default alpha 0.01 (float32), then 0.5 */
    static const double w_leaky[3] = {-2 * (double)0.01f, 0, 3};
    check_f32("LeakyRelu", 16, 3, x, w_leaky);
    kh h;
    kh_init_since(&h, "LeakyRelu", 6, 6);
    kh_attr_float(&h, "alpha", 0.5f);
    osc_tensor t = vec(OSC_FLOAT, 3, x);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_true(((float *)h.out.data)[0] == -1.0f);
    assert_true(((float *)h.out.data)[2] == 3.0f);
    kh_free(&h);
    /* Elu: alpha (1 by default) * (e^x - 1) below 0 */
    static const float xe[2] = {-1.0f, 3.0f};
    static const double w_elu[2] = {-0.6321205588285577, 3};
    check_f32("Elu", 6, 2, xe, w_elu);
    kh_init_since(&h, "Elu", 22, 22);
    kh_attr_float(&h, "alpha", 2.0f);
    static const double xed[2] = {-1.0, 3.0};
    osc_tensor ted = vec(OSC_DOUBLE, 2, xed);
    assert_int_equal(kh_run1(&h, &ted), OSC_OK);
    near(((double *)h.out.data)[0], -1.2642411176571153, 1e-14, 0);
    near(((double *)h.out.data)[1], 3.0, 0, 1);
    kh_free(&h);
    /* Selu: the float32 defaults */
    static const float xs[2] = {-1.0f, 2.0f};
    static const double w_selu[2] = {-1.1113307412864784, 2.1014020442962646};
    check_f32("Selu", 6, 2, xs, w_selu);
    kh_init_since(&h, "Selu", 1, 1);
    kh_attr_float(&h, "alpha", 2.0f);
    kh_attr_float(&h, "gamma", 3.0f);
    kh_attr_ints(&h, "consumed_inputs", NULL, 0); /* the legacy hint of version 1 */
    osc_tensor ts = vec(OSC_FLOAT, 2, xs);
    assert_int_equal(kh_run1(&h, &ts), OSC_OK);
    near(((float *)h.out.data)[0], 6 * -0.6321205588285577, 1e-6, 0);
    near(((float *)h.out.data)[1], 6.0, 0, 1);
    kh_free(&h);
    /* Celu: x >= 0 ? x : alpha * (e^(x/alpha) - 1) */
    kh_init_since(&h, "Celu", 12, 12);
    kh_attr_float(&h, "alpha", 2.0f);
    static const float xc[3] = {-2.0f, 0.0f, 1.0f};
    osc_tensor tc = vec(OSC_FLOAT, 3, xc);
    assert_int_equal(kh_run1(&h, &tc), OSC_OK);
    near(((float *)h.out.data)[0], -1.2642411176571153, 1e-6, 0);
    near(((float *)h.out.data)[1], 0.0, 0, 1);
    near(((float *)h.out.data)[2], 1.0, 0, 2);
    kh_free(&h);
    /* a negative alpha: alpha*(exp(x/alpha)-1) is still the negative branch */
    kh_init_since(&h, "Celu", 28, 28);
    kh_attr_float(&h, "alpha", -1.0f);
    static const float xn[2] = {-1.0f, 1.0f};
    osc_tensor tn = vec(OSC_FLOAT, 2, xn);
    assert_int_equal(kh_run1(&h, &tn), OSC_OK);
    near(((float *)h.out.data)[0], -(2.718281828459045 - 1), 1e-6, 0);
    near(((float *)h.out.data)[1], 1.0, 0, 1);
    kh_free(&h);
    /* Celu-12 is float only; 28 adds float16, bfloat16 and double */
    kh_init_since(&h, "Celu", 12, 12);
    assert_int_equal(kh_run1(&h, &ted), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    kh_init_since(&h, "Celu", 28, 28);
    assert_int_equal(kh_run1(&h, &ted), OSC_OK);
    near(((double *)h.out.data)[0], -0.6321205588285577, 1e-14, 0);
    kh_free(&h);
    kh_init_since(&h, "Celu", 12, 12);
    kh_attr_float(&h, "alpha", 0.0f);
    kh_init_fails(&h, OSC_ERR_MODEL, "'alpha' = 0");
}

static void test_sigmoid_family(void **state) {
    (void)state;
    static const float x[5] = {0.0f, 2.0f, -2.0f, -20.0f, 100.0f};
    static const double w_sig[5] = {0.5, 0.8807970779778823, 0.11920292202211755,
                                    2.0611536181902037e-09, 1.0};
    check_f32("Sigmoid", 13, 5, x, w_sig);
    static const double xd[3] = {-800.0, 800.0, 2.0};
    static const double w_sigd[3] = {0.0, 1.0, 0.8807970779778823};
    check_f64("Sigmoid", 6, 3, xd, w_sigd);
    /* HardSigmoid: max(0, min(1, alpha*x + beta)), 0.2 and 0.5 by default */
    static const float xh[4] = {-3.0f, 0.0f, 1.0f, 3.0f};
    static const double w_hs[4] = {0.0, 0.5, (double)(0.2f * 1.0f + 0.5f), 1.0};
    check_f32("HardSigmoid", 6, 4, xh, w_hs);
    kh h;
    kh_init_since(&h, "HardSigmoid", 22, 22);
    kh_attr_float(&h, "alpha", 0.5f);
    kh_attr_float(&h, "beta", 0.25f);
    osc_tensor th = vec(OSC_FLOAT, 4, xh);
    assert_int_equal(kh_run1(&h, &th), OSC_OK);
    static const float w_hs2[4] = {0.0f, 0.25f, 0.75f, 1.0f};
    assert_memory_equal(h.out.data, w_hs2, sizeof w_hs2);
    kh_free(&h);
    /* HardSwish: x * HardSigmoid(x) with alpha 1/6, beta 0.5 */
    static const float xw[4] = {-4.0f, 1.0f, 4.0f, 0.0f};
    static const double w_hw[4] = {0.0, 0.6666666666666666, 4.0, 0.0};
    check_f32("HardSwish", 14, 4, xw, w_hw);
    /* Tanh, Softplus (no overflow at 100), Softsign */
    static const float xt[2] = {0.5f, -0.5f};
    static const double w_tanh[2] = {0.46211715726000974, -0.46211715726000974};
    check_f32("Tanh", 13, 2, xt, w_tanh);
    static const float xp[4] = {0.0f, 1.0f, 100.0f, -20.0f};
    static const double w_sp[4] = {0.6931471805599453, 1.3132616875182228, 100.0,
                                   2.061153620314381e-09};
    check_f32("Softplus", 1, 4, xp, w_sp);
    static const double xpd[2] = {1000.0, -1000.0}, w_spd[2] = {1000.0, 0.0};
    check_f64("Softplus", 22, 2, xpd, w_spd);
    static const float xo[3] = {-3.0f, 1.0f, 0.0f};
    static const double w_ss[3] = {-0.75, 0.5, 0.0};
    check_f32("Softsign", 22, 3, xo, w_ss);
}

static void test_gelu_erf(void **state) {
    (void)state;
    static const float x[3] = {1.0f, -1.0f, 0.0f};
    static const double w_exact[3] = {0.8413447460685429, -0.15865525393145707, 0.0};
    static const double w_tanh[3] = {0.8411919906082768, -0.15880800939172324, 0.0};
    check_f32("Gelu", 20, 3, x, w_exact);
    kh h;
    kh_init_since(&h, "Gelu", 20, 20);
    kh_attr_str(&h, "approximate", "none");
    osc_tensor t = vec(OSC_FLOAT, 3, x);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    for (int i = 0; i < 3; i++) near(((float *)h.out.data)[i], w_exact[i], 1e-6, i);
    kh_free(&h);
    kh_init_since(&h, "Gelu", 20, 20);
    kh_attr_str(&h, "approximate", "tanh");
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    for (int i = 0; i < 3; i++) near(((float *)h.out.data)[i], w_tanh[i], 1e-6, i);
    kh_free(&h);
    kh_init_since(&h, "Gelu", 20, 20);
    kh_attr_str(&h, "approximate", "fast");
    kh_init_fails(&h, OSC_ERR_MODEL, "'approximate' = 'fast'");
    kh_init_since(&h, "Gelu", 20, 20);
    kh_attr_int(&h, "approximate", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "must be a string");
    /* Erf: floats; every integer type at 9, truncated toward zero (erf(6) is 1 in double) */
    static const float xe[2] = {0.5f, -0.5f};
    static const double w_erf[2] = {0.5204998778130465, -0.5204998778130465};
    check_f32("Erf", 13, 2, xe, w_erf);
    static const int32_t i32[5] = {-7, -1, 0, 5, 6}, w32[5] = {-1, 0, 0, 0, 1};
    static const uint8_t u8[2] = {0, 200}, wu8[2] = {0, 1};
    osc_tensor t32 = vec(OSC_INT32, 5, i32), tu8 = vec(OSC_UINT8, 2, u8);
    kh_init_since(&h, "Erf", 9, 9);
    assert_int_equal(kh_run1(&h, &t32), OSC_OK);
    assert_memory_equal(h.out.data, w32, sizeof w32);
    kh_free(&h);
    kh_init_since(&h, "Erf", 12, 9);
    assert_int_equal(kh_run1(&h, &tu8), OSC_OK);
    assert_memory_equal(h.out.data, wu8, sizeof wu8);
    kh_free(&h);
    kh_init_since(&h, "Erf", 13, 13);
    assert_int_equal(kh_run1(&h, &t32), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "input 0 'input'"); /* Erf's input is named 'input' */
    kh_free(&h);
    kh_init_since(&h, "Gelu", 20, 20);
    kh_attr_str(&h, "approximate", "tanh");
    assert_int_equal(kh_run1(&h, &t32), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "input 0 'X'");
    kh_free(&h);
}

/* float16 and bfloat16 compute in float and round once per element. */
static void test_half_types(void **state) {
    (void)state;
    /* float16: tanh(0.5) = 0.46211715726000974 rounds to 0.462158203125 (0x3765) */
    static const uint16_t h05[2] = {0x3800, 0xb800}; /* 0.5, -0.5 */
    osc_tensor th = vec(OSC_FLOAT16, 2, h05);
    kh h;
    kh_init_since(&h, "Tanh", 6, 6);
    assert_int_equal(kh_run1(&h, &th), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3765);
    assert_int_equal(((uint16_t *)h.out.data)[1], 0xb765);
    kh_free(&h);
    /* LeakyRelu float16: -3 * 0.1f = -0.3000000119 -> 0xb4cd (-0.2999267578125) */
    static const uint16_t hm3[1] = {0xc200};
    osc_tensor tm3 = vec(OSC_FLOAT16, 1, hm3);
    kh_init_since(&h, "LeakyRelu", 16, 16);
    kh_attr_float(&h, "alpha", 0.1f);
    assert_int_equal(kh_run1(&h, &tm3), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0xb4cd);
    kh_free(&h);
    /* bfloat16: Elu-22 at -1: e^-1 - 1 = -0.63212 -> 0xbf22 (-0.6328125) */
    static const uint16_t bm1[1] = {0xbf80};
    osc_tensor tb = vec(OSC_BFLOAT16, 1, bm1);
    kh_init_since(&h, "Elu", 22, 22);
    assert_int_equal(kh_run1(&h, &tb), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0xbf22);
    kh_free(&h);
    kh_init_since(&h, "Elu", 21, 6); /* no bfloat16 before 22 */
    assert_int_equal(kh_run1(&h, &tb), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    /* Sigmoid float16 at 0 -> 0.5 exactly; Sqrt bfloat16 of 2 -> 1.4140625 (0x3fb5) */
    static const uint16_t h0[1] = {0x0000}, b2[1] = {0x4000};
    osc_tensor t0 = vec(OSC_FLOAT16, 1, h0), t2 = vec(OSC_BFLOAT16, 1, b2);
    kh_init_since(&h, "Sigmoid", 13, 13);
    assert_int_equal(kh_run1(&h, &t0), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3800);
    kh_free(&h);
    kh_init_since(&h, "Sqrt", 13, 13);
    assert_int_equal(kh_run1(&h, &t2), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3fb5);
    kh_free(&h);
    /* Round float16: 2.5 -> 2 (0x4000), 3.5 -> 4 (0x4400) */
    static const uint16_t hr[2] = {0x4100, 0x4300};
    osc_tensor tr = vec(OSC_FLOAT16, 2, hr);
    kh_init_since(&h, "Round", 11, 11);
    assert_int_equal(kh_run1(&h, &tr), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x4000);
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x4400);
    kh_free(&h);
}

/* Attributes: unknown ones, wrong types, NaN, the version-1 legacy hint. */
static void test_activation_attributes(void **state) {
    (void)state;
    kh h;
    kh_init_since(&h, "LeakyRelu", 16, 16);
    kh_attr_float(&h, "beta", 1.0f);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'beta'");
    kh_init_since(&h, "Elu", 6, 6);
    kh_attr_int(&h, "alpha", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "'alpha' must be a float");
    kh_init_since(&h, "HardSigmoid", 6, 6);
    kh_attr_float(&h, "beta", NAN);
    kh_init_fails(&h, OSC_ERR_MODEL, "'beta' is NaN");
    kh_init_since(&h, "Relu", 1, 1);
    kh_attr_ints(&h, "consumed_inputs", NULL, 0);
    assert_int_equal(kh_check(&h), OSC_OK);
    kh_free(&h);
    kh_init_since(&h, "Relu", 1, 1);
    kh_attr_int(&h, "foo", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'foo'");
    kh_init_since(&h, "Relu", 6, 6); /* dropped at 6 */
    kh_attr_ints(&h, "consumed_inputs", NULL, 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'consumed_inputs'");
    kh_init_since(&h, "Softplus", 1, 1); /* Softplus-1 never had it */
    kh_attr_ints(&h, "consumed_inputs", NULL, 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'consumed_inputs'");
    kh_init_since(&h, "Exp", 1, 1);
    kh_attr_ints(&h, "consumed_inputs", NULL, 0);
    assert_int_equal(kh_check(&h), OSC_OK);
    kh_free(&h);
    kh_init_since(&h, "Sin", 7, 7);
    kh_attr_int(&h, "axis", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'axis'");
    /* kernels pick their operation from the row (.variant), never from the node's op type: a
     * node of another op type runs the row's operation, and a row naming none is refused */
    static const char *const k_ops[] = {"Relu", "Exp", "IsNaN", "Neg", "Min", "Add", "Softmax"};
    for (int i = 0; i < 7; i++) {
        kh_init(&h, k_ops[i], 20);
        h.node.op_type = "Bogus";
        assert_int_equal(kh_check(&h), OSC_OK);
        kh_free(&h);
        kh_init(&h, k_ops[i], 20);
        osc_kernel row = *h.kernel;
        row.variant = 0;
        h.kernel = h.node.kernel = h.k.row = &row;
        assert_int_equal(kh_check(&h), OSC_ERR_UNSUPPORTED);
        assert_non_null(strstr(h.err.msg, "the row names no"));
        kh_free(&h);
    }
}

/* Missing input, wrong dtype, a mismatched output, in place, empty tensors. */
static void test_unary_errors_and_inplace(void **state) {
    (void)state;
    kh h;
    kh_init_since(&h, "Exp", 13, 13);
    assert_int_equal(kh_run(&h, 0, NULL), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "node 'n0'");
    kh_free(&h);
    static const int32_t i32[2] = {1, 2};
    osc_tensor ti = vec(OSC_INT32, 2, i32);
    kh_init_since(&h, "Exp", 13, 13);
    assert_int_equal(kh_run1(&h, &ti), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "input 0 'input'");
    kh_assert_msg_has(&h, "dtype int32");
    kh_free(&h);
    kh_init_since(&h, "Sqrt", 13, 13);
    assert_int_equal(kh_run1(&h, &ti), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "input 0 'X'");
    kh_free(&h);
    /* run with an output of the wrong shape writes nothing */
    static const float x[2] = {1.0f, 4.0f};
    osc_tensor tx = vec(OSC_FLOAT, 2, x);
    float o[3] = {7, 7, 7};
    osc_tensor out = vec(OSC_FLOAT, 3, o);
    const osc_tensor *in[1] = {&tx};
    kh_init_since(&h, "Sqrt", 13, 13);
    assert_int_equal(kh_check(&h), OSC_OK);
    assert_int_equal(h.kernel->run(&h.k, in, 1, &out, 1), OSC_ERR_ARG);
    kh_assert_msg_has(&h, "output 0 is float [3]");
    assert_true(o[0] == 7 && o[1] == 7 && o[2] == 7);
    kh_free(&h);
    /* in place */
    float buf[3] = {-1.0f, 0.25f, 2.0f};
    osc_tensor tb = vec(OSC_FLOAT, 3, buf);
    const osc_tensor *inb[1] = {&tb};
    kh_init_since(&h, "Relu", 14, 14);
    assert_true(h.kernel->flags & OSC_KF_INPLACE);
    assert_int_equal(kh_run_inplace(&h, 1, inb), OSC_OK);
    assert_true(buf[0] == 0.0f && buf[1] == 0.25f && buf[2] == 2.0f);
    kh_free(&h);
    kh_init_since(&h, "Sqrt", 13, 13);
    assert_int_equal(kh_run_inplace(&h, 1, inb), OSC_OK);
    assert_true(buf[0] == 0.0f && buf[1] == 0.5f && buf[2] == (float)sqrt(2.0));
    kh_free(&h);
    /* empty */
    osc_tensor te = kh_tensor(OSC_FLOAT, 2, (int64_t[]){0, 3}, NULL);
    kh_init_since(&h, "Tanh", 13, 13);
    assert_int_equal(kh_run1(&h, &te), OSC_OK);
    assert_int_equal(h.out.rank, 2);
    assert_int_equal(h.out.dims[0], 0);
    kh_free(&h);
    /* IsNaN's output is bool: never in place */
    kh_init_since(&h, "IsNaN", 13, 13);
    assert_false(h.kernel->flags & OSC_KF_INPLACE);
    kh_free(&h);
}

/* ---- PRelu ---- */

static void test_prelu(void **state) {
    (void)state;
    /* X [2,3], slope [3]: per column */
    static const float x[6] = {-1, 2, -3, -4, 5, -6}, s3[3] = {0.5f, 2.0f, 0.25f};
    static const float w3[6] = {-0.5f, 2, -0.75f, -2, 5, -1.5f};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, x), ts = vec(OSC_FLOAT, 3, s3);
    kh h;
    kh_init_since(&h, "PRelu", 16, 16);
    assert_int_equal(kh_run2(&h, &tx, &ts), OSC_OK);
    assert_int_equal(h.out.rank, 2);
    assert_int_equal(h.out.dims[1], 3);
    assert_memory_equal(h.out.data, w3, sizeof w3);
    kh_free(&h);
    /* slope [2,1]: per row */
    static const float s21[2] = {0.5f, 0.25f};
    static const float w21[6] = {-0.5f, 2, -1.5f, -1, 5, -1.5f};
    osc_tensor t21 = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 1}, s21);
    kh_init_since(&h, "PRelu", 7, 7);
    assert_int_equal(kh_run2(&h, &tx, &t21), OSC_OK);
    assert_memory_equal(h.out.data, w21, sizeof w21);
    kh_free(&h);
    /* slope [2] does not align with X's last dim 3 */
    osc_tensor t2 = vec(OSC_FLOAT, 2, s21);
    kh_init_since(&h, "PRelu", 9, 9);
    assert_int_equal(kh_run2(&h, &tx, &t2), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'slope'");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    /* slope [1,2,3] would grow the output: unidirectional broadcasting refuses it */
    static const float s6[6] = {1, 1, 1, 1, 1, 1};
    osc_tensor t123 = kh_tensor(OSC_FLOAT, 3, (int64_t[]){1, 2, 3}, s6);
    kh_init_since(&h, "PRelu", 16, 16);
    assert_int_equal(kh_run2(&h, &tx, &t123), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "does not broadcast to X's shape [2,3]");
    kh_free(&h);
    /* version 6: one element, or X's shape exactly */
    static const float s1[1] = {0.5f};
    osc_tensor t11 = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 1}, s1);
    static const float w1[6] = {-0.5f, 2, -1.5f, -2, 5, -3};
    kh_init_since(&h, "PRelu", 6, 6);
    assert_int_equal(kh_run2(&h, &tx, &t11), OSC_OK);
    assert_memory_equal(h.out.data, w1, sizeof w1);
    kh_free(&h);
    osc_tensor tsame = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, s6);
    kh_init_since(&h, "PRelu", 1, 1);
    kh_attr_ints(&h, "consumed_inputs", NULL, 0);
    assert_int_equal(kh_run2(&h, &tx, &tsame), OSC_OK);
    assert_memory_equal(h.out.data, x, sizeof x);
    kh_free(&h);
    kh_init_since(&h, "PRelu", 6, 6);
    assert_int_equal(kh_run2(&h, &tx, &ts), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "before version 7");
    kh_free(&h);
    osc_tensor t32 = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 2}, s6); /* same rank and count */
    kh_init_since(&h, "PRelu", 6, 6);
    assert_int_equal(kh_run2(&h, &tx, &t32), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "[3,2]");
    kh_free(&h);
    osc_tensor tx13 = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 3}, x); /* slope [2,3] grows it */
    osc_tensor ts23 = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, s6);
    kh_init_since(&h, "PRelu", 16, 16);
    assert_int_equal(kh_run2(&h, &tx13, &ts23), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "X's shape [1,3]");
    kh_free(&h);
    kh_init_since(&h, "PRelu", 6, 6);
    kh_attr_ints(&h, "consumed_inputs", NULL, 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'consumed_inputs'");
    /* integers from 9: wrapping products; unsigned X is never negative */
    static const int32_t xi[3] = {-3, 4, INT32_MIN}, si[1] = {2}, wi[3] = {-6, 4, 0};
    osc_tensor txi = vec(OSC_INT32, 3, xi), tsi = kh_tensor(OSC_INT32, 0, NULL, si);
    kh_init_since(&h, "PRelu", 9, 9);
    assert_int_equal(kh_run2(&h, &txi, &tsi), OSC_OK);
    assert_memory_equal(h.out.data, wi, sizeof wi);
    kh_free(&h);
    static const uint64_t xu[2] = {5, UINT64_MAX}, su[1] = {3};
    osc_tensor txu = vec(OSC_UINT64, 2, xu), tsu = vec(OSC_UINT64, 1, su);
    kh_init_since(&h, "PRelu", 16, 16);
    assert_int_equal(kh_run2(&h, &txu, &tsu), OSC_OK);
    assert_memory_equal(h.out.data, xu, sizeof xu);
    kh_free(&h);
    kh_init_since(&h, "PRelu", 8, 7);
    assert_int_equal(kh_run2(&h, &txi, &tsi), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    /* bfloat16 from 16: -2 * 0.5 = -1 */
    static const uint16_t xb[2] = {0xc000, 0x4000}, sb[1] = {0x3f00};
    osc_tensor txb = vec(OSC_BFLOAT16, 2, xb), tsb = vec(OSC_BFLOAT16, 1, sb);
    kh_init_since(&h, "PRelu", 16, 16);
    assert_int_equal(kh_run2(&h, &txb, &tsb), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0xbf80);
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x4000);
    kh_free(&h);
    /* float16: -2 * 0.5 = -1 */
    static const uint16_t xh[2] = {0xc000, 0x4000}, sh[1] = {0x3800};
    osc_tensor txh = vec(OSC_FLOAT16, 2, xh), tsh = vec(OSC_FLOAT16, 1, sh);
    kh_init_since(&h, "PRelu", 16, 16);
    assert_int_equal(kh_run2(&h, &txh, &tsh), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0xbc00);
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x4000);
    kh_free(&h);
    /* errors: slope of another dtype, slope missing */
    static const double sd[1] = {0.5};
    osc_tensor tsd = vec(OSC_DOUBLE, 1, sd);
    kh_init_since(&h, "PRelu", 16, 16);
    assert_int_equal(kh_run2(&h, &tx, &tsd), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "slope");
    kh_free(&h);
    kh_init_since(&h, "PRelu", 16, 16);
    assert_int_equal(kh_run1(&h, &tx), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "slope");
    kh_free(&h);
    /* in place, and an empty X */
    float buf[3] = {-2, 3, -4};
    osc_tensor tb = vec(OSC_FLOAT, 3, buf);
    const osc_tensor *in[2] = {&tb, &ts};
    kh_init_since(&h, "PRelu", 16, 16);
    assert_int_equal(kh_run_inplace(&h, 2, in), OSC_OK);
    assert_true(buf[0] == -1.0f && buf[1] == 3.0f && buf[2] == -1.0f);
    kh_free(&h);
    osc_tensor te = kh_tensor(OSC_FLOAT, 2, (int64_t[]){0, 3}, NULL);
    kh_init_since(&h, "PRelu", 16, 16);
    assert_int_equal(kh_run2(&h, &te, &ts), OSC_OK);
    assert_int_equal(h.out.dims[0], 0);
    kh_free(&h);
}

/* ---- math ---- */

static void test_math_values(void **state) {
    (void)state;
    static const float x[3] = {0.0f, 1.0f, 2.5f};
    static const double w_exp[3] = {1.0, 2.718281828459045, 12.182493960703473};
    check_f32("Exp", 13, 3, x, w_exp);
    static const float xl[4] = {1.0f, 10.0f, 0.0f, -1.0f};
    static const double w_log[4] = {0.0, 2.302585092994046, -INFINITY, NAN};
    check_f32("Log", 6, 4, xl, w_log);
    static const double xs[3] = {4.0, 2.0, -1.0};
    static const double w_sqrt[3] = {2.0, 1.4142135623730951, NAN};
    check_f64("Sqrt", 13, 3, xs, w_sqrt);
    static const float xr[3] = {4.0f, -0.5f, 0.0f};
    static const double w_rec[3] = {0.25, -2.0, INFINITY};
    check_f32("Reciprocal", 1, 3, xr, w_rec);
    static const float xf[4] = {-1.5f, 1.5f, -0.0f, 3.0f};
    static const double w_floor[4] = {-2.0, 1.0, -0.0, 3.0}, w_ceil[4] = {-1.0, 2.0, -0.0, 3.0};
    check_f32("Floor", 13, 4, xf, w_floor);
    check_f32("Ceil", 6, 4, xf, w_ceil);
    static const float xt[2] = {0.0f, 1.0f};
    static const double w_sin[2] = {0.0, 0.8414709848078965}, w_cos[2] = {1.0, 0.5403023058681398};
    check_f32("Sin", 7, 2, xt, w_sin);
    check_f32("Cos", 22, 2, xt, w_cos);
    static const double xtd[1] = {1.0}, w_sind[1] = {0.8414709848078965};
    check_f64("Sin", 22, 1, xtd, w_sind);
}

static void test_round_half_even(void **state) {
    (void)state;
    static const float x[14] = {0.5f,  1.5f, 2.5f,      -0.5f,     -1.5f, -2.5f,       2.3f,
                                -2.7f, 0.9f, INFINITY, -INFINITY, NAN,   16777215.0f, -0.3f};
    static const float want[14] = {0.0f,  2.0f, 2.0f,     -0.0f,     -2.0f, -2.0f,        2.0f,
                                   -3.0f, 1.0f, INFINITY, -INFINITY, NAN,   16777215.0f, -0.0f};
    osc_tensor t = vec(OSC_FLOAT, 14, x);
    kh h;
    kh_init_since(&h, "Round", 11, 11);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    const float *o = h.out.data;
    for (int i = 0; i < 14; i++) {
        if (isnan(want[i])) {
            assert_true(isnan(o[i]));
            continue;
        }
        if (o[i] != want[i]) fail_msg("Round(%g) = %g, want %g", x[i], o[i], want[i]);
        assert_int_equal(signbit(o[i]) != 0, signbit(want[i]) != 0); /* -0.5 -> -0 */
    }
    kh_free(&h);
    static const double xd[6] = {4503599627370495.5, 0.49999999999999994, 3.5, -4.5, 2.5, 2.7};
    static const double wd[6] = {4503599627370496.0, 0.0, 4.0, -4.0, 2.0, 3.0};
    check_f64("Round", 22, 6, xd, wd);
    /* bfloat16 from 22 only */
    static const uint16_t b[1] = {0x4020}; /* 2.5 */
    osc_tensor tb = vec(OSC_BFLOAT16, 1, b);
    kh_init_since(&h, "Round", 21, 11);
    assert_int_equal(kh_run1(&h, &tb), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    kh_init_since(&h, "Round", 22, 22);
    assert_int_equal(kh_run1(&h, &tb), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x4000);
    kh_free(&h);
}

static void test_sign(void **state) {
    (void)state;
    static const float x[4] = {-3.0f, 0.0f, 2.0f, NAN};
    static const double want[4] = {-1.0, 0.0, 1.0, NAN};
    check_f32("Sign", 9, 4, x, want);
    static const int8_t i8[3] = {-128, 0, 127}, w8[3] = {-1, 0, 1};
    static const uint16_t u16[2] = {0, 7}, wu[2] = {0, 1};
    static const int64_t i64[2] = {INT64_MIN, 5}, w64[2] = {-1, 1};
    osc_tensor t8 = vec(OSC_INT8, 3, i8), tu = vec(OSC_UINT16, 2, u16);
    osc_tensor t64 = vec(OSC_INT64, 2, i64);
    kh h;
    kh_init_since(&h, "Sign", 9, 9);
    assert_int_equal(kh_run1(&h, &t8), OSC_OK);
    assert_memory_equal(h.out.data, w8, sizeof w8);
    kh_free(&h);
    kh_init_since(&h, "Sign", 13, 13);
    assert_int_equal(kh_run1(&h, &tu), OSC_OK);
    assert_memory_equal(h.out.data, wu, sizeof wu);
    kh_free(&h);
    kh_init_since(&h, "Sign", 13, 13);
    assert_int_equal(kh_run1(&h, &t64), OSC_OK);
    assert_memory_equal(h.out.data, w64, sizeof w64);
    kh_free(&h);
    static const uint16_t bf[2] = {0xc080, 0x0000}; /* -4, 0 */
    osc_tensor tb = vec(OSC_BFLOAT16, 2, bf);
    kh_init_since(&h, "Sign", 12, 9);
    assert_int_equal(kh_run1(&h, &tb), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    kh_init_since(&h, "Sign", 13, 13);
    assert_int_equal(kh_run1(&h, &tb), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0xbf80);
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x0000);
    kh_free(&h);
}

/* ---- IsInf, IsNaN ---- */

static void check_bool(kh *h, const osc_tensor *x, const uint8_t *want, int64_t n) {
    assert_int_equal(kh_run1(h, x), OSC_OK);
    assert_int_equal(h->out.dtype, OSC_BOOL);
    assert_memory_equal(h->out.data, want, (size_t)n);
    kh_free(h);
}

static void test_isinf_isnan(void **state) {
    (void)state;
    static const float x[5] = {-INFINITY, INFINITY, 1.0f, NAN, -0.0f};
    osc_tensor t = vec(OSC_FLOAT, 5, x);
    kh h;
    kh_init_since(&h, "IsInf", 10, 10);
    check_bool(&h, &t, (const uint8_t[]){1, 1, 0, 0, 0}, 5);
    kh_init_since(&h, "IsInf", 20, 20);
    kh_attr_int(&h, "detect_negative", 0);
    check_bool(&h, &t, (const uint8_t[]){0, 1, 0, 0, 0}, 5);
    kh_init_since(&h, "IsInf", 20, 20);
    kh_attr_int(&h, "detect_positive", 0);
    check_bool(&h, &t, (const uint8_t[]){1, 0, 0, 0, 0}, 5);
    kh_init_since(&h, "IsInf", 10, 10);
    kh_attr_int(&h, "detect_positive", 0);
    kh_attr_int(&h, "detect_negative", 0);
    check_bool(&h, &t, (const uint8_t[]){0, 0, 0, 0, 0}, 5);
    kh_init_since(&h, "IsNaN", 9, 9);
    check_bool(&h, &t, (const uint8_t[]){0, 0, 0, 1, 0}, 5);
    static const double xd[3] = {-INFINITY, NAN, 1e308};
    osc_tensor td = vec(OSC_DOUBLE, 3, xd);
    kh_init_since(&h, "IsInf", 10, 10);
    check_bool(&h, &td, (const uint8_t[]){1, 0, 0}, 3);
    kh_init_since(&h, "IsNaN", 13, 13);
    check_bool(&h, &td, (const uint8_t[]){0, 1, 0}, 3);
    /* float16 (IsInf from 20), bfloat16 (IsNaN from 13) */
    static const uint16_t h16[4] = {0x7c00, 0xfc00, 0x7e00, 0x7bff};
    osc_tensor th = vec(OSC_FLOAT16, 4, h16);
    kh_init_since(&h, "IsInf", 19, 10);
    assert_int_equal(kh_run1(&h, &th), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "dtype float16");
    kh_free(&h);
    kh_init_since(&h, "IsInf", 20, 20);
    check_bool(&h, &th, (const uint8_t[]){1, 1, 0, 0}, 4);
    kh_init_since(&h, "IsNaN", 9, 9);
    check_bool(&h, &th, (const uint8_t[]){0, 0, 1, 0}, 4);
    static const uint16_t b16[3] = {0x7f80, 0x7fc0, 0x3f80};
    osc_tensor tb = vec(OSC_BFLOAT16, 3, b16);
    kh_init_since(&h, "IsNaN", 12, 9);
    assert_int_equal(kh_run1(&h, &tb), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    kh_init_since(&h, "IsNaN", 13, 13);
    check_bool(&h, &tb, (const uint8_t[]){0, 1, 0}, 3);
    kh_init_since(&h, "IsInf", 20, 20);
    check_bool(&h, &tb, (const uint8_t[]){1, 0, 0}, 3);
    /* float8 from 20: e5m2 has Inf (0x7c, 0xfc) and NaN (0x7f); e4m3fn has no Inf, NaN 0x7f;
     * the fnuz kinds' NaN is 0x80 */
    static const uint8_t e5[4] = {0x7c, 0xfc, 0x7f, 0x3c};
    osc_tensor t5 = vec(OSC_FLOAT8E5M2, 4, e5);
    kh_init_since(&h, "IsInf", 20, 20);
    check_bool(&h, &t5, (const uint8_t[]){1, 1, 0, 0}, 4);
    kh_init_since(&h, "IsNaN", 20, 20);
    check_bool(&h, &t5, (const uint8_t[]){0, 0, 1, 0}, 4);
    kh_init_since(&h, "IsInf", 20, 20);
    kh_attr_int(&h, "detect_positive", 0);
    check_bool(&h, &t5, (const uint8_t[]){0, 1, 0, 0}, 4);
    kh_init_since(&h, "IsInf", 20, 20);
    kh_attr_int(&h, "detect_negative", 0);
    check_bool(&h, &t5, (const uint8_t[]){1, 0, 0, 0}, 4);
    static const uint8_t e4[3] = {0x7f, 0x7e, 0xff};
    osc_tensor t4 = vec(OSC_FLOAT8E4M3FN, 3, e4);
    kh_init_since(&h, "IsInf", 20, 20);
    check_bool(&h, &t4, (const uint8_t[]){0, 0, 0}, 3);
    kh_init_since(&h, "IsNaN", 20, 20);
    check_bool(&h, &t4, (const uint8_t[]){1, 0, 1}, 3);
    static const uint8_t fz[2] = {0x80, 0x00};
    osc_tensor tz4 = vec(OSC_FLOAT8E4M3FNUZ, 2, fz), tz5 = vec(OSC_FLOAT8E5M2FNUZ, 2, fz);
    kh_init_since(&h, "IsNaN", 20, 20);
    check_bool(&h, &tz4, (const uint8_t[]){1, 0}, 2);
    kh_init_since(&h, "IsNaN", 20, 20);
    check_bool(&h, &tz5, (const uint8_t[]){1, 0}, 2);
    kh_init_since(&h, "IsNaN", 19, 13);
    assert_int_equal(kh_run1(&h, &t5), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    /* attributes */
    kh_init_since(&h, "IsInf", 10, 10);
    kh_attr_int(&h, "detect_positive", 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "'detect_positive' = 2");
    kh_init_since(&h, "IsInf", 10, 10);
    kh_attr_int(&h, "detect_negative", -1);
    kh_init_fails(&h, OSC_ERR_MODEL, "'detect_negative' = -1");
    kh_init_since(&h, "IsInf", 10, 10);
    kh_attr_float(&h, "detect_negative", 1.0f);
    kh_init_fails(&h, OSC_ERR_MODEL, "must be an int");
    kh_init_since(&h, "IsInf", 10, 10);
    kh_attr_float(&h, "detect_positive", 1.0f);
    kh_init_fails(&h, OSC_ERR_MODEL, "'detect_positive' must be an int");
    kh_init_since(&h, "IsNaN", 13, 13);
    kh_attr_int(&h, "detect_negative", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'detect_negative'");
}

/* ---- Clip ---- */

static void test_clip_attributes(void **state) {
    (void)state;
    static const float x[5] = {-2.0f, 0.5f, 3.0f, NAN, INFINITY};
    osc_tensor t = vec(OSC_FLOAT, 5, x);
    kh h;
    kh_init_since(&h, "Clip", 6, 6);
    kh_attr_float(&h, "min", -1.0f);
    kh_attr_float(&h, "max", 1.0f);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    const float *o = h.out.data;
    assert_true(o[0] == -1.0f && o[1] == 0.5f && o[2] == 1.0f && isnan(o[3]) && o[4] == 1.0f);
    kh_free(&h);
    kh_init_since(&h, "Clip", 6, 6); /* max only */
    kh_attr_float(&h, "max", 0.0f);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    o = h.out.data;
    assert_true(o[0] == -2.0f && o[1] == 0.0f && o[2] == 0.0f && isnan(o[3]) && o[4] == 0.0f);
    kh_free(&h);
    kh_init_since(&h, "Clip", 10, 6); /* no bounds: unchanged, Inf included */
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    o = h.out.data;
    assert_true(o[0] == -2.0f && o[2] == 3.0f && isnan(o[3]) && o[4] == INFINITY);
    kh_free(&h);
    /* float16 with a bound that is not a float16: clamping then rounding once */
    static const uint16_t hx[2] = {0x0000, 0x3c00}; /* 0, 1 */
    osc_tensor th = vec(OSC_FLOAT16, 2, hx);
    kh_init_since(&h, "Clip", 1, 1);
    kh_attr_float(&h, "min", 0.1f);
    kh_attr_float(&h, "max", 0.7f);
    kh_attr_ints(&h, "consumed_inputs", NULL, 0);
    assert_int_equal(kh_run1(&h, &th), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x2e66); /* 0.0999755859375 */
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x399a); /* 0.7001953125 */
    kh_free(&h);
    /* double with min > max: every element becomes max */
    static const double xd[2] = {-5.0, 5.0};
    osc_tensor td = vec(OSC_DOUBLE, 2, xd);
    kh_init_since(&h, "Clip", 6, 6);
    kh_attr_float(&h, "min", 2.0f);
    kh_attr_float(&h, "max", 1.0f);
    assert_int_equal(kh_run1(&h, &td), OSC_OK);
    assert_true(((double *)h.out.data)[0] == 1.0 && ((double *)h.out.data)[1] == 1.0);
    kh_free(&h);
    /* attribute errors */
    kh_init_since(&h, "Clip", 6, 6);
    kh_attr_int(&h, "min", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "'min' must be a float");
    kh_init_since(&h, "Clip", 6, 6);
    kh_attr_ints(&h, "consumed_inputs", NULL, 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'consumed_inputs'");
    kh_init_since(&h, "Clip", 11, 11);
    kh_attr_float(&h, "min", 0.0f);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'min'");
    /* integers are not a Clip-6 type */
    static const int32_t i32[1] = {1};
    osc_tensor ti = vec(OSC_INT32, 1, i32);
    kh_init_since(&h, "Clip", 6, 6);
    assert_int_equal(kh_run1(&h, &ti), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
}

static void test_clip_inputs(void **state) {
    (void)state;
    static const float x[4] = {-2.0f, 0.5f, 3.0f, NAN}, lo = -1.0f, hi = 1.0f;
    osc_tensor t = vec(OSC_FLOAT, 4, x);
    osc_tensor tlo = kh_tensor(OSC_FLOAT, 0, NULL, &lo), thi = kh_tensor(OSC_FLOAT, 0, NULL, &hi);
    kh h;
    kh_init_since(&h, "Clip", 11, 11);
    assert_int_equal(kh_run3(&h, &t, &tlo, &thi), OSC_OK);
    const float *o = h.out.data;
    assert_true(o[0] == -1.0f && o[1] == 0.5f && o[2] == 1.0f && isnan(o[3]));
    kh_free(&h);
    kh_init_since(&h, "Clip", 13, 13); /* min only (two inputs) */
    assert_int_equal(kh_run2(&h, &t, &tlo), OSC_OK);
    o = h.out.data;
    assert_true(o[0] == -1.0f && o[2] == 3.0f);
    kh_free(&h);
    kh_init_since(&h, "Clip", 13, 13); /* min omitted, max given */
    assert_int_equal(kh_run3(&h, &t, NULL, &thi), OSC_OK);
    o = h.out.data;
    assert_true(o[0] == -2.0f && o[2] == 1.0f);
    kh_free(&h);
    kh_init_since(&h, "Clip", 13, 13); /* max omitted as the last of three inputs */
    assert_int_equal(kh_run3(&h, &t, &tlo, NULL), OSC_OK);
    o = h.out.data;
    assert_true(o[0] == -1.0f && o[2] == 3.0f);
    kh_free(&h);
    kh_init_since(&h, "Clip", 13, 13); /* data only */
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, x, 3 * sizeof(float));
    kh_free(&h);
    kh_init_since(&h, "Clip", 13, 13); /* min > max: max */
    assert_int_equal(kh_run3(&h, &t, &thi, &tlo), OSC_OK);
    o = h.out.data;
    assert_true(o[0] == -1.0f && o[1] == -1.0f && o[2] == -1.0f);
    kh_free(&h);
    /* integers from 12: int8 and uint64, a bound of shape [1] */
    static const int8_t x8[4] = {-128, 5, 127, -10}, lo8 = -10, hi8 = 10;
    static const int8_t w8[4] = {-10, 5, 10, -10};
    osc_tensor t8 = vec(OSC_INT8, 4, x8), tlo8 = vec(OSC_INT8, 1, &lo8);
    osc_tensor thi8 = kh_tensor(OSC_INT8, 0, NULL, &hi8);
    kh_init_since(&h, "Clip", 12, 12);
    assert_int_equal(kh_run3(&h, &t8, &tlo8, &thi8), OSC_OK);
    assert_memory_equal(h.out.data, w8, sizeof w8);
    kh_free(&h);
    kh_init_since(&h, "Clip", 11, 11);
    assert_int_equal(kh_run3(&h, &t8, &tlo8, &thi8), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    static const uint64_t xu[3] = {0, 1000, UINT64_MAX}, hiu = 999;
    static const uint64_t wu[3] = {0, 999, 999};
    osc_tensor tu = vec(OSC_UINT64, 3, xu), thiu = kh_tensor(OSC_UINT64, 0, NULL, &hiu);
    kh_init_since(&h, "Clip", 13, 13);
    assert_int_equal(kh_run3(&h, &tu, NULL, &thiu), OSC_OK);
    assert_memory_equal(h.out.data, wu, sizeof wu);
    kh_free(&h);
    /* bfloat16 from 13: 3 clipped to 2 */
    static const uint16_t xb[2] = {0x4040, 0x3f80}, hib = 0x4000;
    osc_tensor tb = vec(OSC_BFLOAT16, 2, xb), thib = kh_tensor(OSC_BFLOAT16, 0, NULL, &hib);
    kh_init_since(&h, "Clip", 12, 12);
    assert_int_equal(kh_run3(&h, &tb, NULL, &thib), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    kh_init_since(&h, "Clip", 13, 13);
    assert_int_equal(kh_run3(&h, &tb, NULL, &thib), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x4000);
    assert_int_equal(((uint16_t *)h.out.data)[1], 0x3f80);
    kh_free(&h);
    /* errors: a bound of another dtype, of two elements, without its data */
    static const double lod = -1.0;
    osc_tensor tlod = kh_tensor(OSC_DOUBLE, 0, NULL, &lod);
    kh_init_since(&h, "Clip", 13, 13);
    assert_int_equal(kh_run2(&h, &t, &tlod), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "min");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    static const float two[2] = {0, 1};
    osc_tensor t2 = vec(OSC_FLOAT, 2, two);
    kh_init_since(&h, "Clip", 13, 13);
    assert_int_equal(kh_run3(&h, &t, &tlo, &t2), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 2 'max'");
    kh_assert_msg_has(&h, "[2]");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    osc_tensor tnull = kh_tensor(OSC_FLOAT, 0, NULL, NULL);
    kh_init_since(&h, "Clip", 13, 13);
    assert_int_equal(kh_run2(&h, &t, &tnull), OSC_ERR_ARG);
    kh_assert_msg_has(&h, "input 1 'min' buffer");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    kh_init_since(&h, "Clip", 13, 13);
    assert_int_equal(kh_run(&h, 0, NULL), OSC_ERR_MODEL);
    kh_free(&h);
    /* in place */
    float buf[3] = {-5, 0, 5};
    osc_tensor tbuf = vec(OSC_FLOAT, 3, buf);
    const osc_tensor *in[3] = {&tbuf, &tlo, &thi};
    kh_init_since(&h, "Clip", 13, 13);
    assert_int_equal(kh_run_inplace(&h, 3, in), OSC_OK);
    assert_true(buf[0] == -1.0f && buf[1] == 0.0f && buf[2] == 1.0f);
    kh_free(&h);
}

/* ---- Pow ---- */

static void test_pow_float(void **state) {
    (void)state;
    /* broadcast: [2,1] ^ [3] -> [2,3] */
    static const float x[2] = {2.0f, 3.0f}, y[3] = {0.0f, 1.0f, 2.0f};
    static const float want[6] = {1, 2, 4, 1, 3, 9};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 1}, x), ty = vec(OSC_FLOAT, 3, y);
    kh h;
    kh_init_since(&h, "Pow", 7, 7);
    assert_int_equal(kh_run2(&h, &tx, &ty), OSC_OK);
    assert_int_equal(h.out.rank, 2);
    assert_int_equal(h.out.dims[0], 2);
    assert_int_equal(h.out.dims[1], 3);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
    /* special values: 0^-1 = Inf, (-8)^(1/3) = NaN, 4^0.5 = 2 */
    static const double xd[3] = {0.0, -8.0, 4.0}, yd[3] = {-1.0, 1.0 / 3, 0.5};
    osc_tensor txd = vec(OSC_DOUBLE, 3, xd), tyd = vec(OSC_DOUBLE, 3, yd);
    kh_init_since(&h, "Pow", 13, 13);
    assert_int_equal(kh_run2(&h, &txd, &tyd), OSC_OK);
    const double *od = h.out.data;
    assert_true(isinf(od[0]) && isnan(od[1]) && od[2] == 2.0);
    kh_free(&h);
    /* before 12 the exponent has the base's dtype */
    kh_init_since(&h, "Pow", 11, 7);
    assert_int_equal(kh_run2(&h, &tx, &tyd), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "they must match");
    kh_free(&h);
    /* a broadcast mismatch */
    static const float y2[2] = {1, 2};
    osc_tensor tx3 = vec(OSC_FLOAT, 3, y), ty2 = vec(OSC_FLOAT, 2, y2);
    kh_init_since(&h, "Pow", 15, 15);
    assert_int_equal(kh_run2(&h, &tx3, &ty2), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "does not broadcast");
    kh_free(&h);
    /* missing exponent */
    kh_init_since(&h, "Pow", 15, 15);
    assert_int_equal(kh_run1(&h, &tx3), OSC_ERR_MODEL);
    kh_free(&h);
    kh_init_since(&h, "Pow", 15, 15);
    kh_attr_int(&h, "broadcast", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'broadcast'");
    /* empty */
    osc_tensor te = kh_tensor(OSC_FLOAT, 2, (int64_t[]){0, 3}, NULL);
    kh_init_since(&h, "Pow", 15, 15);
    assert_int_equal(kh_run2(&h, &te, &ty), OSC_OK);
    assert_int_equal(h.out.dims[0], 0);
    kh_free(&h);
    /* a row longer than one chunk (256) of the loaders: 600 elements */
    float big[600], two = 2.0f;
    for (int i = 0; i < 600; i++) big[i] = (float)(i % 7);
    osc_tensor tbig = vec(OSC_FLOAT, 600, big), ttwo = kh_tensor(OSC_FLOAT, 0, NULL, &two);
    kh_init_since(&h, "Pow", 15, 15);
    assert_int_equal(kh_run2(&h, &tbig, &ttwo), OSC_OK);
    for (int i = 0; i < 600; i++)
        assert_true(((float *)h.out.data)[i] == (float)((i % 7) * (i % 7)));
    kh_free(&h);
}

static void test_pow_mixed_types(void **state) {
    (void)state;
    kh h;
    /* float base, int64 exponent */
    static const float xf[3] = {2.0f, 0.5f, -3.0f};
    static const int64_t yi[3] = {3, -2, 3};
    static const float wf[3] = {8.0f, 4.0f, -27.0f};
    osc_tensor txf = vec(OSC_FLOAT, 3, xf), tyi = vec(OSC_INT64, 3, yi);
    kh_init_since(&h, "Pow", 12, 12);
    assert_int_equal(kh_run2(&h, &txf, &tyi), OSC_OK);
    assert_int_equal(h.out.dtype, OSC_FLOAT);
    assert_memory_equal(h.out.data, wf, sizeof wf);
    kh_free(&h);
    /* int32 base, float exponent: truncated toward zero, saturated, NaN -> 0 */
    static const int32_t xi[6] = {2, 9, 10, -10, 4, 7};
    static const float yf[6] = {0.5f, 0.5f, 20.0f, 21.0f, NAN, -1.0f};
    static const int32_t wi[6] = {1, 3, INT32_MAX, INT32_MIN, 0, 0};
    osc_tensor txi = vec(OSC_INT32, 6, xi), tyf = vec(OSC_FLOAT, 6, yf);
    kh_init_since(&h, "Pow", 15, 15);
    assert_int_equal(kh_run2(&h, &txi, &tyf), OSC_OK);
    assert_int_equal(h.out.dtype, OSC_INT32);
    assert_memory_equal(h.out.data, wi, sizeof wi);
    kh_free(&h);
    /* int64 base, double exponent beyond the range */
    static const int64_t xl[2] = {2, -2};
    static const double yl[2] = {70.0, 71.0};
    static const int64_t wl[2] = {INT64_MAX, INT64_MIN};
    osc_tensor txl = vec(OSC_INT64, 2, xl), tyl = vec(OSC_DOUBLE, 2, yl);
    kh_init_since(&h, "Pow", 13, 13);
    assert_int_equal(kh_run2(&h, &txl, &tyl), OSC_OK);
    assert_memory_equal(h.out.data, wl, sizeof wl);
    kh_free(&h);
    /* integer powers are exact and wrap; negative exponents truncate 1/x^n */
    static const int64_t xa[8] = {3, -2, 2, 1, -1, -1, 3, 2};
    static const int64_t ya[8] = {4, 3, 62, -5, -3, -2, -1, 64};
    static const int64_t wa[8] = {81, -8, 4611686018427387904LL, 1, -1, 1, 0, 0};
    osc_tensor txa = vec(OSC_INT64, 8, xa), tya = vec(OSC_INT64, 8, ya);
    kh_init_since(&h, "Pow", 12, 12);
    assert_int_equal(kh_run2(&h, &txa, &tya), OSC_OK);
    assert_memory_equal(h.out.data, wa, sizeof wa);
    kh_free(&h);
    static const int32_t x31[2] = {2, 3};
    static const int8_t y31[2] = {31, 21};
    /* 2^31 wraps to INT32_MIN; 3^21 = 10460353203 wraps to 10460353203 - 2^33 = 1870418611 */
    static const int32_t w31[2] = {INT32_MIN, 1870418611};
    osc_tensor tx31 = vec(OSC_INT32, 2, x31), ty31 = vec(OSC_INT8, 2, y31);
    kh_init_since(&h, "Pow", 15, 15);
    assert_int_equal(kh_run2(&h, &tx31, &ty31), OSC_OK);
    assert_memory_equal(h.out.data, w31, sizeof w31);
    kh_free(&h);
    /* an unsigned exponent: never negative, 2^(2^63) wraps to 0, 3^uint64 exact mod 2^32 */
    static const uint64_t yu[3] = {3, (uint64_t)1 << 63, 0};
    static const int32_t xu[3] = {2, 2, 0}, wu[3] = {8, 0, 1};
    osc_tensor txu = vec(OSC_INT32, 3, xu), tyu = vec(OSC_UINT64, 3, yu);
    kh_init_since(&h, "Pow", 12, 12);
    assert_int_equal(kh_run2(&h, &txu, &tyu), OSC_OK);
    assert_memory_equal(h.out.data, wu, sizeof wu);
    kh_free(&h);
    /* 0 to a negative integer power: refused before anything is written, naming the element */
    static const int64_t xz[3] = {2, 0, 0}, yz[1] = {-1};
    osc_tensor txz = vec(OSC_INT64, 3, xz), tyz = vec(OSC_INT64, 1, yz);
    kh_init_since(&h, "Pow", 15, 15);
    assert_int_equal(kh_run2(&h, &txz, &tyz), OSC_ERR_ARG);
    kh_assert_msg_has(&h, "output element 1");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    /* float16 base with a float16 exponent: sqrt(2) rounds once to 1.4140625 (0x3da8) */
    static const uint16_t xh[1] = {0x4000}, yh[1] = {0x3800};
    osc_tensor txh = vec(OSC_FLOAT16, 1, xh), tyh = vec(OSC_FLOAT16, 1, yh);
    kh_init_since(&h, "Pow", 12, 12);
    assert_int_equal(kh_run2(&h, &txh, &tyh), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3da8);
    kh_free(&h);
    /* bfloat16: a base from 13, an exponent from 15 */
    static const uint16_t xb[1] = {0x4040}, yb[1] = {0x4000}; /* 3, 2 */
    osc_tensor txb = vec(OSC_BFLOAT16, 1, xb), tyb = vec(OSC_BFLOAT16, 1, yb);
    kh_init_since(&h, "Pow", 12, 12);
    assert_int_equal(kh_run2(&h, &txb, &tyh), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    kh_init_since(&h, "Pow", 14, 13);
    assert_int_equal(kh_run2(&h, &txb, &tyh), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x3fde); /* 3^0.5 = 1.732 -> 1.734375 */
    kh_free(&h);
    kh_init_since(&h, "Pow", 14, 13);
    assert_int_equal(kh_run2(&h, &txb, &tyb), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "input 1 'Y'");
    kh_free(&h);
    kh_init_since(&h, "Pow", 15, 15);
    assert_int_equal(kh_run2(&h, &txb, &tyb), OSC_OK);
    assert_int_equal(((uint16_t *)h.out.data)[0], 0x4110); /* 9 */
    kh_free(&h);
    /* no integer base other than int32/int64 */
    static const uint8_t xu8[1] = {2};
    osc_tensor txu8 = vec(OSC_UINT8, 1, xu8);
    kh_init_since(&h, "Pow", 15, 15);
    assert_int_equal(kh_run2(&h, &txu8, &tyi), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
}

/* Pow-1: broadcast=1 stretches Y into X (suffix, or from axis); broadcast=0 wants X's shape. */
static void test_pow_legacy(void **state) {
    (void)state;
    static const float x[6] = {1, 2, 3, 4, 5, 6};
    osc_tensor tx = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, x);
    static const float y3[3] = {0, 1, 2}, y2[2] = {2, 0}, y1[1] = {2};
    osc_tensor ty3 = vec(OSC_FLOAT, 3, y3), ty2 = vec(OSC_FLOAT, 2, y2);
    osc_tensor ty11 = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 1}, y1);
    kh h;
    kh_init_since(&h, "Pow", 6, 1);
    kh_attr_int(&h, "broadcast", 1);
    assert_int_equal(kh_run2(&h, &tx, &ty3), OSC_OK);
    static const float w3[6] = {1, 2, 9, 1, 5, 36};
    assert_memory_equal(h.out.data, w3, sizeof w3);
    kh_free(&h);
    kh_init_since(&h, "Pow", 1, 1);
    kh_attr_int(&h, "broadcast", 1);
    kh_attr_int(&h, "axis", 0);
    assert_int_equal(kh_run2(&h, &tx, &ty2), OSC_OK);
    static const float w2[6] = {1, 4, 9, 1, 1, 1};
    assert_memory_equal(h.out.data, w2, sizeof w2);
    kh_free(&h);
    kh_init_since(&h, "Pow", 1, 1);
    kh_attr_int(&h, "broadcast", 1);
    kh_attr_int(&h, "axis", -2); /* the same, counted from the end */
    assert_int_equal(kh_run2(&h, &tx, &ty2), OSC_OK);
    assert_memory_equal(h.out.data, w2, sizeof w2);
    kh_free(&h);
    kh_init_since(&h, "Pow", 1, 1);
    kh_attr_int(&h, "broadcast", 1);
    assert_int_equal(kh_run2(&h, &tx, &ty11), OSC_OK);
    static const float w1[6] = {1, 4, 9, 16, 25, 36};
    assert_memory_equal(h.out.data, w1, sizeof w1);
    assert_int_equal(h.out.rank, 2);
    kh_free(&h);
    kh_init_since(&h, "Pow", 1, 1); /* broadcast=0: the shapes must match */
    assert_int_equal(kh_run2(&h, &tx, &ty3), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "broadcast=0");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    static const float y6[6] = {1, 1, 1, 1, 1, 1};
    osc_tensor ty6 = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, y6);
    kh_init_since(&h, "Pow", 1, 1);
    assert_int_equal(kh_run2(&h, &tx, &ty6), OSC_OK);
    assert_memory_equal(h.out.data, x, sizeof x);
    kh_free(&h);
    kh_init_since(&h, "Pow", 1, 1); /* Y [2] does not end X's shape [2,3] */
    kh_attr_int(&h, "broadcast", 1);
    assert_int_equal(kh_run2(&h, &tx, &ty2), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "from axis 1");
    kh_free(&h);
    kh_init_since(&h, "Pow", 1, 1); /* axis past the end */
    kh_attr_int(&h, "broadcast", 1);
    kh_attr_int(&h, "axis", 2);
    assert_int_equal(kh_run2(&h, &tx, &ty2), OSC_ERR_SHAPE);
    kh_free(&h);
    osc_tensor ty123 = kh_tensor(OSC_FLOAT, 3, (int64_t[]){1, 2, 3}, y6);
    kh_init_since(&h, "Pow", 1, 1); /* Y of a higher rank */
    kh_attr_int(&h, "broadcast", 1);
    assert_int_equal(kh_run2(&h, &tx, &ty123), OSC_ERR_SHAPE);
    kh_free(&h);
    kh_init_since(&h, "Pow", 1, 1); /* axis before the start */
    kh_attr_int(&h, "broadcast", 1);
    kh_attr_int(&h, "axis", -5);
    assert_int_equal(kh_run2(&h, &tx, &ty2), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "from axis -3");
    kh_free(&h);
    kh_init_since(&h, "Pow", 1, 1);
    kh_attr_int(&h, "broadcast", 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "'broadcast' = 2");
    kh_init_since(&h, "Pow", 1, 1);
    kh_attr_float(&h, "axis", 0.0f);
    kh_init_fails(&h, OSC_ERR_MODEL, "'axis' must be an int");
    kh_init_since(&h, "Pow", 1, 1);
    kh_attr_float(&h, "broadcast", 1.0f);
    kh_init_fails(&h, OSC_ERR_MODEL, "'broadcast' must be an int");
    /* in place: the output is X's shape */
    float buf[6] = {1, 2, 3, 4, 5, 6};
    osc_tensor tb = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, buf);
    const osc_tensor *in[2] = {&tb, &ty3};
    kh_init_since(&h, "Pow", 1, 1);
    assert_true(h.kernel->flags & OSC_KF_INPLACE);
    kh_attr_int(&h, "broadcast", 1);
    assert_int_equal(kh_run_inplace(&h, 2, in), OSC_OK);
    assert_memory_equal(buf, w3, sizeof w3);
    kh_free(&h);
}

/* Every row of these ops runs on every dtype of its type constraint (and Pow on every pair of
 * base and exponent dtypes): the kernels index their loop tables by dtype without a check. */
static void test_every_row_every_dtype(void **state) {
    (void)state;
    static const char *const k_ops[] = {
        "Relu",  "LeakyRelu", "Elu",   "Selu",       "Celu",  "Sigmoid", "HardSigmoid",
        "HardSwish", "Tanh",  "Softplus", "Softsign", "Gelu", "Erf",     "PRelu",
        "Exp",   "Log",       "Sqrt",  "Reciprocal", "Floor", "Ceil",    "Pow",
        "Round", "Sign",      "Sin",   "Cos",        "IsInf", "IsNaN",   "Clip"};
    const size_t n_ops = sizeof k_ops / sizeof k_ops[0];
    static uint64_t zero[2]; /* one element of any dtype, value 0 (bounds of Clip too) */
    int runs = 0;
    for (size_t r = 0; r < osc_kernel_count(); r++) {
        const osc_kernel *row = osc_kernel_at(r);
        bool mine = false;
        for (size_t i = 0; i < n_ops && !mine; i++) mine = strcmp(row->op, k_ops[i]) == 0;
        if (!mine) continue;
        const bool pow12 = !strcmp(row->op, "Pow") && row->since >= 12;
        for (int32_t d = 1; d < OSC_DTYPE_COUNT; d++) {
            if (!(osc_kernel_types(row, 0) & OSC_TS(d))) continue;
            for (int32_t e = 1; e < OSC_DTYPE_COUNT; e++) {
                if (pow12 ? !(osc_kernel_types(row, 1) & OSC_TS(e)) : e != d) continue;
                osc_tensor x = kh_tensor(d, 1, (int64_t[]){1}, zero);
                osc_tensor y = kh_tensor(e, 1, (int64_t[]){1}, zero);
                const osc_tensor *in[3] = {&x, &y, &y};
                kh h;
                kh_init(&h, row->op, row->since);
                osc_status st = kh_run(&h, row->inputs.max, in);
                if (st)
                    fail_msg("%s-%lld on %s/%s: %s", row->op, (long long)row->since,
                             osc_dtype_get(d)->name, osc_dtype_get(e)->name, h.err.msg);
                kh_free(&h);
                runs++;
            }
        }
    }
    assert_true(runs > 300);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_rows_resolve),
    cmocka_unit_test(test_relu),
    cmocka_unit_test(test_leaky_elu_selu_celu),
    cmocka_unit_test(test_sigmoid_family),
    cmocka_unit_test(test_gelu_erf),
    cmocka_unit_test(test_half_types),
    cmocka_unit_test(test_activation_attributes),
    cmocka_unit_test(test_unary_errors_and_inplace),
    cmocka_unit_test(test_prelu),
    cmocka_unit_test(test_math_values),
    cmocka_unit_test(test_round_half_even),
    cmocka_unit_test(test_sign),
    cmocka_unit_test(test_isinf_isnan),
    cmocka_unit_test(test_clip_attributes),
    cmocka_unit_test(test_clip_inputs),
    cmocka_unit_test(test_pow_float),
    cmocka_unit_test(test_pow_mixed_types),
    cmocka_unit_test(test_pow_legacy),
    cmocka_unit_test(test_every_row_every_dtype),
)
