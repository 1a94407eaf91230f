/* cast.c: Cast-6/9/13/19/21/23/24/25 between every numeric dtype the version lists, through an
 * exact intermediate (int64, uint64 or double) in chunks; loops generated from OSC_STD_TYPES.
 * CastLike-15/19/21/23/24/25 is the same kernel (its own init, Cast's infer and run) with the
 * target dtype taken from its second input (target_type: only its dtype is read), not 'to'.
 *
 * Where the spec leaves room (each rule has a unit test):
 * - every value is rounded once, from its exact value, to nearest even (float16/bfloat16/float8
 *   from double or from a 64-bit integer included: never through float first);
 * - float -> integer of 8+ bits: truncation toward zero; NaN -> 0; out of range (Inf included)
 *   saturates to the destination's min/max (C leaves this undefined);
 * - float -> int4/uint4/int2/uint2: truncation, saturated to int64, then the low bits (the ONNX
 *   reference data has -9.0 -> int4 7); integer -> narrower integer keeps the low bits;
 * - float8 follows the spec's saturate tables per version; float4e2m1 always saturates and
 *   maps NaN to 0x8 (reference data); float8e8m0 ignores the sign, honours round_mode;
 * - string <-> number casts are refused (OSC_ERR_UNSUPPORTED); string -> string is a copy. */
#include <math.h>
#include <string.h>

#include "cast.h"
#include "ew_common.h"

OSC_KERNEL_DECLARE(osc_cast)
osc_status osc_castlike_init(osc_kctx *k, const osc_node *node, void **params);

/* What init parses: the attributes, and what the version decides. */
typedef struct cast_params {
    int32_t to;        /* dtype number; 0 for CastLike (input 1's dtype) */
    bool saturate;
    int32_t round;     /* OSC_MF_UP, OSC_MF_DOWN, OSC_MF_NEAREST */
    bool inf_to_nan;   /* Cast-19..23: +-Inf -> NaN in the FNUZ kinds even when saturating */
    osc_typeset types; /* of the input (and of 'to') */
} cast_params;

enum { K_I64, K_U64, K_F64 }; /* which member of cast_buf a loader filled */
#define CHUNK 256
typedef union cast_buf {
    int64_t i[CHUNK];
    uint64_t u[CHUNK];
    double d[CHUNK];
} cast_buf;

/* ---- Loaders: n elements from element index i0 of src into buf, exactly. ---- */
#define LOAD_FLOAT(T, v) ((double)(v))
#define LOAD_F16(T, v) ((double)OSC_H2F(v))
#define LOAD_BF16(T, v) ((double)OSC_B2F(v))
#define LOAD_SINT(T, v) ((int64_t)(v))
#define LOAD_UINT(T, v) ((uint64_t)(v))
#define LOAD_BOOL(T, v) ((uint64_t)((v) != 0))
#define KIND_FLOAT K_F64
#define KIND_F16 K_F64
#define KIND_BF16 K_F64
#define KIND_SINT K_I64
#define KIND_UINT K_U64
#define KIND_BOOL K_U64
#define MEMBER_K_F64 d
#define MEMBER_K_I64 i
#define MEMBER_K_U64 u
#define MEMBER_(K) MEMBER_##K
#define MEMBER(K) MEMBER_(K)

/* NUM_<CLS>(M)(E, T, CLS) is M(E, T, CLS) for the classes Cast converts, nothing for others. */
#define NUM_FLOAT(M) M
#define NUM_F16(M) M
#define NUM_BF16(M) M
#define NUM_SINT(M) M
#define NUM_UINT(M) M
#define NUM_BOOL(M) M
#define NUM_STRING(M) SKIP
#define NUM_COMPLEX(M) SKIP
#define SKIP(...)

#define DEF_LOAD(E, T, CLS)                                                                 \
    static int load_##E(const void *src, int64_t i0, int64_t n, cast_buf *buf) {           \
        const T *p = (const T *)src + i0;                                                  \
        for (int64_t j = 0; j < n; j++) buf->MEMBER(KIND_##CLS)[j] = LOAD_##CLS(T, p[j]);  \
        return KIND_##CLS;                                                                 \
    }
#define DEFINE_LOAD(E, T, CLS) NUM_##CLS(DEF_LOAD)(E, T, CLS)
OSC_STD_TYPES(DEFINE_LOAD)

/* Packed 4-bit and 2-bit integers: element i sits at bits (i % per_byte) * bits of byte
 * i / per_byte, first element lowest (the ONNX packing). */
static uint32_t packed_get(const void *src, int64_t i, unsigned bits) {
    const unsigned per = 8 / bits;
    const uint8_t byte = ((const uint8_t *)src)[i / per];
    return (byte >> ((unsigned)(i % per) * bits)) & ((1u << bits) - 1);
}

/* float8, float4 and the packed integers (not in OSC_STD_TYPES). */
static int load_small(int32_t dtype, const void *src, int64_t i0, int64_t n, cast_buf *buf) {
    const osc_mf_fmt *f = osc_mf_get(dtype);
    if (f) {
        const bool nib = dtype == OSC_FLOAT4E2M1;
        for (int64_t j = 0; j < n; j++)
            buf->d[j] = osc_mf_decode(f, nib ? packed_get(src, i0 + j, 4)
                                             : ((const uint8_t *)src)[i0 + j]);
        return K_F64;
    }
    const unsigned bits = (dtype == OSC_INT4 || dtype == OSC_UINT4) ? 4 : 2;
    const bool is_signed = dtype == OSC_INT4 || dtype == OSC_INT2;
    for (int64_t j = 0; j < n; j++) {
        uint32_t v = packed_get(src, i0 + j, bits);
        if (is_signed) buf->i[j] = (int64_t)v - ((v >> (bits - 1)) ? (1 << bits) : 0);
        else buf->u[j] = v;
    }
    return is_signed ? K_I64 : K_U64;
}

static int load(int32_t dtype, const void *src, int64_t i0, int64_t n, cast_buf *buf) {
#define LOAD_CASE(E, T, CLS) \
    case E: return load_##E(src, i0, n, buf);
#define CASE(E, T, CLS) NUM_##CLS(LOAD_CASE)(E, T, CLS)
    switch (dtype) {
        OSC_STD_TYPES(CASE)
        default: return load_small(dtype, src, i0, n, buf);
    }
#undef CASE
}

/* ---- Stores: n values of buf (kind) to element index i0 of dst. ---- */

/* Integers -> narrower integers keep the low bits (two's complement), as the spec says. */
#define ST_SINT(T, K, v) \
    ((K) == K_F64 ? (T)osc_ew_f2s((v).d, (int)sizeof(T) * 8) : (T)(v).u)
#define ST_UINT(T, K, v) \
    ((K) == K_F64 ? (T)osc_ew_f2u((v).d, (int)sizeof(T) * 8) : (T)(v).u)
#define ST_BOOL(T, K, v) ((K) == K_F64 ? (T)((v).d != 0) : (T)((v).u != 0))
/* int64/uint64 -> float/double is one correctly rounded C conversion; double -> float too. */
#define ST_FLOAT(T, K, v) ((K) == K_F64 ? (T)(v).d : (K) == K_I64 ? (T)(v).i : (T)(v).u)
#define ST_F16(T, K, v) ((T)to_mini(osc_mf_get(OSC_FLOAT16), K, v, &k_ieee))
#define ST_BF16(T, K, v) ((T)to_mini(osc_mf_get(OSC_BFLOAT16), K, v, &k_ieee))

typedef union cast_val {
    int64_t i;
    uint64_t u;
    double d;
} cast_val;

/* float16/bfloat16: overflow gives Inf (saturate applies to float8 only) */
static const osc_mf_mode k_ieee = {false, false, OSC_MF_RNE};

/* One rounding from the exact value: integers go in as magnitude and sign, not via double. */
static uint32_t to_mini(const osc_mf_fmt *f, int kind, cast_val v, const osc_mf_mode *m) {
    if (kind == K_F64) return osc_mf_from_double(f, v.d, m);
    if (kind == K_U64) return osc_mf_encode(f, false, v.u, 0, m);
    bool neg = v.i < 0;
    return osc_mf_encode(f, neg, neg ? 0 - (uint64_t)v.i : (uint64_t)v.i, 0, m);
}

static inline cast_val val_at(const cast_buf *buf, int kind, int64_t j) {
    cast_val v;
    if (kind == K_F64) v.d = buf->d[j];
    else v.u = buf->u[j]; /* i and u share the bits */
    return v;
}

#define DEF_STORE(E, T, CLS)                                                                \
    static void store_##E(void *dst, int64_t i0, int64_t n, const cast_buf *buf, int kind) { \
        T *p = (T *)dst + i0;                                                              \
        for (int64_t j = 0; j < n; j++) {                                                  \
            const cast_val v = val_at(buf, kind, j);                                       \
            p[j] = ST_##CLS(T, kind, v);                                                   \
        }                                                                                  \
    }
#define DEFINE_STORE(E, T, CLS) NUM_##CLS(DEF_STORE)(E, T, CLS)
OSC_STD_TYPES(DEFINE_STORE)

/* float -> packed 4/2-bit integers: truncation toward zero, saturated to int64, then the low
 * bits, which is what the ONNX reference data holds (-9.0 -> int4 7, uint4 7). */
static void store_small(int32_t dtype, void *dst, int64_t i0, int64_t n, const cast_buf *buf,
                        int kind, const osc_mf_mode *m) {
    const osc_mf_fmt *f = osc_mf_get(dtype);
    if (f && dtype != OSC_FLOAT4E2M1) {
        uint8_t *p = (uint8_t *)dst + i0;
        for (int64_t j = 0; j < n; j++) p[j] = (uint8_t)to_mini(f, kind, val_at(buf, kind, j), m);
        return;
    }
    const unsigned bits = dtype == OSC_INT2 || dtype == OSC_UINT2 ? 2 : 4, per = 8 / bits;
    uint8_t *p = dst; /* zeroed by the caller, so elements are OR-ed in */
    for (int64_t j = 0; j < n; j++) {
        cast_val v = val_at(buf, kind, j);
        uint32_t e;
        if (f) e = to_mini(f, kind, v, m);
        else if (kind == K_F64) e = (uint32_t)osc_ew_f2s(v.d, 64);
        else e = (uint32_t)v.u;
        int64_t i = i0 + j;
        p[i / per] |= (uint8_t)((e & ((1u << bits) - 1)) << ((unsigned)(i % per) * bits));
    }
}

static void store(int32_t dtype, void *dst, int64_t i0, int64_t n, const cast_buf *buf, int kind,
                  const osc_mf_mode *m) {
#define STORE_CASE(E, T, CLS) \
    case E: store_##E(dst, i0, n, buf, kind); return;
#define CASE(E, T, CLS) NUM_##CLS(STORE_CASE)(E, T, CLS)
    switch (dtype) {
        OSC_STD_TYPES(CASE)
        default: store_small(dtype, dst, i0, n, buf, kind, m); return;
    }
#undef CASE
}

/* ---- The kernel ---- */

static bool is_packed(int32_t dtype) { return osc_dtype_get(dtype)->bits < 8; }

/* Both kernels' init: Cast's attributes are CastLike's plus 'to' (like: CastLike). */
static osc_status cast_init(osc_kctx *k, const osc_node *node, bool like, void **params) {
    static const char *const k_v6[] = {"to", NULL}, *const k_v19[] = {"to", "saturate", NULL},
                             *const k_v24[] = {"to", "saturate", "round_mode", NULL};
    const int64_t v = k->since_version;
    const char *const *known = v >= 24 ? k_v24 : v >= 19 ? k_v19 : k_v6;
    osc_status st = osc_attr_known(k, node, like ? known + 1 : known);
    if (st) return st;
    if (!like && !osc_node_attr(node, "to"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'to' is required but missing");
    int64_t to_v = 0, sat;
    const char *round;
    if (!like) st = osc_attr_int(k, node, "to", 0, &to_v);
    if (!st) st = osc_attr_int(k, node, "saturate", 1, &sat);
    if (!st) st = osc_attr_str(k, node, "round_mode", "up", &round);
    if (st) return st;
    /* T1 and T2 are the same set in every version: the row's constraint of the input */
    const osc_typeset types = osc_kernel_types(k->row, 0);
    if (!like && (to_v <= 0 || to_v >= OSC_DTYPE_COUNT))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'to' = %lld is not a dtype number "
                         "(allowed: 1 to %d)", (long long)to_v, OSC_DTYPE_COUNT - 1);
    if (!like && !(types & OSC_TS(to_v))) /* same status as an input dtype */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "attribute 'to' = %lld (%s): this version does "
                         "not cast to that dtype", (long long)to_v,
                         osc_dtype_get((int32_t)to_v)->name);
    if (sat != 0 && sat != 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'saturate' = %lld; allowed: 0 or 1",
                         (long long)sat);
    int r;
    if (strcmp(round, "up") == 0) r = OSC_MF_UP;
    else if (strcmp(round, "down") == 0) r = OSC_MF_DOWN;
    else if (strcmp(round, "nearest") == 0) r = OSC_MF_NEAREST;
    else
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'round_mode' = '%.64s'; allowed: up, "
                         "down, nearest", round);
    cast_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    *p = (cast_params){(int32_t)to_v, sat != 0, r, v < 24, types};
    *params = p;
    return OSC_OK;
}

osc_status osc_cast_init(osc_kctx *k, const osc_node *node, void **params) {
    return cast_init(k, node, false, params);
}

osc_status osc_castlike_init(osc_kctx *k, const osc_node *node, void **params) {
    return cast_init(k, node, true, params);
}

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    const cast_params *p = k->params;
    osc_status st = osc_need_input(k, in, n_in, 0, "input");
    if (!st) st = osc_ew_check_type(k, 0, "input", in[0], p->types);
    if (!st && !p->to) st = osc_need_input(k, in, n_in, 1, "target_type");
    if (!st && !p->to) st = osc_ew_check_type(k, 1, "target_type", in[1], p->types);
    if (st) return st;
    const int32_t from = in[0]->dtype, to = p->to ? p->to : in[1]->dtype;
    if (from != to && (from == OSC_STRING || to == OSC_STRING))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "cast from %s to %s: casts between strings and "
                         "numbers are not implemented", osc_dtype_get(from)->name,
                         osc_dtype_get(to)->name);
    memset(want, 0, sizeof *want);
    osc_same_shape(want, in[0]);
    want->dtype = to;
    return OSC_OK;
}

OSC_INFER_OUT0(osc_cast, validate)

osc_status osc_cast_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                        osc_tensor *out, int32_t n_out) {
    static const char *const k_what[1] = {"input"};
    osc_tensor want;
    osc_status st = validate(k, in, n_in, &want);
    if (!st) st = osc_ew_check_io(k, in, 1, k_what, out, n_out, &want);
    if (st) return st;
    const int32_t from = in[0]->dtype, to = out->dtype;
    const int64_t n = osc_tensor_count(in[0]);
    size_t bytes = 0;
    osc_dtype_bytes(to, n, &bytes); /* checked just above */
    if (from == to) { /* a copy, strings included */
        if (bytes) memcpy(out->data, in[0]->data, bytes);
        return OSC_OK;
    }
    const cast_params *p = k->params;
    /* Cast-19..23 turn +-Inf into NaN in the FNUZ kinds even when saturating; 24+ saturate. */
    const osc_mf_mode mode = {p->saturate, p->inf_to_nan, p->round};
    if (is_packed(to) && bytes) memset(out->data, 0, bytes);
    osc_cast_elems(to, out->data, from, in[0]->data, n, &mode);
    return OSC_OK;
}

void osc_cast_elems(int32_t to, void *dst, int32_t from, const void *src, int64_t n,
                    const osc_mf_mode *mode) {
    cast_buf buf;
    for (int64_t i0 = 0; i0 < n; i0 += CHUNK) {
        int64_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        int kind = load(from, src, i0, m, &buf);
        store(to, dst, i0, m, &buf, kind, mode);
    }
}
