/* test_ops_rearrange.c: DepthToSpace, SpaceToDepth, CenterCropPad, Det and BitCast on what the
 * official node tests leave out: strings and other dtypes, the odd element of a centred crop and
 * pad, Det's pivoting, half types, NaN, empty and singular matrices, BitCast's bool output,
 * complex and packed types, and the errors. Expected values are worked out by hand. */
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

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"DepthToSpace", 1, 1},   {"DepthToSpace", 10, 1},  {"DepthToSpace", 11, 11},
        {"DepthToSpace", 12, 11}, {"DepthToSpace", 13, 13}, {"DepthToSpace", 28, 13},
        {"SpaceToDepth", 1, 1},   {"SpaceToDepth", 12, 1},  {"SpaceToDepth", 13, 13},
        {"CenterCropPad", 17, 0}, {"CenterCropPad", 18, 18}, {"CenterCropPad", 28, 18},
        {"Det", 10, 0},           {"Det", 11, 11},          {"Det", 21, 11},
        {"Det", 22, 22},          {"BitCast", 25, 0},       {"BitCast", 26, 26},
        {"BitCast", 28, 26},
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
}

static const char *str_at(const osc_tensor *t, int64_t i) {
    return ((const osc_string *)t->data)[i].ptr;
}

/* x [1, 8, 1, 1] = a..h, blocksize 2, into [1, 2, 2, 2]: DCR reads channel (i*2 + j)*2 + c,
 * CRD channel c*4 + i*2 + j. */
static void test_depth_to_space_strings(void **state) {
    (void)state;
    static const char *const k_dcr = "acegbdfh", *const k_crd = "abcdefgh";
    osc_string s[8];
    static const char k_l[8][2] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    for (int i = 0; i < 8; i++) s[i] = (osc_string){.ptr = k_l[i], .len = 1};
    const int64_t d[4] = {1, 8, 1, 1};
    osc_tensor x = kh_tensor(OSC_STRING, 4, d, s);
    for (int crd = 0; crd < 2; crd++) {
        kh h;
        kh_init(&h, "DepthToSpace", 13);
        kh_attr_int(&h, "blocksize", 2);
        if (crd) kh_attr_str(&h, "mode", "CRD");
        if (kh_run1(&h, &x)) fail_msg("%s", h.err.msg);
        const int64_t want[4] = {1, 2, 2, 2};
        assert_int_equal(h.out.rank, 4);
        assert_memory_equal(h.out.dims, want, sizeof want);
        const char *want_s = crd ? k_crd : k_dcr;
        for (int i = 0; i < 8; i++) assert_int_equal(str_at(&h.out, i)[0], want_s[i]);
        kh_free(&h);
    }
}

/* SpaceToDepth undoes DCR: [1,2,2,2] = 0,2,4,6,1,3,5,7 (double) gives [1,8,1,1] = 0..7. */
static void test_space_to_depth(void **state) {
    (void)state;
    static const double v[8] = {0, 2, 4, 6, 1, 3, 5, 7};
    const int64_t d[4] = {1, 2, 2, 2};
    osc_tensor x = kh_tensor(OSC_DOUBLE, 4, d, v);
    kh h;
    kh_init(&h, "SpaceToDepth", 1);
    kh_attr_int(&h, "blocksize", 2);
    if (kh_run1(&h, &x)) fail_msg("%s", h.err.msg);
    const int64_t want[4] = {1, 8, 1, 1};
    assert_memory_equal(h.out.dims, want, sizeof want);
    for (int i = 0; i < 8; i++) assert_true(((const double *)h.out.data)[i] == i);
    kh_free(&h);
    /* W 3 is not a multiple of 2: refused before the output is written */
    const int64_t bad[4] = {1, 1, 2, 3};
    x = kh_tensor(OSC_DOUBLE, 4, bad, v);
    kh_init(&h, "SpaceToDepth", 13);
    kh_attr_int(&h, "blocksize", 2);
    assert_int_equal(kh_run1(&h, &x), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "dims 2 and 3 (H, W) must be multiples of blocksize 2");
    kh_free(&h);
    kh_init(&h, "DepthToSpace", 1);
    kh_attr_int(&h, "blocksize", 2);
    kh_attr_str(&h, "mode", "CRD");
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'mode'");
}

/* CenterCropPad of x [1, n] int32 to [1, target]. */
static void ccp(kh *h, const int32_t *x, int64_t n, int64_t target) {
    const int64_t d[2] = {1, n}, sd = 2, s[2] = {1, target};
    osc_tensor tx = kh_tensor(OSC_INT32, 2, d, x), ts = kh_tensor(OSC_INT64, 1, &sd, s);
    kh_init(h, "CenterCropPad", 18);
    if (kh_run2(h, &tx, &ts)) fail_msg("%s", h->err.msg);
    assert_int_equal(h->out.dims[1], target);
}

/* The odd element: a crop of 3 removes 1 before and 2 after, a pad of 3 adds 1 before and 2
 * after; the padding is 0 ("" for strings). */
static void test_center_crop_pad(void **state) {
    (void)state;
    static const int32_t x5[5] = {1, 2, 3, 4, 5}, x2[2] = {7, 8};
    kh h;
    ccp(&h, x5, 5, 2);
    assert_memory_equal(h.out.data, ((const int32_t[]){2, 3}), 2 * sizeof(int32_t));
    kh_free(&h);
    ccp(&h, x2, 2, 5);
    assert_memory_equal(h.out.data, ((const int32_t[]){0, 7, 8, 0, 0}), 5 * sizeof(int32_t));
    kh_free(&h);
    ccp(&h, x5, 5, 4);
    assert_memory_equal(h.out.data, ((const int32_t[]){1, 2, 3, 4}), 4 * sizeof(int32_t));
    kh_free(&h);
    /* strings along axis -1 only, padded with "" */
    const osc_string s[2] = {{.ptr = "x", .len = 1}, {.ptr = "y", .len = 1}};
    const int64_t d[2] = {1, 2}, one = 1, t[1] = {3}, axes[1] = {-1};
    osc_tensor tx = kh_tensor(OSC_STRING, 2, d, s), ts = kh_tensor(OSC_INT64, 1, &one, t);
    kh_init(&h, "CenterCropPad", 18);
    kh_attr_ints(&h, "axes", axes, 1);
    if (kh_run2(&h, &tx, &ts)) fail_msg("%s", h.err.msg);
    assert_string_equal(str_at(&h.out, 0), "x");
    assert_string_equal(str_at(&h.out, 1), "y");
    assert_int_equal(((const osc_string *)h.out.data)[2].len, 0);
    kh_free(&h);
    /* a repeated axis is refused */
    const int64_t two = 2, t2[2] = {1, 1}, rep[2] = {1, -1};
    ts = kh_tensor(OSC_INT64, 1, &two, t2);
    kh_init(&h, "CenterCropPad", 18);
    kh_attr_ints(&h, "axes", rep, 2);
    assert_int_equal(kh_run2(&h, &tx, &ts), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "attribute 'axes'");
    kh_free(&h);
}

/* Det of x (float) with shape d; fails unless it runs. */
static void det(kh *h, int64_t opset, int32_t dtype, int32_t rank, const int64_t *d,
                const void *x) {
    osc_tensor t = kh_tensor(dtype, rank, d, x);
    kh_init(h, "Det", opset);
    if (kh_run1(h, &t)) fail_msg("%s", h->err.msg);
    assert_int_equal(h->out.rank, rank - 2);
}

static void test_det(void **state) {
    (void)state;
    kh h;
    /* [[1,2],[3,4]] = -2; [[0,1],[1,0]] = -1 (a row swap) */
    static const float f[8] = {1, 2, 3, 4, 0, 1, 1, 0};
    det(&h, 11, OSC_FLOAT, 3, (const int64_t[]){2, 2, 2}, f);
    assert_true(((const float *)h.out.data)[0] == -2.0f);
    assert_true(((const float *)h.out.data)[1] == -1.0f);
    kh_free(&h);
    /* a permutation of two swaps scaled by 2, 1, 3, 4: +24; a singular matrix: 0 */
    static const double p[16] = {0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0};
    det(&h, 22, OSC_DOUBLE, 2, (const int64_t[]){4, 4}, p);
    assert_true(((const double *)h.out.data)[0] == 24.0);
    kh_free(&h);
    static const double sing[4] = {1, 2, 2, 4};
    det(&h, 22, OSC_DOUBLE, 2, (const int64_t[]){2, 2}, sing);
    assert_true(((const double *)h.out.data)[0] == 0.0);
    kh_free(&h);
    /* float16 -2 is 0xC000; bfloat16 from 22 only, 0xC000 too */
    static const uint16_t hx[4] = {0x3C00, 0x4000, 0x4200, 0x4400}; /* 1, 2, 3, 4 */
    det(&h, 11, OSC_FLOAT16, 2, (const int64_t[]){2, 2}, hx);
    assert_int_equal(((const uint16_t *)h.out.data)[0], 0xC000);
    kh_free(&h);
    static const uint16_t bx[4] = {0x3F80, 0x4000, 0x4040, 0x4080}; /* 1, 2, 3, 4 */
    det(&h, 22, OSC_BFLOAT16, 2, (const int64_t[]){2, 2}, bx);
    assert_int_equal(((const uint16_t *)h.out.data)[0], 0xC000);
    kh_free(&h);
    osc_tensor t = kh_tensor(OSC_BFLOAT16, 2, (const int64_t[]){2, 2}, bx);
    kh_init(&h, "Det", 21);
    assert_int_equal(kh_run1(&h, &t), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    /* M = 0: the empty product 1, for each of 3 batches; a NaN anywhere: NaN */
    static const float none[1] = {0};
    det(&h, 11, OSC_FLOAT, 3, (const int64_t[]){3, 0, 0}, none);
    for (int i = 0; i < 3; i++) assert_true(((const float *)h.out.data)[i] == 1.0f);
    kh_free(&h);
    const float nan4[4] = {0, 0, 0, NAN};
    det(&h, 11, OSC_FLOAT, 2, (const int64_t[]){2, 2}, nan4);
    assert_true(isnan(((const float *)h.out.data)[0]));
    kh_free(&h);
    /* not square: refused, the output untouched */
    t = kh_tensor(OSC_FLOAT, 3, (const int64_t[]){2, 2, 3}, f);
    kh_init(&h, "Det", 11);
    assert_int_equal(kh_run1(&h, &t), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "has shape [2,2,3]; expected [..., M, M]");
    kh_free(&h);
}

/* BitCast-26 of x to `to`; fails unless it runs. */
static void bitcast(kh *h, const osc_tensor *x, int32_t to) {
    kh_init(h, "BitCast", 26);
    kh_attr_int(h, "to", to);
    if (kh_run1(h, x)) fail_msg("%s", h->err.msg);
    assert_int_equal(h->out.dtype, to);
}

static void test_bitcast(void **state) {
    (void)state;
    kh h;
    const int64_t four = 4, one = 1, two = 2;
    static const uint8_t u8[4] = {0, 1, 2, 255};
    osc_tensor x = kh_tensor(OSC_UINT8, 1, &four, u8);
    bitcast(&h, &x, OSC_BOOL); /* nonzero bytes read as true: 1 */
    assert_memory_equal(h.out.data, ((const uint8_t[]){0, 1, 1, 1}), 4);
    kh_free(&h);
    static const float f1[1] = {1.0f};
    x = kh_tensor(OSC_FLOAT, 1, &one, f1);
    bitcast(&h, &x, OSC_INT32);
    assert_int_equal(((const int32_t *)h.out.data)[0], 0x3F800000);
    kh_free(&h);
    /* complex64 (1, 2): the little-endian bytes put re in the low half */
    static const osc_complex64 c[1] = {{1.0f, 2.0f}};
    x = kh_tensor(OSC_COMPLEX64, 1, &one, c);
    bitcast(&h, &x, OSC_UINT64);
    assert_true(((const uint64_t *)h.out.data)[0] == 0x400000003F800000ull);
    kh_free(&h);
    /* int4 -1, 7 (one byte 0x7F) -> uint4 15, 7: the same byte */
    static const uint8_t nib[1] = {0x7F};
    x = kh_tensor(OSC_INT4, 1, &two, nib);
    bitcast(&h, &x, OSC_UINT4);
    assert_int_equal(((const uint8_t *)h.out.data)[0], 0x7F);
    kh_free(&h);
    /* widths differ: refused with both named; to a string or no dtype: refused at init */
    x = kh_tensor(OSC_FLOAT, 1, &one, f1);
    kh_init(&h, "BitCast", 26);
    kh_attr_int(&h, "to", OSC_FLOAT16);
    assert_int_equal(kh_run1(&h, &x), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "is float (32 bits) but attribute 'to' is float16 (16 bits)");
    kh_free(&h);
    kh_init(&h, "BitCast", 26);
    kh_attr_int(&h, "to", OSC_STRING);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'to' = 8 is not a dtype BitCast allows");
    kh_init(&h, "BitCast", 26);
    kh_attr_int(&h, "to", 999);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'to' = 999");
    kh_init(&h, "BitCast", 26);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'to' is required");
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_rows_resolve),
    cmocka_unit_test(test_depth_to_space_strings),
    cmocka_unit_test(test_space_to_depth),
    cmocka_unit_test(test_center_crop_pad),
    cmocka_unit_test(test_det),
    cmocka_unit_test(test_bitcast),
)
