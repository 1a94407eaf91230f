/* gemm_kernel.c: the blocked float/double matrix-product kernel, the integer kernels and the
 * half-precision conversions MatMul and Gemm share (the contract is in gemm_kernel.h). */
#include "gemm_kernel.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../runtime/core/dtype.h"

/* Function multiversioning as ops/kattr.c does it: the dynamic loader picks the AVX2 clone of
 * each driver once, where the CPU has it; the default clone is plain x86-64 (SSE2). Both
 * clones compute the same operations in the same order (no FMA: -ffp-contract=off and "avx2"
 * does not imply "fma"), so they give the same bits. Not under ThreadSanitizer: the clones'
 * ifunc resolver runs before the TSan runtime exists. */
#if defined(__SANITIZE_THREAD__)
#define GEMM_NO_CLONES 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GEMM_NO_CLONES 1
#endif
#endif
#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(GEMM_NO_CLONES)
#define GEMM_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GEMM_CLONES
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GEMM_INLINE static inline __attribute__((always_inline))
#define GEMM_UNROLL _Pragma("GCC unroll 8")
#else
#define GEMM_INLINE static inline
#define GEMM_UNROLL
#endif

#define MR OSC_GEMM_MR
#define KC OSC_GEMM_KC

/* 32-byte vectors of T (GNU C vector extensions: ymm registers in the AVX2 clone, pairs of
 * xmm registers in the default one). */
typedef float gemm_v_OSC_FLOAT __attribute__((vector_size(32)));
typedef double gemm_v_OSC_DOUBLE __attribute__((vector_size(32)));

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* ---- float and double: one template, expanded from OSC_IEEE_TYPES ----
 * W: elements per vector; NR = 2W columns per register tile; NC columns per packed B block. */
#define GEMM_FLOAT(E, T, CLS)                                                                  \
    enum { W_##E = 32 / sizeof(T), NR_##E = 2 * W_##E,                                        \
           NC_##E = OSC_GEMM_NC_BYTES / (KC * sizeof(T)) };                                   \
    typedef gemm_v_##E vt_##E;                                                                 \
                                                                                               \
    /* B[pc.., jc..] (kc x nc) into panels of NR columns, each kc x NR, row-major, zero-padded \
     * past nc. */                                                                             \
    GEMM_INLINE void packb_##E(const T *b, int64_t brs, int64_t bcs, int64_t kc, int64_t nc,   \
                               T *out) {                                                       \
        for (int64_t jp = 0; jp < nc; jp += NR_##E) {                                          \
            const int64_t nr = min64(NR_##E, nc - jp);                                         \
            const T *bj = b + jp * bcs;                                                        \
            for (int64_t p = 0; p < kc; p++, out += NR_##E) {                                  \
                const T *src = bj + p * brs;                                                   \
                int64_t j = 0;                                                                 \
                if (bcs == 1) {                                                                \
                    memcpy(out, src, (size_t)nr * sizeof(T));                                  \
                    j = nr;                                                                    \
                }                                                                              \
                for (; j < nr; j++) out[j] = src[j * bcs];                                     \
                for (; j < NR_##E; j++) out[j] = 0;                                            \
            }                                                                                  \
        }                                                                                      \
    }                                                                                          \
                                                                                               \
    /* A[i.., pc..] (mr x kc) into one panel, kc x MR, zero-padded past mr. */                 \
    GEMM_INLINE void packa_##E(const T *a, int64_t ars, int64_t acs, int64_t mr, int64_t kc,   \
                               T *out) {                                                       \
        for (int64_t r = 0; r < MR; r++) {                                                     \
            const T *src = a + r * ars;                                                        \
            if (r < mr)                                                                        \
                for (int64_t p = 0; p < kc; p++) out[p * MR + r] = src[p * acs];               \
            else                                                                               \
                for (int64_t p = 0; p < kc; p++) out[p * MR + r] = 0;                          \
        }                                                                                      \
    }                                                                                          \
                                                                                               \
    /* The MR x NR tile at y: (acc ? y + ) sum over p < kc of ap[p][r] * bp[p][j]; only the    \
     * first mr rows and nr columns are stored. */                                             \
    GEMM_INLINE void micro_##E(int64_t kc, const T *ap, const T *bp, T *y, int64_t ldy,        \
                               int64_t mr, int64_t nr, bool acc) {                             \
        vt_##E c[MR][2];                                                                       \
        GEMM_UNROLL for (int r = 0; r < MR; r++) c[r][0] = c[r][1] = (vt_##E){0};              \
        for (int64_t p = 0; p < kc; p++, ap += MR, bp += NR_##E) {                             \
            vt_##E b0, b1;                                                                     \
            memcpy(&b0, bp, sizeof b0);                                                        \
            memcpy(&b1, bp + W_##E, sizeof b1);                                                \
            GEMM_UNROLL for (int r = 0; r < MR; r++) {                                         \
                const vt_##E av = (vt_##E){0} + ap[r];                                         \
                c[r][0] += av * b0;                                                            \
                c[r][1] += av * b1;                                                            \
            }                                                                                  \
        }                                                                                      \
        if (mr == MR && nr == NR_##E) {                                                        \
            GEMM_UNROLL for (int r = 0; r < MR; r++) {                                         \
                T *yr = y + r * ldy;                                                           \
                vt_##E v0 = c[r][0], v1 = c[r][1];                                             \
                if (acc) {                                                                     \
                    vt_##E o0, o1;                                                             \
                    memcpy(&o0, yr, sizeof o0);                                                \
                    memcpy(&o1, yr + W_##E, sizeof o1);                                        \
                    v0 = o0 + v0;                                                              \
                    v1 = o1 + v1;                                                              \
                }                                                                              \
                memcpy(yr, &v0, sizeof v0);                                                    \
                memcpy(yr + W_##E, &v1, sizeof v1);                                            \
            }                                                                                  \
            return;                                                                            \
        }                                                                                      \
        T tile[MR][NR_##E];                                                                    \
        memcpy(tile, c, sizeof tile);                                                          \
        for (int64_t r = 0; r < mr; r++)                                                       \
            for (int64_t j = 0; j < nr; j++)                                                   \
                y[r * ldy + j] = acc ? y[r * ldy + j] + tile[r][j] : tile[r][j];               \
    }                                                                                          \
                                                                                               \
    GEMM_CLONES static void gemm_##E(const osc_gemm_args *g, void *pack) {                     \
        const T *a = g->a, *b = g->b;                                                          \
        T *y = g->y, *bpk = pack;                                                              \
        const int64_t m = g->m, n = g->n, k = g->k;                                            \
        if (k == 0) {                                                                          \
            for (int64_t i = 0; i < m; i++) memset(y + i * g->ldy, 0, (size_t)n * sizeof(T));  \
            return;                                                                            \
        }                                                                                      \
        _Alignas(64) T ap[MR * KC];                                                            \
        for (int64_t jc = 0; jc < n; jc += NC_##E) {                                           \
            const int64_t nc = min64(NC_##E, n - jc);                                          \
            for (int64_t pc = 0; pc < k; pc += KC) {                                           \
                const int64_t kc = min64(KC, k - pc);                                          \
                packb_##E(b + pc * g->brs + jc * g->bcs, g->brs, g->bcs, kc, nc, bpk);         \
                for (int64_t i = 0; i < m; i += MR) {                                          \
                    const int64_t mr = min64(MR, m - i);                                       \
                    packa_##E(a + i * g->ars + pc * g->acs, g->ars, g->acs, mr, kc, ap);       \
                    for (int64_t jp = 0; jp < nc; jp += NR_##E)                                \
                        micro_##E(kc, ap, bpk + jp * kc, y + i * g->ldy + jc + jp, g->ldy, mr, \
                                  min64(NR_##E, nc - jp), pc > 0);                             \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    }
OSC_IEEE_TYPES(GEMM_FLOAT)

/* ---- integers: exact sums modulo 2^bits, computed in uint64_t (wraps, never overflows a
 * signed type) and truncated to T; the row of Y is accumulated in place over p. ---- */
#define GEMM_INT(E, T, CLS)                                                                    \
    static void gemm_##E(const osc_gemm_args *g, void *pack) {                                 \
        (void)pack;                                                                            \
        const T *a = g->a, *b = g->b;                                                          \
        T *y = g->y;                                                                           \
        for (int64_t i = 0; i < g->m; i++) {                                                   \
            T *yr = y + i * g->ldy;                                                            \
            for (int64_t j = 0; j < g->n; j++) yr[j] = 0;                                      \
            for (int64_t p = 0; p < g->k; p++) {                                               \
                const uint64_t av = (uint64_t)a[i * g->ars + p * g->acs];                      \
                const T *bp = b + p * g->brs;                                                  \
                for (int64_t j = 0; j < g->n; j++)                                             \
                    yr[j] = (T)((uint64_t)yr[j] + av * (uint64_t)bp[j * g->bcs]);              \
            }                                                                                  \
        }                                                                                      \
    }
OSC_INT_TYPES(GEMM_INT)

osc_gemm_fn osc_gemm_get(int32_t dtype) {
#define CASE(E, T, CLS) \
    case E: return gemm_##E;
    switch (dtype) {
        OSC_IEEE_TYPES(CASE)
        OSC_INT_TYPES(CASE)
        default: return NULL;
    }
#undef CASE
}

size_t osc_gemm_pack_bytes(int32_t dtype, int64_t n, int64_t k) {
#define CASE(E, T, CLS)                                                                        \
    case E: {                                                                                  \
        const int64_t nc = (min64(n, NC_##E) + NR_##E - 1) / NR_##E * NR_##E;                  \
        return (size_t)(min64(k, KC) * nc) * sizeof(T);                                        \
    }
    if (n <= 0 || k <= 0) return 0;
    switch (dtype) {
        OSC_IEEE_TYPES(CASE)
        default: return 0;
    }
#undef CASE
}

/* ---- float16/bfloat16 conversions, from OSC_HALF_TYPES ---- */
#define WIDEN_F16(x) osc_f16_to_f32(x)
#define WIDEN_BF16(x) osc_bf16_to_f32(x)
#define NARROW_F16(x) osc_f32_to_f16(x)
#define NARROW_BF16(x) osc_f32_to_bf16(x)

void osc_gemm_widen(int32_t dtype, const void *src, float *dst, int64_t count) {
#define CASE(E, T, CLS)                                                                        \
    case E:                                                                                    \
        for (int64_t i = 0; i < count; i++) dst[i] = WIDEN_##CLS(((const T *)src)[i]);        \
        break;
    switch (dtype) {
        OSC_HALF_TYPES(CASE)
        default: break;
    }
#undef CASE
}

void osc_gemm_narrow(int32_t dtype, const float *src, void *dst, int64_t count) {
#define CASE(E, T, CLS)                                                                        \
    case E:                                                                                    \
        for (int64_t i = 0; i < count; i++) ((T *)dst)[i] = NARROW_##CLS(src[i]);             \
        break;
    switch (dtype) {
        OSC_HALF_TYPES(CASE)
        default: break;
    }
#undef CASE
}

int32_t osc_gemm_compute_dtype(int32_t dtype) {
#define HALF(E, T, CLS) \
    case E: return OSC_FLOAT;
    switch (dtype) {
        OSC_HALF_TYPES(HALF)
        default: return osc_gemm_get(dtype) ? dtype : -1;
    }
#undef HALF
}

osc_status osc_gemm_mem_get(osc_kctx *k, size_t pack, int64_t floats, const char *what,
                            osc_gemm_mem *m) {
    memset(m, 0, sizeof *m);
    pack = (pack + 63) / 64 * 64;
    size_t fb = 0;
    if (floats < 0 || !osc_dtype_bytes(OSC_FLOAT, floats, &fb) || fb > SIZE_MAX - pack)
        return osc_kfail(k, OSC_ERR_LIMIT, "the float copies of %s need more than 2^64 bytes",
                         what);
    const size_t bytes = pack + fb;
    if (bytes == 0) return OSC_OK;
    if (k->scratch) m->p = osc_scratch_get(k->scratch, bytes);
    if (!m->p && k->alloc) {
        m->p = osc_malloc(k->alloc, bytes);
        m->owned = m->p != NULL;
    }
    if (!m->p)
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes of scratch (packed panels "
                         "of B%s%s)", bytes, fb ? ", float copies of " : "", fb ? what : "");
    m->f = (float *)((char *)m->p + pack);
    m->size = bytes;
    return OSC_OK;
}

void osc_gemm_mem_put(osc_kctx *k, osc_gemm_mem *m) {
    if (m->owned) osc_free(k->alloc, m->p, m->size);
    memset(m, 0, sizeof *m);
}
