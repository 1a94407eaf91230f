/* test_fusion_bn.c: rule bn_epilogue (rewrite/rule_bn_epilogue.c): an inference-mode
 * BatchNormalization of a Conv (with or without its bias) or Gemm output read by it alone
 * becomes the product normalising each element as it stores it, and a Relu after the
 * normalisation is then taken in too (rule relu_epilogue). Inputs hold a NaN, zeros and
 * negative weights, the variances a zero (epsilon then counts): fused and unfused outputs must
 * be equal bit for bit on 1 and 2 threads, and equal to BatchNormalization's expression computed
 * here in double from the product; the fused model has one node, named after the product, that
 * lists the nodes it replaced. A product output with other readers, a training-mode
 * normalisation and float16 stay unfused; a scale of the wrong length bound at run time fails
 * the fused run with the count it expected and leaves the caller's output buffer untouched. */
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

#include "core/dtype.h"
#include "tests/support/check.h"
#include "tests/support/mw_check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

enum { GEMM, CONV };
enum { N = 2, C = 3, M = 4, W = 5 }; /* batch, in channels (or K), out channels, width */

typedef struct spelling {
    int op;
    int32_t dtype;
    bool bias, relu;
    bool p_output; /* the product's output is a graph output too */
    bool training; /* training_mode = 1 */
    bool relu_first; /* the product, Relu, then the normalisation (relu: false) */
} spelling;

static const double k_x[N * C * W] = {0,  0, 0, 0, 0, 1, 2,   -1, 0, 3, 0, 0, 0, 0, 0,
                                      -2, 1, 0, 0, 1, 2, NAN, 0,  0, 0, 0, 0, 0, 0, 0};
static const double k_w[C * M] = {-1, -2, 0, 1, -3, -1, -1, 2, -0.5, 0, -1, -4};
static const double k_b[M] = {-0.0, 0.25, 0.5, -1};
/* scale, B, mean, var per output channel */
static const double k_bn[4][M] = {{1.5, -2, 0.1, 3}, {0.5, 0, -1, 0.3}, {0.2, -1, 0, 2.5},
                                  {0, 4, 0.7, 1e-3}};
static const char *const k_bn_names[4] = {"scale", "B", "mean", "var"};

static int rank_y(int op) { return op == CONV ? 3 : 2; }

/* x: Gemm [N, C], Conv [N, C, W]; w: Gemm [C, M], Conv [M, C, 1]; b [M]; BN's four [M]
 * initializers (graph inputs for `params_in`). */
static void *build(const spelling *s, bool params_in, size_t *len) {
    const int64_t xd[3] = {N, C, W}, wd[3] = {s->op == CONV ? M : C, s->op == CONV ? C : M, 1},
                  md[1] = {M}, yd[3] = {N, M, W};
    osc_mw *mw = osc_mw_graph(17, 0, NULL);
    osc_mw_input(mw, "x", s->dtype, rank_y(s->op), xd, NULL);
    osc_mw_input(mw, "w", s->dtype, s->op == CONV ? 3 : 2, wd, NULL);
    if (s->bias) osc_mw_input(mw, "b", s->dtype, 1, md, NULL);
    for (int i = 0; i < 4; i++) {
        if (params_in) { /* of a length not fixed by the model */
            osc_mw_input(mw, k_bn_names[i], s->dtype, 1, (const int64_t[]){-1}, NULL);
            continue;
        }
        float f[M];
        double d[M];
        for (int c = 0; c < M; c++) f[c] = (float)k_bn[i][c], d[c] = k_bn[i][c];
        const osc_tensor t = osc_test_view(s->dtype, 1, md, s->dtype == OSC_DOUBLE
                                                                ? (void *)d : (void *)f);
        osc_mw_initializer(mw, k_bn_names[i], &t);
    }
    osc_mw_node(mw, s->op == CONV ? "Conv" : "Gemm", "prod", s->bias ? 3 : 2,
                (const char *[]){"x", "w", "b"}, 1,
                (const char *[]){s->relu_first ? "p0" : "p"});
    if (s->relu_first) osc_mw_node(mw, "Relu", "relu0", 1, (const char *[]){"p0"}, 1,
                                   (const char *[]){"p"});
    const int bn = osc_mw_node(mw, "BatchNormalization", "bn", 5,
                               (const char *[]){"p", "scale", "B", "mean", "var"}, 1,
                               (const char *[]){s->relu ? "q" : "y"});
    osc_mw_attr_float(mw, bn, "epsilon", 0.01f);
    if (s->training) osc_mw_attr_int(mw, bn, "training_mode", 1);
    if (s->relu) osc_mw_node(mw, "Relu", "relu", 1, (const char *[]){"q"}, 1,
                             (const char *[]){"y"});
    osc_mw_output(mw, "y", s->dtype, rank_y(s->op), yd, NULL);
    if (s->p_output) osc_mw_output(mw, "p", s->dtype, rank_y(s->op), yd, NULL);
    return osc_check_serialize(mw, len);
}

/* The product (in the dtype's rounding, each term added in order as the kernels' sums of C = 3
 * small integers are exact), then BatchNormalization's expression in double, then Relu. */
static void expect(const spelling *s, double *want) {
    const float eps = 0.01f;
    for (int n = 0; n < N; n++)
        for (int m = 0; m < M; m++)
            for (int e = 0; e < (s->op == CONV ? W : 1); e++) {
                double acc = 0;
                for (int c = 0; c < C; c++) {
                    const double x = s->op == CONV ? k_x[(n * C + c) * W + e] : k_x[n * C + c];
                    acc += x * (s->op == CONV ? k_w[m * C + c] : k_w[c * M + m]);
                }
                if (s->bias) acc += k_b[m];
                if (s->relu_first && acc < 0) acc = 0;
                const double a = k_bn[0][m] / sqrt(k_bn[3][m] + (double)eps);
                double v = (acc - k_bn[2][m]) * a + k_bn[1][m];
                if (s->dtype == OSC_FLOAT) /* the stored product and parameters are floats */
                    v = (float)(((double)(float)acc - (double)(float)k_bn[2][m]) *
                                    ((double)(float)k_bn[0][m] /
                                     sqrt((double)(float)k_bn[3][m] + (double)eps)) +
                                (double)(float)k_bn[1][m]);
                if (s->relu && v < 0) v = 0;
                want[s->op == CONV ? (n * M + m) * W + e : n * M + m] = v;
            }
}

static void to_dtype(int32_t dt, const double *v, size_t n, void *out) {
    for (size_t i = 0; i < n; i++) {
        if (dt == OSC_FLOAT) ((float *)out)[i] = (float)v[i];
        else if (dt == OSC_DOUBLE) ((double *)out)[i] = v[i];
        else ((uint16_t *)out)[i] = osc_f32_to_f16((float)v[i]);
    }
}

typedef struct inputs {
    unsigned char x[sizeof k_x], w[sizeof k_w], b[sizeof k_b], p[4][M * 8];
    osc_tensor t[7];
} inputs;
static const char *const k_names[7] = {"x", "w", "b", "scale", "B", "mean", "var"};

static void make_inputs(const spelling *s, inputs *in) {
    static const int64_t xd2[2] = {N, C}, xd3[3] = {N, C, W}, md[1] = {M};
    const int64_t wd[3] = {s->op == CONV ? M : C, s->op == CONV ? C : M, 1};
    to_dtype(s->dtype, k_x, N * C * W, in->x), to_dtype(s->dtype, k_w, C * M, in->w);
    to_dtype(s->dtype, k_b, M, in->b);
    in->t[0] = osc_test_view(s->dtype, rank_y(s->op), s->op == CONV ? xd3 : xd2, in->x);
    in->t[1] = osc_test_view(s->dtype, s->op == CONV ? 3 : 2, wd, in->w);
    in->t[2] = osc_test_view(s->dtype, 1, md, in->b);
    for (int i = 0; i < 4; i++) {
        to_dtype(s->dtype, k_bn[i], M, in->p[i]);
        in->t[3 + i] = osc_test_view(s->dtype, 1, md, in->p[i]);
    }
}

/* Binds x, w, (b) and, when params_in, the four; the rest of t[] skipped. */
static void bind(osc_session *ss, const spelling *s, bool params_in, const inputs *in) {
    for (int i = 0; i < 7; i++)
        if ((i != 2 || s->bias) && (i < 3 || params_in))
            osc_check_bind(ss, 1, &k_names[i], &in->t[i]);
}

/* Runs s fused and unfused on 1 and 2 threads; nodes gets the fused model's "name:op" list and
 * the fused node's replaced names, why the normalisation's not_fused reason. */
static void check(const spelling *s, char *nodes, size_t nodes_size, char *why, size_t why_size) {
    size_t len = 0;
    void *buf = build(s, false, &len);
    const size_t es = s->dtype == OSC_DOUBLE ? 8 : s->dtype == OSC_FLOAT ? 4 : 2;
    const size_t ny = (size_t)(N * M * (s->op == CONV ? W : 1));
    unsigned char first[N * M * W * 8];
    double want[N * M * W];
    expect(s, want);
    inputs in;
    make_inputs(s, &in);
    nodes[0] = '\0';
    for (int f = 0; f < 2; f++)
        for (int threads = 1; threads <= 2; threads++) {
            osc_options o;
            osc_options_init(&o);
            o.no_fusion = f == 0;
            o.threads = threads;
            osc_model *m = osc_check_load_buffer(buf, len, &o);
            if (f && threads == 1) osc_check_nodes(m, OSC_CHECK_REPLACED, nodes, nodes_size);
            if (f && threads == 1)
                osc_check_fused(m, "BatchNormalization", "bn", why, why_size);
            osc_session *ss = NULL;
            assert_int_equal(osc_session_create(m, &ss), OSC_OK);
            bind(ss, s, false, &in);
            if (osc_session_run(ss) != OSC_OK) fail_msg("run: %s", osc_session_error(ss));
            osc_tensor y;
            assert_int_equal(osc_session_output(ss, 0, &y), OSC_OK);
            assert_int_equal(y.nbytes, ny * es);
            if (f == 0 && threads == 1) memcpy(first, y.data, ny * es);
            else if (memcmp(first, y.data, ny * es))
                fail_msg("fusion %s, %d threads: the output differs from the unfused one",
                         f ? "on" : "off", threads);
            for (size_t i = 0; s->dtype != OSC_FLOAT16 && !s->training && i < ny; i++) {
                const double got = s->dtype == OSC_FLOAT ? ((const float *)y.data)[i]
                                                         : ((const double *)y.data)[i];
                const double w = s->dtype == OSC_FLOAT ? (double)(float)want[i] : want[i];
                if (isnan(w) != isnan(got) || (!isnan(got) && got != w) ||
                    signbit(got) != signbit(w))
                    fail_msg("op %d element %zu is %.17g; the normalised product is %.17g",
                             s->op, i, got, w);
            }
            osc_session_free(ss);
            osc_model_free(m);
        }
    free(buf);
}

static void fused_products(void **state) {
    (void)state;
    char nodes[512], why[256];
    for (int op = GEMM; op <= CONV; op++)
        for (int v = 0; v < 8; v++) {
            const spelling s = {op, v & 1 ? OSC_DOUBLE : OSC_FLOAT, (v & 2) != 0, (v & 4) != 0,
                                false, false, false};
            check(&s, nodes, sizeof nodes, why, sizeof why);
            char want[256];
            snprintf(want, sizeof want, "prod:%s <- prod,bn%s", op == CONV ? "Conv" : "Gemm",
                     s.relu ? ",relu" : "");
            if (strcmp(nodes, want)) fail_msg("op %d, v %d: nodes '%s'; want '%s'", op, v, nodes,
                                              want);
        }
}

static void left_unfused(void **state) {
    (void)state;
    char nodes[512], why[256];
    const spelling half = {CONV, OSC_FLOAT16, true, false, false, false, false};
    check(&half, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes, "prod:Conv bn:BatchNormalization");
    assert_non_null(strstr(why, "bn_epilogue: the product's output is not float or double"));
    const spelling shared = {GEMM, OSC_FLOAT, true, false, true, false, false};
    check(&shared, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes, "prod:Gemm bn:BatchNormalization");
    assert_non_null(strstr(why, "bn_epilogue: the product's output has other readers"));
    const spelling training = {GEMM, OSC_FLOAT, true, false, false, true, false};
    check(&training, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes, "prod:Gemm bn:BatchNormalization");
    const spelling relu_first = {CONV, OSC_DOUBLE, true, false, false, false, true};
    check(&relu_first, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes, "prod:Conv <- prod,relu0 bn:BatchNormalization");
    assert_non_null(strstr(why, "bn_epilogue: the product already applies a Relu"));
}

/* The four as graph inputs, the scale bound with 3 elements: the fused run fails naming the
 * input and the count, and the bound output buffer keeps its bytes. */
static void bad_scale(void **state) {
    (void)state;
    const spelling s = {CONV, OSC_FLOAT, true, true, false, false, false};
    size_t len = 0;
    void *buf = build(&s, true, &len);
    inputs in;
    make_inputs(&s, &in);
    in.t[3].dims[0] = 3, in.t[3].nbytes = 3 * sizeof(float);
    osc_options o;
    osc_options_init(&o);
    osc_model *m = osc_check_load_buffer(buf, len, &o);
    assert_int_equal(osc_model_node_count(m), 1);
    osc_session *ss = NULL;
    assert_int_equal(osc_session_create(m, &ss), OSC_OK);
    bind(ss, &s, true, &in);
    float out[N * M * W];
    memset(out, 0x5a, sizeof out);
    assert_int_equal(osc_session_set_output_buffer(ss, 0, out, sizeof out), OSC_OK);
    assert_int_not_equal(osc_session_run(ss), OSC_OK);
    assert_non_null(strstr(osc_session_error(ss), "input 3 'scale'"));
    assert_non_null(strstr(osc_session_error(ss), "expected a float type and 4 elements"));
    for (size_t i = 0; i < sizeof out; i++)
        if (((const unsigned char *)out)[i] != 0x5a) fail_msg("output byte %zu was written", i);
    osc_session_free(ss);
    osc_model_free(m);
    free(buf);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(fused_products),
    cmocka_unit_test(left_unfused),
    cmocka_unit_test(bad_scale),
)
