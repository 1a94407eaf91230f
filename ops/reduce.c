/* reduce.c: scatter reductions for every standard dtype, generated from OSC_STD_TYPES. */
#include "reduce.h"

#include <string.h>

#include "../runtime/core/dtype.h"

/* ---- Span loops: one function per (type, reduction), expanded from the type list; the
 * element rules are the OSC_COMBINE_* macros of reduce.h. ---- */
#define DEFINE_LOOP(E, T, CLS, RED)                                                   \
    static bool red_##E##_##RED(osc_pool *strings, void *dst, const void *src,        \
                                int64_t n) {                                          \
        (void)strings;                                                                \
        T *d = dst;                                                                   \
        const T *s = src;                                                             \
        for (int64_t j = 0; j < n; j++) d[j] = OSC_COMBINE_##CLS##_##RED(T, d[j], s[j]); \
        return true;                                                                  \
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

bool osc_string_append(osc_pool *strings, osc_string *d, osc_string s) {
    if (s.len == 0) return true;
    char *buf = osc_pool_alloc(strings, d->len + s.len);
    if (!buf) return false;
    if (d->len) memcpy(buf, d->ptr, d->len);
    memcpy(buf + d->len, s.ptr, s.len);
    d->ptr = buf;
    d->len += s.len;
    return true;
}

static bool red_OSC_STRING_ADD(osc_pool *strings, void *dst, const void *src, int64_t n) {
    osc_string *d = dst;
    const osc_string *s = src;
    for (int64_t j = 0; j < n; j++)
        if (!osc_string_append(strings, &d[j], s[j])) return false;
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
