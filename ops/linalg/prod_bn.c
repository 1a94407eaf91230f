/* prod_bn.c: a product's BatchNormalization epilogue (prod_bn.h). */
#include "prod_bn.h"

#include <math.h>

#include "core/kattr.h"
#include "ops/norm/norm_common.h" /* osc_nc_get: BatchNormalization's own reading */

static const char *const k_names[4] = {"scale", "B", "mean", "var"};

osc_status osc_prod_bn_prepare(osc_kctx *k, const osc_product_params *p,
                               const osc_tensor *const *in, int32_t n_in, int64_t chans,
                               osc_prod_bn *bn) {
    bn->m = NULL;
    if (!p->bn) return OSC_OK;
    char s[256];
    for (int32_t i = 0; i < 4; i++) {
        const int32_t at = OSC_PROD_BN_AT + i;
        osc_status st = osc_need_input(k, in, n_in, at, k_names[i]);
        if (st) return st;
        if (!(OSC_TS_FLOAT & OSC_TS(in[at]->dtype)) || osc_tensor_count(in[at]) != chans)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s, of the BatchNormalization "
                             "taken in) has dtype %s and shape %s; expected a float type and "
                             "%lld elements (one per output channel)", (int)at, k_names[i],
                             osc_kinput_name(k, at), osc_dtype_get(in[at]->dtype)->name,
                             osc_shape_str(in[at], s, sizeof s), (long long)chans);
        if ((st = osc_check_buffer(k, "input", at, k_names[i], in[at]))) return st;
    }
    bn->bytes = 3 * (size_t)chans * sizeof(double);
    bn->m = k->alloc ? osc_malloc(k->alloc, bn->bytes) : NULL;
    if (!bn->m)
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes for the normalisation's "
                         "channels", bn->bytes);
    bn->a = bn->m + chans, bn->b = bn->a + chans;
    const osc_tensor *const *t = in + OSC_PROD_BN_AT;
    for (int64_t c = 0; c < chans; c++) {
        bn->m[c] = osc_nc_get(t[2], c);
        bn->a[c] = osc_nc_get(t[0], c) / sqrt(osc_nc_get(t[3], c) + p->bn_eps);
        bn->b[c] = osc_nc_get(t[1], c);
    }
    return OSC_OK;
}

void osc_prod_bn_free(osc_kctx *k, osc_prod_bn *bn) {
    if (bn->m) osc_free(k->alloc, bn->m, bn->bytes);
    bn->m = NULL;
}

/* y[e] for e < n, its channel's parameters at m[e * ps] (ps 0: one channel; 1: a channel per
 * element) */
#define BN_RUN(T)                                                                             \
    OSC_AVX2_CLONES static void run_##T(T *y, int64_t n, const double *m, const double *a,      \
                                        const double *b, int64_t ps, bool relu) {             \
        for (int64_t e = 0; e < n; e++) {                                                     \
            const T v = (T)(((double)y[e] - m[e * ps]) * a[e * ps] + b[e * ps]);              \
            y[e] = relu && v < 0 ? (T)0 : v;                                                  \
        }                                                                                     \
    }
BN_RUN(float)
BN_RUN(double)

static void run(int32_t dtype, void *y, int64_t n, const osc_prod_bn *bn, int64_t c, int64_t ps,
                bool relu) {
    if (dtype == OSC_DOUBLE)
        run_double(y, n, bn->m + c, bn->a + c, bn->b + c, ps, relu);
    else
        run_float(y, n, bn->m + c, bn->a + c, bn->b + c, ps, relu);
}

void osc_prod_bn_run(int32_t dtype, void *y, int64_t n, const osc_prod_bn *bn, int64_t c,
                     bool relu) {
    run(dtype, y, n, bn, c, 0, relu);
}

typedef struct cols_job {
    int32_t dtype;
    char *y;
    int64_t rows, cols;
    const osc_prod_bn *bn;
    bool relu;
} cols_job;

static void cols_part(void *ctx, int32_t part, int32_t parts) {
    const cols_job *j = ctx;
    int64_t r0, r1;
    osc_par_range(j->rows, 1, part, parts, &r0, &r1);
    const size_t es = j->dtype == OSC_DOUBLE ? sizeof(double) : sizeof(float);
    for (int64_t r = r0; r < r1; r++)
        run(j->dtype, j->y + (size_t)(r * j->cols) * es, j->cols, j->bn, 0, 1, j->relu);
}

void osc_prod_bn_cols(osc_kctx *k, int32_t dtype, void *y, int64_t rows, int64_t cols,
                      const osc_prod_bn *bn, bool relu) {
    cols_job j = {.dtype = dtype, .y = y, .rows = rows, .cols = cols, .bn = bn, .relu = relu};
    const double bytes = (double)rows * (double)cols * (dtype == OSC_DOUBLE ? 8 : 4);
    const bool par = k->tpool && rows > 1 && bytes >= OSC_PAR_MIN_BYTES;
    osc_tpool_run(par ? k->tpool : NULL, cols_part, &j);
}
