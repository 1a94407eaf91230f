/* test_ops_detect.c: the RoiAlign and NonMaxSuppression kernels run through kharness, against
 * values worked out by hand in the comments and naive loops written here (RoiAlign: each
 * sample interpolated from its four pixels; NMS: the highest remaining score picked again and
 * again, the boxes it overlaps struck off), on random inputs; every version row; and invalid
 * nodes and values, refused with messages naming the input, position and allowed range. */
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

/* A fixed xorshift stream (the test's own state, no global one). */
static double rnd(uint64_t *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* ======================= RoiAlign ======================= */

typedef struct ra_case {
    int64_t opset, oh, ow, sr;
    const char *mode, *ctm; /* ctm NULL: absent */
    float scale;
} ra_case;

static osc_status roialign(kh *h, const ra_case *c, osc_tensor x, osc_tensor r, osc_tensor b) {
    kh_init(h, "RoiAlign", c->opset);
    kh_attr_int(h, "output_height", c->oh);
    kh_attr_int(h, "output_width", c->ow);
    kh_attr_int(h, "sampling_ratio", c->sr);
    kh_attr_str(h, "mode", c->mode);
    if (c->ctm) kh_attr_str(h, "coordinate_transformation_mode", c->ctm);
    kh_attr_float(h, "spatial_scale", c->scale);
    const osc_tensor *in[3] = {&x, &r, &b};
    return kh_run_multi(h, 3, in, 1);
}

/* The value at (y, x) of one plane as the spec's bilinear interpolation: 0 past [-1, size],
 * clamped to the border inside; max: the largest of the four weighted pixels. */
static double interp(const double *img, int64_t hh, int64_t ww, double y, double x, bool max) {
    if (y < -1 || y > (double)hh || x < -1 || x > (double)ww) return 0;
    y = y < 0 ? 0 : y, x = x < 0 ? 0 : x;
    int64_t y0 = (int64_t)floor(y), x0 = (int64_t)floor(x);
    if (y0 >= hh - 1) y0 = hh - 1, y = (double)y0;
    if (x0 >= ww - 1) x0 = ww - 1, x = (double)x0;
    const int64_t y1 = y0 + 1 < hh ? y0 + 1 : y0, x1 = x0 + 1 < ww ? x0 + 1 : x0;
    const double ly = y - (double)y0, lx = x - (double)x0;
    const double t[4] = {(1 - ly) * (1 - lx) * img[y0 * ww + x0], (1 - ly) * lx * img[y0 * ww + x1],
                         ly * (1 - lx) * img[y1 * ww + x0], ly * lx * img[y1 * ww + x1]};
    if (!max) return t[0] + t[1] + t[2] + t[3];
    return fmax(fmax(t[0], t[1]), fmax(t[2], t[3]));
}

/* Naive RoiAlign of x [n, ch, hh, ww] into want [nr, ch, oh, ow]. */
static void roialign_ref(const ra_case *c, const double *x, int64_t ch, int64_t hh, int64_t ww,
                         const double *rois, const int64_t *bi, int64_t nr, double *want) {
    const bool half = c->ctm ? strcmp(c->ctm, "half_pixel") == 0 : c->opset >= 16;
    const bool max = strcmp(c->mode, "max") == 0;
    for (int64_t r = 0; r < nr; r++) {
        const double *q = rois + r * 4, off = half ? 0.5 : 0;
        const double x0 = q[0] * c->scale - off, y0 = q[1] * c->scale - off;
        double rw = q[2] * c->scale - off - x0, rh = q[3] * c->scale - off - y0;
        if (!half) rw = fmax(rw, 1), rh = fmax(rh, 1);
        const double bh = rh / (double)c->oh, bw = rw / (double)c->ow;
        const int64_t gh = c->sr ? c->sr : (int64_t)ceil(rh / (double)c->oh);
        const int64_t gw = c->sr ? c->sr : (int64_t)ceil(rw / (double)c->ow);
        for (int64_t k = 0; k < ch; k++) {
            const double *img = x + (bi[r] * ch + k) * hh * ww;
            for (int64_t i = 0; i < c->oh; i++)
                for (int64_t j = 0; j < c->ow; j++) {
                    double acc = max ? -INFINITY : 0;
                    for (int64_t a = 0; a < gh; a++)
                        for (int64_t b = 0; b < gw; b++) {
                            const double v = interp(img, hh, ww,
                                                    y0 + bh * ((double)i + (a + 0.5) / gh),
                                                    x0 + bw * ((double)j + (b + 0.5) / gw), max);
                            acc = max ? fmax(acc, v) : acc + v;
                        }
                    if (!max) acc /= (double)(gh * gw > 0 ? gh * gw : 1);
                    if (gh * gw == 0) acc = 0;
                    want[((r * ch + k) * c->oh + i) * c->ow + j] = acc;
                }
        }
    }
}

/* Worked by hand: X [[1, 2], [3, 4]], RoI [0, 0, 1, 1], one bin of one sample. Without the
 * half-pixel shift the sample is at (0.5, 0.5): avg 2.5, max 0.25 * 4 = 1; with it, at (0, 0):
 * 1. */
static void roialign_hand(void **state) {
    (void)state;
    const float x[4] = {1, 2, 3, 4}, roi[4] = {0, 0, 1, 1};
    const int64_t bi[1] = {0};
    const ra_case cases[] = {{16, 1, 1, 1, "avg", "output_half_pixel", 1},
                             {10, 1, 1, 1, "avg", NULL, 1},
                             {16, 1, 1, 1, "max", "output_half_pixel", 1},
                             {16, 1, 1, 1, "avg", NULL, 1}};
    const float want[] = {2.5f, 2.5f, 1.0f, 1.0f};
    for (int32_t i = 0; i < N(cases); i++) {
        kh h;
        kh_expect_ok(&h, roialign(&h, &cases[i], kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x),
                                  kh_tensor(OSC_FLOAT, 2, D(1, 4), roi),
                                  kh_tensor(OSC_INT64, 1, D(1), bi)));
        osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 1, 1, 1));
        assert_float_equal(*(const float *)h.out.data, want[i], 1e-6);
        kh_free(&h);
    }
    kh_row rows[] = {{"RoiAlign", 9, 0},   {"RoiAlign", 10, 10}, {"RoiAlign", 15, 10},
                     {"RoiAlign", 16, 16}, {"RoiAlign", 21, 16}, {"RoiAlign", 22, 22},
                     {"RoiAlign", 28, 22}};
    kh_assert_rows(rows, N(rows));
}

/* Random feature maps and RoIs (some past the border, some reversed) against roialign_ref, for
 * each mode, transformation, sampling ratio and dtype. */
static void roialign_random(void **state) {
    (void)state;
    enum { NB = 2, CH = 3, HH = 7, WW = 9, NR = 6 };
    const ra_case cases[] = {
        {10, 2, 3, 0, "avg", NULL, 1},         {10, 3, 2, 2, "max", NULL, 0.5f},
        {16, 2, 2, 0, "avg", "half_pixel", 0.5f}, {16, 3, 3, 0, "max", "half_pixel", 1},
        {16, 2, 3, 3, "avg", "output_half_pixel", 1}, {22, 4, 4, 0, "avg", NULL, 1},
        {22, 1, 2, 2, "max", "output_half_pixel", 2}};
    const int32_t dtypes[] = {OSC_FLOAT, OSC_DOUBLE, OSC_FLOAT16, OSC_BFLOAT16};
    uint64_t s = 0x9e3779b97f4a7c15u;
    double x[NB * CH * HH * WW], rois[NR * 4], want[NR * CH * 4 * 4];
    int64_t bi[NR];
    for (int32_t i = 0; i < N(x); i++) x[i] = rnd(&s) * 4 - 2;
    for (int32_t r = 0; r < NR; r++) {
        for (int32_t j = 0; j < 4; j++) rois[r * 4 + j] = rnd(&s) * 12 - 2;
        bi[r] = r % NB;
    }
    for (int32_t c = 0; c < N(cases); c++)
        for (int32_t d = 0; d < N(dtypes); d++) {
            const int32_t dt = dtypes[d];
            if (dt == OSC_BFLOAT16 && cases[c].opset < 22) continue;
            /* the inputs rounded to dt, the reference computed from the rounded values */
            const size_t es = osc_dtype_get(dt)->bits / 8;
            unsigned char xb[sizeof x], rb[sizeof rois];
            double xr[N(x)], rr[N(rois)];
            for (int32_t pass = 0; pass < 2; pass++) {
                const double *src = pass ? rois : x;
                double *dst = pass ? rr : xr;
                unsigned char *bytes = pass ? rb : xb;
                const int32_t n = pass ? N(rois) : N(x);
                for (int32_t i = 0; i < n; i++) {
                    const float f = (float)src[i];
                    const uint16_t hb = dt == OSC_FLOAT16 ? osc_f32_to_f16(f) : osc_f32_to_bf16(f);
                    if (dt == OSC_DOUBLE) memcpy(bytes + i * es, &src[i], es), dst[i] = src[i];
                    else if (dt == OSC_FLOAT) memcpy(bytes + i * es, &f, es), dst[i] = f;
                    else {
                        memcpy(bytes + i * es, &hb, es);
                        dst[i] = dt == OSC_FLOAT16 ? osc_f16_to_f32(hb) : osc_bf16_to_f32(hb);
                    }
                }
            }
            const ra_case *k = &cases[c];
            roialign_ref(k, xr, CH, HH, WW, rr, bi, NR, want);
            kh h;
            kh_expect_ok(&h, roialign(&h, k, kh_tensor(dt, 4, D(NB, CH, HH, WW), xb),
                                      kh_tensor(dt, 2, D(NR, 4), rb),
                                      kh_tensor(OSC_INT64, 1, D(NR), bi)));
            osc_check_shape(&h.out, dt, 4, D(NR, CH, k->oh, k->ow));
            const double tol = dt == OSC_DOUBLE ? 1e-12 : dt == OSC_FLOAT ? 1e-5
                               : dt == OSC_FLOAT16 ? 4e-3 : 3e-2;
            for (int64_t i = 0; i < NR * CH * k->oh * k->ow; i++) {
                double got;
                if (dt == OSC_DOUBLE) got = ((const double *)h.out.data)[i];
                else if (dt == OSC_FLOAT) got = ((const float *)h.out.data)[i];
                else if (dt == OSC_FLOAT16) got = osc_f16_to_f32(((const uint16_t *)h.out.data)[i]);
                else got = osc_bf16_to_f32(((const uint16_t *)h.out.data)[i]);
                if (fabs(got - want[i]) > tol * (1 + fabs(want[i])))
                    fail_msg("case %d dtype %d element %lld: got %.9g, want %.9g", c, dt,
                             (long long)i, got, want[i]);
            }
            kh_free(&h);
        }
}

/* Invalid nodes and inputs: refused naming what and the allowed range, the output untouched. */
static void roialign_invalid(void **state) {
    (void)state;
    const float x[8] = {0}, roi[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    const int64_t bad_bi[2] = {0, 2}, bi[2] = {0, 1};
    const ra_case ok = {16, 2, 2, 0, "avg", NULL, 1};
    kh h;
    /* batch index 2 of a batch of 2 */
    kh_expect_fail(&h, roialign(&h, &ok, kh_tensor(OSC_FLOAT, 4, D(2, 1, 2, 2), x),
                                kh_tensor(OSC_FLOAT, 2, D(2, 4), roi),
                                kh_tensor(OSC_INT64, 1, D(2), bad_bi)),
                   OSC_ERR_INDEX, "'batch_indices' () at [1] is 2; allowed: 0 to 1");
    kh_assert_untouched(&h.outs[0]);
    kh_free(&h);
    /* rois [2, 4] read as [1, 8], and [2, 4] with 1 batch index */
    kh_expect_fail(&h, roialign(&h, &ok, kh_tensor(OSC_FLOAT, 4, D(2, 1, 2, 2), x),
                                kh_tensor(OSC_FLOAT, 2, D(1, 8), roi),
                                kh_tensor(OSC_INT64, 1, D(1), bi)),
                   OSC_ERR_SHAPE, "'rois' () has shape [1,8]; allowed: [num_rois, 4]");
    kh_free(&h);
    kh_expect_fail(&h, roialign(&h, &ok, kh_tensor(OSC_FLOAT, 4, D(2, 1, 2, 2), x),
                                kh_tensor(OSC_FLOAT, 2, D(2, 4), roi),
                                kh_tensor(OSC_INT64, 1, D(1), bi)),
                   OSC_ERR_SHAPE, "allowed: [num_rois] = [2]");
    kh_free(&h);
    /* a NaN corner, and a RoI of 1e12 pixels with the adaptive grid */
    const float nan_roi[8] = {0, 0, 1, 1, 0, NAN, 1, 1}, huge[8] = {0, 0, 1, 1, 0, 0, 1e12f, 1e12f};
    kh_expect_fail(&h, roialign(&h, &ok, kh_tensor(OSC_FLOAT, 4, D(2, 1, 2, 2), x),
                                kh_tensor(OSC_FLOAT, 2, D(2, 4), nan_roi),
                                kh_tensor(OSC_INT64, 1, D(2), bi)),
                   OSC_ERR_INDEX, "'rois' () at [1, 1] is nan");
    kh_assert_untouched(&h.outs[0]);
    kh_free(&h);
    kh_expect_fail(&h, roialign(&h, &ok, kh_tensor(OSC_FLOAT, 4, D(2, 1, 2, 2), x),
                                kh_tensor(OSC_FLOAT, 2, D(2, 4), huge),
                                kh_tensor(OSC_INT64, 1, D(2), bi)),
                   OSC_ERR_LIMIT, "bilinear samples per channel");
    kh_assert_untouched(&h.outs[0]);
    kh_free(&h);
    /* an empty image with RoIs to pool: nothing to interpolate from */
    kh_expect_fail(&h, roialign(&h, &ok, kh_tensor(OSC_FLOAT, 4, D(2, 1, 0, 2), x),
                                kh_tensor(OSC_FLOAT, 2, D(2, 4), roi),
                                kh_tensor(OSC_INT64, 1, D(2), bi)),
                   OSC_ERR_SHAPE, "has shape [2,1,0,2]: no pixel to sample for 2 RoIs");
    kh_free(&h);
    /* X of rank 3; rois of another dtype; bfloat16 before 22 */
    kh_expect_fail(&h, roialign(&h, &ok, kh_tensor(OSC_FLOAT, 3, D(2, 2, 2), x),
                                kh_tensor(OSC_FLOAT, 2, D(2, 4), roi),
                                kh_tensor(OSC_INT64, 1, D(2), bi)),
                   OSC_ERR_SHAPE, "allowed: rank 4");
    kh_free(&h);
    const double droi[8] = {0};
    kh_expect_fail(&h, roialign(&h, &ok, kh_tensor(OSC_FLOAT, 4, D(2, 1, 2, 2), x),
                                kh_tensor(OSC_DOUBLE, 2, D(2, 4), droi),
                                kh_tensor(OSC_INT64, 1, D(2), bi)),
                   OSC_ERR_SHAPE, NULL);
    kh_free(&h);
    const uint16_t hx[8] = {0}, hr[8] = {0};
    kh_expect_fail(&h, roialign(&h, &ok, kh_tensor(OSC_BFLOAT16, 4, D(2, 1, 2, 2), hx),
                                kh_tensor(OSC_BFLOAT16, 2, D(2, 4), hr),
                                kh_tensor(OSC_INT64, 1, D(2), bi)),
                   OSC_ERR_SHAPE, "bfloat16");
    kh_free(&h);
    /* attributes */
    kh_init(&h, "RoiAlign", 16);
    kh_attr_str(&h, "mode", "mean");
    kh_init_fails(&h, OSC_ERR_MODEL, "'mode' = 'mean'; allowed: 'avg', 'max'");
    kh_init(&h, "RoiAlign", 16);
    kh_attr_str(&h, "coordinate_transformation_mode", "asymmetric");
    kh_init_fails(&h, OSC_ERR_MODEL, "allowed: 'half_pixel', 'output_half_pixel'");
    kh_init(&h, "RoiAlign", 10); /* no such attribute before 16 */
    kh_attr_str(&h, "coordinate_transformation_mode", "half_pixel");
    kh_init_fails(&h, OSC_ERR_MODEL, "coordinate_transformation_mode");
    kh_init(&h, "RoiAlign", 22);
    kh_attr_int(&h, "output_height", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "'output_height' = 0");
    kh_init(&h, "RoiAlign", 22);
    kh_attr_int(&h, "sampling_ratio", -1);
    kh_init_fails(&h, OSC_ERR_MODEL, "'sampling_ratio' = -1; allowed: 0 (adaptive)");
    kh_init(&h, "RoiAlign", 22);
    kh_attr_float(&h, "spatial_scale", INFINITY);
    kh_init_fails(&h, OSC_ERR_MODEL, "'spatial_scale' = inf");
}

/* ======================= NonMaxSuppression ======================= */

typedef struct nms_case {
    int64_t opset, center, max_out; /* max_out < 0: absent */
    float iou, score_thr;           /* iou < 0: absent; score_thr NaN: absent */
} nms_case;

static osc_status nms(kh *h, const nms_case *c, osc_tensor boxes, osc_tensor scores) {
    int64_t mo = c->max_out;
    float iou = c->iou, thr = c->score_thr;
    kh_init(h, "NonMaxSuppression", c->opset);
    if (c->center) kh_attr_int(h, "center_point_box", c->center);
    osc_tensor t_mo = kh_tensor(OSC_INT64, 0, NULL, &mo);
    osc_tensor t_iou = kh_tensor(OSC_FLOAT, 1, D(1), &iou);
    osc_tensor t_thr = kh_tensor(OSC_FLOAT, 0, NULL, &thr);
    const osc_tensor *in[5] = {&boxes, &scores, c->max_out >= 0 ? &t_mo : NULL,
                               c->iou >= 0 ? &t_iou : NULL, isnan(c->score_thr) ? NULL : &t_thr};
    int32_t n = 5;
    while (n > 2 && !in[n - 1]) n--;
    return kh_run_multi(h, n, in, 1);
}

/* IoU of two boxes, from the corners as numbers: min/max of each pair ([y1, x1, y2, x2]) or the
 * center +- half the size; 0 when either has no area. */
static float iou_ref(const float *a, const float *b, bool center) {
    float lo[2][2], hi[2][2];
    const float *bx[2] = {a, b};
    for (int i = 0; i < 2; i++)
        for (int ax = 0; ax < 2; ax++) {
            if (center) {
                lo[i][ax] = bx[i][1 - ax] - bx[i][3 - ax] / 2;
                hi[i][ax] = bx[i][1 - ax] + bx[i][3 - ax] / 2;
            } else {
                lo[i][ax] = fminf(bx[i][ax], bx[i][ax + 2]);
                hi[i][ax] = fmaxf(bx[i][ax], bx[i][ax + 2]);
            }
        }
    const float ih = fminf(hi[0][0], hi[1][0]) - fmaxf(lo[0][0], lo[1][0]);
    const float iw = fminf(hi[0][1], hi[1][1]) - fmaxf(lo[0][1], lo[1][1]);
    if (ih <= 0 || iw <= 0) return 0;
    const float inter = ih * iw;
    const float a0 = (hi[0][0] - lo[0][0]) * (hi[0][1] - lo[0][1]);
    const float a1 = (hi[1][0] - lo[1][0]) * (hi[1][1] - lo[1][1]);
    if (a0 <= 0 || a1 <= 0 || a0 + a1 - inter <= 0) return 0;
    return inter / (a0 + a1 - inter);
}

/* Naive NMS: per batch and class, the best remaining box (lowest index on ties) is picked and
 * every remaining one overlapping it by more than the threshold struck off. Returns rows. */
static int64_t nms_ref(const nms_case *c, const float *boxes, const float *scores, int64_t nb,
                       int64_t ncl, int64_t ns, int64_t *rows) {
    int64_t n = 0;
    const int64_t max_out = c->max_out < 0 ? 0 : c->max_out;
    const float iou = c->iou < 0 ? 0 : c->iou;
    bool *alive = calloc((size_t)ns, 1);
    for (int64_t b = 0; b < nb; b++)
        for (int64_t k = 0; k < ncl; k++) {
            const float *sc = scores + (b * ncl + k) * ns;
            for (int64_t i = 0; i < ns; i++)
                alive[i] = isnan(c->score_thr) || sc[i] > c->score_thr;
            for (int64_t picked = 0; picked < max_out; picked++) {
                int64_t best = -1;
                for (int64_t i = 0; i < ns; i++)
                    if (alive[i] && (best < 0 || sc[i] > sc[best])) best = i;
                if (best < 0) break;
                alive[best] = false;
                rows[n * 3] = b, rows[n * 3 + 1] = k, rows[n * 3 + 2] = best, n++;
                for (int64_t i = 0; i < ns; i++)
                    if (alive[i] && iou_ref(boxes + (b * ns + best) * 4, boxes + (b * ns + i) * 4,
                                            c->center) > iou)
                        alive[i] = false;
            }
        }
    free(alive);
    return n;
}

/* Runs case c on the boxes and scores and checks its rows against nms_ref's (want: room for
 * every row); returns their count. */
static int64_t nms_check(const nms_case *c, const float *boxes, const float *scores, int64_t nb,
                         int64_t ncl, int64_t ns, int64_t *want) {
    const int64_t n = nms_ref(c, boxes, scores, nb, ncl, ns, want);
    kh h;
    kh_expect_ok(&h, nms(&h, c, kh_tensor(OSC_FLOAT, 3, D(nb, ns, 4), boxes),
                         kh_tensor(OSC_FLOAT, 3, D(nb, ncl, ns), scores)));
    osc_check_shape(&h.out, OSC_INT64, 2, D(n, 3));
    if (n) osc_check_bytes(&h.out, want, (size_t)n * 3 * sizeof(int64_t));
    kh_free(&h);
    return n;
}

static void nms_random(void **state) {
    (void)state;
    enum { NB = 2, NC = 3, NS = 40 };
    const nms_case cases[] = {
        {10, 0, 100, 0.5f, NAN}, {11, 0, 5, 0.3f, 0.5f},  {11, 1, 1000, 0.4f, 0.2f},
        {11, 1, 3, -1, NAN},     {11, 0, -1, 0.5f, NAN},  {11, 0, 0, 0.5f, NAN},
        {11, 0, 40, 0.0f, NAN},  {11, 0, 40, 1.0f, 0.9f}, {10, 1, 7, 0.6f, -1.0f}};
    uint64_t s = 12345;
    float boxes[NB * NS * 4], scores[NB * NC * NS];
    for (int32_t i = 0; i < NB * NS; i++) {
        const float y = (float)rnd(&s) * 10, x = (float)rnd(&s) * 10;
        const float hgt = (float)rnd(&s) * 4, wid = (float)rnd(&s) * 4;
        const bool flip = rnd(&s) < 0.3;
        boxes[i * 4] = flip ? y + hgt : y, boxes[i * 4 + 1] = x;
        boxes[i * 4 + 2] = flip ? y : y + hgt, boxes[i * 4 + 3] = x + wid;
    }
    /* scores on a coarse grid: many ties */
    for (int32_t i = 0; i < N(scores); i++) scores[i] = (float)floor(rnd(&s) * 8) / 8;
    for (int32_t c = 0; c < N(cases); c++) {
        int64_t want[NB * NC * NS * 3];
        const int64_t n = nms_check(&cases[c], boxes, scores, NB, NC, NS, want);
        if (c == 0) assert_true(n > NB * NC); /* some selection and some suppression */
        if (c == 0) assert_true(n < NB * NC * NS);
    }
    kh_row rows[] = {{"NonMaxSuppression", 9, 0},   {"NonMaxSuppression", 10, 10},
                     {"NonMaxSuppression", 11, 11}, {"NonMaxSuppression", 28, 11}};
    kh_assert_rows(rows, N(rows));
}

/* Many boxes, so that the kept ones sit in a grid of cells: small ones crowded together, wide
 * ones spanning many cells, boxes of zero height, unit boxes on a lattice that only touch
 * their neighbours, and copies of earlier boxes; every selection equals the naive one. */
static void nms_many(void **state) {
    (void)state;
    enum { NB = 1, NC = 2, NS = 1500 };
    const nms_case cases[] = {{11, 0, 2000, 0.0f, NAN}, {11, 0, 2000, 0.3f, NAN},
                              {11, 0, 300, 0.7f, 0.25f}, {11, 1, 2000, 0.5f, NAN}};
    uint64_t s = 777;
    static float boxes[NB * NS * 4], scores[NB * NC * NS];
    for (int32_t i = 0; i < NB * NS; i++) {
        const double kind = rnd(&s);
        float y = (float)rnd(&s) * 40, x = (float)rnd(&s) * 40, hgt, wid;
        if (kind < 0.6) { /* small */
            hgt = (float)rnd(&s) * 1.5f, wid = (float)rnd(&s) * 1.5f;
        } else if (kind < 0.7) { /* wide */
            hgt = 10 + (float)rnd(&s) * 30, wid = 10 + (float)rnd(&s) * 30;
        } else if (kind < 0.8) { /* no area */
            hgt = 0, wid = (float)rnd(&s) * 3;
        } else if (kind < 0.9) { /* a lattice of unit boxes */
            y = (float)floor(y), x = (float)floor(x), hgt = wid = 1;
        } else { /* a copy of an earlier box */
            const int32_t j = (int32_t)(rnd(&s) * i);
            memcpy(&boxes[i * 4], &boxes[j * 4], 4 * sizeof(float));
            continue;
        }
        boxes[i * 4] = y, boxes[i * 4 + 1] = x, boxes[i * 4 + 2] = y + hgt;
        boxes[i * 4 + 3] = x + wid;
    }
    for (int32_t i = 0; i < N(scores); i++) scores[i] = (float)floor(rnd(&s) * 16) / 16;
    for (int32_t c = 0; c < N(cases); c++) {
        static int64_t want[NB * NC * NS * 3];
        const int64_t n = nms_check(&cases[c], boxes, scores, NB, NC, NS, want);
        assert_true(n > 100 && n < NB * NC * NS); /* selection and suppression both happen */
    }
}

/* Tiny boxes far apart (cells capped, then fewer than the boxes allow), and an empty class:
 * every box of class 0 kept, in score order; then one point given three times. */
static void nms_far_apart(void **state) {
    (void)state;
    const float boxes[4 * 4] = {0, 0, 0.001f, 0.001f,          1000, 1000, 1000.001f, 1000.001f,
                                0, 1000, 0.001f, 1000.001f,    1000, 0, 1000.001f, 0.001f};
    const float scores[2 * 4] = {0.1f, 0.4f, 0.3f, 0.2f, 0, 0, 0, 0};
    const nms_case c = {11, 0, 10, 0.0f, 0.05f};
    kh h;
    kh_expect_ok(&h, nms(&h, &c, kh_tensor(OSC_FLOAT, 3, D(1, 4, 4), boxes),
                         kh_tensor(OSC_FLOAT, 3, D(1, 2, 4), scores)));
    osc_check_shape(&h.out, OSC_INT64, 2, D(4, 3));
    osc_check_bytes(&h.out, D(0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 0), 12 * sizeof(int64_t));
    kh_free(&h);
    /* one point three times (no extent, no range: one cell): no area, no suppression */
    const float point[3 * 4] = {5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
    const float ps[3] = {0.5f, 0.5f, 0.9f};
    kh_expect_ok(&h, nms(&h, &c, kh_tensor(OSC_FLOAT, 3, D(1, 3, 4), point),
                         kh_tensor(OSC_FLOAT, 3, D(1, 1, 3), ps)));
    osc_check_shape(&h.out, OSC_INT64, 2, D(3, 3));
    osc_check_bytes(&h.out, D(0, 0, 2, 0, 0, 0, 0, 0, 1), 9 * sizeof(int64_t));
    kh_free(&h);
}

/* Equal scores: the lower index first (identical boxes: only box 0 stays); an IoU exactly at
 * the threshold is kept (the spec's strict >): two 2x1 boxes overlapping by one cell have IoU
 * 1/3. */
static void nms_ties(void **state) {
    (void)state;
    const float same[12] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1}, sc[3] = {0.5f, 0.5f, 0.5f};
    const nms_case c = {11, 0, 10, 0.5f, NAN};
    kh h;
    kh_expect_ok(&h, nms(&h, &c, kh_tensor(OSC_FLOAT, 3, D(1, 3, 4), same),
                         kh_tensor(OSC_FLOAT, 3, D(1, 1, 3), sc)));
    osc_check_shape(&h.out, OSC_INT64, 2, D(1, 3));
    osc_check_bytes(&h.out, (const int64_t[]){0, 0, 0}, 24);
    kh_free(&h);
    const float two[8] = {0, 0, 1, 2, 0, 1, 1, 3}, sc2[2] = {0.4f, 0.9f};
    const nms_case at = {11, 0, 10, 1.0f / 3.0f, NAN}, below = {11, 0, 10, 0.33f, NAN};
    kh_expect_ok(&h, nms(&h, &at, kh_tensor(OSC_FLOAT, 3, D(1, 2, 4), two),
                         kh_tensor(OSC_FLOAT, 3, D(1, 1, 2), sc2)));
    osc_check_bytes(&h.out, (const int64_t[]){0, 0, 1, 0, 0, 0}, 48);
    kh_free(&h);
    kh_expect_ok(&h, nms(&h, &below, kh_tensor(OSC_FLOAT, 3, D(1, 2, 4), two),
                         kh_tensor(OSC_FLOAT, 3, D(1, 1, 2), sc2)));
    osc_check_shape(&h.out, OSC_INT64, 2, D(1, 3));
    osc_check_bytes(&h.out, (const int64_t[]){0, 0, 1}, 24);
    kh_free(&h);
}

static void nms_invalid(void **state) {
    (void)state;
    const float boxes[8] = {0, 0, 1, 1, 0, 0, 2, 2}, sc[2] = {0.1f, 0.2f};
    const nms_case ok = {11, 0, 10, 0.5f, NAN};
    kh h;
    const nms_case iou_hi = {11, 0, 10, 1.5f, NAN};
    kh_expect_fail(&h, nms(&h, &iou_hi, kh_tensor(OSC_FLOAT, 3, D(1, 2, 4), boxes),
                           kh_tensor(OSC_FLOAT, 3, D(1, 1, 2), sc)),
                   OSC_ERR_INDEX, "'iou_threshold' () is 1.5; allowed: 0 to 1");
    kh_free(&h);
    /* a negative max_out is "absent" in nms(): written here directly */
    const int64_t m = -5;
    kh_init(&h, "NonMaxSuppression", 11);
    osc_tensor tb = kh_tensor(OSC_FLOAT, 3, D(1, 2, 4), boxes);
    osc_tensor ts = kh_tensor(OSC_FLOAT, 3, D(1, 1, 2), sc);
    osc_tensor tm = kh_tensor(OSC_INT64, 1, D(1), &m);
    const osc_tensor *in[3] = {&tb, &ts, &tm};
    kh_expect_fail(&h, kh_run_multi(&h, 3, in, 1), OSC_ERR_INDEX,
                   "'max_output_boxes_per_class' () is -5; allowed: 0 (no output) or more");
    kh_free(&h);
    const float nan_sc[2] = {0.1f, NAN}, nan_box[8] = {0, 0, 1, 1, 0, 0, 2, INFINITY};
    kh_expect_fail(&h, nms(&h, &ok, kh_tensor(OSC_FLOAT, 3, D(1, 2, 4), boxes),
                           kh_tensor(OSC_FLOAT, 3, D(1, 1, 2), nan_sc)),
                   OSC_ERR_INDEX, "'scores' () at [0, 0, 1] is NaN");
    kh_free(&h);
    kh_expect_fail(&h, nms(&h, &ok, kh_tensor(OSC_FLOAT, 3, D(1, 2, 4), nan_box),
                           kh_tensor(OSC_FLOAT, 3, D(1, 1, 2), sc)),
                   OSC_ERR_INDEX, "'boxes' () at [0, 1, 3] is inf; allowed: a finite");
    kh_free(&h);
    kh_expect_fail(&h, nms(&h, &ok, kh_tensor(OSC_FLOAT, 3, D(1, 2, 5), boxes),
                           kh_tensor(OSC_FLOAT, 3, D(1, 1, 2), sc)),
                   OSC_ERR_SHAPE, "[num_batches, spatial_dimension, 4]");
    kh_free(&h);
    kh_expect_fail(&h, nms(&h, &ok, kh_tensor(OSC_FLOAT, 3, D(1, 2, 4), boxes),
                           kh_tensor(OSC_FLOAT, 3, D(1, 2, 1), sc)),
                   OSC_ERR_SHAPE, "[num_batches, num_classes, spatial_dimension]");
    kh_free(&h);
    kh_init(&h, "NonMaxSuppression", 11);
    kh_attr_int(&h, "center_point_box", 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "'center_point_box' = 2; allowed: 0");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roialign_hand),  cmocka_unit_test(roialign_random),
        cmocka_unit_test(roialign_invalid), cmocka_unit_test(nms_random),
        cmocka_unit_test(nms_many),       cmocka_unit_test(nms_far_apart),
        cmocka_unit_test(nms_ties),       cmocka_unit_test(nms_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
