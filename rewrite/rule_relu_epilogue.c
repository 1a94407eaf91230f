/* rule_relu_epilogue.c: rule relu_epilogue (anchor: trait relu): Relu(P) where P is made by a
 * product whose parameters carry an epilogue (trait epilogue: MatMul, Gemm, Conv,
 * ConvTranspose) and read by this Relu alone, float or double: the Relu node becomes the
 * product with `relu` set in a copy of its parameters (osc_product_params), which stores
 * x < 0 ? +0 : x as each output element is made: the Relu's pass and P's buffer go, the bits a
 * separate Relu gives (NaN stays NaN, -0 stays -0). float16 and bfloat16 are left out: the
 * products round after their epilogue, and Relu of a value rounded to -0 keeps -0. */
#include "product_take.h"

bool osc_rw_relu_epilogue_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    osc_rw_product_cap *cp = c;
    const osc_node *n = &v->graph->nodes[node];
    if (n->n_inputs != 1 || n->n_outputs != 1) return false;
    const int32_t x = n->inputs[0];
    const osc_node *p = osc_fuse_node(v, osc_fuse_producer(v, x));
    if (!osc_fuse_has(p, OSC_KT_EPILOGUE) || p->n_outputs != 1) return false;
    osc_product_params *q = osc_rw_product_take(v, p, x, cp);
    if (!q) return false;
    q->relu = true;
    cp->f.n_inputs = p->n_inputs;
    memcpy(cp->f.inputs, p->inputs, (size_t)p->n_inputs * sizeof cp->f.inputs[0]);
    return true;
}

bool osc_rw_relu_epilogue_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                  const void *c, osc_fusion *f) {
    (void)v, (void)node;
    return osc_rw_product_rewrite(k, c, f);
}
