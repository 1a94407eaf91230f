/* test_ops_rope.c: RMSNormalization and RotaryEmbedding run one node at a time: values worked
 * out by hand, every dtype pair, axis, scale broadcast, stash type, layout and attribute against
 * float64 references written here from the spec's formulas (per output element, apart from the
 * kernels' loops), in place, shape inference without data, and the refusals: each names what is
 * wrong, and a bad position id leaves the output untouched. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "kharness.h"
#include "ops/registry.h"
#include "tests/support/check.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define MAXN 512

static const int32_t k_floats[4] = {OSC_FLOAT, OSC_FLOAT16, OSC_DOUBLE, OSC_BFLOAT16};

/* Element i of a float, double, float16 or bfloat16 tensor, and the storing of one. */
static double elem(const osc_tensor *t, int64_t i) {
    switch (t->dtype) {
    case OSC_FLOAT: return ((const float *)t->data)[i];
    case OSC_DOUBLE: return ((const double *)t->data)[i];
    case OSC_FLOAT16: return osc_f16_to_f32(((const uint16_t *)t->data)[i]);
    default: return osc_bf16_to_f32(((const uint16_t *)t->data)[i]);
    }
}
static void put(osc_tensor *t, int64_t i, double v) {
    switch (t->dtype) {
    case OSC_FLOAT: ((float *)t->data)[i] = (float)v; break;
    case OSC_DOUBLE: ((double *)t->data)[i] = v; break;
    case OSC_FLOAT16: ((uint16_t *)t->data)[i] = osc_f32_to_f16((float)v); break;
    default: ((uint16_t *)t->data)[i] = osc_f32_to_bf16((float)v); break;
    }
}
/* Unit roundoff of a float dtype. */
static double ulp(int32_t dt) {
    return dt == OSC_DOUBLE ? 0x1p-53 : dt == OSC_FLOAT ? 0x1p-24 : dt == OSC_FLOAT16 ? 0x1p-11
                                                                                    : 0x1p-8;
}

/* A tensor of dtype dt over buf holding a fixed pseudo-random pattern in [-2, 2) (seed varies
 * it), every value exact in dt. */
static osc_tensor filled(int32_t dt, int32_t rank, const int64_t *dims, double *buf, int seed) {
    osc_tensor t = kh_tensor(dt, rank, dims, buf);
    const int64_t n = osc_tensor_count(&t);
    assert_true(n <= MAXN);
    uint32_t r = 12345u + (uint32_t)seed * 7919u;
    for (int64_t i = 0; i < n; i++) {
        r = r * 1103515245u + 12345u;
        put(&t, i, ((double)(r >> 16 & 0xffff) - 32768) / 16384.0);
    }
    return t;
}

static void near(double got, double want, double tol, int64_t i, const char *what) {
    if (!(fabs(got - want) <= tol * (fabs(want) > 1 ? fabs(want) : 1)))
        fail_msg("%s element %lld: got %.17g, want %.17g (tol %g)", what, (long long)i, got,
                 want, tol);
}
/* ---- RMSNormalization ---- */

/* Flat index into t (rank <= rank of x, right-aligned, 1s broadcast) of x's flat element i. */
static int64_t bcast_index(const osc_tensor *x, const osc_tensor *t, int64_t i) {
    int64_t at = 0, stride = 1;
    for (int32_t d = x->rank - 1; d >= 0; d--) {
        const int64_t c = i % x->dims[d];
        i /= x->dims[d];
        const int32_t td = d - (x->rank - t->rank);
        if (td < 0) continue;
        if (t->dims[td] != 1) at += c * stride;
        stride *= t->dims[td];
    }
    return at;
}

/* Y of RMSNormalization straight from the spec, in float64: x / sqrt(mean(x^2) + eps) * s. */
static void ref_rms(const osc_tensor *x, const osc_tensor *s, int32_t axis, double eps,
                    double *y) {
    int64_t n = 1;
    for (int32_t d = axis; d < x->rank; d++) n *= x->dims[d];
    const int64_t total = osc_tensor_count(x);
    for (int64_t i = 0; i < total; i++) {
        const int64_t r0 = i / n * n;
        double sq = 0;
        for (int64_t j = 0; j < n; j++) sq += elem(x, r0 + j) * elem(x, r0 + j);
        y[i] = elem(x, i) / sqrt(sq / (double)n + eps) * elem(s, bcast_index(x, s, i));
    }
}

/* 1 and 7: mean square 25, RMS 5; scale 2 and 0.5: Y = 0.4, 0.7. */
static void test_rms_by_hand(void **state) {
    (void)state;
    static const float x[2] = {1, 7}, s[2] = {2, 0.5f};
    const osc_tensor tx = kh_tensor(OSC_FLOAT, 2, D(1, 2), x);
    const osc_tensor ts = kh_tensor(OSC_FLOAT, 1, D(2), s);
    kh h;
    kh_init_since(&h, "RMSNormalization", 23, 23);
    kh_attr_float(&h, "epsilon", 0);
    kh_expect_ok(&h, kh_run2(&h, &tx, &ts));
    assert_int_equal(h.out.dtype, OSC_FLOAT);
    assert_true(fabs(((float *)h.out.data)[0] - 0.4) < 1e-7);
    assert_true(fabs(((float *)h.out.data)[1] - 0.7) < 1e-7);
    kh_free(&h);
    kh_init(&h, "RMSNormalization", 22);
    assert_null(h.kernel); /* no row before 23 */
    kh_free(&h);
}

/* Every X dtype with every scale dtype, every axis of [2, 3, 4] (negative too), scale of the
 * normalised shape or broadcast from 1s, stash float and double, in place when dtypes match. */
static void test_rms_sweep(void **state) {
    (void)state;
    static const int64_t xd[3] = {2, 3, 4};
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int32_t axis = -3; axis < 3; axis++)
                for (int form = 0; form < 2; form++) {
                    const int32_t tx_dt = k_floats[a], v_dt = k_floats[b];
                    const int32_t pa = axis < 0 ? axis + 3 : axis;
                    const int64_t stash = form ? OSC_DOUBLE : OSC_FLOAT;
                    double xb[MAXN], sb[MAXN], xcopy[MAXN], want[MAXN];
                    int64_t sd[3];
                    const int32_t sr = 3 - pa;
                    for (int32_t d = 0; d < sr; d++) /* form 1: 1 in the middle dims */
                        sd[d] = form && d < sr - 1 ? 1 : xd[pa + d];
                    osc_tensor x = filled(tx_dt, 3, xd, xb, a * 4 + b);
                    const osc_tensor s = filled(v_dt, sr, sd, sb, axis + 7);
                    ref_rms(&x, &s, pa, (double)1e-5f, want); /* the default, a float */
                    const double tol = 8 * (ulp(tx_dt) + ulp(v_dt) + ulp((int32_t)stash));
                    for (int inplace = 0; inplace < (tx_dt == v_dt ? 2 : 1); inplace++) {
                        memcpy(xcopy, xb, sizeof xb);
                        x.data = xcopy;
                        kh h;
                        kh_init(&h, "RMSNormalization", 25);
                        kh_attr_int(&h, "axis", axis);
                        kh_attr_int(&h, "stash_type", stash);
                        const osc_tensor *in[2] = {&x, &s};
                        kh_expect_ok(&h, inplace ? kh_run_inplace(&h, 2, in) : kh_run(&h, 2, in));
                        osc_check_shape(&h.out, v_dt, 3, xd);
                        for (int64_t i = 0; i < 24; i++)
                            near(elem(&h.out, i), want[i], tol, i, "RMSNormalization");
                        kh_free(&h);
                    }
                }
}

/* Stage one is rounded to stash_type: 1 + 2^-30 in a double X is 1 in float, so with stash
 * float both of X = (1 + 2^-30, 1) normalise to exactly 1, with stash double the first to more;
 * likewise 1 + 2^-12 in a float X is 1 in float16 (stash 10) and bfloat16 (stash 16). */
static void test_rms_stash(void **state) {
    (void)state;
    static const double xd[2] = {1 + 0x1p-30, 1}, one[1] = {1};
    static const float xf[2] = {1 + 0x1p-12f, 1};
    static const float onef[1] = {1};
    static const struct {
        int32_t dt;
        int64_t stash;
        bool exact_one;
    } k_cases[] = {{OSC_DOUBLE, OSC_FLOAT, true},      {OSC_DOUBLE, OSC_DOUBLE, false},
                   {OSC_FLOAT, OSC_FLOAT16, true},      {OSC_FLOAT, OSC_BFLOAT16, true},
                   {OSC_FLOAT, OSC_FLOAT, false}};
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        const bool dbl = k_cases[c].dt == OSC_DOUBLE;
        const osc_tensor x = kh_tensor(k_cases[c].dt, 1, D(2), dbl ? (const void *)xd : xf);
        const osc_tensor s = kh_tensor(k_cases[c].dt, 1, D(1), dbl ? (const void *)one : onef);
        kh h;
        kh_init(&h, "RMSNormalization", 23);
        kh_attr_float(&h, "epsilon", 0);
        kh_attr_int(&h, "stash_type", k_cases[c].stash);
        kh_expect_ok(&h, kh_run2(&h, &x, &s));
        const double y0 = elem(&h.out, 0), y1 = elem(&h.out, 1);
        if (k_cases[c].exact_one ? y0 != 1 || y1 != 1 : !(y0 > 1 && y1 < 1))
            fail_msg("case %zu: got %.17g, %.17g", c, y0, y1);
        kh_free(&h);
    }
}

static void test_rms_bad(void **state) {
    (void)state;
    kh h;
    kh_init(&h, "RMSNormalization", 23);
    kh_attr_int(&h, "stash_type", 7);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'stash_type' = 7; allowed: 1 (float)");
    kh_init(&h, "RMSNormalization", 23);
    kh_attr_int(&h, "keepdims", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "keepdims");
    static const float buf[24] = {0};
    static const int32_t i32[24] = {0};
    static const struct {
        int32_t xdt, xr, sr, sdt;
        int64_t xd[3], sd[3], axis;
        osc_status st;
        const char *needle;
    } k_bad[] = {
        {OSC_FLOAT, 2, 1, OSC_FLOAT, {2, 3}, {2}, -1, OSC_ERR_SHAPE,
         "input 1 'scale' () has shape [2], which does not broadcast to input 0 'X' [2,3]"},
        {OSC_FLOAT, 2, 3, OSC_FLOAT, {2, 3}, {1, 2, 3}, -1, OSC_ERR_SHAPE, "does not broadcast"},
        {OSC_FLOAT, 2, 1, OSC_FLOAT, {2, 3}, {3}, 2, OSC_ERR_MODEL,
         "attribute 'axis' = 2 is out of range [-2, 1]"},
        {OSC_FLOAT, 2, 1, OSC_FLOAT, {2, 3}, {3}, -3, OSC_ERR_MODEL, "out of range"},
        {OSC_FLOAT, 0, 0, OSC_FLOAT, {0}, {0}, -1, OSC_ERR_SHAPE, "is a scalar (rank 0)"},
        {OSC_INT32, 2, 1, OSC_FLOAT, {2, 3}, {3}, -1, OSC_ERR_UNSUPPORTED, "input 0 'X'"},
        {OSC_FLOAT, 2, 1, OSC_INT32, {2, 3}, {3}, -1, OSC_ERR_UNSUPPORTED, "input 1 'scale'"},
    };
    for (size_t c = 0; c < sizeof k_bad / sizeof k_bad[0]; c++) {
        const osc_tensor x = kh_tensor(k_bad[c].xdt, k_bad[c].xr, k_bad[c].xd,
                                       k_bad[c].xdt == OSC_INT32 ? (const void *)i32 : buf);
        const osc_tensor s = kh_tensor(k_bad[c].sdt, k_bad[c].sr, k_bad[c].sd,
                                       k_bad[c].sdt == OSC_INT32 ? (const void *)i32 : buf);
        kh_init(&h, "RMSNormalization", 23);
        kh_attr_int(&h, "axis", k_bad[c].axis);
        const osc_status st = kh_run2(&h, &x, &s);
        if (st != k_bad[c].st) fail_msg("case %zu: status %d: %s", c, (int)st, h.err.msg);
        kh_assert_msg_has(&h, k_bad[c].needle);
        kh_free(&h);
    }
    /* one input only */
    const osc_tensor x = kh_tensor(OSC_FLOAT, 1, D(3), buf);
    kh_init(&h, "RMSNormalization", 23);
    assert_int_equal(kh_run1(&h, &x), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "input 1 'scale' is required but missing");
    kh_free(&h);
}

/* ---- RotaryEmbedding ---- */

typedef struct rope_case {
    int32_t dt;
    bool four_d, interleaved, has_pos;
    int64_t batch, heads, seq, head, rot; /* rot: the attribute (0: the whole head) */
    int64_t pos_b, pos_s;                 /* position_ids' (or the 3-D caches') batch and seq */
} rope_case;

/* Y of RotaryEmbedding from the spec, one output element at a time in float64: X in the 4-D
 * view [b, h, s, d]; a rotated element pairs with its partner (the other half, or its
 * neighbour when interleaved) and takes cos/sin of pair index i at the token's cache row. */
static void ref_rope(const rope_case *c, const osc_tensor *x, const osc_tensor *cs,
                     const osc_tensor *sn, const int64_t *pos, int64_t max_pos, double *y) {
    const int64_t rd = c->rot ? c->rot : c->head, half = rd / 2;
    for (int64_t b = 0; b < c->batch; b++)
        for (int64_t h = 0; h < c->heads; h++)
            for (int64_t s = 0; s < c->seq; s++) {
                /* flat index of element d of this head vector in X's own layout */
                const int64_t base = c->four_d ? ((b * c->heads + h) * c->seq + s) * c->head
                                               : ((b * c->seq + s) * c->heads + h) * c->head;
                const int64_t pb = c->pos_b == 1 ? 0 : b, ps = c->pos_s == 1 ? 0 : s;
                int64_t row = pb * c->pos_s + ps;
                if (pos) row = pos[row] < 0 ? pos[row] + max_pos : pos[row];
                for (int64_t d = 0; d < c->head; d++) {
                    if (d >= rd) {
                        y[base + d] = elem(x, base + d);
                        continue;
                    }
                    const int64_t i = c->interleaved ? d / 2 : d % half;
                    const bool first = c->interleaved ? d % 2 == 0 : d < half;
                    const double x1 = elem(x, base + (c->interleaved ? 2 * i : i));
                    const double x2 = elem(x, base + (c->interleaved ? 2 * i + 1 : i + half));
                    const double co = elem(cs, row * half + i), si = elem(sn, row * half + i);
                    y[base + d] = first ? co * x1 - si * x2 : si * x1 + co * x2;
                }
            }
}

/* Runs case c (in place when asked) against ref_rope; positions pos (NULL: made here). */
static void rope_check(const rope_case *c, const int64_t *pos_in, bool inplace) {
    const int64_t rd = c->rot ? c->rot : c->head, half = rd / 2, max_pos = 7;
    double xb[MAXN], cb[MAXN], sb[MAXN], want[MAXN];
    int64_t pos[64];
    const int64_t *xd = c->four_d ? D(c->batch, c->heads, c->seq, c->head)
                                  : D(c->batch, c->seq, c->heads * c->head);
    const osc_tensor x = filled(c->dt, c->four_d ? 4 : 3, xd, xb, (int)c->head);
    const int64_t *cd = c->has_pos ? D(max_pos, half) : D(c->pos_b, c->pos_s, half);
    const osc_tensor tc = filled(c->dt, c->has_pos ? 2 : 3, cd, cb, 3);
    const osc_tensor ts = filled(c->dt, c->has_pos ? 2 : 3, cd, sb, 4);
    for (int64_t i = 0; i < c->pos_b * c->pos_s; i++)
        pos[i] = pos_in ? pos_in[i] : (i * 5 + 2) % max_pos;
    const osc_tensor tp = kh_tensor(OSC_INT64, 2, D(c->pos_b, c->pos_s), pos);
    ref_rope(c, &x, &tc, &ts, c->has_pos ? pos : NULL, max_pos, want);
    kh h;
    kh_init(&h, "RotaryEmbedding", 23);
    if (c->interleaved) kh_attr_int(&h, "interleaved", 1);
    if (c->rot) kh_attr_int(&h, "rotary_embedding_dim", c->rot);
    if (!c->four_d) kh_attr_int(&h, "num_heads", c->heads);
    const osc_tensor *in[4] = {&x, &tc, &ts, c->has_pos ? &tp : NULL};
    kh_expect_ok(&h, inplace ? kh_run_inplace(&h, 4, in) : kh_run(&h, 4, in));
    osc_check_shape(&h.out, c->dt, x.rank, xd);
    const double tol = 4 * ulp(c->dt) + 64 * 0x1p-24;
    for (int64_t i = 0; i < osc_tensor_count(&x); i++)
        near(elem(&h.out, i), want[i], tol, i, "RotaryEmbedding");
    kh_free(&h);
}

/* X = (1, 2) at a position whose cos is 0.6, sin 0.8: Y = (0.6 - 1.6, 0.8 + 1.2) = (-1, 2). */
static void test_rope_by_hand(void **state) {
    (void)state;
    static const float x[2] = {1, 2}, c[2] = {9, 0.6f}, s[2] = {9, 0.8f};
    static const int64_t pos[1] = {1};
    const osc_tensor tx = kh_tensor(OSC_FLOAT, 4, D(1, 1, 1, 2), x);
    const osc_tensor tc = kh_tensor(OSC_FLOAT, 2, D(2, 1), c);
    const osc_tensor ts = kh_tensor(OSC_FLOAT, 2, D(2, 1), s);
    const osc_tensor tp = kh_tensor(OSC_INT64, 2, D(1, 1), pos);
    const osc_tensor *in[4] = {&tx, &tc, &ts, &tp};
    for (int inter = 0; inter < 2; inter++) { /* one pair: the same either way */
        kh h;
        kh_init_since(&h, "RotaryEmbedding", 23, 23);
        kh_attr_int(&h, "interleaved", inter);
        kh_expect_ok(&h, kh_run(&h, 4, in));
        assert_true(fabs(((float *)h.out.data)[0] + 1) < 1e-6);
        assert_true(fabs(((float *)h.out.data)[1] - 2) < 1e-6);
        kh_free(&h);
    }
}

/* Each dtype; 4-D and 3-D; halves and interleaved; whole and partial rotation; with position
 * ids (also [1, seq] and [batch, 1], broadcast) and without (3-D caches); in place. */
static void test_rope_sweep(void **state) {
    (void)state;
    static const int32_t k_dts[3] = {OSC_FLOAT, OSC_FLOAT16, OSC_BFLOAT16};
    static const int64_t k_pos[3][2] = {{2, 3}, {1, 3}, {2, 1}};
    for (int t = 0; t < 3; t++)
        for (int form = 0; form < 8; form++)
            for (int p = 0; p < 3; p++)
                for (int rot = 0; rot < 3; rot++) {
                    const rope_case c = {.dt = k_dts[t], .four_d = form & 1,
                                         .interleaved = form >> 1 & 1, .has_pos = form >> 2,
                                         .batch = 2, .heads = 3, .seq = 3, .head = 8,
                                         .rot = (int64_t[]){0, 4, 2}[rot],
                                         .pos_b = k_pos[p][0], .pos_s = k_pos[p][1]};
                    rope_check(&c, NULL, false);
                    rope_check(&c, NULL, true);
                }
}

/* A negative position id counts from the cache's end (the spec's Gather): -1 is row 6 of 7. */
static void test_rope_negative_position(void **state) {
    (void)state;
    static const int64_t pos[6] = {-1, 0, -7, 6, 3, -4};
    const rope_case c = {.dt = OSC_FLOAT, .four_d = true, .has_pos = true, .batch = 2,
                         .heads = 1, .seq = 3, .head = 4, .pos_b = 2, .pos_s = 3};
    rope_check(&c, pos, false);
}

/* Shapes known, data not: infer gives Y's dtype and shape. */
static void test_rope_infer(void **state) {
    (void)state;
    const osc_tensor x = kh_tensor(OSC_FLOAT16, 3, D(2, 5, 12), NULL);
    const osc_tensor cs = kh_tensor(OSC_FLOAT16, 2, D(100, 2), NULL);
    const osc_tensor p = kh_tensor(OSC_INT64, 2, D(1, 5), NULL);
    const osc_tensor *in[4] = {&x, &cs, &cs, &p};
    kh h;
    kh_init(&h, "RotaryEmbedding", 23);
    kh_attr_int(&h, "num_heads", 3);
    kh_attr_int(&h, "rotary_embedding_dim", 4);
    kh_expect_ok(&h, kh_infer(&h, 4, in, 1));
    osc_check_shape(&h.outs[0], OSC_FLOAT16, 3, D(2, 5, 12));
    kh_free(&h);
    const osc_tensor rx = kh_tensor(OSC_BFLOAT16, 3, D(2, 5, 12), NULL);
    const osc_tensor rs = kh_tensor(OSC_FLOAT, 1, D(12), NULL);
    const osc_tensor *rin[2] = {&rx, &rs};
    kh_init(&h, "RMSNormalization", 23);
    kh_expect_ok(&h, kh_infer(&h, 2, rin, 1));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 3, D(2, 5, 12)); /* Y has scale's dtype */
    kh_free(&h);
}

/* A position id past the cache: OSC_ERR_INDEX naming it, nothing written. */
static void test_rope_position_out_of_range(void **state) {
    (void)state;
    static const float x[24] = {0}, cs[8] = {0};
    static const int64_t bad[2][6] = {{0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 1, -6}};
    static const char *const needle[2] = {
        "input 3 'position_ids' () position [1, 1]: value 4 is out of range [-4, 3] for the 4 "
        "rows of input 1 'cos_cache'",
        "position [1, 2]: value -6 is out of range [-4, 3]"};
    for (int q = 0; q < 2; q++) {
        const osc_tensor tx = kh_tensor(OSC_FLOAT, 4, D(2, 1, 3, 4), x);
        const osc_tensor tc = kh_tensor(OSC_FLOAT, 2, D(4, 2), cs);
        const osc_tensor tp = kh_tensor(OSC_INT64, 2, D(2, 3), bad[q]);
        const osc_tensor *in[4] = {&tx, &tc, &tc, &tp};
        kh h;
        kh_init(&h, "RotaryEmbedding", 23);
        assert_int_equal(kh_run(&h, 4, in), OSC_ERR_INDEX);
        kh_assert_msg_has(&h, needle[q]);
        kh_assert_untouched(&h.out);
        kh_free(&h);
    }
}

static void test_rope_bad(void **state) {
    (void)state;
    kh h;
    static const struct {
        const char *attr;
        int64_t v;
        const char *needle;
    } k_attrs[] = {{"interleaved", 2, "attribute 'interleaved' = 2; allowed: 0 or 1"},
                   {"rotary_embedding_dim", 3, "attribute 'rotary_embedding_dim' = 3 is odd"},
                   {"num_heads", -2, "attribute 'num_heads' = -2 is negative"},
                   {"scale", 1, "scale"}};
    for (size_t c = 0; c < sizeof k_attrs / sizeof k_attrs[0]; c++) {
        kh_init(&h, "RotaryEmbedding", 23);
        kh_attr_int(&h, k_attrs[c].attr, k_attrs[c].v);
        kh_init_fails(&h, OSC_ERR_MODEL, k_attrs[c].needle);
    }
    static const float buf[128] = {0};
    static const int64_t pos[8] = {0};
    static const struct {
        int32_t xr, cr, pr; /* pr -1: no position_ids */
        int64_t xd[4], cd[3], pd[2], heads, rot;
        int32_t sin_dt;
        osc_status st;
        const char *needle;
    } k_bad[] = {
        {4, 2, 2, {1, 2, 3, 8}, {5, 3}, {1, 3}, 0, 0, OSC_FLOAT, OSC_ERR_SHAPE,
         "input 1 'cos_cache' () has shape [5,3]; expected (max_position_id_plus_1, 4) with "
         "input 3 'position_ids'"},
        {4, 3, -1, {1, 2, 3, 8}, {1, 3, 4}, {0}, 0, 0, OSC_FLOAT, OSC_OK, ""}, /* control */
        {4, 2, -1, {1, 2, 3, 8}, {5, 4}, {0}, 0, 0, OSC_FLOAT, OSC_ERR_SHAPE,
         "expected (batch, seq, 4) without input 3 'position_ids'"},
        {4, 3, -1, {2, 2, 3, 8}, {3, 3, 4}, {0}, 0, 0, OSC_FLOAT, OSC_ERR_SHAPE,
         "input 1 'cos_cache' () has shape [3,3,4]: dim 0 is 3; expected 2 (batch of input 0 "
         "'X') or 1"},
        {4, 2, 2, {2, 2, 3, 8}, {5, 4}, {2, 2}, 0, 0, OSC_FLOAT, OSC_ERR_SHAPE,
         "input 3 'position_ids' () has shape [2,2]: dim 1 is 2; expected 3 (seq"},
        {4, 2, 1, {1, 2, 3, 8}, {5, 4}, {3}, 0, 0, OSC_FLOAT, OSC_ERR_SHAPE,
         "input 3 'position_ids' () has shape [3]; expected (batch, seq)"},
        {3, 2, 2, {1, 3, 16}, {5, 4}, {1, 3}, 0, 0, OSC_FLOAT, OSC_ERR_MODEL,
         "is 3-D, so attribute 'num_heads' is required"},
        {3, 2, 2, {1, 3, 16}, {5, 4}, {1, 3}, 3, 0, OSC_FLOAT, OSC_ERR_SHAPE,
         "has hidden size 16 (dim 2), which attribute 'num_heads' = 3 does not divide"},
        {3, 2, 2, {1, 3, 12}, {5, 3}, {1, 3}, 2, 0, OSC_FLOAT, OSC_OK, ""}, /* control */
        {3, 2, 2, {1, 3, 12}, {5, 3}, {1, 3}, 4, 0, OSC_FLOAT, OSC_ERR_SHAPE,
         "has head size 3; the spec needs an even head size"},
        {4, 2, 2, {1, 2, 3, 8}, {5, 5}, {1, 3}, 0, 10, OSC_FLOAT, OSC_ERR_SHAPE,
         "attribute 'rotary_embedding_dim' = 10 is more than the head size 8"},
        {4, 2, 2, {1, 2, 3, 8}, {5, 4}, {1, 3}, 3, 0, OSC_FLOAT, OSC_ERR_SHAPE,
         "attribute 'num_heads' = 3 but input 0 'X' () of shape [1,2,3,8] has 2 heads"},
        {2, 2, 2, {3, 8}, {5, 4}, {1, 3}, 0, 0, OSC_FLOAT, OSC_ERR_SHAPE,
         "expected rank 3 (batch, seq, hidden) or 4"},
        {4, 2, 2, {1, 2, 3, 8}, {5, 4}, {1, 3}, 0, 0, OSC_FLOAT16, OSC_ERR_SHAPE, "sin_cache"},
    };
    for (size_t c = 0; c < sizeof k_bad / sizeof k_bad[0]; c++) {
        const osc_tensor x = kh_tensor(OSC_FLOAT, k_bad[c].xr, k_bad[c].xd, buf);
        const osc_tensor tc = kh_tensor(OSC_FLOAT, k_bad[c].cr, k_bad[c].cd, buf);
        const osc_tensor ts = kh_tensor(k_bad[c].sin_dt, k_bad[c].cr, k_bad[c].cd, buf);
        const osc_tensor tp = kh_tensor(OSC_INT64, k_bad[c].pr, k_bad[c].pd, pos);
        const osc_tensor *in[4] = {&x, &tc, &ts, &tp};
        kh_init(&h, "RotaryEmbedding", 23);
        if (k_bad[c].heads) kh_attr_int(&h, "num_heads", k_bad[c].heads);
        if (k_bad[c].rot) kh_attr_int(&h, "rotary_embedding_dim", k_bad[c].rot);
        const osc_status st = kh_run(&h, k_bad[c].pr < 0 ? 3 : 4, in);
        if (st != k_bad[c].st) fail_msg("case %zu: status %d: %s", c, (int)st, h.err.msg);
        kh_assert_msg_has(&h, k_bad[c].needle);
        kh_free(&h);
    }
    /* sin of another shape; int32 position ids; a double X */
    const osc_tensor x = kh_tensor(OSC_FLOAT, 4, D(1, 1, 1, 2), buf);
    const osc_tensor c1 = kh_tensor(OSC_FLOAT, 2, D(2, 1), buf);
    const osc_tensor c2 = kh_tensor(OSC_FLOAT, 2, D(3, 1), buf);
    const osc_tensor p32 = kh_tensor(OSC_INT32, 2, D(1, 1), pos);
    const osc_tensor p64 = kh_tensor(OSC_INT64, 2, D(1, 1), pos);
    const osc_tensor xd = kh_tensor(OSC_DOUBLE, 4, D(1, 1, 1, 2), buf);
    const osc_tensor *const k_ins[3][4] = {{&x, &c1, &c2, &p64}, {&x, &c1, &c1, &p32},
                                           {&xd, &c1, &c1, &p64}};
    static const char *const k_needles[3] = {
        "input 2 'sin_cache' () has shape [3,1] but input 1 'cos_cache' has [2,1]",
        "input 3 'position_ids'", "input 0 'X'"};
    for (int q = 0; q < 3; q++) {
        kh_init(&h, "RotaryEmbedding", 23);
        assert_int_not_equal(kh_run(&h, 4, k_ins[q]), OSC_OK);
        kh_assert_msg_has(&h, k_needles[q]);
        kh_free(&h);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rms_by_hand),
        cmocka_unit_test(test_rms_sweep),
        cmocka_unit_test(test_rms_stash),
        cmocka_unit_test(test_rms_bad),
        cmocka_unit_test(test_rope_by_hand),
        cmocka_unit_test(test_rope_sweep),
        cmocka_unit_test(test_rope_negative_position),
        cmocka_unit_test(test_rope_infer),
        cmocka_unit_test(test_rope_position_out_of_range),
        cmocka_unit_test(test_rope_bad),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
