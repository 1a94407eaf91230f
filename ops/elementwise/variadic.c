/* variadic.c: init and the input checks of the variadic elementwise ops (Min, Max, Sum, Mean). */
#include "variadic.h"

#include <stdio.h>
#include <string.h>

osc_status osc_variadic_init(osc_kctx *k, const osc_node *node, int32_t first, int32_t end,
                             void **params) {
    static const char *const k_none[] = {NULL};
    const int32_t op = k->row->variant;
    if (op < first || op >= end)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "the row names no %s operation (variant %d)",
                         k->row->op, (int)op);
    osc_status st = osc_attr_known_legacy(k, node, k_none, k->since_version == 1);
    if (st) return st;
    osc_variadic_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->op = op;
    p->broadcast = k->since_version >= 8;
    p->types = osc_kernel_types(k->row, 0);
    *params = p;
    return OSC_OK;
}

osc_status osc_variadic_shape(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *want) {
    const osc_variadic_params *p = k->params;
    char name[32], a[256], b[256];
    if (n_in < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs at least one input; it has none");
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < n_in && !st; i++) {
        snprintf(name, sizeof name, "data_%d", (int)i);
        st = osc_need_input(k, in, n_in, i, name);
        if (!st && i == 0)
            st = osc_ew_check_type(k, 0, name, in[0], p->types);
        if (!st && i > 0) st = osc_check_same_dtype(k, 0, "data_0", in[0], i, name, in[i]);
    }
    if (st) return st;
    memset(want, 0, sizeof *want);
    osc_same_shape(want, in[0]);
    for (int32_t i = 1; i < n_in; i++) {
        snprintf(name, sizeof name, "data_%d", (int)i);
        if (!p->broadcast) { /* versions before 8: no broadcasting */
            if (in[i]->rank != want->rank ||
                memcmp(in[i]->dims, want->dims, (size_t)want->rank * sizeof want->dims[0]))
                return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s but input 0 "
                                 "'data_0' (%s) has shape %s; this version needs equal shapes "
                                 "(broadcasting starts at opset 8)", (int)i, name,
                                 osc_kinput_name(k, i), osc_shape_str(in[i], a, sizeof a),
                                 osc_kinput_name(k, 0), osc_shape_str(in[0], b, sizeof b));
            continue;
        }
        st = osc_bcast_merge(k, want, i, name, in[i]);
        if (st) return st;
    }
    return OSC_OK;
}
