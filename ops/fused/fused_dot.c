/* fused_dot.c: RowDot (fused.h): the dot products of X's last axis with W's rows, in one pass
 * over X: no [.., n] product is written and read back. Each output adds its products in
 * ReduceSum's order (from the first), eight outputs at a time, each its own chain, as ReduceSum
 * runs along a last axis, so the bits are Mul's then ReduceSum's. */
#include <string.h>

#include "core/dtype.h"
#include "core/kattr.h"
#include "fused.h"

OSC_KERNEL_DECLARE(osc_row_dot)

/* X and W present, of one dtype (float or double), X's last dim n, W of w_count elements
 * whose rows X's rows cycle through; output 0 present. */
static osc_status check(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t n_out) {
    const osc_row_dot_params *p = k->params;
    char a[256], b[256];
    osc_status st = osc_need_input(k, in, n_in, 0, "X");
    if (!st) st = osc_need_input(k, in, n_in, 1, "W");
    if (st) return st;
    const osc_tensor *x = in[0], *w = in[1];
    const int64_t nx = osc_tensor_count(x);
    if ((x->dtype != OSC_FLOAT && x->dtype != OSC_DOUBLE) || w->dtype != x->dtype ||
        x->rank < 1 || x->dims[x->rank - 1] != p->n || osc_tensor_count(w) != p->w_count ||
        (nx && nx % p->w_count != 0))
        return osc_kfail(k, OSC_ERR_SHAPE, "inputs 0 'X' (%s, %s %s) and 1 'W' (%s, %s %s) do "
                         "not make the dot products the fusion was made for: float or double X "
                         "of last dim %lld, W of %lld elements whose rows X's rows cycle through",
                         osc_kinput_name(k, 0), osc_dtype_get(x->dtype)->name,
                         osc_shape_str(x, a, sizeof a), osc_kinput_name(k, 1),
                         osc_dtype_get(w->dtype)->name, osc_shape_str(w, b, sizeof b),
                         (long long)p->n, (long long)p->w_count);
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    return OSC_OK;
}

osc_status osc_row_dot_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out) {
    osc_status st = check(k, in, n_in, n_out);
    if (st) return st;
    const osc_row_dot_params *p = k->params;
    out->dtype = in[0]->dtype;
    out->rank = in[0]->rank - !p->keepdims;
    memcpy(out->dims, in[0]->dims, (size_t)out->rank * sizeof out->dims[0]);
    if (p->keepdims) out->dims[out->rank - 1] = 1;
    return OSC_OK;
}

typedef struct dot_job {
    const osc_row_dot_params *p;
    const void *x, *w;
    void *y;
    int64_t rows;
    bool dbl;
} dot_job;

/* Outputs [e0, e1): eight at a time, each its own chain of products added in order. */
#define DOT_ROWS(TN, T)                                                                     \
    static void dot_##TN(const dot_job *j, int64_t e0, int64_t e1) {                        \
        const int64_t n = j->p->n, wr = j->p->w_count / n;                                  \
        const T *x = j->x, *w = j->w;                                                       \
        T *y = j->y;                                                                        \
        int64_t e = e0;                                                                     \
        for (; e + 8 <= e1; e += 8) {                                                       \
            const T *r = x + e * n, *v[8];                                                  \
            T a[8];                                                                         \
            for (int k = 0; k < 8; k++) v[k] = w + (e + k) % wr * n;                        \
            for (int k = 0; k < 8; k++) a[k] = (T)(r[k * n] * v[k][0]);                     \
            for (int64_t i = 1; i < n; i++)                                                 \
                for (int k = 0; k < 8; k++)                                                 \
                    a[k] = (T)(a[k] + (T)(r[k * n + i] * v[k][i]));                         \
            for (int k = 0; k < 8; k++) y[e + k] = a[k];                                    \
        }                                                                                   \
        for (; e < e1; e++) {                                                               \
            const T *r = x + e * n, *v = w + e % wr * n;                                    \
            T a = (T)(r[0] * v[0]);                                                         \
            for (int64_t i = 1; i < n; i++) a = (T)(a + (T)(r[i] * v[i]));                  \
            y[e] = a;                                                                       \
        }                                                                                   \
    }
DOT_ROWS(f32, float)
DOT_ROWS(f64, double)

static void dot_part(void *ctx, int32_t part, int32_t parts) {
    const dot_job *j = ctx;
    int64_t e0, e1;
    osc_par_range(j->rows, 8, part, parts, &e0, &e1);
    if (j->dbl) dot_f64(j, e0, e1);
    else dot_f32(j, e0, e1);
}

osc_status osc_row_dot_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    osc_status st = check(k, in, n_in, n_out);
    if (st) return st;
    const osc_row_dot_params *p = k->params;
    const int64_t rows = osc_tensor_count(in[0]) / p->n;
    const size_t es = in[0]->dtype == OSC_DOUBLE ? 8 : 4;
    if (!out || out->dtype != in[0]->dtype || out->nbytes < (size_t)rows * es)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 cannot hold the %lld sums", (long long)rows);
    dot_job j = {.p = p, .x = in[0]->data, .w = in[1]->data, .y = out->data, .rows = rows,
                 .dbl = in[0]->dtype == OSC_DOUBLE};
    const bool par = k->tpool && (size_t)osc_tensor_count(in[0]) * es >= OSC_PAR_MIN_BYTES;
    osc_tpool_run(par ? k->tpool : NULL, dot_part, &j);
    return OSC_OK;
}
