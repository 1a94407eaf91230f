/* pool_geom.c: the attributes of the windowed pools (MaxPool, AveragePool, LpPool) by version,
 * and their geometry: each output size from the input size, the kernel, strides, dilations and
 * pads (explicit or auto_pad), ceil_mode dropping a last window that would start in the right
 * padding, as the spec says. */
#include <string.h>

#include "ops/shape/shape_ops.h"
#include "pool.h"

OSC_KERNEL_DECLARE(osc_wpool)

/* The attributes the row's version has (the spec's Changelog). */
static void known_attrs(int32_t op, int64_t v, const char **known) {
    int n = 0;
    known[n++] = "auto_pad";
    known[n++] = "kernel_shape";
    known[n++] = "pads";
    known[n++] = "strides";
    if (op == OSC_POOL_MAX && v >= 8) known[n++] = "storage_order";
    if (op == OSC_POOL_AVG && v >= 7) known[n++] = "count_include_pad";
    if (op == OSC_POOL_LP) known[n++] = "p";
    if ((op == OSC_POOL_MAX && v >= 10) || (op == OSC_POOL_AVG && v >= 10) ||
        (op == OSC_POOL_LP && v >= 18))
        known[n++] = "ceil_mode";
    if ((op == OSC_POOL_MAX && v >= 10) || (op == OSC_POOL_AVG && v >= 19) ||
        (op == OSC_POOL_LP && v >= 18))
        known[n++] = "dilations";
    known[n] = NULL;
}

osc_status osc_pl_attr_p(osc_kctx *k, const osc_node *node, double *p) {
    int64_t ip = 2;
    osc_status st = k->since_version == 1 ? osc_attr_float(k, node, "p", 2.0, p)
                                          : osc_attr_int(k, node, "p", 2, &ip);
    if (st) return st;
    if (k->since_version != 1) {
        if (ip < 1)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'p' = %lld; expected at least 1",
                             (long long)ip);
        *p = (double)ip;
    } else if (!(*p > 0) || *p > 1e300) {
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'p' = %g; expected a finite value above 0",
                         *p);
    }
    return OSC_OK;
}

/* The list attribute `name` of nd values, each at least lo; def when absent. */
static osc_status axis_list(osc_kctx *k, const osc_node *node, const char *name, int32_t nd,
                            int64_t lo, int64_t def, int64_t *v) {
    osc_sh_ints a;
    osc_status st = osc_sh_attr_ints(k, node, name, false, &a);
    if (st) return st;
    const int32_t want = strcmp(name, "pads") == 0 ? 2 * nd : nd;
    if (a.present && a.n != want)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' has %d values; expected %d (%s per "
                         "spatial axis of 'kernel_shape')", name, (int)a.n, (int)want,
                         want == nd ? "one" : "a begin and an end");
    for (int32_t d = 0; d < want; d++) {
        v[d] = a.present ? a.v[d] : def;
        if (v[d] < lo)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' value %d is %lld; expected at "
                             "least %lld", name, (int)d, (long long)v[d], (long long)lo);
    }
    return OSC_OK;
}

static osc_status flag(osc_kctx *k, const osc_node *node, const char *name, bool *out) {
    return osc_sh_attr_bool(k, node, name, false, out);
}

osc_status osc_wpool_init(osc_kctx *k, const osc_node *node, void **params) {
    const char *known[12];
    osc_pl_params a;
    memset(&a, 0, sizeof a);
    a.op = k->row->variant;
    if (a.op < OSC_POOL_MAX || a.op >= OSC_POOL_END)
        return osc_kfail(k, OSC_ERR_MODEL, "row has no pooling operation (.variant %d)",
                         (int)a.op);
    known_attrs(a.op, k->since_version, known);
    osc_sh_ints ks;
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_sh_attr_ints(k, node, "kernel_shape", true, &ks);
    if (!st) st = osc_attr_auto_pad(k, node, &a.auto_pad);
    if (!st) st = flag(k, node, "ceil_mode", &a.ceil_mode);
    if (!st) st = flag(k, node, "count_include_pad", &a.count_include_pad);
    if (!st) st = flag(k, node, "storage_order", &a.storage_order);
    if (!st && a.op == OSC_POOL_LP) st = osc_pl_attr_p(k, node, &a.p);
    if (st) return st;
    a.nd = ks.n;
    if (a.nd < 1 || a.nd > OSC_POOL_MAX_ND)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'kernel_shape' has %d values; expected 1 "
                         "to %d (one per spatial axis)", (int)a.nd, OSC_POOL_MAX_ND);
    for (int32_t d = 0; d < a.nd; d++) {
        a.kernel[d] = ks.v[d];
        if (ks.v[d] < 1)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'kernel_shape' value %d is %lld; "
                             "expected at least 1", (int)d, (long long)ks.v[d]);
    }
    st = axis_list(k, node, "strides", a.nd, 1, 1, a.strides);
    if (!st) st = axis_list(k, node, "dilations", a.nd, 1, 1, a.dilations);
    if (!st) st = axis_list(k, node, "pads", a.nd, 0, 0, a.pads);
    if (st) return st;
    for (int32_t d = 0; d < 2 * a.nd && a.auto_pad != OSC_AUTO_PAD_NOTSET; d++)
        if (a.pads[d] != 0)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'pads' value %d is %lld with auto_pad "
                             "'%s'; explicit pads need auto_pad NOTSET", (int)d,
                             (long long)a.pads[d], osc_auto_pad_name(a.auto_pad));
    osc_pl_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    *p = a;
    *params = p;
    return OSC_OK;
}

osc_status osc_pl_check_x(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            int32_t min_rank) {
    char s[256];
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "X", &count);
    if (st) return st;
    if (in[0]->rank < min_rank)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s; expected rank at "
                         "least %d (N, C and the spatial axes)", osc_kinput_name(k, 0),
                         osc_shape_str(in[0], s, sizeof s), (int)min_rank);
    return OSC_OK;
}

/* Axis d's pads and output size; false when a size overflows int64. *fits false when the
 * window (ek elements) is larger than the padded input. */
static bool axis_geom(const osc_pl_params *p, int32_t d, int64_t in, osc_pl_geom *g,
                      bool *fits) {
    const int64_t s = p->strides[d];
    int64_t ek, pb = p->pads[d], pe = p->pads[p->nd + d], span;
    if (!osc_mul_ok(p->kernel[d] - 1, p->dilations[d], &ek) || !osc_add_ok(ek, 1, &ek))
        return false;
    if (p->auto_pad == OSC_AUTO_PAD_SAME_UPPER || p->auto_pad == OSC_AUTO_PAD_SAME_LOWER) {
        const int64_t r = in % s; /* the shape inference of the spec's reference */
        int64_t total = ek - (r == 0 ? s : r);
        if (total < 0) total = 0;
        pb = p->auto_pad == OSC_AUTO_PAD_SAME_UPPER ? total / 2 : total - total / 2;
        pe = total - pb;
    }
    g->pb[d] = pb;
    g->pe[d] = pe;
    g->in[d] = in;
    if (!osc_add_ok(in, pb, &span) || !osc_add_ok(span, pe, &span)) return false;
    *fits = span >= ek;
    if (!*fits) return true;
    int64_t n = (span - ek) / s; /* both >= 0 */
    if (p->ceil_mode && (span - ek) % s != 0) n++;
    n++;
    /* the last window must start inside the input or its left padding */
    const int64_t lead = in + pb; /* (n - 1) * s >= lead, without the product */
    if (p->ceil_mode && n - 1 >= lead / s + (lead % s != 0)) n--;
    g->out[d] = n;
    return true;
}

osc_status osc_pl_geometry(osc_kctx *k, const osc_pl_params *p, const osc_tensor *const *in,
                             int32_t n_in, osc_pl_geom *g, osc_tensor *want) {
    char s[256];
    osc_status st = osc_pl_check_x(k, in, n_in, 1);
    if (st) return st;
    const osc_tensor *x = in[0];
    if (x->rank != p->nd + 2)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s; expected rank %d "
                         "(N, C and the %d spatial axes of 'kernel_shape')",
                         osc_kinput_name(k, 0), osc_shape_str(x, s, sizeof s), (int)(p->nd + 2),
                         (int)p->nd);
    g->nd = p->nd;
    osc_same_shape(want, x);
    for (int32_t d = 0; d < p->nd; d++) {
        bool fits = true;
        if (!axis_geom(p, d, x->dims[d + 2], g, &fits))
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s: spatial axis %d "
                             "with its pads and window passes 2^63-1", osc_kinput_name(k, 0),
                             osc_shape_str(x, s, sizeof s), (int)d);
        if (!fits)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s: spatial axis %d "
                             "(size %lld, pads %lld and %lld) is smaller than the window "
                             "(kernel %lld, dilation %lld); expected at least the window",
                             osc_kinput_name(k, 0), osc_shape_str(x, s, sizeof s), (int)d,
                             (long long)x->dims[d + 2], (long long)g->pb[d],
                             (long long)g->pe[d], (long long)p->kernel[d],
                             (long long)p->dilations[d]);
        want->dims[d + 2] = g->out[d];
    }
    if (osc_tensor_count(want) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output %s would have more than 2^63-1 elements",
                         osc_shape_str(want, s, sizeof s));
    return OSC_OK;
}
