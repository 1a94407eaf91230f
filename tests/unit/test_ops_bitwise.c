/* test_ops_bitwise.c: BitShift, BitwiseAnd/Or/Xor/Not and Xor on what the official node tests
 * leave out: every integer width, shifts by the bit width and more (0, see docs/semantics.md),
 * broadcasting, Xor-1's broadcast/axis attributes, and the attribute and dtype errors. Expected
 * values are worked out by hand, never by the code under test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "kharness.h"
#include "tests/support/check.h"

static osc_tensor vec(int32_t dtype, int64_t n, const void *data) {
    return kh_tensor(dtype, 1, &n, data);
}

static void test_rows_resolve(void **state) {
    (void)state;
    static const kh_row k_cases[] = {
        {"BitShift", 10, 0},    {"BitShift", 11, 11},   {"BitShift", 28, 11},
        {"BitwiseAnd", 17, 0},  {"BitwiseAnd", 18, 18}, {"BitwiseOr", 18, 18},
        {"BitwiseXor", 28, 18}, {"BitwiseNot", 17, 0},  {"BitwiseNot", 18, 18},
        {"Xor", 1, 1},          {"Xor", 6, 1},          {"Xor", 7, 7},
        {"Xor", 28, 7},
    };
    kh_assert_rows(k_cases, sizeof k_cases / sizeof k_cases[0]);
}

/* Runs a two-input op (attribute direction when not NULL) and compares the output bytes. */
static void check2(const char *op, int64_t opset, const char *direction, int32_t dtype,
                   int64_t n, const void *x, const void *y, int64_t ny, const void *want,
                   size_t esize) {
    kh h;
    kh_init(&h, op, opset);
    if (direction) kh_attr_str(&h, "direction", direction);
    osc_tensor tx = vec(dtype, n, x), ty = vec(dtype, ny, y);
    osc_status st = kh_run2(&h, &tx, &ty);
    if (st) fail_msg("%s: %s", op, h.err.msg);
    assert_int_equal(h.out.dtype, dtype);
    assert_memory_equal(h.out.data, want, (size_t)n * esize);
    kh_free(&h);
}

/* Every unsigned width, both directions; a shift of the bit width or more gives 0. */
static void test_bitshift(void **state) {
    (void)state;
    static const uint8_t x8[4] = {1, 0x81, 0xFF, 3}, y8[4] = {1, 1, 8, 200};
    static const uint8_t l8[4] = {2, 0x02, 0, 0}, r8[4] = {0, 0x40, 0, 0};
    check2("BitShift", 11, "LEFT", OSC_UINT8, 4, x8, y8, 4, l8, 1);
    check2("BitShift", 11, "RIGHT", OSC_UINT8, 4, x8, y8, 4, r8, 1);
    static const uint16_t x16[3] = {0xFFFF, 1, 5}, y16[3] = {15, 16, 0};
    static const uint16_t l16[3] = {0x8000, 0, 5}, r16[3] = {1, 0, 5};
    check2("BitShift", 11, "LEFT", OSC_UINT16, 3, x16, y16, 3, l16, 2);
    check2("BitShift", 18, "RIGHT", OSC_UINT16, 3, x16, y16, 3, r16, 2);
    static const uint32_t x32[3] = {0x80000001u, 1, 0xFFFFFFFFu}, y32[3] = {31, 32, 4};
    static const uint32_t l32[3] = {0x80000000u, 0, 0xFFFFFFF0u}, r32[3] = {1, 0, 0x0FFFFFFFu};
    check2("BitShift", 11, "LEFT", OSC_UINT32, 3, x32, y32, 3, l32, 4);
    check2("BitShift", 11, "RIGHT", OSC_UINT32, 3, x32, y32, 3, r32, 4);
    static const uint64_t x64[4] = {1, 0x8000000000000000u, 7, 7};
    static const uint64_t y64[4] = {63, 63, 64, UINT64_MAX};
    static const uint64_t l64[4] = {0x8000000000000000u, 0, 0, 0}, r64[4] = {0, 1, 0, 0};
    check2("BitShift", 11, "LEFT", OSC_UINT64, 4, x64, y64, 4, l64, 8);
    check2("BitShift", 11, "RIGHT", OSC_UINT64, 4, x64, y64, 4, r64, 8);
    /* Y broadcast: one shift for every element */
    static const uint8_t two[1] = {2}, lb[4] = {4, 0x04, 0xFC, 12};
    check2("BitShift", 11, "LEFT", OSC_UINT8, 4, x8, two, 1, lb, 1);
}

static void test_bitshift_errors(void **state) {
    (void)state;
    kh h;
    kh_init(&h, "BitShift", 11);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'direction' is required but missing (allowed: "
                                     "'LEFT' or 'RIGHT')");
    kh_init(&h, "BitShift", 11);
    kh_attr_str(&h, "direction", "left");
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'direction' = 'left'; allowed: 'LEFT' or 'RIGHT'");
    kh_init(&h, "BitShift", 11);
    kh_attr_int(&h, "direction", 1);
    kh_init_fails(&h, OSC_ERR_MODEL, "'direction'");
    kh_init(&h, "BitShift", 11);
    kh_attr_str(&h, "direction", "LEFT");
    kh_attr_int(&h, "axis", 0);
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'axis'");
    /* signed integers are not in the constraint; nothing is written */
    static const int32_t i[2] = {1, 2};
    osc_tensor t = vec(OSC_INT32, 2, i);
    kh_init(&h, "BitShift", 11);
    kh_attr_str(&h, "direction", "RIGHT");
    assert_int_equal(kh_run2(&h, &t, &t), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "dtype int32; this op version accepts: uint8, uint16, uint32, uint64");
    kh_free(&h);
}

/* And/Or/Xor on the two's complement bits, signed and unsigned, with B broadcast. */
static void test_bitwise_binary(void **state) {
    (void)state;
    static const int8_t a8[3] = {-1, 0x55, -128}, b8[3] = {0x0F, 0x33, -1};
    static const int8_t and8[3] = {0x0F, 0x11, -128}, or8[3] = {-1, 0x77, -1};
    static const int8_t xor8[3] = {-16, 0x66, 127};
    check2("BitwiseAnd", 18, NULL, OSC_INT8, 3, a8, b8, 3, and8, 1);
    check2("BitwiseOr", 18, NULL, OSC_INT8, 3, a8, b8, 3, or8, 1);
    check2("BitwiseXor", 18, NULL, OSC_INT8, 3, a8, b8, 3, xor8, 1);
    static const int16_t a16[2] = {-2, 0x1234}, m16[1] = {0x00FF};
    static const int16_t and16[2] = {0x00FE, 0x0034}, xor16[2] = {-256 + 1, 0x12CB};
    check2("BitwiseAnd", 18, NULL, OSC_INT16, 2, a16, m16, 1, and16, 2);
    check2("BitwiseXor", 18, NULL, OSC_INT16, 2, a16, m16, 1, xor16, 2);
    static const int32_t a32[2] = {INT32_MIN, 6}, b32[2] = {1, 3}, or32[2] = {INT32_MIN + 1, 7};
    check2("BitwiseOr", 18, NULL, OSC_INT32, 2, a32, b32, 2, or32, 4);
    static const int64_t a64[2] = {-1, 12}, b64[1] = {INT64_MIN}, xor64[2] = {INT64_MAX,
                                                                             INT64_MIN + 12};
    check2("BitwiseXor", 18, NULL, OSC_INT64, 2, a64, b64, 1, xor64, 8);
    static const uint8_t ua[2] = {0xF0, 0x0F}, ub[2] = {0x3C, 0x3C}, uand[2] = {0x30, 0x0C};
    check2("BitwiseAnd", 18, NULL, OSC_UINT8, 2, ua, ub, 2, uand, 1);
    static const uint16_t u16[2] = {0xF000, 1}, o16[1] = {0x0F00}, uor16[2] = {0xFF00, 0x0F01};
    check2("BitwiseOr", 18, NULL, OSC_UINT16, 2, u16, o16, 1, uor16, 2);
    static const uint32_t u32[1] = {0xFFFF0000u}, x32[1] = {0xFFFFFFFFu}, uxor32[1] = {0xFFFF};
    check2("BitwiseXor", 18, NULL, OSC_UINT32, 1, u32, x32, 1, uxor32, 4);
    static const uint64_t u64[1] = {UINT64_MAX}, m64[1] = {0x8000000000000001u};
    check2("BitwiseAnd", 18, NULL, OSC_UINT64, 1, u64, m64, 1, m64, 8);
    /* floats and bool are not in the constraint */
    static const float f[1] = {1};
    osc_tensor t = vec(OSC_FLOAT, 1, f);
    kh h;
    kh_init(&h, "BitwiseOr", 18);
    assert_int_equal(kh_run2(&h, &t, &t), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "input 0 'A'");
    kh_free(&h);
}

/* Runs BitwiseNot on x[n] of dtype and compares the output bytes. */
static void check_not(int32_t dtype, int64_t n, const void *x, const void *want, size_t esize) {
    kh h;
    kh_init(&h, "BitwiseNot", 18);
    osc_tensor t = vec(dtype, n, x);
    assert_int_equal(kh_run1(&h, &t), OSC_OK);
    assert_memory_equal(h.out.data, want, (size_t)n * esize);
    kh_free(&h);
}

/* Every bit flipped, in every integer width. */
static void test_bitwise_not(void **state) {
    (void)state;
    static const int8_t i8[3] = {0, 127, -1}, ni8[3] = {-1, -128, 0};
    static const uint8_t u8[2] = {0xF0, 0}, nu8[2] = {0x0F, 0xFF};
    static const int16_t i16[2] = {5, INT16_MIN}, ni16[2] = {-6, INT16_MAX};
    static const uint16_t u16[1] = {0xFFFF}, nu16[1] = {0};
    static const int32_t i32[1] = {INT32_MIN}, ni32[1] = {INT32_MAX};
    static const uint32_t u32[1] = {0}, nu32[1] = {0xFFFFFFFFu};
    static const int64_t i64[2] = {5, -1}, ni64[2] = {-6, 0};
    static const uint64_t u64[1] = {0}, nu64[1] = {UINT64_MAX};
    check_not(OSC_INT8, 3, i8, ni8, 1);
    check_not(OSC_UINT8, 2, u8, nu8, 1);
    check_not(OSC_INT16, 2, i16, ni16, 2);
    check_not(OSC_UINT16, 1, u16, nu16, 2);
    check_not(OSC_INT32, 1, i32, ni32, 4);
    check_not(OSC_UINT32, 1, u32, nu32, 4);
    check_not(OSC_INT64, 2, i64, ni64, 8);
    check_not(OSC_UINT64, 1, u64, nu64, 8);
    static const uint8_t b[1] = {1};
    osc_tensor tb = vec(OSC_BOOL, 1, b);
    kh h;
    kh_init(&h, "BitwiseNot", 18);
    assert_int_equal(kh_run1(&h, &tb), OSC_ERR_UNSUPPORTED);
    kh_assert_msg_has(&h, "dtype bool");
    kh_free(&h);
}

/* Xor-7: numpy broadcasting; any nonzero byte counts as true. */
static void test_xor(void **state) {
    (void)state;
    static const uint8_t a[4] = {0, 1, 2, 0}, b[2] = {0, 1}, want[4] = {0, 0, 1, 1};
    const int64_t da[2] = {2, 2};
    osc_tensor ta = kh_tensor(OSC_BOOL, 2, da, a), tb = vec(OSC_BOOL, 2, b);
    kh h;
    kh_init(&h, "Xor", 7);
    assert_int_equal(kh_run2(&h, &ta, &tb), OSC_OK);
    assert_int_equal(h.out.dtype, OSC_BOOL);
    assert_memory_equal(h.out.data, want, sizeof want);
    kh_free(&h);
    kh_init(&h, "Xor", 7);
    kh_attr_int(&h, "broadcast", 1); /* version 1 only */
    kh_init_fails(&h, OSC_ERR_MODEL, "unknown attribute 'broadcast'");
}

/* Xor-1: B into A only with broadcast=1, along A's last dims or from `axis`; else equal
 * shapes. */
static void test_xor_v1(void **state) {
    (void)state;
    static const uint8_t a[6] = {0, 1, 0, 1, 1, 0}; /* [2, 3] */
    static const uint8_t row[3] = {1, 0, 1}, col[2] = {1, 0};
    const int64_t da[2] = {2, 3};
    osc_tensor ta = kh_tensor(OSC_BOOL, 2, da, a), trow = vec(OSC_BOOL, 3, row);
    osc_tensor tcol = vec(OSC_BOOL, 2, col);
    kh h;
    kh_init(&h, "Xor", 1);
    kh_attr_int(&h, "broadcast", 1);
    assert_int_equal(kh_run2(&h, &ta, &trow), OSC_OK);
    static const uint8_t want_row[6] = {1, 1, 1, 0, 1, 1};
    assert_memory_equal(h.out.data, want_row, sizeof want_row);
    kh_free(&h);
    kh_init(&h, "Xor", 1);
    kh_attr_int(&h, "broadcast", 1);
    kh_attr_int(&h, "axis", 0);
    assert_int_equal(kh_run2(&h, &ta, &tcol), OSC_OK);
    static const uint8_t want_col[6] = {1, 0, 1, 1, 1, 0};
    assert_memory_equal(h.out.data, want_col, sizeof want_col);
    kh_free(&h);
    kh_init(&h, "Xor", 1); /* broadcast=0 (the default): the shapes must be equal */
    assert_int_equal(kh_run2(&h, &ta, &trow), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 1 'B'");
    kh_assert_msg_has(&h, "broadcast=0");
    kh_free(&h);
    kh_init(&h, "Xor", 1);
    assert_int_equal(kh_run2(&h, &ta, &ta), OSC_OK);
    static const uint8_t zeros[6] = {0};
    assert_memory_equal(h.out.data, zeros, sizeof zeros);
    kh_free(&h);
    kh_init(&h, "Xor", 1); /* [2] does not sit at A's last dim */
    kh_attr_int(&h, "broadcast", 1);
    assert_int_equal(kh_run2(&h, &ta, &tcol), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "from axis 1");
    kh_free(&h);
    kh_init(&h, "Xor", 1);
    kh_attr_int(&h, "broadcast", 2);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'broadcast' = 2; allowed: 0 or 1");
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_rows_resolve),
    cmocka_unit_test(test_bitshift),
    cmocka_unit_test(test_bitshift_errors),
    cmocka_unit_test(test_bitwise_binary),
    cmocka_unit_test(test_bitwise_not),
    cmocka_unit_test(test_xor),
    cmocka_unit_test(test_xor_v1),
)
