/* minifloat.c: one exact codec for float16, bfloat16, float8 (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz,
 * e8m0) and float4e2m1, parametrised by exponent/mantissa widths, bias and where specials live. */
#include "minifloat.h"

#include <math.h>
#include <string.h>

#include "onnx_scatter.h"

/* The formats, X(dtype, exponent bits, mantissa bits, bias, kind): the one place each
 * dtype's parameters are written; the lookup below is generated from it. */
#define MF_FORMATS(X)                                                                       \
    X(OSC_FLOAT16, 5, 10, 15, OSC_MF_IEEE) X(OSC_BFLOAT16, 8, 7, 127, OSC_MF_IEEE)          \
    X(OSC_FLOAT8E4M3FN, 4, 3, 7, OSC_MF_FN) X(OSC_FLOAT8E4M3FNUZ, 4, 3, 8, OSC_MF_FNUZ)     \
    X(OSC_FLOAT8E5M2, 5, 2, 15, OSC_MF_IEEE) X(OSC_FLOAT8E5M2FNUZ, 5, 2, 16, OSC_MF_FNUZ)   \
    X(OSC_FLOAT4E2M1, 2, 1, 1, OSC_MF_PLAIN) X(OSC_FLOAT8E8M0, 8, 0, 127, OSC_MF_E8M0)

const osc_mf_fmt *osc_mf_get(int32_t dtype) {
    switch (dtype) {
#define MF_CASE(E, EB, MB, BIAS, KIND)                                                      \
    case E: {                                                                               \
        static const osc_mf_fmt f = {EB, MB, BIAS, KIND};                                   \
        return &f;                                                                          \
    }
        MF_FORMATS(MF_CASE)
#undef MF_CASE
        default: return NULL;
    }
}

static uint32_t emask(const osc_mf_fmt *f) { return (1u << f->ebits) - 1; }
static uint32_t mmask(const osc_mf_fmt *f) { return (1u << f->mbits) - 1; }
static uint32_t sign_of(const osc_mf_fmt *f, bool neg) {
    return neg ? 1u << (f->ebits + f->mbits) : 0;
}
/* Largest exponent code of a finite value, and the largest mantissa it allows. */
static uint32_t max_code(const osc_mf_fmt *f) {
    return f->kind == OSC_MF_IEEE ? emask(f) - 1 : emask(f);
}
static uint32_t max_mant(const osc_mf_fmt *f) {
    return f->kind == OSC_MF_FN ? mmask(f) - 1 : mmask(f);
}
static uint32_t max_finite(const osc_mf_fmt *f, bool neg) {
    return sign_of(f, neg) | max_code(f) << f->mbits | max_mant(f);
}

/* NaN: a quiet NaN keeping the sign where the format has a signed NaN. float4e2m1 has none;
 * it gets the -0 pattern 0x8, as the ONNX reference (ml_dtypes) produces. */
static uint32_t nan_of(const osc_mf_fmt *f, bool neg) {
    switch (f->kind) {
        case OSC_MF_IEEE: return sign_of(f, neg) | emask(f) << f->mbits | 1u << (f->mbits - 1);
        case OSC_MF_FN: return sign_of(f, neg) | emask(f) << f->mbits | mmask(f);
        case OSC_MF_E8M0: return 0xffu;
        default: return sign_of(f, true); /* FNUZ: 0x80; PLAIN: 0x8 */
    }
}

/* A finite value whose rounded magnitude exceeds the largest finite one. */
static uint32_t overflow_of(const osc_mf_fmt *f, bool neg, const osc_mf_mode *m) {
    if (f->kind == OSC_MF_PLAIN || m->saturate) return max_finite(f, neg);
    if (f->kind == OSC_MF_IEEE) return sign_of(f, neg) | emask(f) << f->mbits;
    return nan_of(f, neg);
}

static uint32_t inf_of(const osc_mf_fmt *f, bool neg, const osc_mf_mode *m) {
    if (f->kind == OSC_MF_FNUZ && m->inf_nan_fnuz) return nan_of(f, neg);
    return overflow_of(f, neg, m);
}

double osc_mf_decode(const osc_mf_fmt *f, uint32_t bits) {
    if (f->kind == OSC_MF_E8M0) return bits == 0xffu ? NAN : ldexp(1.0, (int)bits - 127);
    bool neg = (bits >> (f->ebits + f->mbits)) & 1u;
    uint32_t e = (bits >> f->mbits) & emask(f), mant = bits & mmask(f);
    bool nan = (f->kind == OSC_MF_IEEE && e == emask(f) && mant) ||
               (f->kind == OSC_MF_FN && e == emask(f) && mant == mmask(f)) ||
               (f->kind == OSC_MF_FNUZ && neg && e == 0 && mant == 0);
    if (nan) return neg ? -NAN : NAN;
    if (f->kind == OSC_MF_IEEE && e == emask(f)) return neg ? -INFINITY : INFINITY;
    double v = e == 0 ? ldexp((double)mant, 1 - f->bias - f->mbits)
                      : ldexp((double)(mant | 1u << f->mbits), (int)e - f->bias - f->mbits);
    return neg ? -v : v;
}

/* float8e8m0 holds 2^k, k in [-127, 127]. The sign is ignored (negative input is unspecified
 * by the spec: we encode |x|). Zero and values below 2^-127 after rounding give 2^-127 when
 * saturating, else NaN; above 2^127 likewise give 2^127 or NaN. */
static uint32_t e8m0_encode(uint64_t mag, int32_t exp, const osc_mf_mode *m) {
    if (mag == 0) return m->saturate ? 0x00u : 0xffu;
    int len = 64 - __builtin_clzll(mag);
    int64_t k = (int64_t)exp + len - 1; /* 2^k <= value < 2^(k+1) */
    bool exact = (mag & (mag - 1)) == 0;
    if (m->round == OSC_MF_UP) {
        if (!exact) k++;
    } else if (m->round != OSC_MF_DOWN) { /* nearest, ties up: the bit after the leading one */
        if (len >= 2 && ((mag >> (len - 2)) & 1u)) k++;
    }
    if (k > 127) return m->saturate ? 0xfeu : 0xffu;
    if (k < -127) return m->saturate ? 0x00u : 0xffu;
    return (uint32_t)(k + 127);
}

uint32_t osc_mf_encode(const osc_mf_fmt *f, bool neg, uint64_t mag, int32_t exp,
                       const osc_mf_mode *m) {
    if (f->kind == OSC_MF_E8M0) return e8m0_encode(mag, exp, m);
    const uint32_t zero = f->kind == OSC_MF_FNUZ ? 0 : sign_of(f, neg); /* FNUZ has no -0 */
    if (mag == 0) return zero;
    const int32_t mb = f->mbits, emin = 1 - f->bias;
    const int32_t emax = (int32_t)max_code(f) - f->bias;
    const int32_t len = 64 - __builtin_clzll(mag);
    const int64_t e_top = (int64_t)exp + len - 1; /* 2^e_top <= value < 2^(e_top+1) */
    if (e_top > emax + 1) return overflow_of(f, neg, m); /* no rounding brings it back */
    /* q: exponent of the last mantissa bit kept (subnormals share emin's). N = value / 2^q,
     * rounded to nearest even. */
    const int64_t q0 = (e_top < emin ? emin : e_top) - mb;
    int32_t q = (int32_t)q0;
    uint64_t n;
    if ((int64_t)exp >= q0) {
        n = mag << (exp - q); /* exp - q <= mb: the result stays below 2^(mb+1) */
    } else {
        int64_t sh = q0 - exp;
        if (sh > 64) {
            n = 0; /* value < 2^(q-1): below half of the smallest step */
        } else if (sh == 64) {
            n = mag > (1ull << 63) ? 1 : 0; /* a tie (== 2^63) goes to even 0 */
        } else {
            uint64_t rem = mag & ((1ull << sh) - 1), half = 1ull << (sh - 1);
            n = mag >> sh;
            if (rem > half || (rem == half && (n & 1u))) n++;
        }
    }
    if (n == 0) return zero;
    if (n >> (mb + 1)) { /* rounding carried into the next binade: n == 2^(mb+1) */
        n >>= 1;
        q++;
    }
    uint32_t code, mant;
    if (n < (1ull << mb)) { /* subnormal */
        code = 0;
        mant = (uint32_t)n;
    } else {
        code = (uint32_t)(q + mb + f->bias);
        mant = (uint32_t)(n - (1ull << mb));
    }
    if (code > max_code(f) || (code == max_code(f) && mant > max_mant(f)))
        return overflow_of(f, neg, m);
    return sign_of(f, neg) | code << f->mbits | mant;
}

uint32_t osc_mf_from_double(const osc_mf_fmt *f, double d, const osc_mf_mode *m) {
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    bool neg = b >> 63;
    uint32_t e = (uint32_t)(b >> 52) & 0x7ffu;
    uint64_t frac = b & ((1ull << 52) - 1);
    if (e == 0x7ffu) return frac ? nan_of(f, neg) : inf_of(f, neg, m);
    if (e == 0) return osc_mf_encode(f, neg, frac, -1074, m);
    return osc_mf_encode(f, neg, frac | 1ull << 52, (int32_t)e - 1075, m);
}
