/* test_fusion_matmul_add.c: products written over their input (OSC_KF_INPLACE_SAME on MatMul
 * and Gemm, gemm_kernel.c's osc_gemm_par in row blocks) and rule matmul_add
 * (rewrite/rule_matmul_add.c: Add(S, MatMul(A, B)) becomes MatMulAdd, written over S).
 *
 * The graph of GraphSAGE's update, with R rows (a symbol, dynamic axes) of K features:
 *     t = Neg(x); g = Gemm(t, wl, bl); y = Relu(Add(g, MatMul(x, wr)))
 * Gemm writes over t and MatMulAdd over g (osc_model_node_inplace says so), the Relu is taken
 * in. Every element must equal a reference computed here in the kernel's documented order
 * (gemm_kernel.h: products added by fma in increasing K within blocks of OSC_GEMM_KC, block sums
 * added in order; C after the last block; then S; then Relu), on 1, 2 and 3 threads, with and
 * without fusion, at K = 64 (row blocks) and K = 300 (two K blocks: the partial sums of
 * a block must not land on the rows they are read from), and with Gemm's transA (K x K: its
 * rows are not the output's, A is copied first). A broadcast S, an S read after the Add, or a
 * product read
 * elsewhere too, is left unfused with the reason. */
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

#include "ops/linalg/gemm_kernel.h"
#include "tests/support/check.h"
#include "tests/support/mw_check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

typedef struct shape {
    int64_t rows, k;
    bool broadcast_s; /* the Add's S is bl's [K] row instead of g (no MatMulAdd) */
    bool p_output;    /* the MatMul's output is a graph output too (no MatMulAdd) */
    bool trans_a;     /* Gemm's transA (rows == k, static): Y's rows are not t's, t is copied */
    bool g_output;    /* g is a graph output too: no MatMulAdd (it would not be written over g) */
} shape;

static void *build(const shape *s, size_t *len) {
    const int64_t xd[2] = {s->trans_a ? s->k : -1, s->k}, wd[2] = {s->k, s->k}, bd[1] = {s->k};
    const char *const names[2] = {"R", NULL};
    osc_mw *mw = osc_mw_graph(17, 0, NULL);
    osc_mw_input(mw, "x", OSC_FLOAT, 2, xd, names);
    osc_mw_input(mw, "wl", OSC_FLOAT, 2, wd, NULL);
    osc_mw_input(mw, "bl", OSC_FLOAT, 1, bd, NULL);
    osc_mw_input(mw, "wr", OSC_FLOAT, 2, wd, NULL);
    osc_mw_node(mw, "Neg", "neg", 1, (const char *[]){"x"}, 1, (const char *[]){"t"});
    const int gemm = osc_mw_node(mw, "Gemm", "lin_l", 3, (const char *[]){"t", "wl", "bl"}, 1,
                                 (const char *[]){"g"});
    if (s->trans_a) osc_mw_attr_int(mw, gemm, "transA", 1);
    osc_mw_node(mw, "MatMul", "lin_r", 2, (const char *[]){"x", "wr"}, 1, (const char *[]){"p"});
    osc_mw_node(mw, "Add", "add", 2, (const char *[]){s->broadcast_s ? "bl" : "g", "p"}, 1,
                (const char *[]){"a"});
    osc_mw_node(mw, "Relu", "relu", 1, (const char *[]){"a"}, 1, (const char *[]){"y"});
    osc_mw_output(mw, "y", OSC_FLOAT, 2, xd, names);
    if (s->broadcast_s || s->g_output) osc_mw_output(mw, "g", OSC_FLOAT, 2, xd, names);
    if (s->p_output) osc_mw_output(mw, "p", OSC_FLOAT, 2, xd, names);
    return osc_check_serialize(mw, len);
}

/* Row r of a (R x K; transposed: K x R, then R == K) times w (K x K), in the kernel's
 * documented order. */
static float product(const float *a, bool trans, const float *w, int64_t k, int64_t r,
                     int64_t j) {
    float y = 0;
    for (int64_t q = 0; q < k; q += OSC_GEMM_KC) {
        float s = 0;
        for (int64_t p = q; p < k && p < q + OSC_GEMM_KC; p++)
            s = fmaf(trans ? a[p * k + r] : a[r * k + p], w[p * k + j], s);
        y = q ? y + s : s;
    }
    return y;
}

static void check(const shape *s, char *nodes, size_t nodes_size, char *why, size_t why_size) {
    const int64_t R = s->rows, K = s->k;
    float *x = malloc((size_t)(R * K) * sizeof *x), *t = malloc((size_t)(R * K) * sizeof *t);
    float *wl = malloc((size_t)(K * K) * sizeof *wl), *wr = malloc((size_t)(K * K) * sizeof *wr);
    float *bl = malloc((size_t)K * sizeof *bl), *want = malloc((size_t)(R * K) * sizeof *want);
    assert_true(x && t && wl && wr && bl && want);
    uint32_t seed = 7;
    for (int64_t i = 0; i < R * K; i++) x[i] = (float)osc_test_rnd_value(&seed);
    for (int64_t i = 0; i < K * K; i++) {
        wl[i] = (float)osc_test_rnd_value(&seed) / 8;
        wr[i] = (float)osc_test_rnd_value(&seed) / 8;
    }
    for (int64_t i = 0; i < K; i++) bl[i] = (float)osc_test_rnd_value(&seed);
    for (int64_t i = 0; i < R * K; i++) t[i] = -x[i];
    for (int64_t r = 0; r < R; r++)
        for (int64_t j = 0; j < K; j++) {
            const float g = product(t, s->trans_a, wl, K, r, j) + bl[j];
            const float a = (s->broadcast_s ? bl[j] : g) + product(x, false, wr, K, r, j);
            want[r * K + j] = a < 0 ? 0 : a;
        }
    size_t len = 0;
    void *buf = build(s, &len);
    const int64_t xd[2] = {R, K}, wd[2] = {K, K}, bd[1] = {K};
    const osc_tensor in[4] = {osc_test_view(OSC_FLOAT, 2, xd, x),
                              osc_test_view(OSC_FLOAT, 2, wd, wl),
                              osc_test_view(OSC_FLOAT, 1, bd, bl),
                              osc_test_view(OSC_FLOAT, 2, wd, wr)};
    nodes[0] = '\0';
    for (int f = 0; f < 2; f++)
        for (int threads = 1; threads <= 3; threads++) {
            osc_options o;
            osc_options_init(&o);
            o.no_fusion = f == 0;
            o.threads = threads;
            osc_model *m = osc_check_load_buffer(buf, len, &o);
            if (f && threads == 1) osc_check_nodes(m, OSC_CHECK_INPLACE, nodes, nodes_size);
            if (f && threads == 1) osc_check_fused(m, "Add", "add", why, why_size);
            osc_session *ss = NULL;
            assert_int_equal(osc_session_create(m, &ss), OSC_OK);
            const osc_tensor y =
                osc_check_run(ss, 4, (const char *[]){"x", "wl", "bl", "wr"}, in);
            assert_int_equal(y.nbytes, (size_t)(R * K) * sizeof(float));
            int64_t at = 0;
            while (at < R * K && !memcmp((const float *)y.data + at, want + at, sizeof(float)))
                at++;
            if (at < R * K)
                fail_msg("K %lld, fusion %s, %d threads: element %lld is %a; want %a",
                         (long long)K, f ? "on" : "off", threads, (long long)at,
                         ((const float *)y.data)[at], want[at]);
            osc_session_free(ss);
            osc_model_free(m);
        }
    free(buf);
    free(x), free(t), free(wl), free(wr), free(bl), free(want);
}

static void fused_in_place(void **state) {
    (void)state;
    char nodes[256], why[256];
    for (int c = 0; c < 2; c++) {
        const shape s = {c ? 130 : 5000, c ? 300 : 64, false, false, false, false};
        check(&s, nodes, sizeof nodes, why, sizeof why);
        assert_string_equal(nodes, "neg:Neg lin_l:Gemm(in place) add:MatMulAdd(in place)");
    }
    const shape trans = {600, 600, false, false, true, false}; /* (more rows than a block) */
    check(&trans, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes, "neg:Neg lin_l:Gemm(in place) add:MatMulAdd(in place)");
}

static void left_unfused(void **state) {
    (void)state;
    char nodes[256], why[256];
    const shape broadcast = {40, 8, true, false, false, false};
    check(&broadcast, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes,
                        "neg:Neg lin_l:Gemm(in place) lin_r:MatMul add:Add relu:Relu(in place)");
    const shape shared = {40, 8, false, true, false, false};
    check(&shared, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes, "neg:Neg lin_l:Gemm(in place) lin_r:MatMul add:Add(in place) "
                               "relu:Relu(in place)");
    assert_non_null(strstr(why, "matmul_add: the product's output has other readers"));
    const shape kept = {40, 8, false, false, false, true}; /* S read after the Add too */
    check(&kept, nodes, sizeof nodes, why, sizeof why);
    assert_string_equal(nodes, "neg:Neg lin_l:Gemm(in place) lin_r:MatMul add:Add "
                               "relu:Relu(in place)");
    assert_non_null(strstr(why, "matmul_add: the addend is read elsewhere too"));
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(fused_in_place),
    cmocka_unit_test(left_unfused),
)
