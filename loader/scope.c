/* scope.c: the names a subgraph (If's branches, Loop's and Scan's bodies) reads from the graphs
 * around it. A name a graph uses (node inputs, graph outputs, the free names of its own
 * subgraphs) without defining it (graph inputs, initializers, node outputs) is free in it; the
 * loader makes each free name of a subgraph an input of that subgraph, bound to the enclosing
 * graph's value of that name (model_pb.c). */
#include <string.h>

#include "pb.h"

size_t osc_scope_refs(const Onnx__GraphProto *gp, int depth) {
    size_t n = gp->n_output;
    for (size_t i = 0; i < gp->n_node; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        n += np->n_input;
        for (size_t a = 0; depth < OSC_MAX_GRAPH_DEPTH && a < np->n_attribute; a++)
            if (np->attribute[a]->g) n += osc_scope_refs(np->attribute[a]->g, depth + 1);
    }
    return n;
}

static void add_free(osc_names *out, const osc_names *def, const char *s) {
    bool added;
    if (s && s[0] && osc_names_find(def, s) < 0) osc_names_add(out, s, &added);
}

static osc_status free_in(const Onnx__GraphProto *gp, osc_allocator *a, int depth,
                          osc_names *def, osc_names *out, osc_err *err) {
    bool added;
    for (size_t i = 0; i < gp->n_input; i++)
        if (gp->input[i]->name && gp->input[i]->name[0])
            osc_names_add(def, gp->input[i]->name, &added);
    for (size_t i = 0; i < gp->n_initializer; i++)
        if (gp->initializer[i]->name && gp->initializer[i]->name[0])
            osc_names_add(def, gp->initializer[i]->name, &added);
    for (size_t i = 0; i < gp->n_node; i++)
        for (size_t k = 0; k < gp->node[i]->n_output; k++)
            if (gp->node[i]->output[k][0]) osc_names_add(def, gp->node[i]->output[k], &added);
    for (size_t i = 0; i < gp->n_node; i++) {
        const Onnx__NodeProto *np = gp->node[i];
        for (size_t k = 0; k < np->n_input; k++) add_free(out, def, np->input[k]);
        for (size_t k = 0; k < np->n_attribute; k++) {
            if (!np->attribute[k]->g) continue;
            osc_names sub;
            osc_status st = osc_scope_free_names(np->attribute[k]->g, a, depth + 1, &sub, err);
            if (st) return st;
            for (int32_t j = 0; j < sub.n; j++) add_free(out, def, sub.keys[j]);
            osc_names_free(&sub);
        }
    }
    for (size_t i = 0; i < gp->n_output; i++) add_free(out, def, gp->output[i]->name);
    return OSC_OK;
}

osc_status osc_scope_free_names(const Onnx__GraphProto *gp, osc_allocator *a, int depth,
                                osc_names *out, osc_err *err) {
    memset(out, 0, sizeof *out);
    if (depth > OSC_MAX_GRAPH_DEPTH)
        return osc_fail(err, OSC_ERR_LIMIT, "subgraphs are nested %d deep; the limit is %d "
                        "(OSC_MAX_GRAPH_DEPTH)", depth, OSC_MAX_GRAPH_DEPTH);
    size_t n_def = gp->n_input + gp->n_initializer;
    for (size_t i = 0; i < gp->n_node; i++) n_def += gp->node[i]->n_output;
    osc_names def;
    osc_status st = osc_names_init(&def, a, n_def, "subgraph names", err);
    if (!st) st = osc_names_init(out, a, osc_scope_refs(gp, depth), "subgraph names", err);
    if (!st) st = free_in(gp, a, depth, &def, out, err);
    osc_names_free(&def);
    if (st) osc_names_free(out);
    return st;
}
