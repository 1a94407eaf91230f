/* model.c: loading a model from a buffer or a file (the load steps in order), options, free. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loader/loader.h"
#include "model.h"
#include "rewrite/rewrite.h"

/* Graph inputs without a default first, then those with one (initializers listed as inputs):
 * the order of osc_model_input and osc_session_set_input_at. */
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

static void copy_msg(char *msg, size_t msg_size, const osc_err *err) {
    if (msg && msg_size) snprintf(msg, msg_size, "%s", err->msg);
}

/* opts.threads within range; fields a newer header may give meaning to must be zero, so that
 * meaning is never ignored. */
/* m->inplace_sym: the elementwise nodes whose output 0 has input 0's shape by its symbols. */
static osc_status inplace_by_symbols(osc_model *m, const osc_sym_shapes_out *sym, osc_err *err) {
    const osc_graph *g = &m->g;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const osc_node *n = &g->nodes[i];
        if (n->folded || !(n->kernel->flags & OSC_KF_INPLACE_SAME) || n->n_inputs < 1 ||
            n->n_outputs < 1 || n->inputs[0] < 0 || n->outputs[0] < 0)
            continue;
        const int32_t a = n->inputs[0], b = n->outputs[0];
        if (!sym->shaped[a] || !sym->shaped[b] || (m->fold_shaped[a] && m->fold_shaped[b]) ||
            sym->vals[a].dtype != sym->vals[b].dtype ||
            !osc_fuse_same_dims(&sym->vals[a], &sym->vals[b]))
            continue;
        if (!m->inplace_sym) {
            m->inplace_sym = osc_pool_alloc(&m->pool, (size_t)g->n_nodes + 1);
            if (!m->inplace_sym) return osc_fail(err, OSC_ERR_NOMEM, "out of memory");
            memset(m->inplace_sym, 0, (size_t)g->n_nodes + 1);
        }
        m->inplace_sym[i] = true;
    }
    return OSC_OK;
}

/* The rewrite pass (rewrite/pass.c), unless opts.no_fusion: on the shapes folding found, with
 * symbols where graph inputs have symbolic dims (symbolic.c). Not in a subgraph: what a body
 * declares of its inputs' dims (a carried value's) nobody checks at each iteration, and a rule
 * that trusts a symbol there (ShapeOf) would turn a run that works unfused into a failure
 * (a fuzz finding: a carried input declared [s, s] that is not square). */
static osc_status rewrite(osc_model *m, osc_err *err) {
    if (m->opts.no_fusion || !m->fold_vals) return OSC_OK;
    osc_sym_shapes_out sym = {0};
    osc_status st = m->subgraph ? OSC_OK : osc_sym_shapes(m, &sym, err);
    if (st) return st;
    osc_rw_graph rg = {.g = &m->g, .vals = sym.vals ? sym.vals : m->fold_vals,
                       .shaped = sym.vals ? sym.shaped : m->fold_shaped,
                       .sym = sym.vals ? &sym.info : NULL, .pool = &m->pool,
                       .alloc = &m->alloc, .recompute = m->opts.fuse_recompute != 0,
                       .strict = m->opts.strict != 0, .max_in = m->max_in};
    st = osc_rewrite(&rg, err);
    m->max_in = rg.max_in;
    if (!st && sym.vals) st = inplace_by_symbols(m, &sym, err);
    if (sym.vals) osc_sym_shapes_free(m, &sym);
    return st;
}

/* The load steps after parsing, for the main graph and for subgraphs (whose dims no pin names). */
static osc_status prepare(osc_model *m, const osc_options *opts, osc_err *err) {
    m->body_id = -1;
    osc_status st = osc_dispatch(m, err);
    if (!st) st = osc_pin_dims(m, opts, err);
    if (!st) st = order_inputs(m, err);
    if (!st) st = osc_fold_constants(m, err);
    if (!st) st = rewrite(m, err);
    if (!st) st = osc_mark_shape_nodes(m, err);
    if (!st) st = osc_name_node_io(m, err);
    if (!st) st = osc_plan_buffers(m, err);
    if (!st) st = osc_infer_static(m, err);
    return st;
}

osc_status osc_model_from_graph(osc_model *parent, const osc_graph *g, osc_model **out,
                                osc_err *err) {
    osc_allocator a;
    osc_allocator_child(&a, &parent->alloc);
    osc_model *m = osc_calloc(&a, 1, sizeof *m);
    *out = m;
    if (!m) return osc_fail(err, OSC_ERR_NOMEM, "out of memory loading subgraph '%s'", g->name);
    m->alloc = a;
    m->lim = parent->lim;
    m->opts = parent->opts;
    m->opts.inplace_inputs = 0; /* its inputs are the kernel's, and values of the outer graph */
    m->opts.dim_pins = NULL;
    m->opts.n_dim_pins = 0;
    m->fold_left = parent->fold_left;
    osc_pool_init(&m->pool, &m->alloc, 0);
    m->g = *g;
    m->subgraph = true;
    /* the subgraph's constants are in the parent's pool: osc_release_unread is not for them */
    osc_status st = prepare(m, NULL, err);
    if (!st && m->warn_lost) st = osc_fail(err, OSC_ERR_NOMEM, "out of memory storing a warning");
    for (int32_t w = 0; !st && w < m->n_warnings; w++) {
        osc_model_warn(parent, m->warnings[w]);
        if (parent->warn_lost) st = osc_fail(err, OSC_ERR_NOMEM, "out of memory storing a warning");
    }
    return st;
}

/* m->fold_budget from opts.max_fold_bytes: 0 stands for 64 times the model's bytes (the file's
 * `len`, or its initializers' when external data makes them more), at least 64 MiB. */
static void fold_budget(osc_model *m, size_t len) {
    uint64_t init = 0, size = len;
    for (int32_t v = 0; v < m->g.n_values; v++)
        if (m->g.values[v].init) init += m->g.values[v].init->nbytes;
    size = init > size ? init : size;
    m->fold_left = &m->fold_budget;
    if (m->opts.max_fold_bytes) m->fold_budget = m->opts.max_fold_bytes;
    else if (size > UINT64_MAX / 64) m->fold_budget = UINT64_MAX;
    else m->fold_budget = size * 64 > OSC_FOLD_BUDGET_MIN ? size * 64 : OSC_FOLD_BUDGET_MIN;
}

static osc_status check_options(const osc_options *opts, osc_err *err) {
    if (!opts) return OSC_OK;
    if (opts->threads < 0 || opts->threads > OSC_MAX_THREADS)
        return osc_fail(err, OSC_ERR_ARG, "opts.threads is %d; expected 0 (default) to %d",
                        (int)opts->threads, OSC_MAX_THREADS);
    if (opts->inplace_inputs < 0 || opts->inplace_inputs > 2)
        return osc_fail(err, OSC_ERR_ARG, "opts.inplace_inputs is %d; expected 0 (default), 1 "
                        "(scatter nodes) or 2 (also nodes whose output has their input's shape)",
                        (int)opts->inplace_inputs);
    for (size_t i = 0; i < sizeof opts->reserved / sizeof opts->reserved[0]; i++)
        if (opts->reserved[i])
            return osc_fail(err, OSC_ERR_ARG, "opts.reserved[%zu] is %d; reserved fields must be "
                            "zero (call osc_options_init)", i, (int)opts->reserved[i]);
    for (size_t i = 0; i < sizeof opts->reserved_ext / sizeof opts->reserved_ext[0]; i++)
        if (opts->reserved_ext[i])
            return osc_fail(err, OSC_ERR_ARG, "opts.reserved_ext[%zu] is %llu; reserved fields "
                            "must be zero (call osc_options_init)", i,
                            (unsigned long long)opts->reserved_ext[i]);
    return OSC_OK;
}

/* Loads the model whose bytes src holds; the options are checked and resolved. */
static osc_status load(const osc_src *src, const char *base_dir, const osc_options *opts,
                       const osc_limits *lim, osc_model **out, osc_err *err) {
    osc_allocator a;
    osc_allocator_init_cap(&a, opts, lim->max_bytes);
    osc_model *m = osc_calloc(&a, 1, sizeof *m);
    if (!m) {
        osc_fail(err, OSC_ERR_NOMEM, "out of memory allocating the model");
        return osc_cap_explain(err, &a, "the model");
    }
    m->alloc = a;
    m->lim = *lim;
    if (opts) m->opts = *opts;
    osc_pool_init(&m->pool, &m->alloc, 0);
    osc_status st = osc_loader_parse_model_src(src, base_dir, &m->lim, &m->pool, &m->g, err);
    if (!st) fold_budget(m, (size_t)src->len);
    if (!st) st = prepare(m, opts, err);
    osc_body_release(m); /* the sessions folding ran subgraphs in */
    if (!st) st = osc_release_unread(m, err);
    if (st) {
        if (err->status == OSC_OK) osc_fail(err, st, "model load failed");
        st = osc_cap_explain(err, &m->alloc, "the model");
        osc_model_free(m);
        return st;
    }
    *out = m;
    return OSC_OK;
}

osc_status osc_model_load_buffer(const void *buf, size_t len, const char *base_dir,
                                 const osc_options *opts, osc_model **out, char *msg,
                                 size_t msg_size) {
    osc_err err = {0};
    osc_limits lim;
    osc_status st;
    if (out) *out = NULL;
    if (!out || (!buf && len))
        st = osc_fail(&err, OSC_ERR_ARG, "osc_model_load_buffer: NULL argument");
    else if (!(st = check_options(opts, &err)) && !(st = osc_limits_resolve(opts, &lim, &err)))
        st = load(&(osc_src){buf, -1, len, "the model's bytes"}, base_dir, opts, &lim, out,
                  &err);
    copy_msg(msg, msg_size, &err);
    return st;
}

osc_status osc_model_load_file(const char *path, const osc_options *opts, osc_model **out,
                               char *msg, size_t msg_size) {
    osc_err err = {0};
    osc_limits lim;
    osc_status st;
    int fd;
    uint64_t len;
    if (out) *out = NULL;
    if (!path || !out) {
        st = osc_fail(&err, OSC_ERR_ARG, "osc_model_load_file: NULL argument");
    } else if (!(st = check_options(opts, &err)) && !(st = osc_limits_resolve(opts, &lim, &err)) &&
               !(st = osc_open_file(path, &fd, &len, &err))) {
        /* external data is relative to the model's folder */
        char dir[4096];
        const char *slash = strrchr(path, '/');
        if (!slash) snprintf(dir, sizeof dir, ".");
        else if (slash == path) snprintf(dir, sizeof dir, "/");
        else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
        st = load(&(osc_src){NULL, fd, len, path}, dir, opts, &lim, out, &err);
        close(fd);
    }
    copy_msg(msg, msg_size, &err);
    return st;
}

void osc_model_free(osc_model *m) {
    if (!m) return;
    osc_body_release(m);
    for (int32_t b = 0; b < m->n_bodies; b++) osc_model_free(m->bodies[b]);
    osc_allocator a = m->alloc;
    osc_pool_free(&m->pool);
    osc_free(&a, m, sizeof *m);
}
