/* resize_common.c: element access and attribute helpers of the resampling kernels. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops/norm/norm_common.h"
#include "resize_common.h"

bool osc_rz_real(int32_t dtype) {
    switch (dtype) {
#define CASE(E, T, C) case E:
        OSC_REAL_TYPES(CASE)
#undef CASE
        return true;
    default: return false;
    }
}

double osc_rz_get(const osc_tensor *t, int64_t i) {
    switch (t->dtype) {
#define CASE(E, T, C) \
    case E: return (double)((const T *)t->data)[i];
        OSC_INT_TYPES(CASE)
#undef CASE
    default: return osc_nc_get(t, i);
    }
}

/* v truncated toward zero and clamped to [lo, hi] (NaN: 0) */
static double trunc_clamp(double v, double lo, double hi) {
    if (isnan(v)) return 0;
    v = trunc(v);
    return v < lo ? lo : v > hi ? hi : v;
}

void osc_rz_set(osc_tensor *t, int64_t i, double v) {
    switch (t->dtype) {
    case OSC_INT8: ((int8_t *)t->data)[i] = (int8_t)trunc_clamp(v, INT8_MIN, INT8_MAX); break;
    case OSC_INT16: ((int16_t *)t->data)[i] = (int16_t)trunc_clamp(v, INT16_MIN, INT16_MAX); break;
    case OSC_INT32: ((int32_t *)t->data)[i] = (int32_t)trunc_clamp(v, INT32_MIN, INT32_MAX); break;
    case OSC_INT64: /* 2^63 is not an int64: the largest double below it */
        ((int64_t *)t->data)[i] = (int64_t)trunc_clamp(v, -0x1p63, 0x1.fffffffffffffp62);
        break;
    case OSC_UINT8: ((uint8_t *)t->data)[i] = (uint8_t)trunc_clamp(v, 0, UINT8_MAX); break;
    case OSC_UINT16: ((uint16_t *)t->data)[i] = (uint16_t)trunc_clamp(v, 0, UINT16_MAX); break;
    case OSC_UINT32: ((uint32_t *)t->data)[i] = (uint32_t)trunc_clamp(v, 0, UINT32_MAX); break;
    case OSC_UINT64:
        ((uint64_t *)t->data)[i] = (uint64_t)trunc_clamp(v, 0, 0x1.fffffffffffffp63);
        break;
    default: osc_nc_set(t, i, v); break;
    }
}

osc_status osc_rz_attr_enum(osc_kctx *k, const osc_node *node, const char *name,
                            const char *def, const char *const *names, int32_t *out) {
    const char *s;
    osc_status st = osc_attr_str(k, node, name, def, &s);
    if (st) return st;
    char allowed[256] = "";
    for (int32_t i = 0; names[i]; i++) {
        if (!strcmp(s, names[i])) {
            *out = i;
            return OSC_OK;
        }
        size_t n = strlen(allowed);
        snprintf(allowed + n, sizeof allowed - n, "%s'%s'", i ? ", " : "", names[i]);
    }
    return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' = '%s'; allowed: %s", name, s, allowed);
}

osc_status osc_rz_bytes8(osc_kctx *k, int64_t count, const char *what, size_t *bytes) {
    if (count < 0 || (uint64_t)count > SIZE_MAX / sizeof(double))
        return osc_kfail(k, OSC_ERR_LIMIT, "%s: %lld values of 8 bytes do not fit this machine's "
                         "address space", what, (long long)count);
    *bytes = (size_t)count * sizeof(double);
    return OSC_OK;
}
