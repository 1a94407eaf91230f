/* prepare.c: preparing a static run: shapes re-inferred when input shapes change, caller output
 * buffers chosen for zero copy, the arena planned and allocated, every value placed. */
#include <string.h>

#include "core/dtype.h"
#include "session.h"

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
osc_status osc_prepare_run(osc_session *s) {
    const osc_model *m = s->m;
    bool changed = !s->inferred;
    for (int32_t i = 0; !changed && i < m->n_inputs; i++)
        changed = !same_shape(&s->plan_inputs[i], &s->vals[m->input_order[i]]);
    if (changed) {
        s->inferred = s->planned = false;
        int32_t stop;
        osc_status st = osc_infer_range(m, s->vals, NULL, 0, m->g.n_nodes, &stop, s->io, s,
                                        &s->err);
        if (!st) st = osc_check_ranks(m, s->vals, 0, m->g.n_nodes, &s->err);
        if (st) return st;
        for (int32_t i = 0; i < m->n_inputs; i++) s->plan_inputs[i] = s->vals[m->input_order[i]];
        osc_buffer_need(m, s->vals, s->need);
        s->inferred = true;
    }
    osc_status st = osc_check_output_buffers(s);
    if (!st) st = osc_check_inplace(s, 0, m->g.n_nodes);
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
