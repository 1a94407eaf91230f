/* fused_bag.c: SegmentReduce (fused.h; rule embedding_bag): the Loop torch's exporter writes for
 * nn.EmbeddingBag(mode = sum, mean or max) with offsets, as one kernel. For each bag, the rows
 * of weight that its slice of indices names are reduced along axis 0 in the Loop's order (the
 * slice's order), with the accumulator type, terms and finish of the Reduce* kernel
 * (ops/reduce/reduce_rules.h; a one-row bag is that row's bits, as the kernel's copy), so the
 * bits are the Loop's. Every bag's slice and every index it reads are checked before the first
 * write; threads split the bags (each output row is one bag's, computed whole by one thread). */
#include <string.h>

#include "core/dtype.h"
#include "core/kattr.h"
#include "fused.h"
#include "ops/reduce/reduce_ops.h"
#include "ops/reduce/reduce_rules.h"

enum { IN_TRIPS, IN_STARTS, IN_ENDS, IN_INDICES, IN_WEIGHT, IN_N };
#define SEG_CHUNK 64 /* output elements one pass over a bag's rows accumulates */

/* What the inputs give: the iterations (trips clamped at 0), the indices' count, weight's rows
 * and the elements of one. */
typedef struct seg_geo {
    int64_t bags, n, rows, row;
} seg_geo;

/* Bag b's slice [*lo, *hi) of n indices: Slice's clamping, step 1 (ops/shape/slice.c). */
static void bag_range(const osc_tensor *const *in, int64_t n, int64_t b, int64_t *lo,
                      int64_t *hi) {
    int64_t s = ((const int64_t *)in[IN_STARTS]->data)[b];
    int64_t e = ((const int64_t *)in[IN_ENDS]->data)[b];
    if (s < 0) s += n; /* cannot overflow: n >= 0 */
    if (e < 0) e += n;
    s = s < 0 ? 0 : s > n ? n : s;
    e = e < 0 ? 0 : e > n ? n : e;
    *lo = s;
    *hi = e > s ? e : s;
}

static osc_status check(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, seg_geo *g) {
    static const char *const names[IN_N] = {"trips", "starts", "ends", "indices", "weight"};
    char a[256];
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < IN_N && !st; i++) st = osc_need_input(k, in, n_in, i, names[i]);
    if (!st) st = osc_check_index_dtype(k, IN_INDICES, "indices", in[IN_INDICES], true);
    if (st) return st;
    const osc_tensor *t = in[IN_TRIPS], *w = in[IN_WEIGHT];
    if (t->dtype != OSC_INT64 || osc_tensor_count(t) != 1 || !t->data)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 (M, the trip count) must hold one int64 "
                         "element; it has dtype %s and %lld elements",
                         osc_dtype_get(t->dtype)->name, (long long)osc_tensor_count(t));
    for (int32_t i = IN_STARTS; i <= IN_INDICES; i++)
        if (in[i]->rank != 1 || (i != IN_INDICES && in[i]->dtype != OSC_INT64))
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) is %s of shape %s; the "
                             "fusion was made for a vector%s", (int)i, names[i],
                             osc_kinput_name(k, i), osc_dtype_get(in[i]->dtype)->name,
                             osc_shape_str(in[i], a, sizeof a),
                             i != IN_INDICES ? " of int64" : "");
    if (w->rank < 1 || w->rank > OSC_FUSED_MAX_RANK)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 4 'weight' (%s) has rank %d; expected 1 to %d",
                         osc_kinput_name(k, IN_WEIGHT), (int)w->rank, OSC_FUSED_MAX_RANK);
    const int64_t trips = *(const int64_t *)t->data;
    g->bags = trips > 0 ? trips : 0;
    g->n = in[IN_INDICES]->dims[0];
    g->rows = w->dims[0];
    g->row = 1;
    for (int32_t d = 1; d < w->rank; d++)
        if (!osc_mul_ok(g->row, w->dims[d], &g->row))
            return osc_kfail(k, OSC_ERR_SHAPE, "input 4 'weight' (%s) has shape %s: too many "
                             "elements per row", osc_kinput_name(k, IN_WEIGHT),
                             osc_shape_str(w, a, sizeof a));
    if (g->bags > k->max_iterations)
        return osc_kfail(k, OSC_ERR_LIMIT, "stopped after %lld iterations, the most one loop may "
                         "run (opts.max_iterations)", (long long)k->max_iterations);
    return OSC_OK;
}

/* The first position in [lo, hi) of x whose value is no row of `rows` ([-rows, rows - 1]), or
 * -1. */
static int64_t first_bad(const osc_tensor *x, int64_t lo, int64_t hi, int64_t rows) {
#define SEG_SCAN(T)                                                                           \
    do {                                                                                      \
        const T *v = x->data;                                                                 \
        for (int64_t i = lo; i < hi; i++)                                                     \
            if (v[i] < -rows || v[i] >= rows) return i;                                       \
    } while (0)
    if (x->dtype == OSC_INT64) SEG_SCAN(int64_t);
    else SEG_SCAN(int32_t);
#undef SEG_SCAN
    return -1;
}

/* What the Loop would fail on, in its order: bag b reading past starts or ends (its Gathers),
 * then an index of its slice out of weight's rows (its Gather of weight). */
static osc_status check_bags(osc_kctx *k, const osc_tensor *const *in, const seg_geo *g) {
    for (int64_t b = 0; b < g->bags; b++) {
        for (int32_t i = IN_STARTS; i <= IN_ENDS; i++)
            if (b >= in[i]->dims[0])
                return osc_kfail(k, OSC_ERR_INDEX, "bag %lld: input %d '%s' (%s) has %lld "
                                 "values, one per bag: bag %lld has none", (long long)b, (int)i,
                                 i == IN_STARTS ? "starts" : "ends", osc_kinput_name(k, i),
                                 (long long)in[i]->dims[0], (long long)b);
        int64_t lo, hi;
        bag_range(in, g->n, b, &lo, &hi);
        const int64_t bad = first_bad(in[IN_INDICES], lo, hi, g->rows);
        if (bad >= 0)
            return osc_kfail(k, OSC_ERR_INDEX, "bag %lld (indices %lld to %lld): input 3 "
                             "'indices' (%s) position %lld: value %lld is out of range [%lld, "
                             "%lld] for the %lld rows of input 4 'weight' (%s)", (long long)b,
                             (long long)lo, (long long)hi - 1, osc_kinput_name(k, IN_INDICES),
                             (long long)bad, (long long)osc_index_at(in[IN_INDICES], bad),
                             (long long)-g->rows, (long long)g->rows - 1, (long long)g->rows,
                             osc_kinput_name(k, IN_WEIGHT));
    }
    return OSC_OK;
}

typedef struct seg_job {
    const osc_tensor *const *in;
    const seg_geo *g;
    void (*bag)(const struct seg_job *j, int64_t b, int64_t lo, int64_t hi);
    size_t row_bytes;
    void *y;
} seg_job;

/* seg_R_E(j, b, lo, hi): output row b from the rows at indices [lo, hi) (at least 2, or none)
 * by reduction R for dtype E, as RED_LOOP (reduce_ops.c) computes each output element: the
 * first row's term, then each later row's joined in order, then the finish; an empty bag
 * stores R's empty value. */
#define SEG_BAG(R, E, T, C)                                                                   \
    static void seg_##R##_##E(const seg_job *j, int64_t b, int64_t lo, int64_t hi) {         \
        typedef RR_ACC(RR_KIND_##R, C, T) acc_t;                                              \
        const void *xp = j->in[IN_WEIGHT]->data;                                              \
        void *yp = j->y;                                                                      \
        const osc_tensor *x = j->in[IN_INDICES];                                              \
        const int64_t row = j->g->row, rows = j->g->rows, out = b * row;                      \
        if (hi == lo) {                                                                       \
            for (int64_t e = 0; e < row; e++) RR_ST_##C(T, out + e, RR_EMPTY_##R(C, T));      \
            return;                                                                           \
        }                                                                                     \
        for (int64_t c0 = 0; c0 < row; c0 += SEG_CHUNK) {                                     \
            const int64_t m = row - c0 < SEG_CHUNK ? row - c0 : SEG_CHUNK;                    \
            acc_t acc[SEG_CHUNK];                                                             \
            for (int64_t i = lo; i < hi; i++) {                                               \
                const int64_t r = osc_index_at(x, i);                                         \
                const int64_t at = (r < 0 ? r + rows : r) * row + c0;                         \
                if (i == lo)                                                                  \
                    for (int64_t e = 0; e < m; e++) {                                         \
                        RR_VAL_##C(T) v = RR_LD_##C(T, at + e);                               \
                        acc[e] = RR_TERM_##R(C, acc_t, v);                                    \
                    }                                                                         \
                else                                                                          \
                    for (int64_t e = 0; e < m; e++) {                                         \
                        RR_VAL_##C(T) v = RR_LD_##C(T, at + e);                               \
                        acc[e] = RR_JOIN_##R(C, acc[e], RR_TERM_##R(C, acc_t, v));            \
                    }                                                                         \
            }                                                                                 \
            for (int64_t e = 0; e < m; e++)                                                   \
                RR_ST_##C(T, out + c0 + e, RR_FIN_##R(C, T, acc[e], hi - lo));                \
        }                                                                                     \
    }
#define SEG_BAG_SUM(E, T, C) SEG_BAG(SUM, E, T, C)
#define SEG_BAG_MEAN(E, T, C) SEG_BAG(MEAN, E, T, C)
#define SEG_BAG_MAX(E, T, C) SEG_BAG(MAX, E, T, C)
OSC_REDUCE_ARITH_TYPES(SEG_BAG_SUM)
OSC_REDUCE_ARITH_TYPES(SEG_BAG_MEAN)
OSC_REDUCE_MINMAX_TYPES(SEG_BAG_MAX)

typedef void (*seg_fn)(const seg_job *j, int64_t b, int64_t lo, int64_t hi);
/* Reduction red's loop for dtype (NULL: none, as the Reduce* kernel has none). */
static seg_fn seg_pick(int32_t red, int32_t dtype) {
#define SEG_CASE(R, E) \
    case E: return seg_##R##_##E;
#define SEG_CASE_SUM(E, T, C) SEG_CASE(SUM, E)
#define SEG_CASE_MEAN(E, T, C) SEG_CASE(MEAN, E)
#define SEG_CASE_MAX(E, T, C) SEG_CASE(MAX, E)
    if (red == OSC_REDUCE_SUM) switch (dtype) {
            OSC_REDUCE_ARITH_TYPES(SEG_CASE_SUM)
            default: return NULL;
        }
    if (red == OSC_REDUCE_MEAN) switch (dtype) {
            OSC_REDUCE_ARITH_TYPES(SEG_CASE_MEAN)
            default: return NULL;
        }
    if (red == OSC_REDUCE_MAX) switch (dtype) {
            OSC_REDUCE_MINMAX_TYPES(SEG_CASE_MAX)
            default: return NULL;
        }
    return NULL;
#undef SEG_CASE_MAX
#undef SEG_CASE_MEAN
#undef SEG_CASE_SUM
#undef SEG_CASE
}

/* Threads take ranges of bags. A one-row bag is that row's bits (the Reduce* kernel copies a
 * one-element reduction of a sum, mean or max). */
static void seg_part(void *ctx, int32_t part, int32_t parts) {
    const seg_job *j = ctx;
    int64_t b0, b1;
    osc_par_range(j->g->bags, 1, part, parts, &b0, &b1);
    for (int64_t b = b0; b < b1; b++) {
        int64_t lo, hi;
        bag_range(j->in, j->g->n, b, &lo, &hi);
        if (hi - lo != 1) {
            j->bag(j, b, lo, hi);
            continue;
        }
        int64_t r = osc_index_at(j->in[IN_INDICES], lo);
        if (r < 0) r += j->g->rows;
        memcpy((char *)j->y + (size_t)b * j->row_bytes,
               (const char *)j->in[IN_WEIGHT]->data + (size_t)r * j->row_bytes, j->row_bytes);
    }
}

/* The output's shape: [bags, weight's dims but the first], or with no iteration the Loop's. */
static osc_status seg_shape(osc_kctx *k, const osc_tensor *const *in, const seg_geo *g,
                            osc_tensor *o) {
    const osc_seg_params *p = k->params;
    const osc_tensor *w = in[IN_WEIGHT];
    memset(o, 0, sizeof *o);
    o->dtype = w->dtype;
    if (g->bags == 0) {
        if (p->empty_rank < 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "the loop ran no iteration, and the body does "
                             "not declare the dtype and rank of scan output '%s'", p->scan_name);
        o->rank = p->empty_rank + 1;
        memcpy(o->dims + 1, p->empty_dims, (size_t)p->empty_rank * sizeof o->dims[0]);
        return OSC_OK;
    }
    o->rank = w->rank;
    memcpy(o->dims, w->dims, (size_t)w->rank * sizeof o->dims[0]);
    o->dims[0] = g->bags;
    return OSC_OK;
}

/* What infer and run share: the checks, the loop and the output's shape. */
static osc_status seg_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               bool has_out, seg_geo *g, seg_fn *fn, osc_tensor *o) {
    const osc_seg_params *p = k->params;
    osc_status st = check(k, in, n_in, g);
    if (st) return st;
    if (!has_out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    if (!(*fn = seg_pick(p->red, in[IN_WEIGHT]->dtype)))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 4 'weight' has dtype %s, which this "
                         "reduction does not take", osc_dtype_get(in[IN_WEIGHT]->dtype)->name);
    return seg_shape(k, in, g, o);
}

osc_status osc_seg_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    seg_geo g;
    seg_fn fn;
    return seg_geometry(k, in, n_in, n_out >= 1 && out, &g, &fn, out);
}

osc_status osc_seg_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                       int32_t n_out) {
    seg_geo g;
    seg_job j = {.in = in, .g = &g};
    osc_tensor want;
    char a[256], b[256];
    size_t need = 0;
    osc_status st = seg_geometry(k, in, n_in, n_out >= 1 && out, &g, &j.bag, &want);
    if (st) return st;
    if (out->dtype != want.dtype || out->rank != want.rank ||
        memcmp(out->dims, want.dims, (size_t)want.rank * sizeof want.dims[0]) != 0 ||
        !osc_dtype_bytes(want.dtype, osc_tensor_count(&want), &need) || out->nbytes < need ||
        (need && !out->data))
        return osc_kfail(k, OSC_ERR_ARG, "output 0 is %s %s (%zu bytes); expected %s %s",
                         osc_dtype_get(out->dtype)->name, osc_shape_str(out, a, sizeof a),
                         out->nbytes, osc_dtype_get(want.dtype)->name,
                         osc_shape_str(&want, b, sizeof b));
    if ((st = check_bags(k, in, &g))) return st;
    if (!need) return OSC_OK;
    j.y = out->data;
    osc_dtype_bytes(want.dtype, g.row, &j.row_bytes);
    const bool par = k->tpool && need >= OSC_PAR_MIN_BYTES;
    osc_tpool_run(par ? k->tpool : NULL, seg_part, &j);
    return OSC_OK;
}
