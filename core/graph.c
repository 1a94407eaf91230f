/* graph.c: small lookups over the in-memory model. */
#include "graph.h"

#include <stdio.h>
#include <string.h>

const char *osc_node_label(const osc_graph *g, const osc_node *n, char *buf, size_t size) {
    if (n->name && n->name[0]) {
        snprintf(buf, size, "'%s'", n->name);
    } else {
        bool in_g = g && n >= g->nodes && n < g->nodes + g->n_nodes;
        if (in_g) snprintf(buf, size, "#%lld %s", (long long)(n - g->nodes), n->op_type);
        else snprintf(buf, size, "#? %s", n->op_type); /* a node outside any graph (tests) */
    }
    return buf;
}

const osc_attr *osc_node_attr(const osc_node *n, const char *name) {
    for (int32_t i = 0; i < n->n_attrs; i++)
        if (strcmp(n->attrs[i].name, name) == 0) return &n->attrs[i];
    return NULL;
}

int64_t osc_graph_opset(const osc_graph *g, const char *domain) {
    for (int32_t i = 0; i < g->n_opsets; i++)
        if (strcmp(g->opsets[i].domain, domain) == 0) return g->opsets[i].version;
    return -1;
}
