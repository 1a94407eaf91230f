/* att_rows.c: Attention's rows, a group at a time: the q heads sharing a kv head, for one batch
 * and query. Per row: the scores Q.K^T times scale into a scratch row, softcap, the mask and
 * the causal frontier, softmax, then the weights times V into an accumulator; each K and V row
 * is read and widened once for the whole group, only up to the last key the rows can see.
 * Computed in float (double for double inputs or softmax_precision double), float16/bfloat16
 * widened as read and rounded once as stored. */
#include <math.h>
#include <string.h>

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
#if defined(__x86_64__) && defined(__linux__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(OSC_NO_CLONES)
#include <immintrin.h>
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
static int64_t att_f16c(float *o, const uint16_t *p, int64_t n) {
    return ATT_HAS_F16C() ? att_f16c_run(o, p, n) : 0;
}
#else
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

#define ATT_LANES 8
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

size_t osc_att_part_bytes(const att_shape *s, bool wide) {
    /* the caller checked that this fits: a block of widened key rows and one of value rows,
     * and per q head of a group its score row, query row and accumulator */
    const int64_t rep = s->qh / s->kvh;
    const size_t n = (size_t)(ATT_KEY_BLOCK * (s->d + s->dv) + rep * (s->total + s->d + s->dv)) *
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

/* ATT_LANES compute elements as one value (GCC's vector extension, which clang reads too):
 * lane l of a sum adds the products at t = l mod ATT_LANES, as a plain loop over lanes would,
 * in registers the compiler cannot fail to find. */
typedef float att_vf __attribute__((vector_size(ATT_LANES * sizeof(float))));
typedef double att_vd __attribute__((vector_size(ATT_LANES * sizeof(double))));

/* What a group's loops share, for compute type A (suffix S): the scores of the rep query rows
 * q[r * qst] against nk widened key rows kb[k * d], into o[r * os + k] (ATT_LANES lane sums,
 * then the lanes in order; four rows at a time or one, the same bits); and acc[r * as] += the
 * weights wb[r * ws + k] times nv widened value rows vb[k * dv], in groups of four from the
 * first: four at once when all four weights are nonzero, else one by one skipping zeros (a key
 * the softmax gave nothing adds nothing). */
#define ATT_GROUP_FNS(A, S, V)                                                                \
    OSC_AVX2_CLONES static void gdots_##S(A *o, int64_t os, const A *q, int64_t qst,          \
                                          int64_t rep, const A *kb, int64_t nk, int64_t d,    \
                                          A scale) {                                          \
        for (int64_t kk = 0; kk < nk; kk++, o++) {                                            \
            const A *kf = kb + kk * d;                                                        \
            int64_t r = 0;                                                                    \
            for (; r + 4 <= rep; r += 4) { /* four rows: independent sums side by side */     \
                const A *q0 = q + r * qst, *q1 = q0 + qst, *q2 = q1 + qst, *q3 = q2 + qst;    \
                V l0 = {0}, l1 = {0}, l2 = {0}, l3 = {0};                                     \
                A a0 = 0, a1 = 0, a2 = 0, a3 = 0;                                             \
                int64_t t = 0;                                                                \
                for (; t + ATT_LANES <= d; t += ATT_LANES) {                                  \
                    V x, y0, y1, y2, y3;                                                      \
                    memcpy(&x, kf + t, sizeof x), memcpy(&y0, q0 + t, sizeof x);              \
                    memcpy(&y1, q1 + t, sizeof x), memcpy(&y2, q2 + t, sizeof x);             \
                    memcpy(&y3, q3 + t, sizeof x);                                            \
                    l0 += y0 * x, l1 += y1 * x, l2 += y2 * x, l3 += y3 * x;                   \
                }                                                                             \
                for (; t < d; t++)                                                            \
                    a0 += q0[t] * kf[t], a1 += q1[t] * kf[t], a2 += q2[t] * kf[t],            \
                        a3 += q3[t] * kf[t];                                                  \
                for (int l = 0; l < ATT_LANES; l++)                                           \
                    a0 += l0[l], a1 += l1[l], a2 += l2[l], a3 += l3[l];                       \
                o[r * os] = a0 * scale, o[(r + 1) * os] = a1 * scale;                         \
                o[(r + 2) * os] = a2 * scale, o[(r + 3) * os] = a3 * scale;                   \
            }                                                                                 \
            for (; r < rep; r++) {                                                            \
                const A *pq = q + r * qst;                                                    \
                V lane = {0};                                                                 \
                A acc = 0;                                                                    \
                int64_t t = 0;                                                                \
                for (; t + ATT_LANES <= d; t += ATT_LANES) {                                  \
                    V x, y;                                                                   \
                    memcpy(&x, kf + t, sizeof x), memcpy(&y, pq + t, sizeof x);               \
                    lane += y * x;                                                            \
                }                                                                             \
                for (; t < d; t++) acc += pq[t] * kf[t];                                      \
                for (int l = 0; l < ATT_LANES; l++) acc += lane[l];                           \
                o[r * os] = acc * scale;                                                      \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
    OSC_AVX2_CLONES static void gaxpy_##S(A *acc, int64_t as, const A *wb, int64_t ws,        \
                                          int64_t rep, const A *vb, int64_t nv, int64_t dv) { \
        for (int64_t k4 = 0; k4 < nv; k4 += 4) {                                              \
            const A *w = wb + k4, *vf = vb + k4 * dv;                                         \
            const int nb = (int)(nv - k4 < 4 ? nv - k4 : 4);                                  \
            const A *restrict v0 = vf, *restrict v1 = vf + dv, *restrict v2 = vf + 2 * dv;    \
            const A *restrict v3 = vf + 3 * dv;                                               \
            for (int64_t r = 0; r < rep; r++) {                                               \
                const A *pw = w + r * ws;                                                     \
                A *restrict o = acc + r * as;                                                 \
                if (nb == 4 && pw[0] != 0 && pw[1] != 0 && pw[2] != 0 && pw[3] != 0) {        \
                    const A w0 = pw[0], w1 = pw[1], w2 = pw[2], w3 = pw[3];                   \
                    for (int64_t t = 0; t < dv; t++)                                          \
                        o[t] += w0 * v0[t] + w1 * v1[t] + w2 * v2[t] + w3 * v3[t];            \
                    continue;                                                                 \
                }                                                                             \
                for (int k = 0; k < nb; k++) {                                                \
                    const A wk = pw[k];                                                       \
                    const A *restrict vk = vf + k * dv;                                       \
                    if (wk != 0)                                                              \
                        for (int64_t t = 0; t < dv; t++) o[t] += wk * vk[t];                  \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    }
ATT_GROUP_FNS(float, f, att_vf)
ATT_GROUP_FNS(double, d, att_vd)

/* The group loop for compute type A (suffix S), EXP and TANH its functions. A unit u = (b * kvh
 * + g) * qs + i computes output rows (b, h, i) of the rep = qh / kvh q heads h sharing kv head
 * g: each key and value row is read and widened once for the group. */
#define ATT_ROWS(A, S, EXP, TANH)                                                             \
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
        const int64_t per = total + d + dv; /* one q head's score row, query and accumulator */ \
        A *kb = (A *)(void *)scr, *vb = kb + ATT_KEY_BLOCK * d, *g0 = vb + ATT_KEY_BLOCK * dv; \
        const bool r4 = s->rank == 4;                                                         \
        const int64_t kst = r4 ? d : s->kvh * d, vst = r4 ? dv : s->kvh * dv;                 \
        const A cap = (A)p->softcap, scale = (A)jb->scale;                                    \
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
            const int64_t n1 = min64(n_sc, s->past);                                          \
            for (int64_t j0 = 0; j0 < n_sc;) { /* keys in blocks within the past, the new */  \
                const bool in_past = j0 < n1;                                                 \
                const int64_t nb = min64(ATT_KEY_BLOCK, (in_past ? n1 : n_sc) - j0);          \
                const int64_t rs = in_past ? d : kst; /* elements from a row to the next */   \
                const char *k0 = in_past ? kp + (size_t)(j0 * d) * z1                         \
                                         : kn + (size_t)((j0 - n1) * kst) * z1;               \
                if (rs == d)                                                                  \
                    f->load[w](kb, k0, nb * d);                                               \
                else                                                                          \
                    for (int64_t kk = 0; kk < nb; kk++)                                       \
                        f->load[w](kb + kk * d, k0 + (size_t)(kk * rs) * z1, d);              \
                gdots_##S(g0 + j0, per, g0 + total, per, rep, kb, nb, d, scale);              \
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
                /* the largest score (NaN never wins, so lanes give the same m) and whether   \
                 * some key is not masked out; lane-wise so that the loop vectorises */       \
                A lm[ATT_LANES], m = -(A)INFINITY;                                            \
                int any = 0;                                                                  \
                for (int l = 0; l < ATT_LANES; l++) lm[l] = -(A)INFINITY;                     \
                int64_t j8 = 0;                                                               \
                for (; j8 + ATT_LANES <= end; j8 += ATT_LANES)                                \
                    for (int l = 0; l < ATT_LANES; l++) {                                     \
                        any |= sc[j8 + l] != -(A)INFINITY;                                    \
                        lm[l] = sc[j8 + l] > lm[l] ? sc[j8 + l] : lm[l];                      \
                    }                                                                         \
                for (int l = 0; l < ATT_LANES; l++) m = lm[l] > m ? lm[l] : m;                \
                for (; j8 < end; j8++) {                                                      \
                    any |= sc[j8] != -(A)INFINITY;                                            \
                    m = sc[j8] > m ? sc[j8] : m;                                              \
                }                                                                             \
                for (int64_t t = 0; t < dv; t++) acc[t] = 0;                                  \
                /* a fully masked row: zeros in Y and in the mode-3 output, not NaN */        \
                const int64_t n_w = any ? end : 0;                                            \
                A sum = 0;                                                                    \
                for (int64_t j = 0; j < n_w; j++) sum += sc[j] = EXP(sc[j] - m);              \
                for (int64_t j = 0; j < n_w; j++) sc[j] /= sum;                               \
                for (int64_t j = n_w; j < end; j++) sc[j] = 0; /* weights the values get */   \
                if (qk && p->mode == 3) {                                                     \
                    for (int64_t j = n_w; j < total; j++) sc[j] = 0;                          \
                    f->store[w](qk, sc, total);                                               \
                }                                                                             \
            }                                                                                 \
            /* values in blocks of 4 within the past, then within the new ones */             \
            const int64_t e1 = min64(end, s->past);                                           \
            for (int64_t j0 = 0; j0 < end;) {                                                 \
                const bool in_past = j0 < e1;                                                 \
                const int64_t nb = min64(ATT_KEY_BLOCK, (in_past ? e1 : end) - j0);           \
                const int64_t rs = in_past ? dv : vst;                                        \
                const char *v0 = in_past ? vp + (size_t)(j0 * dv) * z2                        \
                                         : vn + (size_t)((j0 - e1) * vst) * z2;               \
                if (rs == dv)                                                                 \
                    f2->load[w](vb, v0, nb * dv);                                             \
                else                                                                          \
                    for (int64_t kk = 0; kk < nb; kk++)                                       \
                        f2->load[w](vb + kk * dv, v0 + (size_t)(kk * rs) * z2, dv);           \
                gaxpy_##S(g0 + total + d, per, g0 + j0, per, rep, vb, nb, dv);                \
                j0 += nb;                                                                     \
            }                                                                                 \
            for (int64_t q = 0; q < rep; q++) {                                               \
                const int64_t h = g * rep + q, r = (b * s->qh + h) * s->qs + i;               \
                const int64_t yo = r4 ? r * dv : ((b * s->qs + i) * s->qh + h) * dv;          \
                f->store[w]((char *)jb->y + (size_t)yo * z1, g0 + q * per + total + d, dv);   \
            }                                                                                 \
        }                                                                                     \
    }
ATT_ROWS(float, f, expf, tanhf)
ATT_ROWS(double, d, exp, tanh)

void osc_att_rows(const att_job *j, int32_t part, int64_t lo, int64_t hi) {
    char *scr = j->scratch + (size_t)part * j->part_bytes;
    if (j->wide)
        rows_d(j, scr, lo, hi);
    else
        rows_f(j, scr, lo, hi);
}
