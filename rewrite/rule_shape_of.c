/* rule_shape_of.c: rule shape_of (any node, before the others): in a model with dynamic axes,
 * a node computing a small int64 vector whose values the symbolic pass knows (osc_sym_info: a
 * Shape, or the Gather -> Unsqueeze -> Concat exporters build a shape with) becomes ShapeOf
 * (ops/fused/fused.h), which reads those values' symbols from the graph inputs holding them
 * (E + N: edge_index's dim 1 plus x's dim 0). The value it read for its shape alone may then be
 * fused away, the chain before it is no longer read, and the engine computes ShapeOf's values
 * from the input shapes alone, when it infers shapes (so the model plans as a static one does).
 * A static model has no such node: folding computed it. */
#include <string.h>

#include "rewrite.h"

typedef struct cap {
    osc_fusion f;
    osc_shape_of_params p;
} cap;

/* The fused node's input slot of graph input value id (added when new); -1 when full. */
static int32_t slot_of(osc_fusion *f, int32_t id) {
    for (int32_t j = 0; j < f->n_inputs; j++)
        if (f->inputs[j] == id) return j;
    if (f->n_inputs == OSC_FUSE_MAX_IN) return -1;
    f->inputs[f->n_inputs] = id;
    return f->n_inputs++;
}

/* Binds symbol d to its sum over graph input dims; false when it has none or the binds are
 * full. */
static bool bind(const osc_sym_info *sym, osc_fusion *f, osc_sym_binds *b, int64_t d) {
    const int64_t s = -2 - d; /* (OSC_SYM_DIM's inverse) */
    for (int32_t i = 0; i < b->n; i++)
        if (b->at[i].code == d) return true;
    if (s >= sym->n_syms || !sym->expr[s].n_terms || b->n == OSC_SYM_MAX) return false;
    const osc_sym_expr *e = &sym->expr[s];
    osc_sym_bind *x = &b->at[b->n++];
    *x = (osc_sym_bind){.code = d, .add = e->add, .n_terms = e->n_terms};
    for (int32_t t = 0; t < e->n_terms; t++) {
        x->input[t] = slot_of(f, e->value[t]);
        x->dim[t] = e->dim[t];
        x->coef[t] = e->coef[t];
        if (x->input[t] < 0) return false;
    }
    return true;
}

bool osc_rw_shape_of_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    cap *cp = c;
    const osc_node *n = &v->graph->nodes[node];
    if (!v->sym || n->n_outputs != 1 || n->outputs[0] < 0 ||
        (n->kernel->flags & OSC_KF_INTERNAL)) /* (a fused node's already) */
        return false;
    const osc_tensor *t = &v->sym->content[n->outputs[0]];
    const osc_tensor *shape = osc_fuse_sym_shape(v, n->outputs[0]);
    if (t->rank < 0 || !shape) return false;
    cp->p.rank = shape->rank;
    cp->p.n = t->rank;
    for (int32_t i = 0; i < t->rank; i++) {
        cp->p.dims[i] = t->dims[i];
        if (OSC_DIM_IS_SYM(t->dims[i]) ? !bind(v->sym, &cp->f, &cp->p.syms, t->dims[i])
                                       : t->dims[i] < 0)
            return false;
    }
    return true;
}

bool osc_rw_shape_of_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node, const void *c,
                             osc_fusion *f) {
    (void)v, (void)node;
    const cap *cp = c;
    return osc_rw_emit(k, &cp->f, &cp->p, sizeof cp->p, "ShapeOf", f);
}
