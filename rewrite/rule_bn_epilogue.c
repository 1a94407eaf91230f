/* rule_bn_epilogue.c: rule bn_epilogue (anchor: BatchNormalization): an inference-mode
 * BatchNormalization (from version 9, training_mode 0, one output) of a float or double Conv or
 * Gemm output (traits epilogue and channel_norm) read by it alone: the normalisation's node
 * becomes the product with `bn` set in a copy of its parameters (osc_product_params) and the
 * normalisation's scale, B, mean and var as inputs 3 to 6, which normalises each output element
 * as it is made, after the bias (ops/linalg/prod_bn.h: BatchNormalization's own expression, so
 * the same bits). The normalisation's pass and the product's buffer go; a Relu after it is then
 * taken in by rule relu_epilogue, after the normalisation. */
#include <string.h>

#include "ops/linalg/prod_bn.h"
#include "rewrite.h"

typedef struct cap {
    osc_fusion f;
    unsigned char params[4096]; /* the product's, bn set */
    size_t size;
} cap;
_Static_assert(sizeof(cap) <= OSC_RW_CAP_MAX, "OSC_RW_CAP_MAX holds the capture");

bool osc_rw_bn_epilogue_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    cap *cp = c;
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
    /* the output's dtype: the weight's (input 1) when the output's shape is data-dependent */
    const osc_tensor *t = osc_fuse_sym_shape(v, x);
    if (!t) t = osc_fuse_sym_shape(v, p->inputs[1]);
    const osc_product_params *pp = p->params;
    if (v->uses[x] != 1) return osc_rw_no(v, "the product's output has other readers");
    if (!t || (t->dtype != OSC_FLOAT && t->dtype != OSC_DOUBLE))
        return osc_rw_no(v, "the product's output is not float or double (or not known)");
    if (pp->relu || pp->bn)
        return osc_rw_no(v, "the product already applies a Relu or a normalisation");
    if (pp->size > sizeof cp->params || pp->size < sizeof *pp) return false;
    memcpy(cp->params, pp, pp->size);
    osc_product_params *q = (osc_product_params *)(void *)cp->params;
    q->bn = true;
    q->bn_eps = eps;
    cp->size = pp->size;
    osc_fusion *f = &cp->f;
    f->n_inputs = OSC_PROD_BN_AT + 4;
    for (int32_t i = 0; i < OSC_PROD_BN_AT; i++) f->inputs[i] = i < p->n_inputs ? p->inputs[i] : -1;
    memcpy(f->inputs + OSC_PROD_BN_AT, n->inputs + 1, 4 * sizeof f->inputs[0]);
    return osc_fuse_absorb(f, osc_fuse_index(v, p));
}

bool osc_rw_bn_epilogue_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                const void *c, osc_fusion *f) {
    (void)v, (void)node;
    const cap *cp = c;
    if (!osc_rw_emit(k, &cp->f, cp->params, cp->size, NULL, f)) return false;
    f->takes_row = true;
    return true;
}
