/* test_ops_pool.c: the pooling kernels (ops/pool/) run through kharness against naive loops
 * written here: every tap of every window enumerated in double, the output size from the
 * spec's formula. MaxPool (and its Indices, both storage orders, a round trip through
 * MaxUnpool), AveragePool (count_include_pad with ceil_mode), LpPool, the Global* pools and LRN
 * on 1-D to 3-D inputs with pads, auto_pad, strides, dilations and ceil_mode, on every dtype of
 * the rows; the halves against the reference rounded once; invalid nodes refused. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/registry.h"
#include "kharness.h"
#include "tests/support/check.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define N(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))
#define MAXE 4096
/* A pointer to a tensor view (a compound literal of the block). */
#define KT(...) ((osc_tensor[1]){kh_tensor(__VA_ARGS__)})

enum { MAXP, AVGP, LPP };
static const char *const k_ops[] = {"MaxPool", "AveragePool", "LpPool"};

/* One windowed pool: X [1..2, 1..2, spatial], the attributes as written (0: absent). */
typedef struct cfg {
    int op, nd, ceil, cip, order;
    int64_t p;
    const char *auto_pad; /* NULL: absent */
    int64_t dims[5], k[3], s[3], dl[3], pads[6];
    bool has_s, has_dl, has_pads;
} cfg;

static uint32_t g_rng = 12345;
static uint32_t rnd(uint32_t n) {
    g_rng = g_rng * 1664525u + 1013904223u;
    return (g_rng >> 8) % n;
}

/* The reference: the spec's output sizes and pads, then every tap of each window. out
 * receives the values (NaN for an average over no element), idx the first maximum's flat
 * position. Returns the output count, or -1 when a window is larger than the padded input. */
static int64_t reference(const cfg *c, const double *x, double *out, int64_t *idx,
                         int64_t *odims) {
    int64_t pb[3], pe[3], ek[3], in[3], outn[3];
    for (int d = 0; d < c->nd; d++) {
        in[d] = c->dims[d + 2];
        ek[d] = (c->k[d] - 1) * (c->has_dl ? c->dl[d] : 1) + 1;
        const int64_t s = c->has_s ? c->s[d] : 1;
        pb[d] = c->has_pads ? c->pads[d] : 0;
        pe[d] = c->has_pads ? c->pads[c->nd + d] : 0;
        if (c->auto_pad && strncmp(c->auto_pad, "SAME", 4) == 0) {
            const int64_t o = (in[d] + s - 1) / s, total = (o - 1) * s + ek[d] - in[d];
            const int64_t t = total < 0 ? 0 : total;
            pb[d] = strcmp(c->auto_pad, "SAME_UPPER") == 0 ? t / 2 : t - t / 2;
            pe[d] = t - pb[d];
        } else if (c->auto_pad && strcmp(c->auto_pad, "VALID") == 0) {
            pb[d] = pe[d] = 0;
        }
        const int64_t span = in[d] + pb[d] + pe[d] - ek[d];
        if (span < 0) return -1;
        outn[d] = (c->ceil ? (span + s - 1) / s : span / s) + 1;
        if (c->ceil && (outn[d] - 1) * s >= in[d] + pb[d]) outn[d]--;
        odims[d + 2] = outn[d];
    }
    odims[0] = c->dims[0];
    odims[1] = c->dims[1];
    int64_t plane = 1, oplane = 1;
    for (int d = 0; d < c->nd; d++) plane *= in[d], oplane *= outn[d];
    int64_t j = 0;
    for (int64_t pl = 0; pl < c->dims[0] * c->dims[1]; pl++)
        for (int64_t e = 0; e < oplane; e++, j++) {
            int64_t o[3], r = e;
            for (int d = c->nd - 1; d >= 0; d--) o[d] = r % outn[d], r /= outn[d];
            int64_t taps = 1, ntap = 0, npad = 0, best = -1;
            for (int d = 0; d < c->nd; d++) taps *= c->k[d];
            double acc = c->op == MAXP ? -INFINITY : 0;
            for (int64_t t = 0; t < taps; t++) {
                int64_t q = t, pos = 0, cpos = 0, cs = 1, rs = 1;
                bool inside = true, padded = true;
                for (int d = c->nd - 1; d >= 0; d--) {
                    const int64_t td = q % c->k[d];
                    q /= c->k[d];
                    const int64_t at = o[d] * (c->has_s ? c->s[d] : 1) - pb[d] +
                                       td * (c->has_dl ? c->dl[d] : 1);
                    inside = inside && at >= 0 && at < in[d];
                    padded = padded && at >= -pb[d] && at < in[d] + pe[d];
                    pos += at * rs;
                    rs *= in[d];
                }
                for (int d = 0; d < c->nd && inside; d++) { /* column-major position */
                    int64_t v = pos, st = 1;
                    for (int u = c->nd - 1; u > d; u--) st *= in[u];
                    cpos += v / st % in[d] * cs;
                    cs *= in[d];
                }
                npad += padded;
                if (!inside) continue;
                ntap++;
                const double v = x[pl * plane + pos];
                if (c->op == MAXP && v > acc)
                    acc = v, best = pl * plane + (c->order ? cpos : pos);
                if (c->op == AVGP) acc += v;
                if (c->op == LPP) acc += pow(fabs(v), (double)c->p);
            }
            if (c->op == AVGP) acc /= (double)(c->cip ? npad : ntap);
            if (c->op == LPP) acc = pow(acc, 1.0 / (double)c->p);
            out[j] = acc;
            if (idx) idx[j] = best;
        }
    return j;
}

/* The node of c at opset, run on x (dtype dt) with n_out outputs. */
static osc_status run_cfg(kh *h, const cfg *c, int64_t opset, osc_tensor x, int32_t n_out) {
    kh_init(h, k_ops[c->op], opset);
    kh_attr_ints(h, "kernel_shape", c->k, (size_t)c->nd);
    if (c->has_s) kh_attr_ints(h, "strides", c->s, (size_t)c->nd);
    if (c->has_dl) kh_attr_ints(h, "dilations", c->dl, (size_t)c->nd);
    if (c->has_pads) kh_attr_ints(h, "pads", c->pads, 2 * (size_t)c->nd);
    if (c->auto_pad) kh_attr_str(h, "auto_pad", c->auto_pad);
    if (c->ceil) kh_attr_int(h, "ceil_mode", 1);
    if (c->cip) kh_attr_int(h, "count_include_pad", 1);
    if (c->order) kh_attr_int(h, "storage_order", 1);
    if (c->op == LPP) kh_attr_int(h, "p", c->p);
    const osc_tensor *in[1] = {&x};
    return kh_run_multi(h, 1, in, n_out);
}

static int64_t count_of(const int64_t *dims, int r) {
    int64_t n = 1;
    for (int d = 0; d < r; d++) n *= dims[d];
    return n;
}

/* Distinct values (no ties for the maximum), some negative. */
static void fill(double *x, int64_t n) {
    for (int64_t i = 0; i < n; i++) x[i] = ((double)((i * 37 + 11) % 101) - 50) / 8;
}

/* Element i of t as a double. */
static double get(const osc_tensor *t, int64_t i) {
    switch (t->dtype) {
    case OSC_FLOAT: return ((const float *)t->data)[i];
    case OSC_DOUBLE: return ((const double *)t->data)[i];
    case OSC_FLOAT16: return osc_f16_to_f32(((const uint16_t *)t->data)[i]);
    case OSC_BFLOAT16: return osc_bf16_to_f32(((const uint16_t *)t->data)[i]);
    case OSC_INT8: return ((const int8_t *)t->data)[i];
    default: return ((const uint8_t *)t->data)[i];
    }
}
/* x[i] stored in dtype dt at buf (exactly representable values only). */
static void put(void *buf, int32_t dt, int64_t i, double v) {
    switch (dt) {
    case OSC_FLOAT: ((float *)buf)[i] = (float)v; break;
    case OSC_DOUBLE: ((double *)buf)[i] = v; break;
    case OSC_FLOAT16: ((uint16_t *)buf)[i] = osc_f32_to_f16((float)v); break;
    case OSC_BFLOAT16: ((uint16_t *)buf)[i] = osc_f32_to_bf16((float)v); break;
    case OSC_INT8: ((int8_t *)buf)[i] = (int8_t)v; break;
    default: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    }
}

/* Runs c on dtype dt at opset against the reference: values within the dtype's precision
 * (halves: the reference rounded once, within one unit of the last place), Indices exactly. */
static void check_cfg(const cfg *c, int32_t dt, int64_t opset) {
    const int r = c->nd + 2;
    const int64_t n = count_of(c->dims, r);
    assert_true(n <= MAXE);
    static double x[MAXE], want[MAXE];
    static int64_t widx[MAXE];
    static unsigned char buf[MAXE * 8];
    int64_t odims[5];
    fill(x, n);
    for (int64_t i = 0; i < n; i++) {
        if (dt == OSC_UINT8) x[i] += 50;
        put(buf, dt, i, x[i]);
        x[i] = get(&(osc_tensor){.dtype = dt, .data = buf}, i); /* the value the kernel sees */
    }
    const int64_t m = reference(c, x, want, c->op == MAXP ? widx : NULL, odims);
    kh h;
    const int32_t n_out = c->op == MAXP && opset >= 8 ? 2 : 1;
    osc_status st = run_cfg(&h, c, opset, kh_tensor(dt, r, c->dims, buf), n_out);
    if (m < 0) {
        kh_expect_fail(&h, st, OSC_ERR_SHAPE, "is smaller than the window");
        kh_free(&h);
        return;
    }
    kh_expect_ok(&h, st);
    osc_check_shape(&h.outs[0], dt, r, odims);
    const double tol = dt == OSC_DOUBLE ? 1e-12 : dt == OSC_FLOAT ? 1e-5
                       : dt == OSC_FLOAT16 ? 1e-3 : dt == OSC_BFLOAT16 ? 8e-3 : 0;
    for (int64_t j = 0; j < m; j++) {
        const double got = get(&h.outs[0], j), w = want[j];
        if (isnan(w) ? !isnan(got) : fabs(got - w) > tol * (1 + fabs(w)))
            fail_msg("%s-%lld %s element %lld: got %.9g, want %.9g", k_ops[c->op],
                     (long long)opset, osc_dtype_get(dt)->name, (long long)j, got, w);
        if (n_out == 2 && ((const int64_t *)h.outs[1].data)[j] != widx[j])
            fail_msg("MaxPool Indices element %lld: got %lld, want %lld", (long long)j,
                     (long long)((const int64_t *)h.outs[1].data)[j], (long long)widx[j]);
    }
    kh_free(&h);
}

/* A random configuration of nd axes (sizes 0..6, kernels 1..3, strides and dilations 1..3,
 * pads 0..2, ceil_mode, count_include_pad, storage_order). */
static cfg random_cfg(int op, int nd) {
    cfg c = {.op = op, .nd = nd, .p = 1 + (int64_t)rnd(3)};
    c.dims[0] = 1 + rnd(2);
    c.dims[1] = 1 + rnd(2);
    c.has_s = rnd(2), c.has_dl = rnd(2), c.has_pads = rnd(3) != 0;
    c.ceil = (int)rnd(2), c.cip = op == AVGP && rnd(2), c.order = op == MAXP && rnd(2);
    for (int d = 0; d < nd; d++) {
        c.dims[d + 2] = (nd == 3 ? 1 : 2) + rnd(nd == 3 ? 5 : 6);
        c.k[d] = 1 + rnd(3);
        c.s[d] = 1 + rnd(3);
        c.dl[d] = 1 + rnd(3);
        c.pads[d] = rnd(c.k[d] < 3 ? c.k[d] : 3);
        c.pads[nd + d] = rnd(c.k[d] < 3 ? c.k[d] : 3);
    }
    return c;
}

/* Random configurations of each op and rank at the newest version, float and double. */
static void pool_random(void **state) {
    (void)state;
    for (int op = MAXP; op <= LPP; op++)
        for (int nd = 1; nd <= 3; nd++)
            for (int i = 0; i < 60; i++) {
                cfg c = random_cfg(op, nd);
                check_cfg(&c, i % 2 ? OSC_DOUBLE : OSC_FLOAT, 22);
            }
}

/* The cases the spec's node tests single out, and auto_pad with dilations and strides. */
static void pool_edges(void **state) {
    (void)state;
    /* ceil_mode: the last window would start in the right padding, so it is dropped */
    cfg c = {.op = AVGP, .nd = 2, .ceil = 1, .cip = 1, .dims = {1, 1, 4, 4}, .k = {2, 2},
             .s = {2, 2}, .has_s = true, .pads = {0, 0, 1, 1}, .has_pads = true};
    check_cfg(&c, OSC_FLOAT, 19);
    int64_t od[5], m = 0;
    double x[16], y[16];
    fill(x, 16);
    m = reference(&c, x, y, NULL, od);
    assert_int_equal(m, 4); /* 2x2, not 3x3 */
    c.cip = 0;
    check_cfg(&c, OSC_FLOAT, 19);
    c.op = MAXP;
    check_cfg(&c, OSC_FLOAT, 12);
    /* count_include_pad with ceil_mode: the overhang past the explicit pads is not counted */
    cfg o = {.op = AVGP, .nd = 1, .ceil = 1, .cip = 1, .dims = {1, 1, 5}, .k = {3}, .s = {2},
             .has_s = true, .pads = {1, 0}, .has_pads = true};
    check_cfg(&o, OSC_DOUBLE, 11);
    /* dilations larger than the input, 3-D */
    cfg l = {.op = AVGP, .nd = 3, .ceil = 1, .cip = 1, .dims = {1, 1, 4, 4, 4},
             .k = {2, 2, 2}, .s = {2, 2, 2}, .dl = {3, 3, 3}, .has_s = true, .has_dl = true,
             .pads = {1, 1, 1, 1, 1, 1}, .has_pads = true};
    check_cfg(&l, OSC_FLOAT, 22);
    l.cip = 0, l.ceil = 0;
    check_cfg(&l, OSC_FLOAT, 22);
    static const char *const pads[] = {"SAME_UPPER", "SAME_LOWER", "VALID", "NOTSET"};
    for (int op = MAXP; op <= LPP; op++)
        for (int a = 0; a < 4; a++)
            for (int i = 0; i < 8; i++) {
                cfg r = random_cfg(op, 1 + i % 3);
                r.auto_pad = pads[a];
                r.has_pads = a == 3 && r.has_pads;
                check_cfg(&r, OSC_FLOAT, 22);
            }
}

/* Every dtype of each row, on every version: the halves rounded once, int8/uint8 from 12. */
static void pool_dtypes(void **state) {
    (void)state;
    static const struct {
        int op;
        int64_t opset;
        int32_t dtype;
        bool ok;
    } cases[] = {
        {MAXP, 1, OSC_FLOAT16, true},    {MAXP, 8, OSC_DOUBLE, true},
        {MAXP, 10, OSC_FLOAT16, true},   {MAXP, 11, OSC_FLOAT, true},
        {MAXP, 11, OSC_INT8, false},     {MAXP, 12, OSC_INT8, true},
        {MAXP, 12, OSC_UINT8, true},     {MAXP, 12, OSC_BFLOAT16, false},
        {MAXP, 22, OSC_BFLOAT16, true},  {MAXP, 22, OSC_UINT8, true},
        {AVGP, 1, OSC_FLOAT16, true},    {AVGP, 7, OSC_FLOAT16, true},
        {AVGP, 10, OSC_DOUBLE, true},    {AVGP, 19, OSC_FLOAT16, true},
        {AVGP, 19, OSC_BFLOAT16, false}, {AVGP, 22, OSC_BFLOAT16, true},
        {AVGP, 22, OSC_INT8, false},     {LPP, 2, OSC_FLOAT16, true},
        {LPP, 11, OSC_DOUBLE, true},     {LPP, 18, OSC_FLOAT16, true},
        {LPP, 22, OSC_BFLOAT16, true},   {LPP, 18, OSC_BFLOAT16, false},
    };
    for (int32_t i = 0; i < N(cases); i++) {
        const int64_t v = cases[i].opset;
        cfg c = {.op = cases[i].op, .nd = 2, .dims = {2, 2, 5, 6}, .k = {2, 3}, .s = {2, 1},
                 .has_s = true, .pads = {1, 0, 0, 2}, .has_pads = true, .p = 2};
        c.ceil = (c.op == LPP ? v >= 18 : v >= 10);
        c.cip = c.op == AVGP && v >= 7;
        c.has_dl = c.op == MAXP ? v >= 10 : c.op == AVGP ? v >= 19 : v >= 18;
        c.dl[0] = 2, c.dl[1] = 1;
        if (cases[i].ok) {
            check_cfg(&c, cases[i].dtype, v);
            continue;
        }
        unsigned char buf[2 * 2 * 5 * 6 * 8] = {0};
        kh h;
        kh_expect_fail(&h, run_cfg(&h, &c, v, kh_tensor(cases[i].dtype, 4, c.dims, buf), 1),
                       OSC_ERR_SHAPE, "this op version allows");
        kh_free(&h);
    }
    kh_row rows[] = {{"MaxPool", 1, 1},      {"MaxPool", 7, 1},      {"MaxPool", 8, 8},
                     {"MaxPool", 10, 10},    {"MaxPool", 11, 11},    {"MaxPool", 12, 12},
                     {"MaxPool", 21, 12},    {"MaxPool", 22, 22},    {"AveragePool", 6, 1},
                     {"AveragePool", 7, 7},  {"AveragePool", 10, 10}, {"AveragePool", 11, 11},
                     {"AveragePool", 19, 19}, {"AveragePool", 22, 22}, {"LpPool", 1, 1},
                     {"LpPool", 2, 2},       {"LpPool", 11, 11},     {"LpPool", 18, 18},
                     {"LpPool", 22, 22},     {"GlobalLpPool", 1, 1}, {"GlobalLpPool", 2, 2},
                     {"GlobalLpPool", 22, 22}, {"GlobalMaxPool", 21, 1},
                     {"GlobalAveragePool", 22, 22}, {"LRN", 12, 1}, {"LRN", 13, 13}};
    kh_assert_rows(rows, N(rows));
}

/* MaxPool's Indices into MaxUnpool: every maximum lands where it came from. */
static void pool_unpool_round_trip(void **state) {
    (void)state;
    float x[2 * 3 * 4 * 4];
    double xd[N(x)];
    fill(xd, N(x));
    for (int32_t i = 0; i < N(x); i++) x[i] = (float)xd[i];
    cfg c = {.op = MAXP, .nd = 2, .dims = {2, 3, 4, 4}, .k = {2, 2}, .s = {2, 2}, .has_s = true};
    kh h, u;
    kh_expect_ok(&h, run_cfg(&h, &c, 22, kh_tensor(OSC_FLOAT, 4, c.dims, x), 2));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 4, D(2, 3, 2, 2));
    kh_init(&u, "MaxUnpool", 22);
    kh_attr_ints(&u, "kernel_shape", c.k, 2);
    kh_attr_ints(&u, "strides", c.s, 2);
    const osc_tensor *in[2] = {&h.outs[0], &h.outs[1]};
    kh_expect_ok(&u, kh_run_multi(&u, 2, in, 1));
    osc_check_shape(&u.out, OSC_FLOAT, 4, c.dims);
    const float *y = u.out.data, *m = h.outs[0].data;
    const int64_t *idx = h.outs[1].data;
    int64_t placed = 0;
    for (int32_t i = 0; i < N(x); i++) placed += y[i] != 0;
    for (int32_t j = 0; j < 2 * 3 * 2 * 2; j++) assert_true(y[idx[j]] == m[j] && x[idx[j]] == m[j]);
    assert_true(placed <= 24);
    kh_free(&u);
    kh_free(&h);
}

/* Global pools against plain loops, rank 2 to 5, every float dtype; LRN against the formula. */
static void pool_global_lrn(void **state) {
    (void)state;
    static const char *const ops[] = {"GlobalMaxPool", "GlobalAveragePool", "GlobalLpPool"};
    static const int32_t dts[] = {OSC_FLOAT, OSC_DOUBLE, OSC_FLOAT16, OSC_BFLOAT16};
    static unsigned char buf[MAXE * 8];
    static double x[MAXE];
    for (int op = 0; op < 3; op++)
        for (int rank = 2; rank <= 5; rank++)
            for (int32_t t = 0; t < N(dts); t++) {
                int64_t dims[5] = {2, 3, 4, 3, 2}, od[5];
                const int64_t n = count_of(dims, rank), pl = 6, sp = n / pl;
                fill(x, n);
                for (int64_t i = 0; i < n; i++) put(buf, dts[t], i, x[i]);
                kh h;
                kh_init(&h, ops[op], 22);
                if (op == 2 && t == 1) kh_attr_int(&h, "p", 3);
                kh_expect_ok(&h, kh_run1(&h, KT(dts[t], rank, dims, buf)));
                for (int d = 0; d < rank; d++) od[d] = d < 2 ? dims[d] : 1;
                osc_check_shape(&h.out, dts[t], rank, od);
                const double p = op == 2 && t == 1 ? 3 : 2;
                for (int64_t j = 0; j < pl; j++) {
                    double acc = op == 0 ? -INFINITY : 0;
                    for (int64_t i = 0; i < sp; i++) {
                        const double v = get(&(osc_tensor){.dtype = dts[t], .data = buf},
                                             j * sp + i);
                        acc = op == 0 ? fmax(acc, v) : op == 1 ? acc + v : acc + pow(fabs(v), p);
                    }
                    acc = op == 1 ? acc / (double)sp : op == 2 ? pow(acc, 1 / p) : acc;
                    assert_true(fabs(get(&h.out, j) - acc) <= 8e-3 * (1 + fabs(acc)));
                }
                kh_free(&h);
            }
    for (int64_t size = 1; size <= 4; size++)
        for (int32_t t = 0; t < N(dts); t++) {
            const int64_t dims[4] = {2, 5, 3, 2}, n = 60, inner = 6;
            fill(x, n);
            for (int64_t i = 0; i < n; i++) put(buf, dts[t], i, x[i]);
            kh h;
            kh_init(&h, "LRN", t == 3 ? 13 : 1);
            kh_attr_int(&h, "size", size);
            kh_attr_float(&h, "alpha", 0.5f);
            kh_attr_float(&h, "beta", 0.625f);
            kh_attr_float(&h, "bias", 2.0f);
            kh_expect_ok(&h, kh_run1(&h, KT(dts[t], 4, dims, buf)));
            const osc_tensor xt = {.dtype = dts[t], .data = buf};
            for (int64_t i = 0; i < n; i++) {
                const int64_t c = i / inner % 5, b = i / (5 * inner), s = i % inner;
                double sq = 0;
                for (int64_t q = c - (size - 1) / 2; q <= c + size / 2; q++)
                    if (q >= 0 && q < 5) sq += pow(get(&xt, (b * 5 + q) * inner + s), 2);
                const double w = get(&xt, i) / pow(2.0 + 0.5 / (double)size * sq, 0.625);
                assert_true(fabs(get(&h.out, i) - w) <= 8e-3 * (1 + fabs(w)));
            }
            kh_free(&h);
        }
}

/* A node of op at opset with kernel_shape ks (n values) and one more INTS attribute. */
static void bad_node(const char *op, int64_t opset, const int64_t *ks, size_t n,
                     const char *name, const int64_t *v, size_t nv, const int64_t *xd, int xr,
                     osc_status want, const char *part) {
    float x[64] = {0};
    kh h;
    kh_init(&h, op, opset);
    if (ks) kh_attr_ints(&h, "kernel_shape", ks, n);
    if (name) kh_attr_ints(&h, name, v, nv);
    kh_expect_fail(&h, kh_run1(&h, KT(OSC_FLOAT, xr, xd, x)), want, part);
    kh_assert_msg_has(&h, "node 'n0'");
    kh_free(&h);
}

static void pool_errors(void **state) {
    (void)state;
    const int64_t k2[2] = {2, 2}, x4[4] = {1, 1, 3, 3};
    bad_node("MaxPool", 12, k2, 2, "strides", D(1, 0), 2, x4, 4, OSC_ERR_MODEL,
             "attribute 'strides' value 1 is 0; expected at least 1");
    bad_node("MaxPool", 12, k2, 2, "dilations", D(-1, 1), 2, x4, 4, OSC_ERR_MODEL,
             "attribute 'dilations' value 0 is -1; expected at least 1");
    bad_node("AveragePool", 19, k2, 2, "pads", D(0, 0, 0), 3, x4, 4, OSC_ERR_MODEL,
             "attribute 'pads' has 3 values; expected 4");
    bad_node("AveragePool", 19, k2, 2, "pads", D(0, -1, 0, 0), 4, x4, 4, OSC_ERR_MODEL,
             "attribute 'pads' value 1 is -1; expected at least 0");
    bad_node("LpPool", 18, k2, 2, "strides", D(1), 1, x4, 4, OSC_ERR_MODEL,
             "attribute 'strides' has 1 values; expected 2");
    int64_t many[OSC_MAX_RANK];
    for (int d = 0; d < OSC_MAX_RANK; d++) many[d] = 1;
    bad_node("MaxPool", 12, many, OSC_MAX_RANK - 1, NULL, NULL, 0, x4, 4, OSC_ERR_MODEL,
             "values; expected 1 to");
    bad_node("MaxPool", 12, D(2, 0), 2, NULL, NULL, 0, x4, 4, OSC_ERR_MODEL,
             "attribute 'kernel_shape' value 1 is 0");
    bad_node("MaxPool", 12, NULL, 0, NULL, NULL, 0, x4, 4, OSC_ERR_MODEL,
             "'kernel_shape' is required");
    /* attributes of later versions */
    bad_node("MaxPool", 8, k2, 2, "dilations", D(1, 1), 2, x4, 4, OSC_ERR_MODEL, "dilations");
    bad_node("AveragePool", 11, k2, 2, "dilations", D(1, 1), 2, x4, 4, OSC_ERR_MODEL,
             "dilations");
    /* shapes */
    bad_node("MaxPool", 12, k2, 2, NULL, NULL, 0, D(1, 1, 3), 3, OSC_ERR_SHAPE,
             "has shape [1,1,3]; expected rank 4");
    bad_node("MaxPool", 12, D(4, 2), 2, NULL, NULL, 0, x4, 4, OSC_ERR_SHAPE,
             "spatial axis 0 (size 3, pads 0 and 0) is smaller than the window (kernel 4, "
             "dilation 1)");
    bad_node("MaxPool", 12, k2, 2, "dilations", D(1, 3), 2, x4, 4, OSC_ERR_SHAPE,
             "spatial axis 1 (size 3, pads 0 and 0) is smaller than the window (kernel 2, "
             "dilation 3)");
    bad_node("MaxPool", 12, k2, 2, "pads", D(INT64_MAX, 0, 1, 0), 4, x4, 4, OSC_ERR_SHAPE,
             "passes 2^63-1");
    bad_node("MaxPool", 12, k2, 2, "pads", D(INT64_MAX / 4, INT64_MAX / 4, 0, 0), 4, x4, 4,
             OSC_ERR_LIMIT, "more than 2^63-1 elements");
    /* string, int and float attributes */
    kh h;
    kh_init(&h, "MaxPool", 12);
    kh_attr_ints(&h, "kernel_shape", k2, 2);
    kh_attr_str(&h, "auto_pad", "SAME");
    kh_init_fails(&h, OSC_ERR_MODEL, "'auto_pad' is 'SAME'; allowed: NOTSET, SAME_UPPER");
    kh_init(&h, "MaxPool", 12);
    kh_attr_ints(&h, "kernel_shape", k2, 2);
    kh_attr_str(&h, "auto_pad", "VALID");
    kh_attr_ints(&h, "pads", D(1, 0, 0, 0), 4);
    kh_init_fails(&h, OSC_ERR_MODEL, "explicit pads need auto_pad NOTSET");
    kh_init(&h, "AveragePool", 19);
    kh_attr_ints(&h, "kernel_shape", k2, 2);
    kh_attr_int(&h, "ceil_mode", 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "ceil_mode");
    kh_init(&h, "LpPool", 18);
    kh_attr_ints(&h, "kernel_shape", k2, 2);
    kh_attr_int(&h, "p", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'p' = 0; expected at least 1");
    kh_init(&h, "GlobalLpPool", 1);
    kh_attr_float(&h, "p", -1.0f);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'p' = -1; expected a finite value above 0");
    kh_init(&h, "LRN", 13);
    kh_attr_int(&h, "size", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'size' = 0; expected at least 1");
    kh_init(&h, "LRN", 13);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'size' is required");
    float x[4] = {0};
    kh_init(&h, "GlobalMaxPool", 22);
    kh_expect_fail(&h, kh_run1(&h, KT(OSC_FLOAT, 1, D(4), x)), OSC_ERR_SHAPE,
                   "expected rank at least 2");
    kh_free(&h);
    const int64_t huge = (int64_t)1 << 40;
    kh_init(&h, "GlobalMaxPool", 22);
    kh_expect_fail(&h, kh_run1(&h, KT(OSC_FLOAT, 3, D(huge, huge, 0), NULL)), OSC_ERR_LIMIT,
                   "the output [1099511627776,1099511627776,1] would have more than 2^63-1");
    kh_free(&h);
    /* a run whose output is not what the inputs give writes nothing */
    kh_init(&h, "MaxPool", 12);
    kh_attr_ints(&h, "kernel_shape", k2, 2);
    osc_tensor xt = kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x);
    kh_expect_ok(&h, kh_run1(&h, &xt));
    float y[4];
    memset(y, 0xA5, sizeof y);
    osc_tensor bad = kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), y);
    const osc_tensor *in[1] = {&xt};
    kh_expect_fail(&h, h.kernel->run(&h.k, in, 1, &bad, 1), OSC_ERR_ARG, "the inputs give");
    kh_assert_untouched(&bad);
    kh_free(&h);
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(pool_random), cmocka_unit_test(pool_edges),
              cmocka_unit_test(pool_dtypes), cmocka_unit_test(pool_unpool_round_trip),
              cmocka_unit_test(pool_global_lrn), cmocka_unit_test(pool_errors))
