/* test_ops_elements.c: Scatter-9/11, ScatterElements-11..18 and GatherElements-11/13 kernels. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kharness.h"
#include "tests/support/check.h"

/* ---- helpers ---- */

typedef struct version {
    const char *op;
    int64_t opset;
    int64_t since; /* the row the opset must resolve to */
} version;

/* Every scatter-elements row, plus opsets between rows (resolving to the row below). */
static const version k_scatter_versions[] = {
    {"Scatter", 9, 9},           {"Scatter", 10, 9},          {"Scatter", 11, 11},
    {"ScatterElements", 11, 11}, {"ScatterElements", 13, 13}, {"ScatterElements", 15, 13},
    {"ScatterElements", 16, 16}, {"ScatterElements", 18, 18}, {"ScatterElements", 24, 18},
};
#define N_SCATTER_VERSIONS (sizeof k_scatter_versions / sizeof k_scatter_versions[0])

static const version k_gather_versions[] = {
    {"GatherElements", 11, 11}, {"GatherElements", 13, 13}, {"GatherElements", 21, 13}};
#define N_GATHER_VERSIONS (sizeof k_gather_versions / sizeof k_gather_versions[0])

static void init_version(kh *h, const version *v) {
    kh_init(h, v->op, v->opset);
    assert_non_null(h->kernel);
    assert_int_equal(h->kernel->since, v->since);
}

static osc_status run3_inplace(kh *h, const osc_tensor *d, const osc_tensor *i,
                               const osc_tensor *u) {
    const osc_tensor *in[3] = {d, i, u};
    return kh_run_inplace(h, 3, in);
}

/* A rank-1 tensor of n elements. */
static osc_tensor vec(int32_t dtype, int64_t n, const void *data) {
    return kh_tensor(dtype, 1, &n, data);
}

static void assert_string_is(osc_string s, const char *want) {
    size_t n = strlen(want);
    if (s.len != n || (n && memcmp(s.ptr, want, n) != 0))
        fail_msg("string \"%.*s\" != \"%s\"", (int)s.len, s.ptr ? s.ptr : "", want);
}

static osc_string S(const char *s) { return (osc_string){s, strlen(s)}; }

/* ---- ScatterElements: spec examples ---- */

/* Spec example 1 (axis 0) for every version and opset in between. */
static void test_scatter_spec_example1_every_version(void **state) {
    (void)state;
    static const float data[9] = {0};
    static const int64_t idx[6] = {1, 0, 2, 0, 2, 1};
    static const float upd[6] = {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f};
    static const float want[9] = {2.0f, 1.1f, 0.0f, 1.0f, 0.0f, 2.2f, 0.0f, 2.1f, 1.2f};
    for (size_t v = 0; v < N_SCATTER_VERSIONS; v++) {
        kh h;
        init_version(&h, &k_scatter_versions[v]);
        osc_tensor d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 3}, data);
        osc_tensor i = kh_tensor(OSC_INT64, 2, (int64_t[]){2, 3}, idx);
        osc_tensor u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, upd);
        assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
        assert_int_equal(h.out.dtype, OSC_FLOAT);
        assert_int_equal(h.out.rank, 2);
        assert_int_equal(h.out.dims[0], 3);
        assert_int_equal(h.out.dims[1], 3);
        assert_memory_equal(h.out.data, want, sizeof want);
        kh_free(&h);
    }
}

/* Spec example 2 (axis 1) for every version. */
static void test_scatter_spec_example2_every_version(void **state) {
    (void)state;
    static const float data[5] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
    static const int64_t idx[2] = {1, 3};
    static const float upd[2] = {1.1f, 2.1f};
    static const float want[5] = {1.0f, 1.1f, 3.0f, 2.1f, 5.0f};
    for (size_t v = 0; v < N_SCATTER_VERSIONS; v++) {
        kh h;
        init_version(&h, &k_scatter_versions[v]);
        kh_attr_int(&h, "axis", 1);
        osc_tensor d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 5}, data);
        osc_tensor i = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 2}, idx);
        osc_tensor u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 2}, upd);
        assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
        assert_memory_equal(h.out.data, want, sizeof want);
        kh_free(&h);
    }
}

/* Spec example 1 with int32 indices. */
static void test_scatter_int32_indices(void **state) {
    (void)state;
    static const float data[9] = {0};
    static const int32_t idx[6] = {1, 0, 2, 0, 2, 1};
    static const float upd[6] = {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f};
    static const float want[9] = {2.0f, 1.1f, 0.0f, 1.0f, 0.0f, 2.2f, 0.0f, 2.1f, 1.2f};
    kh h;
    kh_init(&h, "ScatterElements", 18);
    osc_tensor d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 3}, data);
    osc_tensor i = kh_tensor(OSC_INT32, 2, (int64_t[]){2, 3}, idx);
    osc_tensor u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, upd);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
}

/* Example 2 with indices -4 and -1 (= 1 and 4 on a dim of 5), in every version. */
static void test_scatter_negative_indices_every_version(void **state) {
    (void)state;
    static const float data[5] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
    static const int64_t idx[2] = {-4, -1};
    static const int32_t idx32[2] = {-4, -1};
    static const float upd[2] = {1.1f, 2.1f};
    static const float want[5] = {1.0f, 1.1f, 3.0f, 4.0f, 2.1f};
    for (size_t v = 0; v < N_SCATTER_VERSIONS; v++) {
        for (int use32 = 0; use32 < 2; use32++) {
            kh h;
            init_version(&h, &k_scatter_versions[v]);
            kh_attr_int(&h, "axis", 1);
            osc_tensor d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 5}, data);
            osc_tensor i = use32 ? kh_tensor(OSC_INT32, 2, (int64_t[]){1, 2}, idx32)
                                 : kh_tensor(OSC_INT64, 2, (int64_t[]){1, 2}, idx);
            osc_tensor u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 2}, upd);
            assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
            assert_memory_equal(h.out.data, want, sizeof want);
            kh_free(&h);
        }
    }
}

/* axis -1 on rank 2 is axis 1 (example 2); axis -2 is axis 0 (example 1). */
static void test_scatter_negative_axis(void **state) {
    (void)state;
    {
        static const float data[5] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
        static const int64_t idx[2] = {1, 3};
        static const float upd[2] = {1.1f, 2.1f};
        static const float want[5] = {1.0f, 1.1f, 3.0f, 2.1f, 5.0f};
        kh h;
        kh_init(&h, "ScatterElements", 13);
        kh_attr_int(&h, "axis", -1);
        osc_tensor d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 5}, data);
        osc_tensor i = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 2}, idx);
        osc_tensor u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 2}, upd);
        assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
        assert_int_equal(((const osc_se_params *)h.node.params)->axis, -1); /* stored as written */
        assert_memory_equal(h.out.data, want, sizeof want);
        kh_free(&h);
    }
    {
        static const float data[9] = {0};
        static const int64_t idx[6] = {1, 0, 2, 0, 2, 1};
        static const float upd[6] = {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f};
        static const float want[9] = {2.0f, 1.1f, 0.0f, 1.0f, 0.0f, 2.2f, 0.0f, 2.1f, 1.2f};
        kh h;
        kh_init(&h, "Scatter", 9);
        kh_attr_int(&h, "axis", -2);
        osc_tensor d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 3}, data);
        osc_tensor i = kh_tensor(OSC_INT64, 2, (int64_t[]){2, 3}, idx);
        osc_tensor u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, upd);
        assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
        assert_memory_equal(h.out.data, want, sizeof want);
        kh_free(&h);
    }
}

/* Rank 3, axis 1, indices smaller than data in dims 1 and 2:
 * out[i][idx[i][j][k]][k] = upd[i][j][k]. Hand-computed flat offsets i*6 + j*2 + k. */
static void test_scatter_rank3_middle_axis(void **state) {
    (void)state;
    static const int32_t data[12] = {0};
    static const int64_t idx[4] = {2, 0, 1, -1}; /* shape [2,2,1] */
    static const int32_t upd[4] = {11, 12, 21, 22};
    /* (0,2,0)=11 -> 4, (0,0,0)=12 -> 0, (1,1,0)=21 -> 8, (1,2,0)=22 -> 10 */
    static const int32_t want[12] = {12, 0, 0, 0, 11, 0, 0, 0, 21, 0, 22, 0};
    kh h;
    kh_init(&h, "ScatterElements", 18);
    kh_attr_int(&h, "axis", 1);
    osc_tensor d = kh_tensor(OSC_INT32, 3, (int64_t[]){2, 3, 2}, data);
    osc_tensor i = kh_tensor(OSC_INT64, 3, (int64_t[]){2, 2, 1}, idx);
    osc_tensor u = kh_tensor(OSC_INT32, 3, (int64_t[]){2, 2, 1}, upd);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
}

/* Along the axis, indices may be longer than data (repeats of the same target). */
static void test_scatter_indices_longer_than_data_along_axis(void **state) {
    (void)state;
    static const int32_t data[2] = {1, 2};
    static const int64_t idx[4] = {0, 1, 0, 1};
    static const int32_t upd[4] = {10, 20, 30, 40};
    static const int32_t want[2] = {41, 62};
    kh h;
    kh_init(&h, "ScatterElements", 16);
    kh_attr_str(&h, "reduction", "add");
    osc_tensor d = vec(OSC_INT32, 2, data), i = vec(OSC_INT64, 4, idx), u = vec(OSC_INT32, 4, upd);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
}

/* ---- reductions ---- */

static void run_float_reduction(int64_t opset, const char *red, const float *want) {
    static const float data[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    static const int64_t idx[4] = {1, 1, 3, 1};
    static const float upd[4] = {5.0f, -2.0f, 7.0f, 0.5f};
    kh h;
    kh_init(&h, "ScatterElements", opset);
    if (red) kh_attr_str(&h, "reduction", red);
    osc_tensor d = vec(OSC_FLOAT, 4, data), i = vec(OSC_INT64, 4, idx), u = vec(OSC_FLOAT, 4, upd);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
    assert_memory_equal(h.out.data, want, 4 * sizeof(float));
    kh_free(&h);
}

/* Target 1 gets 5, -2, 0.5 in that order, target 3 gets 7 (hand-computed). */
static void test_scatter_reductions_on_duplicates(void **state) {
    (void)state;
    static const float none[4] = {1.0f, 0.5f, 3.0f, 7.0f}; /* last write wins */
    static const float add[4] = {1.0f, 5.5f, 3.0f, 11.0f};
    static const float mul[4] = {1.0f, -10.0f, 3.0f, 28.0f};
    static const float max[4] = {1.0f, 5.0f, 3.0f, 7.0f};
    static const float min[4] = {1.0f, -2.0f, 3.0f, 4.0f};
    run_float_reduction(11, NULL, none);
    run_float_reduction(13, NULL, none);
    run_float_reduction(16, NULL, none);
    run_float_reduction(16, "none", none);
    run_float_reduction(16, "add", add);
    run_float_reduction(16, "mul", mul);
    run_float_reduction(18, NULL, none);
    run_float_reduction(18, "none", none);
    run_float_reduction(18, "add", add);
    run_float_reduction(18, "mul", mul);
    run_float_reduction(18, "max", max);
    run_float_reduction(18, "min", min);
}

static void run_bytes(const char *red, int32_t dtype, int64_t n, const void *data, int64_t m,
                      const int64_t *idx, const void *upd, const void *want, size_t want_size) {
    kh h;
    kh_init(&h, "ScatterElements", 18);
    kh_attr_str(&h, "reduction", red);
    osc_tensor d = vec(dtype, n, data), i = vec(OSC_INT64, m, idx), u = vec(dtype, m, upd);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
    assert_int_equal(h.out.nbytes, want_size);
    assert_memory_equal(h.out.data, want, want_size);
    kh_free(&h);
}

/* Integer add/mul wrap modulo 2^bits (hand-computed). */
static void test_scatter_integer_wraparound(void **state) {
    (void)state;
    {
        static const int8_t data[2] = {100, -128}, upd[3] = {100, 100, -1};
        static const int64_t idx[3] = {0, 0, 1};
        static const int8_t want[2] = {44, 127}; /* 300 - 256; -129 + 256 */
        run_bytes("add", OSC_INT8, 2, data, 3, idx, upd, want, sizeof want);
    }
    {
        static const int8_t data[2] = {3, -128}, upd[2] = {100, -1};
        static const int64_t idx[2] = {0, 1};
        static const int8_t want[2] = {44, -128}; /* 300 - 256; 128 - 256 */
        run_bytes("mul", OSC_INT8, 2, data, 2, idx, upd, want, sizeof want);
    }
    {
        static const uint8_t data[2] = {200, 1}, upd[2] = {100, 255};
        static const int64_t idx[2] = {0, 1};
        static const uint8_t want[2] = {44, 0};
        run_bytes("add", OSC_UINT8, 2, data, 2, idx, upd, want, sizeof want);
    }
    {
        static const uint8_t data[2] = {16, 255}, upd[2] = {16, 255};
        static const int64_t idx[2] = {0, 1};
        static const uint8_t want[2] = {0, 1}; /* 256; 65025 = 254 * 256 + 1 */
        run_bytes("mul", OSC_UINT8, 2, data, 2, idx, upd, want, sizeof want);
    }
    {
        static const int64_t data[2] = {INT64_MAX, INT64_MIN}, upd[2] = {1, -1};
        static const int64_t idx[2] = {0, 1};
        static const int64_t want[2] = {INT64_MIN, INT64_MAX};
        run_bytes("add", OSC_INT64, 2, data, 2, idx, upd, want, sizeof want);
    }
    {
        static const int64_t data[2] = {INT64_MIN, INT64_C(1) << 62}, upd[2] = {-1, 4};
        static const int64_t idx[2] = {0, 1};
        static const int64_t want[2] = {INT64_MIN, 0};
        run_bytes("mul", OSC_INT64, 2, data, 2, idx, upd, want, sizeof want);
    }
}

/* max/min: a NaN on either side wins; equal values (-0.0 vs +0.0) keep the data element. */
static void test_scatter_float_max_min_nan_and_signed_zero(void **state) {
    (void)state;
    const float data[4] = {NAN, 1.0f, -0.0f, 0.0f};
    const float upd[4] = {1.0f, NAN, 0.0f, -0.0f};
    static const int64_t idx[4] = {0, 1, 2, 3};
    static const char *const reds[2] = {"max", "min"};
    for (int r = 0; r < 2; r++) {
        kh h;
        kh_init(&h, "ScatterElements", 18);
        kh_attr_str(&h, "reduction", reds[r]);
        osc_tensor d = vec(OSC_FLOAT, 4, data), i = vec(OSC_INT64, 4, idx),
                   u = vec(OSC_FLOAT, 4, upd);
        assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
        const float *o = h.out.data;
        assert_true(isnan(o[0]));
        assert_true(isnan(o[1]));
        assert_true(o[2] == 0.0f && signbit(o[2]));
        assert_true(o[3] == 0.0f && !signbit(o[3]));
        kh_free(&h);
    }
}

/* 2048 + 1 + 1 in float16: each step rounds 2049 to 2048 (ties to even), so 2048 (0x6800);
 * rounding once at the end would give 2050 (0x6801). bfloat16: 256 + 1 + 1 likewise 256
 * (0x4380), not 258 (0x4381). */
static void test_scatter_half_add_rounds_every_update(void **state) {
    (void)state;
    static const int64_t idx[2] = {0, 0};
    {
        static const uint16_t data[1] = {0x6800}, upd[2] = {0x3C00, 0x3C00}, want[1] = {0x6800};
        run_bytes("add", OSC_FLOAT16, 1, data, 2, idx, upd, want, sizeof want);
    }
    {
        static const uint16_t data[1] = {0x4380}, upd[2] = {0x3F80, 0x3F80}, want[1] = {0x4380};
        run_bytes("add", OSC_BFLOAT16, 1, data, 2, idx, upd, want, sizeof want);
    }
}

/* bool: add = or, mul = and, max = or, min = and, on the full truth table. */
static void test_scatter_bool_reductions(void **state) {
    (void)state;
    static const uint8_t data[4] = {0, 0, 1, 1}, upd[4] = {0, 1, 0, 1};
    static const int64_t idx[4] = {0, 1, 2, 3};
    static const uint8_t or_[4] = {0, 1, 1, 1}, and_[4] = {0, 0, 0, 1};
    run_bytes("add", OSC_BOOL, 4, data, 4, idx, upd, or_, sizeof or_);
    run_bytes("mul", OSC_BOOL, 4, data, 4, idx, upd, and_, sizeof and_);
    run_bytes("max", OSC_BOOL, 4, data, 4, idx, upd, or_, sizeof or_);
    run_bytes("min", OSC_BOOL, 4, data, 4, idx, upd, and_, sizeof and_);
}

/* Strings: data ["ab","x",""], target 0 gets "c" then "d", target 1 "", target 2 "zz". */
static void test_scatter_string_reductions(void **state) {
    (void)state;
    static const char *const reds[4] = {"none", "add", "max", "min"};
    static const char *const want[4][3] = {
        {"d", "", "zz"}, {"abcd", "x", "zz"}, {"d", "x", "zz"}, {"ab", "", ""}};
    static const int64_t idx[4] = {0, 0, 1, 2};
    for (int r = 0; r < 4; r++) {
        osc_string data[3] = {S("ab"), S("x"), S("")};
        osc_string upd[4] = {S("c"), S("d"), S(""), S("zz")};
        kh h;
        kh_init(&h, "ScatterElements", 18);
        kh_attr_str(&h, "reduction", reds[r]);
        osc_tensor d = vec(OSC_STRING, 3, data), i = vec(OSC_INT64, 4, idx),
                   u = vec(OSC_STRING, 4, upd);
        assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
        const osc_string *o = h.out.data;
        for (int j = 0; j < 3; j++) assert_string_is(o[j], want[r][j]);
        assert_string_is(data[0], "ab"); /* inputs untouched */
        assert_string_is(data[1], "x");
        assert_string_is(upd[1], "d");
        kh_free(&h);
    }
}

static void test_scatter_string_mul_rejected(void **state) {
    (void)state;
    osc_string data[1] = {S("a")}, upd[1] = {S("b")};
    static const int64_t idx[1] = {0};
    kh h;
    kh_init(&h, "ScatterElements", 16);
    kh_attr_str(&h, "reduction", "mul");
    osc_tensor d = vec(OSC_STRING, 1, data), i = vec(OSC_INT64, 1, idx),
               u = vec(OSC_STRING, 1, upd);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "reduction 'mul' is not defined for string");
    assert_null(h.out.data); /* rejected by infer: nothing allocated, nothing run */
    kh_free(&h);
}

/* complex64: (1+2i) + (3+4i) + (0.5-1i) = 4.5+5i; (1+2i)(3+4i) = -5+10i;
 * max compares (re, im) lexicographically. */
static void test_scatter_complex64(void **state) {
    (void)state;
    {
        static const osc_complex64 data[1] = {{1, 2}}, upd[2] = {{3, 4}, {0.5f, -1}};
        static const int64_t idx[2] = {0, 0};
        static const osc_complex64 want[1] = {{4.5f, 5}};
        run_bytes("add", OSC_COMPLEX64, 1, data, 2, idx, upd, want, sizeof want);
    }
    {
        static const osc_complex64 data[1] = {{1, 2}}, upd[1] = {{3, 4}};
        static const int64_t idx[1] = {0};
        static const osc_complex64 want[1] = {{-5, 10}};
        run_bytes("mul", OSC_COMPLEX64, 1, data, 1, idx, upd, want, sizeof want);
    }
    {
        static const osc_complex64 data[3] = {{1, 5}, {2, 0}, {1, 1}};
        static const osc_complex64 upd[3] = {{1, 3}, {1, 9}, {1, 2}};
        static const int64_t idx[3] = {0, 1, 2};
        static const osc_complex64 want[3] = {{1, 5}, {2, 0}, {1, 2}};
        run_bytes("max", OSC_COMPLEX64, 3, data, 3, idx, upd, want, sizeof want);
    }
}

/* ---- attributes and versions ---- */

static osc_status check_with_reduction(const char *op, int64_t opset, const char *red, kh *h) {
    kh_init(h, op, opset);
    kh_attr_str(h, "reduction", red);
    return kh_check(h);
}

static void test_scatter_reduction_attr_versions(void **state) {
    (void)state;
    kh h;
    /* the attribute does not exist before 16, whatever its value */
    static const version before16[] = {
        {"Scatter", 9, 9}, {"Scatter", 11, 11}, {"ScatterElements", 11, 11},
        {"ScatterElements", 13, 13}};
    for (size_t v = 0; v < sizeof before16 / sizeof before16[0]; v++) {
        assert_int_equal(check_with_reduction(before16[v].op, before16[v].opset, "none", &h),
                         OSC_ERR_MODEL);
        kh_assert_msg_has(&h, "'reduction'");
        kh_free(&h);
        assert_int_equal(check_with_reduction(before16[v].op, before16[v].opset, "add", &h),
                         OSC_ERR_MODEL);
        kh_free(&h);
    }
    /* max/min arrive in 18 */
    assert_int_equal(check_with_reduction("ScatterElements", 16, "max", &h), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "max");
    kh_free(&h);
    assert_int_equal(check_with_reduction("ScatterElements", 17, "min", &h), OSC_ERR_UNSUPPORTED);
    kh_free(&h);
    assert_int_equal(check_with_reduction("ScatterElements", 16, "add", &h), OSC_OK);
    assert_int_equal(((const osc_se_params *)h.node.params)->reduction, OSC_RED_ADD);
    kh_free(&h);
    assert_int_equal(check_with_reduction("ScatterElements", 18, "min", &h), OSC_OK);
    assert_int_equal(((const osc_se_params *)h.node.params)->reduction, OSC_RED_MIN);
    kh_free(&h);
    /* unknown strings */
    assert_int_equal(check_with_reduction("ScatterElements", 18, "sum", &h), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "sum");
    kh_free(&h);
    assert_int_equal(check_with_reduction("ScatterElements", 16, "Add", &h), OSC_ERR_MODEL);
    kh_free(&h);
}

static void test_scatter_unknown_and_mistyped_attributes(void **state) {
    (void)state;
    for (size_t v = 0; v < N_SCATTER_VERSIONS; v++) {
        kh h;
        init_version(&h, &k_scatter_versions[v]);
        kh_attr_int(&h, "axes", 0);
        assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
        kh_assert_msg_has(&h, "'axes'");
        kh_free(&h);
    }
    kh h;
    kh_init(&h, "ScatterElements", 18);
    kh_attr_str(&h, "axis", "1");
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "'axis'");
    kh_free(&h);
    kh_init(&h, "ScatterElements", 18);
    kh_attr_int(&h, "reduction", 1);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_free(&h);
}

/* Deprecation is the dispatcher's job (warning, or an error in strict mode: test_session);
 * here: only the Scatter-11 row carries the flag. */
static void test_scatter11_deprecated_warns_or_fails_when_strict(void **state) {
    (void)state;
    kh h;
    kh_init(&h, "Scatter", 12); /* resolves to Scatter-11 */
    assert_non_null(h.kernel);
    assert_int_equal(h.kernel->since, 11);
    assert_true(h.kernel->flags & OSC_KF_DEPRECATED);
    kh_free(&h);
    static const version plain[] = {{"Scatter", 9, 9}, {"ScatterElements", 11, 11}};
    for (size_t v = 0; v < 2; v++) {
        init_version(&h, &plain[v]);
        assert_false(h.kernel->flags & OSC_KF_DEPRECATED);
        kh_free(&h);
    }
}

static void test_scatter_axis_out_of_range(void **state) {
    (void)state;
    static const float data[4] = {0}, upd[2] = {1, 2};
    static const int64_t idx[2] = {0, 1};
    static const int64_t bad_axes[2] = {2, -3};
    for (int a = 0; a < 2; a++) {
        kh h;
        kh_init(&h, "ScatterElements", 18);
        kh_attr_int(&h, "axis", bad_axes[a]);
        osc_tensor d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 2}, data);
        osc_tensor i = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 2}, idx);
        osc_tensor u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 2}, upd);
        assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_ERR_MODEL);
        kh_assert_msg_has(&h, "'axis'");
        kh_assert_msg_has(&h, "[-2, 1]");
        kh_free(&h);
    }
}

/* ---- shape and dtype errors (all rejected by infer) ---- */

static osc_status infer_only(kh *h, const osc_tensor *d, const osc_tensor *i,
                             const osc_tensor *u) {
    const osc_tensor *in[3] = {d, i, u};
    osc_status st = kh_check(h);
    if (st) return st;
    h->node.n_inputs = 3;
    for (int32_t j = 0; j < 3; j++) h->inputs[j] = j;
    return h->kernel->infer(&h->k, in, 3, &h->out, 1);
}

static void test_scatter_shape_and_dtype_errors(void **state) {
    (void)state;
    static const float f[16] = {0};
    static const double dbl[16] = {0};
    static const int64_t i64[16] = {0};
    static const int16_t i16[16] = {0};
    static const uint8_t i4[8] = {0};
    kh h;
    osc_tensor d, i, u;

    /* rank 0 data */
    kh_init(&h, "ScatterElements", 18);
    d = kh_tensor(OSC_FLOAT, 0, NULL, f);
    i = kh_tensor(OSC_INT64, 0, NULL, i64);
    u = kh_tensor(OSC_FLOAT, 0, NULL, f);
    assert_int_equal(infer_only(&h, &d, &i, &u), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "rank");
    kh_free(&h);

    /* indices rank != data rank */
    kh_init(&h, "ScatterElements", 18);
    d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 2}, f);
    i = kh_tensor(OSC_INT64, 1, (int64_t[]){2}, i64);
    u = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, f);
    assert_int_equal(infer_only(&h, &d, &i, &u), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "rank");
    kh_free(&h);

    /* updates shape != indices shape */
    kh_init(&h, "ScatterElements", 18);
    d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 3}, f);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){2, 3}, i64);
    u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 2}, f);
    assert_int_equal(infer_only(&h, &d, &i, &u), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "[2,2]");
    kh_assert_msg_has(&h, "[2,3]");
    kh_free(&h);

    /* updates rank != indices rank */
    kh_init(&h, "ScatterElements", 18);
    d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 3}, f);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 3}, i64);
    u = kh_tensor(OSC_FLOAT, 1, (int64_t[]){3}, f);
    assert_int_equal(infer_only(&h, &d, &i, &u), OSC_ERR_SHAPE);
    kh_free(&h);

    /* indices bigger than data in a dim other than axis: would write out of bounds */
    kh_init(&h, "ScatterElements", 18);
    d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 3}, f);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 4}, i64);
    u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 4}, f);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "size 4 in dim 1");
    kh_assert_msg_has(&h, "size 3");
    kh_free(&h);

    /* updates dtype != data dtype */
    kh_init(&h, "ScatterElements", 18);
    d = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, f);
    i = kh_tensor(OSC_INT64, 1, (int64_t[]){2}, i64);
    u = kh_tensor(OSC_DOUBLE, 1, (int64_t[]){2}, dbl);
    assert_int_equal(infer_only(&h, &d, &i, &u), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "double");
    kh_free(&h);

    /* indices neither int32 nor int64 */
    kh_init(&h, "ScatterElements", 18);
    d = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, f);
    i = kh_tensor(OSC_INT16, 1, (int64_t[]){2}, i16);
    u = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, f);
    assert_int_equal(infer_only(&h, &d, &i, &u), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "int16");
    kh_free(&h);
    kh_init(&h, "ScatterElements", 18);
    i = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, f);
    assert_int_equal(infer_only(&h, &d, &i, &u), OSC_ERR_SHAPE);
    kh_free(&h);

    /* data not a standard dtype */
    kh_init(&h, "ScatterElements", 18);
    d = kh_tensor(OSC_INT4, 1, (int64_t[]){2}, i4);
    i = kh_tensor(OSC_INT64, 1, (int64_t[]){2}, i64);
    u = kh_tensor(OSC_INT4, 1, (int64_t[]){2}, i4);
    assert_int_equal(infer_only(&h, &d, &i, &u), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "int4");
    kh_free(&h);

    /* a negative dim */
    kh_init(&h, "ScatterElements", 18);
    d = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, f);
    i = kh_tensor(OSC_INT64, 1, (int64_t[]){2}, i64);
    u = kh_tensor(OSC_FLOAT, 1, (int64_t[]){2}, f);
    i.dims[0] = -1;
    u.dims[0] = -1;
    assert_int_equal(infer_only(&h, &d, &i, &u), OSC_ERR_SHAPE);
    kh_free(&h);

    /* a missing input */
    kh_init(&h, "ScatterElements", 18);
    assert_int_equal(infer_only(&h, &d, NULL, &u), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "'indices'");
    kh_free(&h);
}

/* ---- index validation: nothing is written before every index is checked ---- */

static void test_scatter_out_of_range_index_writes_nothing(void **state) {
    (void)state;
    static const float data[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const int64_t good[6] = {1, 0, 2, 0, 2, 1};
    static const float upd[6] = {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f};
    static const int positions[3] = {0, 3, 5}; /* first, middle, last */
    static const int64_t bad_values[2] = {3, -4};
    for (int p = 0; p < 3; p++) {
        for (int b = 0; b < 2; b++) {
            for (int inplace = 0; inplace < 2; inplace++) {
                float dcopy[9];
                int64_t idx[6];
                memcpy(dcopy, data, sizeof dcopy);
                memcpy(idx, good, sizeof idx);
                idx[positions[p]] = bad_values[b];
                kh h;
                kh_init(&h, "ScatterElements", 18);
                kh_attr_str(&h, "reduction", "add");
                osc_tensor d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 3}, dcopy);
                osc_tensor i = kh_tensor(OSC_INT64, 2, (int64_t[]){2, 3}, idx);
                osc_tensor u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, upd);
                osc_status st = inplace ? run3_inplace(&h, &d, &i, &u) : kh_run3(&h, &d, &i, &u);
                assert_int_equal(st, OSC_ERR_INDEX);
                char want[128];
                snprintf(want, sizeof want, "flat position %d: value %lld is out of range [-3, 2]",
                         positions[p], (long long)bad_values[b]);
                kh_assert_msg_has(&h, want);
                kh_assert_msg_has(&h, "node 'n0' (ScatterElements-18)");
                kh_assert_msg_has(&h, "input 1 'indices'");
                kh_assert_msg_has(&h, "axis 0 of size 3");
                if (!inplace) kh_assert_untouched(&h.out);
                assert_memory_equal(dcopy, data, sizeof data); /* in-place: data untouched too */
                assert_int_equal(idx[positions[p]], bad_values[b]);
                kh_free(&h);
            }
        }
    }
}

/* In-place (output on data's buffer) gives the same output as a separate buffer. */
static void test_scatter_inplace_equals_copy(void **state) {
    (void)state;
    static const float data[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const int64_t idx[6] = {1, 1, 2, 1, -3, 1};
    static const float upd[6] = {10, 20, 30, 40, 50, 60};
    /* hand: col 0: row 1 += 10, 40 -> 54; col 1: row 1 += 20, row 0 += 50 -> 5+20=25, 2+50=52;
     * col 2: row 2 += 30, row 1 += 60 -> 9+30=39, 6+60=66 */
    static const float want[9] = {1, 52, 3, 54, 25, 66, 7, 8, 39};
    kh h;
    kh_init(&h, "ScatterElements", 18);
    kh_attr_str(&h, "reduction", "add");
    osc_tensor d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 3}, data);
    osc_tensor i = kh_tensor(OSC_INT64, 2, (int64_t[]){2, 3}, idx);
    osc_tensor u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 3}, upd);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
    assert_memory_equal(h.out.data, want, sizeof want);
    static const float orig[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    assert_memory_equal(data, orig, sizeof data);
    kh_free(&h);

    float buf[9];
    memcpy(buf, data, sizeof buf);
    kh_init(&h, "ScatterElements", 18);
    kh_attr_str(&h, "reduction", "add");
    d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 3}, buf);
    assert_int_equal(run3_inplace(&h, &d, &i, &u), OSC_OK);
    assert_ptr_equal(h.out.data, buf);
    assert_memory_equal(buf, want, sizeof want);
    kh_free(&h);
}

static void test_scatter_zero_size(void **state) {
    (void)state;
    static const float data[6] = {1, 2, 3, 4, 5, 6};
    static const int64_t idx[1] = {0};
    static const float upd[1] = {9};
    kh h;
    osc_tensor d, i, u;

    /* empty indices/updates: output is a copy of data */
    kh_init(&h, "ScatterElements", 18);
    kh_attr_str(&h, "reduction", "mul");
    d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){3, 2}, data);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){0, 2}, NULL);
    u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){0, 2}, NULL);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
    assert_memory_equal(h.out.data, data, sizeof data);
    kh_free(&h);

    /* empty data with a zero dim on the axis and matching empty indices */
    kh_init(&h, "ScatterElements", 18);
    kh_attr_int(&h, "axis", 1);
    d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 0}, NULL);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){2, 0}, NULL);
    u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 0}, NULL);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
    assert_int_equal(h.out.rank, 2);
    assert_int_equal(h.out.dims[0], 2);
    assert_int_equal(h.out.dims[1], 0);
    assert_int_equal(h.out.nbytes, 0);
    kh_free(&h);

    /* empty data with a zero dim off the axis */
    kh_init(&h, "ScatterElements", 11);
    d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){0, 3}, NULL);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){0, 3}, NULL);
    u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){0, 3}, NULL);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_OK);
    kh_free(&h);

    /* an index into an axis of size 0 is always out of range */
    kh_init(&h, "ScatterElements", 18);
    kh_attr_int(&h, "axis", 1);
    d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 0}, NULL);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 1}, idx);
    u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 1}, upd);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_ERR_INDEX);
    kh_assert_msg_has(&h, "value 0 is out of range [0, -1] for axis 1 of size 0");
    kh_free(&h);

    /* indices non-empty where data has a zero dim off the axis: shape error */
    kh_init(&h, "ScatterElements", 18);
    d = kh_tensor(OSC_FLOAT, 2, (int64_t[]){2, 0}, NULL);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 1}, idx);
    u = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 1}, upd);
    assert_int_equal(kh_run3(&h, &d, &i, &u), OSC_ERR_SHAPE);
    kh_free(&h);
}

/* ---- GatherElements ---- */

static void test_gather_spec_examples_every_version(void **state) {
    (void)state;
    for (size_t v = 0; v < N_GATHER_VERSIONS; v++) {
        for (int use32 = 0; use32 < 2; use32++) {
            { /* example 1: axis 1 */
                static const int32_t data[4] = {1, 2, 3, 4};
                static const int64_t idx[4] = {0, 0, 1, 0};
                static const int32_t idx32[4] = {0, 0, 1, 0};
                static const int32_t want[4] = {1, 1, 4, 3};
                kh h;
                init_version(&h, &k_gather_versions[v]);
                kh_attr_int(&h, "axis", 1);
                osc_tensor d = kh_tensor(OSC_INT32, 2, (int64_t[]){2, 2}, data);
                osc_tensor i = use32 ? kh_tensor(OSC_INT32, 2, (int64_t[]){2, 2}, idx32)
                                     : kh_tensor(OSC_INT64, 2, (int64_t[]){2, 2}, idx);
                assert_int_equal(kh_run2(&h, &d, &i), OSC_OK);
                assert_int_equal(h.out.dtype, OSC_INT32);
                assert_int_equal(h.out.rank, 2);
                assert_memory_equal(h.out.data, want, sizeof want);
                kh_free(&h);
            }
            { /* example 2: axis 0, output shaped like indices [2,3] */
                static const int32_t data[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
                static const int64_t idx[6] = {1, 2, 0, 2, 0, 0};
                static const int32_t idx32[6] = {1, 2, 0, 2, 0, 0};
                static const int32_t want[6] = {4, 8, 3, 7, 2, 3};
                kh h;
                init_version(&h, &k_gather_versions[v]);
                osc_tensor d = kh_tensor(OSC_INT32, 2, (int64_t[]){3, 3}, data);
                osc_tensor i = use32 ? kh_tensor(OSC_INT32, 2, (int64_t[]){2, 3}, idx32)
                                     : kh_tensor(OSC_INT64, 2, (int64_t[]){2, 3}, idx);
                assert_int_equal(kh_run2(&h, &d, &i), OSC_OK);
                assert_int_equal(h.out.dims[0], 2);
                assert_int_equal(h.out.dims[1], 3);
                assert_memory_equal(h.out.data, want, sizeof want);
                kh_free(&h);
            }
        }
    }
}

/* Example 2 with negative indices (-1 = 2, -3 = 0) and example 1 with axis -1. */
static void test_gather_negative_indices_and_axis(void **state) {
    (void)state;
    {
        static const int32_t data[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        static const int64_t idx[6] = {1, -1, 0, -1, 0, -3};
        static const int32_t want[6] = {4, 8, 3, 7, 2, 3};
        kh h;
        kh_init(&h, "GatherElements", 11);
        osc_tensor d = kh_tensor(OSC_INT32, 2, (int64_t[]){3, 3}, data);
        osc_tensor i = kh_tensor(OSC_INT64, 2, (int64_t[]){2, 3}, idx);
        assert_int_equal(kh_run2(&h, &d, &i), OSC_OK);
        assert_memory_equal(h.out.data, want, sizeof want);
        kh_free(&h);
    }
    {
        static const int32_t data[4] = {1, 2, 3, 4};
        static const int64_t idx[4] = {0, -2, -1, 0};
        static const int32_t want[4] = {1, 1, 4, 3};
        kh h;
        kh_init(&h, "GatherElements", 13);
        kh_attr_int(&h, "axis", -1);
        osc_tensor d = kh_tensor(OSC_INT32, 2, (int64_t[]){2, 2}, data);
        osc_tensor i = kh_tensor(OSC_INT64, 2, (int64_t[]){2, 2}, idx);
        assert_int_equal(kh_run2(&h, &d, &i), OSC_OK);
        assert_memory_equal(h.out.data, want, sizeof want);
        kh_free(&h);
    }
}

/* Rank 3, axis 1, data[i][j][k] = i*6 + j*2 + k, indices [2,2,1]: out = data[i][idx][0]. */
static void test_gather_rank3_middle_axis(void **state) {
    (void)state;
    static const int64_t data[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    static const int32_t idx[4] = {2, 0, 1, -1};
    static const int64_t want[4] = {4, 0, 8, 10};
    kh h;
    kh_init(&h, "GatherElements", 13);
    kh_attr_int(&h, "axis", 1);
    osc_tensor d = kh_tensor(OSC_INT64, 3, (int64_t[]){2, 3, 2}, data);
    osc_tensor i = kh_tensor(OSC_INT32, 3, (int64_t[]){2, 2, 1}, idx);
    assert_int_equal(kh_run2(&h, &d, &i), OSC_OK);
    assert_int_equal(h.out.rank, 3);
    assert_int_equal(h.out.dims[2], 1);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
}

/* Along the axis indices may be longer than data; strings are gathered too. */
static void test_gather_longer_along_axis_and_strings(void **state) {
    (void)state;
    osc_string data[2] = {S("ten"), S("twenty")};
    static const int64_t idx[5] = {1, 0, 1, 1, -2};
    static const char *const want[5] = {"twenty", "ten", "twenty", "twenty", "ten"};
    kh h;
    kh_init(&h, "GatherElements", 13);
    osc_tensor d = vec(OSC_STRING, 2, data), i = vec(OSC_INT64, 5, idx);
    assert_int_equal(kh_run2(&h, &d, &i), OSC_OK);
    assert_int_equal(h.out.dims[0], 5);
    for (int j = 0; j < 5; j++) assert_string_is(((const osc_string *)h.out.data)[j], want[j]);
    kh_free(&h);
}

static void test_gather_out_of_range_index_writes_nothing(void **state) {
    (void)state;
    static const int32_t data[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const int64_t good[6] = {1, 2, 0, 2, 0, 0};
    static const int positions[3] = {0, 2, 5};
    static const int64_t bad_values[2] = {3, -4};
    for (int p = 0; p < 3; p++) {
        for (int b = 0; b < 2; b++) {
            int64_t idx[6];
            memcpy(idx, good, sizeof idx);
            idx[positions[p]] = bad_values[b];
            kh h;
            kh_init(&h, "GatherElements", 13);
            osc_tensor d = kh_tensor(OSC_INT32, 2, (int64_t[]){3, 3}, data);
            osc_tensor i = kh_tensor(OSC_INT64, 2, (int64_t[]){2, 3}, idx);
            assert_int_equal(kh_run2(&h, &d, &i), OSC_ERR_INDEX);
            char want[128];
            snprintf(want, sizeof want, "flat position %d: value %lld is out of range [-3, 2]",
                     positions[p], (long long)bad_values[b]);
            kh_assert_msg_has(&h, want);
            kh_assert_msg_has(&h, "node 'n0' (GatherElements-13)");
            kh_assert_untouched(&h.out);
            kh_free(&h);
        }
    }
}

static void test_gather_errors(void **state) {
    (void)state;
    static const int32_t data[9] = {0};
    static const int64_t idx[9] = {0};
    static const float f[9] = {0};
    kh h;
    osc_tensor d, i;

    /* rank mismatch */
    kh_init(&h, "GatherElements", 13);
    d = kh_tensor(OSC_INT32, 2, (int64_t[]){3, 3}, data);
    i = kh_tensor(OSC_INT64, 1, (int64_t[]){3}, idx);
    assert_int_equal(kh_run2(&h, &d, &i), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "rank");
    kh_free(&h);

    /* indices bigger than data off the axis */
    kh_init(&h, "GatherElements", 13);
    d = kh_tensor(OSC_INT32, 2, (int64_t[]){3, 2}, data);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 3}, idx);
    assert_int_equal(kh_run2(&h, &d, &i), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "size 3 in dim 1");
    kh_free(&h);

    /* axis out of range */
    kh_init(&h, "GatherElements", 11);
    kh_attr_int(&h, "axis", -3);
    d = kh_tensor(OSC_INT32, 2, (int64_t[]){3, 3}, data);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 3}, idx);
    assert_int_equal(kh_run2(&h, &d, &i), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "[-2, 1]");
    kh_free(&h);

    /* float indices */
    kh_init(&h, "GatherElements", 13);
    i = kh_tensor(OSC_FLOAT, 2, (int64_t[]){1, 3}, f);
    assert_int_equal(kh_run2(&h, &d, &i), OSC_ERR_SHAPE);
    kh_free(&h);

    /* rank 0 data */
    kh_init(&h, "GatherElements", 13);
    d = kh_tensor(OSC_INT32, 0, NULL, data);
    i = kh_tensor(OSC_INT64, 0, NULL, idx);
    assert_int_equal(kh_run2(&h, &d, &i), OSC_ERR_SHAPE);
    kh_free(&h);

    /* GatherElements has no 'reduction' */
    kh_init(&h, "GatherElements", 13);
    kh_attr_str(&h, "reduction", "add");
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "'reduction'");
    kh_free(&h);

    /* zero-size indices: empty output */
    kh_init(&h, "GatherElements", 13);
    d = kh_tensor(OSC_INT32, 2, (int64_t[]){3, 3}, data);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){2, 0}, NULL);
    assert_int_equal(kh_run2(&h, &d, &i), OSC_OK);
    assert_int_equal(h.out.dims[0], 2);
    assert_int_equal(h.out.dims[1], 0);
    kh_free(&h);

    /* gathering from an axis of size 0 */
    kh_init(&h, "GatherElements", 13);
    d = kh_tensor(OSC_INT32, 2, (int64_t[]){0, 3}, NULL);
    i = kh_tensor(OSC_INT64, 2, (int64_t[]){1, 3}, idx);
    assert_int_equal(kh_run2(&h, &d, &i), OSC_ERR_INDEX);
    kh_assert_msg_has(&h, "for axis 0 of size 0");
    kh_free(&h);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_scatter_spec_example1_every_version),
    cmocka_unit_test(test_scatter_spec_example2_every_version),
    cmocka_unit_test(test_scatter_int32_indices),
    cmocka_unit_test(test_scatter_negative_indices_every_version),
    cmocka_unit_test(test_scatter_negative_axis),
    cmocka_unit_test(test_scatter_rank3_middle_axis),
    cmocka_unit_test(test_scatter_indices_longer_than_data_along_axis),
    cmocka_unit_test(test_scatter_reductions_on_duplicates),
    cmocka_unit_test(test_scatter_integer_wraparound),
    cmocka_unit_test(test_scatter_float_max_min_nan_and_signed_zero),
    cmocka_unit_test(test_scatter_half_add_rounds_every_update),
    cmocka_unit_test(test_scatter_bool_reductions),
    cmocka_unit_test(test_scatter_string_reductions),
    cmocka_unit_test(test_scatter_string_mul_rejected),
    cmocka_unit_test(test_scatter_complex64),
    cmocka_unit_test(test_scatter_reduction_attr_versions),
    cmocka_unit_test(test_scatter_unknown_and_mistyped_attributes),
    cmocka_unit_test(test_scatter11_deprecated_warns_or_fails_when_strict),
    cmocka_unit_test(test_scatter_axis_out_of_range),
    cmocka_unit_test(test_scatter_shape_and_dtype_errors),
    cmocka_unit_test(test_scatter_out_of_range_index_writes_nothing),
    cmocka_unit_test(test_scatter_inplace_equals_copy),
    cmocka_unit_test(test_scatter_zero_size),
    cmocka_unit_test(test_gather_spec_examples_every_version),
    cmocka_unit_test(test_gather_negative_indices_and_axis),
    cmocka_unit_test(test_gather_rank3_middle_axis),
    cmocka_unit_test(test_gather_longer_along_axis_and_strings),
    cmocka_unit_test(test_gather_out_of_range_index_writes_nothing),
    cmocka_unit_test(test_gather_errors),
)
