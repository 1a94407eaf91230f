/* session.c: sessions (inputs, caller output buffers, arena) and the executor that runs nodes. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../core/dtype.h"
#include "model.h"
#include "../core/tpool.h"

struct osc_session {
    const osc_model *m;
    osc_allocator alloc;
    osc_err err;
    osc_tensor *bound;        /* per model input (input_order index); data borrowed */
    bool *is_bound;
    osc_tensor *vals;         /* per value: shape and data of the current run */
    osc_tensor *plan_inputs;  /* input shapes vals' inferred shapes were made for */
    bool inferred;            /* vals hold the shapes for plan_inputs */
    bool planned;             /* offsets hold a plan for those shapes and `direct` */
    /* per buffer (n_bufs + 1 entries each) */
    uint64_t *offsets;        /* place in the arena */
    uint64_t *need;           /* bytes its values need */
    uint64_t *sizes;          /* planner input */
    int32_t *scratch;         /* planner scratch, 3 per buffer */
    int32_t *direct;          /* output index whose caller buffer holds it, or -1 */
    int32_t *plan_direct;     /* `direct` the current plan was made for */
    bool *external;           /* direct[b] >= 0, as the planner takes it */
    void *arena;
    uint64_t arena_size;
    osc_pool strings;         /* bytes of strings made during a run */
    uint64_t *node_ns;        /* per node: time of the last run (opts.profile), else NULL */
    /* per graph output */
    void **out_data;          /* caller buffer or NULL (borrowed) */
    size_t *out_cap;          /* its bytes */
    int32_t *out_mode;        /* osc_output_mode of the last successful run */
    osc_node_io io;           /* kernel call scratch: m->max_in inputs, m->max_out outputs */
    bool *known;              /* per value: data known (dynamic models, staged inference) */
    void **buf_data;          /* per buffer: memory of the current run (dynamic models) */
    osc_pool stages;          /* arenas of the stages of a dynamic run, freed at the next */
    bool ok;                  /* outputs readable */
    max_align_t empty;        /* data of zero-size values when the arena is empty */
    osc_tpool *tpool;         /* opts.threads >= 2: the workers; NULL: the caller alone */
    osc_scratch kscratch;     /* kernels' scratch block, kept between runs */
};

/* Sizes of every per-session table, so create and free agree. */
typedef struct sizes_of {
    size_t ni, nv, nb, nn, no;
} sizes_of;

static sizes_of table_sizes(const osc_model *m) {
    sizes_of z = {(size_t)m->n_inputs + 1, (size_t)m->g.n_values + 1, (size_t)m->n_bufs + 1,
                  (size_t)m->g.n_nodes + 1, (size_t)m->g.n_outputs + 1};
    return z;
}

osc_status osc_session_create(const osc_model *m, osc_session **out) {
    if (out) *out = NULL;
    if (!m || !out) return OSC_ERR_ARG;
    osc_allocator a = m->alloc;
    a.used = 0; /* the cap counts each session on its own */
    a.capped = false;
    osc_session *s = osc_calloc(&a, 1, sizeof *s);
    if (!s) return a.capped ? OSC_ERR_LIMIT : OSC_ERR_NOMEM;
    s->alloc = a;
    s->m = m;
    sizes_of z = table_sizes(m);
    osc_pool_init(&s->strings, &s->alloc, 0);
    osc_pool_init(&s->stages, &s->alloc, 0);
    s->io.ins = osc_calloc(&s->alloc, (size_t)m->max_in, sizeof *s->io.ins);
    s->io.outs = osc_calloc(&s->alloc, (size_t)m->max_out, sizeof *s->io.outs);
    s->known = osc_calloc(&s->alloc, z.nv, sizeof *s->known);
    s->buf_data = osc_calloc(&s->alloc, z.nb, sizeof *s->buf_data);
    s->bound = osc_calloc(&s->alloc, z.ni, sizeof *s->bound);
    s->is_bound = osc_calloc(&s->alloc, z.ni, sizeof *s->is_bound);
    s->plan_inputs = osc_calloc(&s->alloc, z.ni, sizeof *s->plan_inputs);
    s->vals = osc_calloc(&s->alloc, z.nv, sizeof *s->vals);
    s->offsets = osc_calloc(&s->alloc, z.nb, sizeof *s->offsets);
    s->need = osc_calloc(&s->alloc, z.nb, sizeof *s->need);
    s->sizes = osc_calloc(&s->alloc, z.nb, sizeof *s->sizes);
    s->scratch = osc_calloc(&s->alloc, 3 * z.nb, sizeof *s->scratch);
    s->direct = osc_calloc(&s->alloc, z.nb, sizeof *s->direct);
    s->plan_direct = osc_calloc(&s->alloc, z.nb, sizeof *s->plan_direct);
    s->external = osc_calloc(&s->alloc, z.nb, sizeof *s->external);
    s->out_data = osc_calloc(&s->alloc, z.no, sizeof *s->out_data);
    s->out_cap = osc_calloc(&s->alloc, z.no, sizeof *s->out_cap);
    s->out_mode = osc_calloc(&s->alloc, z.no, sizeof *s->out_mode);
    if (m->opts.profile) s->node_ns = osc_calloc(&s->alloc, z.nn, sizeof *s->node_ns);
    if (!s->bound || !s->is_bound || !s->plan_inputs || !s->vals || !s->offsets || !s->need ||
        !s->sizes || !s->scratch || !s->direct || !s->plan_direct || !s->external ||
        !s->out_data || !s->out_cap || !s->out_mode || (m->opts.profile && !s->node_ns) ||
        !s->io.ins || !s->io.outs || !s->known || !s->buf_data) {
        osc_status st = s->alloc.capped ? OSC_ERR_LIMIT : OSC_ERR_NOMEM;
        osc_session_free(s);
        return st;
    }
    for (int32_t v = 0; v < m->g.n_values; v++)
        if (m->g.values[v].init) s->vals[v] = *m->g.values[v].init;
    s->tpool = osc_tpool_new(&s->alloc, m->opts.threads);
    s->kscratch.alloc = &s->alloc;
    *out = s;
    return OSC_OK;
}

void osc_session_free(osc_session *s) {
    if (!s) return;
    sizes_of z = table_sizes(s->m);
    osc_tpool_free(s->tpool);
    osc_scratch_free(&s->kscratch);
    osc_pool_free(&s->strings);
    osc_pool_free(&s->stages);
    osc_free(&s->alloc, s->io.ins, (size_t)s->m->max_in * sizeof *s->io.ins);
    osc_free(&s->alloc, s->io.outs, (size_t)s->m->max_out * sizeof *s->io.outs);
    osc_free(&s->alloc, s->known, z.nv * sizeof *s->known);
    osc_free(&s->alloc, s->buf_data, z.nb * sizeof *s->buf_data);
    osc_free(&s->alloc, s->arena, s->arena_size);
    osc_free(&s->alloc, s->bound, z.ni * sizeof *s->bound);
    osc_free(&s->alloc, s->is_bound, z.ni * sizeof *s->is_bound);
    osc_free(&s->alloc, s->plan_inputs, z.ni * sizeof *s->plan_inputs);
    osc_free(&s->alloc, s->vals, z.nv * sizeof *s->vals);
    osc_free(&s->alloc, s->offsets, z.nb * sizeof *s->offsets);
    osc_free(&s->alloc, s->need, z.nb * sizeof *s->need);
    osc_free(&s->alloc, s->sizes, z.nb * sizeof *s->sizes);
    osc_free(&s->alloc, s->scratch, 3 * z.nb * sizeof *s->scratch);
    osc_free(&s->alloc, s->direct, z.nb * sizeof *s->direct);
    osc_free(&s->alloc, s->plan_direct, z.nb * sizeof *s->plan_direct);
    osc_free(&s->alloc, s->external, z.nb * sizeof *s->external);
    osc_free(&s->alloc, s->out_data, z.no * sizeof *s->out_data);
    osc_free(&s->alloc, s->out_cap, z.no * sizeof *s->out_cap);
    osc_free(&s->alloc, s->out_mode, z.no * sizeof *s->out_mode);
    osc_free(&s->alloc, s->node_ns, z.nn * sizeof *s->node_ns);
    osc_allocator a = s->alloc;
    osc_free(&a, s, sizeof *s);
}

const char *osc_session_error(const osc_session *s) { return s ? s->err.msg : "no session"; }

uint64_t osc_session_arena_bytes(const osc_session *s) { return s ? s->arena_size : 0; }

int32_t osc_session_threads(const osc_session *s) { return s ? osc_tpool_size(s->tpool) : 0; }

uint64_t osc_session_node_ns(const osc_session *s, size_t node) {
    return (s && s->node_ns && node < (size_t)s->m->g.n_nodes) ? s->node_ns[node] : 0;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
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
    if (t->rank > s->m->lim.max_rank)
        return osc_fail(&s->err, OSC_ERR_LIMIT, "input '%s': rank %d; the limit is %d "
                        "(opts.max_rank)", val->name, (int)t->rank, (int)s->m->lim.max_rank);
    int64_t count = osc_tensor_count(t);
    size_t need;
    if (count < 0 || !osc_dtype_bytes(t->dtype, count, &need))
        return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': dims %s are negative or overflow",
                        val->name, osc_dims_str(t->dims, t->rank, got, sizeof got));
    if (t->nbytes != need || (need && !t->data))
        return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': nbytes is %zu but %s %s needs %zu%s",
                        val->name, t->nbytes, osc_dtype_get(t->dtype)->name,
                        osc_dims_str(t->dims, t->rank, got, sizeof got), need,
                        (need && !t->data) ? " (and data is NULL)" : "");
    int32_t want_dtype = d->dtype ? d->dtype : (val->init ? val->init->dtype : 0);
    if (want_dtype && want_dtype != t->dtype)
        return osc_fail(&s->err, OSC_ERR_SHAPE, "input '%s': expected dtype %s, given %s",
                        val->name, osc_dtype_get(want_dtype)->name,
                        osc_dtype_get(t->dtype)->name);
    bool bad = d->rank >= 0 && d->rank != t->rank; /* rank -1: any shape */
    for (int32_t i = 0; !bad && i < d->rank; i++) bad = d->dims[i] >= 0 && d->dims[i] != t->dims[i];
    if (bad)
        return osc_fail(&s->err, OSC_ERR_SHAPE, "input '%s': expected shape %s, given %s",
                        val->name, osc_dims_str(d->dims, d->rank, want, sizeof want),
                        osc_dims_str(t->dims, t->rank, got, sizeof got));
    /* whatever the declaration: a string input of unknown shape was once bound unchecked, and a
     * NULL pointer with a length then reached the kernels (found by tests/bad/test_misuse.c) */
    if (t->dtype == OSC_STRING) {
        const osc_string *str = t->data;
        for (int64_t i = 0; i < count; i++) {
            if (str[i].len && !str[i].ptr)
                return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': string %lld has length %zu "
                                "and a NULL pointer", val->name, (long long)i, str[i].len);
            if (str[i].len > s->m->lim.max_string)
                return osc_fail(&s->err, OSC_ERR_LIMIT, "input '%s': string %lld has %zu bytes; "
                                "the limit is %llu (opts.max_string_mib)", val->name,
                                (long long)i, str[i].len,
                                (unsigned long long)s->m->lim.max_string);
        }
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
    osc_tensor_assign(&s->bound[index], t);
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

/* Alignment a buffer must have to hold elements of dtype (sub-byte and byte types: 1). */
static size_t elem_align(int32_t dtype) {
    switch (dtype) {
    case OSC_STRING: return _Alignof(osc_string);
    case OSC_COMPLEX64: return _Alignof(float);
    case OSC_COMPLEX128: return _Alignof(double);
    default: {
        size_t bits = osc_dtype_get(dtype)->bits;
        return bits >= 8 ? bits / 8 : 1;
    }
    }
}

static bool overlap(const void *a, size_t na, const void *b, size_t nb) {
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return na && nb && pa < pb + nb && pb < pa + na;
}

/* Caller output buffers must hold their outputs and alias nothing else the run reads or writes.
 * Static models check before any node runs; dynamic ones once every shape is known, before the
 * outputs are copied (the only writes to them). */
static osc_status check_output_buffers(osc_session *s) {
    const osc_model *m = s->m;
    const osc_graph *g = &m->g;
    char dims[256];
    for (int32_t o = 0; o < g->n_outputs; o++) {
        if (!s->out_data[o]) continue;
        const osc_tensor *t = &s->vals[g->outputs[o]];
        const char *name = g->values[g->outputs[o]].name;
        if (s->out_cap[o] < t->nbytes)
            return osc_fail(&s->err, OSC_ERR_ARG, "output '%s' (index %d): the caller buffer has "
                            "%zu bytes; the output, %s %s, needs %zu", name, o, s->out_cap[o],
                            osc_dtype_get(t->dtype)->name,
                            osc_dims_str(t->dims, t->rank, dims, sizeof dims), t->nbytes);
        for (int32_t i = 0; i < m->n_inputs; i++) {
            const osc_tensor *in = &s->vals[m->input_order[i]];
            if (overlap(s->out_data[o], s->out_cap[o], in->data, in->nbytes))
                return osc_fail(&s->err, OSC_ERR_ARG, "output '%s' (index %d): the caller buffer "
                                "overlaps the buffer of input '%s'", name, o,
                                g->values[m->input_order[i]].name);
        }
        for (int32_t q = 0; q < o; q++)
            if (s->out_data[q] && overlap(s->out_data[o], s->out_cap[o], s->out_data[q],
                                          s->out_cap[q]))
                return osc_fail(&s->err, OSC_ERR_ARG, "output '%s' (index %d): the caller buffer "
                                "overlaps the one of output %d", name, o, q);
    }
    return OSC_OK;
}

/* Inputs written in place (opts.inplace_inputs) must not overlap other inputs, and the values
 * computed in them by nodes from..to-1 must fit. Checked before those nodes run. */
static osc_status check_inplace(osc_session *s, int32_t from, int32_t to) {
    const osc_model *m = s->m;
    const osc_graph *g = &m->g;
    for (int32_t i = 0; i < m->n_inputs; i++) {
        if (!m->input_inplace[i]) continue;
        const osc_tensor *in = &s->vals[m->input_order[i]];
        for (int32_t j = 0; j < m->n_inputs; j++) {
            const osc_tensor *other = &s->vals[m->input_order[j]];
            if (j != i && overlap(in->data, in->nbytes, other->data, other->nbytes))
                return osc_fail(&s->err, OSC_ERR_ARG, "input '%s' is written in place "
                                "(opts.inplace_inputs) but its buffer overlaps the one of input "
                                "'%s'", g->values[m->input_order[i]].name,
                                g->values[m->input_order[j]].name);
        }
    }
    /* Values computed in a caller's input buffer must fit it. Scatter outputs have their data
     * input's shape, so this only guards the invariant. */
    for (int32_t v = 0; v < g->n_values; v++) {
        int32_t b = m->buf_of[v], p = g->values[v].producer;
        if (b < 0 || m->buf_input[b] < 0 || p < from || p >= to) continue;
        const osc_tensor *in = &s->vals[m->input_order[m->buf_input[b]]];
        if (s->vals[v].nbytes > in->nbytes)
            return osc_fail(&s->err, OSC_ERR_SHAPE, "value '%s' needs %zu bytes but is computed "
                            "in place in input '%s' of %zu bytes", g->values[v].name,
                            s->vals[v].nbytes, g->values[m->input_order[m->buf_input[b]]].name,
                            in->nbytes);
    }
    return OSC_OK;
}

/* Which arena buffers a caller output buffer replaces (zero copy): the output's own buffer when
 * it is not held in an input buffer, not claimed by an earlier output listing the same value,
 * and the caller buffer holds every value sharing it, aligned for each. */
static void choose_direct(osc_session *s) {
    const osc_model *m = s->m;
    const osc_graph *g = &m->g;
    for (int32_t b = 0; b < m->n_bufs; b++) s->direct[b] = -1;
    for (int32_t o = 0; o < g->n_outputs; o++) {
        int32_t b = m->buf_of[g->outputs[o]];
        if (!s->out_data[o] || b < 0 || m->buf_input[b] >= 0 || s->direct[b] >= 0 ||
            s->need[b] > s->out_cap[o])
            continue;
        bool aligned = true;
        for (int32_t v = 0; aligned && v < g->n_values; v++)
            if (m->buf_of[v] == b)
                aligned = (uintptr_t)s->out_data[o] % elem_align(s->vals[v].dtype) == 0;
        if (aligned) s->direct[b] = o;
    }
}

/* Points every buffered value at its memory: a caller input buffer (in place), a caller output
 * buffer (direct) or the arena. Done at every run: caller pointers change without a re-plan. */
static void place_values(osc_session *s) {
    const osc_model *m = s->m;
    for (int32_t v = 0; v < m->g.n_values; v++) {
        int32_t b = m->buf_of[v];
        if (b < 0) continue;
        if (m->buf_input[b] >= 0) s->vals[v].data = s->vals[m->input_order[m->buf_input[b]]].data;
        else if (s->direct[b] >= 0) s->vals[v].data = s->out_data[s->direct[b]];
        else s->vals[v].data = s->arena ? (void *)((char *)s->arena + s->offsets[b])
                                        : (void *)&s->empty;
    }
}

/* Re-infers shapes when input shapes differ from the last inference, checks caller buffers,
 * re-plans the arena when shapes or direct outputs changed. The new arena is allocated before
 * the old one is freed, so a failure keeps the session usable. Nothing is written here. */
static osc_status prepare_run(osc_session *s) {
    const osc_model *m = s->m;
    bool changed = !s->inferred;
    for (int32_t i = 0; !changed && i < m->n_inputs; i++)
        changed = !same_shape(&s->plan_inputs[i], &s->vals[m->input_order[i]]);
    if (changed) {
        s->inferred = s->planned = false;
        int32_t stop;
        osc_status st = osc_infer_range(m, s->vals, NULL, 0, m->g.n_nodes, &stop, s->io, &s->err);
        if (!st) st = osc_check_ranks(m, s->vals, 0, m->g.n_nodes, &s->err);
        if (st) return st;
        for (int32_t i = 0; i < m->n_inputs; i++) s->plan_inputs[i] = s->vals[m->input_order[i]];
        osc_buffer_need(m, s->vals, s->need);
        s->inferred = true;
    }
    osc_status st = check_output_buffers(s);
    if (!st) st = check_inplace(s, 0, m->g.n_nodes);
    if (st) return st;
    choose_direct(s);
    size_t nb = (size_t)m->n_bufs;
    if (!s->planned || memcmp(s->direct, s->plan_direct, nb * sizeof *s->direct) != 0) {
        s->planned = false;
        for (size_t b = 0; b < nb; b++) s->external[b] = s->direct[b] >= 0;
        uint64_t size = osc_plan_run(m, s->need, s->external, s->sizes, s->scratch, s->offsets);
        if (m->opts.max_arena_bytes && size > m->opts.max_arena_bytes)
            return osc_fail(&s->err, OSC_ERR_LIMIT, "the run needs an arena of %llu bytes; "
                            "opts.max_arena_bytes is %llu", (unsigned long long)size,
                            (unsigned long long)m->opts.max_arena_bytes);
        if (size > SIZE_MAX)
            return osc_fail(&s->err, OSC_ERR_LIMIT, "arena of %llu bytes is too large to address",
                            (unsigned long long)size);
        if (size > s->arena_size) {
            void *arena = osc_malloc_large(&s->alloc, (size_t)size);
            if (!arena && s->alloc.capped)
                return osc_fail(&s->err, OSC_ERR_LIMIT, "the run needs an arena of %llu bytes; "
                                "with the %llu bytes this session holds that exceeds "
                                "opts.max_bytes (%llu)", (unsigned long long)size,
                                (unsigned long long)s->alloc.used,
                                (unsigned long long)s->alloc.cap);
            if (!arena)
                return osc_fail(&s->err, OSC_ERR_NOMEM, "cannot allocate an arena of %llu bytes",
                                (unsigned long long)size);
            osc_free(&s->alloc, s->arena, s->arena_size);
            s->arena = arena;
            s->arena_size = size;
        }
        memcpy(s->plan_direct, s->direct, nb * sizeof *s->direct);
        s->planned = true;
    }
    place_values(s);
    return OSC_OK;
}

/* String outputs made by nodes may point into input strings: give them their own bytes.
 * Constants (initializers, values folded at load) are the model's: shared, never rewritten. */
static osc_status own_string_outputs(osc_session *s) {
    const osc_graph *g = &s->m->g;
    for (int32_t o = 0; o < g->n_outputs; o++) {
        osc_tensor *t = &s->vals[g->outputs[o]];
        const osc_value *v = &g->values[g->outputs[o]];
        if (t->dtype != OSC_STRING || v->producer < 0 || v->init) continue;
        osc_string *str = t->data;
        int64_t count = osc_tensor_count(t);
        for (int64_t i = 0; i < count; i++) {
            if (str[i].len > s->m->lim.max_string)
                return osc_fail(&s->err, OSC_ERR_LIMIT, "output '%s': string %lld has %zu bytes; "
                                "the limit is %llu (opts.max_string_mib)",
                                g->values[g->outputs[o]].name, (long long)i, str[i].len,
                                (unsigned long long)s->m->lim.max_string);
            char *copy = osc_pool_strndup(&s->strings, str[i].ptr, str[i].len);
            if (!copy) return osc_fail(&s->err, OSC_ERR_NOMEM, "out of memory copying strings");
            str[i].ptr = copy;
        }
    }
    return OSC_OK;
}

/* Outputs with a caller buffer not written directly are copied there; only after every node
 * succeeded, so those buffers are untouched by a failed run. */
static void finish_outputs(osc_session *s) {
    const osc_graph *g = &s->m->g;
    for (int32_t o = 0; o < g->n_outputs; o++) {
        const osc_tensor *t = &s->vals[g->outputs[o]];
        int32_t b = s->m->buf_of[g->outputs[o]];
        if (!s->out_data[o]) {
            s->out_mode[o] = OSC_OUTPUT_SESSION;
        } else if (b >= 0 && s->direct[b] == o) {
            s->out_mode[o] = OSC_OUTPUT_DIRECT;
        } else {
            if (t->nbytes) memcpy(s->out_data[o], t->data, t->nbytes);
            s->out_mode[o] = OSC_OUTPUT_COPIED;
        }
    }
}

/* Runs nodes from..to-1 (folded ones are constants already); in a dynamic model each output
 * becomes known data for the inference of later stages. */
static osc_status run_nodes(osc_session *s, int32_t from, int32_t to) {
    const osc_model *m = s->m;
    const osc_graph *g = &m->g;
    for (int32_t i = from; i < to; i++) {
        const osc_node *n = &g->nodes[i];
        if (n->folded) continue;
        osc_kctx k = {.err = &s->err, .graph = g, .node = n,
                      .since_version = n->kernel->since, .params = n->params,
                      .alloc = &s->alloc,
                      .strings = &s->strings, .strict = m->opts.strict != 0,
                      .tpool = s->tpool, .scratch = &s->kscratch};
        uint64_t t0 = s->node_ns ? now_ns() : 0;
        osc_status st = osc_run_node(m, i, s->vals, s->io, &k);
        if (s->node_ns) s->node_ns[i] = now_ns() - t0;
        if (st) return st;
        for (int32_t j = 0; m->dynamic && j < n->n_outputs; j++) s->known[n->outputs[j]] = true;
    }
    return OSC_OK;
}

/* A dynamic model runs in stages: infer as far as known data allows, place that stage's new
 * buffers in an arena of its own (earlier stages' buffers stay where they are), run the stage,
 * repeat. Outputs are always copied to caller buffers at the end (no zero copy here). */
static osc_status run_dynamic(osc_session *s) {
    const osc_model *m = s->m;
    const osc_graph *g = &m->g;
    uint64_t total = 0;
    osc_pool_reset(&s->stages);
    for (int32_t v = 0; v < g->n_values; v++)
        s->known[v] = g->values[v].producer < 0 || g->values[v].init; /* inputs, constants */
    for (int32_t b = 0; b < m->n_bufs; b++) {
        s->direct[b] = -1;
        s->buf_data[b] = m->buf_input[b] >= 0 ? s->vals[m->input_order[m->buf_input[b]]].data
                                               : NULL;
    }
    osc_status st = check_inplace(s, 0, 0);
    if (st) return st;
    for (int32_t i = 0; i < m->n_inputs; i++) /* nodes write from here: consumed */
        if (m->input_inplace[i]) s->is_bound[i] = false;
    for (int32_t from = 0, stop; from < g->n_nodes; from = stop) {
        st = osc_infer_range(m, s->vals, s->known, from, g->n_nodes, &stop, s->io, &s->err);
        if (!st) st = osc_check_ranks(m, s->vals, from, stop, &s->err);
        if (st) return st;
        if (stop == from)
            return osc_fail(&s->err, OSC_ERR_MODEL, "node '%s' (%s): its output shape depends on "
                            "data no earlier node computes", g->nodes[from].name,
                            g->nodes[from].op_type);
        osc_buffer_need(m, s->vals, s->need);
        for (int32_t b = 0; b < m->n_bufs; b++)
            s->external[b] = m->buf_first[b] < from || m->buf_first[b] >= stop;
        uint64_t size = osc_plan_run(m, s->need, s->external, s->sizes, s->scratch, s->offsets);
        total += size;
        if (m->opts.max_arena_bytes && total > m->opts.max_arena_bytes)
            return osc_fail(&s->err, OSC_ERR_LIMIT, "the run needs arenas of %llu bytes so far; "
                            "opts.max_arena_bytes is %llu", (unsigned long long)total,
                            (unsigned long long)m->opts.max_arena_bytes);
        char *arena = size <= SIZE_MAX ? osc_pool_alloc(&s->stages, (size_t)size) : NULL;
        if (!arena)
            return osc_fail(&s->err, OSC_ERR_NOMEM, "cannot allocate a stage arena of %llu bytes",
                            (unsigned long long)size);
        for (int32_t b = 0; b < m->n_bufs; b++)
            if (!s->external[b] && m->buf_input[b] < 0) s->buf_data[b] = arena + s->offsets[b];
        for (int32_t v = 0; v < g->n_values; v++) {
            int32_t p = g->values[v].producer, b = m->buf_of[v];
            if (b >= 0 && p >= from && p < stop) s->vals[v].data = s->buf_data[b];
        }
        st = check_inplace(s, from, stop);
        if (!st) st = run_nodes(s, from, stop);
        if (st) return st;
    }
    return check_output_buffers(s);
}

/* osc_session_run without the byte-cap explanation. */
static osc_status run(osc_session *s) {
    const osc_model *m = s->m;
    const osc_graph *g = &m->g;
    for (int32_t i = 0; i < m->n_inputs; i++) {
        int32_t v = m->input_order[i];
        if (s->is_bound[i]) osc_tensor_assign(&s->vals[v], &s->bound[i]);
        else if (g->values[v].init) osc_tensor_assign(&s->vals[v], g->values[v].init);
        else
            return osc_fail(&s->err, OSC_ERR_ARG, "input '%s' (index %d) is not bound: call "
                            "osc_session_set_input first%s", g->values[v].name, i,
                            m->input_inplace[i] ? " (it is written in place, so every run "
                                                  "consumes it)" : "");
    }
    osc_status st = check_symbols(s);
    if (st) return st;
    osc_pool_reset(&s->strings);
    if (s->node_ns) memset(s->node_ns, 0, (size_t)g->n_nodes * sizeof *s->node_ns);
    if (m->dynamic) {
        st = run_dynamic(s);
    } else {
        st = prepare_run(s);
        if (st) return st;
        /* From here nodes write: an input written in place is consumed, whatever the outcome. */
        for (int32_t i = 0; i < m->n_inputs; i++)
            if (m->input_inplace[i]) s->is_bound[i] = false;
        st = run_nodes(s, 0, g->n_nodes);
    }
    if (!st) st = own_string_outputs(s);
    if (st) return st;
    finish_outputs(s);
    s->ok = true;
    return OSC_OK;
}

osc_status osc_session_run(osc_session *s) {
    if (!s) return OSC_ERR_ARG;
    osc_err_clear(&s->err);
    s->ok = false;
    s->alloc.capped = false;
    osc_status st = run(s);
    return st ? osc_cap_explain(&s->err, &s->alloc, "this session") : st;
}

/* The checks the output calls share: OSC_ERR_ARG for a bad index, OSC_ERR_STATE without a
 * successful run since the last binding; either leaves a message. */
static osc_status output_ready(osc_session *s, size_t index) {
    osc_err_clear(&s->err);
    if (index >= (size_t)s->m->g.n_outputs)
        return osc_fail(&s->err, OSC_ERR_ARG, "output index %zu is out of range [0, %d]", index,
                        s->m->g.n_outputs - 1);
    if (!s->ok)
        return osc_fail(&s->err, OSC_ERR_STATE, "no successful run: outputs are not available");
    return OSC_OK;
}

osc_status osc_session_output(osc_session *s, size_t index, osc_tensor *out) {
    if (!s || !out) return OSC_ERR_ARG;
    osc_status st = output_ready(s, index);
    if (st) return st;
    *out = s->vals[s->m->g.outputs[index]];
    if (s->out_mode[index] == OSC_OUTPUT_COPIED) out->data = s->out_data[index];
    return OSC_OK;
}

osc_status osc_session_output_mode(osc_session *s, size_t index, int32_t *mode) {
    if (!s || !mode) return OSC_ERR_ARG;
    osc_status st = output_ready(s, index);
    if (st) return st;
    *mode = s->out_mode[index];
    return OSC_OK;
}

osc_status osc_session_set_output_buffer(osc_session *s, size_t index, void *data,
                                         size_t nbytes) {
    if (!s) return OSC_ERR_ARG;
    osc_err_clear(&s->err);
    if (index >= (size_t)s->m->g.n_outputs)
        return osc_fail(&s->err, OSC_ERR_ARG, "output index %zu is out of range [0, %d]", index,
                        s->m->g.n_outputs - 1);
    if (!data && nbytes)
        return osc_fail(&s->err, OSC_ERR_ARG, "output %zu: data is NULL but nbytes is %zu",
                        index, nbytes);
    s->out_data[index] = data;
    s->out_cap[index] = data ? nbytes : 0;
    s->ok = false;
    return OSC_OK;
}
