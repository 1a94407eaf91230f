/* elementwise.h: kernel functions of the elementwise rows (ops/rows_elementwise.h). */
#ifndef OSC_ELEMENTWISE_H
#define OSC_ELEMENTWISE_H

#include "kernel.h"

#define OSC_EW_DECLARE(pfx)                                                                   \
    osc_status pfx##_check(osc_kctx *k, osc_node *node);                                      \
    osc_status pfx##_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,            \
                           osc_tensor *out, int32_t n_out);                                   \
    osc_status pfx##_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,              \
                         osc_tensor *out, int32_t n_out);

/* Add, Sub, Mul, Div, Mod, Equal, Less, LessOrEqual, Greater, GreaterOrEqual, And, Or
 * (ops/binary.c): two inputs broadcast together. */
OSC_EW_DECLARE(osc_bin)
/* Neg, Abs, Not (ops/unary.c) */
OSC_EW_DECLARE(osc_unary)
/* Identity (ops/unary.c): tensors of every dtype the version lists, packed ones included. */
OSC_EW_DECLARE(osc_ident)
/* Min, Max (ops/minmax.c): 1..N inputs. */
OSC_EW_DECLARE(osc_minmax)
/* Where (ops/where.c) */
OSC_EW_DECLARE(osc_where)
/* Cast (ops/cast.c) */
OSC_EW_DECLARE(osc_cast)

#endif
