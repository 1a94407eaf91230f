/* fold.c: constant folding at load, and whether the model must infer shapes while it runs. */
#include <stdint.h>
#include <string.h>

#include "model.h"

/* A value whose data no caller can change: an initializer that is not a graph input, or the
 * output of a folded node. */
static bool is_constant(const osc_value *val) { return val->init && !val->is_input; }

/* The tensor attribute `value` of a constant-making node n of known inputs (a Constant; a
 * ConstantOfShape of one element) whose one output, as inferred in vals, has its dtype (not
 * string) and bytes: the output is those bytes, and shares them. NULL otherwise. */
static const osc_tensor *constant_attr(const osc_node *n, const osc_tensor *vals) {
    if (!(n->kernel->traits & OSC_KT_CONSTANT) || n->n_outputs != 1 || n->outputs[0] < 0)
        return NULL;
    const osc_tensor *out = &vals[n->outputs[0]];
    for (int32_t a = 0; a < n->n_attrs; a++) {
        const osc_tensor *t = n->attrs[a].t;
        if (t && !strcmp(n->attrs[a].name, "value") && t->dtype == out->dtype &&
            t->dtype != OSC_STRING && t->nbytes == out->nbytes && (t->data || !t->nbytes))
            return t;
    }
    return NULL;
}

/* Computes at load every node whose inputs are constants (or, for rows flagged OSC_KF_SHAPE_ONLY
 * such as Shape and Size, have static shapes), so shape subgraphs (Shape -> Gather -> Unsqueeze
 * -> Concat -> Reshape) cost nothing at run. Outputs over OSC_FOLD_MAX bytes stay nodes, and so
 * does every node once the folded bytes would pass the budget (opts.max_fold_bytes; the main
 * graph's and its subgraphs' together), to bound the model's memory by its file's size. A
 * folded node's outputs become constants in the model's pool; the node no longer runs. A
 * Constant's output shares its attribute's bytes (constant_attr): no size or budget applies. */
#define OSC_FOLD_MAX ((size_t)1 << 20)
osc_status osc_fold_constants(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    size_t nv = (size_t)g->n_values + 1;
    osc_tensor *vals = osc_pool_alloc(&m->pool, nv * sizeof *vals);
    bool *shaped = osc_pool_alloc(&m->pool, nv * sizeof *shaped);
    bool *known = osc_pool_alloc(&m->pool, nv * sizeof *known);
    osc_node_io io = osc_node_io_alloc(m);
    if (!vals || !shaped || !known || !io.ins || !io.outs)
        return osc_fail(err, OSC_ERR_NOMEM, "out of memory folding constants");
    for (int32_t v = 0; v < g->n_values; v++) {
        const osc_value *val = &g->values[v];
        bool static_input = val->is_input && !val->init && osc_type_static(&val->decl);
        if (is_constant(val)) vals[v] = *val->init;
        else if (static_input) osc_seed_value(val, &vals[v]);
        shaped[v] = is_constant(val) || static_input;
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
        osc_status st = osc_infer_range(m, vals, known, i, i + 1, &stop, io, NULL, err);
        if (!st) st = osc_check_ranks(m, vals, i, i + 1, err);
        if (st && osc_load_tolerates(m, st, err)) continue; /* left to run, if it ever does */
        if (st) return st;
        for (int32_t j = 0; j < n->n_outputs; j++) shaped[n->outputs[j]] = true;
        /* A Constant's tensor is shared, whatever its size (over OSC_FOLD_MAX too): folding
         * it costs no memory, and running it would copy its bytes every run. */
        const osc_tensor *shared = all_known ? constant_attr(n, vals) : NULL;
        if (shared) {
            vals[n->outputs[0]].data = shared->data;
        } else {
            bool fold = all_known || (n->kernel->flags & OSC_KF_SHAPE_ONLY);
            uint64_t bytes = 0;
            for (int32_t j = 0; j < n->n_outputs; j++) {
                fold = fold && vals[n->outputs[j]].nbytes <= OSC_FOLD_MAX;
                bytes += vals[n->outputs[j]].nbytes;
            }
            if (!fold || bytes > *m->fold_left) continue;
            *m->fold_left -= bytes;
            for (int32_t j = 0; j < n->n_outputs; j++) {
                osc_tensor *t = &vals[n->outputs[j]];
                t->data = osc_pool_alloc(&m->pool, t->nbytes);
                if (!t->data)
                    return osc_fail(err, OSC_ERR_NOMEM, "out of memory folding constants");
            }
            osc_kctx k = osc_node_ctx(m, i, NULL, err);
            st = osc_run_node(m, i, vals, io, &k);
            if (st && osc_load_tolerates(m, st, err)) {
                for (int32_t j = 0; j < n->n_outputs; j++) shaped[n->outputs[j]] = false;
                continue;
            }
            if (st) return st;
        }
        for (int32_t j = 0; j < n->n_outputs; j++) {
            osc_tensor *t = osc_pool_alloc(&m->pool, sizeof *t);
            if (!t) return osc_fail(err, OSC_ERR_NOMEM, "out of memory folding constants");
            *t = vals[n->outputs[j]];
            g->values[n->outputs[j]].init = t;
            known[n->outputs[j]] = true;
        }
        n->folded = true;
    }
    m->fold_vals = vals;
    m->fold_shaped = shaped;
    return OSC_OK;
}

osc_status osc_mark_shape_nodes(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const osc_node *n = &g->nodes[i];
        bool shape = !n->folded && (n->kernel->flags & OSC_KF_SHAPE_ONLY);
        for (int32_t j = 0; shape && j < n->n_inputs; j++)
            shape = n->inputs[j] < 0 || g->values[n->inputs[j]].is_input;
        if (!shape) continue;
        if (!m->shape_node) {
            m->shape_node = osc_pool_alloc(&m->pool, ((size_t)g->n_nodes + 1) * sizeof(bool));
            if (!m->shape_node) return osc_fail(err, OSC_ERR_NOMEM, "out of memory");
            memset(m->shape_node, 0, ((size_t)g->n_nodes + 1) * sizeof(bool));
        }
        m->shape_node[i] = true;
        m->n_shape_outputs += n->n_outputs;
    }
    /* Left to run: does any node's output shape depend on data a run supplies (an infer_reads
     * input neither constant nor a shape node's value)? */
    m->dynamic = false;
    for (int32_t i = 0; i < g->n_nodes && !m->dynamic; i++) {
        const osc_node *n = &g->nodes[i];
        for (int32_t j = 0; !n->folded && j < n->n_inputs && j < 32; j++) {
            const int32_t v = n->inputs[j], p = v >= 0 ? g->values[v].producer : -1;
            if ((n->kernel->infer_reads >> j & 1u) && v >= 0 && !is_constant(&g->values[v]) &&
                !(p >= 0 && m->shape_node && m->shape_node[p]))
                m->dynamic = true;
        }
    }
    return OSC_OK;
}

/* Points constant v's data, which was at address `was`, and its folded node's attribute that
 * shared those bytes, at `to` (the block at `was` may be gone: its address is only compared). */
static void point_data(osc_model *m, int32_t v, uintptr_t was, void *to) {
    osc_graph *g = &m->g;
    const int32_t p = g->values[v].producer;
    for (int32_t a = 0; p >= 0 && a < g->nodes[p].n_attrs; a++)
        if (g->nodes[p].attrs[a].t && (uintptr_t)g->nodes[p].attrs[a].t->data == was)
            g->nodes[p].attrs[a].t->data = to;
    if (m->fold_vals) m->fold_vals[v].data = to;
    g->values[v].init->data = to;
}

/* FNV-1a over 8-byte words (then the tail bytes), seeded with the size: a hash of the bytes for
 * osc_release_unread, which compares only constants of equal hashes. */
static uint64_t bytes_hash(const void *data, size_t n) {
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603ull ^ n, w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 1099511628211ull;
    }
    for (; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

/* Slots of the table a constant looks at before it gives up sharing (and keeps its own bytes):
 * bytes made to collide cost at most this many steps and memcmp each, keeping the step linear.
 * The table is at most half full, so an honest search takes one or two. */
#define OSC_SHARE_PROBES 16

/* The last step of a load, over the constants whose data has a pool block of its own (always
 * over 16 KiB, the pool's chunk; from 4 KiB when no chunk had room): one with the bytes of an
 * earlier one shares them (PyTorch exports each arange and each zeros as a constant of its
 * own), and one that no node left to run reads (neither a node nor the graph's outputs: a
 * weight only a folded Transpose read, zeros a fused scatter no longer starts from) gives its
 * block back unless a read one shares it; the value (and its folded node's attribute) is then
 * left with no data. Linear in the constants' bytes: equal bytes are found through a hash table
 * of (size, hash of the bytes), the blocks released through an index of the pool's. */
typedef struct share_slot {
    uint64_t hash;
    int32_t at; /* index in big[] of a constant holding its own bytes; -1: empty */
} share_slot;

/* The earlier holder of constant a's bytes (an index in big[]), else -1: a is entered, unless
 * the search gave up. */
static int32_t find_or_add(const osc_model *m, const int32_t *big, share_slot *tab, size_t mask,
                           int32_t a) {
    const osc_tensor *t = m->g.values[big[a]].init;
    const uint64_t h = bytes_hash(t->data, t->nbytes);
    size_t i = (size_t)h & mask;
    for (int probes = 0; tab[i].at >= 0; i = (i + 1) & mask) {
        const osc_tensor *u = m->g.values[big[tab[i].at]].init;
        if (tab[i].hash == h && u->nbytes == t->nbytes &&
            (u->data == t->data || memcmp(u->data, t->data, t->nbytes) == 0))
            return tab[i].at;
        if (++probes == OSC_SHARE_PROBES) return -1; /* kept apart: see OSC_SHARE_PROBES */
    }
    tab[i] = (share_slot){h, a};
    return -1;
}

osc_status osc_release_unread(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    const size_t nv = (size_t)g->n_values + 1;
    size_t cap = 16;
    while (cap < 2 * nv) cap *= 2;
    bool *read = osc_malloc(&m->alloc, nv);
    int32_t *big = osc_malloc(&m->alloc, 2 * nv * sizeof *big), *holder = big + nv;
    share_slot *tab = osc_malloc(&m->alloc, cap * sizeof *tab);
    osc_pool_index idx = {0};
    osc_status st = OSC_OK;
    if (!read || !big || !tab || !osc_pool_index_init(&idx, &m->pool)) {
        st = osc_fail(err, OSC_ERR_NOMEM, "out of memory releasing constants");
        goto done;
    }
    memset(read, 0, nv);
    for (size_t i = 0; i < cap; i++) tab[i].at = -1;
    for (int32_t i = 0; i < g->n_nodes; i++)
        for (int32_t j = 0; !g->nodes[i].folded && j < g->nodes[i].n_inputs; j++)
            if (g->nodes[i].inputs[j] >= 0) read[g->nodes[i].inputs[j]] = true;
    for (int32_t i = 0; i < g->n_outputs; i++) read[g->outputs[i]] = true;
    int32_t n = 0;
    for (int32_t v = 0; v < g->n_values; v++) {
        const osc_tensor *t = g->values[v].init;
        if (is_constant(&g->values[v]) && t->data && t->dtype != OSC_STRING &&
            t->nbytes > m->pool.chunk / 4)
            big[n++] = v;
    }
    /* holder[a]: the first constant whose bytes constant a now reads (a itself when it keeps
     * its own), read when any of its sharers is */
    for (int32_t a = 0; a < n; a++) {
        osc_tensor *t = g->values[big[a]].init;
        const int32_t b = find_or_add(m, big, tab, cap - 1, a);
        holder[a] = a;
        if (b >= 0) {
            const osc_tensor *u = g->values[big[b]].init;
            const uintptr_t was = (uintptr_t)t->data;
            if (u->data == t->data) holder[a] = b; /* the same block already */
            else if (osc_pool_index_release(&m->pool, &idx, t->data, t->nbytes)) {
                point_data(m, big[a], was, u->data);
                holder[a] = b;
            }
        }
        if (read[big[a]]) read[big[holder[a]]] = true;
    }
    /* sharers of each holder, linked: first[a] .. next[c] (reusing the table's memory) */
    int32_t *first = (int32_t *)tab, *next = first + n;
    for (int32_t a = 0; a < n; a++) first[a] = next[a] = -1;
    for (int32_t c = n - 1; c >= 0; c--)
        if (holder[c] != c) next[c] = first[holder[c]], first[holder[c]] = c;
    for (int32_t a = 0; a < n; a++) {
        const osc_tensor *t = g->values[big[a]].init;
        const uintptr_t was = (uintptr_t)t->data;
        if (holder[a] != a || read[big[a]] ||
            !osc_pool_index_release(&m->pool, &idx, t->data, t->nbytes))
            continue;
        point_data(m, big[a], was, NULL);
        for (int32_t c = first[a]; c >= 0; c = next[c]) point_data(m, big[c], was, NULL);
    }
done:
    if (idx.v) osc_pool_index_free(&idx, &m->pool);
    osc_free(&m->alloc, read, nv);
    osc_free(&m->alloc, big, 2 * nv * sizeof *big);
    osc_free(&m->alloc, tab, cap * sizeof *tab);
    return st;
}
