/* rmsnorm.c: RMSNormalization (23). Each vector over dims [axis, rank) of X is divided by its
 * root mean square, RMS = sqrt(mean(X^2) + epsilon), then Y = Normalized * Scale, Scale
 * broadcast to X unidirectionally. Y has Scale's dtype, which may differ from X's. As the spec's
 * casts say, stage one (X^2, its mean, + epsilon, sqrt, X / RMS) is rounded at each step to the
 * dtype stash_type names (the mean's sum accumulated in double), Normalized is rounded to X's
 * dtype, and the product with Scale once to Y's. */
#include <math.h>
#include <string.h>

#include "ops/elementwise/minifloat.h"
#include "norm_common.h"

OSC_KERNEL_DECLARE(osc_rms)

typedef struct rms_params {
    int64_t axis;
    double epsilon; /* the float attribute, in the stash dtype */
    int32_t stash;  /* float, float16, double or bfloat16 */
} rms_params;

/* v rounded to nearest even in dtype s, one of the four float dtypes. */
static inline double stash_round(int32_t s, double v) {
    static const osc_mf_mode k_rne = {.saturate = false, .round = OSC_MF_RNE};
    switch (s) {
    case OSC_FLOAT: return (float)v;
    case OSC_DOUBLE: return v;
    default: return osc_mf_decode(osc_mf_get(s), osc_mf_from_double(osc_mf_get(s), v, &k_rne));
    }
}

/* Normalized values go through a buffer of this many doubles, between X's dtype and Y's. */
#define RMS_CHUNK 256

/* Per dtype: the RMS of a vector of n elements of X (stage one); its n elements divided by rms
 * and rounded to X's dtype, into nt; n elements of Y = nt * Scale, Scale's offset walked along
 * X's elements (w, coord, *off). */
typedef double (*rms_stat_fn)(const void *x, int64_t n, int32_t s, double eps);
typedef void (*rms_norm_fn)(double *nt, const void *x, int64_t n, int32_t s, double rms);
typedef void (*rms_scale_fn)(void *y, const double *nt, int64_t n, const void *sc,
                             const osc_nc_walk *w, int64_t *coord, int64_t *off);

#define LOOPS(E, T, CLS)                                                                    \
    static double stat_##E(const void *x, int64_t n, int32_t s, double eps) {               \
        const T *px = x;                                                                    \
        double sum = 0;                                                                     \
        for (int64_t j = 0; j < n; j++) {                                                   \
            const double v = stash_round(s, (double)OSC_NC_WIDEN_##CLS(px[j]));             \
            sum += stash_round(s, v * v);                                                   \
        }                                                                                   \
        const double ms = stash_round(s, stash_round(s, sum / (double)n) + eps);            \
        return stash_round(s, sqrt(ms));                                                    \
    }                                                                                       \
    static void norm_##E(double *nt, const void *x, int64_t n, int32_t s, double rms) {     \
        const T *px = x;                                                                    \
        for (int64_t j = 0; j < n; j++) {                                                   \
            const double v = stash_round(s, (double)OSC_NC_WIDEN_##CLS(px[j]));             \
            const T t = OSC_NC_NARROW_##CLS(T, stash_round(s, v / rms));                    \
            nt[j] = (double)OSC_NC_WIDEN_##CLS(t);                                          \
        }                                                                                   \
    }                                                                                       \
    static void scale_##E(void *y, const double *nt, int64_t n, const void *sc,             \
                          const osc_nc_walk *w, int64_t *coord, int64_t *off) {             \
        const T *ps = sc;                                                                   \
        T *py = y;                                                                          \
        for (int64_t j = 0; j < n; j++, osc_nc_step(w, w->rank, coord, off))                \
            py[j] = OSC_NC_NARROW_##CLS(T, nt[j] * (double)OSC_NC_WIDEN_##CLS(ps[*off]));   \
    }
OSC_FLOAT_TYPES(LOOPS)
#define ENTRY_STAT(E, T, CLS) [E] = stat_##E,
#define ENTRY_NORM(E, T, CLS) [E] = norm_##E,
#define ENTRY_SCALE(E, T, CLS) [E] = scale_##E,
static const rms_stat_fn k_stat[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY_STAT)};
static const rms_norm_fn k_norm[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY_NORM)};
static const rms_scale_fn k_scale[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY_SCALE)};

static const char *const k_names[2] = {"X", "scale"};

osc_status osc_rms_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"axis", "epsilon", "stash_type", NULL};
    osc_status st = osc_attr_known(k, node, k_known);
    if (st) return st;
    rms_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    int64_t stash = OSC_FLOAT;
    st = osc_attr_int(k, node, "axis", -1, &p->axis);
    if (!st) st = osc_attr_float(k, node, "epsilon", (double)1e-5f, &p->epsilon);
    if (!st) st = osc_attr_int(k, node, "stash_type", OSC_FLOAT, &stash);
    if (st) return st;
    if (stash != OSC_FLOAT && stash != OSC_FLOAT16 && stash != OSC_DOUBLE &&
        stash != OSC_BFLOAT16)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'stash_type' = %lld; allowed: %d "
                         "(float), %d (float16), %d (double) or %d (bfloat16)", (long long)stash,
                         OSC_FLOAT, OSC_FLOAT16, OSC_DOUBLE, OSC_BFLOAT16);
    p->stash = (int32_t)stash;
    p->epsilon = stash_round(p->stash, p->epsilon);
    *params = p;
    return OSC_OK;
}

/* infer's and run's checks: want gets Y's dtype and shape, *axis the first normalised dim, w
 * Scale's strides over X's dims. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, int32_t *axis, osc_nc_walk *w) {
    const rms_params *p = k->params;
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < 2 && !st; i++) {
        st = osc_need_input(k, in, n_in, i, k_names[i]);
        if (!st) st = osc_ew_check_type(k, i, k_names[i], in[i], osc_kernel_types(k->row, i));
    }
    if (st) return st;
    const osc_tensor *x = in[0];
    st = osc_nc_axis(k, x, "X", p->axis, axis);
    memset(w, 0, sizeof *w);
    if (!st) st = osc_nc_bcast_strides(k, x, 1, k_names[1], in[1], w->strides);
    if (st) return st;
    w->rank = x->rank;
    memcpy(w->dims, x->dims, sizeof w->dims);
    osc_same_shape(want, x);
    want->dtype = in[1]->dtype;
    return OSC_OK;
}

osc_status osc_rms_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                         int32_t n_out) {
    osc_tensor want;
    int32_t axis;
    osc_nc_walk w;
    return osc_infer_out0(k, validate(k, in, n_in, &want, &axis, &w), &want, out, n_out);
}

osc_status osc_rms_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                       int32_t n_out) {
    const rms_params *p = k->params;
    osc_tensor want;
    int32_t axis;
    osc_nc_walk w;
    osc_status st = validate(k, in, n_in, &want, &axis, &w);
    for (int32_t i = 0; i < 2 && !st; i++)
        st = osc_check_buffer(k, "input", i, k_names[i], in[i]);
    if (!st) st = osc_nc_check_out(k, out, n_out, 0, "Y", &want);
    if (st) return st;
    const osc_tensor *x = in[0];
    if (osc_tensor_count(x) == 0) return OSC_OK;
    const int64_t n = osc_nc_span(x, axis, x->rank), outer = osc_nc_span(x, 0, axis);
    const size_t xsz = osc_dtype_get(x->dtype)->bits / 8, ysz = osc_dtype_get(want.dtype)->bits / 8;
    const char *px = x->data;
    char *py = out[0].data;
    int64_t coord[OSC_MAX_RANK] = {0}, off = 0;
    double nt[RMS_CHUNK];
    /* Y may be X's buffer (same dtype): each chunk of X is read before its place is written */
    for (int64_t r = 0; r < outer; r++) {
        const double rms = k_stat[x->dtype](px, n, p->stash, p->epsilon);
        for (int64_t c = 0; c < n; c += RMS_CHUNK) {
            const int64_t cnt = n - c < RMS_CHUNK ? n - c : RMS_CHUNK;
            k_norm[x->dtype](nt, px + (size_t)c * xsz, cnt, p->stash, rms);
            k_scale[want.dtype](py + (size_t)c * ysz, nt, cnt, in[1]->data, &w, coord, &off);
        }
        px += (size_t)n * xsz, py += (size_t)n * ysz;
    }
    return OSC_OK;
}
