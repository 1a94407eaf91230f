/* conv_attr.c: the attributes of Conv, ConvTranspose and DeformConv (init) and the checks of
 * their inputs, which give the output shape and the geometry run walks (validate, infer). */
#include <string.h>

#include "conv.h"
#include "ops/elementwise/ew_common.h"

OSC_KERNEL_DECLARE(osc_conv)

static const char *const k_what[3][5] = {{"X", "W", "B"},
                                         {"X", "W", "B"},
                                         {"X", "W", "offset", "B", "mask"}};

osc_status osc_conv_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[3][10] = {
        {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides", NULL},
        {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides", "output_padding",
         "output_shape", NULL},
        {"dilations", "group", "kernel_shape", "offset_group", "pads", "strides", NULL}};
    osc_conv_params a;
    memset(&a, 0, sizeof a);
    a.variant = k->row->variant;
    osc_status st = osc_attr_known(k, node, known[a.variant]);
    if (!st && a.variant != OSC_CONV_DEFORM) st = osc_attr_auto_pad(k, node, &a.auto_pad);
    if (!st) st = osc_attr_int(k, node, "group", 1, &a.group);
    if (!st) st = osc_attr_int(k, node, "offset_group", 1, &a.offset_group);
    if (!st) st = osc_sh_attr_ints(k, node, "kernel_shape", false, &a.kernel_shape);
    if (!st) st = osc_sh_attr_ints(k, node, "dilations", false, &a.dilations);
    if (!st) st = osc_sh_attr_ints(k, node, "pads", false, &a.pads);
    if (!st) st = osc_sh_attr_ints(k, node, "strides", false, &a.strides);
    if (!st) st = osc_sh_attr_ints(k, node, "output_padding", false, &a.output_padding);
    if (!st) st = osc_sh_attr_ints(k, node, "output_shape", false, &a.output_shape);
    if (st) return st;
    if (a.group < 1 || a.offset_group < 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' is %lld; expected at least 1",
                         a.group < 1 ? "group" : "offset_group",
                         (long long)(a.group < 1 ? a.group : a.offset_group));
    const struct {
        const char *name;
        const osc_sh_ints *v;
        int64_t min;
    } lists[] = {{"kernel_shape", &a.kernel_shape, 1}, {"dilations", &a.dilations, 1},
                 {"strides", &a.strides, 1},           {"pads", &a.pads, 0},
                 {"output_padding", &a.output_padding, 0}, {"output_shape", &a.output_shape, 0}};
    for (size_t j = 0; j < sizeof lists / sizeof lists[0]; j++)
        for (int32_t d = 0; d < lists[j].v->n; d++)
            if (lists[j].v->v[d] < lists[j].min)
                return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' value %d is %lld; expected "
                                 "at least %lld", lists[j].name, (int)d,
                                 (long long)lists[j].v->v[d], (long long)lists[j].min);
    osc_conv_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    *p = a;
    p->prod.size = sizeof *p;
    p->types = osc_kernel_types(k->row, 0);
    *params = p;
    return OSC_OK;
}

/* An attribute of nd values (per_axis 2: pads), or def when absent; fails on a wrong count. */
static osc_status per_axis(osc_kctx *k, const char *name, const osc_sh_ints *a, int32_t nd,
                           int32_t per, int64_t def, int64_t *out) {
    if (a->present && a->n != per * nd)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' has %d values; expected %d (%s "
                         "spatial axis of input 0 'X' (%s))", name, (int)a->n, (int)(per * nd),
                         per == 2 ? "a begin and an end per" : "one per", osc_kinput_name(k, 0));
    for (int32_t d = 0; d < per * nd; d++) out[d] = a->present ? a->v[d] : def;
    return OSC_OK;
}

/* Input i (optional ones may be absent): the op's dtype, a valid shape. */
static osc_status check_input(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              int32_t i, const char *what) {
    const osc_conv_params *p = k->params;
    osc_status st = osc_need_input(k, in, n_in, i, what);
    if (!st) st = i ? osc_check_same_dtype(k, 0, "X", in[0], i, what, in[i])
                    : osc_ew_check_type(k, 0, "X", in[0], p->types);
    return st;
}

/* Shape of input i must be dims[0..rank-1]. */
static osc_status check_shape(osc_kctx *k, int32_t i, const char *what, const osc_tensor *t,
                              const int64_t *dims, int32_t rank, const char *why) {
    bool ok = t->rank == rank;
    for (int32_t d = 0; ok && d < rank; d++) ok = t->dims[d] == dims[d];
    if (ok) return OSC_OK;
    char a[256], b[256];
    return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s; expected %s (%s)",
                     (int)i, what, osc_kinput_name(k, i), osc_shape_str(t, a, sizeof a),
                     osc_dims_str(dims, rank, b, sizeof b), why);
}

/* Output sizes and begin pads of Conv and DeformConv; eff: the dilated kernel. */
static osc_status forward_axes(osc_kctx *k, const osc_conv_params *p, osc_conv_geom *g,
                               const int64_t *pads, const int64_t *eff) {
    for (int32_t d = 0; d < g->nd; d++) {
        const int64_t in = g->in[d], s = g->stride[d];
        int64_t pb = pads[d], pe = pads[g->nd + d], padded;
        if (p->auto_pad == OSC_AUTO_PAD_VALID) {
            pb = pe = 0;
        } else if (p->auto_pad != OSC_AUTO_PAD_NOTSET) {
            const int64_t out = in / s + (in % s != 0);
            int64_t need = 0; /* (out - 1) * s + eff - in, at least 0 */
            if (out > 0 && (!osc_mul_ok(out - 1, s, &need) || !osc_add_ok(need, eff[d], &need)))
                return osc_kfail(k, OSC_ERR_LIMIT, "spatial axis %d: the padding SAME needs "
                                 "is past 2^63-1", (int)d);
            need = need > in ? need - in : 0;
            pb = p->auto_pad == OSC_AUTO_PAD_SAME_UPPER ? need / 2 : need - need / 2;
            pe = need - pb;
        }
        if (!osc_add_ok(in, pb, &padded) || !osc_add_ok(padded, pe, &padded))
            return osc_kfail(k, OSC_ERR_LIMIT, "spatial axis %d: input size %lld plus pads "
                             "%lld and %lld is past 2^63-1", (int)d, (long long)in,
                             (long long)pb, (long long)pe);
        if (padded < eff[d])
            return osc_kfail(k, OSC_ERR_SHAPE, "spatial axis %d (dim %d of input 0 'X' (%s)): "
                             "the kernel spans %lld elements (size %lld, dilation %lld) but the "
                             "padded input has %lld (size %lld, pads %lld and %lld); expected a "
                             "kernel span of at most the padded input", (int)d, (int)(d + 2),
                             osc_kinput_name(k, 0), (long long)eff[d], (long long)g->k[d],
                             (long long)g->dil[d], (long long)padded, (long long)in,
                             (long long)pb, (long long)pe);
        g->pad[d] = pb;
        g->out[d] = (padded - eff[d]) / s + 1;
    }
    return OSC_OK;
}

/* Output sizes and begin pads of ConvTranspose (the spec's formulas; floor division). */
static osc_status transpose_axes(osc_kctx *k, const osc_conv_params *p, osc_conv_geom *g,
                                 const int64_t *pads, const int64_t *eff) {
    int64_t opad[OSC_CONV_ND], shape[OSC_CONV_ND];
    osc_status st = per_axis(k, "output_padding", &p->output_padding, g->nd, 1, 0, opad);
    if (st) return st;
    const osc_sh_ints *os = &p->output_shape;
    const bool have_shape = os->present;
    if (have_shape && os->n != g->nd && os->n != g->nd + 2)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'output_shape' has %d values; expected "
                         "%d (one per spatial axis of input 0 'X' (%s))", (int)os->n,
                         (int)g->nd, osc_kinput_name(k, 0));
    for (int32_t d = 0; d < g->nd; d++) {
        if (opad[d] >= g->stride[d] && opad[d] >= g->dil[d])
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'output_padding' value %d is %lld; "
                             "expected less than the stride (%lld) or the dilation (%lld)",
                             (int)d, (long long)opad[d], (long long)g->stride[d],
                             (long long)g->dil[d]);
        /* full: stride * (in - 1) + output_padding + eff, the size without pads */
        int64_t full = 0;
        if (g->in[d] > 0 && !osc_mul_ok(g->stride[d], g->in[d] - 1, &full)) full = -1;
        if (full < 0 || !osc_add_ok(full, opad[d], &full) || !osc_add_ok(full, eff[d], &full))
            return osc_kfail(k, OSC_ERR_LIMIT, "spatial axis %d: the output size is past "
                             "2^63-1 (input size %lld, stride %lld)", (int)d,
                             (long long)g->in[d], (long long)g->stride[d]);
        const bool same = p->auto_pad == OSC_AUTO_PAD_SAME_UPPER || p->auto_pad == OSC_AUTO_PAD_SAME_LOWER;
        if (have_shape || same) {
            int64_t want;
            if (have_shape) want = os->v[os->n - g->nd + d];
            else if (!osc_mul_ok(g->in[d], g->stride[d], &want))
                return osc_kfail(k, OSC_ERR_LIMIT, "spatial axis %d: input size %lld times "
                                 "stride %lld is past 2^63-1", (int)d, (long long)g->in[d],
                                 (long long)g->stride[d]);
            const int64_t total = full - want; /* may be negative: zeros past the end */
            const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
            g->pad[d] = p->auto_pad == OSC_AUTO_PAD_SAME_UPPER ? half : total - half;
            g->out[d] = want;
            /* an output_shape past what the input reaches is refused beyond one stride */
            if (want < 0 || total < -g->stride[d])
                return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'output_shape' value %d is %lld; "
                                 "input 0 'X' (%s) with size %lld, stride %lld and kernel span "
                                 "%lld gives at most %lld on that axis", (int)d, (long long)want,
                                 osc_kinput_name(k, 0), (long long)g->in[d],
                                 (long long)g->stride[d], (long long)eff[d],
                                 (long long)(full + g->stride[d]));
            shape[d] = want;
        } else {
            const int64_t pb = p->auto_pad == OSC_AUTO_PAD_VALID ? 0 : pads[d];
            const int64_t pe = p->auto_pad == OSC_AUTO_PAD_VALID ? 0 : pads[g->nd + d];
            g->pad[d] = pb;
            shape[d] = full - pb - pe;
            if (shape[d] < 0)
                return osc_kfail(k, OSC_ERR_SHAPE, "spatial axis %d: pads %lld and %lld exceed "
                                 "the output size %lld; expected pads summing to at most that",
                                 (int)d, (long long)pb, (long long)pe, (long long)full);
            g->out[d] = shape[d];
        }
    }
    return OSC_OK;
}

osc_status osc_conv_validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *want, osc_conv_geom *g) {
    const osc_conv_params *p = k->params;
    const int32_t v = p->variant;
    const char *const *what = k_what[v];
    char a[256], b[256];
    memset(g, 0, sizeof *g);
    g->variant = v;
    osc_status st = OSC_OK;
    const int32_t n_req = v == OSC_CONV_DEFORM ? 3 : 2, n_all = v == OSC_CONV_DEFORM ? 5 : 3;
    for (int32_t i = 0; i < n_all && !st; i++)
        if (i < n_req || (i < n_in && in[i])) st = check_input(k, in, n_in, i, what[i]);
    if (st) return st;
    const osc_tensor *x = in[0], *w = in[1];
    if (x->rank < 3 || w->rank != x->rank)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s and input 1 'W' (%s) "
                         "shape %s; expected the same rank, at least 3 (N, C and 1 to %d "
                         "spatial axes)", osc_kinput_name(k, 0), osc_shape_str(x, a, sizeof a),
                         osc_kinput_name(k, 1), osc_shape_str(w, b, sizeof b), OSC_CONV_ND);
    const int32_t nd = x->rank - 2;
    g->nd = nd;
    g->n = x->dims[0];
    g->c = x->dims[1];
    g->group = p->group;
    g->og = p->offset_group;
    int64_t pads[2 * OSC_CONV_ND], eff[OSC_CONV_ND];
    st = per_axis(k, "dilations", &p->dilations, nd, 1, 1, g->dil);
    if (!st) st = per_axis(k, "strides", &p->strides, nd, 1, 1, g->stride);
    if (!st) st = per_axis(k, "pads", &p->pads, nd, 2, 0, pads);
    if (!st) st = per_axis(k, "kernel_shape", &p->kernel_shape, nd, 1, 1, g->k);
    if (st) return st;
    for (int32_t d = 0; d < nd; d++) {
        if (p->kernel_shape.present && g->k[d] != w->dims[d + 2])
            return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'kernel_shape' value %d is %lld but "
                             "input 1 'W' (%s) has shape %s; expected dim %d of W", (int)d,
                             (long long)g->k[d], osc_kinput_name(k, 1),
                             osc_shape_str(w, a, sizeof a), (int)(d + 2));
        g->k[d] = w->dims[d + 2];
        g->in[d] = x->dims[d + 2];
        if (g->k[d] < 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'W' (%s) has shape %s: dim %d is %lld; "
                             "expected a kernel size of at least 1", osc_kinput_name(k, 1),
                             osc_shape_str(w, a, sizeof a), (int)(d + 2), (long long)g->k[d]);
        if (!osc_mul_ok(g->k[d] - 1, g->dil[d], &eff[d]) || !osc_add_ok(eff[d], 1, &eff[d]))
            return osc_kfail(k, OSC_ERR_LIMIT, "spatial axis %d: kernel size %lld with dilation "
                             "%lld spans past 2^63-1", (int)d, (long long)g->k[d],
                             (long long)g->dil[d]);
    }
    const bool tr = v == OSC_CONV_TRANSPOSE;
    if (g->c % g->group != 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has %lld channels (dim 1 of %s); "
                         "attribute 'group' is %lld; expected a channel count divisible by the "
                         "groups", osc_kinput_name(k, 0), (long long)g->c,
                         osc_shape_str(x, a, sizeof a), (long long)g->group);
    g->cg = g->c / g->group;
    if (tr) {
        g->mg = w->dims[1];
        if (w->dims[0] != g->c || !osc_mul_ok(g->mg, g->group, &g->m))
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'W' (%s) has shape %s; expected dim 0 "
                             "%lld (the channels of input 0 'X' (%s)), W being [C, M/group, "
                             "k...]", osc_kinput_name(k, 1), osc_shape_str(w, a, sizeof a),
                             (long long)g->c, osc_kinput_name(k, 0));
    } else {
        g->m = w->dims[0];
        if (w->dims[1] != g->cg || g->m % g->group != 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'W' (%s) has shape %s; expected dim 1 "
                             "%lld (channels %lld of X / group %lld) and dim 0 divisible by the "
                             "group", osc_kinput_name(k, 1), osc_shape_str(w, a, sizeof a),
                             (long long)g->cg, (long long)g->c, (long long)g->group);
        g->mg = g->m / g->group;
    }
    st = tr ? transpose_axes(k, p, g, pads, eff) : forward_axes(k, p, g, pads, eff);
    if (st) return st;
    memset(want, 0, sizeof *want);
    want->dtype = x->dtype;
    want->rank = x->rank;
    want->dims[0] = g->n;
    want->dims[1] = g->m;
    memcpy(want->dims + 2, g->out, (size_t)nd * sizeof g->out[0]);
    g->in_size = osc_dims_prod(g->in, nd);
    g->out_size = osc_dims_prod(g->out, nd);
    g->k_size = osc_dims_prod(g->k, nd);
    int64_t cols, cols_t;
    if (osc_tensor_count(want) < 0 || g->out_size < 0 || !osc_mul_ok(g->cg, g->k_size, &cols) ||
        !osc_mul_ok(g->mg, g->k_size, &cols_t))
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'X' (%s) shape %s and input 1 'W' (%s) "
                         "shape %s give an output %s or a column count past 2^63-1",
                         osc_kinput_name(k, 0), osc_shape_str(x, a, sizeof a),
                         osc_kinput_name(k, 1), osc_shape_str(w, b, sizeof b),
                         osc_dims_str(want->dims, want->rank, a, sizeof a));
    const int32_t ib = v == OSC_CONV_DEFORM ? 3 : 2;
    g->has_b = ib < n_in && in[ib];
    if (g->has_b) {
        st = check_shape(k, ib, "B", in[ib], &g->m, 1, "one bias per output channel");
        if (st) return st;
    }
    if (v == OSC_CONV_DEFORM) {
        if (g->c % g->og != 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has %lld channels; attribute "
                             "'offset_group' is %lld; expected a channel count divisible by it",
                             osc_kinput_name(k, 0), (long long)g->c, (long long)g->og);
        int64_t dims[OSC_MAX_RANK] = {g->n, 0};
        memcpy(dims + 2, g->out, (size_t)nd * sizeof g->out[0]);
        if (!osc_mul_ok(g->og, g->k_size, &dims[1]) || !osc_mul_ok(dims[1], nd, &dims[1]))
            return osc_kfail(k, OSC_ERR_LIMIT, "offset_group times the kernel size is past "
                             "2^63-1");
        st = check_shape(k, 2, "offset", in[2], dims, x->rank,
                         "[N, offset_group * prod(kernel) * spatial axes, output sizes...]");
        g->has_mask = n_in > 4 && in[4];
        dims[1] = g->og * g->k_size;
        if (!st && g->has_mask)
            st = check_shape(k, 4, "mask", in[4], dims, x->rank,
                             "[N, offset_group * prod(kernel), output sizes...]");
        if (st) return st;
    }
    return OSC_OK;
}

OSC_INFER_OUT0_AUX(osc_conv, osc_conv_validate, osc_conv_geom)

osc_status osc_conv_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                        osc_tensor *out, int32_t n_out) {
    const osc_conv_params *p = k->params;
    osc_tensor want;
    osc_conv_geom g;
    osc_status st = osc_conv_validate(k, in, n_in, &want, &g);
    const int32_t n_own = g.variant == OSC_CONV_DEFORM ? 5 : 3; /* then a normalisation's */
    for (int32_t i = 0; i < n_in && i < n_own && !st; i++)
        if (in[i]) st = osc_check_buffer(k, "input", i, k_what[g.variant][i], in[i]);
    if (!st && n_out < 1) st = osc_kfail(k, OSC_ERR_MODEL, "no output Y");
    if (!st) st = osc_sh_check_out(k, 0, &out[0], &want);
    if (st || osc_tensor_count(&want) == 0) return st;
    /* rule bn_epilogue sets prod.bn on Conv only */
    osc_prod_bn bn;
    if ((st = osc_prod_bn_prepare(k, &p->prod, in, n_in, g.m, &bn))) return st;
    st = g.variant == OSC_CONV_TRANSPOSE ? osc_conv_run_transpose(k, in, out, &g)
                                         : osc_conv_run_forward(k, in, out, &g, &bn);
    osc_prod_bn_free(k, &bn);
    return st;
}
