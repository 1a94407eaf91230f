/* rule_segment_softmax.c: rule segment_softmax (anchor Div, after the scatter and Gather
 * rules): torch's segment softmax (PyG's softmax(e, index), GAT's attention) as the earlier
 * rules leave it,
 *     m = RowScatter max of X by dst        t = Exp(Sub(X, Gather(m, dst)))
 *     s = RowScatter add of t by dst        out = Div(t, Gather(s, dst) [+ eps])
 * (the Gathers GatherPieces where dst is read from its pieces), becomes one SegmentSoftmax
 * (ops/fused/fused_softmax.h) reading X and dst: the per-destination max and sum stay in a
 * scratch table, the four [E, ...] values between them are never written. Each scatter must
 * start every row it reaches at one value (a reset, a fill, zeros), the Gathers must read the
 * scatters' own index, and nothing else may read what the chain computes but the Exp's output
 * (read by the sum and the division). The arithmetic is the nodes', in their order. */
#include "ops/fused/fused_scatter.h"
#include "ops/fused/fused_softmax.h"
#include "ops/gather/gather.h"
#include "ops/scatter/reduce.h"
#include "gather_scatter.h"
#include "region.h"

typedef struct cap {
    osc_fusion f;
    osc_ssm_params p;
} cap;
_Static_assert(sizeof(cap) <= OSC_RW_CAP_MAX, "OSC_RW_CAP_MAX holds the capture");

/* The index value a RowScatter, a GatherPieces or a Gather along axis 0 of data of rank `rank`
 * reads (a Concat's, for pieces); -1 for any other node. */
static int32_t index_of(const osc_node *n, int32_t rank) {
    if (osc_fuse_is_kernel(n, "RowScatter")) {
        const osc_fs_params *p = n->params;
        return p->dst_pc.n ? p->dst_pc.value : n->inputs[OSC_FS_IN_DST];
    }
    if (osc_fuse_is_kernel(n, "GatherPieces"))
        return ((const osc_gather_pieces_params *)n->params)->pc.value;
    return n && osc_fuse_gather0(n, rank) ? n->inputs[1] : -1;
}

/* The RowScatter making value id for this chain alone that reduces `updates` with `red`, one
 * index per row, nothing else, into rows that each start at one value (*start: a reset, or a
 * fill: the scatter rules make data of one value a fill); else NULL. */
static const osc_node *row_scatter(const osc_fuse_view *v, int32_t id, int32_t red,
                                   int32_t updates, double *start) {
    const osc_node *n = osc_fuse_sole_producer(v, id);
    if (!osc_fuse_is_kernel(n, "RowScatter")) return NULL;
    const osc_fs_params *p = n->params;
    *start = p->reset ? p->reset_value : p->fill_data ? p->fill_value : 0;
    /* (a RowScatter gathers nothing; data omitted: zeros) */
    return p->reduction == red && !p->n_steps && !p->has_epi && p->dst_stride == 1 &&
                   n->inputs[OSC_FS_IN_TABLE] == updates &&
                   (p->reset || p->fill_data || n->inputs[OSC_FS_IN_DATA] < 0)
               ? n
               : NULL;
}

/* f's input holding value id, appended when none does; -1 when there is no room. */
static int32_t input_for(osc_fusion *f, int32_t id) {
    for (int32_t j = 0; j < f->n_inputs; j++)
        if (f->inputs[j] == id) return j;
    if (f->n_inputs == OSC_FUSE_MAX_IN) return -1;
    f->inputs[f->n_inputs] = id;
    return f->n_inputs++;
}

/* The index as the max's scatter reads it, as inputs 1.. of f, and its row count bound (a
 * symbol: the scatter's bind of it, its inputs mapped to f's); false when there is no room. */
static bool take_index(osc_fusion *f, osc_ssm_params *p, const osc_node *rm) {
    const osc_fs_params *pm = rm->params;
    p->pc = pm->dst_pc;
    f->n_inputs = 1;
    for (int32_t q = 0; q < (pm->dst_pc.n ? pm->dst_pc.n : 1); q++) {
        p->pc.input[q] = f->n_inputs;
        f->inputs[f->n_inputs++] = rm->inputs[pm->dst_pc.n ? pm->dst_pc.input[q] : 1];
    }
    p->rows = pm->dims[0];
    if (!OSC_DIM_IS_SYM(p->rows)) return true;
    for (int32_t b = 0; b < pm->syms.n; b++) {
        osc_sym_bind s = pm->syms.at[b];
        if (s.code != p->rows) continue;
        bool ok = true;
        for (int32_t t = 0; ok && t < s.n_terms; t++)
            ok = (s.input[t] = input_for(f, rm->inputs[s.input[t]])) >= 0;
        p->syms.n = 1;
        p->syms.at[0] = s;
        return ok;
    }
    return false;
}

bool osc_rw_segment_softmax_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    cap *cp = c;
    osc_fusion *f = &cp->f;
    osc_ssm_params *p = &cp->p;
    const osc_node *n = &v->graph->nodes[node];
    if (osc_fuse_step_op(n) != OSC_FS_DIV) return false; /* (its row: two inputs, one output) */
    const int32_t t = n->inputs[0];
    const osc_node *ex = osc_fuse_node(v, osc_fuse_producer(v, t));
    const osc_node *sub = osc_fuse_has(ex, OSC_KT_EXP) ? osc_fuse_sole_producer(v, ex->inputs[0])
                                                       : NULL;
    if (!sub || osc_fuse_step_op(sub) != OSC_FS_SUB) return false;
    /* a candidate: Div(Exp(Sub(X, ...)), ...) */
    if (v->uses[t] != 2) return osc_rw_no(v, "the Exp's output is read by more than the softmax");
    const int32_t x = sub->inputs[0];
    const osc_node *gm = osc_fuse_sole_producer(v, sub->inputs[1]);
    const osc_node *rm = row_scatter(v, osc_fuse_in(gm, 0), OSC_RED_MAX, x, &p->max_start);
    const osc_tensor *xt = osc_fuse_sym_shape(v, x); /* (float or double: the scatter's) */
    if (!rm || !xt)
        return osc_rw_no(v, "the shift is no Gather of a scatter max of the shifted value alone");
    /* the divisor, maybe plus eps (a constant of one value, on either side: the sum is the
     * same; none: -0, which adds nothing) */
    int32_t den = n->inputs[1];
    const osc_node *add = osc_fuse_sole_producer(v, den);
    p->eps = -0.0;
    if (add && osc_fuse_step_op(add) == OSC_FS_ADD) {
        const bool first = osc_fuse_folded(v, add->inputs[0]) != NULL;
        const osc_tensor *e = osc_fuse_folded(v, add->inputs[!first]);
        if (!e || e->dtype != xt->dtype || osc_tensor_count(e) != 1)
            return osc_rw_no(v, "the divisor adds no constant of one value");
        p->eps = e->dtype == OSC_FLOAT ? *(const float *)e->data : *(const double *)e->data;
        den = add->inputs[first];
    } else {
        add = NULL;
    }
    const osc_node *gs = osc_fuse_sole_producer(v, den);
    const osc_node *rs = row_scatter(v, osc_fuse_in(gs, 0), OSC_RED_ADD, t, &p->sum_start);
    if (!rs) return osc_rw_no(v, "the divisor is no Gather of a scatter sum of the Exp alone");
    const osc_fs_params *pm = rm->params, *ps = rs->params;
    const osc_tensor *mt = osc_fuse_sym_shape(v, gm->inputs[0]);
    const osc_tensor *st = osc_fuse_sym_shape(v, gs->inputs[0]);
    const int32_t key = index_of(rm, 0);
    if (index_of(rs, 0) != key || index_of(gm, pm->rank) != key || index_of(gs, ps->rank) != key ||
        !mt || !st || !osc_fuse_same_dims(mt, st))
        return osc_rw_no(v, "the scatters and their Gathers do not all read one index");
    /* every value between X and the output has X's shape and dtype: nothing broadcasts */
    const int32_t between[] = {sub->inputs[1], ex->inputs[0], t, den, n->inputs[1], n->outputs[0]};
    for (size_t i = 0; i < sizeof between / sizeof between[0]; i++) {
        const osc_tensor *bt = osc_fuse_sym_shape(v, between[i]);
        if (!bt || bt->dtype != xt->dtype || !osc_fuse_same_dims(bt, xt))
            return osc_rw_no(v, "a value of the softmax is not of its input's shape and dtype");
    }
    p->row = pm->row;
    if (osc_fuse_count_from(xt, 1) != p->row) return osc_rw_no(v, "the rows are of no known size");
    f->inputs[0] = x;
    if (!take_index(f, p, rm))
        return osc_rw_no(v, "the scatters' row count is a symbol no input binds");
    const osc_node *absorb[] = {ex, sub, gm, rm, gs, rs, add}; /* (7 of OSC_FUSE_MAX_NODES) */
    for (size_t i = 0; i < sizeof absorb / sizeof absorb[0]; i++)
        if (absorb[i]) osc_fuse_absorb(f, osc_fuse_index(v, absorb[i]));
    return true;
}

bool osc_rw_segment_softmax_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                    const void *c, osc_fusion *f) {
    (void)v, (void)node;
    const cap *cp = c;
    return osc_rw_emit(k, &cp->f, &cp->p, sizeof cp->p, "SegmentSoftmax", f);
}
