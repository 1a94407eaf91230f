/* ew_common.c: the input/output checks the elementwise kernels share. */
#include "ew_common.h"

#include <stdio.h>
#include <string.h>

osc_status osc_ew_check_type(osc_kctx *k, int32_t i, const char *what, const osc_tensor *t,
                             osc_typeset types) {
    if (t->dtype > 0 && t->dtype < 64 && (types & OSC_TS(t->dtype))) return OSC_OK;
    char list[400] = "";
    size_t p = 0;
    for (int32_t d = 1; d < OSC_DTYPE_COUNT && p < sizeof list; d++)
        if (types & OSC_TS(d))
            p += (size_t)snprintf(list + p, sizeof list - p, "%s%s", p ? ", " : "",
                                  osc_dtype_get(d)->name);
    return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input %d '%s' (%s) has dtype %s; this op version "
                     "accepts: %s", i, what, osc_kinput_name(k, i),
                     osc_dtype_get(t->dtype)->name, list[0] ? list : "(none)");
}

osc_status osc_ew_check_io(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           const char *const *what, const osc_tensor *out, int32_t n_out,
                           const osc_tensor *want) {
    char a[256], b[256];
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    if (out->dtype != want->dtype || out->rank != want->rank ||
        memcmp(out->dims, want->dims, (size_t)want->rank * sizeof want->dims[0]) != 0)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 is %s %s but the inputs give %s %s",
                         osc_dtype_get(out->dtype)->name, osc_shape_str(out, a, sizeof a),
                         osc_dtype_get(want->dtype)->name, osc_shape_str(want, b, sizeof b));
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < n_in && !st; i++) {
        char name[32];
        if (!what) snprintf(name, sizeof name, "data_%d", (int)i);
        st = osc_check_buffer(k, "input", i, what ? what[i] : name, in[i]);
    }
    if (!st) st = osc_check_buffer(k, "output", 0, "output", out);
    return st;
}
