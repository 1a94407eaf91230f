/* exec.c: running the graph: a static run, a dynamic run stage by stage, and osc_session_run. */
#include <string.h>
#include <time.h>

#include "session.h"

uint64_t osc_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
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
        osc_kctx k = osc_node_ctx(m, i, s, &s->err);
        uint64_t t0 = s->node_ns ? osc_now_ns() : 0;
        osc_status st = osc_kcancelled(&k);
        if (!st) st = osc_run_node(m, i, s->vals, s->io, &k);
        if (s->node_ns) s->node_ns[i] += osc_now_ns() - t0;
        if (st) return st;
        if (s->hook) s->hook(s->hook_ud, (size_t)i, s->io.ins, n->n_inputs, s->io.outs,
                             n->n_outputs);
        for (int32_t j = 0; m->dynamic && j < n->n_outputs; j++) s->known[n->outputs[j]] = true;
    }
    return OSC_OK;
}

/* The arena of stage k (nodes from..stop-1), whose values' shapes are inferred: the buffers
 * the stage makes get the bytes their values need. When those bytes equal the ones of the
 * stage's last plan, plan and arena are reused as they are (no placement, no allocation);
 * else the stage alone is placed again (its buffers are the contiguous ids node_buf0[from]..
 * node_buf0[stop]-1, so the work is proportional to the stage) and its arena grows when it must.
 * *total sums the stages' arenas for opts.max_arena_bytes. */
static osc_status place_stage(osc_session *s, int32_t k, int32_t from, int32_t stop,
                              uint64_t *total) {
    const osc_model *m = s->m;
    const osc_graph *g = &m->g;
    int32_t b0 = m->node_buf0[from], b1 = m->node_buf0[stop];
    osc_stage *st = &s->stages[k];
    for (int32_t b = b0; b < b1; b++) s->need[b] = 0;
    for (int32_t i = from; i < stop; i++) {
        const osc_node *n = &g->nodes[i];
        for (int32_t j = 0; !n->folded && j < n->n_outputs; j++) {
            int32_t v = n->outputs[j], b = v >= 0 ? m->buf_of[v] : -1;
            if (b < 0 || m->buf_input[b] >= 0) continue;
            if (b >= b0) {
                if (s->vals[v].nbytes > s->need[b]) s->need[b] = s->vals[v].nbytes;
            } else if (s->vals[v].nbytes > s->need[b]) {
                /* an in-place output in an earlier stage's buffer: in-place rows keep their
                 * input's shape, so this only guards the invariant */
                return osc_fail(&s->err, OSC_ERR_SHAPE, "value '%s' needs %zu bytes but is "
                                "computed in place in a buffer of %llu bytes", g->values[v].name,
                                s->vals[v].nbytes, (unsigned long long)s->need[b]);
            }
        }
    }
    bool same = st->from == from && st->stop == stop;
    for (int32_t b = b0; same && b < b1; b++) same = s->need[b] == s->plan_need[b];
    uint64_t size = st->size;
    if (!same) {
        st->from = st->stop = -1; /* the offsets change now: valid again once planned */
        for (int32_t b = b0; b < b1; b++)
            s->sizes[b] = m->buf_input[b] >= 0 ? 0 : (s->need[b] + OSC_ALIGN - 1) &
                                                     ~(uint64_t)(OSC_ALIGN - 1);
        size = osc_plan_place(b1 - b0, s->sizes + b0, m->buf_first + b0, m->buf_last + b0,
                              s->offsets + b0, s->scratch);
        s->plans++;
    }
    *total += size;
    if (m->opts.max_arena_bytes && *total > m->opts.max_arena_bytes)
        return osc_fail(&s->err, OSC_ERR_LIMIT, "the run needs arenas of %llu bytes so far; "
                        "opts.max_arena_bytes is %llu", (unsigned long long)*total,
                        (unsigned long long)m->opts.max_arena_bytes);
    if (!same) {
        if (size > st->cap) {
            if (size > SIZE_MAX) /* a 32-bit machine: never wrapped */
                return osc_fail(&s->err, OSC_ERR_LIMIT, "a stage arena of %llu bytes is too "
                                "large to address", (unsigned long long)size);
            void *arena = osc_malloc_large(&s->alloc, (size_t)size);
            if (!arena)
                return osc_fail(&s->err, OSC_ERR_NOMEM, "cannot allocate a stage arena of %llu "
                                "bytes", (unsigned long long)size);
            osc_free(&s->alloc, st->arena, st->cap);
            st->arena = arena;
            st->cap = size;
        }
        st->from = from;
        st->stop = stop;
        st->size = size;
        for (int32_t b = b0; b < b1; b++) s->plan_need[b] = s->need[b];
    }
    for (int32_t b = b0; b < b1; b++)
        if (m->buf_input[b] < 0)
            s->buf_data[b] = st->arena ? (char *)st->arena + s->offsets[b] : (void *)&s->empty;
    return OSC_OK;
}

/* A dynamic model runs in stages: infer as far as known data allows, place that stage's new
 * buffers in an arena of its own (earlier stages' buffers stay where they are), run the stage,
 * repeat. Stages are the same at every run (where inference stops depends on the graph only);
 * each keeps its plan and arena between runs (place_stage). Every step is proportional to the
 * stage's nodes, so a run is linear in the graph besides the placements it makes. Outputs are
 * always copied to caller buffers at the end (no zero copy here). */
static osc_status run_dynamic(osc_session *s) {
    const osc_model *m = s->m;
    const osc_graph *g = &m->g;
    uint64_t total = 0;
    for (int32_t v = 0; v < g->n_values; v++)
        s->known[v] = g->values[v].producer < 0 || g->values[v].init; /* inputs, constants */
    for (int32_t b = 0; b < m->n_bufs; b++) {
        s->direct[b] = -1;
        s->buf_data[b] = m->buf_input[b] >= 0 ? s->vals[m->input_order[m->buf_input[b]]].data
                                               : NULL;
    }
    osc_status st = osc_check_inplace(s, 0, 0);
    if (st) return st;
    for (int32_t i = 0; i < m->n_inputs; i++) /* nodes write from here: consumed */
        if (m->input_inplace[i]) s->is_bound[i] = false;
    for (int32_t from = 0, stop, k = 0; from < g->n_nodes; from = stop, k++) {
        st = osc_infer_range(m, s->vals, s->known, from, g->n_nodes, &stop, s->io, s,
                             &s->err);
        if (!st) st = osc_check_ranks(m, s->vals, from, stop, &s->err);
        if (st) return st;
        char label[256];
        if (stop == from)
            return osc_fail(&s->err, OSC_ERR_MODEL, "node %s (%s): its output shape depends on "
                            "data no earlier node computes",
                            osc_node_label(g, &g->nodes[from], label, sizeof label),
                            g->nodes[from].op_type);
        st = place_stage(s, k, from, stop, &total);
        if (st) return st;
        for (int32_t i = from; i < stop; i++) {
            const osc_node *n = &g->nodes[i];
            for (int32_t j = 0; !n->folded && j < n->n_outputs; j++) {
                int32_t v = n->outputs[j];
                if (v >= 0 && m->buf_of[v] >= 0) s->vals[v].data = s->buf_data[m->buf_of[v]];
            }
        }
        st = osc_check_inplace(s, from, stop);
        if (!st) st = run_nodes(s, from, stop);
        if (st) return st;
    }
    return osc_check_output_buffers(s);
}

/* The node times of s and of its subgraphs' sessions, zero. */
static void clear_profile(osc_session *s) {
    if (s->node_ns) memset(s->node_ns, 0, (size_t)s->m->g.n_nodes * sizeof *s->node_ns);
    for (int32_t b = 0; b < s->m->n_bodies; b++)
        if (s->bodies[b]) clear_profile(s->bodies[b]);
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
    osc_status st = osc_check_symbols(s);
    if (st) return st;
    osc_pool_reset(&s->strings);
    s->runs++;
    if (s->cancel == &s->cancel_req) clear_profile(s); /* subgraphs' sessions add up */
    if (m->dynamic) {
        st = run_dynamic(s);
    } else {
        st = osc_prepare_run(s);
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

/* Held for the whole run (osc_session_enter): a call on s from its node hook, a nested run
 * or a call from another thread meanwhile is refused with OSC_ERR_STATE. */
osc_status osc_session_run(osc_session *s) {
    if (!s) return OSC_ERR_ARG;
    if (!osc_session_enter(s, OSC_CALL_RUN)) return OSC_ERR_STATE;
    osc_err_clear(&s->err);
    s->ok = false;
    s->alloc.capped = false;
    osc_status st = run(s);
    memset(s->unchanged, 0, (size_t)s->m->g.n_values * sizeof *s->unchanged); /* one run only */
    if (st == OSC_ERR_CANCELLED && s->cancel == &s->cancel_req) atomic_store(&s->cancel_req, 0);
    if (st) st = osc_cap_explain(&s->err, &s->alloc, "this session");
    osc_session_leave(s);
    return st;
}
