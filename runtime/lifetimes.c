/* lifetimes.c: value lifetimes, in-place buffers, the bytes each buffer needs, a run's plan. */
#include <string.h>

#include "model.h"

/* Whether node n's output 0 has input 0's dtype and shape by the shapes known at load, static or
 * symbolic (m->inplace_sym), and its kernel may write it over input 0 (OSC_KF_INPLACE_SAME). */
static bool same_shape_ok(const osc_model *m, const osc_node *n) {
    if (m->inplace_sym && m->inplace_sym[n - m->g.nodes]) return true;
    if (!(n->kernel->flags & OSC_KF_INPLACE_SAME) || !m->fold_shaped || n->n_inputs < 1 ||
        n->n_outputs < 1 || n->inputs[0] < 0 || n->outputs[0] < 0 ||
        !m->fold_shaped[n->inputs[0]] || !m->fold_shaped[n->outputs[0]])
        return false;
    const osc_tensor *a = &m->fold_vals[n->inputs[0]], *b = &m->fold_vals[n->outputs[0]];
    return a->dtype == b->dtype && a->rank == b->rank &&
           memcmp(a->dims, b->dims, (size_t)a->rank * sizeof a->dims[0]) == 0;
}

/* Whether node n's output 0 may share input 0's buffer (OSC_KF_INPLACE, or same_shape_ok). */
static bool inplace_ok(const osc_model *m, const osc_node *n) {
    return (n->kernel->flags & OSC_KF_INPLACE) || same_shape_ok(m, n);
}

/* Whether node n's output 0 may be written into a caller's input buffer, which holds nothing
 * more than input 0: ops whose output 0 has input 0's dtype and shape by their spec (the
 * scatter family, OSC_KF_INPLACE_INPUT), and with opts.inplace_inputs = 2 those that have it
 * by the model's shapes (same_shape_ok: MatMul, Gemm, elementwise ops) and the views of input
 * 0's elements in place (Reshape, Flatten: OSC_KT_SAME_ELEMENTS, the same bytes). */
static bool fits_input_buffer(const osc_model *m, const osc_node *n) {
    const osc_kernel *k = n->kernel;
    return (k->flags & OSC_KF_INPLACE_INPUT) ||
           (m->opts.inplace_inputs == 2 &&
            (same_shape_ok(m, n) ||
             ((k->flags & OSC_KF_INPLACE) && (k->traits & OSC_KT_SAME_ELEMENTS))));
}

/* A graph input whose caller buffer a node may write in place (opts.inplace_inputs): bound by
 * the caller (no default: a default lives in the shared, immutable model) and not a string
 * tensor (the caller's osc_string array and bytes are theirs to free). Returns its input_order
 * index, or -1. */
static int32_t inplace_input_index(const osc_model *m, const int32_t *input_at, int32_t v) {
    const osc_value *val = &m->g.values[v];
    if (!m->opts.inplace_inputs || !val->is_input || val->producer >= 0 || val->init ||
        val->decl.dtype == OSC_UNDEFINED || val->decl.dtype == OSC_STRING)
        return -1;
    return input_at[v];
}

/* Lifetimes and arena buffers. A node output gets its own buffer, except that an in-place
 * capable output shares input 0's buffer when that input dies at the node (used by no later
 * node; graph outputs never die) and is not read twice by it, and the input is an intermediate
 * or, with opts.inplace_inputs and a node that fits it (fits_input_buffer), a graph input the
 * caller binds (its buffer then becomes one held by the caller: no arena space). */
osc_status osc_plan_buffers(osc_model *m, osc_err *err) {
    osc_graph *g = &m->g;
    int32_t nv = g->n_values, nn = g->n_nodes;
    /* a buffer per node output at most, plus one per graph input held in place */
    size_t nb_max = (size_t)nv + 1;
    m->last_use = osc_pool_alloc(&m->pool, ((size_t)nv + 1) * sizeof *m->last_use);
    m->buf_of = osc_pool_alloc(&m->pool, ((size_t)nv + 1) * sizeof *m->buf_of);
    m->buf_first = osc_pool_alloc(&m->pool, nb_max * sizeof *m->buf_first);
    m->buf_last = osc_pool_alloc(&m->pool, nb_max * sizeof *m->buf_last);
    m->buf_input = osc_pool_alloc(&m->pool, nb_max * sizeof *m->buf_input);
    m->node_inplace = osc_pool_alloc(&m->pool, ((size_t)nn + 1) * sizeof *m->node_inplace);
    m->input_inplace = osc_pool_alloc(&m->pool, ((size_t)m->n_inputs + 1) *
                                                    sizeof *m->input_inplace);
    m->node_buf0 = osc_pool_alloc(&m->pool, ((size_t)nn + 1) * sizeof *m->node_buf0);
    /* per value: its input_order index, -1 (inputs are found in O(1), not by a scan) */
    int32_t *input_at = osc_pool_alloc(&m->pool, ((size_t)nv + 1) * sizeof *input_at);
    if (!input_at || !m->node_buf0 || !m->last_use || !m->buf_of || !m->buf_first ||
        !m->buf_last || !m->buf_input ||
        !m->node_inplace || !m->input_inplace)
        return osc_fail(err, OSC_ERR_NOMEM, "out of memory planning the model");
    for (int32_t v = 0; v < nv; v++) m->last_use[v] = m->buf_of[v] = input_at[v] = -1;
    for (int32_t i = 0; i < m->n_inputs; i++) input_at[m->input_order[i]] = i;
    /* (a node reading only its inputs' shapes, OSC_KF_SHAPE_ONLY, reads none of their bytes:
     * the dims stay in the session's values whatever later holds the buffer) */
    for (int32_t i = 0; i < nn; i++)
        for (int32_t j = 0; !g->nodes[i].folded && j < g->nodes[i].n_inputs; j++)
            if (g->nodes[i].inputs[j] >= 0 && !(g->nodes[i].kernel->flags & OSC_KF_SHAPE_ONLY))
                m->last_use[g->nodes[i].inputs[j]] = i;
    for (int32_t o = 0; o < g->n_outputs; o++) m->last_use[g->outputs[o]] = nn;

    m->n_bufs = 0;
    for (int32_t i = 0; i < nn; i++) {
        const osc_node *n = &g->nodes[i];
        m->node_buf0[i] = m->n_bufs;
        m->node_inplace[i] = OSC_INPLACE_NONE;
        for (int32_t j = 0; !n->folded && j < n->n_outputs; j++) {
            int32_t v = n->outputs[j], d = n->n_inputs > 0 ? n->inputs[0] : -1;
            if (v < 0 || (m->shape_node && m->shape_node[i])) continue; /* (a session slot) */
            bool share = j == 0 && inplace_ok(m, n) && d >= 0 && m->last_use[d] == i;
            for (int32_t q = 1; share && q < n->n_inputs; q++)
                if (n->inputs[q] == d) share = false;
            if (share && m->buf_of[d] >= 0 && m->buf_input[m->buf_of[d]] >= 0 &&
                !fits_input_buffer(m, n))
                share = false; /* d lives in a caller's input buffer: only what fits there */
            if (share && m->buf_of[d] < 0) { /* a graph input or an initializer */
                int32_t in = fits_input_buffer(m, n) ? inplace_input_index(m, input_at, d) : -1;
                share = in >= 0;
                if (share) {
                    int32_t b = m->n_bufs++;
                    m->buf_first[b] = 0;
                    m->buf_last[b] = i;
                    m->buf_input[b] = in;
                    m->buf_of[d] = b;
                    m->input_inplace[in] = true;
                }
            }
            int32_t b = share ? m->buf_of[d] : m->n_bufs++;
            if (!share) {
                m->buf_first[b] = i;
                m->buf_input[b] = -1;
            } else {
                m->node_inplace[i] = m->buf_input[b] >= 0 ? OSC_INPLACE_INPUT
                                                          : OSC_INPLACE_INTERMEDIATE;
            }
            m->buf_of[v] = b;
            int32_t end_ = m->last_use[v] < 0 ? i : m->last_use[v];
            if (!share || end_ > m->buf_last[b]) m->buf_last[b] = end_;
        }
    }
    m->node_buf0[nn] = m->n_bufs;
    return OSC_OK;
}

void osc_buffer_need(const osc_model *m, const osc_tensor *vals, uint64_t *need) {
    for (int32_t b = 0; b < m->n_bufs; b++) need[b] = 0;
    for (int32_t v = 0; v < m->g.n_values; v++) {
        int32_t b = m->buf_of[v];
        if (b >= 0 && m->buf_input[b] < 0 && vals[v].nbytes > need[b]) need[b] = vals[v].nbytes;
    }
}

uint64_t osc_plan_run(const osc_model *m, const uint64_t *need, const bool *external,
                      uint64_t *sizes, uint64_t *scratch, uint64_t *offsets) {
    for (int32_t b = 0; b < m->n_bufs; b++) {
        bool outside = m->buf_input[b] >= 0 || (external && external[b]);
        /* aligned sizes keep every value's end inside its buffer's OSC_ALIGN-rounded slot */
        sizes[b] = outside ? 0 : (need[b] + OSC_ALIGN - 1) & ~(uint64_t)(OSC_ALIGN - 1);
    }
    return osc_plan_place(m->n_bufs, sizes, m->buf_first, m->buf_last, offsets, scratch);
}
