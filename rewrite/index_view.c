/* index_view.c: how a fused node reads an index: through the copies of the same elements
 * before it, a row of a whole tensor in place, the pieces of a Concat in place (region.h). */
#include <string.h>

#include "core/dtype.h"
#include "core/kattr.h"
#include "ops/gather/gather.h"
#include "region.h"

bool osc_fuse_same_count(const osc_tensor *a, const osc_tensor *b) {
    bool matched[OSC_MAX_RANK] = {false}; /* b's symbols matched by one of a's */
    int64_t na = 1, nb = 1;
    for (int32_t d = 0; d < a->rank; d++) {
        if (a->dims[d] >= 0) {
            na *= a->dims[d];
            continue;
        }
        int32_t e = 0;
        while (e < b->rank && (matched[e] || b->dims[e] != a->dims[d])) e++;
        if (e == b->rank || !OSC_DIM_IS_SYM(a->dims[d])) return false;
        matched[e] = true;
    }
    for (int32_t e = 0; e < b->rank; e++) {
        if (b->dims[e] >= 0) nb *= b->dims[e];
        else if (!matched[e]) return false;
    }
    return na == nb;
}

int32_t osc_fuse_uncast_index(osc_fusion *f, const osc_fuse_view *v, int32_t id) {
    const osc_node *n = osc_fuse_node(v, osc_fuse_producer(v, id));
    const osc_tensor *out = osc_fuse_sym_shape(v, id);
    const osc_tensor *in = osc_fuse_sym_shape(v, osc_fuse_in(n, 0));
    if (!in || !out || !osc_fuse_has(n, OSC_KT_CAST) || in->dtype != OSC_INT32 ||
        out->dtype != OSC_INT64 || !osc_fuse_same_dims(in, out) ||
        (f && !osc_fuse_absorb(f, osc_fuse_index(v, n))))
        return id;
    return n->inputs[0];
}

int32_t osc_fuse_index_source(osc_fusion *f, const osc_fuse_view *v, int32_t id) {
    for (;;) {
        id = osc_fuse_uncast_index(f, v, id);
        const osc_node *n = osc_fuse_node(v, osc_fuse_producer(v, id));
        const osc_tensor *out = osc_fuse_sym_shape(v, id);
        const osc_tensor *in = osc_fuse_sym_shape(v, osc_fuse_in(n, 0));
        if (!in || !out || !osc_fuse_has(n, OSC_KT_SAME_ELEMENTS) || !osc_fuse_same_count(in, out) ||
            (f && !osc_fuse_absorb(f, osc_fuse_index(v, n))))
            return id;
        id = n->inputs[0];
    }
}

bool osc_fuse_gather0(const osc_node *n, int32_t rank) {
    if (!osc_fuse_has(n, OSC_KT_GATHER) || n->n_inputs != 2 || rank < 1) return false;
    const int64_t axis = ((const osc_gather_params *)n->params)->axis;
    return axis == 0 || axis == -rank; /* (not axis % rank: 66 of a rank-2 data is no axis) */
}

int64_t osc_fuse_row_view(const osc_fuse_view *v, const osc_node *n) {
    if (n->folded || n->n_inputs != 2) return -1;
    const osc_tensor *data = osc_fuse_sym_shape(v, n->inputs[0]);
    const osc_tensor *k = osc_fuse_folded(v, n->inputs[1]);
    if (!data || data->rank < 2 || data->dims[0] < 0 || !osc_fuse_gather0(n, data->rank) ||
        !k || k->rank != 0 ||
        (k->dtype != OSC_INT64 && k->dtype != OSC_INT32) ||
        osc_dtype_get(data->dtype)->bits < 8)
        return -1;
    const int64_t at = osc_index_at(k, 0);
    return at < -data->dims[0] || at >= data->dims[0] ? -1 : at < 0 ? at + data->dims[0] : at;
}

bool osc_fuse_ix_pieces(const osc_fuse_view *v, osc_fusion *f, int32_t at, osc_ix_pieces *pc) {
    memset(pc, 0, sizeof *pc);
    const int32_t id = f->inputs[at], ci = osc_fuse_producer(v, id);
    const osc_node *c = ci >= 0 ? &v->graph->nodes[ci] : NULL;
    const osc_tensor *t = osc_fuse_sym_shape(v, id);
    /* the pieces: a Concat's inputs, or the index itself when it is a row view */
    const bool concat = osc_fuse_has(c, OSC_KT_CONCAT);
    const int32_t n = concat ? c->n_inputs : 1;
    const int32_t *ids = concat ? c->inputs : &id;
    if (!t || t->rank != 1 || (t->dtype != OSC_INT64 && t->dtype != OSC_INT32) ||
        (concat ? n < 2 || n > OSC_IX_MAX_PIECES || f->n_inputs + n - 1 > OSC_FUSE_MAX_IN
                : !c || osc_fuse_row_view(v, c) < 0))
        return false;
    const int32_t n_absorbed = f->n_absorbed, n_inputs = f->n_inputs;
    bool ok = !concat || osc_fuse_absorb(f, ci);
    for (int32_t q = 0; ok && q < n; q++) {
        int32_t pid = ids[q];
        const osc_tensor *pt = osc_fuse_sym_shape(v, pid);
        ok = pt && pt->rank == 1 && pt->dtype == t->dtype;
        const int32_t gi = osc_fuse_producer(v, pid);
        const int64_t row = ok && gi >= 0 ? osc_fuse_row_view(v, &v->graph->nodes[gi]) : -1;
        pc->row[q] = row;
        if (row >= 0) { /* read from the Gather's table, where the row is */
            pid = v->graph->nodes[gi].inputs[0];
            ok = osc_fuse_absorb(f, gi);
        }
        pc->input[q] = q == 0 ? at : f->n_inputs++;
        f->inputs[pc->input[q]] = pid;
    }
    if (!ok) {
        f->n_absorbed = n_absorbed;
        f->n_inputs = n_inputs;
        f->inputs[at] = id;
        memset(pc, 0, sizeof *pc);
        return false;
    }
    pc->n = n;
    pc->value = id;
    return true;
}
