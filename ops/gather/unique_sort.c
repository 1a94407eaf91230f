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

/* a strictly before b in that order, without the three-way result (the merges' test) */
#define LT_NAN(a, b) ((a) < (b) || ((b) != (b) && (a) == (a)))
static inline bool lt_f32(float a, float b) { return LT_NAN(a, b); }
#define LT_FLOAT(a, b) LT_NAN(a, b)
#define LT_F16(a, b) lt_f32(osc_f16_to_f32(a), osc_f16_to_f32(b))
#define LT_BF16(a, b) lt_f32(osc_bf16_to_f32(a), osc_bf16_to_f32(b))
#define LT_SINT(a, b) ((a) < (b))
#define LT_UINT(a, b) ((a) < (b))
#define LT_BOOL(a, b) ((a) < (b))
#define LT_STRING(a, b) (osc_string_cmp(a, b) < 0)
#define LT_COMPLEX(a, b) (ORD_COMPLEX(a, b) < 0)

/* numpy's == per class (a NaN equals nothing); the classes without NaN: order 0 */
#define EQ_FLOAT(a, b) ((a) == (b))
#define EQ_F16(a, b) (osc_f16_to_f32(a) == osc_f16_to_f32(b))
#define EQ_BF16(a, b) (osc_bf16_to_f32(a) == osc_bf16_to_f32(b))
#define EQ_SINT(a, b) ((a) == (b))
#define EQ_UINT(a, b) ((a) == (b))
#define EQ_BOOL(a, b) ((a) == (b))
#define EQ_STRING(a, b) (osc_string_cmp(a, b) == 0)
#define EQ_COMPLEX(a, b) ((a).re == (b).re && (a).im == (b).im)

/* Stable bottom-up merge sort of the n elements (of type T) at v, tmp n more, ascending:
 * LESS(CTX, a, b) says element a strictly precedes element b; the right run's head moves first
 * only when it strictly precedes the left one's, so ties keep their order. RES is set to the
 * array that holds the result (v or tmp). */
#define MERGE_SORT(T, v, tmp, n, LESS, CTX, RES)                                              \
    do {                                                                                      \
        T *src_ = (v), *dst_ = (tmp);                                                         \
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
            T *t_ = src_;                                                                     \
            src_ = dst_;                                                                      \
            dst_ = t_;                                                                        \
        }                                                                                     \
        (RES) = src_;                                                                         \
    } while (0)

/* Slices of one element (slice j is element j) sort as (value, j) pairs: the merges then read
 * memory in order, where sorting the numbers alone would read x at random (10^7 random floats:
 * ten times faster here). The pairs fill the block from its start (2n of them); the sorted
 * numbers are then moved to its first n int64, each read before its bytes are overwritten
 * (pair i starts at byte 16i or later, number i at 8i). */
#define PAIR_LESS(LT, a, b) LT((a).v, (b).v)
typedef int (*ord_fn)(const void *x, int64_t a, int64_t b);
typedef bool (*eq_fn)(const void *x, int64_t a, int64_t b);
typedef void (*sort_fn)(const void *x, int64_t n, void *block);
#define DEFINE_FNS(E, T, CLS)                                                                 \
    static int ord_##E(const void *xv, int64_t a, int64_t b) {                                \
        const T *x = xv;                                                                      \
        return ORD_##CLS(x[a], x[b]);                                                         \
    }                                                                                         \
    static bool eq_##E(const void *xv, int64_t a, int64_t b) {                                \
        const T *x = xv;                                                                      \
        return EQ_##CLS(x[a], x[b]);                                                          \
    }                                                                                         \
    typedef struct pair_##E {                                                                 \
        T v;                                                                                  \
        int64_t j;                                                                            \
    } pair_##E;                                                                               \
    static void sort_##E(const void *xv, int64_t n, void *block) {                            \
        const T *x = xv;                                                                      \
        pair_##E *a = block, *res;                                                            \
        int64_t *perm = block;                                                                \
        for (int64_t j = 0; j < n; j++) a[j] = (pair_##E){x[j], j};                           \
        MERGE_SORT(pair_##E, a, a + n, n, PAIR_LESS, LT_##CLS, res);                         \
        for (int64_t j = 0; j < n; j++) {                                                     \
            const int64_t s = res[j].j;                                                       \
            perm[j] = s;                                                                      \
        }                                                                                     \
    }
OSC_STD_TYPES(DEFINE_FNS)

/* Bytes of a dtype's pair (0 outside OSC_STD_TYPES). */
static size_t pair_size(int32_t dtype) {
    switch (dtype) {
#define PAIR_CASE(E, T, CLS)                                                                  \
    case E: return sizeof(pair_##E);
        OSC_STD_TYPES(PAIR_CASE)
#undef PAIR_CASE
    default: return 0;
    }
}

/* The element functions of a dtype; false for one outside OSC_STD_TYPES (Unique's rows admit
 * none). */
static bool fns_for(int32_t dtype, ord_fn *ord, eq_fn *eq, sort_fn *sort) {
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

size_t osc_uq_block_bytes(const osc_uq_view *v) {
    const size_t pair = pair_size(v->dtype);
    const size_t per = v->outer == 1 && v->inner == 1 && pair ? 2 * pair : 16;
    return (uint64_t)v->n > SIZE_MAX / per ? 0 : (size_t)v->n * per;
}

void osc_uq_sort(const osc_uq_view *v, void *block) {
    ord_fn ord;
    eq_fn eq;
    sort_fn sort;
    int64_t *perm = block, *res;
    if (!fns_for(v->dtype, &ord, &eq, &sort)) return;
    if (v->outer == 1 && v->inner == 1) {
        sort(v->x, v->n, block);
        return;
    }
    for (int64_t s = 0; s < v->n; s++) perm[s] = s;
    MERGE_SORT(int64_t, perm, perm + v->n, v->n, SLICE_LESS, ord, res);
    if (res != perm) memcpy(perm, res, (size_t)v->n * sizeof *perm);
}

bool osc_uq_same(const osc_uq_view *v, int64_t a, int64_t b) {
    ord_fn ord;
    eq_fn eq;
    sort_fn sort;
    if (!fns_for(v->dtype, &ord, &eq, &sort)) return false;
    if (v->flat) return ord(v->x, a, b) == 0;
    const int64_t in = v->inner, step = v->n * in;
    for (int64_t o = 0, base = 0; o < v->outer; o++, base += step)
        for (int64_t i = 0; i < in; i++)
            if (!eq(v->x, base + a * in + i, base + b * in + i)) return false;
    return true;
}
