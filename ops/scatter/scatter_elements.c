/* scatter_elements.c: Scatter-9/11, ScatterElements-11/13/16/18: copy data, combine updates. */
#include <string.h>

#include "core/copy.h"
#include "core/dtype.h"
#include "reduce.h"
#include "scatter.h"
#include "scatter_loops.h"

OSC_KERNEL_DECLARE(osc_se)

static const char *const k_what[3] = {"data", "indices", "updates"};

osc_status osc_se_init(osc_kctx *k, const osc_node *node, void **params) {
    /* 'reduction' is listed for every version so that osc_attr_reduction, not the generic
     * unknown-attribute check, explains that it does not exist before opset 16. */
    static const char *const k_known[] = {"axis", "reduction", NULL};
    unsigned mask = 0;
    if (k->since_version >= 18)
        mask = 1u << OSC_RED_NONE | 1u << OSC_RED_ADD | 1u << OSC_RED_MUL | 1u << OSC_RED_MAX |
               1u << OSC_RED_MIN;
    else if (k->since_version >= 16)
        mask = 1u << OSC_RED_NONE | 1u << OSC_RED_ADD | 1u << OSC_RED_MUL;
    int64_t axis;
    int32_t red;
    osc_status st = osc_attr_known(k, node, k_known);
    if (!st) st = osc_attr_int(k, node, "axis", 0, &axis);
    if (!st) st = osc_attr_reduction(k, node, mask, &red);
    osc_se_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->axis = axis;
    p->reduction = red;
    *params = p;
    return OSC_OK;
}

/* Everything infer promises and run relies on; O(rank), so run repeats it rather than trust
 * that infer saw the same shapes. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           int32_t *axis_out) {
    const osc_se_params *p = k->params;
    char a[256], b[256];
    for (int32_t i = 0; i < 3; i++) {
        osc_status st = osc_need_input(k, in, n_in, i, k_what[i]);
        if (st) return st;
    }
    const osc_tensor *data = in[0], *idx = in[1], *upd = in[2];
    if (data->rank < 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) has rank 0; expected rank >= 1",
                         osc_kinput_name(k, 0));
    osc_status st = osc_check_std_dtype(k, 0, "data", data);
    if (!st) st = osc_check_index_dtype(k, 1, "indices", idx, true);
    if (!st) st = osc_check_same_dtype(k, 0, "data", data, 2, "updates", upd);
    if (st) return st;
    if (idx->rank != data->rank)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'indices' (%s) has rank %d but input 0 "
                         "'data' (%s) has rank %d; they must match", osc_kinput_name(k, 1),
                         (int)idx->rank, osc_kinput_name(k, 0), (int)data->rank);
    if (upd->rank != idx->rank ||
        memcmp(upd->dims, idx->dims, (size_t)idx->rank * sizeof idx->dims[0]) != 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 2 'updates' (%s) has shape %s but input 1 "
                         "'indices' (%s) has shape %s; they must match", osc_kinput_name(k, 2),
                         osc_shape_str(upd, a, sizeof a), osc_kinput_name(k, 1),
                         osc_shape_str(idx, b, sizeof b));
    int32_t axis;
    st = osc_norm_axis(k, p->axis, data->rank, &axis);
    if (st) return st;
    st = osc_check_index_dims(k, data, idx, axis, "updates would be written out of bounds");
    if (st) return st;
    const int32_t red = p->reduction;
    if (!osc_reduction_defined(data->dtype, red))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "reduction '%s' is not defined for %s",
                         osc_reduction_name(red), osc_dtype_get(data->dtype)->name);
    *axis_out = axis;
    return OSC_OK;
}

osc_status osc_se_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    int32_t axis;
    osc_status st = validate(k, in, n_in, &axis);
    return osc_infer_out0(k, st, st ? NULL : in[0], out, n_out);
}

/* The direct loops over rows u0..u1-1 of the walk (block by block, in groups of `group` rows);
 * with fuse, bytes [done, end) of the output are copied from data along the way, each group
 * just before its rows. */
typedef struct se_job {
    osc_elem_walk w;      /* at block 0 */
    osc_elem_fn loop;
    char *out;
    const char *data;     /* NULL: in place */
    const char *idx, *upd;
    size_t esize, isize, bytes;
    int64_t group, pf;
    bool fuse;
    osc_strcat *strings;
} se_job;

/* -1, or the flat position at which string add ran out of memory. */
static int64_t se_rows(const se_job *j, int64_t u0, int64_t u1, size_t done, size_t end) {
    osc_elem_walk w = j->w;
    const int64_t rows = w.block.rows, n = w.block.n, step = w.block.row_step;
    int64_t r = u0 % rows, base = u0 < u1 ? osc_elem_walk_seek(&w, u0 / rows) : 0;
    osc_elem_block b = w.block;
    b.pf = j->pf;
    b.strings = j->strings;
    for (int64_t u = u0; u < u1;) {
        b.rows = rows - r < j->group ? rows - r : j->group;
        if (b.rows > u1 - u) b.rows = u1 - u;
        const int64_t first = base + r * step;
        if (j->fuse) {
            size_t upto = (size_t)(first + b.rows * step) * j->esize;
            if (upto > end) upto = end;
            if (upto > done) memcpy(j->out + done, j->data + done, upto - done);
            if (upto > done) done = upto;
        }
        b.dst = j->out + (size_t)first * j->esize;
        b.src = j->upd + (size_t)(u * n) * j->esize;
        b.idx = j->idx + (size_t)(u * n) * j->isize;
        const int64_t failed = j->loop(&b);
        if (failed >= 0) return u * n + failed;
        u += b.rows;
        r += b.rows;
        if (r == rows) {
            r = 0;
            base = osc_elem_walk_next(&w);
        }
    }
    if (j->fuse && done < end) memcpy(j->out + done, j->data + done, end - done);
    return -1;
}

/* Data-shaped byte offset of row u of the walk (rows along an innermost axis: increasing). */
static size_t se_row_byte(const se_job *j, int64_t u) {
    osc_elem_walk w = j->w;
    const int64_t rows = w.block.rows;
    return (size_t)(osc_elem_walk_seek(&w, u / rows) + u % rows * w.block.row_step) * j->esize;
}

/* One thread's rows; with fuse it copies the output from its first row's offset to the next
 * part's (the first part from 0, the last to the end). */
static void se_part(void *ctx, int32_t part, int32_t parts) {
    const se_job *j = ctx;
    const int64_t units = j->w.blocks * j->w.block.rows;
    int64_t u0, u1;
    osc_par_range(units, 1, part, parts, &u0, &u1);
    size_t from = part == 0 ? 0 : u0 < units ? se_row_byte(j, u0) : j->bytes;
    size_t to = part == parts - 1 ? j->bytes : u1 < units ? se_row_byte(j, u1) : j->bytes;
    se_rows(j, u0, u1, from, to); /* -1: strings never run here */
}

osc_status osc_se_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                      int32_t n_out) {
    int32_t axis;
    osc_status st = validate(k, in, n_in, &axis);
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    const osc_tensor *data = in[0], *idx = in[1], *upd = in[2];
    const osc_se_params *p = k->params;
    for (int32_t i = 0; i < 3 && !st; i++) st = osc_check_buffer(k, "input", i, k_what[i], in[i]);
    if (!st) st = osc_check_buffer(k, "output", 0, "output", out);
    if (st) return st;
    size_t data_bytes = 0;
    osc_dtype_bytes(data->dtype, osc_tensor_count(data), &data_bytes); /* checked just above */
    if (out->dtype != data->dtype || out->nbytes < data_bytes)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 (dtype %s, %zu bytes) cannot hold input 0 "
                         "'data' (%s): dtype %s, %zu bytes", osc_dtype_get(out->dtype)->name,
                         out->nbytes, osc_kinput_name(k, 0), osc_dtype_get(data->dtype)->name,
                         data_bytes);
    if (data->dtype == OSC_STRING && p->reduction == OSC_RED_ADD && !k->strings)
        return osc_kfail(k, OSC_ERR_STATE, "string 'add' needs a string pool and none was given");
    const int64_t s = data->dims[axis], n = osc_tensor_count(idx);
    const int32_t red = p->reduction;
    const bool copy = out->data != data->data;
    const size_t esize = osc_dtype_get(data->dtype)->bits / 8;
    /* n > 0 and indices that pass the check mean data has no zero dim; with a zero dim the
     * strides are 0, never an overflow, so the walk fails only on impossible shapes. */
    osc_elem_walk w;
    if (n > 0 && !osc_elem_walk_init(&w, data, idx, axis))
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'data' (%s) has more than 2^63-1 elements",
                         osc_kinput_name(k, 0));
    /* Rows along an innermost axis are short spans of data: copy mode copies a group of rows
     * just before scattering into them, while they are in cache. */
    const bool local_rows = n > 0 && w.axis_last && w.block.row_step > 0 &&
                            (size_t)w.block.row_step * esize <= OSC_FUSE_ROW_MAX_BYTES;
    /* Otherwise a large output is scattered bucket by bucket; that path checks every index
     * itself and writes nothing unless all passed. */
    if (n > 0 && !local_rows && osc_bucket_pays(data_bytes, n) &&
        osc_se_bucketed(k->scratch, k->tpool, &w, data->dtype, red, idx->dtype, idx->data,
                        upd->data, out->data, copy ? data->data : NULL,
                        osc_tensor_count(data)) == OSC_BK_DONE)
        return OSC_OK;
    /* the direct loops, or a bucketed run that was skipped or found a bad index: name it */
    st = osc_check_index_range(k, idx, axis, s);
    if (st) return st;
    const osc_elem_fn loop = n > 0 ? osc_se_loop(data->dtype, red, idx->dtype, w.axis_last)
                                   : NULL;
    if (n > 0 && !loop) /* validate() found the pair defined; the loops cover the same ones */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "reduction '%s' is not defined for %s",
                         osc_reduction_name(red), osc_dtype_get(data->dtype)->name);

    /* Validation is complete: from here on the output is written. */
    if (n == 0) {
        if (copy) osc_par_memcpy(k->tpool, out->data, data->data, data_bytes);
        return OSC_OK;
    }
    osc_strcat cat;
    osc_strcat_init(&cat, k->strings);
    se_job j = {.w = w, .loop = loop, .out = out->data, .data = copy ? data->data : NULL,
                .idx = idx->data, .upd = upd->data, .esize = esize,
                .isize = idx->dtype == OSC_INT32 ? sizeof(int32_t) : sizeof(int64_t),
                .bytes = data_bytes, .strings = &cat};
    j.fuse = local_rows && copy;
    j.group = j.fuse ? osc_fuse_rows(w.block.row_step * (int64_t)esize) : w.block.rows;
    /* (rows along an innermost axis stay in cache: nothing to prefetch there) */
    j.pf = data_bytes >= OSC_PREFETCH_MIN_BYTES && !local_rows ? OSC_PREFETCH_DIST : 0;
    const bool par = k->tpool && data->dtype != OSC_STRING &&
                     (copy ? data_bytes : (size_t)n * esize) >= OSC_PAR_MIN_BYTES;
    /* (the loop below then runs on this thread: a copy small enough to stay in the caches
     * stays in this thread's) */
    if (copy && !j.fuse)
        osc_par_memcpy(par && data_bytes >= OSC_STREAM_MIN_BYTES ? k->tpool : NULL, out->data,
                       data->data, data_bytes);
    /* Threads split the rows when they write disjoint elements: along an innermost axis every
     * other kept dim is off the axis, so different rows never meet. */
    if (par && local_rows) {
        osc_tpool_run(k->tpool, se_part, &j);
        return OSC_OK;
    }
    const int64_t failed = se_rows(&j, 0, w.blocks * w.block.rows, 0, data_bytes);
    if (failed >= 0)
        return osc_kfail(k, OSC_ERR_NOMEM, "out of memory concatenating strings at input 2 "
                         "'updates' (%s) flat position %lld", osc_kinput_name(k, 2),
                         (long long)failed);
    return OSC_OK;
}
