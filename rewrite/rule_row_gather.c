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
    const osc_node *ex = n->n_inputs == 2 ? osc_fuse_node(v, osc_fuse_producer(v, n->inputs[1]))
                                          : NULL;
    if (!osc_fuse_has(ex, OSC_KT_EXPAND)) return false; /* not the pattern's start */
    const osc_tensor *dt = osc_fuse_shape(v, n->inputs[0]), *it = osc_fuse_shape(v, n->inputs[1]);
    const osc_tensor *u = osc_fuse_shape(v, ex->inputs[0]);
    const int64_t axis = ((const osc_se_params *)n->params)->axis;
    if (!dt || !it || !u)
        return osc_rw_no(v, "data, the index or the Expand's input has no static shape (the "
                         "rule takes static shapes only)");
    if (dt->rank < 1 || dt->dtype == OSC_STRING || osc_dtype_get(dt->dtype)->bits < 8)
        return osc_rw_no(v, "data is %s of rank %d: the rule copies whole rows of bytes",
                         osc_dtype_get(dt->dtype)->name, (int)dt->rank);
    if (axis != 0 && axis != -dt->rank)
        return osc_rw_no(v, "axis %lld: the rule gathers along axis 0", (long long)axis);
    if (it->rank != dt->rank || osc_tensor_count(it) == 0 ||
        memcmp(it->dims + 1, dt->dims + 1, (size_t)(dt->rank - 1) * sizeof dt->dims[0]) != 0)
        return osc_rw_no(v, "the index's rows are not data's whole rows (or it is empty)");
    bool per_row = u->rank == dt->rank && (u->dims[0] == it->dims[0] || u->dims[0] == 1);
    for (int32_t d = 1; per_row && d < u->rank; d++) per_row = u->dims[d] == 1;
    if (!per_row) return osc_rw_no(v, "the Expand's input is not one index per row");
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
