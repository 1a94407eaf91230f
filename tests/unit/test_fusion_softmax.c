/* test_fusion_softmax.c: rule segment_softmax (rewrite/rule_segment_softmax.c) and its kernel
 * SegmentSoftmax (ops/fused/fused_softmax.c). The graph, as torch writes PyG's softmax(e, dst)
 * (GAT's attention):
 *     m = ScatterElements max of e by dst (rows start at -inf: a reset scatter, or a -inf fill)
 *     t = Exp(e - Gather(m, dst));  s = ScatterElements add of t by dst into rows of one value
 *     y = t / (Gather(s, dst) + eps)     (or eps + ..., or no eps)
 * dst plain or a Concat of two pieces (edges, then self loops), negative values too. e holds
 * NaN, -inf and a destination whose every value is -inf. Fused, y must be one SegmentSoftmax's
 * and equal, bit for bit (any NaN for a NaN), a loop written here and the unfused graph, on every
 * thread count, at sizes where the kernel groups the edges by destination and where it does not
 * (few edges for many rows); an index out of range fails before the output is written; a t
 * that something else reads is left unfused, with the reason. A session's runs after its first
 * ask for no memory, and each allocation of a first run failing in turn leaves a clean error
 * or, where the memory was only a help, the right output. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/check.h"
#include "tests/support/mw_check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

#include "fusion_threads.h"

enum { H = 2 };

typedef struct spelling {
    int32_t dtype;
    bool pieces;   /* dst = Concat(edges, loops) */
    bool reset;    /* the max's rows start by a scatter of -inf (torch's), else a -inf fill */
    int eps;       /* 0: none, 1: Add(s, eps), 2: Add(eps, s) */
    bool t_output; /* t is a graph output too */
    double sum0;   /* the sum's rows start at this value */
    int twist;     /* 0; else a change that leaves the chain unfused (k_twists) */
    int64_t n, e0, loops; /* rows, edges, self loops (E = e0 + loops) */
} spelling;

/* torch's eps is 1e-16, which the sums (each at least 1, the max's own term) absorb; this one
 * shows in the bits */
static const double k_eps = 0.375;

static uint32_t g_rng = 12345u;
static uint32_t rnd(void) {
    g_rng = g_rng * 1664525u + 1013904223u;
    return g_rng >> 8;
}

/* A constant of the spelling's dtype, every element v. */
static void constant(osc_mw *mw, const spelling *s, const char *name, int32_t rank,
                     const int64_t *dims, double v) {
    int64_t n = 1;
    for (int32_t i = 0; i < rank; i++) n *= dims[i];
    const size_t es = s->dtype == OSC_FLOAT ? 4 : 8;
    char *buf = malloc((size_t)n * es);
    assert_non_null(buf);
    for (int64_t i = 0; i < n; i++) {
        if (s->dtype == OSC_FLOAT) ((float *)(void *)buf)[i] = (float)v;
        else ((double *)(void *)buf)[i] = v;
    }
    osc_tensor t = osc_test_view(s->dtype, rank, dims, buf);
    osc_mw_initializer(mw, name, &t);
    free(buf);
}

#define NODE(op, name, n_in, out, ...)                                                      \
    osc_mw_node(mw, op, name, n_in, (const char *[]){__VA_ARGS__}, 1, (const char *[]){out})

static void *build(const spelling *s, size_t *len) {
    const int64_t E = s->e0 + s->loops, ed[2] = {E, H}, nd[2] = {s->n, H};
    const int64_t e0d[1] = {s->e0}, ld[1] = {s->loops}, one = 1, shape[2] = {E, H};
    const osc_mw_value in[4] = {{"e", s->dtype, 2, ed, NULL},
                                {"dst", OSC_INT64, 1, s->pieces ? e0d : (const int64_t *)&E, NULL},
                                {"loops", OSC_INT64, 1, ld, NULL},
                                {"dst_b", OSC_INT64, 1, &E, NULL}};
    osc_mw *mw = osc_mw_graph(18, s->twist == 4 ? 4 : s->pieces ? 3 : 2, in);
    constant(mw, s, "zeros", 2, nd, 0.0);
    constant(mw, s, "ninf_rows", 2, nd, -INFINITY);
    constant(mw, s, "ninf_edges", 2, ed, -INFINITY);
    constant(mw, s, "sum0", 2, nd, s->sum0);
    constant(mw, s, "eps", s->twist == 5 ? 3 : 0, (const int64_t[]){1, 1, 1}, k_eps);
    const osc_tensor axes = osc_test_view(OSC_INT64, 1, (const int64_t[]){1}, &one);
    const osc_tensor shp = osc_test_view(OSC_INT64, 1, (const int64_t[]){2}, shape);
    osc_mw_initializer(mw, "axes", &axes);
    osc_mw_initializer(mw, "shape", &shp);
    const char *idx = "dst";
    if (s->pieces) {
        osc_mw_attr_int(mw, NODE("Concat", "cat", 2, "idx", "dst", "loops"), "axis", 0);
        idx = "idx";
    }
    NODE("Unsqueeze", "unsqueeze", 2, "idx_col", idx, "axes");
    NODE("Expand", "expand", 2, "idx_e", "idx_col", "shape");
    const char *start = "ninf_rows";
    if (s->reset) {
        NODE("ScatterElements", "reset", 3, "r", "zeros", "idx_e", "ninf_edges");
        start = "r";
    }
    int n = NODE("ScatterElements", "max", 3, "m", start, "idx_e", "e");
    osc_mw_attr_string(mw, n, "reduction", "max");
    osc_mw_attr_int(mw, NODE("Gather", "gather_m", 2, "gm", "m", idx), "axis", 0);
    NODE("Sub", "sub", 2, "shifted", "e", s->twist == 1 ? "ninf_edges" : "gm");
    NODE("Exp", "exp", 1, "t", "shifted");
    n = NODE("ScatterElements", "sum", 3, "s", "sum0", "idx_e", "t");
    osc_mw_attr_string(mw, n, "reduction", "add");
    osc_mw_attr_int(mw, NODE("Gather", "gather_s", 2, "gs", "s", s->twist == 4 ? "dst_b" : idx),
                    "axis", 0);
    const char *den = s->twist == 3 ? "e" : "gs";
    if (s->eps) {
        const char *c = s->twist == 2 ? "gs" : "eps";
        NODE("Add", "add", 2, "den", s->eps == 1 ? den : c, s->eps == 1 ? c : den);
        den = "den";
    }
    NODE("Div", "div", 2, "y", "t", den);
    osc_mw_output(mw, "y", s->dtype, s->twist == 5 ? -1 : 2, ed, NULL);
    if (s->t_output) osc_mw_output(mw, "t", s->dtype, 2, ed, NULL);
    return osc_check_serialize(mw, len);
}

/* The softmax computed here, in T: each destination's max and sum over its edges in edge
 * order, as ScatterElements applies them. */
#define EXPECT(T, EXP)                                                                      \
    static void expect_##T(const spelling *s, const T *e, const int64_t *d, T *y) {         \
        const int64_t E = s->e0 + s->loops;                                                 \
        T *m = malloc(sizeof *m * (size_t)s->n * H), *sum = malloc(sizeof *m * (size_t)s->n * H); \
        assert_true(m && sum);                                                              \
        for (int64_t i = 0; i < s->n * H; i++) m[i] = (T)-INFINITY, sum[i] = (T)s->sum0;   \
        for (int64_t k = 0; k < E; k++)                                                     \
            for (int j = 0; j < H; j++) {                                                   \
                T *a = &m[d[k] * H + j];                                                    \
                const T v = e[k * H + j];                                                   \
                *a = *a >= v || isnan(*a) ? *a : v;                                         \
            }                                                                               \
        for (int64_t k = 0; k < E; k++)                                                     \
            for (int j = 0; j < H; j++) {                                                   \
                y[k * H + j] = EXP((T)(e[k * H + j] - m[d[k] * H + j]));                    \
                sum[d[k] * H + j] = (T)(sum[d[k] * H + j] + y[k * H + j]);                  \
            }                                                                               \
        const T eps = (T)k_eps;                                                             \
        for (int64_t k = 0; k < E; k++)                                                     \
            for (int j = 0; j < H; j++) {                                                   \
                const T sm = sum[d[k] * H + j];                                             \
                y[k * H + j] = (T)(y[k * H + j] / (!s->eps ? sm : s->eps == 1 ? (T)(sm + eps) \
                                                                            : (T)(eps + sm))); \
            }                                                                               \
        free(m), free(sum);                                                                 \
    }
EXPECT(float, expf)
EXPECT(double, exp)

typedef struct data {
    void *e, *want;
    int64_t *dst, *loops, *row; /* row: each edge's destination row (normalised) */
} data;

static data make(const spelling *s) {
    const int64_t E = s->e0 + s->loops;
    const size_t es = s->dtype == OSC_FLOAT ? 4 : 8;
    data d = {.e = malloc(es * (size_t)E * H), .want = malloc(es * (size_t)E * H),
              .dst = malloc(8 * (size_t)E), .loops = malloc(8 * (size_t)(s->loops + 1)),
              .row = malloc(8 * (size_t)E)};
    assert_true(d.e && d.want && d.dst && d.loops && d.row);
    for (int64_t k = 0; k < E; k++) {
        /* destination 1 only gets -inf values; negative indices count from the end */
        int64_t r = (int64_t)(rnd() % (uint32_t)s->n);
        if (k < s->e0) d.dst[k] = r % 3 == 0 ? r - s->n : r;
        else d.loops[k - s->e0] = r = (k - s->e0) % s->n;
        if (!s->pieces && k >= s->e0) d.dst[k] = r;
        d.row[k] = r;
        for (int j = 0; j < H; j++) {
            double v = (double)(rnd() % 2001) / 125.0 - 8.0;
            if (r == 1) v = -INFINITY;
            else if (rnd() % 997 == 0) v = NAN;
            else if (rnd() % 991 == 0) v = -INFINITY;
            if (s->dtype == OSC_FLOAT) ((float *)d.e)[k * H + j] = (float)v;
            else ((double *)d.e)[k * H + j] = v;
        }
    }
    if (s->dtype == OSC_FLOAT) expect_float(s, d.e, d.row, d.want);
    else expect_double(s, d.e, d.row, d.want);
    return d;
}

/* Element i of p (of the spelling's dtype) is a NaN: which NaN an operation on two NaNs gives
 * is left open by IEEE 754 (and a compiler may swap an addition's operands), so any NaN will
 * do where one is expected. */
static bool is_nan(const spelling *s, const void *p, int64_t i) {
    return s->dtype == OSC_FLOAT ? isnan(((const float *)p)[i]) : isnan(((const double *)p)[i]);
}

static void drop(data *d) { free(d->e), free(d->want), free(d->dst), free(d->loops), free(d->row); }

static void bind_all(osc_session *ss, const spelling *s, const data *d) {
    const int64_t E = s->e0 + s->loops, ed[2] = {E, H};
    const osc_tensor t[3] = {osc_test_view(s->dtype, 2, ed, d->e),
                             osc_test_view(OSC_INT64, 1, s->pieces ? &s->e0 : &E, d->dst),
                             osc_test_view(OSC_INT64, 1, &s->loops, d->loops)};
    osc_check_bind(ss, s->pieces ? 3 : 2, (const char *[]){"e", "dst", "loops"}, t);
}

/* The session's output is the loop's, bit for bit (any NaN for a NaN). */
static void expect_want(osc_session *ss, const spelling *s, const data *d, const char *what) {
    const int64_t E = s->e0 + s->loops;
    const size_t es = s->dtype == OSC_FLOAT ? 4 : 8;
    osc_tensor y;
    assert_int_equal(osc_session_output(ss, 0, &y), OSC_OK);
    assert_int_equal(y.nbytes, es * (size_t)E * H);
    for (int64_t i = 0; i < E * H; i++)
        if (memcmp((const char *)y.data + i * es, (const char *)d->want + i * es, es) &&
            !(is_nan(s, y.data, i) && is_nan(s, d->want, i)))
            fail_msg("%s: element %lld of the output differs from the loop's", what,
                     (long long)i);
}

/* Runs the spelling fused and unfused on every thread count against the loop; returns the
 * SegmentSoftmax nodes of the fused model and the Div's not_fused reason in why. With
 * `bad`, each fused session then runs with an index out of range in the last piece: the run
 * fails naming it, the output buffer keeps its bytes. */
static int check(const spelling *s, bool bad, char *why, size_t why_size) {
    size_t len = 0;
    void *buf = build(s, &len);
    data d = make(s);
    const int64_t E = s->e0 + s->loops;
    const size_t es = s->dtype == OSC_FLOAT ? 4 : 8, bytes = es * (size_t)E * H;
    int fused = 0;
    for (int f = 0; f < 2 * N_THREADS; f++) {
        osc_model *m = osc_fusion_round(buf, len, f);
        if (f % 2) fused = osc_check_fused(m, "SegmentSoftmax", "div", why, why_size);
        osc_session *ss = NULL;
        assert_int_equal(osc_session_create(m, &ss), OSC_OK);
        for (int run = 0; run < 2; run++) { /* the second run reuses the split */
            bind_all(ss, s, &d);
            if (osc_session_run(ss)) fail_msg("run: %s", osc_session_error(ss));
            char what[64];
            snprintf(what, sizeof what, "fusion %s, %d threads", f % 2 ? "on" : "off",
                     k_threads[f / 2]);
            expect_want(ss, s, &d, what);
        }
        if (bad && f % 2) {
            int64_t *at = s->pieces ? &d.loops[s->loops - 1] : &d.dst[E - 1];
            const int64_t keep = *at;
            char *out = malloc(bytes);
            assert_non_null(out);
            memset(out, 0x5a, bytes);
            assert_int_equal(osc_session_set_output_buffer(ss, 0, out, bytes), OSC_OK);
            *at = s->n;
            bind_all(ss, s, &d);
            assert_int_not_equal(osc_session_run(ss), OSC_OK);
            const char *msg = osc_session_error(ss);
            char pos[64];
            snprintf(pos, sizeof pos, "position %lld", (long long)(E - 1));
            if (!strstr(msg, pos) || !strstr(msg, "SegmentSoftmax"))
                fail_msg("the message does not name the node and the position: %s", msg);
            for (size_t i = 0; i < bytes; i++)
                if ((unsigned char)out[i] != 0x5a) fail_msg("byte %zu of the output written", i);
            *at = keep;
            free(out);
        }
        osc_session_free(ss);
        osc_model_free(m);
    }
    drop(&d);
    free(buf);
    return fused;
}

static void fused_spellings(void **state) {
    (void)state;
    static const spelling k_fused[] = {
        {OSC_FLOAT, true, true, 1, false, 0, 0, 300, 4000, 300},     /* torch's GAT */
        {OSC_FLOAT, false, false, 0, false, 0.25, 0, 300, 4000, 0},  /* a plain index, -inf fill */
        {OSC_DOUBLE, true, false, 2, false, 0.25, 0, 300, 4000, 300}, /* eps first */
        {OSC_DOUBLE, false, true, 1, false, 0, 0, 300, 4000, 100},
        /* the edges grouped by destination (at least OSC_PAR_MIN_BYTES of output) */
        {OSC_FLOAT, true, true, 1, false, 0.25, 0, 3000, 150000, 3000},
        {OSC_DOUBLE, false, false, 2, false, 0, 0, 3000, 70000, 0},
        {OSC_FLOAT, false, true, 0, false, 0.25, 0, 3000, 150000, 0},
        /* fewer edges than a quarter of the rows: never grouped, split on the tiny build */
        {OSC_FLOAT, true, true, 1, false, 0.25, 0, 3000, 500, 200},
    };
    char why[256];
    for (size_t i = 0; i < sizeof k_fused / sizeof k_fused[0]; i++)
        if (check(&k_fused[i], i == 0 || i == 4, why, sizeof why) != 1)
            fail_msg("spelling %zu not fused: %s", i, why);
}

/* Spellings the rule leaves alone, and why (info's "not fused"): a shift by a constant, a
 * divisor plus no constant, a divisor of no sum, a Gather of the sum by another index, an eps
 * of shape [1, 1, 1] (the divisor broadcast to rank 3). */
static const struct {
    int twist;
    const char *why;
} k_twists[] = {{1, "the shift is no Gather of a scatter max of the shifted value alone"},
                {2, "the divisor adds no constant of one value"},
                {3, "the divisor is no Gather of a scatter sum of the Exp alone"},
                {4, "the scatters and their Gathers do not all read one index"},
                {5, "a value of the softmax is not of its input's shape and dtype"}};

static void left_unfused(void **state) {
    (void)state;
    char why[256];
    for (size_t i = 0; i < sizeof k_twists / sizeof k_twists[0]; i++) {
        const spelling tw = {OSC_FLOAT, false, true, 1, false, 0, k_twists[i].twist, 30, 400, 0};
        size_t len;
        void *buf = build(&tw, &len);
        osc_options o;
        osc_options_init(&o);
        osc_model *m = osc_check_load_buffer(buf, len, &o);
        if (osc_check_fused(m, "SegmentSoftmax", "div", why, sizeof why))
            fail_msg("twist %d fused", k_twists[i].twist);
        if (!strstr(why, k_twists[i].why)) fail_msg("twist %d: why '%s'", k_twists[i].twist, why);
        osc_model_free(m);
        free(buf);
    }
    const spelling shared = {OSC_FLOAT, true, true, 1, true, 0, 0, 300, 4000, 300};
    assert_int_equal(check(&shared, false, why, sizeof why), 0);
    if (!strstr(why, "segment_softmax: the Exp's output is read by more than the softmax"))
        fail_msg("why: '%s'", why);
}

/* torch's GAT at a size where the kernel groups the edges by destination */
static const spelling k_gat_grouped = {OSC_FLOAT, true, true, 1, false, 0.25, 0, 3000, 150000,
                                       3000};

/* A session of the model in buf on `threads` threads, its memory through alloc. */
static osc_session *open_with(const void *buf, size_t len, int threads, osc_alloc_fn alloc,
                              void *ud, osc_model **m) {
    osc_options o;
    osc_options_init(&o);
    o.threads = threads;
    o.alloc = alloc;
    o.alloc_ud = ud;
    *m = osc_check_load_buffer(buf, len, &o);
    osc_session *ss = NULL;
    assert_int_equal(osc_session_create(*m, &ss), OSC_OK);
    return ss;
}

/* Once a session has run, its runs of the fused softmax ask the allocator for nothing, on every
 * thread count: the kernel's tables are the session's scratch block and the grouping is the
 * split memo's, both kept between runs (a table allocated per run costs its pages' mapping
 * and clearing every time). */
static void runs_allocate_nothing(void **state) {
    (void)state;
    const spelling s = k_gat_grouped;
    size_t len = 0;
    void *buf = build(&s, &len);
    data d = make(&s);
    for (int t = 0; t < N_THREADS; t++) {
        osc_test_mem mem = {0};
        osc_model *m = NULL;
        osc_session *ss = open_with(buf, len, k_threads[t], osc_test_counting_alloc, &mem, &m);
        char why[256];
        assert_int_equal(osc_check_fused(m, "SegmentSoftmax", "div", why, sizeof why), 1);
        long allocs = 0;
        for (int run = 0; run < 3; run++) {
            bind_all(ss, &s, &d);
            if (osc_session_run(ss)) fail_msg("run: %s", osc_session_error(ss));
            if (run == 2 && mem.allocs != allocs)
                fail_msg("%d threads: run 3 asked for memory %ld times", k_threads[t],
                         mem.allocs - allocs);
            allocs = mem.allocs;
        }
        osc_session_free(ss);
        osc_model_free(m);
    }
    drop(&d);
    free(buf);
}

/* Each allocation of a session's first run fails in turn, on every thread count. The run
 * then fails with OSC_ERR_NOMEM and a message, the output buffer as it was; or, where the
 * memory is only a help (the session's split memo: the split's lists then go to the scratch
 * block, and the softmax's tables to an allocation of their own), it gives the loop's bits.
 * The run after it gives them either way. */
static void allocation_failures(void **state) {
    (void)state;
    const spelling s = k_gat_grouped;
    size_t len = 0;
    void *buf = build(&s, &len);
    data d = make(&s);
    const size_t bytes = sizeof(float) * (size_t)(s.e0 + s.loops) * H;
    unsigned char *out = malloc(bytes);
    assert_non_null(out);
    for (int t = 0; t < N_THREADS; t++) {
        int errors = 0, helped = 0;
        for (long k = 1;; k++) {
            osc_test_failing f = {0};
            osc_model *m = NULL;
            osc_session *ss = open_with(buf, len, k_threads[t], osc_test_failing_alloc, &f, &m);
            f.fail_at = f.count + k;
            memset(out, 0x5a, bytes);
            assert_int_equal(osc_session_set_output_buffer(ss, 0, out, bytes), OSC_OK);
            bind_all(ss, &s, &d);
            const osc_status st = osc_session_run(ss);
            char what[64];
            snprintf(what, sizeof what, "%d threads, allocation %ld failed", k_threads[t], k);
            const bool last = !f.failed; /* k is past the run's allocations */
            if (st) {
                if (st != OSC_ERR_NOMEM || !*osc_session_error(ss))
                    fail_msg("%s: status %d, '%s'", what, (int)st, osc_session_error(ss));
                for (size_t i = 0; i < bytes; i++)
                    if (out[i] != 0x5a) fail_msg("%s: byte %zu of the output written", what, i);
                errors++;
            } else {
                expect_want(ss, &s, &d, what);
                helped += !last;
            }
            bind_all(ss, &s, &d);
            if (osc_session_run(ss)) fail_msg("%s, the run after: %s", what,
                                              osc_session_error(ss));
            expect_want(ss, &s, &d, what);
            osc_session_free(ss);
            osc_model_free(m);
            if (last) break;
        }
        if (!errors || !helped)
            fail_msg("%d threads: %d failed runs, %d runs without the memory", k_threads[t],
                     errors, helped);
    }
    free(out);
    drop(&d);
    free(buf);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(fused_spellings),
    cmocka_unit_test(runs_allocate_nothing),
    cmocka_unit_test(allocation_failures),
    cmocka_unit_test(left_unfused),
)
