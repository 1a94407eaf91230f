/* test_ops_layout.c: Split, Pad and Einsum run through kharness; expected values are the spec's
 * examples, worked out by hand in the comments, or (for the larger products) summed by a plain
 * loop in this file. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ops/registry.h"
#include "kharness.h"
#include "tests/support/check.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define N(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))

static osc_tensor T(int32_t dtype, int32_t rank, const int64_t *dims, const void *data) {
    return kh_tensor(dtype, rank, dims, data);
}

static void expect_fail(kh *h, osc_status got, osc_status want, const char *part) {
    if (got != want)
        fail_msg("status %s, expected %s (%s)", osc_status_name(got), osc_status_name(want),
                 h->err.msg);
    if (part && !strstr(h->err.msg, part)) fail_msg("message '%s' lacks '%s'", h->err.msg, part);
    if (!strstr(h->err.msg, "node 'n0'")) fail_msg("message '%s' does not name the node",
                                                   h->err.msg);
}

static void expect_floats(const osc_tensor *t, const float *want, int32_t n) {
    assert_int_equal(osc_tensor_count(t), n);
    const float *v = t->data;
    for (int32_t i = 0; i < n; i++)
        if (v[i] != want[i]) fail_msg("element %d is %g, expected %g", (int)i, v[i], want[i]);
}

static void expect_i64(const osc_tensor *t, const int64_t *want, int32_t n) {
    assert_int_equal(osc_tensor_count(t), n);
    const int64_t *v = t->data;
    for (int32_t i = 0; i < n; i++)
        if (v[i] != want[i])
            fail_msg("element %d is %lld, expected %lld", (int)i, (long long)v[i],
                     (long long)want[i]);
}

/* ======================= rows ======================= */

static void rows_versions(void **state) {
    (void)state;
    static const struct { const char *op; int64_t opset, since; uint32_t mask; int32_t lo, hi; }
        rows[] = {
            {"Split", 1, 1, 0x2, 1, 2},   {"Split", 10, 2, 0, 1, 1},  {"Split", 12, 11, 0, 1, 1},
            {"Split", 17, 13, 0x2, 1, 2}, {"Split", 28, 18, 0x2, 1, 2}, {"Pad", 1, 1, 0, 1, 1},
            {"Pad", 10, 2, 0, 1, 1},      {"Pad", 12, 11, 0x2, 2, 3}, {"Pad", 17, 13, 0x2, 2, 3},
            {"Pad", 18, 18, 0xa, 2, 4},   {"Pad", 20, 19, 0xa, 2, 4}, {"Pad", 22, 21, 0xa, 2, 4},
            {"Pad", 23, 23, 0xa, 2, 4},   {"Pad", 24, 24, 0xa, 2, 4}, {"Pad", 28, 25, 0xa, 2, 4},
            {"Einsum", 12, 12, 0, 1, OSC_VARIADIC},
        };
    for (int32_t i = 0; i < N(rows); i++) {
        const osc_kernel *r = osc_kernel_find("", rows[i].op, rows[i].opset);
        if (!r) fail_msg("%s at opset %lld: no row", rows[i].op, (long long)rows[i].opset);
        if (r->since != rows[i].since || r->infer_reads != rows[i].mask ||
            r->inputs.min != rows[i].lo || r->inputs.max != rows[i].hi)
            fail_msg("%s at opset %lld: row %lld mask 0x%x inputs %d..%d", rows[i].op,
                     (long long)rows[i].opset, (long long)r->since, r->infer_reads,
                     r->inputs.min, r->inputs.max);
    }
    assert_int_equal(osc_kernel_find("", "Split", 13)->outputs, OSC_VARIADIC);
    assert_int_equal(osc_kernel_find("", "Split", 13)->outputs_min, 1);
    assert_null(osc_kernel_find("", "Einsum", 11));
}

/* ======================= Split ======================= */

static const float k_six[6] = {1, 2, 3, 4, 5, 6};

static void split_versions(void **state) {
    (void)state;
    kh h;
    osc_tensor x = T(OSC_FLOAT, 1, D(6), k_six);
    /* Split-1: sizes as the attribute, then as input 1 (a float tensor, like the data) */
    kh_init(&h, "Split", 1);
    kh_attr_ints(&h, "split", D(2, 4), 2);
    kh_expect_ok(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&x}, 2));
    expect_floats(&h.outs[0], (const float[]){1, 2}, 2);
    expect_floats(&h.outs[1], (const float[]){3, 4, 5, 6}, 4);
    kh_free(&h);
    osc_tensor sf = T(OSC_FLOAT, 1, D(3), (const float[]){1, 2, 3});
    kh_init(&h, "Split", 1);
    kh_expect_ok(&h, kh_run_multi(&h, 2, (const osc_tensor *[]){&x, &sf}, 3));
    expect_floats(&h.outs[0], (const float[]){1}, 1);
    expect_floats(&h.outs[1], (const float[]){2, 3}, 2);
    expect_floats(&h.outs[2], (const float[]){4, 5, 6}, 3);
    kh_free(&h);
    osc_tensor sbad = T(OSC_FLOAT, 1, D(2), (const float[]){2.5f, 3.5f});
    kh_init(&h, "Split", 1);
    expect_fail(&h, kh_run_multi(&h, 2, (const osc_tensor *[]){&x, &sbad}, 2), OSC_ERR_SHAPE,
                "value 2.5 at position 0");
    kh_free(&h);
    /* Split-2: equal parts, one per output */
    kh_init(&h, "Split", 2);
    kh_expect_ok(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&x}, 3));
    expect_floats(&h.outs[2], (const float[]){5, 6}, 2);
    kh_free(&h);
    /* Split-11: a negative axis on [2, 3]: columns {0}, {1, 2} */
    osc_tensor m = T(OSC_FLOAT, 2, D(2, 3), k_six);
    kh_init(&h, "Split", 11);
    kh_attr_int(&h, "axis", -1);
    kh_attr_ints(&h, "split", D(1, 2), 2);
    kh_expect_ok(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&m}, 2));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 2, D(2, 1));
    expect_floats(&h.outs[0], (const float[]){1, 4}, 2);
    expect_floats(&h.outs[1], (const float[]){2, 3, 5, 6}, 4);
    kh_free(&h);
    /* Split-13: sizes as an int64 input, a zero size among them */
    osc_tensor s = T(OSC_INT64, 1, D(3), D(3, 0, 3));
    kh_init(&h, "Split", 13);
    kh_expect_ok(&h, kh_run_multi(&h, 2, (const osc_tensor *[]){&x, &s}, 3));
    osc_check_shape(&h.outs[1], OSC_FLOAT, 1, D(0));
    expect_floats(&h.outs[2], (const float[]){4, 5, 6}, 3);
    kh_free(&h);
    /* Split-18: num_outputs 4 of 7: ceil(7/4) = 2 each, the last 1 */
    float seven[7] = {0, 1, 2, 3, 4, 5, 6};
    osc_tensor x7 = T(OSC_FLOAT, 1, D(7), seven);
    kh_init(&h, "Split", 18);
    kh_attr_int(&h, "num_outputs", 4);
    kh_expect_ok(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&x7}, 4));
    expect_floats(&h.outs[2], (const float[]){4, 5}, 2);
    expect_floats(&h.outs[3], (const float[]){6}, 1);
    kh_free(&h);
    /* 3 of 4 with num_outputs 3: 2, 2, 0 */
    kh_init(&h, "Split", 18);
    kh_attr_int(&h, "num_outputs", 3);
    osc_tensor x4 = T(OSC_FLOAT, 1, D(4), k_six);
    kh_expect_ok(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&x4}, 3));
    osc_check_shape(&h.outs[2], OSC_FLOAT, 1, D(0));
    kh_free(&h);
}

/* What the load refuses in a Split's attributes (num_outputs below 1, num_outputs beside the
 * input 'split', a 'split' that is no list of ints), and the dtypes Split-1's input 'split'
 * may have (the data's float types; an int32 is refused before the kernel runs). */
static void split_bad_attributes(void **state) {
    (void)state;
    kh h;
    kh_init(&h, "Split", 18);
    kh_attr_int(&h, "num_outputs", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "'num_outputs' = 0 is out of range [1, 2^63-1]");
    kh_init(&h, "Split", 18);
    kh_attr_int(&h, "num_outputs", 2);
    h.node.n_inputs = 2;
    h.inputs[0] = 0, h.inputs[1] = 1;
    kh_init_fails(&h, OSC_ERR_MODEL, "input 1 'split' and attribute 'num_outputs' are both");
    kh_init(&h, "Split", 11);
    kh_attr_int(&h, "split", 3);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'split' must be a list of ints");
    osc_tensor x = T(OSC_FLOAT, 1, D(6), k_six);
    const double sd[2] = {2, 4};
    const uint16_t sh[2] = {0x4000, 0x4400}; /* 2 and 4 in float16 */
    const osc_tensor sizes[2] = {T(OSC_DOUBLE, 1, D(2), sd), T(OSC_FLOAT16, 1, D(2), sh)};
    for (int i = 0; i < 2; i++) {
        kh_init(&h, "Split", 1);
        kh_expect_ok(&h, kh_run_multi(&h, 2, (const osc_tensor *[]){&x, &sizes[i]}, 2));
        expect_floats(&h.outs[0], (const float[]){1, 2}, 2);
        expect_floats(&h.outs[1], (const float[]){3, 4, 5, 6}, 4);
        kh_free(&h);
    }
    const int32_t si[2] = {2, 4};
    osc_tensor s32 = T(OSC_INT32, 1, D(2), si);
    kh_init(&h, "Split", 1);
    expect_fail(&h, kh_run_multi(&h, 2, (const osc_tensor *[]){&x, &s32}, 2), OSC_ERR_SHAPE,
                "has dtype int32; this op version allows: float, float16, double");
    kh_free(&h);
}

static void split_types_and_masks(void **state) {
    (void)state;
    kh h;
    /* strings and bool along axis 1 of [2, 2] */
    osc_string str[4] = {{"a", 1}, {"bc", 2}, {"d", 1}, {"", 0}};
    osc_tensor xs = T(OSC_STRING, 2, D(2, 2), str);
    kh_init(&h, "Split", 13);
    kh_attr_int(&h, "axis", 1);
    kh_expect_ok(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&xs}, 2));
    const osc_string *o1 = h.outs[1].data;
    assert_int_equal(o1[0].len, 2);
    assert_memory_equal(o1[0].ptr, "bc", 2);
    assert_int_equal(o1[1].len, 0);
    kh_free(&h);
    uint8_t b[4] = {1, 0, 0, 1};
    osc_tensor xb = T(OSC_BOOL, 1, D(4), b);
    kh_init(&h, "Split", 18);
    kh_attr_int(&h, "num_outputs", 2);
    kh_expect_ok(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&xb}, 2));
    assert_memory_equal(h.outs[1].data, ((const uint8_t[]){0, 1}), 2);
    kh_free(&h);
    /* bfloat16 at 13 */
    uint16_t bf[2] = {0x3f80, 0x4000};
    osc_tensor xbf = T(OSC_BFLOAT16, 1, D(2), bf);
    kh_init(&h, "Split", 13);
    kh_expect_ok(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&xbf}, 2));
    assert_int_equal(((const uint16_t *)h.outs[1].data)[0], 0x4000);
    kh_free(&h);
    /* infer reads the data of 'split' and nothing else */
    osc_tensor x = T(OSC_FLOAT, 1, D(6), k_six), s = T(OSC_INT64, 1, D(2), D(2, 4));
    osc_tensor xn = x, sn = s;
    xn.data = NULL;
    kh_init(&h, "Split", 13);
    kh_expect_ok(&h, kh_infer(&h, 2, (const osc_tensor *[]){&xn, &s}, 2));
    osc_check_shape(&h.outs[1], OSC_FLOAT, 1, D(4));
    sn.data = NULL;
    osc_err_clear(&h.err);
    expect_fail(&h, kh_infer(&h, 2, (const osc_tensor *[]){&x, &sn}, 2), OSC_ERR_STATE, "split");
    kh_free(&h);
}

static void split_errors(void **state) {
    (void)state;
    kh h;
    osc_tensor x = T(OSC_FLOAT, 2, D(2, 3), k_six);
    /* sizes that do not sum to the dim */
    osc_tensor s = T(OSC_INT64, 1, D(2), D(1, 1));
    kh_init(&h, "Split", 13);
    kh_attr_int(&h, "axis", 1);
    expect_fail(&h, kh_run_multi(&h, 2, (const osc_tensor *[]){&x, &s}, 2), OSC_ERR_SHAPE,
                "the sizes sum to 2 but input 0 'input");
    kh_free(&h);
    osc_tensor neg = T(OSC_INT64, 1, D(2), D(4, -1));
    kh_init(&h, "Split", 13);
    kh_attr_int(&h, "axis", 1);
    expect_fail(&h, kh_run_multi(&h, 2, (const osc_tensor *[]){&x, &neg}, 2), OSC_ERR_SHAPE,
                "value -1 at position 1");
    kh_free(&h);
    /* as many sizes as outputs */
    kh_init(&h, "Split", 11);
    kh_attr_ints(&h, "split", D(1, 1), 2);
    expect_fail(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&x}, 3), OSC_ERR_SHAPE,
                "attribute 'split' has 2 values but the node has 3 outputs");
    kh_free(&h);
    /* equal parts that do not divide */
    kh_init(&h, "Split", 13);
    kh_attr_int(&h, "axis", 1);
    expect_fail(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&x}, 2), OSC_ERR_SHAPE,
                "does not split into 2 equal parts");
    kh_free(&h);
    /* num_outputs: the node's output count, and never with the split input */
    kh_init(&h, "Split", 18);
    kh_attr_int(&h, "num_outputs", 3);
    expect_fail(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&x}, 2), OSC_ERR_SHAPE,
                "'num_outputs' = 3 but the node has 2 outputs");
    kh_free(&h);
    kh_init(&h, "Split", 18);
    kh_attr_int(&h, "num_outputs", 2);
    osc_tensor s2 = T(OSC_INT64, 1, D(2), D(1, 1));
    expect_fail(&h, kh_run_multi(&h, 2, (const osc_tensor *[]){&x, &s2}, 2), OSC_ERR_MODEL,
                "both given");
    kh_free(&h);
    /* 5 into 4 parts of ceil(5/4) = 2 leaves -1 for the last */
    osc_tensor x5 = T(OSC_FLOAT, 1, D(5), k_six);
    kh_init(&h, "Split", 18);
    kh_attr_int(&h, "num_outputs", 4);
    expect_fail(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&x5}, 4), OSC_ERR_SHAPE,
                "leave nothing for the last output");
    kh_free(&h);
    /* axis out of range; attributes of other versions */
    kh_init(&h, "Split", 13);
    kh_attr_int(&h, "axis", 2);
    expect_fail(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&x}, 1), OSC_ERR_MODEL,
                "'axis' = 2 is out of range [-2, 1]");
    kh_free(&h);
    kh_init(&h, "Split", 13);
    kh_attr_ints(&h, "split", D(3), 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "unknown attribute 'split'");
    kh_free(&h);
    kh_init(&h, "Split", 13);
    kh_attr_int(&h, "num_outputs", 2);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "unknown attribute 'num_outputs'");
    kh_free(&h);
    /* a bad run leaves every output untouched: the output shapes do not match this input */
    kh_init(&h, "Split", 13);
    kh_expect_ok(&h, kh_run_multi(&h, 1, (const osc_tensor *[]){&x}, 2));
    osc_tensor x4 = T(OSC_FLOAT, 2, D(4, 3), k_six);
    x4.nbytes = 48;
    float big[12] = {0};
    x4.data = big;
    memset(h.outs[0].data, 0xA5, h.outs[0].nbytes);
    memset(h.outs[1].data, 0xA5, h.outs[1].nbytes);
    const osc_tensor *in4[1] = {&x4};
    assert_int_not_equal(h.kernel->run(&h.k, in4, 1, h.outs, 2), OSC_OK);
    kh_assert_untouched(&h.outs[0]);
    kh_assert_untouched(&h.outs[1]);
    kh_free(&h);
}

/* ======================= Pad ======================= */

static const float k_m32[6] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f}; /* the spec's [3, 2] */

static osc_status pad_run(kh *h, const osc_tensor *x, const int64_t *pads, int32_t n,
                          const osc_tensor *cv, const osc_tensor *axes) {
    static osc_tensor p;
    p = T(OSC_INT64, 1, D(n), pads);
    const osc_tensor *in[4] = {x, &p, cv, axes};
    return kh_run(h, axes ? 4 : cv ? 3 : 2, in);
}

static void pad_spec_examples(void **state) {
    (void)state;
    kh h;
    osc_tensor x = T(OSC_FLOAT, 2, D(3, 2), k_m32);
    /* constant: pads [0, 2, 0, 0] */
    kh_init(&h, "Pad", 11);
    kh_expect_ok(&h, pad_run(&h, &x, D(0, 2, 0, 0), 4, NULL, NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(3, 4));
    expect_floats(&h.out, (const float[]){0, 0, 1.0f, 1.2f, 0, 0, 2.3f, 3.4f, 0, 0, 4.5f, 5.7f},
                  12);
    kh_free(&h);
    /* reflect */
    kh_init(&h, "Pad", 13);
    kh_attr_str(&h, "mode", "reflect");
    kh_expect_ok(&h, pad_run(&h, &x, D(0, 2, 0, 0), 4, NULL, NULL));
    expect_floats(&h.out, (const float[]){1.0f, 1.2f, 1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f,
                                          5.7f, 4.5f, 5.7f}, 12);
    kh_free(&h);
    /* edge */
    kh_init(&h, "Pad", 18);
    kh_attr_str(&h, "mode", "edge");
    kh_expect_ok(&h, pad_run(&h, &x, D(0, 2, 0, 0), 4, NULL, NULL));
    expect_floats(&h.out, (const float[]){1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f, 2.3f, 3.4f, 4.5f,
                                          4.5f, 4.5f, 5.7f}, 12);
    kh_free(&h);
    /* wrap (19): pads [2, 1, 1, 1] */
    kh_init(&h, "Pad", 19);
    kh_attr_str(&h, "mode", "wrap");
    kh_expect_ok(&h, pad_run(&h, &x, D(2, 1, 1, 1), 4, NULL, NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(6, 4));
    expect_floats(&h.out, (const float[]){3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f,
                                          1.2f, 1.0f, 1.2f, 1.0f, 3.4f, 2.3f, 3.4f, 2.3f,
                                          5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f}, 24);
    kh_free(&h);
    kh_init(&h, "Pad", 18);
    kh_attr_str(&h, "mode", "wrap");
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "'mode' = 'wrap' is not one of");
    kh_free(&h);
}

static void pad_attribute_versions(void **state) {
    (void)state;
    kh h;
    osc_tensor x = T(OSC_FLOAT, 2, D(3, 2), k_m32);
    /* Pad-1: 'paddings' and a value */
    kh_init(&h, "Pad", 1);
    kh_attr_ints(&h, "paddings", D(0, 1, 0, 0), 4);
    kh_attr_float(&h, "value", 9.0f);
    kh_expect_ok(&h, kh_run1(&h, &x));
    expect_floats(&h.out, (const float[]){9, 1.0f, 1.2f, 9, 2.3f, 3.4f, 9, 4.5f, 5.7f}, 9);
    kh_free(&h);
    /* Pad-2: 'pads', float16 value -2.5 (0xC100), a row removed at the end */
    uint16_t hx[2] = {0x3C00, 0x4000}; /* 1, 2 */
    osc_tensor xh = T(OSC_FLOAT16, 2, D(2, 1), hx);
    kh_init(&h, "Pad", 2);
    kh_attr_ints(&h, "pads", D(0, 1, -1, 0), 4);
    kh_attr_float(&h, "value", -2.5f);
    kh_expect_ok(&h, kh_run1(&h, &xh));
    osc_check_shape(&h.out, OSC_FLOAT16, 2, D(1, 2));
    assert_memory_equal(h.out.data, ((const uint16_t[]){0xC100, 0x3C00}), 4);
    kh_free(&h);
    kh_init(&h, "Pad", 2);
    kh_attr_ints(&h, "paddings", D(0, 0, 0, 0), 4);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "unknown attribute 'paddings'");
    kh_free(&h);
    kh_init(&h, "Pad", 2);
    kh_attr_ints(&h, "pads", D(0, 0), 2);
    expect_fail(&h, kh_run1(&h, &x), OSC_ERR_SHAPE, "attribute 'pads' has 2 values; expected 4");
    kh_free(&h);
}

static void pad_modes_beyond_the_dim(void **state) {
    (void)state;
    kh h;
    /* [1, 2, 3] with 5 before and 4 after; numpy.pad's repeated reflection has period
     * 2 * (3 - 1) = 4: ... 2 1 2 3 2 1 2 3 | 1 2 3 | 2 1 2 3 */
    const float v[3] = {1, 2, 3};
    osc_tensor x = T(OSC_FLOAT, 1, D(3), v);
    kh_init(&h, "Pad", 13);
    kh_attr_str(&h, "mode", "reflect");
    kh_expect_ok(&h, pad_run(&h, &x, D(5, 4), 2, NULL, NULL));
    expect_floats(&h.out, (const float[]){2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3}, 12);
    kh_free(&h);
    /* wrap, period 3: 2 3 1 2 3 | 1 2 3 | 1 2 3 1 */
    kh_init(&h, "Pad", 21);
    kh_attr_str(&h, "mode", "wrap");
    kh_expect_ok(&h, pad_run(&h, &x, D(5, 4), 2, NULL, NULL));
    expect_floats(&h.out, (const float[]){2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1}, 12);
    kh_free(&h);
    /* a one-element axis reflects to itself */
    osc_tensor one = T(OSC_FLOAT, 1, D(1), v + 1);
    kh_init(&h, "Pad", 13);
    kh_attr_str(&h, "mode", "reflect");
    kh_expect_ok(&h, pad_run(&h, &one, D(2, 1), 2, NULL, NULL));
    expect_floats(&h.out, (const float[]){2, 2, 2, 2}, 4);
    kh_free(&h);
    /* an empty axis cannot be padded but with the constant */
    osc_tensor empty = T(OSC_FLOAT, 1, D(0), v);
    kh_init(&h, "Pad", 13);
    kh_attr_str(&h, "mode", "edge");
    expect_fail(&h, pad_run(&h, &empty, D(1, 1), 2, NULL, NULL), OSC_ERR_SHAPE,
                "mode 'edge' has no element");
    kh_free(&h);
    kh_init(&h, "Pad", 13);
    kh_expect_ok(&h, pad_run(&h, &empty, D(1, 1), 2, NULL, NULL));
    expect_floats(&h.out, (const float[]){0, 0}, 2);
    kh_free(&h);
}

static void pad_negative_pads(void **state) {
    (void)state;
    kh h;
    /* [[1,2,3],[4,5,6]]: drop the first column, add one at the end; add a row before */
    osc_tensor x = T(OSC_FLOAT, 2, D(2, 3), k_six);
    osc_tensor cv = T(OSC_FLOAT, 0, NULL, (const float[]){7});
    kh_init(&h, "Pad", 13);
    kh_expect_ok(&h, pad_run(&h, &x, D(1, -1, 0, 1), 4, &cv, NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(3, 3));
    expect_floats(&h.out, (const float[]){7, 7, 7, 2, 3, 7, 5, 6, 7}, 9);
    kh_free(&h);
    /* reflect then crop: [1, 2, 3] padded [1 2 3 2 1] by 2 at the end, first one removed */
    const float v[3] = {1, 2, 3};
    osc_tensor r = T(OSC_FLOAT, 1, D(3), v);
    kh_init(&h, "Pad", 13);
    kh_attr_str(&h, "mode", "reflect");
    kh_expect_ok(&h, pad_run(&h, &r, D(-1, 2), 2, NULL, NULL));
    expect_floats(&h.out, (const float[]){2, 3, 2, 1}, 4);
    kh_free(&h);
    /* edge with a crop on both sides of the other axis */
    kh_init(&h, "Pad", 13);
    kh_attr_str(&h, "mode", "edge");
    kh_expect_ok(&h, pad_run(&h, &x, D(0, -1, 1, -1), 4, NULL, NULL));
    expect_floats(&h.out, (const float[]){2, 5, 5}, 3);
    kh_free(&h);
    /* removing more than the dim */
    kh_init(&h, "Pad", 13);
    expect_fail(&h, pad_run(&h, &x, D(0, -2, 0, -2), 4, NULL, NULL), OSC_ERR_SHAPE,
                "output size would be negative");
    kh_free(&h);
    kh_init(&h, "Pad", 13);
    expect_fail(&h, pad_run(&h, &x, D(0, -4, 0, 3), 4, NULL, NULL), OSC_ERR_SHAPE,
                "may remove at most that many");
    kh_free(&h);
}

static void pad_axes_and_types(void **state) {
    (void)state;
    kh h;
    /* axes [-1] on [2, 3]: int32 axes, constant 0 */
    osc_tensor x = T(OSC_INT64, 2, D(2, 3), D(1, 2, 3, 4, 5, 6));
    osc_tensor cv = T(OSC_INT64, 1, D(1), D(-1));
    osc_tensor ax = T(OSC_INT32, 1, D(1), (const int32_t[]){-1});
    kh_init(&h, "Pad", 18);
    kh_expect_ok(&h, pad_run(&h, &x, D(1, 0), 2, &cv, &ax));
    osc_check_shape(&h.out, OSC_INT64, 2, D(2, 4));
    expect_i64(&h.out, D(-1, 1, 2, 3, -1, 4, 5, 6), 8);
    kh_free(&h);
    /* an omitted constant_value with axes */
    kh_init(&h, "Pad", 18);
    kh_expect_ok(&h, pad_run(&h, &x, D(0, 1), 2, NULL, &ax));
    expect_i64(&h.out, D(1, 2, 3, 0, 4, 5, 6, 0), 8);
    kh_free(&h);
    kh_init(&h, "Pad", 18);
    expect_fail(&h, pad_run(&h, &x, D(1, 0, 0, 0), 4, &cv, &ax), OSC_ERR_SHAPE,
                "input 1 'pads' has 4 values; expected 2");
    kh_free(&h);
    osc_tensor ax2 = T(OSC_INT64, 1, D(2), D(1, -1));
    kh_init(&h, "Pad", 18);
    expect_fail(&h, pad_run(&h, &x, D(0, 0, 0, 0), 4, &cv, &ax2), OSC_ERR_SHAPE, "repeats axis");
    kh_free(&h);
    /* constant_value of another dtype, or more than one element */
    osc_tensor cf = T(OSC_FLOAT, 0, NULL, (const float[]){1});
    kh_init(&h, "Pad", 13);
    expect_fail(&h, pad_run(&h, &x, D(0, 0, 0, 0), 4, &cf, NULL), OSC_ERR_SHAPE,
                "'constant_value'");
    kh_free(&h);
    osc_tensor c2 = T(OSC_INT64, 1, D(2), D(1, 2));
    kh_init(&h, "Pad", 13);
    expect_fail(&h, pad_run(&h, &x, D(0, 0, 0, 0), 4, &c2, NULL), OSC_ERR_SHAPE,
                "has 2 elements; expected one");
    kh_free(&h);
    /* strings: the default constant is "" */
    osc_string s[2] = {{"ab", 2}, {"c", 1}};
    osc_tensor xs = T(OSC_STRING, 1, D(2), s);
    kh_init(&h, "Pad", 13);
    kh_expect_ok(&h, pad_run(&h, &xs, D(1, 1), 2, NULL, NULL));
    const osc_string *o = h.out.data;
    assert_int_equal(o[0].len, 0);
    assert_int_equal(o[1].len, 2);
    assert_int_equal(o[3].len, 0);
    kh_free(&h);
    /* bfloat16 edge (13) */
    uint16_t bf[2] = {0x3f80, 0x4000};
    osc_tensor xbf = T(OSC_BFLOAT16, 1, D(2), bf);
    kh_init(&h, "Pad", 13);
    kh_attr_str(&h, "mode", "edge");
    kh_expect_ok(&h, pad_run(&h, &xbf, D(1, 2), 2, NULL, NULL));
    assert_memory_equal(h.out.data, ((const uint16_t[]){0x3f80, 0x3f80, 0x4000, 0x4000, 0x4000}),
                        10);
    kh_free(&h);
    /* int4 (21): packed two per byte, low nibble first: [1, -2, 3] padded with 5 on both
     * sides is [5, 1, -2, 3, 5]; reflected, [-2, 1, -2, 3, -2] */
    uint8_t i4[2] = {0xE1, 0x03};
    osc_tensor x4 = T(OSC_INT4, 1, D(3), i4);
    uint8_t five[1] = {0x05};
    osc_tensor c4 = T(OSC_INT4, 0, NULL, five);
    kh_init(&h, "Pad", 21);
    kh_expect_ok(&h, pad_run(&h, &x4, D(1, 1), 2, &c4, NULL));
    const uint8_t *p4 = h.out.data;
    assert_int_equal(p4[0], 0x15);
    assert_int_equal(p4[1], 0x3E);
    assert_int_equal(p4[2] & 0x0F, 0x05);
    kh_free(&h);
    kh_init(&h, "Pad", 21);
    kh_attr_str(&h, "mode", "reflect");
    kh_expect_ok(&h, pad_run(&h, &x4, D(1, 1), 2, NULL, NULL));
    p4 = h.out.data;
    assert_int_equal(p4[0], 0x1E);        /* -2, 1 */
    assert_int_equal(p4[1], 0x3E);        /* -2, 3 */
    assert_int_equal(p4[2] & 0x0F, 0x0E); /* -2 */
    kh_free(&h);
    /* infer reads pads and axes only */
    osc_tensor pads = T(OSC_INT64, 1, D(2), D(1, 0));
    osc_tensor xn = x, cvn = cv, pn = pads;
    xn.data = NULL;
    cvn.data = NULL;
    kh_init(&h, "Pad", 18);
    kh_expect_ok(&h, kh_infer(&h, 4, (const osc_tensor *[]){&xn, &pads, &cvn, &ax}, 1));
    osc_check_shape(&h.outs[0], OSC_INT64, 2, D(2, 4));
    pn.data = NULL;
    osc_err_clear(&h.err);
    expect_fail(&h, kh_infer(&h, 4, (const osc_tensor *[]){&x, &pn, &cv, &ax}, 1),
                OSC_ERR_STATE, "pads");
    kh_free(&h);
}

/* ======================= Einsum ======================= */

static osc_status es_run(kh *h, const char *eq, int32_t n, const osc_tensor *a,
                         const osc_tensor *b) {
    kh_attr_str(h, "equation", eq);
    const osc_tensor *in[2] = {a, b};
    return kh_run(h, n, in);
}

static void einsum_small_forms(void **state) {
    (void)state;
    kh h;
    const float a23[6] = {1, 2, 3, 4, 5, 6}; /* [[1,2,3],[4,5,6]] */
    const float b32[6] = {1, 0, 2, 1, 0, 3}; /* [[1,0],[2,1],[0,3]] */
    osc_tensor a = T(OSC_FLOAT, 2, D(2, 3), a23), b = T(OSC_FLOAT, 2, D(3, 2), b32);
    /* matmul: [[1+4+0, 0+2+9], [4+10+0, 0+5+18]] */
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij,jk->ik", 2, &a, &b));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(2, 2));
    expect_floats(&h.out, (const float[]){5, 11, 14, 23}, 4);
    kh_free(&h);
    /* implicit output: "ij,jk" is "ik"; with spaces */
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, " ij , jk ", 2, &a, &b));
    expect_floats(&h.out, (const float[]){5, 11, 14, 23}, 4);
    kh_free(&h);
    /* the product transposed: "ij,jk->ki" */
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij,jk->ki", 2, &a, &b));
    expect_floats(&h.out, (const float[]){5, 14, 11, 23}, 4);
    kh_free(&h);
    /* transpose, row sums, total */
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij->ji", 1, &a, NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(3, 2));
    expect_floats(&h.out, (const float[]){1, 4, 2, 5, 3, 6}, 6);
    kh_free(&h);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij->i", 1, &a, NULL));
    expect_floats(&h.out, (const float[]){6, 15}, 2);
    kh_free(&h);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij->", 1, &a, NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 0, NULL);
    expect_floats(&h.out, (const float[]){21}, 1);
    kh_free(&h);
    /* implicit single operand: "ji" is sorted to "ij": a transpose */
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ji", 1, &a, NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(3, 2));
    kh_free(&h);
    /* diagonal and trace of [[1,2,3],[4,5,6],[7,8,9]] */
    const float sq[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    osc_tensor s = T(OSC_FLOAT, 2, D(3, 3), sq);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ii->i", 1, &s, NULL));
    expect_floats(&h.out, (const float[]){1, 5, 9}, 3);
    kh_free(&h);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ii", 1, &s, NULL));
    expect_floats(&h.out, (const float[]){15}, 1);
    kh_free(&h);
    /* outer product and inner product */
    const float u[2] = {1, 2}, w[3] = {3, 4, 5};
    osc_tensor tu = T(OSC_FLOAT, 1, D(2), u), tw = T(OSC_FLOAT, 1, D(3), w);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "i,j->ij", 2, &tu, &tw));
    expect_floats(&h.out, (const float[]){3, 4, 5, 6, 8, 10}, 6);
    kh_free(&h);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "i,i", 2, &tw, &tw));
    expect_floats(&h.out, (const float[]){50}, 1);
    kh_free(&h);
    /* a label summed inside one operand: "ij,j->" = sum_i sum_j a[i,j] * u'[j] with
     * u' = [3, 4, 5]: (1*3+2*4+3*5) + (4*3+5*4+6*5) = 26 + 62 */
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij,j->", 2, &a, &tw));
    expect_floats(&h.out, (const float[]){88}, 1);
    kh_free(&h);
    /* "ij,k->i": rows of a times the sum of w: [6 * 12, 15 * 12] */
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij,k->i", 2, &a, &tw));
    expect_floats(&h.out, (const float[]){72, 180}, 2);
    kh_free(&h);
}

static void einsum_ellipsis(void **state) {
    (void)state;
    kh h;
    /* "...ij,...jk->...ik": A [2, 1, 2] (two 1x2 rows), B [2, 1] shared (no batch dims) */
    const float a[4] = {1, 2, 3, 4}, b[2] = {10, 1};
    osc_tensor ta = T(OSC_FLOAT, 3, D(2, 1, 2), a), tb = T(OSC_FLOAT, 2, D(2, 1), b);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "...ij,...jk->...ik", 2, &ta, &tb));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(2, 1, 1));
    expect_floats(&h.out, (const float[]){12, 34}, 2);
    kh_free(&h);
    /* broadcasting a 1 batch dim: A [1, 2] "...i", B [3, 2] "...i" -> "..." dots */
    const float c[6] = {1, 1, 2, 2, 3, 3};
    osc_tensor t1 = T(OSC_FLOAT, 2, D(1, 2), b), t3 = T(OSC_FLOAT, 2, D(3, 2), c);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "...i,...i->...", 2, &t1, &t3));
    expect_floats(&h.out, (const float[]){11, 22, 33}, 3);
    kh_free(&h);
    /* implicit: the ellipsis first: "i...->" is not needed; "...ii" is the batch diagonal */
    const float bd[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    osc_tensor tbd = T(OSC_FLOAT, 3, D(2, 2, 2), bd);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "...ii->...i", 1, &tbd, NULL));
    expect_floats(&h.out, (const float[]){1, 4, 5, 8}, 4);
    kh_free(&h);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "i...", 1, &tbd, NULL)); /* implicit: "...i" */
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(2, 2, 2));
    expect_floats(&h.out, (const float[]){1, 5, 2, 6, 3, 7, 4, 8}, 8);
    kh_free(&h);
}

/* Fills n floats with small integers (exact sums in float), from a seed. */
static void fill_ints(float *v, int64_t n, uint32_t seed) {
    for (int64_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        v[i] = (float)((int32_t)(seed >> 16) % 7 - 3);
    }
}

static void einsum_attention_shapes(void **state) {
    (void)state;
    kh h;
    /* "bhid,bhjd->bhij" with b=2, h=3, i=9, j=10, d=16: the blocked kernel (all >= 8) */
    enum { B = 2, H = 3, I = 9, J = 10, DD = 16 };
    static float q[B * H * I * DD], kk[B * H * J * DD], want[B * H * I * J];
    fill_ints(q, N(q), 1);
    fill_ints(kk, N(kk), 2);
    for (int b = 0; b < B * H; b++)
        for (int i = 0; i < I; i++)
            for (int j = 0; j < J; j++) {
                double s = 0;
                for (int d = 0; d < DD; d++)
                    s += q[(b * I + i) * DD + d] * kk[(b * J + j) * DD + d];
                want[(b * I + i) * J + j] = (float)s;
            }
    osc_tensor tq = T(OSC_FLOAT, 4, D(B, H, I, DD), q), tk = T(OSC_FLOAT, 4, D(B, H, J, DD), kk);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "bhid,bhjd->bhij", 2, &tq, &tk));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(B, H, I, J));
    expect_floats(&h.out, want, N(want));
    kh_free(&h);
    /* "bnd,nde->bne" (experts): n batch, b rows, d contracted, e columns; output [b, n, e] is
     * the product's [n, b, e] permuted */
    enum { Bb = 9, Nn = 2, Dd = 8, E = 11 };
    static float x[Bb * Nn * Dd], w[Nn * Dd * E], want2[Bb * Nn * E];
    fill_ints(x, N(x), 3);
    fill_ints(w, N(w), 4);
    for (int b = 0; b < Bb; b++)
        for (int n = 0; n < Nn; n++)
            for (int e = 0; e < E; e++) {
                double s = 0;
                for (int d = 0; d < Dd; d++)
                    s += x[(b * Nn + n) * Dd + d] * w[(n * Dd + d) * E + e];
                want2[(b * Nn + n) * E + e] = (float)s;
            }
    osc_tensor tx = T(OSC_FLOAT, 3, D(Bb, Nn, Dd), x), tw = T(OSC_FLOAT, 3, D(Nn, Dd, E), w);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "bnd,nde->bne", 2, &tx, &tw));
    expect_floats(&h.out, want2, N(want2));
    kh_free(&h);
    /* the same in double, and the small loop ("bij,bjk->bik" with 2 x 3 x 2 matrices) */
    static double xd[Bb * Nn * Dd], wd[Nn * Dd * E];
    for (int i = 0; i < N(x); i++) xd[i] = x[i];
    for (int i = 0; i < N(w); i++) wd[i] = w[i];
    osc_tensor txd = T(OSC_DOUBLE, 3, D(Bb, Nn, Dd), xd), twd = T(OSC_DOUBLE, 3, D(Nn, Dd, E), wd);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "bnd,nde->bne", 2, &txd, &twd));
    for (int i = 0; i < N(want2); i++) assert_true(((double *)h.out.data)[i] == want2[i]);
    kh_free(&h);
    const float m1[12] = {1, 2, 3, 4, 5, 6, 1, 0, 0, 0, 1, 0};
    const float m2[12] = {1, 0, 0, 1, 1, 1, 2, 3, 4, 5, 6, 7};
    osc_tensor t1 = T(OSC_FLOAT, 3, D(2, 2, 3), m1), t2 = T(OSC_FLOAT, 3, D(2, 3, 2), m2);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "bij,bjk->bik", 2, &t1, &t2));
    /* batch 0: [[1,2,3],[4,5,6]] x [[1,0],[0,1],[1,1]] = [[4,5],[10,11]];
     * batch 1: [[1,0,0],[0,1,0]] x [[2,3],[4,5],[6,7]] = [[2,3],[4,5]] */
    expect_floats(&h.out, (const float[]){4, 5, 10, 11, 2, 3, 4, 5}, 8);
    kh_free(&h);
}

static void einsum_types(void **state) {
    (void)state;
    kh h;
    /* float16 sums in float, rounded once: 2048 + 1 + 1 = 2050 (float16 steps by 2 there;
     * summing in float16 would give 2048) */
    uint16_t hv[3] = {0x6800, 0x3C00, 0x3C00};
    osc_tensor th = T(OSC_FLOAT16, 1, D(3), hv);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "i->", 1, &th, NULL));
    assert_int_equal(((const uint16_t *)h.out.data)[0], 0x6801);
    kh_free(&h);
    /* float16 product, transposed: [[1,2]] . [[3],[4]]: "ij,jk->ki" = 11 (0x4980) */
    uint16_t ha[2] = {0x3C00, 0x4000}, hb[2] = {0x4200, 0x4400};
    osc_tensor tha = T(OSC_FLOAT16, 2, D(1, 2), ha), thb = T(OSC_FLOAT16, 2, D(2, 1), hb);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij,jk->ki", 2, &tha, &thb));
    assert_int_equal(((const uint16_t *)h.out.data)[0], 0x4980);
    kh_free(&h);
    /* float16 through the blocked kernel: 8 x 8 x 8 of ones gives 8 (0x4800) everywhere */
    static uint16_t ones[64];
    for (int i = 0; i < 64; i++) ones[i] = 0x3C00;
    osc_tensor to = T(OSC_FLOAT16, 2, D(8, 8), ones);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij,kj->ik", 2, &to, &to));
    for (int i = 0; i < 64; i++) assert_int_equal(((const uint16_t *)h.out.data)[i], 0x4800);
    kh_free(&h);
    /* int32 wraps modulo 2^32: 2^31 - 1 + 1 */
    int32_t iv[2] = {INT32_MAX, 1};
    osc_tensor ti = T(OSC_INT32, 1, D(2), iv);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "i->", 1, &ti, NULL));
    assert_int_equal(((const int32_t *)h.out.data)[0], INT32_MIN);
    kh_free(&h);
    /* uint8 product: [200, 3] . [2, 1] = 403 mod 256 = 147 */
    uint8_t ua[2] = {200, 3}, ub[2] = {2, 1};
    osc_tensor tua = T(OSC_UINT8, 1, D(2), ua), tub = T(OSC_UINT8, 1, D(2), ub);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "i,i->", 2, &tua, &tub));
    assert_int_equal(((const uint8_t *)h.out.data)[0], 147);
    kh_free(&h);
    /* int64 matmul */
    osc_tensor la = T(OSC_INT64, 2, D(1, 2), D(3, -4)), lb = T(OSC_INT64, 2, D(2, 1), D(5, 6));
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij,jk", 2, &la, &lb));
    expect_i64(&h.out, D(-9), 1);
    kh_free(&h);
    /* bfloat16 is not in Einsum-12's list */
    uint16_t bf[1] = {0x3f80};
    osc_tensor tbf = T(OSC_BFLOAT16, 1, D(1), bf);
    kh_init(&h, "Einsum", 12);
    expect_fail(&h, es_run(&h, "i->", 1, &tbf, NULL), OSC_ERR_SHAPE, "bfloat16");
    kh_free(&h);
    /* an empty contraction gives zeros */
    const float none[1] = {0};
    osc_tensor e1 = T(OSC_FLOAT, 2, D(2, 0), none), e2 = T(OSC_FLOAT, 2, D(0, 3), none);
    kh_init(&h, "Einsum", 12);
    kh_expect_ok(&h, es_run(&h, "ij,jk->ik", 2, &e1, &e2));
    expect_floats(&h.out, (const float[]){0, 0, 0, 0, 0, 0}, 6);
    kh_free(&h);
}

static void einsum_errors(void **state) {
    (void)state;
    kh h;
    const float v[6] = {1, 2, 3, 4, 5, 6};
    osc_tensor a = T(OSC_FLOAT, 2, D(2, 3), v), b = T(OSC_FLOAT, 2, D(2, 3), v);
    static const struct { const char *eq; osc_status st; const char *msg; } bad[] = {
        {"ij,jk,kl->il", OSC_ERR_UNSUPPORTED, "equation 'ij,jk,kl->il' has 3 operands"},
        {"ij->i2", OSC_ERR_MODEL, "character '2' at position 5"},
        {"i..j->ij", OSC_ERR_MODEL, "character '.' at position 1"},
        {"ij->k", OSC_ERR_MODEL, "output label 'k' appears in no operand"},
        {"ij->ii", OSC_ERR_MODEL, "output label 'i' appears twice"},
        {"ij->i->j", OSC_ERR_MODEL, "more than one '->'"},
    };
    for (int32_t i = 0; i < N(bad); i++) {
        kh_init(&h, "Einsum", 12);
        kh_attr_str(&h, "equation", bad[i].eq);
        expect_fail(&h, kh_check(&h), bad[i].st, bad[i].msg);
        kh_free(&h);
    }
    kh_init(&h, "Einsum", 12);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "'equation' is required");
    kh_free(&h);
    /* label sizes that disagree: j is 3 in a, 2 in b's first dim */
    kh_init(&h, "Einsum", 12);
    expect_fail(&h, es_run(&h, "ij,jk->ik", 2, &a, &b), OSC_ERR_SHAPE,
                "label 'j' is size 2 in dim 0 of input 1");
    kh_free(&h);
    kh_init(&h, "Einsum", 12);
    expect_fail(&h, es_run(&h, "ii->i", 1, &a, NULL), OSC_ERR_SHAPE, "label 'i' is size 3");
    kh_free(&h);
    /* term rank vs the input's; operand count vs inputs; ellipsis dims that disagree */
    kh_init(&h, "Einsum", 12);
    expect_fail(&h, es_run(&h, "ijk->i", 1, &a, NULL), OSC_ERR_SHAPE, "its term has 3 labels");
    kh_free(&h);
    kh_init(&h, "Einsum", 12);
    expect_fail(&h, es_run(&h, "ij,jk->ik", 1, &a, NULL), OSC_ERR_MODEL,
                "has 2 operand(s) but the node has 1 inputs");
    kh_free(&h);
    osc_tensor c = T(OSC_FLOAT, 1, D(3), v), d = T(OSC_FLOAT, 1, D(2), v);
    kh_init(&h, "Einsum", 12);
    expect_fail(&h, es_run(&h, "...,...->...", 2, &c, &d), OSC_ERR_SHAPE, "'...' dims");
    kh_free(&h);
    kh_init(&h, "Einsum", 12);
    expect_fail(&h, es_run(&h, "...i->i", 1, &a, NULL), OSC_ERR_SHAPE,
                "the output term has no '...'");
    kh_free(&h);
    /* mixed dtypes */
    osc_tensor di = T(OSC_INT64, 2, D(3, 2), D(1, 2, 3, 4, 5, 6));
    kh_init(&h, "Einsum", 12);
    expect_fail(&h, es_run(&h, "ij,jk->ik", 2, &a, &di), OSC_ERR_SHAPE, "they must match");
    kh_free(&h);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(rows_versions),
    cmocka_unit_test(split_versions),
    cmocka_unit_test(split_bad_attributes),
    cmocka_unit_test(split_types_and_masks),
    cmocka_unit_test(split_errors),
    cmocka_unit_test(pad_spec_examples),
    cmocka_unit_test(pad_attribute_versions),
    cmocka_unit_test(pad_modes_beyond_the_dim),
    cmocka_unit_test(pad_negative_pads),
    cmocka_unit_test(pad_axes_and_types),
    cmocka_unit_test(einsum_small_forms),
    cmocka_unit_test(einsum_ellipsis),
    cmocka_unit_test(einsum_attention_shapes),
    cmocka_unit_test(einsum_types),
    cmocka_unit_test(einsum_errors),
)
