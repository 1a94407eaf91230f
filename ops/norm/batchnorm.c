/* batchnorm.c: BatchNormalization. Inference: Y = (X - mean) / sqrt(var + epsilon) * scale + B
 * per channel (dim 1 of X; a rank-1 X is one channel). Versions 1, 6 and 7 with spatial = 0
 * take scale, B, mean and var of shape (C x D1 x ... x Dn), one value per element of a sample.
 * Before 14 the training mode is the 5-output form, refused here (is_test of 1 and 6 is
 * accepted and changes nothing: one output is the test mode). From 14, training_mode = 1 uses
 * the batch's own mean and population variance and may output the running statistics
 * (input * momentum + batch * (1 - momentum)). From 14 the statistics may have their own float
 * dtype, from 15 scale and B too. float and double compute in double, float16 and bfloat16 in
 * float, rounded once per element; the per-channel coefficients and batch statistics in double. */
#include <math.h>
#include <string.h>

#include "ops/elementwise/math_common.h"
#include "norm_common.h"

OSC_KERNEL_DECLARE(osc_bn)

typedef struct bn_params {
    double epsilon, momentum;
    bool spatial, training;
} bn_params;

static const char *const k_names[5] = {"X", "scale", "B", "mean", "var"};
static const char *const k_out_names[3] = {"Y", "running_mean", "running_var"};

osc_status osc_bn_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_v1[] = {"epsilon", "is_test", "momentum", "spatial", NULL};
    static const char *const k_v7[] = {"epsilon", "momentum", "spatial", NULL};
    static const char *const k_v9[] = {"epsilon", "momentum", NULL};
    static const char *const k_v14[] = {"epsilon", "momentum", "training_mode", NULL};
    const int64_t v = k->since_version;
    const char *const *known = v < 7 ? k_v1 : v < 9 ? k_v7 : v < 14 ? k_v9 : k_v14;
    osc_status st = osc_attr_known_legacy(k, node, known, v == 1);
    if (st) return st;
    bn_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    int64_t spatial = 1, training = 0, is_test = 0;
    st = osc_attr_float(k, node, "epsilon", (double)1e-5f, &p->epsilon);
    if (!st) st = osc_attr_float(k, node, "momentum", (double)0.9f, &p->momentum);
    if (!st) st = osc_attr_int(k, node, "spatial", 1, &spatial);
    if (!st) st = osc_attr_int(k, node, "is_test", 0, &is_test); /* either value: see above */
    if (!st) st = osc_attr_int(k, node, "training_mode", 0, &training);
    if (st) return st;
    if (training != 0 && training != 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'training_mode' = %lld; allowed: 0 or 1",
                         (long long)training);
    p->spatial = spatial != 0;
    p->training = training != 0;
    *params = p;
    return OSC_OK;
}

/* Shape facts of a validated node: chans parameter slots per sample, each applied to a run of
 * `run` consecutive elements; `outer` samples. */
typedef struct bn_geom {
    int64_t outer, chans, run;
} bn_geom;

static osc_status check_dtypes(osc_kctx *k, const osc_tensor *const *in) {
    /* which input each input's dtype must equal: before 14 all X's; 14: scale and B X's, var
     * mean's; 15: B scale's, var mean's */
    const int64_t v = k->since_version;
    const int32_t s1 = v >= 15 ? 1 : 0, s3 = v >= 14 ? 3 : 0;
    const int32_t same_as[5] = {0, s1, s1, s3, s3};
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < 5 && !st; i++)
        st = osc_ew_check_type(k, i, k_names[i], in[i], osc_kernel_types(k->row, i));
    for (int32_t i = 1; i < 5 && !st; i++)
        if (same_as[i] != i)
            st = osc_check_same_dtype(k, same_as[i], k_names[same_as[i]], in[same_as[i]], i,
                                      k_names[i], in[i]);
    return st;
}

/* infer's and run's checks; want[0..n_out-1] get the outputs' dtypes and shapes. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           int32_t n_out, osc_tensor *want, bn_geom *g) {
    const bn_params *p = k->params;
    char s[256], s2[256];
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < 5 && !st; i++) st = osc_need_input(k, in, n_in, i, k_names[i]);
    if (!st) st = check_dtypes(k, in);
    if (st) return st;
    const osc_tensor *x = in[0];
    if (x->rank < 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) is a scalar; it must have rank >= 1 "
                         "(N x C x D1 x ... x Dn)", osc_kinput_name(k, 0));
    const int64_t c = x->rank >= 2 ? x->dims[1] : 1;
    int64_t inner = 1, slots = c;
    bool ok = true;
    for (int32_t d = 2; d < x->rank; d++) ok = ok && osc_mul_ok(inner, x->dims[d], &inner);
    if (!p->spatial) ok = ok && osc_mul_ok(c, inner, &slots);
    if (!ok)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s: its sample size "
                         "exceeds 2^63-1 elements", osc_kinput_name(k, 0),
                         osc_shape_str(x, s, sizeof s));
    for (int32_t i = 1; i < 5; i++) {
        const osc_tensor *t = in[i];
        const bool fits = p->spatial ? t->rank == 1 && t->dims[0] == c
                                     : osc_tensor_count(t) == slots;
        if (!fits)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s; X %s needs %s "
                             "%lld", (int)i, k_names[i], osc_kinput_name(k, i),
                             osc_shape_str(t, s, sizeof s), osc_shape_str(x, s2, sizeof s2),
                             p->spatial ? "shape [C] with C =" : "C x D1 x ... x Dn elements:",
                             (long long)(p->spatial ? c : slots));
    }
    if (n_out > 1 && !p->training)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "has %d outputs; %s", (int)n_out,
                         k->since_version >= 14
                             ? "outputs beyond Y exist only with training_mode = 1"
                             : "the training outputs (mean, var, saved_mean, saved_var) of "
                               "versions before 14 are not supported; only Y (test mode)");
    memset(want, 0, 3 * sizeof *want);
    osc_same_shape(&want[0], x);
    osc_same_shape(&want[1], in[3]);
    osc_same_shape(&want[2], in[4]);
    g->chans = slots;
    g->run = p->spatial ? inner : 1;
    g->outer = x->dims[0];
    return OSC_OK;
}

osc_status osc_bn_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    osc_tensor want[3];
    bn_geom g;
    osc_status st = osc_infer_out0(k, validate(k, in, n_in, n_out, want, &g), &want[0], out,
                                   n_out);
    for (int32_t j = 1; !st && j < n_out && j < 3; j++) osc_same_shape(&out[j], &want[j]);
    return st;
}

/* Channel c's batch mean and population variance (training mode), in double. */
static void batch_stats(const osc_tensor *x, const bn_geom *g, int64_t c, double *mean,
                        double *var) {
    double sum = 0, sq = 0;
    const int64_t cnt = g->outer * g->run;
    for (int64_t b = 0; b < g->outer; b++)
        for (int64_t j = 0; j < g->run; j++) sum += osc_nc_get(x, (b * g->chans + c) * g->run + j);
    *mean = sum / (double)cnt;
    for (int64_t b = 0; b < g->outer; b++)
        for (int64_t j = 0; j < g->run; j++) {
            const double d = osc_nc_get(x, (b * g->chans + c) * g->run + j) - *mean;
            sq += d * d;
        }
    *var = sq / (double)cnt;
}

osc_status osc_bn_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                      int32_t n_out) {
    const bn_params *p = k->params;
    osc_tensor want[3];
    bn_geom g;
    osc_status st = validate(k, in, n_in, n_out, want, &g);
    for (int32_t i = 0; i < 5 && !st; i++) st = osc_check_buffer(k, "input", i, k_names[i], in[i]);
    for (int32_t j = 0; j < (n_out < 1 ? 1 : n_out) && !st; j++)
        st = osc_nc_check_out(k, out, n_out, j, k_out_names[j], &want[j]);
    if (st) return st;
    const osc_tensor *x = in[0];
    /* the channels' mean, scale and shift, then one pass over X */
    const size_t bytes = 3 * (size_t)g.chans * sizeof(double);
    double *m = k->alloc ? osc_malloc(k->alloc, bytes) : NULL;
    if (!m)
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes for the channels' "
                         "parameters", bytes);
    double *a = m + g.chans, *b = a + g.chans;
    for (int64_t c = 0; c < g.chans; c++) {
        double mean = osc_nc_get(in[3], c), var = osc_nc_get(in[4], c);
        if (p->training) {
            double bm, bv;
            batch_stats(x, &g, c, &bm, &bv);
            if (n_out > 1) osc_nc_set(&out[1], c, mean * p->momentum + bm * (1 - p->momentum));
            if (n_out > 2) osc_nc_set(&out[2], c, var * p->momentum + bv * (1 - p->momentum));
            mean = bm, var = bv;
        }
        m[c] = mean;
        a[c] = osc_nc_get(in[1], c) / sqrt(var + p->epsilon);
        b[c] = osc_nc_get(in[2], c);
    }
    osc_nc_affine_ch(&out[0], x, g.outer, g.chans, g.run, m, a, b);
    osc_free(k->alloc, m, bytes);
    return OSC_OK;
}
