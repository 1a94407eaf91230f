/* expand.c: Expand (broadcast to a shape) and Tile (repeat along each dim): strided copies. */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_expand)
OSC_KERNEL_DECLARE(osc_tile)

static osc_status no_attrs(osc_kctx *k, const osc_node *node) {
    static const char *const none[] = {NULL};
    return osc_attr_known(k, node, none);
}

/* ---- Expand-8/13 ---- */

osc_status osc_expand_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    return no_attrs(k, node);
}

static osc_status expand_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                  osc_tensor *o, void *aux) {
    (void)aux; /* none */
    int64_t count, s[OSC_MAX_RANK];
    int32_t n;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "input", &count);
    if (!st) st = osc_sh_need(k, in, n_in, 1, "shape");
    if (!st) st = osc_sh_read_ints(k, 1, "shape", in[1], false, false, OSC_MAX_RANK, s, &n);
    if (st) return st;
    const osc_tensor *x = in[0];
    int32_t r = x->rank > n ? x->rank : n;
    memset(o, 0, sizeof *o);
    o->dtype = x->dtype;
    o->rank = r;
    /* numpy broadcasting, dims aligned on the right */
    for (int32_t i = 0; i < r; i++) {
        int32_t ix = i - (r - x->rank), is = i - (r - n);
        int64_t a = ix >= 0 ? x->dims[ix] : 1, b = is >= 0 ? s[is] : 1;
        if (b < 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'shape' (%s): value %lld at position %d "
                             "is out of range [0, 2^63-1]", osc_kinput_name(k, 1), (long long)b,
                             (int)is);
        if (a != b && a != 1 && b != 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'shape' (%s): value %lld at position %d "
                             "does not broadcast with dim %d of input 0 'input' (%s), size %lld; "
                             "they must be equal or one of them 1", osc_kinput_name(k, 1),
                             (long long)b, (int)is, (int)ix, osc_kinput_name(k, 0), (long long)a);
        o->dims[i] = a == 1 ? b : a;
    }
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output would have more than 2^63-1 elements");
    return OSC_OK;
}

static osc_status expand_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, const osc_tensor *want,
                               const osc_sh_none *aux) {
    (void)aux, (void)k, (void)n_in;
    /* A non-empty output means a non-empty input, so the input's strides cannot overflow. A
     * broadcast dim (size 1 in the input, or absent) reads with stride 0. */
    const osc_tensor *x = in[0];
    int64_t xs[OSC_MAX_RANK], stride[OSC_MAX_RANK];
    osc_row_strides(x, xs);
    for (int32_t i = 0; i < want->rank; i++) {
        int32_t ix = i - (want->rank - x->rank);
        stride[i] = ix >= 0 && x->dims[ix] != 1 ? xs[ix] : 0;
    }
    osc_sh_copy_strided(out[0].data, x->data, osc_sh_bits(x->dtype), want->rank, want->dims,
                        stride, 0);
    return OSC_OK;
}

OSC_SH_KERNEL(osc_expand, expand_geometry, expand_write)

/* ---- Tile-6/13 ---- */

osc_status osc_tile_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    return no_attrs(k, node);
}

static osc_status tile_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                osc_tensor *o, void *aux) {
    (void)aux; /* none */
    int64_t count, rep[OSC_MAX_RANK];
    int32_t n;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "input", &count);
    if (!st) st = osc_sh_need(k, in, n_in, 1, "repeats");
    if (!st) st = osc_sh_read_ints(k, 1, "repeats", in[1], false, false, OSC_MAX_RANK, rep, &n);
    if (st) return st;
    const osc_tensor *x = in[0];
    if (n != x->rank)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'repeats' (%s) has %d values but input 0 "
                         "'input' (%s) has rank %d; they must match", osc_kinput_name(k, 1),
                         (int)n, osc_kinput_name(k, 0), (int)x->rank);
    memset(o, 0, sizeof *o);
    o->dtype = x->dtype;
    o->rank = n;
    for (int32_t i = 0; i < n; i++) {
        if (rep[i] < 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'repeats' (%s): value %lld at position "
                             "%d is out of range [0, 2^63-1]", osc_kinput_name(k, 1),
                             (long long)rep[i], (int)i);
        if (!osc_mul_ok(x->dims[i], rep[i], &o->dims[i]))
            return osc_kfail(k, OSC_ERR_LIMIT, "input 1 'repeats' (%s): value %lld at position "
                             "%d times dim size %lld exceeds 2^63-1", osc_kinput_name(k, 1),
                             (long long)rep[i], (int)i, (long long)x->dims[i]);
    }
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output would have more than 2^63-1 elements");
    return OSC_OK;
}

static osc_status tile_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, const osc_tensor *want,
                             const osc_sh_none *aux) {
    (void)aux, (void)k, (void)n_in;
    /* Output dim i is (repeat t, position j) with index t * d_i + j, so the row-major output is
     * the row-major walk of [r_0, d_0, r_1, d_1, ...] reading the input with strides
     * [0, s_0, 0, s_1, ...]. */
    const osc_tensor *x = in[0];
    int64_t xs[OSC_MAX_RANK], dims[2 * OSC_MAX_RANK], stride[2 * OSC_MAX_RANK];
    osc_row_strides(x, xs);
    for (int32_t i = 0; i < x->rank; i++) {
        dims[2 * i] = want->dims[i] / x->dims[i];
        dims[2 * i + 1] = x->dims[i];
        stride[2 * i] = 0;
        stride[2 * i + 1] = xs[i];
    }
    osc_sh_copy_strided(out[0].data, x->data, osc_sh_bits(x->dtype), 2 * x->rank, dims, stride,
                        0);
    return OSC_OK;
}

OSC_SH_KERNEL(osc_tile, tile_geometry, tile_write)
