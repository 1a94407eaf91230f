/* pow.c: Pow, z = x^y with z of X's dtype. Versions 7 on broadcast X and Y numpy-style; version 1
 * broadcasts Y into X only with broadcast=1 (Y's shape a contiguous part of X's from `axis`, or
 * one element), else the shapes must be equal. From 12 the exponent's dtype may differ from the
 * base's (T: int32, int64, float16, float, double, bfloat16; T1: every real type).
 *
 * Every element pair is loaded to a common form in chunks (one loader per dtype, from the
 * X-macro lists), then computed:
 * - a float base: pow in double, rounded once to X's dtype (float16/bfloat16 through float, as
 *   every kernel here rounds them);
 * - an integer base with an integer exponent: exact, wrapping modulo 2^bits as integer
 *   multiplication does; a negative exponent truncates 1/x^n toward zero (1 and -1 keep their
 *   powers, other bases give 0) and fails for a zero base, before anything is written;
 * - an integer base with a float exponent: pow in double truncated toward zero as the
 *   reference's cast does, saturated to the dtype's range, NaN giving 0. */
#include <math.h>
#include <string.h>

#include "math_common.h"

OSC_KERNEL_DECLARE(osc_pow)

enum { CHUNK = 256 };

typedef struct pow_params {
    osc_typeset types[2];
    bool legacy;          /* version 1: broadcast/axis attributes */
    osc_ew_legacy lg;     /* their values */
} pow_params;

/* ---- Loaders of n elements from src + off, stepping by step, into double or (integers only)
 * two's complement bits; stores of n results into dst + off. A float base stores doubles, an
 * integer base (int32/int64) stores doubles or bits; no version has an unsigned base. ---- */
#define TO_D_FLOAT(x) ((double)(x))
#define TO_D_F16(x) ((double)OSC_H2F(x))
#define TO_D_BF16(x) ((double)OSC_B2F(x))
#define TO_D_SINT(x) ((double)(x))
#define TO_D_UINT(x) ((double)(x))
#define TO_I_SINT(x) ((uint64_t)(int64_t)(x)) /* sign-extended */
#define TO_I_UINT(x) ((uint64_t)(x))
#define FROM_D_FLOAT(T, v) ((T)(v))
#define FROM_D_F16(T, v) OSC_F2H((float)(v))
#define FROM_D_BF16(T, v) OSC_F2B((float)(v))
#define FROM_D_SINT(T, v) ((T)osc_ew_f2s(v, (int)sizeof(T) * 8))

typedef void (*ld_d_fn)(double *d, const void *src, int64_t off, int64_t step, int64_t n);
typedef void (*ld_i_fn)(uint64_t *d, const void *src, int64_t off, int64_t step, int64_t n);
typedef void (*st_d_fn)(void *dst, int64_t off, const double *v, int64_t n);
typedef void (*st_i_fn)(void *dst, int64_t off, const uint64_t *v, int64_t n);

#define LD(KIND, E, T, CLS, VT)                                                             \
    static void ld_##KIND##_##E(VT *d, const void *src, int64_t off, int64_t step, int64_t n) { \
        const T *s = (const T *)src + off;                                                  \
        for (int64_t j = 0; j < n; j++) d[j] = TO_##KIND##_##CLS(s[j * step]);              \
    }
#define ST_D(E, T, CLS)                                                                     \
    static void st_d_##E(void *dst, int64_t off, const double *v, int64_t n) {              \
        T *o = (T *)dst + off;                                                              \
        for (int64_t j = 0; j < n; j++) o[j] = FROM_D_##CLS(T, v[j]);                       \
    }
#define ST_I(E, T)                                                                          \
    static void st_i_##E(void *dst, int64_t off, const uint64_t *v, int64_t n) {            \
        T *o = (T *)dst + off;                                                              \
        for (int64_t j = 0; j < n; j++) o[j] = (T)v[j]; /* modulo 2^bits */                 \
    }
#define DEFINE_FLOAT(E, T, CLS) LD(D, E, T, CLS, double) ST_D(E, T, CLS)
#define DEFINE_SINT(E, T, CLS) DEFINE_FLOAT(E, T, CLS) LD(I, E, T, CLS, uint64_t) ST_I(E, T)
#define DEFINE_UINT(E, T, CLS) LD(D, E, T, CLS, double) LD(I, E, T, CLS, uint64_t)
OSC_FLOAT_TYPES(DEFINE_FLOAT)
OSC_SINT_TYPES(DEFINE_SINT)
OSC_UINT_TYPES(DEFINE_UINT)

typedef struct pow_io {
    ld_d_fn ld_d;
    ld_i_fn ld_i; /* integers only */
    st_d_fn st_d; /* bases only */
    st_i_fn st_i; /* integer bases only */
    bool is_int, is_signed;
} pow_io;

/* Per dtype; dtype is a valid number: the row's type sets admitted it. */
#define IO_FLOAT(E, T, CLS) [E] = {ld_D_##E, NULL, st_d_##E, NULL, false, false},
#define IO_SINT(E, T, CLS) [E] = {ld_D_##E, ld_I_##E, st_d_##E, st_i_##E, true, true},
#define IO_UINT(E, T, CLS) [E] = {ld_D_##E, ld_I_##E, NULL, NULL, true, false},
static const pow_io k_io[OSC_DTYPE_COUNT] = {
    OSC_FLOAT_TYPES(IO_FLOAT) OSC_SINT_TYPES(IO_SINT) OSC_UINT_TYPES(IO_UINT)};

/* x^e modulo 2^64 for e >= 0, by squaring. */
static uint64_t ipow(uint64_t x, uint64_t e) {
    uint64_t r = 1;
    while (e) {
        if (e & 1) r *= x;
        x *= x;
        e >>= 1;
    }
    return r;
}

/* x^y for an integer base and an integer exponent (both as two's complement bits; the
 * exponent negative only when y_signed). *zero_neg: a zero base met a negative exponent. */
static uint64_t ipow_signed(uint64_t x, uint64_t y, bool y_signed, bool *zero_neg) {
    if (!y_signed || (int64_t)y >= 0) return ipow(x, y);
    if (x == 1) return 1;
    if (x == UINT64_MAX) return (y & 1) ? UINT64_MAX : 1; /* -1 */
    if (x == 0) *zero_neg = true;
    return 0;
}

/* ---- init ---- */
osc_status osc_pow_init(osc_kctx *k, const osc_node *node, void **params) {
    const bool legacy = k->since_version < 7;
    pow_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->types[0] = osc_kernel_types(k->row, 0);
    p->types[1] = osc_kernel_types(k->row, 1);
    p->legacy = legacy;
    osc_status st = osc_ew_legacy_init(k, node, legacy, &p->lg);
    if (st) return st;
    *params = p;
    return OSC_OK;
}

/* infer's and run's checks: dtypes, the output shape (into want) and Y as broadcast (y_b). */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, osc_tensor *y_b) {
    const pow_params *p = k->params;
    osc_status st = osc_m_check_x(k, in, n_in, "X", p->types[0], 0, want);
    if (!st) st = osc_need_input(k, in, n_in, 1, "Y");
    if (!st) st = osc_ew_check_type(k, 1, "Y", in[1], p->types[1]);
    if (!st && k->since_version < 12) st = osc_check_same_dtype(k, 0, "X", in[0], 1, "Y", in[1]);
    if (st) return st;
    if (p->legacy) return osc_ew_legacy_b(k, &p->lg, "X", in[0], "Y", in[1], y_b);
    *y_b = *in[1];
    return osc_bcast_merge(k, want, 1, "Y", in[1]);
}

OSC_INFER_OUT0_AUX(osc_pow, validate, osc_tensor)

/* One pass over output elements [lo, hi): compute (write) or only look for a zero base under
 * a negative integer exponent (check). */
static bool pass(const osc_tensor *out, const osc_tensor *x, const osc_tensor *y_b,
                 const pow_io *xo, const pow_io *yo, bool write, int64_t *bad, int64_t lo,
                 int64_t hi) {
    osc_bcast_it it;
    const osc_tensor *ins[2] = {x, y_b};
    if (!osc_bcast_begin(&it, out, 2, ins)) return true;
    osc_bcast_range(&it, lo, hi);
    double xd[CHUNK], yd[CHUNK];
    uint64_t xi[CHUNK], yi[CHUNK];
    do {
        for (int64_t j0 = 0; j0 < it.len; j0 += CHUNK) {
            const int64_t n = it.len - j0 < CHUNK ? it.len - j0 : CHUNK;
            const int64_t xoff = it.off[0] + j0 * it.step[0], yoff = it.off[1] + j0 * it.step[1];
            if (xo->is_int && yo->is_int) {
                xo->ld_i(xi, x->data, xoff, it.step[0], n);
                yo->ld_i(yi, y_b->data, yoff, it.step[1], n);
                bool zero_neg = false;
                for (int64_t j = 0; j < n; j++) {
                    xi[j] = ipow_signed(xi[j], yi[j], yo->is_signed, &zero_neg);
                    if (zero_neg) { /* only in the check pass, which runs first */
                        *bad = it.out_off + j0 + j;
                        return false;
                    }
                }
                if (write) xo->st_i(out->data, it.out_off + j0, xi, n);
                continue;
            }
            xo->ld_d(xd, x->data, xoff, it.step[0], n);
            yo->ld_d(yd, y_b->data, yoff, it.step[1], n);
            for (int64_t j = 0; j < n; j++) xd[j] = pow(xd[j], yd[j]);
            xo->st_d(out->data, it.out_off + j0, xd, n);
        }
    } while (osc_bcast_next(&it));
    return true;
}

/* The computing pass split among threads: pow in double costs about 25 ns an element, so
 * outputs far below OSC_PAR_MIN_BYTES already pay for a split (GCN's degree^-0.5, 100,000
 * elements: 2.5 ms). */
#define POW_PAR_MIN 16384 /* elements */
typedef struct pow_job {
    const osc_tensor *out, *x, *y_b;
    const pow_io *xo, *yo;
    int64_t n;
} pow_job;

static void pow_part(void *ctx, int32_t part, int32_t parts) {
    const pow_job *j = ctx;
    int64_t lo, hi, bad;
    osc_par_range(j->n, 16, part, parts, &lo, &hi); /* 16 elements: whole cache lines */
    if (lo < hi) pass(j->out, j->x, j->y_b, j->xo, j->yo, true, &bad, lo, hi);
}

osc_status osc_pow_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                       osc_tensor *out, int32_t n_out) {
    static const char *const k_what[2] = {"X", "Y"};
    osc_tensor want, y_b;
    osc_status st = validate(k, in, n_in, &want, &y_b);
    if (!st) st = osc_ew_check_io(k, in, 2, k_what, out, n_out, &want);
    if (st) return st;
    const pow_io xo = k_io[in[0]->dtype], yo = k_io[in[1]->dtype];
    const int64_t n = osc_tensor_count(out);
    int64_t bad = -1;
    if (xo.is_int && yo.is_signed && !pass(out, in[0], &y_b, &xo, &yo, false, &bad, 0, n))
        return osc_kfail(k, OSC_ERR_ARG, "output element %lld is 0 to a negative power, which "
                         "has no integer value (input 0 'X' (%s) is %s)", (long long)bad,
                         osc_kinput_name(k, 0), osc_dtype_get(in[0]->dtype)->name);
    /* In place (version 1: X walks with the output) is fine: each chunk is loaded first, and
     * the threads' element ranges are disjoint. */
    pow_job j = {.out = out, .x = in[0], .y_b = &y_b, .xo = &xo, .yo = &yo, .n = n};
    osc_tpool_run(j.n >= POW_PAR_MIN ? k->tpool : NULL, pow_part, &j);
    return OSC_OK;
}
