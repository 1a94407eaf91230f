/* gather_scatter.h: the matcher and rewrite the gather_scatter rules share (gather_scatter.c):
 * a scatter along rows whose updates the exporters spelled element by element becomes one node of
 * a fused scatter kernel (GatherScatter, RowScatter, TiledScatter, TiledGatherScatter). */
#ifndef OSC_RW_GATHER_SCATTER_H
#define OSC_RW_GATHER_SCATTER_H

#include "rewrite.h"

/* The matcher: nd, the scatter is a ScatterND with [E, 1] indices (else a ScatterElements along
 * axis 0 by an Expanded index). */
bool osc_rw_gather_scatter_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *cap,
                                 bool nd);
/* The rewrite of a capture the matcher made. */
bool osc_rw_gather_scatter_rewrite(osc_kctx *k, const void *cap, osc_fusion *f);

struct osc_fs_params;
/* Whether value id is one value of dtype repeated (zeros of any dtype, or one float or double):
 * a folded constant, or made at run time by a Constant or ConstantOfShape (*maker, to absorb;
 * else NULL); the value in *c. */
bool osc_fuse_one_value(const osc_fuse_view *v, int32_t id, int32_t dtype, double *c,
                        const osc_node **maker);
/* The OSC_FS_* operation of a binary elementwise node (Add, Sub, Mul, Div); -1 for others. */
int32_t osc_fuse_step_op(const osc_node *n);
/* Each per-edge step of p (a gather's steps, forward, f's inputs as the matcher left them)
 * whose operand is Mul(Gather(A, src), Gather(B, dst)), A one value per row of X (x_rows), B
 * one per output row, the indices those of the gather and of the scatter, becomes a PAIR step
 * (ops/fused/fused_scatter.h): A its operand input, B an input appended after the steps', the
 * Mul, Gathers and copies between absorbed. The number of such steps (their inputs). */
int32_t osc_fuse_pair_operands(const osc_fuse_view *v, osc_fusion *f,
                               struct osc_fs_params *p, int32_t dtype, int64_t x_rows);
/* A fused scatter's parameters at their real size, in one block of the model's pool (NULL: out
 * of memory). */
struct osc_fs_params *osc_fuse_dup_fs(osc_kctx *k, const struct osc_fs_params *src);

#endif
