/* activation.c: Relu, LeakyRelu, Elu, Selu, Celu, Sigmoid, HardSigmoid, HardSwish, Tanh,
 * Softplus, Softsign, Gelu (exact and tanh), Erf, Mish, Swish, ThresholdedRelu, Shrink: one
 * input, one output of its dtype and shape. float computes in float (expf...), double in double,
 * float16/bfloat16 in float rounded once per element; the integer versions (Relu-14, Erf-9,
 * Shrink-9) compute in double, then as the reference's cast (truncation, saturated here).
 * Loops are generated from the X-macro class lists of core/dtype.h, one per (op, dtype). */
#include <math.h>
#include <string.h>

#include "ew_ops.h"
#include "math_common.h"

OSC_KERNEL_DECLARE(osc_act)

/* The loops' codes: the rows' operations (OSC_ACT_*, ew_ops.h), then Gelu's tanh approximation,
 * a code of its own that init picks from Gelu's attribute and that no row names. */
enum { OSC_ACT_GELU_TANH = OSC_ACT_END, N_CODES };

/* ---- Scalar rules in the compute type T (float or double), x of type T. The attributes are
 * the loop's locals p_alpha, p_beta, p_gamma, converted to T once. x is evaluated more than
 * once: it is a plain variable. ---- */
#define F_RELU(T, x) ((x) < 0 ? (T)0 : (x)) /* NaN stays NaN, as numpy's maximum */
#define F_LEAKY(T, x) ((x) < 0 ? p_alpha * (x) : (x))
#define F_ELU(T, x) ((x) < 0 ? p_alpha * OSC_M(expm1, x) : (x))
#define F_SELU(T, x) ((x) <= 0 ? p_gamma * (p_alpha * OSC_M(expm1, x)) : p_gamma * (x))
/* max(0,x) + min(0, alpha*(exp(x/alpha)-1)): the second term is negative exactly when x < 0,
 * whatever alpha's sign (init refuses alpha = 0). */
#define F_CELU(T, x) ((x) >= 0 ? (x) : p_alpha * OSC_M(expm1, (x) / p_alpha))
#define F_SIGMOID(T, x) OSC_M_SIGMOID(T, x)
#define CLAMP01(T, v) ((v) < 0 ? (T)0 : (v) > 1 ? (T)1 : (v))
#define F_HSIGMOID(T, x) CLAMP01(T, p_alpha * (x) + p_beta)
#define F_HSWISH(T, x) ((x) * CLAMP01(T, (x) * ((T)1 / (T)6) + (T)0.5))
#define F_TANH(T, x) OSC_M(tanh, x)
/* log(exp(x)+1) = max(x,0) + log1p(exp(-|x|)): no overflow for large x */
#define F_SOFTPLUS(T, x) \
    ((x) > 0 ? (x) + OSC_M(log1p, OSC_M(exp, -(x))) : OSC_M(log1p, OSC_M(exp, x)))
#define F_SOFTSIGN(T, x) ((x) / ((T)1 + OSC_M(fabs, x)))
#define SQRT1_2 0.70710678118654752440  /* 1/sqrt(2) */
#define SQRT_2_PI 0.79788456080286535588 /* sqrt(2/pi) */
#define F_GELU(T, x) ((T)0.5 * (x) * ((T)1 + OSC_M(erf, (x) * (T)SQRT1_2)))
#define F_GELU_TANH(T, x)                                                                   \
    ((T)0.5 * (x) *                                                                         \
     ((T)1 + OSC_M(tanh, (T)SQRT_2_PI * ((x) + (T)0.044715 * (x) * (x) * (x)))))
#define F_ERF(T, x) OSC_M(erf, x)
#define F_MISH(T, x) ((x) * OSC_M(tanh, F_SOFTPLUS(T, x))) /* x * tanh(softplus(x)) */
#define F_SWISH(T, x) ((x) * OSC_M_SIGMOID(T, p_alpha * (x)))
#define F_THRELU(T, x) ((x) > p_alpha ? (x) : (T)0)
/* Shrink: lambd in alpha's slot, bias in beta's */
#define F_SHRINK(T, x) ((x) < -p_alpha ? (x) + p_beta : (x) > p_alpha ? (x) - p_beta : (T)0)

/* Integers (Relu-14: signed; Erf-9: every integer type, erf's value truncated toward zero as
 * the reference's cast does: 0, or +-1 from |x| >= 6 where erf rounds to 1 in double). */
#define I_SINT_RELU(T, x) ((x) < 0 ? (T)0 : (x))
#define I_UINT_RELU(T, x) (x)
#define I_SINT_ERF(T, x) ((T)erf((double)(x)))
#define I_UINT_ERF I_SINT_ERF
static inline double shrink_d(double x, double lambd, double bias) {
    return x < -lambd ? x + bias : x > lambd ? x - bias : 0;
}
#define SHRINK_D(x) shrink_d((double)(x), p->alpha, p->beta)
#define I_SINT_SHRINK(T, x) ((T)osc_ew_f2s(SHRINK_D(x), (int)sizeof(T) * 8))
#define I_UINT_SHRINK(T, x) ((T)osc_ew_f2u(SHRINK_D(x), (int)sizeof(T) * 8))

/* The ops each class has: every op for the float classes, three for the integers. */
#define FLOAT_OPS(X, E, T, CLS)                                                             \
    X(RELU, E, T, CLS) X(LEAKY, E, T, CLS) X(ELU, E, T, CLS) X(SELU, E, T, CLS)             \
    X(CELU, E, T, CLS) X(SIGMOID, E, T, CLS) X(HSIGMOID, E, T, CLS) X(HSWISH, E, T, CLS)    \
    X(TANH, E, T, CLS) X(SOFTPLUS, E, T, CLS) X(SOFTSIGN, E, T, CLS) X(GELU, E, T, CLS)     \
    X(GELU_TANH, E, T, CLS) X(ERF, E, T, CLS) X(MISH, E, T, CLS) X(SWISH, E, T, CLS)        \
    X(THRELU, E, T, CLS) X(SHRINK, E, T, CLS)
#define INT_OPS(X, E, T, CLS) X(RELU, E, T, CLS) X(ERF, E, T, CLS) X(SHRINK, E, T, CLS)

#define MOP_ENUM(OP) OSC_ACT_##OP
OSC_MATH_LOOPS(N_CODES)

/* Each operation by its code (the row's variant): its input's name in the spec, its float
 * attributes and their defaults (the float32 values the spec's schemas hold), and whether its
 * version 1 has consumed_inputs. */
typedef struct act_op {
    const char *input;
    const char *attr[3]; /* alpha, beta, gamma slots: NULL where the op has none */
    float def[3];
    bool legacy_v1;
} act_op;

static const act_op k_ops[OSC_ACT_END] = {
    [OSC_ACT_RELU] = {"X", {NULL}, {0}, true},
    [OSC_ACT_LEAKY] = {"X", {"alpha"}, {0.01f}, true},
    [OSC_ACT_ELU] = {"X", {"alpha"}, {1.0f}, true},
    [OSC_ACT_SELU] = {"X", {"alpha", NULL, "gamma"},
                      {1.67326319217681884765625f, 0, 1.05070102214813232421875f}, true},
    [OSC_ACT_CELU] = {"X", {"alpha"}, {1.0f}, false},
    [OSC_ACT_SIGMOID] = {"X", {NULL}, {0}, true},
    [OSC_ACT_HSIGMOID] = {"X", {"alpha", "beta"}, {0.2f, 0.5f}, true},
    [OSC_ACT_HSWISH] = {"X", {NULL}, {0}, false},
    [OSC_ACT_TANH] = {"input", {NULL}, {0}, true},
    [OSC_ACT_SOFTPLUS] = {"X", {NULL}, {0}, false},
    [OSC_ACT_SOFTSIGN] = {"input", {NULL}, {0}, false},
    [OSC_ACT_GELU] = {"X", {NULL}, {0}, false},
    [OSC_ACT_ERF] = {"input", {NULL}, {0}, false},
    [OSC_ACT_MISH] = {"X", {NULL}, {0}, false},
    [OSC_ACT_SWISH] = {"X", {"alpha"}, {1.0f}, false},
    [OSC_ACT_THRELU] = {"X", {"alpha"}, {1.0f}, false},
    [OSC_ACT_SHRINK] = {"input", {"lambd", "bias"}, {0.5f, 0.0f}, false},
};

/* The entry of a loop code (Gelu's for its tanh approximation). */
static const act_op *op_of(int32_t code) {
    return &k_ops[code == OSC_ACT_GELU_TANH ? OSC_ACT_GELU : code];
}

osc_status osc_act_init(osc_kctx *k, const osc_node *node, void **params) {
    const int32_t row_op = k->row->variant;
    if (row_op < OSC_ACT_RELU || row_op >= OSC_ACT_END)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "the row names no activation (variant %d)",
                         (int)row_op);
    const act_op *op = &k_ops[row_op];
    const char *known[5] = {NULL};
    int32_t n_known = 0;
    for (int32_t i = 0; i < 3; i++)
        if (op->attr[i]) known[n_known++] = op->attr[i];
    if (row_op == OSC_ACT_GELU) known[n_known++] = "approximate";
    osc_status st = osc_attr_known_legacy(k, node, known, op->legacy_v1 && k->since_version == 1);
    if (st) return st;
    double v[3] = {0, 0, 0};
    for (int32_t i = 0; i < 3 && !st; i++)
        if (op->attr[i]) st = osc_attr_float(k, node, op->attr[i], op->def[i], &v[i]);
    if (st) return st;
    if (row_op == OSC_ACT_CELU && v[0] == 0)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'alpha' = 0; Celu divides by alpha, so "
                         "it must be nonzero");
    int32_t code = row_op;
    if (code == OSC_ACT_GELU) {
        const char *approx;
        st = osc_attr_str(k, node, "approximate", "none", &approx);
        if (st) return st;
        if (strcmp(approx, "tanh") == 0) code = OSC_ACT_GELU_TANH;
        else if (strcmp(approx, "none") != 0)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'approximate' = '%s'; allowed: "
                             "'none' or 'tanh'", approx);
    }
    osc_mparams *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->op = code;
    p->alpha = v[0];
    p->beta = v[1];
    p->gamma = v[2];
    p->types = osc_kernel_types(k->row, 0);
    *params = p;
    return OSC_OK;
}

osc_status osc_act_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    const osc_mparams *p = k->params;
    return osc_m_unary_infer(k, in, n_in, out, n_out, op_of(p->op)->input, 0, loop_get);
}

osc_status osc_act_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                       int32_t n_out) {
    const osc_mparams *p = k->params;
    return osc_m_unary_run(k, in, n_in, out, n_out, op_of(p->op)->input, 0, loop_get);
}
