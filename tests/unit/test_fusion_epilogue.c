/* test_fusion_epilogue.c: rule row_epilogue (rewrite/rule_row_epilogue.c): an Add, Sub, Mul or
 * Div of a fused scatter's output with one value per output row, or with one row for every
 * row, becomes the scatter's epilogue (osc_fs_params.has_epi). The graph, SAGE's mean with the
 * count an input, or GCN's bias:
 *     s = ScatterElements(data, Expand(Unsqueeze(dst)), Gather(x, src), add)
 *     y = OP(s, w) or OP(w, s)          w [N, 1] (per row), [1, C] or [C] (a row for every
 *                                       row), [N, C] (neither), or ConstantOfShape(Shape(data))
 *                                       of one value k (one for every element; not NaN)
 * Rows reached by no edge (half of them) go through the op too. After s + 0 (index_add_'s
 * zeros), an Add of a constant [C] row b (GCN's bias) takes that epilogue over when no value of
 * b is -0: y = (s + 0) + b is then s + b bit for bit; a b with a -0 (met by data's -0 in rows
 * no edge reaches) is left as its own node. The output must equal a loop
 * written here, and the unfused graph, bit for bit, on 1 and 2 threads (3 in the tiny-threshold
 * build, whose threads split every run); the fused model has one GatherScatter named after the
 * scatter and no other node; an operand of neither kind, or s read by another output, is not
 * taken in. */
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
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

#include "fusion_threads.h"

enum { C = 64, M = 3000, E = 24000 };
/* output rows: 4096 (1 MiB, grouped by destination), or 512 (the edge loop below 1 MiB) */
static int64_t N;

/* w: [N, 1], [1, C], [C], [N, C]; W_ONE: made by ConstantOfShape, k in every element (then
 * every seventh element of data is -0, which 0 added makes +0) */
enum { W_ROW, W_COL, W_VEC, W_FULL, W_ONE };
typedef struct form {
    const char *op;  /* Add, Sub, Mul, Div */
    bool first;      /* OP(w, s) */
    int w;           /* W_* */
    bool s_output;   /* s is a graph output too */
    int64_t rows;    /* N */
    bool dbl;        /* double, not float */
    int bias;        /* then + b, b [C] a constant: 0 none, 1 without -0, 2 with -0 */
} form;
static float g_k; /* W_ONE's value */

static uint32_t g_rng;
/* +-(1 + f) 2^k, k in [-20, 20]: sums depend on their order */
static float rnd_value(void) {
    const int k = (int)(osc_test_rnd32(&g_rng) % 41) - 20;
    float v = 1.0f + (float)(osc_test_rnd32(&g_rng) % 8388608) / 8388608.0f;
    for (int i = 0; i < (k < 0 ? -k : k); i++) v = k < 0 ? v / 2 : v * 2;
    return osc_test_rnd32(&g_rng) & 1 ? -v : v;
}

static float apply(const char *op, float a, float b) {
    return op[0] == 'A' ? a + b : op[0] == 'S' ? a - b : op[0] == 'M' ? a * b : a / b;
}
static double apply_d(const char *op, double a, double b) {
    return op[0] == 'A' ? a + b : op[0] == 'S' ? a - b : op[0] == 'M' ? a * b : a / b;
}

/* w's shape for form fm (its rank returned) */
static int32_t w_dims(const form *fm, int64_t *wd) {
    wd[0] = fm->w == W_COL ? 1 : fm->w == W_VEC ? C : N;
    wd[1] = fm->w == W_ROW ? 1 : C;
    return fm->w == W_VEC ? 1 : 2;
}

/* b's value at column c (form.bias) */
static float bias_value(const form *fm, int c) {
    return fm->bias == 2 && c % 5 == 0 ? -0.0f : (float)(c % 3) - 1.0f + 0.25f * (float)c;
}

static void *build(const form *fm, size_t *len) {
    const int64_t xd[2] = {M, C}, nd[2] = {N, C}, ed[1] = {E}, one[1] = {1}, shape[2] = {E, C};
    const int64_t sd[1] = {2};
    int64_t wd[2];
    const int32_t wr = w_dims(fm, wd);
    const int32_t dt = fm->dbl ? OSC_DOUBLE : OSC_FLOAT;
    const osc_mw_value ins[5] = {{"x", dt, 2, xd, NULL}, {"data", dt, 2, nd, NULL},
                                 {"src", OSC_INT64, 1, ed, NULL}, {"dst", OSC_INT64, 1, ed, NULL},
                                 {"w", dt, wr, wd, NULL}};
    osc_mw *mw = osc_mw_graph(18, 5, ins);
    osc_tensor t = osc_test_view(OSC_INT64, 1, one, one);
    osc_mw_initializer(mw, "axes", &t);
    t = osc_test_view(OSC_INT64, 1, sd, shape);
    osc_mw_initializer(mw, "shape", &t);
#define NODE(op, a, b, out)                                                                    \
    osc_mw_node(mw, op, out, 2, (const char *[]){a, b}, 1, (const char *[]){out})
    NODE("Gather", "x", "src", "xj");
    NODE("Unsqueeze", "dst", "axes", "d1");
    NODE("Expand", "d1", "shape", "idx");
    const int n = osc_mw_node(mw, "ScatterElements", "s", 3, (const char *[]){"data", "idx", "xj"},
                              1, (const char *[]){"s"});
    osc_mw_attr_string(mw, n, "reduction", "add");
    const char *wn = fm->w == W_ONE ? "wone" : "w";
    if (fm->w == W_ONE) {
        const double kd = g_k;
        t = osc_test_view(dt, 1, one, fm->dbl ? (void *)&kd : (void *)&g_k);
        osc_mw_node(mw, "Shape", "shp", 1, (const char *[]){"data"}, 1, (const char *[]){"shp"});
        const int c = osc_mw_node(mw, "ConstantOfShape", "wone", 1, (const char *[]){"shp"}, 1,
                                  (const char *[]){"wone"});
        assert_int_equal(osc_mw_attr_tensor(mw, c, "value", &t), OSC_OK);
    }
    const char *yn = fm->bias ? "y1" : "y";
    if (fm->first) NODE(fm->op, wn, "s", yn);
    else NODE(fm->op, "s", wn, yn);
    if (fm->bias) {
        const int64_t cd[1] = {C};
        float b[C];
        double bd[C];
        for (int c = 0; c < C; c++) bd[c] = b[c] = bias_value(fm, c);
        t = osc_test_view(dt, 1, cd, fm->dbl ? (void *)bd : (void *)b);
        osc_mw_initializer(mw, "b", &t);
        NODE("Add", "y1", "b", "y");
    }
#undef NODE
    osc_mw_output(mw, "y", dt, 2, nd, NULL);
    if (fm->s_output) osc_mw_output(mw, "s", dt, 2, nd, NULL);
    void *buf = NULL;
    if (osc_mw_serialize(mw, &buf, len) != OSC_OK) fail_msg("writer: %s", osc_mw_error(mw));
    osc_mw_free(mw);
    return buf;
}

/* Runs form fm fused and unfused on every thread count against the loop; returns whether the
 * fused model took the op in (one GatherScatter named "s", nothing else running). */
static bool check(const form *fm) {
    N = fm->rows;
    const size_t es = fm->dbl ? sizeof(double) : sizeof(float);
    /* the values as floats (exact in double too), in the model's dtype */
    char *x = malloc(es * M * C), *data = malloc(es * N * C), *w = malloc(es * N * C);
    char *want = malloc(es * N * C);
    int64_t *src = malloc(sizeof(int64_t) * E), *dst = malloc(sizeof(int64_t) * E);
    assert_true(x && data && w && want && src && dst);
    g_rng = 17;
#define PUT(buf, i, v)                                                                         \
    do {                                                                                       \
        const float f_ = (v);                                                                  \
        const double d_ = f_;                                                                  \
        memcpy((buf) + (size_t)(i) * es, fm->dbl ? (const void *)&d_ : (const void *)&f_, es); \
    } while (0)
    for (int i = 0; i < M * C; i++) PUT(x, i, rnd_value());
    for (int i = 0; i < N * C; i++) {
        PUT(data, i, fm->w == W_ONE && i % 7 == 0 ? -0.0f : rnd_value());
        PUT(w, i, rnd_value());
    }
#undef PUT
    for (int e = 0; e < E; e++) {
        src[e] = osc_test_rnd32(&g_rng) % M;
        dst[e] = osc_test_rnd32(&g_rng) % (N / 2); /* rows N/2.. receive nothing */
    }
    memcpy(want, data, es * N * C);
#define EXPECT(T, APPLY)                                                                       \
    do {                                                                                       \
        T *wt = (T *)(void *)want;                                                             \
        const T *xt = (const T *)(const void *)x, *ww = (const T *)(const void *)w;            \
        for (int e = 0; e < E; e++)                                                            \
            for (int c = 0; c < C; c++) wt[dst[e] * C + c] += xt[src[e] * C + c];              \
        for (int r = 0; r < N; r++)                                                            \
            for (int c = 0; c < C; c++) {                                                      \
                const T wv = fm->w == W_ONE ? (T)g_k                                           \
                             : ww[fm->w == W_ROW ? r : fm->w == W_FULL ? r * C + c : c];      \
                T *o = &wt[r * C + c];                                                         \
                *o = fm->first ? APPLY(fm->op, wv, *o) : APPLY(fm->op, *o, wv);                \
                if (fm->bias) *o += (T)bias_value(fm, c);                                      \
            }                                                                                  \
    } while (0)
    if (fm->dbl) EXPECT(double, apply_d);
    else EXPECT(float, apply);
#undef EXPECT
    size_t len = 0;
    void *buf = build(fm, &len);
    const int64_t xd[2] = {M, C}, nd[2] = {N, C}, ed[1] = {E};
    int64_t wd[2];
    const int32_t wr = w_dims(fm, wd);
    const int32_t dt = fm->dbl ? OSC_DOUBLE : OSC_FLOAT;
    const osc_tensor in[5] = {
        osc_test_view(dt, 2, xd, x), osc_test_view(dt, 2, nd, data),
        osc_test_view(OSC_INT64, 1, ed, src), osc_test_view(OSC_INT64, 1, ed, dst),
        osc_test_view(dt, wr, wd, w)};
    static const char *const names[5] = {"x", "data", "src", "dst", "w"};
    bool taken = false;
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
            int running = 0, epilogue = 0;
            for (size_t i = 0; f && i < osc_model_node_count(m); i++) {
                osc_node_desc d;
                assert_int_equal(osc_model_node(m, i, &d), OSC_OK);
                running += !d.folded;
                epilogue += !d.folded && !strcmp(d.op_type, "GatherScatter") &&
                            !strcmp(d.name, "s") && d.fused_rule &&
                            !strcmp(d.fused_rule, "row_epilogue");
            }
            taken = f ? running == 1 && epilogue == 1 : taken;
            osc_session *s = NULL;
            assert_int_equal(osc_session_create(m, &s), OSC_OK);
            const osc_tensor y = osc_check_run(s, 5, names, in);
            assert_int_equal(y.nbytes, es * N * C);
            for (int i = 0; i < N * C; i++)
                if (memcmp((const char *)y.data + i * es, want + i * es, es))
                    fail_msg("%s%s %s (fusion %s, %d threads): [%d][%d] differs from the loop",
                             fm->op, fm->first ? " (operand first)" : "",
                             fm->dbl ? "double" : "float", f ? "on" : "off", k_threads[k], i / C,
                             i % C);
            osc_session_free(s);
            osc_model_free(m);
        }
    free(buf);
    free(x), free(data), free(w), free(want), free(src), free(dst);
    return taken;
}

static void taken_in(void **state) {
    (void)state;
    static const form k_forms[] = {
        {"Div", false, W_ROW, false, 4096, false, 0}, {"Div", true, W_ROW, false, 4096, false, 0},
        {"Sub", true, W_ROW, false, 4096, false, 0},  {"Mul", false, W_ROW, false, 4096, false, 0},
        {"Add", true, W_ROW, false, 4096, false, 0},  {"Div", false, W_ROW, false, 512, false, 0},
        {"Sub", true, W_ROW, false, 512, false, 0},   {"Add", false, W_VEC, false, 4096, false, 0},
        {"Sub", true, W_COL, false, 4096, false, 0},  {"Div", false, W_COL, false, 512, false, 0},
        {"Mul", true, W_VEC, false, 512, false, 0}};
    for (size_t i = 0; i < sizeof k_forms / sizeof k_forms[0]; i++)
        if (!check(&k_forms[i])) fail_msg("form %zu: the op was not taken in", i);
    /* every op on either side with either operand, float and double, grouped (4096 rows; 512
     * in the tiny-threshold build, which groups every output: its ThreadSanitizer stage) */
#ifdef OSC_FUSION_TINY
    enum { EVERY_ROWS = 512 };
#else
    enum { EVERY_ROWS = 4096 };
#endif
    static const char *const ops[4] = {"Add", "Sub", "Mul", "Div"};
    for (int i = 0; i < 32; i++) {
        const form fm = {ops[i % 4], i / 4 % 2, i / 8 % 2 ? W_VEC : W_ROW, false, EVERY_ROWS,
                         i / 16, 0};
        if (!check(&fm)) fail_msg("%s, every form %d: the op was not taken in", fm.op, i);
    }
}

/* One value for every element: the constant is not made, its value is in the parameters. */
static void one_value(void **state) {
    (void)state;
    static const form k_forms[] = {
        {"Add", true, W_ONE, false, 4096, false, 0}, {"Add", false, W_ONE, false, 512, false, 0},
        {"Mul", false, W_ONE, false, 4096, false, 0}, {"Sub", true, W_ONE, false, 512, true, 0},
        {"Div", false, W_ONE, false, 4096, true, 0},  {"Add", false, W_ONE, false, 4096, true, 0}};
    static const float k_values[] = {0.0f, 0.0f, 2.5f, -3.0f, 0.75f, 0.0f};
    for (size_t i = 0; i < sizeof k_forms / sizeof k_forms[0]; i++) {
        g_k = k_values[i];
        if (!check(&k_forms[i])) fail_msg("one-value form %zu: the op was not taken in", i);
    }
    /* + b after + 0: taken over when b holds no -0 (then one node), else left */
    g_k = 0.0f;
    for (int dbl = 0; dbl < 2; dbl++) {
        const form with_b = {"Add", dbl, W_ONE, false, dbl ? 512 : 4096, dbl, 1};
        const form neg_zero = {"Add", false, W_ONE, false, 4096, dbl, 2};
        if (!check(&with_b)) fail_msg("+ 0 then + b (%s): not one node", dbl ? "double" : "float");
        assert_false(check(&neg_zero));
    }
    g_k = NAN; /* left as it is */
    const form nan = {"Add", false, W_ONE, false, 512, false, 0};
    assert_false(check(&nan));
}

static void left_alone(void **state) {
    (void)state;
    const form full = {"Div", false, W_FULL, false, 512, false, 0};
    const form shared = {"Div", false, W_ROW, true, 512, false, 0};
    assert_false(check(&full));
    assert_false(check(&shared));
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(taken_in),
    cmocka_unit_test(one_value),
    cmocka_unit_test(left_alone),
)
