/* att_avx512.c: the four-row parts of Attention's score and weighted-value loops on AVX-512
 * (att_lanes.h says what each computes): the scores 4 rows by 4 keys, two keys' 8 lanes per
 * 16-lane register (each q vector broadcast to both halves), each half reduced by the tree of
 * the AVX2 loops; the values 4 rows by up to 64 lanes of 16, a zero weight's key skipped by a
 * masked multiply-add. Every lane does the AVX2 loops' fused multiply-adds in the same order,
 * so the bits are the same on every CPU. */
#include "att_lanes.h"

#if ATT_X86
#include <immintrin.h>

#include "core/kattr.h"

#define ATT_Z_TARGET __attribute__((target("avx512f,avx2,fma,f16c")))
/* keys and values are prefetched this many rows ahead (of 32 float16 per cache line): the
 * loops keep up with the cache's stream only so (16: 1.35x the copy against 1.40x without) */
#define ATT_AHEAD 16
ATT_Z_TARGET void osc_att_dots_z(float *o, int64_t os, const float *q, int64_t qst, int64_t r4,
                                const uint16_t *kb, int64_t ks, int64_t n4, int64_t d,
                                float scale) {
    for (int64_t kk = 0; kk < n4; kk += 4) {
        const uint16_t *k0 = kb + kk * ks;
        for (int p = 0; p < 4; p++) /* (a prefetch never faults, past the keys' end too) */
            for (int64_t c = 0; c < d; c += 32) OSC_PREFETCH(k0 + (ATT_AHEAD + p) * ks + c, 0);
        for (int64_t r = 0; r < r4; r += 4) {
            const float *q0 = q + r * qst;
            __m512 a[4][2]; /* [row][keys kk, kk + 1 | kk + 2, kk + 3] */
            for (int i = 0; i < 4; i++) a[i][0] = a[i][1] = _mm512_setzero_ps();
            for (int64_t t = 0; t < d; t += ATT_LANES) {
                __m512 x[2];
                for (int p = 0; p < 2; p++) {
                    const uint16_t *kp = k0 + 2 * p * ks + t;
                    const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)kp);
                    const __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(kp + ks));
                    x[p] = _mm512_cvtph_ps(
                        _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1));
                }
                for (int i = 0; i < 4; i++) {
                    const __m256d qv = _mm256_castps_pd(_mm256_loadu_ps(q0 + i * qst + t));
                    const __m512 z = _mm512_castpd_ps(_mm512_broadcast_f64x4(qv));
                    a[i][0] = _mm512_fmadd_ps(z, x[0], a[i][0]);
                    a[i][1] = _mm512_fmadd_ps(z, x[1], a[i][1]);
                }
            }
            for (int j = 0; j < 4; j++) {
                att_vf l[4];
                for (int i = 0; i < 4; i++) {
                    const __m512d w = _mm512_castps_pd(a[i][j / 2]);
                    const __m256d h = j % 2 ? _mm512_extractf64x4_pd(w, 1)
                                            : _mm512_extractf64x4_pd(w, 0);
                    l[i] = (att_vf)_mm256_castpd_ps(h);
                }
                att_vf4 rr;
                ATT_SUM4(rr, l[0], l[1], l[2], l[3]);
                for (int i = 0; i < 4; i++) o[(r + i) * os + kk + j] = rr[i] * scale;
            }
        }
    }
}
/* acc rows 0 to 3 (as apart), lanes [t, t + 16 nv), += weights w[i * ws + k] times value rows
 * vb[k * vs], key by key */
ATT_Z_TARGET static inline __attribute__((always_inline)) void
axpy_z4(float *acc, int64_t as, const float *w, int64_t ws, const uint16_t *vb, int64_t vs,
        int64_t nk, int64_t t, int nv, int zero) {
    __m512 a[4][4], x[4];
    for (int i = 0; i < 4; i++)
        for (int l = 0; l < nv; l++) a[i][l] = _mm512_loadu_ps(acc + i * as + t + 16 * l);
    for (int64_t k = 0; k < nk; k++) {
        for (int l = 0; l < nv; l += 2) OSC_PREFETCH(vb + (k + ATT_AHEAD) * vs + t + 16 * l, 0);
        for (int l = 0; l < nv; l++)
            x[l] = _mm512_cvtph_ps(
                _mm256_loadu_si256((const __m256i *)(const void *)(vb + k * vs + t + 16 * l)));
        for (int i = 0; i < 4; i++) {
            const float wi = w[i * ws + k];
            const __m512 c = _mm512_set1_ps(wi);
            const __mmask16 m = wi != 0 ? 0xffff : 0; /* (zero: a zero weight's key skipped) */
            for (int l = 0; l < nv; l++)
                a[i][l] = zero ? _mm512_mask3_fmadd_ps(c, x[l], a[i][l], m)
                               : _mm512_fmadd_ps(c, x[l], a[i][l]);
        }
    }
    for (int i = 0; i < 4; i++)
        for (int l = 0; l < nv; l++) _mm512_storeu_ps(acc + i * as + t + 16 * l, a[i][l]);
}
ATT_Z_TARGET void osc_att_axpy_z(float *acc, int64_t as, const float *wb, int64_t ws, int64_t r4,
                                const uint16_t *vb, int64_t vs, int64_t nv, int64_t dv) {
    int zero = 0; /* some weight is zero: a key to skip in its row */
    for (int64_t r = 0; r < r4; r++)
        for (int64_t k = 0; k < nv; k++) zero |= wb[r * ws + k] == 0;
    for (int64_t r = 0; r < r4; r += 4) {
        float *o = acc + r * as;
        const float *w = wb + r * ws;
        int64_t t = 0;
        for (; t + 64 <= dv; t += 64) /* (each a loop of its own: masked or not) */
            if (zero)
                axpy_z4(o, as, w, ws, vb, vs, nv, t, 4, 1);
            else
                axpy_z4(o, as, w, ws, vb, vs, nv, t, 4, 0);
        for (; t < dv; t += 16) axpy_z4(o, as, w, ws, vb, vs, nv, t, 1, zero);
    }
}
#endif
