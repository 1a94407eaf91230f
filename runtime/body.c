/* body.c: subgraphs (If's branches, Loop's and Scan's bodies). Each GRAPH attribute is prepared
 * at load as a model of its own (osc_model_from_graph: its options and limits, its bytes in the
 * model's cap), whose inputs are the subgraph's own and then the names it reads from around it.
 * Kernels run it through osc_body_run: in a session, through a session of the subgraph that the
 * session keeps (made at the first call, so its plan and arena serve every later iteration and
 * run); at load (folding), through a session made for the call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"

/* A value of the graph and its position among a node's inputs. */
typedef struct value_at {
    int32_t v, j;
} value_at;

static int by_value(const void *a, const void *b) {
    const int32_t x = ((const value_at *)a)->v, y = ((const value_at *)b)->v;
    return x < y ? -1 : x > y;
}

/* b->capture_at: where among n's inputs each value subgraph g captures is (the loader put it
 * among the implicit ones), found in `at`, n's implicit inputs sorted by value. */
static osc_status capture_positions(osc_model *b, const osc_graph *g, const value_at *at,
                                    size_t n_at, osc_err *err) {
    b->capture_at = osc_pool_alloc(&b->pool, ((size_t)g->n_captures + 1) * sizeof(int32_t));
    if (!b->capture_at) return osc_fail(err, OSC_ERR_NOMEM, "out of memory loading subgraphs");
    for (int32_t k = 0; k < g->n_captures; k++) {
        const value_at key = {g->capture_outer[k], 0};
        const value_at *p = bsearch(&key, at, n_at, sizeof *at, by_value);
        if (!p) return osc_fail(err, OSC_ERR_MODEL, "subgraph '%s' reads a value its node does "
                                "not hold", g->name); /* the loader put each there */
        b->capture_at[k] = p->j;
    }
    return OSC_OK;
}

/* The model of n's GRAPH attribute at (none for other attributes), added to m->bodies. */
static osc_status load_one(osc_model *m, osc_node *n, osc_attr *at, const value_at *at_pos,
                           size_t n_at, osc_err *err) {
    if (at->type != OSC_ATTR_GRAPH || !at->g) return OSC_OK;
    if (m->n_bodies == m->bodies_cap) { /* doubled: growing by one was quadratic */
        const int32_t cap = m->bodies_cap ? 2 * m->bodies_cap : 4;
        osc_model **bodies = osc_pool_alloc(&m->pool, (size_t)cap * sizeof *bodies);
        if (!bodies) return osc_fail(err, OSC_ERR_NOMEM, "out of memory loading subgraphs");
        if (m->n_bodies) memcpy(bodies, m->bodies, (size_t)m->n_bodies * sizeof *bodies);
        m->bodies = bodies;
        m->bodies_cap = cap;
    }
    osc_model *b;
    osc_status st = osc_model_from_graph(m, at->g, &b, err);
    if (b) m->bodies[m->n_bodies++] = b;
    if (st) {
        char msg[OSC_MSG_SIZE], label[256];
        snprintf(msg, sizeof msg, "%s", err->msg);
        osc_err_clear(err); /* the subgraph's message, with where it is */
        return osc_fail(err, st, "node %s (%s): subgraph '%s' (attribute '%s'): %s",
                        osc_node_label(&m->g, n, label, sizeof label), n->op_type,
                        at->g->name, at->name, msg);
    }
    b->body_id = m->n_bodies - 1;
    st = capture_positions(b, at->g, at_pos, n_at, err);
    if (st) return st;
    at->body = b;
    return OSC_OK;
}

osc_status osc_body_load(osc_model *m, osc_node *n, osc_err *err) {
    bool graphs = false;
    for (int32_t a = 0; a < n->n_attrs; a++) graphs |= n->attrs[a].type == OSC_ATTR_GRAPH;
    if (!graphs) return OSC_OK;
    const size_t n_at = (size_t)n->n_implicit;
    value_at *at_pos = osc_malloc(&m->alloc, (n_at + 1) * sizeof *at_pos);
    if (!at_pos) return osc_fail(err, OSC_ERR_NOMEM, "out of memory loading subgraphs");
    for (size_t k = 0; k < n_at; k++) {
        const int32_t j = n->n_inputs - n->n_implicit + (int32_t)k;
        at_pos[k] = (value_at){n->inputs[j], j};
    }
    qsort(at_pos, n_at, sizeof *at_pos, by_value);
    osc_status st = OSC_OK;
    for (int32_t a = 0; !st && a < n->n_attrs; a++)
        st = load_one(m, n, &n->attrs[a], at_pos, n_at, err);
    osc_free(&m->alloc, at_pos, (n_at + 1) * sizeof *at_pos);
    return st;
}

void osc_body_release(osc_model *m) {
    for (int32_t b = 0; b < m->n_bodies; b++) {
        osc_body_release(m->bodies[b]);
        osc_session_free(m->bodies[b]->load_session);
        m->bodies[b]->load_session = NULL;
    }
}

/* The session subgraph b runs in: the one session s keeps, or at load (no session) the one b
 * keeps until the load ends (osc_body_release). */
static osc_status body_session(osc_kctx *k, osc_model *b, osc_session **out) {
    osc_session *s = k->body_ud;
    osc_session **keep = s ? &s->bodies[b->body_id] : &b->load_session;
    if (*keep) {
        *out = *keep;
        return OSC_OK;
    }
    osc_status st = s ? osc_session_create_body(b, s, keep) : osc_session_create(b, keep);
    *out = *keep;
    if (st) return osc_kfail(k, st, "cannot make a session for its subgraph (%s)",
                             st == OSC_ERR_LIMIT ? "byte cap" : "out of memory");
    return OSC_OK;
}

osc_status osc_body_run(osc_kctx *k, const osc_attr *graph, const osc_tensor *const *in,
                        int32_t n_in, const osc_tensor *const *node_in, osc_tensor *out,
                        int32_t n_out, const char *what) {
    osc_model *b = graph->body;
    const osc_graph *g = &b->g;
    const int32_t own = g->n_inputs - g->n_captures;
    if (n_in != own || n_out != g->n_outputs)
        return osc_kfail(k, OSC_ERR_MODEL, "%s: subgraph '%s' takes %d inputs and gives %d "
                         "outputs; the node passes %d and expects %d", what, g->name, (int)own,
                         (int)g->n_outputs, (int)n_in, (int)n_out);
    osc_session *s;
    osc_status st = body_session(k, b, &s);
    if (st) return st;
    for (int32_t i = 0; !st && i < g->n_inputs; i++) {
        const osc_tensor *t = i < own ? in[i] : node_in[b->capture_at[i - own]];
        st = osc_session_set_input(s, g->values[g->inputs[i]].name, t);
    }
    if (!st) st = osc_session_run(s);
    if (st) {
        osc_kfail(k, st, "%s: subgraph '%s': %s", what, g->name, osc_session_error(s));
    } else {
        for (int32_t o = 0; o < n_out; o++) out[o] = s->vals[g->outputs[o]];
    }
    return st;
}
