/* rule_replace_inf.c: rule replace_inf (anchor: Where): Where(IsInf(X'), value, X), X' being X
 * or X widened by a Cast (float to double: infinities stay infinities, nothing else becomes
 * one), the condition maybe Cast from bool to bool, value a constant of one element of X's
 * dtype: torch's masked_fill(isinf(x), value), which SAGE's max aggregation writes after the
 * scatter. It becomes one ReplaceInf node (ops/fused/fused.h) reading X: one pass instead of
 * four (the widened copy, the mask, its cast, the select), the same bits. */
#include <string.h>

#include "ops/elementwise/math_common.h"
#include "ops/fused/fused.h"
#include "rewrite.h"

typedef struct cap {
    osc_fusion f;
    osc_replace_inf_params p;
} cap;
_Static_assert(sizeof(cap) <= OSC_RW_CAP_MAX, "OSC_RW_CAP_MAX holds the capture");

/* The node making value id when only this chain reads it and it has `traits`; else NULL. */
static const osc_node *only(const osc_fuse_view *v, int32_t id, uint32_t traits) {
    const osc_node *n = osc_fuse_sole_producer(v, id);
    return osc_fuse_has(n, traits) ? n : NULL;
}

bool osc_rw_replace_inf_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    cap *cp = c;
    osc_fusion *f = &cp->f;
    const osc_node *n = &v->graph->nodes[node];
    if (n->n_inputs != 3 || n->n_outputs != 1) return false;
    const int32_t x = n->inputs[2];
    const osc_tensor *xt = osc_fuse_sym_shape(v, x), *ot = osc_fuse_sym_shape(v, n->outputs[0]);
    const osc_tensor *a = osc_fuse_folded(v, n->inputs[1]);
    if (!xt || !ot || (xt->dtype != OSC_FLOAT && xt->dtype != OSC_DOUBLE) ||
        !osc_fuse_same_dims(xt, ot) || !a || a->dtype != xt->dtype || osc_tensor_count(a) != 1)
        return false;
    /* the condition: [Cast bool -> bool] IsInf([Cast float -> double] X) */
    int32_t cond = n->inputs[0];
    const osc_node *cast = only(v, cond, OSC_KT_CAST);
    const osc_tensor *ct = osc_fuse_sym_shape(v, cond);
    if (cast) {
        const osc_tensor *in = osc_fuse_sym_shape(v, cast->inputs[0]);
        if (!in || in->dtype != OSC_BOOL || !ct || ct->dtype != OSC_BOOL ||
            !osc_fuse_absorb(f, osc_fuse_index(v, cast)))
            return false;
        cond = cast->inputs[0];
    }
    const osc_node *inf = only(v, cond, OSC_KT_ISINF);
    ct = osc_fuse_sym_shape(v, cond);
    if (!inf || !ct || !osc_fuse_same_dims(ct, xt) || !osc_fuse_absorb(f, osc_fuse_index(v, inf)))
        return false;
    if (inf->inputs[0] != x) {
        const osc_node *widen = only(v, inf->inputs[0], OSC_KT_CAST);
        const osc_tensor *wt = osc_fuse_sym_shape(v, inf->inputs[0]);
        if (!widen || widen->inputs[0] != x || !wt ||
            (wt->dtype != xt->dtype && !(xt->dtype == OSC_FLOAT && wt->dtype == OSC_DOUBLE)) ||
            !osc_fuse_absorb(f, osc_fuse_index(v, widen)))
            return osc_rw_no(v, "IsInf reads neither the selected value nor a widening Cast of it");
    }
    cp->p.detect = (((const osc_mparams *)inf->params)->op >> 2) & 3;
    cp->p.value = a->dtype == OSC_FLOAT ? (double)*(const float *)a->data
                                        : *(const double *)a->data;
    f->inputs[0] = x;
    f->n_inputs = 1;
    return true;
}

bool osc_rw_replace_inf_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                const void *c, osc_fusion *f) {
    (void)v, (void)node;
    const cap *cp = c;
    return osc_rw_emit(k, &cp->f, &cp->p, sizeof cp->p, "ReplaceInf", f);
}
