/* fuse_match.c: the fuse hook of ScatterElements and ScatterND (kernel.h's osc_fuse_fn): finds
 * the exporters' element-wise spelling of message passing around a scatter and proposes the
 * fused node of fused_scatter.h. Every condition is checked on the static shapes folding found;
 * where one fails the graph stays as it is and runs unfused. */
#include <string.h>

#include "fused_scatter.h"
#include "fused_tiled.h"
#include "ops/scatter/scatter.h"
#include "ops/scatter/reduce.h"

typedef struct match {
    const osc_fuse_view *v;
    osc_fusion *f;
    osc_fs_params p;
    int32_t dtype;
} match;

/* The node computing value id v at run time (not folded), or NULL. */
static const osc_node *producer(const osc_fuse_view *v, int32_t id) {
    const int32_t i = osc_fuse_producer(v, id);
    return i >= 0 ? &v->graph->nodes[i] : NULL;
}
static int32_t node_index(const osc_fuse_view *v, const osc_node *n) {
    return (int32_t)(n - v->graph->nodes);
}
static bool absorb(match *m, const osc_node *n) {
    return osc_fuse_absorb(m->f, node_index(m->v, n));
}
static bool same_dims(const osc_tensor *a, const osc_tensor *b) {
    return a->rank == b->rank && !memcmp(a->dims, b->dims, (size_t)a->rank * sizeof a->dims[0]);
}
static bool all_zero(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return false;
    return true;
}

/* A step's operand o, broadcast against the step's shape s ([E, ...]): how a row reads it. */
static bool plan_operand(osc_kctx *k, osc_fs_step *st, const osc_tensor *s, const osc_tensor *o,
                         int64_t row) {
    if (o->rank > s->rank) return false;
    int64_t bs[OSC_MAX_RANK], stride = 1; /* o's strides aligned to s, 0 where it broadcasts */
    for (int32_t d = s->rank - 1; d >= 0; d--) {
        const int32_t od = d - (s->rank - o->rank);
        const int64_t dim = od >= 0 ? o->dims[od] : 1;
        if (dim != 1 && dim != s->dims[d]) return false;
        bs[d] = dim == 1 ? 0 : stride;
        stride *= dim;
    }
    bool row_const = true, full = true;
    int64_t want = 1;
    for (int32_t d = s->rank - 1; d >= 1; d--) {
        row_const = row_const && bs[d] == 0;
        full = full && (bs[d] == want || s->dims[d] == 1);
        want *= s->dims[d];
    }
    st->estride = s->rank > 0 ? bs[0] : 0;
    st->read = row_const ? OSC_FS_ROW : full ? OSC_FS_FULL : OSC_FS_TABLE;
    st->orank = o->rank;
    memcpy(st->odims, o->dims, (size_t)o->rank * sizeof o->dims[0]);
    if (st->read != OSC_FS_TABLE) return true;
    if (row > OSC_FS_TABLE_MAX) return false;
    int64_t *t = osc_kparams(k, (size_t)row * sizeof *t);
    if (!t) return false;
    for (int64_t i = 0; i < row; i++) { /* row element i as a multi-index over s's dims 1.. */
        int64_t rest = i, off = 0;
        for (int32_t d = s->rank - 1; d >= 1; d--) {
            off += rest % s->dims[d] * bs[d];
            rest /= s->dims[d];
        }
        t[i] = off;
    }
    st->table = t;
    /* blocks of equal offsets, evenly spaced: read one value per block */
    int64_t blk = 1;
    while (blk < row && t[blk] == 0) blk++;
    bool blocked = row % blk == 0;
    for (int64_t i = 0; blocked && i < row; i++) blocked = t[i] == i / blk * (blk < row ? t[blk] : 0);
    if (blocked) {
        st->read = OSC_FS_BLOCK;
        st->block = blk;
        st->block_stride = blk < row ? t[blk] : 0;
    }
    return true;
}

/* Step s's operand through Unsqueezes and Reshapes that keep its rows (the same elements and
 * first dim: the same bytes in the same order) and that nothing else reads: the fused node
 * reads their input, and the copies go once nothing else reads them. */
static bool operand_source(match *m, int32_t s) {
    osc_fs_step *st = &m->p.steps[s];
    int32_t id = m->f->inputs[4 + s];
    for (;;) {
        const osc_node *n = producer(m->v, id);
        const osc_tensor *out = osc_fuse_shape(m->v, id);
        const osc_tensor *in = n ? osc_fuse_shape(m->v, n->inputs[0]) : NULL;
        if (!in || (!osc_fuse_is_op(n, "Unsqueeze") && !osc_fuse_is_op(n, "Reshape")) ||
            m->v->uses[id] != 1 || in->dtype != out->dtype || in->rank < 1 || out->rank < 1 ||
            in->dims[0] != out->dims[0] || osc_tensor_count(in) != osc_tensor_count(out))
            break;
        if (!absorb(m, n)) return false;
        id = n->inputs[0];
        st->orank = in->rank;
        memcpy(st->odims, in->dims, (size_t)in->rank * sizeof in->dims[0]);
    }
    m->f->inputs[4 + s] = id;
    return true;
}

/* Walks back from the updates (value cur) through single-reader elementwise steps and row-
 * preserving Reshapes to a Gather along axis 0; true when one was reached, with the steps
 * (in evaluation order), the operands and the Gather's inputs filled in. */
static bool chain(osc_kctx *k, match *m, int32_t cur, int32_t depth) {
    const osc_fuse_view *v = m->v;
    const osc_node *n = producer(v, cur);
    const osc_tensor *ct = osc_fuse_shape(v, cur);
    if (!n || !ct || ct->rank < 1 || v->uses[cur] != 1 || depth > OSC_FUSE_MAX_NODES - 2)
        return false;
    if (osc_fuse_is_op(n, "Gather")) {
        const osc_tensor *x = osc_fuse_shape(v, n->inputs[0]);
        const osc_tensor *src = osc_fuse_shape(v, n->inputs[1]);
        const osc_attr *ax = osc_node_attr(n, "axis");
        int64_t axis = ax ? ax->i : 0;
        if (!x || !src || x->dtype != m->dtype || x->rank < 1 || src->rank != 1 ||
            (axis != 0 && axis != -x->rank) || src->dims[0] != m->p.edges || !absorb(m, n))
            return false;
        m->p.gather = true;
        m->f->inputs[2] = n->inputs[0];
        m->f->inputs[3] = n->inputs[1];
        return true;
    }
    if (osc_fuse_is_op(n, "Reshape")) {
        const osc_tensor *in = osc_fuse_shape(v, n->inputs[0]);
        if (!in || in->rank < 1 || in->dims[0] != ct->dims[0]) return false;
        return absorb(m, n) && chain(k, m, n->inputs[0], depth + 1);
    }
    static const char *const k_ops[] = {"Add", "Sub", "Mul", "Div"};
    int32_t op = -1;
    for (int32_t i = 0; i < 4; i++)
        if (osc_fuse_is_op(n, k_ops[i])) op = i;
    if (op < 0 || m->p.n_steps == OSC_FS_MAX_STEPS) return false;
    const int32_t n_steps = m->p.n_steps, n_absorbed = m->f->n_absorbed;
    for (int32_t side = 0; side < 2; side++) { /* which input carries the chain */
        const int32_t c = n->inputs[side], o = n->inputs[1 - side];
        const osc_tensor *cs = osc_fuse_shape(v, c), *os = osc_fuse_shape(v, o);
        if (!cs || !os || c == o || cs->dtype != m->dtype || os->dtype != m->dtype ||
            !same_dims(cs, ct))
            continue;
        osc_fs_step *st = &m->p.steps[n_steps];
        memset(st, 0, sizeof *st);
        st->op = op;
        st->operand_first = side == 1;
        st->rank = ct->rank;
        memcpy(st->dims, ct->dims, (size_t)ct->rank * sizeof ct->dims[0]);
        m->f->inputs[4 + n_steps] = o;
        m->p.n_steps = n_steps + 1;
        if (plan_operand(k, st, ct, os, m->p.row) && operand_source(m, n_steps) &&
            absorb(m, n) && chain(k, m, c, depth + 1))
            return true;
        if (k->err->status) return false;
        m->p.n_steps = n_steps; /* undo, try the other side */
        m->f->n_absorbed = n_absorbed;
    }
    return false;
}

/* The index a fused node reads: through Unsqueezes and Reshapes of the same elements (one
 * index per row, whatever its shape), back to where the index was computed, so the copies
 * those nodes make go with them once nothing else reads them. */
static int32_t index_source(osc_fusion *f, const osc_fuse_view *v, int32_t id) {
    for (;;) {
        const osc_node *n = producer(v, id);
        const osc_tensor *out = osc_fuse_shape(v, id);
        const osc_tensor *in = n ? osc_fuse_shape(v, n->inputs[0]) : NULL;
        if (!in || (!osc_fuse_is_op(n, "Unsqueeze") && !osc_fuse_is_op(n, "Reshape")) ||
            osc_tensor_count(in) != osc_tensor_count(out) || !osc_fuse_absorb(f, node_index(v, n)))
            return id;
        id = n->inputs[0];
    }
}

/* Data that is all zeros and read by nothing else: the fused node zero-fills its output
 * instead, and a Constant or ConstantOfShape making it is absorbed. */
static bool zero_data(match *m, int32_t data) {
    const osc_fuse_view *v = m->v;
    const osc_value *val = &v->graph->values[data];
    if (v->uses[data] != 1) return false;
    if (val->init && !val->is_input) return all_zero(val->init->data, val->init->nbytes);
    const osc_node *n = producer(v, data);
    if (!n) return false;
    const osc_attr *a = osc_node_attr(n, "value");
    bool zero = false;
    if (osc_fuse_is_op(n, "Constant")) zero = a && a->t && a->t->dtype == m->dtype &&
                                     all_zero(a->t->data, a->t->nbytes);
    else if (osc_fuse_is_op(n, "ConstantOfShape"))
        zero = a ? a->t && a->t->dtype == m->dtype && all_zero(a->t->data, a->t->nbytes)
                 : m->dtype == OSC_FLOAT; /* (the default value is a float 0) */
    return zero && absorb(m, n);
}

/* opts.fuse_recompute: the first step whose operand (E rows, read by the fused node alone) a
 * region can compute a tile at a time, recomputing what it needs from per-node values where
 * the graph still runs it for other readers (GAT's attention weights, GCN's edge norms), and
 * keeping no other E-row value alive: that operand is never written out, the node becomes a
 * TiledGatherScatter (fused_tiled.h). NULL: no such step, m as it was (or out of memory, k->err
 * set). Not by default: the tiles' work costs more time than the operand's bytes are worth
 * (GAT 43 -> 53 ms, GCN 72 -> 81 ms; docs/performance.md). */
static osc_ft_params *tiled_operand(osc_kctx *k, match *m) {
    const osc_fuse_view *v = m->v;
    osc_fusion *f = m->f;
    const osc_tensor *x = osc_fuse_shape(v, f->inputs[2]);
    for (int32_t s = 0; x && s < m->p.n_steps; s++) {
        const int32_t o = f->inputs[4 + s];
        const osc_tensor *ot = osc_fuse_shape(v, o);
        if (!ot || ot->rank < 1 || ot->dims[0] != m->p.edges || m->p.steps[s].estride == 0 ||
            v->uses[o] != 1 || osc_fuse_producer(v, o) < 0)
            continue;
        osc_ft_params r;
        memset(&r, 0, sizeof r);
        r.ext_base = 4 + m->p.n_steps;
        r.dtype = m->dtype;
        const osc_ft_want w = {.root = o, .dtype = m->dtype, .dst = f->inputs[1],
                               .src = f->inputs[3], .dst_rows = m->p.dims[0],
                               .src_rows = x->dims[0], .recompute = true};
        const int32_t before = f->n_absorbed;
        bool kept = false; /* an E-row value a node computes, which the region would keep alive */
        const bool found = osc_fuse_region(v, &w, &r, f);
        for (int32_t e = 0; found && e < r.n_ext; e++)
            kept = kept || (r.ext[e].row && osc_fuse_producer(v, f->inputs[r.ext_base + e]) >= 0);
        if (!found || kept) {
            f->n_absorbed = before;
            continue;
        }
        osc_ft_params *tp = osc_kparams(k, sizeof *tp);
        if (!tp) return NULL;
        m->p.steps[s].tiled = true;
        m->p.steps[s].slot = r.updates;
        r.updates = -1;
        f->inputs[4 + s] = -1;
        *tp = r;
        return tp;
    }
    return NULL;
}

bool osc_fuse_scatter(osc_kctx *k, const osc_fuse_view *v, int32_t node, osc_fusion *f) {
    const osc_node *n = &v->graph->nodes[node];
    const bool nd = osc_fuse_is_op(n, "ScatterND");
    if ((!nd && !osc_fuse_is_op(n, "ScatterElements")) || n->n_inputs != 3) return false;
    const int32_t data = n->inputs[0], idx = n->inputs[1], upd = n->inputs[2];
    const osc_tensor *dt = osc_fuse_shape(v, data), *it = osc_fuse_shape(v, idx);
    const osc_tensor *ut = osc_fuse_shape(v, upd);
    if (!dt || !it || !ut || (dt->dtype != OSC_FLOAT && dt->dtype != OSC_DOUBLE) ||
        ut->dtype != dt->dtype || dt->rank < 1 || ut->rank != dt->rank ||
        memcmp(ut->dims + 1, dt->dims + 1, (size_t)(dt->rank - 1) * sizeof dt->dims[0]) != 0)
        return false;
    match m = {.v = v, .f = f, .dtype = dt->dtype};
    m.p.edges = ut->dims[0];
    m.p.row = osc_tensor_count(ut) / (m.p.edges ? m.p.edges : 1);
    /* no edges, or rows of no elements: nothing to gain, and the unfused graph checks no
     * destination index (its expanded index has no elements) where the fused node would */
    if (m.p.edges == 0 || m.p.row == 0) return false;
    int32_t dst;
    if (nd) { /* ScatterND with [E, 1] indices: one row index per update row already */
        m.p.reduction = ((const osc_snd_params *)n->params)->reduction;
        if (it->rank != 2 || it->dims[0] != m.p.edges || it->dims[1] != 1) return false;
        dst = idx;
        m.p.dst_stride = 1;
    } else { /* ScatterElements along axis 0, its indices an Expand of one index per row */
        const osc_se_params *sp = n->params;
        const osc_node *ex = producer(v, idx);
        const osc_tensor *u =
            ex && osc_fuse_is_op(ex, "Expand") ? osc_fuse_shape(v, ex->inputs[0]) : NULL;
        if ((sp->axis != 0 && sp->axis != -dt->rank) || !u || u->rank != ut->rank ||
            !same_dims(it, ut) || (u->dims[0] != m.p.edges && u->dims[0] != 1))
            return false;
        for (int32_t d = 1; d < u->rank; d++)
            if (u->dims[d] != 1) return false;
        m.p.reduction = sp->reduction;
        dst = ex->inputs[0];
        m.p.dst_stride = u->dims[0] == 1 ? 0 : 1;
        if (!absorb(&m, ex)) return false;
    }
    f->inputs[1] = index_source(f, v, dst);
    const int32_t before_chain = f->n_absorbed;
    osc_ft_params *tp = NULL;
    if (!chain(k, &m, upd, 0)) {
        if (k->err->status) return false;
        m.p.n_steps = 0;
        f->n_absorbed = before_chain;
        /* updates computed row by row: the tiled scatter; else the updates as they are (a
         * ScatterND gains nothing from that: it reads its index as it is already) */
        osc_ft_params region;
        memset(&region, 0, sizeof region);
        region.ext_base = 2;
        region.dtype = m.dtype;
        const osc_ft_want w = {.root = upd, .dtype = m.dtype, .dst = f->inputs[1], .src = -1,
                               .dst_rows = dt->dims[0]};
        if (osc_fuse_region(v, &w, &region, f)) {
            if (!(tp = osc_kparams(k, sizeof *tp))) return false;
            *tp = region;
        } else {
            f->n_absorbed = before_chain;
            if (nd) return false;
            f->inputs[2] = upd;
            f->inputs[3] = -1;
        }
    }
    m.p.zero_data = zero_data(&m, data);
    f->inputs[0] = m.p.zero_data ? -1 : data;
    m.p.rank = dt->rank;
    memcpy(m.p.dims, dt->dims, (size_t)dt->rank * sizeof dt->dims[0]);
    /* the steps were found from the scatter back: run them from the Gather forward */
    for (int32_t a = 0, b = m.p.n_steps - 1; a < b; a++, b--) {
        osc_fs_step t = m.p.steps[a];
        m.p.steps[a] = m.p.steps[b];
        m.p.steps[b] = t;
        int32_t ti = f->inputs[4 + a];
        f->inputs[4 + a] = f->inputs[4 + b];
        f->inputs[4 + b] = ti;
    }
    if (!tp && m.p.gather && v->recompute && !(tp = tiled_operand(k, &m)) && k->err->status)
        return false;
    /* the indices read in place from the pieces of a Concat (appended after the others) */
    f->n_inputs = tp ? tp->ext_base + tp->n_ext : 4 + m.p.n_steps;
    if (m.p.dst_stride) osc_fuse_ix_pieces(v, f, 1, &m.p.dst_pc);
    if (m.p.gather) osc_fuse_ix_pieces(v, f, 3, &m.p.src_pc);
    if (tp) {
        tp->fs = m.p;
        f->params = tp;
        f->row = &osc_fused_tiled_row;
        f->op = tp->updates < 0 ? "TiledGatherScatter" : "TiledScatter";
        return true;
    }
    osc_fs_params *p = osc_kparams(k, sizeof *p);
    if (!p) return false;
    *p = m.p;
    f->params = p;
    f->row = &osc_fused_scatter_row;
    f->op = m.p.gather ? "GatherScatter" : "RowScatter";
    return true;
}

/* GatherElements along axis 0 whose index is an Expand of one index per row, and whose rows
 * span whole rows of data: RowGather, reading the index before the Expand. */
bool osc_fuse_gather_elements(osc_kctx *k, const osc_fuse_view *v, int32_t node, osc_fusion *f) {
    const osc_node *n = &v->graph->nodes[node];
    if (!osc_fuse_is_op(n, "GatherElements") || n->n_inputs != 2) return false;
    const osc_tensor *dt = osc_fuse_shape(v, n->inputs[0]), *it = osc_fuse_shape(v, n->inputs[1]);
    const osc_node *ex = producer(v, n->inputs[1]);
    const osc_tensor *u =
        ex && osc_fuse_is_op(ex, "Expand") ? osc_fuse_shape(v, ex->inputs[0]) : NULL;
    const int64_t axis = ((const osc_se_params *)n->params)->axis;
    if (!dt || !it || !u || dt->rank < 1 || dt->dtype == OSC_STRING ||
        osc_dtype_get(dt->dtype)->bits < 8 || (axis != 0 && axis != -dt->rank) ||
        it->rank != dt->rank || u->rank != dt->rank || osc_tensor_count(it) == 0 ||
        memcmp(it->dims + 1, dt->dims + 1, (size_t)(dt->rank - 1) * sizeof dt->dims[0]) != 0 ||
        (u->dims[0] != it->dims[0] && u->dims[0] != 1))
        return false;
    for (int32_t d = 1; d < u->rank; d++)
        if (u->dims[d] != 1) return false;
    osc_rg_params *p = osc_kparams(k, sizeof *p);
    if (!p) return false;
    p->rows = it->dims[0];
    p->dst_stride = u->dims[0] == 1 ? 0 : 1;
    p->rank = it->rank;
    memcpy(p->dims, it->dims, (size_t)it->rank * sizeof it->dims[0]);
    f->row = &osc_row_gather_row;
    f->op = "RowGather";
    f->params = p;
    f->n_inputs = 2;
    f->inputs[0] = n->inputs[0];
    f->absorbed[f->n_absorbed++] = node_index(v, ex);
    f->inputs[1] = index_source(f, v, ex->inputs[0]);
    return true;
}

/* The broadcast of the shapes in[0..n-1] into out; false when they do not broadcast. */
static bool broadcast(const osc_tensor *const *in, int32_t n, osc_tensor *out) {
    out->rank = 0;
    for (int32_t i = 0; i < n; i++)
        if (in[i]->rank > out->rank) out->rank = in[i]->rank;
    for (int32_t d = 0; d < out->rank; d++) {
        int64_t dim = 1;
        for (int32_t i = 0; i < n; i++) {
            const int32_t k = d - (out->rank - in[i]->rank);
            const int64_t x = k >= 0 ? in[i]->dims[k] : 1;
            if (x != 1 && dim != 1 && x != dim) return false;
            if (x != 1) dim = x;
        }
        out->dims[d] = dim;
    }
    return true;
}

/* An elementwise op broadcasting its inputs together reads an Expand's input as it is when the
 * Expand only grew it to a shape the op reaches anyway: the Expand is a broadcast view, and the
 * node keeps its own kernel. */
bool osc_fuse_broadcast(osc_kctx *k, const osc_fuse_view *v, int32_t node, osc_fusion *f) {
    (void)k;
    const osc_node *n = &v->graph->nodes[node];
    const osc_tensor *out = osc_fuse_shape(v, n->n_outputs > 0 ? n->outputs[0] : -1);
    if (!out || n->n_inputs > OSC_FUSE_MAX_IN) return false;
    const osc_tensor *in[OSC_FUSE_MAX_IN];
    for (int32_t j = 0; j < n->n_inputs; j++) {
        f->inputs[j] = n->inputs[j];
        if (!(in[j] = osc_fuse_shape(v, n->inputs[j]))) return false;
    }
    for (int32_t j = 0; j < n->n_inputs; j++) {
        const osc_node *ex = producer(v, n->inputs[j]);
        const osc_tensor *u = ex && osc_fuse_is_op(ex, "Expand") && v->uses[n->inputs[j]] == 1
                                  ? osc_fuse_shape(v, ex->inputs[0]) : NULL;
        if (!u || u->dtype != in[j]->dtype || f->n_absorbed == OSC_FUSE_MAX_NODES) continue;
        const osc_tensor *was = in[j];
        osc_tensor b;
        in[j] = u;
        if (broadcast(in, n->n_inputs, &b) && same_dims(&b, out)) {
            f->inputs[j] = ex->inputs[0];
            f->absorbed[f->n_absorbed++] = node_index(v, ex);
        } else {
            in[j] = was;
        }
    }
    if (!f->n_absorbed) return false;
    f->row = n->kernel;
    f->params = n->params;
    f->n_inputs = n->n_inputs;
    return true;
}
