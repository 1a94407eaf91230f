/* fused_softmax.h: SegmentSoftmax (fused_softmax.c), made by rule segment_softmax
 * (rewrite/rule_segment_softmax.c), never named by a model: torch's softmax of X's rows over
 * the rows that share a destination (PyG's softmax(e, index), GAT's attention), as exported:
 *     m = the scatter max of X by dst into rows that start at max_start (a reset's -inf)
 *     t = Exp(X - m[dst]);   s = the scatter add of t by dst into rows that start at sum_start
 *     out = t / (s[dst] + eps)       (eps -0 where there is none: s + -0 is s)
 * each destination's max and sum combined with its edges in edge order, as the scatters apply
 * them: the same bits (eps + s is s + eps: addition commutes, but for which NaN two give).
 * Inputs: 0 X [E, ...] (float or double, rows of R elements), 1 the index (E values, one per
 * row of X; or its pieces from input 1 on: pc), then the inputs the symbol's bind reads. */
#ifndef OSC_FUSED_SOFTMAX_H
#define OSC_FUSED_SOFTMAX_H

#include "fused.h"
#include "fused_index.h"

typedef struct osc_ssm_params {
    osc_ix_pieces pc;
    int64_t rows;   /* N: the scatters' rows, the index's range (a size or a symbol of syms) */
    int64_t row;    /* R: elements per row of X */
    double max_start, sum_start, eps;
    osc_sym_binds syms;
} osc_ssm_params;

#endif
