/* layernorm.c: LayerNormalization (17). Each vector over dims [axis, rank) of X is
 * standardised with its mean and population variance, then Y = Normalized * Scale + B, Scale and
 * the optional B broadcast to X (unidirectionally). The optional outputs Mean and InvStdDev have
 * X's dims before `axis` and 1 from there, in the dtype `stash_type` names (1 float, 16 bfloat16).
 * The statistics are computed in double (more than stash_type's float asks) and rounded only
 * where stored; Y is computed in double for float and double and in float for float16 and
 * bfloat16, rounded once per element. */
#include <math.h>
#include <string.h>

#include "ops/elementwise/math_common.h"
#include "norm_common.h"

OSC_KERNEL_DECLARE(osc_ln)

typedef struct ln_params {
    int64_t axis;
    double epsilon;
    int32_t stash; /* OSC_FLOAT or OSC_BFLOAT16 */
} ln_params;

/* Walks X's elements in order, keeping the offsets of the broadcast Scale and B. */
typedef struct ln_walk {
    int32_t rank;
    int64_t dims[OSC_MAX_RANK], coord[OSC_MAX_RANK];
    int64_t st_s[OSC_MAX_RANK], st_b[OSC_MAX_RANK];
    int64_t off_s, off_b;
} ln_walk;

static inline void walk_next(ln_walk *w) {
    for (int32_t d = w->rank - 1; d >= 0; d--) {
        w->off_s += w->st_s[d], w->off_b += w->st_b[d];
        if (++w->coord[d] < w->dims[d]) return;
        w->off_s -= w->st_s[d] * w->dims[d], w->off_b -= w->st_b[d] * w->dims[d];
        w->coord[d] = 0;
    }
}

/* One vector per row of outer, n elements each; mean/inv (may be NULL) get the statistics. */
typedef void (*ln_loop)(void *y, const void *x, const void *s, const void *b, int64_t outer,
                        int64_t n, double eps, ln_walk *w, osc_tensor *mean, osc_tensor *inv);

#define LOOP(E, T, CLS)                                                                     \
    static void ln_##E(void *y, const void *x, const void *s, const void *b, int64_t outer, \
                       int64_t n, double eps, ln_walk *w, osc_tensor *mean, osc_tensor *inv) {  \
        typedef OSC_NC_WT_##CLS(T) ct;                                                      \
        const T *px = x, *ps = s, *pb = b;                                                  \
        T *py = y;                                                                          \
        for (int64_t r = 0; r < outer; r++, px += n, py += n) {                             \
            double sum = 0, sq = 0;                                                         \
            for (int64_t j = 0; j < n; j++) sum += (double)OSC_NC_WIDEN_##CLS(px[j]);       \
            const double m = sum / (double)n;                                               \
            for (int64_t j = 0; j < n; j++) {                                               \
                const double d = (double)OSC_NC_WIDEN_##CLS(px[j]) - m;                     \
                sq += d * d;                                                                \
            }                                                                               \
            const double is = 1 / sqrt(sq / (double)n + eps);                               \
            if (mean) osc_nc_set(mean, r, m);                                               \
            if (inv) osc_nc_set(inv, r, is);                                                \
            const ct cm = (ct)m, ci = (ct)is;                                               \
            for (int64_t j = 0; j < n; j++, walk_next(w)) {                                 \
                ct v = ((ct)OSC_NC_WIDEN_##CLS(px[j]) - cm) * ci *                          \
                       (ct)OSC_NC_WIDEN_##CLS(ps[w->off_s]);                                \
                if (pb) v += (ct)OSC_NC_WIDEN_##CLS(pb[w->off_b]);                          \
                py[j] = OSC_NC_NARROW_##CLS(T, v);                                          \
            }                                                                               \
        }                                                                                   \
    }
OSC_FLOAT_TYPES(LOOP)
#define ENTRY(E, T, CLS) [E] = ln_##E,
static const ln_loop k_loops[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY)};

static const char *const k_names[3] = {"X", "Scale", "B"};
static const char *const k_out_names[3] = {"Y", "Mean", "InvStdDev"};

osc_status osc_ln_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"axis", "epsilon", "stash_type", NULL};
    osc_status st = osc_attr_known(k, node, k_known);
    if (st) return st;
    ln_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    int64_t stash = 1;
    st = osc_attr_int(k, node, "axis", -1, &p->axis);
    if (!st) st = osc_attr_float(k, node, "epsilon", (double)1e-5f, &p->epsilon);
    if (!st) st = osc_attr_int(k, node, "stash_type", 1, &stash);
    if (st) return st;
    if (stash != OSC_FLOAT && stash != OSC_BFLOAT16)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'stash_type' = %lld; allowed: %d (float) "
                         "or %d (bfloat16)", (long long)stash, OSC_FLOAT, OSC_BFLOAT16);
    p->stash = (int32_t)stash;
    *params = p;
    return OSC_OK;
}

/* infer's and run's checks; want[0..2] get the outputs' dtypes and shapes, w the strides. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, int32_t *axis, ln_walk *w) {
    const ln_params *p = k->params;
    osc_status st = osc_need_input(k, in, n_in, 0, "X");
    if (!st) st = osc_need_input(k, in, n_in, 1, "Scale");
    if (!st) st = osc_ew_check_type(k, 0, "X", in[0], osc_kernel_types(k->row, 0));
    if (st) return st;
    const bool has_b = n_in > 2 && in[2];
    if (has_b) st = osc_need_input(k, in, n_in, 2, "B");
    for (int32_t i = 1; i < (has_b ? 3 : 2) && !st; i++)
        st = osc_check_same_dtype(k, 0, "X", in[0], i, k_names[i], in[i]);
    if (st) return st;
    const osc_tensor *x = in[0];
    st = osc_nc_axis(k, x, "X", p->axis, axis);
    memset(w, 0, sizeof *w);
    if (!st) st = osc_nc_bcast_strides(k, x, 1, k_names[1], in[1], w->st_s);
    if (!st && has_b) st = osc_nc_bcast_strides(k, x, 2, k_names[2], in[2], w->st_b);
    if (st) return st;
    w->rank = x->rank;
    memcpy(w->dims, x->dims, sizeof w->dims);
    memset(want, 0, 3 * sizeof *want);
    osc_same_shape(&want[0], x);
    for (int32_t j = 1; j < 3; j++) {
        osc_same_shape(&want[j], x);
        want[j].dtype = p->stash;
        for (int32_t d = *axis; d < x->rank; d++) want[j].dims[d] = 1;
    }
    return OSC_OK;
}

osc_status osc_ln_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    osc_tensor want[3];
    int32_t axis;
    ln_walk w;
    osc_status st = osc_infer_out0(k, validate(k, in, n_in, want, &axis, &w), &want[0], out,
                                   n_out);
    for (int32_t j = 1; !st && j < n_out && j < 3; j++) osc_same_shape(&out[j], &want[j]);
    return st;
}

osc_status osc_ln_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                      int32_t n_out) {
    const ln_params *p = k->params;
    osc_tensor want[3];
    int32_t axis;
    ln_walk w;
    osc_status st = validate(k, in, n_in, want, &axis, &w);
    const int32_t n_given = n_in > 2 && in[2] ? 3 : 2;
    for (int32_t i = 0; i < n_given && !st; i++)
        st = osc_check_buffer(k, "input", i, k_names[i], in[i]);
    for (int32_t j = 0; j < (n_out < 1 ? 1 : n_out) && !st; j++)
        st = osc_nc_check_out(k, out, n_out, j, k_out_names[j], &want[j]);
    if (st) return st;
    const osc_tensor *x = in[0];
    const int64_t outer = osc_tensor_count(&want[1]); /* X's dims before axis */
    const int64_t n = osc_tensor_count(x) ? osc_nc_span(x, axis, x->rank) : 0;
    if (outer == 0) return OSC_OK;
    k_loops[x->dtype](out[0].data, x->data, in[1]->data, n_given > 2 ? in[2]->data : NULL, outer,
                      n, p->epsilon, &w, n_out > 1 ? &out[1] : NULL, n_out > 2 ? &out[2] : NULL);
    return OSC_OK;
}
