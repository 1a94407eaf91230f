/* att_rows.c: Attention's rows, a group at a time: the q heads sharing a kv head, for one batch
 * and query. Per row: the scores Q.K^T times scale into a scratch row, softcap, the mask and
 * the causal frontier, softmax, then the weights times V into an accumulator; each K and V row
 * is read and widened once for the whole group, only up to the last key the rows can see.
 * Computed in float (double for double inputs or softmax_precision double), float16/bfloat16
 * widened as read and rounded once as stored. The loops over float16 keys and values have
 * AVX-512 versions that give the same bits (gdots_z, gaxpy_z). */
#include <math.h>
#include <string.h>

#include "att_lanes.h"
#include "attention.h"
#include "ops/norm/norm_common.h"

/* The typed pieces, per element dtype E and compute type A (suffix S: f float, d double). */
typedef void (*att_load)(void *dst, const void *src, int64_t n);
typedef void (*att_store)(void *dst, const void *src, int64_t n);
/* s[j] += mask element j * ms (bool: 0 or -inf) */
typedef void (*att_mask)(void *s, const void *m, int64_t ms, int64_t n);

/* float16 -> float, exact (the exponent rebiased; zeros and subnormals renormalised by one
 * exact float subtraction; infinities and NaNs keep their payload), branch-free so that the
 * widening loop vectorises: the cache's keys and values pass through it once per group. */
static inline float att_h2f(uint16_t h) {
    const uint32_t em = (uint32_t)(h & 0x7fffu) << 13, ex = em & 0x0f800000u;
    uint32_t o = em + ((127u - 15u) << 23);
    o += ex == 0x0f800000u ? (128u - 16u) << 23 : 0;
    o += ex == 0 ? 1u << 23 : 0;
    float f, tiny = 6.103515625e-05f; /* 2^-14 */
    memcpy(&f, &o, sizeof f);
    f -= ex == 0 ? tiny : 0.0f;
    memcpy(&o, &f, sizeof o);
    o |= (uint32_t)(h & 0x8000u) << 16;
    memcpy(&f, &o, sizeof f);
    return f;
}
/* float16 -> float, 8 at a time with F16C where the CPU has it (vcvtph2ps: exact as att_h2f);
 * returns how many of the n it converted (a multiple of 8, or 0). */
#if ATT_X86
#include <immintrin.h>
#define ATT_F16C 1
__attribute__((target("avx,f16c"))) static int64_t att_f16c_run(float *o, const uint16_t *p,
                                                                 int64_t n) {
    int64_t j = 0;
    for (; j + 8 <= n; j += 8)
        _mm256_storeu_ps(o + j, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(p + j))));
    return j;
}
/* (clang 14 knows no "f16c" here: every CPU with AVX2 has F16C, asked for instead) */
#if defined(__clang__)
#define ATT_HAS_F16C() __builtin_cpu_supports("avx2")
#else
#define ATT_HAS_F16C() __builtin_cpu_supports("f16c")
#endif
/* (suffix h's functions: AVX2 and FMA too) */
#define ATT_HAS_FMA() (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
#define ATT_HAS_AVX512() __builtin_cpu_supports("avx512f")
static int64_t att_f16c(float *o, const uint16_t *p, int64_t n) {
    return ATT_HAS_F16C() ? att_f16c_run(o, p, n) : 0;
}
#else
#define ATT_F16C 0
#define ATT_HAS_F16C() 0
#define ATT_HAS_FMA() 0
static int64_t att_f16c(float *o, const uint16_t *p, int64_t n) {
    (void)o, (void)p, (void)n;
    return 0;
}
#endif
#define ATT_FAST_F16_f(o, p, n) att_f16c(o, p, n)
#define ATT_FAST_F16_d(o, p, n) 0
#define ATT_FAST_FLOAT_f(o, p, n) 0
#define ATT_FAST_FLOAT_d(o, p, n) 0
#define ATT_FAST_BF16_f(o, p, n) 0
#define ATT_FAST_BF16_d(o, p, n) 0
#define ATT_WIDEN_FLOAT(x) OSC_NC_WIDEN_FLOAT(x)
#define ATT_WIDEN_F16(x) att_h2f(x)
#define ATT_WIDEN_BF16(x) OSC_NC_WIDEN_BF16(x)

_Static_assert(ATT_ST == 2 * ATT_LANES, "a row maximum's state is two vectors");
#define ATT_FLOAT_FNS(E, T, CLS, A, S)                                                        \
    OSC_AVX2_CLONES static void load_##S##_##E(void *dst, const void *src, int64_t n) {       \
        const T *p = src;                                                                     \
        A *o = dst;                                                                           \
        for (int64_t j = ATT_FAST_##CLS##_##S(o, p, n); j < n; j++)                           \
            o[j] = (A)ATT_WIDEN_##CLS(p[j]);                                                  \
    }                                                                                         \
    static void store_##S##_##E(void *dst, const void *src, int64_t n) {                      \
        const A *p = src;                                                                     \
        T *o = dst;                                                                           \
        for (int64_t j = 0; j < n; j++) o[j] = OSC_NC_NARROW_##CLS(T, p[j]);                  \
    }
#define ATT_FNS_F(E, T, CLS) ATT_FLOAT_FNS(E, T, CLS, float, f)
#define ATT_FNS_D(E, T, CLS) ATT_FLOAT_FNS(E, T, CLS, double, d)
OSC_FLOAT_TYPES(ATT_FNS_F)
OSC_FLOAT_TYPES(ATT_FNS_D)

/* A mask element as a number, per class (bool has its own loop). */
#define ATT_MW_FLOAT(x) (x)
#define ATT_MW_F16(x) OSC_H2F(x)
#define ATT_MW_BF16(x) OSC_B2F(x)
#define ATT_MW_SINT(x) (x)
#define ATT_MW_UINT(x) (x)
#define ATT_MASK_FN(E, T, CLS, A, S)                                                          \
    static void mask_##S##_##E(void *s, const void *m, int64_t ms, int64_t n) {               \
        const T *p = m;                                                                       \
        A *o = s;                                                                             \
        for (int64_t j = 0; j < n; j++) o[j] += (A)ATT_MW_##CLS(p[j * ms]);                   \
    }
#define ATT_BOOL_FN(A, S)                                                                     \
    static void mask_##S##_bool(void *s, const void *m, int64_t ms, int64_t n) {              \
        const uint8_t *p = m;                                                                 \
        A *o = s;                                                                             \
        for (int64_t j = 0; j < n; j++)                                                       \
            if (!p[j * ms]) o[j] += -(A)INFINITY;                                             \
    }
#define ATT_MASK_F(E, T, CLS) ATT_MASK_FN(E, T, CLS, float, f)
#define ATT_MASK_D(E, T, CLS) ATT_MASK_FN(E, T, CLS, double, d)
OSC_REAL_TYPES(ATT_MASK_F)
OSC_REAL_TYPES(ATT_MASK_D)
ATT_BOOL_FN(float, f)
ATT_BOOL_FN(double, d)

/* The tables, per dtype: [0] computes in float, [1] in double. */
#define ATT_PAIR(FN, E) {FN##_f_##E, FN##_d_##E}
typedef struct att_typed {
    att_load load[2];
    att_store store[2];
} att_typed;
#define ATT_E_TYPED(E, T, CLS)                                                                \
    [E] = {ATT_PAIR(load, E), ATT_PAIR(store, E)},
static const att_typed k_typed[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ATT_E_TYPED)};
#define ATT_E_MASK(E, T, CLS) [E] = ATT_PAIR(mask, E),
static const att_mask k_mask[OSC_DTYPE_COUNT][2] = {
    OSC_REAL_TYPES(ATT_E_MASK)[OSC_BOOL] = ATT_PAIR(mask, bool)};

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* nb rows of n elements (z bytes each), rs elements apart from src, widened by ld into dst
 * (one call when they are contiguous) */
static void load_rows(att_load ld, void *dst, size_t dz, const char *src, size_t z, int64_t nb,
                      int64_t n, int64_t rs) {
    if (rs == n) {
        ld(dst, src, nb * n);
        return;
    }
    for (int64_t r = 0; r < nb; r++)
        ld((char *)dst + (size_t)(r * n) * dz, src + (size_t)(r * rs) * z, n);
}

size_t osc_att_part_bytes(const att_shape *s, bool wide) {
    /* the caller checked that this fits: a block of widened key rows and one of value rows,
     * and per q head of a group its score row, query row, accumulator and row maximum's state */
    const int64_t rep = s->qh / s->kvh, per = s->total + s->d + s->dv + ATT_ST;
    const size_t n = (size_t)(ATT_KEY_BLOCK * (s->d + s->dv) + rep * per) *
                     (wide ? sizeof(double) : sizeof(float));
    return (n + 63) & ~(size_t)63;
}

/* The keys row (b, i) may see: [0, return value), the causal frontier, nonpad_kv_seqlen and a
 * short mask's end taken in; 0 when none. */
static int64_t visible_keys(const att_job *jb, int64_t b, int64_t i) {
    const att_shape *s = jb->s;
    int64_t end = s->total;
    if (s->nonpad_given) end = min64(end, jb->nonpad[b]);
    if (s->mask_given) end = min64(end, s->m_len);
    if (jb->p->causal) {
        /* bottom-right alignment: the keys before this block of queries are all visible */
        const int64_t off = s->past_given ? s->past : s->nonpad_given ? jb->nonpad[b] - s->qs : 0;
        end = min64(end, i + off + 1);
    }
    return end < 0 ? 0 : end;
}

/* The largest of a row's elements for compute type A (suffix S, V its ATT_LANES vector, VI the
 * integer vector of its width; NaN never wins, so any order gives the same m) and whether some
 * element is not -inf (a key not masked out), kept as a state st of 2 * ATT_LANES elements (the
 * lanes' maxima, then their "seen" bits) that blocks of the row fold into one after another:
 * rowmax_init, rowmax_add per block (vector-wise, the lanes' bits selected; the elements past
 * the last whole vector into lane 0), rowmax_end. */
#define ATT_ROWMAX(A, S, V, VI)                                                               \
    ATT_INLINE void rowmax_init_##S(A *st) {                                                  \
        const V lm = (V){0} - (A)INFINITY;                                                    \
        const VI seen = {0};                                                                  \
        memcpy(st, &lm, sizeof lm), memcpy(st + ATT_LANES, &seen, sizeof seen);               \
    }                                                                                         \
    ATT_INLINE void rowmax_add_##S(A *st, const A *s, int64_t n) {                            \
        V lm;                                                                                 \
        VI seen;                                                                              \
        memcpy(&lm, st, sizeof lm), memcpy(&seen, st + ATT_LANES, sizeof seen);               \
        int64_t j = 0;                                                                        \
        for (; j + ATT_LANES <= n; j += ATT_LANES) {                                          \
            const V x = ATT_LD##S(s + j);                                                     \
            const VI gt = x > lm;                                                             \
            lm = (V)(((VI)x & gt) | ((VI)lm & ~gt));                                          \
            seen |= x != -(A)INFINITY;                                                        \
        }                                                                                     \
        for (; j < n; j++)                                                                    \
            lm[0] = s[j] > lm[0] ? s[j] : lm[0], seen[0] |= s[j] != -(A)INFINITY;             \
        memcpy(st, &lm, sizeof lm), memcpy(st + ATT_LANES, &seen, sizeof seen);               \
    }                                                                                         \
    ATT_INLINE A rowmax_end_##S(const A *st, int *any) {                                      \
        V lm;                                                                                 \
        VI seen;                                                                              \
        memcpy(&lm, st, sizeof lm), memcpy(&seen, st + ATT_LANES, sizeof seen);               \
        A m = -(A)INFINITY;                                                                   \
        int a = 0;                                                                            \
        for (int l = 0; l < ATT_LANES; l++) m = lm[l] > m ? lm[l] : m, a |= seen[l] != 0;     \
        *any = a;                                                                             \
        return m;                                                                             \
    }
ATT_ROWMAX(float, f, att_vf, att_vi)
ATT_ROWMAX(double, d, att_vd, att_vl)

/* c = a * b + c, lane by lane (c a vector; a a vector, or a scalar for ATT_MADDS), each lane
 * rounded once by FMA (fmaf or fma: the instruction in the functions built for it, the C
 * library's, which is exact, in the others), so that every build gives the same bits. */
#define ATT_MADD(c, a, b, FMA)                                                                \
    do {                                                                                      \
        const __typeof__(c) a_ = (a), b_ = (b);                                               \
        for (int l_ = 0; l_ < ATT_LANES; l_++) (c)[l_] = FMA(a_[l_], b_[l_], (c)[l_]);        \
    } while (0)
/* (a scalar broadcast: a - (+0) is a for every a, -0 too, so no subtraction is emitted) */
#define ATT_MADDS(c, a, b, FMA) ATT_MADD(c, (a) - (__typeof__(c)){0}, b, FMA)

/* gaxpy's four rows over the keys: a_i += w_i[k] x and b_i += w_i[k] y, each key's value
 * vectors x and y, skipping a zero w_i[k] when zero is 1 */
#define ATT_MADD2(a, b, w, x, y, FMA, zero)                                                   \
    do {                                                                                      \
        if (!(zero) || (w) != 0) {                                                            \
            ATT_MADDS(a, w, x, FMA);                                                          \
            ATT_MADDS(b, w, y, FMA);                                                          \
        }                                                                                     \
    } while (0)
#define ATT_KEYS4(V, LDK, FMA, zero)                                                          \
    for (int64_t k = 0; k < nv; k++) {                                                        \
        const V x = LDK(vb + k * vs + t), y = LDK(vb + k * vs + t + u);                       \
        ATT_MADD2(a0, b0, w0[k], x, y, FMA, zero);                                            \
        ATT_MADD2(a1, b1, w1[k], x, y, FMA, zero);                                            \
        ATT_MADD2(a2, b2, w2[k], x, y, FMA, zero);                                            \
        ATT_MADD2(a3, b3, w3[k], x, y, FMA, zero);                                            \
    }

/* What a group's loops share, for compute type A (V its ATT_LANES vector, V4 its vector of four,
 * LDA its vector load) reading keys and values of element type KT (LDK: ATT_LANES of them
 * widened to a V; EK: one widened), suffix S; FMA A's fused multiply-add; ATTR and IATTR the
 * targets of the functions and of their inlined helper: the scores of the rep query rows
 * q[r * qst] against nk key rows kb[k * ks], into o[r * os + k] (two keys and four rows at a
 * time, then one key, then one row: the same bits); and acc[r * as] += the weights
 * wb[r * ws + k] times nv value rows vb[k * vs], key by key in order, skipping zero weights (a
 * key the softmax gave nothing adds nothing, even a NaN): four rows at a time with a vector of
 * each kept in registers across the keys (the same bits). */
#define ATT_GROUP_FNS(A, S, V, V4, LDA, KT, LDK, EK, FMA, ATTR, IATTR)                        \
    /* q rows q0, q0 + qst, .. against key kf: four dot products, scaled */                   \
    IATTR ATT_INLINE void dot4_##S(A *o, int64_t os, const A *q0, int64_t qst, const KT *kf,  \
                                   int64_t d, A scale) {                                      \
        const A *q1 = q0 + qst, *q2 = q1 + qst, *q3 = q2 + qst;                               \
        V l0 = {0}, l1 = {0}, l2 = {0}, l3 = {0};                                             \
        int64_t t = 0;                                                                        \
        for (; t + ATT_LANES <= d; t += ATT_LANES) {                                          \
            const V x = LDK(kf + t);                                                          \
            ATT_MADD(l0, LDA(q0 + t), x, FMA); ATT_MADD(l1, LDA(q1 + t), x, FMA);             \
            ATT_MADD(l2, LDA(q2 + t), x, FMA); ATT_MADD(l3, LDA(q3 + t), x, FMA);             \
        }                                                                                     \
        V4 r;                                                                                 \
        ATT_SUM4(r, l0, l1, l2, l3);                                                          \
        for (; t < d; t++) {                                                                  \
            const A x = EK(kf[t]);                                                            \
            r[0] = FMA(q0[t], x, r[0]), r[1] = FMA(q1[t], x, r[1]);                           \
            r[2] = FMA(q2[t], x, r[2]), r[3] = FMA(q3[t], x, r[3]);                           \
        }                                                                                     \
        for (int k = 0; k < 4; k++) o[k * os] = r[k] * scale;                                 \
    }                                                                                         \
    ATTR static void gdots_##S(A *o, int64_t os, const A *q, int64_t qst, int64_t rep,        \
                               const KT *kb, int64_t ks, int64_t nk, int64_t d, A scale) {    \
        const int64_t r4 = rep - rep % 4;                                                     \
        int64_t kk = 0;                                                                       \
        for (; kk + 2 <= nk && r4 > 0; kk += 2) { /* two keys: each q load serves both */     \
            const KT *ka = kb + kk * ks, *kc = ka + ks;                                       \
            for (int64_t r = 0; r < r4; r += 4) {                                             \
                const A *q0 = q + r * qst, *q1 = q0 + qst, *q2 = q1 + qst, *q3 = q2 + qst;    \
                V a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, c0 = {0}, c1 = {0}, c2 = {0};       \
                V c3 = {0};                                                                   \
                int64_t t = 0;                                                                \
                for (; t + ATT_LANES <= d; t += ATT_LANES) {                                  \
                    const V x = LDK(ka + t), y = LDK(kc + t);                                 \
                    V z = LDA(q0 + t);                                                        \
                    ATT_MADD(a0, z, x, FMA); ATT_MADD(c0, z, y, FMA); z = LDA(q1 + t);        \
                    ATT_MADD(a1, z, x, FMA); ATT_MADD(c1, z, y, FMA); z = LDA(q2 + t);        \
                    ATT_MADD(a2, z, x, FMA); ATT_MADD(c2, z, y, FMA); z = LDA(q3 + t);        \
                    ATT_MADD(a3, z, x, FMA); ATT_MADD(c3, z, y, FMA);                         \
                }                                                                             \
                V4 ra, rc;                                                                    \
                ATT_SUM4(ra, a0, a1, a2, a3);                                                 \
                ATT_SUM4(rc, c0, c1, c2, c3);                                                 \
                for (; t < d; t++) {                                                          \
                    const A x = EK(ka[t]), y = EK(kc[t]);                                     \
                    ra[0] = FMA(q0[t], x, ra[0]), ra[1] = FMA(q1[t], x, ra[1]);               \
                    ra[2] = FMA(q2[t], x, ra[2]), ra[3] = FMA(q3[t], x, ra[3]);               \
                    rc[0] = FMA(q0[t], y, rc[0]), rc[1] = FMA(q1[t], y, rc[1]);               \
                    rc[2] = FMA(q2[t], y, rc[2]), rc[3] = FMA(q3[t], y, rc[3]);               \
                }                                                                             \
                A *or = o + r * os + kk;                                                      \
                for (int k = 0; k < 4; k++)                                                   \
                    or[k * os] = ra[k] * scale, or[k * os + 1] = rc[k] * scale;               \
            }                                                                                 \
        }                                                                                     \
        for (; kk < nk; kk++)                                                                 \
            for (int64_t r = 0; r < r4; r += 4)                                               \
                dot4_##S(o + r * os + kk, os, q + r * qst, qst, kb + kk * ks, d, scale);      \
        for (int64_t r = r4; r < rep; r++) /* rows past the last four */                      \
            for (kk = 0; kk < nk; kk++) {                                                     \
                const A *pq = q + r * qst;                                                    \
                const KT *kf = kb + kk * ks;                                                  \
                V lane = {0};                                                                 \
                int64_t t = 0;                                                                \
                for (; t + ATT_LANES <= d; t += ATT_LANES)                                    \
                    ATT_MADD(lane, LDA(pq + t), LDK(kf + t), FMA);                            \
                A acc = ATT_TREE1(lane);                                                      \
                for (; t < d; t++) acc = FMA(pq[t], EK(kf[t]), acc);                          \
                o[r * os + kk] = acc * scale;                                                 \
            }                                                                                 \
    }                                                                                         \
    ATTR static void gaxpy_##S(A *acc, int64_t as, const A *wb, int64_t ws, int64_t rep,      \
                               const KT *vb, int64_t vs, int64_t nv, int64_t dv) {            \
        int zero = 0; /* some weight is zero: a key to skip in its row */                     \
        for (int64_t r = 0; r < rep; r++)                                                     \
            for (int64_t k = 0; k < nv; k++) zero |= wb[r * ws + k] == 0;                     \
        const int64_t r4 = rep - rep % 4, d8 = dv - dv % ATT_LANES;                           \
        for (int64_t r = 0; r < r4; r += 4) { /* four rows, two vectors of each in registers */ \
            const A *w0 = wb + r * ws, *w1 = w0 + ws, *w2 = w1 + ws, *w3 = w2 + ws;           \
            for (int64_t t = 0; t < d8;) {                                                    \
                const int two = t + 2 * ATT_LANES <= d8, u = two ? ATT_LANES : 0;             \
                A *o0 = acc + r * as + t, *o1 = o0 + as, *o2 = o1 + as, *o3 = o2 + as;        \
                V a0 = LDA(o0), a1 = LDA(o1), a2 = LDA(o2), a3 = LDA(o3);                     \
                V b0 = LDA(o0 + u), b1 = LDA(o1 + u), b2 = LDA(o2 + u);                       \
                V b3 = LDA(o3 + u);                                                           \
                if (zero) { /* (each a loop of its own: a test in the other slows it 2x) */   \
                    ATT_KEYS4(V, LDK, FMA, 1)                                                 \
                } else {                                                                      \
                    ATT_KEYS4(V, LDK, FMA, 0)                                                 \
                }                                                                             \
                /* one vector (u = 0): the b lanes are the a lanes again, stored first */     \
                memcpy(o0 + u, &b0, sizeof b0), memcpy(o1 + u, &b1, sizeof b1);               \
                memcpy(o2 + u, &b2, sizeof b2), memcpy(o3 + u, &b3, sizeof b3);               \
                memcpy(o0, &a0, sizeof a0), memcpy(o1, &a1, sizeof a1);                       \
                memcpy(o2, &a2, sizeof a2), memcpy(o3, &a3, sizeof a3);                       \
                t += two ? 2 * ATT_LANES : ATT_LANES;                                         \
            }                                                                                 \
        }                                                                                     \
        for (int64_t r = 0; r < rep; r++) { /* the rest, key by key in the same order */      \
            const int64_t t0 = r < r4 ? d8 : 0;                                               \
            A *restrict o = acc + r * as;                                                     \
            for (int64_t k = 0; k < nv && t0 < dv; k++) {                                     \
                const A w = wb[r * ws + k];                                                   \
                const KT *restrict v = vb + k * vs;                                           \
                if (w != 0)                                                                   \
                    for (int64_t t = t0; t < dv; t++) o[t] = FMA(w, EK(v[t]), o[t]);          \
            }                                                                                 \
        }                                                                                     \
    }
/* Float and double keys and values (suffixes f, d), built twice on x86-64: with FMA
 * instructions and for the baseline, where each lane's fma is a call to the C library; and
 * float16 ones read where they lie, widened in registers by F16C (h): the float16 caches' loads
 * then overlap the arithmetic instead of stalling a widening pass. */
#if ATT_F16C
#define ATT_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define ATT_FMA_CLONES
#endif
#define ATT_SAME(x) (x)
ATT_GROUP_FNS(float, f, att_vf, att_vf4, ATT_LDf, float, ATT_LDf, ATT_SAME, fmaf, ATT_FMA_CLONES, )
ATT_GROUP_FNS(double, d, att_vd, att_vd4, ATT_LDd, double, ATT_LDd, ATT_SAME, fma, ATT_FMA_CLONES,
              )
#if ATT_F16C
#define ATT_F16C_TARGET __attribute__((target("avx2,fma,f16c")))
#define ATT_LDh(p) ((att_vf)_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(p))))
ATT_GROUP_FNS(float, h, att_vf, att_vf4, ATT_LDf, uint16_t, ATT_LDh, att_h2f, fmaf,
              ATT_F16C_TARGET, ATT_F16C_TARGET)
/* gdots_h and gaxpy_h with their four-row parts on AVX-512 where the CPU has it (att_avx512.c:
 * the same bits), the rest through gdots_h and gaxpy_h */
static void gdots_z(float *o, int64_t os, const float *q, int64_t qst, int64_t rep,
                    const uint16_t *kb, int64_t ks, int64_t nk, int64_t d, float scale) {
    const int64_t r4 = !ATT_HAS_AVX512() || d % ATT_LANES ? 0 : rep - rep % 4, n4 = nk - nk % 4;
    if (r4 > 0 && n4 > 0) osc_att_dots_z(o, os, q, qst, r4, kb, ks, n4, d, scale);
    if (r4 > 0 && n4 < nk)
        gdots_h(o + n4, os, q, qst, r4, kb + n4 * ks, ks, nk - n4, d, scale);
    if (r4 < rep)
        gdots_h(o + r4 * os, os, q + r4 * qst, qst, rep - r4, kb, ks, nk, d, scale);
}
static void gaxpy_z(float *acc, int64_t as, const float *wb, int64_t ws, int64_t rep,
                    const uint16_t *vb, int64_t vs, int64_t nv, int64_t dv) {
    const int64_t r4 = !ATT_HAS_AVX512() || dv % 16 ? 0 : rep - rep % 4;
    if (r4 > 0) osc_att_axpy_z(acc, as, wb, ws, r4, vb, vs, nv, dv);
    if (r4 < rep) gaxpy_h(acc + r4 * as, as, wb + r4 * ws, ws, rep - r4, vb, vs, nv, dv);
}
#endif

/* e^x, ATT_LANES at a time, for the softmax's x = score - max (<= 0, -inf or NaN): a Cody-Waite
 * reduction by ln 2 and Cephes' expf polynomial (within 2 ulp of expf), then 2^n applied in two
 * halves so that results down to the subnormals round once. No float-to-int conversion: n is
 * read from the bits of x log2(e) + 1.5 * 2^23. */
ATT_INLINE void att_vexp(att_vf *px) {
    att_vf x = *px;
    const att_vf lo = {-105, -105, -105, -105, -105, -105, -105, -105};
    const att_vf hi = {88, 88, 88, 88, 88, 88, 88, 88};
    att_vi below = x < lo, above = x > hi, xb, lb, hb; /* NaN: neither, and stays NaN */
    memcpy(&xb, &x, sizeof x), memcpy(&lb, &lo, sizeof lo), memcpy(&hb, &hi, sizeof hi);
    xb = (xb & ~(below | above)) | (lb & below) | (hb & above);
    memcpy(&x, &xb, sizeof x);
    const att_vf t = x * 1.44269504088896341f + 12582912.0f, nf = t - 12582912.0f;
    att_vi n;
    memcpy(&n, &t, sizeof t);
    n -= 0x4B400000;
    const att_vf r = (x - nf * 0.693359375f) - nf * -2.12194440e-4f;
    att_vf p = r * 1.9875691500e-4f + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const att_vf y = p * (r * r) + r + 1.0f;
    const att_vi n1 = n >> 1, e1 = (n1 + 127) << 23, e2 = (n - n1 + 127) << 23;
    att_vf s1, s2;
    memcpy(&s1, &e1, sizeof s1), memcpy(&s2, &e2, sizeof s2);
    *px = y * s1 * s2;
}

/* The softmax's exponentials: sc[j] = e^(sc[j] - m) for j < n, and their sum (float: lane
 * sums, then the tree; double: exp and a sum in order). */
ATT_INLINE float softexp_f(float *sc, int64_t n, float m) {
    att_vf acc = {0}, e;
    int64_t j = 0;
    for (; j + ATT_LANES <= n; j += ATT_LANES) {
        e = ATT_LDf(sc + j) - m;
        att_vexp(&e);
        memcpy(sc + j, &e, sizeof e);
        acc += e;
    }
    if (j < n) { /* the last lanes padded with -inf, whose e^x is 0 */
        float buf[ATT_LANES];
        for (int l = 0; l < ATT_LANES; l++) buf[l] = j + l < n ? sc[j + l] - m : -INFINITY;
        e = ATT_LDf(buf);
        att_vexp(&e);
        memcpy(buf, &e, sizeof e);
        for (int l = 0; j + l < n; l++) sc[j + l] = buf[l];
        acc += e;
    }
    return ATT_TREE1(acc);
}
ATT_INLINE double softexp_d(double *sc, int64_t n, double m) {
    double sum = 0;
    for (int64_t j = 0; j < n; j++) sum += sc[j] = exp(sc[j] - m);
    return sum;
}

/* The group loop for compute type A (suffix S), TANH its tanh. A unit u = (b * kvh
 * + g) * qs + i computes output rows (b, h, i) of the rep = qh / kvh q heads h sharing kv head
 * g: each key and value row is read and widened once for the group. */
#define ATT_ROWS(A, S, TANH)                                                                  \
    OSC_AVX2_CLONES static void rows_##S(const att_job *jb, char *scr, int64_t lo,            \
                                         int64_t hi) {                                        \
        const att_shape *s = jb->s;                                                           \
        const att_params *p = jb->p;                                                          \
        const int w = jb->wide;                                                               \
        const att_typed *f = &k_typed[jb->t1], *f2 = &k_typed[jb->t2];                        \
        const size_t z1 = osc_dtype_get(jb->t1)->bits / 8;                                    \
        const size_t z2 = osc_dtype_get(jb->t2)->bits / 8;                                    \
        const size_t zm = s->mask_given ? osc_dtype_get(jb->tm)->bits / 8 : 0;                \
        const int64_t rep = s->qh / s->kvh, d = s->d, dv = s->dv, total = s->total;           \
        /* one q head's score row, query, accumulator and row maximum's state (rowmax) */     \
        const int64_t per = total + d + dv + ATT_ST, st = total + d + dv;                     \
        A *kb = (A *)(void *)scr, *vb = kb + ATT_KEY_BLOCK * d, *g0 = vb + ATT_KEY_BLOCK * dv; \
        const bool r4 = s->rank == 4;                                                         \
        const int64_t kst = r4 ? d : s->kvh * d, vst = r4 ? dv : s->kvh * dv;                 \
        const A cap = (A)p->softcap, scale = (A)jb->scale;                                    \
        /* the scores as Q.K^T gave them: their maxima taken per block of keys, the weights   \
         * divided by their sum per block of values, while the rows are in cache */           \
        const bool lean = cap == 0 && !s->mask_given && !jb->qk;                              \
        /* float16 keys or values the float arithmetic reads where they lie */                \
        const bool hf = ATT_F16C && !w && ATT_HAS_F16C() && ATT_HAS_FMA();                    \
        const bool hk = hf && jb->t1 == OSC_FLOAT16, hv = hf && jb->t2 == OSC_FLOAT16;        \
        for (int64_t u = lo; u < hi; u++) {                                                   \
            const int64_t i = u % s->qs, g = u / s->qs % s->kvh, b = u / s->qs / s->kvh;      \
            const int64_t bg = b * s->kvh + g, po = bg * s->past;                             \
            const char *kp = s->past ? (const char *)jb->pk + (size_t)(po * d) * z1 : NULL;   \
            const char *vp = s->past ? (const char *)jb->pv + (size_t)(po * dv) * z2 : NULL;  \
            const int64_t kvo = r4 ? bg * s->kvs : b * s->kvs * s->kvh + g;                   \
            const char *kn = (const char *)jb->k + (size_t)(kvo * d) * z1;                    \
            const char *vn = (const char *)jb->v + (size_t)(kvo * dv) * z2;                   \
            const int64_t end = visible_keys(jb, b, i);                                       \
            /* modes 0 and 1 show every key's score, masked or not */                         \
            const int64_t n_sc = jb->qk && p->mode <= 1 ? total : end;                        \
            for (int64_t q = 0; q < rep; q++) {                                               \
                const int64_t h = g * rep + q, r = (b * s->qh + h) * s->qs + i;               \
                const int64_t qo = r4 ? r * d : ((b * s->qs + i) * s->qh + h) * d;            \
                f->load[w](g0 + q * per + total, (const char *)jb->q + (size_t)qo * z1, d);   \
            }                                                                                 \
            for (int64_t q = 0; q < rep; q++) rowmax_init_##S(g0 + q * per + st);             \
            const int64_t n1 = min64(n_sc, s->past);                                          \
            for (int64_t j0 = 0; j0 < n_sc;) { /* keys in blocks within the past, the new */  \
                const bool in_past = j0 < n1;                                                 \
                const int64_t nb = min64(ATT_KEY_BLOCK, (in_past ? n1 : n_sc) - j0);          \
                const int64_t rs = in_past ? d : kst; /* elements from a row to the next */   \
                const char *k0 = in_past ? kp + (size_t)(j0 * d) * z1                         \
                                         : kn + (size_t)((j0 - n1) * kst) * z1;               \
                if (hk) {                                                                     \
                    ATT_HALF_##S(gdots_z(g0 + j0, per, g0 + total, per, rep,                  \
                                         (const uint16_t *)(const void *)k0, rs, nb, d,       \
                                         scale));                                             \
                } else {                                                                      \
                    load_rows(f->load[w], kb, sizeof(A), k0, z1, nb, d, rs);                  \
                    gdots_##S(g0 + j0, per, g0 + total, per, rep, kb, d, nb, d, scale);       \
                }                                                                             \
                for (int64_t q = 0; lean && q < rep; q++)                                     \
                    rowmax_add_##S(g0 + q * per + st, g0 + q * per + j0, nb);                 \
                j0 += nb;                                                                     \
            }                                                                                 \
            for (int64_t q = 0; q < rep; q++) {                                               \
                const int64_t h = g * rep + q, r = (b * s->qh + h) * s->qs + i;               \
                A *sc = g0 + q * per, *acc = sc + total + d;                                  \
                char *qk = jb->qk ? (char *)jb->qk + (size_t)(r * total) * z1 : NULL;         \
                if (qk && p->mode == 0) f->store[w](qk, sc, total);                           \
                if (cap > 0)                                                                  \
                    for (int64_t j = 0; j < n_sc; j++) sc[j] = cap * TANH(sc[j] / cap);       \
                if (qk && p->mode == 1) f->store[w](qk, sc, total);                           \
                if (s->mask_given && end > 0) {                                               \
                    const int64_t mo = b * s->m_st[0] + h * s->m_st[1] + i * s->m_st[2];      \
                    const char *mrow = (const char *)jb->mask + (size_t)mo * zm;              \
                    k_mask[jb->tm][w](sc, mrow, s->m_st[3], end);                             \
                }                                                                             \
                if (qk && p->mode == 2) {                                                     \
                    for (int64_t j = end; j < total; j++) sc[j] = -(A)INFINITY;               \
                    f->store[w](qk, sc, total);                                               \
                }                                                                             \
                if (!lean) rowmax_add_##S(sc + st, sc, end);                                  \
                int any;                                                                      \
                const A m = rowmax_end_##S(sc + st, &any);                                    \
                for (int64_t t = 0; t < dv; t++) acc[t] = 0;                                  \
                /* a fully masked row: zeros in Y and in the mode-3 output, not NaN */        \
                const int64_t n_w = any ? end : 0;                                            \
                const A sum = softexp_##S(sc, n_w, m);                                        \
                for (int64_t j = n_w; j < end; j++) sc[j] = 0; /* weights the values get */   \
                if (lean) { /* the sum kept (1 for a row of zeros: 0 / 1 = 0) */              \
                    sc[st] = sum + (A)(n_w == 0);                                             \
                    continue;                                                                 \
                }                                                                             \
                for (int64_t j = 0; j < n_w; j++) sc[j] /= sum;                               \
                if (qk && p->mode == 3) {                                                     \
                    for (int64_t j = n_w; j < total; j++) sc[j] = 0;                          \
                    f->store[w](qk, sc, total);                                               \
                }                                                                             \
            }                                                                                 \
            /* values in blocks within the past, then within the new ones */                  \
            const int64_t e1 = min64(end, s->past);                                           \
            for (int64_t j0 = 0; j0 < end;) {                                                 \
                const bool in_past = j0 < e1;                                                 \
                const int64_t nb = min64(ATT_KEY_BLOCK, (in_past ? e1 : end) - j0);           \
                const int64_t rs = in_past ? dv : vst;                                        \
                const char *v0 = in_past ? vp + (size_t)(j0 * dv) * z2                        \
                                         : vn + (size_t)((j0 - e1) * vst) * z2;               \
                for (int64_t q = 0; lean && q < rep; q++) { /* e / sum, as softmax divides */ \
                    A *wq = g0 + q * per + j0;                                                \
                    const A sum = wq[st - j0];                                                \
                    for (int64_t j = 0; j < nb; j++) wq[j] /= sum;                            \
                }                                                                             \
                if (hv) {                                                                     \
                    ATT_HALF_##S(gaxpy_z(g0 + total + d, per, g0 + j0, per, rep,              \
                                         (const uint16_t *)(const void *)v0, rs, nb, dv));    \
                } else {                                                                      \
                    load_rows(f2->load[w], vb, sizeof(A), v0, z2, nb, dv, rs);                \
                    gaxpy_##S(g0 + total + d, per, g0 + j0, per, rep, vb, dv, nb, dv);        \
                }                                                                             \
                j0 += nb;                                                                     \
            }                                                                                 \
            for (int64_t q = 0; q < rep; q++) {                                               \
                const int64_t h = g * rep + q, r = (b * s->qh + h) * s->qs + i;               \
                const int64_t yo = r4 ? r * dv : ((b * s->qs + i) * s->qh + h) * dv;          \
                f->store[w]((char *)jb->y + (size_t)yo * z1, g0 + q * per + total + d, dv);   \
            }                                                                                 \
        }                                                                                     \
    }
#if ATT_F16C
#define ATT_HALF_f(call) call
#else
#define ATT_HALF_f(call) (void)0
#endif
#define ATT_HALF_d(call) (void)0
ATT_ROWS(float, f, tanhf)
ATT_ROWS(double, d, tanh)

void osc_att_rows(const att_job *j, int32_t part, int64_t lo, int64_t hi) {
    char *scr = j->scratch + (size_t)part * j->part_bytes;
    if (j->wide)
        rows_d(j, scr, lo, hi);
    else
        rows_f(j, scr, lo, hi);
}
