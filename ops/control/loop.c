/* loop.c: Loop-1 to 25: runs the body while the trip count M (input 0, optional) and the
 * condition (input 1, optional, then the body's output 0) allow. The N loop-carried values
 * (inputs 2..) go from one iteration's outputs 1..N to the next one's inputs 2..; the node gives
 * their last values, then the body's K scan outputs (N+1..) stacked along a new axis 0. */
#include <stdio.h>
#include <string.h>

#include "cf.h"
#include "core/kattr.h"

OSC_KERNEL_DECLARE(osc_loop)

typedef struct loop_params {
    const osc_attr *body;
    int32_t n_carried, n_scan;
} loop_params;

osc_status osc_loop_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"body", NULL};
    osc_status st = osc_attr_known(k, node, known);
    loop_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    const int32_t named = node->n_inputs - node->n_implicit;
    p->n_carried = named > 2 ? named - 2 : 0;
    p->n_scan = node->n_outputs - p->n_carried;
    if (p->n_scan < 0)
        return osc_kfail(k, OSC_ERR_MODEL, "has %d loop-carried inputs but %d outputs; it needs "
                         "one output per loop-carried value, then the scan outputs",
                         (int)p->n_carried, (int)node->n_outputs);
    st = cf_graph_attr(k, node, "body", 2 + p->n_carried, 1 + p->n_carried + p->n_scan,
                       &p->body);
    if (st) return st;
    *params = p;
    return OSC_OK;
}

/* A scan output of a loop that ran no iteration: [0] and the shape the body declares (its
 * unknown dims 0). */
static osc_status empty_scan(osc_kctx *k, const loop_params *p, cf_set *out, int32_t j) {
    const osc_graph *g = p->body->g;
    const osc_value *v = &g->values[g->outputs[1 + p->n_carried + j]];
    if (!v->decl.dtype || v->decl.rank < 0 || v->decl.rank >= OSC_MAX_RANK)
        return osc_kfail(k, OSC_ERR_SHAPE, "the loop ran no iteration, and the body does not "
                         "declare the dtype and rank of scan output '%s'", v->name);
    int64_t dims[OSC_MAX_RANK] = {0};
    for (int32_t d = 0; d < v->decl.rank; d++) dims[d + 1] = v->decl.dims[d] > 0 ? v->decl.dims[d] : 0;
    return cf_set_make(k, out, p->n_carried + j, v->decl.dtype, v->decl.rank + 1, dims);
}

/* The body's first two inputs: the iteration number and the condition. */
typedef struct loop_scalars {
    int64_t it;
    bool cond;
    osc_tensor iter_t, cond_t;
} loop_scalars;

/* The iterations, with carried values alternating between the sets cur and next. */
static osc_status iterate(osc_kctx *k, const osc_tensor *const *in, cf_set *out, cf_set *cur,
                          cf_set *next, const osc_tensor **ins, osc_tensor *res,
                          loop_scalars *sc) {
    const loop_params *p = k->params;
    const int32_t n = p->n_carried, named = k->node->n_inputs - k->node->n_implicit;
    int64_t trips = INT64_MAX, cond = 1, it = 0;
    osc_status st = OSC_OK;
    if (named > 0 && in[0]) st = cf_scalar(k, in[0], 0, "M, the trip count", OSC_INT64, &trips);
    if (!st && named > 1 && in[1]) st = cf_scalar(k, in[1], 1, "cond", OSC_BOOL, &cond);
    sc->iter_t = (osc_tensor){.dtype = OSC_INT64, .data = &sc->it, .nbytes = sizeof sc->it};
    sc->cond_t = (osc_tensor){.dtype = OSC_BOOL, .data = &sc->cond, .nbytes = sizeof sc->cond};
    ins[0] = &sc->iter_t;
    ins[1] = &sc->cond_t;
    for (int32_t i = 0; i < n; i++) ins[2 + i] = in[2 + i];
    for (; !st && it < trips && cond; it++) {
        if ((st = osc_kcancelled(k))) break;
        if (it >= k->max_iterations)
            return osc_kfail(k, OSC_ERR_LIMIT, "stopped after %lld iterations, the most one "
                             "loop may run (opts.max_iterations)", (long long)it);
        char what[64];
        snprintf(what, sizeof what, "body, iteration %lld", (long long)it);
        sc->it = it;
        sc->cond = cond != 0;
        st = k->body(k, p->body, ins, 2 + n, in, res, 1 + n + p->n_scan, what);
        if (!st) st = cf_scalar(k, &res[0], 0, "the body's output 0, cond", OSC_BOOL, &cond);
        cf_set_clear(next);
        for (int32_t i = 0; !st && i < n; i++) st = cf_set_put(k, next, i, &res[1 + i]);
        for (int32_t j = 0; !st && j < p->n_scan; j++)
            st = cf_set_append(k, out, n + j, &res[1 + n + j], what);
        cf_set *t = cur;
        cur = next;
        next = t;
        for (int32_t i = 0; i < n; i++) ins[2 + i] = &cur->t[i];
    }
    for (int32_t i = 0; !st && i < n; i++) st = cf_set_put(k, out, i, ins[2 + i]);
    for (int32_t j = 0; !st && it == 0 && j < p->n_scan; j++) st = empty_scan(k, p, out, j);
    return st;
}

static osc_status eval(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, cf_set *out,
                       int32_t n_out) {
    (void)n_in, (void)n_out;
    const loop_params *p = k->params;
    const size_t n_res = 1 + (size_t)p->n_carried + (size_t)p->n_scan;
    loop_scalars sc;
    cf_set *a = cf_set_new(k, p->n_carried), *b = a ? cf_set_new(k, p->n_carried) : NULL;
    const osc_tensor **ins = osc_calloc(k->alloc, 2 + (size_t)p->n_carried, sizeof *ins);
    osc_tensor *res = osc_calloc(k->alloc, n_res, sizeof *res);
    osc_status st = !a || !b ? k->err->status
                    : !ins || !res ? osc_kfail(k, OSC_ERR_NOMEM, "out of memory")
                                   : iterate(k, in, out, a, b, ins, res, &sc);
    osc_free(k->alloc, ins, (2 + (size_t)p->n_carried) * sizeof *ins);
    osc_free(k->alloc, res, n_res * sizeof *res);
    cf_set_free(a);
    cf_set_free(b);
    return st;
}

osc_status osc_loop_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    return cf_infer(k, in, n_in, out, n_out, eval);
}

osc_status osc_loop_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    return cf_run(k, in, n_in, out, n_out, eval);
}
