/* infer.c: shape inference: over a range of nodes (osc_infer_range, which also runs the shape
 * nodes into their session slots: osc_run_node, one node's kernel), rank and input type checks,
 * and the static inference and arena plan at load when every input shape is known. */
#include <stdio.h>
#include <string.h>

#include "core/dtype.h"
#include "model.h"

bool osc_node_ready(const osc_model *m, int32_t i, const bool *known) {
    const osc_node *n = &m->g.nodes[i];
    uint32_t reads = n->kernel->infer_reads;
    for (int32_t j = 0; reads && known && j < n->n_inputs && j < 32; j++)
        if ((reads >> j & 1u) && n->inputs[j] >= 0 && !known[n->inputs[j]]) return false;
    return true;
}

osc_status osc_check_input_type(const osc_graph *g, int32_t i, int32_t j, int32_t dtype,
                                 osc_err *err) {
    const osc_node *n = &g->nodes[i];
    osc_typeset allowed = osc_kernel_types(n->kernel, j);
    if (dtype > 0 && dtype < 64 && (allowed >> dtype & 1u)) return OSC_OK;
    char types[320], label[256];
    return osc_fail(err, OSC_ERR_SHAPE, "node %s (%s-%lld): input %d '%s' has dtype %s; "
                    "expected %s (the type constraint of %s-%lld)",
                    osc_node_label(g, n, label, sizeof label), n->op_type,
                    (long long)n->kernel->since, (int)j, g->values[n->inputs[j]].name,
                    osc_dtype_get(dtype)->name, osc_typeset_str(allowed, types, sizeof types),
                    n->op_type, (long long)n->kernel->since);
}

void osc_gather_inputs(const osc_node *n, osc_tensor *vals, osc_node_io io) {
    for (int32_t j = 0; j < n->n_inputs; j++)
        io.ins[j] = n->inputs[j] >= 0 ? &vals[n->inputs[j]] : NULL;
}

osc_status osc_run_node(const osc_model *m, int32_t i, osc_tensor *vals, osc_node_io io,
                        osc_kctx *k) {
    const osc_node *n = &m->g.nodes[i];
    osc_gather_inputs(n, vals, io);
    for (int32_t j = 0; j < n->n_outputs; j++)
        osc_tensor_assign(&io.outs[j], &vals[n->outputs[j]]);
    return n->kernel->run(k, io.ins, n->n_inputs, io.outs, n->n_outputs);
}

osc_status osc_infer_range(const osc_model *m, osc_tensor *vals, const bool *known, int32_t from,
                           int32_t end, int32_t *stop, osc_node_io io, osc_err *err) {
    const osc_graph *g = &m->g;
    int32_t i = from;
    for (; i < end; i++) {
        const osc_node *n = &g->nodes[i];
        if (n->folded) continue;
        if (!osc_node_ready(m, i, known)) break;
        osc_gather_inputs(n, vals, io);
        memset(io.outs, 0, (size_t)n->n_outputs * sizeof *io.outs);
        osc_kctx k = {.err = err, .graph = g, .node = n,
                      .row = n->kernel, .since_version = n->kernel->since, .params = n->params,
                      .alloc = io.alloc, .strict = m->opts.strict != 0};
        osc_status st = OSC_OK;
        for (int32_t j = 0; j < n->n_inputs && !st; j++)
            if (io.ins[j]) st = osc_check_input_type(&m->g, i, j, io.ins[j]->dtype, err);
        if (!st) st = n->kernel->infer(&k, io.ins, n->n_inputs, io.outs, n->n_outputs);
        if (st) return st;
        /* a shape node's values go to the session's slots (their data pointers), if any */
        bool slots = m->shape_node && m->shape_node[i];
        for (int32_t j = 0; j < n->n_outputs; j++) {
            osc_tensor *o = &io.outs[j];
            int64_t count = osc_tensor_count(o);
            char label[256];
            if (count < 0 || !osc_dtype_bytes(o->dtype, count, &o->nbytes))
                return osc_fail(err, OSC_ERR_LIMIT,
                                "node %s (%s): output %d has too many elements to address",
                                osc_node_label(g, n, label, sizeof label), n->op_type, j);
            const int32_t v = n->outputs[j];
            o->data = slots && v >= 0 && o->nbytes <= OSC_SHAPE_SLOT ? vals[v].data : NULL;
            slots = slots && o->data;
            if (v >= 0) vals[v] = *o;
        }
        if (slots && (st = osc_run_node(m, i, vals, io, &k))) return st;
    }
    *stop = i;
    return OSC_OK;
}

osc_status osc_check_ranks(const osc_model *m, const osc_tensor *vals, int32_t from, int32_t to,
                           osc_err *err) {
    for (int32_t i = from; i < to; i++) {
        const osc_node *n = &m->g.nodes[i];
        for (int32_t j = 0; !n->folded && j < n->n_outputs; j++) {
            int32_t v = n->outputs[j];
            char label[256];
            if (v >= 0 && vals[v].rank > m->lim.max_rank)
                return osc_fail(err, OSC_ERR_LIMIT, "node %s (%s): output '%s' has rank %d; the "
                                "limit is %d (opts.max_rank)",
                                osc_node_label(&m->g, n, label, sizeof label), n->op_type,
                                m->g.values[v].name, (int)vals[v].rank, (int)m->lim.max_rank);
        }
    }
    return OSC_OK;
}

bool osc_type_static(const osc_type *t) {
    if (t->dtype == 0 || t->rank < 0) return false;
    for (int32_t d = 0; d < t->rank; d++)
        if (t->dims[d] < 0) return false;
    return true;
}

/* The shape a graph input or initializer has before any binding, into vals[v]. */
void osc_seed_value(const osc_value *val, osc_tensor *t) {
    memset(t, 0, sizeof *t);
    if (val->init) {
        *t = *val->init;
        return;
    }
    t->dtype = val->decl.dtype;
    t->rank = val->decl.rank;
    memcpy(t->dims, val->decl.dims, sizeof t->dims);
    int64_t count = osc_tensor_count(t);
    if (count >= 0) osc_dtype_bytes(t->dtype, count, &t->nbytes);
}

osc_node_io osc_node_io_alloc(osc_model *m) {
    osc_node_io io = {osc_pool_alloc(&m->pool, (size_t)m->max_in * sizeof *io.ins),
                      osc_pool_alloc(&m->pool, (size_t)m->max_out * sizeof *io.outs),
                      &m->alloc};
    return io;
}

/* The smallest arena any run can have is the plan with every graph output in a caller buffer.
 * When even that exceeds the byte cap, no session could ever run: refuse the model now, before
 * a session allocates anything (a model claiming a 10^12-element intermediate fails here). */
static osc_status check_min_arena(osc_model *m, const uint64_t *need, uint64_t *sizes,
                                  uint64_t *scratch, uint64_t *offsets, osc_err *err) {
    if (!m->lim.max_bytes || m->arena_bytes <= m->lim.max_bytes) return OSC_OK;
    bool *outside = osc_pool_alloc(&m->pool, ((size_t)m->n_bufs + 1) * sizeof *outside);
    if (!outside) return osc_fail(err, OSC_ERR_NOMEM, "out of memory inferring shapes");
    for (int32_t o = 0; o < m->g.n_outputs; o++)
        if (m->buf_of[m->g.outputs[o]] >= 0) outside[m->buf_of[m->g.outputs[o]]] = true;
    uint64_t least = osc_plan_run(m, need, outside, sizes, scratch, offsets);
    if (least <= m->lim.max_bytes) return OSC_OK;
    int32_t big = -1; /* the largest value that must live in the arena, for the message */
    for (int32_t v = 0; v < m->g.n_values; v++) {
        int32_t b = m->buf_of[v];
        if (b >= 0 && !outside[b] && m->buf_input[b] < 0 &&
            (big < 0 || m->static_vals[v].nbytes > m->static_vals[big].nbytes))
            big = v;
    }
    return osc_fail(err, OSC_ERR_LIMIT, "the model's shapes need an arena of at least %llu bytes "
                    "(largest value '%s', %zu bytes); opts.max_bytes is %llu",
                    (unsigned long long)least, big >= 0 ? m->g.values[big].name : "?",
                    big >= 0 ? m->static_vals[big].nbytes : (size_t)0,
                    (unsigned long long)m->lim.max_bytes);
}


/* When every input is static, infer all shapes now, check declared outputs, and plan. */
osc_status osc_infer_static(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    if (m->dynamic) return OSC_OK;
    for (int32_t i = 0; i < g->n_inputs; i++) {
        const osc_value *val = &g->values[g->inputs[i]];
        if (!val->init && !osc_type_static(&val->decl)) return OSC_OK;
    }
    size_t nb = (size_t)m->n_bufs + 1;
    osc_tensor *vals = osc_pool_alloc(&m->pool, ((size_t)g->n_values + 1) * sizeof *vals);
    uint64_t *offsets = osc_pool_alloc(&m->pool, nb * sizeof *offsets);
    uint64_t *need = osc_pool_alloc(&m->pool, nb * sizeof *need);
    uint64_t *sizes = osc_pool_alloc(&m->pool, nb * sizeof *sizes);
    uint64_t *scratch = osc_pool_alloc(&m->pool, OSC_PLAN_SCRATCH(nb) * sizeof *scratch);
    if (!vals || !offsets || !need || !sizes || !scratch)
        return osc_fail(err, OSC_ERR_NOMEM, "out of memory inferring shapes");
    for (int32_t v = 0; v < g->n_values; v++)
        if (g->values[v].producer < 0 || g->values[v].init) osc_seed_value(&g->values[v], &vals[v]);
    osc_node_io io = osc_node_io_alloc(m);
    if (!io.ins || !io.outs) return osc_fail(err, OSC_ERR_NOMEM, "out of memory inferring shapes");
    int32_t stop;
    osc_status st = osc_infer_range(m, vals, NULL, 0, g->n_nodes, &stop, io, err);
    if (!st) st = osc_check_ranks(m, vals, 0, g->n_nodes, err);
    if (st) return st;
    for (int32_t o = 0; o < g->n_outputs; o++) {
        const osc_value *val = &g->values[g->outputs[o]];
        const osc_tensor *t = &vals[g->outputs[o]];
        bool bad = (val->decl.dtype && val->decl.dtype != t->dtype) ||
                   (val->decl.rank >= 0 && val->decl.rank != t->rank), stale = false;
        for (int32_t d = 0; !bad && val->decl.rank >= 0 && d < t->rank; d++)
            stale = stale || (val->decl.dims[d] >= 0 && val->decl.dims[d] != t->dims[d]);
        if (!bad && !stale) continue;
        /* A stale declared dim (an exporter's leftover) is what onnxruntime warns about and
         * runs with the computed shape; a dtype or rank that differs is an error. */
        char msg[OSC_MSG_SIZE], want[160], got[160];
        snprintf(msg, sizeof msg, "graph output '%s' is declared as %s %s but the graph computes "
                 "%s %s", val->name, osc_dtype_get(val->decl.dtype)->name,
                 val->decl.rank < 0 ? "(any shape)"
                                    : osc_dims_str(val->decl.dims, val->decl.rank, want, sizeof want),
                 osc_dtype_get(t->dtype)->name, osc_dims_str(t->dims, t->rank, got, sizeof got));
        if (bad) return osc_fail(err, OSC_ERR_SHAPE, "%s", msg);
        if (m->opts.strict)
            return osc_fail(err, OSC_ERR_SHAPE, "%s (strict mode refuses a stale declared shape)",
                            msg);
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "; the computed shape is used");
        osc_model_warn(m, msg);
        if (m->warn_lost) return osc_fail(err, OSC_ERR_NOMEM, "out of memory storing a warning");
    }
    osc_buffer_need(m, vals, need);
    m->arena_bytes = osc_plan_run(m, need, NULL, sizes, scratch, offsets);
    m->static_vals = vals;
    return check_min_arena(m, need, sizes, scratch, offsets, err);
}
