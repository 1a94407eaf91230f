/* reduce.h: per-dtype element combiners for scatter reductions (none, add, mul, max, min). */
#ifndef OSC_REDUCE_H
#define OSC_REDUCE_H

#include "common.h"
#include "graph.h"

/* dst[j] = f(dst[j], src[j]) for 0 <= j < n, for elements of one dtype. `strings` supplies
 * bytes for concatenated strings; returns false only when that allocation fails. */
typedef bool (*osc_reduce_fn)(osc_pool *strings, void *dst, const void *src, int64_t n);

/* The combiner for (dtype, reduction); NULL when the pair is not defined (string mul, or a
 * dtype that is not one of OSC_STD_TYPES). Semantics (numpy's, as the ONNX reference):
 *  none: assignment;  integers: add/mul wrap modulo 2^bits, max/min as usual;
 *  float/double: IEEE add/mul, max/min return the NaN when either side is NaN, and keep dst
 *  when equal (so max(-0.0, +0.0) keeps dst); float16/bfloat16: computed in float and rounded
 *  to nearest even after every update; bool: add = or, mul = and, max = or, min = and;
 *  string: add concatenates, max/min compare bytes lexicographically (shorter prefix first);
 *  complex: add/mul complex arithmetic, max/min compare (re, im) lexicographically. */
osc_reduce_fn osc_reduce_get(int32_t dtype, int32_t reduction);

/* "none", "add", "mul", "max", "min"; OSC_RED_* from a string (-1 when unknown). */
const char *osc_reduction_name(int32_t reduction);
int32_t osc_reduction_parse(const char *s);

#endif
