/* test_ops_loss.c: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss run one node at a time:
 * every reduction, weights, ignore_index on every position, weights summing to zero, float16,
 * bfloat16 and double, int32 targets, N-d inputs, and the target check (an error naming the
 * position and value, outputs untouched). Expected values come from ref_loss below, a naive loop
 * over the spec's formulas written apart from the kernel, or are worked out by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kharness.h"
#include "ops/registry.h"

static void near(double got, double want, double rel, int i) {
    if (isnan(want) && isnan(got)) return;
    if (isinf(want) && got == want) return;
    if (!(fabs(got - want) <= rel * fabs(want) + 1e-12))
        fail_msg("element %d: got %.17g, want %.17g", i, got, want);
}

/* Element i of a float, double, float16 or bfloat16 tensor, and the storing of one. */
static double elem(const osc_tensor *t, int64_t i) {
    switch (t->dtype) {
    case OSC_FLOAT: return ((const float *)t->data)[i];
    case OSC_DOUBLE: return ((const double *)t->data)[i];
    case OSC_FLOAT16: return osc_f16_to_f32(((const uint16_t *)t->data)[i]);
    default: return osc_bf16_to_f32(((const uint16_t *)t->data)[i]);
    }
}

static void put(int32_t dt, void *buf, int64_t i, double v) {
    switch (dt) {
    case OSC_FLOAT: ((float *)buf)[i] = (float)v; break;
    case OSC_DOUBLE: ((double *)buf)[i] = v; break;
    case OSC_FLOAT16: ((uint16_t *)buf)[i] = osc_f32_to_f16((float)v); break;
    default: ((uint16_t *)buf)[i] = osc_f32_to_bf16((float)v); break;
    }
}

/* The loss straight from the spec, for input x [n, c, d] (d the product of d1..dk), targets
 * tg [n, d], weights w (NULL: ones); sce: x are scores, their log-softmax taken first (no shift:
 * the inputs here are small). red: 0 none (each[] gets the losses), 1 sum, 2 mean. */
static double ref_loss(const double *x, const int64_t *tg, const double *w, int64_t n, int64_t c,
                       int64_t d, bool sce, bool has_ii, int64_t ii, int red, double *each) {
    double num = 0, den = 0;
    for (int64_t s = 0; s < n; s++)
        for (int64_t j = 0; j < d; j++) {
            const int64_t t = tg[s * d + j];
            double l = 0;
            if (!(has_ii && t == ii)) {
                double lp = x[(s * c + t) * d + j];
                if (sce) {
                    double z = 0;
                    for (int64_t q = 0; q < c; q++) z += exp(x[(s * c + q) * d + j]);
                    lp = log(exp(lp) / z);
                }
                const double wt = w ? w[t] : 1;
                l = -lp * wt;
                den += wt;
            }
            if (each) each[s * d + j] = l;
            num += l;
        }
    return red == 1 ? num : num / den;
}

/* The fixture: input [2, 3, 2] (N, C, d1), 4 targets [2, 2], 3 weights. */
static const double k_x[12] = {-1.5, -0.25, -2,   -0.5, -0.75, -3,
                               -0.1, -1.25, -0.6, -2.5, -1,    -0.3};
static const int64_t k_tg[4] = {2, 1, 0, 2};
static const double k_w[3] = {0.5, 2, 0.25};
static const char *const k_red[3] = {"none", "sum", "mean"};

typedef struct lcase {
    const char *op;
    int64_t opset;
    int32_t dt;
    int red;             /* 0 none, 1 sum, 2 mean; -1: no attribute (mean) */
    bool has_ii;
    int64_t ii;
    const int64_t *tg;   /* 4 targets */
    bool i32;            /* int32 targets */
    const double *w;     /* NULL: no weight input */
    int32_t n_out;
} lcase;

/* What a case ran on: the buffers, and the inputs' values as their dtype holds them. */
typedef struct lrun {
    unsigned char x[12 * 8], w[3 * 8], t[4 * 8];
    osc_tensor tx, tt, tw;
    double xv[12], wv[3];
} lrun;

static osc_status run_case(kh *h, const lcase *c, lrun *r) {
    for (int i = 0; i < 12; i++) {
        put(c->dt, r->x, i, k_x[i]);
        r->xv[i] = elem(&(osc_tensor){.dtype = c->dt, .data = r->x}, i);
    }
    for (int i = 0; c->w && i < 3; i++) {
        put(c->dt, r->w, i, c->w[i]);
        r->wv[i] = elem(&(osc_tensor){.dtype = c->dt, .data = r->w}, i);
    }
    for (int i = 0; i < 4; i++)
        if (c->i32) ((int32_t *)r->t)[i] = (int32_t)c->tg[i];
        else ((int64_t *)r->t)[i] = c->tg[i];
    r->tx = kh_tensor(c->dt, 3, (int64_t[]){2, 3, 2}, r->x);
    r->tt = kh_tensor(c->i32 ? OSC_INT32 : OSC_INT64, 2, (int64_t[]){2, 2}, r->t);
    r->tw = kh_tensor(c->dt, 1, (int64_t[]){3}, r->w);
    const osc_tensor *in[3] = {&r->tx, &r->tt, &r->tw};
    kh_init(h, c->op, c->opset);
    assert_non_null(h->kernel);
    if (c->red >= 0) kh_attr_str(h, "reduction", k_red[c->red]);
    if (c->has_ii) kh_attr_int(h, "ignore_index", c->ii);
    return kh_run_multi(h, c->w ? 3 : 2, in, c->n_out);
}

/* Runs c and checks output 0 against ref_loss within rel. */
static void check_case(const lcase *c, double rel) {
    kh h;
    lrun r;
    assert_int_equal(run_case(&h, c, &r), OSC_OK);
    double each[4];
    const int red = c->red < 0 ? 2 : c->red;
    const double want = ref_loss(r.xv, c->tg, c->w ? r.wv : NULL, 2, 3, 2, c->op[0] == 'S',
                                 c->has_ii, c->ii, red, each);
    assert_int_equal(h.outs[0].dtype, c->dt);
    if (red == 0) {
        assert_int_equal(h.outs[0].rank, 2);
        for (int i = 0; i < 4; i++) near(elem(&h.outs[0], i), each[i], rel, i);
    } else {
        assert_int_equal(h.outs[0].rank, 0);
        near(elem(&h.outs[0], 0), want, rel, 0);
    }
    kh_free(&h);
}

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"NegativeLogLikelihoodLoss", 11, 0},  {"NegativeLogLikelihoodLoss", 12, 12},
        {"NegativeLogLikelihoodLoss", 13, 13}, {"NegativeLogLikelihoodLoss", 21, 13},
        {"NegativeLogLikelihoodLoss", 22, 22}, {"NegativeLogLikelihoodLoss", 28, 22},
        {"SoftmaxCrossEntropyLoss", 11, 0},    {"SoftmaxCrossEntropyLoss", 12, 12},
        {"SoftmaxCrossEntropyLoss", 13, 13},   {"SoftmaxCrossEntropyLoss", 28, 13},
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
}

/* One value worked out by hand: NLL, weights, mean: targets 2, 1, 0, 2 pick -0.75, -0.5, -0.1,
 * -0.3, weighted 0.25, 2, 0.5, 0.25: (0.1875 + 1 + 0.05 + 0.075) / 3 = 0.4375. */
static void test_by_hand(void **state) {
    (void)state;
    kh h;
    lrun r;
    const lcase c = {"NegativeLogLikelihoodLoss", 13, OSC_DOUBLE, -1, false, 0, k_tg, false, k_w,
                     1};
    assert_int_equal(run_case(&h, &c, &r), OSC_OK);
    near(elem(&h.outs[0], 0), 0.4375, 1e-15, 0);
    kh_free(&h);
}

/* Every reduction, with and without weights, both ops, every dtype each version allows, int64
 * and int32 targets. */
static void test_reductions_dtypes(void **state) {
    (void)state;
    static const struct {
        const char *op;
        int64_t opset;
        int32_t dt;
        double rel;
    } k_cases[] = {
        {"NegativeLogLikelihoodLoss", 12, OSC_FLOAT, 1e-6},
        {"NegativeLogLikelihoodLoss", 13, OSC_DOUBLE, 1e-15},
        {"NegativeLogLikelihoodLoss", 13, OSC_FLOAT16, 1e-3},
        {"NegativeLogLikelihoodLoss", 22, OSC_BFLOAT16, 8e-3},
        {"SoftmaxCrossEntropyLoss", 12, OSC_FLOAT16, 1e-3},
        {"SoftmaxCrossEntropyLoss", 13, OSC_DOUBLE, 1e-14},
        {"SoftmaxCrossEntropyLoss", 13, OSC_BFLOAT16, 8e-3},
        {"SoftmaxCrossEntropyLoss", 13, OSC_FLOAT, 1e-6},
    };
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++)
        for (int red = -1; red < 3; red++)
            for (int v = 0; v < 4; v++) {
                const lcase c = {k_cases[i].op, k_cases[i].opset, k_cases[i].dt, red, false, 0,
                                 k_tg, v & 2, v & 1 ? k_w : NULL, 1};
                check_case(&c, k_cases[i].rel);
            }
    /* a dtype outside the version's constraint: NLL-13 has no bfloat16 */
    kh h;
    lrun r;
    const lcase bad = {"NegativeLogLikelihoodLoss", 13, OSC_BFLOAT16, 0, false, 0, k_tg, false,
                       NULL, 1};
    assert_int_equal(run_case(&h, &bad, &r), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
}

/* SCE's log_prob: the log-softmax over C of every element, ignored samples included. */
static void test_log_prob(void **state) {
    (void)state;
    static const int64_t tg[4] = {2, -7, 0, 1};
    for (int red = 0; red < 3; red++) {
        const lcase c = {"SoftmaxCrossEntropyLoss", 13, OSC_FLOAT, red, true, -7, tg, false,
                         k_w, 2};
        kh h;
        lrun r;
        assert_int_equal(run_case(&h, &c, &r), OSC_OK);
        assert_int_equal(h.outs[1].rank, 3);
        for (int s = 0; s < 2; s++)
            for (int j = 0; j < 2; j++) {
                double z = 0;
                for (int q = 0; q < 3; q++) z += exp(r.xv[(s * 3 + q) * 2 + j]);
                for (int q = 0; q < 3; q++) {
                    const int at = (s * 3 + q) * 2 + j;
                    near(elem(&h.outs[1], at), log(exp(r.xv[at]) / z), 1e-6, at);
                }
            }
        kh_free(&h);
        check_case(&c, 1e-6);
    }
}

/* ignore_index at each position in turn, then at all: that sample loses and weighs nothing.
 * ignore_index may lie inside [0, C) (class 1 is then never counted) or outside. */
static void test_ignore_every_position(void **state) {
    (void)state;
    static const char *const ops[2] = {"NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"};
    static const int64_t iis[2] = {-100, 1};
    for (int o = 0; o < 2; o++)
        for (int q = 0; q < 2; q++)
            for (int p = 0; p < 5; p++)
                for (int red = 0; red < 3; red++)
                    for (int weighted = 0; weighted < 2; weighted++) {
                        int64_t tg[4];
                        for (int i = 0; i < 4; i++)
                            tg[i] = p == 4 || i == p ? iis[q] : (k_tg[i] == 1 ? 2 : k_tg[i]);
                        const lcase c = {ops[o], 13, OSC_DOUBLE, red, true, iis[q], tg, false,
                                         weighted ? k_w : NULL, 1};
                        check_case(&c, 1e-14);
                        if (p < 4 || red == 1) continue;
                        /* all ignored: zeros; the mean divides 0 by 0 */
                        kh h;
                        lrun r;
                        assert_int_equal(run_case(&h, &c, &r), OSC_OK);
                        for (int i = 0; i < (red ? 1 : 4); i++) {
                            const double got = elem(&h.outs[0], i);
                            if (red == 0) assert_true(got == 0 && !signbit(got));
                            else assert_true(isnan(got));
                        }
                        kh_free(&h);
                    }
}

/* Weights summing to zero under "mean": the sum divided by 0, as the reference divides (NaN
 * when the sum is 0 too, else an infinity of its sign). */
static void test_zero_weight_sum(void **state) {
    (void)state;
    static const double w_cancel[3] = {1, -1, 0}, w_zero[3] = {0, 0, 0};
    static const int64_t tg[4] = {0, 1, 2, 2};
    for (int o = 0; o < 2; o++) {
        const char *op = o ? "SoftmaxCrossEntropyLoss" : "NegativeLogLikelihoodLoss";
        kh h;
        lrun r;
        lcase c = {op, 13, OSC_FLOAT, 2, false, 0, tg, false, w_zero, 1};
        assert_int_equal(run_case(&h, &c, &r), OSC_OK);
        assert_true(isnan(elem(&h.outs[0], 0)));
        kh_free(&h);
        /* NLL: 1.5 * 1 + 0.5 * -1 = 1 over 1 - 1 = 0: +inf */
        c.w = w_cancel;
        assert_int_equal(run_case(&h, &c, &r), OSC_OK);
        const double got = elem(&h.outs[0], 0);
        assert_true(isinf(got));
        if (!o) assert_true(got > 0);
        kh_free(&h);
        check_case(&c, 0);
    }
}

/* A target outside [0, C) that is not ignore_index: OSC_ERR_INDEX naming the node, the input,
 * the target's coordinates, the value and the range; no output written. Every position, values
 * just past each end and the extremes of int64 and int32. */
static void test_target_out_of_range(void **state) {
    (void)state;
    static const int64_t bad64[4] = {3, -1, INT64_MAX, INT64_MIN};
    static const int64_t bad32[2] = {INT32_MAX, INT32_MIN};
    for (int o = 0; o < 2; o++)
        for (int p = 0; p < 4; p++)
            for (int b = 0; b < 6; b++)
                for (int ii = 0; ii < 2; ii++) {
                    const bool i32 = b >= 4;
                    int64_t tg[4] = {0, 1, 2, 0};
                    tg[p] = i32 ? bad32[b - 4] : bad64[b];
                    const lcase c = {o ? "SoftmaxCrossEntropyLoss" : "NegativeLogLikelihoodLoss",
                                     13, OSC_FLOAT, 0, ii, 1, tg, i32, k_w, o ? 2 : 1};
                    kh h;
                    lrun r;
                    assert_int_equal(run_case(&h, &c, &r), OSC_ERR_INDEX);
                    char want[128];
                    kh_assert_msg_has(&h, o ? "node 'n0' (SoftmaxCrossEntropyLoss-13)"
                                            : "node 'n0' (NegativeLogLikelihoodLoss-13)");
                    kh_assert_msg_has(&h, o ? "input 1 'labels'" : "input 1 'target'");
                    snprintf(want, sizeof want, "at [%d,%d]: value %lld is out of range [0, 2]",
                             p / 2, p % 2, (long long)tg[p]);
                    kh_assert_msg_has(&h, want);
                    if (ii) kh_assert_msg_has(&h, "or ignore_index 1");
                    for (int j = 0; j < c.n_out; j++) kh_assert_untouched(&h.outs[j]);
                    kh_free(&h);
                }
    /* -1 is a class only when ignore_index says so */
    static const int64_t tg[4] = {0, -1, 2, 0};
    const lcase ok = {"NegativeLogLikelihoodLoss", 22, OSC_FLOAT, 1, true, -1, tg, false, NULL, 1};
    check_case(&ok, 1e-6);
}

/* Inputs of rank 4 and 2: (N, C, d1, d2) and (N, C), against the naive loop. */
static void test_nd_shapes(void **state) {
    (void)state;
    double x[24], each[8];
    for (int i = 0; i < 24; i++) x[i] = -0.125 * (double)((i * 7) % 11);
    static const int64_t tg[8] = {0, 2, 1, 1, 2, 0, 0, 2};
    static const int64_t dx[2][4] = {{2, 3, 2, 2}, {8, 3}}, dt[2][3] = {{2, 2, 2}, {8}};
    for (int shape = 0; shape < 2; shape++)
        for (int o = 0; o < 2; o++) {
            /* (8, 3): the same values as samples of 3 consecutive classes */
            const int64_t n = shape ? 8 : 2, d = shape ? 1 : 4;
            osc_tensor tx = kh_tensor(OSC_DOUBLE, shape ? 2 : 4, dx[shape], x);
            osc_tensor tt = kh_tensor(OSC_INT64, shape ? 1 : 3, dt[shape], tg);
            const osc_tensor *in[2] = {&tx, &tt};
            kh h;
            kh_init(&h, o ? "SoftmaxCrossEntropyLoss" : "NegativeLogLikelihoodLoss", 13);
            kh_attr_str(&h, "reduction", "none");
            assert_int_equal(kh_run(&h, 2, in), OSC_OK);
            assert_int_equal(h.out.rank, tt.rank);
            ref_loss(x, tg, NULL, n, 3, d, o, false, 0, 0, each);
            for (int i = 0; i < 8; i++) near(((double *)h.out.data)[i], each[i], 1e-14, i);
            kh_free(&h);
        }
    /* no samples: sum 0, mean 0 / 0 */
    osc_tensor tx = kh_tensor(OSC_FLOAT, 2, (int64_t[]){0, 3}, NULL);
    osc_tensor tt = kh_tensor(OSC_INT64, 1, (int64_t[]){0}, NULL);
    for (int red = 1; red < 3; red++) {
        kh h;
        kh_init(&h, "NegativeLogLikelihoodLoss", 13);
        kh_attr_str(&h, "reduction", k_red[red]);
        assert_int_equal(kh_run2(&h, &tx, &tt), OSC_OK);
        const float got = *(float *)h.out.data;
        assert_true(red == 1 ? got == 0 : isnan(got));
        kh_free(&h);
    }
}

/* Bad attributes at init; bad shapes and dtypes at infer, each named. */
static void test_bad_nodes(void **state) {
    (void)state;
    kh h;
    kh_init(&h, "NegativeLogLikelihoodLoss", 13);
    kh_attr_str(&h, "reduction", "average");
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'reduction' = 'average'");
    kh_init(&h, "SoftmaxCrossEntropyLoss", 13);
    kh_attr_int(&h, "axis", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "axis");
    float xb[24] = {0};
    int64_t tb[8] = {0};
    static const struct {
        int32_t xr, tr;
        int64_t xd[3], td[3];
        int32_t wlen;
        const char *needle;
    } k_shapes[] = {
        {1, 1, {3}, {3}, 0, "it needs rank >= 2"},
        {3, 2, {2, 3, 2}, {2, 3}, 0, "has shape [2,3]; input 0 'input' [2,3,2] needs [2,2]"},
        {3, 1, {2, 3, 2}, {2}, 0, "needs [2,2]"},
        {2, 1, {2, 3}, {3}, 0, "needs [2]"},
        {2, 1, {2, 3}, {2}, 4, "has shape [4]; input 0 [2,3] needs shape [3] (one weight"},
    };
    for (size_t i = 0; i < sizeof k_shapes / sizeof k_shapes[0]; i++) {
        osc_tensor tx = kh_tensor(OSC_FLOAT, k_shapes[i].xr, k_shapes[i].xd, xb);
        osc_tensor tt = kh_tensor(OSC_INT64, k_shapes[i].tr, k_shapes[i].td, tb);
        osc_tensor tw = kh_tensor(OSC_FLOAT, 1, (int64_t[]){k_shapes[i].wlen}, xb);
        const osc_tensor *in[3] = {&tx, &tt, &tw};
        kh_init(&h, "NegativeLogLikelihoodLoss", 13);
        assert_int_equal(kh_run(&h, k_shapes[i].wlen ? 3 : 2, in), OSC_ERR_SHAPE);
        kh_assert_msg_has(&h, k_shapes[i].needle);
        kh_free(&h);
    }
    /* weights of another dtype; float targets */
    osc_tensor tx = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, xb);
    osc_tensor tt = kh_tensor(OSC_INT64, 1, (int64_t[]){2}, tb);
    osc_tensor tw = kh_tensor(OSC_DOUBLE, 1, (int64_t[]){3}, xb);
    kh_init(&h, "SoftmaxCrossEntropyLoss", 13);
    assert_int_not_equal(kh_run3(&h, &tx, &tt, &tw), OSC_OK);
    kh_assert_msg_has(&h, "'weights'");
    kh_free(&h);
    kh_init(&h, "NegativeLogLikelihoodLoss", 13);
    assert_int_equal(kh_run2(&h, &tx, &tx), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "input 1 'target'");
    kh_free(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_resolve),
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_reductions_dtypes),
        cmocka_unit_test(test_log_prob),
        cmocka_unit_test(test_ignore_every_position),
        cmocka_unit_test(test_zero_weight_sum),
        cmocka_unit_test(test_target_out_of_range),
        cmocka_unit_test(test_nd_shapes),
        cmocka_unit_test(test_bad_nodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
