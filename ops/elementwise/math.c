/* math.c: Exp, Log, Sqrt, Reciprocal, Floor, Ceil, Round, Sign, Sin, Cos, Tan, Asin, Acos, Atan,
 * Sinh, Cosh, Asinh, Acosh, Atanh: one input, one output of its dtype and shape (outside an
 * inverse's domain, NaN as libm gives). float computes in float, double in double,
 * float16/bfloat16 in float rounded once per element; Sign also takes every integer type.
 * Loops are generated from the X-macro class lists of core/dtype.h, one per (op, dtype). */
#include <math.h>

#include "ew_ops.h"
#include "math_common.h"

OSC_KERNEL_DECLARE(osc_math)

/* ---- Scalar rules in the compute type T (float or double); x is a plain variable. ---- */
#define F_EXP(T, x) OSC_M(exp, x)
#define F_LOG(T, x) OSC_M(log, x)
#define F_SQRT(T, x) OSC_M(sqrt, x)
#define F_RECIP(T, x) ((T)1 / (x))
#define F_FLOOR(T, x) OSC_M(floor, x)
#define F_CEIL(T, x) OSC_M(ceil, x)
#define F_ROUND(T, x) _Generic((x), float: round_even_f, default: round_even_d)(x)
/* 1, -1, or x itself for +-0 and NaN */
#define F_SIGN(T, x) ((x) > 0 ? (T)1 : (x) < 0 ? (T)-1 : (x))
#define F_SIN(T, x) OSC_M(sin, x)
#define F_COS(T, x) OSC_M(cos, x)
#define F_TAN(T, x) OSC_M(tan, x)
#define F_ASIN(T, x) OSC_M(asin, x)
#define F_ACOS(T, x) OSC_M(acos, x)
#define F_ATAN(T, x) OSC_M(atan, x)
#define F_SINH(T, x) OSC_M(sinh, x)
#define F_COSH(T, x) OSC_M(cosh, x)
#define F_ASINH(T, x) OSC_M(asinh, x)
#define F_ACOSH(T, x) OSC_M(acosh, x)
#define F_ATANH(T, x) OSC_M(atanh, x)

/* Round half to even without the floating-point environment: t = floor(x) and d = x - t are
 * exact; a tie goes to the even one of t and t + 1; the result takes x's sign (-0.3 -> -0).
 * Integral values, +-0, NaN and +-Inf come back unchanged (Inf: d is NaN and t + 1 is Inf;
 * NaN: every comparison is false). */
#define ROUND_EVEN(T, SFX)                                                                     \
    static inline T round_even_##SFX(T x) {                                                   \
        const T t = OSC_M(floor, x), d = x - t;                                             \
        const T r = d < (T)0.5 ? t : d > (T)0.5 ? t + 1 : OSC_M2(fmod, t, (T)2) == 0 ? t : t + 1;\
        return OSC_M2(copysign, r, x);                                                      \
    }
ROUND_EVEN(float, f)
ROUND_EVEN(double, d)

/* Integers: Sign only */
#define I_SINT_SIGN(T, x) ((T)(((x) > 0) - ((x) < 0)))
#define I_UINT_SIGN(T, x) ((T)((x) > 0))

#define FLOAT_OPS(X, E, T, CLS)                                                             \
    X(EXP, E, T, CLS) X(LOG, E, T, CLS) X(SQRT, E, T, CLS) X(RECIP, E, T, CLS)              \
    X(FLOOR, E, T, CLS) X(CEIL, E, T, CLS) X(ROUND, E, T, CLS) X(SIGN, E, T, CLS)           \
    X(SIN, E, T, CLS) X(COS, E, T, CLS) X(TAN, E, T, CLS) X(ASIN, E, T, CLS)                \
    X(ACOS, E, T, CLS) X(ATAN, E, T, CLS) X(SINH, E, T, CLS) X(COSH, E, T, CLS)             \
    X(ASINH, E, T, CLS) X(ACOSH, E, T, CLS) X(ATANH, E, T, CLS)
#define INT_OPS(X, E, T, CLS) X(SIGN, E, T, CLS)

#define MOP_ENUM(OP) OSC_MATH_##OP
OSC_MATH_LOOPS(OSC_MATH_END)

/* Each operation by its code (the row's variant): its input's name in the spec, whether
 * version 1 has consumed_inputs. */
typedef struct math_op {
    const char *input;
    bool legacy_v1;
} math_op;

static const math_op k_ops[OSC_MATH_END] = {
    [OSC_MATH_EXP] = {"input", true},    [OSC_MATH_LOG] = {"input", true},
    [OSC_MATH_SQRT] = {"X", true},       [OSC_MATH_RECIP] = {"X", true},
    [OSC_MATH_FLOOR] = {"X", true},      [OSC_MATH_CEIL] = {"X", true},
    [OSC_MATH_ROUND] = {"X", false},     [OSC_MATH_SIGN] = {"input", false},
    [OSC_MATH_SIN] = {"input", false},   [OSC_MATH_COS] = {"input", false},
    [OSC_MATH_TAN] = {"input", false},   [OSC_MATH_ASIN] = {"input", false},
    [OSC_MATH_ACOS] = {"input", false},  [OSC_MATH_ATAN] = {"input", false},
    [OSC_MATH_SINH] = {"input", false},  [OSC_MATH_COSH] = {"input", false},
    [OSC_MATH_ASINH] = {"input", false}, [OSC_MATH_ACOSH] = {"input", false},
    [OSC_MATH_ATANH] = {"input", false},
};

osc_status osc_math_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_none[] = {NULL};
    const int32_t op = k->row->variant;
    if (op < OSC_MATH_EXP || op >= OSC_MATH_END)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "the row names no math operation (variant %d)",
                         (int)op);
    osc_status st = osc_attr_known_legacy(k, node, k_none, k_ops[op].legacy_v1 &&
                                                           k->since_version == 1);
    if (st) return st;
    osc_mparams *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->op = op;
    p->types = osc_kernel_types(k->row, 0);
    *params = p;
    return OSC_OK;
}

osc_status osc_math_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    const osc_mparams *p = k->params;
    return osc_m_unary_infer(k, in, n_in, out, n_out, k_ops[p->op].input, 0, loop_get);
}

osc_status osc_math_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                        osc_tensor *out, int32_t n_out) {
    const osc_mparams *p = k->params;
    return osc_m_unary_run(k, in, n_in, out, n_out, k_ops[p->op].input, 0, loop_get);
}
