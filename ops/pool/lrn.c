/* lrn.c: LRN (1, 13), local response normalisation across channels: y = x / (bias + alpha /
 * size * s)^beta, s the sum of the squares of x over the channels c - floor((size - 1) / 2) to
 * c + ceil((size - 1) / 2) that exist, at the same n and spatial position. Computed in double,
 * rounded once per element. */
#include <math.h>

#include "ops/norm/norm_common.h"
#include "pool.h"

OSC_KERNEL_DECLARE(osc_lrn)

typedef struct lrn_params {
    double alpha, beta, bias;
    int64_t size;
} lrn_params;

osc_status osc_lrn_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"alpha", "beta", "bias", "size", NULL};
    osc_status st = osc_attr_known(k, node, known);
    lrn_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (st || !p) return st ? st : k->err->status;
    st = osc_attr_float(k, node, "alpha", 0.0001, &p->alpha);
    if (!st) st = osc_attr_float(k, node, "beta", 0.75, &p->beta);
    if (!st) st = osc_attr_float(k, node, "bias", 1.0, &p->bias);
    if (!st) st = osc_attr_int(k, node, "size", 0, &p->size);
    if (st) return st;
    if (!osc_node_attr(node, "size"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'size' is required but missing");
    if (p->size < 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'size' = %lld; expected at least 1",
                         (long long)p->size);
    *params = p;
    return OSC_OK;
}

/* X of the row's dtypes and rank >= 2 (N, C, ...); want: its shape. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    osc_status st = osc_pl_check_x(k, in, n_in, 2);
    if (!st) osc_same_shape(want, in[0]);
    return st;
}

OSC_INFER_OUT0(osc_lrn, validate)

#define LRN_LOOP(E, T, CLS)                                                                   \
    static void lrn_##E(const lrn_params *p, const void *xv, void *yv, int64_t n, int64_t c,  \
                        int64_t inner) {                                                      \
        const T *x = xv;                                                                      \
        T *y = yv;                                                                            \
        const int64_t before = (p->size - 1) / 2, after = p->size - 1 - before;               \
        const double scale = p->alpha / (double)p->size;                                      \
        for (int64_t b = 0; b < n; b++)                                                       \
            for (int64_t ch = 0; ch < c; ch++) {                                              \
                const int64_t c0 = ch - before < 0 ? 0 : ch - before;                         \
                const int64_t c1 = ch > c - 1 - after ? c - 1 : ch + after;                   \
                const T *xb = x + b * c * inner;                                              \
                for (int64_t i = 0; i < inner; i++) {                                         \
                    double s = 0;                                                             \
                    for (int64_t q = c0; q <= c1; q++) {                                      \
                        const double v = (double)OSC_PL_WIDEN_##CLS(xb[q * inner + i]);       \
                        s += v * v;                                                           \
                    }                                                                         \
                    const double v = (double)OSC_PL_WIDEN_##CLS(xb[ch * inner + i]);          \
                    y[(b * c + ch) * inner + i] =                                             \
                        OSC_PL_NARROW_##CLS(T, v / pow(p->bias + scale * s, p->beta));        \
                }                                                                             \
            }                                                                                 \
    }
OSC_FLOAT_TYPES(LRN_LOOP)
typedef void (*lrn_loop)(const lrn_params *p, const void *x, void *y, int64_t n, int64_t c,
                         int64_t inner);
#define LRN_ENTRY(E, T, CLS) [E] = lrn_##E,
static const lrn_loop k_loops[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(LRN_ENTRY)};

osc_status osc_lrn_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                       int32_t n_out) {
    osc_tensor want;
    osc_status st = validate(k, in, n_in, &want);
    if (!st) st = osc_check_buffer(k, "input", 0, "X", in[0]);
    if (!st) st = osc_nc_check_out(k, out, n_out, 0, "Y", &want);
    if (st || osc_tensor_count(&want) == 0) return st;
    const osc_tensor *x = in[0];
    k_loops[x->dtype](k->params, x->data, out[0].data, x->dims[0], x->dims[1],
                      osc_nc_span(x, 2, x->rank));
    return OSC_OK;
}
