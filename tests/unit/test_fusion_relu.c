/* test_fusion_relu.c: rule relu_epilogue (rewrite/rule_relu_epilogue.c): Relu(P) of a MatMul,
 * Gemm, Conv (with its bias) or ConvTranspose output read by the Relu alone becomes the product
 * storing Relu's values itself. Inputs hold a NaN, zeros and negative weights: fused and unfused
 * outputs must be equal bit for bit, on 1 and 2 threads, and equal to Relu of the product
 * computed here; the fused model has no Relu node and
 * its product node is named after the product; so with x's rows picked by a Compress (an
 * output of data-dependent shape). float16, or a product output that is also a
 * graph output, stays unfused with the reason. */
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

enum { MATMUL, GEMM, CONV, CONVT };
enum { N = 2, C = 3, M = 4, W = 5 }; /* batch, in channels (or K), out channels, width */

typedef struct spelling {
    int op;
    int32_t dtype;
    bool p_output; /* the product's output is a graph output too */
    bool picked;   /* x's rows picked by Compress(x, keep) with keep an input: a product output
                    * of data-dependent shape (the rule takes the dtype from the weight) */
} spelling;
static const bool k_keep[2] = {true, true}; /* (every row: the loop below stays the reference) */

/* x: MatMul/Gemm [N, C]; Conv/ConvTranspose [N, C, W]. w: [C, M]; Conv [M, C, 1]; ConvTranspose
 * [C, M, 1]. b [M] (Gemm's C, the Convs' bias). y: [N, M] or [N, M, W]. */
static int rank_x(int op) { return op == CONV || op == CONVT ? 3 : 2; }

static void *build(const spelling *s, size_t *len) {
    const bool conv = s->op == CONV || s->op == CONVT;
    const int64_t xd[3] = {N, C, W}, wd[3] = {s->op == CONV ? M : C, s->op == CONV ? C : M, 1},
                  bd[1] = {M}, yd[3] = {N, M, W};
    osc_mw *mw = osc_mw_graph(17, 0, NULL);
    osc_mw_input(mw, s->picked ? "x_all" : "x", s->dtype, rank_x(s->op), xd, NULL);
    if (s->picked) {
        osc_mw_input(mw, "keep", OSC_BOOL, 1, (const int64_t[]){N}, NULL);
        const int n = osc_mw_node(mw, "Compress", "pick", 2, (const char *[]){"x_all", "keep"},
                                  1, (const char *[]){"x"});
        osc_mw_attr_int(mw, n, "axis", 0);
    }
    osc_mw_input(mw, "w", s->dtype, conv ? 3 : 2, wd, NULL);
    if (s->op != MATMUL) osc_mw_input(mw, "b", s->dtype, 1, bd, NULL);
    static const char *const ops[4] = {"MatMul", "Gemm", "Conv", "ConvTranspose"};
    osc_mw_node(mw, ops[s->op], "prod", s->op == MATMUL ? 2 : 3,
                (const char *[]){"x", "w", "b"}, 1, (const char *[]){"p"});
    osc_mw_node(mw, "Relu", "relu", 1, (const char *[]){"p"}, 1, (const char *[]){"y"});
    osc_mw_output(mw, "y", s->dtype, rank_x(s->op), yd, NULL);
    if (s->p_output) osc_mw_output(mw, "p", s->dtype, rank_x(s->op), yd, NULL);
    return osc_check_serialize(mw, len);
}

/* x holds zeros, a NaN and small integers; w and b negative numbers and zeros: outputs
 * negative (Relu's 0), NaN and positive. */
static const double k_x[N * C * W] = {0,  0, 0, 0, 0, 1, 2,   -1, 0, 3, 0, 0, 0, 0, 0,
                                      -2, 1, 0, 0, 1, 2, NAN, 0,  0, 0, 0, 0, 0, 0, 0};
static const double k_w[C * M] = {-1, -2, 0, 1, -3, -1, -1, 2, -0.5, 0, -1, -4};
static const double k_b[M] = {-0.0, -0.0, 0.5, -0.0};

/* Relu of the product by loops here, into want (doubles). */
static void expect(const spelling *s, double *want) {
    for (int n = 0; n < N; n++)
        for (int m = 0; m < M; m++)
            for (int e = 0; e < (rank_x(s->op) == 3 ? W : 1); e++) {
                double acc = 0; /* (+0 + -0 is +0: no sum is -0) */
                for (int c = 0; c < C; c++) {
                    const double x = rank_x(s->op) == 3 ? k_x[(n * C + c) * W + e] : k_x[n * C + c];
                    acc += x * (s->op == CONV ? k_w[m * C + c] : k_w[c * M + m]);
                }
                if (s->op != MATMUL) acc += k_b[m];
                const int at = rank_x(s->op) == 3 ? (n * M + m) * W + e : n * M + m;
                want[at] = acc < 0 ? 0 : acc;
            }
}

static void to_dtype(int32_t dt, const double *v, size_t n, void *out) {
    for (size_t i = 0; i < n; i++) {
        if (dt == OSC_FLOAT) ((float *)out)[i] = (float)v[i];
        else if (dt == OSC_DOUBLE) ((double *)out)[i] = v[i];
        else ((uint16_t *)out)[i] = osc_f32_to_f16((float)v[i]);
    }
}

/* Runs s fused and unfused on 1 and 2 threads; returns the fused model's nodes ("prod" alone
 * when fused) and the Relu's not_fused reason in why. */
static void check(const spelling *s, char *nodes, size_t nodes_size, char *why, size_t why_size) {
    size_t len = 0;
    void *buf = build(s, &len);
    const size_t es = s->dtype == OSC_DOUBLE ? 8 : s->dtype == OSC_FLOAT ? 4 : 2;
    const size_t ny = (size_t)(N * M * (rank_x(s->op) == 3 ? W : 1));
    unsigned char x[sizeof k_x], w[sizeof k_w], b[sizeof k_b], first[N * M * W * 8];
    to_dtype(s->dtype, k_x, N * C * W, x), to_dtype(s->dtype, k_w, C * M, w);
    to_dtype(s->dtype, k_b, M, b);
    double want[N * M * W];
    expect(s, want);
    const int64_t xd[3] = {N, C, W}, wd[3] = {s->op == CONV ? M : C, s->op == CONV ? C : M, 1},
                  bd[1] = {M};
    const bool conv = s->op == CONV || s->op == CONVT;
    const osc_tensor in[4] = {osc_test_view(s->dtype, rank_x(s->op), xd, x),
                              osc_test_view(s->dtype, conv ? 3 : 2, wd, w),
                              osc_test_view(s->dtype, 1, bd, b),
                              osc_test_view(OSC_BOOL, 1, (const int64_t[]){N}, k_keep)};
    nodes[0] = '\0';
    for (int f = 0; f < 2; f++)
        for (int threads = 1; threads <= 2; threads++) {
            osc_options o;
            osc_options_init(&o);
            o.no_fusion = f == 0;
            o.threads = threads;
            osc_model *m = osc_check_load_buffer(buf, len, &o);
            if (f && threads == 1) osc_check_nodes(m, 0, nodes, nodes_size);
            if (f && threads == 1) osc_check_fused(m, "Relu", "relu", why, why_size);
            osc_session *ss = NULL;
            assert_int_equal(osc_session_create(m, &ss), OSC_OK);
            if (s->picked) osc_check_bind(ss, 1, (const char *[]){"keep"}, in + 3);
            const osc_tensor y = osc_check_run(ss, s->op == MATMUL ? 2 : 3,
                                               (const char *[]){s->picked ? "x_all" : "x", "w",
                                                                "b"},
                                               in);
            assert_int_equal(y.nbytes, ny * es);
            if (f == 0 && threads == 1) memcpy(first, y.data, ny * es);
            else if (memcmp(first, y.data, ny * es))
                fail_msg("fusion %s, %d threads: the output differs from the unfused one",
                         f ? "on" : "off", threads);
            for (size_t i = 0; s->dtype != OSC_FLOAT16 && i < ny; i++) {
                const double got = s->dtype == OSC_FLOAT ? ((const float *)y.data)[i]
                                                         : ((const double *)y.data)[i];
                if (isnan(want[i]) != isnan(got) || (!isnan(got) && got != want[i]) ||
                    signbit(got) != signbit(want[i]))
                    fail_msg("element %zu is %g; Relu of the product is %g", i, got, want[i]);
            }
            osc_session_free(ss);
            osc_model_free(m);
        }
    free(buf);
}

static void fused_products(void **state) {
    (void)state;
    char nodes[256], why[256];
    for (int op = MATMUL; op <= CONVT; op++)
        for (int d = 0; d < 2; d++) {
            const spelling s = {op, d ? OSC_DOUBLE : OSC_FLOAT, false, false};
            check(&s, nodes, sizeof nodes, why, sizeof why);
            static const char *const want[4] = {"prod:MatMul", "prod:Gemm", "prod:Conv",
                                                "prod:ConvTranspose"};
            if (strcmp(nodes, want[op])) fail_msg("op %d: nodes '%s'; want '%s'", op, nodes,
                                                  want[op]);
        }
    const spelling picked = {MATMUL, OSC_FLOAT, false, true};
    check(&picked, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes, "pick:Compress prod:MatMul");
}

static void left_unfused(void **state) {
    (void)state;
    char nodes[256], why[256];
    const spelling half = {CONV, OSC_FLOAT16, false, false};
    check(&half, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes, "prod:Conv relu:Relu");
    assert_non_null(strstr(why, "relu_epilogue: the product's output is not float or double"));
    const spelling shared = {GEMM, OSC_FLOAT, true, false};
    check(&shared, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes, "prod:Gemm relu:Relu");
    assert_non_null(strstr(why, "relu_epilogue: the product's output has other readers"));
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(fused_products),
    cmocka_unit_test(left_unfused),
)
