/* ew_common.c: dtype sets per op version (the spec's type constraints) and shared I/O checks. */
#include "ew_common.h"

#include <stdio.h>
#include <string.h>

#define B OSC_TBIT
#define T_F3 (B(OSC_FLOAT16) | B(OSC_FLOAT) | B(OSC_DOUBLE))
#define T_I32_64 (B(OSC_INT32) | B(OSC_INT64) | B(OSC_UINT32) | B(OSC_UINT64))
#define T_I8_16 (B(OSC_INT8) | B(OSC_INT16) | B(OSC_UINT8) | B(OSC_UINT16))
#define T_INTS (T_I32_64 | T_I8_16)
#define T_SIGNED (B(OSC_INT8) | B(OSC_INT16) | B(OSC_INT32) | B(OSC_INT64))
#define T_BF B(OSC_BFLOAT16)
/* Every classic tensor type but bfloat16 (Where-9, Identity-1) */
#define T_ALL15 (T_F3 | T_INTS | B(OSC_BOOL) | B(OSC_STRING) | B(OSC_COMPLEX64) | \
                 B(OSC_COMPLEX128))
#define T_F8 (B(OSC_FLOAT8E4M3FN) | B(OSC_FLOAT8E4M3FNUZ) | B(OSC_FLOAT8E5M2) | \
              B(OSC_FLOAT8E5M2FNUZ))
#define T_I4 (B(OSC_INT4) | B(OSC_UINT4))
#define T_I2 (B(OSC_INT2) | B(OSC_UINT2))
/* Cast-6: the numeric types and bool */
#define T_CAST6 (T_F3 | T_INTS | B(OSC_BOOL))

typedef struct ew_types {
    const char *op;
    int64_t since;
    uint32_t types;
} ew_types;

/* One line per row of ops/rows_elementwise.h, copied from the Changelog's type constraints. */
static const ew_types k_types[] = {
    {"Add", 7, T_F3 | T_I32_64},       {"Add", 13, T_F3 | T_I32_64 | T_BF},
    {"Add", 14, T_F3 | T_INTS | T_BF}, {"Sub", 7, T_F3 | T_I32_64},
    {"Sub", 13, T_F3 | T_I32_64 | T_BF}, {"Sub", 14, T_F3 | T_INTS | T_BF},
    {"Mul", 7, T_F3 | T_I32_64},       {"Mul", 13, T_F3 | T_I32_64 | T_BF},
    {"Mul", 14, T_F3 | T_INTS | T_BF}, {"Div", 7, T_F3 | T_I32_64},
    {"Div", 13, T_F3 | T_I32_64 | T_BF}, {"Div", 14, T_F3 | T_INTS | T_BF},
    {"Mod", 10, T_F3 | T_INTS},        {"Mod", 13, T_F3 | T_INTS | T_BF},
    {"Neg", 6, B(OSC_FLOAT) | B(OSC_DOUBLE) | B(OSC_FLOAT16) | T_SIGNED},
    {"Neg", 13, B(OSC_FLOAT) | B(OSC_DOUBLE) | B(OSC_FLOAT16) | T_SIGNED | T_BF},
    {"Abs", 6, T_F3 | T_INTS},         {"Abs", 13, T_F3 | T_INTS | T_BF},
    {"Min", 6, T_F3},                  {"Min", 8, T_F3},
    {"Min", 12, T_F3 | T_INTS},        {"Min", 13, T_F3 | T_INTS | T_BF},
    {"Max", 6, T_F3},                  {"Max", 8, T_F3},
    {"Max", 12, T_F3 | T_INTS},        {"Max", 13, T_F3 | T_INTS | T_BF},
    {"Equal", 7, B(OSC_BOOL) | B(OSC_INT32) | B(OSC_INT64)},
    {"Equal", 11, B(OSC_BOOL) | T_INTS | T_F3},
    {"Equal", 13, B(OSC_BOOL) | T_INTS | T_F3 | T_BF},
    {"Equal", 19, B(OSC_BOOL) | T_INTS | T_F3 | T_BF | B(OSC_STRING)},
    {"Less", 7, T_F3},                 {"Less", 9, T_F3 | T_INTS},
    {"Less", 13, T_F3 | T_INTS | T_BF}, {"Greater", 7, T_F3},
    {"Greater", 9, T_F3 | T_INTS},     {"Greater", 13, T_F3 | T_INTS | T_BF},
    {"LessOrEqual", 12, T_F3 | T_INTS}, {"LessOrEqual", 16, T_F3 | T_INTS | T_BF},
    {"GreaterOrEqual", 12, T_F3 | T_INTS}, {"GreaterOrEqual", 16, T_F3 | T_INTS | T_BF},
    {"Not", 1, B(OSC_BOOL)},           {"And", 7, B(OSC_BOOL)},
    {"Or", 7, B(OSC_BOOL)},            {"Where", 9, T_ALL15},
    {"Where", 16, T_ALL15 | T_BF},     {"Identity", 1, T_ALL15},
    {"Identity", 13, T_ALL15 | T_BF},  {"Identity", 14, T_ALL15 | T_BF},
    {"Identity", 16, T_ALL15 | T_BF},  {"Identity", 19, T_ALL15 | T_BF | T_F8},
    {"Identity", 21, T_ALL15 | T_BF | T_F8 | T_I4},
    {"Identity", 23, T_ALL15 | T_BF | T_F8 | T_I4 | B(OSC_FLOAT4E2M1)},
    {"Identity", 24, T_ALL15 | T_BF | T_F8 | T_I4 | B(OSC_FLOAT4E2M1) | B(OSC_FLOAT8E8M0)},
    {"Identity", 25,
     T_ALL15 | T_BF | T_F8 | T_I4 | B(OSC_FLOAT4E2M1) | B(OSC_FLOAT8E8M0) | T_I2},
    {"Cast", 6, T_CAST6},              {"Cast", 9, T_CAST6 | B(OSC_STRING)},
    {"Cast", 13, T_CAST6 | B(OSC_STRING) | T_BF},
    {"Cast", 19, T_CAST6 | B(OSC_STRING) | T_BF | T_F8},
    {"Cast", 21, T_CAST6 | B(OSC_STRING) | T_BF | T_F8 | T_I4},
    {"Cast", 23, T_CAST6 | B(OSC_STRING) | T_BF | T_F8 | T_I4 | B(OSC_FLOAT4E2M1)},
    {"Cast", 24,
     T_CAST6 | B(OSC_STRING) | T_BF | T_F8 | T_I4 | B(OSC_FLOAT4E2M1) | B(OSC_FLOAT8E8M0)},
    {"Cast", 25, T_CAST6 | B(OSC_STRING) | T_BF | T_F8 | T_I4 | B(OSC_FLOAT4E2M1) |
                     B(OSC_FLOAT8E8M0) | T_I2},
};

uint32_t osc_ew_types(const char *op_type, int64_t since) {
    for (size_t i = 0; i < sizeof k_types / sizeof k_types[0]; i++)
        if (k_types[i].since == since && strcmp(k_types[i].op, op_type) == 0)
            return k_types[i].types;
    return 0;
}

osc_status osc_ew_input(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                        const char *what) {
    char a[256];
    if (i >= n_in || !in || !in[i])
        return osc_kfail(k, OSC_ERR_MODEL, "input %d '%s' is required but missing", i, what);
    if (osc_tensor_count(in[i]) < 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has an invalid shape %s (rank %d, "
                         "negative dim or more than 2^63-1 elements)", i, what,
                         osc_kinput_name(k, i), osc_shape_str(in[i], a, sizeof a),
                         (int)in[i]->rank);
    return OSC_OK;
}

osc_status osc_ew_check_type(osc_kctx *k, int32_t i, const char *what, const osc_tensor *t,
                             uint32_t types) {
    if (t->dtype > 0 && t->dtype < 32 && (types & OSC_TBIT(t->dtype))) return OSC_OK;
    char list[400] = "";
    size_t p = 0;
    for (int32_t d = 1; d < OSC_DTYPE_COUNT && p < sizeof list; d++)
        if (types & OSC_TBIT(d))
            p += (size_t)snprintf(list + p, sizeof list - p, "%s%s", p ? ", " : "",
                                  osc_dtype_get(d)->name);
    return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input %d '%s' (%s) has dtype %s; this op version "
                     "accepts: %s", i, what, osc_kinput_name(k, i),
                     osc_dtype_get(t->dtype)->name, list[0] ? list : "(none)");
}

osc_status osc_ew_check_io(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           const char *const *what, const osc_tensor *out, int32_t n_out,
                           const osc_tensor *want) {
    char a[256], b[256];
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    if (out->dtype != want->dtype || out->rank != want->rank ||
        memcmp(out->dims, want->dims, (size_t)want->rank * sizeof want->dims[0]) != 0)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 is %s %s but the inputs give %s %s",
                         osc_dtype_get(out->dtype)->name, osc_shape_str(out, a, sizeof a),
                         osc_dtype_get(want->dtype)->name, osc_shape_str(want, b, sizeof b));
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < n_in && !st; i++) {
        char name[32];
        if (!what) snprintf(name, sizeof name, "data_%d", (int)i);
        st = osc_check_buffer(k, "input", i, what ? what[i] : name, in[i]);
    }
    if (!st) st = osc_check_buffer(k, "output", 0, "output", out);
    return st;
}
