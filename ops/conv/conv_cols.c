/* conv_cols.c: the column steps of the convolutions: im2col (Conv), the sampled columns of
 * DeformConv and col2im (ConvTranspose). Positions are walked in segments along the last axis,
 * within which the other side's elements lie at a fixed stride, so the inner loops are plain
 * strided copies (or adds) between two ranges computed once per segment. */
#include <math.h>
#include <string.h>

#include "conv.h"
#include "core/dtype.h"
#include "core/kattr.h"

/* The part of each input plane that output positions [p0, p0 + pt) read, as a range of
 * elements [*lo, *hi): the span along the first axis (all of the others). Positions exist, so
 * no axis is empty. */
static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static void plane_span(const osc_conv_geom *g, int64_t p0, int64_t pt, int64_t *lo,
                       int64_t *hi) {
    const int64_t per_out = g->out_size / g->out[0], per_in = g->in_size / g->in[0];
    const int64_t a = p0 / per_out, b = (p0 + pt - 1) / per_out;
    const int64_t i0 = clamp64(a * g->stride[0] - g->pad[0], 0, g->in[0]);
    const int64_t i1 = b * g->stride[0] - g->pad[0] + (g->k[0] - 1) * g->dil[0] + 1;
    *lo = i0 * per_in, *hi = clamp64(i1, i0, g->in[0]) * per_in;
}

/* The multi-index of flat position p over dims. */
static void unravel(int64_t p, const int64_t *dims, int32_t nd, int64_t *o) {
    for (int32_t d = nd - 1; d >= 0; d--) {
        o[d] = dims[d] ? p % dims[d] : 0;
        p = dims[d] ? p / dims[d] : 0;
    }
}

/* Advances o by seg along the last axis (seg never passes its end), carrying into the others. */
static void advance(int64_t *o, const int64_t *dims, int32_t nd, int64_t seg) {
    o[nd - 1] += seg;
    for (int32_t d = nd - 1; d > 0 && o[d] == dims[d]; d--) {
        o[d] = 0;
        o[d - 1]++;
    }
}

/* The next kernel element's multi-index. */
static void next_tap(int64_t *kk, const int64_t *k, int32_t nd) {
    for (int32_t d = nd - 1; d >= 0 && ++kk[d] == k[d]; d--) kk[d] = 0;
}

/* A segment of seg positions starting at pos (an index over one side), tap kk: element j maps
 * to pos*stride - pad + kk*dil on the other side (sizes `to`). False when an axis but the last
 * falls outside `to`; else the last axis's row starts at *row, element j of the segment maps to
 * *base + j * stride there, and j in [*jlo, *jhi) are those inside. */
static bool segment(const osc_conv_geom *g, const int64_t *pos, const int64_t *kk,
                    const int64_t *to, int64_t seg, int64_t *row, int64_t *base, int64_t *jlo,
                    int64_t *jhi) {
    const int32_t l = g->nd - 1;
    int64_t off = 0;
    for (int32_t d = 0; d < l; d++) {
        const int64_t e = pos[d] * g->stride[d] - g->pad[d] + kk[d] * g->dil[d];
        if (e < 0 || e >= to[d]) return false;
        off = off * to[d] + e;
    }
    const int64_t s = g->stride[l], b = pos[l] * s - g->pad[l] + kk[l] * g->dil[l], n = to[l];
    int64_t lo = b >= 0 ? 0 : (-b + s - 1) / s, hi = b >= n ? 0 : (n - b + s - 1) / s;
    lo = lo < seg ? lo : seg;
    hi = hi < seg ? hi : seg;
    *row = off * n;
    *base = b;
    *jlo = lo;
    *jhi = hi > lo ? hi : lo;
    return true;
}

#define LD_SAME(v) (v)
#define LD_F16(v) osc_f16_to_f32(v)
#define LD_BF16(v) osc_bf16_to_f32(v)

#define IM2COL(NAME, T, CT, LD)                                                                \
    OSC_AVX2_CLONES static void NAME(const osc_conv_geom *g, const T *x, int64_t p0, int64_t pt, \
                                     CT *cols) {                                           \
        const int32_t nd = g->nd, l = nd - 1;                                                  \
        const int64_t s = g->stride[l];                                                        \
        int64_t kk[OSC_CONV_ND] = {0}, o[OSC_CONV_ND], span0, span1;                           \
        plane_span(g, p0, pt, &span0, &span1);                                                 \
        for (int64_t r = 0; r < g->cg * g->k_size; r++) {                                      \
            const T *xc = x + (r / g->k_size) * g->in_size;                                    \
            /* the next channel's part fetched while this one's taps run (many planes read a  \
             * few rows at a time: more streams than the hardware follows) */                 \
            if (r % g->k_size == 0 && r + g->k_size < g->cg * g->k_size)                       \
                for (int64_t e = span0; e < span1; e += 64 / (int64_t)sizeof(T))              \
                    OSC_PREFETCH(xc + g->in_size + e, 0);                                      \
            CT *dst = cols + r * pt;                                                           \
            unravel(p0, g->out, nd, o);                                                        \
            for (int64_t p = 0; p < pt;) {                                                     \
                int64_t seg = g->out[l] - o[l], row = 0, b = 0, lo, hi;                        \
                seg = seg < pt - p ? seg : pt - p;                                             \
                CT *dd = dst + p;                                                              \
                if (!segment(g, o, kk, g->in, seg, &row, &b, &lo, &hi)) lo = hi = seg;         \
                const T *xr = xc + row;                                                        \
                for (int64_t j = 0; j < lo; j++) dd[j] = 0;                                    \
                if (s == 1)                                                                    \
                    for (int64_t j = lo; j < hi; j++) dd[j] = (CT)LD(xr[b + j]);               \
                else if (s == 2) /* (a constant stride: the loads become shuffles) */         \
                    for (int64_t j = lo; j < hi; j++) dd[j] = (CT)LD(xr[b + 2 * j]);           \
                else                                                                           \
                    for (int64_t j = lo; j < hi; j++) dd[j] = (CT)LD(xr[b + j * s]);           \
                for (int64_t j = hi; j < seg; j++) dd[j] = 0;                                  \
                p += seg;                                                                      \
                advance(o, g->out, nd, seg);                                                   \
            }                                                                                  \
            next_tap(kk, g->k, nd);                                                            \
        }                                                                                      \
    }
IM2COL(im2col_f32, float, float, LD_SAME)
IM2COL(im2col_f64, double, double, LD_SAME)
IM2COL(im2col_f16, uint16_t, float, LD_F16)
IM2COL(im2col_bf16, uint16_t, float, LD_BF16)

void osc_conv_im2col(const osc_conv_geom *g, int32_t dt, const void *x, int64_t p0, int64_t pt,
                     void *cols) {
    switch (dt) {
        case OSC_FLOAT: im2col_f32(g, x, p0, pt, cols); break;
        case OSC_DOUBLE: im2col_f64(g, x, p0, pt, cols); break;
        case OSC_FLOAT16: im2col_f16(g, x, p0, pt, cols); break;
        case OSC_BFLOAT16: im2col_bf16(g, x, p0, pt, cols); break;
        default: break;
    }
}

#define COL2IM(NAME, CT)                                                                       \
    static void NAME(const osc_conv_geom *g, const CT *cols, int64_t planes, int64_t p0,       \
                     int64_t pt, CT *acc) {                                                    \
        const int32_t nd = g->nd, l = nd - 1;                                                  \
        const int64_t s = g->stride[l];                                                        \
        int64_t kk[OSC_CONV_ND] = {0}, i[OSC_CONV_ND];                                         \
        for (int64_t r = 0; r < planes * g->k_size; r++) {                                     \
            CT *am = acc + (r / g->k_size) * g->out_size;                                      \
            const CT *src = cols + r * pt;                                                     \
            unravel(p0, g->in, nd, i);                                                         \
            for (int64_t p = 0; p < pt;) {                                                     \
                int64_t seg = g->in[l] - i[l], row, b, lo, hi;                                 \
                seg = seg < pt - p ? seg : pt - p;                                             \
                if (segment(g, i, kk, g->out, seg, &row, &b, &lo, &hi)) {                      \
                    CT *ar = am + row + b;                                                     \
                    const CT *sr = src + p;                                                    \
                    for (int64_t j = lo; j < hi; j++) ar[j * s] += sr[j];                      \
                }                                                                              \
                p += seg;                                                                      \
                advance(i, g->in, nd, seg);                                                    \
            }                                                                                  \
            next_tap(kk, g->k, nd);                                                            \
        }                                                                                      \
    }
COL2IM(col2im_f32, float)
COL2IM(col2im_f64, double)

void osc_conv_col2im(const osc_conv_geom *g, int32_t ct, const void *cols, int64_t planes,
                     int64_t p0, int64_t pt, void *acc) {
    if (ct == OSC_DOUBLE) col2im_f64(g, cols, planes, p0, pt, acc);
    else col2im_f32(g, cols, planes, p0, pt, acc);
}

/* Element i of a float tensor of dtype dt, as a double. */
static double ld(int32_t dt, const void *p, int64_t i) {
    switch (dt) {
        case OSC_FLOAT: return ((const float *)p)[i];
        case OSC_DOUBLE: return ((const double *)p)[i];
        case OSC_FLOAT16: return osc_f16_to_f32(((const uint16_t *)p)[i]);
        case OSC_BFLOAT16: return osc_bf16_to_f32(((const uint16_t *)p)[i]);
        default: return 0;
    }
}

/* The image plane xc (dtype dt) at the fractional position pos, linear along every axis; a
 * corner outside the image counts 0. */
static double sample(const osc_conv_geom *g, int32_t dt, const void *xc, int64_t base,
                     const double *pos) {
    const int32_t nd = g->nd;
    int64_t lo[OSC_CONV_ND];
    double fr[OSC_CONV_ND];
    for (int32_t d = 0; d < nd; d++) {
        if (!(pos[d] > -1.0 && pos[d] < (double)g->in[d])) return 0; /* NaN too */
        const double f = floor(pos[d]);
        lo[d] = (int64_t)f;
        fr[d] = pos[d] - f;
    }
    double sum = 0;
    for (int32_t corner = 0; corner < (1 << nd); corner++) {
        double wgt = 1;
        int64_t off = 0;
        bool in = true;
        for (int32_t d = 0; d < nd && in; d++) {
            const int32_t up = (corner >> (nd - 1 - d)) & 1;
            const int64_t e = lo[d] + up;
            in = e >= 0 && e < g->in[d];
            wgt *= up ? fr[d] : 1 - fr[d];
            off = off * g->in[d] + e;
        }
        if (in && wgt != 0) sum += wgt * ld(dt, xc, base + off);
    }
    return sum;
}

void osc_conv_deform_cols(const osc_conv_geom *g, int32_t dt, const void *x, const void *off,
                          const void *mask, int64_t n, int64_t grp, int64_t p0, int64_t pt,
                          void *cols) {
    const int32_t nd = g->nd;
    const int64_t per_og = g->c / g->og, P = g->out_size;
    int64_t kk[OSC_CONV_ND] = {0}, o[OSC_CONV_ND];
    for (int64_t r = 0; r < g->cg * g->k_size; r++) {
        const int64_t ch = grp * g->cg + r / g->k_size, tap = r % g->k_size;
        const int64_t og = ch / per_og, xbase = (n * g->c + ch) * g->in_size;
        /* offset channels (og, tap, axis); mask channels (og, tap) */
        const int64_t ob = (n * g->og * g->k_size * nd + (og * g->k_size + tap) * nd) * P;
        const int64_t mb = (n * g->og * g->k_size + og * g->k_size + tap) * P;
        if (tap == 0) memset(kk, 0, sizeof kk);
        unravel(p0, g->out, nd, o);
        for (int64_t p = p0; p < p0 + pt; p++) {
            double pos[OSC_CONV_ND];
            for (int32_t d = 0; d < nd; d++)
                pos[d] = (double)(o[d] * g->stride[d] - g->pad[d] + kk[d] * g->dil[d]) +
                         ld(dt, off, ob + d * P + p);
            double v = sample(g, dt, x, xbase, pos);
            if (mask) v *= ld(dt, mask, mb + p);
            if (dt == OSC_DOUBLE) ((double *)cols)[r * pt + p - p0] = v;
            else ((float *)cols)[r * pt + p - p0] = (float)v;
            advance(o, g->out, nd, 1);
        }
        next_tap(kk, g->k, nd);
    }
}
