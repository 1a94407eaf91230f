/* reduce_ops.c: the Reduce* ops (ReduceSum, ReduceSumSquare, ReduceMean, ReduceProd, ReduceL1,
 * ReduceL2, ReduceLogSum, ReduceLogSumExp, ReduceMax, ReduceMin), every version: one axis walk,
 * with each reduction's term, combine and finish rules from ops/reduce/reduce_rules.h. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "ops/scatter/reduce.h"
#include "reduce_ops.h"
#include "reduce_rules.h"
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_reduce)

#define RED_ROW(R, OP, V) {OP, V},
static const struct {
    const char *op;
    int64_t axes_input_since;
} k_reds[OSC_REDUCE_N] = {OSC_REDUCE_LIST(RED_ROW)};
#undef RED_ROW

osc_status osc_reduce_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const v_attr[] = {"axes", "keepdims", NULL};
    static const char *const v_input[] = {"keepdims", "noop_with_empty_axes", NULL};
    int32_t red = 0;
    while (red < OSC_REDUCE_N && strcmp(k_reds[red].op, k->row->op) != 0) red++;
    if (red == OSC_REDUCE_N)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "not a reduction this kernel has");
    osc_reduce_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->red = red;
    p->axes_input = k->since_version >= k_reds[red].axes_input_since;
    osc_status st = osc_attr_known(k, node, p->axes_input ? v_input : v_attr);
    if (!st) st = osc_sh_attr_bool(k, node, "keepdims", true, &p->keepdims);
    if (!st && p->axes_input)
        st = osc_sh_attr_bool(k, node, "noop_with_empty_axes", false, &p->noop);
    if (!st && !p->axes_input) st = osc_sh_attr_ints(k, node, "axes", false, &p->axes);
    if (!st) *params = p;
    return st;
}

/* Output shape, and which input dims are reduced (aux: bool[OSC_MAX_RANK]; none at all for the
 * no-op case). */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    const osc_reduce_params *p = k->params;
    bool red_own[OSC_MAX_RANK], *red = aux ? aux : red_own;
    int64_t count, axes[2 * OSC_MAX_RANK];
    int32_t n = 0;
    const char *what = "attribute 'axes'";
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (st) return st;
    const osc_tensor *data = in[0];
    if (!p->axes_input) {
        n = p->axes.n; /* init bounded it */
        if (n) memcpy(axes, p->axes.v, (size_t)n * sizeof *axes);
    } else if (osc_sh_in(in, n_in, 1)) {
        what = "input 1 'axes'";
        st = osc_sh_read_ints(k, 1, "axes", in[1], false, false, 2 * OSC_MAX_RANK, axes, &n);
    }
    if (!st) st = osc_sh_norm_axes(k, what, axes, n, data->rank);
    if (st) return st;
    /* no axes (absent or empty): all of them, unless noop_with_empty_axes */
    bool noop = n == 0 && p->noop;
    for (int32_t d = 0; d < data->rank; d++) red[d] = n == 0 && !noop;
    for (int32_t i = 0; i < n; i++) red[axes[i]] = true;
    bool keep = p->keepdims;
    memset(o, 0, sizeof *o);
    o->dtype = data->dtype;
    for (int32_t d = 0; d < data->rank; d++)
        if (!red[d]) o->dims[o->rank++] = data->dims[d];
        else if (keep) o->dims[o->rank++] = 1;
    return OSC_OK;
}

osc_status osc_reduce_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, int32_t n_out) {
    return osc_sh_infer_with(k, geometry, in, n_in, out, n_out);
}

/* The walk: the kept dims (kn sizes, ks strides) in output order, the reduced ones (rn, rs),
 * n_red elements per output element (0: every reduction is empty), n_out output elements. */
typedef struct walk {
    int64_t kn[OSC_MAX_RANK], ks[OSC_MAX_RANK], rn[OSC_MAX_RANK], rs[OSC_MAX_RANK];
    int32_t nk, nr;
    int64_t n_red, n_out;
    int64_t e0, e1; /* the output elements this walk computes: [e0, e1) */
} walk;

/* The start of the next run along the innermost reduced dim, p being the start of the run just
 * walked: an odometer over the other reduced dims (a function, so its branches are not
 * repeated in every typed loop). */
static int64_t next_run(const walk *w, int64_t *ri, int64_t p) {
    for (int32_t d = w->nr - 2; d >= 0; d--) {
        p += w->rs[d];
        if (++ri[d] < w->rn[d]) break;
        p -= w->rs[d] * w->rn[d];
        ri[d] = 0;
    }
    return p;
}

/* Visits, with p the flat input position, the n_red elements of the output element whose
 * first input element is `base`, in row-major order of the reduced dims (the fixed order that
 * keeps sums deterministic): runs along the innermost reduced dim (w->nr >= 1). c counts the
 * elements visited before. */
#define WALK(...)                                                                             \
    do {                                                                                      \
        const int64_t s0 = w->rs[w->nr - 1], n0 = w->rn[w->nr - 1];                           \
        int64_t p = base, ri[OSC_MAX_RANK] = {0};                                             \
        for (int64_t c = 0; c < w->n_red;) {                                                  \
            const int64_t run = p;                                                            \
            for (int64_t i = 0; i < n0; i++, c++, p += s0) {                                  \
                __VA_ARGS__                                                                   \
            }                                                                                 \
            p = next_run(w, ri, run);                                                         \
        }                                                                                     \
    } while (0)

/* One typed loop per (reduction R, dtype): for each output element, R's optional first pass
 * (PRE), then term and combine from the first element on (so a lone -0.0 keeps its sign, as in
 * numpy), then finish; an empty reduction stores R's empty value. float16/bfloat16 compute in
 * float and round once per output element. */
#define RED_LOOP(R, T, C)                                                                     \
    do {                                                                                      \
        if (w->n_red == 0) {                                                                  \
            for (int64_t e = w->e0; e < w->e1; e++) RR_ST_##C(T, e, RR_EMPTY_##R(C, T));      \
            break;                                                                            \
        }                                                                                     \
        int64_t base = 0, ki[OSC_MAX_RANK] = {0};                                             \
        for (int64_t d = w->nk - 1, r = w->e0; d >= 0; d--) { /* element e0's position */     \
            ki[d] = r % w->kn[d];                                                             \
            r /= w->kn[d];                                                                    \
            base += ki[d] * w->ks[d];                                                         \
        }                                                                                     \
        for (int64_t e = w->e0; e < w->e1; e++) {                                             \
            RR_ACC(RR_KIND_##R, C, T) acc = 0;                                                \
            double m = 0;                                                                     \
            RR_PRE_##R(C, T);                                                                 \
            WALK({                                                                            \
                RR_VAL_##C(T) v = RR_LD_##C(T, p);                                            \
                RR_ACC(RR_KIND_##R, C, T) t = RR_TERM_##R(C, RR_ACC(RR_KIND_##R, C, T), v);   \
                acc = c ? RR_JOIN_##R(C, acc, t) : t;                                         \
            });                                                                               \
            (void)m;                                                                          \
            RR_ST_##C(T, e, RR_FIN_##R(C, T, acc, w->n_red));                                 \
            for (int32_t d = w->nk - 1; d >= 0; d--) {                                        \
                base += w->ks[d];                                                             \
                if (++ki[d] < w->kn[d]) break;                                                \
                base -= w->ks[d] * w->kn[d];                                                  \
                ki[d] = 0;                                                                    \
            }                                                                                 \
        }                                                                                     \
    } while (0)

/* red_R(w, dtype, xp, yp): reduction R over every dtype of its TYPES list; false for others. */
#define RED_FN(R, TYPES)                                                                      \
    static bool red_##R(const walk *w, int32_t dtype, const void *xp, void *yp) {             \
        switch (dtype) {                                                                      \
            TYPES(RED_CASE_##R)                                                               \
        default: return false;                                                                \
        }                                                                                     \
        return true;                                                                          \
    }
#define RED_CASE_SUM(E, T, C) case E: RED_LOOP(SUM, T, C); break;
#define RED_CASE_SUMSQ(E, T, C) case E: RED_LOOP(SUMSQ, T, C); break;
#define RED_CASE_MEAN(E, T, C) case E: RED_LOOP(MEAN, T, C); break;
#define RED_CASE_PROD(E, T, C) case E: RED_LOOP(PROD, T, C); break;
#define RED_CASE_L1(E, T, C) case E: RED_LOOP(L1, T, C); break;
#define RED_CASE_L2(E, T, C) case E: RED_LOOP(L2, T, C); break;
#define RED_CASE_LOGSUM(E, T, C) case E: RED_LOOP(LOGSUM, T, C); break;
#define RED_CASE_LSE(E, T, C) case E: RED_LOOP(LSE, T, C); break;
#define RED_CASE_MAX(E, T, C) case E: RED_LOOP(MAX, T, C); break;
#define RED_CASE_MIN(E, T, C) case E: RED_LOOP(MIN, T, C); break;
RED_FN(SUM, OSC_REDUCE_ARITH_TYPES)
RED_FN(SUMSQ, OSC_REDUCE_ARITH_TYPES)
RED_FN(MEAN, OSC_REDUCE_ARITH_TYPES)
RED_FN(PROD, OSC_REDUCE_ARITH_TYPES)
RED_FN(L1, OSC_REDUCE_ARITH_TYPES)
RED_FN(L2, OSC_REDUCE_ARITH_TYPES)
RED_FN(LOGSUM, OSC_REDUCE_ARITH_TYPES)
RED_FN(LSE, OSC_REDUCE_ARITH_TYPES)
RED_FN(MAX, OSC_REDUCE_MINMAX_TYPES)
RED_FN(MIN, OSC_REDUCE_MINMAX_TYPES)

typedef bool (*red_fn)(const walk *w, int32_t dtype, const void *xp, void *yp);
#define RED_FN_ROW(R, OP, V) red_##R,
static const red_fn k_red_fns[OSC_REDUCE_N] = {OSC_REDUCE_LIST(RED_FN_ROW)};
#undef RED_FN_ROW

/* A float or double reduction without a first pass (every one but LogSumExp) along the last
 * axis only (GAT's per-head dot products, DGCNN's max over neighbours, SAGE's L2 norm): output e
 * folds the terms of x[e*n .. e*n+n-1] from its first element, then finishes. Eight outputs at
 * a time, each its own chain in the one order, so that one chain's operations do not wait on
 * each other's latency (a sum 4.5x faster on [50000, 2, 32]; same bits as RED_LOOP). Max and
 * min join by a plain compare there (RR_FAST_: the same result as theirs unless a NaN is met,
 * and no branch to mispredict) and note whether a term was NaN; the eight outputs are then
 * folded again the exact way. */
#define RR_FAST_MAX(a, t) ((t) > (a) ? (t) : (a))
#define RR_FAST_MIN(a, t) ((t) < (a) ? (t) : (a))
#define RR_FAST_SUM(a, t) RR_JOIN_SUM(FLOAT, a, t)
#define RR_FAST_SUMSQ(a, t) RR_JOIN_SUMSQ(FLOAT, a, t)
#define RR_FAST_MEAN(a, t) RR_JOIN_MEAN(FLOAT, a, t)
#define RR_FAST_PROD(a, t) RR_JOIN_PROD(FLOAT, a, t)
#define RR_FAST_L1(a, t) RR_JOIN_L1(FLOAT, a, t)
#define RR_FAST_L2(a, t) RR_JOIN_L2(FLOAT, a, t)
#define RR_FAST_LOGSUM(a, t) RR_JOIN_LOGSUM(FLOAT, a, t)
/* whether RR_FAST_ may differ from RR_JOIN_ when a term is NaN */
#define RR_NANCHK_MAX 1
#define RR_NANCHK_MIN 1
#define RR_NANCHK_SUM 0
#define RR_NANCHK_SUMSQ 0
#define RR_NANCHK_MEAN 0
#define RR_NANCHK_PROD 0
#define RR_NANCHK_L1 0
#define RR_NANCHK_L2 0
#define RR_NANCHK_LOGSUM 0
#define ROWS(E, T, R)                                                                         \
    static void rows_##R##_##E(const void *xp, void *yp, int64_t e0, int64_t e1, int64_t n) { \
        const T *x = xp;                                                                      \
        T *y = yp;                                                                            \
        int64_t e = e0;                                                                       \
        for (; e + 8 <= e1; e += 8) {                                                         \
            const T *r = x + e * n;                                                           \
            T a[8];                                                                           \
            int nan = 0;                                                                      \
            for (int k = 0; k < 8; k++) a[k] = RR_TERM_##R(FLOAT, T, r[k * n]);               \
            for (int64_t i = 1; i < n; i++)                                                   \
                for (int k = 0; k < 8; k++) {                                                 \
                    const T t = RR_TERM_##R(FLOAT, T, r[k * n + i]);                          \
                    a[k] = RR_FAST_##R(a[k], t);                                              \
                    if (RR_NANCHK_##R) nan |= t != t;                                         \
                }                                                                             \
            if (!nan) {                                                                       \
                for (int k = 0; k < 8; k++) y[e + k] = (T)(RR_FIN_##R(FLOAT, T, a[k], n));    \
                continue;                                                                     \
            }                                                                                 \
            for (int k = 0; k < 8; k++) { /* the exact join */                                \
                T b = RR_TERM_##R(FLOAT, T, r[k * n]);                                        \
                for (int64_t i = 1; i < n; i++)                                               \
                    b = RR_JOIN_##R(FLOAT, b, RR_TERM_##R(FLOAT, T, r[k * n + i]));           \
                y[e + k] = (T)(RR_FIN_##R(FLOAT, T, b, n));                                   \
            }                                                                                 \
        }                                                                                     \
        for (; e < e1; e++) {                                                                 \
            T a = RR_TERM_##R(FLOAT, T, x[e * n]);                                            \
            for (int64_t i = 1; i < n; i++)                                                   \
                a = RR_JOIN_##R(FLOAT, a, RR_TERM_##R(FLOAT, T, x[e * n + i]));               \
            y[e] = (T)(RR_FIN_##R(FLOAT, T, a, n));                                           \
        }                                                                                     \
    }
/* The reductions ROWS and COLS take: X(R) for each */
#define LINE_REDUCTIONS(X, ...)                                                               \
    X(SUM, __VA_ARGS__) X(SUMSQ, __VA_ARGS__) X(MEAN, __VA_ARGS__) X(PROD, __VA_ARGS__)       \
    X(L1, __VA_ARGS__) X(L2, __VA_ARGS__) X(LOGSUM, __VA_ARGS__) X(MAX, __VA_ARGS__)          \
    X(MIN, __VA_ARGS__)
#define ROWS_OF(R, E, T) ROWS(E, T, R)
#define ROWS_ALL(E, T, CLS) LINE_REDUCTIONS(ROWS_OF, E, T)
OSC_IEEE_TYPES(ROWS_ALL)
typedef void (*rows_fn)(const void *xp, void *yp, int64_t e0, int64_t e1, int64_t n);

/* ROWS's reductions over one axis that is not the last, x seen as [outer, n, inner]: output
 * e = (o, i) takes the term of x[o][0][i], joins those of x[o][r][i] for r = 1 .. n-1, and
 * finishes, rows at a time (each output row is updated in memory order, not walked element by
 * element with a stride); per element the order of RED_LOOP, so the same bits. */
#define COLS(E, T, R)                                                                         \
    static void cols_##R##_##E(const void *xp, void *yp, int64_t e0, int64_t e1, int64_t n,   \
                               int64_t inner) {                                               \
        const T *x = xp;                                                                      \
        T *y = yp;                                                                            \
        for (int64_t e = e0; e < e1;) {                                                       \
            const int64_t o = e / inner, i = e % inner;                                       \
            const int64_t len = inner - i < e1 - e ? inner - i : e1 - e;                      \
            const T *r0 = x + o * n * inner + i;                                              \
            T *yr = y + e;                                                                    \
            for (int64_t j = 0; j < len; j++) yr[j] = RR_TERM_##R(FLOAT, T, r0[j]);           \
            for (int64_t r = 1; r < n; r++)                                                   \
                for (int64_t j = 0; j < len; j++)                                             \
                    yr[j] = RR_JOIN_##R(FLOAT, yr[j], RR_TERM_##R(FLOAT, T, r0[r * inner + j])); \
            for (int64_t j = 0; j < len; j++) yr[j] = (T)(RR_FIN_##R(FLOAT, T, yr[j], n));    \
            e += len;                                                                         \
        }                                                                                     \
    }
#define COLS_OF(R, E, T) COLS(E, T, R)
#define COLS_ALL(E, T, CLS) LINE_REDUCTIONS(COLS_OF, E, T)
OSC_IEEE_TYPES(COLS_ALL)
typedef void (*cols_fn)(const void *xp, void *yp, int64_t e0, int64_t e1, int64_t n,
                        int64_t inner);
/* ROWS's and COLS's functions of reduction red over dtype; false when it has none. */
static bool line_fns(int32_t red, int32_t dtype, rows_fn *rows, cols_fn *cols) {
#define PICK(R, E)                                                                            \
    if (red == OSC_REDUCE_##R) {                                                              \
        *rows = rows_##R##_##E, *cols = cols_##R##_##E;                                       \
        return true;                                                                          \
    }
#define CASE(E, T, CLS)                                                                       \
    case E:                                                                                   \
        LINE_REDUCTIONS(PICK, E)                                                              \
        return false;
    switch (dtype) {
        OSC_IEEE_TYPES(CASE)
        default: return false;
    }
#undef CASE
#undef PICK
}

typedef struct red_job {
    const walk *w;
    red_fn fn;
    rows_fn rows;     /* instead of fn, for ROWS's reductions along the last axis only */
    cols_fn cols;     /* instead of fn, for COLS's reductions over one axis but the last */
    int64_t inner;    /* cols: the elements after the reduced axis */
    int32_t dtype;
    const void *x;
    void *y;
} red_job;

/* Threads compute disjoint ranges of output elements, each in the one fixed order. */
static void red_part(void *ctx, int32_t part, int32_t parts) {
    const red_job *j = ctx;
    walk w = *j->w;
    osc_par_range(w.n_out, 16, part, parts, &w.e0, &w.e1);
    if (w.e0 >= w.e1) return;
    if (j->rows) j->rows(j->x, j->y, w.e0, w.e1, w.n_red);
    else if (j->cols) j->cols(j->x, j->y, w.e0, w.e1, w.n_red, j->inner);
    else j->fn(&w, j->dtype, j->x, j->y);
}

/* Reductions whose value over one element is that element, bit for bit (a one-element walk is
 * then a copy); the others still apply their finish (L1 |x|, L2 sqrt(x*x), LogSum log x, ...). */
static bool identity_on_one(int32_t red) {
    return red == OSC_REDUCE_SUM || red == OSC_REDUCE_MEAN || red == OSC_REDUCE_PROD ||
           red == OSC_REDUCE_MAX || red == OSC_REDUCE_MIN;
}

osc_status osc_reduce_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    const osc_reduce_params *p = k->params;
    bool red[OSC_MAX_RANK];
    osc_tensor want;
    osc_status st = osc_sh_run_checks(k, geometry, in, n_in, out, n_out, &want, red);
    if (st) return st;
    const osc_tensor *x = in[0];
    walk w = {.n_out = osc_tensor_count(&want), .n_red = 1};
    if (w.n_out == 0) return OSC_OK;
    /* Non-empty output: the kept dims are non-zero. A zero reduced dim makes every reduction
     * empty; otherwise the input is non-empty and its strides cannot overflow. */
    int64_t xs[OSC_MAX_RANK];
    bool empty = false;
    for (int32_t d = 0; d < x->rank; d++) empty |= red[d] && x->dims[d] == 0;
    osc_row_strides(x, xs);
    for (int32_t d = 0; d < x->rank; d++) {
        if (red[d]) {
            w.rn[w.nr] = x->dims[d];
            w.rs[w.nr++] = xs[d];
            if (!empty) w.n_red *= x->dims[d];
        } else {
            w.kn[w.nk] = x->dims[d];
            w.ks[w.nk++] = xs[d];
        }
    }
    if (empty) w.n_red = 0;
    if (w.nr == 0) { /* (noop_with_empty_axes) one reduced dim of size 1 for the walk */
        w.rn[0] = 1;
        w.nr = 1;
    }
    /* all reduced dims of size 1 (or none, noop_with_empty_axes): the input, in order */
    size_t nbytes = 0;
    if (w.n_red == 1 && identity_on_one(p->red) && osc_dtype_bytes(x->dtype, w.n_out, &nbytes)) {
        memcpy(out[0].data, x->data, nbytes);
        return OSC_OK;
    }
    w.e1 = w.n_out;
    red_job j = {.w = &w, .fn = k_red_fns[p->red], .dtype = x->dtype, .x = x->data,
                 .y = out[0].data};
    /* an empty walk only asks whether the dtype has a loop (geometry checked .types) */
    if (!j.fn(&(walk){.n_out = 0}, x->dtype, NULL, NULL))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'data' has dtype %s",
                         osc_dtype_get(x->dtype)->name);
    rows_fn rows;
    cols_fn cols;
    if (x->rank > 0 && w.nr == 1 && w.n_red > 1 && line_fns(p->red, x->dtype, &rows, &cols)) {
        if (red[x->rank - 1]) { /* one reduced axis: the last, or another */
            j.rows = rows;
        } else {
            j.cols = cols;
            j.inner = w.rs[0];
        }
    }
    const bool par = x->nbytes >= OSC_PAR_MIN_BYTES && w.n_out > 1;
    osc_tpool_run(par ? k->tpool : NULL, red_part, &j);
    return OSC_OK;
}
