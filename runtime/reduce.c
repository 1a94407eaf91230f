/* reduce.c: scatter reductions for every standard dtype, generated from OSC_STD_TYPES. */
#include "reduce.h"

#include <string.h>

#include "dtype.h"

/* ---- Scalar combine rules per class: C(dst, src) returns the new dst. ---- */
#define IS_NAN(x) ((x) != (x))
/* numpy maximum/minimum: keep a when a >= b (or a is NaN), else b (so a NaN in b wins too) */
#define FMAX(a, b) (((a) >= (b) || IS_NAN(a)) ? (a) : (b))
#define FMIN(a, b) (((a) <= (b) || IS_NAN(a)) ? (a) : (b))

#define C_FLOAT_ADD(T, a, b) ((T)((a) + (b)))
#define C_FLOAT_MUL(T, a, b) ((T)((a) * (b)))
#define C_FLOAT_MAX(T, a, b) FMAX(a, b)
#define C_FLOAT_MIN(T, a, b) FMIN(a, b)

/* Integers wrap: compute modulo 2^64 in uint64_t, then truncate to T. */
#define C_SINT_ADD(T, a, b) ((T)((uint64_t)(a) + (uint64_t)(b)))
#define C_SINT_MUL(T, a, b) ((T)((uint64_t)(a) * (uint64_t)(b)))
#define C_SINT_MAX(T, a, b) ((a) >= (b) ? (a) : (b))
#define C_SINT_MIN(T, a, b) ((a) <= (b) ? (a) : (b))
#define C_UINT_ADD C_SINT_ADD
#define C_UINT_MUL C_SINT_MUL
#define C_UINT_MAX C_SINT_MAX
#define C_UINT_MIN C_SINT_MIN

#define C_BOOL_ADD(T, a, b) ((T)((a) | (b)))
#define C_BOOL_MUL(T, a, b) ((T)((a) & (b)))
#define C_BOOL_MAX C_BOOL_ADD
#define C_BOOL_MIN C_BOOL_MUL

#define HALF_OP(TO, FROM, OP, a, b) TO(OP(float, FROM(a), FROM(b)))
#define C_F16_ADD(T, a, b) HALF_OP(osc_f32_to_f16, osc_f16_to_f32, C_FLOAT_ADD, a, b)
#define C_F16_MUL(T, a, b) HALF_OP(osc_f32_to_f16, osc_f16_to_f32, C_FLOAT_MUL, a, b)
#define C_F16_MAX(T, a, b) HALF_OP(osc_f32_to_f16, osc_f16_to_f32, C_FLOAT_MAX, a, b)
#define C_F16_MIN(T, a, b) HALF_OP(osc_f32_to_f16, osc_f16_to_f32, C_FLOAT_MIN, a, b)
#define C_BF16_ADD(T, a, b) HALF_OP(osc_f32_to_bf16, osc_bf16_to_f32, C_FLOAT_ADD, a, b)
#define C_BF16_MUL(T, a, b) HALF_OP(osc_f32_to_bf16, osc_bf16_to_f32, C_FLOAT_MUL, a, b)
#define C_BF16_MAX(T, a, b) HALF_OP(osc_f32_to_bf16, osc_bf16_to_f32, C_FLOAT_MAX, a, b)
#define C_BF16_MIN(T, a, b) HALF_OP(osc_f32_to_bf16, osc_bf16_to_f32, C_FLOAT_MIN, a, b)

#define CPLX_NAN(z) (IS_NAN((z).re) || IS_NAN((z).im))
/* numpy's CGE/CLE: a NaN imaginary part on either side makes the comparison false, so with
 * the CPLX_NAN(a) test below a NaN on either side wins, as for real floats. */
#define CPLX_IM_OK(a, b) (!IS_NAN((a).im) && !IS_NAN((b).im))
#define CPLX_GE(a, b) \
    (((a).re > (b).re && CPLX_IM_OK(a, b)) || ((a).re == (b).re && (a).im >= (b).im))
#define CPLX_LE(a, b) \
    (((a).re < (b).re && CPLX_IM_OK(a, b)) || ((a).re == (b).re && (a).im <= (b).im))
#define C_COMPLEX_ADD(T, a, b) ((T){(a).re + (b).re, (a).im + (b).im})
#define C_COMPLEX_MUL(T, a, b) \
    ((T){(a).re * (b).re - (a).im * (b).im, (a).re * (b).im + (a).im * (b).re})
#define C_COMPLEX_MAX(T, a, b) ((CPLX_GE(a, b) || CPLX_NAN(a)) ? (a) : (b))
#define C_COMPLEX_MIN(T, a, b) ((CPLX_LE(a, b) || CPLX_NAN(a)) ? (a) : (b))

static int str_cmp(osc_string a, osc_string b) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c) return c;
    return (a.len > b.len) - (a.len < b.len);
}
#define C_STRING_MAX(T, a, b) (str_cmp(a, b) >= 0 ? (a) : (b))
#define C_STRING_MIN(T, a, b) (str_cmp(a, b) <= 0 ? (a) : (b))

/* ---- Loops: one function per (type, reduction), expanded from the type list. ---- */
#define DEFINE_LOOP(E, T, CLS, RED)                                                  \
    static bool red_##E##_##RED(osc_pool *strings, void *dst, const void *src,       \
                                int64_t n) {                                         \
        (void)strings;                                                               \
        T *d = dst;                                                                  \
        const T *s = src;                                                            \
        for (int64_t j = 0; j < n; j++) d[j] = C_##CLS##_##RED(T, d[j], s[j]);           \
        return true;                                                                 \
    }

static bool red_none(size_t size, void *dst, const void *src, int64_t n) {
    memmove(dst, src, (size_t)n * size);
    return true;
}

#define DEFINE_NONE(E, T, CLS)                                                        \
    static bool red_##E##_NONE(osc_pool *strings, void *dst, const void *src,        \
                               int64_t n) {                                          \
        (void)strings;                                                                \
        return red_none(sizeof(T), dst, src, n);                                      \
    }

#define DEFINE_ALL(E, T, CLS) \
    DEFINE_NONE(E, T, CLS) DEFINE_LOOP(E, T, CLS, MAX) DEFINE_LOOP(E, T, CLS, MIN)
OSC_STD_TYPES(DEFINE_ALL)

/* add and mul for every class but strings (no mul; add concatenates). */
#define DEFINE_ARITH(E, T, CLS) DEFINE_ARITH_##CLS(E, T, CLS)
#define DEFINE_ARITH_ANY(E, T, CLS) DEFINE_LOOP(E, T, CLS, ADD) DEFINE_LOOP(E, T, CLS, MUL)
#define DEFINE_ARITH_FLOAT DEFINE_ARITH_ANY
#define DEFINE_ARITH_F16 DEFINE_ARITH_ANY
#define DEFINE_ARITH_BF16 DEFINE_ARITH_ANY
#define DEFINE_ARITH_SINT DEFINE_ARITH_ANY
#define DEFINE_ARITH_UINT DEFINE_ARITH_ANY
#define DEFINE_ARITH_BOOL DEFINE_ARITH_ANY
#define DEFINE_ARITH_COMPLEX DEFINE_ARITH_ANY
#define DEFINE_ARITH_STRING(E, T, CLS)
OSC_STD_TYPES(DEFINE_ARITH)

static bool red_OSC_STRING_ADD(osc_pool *strings, void *dst, const void *src, int64_t n) {
    osc_string *d = dst;
    const osc_string *s = src;
    for (int64_t j = 0; j < n; j++) {
        if (s[j].len == 0) continue;
        char *buf = osc_pool_alloc(strings, d[j].len + s[j].len);
        if (!buf) return false;
        if (d[j].len) memcpy(buf, d[j].ptr, d[j].len);
        memcpy(buf + d[j].len, s[j].ptr, s[j].len);
        d[j].ptr = buf;
        d[j].len += s[j].len;
    }
    return true;
}
#define red_OSC_STRING_MUL NULL

osc_reduce_fn osc_reduce_get(int32_t dtype, int32_t reduction) {
#define ROW(E, T, CLS) \
    case E: {                                                                     \
        static const osc_reduce_fn fns[OSC_RED_COUNT] = {                         \
            red_##E##_NONE, red_##E##_ADD, red_##E##_MUL, red_##E##_MAX, red_##E##_MIN}; \
        return (reduction >= 0 && reduction < OSC_RED_COUNT) ? fns[reduction] : NULL;   \
    }
    switch (dtype) {
        OSC_STD_TYPES(ROW)
        default: return NULL;
    }
#undef ROW
}

static const char *const k_red_names[OSC_RED_COUNT] = {"none", "add", "mul", "max", "min"};

const char *osc_reduction_name(int32_t reduction) {
    return (reduction >= 0 && reduction < OSC_RED_COUNT) ? k_red_names[reduction] : "?";
}

int32_t osc_reduction_parse(const char *s) {
    for (int32_t r = 0; r < OSC_RED_COUNT; r++)
        if (strcmp(s, k_red_names[r]) == 0) return r;
    return -1;
}
