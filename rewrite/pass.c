/* pass.c: the rewrite pass: offers each node that still runs the rules anchored on it (rules.c)
 * in priority order, applies what their rewrites propose and removes what became dead. It
 * knows no pattern and names no op: rules are data. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ops/registry.h"
#include "rewrite.h"

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

bool osc_rw_emit(osc_kctx *k, const osc_fusion *from, const void *p, size_t bytes,
                 const char *op, osc_fusion *f) {
    *f = *from;
    f->op = op;
    if (!bytes) return true;
    void *q = osc_kparams(k, bytes);
    if (!q) return false;
    memcpy(q, p, bytes);
    f->params = q;
    return true;
}

bool osc_rw_no(const osc_fuse_view *v, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->why, OSC_RW_WHY_SIZE, fmt, ap);
    va_end(ap);
    return false;
}

/* Whether rule r starts at node n (neither an op nor traits: every node). */
static bool anchored(const osc_rw_rule *r, const osc_node *n) {
    if (r->anchor) return !n->domain[0] && !strcmp(n->op_type, r->anchor);
    return !r->anchor_traits || osc_fuse_has(n, r->anchor_traits);
}

/* The row of a fused kernel's node, its parameters checked by the row's init (which receives
 * the rewrite's in *params); NULL with k->err set when there is none. */
static const osc_kernel *fused_row(osc_kctx *k, const osc_fusion *f, const void **params) {
    const osc_kernel *row = osc_kernel_find("osc", f->op, 1);
    if (!row) {
        osc_kfail(k, OSC_ERR_UNSUPPORTED, "the rewrite made a node of '%s', a kernel this build "
                  "does not have", f->op);
        return NULL;
    }
    void *p = (void *)f->params;
    k->row = row;
    if (row->init && row->init(k, k->node, &p)) return NULL;
    *params = p;
    return row;
}

/* Applies f at node i: new inputs, row and params; the chain nodes that nothing reads any more
 * (latest first, so a chain dies from its end) are marked in `gone`, and the node records the
 * names and op types of what it replaced. */
static osc_status apply(osc_kctx *k, osc_rw_graph *rg, int32_t i, const osc_rw_rule *rule,
                        const osc_fusion *f, int32_t *uses, bool *gone) {
    osc_graph *g = rg->g;
    osc_node *n = &g->nodes[i];
    int32_t *ins = osc_pool_alloc(rg->pool, (size_t)f->n_inputs * sizeof *ins + 1);
    if (!ins) return osc_fail(k->err, OSC_ERR_NOMEM, "out of memory fusing nodes");
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
    /* the removed ones sorted (a few: insertion), not a scan of the nodes before i, which made
     * fusing n patterns quadratic */
    int32_t m = 0, order[OSC_FUSE_MAX_NODES];
    for (int32_t a = 0; a < f->n_absorbed; a++) {
        if (!removed[a]) continue;
        int32_t at = m++;
        for (; at > 0 && order[at - 1] > f->absorbed[a]; at--) order[at] = order[at - 1];
        order[at] = f->absorbed[a];
    }
    /* the names the node replaced: a fused node it extends (or whose row it takes: a product
     * that took in a normalisation before its Relu), the nodes that one replaced */
    const osc_node *a0 = f->n_absorbed ? &g->nodes[f->absorbed[0]] : NULL;
    const osc_node *ext = a0 && gone[f->absorbed[0]] &&
                                  (f->extends || (f->takes_row && a0->n_fused > 0))
                              ? a0
                              : NULL;
    /* a fused node taken in (extended, or absorbed: the scatters a segment softmax takes)
     * contributes the nodes it replaced, so that the list names the model's own nodes */
    size_t total = 1;
    for (int32_t q = 0; q < m; q++) {
        const int32_t nf = g->nodes[order[q]].n_fused;
        total += nf > 0 ? (size_t)nf : 1;
    }
    const char **names = osc_pool_alloc(rg->pool, total * sizeof *names);
    const char **ops = osc_pool_alloc(rg->pool, total * sizeof *ops);
    if (!names || !ops) return osc_fail(k->err, OSC_ERR_NOMEM, "out of memory fusing nodes");
    int32_t at = 0;
    for (int32_t q = 0; q < m; q++) {
        const osc_node *a = &g->nodes[order[q]];
        for (int32_t r = 0; r < (a->n_fused > 0 ? a->n_fused : 1); r++, at++) {
            names[at] = a->n_fused > 0 ? a->fused_names[r] : a->name;
            ops[at] = a->n_fused > 0 ? a->fused_ops[r] : a->op_type;
        }
    }
    names[at] = n->name;
    ops[at++] = n->op_type;
    if (ext) n->name = ext->name;
    n->n_fused = at;
    n->fused_rule = rule->name;
    n->fused_names = names;
    n->fused_ops = ops;
    n->inputs = ins;
    n->n_inputs = f->n_inputs;
    const void *params = f->params;
    const osc_node *takes = f->takes_row ? &g->nodes[f->absorbed[0]] : NULL;
    const osc_kernel *row = f->op ? fused_row(k, f, &params) : takes ? takes->kernel : n->kernel;
    if (!row) return k->err->status;
    n->kernel = row;
    n->params = params;
    if (takes) {
        n->op_type = takes->op_type, n->domain = takes->domain, n->name = takes->name;
        n->opset = takes->opset, n->attrs = takes->attrs, n->n_attrs = takes->n_attrs;
    }
    if (f->op) { /* a fused kernel's node (else the node keeps its op, reading new inputs) */
        n->op_type = row->op;
        n->domain = row->domain;
        n->n_implicit = 0; /* its inputs are the rule's: a subgraph it replaced no longer runs */
    }
    if (f->n_inputs > rg->max_in) rg->max_in = f->n_inputs;
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

/* Offers node i the rules of priority `prio`; the first whose matcher and rewrite succeed is
 * applied. */
static osc_status offer(osc_rw_graph *rg, const osc_fuse_view *v, int32_t i, int32_t prio,
                        void *cap, int32_t *uses, bool *gone, bool *any, osc_err *err) {
    osc_node *n = &rg->g->nodes[i];
    for (size_t r = 0; osc_rw_rule_at(r); r++) {
        const osc_rw_rule *rule = osc_rw_rule_at(r);
        if (rule->priority != prio || !anchored(rule, n)) continue;
        osc_kctx k = {.err = err, .graph = rg->g, .node = n, .row = n->kernel,
                      .since_version = n->kernel->since, .params = n->params,
                      .alloc = rg->alloc, .pool = rg->pool, .strict = rg->strict};
        osc_fusion f;
        memset(&f, 0, sizeof f);
        memset(cap, 0, OSC_RW_CAP_MAX);
        v->why[0] = '\0';
        if (!rule->match(&k, v, i, cap) || !rule->rewrite(&k, v, i, cap, &f)) {
            if (err->status) return err->status;
            if (v->why[0] && !n->not_fused) { /* the first rule's reason */
                char *s = osc_pool_alloc(rg->pool, strlen(rule->name) + strlen(v->why) + 3);
                if (!s) return osc_fail(err, OSC_ERR_NOMEM, "out of memory fusing nodes");
                sprintf(s, "%s: %s", rule->name, v->why);
                n->not_fused = s;
            }
            continue;
        }
        *any = true;
        return apply(&k, rg, i, rule, &f, uses, gone);
    }
    return OSC_OK;
}

osc_status osc_rewrite(osc_rw_graph *rg, osc_err *err) {
    osc_graph *g = rg->g;
    bool anchors = false; /* a node some rule starts at: else nothing to allocate */
    for (int32_t i = 0; i < g->n_nodes && !anchors; i++)
        for (size_t r = 0; osc_rw_rule_at(r) && !anchors; r++)
            anchors = !g->nodes[i].folded && anchored(osc_rw_rule_at(r), &g->nodes[i]);
    if (!anchors) return OSC_OK;
    int32_t *uses = osc_pool_alloc(rg->pool, ((size_t)g->n_values + 1) * sizeof *uses);
    bool *gone = osc_pool_alloc(rg->pool, ((size_t)g->n_nodes + 1) * sizeof *gone);
    bool *was_dead = osc_pool_alloc(rg->pool, ((size_t)g->n_nodes + 1) * sizeof *was_dead);
    if (!uses || !gone || !was_dead)
        return osc_fail(err, OSC_ERR_NOMEM, "out of memory fusing nodes");
    /* the matchers' capture and reason, given back */
    void *cap = osc_malloc(rg->alloc, OSC_RW_CAP_MAX + OSC_RW_WHY_SIZE);
    if (!cap) return osc_fail(err, OSC_ERR_NOMEM, "out of memory fusing nodes");
    memset(gone, 0, ((size_t)g->n_nodes + 1) * sizeof *gone);
    count_uses(g, uses);
    /* Nodes no output depends on run all the same (as with fusion off: their errors are the
     * run's); the sweep below removes only what the rewrites left unread. */
    for (int32_t i = 0; i < g->n_nodes; i++) was_dead[i] = dead(&g->nodes[i], uses);
    const osc_fuse_view view = {.graph = g, .vals = rg->vals, .shaped = rg->shaped,
                                .uses = uses, .sym = rg->sym, .recompute = rg->recompute,
                                .why = (char *)cap + OSC_RW_CAP_MAX};
    int32_t last = 0; /* the highest priority of the table */
    for (size_t r = 0; osc_rw_rule_at(r); r++)
        if (osc_rw_rule_at(r)->priority > last) last = osc_rw_rule_at(r)->priority;
    bool any = false;
    osc_status st = OSC_OK;
    for (int32_t prio = 0; !st && prio <= last; prio++)
        for (int32_t i = 0; !st && i < g->n_nodes; i++)
            if (!g->nodes[i].folded && !gone[i]) /* (gone: an earlier rewrite removed it) */
                st = offer(rg, &view, i, prio, cap, uses, gone, &any, err);
    osc_free(rg->alloc, cap, OSC_RW_CAP_MAX + OSC_RW_WHY_SIZE);
    if (st || !any) return st;
    /* Nodes the rewrites left without a reader (the chain that built an absorbed Expand's
     * shape), latest first so that a chain dies from its end: ONNX nodes have no other effect. */
    for (int32_t i = g->n_nodes - 1; i >= 0; i--) {
        const osc_node *n = &g->nodes[i];
        if (n->folded || gone[i] || was_dead[i] || !dead(n, uses)) continue;
        gone[i] = true;
        for (int32_t j = 0; j < n->n_inputs; j++)
            if (n->inputs[j] >= 0) uses[n->inputs[j]]--;
    }
    /* A removed node's tensor attributes (the zeros of an absorbed Constant) are read by
     * nothing now: give back those that have a block of their own (through an index of the
     * pool's blocks: a walk of them for each would be quadratic). */
    osc_pool_index idx = {0};
    for (int32_t i = 0; i < g->n_nodes; i++)
        for (int32_t a = 0; gone[i] && a < g->nodes[i].n_attrs; a++) {
            osc_tensor *t = g->nodes[i].attrs[a].t;
            if (!t || t->dtype == OSC_STRING || !t->data) continue;
            if (!idx.v && !osc_pool_index_init(&idx, rg->pool))
                return osc_fail(err, OSC_ERR_NOMEM, "out of memory fusing nodes");
            if (osc_pool_index_release(rg->pool, &idx, t->data, t->nbytes)) t->data = NULL;
        }
    if (idx.v) osc_pool_index_free(&idx, rg->pool);
    compact(g, gone);
    return OSC_OK;
}
