/* scatter_impl.h: what the direct and the bucketed typed scatter loops share (internal to
 * ops/scatter/scatter_loops.c and ops/scatter/scatter_bucket.c; ops/gather/col2im.c takes its add
 * from APPLY_FN too): the element update per dtype and reduction,
 * expanded from the OSC_COMBINE_* rules, the element sizes of reduction none and the tables'
 * slots. The implementation of scatter_loops.h is three files: scatter_loops.c, the direct
 * typed loops and their getters; scatter_walk.c, the block walk of ScatterElements and
 * GatherElements; scatter_bucket.c, the bucketed (and threaded) drivers. */
#ifndef OSC_SCATTER_IMPL_H
#define OSC_SCATTER_IMPL_H

#include <string.h>

#include "core/dtype.h"
#include "reduce.h"
#include "scatter_loops.h"

/* An index of an element loop, normalised: callers checked it lies in [-s, s-1]. */
#define NORM(v, s) ((v) < 0 ? (v) + (s) : (v))

/* ---- One element update: APPLY_<CLASS>(RED, T, p, b, sp) combines update b into *p and is
 * false only when string add runs out of memory. Everything but string add is an expression
 * of the OSC_COMBINE_* rules, and `true` folds away. ---- */
#define APPLY_SCALAR(CLS, RED, T, p, b) (*(p) = OSC_COMBINE_##CLS##_##RED(T, *(p), (b)), true)
#define APPLY_FLOAT(RED, T, p, b, sp) APPLY_SCALAR(FLOAT, RED, T, p, b)
#define APPLY_F16(RED, T, p, b, sp) APPLY_SCALAR(F16, RED, T, p, b)
#define APPLY_BF16(RED, T, p, b, sp) APPLY_SCALAR(BF16, RED, T, p, b)
#define APPLY_SINT(RED, T, p, b, sp) APPLY_SCALAR(SINT, RED, T, p, b)
#define APPLY_UINT(RED, T, p, b, sp) APPLY_SCALAR(UINT, RED, T, p, b)
#define APPLY_BOOL(RED, T, p, b, sp) APPLY_SCALAR(BOOL, RED, T, p, b)
#define APPLY_COMPLEX(RED, T, p, b, sp) APPLY_SCALAR(COMPLEX, RED, T, p, b)
#define APPLY_STRING(RED, T, p, b, sp) APPLY_STRING_##RED(p, b, sp)
#define APPLY_STRING_ADD(p, b, sp) osc_strcat_append((sp), (p), (b))
#define APPLY_STRING_MAX(p, b, sp) APPLY_SCALAR(STRING, MAX, osc_string, p, b)
#define APPLY_STRING_MIN(p, b, sp) APPLY_SCALAR(STRING, MIN, osc_string, p, b)

/* apply_<E>_<RED>(p, b, sp): the element update of that dtype and reduction, as a function
 * the loops below inline. */
#define APPLY_FN(E, T, CLS, RED)                                                           \
    static inline bool apply_##E##_##RED(T *p, T b, osc_strcat *sp) {                        \
        (void)sp;                                                                          \
        return APPLY_##CLS(RED, T, p, b, sp);                                              \
    }

/* Element sizes of reduction none: every standard dtype's size is one of them. */
#define ELEM_SIZES(X) X(1) X(2) X(4) X(8) X(16)

/* Element size of a standard dtype; 0 for any other. */
static inline size_t std_size(int32_t dtype) {
    switch (dtype) {
#define SIZE_CASE(E, T, CLS) \
    case E: return sizeof(T);
        OSC_STD_TYPES(SIZE_CASE)
#undef SIZE_CASE
        default: return 0;
    }
}

/* Table slot of an index dtype and layout: [int32/int64][inner/last]; -1 for other dtypes. */
static inline int idx_slot(int32_t index_dtype, bool axis_last) {
    if (index_dtype != OSC_INT32 && index_dtype != OSC_INT64) return -1;
    return (index_dtype == OSC_INT64) * 2 + (axis_last ? 1 : 0);
}

#define ELEM_SLOTS(P) {P##int32_t_0, P##int32_t_1, P##int64_t_0, P##int64_t_1}
/* the same function for both layouts */
#define ELEM_SLOTS1(P) {P##int32_t, P##int32_t, P##int64_t, P##int64_t}

#endif
