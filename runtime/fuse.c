/* fuse.c: the load-time fusion pass. The engine knows no pattern: rows name fuse hooks (ops/),
 * this file offers them their nodes, applies what they propose and removes what became dead.
 * It runs after constant folding (hooks see static shapes and constants) and before buffers
 * are planned, so the plan only ever sees the rewritten graph. */
#include <string.h>

#include "model.h"

/* Run-time readers of every value: inputs of nodes that still run, one more for a graph
 * output. */
static void count_uses(const osc_graph *g, int32_t *uses) {
    memset(uses, 0, (size_t)g->n_values * sizeof *uses);
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const osc_node *n = &g->nodes[i];
        for (int32_t j = 0; !n->folded && j < n->n_inputs; j++)
            if (n->inputs[j] >= 0) uses[n->inputs[j]]++;
    }
    for (int32_t o = 0; o < g->n_outputs; o++) uses[g->outputs[o]]++;
}

static bool dead(const osc_node *n, const int32_t *uses) {
    for (int32_t j = 0; j < n->n_outputs; j++)
        if (n->outputs[j] >= 0 && uses[n->outputs[j]] > 0) return false;
    return true;
}

/* Applies f at node i: new inputs, row and params; the chain nodes that nothing reads any more
 * (latest first, so a chain dies from its end) are marked in `gone`, and the node records the
 * names and op types of what it replaced. */
static osc_status apply(osc_model *m, int32_t i, const osc_fusion *f, int32_t *uses, bool *gone,
                        osc_err *err) {
    osc_graph *g = &m->g;
    osc_node *n = &g->nodes[i];
    int32_t *ins = osc_pool_alloc(&m->pool, (size_t)f->n_inputs * sizeof *ins + 1);
    const char **names = osc_pool_alloc(&m->pool, (OSC_FUSE_MAX_NODES + 1) * sizeof *names);
    const char **ops = osc_pool_alloc(&m->pool, (OSC_FUSE_MAX_NODES + 1) * sizeof *ops);
    if (!ins || !names || !ops) return osc_fail(err, OSC_ERR_NOMEM, "out of memory fusing nodes");
    for (int32_t j = 0; j < n->n_inputs; j++)
        if (n->inputs[j] >= 0) uses[n->inputs[j]]--;
    for (int32_t j = 0; j < f->n_inputs; j++)
        if ((ins[j] = f->inputs[j]) >= 0) uses[ins[j]]++;
    /* the chain in graph order: its nodes come before i, absorbed[] may list them in any order */
    bool removed[OSC_FUSE_MAX_NODES] = {false};
    for (int32_t pass = 0; pass < f->n_absorbed; pass++)
        for (int32_t a = 0; a < f->n_absorbed; a++) {
            int32_t c = f->absorbed[a];
            osc_node *cn = &g->nodes[c];
            if (removed[a] || gone[c] || cn->folded || !dead(cn, uses)) continue;
            removed[a] = gone[c] = true;
            for (int32_t j = 0; j < cn->n_inputs; j++)
                if (cn->inputs[j] >= 0) uses[cn->inputs[j]]--;
        }
    int32_t k = 0;
    for (int32_t c = 0; c < i; c++)
        for (int32_t a = 0; a < f->n_absorbed; a++)
            if (removed[a] && f->absorbed[a] == c) {
                names[k] = g->nodes[c].name;
                ops[k++] = g->nodes[c].op_type;
            }
    names[k] = n->name;
    ops[k++] = n->op_type;
    n->n_fused = k;
    n->fused_names = names;
    n->fused_ops = ops;
    n->inputs = ins;
    n->n_inputs = f->n_inputs;
    n->kernel = f->row;
    n->params = f->params;
    if (f->op) { /* a fused kernel's node (else the node keeps its op, reading new inputs) */
        n->op_type = f->op;
        n->domain = "osc";
    }
    if (f->n_inputs > m->max_in) m->max_in = f->n_inputs;
    return OSC_OK;
}

/* Drops the nodes marked gone and renumbers the producers of the values that remain (the
 * outputs of a dropped node have no reader left: they become unproduced and unused). */
static void compact(osc_graph *g, const bool *gone) {
    for (int32_t v = 0; v < g->n_values; v++)
        if (g->values[v].producer >= 0 && gone[g->values[v].producer]) g->values[v].producer = -1;
    int32_t k = 0;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        if (gone[i]) continue;
        g->nodes[k] = g->nodes[i];
        for (int32_t j = 0; j < g->nodes[k].n_outputs; j++)
            if (g->nodes[k].outputs[j] >= 0) g->values[g->nodes[k].outputs[j]].producer = k;
        k++;
    }
    g->n_nodes = k;
}

osc_status osc_fuse(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    if (m->opts.no_fusion || m->dynamic || !m->fold_vals) return OSC_OK;
    int32_t *uses = osc_pool_alloc(&m->pool, ((size_t)g->n_values + 1) * sizeof *uses);
    bool *gone = osc_pool_alloc(&m->pool, ((size_t)g->n_nodes + 1) * sizeof *gone);
    if (!uses || !gone) return osc_fail(err, OSC_ERR_NOMEM, "out of memory fusing nodes");
    memset(gone, 0, ((size_t)g->n_nodes + 1) * sizeof *gone);
    count_uses(g, uses);
    const osc_fuse_view view = {.graph = g, .vals = m->fold_vals, .shaped = m->fold_shaped,
                                .uses = uses, .recompute = m->opts.fuse_recompute != 0};
    bool any = false;
    for (int32_t late = 0; late < 2; late++) { /* OSC_KF_FUSE_LATE hooks: second round */
        for (int32_t i = 0; i < g->n_nodes; i++) {
            osc_node *n = &g->nodes[i];
            if (n->folded || gone[i] || !n->kernel->fuse ||
                !(n->kernel->flags & OSC_KF_FUSE_LATE) != !late)
                continue; /* (gone: an earlier rewrite removed it) */
            osc_kctx k = {.err = err, .graph = g, .node = n, .row = n->kernel,
                          .since_version = n->kernel->since, .params = n->params,
                          .alloc = &m->alloc, .pool = &m->pool, .strict = m->opts.strict != 0};
            osc_fusion f;
            memset(&f, 0, sizeof f);
            if (!n->kernel->fuse(&k, &view, i, &f)) {
                if (err->status) return err->status;
                continue;
            }
            osc_status st = apply(m, i, &f, uses, gone, err);
            if (st) return st;
            any = true;
        }
    }
    if (!any) return OSC_OK;
    /* A removed node's tensor attributes (the zeros of an absorbed Constant) are read by
     * nothing now: give back those that have a block of their own. */
    for (int32_t i = 0; i < g->n_nodes; i++)
        for (int32_t a = 0; gone[i] && a < g->nodes[i].n_attrs; a++) {
            osc_tensor *t = g->nodes[i].attrs[a].t;
            if (t && t->dtype != OSC_STRING && osc_pool_release(&m->pool, t->data, t->nbytes))
                t->data = NULL;
        }
    compact(g, gone);
    return OSC_OK;
}
