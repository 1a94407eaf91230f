/* kernel.c: what every kernel calls: node-named errors and warnings, parameters, type constraints. */
#include <stdio.h>

#include "kernel.h"

static int node_prefix(const osc_kctx *k, char *buf, size_t size) {
    const osc_node *n = k->node;
    return snprintf(buf, size, "node '%s' (%s-%lld): ", n->name, n->op_type,
                    (long long)k->since_version);
}

osc_status osc_kfail(osc_kctx *k, osc_status status, const char *fmt, ...) {
    char msg[OSC_MSG_SIZE];
    int p = node_prefix(k, msg, sizeof msg);
    if (p < 0 || (size_t)p >= sizeof msg) p = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + p, sizeof msg - (size_t)p, fmt, ap);
    va_end(ap);
    return osc_fail(k->err, status, "%s", msg);
}

void osc_kwarn(osc_kctx *k, const char *fmt, ...) {
    if (!k->warn) return;
    char msg[OSC_MSG_SIZE];
    int p = node_prefix(k, msg, sizeof msg);
    if (p < 0 || (size_t)p >= sizeof msg) p = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + p, sizeof msg - (size_t)p, fmt, ap);
    va_end(ap);
    k->warn(k->warn_ud, msg);
}

const char *osc_kinput_name(const osc_kctx *k, int32_t i) {
    const osc_node *n = k->node;
    if (!k->graph || i < 0 || i >= n->n_inputs || n->inputs[i] < 0) return "";
    return k->graph->values[n->inputs[i]].name;
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
