/* dtype.h: the tensor element type table, the X-macro type list and float16/bfloat16 conversion. */
#ifndef OSC_DTYPE_H
#define OSC_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_scatter.h"

typedef struct osc_complex64 { float re, im; } osc_complex64;
typedef struct osc_complex128 { double re, im; } osc_complex128;

/* The one list of byte-addressable types: X(enum, C storage type, class).
 * Classes: FLOAT (IEEE float/double), F16, BF16 (stored as uint16_t bits), SINT, UINT, BOOL
 * (uint8_t 0/1), STRING (osc_string), COMPLEX. Generic code expands this list; nothing is
 * written out per type by hand. */
#define OSC_STD_TYPES(X)                         \
    X(OSC_FLOAT, float, FLOAT)                   \
    X(OSC_DOUBLE, double, FLOAT)                 \
    X(OSC_FLOAT16, uint16_t, F16)                \
    X(OSC_BFLOAT16, uint16_t, BF16)              \
    X(OSC_INT8, int8_t, SINT)                    \
    X(OSC_INT16, int16_t, SINT)                  \
    X(OSC_INT32, int32_t, SINT)                  \
    X(OSC_INT64, int64_t, SINT)                  \
    X(OSC_UINT8, uint8_t, UINT)                  \
    X(OSC_UINT16, uint16_t, UINT)                \
    X(OSC_UINT32, uint32_t, UINT)                \
    X(OSC_UINT64, uint64_t, UINT)                \
    X(OSC_BOOL, uint8_t, BOOL)                   \
    X(OSC_STRING, osc_string, STRING)            \
    X(OSC_COMPLEX64, osc_complex64, COMPLEX)     \
    X(OSC_COMPLEX128, osc_complex128, COMPLEX)

typedef struct osc_dtype_info {
    const char *name; /* ONNX spelling: "float", "float16", "int4", ... */
    uint16_t bits;    /* storage bits per element; 0 for an unknown number */
    bool standard;    /* one of OSC_STD_TYPES (byte-addressable, kernels compute on it) */
} osc_dtype_info;

/* Info for a dtype number; a zeroed entry (bits == 0) for unknown numbers. */
const osc_dtype_info *osc_dtype_get(int32_t dtype);
static inline bool osc_dtype_valid(int32_t dtype) { return osc_dtype_get(dtype)->bits != 0; }
/* Bytes of `count` elements, rounded up for packed types; false on overflow or bad dtype. */
bool osc_dtype_bytes(int32_t dtype, int64_t count, size_t *out);

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
