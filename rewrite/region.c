/* region.c: finds the region of a tiled scatter (ops/fused/fused_tiled.h): the nodes computing the
 * scatter's updates (or a gather-scatter's operand) that work row by row on the edges, whose
 * outputs nothing outside reads (unless the region may recompute them).
 * Ops qualify by what they do with rows, checked on the shapes folding found, or the symbolic
 * pass where the model has dynamic axes: E may be a symbol, as may a table's rows; every other
 * dim of a row value, and of a value read whole, is a size (fused_tiled.h):
 *   unary elementwise ops;        binary elementwise ops, an input with E rows read by row, one
 *                                 broadcast along the rows read whole;
 *   Gather along axis 0 of a whole table by an [E] index from outside the region or a row view,
 *                or by the scatter's own destination or source index (read from the tile);
 *   a row view: Gather of one row of a whole [K, E, ...] tensor by a constant (edge_index[0]),
 *                read in place by the kernel, no node of its own;
 *   Expand of a whole value (one row, or fewer dims) to [E, ...], by a constant shape or one
 *          the symbolic pass knows (a ShapeOf of the inputs' dims, no node of its own then);
 *   Concat along an axis other than 0;
 *   MatMul of [E, ..., K] by a whole [K, N];   Gemm of [E, K] (not transposed) by a whole B,
 *                                              C whole or with E rows.
 * Every value of the region is float or double, of the updates' dtype (no kernel of these can
 * fail on such data once its shapes were checked). */
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "ops/linalg/gemm_kernel.h"
#include "ops/linalg/linalg.h"
#include "ops/shape/shape_ops.h"
#include "core/kattr.h"
#include "region.h"
#include "osc_ops_config.h" /* OSC_OP_<Name>: the ops this build compiles (OSC_OPS) */

typedef struct region {
    const osc_fuse_view *v;
    const osc_ft_want *w;
    int64_t E; /* the rows: a size, or a symbol */
    int32_t dtype;
    int32_t n;
    int32_t node[OSC_FT_MAX_NODES];
    uint32_t rows[OSC_FT_MAX_NODES];  /* bit j: input j is read by row */
    uint32_t outer[OSC_FT_MAX_NODES]; /* bit j: input j must come from outside the region */
} region;

static const osc_tensor *shape(const region *r, int32_t id) {
    return osc_fuse_sym_shape(r->v, id);
}
/* Whether t's dims from `from` on are sizes, not symbols. */
static bool sized_from(const osc_tensor *t, int32_t from) {
    return osc_fuse_count_from(t, from) >= 0;
}

/* A row value of the region's dtype: E rows of a static size. */
static bool row_value(const region *r, const osc_tensor *t) {
    return t && t->dtype == r->dtype && t->rank >= 1 && t->dims[0] == r->E && sized_from(t, 1);
}

/* The row of a whole [K, E, ...] tensor that node n picks, as a Gather along axis 0 by a
 * constant (edge_index[0], osc_fuse_row_view); -1 for any other node. */
static int64_t row_view_index(const region *r, const osc_node *n, const osc_tensor *out) {
    const int64_t k = osc_fuse_row_view(r->v, n);
    const osc_tensor *data = k >= 0 ? shape(r, n->inputs[0]) : NULL;
    return data && data->dims[1] == r->E && sized_from(data, 2) && out && out->rank >= 1 &&
                   out->dims[0] == r->E
               ? k
               : -1;
}
static bool row_view(const region *r, const osc_node *n, const osc_tensor *out) {
    return row_view_index(r, n, out) >= 0;
}

/* How a Gather along axis 0 of a table of `rows` rows by value idx reads its index: the tile's
 * destinations or sources when idx is the scatter's (and the table has the rows they were
 * checked against: the same size or symbol, checked again at run time), else its input. */
static int32_t gather_by(const region *r, int32_t idx, int64_t rows) {
    const osc_ft_want *w = r->w;
    if (idx >= 0 && idx == w->dst && rows == w->dst_rows) return OSC_FT_BY_DST;
    if (idx >= 0 && idx == w->src && rows == w->src_rows) return OSC_FT_BY_SRC;
    return OSC_FT_BY_INPUT;
}

/* The values of the int64 shape vector value id: a constant's, or those the symbolic pass
 * found (symbols and all: ShapeOf computes them); NULL when unknown. */
static const int64_t *shape_values(const region *r, int32_t id, int32_t rank) {
    const osc_value *sv = &r->v->graph->values[id];
    if (sv->init && !sv->is_input) return sv->init->data;
    const osc_tensor *c = r->v->sym ? &r->v->sym->content[id] : NULL;
    return c && c->rank == rank && osc_fuse_producer(r->v, id) >= 0 ? c->dims : NULL;
}

/* Whether node i may join, and how it reads each input (a value read whole has a static
 * shape, but for a table's rows). */
static bool eligible(const region *r, int32_t i, uint32_t *rows, uint32_t *outer) {
    const osc_fuse_view *v = r->v;
    const osc_node *n = &v->graph->nodes[i];
    const osc_tensor *out = n->n_outputs == 1 ? shape(r, n->outputs[0]) : NULL;
    *rows = *outer = 0;
    if (row_view(r, n, out)) {
        *outer = 1;
        return true;
    }
    if (n->folded || !row_value(r, out) || n->n_inputs > OSC_FT_MAX_NIN) return false;
    const osc_tensor *in[OSC_FT_MAX_NIN] = {NULL};
    for (int32_t j = 0; j < n->n_inputs; j++)
        if (!(in[j] = shape(r, n->inputs[j]))) return false;
    if (osc_fuse_has(n, OSC_KT_ROWWISE) && n->n_inputs == 1) { /* unary */
        *rows = 1;
        return row_value(r, in[0]) && in[0]->rank == out->rank;
    }
    if (osc_fuse_has(n, OSC_KT_ROWWISE | OSC_KT_BROADCASTS) && n->n_inputs == 2) { /* binary */
        for (int32_t j = 0; j < 2; j++) {
            if (in[j]->dtype != r->dtype) return false;
            if (in[j]->rank == out->rank && in[j]->dims[0] == r->E && sized_from(in[j], 1))
                *rows |= 1u << j;
            else if ((in[j]->rank == out->rank && in[j]->dims[0] != 1) || !sized_from(in[j], 0))
                return false;
            else *outer |= 1u << j;
        }
        return *rows != 0;
    }
    if (osc_fuse_has(n, OSC_KT_GATHER)) {
        if (n->n_inputs != 2 || in[0]->dtype != r->dtype || !osc_fuse_gather0(n, in[0]->rank) ||
            !sized_from(in[0], 1) || in[1]->rank != 1 || in[1]->dims[0] != r->E ||
            (in[1]->dtype != OSC_INT64 && in[1]->dtype != OSC_INT32))
            return false;
        /* the index, by row: from outside or a row view (checked up front), or the tile's */
        *rows = gather_by(r, n->inputs[1], in[0]->dims[0]) ? 0 : 2;
        *outer = 1; /* the table, from outside */
        return true;
    }
    if (osc_fuse_has(n, OSC_KT_EXPAND)) { /* a whole value broadcast along the rows, to a shape */
        *outer = 3;
        const int64_t *to = n->n_inputs == 2 && in[1]->dtype == OSC_INT64 && in[1]->rank == 1 &&
                                    in[1]->dims[0] == out->rank
                                ? shape_values(r, n->inputs[1], out->rank) : NULL;
        bool sized = to && to[0] == r->E;
        for (int32_t d = 1; sized && d < out->rank; d++) sized = to[d] >= 0;
        return sized && in[0]->dtype == r->dtype && sized_from(in[0], 0) &&
               (in[0]->rank < out->rank || in[0]->dims[0] == 1);
    }
    if (osc_fuse_has(n, OSC_KT_CONCAT)) {
        int64_t axis = ((const osc_concat_params *)n->params)->axis;
        if (axis < 0) axis += out->rank;
        for (int32_t j = 0; j < n->n_inputs; j++)
            if (!row_value(r, in[j]) || in[j]->rank != out->rank) return false;
        *rows = (1u << n->n_inputs) - 1;
        return axis > 0 && axis < out->rank && n->n_inputs > 0;
    }
    if (osc_fuse_has(n, OSC_KT_PRODUCT)) {
        if (n->n_inputs < 2 || !row_value(r, in[0]) || in[0]->rank < 2 || in[1]->rank != 2 ||
            !sized_from(in[1], 0) || in[1]->dtype != r->dtype ||
            ((const osc_product_params *)n->params)->trans_a)
            return false;
        *rows = 1;
        *outer = 2;
        if (n->n_inputs == 3) { /* Gemm's C (with symbolic E, rows even where E is 1 at run) */
            if (in[2]->dtype != r->dtype) return false;
            if (in[2]->rank == 2 && in[2]->dims[0] == r->E && sized_from(in[2], 1) &&
                (OSC_DIM_IS_SYM(r->E) || r->E > 1))
                *rows |= 4;
            else if (sized_from(in[2], 0)) *outer |= 4;
            else return false;
        }
        return true;
    }
    return false;
}

static int32_t find(const region *r, int32_t node) {
    for (int32_t a = 0; a < r->n; a++)
        if (r->node[a] == node) return a;
    return -1;
}

/* Every eligible node reachable from the updates' producer through row inputs. */
static void grow(region *r, int32_t first) {
    uint32_t rows, outer;
    if (first < 0 || !eligible(r, first, &rows, &outer)) return;
    r->node[0] = first;
    r->rows[0] = rows;
    r->outer[0] = outer;
    r->n = 1;
    for (int32_t a = 0; a < r->n; a++) {
        const osc_node *n = &r->v->graph->nodes[r->node[a]];
        for (int32_t j = 0; j < n->n_inputs; j++) {
            const int32_t pi = osc_fuse_producer(r->v, n->inputs[j]);
            if (!(r->rows[a] >> j & 1u) || (r->outer[a] >> j & 1u) || pi < 0 ||
                find(r, pi) >= 0 || r->n == OSC_FT_MAX_NODES || !eligible(r, pi, &rows, &outer))
                continue;
            r->node[r->n] = pi;
            r->rows[r->n] = rows;
            r->outer[r->n++] = outer;
        }
    }
}

static void drop(region *r, int32_t a) {
    r->n--;
    memmove(&r->node[a], &r->node[a + 1], (size_t)(r->n - a) * sizeof r->node[0]);
    memmove(&r->rows[a], &r->rows[a + 1], (size_t)(r->n - a) * sizeof r->rows[0]);
    memmove(&r->outer[a], &r->outer[a + 1], (size_t)(r->n - a) * sizeof r->outer[0]);
}

/* A node the region may run even though the graph still runs it for readers outside: not a
 * product (work per element that grows with the weights). */
static bool recomputable(const region *r, const osc_node *n) {
    return r->w->recompute && !osc_fuse_has(n, OSC_KT_PRODUCT);
}

/* Removes nodes whose output is read outside the region (the root: by the fused node only)
 * unless they may be recomputed, and nodes reading a region value where they need an outside
 * one, until none is left. */
static void prune(region *r, int32_t upd) {
    const osc_graph *g = r->v->graph;
    for (bool again = true; again;) {
        again = false;
        for (int32_t a = 0; a < r->n && !again; a++) {
            const int32_t out = g->nodes[r->node[a]].outputs[0];
            int32_t reads = out == upd ? 1 : 0;
            bool bad = false;
            for (int32_t b = 0; b < r->n; b++) {
                const osc_node *n = &g->nodes[r->node[b]];
                for (int32_t j = 0; j < n->n_inputs; j++) {
                    if (n->inputs[j] == out) reads++;
                    if (b == a && (r->outer[a] >> j & 1u) &&
                        find(r, osc_fuse_producer(r->v, n->inputs[j])) >= 0)
                        bad = true;
                }
            }
            if (bad || (reads != r->v->uses[out] && !recomputable(r, &g->nodes[r->node[a]]))) {
                drop(r, a);
                again = true;
            }
        }
    }
}

/* Bytes of one row of row value t (its dims past the first are sizes). */
static size_t row_bytes(const osc_tensor *t) {
    return (size_t)osc_fuse_count_from(t, 1) * (osc_dtype_get(t->dtype)->bits / 8);
}

/* The value of an input: the output of region node slot[a] (a node of the region run on tiles),
 * or an external input (added once; a row view reads its Gather's table in place). */
static bool ref_of(const region *r, const int32_t *slot, osc_ft_params *p, osc_fusion *f,
                   int32_t id, bool row, osc_ft_ref *ref) {
    if (id < 0) {
        *ref = (osc_ft_ref){OSC_FT_NONE, 0};
        return true;
    }
    const int32_t a = find(r, osc_fuse_producer(r->v, id));
    if (a >= 0 && slot[a] >= 0) {
        *ref = (osc_ft_ref){OSC_FT_SLOT, slot[a]};
        return row;
    }
    const osc_tensor *t = shape(r, id), *src = t;
    int64_t view = -1;
    if (a >= 0) { /* a row view: row k of the Gather's table */
        const osc_node *n = &r->v->graph->nodes[r->node[a]];
        id = n->inputs[0];
        src = shape(r, id);
        view = row_view_index(r, n, t);
    }
    for (int32_t x = 0; x < p->n_ext; x++)
        if (f->inputs[p->ext_base + x] == id && p->ext[x].view == view &&
            p->ext[x].rank == t->rank) {
            *ref = (osc_ft_ref){OSC_FT_EXT, x};
            return p->ext[x].row == row;
        }
    if (p->n_ext == OSC_FT_MAX_EXT || p->ext_base + p->n_ext == OSC_FUSE_MAX_IN ||
        (a >= 0 && !row))
        return false;
    osc_ft_value *v = &p->ext[p->n_ext];
    v->dtype = t->dtype;
    v->rank = t->rank;
    memcpy(v->dims, t->dims, (size_t)t->rank * sizeof t->dims[0]);
    v->row = row;
    v->row_bytes = row ? row_bytes(t) : 0;
    v->src_rank = src->rank;
    memcpy(v->src_dims, src->dims, (size_t)src->rank * sizeof src->dims[0]);
    v->view = view;
    f->inputs[p->ext_base + p->n_ext] = id;
    *ref = (osc_ft_ref){OSC_FT_EXT, p->n_ext++};
    return true;
}

/* How many inputs of the region's nodes read slot i. */
static int32_t slot_readers(const osc_ft_params *p, int32_t i) {
    int32_t n = 0;
    for (int32_t a = 0; a < p->n_nodes; a++)
        for (int32_t j = 0; j < p->nodes[a].n_in; j++)
            n += p->nodes[a].in[j].kind == OSC_FT_SLOT && p->nodes[a].in[j].at == i;
    return n;
}

static int cmp_i32(const void *a, const void *b) {
    return *(const int32_t *)a - *(const int32_t *)b;
}

/* Whether value id is the index or an external input of the region (so far). */
static bool is_input(const osc_ft_params *p, const osc_fusion *f, int32_t id) {
    if (f->inputs[OSC_FS_IN_DST] == id) return true;
    for (int32_t x = 0; x < p->n_ext; x++)
        if (f->inputs[p->ext_base + x] == id) return true;
    return false;
}

/* Symbol d (the scatter's rows: a zero fill's [N, C] is no input) held by none of the region's
 * inputs is read from the graph input whose dim the symbolic pass found it to be, as ShapeOf
 * reads it: an external input no node reads, checked against its shape at each run. Else
 * (not one such dim, or no room) nothing changes: the matcher then reads it from the data. */
static void symbol_input(const osc_fuse_view *v, osc_ft_params *p, osc_fusion *f, int64_t d) {
    if (!OSC_DIM_IS_SYM(d) || !v->sym || -2 - d >= v->sym->n_syms) return;
    for (int32_t j = -1; j < p->n_ext; j++) {
        const osc_tensor *t = osc_fuse_sym_shape(v, f->inputs[j < 0 ? OSC_FS_IN_DST
                                                                     : p->ext_base + j]);
        for (int32_t e = 0; t && e < t->rank; e++)
            if (t->dims[e] == d) return;
    }
    const osc_sym_expr *e = &v->sym->expr[-2 - d];
    const osc_tensor *t = e->n_terms == 1 && e->coef[0] == 1 && !e->add
                              ? osc_fuse_sym_shape(v, e->value[0]) : NULL;
    if (!t || e->dim[0] >= t->rank || t->dims[e->dim[0]] != d || is_input(p, f, e->value[0]) ||
        (t->dtype != OSC_FLOAT && t->dtype != OSC_DOUBLE && t->dtype != OSC_INT64 &&
         t->dtype != OSC_INT32) ||
        p->n_ext == OSC_FT_MAX_EXT || p->ext_base + p->n_ext == OSC_FUSE_MAX_IN)
        return;
    osc_ft_value *x = &p->ext[p->n_ext];
    memset(x, 0, sizeof *x);
    x->dtype = t->dtype;
    x->rank = x->src_rank = t->rank;
    memcpy(x->dims, t->dims, (size_t)t->rank * sizeof t->dims[0]);
    memcpy(x->src_dims, t->dims, (size_t)t->rank * sizeof t->dims[0]);
    x->view = -1;
    f->inputs[p->ext_base + p->n_ext++] = e->value[0];
}

bool osc_fuse_region(osc_kctx *k, const osc_fuse_view *v, const osc_ft_want *w,
                     osc_ft_params *p, osc_fusion *f) {
    const int32_t upd = w->root, dtype = w->dtype;
    const osc_tensor *ut = osc_fuse_sym_shape(v, upd);
    region r = {.v = v, .w = w, .E = ut && ut->rank >= 1 ? ut->dims[0] : 0, .dtype = dtype};
    if (!ut || (r.E < 1 && !OSC_DIM_IS_SYM(r.E)) || v->uses[upd] != 1) return false;
    const int32_t first = osc_fuse_producer(v, upd);
    grow(&r, first);
    prune(&r, upd);
    if (find(&r, first) < 0 || f->n_absorbed + r.n > OSC_FUSE_MAX_NODES) return false;
    /* graph order (the order the nodes ran in), keeping each node's input classes */
    int32_t order[OSC_FT_MAX_NODES];
    memcpy(order, r.node, (size_t)r.n * sizeof order[0]);
    qsort(order, (size_t)r.n, sizeof order[0], cmp_i32);
    region s = r;
    for (int32_t a = 0; a < r.n; a++) {
        const int32_t b = find(&r, order[a]);
        s.node[a] = order[a];
        s.rows[a] = r.rows[b];
        s.outer[a] = r.outer[b];
    }
    size_t per_edge = sizeof(int64_t); /* the destinations (and sources) */
    p->need_src = false;
    int32_t slot[OSC_FT_MAX_NODES]; /* region node -> the node run on tiles (-1: a row view) */
    p->n_nodes = 0;
    for (int32_t a = 0; a < s.n; a++) {
        const osc_node *n = &v->graph->nodes[s.node[a]];
        slot[a] = row_view(&s, n, shape(&s, n->outputs[0])) ? -1 : p->n_nodes++;
    }
    p->n_ext = 0;
    for (int32_t a = 0; a < s.n; a++) {
        const osc_node *n = &v->graph->nodes[s.node[a]];
        f->absorbed[f->n_absorbed++] = s.node[a];
        if (slot[a] < 0) continue;
        osc_ft_node *nd = &p->nodes[slot[a]];
        const osc_tensor *out = shape(&s, n->outputs[0]);
        nd->node = *n;
        nd->n_in = n->n_inputs;
        nd->alias = -1;
        nd->gather = osc_fuse_has(n, OSC_KT_GATHER);
        nd->by = nd->gather ? gather_by(&s, n->inputs[1], shape(&s, n->inputs[0])->dims[0])
                            : OSC_FT_BY_INPUT;
        if (nd->by == OSC_FT_BY_SRC && !p->need_src) {
            p->need_src = true;
            per_edge += sizeof(int64_t);
        }
        nd->once = osc_fuse_has(n, OSC_KT_EXPAND);
        for (int32_t j = 0; j < n->n_inputs; j++)
            if (nd->by && j == 1) { /* the index: the tile's */
                nd->in[1] = (osc_ft_ref){OSC_FT_NONE, 0};
            } else if (nd->once && j == 1) { /* the shape, with a tile's rows at run time */
                nd->in[1] = (osc_ft_ref){OSC_FT_NONE, 0};
                nd->shape_rank = out->rank;
                memcpy(nd->shape, shape_values(&s, n->inputs[1], out->rank),
                       (size_t)out->rank * sizeof nd->shape[0]);
            } else if (!ref_of(&s, slot, p, f, n->inputs[j], s.rows[a] >> j & 1u, &nd->in[j])) {
                return false;
            }
        osc_ft_value *sv = &p->slots[slot[a]];
        sv->dtype = out->dtype;
        sv->rank = out->rank;
        memcpy(sv->dims, out->dims, (size_t)out->rank * sizeof out->dims[0]);
        sv->row = true;
        sv->row_bytes = row_bytes(out);
        per_edge += sv->row_bytes;
#if OSC_OP_MatMul || OSC_OP_Gemm /* (else no model holding one loads: no kernel to link) */
        if (osc_fuse_has(n, OSC_KT_PRODUCT)) {
            const osc_tensor *a0 = shape(&s, n->inputs[0]);
            const size_t pb = osc_gemm_pack_bytes(dtype, out->dims[out->rank - 1],
                                                  a0->dims[a0->rank - 1]);
            if (pb > p->pack_bytes) p->pack_bytes = (pb + 63) / 64 * 64;
        }
#endif
        if (n->outputs[0] == upd) p->updates = slot[a];
    }
    if (p->n_nodes == 0) return false;
    for (int32_t i = 0; i < p->n_nodes; i++) { /* Relus fused into the products before them */
        osc_ft_node *nd = &p->nodes[i];
        if (!osc_fuse_has(&nd->node, OSC_KT_RELU) || nd->in[0].kind != OSC_FT_SLOT) continue;
        const int32_t j = nd->in[0].at;
        const osc_node *pn = &p->nodes[j].node;
        if (j == p->updates || !osc_fuse_has(pn, OSC_KT_PRODUCT) ||
            slot_readers(p, j) != 1)
            continue;
        /* the product's parameters, with Relu as its epilogue */
        const osc_product_params *pp = pn->params;
        osc_product_params *q = osc_kparams(k, pp->size);
        if (!q) return false;
        memcpy(q, pp, pp->size);
        q->relu = true;
        p->nodes[j].node.params = q;
        nd->alias = j;
        per_edge -= p->slots[i].row_bytes;
    }
    for (int32_t x = 0; x < p->n_ext; x++) per_edge += p->ext[x].row_bytes;
    symbol_input(v, p, f, w->dst_rows);
    p->tile = (int64_t)(OSC_FT_TILE_BYTES / per_edge);
    if (p->tile < 1) p->tile = 1;
    if (!OSC_DIM_IS_SYM(r.E) && p->tile > r.E) p->tile = r.E;
    return true;
}

/* The first input of f with a dim of size d: its slot in *j, the dim in *e. */
static bool input_with(const osc_fuse_view *v, const osc_fusion *f, int64_t d, int32_t *j,
                       int32_t *e) {
    for (*j = 0; *j < f->n_inputs; ++*j) {
        const osc_tensor *t = osc_fuse_sym_shape(v, f->inputs[*j]);
        for (*e = 0; t && *e < t->rank; ++*e)
            if (t->dims[*e] == d) return true;
    }
    return false;
}

/* Symbol d bound in b (added when new): read from the first input of f holding it, else as the
 * sum the symbolic pass found for it over graph inputs' dims (E + N after self loops), each
 * term's symbol read from an input of f holding it; false when d is unknown (-1), neither way
 * reads it or b is full. */
static bool bind_dim(const osc_fuse_view *v, const osc_fusion *f, osc_sym_binds *b, int64_t d) {
    if (!OSC_DIM_IS_SYM(d)) return d >= 0;
    for (int32_t i = 0; i < b->n; i++)
        if (b->at[i].code == d) return true;
    if (b->n == OSC_SYM_MAX) return false;
    osc_sym_bind *x = &b->at[b->n];
    *x = (osc_sym_bind){.code = d, .n_terms = 1, .coef = {1}};
    if (input_with(v, f, d, &x->input[0], &x->dim[0])) {
        b->n++;
        return true;
    }
    const int64_t s = -2 - d; /* (OSC_SYM_DIM's inverse) */
    const osc_sym_expr *ex = v->sym && s < v->sym->n_syms ? &v->sym->expr[s] : NULL;
    if (!ex || !ex->n_terms) return false;
    *x = (osc_sym_bind){.code = d, .add = ex->add, .n_terms = ex->n_terms};
    for (int32_t t = 0; t < ex->n_terms; t++) {
        const osc_tensor *g = osc_fuse_sym_shape(v, ex->value[t]);
        const int64_t td = g && ex->dim[t] < g->rank ? g->dims[ex->dim[t]] : -1;
        x->coef[t] = ex->coef[t];
        if (!OSC_DIM_IS_SYM(td) || td == d || !input_with(v, f, td, &x->input[t], &x->dim[t]))
            return false;
    }
    b->n++;
    return true;
}

bool osc_fuse_bind_dims(const osc_fuse_view *v, const osc_fusion *f, osc_sym_binds *b,
                        const int64_t *dims, int32_t rank) {
    bool ok = true;
    for (int32_t d = 0; ok && d < rank; d++) ok = bind_dim(v, f, b, dims[d]);
    return ok;
}

bool osc_fuse_region_syms(const osc_fuse_view *v, const osc_fusion *f, const osc_sym_binds *fs,
                          osc_ft_params *p) {
    p->syms = *fs;
    bool ok = true;
    for (int32_t i = 0; ok && i < p->n_nodes; i++)
        ok = osc_fuse_bind_dims(v, f, &p->syms, p->slots[i].dims, p->slots[i].rank) &&
             osc_fuse_bind_dims(v, f, &p->syms, p->nodes[i].shape,
                       p->nodes[i].once ? p->nodes[i].shape_rank : 0);
    for (int32_t x = 0; ok && x < p->n_ext; x++)
        ok = osc_fuse_bind_dims(v, f, &p->syms, p->ext[x].dims, p->ext[x].rank) &&
             osc_fuse_bind_dims(v, f, &p->syms, p->ext[x].src_dims, p->ext[x].src_rank);
    return ok;
}
