/* test_ops_resize.c: Resize, Upsample, GridSample and AffineGrid run through kharness, against
 * naive formulas written here (per output element, straight from the spec's text): nearest
 * modes, linear and cubic with every coordinate transformation, tf_crop_and_resize's
 * extrapolation, antialias, axes, keep_aspect_ratio_policy, integer rounding, GridSample's
 * paddings, AffineGrid; and the invalid nodes and inputs, which leave the output untouched. */
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

static void expect_near(const osc_tensor *t, const double *want, int64_t n, double tol) {
    assert_int_equal(osc_tensor_count(t), n);
    for (int64_t i = 0; i < n; i++) {
        const double got = t->dtype == OSC_DOUBLE ? ((const double *)t->data)[i]
                                                  : ((const float *)t->data)[i];
        if (fabs(got - want[i]) > tol)
            fail_msg("element %lld: got %.9g, want %.9g", (long long)i, got, want[i]);
    }
}

/* Runs the node of h over x with roi, scales, sizes (NULL: omitted; trailing ones dropped) */
static osc_status resize(kh *h, osc_tensor x, const osc_tensor *roi, const osc_tensor *scales,
                         const osc_tensor *sizes) {
    const osc_tensor *in[4] = {&x, roi, scales, sizes};
    return kh_run(h, sizes ? 4 : scales ? 3 : roi ? 2 : 1, in);
}

static int64_t clampi(int64_t i, int64_t n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

/* ---- naive 1-D references ---- */

static double keys(double a, double t) { /* the cubic convolution kernel */
    t = fabs(t);
    if (t <= 1) return (a + 2) * t * t * t - (a + 3) * t * t + 1;
    if (t < 2) return a * t * t * t - 5 * a * t * t + 8 * a * t - 4 * a;
    return 0;
}

/* linear (cubic when a != 0) interpolation of v[0..n-1] at xo, edges repeated */
static double interp(const double *v, int64_t n, double xo, double a) {
    const double f = floor(xo);
    double s = 0;
    if (a == 0) {
        const double r = xo - f;
        return (1 - r) * v[clampi((int64_t)f, n)] + r * v[clampi((int64_t)f + 1, n)];
    }
    for (int64_t j = (int64_t)f - 1; j <= (int64_t)f + 2; j++)
        s += keys(a, xo - (double)j) * v[clampi(j, n)];
    return s;
}

/* nearest: every nearest_mode, a 1-D upsample and a 2-D one (the 2-D one repeats) */
static void resize_nearest(void **state) {
    (void)state;
    const float x[4] = {1, 2, 3, 4};
    const float sc[4] = {1, 1, 2, 3};
    kh h;
    kh_init_since(&h, "Resize", 19, 19);
    kh_attr_str(&h, "coordinate_transformation_mode", "asymmetric");
    kh_attr_str(&h, "nearest_mode", "floor");
    osc_tensor s = kh_tensor(OSC_FLOAT, 1, D(4), sc);
    kh_expect_ok(&h, resize(&h, kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x), NULL, &s, NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 1, 4, 6));
    double want[24];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) want[i * 6 + j] = x[(i / 2) * 2 + j / 3];
    expect_near(&h.out, want, 24, 0);
    kh_free(&h);
    /* 1-D, 4 -> 7 (scale 1.75), half_pixel: each nearest_mode picks by its rounding rule */
    static const char *const modes[] = {"round_prefer_floor", "round_prefer_ceil", "floor",
                                        "ceil"};
    const double v[4] = {10, 20, 30, 40};
    const float s1[1] = {1.75f};
    const float xv[4] = {10, 20, 30, 40};
    for (int m = 0; m < 4; m++) {
        kh_init(&h, "Resize", 13);
        kh_attr_str(&h, "nearest_mode", modes[m]);
        osc_tensor st = kh_tensor(OSC_FLOAT, 1, D(1), s1);
        kh_expect_ok(&h, resize(&h, kh_tensor(OSC_FLOAT, 1, D(4), xv), NULL, &st, NULL));
        double w[7];
        for (int i = 0; i < 7; i++) {
            const double xo = (i + 0.5) / 1.75 - 0.5, f = floor(xo), r = xo - f;
            double pick = r == 0 ? xo : m == 0 ? (r <= 0.5 ? f : f + 1)
                                      : m == 1 ? (r < 0.5 ? f : f + 1) : m == 2 ? f : f + 1;
            w[i] = v[clampi((int64_t)pick, 4)];
        }
        expect_near(&h.out, w, 7, 0);
        kh_free(&h);
    }
    /* int64 past 2^53 and strings are copied exactly */
    const int64_t big[2] = {(1LL << 60) + 1, -((1LL << 60) + 3)};
    const float s2[1] = {2};
    kh_init(&h, "Resize", 13);
    osc_tensor st2 = kh_tensor(OSC_FLOAT, 1, D(1), s2);
    kh_expect_ok(&h, resize(&h, kh_tensor(OSC_INT64, 1, D(2), big), NULL, &st2, NULL));
    const int64_t wbig[4] = {big[0], big[0], big[1], big[1]};
    osc_check_bytes(&h.out, wbig, sizeof wbig);
    kh_free(&h);
}

/* linear and cubic against interp() for every coordinate transformation, 1-D */
static void resize_linear_cubic(void **state) {
    (void)state;
    static const char *const ctms[] = {"half_pixel", "pytorch_half_pixel", "align_corners",
                                       "asymmetric", "half_pixel_symmetric"};
    const float xf[5] = {1, 4, 2, 8, -3};
    const double xv[5] = {1, 4, 2, 8, -3};
    const float scales[] = {2.5f, 0.6f, 1.0f / 3};
    for (int c = 0; c < N(ctms); c++)
        for (int mode = 0; mode < 2; mode++)
            for (int si = 0; si < N(scales); si++) {
                const double s = scales[si], w = s * 5;
                const int64_t on = (int64_t)floor(w);
                kh h;
                kh_init(&h, "Resize", 19);
                kh_attr_str(&h, "mode", mode ? "cubic" : "linear");
                kh_attr_str(&h, "coordinate_transformation_mode", ctms[c]);
                if (mode) kh_attr_float(&h, "cubic_coeff_a", -0.5f);
                osc_tensor st = kh_tensor(OSC_FLOAT, 1, D(1), &scales[si]);
                osc_tensor xt = kh_tensor(OSC_FLOAT, 1, D(5), xf);
                kh_expect_ok(&h, resize(&h, xt, NULL, &st, NULL));
                double want[16];
                for (int64_t i = 0; i < on; i++) {
                    double xo = c == 0 ? (i + 0.5) / s - 0.5
                              : c == 1 ? (on > 1 ? (i + 0.5) / s - 0.5 : 0)
                              : c == 2 ? (w == 1 ? 0 : i * 4.0 / (w - 1))
                              : c == 3 ? i / s
                                       : 2.5 * (1 - on / w) + (i + 0.5) / s - 0.5;
                    want[i] = interp(xv, 5, xo, mode ? -0.5 : 0);
                }
                expect_near(&h.out, want, on, 1e-5);
                kh_free(&h);
            }
}

/* 2-D bilinear with sizes and align_corners, N-D separable: out[i][j] by the 4-point formula */
static void resize_bilinear_2d(void **state) {
    (void)state;
    const float x[6] = {0, 3, 6, 9, 12, 18}; /* 2 x 3 */
    const int64_t sizes[2] = {4, 5};
    kh h;
    kh_init(&h, "Resize", 18);
    kh_attr_str(&h, "mode", "linear");
    kh_attr_str(&h, "coordinate_transformation_mode", "align_corners");
    osc_tensor sz = kh_tensor(OSC_INT64, 1, D(2), sizes);
    kh_expect_ok(&h, resize(&h, kh_tensor(OSC_FLOAT, 2, D(2, 3), x), NULL, NULL, &sz));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(4, 5));
    double want[20];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++) {
            const double yi = i * 1.0 / 3, xj = j * 2.0 / 4;
            const int64_t y0 = (int64_t)floor(yi), x0 = (int64_t)floor(xj);
            const double ry = yi - y0, rx = xj - x0;
            const int64_t y1 = clampi(y0 + 1, 2), x1 = clampi(x0 + 1, 3);
            want[i * 5 + j] = (1 - ry) * ((1 - rx) * x[y0 * 3 + x0] + rx * x[y0 * 3 + x1]) +
                              ry * ((1 - rx) * x[y1 * 3 + x0] + rx * x[y1 * 3 + x1]);
        }
    expect_near(&h.out, want, 20, 1e-5);
    kh_free(&h);
    /* axes: only dim 1 resized (scale 2, half_pixel) */
    const int64_t ax[1] = {-1};
    const float s2[1] = {2};
    kh_init(&h, "Resize", 18);
    kh_attr_str(&h, "mode", "linear");
    kh_attr_ints(&h, "axes", ax, 1);
    osc_tensor st = kh_tensor(OSC_FLOAT, 1, D(1), s2);
    kh_expect_ok(&h, resize(&h, kh_tensor(OSC_FLOAT, 2, D(2, 3), x), NULL, &st, NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(2, 6));
    double w2[12];
    for (int i = 0; i < 2; i++) {
        const double row[3] = {x[i * 3], x[i * 3 + 1], x[i * 3 + 2]};
        for (int j = 0; j < 6; j++) w2[i * 6 + j] = interp(row, 3, (j + 0.5) / 2 - 0.5, 0);
    }
    expect_near(&h.out, w2, 12, 1e-5);
    kh_free(&h);
    /* keep_aspect_ratio_policy not_larger: sizes [2, 2] of 2 x 4 -> scale 0.5 -> 1 x 2 */
    const float x24[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int64_t s22[2] = {2, 2};
    kh_init(&h, "Resize", 18);
    kh_attr_str(&h, "keep_aspect_ratio_policy", "not_larger");
    osc_tensor sz2 = kh_tensor(OSC_INT64, 1, D(2), s22);
    kh_expect_ok(&h, resize(&h, kh_tensor(OSC_FLOAT, 2, D(2, 4), x24), NULL, NULL, &sz2));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(1, 2));
    kh_free(&h);
}

/* tf_crop_and_resize: roi and the extrapolation value; antialias; integer truncation */
static void resize_crop_antialias_ints(void **state) {
    (void)state;
    const float x[4] = {0, 10, 20, 30}, roi[2] = {0.4f, 1.2f};
    const int64_t sizes[1] = {3};
    kh h;
    kh_init(&h, "Resize", 13);
    kh_attr_str(&h, "mode", "linear");
    kh_attr_str(&h, "coordinate_transformation_mode", "tf_crop_and_resize");
    kh_attr_float(&h, "extrapolation_value", 99);
    osc_tensor r = kh_tensor(OSC_FLOAT, 1, D(2), roi), sz = kh_tensor(OSC_INT64, 1, D(1), sizes);
    kh_expect_ok(&h, resize(&h, kh_tensor(OSC_FLOAT, 1, D(4), x), &r, NULL, &sz));
    double want[3];
    for (int i = 0; i < 3; i++) { /* x * (end - start) * (n - 1) / (out - 1) + start * (n - 1) */
        const double xo = i * ((double)roi[1] - roi[0]) * 3 / 2 + (double)roi[0] * 3;
        want[i] = xo > 3 ? 99 : 10 * xo;
    }
    expect_near(&h.out, want, 3, 1e-4);
    kh_free(&h);
    /* antialias linear downsampling by 1/2: the triangle stretched by 2, normalised */
    const float x8[8] = {1, 5, 2, 7, 3, 3, 9, 0}, half[1] = {0.5f};
    double xv[8];
    for (int i = 0; i < 8; i++) xv[i] = x8[i];
    kh_init(&h, "Resize", 18);
    kh_attr_str(&h, "mode", "linear");
    kh_attr_int(&h, "antialias", 1);
    osc_tensor st = kh_tensor(OSC_FLOAT, 1, D(1), half);
    kh_expect_ok(&h, resize(&h, kh_tensor(OSC_FLOAT, 1, D(8), x8), NULL, &st, NULL));
    double wa[4];
    for (int i = 0; i < 4; i++) {
        const double xo = (i + 0.5) * 2 - 0.5;
        double s = 0, ws = 0;
        for (int j = -10; j < 20; j++) {
            const double wt = fmax(0, 1 - 0.5 * fabs(j - xo));
            s += wt * xv[clampi(j, 8)], ws += wt;
        }
        wa[i] = s / ws;
    }
    expect_near(&h.out, wa, 4, 1e-5);
    kh_free(&h);
    /* uint8 linear: computed in double, truncated toward zero as numpy's astype */
    const uint8_t u[2] = {0, 255};
    const float s2[1] = {2};
    kh_init(&h, "Resize", 13);
    kh_attr_str(&h, "mode", "linear");
    osc_tensor st2 = kh_tensor(OSC_FLOAT, 1, D(1), s2);
    kh_expect_ok(&h, resize(&h, kh_tensor(OSC_UINT8, 1, D(2), u), NULL, &st2, NULL));
    uint8_t wu[4];
    for (int i = 0; i < 4; i++) {
        const double xo = (i + 0.5) / 2 - 0.5, v[2] = {0, 255};
        wu[i] = (uint8_t)trunc(interp(v, 2, xo, 0));
    }
    osc_check_bytes(&h.out, wu, 4);
    kh_free(&h);
}

/* Upsample-7/9/10 and Resize-10: asymmetric, floor (ceil when downsampling) */
static void upsample_versions(void **state) {
    (void)state;
    const float x[4] = {1, 2, 3, 4}, sc[2] = {2, 3};
    kh h;
    kh_init_since(&h, "Upsample", 7, 7);
    kh_attr_floats(&h, "scales", sc, 2);
    osc_tensor xt = kh_tensor(OSC_FLOAT, 2, D(2, 2), x);
    kh_expect_ok(&h, kh_run1(&h, &xt));
    double want[24];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) want[i * 6 + j] = x[(i / 2) * 2 + j / 3];
    expect_near(&h.out, want, 24, 0);
    kh_free(&h);
    for (int64_t opset = 9; opset <= 10; opset++) {
        kh_init_since(&h, "Upsample", opset, opset);
        assert_int_equal((h.kernel->flags & OSC_KF_DEPRECATED) != 0, opset == 10);
        osc_tensor s = kh_tensor(OSC_FLOAT, 1, D(2), sc);
        kh_expect_ok(&h, kh_run2(&h, &xt, &s));
        expect_near(&h.out, want, 24, 0);
        kh_free(&h);
    }
    /* Resize-10 downsampling by 0.6: x / 0.6 rounded up */
    const float x8[8] = {1, 2, 3, 4, 5, 6, 7, 8}, s6[2] = {0.6f, 0.6f};
    kh_init_since(&h, "Resize", 10, 10);
    osc_tensor s = kh_tensor(OSC_FLOAT, 1, D(2), s6);
    osc_tensor x24 = kh_tensor(OSC_FLOAT, 2, D(2, 4), x8);
    kh_expect_ok(&h, kh_run2(&h, &x24, &s));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(1, 2));
    const double w10[2] = {x8[0], x8[(int)ceil(1 / 0.6f)]};
    expect_near(&h.out, w10, 2, 0);
    kh_free(&h);
    const kh_row rows[] = {{"Upsample", 6, 0},  {"Upsample", 8, 7},  {"Upsample", 9, 9},
                           {"Upsample", 28, 10}, {"Resize", 9, 0},   {"Resize", 12, 11},
                           {"Resize", 17, 13},  {"Resize", 18, 18}, {"Resize", 28, 19},
                           {"GridSample", 15, 0}, {"GridSample", 19, 16},
                           {"GridSample", 21, 20}, {"GridSample", 28, 22},
                           {"AffineGrid", 19, 0}, {"AffineGrid", 28, 20}};
    kh_assert_rows(rows, N(rows));
}

/* GridSample-20: bilinear with zeros padding and align_corners 0, and nearest with border,
 * against the 4-point formula per output; AffineGrid-20 against theta times the base grid */
static double gs_pix(const float *x, int64_t h, int64_t w, int64_t i, int64_t j, int pad) {
    if (pad == 1) i = clampi(i, h), j = clampi(j, w);
    return i < 0 || i >= h || j < 0 || j >= w ? 0 : x[i * w + j];
}

static void grid_sample_affine(void **state) {
    (void)state;
    const float x[6] = {1, 2, 3, 4, 5, 6}; /* 1 x 1 x 2 x 3 */
    const float grid[8] = {-1, -1, 0.3f, 0.2f, 1.2f, -0.7f, 0.9f, 1.0f}; /* 1 x 2 x 2 x 2 */
    for (int pad = 0; pad < 2; pad++) {
        kh h;
        kh_init_since(&h, "GridSample", 20, 20);
        kh_attr_str(&h, "mode", pad ? "nearest" : "linear");
        kh_attr_str(&h, "padding_mode", pad ? "border" : "zeros");
        osc_tensor xt = kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 3), x);
        osc_tensor gt = kh_tensor(OSC_FLOAT, 4, D(1, 2, 2, 2), grid);
        kh_expect_ok(&h, kh_run2(&h, &xt, &gt));
        osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 1, 2, 2));
        double want[4];
        for (int q = 0; q < 4; q++) {
            const double cx = ((grid[2 * q] + 1.0) * 3 - 1) / 2;
            const double cy = ((grid[2 * q + 1] + 1.0) * 2 - 1) / 2;
            if (pad) { /* nearest: round half to even, then clamp */
                want[q] = gs_pix(x, 2, 3, (int64_t)nearbyint(cy), (int64_t)nearbyint(cx), 1);
                continue;
            }
            const int64_t x0 = (int64_t)floor(cx), y0 = (int64_t)floor(cy);
            const double rx = cx - x0, ry = cy - y0;
            const double top = (1 - rx) * gs_pix(x, 2, 3, y0, x0, 0) +
                               rx * gs_pix(x, 2, 3, y0, x0 + 1, 0);
            const double bottom = (1 - rx) * gs_pix(x, 2, 3, y0 + 1, x0, 0) +
                                  rx * gs_pix(x, 2, 3, y0 + 1, x0 + 1, 0);
            want[q] = (1 - ry) * top + ry * bottom;
        }
        expect_near(&h.out, want, 4, 1e-5);
        kh_free(&h);
    }
    /* nearest at x.5 exactly: half to even, over 2 spatial dims and over 3 (the volumetric
     * node tests of ONNX 1.23 expect it there too) */
    const float row[4] = {10, 11, 12, 13}, g2[4] = {-0.5f, 0, 0.5f, 0}, g3[6] = {-0.5f, 0, 0,
                                                                                0.5f, 0, 0};
    for (int nd = 2; nd <= 3; nd++) {
        kh h;
        kh_init(&h, "GridSample", 20);
        kh_attr_str(&h, "mode", "nearest");
        osc_tensor xt = nd == 2 ? kh_tensor(OSC_FLOAT, 4, D(1, 1, 1, 4), row)
                                : kh_tensor(OSC_FLOAT, 5, D(1, 1, 1, 1, 4), row);
        osc_tensor gt = nd == 2 ? kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), g2)
                                : kh_tensor(OSC_FLOAT, 5, D(1, 1, 1, 2, 3), g3);
        kh_expect_ok(&h, kh_run2(&h, &xt, &gt));
        /* x = ((v + 1) * 4 - 1) / 2: 0.5 and 2.5 */
        const double want[2] = {row[0], row[2]};
        expect_near(&h.out, want, 2, 0);
        kh_free(&h);
    }
    /* AffineGrid 2-D, align_corners 0 and 1 */
    const float theta[6] = {0.5f, -0.25f, 0.1f, 0.3f, 1.5f, -0.2f};
    const int64_t size[4] = {1, 1, 2, 3};
    for (int al = 0; al < 2; al++) {
        kh h;
        kh_init_since(&h, "AffineGrid", 20, 20);
        kh_attr_int(&h, "align_corners", al);
        osc_tensor tt = kh_tensor(OSC_FLOAT, 3, D(1, 2, 3), theta);
        osc_tensor st = kh_tensor(OSC_INT64, 1, D(4), size);
        kh_expect_ok(&h, kh_run2(&h, &tt, &st));
        osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 2, 3, 2));
        double want[12];
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++) {
                const double bx = al ? -1 + j * 2.0 / 2 : -1 + (2.0 * j + 1) / 3;
                const double by = al ? -1 + i * 2.0 : -1 + (2.0 * i + 1) / 2;
                for (int r = 0; r < 2; r++)
                    want[(i * 3 + j) * 2 + r] =
                        theta[r * 3] * bx + theta[r * 3 + 1] * by + theta[r * 3 + 2];
            }
        expect_near(&h.out, want, 12, 1e-6);
        kh_free(&h);
    }
}

/* Invalid inputs and attributes: refused with a message naming what and where, output
 * untouched */
static void errors(void **state) {
    (void)state;
    const float x[4] = {1, 2, 3, 4};
    const int64_t sizes[2] = {4, 4};
    osc_tensor xt = kh_tensor(OSC_FLOAT, 2, D(2, 2), x);
    kh h;
    /* scales <= 0 */
    const float bad[2] = {2, 0};
    kh_init(&h, "Resize", 19);
    osc_tensor st = kh_tensor(OSC_FLOAT, 1, D(2), bad);
    kh_expect_fail(&h, resize(&h, xt, NULL, &st, NULL), OSC_ERR_SHAPE,
                   "input 2 'scales' (): value 0 at position 1 is out of range; allowed: (0, inf)");
    kh_free(&h);
    /* scales and sizes both */
    const float two[2] = {2, 2};
    kh_init(&h, "Resize", 19);
    osc_tensor s2 = kh_tensor(OSC_FLOAT, 1, D(2), two), z2 = kh_tensor(OSC_INT64, 1, D(2), sizes);
    kh_expect_fail(&h, resize(&h, xt, NULL, &s2, &z2), OSC_ERR_MODEL, "both have values");
    kh_free(&h);
    /* neither */
    kh_init(&h, "Resize", 19);
    kh_expect_fail(&h, resize(&h, xt, NULL, NULL, NULL), OSC_ERR_MODEL, "one of them must");
    kh_free(&h);
    /* scales of the wrong length, sizes negative */
    kh_init(&h, "Resize", 13);
    osc_tensor s1 = kh_tensor(OSC_FLOAT, 1, D(1), two);
    kh_expect_fail(&h, resize(&h, xt, NULL, &s1, NULL), OSC_ERR_SHAPE, "expected [2]");
    kh_free(&h);
    const int64_t neg[2] = {3, -1};
    kh_init(&h, "Resize", 13);
    osc_tensor zn = kh_tensor(OSC_INT64, 1, D(2), neg);
    kh_expect_fail(&h, resize(&h, xt, NULL, NULL, &zn), OSC_ERR_SHAPE,
                   "value -1 at position 1 is out of range");
    kh_free(&h);
    /* roi of the wrong length */
    const float roi[3] = {0, 0, 1};
    kh_init(&h, "Resize", 13);
    kh_attr_str(&h, "coordinate_transformation_mode", "tf_crop_and_resize");
    osc_tensor rt = kh_tensor(OSC_FLOAT, 1, D(3), roi);
    kh_expect_fail(&h, resize(&h, xt, &rt, NULL, &z2), OSC_ERR_SHAPE,
                   "input 1 'roi' () has shape [3]; expected [4]");
    kh_free(&h);
    kh_init(&h, "Resize", 13);
    kh_attr_str(&h, "coordinate_transformation_mode", "tf_crop_and_resize");
    kh_expect_fail(&h, resize(&h, xt, NULL, NULL, &z2), OSC_ERR_MODEL, "needs input 1 'roi'");
    kh_free(&h);
    /* absurd sizes: one dim past 2^62, the product past 2^63-1 */
    const float huge[2] = {1e30f, 1}, big[2] = {0x1p40f, 0x1p40f};
    kh_init(&h, "Resize", 13);
    osc_tensor sh = kh_tensor(OSC_FLOAT, 1, D(2), huge);
    kh_expect_fail(&h, resize(&h, xt, NULL, &sh, NULL), OSC_ERR_LIMIT, "at most 2^62");
    kh_free(&h);
    kh_init(&h, "Resize", 13);
    osc_tensor sb = kh_tensor(OSC_FLOAT, 1, D(2), big);
    kh_expect_fail(&h, resize(&h, xt, NULL, &sb, NULL), OSC_ERR_LIMIT, "2^63-1");
    kh_free(&h);
    /* linear on strings; attributes out of their lists; half_pixel_symmetric before 19 */
    osc_string strs[4] = {{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}};
    kh_init(&h, "Resize", 13);
    kh_attr_str(&h, "mode", "linear");
    osc_tensor xs = kh_tensor(OSC_STRING, 2, D(2, 2), strs);
    kh_expect_fail(&h, resize(&h, xs, NULL, &s2, NULL), OSC_ERR_UNSUPPORTED, "is string");
    kh_free(&h);
    kh_init(&h, "Resize", 13);
    kh_attr_str(&h, "mode", "area");
    kh_init_fails(&h, OSC_ERR_MODEL, "'mode' = 'area'; allowed: 'nearest', 'linear', 'cubic'");
    kh_init(&h, "Resize", 18);
    kh_attr_str(&h, "coordinate_transformation_mode", "half_pixel_symmetric");
    kh_init_fails(&h, OSC_ERR_MODEL, "half_pixel_symmetric: from 19");
    kh_init(&h, "Upsample", 9);
    kh_attr_str(&h, "mode", "cubic");
    kh_init_fails(&h, OSC_ERR_MODEL, "allowed: 'nearest', 'linear'");
    /* GridSample: a grid of the wrong shape; a NaN in it, found before any write */
    const float g[8] = {0, 0, 0.5f, 0.5f, NAN, 0, 0, 0};
    osc_tensor x4 = kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x);
    kh_init(&h, "GridSample", 22);
    osc_tensor gw = kh_tensor(OSC_FLOAT, 4, D(1, 2, 2, 2), g);
    gw.dims[3] = 1, gw.dims[2] = 4;
    kh_expect_fail(&h, kh_run2(&h, &x4, &gw), OSC_ERR_SHAPE, "input 1 'grid' () has shape "
                   "[1,2,4,1]; with input 0 'X' () of shape [1,1,2,2] it must be [1, spatial "
                   "dims..., 2]");
    kh_free(&h);
    kh_init(&h, "GridSample", 16);
    osc_tensor x5 = kh_tensor(OSC_FLOAT, 5, D(1, 1, 1, 2, 2), x);
    osc_tensor g5 = kh_tensor(OSC_FLOAT, 5, D(1, 1, 1, 1, 3), g);
    kh_expect_fail(&h, kh_run2(&h, &x5, &g5), OSC_ERR_SHAPE, "expected rank 4");
    kh_free(&h);
    kh_init(&h, "GridSample", 22);
    osc_tensor gn = kh_tensor(OSC_FLOAT, 4, D(1, 2, 2, 2), g);
    osc_tensor y = {0};
    kh_expect_ok(&h, kh_infer(&h, 2, (const osc_tensor *const[]){&x4, &gn}, 1));
    y = h.outs[0];
    unsigned char buf[16];
    memset(buf, 0xA5, sizeof buf);
    y.data = buf, y.nbytes = sizeof buf;
    const osc_tensor *in2[2] = {&x4, &gn};
    kh_expect_fail(&h, h.kernel->run(&h.k, in2, 2, &y, 1), OSC_ERR_INDEX,
                   "input 1 'grid' (): value nan at position 4 is not finite");
    kh_assert_untouched(&y);
    kh_free(&h);
    kh_init(&h, "GridSample", 16);
    kh_attr_str(&h, "mode", "linear");
    kh_init_fails(&h, OSC_ERR_MODEL, "allowed: 'nearest', 'bilinear', 'bicubic'");
    /* AffineGrid: theta not (N, 2, 3) for a 4-value size */
    const int64_t sz4[4] = {1, 1, 2, 2};
    kh_init(&h, "AffineGrid", 20);
    osc_tensor th = kh_tensor(OSC_FLOAT, 3, D(1, 3, 4), x);
    osc_tensor s4 = kh_tensor(OSC_INT64, 1, D(4), sz4);
    kh_expect_fail(&h, kh_run2(&h, &th, &s4), OSC_ERR_SHAPE, "it must be [1, 2, 3]");
    kh_free(&h);
}

/* Element i of buf of dtype dt set from / read as a double (the test's own conversions) */
static void put(int32_t dt, void *buf, int i, double v) {
    switch (dt) {
    case OSC_INT8: ((int8_t *)buf)[i] = (int8_t)v; break;
    case OSC_INT16: ((int16_t *)buf)[i] = (int16_t)v; break;
    case OSC_INT32: ((int32_t *)buf)[i] = (int32_t)v; break;
    case OSC_INT64: ((int64_t *)buf)[i] = (int64_t)v; break;
    case OSC_UINT8: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    case OSC_UINT16: ((uint16_t *)buf)[i] = (uint16_t)v; break;
    case OSC_UINT32: ((uint32_t *)buf)[i] = (uint32_t)v; break;
    case OSC_UINT64: ((uint64_t *)buf)[i] = (uint64_t)v; break;
    case OSC_FLOAT16: ((uint16_t *)buf)[i] = osc_f32_to_f16((float)v); break;
    case OSC_BFLOAT16: ((uint16_t *)buf)[i] = osc_f32_to_bf16((float)v); break;
    case OSC_DOUBLE: ((double *)buf)[i] = v; break;
    default: ((float *)buf)[i] = (float)v; break;
    }
}
static double get(int32_t dt, const void *buf, int i) {
    switch (dt) {
    case OSC_INT8: return ((const int8_t *)buf)[i];
    case OSC_INT16: return ((const int16_t *)buf)[i];
    case OSC_INT32: return ((const int32_t *)buf)[i];
    case OSC_INT64: return (double)((const int64_t *)buf)[i];
    case OSC_UINT8: return ((const uint8_t *)buf)[i];
    case OSC_UINT16: return ((const uint16_t *)buf)[i];
    case OSC_UINT32: return ((const uint32_t *)buf)[i];
    case OSC_UINT64: return (double)((const uint64_t *)buf)[i];
    case OSC_FLOAT16: return osc_f16_to_f32(((const uint16_t *)buf)[i]);
    case OSC_BFLOAT16: return osc_bf16_to_f32(((const uint16_t *)buf)[i]);
    case OSC_DOUBLE: return ((const double *)buf)[i];
    default: return ((const float *)buf)[i];
    }
}

/* Every real dtype of Resize-19: cubic (A = -0.75) over steps overshoots both ways; integers
 * are truncated toward zero and saturated, halves rounded once; GridSample and AffineGrid on
 * double */
static void every_dtype(void **state) {
    (void)state;
    static const int32_t dts[] = {OSC_INT8,   OSC_INT16,   OSC_INT32,  OSC_INT64,
                                  OSC_UINT8,  OSC_UINT16,  OSC_UINT32, OSC_UINT64,
                                  OSC_FLOAT16, OSC_BFLOAT16, OSC_DOUBLE, OSC_FLOAT};
    static const double lo[] = {-128, -32768, -2147483648.0, -0x1p63, 0, 0, 0, 0};
    static const double hi[] = {127, 32767, 2147483647.0, 0x1.fffffffffffffp62, 255, 65535,
                                4294967295.0, 0x1.fffffffffffffp63};
    const float s3[1] = {3};
    for (int c = 0; c < N(dts); c++) {
        const int32_t dt = dts[c];
        const double top = c < 8 ? hi[c] : 1000, bottom = c < 8 ? lo[c] : -1000;
        /* float, double, and the 64-bit integers whose extremes a double rounds: compared
         * within a rounding of their own; the others bit for bit */
        const bool wide = c >= 10 || dt == OSC_INT64 || dt == OSC_UINT64;
        unsigned char x[4 * 8], *want = calloc(12, 8);
        const double xv[4] = {bottom, top, bottom, top};
        for (int i = 0; i < 4; i++) put(dt, x, i, xv[i]);
        double dv[4];
        for (int i = 0; i < 4; i++) dv[i] = get(dt, x, i);
        kh h;
        kh_init(&h, "Resize", 19);
        kh_attr_str(&h, "mode", "cubic");
        osc_tensor st = kh_tensor(OSC_FLOAT, 1, D(1), s3);
        kh_expect_ok(&h, resize(&h, kh_tensor(dt, 1, D(4), x), NULL, &st, NULL));
        for (int i = 0; i < 12; i++) {
            double v = interp(dv, 4, (i + 0.5) / 3 - 0.5, -0.75);
            if (c < 8) v = fmin(fmax(trunc(v), lo[c]), hi[c]);
            put(dt, want, i, v);
            const double tol = (dt == OSC_FLOAT ? 1e-7 : 1e-12) * fabs(v);
            if (wide && fabs(get(dt, h.out.data, i) - v) > tol)
                fail_msg("dtype %d element %d: got %.17g, want %.17g", (int)dt, i,
                         get(dt, h.out.data, i), v);
        }
        if (!wide) osc_check_bytes(&h.out, want, 12 * (osc_dtype_get(dt)->bits / 8));
        free(want);
        kh_free(&h);
    }
    /* a bool extrapolated by nearest tf_crop_and_resize: extrapolation_value 2 is true */
    const uint8_t b[2] = {0, 0};
    const float roi[2] = {0.5f, 3};
    const int64_t sz[1] = {3};
    kh h;
    kh_init(&h, "Resize", 13);
    kh_attr_str(&h, "coordinate_transformation_mode", "tf_crop_and_resize");
    kh_attr_float(&h, "extrapolation_value", 2);
    osc_tensor rt = kh_tensor(OSC_FLOAT, 1, D(2), roi), zt = kh_tensor(OSC_INT64, 1, D(1), sz);
    kh_expect_ok(&h, resize(&h, kh_tensor(OSC_BOOL, 1, D(2), b), &rt, NULL, &zt));
    const uint8_t wb[3] = {0, 1, 1}; /* x = 0.5, 1.75, 3 along [0, 1] */
    osc_check_bytes(&h.out, wb, 3);
    kh_free(&h);
}

/* The remaining refusals of init and infer, each naming what and where */
static void more_errors(void **state) {
    (void)state;
    kh h;
    int64_t many[33];
    for (int i = 0; i < 33; i++) many[i] = i;
    kh_init(&h, "Resize", 18);
    kh_attr_ints(&h, "axes", many, 33);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'axes' has 33 values; at most 32");
    kh_init(&h, "Upsample", 7);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'scales' is required but missing");
    kh_init(&h, "Upsample", 7);
    kh_attr_int(&h, "scales", 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'scales' must be a list of floats");
    float fl[33];
    for (int i = 0; i < 33; i++) fl[i] = 1;
    kh_init(&h, "Upsample", 7);
    kh_attr_floats(&h, "scales", fl, 33);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'scales' has 33 values; at most 32");
    fl[1] = -1;
    kh_init(&h, "Upsample", 7);
    kh_attr_floats(&h, "scales", fl, 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "'scales': value -1 at position 1 is out of range");
    const float x[4] = {1, 2, 3, 4};
    kh_init(&h, "Upsample", 7);
    kh_attr_floats(&h, "scales", fl + 2, 3);
    osc_tensor x2 = kh_tensor(OSC_FLOAT, 2, D(2, 2), x);
    kh_expect_fail(&h, kh_run1(&h, &x2), OSC_ERR_SHAPE, "attribute 'scales' has 3 values; input "
                   "0 'X' () has rank 2");
    kh_free(&h);
    const float two[1] = {2};
    kh_init(&h, "Resize", 13);
    osc_tensor s1 = kh_tensor(OSC_FLOAT, 1, D(1), two);
    kh_expect_fail(&h, resize(&h, kh_tensor(OSC_FLOAT, 0, D(0), x), NULL, &s1, NULL),
                   OSC_ERR_SHAPE, "is a scalar");
    kh_free(&h);
    const int64_t sz3[3] = {1, 2, 3}, szbig[2] = {1, (int64_t)1 << 62};
    kh_init(&h, "Resize", 13);
    osc_tensor z3 = kh_tensor(OSC_INT64, 1, D(3), sz3);
    kh_expect_fail(&h, resize(&h, x2, NULL, NULL, &z3), OSC_ERR_SHAPE,
                   "input 3 'sizes' () has 3 values; expected 2");
    kh_free(&h);
    kh_init(&h, "Resize", 18);
    kh_attr_str(&h, "keep_aspect_ratio_policy", "not_smaller");
    osc_tensor zb = kh_tensor(OSC_INT64, 1, D(2), szbig);
    kh_expect_fail(&h, kh_infer(&h, 4, (const osc_tensor *const[]){&x2, NULL, NULL, &zb}, 1),
                   OSC_ERR_LIMIT, "keep_aspect_ratio_policy makes dim 0 of the output");
    kh_free(&h);
    const float roi[4] = {0, 0, INFINITY, 1};
    const int64_t sz22[2] = {2, 2};
    kh_init(&h, "Resize", 13);
    osc_tensor rt = kh_tensor(OSC_FLOAT, 1, D(4), roi), z22 = kh_tensor(OSC_INT64, 1, D(2), sz22);
    kh_expect_fail(&h, resize(&h, x2, &rt, NULL, &z22), OSC_ERR_SHAPE,
                   "input 1 'roi' (): value inf at position 2 is not finite");
    kh_free(&h);
    /* GridSample: linear on strings, too many spatial dims, an output past 2^63-1 */
    osc_string strs[4] = {{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}};
    const float g[2] = {0, 0};
    kh_init(&h, "GridSample", 20);
    osc_tensor xs = kh_tensor(OSC_STRING, 3, D(1, 1, 4), strs), g1 = kh_tensor(OSC_FLOAT, 3,
                                                                               D(1, 1, 1), g);
    kh_expect_fail(&h, kh_run2(&h, &xs, &g1), OSC_ERR_UNSUPPORTED, "is string");
    kh_free(&h);
    kh_init(&h, "GridSample", 20);
    kh_attr_str(&h, "mode", "nearest");
    kh_expect_ok(&h, kh_run2(&h, &xs, &g1)); /* the middle of 4: x = 1.5, to even: 2 */
    assert_string_equal(((const osc_string *)h.out.data)[0].ptr, "c");
    kh_free(&h);
    osc_tensor x23 = {.dtype = OSC_FLOAT, .rank = 23}, g23 = {.dtype = OSC_FLOAT, .rank = 23};
    for (int d = 0; d < 23; d++) x23.dims[d] = g23.dims[d] = 1;
    g23.dims[22] = 21;
    kh_init(&h, "GridSample", 20);
    kh_expect_fail(&h, kh_infer(&h, 2, (const osc_tensor *const[]){&x23, &g23}, 1),
                   OSC_ERR_LIMIT, "has 21 spatial dims");
    kh_free(&h);
    osc_tensor xh = {.dtype = OSC_FLOAT, .rank = 3, .dims = {1, (int64_t)1 << 40, 1}};
    osc_tensor gh = {.dtype = OSC_FLOAT, .rank = 3, .dims = {1, (int64_t)1 << 40, 1}};
    kh_init(&h, "GridSample", 20);
    kh_expect_fail(&h, kh_infer(&h, 2, (const osc_tensor *const[]){&xh, &gh}, 1),
                   OSC_ERR_LIMIT, "2^63-1");
    kh_free(&h);
    /* AffineGrid: size of 3 values, a negative one, an output past 2^63-1 */
    const float th[6] = {1, 0, 0, 0, 1, 0};
    const int64_t s3[3] = {1, 1, 2}, sneg[4] = {1, 1, -2, 2},
                  shuge[4] = {1, 1, (int64_t)1 << 40, (int64_t)1 << 40};
    osc_tensor tt = kh_tensor(OSC_FLOAT, 3, D(1, 2, 3), th);
    const int64_t *sizes[3] = {s3, sneg, shuge};
    const char *needles[3] = {"has 3 values; expected 4", "value -2 at position 2", "2^63-1"};
    kh_init(&h, "AffineGrid", 20);
    kh_attr_int(&h, "align_corners", 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "align_corners");
    kh_init(&h, "AffineGrid", 20);
    kh_attr_int(&h, "mode", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "mode");
    const int64_t s4[4] = {1, 1, 2, 2}, s4n2[4] = {2, 1, 2, 2};
    const int32_t s4i[4] = {1, 1, 2, 2};
    osc_tensor bad_theta[4] = {kh_tensor(OSC_FLOAT, 2, D(2, 3), th), tt,
                               kh_tensor(OSC_FLOAT, 3, D(1, 2, 2), th), tt};
    osc_tensor bad_size[4] = {kh_tensor(OSC_INT64, 1, D(4), s4),
                              kh_tensor(OSC_INT64, 1, D(4), s4n2),
                              kh_tensor(OSC_INT64, 1, D(4), s4),
                              kh_tensor(OSC_INT32, 1, D(4), s4i)};
    for (int i = 0; i < 4; i++) {
        kh_init(&h, "AffineGrid", 20);
        kh_expect_fail(&h, kh_infer(&h, 2, (const osc_tensor *const[]){&bad_theta[i],
                                                                        &bad_size[i]}, 1),
                       OSC_ERR_SHAPE, i < 3 ? "it must be [" : "'size'");
        kh_free(&h);
    }
    for (int i = 0; i < 3; i++) {
        kh_init(&h, "AffineGrid", 20);
        osc_tensor st = kh_tensor(OSC_INT64, 1, D(i ? 4 : 3), sizes[i]);
        kh_expect_fail(&h, kh_infer(&h, 2, (const osc_tensor *const[]){&tt, &st}, 1),
                       i == 2 ? OSC_ERR_LIMIT : OSC_ERR_SHAPE, needles[i]);
        kh_free(&h);
    }
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(resize_nearest), cmocka_unit_test(resize_linear_cubic),
              cmocka_unit_test(resize_bilinear_2d), cmocka_unit_test(resize_crop_antialias_ints),
              cmocka_unit_test(upsample_versions), cmocka_unit_test(grid_sample_affine),
              cmocka_unit_test(errors), cmocka_unit_test(every_dtype),
              cmocka_unit_test(more_errors))
