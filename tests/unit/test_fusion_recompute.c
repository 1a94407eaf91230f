/* test_fusion_recompute.c: opts.fuse_recompute (ops/fused/fused_tiled.h, "TiledGatherScatter"): a
 * gather-scatter's per-edge operand computed a tile at a time, recomputing from per-node values
 * what the graph still computes for other readers. The graph is a GAT layer with one head, as
 * PyTorch exports it:
 *     e = LeakyRelu(Gather(a_s, src) + Gather(a_d, dst))          (also read by the max)
 *     m = ScatterElements(lowest, dst, e, max)
 *     ex = Exp(e - Gather(m, dst))                                 (also read by the sum)
 *     s = ScatterElements(zeros, dst, ex, add)
 *     alpha = ex / (Gather(s, dst) + eps)
 *     y = ScatterElements(zeros, Expand(Unsqueeze(dst)), Gather(h, src) * Unsqueeze(alpha), add)
 * Each variant checks which nodes the fused node replaced, and that the output is, bit for bit,
 * the same with the mode on, with fusion on without it and with fusion off, on 1 and 2 threads
 * (and 3 against the tiny-threshold library, whose tiles hold one or two edges and whose
 * threads split every output), and equal to loops here doing the same float operations. */
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

#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"
#include "tests/support/check.h"

#include "fusion_threads.h"

enum { N = 7, E = 60, C = 4 };
#define EPS 1e-16f
#define SLOPE 0.2f

enum {
    K_GAT,   /* the layer: alpha is computed in the tiles, never whole */
    K_ROWS,  /* a_d has N + 2 rows, not the output's N: its Gather reads dst as an input
              * (a negative index counts from a_d's end, not the output's) */
    K_TWICE, /* alpha is also a graph output: nothing to save, no tiles */
    K_KEPT,  /* e goes through a Cast (no region op): the region would keep an E-row value */
};

typedef struct variant {
    const char *name;
    int kind;
    const char *nodes, *fused; /* with the mode on */
} variant;

typedef struct inputs {
    float h[N * C], as[N + 2], ad[N + 2];
    int64_t src[E], dst[E];
} inputs;

static uint32_t g_rng;
static uint32_t rnd32(void) { return osc_test_rnd32(&g_rng); }
static float rnd_value(void) { /* long mantissas, either sign */
    const float v = 0.25f + (float)(rnd32() % 1000003) / 1000003.0f * 1.75f;
    return rnd32() & 1 ? -v : v;
}

static void make_inputs(int kind, inputs *in) {
    g_rng = 11u + (uint32_t)kind;
    for (int i = 0; i < N * C; i++) in->h[i] = rnd_value();
    for (int i = 0; i < N + 2; i++) in->as[i] = rnd_value(), in->ad[i] = rnd_value();
    for (int i = 0; i < E; i++) { /* negative indices and many duplicates */
        in->src[i] = (int64_t)(rnd32() % (2 * N)) - N;
        in->dst[i] = (int64_t)(rnd32() % (2 * N)) - N;
    }
}

static osc_tensor tensor(int32_t dt, int rank, const int64_t *dims, const void *data) {
    return osc_test_view(dt, rank, dims, data);
}

static void node(osc_mw *mw, const char *op, const char *name, int n_in, const char *a,
                 const char *b, const char *out) {
    const char *i[2] = {a, b}, *o[1] = {out};
    osc_mw_node(mw, op, name, n_in, i, 1, o);
}

static void scatter(osc_mw *mw, const char *name, const char *data, const char *idx,
                    const char *upd, const char *red, const char *out) {
    const int n = osc_mw_node(mw, "ScatterElements", name, 3, (const char *[]){data, idx, upd},
                              1, (const char *[]){out});
    osc_mw_attr_string(mw, n, "reduction", red);
}

static void *build(const variant *v, size_t *len) {
    const int64_t nd[1] = {N}, ad[1] = {v->kind == K_ROWS ? N + 2 : N}, ed[1] = {E},
                  hd[2] = {N, C}, one[1] = {1}, axes[1] = {1}, shape[2] = {E, C}, sd[1] = {2};
    static const float lowest[N] = {-3e38f, -3e38f, -3e38f, -3e38f, -3e38f, -3e38f, -3e38f};
    static const float zeros[N * C], eps = EPS;
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "h", OSC_FLOAT, 2, hd, NULL);
    osc_mw_input(mw, "a_s", OSC_FLOAT, 1, nd, NULL);
    osc_mw_input(mw, "a_d", OSC_FLOAT, 1, ad, NULL);
    osc_mw_input(mw, "src", OSC_INT64, 1, ed, NULL);
    osc_mw_input(mw, "dst", OSC_INT64, 1, ed, NULL);
    osc_tensor t = tensor(OSC_FLOAT, 1, nd, lowest);
    osc_mw_initializer(mw, "lowest", &t);
    t = tensor(OSC_FLOAT, 1, nd, zeros);
    osc_mw_initializer(mw, "zeros_n", &t);
    t = tensor(OSC_FLOAT, 0, NULL, &eps);
    osc_mw_initializer(mw, "eps", &t);
    t = tensor(OSC_INT64, 1, one, axes);
    osc_mw_initializer(mw, "axes", &t);
    t = tensor(OSC_INT64, 1, sd, shape);
    osc_mw_initializer(mw, "shape", &t);
    t = tensor(OSC_FLOAT, 2, hd, zeros);
    const int z = osc_mw_node(mw, "Constant", "zeros", 0, NULL, 1, (const char *[]){"zeros_nc"});
    osc_mw_attr_tensor(mw, z, "value", &t);
    node(mw, "Gather", "gather_s", 2, "a_s", "src", "gs");
    node(mw, "Gather", "gather_d", 2, "a_d", "dst", "gd");
    node(mw, "Add", "add", 2, "gs", "gd", "z");
    osc_mw_attr_float(mw, osc_mw_node(mw, "LeakyRelu", "leaky", 1, (const char *[]){"z"}, 1,
                                      (const char *[]){v->kind == K_KEPT ? "e0" : "e"}),
                      "alpha", SLOPE);
    if (v->kind == K_KEPT)
        osc_mw_attr_int(mw, osc_mw_node(mw, "Cast", "cast", 1, (const char *[]){"e0"}, 1,
                                        (const char *[]){"e"}),
                        "to", OSC_FLOAT);
    scatter(mw, "max", "lowest", "dst", "e", "max", "m");
    node(mw, "Gather", "gather_m", 2, "m", "dst", "gm");
    node(mw, "Sub", "sub", 2, "e", "gm", "d");
    node(mw, "Exp", "exp", 1, "d", NULL, "ex");
    scatter(mw, "sum", "zeros_n", "dst", "ex", "add", "s");
    node(mw, "Gather", "gather_sum", 2, "s", "dst", "gsum");
    node(mw, "Add", "add_eps", 2, "gsum", "eps", "den");
    node(mw, "Div", "div", 2, "ex", "den", "alpha");
    node(mw, "Unsqueeze", "unsqueeze_alpha", 2, "alpha", "axes", "w");
    node(mw, "Gather", "gather_h", 2, "h", "src", "hj");
    node(mw, "Mul", "mul", 2, "hj", "w", "msg");
    node(mw, "Unsqueeze", "unsqueeze_dst", 2, "dst", "axes", "dst_col");
    node(mw, "Expand", "expand", 2, "dst_col", "shape", "idx");
    scatter(mw, "aggregate", "zeros_nc", "idx", "msg", "add", "y");
    osc_mw_output(mw, "y", OSC_FLOAT, 2, hd, NULL);
    if (v->kind == K_TWICE) osc_mw_output(mw, "alpha", OSC_FLOAT, 1, ed, NULL);
    void *buf = NULL;
    if (osc_mw_serialize(mw, &buf, len) != OSC_OK) fail_msg("%s: writer: %s", v->name, osc_mw_error(mw));
    osc_mw_free(mw);
    return buf;
}

/* The layer, edge by edge, in the kernels' operations (negative indices from the end of what
 * they index: a_d's rows are ad_rows). */
static void expect(const inputs *in, int64_t ad_rows, float *y) {
    float m[N], s[N] = {0}, e[E], ex[E];
    for (int i = 0; i < N; i++) m[i] = -3e38f;
    for (int i = 0; i < N * C; i++) y[i] = 0;
    for (int k = 0; k < E; k++) {
        const int64_t sr = in->src[k] < 0 ? in->src[k] + N : in->src[k];
        const int64_t d = in->dst[k] < 0 ? in->dst[k] + N : in->dst[k];
        const float z = in->as[sr] + in->ad[in->dst[k] < 0 ? in->dst[k] + ad_rows : d];
        e[k] = z < 0 ? z * SLOPE : z;
        if (e[k] > m[d]) m[d] = e[k];
    }
    for (int k = 0; k < E; k++) {
        const int64_t d = in->dst[k] < 0 ? in->dst[k] + N : in->dst[k];
        ex[k] = expf(e[k] - m[d]);
        s[d] += ex[k];
    }
    for (int k = 0; k < E; k++) {
        const int64_t sr = in->src[k] < 0 ? in->src[k] + N : in->src[k];
        const int64_t d = in->dst[k] < 0 ? in->dst[k] + N : in->dst[k];
        const float alpha = ex[k] / (s[d] + EPS);
        for (int c = 0; c < C; c++) y[d * C + c] += in->h[sr * C + c] * alpha;
    }
}

typedef struct result {
    osc_status st;
    char msg[512], nodes[256], fused[512];
    float y[N * C];
} result;

static void cat(char *buf, size_t size, const char *s) {
    size_t n = strlen(buf);
    snprintf(buf + n, size - n, "%s%s", n ? " " : "", s);
}

/* Loads (fusion 0: off, 1: on, 2: on with fuse_recompute), binds, runs into out (N * C
 * floats, a caller buffer). */
static void run(const variant *v, const void *buf, size_t len, const inputs *in, int fusion,
                int threads, float *out, result *r) {
    memset(r, 0, sizeof *r);
    osc_options o;
    osc_options_init(&o);
    o.no_fusion = fusion == 0;
    o.fuse_recompute = fusion == 2;
    o.threads = threads;
    osc_model *m = NULL;
    if (osc_model_load_buffer(buf, len, NULL, &o, &m, r->msg, sizeof r->msg))
        fail_msg("%s: load: %s", v->name, r->msg);
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        osc_node_desc d;
        assert_int_equal(osc_model_node(m, i, &d), OSC_OK);
        if (d.folded) continue;
        cat(r->nodes, sizeof r->nodes, d.op_type);
        for (int32_t k = 0; k < d.n_fused && d.n_fused > 1; k++)
            cat(r->fused, sizeof r->fused, d.fused_names[k]);
    }
    osc_session *s = NULL;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    const int64_t nd[1] = {N}, ad[1] = {v->kind == K_ROWS ? N + 2 : N}, ed[1] = {E},
                  hd[2] = {N, C};
    const osc_tensor t[5] = {tensor(OSC_FLOAT, 2, hd, in->h), tensor(OSC_FLOAT, 1, nd, in->as),
                             tensor(OSC_FLOAT, 1, ad, in->ad), tensor(OSC_INT64, 1, ed, in->src),
                             tensor(OSC_INT64, 1, ed, in->dst)};
    static const char *const names[5] = {"h", "a_s", "a_d", "src", "dst"};
    for (int i = 0; i < 5; i++)
        if (osc_session_set_input(s, names[i], &t[i]))
            fail_msg("%s: bind %s: %s", v->name, names[i], osc_session_error(s));
    assert_int_equal(osc_session_set_output_buffer(s, 0, out, (size_t)N * C * sizeof *out),
                     OSC_OK);
    r->st = osc_session_run(s);
    snprintf(r->msg, sizeof r->msg, "%s", osc_session_error(s));
    if (!r->st) memcpy(r->y, out, sizeof r->y);
    osc_session_free(s);
    osc_model_free(m);
}

static void check_variant(const variant *v) {
    inputs in;
    make_inputs(v->kind, &in);
    size_t len = 0;
    void *buf = build(v, &len);
    float want[N * C], out[N * C];
    expect(&in, v->kind == K_ROWS ? N + 2 : N, want);
    for (int f = 0; f < 3; f++)
        for (int k = 0; k < N_THREADS; k++) {
            result r;
            run(v, buf, len, &in, f, k_threads[k], out, &r);
            if (r.st) fail_msg("%s (fusion %d, %d threads): %s", v->name, f, k_threads[k], r.msg);
            if (f == 2 && (strcmp(r.nodes, v->nodes) || strcmp(r.fused, v->fused)))
                fail_msg("%s: nodes with fuse_recompute '%s' (fused from '%s'); want '%s' ('%s')",
                         v->name, r.nodes, r.fused, v->nodes, v->fused);
            for (int i = 0; i < N * C; i++)
                if (memcmp(&r.y[i], &want[i], sizeof want[i]))
                    fail_msg("%s (fusion %d, %d threads): y[%d] = %.9g, the loops %.9g", v->name,
                             f, k_threads[k], i, (double)r.y[i], (double)want[i]);
        }
    free(buf);
}

/* What the fused node replaced, whatever else the pass fused. */
#define SCORES "Gather Gather Add LeakyRelu"
#define AGG_TAIL "unsqueeze_alpha gather_h mul unsqueeze_dst expand aggregate"
static void recompute_variants(void **state) {
    (void)state;
    static const variant vs[] = {
        {"gat", K_GAT, SCORES " ScatterElements Gather Sub Exp ScatterElements TiledGatherScatter",
         "gather_sum add_eps div " AGG_TAIL},
        {"table_rows_differ", K_ROWS,
         SCORES " ScatterElements Gather Sub Exp ScatterElements TiledGatherScatter",
         "gather_sum add_eps div " AGG_TAIL},
        {"operand_read_twice", K_TWICE,
         SCORES " ScatterElements Gather Sub Exp ScatterElements Gather Add Div GatherScatter",
         AGG_TAIL},
        {"region_would_keep_a_value", K_KEPT,
         SCORES " Cast ScatterElements Gather Sub Exp ScatterElements Gather Add Div "
                "GatherScatter",
         AGG_TAIL},
    };
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) check_variant(&vs[i]);
}

/* An index out of range: OSC_ERR_INDEX naming the value and the range, whichever way the
 * graph was fused, and the caller's output buffer untouched. */
static void index_out_of_range(void **state) {
    (void)state;
    static const variant v = {"bad_index", K_GAT, NULL, NULL};
    for (int which = 0; which < 2; which++) {
        inputs in;
        make_inputs(v.kind, &in);
        if (which) in.dst[E - 1] = -N - 1;
        else in.src[E - 1] = N;
        size_t len = 0;
        void *buf = build(&v, &len);
        for (int f = 0; f < 3; f++)
            for (int k = 0; k < N_THREADS; k++) {
                float out[N * C];
                memset(out, 0x5a, sizeof out);
                result r;
                run(&v, buf, len, &in, f, k_threads[k], out, &r);
                assert_int_equal(r.st, OSC_ERR_INDEX);
                const char *want = which ? "-8 is out of range [-7, 6]" : "7 is out of range [-7, 6]";
                if (!strstr(r.msg, want))
                    fail_msg("%s %d (fusion %d, %d threads): %s", v.name, which, f, k_threads[k],
                             r.msg);
                for (size_t i = 0; i < sizeof out; i++)
                    if (((unsigned char *)out)[i] != 0x5a)
                        fail_msg("%s %d (fusion %d): byte %zu of the caller's buffer was "
                                 "written", v.name, which, f, i);
            }
        free(buf);
    }
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(recompute_variants),
    cmocka_unit_test(index_out_of_range),
)
