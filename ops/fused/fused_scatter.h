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
#include "fused_group.h"
#include "fused_index.h"

/* The inputs of GatherScatter and RowScatter, by role (the steps' operands from
 * OSC_FS_IN_STEPS on, then the pieces of pieced indices). */
enum { OSC_FS_IN_DATA, OSC_FS_IN_DST, OSC_FS_IN_TABLE, OSC_FS_IN_SRC, OSC_FS_IN_STEPS };

enum { OSC_FS_ADD, OSC_FS_SUB, OSC_FS_MUL, OSC_FS_DIV };
/* How a step's operand is read along a row of R elements, from e * estride: one value per edge
 * (ROW), the row itself (FULL), one value per block of `block` consecutive elements, block b
 * at b * block_stride (BLOCK: an [E, H, 1] operand against [E, H, C]), or through a table of R
 * offsets (TABLE). PAIR: one value per edge too, the product of two per-node tables, the
 * operand input's value at the edge's source row times input pair_input's at its destination
 * row (GCN's edge norm dis[src] * dis[dst]: its two Gathers and Mul are never run, no
 * per-edge array is made). The kernel computes it where it places its records (fused_place.c),
 * else into an array of one value per edge first (fused_scatter.c, pair_values), read as ROW. */
enum { OSC_FS_ROW, OSC_FS_FULL, OSC_FS_BLOCK, OSC_FS_TABLE, OSC_FS_ONE, OSC_FS_PAIR };
#define OSC_FS_PER_EDGE(st) ((st)->read == OSC_FS_ROW || (st)->read == OSC_FS_PAIR)
#define OSC_FS_MAX_STEPS (OSC_FUSE_MAX_IN - OSC_FS_IN_STEPS)
#define OSC_FS_TABLE_MAX 65536 /* longest row a TABLE operand may have */

typedef struct osc_fs_step {
    int32_t op;          /* OSC_FS_* operation */
    /* The operand is computed per tile of edges by the tiled scatter's region (its slot
     * `slot`, read at the edge's row in the tile), not read from an input (fused_tiled.h). */
    bool tiled;
    int32_t slot;
    bool operand_first;  /* op(operand, value) instead of op(value, operand) */
    int32_t read;        /* OSC_FS_ROW, FULL, BLOCK, TABLE or PAIR */
    int32_t pair_input;  /* PAIR: the input of the table read at the destination row */
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
    /* Data is one value repeated (zeros, a -inf fill): the output starts as fill_value in every
     * element, data never read. */
    bool fill_data;
    double fill_value;
    /* A reset scatter taken in (rewrite/gather_scatter.c, reset_data): every row an edge reaches
     * starts as reset_value in each element, not as data's row. */
    bool reset;
    double reset_value;
    /* An elementwise op after the scatter taken in (rule row_epilogue, rewrite/): once a row of
     * the output is complete, each element x becomes epi.op(x, w), or epi.op(w, x) with
     * epi.operand_first, w from input epi_input: with epi.read OSC_FS_ROW the row's value (one
     * value per output row: SAGE's mean, the sum divided by the clamped count), with
     * OSC_FS_FULL the element's in one row shared by every row (osc_fs_is_row_operand: GCN's
     * bias), with OSC_FS_ONE epi_value for every element (a constant of one value: the zeros
     * torch's index_add_ export adds; no input, epi_input -1). */
    bool has_epi;
    osc_fs_step epi;
    int32_t epi_input;
    double epi_value;
    /* A RowScatter of scalars whose updates are one value repeated (GCN's degree, a scatter of
     * ConstantOfShape's ones; rewrite/gather_scatter.c): input 2 omitted, update_value its
     * value, dtype the output's. Grouped by destination, each row then combines the value once
     * per edge, in the edges' order, without reading an edge: a grouping another scatter of the
     * same index made in the run before is made here first (fused_scatter.c). */
    bool const_updates;
    double update_value;
    int32_t dtype;
    int64_t edges;       /* E: rows of updates */
    int64_t row;         /* R: elements per row (of the updates, of data, of X) */
    int64_t dst_stride;  /* elements of input 1 from one edge's index to the next (0 or 1) */
    int32_t rank;        /* the output's (= data's) shape */
    int64_t dims[OSC_FUSED_MAX_RANK];
    int32_t n_steps;
    osc_fs_step *steps; /* n_steps of them, allocated with the parameters (osc_fs_params_dup) */
    /* The symbols among edges, dims and the steps' dims and odims (fused.h; a tiled scatter
     * resolves its osc_ft_params.syms instead, which binds these too) */
    osc_sym_binds syms;
} osc_fs_params;

/* A run of a fused scatter (fused_scatter.c; the tiled scatter's gather steps use it too): the
 * bound inputs and output, and the typed edge loop of its dtype and reduction. */
typedef struct osc_fs_job {
    const osc_fs_params *p;
    char *out;
    const char *data;          /* NULL: a fill, or in place */
    bool fill;                 /* the output starts as fill_value (data omitted: zeros) */
    double fill_value;
    osc_ixv src;               /* the Gather's index */
    const char *x;
    int64_t x_mask;            /* the loop of scalars reads x[e & x_mask] (0: one value) */
    union {
        float f;
        double d;
    } one;                     /* p->const_updates: the value (x points at it) */
    /* the operands read from inputs (NULL: tiled); a PAIR step's: its source table, pair[s]
     * its destination table, until its values are made (fused_scatter.c, pair_values): then
     * those, and pair[s] NULL */
    const char *opnd[OSC_FS_MAX_STEPS], *pair[OSC_FS_MAX_STEPS];
    const char *epi;           /* the epilogue's operand (p->has_epi) */
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
