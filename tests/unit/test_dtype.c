/* test_dtype.c: the dtype table and exact float16/bfloat16 conversions (round to nearest even). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "runtime/core/common.h"
#include "runtime/core/dtype.h"

static float bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void table_sizes(void **state) {
    (void)state;
    size_t n;
    assert_true(osc_dtype_bytes(OSC_FLOAT, 3, &n)); assert_int_equal(n, 12);
    assert_true(osc_dtype_bytes(OSC_COMPLEX128, 2, &n)); assert_int_equal(n, 32);
    assert_true(osc_dtype_bytes(OSC_INT4, 3, &n)); assert_int_equal(n, 2);   /* packed, rounded up */
    assert_true(osc_dtype_bytes(OSC_UINT2, 5, &n)); assert_int_equal(n, 2);
    assert_true(osc_dtype_bytes(OSC_FLOAT8E5M2, 7, &n)); assert_int_equal(n, 7);
    assert_false(osc_dtype_bytes(OSC_UNDEFINED, 1, &n));
    assert_false(osc_dtype_bytes(27, 1, &n));
    assert_false(osc_dtype_bytes(OSC_INT64, INT64_MAX / 4, &n)); /* overflow */
    assert_string_equal(osc_dtype_name(OSC_BFLOAT16), "bfloat16");
    assert_string_equal(osc_dtype_name(OSC_FLOAT4E2M1), "float4e2m1");
    assert_string_equal(osc_dtype_name(99), "undefined");
    assert_true(osc_dtype_get(OSC_STRING)->standard);
    assert_false(osc_dtype_get(OSC_INT4)->standard);
}

static void f16_known_values(void **state) {
    (void)state;
    assert_true(osc_f16_to_f32(0x3c00) == 1.0f);
    assert_true(osc_f16_to_f32(0xc000) == -2.0f);
    assert_true(osc_f16_to_f32(0x7bff) == 65504.0f);
    assert_true(osc_f16_to_f32(0x0001) == 0x1p-24f);           /* smallest subnormal */
    assert_true(osc_f16_to_f32(0x03ff) == 1023 * 0x1p-24f);    /* largest subnormal */
    assert_true(isinf(osc_f16_to_f32(0x7c00)));
    assert_true(isnan(osc_f16_to_f32(0x7e00)));
    assert_int_equal(f32_bits(osc_f16_to_f32(0x8000)), 0x80000000u); /* -0.0 */
    assert_int_equal(osc_f32_to_f16(1.0f), 0x3c00);
    assert_int_equal(osc_f32_to_f16(65504.0f), 0x7bff);
    assert_int_equal(osc_f32_to_f16(65519.0f), 0x7bff);  /* below the midpoint to 65536 */
    assert_int_equal(osc_f32_to_f16(65520.0f), 0x7c00);  /* the midpoint rounds to even: Inf */
    assert_int_equal(osc_f32_to_f16(1e10f), 0x7c00);
    assert_int_equal(osc_f32_to_f16(-INFINITY), 0xfc00);
    assert_int_equal(osc_f32_to_f16(-0.0f), 0x8000);
    assert_int_equal(osc_f32_to_f16(1.0f + 0x1p-11f), 0x3c00);       /* tie -> even (down) */
    assert_int_equal(osc_f32_to_f16(1.0f + 3 * 0x1p-11f), 0x3c02);   /* tie -> even (up) */
    assert_int_equal(osc_f32_to_f16(0x1p-25f), 0x0000);              /* tie with 0 -> 0 */
    assert_int_equal(osc_f32_to_f16(0x1.000002p-25f), 0x0001);       /* just above the tie */
    assert_int_equal(osc_f32_to_f16(3 * 0x1p-25f), 0x0002);          /* tie 1.5 ulp -> 2 */
    assert_int_equal(osc_f32_to_f16(0x1p-14f - 0x1p-25f), 0x0400);   /* rounds up to normal */
    assert_true(isnan(osc_f16_to_f32(osc_f32_to_f16(NAN))));
}

static void f16_round_trip_all(void **state) {
    (void)state;
    for (uint32_t h = 0; h < 0x10000; h++) {
        float f = osc_f16_to_f32((uint16_t)h);
        if (isnan(f)) { assert_true(isnan(osc_f16_to_f32(osc_f32_to_f16(f)))); continue; }
        assert_int_equal(osc_f32_to_f16(f), h);
    }
}

/* Nearest-even against a brute-force oracle: the chosen half is at least as close as both
 * neighbours, and on a tie its last mantissa bit is 0. */
static void f16_nearest_even_random(void **state) {
    (void)state;
    uint32_t x = 12345;
    for (int i = 0; i < 1000000; i++) {
        x = x * 1664525u + 1013904223u;
        float f = bits_f32((x & 0x8fffffffu) | 0x30000000u); /* magnitudes around 2^-31 .. 2^32 */
        if (i % 3 == 0) f = bits_f32(x);                    /* anything, incl. huge and tiny */
        if (isnan(f) || fabsf(f) >= 65520.0f) continue;
        uint16_t h = osc_f32_to_f16(f);
        double d = fabs((double)osc_f16_to_f32(h) - f);
        uint16_t mag = h & 0x7fff;
        if (mag < 0x7bff) {
            double up = fabs((double)osc_f16_to_f32((uint16_t)(h + 1)) - f);
            assert_true(d < up || (d == up && (h & 1) == 0));
        }
        if (mag > 0) {
            double dn = fabs((double)osc_f16_to_f32((uint16_t)(h - 1)) - f);
            assert_true(d < dn || (d == dn && (h & 1) == 0));
        }
    }
}

static void bf16_conversions(void **state) {
    (void)state;
    assert_int_equal(osc_f32_to_bf16(1.0f), 0x3f80);
    assert_true(osc_bf16_to_f32(0x3f80) == 1.0f);
    assert_int_equal(osc_f32_to_bf16(bits_f32(0x3f808000u)), 0x3f80); /* tie -> even (down) */
    assert_int_equal(osc_f32_to_bf16(bits_f32(0x3f818000u)), 0x3f82); /* tie -> even (up) */
    assert_int_equal(osc_f32_to_bf16(bits_f32(0x3f808001u)), 0x3f81); /* above the tie */
    assert_int_equal(osc_f32_to_bf16(bits_f32(0x7f7fffffu)), 0x7f80); /* FLT_MAX -> Inf */
    assert_true(isnan(osc_bf16_to_f32(osc_f32_to_bf16(NAN))));
    assert_true(isnan(osc_bf16_to_f32(osc_f32_to_bf16(bits_f32(0x7f800001u))))); /* low payload */
    for (uint32_t h = 0; h < 0x10000; h++) {
        float f = osc_bf16_to_f32((uint16_t)h);
        if (!isnan(f)) assert_int_equal(osc_f32_to_bf16(f), h);
    }
}

static void packed_copy(void **state) {
    (void)state;
    uint8_t src[2] = {0x21, 0x43}; /* int4 elements 1,2,3,4 */
    uint8_t dst[2] = {0, 0};
    osc_copy_elems(dst, 1, src, 0, 3, 4); /* dst elements 1..3 = 1,2,3 */
    assert_int_equal(dst[0], 0x10);
    assert_int_equal(dst[1], 0x32);
    uint8_t d2 = 0xff;
    uint8_t s2 = 0x1b; /* uint2 elements 3,2,1,0 */
    osc_copy_elems(&d2, 2, &s2, 3, 1, 2);  /* element 3 of src (0) into element 2 of dst */
    assert_int_equal(d2, 0xcf);
}

/* A zero dim makes the count 0 even when the other dims alone overflow; -1 is kept for a
 * negative dim and a real overflow. */
static void counts_and_overflow(void **state) {
    (void)state;
    const int64_t big = (int64_t)1 << 40;
    osc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = OSC_FLOAT;
    t.rank = 3, t.dims[0] = big, t.dims[1] = big, t.dims[2] = 0;
    assert_int_equal(osc_tensor_count(&t), 0);
    assert_int_equal(osc_dims_prod(t.dims, 3), 0);
    t.rank = 2;
    assert_int_equal(osc_tensor_count(&t), -1);
    assert_int_equal(osc_dims_prod(t.dims, 2), -1);
    t.rank = 1, t.dims[0] = -1;
    assert_int_equal(osc_tensor_count(&t), -1);
    assert_int_equal(osc_dims_prod(t.dims, 1), -1);
    t.rank = 0;
    assert_int_equal(osc_tensor_count(&t), 1);
    assert_int_equal(osc_dims_prod(t.dims, 0), 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_sizes),      cmocka_unit_test(f16_known_values),
        cmocka_unit_test(f16_round_trip_all), cmocka_unit_test(f16_nearest_even_random),
        cmocka_unit_test(bf16_conversions), cmocka_unit_test(packed_copy),
        cmocka_unit_test(counts_and_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
