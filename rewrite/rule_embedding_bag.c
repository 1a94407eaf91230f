/* rule_embedding_bag.c: rule embedding_bag (anchor Loop): the Loop torch's exporter writes for
 * nn.EmbeddingBag(mode = sum, mean or max) with offsets becomes SegmentReduce (ops/fused/fused.h).
 * The Loop runs M iterations with no loop-carried value and a condition that stays true; its
 * body, at iteration i, reduces the rows of weight W at a slice of indices X:
 *
 *     s = Unsqueeze(Gather(S, i)), e = Unsqueeze(Gather(E, i))      (S, E: vectors around it)
 *     out = Reduce{Sum,Mean,Max}(Gather(W, Slice(X, s, e, axes [0], steps [1])), axes [0],
 *                               keepdims 0)
 *
 * and its one scan output stacks them. The fused node reads M, S, E, X and W and reduces each
 * bag as the Loop does (fused_bag.c). The matcher reads the body's nodes by their traits and
 * parameters and, where a shape decides (an Unsqueeze giving [1], the Reduce's axes), asks the
 * node's own infer; the condition is evaluated by its node's own kernel. */
#include <string.h>

#include "ops/gather/gather.h"
#include "ops/reduce/reduce_ops.h"
#include "rewrite.h"

typedef struct cap {
    osc_fusion f;
    osc_seg_params p;
} cap;

/* The value around body g that body value id reads (one of its captures), or -1. */
static int32_t outer_of(const osc_graph *g, int32_t id) {
    const int32_t first = g->n_inputs - g->n_captures;
    for (int32_t i = first; id >= 0 && i < g->n_inputs; i++)
        if (g->inputs[i] == id) return g->capture_outer[i - first];
    return -1;
}

/* The node of body g computing value id when it runs (NULL: an input, a constant, folded). */
static const osc_node *producer(const osc_graph *g, int32_t id) {
    const int32_t i = id >= 0 ? g->values[id].producer : -1;
    return i >= 0 && !g->nodes[i].folded ? &g->nodes[i] : NULL;
}

/* Body value id as a constant: the body's own (folded, an initializer), or a constant of the
 * graph around it that it reads. NULL when it is none. */
static const osc_tensor *constant(const osc_fuse_view *v, const osc_graph *g, int32_t id) {
    if (id < 0) return NULL;
    if (g->values[id].init && !g->values[id].is_input) return g->values[id].init;
    const int32_t o = outer_of(g, id);
    return o >= 0 && v->shaped[o] && v->vals[o].data ? &v->vals[o] : NULL;
}

/* Whether t is a constant int64 vector of values vals[0..n-1] (a Slice's axes and steps are
 * vectors: a scalar fails the Slice). */
static bool ints_are(const osc_tensor *t, const int64_t *vals, int64_t n) {
    const int64_t *p = osc_fuse_ints(t, n);
    return p && !memcmp(p, vals, (size_t)n * sizeof *vals);
}

/* Whether body input id takes a scalar of dtype as the Loop binds it (its declaration, or its
 * initializer's dtype, allows one: runtime/bindings.c checks both at every iteration). */
static bool binds_scalar(const osc_graph *g, int32_t id, int32_t dtype) {
    const osc_value *val = &g->values[id];
    const int32_t want = val->decl.dtype ? val->decl.dtype : val->init ? val->init->dtype : 0;
    return (!want || want == dtype) && val->decl.rank <= 0;
}

/* Runs body node n's infer (and with `out->data` set, its run) on in0 and its other inputs,
 * which must be constants; false when they are not or it fails (the error is dropped). */
static bool node_eval(osc_kctx *k, const osc_fuse_view *v, const osc_graph *g,
                      const osc_node *n, const osc_tensor *in0, osc_tensor *out) {
    const osc_tensor *ins[OSC_FUSE_MAX_IN];
    if (n->n_inputs < 1 || n->n_inputs > OSC_FUSE_MAX_IN || n->n_outputs != 1) return false;
    ins[0] = in0;
    for (int32_t j = 1; j < n->n_inputs; j++)
        if (n->inputs[j] >= 0 && !(ins[j] = constant(v, g, n->inputs[j]))) return false;
        else if (n->inputs[j] < 0) ins[j] = NULL;
    osc_err err = {0};
    osc_kctx sub = {.err = &err, .graph = g, .node = n, .row = n->kernel,
                    .since_version = n->kernel->since, .params = n->params, .alloc = k->alloc,
                    .pool = k->pool, .strict = k->strict, .max_iterations = 1};
    void *data = out->data;
    const size_t nbytes = out->nbytes;
    if (n->kernel->infer(&sub, ins, n->n_inputs, out, 1)) return false;
    if (!data) return true;
    out->data = data;
    out->nbytes = nbytes;
    return osc_tensor_count(out) == 1 && out->dtype == OSC_BOOL &&
           !n->kernel->run(&sub, ins, n->n_inputs, out, 1);
}

/* Whether body value id is true at every iteration: the condition passed through (when the
 * Loop's is a constant true), or a constant true, or a node of constants computing true
 * (*extra: that node, one more the body runs). */
static bool always_true(osc_kctx *k, const osc_fuse_view *v, const osc_graph *g, int32_t id,
                        const osc_node **extra) {
    const osc_node *n = producer(g, id);
    const osc_tensor *c = n ? NULL : constant(v, g, id);
    if (id == g->inputs[1]) return true;
    if (c) return c->dtype == OSC_BOOL && osc_tensor_count(c) == 1 && *(const uint8_t *)c->data;
    if (!n || !(c = constant(v, g, n->inputs[0]))) return false;
    uint8_t b = 0;
    osc_tensor out = {.data = &b, .nbytes = 1};
    *extra = n;
    return node_eval(k, v, g, n, c, &out) && b;
}

/* Body value id as Unsqueeze(Gather(V, i)) of a vector V around the loop at iteration i (axis
 * 0), the Unsqueeze giving [1]: V's id around it, or -1. nodes[] gets the two. */
static int32_t bag_bound(osc_kctx *k, const osc_fuse_view *v, const osc_graph *g, int32_t id,
                         const osc_node **nodes) {
    const osc_node *u = producer(g, id), *ga = u ? producer(g, u->inputs[0]) : NULL;
    if (!osc_fuse_has(u, OSC_KT_SAME_ELEMENTS) || !osc_fuse_has(ga, OSC_KT_GATHER) ||
        ga->n_inputs != 2 || ga->inputs[1] != g->inputs[0] ||
        ((const osc_gather_params *)ga->params)->axis != 0)
        return -1;
    const int32_t s = outer_of(g, ga->inputs[0]);
    const osc_tensor *st = osc_fuse_sym_shape(v, s);
    int64_t i0 = 0;
    const osc_tensor scalar = {.dtype = OSC_INT64, .rank = 0, .data = &i0, .nbytes = sizeof i0};
    osc_tensor o = {0};
    if (!st || st->rank != 1 || st->dtype != OSC_INT64 || !node_eval(k, v, g, u, &scalar, &o) ||
        o.rank != 1 || o.dims[0] != 1)
        return -1;
    nodes[0] = ga;
    nodes[1] = u;
    return s;
}

bool osc_rw_embedding_bag_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    cap *cp = c;
    const osc_node *n = &v->graph->nodes[node];
    const osc_attr *at = osc_node_attr(n, "body");
    const osc_graph *g = at && at->type == OSC_ATTR_GRAPH ? at->g : NULL;
    const int32_t named = n->n_inputs - n->n_implicit; /* (a trailing omitted cond: 1) */
    if (!g || named < 1 || named > 2 || n->n_outputs != 1 || g->n_outputs != 2 ||
        g->n_inputs < 2)
        return false; /* not the pattern's start: one scan output, no carried value */
    if (!binds_scalar(g, g->inputs[0], OSC_INT64) || !binds_scalar(g, g->inputs[1], OSC_BOOL))
        return osc_rw_no(v, "the body declares its iteration number or its condition otherwise "
                         "than an int64 or a bool scalar (the Loop refuses to bind them)");
    const int32_t scan = g->outputs[1];
    const osc_node *red = producer(g, scan);
    if (!osc_fuse_has(red, OSC_KT_REDUCE)) return false;
    const osc_reduce_params *rp = red->params;
    if (rp->red != OSC_REDUCE_SUM && rp->red != OSC_REDUCE_MEAN && rp->red != OSC_REDUCE_MAX)
        return osc_rw_no(v, "the body's reduction is %s: the rule takes ReduceSum, ReduceMean "
                         "and ReduceMax", red->op_type);
    const osc_node *ga = producer(g, red->inputs[0]);
    const osc_node *sl = ga ? producer(g, ga->inputs[1]) : NULL;
    if (!osc_fuse_has(ga, OSC_KT_GATHER) || ga->n_inputs != 2 ||
        ((const osc_gather_params *)ga->params)->axis != 0 || !osc_fuse_has(sl, OSC_KT_SLICE))
        return osc_rw_no(v, "the body does not reduce a Gather along axis 0 of a Slice");
    const int32_t w = outer_of(g, ga->inputs[0]), x = outer_of(g, sl->inputs[0]);
    const osc_tensor *wt = osc_fuse_sym_shape(v, w), *xt = osc_fuse_sym_shape(v, x);
    if (!wt || !xt || wt->rank < 1 || xt->rank != 1 ||
        (xt->dtype != OSC_INT64 && xt->dtype != OSC_INT32))
        return osc_rw_no(v, "the gathered table and the sliced indices are not values around "
                         "the loop of known shapes (a table, a vector of int32 or int64)");
    if (!(osc_kernel_types(red->kernel, 0) & OSC_TS(wt->dtype)))
        return osc_rw_no(v, "the table is %s, which %s does not take",
                         osc_dtype_get(wt->dtype)->name, red->op_type);
    /* the Reduce's own infer on [rows, dims...] with rows above every other dim: axes [0],
     * keepdims 0 leave exactly the other dims */
    osc_tensor probe = *wt, o = {0};
    probe.data = NULL;
    probe.dims[0] = 1;
    for (int32_t d = 1; d < wt->rank; d++) {
        if (wt->dims[d] < 0) return osc_rw_no(v, "the table's rows have a symbolic size");
        if (wt->dims[d] >= probe.dims[0]) probe.dims[0] = wt->dims[d] + 1;
    }
    if (!node_eval(k, v, g, red, &probe, &o) || o.rank != wt->rank - 1 ||
        memcmp(o.dims, wt->dims + 1, (size_t)o.rank * sizeof o.dims[0]) != 0)
        return osc_rw_no(v, "%s does not reduce axis 0 alone without keeping it",
                         red->op_type);
    const int64_t zero = 0, minus = -1, one = 1;
    if (sl->n_inputs < 3 ||
        (sl->n_inputs > 3 && sl->inputs[3] >= 0 &&
         !ints_are(constant(v, g, sl->inputs[3]), &zero, 1) &&
         !ints_are(constant(v, g, sl->inputs[3]), &minus, 1)) ||
        (sl->n_inputs > 4 && sl->inputs[4] >= 0 &&
         !ints_are(constant(v, g, sl->inputs[4]), &one, 1)))
        return osc_rw_no(v, "the Slice of the indices is not along axis 0 with step 1 (int64 "
                         "constants)");
    const osc_node *body[8] = {red, ga, sl};
    int32_t nb = 3;
    const int32_t s = bag_bound(k, v, g, sl->inputs[1], body + nb);
    nb += 2;
    const int32_t e = s < 0 ? -1 : bag_bound(k, v, g, sl->inputs[2], body + nb);
    nb += 2;
    if (e < 0)
        return osc_rw_no(v, "the Slice's starts and ends are not [S[i]] and [E[i]] (Unsqueeze "
                         "of a Gather at the iteration number of an int64 vector around it)");
    const int32_t ci = named > 1 ? n->inputs[1] : -1; /* the condition: none is true */
    const osc_tensor *cond = ci >= 0 ? osc_fuse_sym_shape(v, ci) : NULL;
    if (n->inputs[0] < 0 ||
        (ci >= 0 && (!cond || !cond->data || osc_tensor_count(cond) != 1 ||
                     !*(const uint8_t *)cond->data)) ||
        !always_true(k, v, g, g->outputs[0], &body[nb]))
        return osc_rw_no(v, "the loop has no trip count, or its condition is not always true");
    nb += body[nb] != NULL;
    int32_t runs = 0;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        if (g->nodes[i].n_fused) return osc_rw_no(v, "the body was rewritten itself");
        runs += !g->nodes[i].folded;
    }
    for (int32_t i = 0; i < nb; i++)
        for (int32_t j = 0; j < i; j++)
            if (body[i] == body[j]) return osc_rw_no(v, "the body's nodes are shared");
    if (runs != nb)
        return osc_rw_no(v, "the body runs %d nodes; the pattern has %d", (int)runs, (int)nb);
    /* the Loop's result for no iteration: what the body declares (loop.c) */
    const osc_type *decl = &g->values[scan].decl;
    osc_seg_params *p = &cp->p;
    p->red = rp->red;
    p->scan_name = g->values[scan].name;
    p->empty_rank = -1;
    if (decl->dtype && decl->rank >= 0 && decl->rank < OSC_MAX_RANK) {
        if (decl->dtype != wt->dtype || decl->rank != wt->rank - 1)
            return osc_rw_no(v, "the body declares its scan output '%s' with another dtype or "
                             "rank than the table's rows", p->scan_name);
        p->empty_rank = decl->rank;
        for (int32_t d = 0; d < decl->rank; d++)
            p->empty_dims[d] = decl->dims[d] > 0 ? decl->dims[d] : 0;
    }
    osc_fusion *f = &cp->f;
    f->n_inputs = 5;
    f->inputs[0] = n->inputs[0];
    f->inputs[1] = s;
    f->inputs[2] = e;
    f->inputs[3] = x;
    f->inputs[4] = w;
    return true;
}

bool osc_rw_embedding_bag_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                  const void *c, osc_fusion *f) {
    (void)v, (void)node;
    const cap *cp = c;
    return osc_rw_emit(k, &cp->f, &cp->p, sizeof cp->p, "SegmentReduce", f);
}
