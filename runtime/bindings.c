/* bindings.c: checks of what the caller binds: input tensors, symbolic dims that must agree,
 * output buffers that must fit and alias nothing, inputs written in place. */
#include <string.h>

#include <stdio.h>

#include "core/dtype.h"
#include "core/pack.h"
#include "session.h"

/* A caller tensor must be self-consistent and fit the graph input's declared dtype, rank and
 * static dims (symbolic dims are checked together at run). */
osc_status osc_check_input(osc_session *s, int32_t v, const osc_tensor *t) {
    const osc_value *val = &s->m->g.values[v];
    const osc_type *d = &val->decl;
    char want[256], got[256];
    if (!t) return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': NULL tensor", val->name);
    if ((!osc_dtype_valid(t->dtype) && !osc_is_pack(t->dtype)) || t->rank < 0 ||
        t->rank > OSC_MAX_RANK)
        return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': dtype %d or rank %d is invalid",
                        val->name, (int)t->dtype, (int)t->rank);
    if (t->rank > s->m->lim.max_rank)
        return osc_fail(&s->err, OSC_ERR_LIMIT, "input '%s': rank %d; the limit is %d "
                        "(opts.max_rank)", val->name, (int)t->rank, (int)s->m->lim.max_rank);
    int64_t count = osc_tensor_count(t);
    size_t need;
    uint64_t need64;
    if (count < 0 || !osc_dtype_bytes64(t->dtype, count, &need64))
        return osc_fail(&s->err, OSC_ERR_ARG, "input '%s': dims %s are negative or overflow",
                        val->name, osc_dims_str(t->dims, t->rank, got, sizeof got));
    if (need64 > SIZE_MAX) /* a 32-bit machine */
        return osc_fail(&s->err, OSC_ERR_LIMIT, "input '%s': %s %s takes %llu bytes; this "
                        "machine addresses at most %zu (size_t)", val->name,
                        osc_dtype_get(t->dtype)->name, osc_dims_str(t->dims, t->rank, got,
                        sizeof got), (unsigned long long)need64, (size_t)SIZE_MAX);
    need = (size_t)need64;
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
    if (osc_is_pack(t->dtype)) { /* a sequence or an optional: its bytes must hold one */
        char what[300];
        snprintf(what, sizeof what, "input '%.200s'", val->name);
        osc_status st = osc_pack_check(t, what, &s->err);
        int32_t elem = st ? 0 : osc_pack_head_of(t)->elem;
        if (!st && d->elem && elem && elem != d->elem)
            st = osc_fail(&s->err, OSC_ERR_SHAPE, "input '%s': expected %s, given %s",
                          val->name, osc_pack_describe(d->dtype, d->elem, want, sizeof want),
                          osc_pack_describe(t->dtype, elem, got, sizeof got));
        return st;
    }
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

/* Symbolic dims (dim_param) must take one value across all inputs. */
osc_status osc_check_symbols(osc_session *s) {
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


static bool overlap(const void *a, size_t na, const void *b, size_t nb) {
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return na && nb && pa < pb + nb && pb < pa + na;
}

/* Caller output buffers must hold their outputs and alias nothing else the run reads or writes.
 * Static models check before any node runs; dynamic ones once every shape is known, before the
 * outputs are copied (the only writes to them). */
osc_status osc_check_output_buffers(osc_session *s) {
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
osc_status osc_check_inplace(osc_session *s, int32_t from, int32_t to) {
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
    for (int32_t p = from; p < to; p++) {
        const osc_node *n = &g->nodes[p];
        /* in place by symbols: the sizes of this run must agree */
        const bool sym = m->inplace_sym && m->inplace_sym[p] && m->node_inplace[p];
        const osc_tensor *x = sym ? &s->vals[n->inputs[0]] : NULL;
        const osc_tensor *y = sym ? &s->vals[n->outputs[0]] : NULL;
        char label[256], dx[160], dy[160];
        if (sym && !osc_fuse_same_dims(x, y))
            return osc_fail(&s->err, OSC_ERR_SHAPE, "node %s (%s) writes its output over input 0, "
                            "their shapes equal by the model's dynamic axes, but input 0 is %s and "
                            "the output %s", osc_node_label(g, n, label, sizeof label), n->op_type,
                            osc_dims_str(x->dims, x->rank, dx, sizeof dx),
                            osc_dims_str(y->dims, y->rank, dy, sizeof dy));
        for (int32_t j = 0; !n->folded && j < n->n_outputs; j++) {
            int32_t v = n->outputs[j], b = v >= 0 ? m->buf_of[v] : -1;
            if (b < 0 || m->buf_input[b] < 0) continue;
            const osc_tensor *in = &s->vals[m->input_order[m->buf_input[b]]];
            if (s->vals[v].nbytes > in->nbytes)
                return osc_fail(&s->err, OSC_ERR_SHAPE, "value '%s' needs %zu bytes but is "
                                "computed in place in input '%s' of %zu bytes",
                                g->values[v].name, s->vals[v].nbytes,
                                g->values[m->input_order[m->buf_input[b]]].name, in->nbytes);
        }
    }
    return OSC_OK;
}

