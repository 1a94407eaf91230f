/* dtype.h: the tensor element type table, the X-macro type list and float16/bfloat16 conversion. */
#ifndef OSC_DTYPE_H
#define OSC_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_scatter.h"

typedef struct osc_complex64 { float re, im; } osc_complex64;
typedef struct osc_complex128 { double re, im; } osc_complex128;

/* The one list of byte-addressable types, X(enum, C storage type, class), built from one list
 * per type class so generic code can expand a class (OSC_INT_TYPES) or all of them
 * (OSC_STD_TYPES); nothing is written out per type by hand. Classes: FLOAT (IEEE float/double),
 * F16, BF16 (stored as uint16_t bits), SINT, UINT, BOOL (uint8_t 0/1), STRING (osc_string),
 * COMPLEX. */
#define OSC_IEEE_TYPES(X) X(OSC_FLOAT, float, FLOAT) X(OSC_DOUBLE, double, FLOAT)
#define OSC_HALF_TYPES(X) X(OSC_FLOAT16, uint16_t, F16) X(OSC_BFLOAT16, uint16_t, BF16)
#define OSC_SINT_TYPES(X)                                                                      \
    X(OSC_INT8, int8_t, SINT) X(OSC_INT16, int16_t, SINT) X(OSC_INT32, int32_t, SINT)          \
    X(OSC_INT64, int64_t, SINT)
#define OSC_UINT_TYPES(X)                                                                      \
    X(OSC_UINT8, uint8_t, UINT) X(OSC_UINT16, uint16_t, UINT) X(OSC_UINT32, uint32_t, UINT)    \
    X(OSC_UINT64, uint64_t, UINT)
#define OSC_COMPLEX_TYPES(X)                                                                   \
    X(OSC_COMPLEX64, osc_complex64, COMPLEX) X(OSC_COMPLEX128, osc_complex128, COMPLEX)
/* unions of classes */
#define OSC_FLOAT_TYPES(X) OSC_IEEE_TYPES(X) OSC_HALF_TYPES(X)
#define OSC_INT_TYPES(X) OSC_SINT_TYPES(X) OSC_UINT_TYPES(X)
#define OSC_SIGNED_TYPES(X) OSC_FLOAT_TYPES(X) OSC_SINT_TYPES(X)
#define OSC_REAL_TYPES(X) OSC_FLOAT_TYPES(X) OSC_INT_TYPES(X) /* every real number type */
#define OSC_STD_TYPES(X)                                                                       \
    OSC_REAL_TYPES(X) X(OSC_BOOL, uint8_t, BOOL) X(OSC_STRING, osc_string, STRING)             \
    OSC_COMPLEX_TYPES(X)

/* Type sets (bit d for dtype number d), for the registry rows' type constraints. */
#define OSC_TS(d) ((uint64_t)1 << (d))
#define OSC_TS_OR_(e, T, c) | OSC_TS(e)
#define OSC_TS_IEEE (0 OSC_IEEE_TYPES(OSC_TS_OR_))
#define OSC_TS_FLOAT (0 OSC_FLOAT_TYPES(OSC_TS_OR_))
#define OSC_TS_SINT (0 OSC_SINT_TYPES(OSC_TS_OR_))
#define OSC_TS_UINT (0 OSC_UINT_TYPES(OSC_TS_OR_))
#define OSC_TS_INT (0 OSC_INT_TYPES(OSC_TS_OR_))
#define OSC_TS_SIGNED (0 OSC_SIGNED_TYPES(OSC_TS_OR_))
#define OSC_TS_REAL (0 OSC_REAL_TYPES(OSC_TS_OR_))
#define OSC_TS_STD (0 OSC_STD_TYPES(OSC_TS_OR_))
#define OSC_TS_INDEX (OSC_TS(OSC_INT32) | OSC_TS(OSC_INT64))
/* the packed values (core/pack.h): the spec's seq(...) and optional(...) constraints */
#define OSC_TS_SEQ OSC_TS(OSC_SEQUENCE)
#define OSC_TS_OPT OSC_TS(OSC_OPTIONAL)
/* the arithmetic ops' list before 14: 32/64-bit integers and float16/float/double (bfloat16 at 13) */
#define OSC_TS_ARITH_V7                                                                        \
    (OSC_TS(OSC_INT32) | OSC_TS(OSC_INT64) | OSC_TS(OSC_UINT32) | OSC_TS(OSC_UINT64) |         \
     OSC_TS(OSC_FLOAT16) | OSC_TS(OSC_FLOAT) | OSC_TS(OSC_DOUBLE))
#define OSC_TS_ARITH_V13 (OSC_TS_ARITH_V7 | OSC_TS(OSC_BFLOAT16))
#define OSC_TS_FLOAT8                                                                          \
    (OSC_TS(OSC_FLOAT8E4M3FN) | OSC_TS(OSC_FLOAT8E4M3FNUZ) | OSC_TS(OSC_FLOAT8E5M2) |          \
     OSC_TS(OSC_FLOAT8E5M2FNUZ))
/* The spec's "all tensor types" as each opset grew it: 15 classic types; bfloat16 from 13; the
 * float8 kinds from 19; int4/uint4 from 21; float4e2m1 from 23; float8e8m0 from 24; int2/uint2
 * from 25. */
#define OSC_TS_ALL_V1 (OSC_TS_STD & ~OSC_TS(OSC_BFLOAT16))
#define OSC_TS_ALL_V13 OSC_TS_STD
#define OSC_TS_ALL_V19 (OSC_TS_ALL_V13 | OSC_TS_FLOAT8)
#define OSC_TS_ALL_V21 (OSC_TS_ALL_V19 | OSC_TS(OSC_UINT4) | OSC_TS(OSC_INT4))
#define OSC_TS_ALL_V23 (OSC_TS_ALL_V21 | OSC_TS(OSC_FLOAT4E2M1))
#define OSC_TS_ALL_V24 (OSC_TS_ALL_V23 | OSC_TS(OSC_FLOAT8E8M0))
#define OSC_TS_ALL_V25 (OSC_TS_ALL_V24 | OSC_TS(OSC_UINT2) | OSC_TS(OSC_INT2))

/* "float, uint8, ... or complex128" (the set's dtype names, in dtype-number order) into buf;
 * returns buf. */
const char *osc_typeset_str(uint64_t set, char *buf, size_t size);

typedef struct osc_dtype_info {
    const char *name; /* ONNX spelling: "float", "float16", "int4", ... */
    uint16_t bits;    /* storage bits per element; 0 for an unknown number */
    bool standard;    /* one of OSC_STD_TYPES (byte-addressable, kernels compute on it) */
} osc_dtype_info;

/* Info for a dtype number; a zeroed entry (bits == 0) for unknown numbers. */
const osc_dtype_info *osc_dtype_get(int32_t dtype);
/* A tensor dtype (not OSC_SEQUENCE or OSC_OPTIONAL, which osc_dtype_get knows too). */
static inline bool osc_dtype_valid(int32_t dtype) {
    return dtype > 0 && dtype < OSC_DTYPE_COUNT && osc_dtype_get(dtype)->bits != 0;
}
/* Bytes of `count` elements, rounded up for packed types; false on overflow or bad dtype.
 * osc_dtype_bytes also fails when the bytes do not fit size_t (a 32-bit machine); the 64-bit
 * form tells the two apart, so that callers can report that case as a limit. */
bool osc_dtype_bytes(int32_t dtype, int64_t count, size_t *out);
bool osc_dtype_bytes64(int32_t dtype, int64_t count, uint64_t *out);

/* Byte order. ONNX stores raw_data and external data little-endian (onnx.proto), numpy's '<'
 * descr too; tensors in memory are in the machine's order. OSC_BIG_ENDIAN is 1 on a big-endian
 * machine (s390x), 0 elsewhere. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define OSC_BIG_ENDIAN 1
#else
#define OSC_BIG_ENDIAN 0
#endif
/* Bytes of the scalars byte order applies to in a dtype's element: the element size, half of
 * it for complex (re, im), 1 for bool, float8 kinds and the packed 4-bit and 2-bit types (their
 * nibbles sit in bytes the same way on every machine), 0 for strings and unknown dtypes. */
size_t osc_dtype_scalar_bytes(int32_t dtype);
/* Reverses the bytes of every scalar in the nbytes bytes of dtype elements at data, on any
 * machine (the conversion between the two byte orders). */
void osc_swap_elems(int32_t dtype, void *data, size_t nbytes);
/* Little-endian bytes (raw_data, external data) to the machine's order in place, and back: a
 * no-op on a little-endian machine, osc_swap_elems on a big-endian one. */
static inline void osc_le_swap(int32_t dtype, void *data, size_t nbytes) {
#if OSC_BIG_ENDIAN
    osc_swap_elems(dtype, data, nbytes);
#else
    (void)dtype, (void)data, (void)nbytes;
#endif
}

/* Exact conversions; float -> half rounds to nearest even (NaN stays NaN, overflow -> Inf). */
float osc_f16_to_f32(uint16_t h);
uint16_t osc_f32_to_f16(float f);
float osc_bf16_to_f32(uint16_t h);
uint16_t osc_f32_to_bf16(float f);

/* Copies `count` packed elements of `bits` bits (1, 2, 4 or a multiple of 8) from element
 * index src_i of src to element index dst_i of dst. Regions may not overlap. */
void osc_copy_elems(void *dst, int64_t dst_i, const void *src, int64_t src_i, int64_t count,
                    unsigned bits);

#endif
