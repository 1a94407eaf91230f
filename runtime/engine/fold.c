/* fold.c: constant folding at load, and whether the model must infer shapes while it runs. */
#include "model.h"

/* A value whose data no caller can change: an initializer that is not a graph input, or the
 * output of a folded node. */
static bool is_constant(const osc_value *val) { return val->init && !val->is_input; }

/* Computes at load every node whose inputs are constants (or, for rows flagged OSC_KF_SHAPE_ONLY
 * such as Shape and Size, have static shapes), so shape subgraphs (Shape -> Gather -> Unsqueeze
 * -> Concat -> Reshape) cost nothing at run. Outputs over OSC_FOLD_MAX bytes stay nodes, to
 * bound the model's memory. A folded node's outputs become constants in the model's pool; the
 * node no longer runs. */
#define OSC_FOLD_MAX ((size_t)1 << 20)
osc_status osc_fold_constants(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    size_t nv = (size_t)g->n_values + 1;
    osc_tensor *vals = osc_pool_alloc(&m->pool, nv * sizeof *vals);
    bool *shaped = osc_pool_alloc(&m->pool, nv * sizeof *shaped);
    bool *known = osc_pool_alloc(&m->pool, nv * sizeof *known);
    osc_node_io io = osc_node_io_alloc(m);
    if (!vals || !shaped || !known || !io.ins || !io.outs)
        return osc_fail(err, OSC_ERR_NOMEM, "out of memory folding constants");
    for (int32_t v = 0; v < g->n_values; v++) {
        const osc_value *val = &g->values[v];
        bool static_input = val->is_input && !val->init && osc_type_static(&val->decl);
        if (is_constant(val)) vals[v] = *val->init;
        else if (static_input) osc_seed_value(val, &vals[v]);
        shaped[v] = is_constant(val) || static_input;
        known[v] = is_constant(val);
    }
    for (int32_t i = 0; i < g->n_nodes; i++) {
        osc_node *n = &g->nodes[i];
        bool ready = osc_node_ready(m, i, known), all_known = true;
        for (int32_t j = 0; j < n->n_inputs; j++) {
            int32_t v = n->inputs[j];
            if (v < 0) continue;
            ready = ready && shaped[v];
            all_known = all_known && known[v];
        }
        if (!ready) continue;
        int32_t stop;
        osc_status st = osc_infer_range(m, vals, known, i, i + 1, &stop, io, err);
        if (!st) st = osc_check_ranks(m, vals, i, i + 1, err);
        if (st) return st;
        bool fold = all_known || (n->kernel->flags & OSC_KF_SHAPE_ONLY);
        for (int32_t j = 0; j < n->n_outputs; j++) {
            shaped[n->outputs[j]] = true;
            fold = fold && vals[n->outputs[j]].nbytes <= OSC_FOLD_MAX;
        }
        if (!fold) continue;
        for (int32_t j = 0; j < n->n_outputs; j++) {
            osc_tensor *t = &vals[n->outputs[j]];
            t->data = osc_pool_alloc(&m->pool, t->nbytes);
            if (!t->data) return osc_fail(err, OSC_ERR_NOMEM, "out of memory folding constants");
        }
        osc_kctx k = {.err = err, .graph = g, .node = n, .row = n->kernel,
                      .since_version = n->kernel->since,
                      .params = n->params, .alloc = &m->alloc,
                      .strings = &m->pool, .strict = m->opts.strict != 0};
        st = osc_run_node(m, i, vals, io, &k);
        if (st) return st;
        for (int32_t j = 0; j < n->n_outputs; j++) {
            osc_tensor *t = osc_pool_alloc(&m->pool, sizeof *t);
            if (!t) return osc_fail(err, OSC_ERR_NOMEM, "out of memory folding constants");
            *t = vals[n->outputs[j]];
            g->values[n->outputs[j]].init = t;
            known[n->outputs[j]] = true;
        }
        n->folded = true;
    }
    m->fold_vals = vals;
    m->fold_shaped = shaped;
    /* Left to run: does any node's output shape depend on data a run supplies? */
    for (int32_t i = 0; i < g->n_nodes && !m->dynamic; i++) {
        const osc_node *n = &g->nodes[i];
        for (int32_t j = 0; !n->folded && j < n->n_inputs && j < 32; j++)
            if ((n->kernel->infer_reads >> j & 1u) && n->inputs[j] >= 0 &&
                !is_constant(&g->values[n->inputs[j]]))
                m->dynamic = true;
    }
    return OSC_OK;
}
