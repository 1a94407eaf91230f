/* test_ops_nd.c: ScatterND, GatherND and TensorScatter kernels run through kharness; expected
 * values are the spec's examples or computed by hand in the comments. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kharness.h"
#include "tests/support/check.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})
#define N(a) ((int32_t)(sizeof(a) / sizeof((a)[0])))

/* A stand-in pointer for zero-element tensors. */
static const int64_t k_empty[1];

/* ---- checks ---- */

/* The output buffer still holds the harness's 0xA5 fill: nothing was written. */
static void expect_untouched(const kh *h) {
    const unsigned char *p = h->out.data;
    for (size_t i = 0; i < h->out.nbytes; i++)
        if (p[i] != 0xA5) fail_msg("output byte %zu is 0x%02x, expected untouched 0xA5", i, p[i]);
}

static void expect_msg(const kh *h, const char *part) {
    if (!strstr(h->err.msg, part)) fail_msg("message '%s' lacks '%s'", h->err.msg, part);
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

static osc_tensor T(int32_t dtype, int32_t rank, const int64_t *dims, const void *data) {
    return kh_tensor(dtype, rank, dims, data);
}

/* ---- runners: init, attributes, check + infer + run ---- */

static osc_status run3(kh *h, const osc_tensor *a, const osc_tensor *b, const osc_tensor *c,
                       bool inplace) {
    const osc_tensor *in[3] = {a, b, c};
    int32_t n = c ? 3 : 2;
    return inplace ? kh_run_inplace(h, n, in) : kh_run(h, n, in);
}

/* ScatterND at `opset`; red NULL leaves the reduction attribute out. */
static osc_status snd(kh *h, int64_t opset, const char *red, osc_tensor data, osc_tensor idx,
                      osc_tensor upd) {
    kh_init(h, "ScatterND", opset);
    if (red) kh_attr_str(h, "reduction", red);
    return run3(h, &data, &idx, &upd, false);
}

/* GatherND at `opset`; batch_dims < 0 leaves the attribute out (the test of a negative value
 * sets it by hand). */
static osc_status gnd(kh *h, int64_t opset, int64_t batch_dims, osc_tensor data,
                      osc_tensor idx) {
    kh_init(h, "GatherND", opset);
    if (batch_dims >= 0) kh_attr_int(h, "batch_dims", batch_dims);
    return run3(h, &data, &idx, NULL, false);
}

/* TensorScatter-24; mode NULL and axis == 99 leave those attributes out; wi NULL omits input 2. */
static osc_status ts(kh *h, const char *mode, int64_t axis, osc_tensor past, osc_tensor upd,
                     const osc_tensor *wi, bool inplace) {
    kh_init(h, "TensorScatter", 24);
    if (mode) kh_attr_str(h, "mode", mode);
    if (axis != 99) kh_attr_int(h, "axis", axis);
    const osc_tensor *in[3] = {&past, &upd, wi};
    int32_t n = wi ? 3 : 2;
    return inplace ? kh_run_inplace(h, n, in) : kh_run(h, n, in);
}

static const int64_t k_versions[] = {11, 13, 16, 18};

/* ======================= ScatterND ======================= */

static void snd_spec_example1_every_version(void **state) {
    (void)state;
    for (int32_t v = 0; v < N(k_versions); v++) {
        float data[] = {1, 2, 3, 4, 5, 6, 7, 8};
        int64_t idx[] = {4, 3, 1, 7};
        float upd[] = {9, 10, 11, 12};
        float want[] = {1, 11, 3, 10, 9, 6, 7, 12};
        kh h;
        assert_int_equal(snd(&h, k_versions[v], NULL, T(OSC_FLOAT, 1, D(8), data),
                             T(OSC_INT64, 2, D(4, 1), idx), T(OSC_FLOAT, 1, D(4), upd)),
                         OSC_OK);
        osc_check_shape(&h.out, OSC_FLOAT, 1, D(8));
        osc_check_bytes(&h.out, want, sizeof want);
        kh_free(&h);
    }
}

static void snd_spec_example2_every_version(void **state) {
    (void)state;
    const int64_t data[64] = {1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1,
                              1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1,
                              8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8,
                              8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8};
    const int64_t idx[] = {0, 2};
    const int64_t upd[32] = {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
                             1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};
    const int64_t want[64] = {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
                              1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1,
                              1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
                              8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8};
    for (int32_t v = 0; v < N(k_versions); v++) {
        kh h;
        assert_int_equal(snd(&h, k_versions[v], NULL, T(OSC_INT64, 3, D(4, 4, 4), data),
                             T(OSC_INT64, 2, D(2, 1), idx), T(OSC_INT64, 3, D(2, 4, 4), upd)),
                         OSC_OK);
        osc_check_shape(&h.out, OSC_INT64, 3, D(4, 4, 4));
        osc_check_bytes(&h.out, want, sizeof want);
        kh_free(&h);
    }
}

/* data [1,2,3,4], indices [[1],[1],[3]]: element 1 gets two updates, element 3 one. */
static void run_dup(int64_t opset, const char *red, const float *upd, const float *want) {
    const float data[] = {1, 2, 3, 4};
    const int64_t idx[] = {1, 1, 3};
    kh h;
    osc_status st = snd(&h, opset, red, T(OSC_FLOAT, 1, D(4), data),
                        T(OSC_INT64, 2, D(3, 1), idx), T(OSC_FLOAT, 1, D(3), upd));
    if (st) fail_msg("%s at %lld: %s", red ? red : "(absent)", (long long)opset, h.err.msg);
    osc_check_bytes(&h.out, want, 4 * sizeof(float));
    kh_free(&h);
}

static void snd_none_duplicates_last_write_wins(void **state) {
    (void)state;
    /* element 1: 5 then 6 -> 6; element 3: 7 */
    for (int32_t v = 0; v < N(k_versions); v++)
        run_dup(k_versions[v], NULL, (const float[]){5, 6, 7}, (const float[]){1, 6, 3, 7});
    run_dup(16, "none", (const float[]){5, 6, 7}, (const float[]){1, 6, 3, 7});
    run_dup(18, "none", (const float[]){5, 6, 7}, (const float[]){1, 6, 3, 7});
}

static void snd_add_mul_duplicates_16_18(void **state) {
    (void)state;
    for (int64_t v = 16; v <= 18; v += 2) {
        /* add: 2+5+6 = 13, 4+7 = 11;  mul: 2*5*6 = 60, 4*7 = 28 */
        run_dup(v, "add", (const float[]){5, 6, 7}, (const float[]){1, 13, 3, 11});
        run_dup(v, "mul", (const float[]){5, 6, 7}, (const float[]){1, 60, 3, 28});
    }
}

static void snd_max_min_duplicates_18(void **state) {
    (void)state;
    /* max: max(max(2,5),1) = 5, max(4,2) = 4;  min: min(min(2,5),1) = 1, min(4,2) = 2 */
    run_dup(18, "max", (const float[]){5, 1, 2}, (const float[]){1, 5, 3, 4});
    run_dup(18, "min", (const float[]){5, 1, 2}, (const float[]){1, 1, 3, 2});
}

static void snd_max_min_rejected_at_16(void **state) {
    (void)state;
    const char *reds[] = {"max", "min"};
    for (int32_t i = 0; i < 2; i++) {
        kh h;
        kh_init(&h, "ScatterND", 17);
        kh_attr_str(&h, "reduction", reds[i]);
        assert_int_equal(h.k.since_version, 16);
        assert_int_equal(kh_check(&h), OSC_ERR_UNSUPPORTED);
        expect_msg(&h, reds[i]);
        kh_free(&h);
    }
}

static void snd_reduction_rejected_before_16(void **state) {
    (void)state;
    const int64_t versions[] = {11, 13, 15};
    for (int32_t i = 0; i < N(versions); i++) {
        kh h;
        kh_init(&h, "ScatterND", versions[i]);
        kh_attr_str(&h, "reduction", "none");
        assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
        expect_msg(&h, "'reduction'");
        kh_free(&h);
    }
}

static void snd_unknown_reduction_and_attribute(void **state) {
    (void)state;
    kh h;
    kh_init(&h, "ScatterND", 18);
    kh_attr_str(&h, "reduction", "sum");
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    expect_msg(&h, "sum");
    kh_free(&h);
    kh_init(&h, "ScatterND", 18);
    kh_attr_int(&h, "axis", 0);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    expect_msg(&h, "axis");
    kh_free(&h);
}

static void snd_k_equals_r_element_updates(void **state) {
    (void)state;
    const int32_t data[] = {1, 2, 3, 4, 5, 6}; /* [[1,2,3],[4,5,6]] */
    const int64_t idx[] = {0, 2, 1, 0};       /* (0,2), (1,0) */
    const int32_t upd[] = {10, 20};
    const int32_t want[] = {1, 2, 10, 20, 5, 6};
    kh h;
    assert_int_equal(snd(&h, 13, NULL, T(OSC_INT32, 2, D(2, 3), data),
                         T(OSC_INT64, 2, D(2, 2), idx), T(OSC_INT32, 1, D(2), upd)),
                     OSC_OK);
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
}

static void snd_k_less_than_r_slices(void **state) {
    (void)state;
    /* 3-D data, k = 2: the tuple (1,0) selects the row data[1][0] of 2 elements */
    const int32_t data[] = {0, 1, 2, 3, 4, 5, 6, 7};
    const int64_t idx[] = {1, 0};
    const int32_t upd[] = {9, 8};
    const int32_t want[] = {0, 1, 2, 3, 9, 8, 6, 7};
    kh h;
    assert_int_equal(snd(&h, 18, NULL, T(OSC_INT32, 3, D(2, 2, 2), data),
                         T(OSC_INT64, 2, D(1, 2), idx), T(OSC_INT32, 2, D(1, 2), upd)),
                     OSC_OK);
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
    /* 2-D data, k = 1, mul: row 1 times [2,3,4] */
    const int32_t d2[] = {1, 2, 3, 4, 5, 6};
    const int64_t i2[] = {1};
    const int32_t u2[] = {2, 3, 4};
    const int32_t w2[] = {1, 2, 3, 8, 15, 24};
    assert_int_equal(snd(&h, 16, "mul", T(OSC_INT32, 2, D(2, 3), d2), T(OSC_INT64, 2, D(1, 1), i2),
                         T(OSC_INT32, 2, D(1, 3), u2)),
                     OSC_OK);
    osc_check_bytes(&h.out, w2, sizeof w2);
    kh_free(&h);
}

static void snd_k_zero_whole_tensor(void **state) {
    (void)state;
    const int32_t data[] = {1, 2, 3, 4};
    kh h;
    /* indices shape [0]: one empty tuple, updates shaped like data replace all of it */
    const int32_t upd[] = {9, 8, 7, 6};
    assert_int_equal(snd(&h, 11, NULL, T(OSC_INT32, 2, D(2, 2), data),
                         T(OSC_INT64, 1, D(0), k_empty), T(OSC_INT32, 2, D(2, 2), upd)),
                     OSC_OK);
    osc_check_bytes(&h.out, upd, sizeof upd);
    kh_free(&h);
    /* indices shape [2,0]: two empty tuples, each adds a whole [2,2] slice */
    const int32_t upd2[] = {1, 1, 1, 1, 10, 20, 30, 40};
    const int32_t want2[] = {12, 23, 34, 45};
    assert_int_equal(snd(&h, 16, "add", T(OSC_INT32, 2, D(2, 2), data),
                         T(OSC_INT64, 2, D(2, 0), k_empty), T(OSC_INT32, 3, D(2, 2, 2), upd2)),
                     OSC_OK);
    osc_check_bytes(&h.out, want2, sizeof want2);
    kh_free(&h);
}

static void snd_negative_indices(void **state) {
    (void)state;
    const int64_t data[] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int64_t idx[] = {-1, -8}; /* elements 7 and 0 */
    const int64_t upd[] = {10, 20};
    const int64_t want[] = {20, 2, 3, 4, 5, 6, 7, 10};
    kh h;
    assert_int_equal(snd(&h, 11, NULL, T(OSC_INT64, 1, D(8), data), T(OSC_INT64, 2, D(2, 1), idx),
                         T(OSC_INT64, 1, D(2), upd)),
                     OSC_OK);
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
}

static void snd_negative_multi_axis_max_min(void **state) {
    (void)state;
    const int64_t data[] = {1, 2, 3, 4, 5, 6};  /* [[1,2,3],[4,5,6]] */
    const int64_t idx[] = {-1, -3, 1, 0, 0, -1}; /* (1,0), (1,0), (0,2) */
    const int64_t upd[] = {0, 9, 1};
    /* max: (1,0) max(max(4,0),9) = 9; (0,2) max(3,1) = 3 */
    const int64_t want_max[] = {1, 2, 3, 9, 5, 6};
    /* min: (1,0) min(min(4,0),9) = 0; (0,2) min(3,1) = 1 */
    const int64_t want_min[] = {1, 2, 1, 0, 5, 6};
    kh h;
    assert_int_equal(snd(&h, 18, "max", T(OSC_INT64, 2, D(2, 3), data),
                         T(OSC_INT64, 2, D(3, 2), idx), T(OSC_INT64, 1, D(3), upd)),
                     OSC_OK);
    osc_check_bytes(&h.out, want_max, sizeof want_max);
    kh_free(&h);
    assert_int_equal(snd(&h, 18, "min", T(OSC_INT64, 2, D(2, 3), data),
                         T(OSC_INT64, 2, D(3, 2), idx), T(OSC_INT64, 1, D(3), upd)),
                     OSC_OK);
    osc_check_bytes(&h.out, want_min, sizeof want_min);
    kh_free(&h);
}

/* A bad index at `pos` of indices [3,1] into data [4]: INDEX error naming position and value,
 * output never written, inputs unchanged, also when the output shares data's buffer. */
static void snd_bad_index_at(int64_t pos, int64_t bad) {
    float data[] = {1, 2, 3, 4};
    const float data0[] = {1, 2, 3, 4};
    int64_t idx[] = {0, 1, 2};
    const float upd[] = {7, 8, 9};
    char part[64];
    idx[pos] = bad;
    for (int inplace = 0; inplace < 2; inplace++) {
        kh h;
        kh_init(&h, "ScatterND", 18);
        kh_attr_str(&h, "reduction", "add");
        osc_tensor a = T(OSC_FLOAT, 1, D(4), data), b = T(OSC_INT64, 2, D(3, 1), idx),
                   c = T(OSC_FLOAT, 1, D(3), upd);
        assert_int_equal(run3(&h, &a, &b, &c, inplace), OSC_ERR_INDEX);
        snprintf(part, sizeof part, "flat position %lld ", (long long)pos);
        expect_msg(&h, part);
        snprintf(part, sizeof part, "value %lld ", (long long)bad);
        expect_msg(&h, part);
        expect_msg(&h, "[-4, 3]");
        expect_msg(&h, "input 1 'indices'");
        expect_msg(&h, "node 'n0' (ScatterND-18)");
        if (!inplace) expect_untouched(&h);
        assert_memory_equal(data, data0, sizeof data);
        assert_int_equal(idx[pos], bad);
        kh_free(&h);
    }
}

static void snd_out_of_range_first_middle_last(void **state) {
    (void)state;
    snd_bad_index_at(0, 4);
    snd_bad_index_at(1, -5);
    snd_bad_index_at(2, 100);
}

static void snd_out_of_range_second_component(void **state) {
    (void)state;
    const int32_t data[6] = {0};
    const int64_t idx[] = {0, 0, 1, 3}; /* component 1 of tuple 1 is 3, dim 1 has size 3 */
    const int32_t upd[] = {1, 2};
    kh h;
    assert_int_equal(snd(&h, 11, NULL, T(OSC_INT32, 2, D(2, 3), data),
                         T(OSC_INT64, 2, D(2, 2), idx), T(OSC_INT32, 1, D(2), upd)),
                     OSC_ERR_INDEX);
    expect_msg(&h, "flat position 3 ");
    expect_msg(&h, "value 3 ");
    expect_msg(&h, "[-3, 2]");
    expect_msg(&h, "dim 1 ");
    expect_untouched(&h);
    kh_free(&h);
}

static void snd_updates_shape_mismatch(void **state) {
    (void)state;
    const float data[64] = {0};
    const int64_t idx[] = {0, 1, 2, 3};
    const float upd[48] = {0};
    kh h;
    assert_int_equal(snd(&h, 18, NULL, T(OSC_FLOAT, 1, D(8), data), T(OSC_INT64, 2, D(4, 1), idx),
                         T(OSC_FLOAT, 1, D(3), upd)),
                     OSC_ERR_SHAPE);
    expect_msg(&h, "[3]");
    expect_msg(&h, "expected [4]");
    kh_free(&h);
    /* trailing dims must be data.shape[k:] = [4,4] */
    assert_int_equal(snd(&h, 18, NULL, T(OSC_FLOAT, 3, D(4, 4, 4), data),
                         T(OSC_INT64, 2, D(2, 1), idx), T(OSC_FLOAT, 3, D(2, 4, 3), upd)),
                     OSC_ERR_SHAPE);
    expect_msg(&h, "[2,4,3]");
    expect_msg(&h, "expected [2,4,4]");
    kh_free(&h);
}

static void snd_k_greater_than_rank(void **state) {
    (void)state;
    const float data[4] = {0};
    const int64_t idx[] = {0, 0, 0};
    const float upd[1] = {0};
    kh h;
    assert_int_equal(snd(&h, 18, NULL, T(OSC_FLOAT, 2, D(2, 2), data),
                         T(OSC_INT64, 2, D(1, 3), idx), T(OSC_FLOAT, 1, D(1), upd)),
                     OSC_ERR_SHAPE);
    expect_msg(&h, "= 3 is out of range [0, 2]");
    kh_free(&h);
}

static void snd_bad_dtypes_and_ranks(void **state) {
    (void)state;
    const float data[4] = {0};
    const int32_t idx32[] = {0};
    const int64_t idx[] = {0};
    const float upd[2] = {0};
    const double updd[2] = {0};
    kh h;
    /* int32 indices: ScatterND takes int64 only */
    assert_int_equal(snd(&h, 18, NULL, T(OSC_FLOAT, 2, D(2, 2), data),
                         T(OSC_INT32, 2, D(1, 1), idx32), T(OSC_FLOAT, 2, D(1, 2), upd)),
                     OSC_ERR_SHAPE);
    expect_msg(&h, "expected int64");
    kh_free(&h);
    /* updates dtype differs from data */
    assert_int_equal(snd(&h, 18, NULL, T(OSC_FLOAT, 2, D(2, 2), data),
                         T(OSC_INT64, 2, D(1, 1), idx), T(OSC_DOUBLE, 2, D(1, 2), updd)),
                     OSC_ERR_SHAPE);
    kh_free(&h);
    /* rank-0 data, rank-0 indices */
    assert_int_equal(snd(&h, 18, NULL, T(OSC_FLOAT, 0, NULL, data), T(OSC_INT64, 2, D(1, 0), idx),
                         T(OSC_FLOAT, 1, D(1), upd)),
                     OSC_ERR_SHAPE);
    kh_free(&h);
    assert_int_equal(snd(&h, 18, NULL, T(OSC_FLOAT, 1, D(2), data), T(OSC_INT64, 0, NULL, idx),
                         T(OSC_FLOAT, 1, D(2), upd)),
                     OSC_ERR_SHAPE);
    kh_free(&h);
    /* int4 data is not one of ScatterND's types */
    const uint8_t packed[1] = {0};
    assert_int_equal(snd(&h, 18, NULL, T(OSC_INT4, 1, D(2), packed),
                         T(OSC_INT64, 2, D(1, 1), idx), T(OSC_INT4, 1, D(1), packed)),
                     OSC_ERR_UNSUPPORTED);
    kh_free(&h);
}

static osc_string S(const char *s) { return (osc_string){s, strlen(s)}; }

static void snd_string_data(void **state) {
    (void)state;
    const osc_string data[] = {S("a"), S("b"), S("c")};
    const int64_t idx[] = {0, 2, 0};
    const osc_string upd[] = {S("x"), S("y"), S("z")};
    kh h;
    assert_int_equal(snd(&h, 18, NULL, T(OSC_STRING, 1, D(3), data), T(OSC_INT64, 2, D(3, 1), idx),
                         T(OSC_STRING, 1, D(3), upd)),
                     OSC_OK);
    expect_strings(&h.out, (const char *const[]){"z", "b", "y"}, 3);
    kh_free(&h);
    /* add concatenates in index order: "a"+"x"+"z", "c"+"y" */
    assert_int_equal(snd(&h, 16, "add", T(OSC_STRING, 1, D(3), data),
                         T(OSC_INT64, 2, D(3, 1), idx), T(OSC_STRING, 1, D(3), upd)),
                     OSC_OK);
    expect_strings(&h.out, (const char *const[]){"axz", "b", "cy"}, 3);
    expect_strings(&(osc_tensor){.data = (void *)data}, (const char *const[]){"a", "b", "c"}, 3);
    kh_free(&h);
    assert_int_equal(snd(&h, 18, "mul", T(OSC_STRING, 1, D(3), data),
                         T(OSC_INT64, 2, D(3, 1), idx), T(OSC_STRING, 1, D(3), upd)),
                     OSC_ERR_UNSUPPORTED);
    expect_msg(&h, "mul");
    kh_free(&h);
}

static void snd_float16_add(void **state) {
    (void)state;
    const uint16_t data[] = {0x3C00, 0x3C00};        /* 1.0, 1.0 */
    const int64_t idx[] = {0, 0, 1};
    const uint16_t upd[] = {0x3800, 0x3400, 0xBC00}; /* 0.5, 0.25, -1.0 */
    const uint16_t want[] = {0x3F00, 0x0000};        /* 1.75, +0.0 */
    kh h;
    assert_int_equal(snd(&h, 16, "add", T(OSC_FLOAT16, 1, D(2), data),
                         T(OSC_INT64, 2, D(3, 1), idx), T(OSC_FLOAT16, 1, D(3), upd)),
                     OSC_OK);
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
}

static void snd_inplace_equals_copy(void **state) {
    (void)state;
    const int64_t idx[] = {4, 3, 1, 7, 4};
    const float upd[] = {9, 10, 11, 12, 1};
    /* add: element 4: 5+9+1 = 15, 3: 4+10, 1: 2+11, 7: 8+12 */
    const float want[] = {1, 13, 3, 14, 15, 6, 7, 20};
    float data[] = {1, 2, 3, 4, 5, 6, 7, 8};
    kh h;
    assert_int_equal(snd(&h, 18, "add", T(OSC_FLOAT, 1, D(8), data),
                         T(OSC_INT64, 2, D(5, 1), idx), T(OSC_FLOAT, 1, D(5), upd)),
                     OSC_OK);
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
    kh_init(&h, "ScatterND", 18);
    kh_attr_str(&h, "reduction", "add");
    osc_tensor a = T(OSC_FLOAT, 1, D(8), data), b = T(OSC_INT64, 2, D(5, 1), idx),
               c = T(OSC_FLOAT, 1, D(5), upd);
    assert_int_equal(run3(&h, &a, &b, &c, true), OSC_OK);
    assert_ptr_equal(h.out.data, data);
    assert_memory_equal(data, want, sizeof want);
    kh_free(&h);
}

static void snd_zero_size(void **state) {
    (void)state;
    kh h;
    /* no tuples, empty data */
    assert_int_equal(snd(&h, 18, NULL, T(OSC_FLOAT, 2, D(0, 3), k_empty),
                         T(OSC_INT64, 2, D(0, 1), k_empty), T(OSC_FLOAT, 2, D(0, 3), k_empty)),
                     OSC_OK);
    osc_check_shape(&h.out, OSC_FLOAT, 2, D(0, 3));
    assert_int_equal(h.out.nbytes, 0);
    kh_free(&h);
    /* no tuples, data copied unchanged */
    const float data[] = {1, 2, 3};
    assert_int_equal(snd(&h, 18, "mul", T(OSC_FLOAT, 1, D(3), data),
                         T(OSC_INT64, 2, D(0, 1), k_empty), T(OSC_FLOAT, 1, D(0), k_empty)),
                     OSC_OK);
    osc_check_bytes(&h.out, data, sizeof data);
    kh_free(&h);
    /* a tuple into an empty dim is out of range [0, -1] */
    const int64_t idx[] = {0};
    assert_int_equal(snd(&h, 18, NULL, T(OSC_FLOAT, 2, D(0, 3), k_empty),
                         T(OSC_INT64, 2, D(1, 1), idx), T(OSC_FLOAT, 2, D(1, 3), data)),
                     OSC_ERR_INDEX);
    kh_free(&h);
}

/* ======================= GatherND ======================= */

static const int64_t k_g2[] = {0, 1, 2, 3};             /* [[0,1],[2,3]] */
static const int64_t k_g3[] = {0, 1, 2, 3, 4, 5, 6, 7}; /* [[[0,1],[2,3]],[[4,5],[6,7]]] */

static void gnd_expect(int64_t opset, int64_t b, osc_tensor data, osc_tensor idx, int32_t rank,
                       const int64_t *dims, const int64_t *want, size_t n) {
    kh h;
    osc_status st = gnd(&h, opset, b, data, idx);
    if (st) fail_msg("GatherND-%lld: %s", (long long)opset, h.err.msg);
    osc_check_shape(&h.out, OSC_INT64, rank, dims);
    osc_check_bytes(&h.out, want, n * sizeof(int64_t));
    kh_free(&h);
}

static void gnd_spec_examples_1_to_4(void **state) {
    (void)state;
    for (int64_t v = 11; v <= 13; v++) {
        int64_t b = v == 11 ? -1 : 0; /* 11 has no batch_dims; 12/13 given it explicitly */
        gnd_expect(v, b, T(OSC_INT64, 2, D(2, 2), k_g2), T(OSC_INT64, 2, D(2, 2), D(0, 0, 1, 1)),
                   1, D(2), D(0, 3), 2);
        gnd_expect(v, b, T(OSC_INT64, 2, D(2, 2), k_g2), T(OSC_INT64, 2, D(2, 1), D(1, 0)), 2,
                   D(2, 2), D(2, 3, 0, 1), 4);
        gnd_expect(v, b, T(OSC_INT64, 3, D(2, 2, 2), k_g3), T(OSC_INT64, 2, D(2, 2), D(0, 1, 1, 0)),
                   2, D(2, 2), D(2, 3, 4, 5), 4);
        gnd_expect(v, b, T(OSC_INT64, 3, D(2, 2, 2), k_g3),
                   T(OSC_INT64, 3, D(2, 1, 2), D(0, 1, 1, 0)), 3, D(2, 1, 2), D(2, 3, 4, 5), 4);
    }
}

static void gnd_spec_example_5_batch_dims(void **state) {
    (void)state;
    for (int64_t v = 12; v <= 13; v++)
        gnd_expect(v, 1, T(OSC_INT64, 3, D(2, 2, 2), k_g3), T(OSC_INT64, 2, D(2, 1), D(1, 0)), 2,
                   D(2, 2), D(2, 3, 4, 5), 4);
}

static void gnd_batch_dims_with_several_tuples(void **state) {
    (void)state;
    /* data [[0,1,2],[3,4,5]], b = 1, indices [[[2],[0]],[[1],[1]]]: batch 0 picks 2, 0; batch 1
     * picks 4, 4. Output indices.shape[:-1] = [2,2]. */
    const int64_t data[] = {0, 1, 2, 3, 4, 5};
    gnd_expect(13, 1, T(OSC_INT64, 2, D(2, 3), data), T(OSC_INT64, 3, D(2, 2, 1), D(2, 0, 1, 1)),
               2, D(2, 2), D(2, 0, 4, 4), 4);
    gnd_expect(13, 1, T(OSC_INT64, 2, D(2, 3), data),
               T(OSC_INT64, 3, D(2, 2, 1), D(-1, -3, -2, 1)), 2, D(2, 2), D(2, 0, 4, 4), 4);
}

static void gnd_negative_indices(void **state) {
    (void)state;
    gnd_expect(11, -1, T(OSC_INT64, 2, D(2, 2), k_g2), T(OSC_INT64, 2, D(2, 1), D(-1, -2)), 2,
               D(2, 2), D(2, 3, 0, 1), 4);
    gnd_expect(13, 0, T(OSC_INT64, 3, D(2, 2, 2), k_g3), T(OSC_INT64, 2, D(1, 3), D(-1, 0, -1)),
               1, D(1), D(5), 1);
}

static void gnd_k_zero_whole_slices(void **state) {
    (void)state;
    gnd_expect(13, 0, T(OSC_INT64, 2, D(2, 2), k_g2), T(OSC_INT64, 2, D(3, 0), k_empty), 3,
               D(3, 2, 2), D(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3), 12);
    gnd_expect(13, 1, T(OSC_INT64, 2, D(2, 2), k_g2), T(OSC_INT64, 2, D(2, 0), k_empty), 2,
               D(2, 2), D(0, 1, 2, 3), 4);
}

static void gnd_zero_size(void **state) {
    (void)state;
    kh h;
    assert_int_equal(gnd(&h, 13, 0, T(OSC_INT64, 2, D(2, 2), k_g2),
                         T(OSC_INT64, 2, D(0, 2), k_empty)),
                     OSC_OK);
    osc_check_shape(&h.out, OSC_INT64, 1, D(0));
    assert_int_equal(h.out.nbytes, 0);
    kh_free(&h);
}

static void gnd_strings(void **state) {
    (void)state;
    const osc_string data[] = {S("a"), S("bb"), S("ccc")};
    kh h;
    assert_int_equal(gnd(&h, 13, -1, T(OSC_STRING, 1, D(3), data),
                         T(OSC_INT64, 2, D(2, 1), D(2, 0))),
                     OSC_OK);
    expect_strings(&h.out, (const char *const[]){"ccc", "a"}, 2);
    kh_free(&h);
}

static void gnd_batch_dims_errors(void **state) {
    (void)state;
    kh h;
    /* batch_dims does not exist in GatherND-11 */
    kh_init(&h, "GatherND", 11);
    kh_attr_int(&h, "batch_dims", 0);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    expect_msg(&h, "batch_dims");
    kh_free(&h);
    /* negative */
    kh_init(&h, "GatherND", 13);
    kh_attr_int(&h, "batch_dims", -1);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_free(&h);
    /* b >= min(q, r): q = 2, r = 2 */
    assert_int_equal(gnd(&h, 13, 2, T(OSC_INT64, 2, D(2, 2), k_g2),
                         T(OSC_INT64, 2, D(2, 1), D(0, 0))),
                     OSC_ERR_SHAPE);
    expect_msg(&h, "'batch_dims' = 2");
    kh_free(&h);
    /* b = q = 1 < r */
    assert_int_equal(gnd(&h, 12, 1, T(OSC_INT64, 2, D(2, 2), k_g2), T(OSC_INT64, 1, D(2), D(0, 0))),
                     OSC_ERR_SHAPE);
    kh_free(&h);
    /* first b dims differ: indices dim 0 is 3, data dim 0 is 2 */
    assert_int_equal(gnd(&h, 13, 1, T(OSC_INT64, 3, D(2, 2, 2), k_g3),
                         T(OSC_INT64, 2, D(3, 1), D(0, 0, 0))),
                     OSC_ERR_SHAPE);
    expect_msg(&h, "dim 0 is 3");
    kh_free(&h);
    /* k = 3 > r - b = 2 */
    assert_int_equal(gnd(&h, 13, 1, T(OSC_INT64, 3, D(2, 2, 2), k_g3),
                         T(OSC_INT64, 2, D(2, 3), D(0, 0, 0, 0, 0, 0))),
                     OSC_ERR_SHAPE);
    expect_msg(&h, "= 3 is out of range [0, 2]");
    kh_free(&h);
    /* int32 indices */
    const int32_t i32[] = {0, 0};
    assert_int_equal(gnd(&h, 13, 0, T(OSC_INT64, 2, D(2, 2), k_g2), T(OSC_INT32, 2, D(1, 2), i32)),
                     OSC_ERR_SHAPE);
    kh_free(&h);
}

static void gnd_out_of_range(void **state) {
    (void)state;
    kh h;
    assert_int_equal(gnd(&h, 13, 0, T(OSC_INT64, 2, D(2, 2), k_g2),
                         T(OSC_INT64, 2, D(2, 2), D(0, 0, 1, 2))),
                     OSC_ERR_INDEX);
    expect_msg(&h, "flat position 3 ");
    expect_msg(&h, "value 2 ");
    expect_msg(&h, "[-2, 1]");
    expect_untouched(&h);
    kh_free(&h);
    assert_int_equal(gnd(&h, 11, -1, T(OSC_INT64, 2, D(2, 2), k_g2),
                         T(OSC_INT64, 2, D(2, 2), D(-3, 0, 1, 1))),
                     OSC_ERR_INDEX);
    expect_msg(&h, "flat position 0 ");
    expect_msg(&h, "value -3 ");
    expect_untouched(&h);
    kh_free(&h);
    /* batch_dims = 1: component 0 addresses data dim 1 */
    assert_int_equal(gnd(&h, 13, 1, T(OSC_INT64, 3, D(2, 2, 2), k_g3),
                         T(OSC_INT64, 2, D(2, 1), D(1, 2))),
                     OSC_ERR_INDEX);
    expect_msg(&h, "flat position 1 ");
    expect_msg(&h, "dim 1 ");
    expect_untouched(&h);
    kh_free(&h);
}

/* ======================= TensorScatter ======================= */

/* past [2,3,1] = [[1,2,3],[4,5,6]] along the sequence, update [2,2,1] = [[10,11],[20,21]] */
static const int32_t k_past[] = {1, 2, 3, 4, 5, 6};
static const int32_t k_upd[] = {10, 11, 20, 21};

static void ts_expect(const char *mode, const int64_t *wi, const int32_t *want) {
    kh h;
    osc_tensor w = T(OSC_INT64, 1, D(2), wi);
    osc_status st = ts(&h, mode, 99, T(OSC_INT32, 3, D(2, 3, 1), k_past),
                       T(OSC_INT32, 3, D(2, 2, 1), k_upd), wi ? &w : NULL, false);
    if (st) fail_msg("%s", h.err.msg);
    osc_check_shape(&h.out, OSC_INT32, 3, D(2, 3, 1));
    osc_check_bytes(&h.out, want, 6 * sizeof(int32_t));
    kh_free(&h);
}

static void ts_linear(void **state) {
    (void)state;
    /* no write_indices: both batches write at 0 */
    ts_expect(NULL, NULL, (const int32_t[]){10, 11, 3, 20, 21, 6});
    ts_expect("linear", NULL, (const int32_t[]){10, 11, 3, 20, 21, 6});
    ts_expect(NULL, D(1, 0), (const int32_t[]){1, 10, 11, 20, 21, 6});
    ts_expect("linear", D(0, 1), (const int32_t[]){10, 11, 3, 4, 20, 21});
}

static void ts_write_indices_null_input(void **state) {
    (void)state;
    /* input 2 present in the list but omitted (NULL) behaves as all zeros */
    kh h;
    kh_init(&h, "TensorScatter", 24);
    osc_tensor p = T(OSC_INT32, 3, D(2, 3, 1), k_past), u = T(OSC_INT32, 3, D(2, 2, 1), k_upd);
    const osc_tensor *in[3] = {&p, &u, NULL};
    assert_int_equal(kh_run(&h, 3, in), OSC_OK);
    osc_check_bytes(&h.out, (const int32_t[]){10, 11, 3, 20, 21, 6}, 6 * sizeof(int32_t));
    kh_free(&h);
}

static void ts_circular_wraps(void **state) {
    (void)state;
    /* max_seq 3: start 2 writes positions 2, 0; 5 mod 3 = 2 likewise */
    ts_expect("circular", D(2, 5), (const int32_t[]){11, 2, 10, 21, 5, 20});
    /* -1 mod 3 = 2; 3 mod 3 = 0 */
    ts_expect("circular", D(-1, 3), (const int32_t[]){11, 2, 10, 20, 21, 6});
    /* without write_indices circular equals linear */
    ts_expect("circular", NULL, (const int32_t[]){10, 11, 3, 20, 21, 6});
}

static void ts_circular_batch_at_least_max_seq(void **state) {
    (void)state;
    /* batch 4 > max_seq 2: only the sequence index wraps, each batch keeps its own row.
     * (Wrapping the batch index too, as np.mod on the whole tuple does, would send batch 2 to
     * row 0 and batch 3 to row 1.) */
    const int32_t past[] = {0, 1, 10, 11, 20, 21, 30, 31};
    const int32_t upd[] = {100, 101, 102, 103};
    const int32_t want[] = {0, 100, 101, 11, 20, 102, 103, 31};
    osc_tensor w = T(OSC_INT64, 1, D(4), D(1, 2, 3, 0));
    kh h;
    assert_int_equal(ts(&h, "circular", 99, T(OSC_INT32, 3, D(4, 2, 1), past),
                        T(OSC_INT32, 3, D(4, 1, 1), upd), &w, false),
                     OSC_OK);
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
}

static void ts_rank4_outer_inner_circular(void **state) {
    (void)state;
    /* past [1,2,3,2] (default axis -2 = 2): per outer o, 3 positions of 2 elements.
     * Start 2 writes update rows 0,1 at positions 2,0. */
    const int32_t past[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    const int32_t upd[] = {100, 101, 102, 103, 200, 201, 202, 203};
    const int32_t want[] = {102, 103, 2, 3, 100, 101, 202, 203, 8, 9, 200, 201};
    osc_tensor w = T(OSC_INT64, 1, D(1), D(2));
    kh h;
    assert_int_equal(ts(&h, "circular", 99, T(OSC_INT32, 4, D(1, 2, 3, 2), past),
                        T(OSC_INT32, 4, D(1, 2, 2, 2), upd), &w, false),
                     OSC_OK);
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
}

static void ts_negative_axis(void **state) {
    (void)state;
    /* axis -1 on [2,2,3]: sequence is the last dim (max 3), update [2,2,1]; batch 0 writes at
     * 2, batch 1 at 0, for both rows of the middle dim. */
    const int32_t past[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const int32_t upd[] = {50, 51, 60, 61};
    const int32_t want[] = {1, 2, 50, 4, 5, 51, 60, 8, 9, 61, 11, 12};
    osc_tensor w = T(OSC_INT64, 1, D(2), D(2, 0));
    kh h;
    assert_int_equal(ts(&h, NULL, -1, T(OSC_INT32, 3, D(2, 2, 3), past),
                        T(OSC_INT32, 3, D(2, 2, 1), upd), &w, false),
                     OSC_OK);
    osc_check_bytes(&h.out, want, sizeof want);
    kh_free(&h);
}

static void ts_axis_zero_rejected(void **state) {
    (void)state;
    const int64_t axes[] = {0, -3};
    for (int32_t i = 0; i < N(axes); i++) {
        kh h;
        assert_int_equal(ts(&h, NULL, axes[i], T(OSC_INT32, 3, D(2, 3, 1), k_past),
                            T(OSC_INT32, 3, D(2, 3, 1), k_past), NULL, false),
                         OSC_ERR_MODEL);
        expect_msg(&h, "batch");
        kh_free(&h);
    }
    kh h;
    assert_int_equal(ts(&h, NULL, 3, T(OSC_INT32, 3, D(2, 3, 1), k_past),
                        T(OSC_INT32, 3, D(2, 3, 1), k_past), NULL, false),
                     OSC_ERR_MODEL);
    kh_free(&h);
}

static void ts_invalid_mode(void **state) {
    (void)state;
    kh h;
    kh_init(&h, "TensorScatter", 24);
    kh_attr_str(&h, "mode", "ring");
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    expect_msg(&h, "ring");
    kh_free(&h);
    kh_init(&h, "TensorScatter", 24);
    kh_attr_int(&h, "reduction", 1);
    assert_int_equal(kh_check(&h), OSC_ERR_MODEL);
    kh_free(&h);
}

static void ts_linear_overflow(void **state) {
    (void)state;
    const int64_t cases[][2] = {{1, 2}, {-1, 0}};
    const int64_t bad_pos[] = {1, 0}, bad_val[] = {2, -1};
    for (int32_t c = 0; c < 2; c++) {
        int32_t past[6];
        memcpy(past, k_past, sizeof past);
        for (int inplace = 0; inplace < 2; inplace++) {
            osc_tensor w = T(OSC_INT64, 1, D(2), cases[c]);
            char part[64];
            kh h;
            assert_int_equal(ts(&h, "linear", 99, T(OSC_INT32, 3, D(2, 3, 1), past),
                                T(OSC_INT32, 3, D(2, 2, 1), k_upd), &w, inplace),
                             OSC_ERR_INDEX);
            snprintf(part, sizeof part, "batch position %lld ", (long long)bad_pos[c]);
            expect_msg(&h, part);
            snprintf(part, sizeof part, "value %lld ", (long long)bad_val[c]);
            expect_msg(&h, part);
            expect_msg(&h, "[0, 1]");
            expect_msg(&h, "input 2 'write_indices'");
            if (!inplace) expect_untouched(&h);
            assert_memory_equal(past, k_past, sizeof past);
            kh_free(&h);
        }
    }
}

static void ts_int4(void **state) {
    (void)state;
    /* int4 [1,2,3,4] packed low nibble first: 0x21 0x43; update [-1,5]: 0x5F */
    const uint8_t past[] = {0x21, 0x43};
    const uint8_t upd[] = {0x5F};
    kh h;
    osc_tensor w = T(OSC_INT64, 1, D(1), D(1));
    assert_int_equal(ts(&h, NULL, 99, T(OSC_INT4, 3, D(1, 4, 1), past),
                        T(OSC_INT4, 3, D(1, 2, 1), upd), &w, false),
                     OSC_OK);
    osc_check_bytes(&h.out, (const uint8_t[]){0xF1, 0x45}, 2); /* [1,-1,5,4] */
    kh_free(&h);
    w = T(OSC_INT64, 1, D(1), D(3));
    assert_int_equal(ts(&h, "circular", 99, T(OSC_INT4, 3, D(1, 4, 1), past),
                        T(OSC_INT4, 3, D(1, 2, 1), upd), &w, false),
                     OSC_OK);
    osc_check_bytes(&h.out, (const uint8_t[]){0x25, 0xF3}, 2); /* [5,2,3,-1] */
    kh_free(&h);
}

static void ts_uint2(void **state) {
    (void)state;
    /* uint2 [0,1,2,3] lowest bits first: 0xE4; writing [2] at 3 gives [0,1,2,2] = 0xA4 */
    const uint8_t past[] = {0xE4};
    const uint8_t upd[] = {0x02};
    osc_tensor w = T(OSC_INT64, 1, D(1), D(3));
    kh h;
    assert_int_equal(ts(&h, NULL, 99, T(OSC_UINT2, 3, D(1, 4, 1), past),
                        T(OSC_UINT2, 3, D(1, 1, 1), upd), &w, false),
                     OSC_OK);
    osc_check_bytes(&h.out, (const uint8_t[]){0xA4}, 1);
    kh_free(&h);
}

static void ts_float8(void **state) {
    (void)state;
    const uint8_t past[] = {0x38, 0x40, 0x44, 0x48};
    const uint8_t upd[] = {0x30, 0xB0};
    osc_tensor w = T(OSC_INT64, 1, D(2), D(1, 0));
    const int32_t kinds[] = {OSC_FLOAT8E4M3FN, OSC_FLOAT8E5M2FNUZ, OSC_FLOAT8E8M0};
    for (int32_t i = 0; i < N(kinds); i++) {
        kh h;
        assert_int_equal(ts(&h, NULL, 99, T(kinds[i], 3, D(2, 2, 1), past),
                            T(kinds[i], 3, D(2, 1, 1), upd), &w, false),
                         OSC_OK);
        osc_check_shape(&h.out, kinds[i], 3, D(2, 2, 1));
        osc_check_bytes(&h.out, (const uint8_t[]){0x38, 0x30, 0xB0, 0x48}, 4);
        kh_free(&h);
    }
}

static void ts_zero_sequence_length(void **state) {
    (void)state;
    kh h;
    osc_tensor w = T(OSC_INT64, 1, D(2), D(3, 0)); /* 3 + 0 <= 3 */
    assert_int_equal(ts(&h, "linear", 99, T(OSC_INT32, 3, D(2, 3, 1), k_past),
                        T(OSC_INT32, 3, D(2, 0, 1), k_empty), &w, false),
                     OSC_OK);
    osc_check_bytes(&h.out, k_past, sizeof k_past);
    kh_free(&h);
    w = T(OSC_INT64, 1, D(2), D(-7, 100));
    assert_int_equal(ts(&h, "circular", 99, T(OSC_INT32, 3, D(2, 3, 1), k_past),
                        T(OSC_INT32, 3, D(2, 0, 1), k_empty), &w, false),
                     OSC_OK);
    osc_check_bytes(&h.out, k_past, sizeof k_past);
    kh_free(&h);
    /* max_sequence_length 0 too, circular: nothing to wrap, nothing written */
    assert_int_equal(ts(&h, "circular", 99, T(OSC_INT32, 3, D(2, 0, 1), k_empty),
                        T(OSC_INT32, 3, D(2, 0, 1), k_empty), &w, false),
                     OSC_OK);
    assert_int_equal(h.out.nbytes, 0);
    kh_free(&h);
}

static void ts_shape_errors(void **state) {
    (void)state;
    kh h;
    osc_tensor p = T(OSC_INT32, 3, D(2, 3, 1), k_past);
    /* sequence_length 4 > max_sequence_length 3 */
    const int32_t big[8] = {0};
    assert_int_equal(ts(&h, NULL, 99, p, T(OSC_INT32, 3, D(2, 4, 1), big), NULL, false),
                     OSC_ERR_SHAPE);
    expect_msg(&h, "[2,4,1]");
    kh_free(&h);
    /* batch differs */
    assert_int_equal(ts(&h, NULL, 99, p, T(OSC_INT32, 3, D(1, 2, 1), k_upd), NULL, false),
                     OSC_ERR_SHAPE);
    kh_free(&h);
    /* dtype differs */
    const float f[4] = {0};
    assert_int_equal(ts(&h, NULL, 99, p, T(OSC_FLOAT, 3, D(2, 2, 1), f), NULL, false),
                     OSC_ERR_SHAPE);
    kh_free(&h);
    /* write_indices of the wrong length, of rank 2, of int32 */
    osc_tensor w = T(OSC_INT64, 1, D(3), D(0, 0, 0));
    assert_int_equal(ts(&h, NULL, 99, p, T(OSC_INT32, 3, D(2, 2, 1), k_upd), &w, false),
                     OSC_ERR_SHAPE);
    expect_msg(&h, "expected [2]");
    kh_free(&h);
    w = T(OSC_INT64, 2, D(2, 1), D(0, 0));
    assert_int_equal(ts(&h, NULL, 99, p, T(OSC_INT32, 3, D(2, 2, 1), k_upd), &w, false),
                     OSC_ERR_SHAPE);
    kh_free(&h);
    const int32_t w32[] = {0, 0};
    w = T(OSC_INT32, 1, D(2), w32);
    assert_int_equal(ts(&h, NULL, 99, p, T(OSC_INT32, 3, D(2, 2, 1), k_upd), &w, false),
                     OSC_ERR_SHAPE);
    kh_free(&h);
}

static void ts_inplace_equals_copy(void **state) {
    (void)state;
    int32_t past[6];
    memcpy(past, k_past, sizeof past);
    const int32_t want[] = {11, 2, 10, 20, 21, 6}; /* circular [2, 0] */
    osc_tensor w = T(OSC_INT64, 1, D(2), D(2, 0));
    kh h;
    assert_int_equal(ts(&h, "circular", 99, T(OSC_INT32, 3, D(2, 3, 1), past),
                        T(OSC_INT32, 3, D(2, 2, 1), k_upd), &w, false),
                     OSC_OK);
    osc_check_bytes(&h.out, want, sizeof want);
    assert_memory_equal(past, k_past, sizeof past);
    kh_free(&h);
    assert_int_equal(ts(&h, "circular", 99, T(OSC_INT32, 3, D(2, 3, 1), past),
                        T(OSC_INT32, 3, D(2, 2, 1), k_upd), &w, true),
                     OSC_OK);
    assert_ptr_equal(h.out.data, past);
    assert_memory_equal(past, want, sizeof want);
    kh_free(&h);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(snd_spec_example1_every_version),
    cmocka_unit_test(snd_spec_example2_every_version),
    cmocka_unit_test(snd_none_duplicates_last_write_wins),
    cmocka_unit_test(snd_add_mul_duplicates_16_18),
    cmocka_unit_test(snd_max_min_duplicates_18),
    cmocka_unit_test(snd_max_min_rejected_at_16),
    cmocka_unit_test(snd_reduction_rejected_before_16),
    cmocka_unit_test(snd_unknown_reduction_and_attribute),
    cmocka_unit_test(snd_k_equals_r_element_updates),
    cmocka_unit_test(snd_k_less_than_r_slices),
    cmocka_unit_test(snd_k_zero_whole_tensor),
    cmocka_unit_test(snd_negative_indices),
    cmocka_unit_test(snd_negative_multi_axis_max_min),
    cmocka_unit_test(snd_out_of_range_first_middle_last),
    cmocka_unit_test(snd_out_of_range_second_component),
    cmocka_unit_test(snd_updates_shape_mismatch),
    cmocka_unit_test(snd_k_greater_than_rank),
    cmocka_unit_test(snd_bad_dtypes_and_ranks),
    cmocka_unit_test(snd_string_data),
    cmocka_unit_test(snd_float16_add),
    cmocka_unit_test(snd_inplace_equals_copy),
    cmocka_unit_test(snd_zero_size),
    cmocka_unit_test(gnd_spec_examples_1_to_4),
    cmocka_unit_test(gnd_spec_example_5_batch_dims),
    cmocka_unit_test(gnd_batch_dims_with_several_tuples),
    cmocka_unit_test(gnd_negative_indices),
    cmocka_unit_test(gnd_k_zero_whole_slices),
    cmocka_unit_test(gnd_zero_size),
    cmocka_unit_test(gnd_strings),
    cmocka_unit_test(gnd_batch_dims_errors),
    cmocka_unit_test(gnd_out_of_range),
    cmocka_unit_test(ts_linear),
    cmocka_unit_test(ts_write_indices_null_input),
    cmocka_unit_test(ts_circular_wraps),
    cmocka_unit_test(ts_circular_batch_at_least_max_seq),
    cmocka_unit_test(ts_rank4_outer_inner_circular),
    cmocka_unit_test(ts_negative_axis),
    cmocka_unit_test(ts_axis_zero_rejected),
    cmocka_unit_test(ts_invalid_mode),
    cmocka_unit_test(ts_linear_overflow),
    cmocka_unit_test(ts_int4),
    cmocka_unit_test(ts_uint2),
    cmocka_unit_test(ts_float8),
    cmocka_unit_test(ts_zero_sequence_length),
    cmocka_unit_test(ts_shape_errors),
    cmocka_unit_test(ts_inplace_equals_copy),
)
