/* scatter_nd.c: ScatterND-11/13/16/18: copy data, then assign or reduce slices at index tuples. */
#include <stdio.h>
#include <string.h>

#include "core/copy.h"
#include "core/dtype.h"
#include "reduce.h"
#include "scatter.h"
#include "scatter_loops.h"

OSC_KERNEL_DECLARE(osc_snd)

/* Sizes both infer and run derive from the input shapes, so run never relies on state left by
 * an earlier infer. */
typedef struct snd_geom {
    int32_t k;         /* components per index tuple: indices.shape[-1] */
    int64_t n_tuples;  /* prod(indices.shape[:-1]) */
    int64_t slice;     /* prod(data.shape[k:]): elements one update slice covers */
    int64_t count;     /* elements of data */
} snd_geom;

/* "[a0,...,b0,...]": the concatenation of two dim lists, for messages. */
static const char *concat_str(const int64_t *a, int32_t na, const int64_t *b, int32_t nb,
                              char *buf, size_t size) {
    size_t p = (size_t)snprintf(buf, size, "[");
    for (int32_t i = 0; i < na + nb && p < size; i++)
        p += (size_t)snprintf(buf + p, size - p, i ? ",%lld" : "%lld",
                              (long long)(i < na ? a[i] : b[i - na]));
    if (p < size) snprintf(buf + p, size - p, "]");
    return buf;
}

static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, snd_geom *g) {
    if (n_in < 3 || !in[0] || !in[1] || !in[2])
        return osc_kfail(k, OSC_ERR_MODEL, "needs inputs data, indices and updates");
    const osc_tensor *data = in[0], *idx = in[1], *upd = in[2];
    osc_status st;
    int64_t n;
    char given[256], want[256];
    if ((st = osc_check_std_dtype(k, 0, "data", data))) return st;
    if ((st = osc_check_index_dtype(k, 1, "indices", idx, false))) return st;
    if ((st = osc_check_same_dtype(k, 0, "data", data, 2, "updates", upd))) return st;
    if ((st = osc_check_count(k, 0, "data", data, &g->count))) return st;
    if ((st = osc_check_count(k, 1, "indices", idx, &n))) return st;
    if ((st = osc_check_count(k, 2, "updates", upd, &n))) return st;
    if (data->rank < 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) has rank 0; expected rank >= 1",
                         osc_kinput_name(k, 0));
    if (idx->rank < 1)
        return osc_kfail(k, OSC_ERR_SHAPE,
                         "input 1 'indices' (%s) has rank 0; expected rank >= 1",
                         osc_kinput_name(k, 1));
    int32_t q = idx->rank, r = data->rank;
    int64_t kk = idx->dims[q - 1];
    if (kk > r)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'indices' (%s) has shape %s: tuple length "
                         "indices.shape[-1] = %lld is out of range [0, %d] (rank of input 0 "
                         "'data')", osc_kinput_name(k, 1), osc_shape_str(idx, given, sizeof given),
                         (long long)kk, r);
    g->k = (int32_t)kk;
    /* updates.shape must be indices.shape[:-1] ++ data.shape[k:] */
    bool same = upd->rank == q - 1 + r - g->k;
    for (int32_t i = 0; same && i < upd->rank; i++)
        same = upd->dims[i] == (i < q - 1 ? idx->dims[i] : data->dims[g->k + i - (q - 1)]);
    if (!same)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 2 'updates' (%s) has shape %s; expected %s "
                         "(indices.shape[:-1] ++ data.shape[%d:])", osc_kinput_name(k, 2),
                         osc_shape_str(upd, given, sizeof given),
                         concat_str(idx->dims, q - 1, data->dims + g->k, r - g->k, want,
                                    sizeof want), (int)g->k);
    if ((g->n_tuples = osc_dims_prod(idx->dims, q - 1)) < 0 ||
        (g->slice = osc_dims_prod(data->dims + g->k, r - g->k)) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "input 2 'updates' (%s): slice sizes overflow int64",
                         osc_kinput_name(k, 2));
    const int32_t red = ((const osc_snd_params *)k->params)->reduction;
    if (!osc_reduction_defined(data->dtype, red))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "reduction '%s' is not defined for dtype %s "
                         "(input 0 'data' (%s))", osc_reduction_name(red),
                         osc_dtype_get(data->dtype)->name, osc_kinput_name(k, 0));
    return OSC_OK;
}

osc_status osc_snd_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"reduction", NULL};
    const unsigned none_add_mul = (1u << OSC_RED_NONE) | (1u << OSC_RED_ADD) | (1u << OSC_RED_MUL);
    unsigned allowed = k->since_version >= 18   ? none_add_mul | (1u << OSC_RED_MAX) |
                                                      (1u << OSC_RED_MIN)
                       : k->since_version >= 16 ? none_add_mul
                                                : 0u;
    /* reduction first: before 16 its own message ("does not exist before opset 16") is clearer */
    int32_t red;
    osc_status st = osc_attr_reduction(k, node, allowed, &red);
    if (!st) st = osc_attr_known(k, node, known);
    osc_snd_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->reduction = red;
    *params = p;
    return OSC_OK;
}

osc_status osc_snd_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                         int32_t n_out) {
    snd_geom g;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = geometry(k, in, n_in, &g);
    if (st) return st;
    osc_same_shape(&out[0], in[0]);
    return OSC_OK;
}

typedef struct snd_job {
    osc_nd_block b;
    osc_nd_fn loop;
    const char *data; /* NULL: in place */
    size_t esize;
    int64_t count;
} snd_job;

static void snd_part(void *ctx, int32_t part, int32_t parts) {
    const snd_job *j = ctx;
    osc_nd_block b = j->b;
    osc_par_range(j->count, b.slice, part, parts, &b.lo, &b.hi);
    if (b.hi <= b.lo) return;
    if (j->data)
        osc_copy_big((char *)b.dst + (size_t)b.lo * j->esize, j->data + (size_t)b.lo * j->esize,
                     (size_t)(b.hi - b.lo) * j->esize);
    if (b.tuples > 0) j->loop(&b); /* -1: only string add can fail */
}

osc_status osc_snd_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                       int32_t n_out) {
    snd_geom g;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = geometry(k, in, n_in, &g);
    if (st) return st;
    const osc_tensor *data = in[0], *idx = in[1], *upd = in[2];
    const int32_t red = ((const osc_snd_params *)k->params)->reduction;
    size_t esize = osc_dtype_get(data->dtype)->bits / 8;
    char *dst = out[0].data;
    const bool copy = dst != data->data;
    /* the output must hold data's elements: the executor sizes it by infer, a direct caller
     * must too (tests/bad/test_kernel_contract.c) */
    size_t need = (size_t)g.count * esize;
    if (out[0].dtype != data->dtype || out[0].nbytes < need || (need && !dst))
        return osc_kfail(k, OSC_ERR_ARG, "output 0 (dtype %s, %zu bytes) cannot hold input 0 "
                         "'data' (%s): dtype %s, %zu bytes", osc_dtype_get(out[0].dtype)->name,
                         out[0].nbytes, osc_kinput_name(k, 0), osc_dtype_get(data->dtype)->name,
                         need);
    /* element strides of data; no overflow since count > 0 when they are used */
    int64_t stride[OSC_MAX_RANK];
    if (g.count > 0) {
        stride[data->rank - 1] = 1;
        for (int32_t j = data->rank - 1; j > 0; j--) stride[j - 1] = stride[j] * data->dims[j];
    }
    osc_strcat cat;
    osc_strcat_init(&cat, k->strings);
    osc_nd_block b = {.dst = dst, .src = upd->data, .idx = idx->data, .dims = data->dims,
                      .stride = stride, .tuples = g.n_tuples, .slice = g.slice, .k = g.k,
                      .strings = &cat};
    /* Single elements into a large output: bucket by bucket (see ops/scatter/scatter_bucket.c); that
     * path checks every tuple itself and writes nothing unless all passed. */
    if (g.slice == 1 && g.count > 0 && osc_bucket_pays(need, g.n_tuples) &&
        osc_snd_bucketed(k->scratch, k->tpool, &b, data->dtype, red, dst,
                         copy ? data->data : NULL, g.count) == OSC_BK_DONE)
        return OSC_OK;
    /* every tuple component against its data dim, before any write */
    if ((st = osc_check_index_tuples(k, idx, g.n_tuples * g.k, g.k, data->dims, 0))) return st;
    const osc_nd_fn loop = osc_snd_loop(data->dtype, red);
    if (!loop) /* geometry() found the pair defined; the typed loops cover the same pairs */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "reduction '%s' is not defined for dtype %s "
                         "(input 0 'data' (%s))", osc_reduction_name(red),
                         osc_dtype_get(data->dtype)->name, osc_kinput_name(k, 0));

    /* count == 0: either the slice is empty or a dim under the index is 0, and then the index
     * check above has already refused every tuple. */
    if (g.count == 0) return OSC_OK;
    b.pf = (size_t)g.count * esize >= OSC_PREFETCH_MIN_BYTES ? OSC_PREFETCH_DIST : 0;
    /* Threads: each copies its range of the output (split at slice boundaries) and applies the
     * tuples that land in it, in order (strings stay on one thread: their pool is not shared) */
    if (k->tpool && data->dtype != OSC_STRING &&
        (copy ? need : (size_t)g.n_tuples * (size_t)g.slice * esize) >= OSC_PAR_MIN_BYTES) {
        snd_job j = {.b = b, .loop = loop, .data = copy ? data->data : NULL, .esize = esize,
                     .count = g.count};
        osc_tpool_run(k->tpool, snd_part, &j);
        return OSC_OK;
    }
    if (copy) osc_copy_big(dst, data->data, need);
    if (g.n_tuples == 0) return OSC_OK;
    /* Tuples in row-major order, one after another: duplicates are applied in order, so the
     * result is deterministic ("none": the last write wins). Only string add allocates;
     * running out of memory there is the one failure after writes have begun. */
    int64_t failed = loop(&b);
    if (failed >= 0)
        return osc_kfail(k, OSC_ERR_NOMEM, "out of memory concatenating strings for "
                         "update tuple %lld", (long long)failed);
    return OSC_OK;
}
