/* topk.c: TopK-1/10/11/24: the K largest (or smallest) elements along an axis and their
 * indices; two outputs. */
#include <string.h>

#include "core/dtype.h"
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_topk)

/* Attributes init parses. */
typedef struct topk_params {
    int64_t axis;   /* as written; normalised by infer */
    int64_t k;      /* the attribute before 10 */
    bool largest;   /* from 11 (true before) */
    bool sorted;    /* from 11; sorted = 0 leaves the order unspecified: sorted either way */
} topk_params;

osc_status osc_topk_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const v1[] = {"axis", "k", NULL};
    static const char *const v10[] = {"axis", NULL};
    static const char *const v11[] = {"axis", "largest", "sorted", NULL};
    int64_t ver = k->since_version, axis, kv;
    bool largest, sorted;
    osc_status st = osc_attr_known(k, node, ver >= 11 ? v11 : ver >= 10 ? v10 : v1);
    if (!st) st = osc_attr_int(k, node, "axis", -1, &axis);
    if (!st) st = osc_sh_attr_bool(k, node, "largest", true, &largest);
    if (!st) st = osc_sh_attr_bool(k, node, "sorted", true, &sorted);
    if (!st && ver < 10 && !osc_node_attr(node, "k"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'k' is required but missing");
    if (!st) st = osc_attr_int(k, node, "k", 0, &kv);
    topk_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->axis = axis;
    p->k = kv;
    p->largest = largest;
    p->sorted = sorted;
    *params = p;
    return OSC_OK;
}

/* Both outputs are X's shape with K along axis; K is the attribute before 10, input 1's value
 * from 10 (infer_reads bit 1). */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, int32_t *axis, int64_t *kk) {
    const topk_params *p = k->params;
    char buf[256];
    int64_t count, kv[1];
    int32_t n = 0;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "X", &count);
    if (st) return st;
    const osc_tensor *x = in[0];
    if ((st = osc_norm_axis(k, p->axis, x->rank, axis))) return st;
    const char *what = "attribute 'k'";
    if (k->since_version < 10) {
        kv[0] = p->k;
    } else {
        what = "input 1 'K'";
        st = osc_sh_need(k, in, n_in, 1, "K");
        if (!st) st = osc_check_index_dtype(k, 1, "K", in[1], false);
        if (!st && osc_tensor_count(in[1]) != 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'K' (%s) has shape %s; expected one "
                             "value", osc_kinput_name(k, 1), osc_shape_str(in[1], buf, sizeof buf));
        if (!st) st = osc_sh_read_ints(k, 1, "K", in[1], false, true, 1, kv, &n);
        if (st) return st;
    }
    /* K = 0 (empty outputs) is accepted, as onnxruntime does; the text says positive */
    if (kv[0] < 0 || kv[0] > x->dims[*axis])
        return osc_kfail(k, OSC_ERR_SHAPE, "%s = %lld is out of range [0, %lld] (the size of "
                         "axis %d of input 0 'X' (%s))", what, (long long)kv[0],
                         (long long)x->dims[*axis], (int)*axis, osc_kinput_name(k, 0));
    *kk = kv[0];
    osc_same_shape(&o[0], x);
    o[0].dims[*axis] = kv[0];
    osc_same_shape(&o[1], &o[0]);
    o[1].dtype = OSC_INT64;
    return OSC_OK;
}

osc_status osc_topk_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    int32_t axis;
    int64_t kk;
    if (n_out < 2) return osc_kfail(k, OSC_ERR_MODEL, "needs two outputs (Values, Indices)");
    return geometry(k, in, n_in, out, &axis, &kk);
}

/* The K preferred elements of a line (n elements at x[base + q * inner]), preferred first:
 * larger values when sign is 1, smaller when -1, NaN above every number and equal to NaN (as
 * numpy's sort orders them), -0.0 equal to +0.0, and of equal values the lower index first (a
 * stable sort's order). A heap of the kk best so far, its least preferred at the root: each
 * element enters only when preferred over the root, so a line takes O(n log kk); the heap is
 * then emptied from the back, least preferred last. best[] gets the element offsets. */
/* up to this K the kept elements are a sorted array (an insertion moves about K/2), beyond it
 * a heap */
#define TK_SMALL 32
/* a contiguous line of at least twice TK_GROUPS elements is first cut down to candidates by a
 * threshold from the best of each of TK_GROUPS groups (fill_; TK_GROUPS >= 2 TK_SMALL) */
#define TK_GROUPS 64
/* of loaded values v and m, the one kept by a running largest (sign 1) or smallest (-1): m when
 * they compare equal or either is NaN */
#define TK_PICK(sign, v, m) ((sign) > 0 ? ((v) > (m) ? (v) : (m)) : ((v) < (m) ? (v) : (m)))
/* the lowest set bit of a nonzero mask */
#if defined(__GNUC__) || defined(__clang__)
#define TK_CTZ(m) __builtin_ctz(m)
#else
static inline int TK_CTZ(unsigned m) {
    int l = 0;
    while (!(m >> l & 1u)) l++;
    return l;
}
#endif
#define TK_LD_FLOAT(v) (v)
#define TK_LD_F16(v) osc_f16_to_f32(v)
#define TK_LD_BF16(v) osc_bf16_to_f32(v)
#define TK_LD_SINT(v) (v)
#define TK_LD_UINT(v) (v)
#define TOPK_LINE(E, T, CLS)                                                                  \
    /* value a against value b, three-way, times sign (loaded values; NaN: integers never) */ \
    static inline int cmp_##E(int sign, __typeof__(TK_LD_##CLS((T)0)) va,                     \
                              __typeof__(TK_LD_##CLS((T)0)) vb) {                             \
        const int na = va != va, nb = vb != vb;                                               \
        return sign * (na | nb ? na - nb : (va > vb) - (va < vb));                            \
    }                                                                                         \
    /* element a preferred over element b (offsets: a lower offset is a lower index) */       \
    static inline bool better_##E(const T *x, int sign, int64_t a, int64_t b) {               \
        const int c = cmp_##E(sign, TK_LD_##CLS(x[a]), TK_LD_##CLS(x[b]));                    \
        return c > 0 || (c == 0 && a < b);                                                    \
    }                                                                                         \
    static void sift_##E(const T *x, int sign, int64_t *h, int64_t m, int64_t i) {            \
        for (;;) {                                                                            \
            int64_t w = i, l = 2 * i + 1;                                                     \
            if (l < m && better_##E(x, sign, h[w], h[l])) w = l;                              \
            if (l + 1 < m && better_##E(x, sign, h[w], h[l + 1])) w = l + 1;                  \
            if (w == i) return;                                                               \
            const int64_t t = h[i];                                                           \
            h[i] = h[w], h[w] = t, i = w;                                                     \
        }                                                                                     \
    }                                                                                         \
    /* off into the sorted best[0..i] from position i, after every entry preferred or equal */ \
    static inline void place_##E(const T *x, int sign, int64_t *best, int64_t i,             \
                                 int64_t off) {                                               \
        for (; i > 0 && better_##E(x, sign, off, best[i - 1]); i--) best[i] = best[i - 1];     \
        best[i] = off;                                                                        \
    }                                                                                         \
    /* element off enters when strictly preferred over the least preferred kept (best[w],    \
     * its value *worst), which it displaces; *worst becomes the new least preferred's */     \
    static inline void enter_##E(const T *x, int sign, int64_t *best, int64_t kk, int64_t w,  \
                                 int64_t off, __typeof__(TK_LD_##CLS((T)0)) *worst) {         \
        if (cmp_##E(sign, TK_LD_##CLS(x[off]), *worst) <= 0) return;                          \
        if (kk <= TK_SMALL) {                                                                 \
            place_##E(x, sign, best, kk - 1, off);                                            \
        } else {                                                                              \
            best[0] = off;                                                                    \
            sift_##E(x, sign, best, kk, 0);                                                   \
        }                                                                                     \
        *worst = TK_LD_##CLS(x[best[w]]);                                                     \
    }                                                                                         \
    /* *t for fill_: the kk-th most preferred of one number from each of the TK_GROUPS      \
     * groups of the n >= TK_GROUPS elements at x (group g: the elements at g modulo          \
     * TK_GROUPS); false when fewer than kk groups give one. A group gives its largest        \
     * (smallest when sign is -1) by plain compares, a NaN passed over where a compare meets  \
     * it (a group's number less preferred than its best only makes more candidates); the    \
     * kk-th is the most preferred with kk or more numbers preferred or equal (counted, no    \
     * branch; a NaN compares false: never counted, never taken). */                          \
    static bool threshold_##E(const T *x, int64_t n, int64_t kk, int sign,                    \
                              __typeof__(TK_LD_##CLS((T)0)) *t) {                             \
        typedef __typeof__(TK_LD_##CLS((T)0)) A;                                              \
        A m[TK_GROUPS];                                                                       \
        for (int g = 0; g < TK_GROUPS; g++) m[g] = TK_LD_##CLS(x[g]);                         \
        int64_t q = TK_GROUPS;                                                                \
        for (; q + TK_GROUPS <= n; q += TK_GROUPS)                                            \
            if (sign > 0)                                                                     \
                for (int g = 0; g < TK_GROUPS; g++)                                           \
                    m[g] = TK_PICK(1, TK_LD_##CLS(x[q + g]), m[g]);                           \
            else                                                                              \
                for (int g = 0; g < TK_GROUPS; g++)                                           \
                    m[g] = TK_PICK(-1, TK_LD_##CLS(x[q + g]), m[g]);                          \
        for (int g = 0; q + g < n; g++) m[g] = TK_PICK(sign, TK_LD_##CLS(x[q + g]), m[g]);     \
        bool found = false;                                                                   \
        for (int g = 0; g < TK_GROUPS; g++) {                                                 \
            int c = 0;                                                                        \
            if (sign > 0)                                                                     \
                for (int h = 0; h < TK_GROUPS; h++) c += m[h] >= m[g];                        \
            else                                                                              \
                for (int h = 0; h < TK_GROUPS; h++) c += m[h] <= m[g];                        \
            if (c >= kk && (!found || TK_PICK(sign, m[g], *t) != *t)) *t = m[g], found = true; \
        }                                                                                     \
        return found;                                                                         \
    }                                                                                         \
    /* A long contiguous line (n >= 2 TK_GROUPS, 0 < kk <= TK_SMALL): best[] gets its first  \
     * kk candidates in order of preference, a candidate being an element not less preferred \
     * than threshold_'s t: at least kk elements (the groups' numbers it counted) are not    \
     * less preferred than t, so no other element can be among the line's kk preferred, and  \
     * the selection among the candidates is the line's. For values in random order, 1,024   \
     * of them and kk = 20, about 25 are candidates (the line's plain fill when threshold_    \
     * finds no t). Returns the offset past the kk-th candidate (the test against t keeps    \
     * NaN, and values equal to t). */                                                        \
    static int64_t fill_##E(const T *x, int64_t base, int64_t n, int64_t kk, int sign,        \
                            int64_t *best) {                                                  \
        const T *p = x + base;                                                                \
        __typeof__(TK_LD_##CLS((T)0)) t = 0;                                                  \
        int64_t got = 0, q = 0;                                                               \
        if (!threshold_##E(p, n, kk, sign, &t)) {                                             \
            for (; q < kk; q++) place_##E(x, sign, best, q, base + q);                        \
            return kk;                                                                        \
        }                                                                                     \
        for (; q + 8 <= n; q += 8) {                                                          \
            unsigned c = 0;                                                                   \
            if (sign > 0)                                                                     \
                for (int l = 0; l < 8; l++) c |= (unsigned)!(TK_LD_##CLS(p[q + l]) < t) << l; \
            else                                                                              \
                for (int l = 0; l < 8; l++) c |= (unsigned)!(TK_LD_##CLS(p[q + l]) > t) << l; \
            for (; c; c &= c - 1) {                                                           \
                place_##E(x, sign, best, got++, base + q + TK_CTZ(c));                        \
                if (got == kk) return q + TK_CTZ(c) + 1;                                      \
            }                                                                                 \
        }                                                                                     \
        for (; got < kk && q < n; q++)                                                        \
            if (sign > 0 ? !(TK_LD_##CLS(p[q]) < t) : !(TK_LD_##CLS(p[q]) > t))               \
                place_##E(x, sign, best, got++, base + q);                                    \
        return q;                                                                             \
    }                                                                                         \
    static void line_##E(const void *xv, int64_t base, int64_t inner, int64_t n, int64_t kk,  \
                         int sign, int64_t *best) {                                           \
        const T *x = xv;                                                                      \
        const bool small = kk <= TK_SMALL; /* small: best sorted; else a heap */              \
        int64_t q = kk;                                                                       \
        if (small && inner == 1 && kk > 0 && n >= 2 * TK_GROUPS)                              \
            q = fill_##E(x, base, n, kk, sign, best);                                         \
        else                                                                                  \
            for (int64_t i = 0; i < kk; i++)                                                  \
                if (small)                                                                    \
                    place_##E(x, sign, best, i, base + i * inner);                            \
                else                                                                          \
                    best[i] = base + i * inner;                                               \
        for (int64_t i = small ? 0 : kk / 2; i-- > 0;) sift_##E(x, sign, best, kk, i);        \
        /* a later element enters only when its value is strictly preferred over the least   \
         * preferred kept (the last, or the root) */                                          \
        const int64_t w = small ? kk - 1 : 0;                                                 \
        __typeof__(TK_LD_##CLS((T)0)) worst = TK_LD_##CLS(x[best[w]]);                        \
        /* 8 contiguous elements at a time: a mask of those that may enter (not preferred or \
         * equal to the least preferred kept: a NaN may), each then tested exactly, in order */ \
        for (; inner == 1 && q + 8 <= n; q += 8) {                                            \
            const T *p = x + base + q;                                                        \
            unsigned may = 0;                                                                 \
            if (sign > 0)                                                                     \
                for (int l = 0; l < 8; l++) may |= (unsigned)!(TK_LD_##CLS(p[l]) <= worst) << l; \
            else                                                                              \
                for (int l = 0; l < 8; l++) may |= (unsigned)!(TK_LD_##CLS(p[l]) >= worst) << l; \
            for (; may; may &= may - 1)                                                       \
                enter_##E(x, sign, best, kk, w, base + q + TK_CTZ(may), &worst);              \
        }                                                                                     \
        for (; q < n; q++) enter_##E(x, sign, best, kk, w, base + q * inner, &worst);         \
        for (int64_t m = small ? 1 : kk; m > 1; m--) { /* the heap's least preferred last */  \
            const int64_t t = best[0];                                                        \
            best[0] = best[m - 1], best[m - 1] = t;                                           \
            sift_##E(x, sign, best, m - 1, 0);                                                \
        }                                                                                     \
    }
OSC_REAL_TYPES(TOPK_LINE)

typedef void (*line_fn)(const void *x, int64_t base, int64_t inner, int64_t n, int64_t kk,
                        int sign, int64_t *best);
/* NULL for a dtype without a comparison (geometry admits none). */
static line_fn line_for(int32_t dtype) {
#define LINE_CASE(E, T, CLS)                                                                  \
    case E: return line_##E;
    switch (dtype) {
        OSC_REAL_TYPES(LINE_CASE)
    default: return NULL;
    }
#undef LINE_CASE
}

/* The lines (outer x inner of them) split among the session's threads, each with its own
 * kk offsets of scratch; every line is computed the same way whatever the split. */
typedef struct topk_job {
    const void *x;
    char *vals;
    int64_t *idx, *scratch;
    line_fn line;
    int64_t n, inner, kk, lines;
    int sign;
    size_t esize;
} topk_job;

static void topk_part(void *ctx, int32_t part, int32_t parts) {
    const topk_job *j = ctx;
    int64_t l0, l1, *v = j->scratch + (size_t)part * (size_t)j->kk;
    osc_par_range(j->lines, 1, part, parts, &l0, &l1);
    for (int64_t l = l0; l < l1; l++) {
        const int64_t o = l / j->inner, i = l % j->inner, base = o * j->n * j->inner + i;
        j->line(j->x, base, j->inner, j->n, j->kk, j->sign, v);
        for (int64_t q = 0; q < j->kk; q++) {
            const int64_t dst = (o * j->kk + q) * j->inner + i;
            memcpy(j->vals + (size_t)dst * j->esize,
                   (const char *)j->x + (size_t)v[q] * j->esize, j->esize);
            j->idx[dst] = (v[q] - base) / j->inner;
        }
    }
}

osc_status osc_topk_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                        osc_tensor *out, int32_t n_out) {
    osc_tensor want[2];
    int32_t axis;
    int64_t kk = 0;
    if (n_out < 2) return osc_kfail(k, OSC_ERR_MODEL, "needs two outputs (Values, Indices)");
    osc_status st = geometry(k, in, n_in, want, &axis, &kk);
    if (!st) st = osc_sh_check_out(k, 0, &out[0], &want[0]);
    if (!st) st = osc_sh_check_out(k, 1, &out[1], &want[1]);
    if (!st) st = osc_sh_check_inputs(k, in, n_in);
    if (st || osc_tensor_count(&want[0]) == 0) return st;
    /* non-empty outputs: X is non-empty, so these products are factors of its count */
    const osc_tensor *x = in[0];
    const int64_t outer = osc_dims_prod(x->dims, axis), n = x->dims[axis];
    const int64_t inner = osc_dims_prod(x->dims + axis + 1, x->rank - axis - 1);
    const line_fn line = line_for(x->dtype);
    if (!line) /* geometry admitted only real number types */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'X' has dtype %s",
                         osc_dtype_get(x->dtype)->name);
    const bool par = k->tpool && x->nbytes >= OSC_PAR_MIN_BYTES && outer * inner > 1;
    const int32_t parts = par ? osc_tpool_size(k->tpool) : 1;
    topk_job j = {.x = x->data, .vals = out[0].data, .idx = out[1].data, .line = line,
                  .n = n, .inner = inner, .kk = kk, .lines = outer * inner,
                  .sign = ((const topk_params *)k->params)->largest ? 1 : -1,
                  .esize = osc_sh_bits(x->dtype) / 8};
    const size_t bytes = (size_t)kk * (size_t)parts * sizeof(int64_t);
    j.scratch = k->alloc ? osc_malloc(k->alloc, bytes) : NULL;
    if (!j.scratch)
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes of selection scratch",
                         bytes);
    osc_tpool_run(par ? k->tpool : NULL, topk_part, &j);
    osc_free(k->alloc, j.scratch, bytes);
    return OSC_OK;
}
