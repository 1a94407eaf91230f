/* depth.c: DepthToSpace-1/11/13 (modes DCR and CRD from 11; DCR before) and SpaceToDepth-1/13
 * on [N, C, H, W]. Each is the spec's reshape to 6-D, transpose and reshape back: one strided
 * copy (osc_sh_copy_strided, as Transpose) whose 6 output dims read the input through the
 * strides the transpose gives. */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_depth_to_space)
osc_status osc_space_to_depth_init(osc_kctx *k, const osc_node *node, void **params);

/* What init parses. */
typedef struct depth_params {
    int64_t b;   /* blocksize, > 0 */
    bool crd;    /* DepthToSpace mode CRD (else DCR) */
    bool d2s;    /* DepthToSpace (else SpaceToDepth) */
} depth_params;

static osc_status depth_init(osc_kctx *k, const osc_node *node, bool d2s, void **params) {
    static const char *const k_v1[] = {"blocksize", NULL}, *const k_v11[] = {"blocksize",
                                                                              "mode", NULL};
    const bool has_mode = d2s && k->since_version >= 11;
    const char *mode = "DCR";
    int64_t b = 0;
    osc_status st = osc_attr_known(k, node, has_mode ? k_v11 : k_v1);
    if (st) return st;
    if (!osc_node_attr(node, "blocksize"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'blocksize' is required but missing");
    if ((st = osc_attr_int(k, node, "blocksize", 0, &b))) return st;
    if (b <= 0 || b > INT32_MAX)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'blocksize' = %lld is out of range "
                         "[1, 2^31-1]", (long long)b);
    if (has_mode && (st = osc_attr_str(k, node, "mode", "DCR", &mode))) return st;
    if (strcmp(mode, "DCR") != 0 && strcmp(mode, "CRD") != 0)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'mode' = '%.64s'; allowed: DCR, CRD",
                         mode);
    depth_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    *p = (depth_params){b, strcmp(mode, "CRD") == 0, d2s};
    *params = p;
    return OSC_OK;
}

osc_status osc_depth_to_space_init(osc_kctx *k, const osc_node *node, void **params) {
    return depth_init(k, node, true, params);
}

osc_status osc_space_to_depth_init(osc_kctx *k, const osc_node *node, void **params) {
    return depth_init(k, node, false, params);
}

/* The copy: 6 output dims, the input element strides of each. */
typedef struct depth_copy {
    int64_t dims[6], stride[6];
} depth_copy;

/* aux: the depth_copy */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    const depth_params *p = k->params;
    int64_t count, bb;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "input", &count);
    if (st) return st;
    const osc_tensor *x = in[0];
    char shs[96];
    if (x->rank != 4)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has rank %d (shape %s); "
                         "expected rank 4 [N,C,H,W]", osc_kinput_name(k, 0), (int)x->rank,
                         osc_shape_str(x, shs, sizeof shs));
    const int64_t b = p->b, n = x->dims[0], c = x->dims[1], h = x->dims[2], w = x->dims[3];
    osc_mul_ok(b, b, &bb); /* b < 2^31 */
    osc_same_shape(o, x);
    if (p->d2s) {
        if (c % bb != 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has shape %s: dim 1 (C) "
                             "%lld is not a multiple of blocksize^2 = %lld",
                             osc_kinput_name(k, 0), osc_shape_str(x, shs, sizeof shs),
                             (long long)c, (long long)bb);
        if (!osc_mul_ok(h, b, &o->dims[2]) || !osc_mul_ok(w, b, &o->dims[3]))
            return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'input' (%s) has shape %s: H or W "
                             "times blocksize %lld exceeds 2^63-1", osc_kinput_name(k, 0),
                             osc_shape_str(x, shs, sizeof shs), (long long)b);
        o->dims[1] = c / bb;
    } else {
        if (h % b != 0 || w % b != 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has shape %s: dims 2 and "
                             "3 (H, W) must be multiples of blocksize %lld",
                             osc_kinput_name(k, 0), osc_shape_str(x, shs, sizeof shs),
                             (long long)b);
        if (!osc_mul_ok(c, bb, &o->dims[1]))
            return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'input' (%s) has shape %s: C times "
                             "blocksize^2 %lld exceeds 2^63-1", osc_kinput_name(k, 0),
                             osc_shape_str(x, shs, sizeof shs), (long long)bb);
        o->dims[2] = h / b;
        o->dims[3] = w / b;
    }
    if (!aux || count == 0) return OSC_OK;
    /* element strides of x, which has elements: no overflow */
    const int64_t sw = 1, sh = w, sc = h * w, sn = c * h * w, c2 = o->dims[1];
    depth_copy *g = aux;
    if (!p->d2s) { /* output [N, b (i), b (j), C, H/b, W/b] reads x[n, c, h*b + i, w*b + j] */
        const depth_copy s = {{n, b, b, c, h / b, w / b}, {sn, sh, sw, sc, b * sh, b * sw}};
        *g = s;
    } else if (p->crd) { /* [N, C', H, b, W, b] reads x[n, c*b*b + i*b + j, h, w] */
        const depth_copy s = {{n, c2, h, b, w, b}, {sn, bb * sc, sh, b * sc, sw, sc}};
        *g = s;
    } else { /* DCR: [N, C', H, b, W, b] reads x[n, (i*b + j)*C' + c, h, w] */
        const depth_copy s = {{n, c2, h, b, w, b}, {sn, sc, sh, b * c2 * sc, sw, c2 * sc}};
        *g = s;
    }
    return OSC_OK;
}

static osc_status depth_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *out, const osc_tensor *want, const depth_copy *aux) {
    (void)k, (void)n_in;
    osc_sh_copy_strided(out[0].data, in[0]->data, osc_sh_bits(want->dtype), 6, aux->dims,
                        aux->stride, 0);
    return OSC_OK;
}

/* SpaceToDepth's rows run these too (its own init) */
OSC_SH_KERNEL_AUX(osc_depth_to_space, geometry, depth_write, depth_copy)

