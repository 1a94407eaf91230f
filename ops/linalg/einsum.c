/* einsum.c: Einsum-12 for one or two operands. One operand: a strided walk that sums the labels
 * the output drops (diagonals through summed strides). Two: each operand is gathered into a
 * [batch, M, K] / [batch, K, N] block (summing the labels only it has), the blocks multiply as
 * batched matrices (the blocked kernel of gemm_kernel.c when the matrices are big enough, else
 * a plain loop), and the [batch, M, N] result is permuted into the output's label order.
 * float16/bfloat16 are computed in float and rounded once per output element; double in
 * double; integers in their own type, wrapping modulo 2^bits. */
#include <string.h>

#include "einsum.h"
#include "gemm_kernel.h"

OSC_KERNEL_DECLARE(osc_einsum)

osc_status osc_einsum_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"equation", NULL};
    const char *s;
    osc_status st = osc_attr_known(k, node, known);
    if (!st && !osc_node_attr(node, "equation"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'equation' is required but missing");
    if (!st) st = osc_attr_str(k, node, "equation", "", &s);
    es_eq *eq = st ? NULL : osc_kparams(k, sizeof *eq);
    if (!eq) return k->err->status;
    if ((st = osc_es_parse(k, s, eq))) return st;
    *params = eq;
    return OSC_OK;
}

osc_status osc_einsum_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, int32_t n_out) {
    es_plan p;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    return osc_es_plan(k, k->params, in, n_in, &p, &out[0]);
}

/* ---- typed loops, from the dtype class lists ---- */

/* A walk over a source: kept dims (written contiguously, in order) and, for each of them, the
 * sum over the summed dims; sizes and element strides. */
typedef struct es_walk {
    int32_t nk, ns;
    int64_t kd[OSC_MAX_RANK], ks[OSC_MAX_RANK], sd[OSC_MAX_RANK], ss[OSC_MAX_RANK];
} es_walk;

#define ES_CT_FLOAT(T) T
#define ES_CT_F16(T) float
#define ES_CT_BF16(T) float
#define ES_CT_SINT(T) T
#define ES_CT_UINT(T) T
#define ES_LD_FLOAT(x) (x)
#define ES_LD_F16(x) osc_f16_to_f32(x)
#define ES_LD_BF16(x) osc_bf16_to_f32(x)
#define ES_LD_SINT(x) (x)
#define ES_LD_UINT(x) (x)
/* integers wrap modulo 2^bits: computed in uint64_t, converted back */
#define ES_ADD_FLOAT(T, a, b) ((a) + (b))
#define ES_ADD_F16(T, a, b) ((a) + (b))
#define ES_ADD_BF16(T, a, b) ((a) + (b))
#define ES_ADD_SINT(T, a, b) ((T)((uint64_t)(a) + (uint64_t)(b)))
#define ES_ADD_UINT(T, a, b) ((T)((uint64_t)(a) + (uint64_t)(b)))
#define ES_MUL_FLOAT(T, a, b) ((a) * (b))
#define ES_MUL_SINT(T, a, b) ((T)((uint64_t)(a) * (uint64_t)(b)))
#define ES_MUL_UINT(T, a, b) ((T)((uint64_t)(a) * (uint64_t)(b)))

/* Advances the odometer idx over dims (n of them, the last fastest), moving *off by the strides;
 * false when it wraps around. */
static inline bool es_next(int32_t n, const int64_t *dims, const int64_t *stride, int64_t *idx,
                           int64_t *off) {
    for (int32_t d = n - 1; d >= 0; d--) {
        *off += stride[d];
        if (++idx[d] < dims[d]) return true;
        *off -= stride[d] * dims[d];
        idx[d] = 0;
    }
    return false;
}

/* dst[i] = sum over the summed dims of src at kept index i (converted to the compute type).
 * The caller guarantees at least one kept dim (a size-1 one stands in for none) holding at
 * least one element; an empty summed dim gives 0 without reading. The innermost kept and
 * summed dims run as plain strided loops. */
#define ES_GATHER(E, T, CLS)                                                                   \
    static void es_gather_##E(const void *src_, void *dst_, const es_walk *w) {                \
        const T *src = src_;                                                                   \
        ES_CT_##CLS(T) *dst = dst_;                                                            \
        int64_t ki[OSC_MAX_RANK] = {0}, si[OSC_MAX_RANK] = {0}, off = 0, o = 0;                \
        const int64_t n_in = w->kd[w->nk - 1], s_in = w->ks[w->nk - 1];                        \
        const int32_t ns = w->ns;                                                              \
        const int64_t n_sum = ns ? w->sd[ns - 1] : 0, s_sum = ns ? w->ss[ns - 1] : 0;          \
        bool empty = false;                                                                    \
        for (int32_t d = 0; d < ns; d++) empty = empty || w->sd[d] == 0;                       \
        do {                                                                                   \
            for (int64_t j = 0; j < n_in; j++) {                                               \
                ES_CT_##CLS(T) acc = 0;                                                        \
                int64_t soff = off + j * s_in;                                                 \
                if (ns == 0) {                                                                 \
                    acc = ES_LD_##CLS(src[soff]);                                              \
                } else if (!empty) {                                                           \
                    do                                                                         \
                        for (int64_t q = 0; q < n_sum; q++)                                    \
                            acc = ES_ADD_##CLS(T, acc, ES_LD_##CLS(src[soff + q * s_sum]));    \
                    while (es_next(ns - 1, w->sd, w->ss, si, &soff));                          \
                }                                                                              \
                dst[o++] = acc;                                                                \
            }                                                                                  \
        } while (es_next(w->nk - 1, w->kd, w->ks, ki, &off));                                  \
    }
OSC_REAL_TYPES(ES_GATHER)
#undef ES_GATHER

static void es_gather(int32_t dtype, const void *src, void *dst, const es_walk *w) {
#define CASE(E, T, CLS) \
    case E: es_gather_##E(src, dst, w); return;
    switch (dtype) {
        OSC_REAL_TYPES(CASE)
        default: return; /* the row's types are all above */
    }
#undef CASE
}

/* y[b] = a[b] (m x kk) * b[b] (kk x n) for nb matrices, row by row: for each (i, j) the
 * products are added in increasing p. For matrices too small for the blocked kernel. */
#define ES_MM(E, T, CLS)                                                                       \
    static void es_mm_##E(const void *a_, const void *b_, void *y_, int64_t nb, int64_t m,     \
                          int64_t n, int64_t kk) {                                             \
        const T *a = a_, *b = b_;                                                              \
        T *y = y_;                                                                             \
        for (int64_t q = 0; q < nb; q++, a += m * kk, b += kk * n)                             \
            for (int64_t i = 0; i < m; i++, y += n) {                                          \
                for (int64_t j = 0; j < n; j++) y[j] = 0;                                      \
                for (int64_t p = 0; p < kk; p++) {                                             \
                    const T av = a[i * kk + p], *br = b + p * n;                               \
                    for (int64_t j = 0; j < n; j++)                                            \
                        y[j] = ES_ADD_##CLS(T, y[j], ES_MUL_##CLS(T, av, br[j]));              \
                }                                                                              \
            }                                                                                  \
    }
OSC_IEEE_TYPES(ES_MM)
OSC_INT_TYPES(ES_MM)
#undef ES_MM

static void es_mm(int32_t ct, const void *a, const void *b, void *y, int64_t nb, int64_t m,
                  int64_t n, int64_t kk) {
#define CASE(E, T, CLS) \
    case E: es_mm_##E(a, b, y, nb, m, n, kk); return;
    switch (ct) {
        OSC_IEEE_TYPES(CASE)
        OSC_INT_TYPES(CASE)
        default: return; /* compute dtypes are all above */
    }
#undef CASE
}

/* ---- run ---- */

/* Appends label c of operand i to the walk's kept (or summed) dims. */
static void walk_add(es_walk *w, const es_plan *p, int32_t i, int32_t c, bool summed) {
    if (summed) {
        w->sd[w->ns] = p->size[c];
        w->ss[w->ns++] = p->stride[i][c];
    } else {
        w->kd[w->nk] = p->size[c];
        w->ks[w->nk++] = p->stride[i][c];
    }
}

static osc_status run_one(osc_kctx *k, const es_plan *p, const osc_tensor *x, osc_tensor *out,
                          int32_t ct, int64_t count) {
    es_walk w = {0};
    for (int32_t j = 0; j < p->n_out; j++) walk_add(&w, p, 0, p->out[j], false);
    for (int32_t j = 0; j < p->n_first[0]; j++)
        if (!(p->where[p->first[0][j]] & ES_IN_OUT)) walk_add(&w, p, 0, p->first[0][j], true);
    if (w.nk == 0) w.kd[w.nk++] = 1; /* a scalar output: one kept element */
    if (ct == out->dtype) {
        es_gather(x->dtype, x->data, out->data, &w);
        return OSC_OK;
    }
    osc_gemm_mem mem;
    osc_status st = osc_gemm_mem_get(k, 0, count, "the output's float sums", &mem);
    if (st) return st;
    es_gather(x->dtype, x->data, mem.f, &w);
    osc_gemm_narrow(out->dtype, mem.f, out->data, count);
    osc_gemm_mem_put(k, &mem);
    return OSC_OK;
}

/* True when the walk sums nothing and reads its kept dims row-major and contiguously: the
 * source is then the block itself. */
static bool dense(const es_walk *w) {
    int64_t s = 1;
    if (w->ns) return false;
    for (int32_t d = w->nk - 1; d >= 0; d--) {
        if (w->kd[d] != 1 && w->ks[d] != s) return false;
        s *= w->kd[d]; /* dims of a non-empty block: the product fits */
    }
    return true;
}

/* Rounds a byte count up to 8 (every compute element's alignment); false on overflow. */
static bool bytes8(int32_t ct, int64_t count, size_t *out) {
    if (!osc_dtype_bytes(ct, count, out) || *out > SIZE_MAX - 8) return false;
    *out = (*out + 7) / 8 * 8;
    return true;
}

static osc_status run_two(osc_kctx *k, const es_eq *eq, const es_plan *p,
                          const osc_tensor *const *in, osc_tensor *out, int32_t ct,
                          int64_t count) {
    /* The labels by role: batch (both operands and the output), M (operand 0 and the
     * output), N (operand 1 and the output), in output order; K (both operands, summed) in
     * operand 0's order. Y's layout is [batch, M, N]. */
    int32_t lab[4][OSC_MAX_RANK], cnt[4] = {0}, lay[OSC_MAX_RANK], n_lay = 0;
    int64_t prod[4] = {1, 1, 1, 1};
    enum { BATCH, M, N, K };
    bool ok = true;
    for (int32_t role = BATCH; role <= N; role++)
        for (int32_t j = 0; j < p->n_out; j++) {
            const int32_t c = p->out[j], w = p->where[c] & 3;
            if ((w == 3 ? BATCH : w == 1 ? M : N) == role)
                lay[n_lay++] = lab[role][cnt[role]++] = c;
        }
    for (int32_t j = 0; j < p->n_first[0]; j++) {
        const int32_t c = p->first[0][j];
        if ((p->where[c] & (ES_IN_OUT | 2)) == 2) lab[K][cnt[K]++] = c;
    }
    for (int32_t role = BATCH; role <= K; role++)
        for (int32_t j = 0; j < cnt[role]; j++)
            ok = ok && osc_mul_ok(prod[role], p->size[lab[role][j]], &prod[role]);
    const int64_t nb = prod[BATCH], m = prod[M], n = prod[N], kk = prod[K];
    /* A walks [batch, M, K] summing the labels only it has; B [batch, K, N] likewise */
    es_walk wa = {0}, wb = {0};
    static const int32_t roles_a[3] = {BATCH, M, K}, roles_b[3] = {BATCH, K, N};
    for (int32_t r = 0; r < 3; r++) {
        const int32_t ra = roles_a[r], rb = roles_b[r];
        for (int32_t j = 0; j < cnt[ra]; j++) walk_add(&wa, p, 0, lab[ra][j], false);
        for (int32_t j = 0; j < cnt[rb]; j++) walk_add(&wb, p, 1, lab[rb][j], false);
    }
    for (int32_t i = 0; i < 2; i++)
        for (int32_t j = 0; j < p->n_first[i]; j++) {
            const int32_t c = p->first[i][j];
            if ((p->where[c] & (ES_IN_OUT | 3)) == (1u << i))
                walk_add(i ? &wb : &wa, p, i, c, true);
        }
    int64_t na = 0, nbb = 0;
    ok = ok && osc_mul_ok(nb, m, &na) && osc_mul_ok(na, kk, &na) && osc_mul_ok(nb, kk, &nbb) &&
         osc_mul_ok(nbb, n, &nbb);
    /* the layout's strides; identity when the output's labels are in layout order */
    int64_t lstride[ES_LABELS], ystride[OSC_MAX_RANK], s = 1;
    bool identity = true;
    for (int32_t j = n_lay - 1; j >= 0; j--) {
        lstride[lay[j]] = s;
        s *= p->size[lay[j]]; /* a factor of count, which fits */
    }
    for (int32_t j = 0; j < p->n_out; j++) {
        ystride[j] = lstride[p->out[j]];
        identity = identity && lay[j] == p->out[j];
    }
    const bool half = ct != out->dtype, direct = !half && identity;
    const bool big = m >= 8 && n >= 8 && kk >= 8;
    if (wa.nk == 0) wa.kd[wa.nk++] = 1;
    if (wb.nk == 0) wb.kd[wb.nk++] = 1;
    /* an operand already laid out as its block (attention's Q: [batch, M, K]) is used as is */
    const bool a_as_is = !half && dense(&wa), b_as_is = !half && dense(&wb);
    size_t ba = 0, bb = 0, by = 0, bt = 0;
    ok = ok && (a_as_is || bytes8(ct, na, &ba)) && (b_as_is || bytes8(ct, nbb, &bb)) &&
         (direct || bytes8(ct, count, &by)) &&
         (!half || identity || bytes8(OSC_FLOAT, count, &bt));
    const size_t cap = SIZE_MAX / 4 - 1; /* the float count below stays an int64_t */
    ok = ok && ba <= cap && bb <= cap - ba && by <= cap - ba - bb && bt <= cap - ba - bb - by;
    if (!ok)
        return osc_kfail(k, OSC_ERR_LIMIT, "equation '%s': the gathered operands ([%lld x %lld "
                         "x %lld] and [%lld x %lld x %lld] blocks) exceed the address space",
                         eq->text, (long long)nb, (long long)m, (long long)kk, (long long)nb,
                         (long long)kk, (long long)n);
    const size_t total = ba + bb + by + bt;
    osc_gemm_mem mem;
    const size_t pack = big ? osc_gemm_pack_bytes(ct, n, kk) : 0;
    /* at least one float, so that the block's base is never NULL (an empty contraction) */
    osc_status st = osc_gemm_mem_get(k, pack, (int64_t)((total + 3) / 4) + 1,
                                     "the einsum blocks", &mem);
    if (st) return st;
    /* From here on nothing fails: the output is written. */
    char *base = (char *)mem.f;
    void *a = base, *b = base + ba, *y = direct ? out->data : base + ba + bb;
    float *tmp = (float *)(base + ba + bb + by);
    const void *av = a_as_is ? in[0]->data : a, *bv = b_as_is ? in[1]->data : b;
    if (na && !a_as_is) es_gather(in[0]->dtype, in[0]->data, a, &wa);
    if (nbb && !b_as_is) es_gather(in[1]->dtype, in[1]->data, b, &wb);
    const size_t esz = osc_dtype_get(ct)->bits / 8;
    if (big) {
        osc_gemm_fn fn = osc_gemm_get(ct);
        for (int64_t q = 0; q < nb; q++) {
            osc_gemm_args ga = {.m = m, .n = n, .k = kk, .ars = kk, .acs = 1, .brs = n, .bcs = 1,
                                .ldy = n};
            ga.a = (const char *)av + (size_t)(q * m * kk) * esz;
            ga.b = (const char *)bv + (size_t)(q * kk * n) * esz;
            ga.y = (char *)y + (size_t)(q * m * n) * esz;
            fn(&ga, mem.p);
        }
    } else {
        es_mm(ct, av, bv, y, nb, m, n, kk);
    }
    if (!direct) {
        const int64_t *dims = out->dims;
        if (!half) {
            osc_sh_copy_strided(out->data, y, osc_sh_bits(ct), out->rank, dims, ystride, 0);
        } else if (identity) {
            osc_gemm_narrow(out->dtype, y, out->data, count);
        } else {
            osc_sh_copy_strided(tmp, y, 32, out->rank, dims, ystride, 0);
            osc_gemm_narrow(out->dtype, tmp, out->data, count);
        }
    }
    osc_gemm_mem_put(k, &mem);
    return OSC_OK;
}

osc_status osc_einsum_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    const es_eq *eq = k->params;
    es_plan p;
    osc_tensor want;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = osc_es_plan(k, eq, in, n_in, &p, &want);
    if (!st) st = osc_sh_check_out(k, 0, &out[0], &want);
    if (!st) st = osc_sh_check_inputs(k, in, n_in);
    const int64_t count = st ? 0 : osc_tensor_count(&want);
    if (count == 0) return st;
    const int32_t ct = osc_gemm_compute_dtype(want.dtype);
    if (ct < 0)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'Inputs' (%s) has dtype %s, which "
                         "this kernel does not compute in", osc_kinput_name(k, 0),
                         osc_dtype_get(want.dtype)->name);
    return eq->n_ops == 1 ? run_one(k, &p, in[0], &out[0], ct, count)
                          : run_two(k, eq, &p, in, &out[0], ct, count);
}
