/* fused_place.c: the records of a grouped part (fused_place.h). The pass reads each edge's
 * source index and operand values through the list, fetched a few positions ahead, and writes
 * them in list order: its loop is kept to those reads (a copy of a constant size per record);
 * a longer loop ran at half the speed on the Zen machine, whose loops wait on their prefetches
 * (docs/performance-steps.md, "Records in list order"). Stored by memcpy: the output's bytes
 * may be a caller's float array. */
#include <string.h>

#include "fused_place.h"
#include "fused_steps.h"

#define FP_PF 32 /* list positions ahead whose source index and values are fetched */

/* The values step st reads per edge (0: none, the operand is shared; -1: not a run of at most
 * OSC_FS_PLACE_VALS consecutive elements). */
static int64_t fp_step_vals(const osc_fs_params *p, const osc_fs_step *st) {
    if (!st->estride) return 0;
    const int64_t nb = OSC_FS_PER_EDGE(st) ? 1 : st->read == OSC_FS_BLOCK ? p->row / st->block
                                                                           : -1;
    return nb >= 1 && nb <= OSC_FS_PLACE_VALS && (nb == 1 || st->block_stride == 1) ? nb : -1;
}

/* Whether rows [lo, hi) of rb bytes hold a record of rec bytes per list position, from byte
 * *base on, at every row (fused_place.h). */
static bool fp_room(const osc_fs_job *j, int64_t lo, int64_t hi, size_t rb, size_t rec,
                    size_t *base) {
    const uint32_t *row_at = j->s.row_at;
    const int64_t q0 = row_at[lo];
    const size_t room = (size_t)(hi - lo) * rb, need = (size_t)(row_at[hi] - q0) * rec;
    if (room < need) return false;
    *base = room - need;
    for (int64_t d = lo; d < hi; d++)
        if ((size_t)(d + 1 - lo) * rb > *base + (size_t)(row_at[d + 1] - q0) * rec) return false;
    return true;
}

/* Records [0, n) at sr from list positions q0 on, VB bytes of values each from w (ws bytes
 * from one edge to the next; VB 0: none). */
#define FP_LOOP(VB)                                                                        \
    for (int64_t q = 0; q < n; q++) {                                                      \
        if (q + FP_PF < n) {                                                               \
            const int64_t en = list[q0 + q + FP_PF];                                       \
            OSC_PREFETCH(osc_ixv_addr(&j->src, en), 0);                                    \
            if (VB) OSC_PREFETCH(w + (size_t)en * ws, 0);                                  \
        }                                                                                  \
        const int64_t e = list[q0 + q];                                                    \
        char *r = sr + (size_t)q * pl.rec;                                                 \
        if (VB) memcpy(r, w + (size_t)e * ws, VB);                                         \
        const uint32_t row = (uint32_t)osc_ixv_row(&j->src, e, j->x_rows);                 \
        memcpy(r + pl.src_at, &row, sizeof row);                                           \
    }

/* The records of rows [lo, hi) of rb bytes without their values: pl (sr NULL) and *base, where
 * they start in the rows; false: none (fused_place.h). */
static bool fp_plan(const osc_fs_job *j, int64_t lo, int64_t hi, size_t rb, osc_fs_placed *pl,
                    size_t *base) {
    const osc_fs_params *p = j->p;
    const int64_t q0 = j->s.row_at[lo], n = j->s.row_at[hi] - q0;
    const size_t es = j->esize;
    *pl = (osc_fs_placed){.sr = NULL, .q0 = q0, .step = -1};
    if (!p->gather || (!j->fill && !j->data) || n < 1 ||
        (uint64_t)j->x_rows > UINT32_MAX || p->row > OSC_FS_ACC)
        return false;
    int64_t vals = 0; /* the placed step's values per edge */
    for (int32_t s = 0; s < p->n_steps; s++) {
        const int64_t nv = fp_step_vals(p, &p->steps[s]);
        if (nv && (nv < 0 || pl->step >= 0)) { /* (not a short run, or a second one: none) */
            pl->step = -1;
            break;
        }
        if (nv) pl->step = s, vals = nv;
    }
    if (pl->step >= 0 && !fp_room(j, lo, hi, rb, (size_t)(vals + 1) * es, base)) pl->step = -1;
    vals = pl->step >= 0 ? vals : 0;
    pl->rec = pl->step >= 0 ? (size_t)(vals + 1) * es : sizeof(uint32_t);
    pl->src_at = (size_t)vals * es;
    return pl->step >= 0 || fp_room(j, lo, hi, rb, pl->rec, base);
}

bool osc_fs_places(const osc_fs_job *j, int32_t parts, int32_t step) {
    const size_t rb = (size_t)j->p->row * j->esize;
    for (int32_t t = 0; t < parts; t++) {
        const int64_t lo = j->s.bounds[t], hi = j->s.bounds[t + 1];
        osc_fs_placed pl;
        size_t base;
        if (!j->s.row_at || !j->rows ||
            (j->s.row_at[hi] > j->s.row_at[lo] && (!fp_plan(j, lo, hi, rb, &pl, &base) ||
                                                   pl.step != step)))
            return false;
    }
    return true;
}

/* A PAIR step's records, row by row: each edge's value the source table's at its source row
 * times the destination table's at the row, in the dtype T (the unfused Mul's product). */
#define FP_PAIR(T)                                                                         \
    {                                                                                      \
        const T *a = (const T *)(const void *)j->opnd[pl.step];                            \
        const T *b = (const T *)(const void *)j->pair[pl.step];                            \
        const uint32_t *row_at = j->s.row_at;                                              \
        for (int64_t d = lo; d < hi; d++) {                                                \
            const T bd = b[d];                                                             \
            for (int64_t q = row_at[d] - q0; q < row_at[d + 1] - q0; q++) {                \
                if (q + FP_PF < n) OSC_PREFETCH(osc_ixv_addr(&j->src, list[q0 + q + FP_PF]), 0); \
                const uint32_t row = (uint32_t)osc_ixv_row(&j->src, list[q0 + q], j->x_rows); \
                char *r = sr + (size_t)q * pl.rec;                                         \
                const T v = (T)(a[row] * bd);                                              \
                memcpy(r, &v, sizeof v);                                                   \
                memcpy(r + pl.src_at, &row, sizeof row);                                   \
            }                                                                              \
        }                                                                                  \
    }

osc_fs_placed osc_fs_place(const osc_fs_job *j, int64_t lo, int64_t hi, size_t rb) {
    const osc_fs_params *p = j->p;
    const uint32_t *list = j->s.list;
    osc_fs_placed pl;
    size_t base;
    if (!fp_plan(j, lo, hi, rb, &pl, &base)) return pl;
    const int64_t q0 = pl.q0, n = j->s.row_at[hi] - q0;
    char *sr = j->out + (size_t)lo * rb + base;
    if (pl.step >= 0 && p->steps[pl.step].read == OSC_FS_PAIR && j->pair[pl.step]) {
        if (j->esize == sizeof(float)) FP_PAIR(float)
        else FP_PAIR(double)
        pl.sr = sr;
        return pl;
    }
    const size_t es = j->esize;
    const char *w = pl.step >= 0 ? j->opnd[pl.step] : NULL;
    const size_t ws = pl.step >= 0 ? (size_t)p->steps[pl.step].estride * es : 0;
    switch (pl.src_at) { /* (a copy of a constant size: no call per record) */
    case 0: FP_LOOP(0) break;
    case 4: FP_LOOP(4) break;
    case 8: FP_LOOP(8) break;
    case 16: FP_LOOP(16) break;
    default: FP_LOOP(pl.src_at) break;
    }
    pl.sr = sr;
    return pl;
}
