/* rule_expand_view.c: rule expand_view (anchor: rows flagged OSC_KF_BROADCASTS, the
 * elementwise ops that broadcast their inputs together): an input made by an Expand that only
 * grew a value to a shape the op reaches by broadcasting anyway is read before the Expand,
 * which goes once nothing else reads it; the node keeps its own kernel and parameters. */
#include "rewrite.h"

/* The broadcast of the shapes in[0..n-1] into out; false when they do not broadcast. */
static bool broadcast(const osc_tensor *const *in, int32_t n, osc_tensor *out) {
    out->rank = 0;
    for (int32_t i = 0; i < n; i++)
        if (in[i]->rank > out->rank) out->rank = in[i]->rank;
    for (int32_t d = 0; d < out->rank; d++) {
        int64_t dim = 1;
        for (int32_t i = 0; i < n; i++) {
            const int32_t k = d - (out->rank - in[i]->rank);
            const int64_t x = k >= 0 ? in[i]->dims[k] : 1;
            if (x != 1 && dim != 1 && x != dim) return false;
            if (x != 1) dim = x;
        }
        out->dims[d] = dim;
    }
    return true;
}

/* An elementwise op broadcasting its inputs together reads an Expand's input as it is when the
 * Expand only grew it to a shape the op reaches anyway: the Expand is a broadcast view, and the
 * node keeps its own kernel. Symbols (dynamic axes) count as sizes other than 1: a dim that
 * broadcasts with the same symbol here does so at any size, 1 included. */
bool osc_rw_expand_view_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    osc_fusion *f = c;
    const osc_node *n = &v->graph->nodes[node];
    const osc_tensor *out = osc_fuse_sym_shape(v, n->n_outputs > 0 ? n->outputs[0] : -1);
    if (!out || n->n_inputs > OSC_FUSE_MAX_IN) return false;
    const osc_tensor *in[OSC_FUSE_MAX_IN];
    for (int32_t j = 0; j < n->n_inputs; j++) {
        f->inputs[j] = n->inputs[j];
        if (!(in[j] = osc_fuse_sym_shape(v, n->inputs[j]))) return false;
    }
    for (int32_t j = 0; j < n->n_inputs; j++) {
        const osc_node *ex = osc_fuse_node(v, osc_fuse_producer(v, n->inputs[j]));
        const osc_tensor *u = osc_fuse_has(ex, OSC_KT_EXPAND) && v->uses[n->inputs[j]] == 1
                                  ? osc_fuse_sym_shape(v, ex->inputs[0]) : NULL;
        if (!u || u->dtype != in[j]->dtype || f->n_absorbed == OSC_FUSE_MAX_NODES) continue;
        const osc_tensor *was = in[j];
        osc_tensor b;
        in[j] = u;
        if (broadcast(in, n->n_inputs, &b) && osc_fuse_same_dims(&b, out)) {
            f->inputs[j] = ex->inputs[0];
            f->absorbed[f->n_absorbed++] = osc_fuse_index(v, ex);
        } else {
            in[j] = was;
        }
    }
    f->params = n->params;
    f->n_inputs = n->n_inputs;
    return f->n_absorbed > 0;
}

bool osc_rw_expand_view_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                const void *c, osc_fusion *f) {
    (void)v, (void)node;
    return osc_rw_emit(k, c, NULL, 0, NULL, f);
}
