/* prod_bn.h: a product's BatchNormalization epilogue (rule bn_epilogue: a Conv or Gemm output
 * read only by an inference-mode BatchNormalization becomes the product storing that
 * normalisation's values). Each output element v of channel c becomes
 * (T)(((double)v - mean[c]) * a[c] + B[c]), a[c] = scale[c] / sqrt(var[c] + epsilon) in
 * double, the expression and order of ops/norm/batchnorm.c, so the same bits; then Relu when
 * the product has one. */
#ifndef OSC_PROD_BN_H
#define OSC_PROD_BN_H

#include "core/kernel.h"
#include "ops/linalg/linalg.h"

/* The input index of the normalisation's scale (B, mean and var follow). */
#define OSC_PROD_BN_AT 3

typedef struct osc_prod_bn {
    double *m, *a, *b; /* per channel; m NULL: no normalisation */
    size_t bytes;
} osc_prod_bn;

/* When p->bn: checks inputs OSC_PROD_BN_AT.. +3 (present, a float dtype, chans elements each,
 * their buffers) and computes the channels' mean, a and B into bn (allocated from k->alloc);
 * else bn->m = NULL. Writes no output: call it before the product's first write. */
osc_status osc_prod_bn_prepare(osc_kctx *k, const osc_product_params *p,
                               const osc_tensor *const *in, int32_t n_in, int64_t chans,
                               osc_prod_bn *bn);
void osc_prod_bn_free(osc_kctx *k, osc_prod_bn *bn);

/* The normalisation of channel c, then Relu when relu, over n float or double elements at y. */
void osc_prod_bn_run(int32_t dtype, void *y, int64_t n, const osc_prod_bn *bn, int64_t c,
                     bool relu);
/* The same over the rows x cols elements at y (row pitch cols), the channel of an element its
 * column: a Gemm's output, the rows split among the session's threads. */
void osc_prod_bn_cols(osc_kctx *k, int32_t dtype, void *y, int64_t rows, int64_t cols,
                      const osc_prod_bn *bn, bool relu);

#endif
