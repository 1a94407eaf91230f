/* concat.c: Concat-4/11/13: join tensors along one axis. */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_concat)


osc_status osc_concat_init(osc_kctx *k, const osc_node *node, void **params) {
    _Static_assert(offsetof(osc_concat_params, axis) == 0, "osc_init_axis writes the first member");
    return osc_init_axis(k, node, 0, true, sizeof(osc_concat_params), params);
}

/* Every input has input 0's dtype and rank and its dims except along axis (aux: the int32_t
 * axis, normalised). Negative axes are accepted in every version (the text adds them at 11). */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    char a[256], b[256];
    int64_t count;
    if (n_in < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs at least one input");
    for (int32_t i = 0; i < n_in; i++) {
        osc_status st = osc_sh_need(k, in, n_in, i, "inputs");
        if (!st) st = osc_check_count(k, i, "inputs", in[i], &count);
        if (st) return st;
    }
    const osc_tensor *x = in[0];
    osc_status st = osc_sh_check_type(k, 0, "inputs", x, osc_kernel_types(k->row, 0));
    if (st) return st;
    if (x->rank < 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'inputs' (%s) has rank 0; scalars cannot be "
                         "concatenated", osc_kinput_name(k, 0));
    const osc_concat_params *p = k->params;
    int32_t axis;
    if ((st = osc_norm_axis(k, p->axis, x->rank, &axis))) return st;
    osc_same_shape(o, x);
    for (int32_t i = 1; i < n_in; i++) {
        const osc_tensor *t = in[i];
        if ((st = osc_check_same_dtype(k, 0, "inputs", x, i, "inputs", t))) return st;
        bool fits = t->rank == x->rank;
        for (int32_t d = 0; fits && d < x->rank; d++) fits = d == axis || t->dims[d] == x->dims[d];
        if (!fits)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d 'inputs' (%s) has shape %s but input 0 "
                             "(%s) has shape %s; they must match except in dim %d (axis)",
                             (int)i, osc_kinput_name(k, i), osc_shape_str(t, a, sizeof a),
                             osc_kinput_name(k, 0), osc_shape_str(x, b, sizeof b), (int)axis);
        if (!osc_add_ok(o->dims[axis], t->dims[axis], &o->dims[axis]))
            return osc_kfail(k, OSC_ERR_LIMIT, "the concatenated dim %d exceeds 2^63-1",
                             (int)axis);
    }
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output would have more than 2^63-1 elements");
    if (aux) *(int32_t *)aux = axis;
    return OSC_OK;
}

/* n rows of `size` bytes, contiguous at src, to dst every `stride` bytes. Rows of 4 to 16 bytes
 * (EdgeConv's [E, 3] points beside [E, 3] offsets) move as one value of that size, not by a
 * call to memcpy per row (5% of EdgeConv's layer went to those calls). */
#define CONCAT_ROWS(SIZE)                                                                  \
    for (int64_t r = 0; r < n; r++) memcpy(dst + (size_t)r * stride, src + (size_t)r * (SIZE), \
                                           (SIZE))
static void copy_rows(char *dst, size_t stride, const char *src, size_t size, int64_t n) {
    switch (size) {
        case 4: CONCAT_ROWS(4); break;
        case 8: CONCAT_ROWS(8); break;
        case 12: CONCAT_ROWS(12); break;
        case 16: CONCAT_ROWS(16); break;
        default: CONCAT_ROWS(size); break;
    }
}

static osc_status concat_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, const osc_tensor *want, const int32_t *aux) {
    const int32_t axis = *aux;
    /* Non-empty output: outer and inner below are factors of its count. Each outer row of the
     * output is input 0's row, then input 1's row, ... */
    int64_t outer = osc_dims_prod(want->dims, axis);
    int64_t inner = osc_dims_prod(want->dims + axis + 1, want->rank - axis - 1);
    unsigned bits = osc_sh_bits(want->dtype);
    int64_t o = 0;
    /* one block per input (a concatenation along the first non-1 dim): whole copies, split
     * among the threads when large */
    if (outer == 1 && bits >= 8 && want->dtype != OSC_STRING) {
        for (int32_t i = 0; i < n_in; i++) {
            const size_t block = (size_t)(in[i]->dims[axis] * inner) * (bits / 8);
            if (block)
                osc_par_memcpy(k->tpool, (char *)out[0].data + (size_t)o * (bits / 8),
                               in[i]->data, block);
            o += in[i]->dims[axis] * inner;
        }
        return OSC_OK;
    }
    if (bits >= 8 && want->dtype != OSC_STRING) { /* each input's rows, at its offset */
        const size_t es = bits / 8, stride = (size_t)(want->dims[axis] * inner) * es;
        for (size_t i = 0, at = 0; i < (size_t)n_in; i++) {
            const size_t size = (size_t)(in[i]->dims[axis] * inner) * es;
            if (size) copy_rows((char *)out[0].data + at, stride, in[i]->data, size, outer);
            at += size;
        }
        return OSC_OK;
    }
    for (int64_t r = 0; r < outer; r++)
        for (int32_t i = 0; i < n_in; i++) {
            int64_t block = in[i]->dims[axis] * inner;
            if (block) osc_copy_elems(out[0].data, o, in[i]->data, r * block, block, bits);
            o += block;
        }
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_concat, geometry, concat_write, int32_t)
