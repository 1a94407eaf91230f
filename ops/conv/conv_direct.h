/* conv_direct.h: Conv without columns (conv_direct.c), for float 2-D images on AVX-512; the
 * same bits as im2col and the product kernel. Internal to ops/conv/. */
#ifndef OSC_CONV_DIRECT_H
#define OSC_CONV_DIRECT_H

#include "conv.h"

/* True when the direct path runs g on this CPU: float, Conv (not DeformConv), two spatial
 * axes, at least 8 output channels per group, a stride of 1 or 2 along the last axis, some
 * input elements, AVX-512. */
bool osc_conv_direct_ok(const osc_conv_geom *g, int32_t dt);
/* Bytes the run shares between its threads (W packed by blocks of output channels, the
 * columns' offsets into X), and bytes each thread needs of its own for runs of at most pt
 * positions. */
size_t osc_conv_direct_shared(const osc_conv_geom *g);
size_t osc_conv_direct_scratch(const osc_conv_geom *g, int64_t pt);
/* Fills the shared bytes from W [M, C/group, kh, kw]. */
void osc_conv_direct_pack(const osc_conv_geom *g, const float *w, void *shared);
/* Y[m, p] of group grp for positions [p0, p0 + w) of one sample (the product only: no bias),
 * x at the group's first channel of the sample, y at its first channel and position p0,
 * element (m, p) at y[m * ldy + p - p0]. */
void osc_conv_direct_run(const osc_conv_geom *g, const float *x, const void *shared,
                         int64_t grp, int64_t p0, int64_t w, float *y, int64_t ldy,
                         void *scratch);

#endif
