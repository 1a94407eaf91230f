/* affine_grid.c: AffineGrid (20): the sampling grid of GridSample for a batch of affine
 * matrices theta, (N, 2, 3) for size (N, C, H, W) or (N, 3, 4) for (N, C, D, H, W). Each output
 * point is theta[n] times (x, y[, z], 1), the base coordinates spaced evenly over [-1, 1]:
 * the corners' centres with align_corners, else the cells' centres. Computed in double, rounded
 * once to theta's dtype. */
#include <string.h>

#include "resize_common.h"

OSC_KERNEL_DECLARE(osc_afg)

typedef struct ag_params {
    bool align_corners;
} ag_params;

osc_status osc_afg_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"align_corners", NULL};
    ag_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    osc_status st = osc_attr_known(k, node, k_known);
    if (!st) st = osc_sh_attr_bool(k, node, "align_corners", false, &p->align_corners);
    if (st) return st;
    *params = p;
    return OSC_OK;
}

static osc_status ag_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *o, void *aux) {
    (void)aux;
    int64_t count, size[OSC_MAX_RANK];
    int32_t n;
    char sh[64];
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "theta", &count);
    if (!st) st = osc_sh_need(k, in, n_in, 1, "size");
    if (!st) st = osc_sh_read_ints(k, 1, "size", in[1], false, false, OSC_MAX_RANK, size, &n);
    if (st) return st;
    if (n != 4 && n != 5)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'size' (%s) has %d values; expected 4 (N, C, "
                         "H, W) or 5 (N, C, D, H, W)", osc_kinput_name(k, 1), (int)n);
    for (int32_t i = 0; i < n; i++)
        if (size[i] < 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'size' (%s): value %lld at position %d is "
                             "out of range [0, 2^63-1]", osc_kinput_name(k, 1), (long long)size[i],
                             (int)i);
    const osc_tensor *t = in[0];
    const int32_t s = n - 2;
    if (t->rank != 3 || t->dims[0] != size[0] || t->dims[1] != s || t->dims[2] != s + 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'theta' (%s) has shape %s; with input 1 "
                         "'size' of %d values it must be [%lld, %d, %d]", osc_kinput_name(k, 0),
                         osc_shape_str(t, sh, sizeof sh), (int)n, (long long)size[0], (int)s,
                         (int)(s + 1));
    memset(o, 0, sizeof *o);
    o->dtype = t->dtype;
    o->rank = n;
    o->dims[0] = size[0];
    for (int32_t d = 0; d < s; d++) o->dims[d + 1] = size[d + 2];
    o->dims[n - 1] = s;
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output would have more than 2^63-1 elements");
    return OSC_OK;
}

/* Base coordinate of position i of a spatial dim of n positions */
static double base_coord(bool align, int64_t i, int64_t n) {
    if (align) return n > 1 ? -1 + 2.0 * (double)i / (double)(n - 1) : -1;
    return -1 + (2.0 * (double)i + 1) / (double)n;
}

static osc_status ag_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, const osc_tensor *want, const osc_sh_none *aux) {
    (void)n_in, (void)aux;
    const ag_params *p = k->params;
    const osc_tensor *t = in[0];
    const int32_t s = want->rank - 2;
    int64_t pts = 1;
    for (int32_t d = 1; d <= s; d++) pts *= want->dims[d];
    int64_t y = 0;
    for (int64_t b = 0; b < want->dims[0]; b++)
        for (int64_t q = 0; q < pts; q++) {
            double v[4] = {0, 0, 0, 1}; /* x, y[, z], 1: x from the last dim */
            int64_t rem = q;
            for (int32_t d = s; d >= 1; d--) {
                v[s - d] = base_coord(p->align_corners, rem % want->dims[d], want->dims[d]);
                rem /= want->dims[d];
            }
            v[s] = 1;
            for (int32_t r = 0; r < s; r++) {
                double sum = 0;
                for (int32_t j = 0; j <= s; j++)
                    sum += osc_rz_get(t, (b * s + r) * (s + 1) + j) * v[j];
                osc_rz_set(out, y++, sum);
            }
        }
    return OSC_OK;
}
OSC_SH_KERNEL(osc_afg, ag_geometry, ag_write)
