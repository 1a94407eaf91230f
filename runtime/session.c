/* session.c: the session API: create and free, bound inputs, caller output buffers, outputs. */
#include <string.h>

#include "core/pack.h"
#include "loader/loader.h"
#include "session.h"

/* Sizes of every per-session table, so create and free agree. */
typedef struct sizes_of {
    size_t ni, nv, nb, nn, no;
} sizes_of;

static sizes_of table_sizes(const osc_model *m) {
    sizes_of z = {(size_t)m->n_inputs + 1, (size_t)m->g.n_values + 1, (size_t)m->n_bufs + 1,
                  (size_t)m->g.n_nodes + 1, (size_t)m->g.n_outputs + 1};
    return z;
}

/* A session of m with allocator a; outer: the session a subgraph's session runs in (its threads
 * are borrowed), else NULL. */
static osc_status create(const osc_model *m, osc_allocator a, osc_session *outer,
                         osc_session **out) {
    osc_session *s = osc_calloc(&a, 1, sizeof *s);
    if (!s) return a.capped ? OSC_ERR_LIMIT : OSC_ERR_NOMEM;
    s->alloc = a;
    s->m = m;
    sizes_of z = table_sizes(m);
    osc_pool_init(&s->strings, &s->alloc, 0);
    s->io.ins = osc_calloc(&s->alloc, (size_t)m->max_in, sizeof *s->io.ins);
    s->io.outs = osc_calloc(&s->alloc, (size_t)m->max_out, sizeof *s->io.outs);
    s->known = osc_calloc(&s->alloc, z.nv, sizeof *s->known);
    s->unchanged = osc_calloc(&s->alloc, z.nv, sizeof *s->unchanged);
    s->buf_data = osc_calloc(&s->alloc, z.nb, sizeof *s->buf_data);
    s->bound = osc_calloc(&s->alloc, z.ni, sizeof *s->bound);
    s->is_bound = osc_calloc(&s->alloc, z.ni, sizeof *s->is_bound);
    s->wrap = osc_calloc(&s->alloc, z.ni, sizeof *s->wrap);
    s->wrap_cap = osc_calloc(&s->alloc, z.ni, sizeof *s->wrap_cap);
    s->plan_inputs = osc_calloc(&s->alloc, z.ni, sizeof *s->plan_inputs);
    s->vals = osc_calloc(&s->alloc, z.nv, sizeof *s->vals);
    s->offsets = osc_calloc(&s->alloc, z.nb, sizeof *s->offsets);
    s->need = osc_calloc(&s->alloc, z.nb, sizeof *s->need);
    s->sizes = osc_calloc(&s->alloc, z.nb, sizeof *s->sizes);
    s->scratch = osc_calloc(&s->alloc, OSC_PLAN_SCRATCH(z.nb), sizeof *s->scratch);
    s->direct = osc_calloc(&s->alloc, z.nb, sizeof *s->direct);
    s->plan_direct = osc_calloc(&s->alloc, z.nb, sizeof *s->plan_direct);
    s->external = osc_calloc(&s->alloc, z.nb, sizeof *s->external);
    s->out_data = osc_calloc(&s->alloc, z.no, sizeof *s->out_data);
    s->out_cap = osc_calloc(&s->alloc, z.no, sizeof *s->out_cap);
    s->out_mode = osc_calloc(&s->alloc, z.no, sizeof *s->out_mode);
    s->shape_slots = osc_calloc(&s->alloc, (size_t)m->n_shape_outputs + 1, OSC_SHAPE_SLOT);
    if (m->opts.profile) s->node_ns = osc_calloc(&s->alloc, z.nn, sizeof *s->node_ns);
    s->slots = osc_calloc(&s->alloc, z.nn, sizeof *s->slots);
    s->bodies = osc_calloc(&s->alloc, (size_t)m->n_bodies + 1, sizeof *s->bodies);
    if (m->dynamic) {
        s->stages = osc_calloc(&s->alloc, z.nn, sizeof *s->stages);
        s->plan_need = osc_calloc(&s->alloc, z.nb, sizeof *s->plan_need);
    }
    if (!s->bound || !s->is_bound || !s->wrap || !s->wrap_cap || !s->plan_inputs || !s->vals ||
        !s->offsets || !s->need ||
        !s->sizes || !s->scratch || !s->direct || !s->plan_direct || !s->external ||
        !s->out_data || !s->out_cap || !s->out_mode || (m->opts.profile && !s->node_ns) ||
        !s->io.ins || !s->io.outs || !s->known || !s->unchanged || !s->buf_data || !s->shape_slots ||
        !s->slots || !s->bodies ||
        (m->dynamic && (!s->stages || !s->plan_need))) {
        osc_status st = s->alloc.capped ? OSC_ERR_LIMIT : OSC_ERR_NOMEM;
        osc_session_free(s);
        return st;
    }
    for (int32_t v = 0; v < m->g.n_values; v++)
        if (m->g.values[v].init) s->vals[v] = *m->g.values[v].init;
    for (int32_t i = 0, at = 0; m->shape_node && i < m->g.n_nodes; i++)
        for (int32_t j = 0; m->shape_node[i] && j < m->g.nodes[i].n_outputs; j++, at++)
            if (m->g.nodes[i].outputs[j] >= 0)
                s->vals[m->g.nodes[i].outputs[j]].data = s->shape_slots + (size_t)at * OSC_SHAPE_SLOT;
    for (size_t k = 0; m->dynamic && k < z.nn; k++) s->stages[k].from = s->stages[k].stop = -1;
    for (size_t b = 0; m->dynamic && b < z.nb; b++) s->plan_need[b] = UINT64_MAX; /* none yet */
    s->borrowed_tpool = outer != NULL;
    s->cancel = outer ? outer->cancel : &s->cancel_req;
    s->tpool = outer ? outer->tpool : osc_tpool_new(&s->alloc, m->opts.threads);
    s->kscratch.alloc = &s->alloc;
    s->kstore.alloc = &s->alloc;
    *out = s;
    return OSC_OK;
}

osc_status osc_session_create(const osc_model *m, osc_session **out) {
    if (out) *out = NULL;
    if (!m || !out) return OSC_ERR_ARG;
    osc_allocator a = m->alloc;
    a.used = 0; /* the cap counts each session on its own */
    a.capped = false;
    return create(m, a, NULL, out);
}

osc_status osc_session_create_body(const osc_model *m, osc_session *outer, osc_session **out) {
    osc_allocator a;
    osc_allocator_child(&a, &outer->alloc);
    *out = NULL;
    return create(m, a, outer, out);
}

void osc_session_free(osc_session *s) {
    if (!s || !osc_session_enter(s, OSC_CALL_FREE)) return; /* in use: freeing it would crash */
    sizes_of z = table_sizes(s->m);
    if (!s->borrowed_tpool) osc_tpool_free(s->tpool);
    for (int32_t b = 0; s->bodies && b < s->m->n_bodies; b++) osc_session_free(s->bodies[b]);
    for (size_t i = 0; s->slots && i < z.nn; i++)
        if (s->slots[i].drop) s->slots[i].drop(s->slots[i].p);
    osc_free(&s->alloc, s->slots, z.nn * sizeof *s->slots);
    osc_free(&s->alloc, s->bodies, ((size_t)s->m->n_bodies + 1) * sizeof *s->bodies);
    osc_scratch_free(&s->kscratch);
    osc_kstore_free(&s->kstore);
    osc_pool_free(&s->strings);
    for (size_t k = 0; s->stages && k < z.nn; k++)
        osc_free(&s->alloc, s->stages[k].arena, s->stages[k].cap);
    osc_free(&s->alloc, s->stages, z.nn * sizeof *s->stages);
    osc_free(&s->alloc, s->plan_need, z.nb * sizeof *s->plan_need);
    osc_free(&s->alloc, s->io.ins, (size_t)s->m->max_in * sizeof *s->io.ins);
    osc_free(&s->alloc, s->io.outs, (size_t)s->m->max_out * sizeof *s->io.outs);
    osc_free(&s->alloc, s->known, z.nv * sizeof *s->known);
    osc_free(&s->alloc, s->unchanged, z.nv * sizeof *s->unchanged);
    osc_free(&s->alloc, s->buf_data, z.nb * sizeof *s->buf_data);
    osc_free(&s->alloc, s->arena, s->arena_size);
    osc_free(&s->alloc, s->bound, z.ni * sizeof *s->bound);
    osc_free(&s->alloc, s->is_bound, z.ni * sizeof *s->is_bound);
    for (size_t k = 0; s->wrap && s->wrap_cap && k < z.ni; k++)
        osc_free(&s->alloc, s->wrap[k], s->wrap_cap[k]);
    osc_free(&s->alloc, s->wrap, z.ni * sizeof *s->wrap);
    osc_free(&s->alloc, s->wrap_cap, z.ni * sizeof *s->wrap_cap);
    osc_free(&s->alloc, s->plan_inputs, z.ni * sizeof *s->plan_inputs);
    osc_free(&s->alloc, s->vals, z.nv * sizeof *s->vals);
    osc_free(&s->alloc, s->shape_slots, ((size_t)s->m->n_shape_outputs + 1) * OSC_SHAPE_SLOT);
    osc_free(&s->alloc, s->offsets, z.nb * sizeof *s->offsets);
    osc_free(&s->alloc, s->need, z.nb * sizeof *s->need);
    osc_free(&s->alloc, s->sizes, z.nb * sizeof *s->sizes);
    osc_free(&s->alloc, s->scratch, OSC_PLAN_SCRATCH(z.nb) * sizeof *s->scratch);
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

/* Messages of the calls refused while the session is in use (osc_session_enter). Constants:
 * the message of the call holding the session is its own until that call returns. */
static const char *const refusal[OSC_CALL_COUNT] = {
#define OSC_BUSY(call) call ": the session is in use by another call (a run in progress, called " \
    "from its node hook or from another thread); call it once that call has returned"
    [OSC_CALL_NONE] = "the session is in use by a call in progress (a run, called from its node "
                      "hook or from another thread)",
    [OSC_CALL_RUN] = OSC_BUSY("osc_session_run"),
    [OSC_CALL_SET_INPUT] = OSC_BUSY("osc_session_set_input"),
    [OSC_CALL_UNBIND_INPUT] = OSC_BUSY("osc_session_unbind_input"),
    [OSC_CALL_INPUT_UNCHANGED] = OSC_BUSY("osc_session_input_unchanged"),
    [OSC_CALL_SET_OUTPUT_BUFFER] = OSC_BUSY("osc_session_set_output_buffer"),
    [OSC_CALL_OUTPUT] = OSC_BUSY("osc_session_output"),
    [OSC_CALL_OUTPUT_MODE] = OSC_BUSY("osc_session_output_mode"),
    [OSC_CALL_SET_NODE_HOOK] = OSC_BUSY("osc_session_set_node_hook"),
    [OSC_CALL_READ] = OSC_BUSY("osc_session_arena_bytes, _node_ns or _node_subgraph"),
    [OSC_CALL_FREE] = OSC_BUSY("osc_session_free (nothing was freed)"),
#undef OSC_BUSY
};

bool osc_session_enter(osc_session *s, osc_call call) {
    int idle = 0;
    if (atomic_compare_exchange_strong_explicit(&s->in_use, &idle, 1, memory_order_acquire,
                                                memory_order_relaxed))
        return true;
    atomic_store_explicit(&s->refused, (int)call, memory_order_relaxed);
    return false;
}

void osc_session_leave(osc_session *s) {
    atomic_store_explicit(&s->in_use, 0, memory_order_release);
}

const char *osc_session_error(const osc_session *s) {
    if (!s) return "no session";
    osc_session *w = (osc_session *)s; /* the flags are atomics: reading them writes nothing */
    if (atomic_load_explicit(&w->in_use, memory_order_acquire)) {
        int call = atomic_load_explicit(&w->refused, memory_order_relaxed);
        return refusal[call > 0 && call < OSC_CALL_COUNT ? call : OSC_CALL_NONE];
    }
    return s->err.msg;
}

osc_status osc_session_cancel(osc_session *s) {
    if (!s) return OSC_ERR_ARG;
    atomic_store(&s->cancel_req, 1);
    return OSC_OK;
}

osc_status osc_session_set_node_hook(osc_session *s, osc_node_hook fn, void *ud) {
    if (!s) return OSC_ERR_ARG;
    if (!osc_session_enter(s, OSC_CALL_SET_NODE_HOOK)) return OSC_ERR_STATE;
    s->hook = fn;
    s->hook_ud = ud;
    osc_session_leave(s);
    return OSC_OK;
}

/* The reading calls take a const session: they hold it like any call (its flags are atomics
 * of a session the caller made, so this writes nothing the caller declared const). */
static osc_session *enter_read(const osc_session *s) {
    osc_session *w = (osc_session *)s;
    return w && osc_session_enter(w, OSC_CALL_READ) ? w : NULL;
}

uint64_t osc_session_arena_bytes(const osc_session *s) {
    osc_session *w = enter_read(s);
    if (!w) return 0;
    uint64_t n = w->arena_size;
    osc_session_leave(w);
    return n;
}

/* The pool is made with the session and never changes: no need to hold it. */
int32_t osc_session_threads(const osc_session *s) { return s ? osc_tpool_size(s->tpool) : 0; }

uint64_t osc_session_node_ns(const osc_session *s, size_t node) {
    osc_session *w = enter_read(s);
    if (!w) return 0;
    uint64_t ns = w->node_ns && node < (size_t)w->m->g.n_nodes ? w->node_ns[node] : 0;
    osc_session_leave(w);
    return ns;
}

const osc_session *osc_session_node_subgraph(const osc_session *s, size_t i, size_t k) {
    osc_session *w = enter_read(s);
    if (!w) return NULL;
    const osc_model *b = osc_model_node_subgraph(w->m, i, k);
    const osc_session *body = b ? w->bodies[b->body_id] : NULL;
    osc_session_leave(w);
    return body;
}

/* Clears the session's message; OSC_ERR_ARG with one when index is not an input's. */
static osc_status input_index(osc_session *s, size_t index) {
    osc_err_clear(&s->err);
    if (index < (size_t)s->m->n_inputs) return OSC_OK;
    return osc_fail(&s->err, OSC_ERR_ARG, "input index %zu is out of range [0, %d]", index,
                    s->m->n_inputs - 1);
}

/* An input declared optional bound a tensor or a sequence: it is bound the optional holding a
 * copy of it (as a Loop's body gets, when its carried value is the element), in a room the
 * session keeps for that input. */
static osc_status bind_wrapped(osc_session *s, size_t index, const osc_tensor *t,
                               osc_tensor *opt) {
    const char *name = s->m->g.values[s->m->input_order[index]].name;
    size_t nb;
    uint64_t bytes;
    osc_status st = t->dtype == OSC_SEQUENCE ? osc_pack_check(t, name, &s->err)
                                             : osc_tensor_view_check(t, &nb, &s->err);
    if (!st && t->dtype == OSC_STRING)
        st = osc_fail(&s->err, OSC_ERR_UNSUPPORTED, "input '%s': an optional of strings is not "
                      "supported", name);
    if (!st && (!osc_pack_bytes(1, &t, &bytes) || bytes > SIZE_MAX))
        st = osc_fail(&s->err, OSC_ERR_LIMIT, "input '%s': too large", name);
    if (st) return st;
    if (s->wrap_cap[index] < bytes) {
        void *p = osc_malloc(&s->alloc, (size_t)bytes);
        if (!p) return osc_fail(&s->err, OSC_ERR_NOMEM, "input '%s': out of memory (%llu bytes)",
                                name, (unsigned long long)bytes);
        osc_free(&s->alloc, s->wrap[index], s->wrap_cap[index]);
        s->wrap[index] = p;
        s->wrap_cap[index] = (size_t)bytes;
    }
    osc_pack_write(s->wrap[index], OSC_OPTIONAL, t->dtype, 1, &t);
    osc_pack_shape(opt, OSC_OPTIONAL, bytes);
    opt->data = s->wrap[index];
    return OSC_OK;
}

/* osc_session_set_input_at with the session held. */
static osc_status set_input_at(osc_session *s, size_t index, const osc_tensor *t) {
    osc_status st = input_index(s, index);
    if (st) return st;
    osc_tensor opt;
    if (t && s->m->g.values[s->m->input_order[index]].decl.dtype == OSC_OPTIONAL &&
        t->dtype != OSC_OPTIONAL) {
        osc_err_clear(&s->err);
        if ((st = bind_wrapped(s, index, t, &opt))) return st;
        t = &opt;
    }
    st = osc_check_input(s, s->m->input_order[index], t);
    if (st && t == &opt) { /* the room may have held the previous binding: none stays */
        memset(&s->bound[index], 0, sizeof s->bound[index]);
        s->is_bound[index] = false;
    }
    if (st) return st;
    osc_tensor_assign(&s->bound[index], t);
    s->is_bound[index] = true;
    s->ok = false;
    return OSC_OK;
}

osc_status osc_session_set_input_at(osc_session *s, size_t index, const osc_tensor *t) {
    if (!s) return OSC_ERR_ARG;
    if (!osc_session_enter(s, OSC_CALL_SET_INPUT)) return OSC_ERR_STATE;
    osc_status st = set_input_at(s, index, t);
    osc_session_leave(s);
    return st;
}

osc_status osc_session_unbind_input(osc_session *s, size_t index) {
    if (!s) return OSC_ERR_ARG;
    if (!osc_session_enter(s, OSC_CALL_UNBIND_INPUT)) return OSC_ERR_STATE;
    osc_status st = input_index(s, index);
    if (!st) {
        memset(&s->bound[index], 0, sizeof s->bound[index]);
        s->is_bound[index] = false;
        s->ok = false;
    }
    osc_session_leave(s);
    return st;
}

osc_status osc_session_input_unchanged(osc_session *s, size_t index) {
    if (!s) return OSC_ERR_ARG;
    if (!osc_session_enter(s, OSC_CALL_INPUT_UNCHANGED)) return OSC_ERR_STATE;
    osc_status st = input_index(s, index);
    if (!st) s->unchanged[s->m->input_order[index]] = 1;
    osc_session_leave(s);
    return st;
}

osc_status osc_session_set_input(osc_session *s, const char *name, const osc_tensor *t) {
    if (!s || !name) return OSC_ERR_ARG;
    if (!osc_session_enter(s, OSC_CALL_SET_INPUT)) return OSC_ERR_STATE;
    int32_t i = 0;
    while (i < s->m->n_inputs && strcmp(s->m->g.values[s->m->input_order[i]].name, name) != 0)
        i++;
    osc_status st;
    if (i < s->m->n_inputs) {
        st = set_input_at(s, (size_t)i, t);
    } else {
        osc_err_clear(&s->err);
        st = osc_fail(&s->err, OSC_ERR_ARG, "the model has no input named '%s'", name);
    }
    osc_session_leave(s);
    return st;
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
    if (!osc_session_enter(s, OSC_CALL_OUTPUT)) return OSC_ERR_STATE;
    osc_status st = output_ready(s, index);
    if (!st) {
        *out = s->vals[s->m->g.outputs[index]];
        if (s->out_mode[index] == OSC_OUTPUT_COPIED) out->data = s->out_data[index];
    }
    osc_session_leave(s);
    return st;
}

osc_status osc_session_output_mode(osc_session *s, size_t index, int32_t *mode) {
    if (!s || !mode) return OSC_ERR_ARG;
    if (!osc_session_enter(s, OSC_CALL_OUTPUT_MODE)) return OSC_ERR_STATE;
    osc_status st = output_ready(s, index);
    if (!st) *mode = s->out_mode[index];
    osc_session_leave(s);
    return st;
}

/* osc_session_set_output_buffer with the session held. */
static osc_status set_output_buffer(osc_session *s, size_t index, void *data, size_t nbytes) {
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

osc_status osc_session_set_output_buffer(osc_session *s, size_t index, void *data,
                                         size_t nbytes) {
    if (!s) return OSC_ERR_ARG;
    if (!osc_session_enter(s, OSC_CALL_SET_OUTPUT_BUFFER)) return OSC_ERR_STATE;
    osc_status st = set_output_buffer(s, index, data, nbytes);
    osc_session_leave(s);
    return st;
}
