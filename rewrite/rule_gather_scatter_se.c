/* rule_gather_scatter_se.c: rule gather_scatter_se (anchor ScatterElements): a ScatterElements along axis 0 by an Expand of one index per row
 * whose updates are a gathered and stepped chain, or a row-wise region, becomes a fused scatter
 * node (gather_scatter.h). */
#include "gather_scatter.h"

bool osc_rw_gather_scatter_se_match(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                    void *cap) {
    return osc_rw_gather_scatter_match(k, v, node, cap, false);
}

bool osc_rw_gather_scatter_se_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                      const void *cap, osc_fusion *f) {
    (void)v, (void)node;
    return osc_rw_gather_scatter_rewrite(k, cap, f);
}
