/* tensor_scatter.c: TensorScatter-24: write a sequence update into a KV cache. */
#include <string.h>

#include "core/dtype.h"
#include "scatter.h"

OSC_KERNEL_DECLARE(osc_ts)

enum { TS_LINEAR = 0, TS_CIRCULAR = 1 };

/* The cache seen as [batch, outer, max_seq, inner]; update as [batch, outer, seq, inner].
 * Both infer and run derive it from the shapes, so run never relies on state left by infer. */
typedef struct ts_geom {
    int32_t axis;      /* normalised, >= 1 */
    int64_t batch;     /* dims[0] */
    int64_t outer;     /* prod(dims[1:axis]) */
    int64_t max_seq;   /* past_cache.dims[axis] */
    int64_t seq;       /* update.dims[axis] */
    int64_t inner;     /* prod(dims[axis+1:]) */
    int64_t count;     /* elements of past_cache */
    const osc_tensor *wi; /* write_indices or NULL (all zero) */
} ts_geom;

static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, ts_geom *g) {
    if (n_in < 2 || !in[0] || !in[1])
        return osc_kfail(k, OSC_ERR_MODEL, "needs inputs past_cache and update");
    const osc_tensor *past = in[0], *upd = in[1];
    osc_status st;
    char a[256], b[256];
    /* every element type moves: the op only copies, never computes */
    if (!osc_dtype_valid(past->dtype))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'past_cache' (%s) has unknown dtype "
                         "%d", osc_kinput_name(k, 0), (int)past->dtype);
    if ((st = osc_check_same_dtype(k, 0, "past_cache", past, 1, "update", upd))) return st;
    if ((g->count = osc_tensor_count(past)) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'past_cache' (%s): element count is "
                         "negative or overflows int64", osc_kinput_name(k, 0));
    if ((st = osc_norm_axis(k, ((const osc_ts_params *)k->params)->axis, past->rank, &g->axis))) return st;
    if (g->axis == 0)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'axis' = %lld is the batch dim 0; the "
                         "sequence axis must be in [1, %d] or [%d, -1]",
                         (long long)((const osc_ts_params *)k->params)->axis, past->rank - 1, 1 - past->rank);
    bool fits = upd->rank == past->rank;
    for (int32_t i = 0; fits && i < past->rank; i++)
        fits = i == g->axis ? upd->dims[i] >= 0 && upd->dims[i] <= past->dims[i]
                            : upd->dims[i] == past->dims[i];
    if (!fits)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'update' (%s) has shape %s; expected input "
                         "0 'past_cache' (%s) shape %s with dim %d (sequence_length) in [0, %lld]",
                         osc_kinput_name(k, 1), osc_shape_str(upd, a, sizeof a),
                         osc_kinput_name(k, 0), osc_shape_str(past, b, sizeof b), (int)g->axis,
                         (long long)past->dims[g->axis]);
    g->batch = past->dims[0];
    g->max_seq = past->dims[g->axis];
    g->seq = upd->dims[g->axis];
    /* sub-products of a valid count; recomputed exactly when the count is 0 */
    if ((g->outer = osc_dims_prod(past->dims + 1, g->axis - 1)) < 0 ||
        (g->inner = osc_dims_prod(past->dims + g->axis + 1, past->rank - g->axis - 1)) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'past_cache' (%s): sizes overflow int64",
                         osc_kinput_name(k, 0));
    g->wi = n_in >= 3 ? in[2] : NULL;
    if (g->wi) {
        if ((st = osc_check_index_dtype(k, 2, "write_indices", g->wi, false))) return st;
        if (g->wi->rank != 1 || g->wi->dims[0] != g->batch)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 2 'write_indices' (%s) has shape %s; "
                             "expected [%lld] (batch_size)", osc_kinput_name(k, 2),
                             osc_shape_str(g->wi, a, sizeof a), (long long)g->batch);
    }
    return OSC_OK;
}

osc_status osc_ts_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"axis", "mode", NULL};
    const char *mode;
    osc_ts_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    osc_status st = osc_attr_known(k, node, known);
    if (st) return st;
    if ((st = osc_attr_int(k, node, "axis", -2, &p->axis))) return st;
    if ((st = osc_attr_str(k, node, "mode", "linear", &mode))) return st;
    if (strcmp(mode, "linear") == 0)
        p->mode = TS_LINEAR;
    else if (strcmp(mode, "circular") == 0)
        p->mode = TS_CIRCULAR;
    else
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'mode' = '%.64s' is unknown; allowed: "
                         "linear, circular", mode);
    *params = p;
    return OSC_OK;
}

osc_status osc_ts_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    ts_geom g;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = geometry(k, in, n_in, &g);
    if (st) return st;
    osc_same_shape(&out[0], in[0]);
    return OSC_OK;
}

osc_status osc_ts_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                      int32_t n_out) {
    ts_geom g;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = geometry(k, in, n_in, &g);
    if (st) return st;
    const int64_t *wi = g.wi ? g.wi->data : NULL;
    bool circular = ((const osc_ts_params *)k->params)->mode == TS_CIRCULAR;
    /* linear: the whole run [w, w + seq) must lie in [0, max_seq); circular accepts any value */
    for (int64_t bi = 0; wi && !circular && bi < g.batch; bi++)
        if (wi[bi] < 0 || wi[bi] > g.max_seq - g.seq)
            return osc_kfail(k, OSC_ERR_INDEX, "input 2 'write_indices' (%s): value %lld at "
                             "batch position %lld is out of range [0, %lld] (linear mode needs "
                             "write_index + sequence_length %lld <= max_sequence_length %lld)",
                             osc_kinput_name(k, 2), (long long)wi[bi], (long long)bi,
                             (long long)(g.max_seq - g.seq), (long long)g.seq,
                             (long long)g.max_seq);

    const osc_tensor *past = in[0], *upd = in[1];
    size_t nbytes;
    if (!osc_dtype_bytes(past->dtype, g.count, &nbytes))
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'past_cache' (%s): byte size overflows",
                         osc_kinput_name(k, 0));
    if (out[0].data != past->data) osc_par_memcpy(k->tpool, out[0].data, past->data, nbytes);
    /* An empty cache means an empty update (every dim but the sequence's is shared, and
     * seq <= max_seq); only a non-empty one bounds the products below by its element count. */
    if (g.count == 0 || g.seq == 0) return OSC_OK;
    const int64_t run = g.seq * g.inner; /* elements of one (batch, outer) row of update */

    /* Only the sequence coordinate wraps in circular mode. The spec's pseudocode applies
     * np.mod to the whole (prefix..., seq) tuple, which would also wrap a batch or prefix
     * index >= max_sequence_length into another row; that is not the intended operation. */
    unsigned bits = osc_dtype_get(past->dtype)->bits;
    int64_t row = g.max_seq * g.inner; /* elements of one (batch, outer) row of the cache */
    int64_t dst = 0, src = 0;
    for (int64_t bi = 0; bi < g.batch; bi++) {
        int64_t w = wi ? wi[bi] : 0, first = g.seq;
        if (circular) { /* run > 0 implies max_seq >= seq > 0 */
            w %= g.max_seq;
            if (w < 0) w += g.max_seq;
            if (first > g.max_seq - w) first = g.max_seq - w;
        }
        /* osc_copy_elems is one memcpy for byte-sized types and moves packed sub-byte
         * elements (int4, uint2, ...) one by one */
        for (int64_t o = 0; o < g.outer; o++, dst += row, src += run) {
            osc_copy_elems(out[0].data, dst + w * g.inner, upd->data, src, first * g.inner,
                           bits);
            if (first < g.seq)
                osc_copy_elems(out[0].data, dst, upd->data, src + first * g.inner,
                               (g.seq - first) * g.inner, bits);
        }
    }
    return OSC_OK;
}
