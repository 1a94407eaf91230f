/* fused_scatter.c: the fused gather-scatter kernel (fused_scatter.h): one pass over the edges,
 * reading one destination index, one source row and the steps' operands per edge, combining
 * the row into the output in place. Every index is checked before the first write; threads
 * split the destination rows (each walks all edges in order and applies those it owns), so
 * every output row sees its updates in edge order, as the unfused ScatterElements applies
 * them: results are bit-identical to the unfused graph for any thread count. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "fused_place.h"
#include "fused_scatter.h"
#include "fused_steps.h"
#include "ops/scatter/scatter.h"

#define FS_PF 8 /* edges ahead whose rows are prefetched */
#define FS_PF_MIN_BYTES ((size_t)1 << 20)

/* The typed edge loop of one dtype and reduction: updates whose destination row lies in
 * [lo, hi), in edge order (each edge as fused_steps.h combines it). */
/* The element of step st's operand that edge e, at list position q, reads from. */
#define FS_OAT(st) (((st)->tiled ? q - q0 : e) * (st)->estride)
#define FS_EDGES(TN, T, RED)                                                               \
    static void fs_##TN##_##RED(const osc_fs_job *j, int64_t lo, int64_t hi, int64_t q0,    \
                                int64_t q1, const char *const *opnd) {                     \
        const osc_fs_params *p = j->p;                                                     \
        const int64_t R = p->row, N = j->s.n_rows, XN = j->x_rows;                         \
        const int64_t ds = p->dst_stride;                                                  \
        const uint32_t *list = j->s.list;                                                  \
        T *out = (T *)(void *)j->out;                                                      \
        const T *x = (const T *)(const void *)j->x;                                        \
        /* prefetching pays when the output is larger than a core's cache */               \
        const bool pf = (size_t)(N * R) * sizeof(T) > FS_PF_MIN_BYTES;                     \
        osc_ixc cd = osc_ixc_of(&j->s.dst), cs = osc_ixc_of(&j->src);                      \
        osc_ixc pd = cd, ps = cs; /* the prefetches' own, ahead */                         \
        T v[FS_ROW_MAX];                                                                   \
        for (int64_t q = q0; q < q1; q++) {                                                \
            if (pf && q + FS_PF < q1) { /* the rows of a later edge this part owns */     \
                const int64_t en = list ? list[q + FS_PF] : q + FS_PF;                     \
                const int64_t dn = osc_ixc_row(&pd, en * ds, N);                           \
                if (dn >= lo && dn < hi) {                                                 \
                    OSC_PREFETCH(out + dn * R, 1);                                             \
                    if (p->gather)                                                         \
                        OSC_PREFETCH(x + osc_ixc_row(&ps, en, XN) * R, 0);                     \
                }                                                                          \
            }                                                                              \
            const int64_t e = list ? list[q] : q;                                          \
            const int64_t d = osc_ixc_row(&cd, e * ds, N);                                 \
            if (d < lo || d >= hi) continue;                                               \
            T *o = out + d * R;                                                            \
            const T *xr = x + (p->gather ? osc_ixc_row(&cs, e, XN) : e) * R;               \
            FS_EDGE(T, RED, p, o, xr, opnd, v);                                            \
        }                                                                                  \
    }
FS_EACH_RED(FS_EDGES, f32, float)
FS_EACH_RED(FS_EDGES, f64, double)

/* Rows of one element whose message is the update itself, into an output that fits a core's
 * cache (FS_SCALARS_RUN: GCN's degree, the count of torch's index_add_ spelling): one part
 * owning every row, whatever the thread count, the edges [q0, q1) in order, a loop per piece
 * of the index with nothing else per edge. GCN's degree: 2.2 ms against 5.0 in the loop above,
 * and 11-12 on two threads splitting the edges grouped by destination. */
#define FS_SCALARS_RUN(p, out_bytes)                                                       \
    ((p)->row == 1 && !(p)->n_steps && !(p)->gather && (p)->dst_stride == 1 &&             \
     (out_bytes) <= FS_PF_MIN_BYTES)
#define FS_SCALAR_LOOP(IT, T, RED)                                                         \
    for (int64_t e = a; e < b; e++) {                                                      \
        const int64_t d = osc_fs_row(dv->p[pc], IT, e - dv->start[pc], N);                 \
        out[d] = FS_##RED(T, out[d], x[e & xm]);                                           \
    }
#define FS_SCALARS(TN, T, RED)                                                             \
    static void fsc_##TN##_##RED(const osc_fs_job *j, int64_t lo, int64_t hi, int64_t q0,   \
                                 int64_t q1, const char *const *opnd) {                    \
        (void)lo, (void)hi, (void)opnd;                                                    \
        const osc_ixv *dv = &j->s.dst;                                                     \
        const int64_t N = j->s.n_rows;                                                     \
        T *out = (T *)(void *)j->out;                                                      \
        const T *x = (const T *)(const void *)j->x;                                        \
        const int64_t xm = j->x_mask;                                                      \
        for (int32_t pc = 0; pc < dv->n; pc++) {                                           \
            const int64_t a = q0 > dv->start[pc] ? q0 : dv->start[pc];                     \
            const int64_t b = q1 < dv->end[pc] ? q1 : dv->end[pc];                         \
            if (dv->i64) FS_SCALAR_LOOP(true, T, RED)                                      \
            else FS_SCALAR_LOOP(false, T, RED)                                             \
        }                                                                                  \
    }
FS_EACH_RED(FS_SCALARS, f32, float)
FS_EACH_RED(FS_SCALARS, f64, double)

/* The grouped rows [lo, hi) of a scatter of one value repeated (p->const_updates): each row
 * with edges combines the value once per edge into its start (data's, the fill, the reset
 * value, or in place itself), the epilogue after; osc_fs_job.rows' signature. */
#define FS_COUNTS(TN, T, RED)                                                              \
    static void fsn_##TN##_##RED(const osc_fs_job *j, int64_t lo, int64_t hi,               \
                                 const char *const *opnd) {                                \
        (void)opnd;                                                                        \
        const uint32_t *row_at = j->s.row_at;                                              \
        T *out = (T *)(void *)j->out;                                                      \
        const T *data = j->data ? (const T *)(const void *)j->data : j->fill ? NULL : out; \
        const T c = *(const T *)(const void *)j->x;                                        \
        for (int64_t d = lo; d < hi; d++) {                                                \
            const bool reached = row_at[d + 1] > row_at[d];                                \
            T o = reached && j->p->reset ? (T)j->p->reset_value                            \
                : data ? data[d] : (T)j->fill_value;                                       \
            for (uint32_t q = row_at[d]; q < row_at[d + 1]; q++) o = FS_##RED(T, o, c);    \
            out[d] = o;                                                                    \
        }                                                                                  \
        osc_fs_epilogue_rows(j, lo, hi);                                                   \
    }
FS_EACH_RED(FS_COUNTS, f32, float)
FS_EACH_RED(FS_COUNTS, f64, double)
static osc_fs_rows_fn counts_fn(int32_t dtype, int32_t red) {
    static const osc_fs_rows_fn f32[] = FS_RED_TABLE(fsn, f32), f64[] = FS_RED_TABLE(fsn, f64);
    return FS_RED_PICK(f32, f64, dtype, red);
}

typedef void (*fs_edges_fn)(const osc_fs_job *j, int64_t lo, int64_t hi, int64_t q0, int64_t q1,
                            const char *const *opnd);
static fs_edges_fn edges_fn(int32_t dtype, int32_t red) {
    static const fs_edges_fn f32[] = FS_RED_TABLE(fs, f32), f64[] = FS_RED_TABLE(fs, f64);
    return FS_RED_PICK(f32, f64, dtype, red);
}
static fs_edges_fn scalars_fn(int32_t dtype, int32_t red) {
    static const fs_edges_fn f32[] = FS_RED_TABLE(fsc, f32), f64[] = FS_RED_TABLE(fsc, f64);
    return FS_RED_PICK(f32, f64, dtype, red);
}

void osc_fs_set_start(osc_fs_job *j, const osc_tensor *data) {
    j->fill = !data || j->p->fill_data;
    j->fill_value = j->p->fill_data ? j->p->fill_value : 0;
    j->data = !j->fill && data->data != j->out ? data->data : NULL;
}

void osc_fs_start_rows(const osc_fs_job *j, int64_t lo, int64_t hi) {
    const size_t rb = (size_t)j->p->row * j->esize, n = (size_t)(hi - lo) * (size_t)j->p->row;
    char *o = j->out + (size_t)lo * rb;
    if (hi <= lo || (!j->fill && !j->data)) return;
    if (j->data) memcpy(o, j->data + (size_t)lo * rb, n * j->esize);
    else if (j->fill_value == 0 && !signbit(j->fill_value)) memset(o, 0, n * j->esize);
    else if (j->esize == sizeof(float))
        for (size_t i = 0; i < n; i++) ((float *)(void *)o)[i] = (float)j->fill_value;
    else
        for (size_t i = 0; i < n; i++) ((double *)(void *)o)[i] = j->fill_value;
}

#define FS_RESET(TN, T)                                                                    \
    static void fs_reset_##TN(const osc_fs_job *j, int64_t lo, int64_t hi, int64_t q0,      \
                              int64_t q1) {                                                \
        const int64_t R = j->p->row, N = j->s.n_rows, ds = j->p->dst_stride;               \
        const T c = (T)j->p->reset_value;                                                  \
        osc_ixc cd = osc_ixc_of(&j->s.dst);                                                \
        int64_t last = -1; /* a run of edges into one row (a kNN list) resets it once */   \
        for (int64_t q = q0; q < q1; q++) {                                                \
            const int64_t e = j->s.list ? j->s.list[q] : q;                                \
            const int64_t d = osc_ixc_row(&cd, e * ds, N);                                 \
            if (d == last || d < lo || d >= hi) continue;                                  \
            last = d;                                                                      \
            T *o = (T *)(void *)j->out + d * R;                                            \
            for (int64_t i = 0; i < R; i++) o[i] = c;                                      \
        }                                                                                  \
    }
FS_RESET(f32, float)
FS_RESET(f64, double)

#define FS_EPI(TN, T)                                                                      \
    static void fs_epi_##TN(const osc_fs_job *j, int64_t lo, int64_t hi) {                  \
        const int64_t R = j->p->row;                                                       \
        const T *w = (const T *)(const void *)j->epi;                                      \
        for (int64_t d = lo; d < hi; d++) {                                                \
            T *o = (T *)(void *)j->out + d * R;                                            \
            FS_EPILOGUE(T, j->p, o, R, w, d);                                              \
        }                                                                                  \
    }
FS_EPI(f32, float)
FS_EPI(f64, double)

void osc_fs_epilogue_rows(const osc_fs_job *j, int64_t lo, int64_t hi) {
    if (j->p->has_epi && j->esize == sizeof(float)) fs_epi_f32(j, lo, hi);
    else if (j->p->has_epi) fs_epi_f64(j, lo, hi);
}

void osc_fs_reset_rows(const osc_fs_job *j, int64_t lo, int64_t hi, int64_t q0, int64_t q1) {
    if (j->p->reset && j->esize == sizeof(float)) fs_reset_f32(j, lo, hi, q0, q1);
    else if (j->p->reset) fs_reset_f64(j, lo, hi, q0, q1);
}

/* One part: its rows of the output start as data (or zeros), then its edges (or, grouped by
 * destination, the row loop does both). */
static void fs_part(void *ctx, int32_t part, int32_t parts) {
    (void)parts;
    const osc_fs_job *j = ctx;
    const int64_t lo = j->s.bounds[part], hi = j->s.bounds[part + 1];
    if (j->s.row_at && j->rows) {
        j->rows(j, lo, hi, j->opnd);
        return;
    }
    osc_fs_start_rows(j, lo, hi);
    const bool list = j->s.list != NULL;
    const int64_t q0 = list ? j->s.at[part] : 0, q1 = list ? j->s.at[part + 1] : j->p->edges;
    osc_fs_reset_rows(j, lo, hi, q0, q1);
    j->edges(j, lo, hi, q0, q1, j->opnd);
    osc_fs_epilogue_rows(j, lo, hi);
}

/* Splitting the rows among threads: destinations are counted in at most SPLIT_B buckets of
 * 2^shift rows (a shift, not a division, per edge); part boundaries fall on bucket boundaries. */
#define SPLIT_B 1024
typedef struct split_job {
    osc_fs_split *s;
    int32_t phase;          /* 0: histograms, 1: the lists */
    int32_t shift;          /* row d is in bucket d >> shift */
    int64_t *hist;          /* [parts][SPLIT_B]: thread t's edges per bucket */
    int64_t *cnt;           /* [parts][parts]: where thread t's next edge of part q goes */
    int32_t part_of[SPLIT_B];
    uint32_t *list;
} split_job;

/* One thread's range of edges, in the phase the job is at. */
static void split_part(void *ctx, int32_t t, int32_t parts) {
    split_job *sj = ctx;
    const osc_fs_split *s = sj->s;
    const int64_t N = s->n_rows, ds = s->dst_stride;
    const int32_t sh = sj->shift;
    int64_t e0, e1;
    osc_par_range(s->edges, 1, t, parts, &e0, &e1);
    osc_ixc c = osc_ixc_of(&s->dst);
    if (sj->phase == 0) {
        int64_t *h = sj->hist + (size_t)t * SPLIT_B;
        for (int64_t e = e0; e < e1; e++) h[osc_ixc_row(&c, e * ds, N) >> sh]++;
    } else {
        int64_t *n = sj->cnt + (size_t)t * parts;
        for (int64_t e = e0; e < e1; e++)
            sj->list[n[sj->part_of[osc_ixc_row(&c, e * ds, N) >> sh]]++] = (uint32_t)e;
    }
}

void osc_fs_split_one(osc_fs_split *s) {
    s->bounds[0] = s->at[0] = 0;
    s->bounds[1] = s->n_rows;
    s->at[1] = s->edges;
    s->list = NULL;
    s->row_at = NULL;
}

bool osc_fs_split_rows(osc_fs_split *s, osc_tpool *pool, osc_scratch *scratch) {
    const int32_t parts = osc_tpool_size(pool);
    const int64_t N = s->n_rows, E = s->edges;
    split_job sj = {.s = s};
    while (N > 0 && (N - 1) >> sj.shift >= SPLIT_B) sj.shift++;
    const int64_t width = (int64_t)1 << sj.shift;
    const size_t counts = ((size_t)parts * SPLIT_B + (size_t)parts * (size_t)parts) * 8;
    char *mem = E <= UINT32_MAX && scratch
                    ? osc_scratch_get(scratch, counts + (size_t)E * sizeof(uint32_t)) : NULL;
    s->bounds[0] = s->at[0] = 0;
    s->list = NULL;
    s->row_at = NULL;
    if (!mem) {
        for (int32_t t = 1; t <= parts; t++) s->bounds[t] = N * t / parts;
        return false;
    }
    memset(mem, 0, counts);
    sj.hist = (int64_t *)(void *)mem;
    sj.cnt = sj.hist + (size_t)parts * SPLIT_B;
    sj.list = (uint32_t *)(void *)(mem + counts);
    osc_tpool_run(pool, split_part, &sj);
    /* parts of about E / parts edges each, from the buckets' totals */
    int64_t seen = 0;
    int32_t t = 1;
    for (int32_t b = 0; b < SPLIT_B; b++) {
        for (int32_t q = 0; q < parts; q++) seen += sj.hist[(size_t)q * SPLIT_B + b];
        sj.part_of[b] = t - 1;
        for (; t < parts && seen * parts >= E * t; t++) {
            s->bounds[t] = (b + 1) * width < N ? (b + 1) * width : N;
            s->at[t] = seen;
        }
    }
    for (; t <= parts; t++) {
        s->bounds[t] = N;
        s->at[t] = E;
    }
    /* thread u's edges of part q, from its histogram, go after those of threads 0..u-1 */
    for (int32_t u = 0; u < parts; u++)
        for (int32_t b = 0; b < SPLIT_B; b++)
            sj.cnt[(size_t)u * parts + sj.part_of[b]] += sj.hist[(size_t)u * SPLIT_B + b];
    for (int32_t q = 0; q < parts; q++) {
        int64_t at = s->at[q];
        for (int32_t u = 0; u < parts; u++) {
            int64_t *c = &sj.cnt[(size_t)u * parts + q];
            const int64_t n = *c;
            *c = at;
            at += n;
        }
    }
    sj.phase = 1;
    osc_tpool_run(pool, split_part, &sj);
    s->list = sj.list;
    return true;
}

/* The split of a fused scatter's destination index among threads (or its grouping by
 * destination, on any thread count), kept by the session (osc_kshared) for the rest of the run
 * so that the other fused scatters reading the same index value reuse it instead of listing
 * the edges again, and its lists' memory between runs. */
typedef struct split_memo {
    uint64_t run;  /* the run `value` belongs to (0: a new memo) */
    int32_t value; /* the index's graph value split in this run (-1: none) */
    int32_t hint;  /* the value split in the run before (-1: none) */
    bool hint_grouped; /* and that split was grouped */
    const void *dst;
    int32_t parts;
    int64_t n_rows, edges, dst_stride;
    int64_t bounds[OSC_MAX_THREADS + 1], at[OSC_MAX_THREADS + 1];
    const uint32_t *list, *row_at;
    osc_scratch mem; /* the lists, kept between runs */
} split_memo;

static const char k_memo_key = 0; /* the memo's key in the session's store (its address) */

static void drop_memo(void *state) { osc_scratch_free(&((split_memo *)state)->mem); }

/* The session's memo, turned over to this run; NULL without one. */
static split_memo *memo_of(osc_kctx *k) {
    split_memo *m = osc_kshared(k, &k_memo_key, sizeof *m, drop_memo);
    if (m && m->run != k->run) {
        m->hint = m->run && m->value >= 0 ? m->value : -1;
        m->hint_grouped = m->hint >= 0 && m->row_at;
        m->value = -1;
        m->run = k->run;
        m->mem.alloc = k->alloc;
    }
    return m;
}

bool osc_fs_split_shared(osc_kctx *k, osc_fs_split *s, int32_t make) {
    split_memo *m = memo_of(k);
    const int32_t v = s->key, parts = osc_tpool_size(k->tpool);
    bool group = make & OSC_FS_SPLIT_GROUP;
    make &= ~OSC_FS_SPLIT_GROUP;
    const bool fits = m && v >= 0 && m->parts == parts && m->n_rows == s->n_rows &&
                      m->edges == s->edges && m->dst_stride == s->dst_stride;
    /* this run's split of the index, or the run before's when the index is known the same */
    const bool same = fits && ((m->value == v && m->dst == s->dst.p[0]) ||
                               (s->same && m->hint == v && m->list));
    if (same && (m->row_at || !group)) {
        m->value = v;
        m->dst = s->dst.p[0];
        memcpy(s->bounds, m->bounds, sizeof s->bounds);
        memcpy(s->at, m->at, sizeof s->at);
        s->list = m->list;
        s->row_at = m->row_at;
        return true;
    }
    const bool small = make != OSC_FS_SPLIT_MAKE;
    const bool hinted = m && v >= 0 && m->hint == v;
    if (!same && (make == OSC_FS_SPLIT_REUSE || (small && !hinted && !group))) return false;
    group = group || (hinted && m->hint_grouped); /* (same: the memo's split is to be grouped) */
    osc_scratch *mem = k->scratch;
    if (m) { /* its lists are overwritten (or freed, when the scratch cannot grow) */
        mem = &m->mem;
        m->value = -1;
    }
    if (group && osc_fs_group_rows(s, k->tpool, mem)) {
        /* grouped */
    } else if (parts == 1 || !osc_fs_split_rows(s, k->tpool, mem)) {
        if (!small && parts > 1) return true; /* rows split evenly, every part walks every edge */
        osc_fs_split_one(s);
        return false;
    }
    if (m && v >= 0) {
        *m = (split_memo){.run = m->run, .value = v, .hint = m->hint,
                          .hint_grouped = m->hint_grouped, .dst = s->dst.p[0], .parts = parts,
                          .n_rows = s->n_rows, .edges = s->edges, .dst_stride = s->dst_stride,
                          .list = s->list, .row_at = s->row_at, .mem = m->mem};
        memcpy(m->bounds, s->bounds, sizeof m->bounds);
        memcpy(m->at, s->at, sizeof m->at);
    }
    return true;
}

bool osc_fs_split_in_scratch(const osc_kctx *k, const osc_fs_split *s) {
    const uintptr_t p = k->scratch ? (uintptr_t)k->scratch->p : 0, l = (uintptr_t)s->list;
    return p && l >= p && l < p + k->scratch->size;
}

static const char *const k_what[4] = {"data", "indices", "updates", "source indices"};

/* The dtype of a fused scatter's updates and output (input 2's, or p's without it). */
static int32_t fs_dtype(const osc_fs_params *p, const osc_tensor *const *in) {
    return p->const_updates ? p->dtype : in[2]->dtype;
}

osc_status osc_fs_check_scatter(osc_kctx *k, const osc_fs_params *p, int32_t dtype,
                                const osc_tensor *const *in, int32_t n_in) {
    char a[256];
    const osc_tensor *data = n_in > 0 ? in[0] : NULL;
    if (data && (data->dtype != dtype || data->rank != p->rank ||
                 memcmp(data->dims, p->dims, (size_t)p->rank * sizeof p->dims[0]) != 0))
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) is %s %s; the fusion was made "
                         "for %s data of the output's shape", osc_kinput_name(k, 0),
                         osc_dtype_get(data->dtype)->name, osc_shape_str(data, a, sizeof a),
                         osc_dtype_get(dtype)->name);
    osc_ixv dst;
    return osc_ixv_bind(k, &p->dst_pc, 1, "indices", in, n_in, p->dst_stride ? p->edges : 1,
                        &dst);
}

osc_status osc_fs_prepare(osc_kctx *k, const osc_fs_params *p, int32_t dtype,
                          const osc_tensor *const *in, int32_t n_in, const osc_tensor *out,
                          int32_t n_out, osc_fs_split *s, size_t *bytes) {
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    const int64_t n_rows = p->rank > 0 ? p->dims[0] : 1;
    *bytes = (size_t)(n_rows * p->row) * (osc_dtype_get(dtype)->bits / 8);
    if (out->dtype != dtype || out->nbytes < *bytes)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 (%zu bytes) cannot hold the %zu-byte result",
                         out->nbytes, *bytes);
    *s = (osc_fs_split){.key = p->dst_pc.n ? p->dst_pc.value : k->node->inputs[1],
                        .dst_stride = p->dst_stride, .n_rows = n_rows, .edges = p->edges};
    osc_fs_split_one(s);
    osc_status st = osc_ixv_bind(k, &p->dst_pc, 1, "indices", in, n_in,
                                 p->dst_stride ? p->edges : 1, &s->dst);
    /* (no edges: the unfused graph's Expanded index has no element to check either) */
    return st || !p->edges ? st : osc_ixv_check(k, &s->dst, &p->dst_pc, 1, "indices", "", n_rows,
                                                 &s->same);
}

/* A PAIR step's tables (step s, its source table a): one value per row of X (x_rows) and one
 * per output row, of the output's dtype. Their Gathers checked the indices against their own
 * lengths; the fused node checks them against X's and the output's rows, the same ranges. */
static osc_status check_pair(osc_kctx *k, const osc_fs_params *p, const osc_fs_step *sp,
                             int32_t s, const osc_tensor *a, const osc_tensor *const *in,
                             int32_t n_in, int64_t x_rows) {
    const osc_tensor *b = sp->pair_input < n_in ? in[sp->pair_input] : NULL;
    const int64_t n_rows = p->rank > 0 ? p->dims[0] : 1;
    for (int32_t t = 0; t < 2; t++) {
        const osc_tensor *w = t ? b : a;
        const int64_t want = t ? n_rows : x_rows;
        char sh[256];
        if (!w || w->dtype != a->dtype || w->rank < 1 || w->dims[0] != want ||
            osc_tensor_count(w) != want)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d (the table step %d reads at each "
                             "edge's %s row, %s) is %s %s; expected %lld values, one per %s",
                             t ? sp->pair_input : OSC_FS_IN_STEPS + s, s + 1,
                             t ? "destination" : "source",
                             osc_kinput_name(k, t ? sp->pair_input : OSC_FS_IN_STEPS + s),
                             w ? osc_dtype_get(w->dtype)->name : "missing",
                             w ? osc_shape_str(w, sh, sizeof sh) : "", (long long)want,
                             t ? "output row" : "row of input 2");
    }
    return OSC_OK;
}

osc_status osc_fs_check(osc_kctx *k, const osc_fs_params *p, const osc_tensor *const *in,
                        int32_t n_in, osc_ixv *src) {
    char a[256];
    for (int32_t i = 1; i < (p->const_updates ? 2 : 3); i++) {
        osc_status st = osc_need_input(k, in, n_in, i, k_what[i]);
        if (st) return st;
    }
    const int32_t dtype = fs_dtype(p, in);
    if (dtype != OSC_FLOAT && dtype != OSC_DOUBLE)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 2 (%s) has dtype %s; expected float or double",
                         osc_kinput_name(k, 2), osc_dtype_get(dtype)->name);
    const osc_tensor *x = in[2];
    osc_status st = osc_fs_check_scatter(k, p, dtype, in, n_in);
    if (st || p->const_updates) return st;
    int64_t x_rows = p->edges;
    if (p->gather) {
        if ((st = osc_ixv_bind(k, &p->src_pc, 3, k_what[3], in, n_in, p->edges, src))) return st;
        x_rows = x->rank > 0 ? x->dims[0] : 0;
    }
    if (x->rank < 1 || osc_tensor_count(x) != x_rows * p->row)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 2 (%s) has shape %s; expected %lld rows of "
                         "%lld elements", osc_kinput_name(k, 2), osc_shape_str(x, a, sizeof a),
                         (long long)x_rows, (long long)p->row);
    for (int32_t s = 0; s < p->n_steps; s++) {
        const osc_fs_step *sp = &p->steps[s];
        if (sp->tiled) continue; /* computed by the tiled scatter's region */
        const osc_tensor *o = OSC_FS_IN_STEPS + s < n_in ? in[OSC_FS_IN_STEPS + s] : NULL;
        if (!o || o->dtype != dtype || o->rank != sp->orank ||
            memcmp(o->dims, sp->odims, (size_t)sp->orank * sizeof sp->odims[0]) != 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d (operand of step %d, %s) is not the %s "
                             "tensor of the shape the fusion was made for",
                             OSC_FS_IN_STEPS + s, s + 1,
                             osc_kinput_name(k, OSC_FS_IN_STEPS + s), osc_dtype_get(dtype)->name);
        if (sp->read == OSC_FS_PAIR && (st = check_pair(k, p, sp, s, o, in, n_in, x_rows)))
            return st;
    }
    const bool in_epi = p->has_epi && p->epi.read != OSC_FS_ONE; /* an operand input */
    const osc_tensor *w = in_epi && p->epi_input < n_in ? in[p->epi_input] : NULL;
    const bool per_row = p->epi.read == OSC_FS_ROW;
    if (in_epi &&
        (!w || w->dtype != dtype ||
         !(per_row ? osc_fs_is_per_row : osc_fs_is_row_operand)(w, p->rank, p->dims)))
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d (the operand of the elementwise op after the "
                         "scatter, %s) is %s %s; expected %s, %s (%lld)", (int)p->epi_input,
                         osc_kinput_name(k, p->epi_input),
                         w ? osc_dtype_get(w->dtype)->name : "missing",
                         w ? osc_shape_str(w, a, sizeof a) : "", osc_dtype_get(dtype)->name,
                         per_row ? "one value per output row" : "one output row of values",
                         (long long)(per_row ? p->rank > 0 ? p->dims[0] : 1 : p->row));
    if (!edges_fn(dtype, p->reduction))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "reduction '%s' on %s",
                         osc_reduction_name(p->reduction), osc_dtype_get(dtype)->name);
    return OSC_OK;
}

/* p with its symbols replaced by the sizes the inputs have (*rp, its steps in steps[]): the
 * checks against p then check those inputs too; p itself when it has none; NULL on error. */
static const osc_fs_params *resolve(osc_kctx *k, const osc_fs_params *p,
                                    const osc_tensor *const *in, int32_t n_in, osc_fs_params *rp,
                                    osc_fs_step *steps) {
    int64_t v[OSC_SYM_MAX];
    if (!p->syms.n) return p;
    if (osc_sym_resolve(k, &p->syms, in, n_in, v)) return NULL;
    *rp = *p;
    osc_sym_subst(&p->syms, v, &rp->edges, 1);
    osc_sym_subst(&p->syms, v, rp->dims, rp->rank);
    rp->steps = memcpy(steps, p->steps, (size_t)p->n_steps * sizeof *steps);
    for (int32_t s = 0; s < p->n_steps; s++) {
        osc_sym_subst(&p->syms, v, steps[s].dims, steps[s].rank);
        osc_sym_subst(&p->syms, v, steps[s].odims, steps[s].orank);
    }
    return rp;
}

osc_status osc_gs_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    osc_fs_params rp;
    osc_fs_step steps[OSC_FS_MAX_STEPS];
    const osc_fs_params *p = resolve(k, k->params, in, n_in, &rp, steps);
    if (!p) return k->err->status;
    osc_ixv src;
    osc_status st = osc_fs_check(k, p, in, n_in, &src);
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    out->dtype = fs_dtype(p, in);
    out->rank = p->rank;
    memcpy(out->dims, p->dims, (size_t)p->rank * sizeof p->dims[0]);
    return OSC_OK;
}

osc_status osc_fs_bind(osc_kctx *k, const osc_fs_params *p, const osc_tensor *const *in,
                       int32_t n_in, osc_tensor *out, int32_t n_out, osc_fs_job *j,
                       size_t *bytes) {
    osc_ixv src = {0};
    osc_status st = osc_fs_check(k, p, in, n_in, &src);
    if (st) return st;
    const osc_tensor *data = n_in > 0 ? in[0] : NULL;
    const int32_t dtype = fs_dtype(p, in);
    *j = (osc_fs_job){.p = p, .out = out ? out->data : NULL, .x_mask = -1,
                      .esize = osc_dtype_get(dtype)->bits / 8,
                      .edges = edges_fn(dtype, p->reduction), .src = src};
    if (p->const_updates) { /* (the loop of scalars reads the value at every edge) */
        j->one.f = (float)p->update_value;
        if (dtype == OSC_DOUBLE) j->one.d = p->update_value;
        j->x = (const char *)&j->one;
        j->x_mask = 0;
    } else {
        j->x = in[2]->data;
        j->x_rows = in[2]->dims[0];
    }
    st = osc_fs_prepare(k, p, dtype, in, n_in, out, n_out, &j->s, bytes);
    if (!st && p->gather)
        st = osc_ixv_check(k, &src, &p->src_pc, 3, k_what[3], ", the indices of the fused Gather",
                           j->x_rows, NULL);
    if (st) return st;
    osc_fs_set_start(j, data);
    for (int32_t s = 0; s < p->n_steps; s++) {
        j->opnd[s] = p->steps[s].tiled ? NULL : in[OSC_FS_IN_STEPS + s]->data;
        j->pair[s] = p->steps[s].read == OSC_FS_PAIR ? in[p->steps[s].pair_input]->data : NULL;
    }
    j->epi = p->has_epi && p->epi.read != OSC_FS_ONE ? in[p->epi_input]->data : NULL;
    return OSC_OK;
}

/* A PAIR step's values, one per edge in edge order into w: the source table's value at the
 * edge's source row times the destination table's at its destination row (the unfused Mul's
 * product of the two Gathers). */
#define FS_PAIR_VALUES(T)                                                                  \
    {                                                                                      \
        const T *a = (const T *)(const void *)j->opnd[s];                                  \
        const T *b = (const T *)(const void *)j->pair[s];                                  \
        T *w = (T *)(void *)at;                                                            \
        osc_ixc cs = osc_ixc_of(&j->src), cd = osc_ixc_of(&j->s.dst);                      \
        for (int64_t e = 0; e < p->edges; e++)                                             \
            w[e] = (T)(a[osc_ixc_row(&cs, e, j->x_rows)] *                                 \
                       b[osc_ixc_row(&cd, e * p->dst_stride, j->s.n_rows)]);               \
    }

/* The values of each PAIR step the row loop does not place (osc_fs_places: split in `parts`),
 * made into a block of k->alloc (*mem, *bytes; NULL, 0: none) that j->opnd then points at, to
 * be read as a ROW step's. Before the first write: without the memory the run fails cleanly. */
static osc_status pair_values(osc_kctx *k, osc_fs_job *j, int32_t parts, void **mem,
                              size_t *bytes) {
    const osc_fs_params *p = j->p;
    bool make[OSC_FS_MAX_STEPS];
    int32_t n = 0;
    for (int32_t s = 0; s < p->n_steps; s++)
        n += make[s] = p->steps[s].read == OSC_FS_PAIR && !osc_fs_places(j, parts, s);
    const size_t per = (size_t)p->edges * j->esize;
    *bytes = per * (size_t)n;
    *mem = *bytes ? osc_malloc(k->alloc, *bytes) : NULL;
    if (*bytes && !*mem)
        return osc_kfail(k, OSC_ERR_NOMEM, "out of memory for the values of %d steps reading "
                         "two tables at each of %lld edges (%zu bytes)", (int)n,
                         (long long)p->edges, *bytes);
    char *at = *mem;
    for (int32_t s = 0; *bytes && s < p->n_steps; s++) {
        if (!make[s]) continue;
        if (j->esize == sizeof(float)) FS_PAIR_VALUES(float)
        else FS_PAIR_VALUES(double)
        j->opnd[s] = at;
        j->pair[s] = NULL; /* (the values made: read per edge, a part that places them too) */
        at += per;
    }
    return OSC_OK;
}

osc_status osc_gs_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    osc_fs_params rp;
    osc_fs_step steps[OSC_FS_MAX_STEPS];
    const osc_fs_params *p = resolve(k, k->params, in, n_in, &rp, steps);
    if (!p) return k->err->status;
    osc_fs_job j;
    size_t bytes;
    osc_status st = osc_fs_bind(k, p, in, n_in, out, n_out, &j, &bytes);
    if (st) return st;
    /* Validation is complete: from here on the output is written. */
    const int32_t dtype = fs_dtype(p, in);
    if (p->const_updates) { /* by the grouping the run before made of the index, else as below */
        j.rows = counts_fn(dtype, p->reduction);
        if (j.s.n_rows > 1 && osc_fs_split_shared(k, &j.s, OSC_FS_SPLIT_HINTED) && j.s.row_at) {
            osc_tpool_run(k->tpool, fs_part, &j);
            return OSC_OK;
        }
        osc_fs_split_one(&j.s);
    }
    if (FS_SCALARS_RUN(p, bytes) || p->const_updates) {
        j.edges = scalars_fn(dtype, p->reduction);
        fs_part(&j, 0, 1);
        return OSC_OK;
    }
    const size_t work = bytes + (size_t)(p->edges * p->row) * j.esize;
    const bool small = (size_t)p->row * j.esize < OSC_FS_PAR_ROW_BYTES;
    const bool group = bytes >= OSC_FS_GROUP_MIN_BYTES && p->dst_stride &&
                       p->edges * 4 >= j.s.n_rows;
    j.rows = osc_fs_rows_of(dtype, p->reduction);
    const bool split = ((k->tpool && work >= OSC_PAR_MIN_BYTES) || group) && j.s.n_rows > 1 &&
                       osc_fs_split_shared(k, &j.s, (small ? OSC_FS_SPLIT_HINTED
                                                           : OSC_FS_SPLIT_MAKE) |
                                                        (group ? OSC_FS_SPLIT_GROUP : 0));
    void *vals;
    size_t vals_bytes;
    if ((st = pair_values(k, &j, split ? osc_tpool_size(k->tpool) : 1, &vals, &vals_bytes)))
        return st;
    if (split) osc_tpool_run(k->tpool, fs_part, &j);
    else fs_part(&j, 0, 1);
    osc_free(k->alloc, vals, vals_bytes);
    return OSC_OK;
}

osc_status osc_fused_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)node;
    if (!*params)
        return osc_kfail(k, OSC_ERR_MODEL, "a node of this fused kernel is made only by the "
                         "load-time rewrite, never read from a model");
    return OSC_OK;
}
