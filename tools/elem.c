/* elem.c: reads and formats one tensor element of any dtype, small float formats included. */
/* float16/bfloat16/float8/float4 are decoded here: the runtime's dtype table is not public. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

cli_kind cli_dtype_kind(int32_t dtype) {
    switch (dtype) {
    case OSC_FLOAT: case OSC_DOUBLE: case OSC_FLOAT16: case OSC_BFLOAT16:
    case OSC_FLOAT8E4M3FN: case OSC_FLOAT8E4M3FNUZ: case OSC_FLOAT8E5M2:
    case OSC_FLOAT8E5M2FNUZ: case OSC_FLOAT4E2M1: case OSC_FLOAT8E8M0:
        return CLI_KIND_FLOAT;
    case OSC_COMPLEX64: case OSC_COMPLEX128: return CLI_KIND_COMPLEX;
    case OSC_INT8: case OSC_INT16: case OSC_INT32: case OSC_INT64: case OSC_INT4: case OSC_INT2:
        return CLI_KIND_SIGNED;
    case OSC_UINT8: case OSC_UINT16: case OSC_UINT32: case OSC_UINT64: case OSC_UINT4:
    case OSC_UINT2:
        return CLI_KIND_UNSIGNED;
    case OSC_BOOL: return CLI_KIND_BOOL;
    case OSC_STRING: return CLI_KIND_STRING;
    default: return CLI_KIND_OTHER;
    }
}

int cli_dtype_tolerant(int32_t dtype) {
    return dtype == OSC_FLOAT || dtype == OSC_DOUBLE || dtype == OSC_FLOAT16 ||
           dtype == OSC_BFLOAT16 || dtype == OSC_COMPLEX64 || dtype == OSC_COMPLEX128;
}

uint64_t cli_elem_bits(const osc_tensor *t, int64_t i) {
    const unsigned char *p = t->data;
    size_t bits = osc_dtype_bits(t->dtype);
    if (bits < 8) { /* packed: first element in the lowest bits */
        size_t bit = (size_t)i * bits;
        return (uint64_t)(p[bit / 8] >> (bit % 8)) & ((1u << bits) - 1u);
    }
    p += (size_t)i * (bits / 8);
    switch (bits) {
    case 8: return p[0];
    case 16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* Value of a minifloat with ebits exponent and mbits mantissa bits (no specials). */
static double minifloat(unsigned e, unsigned m, int mbits, int bias) {
    if (e == 0) return ldexp((double)m, 1 - bias - mbits);
    return ldexp(1.0 + ldexp((double)m, -mbits), (int)e - bias);
}

/* Decodes the small float formats. Specials follow the ONNX definitions: FN has no infinity and
 * NaN at all-ones; FNUZ has NaN at 0x80 only; E5M2 is IEEE-like; E8M0 is 2^(x-127), 0xFF NaN. */
static double small_float(int32_t dtype, unsigned v) {
    unsigned s = 0, e = 0, m = 0;
    double x;
    switch (dtype) {
    case OSC_FLOAT16:
        s = v >> 15, e = (v >> 10) & 31, m = v & 1023;
        x = e == 31 ? (m ? NAN : INFINITY) : minifloat(e, m, 10, 15);
        break;
    case OSC_FLOAT8E4M3FN:
        s = v >> 7, e = (v >> 3) & 15, m = v & 7;
        x = (e == 15 && m == 7) ? NAN : minifloat(e, m, 3, 7);
        break;
    case OSC_FLOAT8E4M3FNUZ:
        if (v == 0x80) return NAN;
        s = v >> 7, e = (v >> 3) & 15, m = v & 7;
        x = minifloat(e, m, 3, 8);
        break;
    case OSC_FLOAT8E5M2:
        s = v >> 7, e = (v >> 2) & 31, m = v & 3;
        x = e == 31 ? (m ? NAN : INFINITY) : minifloat(e, m, 2, 15);
        break;
    case OSC_FLOAT8E5M2FNUZ:
        if (v == 0x80) return NAN;
        s = v >> 7, e = (v >> 2) & 31, m = v & 3;
        x = minifloat(e, m, 2, 16);
        break;
    case OSC_FLOAT4E2M1:
        s = (v >> 3) & 1, e = (v >> 1) & 3, m = v & 1;
        x = minifloat(e, m, 1, 1);
        break;
    default: /* OSC_FLOAT8E8M0 */
        return v == 0xFF ? NAN : ldexp(1.0, (int)v - 127);
    }
    return s ? -x : x;
}

double cli_decode_float(int32_t dtype, uint64_t bits) {
    if (dtype == OSC_BFLOAT16) { /* the upper half of a float32 */
        uint32_t u = (uint32_t)bits << 16;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    return small_float(dtype, (unsigned)bits);
}

double cli_elem_float(const osc_tensor *t, int64_t i) {
    if (t->dtype == OSC_FLOAT) return ((const float *)t->data)[i];
    if (t->dtype == OSC_DOUBLE) return ((const double *)t->data)[i];
    uint64_t bits = cli_elem_bits(t, i);
    return cli_decode_float(t->dtype, bits);
}

void cli_elem_complex(const osc_tensor *t, int64_t i, double *re, double *im) {
    if (t->dtype == OSC_COMPLEX64) {
        const float *p = (const float *)t->data + 2 * i;
        *re = p[0], *im = p[1];
    } else {
        const double *p = (const double *)t->data + 2 * i;
        *re = p[0], *im = p[1];
    }
}

int64_t cli_elem_signed(const osc_tensor *t, int64_t i) {
    uint64_t u = cli_elem_bits(t, i);
    size_t bits = osc_dtype_bits(t->dtype);
    if (bits < 64 && (u >> (bits - 1)) & 1) u |= ~(uint64_t)0 << bits; /* sign-extend */
    int64_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

uint64_t cli_elem_unsigned(const osc_tensor *t, int64_t i) { return cli_elem_bits(t, i); }

void cli_format_real(double v, int as_float, char *buf, size_t size) {
    if (isnan(v)) { snprintf(buf, size, "nan"); return; }
    if (isinf(v)) { snprintf(buf, size, v < 0 ? "-inf" : "inf"); return; }
    char e[40];
    int p = 1;
    for (; p < 17; p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, v);
        double back = strtod(e, NULL);
        if (as_float ? (float)back == (float)v : back == v) break;
    }
    snprintf(e, sizeof e, "%.*e", p - 1, v);
    int x = atoi(strchr(e, 'e') + 1); /* decimal exponent of the first digit */
    if (x < -4 || x > 15) snprintf(buf, size, "%s", e);
    else snprintf(buf, size, "%.*f", p - 1 - x > 0 ? p - 1 - x : 0, v);
}

static void format_string(const osc_string *s, char *buf, size_t size) {
    size_t o = 0;
    if (size < 8) { if (size) buf[0] = '\0'; return; }
    buf[o++] = '"';
    for (size_t k = 0; k < s->len; k++) {
        unsigned char c = (unsigned char)s->ptr[k];
        if (o + 8 >= size) { memcpy(buf + o, "...", 3); o += 3; break; }
        if (c == '"' || c == '\\') o += (size_t)snprintf(buf + o, size - o, "\\%c", c);
        else if (c < 32 || c >= 127) o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
        else buf[o++] = (char)c;
    }
    buf[o++] = '"';
    buf[o] = '\0';
}

void cli_elem_format(const osc_tensor *t, int64_t i, char *buf, size_t size) {
    switch (cli_dtype_kind(t->dtype)) {
    case CLI_KIND_FLOAT:
        cli_format_real(cli_elem_float(t, i), t->dtype != OSC_DOUBLE, buf, size);
        return;
    case CLI_KIND_COMPLEX: {
        double re, im;
        char a[40], b[40];
        cli_elem_complex(t, i, &re, &im);
        cli_format_real(re, t->dtype == OSC_COMPLEX64, a, sizeof a);
        cli_format_real(fabs(im), t->dtype == OSC_COMPLEX64, b, sizeof b);
        snprintf(buf, size, "(%s%c%sj)", a, signbit(im) && !isnan(im) ? '-' : '+', b);
        return;
    }
    case CLI_KIND_SIGNED:
        snprintf(buf, size, "%lld", (long long)cli_elem_signed(t, i));
        return;
    case CLI_KIND_UNSIGNED:
        snprintf(buf, size, "%llu", (unsigned long long)cli_elem_unsigned(t, i));
        return;
    case CLI_KIND_BOOL: {
        unsigned v = (unsigned)cli_elem_bits(t, i);
        if (v <= 1) snprintf(buf, size, "%s", v ? "true" : "false");
        else snprintf(buf, size, "bool(%u)", v); /* not a valid bool byte: show it */
        return;
    }
    case CLI_KIND_STRING:
        format_string((const osc_string *)t->data + i, buf, size);
        return;
    default:
        snprintf(buf, size, "0x%llx", (unsigned long long)cli_elem_bits(t, i));
        return;
    }
}
