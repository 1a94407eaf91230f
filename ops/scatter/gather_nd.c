/* gather_nd.c: GatherND-11/12/13: copy the data slices that index tuples (per batch) select. */
#include <stdio.h>
#include <string.h>

#include "core/dtype.h"
#include "scatter.h"
#include "scatter_loops.h"

OSC_KERNEL_DECLARE(osc_gnd)

/* Sizes both infer and run derive from the input shapes, so run never relies on state left by
 * an earlier infer. */
typedef struct gnd_geom {
    int32_t b;        /* batch_dims */
    int32_t k;        /* components per index tuple: indices.shape[-1] */
    int64_t batches;  /* prod(data.shape[:b]) == prod(indices.shape[:b]) */
    int64_t tuples;   /* tuples per batch: prod(indices.shape[b:-1]) */
    int64_t slice;    /* prod(data.shape[b+k:]): elements one tuple selects */
    int64_t count;    /* elements of data */
} gnd_geom;

static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, gnd_geom *g) {
    if (n_in < 2 || !in[0] || !in[1])
        return osc_kfail(k, OSC_ERR_MODEL, "needs inputs data and indices");
    const osc_tensor *data = in[0], *idx = in[1];
    osc_status st;
    int64_t n, b = ((const osc_gnd_params *)k->params)->batch_dims;
    char buf[256];
    if ((st = osc_check_std_dtype(k, 0, "data", data))) return st;
    if ((st = osc_check_index_dtype(k, 1, "indices", idx, false))) return st;
    if ((st = osc_check_count(k, 0, "data", data, &g->count))) return st;
    if ((st = osc_check_count(k, 1, "indices", idx, &n))) return st;
    int32_t q = idx->rank, r = data->rank;
    if (r < 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) has rank 0; expected rank >= 1",
                         osc_kinput_name(k, 0));
    if (q < 1)
        return osc_kfail(k, OSC_ERR_SHAPE,
                         "input 1 'indices' (%s) has rank 0; expected rank >= 1",
                         osc_kinput_name(k, 1));
    if (b >= (q < r ? q : r))
        return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'batch_dims' = %lld is out of range "
                         "[0, %d] (min(rank of input 1 'indices' (%s) = %d, rank of input 0 "
                         "'data' (%s) = %d) - 1)", (long long)b, (q < r ? q : r) - 1,
                         osc_kinput_name(k, 1), q, osc_kinput_name(k, 0), r);
    g->b = (int32_t)b;
    for (int32_t i = 0; i < g->b; i++)
        if (idx->dims[i] != data->dims[i])
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'indices' (%s) dim %d is %lld but input "
                             "0 'data' (%s) dim %d is %lld; the first batch_dims = %d dims must "
                             "be equal", osc_kinput_name(k, 1), (int)i, (long long)idx->dims[i],
                             osc_kinput_name(k, 0), (int)i, (long long)data->dims[i], (int)g->b);
    /* The spec asks for 1 <= k; k == 0 is accepted as the natural extension: each (empty)
     * tuple selects the whole data[batch] slice, as ScatterND's k == 0 writes it. */
    int64_t kk = idx->dims[q - 1];
    if (kk > r - g->b)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'indices' (%s) has shape %s: tuple length "
                         "indices.shape[-1] = %lld is out of range [0, %d] (rank of input 0 "
                         "'data' minus batch_dims)", osc_kinput_name(k, 1),
                         osc_shape_str(idx, buf, sizeof buf), (long long)kk, r - g->b);
    g->k = (int32_t)kk;
    if (q - 1 + r - g->b - g->k > OSC_MAX_RANK)
        return osc_kfail(k, OSC_ERR_LIMIT, "output rank %d exceeds %d",
                         q - 1 + r - g->b - g->k, OSC_MAX_RANK);
    if ((g->batches = osc_dims_prod(data->dims, g->b)) < 0 ||
        (g->tuples = osc_dims_prod(idx->dims + g->b, q - 1 - g->b)) < 0 ||
        (g->slice = osc_dims_prod(data->dims + g->b + g->k, r - g->b - g->k)) < 0 ||
        !osc_mul_ok(g->batches, g->tuples, &n) || !osc_mul_ok(n, g->slice, &n))
        return osc_kfail(k, OSC_ERR_LIMIT, "output element count overflows int64");
    return OSC_OK;
}

osc_status osc_gnd_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const none[] = {NULL};
    static const char *const batch[] = {"batch_dims", NULL};
    int64_t b = 0;
    osc_status st = osc_attr_known(k, node, k->since_version >= 12 ? batch : none);
    if (st) return st;
    if ((st = osc_attr_int(k, node, "batch_dims", 0, &b))) return st;
    if (b < 0)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'batch_dims' = %lld must be >= 0",
                         (long long)b);
    osc_gnd_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->batch_dims = b;
    *params = p;
    return OSC_OK;
}

osc_status osc_gnd_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                         int32_t n_out) {
    gnd_geom g;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = geometry(k, in, n_in, &g);
    if (st) return st;
    const osc_tensor *data = in[0], *idx = in[1];
    /* indices.shape[:-1] ++ data.shape[b+k:]: the batch dims appear once, from indices */
    out[0].dtype = data->dtype;
    out[0].rank = idx->rank - 1 + data->rank - g.b - g.k;
    memset(out[0].dims, 0, sizeof out[0].dims);
    memcpy(out[0].dims, idx->dims, (size_t)(idx->rank - 1) * sizeof(int64_t));
    memcpy(out[0].dims + idx->rank - 1, data->dims + g.b + g.k,
           (size_t)(data->rank - g.b - g.k) * sizeof(int64_t));
    return OSC_OK;
}

osc_status osc_gnd_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                       int32_t n_out) {
    gnd_geom g;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = geometry(k, in, n_in, &g);
    if (st) return st;
    const osc_tensor *data = in[0], *idx = in[1];
    const int64_t *dims = data->dims + g.b; /* the dims tuple components address */
    /* component j of every tuple against data dim b + j, before any write */
    if ((st = osc_check_index_tuples(k, idx, g.batches * g.tuples * g.k, g.k, dims, g.b)))
        return st;
    /* the output must hold what it receives: the executor sizes it by infer, a direct caller
     * must too (found by tests/bad/test_kernel_contract.c: it wrote past a smaller buffer) */
    size_t esize = osc_dtype_get(data->dtype)->bits / 8;
    size_t need = (size_t)(g.batches * g.tuples * g.slice) * esize;
    if (out[0].dtype != data->dtype || out[0].nbytes < need || (need && !out[0].data))
        return osc_kfail(k, OSC_ERR_ARG, "output 0 (dtype %s, %zu bytes) cannot hold the "
                         "gathered %s elements (%zu bytes)", osc_dtype_get(out[0].dtype)->name,
                         out[0].nbytes, osc_dtype_get(data->dtype)->name, need);
    /* An empty output writes nothing. A non-empty one has batches, tuples and a slice, all
     * validated above, so every data dim is non-zero and the strides below cannot overflow. */
    if (g.batches * g.tuples * g.slice == 0) return OSC_OK;

    int64_t stride[OSC_MAX_RANK]; /* element strides of data dims b.. within one batch */
    int32_t nd = data->rank - g.b;
    stride[nd - 1] = 1;
    for (int32_t j = nd - 1; j > 0; j--) stride[j - 1] = stride[j] * dims[j];
    int64_t batch_elems = stride[0] * dims[0];
    /* per batch, one typed move per single-element tuple, one memcpy per longer slice */
    const osc_nd_fn loop = osc_gnd_loop(data->dtype);
    if (!loop) /* geometry() accepted only standard dtypes, which all have a loop */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'data' (%s) has dtype %s, not "
                         "supported by this op", osc_kinput_name(k, 0),
                         osc_dtype_get(data->dtype)->name);
    size_t data_bytes = (size_t)g.count * esize;
    osc_nd_block b = {.dst = out[0].data, .src = data->data, .idx = idx->data, .dims = dims,
                      .stride = stride, .tuples = g.tuples, .slice = g.slice, .k = g.k,
                      .pf = data_bytes >= OSC_PREFETCH_MIN_BYTES ? OSC_PREFETCH_DIST : 0};
    for (int64_t bi = 0; bi < g.batches; bi++) {
        loop(&b); /* moves only: never fails */
        b.dst = (char *)b.dst + (size_t)(g.tuples * g.slice) * esize;
        b.src = (const char *)b.src + (size_t)batch_elems * esize;
        b.idx += g.tuples * g.k;
    }
    return OSC_OK;
}
