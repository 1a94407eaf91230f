/* introspect.c: the osc_model_* getters and the registry calls (osc_op_count, osc_op_at,
 * osc_opset_newest). */
#include <string.h>

#include "ops/registry.h"
#include "model.h"

/* Names of each node's inputs and outputs, for osc_model_node. */
static size_t name_hash(const char *s) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return (size_t)(h ^ h >> 32);
}

/* The slot of m->value_slot where the value named `name` is, or the empty one it would take. */
static size_t name_slot(const osc_model *m, const char *name) {
    size_t i = name_hash(name) & (m->value_slots - 1);
    while (m->value_slot[i] >= 0 && strcmp(m->g.values[m->value_slot[i]].name, name))
        i = (i + 1) & (m->value_slots - 1);
    return i;
}

osc_status osc_name_node_io(osc_model *m, osc_err *err) {
    const osc_graph *g = &m->g;
    size_t slots = 16;
    while (slots < 2 * (size_t)g->n_values) slots *= 2;
    m->value_slot = osc_pool_alloc(&m->pool, slots * sizeof *m->value_slot);
    if (!m->value_slot) return osc_fail(err, OSC_ERR_NOMEM, "out of memory");
    m->value_slots = slots;
    memset(m->value_slot, 0xff, slots * sizeof *m->value_slot); /* every slot -1 */
    for (int32_t v = 0; v < g->n_values; v++) { /* the first of a name, as a scan would find */
        const size_t i = name_slot(m, g->values[v].name);
        if (m->value_slot[i] < 0) m->value_slot[i] = v;
    }
    size_t total = 0;
    for (int32_t i = 0; i < g->n_nodes; i++)
        total += (size_t)g->nodes[i].n_inputs + (size_t)g->nodes[i].n_outputs;
    m->io_names = osc_pool_alloc(&m->pool, (total + 1) * sizeof *m->io_names);
    m->io_start = osc_pool_alloc(&m->pool, ((size_t)g->n_nodes + 1) * sizeof *m->io_start);
    if (!m->io_names || !m->io_start) return osc_fail(err, OSC_ERR_NOMEM, "out of memory");
    int32_t k = 0;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const osc_node *n = &g->nodes[i];
        m->io_start[i] = k;
        for (int32_t j = 0; j < n->n_inputs; j++)
            m->io_names[k++] = n->inputs[j] >= 0 ? g->values[n->inputs[j]].name : "";
        for (int32_t j = 0; j < n->n_outputs; j++)
            m->io_names[k++] = n->outputs[j] >= 0 ? g->values[n->outputs[j]].name : "";
    }
    return OSC_OK;
}

int64_t osc_model_ir_version(const osc_model *m) { return m ? m->g.ir_version : 0; }
size_t osc_model_opset_count(const osc_model *m) { return m ? (size_t)m->g.n_opsets : 0; }

osc_status osc_model_opset(const osc_model *m, size_t i, const char **domain, int64_t *version) {
    if (!m || i >= (size_t)m->g.n_opsets) return OSC_ERR_ARG;
    if (domain) *domain = m->g.opsets[i].domain;
    if (version) *version = m->g.opsets[i].version;
    return OSC_OK;
}

size_t osc_model_input_count(const osc_model *m) { return m ? (size_t)m->n_inputs : 0; }
size_t osc_model_output_count(const osc_model *m) { return m ? (size_t)m->g.n_outputs : 0; }

static void describe(const osc_model *m, int32_t v, osc_value_desc *out) {
    const osc_value *val = &m->g.values[v];
    memset(out, 0, sizeof *out);
    out->name = val->name;
    out->dtype = val->decl.dtype;
    out->rank = val->decl.rank;
    memcpy(out->dims, val->decl.dims, sizeof out->dims);
    memcpy(out->dim_names, val->decl.dim_names, sizeof out->dim_names);
    out->has_default = val->init != NULL;
    if (m->static_vals) { /* inferred shapes where everything is static */
        const osc_tensor *t = &m->static_vals[v];
        out->dtype = t->dtype;
        out->rank = t->rank;
        memcpy(out->dims, t->dims, sizeof out->dims);
    }
}

osc_status osc_model_input(const osc_model *m, size_t i, osc_value_desc *out) {
    if (!m || !out || i >= (size_t)m->n_inputs) return OSC_ERR_ARG;
    describe(m, m->input_order[i], out);
    return OSC_OK;
}

osc_status osc_model_output(const osc_model *m, size_t i, osc_value_desc *out) {
    if (!m || !out || i >= (size_t)m->g.n_outputs) return OSC_ERR_ARG;
    describe(m, m->g.outputs[i], out);
    return OSC_OK;
}

osc_status osc_model_meta(const osc_model *m, osc_meta_desc *out) {
    if (!m || !out) return OSC_ERR_ARG;
    const osc_graph *g = &m->g;
    *out = (osc_meta_desc){.producer_name = g->producer_name,
                           .producer_version = g->producer_version,
                           .domain = g->domain,
                           .model_version = g->model_version,
                           .doc_string = g->doc_string,
                           .graph_name = g->name,
                           .graph_doc_string = g->graph_doc_string,
                           .n_props = (size_t)g->n_props};
    return OSC_OK;
}

osc_status osc_model_meta_prop(const osc_model *m, size_t i, const char **key,
                               const char **value) {
    if (!m || i >= (size_t)m->g.n_props) return OSC_ERR_ARG;
    if (key) *key = m->g.prop_keys[i];
    if (value) *value = m->g.prop_values[i];
    return OSC_OK;
}

size_t osc_model_node_count(const osc_model *m) { return m ? (size_t)m->g.n_nodes : 0; }

osc_status osc_model_node(const osc_model *m, size_t i, osc_node_desc *out) {
    if (!m || !out || i >= (size_t)m->g.n_nodes) return OSC_ERR_ARG;
    const osc_node *n = &m->g.nodes[i];
    out->name = n->name;
    out->op_type = n->op_type;
    out->domain = n->domain;
    out->since_version = n->kernel->since;
    out->opset = n->opset;
    out->n_inputs = n->n_inputs;
    out->inputs = &m->io_names[m->io_start[i]];
    out->n_outputs = n->n_outputs;
    out->outputs = &m->io_names[m->io_start[i] + n->n_inputs];
    out->folded = n->folded;
    out->n_fused = n->n_fused;
    out->fused_names = n->fused_names;
    out->fused_ops = n->fused_ops;
    out->fused_rule = n->fused_rule;
    out->not_fused = n->fused_rule ? NULL : n->not_fused;
    memset(out->reserved, 0, sizeof out->reserved); /* fields of a newer header read zero */
    return OSC_OK;
}

static const osc_attr *node_attr(const osc_model *m, size_t i, const char *name, int32_t type) {
    if (!m || !name || i >= (size_t)m->g.n_nodes) return NULL;
    const osc_attr *a = osc_node_attr(&m->g.nodes[i], name);
    return (a && a->type == type) ? a : NULL;
}

osc_status osc_model_node_attr_int(const osc_model *m, size_t i, const char *name,
                                   int64_t *value) {
    const osc_attr *a = node_attr(m, i, name, OSC_ATTR_INT);
    if (!a || !value) return OSC_ERR_ARG;
    *value = a->i;
    return OSC_OK;
}

osc_status osc_model_node_attr_str(const osc_model *m, size_t i, const char *name,
                                   const char **value) {
    const osc_attr *a = node_attr(m, i, name, OSC_ATTR_STRING);
    if (!a || !value) return OSC_ERR_ARG;
    *value = a->s;
    return OSC_OK;
}

size_t osc_model_node_attr_count(const osc_model *m, size_t i) {
    return m && i < (size_t)m->g.n_nodes ? (size_t)m->g.nodes[i].n_attrs : 0;
}

osc_status osc_model_node_attr_at(const osc_model *m, size_t i, size_t k, osc_attr_desc *out) {
    if (!m || !out || i >= (size_t)m->g.n_nodes || k >= (size_t)m->g.nodes[i].n_attrs)
        return OSC_ERR_ARG;
    const osc_attr *a = &m->g.nodes[i].attrs[k];
    *out = (osc_attr_desc){.name = a->name, .type = a->type, .i = a->i, .f = a->f, .s = a->s,
                           .s_len = a->s_len, .n = a->n, .ints = a->ints, .floats = a->floats,
                           .t = a->t};
    if (a->type != OSC_ATTR_INTS) out->ints = NULL;
    if (a->type != OSC_ATTR_FLOATS) out->floats = NULL;
    if (a->type != OSC_ATTR_INTS && a->type != OSC_ATTR_FLOATS) out->n = 0;
    if (a->type != OSC_ATTR_TENSOR) out->t = NULL;
    return OSC_OK;
}

const osc_model *osc_model_node_subgraph(const osc_model *m, size_t i, size_t k) {
    if (!m || i >= (size_t)m->g.n_nodes || k >= (size_t)m->g.nodes[i].n_attrs) return NULL;
    return m->g.nodes[i].attrs[k].body;
}

/* The value named `name` that is still part of the graph (an input, a constant, or produced
 * by a node); -1 otherwise. */
static int32_t find_value(const osc_model *m, const char *name) {
    if (!m || !name || !m->value_slots) return -1;
    const int32_t v = m->value_slot[name_slot(m, name)];
    if (v < 0) return -1;
    const osc_value *val = &m->g.values[v];
    return val->is_input || val->init || val->producer >= 0 || val->is_output ? v : -1;
}

osc_status osc_model_value(const osc_model *m, const char *name, osc_value_desc *out) {
    int32_t v = find_value(m, name);
    if (v < 0 || !out) return OSC_ERR_ARG;
    describe(m, v, out);
    if (!m->static_vals && m->fold_shaped && m->fold_shaped[v]) { /* what folding worked out */
        const osc_tensor *t = &m->fold_vals[v];
        out->dtype = t->dtype;
        out->rank = t->rank;
        memcpy(out->dims, t->dims, sizeof out->dims);
        memset(out->dim_names, 0, sizeof out->dim_names);
    }
    return OSC_OK;
}

osc_status osc_model_value_data(const osc_model *m, const char *name, osc_tensor *out) {
    int32_t v = find_value(m, name);
    const osc_tensor *t = v >= 0 ? m->g.values[v].init : NULL;
    if (!t || !out || m->g.values[v].is_input || (!t->data && t->nbytes)) return OSC_ERR_ARG;
    *out = *t;
    return OSC_OK;
}

uint64_t osc_model_arena_bytes(const osc_model *m) { return m ? m->arena_bytes : 0; }
size_t osc_model_warning_count(const osc_model *m) { return m ? (size_t)m->n_warnings : 0; }

const char *osc_model_warning(const osc_model *m, size_t i) {
    return (m && i < (size_t)m->n_warnings) ? m->warnings[i] : NULL;
}

osc_status osc_model_options(const osc_model *m, osc_options *out) {
    if (!m || !out) return OSC_ERR_ARG;
    *out = m->opts;
    return OSC_OK;
}

osc_status osc_model_node_inplace(const osc_model *m, size_t i, int32_t *mode) {
    if (!m || !mode || i >= (size_t)m->g.n_nodes) return OSC_ERR_ARG;
    *mode = m->node_inplace[i];
    return OSC_OK;
}

/* ---- the registry ---- */

size_t osc_op_count(void) { return osc_kernel_count(); }

osc_status osc_op_at(size_t i, osc_op_desc *out) {
    const osc_kernel *r = osc_kernel_at(i);
    if (!r || !out) return OSC_ERR_ARG;
    *out = (osc_op_desc){.domain = r->domain ? r->domain : "", .op_type = r->op,
                         .since_version = r->since, .until_version = r->until,
                         .min_inputs = r->inputs.min,
                         .max_inputs = r->inputs.max == OSC_VARIADIC ? -1 : r->inputs.max,
                         .n_outputs = r->outputs == OSC_VARIADIC ? -1 : r->outputs,
                         .min_outputs = r->outputs_min ? r->outputs_min : r->outputs,
                         .deprecated = (r->flags & OSC_KF_DEPRECATED) != 0};
    /* the compound literal zeroes the members it does not name: reserved[] included */
    return OSC_OK;
}

int64_t osc_opset_newest(const char *domain) {
    if (!domain) return -1;
    return !domain[0] || strcmp(domain, "ai.onnx") == 0 ? OSC_OPSET_NEWEST : -1;
}
