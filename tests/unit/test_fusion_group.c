/* test_fusion_group.c: the fused gather-scatter grouped by destination (ops/fused/fused_group.c,
 * fused_rows.c) keeps each output row's updates in edge order. Two scatters read one
 * destination index (the second takes the first's grouping from the session's memo):
 *     y = ScatterElements(data, Expand(Unsqueeze(dst)), Gather(x, src) * Unsqueeze(w), RED)
 *     z = ScatterElements(data, Expand(Unsqueeze(dst)), Gather(x, src), max)
 * with many edges per row (a few rows take hundreds) and values of magnitudes 2^-20 .. 2^20,
 * so that a sum or product in another order gives other bits (the test checks that it does).
 * The output must equal, bit for bit, a plain loop over the edges in order written here, with
 * fusion on and off, on 1 and 2 threads (and 3 against the tiny-threshold library, whose
 * threads split every run), over two runs of a session with other indices in the second (the
 * grouping is made per run). The output, 4096 x 64 floats, is large enough to be grouped by
 * the library's own threshold. unchanged_index: the same model over runs declaring dst
 * unchanged (osc_session_input_unchanged) or not. reset_max: z's data is first reset to -inf
 * on the rows dst reaches (ScatterElements of an Expanded -inf, torch's include_self=False),
 * a reset the fused max scatter takes in. fill_max: z's data is a Constant of one value (not
 * zero) instead, which the fused scatter writes as it is: rows no edge reaches keep it.
 * hot_end: the hot rows at the output's end, where the row loop keeps its edges' source rows
 * until it writes them (fused_place.h), so it must read them through the list instead.
 * messages: y's message spelled other ways, each a loop of its own over the records the row
 * loop reads (fused_rows.c): the weight first (w * x), a quotient (x / w), two steps read per
 * edge ((x * w) + w: neither operand placed), and x as [M, H, C / H] heads times a weight per
 * edge and head ([E, H, 1], GAT's attention), H = 2, 4, 8 and 16 (1 to 16 values per edge: 16
 * is more than the records take). doubles: the same in double. */
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

#include "core/kattr.h" /* OSC_TSAN */
#include "tests/support/check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

#include "fusion_threads.h"

enum { N = 4096, C = 64, M = 3000, E = 24000 };
enum { R_ADD, R_MUL, R_MAX, R_NONE };
enum { Z_DATA, Z_RESET, Z_FILL }; /* z's data: data, data reset to -inf, a Constant of K_FILL */
enum { MSG_MUL, MSG_MUL_FIRST, MSG_DIV, MSG_TWO, MSG_HEADS }; /* y's message: x * w, ... */
enum { H_MAX = 16 };
#define K_FILL 0.75f
static const char *const k_red[] = {"add", "mul", "max", "none"};

typedef struct inputs {
    float *x, *w, *data;
    double *xd, *wd, *datad; /* the same values as doubles */
    int64_t *src, *dst;
} inputs;

static uint32_t g_rng;
static bool g_hot_end; /* the hot rows at the end of the output, not at its start */
static int g_msg = MSG_MUL, g_heads = 1; /* y's message (MSG_*), with MSG_HEADS its heads */
static bool g_double; /* x, w, data and the outputs are doubles */
#define ES (g_double ? sizeof(double) : sizeof(float))
#define DT (g_double ? OSC_DOUBLE : OSC_FLOAT)
static uint32_t rnd32(void) { return osc_test_rnd32(&g_rng); }
/* +-(1 + f) 2^k, k in [-20, 20]: sums and products depend on their order */
static float rnd_value(bool mul) {
    const int k = mul ? (int)(rnd32() % 3) - 1 : (int)(rnd32() % 41) - 20;
    float v = (1.0f + (float)(rnd32() % 8388608) / 8388608.0f);
    for (int i = 0; i < (k < 0 ? -k : k); i++) v = k < 0 ? v / 2 : v * 2;
    return rnd32() & 1 ? -v : v;
}

static void make_inputs(inputs *in, uint32_t seed, bool mul) {
    g_rng = seed;
    for (int i = 0; i < M * C; i++) in->x[i] = rnd_value(mul);
    for (int i = 0; i < N * C; i++) in->data[i] = rnd_value(mul);
    for (int e = 0; e < E * H_MAX; e++) in->w[e] = rnd_value(mul);
    for (int e = 0; e < E; e++) {
        in->src[e] = (int64_t)(rnd32() % (2 * M)) - M; /* negative ones count from the end */
        /* one edge in 8 goes to one of 4 hot rows; rows 0..N/2 only, so half have none */
        const int64_t hot = (int64_t)(rnd32() % 4) * 97;
        in->dst[e] = rnd32() % 8 == 0 ? g_hot_end ? N - 1 - hot : hot
                                      : (int64_t)(rnd32() % N) - N / 2 - N / 4;
        if (in->dst[e] < -N) in->dst[e] += N;
    }
}

/* Inputs allocated and made from seed (make_inputs); given back by free_inputs. */
static void new_inputs(inputs *in, uint32_t seed, bool mul) {
    in->x = malloc(sizeof(float) * M * C);
    in->w = malloc(sizeof(float) * E * H_MAX);
    in->data = malloc(sizeof(float) * N * C);
    in->xd = malloc(sizeof(double) * M * C);
    in->wd = malloc(sizeof(double) * E * H_MAX);
    in->datad = malloc(sizeof(double) * N * C);
    in->src = malloc(sizeof(int64_t) * E);
    in->dst = malloc(sizeof(int64_t) * E);
    assert_true(in->x && in->w && in->data && in->xd && in->wd && in->datad && in->src &&
                in->dst);
    make_inputs(in, seed, mul);
    for (int i = 0; i < M * C; i++) in->xd[i] = in->x[i];
    for (int i = 0; i < E * H_MAX; i++) in->wd[i] = in->w[i];
    for (int i = 0; i < N * C; i++) in->datad[i] = in->data[i];
}
static void free_inputs(inputs *in) {
    free(in->x), free(in->w), free(in->data), free(in->src), free(in->dst);
    free(in->xd), free(in->wd), free(in->datad);
}

/* The session's five inputs bound to in's, dst to `dst`. */
static void bind_inputs(osc_session *s, const inputs *in, const int64_t *dst) {
    const int64_t xd[3] = {M, g_heads, C / g_heads}, nd[2] = {N, C}, ed[1] = {E},
                  wd[2] = {E, g_heads};
    const bool h = g_msg == MSG_HEADS;
    void *x = g_double ? (void *)in->xd : in->x, *w = g_double ? (void *)in->wd : in->w;
    const osc_tensor t[5] = {h ? osc_test_view(DT, 3, xd, x)
                               : osc_test_view(DT, 2, (const int64_t[]){M, C}, x),
                             h ? osc_test_view(DT, 2, wd, w) : osc_test_view(DT, 1, ed, w),
                             osc_test_view(DT, 2, nd, g_double ? (void *)in->datad : in->data),
                             osc_test_view(OSC_INT64, 1, ed, in->src),
                             osc_test_view(OSC_INT64, 1, ed, dst)};
    static const char *const names[5] = {"x", "w", "data", "src", "dst"};
    osc_check_bind(s, 5, names, t);
}

/* The scatters, edge by edge in the order `order` gives (NULL: edge order), in T (X, W and
 * DATA: in's arrays of T); z's data as zd says (Z_*). y's message: g_msg. */
#define EXPECT(T, SUF, X, W, DATA)                                                             \
    static T combine_##SUF(int red, T a, T b) {                                                \
        switch (red) {                                                                         \
        case R_ADD: return a + b;                                                              \
        case R_MUL: return a * b;                                                              \
        case R_MAX: return a >= b || a != a ? a : b; /* (NaN first, as ONNX max) */            \
        default: return b;                                                                     \
        }                                                                                      \
    }                                                                                          \
    static T message_##SUF(const inputs *in, int e, const T *xs, int c) {                      \
        const T w = in->W[e];                                                                  \
        switch (g_msg) {                                                                       \
        case MSG_MUL_FIRST: return w * xs[c];                                                  \
        case MSG_DIV: return xs[c] / w;                                                        \
        case MSG_TWO: return xs[c] * w + w;                                                    \
        case MSG_HEADS: return xs[c] * in->W[e * g_heads + c / (C / g_heads)];                 \
        default: return xs[c] * w;                                                             \
        }                                                                                      \
    }                                                                                          \
    static void expect_##SUF(const inputs *in, int red, int zd, const int *order, T *y, T *z) { \
        memcpy(y, in->DATA, sizeof(T) * N * C);                                                \
        memcpy(z, in->DATA, sizeof(T) * N * C);                                                \
        for (int i = 0; zd == Z_FILL && i < N * C; i++) z[i] = K_FILL;                         \
        for (int e = 0; zd == Z_RESET && e < E; e++) {                                         \
            const int64_t d = in->dst[e] < 0 ? in->dst[e] + N : in->dst[e];                    \
            for (int c = 0; c < C; c++) z[d * C + c] = -INFINITY;                              \
        }                                                                                      \
        for (int k = 0; k < E; k++) {                                                          \
            const int e = order ? order[k] : k;                                                \
            const int64_t s = in->src[e] < 0 ? in->src[e] + M : in->src[e];                    \
            const int64_t d = in->dst[e] < 0 ? in->dst[e] + N : in->dst[e];                    \
            for (int c = 0; c < C; c++) {                                                      \
                const T m = message_##SUF(in, e, in->X + s * C, c);                            \
                y[d * C + c] = combine_##SUF(red, y[d * C + c], m);                            \
                z[d * C + c] = combine_##SUF(R_MAX, z[d * C + c], in->X[s * C + c]);           \
            }                                                                                  \
        }                                                                                      \
    }
EXPECT(float, f, x, w, data)
EXPECT(double, d, xd, wd, datad)
static void expect(const inputs *in, int red, int zd, const int *order, void *y, void *z) {
    if (g_double) expect_d(in, red, zd, order, y, z);
    else expect_f(in, red, zd, order, y, z);
}

static void *build(int red, int zd, size_t *len) {
    const int64_t xd[3] = {M, g_heads, C / g_heads}, nd[2] = {N, C}, ed[1] = {E},
                  wd[2] = {E, g_heads}, xm[2] = {M, C}, one[1] = {1}, two[1] = {2},
                  shape[2] = {E, C}, sd[1] = {2};
    const bool h = g_msg == MSG_HEADS;
    const osc_mw_value ins[5] = {{"x", DT, h ? 3 : 2, h ? xd : xm, NULL},
                                 {"w", DT, h ? 2 : 1, h ? wd : ed, NULL},
                                 {"data", DT, 2, nd, NULL},
                                 {"src", OSC_INT64, 1, ed, NULL}, {"dst", OSC_INT64, 1, ed, NULL}};
    osc_mw *mw = osc_mw_graph(18, 5, ins);
    osc_tensor t = osc_test_view(OSC_INT64, 1, one, one);
    osc_mw_initializer(mw, "axes", &t);
    t = osc_test_view(OSC_INT64, 1, one, two);
    osc_mw_initializer(mw, "axes2", &t);
    t = osc_test_view(OSC_INT64, 1, sd, shape);
    osc_mw_initializer(mw, "shape", &t);
    const float minf = -INFINITY;
    const double minf_d = -INFINITY;
    t = osc_test_view(DT, 0, NULL, g_double ? (void *)&minf_d : (void *)&minf);
    osc_mw_initializer(mw, "minus_inf", &t);
#define NODE(op, a, b, out)                                                                    \
    osc_mw_node(mw, op, NULL, 2, (const char *[]){a, b}, 1, (const char *[]){out})
    NODE("Gather", "x", "src", "xj");
    NODE("Unsqueeze", "w", h ? "axes2" : "axes", "w1");
    if (g_msg == MSG_MUL_FIRST) NODE("Mul", "w1", "xj", "msg");
    if (g_msg == MSG_DIV) NODE("Div", "xj", "w1", "msg");
    if (g_msg == MSG_TWO) NODE("Mul", "xj", "w1", "xw");
    if (g_msg == MSG_TWO) NODE("Add", "xw", "w1", "msg");
    if (g_msg == MSG_MUL) NODE("Mul", "xj", "w1", "msg");
    if (h) NODE("Mul", "xj", "w1", "heads");
    if (h) NODE("Reshape", "heads", "shape", "msg");
    NODE("Unsqueeze", "dst", "axes", "d1");
    NODE("Expand", "d1", "shape", "idx");
    NODE("Gather", "x", "src", h ? "xj3" : "xj2");
    if (h) NODE("Reshape", "xj3", "shape", "xj2");
    NODE("Unsqueeze", "dst", "axes", "d2");
    NODE("Expand", "d2", "shape", "idx2");
    if (zd == Z_FILL) { /* (float only) */
        assert_false(g_double);
        float *v = malloc(sizeof(float) * N * C);
        assert_non_null(v);
        for (int i = 0; i < N * C; i++) v[i] = K_FILL;
        t = osc_test_view(OSC_FLOAT, 2, nd, v);
        const int c = osc_mw_node(mw, "Constant", "zfill", 0, NULL, 1, (const char *[]){"zfill"});
        assert_int_equal(osc_mw_attr_tensor(mw, c, "value", &t), OSC_OK);
        free(v);
    }
    if (zd == Z_RESET) {
        NODE("Expand", "minus_inf", "shape", "fill");
        osc_mw_node(mw, "ScatterElements", "reset", 3, (const char *[]){"data", "idx2", "fill"},
                    1, (const char *[]){"reset"});
    }
#undef NODE
    int n = osc_mw_node(mw, "ScatterElements", "y", 3, (const char *[]){"data", "idx", "msg"}, 1,
                        (const char *[]){"y"});
    if (red != R_NONE) osc_mw_attr_string(mw, n, "reduction", k_red[red]);
    n = osc_mw_node(mw, "ScatterElements", "z", 3,
                    (const char *[]){zd == Z_RESET ? "reset" : zd == Z_FILL ? "zfill" : "data",
                                     "idx2", "xj2"}, 1,
                    (const char *[]){"z"});
    osc_mw_attr_string(mw, n, "reduction", "max");
    osc_mw_output(mw, "y", DT, 2, nd, NULL);
    osc_mw_output(mw, "z", DT, 2, nd, NULL);
    void *buf = NULL;
    if (osc_mw_serialize(mw, &buf, len) != OSC_OK) fail_msg("writer: %s", osc_mw_error(mw));
    osc_mw_free(mw);
    return buf;
}

/* Element i of an output of floats or doubles (g_double), as a double. */
static double elem(const void *v, int i) {
    return g_double ? ((const double *)v)[i] : ((const float *)v)[i];
}

static void check_out(osc_session *s, int at, const void *want, const char *what, int red,
                      bool fused, int threads, int run) {
    osc_tensor t;
    if (osc_session_output(s, at, &t) != OSC_OK) fail_msg("output %d: %s", at, osc_session_error(s));
    assert_int_equal(t.nbytes, ES * N * C);
    for (int i = 0; i < N * C; i++)
        if (memcmp((const char *)t.data + i * ES, (const char *)want + i * ES, ES))
            fail_msg("%s (%s, %s, fusion %s, %d threads, run %d): [%d][%d] = %.17g, the loop "
                     "%.17g", what, g_double ? "double" : "float", k_red[red], fused ? "on" : "off",
                     threads, run, i / C, i % C, elem(t.data, i), elem(want, i));
}

static void check_reduction(int red, int zd) {
    inputs in[2];
    char *y = malloc(ES * N * C * 4);
    int *order = malloc(sizeof(int) * E);
    assert_non_null(y);
    assert_non_null(order);
    for (int r = 0; r < 2; r++)
        new_inputs(&in[r], 7u + 31u * (uint32_t)red + (uint32_t)r, red == R_MUL);
    const size_t nb = ES * N * C;
    char *want[2][2] = {{y, y + nb}, {y + 2 * nb, y + 3 * nb}};
    for (int r = 0; r < 2; r++) expect(&in[r], red, zd, NULL, want[r][0], want[r][1]);
    /* the data is order-sensitive: the edges reversed give other bits */
    if (red != R_MAX) {
        for (int k = 0; k < E; k++) order[k] = E - 1 - k;
        char *rev = malloc(nb * 2);
        assert_non_null(rev);
        expect(&in[0], red, Z_DATA, order, rev, rev + nb);
        assert_true(memcmp(rev, want[0][0], nb) != 0);
        free(rev);
    }
    size_t len = 0;
    void *buf = build(red, zd, &len);
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < N_THREADS; k++) {
            osc_options o;
            osc_options_init(&o);
            o.no_fusion = f == 0;
            o.threads = k_threads[k];
            osc_model *m = NULL;
            char msg[512];
            if (osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg))
                fail_msg("load: %s", msg);
            if (f) { /* both scatters fused, the reset or the fill taken in */
                int fused = 0, other = 0;
                for (size_t i = 0; i < osc_model_node_count(m); i++) {
                    osc_node_desc d;
                    assert_int_equal(osc_model_node(m, i, &d), OSC_OK);
                    fused += !d.folded && !strcmp(d.op_type, "GatherScatter");
                    other += !d.folded && ((strstr(d.op_type, "Scatter") &&
                                            strcmp(d.op_type, "GatherScatter") != 0) ||
                                           !strcmp(d.op_type, "Constant"));
                }
                assert_int_equal(fused, 2);
                assert_int_equal(other, 0);
            }
            osc_session *s = NULL;
            assert_int_equal(osc_session_create(m, &s), OSC_OK);
            for (int r = 0; r < 2; r++) {
                bind_inputs(s, &in[r], in[r].dst);
                if (osc_session_run(s) != OSC_OK) fail_msg("run: %s", osc_session_error(s));
                check_out(s, 0, want[r][0], "y", red, f, k_threads[k], r);
                check_out(s, 1, want[r][1], "z", red, f, k_threads[k], r);
            }
            osc_session_free(s);
            osc_model_free(m);
        }
    free(buf);
    for (int r = 0; r < 2; r++) free_inputs(&in[r]);
    free(order);
    free(y);
}

/* Runs of one session with input 4, dst, declared unchanged (osc_session_input_unchanged) or
 * not, and which inputs each run binds: the declared runs with the same bytes (in another
 * buffer) reuse the last run's check and grouping and give the loop's bits; a declared dst whose
 * bytes changed fails before the fused node writes (caller output buffers untouched); runs not
 * declared never reuse what was derived from other bytes. */
static void unchanged_index(void **state) {
    (void)state;
    static const struct {
        int r;        /* the inputs bound: in[r] */
        bool declare; /* dst declared unchanged */
        bool copy;    /* dst bound from a copy of its bytes */
        bool fails;
    } k_runs[] = {{0, true, false, false}, {0, true, true, false}, {0, true, false, false},
                  {1, true, false, true},  {1, false, false, false}, {1, true, false, false},
                  {1, true, true, false},  {0, false, false, false}, {0, true, false, false}};
    inputs in[2];
    float *y = malloc(sizeof(float) * N * C * 6);
    int64_t *dst_copy = malloc(sizeof(int64_t) * E);
    assert_true(y && dst_copy);
    float *want[2][2] = {{y, y + N * C}, {y + 2 * N * C, y + 3 * N * C}}, *out = y + 4 * N * C;
    for (int r = 0; r < 2; r++) {
        new_inputs(&in[r], 101u + (uint32_t)r, false);
        expect(&in[r], R_ADD, Z_DATA, NULL, want[r][0], want[r][1]);
    }
    size_t len = 0;
    void *buf = build(R_ADD, Z_DATA, &len);
    for (int k = 0; k < N_THREADS; k++) {
        osc_options o;
        osc_options_init(&o);
        o.threads = k_threads[k];
        osc_model *m = NULL;
        char msg[512];
        if (osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg))
            fail_msg("load: %s", msg);
        osc_session *s = NULL;
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        assert_int_equal(osc_session_input_unchanged(s, 5), OSC_ERR_ARG); /* no input 5 */
        assert_non_null(strstr(osc_session_error(s), "out of range"));
        assert_int_equal(osc_session_set_output_buffer(s, 0, out, sizeof(float) * N * C), OSC_OK);
        assert_int_equal(osc_session_set_output_buffer(s, 1, out + N * C, sizeof(float) * N * C),
                         OSC_OK);
        for (size_t u = 0; u < sizeof k_runs / sizeof k_runs[0]; u++) {
            const int r = k_runs[u].r;
            if (k_runs[u].copy) memcpy(dst_copy, in[r].dst, sizeof(int64_t) * E);
            bind_inputs(s, &in[r], k_runs[u].copy ? dst_copy : in[r].dst);
            if (k_runs[u].declare) assert_int_equal(osc_session_input_unchanged(s, 4), OSC_OK);
            memset(out, 0x5a, sizeof(float) * N * C * 2);
            const osc_status st = osc_session_run(s);
            if (k_runs[u].fails) {
                assert_int_equal(st, OSC_ERR_ARG);
                assert_non_null(strstr(osc_session_error(s), "'dst' was declared unchanged"));
                for (size_t i = 0; i < sizeof(float) * N * C * 2; i++)
                    if (((const unsigned char *)out)[i] != 0x5a)
                        fail_msg("run %zu (%d threads) failed but wrote the output at byte %zu", u,
                                 k_threads[k], i);
                continue;
            }
            if (st) fail_msg("run %zu: %s", u, osc_session_error(s));
            check_out(s, 0, want[r][0], "y", R_ADD, true, k_threads[k], (int)u);
            check_out(s, 1, want[r][1], "z", R_ADD, true, k_threads[k], (int)u);
        }
        osc_session_free(s);
        osc_model_free(m);
    }
    free(buf);
    for (int r = 0; r < 2; r++) free_inputs(&in[r]);
    free(dst_copy);
    free(y);
}

static void order_add(void **state) { (void)state; check_reduction(R_ADD, Z_DATA); }
static void order_mul(void **state) { (void)state; check_reduction(R_MUL, Z_DATA); }
static void order_max(void **state) { (void)state; check_reduction(R_MAX, Z_DATA); }
static void order_none(void **state) { (void)state; check_reduction(R_NONE, Z_DATA); }
static void reset_max(void **state) { (void)state; check_reduction(R_ADD, Z_RESET); }
static void fill_max(void **state) { (void)state; check_reduction(R_ADD, Z_FILL); }
/* Rows N-1, N-98, ... take hundreds of edges each: the row loop cannot keep the source rows at
 * the end of its output rows (fused_place.h) and reads them through the list. */
static void hot_end(void **state) {
    (void)state;
    g_hot_end = true;
    check_reduction(R_ADD, Z_DATA);
    check_reduction(R_MAX, Z_RESET);
    g_hot_end = false;
}

/* Under ThreadSanitizer (ten times slower) the message kinds and doubles run a case each: their
 * loops split among threads as every other case does. */
#ifdef OSC_TSAN
#define ALL_CASES 0
#else
#define ALL_CASES 1
#endif
static void messages(void **state) {
    (void)state;
    for (g_msg = MSG_MUL_FIRST; g_msg < MSG_HEADS; g_msg++)
        if (ALL_CASES || g_msg == MSG_DIV) check_reduction(R_ADD, Z_DATA);
    for (g_heads = 2; g_heads <= (ALL_CASES ? H_MAX : 2); g_heads *= 2)
        check_reduction(R_ADD, Z_DATA);
    g_heads = 8;
    if (ALL_CASES) check_reduction(R_MAX, Z_RESET);
    g_msg = MSG_MUL, g_heads = 1;
}
/* The same in double: every reduction, each message (records of 8 to 40 bytes). */
static void doubles(void **state) {
    (void)state;
    g_double = true;
    for (int red = R_ADD; red <= (ALL_CASES ? R_NONE : R_ADD); red++) check_reduction(red, Z_DATA);
    if (ALL_CASES) {
        check_reduction(R_ADD, Z_RESET);
        for (g_msg = MSG_MUL_FIRST; g_msg < MSG_HEADS; g_msg++) check_reduction(R_ADD, Z_DATA);
        for (g_heads = 2; g_heads <= 4; g_heads *= 2) check_reduction(R_MUL, Z_RESET);
    }
    g_msg = MSG_MUL, g_heads = 1, g_double = false;
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(order_add),
    cmocka_unit_test(order_mul),
    cmocka_unit_test(order_max),
    cmocka_unit_test(order_none),
    cmocka_unit_test(reset_max),
    cmocka_unit_test(fill_max),
    cmocka_unit_test(hot_end),
    cmocka_unit_test(messages),
    cmocka_unit_test(doubles),
    cmocka_unit_test(unchanged_index),
)
