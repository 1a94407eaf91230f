/* meanvar.c: MeanVarianceNormalization (9, 13): Y = (X - mean) / (sqrt(var) + 1e-9), the mean
 * and population variance taken over the dims of attribute `axes` (default [0, 2, 3]) for each
 * position of the other dims. The 1e-9 is the spec's function body's; the variance is the
 * mean of squared deviations (two passes in double, never negative), where the body's
 * E[X^2] - E[X]^2 can lose everything to cancellation. Y in double for float and double and in
 * float for float16 and bfloat16, rounded once per element. */
#include <math.h>
#include <string.h>

#include "ops/elementwise/math_common.h"
#include "ops/shape/shape_ops.h"
#include "norm_common.h"

OSC_KERNEL_DECLARE(osc_mvn)

typedef struct mvn_params {
    osc_sh_ints axes;
} mvn_params;

osc_status osc_mvn_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"axes", NULL};
    osc_status st = osc_attr_known(k, node, k_known);
    if (st) return st;
    mvn_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    st = osc_sh_attr_ints(k, node, "axes", false, &p->axes);
    if (st) return st;
    if (!p->axes.present) p->axes = (osc_sh_ints){.present = true, .n = 3, .v = {0, 2, 3}};
    *params = p;
    return OSC_OK;
}

/* The dims a group spans (red) and the dims that tell groups apart (keep). */
typedef struct mvn_geom {
    osc_nc_walk red, keep;
} mvn_geom;

/* infer's and run's checks; *want gets the output's dtype and shape, g the two walks. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, mvn_geom *g) {
    const mvn_params *p = k->params;
    osc_status st = osc_m_check_x(k, in, n_in, "X", osc_kernel_types(k->row, 0), 0, want);
    int64_t axes[2 * OSC_MAX_RANK], count;
    memcpy(axes, p->axes.v, sizeof axes);
    if (!st) st = osc_check_count(k, 0, "X", in[0], &count);
    if (!st) st = osc_sh_norm_axes(k, "attribute 'axes'", axes, p->axes.n, in[0]->rank);
    if (st) return st;
    const osc_tensor *x = in[0];
    bool reduced[OSC_MAX_RANK] = {false};
    for (int32_t i = 0; i < p->axes.n; i++) reduced[axes[i]] = true;
    memset(g, 0, sizeof *g);
    int64_t stride = 1;
    for (int32_t d = x->rank - 1; d >= 0; d--) {
        osc_nc_walk *w = reduced[d] ? &g->red : &g->keep;
        w->dims[w->rank] = x->dims[d], w->strides[w->rank++] = stride;
        stride *= count ? x->dims[d] : 1;
    }
    /* the walks were filled innermost first: reverse them; an empty one visits one element */
    osc_nc_walk *const walks[2] = {&g->red, &g->keep};
    for (int32_t t = 0; t < 2; t++) {
        osc_nc_walk *w = walks[t];
        for (int32_t i = 0, j = w->rank - 1; i < j; i++, j--) {
            const int64_t dd = w->dims[i], ss = w->strides[i];
            w->dims[i] = w->dims[j], w->strides[i] = w->strides[j];
            w->dims[j] = dd, w->strides[j] = ss;
        }
        if (w->rank == 0) w->rank = 1, w->dims[0] = 1, w->strides[0] = 0;
    }
    return OSC_OK;
}

OSC_INFER_OUT0_AUX(osc_mvn, validate, mvn_geom)

osc_status osc_mvn_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                       int32_t n_out) {
    static const char *const names[1] = {"X"};
    osc_tensor want;
    mvn_geom g;
    osc_status st = validate(k, in, n_in, &want, &g);
    if (!st) st = osc_ew_check_io(k, in, 1, names, out, n_out, &want);
    if (st || osc_tensor_count(in[0]) == 0) return st;
    int64_t coord[OSC_MAX_RANK] = {0}, base = 0;
    do {
        double mean, var;
        osc_nc_moments(in[0], base, &g.red, &mean, &var);
        osc_nc_affine(out, in[0], base, &g.red, mean, 1 / (sqrt(var) + 1e-9), 0);
    } while (osc_nc_step(&g.keep, g.keep.rank, coord, &base));
    return OSC_OK;
}
