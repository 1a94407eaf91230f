/* graph.c: small lookups over the in-memory model. */
#include "graph.h"

#include <string.h>

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
