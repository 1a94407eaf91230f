/* math_common.h: what the math and activation kernels share (activation.c, math.c, isinf.c,
 * clip.c, prelu.c, pow.c): the one-input check, and the generic math macro their X-macro expansions use. Internal to ops/. */
#ifndef OSC_MATH_COMMON_H
#define OSC_MATH_COMMON_H

#include "ew_common.h"

/* What init parses for a one-input math kernel: the op code (each file's own enum), the
 * attributes (already defaulted) and the dtypes the version accepts. */
typedef struct osc_mparams {
    int32_t op;
    double alpha, beta, gamma;
    osc_typeset types;
} osc_mparams;

/* The loop every one-input math kernel runs: o[j] = f(a[j]) for j < n. Reads a[j] before it
 * writes o[j], so o may be a (in place) when the element sizes match. */
typedef void (*osc_mloop)(void *o, const void *a, int64_t n, const osc_mparams *p);

/* Shared by the one-input kernels' infer and run: input 0 (`what`) present, of a dtype in
 * `types`; *want = its shape, with dtype out_dtype (0: the input's). */
osc_status osc_m_check_x(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         const char *what, osc_typeset types, int32_t out_dtype,
                         osc_tensor *want);
/* The one-input kernels' infer and run around a loop lookup: get(dtype, p->op) gives the loop
 * of a dtype in p->types, which must have one (test_ops_math runs every row on every dtype of
 * its type set). */
typedef osc_mloop (*osc_mloop_get)(int32_t dtype, int32_t op);
osc_status osc_m_unary_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out, const char *what,
                             int32_t out_dtype, osc_mloop_get get);
osc_status osc_m_unary_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out, const char *what, int32_t out_dtype,
                           osc_mloop_get get);

/* fn of x in x's own precision: expf for float, exp for double. */
#define OSC_M(fn, x) _Generic((x), float: fn##f, default: fn)(x)
#define OSC_M2(fn, x, y) _Generic((x), float: fn##f, default: fn)(x, y)

#endif
