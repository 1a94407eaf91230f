/* linalg.h: the parameters of MatMul and Gemm (matmul.c, gemm.c), which the rewrite reads and
 * copies with an epilogue (rewrite/gather_scatter.c: a Relu after a product in a tiled
 * region). */
#ifndef OSC_LINALG_H
#define OSC_LINALG_H

#include "core/kernel.h"

/* The parameters of every row with trait OSC_KT_PRODUCT begin with this. */
typedef struct osc_product_params {
    size_t size;  /* bytes of the whole parameters (the rewrite copies them) */
    bool relu;    /* float types: the output goes through Relu as it is stored */
    bool trans_a; /* A is transposed (Gemm's transA) */
    /* float types (Conv, Gemm): the output goes through BatchNormalization in inference mode
     * per output channel (Conv's dim 1, Gemm's columns) before the Relu, its scale, B, mean
     * and var the node's inputs 3 to 6 (rule bn_epilogue; ops/linalg/prod_bn.h) */
    bool bn;
    double bn_eps; /* its epsilon */
} osc_product_params;

typedef struct osc_mm_params {
    osc_product_params prod;
    osc_typeset types; /* the version's type constraint T */
} osc_mm_params;

typedef struct osc_gemm_params {
    osc_product_params prod;
    float alpha, beta;
    bool trans_b;
    bool broadcast;    /* C may broadcast (always from 7 on; the attribute before) */
    bool c_optional;   /* from 11 */
    osc_typeset types; /* the version's type constraint T */
} osc_gemm_params;

#endif
