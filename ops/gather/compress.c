/* compress.c: Compress-9/11: the slices along an axis (or the elements of the flattened input)
 * whose condition entry is true. */
#include <string.h>

#include "core/dtype.h"
#include "core/graph.h"
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_compress)

/* Attributes init parses. */
typedef struct compress_params {
    bool has_axis; /* absent: the input is flattened */
    int64_t axis;  /* as written; normalised by geometry */
} compress_params;

osc_status osc_compress_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"axis", NULL};
    int64_t axis = 0;
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_attr_int(k, node, "axis", 0, &axis);
    compress_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->has_axis = osc_node_attr(node, "axis") != NULL;
    p->axis = axis;
    *params = p;
    return OSC_OK;
}

/* The input seen as [outer, n, inner] around the axis (flattened: [1, count, 1]); the
 * condition's entries past n are false (geometry checked). */
typedef struct compress_geom {
    int64_t outer, n, inner;
} compress_geom;

/* aux: the compress_geom. The output's length along the axis is the count of true entries,
 * so geometry reads the condition (infer_reads bit 1). numpy.compress's rule for a condition
 * longer than the axis: allowed while the entries past it are false. */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    const compress_params *p = k->params;
    compress_geom own, *g = aux ? aux : &own;
    char buf[256];
    int64_t count, len, kept = 0;
    int32_t axis = 0;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "input", &count);
    if (!st) st = osc_sh_need_typed(k, in, n_in, 1, "condition", &len);
    if (st) return st;
    const osc_tensor *x = in[0], *c = in[1];
    if (x->rank < 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) is a scalar; expected rank "
                         ">= 1", osc_kinput_name(k, 0));
    if (c->rank != 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'condition' (%s) has shape %s; expected "
                         "rank 1", osc_kinput_name(k, 1), osc_shape_str(c, buf, sizeof buf));
    if (p->has_axis && (st = osc_norm_axis(k, p->axis, x->rank, &axis))) return st;
    if ((st = osc_sh_need_data(k, 1, "condition", c))) return st;
    g->outer = p->has_axis ? osc_dims_prod(x->dims, axis) : 1;
    g->n = p->has_axis ? x->dims[axis] : count;
    g->inner = p->has_axis ? osc_dims_prod(x->dims + axis + 1, x->rank - axis - 1) : 1;
    const uint8_t *cv = c->data;
    for (int64_t i = 0; i < len; i++) {
        if (!cv[i]) continue;
        if (i >= g->n)
            return osc_kfail(k, OSC_ERR_INDEX, "input 1 'condition' (%s) position %lld: value "
                             "true selects past the %s's %lld entries; positions past %lld "
                             "must be false", osc_kinput_name(k, 1), (long long)i,
                             p->has_axis ? "axis" : "flattened input", (long long)g->n,
                             (long long)g->n - 1);
        kept++;
    }
    memset(o, 0, sizeof *o);
    o->dtype = x->dtype;
    if (!p->has_axis) {
        o->rank = 1;
        o->dims[0] = kept;
        return OSC_OK;
    }
    osc_same_shape(o, x);
    o->dims[axis] = kept;
    return OSC_OK;
}

static osc_status compress_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 osc_tensor *out, const osc_tensor *want,
                                 const compress_geom *g) {
    (void)k, (void)n_in;
    const unsigned bits = osc_sh_bits(want->dtype);
    const uint8_t *cv = in[1]->data;
    const int64_t len = in[1]->dims[0] < g->n ? in[1]->dims[0] : g->n;
    int64_t j = 0;
    for (int64_t o = 0; o < g->outer; o++)
        for (int64_t q = 0; q < len; q++)
            if (cv[q]) {
                osc_copy_elems(out[0].data, j, in[0]->data, (o * g->n + q) * g->inner, g->inner,
                               bits);
                j += g->inner;
            }
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_compress, geometry, compress_write, compress_geom)
