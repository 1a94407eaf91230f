/* gemm_kernel.c: the blocked float/double matrix-product kernel, the integer kernels and the
 * half-precision conversions MatMul and Gemm share (the contract is in gemm_kernel.h). */
#include "gemm_kernel.h"

#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"

/* Multiversioning: one variant of the float/double driver per instruction set, picked at run
 * time (__builtin_cpu_supports, as core/copy.c picks its AVX2 copy): AVX-512 (zmm
 * vectors, 32 registers), AVX2 (ymm, 16 registers) and the default x86-64/other (xmm or what
 * the target has). Each variant has its own tile shape; they compute the same operations in the
 * same order for every element, each product added by a fused multiply-add (one rounding, as
 * C's fma: the variant's instruction, or the C library's fma lane by lane in the default, which
 * is exact on every target), so they give the same bits. Not under ThreadSanitizer (as
 * core/kattr.c): only the default. */
#if defined(__SANITIZE_THREAD__)
#define GEMM_NO_VARIANTS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GEMM_NO_VARIANTS 1
#endif
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(GEMM_NO_VARIANTS)
#define GEMM_X86 1
#define ATTR_AVX512 __attribute__((target("avx512f,avx512vl")))
#define ATTR_AVX2 __attribute__((target("avx2,fma")))
#include <immintrin.h>
#endif
#define ATTR_DEFAULT

#if defined(__GNUC__) || defined(__clang__)
#define GEMM_INLINE static inline __attribute__((always_inline))
#define GEMM_UNROLL _Pragma("GCC unroll 8")
#else
#define GEMM_INLINE static inline
#define GEMM_UNROLL
#endif

#define KC OSC_GEMM_KC

/* The body of c + a * b per lane with one rounding, for vectors of float or double: 64 bytes
 * (AVX-512), 32 (AVX2 with FMA), or any, lane by lane through the C library. */
#define MADD_64(a, b, c)                                                                       \
    if (sizeof(c[0]) == 4)                                                                     \
        return (__typeof__(c))_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c);                \
    return (__typeof__(c))_mm512_fmadd_pd((__m512d)a, (__m512d)b, (__m512d)c);
#define MADD_32(a, b, c)                                                                       \
    if (sizeof(c[0]) == 4)                                                                     \
        return (__typeof__(c))_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c);                \
    return (__typeof__(c))_mm256_fmadd_pd((__m256d)a, (__m256d)b, (__m256d)c);
/* Relu of a vector, the bits of x < 0 ? +0 : x lane by lane (NaN and -0 stay): x86's max
 * returns its second operand when the lanes are equal or either is NaN, so max(+0, x) is that
 * in one instruction; the default variant compares and masks. */
#define RELU_64(v)                                                                             \
    if (sizeof(v[0]) == 4) return (__typeof__(v))_mm512_max_ps(_mm512_setzero_ps(), (__m512)v); \
    return (__typeof__(v))_mm512_max_pd(_mm512_setzero_pd(), (__m512d)v);
#define RELU_32(v)                                                                             \
    if (sizeof(v[0]) == 4) return (__typeof__(v))_mm256_max_ps(_mm256_setzero_ps(), (__m256)v); \
    return (__typeof__(v))_mm256_max_pd(_mm256_setzero_pd(), (__m256d)v);
#define RELU_LANES(v) return (__typeof__(v))((__typeof__(v < v))v & ~(v < (__typeof__(v)){0}));
#define MADD_LANES(a, b, c)                                                                    \
    for (int l = 0; l < (int)(sizeof c / sizeof c[0]); l++)                                    \
        c[l] = sizeof(c[0]) == 4 ? fmaf((float)a[l], (float)b[l], (float)c[l])                 \
                                 : fma(a[l], b[l], c[l]);                                      \
    return c;

/* Vectors of T (GNU C vector extensions): 64, 32 and 16 bytes. */
#define VEC_TYPES(E, T, CLS)                                                                   \
    typedef T v16_##E __attribute__((vector_size(16)));                                        \
    typedef T v32_##E __attribute__((vector_size(32)));                                        \
    typedef T v64_##E __attribute__((vector_size(64)));
OSC_IEEE_TYPES(VEC_TYPES)

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* ---- float and double: one template per (dtype E, variant V), from OSC_IEEE_TYPES ----
 * VB-byte vectors of W elements; an MRV x NR register tile, NR = 2W; NC columns per packed B
 * block (the same for every variant). */
/* A whole MR x NR tile of a row-major A in place, the first K block: one call of the
 * micro-kernel per combination of bias and Relu, each specialised by the compiler with both as
 * constants (the stores' branches cost a K = 6 product with Relu 11% on the Zen machine). */
#define FULL_TILE(EV, kc, a, ars, bp, y, ldy, c, c_rs, relu)                                  \
    do {                                                                                       \
        if (c && relu) FULL_CALL(EV, kc, a, ars, bp, y, ldy, c, c_rs, true);                   \
        else if (c) FULL_CALL(EV, kc, a, ars, bp, y, ldy, c, c_rs, false);                     \
        else if (relu) FULL_CALL(EV, kc, a, ars, bp, y, ldy, NULL, 0, true);                   \
        else FULL_CALL(EV, kc, a, ars, bp, y, ldy, NULL, 0, false);                            \
    } while (0)
#define FULL_CALL(EV, kc, a, ars, bp, y, ldy, c, c_rs, relu)                                  \
    micro_##EV(kc, a, ars, 1, bp, y, ldy, MR_##EV, NR_##EV, false, c, c_rs, relu)
#define NC_OF(T) ((int64_t)(OSC_GEMM_NC_BYTES / (KC * sizeof(T))))
#define GEMM_FLOAT(E, T, V, VB, MRV, MADD, RELU, ATTR)                                         \
    enum { W_##E##V = VB / sizeof(T), NR_##E##V = 2 * (VB / sizeof(T)), MR_##E##V = MRV };     \
    typedef v##VB##_##E vt_##E##V;                                                             \
                                                                                               \
    GEMM_INLINE ATTR vt_##E##V madd_##E##V(vt_##E##V a, vt_##E##V b, vt_##E##V c) {            \
        MADD(a, b, c)                                                                          \
    }                                                                                          \
    GEMM_INLINE ATTR vt_##E##V relu_##E##V(vt_##E##V v) { RELU(v) }                            \
                                                                                               \
    /* B[pc.., jc..] (kc x nc) into panels of NR columns, each kc x NR, row-major, zero-padded \
     * past nc. */                                                                             \
    GEMM_INLINE ATTR void packb_##E##V(const T *b, int64_t brs, int64_t bcs, int64_t kc,       \
                                        int64_t nc, T *out) {                                  \
        for (int64_t jp = 0; jp < nc; jp += NR_##E##V) {                                       \
            const int64_t nr = min64(NR_##E##V, nc - jp);                                      \
            const T *bj = b + jp * bcs;                                                        \
            for (int64_t p = 0; p < kc; p++, out += NR_##E##V) {                               \
                const T *src = bj + p * brs;                                                   \
                int64_t j = 0;                                                                 \
                if (bcs == 1 && nr == NR_##E##V) { /* a constant size: vector moves */         \
                    memcpy(out, src, NR_##E##V * sizeof(T));                                   \
                    continue;                                                                  \
                }                                                                              \
                if (bcs == 1) {                                                                \
                    memcpy(out, src, (size_t)nr * sizeof(T));                                  \
                    j = nr;                                                                    \
                }                                                                              \
                for (; j < nr; j++) out[j] = src[j * bcs];                                     \
                for (; j < NR_##E##V; j++) out[j] = 0;                                         \
            }                                                                                  \
        }                                                                                      \
    }                                                                                          \
                                                                                               \
    /* A[i.., pc..] (mr x kc) into one panel, kc x MR, zero-padded past mr. */                 \
    GEMM_INLINE ATTR void packa_##E##V(const T *a, int64_t ars, int64_t acs, int64_t mr,       \
                                        int64_t kc, T *out) {                                  \
        for (int64_t r = 0; r < MR_##E##V; r++) {                                              \
            const T *src = a + r * ars;                                                        \
            if (r < mr)                                                                        \
                for (int64_t p = 0; p < kc; p++) out[p * MR_##E##V + r] = src[p * acs];        \
            else                                                                               \
                for (int64_t p = 0; p < kc; p++) out[p * MR_##E##V + r] = 0;                   \
        }                                                                                      \
    }                                                                                          \
                                                                                               \
    /* The MR x NR tile at y: (acc ? y + ) sum over p < kc of A[r][p] * bp[p][j], A[r][p] at   \
     * a[r*ars + p*acs] (a row-major A read in place, or a packed panel: ars 1, acs MR), then  \
     * + c[r*c_rs + j] when c is not NULL, then Relu when relu; only the first mr rows and nr  \
     * columns are stored. */                                                                  \
    GEMM_INLINE ATTR void micro_##E##V(int64_t kc, const T *a, int64_t ars, int64_t acs,       \
                                        const T *bp, T *y, int64_t ldy, int64_t mr,            \
                                        int64_t nr, bool acc, const T *c, int64_t c_rs,        \
                                        bool relu) {                                           \
        vt_##E##V s[MR_##E##V][2];                                                             \
        GEMM_UNROLL for (int r = 0; r < MR_##E##V; r++) s[r][0] = s[r][1] = (vt_##E##V){0};    \
        for (int64_t p = 0; p < kc; p++, a += acs, bp += NR_##E##V) {                          \
            vt_##E##V b0, b1;                                                                  \
            memcpy(&b0, bp, sizeof b0);                                                        \
            memcpy(&b1, bp + W_##E##V, sizeof b1);                                             \
            GEMM_UNROLL for (int r = 0; r < MR_##E##V; r++) {                                  \
                /* a broadcast: x - (+0) is x for every x (-0 too), so no add is emitted */ \
                const vt_##E##V av = a[r * ars] - (vt_##E##V){0};                              \
                s[r][0] = madd_##E##V(av, b0, s[r][0]);                                        \
                s[r][1] = madd_##E##V(av, b1, s[r][1]);                                        \
            }                                                                                  \
        }                                                                                      \
        if (mr == MR_##E##V && nr == NR_##E##V) {                                              \
            GEMM_UNROLL for (int r = 0; r < MR_##E##V; r++) {                                  \
                T *yr = y + r * ldy;                                                           \
                vt_##E##V v0 = s[r][0], v1 = s[r][1], o0, o1;                                  \
                if (acc) {                                                                     \
                    memcpy(&o0, yr, sizeof o0);                                                \
                    memcpy(&o1, yr + W_##E##V, sizeof o1);                                     \
                    v0 = o0 + v0;                                                              \
                    v1 = o1 + v1;                                                              \
                }                                                                              \
                if (c) {                                                                       \
                    memcpy(&o0, c + r * c_rs, sizeof o0);                                      \
                    memcpy(&o1, c + r * c_rs + W_##E##V, sizeof o1);                           \
                    v0 = v0 + o0;                                                              \
                    v1 = v1 + o1;                                                              \
                }                                                                              \
                if (relu) {                                                                    \
                    v0 = relu_##E##V(v0);                                                      \
                    v1 = relu_##E##V(v1);                                                      \
                }                                                                              \
                memcpy(yr, &v0, sizeof v0);                                                    \
                memcpy(yr + W_##E##V, &v1, sizeof v1);                                         \
            }                                                                                  \
            return;                                                                            \
        }                                                                                      \
        T tile[MR_##E##V][NR_##E##V];                                                          \
        memcpy(tile, s, sizeof tile);                                                          \
        for (int64_t r = 0; r < mr; r++)                                                       \
            for (int64_t j = 0; j < nr; j++) {                                                 \
                T v = acc ? y[r * ldy + j] + tile[r][j] : tile[r][j];                          \
                if (c) v = v + c[r * c_rs + j];                                                \
                y[r * ldy + j] = relu && v < 0 ? (T)0 : v;                                     \
            }                                                                                  \
    }                                                                                          \
                                                                                               \
    ATTR static void gemm_##E##V(const osc_gemm_args *g, void *pack) {                         \
        const T *a = g->a, *b = g->b, *c = g->c;                                               \
        T *y = g->y, *bpk = pack;                                                              \
        const int64_t m = g->m, n = g->n, k = g->k;                                            \
        _Alignas(64) T ap[MR_##E##V * KC];                                                     \
        for (int64_t jc = 0; jc < n; jc += NC_OF(T)) {                                         \
            const int64_t nc = min64(NC_OF(T), n - jc);                                        \
            for (int64_t pc = 0; pc < k; pc += KC) {                                           \
                const int64_t kc = min64(KC, k - pc);                                          \
                const bool last = pc + kc == k;                                                \
                packb_##E##V(b + pc * g->brs + jc * g->bcs, g->brs, g->bcs, kc, nc, bpk);      \
                for (int64_t i = 0; i < m; i += MR_##E##V) {                                   \
                    const int64_t mr = min64(MR_##E##V, m - i);                                \
                    const T *ai = a + i * g->ars + pc * g->acs;                                \
                    /* full tiles of a row-major A in place (two calls: the compiler           \
                     * specialises each), the rest packed */                                   \
                    const bool direct = mr == MR_##E##V && g->acs == 1;                        \
                    if (!direct) packa_##E##V(ai, g->ars, g->acs, mr, kc, ap);                 \
                    for (int64_t jp = 0; jp < nc; jp += NR_##E##V) {                           \
                        T *yt = y + i * g->ldy + jc + jp;                                      \
                        const T *ct = c && last ? c + i * g->c_rs + jc + jp : NULL;            \
                        const bool relu = g->relu && last;                                     \
                        const int64_t nr = min64(NR_##E##V, nc - jp);                          \
                        if (direct && pc == 0 && nr == NR_##E##V) /* whole tile, one K block */ \
                            FULL_TILE(E##V, kc, ai, g->ars, bpk + jp * kc, yt, g->ldy, ct,     \
                                      g->c_rs, relu);                                          \
                        else if (direct)                                                       \
                            micro_##E##V(kc, ai, g->ars, 1, bpk + jp * kc, yt, g->ldy, mr, nr, \
                                         pc > 0, ct, g->c_rs, relu);                           \
                        else                                                                   \
                            micro_##E##V(kc, ap, 1, MR_##E##V, bpk + jp * kc, yt, g->ldy, mr,  \
                                         nr, pc > 0, ct, g->c_rs, relu);                       \
                    }                                                                          \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    }

/* The variants, in the order of osc_gemm_variant: default 4 x 2 (xmm or what the target
 * has), AVX2 6 x 2 ymm (12 of 16 registers hold the tile), AVX-512 6 x 2 zmm (12 of 32). */
#ifdef GEMM_X86
#define N_VARIANTS 3
#define VARIANTS(E, T, CLS)                                                                    \
    GEMM_FLOAT(E, T, _default, 16, 4, MADD_LANES, RELU_LANES, ATTR_DEFAULT)                        \
    GEMM_FLOAT(E, T, _avx2, 32, 6, MADD_32, RELU_32, ATTR_AVX2)                                    \
    GEMM_FLOAT(E, T, _avx512, 64, 6, MADD_64, RELU_64, ATTR_AVX512)                                \
    static const osc_gemm_fn gemm_##E##_variants[] = {gemm_##E##_default, gemm_##E##_avx2,     \
                                                      gemm_##E##_avx512};
static bool variant_ok(int32_t v) {
    return v == 0 ||
           (v == 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) ||
           (v == 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl"));
}
/* The widest the CPU has, except on AMD's family 19h (Zen 4), which splits each 512-bit
 * operation in two: there AVX2 ran 1.6x faster than AVX-512 (54 against 33 GMAC/s, m 1024,
 * k = n = 64). */
static int32_t best_variant(void) {
    if (variant_ok(2) && !__builtin_cpu_is("amdfam19h")) return 2;
    return variant_ok(1) ? 1 : 0;
}
#else
#define N_VARIANTS 1
#define VARIANTS(E, T, CLS)                                                                    \
    GEMM_FLOAT(E, T, _default, 16, 4, MADD_LANES, RELU_LANES, ATTR_DEFAULT)                        \
    static const osc_gemm_fn gemm_##E##_variants[] = {gemm_##E##_default};
static bool variant_ok(int32_t v) { return v == 0; }
static int32_t best_variant(void) { return 0; }
#endif
#define DISPATCH(E, T, CLS)                                                                    \
    static void gemm_##E(const osc_gemm_args *g, void *pack) {                                 \
        if (g->k > 0) {                                                                        \
            gemm_##E##_variants[best_variant()](g, pack);                                      \
            return;                                                                            \
        }                                                                                      \
        for (int64_t i = 0; i < g->m; i++) { /* K == 0: Y = 0 (+ C) */                         \
            T *yr = (T *)g->y + i * g->ldy;                                                    \
            const T *cr = g->c ? (const T *)g->c + i * g->c_rs : NULL;                         \
            for (int64_t j = 0; j < g->n; j++) {                                               \
                const T v = cr ? (T)0 + cr[j] : (T)0;                                          \
                yr[j] = g->relu && v < 0 ? (T)0 : v;                                           \
            }                                                                                  \
        }                                                                                      \
    }
OSC_IEEE_TYPES(VARIANTS)
OSC_IEEE_TYPES(DISPATCH)

osc_gemm_fn osc_gemm_variant(int32_t dtype, int32_t v) {
    if (v < 0 || v >= N_VARIANTS || !variant_ok(v)) return NULL;
#define CASE(E, T, CLS) \
    case E: return gemm_##E##_variants[v];
    switch (dtype) {
        OSC_IEEE_TYPES(CASE)
        default: return NULL;
    }
#undef CASE
}

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
    /* the widest variant's NR: two 64-byte vectors */
#define CASE(E, T, CLS)                                                                        \
    case E: {                                                                                  \
        const int64_t nr = 2 * 64 / (int64_t)sizeof(T);                                        \
        const int64_t nc = (min64(n, NC_OF(T)) + nr - 1) / nr * nr;                            \
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

/* Whether Y, of m rows of n elements ldy apart, overlaps a matrix of m rows rs apart whose
 * elements span `extent` elements from its row's start (bytes of esize). */
static bool rows_overlap(const void *y, int64_t m, int64_t n, int64_t ldy, const void *x,
                         int64_t rs, int64_t extent, size_t esize) {
    if (!x || m < 1) return false;
    const char *y0 = y, *x0 = x;
    const char *y1 = y0 + (size_t)((m - 1) * ldy + n) * esize;
    const char *x1 = x0 + (size_t)((m - 1) * rs + extent) * esize;
    return (uintptr_t)y0 < (uintptr_t)x1 && (uintptr_t)x0 < (uintptr_t)y1;
}

/* Rows of Y a part computes at a time into its block when Y overlaps A or C (osc_gemm_par):
 * about 512 KiB of them (within a core's L2 with the packed B), a
 * multiple of every MR. Each block packs B again: blocks of 64 KiB made GraphSAGE's 64 x 64
 * products 1.2x slower, of 512 KiB 1.0-1.1x. */
static int64_t temp_rows(int64_t n, size_t esize) {
    const int64_t r = ((int64_t)(512 << 10) / (n * (int64_t)esize) + 11) / 12 * 12;
    return r < 12 ? 12 : r;
}

osc_status osc_gemm_operands(osc_kctx *k, const osc_tensor *a, const osc_tensor *b,
                             const osc_tensor *c, osc_tensor *out, int64_t n, int64_t kk,
                             osc_gemm_mem *mem, osc_gemm_ops *o) {
    o->ct = osc_gemm_compute_dtype(a->dtype);
    o->half = o->ct != a->dtype;
    const int64_t na = osc_tensor_count(a), nb = osc_tensor_count(b);
    int64_t floats = 0; /* float copies of A, B and Y */
    if (o->half && (!osc_add_ok(na, nb, &floats) ||
                    !osc_add_ok(floats, osc_tensor_count(out), &floats)))
        floats = -1;
    /* one packed-B block per thread (osc_gemm_par), and a block of Y's rows when Y is written
     * over A or C (an in-place node: half types compute in float copies instead) */
    const size_t es = osc_dtype_get(o->ct)->bits / 8, ob = out->nbytes;
    const char *y = out->data;
    bool over = false;
    for (int32_t i = 0; i < 2 && y && ob; i++) {
        const osc_tensor *x = i ? c : a;
        over = over || (x && x->data && (uintptr_t)y < (uintptr_t)x->data + x->nbytes &&
                        (uintptr_t)x->data < (uintptr_t)y + ob);
    }
    const size_t pack = (osc_gemm_pack_bytes(o->ct, n, kk) + 63) / 64 * 64;
    const size_t t = over && !o->half && n > 0 ? (size_t)temp_rows(n, es) : 0;
    const size_t rows = t && (size_t)n <= SIZE_MAX / 2 / es / t ? t * (size_t)n * es : 0;
    const size_t block = pack + (rows + 63) / 64 * 64;
    const int32_t parts = osc_tpool_size(k->tpool);
    osc_status st = t && !rows ? osc_kfail(k, OSC_ERR_LIMIT, "a block of %zu output rows "
                                           "needs more than 2^63 bytes", t)
                    : block > SIZE_MAX / (size_t)parts
                        ? osc_kfail(k, OSC_ERR_LIMIT, "the packed panels of B need more than "
                                    "2^64 bytes")
                        : osc_gemm_mem_get(k, block * (size_t)parts, floats, "A, B and Y", mem);
    if (st) return st;
    mem->pack = block;
    mem->rows_at = rows ? pack : 0;
    mem->rows = rows != 0;
    o->a = a->data;
    o->b = b->data;
    o->y = out->data;
    if (o->half) {
        float *af = mem->f, *bf = af + na;
        osc_gemm_widen(a->dtype, a->data, af, na);
        osc_gemm_widen(b->dtype, b->data, bf, nb);
        o->a = af;
        o->b = bf;
        o->y = bf + nb;
    }
    return OSC_OK;
}

typedef struct gemm_job {
    osc_gemm_fn fn;
    const osc_gemm_args *g;
    char *pack;
    size_t pack_stride, esize, rows_at;
    bool temp; /* rows made in the part's block, then copied out (adding C: add_c) */
    bool add_c; /* C, one row per row of Y, added (then Relu) as the rows are copied out */
} gemm_job;

/* n elements of row y = t + c, then Relu (x < 0 ? +0 : x) when relu: the kernel's store. */
#define ADD_ROW(T)                                                                         \
    for (int64_t i = 0; i < n; i++) {                                                      \
        const T v = ((const T *)t)[i] + ((const T *)c)[i];                                 \
        ((T *)y)[i] = relu && v < 0 ? (T)0 : v;                                            \
    }
static void add_row(size_t esize, void *y, const void *t, const void *c, int64_t n, bool relu) {
    if (esize == sizeof(float)) ADD_ROW(float)
    else ADD_ROW(double)
}

/* Part `part` of the rows of Y, with its own block of packed B. Y written over A or C: a few
 * rows at a time into the block, then copied out over them, a C of whole rows added as the
 * kernel adds it (row i of Y reads only row i of A and C, and the summation order depends on
 * K alone: the bits of one call). The kernel reading C's rows as it stores its tiles ran 1.5x
 * slower than a product and a separate Add (six rows of A, Y and C at once). */
static void gemm_part(void *ctx, int32_t part, int32_t parts) {
    const gemm_job *j = ctx;
    osc_gemm_args g = *j->g;
    int64_t r0, r1;
    osc_par_range(j->g->m, 1, part, parts, &r0, &r1);
    if (r1 <= r0) return;
    char *block = j->pack ? j->pack + (size_t)part * j->pack_stride : NULL;
    const int64_t step = j->temp ? temp_rows(g.n, j->esize) : r1 - r0;
    const size_t es = j->esize, rb = (size_t)g.n * es;
    if (j->add_c) g.c = NULL, g.relu = false;
    for (int64_t i = r0; i < r1; i += step) {
        g.m = r1 - i < step ? r1 - i : step;
        g.a = (const char *)j->g->a + (size_t)(i * g.ars) * es;
        char *y = (char *)j->g->y + (size_t)(i * g.ldy) * es;
        const char *c = j->g->c ? (const char *)j->g->c + (size_t)(i * g.c_rs) * es : NULL;
        g.y = j->temp ? block + j->rows_at : y;
        g.ldy = j->temp ? g.n : j->g->ldy;
        if (!j->add_c) g.c = c;
        j->fn(&g, j->pack_stride ? block : NULL); /* integers: no pack */
        for (int64_t r = 0; j->temp && r < g.m; r++) {
            char *yr = y + (size_t)(r * j->g->ldy) * es;
            const char *tr = block + j->rows_at + (size_t)r * rb;
            if (j->add_c) add_row(es, yr, tr, c + (size_t)(r * j->g->c_rs) * es, g.n, j->g->relu);
            else memcpy(yr, tr, rb);
        }
    }
}

void osc_gemm_par(osc_kctx *k, osc_gemm_fn fn, int32_t dtype, const osc_gemm_args *g,
                  const osc_gemm_mem *mem) {
    const size_t esize = osc_dtype_get(dtype)->bits / 8;
    /* rows split among threads: every element of Y is computed as on one thread */
    const bool par = k->tpool && g->m > 1 &&
                     (double)g->m * (double)g->n * (double)g->k * (double)esize >= OSC_PAR_MIN_BYTES;
    const int64_t a_extent = (g->k - 1) * g->acs + 1;
    const bool temp = mem->rows && g->k > 0 &&
                      (rows_overlap(g->y, g->m, g->n, g->ldy, g->a, g->ars, a_extent, esize) ||
                       rows_overlap(g->y, g->m, g->n, g->ldy, g->c, g->c_rs, g->n, esize));
    /* (products that write no input's rows, a tiled region's among them, whose scratch is
     * sized for the packed B alone: C added by the kernel) */
    const bool add_c = temp && g->c && g->c_rs;
    gemm_job j = {.fn = fn, .g = g, .pack = mem->p, .pack_stride = mem->pack, .esize = esize,
                  .rows_at = mem->rows_at, .temp = temp, .add_c = add_c};
    osc_tpool_run(par ? k->tpool : NULL, gemm_part, &j);
}
