/* conv_direct.c: Conv of float 2-D images without columns, on AVX-512 (x86-64 Linux). A tile of
 * 6 to 12 output positions along a row by 16 or 32 output channels is held in registers; for
 * each row k of the columns im2col would write (channel c, then tap ky, kx), one or two vectors
 * of packed W are loaded and each position's input element is broadcast from X itself, at a
 * fixed offset per k from the position's first tap, so a row's stride, any vertical stride and
 * any dilation cost nothing. Positions a tap of which falls in the padding, and runs of fewer
 * than 6 along a row, are first copied into a small block of columns (zeros in the padding) and
 * run through the same loop. The sums follow the product kernel's documented order
 * (gemm_kernel.h: each block of OSC_GEMM_KC products from 0 by fused multiply-adds, the block
 * sums added in order), so Y has the same bits as im2col and the product. */
#include "conv.h"

#include "ops/linalg/gemm_kernel.h"

#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(OSC_NO_CLONES)
#define CD_X86 1
#include <immintrin.h>
#else
#define CD_X86 0
#endif

#define CD_P 12  /* positions of a tile, at most */
#define CD_PMIN 6 /* and at least: fewer hold too few sums to keep the multiply-adds busy */
/* X's rows of the column row this many ahead are fetched as a tile runs (a channel's 9 taps are
 * 9 rows: 36 is 4 channels ahead; 3% to 7% faster than none on the detector's stages, 9 and 18
 * about as good) */
#define CD_AHEAD 36
#define CD_M 32   /* output channels of a block of W (the last may be 16 wide) */

bool osc_conv_direct_ok(const osc_conv_geom *g, int32_t dt) {
#if CD_X86
    return dt == OSC_FLOAT && g->variant == OSC_CONV_PLAIN && g->nd == 2 && g->mg >= 8 &&
           g->cg * g->k_size > 0 && g->in_size > 0 && (g->stride[1] == 1 || g->stride[1] == 2) &&
           __builtin_cpu_supports("avx512f");
#else
    (void)g, (void)dt;
    return false;
#endif
}

/* The blocks of a group's output channels: CD_M wide, the last 16 wide when 16 or fewer are
 * left; *padded: their widths' sum. */
static int64_t blocks(const osc_conv_geom *g, int64_t *padded) {
    const int64_t full = g->mg / CD_M, rem = g->mg % CD_M;
    *padded = full * CD_M + (rem == 0 ? 0 : rem <= 16 ? 16 : CD_M);
    return full + (rem > 0);
}

/* Block b's width (of nb, widths summing to padded). */
static int64_t width_of(int64_t b, int64_t nb, int64_t padded) {
    return b + 1 < nb ? CD_M : padded - b * CD_M;
}

static size_t packed_bytes(const osc_conv_geom *g) {
    int64_t padded;
    blocks(g, &padded);
    return OSC_CONV_R64((size_t)(g->group * padded * g->cg * g->k_size) * 4);
}

size_t osc_conv_direct_shared(const osc_conv_geom *g) {
    return packed_bytes(g) + OSC_CONV_R64((size_t)(2 * g->cg * g->k_size) * sizeof(int64_t));
}

size_t osc_conv_direct_scratch(const osc_conv_geom *g, int64_t pt) {
    return OSC_CONV_R64((size_t)(CD_P * CD_M) * 4) +
           OSC_CONV_R64((size_t)(g->cg * g->k_size * CD_P) * 4) + (size_t)pt * sizeof(int64_t) +
           (size_t)(pt * CD_M) * 4;
}

/* W of group grp, block b: [kc][width] at packed + grp * padded * kc + b * CD_M * kc. */
void osc_conv_direct_pack(const osc_conv_geom *g, const float *w, void *shared) {
    const int64_t kc = g->cg * g->k_size;
    int64_t padded;
    const int64_t nb = blocks(g, &padded);
    float *wp = shared;
    int64_t *off = (int64_t *)((char *)shared + packed_bytes(g));
    for (int64_t grp = 0; grp < g->group; grp++)
        for (int64_t b = 0; b < nb; b++) {
            const int64_t width = width_of(b, nb, padded);
            float *d = wp + (grp * padded + b * CD_M) * kc;
            for (int64_t k = 0; k < kc; k++)
                for (int64_t j = 0; j < width; j++) {
                    const int64_t m = b * CD_M + j;
                    d[k * width + j] = m < g->mg ? w[(grp * g->mg + m) * kc + k] : 0.0f;
                }
        }
    for (int64_t k = 0; k < kc; k++) {
        const int64_t c = k / g->k_size, t = k % g->k_size, ky = t / g->k[1], kx = t % g->k[1];
        off[k] = c * g->in_size + ky * g->dil[0] * g->in[1] + kx * g->dil[1];
        off[kc + k] = k * CD_P;
    }
}

#if CD_X86
/* The output channels block b holds. */
static int64_t channels_of(const osc_conv_geom *g, int64_t b) {
    return g->mg - b * CD_M < CD_M ? g->mg - b * CD_M : CD_M;
}

#define CD_TARGET __attribute__((target("avx512f")))
/* For P positions and 16 * V channels: t[p][j] = (add ? t[p][j] : 0) + the sum over k in
 * [k0, k1) of w[k][j] * x[off[k] + p * S], the sum from 0 in increasing k, each product added
 * by a fused multiply-add; then, when y is not NULL, t's channels j < nm copied to
 * y[j * ldy + p] (a column of t gathered per row). */
#define CD_TILE(NAME, S, P, V)                                                                 \
    CD_TARGET static void NAME(const float *x, const int64_t *off, int64_t k0, int64_t k1,     \
                               const float *w, float *t, bool add, float *y, int64_t ldy,      \
                               int64_t nm) {                                                   \
        __m512 a[P][V];                                                                        \
        for (int p = 0; p < (P); p++)                                                          \
            for (int v = 0; v < (V); v++) a[p][v] = _mm512_setzero_ps();                       \
        for (int64_t k = k0; k < k1; k++) {                                                    \
            const float *xk = x + off[k], *wk = w + k * 16 * (V);                              \
            const float *xf = x + off[k + CD_AHEAD < k1 ? k + CD_AHEAD : k];                   \
            _mm_prefetch((const char *)xf, _MM_HINT_T0);                                       \
            _mm_prefetch((const char *)(xf + (P) * (S) - 1), _MM_HINT_T0);                     \
            __m512 b[V];                                                                       \
            for (int v = 0; v < (V); v++) b[v] = _mm512_loadu_ps(wk + 16 * v);                 \
            for (int p = 0; p < (P); p++) {                                                    \
                const __m512 s = _mm512_set1_ps(xk[p * (S)]);                                  \
                for (int v = 0; v < (V); v++) a[p][v] = _mm512_fmadd_ps(b[v], s, a[p][v]);     \
            }                                                                                  \
        }                                                                                      \
        for (int p = 0; p < (P); p++)                                                          \
            for (int v = 0; v < (V); v++) {                                                    \
                float *tp = t + p * 16 * (V) + 16 * v;                                         \
                const __m512 r = add ? _mm512_add_ps(_mm512_loadu_ps(tp), a[p][v]) : a[p][v];  \
                _mm512_storeu_ps(tp, r);                                                       \
            }                                                                                  \
        if (!y) return;                                                                        \
        const __mmask16 m = (__mmask16)((1u << (P)) - 1);                                      \
        const __m512i col = _mm512_mullo_epi32(                                                \
            _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),            \
            _mm512_set1_epi32(16 * (V)));                                                      \
        for (int64_t j = 0; j < nm; j++)                                                       \
            _mm512_mask_storeu_ps(y + j * ldy, m, _mm512_mask_i32gather_ps(                    \
                                  _mm512_setzero_ps(), m, col, t + j, 4));                     \
    }
typedef void (*tile_fn)(const float *x, const int64_t *off, int64_t k0, int64_t k1,
                        const float *w, float *t, bool add, float *y, int64_t ldy, int64_t nm);
#define CD_SIZES(X, V) X(6, V) X(7, V) X(8, V) X(9, V) X(10, V) X(11, V) X(12, V)
#define CD_DEF(P, V) CD_TILE(tile##P##_##V##_s1, 1, P, V) CD_TILE(tile##P##_##V##_s2, 2, P, V)
CD_SIZES(CD_DEF, 1)
CD_SIZES(CD_DEF, 2)
#define CD_ROW(P, V) {tile##P##_##V##_s1, tile##P##_##V##_s2},
/* [vectors - 1][positions - CD_PMIN][stride - 1] */
static const tile_fn tiles[2][CD_P - CD_PMIN + 1][2] = {{CD_SIZES(CD_ROW, 1)},
                                                         {CD_SIZES(CD_ROW, 2)}};

/* A tile of columns: every K block in order, then t's first nm channels stored at
 * y[j * ldy + at[p]], p < np. */
static void run_cols(tile_fn f, const float *cols, const int64_t *off, int64_t kc,
                     const float *w, int64_t width, float *t, int64_t np, const int64_t *at,
                     int64_t nm, float *y, int64_t ldy) {
    for (int64_t k0 = 0; k0 < kc; k0 += OSC_GEMM_KC)
        f(cols, off, k0, kc - k0 < OSC_GEMM_KC ? kc : k0 + OSC_GEMM_KC, w, t, k0 > 0, NULL, 0, 0);
    for (int64_t j = 0; j < nm; j++)
        for (int64_t p = 0; p < np; p++) y[j * ldy + at[p]] = t[p * width + j];
}

/* The columns of the np positions p0 + at[p] (flat, over the output) into cols[k][CD_P], zeros
 * in the padding and past np. */
static void fill_cols(const osc_conv_geom *g, const float *x, int64_t p0, const int64_t *at,
                      int64_t np, float *cols) {
    const int64_t iw = g->in[1], ks = g->k_size;
    for (int64_t p = 0; p < CD_P; p++) {
        const int64_t pos = p < np ? p0 + at[p] : 0, oy = pos / g->out[1], ox = pos % g->out[1];
        const int64_t iy0 = oy * g->stride[0] - g->pad[0], ix0 = ox * g->stride[1] - g->pad[1];
        for (int64_t ky = 0, t = 0; ky < g->k[0]; ky++) {
            const int64_t iy = iy0 + ky * g->dil[0];
            const bool row = p < np && iy >= 0 && iy < g->in[0];
            for (int64_t kx = 0, ix = ix0; kx < g->k[1]; kx++, ix += g->dil[1], t++) {
                float *d = cols + t * CD_P + p; /* row (c, t) at (c * ks + t) * CD_P */
                if (row && ix >= 0 && ix < iw) {
                    const float *src = x + iy * iw + ix;
                    for (int64_t c = 0; c < g->cg; c++) d[c * ks * CD_P] = src[c * g->in_size];
                } else {
                    for (int64_t c = 0; c < g->cg; c++) d[c * ks * CD_P] = 0.0f;
                }
            }
        }
    }
}

/* A walk over positions [p0, p0 + w) by row segments: the segment [ox, ox + seg) of output
 * row oy, at flat position p, whose taps all fall inside X at [i0, i1) (empty: both at the
 * segment's end). */
typedef struct walk {
    int64_t p, oy, ox, seg, i0, i1, iy;
} walk;
static bool walk_next(const osc_conv_geom *g, int64_t end, walk *r) {
    if (r->p >= end) return false;
    const int64_t ow = g->out[1], s = g->stride[1];
    /* the positions along a row all of whose taps fall inside a row of X: [xa, xb) */
    const int64_t xa = (g->pad[1] + s - 1) / s;
    const int64_t top = g->in[1] - 1 + g->pad[1] - (g->k[1] - 1) * g->dil[1];
    const int64_t xb = top < 0 ? 0 : top / s + 1;
    r->oy = r->p / ow, r->ox = r->p % ow;
    r->seg = ow - r->ox < end - r->p ? ow - r->ox : end - r->p;
    r->iy = r->oy * g->stride[0] - g->pad[0];
    const bool rows = r->iy >= 0 && r->iy + (g->k[0] - 1) * g->dil[0] < g->in[0];
    r->i0 = r->ox > xa ? r->ox : xa;
    r->i1 = r->ox + r->seg < xb ? r->ox + r->seg : xb;
    if (!rows || r->i1 < r->i0) r->i0 = r->i1 = r->ox + r->seg;
    return true;
}

void osc_conv_direct_run(const osc_conv_geom *g, const float *x, const void *shared,
                         int64_t grp, int64_t p0, int64_t w, float *y, int64_t ldy,
                         void *scratch) {
    const int64_t kc = g->cg * g->k_size, s = g->stride[1];
    int64_t padded;
    const int64_t nb = blocks(g, &padded);
    const float *wp = (const float *)shared + grp * padded * kc;
    const int64_t *off = (const int64_t *)((const char *)shared + packed_bytes(g));
    float *t = scratch, *cols = (float *)((char *)scratch + OSC_CONV_R64(CD_P * CD_M * 4));
    int64_t *pend = (int64_t *)((char *)cols + OSC_CONV_R64((size_t)(kc * CD_P) * 4)), np = 0;
    float *tsum = (float *)(pend + w);
    /* the inside positions, by block of output channels and K block (that block of W stays in
     * L1 while every tile runs it; the tiles' sums wait in tsum, CD_M per position), in runs of
     * at least CD_PMIN cut into tiles as even as CD_P allows (from 12: 6 to 12 each) */
    for (int64_t b = 0; b < nb; b++) {
        const int64_t v = width_of(b, nb, padded) / 16, nm = channels_of(g, b);
        for (int64_t k0 = 0; k0 < kc; k0 += OSC_GEMM_KC) {
            const bool last = kc - k0 <= OSC_GEMM_KC;
            const int64_t k1 = last ? kc : k0 + OSC_GEMM_KC;
            for (walk r = {.p = p0}; walk_next(g, p0 + w, &r); r.p += r.seg) {
                const int64_t len = r.i1 - r.i0, nt = (len + CD_P - 1) / CD_P;
                for (int64_t i = 0, q = r.i0; len >= CD_PMIN && i < nt; i++) {
                    const int64_t n = len / nt + (i < len % nt), at = r.p + (q - r.ox) - p0;
                    tiles[v - 1][n - CD_PMIN][s - 1](
                        x + r.iy * g->in[1] + q * s - g->pad[1], off, k0, k1, wp + b * CD_M * kc,
                        tsum + at * CD_M, k0 > 0, last ? y + b * CD_M * ldy + at : NULL, ldy,
                        nm);
                    q += n;
                }
            }
        }
    }
    /* the others through columns, each block of columns made once for every block of W */
    for (walk r = {.p = p0}; walk_next(g, p0 + w, &r); r.p += r.seg)
        for (int64_t q = r.ox; q < r.ox + r.seg; q++)
            if (q < r.i0 || q >= r.i1 || r.i1 - r.i0 < CD_PMIN)
                pend[np++] = r.p + (q - r.ox) - p0;
    for (int64_t e = 0; e < np; e += CD_P) {
        const int64_t n = np - e < CD_P ? np - e : CD_P;
        fill_cols(g, x, p0, pend + e, n, cols);
        for (int64_t b = 0; b < nb; b++) {
            const int64_t width = width_of(b, nb, padded), nm = channels_of(g, b);
            run_cols(tiles[width / 16 - 1][(n > CD_PMIN ? n : CD_PMIN) - CD_PMIN][0], cols,
                     off + kc, kc, wp + b * CD_M * kc, width, t, n, pend + e, nm,
                     y + b * CD_M * ldy, ldy);
        }
    }
}
#else
void osc_conv_direct_run(const osc_conv_geom *g, const float *x, const void *shared,
                         int64_t grp, int64_t p0, int64_t w, float *y, int64_t ldy,
                         void *scratch) {
    (void)g, (void)x, (void)shared, (void)grp, (void)p0, (void)w, (void)y, (void)ldy;
    (void)scratch;
}
#endif
