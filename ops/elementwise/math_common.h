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
/* 1/(1+exp(-x)) in T, written so that exp never overflows; x is evaluated more than once. */
#define OSC_M_SIGMOID(T, x) \
    ((x) >= 0 ? (T)1 / ((T)1 + OSC_M(exp, -(x))) : OSC_M(exp, x) / ((T)1 + OSC_M(exp, x)))


/* ---- The typed loops of a unary math family, generated from its op lists ----
 * The including file defines FLOAT_OPS(X, E, T, CLS) and INT_OPS(X, E, T, CLS) (the ops each
 * class has), MOP_ENUM(OP) (the op's index in its table), F_OP(ct, x) for every float op (ct the
 * compute type; p_alpha, p_beta, p_gamma hold the node's float attributes in ct) and
 * I_CLS_OP(T, x) for every integer op, then writes OSC_MATH_LOOPS(COUNT): one loop per (op,
 * dtype), the table of them and `static osc_mloop loop_get(int32_t dtype, int32_t op)`.
 * float16 and bfloat16 compute in float and round once per element. */
#define OSC_MCT_FLOAT(T) T
#define OSC_MCT_F16(T) float
#define OSC_MCT_BF16(T) float
#define OSC_MWIDEN_FLOAT(x) (x)
#define OSC_MWIDEN_F16(x) OSC_H2F(x)
#define OSC_MWIDEN_BF16(x) OSC_B2F(x)
#define OSC_MNARROW_FLOAT(x) (x)
#define OSC_MNARROW_F16(x) OSC_F2H(x)
#define OSC_MNARROW_BF16(x) OSC_F2B(x)
#define OSC_MLOOP_F(OP, E, T, CLS)                                                            \
    static void mloop_##OP##_##E(void *o, const void *a, int64_t n, const osc_mparams *p) {   \
        typedef OSC_MCT_##CLS(T) ct;                                                          \
        const ct p_alpha = (ct)p->alpha, p_beta = (ct)p->beta, p_gamma = (ct)p->gamma;        \
        (void)p_alpha, (void)p_beta, (void)p_gamma;                                           \
        const T *pa = a;                                                                      \
        T *po = o;                                                                            \
        for (int64_t j = 0; j < n; j++) {                                                     \
            const ct x = OSC_MWIDEN_##CLS(pa[j]);                                             \
            po[j] = OSC_MNARROW_##CLS(F_##OP(ct, x));                                         \
        }                                                                                     \
    }
#define OSC_MLOOP_I(OP, E, T, CLS)                                                            \
    static void mloop_##OP##_##E(void *o, const void *a, int64_t n, const osc_mparams *p) {   \
        (void)p;                                                                              \
        const T *pa = a;                                                                      \
        T *po = o;                                                                            \
        for (int64_t j = 0; j < n; j++) po[j] = I_##CLS##_##OP(T, pa[j]);                     \
    }
#define OSC_MENTRY(OP, E, T, CLS) [MOP_ENUM(OP)] = mloop_##OP##_##E,
#define OSC_MDEFINE_FLOAT(E, T, CLS) FLOAT_OPS(OSC_MLOOP_F, E, T, CLS)
#define OSC_MDEFINE_INT(E, T, CLS) INT_OPS(OSC_MLOOP_I, E, T, CLS)
#define OSC_MROW_FLOAT(E, T, CLS) [E] = {FLOAT_OPS(OSC_MENTRY, E, T, CLS)},
#define OSC_MROW_INT(E, T, CLS) [E] = {INT_OPS(OSC_MENTRY, E, T, CLS)},
#define OSC_MATH_LOOPS(COUNT)                                                                 \
    OSC_FLOAT_TYPES(OSC_MDEFINE_FLOAT)                                                        \
    OSC_INT_TYPES(OSC_MDEFINE_INT)                                                            \
    static const osc_mloop k_loops[OSC_DTYPE_COUNT][COUNT] = {                                \
        OSC_FLOAT_TYPES(OSC_MROW_FLOAT) OSC_INT_TYPES(OSC_MROW_INT)};                         \
    static osc_mloop loop_get(int32_t dtype, int32_t op) { return k_loops[dtype][op]; }

#endif
