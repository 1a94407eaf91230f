/* rule_row_gather.c: rule row_gather (anchor GatherElements): a GatherElements along axis 0
 * whose index is an Expand of one index per row, and whose rows span whole rows of data,
 * becomes RowGather (ops/fused/fused_scatter.h), reading the index before the Expand: a row
 * copied per index instead of an element per index. */
#include <string.h>

#include "core/dtype.h"
#include "ops/fused/fused_scatter.h"
#include "ops/scatter/scatter.h"
#include "region.h"

typedef struct cap {
    osc_fusion f;
    osc_rg_params p;
} cap;

bool osc_rw_row_gather_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    cap *cp = c;
    const osc_node *n = &v->graph->nodes[node];
    if (n->n_inputs != 2) return false;
    const osc_tensor *dt = osc_fuse_shape(v, n->inputs[0]), *it = osc_fuse_shape(v, n->inputs[1]);
    const osc_node *ex = osc_fuse_node(v, osc_fuse_producer(v, n->inputs[1]));
    const osc_tensor *u =
        osc_fuse_has(ex, OSC_KT_EXPAND) ? osc_fuse_shape(v, ex->inputs[0]) : NULL;
    const int64_t axis = ((const osc_se_params *)n->params)->axis;
    if (!dt || !it || !u || dt->rank < 1 || dt->dtype == OSC_STRING ||
        osc_dtype_get(dt->dtype)->bits < 8 || (axis != 0 && axis != -dt->rank) ||
        it->rank != dt->rank || u->rank != dt->rank || osc_tensor_count(it) == 0 ||
        memcmp(it->dims + 1, dt->dims + 1, (size_t)(dt->rank - 1) * sizeof dt->dims[0]) != 0 ||
        (u->dims[0] != it->dims[0] && u->dims[0] != 1))
        return false;
    for (int32_t d = 1; d < u->rank; d++)
        if (u->dims[d] != 1) return false;
    osc_rg_params *p = &cp->p;
    p->rows = it->dims[0];
    p->dst_stride = u->dims[0] == 1 ? 0 : 1;
    p->rank = it->rank;
    memcpy(p->dims, it->dims, (size_t)it->rank * sizeof it->dims[0]);
    osc_fusion *f = &cp->f;
    f->n_inputs = 2;
    f->inputs[0] = n->inputs[0];
    f->absorbed[f->n_absorbed++] = osc_fuse_index(v, ex);
    f->inputs[1] = osc_fuse_index_source(f, v, ex->inputs[0]);
    return true;
}

bool osc_rw_row_gather_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                               const void *c, osc_fusion *f) {
    (void)v, (void)node;
    const cap *cp = c;
    return osc_rw_emit(k, &cp->f, &cp->p, sizeof cp->p, "RowGather", f);
}
