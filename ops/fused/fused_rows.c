/* fused_rows.c: the fused gather-scatter's loop over destination rows (osc_fs_job.rows,
 * fused_scatter.h), for splits grouped by destination (fused_group.c). Each output row of the
 * part is made once: it starts as data's row (or zeros, or itself in place, or the reset value of
 * a reset scatter taken in), its edges' messages are combined into it in edge order in a buffer
 * (FS_EDGE, fused_steps.h: the operations of the edge loop, so the bits of the unfused scatter),
 * the epilogue is applied there too, and it is stored: with non-temporal stores when the part's
 * rows are large (osc_store_row: 0.84-0.94x of the aggregation's time on the Zen 4 VM, the
 * rows still being gathered staying in the cache). Rows without edges are copied (or zeroed)
 * a run at a time. No reduction: the last edge's message is the row. The edges' source rows
 * and per-edge operands are read in sequence from records placed in list order
 * (fused_place.h), each source row fetched a few edges ahead, by a loop for the message's kind
 * with nothing decided per edge (the loop waits on its prefetches, and a shorter one had more
 * edges in flight on the Zen machine: docs/performance-steps.md, "Records in list order"). The
 * source rows of the next FR_BLOCK list positions are looked up in one pass (fr_sources): from
 * the records, or through the list when nothing is placed, each edge's operands then fetched
 * through the list too. */
#include <string.h>

#include "core/copy.h"
#include "fused_place.h"
#include "fused_scatter.h"
#include "fused_steps.h"

#define FR_BLOCK 384   /* list positions whose source rows are looked up at a time */
#define FR_PF_SRC 32   /* list positions ahead whose source index is fetched (the look-up) */
#define FR_PF_OPND 16  /* list positions ahead whose operands are fetched */
#define FR_PF_ROW 8    /* list positions ahead whose source row is fetched */
#define FR_PF_FAR 32   /* ... and fetched into the outer cache levels (L2) */
#define FR_PF_LINES 8  /* cache lines of a source row fetched at most */

/* xs[q - q0]: the source row of the edge at list position q, for q in [q0, q1): from the
 * records (pl), else the edges' source indices fetched ahead: a pass of independent reads, so
 * that the row loop knows each upcoming source row without waiting for its index (or for a
 * record line the row fetches compete with). */
static void fr_sources(const osc_fs_job *j, const osc_fs_placed *pl, int64_t q0, int64_t q1,
                       size_t row_bytes, const char **xs) {
    const uint32_t *list = j->s.list;
    const bool gather = j->p->gather;
    if (pl->sr) {
        for (int64_t q = q0; q < q1; q++) {
            uint32_t r;
            memcpy(&r, pl->sr + (size_t)(q - pl->q0) * pl->rec + pl->src_at, sizeof r);
            xs[q - q0] = j->x + (size_t)r * row_bytes;
        }
        return;
    }
    for (int64_t q = q0; q < q1; q++) {
        if (gather && q + FR_PF_SRC < q1)
            OSC_PREFETCH(osc_ixv_addr(&j->src, list[q + FR_PF_SRC]), 0);
        const int64_t e = list[q];
        xs[q - q0] = j->x + (size_t)(gather ? osc_ixv_row(&j->src, e, j->x_rows) : e) * row_bytes;
    }
}

/* What the row loop does per edge over placed records: one of two common messages, in a loop
 * of its own with nothing decided per edge, or the steps (FS_EDGE). */
enum { FR_STEPS, FR_SUM, FR_SCALE };
static int fr_kind(const osc_fs_params *p, const osc_fs_placed *pl) {
    const osc_fs_step *s0 = &p->steps[0];
    if (p->n_steps == 0) return FR_SUM; /* the source row itself */
    if (p->n_steps == 1 && pl->step == 0 && s0->op == OSC_FS_MUL)
        return FR_SCALE; /* the source row times its edge's value (per block: GAT's heads) */
    return FR_STEPS;
}

/* xr: the source row of list position q, from xs (refilled at the end of its block), with the
 * fetches ahead (FR_PREFETCH). */
#define FR_SOURCE(T, xr)                                                                   \
    if (q >= qz) {                                                                         \
        qb = q;                                                                            \
        qz = qe - q < FR_BLOCK ? qe : q + FR_BLOCK;                                        \
        fr_sources(j, &pl, qb, qz, rb, xs);                                                \
    }                                                                                      \
    FR_PREFETCH(j, pl, list, q, qe, qb, qz, xs, rb);                                       \
    const T *xr = (const T *)(const void *)xs[q - qb]
/* The sum (RED) of the source rows of list positions [q, q1) into acc. */
#define FR_SUM(T, RED)                                                                     \
    for (; q < q1; q++) {                                                                  \
        FR_SOURCE(T, xr);                                                                  \
        for (int64_t i = 0; i < R; i++) acc[i] = FS_##RED(T, acc[i], xr[i]);               \
    }
/* The same of each source row times its record's values (wr), one per block of blk elements
 * (either operand first: the product is the same value). */
#define FR_SCALE(T, RED)                                                                   \
    for (; q < q1; q++) {                                                                  \
        FR_SOURCE(T, xr);                                                                  \
        const T *wr = (const T *)(const void *)(pl.sr + (size_t)(q - pl.q0) * pl.rec);     \
        for (int64_t b = 0; b < nblk; b++) {                                               \
            const T wb = wr[b], *xb = xr + b * blk;                                        \
            T *ab = acc + b * blk;                                                         \
            for (int64_t i = 0; i < blk; i++) ab[i] = FS_##RED(T, ab[i], (T)(xb[i] * wb)); \
        }                                                                                  \
    }

/* The prefetches for list position q: the operands of the edge FR_PF_OPND positions ahead (below
 * qe, the part's end; unless in its record, pl), the source row FR_PF_ROW ahead into every
 * level and FR_PF_FAR ahead into the outer ones (below qz, the end of xs, which starts at qb).
 * A macro: GCC takes a function whose only effects are prefetches for a pure one, and drops
 * its calls. */
#define FR_PREFETCH(j, pl, list, q, qe, qb, qz, xs, row_bytes)                             \
    do {                                                                                   \
        const osc_fs_params *pp = (j)->p;                                                  \
        if ((pl).step < 0 && (q) + FR_PF_OPND < (qe)) {                                    \
            const int64_t en = (list)[(q) + FR_PF_OPND];                                   \
            for (int32_t s = 0; s < pp->n_steps; s++) {                                    \
                const osc_fs_step *st = &pp->steps[s];                                     \
                if (st->estride)                                                           \
                    OSC_PREFETCH((j)->opnd[s] + (size_t)(en * st->estride) * (j)->esize, 0);   \
            }                                                                              \
        }                                                                                  \
        const size_t nb = (row_bytes) < FR_PF_LINES * 64 ? (row_bytes) : FR_PF_LINES * 64; \
        if ((q) + FR_PF_ROW < (qz)) {                                                      \
            const char *xn = (xs)[(q) + FR_PF_ROW - (qb)];                                 \
            for (size_t b = 0; b < nb; b += 64) OSC_PREFETCH(xn + b, 0);                   \
        }                                                                                  \
        if ((q) + FR_PF_FAR < (qz)) {                                                      \
            const char *xf = (xs)[(q) + FR_PF_FAR - (qb)];                                 \
            for (size_t b = 0; b < nb; b += 64) OSC_PREFETCH_L2(xf + b);                   \
        }                                                                                  \
    } while (0)

/* The element of step st's operand the edge e at list position q reads from: in its record
 * when placed (pst), else at its row (no tiled step: a TiledGatherScatter runs the edge loop). */
#define FS_OAT(st) ((st) == pst ? (q - pl.q0) * vstride : e * (st)->estride)
#define FR_ROWS(TN, T, RED)                                                                \
    OSC_AVX2_CLONES static void fr_##TN##_##RED(const osc_fs_job *j, int64_t lo, int64_t hi, \
                                const char *const *opnd) {                                 \
        const osc_fs_params *p = j->p;                                                     \
        const int64_t R = p->row;                                                          \
        const size_t rb = (size_t)R * sizeof(T);                                           \
        const uint32_t *list = j->s.list, *row_at = j->s.row_at;                           \
        const int64_t qe = row_at[hi];                                                     \
        T *out = (T *)(void *)j->out;                                                      \
        const T *data = j->data ? (const T *)(const void *)j->data : j->fill ? NULL : out; \
        T v[FS_ROW_MAX], acc[OSC_FS_ACC];                                                  \
        const char *xs[FR_BLOCK];                                                          \
        int64_t qb = 0, qz = 0; /* xs holds the source rows of list positions [qb, qz) */  \
        int64_t idle = lo; /* the first of the rows without edges not yet started */       \
        const osc_fs_placed pl = osc_fs_place(j, lo, hi, rb);                              \
        const int kind = pl.sr ? fr_kind(p, &pl) : FR_STEPS;                               \
        const osc_fs_step *pst = pl.step >= 0 ? &p->steps[pl.step] : NULL;                 \
        const int64_t vstride = (int64_t)(pl.rec / sizeof(T));                             \
        const char *op[OSC_FS_MAX_STEPS];                                                  \
        for (int32_t s = 0; s < p->n_steps; s++) op[s] = s == pl.step ? pl.sr : opnd[s];  \
        const bool block = kind == FR_SCALE && p->steps[0].read == OSC_FS_BLOCK;           \
        const int64_t blk = block ? p->steps[0].block : R, nblk = R / blk;                 \
        const T *epi = (const T *)(const void *)j->epi;                                    \
        const bool stream = (size_t)(hi - lo) * rb >= OSC_STREAM_MIN_BYTES;               \
        for (int64_t d = lo; d < hi; d++) {                                                \
            int64_t q = row_at[d];                                                         \
            const int64_t q1 = row_at[d + 1];                                              \
            if (q == q1) continue;                                                         \
            osc_fs_start_rows(j, idle, d);                                                 \
            osc_fs_epilogue_rows(j, idle, d);                                              \
            idle = d + 1;                                                                  \
            T *o = R <= OSC_FS_ACC ? acc : out + d * R;                                    \
            if (OSC_RED_##RED == OSC_RED_NONE) q = q1 - 1; /* the last message is the row */ \
            else if (p->reset)                                                             \
                for (int64_t i = 0; i < R; i++) o[i] = (T)p->reset_value;                  \
            else if (data) memmove(o, data + d * R, rb);                                   \
            else                                                                           \
                for (int64_t i = 0; i < R; i++) o[i] = (T)j->fill_value;                   \
            if (kind == FR_SUM) FR_SUM(T, RED)                                             \
            else if (kind == FR_SCALE) FR_SCALE(T, RED)                                    \
            for (; q < q1; q++) { /* the steps (the other kinds leave q at q1) */          \
                FR_SOURCE(T, xr);                                                          \
                const int64_t e = list[q];                                                 \
                FS_EDGE(T, RED, p, o, xr, op, v);                                          \
            }                                                                              \
            if (o != acc) {                                                                \
                osc_fs_epilogue_rows(j, d, d + 1);                                         \
                continue;                                                                  \
            }                                                                              \
            if (p->has_epi) FS_EPILOGUE(T, p, acc, R, epi, d);                             \
            if (stream) osc_store_row(out + d * R, acc, rb);                               \
            else memcpy(out + d * R, acc, rb);                                             \
        }                                                                                  \
        osc_fs_start_rows(j, idle, hi);                                                    \
        osc_fs_epilogue_rows(j, idle, hi);                                                 \
        if (stream) osc_stream_fence();                                                    \
    }
FS_EACH_RED(FR_ROWS, f32, float)
FS_EACH_RED(FR_ROWS, f64, double)

osc_fs_rows_fn osc_fs_rows_of(int32_t dtype, int32_t red) {
    static const osc_fs_rows_fn f32[] = FS_RED_TABLE(fr, f32), f64[] = FS_RED_TABLE(fr, f64);
    return FS_RED_PICK(f32, f64, dtype, red);
}
