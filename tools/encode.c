/* encode.c: writes tensor elements of any dtype (the inverse of elem.c) and allocates CLI tensors. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Nearest value of an IEEE-style binary format (top exponent = inf/NaN) with ebits exponent and
 * mbits mantissa bits, ties to even, overflow to infinity: float16 and bfloat16. Rounds once,
 * straight from double, so there is no double rounding through float. */
static uint64_t ieee_small(double v, int ebits, int mbits) {
    int bias = (1 << (ebits - 1)) - 1;
    uint64_t sign = (uint64_t)(signbit(v) ? 1 : 0) << (ebits + mbits);
    uint64_t expmask = ((uint64_t)1 << ebits) - 1;
    if (isnan(v)) return sign | (expmask << mbits) | ((uint64_t)1 << (mbits - 1));
    double x = fabs(v);
    /* halfway between the largest finite value and 2^(bias+1): ties go to the even infinity */
    if (x >= ldexp(2.0 - ldexp(1.0, -mbits - 1), bias)) return sign | (expmask << mbits);
    if (x < ldexp(1.0, 1 - bias)) /* subnormal (rounding up to the smallest normal is fine) */
        return sign | (uint64_t)nearbyint(ldexp(x, bias - 1 + mbits));
    int e;
    frexp(x, &e);
    e -= 1; /* x in [2^e, 2^(e+1)) */
    double m = nearbyint((ldexp(x, -e) - 1.0) * ldexp(1.0, mbits));
    if (m == ldexp(1.0, mbits)) m = 0, e++;
    return sign | ((uint64_t)(e + bias) << mbits) | (uint64_t)m;
}

/* Nearest code of an 8-bit or 4-bit float format by trying every code: these formats have
 * irregular specials (no infinity, NaN at one code, no negative zero). Finite values beyond
 * the range saturate to the largest finite value (ONNX Cast's default saturate=1); ties go
 * to the even code; NaN maps to a NaN code, or 0 when the format has none. */
static uint64_t nearest_code(int32_t dtype, double v) {
    unsigned n = 1u << osc_dtype_bits(dtype);
    uint64_t best = 0;
    double best_d = INFINITY, target = isinf(v) ? copysign(DBL_MAX, v) : v;
    for (unsigned c = 0; c < n; c++) {
        double d = cli_decode_float(dtype, c);
        if (isnan(v) || isnan(d)) {
            if (isnan(v) && isnan(d)) return c;
            continue;
        }
        if (d == v && signbit(d) == signbit(v)) return c; /* exact, infinities and -0 included */
        if (isinf(d)) continue;
        double dist = fabs(d - target);
        if (dist < best_d || (dist == best_d && !(c & 1) && (best & 1))) best = c, best_d = dist;
    }
    return best;
}

uint64_t cli_encode_float(int32_t dtype, double v) {
    switch (dtype) {
    case OSC_FLOAT: {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        return u;
    }
    case OSC_DOUBLE: {
        uint64_t u;
        memcpy(&u, &v, sizeof u);
        return u;
    }
    case OSC_FLOAT16: return ieee_small(v, 5, 10);
    case OSC_BFLOAT16: return ieee_small(v, 8, 7);
    default: return nearest_code(dtype, v);
    }
}

void cli_elem_set_bits(osc_tensor *t, int64_t i, uint64_t bits) {
    unsigned char *p = t->data;
    size_t nb = osc_dtype_bits(t->dtype);
    if (nb < 8) { /* packed: first element in the lowest bits */
        size_t bit = (size_t)i * nb;
        unsigned mask = ((1u << nb) - 1u) << (bit % 8);
        p[bit / 8] = (unsigned char)((p[bit / 8] & ~mask) | (((unsigned)bits << (bit % 8)) & mask));
        return;
    }
    p += (size_t)i * (nb / 8);
    switch (nb) {
    case 8: p[0] = (unsigned char)bits; return;
    case 16: { uint16_t v = (uint16_t)bits; memcpy(p, &v, 2); return; }
    case 32: { uint32_t v = (uint32_t)bits; memcpy(p, &v, 4); return; }
    default: memcpy(p, &bits, 8); return;
    }
}

void cli_elem_set_float(osc_tensor *t, int64_t i, double v) {
    if (t->dtype == OSC_FLOAT) ((float *)t->data)[i] = (float)v;
    else if (t->dtype == OSC_DOUBLE) ((double *)t->data)[i] = v;
    else cli_elem_set_bits(t, i, cli_encode_float(t->dtype, v));
}

void cli_elem_set_complex(osc_tensor *t, int64_t i, double re, double im) {
    if (t->dtype == OSC_COMPLEX64) {
        float *p = (float *)t->data + 2 * i;
        p[0] = (float)re, p[1] = (float)im;
    } else {
        double *p = (double *)t->data + 2 * i;
        p[0] = re, p[1] = im;
    }
}

int cli_tensor_alloc(osc_tensor *t, int32_t dtype, int32_t rank, const int64_t *dims,
                     size_t extra, char *msg, size_t msg_size) {
    memset(t, 0, sizeof *t);
    t->dtype = dtype, t->rank = rank;
    if (rank > 0) memcpy(t->dims, dims, (size_t)rank * sizeof *dims);
    int64_t count = osc_tensor_count(t);
    size_t bits = osc_dtype_bits(dtype);
    if (count < 0 || bits == 0 || (uint64_t)count > (SIZE_MAX - 7 - extra) / bits) {
        snprintf(msg, msg_size, "tensor of %s with this shape is too large", osc_dtype_name(dtype));
        return 1;
    }
    t->nbytes = ((size_t)count * bits + 7) / 8;
    t->data = calloc(1, t->nbytes + extra ? t->nbytes + extra : 1);
    if (!t->data) {
        snprintf(msg, msg_size, "out of memory allocating %zu bytes", t->nbytes + extra);
        return 1;
    }
    return 0;
}
