/* minifloat.h: exact conversions between numbers and the small float formats (float16, bfloat16,
 * the four float8 kinds, float8e8m0, float4e2m1), one parametrised codec for all of them. */
#ifndef OSC_MINIFLOAT_H
#define OSC_MINIFLOAT_H

#include <stdbool.h>
#include <stdint.h>

/* Where a format keeps its special values. */
enum {
    OSC_MF_IEEE,  /* Inf and NaN at the all-ones exponent: float16, bfloat16, float8e5m2 */
    OSC_MF_FN,    /* no Inf; NaN is all ones in exponent and mantissa (float8e4m3fn) */
    OSC_MF_FNUZ,  /* no Inf, no -0; NaN is the bit pattern of -0 (the *fnuz kinds) */
    OSC_MF_PLAIN, /* no Inf, no NaN (float4e2m1) */
    OSC_MF_E8M0   /* 2^(bits-127), no sign, no zero, NaN 0xFF (float8e8m0) */
};

typedef struct osc_mf_fmt {
    uint8_t ebits, mbits; /* exponent and stored mantissa bits */
    int16_t bias;
    uint8_t kind;         /* OSC_MF_* */
} osc_mf_fmt;

/* Rounding: every format rounds to nearest even; float8e8m0 takes the Cast attribute. */
enum { OSC_MF_RNE, OSC_MF_UP, OSC_MF_DOWN, OSC_MF_NEAREST };

typedef struct osc_mf_mode {
    bool saturate;      /* overflow and +-Inf give +-max finite instead of Inf or NaN */
    bool inf_nan_fnuz;  /* Cast-19..23: +-Inf gives NaN in the FNUZ kinds even when saturating */
    int round;          /* OSC_MF_*; only float8e8m0 looks at it, the others use RNE */
} osc_mf_mode;

/* The format of dtype; NULL unless dtype is one of the formats above. */
const osc_mf_fmt *osc_mf_get(int32_t dtype);
/* Exact value of an encoding (NaN keeps its sign, a NaN or -0 pattern per the kind). */
double osc_mf_decode(const osc_mf_fmt *f, uint32_t bits);
/* Encoding of (-1)^neg * mag * 2^exp, correctly rounded (mag == 0 is a signed zero). */
uint32_t osc_mf_encode(const osc_mf_fmt *f, bool neg, uint64_t mag, int32_t exp,
                       const osc_mf_mode *m);
/* Encoding of d (any double, NaN and Inf included), correctly rounded: one rounding only. */
uint32_t osc_mf_from_double(const osc_mf_fmt *f, double d, const osc_mf_mode *m);

#endif
