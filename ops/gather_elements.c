/* gather_elements.c: GatherElements-11/13: out[..i..] = data[.. indices[..i..] along axis ..]. */
#include <string.h>

#include "../runtime/dtype.h"
#include "ops.h"

static const char *const k_what[2] = {"data", "indices"};

osc_status osc_ge_check(osc_kctx *k, osc_node *node) {
    static const char *const k_known[] = {"axis", NULL};
    int64_t axis;
    osc_status st = osc_attr_known(k, node, k_known);
    if (!st) st = osc_attr_int(k, node, "axis", 0, &axis);
    if (st) return st;
    node->params.axis = axis;
    return OSC_OK;
}

/* Everything infer promises and run relies on; O(rank), so run repeats it rather than trust
 * that infer saw the same shapes. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           int32_t *axis_out) {
    char a[256];
    for (int32_t i = 0; i < 2; i++) {
        if (i >= n_in || !in[i])
            return osc_kfail(k, OSC_ERR_MODEL, "input %d '%s' is required but missing", i,
                             k_what[i]);
        if (osc_tensor_count(in[i]) < 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has an invalid shape %s "
                             "(rank %d, negative dim or more than 2^63-1 elements)", i,
                             k_what[i], osc_kinput_name(k, i), osc_shape_str(in[i], a, sizeof a),
                             (int)in[i]->rank);
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
    st = osc_norm_axis(k, k->node->params.axis, data->rank, &axis);
    if (st) return st;
    for (int32_t d = 0; d < data->rank; d++)
        if (d != axis && idx->dims[d] > data->dims[d])
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'indices' (%s) has size %lld in dim %d "
                             "but input 0 'data' (%s) has size %lld there; elements would be "
                             "read out of bounds", osc_kinput_name(k, 1),
                             (long long)idx->dims[d], (int)d, osc_kinput_name(k, 0),
                             (long long)data->dims[d]);
    *axis_out = axis;
    return OSC_OK;
}

osc_status osc_ge_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    int32_t axis;
    osc_status st = validate(k, in, n_in, &axis);
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    osc_same_shape(&out[0], in[1]);
    out[0].dtype = in[0]->dtype;
    return OSC_OK;
}

osc_status osc_ge_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                      int32_t n_out) {
    int32_t axis;
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
     * cannot overflow. step[d] moves the source offset with indices dim d (0 along axis: the index
     * supplies that coordinate); wrap[d] = step[d] * dims[d] <= data's count undoes a carry. */
    int64_t stride[OSC_MAX_RANK], step[OSC_MAX_RANK], wrap[OSC_MAX_RANK], c[OSC_MAX_RANK];
    if (!osc_row_strides(data, stride))
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'data' (%s) has more than 2^63-1 elements",
                         osc_kinput_name(k, 0));
    const int32_t r = data->rank;
    for (int32_t d = 0; d < r; d++) {
        step[d] = d == axis ? 0 : stride[d];
        wrap[d] = step[d] * idx->dims[d];
        c[d] = 0;
    }
    const size_t esize = osc_dtype_get(data->dtype)->bits / 8;
    char *o = out->data;
    const char *src = data->data;
    int64_t base = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = osc_index_at(idx, i);
        if (v < 0) v += s;
        memcpy(o + (size_t)i * esize, src + (size_t)(base + v * stride[axis]) * esize, esize);
        for (int32_t d = r - 1; d >= 0; d--) {
            base += step[d];
            if (++c[d] < idx->dims[d]) break;
            base -= wrap[d];
            c[d] = 0;
        }
    }
    return OSC_OK;
}
