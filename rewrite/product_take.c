/* product_take.c: what the rules that make a product take in its reader share (product_take.h). */
#include <string.h>

#include "product_take.h"

osc_product_params *osc_rw_product_take(const osc_fuse_view *v, const osc_node *p, int32_t x,
                                        osc_rw_product_cap *cp) {
    /* the output's dtype: the weight's (input 1) when the output's shape is data-dependent */
    const osc_tensor *t = osc_fuse_sym_shape(v, x);
    if (!t) t = osc_fuse_sym_shape(v, p->inputs[1]);
    const osc_product_params *pp = p->params;
    if (v->uses[x] != 1) return osc_rw_no(v, "the product's output has other readers"), NULL;
    if (!t || (t->dtype != OSC_FLOAT && t->dtype != OSC_DOUBLE))
        return osc_rw_no(v, "the product's output is not float or double (or not known)"), NULL;
    if (pp->size > sizeof cp->params || pp->size < sizeof *pp ||
        !osc_fuse_absorb(&cp->f, osc_fuse_index(v, p)))
        return NULL;
    memcpy(cp->params, pp, pp->size);
    cp->size = pp->size;
    return (osc_product_params *)(void *)cp->params;
}

bool osc_rw_product_rewrite(osc_kctx *k, const osc_rw_product_cap *cp, osc_fusion *f) {
    if (!osc_rw_emit(k, &cp->f, cp->params, cp->size, NULL, f)) return false;
    f->takes_row = true;
    return true;
}
