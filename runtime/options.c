/* options.c: load options by name (osc_options_set/get, osc_option_name), one table row each. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "onnx_scatter.h"

/* One integer field of osc_options: its name (the key), where it is, and its range. Every
 * range is within [0, UINT64_MAX] and fits the field, so storing never wraps (test_options
 * compares every row with an assignment to its field). */
typedef struct opt_row {
    const char *name;
    size_t offset;
    size_t size; /* 1 (uint8_t), 4 (int32_t) or 8 (uint64_t) */
    uint64_t lo, hi;
} opt_row;

#define ROW(field, min, max)                                                                  \
    {.name = #field, .offset = offsetof(osc_options, field),                                 \
     .size = sizeof(((osc_options *)0)->field), .lo = (min), .hi = (max)}

/* In the order of the struct's fields. */
static const opt_row k_rows[] = {
    ROW(max_bytes, 0, UINT64_MAX),
    ROW(strict, 0, 1),
    ROW(profile, 0, 1),
    ROW(inplace_inputs, 0, 2),
    ROW(threads, 0, OSC_MAX_THREADS),
    ROW(max_arena_bytes, 0, UINT64_MAX),
    ROW(max_nodes, 0, INT32_MAX),
    ROW(max_rank, 0, OSC_MAX_RANK),
    ROW(max_string_mib, 0, 255),
    ROW(newer_opsets, 0, 1),
    ROW(no_fusion, 0, 1),
    ROW(fuse_recompute, 0, 1),
    ROW(max_iterations, 0, INT64_MAX),
    ROW(max_fold_bytes, 0, UINT64_MAX),
};
#define N_ROWS (sizeof k_rows / sizeof k_rows[0])

static const opt_row *find(const char *key) {
    for (size_t i = 0; i < N_ROWS; i++)
        if (!strcmp(k_rows[i].name, key)) return &k_rows[i];
    return NULL;
}

/* Whole decimal number without sign or spaces: 1 with *out, 2 when over UINT64_MAX (digits
 * only, still a number, out of every range), 0 when s is not one. */
static int parse_u64(const char *s, uint64_t *out) {
    uint64_t v = 0;
    int big = 0;
    if (!*s) return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        const unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10) big = 1;
        v = v * 10 + d;
    }
    *out = v;
    return big ? 2 : 1;
}

/* printf into msg (when msg && msg_size); returns OSC_ERR_ARG. */
__attribute__((format(printf, 3, 4))) static osc_status fail(char *msg, size_t msg_size,
                                                             const char *fmt, ...) {
    if (msg && msg_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msg_size, fmt, ap);
        va_end(ap);
    }
    return OSC_ERR_ARG;
}

osc_status osc_options_set(osc_options *opts, const char *key, const char *value, char *msg,
                           size_t msg_size) {
    if (!opts || !key || !value)
        return fail(msg, msg_size, "osc_options_set: NULL %s",
                    !opts ? "opts" : !key ? "key" : "value");
    const opt_row *r = find(key);
    if (!r) {
        char known[OSC_MESSAGE_SIZE] = "";
        size_t n = 0;
        for (size_t i = 0; i < N_ROWS && n < sizeof known; i++)
            n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", i ? ", " : "",
                                  k_rows[i].name);
        return fail(msg, msg_size, "unknown option '%.64s'%s; the options are %s", key,
                    strlen(key) > 64 ? "..." : "", known);
    }
    uint64_t v = 0;
    const int number = parse_u64(value, &v);
    if (number != 1 || v < r->lo || v > r->hi) {
        const char *why = number ? "out of range" : "not a decimal integer";
        return fail(msg, msg_size, "option %s = '%.64s'%s: %s; expected %llu %s %llu", key, value,
                    strlen(value) > 64 ? "..." : "", why, (unsigned long long)r->lo,
                    r->hi - r->lo == 1 ? "or" : "to", (unsigned long long)r->hi);
    }
    unsigned char *p = (unsigned char *)opts + r->offset;
    if (r->size == 1) {
        const uint8_t x = (uint8_t)v;
        memcpy(p, &x, 1);
    } else if (r->size == 4) {
        const int32_t x = (int32_t)v;
        memcpy(p, &x, 4);
    } else {
        memcpy(p, &v, 8);
    }
    if (msg && msg_size) msg[0] = '\0';
    return OSC_OK;
}

osc_status osc_options_get(const osc_options *opts, const char *key, uint64_t *value) {
    const opt_row *r = opts && key && value ? find(key) : NULL;
    if (!r) return OSC_ERR_ARG;
    const unsigned char *p = (const unsigned char *)opts + r->offset;
    if (r->size == 1) {
        uint8_t x;
        memcpy(&x, p, 1);
        *value = x;
    } else if (r->size == 4) {
        int32_t x; /* a negative value (set by field) reads back as its uint64_t conversion */
        memcpy(&x, p, 4);
        *value = (uint64_t)(int64_t)x;
    } else {
        memcpy(value, p, 8);
    }
    return OSC_OK;
}

const char *osc_option_name(size_t i) { return i < N_ROWS ? k_rows[i].name : NULL; }
