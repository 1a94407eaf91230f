/* test_ops_unpool.c: the MaxUnpool and Col2Im kernels run through kharness: values worked out
 * by hand in the comments or by naive loops written here, duplicate indices, every dtype of
 * the rows, half-precision rounding per update, strings, zero sizes, and invalid nodes and
 * indices (which leave the output untouched). */
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

/* ======================= MaxUnpool ======================= */

/* MaxUnpool at opset with a 2-D kernel k x k, strides s (0: absent), pads p (-1: absent);
 * shape NULL omits output_shape. */
static osc_status unpool(kh *h, int64_t opset, int64_t k, int64_t s, int64_t p, osc_tensor x,
                         osc_tensor i, const osc_tensor *shape) {
    const int64_t ks[2] = {k, k}, ss[2] = {s, s}, ps[4] = {p, p, p, p};
    kh_init(h, "MaxUnpool", opset);
    kh_attr_ints(h, "kernel_shape", ks, 2);
    if (s) kh_attr_ints(h, "strides", ss, 2);
    if (p >= 0) kh_attr_ints(h, "pads", ps, 4);
    const osc_tensor *in[3] = {&x, &i, shape};
    return kh_run_multi(h, shape ? 3 : 2, in, 1);
}

/* The spec's example, on every version and float dtype of the rows; duplicates: the last in
 * row-major order of X wins. */
static void unpool_values(void **state) {
    (void)state;
    static const struct {
        int64_t opset;
        int32_t dtype;
    } cases[] = {{9, OSC_FLOAT16}, {9, OSC_FLOAT},    {9, OSC_DOUBLE},   {11, OSC_FLOAT16},
                 {11, OSC_FLOAT},  {11, OSC_DOUBLE},  {22, OSC_BFLOAT16}, {22, OSC_FLOAT16},
                 {22, OSC_FLOAT},  {22, OSC_DOUBLE}};
    /* X [[1,2],[3,4]] at I [[5,7],[13,15]] and then [[3,3],[1,3]] of a 4x4 frame */
    const int64_t idx[2][4] = {{5, 7, 13, 15}, {3, 3, 1, 3}};
    for (int32_t c = 0; c < N(cases); c++)
        for (int32_t dup = 0; dup < 2; dup++) {
            const int32_t dt = cases[c].dtype;
            const size_t es = osc_dtype_get(dt)->bits / 8;
            unsigned char x[4 * 8], want[16 * 8];
            memset(want, 0, sizeof want);
            for (int32_t e = 0; e < 4; e++) {
                const float v = (float)(e + 1);
                const uint16_t h16 = dt == OSC_FLOAT16 ? osc_f32_to_f16(v) : osc_f32_to_bf16(v);
                const double dv = v;
                const void *src = dt == OSC_FLOAT ? (const void *)&v
                                  : dt == OSC_DOUBLE ? (const void *)&dv
                                                     : (const void *)&h16;
                memcpy(x + e * es, src, es);
                memcpy(want + idx[dup][e] * es, src, es); /* in order: the last one stays */
            }
            kh h;
            kh_expect_ok(&h, unpool(&h, cases[c].opset, 2, 2, -1, kh_tensor(dt, 4, D(1, 1, 2, 2), x),
                                 kh_tensor(OSC_INT64, 4, D(1, 1, 2, 2), idx[dup]), NULL));
            osc_check_shape(&h.out, dt, 4, D(1, 1, 4, 4));
            osc_check_bytes(&h.out, want, 16 * es);
            kh_free(&h);
        }
    kh_row rows[] = {{"MaxUnpool", 8, 0},   {"MaxUnpool", 9, 9},   {"MaxUnpool", 10, 9},
                     {"MaxUnpool", 11, 11}, {"MaxUnpool", 21, 11}, {"MaxUnpool", 22, 22},
                     {"MaxUnpool", 28, 22}};
    kh_assert_rows(rows, N(rows));
    /* bfloat16 only from 22 */
    const uint16_t bf[4] = {0};
    kh h;
    kh_expect_fail(&h, unpool(&h, 11, 2, 2, -1, kh_tensor(OSC_BFLOAT16, 4, D(1, 1, 2, 2), bf),
                           kh_tensor(OSC_INT64, 4, D(1, 1, 2, 2), idx[0]), NULL),
                OSC_ERR_SHAPE, "bfloat16");
    kh_free(&h);
}

/* output_shape: the 4x4 frame I addresses sits at the origin of the 5x5 output (the ONNX
 * reference); pads and strides shape the frame; rank 3 and 5; zero sizes. */
static void unpool_shapes(void **state) {
    (void)state;
    kh h;
    const float x[] = {5, 6, 7, 8};
    const int64_t i[] = {5, 7, 13, 15}, os[] = {1, 1, 5, 5};
    const osc_tensor shape = kh_tensor(OSC_INT64, 1, D(4), os);
    kh_expect_ok(&h, unpool(&h, 11, 2, 2, -1, kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x),
                         kh_tensor(OSC_INT64, 4, D(1, 1, 2, 2), i), &shape));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 1, 5, 5));
    float want[25] = {0};
    want[1 * 5 + 1] = 5, want[1 * 5 + 3] = 6, want[3 * 5 + 1] = 7, want[3 * 5 + 3] = 8;
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
    /* pads 1 on every side: (2 - 1) * 2 - 2 + 2 = 2 per axis */
    const int64_t i4[] = {3, 2, 1, 0};
    kh_expect_ok(&h, unpool(&h, 11, 2, 2, 1, kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x),
                         kh_tensor(OSC_INT64, 4, D(1, 1, 2, 2), i4), NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 1, 2, 2));
    osc_check_bytes(&h.out, (const float[]){8, 7, 6, 5}, 16);
    kh_free(&h);
    /* strides absent (1): 2x2 kernel 3 -> 4x4; N=2, C=1: indices span both planes */
    const int64_t i2[] = {0, 31, 16, 15, 2, 3, 4, 5};
    const float x8[] = {1, 2, 3, 4, 5, 6, 7, 8};
    kh_expect_ok(&h, unpool(&h, 22, 3, 0, -1, kh_tensor(OSC_FLOAT, 4, D(2, 1, 2, 2), x8),
                         kh_tensor(OSC_INT64, 4, D(2, 1, 2, 2), i2), NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(2, 1, 4, 4));
    const float *y = h.out.data;
    assert_true(y[0] == 1 && y[31] == 2 && y[16] == 3 && y[15] == 4 && y[2] == 5 && y[5] == 8);
    kh_free(&h);
    /* one spatial axis: kernel 2, stride 2 over [1, 1, 3] -> [1, 1, 6] */
    const int64_t k1[] = {2}, s1[] = {2}, i1[] = {1, 2, 5};
    const osc_tensor t1[2] = {kh_tensor(OSC_FLOAT, 3, D(1, 1, 3), x),
                              kh_tensor(OSC_INT64, 3, D(1, 1, 3), i1)};
    const osc_tensor *in1[2] = {&t1[0], &t1[1]};
    kh_init(&h, "MaxUnpool", 11);
    kh_attr_ints(&h, "kernel_shape", k1, 1);
    kh_attr_ints(&h, "strides", s1, 1);
    kh_expect_ok(&h, kh_run_multi(&h, 2, in1, 1));
    osc_check_bytes(&h.out, (const float[]){0, 5, 6, 0, 0, 7}, 24);
    kh_free(&h);
    /* zero-size: X [1,1,0,2] with kernel 1 -> [1,1,0,2]; no index, no write */
    kh_expect_ok(&h, unpool(&h, 11, 1, 1, -1, kh_tensor(OSC_FLOAT, 4, D(1, 1, 0, 2), x),
                         kh_tensor(OSC_INT64, 4, D(1, 1, 0, 2), i), NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 1, 0, 2));
    kh_free(&h);
}

/* Every index is checked before the first write: one outside the frame fails the run with the
 * node, input, position, value and range, and the output keeps the harness's fill. */
static void unpool_errors(void **state) {
    (void)state;
    kh h;
    const float x[] = {5, 6, 7, 8};
    const int64_t bad[][4] = {{16, 0, 1, 2}, {0, 1, -1, 2}, {0, 1, 2, INT64_MAX}};
    const char *const msg[] = {"flat position 0: value 16 is out of range [0, 15]",
                               "flat position 2: value -1 is out of range [0, 15]",
                               "flat position 3: value 9223372036854775807 is out of range"};
    for (int32_t b = 0; b < 3; b++) {
        kh_expect_fail(&h, unpool(&h, 11, 2, 2, -1, kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x),
                               kh_tensor(OSC_INT64, 4, D(1, 1, 2, 2), bad[b]), NULL),
                    OSC_ERR_INDEX, msg[b]);
        kh_assert_msg_has(&h, "node 'n0' (MaxUnpool-11): input 1 'I' (");
        kh_assert_untouched(&h.out);
        kh_free(&h);
    }
    /* with output_shape the frame stays 4x4: 16 is out of range in a 5x5 output too */
    const int64_t os[] = {1, 1, 5, 5};
    const osc_tensor shape = kh_tensor(OSC_INT64, 1, D(4), os);
    kh_expect_fail(&h, unpool(&h, 11, 2, 2, -1, kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x),
                           kh_tensor(OSC_INT64, 4, D(1, 1, 2, 2), bad[0]), &shape),
                OSC_ERR_INDEX, "[0, 15]");
    kh_assert_untouched(&h.out);
    kh_free(&h);
    const int64_t ok[] = {0, 1, 2, 3};
    /* output_shape smaller than the frame, or of another rank */
    const int64_t small[] = {1, 1, 3, 5}, short3[] = {1, 1, 4};
    const osc_tensor shapes[2] = {kh_tensor(OSC_INT64, 1, D(4), small),
                                  kh_tensor(OSC_INT64, 1, D(3), short3)};
    for (int32_t s = 0; s < 2; s++) {
        kh_expect_fail(&h, unpool(&h, 11, 2, 2, -1, kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x),
                               kh_tensor(OSC_INT64, 4, D(1, 1, 2, 2), ok), &shapes[s]),
                    OSC_ERR_SHAPE, "at least the unpooled shape's [1,1,4,4]");
        kh_free(&h);
    }
    /* I of another shape; X of another rank than kernel_shape says */
    kh_expect_fail(&h, unpool(&h, 11, 2, 2, -1, kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x),
                           kh_tensor(OSC_INT64, 4, D(1, 1, 1, 4), ok), NULL),
                OSC_ERR_SHAPE, "it must be X's [1,1,2,2]");
    kh_free(&h);
    kh_expect_fail(&h, unpool(&h, 11, 2, 2, -1, kh_tensor(OSC_FLOAT, 3, D(1, 2, 2), x),
                           kh_tensor(OSC_INT64, 3, D(1, 2, 2), ok), NULL),
                OSC_ERR_SHAPE, "expected rank 4");
    kh_free(&h);
    /* pads that leave less than nothing */
    kh_expect_fail(&h, unpool(&h, 11, 1, 1, 2, kh_tensor(OSC_FLOAT, 4, D(1, 1, 2, 2), x),
                           kh_tensor(OSC_INT64, 4, D(1, 1, 2, 2), ok), NULL),
                OSC_ERR_SHAPE, "unpools to a size below 0");
    kh_free(&h);
    /* attributes */
    kh_init(&h, "MaxUnpool", 11);
    kh_init_fails(&h, OSC_ERR_MODEL, "'kernel_shape' is required");
    const int64_t two[] = {2, 2}, three[] = {1, 1, 1}, neg[] = {-1, 0, 0, 0}, zero[] = {0, 2};
    kh_init(&h, "MaxUnpool", 11);
    kh_attr_ints(&h, "kernel_shape", two, 2);
    kh_attr_ints(&h, "strides", three, 3);
    kh_init_fails(&h, OSC_ERR_MODEL, "'strides' has 3 values");
    kh_init(&h, "MaxUnpool", 11);
    kh_attr_ints(&h, "kernel_shape", two, 2);
    kh_attr_ints(&h, "pads", three, 3);
    kh_init_fails(&h, OSC_ERR_MODEL, "'pads' has 3 values");
    kh_init(&h, "MaxUnpool", 11);
    kh_attr_ints(&h, "kernel_shape", two, 2);
    kh_attr_ints(&h, "pads", neg, 4);
    kh_init_fails(&h, OSC_ERR_MODEL, "'pads' value 0 is -1");
    kh_init(&h, "MaxUnpool", 11);
    kh_attr_ints(&h, "kernel_shape", zero, 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "'kernel_shape' value 0 is 0");
    kh_init(&h, "MaxUnpool", 11);
    kh_attr_ints(&h, "kernel_shape", two, 2);
    kh_attr_ints(&h, "strides", zero, 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "'strides' value 0 is 0");
    kh_init(&h, "MaxUnpool", 11);
    kh_attr_ints(&h, "kernel_shape", two, 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "has 0 values");
    kh_init(&h, "MaxUnpool", 11);
    kh_attr_ints(&h, "kernel_shape", two, 2);
    kh_attr_int(&h, "auto_pad", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "auto_pad");
}

/* ======================= Col2Im ======================= */

/* Col2Im-18 on input x with image_shape img and block_shape blk (nd values each); dil, pads,
 * strides NULL leave those attributes out. */
static osc_status col2im(kh *h, osc_tensor x, int32_t nd, const int64_t *img,
                         const int64_t *blk, const int64_t *dil, const int64_t *pads,
                         const int64_t *strides) {
    const osc_tensor t[2] = {kh_tensor(OSC_INT64, 1, D(nd), img),
                             kh_tensor(OSC_INT64, 1, D(nd), blk)};
    const osc_tensor *in[3] = {&x, &t[0], &t[1]};
    kh_init(h, "Col2Im", 18);
    if (dil) kh_attr_ints(h, "dilations", dil, (size_t)nd);
    if (pads) kh_attr_ints(h, "pads", pads, 2 * (size_t)nd);
    if (strides) kh_attr_ints(h, "strides", strides, (size_t)nd);
    return kh_run_multi(h, 3, in, 1);
}

/* The naive 2-D fold: every (n, c, kh, kw, lh, lw) of the input added where it lands. */
typedef struct fold2 {
    int64_t n, c, ih, iw, kh, kw, dh, dw, ph, pw, qh, qw, sh, sw; /* q: pads at the end */
} fold2;
static int64_t blocks_of(int64_t i, int64_t p, int64_t q, int64_t k, int64_t d, int64_t s) {
    const int64_t eff = d * (k - 1) + 1;
    return i + p + q >= eff ? (i + p + q - eff) / s + 1 : 0;
}
static void naive_fold(const fold2 *f, const double *x, double *y) {
    const int64_t lh = blocks_of(f->ih, f->ph, f->qh, f->kh, f->dh, f->sh);
    const int64_t lw = blocks_of(f->iw, f->pw, f->qw, f->kw, f->dw, f->sw);
    memset(y, 0, (size_t)(f->n * f->c * f->ih * f->iw) * sizeof *y);
    for (int64_t n = 0; n < f->n; n++)
        for (int64_t c = 0; c < f->c; c++)
            for (int64_t a = 0; a < f->kh; a++)
                for (int64_t b = 0; b < f->kw; b++)
                    for (int64_t i = 0; i < lh; i++)
                        for (int64_t j = 0; j < lw; j++) {
                            const int64_t r = i * f->sh - f->ph + a * f->dh;
                            const int64_t q = j * f->sw - f->pw + b * f->dw;
                            if (r < 0 || r >= f->ih || q < 0 || q >= f->iw) continue;
                            const int64_t row = (n * f->c + c) * f->kh * f->kw + a * f->kw + b;
                            y[((n * f->c + c) * f->ih + r) * f->iw + q] +=
                                x[row * lh * lw + i * lw + j];
                        }
}

/* Small integers in every real and complex dtype (sums stay below 100, exact everywhere). */
#define PUT_FLOAT(T) ((T *)p)[i] = (T)v;
#define PUT_F16(T) ((T *)p)[i] = osc_f32_to_f16((float)v);
#define PUT_BF16(T) ((T *)p)[i] = osc_f32_to_bf16((float)v);
#define PUT_SINT(T) ((T *)p)[i] = (T)v;
#define PUT_UINT(T) ((T *)p)[i] = (T)v;
#define PUT_COMPLEX(T) ((T *)p)[i] = (T){(float)v, (float)(2 * v)};
static void put(void *p, int32_t dt, int64_t i, double v) {
    switch (dt) {
#define PUT_CASE(E, T, CLS)                                                                    \
    case E: PUT_##CLS(T) break;
        OSC_REAL_TYPES(PUT_CASE)
        OSC_COMPLEX_TYPES(PUT_CASE)
#undef PUT_CASE
    default: fail_msg("dtype %d", (int)dt);
    }
}

/* Random 2-D folds with dilations, pads and strides against the naive loop, in every numeric
 * dtype; zero blocks (L = 0) included. */
static void col2im_random(void **state) {
    (void)state;
    static const int32_t types[] = {OSC_FLOAT, OSC_DOUBLE, OSC_FLOAT16, OSC_BFLOAT16,
                                    OSC_INT8,  OSC_INT16,  OSC_INT32,   OSC_INT64,
                                    OSC_UINT8, OSC_UINT16, OSC_UINT32,  OSC_UINT64,
                                    OSC_COMPLEX64, OSC_COMPLEX128};
    srand(5);
    static double x[4096], y[1024];
    static unsigned char xb[4096 * 16], yb[1024 * 16];
    for (int32_t round = 0; round < 200; round++) {
        fold2 f = {.n = 1 + rand() % 2, .c = 1 + rand() % 2, .ih = 1 + rand() % 5,
                   .iw = 1 + rand() % 5, .kh = 1 + rand() % 3, .kw = 1 + rand() % 3,
                   .dh = 1 + rand() % 2, .dw = 1 + rand() % 2, .ph = rand() % 2,
                   .pw = rand() % 2, .qh = rand() % 2, .qw = rand() % 2, .sh = 1 + rand() % 2,
                   .sw = 1 + rand() % 2};
        const int64_t lh = blocks_of(f.ih, f.ph, f.qh, f.kh, f.dh, f.sh);
        const int64_t lw = blocks_of(f.iw, f.pw, f.qw, f.kw, f.dw, f.sw);
        const int64_t rows = f.c * f.kh * f.kw, nx = f.n * rows * lh * lw;
        const int64_t ny = f.n * f.c * f.ih * f.iw;
        for (int64_t i = 0; i < nx; i++) x[i] = rand() % 4;
        naive_fold(&f, x, y);
        const int32_t dt = types[round % N(types)];
        const size_t es = osc_dtype_get(dt)->bits / 8;
        for (int64_t i = 0; i < nx; i++) put(xb, dt, i, x[i]);
        for (int64_t i = 0; i < ny; i++) put(yb, dt, i, y[i]);
        kh h;
        const int64_t img[] = {f.ih, f.iw}, blk[] = {f.kh, f.kw}, dil[] = {f.dh, f.dw};
        const int64_t pads[] = {f.ph, f.pw, f.qh, f.qw}, st[] = {f.sh, f.sw};
        kh_expect_ok(&h, col2im(&h, kh_tensor(dt, 3, D(f.n, rows, lh * lw), xb), 2, img, blk,
                             dil, pads, st));
        osc_check_shape(&h.out, dt, 4, D(f.n, f.c, f.ih, f.iw));
        osc_check_bytes(&h.out, yb, (size_t)ny * es);
        kh_free(&h);
    }
}

/* One image element gets five updates, in row-major order of the input: (b4, l0) at input
 * element 4 first, then 8, 12, 16, 20 (image [1], block [5], pads 4 and 4: five blocks). With
 * float16 1.0 first and 2^-11 four times, each sum is a tie that rounds to even: 1.0; summed
 * in float and rounded once it would be 1 + 2^-9 (0x3c02). bfloat16 the same with 2^-8. */
static void col2im_half_rounding(void **state) {
    (void)state;
    const int64_t img[] = {1}, blk[] = {5}, pads[] = {4, 4};
    uint16_t x[25];
    for (int32_t k = 0; k < 2; k++) {
        const bool bf = k == 1;
        for (int32_t i = 0; i < 25; i++) x[i] = 0;
        const float tiny = bf ? 0x1p-8f : 0x1p-11f;
        for (int32_t i = 4; i <= 20; i += 4)
            x[i] = bf ? osc_f32_to_bf16(i == 4 ? 1.0f : tiny)
                      : osc_f32_to_f16(i == 4 ? 1.0f : tiny);
        kh h;
        kh_expect_ok(&h, col2im(&h, kh_tensor(bf ? OSC_BFLOAT16 : OSC_FLOAT16, 3, D(1, 5, 5), x), 1,
                             img, blk, NULL, pads, NULL));
        osc_check_shape(&h.out, bf ? OSC_BFLOAT16 : OSC_FLOAT16, 3, D(1, 1, 1));
        osc_check_bytes(&h.out, (const uint16_t[]){bf ? 0x3f80 : 0x3c00}, 2);
        kh_free(&h);
    }
}

/* Strings concatenate in input order, bool adds as or, int8 wraps; image [3], block [2]:
 * input (b0,l0) (b0,l1) (b1,l0) (b1,l1) lands on 0, 1, 1, 2. */
static void col2im_other_types(void **state) {
    (void)state;
    const int64_t img[] = {3}, blk[] = {2};
    kh h;
    const osc_string s[] = {{"a", 1}, {"b", 1}, {"cd", 2}, {"", 0}};
    kh_expect_ok(&h, col2im(&h, kh_tensor(OSC_STRING, 3, D(1, 2, 2), s), 1, img, blk, NULL, NULL,
                         NULL));
    const osc_string *y = h.out.data;
    assert_true(y[0].len == 1 && y[0].ptr[0] == 'a');
    assert_true(y[1].len == 3 && !memcmp(y[1].ptr, "bcd", 3));
    assert_int_equal(y[2].len, 0);
    kh_free(&h);
    const uint8_t b[] = {0, 1, 1, 0};
    kh_expect_ok(&h, col2im(&h, kh_tensor(OSC_BOOL, 3, D(1, 2, 2), b), 1, img, blk, NULL, NULL,
                         NULL));
    osc_check_bytes(&h.out, (const uint8_t[]){0, 1, 0}, 3);
    kh_free(&h);
    const int8_t i8[] = {1, 100, 100, 2};
    kh_expect_ok(&h, col2im(&h, kh_tensor(OSC_INT8, 3, D(1, 2, 2), i8), 1, img, blk, NULL, NULL,
                         NULL));
    osc_check_bytes(&h.out, (const int8_t[]){1, -56, 2}, 3);
    kh_free(&h);
    /* N = 0: an empty image */
    kh_expect_ok(&h, col2im(&h, kh_tensor(OSC_INT8, 3, D(0, 2, 2), i8), 1, img, blk, NULL, NULL,
                         NULL));
    osc_check_shape(&h.out, OSC_INT8, 3, D(0, 1, 3));
    kh_free(&h);
    /* an image of size 0 whose padding still holds blocks: L = 2, nothing lands */
    const int64_t img0[] = {0}, blk1[] = {1}, p1[] = {1, 1};
    kh_expect_ok(&h, col2im(&h, kh_tensor(OSC_INT8, 3, D(1, 1, 2), i8), 1, img0, blk1, NULL, p1,
                         NULL));
    osc_check_shape(&h.out, OSC_INT8, 3, D(1, 1, 0));
    kh_free(&h);
}

static void col2im_errors(void **state) {
    (void)state;
    kh h;
    const float x[16] = {0};
    const int64_t img[] = {3, 3}, blk[] = {2, 2}, blk3[] = {2, 2, 1}, bad[] = {2, 0};
    /* [1, 4, 4]: 4 = 1 x (2 x 2) and L = 2 x 2 */
    kh_expect_ok(&h, col2im(&h, kh_tensor(OSC_FLOAT, 3, D(1, 4, 4), x), 2, img, blk, NULL, NULL,
                         NULL));
    kh_free(&h);
    kh_expect_fail(&h, col2im(&h, kh_tensor(OSC_FLOAT, 3, D(1, 4, 3), x), 2, img, blk, NULL, NULL,
                           NULL), OSC_ERR_SHAPE, "dim 2 4 (the blocks");
    kh_free(&h);
    kh_expect_fail(&h, col2im(&h, kh_tensor(OSC_FLOAT, 3, D(1, 3, 4), x), 2, img, blk, NULL, NULL,
                           NULL), OSC_ERR_SHAPE, "a multiple of 4");
    kh_free(&h);
    kh_expect_fail(&h, col2im(&h, kh_tensor(OSC_FLOAT, 2, D(4, 3), x), 2, img, blk, NULL, NULL,
                           NULL), OSC_ERR_SHAPE, "expected rank 3");
    kh_free(&h);
    kh_expect_fail(&h, col2im(&h, kh_tensor(OSC_FLOAT, 3, D(1, 4, 4), x), 2, img, bad, NULL, NULL,
                           NULL), OSC_ERR_SHAPE, "block size >= 1");
    kh_free(&h);
    /* image_shape and block_shape of different lengths */
    const osc_tensor t[3] = {kh_tensor(OSC_FLOAT, 3, D(1, 4, 4), x),
                             kh_tensor(OSC_INT64, 1, D(2), img),
                             kh_tensor(OSC_INT64, 1, D(3), blk3)};
    const osc_tensor *in[3] = {&t[0], &t[1], &t[2]};
    kh_init(&h, "Col2Im", 18);
    kh_expect_fail(&h, kh_run_multi(&h, 3, in, 1), OSC_ERR_SHAPE, "expected the same number");
    kh_free(&h);
    /* infer reads both shape inputs: unknown values are a state error */
    const osc_tensor unknown = kh_tensor(OSC_INT64, 1, D(2), NULL);
    const osc_tensor *in2[3] = {&t[0], &t[1], &unknown};
    kh_init(&h, "Col2Im", 18);
    kh_expect_fail(&h, kh_infer(&h, 3, in2, 1), OSC_ERR_STATE, "block_shape");
    kh_free(&h);
    /* attributes: counts that do not fit the axes, values out of range */
    const int64_t one[] = {1}, zero[] = {0, 1}, neg[] = {0, 0, -1, 0};
    kh_init(&h, "Col2Im", 18);
    kh_attr_ints(&h, "strides", one, 1);
    const osc_tensor *in3[3] = {&t[0], &t[1], &t[1]};
    kh_expect_fail(&h, kh_run_multi(&h, 3, in3, 1), OSC_ERR_MODEL, "strides (1)");
    kh_free(&h);
    kh_init(&h, "Col2Im", 18);
    kh_attr_ints(&h, "dilations", zero, 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "'dilations' value 0 is 0");
    kh_init(&h, "Col2Im", 18);
    kh_attr_ints(&h, "strides", zero, 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "'strides' value 0 is 0");
    kh_init(&h, "Col2Im", 18);
    kh_attr_ints(&h, "pads", neg, 4);
    kh_init_fails(&h, OSC_ERR_MODEL, "'pads' value 2 is -1");
    /* sizes past int64 */
    const int64_t huge[] = {INT64_MAX, 1}, hb[] = {1, 1};
    kh_expect_fail(&h, col2im(&h, kh_tensor(OSC_FLOAT, 3, D(1, 1, 1), x), 2, huge, hb, NULL,
                           (const int64_t[]){1, 0, 0, 0}, NULL), OSC_ERR_LIMIT, "2^63-1");
    kh_free(&h);
    const kh_row rows[] = {{"Col2Im", 17, 0}, {"Col2Im", 18, 18}, {"Col2Im", 28, 18}};
    kh_assert_rows(rows, N(rows));
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(unpool_values), cmocka_unit_test(unpool_shapes),
              cmocka_unit_test(unpool_errors), cmocka_unit_test(col2im_random),
              cmocka_unit_test(col2im_half_rounding), cmocka_unit_test(col2im_other_types),
              cmocka_unit_test(col2im_errors))
