/* detect_common.h: what RoiAlign and NonMaxSuppression share: a float element of any float dtype
 * as a double. Internal to ops/detect/. */
#ifndef OSC_DETECT_COMMON_H
#define OSC_DETECT_COMMON_H

#include "core/dtype.h"
#include "core/kattr.h"
#include "ops/shape/shape_ops.h"

/* Element i of t (float, double, float16 or bfloat16) as a double. */
static inline double osc_det_get(const osc_tensor *t, int64_t i) {
    switch (t->dtype) {
    case OSC_FLOAT: return ((const float *)t->data)[i];
    case OSC_DOUBLE: return ((const double *)t->data)[i];
    case OSC_FLOAT16: return osc_f16_to_f32(((const uint16_t *)t->data)[i]);
    default: return osc_bf16_to_f32(((const uint16_t *)t->data)[i]);
    }
}

/* Stores v into element i of t, rounded once to t's dtype. */
static inline void osc_det_put(osc_tensor *t, int64_t i, double v) {
    switch (t->dtype) {
    case OSC_FLOAT: ((float *)t->data)[i] = (float)v; break;
    case OSC_DOUBLE: ((double *)t->data)[i] = v; break;
    case OSC_FLOAT16: ((uint16_t *)t->data)[i] = osc_f32_to_f16((float)v); break;
    default: ((uint16_t *)t->data)[i] = osc_f32_to_bf16((float)v); break;
    }
}

/* Run time: an output 0 exactly `want` (dtype, shape) whose buffer holds it. */
static inline osc_status osc_det_check_out(osc_kctx *k, const osc_tensor *out, int32_t n_out,
                                           const osc_tensor *want) {
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "no output 0; allowed: exactly 1 output");
    return osc_sh_check_out(k, 0, out, want);
}

#endif
