/* if.c: If-1 to 25: runs the branch the condition names; its outputs are the node's. The
 * branches may give outputs of other shapes (a shape known only once it ran: cf.h). */
#include "cf.h"
#include "core/kattr.h"

OSC_KERNEL_DECLARE(osc_if)

typedef struct if_params {
    const osc_attr *then_branch, *else_branch;
} if_params;

osc_status osc_if_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"then_branch", "else_branch", NULL};
    osc_status st = osc_attr_known(k, node, known);
    if_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    if ((st = cf_graph_attr(k, node, "then_branch", 0, node->n_outputs, &p->then_branch)) ||
        (st = cf_graph_attr(k, node, "else_branch", 0, node->n_outputs, &p->else_branch)))
        return st;
    *params = p;
    return OSC_OK;
}

static osc_status eval(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, cf_set *out,
                       int32_t n_out) {
    (void)n_in;
    const if_params *p = k->params;
    int64_t cond;
    osc_status st = cf_scalar(k, in[0], 0, "cond", OSC_BOOL, &cond);
    osc_tensor *res = st ? NULL : osc_calloc(k->alloc, (size_t)n_out + 1, sizeof *res);
    if (st) return st;
    if (!res) return osc_kfail(k, OSC_ERR_NOMEM, "out of memory");
    st = k->body(k, cond ? p->then_branch : p->else_branch, NULL, 0, in, res, n_out,
                 cond ? "then_branch" : "else_branch");
    for (int32_t j = 0; !st && j < n_out; j++) st = cf_set_put(k, out, j, &res[j]);
    osc_free(k->alloc, res, ((size_t)n_out + 1) * sizeof *res);
    return st;
}

osc_status osc_if_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    return cf_infer(k, in, n_in, out, n_out, eval);
}

osc_status osc_if_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                      int32_t n_out) {
    return cf_run(k, in, n_in, out, n_out, eval);
}
