/* model.c: loading a model, resolving each node to a kernel, lifetimes, in-place buffers,
 * static shape inference, and the model introspection API. */
#include <stdio.h>
#include <string.h>

#include "../../loader/loader.h"
#include "../../ops/registry.h"
#include "../core/dtype.h"
#include "model.h"

static void add_warning(void *ud, const char *msg) {
    osc_model *m = ud;
    const char **w = osc_pool_alloc(&m->pool, ((size_t)m->n_warnings + 1) * sizeof *w);
    const char *copy = osc_pool_strdup(&m->pool, msg);
    if (!w || !copy) { /* the API promises every warning: the load fails instead */
        m->warn_lost = true;
        return;
    }
    if (m->n_warnings) memcpy(w, m->warnings, (size_t)m->n_warnings * sizeof *w);
    w[m->n_warnings++] = copy;
    m->warnings = w;
}

/* The default domain's opset against the newest this library knows: refused, or with
 * opts.newer_opsets run with the newest rows and a warning. */
static osc_status check_opsets(osc_model *m, osc_err *err) {
    int64_t v = osc_graph_opset(&m->g, "");
    if (v <= OSC_OPSET_NEWEST) return OSC_OK;
    if (!m->opts.newer_opsets)
        return osc_fail(err, OSC_ERR_UNSUPPORTED, "the model imports opset %lld of domain "
                        "'ai.onnx'; the newest this library knows is %d (a newer version may "
                        "change what an op means): set opts.newer_opsets (command line: "
                        "--newer-opsets) to run it with the opset %d kernels", (long long)v,
                        OSC_OPSET_NEWEST, OSC_OPSET_NEWEST);
    char msg[OSC_MSG_SIZE];
    snprintf(msg, sizeof msg, "the model imports opset %lld of domain 'ai.onnx', newer than the "
             "newest this library knows (%d); its nodes run with the opset %d kernels "
             "(opts.newer_opsets)", (long long)v, OSC_OPSET_NEWEST, OSC_OPSET_NEWEST);
    add_warning(m, msg);
    return OSC_OK;
}

/* Resolves every node to a kernel row. When some ops have no kernel, the message names the first
 * and lists every other unsupported op too, so a user sees all that is missing at once. */
static osc_status resolve(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    int32_t first = -1, missing = 0;
    char also[256] = "";
    size_t used = 0;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        osc_node *n = &g->nodes[i];
        n->opset = osc_graph_opset(g, n->domain);
        if (n->opset < 0)
            return osc_fail(err, OSC_ERR_MODEL,
                            "node '%s' (%s): the model imports no opset for domain '%s'", n->name,
                            n->op_type, n->domain[0] ? n->domain : "ai.onnx");
        int64_t v = !n->domain[0] && n->opset > OSC_OPSET_NEWEST ? OSC_OPSET_NEWEST : n->opset;
        n->kernel = osc_kernel_find(n->domain, n->op_type, v);
        if (n->kernel) continue;
        missing++;
        if (first < 0) {
            first = i;
            continue;
        }
        /* once the list is full, nothing more is appended: skip the scan, which would make a
         * graph of many distinct unknown ops quadratic */
        bool seen = used >= sizeof also - 1 || strcmp(n->op_type, g->nodes[first].op_type) == 0;
        for (int32_t j = first + 1; !seen && j < i; j++)
            seen = !g->nodes[j].kernel && strcmp(g->nodes[j].op_type, n->op_type) == 0 &&
                   strcmp(g->nodes[j].domain, n->domain) == 0;
        if (!seen && used < sizeof also)
            used += (size_t)snprintf(also + used, sizeof also - used, "%s%s-%lld",
                                     used ? ", " : "", n->op_type, (long long)n->opset);
    }
    if (first < 0) return OSC_OK;
    const osc_node *n = &g->nodes[first];
    return osc_fail(err, OSC_ERR_UNSUPPORTED,
                    "unsupported op %s-%lld (node '%s', domain '%s', opset %lld)%s; %d node(s) "
                    "without a kernel%s%s", n->op_type, (long long)n->opset, n->name,
                    n->domain[0] ? n->domain : "ai.onnx", (long long)n->opset,
                    osc_kernel_known(n->domain, n->op_type)
                        ? ": the opset is older than the first version implemented" : "",
                    (int)missing, used ? "; also unsupported: " : "", also);
}

/* Checks each node against its row (input/output counts, attributes) and sizes the scratch the
 * executor needs. */
static osc_status dispatch(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    osc_status st = resolve(m, err);
    if (st) return st;
    m->max_in = m->max_out = 1;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        osc_node *n = &g->nodes[i];
        const osc_kernel *kr = n->kernel;
        int32_t given = n->n_inputs;
        while (given > 0 && n->inputs[given - 1] < 0) given--; /* trailing omitted optionals */
        if (given < kr->inputs.min || given > kr->inputs.max || n->n_outputs != kr->outputs) {
            char most[16] = "any number of";
            if (kr->inputs.max != OSC_VARIADIC)
                snprintf(most, sizeof most, "%d", (int)kr->inputs.max);
            return osc_fail(err, OSC_ERR_MODEL,
                            "node '%s' (%s-%lld): has %d inputs and %d outputs; expected %d to %s "
                            "inputs and %d output(s)", n->name, n->op_type, (long long)kr->since,
                            given, n->n_outputs, kr->inputs.min, most, kr->outputs);
        }
        for (int32_t j = 0; j < kr->inputs.min; j++)
            if (n->inputs[j] < 0)
                return osc_fail(err, OSC_ERR_MODEL, "node '%s' (%s-%lld): required input %d is "
                                "empty", n->name, n->op_type, (long long)kr->since, j);
        for (int32_t j = 0; j < n->n_outputs; j++)
            if (n->outputs[j] < 0)
                return osc_fail(err, OSC_ERR_MODEL, "node '%s' (%s): output %d is empty; this "
                                "runtime needs every output named", n->name, n->op_type, j);
        n->n_inputs = given;
        if (given > m->max_in) m->max_in = given;
        if (n->n_outputs > m->max_out) m->max_out = n->n_outputs;
        osc_kctx k = {.err = err, .graph = g, .node = n, .since_version = kr->since,
                      .alloc = &m->alloc, .pool = &m->pool, .strict = m->opts.strict != 0,
                      .warn = add_warning, .warn_ud = m};
        if (kr->flags & OSC_KF_DEPRECATED) { /* the row's op version is deprecated (Scatter-11) */
            if (k.strict)
                return osc_kfail(&k, OSC_ERR_UNSUPPORTED, "deprecated, and strict mode refuses "
                                 "deprecated ops");
            osc_kwarn(&k, "deprecated; it still runs, with the semantics its spec states");
        }
        void *params = NULL;
        st = kr->init(&k, n, &params);
        if (st) return st;
        n->params = params;
        for (int32_t j = 0; j < n->n_inputs; j++) { /* dtypes known at load: declared, constant */
            const osc_value *val = n->inputs[j] >= 0 ? &g->values[n->inputs[j]] : NULL;
            int32_t dt = !val ? 0 : val->init ? val->init->dtype : val->decl.dtype;
            if (dt && (st = osc_check_input_type(g, i, j, dt, err))) return st;
        }
        if (m->warn_lost)
            return osc_fail(err, OSC_ERR_NOMEM, "node '%s' (%s): out of memory storing a warning",
                            n->name, n->op_type);
    }
    return OSC_OK;
}

/* Ops whose output 0 has, by their spec, exactly the dtype and shape of input 0: only these
 * write into a caller's input buffer, which holds nothing more than that input. */
static bool fits_input_buffer(const osc_node *n) {
    return (n->kernel->flags & OSC_KF_INPLACE_INPUT) != 0;
}

/* A graph input whose caller buffer a node may write in place (opts.inplace_inputs): bound by
 * the caller (no default: a default lives in the shared, immutable model) and not a string
 * tensor (the caller's osc_string array and bytes are theirs to free). Returns its input_order
 * index, or -1. */
static int32_t inplace_input_index(const osc_model *m, int32_t v) {
    const osc_value *val = &m->g.values[v];
    if (!m->opts.inplace_inputs || !val->is_input || val->producer >= 0 || val->init ||
        val->decl.dtype == OSC_UNDEFINED || val->decl.dtype == OSC_STRING)
        return -1;
    for (int32_t i = 0; i < m->n_inputs; i++)
        if (m->input_order[i] == v) return i;
    return -1;
}

/* Lifetimes and arena buffers. A node output gets its own buffer, except that an in-place
 * capable output shares input 0's buffer when that input dies at the node (used by no later
 * node; graph outputs never die) and is not read twice by it, and the input is an intermediate
 * or, with opts.inplace_inputs and a scatter op, a graph input the caller binds (its buffer then
 * becomes one held by the caller: no arena space; values in it must be scatter outputs). */
static osc_status plan_buffers(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    int32_t nv = g->n_values, nn = g->n_nodes;
    /* a buffer per node output at most, plus one per graph input held in place */
    size_t nb_max = (size_t)nv + 1;
    m->last_use = osc_pool_alloc(&m->pool, ((size_t)nv + 1) * sizeof *m->last_use);
    m->buf_of = osc_pool_alloc(&m->pool, ((size_t)nv + 1) * sizeof *m->buf_of);
    m->buf_first = osc_pool_alloc(&m->pool, nb_max * sizeof *m->buf_first);
    m->buf_last = osc_pool_alloc(&m->pool, nb_max * sizeof *m->buf_last);
    m->buf_input = osc_pool_alloc(&m->pool, nb_max * sizeof *m->buf_input);
    m->node_inplace = osc_pool_alloc(&m->pool, ((size_t)nn + 1) * sizeof *m->node_inplace);
    m->input_inplace = osc_pool_alloc(&m->pool, ((size_t)m->n_inputs + 1) *
                                                    sizeof *m->input_inplace);
    if (!m->last_use || !m->buf_of || !m->buf_first || !m->buf_last || !m->buf_input ||
        !m->node_inplace || !m->input_inplace)
        return osc_fail(err, OSC_ERR_NOMEM, "out of memory planning the model");
    for (int32_t v = 0; v < nv; v++) m->last_use[v] = m->buf_of[v] = -1;
    for (int32_t i = 0; i < nn; i++)
        for (int32_t j = 0; !g->nodes[i].folded && j < g->nodes[i].n_inputs; j++)
            if (g->nodes[i].inputs[j] >= 0) m->last_use[g->nodes[i].inputs[j]] = i;
    for (int32_t o = 0; o < g->n_outputs; o++) m->last_use[g->outputs[o]] = nn;

    m->n_bufs = 0;
    for (int32_t i = 0; i < nn; i++) {
        const osc_node *n = &g->nodes[i];
        m->node_inplace[i] = OSC_INPLACE_NONE;
        for (int32_t j = 0; !n->folded && j < n->n_outputs; j++) {
            int32_t v = n->outputs[j], d = n->n_inputs > 0 ? n->inputs[0] : -1;
            if (v < 0) continue;
            bool share = j == 0 && (n->kernel->flags & OSC_KF_INPLACE) && d >= 0 && m->last_use[d] == i;
            for (int32_t q = 1; share && q < n->n_inputs; q++)
                if (n->inputs[q] == d) share = false;
            if (share && m->buf_of[d] >= 0 && m->buf_input[m->buf_of[d]] >= 0 && !fits_input_buffer(n))
                share = false; /* d lives in a caller's input buffer: only scatters fit there */
            if (share && m->buf_of[d] < 0) { /* a graph input or an initializer */
                int32_t in = fits_input_buffer(n) ? inplace_input_index(m, d) : -1;
                share = in >= 0;
                if (share) {
                    int32_t b = m->n_bufs++;
                    m->buf_first[b] = 0;
                    m->buf_last[b] = i;
                    m->buf_input[b] = in;
                    m->buf_of[d] = b;
                    m->input_inplace[in] = true;
                }
            }
            int32_t b = share ? m->buf_of[d] : m->n_bufs++;
            if (!share) {
                m->buf_first[b] = i;
                m->buf_input[b] = -1;
            } else {
                m->node_inplace[i] = m->buf_input[b] >= 0 ? OSC_INPLACE_INPUT
                                                          : OSC_INPLACE_INTERMEDIATE;
            }
            m->buf_of[v] = b;
            int32_t end_ = m->last_use[v] < 0 ? i : m->last_use[v];
            if (!share || end_ > m->buf_last[b]) m->buf_last[b] = end_;
        }
    }
    return OSC_OK;
}

void osc_buffer_need(const osc_model *m, const osc_tensor *vals, uint64_t *need) {
    for (int32_t b = 0; b < m->n_bufs; b++) need[b] = 0;
    for (int32_t v = 0; v < m->g.n_values; v++) {
        int32_t b = m->buf_of[v];
        if (b >= 0 && m->buf_input[b] < 0 && vals[v].nbytes > need[b]) need[b] = vals[v].nbytes;
    }
}

uint64_t osc_plan_run(const osc_model *m, const uint64_t *need, const bool *external,
                      uint64_t *sizes, int32_t *scratch, uint64_t *offsets) {
    for (int32_t b = 0; b < m->n_bufs; b++) {
        bool outside = m->buf_input[b] >= 0 || (external && external[b]);
        /* aligned sizes keep every value's end inside its buffer's OSC_ALIGN-rounded slot */
        sizes[b] = outside ? 0 : (need[b] + OSC_ALIGN - 1) & ~(uint64_t)(OSC_ALIGN - 1);
    }
    return osc_plan_place(m->n_bufs, sizes, m->buf_first, m->buf_last, offsets, scratch);
}

static bool type_static(const osc_type *t) {
    if (t->dtype == 0 || t->rank < 0) return false;
    for (int32_t d = 0; d < t->rank; d++)
        if (t->dims[d] < 0) return false;
    return true;
}

/* The shape a graph input or initializer has before any binding, into vals[v]. */
static void seed_value(const osc_value *val, osc_tensor *t) {
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

/* A value whose data no caller can change: an initializer that is not a graph input, or the
 * output of a folded node. */
static bool is_constant(const osc_value *val) { return val->init && !val->is_input; }

static osc_node_io model_io(osc_model *m) {
    osc_node_io io = {osc_pool_alloc(&m->pool, (size_t)m->max_in * sizeof *io.ins),
                      osc_pool_alloc(&m->pool, (size_t)m->max_out * sizeof *io.outs)};
    return io;
}

/* Computes at load every node whose inputs are constants (or, for Shape/Size, have static
 * shapes), so shape subgraphs (Shape -> Gather -> Unsqueeze -> Concat -> Reshape) cost nothing
 * at run. Outputs over OSC_FOLD_MAX bytes stay nodes, to bound the model's memory. A folded
 * node's outputs become constants in the model's pool; the node no longer runs. */
#define OSC_FOLD_MAX ((size_t)1 << 20)
static osc_status fold_constants(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    size_t nv = (size_t)g->n_values + 1;
    osc_tensor *vals = osc_pool_alloc(&m->pool, nv * sizeof *vals);
    bool *shaped = osc_pool_alloc(&m->pool, nv * sizeof *shaped);
    bool *known = osc_pool_alloc(&m->pool, nv * sizeof *known);
    osc_node_io io = model_io(m);
    if (!vals || !shaped || !known || !io.ins || !io.outs)
        return osc_fail(err, OSC_ERR_NOMEM, "out of memory folding constants");
    for (int32_t v = 0; v < g->n_values; v++) {
        const osc_value *val = &g->values[v];
        if (is_constant(val)) vals[v] = *val->init;
        else if (val->is_input && !val->init && type_static(&val->decl)) seed_value(val, &vals[v]);
        shaped[v] = is_constant(val) || (val->is_input && !val->init && type_static(&val->decl));
        known[v] = is_constant(val);
    }
    for (int32_t i = 0; i < g->n_nodes; i++) {
        osc_node *n = &g->nodes[i];
        bool ready = osc_node_ready(m, i, known), all_known = true;
        for (int32_t j = 0; j < n->n_inputs; j++) {
            int32_t v = n->inputs[j];
            if (v < 0) continue;
            ready = ready && shaped[v];
            all_known = all_known && known[v];
        }
        if (!ready) continue;
        int32_t stop;
        osc_status st = osc_infer_range(m, vals, known, i, i + 1, &stop, io, err);
        if (!st) st = osc_check_ranks(m, vals, i, i + 1, err);
        if (st) return st;
        bool fold = all_known || (n->kernel->flags & OSC_KF_SHAPE_ONLY);
        for (int32_t j = 0; j < n->n_outputs; j++) {
            shaped[n->outputs[j]] = true;
            fold = fold && vals[n->outputs[j]].nbytes <= OSC_FOLD_MAX;
        }
        if (!fold) continue;
        for (int32_t j = 0; j < n->n_outputs; j++) {
            osc_tensor *t = &vals[n->outputs[j]];
            t->data = osc_pool_alloc(&m->pool, t->nbytes);
            if (!t->data) return osc_fail(err, OSC_ERR_NOMEM, "out of memory folding constants");
        }
        osc_kctx k = {.err = err, .graph = g, .node = n, .since_version = n->kernel->since,
                      .params = n->params, .alloc = &m->alloc,
                      .strings = &m->pool, .strict = m->opts.strict != 0};
        st = osc_run_node(m, i, vals, io, &k);
        if (st) return st;
        for (int32_t j = 0; j < n->n_outputs; j++) {
            osc_tensor *t = osc_pool_alloc(&m->pool, sizeof *t);
            if (!t) return osc_fail(err, OSC_ERR_NOMEM, "out of memory folding constants");
            *t = vals[n->outputs[j]];
            g->values[n->outputs[j]].init = t;
            known[n->outputs[j]] = true;
        }
        n->folded = true;
    }
    /* Left to run: does any node's output shape depend on data a run supplies? */
    for (int32_t i = 0; i < g->n_nodes && !m->dynamic; i++) {
        const osc_node *n = &g->nodes[i];
        for (int32_t j = 0; !n->folded && j < n->n_inputs && j < 32; j++)
            if ((n->kernel->infer_reads >> j & 1u) && n->inputs[j] >= 0 &&
                !is_constant(&g->values[n->inputs[j]]))
                m->dynamic = true;
    }
    return OSC_OK;
}

/* The smallest arena any run can have is the plan with every graph output in a caller buffer.
 * When even that exceeds the byte cap, no session could ever run: refuse the model now, before
 * a session allocates anything (a model claiming a 10^12-element intermediate fails here). */
static osc_status check_min_arena(osc_model *m, const uint64_t *need, uint64_t *sizes,
                                  int32_t *scratch, uint64_t *offsets, osc_err *err) {
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

osc_status osc_check_ranks(const osc_model *m, const osc_tensor *vals, int32_t from, int32_t to,
                           osc_err *err) {
    for (int32_t i = from; i < to; i++) {
        const osc_node *n = &m->g.nodes[i];
        for (int32_t j = 0; !n->folded && j < n->n_outputs; j++) {
            int32_t v = n->outputs[j];
            if (v >= 0 && vals[v].rank > m->lim.max_rank)
                return osc_fail(err, OSC_ERR_LIMIT, "node '%s' (%s): output '%s' has rank %d; the "
                                "limit is %d (opts.max_rank)", n->name, n->op_type,
                                m->g.values[v].name, (int)vals[v].rank, (int)m->lim.max_rank);
        }
    }
    return OSC_OK;
}

/* When every input is static, infer all shapes now, check declared outputs, and plan. */
static osc_status infer_static(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    if (m->dynamic) return OSC_OK;
    for (int32_t i = 0; i < g->n_inputs; i++) {
        const osc_value *val = &g->values[g->inputs[i]];
        if (!val->init && !type_static(&val->decl)) return OSC_OK;
    }
    size_t nb = (size_t)m->n_bufs + 1;
    osc_tensor *vals = osc_pool_alloc(&m->pool, ((size_t)g->n_values + 1) * sizeof *vals);
    uint64_t *offsets = osc_pool_alloc(&m->pool, nb * sizeof *offsets);
    uint64_t *need = osc_pool_alloc(&m->pool, nb * sizeof *need);
    uint64_t *sizes = osc_pool_alloc(&m->pool, nb * sizeof *sizes);
    int32_t *scratch = osc_pool_alloc(&m->pool, 3 * nb * sizeof *scratch);
    if (!vals || !offsets || !need || !sizes || !scratch)
        return osc_fail(err, OSC_ERR_NOMEM, "out of memory inferring shapes");
    for (int32_t v = 0; v < g->n_values; v++)
        if (g->values[v].producer < 0 || g->values[v].init) seed_value(&g->values[v], &vals[v]);
    osc_node_io io = model_io(m);
    if (!io.ins || !io.outs) return osc_fail(err, OSC_ERR_NOMEM, "out of memory inferring shapes");
    int32_t stop;
    osc_status st = osc_infer_range(m, vals, NULL, 0, g->n_nodes, &stop, io, err);
    if (!st) st = osc_check_ranks(m, vals, 0, g->n_nodes, err);
    if (st) return st;
    for (int32_t o = 0; o < g->n_outputs; o++) {
        const osc_value *val = &g->values[g->outputs[o]];
        const osc_tensor *t = &vals[g->outputs[o]];
        bool bad = (val->decl.dtype && val->decl.dtype != t->dtype) ||
                   (val->decl.rank >= 0 && val->decl.rank != t->rank);
        for (int32_t d = 0; !bad && val->decl.rank >= 0 && d < t->rank; d++)
            bad = val->decl.dims[d] >= 0 && val->decl.dims[d] != t->dims[d];
        if (bad)
            return osc_fail(err, OSC_ERR_SHAPE, "graph output '%s' is declared as %s rank %d but "
                            "the graph computes %s rank %d (shape differs or dtype differs)",
                            val->name, osc_dtype_get(val->decl.dtype)->name, val->decl.rank,
                            osc_dtype_get(t->dtype)->name, t->rank);
    }
    osc_buffer_need(m, vals, need);
    m->arena_bytes = osc_plan_run(m, need, NULL, sizes, scratch, offsets);
    m->static_vals = vals;
    return check_min_arena(m, need, sizes, scratch, offsets, err);
}

/* Runs after dispatch, so a model that also uses an unsupported op is reported by its op. */
static osc_status check_tensor_types(const osc_model *m, osc_err *err) {
    for (int32_t v = 0; v < m->g.n_values; v++) {
        const osc_value *val = &m->g.values[v];
        if (val->decl.non_tensor)
            return osc_fail(err, OSC_ERR_UNSUPPORTED, "value '%s' has %s type; only tensors are "
                            "supported", val->name, val->decl.non_tensor);
    }
    return OSC_OK;
}

static osc_status order_inputs(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    m->input_order = osc_pool_alloc(&m->pool, ((size_t)g->n_inputs + 1) * sizeof(int32_t));
    if (!m->input_order) return osc_fail(err, OSC_ERR_NOMEM, "out of memory");
    m->n_inputs = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int32_t i = 0; i < g->n_inputs; i++)
            if ((g->values[g->inputs[i]].init != NULL) == (pass == 1))
                m->input_order[m->n_inputs++] = g->inputs[i];
    return OSC_OK;
}

/* Names of each node's inputs and outputs, for osc_model_node. */
static osc_status name_node_io(osc_model *m, osc_err *err) {
    const osc_graph *g = &m->g;
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

static void copy_msg(char *msg, size_t msg_size, const osc_err *err) {
    if (msg && msg_size) snprintf(msg, msg_size, "%s", err->msg);
}

/* Fields a newer header may give meaning to must be zero, so that meaning is never ignored. */
static osc_status check_options(const osc_options *opts, osc_err *err) {
    if (!opts) return OSC_OK;
    if (opts->threads < 0 || opts->threads > OSC_MAX_THREADS)
        return osc_fail(err, OSC_ERR_ARG, "opts.threads is %d; expected 0 (default) to %d",
                        (int)opts->threads, OSC_MAX_THREADS);
    for (size_t i = 0; i < sizeof opts->reserved / sizeof opts->reserved[0]; i++)
        if (opts->reserved[i])
            return osc_fail(err, OSC_ERR_ARG, "opts.reserved[%zu] is %d; reserved fields must be "
                            "zero (call osc_options_init)", i, (int)opts->reserved[i]);
    return OSC_OK;
}

osc_status osc_model_load_buffer(const void *buf, size_t len, const char *base_dir,
                                 const osc_options *opts, osc_model **out, char *msg,
                                 size_t msg_size) {
    osc_err err = {0};
    osc_allocator a;
    if (out) *out = NULL;
    if (!out || (!buf && len)) {
        osc_fail(&err, OSC_ERR_ARG, "osc_model_load_buffer: NULL argument");
        copy_msg(msg, msg_size, &err);
        return err.status;
    }
    osc_limits lim;
    if (check_options(opts, &err) || osc_limits_resolve(opts, &lim, &err)) {
        copy_msg(msg, msg_size, &err);
        return err.status;
    }
    osc_allocator_init_cap(&a, opts, lim.max_bytes);
    osc_model *m = osc_calloc(&a, 1, sizeof *m);
    if (!m) {
        osc_fail(&err, OSC_ERR_NOMEM, "out of memory allocating the model");
        osc_cap_explain(&err, &a, "the model");
        copy_msg(msg, msg_size, &err);
        return err.status;
    }
    m->alloc = a;
    m->lim = lim;
    if (opts) m->opts = *opts;
    osc_pool_init(&m->pool, &m->alloc, 0);
    osc_status st = osc_loader_parse_model_lim(buf, len, base_dir, &m->lim, &m->pool, &m->g,
                                               &err);
    if (!st) st = check_opsets(m, &err);
    if (!st) st = dispatch(m, &err);
    if (!st) st = check_tensor_types(m, &err);
    if (!st) st = order_inputs(m, &err);
    if (!st) st = name_node_io(m, &err);
    if (!st) st = fold_constants(m, &err);
    if (!st) st = plan_buffers(m, &err);
    if (!st) st = infer_static(m, &err);
    if (st) {
        if (err.status == OSC_OK) osc_fail(&err, st, "model load failed");
        st = osc_cap_explain(&err, &m->alloc, "the model");
        copy_msg(msg, msg_size, &err);
        osc_model_free(m);
        return st;
    }
    copy_msg(msg, msg_size, &err);
    *out = m;
    return OSC_OK;
}

osc_status osc_model_load_file(const char *path, const osc_options *opts, osc_model **out,
                               char *msg, size_t msg_size) {
    osc_err err = {0};
    osc_allocator a;
    void *buf = NULL;
    size_t len = 0;
    if (out) *out = NULL;
    if (!path || !out) {
        osc_fail(&err, OSC_ERR_ARG, "osc_model_load_file: NULL argument");
        copy_msg(msg, msg_size, &err);
        return err.status;
    }
    osc_limits lim;
    if (check_options(opts, &err) || osc_limits_resolve(opts, &lim, &err)) {
        copy_msg(msg, msg_size, &err); /* before reading a possibly large file */
        return err.status;
    }
    osc_allocator_init_cap(&a, opts, lim.max_bytes);
    osc_status st = osc_read_file(&a, path, &buf, &len, &err);
    if (st) {
        copy_msg(msg, msg_size, &err);
        return st;
    }
    /* external data is relative to the model's folder */
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    st = osc_model_load_buffer(buf, len, dir, opts, out, msg, msg_size);
    osc_free(&a, buf, len);
    return st;
}

void osc_model_free(osc_model *m) {
    if (!m) return;
    osc_allocator a = m->alloc;
    osc_pool_free(&m->pool);
    osc_free(&a, m, sizeof *m);
}

/* ---- introspection ---- */

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
                         .n_outputs = r->outputs,
                         .deprecated = (r->flags & OSC_KF_DEPRECATED) != 0};
    return OSC_OK;
}

int64_t osc_opset_newest(const char *domain) {
    if (!domain) return -1;
    return !domain[0] || strcmp(domain, "ai.onnx") == 0 ? OSC_OPSET_NEWEST : -1;
}
