/* rule_gather_pieces.c: rule gather_pieces (anchor Gather, after the scatter rules, which
 * absorb the Gathers they read): a Gather along axis 0 whose index is a Concat of up to
 * OSC_IX_MAX_PIECES pieces (GAT's edge lists with self loops) becomes GatherPieces
 * (ops/gather/gather.h), which reads the pieces in place: the Concat is never run. */
#include "core/dtype.h"
#include "ops/gather/gather.h"
#include "region.h"

typedef struct cap {
    osc_fusion f;
    osc_gather_pieces_params p;
} cap;

bool osc_rw_gather_pieces_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    cap *cp = c;
    const osc_node *n = &v->graph->nodes[node];
    const osc_tensor *data = osc_fuse_sym_shape(v, n->inputs[0]);
    const osc_tensor *idx = osc_fuse_sym_shape(v, n->inputs[1]);
    if (!data || !idx || data->dtype == OSC_STRING || idx->rank != 1 ||
        !osc_fuse_gather0(n, data->rank))
        return false;
    osc_fusion *f = &cp->f;
    f->inputs[0] = n->inputs[0];
    f->inputs[1] = n->inputs[1];
    f->n_inputs = 2;
    return osc_fuse_ix_pieces(v, f, 1, &cp->p.pc);
}

bool osc_rw_gather_pieces_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                  const void *c, osc_fusion *f) {
    (void)v, (void)node;
    const cap *cp = c;
    return osc_rw_emit(k, &cp->f, &cp->p, sizeof cp->p, "GatherPieces", f);
}
