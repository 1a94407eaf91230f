/* norm_common.c: element access and output checks the normalisation kernels share. */
#include "norm_common.h"

#include <string.h>

#include "ops/elementwise/minifloat.h"

double osc_nc_get(const osc_tensor *t, int64_t i) {
    switch (t->dtype) {
    case OSC_FLOAT: return ((const float *)t->data)[i];
    case OSC_DOUBLE: return ((const double *)t->data)[i];
    case OSC_FLOAT16:
    case OSC_BFLOAT16: return osc_mf_decode(osc_mf_get(t->dtype), ((const uint16_t *)t->data)[i]);
    default: /* the float8 kinds: one byte each (the rows admit no other dtype) */
        return osc_mf_decode(osc_mf_get(t->dtype), ((const uint8_t *)t->data)[i]);
    }
}

void osc_nc_set(osc_tensor *t, int64_t i, double v) {
    static const osc_mf_mode k_rne = {.saturate = false, .round = OSC_MF_RNE};
    switch (t->dtype) {
    case OSC_FLOAT: ((float *)t->data)[i] = (float)v; break;
    case OSC_DOUBLE: ((double *)t->data)[i] = v; break;
    case OSC_FLOAT16:
    case OSC_BFLOAT16:
        ((uint16_t *)t->data)[i] = (uint16_t)osc_mf_from_double(osc_mf_get(t->dtype), v, &k_rne);
        break;
    default: /* the float8 kinds */
        ((uint8_t *)t->data)[i] = (uint8_t)osc_mf_from_double(osc_mf_get(t->dtype), v, &k_rne);
        break;
    }
}

int64_t osc_nc_span(const osc_tensor *t, int32_t from, int32_t to) {
    int64_t n = 1;
    for (int32_t d = from; d < to; d++) n *= t->dims[d];
    return n;
}

osc_status osc_nc_check_out(osc_kctx *k, const osc_tensor *out, int32_t n_out, int32_t i,
                            const char *what, const osc_tensor *want) {
    char a[256], b[256];
    if (i >= n_out || !out)
        return osc_kfail(k, OSC_ERR_MODEL, "output %d '%s' is required but missing", (int)i, what);
    const osc_tensor *o = &out[i];
    if (o->dtype != want->dtype || o->rank != want->rank ||
        memcmp(o->dims, want->dims, (size_t)want->rank * sizeof want->dims[0]) != 0)
        return osc_kfail(k, OSC_ERR_ARG, "output %d '%s' is %s %s but the inputs give %s %s",
                         (int)i, what, osc_dtype_get(o->dtype)->name,
                         osc_shape_str(o, a, sizeof a), osc_dtype_get(want->dtype)->name,
                         osc_shape_str(want, b, sizeof b));
    return osc_check_buffer(k, "output", i, what, o);
}
