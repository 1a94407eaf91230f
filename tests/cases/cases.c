/* cases.c: the table of hand-written cases; each expected output is worked out in its comment. */
#include "cases.h"

#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"

#define DIMS(...) .rank = (int32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), \
                  .dims = {__VA_ARGS__}
#define F32(...) .dtype = OSC_FLOAT, .data = (const float[]){__VA_ARGS__}
#define F16(...) .dtype = OSC_FLOAT16, .data = (const uint16_t[]){__VA_ARGS__}
#define BF16(...) .dtype = OSC_BFLOAT16, .data = (const uint16_t[]){__VA_ARGS__}
#define I8(...) .dtype = OSC_INT8, .data = (const int8_t[]){__VA_ARGS__}
#define I32(...) .dtype = OSC_INT32, .data = (const int32_t[]){__VA_ARGS__}
#define I64(...) .dtype = OSC_INT64, .data = (const int64_t[]){__VA_ARGS__}
#define U8(...) .dtype = OSC_UINT8, .data = (const uint8_t[]){__VA_ARGS__}
#define U64(...) .dtype = OSC_UINT64, .data = (const uint64_t[]){__VA_ARGS__}
#define U4(...) .dtype = OSC_UINT4, .data = (const uint8_t[]){__VA_ARGS__}
#define BOOL(...) .dtype = OSC_BOOL, .data = (const uint8_t[]){__VA_ARGS__}
#define STR(...) .dtype = OSC_STRING, .data = (const char *const[]){__VA_ARGS__}
#define C64(...) .dtype = OSC_COMPLEX64, .data = (const float[]){__VA_ARGS__}
#define C128(...) .dtype = OSC_COMPLEX128, .data = (const double[]){__VA_ARGS__}
#define NONE(dt) .dtype = dt, .data = NULL
#define CASE(nm, op_, opset_) .name = nm, .op = op_, .opset = opset_
#define AXIS(a) .has_axis = true, .axis = a
#define D "data"
#define I "indices"
#define U "updates"
#define Y "output"
#define T true
#define F false
#define NAN_F __builtin_nanf("")
#define INF_F __builtin_inff()

/* float16 bits: 1.0 = 0x3C00, 2^-11 = 0x1000, 3*2^-11 = 0x1600, 1 + 2^-9 = 0x3C02.
 * bfloat16 bits: 1.0 = 0x3F80, 2^-8 = 0x3B80, 3*2^-8 = 0x3C40, 1 + 2^-6 = 0x3F82. */

const hc_case hc_cases[] = {
    /* ---- int32 indices, negative indices, negative axis ---- */

    /* axis 1: row 0: col 2 = 10, col 0 = 20; row 1: col 1 = 30, col 2 = 40 */
    {CASE("scatter_elements_int32_indices", "ScatterElements", 18), AXIS(1), .n_in = 3,
     .in = {{D, F32(1, 2, 3, 4, 5, 6), DIMS(2, 3)}, {I, I32(2, 0, 1, 2), DIMS(2, 2)},
            {U, F32(10, 20, 30, 40), DIMS(2, 2)}},
     .out = {Y, F32(20, 2, 10, 4, 30, 40), DIMS(2, 3)}},
    /* axis -1 = 1: row 0: -1 -> col 3 = 9, -4 -> col 0 = 10; row 1: 0 -> col 0 = 11,
     * -2 -> col 2 = 12 */
    {CASE("scatter_elements_int32_negative_indices_negative_axis", "ScatterElements", 13),
     AXIS(-1), .n_in = 3,
     .in = {{D, I32(1, 2, 3, 4, 5, 6, 7, 8), DIMS(2, 4)}, {I, I32(-1, -4, 0, -2), DIMS(2, 2)},
            {U, I32(9, 10, 11, 12), DIMS(2, 2)}},
     .out = {Y, I32(10, 2, 3, 9, 11, 6, 12, 8), DIMS(2, 4)}},
    /* Scatter-9, spec example 2 with int32 indices and -4 for 1: [[1, 1.1, 3, 2.1, 5]] */
    {CASE("scatter9_int32_negative_indices", "Scatter", 10), AXIS(1), .n_in = 3,
     .in = {{D, F32(1, 2, 3, 4, 5), DIMS(1, 5)}, {I, I32(-4, 3), DIMS(1, 2)},
            {U, F32(1.1f, 2.1f), DIMS(1, 2)}},
     .out = {Y, F32(1, 1.1f, 3, 2.1f, 5), DIMS(1, 5)}},
    /* Scatter-11 (deprecated, runs as ScatterElements-11) with int64 indices along axis 0:
     * col 0 row 2 = 7, col 1 row 0 = 8 */
    {CASE("scatter11_deprecated", "Scatter", 11), .n_in = 3,
     .in = {{D, I64(1, 2, 3, 4, 5, 6), DIMS(3, 2)}, {I, I64(-1, 0), DIMS(1, 2)},
            {U, I64(7, 8), DIMS(1, 2)}},
     .out = {Y, I64(1, 8, 3, 4, 7, 6), DIMS(3, 2)}},
    /* k == r == 2: (-1, -1) -> [1][2] = 10; (0, -3) -> [0][0] = 20 */
    {CASE("scatter_nd_negative_indices", "ScatterND", 18), .n_in = 3,
     .in = {{D, F32(1, 2, 3, 4, 5, 6), DIMS(2, 3)}, {I, I64(-1, -1, 0, -3), DIMS(2, 2)},
            {U, F32(10, 20), DIMS(2)}},
     .out = {Y, F32(20, 2, 3, 4, 5, 10), DIMS(2, 3)}},
    /* k = 1 < r: row -1 = 2 gets [7, 8], row -3 = 0 gets [9, 10] */
    {CASE("scatter_nd_negative_slices", "ScatterND", 13), .n_in = 3,
     .in = {{D, I32(1, 2, 3, 4, 5, 6), DIMS(3, 2)}, {I, I64(-1, -3), DIMS(2, 1)},
            {U, I32(7, 8, 9, 10), DIMS(2, 2)}},
     .out = {Y, I32(9, 10, 3, 4, 7, 8), DIMS(3, 2)}},
    /* axis 1, int32 indices: row 0 takes cols -1 = 1 and 0: [2, 1]; row 1 takes cols -2 = 0
     * and -1 = 1: [3, 4] */
    {CASE("gather_elements_int32_negative_indices", "GatherElements", 13), AXIS(1), .n_in = 2,
     .in = {{D, F32(1, 2, 3, 4), DIMS(2, 2)}, {I, I32(-1, 0, -2, -1), DIMS(2, 2)}},
     .out = {Y, F32(2, 1, 3, 4), DIMS(2, 2)}},
    /* batch_dims 1: batch 0 picks row -1 = 1 of [[0,1],[2,3]], batch 1 row -2 = 0 of
     * [[4,5],[6,7]] */
    {CASE("gather_nd_batch_negative_indices", "GatherND", 13), .has_batch_dims = true,
     .batch_dims = 1, .n_in = 2,
     .in = {{D, I8(0, 1, 2, 3, 4, 5, 6, 7), DIMS(2, 2, 2)}, {I, I64(-1, -2), DIMS(2, 1)}},
     .out = {Y, I8(2, 3, 4, 5), DIMS(2, 2)}},

    /* ---- duplicates with each reduction (ScatterElements: rank 1, axis 0) ----
     * data [10, 2, 30], indices [0, 0, 2, 0], updates [5, 60, 7, 8]:
     * element 0 receives 5, 60, 8 in that order; element 2 receives 7. */
    /* add: 10+5+60+8 = 83, 30+7 = 37 */
    {CASE("scatter_elements_duplicates_add", "ScatterElements", 18), .reduction = "add",
     .n_in = 3,
     .in = {{D, I32(10, 2, 30), DIMS(3)}, {I, I64(0, 0, 2, 0), DIMS(4)},
            {U, I32(5, 60, 7, 8), DIMS(4)}},
     .out = {Y, I32(83, 2, 37), DIMS(3)}},
    /* mul: 10*5*60*8 = 24000, 30*7 = 210 */
    {CASE("scatter_elements_duplicates_mul", "ScatterElements", 16), .reduction = "mul",
     .n_in = 3,
     .in = {{D, I32(10, 2, 30), DIMS(3)}, {I, I64(0, 0, 2, 0), DIMS(4)},
            {U, I32(5, 60, 7, 8), DIMS(4)}},
     .out = {Y, I32(24000, 2, 210), DIMS(3)}},
    /* max: max(10, 5, 60, 8) = 60, max(30, 7) = 30 */
    {CASE("scatter_elements_duplicates_max", "ScatterElements", 18), .reduction = "max",
     .n_in = 3,
     .in = {{D, I32(10, 2, 30), DIMS(3)}, {I, I32(0, 0, 2, 0), DIMS(4)},
            {U, I32(5, 60, 7, 8), DIMS(4)}},
     .out = {Y, I32(60, 2, 30), DIMS(3)}},
    /* min: min(10, 5, 60, 8) = 5, min(30, 7) = 7 */
    {CASE("scatter_elements_duplicates_min", "ScatterElements", 18), .reduction = "min",
     .n_in = 3,
     .in = {{D, I32(10, 2, 30), DIMS(3)}, {I, I32(0, 0, 2, 0), DIMS(4)},
            {U, I32(5, 60, 7, 8), DIMS(4)}},
     .out = {Y, I32(5, 2, 7), DIMS(3)}},
    /* none: the spec calls duplicates undefined; this runtime applies updates in row-major
     * order, so the last write wins: element 0 = 8, element 2 = 7 */
    {CASE("scatter_elements_duplicates_none_last_wins", "ScatterElements", 18), .n_in = 3,
     .in = {{D, I32(10, 2, 30), DIMS(3)}, {I, I64(0, 0, 2, 0), DIMS(4)},
            {U, I32(5, 60, 7, 8), DIMS(4)}},
     .out = {Y, I32(8, 2, 7), DIMS(3)}},

    /* ---- ScatterND duplicates with multi-axis (k = 2) indices ----
     * data [[1, 2], [3, 4]], tuples (0,1), (1,0), (0,1), updates [10, -5, 0.5]:
     * [0][1] receives 10 then 0.5; [1][0] receives -5. */
    /* add: 2+10+0.5 = 12.5, 3-5 = -2 */
    {CASE("scatter_nd_duplicates_add", "ScatterND", 16), .reduction = "add", .n_in = 3,
     .in = {{D, F32(1, 2, 3, 4), DIMS(2, 2)}, {I, I64(0, 1, 1, 0, 0, 1), DIMS(3, 2)},
            {U, F32(10, -5, 0.5f), DIMS(3)}},
     .out = {Y, F32(1, 12.5f, -2, 4), DIMS(2, 2)}},
    /* mul: 2*10*0.5 = 10, 3*-5 = -15 */
    {CASE("scatter_nd_duplicates_mul", "ScatterND", 18), .reduction = "mul", .n_in = 3,
     .in = {{D, F32(1, 2, 3, 4), DIMS(2, 2)}, {I, I64(0, 1, 1, 0, 0, 1), DIMS(3, 2)},
            {U, F32(10, -5, 0.5f), DIMS(3)}},
     .out = {Y, F32(1, 10, -15, 4), DIMS(2, 2)}},
    /* max: max(2, 10, 0.5) = 10, max(3, -5) = 3 */
    {CASE("scatter_nd_duplicates_max", "ScatterND", 18), .reduction = "max", .n_in = 3,
     .in = {{D, F32(1, 2, 3, 4), DIMS(2, 2)}, {I, I64(0, 1, 1, 0, 0, 1), DIMS(3, 2)},
            {U, F32(10, -5, 0.5f), DIMS(3)}},
     .out = {Y, F32(1, 10, 3, 4), DIMS(2, 2)}},
    /* min: min(2, 10, 0.5) = 0.5, min(3, -5) = -5 */
    {CASE("scatter_nd_duplicates_min", "ScatterND", 18), .reduction = "min", .n_in = 3,
     .in = {{D, F32(1, 2, 3, 4), DIMS(2, 2)}, {I, I64(0, 1, 1, 0, 0, 1), DIMS(3, 2)},
            {U, F32(10, -5, 0.5f), DIMS(3)}},
     .out = {Y, F32(1, 0.5f, -5, 4), DIMS(2, 2)}},
    /* none: last write wins: [0][1] = 0.5, [1][0] = -5 */
    {CASE("scatter_nd_duplicates_none_last_wins", "ScatterND", 18), .n_in = 3,
     .in = {{D, F32(1, 2, 3, 4), DIMS(2, 2)}, {I, I64(0, 1, 1, 0, 0, 1), DIMS(3, 2)},
            {U, F32(10, -5, 0.5f), DIMS(3)}},
     .out = {Y, F32(1, 0.5f, -5, 4), DIMS(2, 2)}},

    /* ---- k == 0: every update covers the whole tensor ---- */
    /* add: [[1,2],[3,4]] + [[10,20],[30,40]] + [[100,200],[300,400]] */
    {CASE("scatter_nd_k0_add", "ScatterND", 16), .reduction = "add", .n_in = 3,
     .in = {{D, F32(1, 2, 3, 4), DIMS(2, 2)}, {I, NONE(OSC_INT64), DIMS(2, 0)},
            {U, F32(10, 20, 30, 40, 100, 200, 300, 400), DIMS(2, 2, 2)}},
     .out = {Y, F32(111, 222, 333, 444), DIMS(2, 2)}},
    /* none: the one update replaces everything */
    {CASE("scatter_nd_k0_none", "ScatterND", 11), .n_in = 3,
     .in = {{D, U8(1, 2, 3), DIMS(3)}, {I, NONE(OSC_INT64), DIMS(1, 0)},
            {U, U8(7, 8, 9), DIMS(1, 3)}},
     .out = {Y, U8(7, 8, 9), DIMS(3)}},
    /* GatherND k == 0 (an extension: the spec asks k >= 1): three copies of the whole data */
    {CASE("gather_nd_k0", "GatherND", 13), .n_in = 2,
     .in = {{D, I8(1, 2, 3, 4), DIMS(2, 2)}, {I, NONE(OSC_INT64), DIMS(3, 0)}},
     .out = {Y, I8(1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4), DIMS(3, 2, 2)}},

    /* ---- bool ---- */
    /* add = or: [0] = F|F|T = T, [1] = T|F = T, [3] = F|F = F */
    {CASE("scatter_elements_bool_add_is_or", "ScatterElements", 18), .reduction = "add",
     .n_in = 3,
     .in = {{D, BOOL(F, T, F, F), DIMS(4)}, {I, I64(0, 0, 3, 1), DIMS(4)},
            {U, BOOL(F, T, F, F), DIMS(4)}},
     .out = {Y, BOOL(T, T, F, F), DIMS(4)}},
    /* mul = and: [0] = T&T&F = F, [3] = T&T = T, [2] = F&T = F */
    {CASE("scatter_nd_bool_mul_is_and", "ScatterND", 16), .reduction = "mul", .n_in = 3,
     .in = {{D, BOOL(T, T, F, T), DIMS(4)}, {I, I64(0, 0, 3, 2), DIMS(4, 1)},
            {U, BOOL(T, F, T, T), DIMS(4)}},
     .out = {Y, BOOL(F, T, F, T), DIMS(4)}},
    /* max = or: [1] = F|F|T = T */
    {CASE("scatter_nd_bool_max_is_or", "ScatterND", 18), .reduction = "max", .n_in = 3,
     .in = {{D, BOOL(F, F, T), DIMS(3)}, {I, I64(1, 1), DIMS(2, 1)}, {U, BOOL(F, T), DIMS(2)}},
     .out = {Y, BOOL(F, T, T), DIMS(3)}},
    /* min = and: [0] = T&T&T = T, [2] = T&F = F */
    {CASE("scatter_elements_bool_min_is_and", "ScatterElements", 18), .reduction = "min",
     .n_in = 3,
     .in = {{D, BOOL(T, T, T), DIMS(3)}, {I, I32(0, 2, 0), DIMS(3)},
            {U, BOOL(T, F, T), DIMS(3)}},
     .out = {Y, BOOL(T, T, F), DIMS(3)}},

    /* ---- string ---- */
    /* add concatenates in order: [0] = "a" "x" "w", [2] = "" "yz" */
    {CASE("scatter_elements_string_add_concatenates", "ScatterElements", 18),
     .reduction = "add", .n_in = 3,
     .in = {{D, STR("a", "b", ""), DIMS(3)}, {I, I64(0, 2, 0), DIMS(3)},
            {U, STR("x", "yz", "w"), DIMS(3)}},
     .out = {Y, STR("axw", "b", "yz"), DIMS(3)}},
    /* max by bytes, a prefix sorts first, bytes are unsigned:
     * [0] = max("apple", "apples", "ap") = "apples"; [1] = max("b", "a") = "b";
     * [2] = max("\x7f", "\x80") = "\x80" */
    {CASE("scatter_nd_string_max", "ScatterND", 18), .reduction = "max", .n_in = 3,
     .in = {{D, STR("apple", "b", "\x7f"), DIMS(3)}, {I, I64(0, 1, 0, 2), DIMS(4, 1)},
            {U, STR("apples", "a", "ap", "\x80"), DIMS(4)}},
     .out = {Y, STR("apples", "b", "\x80"), DIMS(3)}},
    /* min: [1] = min("zz", "z", "zzz") = "z"; [0] = min("b", "") = "" */
    {CASE("scatter_elements_string_min", "ScatterElements", 18), .reduction = "min",
     .n_in = 3,
     .in = {{D, STR("b", "zz"), DIMS(2)}, {I, I64(1, 1, 0), DIMS(3)},
            {U, STR("z", "zzz", ""), DIMS(3)}},
     .out = {Y, STR("", "z"), DIMS(2)}},
    /* plain gather of strings along axis 1 with int32 indices */
    {CASE("gather_elements_string", "GatherElements", 11), AXIS(1), .n_in = 2,
     .in = {{D, STR("a", "b", "c", "d"), DIMS(2, 2)}, {I, I32(1, 0, 0, 0), DIMS(2, 2)}},
     .out = {Y, STR("b", "a", "c", "c"), DIMS(2, 2)}},

    /* ---- float16 / bfloat16: rounded to nearest even after every single update ----
     * float16: 1 + 2^-11 is halfway between 1 and 1 + 2^-10 and rounds to the even 1, so four
     * updates of 2^-11 leave 1.0 (summing first would give 1 + 2^-9); 1 + 3*2^-11 is halfway
     * between 1 + 2^-10 (odd) and 1 + 2^-9 (even) and rounds up to 1 + 2^-9. */
    {CASE("scatter_elements_float16_add_rounds_each_update", "ScatterElements", 18),
     .reduction = "add", .n_in = 3,
     .in = {{D, F16(0x3C00, 0x3C00), DIMS(2)}, {I, I64(0, 0, 0, 0, 1), DIMS(5)},
            {U, F16(0x1000, 0x1000, 0x1000, 0x1000, 0x1600), DIMS(5)}},
     .out = {Y, F16(0x3C00, 0x3C02), DIMS(2)}},
    /* bfloat16: the same with 2^-8 and 3*2^-8 around 1.0 (spacing 2^-7) */
    {CASE("scatter_nd_bfloat16_add_rounds_each_update", "ScatterND", 18), .reduction = "add",
     .n_in = 3,
     .in = {{D, BF16(0x3F80, 0x3F80), DIMS(2)}, {I, I64(0, 0, 0, 0, 1), DIMS(5, 1)},
            {U, BF16(0x3B80, 0x3B80, 0x3B80, 0x3B80, 0x3C40), DIMS(5)}},
     .out = {Y, BF16(0x3F80, 0x3F82), DIMS(2)}},
    /* float16 max: 1 vs NaN (0x7E00) -> NaN; 2 vs 1 -> 2; -Inf (0xFC00) vs 3 -> 3 */
    {CASE("scatter_elements_float16_max_nan", "ScatterElements", 18), .reduction = "max",
     .n_in = 3,
     .in = {{D, F16(0x3C00, 0x4000, 0xFC00), DIMS(3)}, {I, I64(0, 1, 2), DIMS(3)},
            {U, F16(0x7E00, 0x3C00, 0x4200), DIMS(3)}},
     .out = {Y, F16(0x7E00, 0x4000, 0x4200), DIMS(3)}},
    /* float min/max with NaN on either side and infinities:
     * min: [0] = min(1, NaN) = NaN, [1] = min(NaN, 5) = NaN, [2] = min(3, -Inf) = -Inf */
    {CASE("scatter_elements_float_min_nan_inf", "ScatterElements", 18), .reduction = "min",
     .n_in = 3,
     .in = {{D, F32(1, NAN_F, 3), DIMS(3)}, {I, I64(0, 1, 2), DIMS(3)},
            {U, F32(NAN_F, 5, -INF_F), DIMS(3)}},
     .out = {Y, F32(NAN_F, NAN_F, -INF_F), DIMS(3)}},

    /* ---- complex ---- */
    /* add: (1+2i) + (3+4i) + (5-6i) = 9+0i */
    {CASE("scatter_elements_complex64_add", "ScatterElements", 18), .reduction = "add",
     .n_in = 3,
     .in = {{D, C64(1, 2), DIMS(1)}, {I, I64(0, 0), DIMS(2)}, {U, C64(3, 4, 5, -6), DIMS(2)}},
     .out = {Y, C64(9, 0), DIMS(1)}},
    /* mul: (1+i) * i = -1+i; * 2 = -2+2i */
    {CASE("scatter_nd_complex128_mul", "ScatterND", 16), .reduction = "mul", .n_in = 3,
     .in = {{D, C128(1, 1), DIMS(1)}, {I, I64(0, 0), DIMS(2, 1)}, {U, C128(0, 1, 2, 0), DIMS(2)}},
     .out = {Y, C128(-2, 2), DIMS(1)}},
    /* max compares (re, im): [0] = max(1+5i, 1+7i, 0+100i) = 1+7i; [1] = max(2+0i, 2-1i) = 2 */
    {CASE("scatter_elements_complex128_max", "ScatterElements", 18), .reduction = "max",
     .n_in = 3,
     .in = {{D, C128(1, 5, 2, 0), DIMS(2)}, {I, I64(0, 0, 1), DIMS(3)},
            {U, C128(1, 7, 0, 100, 2, -1), DIMS(3)}},
     .out = {Y, C128(1, 7, 2, 0), DIMS(2)}},
    /* min: min(1+5i, 1-7i) = 1-7i; min(1-7i, 0+100i) = 0+100i */
    {CASE("scatter_nd_complex64_min", "ScatterND", 18), .reduction = "min", .n_in = 3,
     .in = {{D, C64(1, 5), DIMS(1)}, {I, I64(0, 0), DIMS(2, 1)}, {U, C64(1, -7, 0, 100), DIMS(2)}},
     .out = {Y, C64(0, 100), DIMS(1)}},

    /* ---- integer overflow wraps ---- */
    /* int8 add: 127+1+1 -> -128 -> -127; -128 + -1 -> 127 */
    {CASE("scatter_elements_int8_add_wraps", "ScatterElements", 18), .reduction = "add",
     .n_in = 3,
     .in = {{D, I8(127, -128), DIMS(2)}, {I, I64(0, 1, 0), DIMS(3)}, {U, I8(1, -1, 1), DIMS(3)}},
     .out = {Y, I8(-127, 127), DIMS(2)}},
    /* uint8 mul: 16*16 = 256 -> 0; 255*255 = 65025 = 254*256 + 1 -> 1 */
    {CASE("scatter_nd_uint8_mul_wraps", "ScatterND", 16), .reduction = "mul", .n_in = 3,
     .in = {{D, U8(16, 255), DIMS(2)}, {I, I64(0, 1), DIMS(2, 1)}, {U, U8(16, 255), DIMS(2)}},
     .out = {Y, U8(0, 1), DIMS(2)}},
    /* int64 mul: (2^63 - 1) * 2 = 2^64 - 2 -> -2 */
    {CASE("scatter_elements_int64_mul_wraps", "ScatterElements", 16), .reduction = "mul",
     .n_in = 3,
     .in = {{D, I64(INT64_MAX), DIMS(1)}, {I, I32(0), DIMS(1)}, {U, I64(2), DIMS(1)}},
     .out = {Y, I64(-2), DIMS(1)}},
    /* uint64 add: (2^64 - 1) + 2 -> 1 */
    {CASE("scatter_elements_uint64_add_wraps", "ScatterElements", 18), .reduction = "add",
     .n_in = 3,
     .in = {{D, U64(UINT64_MAX), DIMS(1)}, {I, I64(0), DIMS(1)}, {U, U64(2), DIMS(1)}},
     .out = {Y, U64(1), DIMS(1)}},

    /* ---- zero-size dims ---- */
    {CASE("scatter_elements_zero_size", "ScatterElements", 18), AXIS(1), .n_in = 3,
     .in = {{D, NONE(OSC_FLOAT), DIMS(0, 3)}, {I, NONE(OSC_INT64), DIMS(0, 2)},
            {U, NONE(OSC_FLOAT), DIMS(0, 2)}},
     .out = {Y, NONE(OSC_FLOAT), DIMS(0, 3)}},
    /* no update tuples: the output is the data */
    {CASE("scatter_nd_no_updates", "ScatterND", 18), .reduction = "mul", .n_in = 3,
     .in = {{D, F32(1, 2, 3), DIMS(3)}, {I, NONE(OSC_INT64), DIMS(0, 1)},
            {U, NONE(OSC_FLOAT), DIMS(0)}},
     .out = {Y, F32(1, 2, 3), DIMS(3)}},
    /* slices of size 0: data [2, 0], tuples (1), (-2) */
    {CASE("scatter_nd_zero_size_slices", "ScatterND", 18), .n_in = 3,
     .in = {{D, NONE(OSC_INT32), DIMS(2, 0)}, {I, I64(1, -2), DIMS(2, 1)},
            {U, NONE(OSC_INT32), DIMS(2, 0)}},
     .out = {Y, NONE(OSC_INT32), DIMS(2, 0)}},
    {CASE("gather_elements_zero_size", "GatherElements", 13), AXIS(0), .n_in = 2,
     .in = {{D, F32(1, 2, 3, 4), DIMS(2, 2)}, {I, NONE(OSC_INT32), DIMS(2, 0)}},
     .out = {Y, NONE(OSC_FLOAT), DIMS(2, 0)}},
    {CASE("gather_nd_zero_size", "GatherND", 12), .n_in = 2,
     .in = {{D, F32(1, 2, 3, 4, 5, 6), DIMS(3, 2)}, {I, NONE(OSC_INT64), DIMS(0, 1)}},
     .out = {Y, NONE(OSC_FLOAT), DIMS(0, 2)}},

    /* ---- TensorScatter ---- */
    /* circular, batch 3 >= max_sequence_length 2, axis -2 = 1, update of 2 steps:
     * batch 0, write index 1: steps go to 1 and (1+1) mod 2 = 0;
     * batch 1, write index 2: 2 mod 2 = 0, then 1;
     * batch 2, write index -1: -1 mod 2 = 1, then 0.
     * Only the sequence coordinate wraps (the spec's pseudocode would also take batch 2 mod 2
     * and write batch 2's update into batch 0). */
    {CASE("tensor_scatter_circular_batch_ge_max_seq", "TensorScatter", 24), .mode = "circular",
     .n_in = 3,
     .in = {{"past_cache", F32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), DIMS(3, 2, 2)},
            {"update", F32(100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111),
             DIMS(3, 2, 2)},
            {"write_indices", I64(1, 2, -1), DIMS(3)}},
     .out = {"present_cache", F32(102, 103, 100, 101, 104, 105, 106, 107, 110, 111, 108, 109),
             DIMS(3, 2, 2)}},
    /* circular with sequence_length 2 < max 3 on axis 1 of [4, 3, 1], batch 4 > 3:
     * batch 0 w=2: 2, 0; batch 1 w=0: 0, 1; batch 2 w=5: 2, 0; batch 3 w=-4: 2, 0 */
    {CASE("tensor_scatter_circular_wrap_partial", "TensorScatter", 24), .mode = "circular",
     AXIS(1), .n_in = 3,
     .in = {{"past_cache", I32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), DIMS(4, 3, 1)},
            {"update", I32(-1, -2, -3, -4, -5, -6, -7, -8), DIMS(4, 2, 1)},
            {"write_indices", I64(2, 0, 5, -4), DIMS(4)}},
     .out = {"present_cache", I32(-2, 2, -1, -3, -4, 6, -6, 8, -5, -8, 11, -7), DIMS(4, 3, 1)}},
    /* linear on packed uint4, axis -1: row 0 from 0, row 1 from 2 */
    {CASE("tensor_scatter_linear_uint4", "TensorScatter", 24), AXIS(-1), .n_in = 3,
     .in = {{"past_cache", U4(1, 2, 3, 4, 5, 6, 7, 8), DIMS(2, 4)},
            {"update", U4(9, 10, 11, 12), DIMS(2, 2)}, {"write_indices", I64(0, 2), DIMS(2)}},
     .out = {"present_cache", U4(9, 10, 3, 4, 5, 6, 11, 12), DIMS(2, 4)}},
    /* no write_indices: all batches write from 0 (default axis -2) */
    {CASE("tensor_scatter_no_write_indices", "TensorScatter", 24), .n_in = 2,
     .in = {{"past_cache", BF16(0x3F80, 0x4000, 0x4040, 0x4080), DIMS(2, 2, 1)},
            {"update", BF16(0xBF80, 0xC000), DIMS(2, 1, 1)}},
     .out = {"present_cache", BF16(0xBF80, 0x4000, 0xC000, 0x4080), DIMS(2, 2, 1)}},
};

const size_t hc_count = sizeof hc_cases / sizeof hc_cases[0];

osc_tensor hc_view(const hc_tensor *t, osc_string **strs, uint8_t **packed) {
    osc_tensor v;
    memset(&v, 0, sizeof v);
    v.dtype = t->dtype;
    v.rank = t->rank;
    int64_t n = 1;
    for (int32_t i = 0; i < t->rank; i++) n *= (v.dims[i] = t->dims[i]);
    osc_dtype_bytes(t->dtype, n, &v.nbytes);
    v.data = (void *)t->data;
    *strs = NULL;
    *packed = NULL;
    if (t->dtype == OSC_STRING && n > 0) {
        const char *const *s = t->data;
        *strs = calloc((size_t)n, sizeof **strs);
        if (!*strs) abort();
        for (int64_t i = 0; i < n; i++) (*strs)[i] = (osc_string){s[i], strlen(s[i])};
        v.data = *strs;
    }
    unsigned bits = osc_dtype_get(t->dtype)->bits;
    if (bits < 8 && n > 0) { /* one element per byte in the table, packed low bits first */
        *packed = calloc(1, v.nbytes);
        if (!*packed) abort();
        const uint8_t *e = t->data;
        for (int64_t i = 0; i < n; i++)
            (*packed)[i * bits / 8] |= (uint8_t)((e[i] & ((1u << bits) - 1)) << (i * bits % 8));
        v.data = *packed;
    }
    return v;
}
