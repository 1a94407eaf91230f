/* reduce_ops.h: what the Reduce* ops' kernel (reduce_ops.c) shows the rewrite rules: which
 * reduction a row computes and the parameters its init parsed (rows with trait OSC_KT_REDUCE),
 * and the dtypes each reduction has a loop for. */
#ifndef OSC_REDUCE_OPS_H
#define OSC_REDUCE_OPS_H

#include <stdbool.h>

#include "core/dtype.h"
#include "ops/shape/shape_ops.h"

/* The reductions: rule name (reduce_rules.h), op, the version from which axes is an input. */
#define OSC_REDUCE_LIST(X)                                                                       \
    X(SUM, "ReduceSum", 13) X(SUMSQ, "ReduceSumSquare", 18) X(MEAN, "ReduceMean", 18)        \
    X(PROD, "ReduceProd", 18) X(L1, "ReduceL1", 18) X(L2, "ReduceL2", 18)                    \
    X(LOGSUM, "ReduceLogSum", 18) X(LSE, "ReduceLogSumExp", 18) X(MAX, "ReduceMax", 18)      \
    X(MIN, "ReduceMin", 18)
#define OSC_REDUCE_ENUM(R, OP, V) OSC_REDUCE_##R,
enum { OSC_REDUCE_LIST(OSC_REDUCE_ENUM) OSC_REDUCE_N };
#undef OSC_REDUCE_ENUM

/* Attributes init parses. */
typedef struct osc_reduce_params {
    int32_t red;        /* OSC_REDUCE_* */
    bool axes_input;    /* axes is input 1 (ReduceSum-13, the others' 18), not an attribute */
    bool keepdims;
    bool noop;          /* noop_with_empty_axes (with the axes input) */
    osc_sh_ints axes;   /* the attribute, before the axes input */
} osc_reduce_params;

/* The dtypes some row of each reduction admits (OSC_TS_ARITH_V13, and for max/min int8, uint8
 * and bool too), as X(dtype, C type, class) lists: no loop exists for a dtype no row lets
 * through. */
#define OSC_REDUCE_ARITH_TYPES(X)                                                                \
    OSC_FLOAT_TYPES(X) X(OSC_INT32, int32_t, SINT) X(OSC_INT64, int64_t, SINT)                \
    X(OSC_UINT32, uint32_t, UINT) X(OSC_UINT64, uint64_t, UINT)
#define OSC_REDUCE_MINMAX_TYPES(X)                                                               \
    OSC_REDUCE_ARITH_TYPES(X) X(OSC_INT8, int8_t, SINT) X(OSC_UINT8, uint8_t, UINT)               \
    X(OSC_BOOL, uint8_t, BOOL)

#endif
