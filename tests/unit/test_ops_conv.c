/* test_ops_conv.c: the Conv, ConvTranspose and DeformConv kernels run through kharness against
 * naive direct loops written here (in double): groups, dilations, strides, pads, auto_pad,
 * 1-D, 2-D and 3-D, tiles crossed, the 1x1 direct path, every dtype of the rows (the halves
 * against the reference of their rounded inputs), output_padding and output_shape, and invalid
 * nodes and inputs with their messages. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/conv/conv.h" /* osc_conv_params: the epilogue a rule may set */
#include "ops/registry.h"
#include "kharness.h"
#include "tests/support/check.h"
#include "tests/support/writer.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define N(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))

/* One convolution: shapes and attributes (pads: begins then ends). */
typedef struct cv {
    int32_t nd;
    int64_t n, c, m, group;
    int64_t in[3], k[3], s[3], d[3], pads[6], opad[3];
    const char *auto_pad; /* NULL: pads given */
} cv;

static uint32_t g_seed = 12345;
static double rnd(void) {
    g_seed = g_seed * 1664525u + 1013904223u;
    return (double)(g_seed >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}

static int64_t prod(const int64_t *v, int32_t n) {
    int64_t p = 1;
    for (int32_t i = 0; i < n; i++) p *= v[i];
    return p;
}

/* Flat index over dims of multi-index i. */
static int64_t flat(const int64_t *i, const int64_t *dims, int32_t nd) {
    int64_t f = 0;
    for (int32_t d = 0; d < nd; d++) f = f * dims[d] + i[d];
    return f;
}

static void unflat(int64_t f, const int64_t *dims, int32_t nd, int64_t *i) {
    for (int32_t d = nd - 1; d >= 0; d--) {
        i[d] = f % dims[d];
        f /= dims[d];
    }
}

/* Conv's output sizes and the begin pads, auto_pad worked out as the spec says. */
static void conv_out(const cv *g, int64_t *out, int64_t *pb) {
    for (int32_t d = 0; d < g->nd; d++) {
        const int64_t eff = (g->k[d] - 1) * g->d[d] + 1;
        int64_t b = g->pads[d], e = g->pads[g->nd + d];
        if (g->auto_pad && !strcmp(g->auto_pad, "VALID")) b = e = 0;
        if (g->auto_pad && !strncmp(g->auto_pad, "SAME", 4)) {
            const int64_t o = (g->in[d] + g->s[d] - 1) / g->s[d];
            int64_t t = (o - 1) * g->s[d] + eff - g->in[d];
            t = t > 0 ? t : 0;
            b = !strcmp(g->auto_pad, "SAME_UPPER") ? t / 2 : t - t / 2;
            e = t - b;
        }
        pb[d] = b;
        out[d] = (g->in[d] + b + e - eff) / g->s[d] + 1;
    }
}

/* The direct loop: y[n, m, o] = b[m] + sum x[n, c, o*s - pb + k*d] * w[m, c - group start, k]. */
static void ref_conv(const cv *g, const double *x, const double *w, const double *b, double *y) {
    int64_t out[3], pb[3], o[3], kk[3], at[3];
    conv_out(g, out, pb);
    const int64_t P = prod(out, g->nd), K = prod(g->k, g->nd), I = prod(g->in, g->nd);
    const int64_t cg = g->c / g->group, mg = g->m / g->group;
    for (int64_t n = 0; n < g->n; n++)
        for (int64_t m = 0; m < g->m; m++)
            for (int64_t p = 0; p < P; p++) {
                unflat(p, out, g->nd, o);
                double sum = b ? b[m] : 0;
                for (int64_t c = 0; c < cg; c++)
                    for (int64_t t = 0; t < K; t++) {
                        unflat(t, g->k, g->nd, kk);
                        bool in = true;
                        for (int32_t d = 0; d < g->nd; d++) {
                            at[d] = o[d] * g->s[d] - pb[d] + kk[d] * g->d[d];
                            in = in && at[d] >= 0 && at[d] < g->in[d];
                        }
                        if (in)
                            sum += x[(n * g->c + m / mg * cg + c) * I + flat(at, g->in, g->nd)] *
                                   w[(m * cg + c) * K + t];
                    }
                y[(n * g->m + m) * P + p] = sum;
            }
}

/* ConvTranspose's sizes (no output_shape): s * (in - 1) + opad + eff - pads. */
static void convt_out(const cv *g, int64_t *out) {
    for (int32_t d = 0; d < g->nd; d++)
        out[d] = g->s[d] * (g->in[d] - 1) + g->opad[d] + (g->k[d] - 1) * g->d[d] + 1 -
                 g->pads[d] - g->pads[g->nd + d];
}

/* The direct scatter: y[n, m, i*s - pb + k*d] += x[n, c, i] * w[c, m - group start, k]. */
static void ref_convt(const cv *g, const double *x, const double *w, const double *b,
                      double *y) {
    int64_t out[3], i[3], kk[3], at[3];
    convt_out(g, out);
    const int64_t P = prod(out, g->nd), K = prod(g->k, g->nd), I = prod(g->in, g->nd);
    const int64_t cg = g->c / g->group, mg = g->m / g->group;
    for (int64_t n = 0; n < g->n; n++)
        for (int64_t m = 0; m < g->m; m++)
            for (int64_t p = 0; p < P; p++) y[(n * g->m + m) * P + p] = b ? b[m] : 0;
    for (int64_t n = 0; n < g->n; n++)
        for (int64_t c = 0; c < g->c; c++)
            for (int64_t q = 0; q < I; q++) {
                unflat(q, g->in, g->nd, i);
                for (int64_t mm = 0; mm < mg; mm++)
                    for (int64_t t = 0; t < K; t++) {
                        unflat(t, g->k, g->nd, kk);
                        bool in = true;
                        for (int32_t d = 0; d < g->nd; d++) {
                            at[d] = i[d] * g->s[d] - g->pads[d] + kk[d] * g->d[d];
                            in = in && at[d] >= 0 && at[d] < out[d];
                        }
                        if (in)
                            y[(n * g->m + c / cg * mg + mm) * P + flat(at, out, g->nd)] +=
                                x[(n * g->c + c) * I + q] * w[(c * mg + mm) * K + t];
                    }
            }
}

/* v in dtype dt at dst[i]; values of halves rounded (and read back into v). */
static void put(int32_t dt, void *dst, int64_t i, double *v) {
    switch (dt) {
        case OSC_FLOAT: ((float *)dst)[i] = (float)*v; *v = ((float *)dst)[i]; break;
        case OSC_DOUBLE: ((double *)dst)[i] = *v; break;
        case OSC_FLOAT16:
            ((uint16_t *)dst)[i] = osc_f32_to_f16((float)*v);
            *v = osc_f16_to_f32(((uint16_t *)dst)[i]);
            break;
        default:
            ((uint16_t *)dst)[i] = osc_f32_to_bf16((float)*v);
            *v = osc_bf16_to_f32(((uint16_t *)dst)[i]);
    }
}

static double get(int32_t dt, const void *src, int64_t i) {
    switch (dt) {
        case OSC_FLOAT: return ((const float *)src)[i];
        case OSC_DOUBLE: return ((const double *)src)[i];
        case OSC_FLOAT16: return osc_f16_to_f32(((const uint16_t *)src)[i]);
        default: return osc_bf16_to_f32(((const uint16_t *)src)[i]);
    }
}

/* A random tensor of dtype dt (values kept in *vals, rounded as stored). */
static osc_tensor rand_tensor(int32_t dt, int32_t rank, const int64_t *dims, double **vals) {
    const int64_t n = prod(dims, rank);
    void *data = malloc((size_t)(n ? n : 1) * 8);
    *vals = malloc((size_t)(n ? n : 1) * sizeof **vals);
    for (int64_t i = 0; i < n; i++) {
        (*vals)[i] = rnd();
        put(dt, data, i, &(*vals)[i]);
    }
    return kh_tensor(dt, rank, dims, data);
}

/* Sets the attributes of g on h (kernel_shape from W unless with_k). */
static void attrs(kh *h, const cv *g, bool transpose, bool with_k) {
    kh_attr_int(h, "group", g->group);
    kh_attr_ints(h, "strides", g->s, (size_t)g->nd);
    kh_attr_ints(h, "dilations", g->d, (size_t)g->nd);
    if (with_k) kh_attr_ints(h, "kernel_shape", g->k, (size_t)g->nd);
    if (g->auto_pad) kh_attr_str(h, "auto_pad", g->auto_pad);
    else kh_attr_ints(h, "pads", g->pads, 2 * (size_t)g->nd);
    if (transpose) kh_attr_ints(h, "output_padding", g->opad, (size_t)g->nd);
}

/* Runs Conv (or ConvTranspose) of g on dtype dt at opset, with a bias when bias, and checks
 * every element against the direct loop within tol * (1 + |want|). */
static void check_case(const cv *g, bool transpose, int32_t dt, int64_t opset, bool bias,
                       double tol) {
    int64_t xd[5] = {g->n, g->c}, wd[5] = {transpose ? g->c : g->m,
                                           transpose ? g->m / g->group : g->c / g->group};
    memcpy(xd + 2, g->in, (size_t)g->nd * 8);
    memcpy(wd + 2, g->k, (size_t)g->nd * 8);
    double *xv, *wv, *bv;
    osc_tensor x = rand_tensor(dt, g->nd + 2, xd, &xv), w = rand_tensor(dt, g->nd + 2, wd, &wv);
    osc_tensor b = rand_tensor(dt, 1, &g->m, &bv);
    int64_t out[3], pb[3];
    if (transpose) convt_out(g, out);
    else conv_out(g, out, pb);
    const int64_t count = g->n * g->m * prod(out, g->nd);
    double *want = calloc((size_t)(count ? count : 1), sizeof *want);
    (transpose ? ref_convt : ref_conv)(g, xv, wv, bias ? bv : NULL, want);
    kh h;
    kh_init(&h, transpose ? "ConvTranspose" : "Conv", opset);
    attrs(&h, g, transpose, opset % 2 == 1);
    const osc_tensor *in[3] = {&x, &w, &b};
    kh_expect_ok(&h, kh_run(&h, bias ? 3 : 2, in));
    int64_t yd[5] = {g->n, g->m};
    memcpy(yd + 2, out, (size_t)g->nd * 8);
    osc_check_shape(&h.out, dt, g->nd + 2, yd);
    for (int64_t i = 0; i < count; i++) {
        const double got = get(dt, h.out.data, i);
        if (!(fabs(got - want[i]) <= tol * (1 + fabs(want[i]))))
            fail_msg("%s dtype %d element %lld: %.9g, want %.9g",
                     transpose ? "ConvTranspose" : "Conv", (int)dt, (long long)i, got, want[i]);
    }
    kh_free(&h);
    free(x.data);
    free(w.data);
    free(b.data);
    free(xv);
    free(wv);
    free(bv);
    free(want);
}

static const cv k_cases[] = {
    /* 2-D, 3x3, pads 1: the common case */
    {2, 2, 3, 4, 1, {7, 6}, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, {0}, NULL},
    /* groups, strides, dilations, asymmetric pads */
    {2, 1, 6, 4, 2, {9, 8}, {3, 2}, {2, 3}, {2, 1}, {0, 2, 1, 0}, {1, 0}, NULL},
    /* depthwise */
    {2, 1, 4, 4, 4, {5, 5}, {3, 3}, {1, 2}, {1, 1}, {1, 1, 1, 1}, {0, 1}, NULL},
    /* 1-D and 3-D */
    {1, 2, 3, 2, 1, {11}, {4}, {2}, {2}, {3, 1}, {1}, NULL},
    {3, 1, 2, 3, 1, {4, 5, 3}, {2, 3, 2}, {1, 2, 1}, {1, 1, 2}, {1, 0, 1, 0, 1, 1}, {0, 1, 1},
     NULL},
    /* 1x1, strides 1, no pads: the direct path */
    {2, 2, 5, 3, 1, {4, 6}, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}, {0, 0}, NULL},
    /* several tiles: 16 channels x 9 taps x 4096 positions of columns */
    {2, 1, 16, 8, 1, {64, 64}, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, {0, 0}, NULL},
};

static void conv_values(void **state) {
    (void)state;
    for (int32_t c = 0; c < N(k_cases); c++) {
        check_case(&k_cases[c], false, OSC_FLOAT, 11, true, 1e-5);
        check_case(&k_cases[c], false, OSC_DOUBLE, 1, c % 2 == 0, 1e-12);
        check_case(&k_cases[c], false, OSC_FLOAT16, 22, true, 4e-3);
        check_case(&k_cases[c], false, OSC_BFLOAT16, 22, c % 2 == 1, 3e-2);
    }
}

static void conv_auto_pad(void **state) {
    (void)state;
    static const char *const modes[] = {"SAME_UPPER", "SAME_LOWER", "VALID", "NOTSET"};
    for (int32_t mo = 0; mo < 4; mo++)
        for (int64_t s = 1; s <= 3; s++) {
            cv g = {2, 1, 2, 3, 1, {7, 6}, {2, 3}, {s, s}, {1, 2}, {0}, {0}, modes[mo]};
            check_case(&g, false, OSC_FLOAT, 22, true, 1e-5);
        }
}

static void convtranspose_values(void **state) {
    (void)state;
    static const cv cases[] = {
        {2, 2, 3, 4, 1, {4, 5}, {3, 3}, {1, 1}, {1, 1}, {0, 0, 0, 0}, {0, 0}, NULL},
        {2, 1, 4, 6, 2, {3, 4}, {3, 2}, {2, 3}, {2, 1}, {1, 0, 0, 2}, {1, 2}, NULL},
        {1, 2, 2, 3, 1, {6}, {4}, {3}, {1}, {1, 2}, {2}, NULL},
        {3, 1, 2, 2, 2, {2, 3, 2}, {2, 2, 3}, {2, 1, 2}, {1, 2, 1}, {0, 1, 0, 1, 0, 0},
         {1, 0, 0}, NULL},
        /* several tiles of input positions: 32 x 9 rows of columns x 1600 positions */
        {2, 1, 8, 32, 1, {40, 40}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, {1, 1}, NULL},
    };
    for (int32_t c = 0; c < N(cases); c++) {
        check_case(&cases[c], true, OSC_FLOAT, 11, true, 1e-5);
        check_case(&cases[c], true, OSC_DOUBLE, 1, false, 1e-12);
        check_case(&cases[c], true, OSC_FLOAT16, 11, true, 4e-3);
        check_case(&cases[c], true, OSC_BFLOAT16, 22, true, 3e-2);
    }
}

/* output_shape: the pads the spec's formula gives; auto_pad SAME: in * strides. */
static void convtranspose_output_shape(void **state) {
    (void)state;
    const float x[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, w[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    const osc_tensor xt = kh_tensor(OSC_FLOAT, 4, D(1, 1, 3, 3), x);
    const osc_tensor wt = kh_tensor(OSC_FLOAT, 4, D(1, 1, 3, 3), w);
    /* strides 2: full size 7; output_shape 6 drops one element at the end (SAME_UPPER) or the
     * beginning (NOTSET, SAME_LOWER) of each axis */
    static const char *const modes[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER"};
    for (int32_t mo = 0; mo < 3; mo++) {
        const cv g = {2, 1, 1, 1, 1, {3, 3}, {3, 3}, {2, 2}, {1, 1}, {0}, {0}, NULL};
        double full[49];
        double xv[9], wv[9];
        for (int i = 0; i < 9; i++) xv[i] = x[i], wv[i] = w[i];
        ref_convt(&g, xv, wv, NULL, full);
        kh h;
        kh_init(&h, "ConvTranspose", 22);
        kh_attr_ints(&h, "strides", D(2, 2), 2);
        if (mo) kh_attr_str(&h, "auto_pad", modes[mo]);
        static const int64_t six[2] = {6, 6}; /* borrowed until kh_free */
        if (!mo) kh_attr_ints(&h, "output_shape", six, 2);
        kh_expect_ok(&h, kh_run2(&h, &xt, &wt));
        osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 1, 6, 6));
        const int off = mo == 1 ? 0 : 1;
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++)
                assert_float_equal(((float *)h.out.data)[i * 6 + j],
                                   full[(i + off) * 7 + j + off], 0);
        kh_free(&h);
    }
    /* output_shape one past the full size: zeros there (onnx's test_convtranspose_output_shape) */
    kh h;
    kh_init(&h, "ConvTranspose", 11);
    kh_attr_ints(&h, "strides", D(2, 2), 2);
    kh_attr_ints(&h, "output_shape", D(8, 8), 2);
    kh_expect_ok(&h, kh_run2(&h, &xt, &wt));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 1, 8, 8));
    for (int i = 0; i < 8; i++) assert_float_equal(((float *)h.out.data)[7 * 8 + i], 0, 0);
    kh_free(&h);
}

/* DeformConv with zero offsets and no mask is Conv; an offset of +1 along the last axis reads
 * the next column; a mask scales each tap. */
static void deform_values(void **state) {
    (void)state;
    const cv g = {2, 1, 4, 4, 2, {5, 6}, {2, 3}, {1, 2}, {1, 1}, {1, 0, 0, 1}, {0}, NULL};
    for (int32_t dt = 0; dt < 2; dt++) {
        const int32_t type = dt ? OSC_FLOAT16 : OSC_FLOAT;
        double *xv, *wv, *bv;
        osc_tensor x = rand_tensor(type, 4, D(1, 4, 5, 6), &xv);
        osc_tensor w = rand_tensor(type, 4, D(4, 2, 2, 3), &wv);
        osc_tensor b = rand_tensor(type, 1, D(4), &bv);
        int64_t out[2], pb[2];
        conv_out(&g, out, pb);
        /* offset_group 2: 2 * 6 taps * 2 axes channels */
        const int64_t P = out[0] * out[1], od[4] = {1, 24, out[0], out[1]};
        const int64_t md[4] = {1, 12, out[0], out[1]};
        uint16_t zo[24 * 64] = {0}, mo[12 * 64];
        float zf[24 * 64] = {0}, mf[12 * 64];
        for (int64_t i = 0; i < 12 * P; i++) {
            mf[i] = 0.5f;
            mo[i] = osc_f32_to_f16(0.5f);
        }
        const osc_tensor off = kh_tensor(type, 4, od, dt ? (void *)zo : (void *)zf);
        const osc_tensor mask = kh_tensor(type, 4, md, dt ? (void *)mo : (void *)mf);
        double want[4 * 64];
        ref_conv(&g, xv, wv, bv, want);
        for (int32_t with_mask = 0; with_mask < 2; with_mask++) {
            kh h;
            kh_init(&h, "DeformConv", dt ? 19 : 22);
            kh_attr_int(&h, "group", 2);
            kh_attr_int(&h, "offset_group", 2);
            kh_attr_ints(&h, "strides", g.s, 2);
            kh_attr_ints(&h, "pads", g.pads, 4);
            const osc_tensor *in[5] = {&x, &w, &off, &b, &mask};
            kh_expect_ok(&h, kh_run(&h, with_mask ? 5 : 4, in));
            osc_check_shape(&h.out, type, 4, D(1, 4, out[0], out[1]));
            for (int64_t i = 0; i < 4 * P; i++) {
                const double wv2 = with_mask ? (want[i] - bv[i / P]) * 0.5 + bv[i / P] : want[i];
                assert_true(fabs(get(type, h.out.data, i) - wv2) <= (dt ? 4e-3 : 1e-5) *
                                                                       (1 + fabs(wv2)));
            }
            kh_free(&h);
        }
        free(x.data);
        free(w.data);
        free(b.data);
        free(xv);
        free(wv);
        free(bv);
    }
    /* 1-D: offset +1 at every tap shifts the input by one (past the end: zeros) */
    const float x[5] = {1, 2, 3, 4, 5}, w[2] = {1, 10}, off[4 * 2] = {1, 1, 1, 1, 1, 1, 1, 1};
    kh h;
    kh_init(&h, "DeformConv", 22);
    const osc_tensor xt = kh_tensor(OSC_FLOAT, 3, D(1, 1, 5), x);
    const osc_tensor wt = kh_tensor(OSC_FLOAT, 3, D(1, 1, 2), w);
    const osc_tensor ot = kh_tensor(OSC_FLOAT, 3, D(1, 2, 4), off);
    kh_expect_ok(&h, kh_run3(&h, &xt, &wt, &ot));
    const float want1[4] = {2 + 30, 3 + 40, 4 + 50, 5 + 0};
    osc_check_bytes(&h.out, want1, sizeof want1);
    kh_free(&h);
}

/* Through the engine on 1 and 3 threads (tiles of Conv, samples and groups or output channels
 * of ConvTranspose split among them): the same bytes, and the direct loop's values. */
static void engine_threads(void **state) {
    (void)state;
    static const cv cases[3] = {
        {2, 2, 16, 16, 1, {48, 48}, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, {0, 0}, NULL},
        {2, 2, 8, 8, 2, {32, 32}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, {1, 1}, NULL},
        /* one sample, one group: split by output channels (7 over 3 threads) */
        {2, 1, 8, 7, 1, {32, 32}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, {1, 1}, NULL}};
    for (int32_t c = 0; c < 3; c++) {
        const cv *g = &cases[c];
        const bool tr = c >= 1;
        const int64_t xd[4] = {g->n, g->c, g->in[0], g->in[1]};
        const int64_t wd[4] = {tr ? g->c : g->m, tr ? g->m / g->group : g->c / g->group, 3, 3};
        int64_t out[3], pb[3];
        if (tr) convt_out(g, out);
        else conv_out(g, out, pb);
        const int64_t yd[4] = {g->n, g->m, out[0], out[1]}, count = prod(yd, 4);
        double *xv, *wv, *bv, *want = malloc((size_t)count * sizeof *want);
        osc_tensor t[3] = {rand_tensor(OSC_FLOAT, 4, xd, &xv), rand_tensor(OSC_FLOAT, 4, wd, &wv),
                           rand_tensor(OSC_FLOAT, 1, &g->m, &bv)};
        (tr ? ref_convt : ref_conv)(g, xv, wv, bv, want);
        osc_mw *mw = osc_mw_new(8);
        osc_mw_opset(mw, "", 22);
        static const char *const names[3] = {"x", "w", "b"}, *const outs[1] = {"y"};
        for (int i = 0; i < 3; i++) osc_mw_input(mw, names[i], OSC_FLOAT, t[i].rank, t[i].dims,
                                                 NULL);
        const int n = osc_mw_node(mw, tr ? "ConvTranspose" : "Conv", "cv", 3, names, 1, outs);
        osc_mw_attr_int(mw, n, "group", g->group);
        osc_mw_attr_ints(mw, n, "strides", g->s, 2);
        osc_mw_attr_ints(mw, n, "pads", g->pads, 4);
        if (tr) osc_mw_attr_ints(mw, n, "output_padding", g->opad, 2);
        osc_mw_output(mw, "y", OSC_FLOAT, 4, yd, NULL);
        void *bytes = NULL;
        size_t len = 0;
        assert_int_equal(osc_mw_serialize(mw, &bytes, &len), OSC_OK);
        osc_mw_free(mw);
        float *first = NULL;
        for (int threads = 1; threads <= 3; threads += 2) {
            osc_options o;
            osc_options_init(&o);
            o.threads = threads;
            osc_model *m = NULL;
            osc_session *s = NULL;
            char msg[512];
            if (osc_model_load_buffer(bytes, len, NULL, &o, &m, msg, sizeof msg))
                fail_msg("%s", msg);
            assert_int_equal(osc_session_create(m, &s), OSC_OK);
            osc_check_bind(s, 3, names, t);
            if (osc_session_run(s) != OSC_OK) fail_msg("run: %s", osc_session_error(s));
            osc_tensor y;
            assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
            osc_check_shape(&y, OSC_FLOAT, 4, yd);
            for (int64_t i = 0; i < count; i++)
                if (!(fabs(((float *)y.data)[i] - want[i]) <= 1e-5 * (1 + fabs(want[i]))))
                    fail_msg("case %d, %d threads, element %lld: %.9g, want %.9g", (int)c,
                             threads, (long long)i, ((float *)y.data)[i], want[i]);
            if (!first) {
                first = malloc(y.nbytes);
                memcpy(first, y.data, y.nbytes);
            } else {
                assert_memory_equal(first, y.data, y.nbytes);
            }
            osc_session_free(s);
            osc_model_free(m);
        }
        free(bytes), free(first), free(want), free(xv), free(wv), free(bv);
        for (int i = 0; i < 3; i++) free(t[i].data);
    }
}

/* The epilogue a fusion rule may set (prod.relu): Y = Relu(conv + B), on Conv's tiles (float,
 * double, float16: the direct path and im2col) and ConvTranspose's planes. */
static void relu_epilogue(void **state) {
    (void)state;
    static const cv cases[2] = {
        {2, 1, 4, 6, 2, {9, 8}, {3, 3}, {1, 2}, {1, 1}, {1, 1, 0, 1}, {0, 1}, NULL},
        {2, 1, 4, 6, 1, {9, 8}, {1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}, {0, 0}, NULL}};
    static const int32_t types[3] = {OSC_FLOAT, OSC_DOUBLE, OSC_FLOAT16};
    for (int32_t c = 0; c < 4; c++)
        for (int32_t ti = 0; ti < 3; ti++) {
            const cv *g = &cases[c % 2];
            const bool tr = c >= 2;
            const int32_t dt = types[ti];
            const int64_t xd[4] = {g->n, g->c, g->in[0], g->in[1]};
            const int64_t wd[4] = {tr ? g->c : g->m, tr ? g->m / g->group : g->c / g->group,
                                   g->k[0], g->k[1]};
            int64_t out[3], pb[3];
            if (tr) convt_out(g, out);
            else conv_out(g, out, pb);
            const int64_t yd[4] = {g->n, g->m, out[0], out[1]}, count = prod(yd, 4);
            double *xv, *wv, *bv, *want = malloc((size_t)count * sizeof *want);
            const osc_tensor t[3] = {rand_tensor(dt, 4, xd, &xv), rand_tensor(dt, 4, wd, &wv),
                                     rand_tensor(dt, 1, &g->m, &bv)};
            (tr ? ref_convt : ref_conv)(g, xv, wv, bv, want);
            kh h;
            kh_init(&h, tr ? "ConvTranspose" : "Conv", 22);
            attrs(&h, g, tr, false);
            kh_expect_ok(&h, kh_check(&h));
            ((osc_conv_params *)h.k.params)->prod.relu = true;
            const osc_tensor *in[3] = {&t[0], &t[1], &t[2]};
            osc_tensor y = kh_tensor(dt, 4, yd, malloc((size_t)count * 8));
            y.nbytes = (size_t)count * osc_dtype_get(dt)->bits / 8;
            kh_expect_ok(&h, h.kernel->run(&h.k, in, 3, &y, 1));
            int negatives = 0;
            for (int64_t i = 0; i < count; i++) {
                const double w = want[i] < 0 ? 0 : want[i], got = get(dt, y.data, i);
                negatives += want[i] < 0;
                if (!(fabs(got - w) <= (dt == OSC_FLOAT16 ? 4e-3 : 1e-5) * (1 + fabs(w))))
                    fail_msg("case %d dtype %d element %lld: %.9g, want %.9g", (int)c, (int)dt,
                             (long long)i, got, w);
            }
            assert_true(negatives > 0);
            kh_free(&h);
            free(y.data), free(want), free(xv), free(wv), free(bv);
            for (int i = 0; i < 3; i++) free(t[i].data);
        }
}

/* No input channels, or an empty image: Y is the bias; no samples: an empty Y. */
static void empty_sizes(void **state) {
    (void)state;
    static const float b[2] = {1.5f, -2};
    const osc_tensor x0 = kh_tensor(OSC_FLOAT, 4, D(1, 0, 4, 4), NULL);
    const osc_tensor w0 = kh_tensor(OSC_FLOAT, 4, D(2, 0, 3, 3), NULL);
    const osc_tensor bt = kh_tensor(OSC_FLOAT, 1, D(2), b);
    kh h;
    kh_init(&h, "Conv", 22);
    kh_expect_ok(&h, kh_run3(&h, &x0, &w0, &bt));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 2, 2, 2));
    for (int i = 0; i < 8; i++) assert_float_equal(((float *)h.out.data)[i], b[i / 4], 0);
    kh_free(&h);
    kh_init(&h, "ConvTranspose", 22);
    const osc_tensor w0t = kh_tensor(OSC_FLOAT, 4, D(0, 2, 3, 3), NULL);
    kh_expect_ok(&h, kh_run3(&h, &x0, &w0t, &bt));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 2, 6, 6));
    for (int i = 0; i < 72; i++) assert_float_equal(((float *)h.out.data)[i], b[i / 36], 0);
    kh_free(&h);
    /* an empty image padded to a kernel's size: the bias */
    static const float w1[2] = {3, 4};
    const osc_tensor xe = kh_tensor(OSC_FLOAT, 3, D(1, 1, 0), NULL);
    const osc_tensor we = kh_tensor(OSC_FLOAT, 3, D(2, 1, 1), w1);
    kh_init(&h, "Conv", 22);
    kh_attr_ints(&h, "pads", D(1, 1), 2);
    kh_expect_ok(&h, kh_run3(&h, &xe, &we, &bt));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(1, 2, 2));
    for (int i = 0; i < 4; i++) assert_float_equal(((float *)h.out.data)[i], b[i / 2], 0);
    kh_free(&h);
    static float one[18];
    const osc_tensor xn = kh_tensor(OSC_FLOAT, 4, D(0, 2, 4, 4), NULL);
    const osc_tensor w = kh_tensor(OSC_FLOAT, 4, D(2, 2, 3, 3), one);
    kh_init(&h, "Conv", 11);
    kh_expect_ok(&h, kh_run2(&h, &xn, &w));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(0, 2, 2, 2));
    kh_free(&h);
}

/* Conv on x [1, c, 4, 4] and w [m, wc, 3, 3] with one attribute set by set(). */
static osc_status run_bad(kh *h, int64_t c, int64_t m, int64_t wc,
                          const int64_t *xd, int32_t xr) {
    static float buf[4096];
    const int64_t wd[4] = {m, wc, 3, 3};
    const osc_tensor x = kh_tensor(OSC_FLOAT, xr, xd ? xd : D(1, c, 4, 4), buf);
    const osc_tensor w = kh_tensor(OSC_FLOAT, 4, wd, buf);
    return kh_run2(h, &x, &w);
}

static void conv_errors(void **state) {
    (void)state;
    kh h;
    /* a kernel larger than the padded input */
    kh_init(&h, "Conv", 22);
    kh_attr_ints(&h, "dilations", D(2, 2), 2);
    kh_expect_fail(&h, run_bad(&h, 1, 1, 1, NULL, 4), OSC_ERR_SHAPE,
                   "spatial axis 0 (dim 2 of input 0 'X' ()): the kernel spans 5 elements");
    kh_free(&h);
    /* groups that do not divide the channels */
    kh_init(&h, "Conv", 11);
    kh_attr_int(&h, "group", 2);
    kh_expect_fail(&h, run_bad(&h, 3, 2, 1, NULL, 4), OSC_ERR_SHAPE,
                   "has 3 channels (dim 1 of [1,3,4,4]); attribute 'group' is 2");
    kh_free(&h);
    /* W's channels not C/group */
    kh_init(&h, "Conv", 1);
    kh_attr_int(&h, "group", 2);
    kh_expect_fail(&h, run_bad(&h, 4, 2, 4, NULL, 4), OSC_ERR_SHAPE,
                   "expected dim 1 2 (channels 4 of X / group 2)");
    kh_free(&h);
    /* ranks */
    kh_init(&h, "Conv", 22);
    kh_expect_fail(&h, run_bad(&h, 1, 1, 1, D(1, 1, 4), 3), OSC_ERR_SHAPE,
                   "expected the same rank");
    kh_free(&h);
    /* attribute counts, kernel_shape against W */
    kh_init(&h, "Conv", 22);
    kh_attr_ints(&h, "strides", D(1, 1, 1), 3);
    kh_expect_fail(&h, run_bad(&h, 1, 1, 1, NULL, 4), OSC_ERR_MODEL,
                   "attribute 'strides' has 3 values; expected 2");
    kh_free(&h);
    kh_init(&h, "Conv", 22);
    kh_attr_ints(&h, "kernel_shape", D(3, 2), 2);
    kh_expect_fail(&h, run_bad(&h, 1, 1, 1, NULL, 4), OSC_ERR_SHAPE,
                   "attribute 'kernel_shape' value 1 is 2");
    kh_free(&h);
    /* negative pads, zero strides and dilations, group 0, unknown auto_pad */
    kh_init(&h, "Conv", 22);
    kh_attr_ints(&h, "pads", D(0, -1, 0, 0), 4);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'pads' value 1 is -1; expected at least 0");
    kh_init(&h, "Conv", 22);
    kh_attr_ints(&h, "strides", D(1, 0), 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'strides' value 1 is 0; expected at least 1");
    kh_init(&h, "ConvTranspose", 22);
    kh_attr_ints(&h, "dilations", D(-1, 1), 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'dilations' value 0 is -1");
    kh_init(&h, "Conv", 22);
    kh_attr_int(&h, "group", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'group' is 0; expected at least 1");
    kh_init(&h, "Conv", 22);
    kh_attr_str(&h, "auto_pad", "SAME");
    kh_init_fails(&h, OSC_ERR_MODEL, "'auto_pad' is 'SAME'; allowed: NOTSET");
    kh_init(&h, "Conv", 22);
    kh_attr_ints(&h, "output_padding", D(1, 1), 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "output_padding");
    /* bias of the wrong length */
    static float buf[64];
    const osc_tensor x = kh_tensor(OSC_FLOAT, 4, D(1, 2, 4, 4), buf);
    const osc_tensor w = kh_tensor(OSC_FLOAT, 4, D(3, 2, 3, 3), buf);
    const osc_tensor b = kh_tensor(OSC_FLOAT, 1, D(2), buf);
    kh_init(&h, "Conv", 22);
    kh_expect_fail(&h, kh_run3(&h, &x, &w, &b), OSC_ERR_SHAPE,
                   "input 2 'B' () has shape [2]; expected [3]");
    kh_free(&h);
    /* bfloat16 only from 22; mixed dtypes */
    kh_init(&h, "Conv", 11);
    const osc_tensor xb = kh_tensor(OSC_BFLOAT16, 4, D(1, 2, 4, 4), buf);
    kh_expect_fail(&h, kh_run2(&h, &xb, &w), OSC_ERR_UNSUPPORTED, "bfloat16");
    kh_free(&h);
    kh_init(&h, "Conv", 22);
    kh_expect_fail(&h, kh_run2(&h, &x, &xb), OSC_ERR_SHAPE, "");
    kh_free(&h);
    /* sizes past int64 (inferred only: no buffers) */
    kh_init(&h, "Conv", 22);
    kh_attr_ints(&h, "pads", D(INT64_MAX, 0, 0, 0), 4);
    const osc_tensor xn = kh_tensor(OSC_FLOAT, 4, D(1, 2, 4, 4), NULL);
    const osc_tensor *in[2] = {&xn, &w};
    kh_expect_fail(&h, kh_infer(&h, 2, in, 1), OSC_ERR_LIMIT, "past 2^63-1");
    kh_free(&h);
    kh_init(&h, "ConvTranspose", 22);
    kh_attr_ints(&h, "strides", D(INT64_MAX / 2, 1), 2);
    const osc_tensor wt = kh_tensor(OSC_FLOAT, 4, D(2, 3, 3, 3), NULL);
    const osc_tensor *in2[2] = {&xn, &wt};
    kh_expect_fail(&h, kh_infer(&h, 2, in2, 1), OSC_ERR_LIMIT, "past 2^63-1");
    kh_free(&h);
}

static void convtranspose_errors(void **state) {
    (void)state;
    static float buf[256];
    const osc_tensor x = kh_tensor(OSC_FLOAT, 4, D(1, 2, 3, 3), buf);
    const osc_tensor w = kh_tensor(OSC_FLOAT, 4, D(2, 1, 3, 3), buf);
    const osc_tensor w3 = kh_tensor(OSC_FLOAT, 4, D(3, 1, 3, 3), buf);
    kh h;
    /* W's dim 0 must be X's channels */
    kh_init(&h, "ConvTranspose", 22);
    kh_expect_fail(&h, kh_run2(&h, &x, &w3), OSC_ERR_SHAPE,
                   "input 1 'W' () has shape [3,1,3,3]; expected dim 0 2");
    kh_free(&h);
    /* output_shape far past what the input reaches, or of the wrong length */
    kh_init(&h, "ConvTranspose", 22);
    kh_attr_ints(&h, "output_shape", D(5, 9), 2);
    kh_expect_fail(&h, kh_run2(&h, &x, &w), OSC_ERR_SHAPE,
                   "attribute 'output_shape' value 1 is 9; input 0 'X' () with size 3");
    kh_free(&h);
    kh_init(&h, "ConvTranspose", 22);
    kh_attr_ints(&h, "output_shape", D(5, 5, 5), 3);
    kh_expect_fail(&h, kh_run2(&h, &x, &w), OSC_ERR_MODEL, "'output_shape' has 3 values");
    kh_free(&h);
    /* output_padding not below the stride or the dilation */
    kh_init(&h, "ConvTranspose", 22);
    kh_attr_ints(&h, "strides", D(2, 2), 2);
    kh_attr_ints(&h, "output_padding", D(0, 2), 2);
    kh_expect_fail(&h, kh_run2(&h, &x, &w), OSC_ERR_MODEL,
                   "'output_padding' value 1 is 2; expected less than the stride (2)");
    kh_free(&h);
    /* pads larger than the output */
    kh_init(&h, "ConvTranspose", 22);
    kh_attr_ints(&h, "pads", D(0, 3, 0, 3), 4);
    kh_expect_fail(&h, kh_run2(&h, &x, &w), OSC_ERR_SHAPE, "pads 3 and 3 exceed");
    kh_free(&h);
    /* DeformConv: offset of the wrong shape, offset_group not dividing C */
    const osc_tensor wd = kh_tensor(OSC_FLOAT, 4, D(1, 2, 2, 2), buf);
    const osc_tensor off = kh_tensor(OSC_FLOAT, 4, D(1, 8, 2, 3), buf);
    kh_init(&h, "DeformConv", 22);
    kh_expect_fail(&h, kh_run3(&h, &x, &wd, &off), OSC_ERR_SHAPE,
                   "input 2 'offset' () has shape [1,8,2,3]; expected [1,8,2,2]");
    kh_free(&h);
    kh_init(&h, "DeformConv", 22);
    kh_attr_int(&h, "offset_group", 3);
    kh_expect_fail(&h, kh_run3(&h, &x, &wd, &off), OSC_ERR_SHAPE,
                   "'offset_group' is 3; expected a channel count divisible by it");
    kh_free(&h);
    const kh_row rows[] = {{"Conv", 1, 1},           {"Conv", 10, 1},
                           {"Conv", 11, 11},         {"Conv", 21, 11},
                           {"Conv", 22, 22},         {"ConvTranspose", 10, 1},
                           {"ConvTranspose", 11, 11}, {"ConvTranspose", 22, 22},
                           {"DeformConv", 18, 0},    {"DeformConv", 19, 19},
                           {"DeformConv", 21, 19},   {"DeformConv", 22, 22}};
    kh_assert_rows(rows, N(rows));
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(conv_values), cmocka_unit_test(conv_auto_pad),
              cmocka_unit_test(convtranspose_values),
              cmocka_unit_test(convtranspose_output_shape), cmocka_unit_test(deform_values),
              cmocka_unit_test(engine_threads), cmocka_unit_test(relu_epilogue),
              cmocka_unit_test(empty_sizes),
              cmocka_unit_test(conv_errors), cmocka_unit_test(convtranspose_errors))
