/* fused_scatter.h: the fused gather-scatter node (ops/fused/fused_scatter.c), made by the
 * gather_scatter rules (rewrite/gather_scatter.c), never named by a model.
 *
 * The node computes what this chain computes, edge by edge, with no E x C intermediate:
 *     G = Gather(X, src, axis 0)              (or G = the updates themselves: "RowScatter")
 *     M = step_n(... step_1(G) ...)           (Add, Sub, Mul, Div with a broadcast operand;
 *                                              row-preserving Reshapes in between)
 *     out = data; out[dst[e], j] (reduction)= M[e, j]   for e in order, j along the row
 * where dst is the scatter's index before it was Expanded to M's shape (one index per row).
 * Inputs: 0 data (omitted: the output starts as zeros), 1 dst, 2 X (or the updates), 3 src
 * (omitted for RowScatter), 4.. one operand per step. */
#ifndef OSC_FUSED_SCATTER_H
#define OSC_FUSED_SCATTER_H

#include <string.h>

#include "core/kernel.h"
#include "fused_types.h"

/* The two operands an epilogue (osc_fs_params.epi) takes, against an output of `rank` dims
 * `dims`: one value per output row (w's rank, its first dim, every other dim 1), or one row of
 * the output repeated for every row (after leading 1s, w's dims are the output's 1 .. rank-1). */
static inline bool osc_fs_is_per_row(const osc_tensor *w, int32_t rank, const int64_t *dims) {
    bool ok = w->rank == rank && rank >= 1 && w->dims[0] == dims[0];
    for (int32_t d = 1; ok && d < rank; d++) ok = w->dims[d] == 1;
    return ok;
}
static inline bool osc_fs_is_row_operand(const osc_tensor *w, int32_t rank, const int64_t *dims) {
    const int32_t lead = w->rank - (rank - 1); /* w's dims before the row's */
    bool ok = rank >= 1 && lead >= 0;
    for (int32_t d = 0; ok && d < w->rank; d++)
        ok = w->dims[d] == (d < lead ? 1 : dims[d - lead + 1]);
    return ok;
}

/* One part owning every row and edge. */
void osc_fs_split_one(osc_fs_split *s);
/* Splits the rows among the pool's threads into ranges holding about as many edges each (a
 * histogram of the destinations, so threads share the work whatever the degrees) and lists
 * each part's edges in edge order, so that no thread walks another's; the passes over the
 * edges run on the threads. Indices must have been checked. Without scratch for the lists
 * (false) the parts split the rows evenly and list is NULL. */
bool osc_fs_split_rows(osc_fs_split *s, osc_tpool *pool, osc_scratch *scratch);
/* Threads split the rows of a smaller row only when an earlier run split the same index for
 * another scatter (osc_fs_split_shared): listing the edges costs more than applying rows of a
 * few elements (GAT's [E, 2] rows ran slower on two threads than on one), unless the lists are
 * made anyway. */
#ifndef OSC_FS_PAR_ROW_BYTES /* (tests build with 1 to run the split on small rows) */
#define OSC_FS_PAR_ROW_BYTES 64
#endif
/* When osc_fs_split_shared lists the edges itself: always (rows of OSC_FS_PAR_ROW_BYTES and
 * more), when the run before split the same index (smaller rows: a scatter of larger rows lists
 * its edges anyway), never (only another's split is taken). Or'ed with OSC_FS_SPLIT_GROUP: a
 * split it makes is grouped by destination (osc_fs_group_rows), on one thread too. */
enum { OSC_FS_SPLIT_MAKE, OSC_FS_SPLIT_HINTED, OSC_FS_SPLIT_REUSE, OSC_FS_SPLIT_GROUP = 4 };
/* Splits s among k's threads (osc_fs_split_rows, osc_fs_group_rows) for fused node k->node,
 * whose input 1 is the index, or takes the split another fused scatter made of the same index
 * value earlier in the run (the session's split memo, grouped or not); `make` (OSC_FS_SPLIT_*)
 * says when it lists the edges itself, and how. A split made without GROUP is grouped when the
 * run before grouped the same index. False: run on one part (s as osc_fs_split_one left it). */
bool osc_fs_split_shared(osc_kctx *k, osc_fs_split *s, int32_t make);
/* Whether s's lists are in k's scratch block (a split made with no session memo to keep them):
 * a kernel may take that block for itself after the split only when they are not. */
bool osc_fs_split_in_scratch(const osc_kctx *k, const osc_fs_split *s);

/* The row loop of a dtype and reduction for osc_fs_job.rows (fused_rows.c; NULL: none). */
typedef void (*osc_fs_rows_fn)(const osc_fs_job *j, int64_t lo, int64_t hi,
                               const char *const *opnd);
osc_fs_rows_fn osc_fs_rows_of(int32_t dtype, int32_t reduction);
/* How j's output starts, from input 0 (data, NULL when omitted: zeros) and j->p: as a fill, as
 * data's rows copied, or (data is the output's buffer) as it is. j->p and j->out set. */
void osc_fs_set_start(osc_fs_job *j, const osc_tensor *data);
/* Rows [lo, hi) of a part's output start as data, as the fill value, or (data NULL, no fill:
 * the output is data's buffer) as they are. */
void osc_fs_start_rows(const osc_fs_job *j, int64_t lo, int64_t hi);

/* With p->reset: the rows in [lo, hi) that an edge at list positions [q0, q1) reaches start
 * as the reset value (the edge loops' pass before the messages; the row loop starts them
 * itself). */
void osc_fs_reset_rows(const osc_fs_job *j, int64_t lo, int64_t hi, int64_t q0, int64_t q1);

/* With p->has_epi: the epilogue on the output rows [lo, hi), each complete. */
void osc_fs_epilogue_rows(const osc_fs_job *j, int64_t lo, int64_t hi);

/* The checks every fused scatter makes of its inputs 0 (data, optional: of p's output shape and
 * `dtype`) and 1 (the destinations: an index dtype, E values, or 1 with dst_stride 0). */
osc_status osc_fs_check_scatter(osc_kctx *k, const osc_fs_params *p, int32_t dtype,
                                const osc_tensor *const *in, int32_t n_in);

/* A fused scatter's last checks before its first write: output 0 present and holding the
 * result (`bytes`, set), every destination in range; *s set to one part owning every row and
 * edge (osc_fs_split_rows may split it then). */
osc_status osc_fs_prepare(osc_kctx *k, const osc_fs_params *p, int32_t dtype,
                          const osc_tensor *const *in, int32_t n_in, const osc_tensor *out,
                          int32_t n_out, osc_fs_split *s, size_t *bytes);

/* The checks of a GatherScatter's or RowScatter's inputs (params p, not k's: the tiled scatter
 * has gather steps too) against the shapes the fusion was made with; *src bound (gather). */
osc_status osc_fs_check(osc_kctx *k, const osc_fs_params *p, const osc_tensor *const *in,
                        int32_t n_in, osc_ixv *src);
/* Everything before a fused scatter's first write: the checks, the output, every index in
 * range; *j ready to run on one part (its split as osc_fs_split_one left it). */
osc_status osc_fs_bind(osc_kctx *k, const osc_fs_params *p, const osc_tensor *const *in,
                       int32_t n_in, osc_tensor *out, int32_t n_out, osc_fs_job *j,
                       size_t *bytes);

/* RowGather (ops/fused/fused_gather.c): GatherElements(data, Expand(U, shape), axis 0) with U one
 * index per row, read as it is: out[e, ...] = data[U[e], ...], a row copied per index.
 * Inputs: 0 data, 1 U. */
typedef struct osc_rg_params {
    int64_t rows;        /* E: rows of the output */
    int64_t dst_stride;  /* elements of U from one row's index to the next (0 or 1) */
    int32_t rank;        /* the output's shape */
    int64_t dims[OSC_FUSED_MAX_RANK];
} osc_rg_params;

#endif
