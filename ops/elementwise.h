/* elementwise.h: kernel functions of the elementwise rows (ops/rows_elementwise.h). */
#ifndef OSC_ELEMENTWISE_H
#define OSC_ELEMENTWISE_H

#include "../runtime/core/kernel.h"

/* Add, Sub, Mul, Div, Mod, Equal, Less, LessOrEqual, Greater, GreaterOrEqual, And, Or
 * (ops/binary.c): two inputs broadcast together. */
OSC_KERNEL_DECLARE(osc_bin)
/* Neg, Abs, Not (ops/unary.c) */
OSC_KERNEL_DECLARE(osc_unary)
/* Identity (ops/unary.c): tensors of every dtype the version lists, packed ones included. */
OSC_KERNEL_DECLARE(osc_ident)
/* Min, Max (ops/minmax.c): 1..N inputs. */
OSC_KERNEL_DECLARE(osc_minmax)
/* Where (ops/where.c) */
OSC_KERNEL_DECLARE(osc_where)
/* Cast (ops/cast.c) */
OSC_KERNEL_DECLARE(osc_cast)

#endif
