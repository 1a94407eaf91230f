/* fused_softmax.c: SegmentSoftmax (fused_softmax.h): the softmax of X's rows over the rows
 * sharing a destination. Where the fused scatters would group the edges by destination (a
 * large output), it takes that grouping (made here or by another node of the run, and shared:
 * GAT's aggregation reads it next) and walks each destination's edges three times with its max
 * and sum in hand; else three passes over the edges in edge order with the max and the sum in
 * a table of N rows. Every index is checked first. Threads split the destinations as the fused
 * scatters do; every destination sees its edges in edge order, so the bits are the unfused
 * graph's on any thread count. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "fused_scatter.h"
#include "fused_softmax.h"
#include "ops/elementwise/math_common.h"
#include "ops/scatter/reduce.h"

OSC_KERNEL_DECLARE(osc_ssm)

typedef struct ssm_job {
    const osc_ssm_params *p;
    const char *x;
    char *out, *table; /* table: the max rows, then the sum rows */
    uint32_t *dst;     /* each edge's destination row, as the first pass found it */
    bool dbl;
    osc_fs_split s;
} ssm_job;

/* BODY for each edge e of the part, d its destination row: the part's list, or every edge
 * (one part). The first pass reads the index and keeps the destinations, the others read them. */
#define SSM_EACH(FIRST, BODY)                                                               \
    for (int64_t q = q0; q < q1; q++) {                                                     \
        const int64_t e = list ? list[q] : q;                                               \
        const int64_t d = (FIRST) ? (int64_t)(dd[e] = (uint32_t)osc_ixc_row(&c, e, N)) : dd[e]; \
        BODY;                                                                               \
    }
#define SSM_ROW(EXPR)                                                                       \
    for (int64_t i = 0; i < R; i++) EXPR
/* Part `part` of the split: its table rows start, then three passes over its edges in edge
 * order: the max, the shifted Exp with the sum, the division (for outputs too small, or edges
 * too few, for the grouping to pay). The output may be X (the second pass reads an element
 * before it writes it, and the first pass is over). */
#define SSM_PART(TN, T)                                                                     \
    static void ssm_##TN(const ssm_job *j, int32_t part) {                                  \
        const osc_ssm_params *p = j->p;                                                     \
        const int64_t R = p->row, N = j->s.n_rows, lo = j->s.bounds[part];                  \
        const int64_t hi = j->s.bounds[part + 1];                                           \
        const uint32_t *list = j->s.list;                                                   \
        const int64_t q0 = list ? j->s.at[part] : 0;                                        \
        const int64_t q1 = list ? j->s.at[part + 1] : j->s.edges;                           \
        const T *x = (const T *)(const void *)j->x;                                         \
        T *out = (T *)(void *)j->out, *mx = (T *)(void *)j->table, *sm = mx + N * R;        \
        uint32_t *dd = j->dst;                                                              \
        osc_ixc c = osc_ixc_of(&j->s.dst);                                                  \
        for (int64_t i = lo * R; i < hi * R; i++) mx[i] = (T)p->max_start;                  \
        for (int64_t i = lo * R; i < hi * R; i++) sm[i] = (T)p->sum_start;                  \
        SSM_EACH(1, T *m = mx + d * R; const T *xr = x + e * R;                             \
                 SSM_ROW(m[i] = OSC_COMBINE_FLOAT_MAX(T, m[i], xr[i])));                    \
        SSM_EACH(0, const T *m = mx + d * R; const T *xr = x + e * R; T *o = out + e * R;   \
                 T *s = sm + d * R; SSM_ROW({                                               \
                     o[i] = OSC_M(exp, (T)(xr[i] - m[i]));                                  \
                     s[i] = OSC_COMBINE_FLOAT_ADD(T, s[i], o[i]);                           \
                 }));                                                                       \
        SSM_EACH(0, const T *s = sm + d * R; T *o = out + e * R;                            \
                 SSM_ROW(o[i] = (T)(o[i] / (T)(s[i] + (T)p->eps))));                        \
    }
SSM_PART(f32, float)
SSM_PART(f64, double)
/* Grouped by destination (the split's row_at): each row's edges in turn, its max and sum in
 * its table rows (read in order), X's rows read at random three times in a row (the first
 * fetched SSM_PF edges ahead, with the output's), so that no table is read at random. */
#define SSM_PF 16
#define SSM_ROWS(TN, T)                                                                     \
    static void ssm_rows_##TN(const ssm_job *j, int32_t part) {                             \
        const osc_ssm_params *p = j->p;                                                     \
        const int64_t R = p->row, N = j->s.n_rows, lo = j->s.bounds[part];                  \
        const int64_t hi = j->s.bounds[part + 1], q1 = j->s.at[part + 1];                   \
        const uint32_t *list = j->s.list, *row_at = j->s.row_at;                            \
        const T *x = (const T *)(const void *)j->x;                                         \
        T *out = (T *)(void *)j->out;                                                       \
        const T eps = (T)p->eps;                                                            \
        for (int64_t d = lo; d < hi; d++) {                                                 \
            T *m = (T *)(void *)j->table + d * R, *s = m + N * R;                           \
            const int64_t qa = row_at[d], qb = row_at[d + 1];                               \
            SSM_ROW(m[i] = (T)p->max_start);                                                \
            SSM_ROW(s[i] = (T)p->sum_start);                                                \
            for (int64_t q = qa; q < qb; q++) {                                             \
                if (q + SSM_PF < q1) {                                                      \
                    OSC_PREFETCH(x + list[q + SSM_PF] * R, 0);                              \
                    OSC_PREFETCH(out + list[q + SSM_PF] * R, 1);                            \
                }                                                                           \
                const T *xr = x + list[q] * R;                                              \
                SSM_ROW(m[i] = OSC_COMBINE_FLOAT_MAX(T, m[i], xr[i]));                      \
            }                                                                               \
            for (int64_t q = qa; q < qb; q++) {                                             \
                const T *xr = x + list[q] * R;                                              \
                T *o = out + list[q] * R;                                                   \
                for (int64_t i = 0; i < R; i++) {                                           \
                    const T ex = OSC_M(exp, (T)(xr[i] - m[i]));                             \
                    o[i] = ex;                                                              \
                    s[i] = OSC_COMBINE_FLOAT_ADD(T, s[i], ex);                              \
                }                                                                           \
            }                                                                               \
            for (int64_t q = qa; q < qb; q++) {                                             \
                T *o = out + list[q] * R;                                                   \
                SSM_ROW(o[i] = (T)(o[i] / (T)(s[i] + eps)));                                \
            }                                                                               \
        }                                                                                   \
    }
SSM_ROWS(f32, float)
SSM_ROWS(f64, double)
static void ssm_part(void *ctx, int32_t part, int32_t parts) {
    (void)parts;
    const ssm_job *j = ctx;
    if (j->s.row_at) (j->dbl ? ssm_rows_f64 : ssm_rows_f32)(j, part);
    else (j->dbl ? ssm_f64 : ssm_f32)(j, part);
}

/* The index bound (E values, E = X's rows) and X checked against the parameters: float or
 * double, E rows of R elements; *n_rows the table's rows (the symbol resolved). */
static osc_status check(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                        osc_ixv *v, int64_t *n_rows) {
    const osc_ssm_params *p = k->params;
    char sh[256];
    osc_status st = osc_need_input(k, in, n_in, 0, "X");
    if (st) return st;
    const osc_tensor *x = in[0];
    if ((x->dtype != OSC_FLOAT && x->dtype != OSC_DOUBLE) || x->rank < 1 ||
        osc_tensor_count(x) != x->dims[0] * p->row)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) is %s %s; expected float or double "
                         "rows of %lld elements", osc_kinput_name(k, 0),
                         osc_dtype_get(x->dtype)->name, osc_shape_str(x, sh, sizeof sh),
                         (long long)p->row);
    int64_t vals[OSC_SYM_MAX];
    if ((st = osc_sym_resolve(k, &p->syms, in, n_in, vals))) return st;
    *n_rows = p->rows;
    osc_sym_subst(&p->syms, vals, n_rows, 1);
    return osc_ixv_bind(k, &p->pc, 1, "indices", in, n_in, x->dims[0], v);
}

osc_status osc_ssm_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    osc_ixv v;
    int64_t n_rows;
    osc_status st = check(k, in, n_in, &v, &n_rows);
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    out->dtype = in[0]->dtype;
    out->rank = in[0]->rank;
    memcpy(out->dims, in[0]->dims, (size_t)in[0]->rank * sizeof in[0]->dims[0]);
    return OSC_OK;
}

osc_status osc_ssm_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                       osc_tensor *out, int32_t n_out) {
    const osc_ssm_params *p = k->params;
    ssm_job j = {.p = p, .dbl = in[0] && in[0]->dtype == OSC_DOUBLE};
    osc_status st = check(k, in, n_in, &j.s.dst, &j.s.n_rows);
    if (st) return st;
    const int64_t E = in[0]->dims[0];
    const size_t es = j.dbl ? sizeof(double) : sizeof(float);
    const size_t bytes = (size_t)(E * p->row) * es;
    if (n_out < 1 || !out || out->dtype != in[0]->dtype || out->nbytes < bytes)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 cannot hold the %zu-byte result", bytes);
    j.s.key = p->pc.n ? p->pc.value : k->node->inputs[1];
    j.s.dst_stride = 1;
    j.s.edges = E;
    osc_fs_split_one(&j.s);
    if (E && (st = osc_ixv_check(k, &j.s.dst, &p->pc, 1, "indices", "", j.s.n_rows, &j.s.same)))
        return st;
    if (!E) return OSC_OK;
    /* the two tables, then the destinations (rows numbered in 32 bits) */
    int64_t tb, all;
    const int64_t N = j.s.n_rows;
    if (N > UINT32_MAX || __builtin_mul_overflow(N, p->row * 2 * (int64_t)es, &tb) ||
        __builtin_add_overflow(tb, E * 4, &all) || (uint64_t)all > SIZE_MAX)
        return osc_kfail(k, OSC_ERR_LIMIT, "a table of %lld rows of %lld elements is too large "
                         "(at most 2^32-1 rows)", (long long)N, (long long)p->row);
    const bool group = bytes >= OSC_FS_GROUP_MIN_BYTES && E * 4 >= N;
    if (!(((k->tpool && bytes >= OSC_PAR_MIN_BYTES) || group) && N > 1 &&
          osc_fs_split_shared(k, &j.s, OSC_FS_SPLIT_MAKE | (group ? OSC_FS_SPLIT_GROUP : 0)) &&
          j.s.list)) /* (without lists each part would walk every edge: one part does) */
        osc_fs_split_one(&j.s);
    /* The tables: the session's scratch block (kept between runs: no pages mapped and
     * cleared per run), unless the split's lists are in it. */
    char *own = NULL, *mem;
    if (k->scratch && !osc_fs_split_in_scratch(k, &j.s))
        mem = osc_scratch_get(k->scratch, (size_t)all);
    else
        mem = own = osc_malloc(k->alloc, (size_t)all);
    if (!mem)
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %lld bytes for the per-destination "
                         "max and sum", (long long)all);
    j.table = mem;
    j.dst = (uint32_t *)(void *)(mem + tb);
    /* Validation is complete: from here on the output is written. */
    j.x = in[0]->data;
    j.out = out->data;
    if (j.s.list) osc_tpool_run(k->tpool, ssm_part, &j);
    else ssm_part(&j, 0, 1);
    if (own) osc_free(k->alloc, own, (size_t)all);
    return OSC_OK;
}
