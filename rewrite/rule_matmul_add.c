/* rule_matmul_add.c: rule matmul_add (anchor Add): Add(P, S) or Add(S, P) where P is a MatMul
 * of a float or double A of rank >= 2 by a K x N matrix B, read by this Add alone and taking no
 * epilogue yet, and S has the Add's output shape (no broadcast) and dies there (made by a node,
 * read by this Add alone): the Add becomes MatMulAdd(S, A, B) (ops/linalg/matmul_add.c),
 * written over S, which adds S to each row of sums as it copies it out. The product's buffer
 * and the Add's pass over three arrays go (a residual sum; GraphSAGE's lin_l(mean) +
 * lin_r(x)): bit-identical, IEEE addition being commutative. */
#include "product_take.h"

bool osc_rw_matmul_add_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    osc_rw_product_cap *cp = c;
    const osc_node *n = &v->graph->nodes[node];
    if (n->n_inputs != 2 || n->n_outputs != 1 || n->inputs[0] == n->inputs[1]) return false;
    const osc_tensor *y = osc_fuse_sym_shape(v, n->outputs[0]);
    for (int32_t j = 0; y && j < 2; j++) {
        const int32_t x = n->inputs[j], s = n->inputs[1 - j];
        const osc_node *p = osc_fuse_node(v, osc_fuse_producer(v, x));
        if (!osc_fuse_has(p, OSC_KT_MATMUL) || p->n_inputs != 2) continue;
        const osc_tensor *st = osc_fuse_sym_shape(v, s), *pt = osc_fuse_sym_shape(v, x);
        const osc_tensor *at = osc_fuse_sym_shape(v, p->inputs[0]);
        const osc_tensor *bt = osc_fuse_sym_shape(v, p->inputs[1]);
        if (!st || !pt || !at || !bt || at->rank < 2 || bt->rank != 2 ||
            st->dtype != y->dtype || !osc_fuse_same_dims(st, y) || !osc_fuse_same_dims(pt, y))
            continue;
        /* S must die here, so that the output takes its buffer: a product adding a C it does
         * not write over adds it in its tile stores, slower than MatMul and Add apart */
        if (v->uses[s] != 1 || osc_fuse_producer(v, s) < 0 || osc_fuse_folded(v, s))
            return osc_rw_no(v, "the addend is read elsewhere too, or is a graph input or a "
                             "constant: the sum would not be written over it");
        const int32_t n_absorbed = cp->f.n_absorbed;
        osc_product_params *q = osc_rw_product_take(v, p, x, cp);
        if (!q) continue;
        if (q->relu || q->bn) { /* (its output is no longer the sum the Add reads) */
            cp->f.n_absorbed = n_absorbed;
            continue;
        }
        cp->f.n_inputs = 3;
        cp->f.inputs[0] = s;
        cp->f.inputs[1] = p->inputs[0];
        cp->f.inputs[2] = p->inputs[1];
        return true;
    }
    return false;
}

bool osc_rw_matmul_add_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                               const void *c, osc_fusion *f) {
    (void)v, (void)node;
    const osc_rw_product_cap *cp = c;
    return osc_rw_emit(k, &cp->f, cp->params, cp->size, "MatMulAdd", f);
}
