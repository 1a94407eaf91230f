/* gather_scatter.c: the matcher and rewrite of rules gather_scatter_se and gather_scatter_nd
 * (gather_scatter.h; anchors ScatterElements and ScatterND): the exporters' element-wise
 * spelling of message passing around a scatter becomes one node of a fused scatter kernel
 * (ops/fused/fused_scatter.h, fused_tiled.h): GatherScatter, RowScatter, TiledScatter or
 * TiledGatherScatter. Every condition is checked on the static shapes folding found; where
 * one fails the graph stays as it is and runs unfused. */
#include <stddef.h>
#include <string.h>

#include "ops/fused/fused_scatter.h"
#include "ops/fused/fused_tiled.h"
#include "ops/scatter/reduce.h"
#include "ops/scatter/scatter.h"
#include "ops/shape/shape_ops.h"
#include "gather_scatter.h"
#include "ops/elementwise/binary.h"
#include "region.h"

/* The capture: the proposal and the parameters of its kernel, their arrays at their largest
 * (the rewrite copies them at their real size: osc_fuse_dup_fs, dup_ft). */
typedef struct cap {
    osc_fusion f;
    osc_fs_params p;
    osc_ft_params tp;
    bool tiled; /* tp holds a region: a tiled scatter */
    osc_fs_step steps[OSC_FS_MAX_STEPS];
    osc_ft_node nodes[OSC_FT_MAX_NODES];
    osc_ft_value slots[OSC_FT_MAX_NODES], ext[OSC_FT_MAX_EXT];
} cap;
_Static_assert(sizeof(cap) <= OSC_RW_CAP_MAX, "OSC_RW_CAP_MAX holds the capture");

/* tp emptied, its arrays those of the capture. */
static void reset_region(cap *cp) {
    memset(&cp->tp, 0, sizeof cp->tp);
    cp->tp.nodes = cp->nodes;
    cp->tp.slots = cp->slots;
    cp->tp.ext = cp->ext;
}

typedef struct match {
    const osc_fuse_view *v;
    osc_fusion *f;
    osc_fs_params *p;
    int32_t dtype;
    int32_t data; /* the scatter's data */
} match;

static const osc_node *producer(const osc_fuse_view *v, int32_t id) {
    return osc_fuse_node(v, osc_fuse_producer(v, id));
}
static bool absorb(match *m, const osc_node *n) {
    return osc_fuse_absorb(m->f, osc_fuse_index(m->v, n));
}
/* Whether the n bytes at p (n > 0) are one value of dtype repeated, that value in *c: zeros of
 * any dtype, or any one float or double. */
static bool one_value(const void *p, size_t n, int32_t dtype, double *c) {
    const unsigned char *b = p;
    size_t i = 0;
    while (i < n && !b[i]) i++;
    *c = 0;
    if (i == n) return n > 0;
    const size_t es = dtype == OSC_FLOAT ? sizeof(float) : sizeof(double);
    if ((dtype != OSC_FLOAT && dtype != OSC_DOUBLE) || n % es != 0) return false;
    for (i = es; i < n; i += es)
        if (memcmp(b + i, b, es) != 0) return false;
    *c = dtype == OSC_FLOAT ? (double)*(const float *)p : *(const double *)p;
    return true;
}

/* A step's operand o, broadcast against the step's shape s ([E, ...]): how a row reads it. */
static bool plan_operand(osc_kctx *k, osc_fs_step *st, const osc_tensor *s, const osc_tensor *o,
                         int64_t row) {
    if (o->rank > s->rank) return false;
    /* o's strides aligned to s, 0 where it broadcasts */
    int64_t bs[OSC_MAX_RANK] = {0}, stride = 1;
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
    for (int64_t i = 0; blocked && i < row; i++)
        blocked = t[i] == i / blk * (blk < row ? t[blk] : 0);
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
    osc_fs_step *st = &m->p->steps[s];
    int32_t id = m->f->inputs[OSC_FS_IN_STEPS + s];
    for (;;) {
        const osc_node *n = producer(m->v, id);
        const osc_tensor *out = osc_fuse_sym_shape(m->v, id);
        const osc_tensor *in = osc_fuse_sym_shape(m->v, osc_fuse_in(n, 0));
        if (!in || !out || !osc_fuse_has(n, OSC_KT_SAME_ELEMENTS) ||
            m->v->uses[id] != 1 || in->dtype != out->dtype || in->rank < 1 || out->rank < 1 ||
            in->dims[0] != out->dims[0] || !osc_fuse_same_count(in, out))
            break;
        if (!absorb(m, n)) return false;
        id = n->inputs[0];
        st->orank = in->rank;
        memcpy(st->odims, in->dims, (size_t)in->rank * sizeof in->dims[0]);
    }
    m->f->inputs[OSC_FS_IN_STEPS + s] = id;
    return true;
}

/* The values shape value id holds at every run, into t[0..*n) (false: not known at load): a
 * folded int64 vector, or the output of a ShapeOf without symbols (rule shape_of, which ran
 * before: a shape alike at every size the symbolic pass probed, the zero probe included);
 * *maker: that ShapeOf (or NULL). */
static bool fixed_shape(const osc_fuse_view *v, int32_t id, int64_t *t, int32_t *n,
                        const osc_node **maker) {
    const osc_tensor *c = osc_fuse_folded(v, id);
    const osc_node *s = producer(v, id);
    *maker = NULL;
    if (c) {
        if (c->dtype != OSC_INT64 || c->rank != 1 || c->dims[0] > OSC_FUSED_MAX_RANK)
            return false;
        *n = (int32_t)c->dims[0];
        if (*n) memcpy(t, c->data, (size_t)*n * sizeof *t);
        return true;
    }
    if (!osc_fuse_is_kernel(s, "ShapeOf")) return false;
    const osc_shape_of_params *p = s->params;
    if (p->rank != 1) return false;
    for (int32_t i = 0; i < p->n; i++)
        if (p->dims[i] < 0) return false; /* (a symbol: its size read at run time) */
    *n = p->n;
    memcpy(t, p->dims, (size_t)p->n * sizeof *t);
    *maker = s;
    return true;
}

/* A folded int64 vector's values (NULL: none, or not of n elements). */
static const int64_t *ints(const osc_fuse_view *v, int32_t id, int64_t n) {
    return osc_fuse_ints(id >= 0 ? osc_fuse_folded(v, id) : NULL, n);
}

/* Whether shape value id is Shape(Slice(y, ...)) of y's first row (starts 0, ends 1 on axis
 * 0 and INT64_MAX on the others it names, steps 1): [min(R, 1), y's other dims] for R rows,
 * into t[0..*n) with 1 for min(R, 1), which is what the graph computes wherever an Expand of
 * `in` to it runs: y has the scatter's data's rows (R = 0: every destination index is out of
 * range, an error fused or not) or in's (R = 0 = E: the Expand keeps its empty input). torch
 * 1.13's index_add_ writes it (expand_as a Slice of self); the symbolic pass cannot take its
 * value for a constant, since it is 0 at R = 0. nodes[0..2): the Shape and the Slice. */
static bool first_row_shape(const match *m, int32_t id, const osc_tensor *in, int64_t *t,
                            int32_t *n, const osc_node **nodes) {
    const osc_fuse_view *v = m->v;
    const osc_node *sh = producer(v, id), *sl = producer(v, osc_fuse_in(sh, 0));
    if (!sh || !(sh->kernel->flags & OSC_KF_SHAPE_ONLY) || sh->n_inputs != 1 ||
        osc_node_attr(sh, "start") || osc_node_attr(sh, "end") ||
        !osc_fuse_has(sl, OSC_KT_SLICE) || sl->n_inputs < 3)
        return false;
    const int32_t y = sl->inputs[0];
    const osc_tensor *yt = osc_fuse_sym_shape(v, y), *st = osc_fuse_sym_shape(v, id);
    const osc_tensor *dt = osc_fuse_sym_shape(v, m->data), *sc = osc_fuse_folded(v, sl->inputs[1]);
    const int64_t len = sc && sc->rank == 1 ? sc->dims[0] : 0;
    const int64_t *starts = ints(v, sl->inputs[1], len), *ends = ints(v, sl->inputs[2], len);
    const int32_t ax = osc_fuse_in(sl, 3), sp = osc_fuse_in(sl, 4);
    const int64_t *axes = ax >= 0 ? ints(v, ax, len) : NULL;
    const int64_t *steps = sp >= 0 ? ints(v, sp, len) : NULL;
    if (!yt || !st || !dt || st->dtype != OSC_INT64 || st->rank != 1 || st->dims[0] != yt->rank ||
        yt->rank < 1 || yt->rank > OSC_FUSED_MAX_RANK || in->rank < yt->rank || len < 1 ||
        len > yt->rank || !starts || !ends || (ax >= 0 && !axes) || (sp >= 0 && !steps) ||
        (yt->dims[0] != dt->dims[0] && yt->dims[0] != in->dims[in->rank - yt->rank]))
        return false;
    bool row0 = false;
    for (int64_t i = 0; i < len; i++) {
        const int64_t a = axes ? axes[i] : i;
        if (starts[i] != 0 || (steps && steps[i] != 1) || a < 0 || a >= yt->rank ||
            ends[i] != (a == 0 ? 1 : INT64_MAX))
            return false;
        row0 |= a == 0;
    }
    if (!row0) return false;
    t[0] = 1;
    for (int32_t d = 1; d < yt->rank; d++)
        if ((t[d] = yt->dims[d]) < 0) return false;
    *n = yt->rank;
    nodes[0] = sh;
    nodes[1] = sl;
    return true;
}

/* Whether Expand n, whose input has shape `in`, gives that input as it is at every run: its
 * shape fixed at load (fixed_shape) or the first row's of a value (first_row_shape), of no more
 * dims than the input, each 1 or the input's (static) dim. The Expand torch 1.13 puts on
 * index_add_'s source, expand_as a Slice [1, C] of self, is one; so is the rank-1 [1] of a [E]
 * source. makers[0..2): the nodes computing the shape (NULL: none). */
static bool same_expand(const match *m, const osc_node *n, const osc_tensor *in,
                        const osc_node **makers) {
    int64_t t[OSC_FUSED_MAX_RANK];
    int32_t k;
    makers[0] = makers[1] = NULL;
    if (n->n_inputs != 2 ||
        (!fixed_shape(m->v, n->inputs[1], t, &k, makers) &&
         !first_row_shape(m, n->inputs[1], in, t, &k, makers)) ||
        k > in->rank)
        return false;
    for (int32_t i = 0; i < k; i++) {
        const int64_t d = in->dims[in->rank - k + i];
        if (t[i] != 1 && (d < 0 || t[i] != d)) return false;
    }
    return true;
}

/* Walks back from the updates (value cur) through single-reader elementwise steps, row-
 * preserving Reshapes and Expands that keep the shape (same_expand) to a Gather along axis 0;
 * true when one was reached, with the steps (in evaluation order), the operands and the
 * Gather's inputs filled in. */
static bool chain(osc_kctx *k, match *m, int32_t cur, int32_t depth) {
    const osc_fuse_view *v = m->v;
    const osc_node *n = producer(v, cur);
    const osc_tensor *ct = osc_fuse_sym_shape(v, cur);
    if (!n || !ct || ct->rank < 1 || osc_fuse_count_from(ct, 1) < 0 || v->uses[cur] != 1 ||
        depth > OSC_FUSE_MAX_NODES - 2) /* (rows of a static size: plan_operand's strides) */
        return false;
    if (osc_fuse_has(n, OSC_KT_GATHER)) {
        const osc_tensor *x = osc_fuse_sym_shape(v, n->inputs[0]);
        const osc_tensor *src = osc_fuse_sym_shape(v, n->inputs[1]);
        if (!x || !src || x->dtype != m->dtype || !osc_fuse_gather0(n, x->rank) ||
            src->rank != 1 || src->dims[0] != m->p->edges || !absorb(m, n))
            return false;
        m->p->gather = true;
        m->f->inputs[OSC_FS_IN_TABLE] = n->inputs[0];
        m->f->inputs[OSC_FS_IN_SRC] = osc_fuse_uncast_index(m->f, v, n->inputs[1]);
        return true;
    }
    if (osc_fuse_has(n, OSC_KT_SAME_ELEMENTS)) { /* keeping the rows: Reshape [E, H, C] */
        const osc_tensor *in = osc_fuse_sym_shape(v, n->inputs[0]);
        if (!in || in->rank < 1 || in->dims[0] != ct->dims[0]) return false;
        return absorb(m, n) && chain(k, m, n->inputs[0], depth + 1);
    }
    if (osc_fuse_has(n, OSC_KT_EXPAND)) { /* keeping the shape: index_add_'s expand_as */
        const osc_tensor *in = osc_fuse_sym_shape(v, n->inputs[0]);
        const osc_node *makers[2];
        if (!in || in->dtype != ct->dtype || !osc_fuse_same_dims(in, ct) ||
            !same_expand(m, n, in, makers) || !absorb(m, n))
            return false;
        /* the shape's makers when only this chain reads them */
        for (int32_t i = 0, id = n->inputs[1]; i < 2 && makers[i] && v->uses[id] == 1; i++) {
            if (!absorb(m, makers[i])) return false;
            id = makers[i]->inputs[0];
        }
        return chain(k, m, n->inputs[0], depth + 1);
    }
    /* an arithmetic step: the binary kernel's row, by its variant */
    const int32_t op = osc_fuse_step_op(n);
    if (op < 0 || m->p->n_steps == OSC_FS_MAX_STEPS) return false;
    const int32_t n_steps = m->p->n_steps, n_absorbed = m->f->n_absorbed;
    for (int32_t side = 0; side < 2; side++) { /* which input carries the chain */
        const int32_t c = n->inputs[side], o = n->inputs[1 - side];
        const osc_tensor *cs = osc_fuse_sym_shape(v, c), *os = osc_fuse_sym_shape(v, o);
        if (!cs || !os || c == o || cs->dtype != m->dtype || os->dtype != m->dtype ||
            !osc_fuse_same_dims(cs, ct))
            continue;
        osc_fs_step *st = &m->p->steps[n_steps];
        memset(st, 0, sizeof *st);
        st->op = op;
        st->operand_first = side == 1;
        st->rank = ct->rank;
        memcpy(st->dims, ct->dims, (size_t)ct->rank * sizeof ct->dims[0]);
        m->f->inputs[OSC_FS_IN_STEPS + n_steps] = o;
        m->p->n_steps = n_steps + 1;
        if (plan_operand(k, st, ct, os, m->p->row) && operand_source(m, n_steps) &&
            absorb(m, n) && chain(k, m, c, depth + 1))
            return true;
        if (k->err->status) return false;
        m->p->n_steps = n_steps; /* undo, try the other side */
        m->f->n_absorbed = n_absorbed;
    }
    return false;
}

bool osc_fuse_one_value(const osc_fuse_view *v, int32_t id, int32_t dtype, double *c,
                        const osc_node **maker) {
    const osc_tensor *t = osc_fuse_folded(v, id);
    *c = 0;
    *maker = NULL;
    if (t) return t->nbytes == 0 || one_value(t->data, t->nbytes, dtype, c);
    const osc_node *n = producer(v, id);
    if (!osc_fuse_has(n, OSC_KT_CONSTANT)) return false;
    const osc_constant_value *k = n->params; /* (no data: ConstantOfShape's float 0) */
    *maker = n;
    return k->dtype == dtype && (!k->data || one_value(k->data, k->nbytes, dtype, c));
}

/* Data that is one value repeated (zeros, or torch.full's -inf before a max) and read by
 * nothing else: the fused node fills its output with the value instead (m->p->fill_value), and a
 * Constant or ConstantOfShape making it is absorbed. */
static bool fill_data(match *m, int32_t data) {
    const osc_node *n;
    return m->v->uses[data] == 1 &&
           osc_fuse_one_value(m->v, data, m->dtype, &m->p->fill_value, &n) &&
           (!n || absorb(m, n));
}

/* Updates that are one value repeated (GCN's degree scatters ConstantOfShape's ones), `value`,
 * read by this scatter alone: the fused node reads no updates (p->const_updates), `maker` (the
 * node making them, or NULL) absorbed. */
static bool const_updates(match *m, double value, const osc_node *maker) {
    if (maker && !absorb(m, maker)) return false;
    m->p->const_updates = true;
    m->p->update_value = value;
    m->p->dtype = m->dtype;
    return true;
}

/* Whether nodes a and b are of one op (the rule's anchor, a ScatterElements: rules name ops
 * only in their anchors). */
static bool same_op(const osc_node *a, const osc_node *b) {
    return !strcmp(a->op_type, b->op_type) && !strcmp(a->domain, b->domain);
}

/* Whether node r is of anchor n's op (ScatterElements) without reduction (a reset) and its
 * updates are one value of `dtype`: a folded constant whose elements are all equal, or an
 * Expand of one (the small export folds the Expand, the large one cannot): that value in *c. */
static bool reset_scatter(const osc_fuse_view *v, const osc_node *n, const osc_node *r,
                          int32_t dtype, double *c) {
    if (!r || !same_op(r, n) || r->n_inputs != 3 ||
        ((const osc_se_params *)r->params)->reduction != OSC_RED_NONE)
        return false;
    const osc_node *ex = producer(v, r->inputs[2]);
    const osc_tensor *t = osc_fuse_folded(v, r->inputs[2]);
    if (!t && osc_fuse_has(ex, OSC_KT_EXPAND)) t = osc_fuse_folded(v, ex->inputs[0]);
    return t && t->dtype == dtype && (dtype == OSC_FLOAT || dtype == OSC_DOUBLE) &&
           one_value(t->data, t->nbytes, dtype, c);
}

/* How far after a reset scatter its reducing reader is looked for (torch writes the two
 * adjacent; a bound keeps the matching linear). */
#define RESET_READER_WINDOW 8

/* Whether ScatterElements node i is a reset (reset_scatter) that the reduction scatter reading
 * it as its data, over the same index, takes in (reset_data): node i is then left to it. */
static bool reset_for_reader(const osc_fuse_view *v, int32_t i, int32_t dtype) {
    const osc_graph *g = v->graph;
    const osc_node *n = &g->nodes[i];
    double c;
    if (v->uses[n->outputs[0]] != 1 || !reset_scatter(v, n, n, dtype, &c)) return false;
    for (int32_t j = i + 1; j < g->n_nodes && j <= i + RESET_READER_WINDOW; j++) {
        const osc_node *r = &g->nodes[j];
        bool reads = false;
        for (int32_t a = 0; !r->folded && a < r->n_inputs; a++)
            reads = reads || r->inputs[a] == n->outputs[0];
        if (!reads) continue;
        return same_op(r, n) && r->n_inputs == 3 && r->inputs[0] == n->outputs[0] &&
               r->inputs[1] == n->inputs[1] &&
               ((const osc_se_params *)r->params)->reduction != OSC_RED_NONE;
    }
    return false;
}

/* Data made by a reset scatter over the same index (reset_scatter; torch's scatter_reduce with
 * include_self=False: each row that receives an edge starts at the reduction's identity) and
 * read by this scatter alone: the reset is absorbed, the fused node reads the reset's data
 * and starts the rows with edges at the reset's value (p->reset). *data becomes that data. */
static bool reset_data(match *m, const osc_node *n, int32_t *data) {
    const osc_node *r = producer(m->v, *data);
    double c;
    if (m->v->uses[*data] != 1 || !reset_scatter(m->v, n, r, m->dtype, &c) ||
        r->inputs[1] != n->inputs[1] || !absorb(m, r))
        return false;
    m->p->reset = true;
    m->p->reset_value = c;
    *data = r->inputs[0];
    return true;
}

/* opts.fuse_recompute: the first step whose operand (E rows, read by the fused node alone) a
 * region can compute a tile at a time, recomputing what it needs from per-node values where
 * the graph still runs it for other readers (GAT's attention weights, GCN's edge norms), and
 * keeping no other E-row value alive: that operand is never written out, the node becomes a
 * TiledGatherScatter (fused_tiled.h), its region in *r. False: no such step, m as it was. Not by
 * default: the tiles' work costs more time than the operand's bytes are worth
 * (GAT 43 -> 53 ms, GCN 72 -> 81 ms; docs/performance.md). */
static bool tiled_operand(osc_kctx *k, match *m, cap *cp) {
    osc_ft_params *r = &cp->tp;
    const osc_fuse_view *v = m->v;
    osc_fusion *f = m->f;
    const osc_tensor *x = osc_fuse_shape(v, f->inputs[OSC_FS_IN_TABLE]);
    for (int32_t s = 0; x && s < m->p->n_steps; s++) {
        const int32_t o = f->inputs[OSC_FS_IN_STEPS + s];
        const osc_tensor *ot = osc_fuse_shape(v, o);
        if (!ot || ot->rank < 1 || ot->dims[0] != m->p->edges || m->p->steps[s].estride == 0 ||
            v->uses[o] != 1 || osc_fuse_producer(v, o) < 0)
            continue;
        reset_region(cp);
        r->ext_base = OSC_FS_IN_STEPS + m->p->n_steps;
        r->dtype = m->dtype;
        const osc_ft_want w = {.root = o, .dtype = m->dtype, .dst = f->inputs[OSC_FS_IN_DST],
                               .src = f->inputs[OSC_FS_IN_SRC], .dst_rows = m->p->dims[0],
                               .src_rows = x->dims[0], .recompute = true};
        const int32_t before = f->n_absorbed;
        bool kept = false; /* an E-row value a node computes, which the region would keep alive */
        const bool found = osc_fuse_region(k, v, &w, r, f);
        for (int32_t e = 0; found && e < r->n_ext; e++)
            kept = kept || (r->ext[e].row && osc_fuse_producer(v, f->inputs[r->ext_base + e]) >= 0);
        if (!found || kept) {
            f->n_absorbed = before;
            continue;
        }
        m->p->steps[s].tiled = true;
        m->p->steps[s].slot = r->updates;
        r->updates = -1;
        f->inputs[OSC_FS_IN_STEPS + s] = -1;
        return true;
    }
    return false;
}

/* p->syms: where the fused node reads each symbol of p at run time; false when an input of the
 * fused node holds none of a symbol's dims. */
static bool bind_symbols(const osc_fuse_view *v, const osc_fusion *f, osc_fs_params *p) {
    memset(&p->syms, 0, sizeof p->syms);
    bool ok = osc_fuse_bind_dims(v, f, &p->syms, &p->edges, 1) &&
              osc_fuse_bind_dims(v, f, &p->syms, p->dims, p->rank);
    for (int32_t s = 0; ok && s < p->n_steps; s++) {
        const osc_fs_step *st = &p->steps[s];
        ok = osc_fuse_bind_dims(v, f, &p->syms, st->dims, st->rank) &&
             osc_fuse_bind_dims(v, f, &p->syms, st->odims, st->orank);
    }
    return ok;
}

bool osc_rw_gather_scatter_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c,
                                 bool nd) {
    cap *cp = c;
    osc_fusion *f = &cp->f;
    const osc_node *n = &v->graph->nodes[node];
    if (n->n_inputs != 3) return false;
    const int32_t idx = n->inputs[1], upd = n->inputs[2];
    int32_t data = n->inputs[0];
    const osc_tensor *dt = osc_fuse_sym_shape(v, data), *it = osc_fuse_sym_shape(v, idx);
    const osc_tensor *ut = osc_fuse_sym_shape(v, upd);
    const osc_node *ex = nd ? NULL : producer(v, idx);
    /* the pattern's start: a ScatterND of [E, 1] indices, a ScatterElements of an Expand, or
     * a ScatterElements of scalars (rank 1: one index per update already) whose index is a
     * Concat (GCN's degree over the edges and the self loops: the pieces read in place and the
     * edges' split shared with the layer's aggregation) or whose updates are one value
     * repeated (SAGE's count: rows combined from the aggregation's grouping; a scatter of other
     * scalars by a plain index gains nothing); a ScatterElements along another axis than 0 says
     * so (a mixture of experts' combine scatters its gate weights along axis 1 by their top-k
     * indices) */
    const int64_t axis = nd ? 0 : ((const osc_se_params *)n->params)->axis;
    if (!nd && axis != 0 && !(dt && axis == -dt->rank))
        return osc_rw_no(v, "axis %lld: fused scatters run along axis 0", (long long)axis);
    double one;
    const osc_node *one_maker;
    const bool repeated = !nd && dt && dt->rank == 1 &&
                          osc_fuse_one_value(v, upd, dt->dtype, &one, &one_maker);
    const bool scalars =
        !nd && dt && dt->rank == 1 && (osc_fuse_has(ex, OSC_KT_CONCAT) || repeated);
    if (nd ? !it || it->rank != 2 || it->dims[1] != 1
           : !scalars && !osc_fuse_has(ex, OSC_KT_EXPAND))
        return false;
    if (!dt || !ut)
        return osc_rw_no(v, "the shape of data or of the updates is not known at load");
    if (dt->dtype != OSC_FLOAT && dt->dtype != OSC_DOUBLE)
        return osc_rw_no(v, "data is %s: fused scatters take float or double",
                         osc_dtype_get(dt->dtype)->name);
    if (ut->dtype != dt->dtype || dt->rank < 1 || ut->rank != dt->rank ||
        memcmp(ut->dims + 1, dt->dims + 1, (size_t)(dt->rank - 1) * sizeof dt->dims[0]) != 0)
        return osc_rw_no(v, "the updates are not rows of data's rows (dtype, rank or dims 1..)");
    cp->p.steps = cp->steps;
    reset_region(cp);
    match m = {.v = v, .f = f, .p = &cp->p, .dtype = dt->dtype, .data = data};
    m.p->edges = ut->dims[0]; /* (a symbol when the model has dynamic axes) */
    m.p->row = osc_fuse_count_from(ut, 1);
    /* no edges, or rows of no elements (or of a symbolic size): nothing to gain, and the
     * unfused graph checks no destination index (its expanded index has no elements) where
     * the fused node would */
    if (m.p->edges == 0 || m.p->row <= 0)
        return osc_rw_no(v, "no edges, or rows of no elements (or of a symbolic size)");
    int32_t dst;
    if (nd) { /* ScatterND with [E, 1] indices: one row index per update row already */
        m.p->reduction = ((const osc_snd_params *)n->params)->reduction;
        if (it->dims[0] != m.p->edges)
            return osc_rw_no(v, "the indices' rows are not the updates' rows");
        dst = idx;
        m.p->dst_stride = 1;
    } else if (scalars) { /* ScatterElements of rank 1: its indices are the rows' */
        if (!it || !osc_fuse_same_dims(it, ut))
            return osc_rw_no(v, "the indices' shape is not the updates' shape");
        if (reset_for_reader(v, node, dt->dtype))
            return osc_rw_no(v, "a reset scatter, taken in by the reduction scatter reading it");
        m.p->reduction = ((const osc_se_params *)n->params)->reduction;
        dst = idx;
        m.p->dst_stride = 1;
    } else { /* ScatterElements along axis 0, its indices an Expand of one index per row */
        const osc_se_params *sp = n->params;
        const osc_tensor *u = osc_fuse_sym_shape(v, ex->inputs[0]);
        bool per_row = u && it && u->rank == ut->rank && osc_fuse_same_dims(it, ut) &&
                       (u->dims[0] == m.p->edges || u->dims[0] == 1);
        for (int32_t d = 1; per_row && d < u->rank; d++) per_row = u->dims[d] == 1;
        if (!per_row)
            return osc_rw_no(v, "the indices are not an Expand of one index per update row");
        if (reset_for_reader(v, node, dt->dtype))
            return osc_rw_no(v, "a reset scatter, taken in by the reduction scatter reading it");
        m.p->reduction = sp->reduction;
        dst = ex->inputs[0];
        m.p->dst_stride = u->dims[0] == 1 ? 0 : 1;
        if (!absorb(&m, ex)) return osc_rw_no(v, "the chain has too many nodes");
    }
    f->inputs[OSC_FS_IN_DST] = osc_fuse_index_source(f, v, dst);
    const int32_t before_chain = f->n_absorbed;
    osc_ft_params *tp = &cp->tp;
    if (!chain(k, &m, upd, 0)) {
        if (k->err->status) return false;
        m.p->n_steps = 0;
        f->n_absorbed = before_chain;
        /* updates computed row by row: the tiled scatter; else the updates as they are (a
         * ScatterND gains nothing from that: it reads its index as it is already) */
        tp->ext_base = OSC_FT_IN_EXT;
        tp->dtype = m.dtype;
        const osc_ft_want w = {.root = upd, .dtype = m.dtype, .dst = f->inputs[OSC_FS_IN_DST],
                               .src = -1, .dst_rows = dt->dims[0]};
        if (osc_fuse_region(k, v, &w, tp, f)) {
            cp->tiled = true;
        } else if (k->err->status) {
            return false;
        } else {
            f->n_absorbed = before_chain;
            if (nd) /* (a ScatterND reads its one index per row as it is already) */
                return osc_rw_no(v, "the updates are neither a Gather's rows through "
                                 "elementwise steps nor a region of rows to compute");
            f->inputs[OSC_FS_IN_TABLE] =
                scalars && repeated && const_updates(&m, one, one_maker) ? -1 : upd;
            f->inputs[OSC_FS_IN_SRC] = -1;
        }
    }
    if (!nd) reset_data(&m, n, &data);
    const int32_t before_zero = f->n_absorbed;
    m.p->fill_data = fill_data(&m, data);
    const int32_t zeros = f->n_absorbed > before_zero ? f->absorbed[before_zero] : -1;
    f->inputs[OSC_FS_IN_DATA] = m.p->fill_data ? -1 : data;
    m.p->rank = dt->rank;
    memcpy(m.p->dims, dt->dims, (size_t)dt->rank * sizeof dt->dims[0]);
    /* the steps were found from the scatter back: run them from the Gather forward */
    for (int32_t a = 0, b = m.p->n_steps - 1; a < b; a++, b--) {
        osc_fs_step t = m.p->steps[a];
        m.p->steps[a] = m.p->steps[b];
        m.p->steps[b] = t;
        int32_t ti = f->inputs[OSC_FS_IN_STEPS + a];
        f->inputs[OSC_FS_IN_STEPS + a] = f->inputs[OSC_FS_IN_STEPS + b];
        f->inputs[OSC_FS_IN_STEPS + b] = ti;
    }
    /* (a tiled scatter's gather steps read no PAIR step) */
    const osc_tensor *xt = m.p->gather ? osc_fuse_sym_shape(v, f->inputs[OSC_FS_IN_TABLE]) : NULL;
    const int32_t pairs = !cp->tiled && xt ? osc_fuse_pair_operands(v, f, m.p, m.dtype,
                                                                    xt->dims[0]) : 0;
    if (!cp->tiled && !pairs && m.p->gather && v->recompute) cp->tiled = tiled_operand(k, &m, cp);
    f->n_inputs = cp->tiled ? tp->ext_base + tp->n_ext : OSC_FS_IN_STEPS + m.p->n_steps + pairs;
    /* The indices read in place from the pieces of a Concat or from a row of a whole tensor
     * (appended after the others), and where the node reads each symbol at run time: way 1
     * without the pieces when a symbol is then on no input (E + N, a Concat of edge_index[0]
     * and arange(N), on the Concat alone); ways 2 and 3 as 0 and 1 without the zero fill, when
     * N, the output's rows, is on the zeros alone (SAGE's count: its [N] zeros made, its [E]
     * index not copied). */
    const osc_fusion whole = *f;
    for (int32_t way = 0;; way++) {
        *f = whole;
        memset(&m.p->dst_pc, 0, sizeof m.p->dst_pc);
        memset(&m.p->src_pc, 0, sizeof m.p->src_pc);
        if (way >= 2) {
            m.p->fill_data = false;
            f->inputs[OSC_FS_IN_DATA] = data;
            for (int32_t a = 0; zeros >= 0 && a < f->n_absorbed; a++)
                if (f->absorbed[a] == zeros) f->absorbed[a--] = f->absorbed[--f->n_absorbed];
        }
        const bool pieces = way % 2 == 0;
        if (pieces && m.p->dst_stride) osc_fuse_ix_pieces(v, f, OSC_FS_IN_DST, &m.p->dst_pc);
        if (pieces && m.p->gather) osc_fuse_ix_pieces(v, f, OSC_FS_IN_SRC, &m.p->src_pc);
        if (bind_symbols(v, f, m.p)) break;
        if (way == 3 || (way == 1 && !m.p->fill_data))
            return osc_rw_no(v, "a symbolic size (E or N) is on no input the fused node reads");
    }
    return !cp->tiled || osc_fuse_region_syms(v, f, &m.p->syms, &cp->tp) ||
           osc_rw_no(v, "a symbolic size of the tiled region is on no input it reads");
}

int32_t osc_fuse_step_op(const osc_node *n) {
    static const int32_t k_step[] = {[OSC_BIN_ADD] = OSC_FS_ADD + 1,
                                     [OSC_BIN_SUB] = OSC_FS_SUB + 1,
                                     [OSC_BIN_MUL] = OSC_FS_MUL + 1,
                                     [OSC_BIN_DIV] = OSC_FS_DIV + 1};
    const int32_t variant = n->kernel->variant;
    return osc_fuse_has(n, OSC_KT_BINARY) && variant >= 0 &&
                   variant < (int32_t)(sizeof k_step / sizeof k_step[0])
               ? k_step[variant] - 1
               : -1;
}

/* Room for `n` items of `size` bytes after `*at` bytes of a block, kept aligned for any of
 * them; the offset of the room. */
static size_t room(size_t *at, int32_t n, size_t size) {
    const size_t al = _Alignof(max_align_t), a = (*at + al - 1) / al * al;
    *at = a + (size_t)n * size;
    return a;
}

/* The parameters of a fused scatter at their real size: one block from the model's pool,
 * holding the struct and its arrays (pointed at their copies). */
osc_fs_params *osc_fuse_dup_fs(osc_kctx *k, const osc_fs_params *src) {
    size_t at = sizeof *src;
    const size_t steps = room(&at, src->n_steps, sizeof src->steps[0]);
    char *b = osc_kparams(k, at);
    if (!b) return NULL;
    osc_fs_params *p = memcpy(b, src, sizeof *src);
    p->steps = memcpy(b + steps, src->steps, (size_t)src->n_steps * sizeof src->steps[0]);
    return p;
}
static osc_ft_params *dup_ft(osc_kctx *k, const osc_ft_params *src, const osc_fs_params *fs) {
    size_t at = sizeof *src;
    const size_t steps = room(&at, fs->n_steps, sizeof fs->steps[0]);
    const size_t nodes = room(&at, src->n_nodes, sizeof src->nodes[0]);
    const size_t slots = room(&at, src->n_nodes, sizeof src->slots[0]);
    const size_t ext = room(&at, src->n_ext, sizeof src->ext[0]);
    char *b = osc_kparams(k, at);
    if (!b) return NULL;
    osc_ft_params *p = memcpy(b, src, sizeof *src);
    p->fs = *fs;
    p->fs.steps = memcpy(b + steps, fs->steps, (size_t)fs->n_steps * sizeof fs->steps[0]);
    p->nodes = memcpy(b + nodes, src->nodes, (size_t)src->n_nodes * sizeof src->nodes[0]);
    p->slots = memcpy(b + slots, src->slots, (size_t)src->n_nodes * sizeof src->slots[0]);
    p->ext = memcpy(b + ext, src->ext, (size_t)src->n_ext * sizeof src->ext[0]);
    return p;
}

bool osc_rw_gather_scatter_rewrite(osc_kctx *k, const void *c, osc_fusion *f) {
    const cap *cp = c;
    *f = cp->f;
    if (cp->tiled) {
        osc_ft_params *tp = dup_ft(k, &cp->tp, &cp->p);
        if (!tp) return false;
        f->params = tp;
        f->op = tp->updates < 0 ? "TiledGatherScatter" : "TiledScatter";
        return true;
    }
    osc_fs_params *p = osc_fuse_dup_fs(k, &cp->p);
    if (!p) return false;
    f->params = p;
    f->op = p->gather ? "GatherScatter" : "RowScatter";
    return true;
}
