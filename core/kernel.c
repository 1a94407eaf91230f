/* kernel.c: what every kernel calls: node-named errors and warnings, parameters, type constraints. */
#include <stdio.h>

#include "kernel.h"

/* "node 'n' (Op-V): " ("node #3 Op (Op-V): " when unnamed), then the formatted message. */
static void node_message(const osc_kctx *k, char *msg, size_t size, const char *fmt, va_list ap) {
    const osc_node *n = k->node;
    char label[256];
    int p = snprintf(msg, size, "node %s (%s-%lld): ",
                     osc_node_label(k->graph, n, label, sizeof label), n->op_type,
                     (long long)k->since_version);
    if (p < 0 || (size_t)p >= size) p = 0;
    vsnprintf(msg + p, size - (size_t)p, fmt, ap);
}

osc_status osc_kfail(osc_kctx *k, osc_status status, const char *fmt, ...) {
    char msg[OSC_MSG_SIZE];
    va_list ap;
    va_start(ap, fmt);
    node_message(k, msg, sizeof msg, fmt, ap);
    va_end(ap);
    return osc_fail(k->err, status, "%s", msg);
}

void osc_kwarn(osc_kctx *k, const char *fmt, ...) {
    if (!k->warn) return;
    char msg[OSC_MSG_SIZE];
    va_list ap;
    va_start(ap, fmt);
    node_message(k, msg, sizeof msg, fmt, ap);
    va_end(ap);
    k->warn(k->warn_ud, msg);
}

const char *osc_kinput_name(const osc_kctx *k, int32_t i) {
    return i >= 0 && i < k->node->n_inputs ? osc_kvalue_name(k, k->node->inputs[i]) : "";
}

const char *osc_kvalue_name(const osc_kctx *k, int32_t id) {
    return k->graph && id >= 0 && id < k->graph->n_values ? k->graph->values[id].name : "";
}

void *osc_kparams(osc_kctx *k, size_t size) {
    void *p = k->pool ? osc_pool_alloc(k->pool, size) : NULL;
    if (!p) osc_kfail(k, OSC_ERR_NOMEM, "out of memory for the node's parameters");
    return p;
}

osc_typeset osc_kernel_types(const osc_kernel *r, int32_t i) {
    osc_typeset t = 0;
    for (int32_t j = 0; j < OSC_TYPED_INPUTS && j <= i; j++)
        if (r->types[j]) t = r->types[j];
    return t;
}

void *osc_kshared(osc_kctx *k, const void *key, size_t size, void (*drop)(void *state)) {
    osc_kstore *s = k->store;
    if (!s) return NULL;
    for (int32_t i = 0; i < s->n; i++)
        if (s->e[i].key == key) return s->e[i].size == size ? s->e[i].state : NULL;
    void *state = s->n < OSC_KSTORE_MAX ? osc_calloc(s->alloc, 1, size) : NULL;
    if (!state) return NULL;
    s->e[s->n].key = key;
    s->e[s->n].state = state;
    s->e[s->n].size = size;
    s->e[s->n++].drop = drop;
    return state;
}

void *osc_kslot_state(osc_kctx *k, size_t size, void (*drop)(void *p)) {
    if (!k->slot || !k->run) return NULL;
    if (!k->slot->p && (k->slot->p = osc_calloc(k->alloc, 1, size))) k->slot->drop = drop;
    return k->slot->p;
}

void osc_kstore_free(osc_kstore *s) {
    for (int32_t i = 0; i < s->n; i++) {
        if (s->e[i].drop) s->e[i].drop(s->e[i].state);
        osc_free(s->alloc, s->e[i].state, s->e[i].size);
    }
    s->n = 0;
}

osc_status osc_kcancelled(osc_kctx *k) {
    if (!k->cancel || !atomic_load_explicit(k->cancel, memory_order_relaxed)) return OSC_OK;
    return osc_kfail(k, OSC_ERR_CANCELLED, "the run was cancelled (osc_session_cancel)");
}
