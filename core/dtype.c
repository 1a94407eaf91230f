/* dtype.c: the dtype table, half-precision conversions and packed element copies. */
#include "dtype.h"

#include <stdio.h>
#include <string.h>

static const osc_dtype_info k_dtypes[OSC_DTYPE_COUNT] = {
    [OSC_FLOAT] = {"float", 32, true},
    [OSC_UINT8] = {"uint8", 8, true},
    [OSC_INT8] = {"int8", 8, true},
    [OSC_UINT16] = {"uint16", 16, true},
    [OSC_INT16] = {"int16", 16, true},
    [OSC_INT32] = {"int32", 32, true},
    [OSC_INT64] = {"int64", 64, true},
    [OSC_STRING] = {"string", 8 * sizeof(osc_string), true},
    [OSC_BOOL] = {"bool", 8, true},
    [OSC_FLOAT16] = {"float16", 16, true},
    [OSC_DOUBLE] = {"double", 64, true},
    [OSC_UINT32] = {"uint32", 32, true},
    [OSC_UINT64] = {"uint64", 64, true},
    [OSC_COMPLEX64] = {"complex64", 64, true},
    [OSC_COMPLEX128] = {"complex128", 128, true},
    [OSC_BFLOAT16] = {"bfloat16", 16, true},
    [OSC_FLOAT8E4M3FN] = {"float8e4m3fn", 8, false},
    [OSC_FLOAT8E4M3FNUZ] = {"float8e4m3fnuz", 8, false},
    [OSC_FLOAT8E5M2] = {"float8e5m2", 8, false},
    [OSC_FLOAT8E5M2FNUZ] = {"float8e5m2fnuz", 8, false},
    [OSC_UINT4] = {"uint4", 4, false},
    [OSC_INT4] = {"int4", 4, false},
    [OSC_FLOAT4E2M1] = {"float4e2m1", 4, false},
    [OSC_FLOAT8E8M0] = {"float8e8m0", 8, false},
    [OSC_UINT2] = {"uint2", 2, false},
    [OSC_INT2] = {"int2", 2, false},
};

static const osc_dtype_info k_unknown = {"undefined", 0, false};
/* the pseudo-dtypes of packed values (core/pack.h): bytes to the engine */
static const osc_dtype_info k_sequence = {"sequence", 8, false};
static const osc_dtype_info k_optional = {"optional", 8, false};

const osc_dtype_info *osc_dtype_get(int32_t dtype) {
    if (dtype == OSC_SEQUENCE) return &k_sequence;
    if (dtype == OSC_OPTIONAL) return &k_optional;
    if (dtype <= 0 || dtype >= OSC_DTYPE_COUNT) return &k_unknown;
    return &k_dtypes[dtype];
}

bool osc_dtype_bytes64(int32_t dtype, int64_t count, uint64_t *out) {
    unsigned bits = osc_dtype_get(dtype)->bits;
    int64_t total;
    if (bits == 0 || count < 0) return false;
    if (bits >= 8) {
        if (__builtin_mul_overflow(count, (int64_t)(bits / 8), &total)) return false;
    } else {
        if (__builtin_mul_overflow(count, (int64_t)bits, &total)) return false;
        total = total / 8 + (total % 8 != 0);
    }
    *out = (uint64_t)total;
    return true;
}

bool osc_dtype_bytes(int32_t dtype, int64_t count, size_t *out) {
    uint64_t total;
    if (!osc_dtype_bytes64(dtype, count, &total) || total > SIZE_MAX) return false;
    *out = (size_t)total;
    return true;
}

size_t osc_dtype_scalar_bytes(int32_t dtype) {
    const osc_dtype_info *d = osc_dtype_get(dtype);
    if (d->bits == 0 || dtype == OSC_STRING) return 0;
    if (d->bits <= 8) return 1;
    return dtype == OSC_COMPLEX64 || dtype == OSC_COMPLEX128 ? d->bits / 16u : d->bits / 8u;
}

void osc_swap_elems(int32_t dtype, void *data, size_t nbytes) {
    const size_t w = osc_dtype_scalar_bytes(dtype);
    unsigned char *p = data;
    if (w < 2) return;
    for (size_t o = 0; o + w <= nbytes; o += w)
        for (size_t i = 0, j = w - 1; i < j; i++, j--) {
            unsigned char t = p[o + i];
            p[o + i] = p[o + j];
            p[o + j] = t;
        }
}

static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

float osc_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1f) return bits_f32(sign | 0x7f800000u | (man << 13)); /* Inf / NaN */
    if (exp != 0) return bits_f32(sign | ((exp + 112) << 23) | (man << 13));
    if (man == 0) return bits_f32(sign);
    /* subnormal half: value is man * 2^-24, exact in float */
    float v = (float)man * 0x1p-24f;
    return sign ? -v : v;
}

uint16_t osc_f32_to_f16(float f) {
    uint32_t u = f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t exp = (u >> 23) & 0xffu;
    uint32_t man = u & 0x7fffffu;
    if (exp == 0xff) /* Inf stays Inf; NaN keeps its top payload bits and stays quiet NaN */
        return (uint16_t)(sign | 0x7c00u | (man ? (0x200u | (man >> 13)) : 0));
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 0x1f) return (uint16_t)(sign | 0x7c00u); /* overflow -> Inf */
    if (e <= 0) {
        /* subnormal or zero in half: shift the full significand, round to nearest even */
        if (e < -10) return sign; /* below half of the smallest subnormal */
        uint32_t m = man | 0x800000u;
        unsigned shift = (unsigned)(14 - e);
        uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1u))) q++;
        return (uint16_t)(sign | q);
    }
    uint32_t q = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (q & 1u))) q++; /* may carry into Inf: correct */
    return (uint16_t)(sign | q);
}

float osc_bf16_to_f32(uint16_t h) { return bits_f32((uint32_t)h << 16); }

uint16_t osc_f32_to_bf16(float f) {
    uint32_t u = f32_bits(f);
    if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu)) /* NaN: keep sign, force quiet */
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

void osc_copy_elems(void *dst, int64_t dst_i, const void *src, int64_t src_i, int64_t count,
                    unsigned bits) {
    if (bits >= 8) {
        size_t sz = bits / 8;
        memcpy((char *)dst + (size_t)dst_i * sz, (const char *)src + (size_t)src_i * sz,
               (size_t)count * sz);
        return;
    }
    uint8_t *d = dst;
    const uint8_t *s = src;
    unsigned per = 8 / bits, mask = (1u << bits) - 1;
    for (int64_t k = 0; k < count; k++) {
        int64_t si = src_i + k, di = dst_i + k;
        unsigned v = (s[si / per] >> ((unsigned)(si % per) * bits)) & mask;
        unsigned sh = (unsigned)(di % per) * bits;
        d[di / per] = (uint8_t)((d[di / per] & ~(mask << sh)) | (v << sh));
    }
}

const char *osc_typeset_str(uint64_t set, char *buf, size_t size) {
    size_t p = 0;
    if (size) buf[0] = 0;
    for (int32_t d = 1; d < 64 && size; d++) {
        if (!(set >> d & 1u)) continue;
        bool last = !(set >> (d + 1)); /* "a, b or c" */
        int n = snprintf(buf + p, size - p, "%s%s", !p ? "" : last ? " or " : ", ",
                         osc_dtype_get(d)->name);
        if (n < 0 || (size_t)n >= size - p) break; /* cut: what fits stays */
        p += (size_t)n;
    }
    return buf;
}
