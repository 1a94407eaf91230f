/* test_ops_attention.c: Attention-23/24 run through kharness against a float64 reference
 * written here with naive loops (its own indexing of 3-D and 4-D inputs, the past cache, the
 * mask, the causal frontier and nonpad_kv_seqlen as the spec states them): grouped heads, causal
 * with a past, keys past nonpad_kv_seqlen poisoned with NaN, fully masked rows, the four
 * qk_matmul_output modes, every float dtype; and the refusals, which leave outputs untouched. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kharness.h"
#include "tests/support/check.h"
#include "tests/support/writer.h"

#define D(...) ((const int64_t[]){__VA_ARGS__})

/* One case: shapes, attributes and which optional inputs and outputs it has. */
typedef struct acase {
    int64_t opset;
    int32_t rank, t1, t2;
    int64_t b, qh, kvh, qs, kvs, past, d, dv;
    int causal, mode, n_out; /* n_out 1 to 4 */
    double scale, softcap;   /* NaN, 0: absent */
    /* mask: 0 none, 1 bool, 2 float (t1); rank 2 (qs, mlen) or 4 (mb, mh, qs, mlen) */
    int mask, mrank;
    int64_t mb, mh, mlen;
    const int64_t *nonpad; /* NULL: absent */
    bool poison;           /* K and V past each batch's nonpad_kv_seqlen are NaN */
    bool all_false_row;    /* a bool mask's row (b 0, h 0, i 0) is all false */
    bool spike;            /* element 0 of every query is 0.75, of K's first keys 64, 63 */
    bool twin;             /* 4-D; q head qh - 1 is a copy of head 0: their Y rows are equal */
    bool veil;             /* 4-D bool mask, mh 1: every query's row is query 0's, and the
                              values of the keys it hides are NaN (never read) */
} acase;

static uint32_t g_seed = 12345;
static double rnd(void) { /* [-1, 1) */
    g_seed = g_seed * 1664525u + 1013904223u;
    return (double)(g_seed >> 8) / (double)(1u << 23) - 1;
}

/* Values stored as dt and read back exactly (the reference computes on what the kernel got). */
static void put(int32_t dt, void *p, int64_t i, double v) {
    switch (dt) {
    case OSC_FLOAT: ((float *)p)[i] = (float)v; break;
    case OSC_DOUBLE: ((double *)p)[i] = v; break;
    case OSC_FLOAT16: ((uint16_t *)p)[i] = osc_f32_to_f16((float)v); break;
    case OSC_BFLOAT16: ((uint16_t *)p)[i] = osc_f32_to_bf16((float)v); break;
    case OSC_BOOL: ((uint8_t *)p)[i] = v != 0; break;
    case OSC_INT64: ((int64_t *)p)[i] = (int64_t)v; break;
    default: fail_msg("dtype %d", (int)dt);
    }
}
static double get(int32_t dt, const void *p, int64_t i) {
    switch (dt) {
    case OSC_FLOAT: return ((const float *)p)[i];
    case OSC_DOUBLE: return ((const double *)p)[i];
    case OSC_FLOAT16: return osc_f16_to_f32(((const uint16_t *)p)[i]);
    case OSC_BFLOAT16: return osc_bf16_to_f32(((const uint16_t *)p)[i]);
    case OSC_BOOL: return ((const uint8_t *)p)[i];
    case OSC_INT64: return (double)((const int64_t *)p)[i];
    default: fail_msg("dtype %d", (int)dt);
    }
    return 0;
}

/* A tensor of dtype dt filled by fill(i) (rounded to dt); vals gets what it holds. */
typedef struct buf {
    osc_tensor t;
    double *vals;
} buf;
static buf mk(int32_t dt, int32_t rank, const int64_t *dims) {
    buf b;
    b.t = kh_tensor(dt, rank, dims, NULL);
    const int64_t n = osc_tensor_count(&b.t);
    b.t.data = calloc((size_t)(n ? n : 1), 8);
    b.vals = calloc((size_t)(n ? n : 1), sizeof(double));
    for (int64_t i = 0; i < n; i++) {
        put(dt, b.t.data, i, dt == OSC_BOOL ? rnd() > -0.4 : rnd());
        b.vals[i] = get(dt, b.t.data, i);
    }
    return b;
}
static void set(buf *b, int64_t i, double v) {
    put(b->t.dtype, b->t.data, i, v);
    b->vals[i] = get(b->t.dtype, b->t.data, i);
}
static void drop(buf *b) {
    free(b->t.data);
    free(b->vals);
}

/* Element (b, h, s, t) of a 3-D (batch, seq, heads * size) or 4-D input. */
static int64_t at(int32_t rank, int64_t heads, int64_t seq, int64_t size, int64_t b, int64_t h,
                  int64_t s, int64_t t) {
    return rank == 4 ? ((b * heads + h) * seq + s) * size + t
                     : ((b * seq + s) * heads + h) * size + t;
}

/* The reference: y (b, h, i, dv), qk (b, h, i, total) per c->mode, present_key/value. */
typedef struct ref {
    double *y, *qk, *pk, *pv;
} ref;
static ref reference(const acase *c, const buf *in) {
    const int64_t total = c->past + c->kvs, rep = c->qh / c->kvh;
    ref r = {calloc((size_t)(c->b * c->qh * c->qs * c->dv), 8),
             calloc((size_t)(c->b * c->qh * c->qs * total), 8),
             calloc((size_t)(c->b * c->kvh * total * c->d), 8),
             calloc((size_t)(c->b * c->kvh * total * c->dv), 8)};
    /* the attributes are floats */
    const double scale = isnan(c->scale) ? 1 / sqrt((double)c->d) : (float)c->scale;
    double *s = calloc((size_t)total, 8), *w = calloc((size_t)total, 8),
           *bias = calloc((size_t)total, 8);
    /* key j of kv head g: the past cache first, then K */
    #define KEY(b, g, j, t)                                                                   \
        ((j) < c->past ? in[4].vals[(((b) * c->kvh + (g)) * c->past + (j)) * c->d + (t)]      \
                       : in[1].vals[at(c->rank, c->kvh, c->kvs, c->d, b, g, (j) - c->past, t)])
    #define VAL(b, g, j, t)                                                                   \
        ((j) < c->past ? in[5].vals[(((b) * c->kvh + (g)) * c->past + (j)) * c->dv + (t)]     \
                       : in[2].vals[at(c->rank, c->kvh, c->kvs, c->dv, b, g, (j) - c->past, t)])
    for (int64_t b = 0; b < c->b; b++)
        for (int64_t g = 0; g < c->kvh; g++)
            for (int64_t j = 0; j < total; j++) {
                for (int64_t t = 0; t < c->d; t++)
                    r.pk[((b * c->kvh + g) * total + j) * c->d + t] = KEY(b, g, j, t);
                for (int64_t t = 0; t < c->dv; t++)
                    r.pv[((b * c->kvh + g) * total + j) * c->dv + t] = VAL(b, g, j, t);
            }
    for (int64_t b = 0; b < c->b; b++)
        for (int64_t h = 0; h < c->qh; h++)
            for (int64_t i = 0; i < c->qs; i++) {
                const int64_t g = h / rep, row = (b * c->qh + h) * c->qs + i;
                bool any = false;
                for (int64_t j = 0; j < total; j++) {
                    double bj = 0;
                    if (c->mask) {
                        const int64_t mb = c->mb == 1 ? 0 : b, mh = c->mh == 1 ? 0 : h;
                        const double m = j < c->mlen
                            ? in[3].vals[((mb * c->mh + mh) * c->qs + i) * c->mlen + j]
                            : (c->mask == 1 ? 0 : -INFINITY);
                        bj += c->mask == 1 ? (m != 0 ? 0 : -INFINITY) : m;
                    }
                    const int64_t off = c->past ? c->past : c->nonpad ? c->nonpad[b] - c->qs : 0;
                    if (c->causal && j > i + off) bj = -INFINITY;
                    if (c->nonpad && j >= c->nonpad[b]) bj = -INFINITY;
                    bias[j] = bj;
                    any = any || bj != -INFINITY;
                    /* a masked-out key is never read (it may be poison) */
                    double dot = 0;
                    if (bj != -INFINITY || (c->n_out > 3 && c->mode < 2))
                        for (int64_t t = 0; t < c->d; t++)
                            dot += in[0].vals[at(c->rank, c->qh, c->qs, c->d, b, h, i, t)] *
                                   KEY(b, g, j, t);
                    s[j] = dot * scale;
                    if (c->mode == 0) r.qk[row * total + j] = s[j];
                    if (c->softcap > 0) s[j] = c->softcap * tanh(s[j] / c->softcap);
                    if (c->mode == 1) r.qk[row * total + j] = s[j];
                    s[j] = bj == -INFINITY ? -INFINITY : s[j] + bj;
                    if (c->mode == 2) r.qk[row * total + j] = s[j];
                }
                double mx = -INFINITY, sum = 0;
                for (int64_t j = 0; j < total; j++) mx = fmax(mx, s[j]);
                for (int64_t j = 0; j < total; j++)
                    sum += w[j] = any && bias[j] != -INFINITY ? exp(s[j] - mx) : 0;
                for (int64_t j = 0; j < total; j++) {
                    w[j] = any ? w[j] / sum : 0;
                    if (c->mode == 3) r.qk[row * total + j] = w[j];
                }
                for (int64_t t = 0; t < c->dv; t++) {
                    double acc = 0;
                    for (int64_t j = 0; j < total; j++)
                        if (w[j] != 0) acc += w[j] * VAL(b, g, j, t);
                    r.y[row * c->dv + t] = acc;
                }
            }
    #undef KEY
    #undef VAL
    free(s), free(w), free(bias);
    return r;
}

static double tol(int32_t dt) {
    return dt == OSC_DOUBLE ? 1e-12 : dt == OSC_FLOAT ? 2e-6 : dt == OSC_FLOAT16 ? 2e-3 : 1.6e-2;
}
/* out (dtype dt) against want (n values), within tol(dt) relative to max(1, |want|). */
static void near(const char *what, const osc_tensor *out, const double *want, int64_t n,
                 int32_t dt) {
    assert_int_equal(osc_tensor_count(out), n);
    for (int64_t i = 0; i < n; i++) {
        const double g = get(out->dtype, out->data, i), e = want[i];
        if (isinf(e) && g == e) continue;
        if (!isfinite(g) || fabs(g - e) > tol(dt) * fmax(1, fabs(e)))
            fail_msg("%s element %lld: %.9g, expected %.9g", what, (long long)i, g, e);
    }
}

/* Builds the case's inputs, runs the kernel, compares every output with the reference. */
static void run_case(const acase *c) {
    const int64_t total = c->past + c->kvs;
    buf in[7];
    memset(in, 0, sizeof in);
    if (c->rank == 4) {
        in[0] = mk(c->t1, 4, D(c->b, c->qh, c->qs, c->d));
        in[1] = mk(c->t1, 4, D(c->b, c->kvh, c->kvs, c->d));
        in[2] = mk(c->t2, 4, D(c->b, c->kvh, c->kvs, c->dv));
    } else {
        in[0] = mk(c->t1, 3, D(c->b, c->qs, c->qh * c->d));
        in[1] = mk(c->t1, 3, D(c->b, c->kvs, c->kvh * c->d));
        in[2] = mk(c->t2, 3, D(c->b, c->kvs, c->kvh * c->dv));
    }
    if (c->mask) {
        const int32_t mt = c->mask == 1 ? OSC_BOOL : c->t1;
        in[3] = c->mrank == 2 ? mk(mt, 2, D(c->qs, c->mlen))
                              : mk(mt, 4, D(c->mb, c->mh, c->qs, c->mlen));
        if (c->all_false_row)
            for (int64_t j = 0; j < c->mlen; j++) set(&in[3], j, 0);
    }
    if (c->past) {
        in[4] = mk(c->t1, 4, D(c->b, c->kvh, c->past, c->d));
        in[5] = mk(c->t2, 4, D(c->b, c->kvh, c->past, c->dv));
    }
    if (c->nonpad) {
        in[6] = mk(OSC_INT64, 1, D(c->b));
        for (int64_t b = 0; b < c->b; b++) set(&in[6], b, (double)c->nonpad[b]);
    }
    for (int64_t b = 0; c->spike && b < c->b; b++)
        for (int64_t h = 0; h < c->qh; h++) {
            for (int64_t i = 0; i < c->qs; i++)
                set(&in[0], at(c->rank, c->qh, c->qs, c->d, b, h, i, 0), 0.75);
            for (int64_t t = 0; t < c->d && h < c->kvh; t++) { /* key 1: key 0, t 0 less by 1 */
                const double v = t ? in[1].vals[at(c->rank, c->kvh, c->kvs, c->d, b, h, 0, t)] : 64;
                set(&in[1], at(c->rank, c->kvh, c->kvs, c->d, b, h, 0, t), v);
                set(&in[1], at(c->rank, c->kvh, c->kvs, c->d, b, h, 1, t), t ? v : 63);
            }
        }
    for (int64_t b = 0; c->veil && b < c->b; b++)
        for (int64_t j = 0; j < c->mlen; j++) {
            const double keep = in[3].vals[(b * c->qs) * c->mlen + j];
            for (int64_t i = 1; i < c->qs; i++) set(&in[3], (b * c->qs + i) * c->mlen + j, keep);
            for (int64_t g = 0; g < c->kvh && !keep; g++)
                for (int64_t t = 0; t < c->dv; t++)
                    set(&in[2], at(4, c->kvh, c->kvs, c->dv, b, g, j, t), NAN);
        }
    for (int64_t b = 0; c->twin && b < c->b; b++)
        for (int64_t i = 0; i < c->qs; i++)
            for (int64_t t = 0; t < c->d; t++)
                set(&in[0], at(4, c->qh, c->qs, c->d, b, c->qh - 1, i, t),
                    in[0].vals[at(4, c->qh, c->qs, c->d, b, 0, i, t)]);
    for (int64_t b = 0; c->poison && b < c->b; b++) /* 4-D K and V only */
        for (int64_t g = 0; g < c->kvh; g++)
            for (int64_t j = c->nonpad[b]; j < c->kvs; j++) {
                for (int64_t t = 0; t < c->d; t++)
                    set(&in[1], at(4, c->kvh, c->kvs, c->d, b, g, j, t), NAN);
                for (int64_t t = 0; t < c->dv; t++)
                    set(&in[2], at(4, c->kvh, c->kvs, c->dv, b, g, j, t), NAN);
            }
    const ref r = reference(c, in);
    kh h;
    kh_init(&h, "Attention", c->opset);
    if (c->rank == 3) {
        kh_attr_int(&h, "q_num_heads", c->qh);
        kh_attr_int(&h, "kv_num_heads", c->kvh);
    }
    if (c->causal) kh_attr_int(&h, "is_causal", 1);
    if (c->mode) kh_attr_int(&h, "qk_matmul_output_mode", c->mode);
    if (!isnan(c->scale)) kh_attr_float(&h, "scale", (float)c->scale);
    if (c->softcap) kh_attr_float(&h, "softcap", (float)c->softcap);
    const osc_tensor *ins[7];
    int32_t n_in = 3;
    for (int32_t i = 0; i < 7; i++) {
        ins[i] = in[i].t.data ? &in[i].t : NULL;
        if (ins[i]) n_in = i + 1;
    }
    if (kh_run_multi(&h, n_in, ins, c->n_out) != OSC_OK) fail_msg("run: %s", h.err.msg);
    const int64_t ydims3[3] = {c->b, c->qs, c->qh * c->dv}, ydims4[4] = {c->b, c->qh, c->qs, c->dv};
    osc_check_shape(&h.outs[0], c->t1, c->rank, c->rank == 4 ? ydims4 : ydims3);
    double *y = r.y, *y3 = NULL;
    if (c->rank == 3) { /* the reference's (b, h, i, t) as (b, i, h * dv + t) */
        y = y3 = calloc((size_t)(c->b * c->qh * c->qs * c->dv), 8);
        for (int64_t b = 0; b < c->b; b++)
            for (int64_t hh = 0; hh < c->qh; hh++)
                for (int64_t i = 0; i < c->qs; i++)
                    for (int64_t t = 0; t < c->dv; t++)
                        y3[at(3, c->qh, c->qs, c->dv, b, hh, i, t)] =
                            r.y[((b * c->qh + hh) * c->qs + i) * c->dv + t];
    }
    near("Y", &h.outs[0], y, c->b * c->qh * c->qs * c->dv, c->t1);
    if (c->twin) { /* the same bits, whichever loop took each row */
        const size_t row = (size_t)(c->qs * c->dv) * osc_dtype_get(c->t1)->bits / 8;
        const char *y0 = h.outs[0].data;
        for (int64_t b = 0; b < c->b; b++)
            assert_memory_equal(y0 + (size_t)(b * c->qh) * row,
                                y0 + (size_t)(b * c->qh + c->qh - 1) * row, row);
    }
    if (c->n_out > 1) {
        osc_check_shape(&h.outs[1], c->t1, 4, D(c->b, c->kvh, total, c->d));
        near("present_key", &h.outs[1], r.pk, c->b * c->kvh * total * c->d, OSC_DOUBLE);
    }
    if (c->n_out > 2) {
        osc_check_shape(&h.outs[2], c->t2, 4, D(c->b, c->kvh, total, c->dv));
        near("present_value", &h.outs[2], r.pv, c->b * c->kvh * total * c->dv, OSC_DOUBLE);
    }
    if (c->n_out > 3) {
        osc_check_shape(&h.outs[3], c->t1, 4, D(c->b, c->qh, c->qs, total));
        near("qk_matmul_output", &h.outs[3], r.qk, c->b * c->qh * c->qs * total, c->t1);
    }
    kh_free(&h);
    free(y3), free(r.y), free(r.qk), free(r.pk), free(r.pv);
    for (int32_t i = 0; i < 7; i++)
        if (in[i].t.data) drop(&in[i]);
}

static const int32_t k_types[4] = {OSC_FLOAT, OSC_DOUBLE, OSC_FLOAT16, OSC_BFLOAT16};

/* 3-D inputs, 4 q heads over 2 kv heads, a float mask broadcast over batch and heads, scale,
 * softcap, a v head size unlike the q one; every dtype and every qk_matmul_output mode. */
static void gqa_3d(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int mode = 0; mode < 4; mode++) {
            const acase c = {.opset = 23, .rank = 3, .t1 = k_types[ti], .t2 = k_types[ti],
                             .b = 2, .qh = 4, .kvh = 2, .qs = 3, .kvs = 5, .d = 4, .dv = 6,
                             .mode = mode, .n_out = 4, .scale = 0.3, .softcap = 1.5, .mask = 2,
                             .mrank = 2, .mb = 1, .mh = 1, .mlen = 5};
            run_case(&c);
        }
}

/* 4-D, one kv head for two q heads, causal with 3 past keys (query i sees keys up to i + 3),
 * present_key/present_value and the masked scores (mode 2); then a bool 4-D mask too. */
static void causal_with_past(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int m = 0; m < 2; m++) {
            const acase c = {.opset = 24, .rank = 4, .t1 = k_types[ti], .t2 = k_types[ti],
                             .b = 2, .qh = 2, .kvh = 1, .qs = 2, .kvs = 2, .past = 3, .d = 8,
                             .dv = 8, .causal = 1, .mode = 2, .n_out = 4, .scale = NAN,
                             .mask = m ? 1 : 0, .mrank = 4, .mb = 2, .mh = 2, .mlen = 5};
            run_case(&c);
        }
}

/* Groups of five q heads per kv head (four rows at a time, then one), 37 keys after 20 past
 * ones (key blocks of 16, an odd count, pairs of keys then one), head sizes past whole vectors
 * of 8 (19; 29: two vectors, one, five elements) and the softmax's exponentials over lengths
 * that are no multiple of 8: every path of the score, softmax and value loops, checked with
 * the softmax itself (mode 3); then without that output, the row maxima taken per block of
 * keys and the weights divided per block of values: K's first two keys (20 and 21, in the
 * second block) score above 1,000, 30 apart (the same but for element 0), so that a maximum
 * short of their block's takes both exponentials to the clamp (equal weights). */
static void long_groups(void **state) {
    (void)state;
    for (int ti = 0; ti < 4; ti++)
        for (int causal = 0; causal < 2; causal++)
            for (int n_out = 3; n_out <= 4; n_out++) {
                const acase c = {.opset = 23, .rank = 4, .t1 = k_types[ti], .t2 = k_types[ti],
                                 .b = 1, .qh = 10, .kvh = 2, .qs = 3, .kvs = 37, .past = 20,
                                 .d = 19, .dv = 29, .causal = causal, .mode = 3,
                                 .n_out = n_out, .scale = n_out == 3 ? 40 : 2.5,
                                 .spike = n_out == 3};
                run_case(&c);
            }
}

/* Groups of five q heads with head 4 a copy of head 0: the first four rows of a group take the
 * four-row loops (on AVX-512, 16 lanes at a time), the fifth the one-row ones, and both give
 * the same Y bit for bit; float16 keys and values (scores and values read where they lie),
 * float keys with float16 values (Y in float, every bit of the values' sums seen), or float
 * keys and values; 37 keys (blocks of 16, 16 and 5: four keys at a time, then one), v head
 * sizes 80 (64 lanes, then 16) and 8 (fewer than 16), k head sizes 16 and 12 (not whole
 * vectors of 8); without a mask, and with a bool one (the same for every head and query) that
 * gives about a third of the keys a zero weight, which the four-row loops skip row by row:
 * those keys' values are NaN. */
static void twin_rows(void **state) {
    (void)state;
    static const int64_t dvs[2] = {80, 8}, ds[2] = {16, 12};
    static const int32_t t1s[3] = {OSC_FLOAT16, OSC_FLOAT, OSC_FLOAT},
                         t2s[3] = {OSC_FLOAT16, OSC_FLOAT16, OSC_FLOAT};
    for (int ti = 0; ti < 3; ti++)
        for (int v = 0; v < 2; v++)
            for (int mask = 0; mask < 2; mask++) {
                const acase c = {.opset = 23, .rank = 4, .t1 = t1s[ti], .t2 = t2s[ti], .b = 2,
                                 .qh = 5, .kvh = 1, .qs = 2, .kvs = 37, .d = ds[v],
                                 .dv = dvs[v], .n_out = 1, .scale = NAN, .twin = true,
                                 .mask = mask, .mrank = 4, .mb = 2, .mh = 1, .mlen = 37,
                                 .veil = mask};
                run_case(&c);
            }
}

/* Attention-24's nonpad_kv_seqlen: the keys and values past it are NaN, the output finite;
 * causal decode aligns the query with the last valid key; a batch of 0 valid keys is a zero
 * row; a shorter mask (4 of 6 keys) is padded with -inf. */
static void nonpad_poisoned(void **state) {
    (void)state;
    static const int64_t lens[3] = {3, 6, 0};
    for (int ti = 0; ti < 4; ti++)
        for (int causal = 0; causal < 2; causal++) {
            const acase c = {.opset = 24, .rank = 4, .t1 = k_types[ti], .t2 = k_types[ti],
                             .b = 3, .qh = 4, .kvh = 2, .qs = 1, .kvs = 6, .d = 8, .dv = 4,
                             .causal = causal, .n_out = 1, .scale = NAN, .nonpad = lens,
                             .poison = true};
            run_case(&c);
        }
    static const int64_t lens2[2] = {4, 2};
    const acase c = {.opset = 24, .rank = 4, .t1 = OSC_FLOAT, .t2 = OSC_FLOAT, .b = 2,
                     .qh = 2, .kvh = 2, .qs = 2, .kvs = 6, .d = 4, .dv = 4, .causal = 1,
                     .n_out = 1, .scale = NAN, .nonpad = lens2, .poison = true, .mask = 2,
                     .mrank = 4, .mb = 2, .mh = 1, .mlen = 4};
    run_case(&c);
}

/* float16 with a bool mask whose first row is all false: that row of Y and of the softmax
 * output (mode 3) is zero, not NaN; then Q, K float16 with V float. */
static void float16_masked_row(void **state) {
    (void)state;
    const acase c = {.opset = 23, .rank = 4, .t1 = OSC_FLOAT16, .t2 = OSC_FLOAT16, .b = 1,
                     .qh = 2, .kvh = 2, .qs = 3, .kvs = 4, .d = 16, .dv = 8, .mode = 3,
                     .n_out = 4, .scale = NAN, .mask = 1, .mrank = 4, .mb = 1, .mh = 2,
                     .mlen = 4, .all_false_row = true};
    run_case(&c);
    acase mixed = c;
    mixed.t2 = OSC_FLOAT;
    mixed.n_out = 3;
    run_case(&mixed);
}

/* Inputs that break the spec: an error naming the input and the bad value, nothing written. */
static void refusals(void **state) {
    (void)state;
    static float z[4096];
    static const int64_t np_bad[2] = {7, 1}, np_neg[2] = {1, -1};
    const osc_tensor q4 = kh_tensor(OSC_FLOAT, 4, D(2, 3, 2, 4), z),
                     k4 = kh_tensor(OSC_FLOAT, 4, D(2, 2, 6, 4), z),
                     q4b = kh_tensor(OSC_FLOAT, 4, D(2, 4, 2, 4), z),
                     m_bad = kh_tensor(OSC_FLOAT, 2, D(3, 6), z),
                     m_short = kh_tensor(OSC_FLOAT, 2, D(2, 5), z),
                     pk = kh_tensor(OSC_FLOAT, 4, D(2, 2, 3, 4), z),
                     pv = kh_tensor(OSC_FLOAT, 4, D(2, 2, 2, 4), z),
                     npb = kh_tensor(OSC_INT64, 1, D(2), np_bad),
                     npn = kh_tensor(OSC_INT64, 1, D(2), np_neg);
    kh h;
    kh_init(&h, "Attention", 24);
    assert_int_equal(kh_run3(&h, &q4, &k4, &k4), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "has 3 heads and inputs 1 'K' (), 2 'V' () have 2: the q heads must "
                      "be a multiple");
    kh_free(&h);
    const osc_tensor q3 = kh_tensor(OSC_FLOAT, 3, D(2, 2, 10), z);
    kh_init(&h, "Attention", 24);
    kh_attr_int(&h, "q_num_heads", 4);
    kh_attr_int(&h, "kv_num_heads", 2);
    assert_int_equal(kh_run3(&h, &q3, &q3, &q3), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "hidden size 10 is not a multiple of attribute 'q_num_heads' = 4");
    kh_free(&h);
    const osc_tensor *with_mask[4] = {&q4b, &k4, &k4, &m_bad};
    kh_init(&h, "Attention", 24);
    assert_int_equal(kh_run(&h, 4, with_mask), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "'attn_mask' () has shape [3,6], which does not broadcast");
    kh_assert_msg_has(&h, "dim 0 is 3; allowed: 1 or 2");
    kh_free(&h);
    /* a mask shorter than the keys: padded in 24, refused in 23 */
    const osc_tensor *short_mask[4] = {&q4b, &k4, &k4, &m_short};
    kh_init(&h, "Attention", 23);
    assert_int_equal(kh_run(&h, 4, short_mask), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "dim 1 is 5; allowed: 1 or 6");
    kh_free(&h);
    kh_init(&h, "Attention", 24);
    assert_int_equal(kh_run(&h, 4, short_mask), OSC_OK);
    kh_free(&h);
    const osc_tensor *with_past[6] = {&q4b, &k4, &k4, NULL, &pk, &pv};
    kh_init(&h, "Attention", 24);
    assert_int_equal(kh_run(&h, 6, with_past), OSC_ERR_SHAPE);
    kh_assert_msg_has(&h, "input 5 'past_value' () has shape [2,2,2,4]: dim 2 is 2; it must be "
                      "past_key's length (3)");
    kh_free(&h);
    const osc_tensor *np_args[2][7] = {{&q4b, &k4, &k4, NULL, NULL, NULL, &npb},
                                       {&q4b, &k4, &k4, NULL, NULL, NULL, &npn}};
    static const char *const np_msg[2] = {"holds 7 at position 0; allowed: 0 to the kv "
                                          "sequence length 6",
                                          "holds -1 at position 1; allowed: 0 to"};
    for (int i = 0; i < 2; i++) {
        kh_init(&h, "Attention", 24);
        assert_int_equal(kh_run_multi(&h, 7, np_args[i], 1), OSC_ERR_INDEX);
        kh_assert_msg_has(&h, np_msg[i]);
        kh_assert_untouched(&h.outs[0]);
        kh_free(&h);
    }
    kh_init(&h, "Attention", 24);
    kh_attr_int(&h, "qk_matmul_output_mode", 4);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'qk_matmul_output_mode' = 4; allowed: 0 to 3");
    kh_init(&h, "Attention", 23);
    kh_attr_int(&h, "softmax_precision", 7);
    kh_init_fails(&h, OSC_ERR_MODEL, "attribute 'softmax_precision' = 7; allowed");
    kh_init(&h, "Attention", 23);
    assert_int_equal(kh_run3(&h, &q3, &q3, &q3), OSC_ERR_MODEL);
    kh_assert_msg_has(&h, "3-D inputs need attributes 'q_num_heads' and 'kv_num_heads'");
    kh_free(&h);
}

/* Through the engine: outputs Y, '', '', qk_matmul_output (the empty ones get values nothing
 * reads), rows split among 1 and 3 threads: the same bytes, and the reference's values. */
static void engine_threads(void **state) {
    (void)state;
    const acase c = {.opset = 23, .rank = 4, .t1 = OSC_FLOAT, .t2 = OSC_FLOAT, .b = 1, .qh = 4,
                     .kvh = 2, .qs = 64, .kvs = 64, .d = 32, .dv = 32, .causal = 1, .mode = 3,
                     .n_out = 4, .scale = NAN};
    buf in[7];
    memset(in, 0, sizeof in);
    in[0] = mk(OSC_FLOAT, 4, D(1, 4, 64, 32));
    in[1] = mk(OSC_FLOAT, 4, D(1, 2, 64, 32));
    in[2] = mk(OSC_FLOAT, 4, D(1, 2, 64, 32));
    const ref r = reference(&c, in);
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 23);
    static const char *const names[3] = {"q", "k", "v"}, *const outs[4] = {"y", "", "", "qk"};
    for (int i = 0; i < 3; i++) osc_mw_input(mw, names[i], OSC_FLOAT, 4, in[i].t.dims, NULL);
    const int n = osc_mw_node(mw, "Attention", "at", 3, names, 4, outs);
    osc_mw_attr_int(mw, n, "is_causal", 1);
    osc_mw_attr_int(mw, n, "qk_matmul_output_mode", 3);
    osc_mw_output(mw, "y", OSC_FLOAT, 4, D(1, 4, 64, 32), NULL);
    osc_mw_output(mw, "qk", OSC_FLOAT, 4, D(1, 4, 64, 64), NULL);
    void *bytes = NULL;
    size_t len = 0;
    assert_int_equal(osc_mw_serialize(mw, &bytes, &len), OSC_OK);
    osc_mw_free(mw);
    float *first[2] = {NULL, NULL};
    for (int threads = 1; threads <= 3; threads += 2) {
        osc_options o;
        osc_options_init(&o);
        o.threads = threads;
        osc_model *m = NULL;
        osc_session *s = NULL;
        char msg[512];
        if (osc_model_load_buffer(bytes, len, NULL, &o, &m, msg, sizeof msg)) fail_msg("%s", msg);
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        const osc_tensor t[3] = {in[0].t, in[1].t, in[2].t};
        osc_check_bind(s, 3, names, t);
        if (osc_session_run(s) != OSC_OK) fail_msg("run: %s", osc_session_error(s));
        for (int j = 0; j < 2; j++) {
            osc_tensor y;
            assert_int_equal(osc_session_output(s, j, &y), OSC_OK);
            near(j ? "qk_matmul_output" : "Y", &y, j ? r.qk : r.y, osc_tensor_count(&y),
                 OSC_FLOAT);
            if (!first[j]) {
                first[j] = malloc(y.nbytes);
                memcpy(first[j], y.data, y.nbytes);
            } else {
                assert_memory_equal(first[j], y.data, y.nbytes);
            }
        }
        osc_session_free(s);
        osc_model_free(m);
    }
    free(bytes), free(first[0]), free(first[1]);
    free(r.y), free(r.qk), free(r.pk), free(r.pv);
    for (int i = 0; i < 3; i++) drop(&in[i]);
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(gqa_3d), cmocka_unit_test(long_groups),
              cmocka_unit_test(twin_rows),
              cmocka_unit_test(engine_threads), cmocka_unit_test(causal_with_past),
              cmocka_unit_test(nonpad_poisoned), cmocka_unit_test(float16_masked_row),
              cmocka_unit_test(refusals))
