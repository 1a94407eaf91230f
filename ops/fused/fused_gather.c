/* fused_gather.c: RowGather (fused_scatter.h): GatherElements along axis 0 whose index is one
 * row index broadcast along the row, read once per row and the row copied whole. */
#include <string.h>

#include "core/dtype.h"
#include "fused_scatter.h"
#include "core/kattr.h"

typedef struct rg_job {
    char *out;
    const char *data;
    const osc_tensor *idx;
    int64_t rows, n, stride;
    size_t row_bytes;
} rg_job;

static void rg_part(void *ctx, int32_t part, int32_t parts) {
    const rg_job *j = ctx;
    int64_t e0, e1;
    osc_par_range(j->rows, 1, part, parts, &e0, &e1);
    for (int64_t e = e0; e < e1; e++) {
        int64_t v = osc_index_at(j->idx, e * j->stride);
        if (v < 0) v += j->n;
        memcpy(j->out + (size_t)e * j->row_bytes, j->data + (size_t)v * j->row_bytes,
               j->row_bytes);
    }
}

/* data has the output's shape but for its first dim; U holds one index per row. */
static osc_status check(osc_kctx *k, const osc_tensor *const *in, int32_t n_in) {
    const osc_rg_params *p = k->params;
    char a[256];
    osc_status st = osc_need_input(k, in, n_in, 0, "data");
    if (!st) st = osc_need_input(k, in, n_in, 1, "indices");
    if (!st) st = osc_check_index_dtype(k, 1, "indices", in[1], true);
    if (st) return st;
    const osc_tensor *data = in[0];
    if (data->rank != p->rank || osc_dtype_get(data->dtype)->bits < 8 ||
        memcmp(data->dims + 1, p->dims + 1, (size_t)(p->rank - 1) * sizeof p->dims[0]) != 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) has shape %s; the fusion was made "
                         "for rows of the output's shape", osc_kinput_name(k, 0),
                         osc_shape_str(data, a, sizeof a));
    if (osc_tensor_count(in[1]) != (p->dst_stride ? p->rows : 1))
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'indices' (%s) has %lld elements; expected "
                         "%lld", osc_kinput_name(k, 1), (long long)osc_tensor_count(in[1]),
                         (long long)(p->dst_stride ? p->rows : 1));
    return OSC_OK;
}

osc_status osc_rg_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    const osc_rg_params *p = k->params;
    osc_status st = check(k, in, n_in);
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    out->dtype = in[0]->dtype;
    out->rank = p->rank;
    memcpy(out->dims, p->dims, (size_t)p->rank * sizeof p->dims[0]);
    return OSC_OK;
}

osc_status osc_rg_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    const osc_rg_params *p = k->params;
    osc_status st = check(k, in, n_in);
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    const osc_tensor *data = in[0];
    rg_job j = {.out = out->data, .data = data->data, .idx = in[1], .rows = p->rows,
                .n = data->dims[0], .stride = p->dst_stride};
    osc_dtype_bytes(data->dtype, osc_tensor_count(data) / (j.n ? j.n : 1), &j.row_bytes);
    if (out->dtype != data->dtype || out->nbytes < (size_t)p->rows * j.row_bytes)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 (%zu bytes) cannot hold %lld rows of %zu "
                         "bytes", out->nbytes, (long long)p->rows, j.row_bytes);
    if ((st = osc_check_index_range(k, in[1], 0, j.n))) return st;
    const bool par = k->tpool && (size_t)p->rows * j.row_bytes >= OSC_PAR_MIN_BYTES;
    osc_tpool_run(par ? k->tpool : NULL, rg_part, &j);
    return OSC_OK;
}
