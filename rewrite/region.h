/* region.h: the matchers' helpers that read a fused scatter's operands (region.c, index_view.c):
 * the region of row-by-row nodes a tiled scatter runs on tiles of edges, an index read through
 * copies of the same elements, and an index read in place from its pieces. */
#ifndef OSC_RW_REGION_H
#define OSC_RW_REGION_H

#include "ops/fused/fused_scatter.h"
#include "ops/fused/fused_tiled.h"
#include "rewrite.h"

/* What a rule asks of a region (region.c). */
typedef struct osc_ft_want {
    int32_t root;       /* the value it computes: the updates, or a step's operand */
    int32_t dtype;      /* of the region's values (float or double) */
    int32_t dst, src;   /* index values a Gather may read as the tile's (-1: none) */
    int64_t dst_rows, src_rows; /* the rows they were checked against (a table's must match) */
    bool recompute;     /* nodes others read may join (not absorbed), but no product */
} osc_ft_want;

/* The region computing w->root (E rows, E a size or a symbol), its nodes appended to
 * f->absorbed and its external inputs to f->inputs from p->ext_base; false when there is none
 * (f->absorbed past the caller's count and f->inputs from p->ext_base may then hold a partial
 * attempt: the caller resets), or out of memory (k->err set). A Relu reading a product alone becomes the product's
 * epilogue: a copy of its parameters with `relu` set, from the model's pool. When w->dst_rows
 * is a symbol none of its inputs holds (a zero fill's rows), the graph input the symbolic pass
 * found it in joins the external inputs, read for its dims alone (as ShapeOf reads them). */
bool osc_fuse_region(osc_kctx *k, const osc_fuse_view *v, const osc_ft_want *w,
                     osc_ft_params *p, osc_fusion *f);

/* The symbols among dims[0..rank-1] bound in b, each new one to the first input of f holding
 * it; false when a dim is unknown (-1), no input holds a symbol or b is full. */
bool osc_fuse_bind_dims(const osc_fuse_view *v, const osc_fusion *f, osc_sym_binds *b,
                        const int64_t *dims, int32_t rank);

/* p->syms: where fused node f reads each symbol of its parameters at run time: those of its
 * scatter's (fs, bound already), then every other one p's values hold, from the first input of
 * f holding it (f's inputs as final); false when no input holds one, or there are too many
 * (the fusion is then not made: static shapes have none). */
bool osc_fuse_region_syms(const osc_fuse_view *v, const osc_fusion *f, const osc_sym_binds *fs,
                          osc_ft_params *p);

/* The index value a fused node reads for value id: through nodes that keep their input's
 * elements in order (Unsqueeze, Reshape: one index per row, whatever its shape) and Casts from
 * int32 (osc_fuse_uncast_index), back to where the index was computed, each absorbed so that
 * its copy goes once nothing else reads it (f NULL: nothing absorbed; two indices whose
 * sources are one value hold the same values in the same order). */
int32_t osc_fuse_index_source(osc_fusion *f, const osc_fuse_view *v, int32_t id);
/* The int32 value a Cast widened to the int64 index id, which a fused node reads as it is (the
 * same values), the Cast absorbed; id itself when no such Cast makes it. */
int32_t osc_fuse_uncast_index(osc_fusion *f, const osc_fuse_view *v, int32_t id);
/* Whether n gathers slices of input 0, of rank `rank`, along axis 0 (Gather). */
bool osc_fuse_gather0(const osc_node *n, int32_t rank);
/* The row k >= 0 of a whole tensor of rank >= 2 of whole-byte elements that node n picks when
 * it is a Gather along axis 0 by a constant scalar (edge_index[0], read in place by a fused
 * node); -1 for any other node. */
int64_t osc_fuse_row_view(const osc_fuse_view *v, const osc_node *n);
/* When the index f->inputs[at] is a Concat along axis 0 of up to OSC_IX_MAX_PIECES 1-D index
 * tensors (each a value or a row view), or itself a row view (one piece: edge_index[1] read
 * where it is, never copied), the fusion reads its pieces instead: input `at` becomes piece 0,
 * the others are appended to f->inputs, the Concat and the row views' Gathers are absorbed
 * (removed once nothing else reads them), *pc says where each piece is. False, f as it was and
 * pc->n == 0, otherwise. */
bool osc_fuse_ix_pieces(const osc_fuse_view *v, osc_fusion *f, int32_t at, osc_ix_pieces *pc);

#endif
