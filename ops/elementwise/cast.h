/* cast.h: Cast's conversion (cast.c), which fused kernels that take in a Cast call so that
 * their bits are Cast's. */
#ifndef OSC_CAST_H
#define OSC_CAST_H

#include <stdint.h>

#include "minifloat.h"

/* Converts n elements of src (dtype from) into dst (dtype to) as Cast does: every value rounded
 * once from its exact value; mode as Cast's attributes make it (only float8 kinds read it).
 * Numeric dtypes; a packed destination (4 or 2 bits) must be zeroed first. */
void osc_cast_elems(int32_t to, void *dst, int32_t from, const void *src, int64_t n,
                    const osc_mf_mode *mode);

#endif
