/* att_rows.c: Attention's rows. Per output row (batch, q head, query): the scores Q.K^T times
 * scale into a scratch row, softcap, the mask and the causal frontier, softmax, then the
 * weights times V into an accumulator; K and V are read once per row, only up to the last key
 * the row can see. Computed in float (double for double inputs or softmax_precision double),
 * float16/bfloat16 widened as read and rounded once as stored. */
#include <math.h>
#include <string.h>

#include "attention.h"
#include "ops/norm/norm_common.h"

/* The typed pieces, per element dtype E and compute type A (suffix S: f float, d double). */
typedef void (*att_load)(void *dst, const void *src, int64_t n);
typedef void (*att_store)(void *dst, const void *src, int64_t n);
/* s[j] = scale * (q . key j) for nk keys ks elements apart, each of d elements */
typedef void (*att_dots)(void *s, const void *q, const void *k, int64_t ks, int64_t nk,
                         int64_t d, double scale);
/* acc += w[j] * value j for the nk values vs elements apart whose weight is not 0 (a key the
 * softmax gave nothing is never read) */
typedef void (*att_axpy)(void *acc, const void *w, const void *v, int64_t vs, int64_t nk,
                         int64_t dv);
/* s[j] += mask element j * ms (bool: 0 or -inf) */
typedef void (*att_mask)(void *s, const void *m, int64_t ms, int64_t n);

#define ATT_LANES 8
#define ATT_FLOAT_FNS(E, T, CLS, A, S)                                                        \
    static void load_##S##_##E(void *dst, const void *src, int64_t n) {                       \
        const T *p = src;                                                                     \
        A *o = dst;                                                                           \
        for (int64_t j = 0; j < n; j++) o[j] = (A)OSC_NC_WIDEN_##CLS(p[j]);                   \
    }                                                                                         \
    static void store_##S##_##E(void *dst, const void *src, int64_t n) {                      \
        const A *p = src;                                                                     \
        T *o = dst;                                                                           \
        for (int64_t j = 0; j < n; j++) o[j] = OSC_NC_NARROW_##CLS(T, p[j]);                  \
    }                                                                                         \
    OSC_AVX2_CLONES static void dots_##S##_##E(void *s, const void *q, const void *k,         \
                                               int64_t ks, int64_t nk, int64_t d,             \
                                               double scale) {                                \
        const A *pq = q;                                                                      \
        const T *pk = k;                                                                      \
        A *o = s;                                                                             \
        for (int64_t j = 0; j < nk; j++, pk += ks) {                                          \
            A lane[ATT_LANES] = {0}, acc = 0;                                                 \
            int64_t t = 0;                                                                    \
            for (; t + ATT_LANES <= d; t += ATT_LANES)                                        \
                for (int l = 0; l < ATT_LANES; l++)                                           \
                    lane[l] += pq[t + l] * (A)OSC_NC_WIDEN_##CLS(pk[t + l]);                  \
            for (; t < d; t++) acc += pq[t] * (A)OSC_NC_WIDEN_##CLS(pk[t]);                   \
            for (int l = 0; l < ATT_LANES; l++) acc += lane[l];                               \
            o[j] = acc * (A)scale;                                                            \
        }                                                                                     \
    }                                                                                         \
    OSC_AVX2_CLONES static void axpy_##S##_##E(void *acc, const void *w, const void *v,       \
                                               int64_t vs, int64_t nk, int64_t dv) {          \
        const A *pw = w;                                                                      \
        A *o = acc;                                                                           \
        for (int64_t j = 0; j < nk;) {                                                        \
            /* the next 4 values of nonzero weight, added in one pass */                      \
            const T *pv[4];                                                                   \
            A wj[4];                                                                          \
            int n = 0;                                                                        \
            for (; j < nk && n < 4; j++)                                                      \
                if (pw[j] != 0) wj[n] = pw[j], pv[n++] = (const T *)v + j * vs;               \
            if (n < 4) /* the last few */                                                     \
                for (int q = 0; q < n; q++)                                                   \
                    for (int64_t t = 0; t < dv; t++)                                          \
                        o[t] += wj[q] * (A)OSC_NC_WIDEN_##CLS(pv[q][t]);                      \
            else                                                                              \
                for (int64_t t = 0; t < dv; t++)                                              \
                    o[t] += wj[0] * (A)OSC_NC_WIDEN_##CLS(pv[0][t]) +                         \
                            wj[1] * (A)OSC_NC_WIDEN_##CLS(pv[1][t]) +                         \
                            wj[2] * (A)OSC_NC_WIDEN_##CLS(pv[2][t]) +                         \
                            wj[3] * (A)OSC_NC_WIDEN_##CLS(pv[3][t]);                          \
        }                                                                                     \
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
    att_dots dots[2];
    att_axpy axpy[2];
} att_typed;
#define ATT_E_TYPED(E, T, CLS)                                                                \
    [E] = {ATT_PAIR(load, E), ATT_PAIR(store, E), ATT_PAIR(dots, E), ATT_PAIR(axpy, E)},
static const att_typed k_typed[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ATT_E_TYPED)};
#define ATT_E_MASK(E, T, CLS) [E] = ATT_PAIR(mask, E),
static const att_mask k_mask[OSC_DTYPE_COUNT][2] = {
    OSC_REAL_TYPES(ATT_E_MASK)[OSC_BOOL] = ATT_PAIR(mask, bool)};

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

size_t osc_att_part_bytes(const att_shape *s, bool wide) {
    /* the caller checked that this fits */
    const size_t n = (size_t)(s->total + s->d + s->dv) * (wide ? sizeof(double) : sizeof(float));
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

/* The row loop for compute type A (suffix S), EXP and TANH its functions. */
#define ATT_ROWS(A, S, EXP, TANH)                                                             \
    static void rows_##S(const att_job *jb, char *scr, int64_t lo, int64_t hi) {              \
        const att_shape *s = jb->s;                                                           \
        const att_params *p = jb->p;                                                          \
        const int w = jb->wide;                                                               \
        const att_typed *f = &k_typed[jb->t1];                                                \
        const size_t z1 = osc_dtype_get(jb->t1)->bits / 8;                                    \
        const size_t z2 = osc_dtype_get(jb->t2)->bits / 8;                                    \
        const size_t zm = s->mask_given ? osc_dtype_get(jb->tm)->bits / 8 : 0;                \
        A *sc = (A *)(void *)scr, *qv = sc + s->total, *acc = qv + s->d;                      \
        const int64_t rep = s->qh / s->kvh, d = s->d, dv = s->dv, total = s->total;           \
        const bool r4 = s->rank == 4;                                                         \
        const int64_t kst = r4 ? d : s->kvh * d, vst = r4 ? dv : s->kvh * dv;                 \
        const A cap = (A)p->softcap;                                                          \
        for (int64_t r = lo; r < hi; r++) {                                                   \
            const int64_t i = r % s->qs, h = r / s->qs % s->qh, b = r / s->qs / s->qh;        \
            const int64_t g = h / rep, bg = b * s->kvh + g;                                   \
            const int64_t qo = r4 ? r * d : ((b * s->qs + i) * s->qh + h) * d;                \
            const int64_t yo = r4 ? r * dv : ((b * s->qs + i) * s->qh + h) * dv;              \
            const int64_t po = bg * s->past;                                                  \
            const char *kp = s->past ? (const char *)jb->pk + (size_t)(po * d) * z1 : NULL;   \
            const char *vp = s->past ? (const char *)jb->pv + (size_t)(po * dv) * z2 : NULL;  \
            const int64_t kvo = r4 ? bg * s->kvs : b * s->kvs * s->kvh + g;                   \
            const char *kn = (const char *)jb->k + (size_t)(kvo * d) * z1;                    \
            const char *vn = (const char *)jb->v + (size_t)(kvo * dv) * z2;                   \
            char *qk = jb->qk ? (char *)jb->qk + (size_t)(r * total) * z1 : NULL;             \
            const int64_t end = visible_keys(jb, b, i);                                       \
            /* modes 0 and 1 show every key's score, masked or not */                         \
            const int64_t n_sc = qk && p->mode <= 1 ? total : end;                            \
            f->load[w](qv, (const char *)jb->q + (size_t)qo * z1, d);                         \
            int64_t n1 = min64(n_sc, s->past);                                                \
            f->dots[w](sc, qv, kp, d, n1, d, jb->scale);                                      \
            f->dots[w](sc + n1, qv, kn, kst, n_sc - n1, d, jb->scale);                        \
            if (qk && p->mode == 0) f->store[w](qk, sc, total);                               \
            if (cap > 0)                                                                      \
                for (int64_t j = 0; j < n_sc; j++) sc[j] = cap * TANH(sc[j] / cap);           \
            if (qk && p->mode == 1) f->store[w](qk, sc, total);                               \
            if (s->mask_given && end > 0) {                                                   \
                const int64_t mo = b * s->m_st[0] + h * s->m_st[1] + i * s->m_st[2];          \
                const char *mrow = (const char *)jb->mask + (size_t)mo * zm;                  \
                k_mask[jb->tm][w](sc, mrow, s->m_st[3], end);                                 \
            }                                                                                 \
            if (qk && p->mode == 2) {                                                         \
                for (int64_t j = end; j < total; j++) sc[j] = -(A)INFINITY;                   \
                f->store[w](qk, sc, total);                                                   \
            }                                                                                 \
            A m = -(A)INFINITY;                                                               \
            bool live = false; /* some key not masked out */                                  \
            for (int64_t j = 0; j < end; j++) {                                               \
                live = live || sc[j] != -(A)INFINITY;                                         \
                m = sc[j] > m ? sc[j] : m;                                                    \
            }                                                                                 \
            for (int64_t t = 0; t < dv; t++) acc[t] = 0;                                      \
            /* a fully masked row: zeros in Y and in the mode-3 output, not NaN */            \
            const int64_t n_w = live ? end : 0;                                               \
            A sum = 0;                                                                        \
            for (int64_t j = 0; j < n_w; j++) sum += sc[j] = EXP(sc[j] - m);                  \
            for (int64_t j = 0; j < n_w; j++) sc[j] /= sum;                                   \
            if (qk && p->mode == 3) {                                                         \
                for (int64_t j = n_w; j < total; j++) sc[j] = 0;                              \
                f->store[w](qk, sc, total);                                                   \
            }                                                                                 \
            n1 = min64(n_w, s->past);                                                         \
            k_typed[jb->t2].axpy[w](acc, sc, vp, dv, n1, dv);                                 \
            k_typed[jb->t2].axpy[w](acc, sc + n1, vn, vst, n_w - n1, dv);                     \
            f->store[w]((char *)jb->y + (size_t)yo * z1, acc, dv);                            \
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
