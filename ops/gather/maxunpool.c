/* maxunpool.c: MaxUnpool-9/11/22: X's values scattered to the flat positions I holds in the
 * unpooled shape, zeros elsewhere. Every index is checked before the first write; duplicate
 * indices resolve in row-major order of X, the last one winning. */
#include <string.h>

#include "core/dtype.h"
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_maxunpool)

/* Attributes init parses, checked against each other (X's rank is checked by geometry). */
typedef struct maxunpool_params {
    osc_sh_ints kernel, pads, strides; /* pads [begins..., ends...]; absent: 0s, 1s */
} maxunpool_params;

osc_status osc_maxunpool_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"kernel_shape", "pads", "strides", NULL};
    maxunpool_params a;
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_sh_attr_ints(k, node, "kernel_shape", true, &a.kernel);
    if (!st) st = osc_sh_attr_ints(k, node, "pads", false, &a.pads);
    if (!st) st = osc_sh_attr_ints(k, node, "strides", false, &a.strides);
    if (st) return st;
    const int32_t nd = a.kernel.n;
    if (nd < 1 || nd > OSC_MAX_RANK - 2)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'kernel_shape' has %d values; expected 1 "
                         "to %d (one per spatial axis)", (int)nd, OSC_MAX_RANK - 2);
    if (a.strides.present && a.strides.n != nd)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'strides' has %d values; 'kernel_shape' "
                         "has %d", (int)a.strides.n, (int)nd);
    if (a.pads.present && a.pads.n != 2 * nd)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'pads' has %d values; expected %d (a "
                         "begin and an end per spatial axis)", (int)a.pads.n, (int)(2 * nd));
    for (int32_t d = 0; d < 2 * nd; d++) {
        if (d < nd && a.kernel.v[d] < 1)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'kernel_shape' value %d is %lld; "
                             "expected at least 1", (int)d, (long long)a.kernel.v[d]);
        if (d < nd && a.strides.present && a.strides.v[d] < 1)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'strides' value %d is %lld; expected "
                             "at least 1", (int)d, (long long)a.strides.v[d]);
        if (a.pads.present && a.pads.v[d] < 0)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute 'pads' value %d is %lld; expected at "
                             "least 0", (int)d, (long long)a.pads.v[d]);
    }
    maxunpool_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    *p = a;
    *params = p;
    return OSC_OK;
}

/* The inferred size of spatial axis d: (x - 1) * stride - (pad begin + pad end) + kernel, the
 * inverse of MaxPool's; false when it is negative or overflows. */
static bool unpooled(const maxunpool_params *p, int32_t d, int64_t x, int64_t *out) {
    const int32_t nd = p->kernel.n;
    const int64_t s = p->strides.present ? p->strides.v[d] : 1;
    const int64_t pad = p->pads.present ? p->pads.v[d] + p->pads.v[nd + d] : 0;
    int64_t v;
    bool ok = osc_mul_ok(x - 1, s, &v) && osc_add_ok(v, p->kernel.v[d], &v) &&
              osc_add_ok(v, -pad, &v);
    *out = v;
    return ok && v >= 0;
}

/* The shape MaxPool's inverse gives (X's N and C, each spatial axis unpooled): the frame I's
 * flat indices address. */
typedef struct unpool_frame {
    int32_t rank;
    int64_t dims[OSC_MAX_RANK];
} unpool_frame;

/* The output: X's dtype; the frame's shape, or the shape input 2 'output_shape' holds, each
 * dim at least the frame's, which then sits at the output's origin, zeros around it (the ONNX
 * reference's reading; the spec's "pads are ignored" would leave I's frame undefined). */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    const maxunpool_params *p = k->params;
    unpool_frame fv, *f = aux ? aux : &fv;
    char a[256], b[256];
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "X", &count);
    if (!st) st = osc_sh_need_typed(k, in, n_in, 1, "I", &count);
    if (st) return st;
    const osc_tensor *x = in[0], *idx = in[1], *shape = osc_sh_in(in, n_in, 2);
    const int32_t r = x->rank;
    if (r != p->kernel.n + 2)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s; expected rank %d "
                         "(N, C and the %d spatial axes of 'kernel_shape')",
                         osc_kinput_name(k, 0), osc_shape_str(x, a, sizeof a),
                         (int)(p->kernel.n + 2), (int)p->kernel.n);
    bool same = idx->rank == r;
    for (int32_t d = 0; same && d < r; d++) same = idx->dims[d] == x->dims[d];
    if (!same)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'I' (%s) has shape %s; it must be X's %s",
                         osc_kinput_name(k, 1), osc_shape_str(idx, a, sizeof a),
                         osc_shape_str(x, b, sizeof b));
    osc_same_shape(o, x);
    for (int32_t d = 2; d < r; d++)
        if (!unpooled(p, d - 2, x->dims[d], &o->dims[d]))
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s: spatial axis %d "
                             "unpools to a size below 0 or past 2^63-1 with these "
                             "kernel_shape, strides and pads", osc_kinput_name(k, 0),
                             osc_shape_str(x, a, sizeof a), (int)(d - 2));
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the unpooled shape %s has more than 2^63-1 "
                         "elements", osc_shape_str(o, a, sizeof a));
    f->rank = r;
    memcpy(f->dims, o->dims, (size_t)r * sizeof *o->dims);
    if (!shape) return OSC_OK;
    int64_t v[OSC_MAX_RANK];
    int32_t n = 0;
    if ((st = osc_sh_read_ints(k, 2, "output_shape", shape, false, false, OSC_MAX_RANK, v, &n)))
        return st;
    bool ok = n == r;
    for (int32_t d = 0; ok && d < r; d++) ok = v[d] >= f->dims[d];
    if (!ok)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 2 'output_shape' (%s) holds %d values; "
                         "expected %d, each at least the unpooled shape's %s",
                         osc_kinput_name(k, 2), (int)n, (int)r, osc_shape_str(o, a, sizeof a));
    memcpy(o->dims, v, (size_t)r * sizeof *v);
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output %s would have more than 2^63-1 elements",
                         osc_shape_str(o, a, sizeof a));
    return OSC_OK;
}

osc_status osc_maxunpool_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, int32_t n_out) {
    return osc_sh_infer_with(k, geometry, in, n_in, out, n_out);
}

osc_status osc_maxunpool_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    unpool_frame f;
    osc_status st = osc_sh_run_checks(k, geometry, in, n_in, out, n_out, &want, &f);
    if (st) return st;
    const int64_t frame = osc_dims_prod(f.dims, f.rank), n = osc_tensor_count(in[0]);
    const int64_t *idx = in[1]->data;
    for (int64_t i = 0; i < n; i++) /* every index before the first write */
        if (idx[i] < 0 || idx[i] >= frame)
            return osc_kfail(k, OSC_ERR_INDEX, "input 1 'I' (%s) flat position %lld: value "
                             "%lld is out of range [0, %lld] (the %lld elements of the unpooled "
                             "shape)", osc_kinput_name(k, 1), (long long)i, (long long)idx[i],
                             (long long)frame - 1, (long long)frame);
    const int64_t total = osc_tensor_count(&want);
    if (total == 0) return OSC_OK;
    const size_t es = osc_sh_bits(want.dtype) / 8;
    char *y = out[0].data;
    const char *x = in[0]->data;
    memset(y, 0, (size_t)total * es); /* +0.0 in every float type */
    bool framed = true; /* the frame is the whole output */
    for (int32_t d = 0; d < f.rank; d++) framed = framed && f.dims[d] == want.dims[d];
    for (int64_t i = 0; i < n; i++) { /* in row-major order of X: the last duplicate wins */
        int64_t at = idx[i];
        if (!framed) { /* the frame's coordinates, then the output's */
            int64_t v = idx[i], stride = 1;
            at = 0;
            for (int32_t d = f.rank - 1; d >= 0; d--) {
                at += v % f.dims[d] * stride;
                v /= f.dims[d];
                stride *= want.dims[d];
            }
        }
        memcpy(y + (size_t)at * es, x + (size_t)i * es, es);
    }
    return OSC_OK;
}
