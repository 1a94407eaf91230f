/* dispatch.c: at load, the opset check, each node resolved to a registry row, kernels
 * initialised, and the dtype checks that need no shapes. */
#include <stdio.h>
#include <string.h>

#include "ops/registry.h"
#include "model.h"

void osc_model_warn(void *ud, const char *msg) {
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

/* The IR version against those this library knows (1 to OSC_IR_NEWEST): another one (0 when the
 * field is missing, negative, or from a newer ONNX) loads with a warning, or fails in strict
 * mode. Then the default domain's opset against the newest this library knows: refused, or with
 * opts.newer_opsets run with the newest rows and a warning. */
static osc_status check_versions(osc_model *m, osc_err *err) {
    char msg[OSC_MSG_SIZE];
    int64_t ir = m->g.ir_version;
    if (ir < 1 || ir > OSC_IR_NEWEST) {
        snprintf(msg, sizeof msg, "the model declares IR version %lld; this library knows IR "
                 "versions 1 to %d and reads it as version %d", (long long)ir, OSC_IR_NEWEST,
                 OSC_IR_NEWEST);
        if (m->opts.strict)
            return osc_fail(err, OSC_ERR_UNSUPPORTED, "%s (strict mode refuses it)", msg);
        osc_model_warn(m, msg);
    }
    int64_t v = osc_graph_opset(&m->g, "");
    if (v > OSC_OPSET_NEWEST) {
        if (!m->opts.newer_opsets)
            return osc_fail(err, OSC_ERR_UNSUPPORTED, "the model imports opset %lld of domain "
                            "'ai.onnx'; the newest this library knows is %d (a newer version may "
                            "change what an op means): set opts.newer_opsets (command line: "
                            "--newer-opsets) to run it with the opset %d kernels", (long long)v,
                            OSC_OPSET_NEWEST, OSC_OPSET_NEWEST);
        snprintf(msg, sizeof msg, "the model imports opset %lld of domain 'ai.onnx', newer than "
                 "the newest this library knows (%d); its nodes run with the opset %d kernels "
                 "(opts.newer_opsets)", (long long)v, OSC_OPSET_NEWEST, OSC_OPSET_NEWEST);
        osc_model_warn(m, msg);
    }
    return m->warn_lost ? osc_fail(err, OSC_ERR_NOMEM, "out of memory storing a warning") : OSC_OK;
}

/* Why an op the registry has has no row for this opset: older than its first version, or a
 * version not implemented (the ranges the rows cover, for the message). */
static void version_gap(const char *domain, const char *op, int64_t opset, char *buf, size_t n) {
    int64_t lo = INT64_MAX, hi = 0;
    buf[0] = 0;
    const char *ops = osc_kernel_omitted(domain, op);
    if (ops) {
        snprintf(buf, n, ": the op is not compiled into this build (built with OSC_OPS=%s)", ops);
        return;
    }
    for (size_t i = 0; osc_kernel_at(i); i++) {
        const osc_kernel *r = osc_kernel_at(i);
        if (strcmp(r->op, op) || strcmp(r->domain ? r->domain : "", domain) ||
            (r->flags & OSC_KF_INTERNAL))
            continue;
        if (r->since < lo) lo = r->since;
        if (r->until > hi) hi = r->until;
    }
    if (lo == INT64_MAX) return; /* not in the registry at all */
    if (opset < lo)
        snprintf(buf, n, ": the opset is older than the first version implemented (%lld)",
                 (long long)lo);
    else
        snprintf(buf, n, ": this version of the op is not implemented (kernels cover opsets %lld "
                 "to %lld, with gaps)", (long long)lo, (long long)hi);
}

/* Resolves every node to a kernel row. When some ops have no kernel, the message names the first
 * and lists every other unsupported op too, so a user sees all that is missing at once. */
static osc_status resolve(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    int32_t first = -1, missing = 0;
    char also[256] = "", label[256];
    size_t used = 0;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        osc_node *n = &g->nodes[i];
        n->opset = osc_graph_opset(g, n->domain);
        if (n->opset < 0)
            return osc_fail(err, OSC_ERR_MODEL,
                            "node %s (%s): the model imports no opset for domain '%s'",
                            osc_node_label(g, n, label, sizeof label), n->op_type,
                            n->domain[0] ? n->domain : "ai.onnx");
        int64_t v = !n->domain[0] && n->opset > OSC_OPSET_NEWEST ? OSC_OPSET_NEWEST : n->opset;
        n->kernel = osc_kernel_find(n->domain, n->op_type, v);
        if (n->kernel && (n->kernel->flags & OSC_KF_INTERNAL)) n->kernel = NULL; /* fused */
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
    char why[256];
    version_gap(n->domain, n->op_type, n->opset, why, sizeof why);
    return osc_fail(err, OSC_ERR_UNSUPPORTED,
                    "unsupported op %s-%lld (node %s, domain '%s', opset %lld)%s; %d of %d node(s) "
                    "without a kernel (%d supported)%s%s", n->op_type, (long long)n->opset,
                    osc_node_label(g, n, label, sizeof label), n->domain[0] ? n->domain : "ai.onnx", (long long)n->opset, why,
                    (int)missing, (int)g->n_nodes, (int)(g->n_nodes - missing),
                    used ? "; also unsupported: " : "", also);
}

/* Resolves every node, then checks each against its row (input and output counts, no empty
 * required input or output), warns about (or in strict mode refuses) a deprecated version, runs
 * the kernel's init (which checks the attributes), checks the dtypes known at load, and sizes the
 * scratch the executor needs. */
static osc_status init_nodes(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    osc_status st = resolve(m, err);
    if (st) return st;
    char label[256];
    m->max_in = m->max_out = 1;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        osc_node *n = &g->nodes[i];
        const osc_kernel *kr = n->kernel;
        const int32_t named = n->n_inputs - n->n_implicit; /* the model's own inputs */
        int32_t given = named;
        while (given > 0 && n->inputs[given - 1] < 0) given--; /* trailing omitted optionals */
        const int32_t out_min = kr->outputs_min ? kr->outputs_min : kr->outputs;
        /* trailing empty optional outputs are as good as absent */
        while (n->n_outputs > out_min && n->outputs[n->n_outputs - 1] < 0) n->n_outputs--;
        if (given < kr->inputs.min || given > kr->inputs.max || n->n_outputs < out_min ||
            n->n_outputs > kr->outputs) {
            char most[16] = "any number of", outs[32];
            if (kr->inputs.max != OSC_VARIADIC)
                snprintf(most, sizeof most, "%d", (int)kr->inputs.max);
            if (out_min == kr->outputs) snprintf(outs, sizeof outs, "%d", (int)kr->outputs);
            else if (kr->outputs == OSC_VARIADIC) snprintf(outs, sizeof outs, "at least %d",
                                                           (int)out_min);
            else snprintf(outs, sizeof outs, "%d to %d", (int)out_min, (int)kr->outputs);
            return osc_fail(err, OSC_ERR_MODEL,
                            "node %s (%s-%lld): has %d inputs and %d outputs; expected %d to %s "
                            "inputs and %s output(s)", osc_node_label(g, n, label, sizeof label), n->op_type, (long long)kr->since,
                            given, n->n_outputs, kr->inputs.min, most, outs);
        }
        for (int32_t j = 0; j < kr->inputs.min; j++)
            if (n->inputs[j] < 0)
                return osc_fail(err, OSC_ERR_MODEL, "node %s (%s-%lld): required input %d is "
                                "empty", osc_node_label(g, n, label, sizeof label), n->op_type, (long long)kr->since, j);
        for (int32_t j = 0; j < n->n_outputs; j++)
            if (n->outputs[j] < 0)
                return osc_fail(err, OSC_ERR_MODEL, "node %s (%s): output %d is empty",
                                osc_node_label(g, n, label, sizeof label), n->op_type, j);
        if (given < named) /* the implicit inputs follow the last given one */
            memmove(n->inputs + given, n->inputs + named, (size_t)n->n_implicit * sizeof *n->inputs);
        n->n_inputs = given + n->n_implicit;
        if (n->n_inputs > m->max_in) m->max_in = n->n_inputs;
        if (n->n_outputs > m->max_out) m->max_out = n->n_outputs;
        osc_kctx k = {.err = err, .graph = g, .node = n, .row = kr, .since_version = kr->since,
                      .alloc = &m->alloc, .pool = &m->pool, .strict = m->opts.strict != 0,
                      .warn = osc_model_warn, .warn_ud = m};
        if (kr->flags & OSC_KF_DEPRECATED) { /* the row's op version is deprecated (Scatter-11) */
            if (k.strict)
                return osc_kfail(&k, OSC_ERR_UNSUPPORTED, "deprecated, and strict mode refuses "
                                 "deprecated ops");
            osc_kwarn(&k, "deprecated; it still runs, with the semantics its spec states");
        }
        void *params = NULL;
        st = osc_body_load(m, n, err);
        if (st) return st;
        st = kr->init(&k, n, &params);
        if (st) return st;
        n->params = params;
        /* dtypes known at load (declared, constant) of the op's inputs (not the implicit ones) */
        for (int32_t j = 0; j < n->n_inputs - n->n_implicit; j++) {
            const osc_value *val = n->inputs[j] >= 0 ? &g->values[n->inputs[j]] : NULL;
            int32_t dt = !val ? 0 : val->init ? val->init->dtype : val->decl.dtype;
            if (dt && (st = osc_check_input_type(g, i, j, dt, err))) return st;
        }
        if (m->warn_lost)
            return osc_fail(err, OSC_ERR_NOMEM, "node %s (%s): out of memory storing a warning",
                            osc_node_label(g, n, label, sizeof label), n->op_type);
    }
    return OSC_OK;
}

/* Runs after init_nodes, so a model that also uses an unsupported op is reported by its op. */
static osc_status check_tensor_types(const osc_model *m, osc_err *err) {
    for (int32_t v = 0; v < m->g.n_values; v++) {
        const osc_value *val = &m->g.values[v];
        if (val->decl.non_tensor)
            return osc_fail(err, OSC_ERR_UNSUPPORTED, "value '%s' has %s type; only tensors are "
                            "supported", val->name, val->decl.non_tensor);
    }
    return OSC_OK;
}

osc_status osc_dispatch(osc_model *m, osc_err *err) {
    osc_status st = check_versions(m, err);
    if (!st) st = init_nodes(m, err);
    if (!st) st = check_tensor_types(m, err);
    return st;
}
