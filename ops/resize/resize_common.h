/* resize_common.h: what the resampling kernels share (ops/resize/): their parameters, the
 * reading and writing of one element of any real dtype as a double. Internal to ops/resize/. */
#ifndef OSC_RESIZE_COMMON_H
#define OSC_RESIZE_COMMON_H

#include "ops/shape/shape_ops.h"

/* The operations of the Resize rows' kernel (.variant): Resize-11 and later, Resize-10 (scales
 * only, asymmetric coordinates), Upsample-7 (scales an attribute) and Upsample-9/10 (an input).
 * They start at 1, so a row that sets none (0) is refused by init. */
enum { OSC_RZ_RESIZE = 1, OSC_RZ_RESIZE10, OSC_RZ_UPSAMPLE7, OSC_RZ_UPSAMPLE9, OSC_RZ_END };
/* GridSample's rows: 16 (4-D X only, the names bilinear and bicubic), 20 and later (N-D). */
enum { OSC_GS_16 = 1, OSC_GS_20, OSC_GS_END };

enum { OSC_RZ_NEAREST = 0, OSC_RZ_LINEAR, OSC_RZ_CUBIC };

/* True for the dtypes the interpolating modes compute on: the float and integer ones. */
bool osc_rz_real(int32_t dtype);
/* Element i of a tensor of a real dtype, as a double (an int64 past 2^53 rounded). */
double osc_rz_get(const osc_tensor *t, int64_t i);
/* Stores v into element i of a tensor of a real dtype: floats rounded once to nearest even;
 * integers truncated toward zero, as numpy's astype does, and saturated to the dtype's range
 * (NaN gives 0). */
void osc_rz_set(osc_tensor *t, int64_t i, double v);
/* Fails (OSC_ERR_MODEL) unless the STRING attribute `name` (def when absent) is one of the
 * NULL-terminated `names`; *out is its index. */
osc_status osc_rz_attr_enum(osc_kctx *k, const osc_node *node, const char *name,
                            const char *def, const char *const *names, int32_t *out);
/* Fails (OSC_ERR_LIMIT) when count values of 8 bytes (doubles, int64 indices) do not fit
 * size_t; *bytes is their size otherwise. */
osc_status osc_rz_bytes8(osc_kctx *k, int64_t count, const char *what, size_t *bytes);

#endif
