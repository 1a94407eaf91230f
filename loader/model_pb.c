/* model_pb.c: serialized ModelProto -> osc_graph, with the structural checks of loader.h. */
#include <stdio.h>
#include <string.h>

#include "loader.h"
#include "pb.h"

typedef struct ctx {
    const Onnx__GraphProto *gp;
    /* A subgraph's: the graph around it, and the index there of the node holding it */
    const struct ctx *parent;
    size_t at;
    const char *attr;        /* the attribute holding it ("body") */
    int depth;               /* 0 for the main graph */
    int64_t *nodes_left;     /* of lim->max_nodes, shared by the main graph and its subgraphs */
    osc_graph *g;
    osc_pool *pool;
    osc_allocator *a;
    osc_err *err;
    const char *base_dir;
    const osc_limits *lim;
    osc_names names;
    bool *declared;  /* per value: decl already set by a graph input/initializer/output */
    int32_t *stamp;  /* per value: the last node that took it as an implicit input, or -1 */
    /* The values made for empty outputs before a node's last named one, in node and output
     * order; unnamed_next: the next one load_node takes */
    int32_t *unnamed;
    size_t unnamed_next;
} ctx;

static const char *str(const char *s) { return s ? s : ""; }

static const char *norm_domain(const char *d) {
    return (!d || strcmp(d, "ai.onnx") == 0) ? "" : d;
}

/* A failed pool allocation of n bytes. */
static osc_status nomem(ctx *c, size_t n, const char *what) {
    return osc_pool_nomem(c->err, c->pool, n, what);
}

static char *dup(ctx *c, const char *s) {
    char *r = osc_pool_strdup(c->pool, s);
    if (!r) nomem(c, strlen(str(s)) + 1, "model strings");
    return r;
}

static void *alloc(ctx *c, size_t count, size_t size, const char *what) {
    size_t n;
    if (__builtin_mul_overflow(count, size, &n)) {
        osc_fail(c->err, OSC_ERR_LIMIT, "%s: %zu entries overflow size_t", what, count);
        return NULL;
    }
    void *p = osc_pool_alloc(c->pool, n);
    if (!p) nomem(c, n, what);
    return p;
}

/* "node 'n' (index 3, ScatterND)", or "node #3 ScatterND" when unnamed (osc_node_label's
 * spelling). */
static void node_label(char *buf, size_t size, size_t i, const Onnx__NodeProto *np) {
    if (np->name && np->name[0])
        snprintf(buf, size, "node '%.150s' (index %zu, %.60s)", np->name, i, str(np->op_type));
    else
        snprintf(buf, size, "node #%zu %.60s", i, str(np->op_type));
}

static osc_status add_opsets(ctx *c, const Onnx__ModelProto *mp, osc_names *seen);

/* OSC_ERR_LIMIT when a count of the model is over its fixed limit (see onnx_scatter.h). */
static osc_status count_limit(ctx *c, const char *what, size_t n, size_t limit,
                              const char *name) {
    if (n <= limit) return OSC_OK;
    return osc_fail(c->err, OSC_ERR_LIMIT, "%s: %zu; the limit is %zu (%s)", what, n, limit,
                    name);
}

static osc_status load_opsets(ctx *c, const Onnx__ModelProto *mp) {
    osc_graph *g = c->g;
    if (mp->n_opset_import == 0)
        return osc_fail(c->err, OSC_ERR_MODEL, "model has no opset_import");
    g->opsets = alloc(c, mp->n_opset_import, sizeof *g->opsets, "opset_import");
    if (!g->opsets) return c->err->status;
    osc_names seen; /* domains so far: a duplicate is found in O(1), not by a scan */
    osc_status st = osc_names_init(&seen, c->a, mp->n_opset_import, "opset_import", c->err);
    if (st) return st;
    st = add_opsets(c, mp, &seen);
    osc_names_free(&seen);
    return st;
}

static osc_status add_opsets(ctx *c, const Onnx__ModelProto *mp, osc_names *seen) {
    osc_graph *g = c->g;
    for (size_t i = 0; i < mp->n_opset_import; i++) {
        const Onnx__OperatorSetIdProto *op = mp->opset_import[i];
        const char *dom = norm_domain(op->domain);
        if (!op->has_version || op->version < 1)
            return osc_fail(c->err, OSC_ERR_MODEL,
                            "opset_import %zu (domain '%s') has version %lld; expected >= 1", i,
                            dom, op->has_version ? (long long)op->version : 0LL);
        g->opsets[i].domain = dup(c, dom);
        if (!g->opsets[i].domain) return c->err->status;
        bool added;
        int32_t j = osc_names_add(seen, g->opsets[i].domain, &added);
        if (!added)
            return osc_fail(c->err, OSC_ERR_MODEL,
                            "opset_import lists domain '%s' twice (entries %d and %zu)", dom,
                            (int)j, i);
        g->opsets[i].version = op->version;
        g->n_opsets++;
    }
    return OSC_OK;
}

/* Outputs [0, return value) of np: up to its last named one. */
static size_t named_outputs(const Onnx__NodeProto *np) {
    size_t n = np->n_output;
    while (n > 0 && !str(np->output[n - 1])[0]) n--;
    return n;
}

/* An empty output before a node's last named one (Attention's Y, '', '', qk_matmul_output)
 * gets a value of its own, which nothing reads, under a name no other value has. */
static osc_status name_unnamed(ctx *c) {
    const Onnx__GraphProto *gp = c->gp;
    size_t count = 0;
    for (size_t i = 0; i < gp->n_node; i++)
        for (size_t k = 0; k < named_outputs(gp->node[i]); k++)
            count += !str(gp->node[i]->output[k])[0];
    if (!count) return OSC_OK;
    c->unnamed = alloc(c, count, sizeof *c->unnamed, "graph values");
    if (!c->unnamed) return c->err->status;
    count = 0;
    for (size_t i = 0; i < gp->n_node; i++)
        for (size_t k = 0; k < named_outputs(gp->node[i]); k++) {
            if (str(gp->node[i]->output[k])[0]) continue;
            char buf[96];
            snprintf(buf, sizeof buf, "(output %zu of node #%zu, unnamed)", k, i);
            for (int rep = 1; osc_names_find(&c->names, buf) >= 0; rep++) /* the model has it */
                snprintf(buf, sizeof buf, "(output %zu of node #%zu, unnamed %d)", k, i, rep);
            const char *name = dup(c, buf);
            bool added;
            if (!name) return c->err->status;
            c->unnamed[count] = osc_names_add(&c->names, name, &added);
            if (c->unnamed[count++] < 0) /* not reached: the names' bound counts every output */
                return osc_fail(c->err, OSC_ERR_LIMIT, "graph has too many value names");
        }
    return OSC_OK;
}

/* The value id of output k of node i: -1 for an empty one after its last named one. *next
 * counts the unnamed values taken so far (the caller goes through nodes and outputs in order). */
static int32_t output_id(const ctx *c, size_t i, size_t k, size_t *next) {
    const Onnx__NodeProto *np = c->gp->node[i];
    const char *s = str(np->output[k]);
    if (s[0]) return osc_names_find(&c->names, s);
    return k < named_outputs(np) ? c->unnamed[(*next)++] : -1;
}

/* Registers every name the graph uses so values can be allocated once, exactly. */
static osc_status register_names(ctx *c) {
    const Onnx__GraphProto *gp = c->gp;
    size_t bound = gp->n_input + gp->n_initializer + gp->n_output, t;
    for (size_t i = 0; i < gp->n_node; i++)
        if (__builtin_add_overflow(bound, gp->node[i]->n_input, &t) ||
            __builtin_add_overflow(t, gp->node[i]->n_output, &bound))
            return osc_fail(c->err, OSC_ERR_LIMIT, "graph has too many value names");
    for (size_t i = 0; i < gp->n_node; i++) /* free names of subgraphs: at most their refs */
        for (size_t a = 0; a < gp->node[i]->n_attribute; a++)
            if (gp->node[i]->attribute[a]->g)
                bound += osc_scope_refs(gp->node[i]->attribute[a]->g, c->depth + 1);
    osc_status st = osc_names_init(&c->names, c->a, bound, "graph value names", c->err);
    if (st) return st;
    bool added;
#define REG(s)                                                 \
    do {                                                       \
        if ((s) && (s)[0]) osc_names_add(&c->names, (s), &added); \
    } while (0)
    for (size_t i = 0; i < gp->n_input; i++) REG(gp->input[i]->name);
    for (size_t i = 0; i < gp->n_initializer; i++) REG(gp->initializer[i]->name);
    for (size_t i = 0; i < gp->n_node; i++) {
        for (size_t k = 0; k < gp->node[i]->n_input; k++) REG(gp->node[i]->input[k]);
        for (size_t k = 0; k < gp->node[i]->n_output; k++) REG(gp->node[i]->output[k]);
    }
    for (size_t i = 0; i < gp->n_output; i++) REG(gp->output[i]->name);
    /* what subgraphs read from around them is a value of this graph, or one it reads itself */
    for (size_t i = 0; i < gp->n_node; i++)
        for (size_t a = 0; a < gp->node[i]->n_attribute; a++) {
            if (!gp->node[i]->attribute[a]->g) continue;
            osc_names sub;
            st = osc_scope_free_names(gp->node[i]->attribute[a]->g, c->a, c->depth + 1, &sub,
                                      c->err);
            if (st) return st;
            for (int32_t k = 0; k < sub.n; k++) REG(sub.keys[k]);
            osc_names_free(&sub);
        }
#undef REG
    st = name_unnamed(c); /* after every name the model uses, so that none is taken */
    if (st) return st;
    osc_graph *g = c->g;
    g->n_values = c->names.n;
    g->values = alloc(c, (size_t)g->n_values, sizeof *g->values, "graph values");
    if (!g->values) return c->err->status;
    c->declared = osc_calloc(c->a, (size_t)g->n_values + 1, sizeof *c->declared);
    if (!c->declared) return osc_nomem(c->err, c->a, (size_t)g->n_values + 1, "graph values");
    c->stamp = alloc(c, (size_t)g->n_values + 1, sizeof *c->stamp, "graph values");
    if (!c->stamp) return c->err->status;
    memset(c->stamp, 0xff, ((size_t)g->n_values + 1) * sizeof *c->stamp);
    for (int32_t i = 0; i < g->n_values; i++) {
        osc_value *v = &g->values[i];
        v->name = dup(c, c->names.keys[i]);
        if (!v->name) return c->err->status;
        v->decl.rank = -1;
        v->producer = -1;
    }
    return OSC_OK;
}

static osc_status load_inputs(ctx *c) {
    const Onnx__GraphProto *gp = c->gp;
    osc_graph *g = c->g;
    g->inputs = alloc(c, gp->n_input, sizeof *g->inputs, "graph inputs");
    if (!g->inputs) return c->err->status;
    for (size_t i = 0; i < gp->n_input; i++) {
        const Onnx__ValueInfoProto *vi = gp->input[i];
        if (!vi->name || !vi->name[0])
            return osc_fail(c->err, OSC_ERR_MODEL, "graph input %zu has no name", i);
        int32_t id = osc_names_find(&c->names, vi->name);
        osc_value *v = &g->values[id];
        if (v->is_input)
            return osc_fail(c->err, OSC_ERR_MODEL, "graph input '%s' is listed twice (position "
                            "%zu repeats an earlier input)", vi->name, i);
        osc_status st = osc_type_from_pb(vi->type, "graph input", vi->name, c->lim->max_rank,
                                         c->pool, &v->decl, c->err);
        if (st) return st;
        v->is_input = true;
        c->declared[id] = true;
        g->inputs[g->n_inputs++] = id;
    }
    return OSC_OK;
}

/* An initializer that is also a graph input is its default: it must fit the declared type. */
static osc_status check_default(ctx *c, const osc_value *v, const osc_tensor *t) {
    const osc_type *d = &v->decl;
    bool ok = (d->dtype == 0 || d->dtype == t->dtype) && (d->rank < 0 || d->rank == t->rank);
    for (int32_t k = 0; ok && d->rank >= 0 && k < d->rank; k++)
        ok = d->dims[k] < 0 || d->dims[k] == t->dims[k];
    if (ok) return OSC_OK;
    char want[200] = "", got[200] = "";
    size_t p = 0, q = 0;
    p += (size_t)snprintf(want, sizeof want, "dtype %d rank %d [", (int)d->dtype, (int)d->rank);
    for (int32_t k = 0; k < d->rank && p < sizeof want; k++)
        p += (size_t)snprintf(want + p, sizeof want - p, k ? ",%lld" : "%lld",
                              (long long)d->dims[k]);
    if (p < sizeof want) snprintf(want + p, sizeof want - p, "]");
    q += (size_t)snprintf(got, sizeof got, "dtype %d rank %d [", (int)t->dtype, (int)t->rank);
    for (int32_t k = 0; k < t->rank && q < sizeof got; k++)
        q += (size_t)snprintf(got + q, sizeof got - q, k ? ",%lld" : "%lld",
                              (long long)t->dims[k]);
    if (q < sizeof got) snprintf(got + q, sizeof got - q, "]");
    return osc_fail(c->err, OSC_ERR_MODEL,
                    "initializer '%s' (%s) does not fit graph input '%s' (%s; -1 = any)",
                    v->name, got, v->name, want);
}

static osc_status load_initializers(ctx *c) {
    const Onnx__GraphProto *gp = c->gp;
    osc_graph *g = c->g;
    for (size_t i = 0; i < gp->n_initializer; i++) {
        const Onnx__TensorProto *tp = gp->initializer[i];
        if (!tp->name || !tp->name[0])
            return osc_fail(c->err, OSC_ERR_MODEL, "initializer %zu has no name", i);
        osc_value *v = &g->values[osc_names_find(&c->names, tp->name)];
        if (v->init)
            return osc_fail(c->err, OSC_ERR_MODEL, "initializer '%s' is listed twice (position "
                            "%zu repeats an earlier initializer)", tp->name, i);
        osc_tensor *t = alloc(c, 1, sizeof *t, "initializers");
        if (!t) return c->err->status;
        char label[300];
        snprintf(label, sizeof label, "initializer '%.200s'", tp->name);
        osc_tdec d = {label, c->base_dir, c->pool, true, c->err};
        osc_status st = osc_tensor_from_pb_lim(tp, &d, c->lim, t);
        if (st) return st;
        v->init = t;
        if (v->is_input) {
            st = check_default(c, v, t);
            if (st) return st;
        } else {
            v->decl.dtype = t->dtype;
            v->decl.rank = t->rank;
            memcpy(v->decl.dims, t->dims, sizeof v->decl.dims);
            c->declared[v - g->values] = true;
        }
    }
    return OSC_OK;
}

/* Who produces value v, for messages. */
static void producer_str(const ctx *c, const osc_value *v, char *buf, size_t size) {
    if (v->is_input)
        snprintf(buf, size, "graph input '%.150s'", v->name);
    else if (v->init)
        snprintf(buf, size, "initializer '%.150s'", v->name);
    else
        node_label(buf, size, (size_t)v->producer, c->gp->node[v->producer]);
}

static osc_status dup_attrs(ctx *c, const Onnx__NodeProto *np, const char *label) {
    size_t n = np->n_attribute;
    const char *dup_name = NULL;
    if (n <= 16) { /* the common case: a handful of attributes */
        for (size_t a = 0; a < n; a++)
            for (size_t b = 0; b < a; b++)
                if (strcmp(str(np->attribute[a]->name), str(np->attribute[b]->name)) == 0) {
                    dup_name = str(np->attribute[a]->name);
                    goto dup;
                }
        return OSC_OK;
    }
    osc_names m;
    osc_status st = osc_names_init(&m, c->a, n, label, c->err);
    if (st) return st;
    for (size_t a = 0; a < n; a++) {
        bool added;
        osc_names_add(&m, str(np->attribute[a]->name), &added);
        if (!added) {
            osc_names_free(&m);
            return osc_fail(c->err, OSC_ERR_MODEL, "%s has attribute '%s' twice", label,
                            str(np->attribute[a]->name));
        }
    }
    osc_names_free(&m);
    return OSC_OK;
dup:
    return osc_fail(c->err, OSC_ERR_MODEL, "%s has attribute '%s' twice", label, dup_name);
}

static osc_status load_graph(ctx *c);

/* The subgraph of GRAPH attribute ap of node i, loaded as a graph of its own in the same pool:
 * it shares the model's opsets; its free names become its last inputs (capture). */
static osc_status load_subgraph(ctx *c, size_t i, const Onnx__AttributeProto *ap, osc_attr *at,
                                const char *label) {
    if (!ap->g)
        return osc_fail(c->err, OSC_ERR_MODEL, "%s attribute '%s' has type GRAPH but no graph",
                        label, at->name);
    osc_graph *g = alloc(c, 1, sizeof *g, "subgraphs");
    if (!g) return c->err->status;
    ctx sc = {.gp = ap->g, .parent = c, .at = i, .attr = at->name, .depth = c->depth + 1,
              .nodes_left = c->nodes_left, .g = g, .pool = c->pool, .a = c->a, .err = c->err,
              .base_dir = c->base_dir, .lim = c->lim};
    g->ir_version = c->g->ir_version;
    g->opsets = c->g->opsets;
    g->n_opsets = c->g->n_opsets;
    g->producer_name = g->producer_version = g->domain = g->doc_string = "";
    g->graph_doc_string = "";
    g->name = dup(c, str(ap->g->name));
    osc_status st = g->name ? load_graph(&sc) : c->err->status;
    osc_names_free(&sc.names);
    if (sc.declared) osc_free(c->a, sc.declared, ((size_t)g->n_values + 1) * sizeof *sc.declared);
    at->g = g;
    return st;
}

/* The values node n's subgraphs read from this graph become its last inputs (each once), so
 * the engine keeps them alive until n runs and hands them to n's kernel. */
static osc_status implicit_inputs(ctx *c, osc_node *n, const char *label) {
    size_t extra = 0;
    for (int32_t a = 0; a < n->n_attrs; a++)
        if (n->attrs[a].g) extra += (size_t)n->attrs[a].g->n_captures;
    if (!extra) return OSC_OK;
    int32_t *in = alloc(c, (size_t)n->n_inputs + extra, sizeof *in, label);
    if (!in) return c->err->status;
    memcpy(in, n->inputs, (size_t)n->n_inputs * sizeof *in);
    int32_t k = n->n_inputs, self = (int32_t)(n - c->g->nodes);
    for (int32_t a = 0; a < n->n_attrs; a++)
        for (int32_t j = 0; n->attrs[a].g && j < n->attrs[a].g->n_captures; j++) {
            int32_t v = n->attrs[a].g->capture_outer[j];
            if (c->stamp[v] == self) continue;
            c->stamp[v] = self;
            in[k++] = v;
        }
    char what[340];
    snprintf(what, sizeof what, "%s: inputs with those its subgraphs read", label);
    osc_status st = count_limit(c, what, (size_t)k, OSC_MAX_NODE_IO, "OSC_MAX_NODE_IO");
    if (st) return st;
    n->inputs = in;
    n->n_implicit = k - n->n_inputs;
    n->n_inputs = k;
    return OSC_OK;
}

/* A subgraph's free names: each becomes an input of the subgraph (after its own), declared as
 * the graph around it declares that name, which must be defined there before the node holding
 * the subgraph (or be a name that graph reads from around it in turn). */
static osc_status capture(ctx *c) {
    const ctx *p = c->parent;
    osc_graph *g = c->g;
    size_t n = 0;
    for (int32_t v = 0; v < g->n_values; v++)
        n += !g->values[v].is_input && !g->values[v].init && g->values[v].producer < 0;
    if (!n) return OSC_OK;
    int32_t *inputs = alloc(c, (size_t)g->n_inputs + n, sizeof *inputs, "subgraph inputs");
    g->capture_outer = alloc(c, n, sizeof *g->capture_outer, "subgraph inputs");
    if (!inputs || !g->capture_outer) return c->err->status;
    memcpy(inputs, g->inputs, (size_t)g->n_inputs * sizeof *inputs);
    g->inputs = inputs;
    for (int32_t v = 0; v < g->n_values; v++) {
        osc_value *val = &g->values[v];
        if (val->is_input || val->init || val->producer >= 0) continue;
        int32_t o = osc_names_find(&p->names, val->name);
        const osc_value *ov = o >= 0 ? &p->g->values[o] : NULL;
        if (!ov || !(ov->is_input || ov->init ||
                     (ov->producer >= 0 && (size_t)ov->producer < c->at))) {
            char label[300];
            node_label(label, sizeof label, c->at, p->gp->node[c->at]);
            return osc_fail(c->err, OSC_ERR_MODEL, "%s: subgraph '%s' (attribute '%s') reads "
                            "'%s', which %s", label, g->name, c->attr, val->name,
                            ov && ov->producer >= 0 ? "the node itself or a later node computes "
                                                      "(a cycle through the subgraph)"
                                                    : "no graph around it defines");
        }
        val->is_input = true;
        val->decl = ov->decl;
        c->declared[v] = true;
        g->inputs[g->n_inputs++] = v;
        g->capture_outer[g->n_captures++] = o;
    }
    return OSC_OK;
}

static osc_status load_node(ctx *c, size_t i) {
    const Onnx__NodeProto *np = c->gp->node[i];
    osc_node *n = &c->g->nodes[i];
    char label[300];
    node_label(label, sizeof label, i, np);
    if (!np->op_type || !np->op_type[0])
        return osc_fail(c->err, OSC_ERR_MODEL, "%s has no op_type", label);
    char what[340];
    snprintf(what, sizeof what, "%s: inputs", label);
    osc_status lst = count_limit(c, what, np->n_input, OSC_MAX_NODE_IO, "OSC_MAX_NODE_IO");
    snprintf(what, sizeof what, "%s: outputs", label);
    if (!lst) lst = count_limit(c, what, np->n_output, OSC_MAX_NODE_IO, "OSC_MAX_NODE_IO");
    snprintf(what, sizeof what, "%s: attributes", label);
    if (!lst)
        lst = count_limit(c, what, np->n_attribute, OSC_MAX_NODE_ATTRIBUTES,
                          "OSC_MAX_NODE_ATTRIBUTES");
    if (lst) return lst;
    n->name = dup(c, str(np->name));
    n->op_type = dup(c, np->op_type);
    n->domain = dup(c, norm_domain(np->domain));
    n->inputs = alloc(c, np->n_input, sizeof *n->inputs, label);
    n->outputs = alloc(c, np->n_output, sizeof *n->outputs, label);
    n->attrs = alloc(c, np->n_attribute, sizeof *n->attrs, label);
    if (!n->name || !n->op_type || !n->domain || !n->inputs || !n->outputs || !n->attrs)
        return c->err->status;
    n->n_inputs = (int32_t)np->n_input;
    n->n_outputs = (int32_t)np->n_output;
    for (size_t k = 0; k < np->n_input; k++) {
        const char *s = str(np->input[k]);
        n->inputs[k] = s[0] ? osc_names_find(&c->names, s) : -1;
        if (n->inputs[k] < 0) continue;
        const osc_value *v = &c->g->values[n->inputs[k]];
        if (v->is_input || v->init || (v->producer >= 0 && (size_t)v->producer < i)) continue;
        if (v->producer < 0)
            return osc_fail(c->err, OSC_ERR_MODEL, "%s input %zu '%s' is not produced by any "
                            "graph input, initializer or node", label, k, s);
        char by[200];
        producer_str(c, v, by, sizeof by);
        return osc_fail(c->err, OSC_ERR_MODEL,
                        "%s input %zu '%s' is produced by %s, which does not come earlier (a "
                        "cycle or nodes out of topological order)", label, k, s, by);
    }
    for (size_t k = 0; k < np->n_output; k++)
        n->outputs[k] = output_id(c, i, k, &c->unnamed_next);
    osc_status st = dup_attrs(c, np, label);
    if (st) return st;
    osc_tdec d = {label, c->base_dir, c->pool, true, c->err};
    for (size_t a = 0; a < np->n_attribute; a++) {
        st = osc_attr_from_pb(np->attribute[a], label, &d, c->lim, &n->attrs[a]);
        if (!st && n->attrs[a].type == OSC_ATTR_GRAPH)
            st = load_subgraph(c, i, np->attribute[a], &n->attrs[a], label);
        if (st) return st;
        n->n_attrs++;
    }
    return implicit_inputs(c, n, label);
}

/* First pass: one producer per name, so inputs can be checked against "earlier" below. */
static osc_status set_producers(ctx *c) {
    const Onnx__GraphProto *gp = c->gp;
    size_t next = 0;
    for (size_t i = 0; i < gp->n_node; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        for (size_t k = 0; k < np->n_output; k++) {
            const char *s = str(np->output[k]);
            const int32_t id = output_id(c, i, k, &next);
            if (id < 0) continue;
            osc_value *v = &c->g->values[id];
            if (v->is_input || v->init || v->producer >= 0) {
                char label[300], by[200];
                node_label(label, sizeof label, i, np);
                producer_str(c, v, by, sizeof by);
                return osc_fail(c->err, OSC_ERR_MODEL,
                                "%s output %zu '%s' is already produced by %s; a name has one "
                                "producer", label, k, s, by);
            }
            v->producer = (int32_t)i;
        }
    }
    return OSC_OK;
}

static osc_status load_nodes(ctx *c) {
    const Onnx__GraphProto *gp = c->gp;
    if (gp->n_node > INT32_MAX) return osc_fail(c->err, OSC_ERR_LIMIT, "too many nodes");
    c->g->nodes = alloc(c, gp->n_node, sizeof *c->g->nodes, "nodes");
    if (!c->g->nodes) return c->err->status;
    osc_status st = set_producers(c);
    if (!st && c->parent) st = capture(c);
    for (size_t i = 0; !st && i < gp->n_node; i++) {
        st = load_node(c, i);
        if (!st) c->g->n_nodes++;
    }
    return st;
}

/* A graph output or value_info type for value id: the first declaration (graph input,
 * initializer, output, value_info, in that order) gives the decl, but a non-tensor kind from
 * any of them is recorded even on an already declared value, so the runtime refuses it. */
static void apply_type(ctx *c, int32_t id, const osc_type *t) {
    osc_value *v = &c->g->values[id];
    if (!c->declared[id])
        v->decl = *t;
    else if (t->non_tensor && !v->decl.non_tensor)
        v->decl.non_tensor = t->non_tensor;
    c->declared[id] = true;
}

static osc_status load_outputs(ctx *c) {
    const Onnx__GraphProto *gp = c->gp;
    osc_graph *g = c->g;
    g->outputs = alloc(c, gp->n_output, sizeof *g->outputs, "graph outputs");
    if (!g->outputs) return c->err->status;
    for (size_t i = 0; i < gp->n_output; i++) {
        const Onnx__ValueInfoProto *vi = gp->output[i];
        if (!vi->name || !vi->name[0])
            return osc_fail(c->err, OSC_ERR_MODEL, "graph output %zu has no name", i);
        int32_t id = osc_names_find(&c->names, vi->name);
        osc_value *v = &g->values[id];
        if (v->is_output)
            return osc_fail(c->err, OSC_ERR_MODEL, "graph output '%s' is listed twice",
                            vi->name);
        if (!v->is_input && !v->init && v->producer < 0)
            return osc_fail(c->err, OSC_ERR_MODEL, "graph output '%s' is not produced by any "
                            "node, graph input or initializer", vi->name);
        osc_type t;
        osc_status st = osc_type_from_pb(vi->type, "graph output", vi->name, c->lim->max_rank,
                                         c->pool, &t, c->err);
        if (st) return st;
        apply_type(c, id, &t);
        v->is_output = true;
        g->outputs[g->n_outputs++] = id;
    }
    return OSC_OK;
}

static osc_status load_value_info(ctx *c) {
    const Onnx__GraphProto *gp = c->gp;
    for (size_t i = 0; i < gp->n_value_info; i++) {
        const Onnx__ValueInfoProto *vi = gp->value_info[i];
        osc_type t;
        osc_status st = osc_type_from_pb(vi->type, "value_info", str(vi->name),
                                         c->lim->max_rank, c->pool, &t, c->err);
        if (st) return st;
        int32_t id = vi->name && vi->name[0] ? osc_names_find(&c->names, vi->name) : -1;
        if (id < 0) continue; /* about a name the graph does not use */
        apply_type(c, id, &t);
    }
    return OSC_OK;
}

/* Names and metadata (osc_model_meta), copied so the unpacked message can be freed. */
static osc_status load_meta(ctx *c, const Onnx__ModelProto *mp) {
    osc_graph *g = c->g;
    g->model_version = mp->model_version;
    if (!(g->producer_name = dup(c, str(mp->producer_name))) ||
        !(g->producer_version = dup(c, str(mp->producer_version))) ||
        !(g->domain = dup(c, str(mp->domain))) || !(g->doc_string = dup(c, str(mp->doc_string))) ||
        !(g->name = dup(c, str(mp->graph->name))) ||
        !(g->graph_doc_string = dup(c, str(mp->graph->doc_string))))
        return c->err->status;
    g->prop_keys = alloc(c, mp->n_metadata_props + 1, sizeof *g->prop_keys, "metadata_props");
    g->prop_values = alloc(c, mp->n_metadata_props + 1, sizeof *g->prop_values, "metadata_props");
    if (!g->prop_keys || !g->prop_values) return c->err->status;
    for (size_t i = 0; i < mp->n_metadata_props; i++) {
        if (!(g->prop_keys[i] = dup(c, str(mp->metadata_props[i]->key))) ||
            !(g->prop_values[i] = dup(c, str(mp->metadata_props[i]->value))))
            return c->err->status;
        g->n_props++;
    }
    return OSC_OK;
}

static osc_status load_model(ctx *c, const Onnx__ModelProto *mp) {
    osc_graph *g = c->g;
    g->ir_version = mp->ir_version;
    if (!mp->graph) return osc_fail(c->err, OSC_ERR_MODEL, "model has no graph");
    const Onnx__GraphProto *gp = mp->graph;
    osc_status st;
    if ((st = count_limit(c, "opset_import entries", mp->n_opset_import, OSC_MAX_OPSET_IMPORTS,
                          "OSC_MAX_OPSET_IMPORTS")) ||
        (st = count_limit(c, "metadata_props entries", mp->n_metadata_props, OSC_MAX_METADATA,
                          "OSC_MAX_METADATA")) ||
        (st = count_limit(c, "graph inputs", gp->n_input, OSC_MAX_GRAPH_IO, "OSC_MAX_GRAPH_IO")) ||
        (st = count_limit(c, "graph outputs", gp->n_output, OSC_MAX_GRAPH_IO,
                          "OSC_MAX_GRAPH_IO")) ||
        (st = count_limit(c, "initializers", gp->n_initializer, OSC_MAX_INITIALIZERS,
                          "OSC_MAX_INITIALIZERS")) ||
        (st = count_limit(c, "value_info entries", gp->n_value_info, OSC_MAX_VALUE_INFO,
                          "OSC_MAX_VALUE_INFO")))
        return st;
    if ((st = load_opsets(c, mp)) || (st = load_meta(c, mp))) return st;
    c->gp = mp->graph;
    return load_graph(c);
}

/* The graph of c->gp: the main graph or a subgraph. */
static osc_status load_graph(ctx *c) {
    const Onnx__GraphProto *gp = c->gp;
    osc_status st;
    if (c->depth && ((st = count_limit(c, "subgraph inputs", gp->n_input, OSC_MAX_GRAPH_IO,
                                       "OSC_MAX_GRAPH_IO")) ||
                     (st = count_limit(c, "subgraph outputs", gp->n_output, OSC_MAX_GRAPH_IO,
                                       "OSC_MAX_GRAPH_IO")) ||
                     (st = count_limit(c, "subgraph initializers", gp->n_initializer,
                                       OSC_MAX_INITIALIZERS, "OSC_MAX_INITIALIZERS")) ||
                     (st = count_limit(c, "subgraph value_info entries", gp->n_value_info,
                                       OSC_MAX_VALUE_INFO, "OSC_MAX_VALUE_INFO"))))
        return st;
    if (gp->n_node > (uint64_t)*c->nodes_left) {
        if (!c->depth)
            return osc_fail(c->err, OSC_ERR_LIMIT, "graph has %zu nodes; the limit is %d "
                            "(opts.max_nodes)", gp->n_node, (int)c->lim->max_nodes);
        return osc_fail(c->err, OSC_ERR_LIMIT, "subgraph '%s' has %zu nodes, more than the %lld "
                        "left of the limit on the nodes of the model's graphs, %d "
                        "(opts.max_nodes)", c->g->name, gp->n_node, (long long)*c->nodes_left,
                        (int)c->lim->max_nodes);
    }
    *c->nodes_left -= (int64_t)gp->n_node;
    if (gp->n_sparse_initializer)
        return osc_fail(c->err, OSC_ERR_UNSUPPORTED, "graph has %zu sparse initializers; "
                        "sparse tensors are not supported", gp->n_sparse_initializer);
    if ((st = register_names(c)) || (st = load_inputs(c)) || (st = load_initializers(c)) ||
        (st = load_nodes(c)) || (st = load_outputs(c)) || (st = load_value_info(c)))
        return st;
    return OSC_OK;
}

osc_status osc_loader_parse_model(const void *buf, size_t len, const char *base_dir,
                                  osc_pool *pool, osc_graph *g, osc_err *err) {
    return osc_loader_parse_model_lim(buf, len, base_dir, NULL, pool, g, err);
}

osc_status osc_loader_parse_model_lim(const void *buf, size_t len, const char *base_dir,
                                      const osc_limits *lim, osc_pool *pool, osc_graph *g,
                                      osc_err *err) {
    if (!buf && len) {
        if (err) osc_fail(err, OSC_ERR_ARG, "osc_loader_parse_model: NULL argument");
        return OSC_ERR_ARG;
    }
    osc_src src = {buf, -1, len, "the model's bytes"};
    return osc_loader_parse_model_src(&src, base_dir, lim, pool, g, err);
}

/* The file read whole and unpacked: the fallback for a skeleton whose markers protobuf-c
 * merged. */
static Onnx__ModelProto *unpack_whole(const osc_src *src, osc_pb_alloc *pa, osc_err *err) {
    uint8_t *buf = osc_malloc(pa->a, (size_t)src->len);
    if (!buf) {
        osc_nomem(err, pa->a, src->len, "reading the model");
        return NULL;
    }
    Onnx__ModelProto *mp = NULL;
    if (!osc_src_read(src, 0, buf, (size_t)src->len, err))
        mp = onnx__model_proto__unpack(&pa->pc, (size_t)src->len, buf);
    osc_free(pa->a, buf, (size_t)src->len);
    return mp;
}

/* A file unpacked as its skeleton (osc_pb_skeleton_build), then each tensor's payload read
 * from the file into the block the tensor will keep, so that the file is never in memory
 * twice. *mp NULL with OSC_OK: protobuf-c refused the bytes. */
static osc_status unpack_file(const osc_src *src, osc_pb_alloc *pa, Onnx__ModelProto **mp,
                              osc_err *err) {
    osc_pb_skeleton sk;
    osc_status st = osc_pb_skeleton_build(&onnx__model_proto__descriptor, src, "model", pa->a,
                                          &sk, err);
    if (st) return st;
    *mp = onnx__model_proto__unpack(&pa->pc, sk.len, sk.buf);
    osc_free(sk.a, sk.buf, sk.cap); /* protobuf-c copied what it keeps */
    sk.buf = NULL;
    sk.cap = 0;
    if (*mp && (st = osc_pb_payloads_fill(&(*mp)->base, &sk, src, pa, err)) ==
                   OSC_ERR_UNSUPPORTED) {
        onnx__model_proto__free_unpacked(*mp, &pa->pc);
        st = OSC_OK;
        if (!(*mp = unpack_whole(src, pa, err)) && err->status) st = err->status;
    }
    osc_pb_skeleton_free(&sk);
    if (st && *mp) {
        onnx__model_proto__free_unpacked(*mp, &pa->pc);
        *mp = NULL;
    }
    return st;
}

/* Unpacks the model: bytes in memory as they are, after the prescan (a skeleton would be a copy
 * beside them, for nothing: the caller's bytes stay); a file by unpack_file. */
static osc_status unpack(const osc_src *src, osc_pb_alloc *pa, Onnx__ModelProto **out,
                         osc_err *err) {
    Onnx__ModelProto *mp = NULL;
    osc_status st = src->fd >= 0 ? unpack_file(src, pa, &mp, err)
                                 : osc_pb_prescan(&onnx__model_proto__descriptor, src->mem,
                                                  (size_t)src->len, "model", err);
    if (st) return st;
    if (src->fd < 0) mp = onnx__model_proto__unpack(&pa->pc, (size_t)src->len, src->mem);
    if (!mp)
        return pa->failed ? osc_pb_alloc_report(pa, src->len, err)
                          : osc_fail(err, OSC_ERR_PARSE, "bytes are not a valid ModelProto "
                                     "(%llu bytes)", (unsigned long long)src->len);
    *out = mp;
    return OSC_OK;
}

osc_status osc_loader_parse_model_src(const osc_src *src, const char *base_dir,
                                      const osc_limits *lim, osc_pool *pool, osc_graph *g,
                                      osc_err *err) {
    osc_limits def = {0, (uint64_t)OSC_DEFAULT_MAX_STRING_MIB << 20, OSC_DEFAULT_MAX_NODES,
                      OSC_MAX_RANK, OSC_DEFAULT_MAX_ITERATIONS};
    if (!lim) lim = &def;
    if (!src || !pool || !g || !err) {
        if (err) osc_fail(err, OSC_ERR_ARG, "osc_loader_parse_model: NULL argument");
        return OSC_ERR_ARG;
    }
    memset(g, 0, sizeof *g);
    if (src->len == 0) return osc_fail(err, OSC_ERR_PARSE, "model bytes are empty");
    if (src->len > SIZE_MAX / OSC_PB_AMPLIFICATION)
        return osc_fail(err, OSC_ERR_LIMIT, "the model's %llu bytes are more than this machine "
                        "can unpack", (unsigned long long)src->len);
    osc_pb_alloc pa;
    osc_pb_alloc_init(&pa, pool->alloc, pool, osc_pb_budget((size_t)src->len));
    Onnx__ModelProto *mp = NULL;
    osc_status st = unpack(src, &pa, &mp, err);
    if (st) return st;
    int64_t nodes_left = lim->max_nodes;
    ctx c = {.g = g, .pool = pool, .a = pool->alloc, .err = err, .base_dir = base_dir,
             .lim = lim, .nodes_left = &nodes_left};
    st = load_model(&c, mp);
    osc_names_free(&c.names);
    if (c.declared) osc_free(c.a, c.declared, ((size_t)g->n_values + 1) * sizeof *c.declared);
    onnx__model_proto__free_unpacked(mp, &pa.pc);
    return st;
}
