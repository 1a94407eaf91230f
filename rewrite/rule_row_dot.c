/* rule_row_dot.c: rule row_dot (anchor ReduceSum, priority 3: after the scatter rules, whose
 * regions may read the product): ReduceSum over the last axis only of Mul(X, W), the product
 * read by nothing else, float or double, W a constant-shaped operand that is X's trailing dims
 * (after leading 1s: GAT's attention vector [1, heads, n] against h [N, heads, n]) or of X's
 * shape: one RowDot (ops/fused/fused.h) reading X and W, the [.., n] product never written.
 * Each output adds the same rounded products in the same order as ReduceSum does. */
#include "ops/fused/fused.h"
#include "ops/fused/fused_scatter.h" /* OSC_FS_MUL */
#include "ops/reduce/reduce_ops.h"
#include "gather_scatter.h"

typedef struct cap {
    osc_fusion f;
    osc_row_dot_params p;
} cap;
_Static_assert(sizeof(cap) <= OSC_RW_CAP_MAX, "OSC_RW_CAP_MAX holds the capture");

/* Whether node n's axes are the last of rank `rank` alone (the attribute, or a folded input). */
static bool last_axis_only(const osc_fuse_view *v, const osc_node *n, int32_t rank) {
    const osc_reduce_params *p = n->params;
    const int64_t *ax = p->axes.v;
    int32_t count = p->axes.n;
    if (p->axes_input) {
        const osc_tensor *t = n->n_inputs > 1 && n->inputs[1] >= 0
                                  ? osc_fuse_folded(v, n->inputs[1]) : NULL;
        count = t && t->rank == 1 ? (int32_t)t->dims[0] : 0; /* (int64: the row's types) */
        ax = t ? t->data : NULL;
    }
    /* (no axes: every one, or none; the exporters name the last) */
    return count == 1 && (ax[0] == rank - 1 || ax[0] == -1);
}

/* Whether w, after its leading 1s, is x's last dims (of rank at most x's: no broadcast grows x). */
static bool trailing(const osc_tensor *w, const osc_tensor *x) {
    int32_t lead = 0;
    while (lead < w->rank && w->dims[lead] == 1) lead++;
    const int32_t m = w->rank - lead;
    bool ok = w->rank <= x->rank && m >= 1;
    for (int32_t d = 0; ok && d < m; d++) ok = w->dims[lead + d] == x->dims[x->rank - m + d];
    return ok;
}

bool osc_rw_row_dot_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    cap *cp = c;
    const osc_node *n = &v->graph->nodes[node];
    const osc_reduce_params *rp = n->params;
    const osc_node *mul = osc_fuse_sole_producer(v, n->inputs[0]);
    if (!mul || osc_fuse_step_op(mul) != OSC_FS_MUL) return false; /* (anchor: ReduceSum) */
    /* a candidate: ReduceSum(Mul(...)) */
    const osc_tensor *pt = osc_fuse_sym_shape(v, n->inputs[0]);
    if (!pt || (pt->dtype != OSC_FLOAT && pt->dtype != OSC_DOUBLE) || pt->rank < 1 ||
        !last_axis_only(v, n, pt->rank))
        return osc_rw_no(v, "not a float or double sum over the product's last axis alone");
    for (int32_t wi = 0; wi < 2; wi++) {
        const osc_tensor *xt = osc_fuse_sym_shape(v, mul->inputs[1 - wi]);
        const osc_tensor *wt = osc_fuse_shape(v, mul->inputs[wi]);
        if (!xt || !wt || !osc_fuse_same_dims(xt, pt) || !trailing(wt, pt)) continue;
        cp->p = (osc_row_dot_params){.n = pt->dims[pt->rank - 1], .w_count = osc_tensor_count(wt),
                                     .keepdims = rp->keepdims};
        if (cp->p.n < 1) break; /* (W, X's trailing dims, has at least n elements) */
        cp->f.inputs[0] = mul->inputs[1 - wi];
        cp->f.inputs[1] = mul->inputs[wi];
        cp->f.n_inputs = 2;
        return osc_fuse_absorb(&cp->f, osc_fuse_index(v, mul));
    }
    return osc_rw_no(v, "no factor of the product is X with the other of X's trailing dims");
}

bool osc_rw_row_dot_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node, const void *c,
                            osc_fusion *f) {
    (void)v, (void)node;
    const cap *cp = c;
    return osc_rw_emit(k, &cp->f, &cp->p, sizeof cp->p, "RowDot", f);
}
