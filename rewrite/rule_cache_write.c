/* rule_cache_write.c: rule cache_write (anchor: TensorScatter): a KV cache's update computed
 * from X by a chain that only moves and converts it, maybe rotating it first:
 *   X -> [RotaryEmbedding] -> [a same-elements op (Reshape) to (batch, seq, heads, head size)
 *     -> Transpose [0, 2, 1, 3]] -> [Cast between float dtypes] -> TensorScatter(cache, ., w)
 * along axis 2 of the 4-D cache, the Cast anywhere after the rotation, at least one node, each
 * value read by the chain alone, every shape static; with one new row (seq 1) the
 * same-elements op may reach the cache's layout without the Transpose. It becomes one
 * CacheWrite node (ops/attention/rotary.h) reading X: the chain's passes and buffers go. The
 * same bits: the rotation is RotaryEmbedding's row code, the conversion Cast's, the placement
 * TensorScatter's. */
#include "ops/attention/rotary.h"
#include "ops/scatter/scatter.h"
#include "ops/shape/shape_ops.h"
#include "rewrite.h"

typedef struct cap {
    osc_fusion f;
    osc_cache_write_params p;
} cap;
_Static_assert(sizeof(cap) <= OSC_RW_CAP_MAX, "OSC_RW_CAP_MAX holds the capture");

static bool is_float(int32_t t) {
    return t == OSC_FLOAT || t == OSC_FLOAT16 || t == OSC_BFLOAT16 || t == OSC_DOUBLE;
}

/* Whether t's dims are d0..d3. */
static bool dims4(const osc_tensor *t, int64_t d0, int64_t d1, int64_t d2, int64_t d3) {
    return t && t->rank == 4 && t->dims[0] == d0 && t->dims[1] == d1 && t->dims[2] == d2 &&
           t->dims[3] == d3;
}

bool osc_rw_cache_write_match(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *c) {
    (void)k;
    cap *cp = c;
    osc_fusion *f = &cp->f;
    const osc_node *n = &v->graph->nodes[node];
    if (n->n_inputs < 2 || n->n_outputs != 1) return false;
    /* walk back from the update: Casts, the Transpose, then the same-elements op, the rotation
     * last (the chain's first node) */
    const osc_node *cast = NULL, *tr = NULL, *same = NULL, *rope = NULL;
    int32_t x = n->inputs[1];
    for (const osc_node *m; !rope && (m = osc_fuse_sole_producer(v, x)) && m->n_inputs >= 1;) {
        if (osc_fuse_has(m, OSC_KT_CAST) && !cast)
            cast = m;
        else if (osc_fuse_has(m, OSC_KT_TRANSPOSE) && !tr && !same)
            tr = m;
        else if (osc_fuse_has(m, OSC_KT_SAME_ELEMENTS) && !same)
            same = m;
        else if (osc_fuse_has(m, OSC_KT_ROTARY))
            rope = m;
        else
            break;
        if (!osc_fuse_absorb(f, osc_fuse_index(v, m))) return false;
        x = m->inputs[0];
    }
    if (!f->n_absorbed) return false;
    /* a candidate: the chain feeds the cache */
    const osc_ts_params *ts = n->params;
    const osc_tensor *ct = osc_fuse_shape(v, n->inputs[0]), *ut = osc_fuse_shape(v, n->inputs[1]);
    const osc_tensor *xt = osc_fuse_shape(v, x);
    if (!ct || !ut || !xt || ct->rank != 4 || (ts->axis != 2 && ts->axis != -2))
        return osc_rw_no(v, "the cache, the update and X need static shapes, the cache 4-D "
                         "written along axis 2");
    const int64_t b = ct->dims[0], h = ct->dims[1], d = ct->dims[3], s = ut->dims[2];
    if (!dims4(ut, b, h, s, d) || s > ct->dims[2] || ut->dtype != ct->dtype)
        return osc_rw_no(v, "the update does not fit the cache (TensorScatter refuses it)");
    if (!is_float(ct->dtype) || !is_float(xt->dtype) || (!cast && xt->dtype != ct->dtype) ||
        (rope && xt->dtype == OSC_DOUBLE))
        return osc_rw_no(v, "X and the cache need float dtypes that the chain's ops accept");
    /* the layout: X's elements in the cache's order, or in (batch, seq, heads, head size) */
    const osc_tensor *rt = rope ? xt : NULL; /* RotaryEmbedding's X */
    bool bshd;
    if (!same && !tr) {
        bshd = false;
        if (!dims4(xt, b, h, s, d)) return osc_rw_no(v, "X is not shaped as the update");
    } else if (tr) {
        const osc_sh_ints *pm = &((const osc_transpose_params *)tr->params)->perm;
        const osc_tensor *tin = osc_fuse_shape(v, tr->inputs[0]);
        if (!pm->present || pm->n != 4 || pm->v[0] != 0 || pm->v[1] != 2 || pm->v[2] != 1 ||
            pm->v[3] != 3 || !dims4(tin, b, s, h, d) || (rope && !same))
            return osc_rw_no(v, "the Transpose is not [0, 2, 1, 3] from (batch, seq, heads, "
                             "head size) rows");
        bshd = true;
    } else {
        bshd = true; /* one row: (batch, seq, heads) order is (batch, heads, seq) order */
        if (s != 1) return osc_rw_no(v, "a reshape without Transpose moves more than one row");
    }
    if (rt && (bshd ? rt->rank != 3 || rt->dims[0] != b || rt->dims[1] != s
                    : rt->rank != 4))
        return osc_rw_no(v, "RotaryEmbedding's X is not (batch, seq, hidden) rows moved to the "
                         "cache's layout, or the cache's layout itself");
    if (rope && (rope->n_inputs < 3 || rope->n_inputs > 4)) return false;
    cp->p.rotate = rope != NULL;
    cp->p.bshd = bshd;
    if (rope) cp->p.rope = *(const osc_rope_params *)rope->params;
    cp->p.seq = s;
    cp->p.circular = ts->mode == 1;
    f->n_inputs = 6;
    f->inputs[0] = n->inputs[0];
    f->inputs[1] = x;
    for (int32_t i = 2; i < 5; i++)
        f->inputs[i] = osc_fuse_in(rope, i - 1);
    f->inputs[5] = osc_fuse_in(n, 2);
    return true;
}

bool osc_rw_cache_write_rewrite(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                const void *c, osc_fusion *f) {
    (void)v, (void)node;
    const cap *cp = c;
    return osc_rw_emit(k, &cp->f, &cp->p, sizeof cp->p, "CacheWrite", f);
}
