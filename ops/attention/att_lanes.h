/* att_lanes.h: what Attention's row loops (att_rows.c) and their AVX-512 parts (att_avx512.c)
 * share: the lane vectors that fix the order of every dot product's sum, and the AVX-512
 * entry points. Internal to ops/attention/. */
#ifndef OSC_ATT_LANES_H
#define OSC_ATT_LANES_H

#include <stdint.h>

#include "core/kattr.h" /* OSC_NO_CLONES (sanitizer and size-first builds) */

#define ATT_LANES 8
/* ATT_LANES compute elements as one value (GCC's vector extension, which clang reads too):
 * lane l of a sum adds the products at t = l mod ATT_LANES, in registers the compiler cannot
 * fail to find; a dot product is then its lanes summed as a tree, ((l0 + l1) + (l2 + l3)) +
 * ((l4 + l5) + (l6 + l7)), plus the products past the last whole vector in order. Four sums'
 * trees are taken at once by shuffles (ATT_SUM4), the same bits as one at a time (ATT_TREE1). */
typedef float att_vf __attribute__((vector_size(ATT_LANES * sizeof(float))));
typedef double att_vd __attribute__((vector_size(ATT_LANES * sizeof(double))));
typedef int32_t att_vi __attribute__((vector_size(ATT_LANES * sizeof(int32_t))));
typedef int64_t att_vl __attribute__((vector_size(ATT_LANES * sizeof(int64_t))));
typedef float att_vf4 __attribute__((vector_size(4 * sizeof(float))));
typedef double att_vd4 __attribute__((vector_size(4 * sizeof(double))));
/* a vector read from any element address (the loads; no call passes a vector by value, whose
 * ABI would differ between the clones) */
typedef float att_vfu
    __attribute__((vector_size(ATT_LANES * sizeof(float)), aligned(4), may_alias));
typedef double att_vdu
    __attribute__((vector_size(ATT_LANES * sizeof(double)), aligned(8), may_alias));
#define ATT_LDf(p) (*(const att_vfu *)(const void *)(p))
#define ATT_LDd(p) (*(const att_vdu *)(const void *)(p))
#define ATT_TREE1(l)                                                                          \
    ((((l)[0] + (l)[1]) + ((l)[2] + (l)[3])) + (((l)[4] + (l)[5]) + ((l)[6] + (l)[7])))
/* the helpers the clones call: compiled into each clone, for its instruction set */
#define ATT_INLINE static inline __attribute__((always_inline))
#define ATT_SHUF __builtin_shufflevector
/* r (a vector of four) = the trees of a, b, c and d, by shuffles */
#define ATT_SUM4(r, a, b, c, d)                                                               \
    do {                                                                                      \
        const __typeof__(a) ab_ = ATT_SHUF(a, b, 0, 8, 2, 10, 4, 12, 6, 14) +                 \
                                  ATT_SHUF(a, b, 1, 9, 3, 11, 5, 13, 7, 15);                  \
        const __typeof__(a) cd_ = ATT_SHUF(c, d, 0, 8, 2, 10, 4, 12, 6, 14) +                 \
                                  ATT_SHUF(c, d, 1, 9, 3, 11, 5, 13, 7, 15);                  \
        const __typeof__(a) t_ = ATT_SHUF(ab_, cd_, 0, 1, 8, 9, 4, 5, 12, 13) +               \
                                 ATT_SHUF(ab_, cd_, 2, 3, 10, 11, 6, 7, 14, 15);              \
        (r) = ATT_SHUF(t_, t_, 0, 1, 2, 3) + ATT_SHUF(t_, t_, 4, 5, 6, 7);                    \
    } while (0)

/* The AVX-512 loops (att_avx512.c; x86-64 Linux builds with the clones), each lane doing the
 * fused multiply-adds of the AVX2 loops in the same order, so the bits are theirs:
 * - osc_att_dots_z: o[r * os + k] = scale * (q row r . key k) for rows [0, r4) (a multiple of
 *   4) and float16 keys [0, n4) (a multiple of 4) kb[k * ks], d a multiple of ATT_LANES,
 *   each sum's ATT_LANES lanes reduced by ATT_SUM4's tree;
 * - osc_att_axpy_z: acc[r * as + t] += wb[r * ws + k] * vb[k * vs + t] for rows [0, r4) (a
 *   multiple of 4), keys k in order, t < dv (a multiple of 16), a zero weight's key skipped. */
#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(OSC_NO_CLONES)
#define ATT_X86 1
void osc_att_dots_z(float *o, int64_t os, const float *q, int64_t qst, int64_t r4,
                    const uint16_t *kb, int64_t ks, int64_t n4, int64_t d, float scale);
void osc_att_axpy_z(float *acc, int64_t as, const float *wb, int64_t ws, int64_t r4,
                    const uint16_t *vb, int64_t vs, int64_t nv, int64_t dv);
#else
#define ATT_X86 0
#endif

#endif
