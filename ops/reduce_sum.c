/* reduce_sum.c: ReduceSum-1/11 (axes attribute) and ReduceSum-13 (axes input,
 * noop_with_empty_axes): sums over the chosen axes. */
#include <string.h>

#include "../runtime/core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_rsum)

/* Attributes init parses. */
typedef struct rsum_params {
    bool keepdims;
    bool noop;          /* noop_with_empty_axes (13) */
    osc_sh_ints axes;   /* the attribute before 13 */
} rsum_params;

osc_status osc_rsum_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const v1[] = {"axes", "keepdims", NULL};
    static const char *const v13[] = {"keepdims", "noop_with_empty_axes", NULL};
    bool v13p = k->since_version >= 13;
    rsum_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    osc_status st = osc_attr_known(k, node, v13p ? v13 : v1);
    if (!st) st = osc_sh_attr_bool(k, node, "keepdims", true, &p->keepdims);
    if (!st && v13p) st = osc_sh_attr_bool(k, node, "noop_with_empty_axes", false, &p->noop);
    if (!st && !v13p) st = osc_sh_attr_ints(k, node, "axes", false, &p->axes);
    if (!st) *params = p;
    return st;
}

/* Output shape, and which input dims are summed (none at all for the no-op case). */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, bool *red) {
    const rsum_params *p = k->params;
    int64_t count, axes[2 * OSC_MAX_RANK];
    int32_t n = 0;
    const char *what = "attribute 'axes'";
    osc_status st = osc_sh_need(k, in, n_in, 0, "data");
    if (!st) st = osc_sh_check_type(k, 0, "data", in[0], osc_kernel_types(k->row, 0));
    if (!st) st = osc_check_count(k, 0, "data", in[0], &count);
    if (st) return st;
    const osc_tensor *data = in[0];
    if (k->since_version < 13) {
        n = p->axes.n; /* init bounded it */
        if (n) memcpy(axes, p->axes.v, (size_t)n * sizeof *axes);
    } else if (osc_sh_in(in, n_in, 1)) {
        what = "input 1 'axes'";
        st = osc_sh_read_ints(k, 1, "axes", in[1], false, false, 2 * OSC_MAX_RANK, axes, &n);
    }
    if (!st) st = osc_sh_norm_axes(k, what, axes, n, data->rank);
    if (st) return st;
    /* no axes (absent or empty): all of them, unless noop_with_empty_axes (13) */
    bool noop = n == 0 && p->noop;
    for (int32_t d = 0; d < data->rank; d++) red[d] = n == 0 && !noop;
    for (int32_t i = 0; i < n; i++) red[axes[i]] = true;
    bool keep = p->keepdims;
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
#define RSUM_LOOP(T, CLS)                                                                     \
    for (int64_t e = 0; e < n_out_elems; e++) {                                               \
        ACC_##CLS(T) acc = 0;                                                                 \
        int64_t p = base;                                                                     \
        for (int32_t d = 0; d < nr; d++) ri[d] = 0;                                           \
        for (int64_t c = 0; c < n_red; c++) {                                                 \
            /* from the first element, so -0.0 stays */                                       \
            acc = c ? acc + LD_##CLS(T, p) : LD_##CLS(T, p);                                  \
            for (int32_t d = nr - 1; d >= 0; d--) {                                           \
                p += rs[d];                                                                   \
                if (++ri[d] < rn[d]) break;                                                   \
                p -= rs[d] * rn[d];                                                           \
                ri[d] = 0;                                                                    \
            }                                                                                 \
        }                                                                                     \
        ST_##CLS(T, e, acc);                                                                  \
        for (int32_t d = nk - 1; d >= 0; d--) {                                               \
            base += ks[d];                                                                    \
            if (++ki[d] < kn[d]) break;                                                       \
            base -= ks[d] * kn[d];                                                            \
            ki[d] = 0;                                                                        \
        }                                                                                     \
    }
#define ACC_FLOAT(T) T
#define ACC_F16(T) float
#define ACC_BF16(T) float
#define ACC_SINT(T) uint64_t
#define ACC_UINT(T) uint64_t
#define LD_FLOAT(T, p) (((const T *)xp)[p])
#define LD_F16(T, p) (osc_f16_to_f32(((const T *)xp)[p]))
#define LD_BF16(T, p) (osc_bf16_to_f32(((const T *)xp)[p]))
#define LD_SINT(T, p) ((uint64_t)(int64_t)((const T *)xp)[p])
#define LD_UINT(T, p) ((uint64_t)((const T *)xp)[p])
#define ST_FLOAT(T, e, s) (((T *)yp)[e] = (s))
#define ST_F16(T, e, s) (((T *)yp)[e] = osc_f32_to_f16(s))
#define ST_BF16(T, e, s) (((T *)yp)[e] = osc_f32_to_bf16(s))
#define ST_SINT(T, e, s) (((T *)yp)[e] = (T)(s))
#define ST_UINT(T, e, s) (((T *)yp)[e] = (T)(s))

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
#define RSUM_CASE(E, T, CLS)                                                                  \
    case E: RSUM_LOOP(T, CLS) break;
    switch (x->dtype) {
        OSC_REAL_TYPES(RSUM_CASE)
    default: /* geometry admitted only real number types */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'data' has dtype %s",
                         osc_dtype_get(x->dtype)->name);
    }
#undef RSUM_CASE
    return OSC_OK;
}
