/* rule_gather_scatter_nd.c: rule gather_scatter_nd (anchor ScatterND): a ScatterND with [E, 1] indices
 * whose updates are a gathered and stepped chain, or a row-wise region, becomes a fused scatter
 * node (gather_scatter.h). */
#include "gather_scatter.h"

bool osc_rw_gather_scatter_nd_match(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                    void *cap) {
    return osc_rw_gather_scatter_match(k, v, node, cap, true);
}

bool osc_rw_gather_scatter_nd_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                      const void *cap, osc_fusion *f) {
    (void)v, (void)node;
    return osc_rw_gather_scatter_rewrite(k, cap, f);
}
