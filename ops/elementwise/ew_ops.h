/* ew_ops.h: the operations of the elementwise kernels that several ops share (unary.c, math.c,
 * activation.c, minmax.c, isinf.c; binary.c's are in binary.h): the values of their rows'
 * .variant. Each list starts at 1, so a row that sets no variant (0) names none: the kernel's
 * init refuses it (OSC_ERR_UNSUPPORTED), and test_kernel_contract, which inits every row,
 * fails. Each *_END is one past the last. */
#ifndef OSC_EW_OPS_H
#define OSC_EW_OPS_H

/* unary.c (osc_unary): Neg, Abs, Not, BitwiseNot */
enum { OSC_UNARY_NEG = 1, OSC_UNARY_ABS, OSC_UNARY_NOT, OSC_UNARY_BITNOT, OSC_UNARY_END };

/* math.c (osc_math): Exp, Log, Sqrt, Reciprocal, Floor, Ceil, Round, Sign, Sin, Cos, Tan, Asin,
 * Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh */
enum {
    OSC_MATH_EXP = 1,
    OSC_MATH_LOG,
    OSC_MATH_SQRT,
    OSC_MATH_RECIP,
    OSC_MATH_FLOOR,
    OSC_MATH_CEIL,
    OSC_MATH_ROUND,
    OSC_MATH_SIGN,
    OSC_MATH_SIN,
    OSC_MATH_COS,
    OSC_MATH_TAN,
    OSC_MATH_ASIN,
    OSC_MATH_ACOS,
    OSC_MATH_ATAN,
    OSC_MATH_SINH,
    OSC_MATH_COSH,
    OSC_MATH_ASINH,
    OSC_MATH_ACOSH,
    OSC_MATH_ATANH,
    OSC_MATH_END
};

/* activation.c (osc_act): Relu, LeakyRelu, Elu, Selu, Celu, Sigmoid, HardSigmoid, HardSwish,
 * Tanh, Softplus, Softsign, Gelu, Erf, Mish, Swish, ThresholdedRelu, Shrink */
enum {
    OSC_ACT_RELU = 1,
    OSC_ACT_LEAKY,
    OSC_ACT_ELU,
    OSC_ACT_SELU,
    OSC_ACT_CELU,
    OSC_ACT_SIGMOID,
    OSC_ACT_HSIGMOID,
    OSC_ACT_HSWISH,
    OSC_ACT_TANH,
    OSC_ACT_SOFTPLUS,
    OSC_ACT_SOFTSIGN,
    OSC_ACT_GELU,
    OSC_ACT_ERF,
    OSC_ACT_MISH,
    OSC_ACT_SWISH,
    OSC_ACT_THRELU,
    OSC_ACT_SHRINK,
    OSC_ACT_END
};

/* minmax.c (osc_minmax): Min, Max */
enum { OSC_MINMAX_MIN = 1, OSC_MINMAX_MAX, OSC_MINMAX_END };

/* summean.c (osc_summean): Sum, Mean */
enum { OSC_SUMMEAN_SUM = 1, OSC_SUMMEAN_MEAN, OSC_SUMMEAN_END };

/* isinf.c (osc_isinf): IsInf, IsNaN. Both fit in 2 bits: the kernel packs IsInf's detect_*
 * attributes above them. */
enum { OSC_ISINF_INF = 1, OSC_ISINF_NAN, OSC_ISINF_END };
/* IsInf's detect_positive and detect_negative, as bits of the op above its 2 bits: op >> 2 */
enum { OSC_ISINF_DETECT_POS = 1, OSC_ISINF_DETECT_NEG = 2 };

#endif
