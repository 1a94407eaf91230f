/* test_fusion_tiled.c: the tiled scatter (ops/fused/fused_tiled.h): a scatter whose updates come out
 * of nodes working row by row on the edges runs those nodes on tiles of edges. The graph is
 * DGCNN's EdgeConv as PyTorch exports it:
 *     xi = Gather(x, dst), xj = Gather(x, src), c = Concat(xi, Sub(xj, xi), axis -1),
 *     h = Relu(Gemm(c, W1, b1, transB 1)), z = Add(MatMul(h, W2), b2),
 *     y = ScatterElements(data, Expand(Unsqueeze(dst)), z, reduction)   (or ScatterND)
 * Each variant checks which nodes were tiled, and that the output is, bit for bit, the same
 * with fusion on and off, on 1 and 2 threads (and 3 against the tiny-threshold library, whose
 * tiles hold two edges and whose threads split every output), and equal to loops here that
 * compute each product in the kernels' documented order (gemm_kernel.h: products added in
 * increasing k to a sum starting at 0, each by one fused multiply-add). An out-of-range index of either Gather fails
 * the run naming that Gather, the value and the range, with the caller's buffer untouched.
 * The symbolic variants declare the inputs with dynamic axes (x [M, C], the edges E, data
 * [N, H]) and build the Expands' shapes from Shape(), as PyTorch exports them: loaded unpinned,
 * they must tile as the static ones; a size that disagrees at run is refused by the tiled node
 * before its first write. */
#include <pthread.h>
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

enum { C = 3, H = 8 }; /* channels in, hidden (= out) channels */

enum {
    V_PLAIN,     /* max onto a zero Constant (absorbed: the output starts as zeros) */
    V_DATA,      /* add onto data, a graph input */
    V_RELU_OUT,  /* the Relu's output is also a graph output: only MatMul and Add are tiled */
    V_ROW_C,     /* the Gemm's C is a graph input [E, H]: read by row */
    V_ND,        /* ScatterND with [E, 1] indices, reduction mul, onto data */
    V_DOUBLE,    /* V_DATA in double, reduction min, int32 indices */
    V_EDGE,      /* V_DATA with dst and src the rows of one [2, E] input, as PyTorch exports
                  * edge_index (Gather(edge_index, 0) and (edge_index, 1)): src, row 1, is read
                  * in place (a row view), dst stays (the scatter's index reads it too) */
    V_FILL,      /* max onto ScatterElements(zeros, idx, Expand(fill, [E, H])): the rows that
                  * get an edge start as fill, PyTorch's include_self=False (both tiled; the
                  * Expand runs once per tile) */
    V_HALF,      /* V_ND, symbolic, dst = Slice(dst_all, 0, end, step 2) and src =
                  * Slice(src_all, 1, end, step 2): ceil(E/2) and floor(E/2) indices, one symbol
                  * by the load's probes (all even), two sizes at run for an odd E */
};

typedef struct variant {
    const char *name;
    int kind;
    int64_t n, e, m; /* output rows, edges, rows of x */
    const char *nodes, *fused;
} variant;

/* The models have dynamic axes: x [M, C], the edges E, data [N, H], the Expands' shapes from
 * Shape() (symbolic_variants, V_HALF); loaded unpinned. */
static bool g_sym;

typedef struct inputs {
    int32_t dt, it; /* float dtype, index dtype */
    int64_t n, e, m;
    double *x, *data, *crow;
    int64_t *src, *dst;
    double w1[H * 2 * C], b1[H], w2[H * H], b2[H], fill;
} inputs;

static uint32_t g_rng;
static uint32_t rnd32(void) { return osc_test_rnd32(&g_rng); }
static double rnd_value(void) { return osc_test_rnd_value(&g_rng); }
static double rnd_of(int32_t dt) { return dt == OSC_FLOAT ? (double)(float)rnd_value() : rnd_value(); }

static void make_inputs(const variant *v, inputs *in) {
    memset(in, 0, sizeof *in);
    g_rng = 7u + (uint32_t)v->kind;
    in->dt = v->kind == V_DOUBLE ? OSC_DOUBLE : OSC_FLOAT;
    in->it = v->kind == V_DOUBLE ? OSC_INT32 : OSC_INT64;
    in->n = v->n, in->e = v->e, in->m = v->m;
    in->x = malloc((size_t)(v->m * C) * sizeof(double));
    in->data = malloc((size_t)(v->n * H) * sizeof(double));
    in->crow = malloc((size_t)(v->e * H) * sizeof(double));
    in->src = malloc((size_t)v->e * sizeof(int64_t));
    in->dst = malloc((size_t)v->e * sizeof(int64_t));
    assert_true(in->x && in->data && in->crow && in->src && in->dst);
    for (int64_t i = 0; i < v->m * C; i++) in->x[i] = rnd_of(in->dt);
    for (int64_t i = 0; i < v->n * H; i++) in->data[i] = rnd_of(in->dt);
    for (int64_t i = 0; i < v->e * H; i++) in->crow[i] = rnd_of(in->dt);
    const int64_t nd = v->n < v->m ? v->n : v->m; /* dst indexes x and the output */
    for (int64_t i = 0; i < v->e; i++) { /* negative indices and many duplicates */
        in->src[i] = (int64_t)(rnd32() % (uint32_t)(2 * v->m)) - v->m;
        in->dst[i] = (int64_t)(rnd32() % (uint32_t)(2 * nd)) - nd;
    }
    for (int i = 0; i < H * 2 * C; i++) in->w1[i] = rnd_of(in->dt);
    for (int i = 0; i < H * H; i++) in->w2[i] = rnd_of(in->dt);
    for (int i = 0; i < H; i++) in->b1[i] = rnd_of(in->dt), in->b2[i] = rnd_of(in->dt);
    in->fill = -1e30;
}

static void free_inputs(inputs *in) {
    free(in->x), free(in->data), free(in->crow), free(in->src), free(in->dst);
}

/* A tensor of dtype dt holding the doubles (or int64s) v. */
static osc_tensor tensor_of(int32_t dt, int rank, const int64_t *dims, const void *v) {
    osc_tensor t = osc_test_view(dt, rank, dims, NULL);
    const int64_t n = osc_tensor_count(&t);
    t.data = calloc(1, t.nbytes + 1);
    assert_non_null(t.data);
    for (int64_t i = 0; i < n; i++) {
        if (dt == OSC_FLOAT) ((float *)t.data)[i] = (float)((const double *)v)[i];
        else if (dt == OSC_DOUBLE) ((double *)t.data)[i] = ((const double *)v)[i];
        else if (dt == OSC_INT32) ((int32_t *)t.data)[i] = (int32_t)((const int64_t *)v)[i];
        else ((int64_t *)t.data)[i] = ((const int64_t *)v)[i];
    }
    return t;
}

static void node(osc_mw *mw, const char *op, const char *name, int n_in, const char *a,
                 const char *b, const char *c, const char *out) {
    const char *i[3] = {a, b, c}, *o[1] = {out};
    osc_mw_node(mw, op, name, n_in, i, 1, o);
}

static void init(osc_mw *mw, const char *name, int32_t dt, int rank, const int64_t *dims,
                 const void *v) {
    osc_tensor t = tensor_of(dt, rank, dims, v);
    osc_mw_initializer(mw, name, &t);
    free(t.data);
}

/* The scatters' index (and the fill's shape): from the constant [E, H], or (symbolic) from
 * Shape(z), and Shape(idx) for the fill. */
static void index_and_fill(osc_mw *mw, const variant *v) {
    if (!g_sym) {
        node(mw, "Expand", "expand", 2, "dst_col", "shape", NULL, "idx");
        if (v->kind == V_FILL) node(mw, "Expand", "expand_fill", 2, "fill", "shape", NULL, "fills");
        return;
    }
    node(mw, "Shape", "z_shape", 1, "z", NULL, NULL, "z_dims");
    node(mw, "Expand", "expand", 2, "dst_col", "z_dims", NULL, "idx");
    if (v->kind != V_FILL) return;
    node(mw, "Shape", "idx_shape", 1, "idx", NULL, NULL, "idx_dims");
    node(mw, "Expand", "expand_fill", 2, "fill", "idx_dims", NULL, "fills");
}

/* Slice(all, start, end, axis 0, step 2) as value out (V_HALF). */
static void every_other(osc_mw *mw, const char *all, const char *start, const char *out) {
    osc_mw_node(mw, "Slice", out, 5, (const char *[]){all, start, "h_end", "h_axes", "h_steps"},
                1, (const char *[]){out});
}

static void *build(const variant *v, const inputs *in, size_t *len) {
    const int32_t dt = in->dt;
    const bool sym = g_sym;
    /* symbolic: -1 where a dim has a name */
    const int64_t xd[2] = {sym ? -1 : in->m, C}, ed[1] = {sym ? -1 : in->e},
                  dd[2] = {sym ? -1 : in->n, H}, cd[2] = {sym ? -1 : in->e, H};
    static const char *const xn[2] = {"M", NULL}, *en[1] = {"E"}, *dn[2] = {"N", NULL},
                             *eidn[2] = {NULL, "E"}, *cn[2] = {"E", NULL};
    const int64_t w1d[2] = {H, 2 * C}, bd[1] = {H}, w2d[2] = {H, H}, one[1] = {1},
                  axes[1] = {1}, shape[2] = {in->e, H}, sd[1] = {2};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "x", dt, 2, xd, sym ? xn : NULL);
    const bool data_in = v->kind == V_DATA || v->kind == V_ND || v->kind == V_DOUBLE ||
                         v->kind == V_EDGE || v->kind == V_HALF;
    if (v->kind == V_EDGE) {
        const int64_t eid[2] = {2, sym ? -1 : in->e}, row0 = 0, row1 = 1;
        osc_mw_input(mw, "edge_index", in->it, 2, eid, sym ? eidn : NULL);
        init(mw, "row0", OSC_INT64, 0, NULL, &row0);
        init(mw, "row1", OSC_INT64, 0, NULL, &row1);
        node(mw, "Gather", "dst_row", 2, "edge_index", "row0", NULL, "dst");
        node(mw, "Gather", "src_row", 2, "edge_index", "row1", NULL, "src");
    } else if (v->kind == V_HALF) {
        const int64_t zero = 0, first = 1, end = INT64_MAX, step = 2;
        osc_mw_input(mw, "src_all", in->it, 1, ed, en);
        osc_mw_input(mw, "dst_all", in->it, 1, ed, en);
        init(mw, "h_start0", OSC_INT64, 1, one, &zero);
        init(mw, "h_start1", OSC_INT64, 1, one, &first);
        init(mw, "h_end", OSC_INT64, 1, one, &end);
        init(mw, "h_axes", OSC_INT64, 1, one, &zero);
        init(mw, "h_steps", OSC_INT64, 1, one, &step);
        every_other(mw, "dst_all", "h_start0", "dst");
        every_other(mw, "src_all", "h_start1", "src");
    } else {
        osc_mw_input(mw, "src", in->it, 1, ed, sym ? en : NULL);
        osc_mw_input(mw, "dst", in->it, 1, ed, sym ? en : NULL);
    }
    if (data_in) osc_mw_input(mw, "data", dt, 2, dd, sym ? dn : NULL);
    if (v->kind == V_ROW_C) osc_mw_input(mw, "crow", dt, 2, cd, sym ? cn : NULL);
    if (v->kind == V_FILL) osc_mw_input(mw, "fill", dt, 0, NULL, NULL);
    init(mw, "W1", dt, 2, w1d, in->w1);
    init(mw, "b1", dt, 1, bd, in->b1);
    init(mw, "W2", dt, 2, w2d, in->w2);
    init(mw, "b2", dt, 1, bd, in->b2);
    init(mw, "axes", OSC_INT64, 1, one, axes);
    init(mw, "shape", OSC_INT64, 1, sd, shape);
    if (!data_in) {
        double *zeros = calloc((size_t)(in->n * H), sizeof(double));
        assert_non_null(zeros);
        osc_tensor z = tensor_of(dt, 2, (const int64_t[]){in->n, H}, zeros);
        const char *o[1] = {"data"};
        osc_mw_attr_tensor(mw, osc_mw_node(mw, "Constant", "zeros", 0, NULL, 1, o), "value", &z);
        free(z.data), free(zeros);
    }
    /* data0 = the fill at every row an edge goes to */
    const char *data = v->kind == V_FILL ? "data0" : "data";
    node(mw, "Gather", "gather_i", 2, "x", "dst", NULL, "xi");
    node(mw, "Gather", "gather_j", 2, "x", "src", NULL, "xj");
    node(mw, "Sub", "sub", 2, "xj", "xi", NULL, "d");
    const char *ci[2] = {"xi", "d"}, *co[1] = {"c"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "Concat", "concat", 2, ci, 1, co), "axis", -1);
    const char *gi[3] = {"c", "W1", v->kind == V_ROW_C ? "crow" : "b1"}, *go[1] = {"g"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "Gemm", "gemm", 3, gi, 1, go), "transB", 1);
    node(mw, "Relu", "relu", 1, "g", NULL, NULL, "h");
    node(mw, "MatMul", "matmul", 2, "h", "W2", NULL, "p");
    node(mw, "Add", "add", 2, "p", "b2", NULL, "z");
    node(mw, "Unsqueeze", "unsqueeze", 2, "dst", "axes", NULL, "dst_col");
    int n;
    if (v->kind == V_ND || v->kind == V_HALF) {
        n = osc_mw_node(mw, "ScatterND", "scatter", 3, (const char *[]){"data", "dst_col", "z"},
                        1, (const char *[]){"y"});
    } else {
        index_and_fill(mw, v);
        if (v->kind == V_FILL)
            osc_mw_node(mw, "ScatterElements", "scatter_fill", 3,
                        (const char *[]){"data", "idx", "fills"}, 1, (const char *[]){"data0"});
        n = osc_mw_node(mw, "ScatterElements", "scatter", 3,
                        (const char *[]){data, "idx", "z"}, 1, (const char *[]){"y"});
    }
    static const char *const red[] = {[V_PLAIN] = "max", [V_DATA] = "add", [V_RELU_OUT] = "max",
                                      [V_ROW_C] = "add", [V_ND] = "mul", [V_DOUBLE] = "min",
                                      [V_FILL] = "max", [V_EDGE] = "add", [V_HALF] = "add"};
    osc_mw_attr_string(mw, n, "reduction", red[v->kind]);
    const int64_t yd[2] = {data_in ? dd[0] : in->n, H};
    osc_mw_output(mw, "y", dt, 2, yd, sym && data_in ? dn : NULL);
    if (v->kind == V_RELU_OUT) osc_mw_output(mw, "h", dt, 2, cd, NULL);
    void *buf = NULL;
    if (osc_mw_serialize(mw, &buf, len) != OSC_OK) fail_msg("%s: writer: %s", v->name, osc_mw_error(mw));
    osc_mw_free(mw);
    return buf;
}

/* ---- the expected output, with loops ---- */
#define EXPECT(T)                                                                              \
    static void expect_##T(const variant *v, const inputs *in, T *y) {                        \
        for (int64_t i = 0; i < in->n * H; i++) y[i] = v->kind == V_PLAIN || v->kind == V_RELU_OUT \
                                  || v->kind == V_ROW_C || v->kind == V_FILL ? 0 : (T)in->data[i]; \
        for (int64_t e = 0; e < in->e && v->kind == V_FILL; e++)                               \
            for (int j = 0; j < H; j++)                                                        \
                y[(in->dst[e] < 0 ? in->dst[e] + in->n : in->dst[e]) * H + j] = (T)in->fill;   \
        for (int64_t e = 0; e < in->e; e++) {                                                  \
            const int64_t s = in->src[e] < 0 ? in->src[e] + in->m : in->src[e];                 \
            const int64_t d = in->dst[e] < 0 ? in->dst[e] + in->m : in->dst[e];                 \
            const int64_t o = in->dst[e] < 0 ? in->dst[e] + in->n : in->dst[e];                 \
            T c[2 * C], h[H];                                                                  \
            for (int k = 0; k < C; k++) {                                                      \
                const T xi = (T)in->x[d * C + k], xj = (T)in->x[s * C + k];                     \
                c[k] = xi;                                                                     \
                c[C + k] = (T)(xj - xi);                                                       \
            }                                                                                  \
            for (int j = 0; j < H; j++) {                                                      \
                T acc = 0;                                                                     \
                for (int k = 0; k < 2 * C; k++) acc = OSC_CHECK_MADD(T, c[k], in->w1[j * 2 * C + k], acc); \
                const T cc = v->kind == V_ROW_C ? (T)in->crow[e * H + j] : (T)in->b1[j];       \
                const T g = (T)(acc + cc);                                                     \
                h[j] = g > 0 ? g : 0;                                                          \
            }                                                                                  \
            for (int j = 0; j < H; j++) {                                                      \
                T acc = 0;                                                                     \
                for (int k = 0; k < H; k++) acc = OSC_CHECK_MADD(T, h[k], in->w2[k * H + j], acc);   \
                const T z = (T)(acc + (T)in->b2[j]);                                           \
                T *t = &y[o * H + j];                                                          \
                switch (v->kind) {                                                             \
                case V_PLAIN: case V_RELU_OUT: case V_FILL: *t = z > *t ? z : *t; break;       \
                case V_ND: *t = (T)(*t * z); break;                                            \
                case V_DOUBLE: *t = z < *t ? z : *t; break;                                    \
                default: *t = (T)(*t + z); break;                                              \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    }
EXPECT(float)
EXPECT(double)

typedef struct result {
    osc_status st;
    char msg[512], nodes[256], fused[256];
    void *data;
    size_t nbytes;
} result;

static void cat(char *buf, size_t size, const char *s) {
    size_t n = strlen(buf);
    snprintf(buf + n, size - n, "%s%s", n ? " " : "", s);
}

/* Loads (fusion on or off), binds the inputs, runs; out_buf (may be NULL) is output 0's
 * caller buffer. */
static void run(const variant *v, const void *buf, size_t len, const inputs *in, bool fusion,
                int threads, void *out_buf, size_t out_n, result *r) {
    memset(r, 0, sizeof *r);
    osc_options o;
    osc_options_init(&o);
    o.no_fusion = !fusion;
    o.threads = threads;
    osc_model *m = NULL;
    if (osc_model_load_buffer(buf, len, NULL, &o, &m, r->msg, sizeof r->msg))
        fail_msg("%s: load: %s", v->name, r->msg);
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        osc_node_desc d;
        assert_int_equal(osc_model_node(m, i, &d), OSC_OK);
        if (d.folded) continue;
        cat(r->nodes, sizeof r->nodes, d.op_type);
        for (int32_t k = 0; k < d.n_fused; k++) cat(r->fused, sizeof r->fused, d.fused_ops[k]);
    }
    osc_session *s = NULL;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    const int64_t xd[2] = {in->m, C}, ed[1] = {in->e}, dd[2] = {in->n, H}, cd[2] = {in->e, H};
    int64_t *edges = malloc((size_t)(2 * in->e) * sizeof *edges);
    assert_non_null(edges);
    memcpy(edges, in->dst, (size_t)in->e * sizeof *edges); /* [dst; src]: src from row 1 */
    memcpy(edges + in->e, in->src, (size_t)in->e * sizeof *edges);
    const int64_t eid[2] = {2, in->e};
    osc_tensor t[7] = {tensor_of(in->dt, 2, xd, in->x), tensor_of(in->it, 1, ed, in->src),
                       tensor_of(in->it, 1, ed, in->dst), tensor_of(in->dt, 2, dd, in->data),
                       tensor_of(in->dt, 2, cd, in->crow), tensor_of(in->dt, 0, NULL, &in->fill),
                       tensor_of(in->it, 2, eid, edges)};
    free(edges);
    const char *names[7] = {"x", "src", "dst", "data", "crow", "fill", "edge_index"};
    if (v->kind == V_HALF) names[1] = "src_all", names[2] = "dst_all";
    const bool edge = v->kind == V_EDGE;
    for (int i = 0; i < 7; i++) {
        const bool used = i == 0 || ((i == 1 || i == 2) && !edge) ||
                          (i == 3 && (v->kind == V_DATA || v->kind == V_ND ||
                                      v->kind == V_DOUBLE || v->kind == V_HALF || edge)) ||
                          (i == 4 && v->kind == V_ROW_C) || (i == 5 && v->kind == V_FILL) ||
                          (i == 6 && edge);
        if (used && osc_session_set_input(s, names[i], &t[i]))
            fail_msg("%s: bind %s: %s", v->name, names[i], osc_session_error(s));
    }
    if (out_buf) assert_int_equal(osc_session_set_output_buffer(s, 0, out_buf, out_n), OSC_OK);
    r->st = osc_session_run(s);
    snprintf(r->msg, sizeof r->msg, "%s", osc_session_error(s));
    if (!r->st) {
        osc_tensor y;
        assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
        r->nbytes = y.nbytes;
        r->data = malloc(y.nbytes);
        assert_non_null(r->data);
        memcpy(r->data, y.data, y.nbytes);
    }
    for (int i = 0; i < 7; i++) free(t[i].data);
    osc_session_free(s);
    osc_model_free(m);
}

typedef struct run_args {
    const variant *v;
    const void *buf;
    size_t len;
    const inputs *in;
    bool fusion;
    int threads;
    result *r;
} run_args;
static void *run_thread(void *arg) {
    const run_args *a = arg;
    run(a->v, a->buf, a->len, a->in, a->fusion, a->threads, NULL, 0, a->r);
    return NULL;
}
/* Bytes of stack of the thread run_variant loads and runs on; 0: the test's own thread. */
static size_t g_stack;
static void run_variant(const variant *v, const void *buf, size_t len, const inputs *in,
                        bool fusion, int threads, result *r) {
    if (!g_stack) {
        run(v, buf, len, in, fusion, threads, NULL, 0, r);
        return;
    }
    run_args a = {v, buf, len, in, fusion, threads, r};
    pthread_attr_t at;
    pthread_t th;
    assert_int_equal(pthread_attr_init(&at), 0);
    assert_int_equal(pthread_attr_setstacksize(&at, g_stack), 0);
    assert_int_equal(pthread_create(&th, &at, run_thread, &a), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    pthread_attr_destroy(&at);
}

static void check_variant(const variant *v) {
    inputs in;
    make_inputs(v, &in);
    size_t len = 0;
    void *buf = build(v, &in, &len);
    const size_t es = in.dt == OSC_FLOAT ? 4 : 8, nbytes = (size_t)(in.n * H) * es;
    void *want = malloc(nbytes);
    assert_non_null(want);
    if (in.dt == OSC_FLOAT) expect_float(v, &in, want);
    else expect_double(v, &in, want);
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < N_THREADS; k++) {
            result r;
            run_variant(v, buf, len, &in, f == 1, k_threads[k], &r);
            if (r.st) fail_msg("%s (fusion %d, %d threads): %s", v->name, f, k_threads[k], r.msg);
            if (f == 1 && (strcmp(r.nodes, v->nodes) || strcmp(r.fused, v->fused)))
                fail_msg("%s: nodes after fusion '%s' (fused from '%s'); want '%s' ('%s')",
                         v->name, r.nodes, r.fused, v->nodes, v->fused);
            assert_int_equal(r.nbytes, nbytes);
            for (size_t i = 0; i < nbytes; i += es)
                if (memcmp((char *)r.data + i, (char *)want + i, es))
                    fail_msg("%s (fusion %d, %d threads): element %zu differs from the loops",
                             v->name, f, k_threads[k], i / es);
            free(r.data);
        }
    free(want);
    free(buf);
    free_inputs(&in);
}

#define TILED_ALL "Gather Gather Sub Concat Gemm Relu MatMul Add"
static void tiled_variants(void **state) {
    (void)state;
    static const variant vs[] = {
        {"edgeconv_max_zeros", V_PLAIN, 7, 60, 9, "TiledScatter",
         TILED_ALL " Unsqueeze Expand ScatterElements"},
        {"edgeconv_add_data", V_DATA, 7, 60, 9, "TiledScatter",
         TILED_ALL " Unsqueeze Expand ScatterElements"},
        /* the Relu outside the region then becomes the Gemm's epilogue (rule relu_epilogue) */
        {"relu_output_read_outside", V_RELU_OUT, 7, 60, 9,
         "Gather Gather Sub Concat Gemm TiledScatter",
         "Gemm Relu MatMul Add Unsqueeze Expand ScatterElements"},
        {"gemm_c_by_row", V_ROW_C, 7, 60, 9, "TiledScatter",
         TILED_ALL " Unsqueeze Expand ScatterElements"},
        {"scatternd_mul", V_ND, 7, 60, 9, "TiledScatter", TILED_ALL " Unsqueeze ScatterND"},
        {"double_min_int32", V_DOUBLE, 5, 301, 4, "TiledScatter",
         TILED_ALL " Unsqueeze Expand ScatterElements"},
        {"include_self_false_fill", V_FILL, 7, 60, 9, "TiledScatter TiledScatter",
         "Expand ScatterElements " TILED_ALL " Unsqueeze Expand ScatterElements"},
        {"edge_index_rows", V_EDGE, 7, 60, 9, "Gather TiledScatter",
         "Gather " TILED_ALL " Unsqueeze Expand ScatterElements"},
        /* one edge: a tile of one */
        {"one_edge", V_DATA, 3, 1, 2, "TiledScatter",
         TILED_ALL " Unsqueeze Expand ScatterElements"},
    };
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) check_variant(&vs[i]);
}

/* Dynamic axes, loaded unpinned: tiled on the symbols as the static ones are, the same bits
 * at every size (a tile of one edge, none, many tiles). */
static void symbolic_variants(void **state) {
    (void)state;
    static const variant vs[] = {
        {"symbolic_add_data", V_DATA, 7, 60, 9, "TiledScatter",
         TILED_ALL " Unsqueeze Expand ScatterElements"},
        {"symbolic_gemm_c_by_row", V_ROW_C, 7, 60, 9, "TiledScatter",
         TILED_ALL " Unsqueeze Expand ScatterElements"},
        {"symbolic_scatternd", V_ND, 7, 60, 9, "TiledScatter",
         TILED_ALL " Unsqueeze ScatterND"},
        {"symbolic_double_min", V_DOUBLE, 5, 301, 4, "TiledScatter",
         TILED_ALL " Unsqueeze Expand ScatterElements"},
        /* the fill's Expand to Shape(idx) runs once per tile (no ShapeOf left) */
        {"symbolic_fill", V_FILL, 7, 60, 9, "TiledScatter TiledScatter",
         "Expand ScatterElements " TILED_ALL " Unsqueeze Expand ScatterElements"},
        /* rows of [2, E] read in place: the view's offset from E at run */
        {"symbolic_edge_index_rows", V_EDGE, 7, 60, 9, "Gather TiledScatter",
         "Gather " TILED_ALL " Unsqueeze Expand ScatterElements"},
        /* the same models at other sizes: one edge, no edges, many tiles */
        {"symbolic_one_edge", V_DATA, 3, 1, 2, "TiledScatter",
         TILED_ALL " Unsqueeze Expand ScatterElements"},
        {"symbolic_no_edges", V_DATA, 3, 0, 2, "TiledScatter",
         TILED_ALL " Unsqueeze Expand ScatterElements"},
        {"symbolic_fill_many_tiles", V_FILL, 50, 9000, 40, "TiledScatter TiledScatter",
         "Expand ScatterElements " TILED_ALL " Unsqueeze Expand ScatterElements"},
    };
    g_sym = true;
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) check_variant(&vs[i]);
    g_sym = false;
}

/* A symbol whose sizes disagree at run: dst, every other index from the first (ceil(E/2)),
 * and src, every other from the second (floor(E/2)), are one symbol by the load's probes (E is
 * even in each); an even E runs fused, the same bits as unfused, an odd one is refused by the
 * tiled node before its first write: the message names src's dim 0 and both sizes, and the
 * caller's buffer is untouched. The unfused graph refuses it too (Sub's operands). */
static void symbolic_sizes_disagree(void **state) {
    (void)state;
    g_sym = true;
    for (int odd = 0; odd < 2; odd++) {
        const variant v = {odd ? "sizes_disagree" : "sizes_agree", V_HALF, 7, 60 + odd, 9,
                           "Slice Slice TiledScatter", TILED_ALL " Unsqueeze ScatterND"};
        inputs in;
        make_inputs(&v, &in);
        size_t len = 0;
        void *buf = build(&v, &in, &len);
        for (int k = 0; k < N_THREADS; k++) {
            float out[7 * H];
            memset(out, 0x5a, sizeof out);
            result r[2];
            for (int f = 0; f < 2; f++)
                run(&v, buf, len, &in, f == 1, k_threads[k], f ? out : NULL, sizeof out, &r[f]);
            if (strcmp(r[1].nodes, v.nodes) || strcmp(r[1].fused, v.fused))
                fail_msg("%s: nodes after fusion '%s' (fused from '%s'); want '%s' ('%s')",
                         v.name, r[1].nodes, r[1].fused, v.nodes, v.fused);
            if (!odd) {
                if (r[0].st || r[1].st) fail_msg("%s: %s / %s", v.name, r[0].msg, r[1].msg);
                assert_int_equal(r[0].nbytes, r[1].nbytes);
                assert_memory_equal(r[0].data, r[1].data, r[0].nbytes);
                free(r[0].data), free(r[1].data);
                continue;
            }
            assert_int_not_equal(r[0].st, OSC_OK);
            assert_int_equal(r[1].st, OSC_ERR_SHAPE);
            if (!strstr(r[1].msg, "'scatter'") || !strstr(r[1].msg, "(src) dim 0 is 30") ||
                !strstr(r[1].msg, "(dst) dim 0 gives as 31"))
                fail_msg("%s: message '%s'", v.name, r[1].msg);
            for (size_t i = 0; i < sizeof out; i++)
                assert_int_equal(((unsigned char *)out)[i], 0x5a);
        }
        free(buf);
        free_inputs(&in);
    }
    g_sym = false;
}

/* The library's frames fit an embedder's small thread stack (musl's default is 128 KiB;
 * sanitizers pad frames): load and runs, fused and not, on a thread of 512 KiB. */
static void small_thread_stack(void **state) {
    (void)state;
    static const variant v = {"small_thread_stack", V_FILL, 7, 60, 9, "TiledScatter TiledScatter",
                              "Expand ScatterElements " TILED_ALL
                              " Unsqueeze Expand ScatterElements"};
    g_stack = (size_t)512 << 10;
    check_variant(&v);
    g_stack = 0;
}

/* An index out of range in either Gather: OSC_ERR_INDEX naming that Gather, the position, the
 * value and the range, fused or not, and the caller's output buffer untouched. */
static void gather_index_out_of_range(void **state) {
    (void)state;
    static const variant vs[2] = {{"bad_index", V_DATA, 7, 60, 9, NULL, NULL},
                                  {"bad_index_edge_index", V_EDGE, 7, 60, 9, NULL, NULL}};
    for (int vi = 0; vi < 4; vi++) {
        const variant v = vs[vi / 2];
        const int which = vi % 2;
        inputs in;
        make_inputs(&v, &in);
        int64_t *idx = which ? in.src : in.dst;
        idx[37] = which ? 9 : -10; /* x has 9 rows; dst also indexes data's 7 rows */
        if (!which) in.dst[37] = -8; /* in range of x [-9, 8], out of data's [-7, 6] */
        size_t len = 0;
        void *buf = build(&v, &in, &len);
        for (int f = 0; f < 2; f++)
            for (int k = 0; k < N_THREADS; k++) {
                float out[7 * H];
                memset(out, 0x5a, sizeof out);
                result r;
                run(&v, buf, len, &in, f == 1, k_threads[k], out, sizeof out, &r);
                assert_int_equal(r.st, OSC_ERR_INDEX);
                const char *want = which ? "9 is out of range [-9, 8]" : "-8 is out of range [-7, 6]";
                if (!strstr(r.msg, want) || (which && !strstr(r.msg, "gather_j")))
                    fail_msg("%s %d (fusion %d, %d threads): %s", v.name, which, f, k_threads[k],
                             r.msg);
                for (size_t i = 0; i < sizeof out; i++)
                    if (((unsigned char *)out)[i] != 0x5a)
                        fail_msg("%s %d (fusion %d): byte %zu of the caller's buffer was "
                                 "written", v.name, which, f, i);
            }
        free(buf);
        free_inputs(&in);
    }
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(tiled_variants),
    cmocka_unit_test(symbolic_variants),
    cmocka_unit_test(symbolic_sizes_disagree),
    cmocka_unit_test(small_thread_stack),
    cmocka_unit_test(gather_index_out_of_range),
)
