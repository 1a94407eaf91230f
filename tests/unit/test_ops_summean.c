/* test_ops_summean.c: Sum and Mean on what the official node tests leave out: float16 and
 * bfloat16 (one rounding per element, not one per input), broadcasting of three inputs, outputs
 * longer than the kernel's chunk, the versions' shape rules and the dtypes they refuse.
 * Expected bits are worked out by hand (checked against Python's struct 'e' format), never by
 * the code under test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "kharness.h"
#include "tests/support/check.h"

static osc_tensor vec(int32_t dtype, int64_t n, const void *data) {
    return kh_tensor(dtype, 1, &n, data);
}

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"Sum", 1, 1},   {"Sum", 5, 1},   {"Sum", 6, 6},    {"Sum", 7, 6},   {"Sum", 8, 8},
        {"Sum", 12, 8},  {"Sum", 13, 13}, {"Sum", 28, 13},  {"Mean", 1, 1},  {"Mean", 6, 6},
        {"Mean", 8, 8},  {"Mean", 12, 8}, {"Mean", 13, 13}, {"Mean", 28, 13},
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
}

/* a [2] + b [1] + c [2,1] -> [2,2], out[i][j] = a[j] + b[0] + c[i]. */
static osc_status run3(kh *h, const char *op, int64_t opset, int32_t dtype, const void *a,
                       const void *b, const void *c) {
    const int64_t dc[2] = {2, 1};
    osc_tensor ta = vec(dtype, 2, a), tb = vec(dtype, 1, b), tc = kh_tensor(dtype, 2, dc, c);
    kh_init(h, op, opset);
    osc_status st = kh_run3(h, &ta, &tb, &tc);
    if (!st) assert_true(h->out.rank == 2 && h->out.dims[0] == 2 && h->out.dims[1] == 2);
    return st;
}

/* float16 a = [2048, 1], b = [1], c = [1, 3]: sums 2050, 3, 2052, 5. Rounded once, 2050 is
 * exact in float16 (spacing 2 from 2048); rounded after each input, 2048 + 1 would tie back to
 * 2048 and stay there. Mean: 2050/3 = 683.33 -> 683.5 (spacing 0.5; one rounding per input
 * would give 682.5), 1, 684, 5/3 -> 1 + 683/1024. */
static void test_half_round_once(void **state) {
    (void)state;
    kh h;
    static const uint16_t a[2] = {0x6800, 0x3C00}, b[1] = {0x3C00}, c[2] = {0x3C00, 0x4200};
    assert_int_equal(run3(&h, "Sum", 13, OSC_FLOAT16, a, b, c), OSC_OK);
    static const uint16_t sum[4] = {0x6801, 0x4200, 0x6802, 0x4500};
    assert_memory_equal(h.out.data, sum, sizeof sum);
    kh_free(&h);
    assert_int_equal(run3(&h, "Mean", 8, OSC_FLOAT16, a, b, c), OSC_OK);
    static const uint16_t mean[4] = {0x6157, 0x3C00, 0x6158, 0x3EAB};
    assert_memory_equal(h.out.data, mean, sizeof mean);
    kh_free(&h);
    /* bfloat16 (8 bits of precision): 256 + 1 + 1 = 258 is exact (0x4381), 256 + 1 alone ties
     * back to 256; Mean of 1 and 2 is 1.5 */
    static const uint16_t ba[2] = {0x4380, 0x3F80}, bb[1] = {0x3F80}, bc[2] = {0x3F80, 0x4000};
    assert_int_equal(run3(&h, "Sum", 13, OSC_BFLOAT16, ba, bb, bc), OSC_OK);
    static const uint16_t bsum[4] = {0x4381, 0x4040, 0x4382, 0x4080}; /* 258, 3, 260, 4 */
    assert_memory_equal(h.out.data, bsum, sizeof bsum);
    kh_free(&h);
    static const uint16_t one[2] = {0x3F80, 0x3F80}, two[1] = {0x4000}, c12[2] = {0x3F80, 0x4000};
    assert_int_equal(run3(&h, "Mean", 13, OSC_BFLOAT16, one, two, c12), OSC_OK);
    /* (1 + 2 + 1) / 3 = 4/3 -> 1 + 43/128 (0x3FAB); (1 + 2 + 2) / 3 = 5/3 -> 1 + 85/128 */
    static const uint16_t bmean[4] = {0x3FAB, 0x3FAB, 0x3FD5, 0x3FD5};
    assert_memory_equal(h.out.data, bmean, sizeof bmean);
    kh_free(&h);
}

static void test_float_double(void **state) {
    (void)state;
    kh h;
    static const float a[2] = {1.5f, -2.0f}, b[1] = {0.25f}, c[2] = {10.0f, -0.5f};
    assert_int_equal(run3(&h, "Sum", 8, OSC_FLOAT, a, b, c), OSC_OK);
    static const float sum[4] = {11.75f, 8.25f, 1.25f, -2.25f};
    assert_memory_equal(h.out.data, sum, sizeof sum);
    kh_free(&h);
    static const double da[2] = {3.0, 6.0}, db[1] = {0.0}, dc[2] = {0.0, 3.0};
    assert_int_equal(run3(&h, "Mean", 13, OSC_DOUBLE, da, db, dc), OSC_OK);
    static const double mean[4] = {1.0, 2.0, 2.0, 3.0};
    assert_memory_equal(h.out.data, mean, sizeof mean);
    kh_free(&h);
    /* one input is that input, the sign of zero included */
    static const float nz[2] = {-0.0f, 7.0f};
    osc_tensor t = vec(OSC_FLOAT, 2, nz);
    kh_init(&h, "Sum", 1);
    kh_attr_ints(&h, "consumed_inputs", NULL, 0); /* version 1's legacy hint, ignored */
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, nz, sizeof nz);
    kh_free(&h);
}

/* [3, 1000] + [1000] + [3, 1]: 3000 elements, past the kernel's chunks, the broadcast rows
 * starting inside chunks. out[i][j] = i + 2j + 100i. */
static void test_long_output(void **state) {
    (void)state;
    enum { R = 3, C = 1000 };
    static float a[R * C], b[C], c[R];
    for (int i = 0; i < R; i++) {
        c[i] = (float)(100 * i);
        for (int j = 0; j < C; j++) a[i * C + j] = (float)i;
    }
    for (int j = 0; j < C; j++) b[j] = (float)(2 * j);
    const int64_t da[2] = {R, C}, dc[2] = {R, 1};
    osc_tensor ta = kh_tensor(OSC_FLOAT, 2, da, a), tb = vec(OSC_FLOAT, C, b);
    osc_tensor tc = kh_tensor(OSC_FLOAT, 2, dc, c);
    kh h;
    kh_init(&h, "Sum", 13);
    assert_int_equal(kh_run3(&h, &ta, &tb, &tc), OSC_OK);
    const float *o = h.out.data;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            if (o[i * C + j] != (float)(i + 2 * j + 100 * i))
                fail_msg("[%d][%d] = %g", i, j, (double)o[i * C + j]);
    kh_free(&h);
    /* an empty output: nothing to do */
    const int64_t d0[2] = {0, 4};
    osc_tensor e = kh_tensor(OSC_FLOAT, 2, d0, NULL), f = vec(OSC_FLOAT, 1, b);
    kh_init(&h, "Mean", 13);
    assert_int_equal(kh_run2(&h, &e, &f), OSC_OK);
    assert_int_equal(h.out.dims[0], 0);
    kh_free(&h);
}

/* The versions' rules: equal shapes before 8, broadcastable ones from 8; one dtype; float types
 * only (the spec lists no integer type for any version; bfloat16 from 13). */
static void test_errors(void **state) {
    (void)state;
    kh h;
    static const float f[3] = {1, 2, 3};
    static const int32_t i[3] = {1, 2, 3};
    static const double d[3] = {1, 2, 3};
    static const uint16_t bf[1] = {0x3F80};
    osc_tensor f3 = vec(OSC_FLOAT, 3, f), f1 = vec(OSC_FLOAT, 1, f), f2 = vec(OSC_FLOAT, 2, f);
    osc_tensor i3 = vec(OSC_INT32, 3, i), d3 = vec(OSC_DOUBLE, 3, d);
    osc_tensor b1 = vec(OSC_BFLOAT16, 1, bf);
    kh_init(&h, "Sum", 6);
    assert_int_equal(kh_run2(&h, &f3, &f1), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "broadcasting starts at opset 8");
    kh_free(&h);
    kh_init(&h, "Mean", 8);
    assert_int_equal(kh_run2(&h, &f3, &f1), OSC_OK);
    kh_free(&h);
    kh_init(&h, "Mean", 13);
    assert_int_equal(kh_run2(&h, &f3, &f2), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "data_1");
    kh_free(&h);
    kh_init(&h, "Sum", 13);
    assert_int_equal(kh_run2(&h, &f3, &d3), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "has dtype double but input 0 'data_0'");
    kh_free(&h);
    kh_init(&h, "Sum", 13);
    assert_int_equal(kh_run1(&h, &i3), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "dtype int32; this op version accepts: float, float16, double, bfloat16");
    kh_free(&h);
    kh_init(&h, "Mean", 12);
    assert_int_equal(kh_run1(&h, &b1), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "bfloat16");
    kh_free(&h);
    kh_init(&h, "Sum", 13);
    assert_int_equal(kh_run(&h, 0, NULL), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "at least one input");
    kh_free(&h);
    kh_init(&h, "Mean", 6);
    kh_attr_ints(&h, "consumed_inputs", NULL, 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'consumed_inputs'");
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_rows_resolve),
    cmocka_unit_test(test_half_round_once),
    cmocka_unit_test(test_float_double),
    cmocka_unit_test(test_long_output),
    cmocka_unit_test(test_errors),
)
