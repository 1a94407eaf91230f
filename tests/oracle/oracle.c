/* oracle.c: naive reference implementations of every scatter-family op, one plain loop per op. */
/* Written from ../shared/spec/scatter-family.md and docs/semantics.md, not from ops/. */
#include "oracle.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"

struct ora_block {
    ora_block *next;
    char bytes[];
};

static const char *const k_red_names[ORA_RED_COUNT] = {"none", "add", "mul", "max", "min"};

const char *ora_reduction_name(int reduction) {
    return reduction >= 0 && reduction < ORA_RED_COUNT ? k_red_names[reduction] : "(absent)";
}

void ora_result_free(ora_result *res) {
    free(res->t.data);
    res->t.data = NULL;
    while (res->blocks) {
        ora_block *b = res->blocks;
        res->blocks = b->next;
        free(b);
    }
}

static osc_status fail(ora_result *res, osc_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static osc_status fail(ora_result *res, osc_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->msg, sizeof res->msg, fmt, ap);
    va_end(ap);
    return st;
}

/* ---- element rules ---- */

static bool is_subnormal_d(double x) {
    return x != 0 && x > -2.2250738585072014e-308 && x < 2.2250738585072014e-308;
}
static bool is_subnormal_f(float x) {
    return x != 0 && x > -1.17549435e-38f && x < 1.17549435e-38f;
}

static void note_double(ora_result *res, double x, bool sub) {
    if (x != x)
        res->saw |= ORA_SAW_NAN;
    else if (x - x != 0)
        res->saw |= ORA_SAW_INF;
    else if (x == 0 && 1 / x < 0)
        res->saw |= ORA_SAW_NEG_ZERO;
    if (sub) res->saw |= ORA_SAW_SUBNORMAL;
}

/* numpy's maximum/minimum: a NaN on either side wins (a's first), ties keep a. */
static double pick_max_d(double a, double b) {
    if (a != a) return a;
    if (b != b) return b;
    return a >= b ? a : b;
}
static double pick_min_d(double a, double b) {
    if (a != a) return a;
    if (b != b) return b;
    return a <= b ? a : b;
}
static float pick_max_f(float a, float b) {
    if (a != a) return a;
    if (b != b) return b;
    return a >= b ? a : b;
}
static float pick_min_f(float a, float b) {
    if (a != a) return a;
    if (b != b) return b;
    return a <= b ? a : b;
}

static float f32_rule(float a, float b, int red) {
    switch (red) {
    case ORA_ADD: return a + b;
    case ORA_MUL: return a * b;
    case ORA_MAX: return pick_max_f(a, b);
    case ORA_MIN: return pick_min_f(a, b);
    default: return b;
    }
}

static double f64_rule(double a, double b, int red) {
    switch (red) {
    case ORA_ADD: return a + b;
    case ORA_MUL: return a * b;
    case ORA_MAX: return pick_max_d(a, b);
    case ORA_MIN: return pick_min_d(a, b);
    default: return b;
    }
}

/* Signed integer of `bits` <= 32 bits: exact result in int64, then reduced modulo 2^bits into
 * the type's range by hand (no reliance on implementation-defined conversions). */
/* An unsigned integer of `bytes` bytes (1, 2, 4 or 8) in the machine's order, by value (the first
 * bytes of a uint64_t are its low bytes only on a little-endian machine). */
static uint64_t load_uint(const void *p, unsigned bytes) {
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    switch (bytes) {
    case 1: memcpy(&u8, p, 1); return u8;
    case 2: memcpy(&u16, p, 2); return u16;
    case 4: memcpy(&u32, p, 4); return u32;
    default: memcpy(&u64, p, 8); return u64;
    }
}

/* The value modulo 2^(8 bytes) into `bytes` bytes at p. */
static void store_uint(void *p, uint64_t v, unsigned bytes) {
    const uint8_t u8 = (uint8_t)v;
    const uint16_t u16 = (uint16_t)v;
    const uint32_t u32 = (uint32_t)v;
    switch (bytes) {
    case 1: memcpy(p, &u8, 1); break;
    case 2: memcpy(p, &u16, 2); break;
    case 4: memcpy(p, &u32, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

static int64_t wrap_signed(int64_t exact, unsigned bits) {
    uint64_t m = (uint64_t)exact & ((1ull << bits) - 1);
    int64_t v = (int64_t)m;
    if (m >> (bits - 1)) v -= (int64_t)1 << bits;
    return v;
}

static int64_t sint_rule(int64_t a, int64_t b, int red, unsigned bits, ora_result *res) {
    int64_t exact;
    switch (red) {
    case ORA_ADD: exact = a + b; break;
    case ORA_MUL: exact = a * b; break; /* |a*b| <= 2^62 for bits <= 32 */
    case ORA_MAX: return a >= b ? a : b;
    case ORA_MIN: return a <= b ? a : b;
    default: return b;
    }
    int64_t w = wrap_signed(exact, bits);
    if (w != exact) res->saw |= ORA_SAW_INT_WRAP;
    return w;
}

static uint64_t uint_rule(uint64_t a, uint64_t b, int red, unsigned bits, ora_result *res) {
    uint64_t exact, mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    switch (red) {
    case ORA_ADD:
        exact = a + b;
        if (bits == 64 ? exact < a : exact > mask) res->saw |= ORA_SAW_INT_WRAP;
        return exact & mask;
    case ORA_MUL:
        exact = a * b;
        if (bits == 64 ? (a && exact / a != b) : exact > mask) res->saw |= ORA_SAW_INT_WRAP;
        return exact & mask;
    case ORA_MAX: return a >= b ? a : b;
    case ORA_MIN: return a <= b ? a : b;
    default: return b;
    }
}

static int64_t int64_rule(int64_t a, int64_t b, int red, ora_result *res) {
    int64_t r;
    switch (red) {
    case ORA_ADD:
        if (__builtin_add_overflow(a, b, &r)) res->saw |= ORA_SAW_INT_WRAP;
        return r; /* the builtin stores the wrapped two's complement result */
    case ORA_MUL:
        if (__builtin_mul_overflow(a, b, &r)) res->saw |= ORA_SAW_INT_WRAP;
        return r;
    case ORA_MAX: return a >= b ? a : b;
    case ORA_MIN: return a <= b ? a : b;
    default: return b;
    }
}

/* numpy's CGE/CLE for complex: a NaN imaginary part makes a strict real comparison false. */
static bool cplx_ge(double ar, double ai, double br, double bi) {
    return (ar > br && ai == ai && bi == bi) || (ar == br && ai >= bi);
}
static bool cplx_le(double ar, double ai, double br, double bi) {
    return (ar < br && ai == ai && bi == bi) || (ar == br && ai <= bi);
}

static int bytes_cmp(osc_string a, osc_string b) {
    for (size_t i = 0; i < a.len && i < b.len; i++) {
        unsigned char x = (unsigned char)a.ptr[i], y = (unsigned char)b.ptr[i];
        if (x != y) return x < y ? -1 : 1;
    }
    return a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
}

bool ora_combine(int32_t dtype, int red, void *dst, const void *src, ora_result *res) {
    if (red < 0) red = ORA_NONE;
    switch (dtype) {
    case OSC_FLOAT: {
        float a, b;
        memcpy(&a, dst, 4);
        memcpy(&b, src, 4);
        if (red != ORA_NONE) {
            note_double(res, a, is_subnormal_f(a));
            note_double(res, b, is_subnormal_f(b));
        }
        float r = f32_rule(a, b, red);
        memcpy(dst, red == ORA_NONE ? src : (const void *)&r, 4);
        return true;
    }
    case OSC_DOUBLE: {
        double a, b;
        memcpy(&a, dst, 8);
        memcpy(&b, src, 8);
        if (red != ORA_NONE) {
            note_double(res, a, is_subnormal_d(a));
            note_double(res, b, is_subnormal_d(b));
        }
        double r = f64_rule(a, b, red);
        memcpy(dst, red == ORA_NONE ? src : (const void *)&r, 8);
        return true;
    }
    case OSC_FLOAT16:
    case OSC_BFLOAT16: {
        uint16_t ha, hb;
        memcpy(&ha, dst, 2);
        memcpy(&hb, src, 2);
        if (red == ORA_NONE) {
            memcpy(dst, src, 2);
            return true;
        }
        bool h16 = dtype == OSC_FLOAT16;
        float a = h16 ? osc_f16_to_f32(ha) : osc_bf16_to_f32(ha);
        float b = h16 ? osc_f16_to_f32(hb) : osc_bf16_to_f32(hb);
        /* subnormal in the half type: exponent bits all zero, mantissa non-zero */
        note_double(res, a,
                    h16 ? (ha & 0x7c00u) == 0 && (ha & 0x3ffu)
                        : (ha & 0x7f80u) == 0 && (ha & 0x7fu));
        note_double(res, b,
                    h16 ? (hb & 0x7c00u) == 0 && (hb & 0x3ffu)
                        : (hb & 0x7f80u) == 0 && (hb & 0x7fu));
        float r = f32_rule(a, b, red);
        uint16_t h = h16 ? osc_f32_to_f16(r) : osc_f32_to_bf16(r);
        float back = h16 ? osc_f16_to_f32(h) : osc_bf16_to_f32(h);
        if (r == r && back != r) res->saw |= ORA_SAW_HALF_ROUND;
        memcpy(dst, &h, 2);
        return true;
    }
    case OSC_INT8:
    case OSC_INT16:
    case OSC_INT32: {
        /* read as unsigned and given their sign by wrap_signed */
        unsigned bytes = osc_dtype_get(dtype)->bits / 8;
        uint64_t ua = load_uint(dst, bytes), ub = load_uint(src, bytes);
        int64_t a = wrap_signed((int64_t)ua, bytes * 8), b = wrap_signed((int64_t)ub, bytes * 8);
        uint64_t r = (uint64_t)sint_rule(a, b, red, bytes * 8, res);
        store_uint(dst, r, bytes); /* the value modulo 2^bits */
        return true;
    }
    case OSC_INT64: {
        int64_t a, b;
        memcpy(&a, dst, 8);
        memcpy(&b, src, 8);
        int64_t r = int64_rule(a, b, red, res);
        memcpy(dst, &r, 8);
        return true;
    }
    case OSC_UINT8:
    case OSC_UINT16:
    case OSC_UINT32:
    case OSC_UINT64: {
        unsigned bits = dtype == OSC_UINT8    ? 8
                        : dtype == OSC_UINT16 ? 16
                        : dtype == OSC_UINT32 ? 32
                                              : 64;
        uint64_t a = load_uint(dst, bits / 8), b = load_uint(src, bits / 8);
        uint64_t r = uint_rule(a, b, red, bits, res);
        store_uint(dst, r, bits / 8);
        return true;
    }
    case OSC_BOOL: {
        uint8_t a = *(uint8_t *)dst, b = *(const uint8_t *)src, r;
        switch (red) {
        case ORA_ADD:
        case ORA_MAX: r = a || b; break; /* or */
        case ORA_MUL:
        case ORA_MIN: r = a && b; break; /* and */
        default: r = b;
        }
        *(uint8_t *)dst = r;
        return true;
    }
    case OSC_STRING: {
        osc_string a, b;
        memcpy(&a, dst, sizeof a);
        memcpy(&b, src, sizeof b);
        if (red == ORA_MUL) return false;
        if (red == ORA_ADD) {
            ora_block *blk = malloc(sizeof *blk + a.len + b.len + 1);
            if (!blk) abort(); /* a test helper: running out of memory is not a result */
            blk->next = res->blocks;
            res->blocks = blk;
            if (a.len) memcpy(blk->bytes, a.ptr, a.len);
            if (b.len) memcpy(blk->bytes + a.len, b.ptr, b.len);
            osc_string c = {blk->bytes, a.len + b.len};
            memcpy(dst, &c, sizeof c);
        } else if (red == ORA_MAX) {
            if (bytes_cmp(a, b) < 0) memcpy(dst, &b, sizeof b);
        } else if (red == ORA_MIN) {
            if (bytes_cmp(a, b) > 0) memcpy(dst, &b, sizeof b);
        } else {
            memcpy(dst, &b, sizeof b);
        }
        return true;
    }
    case OSC_COMPLEX64:
    case OSC_COMPLEX128: {
        bool c64 = dtype == OSC_COMPLEX64;
        double ar, ai, br, bi;
        if (c64) {
            float v[4];
            memcpy(v, dst, 8);
            memcpy(v + 2, src, 8);
            ar = v[0], ai = v[1], br = v[2], bi = v[3];
        } else {
            double v[4];
            memcpy(v, dst, 16);
            memcpy(v + 2, src, 16);
            ar = v[0], ai = v[1], br = v[2], bi = v[3];
        }
        if (red == ORA_NONE) {
            memcpy(dst, src, c64 ? 8 : 16);
            return true;
        }
        note_double(res, ar, false);
        note_double(res, ai, false);
        note_double(res, br, false);
        note_double(res, bi, false);
        bool a_nan = ar != ar || ai != ai;
        if (red == ORA_MAX || red == ORA_MIN) {
            bool keep =
                a_nan || (red == ORA_MAX ? cplx_ge(ar, ai, br, bi) : cplx_le(ar, ai, br, bi));
            if (!keep) memcpy(dst, src, c64 ? 8 : 16);
            return true;
        }
        /* add/mul in the element's own precision, as numpy does: float math for complex64 */
        if (c64) {
            float a_re = (float)ar, a_im = (float)ai, b_re = (float)br, b_im = (float)bi, r[2];
            if (red == ORA_ADD) {
                r[0] = a_re + b_re;
                r[1] = a_im + b_im;
            } else {
                r[0] = a_re * b_re - a_im * b_im;
                r[1] = a_re * b_im + a_im * b_re;
            }
            memcpy(dst, r, 8);
        } else {
            double r[2];
            if (red == ORA_ADD) {
                r[0] = ar + br;
                r[1] = ai + bi;
            } else {
                r[0] = ar * br - ai * bi;
                r[1] = ar * bi + ai * br;
            }
            memcpy(dst, r, 16);
        }
        return true;
    }
    default: return false;
    }
}

/* ---- tensors ---- */

static int64_t count_of(const int64_t *dims, int32_t rank) {
    int64_t n = 1;
    for (int32_t i = 0; i < rank; i++) n *= dims[i];
    return n;
}

static int64_t tcount(const osc_tensor *t) { return count_of(t->dims, t->rank); }

static unsigned ebits(int32_t dtype) { return osc_dtype_get(dtype)->bits; }

/* Element i of a tensor of any dtype, as raw bits (packed types: the element's low bits). */
static void get_elem(const osc_tensor *t, int64_t i, void *out) {
    unsigned bits = ebits(t->dtype);
    if (bits >= 8) {
        memcpy(out, (const char *)t->data + i * (bits / 8), bits / 8);
        return;
    }
    unsigned per = 8 / bits;
    uint8_t byte = ((const uint8_t *)t->data)[i / per];
    *(uint8_t *)out = (uint8_t)((byte >> ((unsigned)(i % per) * bits)) & ((1u << bits) - 1));
}

static void set_elem(osc_tensor *t, int64_t i, const void *in) {
    unsigned bits = ebits(t->dtype);
    if (bits >= 8) {
        memcpy((char *)t->data + i * (bits / 8), in, bits / 8);
        return;
    }
    unsigned per = 8 / bits, sh = (unsigned)(i % per) * bits, mask = (1u << bits) - 1;
    uint8_t *byte = (uint8_t *)t->data + i / per;
    *byte = (uint8_t)((*byte & ~(mask << sh)) | ((*(const uint8_t *)in & mask) << sh));
}

/* The output starts as a byte copy of `from` (data for scatters) with the given shape. */
static void make_output(ora_result *res, int32_t dtype, int32_t rank, const int64_t *dims,
                        const osc_tensor *from) {
    memset(&res->t, 0, sizeof res->t);
    res->t.dtype = dtype;
    res->t.rank = rank;
    for (int32_t i = 0; i < rank; i++) res->t.dims[i] = dims[i];
    size_t nbytes;
    osc_dtype_bytes(dtype, count_of(dims, rank), &nbytes);
    res->t.nbytes = nbytes;
    res->t.data = calloc(1, nbytes ? nbytes : 1);
    if (!res->t.data) abort();
    if (from && nbytes) memcpy(res->t.data, from->data, nbytes);
}

/* coordinates of flat position p in dims (row-major) */
static void unravel(int64_t p, const int64_t *dims, int32_t rank, int64_t *c) {
    for (int32_t d = rank - 1; d >= 0; d--) {
        c[d] = p % dims[d];
        p /= dims[d];
    }
}

static int64_t ravel(const int64_t *c, const int64_t *dims, int32_t rank) {
    int64_t p = 0;
    for (int32_t d = 0; d < rank; d++) p = p * dims[d] + c[d];
    return p;
}

static int64_t index_value(const osc_tensor *idx, int64_t i) {
    if (idx->dtype == OSC_INT32) {
        int32_t v;
        memcpy(&v, (const char *)idx->data + i * 4, 4);
        return v;
    }
    int64_t v;
    memcpy(&v, (const char *)idx->data + i * 8, 8);
    return v;
}

static bool same_dims(const osc_tensor *a, const osc_tensor *b) {
    if (a->rank != b->rank) return false;
    for (int32_t i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i]) return false;
    return true;
}

static bool standard(int32_t dtype) { return osc_dtype_get(dtype)->standard; }

/* The reductions a version accepts: none before 16 (and only as an absent attribute),
 * none/add/mul from 16, all five from 18. */
static osc_status check_reduction(int64_t version, int red, ora_result *res) {
    if (red < 0) return OSC_OK;
    if (version < 16)
        return fail(res, OSC_ERR_MODEL, "reduction attribute before 16 (%lld)",
                    (long long)(version));
    if (red >= ORA_MAX && version < 18)
        return fail(res, OSC_ERR_UNSUPPORTED, "reduction %s not allowed in version %lld",
                    ora_reduction_name(red), (long long)version);
    return OSC_OK;
}

static bool reduction_defined(int32_t dtype, int red) {
    return !(dtype == OSC_STRING && red == ORA_MUL);
}

/* ---- ScatterElements (and Scatter-9/11, identical semantics) ----
 * output = copy(data); for every position p of updates, in row-major order:
 * target = coords(p) with coords[axis] replaced by indices[p] (negatives count from the back);
 * output[target] = f(output[target], updates[p]). */
/* The spec's type constraint T: bfloat16 joins "all tensor types" at version 13. */
static osc_status check_type_version(int64_t version, int32_t dtype, ora_result *res) {
    if (version < 13 && dtype == OSC_BFLOAT16)
        return fail(res, OSC_ERR_SHAPE, "bfloat16 before version 13");
    return OSC_OK;
}

osc_status ora_scatter_elements(int64_t version, const osc_tensor *data, const osc_tensor *idx,
                                const osc_tensor *upd, int64_t axis, int red, ora_result *res) {
    memset(res, 0, sizeof *res);
    osc_status st = check_reduction(version, red, res);
    if (!st) st = check_type_version(version, data->dtype, res);
    if (st) return st;
    int32_t r = data->rank;
    if (r < 1) return fail(res, OSC_ERR_SHAPE, "data rank 0");
    if (!standard(data->dtype))
        return fail(res, OSC_ERR_UNSUPPORTED, "dtype %lld", (long long)(data->dtype));
    if (idx->dtype != OSC_INT32 && idx->dtype != OSC_INT64)
        return fail(res, OSC_ERR_SHAPE, "index dtype %lld", (long long)(idx->dtype));
    if (upd->dtype != data->dtype) return fail(res, OSC_ERR_SHAPE, "updates dtype");
    if (idx->rank != r)
        return fail(res, OSC_ERR_SHAPE, "indices rank %lld", (long long)(idx->rank));
    if (!same_dims(idx, upd)) return fail(res, OSC_ERR_SHAPE, "updates shape");
    if (axis < -r || axis >= r) return fail(res, OSC_ERR_MODEL, "axis %lld", (long long)(axis));
    int32_t a = (int32_t)(axis < 0 ? axis + r : axis);
    for (int32_t d = 0; d < r; d++)
        if (d != a && idx->dims[d] > data->dims[d])
            return fail(res, OSC_ERR_SHAPE, "indices dim %lld too large", (long long)(d));
    if (!reduction_defined(data->dtype, red))
        return fail(res, OSC_ERR_UNSUPPORTED, "string mul is undefined");
    int64_t s = data->dims[a], n = tcount(idx);
    for (int64_t p = 0; p < n; p++) {
        int64_t v = index_value(idx, p);
        if (v < -s || v >= s)
            return fail(res, OSC_ERR_INDEX, "index at %lld out of range", (long long)(p));
    }

    make_output(res, data->dtype, r, data->dims, data);
    int64_t out_n = tcount(data);
    unsigned char *hits = calloc(1, (size_t)(out_n ? out_n : 1));
    size_t es = ebits(data->dtype) / 8;
    for (int64_t p = 0; p < n; p++) {
        int64_t c[OSC_MAX_RANK];
        unravel(p, idx->dims, r, c);
        int64_t v = index_value(idx, p);
        if (v < 0) res->saw |= ORA_SAW_NEG_INDEX;
        c[a] = v < 0 ? v + s : v;
        int64_t t = ravel(c, data->dims, r);
        if (hits[t]++) res->saw |= ORA_SAW_DUPLICATE;
        ora_combine(data->dtype, red, (char *)res->t.data + t * es,
                    (const char *)upd->data + p * es, res);
    }
    free(hits);
    return OSC_OK;
}

/* ---- ScatterND ----
 * output = copy(data); for each tuple position t of indices.shape[:-1], in row-major order,
 * for each element e of the slice data.shape[k:]:
 * output[indices[t] ++ coords(e)] = f(that, updates[t ++ coords(e)]). */
osc_status ora_scatter_nd(int64_t version, const osc_tensor *data, const osc_tensor *idx,
                          const osc_tensor *upd, int red, ora_result *res) {
    memset(res, 0, sizeof *res);
    osc_status st = check_reduction(version, red, res);
    if (!st) st = check_type_version(version, data->dtype, res);
    if (st) return st;
    if (!standard(data->dtype))
        return fail(res, OSC_ERR_UNSUPPORTED, "dtype %lld", (long long)(data->dtype));
    if (idx->dtype != OSC_INT64)
        return fail(res, OSC_ERR_SHAPE, "index dtype %lld", (long long)(idx->dtype));
    if (upd->dtype != data->dtype) return fail(res, OSC_ERR_SHAPE, "updates dtype");
    int32_t r = data->rank, q = idx->rank;
    if (r < 1 || q < 1) return fail(res, OSC_ERR_SHAPE, "rank 0");
    int64_t k = idx->dims[q - 1];
    if (k > r) return fail(res, OSC_ERR_SHAPE, "k = %lld > r", (long long)(k));
    /* updates.shape == indices.shape[:-1] ++ data.shape[k:] */
    int64_t want[2 * OSC_MAX_RANK];
    int32_t wr = 0;
    for (int32_t i = 0; i < q - 1; i++) want[wr++] = idx->dims[i];
    for (int64_t i = k; i < r; i++) want[wr++] = data->dims[i];
    bool ok = upd->rank == wr;
    for (int32_t i = 0; ok && i < wr; i++) ok = upd->dims[i] == want[i];
    if (!ok) return fail(res, OSC_ERR_SHAPE, "updates shape");
    if (!reduction_defined(data->dtype, red))
        return fail(res, OSC_ERR_UNSUPPORTED, "string mul is undefined");
    int64_t n_tuples = count_of(idx->dims, q - 1);
    for (int64_t t = 0; t < n_tuples; t++)
        for (int64_t j = 0; j < k; j++) {
            int64_t v = index_value(idx, t * k + j), s = data->dims[j];
            if (v < -s || v >= s)
                return fail(res, OSC_ERR_INDEX, "index at %lld out of range",
                            (long long)(t * k + j));
        }

    make_output(res, data->dtype, r, data->dims, data);
    int64_t out_n = tcount(data), slice = count_of(data->dims + k, r - (int32_t)k);
    unsigned char *hits = calloc(1, (size_t)(out_n ? out_n : 1));
    size_t es = ebits(data->dtype) / 8;
    for (int64_t t = 0; t < n_tuples; t++) {
        for (int64_t e = 0; e < slice; e++) {
            int64_t c[OSC_MAX_RANK];
            for (int64_t j = 0; j < k; j++) {
                int64_t v = index_value(idx, t * k + j);
                if (v < 0) res->saw |= ORA_SAW_NEG_INDEX;
                c[j] = v < 0 ? v + data->dims[j] : v;
            }
            unravel(e, data->dims + k, r - (int32_t)k, c + k);
            int64_t o = ravel(c, data->dims, r);
            if (hits[o]++) res->saw |= ORA_SAW_DUPLICATE;
            ora_combine(data->dtype, red, (char *)res->t.data + o * es,
                        (const char *)upd->data + (t * slice + e) * es, res);
        }
    }
    free(hits);
    return OSC_OK;
}

/* ---- TensorScatter-24 ----
 * present = copy(past); for every element of update with coordinates c:
 * c'[axis] = write_indices[c[0]] + c[axis] (mod max_sequence_length in circular mode; only that
 * coordinate wraps), other coordinates unchanged; present[c'] = update[c]. */
osc_status ora_tensor_scatter(const osc_tensor *past, const osc_tensor *upd, const osc_tensor *wi,
                              int64_t axis, bool circular, ora_result *res) {
    memset(res, 0, sizeof *res);
    int32_t r = past->rank;
    if (!osc_dtype_valid(past->dtype))
        return fail(res, OSC_ERR_UNSUPPORTED, "dtype %lld", (long long)(past->dtype));
    if (past->dtype == OSC_UINT2 || past->dtype == OSC_INT2) /* all types of 24, not 25 */
        return fail(res, OSC_ERR_SHAPE, "dtype %lld", (long long)(past->dtype));
    if (upd->dtype != past->dtype) return fail(res, OSC_ERR_SHAPE, "update dtype");
    if (axis < -r || axis >= r) return fail(res, OSC_ERR_MODEL, "axis %lld", (long long)(axis));
    int32_t a = (int32_t)(axis < 0 ? axis + r : axis);
    if (a == 0) return fail(res, OSC_ERR_MODEL, "axis is the batch dim");
    bool ok = upd->rank == r;
    for (int32_t i = 0; ok && i < r; i++)
        ok = i == a ? upd->dims[i] <= past->dims[i] : upd->dims[i] == past->dims[i];
    if (!ok) return fail(res, OSC_ERR_SHAPE, "update shape");
    int64_t max_seq = past->dims[a], seq = upd->dims[a];
    if (wi) {
        if (wi->dtype != OSC_INT64) return fail(res, OSC_ERR_SHAPE, "write_indices dtype");
        if (wi->rank != 1 || wi->dims[0] != past->dims[0])
            return fail(res, OSC_ERR_SHAPE, "write_indices shape");
        for (int64_t b = 0; !circular && b < wi->dims[0]; b++) {
            int64_t w = index_value(wi, b);
            if (w < 0 || w + seq > max_seq)
                return fail(res, OSC_ERR_INDEX, "write index of batch %lld out of range",
                            (long long)(b));
        }
    }

    make_output(res, past->dtype, r, past->dims, past);
    int64_t n = tcount(upd);
    unsigned char elem[16];
    for (int64_t p = 0; p < n; p++) {
        int64_t c[OSC_MAX_RANK];
        unravel(p, upd->dims, r, c);
        int64_t w = wi ? index_value(wi, c[0]) : 0;
        /* circular: (w + c[a]) mod max_seq, reduced first so that a write index near
         * INT64_MAX cannot overflow; n > 0 implies max_seq >= seq > 0 */
        c[a] = circular ? ((w % max_seq + max_seq) % max_seq + c[a]) % max_seq : w + c[a];
        get_elem(upd, p, elem);
        set_elem(&res->t, ravel(c, past->dims, r), elem);
    }
    return OSC_OK;
}

/* ---- GatherElements ----
 * output has indices' shape; output[c] = data[c with c[axis] = indices[c]]. */
osc_status ora_gather_elements(int64_t version, const osc_tensor *data, const osc_tensor *idx,
                               int64_t axis, ora_result *res) {
    memset(res, 0, sizeof *res);
    osc_status st = check_type_version(version, data->dtype, res);
    if (st) return st;
    int32_t r = data->rank;
    if (r < 1) return fail(res, OSC_ERR_SHAPE, "data rank 0");
    if (!standard(data->dtype))
        return fail(res, OSC_ERR_UNSUPPORTED, "dtype %lld", (long long)(data->dtype));
    if (idx->dtype != OSC_INT32 && idx->dtype != OSC_INT64)
        return fail(res, OSC_ERR_SHAPE, "index dtype %lld", (long long)(idx->dtype));
    if (idx->rank != r)
        return fail(res, OSC_ERR_SHAPE, "indices rank %lld", (long long)(idx->rank));
    if (axis < -r || axis >= r) return fail(res, OSC_ERR_MODEL, "axis %lld", (long long)(axis));
    int32_t a = (int32_t)(axis < 0 ? axis + r : axis);
    for (int32_t d = 0; d < r; d++)
        if (d != a && idx->dims[d] > data->dims[d])
            return fail(res, OSC_ERR_SHAPE, "indices dim %lld too large", (long long)(d));
    int64_t s = data->dims[a], n = tcount(idx);
    for (int64_t p = 0; p < n; p++) {
        int64_t v = index_value(idx, p);
        if (v < -s || v >= s)
            return fail(res, OSC_ERR_INDEX, "index at %lld out of range", (long long)(p));
    }

    make_output(res, data->dtype, r, idx->dims, NULL);
    size_t es = ebits(data->dtype) / 8;
    for (int64_t p = 0; p < n; p++) {
        int64_t c[OSC_MAX_RANK];
        unravel(p, idx->dims, r, c);
        int64_t v = index_value(idx, p);
        if (v < 0) res->saw |= ORA_SAW_NEG_INDEX;
        c[a] = v < 0 ? v + s : v;
        memcpy((char *)res->t.data + p * es,
               (const char *)data->data + ravel(c, data->dims, r) * es, es);
    }
    return OSC_OK;
}

/* ---- GatherND ----
 * With b = batch_dims, k = indices.shape[-1]: output shape indices.shape[:-1] ++ data.shape[b+k:];
 * output[i ++ e] = data[i[:b] ++ indices[i] ++ e]. k == 0 selects whole slices (an extension
 * this runtime accepts, as ScatterND's k == 0). */
osc_status ora_gather_nd(int64_t version, const osc_tensor *data, const osc_tensor *idx, int64_t b,
                         ora_result *res) {
    memset(res, 0, sizeof *res);
    if (version < 12 && b != 0) return fail(res, OSC_ERR_MODEL, "batch_dims before 12");
    if (b < 0) return fail(res, OSC_ERR_MODEL, "batch_dims %lld < 0", (long long)(b));
    osc_status st = check_type_version(version, data->dtype, res);
    if (st) return st;
    if (!standard(data->dtype))
        return fail(res, OSC_ERR_UNSUPPORTED, "dtype %lld", (long long)(data->dtype));
    if (idx->dtype != OSC_INT64)
        return fail(res, OSC_ERR_SHAPE, "index dtype %lld", (long long)(idx->dtype));
    int32_t r = data->rank, q = idx->rank;
    if (r < 1 || q < 1) return fail(res, OSC_ERR_SHAPE, "rank 0");
    if (b >= (q < r ? q : r))
        return fail(res, OSC_ERR_SHAPE, "batch_dims %lld too large", (long long)(b));
    for (int64_t i = 0; i < b; i++)
        if (idx->dims[i] != data->dims[i])
            return fail(res, OSC_ERR_SHAPE, "batch dim %lld", (long long)(i));
    int64_t k = idx->dims[q - 1];
    if (k > r - b) return fail(res, OSC_ERR_SHAPE, "k = %lld > r - b", (long long)(k));
    int64_t n_pos = count_of(idx->dims, q - 1); /* tuple positions, batch dims included */
    for (int64_t t = 0; t < n_pos; t++)
        for (int64_t j = 0; j < k; j++) {
            int64_t v = index_value(idx, t * k + j), s = data->dims[b + j];
            if (v < -s || v >= s)
                return fail(res, OSC_ERR_INDEX, "index at %lld out of range",
                            (long long)(t * k + j));
        }

    int64_t odims[2 * OSC_MAX_RANK] = {0};
    int32_t orank = 0;
    for (int32_t i = 0; i < q - 1; i++) odims[orank++] = idx->dims[i];
    for (int64_t i = b + k; i < r; i++) odims[orank++] = data->dims[i];
    make_output(res, data->dtype, orank, odims, NULL);
    int64_t n = count_of(odims, orank), slice = count_of(data->dims + b + k, r - (int32_t)(b + k));
    size_t es = ebits(data->dtype) / 8;
    for (int64_t p = 0; p < n; p++) {
        int64_t t = p / slice, e = p % slice, ic[OSC_MAX_RANK], c[OSC_MAX_RANK];
        unravel(t, idx->dims, q - 1, ic);
        for (int64_t i = 0; i < b; i++) c[i] = ic[i];
        for (int64_t j = 0; j < k; j++) {
            int64_t v = index_value(idx, t * k + j);
            if (v < 0) res->saw |= ORA_SAW_NEG_INDEX;
            c[b + j] = v < 0 ? v + data->dims[b + j] : v;
        }
        unravel(e, data->dims + b + k, r - (int32_t)(b + k), c + b + k);
        memcpy((char *)res->t.data + p * es,
               (const char *)data->data + ravel(c, data->dims, r) * es, es);
    }
    return OSC_OK;
}
