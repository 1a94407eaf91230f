/* test_conv_direct.c: Conv's path without columns (ops/conv/conv_direct.c: float, 2-D, at least
 * 8 output channels per group, AVX-512) against DeformConv with zero offsets, which makes
 * columns and runs the product kernel: the same bits through Conv on 1 and 3 threads, with Relu
 * taken into the Conv or not, and from the path's kernel called directly; over tiles of 6 to 12
 * positions, shorter runs, positions whose taps reach the padding, blocks of 32 and 16 channels
 * (partly used), two K blocks, groups, dilations and both strides; and the values against a
 * direct loop in double. Skipped (reported so by cmocka) where the path does not run: a CPU
 * without AVX-512, or a build without the x86 loops. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ops/conv/conv.h"
#include "tests/support/check.h"
#include "tests/support/mw_check.h"

/* One convolution: X [n, c, h, w], W [m, c/group, kh, kw], pads: begins then ends. */
typedef struct dc {
    int64_t n, c, m, group, h, w, kh, kw, sh, sw, dh, dw, pads[4];
} dc;

static const dc k_cases[] = {
    /* stride 2, pads 1: the detector's backbone stages (first row and column in the padding) */
    {1, 8, 32, 1, 13, 29, 3, 3, 2, 2, 1, 1, {1, 1, 1, 1}},
    /* stride 1, two samples; 48 channels: the last block of 32 half used */
    {2, 5, 48, 1, 9, 31, 3, 3, 1, 1, 1, 1, {1, 1, 1, 1}},
    /* columns of depth 288: two K blocks; strides 2 down, 1 across */
    {1, 32, 16, 1, 6, 14, 3, 3, 2, 1, 1, 1, {1, 0, 0, 1}},
    /* two groups of 16 channels, dilations, asymmetric pads */
    {1, 6, 32, 2, 11, 17, 2, 3, 1, 2, 2, 3, {0, 2, 1, 0}},
    /* 1x1 with pads and strides (not the product's own 1x1 path) */
    {1, 4, 16, 1, 7, 9, 1, 1, 2, 2, 1, 1, {1, 1, 1, 1}},
    /* every position's taps reach the padding */
    {1, 3, 16, 1, 3, 4, 5, 5, 1, 1, 1, 1, {2, 2, 2, 2}},
    /* rows of 200 positions */
    {1, 2, 16, 1, 2, 200, 1, 3, 1, 1, 1, 1, {0, 1, 0, 1}},
    /* 8 channels (a block of 16, half used), 3 -> 8 at stride 2: the RoiAlign head's first */
    {1, 3, 8, 1, 16, 20, 3, 3, 2, 2, 1, 1, {1, 1, 1, 1}},
    /* two groups of 20 channels (a block of 32, 20 used); runs of 4 inside positions, too short
     * for a tile */
    {1, 4, 40, 2, 5, 6, 3, 3, 1, 1, 1, 1, {1, 1, 1, 1}},
    /* work enough for the run to split among threads (3 jobs of 32 whole rows) */
    {1, 16, 32, 1, 96, 64, 3, 3, 1, 1, 1, 1, {1, 1, 1, 1}},
};

static uint32_t g_seed = 777;
static float rndf(void) {
    g_seed = g_seed * 1664525u + 1013904223u;
    return (float)((double)(g_seed >> 8) / (double)(1u << 24) * 2.0 - 1.0);
}

static int64_t out_h(const dc *g) {
    return (g->h + g->pads[0] + g->pads[2] - (g->kh - 1) * g->dh - 1) / g->sh + 1;
}
static int64_t out_w(const dc *g) {
    return (g->w + g->pads[1] + g->pads[3] - (g->kw - 1) * g->dw - 1) / g->sw + 1;
}

/* y = b + the sum over the taps, in double; relu: then max(0, y). */
static void ref(const dc *g, const float *x, const float *w, const float *b, bool relu,
                double *y) {
    const int64_t oh = out_h(g), ow = out_w(g), cg = g->c / g->group, mg = g->m / g->group;
    for (int64_t n = 0; n < g->n; n++)
        for (int64_t m = 0; m < g->m; m++)
            for (int64_t oy = 0; oy < oh; oy++)
                for (int64_t ox = 0; ox < ow; ox++) {
                    double s = b[m];
                    for (int64_t c = 0; c < cg; c++)
                        for (int64_t ky = 0; ky < g->kh; ky++)
                            for (int64_t kx = 0; kx < g->kw; kx++) {
                                const int64_t iy = oy * g->sh - g->pads[0] + ky * g->dh;
                                const int64_t ix = ox * g->sw - g->pads[1] + kx * g->dw;
                                if (iy < 0 || iy >= g->h || ix < 0 || ix >= g->w) continue;
                                const int64_t ch = m / mg * cg + c;
                                s += (double)x[((n * g->c + ch) * g->h + iy) * g->w + ix] *
                                     w[((m * cg + c) * g->kh + ky) * g->kw + kx];
                            }
                    y[((n * g->m + m) * oh + oy) * ow + ox] = relu && s < 0 ? 0 : s;
                }
}

/* Runs Conv (deform: DeformConv with zero offsets; relu: Conv then Relu) of g on threads and
 * returns a copy of the output. */
static float *run(const dc *g, const osc_tensor *x, const osc_tensor *w, const osc_tensor *b,
                  bool deform, bool relu, bool no_fusion, int32_t threads) {
    const int64_t oh = out_h(g), ow = out_w(g);
    const int64_t od[4] = {g->n, 2 * g->kh * g->kw, oh, ow}, yd[4] = {g->n, g->m, oh, ow};
    float *zeros = calloc((size_t)(od[0] * od[1] * oh * ow), sizeof(float));
    const osc_tensor off = {.dtype = OSC_FLOAT, .rank = 4, .dims = {od[0], od[1], oh, ow},
                            .data = zeros, .nbytes = (size_t)(od[0] * od[1] * oh * ow) * 4};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 22);
    const char *const names[4] = {"x", "w", "b", "off"};
    const osc_tensor t[4] = {*x, *w, *b, off};
    for (int i = 0; i < (deform ? 4 : 3); i++)
        osc_mw_input(mw, names[i], OSC_FLOAT, t[i].rank, t[i].dims, NULL);
    const char *const din[4] = {"x", "w", "off", "b"}, *const yo[1] = {"y"}, *const zo[1] = {"z"};
    const int nd = osc_mw_node(mw, deform ? "DeformConv" : "Conv", "cv", deform ? 4 : 3,
                               deform ? din : names, 1, yo);
    osc_mw_attr_int(mw, nd, "group", g->group);
    osc_mw_attr_ints(mw, nd, "kernel_shape", (const int64_t[]){g->kh, g->kw}, 2);
    osc_mw_attr_ints(mw, nd, "strides", (const int64_t[]){g->sh, g->sw}, 2);
    osc_mw_attr_ints(mw, nd, "dilations", (const int64_t[]){g->dh, g->dw}, 2);
    osc_mw_attr_ints(mw, nd, "pads", g->pads, 4);
    if (relu) osc_mw_node(mw, "Relu", "act", 1, yo, 1, zo);
    osc_mw_output(mw, relu ? "z" : "y", OSC_FLOAT, 4, yd, NULL);
    osc_options o;
    osc_options_init(&o);
    o.threads = threads;
    o.no_fusion = no_fusion;
    osc_model *m = osc_check_load(mw, &o);
    osc_session *s = NULL;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    const osc_tensor bound[4] = {t[0], t[1], t[2], t[3]};
    const osc_tensor y = osc_check_run(s, deform ? 4 : 3, names, bound);
    osc_check_shape(&y, OSC_FLOAT, 4, yd);
    float *copy = malloc(y.nbytes);
    memcpy(copy, y.data, y.nbytes);
    osc_session_free(s);
    osc_model_free(m);
    free(zeros);
    return copy;
}

static osc_tensor rand_tensor(int32_t rank, const int64_t *dims) {
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = rank};
    int64_t count = 1;
    for (int32_t i = 0; i < rank; i++) count *= (t.dims[i] = dims[i]);
    float *v = malloc((size_t)count * sizeof *v);
    for (int64_t i = 0; i < count; i++) v[i] = rndf();
    t.data = v;
    t.nbytes = (size_t)count * sizeof *v;
    return t;
}

/* The geometry of g as validation works it out (pads given, no auto_pad). */
static osc_conv_geom geom_of(const dc *g) {
    return (osc_conv_geom){.nd = 2, .variant = OSC_CONV_PLAIN, .n = g->n, .c = g->c, .m = g->m,
                           .group = g->group, .cg = g->c / g->group, .mg = g->m / g->group,
                           .in = {g->h, g->w}, .out = {out_h(g), out_w(g)},
                           .k = {g->kh, g->kw}, .dil = {g->dh, g->dw},
                           .stride = {g->sh, g->sw}, .pad = {g->pads[0], g->pads[1]},
                           .in_size = g->h * g->w, .out_size = out_h(g) * out_w(g),
                           .k_size = g->kh * g->kw};
}

/* The path's own kernel called over every position of each sample and group (the product
 * only, no bias): fails unless it gives the bytes want (the columns' product, zero bias: no
 * sum from +0 is -0, so adding it changes no bits). Run whether or not Conv's dispatch takes
 * the path. */
static void check_kernel(const dc *g, const osc_tensor *x, const osc_tensor *w,
                         const float *want, size_t c) {
    const osc_conv_geom geo = geom_of(g);
    const int64_t P = geo.out_size, count = g->n * g->m * P;
    void *shared = malloc(osc_conv_direct_shared(&geo));
    void *scratch = malloc(osc_conv_direct_scratch(&geo, P));
    float *y = malloc((size_t)count * sizeof *y);
    memset(y, 0xff, (size_t)count * sizeof *y);
    osc_conv_direct_pack(&geo, w->data, shared);
    for (int64_t n = 0; n < g->n; n++)
        for (int64_t grp = 0; grp < g->group; grp++)
            osc_conv_direct_run(&geo, (const float *)x->data +
                                (n * g->c + grp * geo.cg) * geo.in_size, shared, grp, 0, P,
                                y + (n * g->m + grp * geo.mg) * P, P, scratch);
    if (memcmp(y, want, (size_t)count * sizeof *y))
        fail_msg("case %zu: the kernel's bits differ from the columns' product", c);
    free(y), free(scratch), free(shared);
}

static void same_bits(void **state) {
    (void)state;
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        const dc *g = &k_cases[c];
        const osc_conv_geom geo = geom_of(g);
        if (!osc_conv_direct_ok(&geo, OSC_FLOAT)) {
            if (c == 0) skip();
            fail_msg("case %zu: not on the path (the first case is)", c);
        }
        const osc_tensor x = rand_tensor(4, (const int64_t[]){g->n, g->c, g->h, g->w});
        const osc_tensor w = rand_tensor(4, (const int64_t[]){g->m, g->c / g->group, g->kh,
                                                              g->kw});
        osc_tensor b = rand_tensor(1, &g->m);
        const int64_t count = g->n * g->m * out_h(g) * out_w(g);
        const size_t nb = (size_t)count * sizeof(float);
        float *bias = b.data;
        b.data = calloc((size_t)g->m, sizeof(float));
        float *cols0 = run(g, &x, &w, &b, true, false, false, 1);
        check_kernel(g, &x, &w, cols0, c);
        free(cols0), free(b.data);
        b.data = bias;
        double *want = malloc((size_t)count * sizeof *want);
        for (int relu = 0; relu < 2; relu++) {
            ref(g, x.data, w.data, b.data, relu, want);
            float *cols = run(g, &x, &w, &b, true, false, false, 1);
            if (relu)
                for (int64_t i = 0; i < count; i++) cols[i] = cols[i] < 0 ? 0 : cols[i];
            for (int threads = 1; threads <= 3; threads += 2) {
                float *y = run(g, &x, &w, &b, false, relu, false, threads);
                for (int64_t i = 0; i < count; i++)
                    if (!(fabs(y[i] - want[i]) <= 1e-5 * (1 + fabs(want[i]))))
                        fail_msg("case %zu, relu %d, %d threads, element %lld: %.9g, want %.9g",
                                 c, relu, threads, (long long)i, y[i], want[i]);
                if (memcmp(y, cols, nb)) fail_msg("case %zu, relu %d, %d threads: bits differ "
                                                  "from the columns' product", c, relu, threads);
                free(y);
            }
            if (relu) { /* Relu as its own node: the same bits */
                float *y = run(g, &x, &w, &b, false, true, true, 1);
                assert_memory_equal(y, cols, nb);
                free(y);
            }
            free(cols);
        }
        /* an infinite weight: its products with the padding's zeros are NaN on both paths */
        ((float *)w.data)[0] = INFINITY;
        float *cols = run(g, &x, &w, &b, true, false, false, 1);
        float *y = run(g, &x, &w, &b, false, false, false, 1);
        assert_memory_equal(y, cols, nb);
        free(y), free(cols), free(want);
        free(x.data), free(w.data), free(b.data);
    }
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(same_bits))
