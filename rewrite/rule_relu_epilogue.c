/* rule_relu_epilogue.c: rule relu_epilogue (anchor: trait relu): Relu(P) where P is made by a
 * product whose parameters carry an epilogue (trait epilogue: MatMul, Gemm, Conv,
 * ConvTranspose) and read by this Relu alone, float or double: the Relu node becomes the
 * product with `relu` set in a copy of its parameters (osc_product_params), which stores
 * x < 0 ? +0 : x as each output element is made: the Relu's pass and P's buffer go, the bits a
 * separate Relu gives (NaN stays NaN, -0 stays -0). float16 and bfloat16 are left out: the
 * products round after their epilogue, and Relu of a value rounded to -0 keeps -0. */
#include <string.h>

#include "ops/linalg/linalg.h"
#include "rewrite.h"

typedef struct cap {
    osc_fusion f;
    unsigned char params[4096]; /* the product's, relu set */
    size_t size;
} cap;
_Static_assert(sizeof(cap) <= OSC_RW_CAP_MAX, "OSC_RW_CAP_MAX holds the capture");

bool osc_rw_relu_epilogue_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    cap *cp = c;
    const osc_node *n = &v->graph->nodes[node];
    if (n->n_inputs != 1 || n->n_outputs != 1) return false;
    const int32_t x = n->inputs[0];
    const osc_node *p = osc_fuse_node(v, osc_fuse_producer(v, x));
    if (!osc_fuse_has(p, OSC_KT_EPILOGUE) || p->n_outputs != 1) return false;
    /* the output's dtype: the weight's (input 1) when the output's shape is data-dependent */
    const osc_tensor *t = osc_fuse_sym_shape(v, x);
    if (!t) t = osc_fuse_sym_shape(v, p->inputs[1]);
    const osc_product_params *pp = p->params;
    if (v->uses[x] != 1) return osc_rw_no(v, "the product's output has other readers");
    if (!t || (t->dtype != OSC_FLOAT && t->dtype != OSC_DOUBLE))
        return osc_rw_no(v, "the product's output is not float or double (or not known)");
    if (pp->size > sizeof cp->params || pp->size < sizeof *pp) return false;
    memcpy(cp->params, pp, pp->size);
    ((osc_product_params *)(void *)cp->params)->relu = true;
    cp->size = pp->size;
    osc_fusion *f = &cp->f;
    f->n_inputs = p->n_inputs;
    memcpy(f->inputs, p->inputs, (size_t)p->n_inputs * sizeof f->inputs[0]);
    return osc_fuse_absorb(f, osc_fuse_index(v, p));
}

bool osc_rw_relu_epilogue_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                  const void *c, osc_fusion *f) {
    (void)v, (void)node;
    const cap *cp = c;
    if (!osc_rw_emit(k, &cp->f, cp->params, cp->size, NULL, f)) return false;
    f->takes_row = true;
    return true;
}
