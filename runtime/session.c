/* session.c: sessions (bound inputs, one arena, outputs) and the executor that runs nodes. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dtype.h"
#include "model.h"

struct osc_session {
    const osc_model *m;
    osc_allocator alloc;
    osc_err err;
    osc_tensor *bound;        /* per model input (input_order index); data borrowed */
    bool *is_bound;
    osc_tensor *vals;         /* per value: shape and data of the current run */
    uint64_t *offsets;        /* per arena buffer */
    osc_tensor *plan_inputs;  /* input shapes the current plan was made for */
    bool planned;
    void *arena;
    uint64_t arena_size;
    osc_pool strings;         /* bytes of strings made during a run */
    uint64_t *node_ns;        /* per node: time of the last run (opts.profile), else NULL */
    bool ok;                  /* outputs readable */
    max_align_t empty;        /* data of zero-size values when the arena is empty */
};

osc_status osc_session_create(const osc_model *m, osc_session **out) {
    if (!m || !out) return OSC_ERR_ARG;
    *out = NULL;
    osc_allocator a = m->alloc;
    a.used = 0;
    osc_session *s = osc_calloc(&a, 1, sizeof *s);
    if (!s) return OSC_ERR_NOMEM;
    s->alloc = a;
    s->m = m;
    size_t ni = (size_t)m->n_inputs + 1, nv = (size_t)m->g.n_values + 1;
    s->bound = osc_calloc(&s->alloc, ni, sizeof *s->bound);
    s->is_bound = osc_calloc(&s->alloc, ni, sizeof *s->is_bound);
    s->plan_inputs = osc_calloc(&s->alloc, ni, sizeof *s->plan_inputs);
    s->vals = osc_calloc(&s->alloc, nv, sizeof *s->vals);
    s->offsets = osc_calloc(&s->alloc, (size_t)m->n_bufs + 1, sizeof *s->offsets);
    osc_pool_init(&s->strings, &s->alloc, 0);
    if (m->opts.profile)
        s->node_ns = osc_calloc(&s->alloc, (size_t)m->g.n_nodes + 1, sizeof *s->node_ns);
    if (!s->bound || !s->is_bound || !s->plan_inputs || !s->vals || !s->offsets ||
        (m->opts.profile && !s->node_ns)) {
        osc_session_free(s);
        return OSC_ERR_NOMEM;
    }
    for (int32_t v = 0; v < m->g.n_values; v++)
        if (m->g.values[v].init) s->vals[v] = *m->g.values[v].init;
    *out = s;
    return OSC_OK;
}

void osc_session_free(osc_session *s) {
    if (!s) return;
    const osc_model *m = s->m;
    size_t ni = (size_t)m->n_inputs + 1, nv = (size_t)m->g.n_values + 1;
    osc_pool_free(&s->strings);
    osc_free(&s->alloc, s->arena, s->arena_size);
    osc_free(&s->alloc, s->bound, ni * sizeof *s->bound);
    osc_free(&s->alloc, s->is_bound, ni * sizeof *s->is_bound);
    osc_free(&s->alloc, s->plan_inputs, ni * sizeof *s->plan_inputs);
    osc_free(&s->alloc, s->vals, nv * sizeof *s->vals);
    osc_free(&s->alloc, s->offsets, ((size_t)m->n_bufs + 1) * sizeof *s->offsets);
    osc_free(&s->alloc, s->node_ns, ((size_t)m->g.n_nodes + 1) * sizeof *s->node_ns);
    osc_allocator a = s->alloc;
    osc_free(&a, s, sizeof *s);
}

const char *osc_session_error(const osc_session *s) { return s ? s->err.msg : "no session"; }

uint64_t osc_session_node_ns(const osc_session *s, size_t node) {
    return (s && s->node_ns && node < (size_t)s->m->g.n_nodes) ? s->node_ns[node] : 0;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static const char *dims_str(const int64_t *dims, int32_t rank, char *buf, size_t size) {
    size_t p = 0;
    buf[0] = '\0';
    p += (size_t)snprintf(buf, size, "[");
    for (int32_t i = 0; i < rank && p < size; i++) {
        if (dims[i] < 0) p += (size_t)snprintf(buf + p, size - p, i ? ",?" : "?");
        else p += (size_t)snprintf(buf + p, size - p, i ? ",%lld" : "%lld", (long long)dims[i]);
    }
    if (p < size) snprintf(buf + p, size - p, "]");
    return buf;
}

/* A caller tensor must be self-consistent and fit the graph input's declared dtype, rank and
 * static dims (symbolic dims are checked together at run). */
static osc_status check_input(osc_session *s, int32_t v, const osc_tensor *t) {
    const osc_value *val = &s->m->g.values[v];
    const osc_type *d = &val->decl;
    char want[256], got[256];
    if (!t) return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': NULL tensor", val->name);
    if (!osc_dtype_valid(t->dtype) || t->rank < 0 || t->rank > OSC_MAX_RANK)
        return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': dtype %d or rank %d is invalid",
                        val->name, (int)t->dtype, (int)t->rank);
    int64_t count = osc_tensor_count(t);
    size_t need;
    if (count < 0 || !osc_dtype_bytes(t->dtype, count, &need))
        return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': dims %s are negative or overflow",
                        val->name, dims_str(t->dims, t->rank, got, sizeof got));
    if (t->nbytes != need || (need && !t->data))
        return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': nbytes is %zu but %s %s needs %zu%s",
                        val->name, t->nbytes, osc_dtype_get(t->dtype)->name,
                        dims_str(t->dims, t->rank, got, sizeof got), need,
                        (need && !t->data) ? " (and data is NULL)" : "");
    int32_t want_dtype = d->dtype ? d->dtype : (val->init ? val->init->dtype : 0);
    if (want_dtype && want_dtype != t->dtype)
        return osc_fail(&s->err, OSC_ERR_SHAPE, "input '%s': expected dtype %s, given %s",
                        val->name, osc_dtype_get(want_dtype)->name,
                        osc_dtype_get(t->dtype)->name);
    if (d->rank < 0) return OSC_OK;
    bool bad = d->rank != t->rank;
    for (int32_t i = 0; !bad && i < d->rank; i++) bad = d->dims[i] >= 0 && d->dims[i] != t->dims[i];
    if (bad)
        return osc_fail(&s->err, OSC_ERR_SHAPE, "input '%s': expected shape %s, given %s",
                        val->name, dims_str(d->dims, d->rank, want, sizeof want),
                        dims_str(t->dims, t->rank, got, sizeof got));
    if (t->dtype == OSC_STRING) {
        const osc_string *str = t->data;
        for (int64_t i = 0; i < count; i++)
            if (str[i].len && !str[i].ptr)
                return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': string %lld has length %zu "
                                "and a NULL pointer", val->name, (long long)i, str[i].len);
    }
    return OSC_OK;
}

osc_status osc_session_set_input_at(osc_session *s, size_t index, const osc_tensor *t) {
    if (!s) return OSC_ERR_ARG;
    osc_err_clear(&s->err);
    if (index >= (size_t)s->m->n_inputs)
        return osc_fail(&s->err, OSC_ERR_ARG, "input index %zu is out of range [0, %d]", index,
                        s->m->n_inputs - 1);
    osc_status st = check_input(s, s->m->input_order[index], t);
    if (st) return st;
    s->bound[index] = *t;
    s->is_bound[index] = true;
    s->ok = false;
    return OSC_OK;
}

osc_status osc_session_set_input(osc_session *s, const char *name, const osc_tensor *t) {
    if (!s || !name) return OSC_ERR_ARG;
    for (int32_t i = 0; i < s->m->n_inputs; i++)
        if (strcmp(s->m->g.values[s->m->input_order[i]].name, name) == 0)
            return osc_session_set_input_at(s, (size_t)i, t);
    osc_err_clear(&s->err);
    return osc_fail(&s->err, OSC_ERR_ARG, "the model has no input named '%s'", name);
}

/* Symbolic dims (dim_param) must take one value across all inputs. */
static osc_status check_symbols(osc_session *s) {
    const osc_model *m = s->m;
    for (int32_t i = 0; i < m->n_inputs; i++) {
        const osc_value *a = &m->g.values[m->input_order[i]];
        for (int32_t d = 0; d < a->decl.rank && d < s->vals[m->input_order[i]].rank; d++) {
            const char *sym = a->decl.dim_names[d];
            if (!sym) continue;
            int64_t va = s->vals[m->input_order[i]].dims[d];
            for (int32_t j = 0; j < i; j++) {
                const osc_value *b = &m->g.values[m->input_order[j]];
                for (int32_t e = 0; e < b->decl.rank && e < s->vals[m->input_order[j]].rank; e++) {
                    const char *symb = b->decl.dim_names[e];
                    int64_t vb = s->vals[m->input_order[j]].dims[e];
                    if (symb && strcmp(sym, symb) == 0 && va != vb)
                        return osc_fail(&s->err, OSC_ERR_SHAPE,
                                        "input '%s' dim %d ('%s') is %lld but input '%s' dim %d "
                                        "gives '%s' = %lld", a->name, d, sym, (long long)va,
                                        b->name, e, sym, (long long)vb);
                }
            }
        }
    }
    return OSC_OK;
}

static bool same_shape(const osc_tensor *a, const osc_tensor *b) {
    return a->dtype == b->dtype && a->rank == b->rank &&
           memcmp(a->dims, b->dims, (size_t)a->rank * sizeof a->dims[0]) == 0;
}

/* Re-infers shapes and re-plans the arena when input shapes differ from the last plan. The
 * new arena is allocated before the old one is freed, so a failure keeps the session usable. */
static osc_status prepare_run(osc_session *s) {
    const osc_model *m = s->m;
    bool changed = !s->planned;
    for (int32_t i = 0; !changed && i < m->n_inputs; i++)
        changed = !same_shape(&s->plan_inputs[i], &s->vals[m->input_order[i]]);
    if (!changed) return OSC_OK;
    s->planned = false;
    osc_status st = osc_infer_all(m, s->vals, &s->err);
    uint64_t size = 0;
    if (!st) st = osc_plan_arena(m, s->vals, s->offsets, &size, &s->err);
    if (st) return st;
    if (size > SIZE_MAX) return osc_fail(&s->err, OSC_ERR_LIMIT, "arena of %llu bytes is too "
                                         "large to address", (unsigned long long)size);
    if (size > s->arena_size) {
        void *arena = osc_malloc(&s->alloc, (size_t)size);
        if (!arena)
            return osc_fail(&s->err, OSC_ERR_NOMEM, "cannot allocate an arena of %llu bytes%s",
                            (unsigned long long)size,
                            s->alloc.cap ? " (the max_bytes cap was reached)" : "");
        osc_free(&s->alloc, s->arena, s->arena_size);
        s->arena = arena;
        s->arena_size = size;
    }
    for (int32_t v = 0; v < m->g.n_values; v++) {
        int32_t b = m->buf_of[v];
        if (b >= 0) s->vals[v].data = s->arena ? (void *)((char *)s->arena + s->offsets[b])
                                       : (void *)&s->empty;
    }
    for (int32_t i = 0; i < m->n_inputs; i++) s->plan_inputs[i] = s->vals[m->input_order[i]];
    s->planned = true;
    return OSC_OK;
}

/* String outputs made by nodes may point into input strings: give them their own bytes. */
static osc_status own_string_outputs(osc_session *s) {
    const osc_graph *g = &s->m->g;
    for (int32_t o = 0; o < g->n_outputs; o++) {
        osc_tensor *t = &s->vals[g->outputs[o]];
        if (t->dtype != OSC_STRING || g->values[g->outputs[o]].producer < 0) continue;
        osc_string *str = t->data;
        int64_t count = osc_tensor_count(t);
        for (int64_t i = 0; i < count; i++) {
            char *copy = osc_pool_strndup(&s->strings, str[i].ptr, str[i].len);
            if (!copy) return osc_fail(&s->err, OSC_ERR_NOMEM, "out of memory copying strings");
            str[i].ptr = copy;
        }
    }
    return OSC_OK;
}

osc_status osc_session_run(osc_session *s) {
    if (!s) return OSC_ERR_ARG;
    const osc_model *m = s->m;
    const osc_graph *g = &m->g;
    osc_err_clear(&s->err);
    s->ok = false;
    for (int32_t i = 0; i < m->n_inputs; i++) {
        int32_t v = m->input_order[i];
        if (s->is_bound[i]) s->vals[v] = s->bound[i];
        else if (g->values[v].init) s->vals[v] = *g->values[v].init;
        else
            return osc_fail(&s->err, OSC_ERR_ARG, "input '%s' (index %d) is not bound: call "
                            "osc_session_set_input first", g->values[v].name, i);
    }
    osc_status st = check_symbols(s);
    if (!st) st = prepare_run(s);
    if (st) return st;
    osc_pool_reset(&s->strings);
    if (s->node_ns) memset(s->node_ns, 0, (size_t)g->n_nodes * sizeof *s->node_ns);
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const osc_node *n = &g->nodes[i];
        const osc_tensor *ins[8] = {0};
        for (int32_t j = 0; j < n->n_inputs; j++)
            ins[j] = n->inputs[j] >= 0 ? &s->vals[n->inputs[j]] : NULL;
        osc_kctx k = {.err = &s->err, .graph = g, .node = n,
                      .since_version = n->kernel->since_version, .alloc = &s->alloc,
                      .strings = &s->strings, .strict = m->opts.strict != 0};
        uint64_t t0 = s->node_ns ? now_ns() : 0;
        st = n->kernel->run(&k, ins, n->n_inputs, &s->vals[n->outputs[0]], n->n_outputs);
        if (s->node_ns) s->node_ns[i] = now_ns() - t0;
        if (st) return st;
    }
    st = own_string_outputs(s);
    if (st) return st;
    s->ok = true;
    return OSC_OK;
}

osc_status osc_session_output(osc_session *s, size_t index, osc_tensor *out) {
    if (!s || !out) return OSC_ERR_ARG;
    if (index >= (size_t)s->m->g.n_outputs || !s->ok) osc_err_clear(&s->err);
    if (index >= (size_t)s->m->g.n_outputs)
        return osc_fail(&s->err, OSC_ERR_ARG, "output index %zu is out of range [0, %d]", index,
                        s->m->g.n_outputs - 1);
    if (!s->ok)
        return osc_fail(&s->err, OSC_ERR_STATE, "no successful run: outputs are not available");
    *out = s->vals[s->m->g.outputs[index]];
    return OSC_OK;
}
