/* conv.h: what the convolution kernels of ops/conv/ share: the parameters init parses (a later
 * fusion rule may set the epilogue, prod.relu, as for MatMul and Gemm), the geometry validate
 * works out for run, and the column builders. Internal to ops/conv/. */
#ifndef OSC_CONV_H
#define OSC_CONV_H

#include <stdint.h>

#include "core/kattr.h"
#include "ops/linalg/linalg.h" /* osc_product_params: the epilogue */
#include "ops/linalg/prod_bn.h"
#include "ops/shape/shape_ops.h" /* osc_sh_ints */

/* .variant of the rows: which convolution */
enum { OSC_CONV_PLAIN = 0, OSC_CONV_TRANSPOSE = 1, OSC_CONV_DEFORM = 2 };

#define OSC_CONV_ND (OSC_MAX_RANK - 2) /* spatial axes at most */
/* x rounded up to a multiple of 64 (the scratch's blocks start on cache lines) */
#define OSC_CONV_R64(x) (((x) + 63) / 64 * 64)

typedef struct osc_conv_params {
    osc_product_params prod; /* prod.relu: Y = Relu(Y + B) as it is stored */
    int32_t variant, auto_pad;
    int64_t group, offset_group;
    osc_sh_ints kernel_shape, dilations, pads, strides, output_padding, output_shape;
    osc_typeset types; /* the version's type constraint T */
} osc_conv_params;

/* The geometry of one run. Conv and DeformConv: X [N, C, in...], W [M, C/group, k...],
 * Y [N, M, out...]. ConvTranspose: X [N, C, in...], W [C, M/group, k...], Y [N, M, out...],
 * the roles of in and out swapped in the column step. pad: the begin pads (ConvTranspose: may
 * be negative when output_shape asks for more than the formula gives). */
typedef struct osc_conv_geom {
    int32_t nd, variant;
    int64_t n, c, m, group, cg, mg, og; /* og: offset groups (DeformConv) */
    int64_t in[OSC_CONV_ND], out[OSC_CONV_ND], k[OSC_CONV_ND];
    int64_t dil[OSC_CONV_ND], stride[OSC_CONV_ND], pad[OSC_CONV_ND];
    int64_t in_size, out_size, k_size; /* products of in, out, k */
    bool has_b, has_mask;
} osc_conv_geom;

/* Checks the inputs against the parameters (every message names the node, the input or
 * attribute, the position, the value and the allowed range) and works out Y's dtype and shape
 * into *want and the rest into *g. Writes nothing else. */
osc_status osc_conv_validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *want, osc_conv_geom *g);

/* The columns of positions [p0, p0 + pt) of the output, for channels [c0, c0 + cg) of image
 * x (one sample, dtype dt, planes of g->in_size): row (c, kernel element) at cols[row * pt],
 * in the compute type (float for float16/bfloat16, else dt). Zeros in the padding. */
void osc_conv_im2col(const osc_conv_geom *g, int32_t dt, const void *x, int64_t p0, int64_t pt,
                     void *cols);
/* DeformConv's columns: as osc_conv_im2col for group `grp` of sample `n`, each tap moved by
 * the offsets and scaled by the mask (NULL: ones), sampled by linear interpolation along every
 * axis (a corner outside the image counts 0). */
void osc_conv_deform_cols(const osc_conv_geom *g, int32_t dt, const void *x, const void *off,
                          const void *mask, int64_t n, int64_t grp, int64_t p0, int64_t pt,
                          void *cols);
/* ConvTranspose's scatter: the columns of input positions [p0, p0 + pt), row (m, kernel
 * element) at cols[row * pt] for m < planes, added onto acc (planes of g->out_size) in
 * row-major order. */
void osc_conv_col2im(const osc_conv_geom *g, int32_t ct, const void *cols, int64_t planes,
                     int64_t p0, int64_t pt, void *acc);

/* Conv without columns (conv_direct.c), for float 2-D images on AVX-512; the same bits as
 * im2col and the product kernel. osc_conv_direct_ok: true when it runs g on this CPU (float,
 * Conv, not DeformConv, two spatial axes, at least 8 output channels per group, a stride of 1
 * or 2 along the last axis, some input elements, AVX-512). The run's bytes shared between its
 * threads (W packed by blocks of output channels, the columns' offsets into X), filled from
 * W [M, C/group, kh, kw] by osc_conv_direct_pack, and each thread's own bytes for jobs of at
 * most pt positions. osc_conv_direct_run: Y[m, p] of group grp for positions [p0, p0 + w) of
 * one sample (the product only: no bias), x at the group's first channel of the sample, y at
 * its first channel and position p0, element (m, p) at y[m * ldy + p - p0]. */
bool osc_conv_direct_ok(const osc_conv_geom *g, int32_t dt);
size_t osc_conv_direct_shared(const osc_conv_geom *g);
size_t osc_conv_direct_scratch(const osc_conv_geom *g, int64_t pt);
void osc_conv_direct_pack(const osc_conv_geom *g, const float *w, void *shared);
void osc_conv_direct_run(const osc_conv_geom *g, const float *x, const void *shared,
                         int64_t grp, int64_t p0, int64_t w, float *y, int64_t ldy,
                         void *scratch);

/* Runs of ConvTranspose (convt.c) and of Conv and DeformConv (conv_fwd.c), after validation;
 * bn: the normalisation after the bias (and before the Relu) when bn->m is not NULL. */
osc_status osc_conv_run_transpose(osc_kctx *k, const osc_tensor *const *in, osc_tensor *y,
                                  const osc_conv_geom *g);
osc_status osc_conv_run_forward(osc_kctx *k, const osc_tensor *const *in, osc_tensor *y,
                                const osc_conv_geom *g, const osc_prod_bn *bn);

#endif
