/* plan.c: shape inference over the whole graph and the greedy arena planner. */
#include <stdio.h>
#include <string.h>

#include "../core/dtype.h"
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
    char types[320];
    return osc_fail(err, OSC_ERR_SHAPE, "node '%s' (%s-%lld): input %d '%s' has dtype %s; "
                    "expected %s (the type constraint of %s-%lld)", n->name, n->op_type,
                    (long long)n->kernel->since, (int)j, g->values[n->inputs[j]].name,
                    osc_dtype_get(dtype)->name, osc_typeset_str(allowed, types, sizeof types),
                    n->op_type, (long long)n->kernel->since);
}

static void gather_inputs(const osc_node *n, osc_tensor *vals, osc_node_io io) {
    for (int32_t j = 0; j < n->n_inputs; j++)
        io.ins[j] = n->inputs[j] >= 0 ? &vals[n->inputs[j]] : NULL;
}

osc_status osc_infer_range(const osc_model *m, osc_tensor *vals, const bool *known, int32_t from,
                           int32_t end, int32_t *stop, osc_node_io io, osc_err *err) {
    const osc_graph *g = &m->g;
    int32_t i = from;
    for (; i < end; i++) {
        const osc_node *n = &g->nodes[i];
        if (n->folded) continue;
        if (!osc_node_ready(m, i, known)) break;
        gather_inputs(n, vals, io);
        memset(io.outs, 0, (size_t)n->n_outputs * sizeof *io.outs);
        osc_kctx k = {.err = err, .graph = g, .node = n,
                      .since_version = n->kernel->since, .params = n->params,
                      .strict = m->opts.strict != 0};
        osc_status st = OSC_OK;
        for (int32_t j = 0; j < n->n_inputs && !st; j++)
            if (io.ins[j]) st = osc_check_input_type(&m->g, i, j, io.ins[j]->dtype, err);
        if (!st) st = n->kernel->infer(&k, io.ins, n->n_inputs, io.outs, n->n_outputs);
        if (st) return st;
        for (int32_t j = 0; j < n->n_outputs; j++) {
            osc_tensor *o = &io.outs[j];
            int64_t count = osc_tensor_count(o);
            if (count < 0 || !osc_dtype_bytes(o->dtype, count, &o->nbytes))
                return osc_fail(err, OSC_ERR_LIMIT,
                                "node '%s' (%s): output %d has too many elements to address",
                                n->name, n->op_type, j);
            o->data = NULL;
            if (n->outputs[j] >= 0) vals[n->outputs[j]] = *o;
        }
    }
    *stop = i;
    return OSC_OK;
}

osc_status osc_run_node(const osc_model *m, int32_t i, osc_tensor *vals, osc_node_io io,
                        osc_kctx *k) {
    const osc_node *n = &m->g.nodes[i];
    gather_inputs(n, vals, io);
    for (int32_t j = 0; j < n->n_outputs; j++)
        osc_tensor_assign(&io.outs[j], &vals[n->outputs[j]]);
    return n->kernel->run(k, io.ins, n->n_inputs, io.outs, n->n_outputs);
}

static uint64_t align_up(uint64_t x) { return (x + OSC_ALIGN - 1) & ~(uint64_t)(OSC_ALIGN - 1); }

static bool live_together(const int32_t *first, const int32_t *last, int32_t a, int32_t b) {
    return first[a] <= last[b] && first[b] <= last[a];
}

/* Bigger buffers first, then earlier producers: a stable merge sort of buffer ids. */
static bool before(const uint64_t *sizes, const int32_t *first, int32_t a, int32_t b) {
    if (sizes[a] != sizes[b]) return sizes[a] > sizes[b];
    if (first[a] != first[b]) return first[a] < first[b];
    return a < b;
}

static void sort_ids(int32_t n, int32_t *ids, int32_t *tmp, const uint64_t *sizes,
                     const int32_t *first) {
    for (int32_t w = 1; w < n; w *= 2) {
        for (int32_t lo = 0; lo < n; lo += 2 * w) {
            int32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int32_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                tmp[o++] = before(sizes, first, ids[j], ids[i]) ? ids[j++] : ids[i++];
            while (i < mid) tmp[o++] = ids[i++];
            while (j < hi) tmp[o++] = ids[j++];
        }
        memcpy(ids, tmp, (size_t)n * sizeof *ids);
    }
}

uint64_t osc_plan_place(int32_t n, const uint64_t *sizes, const int32_t *first,
                        const int32_t *last, uint64_t *offsets, int32_t *scratch) {
    int32_t *order = scratch, *tmp = scratch + n, *near = scratch + 2 * (size_t)n;
    uint64_t total = 0;
    for (int32_t i = 0; i < n; i++) order[i] = i;
    sort_ids(n, order, tmp, sizes, first);
    for (int32_t p = 0; p < n; p++) {
        int32_t b = order[p], k = 0;
        /* placed buffers alive at the same time, kept sorted by offset */
        for (int32_t q = 0; q < p; q++) {
            int32_t c = order[q];
            if (sizes[c] == 0 || !live_together(first, last, b, c)) continue;
            int32_t at = k++;
            while (at > 0 && offsets[near[at - 1]] > offsets[c]) {
                near[at] = near[at - 1];
                at--;
            }
            near[at] = c;
        }
        uint64_t off = 0;
        for (int32_t q = 0; q < k; q++) {
            int32_t c = near[q];
            if (off + sizes[b] <= offsets[c]) break; /* fits in the gap before c */
            uint64_t end = align_up(offsets[c] + sizes[c]);
            if (end > off) off = end;
        }
        offsets[b] = off;
        if (off + sizes[b] > total) total = off + sizes[b];
    }
    return align_up(total);
}

bool osc_plan_valid(int32_t n, const uint64_t *sizes, const int32_t *first, const int32_t *last,
                    const uint64_t *offsets) {
    for (int32_t a = 0; a < n; a++) {
        if (offsets[a] % OSC_ALIGN) return false;
        for (int32_t b = a + 1; b < n; b++) {
            if (!sizes[a] || !sizes[b] || !live_together(first, last, a, b)) continue;
            if (offsets[a] < offsets[b] + sizes[b] && offsets[b] < offsets[a] + sizes[a])
                return false;
        }
    }
    return true;
}
