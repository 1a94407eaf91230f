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
#include "fused.h"

/* The inputs of GatherScatter and RowScatter, by role (the steps' operands from
 * OSC_FS_IN_STEPS on, then the pieces of pieced indices). */
enum { OSC_FS_IN_DATA, OSC_FS_IN_DST, OSC_FS_IN_TABLE, OSC_FS_IN_SRC, OSC_FS_IN_STEPS };

enum { OSC_FS_ADD, OSC_FS_SUB, OSC_FS_MUL, OSC_FS_DIV };
/* How a step's operand is read along a row of R elements, from e * estride: one value per edge
 * (ROW), the row itself (FULL), one value per block of `block` consecutive elements, block b
 * at b * block_stride (BLOCK: an [E, H, 1] operand against [E, H, C]), or through a table of R
 * offsets (TABLE). */
enum { OSC_FS_ROW, OSC_FS_FULL, OSC_FS_BLOCK, OSC_FS_TABLE };
#define OSC_FS_MAX_STEPS (OSC_FUSE_MAX_IN - OSC_FS_IN_STEPS)
#define OSC_FS_TABLE_MAX 65536 /* longest row a TABLE operand may have */

/* An index a fused node reads in place from the pieces a Concat along axis 0 joined, the
 * Concat never run (GAT's edge lists with self loops, Concat(edge_index[k], arange(N))):
 * piece q is the node's input input[q], all of it (row[q] < 0) or its row row[q] (a [K, E]
 * tensor, read where it is). Their sizes come from the inputs at run time, so that they may be
 * symbols at load. n == 0: the index is the node's input as it is. */
#define OSC_IX_MAX_PIECES 4
typedef struct osc_ix_pieces {
    int32_t n;
    int32_t value; /* the concatenation's graph value: messages, the split memo's key */
    int32_t input[OSC_IX_MAX_PIECES];
    int64_t row[OSC_IX_MAX_PIECES];
} osc_ix_pieces;

/* At run time, an index as pieces of memory (one for an index as it is): piece q holds the
 * values from start[q] (end[q-1]) to end[q]; cut[q] is end[q] but for the last piece, whose
 * cut and later ones are INT64_MAX, so that a value's piece is a sum of comparisons. */
typedef struct osc_ixv {
    int32_t n;
    bool i64;
    const void *p[OSC_IX_MAX_PIECES];
    int64_t start[OSC_IX_MAX_PIECES], end[OSC_IX_MAX_PIECES], cut[OSC_IX_MAX_PIECES - 1];
} osc_ixv;

typedef struct osc_fs_step {
    int32_t op;          /* OSC_FS_* operation */
    /* The operand is computed per tile of edges by the tiled scatter's region (its slot
     * `slot`, read at the edge's row in the tile), not read from an input (fused_tiled.h). */
    bool tiled;
    int32_t slot;
    bool operand_first;  /* op(operand, value) instead of op(value, operand) */
    int32_t read;        /* OSC_FS_ROW, FULL or TABLE */
    int64_t estride;     /* operand elements from one edge to the next (0: shared) */
    const int64_t *table; /* TABLE: the offset of each row element */
    int64_t block, block_stride; /* BLOCK */
    /* the shape the operand broadcasts against ([E, ...]), and the operand's shape it was
     * checked with, for the run's checks */
    int32_t rank;
    int64_t dims[OSC_FUSED_MAX_RANK];
    int32_t orank;
    int64_t odims[OSC_FUSED_MAX_RANK];
} osc_fs_step;

typedef struct osc_fs_params {
    int32_t reduction;   /* OSC_RED_* of the scatter */
    osc_ix_pieces dst_pc, src_pc; /* input 1 and the Gather's index, read from pieces */
    bool gather;         /* input 2 is gathered by input 3; else input 2 is the updates */
    bool zero_data;      /* data is all zeros: the output is zero-filled, data never read */
    int64_t edges;       /* E: rows of updates */
    int64_t row;         /* R: elements per row (of the updates, of data, of X) */
    int64_t dst_stride;  /* elements of input 1 from one edge's index to the next (0 or 1) */
    int32_t rank;        /* the output's (= data's) shape */
    int64_t dims[OSC_FUSED_MAX_RANK];
    int32_t n_steps;
    osc_fs_step *steps; /* n_steps of them, allocated with the parameters (osc_fs_params_dup) */
    /* The symbols among edges, dims and the steps' dims and odims (fused.h; none in a tiled
     * scatter's, and no index read from pieces then) */
    osc_sym_binds syms;
} osc_fs_params;

/* Which rows of the output, and which edges, each part (thread) of a fused scatter owns. */
typedef struct osc_fs_split {
    osc_ixv dst;         /* the destination index, dst_stride apart */
    int32_t key;         /* its graph value (the split memo's key) */
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

/* A run of a fused scatter (fused_scatter.c; the tiled scatter's gather steps use it too): the
 * bound inputs and output, and the typed edge loop of its dtype and reduction. */
typedef struct osc_fs_job {
    const osc_fs_params *p;
    char *out;
    const char *data;          /* NULL: zero fill, or in place */
    bool zero;
    osc_ixv src;               /* the Gather's index */
    const char *x;
    const char *opnd[OSC_FS_MAX_STEPS]; /* the operands read from inputs (NULL: tiled) */
    int64_t x_rows;            /* rows of X */
    size_t esize;
    osc_fs_split s;            /* the destinations, and which part owns which rows and edges */
    /* Applies the edges at positions [q0, q1) of the split's list (of the edges without one)
     * whose destination row lies in [lo, hi), in order; opnd[s] is step s's operand, read at
     * the edge's row (a tiled step's: at row q - q0 of its tile). */
    void (*edges)(const struct osc_fs_job *j, int64_t lo, int64_t hi, int64_t q0, int64_t q1,
                  const char *const *opnd);
    /* Grouped splits (s.row_at): output rows [lo, hi) from start to end, a row at a time, each
     * row's edges applied in order (fused_rows.c; NULL: the edge loop on the grouped list). */
    void (*rows)(const struct osc_fs_job *j, int64_t lo, int64_t hi, const char *const *opnd);
} osc_fs_job;
/* Index i of an int32 or int64 tensor's data; osc_fs_row: the row of `rows` it names, a
 * negative index counting from the end (indices checked before). */
static inline int64_t osc_fs_ix(const void *p, bool i64, int64_t i) {
    return i64 ? ((const int64_t *)p)[i] : ((const int32_t *)p)[i];
}
static inline int64_t osc_fs_row(const void *p, bool i64, int64_t i, int64_t rows) {
    const int64_t v = osc_fs_ix(p, i64, i);
    return v < 0 ? v + rows : v;
}
/* A cursor reading an index's pieces, mostly at ascending positions (the fused loops walk their
 * edges in order, or grouped by destination, which is edge order within a row): it keeps the
 * piece of the last position and looks the piece up again when a position leaves it, two
 * well-predicted comparisons per read. */
typedef struct osc_ixc {
    const osc_ixv *v;
    const void *p;
    int64_t start, lim;
} osc_ixc;
static inline osc_ixc osc_ixc_of(const osc_ixv *v) {
    return (osc_ixc){.v = v, .p = v->p[0], .lim = -1};
}
static inline int64_t osc_ixc_row(osc_ixc *c, int64_t i, int64_t rows) {
    if (i >= c->lim || i < c->start) {
        _Static_assert(OSC_IX_MAX_PIECES == 4, "one comparison per cut");
        const osc_ixv *v = c->v;
        const int32_t q = (i >= v->cut[0]) + (i >= v->cut[1]) + (i >= v->cut[2]);
        c->p = v->p[q];
        c->start = v->start[q];
        c->lim = q < OSC_IX_MAX_PIECES - 1 ? v->cut[q] : INT64_MAX;
    }
    return osc_fs_row(c->p, c->v->i64, i - c->start, rows);
}

/* ---- Index pieces (ops/fused/fused_index.c) ---- */
/* Run time: the view of the index at input `at` (pc->n == 0) or of its pieces, checked: an
 * index dtype, `count` values in all (pieces: any count when `count` < 0); messages call it
 * input `at` '`what`'. */
osc_status osc_ixv_bind(osc_kctx *k, const osc_ix_pieces *pc, int32_t at, const char *what,
                        const osc_tensor *const *in, int32_t n_in, int64_t count, osc_ixv *v);
/* Run time: *t piece q of a bound index, as a 1-D tensor of its own. */
void osc_ixv_piece(const osc_ixv *v, int32_t q, osc_tensor *t);
/* Run time: every value of a bound index within [-rows, rows-1], or the first that is not,
 * named with its position in the whole index (input `at` '`what`', `role` saying what it
 * indexes in the message). */
osc_status osc_ixv_check(osc_kctx *k, const osc_ixv *v, const osc_ix_pieces *pc, int32_t at,
                         const char *what, const char *role, int64_t rows);

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

/* ---- Grouping by destination (ops/fused/fused_group.c) ---- */
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
/* The row loop of a dtype and reduction for osc_fs_job.rows (fused_rows.c; NULL: none). */
typedef void (*osc_fs_rows_fn)(const osc_fs_job *j, int64_t lo, int64_t hi,
                               const char *const *opnd);
osc_fs_rows_fn osc_fs_rows_of(int32_t dtype, int32_t reduction);
/* Rows [lo, hi) of a part's output start as data (row_bytes each), as zeros, or (data NULL,
 * not zero: the output is data's buffer) as they are. */
void osc_fs_start_rows(char *out, const char *data, bool zero, size_t row_bytes, int64_t lo,
                       int64_t hi);

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
