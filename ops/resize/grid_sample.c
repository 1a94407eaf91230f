/* grid_sample.c: GridSample (16: 4-D X, modes bilinear, nearest, bicubic; 20 and 22: N-D,
 * modes linear, nearest, cubic), as ONNX's reference implementation computes it: each grid
 * point's normalized coordinates (the last grid dim, x first: the reverse of X's dims)
 * denormalized per align_corners; nearest rounded half to even (over 3 spatial dims too, as the
 * node tests of ONNX 1.23 expect; torch rounds those half away from zero); border and
 * reflection padding applied to the coordinate, then to each tap (so bicubic with border
 * padding differs from torch's, which clamps only the taps); the taps' weights multiplied over
 * the spatial dims (bicubic: a = -0.75) and summed in double. Nearest copies elements (any
 * dtype). */
#include <math.h>
#include <string.h>

#include "resize_common.h"

OSC_KERNEL_DECLARE(osc_gsmp)

enum { GS_ZEROS = 0, GS_BORDER, GS_REFLECTION };
#define GS_MAX_TAPS (1 << 20) /* taps per output element: 2^s (linear), 4^s (cubic) */

typedef struct gs_params {
    int32_t mode, padding;
    bool align_corners;
} gs_params;

osc_status osc_gsmp_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"align_corners", "mode", "padding_mode", NULL};
    static const char *const k_modes16[] = {"nearest", "bilinear", "bicubic", NULL};
    static const char *const k_modes20[] = {"nearest", "linear", "cubic", NULL};
    static const char *const k_pads[] = {"zeros", "border", "reflection", NULL};
    const int32_t v = k->row->variant;
    if (v <= 0 || v >= OSC_GS_END)
        return osc_kfail(k, OSC_ERR_MODEL, "registry row without a GridSample variant");
    gs_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    osc_status st = osc_attr_known(k, node, k_known);
    if (!st) st = osc_rz_attr_enum(k, node, "mode", v == OSC_GS_16 ? "bilinear" : "linear",
                                   v == OSC_GS_16 ? k_modes16 : k_modes20, &p->mode);
    if (!st) st = osc_rz_attr_enum(k, node, "padding_mode", "zeros", k_pads, &p->padding);
    if (!st) st = osc_sh_attr_bool(k, node, "align_corners", false, &p->align_corners);
    if (st) return st;
    *params = p;
    return OSC_OK;
}

static osc_status gs_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *o, void *aux) {
    (void)aux;
    const gs_params *p = k->params;
    int64_t cx, cg;
    char sx[64], sg[64];
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "X", &cx);
    if (!st) st = osc_sh_need_typed(k, in, n_in, 1, "grid", &cg);
    if (st) return st;
    const osc_tensor *x = in[0], *g = in[1];
    const int32_t r = x->rank, s = r - 2;
    if (r < 3 || (k->row->variant == OSC_GS_16 && r != 4))
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s; expected %s",
                         osc_kinput_name(k, 0), osc_shape_str(x, sx, sizeof sx),
                         k->row->variant == OSC_GS_16 ? "rank 4 (N, C, H, W)"
                                                      : "rank >= 3 (N, C, spatial dims...)");
    if (g->rank != r || g->dims[0] != x->dims[0] || g->dims[r - 1] != s)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'grid' (%s) has shape %s; with input 0 'X' "
                         "(%s) of shape %s it must be [%lld, spatial dims..., %d] (rank %d)",
                         osc_kinput_name(k, 1), osc_shape_str(g, sg, sizeof sg),
                         osc_kinput_name(k, 0), osc_shape_str(x, sx, sizeof sx),
                         (long long)x->dims[0], (int)s, (int)r);
    if (p->mode != OSC_RZ_NEAREST && !osc_rz_real(x->dtype))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'X' (%s) is %s: the interpolating "
                         "modes take float and integer dtypes; mode 'nearest' takes any",
                         osc_kinput_name(k, 0), osc_dtype_get(x->dtype)->name);
    if (p->mode != OSC_RZ_NEAREST && s * (p->mode == OSC_RZ_LINEAR ? 1 : 2) > 20)
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'X' (%s) has %d spatial dims: this mode "
                         "would read more than 2^20 taps per output element", osc_kinput_name(k, 0),
                         (int)s);
    memset(o, 0, sizeof *o);
    o->dtype = x->dtype;
    o->rank = r;
    o->dims[0] = x->dims[0], o->dims[1] = x->dims[1];
    for (int32_t d = 2; d < r; d++) o->dims[d] = g->dims[d - 1];
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output would have more than 2^63-1 elements");
    return OSC_OK;
}

/* The reference's _gs_reflect: x folded into [lo, hi] */
static double reflect(double x, double lo, double hi) {
    const double rng = hi - lo;
    if (!(rng > 0)) return lo;
    if (x < lo || x > hi) {
        const double dx = x < lo ? lo - x : x - hi, n = floor(dx / rng), r = dx - n * rng;
        const bool even = fmod(n, 2) == 0;
        return (x < lo) == even ? lo + r : hi - r;
    }
    return x;
}

/* Index of a tap at i along a dim of size n under the padding; -1: outside (zeros) */
static int64_t tap_index(const gs_params *p, double i, int64_t n, double lo, double hi) {
    if (p->padding == GS_BORDER) i = i < 0 ? 0 : i > (double)(n - 1) ? (double)(n - 1) : i;
    else if (p->padding == GS_REFLECTION) i = trunc(reflect(i, lo, hi));
    return i >= 0 && i < (double)n ? (int64_t)i : -1;
}

static void cubic_coeffs(double t, double *c) {
    const double a = -0.75, u = 1 - t;
    c[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
    c[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
    c[2] = ((a + 2) * u - (a + 3)) * u * u + 1;
    c[3] = ((a * (u + 1) - 5 * a) * (u + 1) + 8 * a) * (u + 1) - 4 * a;
}

/* Per spatial dim d: the taps' element offsets (-1 outside) and weights at point `coord`
 * (normalized, x first) */
static void point_taps(const gs_params *p, const osc_tensor *x, const int64_t *stride,
                       const double *coord, int32_t nt, int64_t (*off)[4], double (*w)[4]) {
    const int32_t s = x->rank - 2;
    for (int32_t d = 0; d < s; d++) {
        const int64_t n = x->dims[d + 2];
        const double v = coord[s - 1 - d], lo = p->align_corners ? 0 : -0.5,
                     hi = p->align_corners ? (double)(n - 1) : (double)n - 0.5;
        double c = p->align_corners ? (v + 1) / 2 * (double)(n - 1) : ((v + 1) * (double)n - 1) / 2;
        if (p->mode == OSC_RZ_NEAREST) c = nearbyint(c);
        if (c < lo || c > hi) {
            if (p->padding == GS_BORDER) c = c < 0 ? 0 : c > (double)(n - 1) ? (double)(n - 1) : c;
            else if (p->padding == GS_REFLECTION) c = reflect(c, lo, hi);
            else c = c < -4 ? -4 : c > (double)n + 4 ? (double)n + 4 : c; /* all taps outside */
        }
        if (p->mode == OSC_RZ_NEAREST) {
            const int64_t i = tap_index(p, trunc(c), n, lo, hi);
            off[d][0] = i < 0 ? -1 : i * stride[d + 2], w[d][0] = 1;
            continue;
        }
        const double c0 = floor(c), t = c - c0;
        if (nt == 2) w[d][0] = 1 - t, w[d][1] = t;
        else cubic_coeffs(t, w[d]);
        for (int32_t j = 0; j < nt; j++) {
            const int64_t i = tap_index(p, c0 + (nt == 2 ? j : j - 1), n, lo, hi);
            off[d][j] = i < 0 ? -1 : i * stride[d + 2];
        }
    }
}

static osc_status gs_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, const osc_tensor *want, const osc_sh_none *aux) {
    (void)n_in, (void)want, (void)aux;
    const gs_params *p = k->params;
    const osc_tensor *x = in[0], *g = in[1];
    const int32_t s = x->rank - 2, nt = p->mode == OSC_RZ_NEAREST ? 1
                                       : p->mode == OSC_RZ_LINEAR ? 2 : 4;
    const int64_t cg = osc_tensor_count(g);
    for (int64_t i = 0; i < cg; i++) { /* every check before the first write */
        const double v = osc_rz_get(g, i);
        if (!isfinite(v))
            return osc_kfail(k, OSC_ERR_INDEX, "input 1 'grid' (%s): value %g at position %lld "
                             "is not finite", osc_kinput_name(k, 1), v, (long long)i);
    }
    int64_t stride[OSC_MAX_RANK], (*off)[4] = NULL;
    double(*w)[4] = NULL, coord[OSC_MAX_RANK];
    size_t bytes = (size_t)s * sizeof *off;
    off = osc_malloc(k->alloc, bytes);
    w = off ? osc_malloc(k->alloc, bytes) : NULL;
    if (!w) {
        if (off) osc_free(k->alloc, off, bytes);
        return osc_kfail(k, OSC_ERR_NOMEM, "out of memory for the taps");
    }
    osc_row_strides(x, stride);
    const int64_t nb = x->dims[0], nc = x->dims[1], npts = cg / (nb * s);
    const size_t es = osc_dtype_get(x->dtype)->bits / 8;
    unsigned char zero[32];
    osc_sh_zero_elem(x->dtype, zero);
    for (int64_t b = 0; b < nb; b++)
        for (int64_t q = 0; q < npts; q++) {
            for (int32_t j = 0; j < s; j++) coord[j] = osc_rz_get(g, (b * npts + q) * s + j);
            point_taps(p, x, stride, coord, nt, off, w);
            for (int64_t c = 0; c < nc; c++) {
                const int64_t base = b * stride[0] + c * stride[1], yo = (b * nc + c) * npts + q;
                if (p->mode == OSC_RZ_NEAREST) {
                    int64_t o = base;
                    bool outside = false;
                    for (int32_t d = 0; d < s; d++) outside |= off[d][0] < 0, o += off[d][0];
                    memcpy((unsigned char *)out->data + (size_t)yo * es,
                           outside ? zero : (const unsigned char *)x->data + (size_t)o * es, es);
                    continue;
                }
                int32_t t[OSC_MAX_RANK] = {0};
                double sum = 0;
                for (;;) { /* every combination of one tap per dim */
                    double wt = 1;
                    int64_t o = base;
                    bool outside = false;
                    for (int32_t d = 0; d < s; d++) {
                        wt *= w[d][t[d]];
                        outside |= off[d][t[d]] < 0;
                        o += off[d][t[d]];
                    }
                    if (!outside) sum += wt * osc_rz_get(x, o);
                    int32_t d = s - 1;
                    while (d >= 0 && ++t[d] == nt) t[d--] = 0;
                    if (d < 0) break;
                }
                osc_rz_set(out, yo, sum);
            }
        }
    osc_free(k->alloc, w, bytes);
    osc_free(k->alloc, off, bytes);
    return OSC_OK;
}
OSC_SH_KERNEL(osc_gsmp, gs_geometry, gs_write)
