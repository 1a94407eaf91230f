/* resize_run.c: the values of Resize and Upsample, as ONNX's reference implementation computes
 * them. Per output position along a resampled dim, its source coordinate (the
 * coordinate_transformation_mode), then nearest: one source index; linear and cubic: taps
 * (indices clamped to the dim, as the reference's edge padding gives, and weights), applied
 * dim after dim from the last to the first in double (separable), rounded once at the end. */
#include <math.h>
#include <string.h>

#include "resize.h"

/* Source coordinate of output position x along dim d (input size n, output size on); false
 * when tf_crop_and_resize puts it outside the input (the extrapolation value then). The output
 * width w is scale * n, unrounded, as the reference has it; the spec's special case of an output
 * of one element ("length_resized > 1") looks at the integral size. */
static bool source_coord(const osc_rz_params *p, const osc_rz_geom *g, int32_t d, int64_t n,
                         int64_t on, int64_t x, double *xo) {
    const double s = g->scale[d], w = s * (double)n, xd = (double)x;
    switch (p->ctm) {
    case OSC_RZ_HALF_PIXEL: *xo = (xd + 0.5) / s - 0.5; break;
    case OSC_RZ_HALF_PIXEL_SYMMETRIC: {
        const double adj = (double)on / w, center = (double)n / 2;
        *xo = center * (1 - adj) + (xd + 0.5) / s - 0.5;
        break;
    }
    case OSC_RZ_PYTORCH_HALF_PIXEL: *xo = on > 1 ? (xd + 0.5) / s - 0.5 : 0; break;
    case OSC_RZ_ALIGN_CORNERS: *xo = w == 1 ? 0 : xd * (double)(n - 1) / (w - 1); break;
    case OSC_RZ_ASYMMETRIC: *xo = xd / s; break;
    case OSC_RZ_TF_CROP_AND_RESIZE: {
        const double b = g->roi_start[d], e = g->roi_end[d], m = (double)(n - 1);
        *xo = (on > 1 ? xd * (e - b) * m / (w - 1) : (e - b) * m / 2) + b * m;
        return *xo >= 0 && *xo <= m;
    }
    default: *xo = (xd + 0.5) / s; break; /* tf_half_pixel_for_nn */
    }
    return true;
}

static int64_t clamp_index(int64_t i, int64_t n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

/* The input index nearest mode picks for source coordinate xo */
static int64_t nearest_index(const osc_rz_params *p, double scale, double xo, int64_t n) {
    const double base = floor(xo), r = xo - base;
    double i;
    if (p->nearest == OSC_RZ_SIMPLE) i = scale < 1 ? ceil(xo) : base;
    else if (r == 0) i = xo;
    else if (p->nearest == OSC_RZ_PREFER_FLOOR) i = r <= 0.5 ? base : base + 1;
    else if (p->nearest == OSC_RZ_PREFER_CEIL) i = r < 0.5 ? base : base + 1;
    else if (p->nearest == OSC_RZ_FLOOR) i = base;
    else i = base + 1;
    return clamp_index(i < -1 ? -1 : i > (double)n ? n : (int64_t)i, n);
}

/* One element of X's dtype holding the extrapolation value */
static void extrapolation_elem(const osc_rz_params *p, int32_t dtype, unsigned char *val) {
    osc_sh_zero_elem(dtype, val);
    osc_tensor t = {.dtype = dtype, .rank = 0, .data = val};
    if (osc_rz_real(dtype)) osc_rz_set(&t, 0, p->extrapolation);
    else if (dtype == OSC_BOOL) val[0] = p->extrapolation != 0;
}

static osc_status write_nearest(osc_kctx *k, const osc_tensor *x, osc_tensor *out,
                                const osc_rz_geom *g) {
    const osc_rz_params *p = k->params;
    const int32_t r = x->rank;
    int64_t total = 0, stride[OSC_MAX_RANK], *tab[OSC_MAX_RANK];
    for (int32_t d = 0; d < r; d++) total += out->dims[d];
    size_t bytes;
    osc_status st = osc_rz_bytes8(k, total, "the nearest indices", &bytes);
    if (st) return st;
    int64_t *mem = osc_malloc(k->alloc, bytes);
    if (!mem) return osc_kfail(k, OSC_ERR_NOMEM, "out of memory for the nearest indices");
    osc_row_strides(x, stride);
    for (int32_t d = 0; d < r; d++) {
        tab[d] = d ? tab[d - 1] + out->dims[d - 1] : mem;
        for (int64_t i = 0; i < out->dims[d]; i++) {
            double xo;
            if (!g->active[d]) tab[d][i] = i * stride[d];
            else if (!source_coord(p, g, d, x->dims[d], out->dims[d], i, &xo)) tab[d][i] = -1;
            else tab[d][i] = nearest_index(p, g->scale[d], xo, x->dims[d]) * stride[d];
        }
    }
    unsigned char ev[32];
    extrapolation_elem(p, x->dtype, ev);
    const size_t es = osc_dtype_get(x->dtype)->bits / 8;
    const unsigned char *src = x->data;
    unsigned char *dst = out->data;
    int64_t c[OSC_MAX_RANK] = {0};
    const int64_t last = out->dims[r - 1];
    for (;;) { /* one row of the last dim per pass */
        int64_t off = 0;
        bool outside = false;
        for (int32_t d = 0; d < r - 1; d++) {
            outside |= tab[d][c[d]] < 0;
            off += tab[d][c[d]];
        }
        for (int64_t i = 0; i < last; i++, dst += es) {
            const int64_t t = tab[r - 1][i];
            memcpy(dst, outside || t < 0 ? ev : src + (size_t)(off + t) * es, es);
        }
        int32_t d = r - 2;
        while (d >= 0 && ++c[d] == out->dims[d]) c[d--] = 0;
        if (d < 0) break;
    }
    osc_free(k->alloc, mem, bytes);
    return OSC_OK;
}

/* Half the taps of a dim: 1 (linear) or 2 (cubic), the filter stretched by 1 / scale when
 * antialias downsamples (the reference's footprint). */
static int64_t half_taps(const osc_rz_params *p, double scale) {
    const double se = p->antialias && scale < 1 ? scale : 1;
    return (int64_t)-floor((p->mode == OSC_RZ_LINEAR ? -1 : -2) / se);
}

/* The weight of a tap at distance t (antialias: the stretched filter) */
static double filter(const osc_rz_params *p, double t) {
    const double a = p->cubic_a, x = fabs(t);
    if (p->mode == OSC_RZ_LINEAR) return x < 1 ? 1 - x : 0;
    if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
    if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
    return 0;
}

/* The 2 m taps of source coordinate xo along a dim of n elements: indices (clamped) and
 * weights. The left neighbour of an integral xo is xo - 1 with ratio 1, as in the reference. */
static void taps(const osc_rz_params *p, double scale, double xo, int64_t n, int64_t m,
                 int64_t *idx, double *w) {
    double base = floor(xo), r = xo - base;
    if (r == 0) base -= 1, r = 1;
    const double se = p->antialias && scale < 1 ? scale : 1;
    double sum = 0;
    for (int64_t t = 0; t < 2 * m; t++) {
        const double i = (double)(1 - m + t);
        w[t] = filter(p, se * (i - r));
        sum += w[t];
        idx[t] = (int64_t)(base + i);
    }
    if (!p->antialias && p->mode == OSC_RZ_LINEAR) w[0] = 1 - r, w[1] = r;
    if (!p->antialias && p->mode == OSC_RZ_CUBIC) { /* the reference's expressions, bit for bit */
        const double a = p->cubic_a, u = 1 - r;
        w[0] = ((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a;
        w[1] = ((a + 2) * r - (a + 3)) * r * r + 1;
        w[2] = ((a + 2) * u - (a + 3)) * u * u + 1;
        w[3] = ((a * (u + 1) - 5 * a) * (u + 1) + 8 * a) * (u + 1) - 4 * a;
    }
    if (p->antialias)
        for (int64_t t = 0; t < 2 * m; t++) w[t] /= sum;
    if (p->exclude_outside) {
        sum = 0;
        for (int64_t t = 0; t < 2 * m; t++) {
            if (idx[t] < 0 || idx[t] >= n) w[t] = 0;
            sum += w[t];
        }
        for (int64_t t = 0; t < 2 * m && sum != 0; t++) w[t] /= sum;
    }
    for (int64_t t = 0; t < 2 * m; t++) idx[t] = clamp_index(idx[t], n);
}

/* dst = src (dims cd) resampled along dim d to on positions */
static osc_status resample_dim(osc_kctx *k, const osc_rz_geom *g, int32_t d, const int64_t *cd,
                               int32_t r, const double *src, double *dst, int64_t on) {
    const osc_rz_params *p = k->params;
    const int64_t n = cd[d], m = half_taps(p, g->scale[d]);
    int64_t outer = 1, inner = 1;
    for (int32_t j = 0; j < d; j++) outer *= cd[j];
    for (int32_t j = d + 1; j < r; j++) inner *= cd[j];
    size_t bytes;
    osc_status st = osc_rz_bytes8(k, on > INT64_MAX / (4 * m + 1) ? -1 : on * (4 * m + 1),
                                   "the interpolation taps", &bytes);
    if (st) return st;
    double *w = osc_malloc(k->alloc, bytes);
    if (!w) return osc_kfail(k, OSC_ERR_NOMEM, "out of memory for the interpolation taps");
    int64_t *idx = (int64_t *)(w + on * 2 * m);
    double *ok = w + on * 4 * m; /* 1: inside, 0: the extrapolation value */
    for (int64_t x = 0; x < on; x++) {
        double xo;
        ok[x] = source_coord(p, g, d, n, on, x, &xo);
        if (ok[x] != 0) {
            taps(p, g->scale[d], xo, n, m, idx + x * 2 * m, w + x * 2 * m);
            continue;
        }
        for (int64_t t = 0; t < 2 * m; t++) idx[x * 2 * m + t] = 0, w[x * 2 * m + t] = 0;
    }
    for (int64_t o = 0; o < outer && inner == 1; o++) /* the last dim: one sum per output */
        for (int64_t x = 0; x < on; x++) {
            const double *wx = w + x * 2 * m, *s = src + o * n;
            const int64_t *ix = idx + x * 2 * m;
            double v = ok[x] != 0 ? 0 : p->extrapolation;
            for (int64_t t = 0; t < 2 * m && ok[x] != 0; t++) v += wx[t] * s[ix[t]];
            dst[o * on + x] = v;
        }
    for (int64_t o = 0; o < outer && inner > 1; o++)
        for (int64_t x = 0; x < on; x++) {
            double *row = dst + (o * on + x) * inner;
            const double *wx = w + x * 2 * m;
            const int64_t *ix = idx + x * 2 * m;
            for (int64_t i = 0; i < inner; i++) row[i] = ok[x] != 0 ? 0 : p->extrapolation;
            for (int64_t t = 0; t < 2 * m && ok[x] != 0; t++) {
                const double *s = src + (o * n + ix[t]) * inner;
                for (int64_t i = 0; i < inner; i++) row[i] += wx[t] * s[i];
            }
        }
    osc_free(k->alloc, w, bytes);
    return OSC_OK;
}

static osc_status write_interp(osc_kctx *k, const osc_tensor *x, osc_tensor *out,
                               const osc_rz_geom *g) {
    const int32_t r = x->rank;
    int64_t cd[OSC_MAX_RANK], count = osc_tensor_count(x);
    memcpy(cd, x->dims, (size_t)r * sizeof *cd);
    size_t bytes;
    osc_status st = osc_rz_bytes8(k, count, "input 0 'X' as doubles", &bytes);
    if (st) return st;
    double *cur = osc_malloc(k->alloc, bytes);
    if (!cur) return osc_kfail(k, OSC_ERR_NOMEM, "out of memory for input 0 'X' as doubles");
    if (x->dtype == OSC_FLOAT) /* the common case without a call per element */
        for (int64_t i = 0; i < count; i++) cur[i] = ((const float *)x->data)[i];
    else
        for (int64_t i = 0; i < count; i++) cur[i] = osc_rz_get(x, i);
    for (int32_t d = r - 1; d >= 0 && !st; d--) {
        if (!g->active[d]) continue;
        const int64_t on = out->dims[d];
        const int64_t next = cd[d] ? count / cd[d] : 0;
        size_t nb;
        st = osc_rz_bytes8(k, next && on > INT64_MAX / next ? -1 : next * on,
                            "an intermediate of the resampling", &nb);
        double *dst = st ? NULL : osc_malloc(k->alloc, nb);
        if (!st && !dst) st = osc_kfail(k, OSC_ERR_NOMEM, "out of memory for an intermediate "
                                        "of the resampling");
        if (!st) st = resample_dim(k, g, d, cd, r, cur, dst, on);
        if (st) {
            if (dst) osc_free(k->alloc, dst, nb);
            break;
        }
        osc_free(k->alloc, cur, bytes);
        cur = dst, bytes = nb, cd[d] = on, count = next * on;
    }
    if (!st && out->dtype == OSC_FLOAT)
        for (int64_t i = 0; i < count; i++) ((float *)out->data)[i] = (float)cur[i];
    else
        for (int64_t i = 0; i < count && !st; i++) osc_rz_set(out, i, cur[i]);
    osc_free(k->alloc, cur, bytes);
    return st;
}

osc_status osc_rz_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        const osc_tensor *want, const osc_rz_geom *g) {
    (void)n_in, (void)want;
    const osc_rz_params *p = k->params;
    return p->mode == OSC_RZ_NEAREST ? write_nearest(k, in[0], out, g)
                                     : write_interp(k, in[0], out, g);
}
