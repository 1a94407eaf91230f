/* resize.c: Resize (10, 11, 13, 18, 19) and Upsample (7, 9; 10 deprecated): attributes and the
 * geometry (every check of the inputs, the output shape). The values are written by
 * resize_run.c, as ONNX's reference implementation computes them: in double, each resampled dim
 * in turn (the modes are separable). Where the spec leaves a choice:
 * - output dims from scales are floor(dim * scale), roi or not (the reference's formula);
 *   keep_aspect_ratio_policy rounds halfway cases up;
 * - Resize-10 and Upsample use asymmetric coordinates, nearest rounding down, up when
 *   downsampling (onnxruntime's choice for them);
 * - integer outputs of linear and cubic are truncated toward zero (numpy's astype), saturated;
 * - exclude_outside and antialias change linear and cubic only; nearest copies elements, of any
 *   dtype, bit for bit. */
#include <math.h>
#include <string.h>

#include "resize.h"

OSC_KERNEL_DECLARE(osc_rz)

/* coordinate_transformation_mode names, in the order of the OSC_RZ_* values (resize.h); the
 * last, Resize-11's tf_half_pixel_for_nn, is OSC_RZ_TF_HALF_PIXEL_NN */
#define OSC_RZ_TF_HALF_PIXEL_NN (OSC_RZ_TF_CROP_AND_RESIZE + 1)
static const char *const k_ctm_names[] = {
    "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners", "asymmetric",
    "tf_crop_and_resize", "tf_half_pixel_for_nn", NULL};

static osc_status init_resize(osc_kctx *k, const osc_node *node, osc_rz_params *p) {
    static const char *const k_modes[] = {"nearest", "linear", "cubic", NULL};
    static const char *const k_nearest[] = {"round_prefer_floor", "round_prefer_ceil", "floor",
                                            "ceil", NULL};
    static const char *const k_policies[] = {"stretch", "not_larger", "not_smaller", NULL};
    static const char *const k_known11[] = {"coordinate_transformation_mode", "cubic_coeff_a",
        "exclude_outside", "extrapolation_value", "mode", "nearest_mode", NULL};
    static const char *const k_known18[] = {"coordinate_transformation_mode", "cubic_coeff_a",
        "exclude_outside", "extrapolation_value", "mode", "nearest_mode", "antialias", "axes",
        "keep_aspect_ratio_policy", NULL};
    const bool v18 = k->since_version >= 18;
    osc_status st = osc_attr_known(k, node, v18 ? k_known18 : k_known11);
    if (!st) st = osc_rz_attr_enum(k, node, "mode", "nearest", k_modes, &p->mode);
    if (!st) st = osc_rz_attr_enum(k, node, "nearest_mode", "round_prefer_floor", k_nearest,
                                   &p->nearest);
    if (!st) st = osc_rz_attr_enum(k, node, "coordinate_transformation_mode", "half_pixel",
                                   k_ctm_names, &p->ctm);
    if (!st) st = osc_attr_float(k, node, "cubic_coeff_a", -0.75, &p->cubic_a);
    if (!st) st = osc_attr_float(k, node, "extrapolation_value", 0.0, &p->extrapolation);
    if (!st) st = osc_sh_attr_bool(k, node, "exclude_outside", false, &p->exclude_outside);
    if (!st && v18) st = osc_sh_attr_bool(k, node, "antialias", false, &p->antialias);
    if (!st && v18) st = osc_sh_attr_ints(k, node, "axes", false, &p->axes);
    if (!st && v18) st = osc_rz_attr_enum(k, node, "keep_aspect_ratio_policy", "stretch",
                                          k_policies, &p->policy);
    if (st) return st;
    if ((p->ctm == OSC_RZ_HALF_PIXEL_SYMMETRIC && k->since_version < 19) ||
        (p->ctm == OSC_RZ_TF_HALF_PIXEL_NN && k->since_version != 11))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'coordinate_transformation_mode' = '%s' "
                         "is not part of this version of Resize (half_pixel_symmetric: from 19; "
                         "tf_half_pixel_for_nn: 11 only)", k_ctm_names[p->ctm]);
    if (p->axes.present && p->axes.n > OSC_MAX_RANK)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'axes' has %d values; at most %d (one per "
                         "dim)", (int)p->axes.n, OSC_MAX_RANK);
    return OSC_OK;
}

/* Resize-10 and Upsample: mode nearest or linear, asymmetric coordinates, nearest_mode
 * "simple"; Upsample-7 reads its scales from the attribute. */
static osc_status init_legacy(osc_kctx *k, const osc_node *node, osc_rz_params *p,
                              bool upsample7) {
    static const char *const k_modes[] = {"nearest", "linear", NULL};
    static const char *const k_known[] = {"mode", NULL};
    static const char *const k_known7[] = {"mode", "scales", NULL};
    osc_status st = osc_attr_known(k, node, upsample7 ? k_known7 : k_known);
    if (!st) st = osc_rz_attr_enum(k, node, "mode", "nearest", k_modes, &p->mode);
    if (st) return st;
    p->ctm = OSC_RZ_ASYMMETRIC;
    p->nearest = OSC_RZ_SIMPLE;
    p->cubic_a = -0.75;
    if (!upsample7) return OSC_OK;
    const osc_attr *a = osc_node_attr(node, "scales");
    if (!a) return osc_kfail(k, OSC_ERR_MODEL, "attribute 'scales' is required but missing");
    if (a->type != OSC_ATTR_FLOATS)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'scales' must be a list of floats");
    if (a->n > OSC_MAX_RANK)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'scales' has %zu values; at most %d (one "
                         "per dim)", a->n, OSC_MAX_RANK);
    for (size_t i = 0; i < a->n; i++) {
        if (!(a->floats[i] > 0) || isinf(a->floats[i]))
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'scales': value %g at position %zu is "
                             "out of range; allowed: (0, inf)", (double)a->floats[i], i);
        p->scales[i] = a->floats[i];
    }
    p->n_scales = (int32_t)a->n;
    return OSC_OK;
}

osc_status osc_rz_init(osc_kctx *k, const osc_node *node, void **params) {
    const int32_t v = k->row->variant;
    if (v <= 0 || v >= OSC_RZ_END)
        return osc_kfail(k, OSC_ERR_MODEL, "registry row without a resize variant");
    osc_rz_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    osc_status st = v == OSC_RZ_RESIZE ? init_resize(k, node, p)
                                       : init_legacy(k, node, p, v == OSC_RZ_UPSAMPLE7);
    if (st) return st;
    *params = p;
    return OSC_OK;
}

/* Input 2 (Resize-11+) or 1 (Resize-10, Upsample-9) 'scales': n float values > 0 into s[]. */
static osc_status read_scales(osc_kctx *k, int32_t i, const osc_tensor *t, int32_t n, double *s) {
    char sh[64];
    osc_status st = osc_sh_check_type(k, i, "scales", t, OSC_TS(OSC_FLOAT));
    if (!st && (t->rank != 1 || t->dims[0] != n))
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d 'scales' (%s) has shape %s; expected [%d], "
                         "one value per resized dim", (int)i, osc_kinput_name(k, i),
                         osc_shape_str(t, sh, sizeof sh), (int)n);
    if (!st) st = osc_sh_need_data(k, i, "scales", t);
    if (st) return st;
    for (int32_t j = 0; j < n; j++) {
        s[j] = ((const float *)t->data)[j];
        if (!(s[j] > 0) || isinf(s[j]))
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d 'scales' (%s): value %g at position %d "
                             "is out of range; allowed: (0, inf)", (int)i, osc_kinput_name(k, i),
                             s[j], (int)j);
    }
    return OSC_OK;
}

/* Input 3 'sizes': n values >= 0 into the output dims of `axes`, scale[] their ratios to X's. */
static osc_status read_sizes(osc_kctx *k, const osc_tensor *x, const osc_tensor *t,
                             const int64_t *axes, int32_t n, osc_tensor *o, double *scale) {
    const osc_rz_params *p = k->params;
    int64_t v[OSC_MAX_RANK];
    int32_t nv;
    osc_status st = osc_sh_read_ints(k, 3, "sizes", t, false, false, OSC_MAX_RANK, v, &nv);
    if (st) return st;
    if (nv != n)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 3 'sizes' (%s) has %d values; expected %d, one "
                         "per resized dim", osc_kinput_name(k, 3), (int)nv, (int)n);
    for (int32_t j = 0; j < n; j++) {
        const int64_t d = x->dims[axes[j]];
        if (v[j] < 0 || (d == 0 && v[j] != 0))
            return osc_kfail(k, OSC_ERR_SHAPE, "input 3 'sizes' (%s): value %lld at position %d "
                             "is out of range; allowed: %s", osc_kinput_name(k, 3),
                             (long long)v[j], (int)j, d ? "[0, 2^63-1]" : "0 (dim of X is 0)");
        scale[j] = d ? (double)v[j] / (double)d : 1.0;
    }
    double s = scale[0];
    for (int32_t j = 1; j < n && p->policy != OSC_RZ_STRETCH; j++)
        s = p->policy == OSC_RZ_NOT_LARGER ? fmin(s, scale[j]) : fmax(s, scale[j]);
    for (int32_t j = 0; j < n; j++) {
        if (p->policy == OSC_RZ_STRETCH) {
            o->dims[axes[j]] = v[j];
            continue;
        }
        scale[j] = s; /* round_int: halfway cases up */
        const double dn = floor(s * (double)x->dims[axes[j]] + 0.5);
        if (dn >= 0x1p62)
            return osc_kfail(k, OSC_ERR_LIMIT, "input 3 'sizes' (%s) with "
                             "keep_aspect_ratio_policy makes dim %d of the output %g elements; "
                             "at most 2^62", osc_kinput_name(k, 3), (int)axes[j], dn);
        o->dims[axes[j]] = (int64_t)dn;
    }
    return OSC_OK;
}

/* Input 1 'roi': 2 n values of a float dtype, [starts..., ends...] of the dims of `axes`. */
static osc_status read_roi(osc_kctx *k, const osc_tensor *t, const int64_t *axes, int32_t n,
                           osc_rz_geom *g) {
    char sh[64];
    if (t->rank != 1 || t->dims[0] != 2 * n)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'roi' (%s) has shape %s; expected [%d]: a "
                         "start and an end per resized dim", osc_kinput_name(k, 1),
                         osc_shape_str(t, sh, sizeof sh), (int)(2 * n));
    osc_status st = osc_sh_check_type(k, 1, "roi", t, OSC_TS_FLOAT);
    if (!st) st = osc_sh_need_data(k, 1, "roi", t);
    if (st) return st;
    for (int32_t j = 0; j < 2 * n; j++) {
        double v = osc_rz_get(t, j);
        if (!isfinite(v))
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'roi' (%s): value %g at position %d is "
                             "not finite", osc_kinput_name(k, 1), v, (int)j);
        if (j < n) g->roi_start[axes[j]] = v;
        else g->roi_end[axes[j - n]] = v;
    }
    return OSC_OK;
}

/* Output shape and geometry from the inputs: every check of the inputs (osc_sh_geometry_fn) */
static osc_status rz_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *o, void *aux) {
    const osc_rz_params *p = k->params;
    const int32_t v = k->row->variant;
    osc_rz_geom local, *g = aux ? aux : &local;
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "X", &count);
    if (st) return st;
    const osc_tensor *x = in[0];
    const int32_t r = x->rank;
    if (r == 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) is a scalar; this op needs rank >= "
                         "1", osc_kinput_name(k, 0));
    if (p->mode != OSC_RZ_NEAREST && !osc_rz_real(x->dtype))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'X' (%s) is %s: mode '%s' interpolates "
                         "numbers (float and integer dtypes); mode 'nearest' takes any dtype",
                         osc_kinput_name(k, 0), osc_dtype_get(x->dtype)->name,
                         p->mode == OSC_RZ_LINEAR ? "linear" : "cubic");
    int64_t axes[OSC_MAX_RANK];
    int32_t na = r;
    for (int32_t d = 0; d < r; d++) axes[d] = d;
    if (p->axes.present) {
        na = p->axes.n;
        memcpy(axes, p->axes.v, (size_t)na * sizeof *axes);
        if ((st = osc_sh_norm_axes(k, "attribute 'axes'", axes, na, r))) return st;
    }
    memset(o, 0, sizeof *o);
    o->dtype = x->dtype;
    o->rank = r;
    memcpy(o->dims, x->dims, (size_t)r * sizeof *o->dims);
    for (int32_t d = 0; d < r; d++) {
        g->scale[d] = 1, g->roi_start[d] = 0, g->roi_end[d] = 1;
        g->active[d] = false;
    }
    const int32_t si = v == OSC_RZ_RESIZE ? 2 : 1;
    const osc_tensor *sc = v == OSC_RZ_UPSAMPLE7 ? NULL : osc_sh_in(in, n_in, si);
    const osc_tensor *sz = v == OSC_RZ_RESIZE ? osc_sh_in(in, n_in, 3) : NULL;
    const osc_tensor *roi = v == OSC_RZ_RESIZE ? osc_sh_in(in, n_in, 1) : NULL;
    const bool has_sc = sc && osc_tensor_count(sc) > 0, has_sz = sz && osc_tensor_count(sz) > 0;
    double s[OSC_MAX_RANK];
    if (has_sc && has_sz)
        return osc_kfail(k, OSC_ERR_MODEL, "input 2 'scales' (%s) and input 3 'sizes' (%s) both "
                         "have values; only one of them may be given (the other empty or "
                         "omitted)", osc_kinput_name(k, 2), osc_kinput_name(k, 3));
    if (v == OSC_RZ_UPSAMPLE7) {
        if (p->n_scales != r)
            return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'scales' has %d values; input 0 'X' "
                             "(%s) has rank %d: one scale per dim", (int)p->n_scales,
                             osc_kinput_name(k, 0), (int)r);
        memcpy(s, p->scales, (size_t)r * sizeof *s);
    } else if (has_sc) {
        if ((st = read_scales(k, si, sc, na, s))) return st;
    } else if (has_sz) {
        if ((st = read_sizes(k, x, sz, axes, na, o, s))) return st;
    } else {
        return osc_kfail(k, OSC_ERR_MODEL, "input %d 'scales' (%s) has no values%s", (int)si,
                         osc_kinput_name(k, si), v == OSC_RZ_RESIZE ? " and input 3 'sizes' "
                         "neither: one of them must" : "");
    }
    for (int32_t j = 0; j < na; j++) {
        const int32_t d = (int32_t)axes[j];
        g->scale[d] = s[j];
        if (has_sz) continue;
        const double n = floor(s[j] * (double)x->dims[d]);
        if (n >= 0x1p62)
            return osc_kfail(k, OSC_ERR_LIMIT, "scale %g at position %d makes dim %d of the "
                             "output %g elements; at most 2^62", s[j], (int)j, (int)d, n);
        o->dims[d] = (int64_t)n;
    }
    if (roi && osc_tensor_count(roi) > 0) {
        if ((st = read_roi(k, roi, axes, na, g))) return st;
    } else if (p->ctm == OSC_RZ_TF_CROP_AND_RESIZE) {
        return osc_kfail(k, OSC_ERR_MODEL, "coordinate_transformation_mode 'tf_crop_and_resize' "
                         "needs input 1 'roi' with %d values; it has none", (int)(2 * na));
    }
    for (int32_t j = 0; j < na; j++) {
        const int32_t d = (int32_t)axes[j];
        g->active[d] = g->scale[d] != 1 || o->dims[d] != x->dims[d] ||
                       p->ctm == OSC_RZ_TF_CROP_AND_RESIZE;
    }
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output would have more than 2^63-1 elements");
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_rz, rz_geometry, osc_rz_write, osc_rz_geom)
