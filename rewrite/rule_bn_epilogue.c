/* rule_bn_epilogue.c: rule bn_epilogue (anchor: BatchNormalization): an inference-mode
 * BatchNormalization (from version 9, training_mode 0, one output) of a float or double Conv or
 * Gemm output (traits epilogue and channel_norm) read by it alone: the normalisation's node
 * becomes the product with `bn` set in a copy of its parameters (osc_product_params) and the
 * normalisation's scale, B, mean and var as inputs 3 to 6, which normalises each output element
 * as it is made, after the bias (ops/linalg/prod_bn.h: BatchNormalization's own expression, so
 * the same bits). The normalisation's pass and the product's buffer go; a Relu after it is then
 * taken in by rule relu_epilogue, after the normalisation. */
#include "ops/linalg/prod_bn.h"
#include "product_take.h"

bool osc_rw_bn_epilogue_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    osc_rw_product_cap *cp = c;
    const osc_node *n = &v->graph->nodes[node];
    int64_t training = 0;
    double eps = 0;
    if (k->since_version < 9 || n->n_inputs != 5 || n->n_outputs != 1) return false;
    if (osc_attr_int(k, n, "training_mode", 0, &training) || training != 0 ||
        osc_attr_float(k, n, "epsilon", (double)1e-5f, &eps)) /* (BatchNormalization's own) */
        return false;
    const int32_t x = n->inputs[0];
    const osc_node *p = osc_fuse_node(v, osc_fuse_producer(v, x));
    if (!osc_fuse_has(p, OSC_KT_EPILOGUE | OSC_KT_CHANNEL_NORM) || p->n_outputs != 1 ||
        p->n_inputs > OSC_PROD_BN_AT)
        return false;
    const osc_product_params *pp = p->params;
    if (v->uses[x] == 1 && (pp->relu || pp->bn))
        return osc_rw_no(v, "the product already applies a Relu or a normalisation");
    osc_product_params *q = osc_rw_product_take(v, p, x, cp);
    if (!q) return false;
    q->bn = true;
    q->bn_eps = eps;
    osc_fusion *f = &cp->f;
    f->n_inputs = OSC_PROD_BN_AT + 4;
    for (int32_t i = 0; i < OSC_PROD_BN_AT; i++) f->inputs[i] = osc_fuse_in(p, i);
    memcpy(f->inputs + OSC_PROD_BN_AT, n->inputs + 1, 4 * sizeof f->inputs[0]);
    return true;
}

bool osc_rw_bn_epilogue_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                const void *c, osc_fusion *f) {
    (void)v, (void)node;
    return osc_rw_product_rewrite(k, c, f);
}
