/* reduce_rules.h: the element rules of the Reduce* ops, per reduction and per type class, that
 * ops/reduce/reduce_ops.c's one axis walk expands (RED_LOOP). */
#ifndef OSC_REDUCE_RULES_H
#define OSC_REDUCE_RULES_H

#include <math.h>
#include <stdint.h>

#include "core/dtype.h"
#include "ops/scatter/reduce.h"

/* ---- Per type class C (as in OSC_STD_TYPES) of storage type T ----
 * VAL: the type an element is read as (float for float16/bfloat16); LD: element p of xp;
 * ST: stores a finished value into element e of yp (float16/bfloat16 rounded here, once). */
#define RR_VAL_FLOAT(T) T
#define RR_VAL_F16(T) float
#define RR_VAL_BF16(T) float
#define RR_VAL_SINT(T) T
#define RR_VAL_UINT(T) T
#define RR_VAL_BOOL(T) uint8_t
#define RR_LD_FLOAT(T, p) (((const T *)xp)[p])
#define RR_LD_F16(T, p) (osc_f16_to_f32(((const T *)xp)[p]))
#define RR_LD_BF16(T, p) (osc_bf16_to_f32(((const T *)xp)[p]))
#define RR_LD_SINT(T, p) (((const T *)xp)[p])
#define RR_LD_UINT(T, p) (((const T *)xp)[p])
#define RR_LD_BOOL(T, p) (((const uint8_t *)xp)[p])
#define RR_ST_FLOAT(T, e, s) (((T *)yp)[e] = (T)(s))
#define RR_ST_F16(T, e, s) (((T *)yp)[e] = osc_f32_to_f16((float)(s)))
#define RR_ST_BF16(T, e, s) (((T *)yp)[e] = osc_f32_to_bf16((float)(s)))
#define RR_ST_SINT(T, e, s) (((T *)yp)[e] = (T)(s)) /* from uint64_t: modulo 2^bits */
#define RR_ST_UINT(T, e, s) (((T *)yp)[e] = (T)(s))
#define RR_ST_BOOL(T, e, s) (((uint8_t *)yp)[e] = (uint8_t)(s))

/* Accumulators by kind: ADD (sums and products: integers wrap modulo 2^64 in uint64_t, floats
 * in their own type, halves in float), CMP (max/min: the element type), REAL (log-sum-exp:
 * integers in double). */
#define RR_ACC_(KIND, C, T) RR_ACC_##KIND##_##C(T)
#define RR_ACC(KIND, C, T) RR_ACC_(KIND, C, T)
#define RR_ACC_ADD_FLOAT(T) T
#define RR_ACC_ADD_F16(T) float
#define RR_ACC_ADD_BF16(T) float
#define RR_ACC_ADD_SINT(T) uint64_t
#define RR_ACC_ADD_UINT(T) uint64_t
#define RR_ACC_CMP_FLOAT(T) T
#define RR_ACC_CMP_F16(T) float
#define RR_ACC_CMP_BF16(T) float
#define RR_ACC_CMP_SINT(T) T
#define RR_ACC_CMP_UINT(T) T
#define RR_ACC_CMP_BOOL(T) uint8_t
#define RR_ACC_REAL_FLOAT(T) T
#define RR_ACC_REAL_F16(T) float
#define RR_ACC_REAL_BF16(T) float
#define RR_ACC_REAL_SINT(T) double
#define RR_ACC_REAL_UINT(T) double

/* The number an ADD accumulator holds, as a double (signed integers: the wrapped sum read back
 * as int64_t). */
#define RR_NUM_FLOAT(a) ((double)(a))
#define RR_NUM_F16(a) ((double)(a))
#define RR_NUM_BF16(a) ((double)(a))
#define RR_NUM_SINT(a) ((double)(int64_t)(a))
#define RR_NUM_UINT(a) ((double)(a))
/* A double result as the value ST stores: integers truncate toward zero, saturating at T's
 * range (NaN gives 0); C leaves an out-of-range conversion undefined, so it is clamped first. */
static inline int64_t osc_rr_to_sint(double d, size_t size) {
    double hi = ldexp(1.0, (int)(size * 8 - 1)); /* 2^(bits-1), exact */
    if (d != d) return 0;
    if (d >= hi) return (int64_t)(((uint64_t)1 << (size * 8 - 1)) - 1);
    if (d <= -hi) return -(int64_t)(((uint64_t)1 << (size * 8 - 1)) - 1) - 1;
    return (int64_t)d;
}
static inline uint64_t osc_rr_to_uint(double d, size_t size) {
    double hi = ldexp(1.0, (int)(size * 8)); /* 2^bits, exact */
    if (d != d || d <= 0) return 0;
    if (d >= hi) return size == 8 ? UINT64_MAX : ((uint64_t)1 << (size * 8)) - 1;
    return (uint64_t)d;
}
#define RR_OUT_FLOAT(T, d) ((T)(d))
#define RR_OUT_F16(T, d) ((float)(d))
#define RR_OUT_BF16(T, d) ((float)(d))
#define RR_OUT_SINT(T, d) osc_rr_to_sint((d), sizeof(T))
#define RR_OUT_UINT(T, d) osc_rr_to_uint((d), sizeof(T))
/* |v| in the ADD accumulator's terms (-INT_MIN wraps to itself, modulo 2^64) */
#define RR_ABS_FLOAT(v) fabs(v)
#define RR_ABS_F16(v) fabsf(v)
#define RR_ABS_BF16(v) fabsf(v)
#define RR_ABS_SINT(v) ((v) < 0 ? (uint64_t)0 - (uint64_t)(v) : (uint64_t)(v))
#define RR_ABS_UINT(v) (v)
/* a / n (n > 0): floats in the accumulator's type; integers truncate toward zero */
#define RR_DIV_FLOAT(a, n) ((a) / (n))
#define RR_DIV_F16(a, n) ((a) / (float)(n))
#define RR_DIV_BF16(a, n) ((a) / (float)(n))
#define RR_DIV_SINT(a, n) ((int64_t)(a) / (n))
#define RR_DIV_UINT(a, n) ((a) / (uint64_t)(n))
/* the extremes of a class: the lowest value (empty max) and the highest (empty min) */
#define RR_SMAX(T) ((T)((((uint64_t)1) << (sizeof(T) * 8 - 1)) - 1))
#define RR_LOW_FLOAT(T) (-INFINITY)
#define RR_LOW_F16(T) (-INFINITY)
#define RR_LOW_BF16(T) (-INFINITY)
#define RR_LOW_SINT(T) (-RR_SMAX(T) - 1)
#define RR_LOW_UINT(T) 0
#define RR_LOW_BOOL(T) 0
#define RR_HIGH_FLOAT(T) INFINITY
#define RR_HIGH_F16(T) INFINITY
#define RR_HIGH_BF16(T) INFINITY
#define RR_HIGH_SINT(T) RR_SMAX(T)
#define RR_HIGH_UINT(T) ((T) ~(T)0)
#define RR_HIGH_BOOL(T) 1
/* max/min: numpy's maximum/minimum for floats (ops/scatter/reduce.h: a NaN wins); integers and bool
 * (false < true) plainly */
#define RR_MAX_FLOAT(a, b) OSC_FMAX(a, b)
#define RR_MAX_F16(a, b) OSC_FMAX(a, b)
#define RR_MAX_BF16(a, b) OSC_FMAX(a, b)
#define RR_MAX_SINT(a, b) ((a) >= (b) ? (a) : (b))
#define RR_MAX_UINT RR_MAX_SINT
#define RR_MAX_BOOL RR_MAX_SINT
#define RR_MIN_FLOAT(a, b) OSC_FMIN(a, b)
#define RR_MIN_F16(a, b) OSC_FMIN(a, b)
#define RR_MIN_BF16(a, b) OSC_FMIN(a, b)
#define RR_MIN_SINT(a, b) ((a) <= (b) ? (a) : (b))
#define RR_MIN_UINT RR_MIN_SINT
#define RR_MIN_BOOL RR_MIN_SINT
/* the mean of nothing: NaN where the type has it, else 0 (the spec says "undefined") */
#define RR_NAN_FLOAT(T) NAN
#define RR_NAN_F16(T) NAN
#define RR_NAN_BF16(T) NAN
#define RR_NAN_SINT(T) 0
#define RR_NAN_UINT(T) 0

/* ---- Per reduction R ----
 * KIND: accumulator kind; PRE: a first pass before the terms (m, double, is in scope);
 * TERM(C, A, v): element v's term, of accumulator type A; JOIN(C, a, t): combines;
 * FIN(C, T, a, n): the value ST stores from the accumulator of n > 0 terms; EMPTY(C, T): the
 * value of an empty reduction (the spec's: 0 for sums, 1 for a product, -inf/the type's lowest
 * for max, +inf/highest for min, log 0 = -inf for the log ones). */
#define RR_NOPRE(C, T) ((void)0)
#define RR_ADD(C, a, t) ((a) + (t))

#define RR_KIND_SUM ADD
#define RR_PRE_SUM RR_NOPRE
#define RR_TERM_SUM(C, A, v) ((A)(v))
#define RR_JOIN_SUM RR_ADD
#define RR_FIN_SUM(C, T, a, n) (a)
#define RR_EMPTY_SUM(C, T) 0

#define RR_KIND_SUMSQ ADD
#define RR_PRE_SUMSQ RR_NOPRE
#define RR_TERM_SUMSQ(C, A, v) ((A)(v) * (A)(v))
#define RR_JOIN_SUMSQ RR_ADD
#define RR_FIN_SUMSQ(C, T, a, n) (a)
#define RR_EMPTY_SUMSQ(C, T) 0

#define RR_KIND_MEAN ADD
#define RR_PRE_MEAN RR_NOPRE
#define RR_TERM_MEAN(C, A, v) ((A)(v))
#define RR_JOIN_MEAN RR_ADD
#define RR_FIN_MEAN(C, T, a, n) RR_DIV_##C(a, n)
#define RR_EMPTY_MEAN(C, T) RR_NAN_##C(T)

#define RR_KIND_PROD ADD
#define RR_PRE_PROD RR_NOPRE
#define RR_TERM_PROD(C, A, v) ((A)(v))
#define RR_JOIN_PROD(C, a, t) ((a) * (t))
#define RR_FIN_PROD(C, T, a, n) (a)
#define RR_EMPTY_PROD(C, T) 1

#define RR_KIND_L1 ADD
#define RR_PRE_L1 RR_NOPRE
#define RR_TERM_L1(C, A, v) ((A)RR_ABS_##C(v))
#define RR_JOIN_L1 RR_ADD
#define RR_FIN_L1(C, T, a, n) (a)
#define RR_EMPTY_L1(C, T) 0

#define RR_KIND_L2 ADD
#define RR_PRE_L2 RR_NOPRE
#define RR_TERM_L2 RR_TERM_SUMSQ
#define RR_JOIN_L2 RR_ADD
#define RR_FIN_L2(C, T, a, n) RR_OUT_##C(T, sqrt(RR_NUM_##C(a)))
#define RR_EMPTY_L2(C, T) 0

#define RR_KIND_LOGSUM ADD
#define RR_PRE_LOGSUM RR_NOPRE
#define RR_TERM_LOGSUM RR_TERM_SUM
#define RR_JOIN_LOGSUM RR_ADD
#define RR_FIN_LOGSUM(C, T, a, n) RR_OUT_##C(T, log(RR_NUM_##C(a)))
#define RR_EMPTY_LOGSUM(C, T) RR_OUT_##C(T, -INFINITY)

/* log(sum(exp(v - m))) + m with m the largest finite element (0 when none is finite), so that
 * no term overflows; an infinite or NaN element still reaches the sum. */
#define RR_KIND_LSE REAL
#define RR_PRE_LSE(C, T)                                                                      \
    do {                                                                                      \
        m = -INFINITY;                                                                        \
        WALK({                                                                                \
            double v_ = (double)RR_LD_##C(T, p);                                              \
            if (isfinite(v_) && v_ > m) m = v_;                                               \
        });                                                                                   \
        if (m == -INFINITY) m = 0;                                                            \
    } while (0)
#define RR_TERM_LSE(C, A, v) ((A)exp((double)(v) - m))
#define RR_JOIN_LSE RR_ADD
#define RR_FIN_LSE(C, T, a, n) RR_OUT_##C(T, log((double)(a)) + m)
#define RR_EMPTY_LSE(C, T) RR_OUT_##C(T, -INFINITY)

#define RR_KIND_MAX CMP
#define RR_PRE_MAX RR_NOPRE
#define RR_TERM_MAX(C, A, v) (v)
#define RR_JOIN_MAX(C, a, t) RR_MAX_##C(a, t)
#define RR_FIN_MAX(C, T, a, n) (a)
#define RR_EMPTY_MAX(C, T) RR_LOW_##C(T)

#define RR_KIND_MIN CMP
#define RR_PRE_MIN RR_NOPRE
#define RR_TERM_MIN(C, A, v) (v)
#define RR_JOIN_MIN(C, a, t) RR_MIN_##C(a, t)
#define RR_FIN_MIN(C, T, a, n) (a)
#define RR_EMPTY_MIN(C, T) RR_HIGH_##C(T)

#endif
