/* groupnorm.c: InstanceNormalization (1, 6, 22) and GroupNormalization (18, 21). X is
 * (N x C x D1 x ... x Dn); each sample's C channels form G groups of C/G consecutive channels
 * (InstanceNormalization: G = C, one channel each), each group standardised with its own mean
 * and population variance: y = (x - mean) / sqrt(var + epsilon) * scale + bias. scale and bias
 * hold one value per channel, except in GroupNormalization-18: one per group. The statistics
 * are computed in double (more than GroupNormalization-21's stash_type asks); y in double for
 * float and double and in float for float16 and bfloat16, rounded once per element. */
#include <math.h>

#include "norm_common.h"

OSC_KERNEL_DECLARE(osc_gn)

typedef struct gn_params {
    double epsilon;
    int64_t groups;  /* GroupNormalization's num_groups; 0 for InstanceNormalization (G = C) */
    bool per_group;  /* scale and bias have one value per group (GroupNormalization-18) */
    const char *const *names;
} gn_params;

static const char *const k_in_names[3] = {"input", "scale", "B"};
static const char *const k_gn_names[3] = {"X", "scale", "bias"};

osc_status osc_gn_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_inst[] = {"epsilon", NULL};
    static const char *const k_v18[] = {"epsilon", "num_groups", NULL};
    static const char *const k_v21[] = {"epsilon", "num_groups", "stash_type", NULL};
    const int32_t op = k->row->variant;
    if (op < OSC_GN_INSTANCE || op >= OSC_GN_END)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "the row names no InstanceNormalization or "
                         "GroupNormalization (variant %d)", (int)op);
    const bool group = op == OSC_GN_GROUP;
    const int64_t v = k->since_version;
    osc_status st = osc_attr_known_legacy(k, node, !group ? k_inst : v < 21 ? k_v18 : k_v21,
                                          !group && v == 1);
    if (st) return st;
    gn_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    int64_t stash = OSC_FLOAT;
    st = osc_attr_float(k, node, "epsilon", (double)1e-5f, &p->epsilon);
    if (!st && group) st = osc_attr_int(k, node, "num_groups", 0, &p->groups);
    if (!st) st = osc_attr_int(k, node, "stash_type", OSC_FLOAT, &stash);
    if (st) return st;
    if (group && !osc_node_attr(node, "num_groups"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'num_groups' is required but missing");
    if (group && p->groups < 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'num_groups' = %lld; it must be >= 1",
                         (long long)p->groups);
    if (stash < 0 || stash > 63 || !(OSC_TS(stash) & OSC_TS_FLOAT))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'stash_type' = %lld; allowed: a float "
                         "dtype (1 float, 10 float16, 11 double, 16 bfloat16)", (long long)stash);
    p->per_group = group && v < 21;
    p->names = group ? k_gn_names : k_in_names;
    *params = p;
    return OSC_OK;
}

/* Shape facts of a validated node: n samples of c channels in g groups, s elements each. */
typedef struct gn_geom {
    int64_t n, c, g, s;
} gn_geom;

/* infer's and run's checks; *want gets the output's dtype and shape. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, gn_geom *g) {
    const gn_params *p = k->params;
    char a[256], b[256];
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < 3 && !st; i++) st = osc_need_input(k, in, n_in, i, p->names[i]);
    if (!st) st = osc_ew_check_type(k, 0, p->names[0], in[0], osc_kernel_types(k->row, 0));
    for (int32_t i = 1; i < 3 && !st; i++)
        st = osc_check_same_dtype(k, 0, p->names[0], in[0], i, p->names[i], in[i]);
    int64_t count;
    if (!st) st = osc_check_count(k, 0, p->names[0], in[0], &count);
    if (st) return st;
    const osc_tensor *x = in[0];
    if (x->rank < 2)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 '%s' (%s) has shape %s; it needs rank >= 2 "
                         "(N x C x D1 x ... x Dn)", p->names[0], osc_kinput_name(k, 0),
                         osc_shape_str(x, a, sizeof a));
    g->n = x->dims[0];
    g->c = x->dims[1];
    g->g = p->groups ? p->groups : g->c;
    g->s = count ? osc_nc_span(x, 2, x->rank) : 0;
    if (p->groups && g->c % p->groups != 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 '%s' (%s) has %lld channels (dim 1 of %s), "
                         "not a multiple of attribute 'num_groups' = %lld", p->names[0],
                         osc_kinput_name(k, 0), (long long)g->c, osc_shape_str(x, a, sizeof a),
                         (long long)p->groups);
    const int64_t len = p->per_group ? g->g : g->c;
    for (int32_t i = 1; i < 3; i++)
        if (in[i]->rank != 1 || in[i]->dims[0] != len)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s; X %s needs "
                             "shape [%lld] (one value per %s)", (int)i, p->names[i],
                             osc_kinput_name(k, i), osc_shape_str(in[i], a, sizeof a),
                             osc_shape_str(x, b, sizeof b), (long long)len,
                             p->per_group ? "group, attribute 'num_groups'" : "channel, dim 1");
    osc_same_shape(want, x);
    return OSC_OK;
}

OSC_INFER_OUT0_AUX(osc_gn, validate, gn_geom)

osc_status osc_gn_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                      int32_t n_out) {
    const gn_params *p = k->params;
    osc_tensor want;
    gn_geom g;
    osc_status st = validate(k, in, n_in, &want, &g);
    if (!st) st = osc_ew_check_io(k, in, 3, p->names, out, n_out, &want);
    if (st) return st;
    const int64_t per = g.g ? g.c / g.g : 0; /* channels per group */
    if (g.s == 0 || per == 0) return OSC_OK; /* no elements */
    const osc_nc_walk group = {.rank = 1, .dims = {per * g.s}, .strides = {1}};
    const osc_nc_walk chan = {.rank = 1, .dims = {g.s}, .strides = {1}};
    for (int64_t n = 0; n < g.n; n++)
        for (int64_t q = 0; q < g.g; q++) {
            const int64_t base = (n * g.c + q * per) * g.s;
            double mean, var;
            osc_nc_moments(in[0], base, &group, &mean, &var);
            const double inv = 1 / sqrt(var + p->epsilon);
            for (int64_t c = 0; c < per; c++) {
                const int64_t at = p->per_group ? q : q * per + c;
                osc_nc_affine(out, in[0], base + c * g.s, &chan, mean,
                              osc_nc_get(in[1], at) * inv, osc_nc_get(in[2], at));
            }
        }
    return OSC_OK;
}
