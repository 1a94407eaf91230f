/* test_dtype.c: the dtype table and exact float16/bfloat16 conversions (round to nearest even). */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/common.h"
#include "core/dtype.h"
#include "tests/support/check.h"

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

/* Byte order: the scalars osc_swap_elems reverses in each dtype (written out here, not taken
 * from the library): complex numbers per half, 1-byte and packed types never. Runs the
 * big-endian conversion on any machine; osc_le_swap is that on a big-endian one only. */
static void swap_elems_every_dtype(void **state) {
    (void)state;
    static const struct { int32_t dtype; size_t unit; } k_units[] = {
        {OSC_FLOAT, 4}, {OSC_UINT8, 1}, {OSC_INT8, 1}, {OSC_UINT16, 2}, {OSC_INT16, 2},
        {OSC_INT32, 4}, {OSC_INT64, 8}, {OSC_STRING, 0}, {OSC_BOOL, 1}, {OSC_FLOAT16, 2},
        {OSC_DOUBLE, 8}, {OSC_UINT32, 4}, {OSC_UINT64, 8}, {OSC_COMPLEX64, 4},
        {OSC_COMPLEX128, 8}, {OSC_BFLOAT16, 2}, {OSC_FLOAT8E4M3FN, 1}, {OSC_FLOAT8E4M3FNUZ, 1},
        {OSC_FLOAT8E5M2, 1}, {OSC_FLOAT8E5M2FNUZ, 1}, {OSC_UINT4, 1}, {OSC_INT4, 1},
        {OSC_FLOAT4E2M1, 1}, {OSC_FLOAT8E8M0, 1}, {OSC_UINT2, 1}, {OSC_INT2, 1},
    };
    int seen = 0;
    for (size_t k = 0; k < sizeof k_units / sizeof k_units[0]; k++) {
        const int32_t dt = k_units[k].dtype;
        const size_t unit = k_units[k].unit;
        assert_int_equal(osc_dtype_scalar_bytes(dt), unit);
        uint8_t b[32], want[32], le[32];
        for (size_t i = 0; i < sizeof b; i++) b[i] = (uint8_t)(i + 1);
        for (size_t i = 0; i < sizeof b; i++)
            want[i] = unit < 2 ? b[i] : b[i - i % unit + (unit - 1 - i % unit)];
        memcpy(le, b, sizeof b);
        osc_swap_elems(dt, b, sizeof b);
        assert_memory_equal(b, want, sizeof b);
        osc_le_swap(dt, le, sizeof le);
        for (size_t i = 0; i < sizeof le; i++)
            assert_int_equal(le[i], OSC_BIG_ENDIAN ? want[i] : (uint8_t)(i + 1));
        seen++;
    }
    assert_int_equal(seen, OSC_DTYPE_COUNT - 1); /* every dtype number 1.. */
    assert_int_equal(osc_dtype_scalar_bytes(0), 0);
    assert_int_equal(osc_dtype_scalar_bytes(OSC_DTYPE_COUNT), 0);
    /* the machine's order, seen from a value */
    const uint32_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    assert_int_equal(first == 0, OSC_BIG_ENDIAN);
}

/* Float arithmetic rounds to float after every operation on every target (FLT_EVAL_METHOD 0):
 * (1 + 2^-12)^2 rounds to 1 + 2^-11 in float, so adding -(1 + 2^-11) gives 0; evaluated in
 * double (s390x's default) it gives 2^-24. The library's kernels are built with these flags. */
static void float_rounds_per_operation(void **state) {
    (void)state;
    assert_int_equal(FLT_EVAL_METHOD, 0);
    volatile float a = 1.0f + 0x1p-12f, c = -(1.0f + 0x1p-11f);
    const float r = a * a + c;
    assert_true(r == 0.0f);
}

/* Bytes of a count: past size_t (a 32-bit machine) osc_dtype_bytes fails while the 64-bit form
 * still gives the bytes, so callers report a limit rather than wrapping. */
static void bytes_past_size_t(void **state) {
    (void)state;
    uint64_t b64;
    size_t b;
    const int64_t count = (int64_t)1 << 31; /* 8 GiB of float */
    assert_true(osc_dtype_bytes64(OSC_FLOAT, count, &b64));
    assert_true(b64 == (uint64_t)8 << 30);
    assert_int_equal(osc_dtype_bytes(OSC_FLOAT, count, &b), SIZE_MAX > UINT32_MAX);
    assert_false(osc_dtype_bytes64(OSC_COMPLEX128, (int64_t)1 << 62, &b64)); /* 2^66 bytes */
    assert_true(osc_dtype_bytes64(OSC_INT4, 3, &b64) && b64 == 2);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(swap_elems_every_dtype),
    cmocka_unit_test(bytes_past_size_t),
    cmocka_unit_test(float_rounds_per_operation),
    cmocka_unit_test(table_sizes),
    cmocka_unit_test(f16_known_values),
    cmocka_unit_test(f16_round_trip_all),
    cmocka_unit_test(f16_nearest_even_random),
    cmocka_unit_test(bf16_conversions),
    cmocka_unit_test(packed_copy),
    cmocka_unit_test(counts_and_overflow),
)
