/* roialign.c: RoiAlign (10, 16, 22): each RoI of rois [num_rois, 4] ([x1, y1, x2, y2], scaled by
 * spatial_scale and, with coordinate_transformation_mode half_pixel (16 on, the default there),
 * shifted by -0.5) cut into output_height x output_width bins, each bin the average ('avg') or
 * the maximum ('max') of a grid of bilinear samples of X's image batch_indices[r]: sampling_ratio
 * per axis, or ceil(roi size / bins) when 0. As onnxruntime and ONNX's reference compute it:
 * a sample past [-1, size] is 0; 'max' takes the largest of the four weighted corners of each
 * sample. Computed in double, rounded once to X's dtype. Every RoI and batch index is checked
 * before the first write. */
#include <math.h>
#include <string.h>

#include "detect_common.h"
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_roialign)

/* Samples of one RoI and channel past which a run is refused (a RoI of absurd size). */
#define RA_MAX_SAMPLES ((int64_t)1 << 28)

typedef struct ra_params {
    bool max;        /* mode 'max' (else 'avg') */
    bool half_pixel; /* coordinate_transformation_mode 'half_pixel' */
    int64_t oh, ow, sampling_ratio;
    double scale;
} ra_params;

osc_status osc_roialign_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known10[] = {"mode", "output_height", "output_width",
                                          "sampling_ratio", "spatial_scale", NULL};
    static const char *const known16[] = {"coordinate_transformation_mode", "mode",
                                          "output_height", "output_width", "sampling_ratio",
                                          "spatial_scale", NULL};
    const bool v10 = k->since_version < 16;
    osc_status st = osc_attr_known(k, node, v10 ? known10 : known16);
    if (st) return st;
    ra_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    const char *mode, *ctm = "output_half_pixel";
    st = osc_attr_str(k, node, "mode", "avg", &mode);
    if (!st && !v10) st = osc_attr_str(k, node, "coordinate_transformation_mode", "half_pixel",
                                       &ctm);
    if (!st) st = osc_attr_int(k, node, "output_height", 1, &p->oh);
    if (!st) st = osc_attr_int(k, node, "output_width", 1, &p->ow);
    if (!st) st = osc_attr_int(k, node, "sampling_ratio", 0, &p->sampling_ratio);
    if (!st) st = osc_attr_float(k, node, "spatial_scale", 1.0, &p->scale);
    if (st) return st;
    if (strcmp(mode, "avg") != 0 && strcmp(mode, "max") != 0)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'mode' = '%s'; allowed: 'avg', 'max'",
                         mode);
    if (strcmp(ctm, "half_pixel") != 0 && strcmp(ctm, "output_half_pixel") != 0)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'coordinate_transformation_mode' = '%s'; "
                         "allowed: 'half_pixel', 'output_half_pixel'", ctm);
    const int64_t lim = (int64_t)1 << 24;
    if (p->oh < 1 || p->oh > lim || p->ow < 1 || p->ow > lim)
        return osc_kfail(k, OSC_ERR_MODEL, "attributes 'output_height' = %lld, 'output_width' "
                         "= %lld; allowed: 1 to %lld each", (long long)p->oh, (long long)p->ow,
                         (long long)lim);
    if (p->sampling_ratio < 0 || p->sampling_ratio > 65536)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'sampling_ratio' = %lld; allowed: 0 "
                         "(adaptive) to 65536", (long long)p->sampling_ratio);
    if (!isfinite(p->scale))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'spatial_scale' = %g; allowed: a finite "
                         "number", p->scale);
    p->max = strcmp(mode, "max") == 0;
    p->half_pixel = strcmp(ctm, "half_pixel") == 0;
    *params = p;
    return OSC_OK;
}

/* Shapes: X [N, C, H, W], rois [num_rois, 4] of X's dtype, batch_indices [num_rois]; *want =
 * [num_rois, C, output_height, output_width] of X's dtype. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    const ra_params *p = k->params;
    static const char *const names[3] = {"X", "rois", "batch_indices"};
    char b[96];
    int64_t count[3];
    for (int32_t i = 0; i < 3; i++) {
        osc_status st = osc_sh_need_typed(k, in, n_in, i, names[i], &count[i]);
        if (st) return st;
    }
    const osc_tensor *x = in[0], *r = in[1], *bi = in[2];
    if (x->rank != 4)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s; allowed: rank 4 "
                         "[N, C, H, W]", osc_kinput_name(k, 0), osc_shape_str(x, b, sizeof b));
    osc_status st = osc_check_same_dtype(k, 0, "X", x, 1, "rois", r);
    if (st) return st;
    if (r->rank != 2 || r->dims[1] != 4)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'rois' (%s) has shape %s; allowed: "
                         "[num_rois, 4]", osc_kinput_name(k, 1), osc_shape_str(r, b, sizeof b));
    if (bi->rank != 1 || bi->dims[0] != r->dims[0])
        return osc_kfail(k, OSC_ERR_SHAPE, "input 2 'batch_indices' (%s) has shape %s; "
                         "allowed: [num_rois] = [%lld] (rois' first dim)", osc_kinput_name(k, 2),
                         osc_shape_str(bi, b, sizeof b), (long long)r->dims[0]);
    if ((x->dims[2] == 0 || x->dims[3] == 0) && r->dims[0] > 0 && x->dims[1] > 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s: no pixel to sample "
                         "for %lld RoIs; allowed: H and W at least 1", osc_kinput_name(k, 0),
                         osc_shape_str(x, b, sizeof b), (long long)r->dims[0]);
    memset(want, 0, sizeof *want);
    want->dtype = x->dtype;
    want->rank = 4;
    want->dims[0] = r->dims[0];
    want->dims[1] = x->dims[1];
    want->dims[2] = p->oh;
    want->dims[3] = p->ow;
    int64_t n;
    if (__builtin_mul_overflow(r->dims[0], x->dims[1], &n) ||
        __builtin_mul_overflow(n, p->oh * p->ow, &n))
        return osc_kfail(k, OSC_ERR_SHAPE, "the output [%lld, %lld, %lld, %lld] (num_rois, C, "
                         "output_height, output_width) has more than 2^63-1 elements",
                         (long long)r->dims[0], (long long)x->dims[1], (long long)p->oh,
                         (long long)p->ow);
    return OSC_OK;
}

OSC_INFER_OUT0(osc_roialign, validate)

/* One RoI's geometry: its start, bin size and sample grid per axis (y then x). */
typedef struct ra_roi {
    double start[2], bin[2];
    int64_t grid[2];
} ra_roi;

static void roi_geometry(const ra_params *p, const double c[4], ra_roi *g) {
    const double off = p->half_pixel ? 0.5 : 0.0;
    const int64_t bins[2] = {p->oh, p->ow};
    for (int a = 0; a < 2; a++) { /* a = 0: y (c[1], c[3]); a = 1: x (c[0], c[2]) */
        const double lo = c[1 - a] * p->scale - off, hi = c[3 - a] * p->scale - off;
        double size = hi - lo;
        if (!p->half_pixel && size < 1.0) size = 1.0;
        g->start[a] = lo;
        g->bin[a] = size / (double)bins[a];
        g->grid[a] = p->sampling_ratio > 0 ? p->sampling_ratio
                                           : (int64_t)ceil(size / (double)bins[a]);
        if (g->grid[a] < 0) g->grid[a] = 0; /* a reversed RoI: no sample, as ceil of < 0 */
    }
}

/* Every RoI finite, of a sane grid, with a batch index in [0, N): checked before any write. */
static osc_status check_rois(osc_kctx *k, const osc_tensor *x, const osc_tensor *r,
                             const osc_tensor *bi) {
    const ra_params *p = k->params;
    const int64_t *idx = bi->data;
    for (int64_t i = 0; i < r->dims[0]; i++) {
        if (idx[i] < 0 || idx[i] >= x->dims[0])
            return osc_kfail(k, OSC_ERR_INDEX, "input 2 'batch_indices' (%s) at [%lld] is %lld; "
                             "allowed: 0 to %lld (X's batch size %lld minus 1)",
                             osc_kinput_name(k, 2), (long long)i, (long long)idx[i],
                             (long long)x->dims[0] - 1, (long long)x->dims[0]);
        double c[4];
        for (int j = 0; j < 4; j++) {
            c[j] = osc_det_get(r, i * 4 + j);
            if (!isfinite(c[j]) || fabs(c[j] * p->scale) > 1e15)
                return osc_kfail(k, OSC_ERR_INDEX, "input 1 'rois' (%s) at [%lld, %d] is %g "
                                 "(%g after spatial_scale); allowed: a finite coordinate of "
                                 "magnitude up to 1e15", osc_kinput_name(k, 1), (long long)i, j,
                                 c[j], c[j] * p->scale);
        }
        ra_roi g;
        roi_geometry(p, c, &g);
        const double samples = (double)g.grid[0] * (double)g.grid[1] * (double)p->oh *
                               (double)p->ow;
        if (g.grid[0] > RA_MAX_SAMPLES || g.grid[1] > RA_MAX_SAMPLES ||
            samples > (double)RA_MAX_SAMPLES)
            return osc_kfail(k, OSC_ERR_LIMIT, "input 1 'rois' (%s) row %lld [%g, %g, %g, %g] "
                             "needs %.3g bilinear samples per channel (a grid of %lld x %lld "
                             "per bin); allowed: up to %lld (a smaller RoI, or sampling_ratio)",
                             osc_kinput_name(k, 1), (long long)i, c[0], c[1], c[2], c[3],
                             samples, (long long)g.grid[0], (long long)g.grid[1],
                             (long long)RA_MAX_SAMPLES);
    }
    return OSC_OK;
}

/* The bilinear sample at (y, x) of one H x W plane, as four corner offsets and weights; false
 * (a zero sample) when it lies past [-1, size] on either axis. */
typedef struct ra_sample {
    int64_t pos[4];
    double w[4];
} ra_sample;

static bool sample_at(double y, double x, int64_t h, int64_t w, ra_sample *s) {
    if (y < -1.0 || y > (double)h || x < -1.0 || x > (double)w) return false;
    if (y <= 0) y = 0;
    if (x <= 0) x = 0;
    int64_t y0 = (int64_t)y, x0 = (int64_t)x, y1, x1;
    if (y0 >= h - 1) y0 = y1 = h - 1, y = (double)y0;
    else y1 = y0 + 1;
    if (x0 >= w - 1) x0 = x1 = w - 1, x = (double)x0;
    else x1 = x0 + 1;
    const double ly = y - (double)y0, lx = x - (double)x0, hy = 1.0 - ly, hx = 1.0 - lx;
    s->pos[0] = y0 * w + x0, s->pos[1] = y0 * w + x1;
    s->pos[2] = y1 * w + x0, s->pos[3] = y1 * w + x1;
    s->w[0] = hy * hx, s->w[1] = hy * lx, s->w[2] = ly * hx, s->w[3] = ly * lx;
    return true;
}

/* One bin of every channel: acc[ch] for the c_n planes from element offset base, plane
 * elements apart. Each bilinear sample's corners and weights are found once for all channels;
 * each channel takes its samples in the one order (the same bits as one channel at a time). */
static void bin_values(const ra_params *p, const osc_tensor *x, int64_t base, int64_t c_n,
                       int64_t plane, const ra_roi *g, int64_t ph, int64_t pw, double *acc) {
    const int64_t h = x->dims[2], w = x->dims[3];
    const int64_t gh = g->grid[0], gw = g->grid[1];
    for (int64_t ch = 0; ch < c_n; ch++) acc[ch] = 0;
    for (int64_t iy = 0; iy < gh; iy++) {
        const double y = g->start[0] + (double)ph * g->bin[0] +
                         ((double)iy + 0.5) * g->bin[0] / (double)gh;
        for (int64_t ix = 0; ix < gw; ix++) {
            const double xx = g->start[1] + (double)pw * g->bin[1] +
                              ((double)ix + 0.5) * g->bin[1] / (double)gw;
            ra_sample s;
            const bool inside = sample_at(y, xx, h, w, &s);
            for (int64_t ch = 0; ch < c_n; ch++) {
                const int64_t pl = base + ch * plane;
                double v = 0;
                if (inside && p->max) {
                    v = s.w[0] * osc_det_get(x, pl + s.pos[0]);
                    for (int c = 1; c < 4; c++)
                        v = fmax(v, s.w[c] * osc_det_get(x, pl + s.pos[c]));
                } else if (inside) {
                    for (int c = 0; c < 4; c++) v += s.w[c] * osc_det_get(x, pl + s.pos[c]);
                }
                if (!p->max) acc[ch] += v;
                else acc[ch] = iy == 0 && ix == 0 ? v : fmax(acc[ch], v);
            }
        }
    }
    const int64_t n = gh * gw;
    if (!p->max)
        for (int64_t ch = 0; ch < c_n; ch++) acc[ch] = acc[ch] / (double)(n > 0 ? n : 1);
}

osc_status osc_roialign_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, int32_t n_out) {
    const ra_params *p = k->params;
    osc_tensor want;
    osc_status st = validate(k, in, n_in, &want);
    if (!st) st = osc_sh_check_inputs(k, in, n_in);
    if (!st) st = osc_det_check_out(k, out, n_out, &want);
    if (!st) st = check_rois(k, in[0], in[1], in[2]);
    if (st || osc_tensor_count(&want) == 0) return st;
    const osc_tensor *x = in[0], *r = in[1];
    const int64_t *bi = in[2]->data;
    const int64_t c_n = x->dims[1], plane = x->dims[2] * x->dims[3];
    const size_t bytes = (size_t)c_n * sizeof(double); /* c_n > 0: the output is not empty */
    double *acc = k->alloc ? osc_malloc(k->alloc, bytes) : NULL;
    if (!acc)
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes for the channels' bins",
                         bytes);
    for (int64_t i = 0; i < r->dims[0]; i++) {
        double c[4];
        for (int j = 0; j < 4; j++) c[j] = osc_det_get(r, i * 4 + j);
        ra_roi g;
        roi_geometry(p, c, &g);
        for (int64_t ph = 0; ph < p->oh; ph++)
            for (int64_t pw = 0; pw < p->ow; pw++) {
                bin_values(p, x, bi[i] * c_n * plane, c_n, plane, &g, ph, pw, acc);
                for (int64_t ch = 0; ch < c_n; ch++)
                    osc_det_put(out, ((i * c_n + ch) * p->oh + ph) * p->ow + pw, acc[ch]);
            }
    }
    osc_free(k->alloc, acc, bytes);
    return OSC_OK;
}
