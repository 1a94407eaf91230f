/* fused_group.h: which rows and edges each part (thread) of a fused scatter owns, and the
 * grouping of its edges by destination row (fused_group.c). */
#ifndef OSC_FUSED_GROUP_H
#define OSC_FUSED_GROUP_H

#include "core/kernel.h"
#include "fused_index.h"

/* Which rows of the output, and which edges, each part (thread) of a fused scatter owns. */
typedef struct osc_fs_split {
    osc_ixv dst;         /* the destination index, dst_stride apart */
    int32_t key;         /* its graph value (the split memo's key) */
    bool same;           /* its bytes are those of the run before (osc_ixv_check) */
    int64_t dst_stride, n_rows, edges;
    int64_t bounds[OSC_MAX_THREADS + 1]; /* part t owns output rows [bounds[t], bounds[t+1]) */
    /* The edges of part t, in order, are list[at[t]] .. list[at[t+1]-1]; NULL: every part
     * walks edges [0, edges) and skips the rows it does not own. */
    const uint32_t *list;
    int64_t at[OSC_MAX_THREADS + 1];
    /* Grouped by destination (osc_fs_group_rows): the list is every edge sorted by destination
     * row, stably (a row's edges stay in edge order), row d's edges at positions
     * row_at[d] .. row_at[d+1]-1 (N + 1 offsets), so at[t] = row_at[bounds[t]]. NULL: each
     * part's list is in edge order. Loops that walk the list either way see every row's edges
     * in edge order; edge positions are ascending only without grouping. */
    const uint32_t *row_at;
} osc_fs_split;

/* The output is grouped by destination (osc_fs_split_shared with OSC_FS_SPLIT_GROUP) when it
 * is at least this large (larger than a core's cache: each edge's read-modify-write of a random
 * output row misses it) and there are at least a quarter as many edges as rows. */
#ifndef OSC_FS_GROUP_MIN_BYTES /* (the tiny-threshold library's OSC_PAR_MIN_BYTES is 1) */
#define OSC_FS_GROUP_MIN_BYTES OSC_PAR_MIN_BYTES
#endif
/* Sorts the edges by destination row, stably, into the CSR of s->row_at and s->list (counting
 * sort: per-thread histograms of the rows, their prefix sums, then each thread places its
 * edges), and splits the rows among the pool's threads into ranges of about equal edge counts.
 * Indices must have been checked. False (s untouched) without scratch for it or for more than
 * UINT32_MAX edges. */
bool osc_fs_group_rows(osc_fs_split *s, osc_tpool *pool, osc_scratch *scratch);

#endif
