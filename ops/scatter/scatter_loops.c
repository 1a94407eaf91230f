/* scatter_loops.c: the typed scatter/gather loops of scatter_loops.h (direct paths), expanded
 * from OSC_STD_TYPES: ScatterElements/GatherElements element loops, ScatterND/GatherND tuple
 * loops, and the getters that pick one per dtype, reduction and index type. The block walk is
 * in scatter_walk.c, the bucketed drivers in scatter_bucket.c. */
#include "scatter_loops.h"

#include <string.h>

#include "core/dtype.h"
#include "scatter.h"
#include "reduce.h"
#include "scatter_impl.h"

#define PREFETCH_W(p) OSC_PREFETCH((p), 1)
#define PREFETCH_R(p) OSC_PREFETCH((p), 0)

/* An index of an element loop, normalised: callers checked it lies in [-s, s-1]. */
#define NORM(v, s) ((v) < 0 ? (v) + (s) : (v))

/* ---- Element loops (ScatterElements, GatherElements) ----
 * ELEM_LOOP walks one osc_elem_block: AT(o, f, X) handles data-shaped element o and flat
 * element f (a statement that may return), PF(o, X) prefetches data-shaped element o; X is
 * passed through (an element size or an apply function). LAST selects the axis-innermost
 * layout at compile time. The prefetching loop stops pf elements before the end of a row, so
 * it reads no index past the row. */
#define ELEM_LOOP(IT, LAST, AT, PF, X)                                                     \
    const IT *ix = b->idx;                                                                 \
    const int64_t n = b->n, s = b->s, as = b->astride, js = (LAST) ? 0 : b->jstride;      \
    const int64_t pf = b->pf;                                                              \
    for (int64_t r = 0; r < b->rows; r++, ix += n) {                                       \
        const int64_t ob = r * b->row_step, fb = r * n;                                    \
        int64_t j = 0;                                                                     \
        if (pf > 0 && n > pf)                                                              \
            for (; j < n - pf; j++) {                                                      \
                const int64_t w = NORM((int64_t)ix[j + pf], s);                            \
                PF(ob + w * as + (j + pf) * js, X);                                        \
                const int64_t v = NORM((int64_t)ix[j], s);                                 \
                AT(ob + v * as + j * js, fb + j, X);                                       \
            }                                                                              \
        for (; j < n; j++) {                                                               \
            const int64_t v = NORM((int64_t)ix[j], s);                                     \
            AT(ob + v * as + j * js, fb + j, X);                                           \
        }                                                                                  \
    }                                                                                      \
    return -1;

/* ScatterElements with a reduction, per (dtype, reduction, index type); one loop serves
 * both layouts (jstride is 0 along an innermost axis): only the moves of reduction none,
 * where the loop is all there is, are compiled per layout. */
#define SE_RED_FN(E, T, RED, IT)                                                           \
    static int64_t se_##E##_##RED##_##IT(const osc_elem_block *b) {                        \
        T *d = b->dst;                                                                     \
        const T *u = b->src;                                                               \
        osc_strcat *sp = b->strings;                                                         \
        ELEM_LOOP(IT, 0, SE_RED_AT, SE_RED_PF, apply_##E##_##RED)                          \
    }
#define SE_RED_AT(o, f, FN) \
    if (!FN(&d[o], u[f], sp)) return (f)
#define SE_RED_PF(o, FN) PREFETCH_W(&d[o])

/* ScatterElements (reduction none) and GatherElements move SZ bytes per element. */
#define SE_NONE_FN(SZ, IT, LAST)                                                           \
    static int64_t se_none##SZ##_##IT##_##LAST(const osc_elem_block *b) {                 \
        char *d = b->dst;                                                                  \
        const char *u = b->src;                                                            \
        ELEM_LOOP(IT, LAST, SE_NONE_AT, SE_NONE_PF, SZ)                                    \
    }
#define SE_NONE_AT(o, f, SZ) memcpy(d + (o) * SZ, u + (f) * SZ, SZ)
#define SE_NONE_PF(o, SZ) PREFETCH_W(d + (o) * SZ)
#define GE_FN(SZ, IT, LAST)                                                                \
    static int64_t ge##SZ##_##IT##_##LAST(const osc_elem_block *b) {                      \
        char *d = b->dst;                                                                  \
        const char *u = b->src;                                                            \
        ELEM_LOOP(IT, LAST, GE_AT, GE_PF, SZ)                                              \
    }
#define GE_AT(o, f, SZ) memcpy(d + (f) * SZ, u + (o) * SZ, SZ)
#define GE_PF(o, SZ) PREFETCH_R(u + (o) * SZ)

/* ---- Tuple loops (ScatterND, GatherND) ---- */

/* Element offset of one tuple; k == 1 (rows or elements of a 1-d index) is the common case. */
static inline int64_t tuple_offset(const int64_t *v, int32_t k, const int64_t *dims,
                                   const int64_t *stride) {
    if (k == 1) return NORM(v[0], dims[0]) * stride[0];
    int64_t off = 0;
    for (int32_t j = 0; j < k; j++) off += NORM(v[j], dims[j]) * stride[j];
    return off;
}

/* TUPLE_LOOP walks one osc_nd_block: AT(o, f, X) handles the slice at data-shaped element o
 * and flat element f, PF(o, X) prefetches the slice at data-shaped element o. */
#define TUPLE_LOOP(AT, PF, X)                                                              \
    const int64_t *ix = b->idx, *dims = b->dims, *st = b->stride;                          \
    const int64_t slice = b->slice, pf = b->pf, nt = b->tuples;                            \
    const int32_t k = b->k;                                                                \
    const int64_t lo = b->lo;                                                              \
    const uint64_t span = b->hi > 0 ? (uint64_t)(b->hi - lo) : UINT64_MAX;                 \
    for (int64_t t = 0; t < pf && t < nt; t++) /* the first pf slices, before any write */ \
        PF(tuple_offset(ix + t * k, k, dims, st), X);                                      \
    for (int64_t t = 0; t < nt; t++, ix += k) {                                            \
        if (pf > 0 && t + pf < nt) PF(tuple_offset(ix + pf * k, k, dims, st), X);          \
        const int64_t o_ = tuple_offset(ix, k, dims, st);                                  \
        if ((uint64_t)(o_ - lo) < span) AT(o_, t * slice, X);                              \
    }                                                                                      \
    return -1;

/* Up to 8 cache lines of a slice: enough for short rows without flooding the queue. */
#define PF_SLICE(MACRO, p, bytes)                                                          \
    do {                                                                                   \
        const char *p_ = (const char *)(p);                                                \
        size_t nb_ = (bytes) < 512 ? (bytes) : 512;                                        \
        for (size_t q_ = 0; q_ < nb_; q_ += 64) MACRO(p_ + q_);                            \
    } while (0)

#define SND_RED_FN(E, T, RED)                                                              \
    static int64_t snd_##E##_##RED(const osc_nd_block *b) {                                \
        T *d = b->dst;                                                                     \
        const T *u = b->src;                                                               \
        osc_strcat *sp = b->strings;                                                         \
        TUPLE_LOOP(SND_RED_AT, SND_RED_PF, apply_##E##_##RED)                              \
    }
#define SND_RED_AT(o, f, FN)                                                               \
    for (int64_t e_ = 0; e_ < slice; e_++)                                                 \
        if (!FN(&d[(o) + e_], u[(f) + e_], sp)) return t
#define SND_RED_PF(o, FN) PF_SLICE(PREFETCH_W, d + (o), (size_t)slice * sizeof *d)

/* none: one typed move for single elements, one memmove per longer slice (memmove: updates
 * may be the very buffer of the output when a caller passes the same tensor twice). */
#define SND_NONE_FN(SZ)                                                                    \
    static int64_t snd_none##SZ(const osc_nd_block *b) {                                   \
        char *d = b->dst;                                                                  \
        const char *u = b->src;                                                            \
        if (b->slice == 1) {                                                               \
            TUPLE_LOOP(SND_NONE1_AT, SND_NONE_PF, SZ)                                      \
        }                                                                                  \
        TUPLE_LOOP(SND_NONE_AT, SND_NONE_PF, SZ)                                           \
    }
#define SND_NONE1_AT(o, f, SZ) memcpy(d + (o) * SZ, u + (f) * SZ, SZ)
#define SND_NONE_AT(o, f, SZ) memmove(d + (o) * SZ, u + (f) * SZ, (size_t)slice * SZ)
#define SND_NONE_PF(o, SZ) PF_SLICE(PREFETCH_W, d + (o) * SZ, (size_t)slice * SZ)
#define GND_FN(SZ)                                                                         \
    static int64_t gnd##SZ(const osc_nd_block *b) {                                        \
        char *d = b->dst;                                                                  \
        const char *u = b->src;                                                            \
        if (b->slice == 1) {                                                               \
            TUPLE_LOOP(GND1_AT, GND_PF, SZ)                                                \
        }                                                                                  \
        TUPLE_LOOP(GND_AT, GND_PF, SZ)                                                     \
    }
#define GND1_AT(o, f, SZ) memcpy(d + (f) * SZ, u + (o) * SZ, SZ)
#define GND_AT(o, f, SZ) memcpy(d + (f) * SZ, u + (o) * SZ, (size_t)slice * SZ)
#define GND_PF(o, SZ) PF_SLICE(PREFETCH_R, u + (o) * SZ, (size_t)slice * SZ)

/* ---- Size-first builds (CMake OSC_SIZE_FIRST) ----
 * One loop per kind of work instead of one per dtype x reduction x index type: the element
 * update is a call through a pointer (applyb_<dtype>_<reduction>, over bytes, still expanded
 * from the OSC_COMBINE_* rules) and a move is a memcpy of a run-time size. The getters below
 * keep their tables; each typed name becomes a wrapper of a few bytes around a generic loop.
 * Slower per element (a call each), far smaller (docs/embedding.md, "Minimal builds"). */
#ifdef OSC_SIZE_FIRST
typedef bool (*apply_bytes)(void *p, const void *b, osc_strcat *sp);
#undef APPLY_FN
#define APPLY_FN(E, T, CLS, RED)                                                           \
    static bool applyb_##E##_##RED(void *p, const void *b, osc_strcat *sp) {               \
        T v;                                                                               \
        memcpy(&v, b, sizeof v);                                                           \
        (void)sp;                                                                          \
        return APPLY_##CLS(RED, T, (T *)p, v, sp);                                         \
    }
#define GEN_RED_AT(o, f, SZ) \
    if (!fn(d + (o) * (SZ), u + (f) * (SZ), sp)) return (f)
#define GEN_PF(o, SZ) PREFETCH_W(d + (o) * (SZ))
#define GEN_SND_AT(o, f, SZ)                                                               \
    for (int64_t e_ = 0; e_ < slice; e_++)                                                 \
        if (!fn(d + ((o) + e_) * (SZ), u + ((f) + e_) * (SZ), sp)) return t
#define GEN_ELEM_FNS(IT)                                                                   \
    __attribute__((noinline)) static int64_t se_gen_##IT(const osc_elem_block *b,          \
                                                         apply_bytes fn, size_t sz) {      \
        char *d = b->dst;                                                                  \
        const char *u = b->src;                                                            \
        osc_strcat *sp = b->strings;                                                       \
        ELEM_LOOP(IT, 0, GEN_RED_AT, GEN_PF, sz)                                           \
    }                                                                                      \
    __attribute__((noinline)) static int64_t se_move_##IT(const osc_elem_block *b,         \
                                                          size_t sz, bool gather) {        \
        char *d = b->dst;                                                                  \
        const char *u = b->src;                                                            \
        if (gather) {                                                                      \
            ELEM_LOOP(IT, 0, GE_AT, GE_PF, sz)                                             \
        }                                                                                  \
        ELEM_LOOP(IT, 0, SE_NONE_AT, SE_NONE_PF, sz)                                       \
    }
GEN_ELEM_FNS(int32_t)
GEN_ELEM_FNS(int64_t)
__attribute__((noinline)) static int64_t snd_gen(const osc_nd_block *b, apply_bytes fn,
                                                 size_t sz) {
    char *d = b->dst;
    const char *u = b->src;
    osc_strcat *sp = b->strings;
    TUPLE_LOOP(GEN_SND_AT, SND_NONE_PF, sz)
}
__attribute__((noinline)) static int64_t snd_move(const osc_nd_block *b, size_t sz,
                                                  bool gather) {
    char *d = b->dst;
    const char *u = b->src;
    if (gather) {
        TUPLE_LOOP(GND_AT, GND_PF, sz)
    }
    TUPLE_LOOP(SND_NONE_AT, SND_NONE_PF, sz)
}
#undef SE_RED_FN
#define SE_RED_FN(E, T, RED, IT)                                                           \
    static int64_t se_##E##_##RED##_##IT(const osc_elem_block *b) {                        \
        return se_gen_##IT(b, applyb_##E##_##RED, sizeof(T));                              \
    }
#undef SE_NONE_FN
#define SE_NONE_FN(SZ, IT, LAST)                                                           \
    static int64_t se_none##SZ##_##IT##_##LAST(const osc_elem_block *b) {                 \
        return se_move_##IT(b, SZ, false);                                                 \
    }
#undef GE_FN
#define GE_FN(SZ, IT, LAST)                                                                \
    static int64_t ge##SZ##_##IT##_##LAST(const osc_elem_block *b) {                      \
        return se_move_##IT(b, SZ, true);                                                  \
    }
#undef SND_RED_FN
#define SND_RED_FN(E, T, RED)                                                              \
    static int64_t snd_##E##_##RED(const osc_nd_block *b) {                                \
        return snd_gen(b, applyb_##E##_##RED, sizeof(T));                                  \
    }
#undef SND_NONE_FN
#define SND_NONE_FN(SZ) \
    static int64_t snd_none##SZ(const osc_nd_block *b) { return snd_move(b, SZ, false); }
#undef GND_FN
#define GND_FN(SZ) \
    static int64_t gnd##SZ(const osc_nd_block *b) { return snd_move(b, SZ, true); }
#endif

/* ---- Expansion ---- */

#define SIZE_FNS(SZ)                                                                       \
    SE_NONE_FN(SZ, int32_t, 0) SE_NONE_FN(SZ, int32_t, 1)                                  \
    SE_NONE_FN(SZ, int64_t, 0) SE_NONE_FN(SZ, int64_t, 1)                                  \
    GE_FN(SZ, int32_t, 0) GE_FN(SZ, int32_t, 1)                                            \
    GE_FN(SZ, int64_t, 0) GE_FN(SZ, int64_t, 1)                                            \
    SND_NONE_FN(SZ) GND_FN(SZ)
ELEM_SIZES(SIZE_FNS)

#define RED_FNS(E, T, CLS, RED)                                                            \
    APPLY_FN(E, T, CLS, RED)                                                               \
    SE_RED_FN(E, T, RED, int32_t) SE_RED_FN(E, T, RED, int64_t)                            \
    SND_RED_FN(E, T, RED)
/* add and mul for every class but strings (no mul; add concatenates, through APPLY_STRING). */
#define TYPE_FNS(E, T, CLS) TYPE_FNS_##CLS(E, T, CLS)
#define TYPE_FNS_ANY(E, T, CLS)                                                            \
    RED_FNS(E, T, CLS, ADD) RED_FNS(E, T, CLS, MUL) RED_FNS(E, T, CLS, MAX) RED_FNS(E, T, CLS, MIN)
#define TYPE_FNS_FLOAT TYPE_FNS_ANY
#define TYPE_FNS_F16 TYPE_FNS_ANY
#define TYPE_FNS_BF16 TYPE_FNS_ANY
#define TYPE_FNS_SINT TYPE_FNS_ANY
#define TYPE_FNS_UINT TYPE_FNS_ANY
#define TYPE_FNS_BOOL TYPE_FNS_ANY
#define TYPE_FNS_COMPLEX TYPE_FNS_ANY
#define TYPE_FNS_STRING(E, T, CLS) \
    RED_FNS(E, T, CLS, ADD) RED_FNS(E, T, CLS, MAX) RED_FNS(E, T, CLS, MIN)
OSC_STD_TYPES(TYPE_FNS)
#define se_OSC_STRING_MUL_int32_t NULL
#define se_OSC_STRING_MUL_int64_t NULL
#define snd_OSC_STRING_MUL NULL


osc_elem_fn osc_se_loop(int32_t dtype, int32_t reduction, int32_t index_dtype, bool axis_last) {
    int slot = idx_slot(index_dtype, axis_last);
    size_t size = std_size(dtype);
    if (slot < 0 || size == 0 || reduction < 0 || reduction >= OSC_RED_COUNT) return NULL;
    if (reduction == OSC_RED_NONE) {
        switch (size) {
#define NONE_CASE(SZ)                                                                      \
    case SZ: {                                                                             \
        static const osc_elem_fn fns[4] = ELEM_SLOTS(se_none##SZ##_);                      \
        return fns[slot];                                                                  \
    }
            ELEM_SIZES(NONE_CASE)
#undef NONE_CASE
            default: return NULL;
        }
    }
    switch (dtype) {
#define RED_CASE(E, T, CLS)                                                                \
    case E: {                                                                              \
        static const osc_elem_fn fns[OSC_RED_COUNT][4] = {                                 \
            {NULL, NULL, NULL, NULL}, ELEM_SLOTS1(se_##E##_ADD_),                          \
            ELEM_SLOTS1(se_##E##_MUL_), ELEM_SLOTS1(se_##E##_MAX_),                        \
            ELEM_SLOTS1(se_##E##_MIN_)};                                                   \
        return fns[reduction][slot];                                                       \
    }
        OSC_STD_TYPES(RED_CASE)
#undef RED_CASE
        default: return NULL;
    }
}

osc_elem_fn osc_ge_loop(int32_t dtype, int32_t index_dtype, bool axis_last) {
    int slot = idx_slot(index_dtype, axis_last);
    if (slot < 0) return NULL;
    switch (std_size(dtype)) {
#define GE_CASE(SZ)                                                                        \
    case SZ: {                                                                             \
        static const osc_elem_fn fns[4] = ELEM_SLOTS(ge##SZ##_);                           \
        return fns[slot];                                                                  \
    }
        ELEM_SIZES(GE_CASE)
#undef GE_CASE
        default: return NULL;
    }
}

osc_nd_fn osc_snd_loop(int32_t dtype, int32_t reduction) {
    size_t size = std_size(dtype);
    if (size == 0 || reduction < 0 || reduction >= OSC_RED_COUNT) return NULL;
    if (reduction == OSC_RED_NONE) {
        switch (size) {
#define NONE_CASE(SZ) \
    case SZ: return snd_none##SZ;
            ELEM_SIZES(NONE_CASE)
#undef NONE_CASE
            default: return NULL;
        }
    }
    switch (dtype) {
#define RED_CASE(E, T, CLS)                                                                \
    case E: {                                                                              \
        static const osc_nd_fn fns[OSC_RED_COUNT] = {NULL, snd_##E##_ADD, snd_##E##_MUL,   \
                                                     snd_##E##_MAX, snd_##E##_MIN};        \
        return fns[reduction];                                                             \
    }
        OSC_STD_TYPES(RED_CASE)
#undef RED_CASE
        default: return NULL;
    }
}

osc_nd_fn osc_gnd_loop(int32_t dtype) {
    switch (std_size(dtype)) {
#define GND_CASE(SZ) \
    case SZ: return gnd##SZ;
        ELEM_SIZES(GND_CASE)
#undef GND_CASE
        default: return NULL;
    }
}
