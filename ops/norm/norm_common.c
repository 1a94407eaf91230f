/* norm_common.c: element access, output checks and the walked statistics the normalisation
 * kernels share. */
#include "norm_common.h"

#include <string.h>

#include "ops/elementwise/minifloat.h"

double osc_nc_get(const osc_tensor *t, int64_t i) {
    switch (t->dtype) {
    case OSC_FLOAT: return ((const float *)t->data)[i];
    case OSC_DOUBLE: return ((const double *)t->data)[i];
    case OSC_FLOAT16:
    case OSC_BFLOAT16: return osc_mf_decode(osc_mf_get(t->dtype), ((const uint16_t *)t->data)[i]);
    default: /* the float8 kinds: one byte each (the rows admit no other dtype) */
        return osc_mf_decode(osc_mf_get(t->dtype), ((const uint8_t *)t->data)[i]);
    }
}

void osc_nc_set(osc_tensor *t, int64_t i, double v) {
    static const osc_mf_mode k_rne = {.saturate = false, .round = OSC_MF_RNE};
    switch (t->dtype) {
    case OSC_FLOAT: ((float *)t->data)[i] = (float)v; break;
    case OSC_DOUBLE: ((double *)t->data)[i] = v; break;
    case OSC_FLOAT16:
    case OSC_BFLOAT16:
        ((uint16_t *)t->data)[i] = (uint16_t)osc_mf_from_double(osc_mf_get(t->dtype), v, &k_rne);
        break;
    default: /* the float8 kinds */
        ((uint8_t *)t->data)[i] = (uint8_t)osc_mf_from_double(osc_mf_get(t->dtype), v, &k_rne);
        break;
    }
}

int64_t osc_nc_span(const osc_tensor *t, int32_t from, int32_t to) {
    int64_t n = 1;
    for (int32_t d = from; d < to; d++) n *= t->dims[d];
    return n;
}

osc_status osc_nc_check_out(osc_kctx *k, const osc_tensor *out, int32_t n_out, int32_t i,
                            const char *what, const osc_tensor *want) {
    char a[256], b[256];
    if (i >= n_out || !out)
        return osc_kfail(k, OSC_ERR_MODEL, "output %d '%s' is required but missing", (int)i, what);
    const osc_tensor *o = &out[i];
    if (o->dtype != want->dtype || o->rank != want->rank ||
        memcmp(o->dims, want->dims, (size_t)want->rank * sizeof want->dims[0]) != 0)
        return osc_kfail(k, OSC_ERR_ARG, "output %d '%s' is %s %s but the inputs give %s %s",
                         (int)i, what, osc_dtype_get(o->dtype)->name,
                         osc_shape_str(o, a, sizeof a), osc_dtype_get(want->dtype)->name,
                         osc_shape_str(want, b, sizeof b));
    return osc_check_buffer(k, "output", i, what, o);
}

osc_status osc_nc_bcast_strides(osc_kctx *k, const osc_tensor *x, int32_t i, const char *what,
                                const osc_tensor *t, int64_t *st) {
    char a[256], b[256];
    const int32_t lead = x->rank - t->rank;
    int64_t s = 1;
    for (int32_t d = x->rank - 1; d >= 0; d--) {
        const int64_t td = d >= lead ? t->dims[d - lead] : 1;
        if (lead < 0 || (td != 1 && td != x->dims[d]))
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s, which does not "
                             "broadcast to input 0 'X' %s", (int)i, what, osc_kinput_name(k, i),
                             osc_shape_str(t, a, sizeof a), osc_shape_str(x, b, sizeof b));
        st[d] = td == 1 ? 0 : s;
        /* past 2^63 only when t is empty (a 0 dim is yet to come): then no stride is used */
        if (!osc_mul_ok(s, td, &s)) s = 0;
    }
    return OSC_OK;
}

/* Runs BODY for each element `at` the walk w visits from base: the innermost dim a plain loop,
 * the others an odometer. */
#define WALK(BODY)                                                                          \
    do {                                                                                    \
        int64_t coord_[OSC_MAX_RANK] = {0}, off_ = base;                                    \
        const int64_t n_ = w->dims[w->rank - 1], s_ = w->strides[w->rank - 1];              \
        do                                                                                  \
            for (int64_t j_ = 0; j_ < n_; j_++) {                                           \
                const int64_t at = off_ + j_ * s_;                                          \
                BODY;                                                                       \
            }                                                                               \
        while (osc_nc_step(w, w->rank - 1, coord_, &off_));                                 \
    } while (0)

typedef void (*moments_loop)(const void *x, int64_t base, const osc_nc_walk *w, double *mean,
                             double *var);
typedef void (*affine_loop)(void *y, const void *x, int64_t base, const osc_nc_walk *w, double m,
                            double a, double b);

#define LOOPS(E, T, CLS)                                                                    \
    static void mom_##E(const void *x, int64_t base, const osc_nc_walk *w, double *mean,    \
                        double *var) {                                                      \
        const T *px = x;                                                                    \
        double sum = 0, sq = 0, cnt = 1;                                                    \
        for (int32_t d = 0; d < w->rank; d++) cnt *= (double)w->dims[d];                    \
        WALK(sum += (double)OSC_NC_WIDEN_##CLS(px[at]));                                    \
        const double m = sum / cnt;                                                         \
        WALK(const double dv = (double)OSC_NC_WIDEN_##CLS(px[at]) - m; sq += dv * dv);      \
        *mean = m, *var = sq / cnt;                                                         \
    }                                                                                       \
    static void aff_##E(void *y, const void *x, int64_t base, const osc_nc_walk *w, double m, \
                        double a, double b) {                                               \
        typedef OSC_NC_WT_##CLS(T) ct;                                                      \
        const ct cm = (ct)m, ca = (ct)a, cb = (ct)b;                                        \
        const T *px = x;                                                                    \
        T *py = y;                                                                          \
        WALK(py[at] = OSC_NC_NARROW_##CLS(T, ((ct)OSC_NC_WIDEN_##CLS(px[at]) - cm) * ca + cb)); \
    }                                                                                       \
    static void affch_##E(void *y, const void *x, int64_t outer, int64_t chans, int64_t run,  \
                          const double *m, const double *a, const double *b) {              \
        typedef OSC_NC_WT_##CLS(T) ct;                                                      \
        const T *px = x;                                                                    \
        T *py = y;                                                                          \
        for (int64_t s = 0, at = 0; s < outer; s++)                                         \
            for (int64_t c = 0; c < chans; c++) {                                           \
                const ct cm = (ct)m[c], ca = (ct)a[c], cb = (ct)b[c];                       \
                for (int64_t j = 0; j < run; j++, at++) {                                   \
                    const ct v = ((ct)OSC_NC_WIDEN_##CLS(px[at]) - cm) * ca + cb;           \
                    py[at] = OSC_NC_NARROW_##CLS(T, v);                                     \
                }                                                                           \
            }                                                                               \
    }
OSC_FLOAT_TYPES(LOOPS)
#define ENTRY_MOM(E, T, CLS) [E] = mom_##E,
#define ENTRY_AFF(E, T, CLS) [E] = aff_##E,
static const moments_loop k_moments[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY_MOM)};
static const affine_loop k_affine[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY_AFF)};
typedef void (*affine_ch_loop)(void *y, const void *x, int64_t outer, int64_t chans, int64_t run,
                               const double *m, const double *a, const double *b);
#define ENTRY_AFFCH(E, T, CLS) [E] = affch_##E,
static const affine_ch_loop k_affine_ch[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY_AFFCH)};

void osc_nc_moments(const osc_tensor *x, int64_t base, const osc_nc_walk *w, double *mean,
                    double *var) {
    k_moments[x->dtype](x->data, base, w, mean, var);
}

void osc_nc_affine(osc_tensor *y, const osc_tensor *x, int64_t base, const osc_nc_walk *w,
                   double m, double a, double b) {
    k_affine[x->dtype](y->data, x->data, base, w, m, a, b);
}

void osc_nc_affine_ch(osc_tensor *y, const osc_tensor *x, int64_t outer, int64_t chans,
                      int64_t run, const double *m, const double *a, const double *b) {
    k_affine_ch[x->dtype](y->data, x->data, outer, chans, run, m, a, b);
}

osc_status osc_nc_axis(osc_kctx *k, const osc_tensor *x, const char *what, int64_t axis,
                       int32_t *out) {
    if (x->rank == 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 '%s' (%s) is a scalar (rank 0); this op "
                         "needs rank >= 1 for attribute 'axis'", what, osc_kinput_name(k, 0));
    return osc_norm_axis(k, axis, x->rank, out);
}
