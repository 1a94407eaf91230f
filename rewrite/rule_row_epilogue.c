/* rule_row_epilogue.c: rule row_epilogue (anchor: the binary elementwise rows; after the scatter
 * rules): Add, Sub, Mul or Div of a fused GatherScatter or RowScatter's output, which nothing
 * else reads, with one value per output row (a [N, 1, ...] operand: SAGE's mean, the sum
 * divided by Unsqueeze(Clip(count, 1))), one row for every row (a [C] operand: GCN's bias), or
 * one value for every element (a constant or ConstantOfShape of one value other than NaN:
 * torch 1.13's index_add_ export adds the scattered rows to zeros of the output's shape; the
 * constant is then not made at all).
 * The scatter node takes the op in as its epilogue (osc_fs_params.has_epi): each output row,
 * once complete, goes through the op while it is in cache, instead of a pass of its own over
 * the output. The same op on the same values: the unfused bits.
 * One epilogue is taken over by another: the Add of +0 (index_add_'s zeros) by the Add of a
 * constant w none of whose values is -0 (GCN's bias after it). s + 0 is s, but -0 becomes +0,
 * and (s + 0) + w is s + w for every s when w holds no -0 ((-0 + 0) + w = w = -0 + w; a NaN
 * stays the NaN it was). */
#include <math.h>
#include <string.h>

#include "ops/fused/fused_scatter.h"
#include "gather_scatter.h"

typedef struct cap {
    osc_fusion f;
    const osc_fs_params *scatter; /* the fused scatter's parameters */
    osc_fs_step epi;
    double value; /* the operand's one value (epi.read OSC_FS_ONE) */
} cap;
_Static_assert(sizeof(cap) <= OSC_RW_CAP_MAX, "OSC_RW_CAP_MAX holds the capture");

/* The fused scatter (GatherScatter, RowScatter) making value id for this node alone, without
 * an epilogue or (*plus_zero) with the Add of +0. */
static const osc_node *scatter_of(const osc_fuse_view *v, int32_t id, bool *plus_zero) {
    const osc_node *s = osc_fuse_node(v, osc_fuse_producer(v, id));
    if (v->uses[id] != 1 ||
        (!osc_fuse_is_kernel(s, "GatherScatter") && !osc_fuse_is_kernel(s, "RowScatter")))
        return NULL;
    const osc_fs_params *p = s->params;
    *plus_zero = p->has_epi && p->epi.op == OSC_FS_ADD && p->epi.read == OSC_FS_ONE &&
                 p->epi_value == 0 && !signbit(p->epi_value);
    return !p->has_epi || *plus_zero ? s : NULL;
}

/* Whether w is a constant of float or double values none of which is -0. */
static bool no_negative_zero(const osc_fuse_view *v, int32_t w) {
    const osc_tensor *t = osc_fuse_folded(v, w);
    if (!t || (t->dtype != OSC_FLOAT && t->dtype != OSC_DOUBLE)) return false;
    const size_t es = t->dtype == OSC_FLOAT ? 4 : 8;
    for (size_t i = 0; i < t->nbytes / es; i++) {
        const double x = es == 4 ? (double)((const float *)t->data)[i]
                                 : ((const double *)t->data)[i];
        if (x == 0 && signbit(x)) return false;
    }
    return true;
}

bool osc_rw_row_epilogue_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    cap *cp = c;
    osc_fusion *f = &cp->f;
    const osc_node *n = &v->graph->nodes[node];
    const int32_t op = osc_fuse_step_op(n);
    const osc_tensor *ot = n->n_outputs == 1 ? osc_fuse_sym_shape(v, n->outputs[0]) : NULL;
    if (op < 0 || n->n_inputs != 2 || !ot) return false;
    for (int32_t side = 0; side < 2; side++) {
        const int32_t x = n->inputs[side], w = n->inputs[1 - side];
        bool plus_zero = false;
        const osc_node *s = scatter_of(v, x, &plus_zero);
        const osc_tensor *xt = osc_fuse_sym_shape(v, x), *wt = osc_fuse_sym_shape(v, w);
        if (!s || !xt || !wt || x == w || xt->dtype != wt->dtype || xt->dtype != ot->dtype ||
            !osc_fuse_same_dims(xt, ot) || s->n_inputs >= OSC_FUSE_MAX_IN ||
            (plus_zero && (op != OSC_FS_ADD || !no_negative_zero(v, w))))
            continue;
        const osc_node *maker;
        const bool per_row = osc_fs_is_per_row(wt, xt->rank, xt->dims);
        const bool one = !per_row && osc_fuse_one_value(v, w, xt->dtype, &cp->value, &maker) &&
                         cp->value == cp->value;
        if (!per_row && !one && !osc_fs_is_row_operand(wt, xt->rank, xt->dims)) continue;
        memcpy(f->inputs, s->inputs, (size_t)s->n_inputs * sizeof s->inputs[0]);
        f->inputs[s->n_inputs] = w;
        f->n_inputs = s->n_inputs + !one; /* (one value: in the parameters) */
        f->absorbed[0] = osc_fuse_index(v, s);
        f->n_absorbed = 1;
        cp->scatter = s->params;
        cp->epi = (osc_fs_step){.op = op, .operand_first = side == 1,
                                .read = one ? OSC_FS_ONE : per_row ? OSC_FS_ROW : OSC_FS_FULL};
        return true;
    }
    return false;
}

bool osc_rw_row_epilogue_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                 const void *c, osc_fusion *f) {
    (void)node;
    const cap *cp = c;
    osc_fs_params p = *cp->scatter;
    p.has_epi = true;
    p.epi = cp->epi;
    p.epi_input = cp->epi.read == OSC_FS_ONE ? -1 : cp->f.n_inputs - 1;
    p.epi_value = cp->value;
    *f = cp->f;
    if (!(f->params = osc_fuse_dup_fs(k, &p))) return false;
    f->op = v->graph->nodes[cp->f.absorbed[0]].kernel->op;
    f->extends = true;
    return true;
}
