/* fused.h: what every fused kernel (domain "osc", made only by the load-time rewrite) shares. */
#ifndef OSC_FUSED_H
#define OSC_FUSED_H

#include "core/kattr.h"

#define OSC_FUSE_MAX_IN 16 /* inputs of a fused node */
/* The largest rank of a value a fused kernel reads or writes (its parameters keep the shapes
 * at this size; the rewrite leaves values of a higher rank unfused). */
#define OSC_FUSED_MAX_RANK 8

/* Sizes a fusion knows only as symbols (a dynamic-axes export's N and E, or sizes made from
 * them, such as E + N after self loops were appended): in the rewrite's view of the graph and
 * in a fused kernel's parameters, a dim >= 0 is a size, OSC_SYM_DIM(s) is symbol s (two dims
 * with the same symbol are equal by construction), and -1 is unknown. A fused node reads each
 * symbol of its parameters at run time from one of its inputs (osc_sym_binds): the kernel's
 * checks of its inputs against the parameters, with every symbol replaced, then check that
 * every other dim of that symbol agrees, before the first write. */
#define OSC_SYM_DIM(s) (-2 - (int64_t)(s))
#define OSC_DIM_IS_SYM(d) ((d) <= -2)
#define OSC_SYM_MAX 4 /* symbols a fused node's parameters may hold */
#define OSC_SYM_TERMS 2 /* dims a symbol's size sums */
/* Where a node reads a symbol's size at run time: add + the sum of coef[t] times dim dim[t] of
 * its input input[t] (E + N: edge_index's dim 1 plus x's dim 0). */
typedef struct osc_sym_bind {
    int64_t code; /* OSC_SYM_DIM(s) */
    int64_t add;
    int32_t n_terms;
    int32_t input[OSC_SYM_TERMS], dim[OSC_SYM_TERMS];
    int64_t coef[OSC_SYM_TERMS];
} osc_sym_bind;
typedef struct osc_sym_binds {
    int32_t n;
    osc_sym_bind at[OSC_SYM_MAX];
} osc_sym_binds;
/* Run time: the sizes of b's symbols (vals[i] for b->at[i]) read from the node's inputs; an
 * error (an input missing or of a lower rank, a negative or overflowing size) leaves vals
 * unset. */
osc_status osc_sym_resolve(osc_kctx *k, const osc_sym_binds *b, const osc_tensor *const *in,
                           int32_t n_in, int64_t *vals);
/* Dims d[0..n-1] with every symbol of b replaced by its size in vals. */
void osc_sym_subst(const osc_sym_binds *b, const int64_t *vals, int64_t *d, int32_t n);

/* ShapeOf (fused_shape.c; rule shape_of): the values of a small int64 vector a model with
 * dynamic axes computes from its shapes (a Shape, or a shape Gathered, Unsqueezed and Concat'ed),
 * read from the graph inputs holding its symbols, so that nothing computes them from the values:
 * n int64 values (a scalar: rank 0, n 1), dims[i] a size or a symbol of `syms`. Inputs: the
 * graph inputs the binds read. */
typedef struct osc_shape_of_params {
    int32_t rank, n;
    int64_t dims[OSC_FUSED_MAX_RANK];
    osc_sym_binds syms;
} osc_shape_of_params;

/* ReplaceInf (fused_inf.c; rule replace_inf): Where(IsInf(X), value, X), torch's
 * masked_fill(isinf(x), value), in one pass: out[i] = X[i] when X[i] is not an infinity that
 * `detect` (OSC_ISINF_DETECT_* bits of ops/elementwise/ew_ops.h) selects, else `value` (converted
 * to X's dtype, which the rule checked it keeps). Input 0: X (float or double). */
typedef struct osc_replace_inf_params {
    double value;
    int32_t detect;
} osc_replace_inf_params;

/* SegmentReduce (fused_bag.c; rule embedding_bag): the Loop torch writes for nn.EmbeddingBag
 * with offsets, one iteration per bag b < trips, reducing the rows of weight at indices[s : e]
 * (Slice's clamping of s = starts[b], e = ends[b]) along axis 0 with `red` (OSC_REDUCE_SUM, _MEAN
 * or _MAX of ops/reduce/reduce_ops.h), in the row order and arithmetic of the Reduce* kernel.
 * Inputs: 0 trips (int64, one element), 1 starts, 2 ends (int64 [>= trips]), 3 indices (int32
 * or int64 [n]), 4 weight [rows, ...]. Output [trips, weight's dims but the first]; for no
 * iteration the Loop's: [0] and the dims the body declares for its scan output (unknown ones 0;
 * empty_rank -1: it declares none, an error as in the Loop). */
typedef struct osc_seg_params {
    int32_t red;
    int32_t empty_rank;
    int64_t empty_dims[OSC_FUSED_MAX_RANK];
    const char *scan_name; /* the body's scan output, for that error */
} osc_seg_params;

/* RowDot (fused_dot.c; rule row_dot): ReduceSum(Mul(X, W)) over X's last axis, of n elements:
 * out[e] = X[e, 0] * W[r, 0] + X[e, 1] * W[r, 1] + ... + X[e, n-1] * W[r, n-1], added from the
 * first term on in that order (ReduceSum's), each product rounded (Mul's), r = e mod (w_count /
 * n): W is X's trailing dims (GAT's per-head attention vector against [N, heads, n]), or all of
 * X's. Mul(W, X) too: a product is the same either way (but for which NaN two NaNs give, which
 * IEEE 754 leaves open). keepdims: the output keeps the last axis as 1. Inputs: 0 X, 1 W (float
 * or double, one dtype). */
typedef struct osc_row_dot_params {
    int64_t n, w_count;
    bool keepdims;
} osc_row_dot_params;

/* The init of the fused rows (fused_scatter.c): the parameters are the rule's, made by the
 * load-time rewrite; a node without them (read from a model, or a bare test node) is refused. */
osc_status osc_fused_init(osc_kctx *k, const osc_node *node, void **params);

#endif
