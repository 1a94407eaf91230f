/* scatter_bucket.c: the bucketed scatters of scatter_loops.h (large outputs): partition the
 * updates by output region, then apply region by region, optionally on the session's threads.
 * The element updates are the typed ones of scatter_impl.h, as in the direct loops. */
#include "scatter_loops.h"

#include <string.h>

#include "core/dtype.h"
#include "scatter.h"
#include "reduce.h"
#include "scatter_impl.h"

#ifdef OSC_SIZE_FIRST
/* A size-first build (CMake OSC_SIZE_FIRST) has no bucketed path: its typed partition and apply
 * loops are most of this file's code. Large scatters take the direct loops. */
osc_bk_result osc_se_bucketed(osc_scratch *sc, osc_tpool *tp, const osc_elem_walk *w,
                              int32_t dtype, int32_t reduction, int32_t index_dtype,
                              const void *idx, const void *upd, void *out, const void *data,
                              int64_t count) {
    (void)sc, (void)tp, (void)w, (void)dtype, (void)reduction, (void)index_dtype, (void)idx;
    (void)upd, (void)out, (void)data, (void)count;
    return OSC_BK_SKIPPED;
}
osc_bk_result osc_snd_bucketed(osc_scratch *sc, osc_tpool *tp, const osc_nd_block *b,
                               int32_t dtype, int32_t reduction, void *out, const void *data,
                               int64_t count) {
    (void)sc, (void)tp, (void)b, (void)dtype, (void)reduction, (void)out, (void)data;
    (void)count;
    return OSC_BK_SKIPPED;
}
#else

/* ---- Bucketed scatter ----
 * A random scatter into a tensor far larger than the caches misses on nearly every element,
 * and in copy mode it reads back the lines the copy has just written out. So for large
 * outputs the elements are first partitioned, in order, by the 2^shift-element region of the
 * output they land in (offset in the region and value, in chunks of BK_CH entries chained per
 * region), then applied region by region; in copy mode each region is copied from data just
 * before its updates, so they hit lines the copy left in cache and the output is written once.
 * The partition reads every index anyway and checks it on the way, so this path needs no
 * separate validation pass: it writes nothing but its own memory until every index passed.
 * Each output element receives its updates in the same order as from the direct loops, so the
 * results are bit-identical. */
#define BK_CH 256

typedef struct bk_state {
    int32_t shift;
    uint32_t mask;           /* 2^shift - 1 */
    int64_t nb;              /* regions */
    int32_t *first, *cur, *fill; /* per region: first and last chunk (-1: none), entries in last */
    int32_t *next;           /* per chunk: the next chunk of its region, -1 at the end */
    char *chunks;            /* chunk c: uint32_t off[BK_CH], then BK_CH values */
    size_t chunk_bytes;
    int32_t used;            /* chunks handed out */
} bk_state;

/* Appends (element o of the output, the SZ bytes at vp) to o's region. A region starts with
 * fill == BK_CH and no chunk, so its first entry takes the slow path like a full chunk. */
#define BK_PUT(bk, o, vp, SZ)                                                              \
    do {                                                                                   \
        const int64_t o_ = (o), r_ = o_ >> (bk)->shift;                                    \
        int32_t c_ = (bk)->cur[r_], f_ = (bk)->fill[r_];                                   \
        if (f_ == BK_CH) {                                                                 \
            const int32_t n_ = (bk)->used++;                                               \
            if (c_ < 0)                                                                    \
                (bk)->first[r_] = n_;                                                      \
            else                                                                           \
                (bk)->next[c_] = n_;                                                       \
            (bk)->next[n_] = -1;                                                           \
            (bk)->cur[r_] = c_ = n_;                                                       \
            f_ = 0;                                                                        \
        }                                                                                  \
        char *ch_ = (bk)->chunks + (size_t)c_ * (bk)->chunk_bytes;                         \
        ((uint32_t *)(void *)ch_)[f_] = (uint32_t)o_ & (bk)->mask;                         \
        memcpy(ch_ + BK_CH * sizeof(uint32_t) + (size_t)f_ * SZ, (vp), SZ);                \
        (bk)->fill[r_] = f_ + 1;                                                           \
    } while (0)

/* Partition of one osc_elem_block whose element 0 is output element `base`; false at the
 * first index outside [-s, s-1] (then the caller discards the partition). */
typedef bool (*bk_se_part_fn)(bk_state *bk, const osc_elem_block *b, int64_t base);
#define BK_SE_PART_FN(SZ, IT)                                                              \
    static bool bkse##SZ##_##IT(bk_state *bk, const osc_elem_block *b, int64_t base) {     \
        const IT *ix = b->idx;                                                             \
        const char *u = b->src;                                                            \
        const int64_t n = b->n, s = b->s, as = b->astride, js = b->jstride;                \
        for (int64_t r = 0; r < b->rows; r++, ix += n) {                                   \
            const int64_t ob = base + r * b->row_step;                                     \
            const char *ur = u + (size_t)(r * n) * SZ;                                     \
            for (int64_t j = 0; j < n; j++) {                                              \
                const int64_t v = NORM((int64_t)ix[j], s);                                 \
                if ((uint64_t)v >= (uint64_t)s) return false;                              \
                BK_PUT(bk, ob + v * as + j * js, ur + (size_t)j * SZ, SZ);                 \
            }                                                                              \
        }                                                                                  \
        return true;                                                                       \
    }

/* Partition of ScatterND's single-element tuples (slice 1); false at the first component
 * outside [-dims[j], dims[j]-1]. */
typedef bool (*bk_nd_part_fn)(bk_state *bk, const osc_nd_block *b);
#define BK_ND_PART_FN(SZ)                                                                  \
    static bool bknd##SZ(bk_state *bk, const osc_nd_block *b) {                            \
        const int64_t *ix = b->idx, *dims = b->dims, *st = b->stride;                      \
        const char *u = b->src;                                                            \
        const int32_t k = b->k;                                                            \
        for (int64_t t = 0; t < b->tuples; t++, ix += k) {                                 \
            int64_t off = 0;                                                               \
            for (int32_t j = 0; j < k; j++) {                                              \
                const int64_t v = NORM(ix[j], dims[j]);                                    \
                if ((uint64_t)v >= (uint64_t)dims[j]) return false;                        \
                off += v * st[j];                                                          \
            }                                                                              \
            BK_PUT(bk, off, u + (size_t)t * SZ, SZ);                                       \
        }                                                                                  \
        return true;                                                                       \
    }

/* Applies region r's entries, in order, to `region` (its element 0). */
typedef void (*bk_apply_fn)(const bk_state *bk, int64_t r, void *region);
#define BK_CHUNKS(bk, r, BODY)                                                             \
    for (int32_t c = (bk)->first[r]; c >= 0; c = (bk)->next[c]) {                          \
        const int32_t cnt = (bk)->next[c] < 0 ? (bk)->fill[r] : BK_CH;                     \
        const char *ch = (bk)->chunks + (size_t)c * (bk)->chunk_bytes;                     \
        const uint32_t *off = (const uint32_t *)(const void *)ch;                          \
        const char *val = ch + BK_CH * sizeof(uint32_t);                                   \
        for (int32_t e = 0; e < cnt; e++) BODY;                                            \
    }
#define BK_APPLY_RED_FN(E, T, RED)                                                         \
    static void bkap_##E##_##RED(const bk_state *bk, int64_t r, void *region) {            \
        T *d = region;                                                                     \
        BK_CHUNKS(bk, r, apply_##E##_##RED(&d[off[e]], ((const T *)(const void *)val)[e], NULL)) \
    }
#define BK_APPLY_NONE_FN(SZ)                                                               \
    static void bkap_none##SZ(const bk_state *bk, int64_t r, void *region) {               \
        char *d = region;                                                                  \
        BK_CHUNKS(bk, r, memcpy(d + (size_t)off[e] * SZ, val + (size_t)e * SZ, SZ))         \
    }

/* ---- Expansion ---- */

#define SIZE_FNS(SZ)                                                                       \
    BK_SE_PART_FN(SZ, int32_t) BK_SE_PART_FN(SZ, int64_t)                                  \
    BK_ND_PART_FN(SZ) BK_APPLY_NONE_FN(SZ)
ELEM_SIZES(SIZE_FNS)

#define RED_FNS(E, T, CLS, RED) APPLY_FN(E, T, CLS, RED) BK_APPLY_RED_FN(E, T, RED)
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
/* (strings never take the bucketed path: no bkap_ functions) */
#define TYPE_FNS_STRING(E, T, CLS)
OSC_STD_TYPES(TYPE_FNS)

/* ---- The bucketed drivers ---- */

/* Regions of about OSC_BK_REGION_BYTES: one being applied and the chunks being read fit in L2. At
 * most BK_MAX_REGIONS of them (larger regions beyond that), so that the partition writes to a
 * bounded number of streams. */
#ifndef OSC_BK_REGION_BYTES /* (tests build with tiny regions to run every path) */
#define OSC_BK_REGION_BYTES ((size_t)256 << 10)
#endif
#define BK_MAX_REGIONS 4096

/* Lays out in m the partition of n entries of esize bytes over an output of count elements
 * (m NULL: only sizes it). Returns its bytes (a multiple of 64), 0 when it does not fit the
 * limits below. */
static size_t bk_layout(bk_state *bk, char *m, int64_t count, size_t esize, int64_t n) {
    if (count <= 0 || n <= 0) return 0;
    int32_t shift = 0;
    while (((size_t)1 << shift) * esize < OSC_BK_REGION_BYTES) shift++;
    while (((count - 1) >> shift) + 1 > BK_MAX_REGIONS) shift++;
    if (shift > 31) return 0; /* offsets in a region are uint32_t */
    const int64_t nb = ((count - 1) >> shift) + 1;
    /* every region's chain has at most one chunk that is not full */
    const int64_t cap = n / BK_CH + (nb < n ? nb : n) + 1;
    if (cap > INT32_MAX) return 0;
    const size_t chunk_bytes = BK_CH * (sizeof(uint32_t) + esize);
    size_t chunks_bytes, bytes;
    if (__builtin_mul_overflow((size_t)cap, chunk_bytes, &chunks_bytes)) return 0;
    const size_t ints = (size_t)(3 * nb + cap);
    if (__builtin_add_overflow(chunks_bytes, ints * sizeof(int32_t) + 63, &bytes)) return 0;
    if (!m) return bytes & ~(size_t)63;
    bk->shift = shift;
    bk->mask = (uint32_t)(((uint64_t)1 << shift) - 1);
    bk->nb = nb;
    bk->chunks = m; /* chunk_bytes is a multiple of 16: every value array stays aligned */
    bk->chunk_bytes = chunk_bytes;
    bk->first = (int32_t *)(void *)(m + chunks_bytes);
    bk->cur = bk->first + nb;
    bk->fill = bk->cur + nb;
    bk->next = bk->fill + nb;
    bk->used = 0;
    for (int64_t r = 0; r < nb; r++) {
        bk->first[r] = bk->cur[r] = -1;
        bk->fill[r] = BK_CH;
    }
    return bytes & ~(size_t)63;
}

static bk_apply_fn bk_apply_get(int32_t dtype, int32_t reduction, size_t size) {
    if (reduction == OSC_RED_NONE) {
        switch (size) {
#define NONE_CASE(SZ) \
    case SZ: return bkap_none##SZ;
            ELEM_SIZES(NONE_CASE)
#undef NONE_CASE
            default: return NULL;
        }
    }
    if (reduction < 0 || reduction >= OSC_RED_COUNT) return NULL;
    switch (dtype) {
#define RED_CASE(E, T, CLS) BK_RED_CASE_##CLS(E)
#define BK_RED_CASE_ANY(E)                                                                 \
    case E: {                                                                              \
        static const bk_apply_fn fns[OSC_RED_COUNT] = {NULL, bkap_##E##_ADD, bkap_##E##_MUL, \
                                                       bkap_##E##_MAX, bkap_##E##_MIN};    \
        return fns[reduction];                                                             \
    }
#define BK_RED_CASE_FLOAT BK_RED_CASE_ANY
#define BK_RED_CASE_F16 BK_RED_CASE_ANY
#define BK_RED_CASE_BF16 BK_RED_CASE_ANY
#define BK_RED_CASE_SINT BK_RED_CASE_ANY
#define BK_RED_CASE_UINT BK_RED_CASE_ANY
#define BK_RED_CASE_BOOL BK_RED_CASE_ANY
#define BK_RED_CASE_COMPLEX BK_RED_CASE_ANY
#define BK_RED_CASE_STRING(E)
        OSC_STD_TYPES(RED_CASE)
#undef RED_CASE
        default: return NULL;
    }
}

/* Parts of a bucketed scatter: threads beyond this many take no part (their share of the
 * memory traffic would be too small to pay for another partition). */
#define BK_MAX_PARTS 8

/* One bucketed scatter: the partition of each part, then the regions. */
typedef struct bk_job {
    int32_t parts;
    bk_state bk[BK_MAX_PARTS];
    bool ok[BK_MAX_PARTS];       /* the part's indices were all in range */
    int64_t units;               /* ScatterElements: rows of the walk's blocks; ScatterND: tuples */
    /* ScatterElements */
    bk_se_part_fn se_part;
    const osc_elem_walk *w;
    const char *idx, *upd;
    size_t isize;
    /* ScatterND */
    bk_nd_part_fn nd_part;
    const osc_nd_block *nb;
    /* regions */
    bk_apply_fn apply;
    char *out;
    const char *data;            /* NULL: in place */
    int64_t count;
    size_t esize;
} bk_job;

static void bk_partition(void *ctx, int32_t part, int32_t parts) {
    bk_job *j = ctx;
    (void)parts;
    if (part >= j->parts) return;
    int64_t u0, u1;
    osc_par_range(j->units, 1, part, j->parts, &u0, &u1);
    bool ok = true;
    if (j->nd_part) {
        osc_nd_block b = *j->nb;
        b.idx += u0 * b.k;
        b.src = (const char *)b.src + (size_t)u0 * j->esize;
        b.tuples = u1 - u0;
        ok = j->nd_part(&j->bk[part], &b);
    } else if (u1 > u0) {
        /* rows u0..u1-1 of the walk, block by block */
        osc_elem_walk w = *j->w;
        const int64_t rows = w.block.rows, n = w.block.n;
        int64_t r = u0 % rows, base = osc_elem_walk_seek(&w, u0 / rows);
        osc_elem_block b = w.block;
        for (int64_t u = u0; u < u1 && ok;) {
            b.rows = rows - r < u1 - u ? rows - r : u1 - u;
            b.idx = j->idx + (size_t)(u * n) * j->isize;
            b.src = j->upd + (size_t)(u * n) * j->esize;
            ok = j->se_part(&j->bk[part], &b, base + r * w.block.row_step);
            u += b.rows;
            r = 0;
            base = osc_elem_walk_next(&w);
        }
    }
    j->ok[part] = ok;
}

/* Regions of this part's range: copy each from data (unless in place), then apply its entries
 * part by part. */
static void bk_regions(void *ctx, int32_t part, int32_t parts) {
    const bk_job *j = ctx;
    const bk_state *bk0 = &j->bk[0];
    const int64_t len = (int64_t)1 << bk0->shift;
    int64_t r0, r1;
    osc_par_range(bk0->nb, 1, part, parts, &r0, &r1);
    for (int64_t r = r0; r < r1; r++) {
        const int64_t lo = r << bk0->shift;
        char *region = j->out + (size_t)lo * j->esize;
        const size_t bytes = (size_t)(j->count - lo < len ? j->count - lo : len) * j->esize;
        if (j->data) memcpy(region, j->data + (size_t)lo * j->esize, bytes);
        for (int32_t q = 0; q < j->parts; q++)
            if (j->bk[q].first[r] >= 0) j->apply(&j->bk[q], r, region);
    }
}

/* Lays out every part's partition (entries: updates per unit) in the scratch block, runs them
 * and, when every index was in range, the regions. */
static osc_bk_result bk_run(bk_job *j, osc_scratch *sc, osc_tpool *tp, int64_t per_unit) {
    size_t at[BK_MAX_PARTS + 1] = {0};
    const int32_t threads = osc_tpool_size(tp);
    j->parts = threads < BK_MAX_PARTS ? threads : BK_MAX_PARTS;
    if (j->parts > j->units) j->parts = (int32_t)j->units;
    for (int32_t p = 0; p < j->parts; p++) {
        int64_t u0, u1;
        osc_par_range(j->units, 1, p, j->parts, &u0, &u1);
        const size_t bytes = bk_layout(NULL, NULL, j->count, j->esize, (u1 - u0) * per_unit);
        if (!bytes || __builtin_add_overflow(at[p], bytes, &at[p + 1])) return OSC_BK_SKIPPED;
    }
    char *mem = sc ? osc_scratch_get(sc, at[j->parts]) : NULL;
    if (!mem) return OSC_BK_SKIPPED;
    for (int32_t p = 0; p < j->parts; p++) {
        int64_t u0, u1;
        osc_par_range(j->units, 1, p, j->parts, &u0, &u1);
        bk_layout(&j->bk[p], mem + at[p], j->count, j->esize, (u1 - u0) * per_unit);
    }
    osc_tpool_run(j->parts > 1 ? tp : NULL, bk_partition, j);
    for (int32_t p = 0; p < j->parts; p++)
        if (!j->ok[p]) return OSC_BK_BAD_INDEX;
    osc_tpool_run(tp, bk_regions, j);
    return OSC_BK_DONE;
}

osc_bk_result osc_se_bucketed(osc_scratch *sc, osc_tpool *tp, const osc_elem_walk *w,
                              int32_t dtype, int32_t reduction, int32_t index_dtype,
                              const void *idx, const void *upd, void *out, const void *data,
                              int64_t count) {
    const size_t esize = std_size(dtype);
    const int slot = idx_slot(index_dtype, w->axis_last);
    const bk_apply_fn apply = bk_apply_get(dtype, reduction, esize);
    if (dtype == OSC_STRING || slot < 0 || !apply) return OSC_BK_SKIPPED;
    bk_se_part_fn part = NULL;
    switch (esize) {
#define PART_CASE(SZ)                                                                      \
    case SZ: {                                                                             \
        static const bk_se_part_fn fns[4] = ELEM_SLOTS1(bkse##SZ##_);                      \
        part = fns[slot];                                                                  \
        break;                                                                             \
    }
        ELEM_SIZES(PART_CASE)
#undef PART_CASE
        default: return OSC_BK_SKIPPED;
    }
    bk_job j = {.units = w->blocks * w->block.rows, .se_part = part, .w = w, .idx = idx,
                .upd = upd, .isize = index_dtype == OSC_INT32 ? sizeof(int32_t)
                                                            : sizeof(int64_t),
                .apply = apply, .out = out, .data = data, .count = count, .esize = esize};
    return bk_run(&j, sc, tp, w->block.n);
}

osc_bk_result osc_snd_bucketed(osc_scratch *sc, osc_tpool *tp, const osc_nd_block *b,
                               int32_t dtype, int32_t reduction, void *out, const void *data,
                               int64_t count) {
    const size_t esize = std_size(dtype);
    const bk_apply_fn apply = bk_apply_get(dtype, reduction, esize);
    if (dtype == OSC_STRING || b->slice != 1 || !apply) return OSC_BK_SKIPPED;
    bk_nd_part_fn part = NULL;
    switch (esize) {
#define PART_CASE(SZ) \
    case SZ: part = bknd##SZ; break;
        ELEM_SIZES(PART_CASE)
#undef PART_CASE
        default: return OSC_BK_SKIPPED;
    }
    bk_job j = {.units = b->tuples, .nd_part = part, .nb = b, .apply = apply, .out = out,
                .data = data, .count = count, .esize = esize};
    return bk_run(&j, sc, tp, 1);
}
#endif /* OSC_SIZE_FIRST */
