/* fused_rows.c: the fused gather-scatter's loop over destination rows (osc_fs_job.rows,
 * fused_scatter.h), for splits grouped by destination (fused_group.c). Each output row of the
 * part is made once: it starts as data's row (or zeros, or itself in place, or the reset value of
 * a reset scatter taken in), its edges' messages
 * are combined into it in edge order in a buffer (FS_EDGE, fused_steps.h: the operations of the
 * edge loop, so the bits of the unfused scatter), and it is stored. Rows without edges are
 * copied (or zeroed) a run at a time. No reduction: the last edge's message is the row. The
 * source rows of the next FR_BLOCK list positions are looked up in one pass (fr_sources), then
 * each edge's operands and source row are prefetched a few edges ahead: the list says which
 * they are (docs/performance-steps.md, "The aggregation's own passes"). */
#include <string.h>

#include "fused_scatter.h"
#include "fused_steps.h"

#define FR_ACC 512     /* rows up to this long are combined in a buffer, else in place */
#define FR_BLOCK 384   /* list positions whose source rows are looked up at a time */
#define FR_PF_SRC 32   /* list positions ahead whose source index is fetched (the look-up) */
#define FR_PF_OPND 16  /* list positions ahead whose operands are fetched */
#define FR_PF_ROW 8    /* list positions ahead whose source row is fetched */
#define FR_PF_LINES 8  /* cache lines of a source row fetched at most */

/* The source rows of the part's edges in list order, placed where the part's output rows end
 * (fr_place_sources): sr[q - q0] for list position q. */
typedef struct fr_placed {
    const char *sr; /* NULL: none, the rows are looked up through the list */
    int64_t q0;
} fr_placed;

/* The row loop of output rows [lo, hi) writes row d only once it has read every list position
 * below row_at[d + 1]; until then the end of the part's rows is free, so the source row of each
 * of its edges can wait there in list order, the index read once, in a pass of independent
 * reads, instead of through the list inside the loop, where each row's fetch waits on its
 * index's (docs/performance-steps.md, "Source rows in list order"). Placed when the rows hold
 * them at every d (row d's end at or below the first byte of position row_at[d + 1]), every
 * row is written (not in place), rows are combined in a buffer (R <= FR_ACC), and the loop
 * reads every edge (a reduction). Stored and read by memcpy: the output's bytes may be a
 * caller's float array. */
static fr_placed fr_place_sources(const osc_fs_job *j, int64_t lo, int64_t hi, size_t rb) {
    const uint32_t *list = j->s.list, *row_at = j->s.row_at;
    const int64_t q0 = row_at[lo], n = row_at[hi] - q0;
    const fr_placed none = {NULL, 0};
    if (!j->p->gather || (!j->fill && !j->data) || j->p->row > FR_ACC || n < 1 ||
        j->p->reduction == OSC_RED_NONE || (uint64_t)j->x_rows > UINT32_MAX)
        return none;
    const size_t room = (size_t)(hi - lo) * rb, need = (size_t)n * sizeof(uint32_t);
    if (room < need) return none;
    const size_t base = room - need; /* from row lo to position q0 */
    for (int64_t d = lo; d < hi; d++)
        if ((size_t)(d + 1 - lo) * rb > base + (size_t)(row_at[d + 1] - q0) * sizeof(uint32_t))
            return none;
    char *sr = j->out + (size_t)lo * rb + base;
    for (int64_t q = 0; q < n; q++) {
        if (q + FR_PF_SRC < n) OSC_PREFETCH(osc_ixv_addr(&j->src, list[q0 + q + FR_PF_SRC]), 0);
        const uint32_t r = (uint32_t)osc_ixv_row(&j->src, list[q0 + q], j->x_rows);
        memcpy(sr + (size_t)q * sizeof r, &r, sizeof r);
    }
    return (fr_placed){sr, q0};
}

/* xs[q - q0]: the source row of the edge at list position q, for q in [q0, q1): from the placed
 * source rows, else the edges' source indices fetched ahead: a pass of independent reads, so
 * that the row loop knows each upcoming source row without waiting for its index. */
static void fr_sources(const osc_fs_job *j, const fr_placed *pl, int64_t q0, int64_t q1,
                       size_t row_bytes, const char **xs) {
    const uint32_t *list = j->s.list;
    const bool gather = j->p->gather;
    if (pl->sr) {
        for (int64_t q = q0; q < q1; q++) {
            uint32_t r;
            memcpy(&r, pl->sr + (size_t)(q - pl->q0) * sizeof r, sizeof r);
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

/* The prefetches for list position q: the operands of the edge FR_PF_OPND positions ahead (below
 * qe, the part's end), the source row FR_PF_ROW ahead (below qz, the end of xs, which starts at
 * qb). A macro: GCC takes a function whose only effects are prefetches for a pure one, and
 * drops its calls. */
#define FR_PREFETCH(j, list, q, qe, qb, qz, xs, row_bytes)                                 \
    do {                                                                                   \
        const osc_fs_params *pp = (j)->p;                                                  \
        if ((q) + FR_PF_OPND < (qe)) {                                                     \
            const int64_t en = (list)[(q) + FR_PF_OPND];                                   \
            for (int32_t s = 0; s < pp->n_steps; s++) {                                    \
                const osc_fs_step *st = &pp->steps[s];                                     \
                if (st->estride)                                                           \
                    OSC_PREFETCH((j)->opnd[s] + (size_t)(en * st->estride) * (j)->esize, 0);   \
            }                                                                              \
        }                                                                                  \
        if ((q) + FR_PF_ROW < (qz)) {                                                      \
            const char *xn = (xs)[(q) + FR_PF_ROW - (qb)];                                 \
            const size_t nb = (row_bytes) < FR_PF_LINES * 64 ? (row_bytes) : FR_PF_LINES * 64; \
            for (size_t b = 0; b < nb; b += 64) OSC_PREFETCH(xn + b, 0);                       \
        }                                                                                  \
    } while (0)

#define FS_OROW(st) e /* (no tiled step: a TiledGatherScatter runs the edge loop) */
#define FR_ROWS(TN, T, RED)                                                                \
    static void fr_##TN##_##RED(const osc_fs_job *j, int64_t lo, int64_t hi,               \
                                const char *const *opnd) {                                 \
        const osc_fs_params *p = j->p;                                                     \
        const int64_t R = p->row;                                                          \
        const size_t rb = (size_t)R * sizeof(T);                                           \
        const uint32_t *list = j->s.list, *row_at = j->s.row_at;                           \
        const int64_t qe = row_at[hi];                                                     \
        T *out = (T *)(void *)j->out;                                                      \
        const T *data = j->data ? (const T *)(const void *)j->data : j->fill ? NULL : out; \
        T v[FS_ROW_MAX], acc[FR_ACC];                                                      \
        const char *xs[FR_BLOCK];                                                          \
        int64_t qb = 0, qz = 0; /* xs holds the source rows of list positions [qb, qz) */  \
        int64_t idle = lo; /* the first of the rows without edges not yet started */       \
        const fr_placed pl = fr_place_sources(j, lo, hi, rb);                              \
        for (int64_t d = lo; d < hi; d++) {                                                \
            int64_t q = row_at[d];                                                         \
            const int64_t q1 = row_at[d + 1];                                              \
            if (q == q1) continue;                                                         \
            osc_fs_start_rows(j, idle, d);                                                 \
            osc_fs_epilogue_rows(j, idle, d);                                              \
            idle = d + 1;                                                                  \
            T *o = R <= FR_ACC ? acc : out + d * R;                                        \
            if (OSC_RED_##RED == OSC_RED_NONE) q = q1 - 1; /* the last message is the row */ \
            else if (p->reset)                                                             \
                for (int64_t i = 0; i < R; i++) o[i] = (T)p->reset_value;                  \
            else if (data) memmove(o, data + d * R, rb);                                   \
            else                                                                           \
                for (int64_t i = 0; i < R; i++) o[i] = (T)j->fill_value;                   \
            for (; q < q1; q++) {                                                          \
                if (q >= qz) {                                                             \
                    qb = q;                                                                \
                    qz = qe - q < FR_BLOCK ? qe : q + FR_BLOCK;                            \
                    fr_sources(j, &pl, qb, qz, rb, xs);                                    \
                }                                                                          \
                FR_PREFETCH(j, list, q, qe, qb, qz, xs, rb);                               \
                const int64_t e = list[q];                                                 \
                const T *xr = (const T *)(const void *)xs[q - qb];                         \
                FS_EDGE(T, RED, p, o, xr, opnd, v);                                        \
            }                                                                              \
            if (o == acc) memcpy(out + d * R, acc, rb);                                    \
            osc_fs_epilogue_rows(j, d, d + 1); /* (the row in cache; one copy of its code) */ \
        }                                                                                  \
        osc_fs_start_rows(j, idle, hi);                                                    \
        osc_fs_epilogue_rows(j, idle, hi);                                                 \
    }
FS_EACH_RED(FR_ROWS, f32, float)
FS_EACH_RED(FR_ROWS, f64, double)

osc_fs_rows_fn osc_fs_rows_of(int32_t dtype, int32_t red) {
    static const osc_fs_rows_fn f32[] = FS_RED_TABLE(fr, f32), f64[] = FS_RED_TABLE(fr, f64);
    return FS_RED_PICK(f32, f64, dtype, red);
}
