/* random.c: --random: reproducible input values, with in-range indices for scatter/gather ops. */
/* Values come from splitmix64, so a seed gives the same tensors on every platform. Each input
 * draws from its own stream (seed, input position), so one input's size never changes
 * another's values. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi] (lo <= hi), without modulo bias. */
static int64_t uniform(uint64_t *s, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1, x;
    if (span == 0) return (int64_t)splitmix(s); /* the whole int64 range */
    uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    do x = splitmix(s); while (x >= limit);
    return (int64_t)((uint64_t)lo + x % span);
}

static double unit(uint64_t *s) { return (double)(splitmix(s) >> 11) * 0x1.0p-53; }

/* ---- filling ---- */

static int gcd_is_one(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b, b = t;
    }
    return a == 1;
}

/* Fills t with index tuples (its last dim is r->k). With r->distinct and enough room, tuples
 * come from an affine permutation t -> (a*t + b) mod space, so no two are equal. */
static void fill_tuples(osc_tensor *t, const cli_irange *r, uint64_t *s) {
    int64_t count = osc_tensor_count(t), tuples = r->k ? count / r->k : 0;
    uint64_t space = 1;
    for (int j = 0; j < r->k && space; j++) {
        uint64_t w = (uint64_t)(r->hi[j] - r->lo[j] + 1);
        space = w && space <= UINT32_MAX / w ? space * w : 0;
    }
    int perm = r->distinct && space > 1 && (uint64_t)tuples <= space;
    uint64_t a = 1, b = 0;
    if (perm) {
        do a = (uint64_t)uniform(s, 1, (int64_t)space - 1); while (!gcd_is_one(a, space));
        b = (uint64_t)uniform(s, 0, (int64_t)space - 1);
    }
    for (int64_t q = 0; q < tuples; q++) {
        uint64_t code = perm ? (a * (uint64_t)q + b) % space : 0;
        for (int j = r->k - 1; j >= 0; j--) {
            int64_t v;
            if (perm) {
                uint64_t w = (uint64_t)(r->hi[j] - r->lo[j] + 1);
                v = r->lo[j] + (int64_t)(code % w);
                code /= w;
            } else {
                v = uniform(s, r->lo[j], r->hi[j]);
            }
            cli_elem_set_bits(t, q * r->k + j, (uint64_t)v);
        }
    }
}

/* A finite value of a small float format (float8, float4): random codes, NaN/inf redrawn. */
static uint64_t small_float_code(int32_t dtype, uint64_t *s) {
    size_t bits = osc_dtype_bits(dtype);
    for (;;) {
        uint64_t c = splitmix(s) & ((1u << bits) - 1u);
        double v = cli_decode_float(dtype, c);
        if (v == v && v - v == 0 && (v < 0 ? -v : v) <= 4.0) return c;
    }
}

int cli_random_fill(osc_tensor *t, const cli_irange *r, uint64_t seed, size_t input, char *msg,
                    size_t msg_size) {
    uint64_t s = seed ^ (0xD1B54A32D192ED03ull * (input + 1));
    int64_t count = osc_tensor_count(t);
    cli_kind kind = cli_dtype_kind(t->dtype);
    if (r && (r->set || r->none) && (kind == CLI_KIND_SIGNED || kind == CLI_KIND_UNSIGNED)) {
        if (r->none) {
            snprintf(msg, msg_size, "no random value is safe: %s", r->why);
            return count > 0;
        }
        cli_irange c = *r; /* clamped to what the dtype holds */
        size_t bits = osc_dtype_bits(t->dtype);
        int uns = kind == CLI_KIND_UNSIGNED;
        int64_t tlo = uns ? 0 : bits >= 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
        int64_t thi = bits >= 63 ? INT64_MAX
                      : uns      ? (INT64_C(1) << bits) - 1
                                 : (INT64_C(1) << (bits - 1)) - 1;
        int empty = 0;
        for (int j = 0; j < (c.k ? c.k : 1); j++) {
            if (c.lo[j] < tlo) c.lo[j] = tlo;
            if (c.hi[j] > thi) c.hi[j] = thi;
            empty |= c.hi[j] < c.lo[j];
        }
        if (empty && count > 0) {
            if (!strcmp(r->lo_by, r->hi_by) || !r->lo_by[0] || !r->hi_by[0])
                snprintf(msg, msg_size, "no value is valid for %s",
                         r->lo_by[0] ? r->lo_by : r->hi_by);
            else
                snprintf(msg, msg_size, "no value is valid for every node reading it: %s; %s",
                         r->lo_by, r->hi_by);
            return 1;
        }
        if (c.k) {
            fill_tuples(t, &c, &s);
            return 0;
        }
        if (t->rank == 0 && c.lo[0] < 0 && c.hi[0] >= 0) c.lo[0] = 0; /* a position: from 0 */
        for (int64_t i = 0; i < count; i++)
            cli_elem_set_bits(t, i, (uint64_t)uniform(&s, c.lo[0], c.hi[0]));
        return 0;
    }
    size_t bits = osc_dtype_bits(t->dtype);
    for (int64_t i = 0; i < count; i++) {
        switch (kind) {
        case CLI_KIND_FLOAT:
            if (bits <= 8) cli_elem_set_bits(t, i, small_float_code(t->dtype, &s));
            else cli_elem_set_float(t, i, 2 * unit(&s) - 1);
            break;
        case CLI_KIND_COMPLEX: {
            double re = 2 * unit(&s) - 1;
            cli_elem_set_complex(t, i, re, 2 * unit(&s) - 1);
            break;
        }
        case CLI_KIND_SIGNED: { /* small values; int4/int2 over their whole range; a scalar (a
                                 * count or a position) from 0 */
            int64_t hi = bits >= 8 ? 100 : (1 << (bits - 1)) - 1, lo = bits >= 8 ? -100 : -hi - 1;
            if (t->rank == 0) lo = 0;
            cli_elem_set_bits(t, i, (uint64_t)uniform(&s, lo, hi));
            break;
        }
        case CLI_KIND_UNSIGNED:
            cli_elem_set_bits(t, i, (uint64_t)uniform(&s, 0, bits >= 8 ? 100 : (1 << bits) - 1));
            break;
        case CLI_KIND_BOOL: cli_elem_set_bits(t, i, splitmix(&s) >> 63); break;
        case CLI_KIND_STRING: {
            /* short lowercase words, stored after the osc_string array (see cli_random_extra) */
            osc_string *str = (osc_string *)t->data + i;
            char *p = (char *)t->data + t->nbytes + (size_t)i * 8;
            size_t len = (size_t)uniform(&s, 1, 8);
            for (size_t k = 0; k < len; k++) p[k] = (char)('a' + uniform(&s, 0, 25));
            str->ptr = p, str->len = len;
            break;
        }
        default: break;
        }
    }
    return 0;
}

size_t cli_random_extra(int32_t dtype, int64_t count) {
    return dtype == OSC_STRING && count > 0 ? (size_t)count * 8 : 0;
}
