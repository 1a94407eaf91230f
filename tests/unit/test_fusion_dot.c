/* test_fusion_dot.c: rule row_dot (rewrite/rule_row_dot.c) and its kernel RowDot
 * (ops/fused/fused_dot.c). The graph, as torch writes GAT's attention logits (h * att).sum(-1):
 *     y = ReduceSum(Mul(X, W), axes = [-1] or [rank - 1], keepdims)
 * W of X's trailing dims after leading 1s ([1, H, C] or [H, C] against [N, H, C]) or of X's
 * shape, either factor first, the axes an input (opset 13 on) or an attribute (11). X holds NaN,
 * infinities and -0; N is not a multiple of 8 (the kernel's tail). Fused, y must be one RowDot's
 * and equal, bit for bit, a loop written here (each product rounded, added from the first in
 * order) and the unfused graph, on every thread count, but for which NaN a sum of two NaNs is
 * (IEEE 754 leaves it open, and a compiler may swap the operands of an addition: the unfused
 * ReduceSum's loop does); other axes, or a product something else reads, are left unfused. */
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

enum { N = 1203, H = 3, C = 11 };

typedef struct spelling {
    int32_t dtype;
    int w_rank;       /* 3: [1, H, C]; 2: [H, C]; 4: [N, H, C] as a graph input; 5: [1, H, 1] */
    bool w_first;     /* Mul(W, X) */
    int64_t opset;    /* 13 on: axes an input; 11: an attribute */
    int64_t axis;     /* -1 or 2 fuse; 1 does not */
    bool keepdims, product_output;
} spelling;

static void *build(const spelling *s, size_t *len) {
    const int64_t xd[3] = {N, H, C}, wd3[3] = {1, H, C}, ax = s->axis;
    const osc_mw_value in[2] = {{"x", s->dtype, 3, xd, NULL}, {"w", s->dtype, 3, xd, NULL}};
    osc_mw *mw = osc_mw_graph(s->opset, s->w_rank == 4 ? 2 : 1, in);
    if (s->w_rank != 4) {
        double wv[H * C];
        float wf[H * C];
        for (int i = 0; i < H * C; i++) wv[i] = (i % 7 - 3) * 0.375 + (i == 5 ? NAN : 0.0),
                                        wf[i] = (float)wv[i];
        const int64_t wd5[3] = {1, H, 1};
        const osc_tensor w = osc_test_view(s->dtype, s->w_rank == 2 ? 2 : 3,
                                           s->w_rank == 3 ? wd3 : s->w_rank == 2 ? wd3 + 1 : wd5,
                                           s->dtype == OSC_FLOAT ? (void *)wf : (void *)wv);
        osc_mw_initializer(mw, "w", &w);
    }
    const char *a = s->w_first ? "w" : "x", *b = s->w_first ? "x" : "w";
    osc_mw_node(mw, "Mul", "mul", 2, (const char *[]){a, b}, 1, (const char *[]){"p"});
    int n;
    if (s->opset >= 13) {
        const osc_tensor t = osc_test_view(OSC_INT64, 1, (const int64_t[]){1}, &ax);
        osc_mw_initializer(mw, "axes", &t);
        n = osc_mw_node(mw, "ReduceSum", "sum", 2, (const char *[]){"p", "axes"}, 1,
                        (const char *[]){"y"});
    } else {
        n = osc_mw_node(mw, "ReduceSum", "sum", 1, (const char *[]){"p"}, 1,
                        (const char *[]){"y"});
        osc_mw_attr_ints(mw, n, "axes", &ax, 1);
    }
    osc_mw_attr_int(mw, n, "keepdims", s->keepdims);
    osc_mw_output(mw, "y", s->dtype, -1, NULL, NULL);
    if (s->product_output) osc_mw_output(mw, "p", s->dtype, 3, xd, NULL);
    return osc_check_serialize(mw, len);
}

/* x's and w's values (w: its first H * C unless it is [N, H, C]) */
static double value(uint32_t i) {
    static const double k_special[] = {NAN, INFINITY, -INFINITY, -0.0, 1e30, -1e-30};
    uint32_t h = i * 2654435761u;
    return h % 211 == 0 ? k_special[(h >> 8) % 6] : (double)(h >> 20) / 512.0 - 4.0;
}

#define EXPECT(T)                                                                           \
    static void expect_##T(const spelling *s, const T *x, const T *w, T *y) {               \
        for (int64_t e = 0; e < N * H; e++) {                                               \
            const T *wr = w + (s->w_rank == 4 ? e * C : e % H * C), *xr = x + e * C;        \
            T a = 0;                                                                        \
            for (int i = 0; i < C; i++) {                                                   \
                const T p = (T)(s->w_first ? wr[i] * xr[i] : xr[i] * wr[i]);                \
                a = i ? (T)(a + p) : p;                                                     \
            }                                                                               \
            y[e] = a;                                                                       \
        }                                                                                   \
    }
EXPECT(float)
EXPECT(double)

/* Runs the spelling fused and unfused on every thread count against the loop; the RowDot nodes
 * of the fused model, and the ReduceSum's not_fused reason in why. */
static int check(const spelling *s, char *why, size_t why_size) {
    size_t len = 0;
    void *buf = build(s, &len);
    const size_t es = s->dtype == OSC_FLOAT ? 4 : 8;
    char *x = malloc(es * N * H * C), *w = malloc(es * N * H * C), *want = malloc(es * N * H);
    assert_true(x && w && want);
    for (uint32_t i = 0; i < N * H * C; i++) {
        const double wv = s->w_rank == 4 ? value(i + 77777u) : ((int)(i % 7) - 3) * 0.375 +
                                                                 (i % (H * C) == 5 ? NAN : 0.0);
        if (s->dtype == OSC_FLOAT) ((float *)(void *)x)[i] = (float)value(i),
                                   ((float *)(void *)w)[i] = (float)wv;
        else ((double *)(void *)x)[i] = value(i), ((double *)(void *)w)[i] = wv;
    }
    if (s->dtype == OSC_FLOAT) expect_float(s, (float *)(void *)x, (float *)(void *)w,
                                            (float *)(void *)want);
    else expect_double(s, (double *)(void *)x, (double *)(void *)w, (double *)(void *)want);
    const int64_t xd[3] = {N, H, C};
    const osc_tensor t[2] = {osc_test_view(s->dtype, 3, xd, x), osc_test_view(s->dtype, 3, xd, w)};
    int fused = 0;
    for (int f = 0; f < 2 * N_THREADS; f++) {
        osc_model *m = osc_fusion_round(buf, len, f);
        if (f % 2) fused = osc_check_fused(m, "RowDot", "sum", why, why_size);
        osc_session *ss = NULL;
        assert_int_equal(osc_session_create(m, &ss), OSC_OK);
        const osc_tensor y = osc_check_run(ss, s->w_rank == 4 ? 2 : 1,
                                           (const char *[]){"x", "w"}, t);
        if (s->axis == 1) { /* (left unfused: the unfused graph's output is the one to match) */
            osc_session_free(ss);
            osc_model_free(m);
            continue;
        }
        osc_check_shape(&y, s->dtype, s->keepdims ? 3 : 2,
                        (const int64_t[]){N, H, s->keepdims ? 1 : 0});
        for (int64_t i = 0; i < N * H; i++) {
            const double got = es == 4 ? (double)((const float *)y.data)[i]
                                       : ((const double *)y.data)[i];
            const double exp = es == 4 ? (double)((const float *)(void *)want)[i]
                                       : ((const double *)(void *)want)[i];
            if (memcmp((const char *)y.data + i * es, want + i * es, es) &&
                !(isnan(got) && isnan(exp)))
                fail_msg("fusion %s, %d threads: element %lld is %a; the loop's %a",
                         f % 2 ? "on" : "off", k_threads[f / 2], (long long)i, got, exp);
        }
        osc_session_free(ss);
        osc_model_free(m);
    }
    free(x), free(w), free(want), free(buf);
    return fused;
}

static void fused_spellings(void **state) {
    (void)state;
    static const spelling k_fused[] = {
        {OSC_FLOAT, 3, false, 18, -1, false, false}, /* torch's GAT */
        {OSC_FLOAT, 2, true, 13, 2, true, false},
        {OSC_DOUBLE, 3, true, 11, -1, false, false},
        {OSC_DOUBLE, 4, false, 18, 2, true, false}, /* W of X's shape */
        {OSC_FLOAT, 4, true, 11, 2, false, false},
    };
    char why[256];
    for (size_t i = 0; i < sizeof k_fused / sizeof k_fused[0]; i++)
        if (check(&k_fused[i], why, sizeof why) != 1)
            fail_msg("spelling %zu not fused: %s", i, why);
}

/* The reason spelling s's model, loaded with fusion, gives for leaving its ReduceSum alone. */
static void why_not(const spelling *s, const char *reason) {
    size_t len;
    char why[256];
    void *buf = build(s, &len);
    osc_options o;
    osc_options_init(&o);
    osc_model *m = osc_check_load_buffer(buf, len, &o);
    assert_int_equal(osc_check_fused(m, "RowDot", "sum", why, sizeof why), 0);
    if (!strstr(why, reason)) fail_msg("why: '%s'", why);
    osc_model_free(m);
    free(buf);
}

static void left_unfused(void **state) {
    (void)state;
    char why[256];
    /* W [1, H, 1] broadcasts along the summed axis: no factor is X's trailing dims */
    const spelling across = {OSC_FLOAT, 5, false, 18, -1, false, false};
    why_not(&across, "row_dot: no factor of the product is X with the other of X's trailing");
    const spelling attr_middle = {OSC_DOUBLE, 3, true, 11, 1, true, false};
    why_not(&attr_middle, "row_dot: not a float or double sum over the product's last axis");
    const spelling middle = {OSC_FLOAT, 3, false, 18, 1, false, false};
    assert_int_equal(check(&middle, why, sizeof why), 0);
    if (!strstr(why, "row_dot: not a float or double sum over the product's last axis alone"))
        fail_msg("why: '%s'", why);
    const spelling shared = {OSC_FLOAT, 3, false, 18, -1, false, true};
    assert_int_equal(check(&shared, why, sizeof why), 0);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(fused_spellings),
    cmocka_unit_test(left_unfused),
)
