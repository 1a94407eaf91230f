/* test_ops_shape.c: shape and data-movement kernels run through kharness; expected values are the
 * spec's examples or worked out by hand in the comments. */
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

/* A stand-in pointer for zero-element tensors. */
static const int64_t k_empty[1];

/* ---- checks ---- */

/* The output buffer still holds the harness's 0xA5 fill: nothing was written. */
static void expect_untouched(const osc_tensor *t) {
    const unsigned char *p = t->data;
    for (size_t i = 0; i < t->nbytes; i++)
        if (p[i] != 0xA5) fail_msg("output byte %zu is 0x%02x, expected untouched 0xA5", i, p[i]);
}

static void expect_msg(const kh *h, const char *part) {
    if (!strstr(h->err.msg, part)) fail_msg("message '%s' lacks '%s'", h->err.msg, part);
}

static void expect_fail(kh *h, osc_status got, osc_status want, const char *part) {
    if (got != want)
        fail_msg("status %s, expected %s (%s)", osc_status_name(got), osc_status_name(want),
                 h->err.msg);
    if (part) expect_msg(h, part);
}

/* The row's infer_reads mask is exact: infer succeeds with the same output shapes when every
 * other input's data is NULL, and fails with OSC_ERR_STATE when a masked input's data is. */
static void expect_mask_exact(kh *h, int32_t n_in, const osc_tensor *const *in, int32_t n_out) {
    osc_tensor copy[KH_MAX_INPUTS], outs[KH_MAX_OUTPUTS];
    const osc_tensor *ptr[KH_MAX_INPUTS];
    uint32_t mask = h->kernel->infer_reads;
    for (int32_t i = 0; i < n_in; i++) {
        if (in[i]) copy[i] = *in[i];
        ptr[i] = in[i] ? &copy[i] : NULL;
        if (in[i] && !(mask & (1u << i))) copy[i].data = NULL;
    }
    memset(outs, 0, sizeof outs);
    osc_status st = h->kernel->infer(&h->k, ptr, n_in, outs, n_out);
    if (st) fail_msg("infer without the data of unmasked inputs: %s", h->err.msg);
    const osc_tensor *ref = h->n_outs ? h->outs : &h->out; /* what the run inferred */
    for (int32_t j = 0; j < n_out; j++)
        osc_check_shape(&outs[j], ref[j].dtype, ref[j].rank, ref[j].dims);
    for (int32_t i = 0; i < n_in; i++) {
        if (!in[i] || !(mask & (1u << i)) || osc_tensor_count(in[i]) == 0) continue;
        copy[i].data = NULL;
        osc_err_clear(&h->err);
        st = h->kernel->infer(&h->k, ptr, n_in, outs, n_out);
        if (st != OSC_ERR_STATE)
            fail_msg("infer without the data of masked input %d gave %s", (int)i,
                     osc_status_name(st));
        copy[i].data = in[i]->data;
    }
}

static void expect_strings(const osc_tensor *t, const char *const *want, int32_t n) {
    const osc_string *s = t->data;
    for (int32_t i = 0; i < n; i++) {
        size_t len = strlen(want[i]);
        if (s[i].len != len || (len && memcmp(s[i].ptr, want[i], len) != 0))
            fail_msg("string %d is '%.*s', expected '%s'", (int)i, (int)s[i].len, s[i].ptr,
                     want[i]);
    }
}

/* ======================= dispatch and masks ======================= */

static void rows_versions_and_masks(void **state) {
    (void)state;
    static const struct { const char *op; int64_t opset, since; uint32_t mask; int32_t lo, hi; }
        rows[] = {
            {"Constant", 7, 1, 0, 0, 0},        {"Constant", 12, 12, 0, 0, 0},
            {"Constant", 27, 25, 0, 0, 0},      {"ConstantOfShape", 20, 20, 0x1, 1, 1},
            {"Shape", 14, 13, 0, 1, 1},         {"Shape", 15, 15, 0, 1, 1},
            {"Size", 22, 21, 0, 1, 1},          {"Reshape", 7, 5, 0x2, 2, 2},
            {"Reshape", 14, 14, 0x2, 2, 2},     {"Flatten", 10, 9, 0, 1, 1},
            {"Squeeze", 12, 11, 0, 1, 1},       {"Squeeze", 13, 13, 0x2, 1, 2},
            {"Unsqueeze", 7, 1, 0, 1, 1},       {"Unsqueeze", 20, 13, 0x2, 2, 2},
            {"Expand", 8, 8, 0x2, 2, 2},        {"Tile", 7, 6, 0x2, 2, 2},
            {"Concat", 7, 4, 0, 1, OSC_VARIADIC},          {"Gather", 12, 11, 0, 2, 2},
            {"Slice", 9, 1, 0, 1, 1},           {"Slice", 10, 10, 0x1e, 3, 5},
            {"Transpose", 22, 21, 0, 1, 1},     {"Range", 26, 11, 0x7, 3, 3},
            {"Range", 27, 27, 0x7, 3, 3},       {"NonZero", 13, 13, 0x1, 1, 1},
            {"CumSum", 13, 11, 0, 2, 2},        {"ReduceSum", 12, 11, 0, 1, 1},
            {"ReduceSum", 18, 13, 0x2, 1, 2},   {"ArgMax", 12, 12, 0, 1, 1},
            {"TopK", 9, 1, 0, 1, 1},            {"TopK", 10, 10, 0x2, 2, 2},
            {"TopK", 25, 24, 0x2, 2, 2},        {"OneHot", 10, 9, 0x2, 3, 3},
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
    assert_int_equal(osc_kernel_find("", "TopK", 24)->outputs, 2);
    /* versions before the first one implemented */
    assert_null(osc_kernel_find("", "Expand", 7));
    assert_null(osc_kernel_find("", "Range", 10));
    assert_null(osc_kernel_find("", "CumSum", 10));
    assert_null(osc_kernel_find("", "OneHot", 8));
    assert_null(osc_kernel_find("", "Reshape", 4));
    assert_null(osc_kernel_find("", "Tile", 5));
    assert_null(osc_kernel_find("", "Concat", 3));
}

/* ======================= Constant / ConstantOfShape ======================= */

static void constant_value_tensor_versions(void **state) {
    (void)state;
    const float v[] = {1, 2, 3, 4};
    const int64_t versions[] = {1, 9, 13, 25};
    for (int32_t i = 0; i < N(versions); i++) {
        osc_tensor val = T(OSC_FLOAT, 2, D(2, 2), v);
        kh h;
        kh_init(&h, "Constant", versions[i]);
        kh_attr_tensor(&h, "value", &val);
        kh_expect_ok(&h, kh_run(&h, 0, NULL));
        osc_check_shape(&h.out, OSC_FLOAT, 2, D(2, 2));
        osc_check_bytes(&h.out, v, sizeof v);
        kh_free(&h);
    }
    /* Constant-1 allows only float16/float/double */
    const int64_t iv[] = {7};
    osc_tensor ival = T(OSC_INT64, 1, D(1), iv);
    kh h;
    kh_init(&h, "Constant", 8);
    kh_attr_tensor(&h, "value", &ival);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "int64");
    kh_free(&h);
    kh_init(&h, "Constant", 9);
    kh_attr_tensor(&h, "value", &ival);
    kh_expect_ok(&h, kh_run(&h, 0, NULL));
    osc_check_bytes(&h.out, iv, sizeof iv);
    kh_free(&h);
}

static void constant_value_forms_12(void **state) {
    (void)state;
    kh h;
    kh_init(&h, "Constant", 12);
    kh_attr_int(&h, "value_int", -5);
    kh_expect_ok(&h, kh_run(&h, 0, NULL));
    osc_check_shape(&h.out, OSC_INT64, 0, NULL);
    osc_check_bytes(&h.out, (const int64_t[]){-5}, 8);
    kh_free(&h);

    const int64_t ints[] = {3, 1, 2};
    kh_init(&h, "Constant", 13);
    kh_attr_ints(&h, "value_ints", ints, 3);
    kh_expect_ok(&h, kh_run(&h, 0, NULL));
    osc_check_shape(&h.out, OSC_INT64, 1, D(3));
    osc_check_bytes(&h.out, ints, sizeof ints);
    kh_free(&h);

    kh_init(&h, "Constant", 19);
    kh_attr_float(&h, "value_float", 2.5f);
    kh_expect_ok(&h, kh_run(&h, 0, NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 0, NULL);
    osc_check_bytes(&h.out, (const float[]){2.5f}, 4);
    kh_free(&h);

    const float fl[] = {0.5f, -1};
    kh_init(&h, "Constant", 25);
    kh_attr_floats(&h, "value_floats", fl, 2);
    kh_expect_ok(&h, kh_run(&h, 0, NULL));
    osc_check_shape(&h.out, OSC_FLOAT, 1, D(2));
    osc_check_bytes(&h.out, fl, sizeof fl);
    kh_free(&h);

    kh_init(&h, "Constant", 12);
    kh_attr_str(&h, "value_string", "hello");
    kh_expect_ok(&h, kh_run(&h, 0, NULL));
    osc_check_shape(&h.out, OSC_STRING, 0, NULL);
    expect_strings(&h.out, (const char *const[]){"hello"}, 1);
    kh_free(&h);

    /* empty list: a [0] tensor */
    kh_init(&h, "Constant", 13);
    kh_attr_ints(&h, "value_ints", ints, 0);
    kh_expect_ok(&h, kh_run(&h, 0, NULL));
    osc_check_shape(&h.out, OSC_INT64, 1, D(0));
    kh_free(&h);
}

static void constant_attribute_errors(void **state) {
    (void)state;
    kh h;
    /* value_* do not exist before 12 */
    kh_init(&h, "Constant", 11);
    kh_attr_int(&h, "value_int", 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "value_int");
    kh_free(&h);
    /* exactly one value attribute */
    kh_init(&h, "Constant", 13);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "exactly one");
    kh_free(&h);
    kh_init(&h, "Constant", 13);
    kh_attr_int(&h, "value_int", 1);
    kh_attr_float(&h, "value_float", 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "exactly one");
    kh_free(&h);
    /* wrong attribute type */
    kh_init(&h, "Constant", 13);
    kh_attr_str(&h, "value_int", "1");
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "value_int");
    kh_free(&h);
    /* sparse_value and value_strings are refused as unsupported */
    kh_init(&h, "Constant", 11);
    h.attrs[0] = (osc_attr){.name = "sparse_value", .type = OSC_ATTR_SPARSE_TENSOR};
    h.node.n_attrs = 1;
    expect_fail(&h, kh_check(&h), OSC_ERR_UNSUPPORTED, "sparse");
    kh_free(&h);
    kh_init(&h, "Constant", 12);
    h.attrs[0] = (osc_attr){.name = "value_strings", .type = OSC_ATTR_STRINGS};
    h.node.n_attrs = 1;
    expect_fail(&h, kh_check(&h), OSC_ERR_UNSUPPORTED, "value_strings");
    kh_free(&h);
    /* sparse_value does not exist before 11 */
    kh_init(&h, "Constant", 9);
    h.attrs[0] = (osc_attr){.name = "sparse_value", .type = OSC_ATTR_SPARSE_TENSOR};
    h.node.n_attrs = 1;
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "sparse_value");
    kh_free(&h);
}

static void constant_strings_and_packed(void **state) {
    (void)state;
    const osc_string s[] = {{"ab", 2}, {"", 0}, {"xyz", 3}};
    osc_tensor val = T(OSC_STRING, 1, D(3), s);
    kh h;
    kh_init(&h, "Constant", 9);
    kh_attr_tensor(&h, "value", &val);
    kh_expect_ok(&h, kh_run(&h, 0, NULL));
    expect_strings(&h.out, (const char *const[]){"ab", "", "xyz"}, 3);
    kh_free(&h);
    /* int4 from 21: three elements 1, -2, 7 -> bytes 0xE1 0x07 */
    const uint8_t packed[] = {0xE1, 0x07};
    osc_tensor p4 = T(OSC_INT4, 1, D(3), packed);
    kh_init(&h, "Constant", 21);
    kh_attr_tensor(&h, "value", &p4);
    kh_expect_ok(&h, kh_run(&h, 0, NULL));
    osc_check_shape(&h.out, OSC_INT4, 1, D(3));
    osc_check_bytes(&h.out, packed, 2);
    kh_free(&h);
    kh_init(&h, "Constant", 19);
    kh_attr_tensor(&h, "value", &p4);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "int4");
    kh_free(&h);
}

static void cofshape_spec_examples(void **state) {
    (void)state;
    /* float ones [4,3,2]; int32 zeros [10,6]; default float zeros */
    const float one[] = {1};
    osc_tensor v1 = T(OSC_FLOAT, 1, D(1), one);
    osc_tensor shp = T(OSC_INT64, 1, D(3), D(4, 3, 2));
    const osc_tensor *in[] = {&shp};
    kh h;
    kh_init(&h, "ConstantOfShape", 9);
    kh_attr_tensor(&h, "value", &v1);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(4, 3, 2));
    for (int32_t i = 0; i < 24; i++) assert_true(((const float *)h.out.data)[i] == 1.0f);
    expect_mask_exact(&h, 1, in, 1);
    kh_free(&h);

    const int32_t zero[] = {0};
    osc_tensor vz = T(OSC_INT32, 1, D(1), zero);
    osc_tensor shp2 = T(OSC_INT64, 1, D(2), D(10, 6));
    const osc_tensor *in2[] = {&shp2};
    kh_init(&h, "ConstantOfShape", 25);
    kh_attr_tensor(&h, "value", &vz);
    kh_expect_ok(&h, kh_run(&h, 1, in2));
    osc_check_shape(&h.out, OSC_INT32, 2, D(10, 6));
    for (int32_t i = 0; i < 60; i++) assert_int_equal(((const int32_t *)h.out.data)[i], 0);
    kh_free(&h);

    kh_init(&h, "ConstantOfShape", 9);
    kh_expect_ok(&h, kh_run(&h, 1, in2));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(10, 6));
    for (int32_t i = 0; i < 60; i++) assert_true(((const float *)h.out.data)[i] == 0.0f);
    kh_free(&h);
}

static void cofshape_edges_and_errors(void **state) {
    (void)state;
    kh h;
    /* empty shape -> scalar; a zero dim -> empty output */
    osc_tensor e = T(OSC_INT64, 1, D(0), k_empty);
    const osc_tensor *in[] = {&e};
    kh_init(&h, "ConstantOfShape", 9);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_FLOAT, 0, NULL);
    kh_free(&h);
    osc_tensor z = T(OSC_INT64, 1, D(2), D(0, 3));
    in[0] = &z;
    kh_init(&h, "ConstantOfShape", 9);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(0, 3));
    kh_free(&h);
    /* negative dim */
    osc_tensor neg = T(OSC_INT64, 1, D(2), D(2, -1));
    in[0] = &neg;
    kh_init(&h, "ConstantOfShape", 9);
    expect_fail(&h, kh_run(&h, 1, in), OSC_ERR_SHAPE, "value -1 at position 1");
    kh_free(&h);
    /* value must hold one element; bfloat16 only from 20 */
    const float two[] = {1, 2};
    osc_tensor v2 = T(OSC_FLOAT, 1, D(2), two);
    kh_init(&h, "ConstantOfShape", 9);
    kh_attr_tensor(&h, "value", &v2);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "exactly one element");
    kh_free(&h);
    const uint16_t bf[] = {0x3f80};
    osc_tensor vb = T(OSC_BFLOAT16, 1, D(1), bf);
    kh_init(&h, "ConstantOfShape", 19);
    kh_attr_tensor(&h, "value", &vb);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "bfloat16");
    kh_free(&h);
    osc_tensor s3 = T(OSC_INT64, 1, D(1), D(3));
    in[0] = &s3;
    kh_init(&h, "ConstantOfShape", 20);
    kh_attr_tensor(&h, "value", &vb);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_bytes(&h.out, (const uint16_t[]){0x3f80, 0x3f80, 0x3f80}, 6);
    kh_free(&h);
    /* int4 from 21: 7,7,7 packed; the fourth nibble is not an element */
    const uint8_t seven[] = {0x07};
    osc_tensor v4 = T(OSC_INT4, 1, D(1), seven);
    kh_init(&h, "ConstantOfShape", 21);
    kh_attr_tensor(&h, "value", &v4);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    assert_int_equal(h.out.nbytes, 2);
    assert_int_equal(((const uint8_t *)h.out.data)[0], 0x77);
    assert_int_equal(((const uint8_t *)h.out.data)[1] & 0x0f, 0x07);
    kh_free(&h);
    /* int32 shape input is not allowed (T1 = int64) */
    osc_tensor i32 = T(OSC_INT32, 1, D(1), (const int32_t[]){3});
    in[0] = &i32;
    kh_init(&h, "ConstantOfShape", 9);
    expect_fail(&h, kh_run(&h, 1, in), OSC_ERR_SHAPE, "int64");
    kh_free(&h);
}

/* ======================= Shape / Size ======================= */

static void shape_all_versions_and_slices(void **state) {
    (void)state;
    osc_tensor x = T(OSC_FLOAT, 3, D(2, 3, 4), NULL); /* data is never read */
    const osc_tensor *in[] = {&x};
    const int64_t versions[] = {1, 13, 15, 25};
    kh h;
    for (int32_t i = 0; i < N(versions); i++) {
        float buf[24] = {0};
        x.data = buf;
        kh_init(&h, "Shape", versions[i]);
        kh_expect_ok(&h, kh_run(&h, 1, in));
        osc_check_shape(&h.out, OSC_INT64, 1, D(3));
        osc_check_bytes(&h.out, D(2, 3, 4), 24);
        expect_mask_exact(&h, 1, in, 1);
        kh_free(&h);
    }
    /* the spec's start/end examples and clamping */
    static const struct { int64_t start, end; bool has_start, has_end; int64_t n, v[3]; } c[] = {
        {-1, 0, true, false, 1, {4}},     {0, -1, false, true, 2, {2, 3}},
        {1, 2, true, true, 1, {3}},       {1, -1, true, true, 1, {3}},
        {-10, 0, true, false, 3, {2, 3, 4}}, {0, 10, false, true, 3, {2, 3, 4}},
        {2, 1, true, true, 0, {0}},       {1, 0, true, false, 2, {3, 4}},
    };
    for (int32_t i = 0; i < N(c); i++) {
        kh_init(&h, "Shape", 15);
        if (c[i].has_start) kh_attr_int(&h, "start", c[i].start);
        if (c[i].has_end) kh_attr_int(&h, "end", c[i].end);
        kh_expect_ok(&h, kh_run(&h, 1, in));
        osc_check_shape(&h.out, OSC_INT64, 1, D(c[i].n));
        osc_check_bytes(&h.out, c[i].v, (size_t)c[i].n * 8);
        kh_free(&h);
    }
    kh_init(&h, "Shape", 14);
    kh_attr_int(&h, "start", 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "start");
    kh_free(&h);
}

static void shape_size_types(void **state) {
    (void)state;
    kh h;
    /* int4 is a Shape/Size type from 21 only */
    const uint8_t p[2] = {0};
    osc_tensor x4 = T(OSC_INT4, 2, D(1, 3), p);
    const osc_tensor *in[] = {&x4};
    kh_init(&h, "Shape", 21);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_bytes(&h.out, D(1, 3), 16);
    kh_free(&h);
    kh_init(&h, "Size", 19);
    expect_fail(&h, kh_run(&h, 1, in), OSC_ERR_SHAPE, "int4");
    kh_free(&h);
    kh_init(&h, "Size", 21);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_INT64, 0, NULL);
    osc_check_bytes(&h.out, D(3), 8);
    kh_free(&h);
    /* Size: [3,4,5] -> 60, a scalar -> 1, a zero-size tensor -> 0 */
    float buf[60] = {0};
    osc_tensor x = T(OSC_FLOAT, 3, D(3, 4, 5), buf), s = T(OSC_FLOAT, 0, NULL, buf),
               z = T(OSC_FLOAT, 2, D(0, 7), k_empty);
    const osc_tensor *xs[] = {&x, &s, &z};
    const int64_t want[] = {60, 1, 0};
    for (int32_t i = 0; i < 3; i++) {
        kh_init(&h, "Size", 1);
        kh_expect_ok(&h, kh_run(&h, 1, &xs[i]));
        osc_check_bytes(&h.out, &want[i], 8);
        kh_free(&h);
    }
    /* strings: Shape of a string tensor */
    const osc_string str[2] = {{"a", 1}, {"b", 1}};
    osc_tensor st = T(OSC_STRING, 1, D(2), str);
    in[0] = &st;
    kh_init(&h, "Shape", 13);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_bytes(&h.out, D(2), 8);
    kh_free(&h);
}

/* ======================= Reshape / Flatten / Squeeze / Unsqueeze ======================= */

static float k_iota[120]; /* 0, 1, 2, ... filled by main */

static osc_status reshape(kh *h, int64_t opset, int64_t allowzero, osc_tensor data,
                          const int64_t *shape, int64_t n) {
    osc_tensor d, s;
    d = data;
    s = T(OSC_INT64, 1, D(n), shape);
    kh_init(h, "Reshape", opset);
    if (allowzero >= 0) kh_attr_int(h, "allowzero", allowzero);
    const osc_tensor *in[] = {&d, &s};
    osc_status st = kh_run(h, 2, in);
    if (!st) expect_mask_exact(h, 2, in, 1);
    return st;
}

static void reshape_spec_cases(void **state) {
    (void)state;
    static const struct { int64_t n, shape[5], rank, want[5]; } c[] = {
        {3, {4, 2, 3}, 3, {4, 2, 3}},      /* reordered_all_dims */
        {3, {2, 4, 3}, 3, {2, 4, 3}},      /* reordered_last_dims */
        {2, {2, 12}, 2, {2, 12}},          /* reduced_dims */
        {4, {2, 3, 2, 2}, 4, {2, 3, 2, 2}}, /* extended_dims */
        {1, {24}, 1, {24}},                /* one_dim */
        {3, {2, -1, 2}, 3, {2, 6, 2}},     /* negative_dim */
        {4, {-1, 2, 3, 4}, 4, {1, 2, 3, 4}}, /* negative_extended_dims */
        {4, {2, 0, 4, 1}, 4, {2, 3, 4, 1}}, /* zero_dim: 0 copies input dim 1 */
        {3, {2, 0, -1}, 3, {2, 3, 4}},     /* zero_and_negative_dim */
    };
    const int64_t versions[] = {5, 13, 14, 25};
    for (int32_t v = 0; v < N(versions); v++)
        for (int32_t i = 0; i < N(c); i++) {
            kh h;
            osc_status st = reshape(&h, versions[v], -1, T(OSC_FLOAT, 3, D(2, 3, 4), k_iota),
                                    c[i].shape, c[i].n);
            if (st) fail_msg("case %d at %lld: %s", (int)i, (long long)versions[v], h.err.msg);
            osc_check_shape(&h.out, OSC_FLOAT, (int32_t)c[i].rank, c[i].want);
            osc_check_bytes(&h.out, k_iota, 24 * sizeof(float));
            kh_free(&h);
        }
}

static void reshape_allowzero_and_errors(void **state) {
    (void)state;
    kh h;
    /* allowzero = 1 keeps the 0: [0,3,4] -> [3,4,0] */
    assert_int_equal(reshape(&h, 14, 1, T(OSC_FLOAT, 3, D(0, 3, 4), k_empty), D(3, 4, 0), 3),
                     OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(3, 4, 0));
    kh_free(&h);
    /* to a scalar and back */
    assert_int_equal(reshape(&h, 5, -1, T(OSC_FLOAT, 2, D(1, 1), k_iota), k_empty, 0), OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 0, NULL);
    kh_free(&h);
    osc_tensor x = T(OSC_FLOAT, 3, D(2, 3, 4), k_iota);
    expect_fail(&h, reshape(&h, 14, -1, x, D(-1, -1, 4), 3), OSC_ERR_SHAPE,
                "-1 at positions 0 and 1");
    kh_free(&h);
    expect_fail(&h, reshape(&h, 14, -1, x, D(5, 5), 2), OSC_ERR_SHAPE, "25 elements");
    kh_free(&h);
    expect_fail(&h, reshape(&h, 14, -1, x, D(5, -1), 2), OSC_ERR_SHAPE, "cannot be inferred");
    kh_free(&h);
    expect_fail(&h, reshape(&h, 14, -1, x, D(2, -2, 12), 3), OSC_ERR_SHAPE, "value -2");
    kh_free(&h);
    expect_fail(&h, reshape(&h, 14, 1, x, D(0, -1), 2), OSC_ERR_SHAPE, "allowzero");
    kh_free(&h);
    /* a 0 that copies a dim the input does not have */
    expect_fail(&h, reshape(&h, 14, -1, x, D(24, 1, 1, 0), 4), OSC_ERR_SHAPE, "rank 3");
    kh_free(&h);
    /* allowzero does not exist before 14, and is 0 or 1 */
    kh_init(&h, "Reshape", 13);
    kh_attr_int(&h, "allowzero", 0);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "allowzero");
    kh_free(&h);
    kh_init(&h, "Reshape", 14);
    kh_attr_int(&h, "allowzero", 2);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "[0, 1]");
    kh_free(&h);
    /* the shape must be int64 */
    osc_tensor s32 = T(OSC_INT32, 1, D(1), (const int32_t[]){24});
    const osc_tensor *in[] = {&x, &s32};
    kh_init(&h, "Reshape", 14);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "int64");
    kh_free(&h);
}

static void reshape_inplace_strings_packed(void **state) {
    (void)state;
    kh h;
    float buf[6] = {1, 2, 3, 4, 5, 6};
    osc_tensor x = T(OSC_FLOAT, 2, D(2, 3), buf), s = T(OSC_INT64, 1, D(1), D(6));
    const osc_tensor *in[] = {&x, &s};
    kh_init(&h, "Reshape", 21);
    kh_expect_ok(&h, kh_run_inplace(&h, 2, in));
    assert_ptr_equal(h.out.data, buf);
    osc_check_shape(&h.out, OSC_FLOAT, 1, D(6));
    osc_check_bytes(&h.out, (const float[]){1, 2, 3, 4, 5, 6}, 24);
    kh_free(&h);
    const osc_string str[4] = {{"a", 1}, {"bb", 2}, {"", 0}, {"d", 1}};
    osc_tensor xs = T(OSC_STRING, 1, D(4), str), s2 = T(OSC_INT64, 1, D(2), D(2, 2));
    in[0] = &xs;
    in[1] = &s2;
    kh_init(&h, "Reshape", 5);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_shape(&h.out, OSC_STRING, 2, D(2, 2));
    expect_strings(&h.out, (const char *const[]){"a", "bb", "", "d"}, 4);
    kh_free(&h);
    /* uint4 from 21; not before */
    const uint8_t p[] = {0x21, 0x43, 0x05};
    osc_tensor x4 = T(OSC_UINT4, 1, D(5), p), s5 = T(OSC_INT64, 1, D(2), D(5, 1));
    in[0] = &x4;
    in[1] = &s5;
    kh_init(&h, "Reshape", 21);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_shape(&h.out, OSC_UINT4, 2, D(5, 1));
    osc_check_bytes(&h.out, p, 3);
    kh_free(&h);
    kh_init(&h, "Reshape", 19);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "uint4");
    kh_free(&h);
}

static void flatten_axes_and_versions(void **state) {
    (void)state;
    osc_tensor x = T(OSC_FLOAT, 4, D(2, 3, 4, 5), k_iota);
    const osc_tensor *in[] = {&x};
    static const struct { int64_t axis, a, b; } c[] = {
        {0, 1, 120}, {1, 2, 60}, {2, 6, 20}, {3, 24, 5}, {4, 120, 1},
        {-1, 24, 5}, {-2, 6, 20}, {-3, 2, 60}, {-4, 1, 120},
    };
    kh h;
    for (int32_t i = 0; i < N(c); i++) {
        kh_init(&h, "Flatten", 13);
        kh_attr_int(&h, "axis", c[i].axis);
        kh_expect_ok(&h, kh_run(&h, 1, in));
        osc_check_shape(&h.out, OSC_FLOAT, 2, D(c[i].a, c[i].b));
        osc_check_bytes(&h.out, k_iota, 120 * sizeof(float));
        kh_free(&h);
    }
    kh_init(&h, "Flatten", 25); /* default axis 1 */
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(2, 60));
    kh_free(&h);
    kh_init(&h, "Flatten", 11);
    kh_attr_int(&h, "axis", 5);
    expect_fail(&h, kh_run(&h, 1, in), OSC_ERR_SHAPE, "[-4, 4]");
    kh_free(&h);
    /* Flatten-1 takes float types only; 9 takes int32 */
    int32_t ib[6] = {0};
    osc_tensor xi = T(OSC_INT32, 2, D(2, 3), ib);
    in[0] = &xi;
    kh_init(&h, "Flatten", 8);
    expect_fail(&h, kh_run(&h, 1, in), OSC_ERR_SHAPE, "int32");
    kh_free(&h);
    kh_init(&h, "Flatten", 9);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    kh_free(&h);
    /* zero-size */
    osc_tensor z = T(OSC_FLOAT, 3, D(2, 0, 3), k_empty);
    in[0] = &z;
    kh_init(&h, "Flatten", 13);
    kh_attr_int(&h, "axis", 2);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(0, 3));
    kh_free(&h);
}

static void squeeze_versions(void **state) {
    (void)state;
    osc_tensor x = T(OSC_FLOAT, 4, D(1, 3, 1, 5), k_iota);
    kh h;
    /* attribute before 13 */
    const osc_tensor *in1[] = {&x};
    kh_init(&h, "Squeeze", 1);
    kh_attr_ints(&h, "axes", D(0), 1);
    kh_expect_ok(&h, kh_run(&h, 1, in1));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(3, 1, 5));
    osc_check_bytes(&h.out, k_iota, 15 * sizeof(float));
    kh_free(&h);
    kh_init(&h, "Squeeze", 11);
    kh_attr_ints(&h, "axes", D(-2), 1);
    kh_expect_ok(&h, kh_run(&h, 1, in1));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(1, 3, 5));
    kh_free(&h);
    /* no axes: every size-1 dim */
    kh_init(&h, "Squeeze", 13);
    kh_expect_ok(&h, kh_run(&h, 1, in1));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(3, 5));
    kh_free(&h);
    /* input from 13 */
    osc_tensor ax = T(OSC_INT64, 1, D(2), D(2, -4));
    const osc_tensor *in2[] = {&x, &ax};
    kh_init(&h, "Squeeze", 13);
    kh_expect_ok(&h, kh_run(&h, 2, in2));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(3, 5));
    expect_mask_exact(&h, 2, in2, 1);
    kh_free(&h);
    /* an empty axes input squeezes nothing (the ONNX reference's np.squeeze(axis=())) */
    osc_tensor none = T(OSC_INT64, 1, D(0), k_empty);
    in2[1] = &none;
    kh_init(&h, "Squeeze", 21);
    kh_expect_ok(&h, kh_run(&h, 2, in2));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(1, 3, 1, 5));
    kh_free(&h);
    /* errors: a dim that is not 1, out of range, repeated, attribute at 13 */
    osc_tensor bad = T(OSC_INT64, 1, D(1), D(1));
    in2[1] = &bad;
    kh_init(&h, "Squeeze", 13);
    expect_fail(&h, kh_run(&h, 2, in2), OSC_ERR_SHAPE, "size 3");
    kh_free(&h);
    osc_tensor oor = T(OSC_INT64, 1, D(1), D(4));
    in2[1] = &oor;
    kh_init(&h, "Squeeze", 13);
    expect_fail(&h, kh_run(&h, 2, in2), OSC_ERR_SHAPE, "[-4, 3]");
    kh_free(&h);
    osc_tensor dup = T(OSC_INT64, 1, D(2), D(0, -4));
    in2[1] = &dup;
    kh_init(&h, "Squeeze", 13);
    expect_fail(&h, kh_run(&h, 2, in2), OSC_ERR_SHAPE, "repeats");
    kh_free(&h);
    kh_init(&h, "Squeeze", 13);
    kh_attr_ints(&h, "axes", D(0), 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "axes");
    kh_free(&h);
}

static void unsqueeze_versions(void **state) {
    (void)state;
    osc_tensor x = T(OSC_FLOAT, 3, D(3, 4, 5), k_iota);
    kh h;
    const osc_tensor *in1[] = {&x};
    kh_init(&h, "Unsqueeze", 1);
    kh_attr_ints(&h, "axes", D(0, 4), 2);
    kh_expect_ok(&h, kh_run(&h, 1, in1));
    osc_check_shape(&h.out, OSC_FLOAT, 5, D(1, 3, 4, 5, 1));
    osc_check_bytes(&h.out, k_iota, 60 * sizeof(float));
    kh_free(&h);
    kh_init(&h, "Unsqueeze", 12);
    assert_int_equal(h.k.since_version, 11);
    kh_attr_ints(&h, "axes", D(-1), 1);
    kh_expect_ok(&h, kh_run(&h, 1, in1));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(3, 4, 5, 1));
    kh_free(&h);
    kh_init(&h, "Unsqueeze", 11); /* required before 13 */
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "axes");
    kh_free(&h);
    /* from 13: unsorted axes [5,4,2] -> [3,4,1,5,1,1]; three axes [2,4,5] likewise */
    osc_tensor ax = T(OSC_INT64, 1, D(3), D(5, 4, 2));
    const osc_tensor *in2[] = {&x, &ax};
    kh_init(&h, "Unsqueeze", 13);
    kh_expect_ok(&h, kh_run(&h, 2, in2));
    osc_check_shape(&h.out, OSC_FLOAT, 6, D(3, 4, 1, 5, 1, 1));
    expect_mask_exact(&h, 2, in2, 1);
    kh_free(&h);
    osc_tensor neg = T(OSC_INT64, 1, D(1), D(-2));
    in2[1] = &neg;
    kh_init(&h, "Unsqueeze", 25);
    kh_expect_ok(&h, kh_run(&h, 2, in2));
    osc_check_shape(&h.out, OSC_FLOAT, 4, D(3, 4, 1, 5));
    kh_free(&h);
    osc_tensor dup = T(OSC_INT64, 1, D(2), D(1, 1));
    in2[1] = &dup;
    kh_init(&h, "Unsqueeze", 13);
    expect_fail(&h, kh_run(&h, 2, in2), OSC_ERR_SHAPE, "repeats");
    kh_free(&h);
    osc_tensor oor = T(OSC_INT64, 1, D(1), D(4));
    in2[1] = &oor;
    kh_init(&h, "Unsqueeze", 13);
    expect_fail(&h, kh_run(&h, 2, in2), OSC_ERR_SHAPE, "[-4, 3]");
    kh_free(&h);
    /* a scalar becomes [1] */
    osc_tensor s = T(OSC_FLOAT, 0, NULL, k_iota), z = T(OSC_INT64, 1, D(1), D(0));
    in2[0] = &s;
    in2[1] = &z;
    kh_init(&h, "Unsqueeze", 13);
    kh_expect_ok(&h, kh_run(&h, 2, in2));
    osc_check_shape(&h.out, OSC_FLOAT, 1, D(1));
    kh_free(&h);
}

/* ======================= Expand / Tile ======================= */

static void expand_spec_and_errors(void **state) {
    (void)state;
    const float x3[] = {1, 2, 3};
    osc_tensor x = T(OSC_FLOAT, 2, D(3, 1), x3), s = T(OSC_INT64, 1, D(3), D(2, 1, 6));
    const osc_tensor *in[] = {&x, &s};
    kh h;
    /* dim_changed: [3,1] to [2,1,6] -> [2,3,6] */
    kh_init(&h, "Expand", 8);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(2, 3, 6));
    for (int32_t i = 0; i < 36; i++)
        assert_true(((const float *)h.out.data)[i] == (float)(1 + (i / 6) % 3));
    expect_mask_exact(&h, 2, in, 1);
    kh_free(&h);
    /* dim_unchanged: [3,1] to [3,4] */
    osc_tensor s2 = T(OSC_INT64, 1, D(2), D(3, 4));
    in[1] = &s2;
    kh_init(&h, "Expand", 13);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_bytes(&h.out, (const float[]){1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}, 48);
    kh_free(&h);
    /* a shape smaller than the input keeps the input's dims: [3,1] with [1] -> [3,1] */
    osc_tensor s3 = T(OSC_INT64, 1, D(1), D(1));
    in[1] = &s3;
    kh_init(&h, "Expand", 13);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(3, 1));
    kh_free(&h);
    /* incompatible and negative dims */
    osc_tensor s4 = T(OSC_INT64, 1, D(2), D(2, 4));
    in[1] = &s4;
    kh_init(&h, "Expand", 13);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "does not broadcast");
    kh_free(&h);
    osc_tensor s5 = T(OSC_INT64, 1, D(2), D(-1, 1));
    in[1] = &s5;
    kh_init(&h, "Expand", 13);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "value -1");
    kh_free(&h);
    /* strings; a zero dim */
    const osc_string str[2] = {{"p", 1}, {"q", 1}};
    osc_tensor xs = T(OSC_STRING, 1, D(2), str), s6 = T(OSC_INT64, 1, D(2), D(2, 2));
    in[0] = &xs;
    in[1] = &s6;
    kh_init(&h, "Expand", 8);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    expect_strings(&h.out, (const char *const[]){"p", "q", "p", "q"}, 4);
    kh_free(&h);
    osc_tensor s7 = T(OSC_INT64, 1, D(2), D(0, 2));
    in[1] = &s7;
    kh_init(&h, "Expand", 8);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_shape(&h.out, OSC_STRING, 2, D(0, 2));
    kh_free(&h);
}

static void tile_cases(void **state) {
    (void)state;
    const int32_t a[] = {1, 2, 3, 4};
    osc_tensor x = T(OSC_INT32, 2, D(2, 2), a), r = T(OSC_INT64, 1, D(2), D(1, 2));
    const osc_tensor *in[] = {&x, &r};
    kh h;
    /* the spec's example */
    kh_init(&h, "Tile", 6);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_shape(&h.out, OSC_INT32, 2, D(2, 4));
    osc_check_bytes(&h.out, (const int32_t[]){1, 2, 1, 2, 3, 4, 3, 4}, 32);
    expect_mask_exact(&h, 2, in, 1);
    kh_free(&h);
    osc_tensor r2 = T(OSC_INT64, 1, D(2), D(2, 2));
    in[1] = &r2;
    kh_init(&h, "Tile", 13);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_bytes(&h.out, (const int32_t[]){1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4}, 64);
    kh_free(&h);
    osc_tensor r0 = T(OSC_INT64, 1, D(2), D(0, 3));
    in[1] = &r0;
    kh_init(&h, "Tile", 13);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_shape(&h.out, OSC_INT32, 2, D(0, 6));
    kh_free(&h);
    osc_tensor r1 = T(OSC_INT64, 1, D(1), D(2));
    in[1] = &r1;
    kh_init(&h, "Tile", 13);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "rank 2");
    kh_free(&h);
    osc_tensor rn = T(OSC_INT64, 1, D(2), D(1, -1));
    in[1] = &rn;
    kh_init(&h, "Tile", 13);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "value -1 at position 1");
    kh_free(&h);
}

/* ======================= Concat ======================= */

static void concat_axes(void **state) {
    (void)state;
    const int64_t a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8};
    osc_tensor x = T(OSC_INT64, 2, D(2, 2), a), y = T(OSC_INT64, 2, D(2, 2), b);
    const osc_tensor *in[] = {&x, &y};
    kh h;
    kh_init(&h, "Concat", 4);
    kh_attr_int(&h, "axis", 0);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_shape(&h.out, OSC_INT64, 2, D(4, 2));
    osc_check_bytes(&h.out, D(1, 2, 3, 4, 5, 6, 7, 8), 64);
    kh_free(&h);
    const int64_t axes[] = {1, -1};
    for (int32_t i = 0; i < 2; i++) {
        kh_init(&h, "Concat", 13);
        kh_attr_int(&h, "axis", axes[i]);
        kh_expect_ok(&h, kh_run(&h, 2, in));
        osc_check_shape(&h.out, OSC_INT64, 2, D(2, 4));
        osc_check_bytes(&h.out, D(1, 2, 5, 6, 3, 4, 7, 8), 64);
        kh_free(&h);
    }
    /* three inputs, one of them empty along the axis */
    osc_tensor e = T(OSC_INT64, 2, D(2, 0), k_empty), one = T(OSC_INT64, 2, D(2, 1), D(9, 10));
    const osc_tensor *in3[] = {&x, &e, &one};
    kh_init(&h, "Concat", 11);
    kh_attr_int(&h, "axis", 1);
    kh_expect_ok(&h, kh_run(&h, 3, in3));
    osc_check_shape(&h.out, OSC_INT64, 2, D(2, 3));
    osc_check_bytes(&h.out, D(1, 2, 9, 3, 4, 10), 48);
    expect_mask_exact(&h, 3, in3, 1);
    kh_free(&h);
    /* strings */
    const osc_string s1[] = {{"a", 1}}, s2[] = {{"b", 1}, {"c", 1}};
    osc_tensor xs = T(OSC_STRING, 1, D(1), s1), ys = T(OSC_STRING, 1, D(2), s2);
    const osc_tensor *ins[] = {&xs, &ys};
    kh_init(&h, "Concat", 13);
    kh_attr_int(&h, "axis", 0);
    kh_expect_ok(&h, kh_run(&h, 2, ins));
    expect_strings(&h.out, (const char *const[]){"a", "b", "c"}, 3);
    kh_free(&h);
}

/* Rows of every size along axis 1, the sizes that move as one value (4, 8, 12, 16 bytes) among
 * them, each input's bytes at its offset in every row (the want built byte by byte here). */
static void concat_row_sizes(void **state) {
    (void)state;
    enum { ROWS = 5, MAXW = 17 };
    uint8_t a[ROWS * MAXW], b[ROWS * 12], want[ROWS * (MAXW + 12)];
    for (int32_t i = 0; i < ROWS * MAXW; i++) a[i] = (uint8_t)(i + 1);
    for (int32_t i = 0; i < ROWS * 12; i++) b[i] = (uint8_t)(200 + i);
    for (int64_t w = 1; w <= MAXW; w++) {
        osc_tensor x = T(OSC_UINT8, 2, D(ROWS, w), a), y = T(OSC_UINT8, 2, D(ROWS, 12), b);
        const osc_tensor *in[] = {&x, &y};
        for (int64_t r = 0; r < ROWS; r++)
            for (int64_t c = 0; c < w + 12; c++)
                want[r * (w + 12) + c] = c < w ? a[r * w + c] : b[r * 12 + c - w];
        kh h;
        kh_init(&h, "Concat", 13);
        kh_attr_int(&h, "axis", 1);
        kh_expect_ok(&h, kh_run(&h, 2, in));
        osc_check_shape(&h.out, OSC_UINT8, 2, D(ROWS, w + 12));
        osc_check_bytes(&h.out, want, (size_t)(ROWS * (w + 12)));
        kh_free(&h);
    }
}

static void concat_errors(void **state) {
    (void)state;
    const int64_t a[6] = {0};
    osc_tensor x = T(OSC_INT64, 2, D(2, 3), a), y = T(OSC_INT64, 2, D(3, 3), a),
               f = T(OSC_FLOAT, 2, D(2, 3), a), s = T(OSC_INT64, 0, NULL, a);
    kh h;
    const osc_tensor *in[] = {&x, &y};
    kh_init(&h, "Concat", 13);
    kh_attr_int(&h, "axis", 1);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "except in dim 1");
    kh_free(&h);
    in[1] = &f;
    kh_init(&h, "Concat", 13);
    kh_attr_int(&h, "axis", 0);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "dtype float");
    kh_free(&h);
    kh_init(&h, "Concat", 13);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "'axis' is required");
    kh_free(&h);
    in[1] = &x;
    kh_init(&h, "Concat", 13);
    kh_attr_int(&h, "axis", 2);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_MODEL, "[-2, 1]");
    kh_free(&h);
    in[0] = &s;
    in[1] = &s;
    kh_init(&h, "Concat", 13);
    kh_attr_int(&h, "axis", 0);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "scalars");
    kh_free(&h);
}

/* ======================= Gather ======================= */

static void gather_spec_examples(void **state) {
    (void)state;
    const float d1[] = {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f};
    osc_tensor data = T(OSC_FLOAT, 2, D(3, 2), d1), idx = T(OSC_INT64, 2, D(2, 2), D(0, 1, 1, 2));
    const osc_tensor *in[] = {&data, &idx};
    const int64_t versions[] = {1, 11, 13};
    kh h;
    for (int32_t v = 0; v < 3; v++) {
        kh_init(&h, "Gather", versions[v]);
        kh_expect_ok(&h, kh_run(&h, 2, in));
        osc_check_shape(&h.out, OSC_FLOAT, 3, D(2, 2, 2));
        osc_check_bytes(&h.out,
                        (const float[]){1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f, 4.5f, 5.7f}, 32);
        expect_mask_exact(&h, 2, in, 1);
        kh_free(&h);
    }
    const float d2[] = {1.0f, 1.2f, 1.9f, 2.3f, 3.4f, 3.9f, 4.5f, 5.7f, 5.9f};
    const int32_t i2[] = {0, 2};
    osc_tensor data2 = T(OSC_FLOAT, 2, D(3, 3), d2), idx2 = T(OSC_INT32, 2, D(1, 2), i2);
    const osc_tensor *in2[] = {&data2, &idx2};
    kh_init(&h, "Gather", 13);
    kh_attr_int(&h, "axis", 1);
    kh_expect_ok(&h, kh_run(&h, 2, in2));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(3, 1, 2));
    osc_check_bytes(&h.out, (const float[]){1.0f, 1.9f, 2.3f, 3.9f, 4.5f, 5.9f}, 24);
    kh_free(&h);
}

static void gather_negative_scalar_empty(void **state) {
    (void)state;
    /* negative indices: arange(10)[[0,-9,-10]] = [0,1,0] */
    osc_tensor data = T(OSC_FLOAT, 1, D(10), k_iota), idx = T(OSC_INT64, 1, D(3), D(0, -9, -10));
    const osc_tensor *in[] = {&data, &idx};
    kh h;
    kh_init(&h, "Gather", 13);
    kh_expect_ok(&h, kh_run(&h, 2, in));
    osc_check_bytes(&h.out, (const float[]){0, 1, 0}, 12);
    kh_free(&h);
    /* a scalar index drops the axis: [4,5] axis 1, index -1 -> column 4 */
    osc_tensor d2 = T(OSC_FLOAT, 2, D(4, 5), k_iota), s = T(OSC_INT64, 0, NULL, D(-1));
    const osc_tensor *in2[] = {&d2, &s};
    kh_init(&h, "Gather", 11);
    kh_attr_int(&h, "axis", -1);
    kh_expect_ok(&h, kh_run(&h, 2, in2));
    osc_check_shape(&h.out, OSC_FLOAT, 1, D(4));
    osc_check_bytes(&h.out, (const float[]){4, 9, 14, 19}, 16);
    kh_free(&h);
    /* no indices: an empty output */
    osc_tensor none = T(OSC_INT64, 1, D(0), k_empty);
    in2[1] = &none;
    kh_init(&h, "Gather", 13);
    kh_expect_ok(&h, kh_run(&h, 2, in2));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(0, 5));
    kh_free(&h);
}

static void gather_out_of_range_untouched(void **state) {
    (void)state;
    osc_tensor data = T(OSC_FLOAT, 2, D(3, 2), k_iota);
    const int64_t bad[][3] = {{3, 0, 0}, {0, 1, -4}, {0, 0, INT64_MIN}};
    const char *msg[] = {"value 3 is out of range [-3, 2]", "flat position 2: value -4",
                         "out of range [-3, 2]"};
    for (int32_t i = 0; i < 3; i++) {
        osc_tensor idx = T(OSC_INT64, 1, D(3), bad[i]);
        const osc_tensor *in[] = {&data, &idx};
        kh h;
        kh_init(&h, "Gather", 13);
        expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_INDEX, msg[i]);
        expect_untouched(&h.out);
        kh_free(&h);
    }
    /* int32 and float indices */
    const int32_t i32[] = {5};
    osc_tensor idx = T(OSC_INT32, 1, D(1), i32);
    const osc_tensor *in[] = {&data, &idx};
    kh h;
    kh_init(&h, "Gather", 13);
    kh_attr_int(&h, "axis", 0);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_INDEX, "value 5");
    expect_untouched(&h.out);
    kh_free(&h);
    osc_tensor fidx = T(OSC_FLOAT, 1, D(1), k_iota);
    in[1] = &fidx;
    kh_init(&h, "Gather", 13);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "int32 or int64");
    kh_free(&h);
    osc_tensor s = T(OSC_FLOAT, 0, NULL, k_iota), i0 = T(OSC_INT64, 1, D(1), D(0));
    in[0] = &s;
    in[1] = &i0;
    kh_init(&h, "Gather", 13);
    expect_fail(&h, kh_run(&h, 2, in), OSC_ERR_SHAPE, "rank 0");
    kh_free(&h);
}

/* ======================= Slice ======================= */

static osc_status slice(kh *h, int64_t opset, osc_tensor data, const int64_t *starts,
                        const int64_t *ends, const int64_t *axes, const int64_t *steps, int64_t n) {
    osc_tensor d, t[4];
    const int64_t *v[4] = {starts, ends, axes, steps};
    const osc_tensor *in[5] = {&d, NULL, NULL, NULL, NULL};
    int32_t n_in = 1;
    d = data;
    kh_init(h, "Slice", opset);
    if (opset < 10) {
        const char *names[3] = {"starts", "ends", "axes"};
        for (int32_t j = 0; j < 3; j++)
            if (v[j]) kh_attr_ints(h, names[j], v[j], (size_t)n);
    } else {
        for (int32_t j = 0; j < 4; j++) {
            if (!v[j]) continue;
            t[j] = T(OSC_INT64, 1, D(n), v[j]);
            in[j + 1] = &t[j];
            n_in = j + 2;
        }
    }
    osc_status st = kh_run(h, n_in, in);
    if (!st) expect_mask_exact(h, n_in, in, 1);
    return st;
}

static void slice_spec_examples(void **state) {
    (void)state;
    const float x[] = {1, 2, 3, 4, 5, 6, 7, 8};
    osc_tensor data = T(OSC_FLOAT, 2, D(2, 4), x);
    kh h;
    /* Slice-1 example 1 and 2 (attributes) */
    kh_expect_ok(&h, slice(&h, 1, data, D(1, 0), D(2, 3), D(0, 1), NULL, 2));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(1, 3));
    osc_check_bytes(&h.out, (const float[]){5, 6, 7}, 12);
    kh_free(&h);
    kh_expect_ok(&h, slice(&h, 9, data, D(0, 1), D(-1, 1000), NULL, NULL, 2));
    osc_check_bytes(&h.out, (const float[]){2, 3, 4}, 12);
    kh_free(&h);
    /* Slice-13 example 1 (steps) and 2 */
    kh_expect_ok(&h, slice(&h, 13, data, D(1, 0), D(2, 3), D(0, 1), D(1, 2), 2));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(1, 2));
    osc_check_bytes(&h.out, (const float[]){5, 7}, 8);
    kh_free(&h);
    kh_expect_ok(&h, slice(&h, 10, data, D(0, 1), D(-1, 1000), NULL, NULL, 2));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(1, 3));
    osc_check_bytes(&h.out, (const float[]){2, 3, 4}, 12);
    kh_free(&h);
}

static void slice_steps_and_clamping(void **state) {
    (void)state;
    osc_tensor v10 = T(OSC_FLOAT, 1, D(10), k_iota);
    kh h;
    /* 8, 5, 2 */
    kh_expect_ok(&h, slice(&h, 13, v10, D(8), D(1), NULL, D(-3), 1));
    osc_check_bytes(&h.out, (const float[]){8, 5, 2}, 12);
    kh_free(&h);
    /* INT64_MAX .. INT64_MIN backwards: the whole vector reversed */
    kh_expect_ok(&h, slice(&h, 11, v10, D(INT64_MAX), D(INT64_MIN), D(0), D(-1), 1));
    osc_check_bytes(&h.out, (const float[]){9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 40);
    kh_free(&h);
    /* a start past the end is empty; an end past the end clamps; a huge step takes one */
    kh_expect_ok(&h, slice(&h, 13, v10, D(1000), D(2000), NULL, NULL, 1));
    osc_check_shape(&h.out, OSC_FLOAT, 1, D(0));
    kh_free(&h);
    kh_expect_ok(&h, slice(&h, 13, v10, D(7), D(1000), NULL, NULL, 1));
    osc_check_bytes(&h.out, (const float[]){7, 8, 9}, 12);
    kh_free(&h);
    kh_expect_ok(&h, slice(&h, 13, v10, D(-3), D(INT64_MAX), NULL, D(INT64_MAX), 1));
    osc_check_bytes(&h.out, (const float[]){7}, 4);
    kh_free(&h);
    kh_expect_ok(&h, slice(&h, 13, v10, D(-1), D(-100), NULL, D(INT64_MIN), 1));
    osc_check_bytes(&h.out, (const float[]){9}, 4);
    kh_free(&h);
    /* 2-D, negative axis, step 2 on the columns of a [3,4]: columns 3, 1 */
    osc_tensor m = T(OSC_FLOAT, 2, D(3, 4), k_iota);
    kh_expect_ok(&h, slice(&h, 13, m, D(-1), D(-5), D(-1), D(-2), 1));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(3, 2));
    osc_check_bytes(&h.out, (const float[]){3, 1, 7, 5, 11, 9}, 24);
    kh_free(&h);
    /* a zero-size dim */
    osc_tensor z = T(OSC_FLOAT, 2, D(0, 4), k_empty);
    kh_expect_ok(&h, slice(&h, 13, z, D(0, 1), D(5, 3), NULL, D(-1, 1), 2));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(0, 2));
    kh_free(&h);
}

static void slice_errors(void **state) {
    (void)state;
    osc_tensor m = T(OSC_FLOAT, 2, D(3, 4), k_iota);
    kh h;
    expect_fail(&h, slice(&h, 13, m, D(0), D(1), NULL, D(0), 1), OSC_ERR_SHAPE, "steps cannot");
    kh_free(&h);
    expect_fail(&h, slice(&h, 13, m, D(0, 0), D(1, 1), D(1, -1), NULL, 2), OSC_ERR_SHAPE,
                "repeats");
    kh_free(&h);
    expect_fail(&h, slice(&h, 13, m, D(0), D(1), D(2), NULL, 1), OSC_ERR_SHAPE, "[-2, 1]");
    kh_free(&h);
    expect_fail(&h, slice(&h, 13, m, D(0, 0, 0), D(1, 1, 1), NULL, NULL, 3), OSC_ERR_SHAPE,
                "rank 2");
    kh_free(&h);
    /* lengths differ */
    osc_tensor s = T(OSC_INT64, 1, D(2), D(0, 0)), e = T(OSC_INT64, 1, D(1), D(1));
    const osc_tensor *in[] = {&m, &s, &e};
    kh_init(&h, "Slice", 13);
    expect_fail(&h, kh_run(&h, 3, in), OSC_ERR_SHAPE, "must match");
    kh_free(&h);
    /* Tind binds starts and ends: int32 with int64 is refused, int32 alone works */
    const int32_t s32[] = {1}, e32[] = {3};
    osc_tensor s1 = T(OSC_INT32, 1, D(1), s32), e1 = T(OSC_INT32, 1, D(1), e32);
    in[1] = &s1;
    in[2] = &e;
    kh_init(&h, "Slice", 13);
    expect_fail(&h, kh_run(&h, 3, in), OSC_ERR_SHAPE, "must match");
    kh_free(&h);
    in[2] = &e1;
    kh_init(&h, "Slice", 13);
    kh_expect_ok(&h, kh_run(&h, 3, in));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(2, 4));
    osc_check_bytes(&h.out, k_iota + 4, 32);
    kh_free(&h);
    /* Slice-1 needs starts and ends; knows no steps */
    kh_init(&h, "Slice", 1);
    kh_attr_ints(&h, "starts", D(0), 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "'ends'");
    kh_free(&h);
    kh_init(&h, "Slice", 13);
    kh_attr_ints(&h, "starts", D(0), 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "starts");
    kh_free(&h);
}

/* ======================= Transpose ======================= */

static void transpose_cases(void **state) {
    (void)state;
    osc_tensor x = T(OSC_FLOAT, 3, D(2, 3, 4), k_iota);
    const osc_tensor *in[] = {&x};
    kh h;
    /* default: reversed dims; out[k][j][i] = x[i][j][k] = 12i + 4j + k */
    kh_init(&h, "Transpose", 1);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(4, 3, 2));
    for (int32_t k = 0, p = 0; k < 4; k++)
        for (int32_t j = 0; j < 3; j++)
            for (int32_t i = 0; i < 2; i++, p++)
                assert_true(((const float *)h.out.data)[p] == (float)(12 * i + 4 * j + k));
    kh_free(&h);
    /* every permutation of 3 axes against the formula */
    static const int64_t perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                        {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const int64_t dims[3] = {2, 3, 4}, stride[3] = {12, 4, 1};
    for (int32_t q = 0; q < 6; q++) {
        kh_init(&h, "Transpose", 13);
        kh_attr_ints(&h, "perm", perms[q], 3);
        kh_expect_ok(&h, kh_run(&h, 1, in));
        const int64_t *pm = perms[q];
        osc_check_shape(&h.out, OSC_FLOAT, 3, D(dims[pm[0]], dims[pm[1]], dims[pm[2]]));
        int32_t p = 0;
        for (int64_t a = 0; a < dims[pm[0]]; a++)
            for (int64_t b = 0; b < dims[pm[1]]; b++)
                for (int64_t c = 0; c < dims[pm[2]]; c++, p++)
                    assert_true(((const float *)h.out.data)[p] ==
                                (float)(a * stride[pm[0]] + b * stride[pm[1]] + c * stride[pm[2]]));
        kh_free(&h);
    }
    /* bad perms */
    static const struct { int64_t v[3]; size_t n; const char *msg; } bad[] = {
        {{0, 1}, 2, "rank 3"}, {{0, 0, 1}, 3, "repeated"}, {{0, 1, 3}, 3, "out of range"},
        {{-1, 0, 1}, 3, "out of range"}};
    for (int32_t i = 0; i < N(bad); i++) {
        kh_init(&h, "Transpose", 25);
        kh_attr_ints(&h, "perm", bad[i].v, bad[i].n);
        expect_fail(&h, kh_run(&h, 1, in), OSC_ERR_SHAPE, bad[i].msg);
        kh_free(&h);
    }
}

/* Every permutation of 4 axes of [3, 17, 5, 19] (dims past the 16-element copy tiles), for
 * elements of 1, 2, 4 and 8 bytes: each output element is the input element its index names
 * (the values are their own flat indices, wrapped to the type). */
#define TR_SIZES(X) X(OSC_UINT8, uint8_t) X(OSC_INT16, int16_t) X(OSC_INT32, int32_t)         \
    X(OSC_INT64, int64_t)
static void transpose_all_perms_sizes(void **state) {
    (void)state;
    const int64_t dims[4] = {3, 17, 5, 19}, stride[4] = {17 * 5 * 19, 5 * 19, 19, 1};
    enum { TR_N = 3 * 17 * 5 * 19 };
    for (int q = 0; q < 256; q++) { /* q's four base-4 digits, when they are a permutation */
        const int64_t perm[4] = {q & 3, (q >> 2) & 3, (q >> 4) & 3, q >> 6};
        if ((1 << perm[0] | 1 << perm[1] | 1 << perm[2] | 1 << perm[3]) != 15) continue;
#define TR_CASE(E, TY)                                                                         \
    {                                                                                          \
        static TY x[TR_N];                                                                     \
        for (int64_t i = 0; i < TR_N; i++) x[i] = (TY)i;                                       \
        osc_tensor t = T(E, 4, dims, x);                                                       \
        const osc_tensor *in[] = {&t};                                                         \
        kh h;                                                                                  \
        kh_init(&h, "Transpose", 13);                                                          \
        kh_attr_ints(&h, "perm", perm, 4);                                                     \
        kh_expect_ok(&h, kh_run(&h, 1, in));                                                   \
        const TY *y = h.out.data;                                                              \
        int64_t p = 0;                                                                         \
        for (int64_t a = 0; a < dims[perm[0]]; a++)                                            \
            for (int64_t b = 0; b < dims[perm[1]]; b++)                                        \
                for (int64_t c = 0; c < dims[perm[2]]; c++)                                    \
                    for (int64_t d = 0; d < dims[perm[3]]; d++, p++) {                         \
                        const int64_t src = a * stride[perm[0]] + b * stride[perm[1]] +       \
                                            c * stride[perm[2]] + d * stride[perm[3]];        \
                        if (y[p] != (TY)src)                                                   \
                            fail_msg("%s perm %lld %lld %lld %lld: output %lld is input "      \
                                     "element %lld's?", #TY, (long long)perm[0],              \
                                     (long long)perm[1], (long long)perm[2],                   \
                                     (long long)perm[3], (long long)p, (long long)src);        \
                    }                                                                          \
        kh_free(&h);                                                                           \
    }
        TR_SIZES(TR_CASE)
#undef TR_CASE
    }
}

static void transpose_packed_and_strings(void **state) {
    (void)state;
    /* int4 [[1,2,3],[4,5,6]] -> [[1,4],[2,5],[3,6]], low nibble first */
    const uint8_t p[] = {0x21, 0x43, 0x65};
    osc_tensor x = T(OSC_INT4, 2, D(2, 3), p);
    const osc_tensor *in[] = {&x};
    kh h;
    kh_init(&h, "Transpose", 21);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_INT4, 2, D(3, 2));
    osc_check_bytes(&h.out, (const uint8_t[]){0x41, 0x52, 0x63}, 3);
    kh_free(&h);
    kh_init(&h, "Transpose", 13);
    expect_fail(&h, kh_run(&h, 1, in), OSC_ERR_SHAPE, "int4");
    kh_free(&h);
    const osc_string s[] = {{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}};
    osc_tensor xs = T(OSC_STRING, 2, D(2, 2), s);
    in[0] = &xs;
    kh_init(&h, "Transpose", 13);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    expect_strings(&h.out, (const char *const[]){"a", "c", "b", "d"}, 4);
    kh_free(&h);
}

/* ======================= Range ======================= */

static osc_status range3(kh *h, int64_t opset, int32_t dtype, const void *s, const void *l,
                         const void *d) {
    osc_tensor t[3];
    t[0] = T(dtype, 0, NULL, s);
    t[1] = T(dtype, 0, NULL, l);
    t[2] = T(dtype, 0, NULL, d);
    const osc_tensor *in[] = {&t[0], &t[1], &t[2]};
    kh_init(h, "Range", opset);
    osc_status st = kh_run(h, 3, in);
    if (!st) expect_mask_exact(h, 3, in, 1);
    return st;
}

static void range_examples_and_types(void **state) {
    (void)state;
    kh h;
    /* 3, 9, 3 -> [3, 6]; 10, 4, -2 -> [10, 8, 6] */
    kh_expect_ok(&h, range3(&h, 11, OSC_INT32, (const int32_t[]){3}, (const int32_t[]){9},
                         (const int32_t[]){3}));
    osc_check_shape(&h.out, OSC_INT32, 1, D(2));
    osc_check_bytes(&h.out, (const int32_t[]){3, 6}, 8);
    kh_free(&h);
    kh_expect_ok(&h, range3(&h, 11, OSC_INT16, (const int16_t[]){10}, (const int16_t[]){4},
                         (const int16_t[]){-2}));
    osc_check_bytes(&h.out, (const int16_t[]){10, 8, 6}, 6);
    kh_free(&h);
    kh_expect_ok(&h, range3(&h, 11, OSC_FLOAT, (const float[]){1}, (const float[]){5},
                         (const float[]){2}));
    osc_check_bytes(&h.out, (const float[]){1, 3}, 8);
    kh_free(&h);
    kh_expect_ok(&h, range3(&h, 11, OSC_DOUBLE, (const double[]){0.5}, (const double[]){2},
                         (const double[]){0.5}));
    osc_check_bytes(&h.out, (const double[]){0.5, 1, 1.5}, 24);
    kh_free(&h);
    /* float16 and bfloat16 from 27: 1, 5, 2 -> [1, 3] */
    const uint16_t h1[] = {0x3c00}, h5[] = {0x4500}, h2[] = {0x4000};
    kh_expect_ok(&h, range3(&h, 27, OSC_FLOAT16, h1, h5, h2));
    osc_check_bytes(&h.out, (const uint16_t[]){0x3c00, 0x4200}, 4);
    kh_free(&h);
    const uint16_t b1[] = {0x3f80}, b5[] = {0x40a0}, b2[] = {0x4000};
    kh_expect_ok(&h, range3(&h, 27, OSC_BFLOAT16, b1, b5, b2));
    osc_check_bytes(&h.out, (const uint16_t[]){0x3f80, 0x4040}, 4);
    kh_free(&h);
    expect_fail(&h, range3(&h, 26, OSC_FLOAT16, h1, h5, h2), OSC_ERR_SHAPE, "float16");
    kh_free(&h);
    /* int64 across the whole range without overflow: -2^63, -2^62, 0, 2^62 */
    kh_expect_ok(&h, range3(&h, 11, OSC_INT64, D(INT64_MIN), D(INT64_MAX), D(INT64_C(1) << 62)));
    osc_check_bytes(&h.out, D(INT64_MIN, -(INT64_C(1) << 62), 0, INT64_C(1) << 62), 32);
    kh_free(&h);
}

static void range_edges_and_errors(void **state) {
    (void)state;
    kh h;
    /* empty ranges */
    kh_expect_ok(&h, range3(&h, 11, OSC_INT32, (const int32_t[]){5}, (const int32_t[]){5},
                         (const int32_t[]){1}));
    osc_check_shape(&h.out, OSC_INT32, 1, D(0));
    kh_free(&h);
    kh_expect_ok(&h, range3(&h, 11, OSC_FLOAT, (const float[]){0}, (const float[]){5},
                         (const float[]){-1}));
    osc_check_shape(&h.out, OSC_FLOAT, 1, D(0));
    kh_free(&h);
    expect_fail(&h, range3(&h, 11, OSC_INT32, (const int32_t[]){0}, (const int32_t[]){5},
                           (const int32_t[]){0}), OSC_ERR_SHAPE, "is 0");
    kh_free(&h);
    const float nan[] = {NAN};
    expect_fail(&h, range3(&h, 11, OSC_FLOAT, (const float[]){0}, nan, (const float[]){1}),
                OSC_ERR_SHAPE, "NaN");
    kh_free(&h);
    expect_fail(&h, range3(&h, 11, OSC_FLOAT, (const float[]){0}, (const float[]){INFINITY},
                           (const float[]){1}), OSC_ERR_LIMIT, NULL);
    kh_free(&h);
    /* mixed types; stash_type only from 27 */
    osc_tensor a = T(OSC_INT32, 0, NULL, (const int32_t[]){0}),
               b = T(OSC_INT64, 0, NULL, D(3));
    const osc_tensor *in[] = {&a, &b, &a};
    kh_init(&h, "Range", 11);
    expect_fail(&h, kh_run(&h, 3, in), OSC_ERR_SHAPE, "must match");
    kh_free(&h);
    kh_init(&h, "Range", 11);
    kh_attr_int(&h, "stash_type", 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "stash_type");
    kh_free(&h);
    /* float16 computed in float16 (stash_type 10): not what Range-27 describes */
    const uint16_t h1[] = {0x3c00}, h5[] = {0x4500};
    osc_tensor t[2] = {T(OSC_FLOAT16, 0, NULL, h1), T(OSC_FLOAT16, 0, NULL, h5)};
    kh_init(&h, "Range", 27);
    kh_attr_int(&h, "stash_type", OSC_FLOAT16);
    expect_fail(&h, kh_run(&h, 3, (const osc_tensor *[]){&t[0], &t[1], &t[0]}),
                OSC_ERR_UNSUPPORTED, "'stash_type' = 10: float16 and bfloat16 ranges");
    kh_free(&h);
    /* -2^63 to 2^63-1 by 1: 2^64-1 elements */
    expect_fail(&h, range3(&h, 11, OSC_INT64, D(INT64_MIN), D(INT64_MAX), D(1)), OSC_ERR_LIMIT,
                "the range has 18446744073709551615 elements; at most 2^63-1");
    kh_free(&h);
}

/* ======================= NonZero ======================= */

static void nonzero_cases(void **state) {
    (void)state;
    /* the spec's example: [[1,0],[1,1]] -> [[0,1,1],[0,0,1]] */
    const uint8_t b[] = {1, 0, 1, 1};
    osc_tensor x = T(OSC_BOOL, 2, D(2, 2), b);
    const osc_tensor *in[] = {&x};
    kh h;
    kh_init(&h, "NonZero", 9);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_INT64, 2, D(2, 3));
    osc_check_bytes(&h.out, D(0, 1, 1, 0, 0, 1), 48);
    expect_mask_exact(&h, 1, in, 1);
    kh_free(&h);
    /* NaN is non-zero, -0.0 is zero */
    const float f[] = {-0.0f, NAN, 0.0f, 2};
    osc_tensor xf = T(OSC_FLOAT, 1, D(4), f);
    in[0] = &xf;
    kh_init(&h, "NonZero", 13);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_INT64, 2, D(1, 2));
    osc_check_bytes(&h.out, D(1, 3), 16);
    kh_free(&h);
    /* a scalar: shape [0, 1] */
    osc_tensor s = T(OSC_INT32, 0, NULL, (const int32_t[]){5});
    in[0] = &s;
    kh_init(&h, "NonZero", 13);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_INT64, 2, D(0, 1));
    kh_free(&h);
    /* strings: non-empty counts; bfloat16 only from 13 */
    const osc_string str[] = {{"", 0}, {"x", 1}};
    osc_tensor xs = T(OSC_STRING, 1, D(2), str);
    in[0] = &xs;
    kh_init(&h, "NonZero", 9);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_bytes(&h.out, D(1), 8);
    kh_free(&h);
    const uint16_t bf[] = {0x8000, 0x3f80};
    osc_tensor xb = T(OSC_BFLOAT16, 1, D(2), bf);
    in[0] = &xb;
    kh_init(&h, "NonZero", 9);
    expect_fail(&h, kh_run(&h, 1, in), OSC_ERR_SHAPE, "bfloat16");
    kh_free(&h);
    kh_init(&h, "NonZero", 13);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_bytes(&h.out, D(1), 8);
    kh_free(&h);
    /* zero-size input */
    osc_tensor z = T(OSC_FLOAT, 2, D(0, 3), k_empty);
    in[0] = &z;
    kh_init(&h, "NonZero", 13);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_INT64, 2, D(2, 0));
    kh_free(&h);
}

/* ======================= CumSum ======================= */

static osc_status cumsum(kh *h, int64_t opset, int exclusive, int reverse, osc_tensor x,
                         int64_t axis, bool inplace) {
    osc_tensor t[2];
    t[0] = x;
    t[1] = T(OSC_INT64, 0, NULL, D(axis));
    const osc_tensor *in[] = {&t[0], &t[1]};
    kh_init(h, "CumSum", opset);
    if (exclusive >= 0) kh_attr_int(h, "exclusive", exclusive);
    if (reverse >= 0) kh_attr_int(h, "reverse", reverse);
    osc_status st = inplace ? kh_run_inplace(h, 2, in) : kh_run(h, 2, in);
    if (!st) expect_mask_exact(h, 2, in, 1);
    return st;
}

static void cumsum_spec_examples(void **state) {
    (void)state;
    const double x[] = {1, 2, 3, 4, 5};
    static const struct { int e, r; double want[5]; } c[] = {
        {-1, -1, {1, 3, 6, 10, 15}}, {1, 0, {0, 1, 3, 6, 10}},
        {0, 1, {15, 14, 12, 9, 5}},  {1, 1, {14, 12, 9, 5, 0}},
    };
    for (int32_t i = 0; i < N(c); i++)
        for (int inplace = 0; inplace < 2; inplace++) {
            double buf[5];
            memcpy(buf, x, sizeof buf);
            kh h;
            kh_expect_ok(&h, cumsum(&h, 11, c[i].e, c[i].r, T(OSC_DOUBLE, 1, D(5), buf), 0,
                                 inplace));
            osc_check_bytes(&h.out, c[i].want, sizeof c[i].want);
            kh_free(&h);
        }
    /* 2-D: axis 0, axis 1, axis -1 */
    const float m[] = {1, 2, 3, 4, 5, 6};
    kh h;
    kh_expect_ok(&h, cumsum(&h, 14, -1, -1, T(OSC_FLOAT, 2, D(2, 3), m), 0, false));
    osc_check_bytes(&h.out, (const float[]){1, 2, 3, 5, 7, 9}, 24);
    kh_free(&h);
    kh_expect_ok(&h, cumsum(&h, 14, -1, -1, T(OSC_FLOAT, 2, D(2, 3), m), 1, false));
    osc_check_bytes(&h.out, (const float[]){1, 3, 6, 4, 9, 15}, 24);
    kh_free(&h);
    kh_expect_ok(&h, cumsum(&h, 14, 1, 1, T(OSC_FLOAT, 2, D(2, 3), m), -1, false));
    osc_check_bytes(&h.out, (const float[]){5, 3, 0, 11, 6, 0}, 24);
    kh_free(&h);
}

static void cumsum_types_and_errors(void **state) {
    (void)state;
    kh h;
    /* int32 wraps: INT32_MAX + 1 -> INT32_MIN */
    const int32_t w[] = {INT32_MAX, 1, 1};
    kh_expect_ok(&h, cumsum(&h, 11, -1, -1, T(OSC_INT32, 1, D(3), w), 0, false));
    osc_check_bytes(&h.out, (const int32_t[]){INT32_MAX, INT32_MIN, INT32_MIN + 1}, 12);
    kh_free(&h);
    /* float16 keeps the running sum in float16 (numpy): 2048 + 1 rounds to 2048 (ties to even)
     * each time, so [2048, 1, 1] -> [2048, 2048, 2048] */
    const uint16_t hx[] = {0x6800, 0x3c00, 0x3c00};
    kh_expect_ok(&h, cumsum(&h, 14, -1, -1, T(OSC_FLOAT16, 1, D(3), hx), 0, false));
    osc_check_bytes(&h.out, (const uint16_t[]){0x6800, 0x6800, 0x6800}, 6);
    kh_free(&h);
    expect_fail(&h, cumsum(&h, 11, -1, -1, T(OSC_FLOAT16, 1, D(3), hx), 0, false),
                OSC_ERR_SHAPE, "float16");
    kh_free(&h);
    /* axis out of range is found at run; exclusive is 0 or 1 */
    expect_fail(&h, cumsum(&h, 14, -1, -1, T(OSC_INT32, 1, D(3), w), 1, false), OSC_ERR_SHAPE,
                "[-1, 0]");
    expect_untouched(&h.out);
    kh_free(&h);
    kh_init(&h, "CumSum", 14);
    kh_attr_int(&h, "exclusive", 2);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "exclusive");
    kh_free(&h);
    /* zero-size x */
    kh_expect_ok(&h, cumsum(&h, 14, -1, -1, T(OSC_FLOAT, 2, D(0, 3), k_empty), 1, false));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(0, 3));
    kh_free(&h);
}

/* ======================= ReduceSum ======================= */

static const float k_rs[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; /* shape [3,2,2] */

static osc_status rsum13(kh *h, int64_t keepdims, int64_t noop, osc_tensor x,
                         const int64_t *axes, int64_t n) {
    osc_tensor t[2];
    t[0] = x;
    t[1] = T(OSC_INT64, 1, D(n), axes);
    const osc_tensor *in[] = {&t[0], &t[1]};
    kh_init(h, "ReduceSum", 13);
    if (keepdims >= 0) kh_attr_int(h, "keepdims", keepdims);
    if (noop >= 0) kh_attr_int(h, "noop_with_empty_axes", noop);
    int32_t n_in = axes ? 2 : 1;
    osc_status st = kh_run(h, n_in, in);
    if (!st) expect_mask_exact(h, n_in, in, 1);
    return st;
}

static void reduce_sum_spec_examples(void **state) {
    (void)state;
    osc_tensor x = T(OSC_FLOAT, 3, D(3, 2, 2), k_rs);
    kh h;
    /* axes [1], keepdims 1 -> [[[4,6]],[[12,14]],[[20,22]]] */
    kh_expect_ok(&h, rsum13(&h, 1, -1, x, D(1), 1));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(3, 1, 2));
    osc_check_bytes(&h.out, (const float[]){4, 6, 12, 14, 20, 22}, 24);
    kh_free(&h);
    kh_expect_ok(&h, rsum13(&h, 0, -1, x, D(-2), 1));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(3, 2));
    osc_check_bytes(&h.out, (const float[]){4, 6, 12, 14, 20, 22}, 24);
    kh_free(&h);
    /* default axes: everything, 78 */
    kh_expect_ok(&h, rsum13(&h, -1, -1, x, NULL, 0));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(1, 1, 1));
    osc_check_bytes(&h.out, (const float[]){78}, 4);
    kh_free(&h);
    /* noop_with_empty_axes: identity */
    kh_expect_ok(&h, rsum13(&h, -1, 1, x, k_empty, 0));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(3, 2, 2));
    osc_check_bytes(&h.out, k_rs, sizeof k_rs);
    kh_free(&h);
    /* two axes [0, 2] -> [3+... ]: sums over i and k: j=0: 1+2+5+6+9+10 = 33, j=1: 45 */
    kh_expect_ok(&h, rsum13(&h, 0, -1, x, D(0, 2), 2));
    osc_check_bytes(&h.out, (const float[]){33, 45}, 8);
    kh_free(&h);
    /* empty set: [2,0,4] over axis 1 -> zeros [2,1,4] */
    kh_expect_ok(&h, rsum13(&h, 1, -1, T(OSC_FLOAT, 3, D(2, 0, 4), k_empty), D(1), 1));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(2, 1, 4));
    for (int32_t i = 0; i < 8; i++) assert_true(((const float *)h.out.data)[i] == 0.0f);
    kh_free(&h);
}

static void reduce_sum_versions_and_types(void **state) {
    (void)state;
    osc_tensor x = T(OSC_FLOAT, 3, D(3, 2, 2), k_rs);
    const osc_tensor *in[] = {&x};
    kh h;
    /* axes attribute before 13 */
    kh_init(&h, "ReduceSum", 1);
    kh_attr_ints(&h, "axes", D(1), 1);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_bytes(&h.out, (const float[]){4, 6, 12, 14, 20, 22}, 24);
    kh_free(&h);
    kh_init(&h, "ReduceSum", 11);
    kh_attr_ints(&h, "axes", D(-1, 0), 2);
    kh_attr_int(&h, "keepdims", 0);
    kh_expect_ok(&h, kh_run(&h, 1, in));
    osc_check_shape(&h.out, OSC_FLOAT, 1, D(2));
    osc_check_bytes(&h.out, (const float[]){1 + 2 + 5 + 6 + 9 + 10, 3 + 4 + 7 + 8 + 11 + 12}, 8);
    kh_free(&h);
    kh_init(&h, "ReduceSum", 11);
    kh_attr_int(&h, "noop_with_empty_axes", 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "noop_with_empty_axes");
    kh_free(&h);
    kh_init(&h, "ReduceSum", 13);
    kh_attr_ints(&h, "axes", D(1), 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "axes");
    kh_free(&h);
    expect_fail(&h, rsum13(&h, 1, -1, x, D(1, -2), 2), OSC_ERR_SHAPE, "repeats");
    kh_free(&h);
    /* int32 wraps; uint64 */
    const int32_t w[] = {INT32_MAX, 2};
    kh_expect_ok(&h, rsum13(&h, 0, -1, T(OSC_INT32, 1, D(2), w), NULL, 0));
    osc_check_bytes(&h.out, (const int32_t[]){INT32_MIN + 1}, 4);
    kh_free(&h);
    /* float16: summed in float, rounded once: 2048 + 1 + 1 = 2050 exactly */
    const uint16_t hx[] = {0x6800, 0x3c00, 0x3c00};
    kh_expect_ok(&h, rsum13(&h, 0, -1, T(OSC_FLOAT16, 1, D(3), hx), NULL, 0));
    osc_check_bytes(&h.out, (const uint16_t[]){0x6801}, 2);
    kh_free(&h);
    /* a sum starts from the first element, so a lone -0.0 keeps its sign (numpy) */
    const float nz[] = {-0.0f};
    kh_expect_ok(&h, rsum13(&h, 0, -1, T(OSC_FLOAT, 1, D(1), nz), NULL, 0));
    assert_true(signbit(((const float *)h.out.data)[0]));
    kh_free(&h);
    /* bfloat16 from 13 only; int8 never */
    const uint16_t bx[] = {0x3f80, 0x4000};
    osc_tensor xb = T(OSC_BFLOAT16, 1, D(2), bx);
    in[0] = &xb;
    kh_init(&h, "ReduceSum", 11);
    expect_fail(&h, kh_run(&h, 1, in), OSC_ERR_SHAPE, "bfloat16");
    kh_free(&h);
    kh_expect_ok(&h, rsum13(&h, 0, -1, xb, NULL, 0));
    osc_check_bytes(&h.out, (const uint16_t[]){0x4040}, 2);
    kh_free(&h);
    osc_tensor x8 = T(OSC_INT8, 1, D(2), (const int8_t[]){1, 2});
    in[0] = &x8;
    kh_init(&h, "ReduceSum", 13);
    expect_fail(&h, kh_run(&h, 1, in), OSC_ERR_SHAPE, "int8");
    kh_free(&h);
}

/* ======================= ArgMax ======================= */

static osc_status argmax(kh *h, int64_t opset, int64_t axis, int64_t keepdims, int64_t last,
                         osc_tensor x) {
    osc_tensor t;
    t = x;
    const osc_tensor *in[] = {&t};
    kh_init(h, "ArgMax", opset);
    kh_attr_int(h, "axis", axis);
    if (keepdims >= 0) kh_attr_int(h, "keepdims", keepdims);
    if (last >= 0) kh_attr_int(h, "select_last_index", last);
    return kh_run(h, 1, in);
}

static void argmax_spec_examples(void **state) {
    (void)state;
    const float d[] = {2, 1, 3, 10};
    osc_tensor x = T(OSC_FLOAT, 2, D(2, 2), d);
    kh h;
    kh_expect_ok(&h, argmax(&h, 1, 0, -1, -1, x)); /* keepdims default 1 */
    osc_check_shape(&h.out, OSC_INT64, 2, D(1, 2));
    osc_check_bytes(&h.out, D(1, 1), 16);
    kh_free(&h);
    kh_expect_ok(&h, argmax(&h, 11, 1, 1, -1, x));
    osc_check_shape(&h.out, OSC_INT64, 2, D(2, 1));
    osc_check_bytes(&h.out, D(0, 1), 16);
    kh_free(&h);
    kh_expect_ok(&h, argmax(&h, 13, -1, 0, -1, x));
    osc_check_shape(&h.out, OSC_INT64, 1, D(2));
    osc_check_bytes(&h.out, D(0, 1), 16);
    kh_free(&h);
    /* select_last_index: [[2,2],[3,10]] along axis 1 -> first [0,1], last [1,1] */
    const float t[] = {2, 2, 3, 10};
    osc_tensor xt = T(OSC_FLOAT, 2, D(2, 2), t);
    kh_expect_ok(&h, argmax(&h, 12, 1, 1, 0, xt));
    osc_check_bytes(&h.out, D(0, 1), 16);
    kh_free(&h);
    kh_expect_ok(&h, argmax(&h, 12, 1, 1, 1, xt));
    osc_check_bytes(&h.out, D(1, 1), 16);
    kh_free(&h);
    expect_fail(&h, argmax(&h, 11, 1, 1, 1, xt), OSC_ERR_MODEL, "select_last_index");
    kh_free(&h);
}

static void argmax_nan_types_errors(void **state) {
    (void)state;
    kh h;
    /* NaN is the largest: first NaN at 1, last at 3 */
    const float f[] = {1, NAN, 3, NAN};
    kh_expect_ok(&h, argmax(&h, 13, 0, 0, 0, T(OSC_FLOAT, 1, D(4), f)));
    osc_check_bytes(&h.out, D(1), 8);
    kh_free(&h);
    kh_expect_ok(&h, argmax(&h, 13, 0, 0, 1, T(OSC_FLOAT, 1, D(4), f)));
    osc_check_bytes(&h.out, D(3), 8);
    kh_free(&h);
    /* uint64 above 2^63 and int8 negatives compare natively */
    const uint64_t u[] = {1, UINT64_MAX, UINT64_MAX - 1};
    kh_expect_ok(&h, argmax(&h, 13, 0, 0, -1, T(OSC_UINT64, 1, D(3), u)));
    osc_check_bytes(&h.out, D(1), 8);
    kh_free(&h);
    const int8_t i8[] = {-5, -2, -9};
    kh_expect_ok(&h, argmax(&h, 13, 0, 0, -1, T(OSC_INT8, 1, D(3), i8)));
    osc_check_bytes(&h.out, D(1), 8);
    kh_free(&h);
    /* bfloat16 from 13 */
    const uint16_t bf[] = {0x3f80, 0x4000};
    expect_fail(&h, argmax(&h, 12, 0, 0, -1, T(OSC_BFLOAT16, 1, D(2), bf)), OSC_ERR_SHAPE,
                "bfloat16");
    kh_free(&h);
    kh_expect_ok(&h, argmax(&h, 13, 0, 0, -1, T(OSC_BFLOAT16, 1, D(2), bf)));
    osc_check_bytes(&h.out, D(1), 8);
    kh_free(&h);
    /* an empty axis has no maximum; an empty output is fine */
    expect_fail(&h, argmax(&h, 13, 1, 1, -1, T(OSC_FLOAT, 2, D(2, 0), k_empty)), OSC_ERR_SHAPE,
                "size 0 along axis 1");
    kh_free(&h);
    kh_expect_ok(&h, argmax(&h, 13, 1, 1, -1, T(OSC_FLOAT, 2, D(0, 3), k_empty)));
    osc_check_shape(&h.out, OSC_INT64, 2, D(0, 1));
    kh_free(&h);
    expect_fail(&h, argmax(&h, 13, 2, 1, -1, T(OSC_FLOAT, 2, D(2, 2), f)), OSC_ERR_MODEL,
                "[-2, 1]");
    kh_free(&h);
}

/* ======================= TopK ======================= */

static osc_status topk(kh *h, int64_t opset, int64_t axis, int64_t largest, osc_tensor x,
                       int64_t k) {
    const int64_t kv[1] = {k};
    osc_tensor t[2] = {x, T(OSC_INT64, 1, D(1), kv)};
    const osc_tensor *in[] = {&t[0], &t[1]};
    kh_init(h, "TopK", opset);
    if (axis != 99) kh_attr_int(h, "axis", axis);
    if (largest >= 0) kh_attr_int(h, "largest", largest);
    if (opset < 10) kh_attr_int(h, "k", k);
    int32_t n_in = opset < 10 ? 1 : 2;
    osc_status st = kh_run_multi(h, n_in, in, 2);
    if (!st) expect_mask_exact(h, n_in, in, 2);
    return st;
}

static void topk_spec_examples(void **state) {
    (void)state;
    const float x[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    kh h;
    const int64_t versions[] = {1, 10, 11, 24};
    for (int32_t v = 0; v < N(versions); v++) {
        kh_expect_ok(&h, topk(&h, versions[v], 99, -1, T(OSC_FLOAT, 2, D(3, 4), x), 3));
        osc_check_shape(&h.outs[0], OSC_FLOAT, 2, D(3, 3));
        osc_check_shape(&h.outs[1], OSC_INT64, 2, D(3, 3));
        osc_check_bytes(&h.outs[0], (const float[]){3, 2, 1, 7, 6, 5, 11, 10, 9}, 36);
        osc_check_bytes(&h.outs[1], D(3, 2, 1, 3, 2, 1, 3, 2, 1), 72);
        kh_free(&h);
    }
    /* smallest: [[0,1,2,3],[4,5,6,7],[11,10,9,8]] -> [[0,1,2],[4,5,6],[8,9,10]] */
    const float y[] = {0, 1, 2, 3, 4, 5, 6, 7, 11, 10, 9, 8};
    kh_expect_ok(&h, topk(&h, 11, 1, 0, T(OSC_FLOAT, 2, D(3, 4), y), 3));
    osc_check_bytes(&h.outs[0], (const float[]){0, 1, 2, 4, 5, 6, 8, 9, 10}, 36);
    osc_check_bytes(&h.outs[1], D(0, 1, 2, 0, 1, 2, 3, 2, 1), 72);
    kh_free(&h);
    /* negative axis over the rows: axis -2 of [3,4], K 2 -> rows 2 and 1 per column */
    kh_expect_ok(&h, topk(&h, 11, -2, 1, T(OSC_FLOAT, 2, D(3, 4), x), 2));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 2, D(2, 4));
    osc_check_bytes(&h.outs[0], (const float[]){8, 9, 10, 11, 4, 5, 6, 7}, 32);
    osc_check_bytes(&h.outs[1], D(2, 2, 2, 2, 1, 1, 1, 1), 64);
    kh_free(&h);
}

static void topk_ties_nan_types(void **state) {
    (void)state;
    kh h;
    /* ties keep the lower index first */
    const int64_t t[] = {1, 2, 2, 1, 3};
    kh_expect_ok(&h, topk(&h, 11, -1, 1, T(OSC_INT64, 1, D(5), t), 3));
    osc_check_bytes(&h.outs[0], D(3, 2, 2), 24);
    osc_check_bytes(&h.outs[1], D(4, 1, 2), 24);
    kh_free(&h);
    kh_expect_ok(&h, topk(&h, 11, -1, 0, T(OSC_INT64, 1, D(5), t), 3));
    osc_check_bytes(&h.outs[0], D(1, 1, 2), 24);
    osc_check_bytes(&h.outs[1], D(0, 3, 1), 24);
    kh_free(&h);
    /* NaN is above every number: first when largest, last when smallest */
    const float f[] = {1, NAN, 3};
    kh_expect_ok(&h, topk(&h, 11, -1, 1, T(OSC_FLOAT, 1, D(3), f), 2));
    assert_true(isnan(((const float *)h.outs[0].data)[0]));
    osc_check_bytes(&h.outs[1], D(1, 2), 16);
    kh_free(&h);
    kh_expect_ok(&h, topk(&h, 11, -1, 0, T(OSC_FLOAT, 1, D(3), f), 2));
    osc_check_bytes(&h.outs[0], (const float[]){1, 3}, 8);
    osc_check_bytes(&h.outs[1], D(0, 2), 16);
    kh_free(&h);
    /* a long line of NaN but its last element: no group's best is a number, so no threshold
     * (the plain fill); the NaNs in index order when largest, the number first when smallest */
    static float nans[200];
    for (int i = 0; i < 200; i++) nans[i] = i < 199 ? NAN : 1.0f;
    for (int largest = 0; largest < 2; largest++) {
        kh_expect_ok(&h, topk(&h, 11, -1, largest, T(OSC_FLOAT, 1, D(200), nans), 3));
        osc_check_bytes(&h.outs[1], largest ? D(0, 1, 2) : D(199, 0, 1), 24);
        kh_free(&h);
    }
    /* uint64 from 11 (not before); bfloat16 from 24 */
    const uint64_t u[] = {5, UINT64_MAX, 7};
    kh_expect_ok(&h, topk(&h, 11, -1, 1, T(OSC_UINT64, 1, D(3), u), 1));
    osc_check_bytes(&h.outs[0], (const uint64_t[]){UINT64_MAX}, 8);
    kh_free(&h);
    expect_fail(&h, topk(&h, 10, -1, -1, T(OSC_UINT64, 1, D(3), u), 1), OSC_ERR_SHAPE, "uint64");
    kh_free(&h);
    const uint16_t bf[] = {0x3f80, 0x4000};
    expect_fail(&h, topk(&h, 11, -1, 1, T(OSC_BFLOAT16, 1, D(2), bf), 1), OSC_ERR_SHAPE,
                "bfloat16");
    kh_free(&h);
    kh_expect_ok(&h, topk(&h, 24, -1, 1, T(OSC_BFLOAT16, 1, D(2), bf), 1));
    osc_check_bytes(&h.outs[0], (const uint16_t[]){0x4000}, 2);
    osc_check_bytes(&h.outs[1], D(1), 8);
    kh_free(&h);
}

/* Lines of 1 to 60 floats drawn from {NaN, -1, -0, +0, 1, 2} (ties everywhere), the axis
 * with 1 to 3 elements after it, every K from 0 to n, largest and smallest: each output against
 * a selection written here, the preferred remaining element again and again (NaN above every
 * number, -0 = +0, the lower index first among equals). Every third trial has a line of up to
 * 700 elements and K up to 40, its values from the pool, from the pool but NaN, or spread with
 * a NaN in one of 50: the contiguous ones of 128 or more (K <= 32) take a threshold from their
 * groups' bests, and the ties at it must stay candidates. */
static int topk_ref_better(float a, int64_t ia, float b, int64_t ib, int sign) {
    const int na = isnan(a), nb = isnan(b);
    const int c = sign * (na || nb ? na - nb : (a > b) - (a < b));
    return c > 0 || (c == 0 && ia < ib);
}

static uint64_t topk_lcg(uint64_t *seed) {
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return *seed;
}

static void topk_random_lines(void **state) {
    (void)state;
    static const float pool[] = {NAN, -1.0f, -0.0f, 0.0f, 1.0f, 2.0f};
    enum { MAX_N = 700 };
    static float x[3 * MAX_N];
    uint64_t seed = 12345;
    for (int trial = 0; trial < 450; trial++) {
        /* long lines: pool values, pool values but NaN, or spread values */
        const bool long_line = trial % 3 == 2;
        const int kind = long_line ? trial / 3 % 3 : 0;
        uint64_t r = topk_lcg(&seed);
        const int64_t n = 1 + (int64_t)(r >> 33) % (long_line ? MAX_N : 60);
        const int64_t inner = long_line && trial % 4 != 1 ? 1 : 1 + (int64_t)(r >> 20) % 3;
        const int64_t kk = (int64_t)(r >> 40) % ((long_line && n > 40 ? 40 : n) + 1);
        const int largest = (int)(r >> 50) & 1;
        for (int64_t i = 0; i < n * inner; i++) {
            r = topk_lcg(&seed);
            x[i] = kind == 0   ? pool[(r >> 33) % 6]
                   : kind == 1 ? pool[1 + (r >> 33) % 5]
                   : (r >> 33) % 50 == 0 ? NAN
                                          : (float)(r >> 40) / 16777216.0f - 0.5f;
        }
        kh h;
        kh_expect_ok(&h, topk(&h, 11, 0, largest, T(OSC_FLOAT, 2, D(n, inner), x), kk));
        const float *vals = h.outs[0].data;
        const int64_t *idx = h.outs[1].data;
        for (int64_t j = 0; j < inner; j++) {
            bool taken[MAX_N] = {false};
            for (int64_t q = 0; q < kk; q++) {
                int64_t w = -1;
                for (int64_t i = 0; i < n; i++)
                    if (!taken[i] && (w < 0 || topk_ref_better(x[i * inner + j], i,
                                                                x[w * inner + j], w,
                                                                largest ? 1 : -1)))
                        w = i;
                taken[w] = true;
                if (idx[q * inner + j] != w ||
                    memcmp(&vals[q * inner + j], &x[w * inner + j], sizeof(float)) != 0)
                    fail_msg("trial %d (n %lld, inner %lld, K %lld, largest %d): line %lld "
                             "place %lld has index %lld, the selection gives %lld", trial,
                             (long long)n, (long long)inner, (long long)kk, largest,
                             (long long)j, (long long)q, (long long)idx[q * inner + j],
                             (long long)w);
            }
        }
        kh_free(&h);
    }
}

static void topk_k_errors(void **state) {
    (void)state;
    const float x[] = {1, 2, 3};
    kh h;
    expect_fail(&h, topk(&h, 11, -1, 1, T(OSC_FLOAT, 1, D(3), x), 4), OSC_ERR_SHAPE,
                "= 4 is out of range [0, 3]");
    expect_untouched(&h.outs[0]);
    kh_free(&h);
    expect_fail(&h, topk(&h, 10, -1, -1, T(OSC_FLOAT, 1, D(3), x), -1), OSC_ERR_SHAPE,
                "out of range");
    kh_free(&h);
    expect_fail(&h, topk(&h, 1, -1, -1, T(OSC_FLOAT, 1, D(3), x), 5), OSC_ERR_SHAPE,
                "attribute 'k'");
    kh_free(&h);
    /* K = 0: empty outputs */
    kh_expect_ok(&h, topk(&h, 11, -1, 1, T(OSC_FLOAT, 1, D(3), x), 0));
    osc_check_shape(&h.outs[1], OSC_INT64, 1, D(0));
    kh_free(&h);
    /* K must be one int64 value; largest does not exist before 11; k is required at 1 */
    osc_tensor xs = T(OSC_FLOAT, 1, D(3), x), k2 = T(OSC_INT64, 1, D(2), D(1, 1));
    const osc_tensor *in[] = {&xs, &k2};
    kh_init(&h, "TopK", 11);
    expect_fail(&h, kh_run_multi(&h, 2, in, 2), OSC_ERR_SHAPE, "one value");
    kh_free(&h);
    kh_init(&h, "TopK", 10);
    kh_attr_int(&h, "largest", 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "largest");
    kh_free(&h);
    kh_init(&h, "TopK", 1);
    expect_fail(&h, kh_check(&h), OSC_ERR_MODEL, "'k' is required");
    kh_free(&h);
}

/* ======================= OneHot ======================= */

static osc_status onehot(kh *h, int64_t opset, int64_t axis, osc_tensor idx, osc_tensor depth,
                         osc_tensor values) {
    osc_tensor t[3] = {idx, depth, values};
    const osc_tensor *in[] = {&t[0], &t[1], &t[2]};
    kh_init(h, "OneHot", opset);
    if (axis != 99) kh_attr_int(h, "axis", axis);
    osc_status st = kh_run(h, 3, in);
    if (!st) expect_mask_exact(h, 3, in, 1);
    return st;
}

static void onehot_spec_cases(void **state) {
    (void)state;
    kh h;
    /* with_axis: indices [[1,9],[2,4]] (float), depth 10, values [1,3], axis 1 -> [2,10,2];
     * on at (0,1,0), (0,9,1), (1,2,0), (1,4,1): flat 2, 19, 24, 29 */
    const float idx[] = {1, 9, 2, 4};
    const float vals[] = {1, 3};
    float want[40];
    for (int32_t i = 0; i < 40; i++) want[i] = 1;
    want[2] = want[19] = want[24] = want[29] = 3;
    kh_expect_ok(&h, onehot(&h, 11, 1, T(OSC_FLOAT, 2, D(2, 2), idx),
                         T(OSC_FLOAT, 0, NULL, (const float[]){10}), T(OSC_FLOAT, 1, D(2), vals)));
    osc_check_shape(&h.out, OSC_FLOAT, 3, D(2, 10, 2));
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
    /* negative axis -2 is the same here */
    kh_expect_ok(&h, onehot(&h, 9, -2, T(OSC_FLOAT, 2, D(2, 2), idx),
                         T(OSC_INT64, 1, D(1), D(10)), T(OSC_FLOAT, 1, D(2), vals)));
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
    /* negative indices count from the back at 11: [0,-7,-2] depth 10 -> 0, 3, 8 */
    const int64_t ni[] = {0, -7, -2};
    kh_expect_ok(&h, onehot(&h, 11, 99, T(OSC_INT64, 1, D(3), ni), T(OSC_INT64, 0, NULL, D(10)),
                         T(OSC_INT32, 1, D(2), (const int32_t[]){0, 1})));
    osc_check_shape(&h.out, OSC_INT32, 2, D(3, 10));
    int32_t w11[30] = {0};
    w11[0] = w11[13] = w11[28] = 1;
    osc_check_bytes(&h.out, w11, sizeof w11);
    kh_free(&h);
    /* ... and select nothing at 9; out of range selects nothing at 11 */
    kh_expect_ok(&h, onehot(&h, 9, 99, T(OSC_INT64, 1, D(3), ni), T(OSC_INT64, 0, NULL, D(10)),
                         T(OSC_INT32, 1, D(2), (const int32_t[]){0, 1})));
    int32_t w9[30] = {0};
    w9[0] = 1;
    osc_check_bytes(&h.out, w9, sizeof w9);
    kh_free(&h);
    const int64_t oor[] = {10, -11, 3};
    kh_expect_ok(&h, onehot(&h, 11, 0, T(OSC_INT64, 1, D(3), oor), T(OSC_INT64, 0, NULL, D(10)),
                         T(OSC_INT32, 1, D(2), (const int32_t[]){0, 1})));
    osc_check_shape(&h.out, OSC_INT32, 2, D(10, 3));
    int32_t w0[30] = {0};
    w0[3 * 3 + 2] = 1;
    osc_check_bytes(&h.out, w0, sizeof w0);
    kh_free(&h);
}

static void onehot_types_and_errors(void **state) {
    (void)state;
    kh h;
    const osc_string sv[] = {{"off", 3}, {"on", 2}};
    kh_expect_ok(&h, onehot(&h, 11, -1, T(OSC_INT32, 1, D(2), (const int32_t[]){1, 0}),
                         T(OSC_FLOAT, 0, NULL, (const float[]){2.7f}),
                         T(OSC_STRING, 1, D(2), sv)));
    osc_check_shape(&h.out, OSC_STRING, 2, D(2, 2));
    expect_strings(&h.out, (const char *const[]){"off", "on", "on", "off"}, 4);
    kh_free(&h);
    osc_tensor i = T(OSC_INT64, 1, D(1), D(0)), v = T(OSC_FLOAT, 1, D(2), (const float[]){0, 1});
    expect_fail(&h, onehot(&h, 11, -1, i, T(OSC_INT64, 0, NULL, D(-3)), v), OSC_ERR_SHAPE,
                "negative");
    kh_free(&h);
    expect_fail(&h, onehot(&h, 11, -1, i, T(OSC_INT64, 1, D(2), D(3, 3)), v), OSC_ERR_SHAPE,
                "one element");
    kh_free(&h);
    expect_fail(&h, onehot(&h, 11, -1, i, T(OSC_INT64, 0, NULL, D(3)),
                           T(OSC_FLOAT, 1, D(3), (const float[]){0, 1, 2})),
                OSC_ERR_SHAPE, "[2]");
    kh_free(&h);
    expect_fail(&h, onehot(&h, 11, 2, i, T(OSC_INT64, 0, NULL, D(3)), v), OSC_ERR_MODEL,
                "[-2, 1]");
    kh_free(&h);
    expect_fail(&h, onehot(&h, 11, -1, T(OSC_STRING, 1, D(1), sv), T(OSC_INT64, 0, NULL, D(3)),
                           v),
                OSC_ERR_SHAPE, "string");
    kh_free(&h);
    /* zero-size indices */
    kh_expect_ok(&h, onehot(&h, 11, -1, T(OSC_INT64, 1, D(0), k_empty), T(OSC_INT64, 0, NULL, D(3)),
                         v));
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(0, 3));
    kh_free(&h);
}

/* ======================= harness ======================= */

static void harness_multi_output_and_infer(void **state) {
    (void)state;
    /* kh_infer leaves buffers alone; data-dependent inputs without data fail with STATE */
    const float x[] = {1, 2, 3};
    osc_tensor xs = T(OSC_FLOAT, 1, D(3), x), k = T(OSC_INT64, 1, D(1), NULL);
    const osc_tensor *in[] = {&xs, &k};
    kh h;
    kh_init(&h, "TopK", 11);
    expect_fail(&h, kh_infer(&h, 2, in, 2), OSC_ERR_STATE, "infer_reads");
    kh_free(&h);
    k.data = (void *)D(2);
    kh_init(&h, "TopK", 11);
    kh_expect_ok(&h, kh_infer(&h, 2, in, 2));
    osc_check_shape(&h.outs[0], OSC_FLOAT, 1, D(2));
    osc_check_shape(&h.outs[1], OSC_INT64, 1, D(2));
    assert_null(h.outs[0].data);
    kh_free(&h);
}

int main(void) {
    for (int32_t i = 0; i < N(k_iota); i++) k_iota[i] = (float)i;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_versions_and_masks),
        cmocka_unit_test(constant_value_tensor_versions),
        cmocka_unit_test(constant_value_forms_12),
        cmocka_unit_test(constant_attribute_errors),
        cmocka_unit_test(constant_strings_and_packed),
        cmocka_unit_test(cofshape_spec_examples),
        cmocka_unit_test(cofshape_edges_and_errors),
        cmocka_unit_test(shape_all_versions_and_slices),
        cmocka_unit_test(shape_size_types),
        cmocka_unit_test(reshape_spec_cases),
        cmocka_unit_test(reshape_allowzero_and_errors),
        cmocka_unit_test(reshape_inplace_strings_packed),
        cmocka_unit_test(flatten_axes_and_versions),
        cmocka_unit_test(squeeze_versions),
        cmocka_unit_test(unsqueeze_versions),
        cmocka_unit_test(expand_spec_and_errors),
        cmocka_unit_test(tile_cases),
        cmocka_unit_test(concat_axes),
        cmocka_unit_test(concat_row_sizes),
        cmocka_unit_test(concat_errors),
        cmocka_unit_test(gather_spec_examples),
        cmocka_unit_test(gather_negative_scalar_empty),
        cmocka_unit_test(gather_out_of_range_untouched),
        cmocka_unit_test(slice_spec_examples),
        cmocka_unit_test(slice_steps_and_clamping),
        cmocka_unit_test(slice_errors),
        cmocka_unit_test(transpose_cases),
        cmocka_unit_test(transpose_all_perms_sizes),
        cmocka_unit_test(transpose_packed_and_strings),
        cmocka_unit_test(range_examples_and_types),
        cmocka_unit_test(range_edges_and_errors),
        cmocka_unit_test(nonzero_cases),
        cmocka_unit_test(cumsum_spec_examples),
        cmocka_unit_test(cumsum_types_and_errors),
        cmocka_unit_test(reduce_sum_spec_examples),
        cmocka_unit_test(reduce_sum_versions_and_types),
        cmocka_unit_test(argmax_spec_examples),
        cmocka_unit_test(argmax_nan_types_errors),
        cmocka_unit_test(topk_spec_examples),
        cmocka_unit_test(topk_ties_nan_types),
        cmocka_unit_test(topk_random_lines),
        cmocka_unit_test(topk_k_errors),
        cmocka_unit_test(onehot_spec_cases),
        cmocka_unit_test(onehot_types_and_errors),
        cmocka_unit_test(harness_multi_output_and_infer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
