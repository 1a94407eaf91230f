/* gather_elements.c: GatherElements-11/13: out[..i..] = data[.. indices[..i..] along axis ..]. */
#include <string.h>

#include "core/dtype.h"
#include "scatter.h"
#include "scatter_loops.h"

OSC_KERNEL_DECLARE(osc_ge)

static const char *const k_what[2] = {"data", "indices"};

osc_status osc_ge_init(osc_kctx *k, const osc_node *node, void **params) {
    _Static_assert(offsetof(osc_se_params, axis) == 0, "osc_init_axis writes the first member");
    return osc_init_axis(k, node, 0, false, sizeof(osc_se_params), params);
}

/* Everything infer promises and run relies on; O(rank), so run repeats it rather than trust
 * that infer saw the same shapes. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           int32_t *axis_out) {
    for (int32_t i = 0; i < 2; i++) {
        osc_status st = osc_need_input(k, in, n_in, i, k_what[i]);
        if (st) return st;
    }
    const osc_tensor *data = in[0], *idx = in[1];
    if (data->rank < 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) has rank 0; expected rank >= 1",
                         osc_kinput_name(k, 0));
    osc_status st = osc_check_std_dtype(k, 0, "data", data);
    if (!st) st = osc_check_index_dtype(k, 1, "indices", idx, true);
    if (st) return st;
    if (idx->rank != data->rank)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'indices' (%s) has rank %d but input 0 "
                         "'data' (%s) has rank %d; they must match", osc_kinput_name(k, 1),
                         (int)idx->rank, osc_kinput_name(k, 0), (int)data->rank);
    int32_t axis;
    st = osc_norm_axis(k, ((const osc_se_params *)k->params)->axis, data->rank, &axis);
    if (st) return st;
    st = osc_check_index_dims(k, data, idx, axis, "elements would be read out of bounds");
    if (st) return st;
    *axis_out = axis;
    return OSC_OK;
}

osc_status osc_ge_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    int32_t axis = 0; /* set by validate when it succeeds */
    osc_status st = validate(k, in, n_in, &axis);
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    osc_same_shape(&out[0], in[1]);
    out[0].dtype = in[0]->dtype;
    return OSC_OK;
}

osc_status osc_ge_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                      int32_t n_out) {
    int32_t axis = 0; /* set by validate when it succeeds */
    osc_status st = validate(k, in, n_in, &axis);
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    const osc_tensor *data = in[0], *idx = in[1];
    for (int32_t i = 0; i < 2 && !st; i++) st = osc_check_buffer(k, "input", i, k_what[i], in[i]);
    if (!st) st = osc_check_buffer(k, "output", 0, "output", out);
    if (st) return st;
    const int64_t n = osc_tensor_count(idx);
    if (out->dtype != data->dtype || osc_tensor_count(out) != n)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 (dtype %s, %lld elements) is not dtype %s "
                         "with the %lld elements of input 1 'indices' (%s)",
                         osc_dtype_get(out->dtype)->name, (long long)osc_tensor_count(out),
                         osc_dtype_get(data->dtype)->name, (long long)n, osc_kinput_name(k, 1));
    const int64_t s = data->dims[axis];
    st = osc_check_index_range(k, idx, axis, s);
    if (st || n == 0) return st;

    /* n > 0 and every index passed osc_check_index_range, so data has no zero dim: its strides
     * cannot overflow. Block by block of the index tensor, each element one typed move. */
    osc_elem_walk w;
    if (!osc_elem_walk_init(&w, data, idx, axis))
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'data' (%s) has more than 2^63-1 elements",
                         osc_kinput_name(k, 0));
    const osc_elem_fn loop = osc_ge_loop(data->dtype, idx->dtype, w.axis_last);
    if (!loop) /* validate() accepted only standard dtypes, which all have a loop */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'data' (%s) has dtype %s, not "
                         "supported by this op", osc_kinput_name(k, 0),
                         osc_dtype_get(data->dtype)->name);
    const size_t esize = osc_dtype_get(data->dtype)->bits / 8;
    const size_t isize = idx->dtype == OSC_INT32 ? sizeof(int32_t) : sizeof(int64_t);
    const int64_t per_block = w.block.rows * w.block.n;
    size_t data_bytes = 0;
    osc_dtype_bytes(data->dtype, osc_tensor_count(data), &data_bytes); /* checked above */
    osc_elem_block b = w.block;
    b.pf = data_bytes >= OSC_PREFETCH_MIN_BYTES ? OSC_PREFETCH_DIST : 0;
    int64_t base = 0;
    for (int64_t blk = 0, flat = 0; blk < w.blocks; blk++, flat += per_block) {
        b.dst = (char *)out->data + (size_t)flat * esize;
        b.src = (const char *)data->data + (size_t)base * esize;
        b.idx = (const char *)idx->data + (size_t)flat * isize;
        loop(&b); /* moves only: never fails */
        base = osc_elem_walk_next(&w);
    }
    return OSC_OK;
}
