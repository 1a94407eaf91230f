/* fused_types.h: the parameters and the run of a fused gather-scatter (fused_scatter.h says
 * what the node computes): its inputs by role, its steps, its parameters and its job. Types
 * only, shared by the kernel (fused_scatter.c), its loops (fused_steps.h, fused_rows.c) and its
 * placement (fused_place.c). */
#ifndef OSC_FUSED_TYPES_H
#define OSC_FUSED_TYPES_H

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

#endif
