/* reduce_sum.c: ReduceSum-1/11 (axes attribute) and ReduceSum-13 (axes input,
 * noop_with_empty_axes): sums over the chosen axes. */
#include <string.h>

#include "../runtime/core/dtype.h"
#include "shape_ops.h"

osc_status osc_rsum_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    static const char *const v1[] = {"axes", "keepdims", NULL};
    static const char *const v13[] = {"keepdims", "noop_with_empty_axes", NULL};
    bool v13p = k->since_version >= 13;
    osc_status st = osc_attr_known(k, node, v13p ? v13 : v1);
    if (!st) st = osc_sh_attr_bool(k, node, "keepdims");
    if (!st && v13p) st = osc_sh_attr_bool(k, node, "noop_with_empty_axes");
    if (!st && !v13p) st = osc_sh_attr_ints(k, node, "axes", false);
    return st;
}

static uint32_t rsum_types(int64_t ver) {
    uint32_t m = OSC_SH_BIT(OSC_UINT32) | OSC_SH_BIT(OSC_UINT64) | OSC_SH_BIT(OSC_INT32) |
                 OSC_SH_BIT(OSC_INT64) | OSC_SH_FLOAT3;
    if (ver >= 13) m |= OSC_SH_BIT(OSC_BFLOAT16);
    return m;
}

/* Output shape, and which input dims are summed (none at all for the no-op case). */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, bool *red) {
    int64_t count, axes[2 * OSC_MAX_RANK];
    int32_t n = 0;
    const char *what = "attribute 'axes'";
    osc_status st = osc_sh_need(k, in, n_in, 0, "data");
    if (!st) st = osc_sh_check_type(k, 0, "data", in[0], rsum_types(k->since_version));
    if (!st) st = osc_sh_count(k, 0, "data", in[0], &count);
    if (st) return st;
    const osc_tensor *data = in[0];
    if (k->since_version < 13) {
        const osc_attr *a = osc_node_attr(k->node, "axes");
        if (a && a->n) memcpy(axes, a->ints, a->n * sizeof *a->ints);
        n = a ? (int32_t)a->n : 0; /* check bounded it */
    } else if (osc_sh_in(in, n_in, 1)) {
        what = "input 1 'axes'";
        st = osc_sh_read_ints(k, 1, "axes", in[1], false, false, 2 * OSC_MAX_RANK, axes, &n);
    }
    if (!st) st = osc_sh_norm_axes(k, what, axes, n, data->rank);
    if (st) return st;
    /* no axes (absent or empty): all of them, unless noop_with_empty_axes (13) */
    bool noop = n == 0 && osc_sh_attr_i(k->node, "noop_with_empty_axes", 0) != 0;
    for (int32_t d = 0; d < data->rank; d++) red[d] = n == 0 && !noop;
    for (int32_t i = 0; i < n; i++) red[axes[i]] = true;
    bool keep = osc_sh_attr_i(k->node, "keepdims", 1) != 0;
    memset(o, 0, sizeof *o);
    o->dtype = data->dtype;
    for (int32_t d = 0; d < data->rank; d++)
        if (!red[d]) o->dims[o->rank++] = data->dims[d];
        else if (keep) o->dims[o->rank++] = 1;
    return OSC_OK;
}

osc_status osc_rsum_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    bool red[OSC_MAX_RANK];
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    return geometry(k, in, n_in, &out[0], red);
}

/* For each output element (kept dims, row-major) the reduced dims are walked with an odometer.
 * ACC accumulates in order: integers wrap in uint64_t; float in float and double in double;
 * float16/bfloat16 in float, rounded once per output element (numpy's rounding points for
 * half sums depend on memory layout, so this fixed rule is used instead). */
#define RSUM_LOOP(ACC, LOAD, STORE)                                                          \
    for (int64_t e = 0; e < n_out_elems; e++) {                                               \
        ACC acc = 0;                                                                          \
        int64_t p = base;                                                                     \
        for (int32_t d = 0; d < nr; d++) ri[d] = 0;                                           \
        for (int64_t c = 0; c < n_red; c++) {                                                 \
            acc = c ? acc + LOAD(p) : LOAD(p); /* from the first element, so -0.0 stays */ \
            for (int32_t d = nr - 1; d >= 0; d--) {                                           \
                p += rs[d];                                                                   \
                if (++ri[d] < rn[d]) break;                                                   \
                p -= rs[d] * rn[d];                                                           \
                ri[d] = 0;                                                                    \
            }                                                                                 \
        }                                                                                     \
        STORE(e, acc);                                                                        \
        for (int32_t d = nk - 1; d >= 0; d--) {                                               \
            base += ks[d];                                                                    \
            if (++ki[d] < kn[d]) break;                                                       \
            base -= ks[d] * kn[d];                                                            \
            ki[d] = 0;                                                                        \
        }                                                                                     \
    }

osc_status osc_rsum_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                        osc_tensor *out, int32_t n_out) {
    bool red[OSC_MAX_RANK];
    osc_tensor want;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = geometry(k, in, n_in, &want, red);
    if (!st) st = osc_sh_check_out(k, 0, &out[0], &want);
    if (!st) st = osc_sh_check_inputs(k, in, n_in);
    if (st) return st;
    const osc_tensor *x = in[0];
    const int64_t n_out_elems = osc_tensor_count(&want);
    if (n_out_elems == 0) return OSC_OK;
    /* Non-empty output: the kept dims are non-zero. A zero reduced dim makes every sum empty;
     * otherwise the input is non-empty and its strides cannot overflow. */
    int64_t xs[OSC_MAX_RANK], kn[OSC_MAX_RANK], ks[OSC_MAX_RANK], ki[OSC_MAX_RANK] = {0};
    int64_t rn[OSC_MAX_RANK], rs[OSC_MAX_RANK], ri[OSC_MAX_RANK], base = 0, n_red = 1;
    int32_t nk = 0, nr = 0;
    bool any = false;
    for (int32_t d = 0; d < x->rank; d++) {
        any |= red[d];
        if (red[d]) n_red *= x->dims[d] ? 1 : 0;
    }
    if (!any) { /* noop_with_empty_axes: the input itself, bit for bit */
        memcpy(out[0].data, x->data, out[0].nbytes);
        return OSC_OK;
    }
    if (n_red == 0) { /* every output is 0: all-zero bits for every type here */
        memset(out[0].data, 0, out[0].nbytes);
        return OSC_OK;
    }
    n_red = 1;
    osc_row_strides(x, xs);
    for (int32_t d = 0; d < x->rank; d++) {
        if (red[d]) {
            rn[nr] = x->dims[d];
            rs[nr++] = xs[d];
            n_red *= x->dims[d];
        } else {
            kn[nk] = x->dims[d];
            ks[nk++] = xs[d];
        }
    }
    const void *xp = x->data;
    void *yp = out[0].data;
#define LD_U32(p) ((uint64_t)((const uint32_t *)xp)[p])
#define ST_U32(e, s) (((uint32_t *)yp)[e] = (uint32_t)(s))
#define LD_I32(p) ((uint64_t)(int64_t)((const int32_t *)xp)[p])
#define ST_I32(e, s) (((int32_t *)yp)[e] = (int32_t)(uint32_t)(s))
#define LD_U64(p) (((const uint64_t *)xp)[p])
#define ST_U64(e, s) (((uint64_t *)yp)[e] = (s))
#define LD_I64(p) ((uint64_t)((const int64_t *)xp)[p])
#define ST_I64(e, s) (((int64_t *)yp)[e] = (int64_t)(s))
#define LD_F(p) (((const float *)xp)[p])
#define ST_F(e, s) (((float *)yp)[e] = (s))
#define LD_D(p) (((const double *)xp)[p])
#define ST_D(e, s) (((double *)yp)[e] = (s))
#define LD_H(p) (osc_f16_to_f32(((const uint16_t *)xp)[p]))
#define ST_H(e, s) (((uint16_t *)yp)[e] = osc_f32_to_f16(s))
#define LD_B(p) (osc_bf16_to_f32(((const uint16_t *)xp)[p]))
#define ST_B(e, s) (((uint16_t *)yp)[e] = osc_f32_to_bf16(s))
    switch (x->dtype) {
    case OSC_UINT32: RSUM_LOOP(uint64_t, LD_U32, ST_U32) break;
    case OSC_INT32: RSUM_LOOP(uint64_t, LD_I32, ST_I32) break;
    case OSC_UINT64: RSUM_LOOP(uint64_t, LD_U64, ST_U64) break;
    case OSC_INT64: RSUM_LOOP(uint64_t, LD_I64, ST_I64) break;
    case OSC_FLOAT: RSUM_LOOP(float, LD_F, ST_F) break;
    case OSC_DOUBLE: RSUM_LOOP(double, LD_D, ST_D) break;
    case OSC_FLOAT16: RSUM_LOOP(float, LD_H, ST_H) break;
    default: RSUM_LOOP(float, LD_B, ST_B) break;
    }
    return OSC_OK;
}
