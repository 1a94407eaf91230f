/* ew_common.h: what the elementwise kernels share: input/output checks
 * and the loop macro their X-macro expansions use. Internal to ops/ (binary.c, unary.c, ...). */
#ifndef OSC_EW_COMMON_H
#define OSC_EW_COMMON_H

#include "core/dtype.h"
#include "broadcast.h"
#include "core/kattr.h"

/* Fails (OSC_ERR_UNSUPPORTED) unless t's dtype is in `types`; the message names the input and
 * lists the dtypes this op version accepts. */
osc_status osc_ew_check_type(osc_kctx *k, int32_t i, const char *what, const osc_tensor *t,
                             osc_typeset types);
/* Run time: fails unless there is an output whose dtype and shape equal want's (what infer
 * computed) and whose buffer holds it, and unless each of in[0..n_in-1] (all present) holds its
 * shape. what[i] names input i; what == NULL names them "data_<i>" (variadic Min/Max).
 * Nothing is written. */
osc_status osc_ew_check_io(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           const char *const *what, const osc_tensor *out, int32_t n_out,
                           const osc_tensor *want);

/* Version 1 of the binary ops (Pow-1, Xor-1): B broadcasts into A only with the attribute
 * broadcast=1, its shape a contiguous part of A's from `axis` (by default A's last dims) or one
 * element; with broadcast=0 the shapes must be equal. */
typedef struct osc_ew_legacy {
    bool broadcast; /* the attribute (0 or 1) */
    bool has_axis;
    int64_t axis;
} osc_ew_legacy;
/* init: when legacy, accepts only the attributes broadcast (0 or 1) and axis and parses them
 * into *lg; else accepts none. */
osc_status osc_ew_legacy_init(osc_kctx *k, const osc_node *node, bool legacy, osc_ew_legacy *lg);
/* *b_out = b as a tensor of a's rank (its dims placed from the axis, 1 elsewhere), which numpy
 * broadcasting then stretches to a's shape (a_what, b_what: the inputs' names in the spec); or
 * OSC_ERR_SHAPE saying why it cannot be. */
osc_status osc_ew_legacy_b(osc_kctx *k, const osc_ew_legacy *lg, const char *a_what,
                           const osc_tensor *a, const char *b_what, const osc_tensor *b,
                           osc_tensor *b_out);

/* Defines `static void NAME(osc_bcast_it *it, void *o, const void *a, const void *b)`: for every
 * row of the iterator (which must hold a first row), o[k] = EXPR with x = a[...], y = b[...]
 * (elements of type T) and o of type OT. Used with X-macro lists, never written out per type. */
#define OSC_EW_ROW2(T, EXPR, XI, YI)                                                        \
    for (int64_t j = 0; j < n; j++) {                                                       \
        const T x = (XI), y = (YI);                                                         \
        po[j] = (EXPR);                                                                     \
    }
#define OSC_EW_LOOP2_(NAME, T, OT, EXPR, ROW)                                               \
    static void NAME(osc_bcast_it *it, void *o, const void *a, const void *b) {            \
        do {                                                                                \
            const T *pa = (const T *)a + it->off[0], *pb = (const T *)b + it->off[1];       \
            OT *po = (OT *)o + it->out_off;                                                 \
            const int64_t sa = it->step[0], sb = it->step[1], n = it->len;                 \
            ROW(T, EXPR)                                                                    \
        } while (osc_bcast_next(it));                                                       \
    }
#define OSC_EW_ANY_ROW(T, EXPR) OSC_EW_ROW2(T, EXPR, pa[j * sa], pb[j * sb])
#define OSC_EW_LOOP2(NAME, T, OT, EXPR) OSC_EW_LOOP2_(NAME, T, OT, EXPR, OSC_EW_ANY_ROW)
/* The same, with a loop of its own for a row where one side is a single value (a [N, C] tensor
 * divided by its [N, 1] norms), which the compiler vectorises where it does not the general
 * one (the strides unknown): for the float arithmetic models spend their time in. */
#define OSC_EW_SPLIT_ROW(T, EXPR)                                                           \
    if (sa == 1 && sb == 0) {                                                               \
        const T yb = pb[0];                                                                 \
        OSC_EW_ROW2(T, EXPR, pa[j], yb)                                                     \
    } else if (sa == 0 && sb == 1) {                                                        \
        const T xa = pa[0];                                                                 \
        OSC_EW_ROW2(T, EXPR, xa, pb[j])                                                     \
    } else {                                                                                \
        OSC_EW_ANY_ROW(T, EXPR)                                                             \
    }
#define OSC_EW_LOOP2_SPLIT(NAME, T, OT, EXPR) OSC_EW_LOOP2_(NAME, T, OT, EXPR, OSC_EW_SPLIT_ROW)
typedef void (*osc_ew_loop2)(osc_bcast_it *it, void *o, const void *a, const void *b);

/* Runs loop over the iterator's output (it from osc_bcast_begin, o of out_bytes bytes), split
 * into one element range per thread of k->tpool when out_bytes >= OSC_PAR_MIN_BYTES. Every
 * output element depends only on the inputs at its own position, so the ranges are independent,
 * and an output written over input a in place stays exact. */
void osc_ew_run2(osc_kctx *k, const osc_bcast_it *it, osc_ew_loop2 loop, void *o, const void *a,
                 const void *b, size_t out_bytes);
/* The same for three inputs (Where). */
typedef void (*osc_ew_loop3)(osc_bcast_it *it, void *o, const void *a, const void *b,
                             const void *c);
void osc_ew_run3(osc_kctx *k, const osc_bcast_it *it, osc_ew_loop3 loop, void *o, const void *a,
                 const void *b, const void *c, size_t out_bytes);

/* double -> integer of `bits` bits (8 to 64; C leaves out-of-range conversions undefined):
 * truncation toward zero; NaN -> 0; below the range -> the minimum, above -> the maximum. */
int64_t osc_ew_f2s(double d, int bits);
uint64_t osc_ew_f2u(double d, int bits);

/* Scalar helpers for float16/bfloat16: computed in float, rounded back to nearest even. */
#define OSC_H2F(x) osc_f16_to_f32(x)
#define OSC_F2H(x) osc_f32_to_f16(x)
#define OSC_B2F(x) osc_bf16_to_f32(x)
#define OSC_F2B(x) osc_f32_to_bf16(x)

#endif
