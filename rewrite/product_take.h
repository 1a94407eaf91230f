/* product_take.h: what the rules that make a product (trait epilogue) take in the node reading
 * it share (relu_epilogue, bn_epilogue): their capture, the checks on the product, and the
 * rewrite, by which the node becomes the product's own node (osc_fusion.takes_row). */
#ifndef OSC_PRODUCT_TAKE_H
#define OSC_PRODUCT_TAKE_H

#include "ops/linalg/linalg.h"
#include "rewrite.h"

typedef struct osc_rw_product_cap {
    osc_fusion f; /* the caller sets the inputs */
    unsigned char params[4096]; /* a copy of the product's, for the rule to change */
    size_t size;
} osc_rw_product_cap;
_Static_assert(sizeof(osc_rw_product_cap) <= OSC_RW_CAP_MAX, "OSC_RW_CAP_MAX holds it");

/* When product p's float or double output x is read by the node alone: p's parameters copied
 * into cp, p absorbed, the copy returned; else NULL (with the reason once p is a candidate). */
osc_product_params *osc_rw_product_take(const osc_fuse_view *v, const osc_node *p, int32_t x,
                                        osc_rw_product_cap *cp);
/* The rewrite of such a capture. */
bool osc_rw_product_rewrite(osc_kctx *k, const osc_rw_product_cap *cp, osc_fusion *f);

#endif
