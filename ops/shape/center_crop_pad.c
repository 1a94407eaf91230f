/* center_crop_pad.c: CenterCropPad-18: each axis listed (attribute 'axes', default all) becomes
 * the size input 1 'shape' gives it, cropped or zero-padded around its centre. A size change d
 * (target minus input) moves d/2 (rounded toward zero) to the start and the rest to the end:
 * a crop window starts rounded down (the odd element is removed at the end), an odd padding puts
 * the extra element at the end; the spec's rule, as in its reference. Pad's write does the copy
 * (pad.c, mode constant, value 0). */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_center_crop_pad)

typedef struct ccp_params {
    osc_sh_ints axes;
} ccp_params;

osc_status osc_center_crop_pad_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"axes", NULL};
    osc_status st = osc_attr_known(k, node, known);
    ccp_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    if ((st = osc_sh_attr_ints(k, node, "axes", false, &p->axes))) return st;
    *params = p;
    return OSC_OK;
}

/* aux: the osc_sh_pad_geom */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    const ccp_params *p = k->params;
    osc_sh_pad_geom g_own, *g = aux ? aux : &g_own;
    int64_t count, shape[OSC_MAX_RANK], axes[OSC_MAX_RANK];
    int32_t n = 0;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "input_data", &count);
    if (!st) st = osc_sh_need_typed(k, in, n_in, 1, "shape", &count);
    if (!st) st = osc_sh_read_ints(k, 1, "shape", in[1], true, false, OSC_MAX_RANK, shape, &n);
    if (st) return st;
    const osc_tensor *x = in[0];
    const int32_t r = x->rank, n_axes = p->axes.present ? p->axes.n : r;
    if (p->axes.present) {
        if (n_axes > r)
            return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'axes' has %d values; input 0 "
                             "'input_data' (%s) has rank %d", (int)n_axes,
                             osc_kinput_name(k, 0), (int)r);
        memcpy(axes, p->axes.v, (size_t)n_axes * sizeof axes[0]);
        if ((st = osc_sh_norm_axes(k, "attribute 'axes'", axes, n_axes, r))) return st;
    } else {
        for (int32_t i = 0; i < r; i++) axes[i] = i;
    }
    if (n != n_axes)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'shape' (%s) has %d values; expected %d "
                         "(one for each of the %d %s)", osc_kinput_name(k, 1), (int)n,
                         (int)n_axes, (int)n_axes,
                         p->axes.present ? "values of attribute 'axes'" : "dims of input 0");
    memset(g, 0, sizeof *g);
    osc_same_shape(o, x);
    for (int32_t i = 0; i < n_axes; i++) {
        const int32_t a = (int32_t)axes[i];
        if (shape[i] < 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'shape' (%s) position %d: value %lld "
                             "is negative; allowed: [0, 2^63-1]", osc_kinput_name(k, 1), (int)i,
                             (long long)shape[i]);
        const int64_t d = shape[i] - x->dims[a]; /* both in [0, 2^63-1]: no overflow */
        g->begin[a] = d / 2;
        g->end[a] = d - d / 2;
        o->dims[a] = shape[i];
    }
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output would have more than 2^63-1 elements "
                         "(input 1 'shape' (%s))", osc_kinput_name(k, 1));
    return OSC_OK;
}

static osc_status ccp_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, const osc_tensor *want, const osc_sh_pad_geom *g) {
    (void)k, (void)n_in;
    unsigned char zero[16];
    osc_sh_zero_elem(in[0]->dtype, zero);
    osc_sh_pad_write(out[0].data, in[0], want, g, OSC_SH_PAD_CONSTANT, zero);
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_center_crop_pad, geometry, ccp_write, osc_sh_pad_geom)
