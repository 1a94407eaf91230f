/* seq_split.c: SplitToSequence (a tensor into a sequence of its slices along an axis) and
 * ConcatFromSequence (the items joined along an axis, or stacked along a new one). */
#include "core/dtype.h"
#include "seq.h"

OSC_KERNEL_DECLARE(osc_split_seq)
OSC_KERNEL_DECLARE(osc_concat_seq)

typedef struct axis_params {
    int64_t axis;
    int64_t flag; /* SplitToSequence: keepdims; ConcatFromSequence: new_axis */
} axis_params;

static osc_status axis_init(osc_kctx *k, const osc_node *node, void **params, const char *flag,
                            int64_t flag_def, bool axis_required) {
    const char *known[] = {"axis", flag, NULL};
    axis_params *p = NULL;
    osc_status st = osc_attr_known(k, node, known);
    if (!st && axis_required && !osc_node_attr(node, "axis"))
        st = osc_kfail(k, OSC_ERR_MODEL, "attribute 'axis' is required");
    if (!st) p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    if (!st) st = osc_attr_int(k, node, "axis", 0, &p->axis);
    if (!st) st = osc_attr_int(k, node, flag, flag_def, &p->flag);
    if (!st && p->flag != 0 && p->flag != 1)
        st = osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' is %lld; allowed 0 or 1", flag,
                       (long long)p->flag);
    *params = p;
    return st;
}

/* outer x axis x inner of t around axis a (t's element count fits int64: checked). A tensor of
 * no elements is 0 x axis x 0: the products of its other dims may not fit. */
static void split_dims(const osc_tensor *t, int32_t a, int64_t *outer, int64_t *inner) {
    *outer = *inner = 1;
    for (int32_t d = 0; d < t->rank; d++)
        if (t->dims[d] == 0) {
            *outer = *inner = 0;
            return;
        }
    for (int32_t d = 0; d < a; d++) *outer *= t->dims[d];
    for (int32_t d = a + 1; d < t->rank; d++) *inner *= t->dims[d];
}

osc_status osc_split_seq_init(osc_kctx *k, const osc_node *node, void **params) {
    return axis_init(k, node, params, "keepdims", 1, false);
}

/* How SplitToSequence cuts its input: n items along axis a, each outer x len(i) x inner. */
typedef struct split_geom {
    int32_t a;
    int64_t n, size, chunk, outer, inner;
    const osc_tensor *list; /* the 1-D split, or NULL */
    bool drop;              /* keepdims 0 without split: the axis goes */
} split_geom;

static int64_t split_len(const split_geom *g, int64_t i) {
    if (g->list) return g->list->dtype == OSC_INT32 ? ((const int32_t *)g->list->data)[i]
                                                    : ((const int64_t *)g->list->data)[i];
    return i + 1 < g->n || g->size % g->chunk == 0 ? g->chunk : g->size % g->chunk;
}

static osc_status split_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 split_geom *g) {
    const axis_params *p = k->params;
    int64_t count;
    memset(g, 0, sizeof *g);
    g->chunk = 1; /* no split: items of 1 */
    osc_status st = osc_need_input(k, in, n_in, 0, "input");
    if (!st) st = seq_item_ok(k, 0, "input", in[0], 0);
    if (!st) st = osc_check_count(k, 0, "input", in[0], &count);
    if (!st && in[0]->rank == 0)
        st = osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) is a scalar; it needs an axis "
                       "to split", osc_kinput_name(k, 0));
    if (!st) st = osc_norm_axis(k, p->axis, in[0]->rank, &g->a);
    if (st) return st;
    g->size = in[0]->dims[g->a];
    const osc_tensor *sp = n_in > 1 ? in[1] : NULL;
    int64_t ns = sp ? osc_tensor_count(sp) : 0;
    if (sp && (sp->rank > 1 || (sp->rank == 0 && ns != 1) || (ns && !sp->data)))
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'split' (%s) must be a scalar or a 1-D "
                         "tensor of known values", osc_kinput_name(k, 1));
    g->list = sp && sp->rank == 1 ? sp : NULL;
    if (sp && !g->list) { /* chunks of `chunk`, the last one smaller */
        g->chunk = sp->dtype == OSC_INT32 ? ((const int32_t *)sp->data)[0]
                                          : ((const int64_t *)sp->data)[0];
        if (g->chunk <= 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'split' (%s) is %lld; a scalar split "
                             "must be > 0", osc_kinput_name(k, 1), (long long)g->chunk);
    }
    g->n = g->list ? ns : g->size / g->chunk + (g->size % g->chunk != 0);
    int64_t sum = 0;
    for (int64_t i = 0; g->list && i < ns; i++) {
        int64_t v = split_len(g, i);
        if (v < 0 || __builtin_add_overflow(sum, v, &sum))
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'split' (%s) entry %lld is %lld; "
                             "entries must be >= 0", osc_kinput_name(k, 1), (long long)i,
                             (long long)v);
    }
    if (g->list && sum != g->size)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'split' (%s) sums to %lld; input 0's axis "
                         "%d has %lld", osc_kinput_name(k, 1), (long long)sum, (int)g->a,
                         (long long)g->size);
    g->drop = !sp && p->flag == 0; /* keepdims applies only without split */
    split_dims(in[0], g->a, &g->outer, &g->inner);
    return OSC_OK;
}

/* Item i's bytes (its elements fit: they are the input's). */
static uint64_t split_item_bytes(const osc_tensor *x, const split_geom *g, int64_t i) {
    size_t nb = 0;
    (void)osc_dtype_bytes(x->dtype, g->outer * split_len(g, i) * g->inner, &nb);
    return nb;
}

/* The items' shapes (data NULL: fill copies them). */
static osc_status split_build(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              seq_items *it) {
    split_geom g;
    osc_status st = split_geometry(k, in, n_in, &g);
    if (!st) st = seq_items_new(k, g.n, it);
    if (st) return st;
    it->kind = OSC_SEQUENCE;
    it->elem = in[0]->dtype;
    for (int64_t i = 0; i < g.n; i++) {
        osc_tensor *t = &it->t[i];
        t->dtype = in[0]->dtype;
        t->rank = in[0]->rank - g.drop;
        for (int32_t d = 0, o = 0; d < in[0]->rank; d++)
            if (d != g.a || !g.drop) t->dims[o++] = d == g.a ? split_len(&g, i) : in[0]->dims[d];
        t->nbytes = (size_t)split_item_bytes(in[0], &g, i);
    }
    return OSC_OK;
}

/* Copies each item's slice of input 0 into the packed output. */
static osc_status split_fill(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out) {
    split_geom g;
    osc_status st = split_geometry(k, in, n_in, &g);
    if (st) return st;
    size_t row = (size_t)g.inner * (osc_dtype_get(in[0]->dtype)->bits / 8);
    for (int64_t i = 0, at = 0; i < g.n; i++) {
        osc_tensor item;
        osc_pack_item_view(out, i, &item);
        int64_t len = split_len(&g, i);
        seq_copy_slices(item.data, len, 0, in[0]->data, g.size, at, len, g.outer, row);
        at += len;
    }
    return OSC_OK;
}

/* infer sizes the output without listing its items: a split may make millions of them (the
 * symbolic shapes' probes size dims in the hundreds of thousands). */
osc_status osc_split_seq_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, int32_t n_out) {
    split_geom g;
    uint64_t bytes = 0;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = split_geometry(k, in, n_in, &g);
    bool ok = !st && osc_pack_bytes_begin(g.n, &bytes);
    for (int64_t i = 0; ok && i < g.n; i++)
        ok = osc_pack_bytes_add(&bytes, split_item_bytes(in[0], &g, i));
    if (!st && (!ok || bytes > SIZE_MAX))
        st = osc_kfail(k, OSC_ERR_LIMIT, "the output's %lld items take more bytes than this "
                       "machine addresses", (long long)g.n);
    if (!st) osc_pack_shape(&out[0], OSC_SEQUENCE, bytes);
    out[0].nbytes = 0; /* the engine's to set */
    return st;
}

osc_status osc_split_seq_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out) {
    return seq_run_value(k, in, n_in, out, n_out, split_build, split_fill);
}

osc_status osc_concat_seq_init(osc_kctx *k, const osc_node *node, void **params) {
    return axis_init(k, node, params, "new_axis", 0, true);
}

/* Output shape; *a the axis in the output's rank. Items must agree but on the axis. */
static osc_status concat_shape(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *want, int32_t *a) {
    const axis_params *p = k->params;
    osc_pack_head h;
    osc_tensor first, item;
    char s0[256], s1[256];
    osc_status st = seq_input(k, in, n_in, 0, "input_sequence", &h);
    if (!st && h.count == 0)
        st = osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input_sequence' (%s) is empty: the "
                       "output's dtype and shape are not defined", osc_kinput_name(k, 0));
    if (st) return st;
    osc_pack_item_view(in[0], 0, &first);
    if ((st = osc_norm_axis(k, p->axis, first.rank + (int32_t)p->flag, a))) return st;
    memset(want, 0, sizeof *want);
    want->dtype = first.dtype;
    want->rank = first.rank + (int32_t)p->flag;
    for (int32_t d = 0, o = 0; d < want->rank; d++)
        want->dims[d] = d == *a ? (o += !p->flag, 0) : first.dims[o++]; /* summed below */
    for (int64_t i = 0; i < h.count; i++) {
        osc_pack_item_view(in[0], i, &item);
        bool same = item.rank == first.rank && item.dtype == first.dtype;
        for (int32_t d = 0; same && d < item.rank; d++)
            same = item.dims[d] == first.dims[d] || (!p->flag && d == *a);
        if (!same)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input_sequence' (%s): item %lld has "
                             "shape %s; item 0 has %s (items must agree but on axis %d%s)",
                             osc_kinput_name(k, 0), (long long)i,
                             osc_shape_str(&item, s1, sizeof s1),
                             osc_shape_str(&first, s0, sizeof s0), (int)*a,
                             p->flag ? ", and with new_axis on none" : "");
        if (__builtin_add_overflow(want->dims[*a], p->flag ? 1 : item.dims[*a],
                                   &want->dims[*a]))
            return osc_kfail(k, OSC_ERR_SHAPE, "the output's axis %d overflows", (int)*a);
    }
    int64_t count;
    return osc_check_count(k, 0, "input_sequence", want, &count);
}

osc_status osc_concat_seq_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    int32_t a;
    return osc_infer_out0(k, concat_shape(k, in, n_in, &want, &a), &want, out, n_out);
}

osc_status osc_concat_seq_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *out, int32_t n_out) {
    osc_tensor want, item;
    int32_t a;
    osc_status st = concat_shape(k, in, n_in, &want, &a);
    if (!st) st = seq_check_out(k, out, n_out, &want);
    if (st) return st;
    int64_t outer, inner, at = 0, n = osc_pack_head_of(in[0])->count;
    split_dims(&want, a, &outer, &inner);
    size_t row = (size_t)inner * (osc_dtype_get(want.dtype)->bits / 8);
    const axis_params *p = k->params;
    for (int64_t i = 0; i < n; i++) {
        osc_pack_item_view(in[0], i, &item);
        int64_t len = p->flag ? 1 : item.dims[a];
        seq_copy_slices(out[0].data, want.dims[a], at, item.data, len, 0, len, outer, row);
        at += len;
    }
    return OSC_OK;
}
