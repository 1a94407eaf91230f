/* fused_shape.c: ShapeOf (fused.h): a Shape node's values read from the graph inputs that hold
 * its symbols. */
#include <string.h>

#include "core/dtype.h"
#include "fused.h"

OSC_KERNEL_DECLARE(osc_shape_of)

osc_status osc_shape_of_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *out, int32_t n_out) {
    const osc_shape_of_params *p = k->params;
    int64_t v[OSC_SYM_MAX];
    osc_status st = osc_sym_resolve(k, &p->syms, in, n_in, v);
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    memset(out, 0, sizeof *out);
    out->dtype = OSC_INT64;
    out->rank = p->rank;
    out->dims[0] = p->n; /* (rank 0: unused) */
    return OSC_OK;
}

osc_status osc_shape_of_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, int32_t n_out) {
    const osc_shape_of_params *p = k->params;
    int64_t v[OSC_SYM_MAX], dims[OSC_FUSED_MAX_RANK];
    osc_status st = osc_sym_resolve(k, &p->syms, in, n_in, v);
    if (st) return st;
    if (n_out < 1 || !out || out->dtype != OSC_INT64 || out->nbytes < (size_t)p->n * 8)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 cannot hold %d int64 values", (int)p->n);
    memcpy(dims, p->dims, (size_t)p->n * sizeof dims[0]);
    osc_sym_subst(&p->syms, v, dims, p->n);
    memcpy(out->data, dims, (size_t)p->n * sizeof dims[0]);
    return OSC_OK;
}
