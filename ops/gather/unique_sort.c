/* unique_sort.c: Unique's element order and equality per dtype class (expanded from
 * OSC_STD_TYPES) and its stable merge sort of slice numbers. */
#include <string.h>

#include "core/dtype.h"
#include "ops/scatter/reduce.h" /* osc_string_cmp */
#include "unique_sort.h"

/* ---- Three-way order of two values of a class (unique_sort.h); arguments are lvalues and
 * may be read more than once ---- */
#define ORD_NUM(a, b) (((a) > (b)) - ((a) < (b)))
#define ORD_NAN(a, b) ((a) != (a) || (b) != (b) ? ((a) != (a)) - ((b) != (b)) : ORD_NUM(a, b))
static inline int ord_f32(float a, float b) { return ORD_NAN(a, b); }
static inline int ord_cplx(double ar, double ai, double br, double bi) {
    const int na = ar != ar || ai != ai, nb = br != br || bi != bi;
    if (na || nb) return na - nb;
    const int c = ORD_NUM(ar, br);
    return c ? c : ORD_NUM(ai, bi);
}
#define ORD_FLOAT(a, b) ORD_NAN(a, b)
#define ORD_F16(a, b) ord_f32(osc_f16_to_f32(a), osc_f16_to_f32(b))
#define ORD_BF16(a, b) ord_f32(osc_bf16_to_f32(a), osc_bf16_to_f32(b))
#define ORD_SINT(a, b) ORD_NUM(a, b)
#define ORD_UINT(a, b) ORD_NUM(a, b)
#define ORD_BOOL(a, b) ORD_NUM(a, b)
#define ORD_STRING(a, b) osc_string_cmp(a, b)
#define ORD_COMPLEX(a, b) ord_cplx((a).re, (a).im, (b).re, (b).im)

/* numpy's == per class (a NaN equals nothing); the classes without NaN: order 0 */
#define EQ_FLOAT(a, b) ((a) == (b))
#define EQ_F16(a, b) (osc_f16_to_f32(a) == osc_f16_to_f32(b))
#define EQ_BF16(a, b) (osc_bf16_to_f32(a) == osc_bf16_to_f32(b))
#define EQ_SINT(a, b) ((a) == (b))
#define EQ_UINT(a, b) ((a) == (b))
#define EQ_BOOL(a, b) ((a) == (b))
#define EQ_STRING(a, b) (osc_string_cmp(a, b) == 0)
#define EQ_COMPLEX(a, b) ((a).re == (b).re && (a).im == (b).im)

/* Stable bottom-up merge sort of the n slice numbers at v (tmp: n more), ascending:
 * LESS(CTX, a, b) says slice a strictly precedes slice b; the right run's head moves first
 * only when it strictly precedes the left one's, so ties keep their order. */
#define MERGE_SORT(v, tmp, n, LESS, CTX)                                                      \
    do {                                                                                      \
        int64_t *src_ = (v), *dst_ = (tmp);                                                   \
        for (int64_t w_ = 1; w_ < (n); w_ *= 2) {                                             \
            for (int64_t lo_ = 0; lo_ < (n); lo_ += 2 * w_) {                                 \
                const int64_t mid_ = lo_ + w_ < (n) ? lo_ + w_ : (n);                         \
                const int64_t hi_ = lo_ + 2 * w_ < (n) ? lo_ + 2 * w_ : (n);                  \
                int64_t i_ = lo_, j_ = mid_, o_ = lo_;                                        \
                while (i_ < mid_ && j_ < hi_)                                                 \
                    dst_[o_++] = LESS(CTX, src_[j_], src_[i_]) ? src_[j_++] : src_[i_++];     \
                while (i_ < mid_) dst_[o_++] = src_[i_++];                                    \
                while (j_ < hi_) dst_[o_++] = src_[j_++];                                     \
            }                                                                                 \
            int64_t *t_ = src_;                                                               \
            src_ = dst_;                                                                      \
            dst_ = t_;                                                                        \
        }                                                                                     \
        if (src_ != (v)) memcpy((v), src_, (size_t)(n) * sizeof *src_);                       \
    } while (0)

/* Slices of one element (slice j is element j): the order inlined per dtype. */
#define TYPED_LESS(ORD, a, b) (ORD(x[a], x[b]) < 0)
typedef int (*ord_fn)(const void *x, int64_t a, int64_t b);
typedef bool (*eq_fn)(const void *x, int64_t a, int64_t b);
#define DEFINE_FNS(E, T, CLS)                                                                 \
    static int ord_##E(const void *xv, int64_t a, int64_t b) {                                \
        const T *x = xv;                                                                      \
        return ORD_##CLS(x[a], x[b]);                                                         \
    }                                                                                         \
    static bool eq_##E(const void *xv, int64_t a, int64_t b) {                                \
        const T *x = xv;                                                                      \
        return EQ_##CLS(x[a], x[b]);                                                          \
    }                                                                                         \
    static void sort_##E(int64_t *v, int64_t *tmp, int64_t n, const void *xv) {               \
        const T *x = xv;                                                                      \
        MERGE_SORT(v, tmp, n, TYPED_LESS, ORD_##CLS);                                         \
    }
OSC_STD_TYPES(DEFINE_FNS)

/* The element functions of a dtype; false for one outside OSC_STD_TYPES (Unique's rows admit
 * none). */
static bool fns_for(int32_t dtype, ord_fn *ord, eq_fn *eq,
                    void (**sort)(int64_t *, int64_t *, int64_t, const void *)) {
    switch (dtype) {
#define FNS_CASE(E, T, CLS)                                                                   \
    case E: *ord = ord_##E, *eq = eq_##E, *sort = sort_##E; return true;
        OSC_STD_TYPES(FNS_CASE)
#undef FNS_CASE
    default: return false;
    }
}

/* Element i of slice j at o, i: (o * n + j) * inner + i. */
static int slice_ord(const osc_uq_view *v, ord_fn ord, int64_t a, int64_t b) {
    const int64_t in = v->inner, step = v->n * in;
    for (int64_t o = 0, base = 0; o < v->outer; o++, base += step)
        for (int64_t i = 0; i < in; i++) {
            const int c = ord(v->x, base + a * in + i, base + b * in + i);
            if (c) return c;
        }
    return 0;
}
#define SLICE_LESS(ORD, a, b) (slice_ord(v, ORD, a, b) < 0)

void osc_uq_sort(const osc_uq_view *v, int64_t *perm, int64_t *tmp) {
    ord_fn ord;
    eq_fn eq;
    void (*sort)(int64_t *, int64_t *, int64_t, const void *);
    if (!fns_for(v->dtype, &ord, &eq, &sort)) return;
    if (v->outer == 1 && v->inner == 1) sort(perm, tmp, v->n, v->x);
    else MERGE_SORT(perm, tmp, v->n, SLICE_LESS, ord);
}

bool osc_uq_same(const osc_uq_view *v, int64_t a, int64_t b) {
    ord_fn ord;
    eq_fn eq;
    void (*sort)(int64_t *, int64_t *, int64_t, const void *);
    if (!fns_for(v->dtype, &ord, &eq, &sort)) return false;
    if (v->flat) return ord(v->x, a, b) == 0;
    const int64_t in = v->inner, step = v->n * in;
    for (int64_t o = 0, base = 0; o < v->outer; o++, base += step)
        for (int64_t i = 0; i < in; i++)
            if (!eq(v->x, base + a * in + i, base + b * in + i)) return false;
    return true;
}
