/* tensor_pb.c: TensorProto -> osc_tensor for every payload encoding ONNX allows. */
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "pb.h"

/* raw_data and external data are little-endian (onnx.proto): on a little-endian machine the bytes
 * are copied, kept or mapped as they are; on a big-endian one each scalar is byte-swapped into
 * a copy (osc_le_swap). Typed fields (int32_data, ...) are decoded by protobuf-c into values and
 * narrowed by value, never by taking their first bytes. */

/* Payload fields of TensorProto. */
enum { P_RAW, P_FLOAT, P_INT32, P_STRING, P_INT64, P_DOUBLE, P_UINT64, P_COUNT };
static const char *const k_pname[P_COUNT] = {"raw_data",    "float_data", "int32_data",
                                             "string_data", "int64_data", "double_data",
                                             "uint64_data"};

/* Value class of each dtype, from the X-macro list; 0 (BITS) for the non-standard types
 * (float8, float4, 2/4-bit integers) whose elements are bit patterns. */
enum { C_BITS = 0, C_FLOAT, C_F16, C_BF16, C_SINT, C_UINT, C_BOOL, C_STRING, C_COMPLEX };
#define X(e, T, cls) [e] = C_##cls,
static const uint8_t k_class[OSC_DTYPE_COUNT] = {OSC_STD_TYPES(X)};
#undef X

/* The typed field a dtype uses (besides raw_data) and how many field values make one element.
 * Rules of onnx.proto: float_data for float and complex64 (re, im pairs); double_data for
 * double and complex128 (pairs); int64_data for int64; uint64_data for uint32 and uint64;
 * string_data for strings; int32_data for every other type, one element per value, the value
 * holding the element's bits (float16, bfloat16, float8 included). For the packed types,
 * onnx.proto 1.17+ says each pair of 4-bit values (uint4, int4, float4e2m1) and each group of
 * four 2-bit values (uint2, int2) is packed into one byte, first element in the lowest bits,
 * and each int32_data value holds one such byte: the field has ceil(count * bits / 8) values. */
static int typed_field(int32_t dtype, unsigned bits, int *per_elem) {
    *per_elem = 1;
    switch (k_class[dtype]) {
    case C_FLOAT: return bits == 64 ? P_DOUBLE : P_FLOAT;
    case C_COMPLEX: *per_elem = 2; return bits == 128 ? P_DOUBLE : P_FLOAT;
    case C_SINT: return bits == 64 ? P_INT64 : P_INT32;
    case C_UINT: return bits >= 32 ? P_UINT64 : P_INT32;
    case C_STRING: return P_STRING;
    default: return P_INT32;
    }
}

/* Allowed range of an int32_data value stored into `w` bits (w = 8 for packed bytes). Bit
 * patterns (float16, float8, packed bytes) may come sign-extended from some writers. */
static void int32_range(int32_t dtype, unsigned w, int64_t *lo, int64_t *hi) {
    int64_t span = (int64_t)1 << w;
    switch (k_class[dtype]) {
    case C_BOOL: *lo = 0; *hi = 1; break;
    case C_SINT: *lo = -span / 2; *hi = span / 2 - 1; break;
    case C_UINT: *lo = 0; *hi = span - 1; break;
    default: *lo = -span / 2; *hi = span - 1; break;
    }
}

/* A block for `n` payload bytes from the decoder's sink. */
static void *sink_alloc(const osc_tdec *d, size_t n) {
    if (d->pool) return osc_pool_alloc(d->pool, n);
    return malloc(n ? n : 1);
}

static void sink_drop(const osc_tdec *d, void *p) {
    if (!d->pool) free(p);
}

static osc_status sink_fail(const osc_tdec *d, size_t n) {
    if (d->pool) return osc_pool_nomem(d->err, d->pool, n, d->label);
    return osc_fail(d->err, OSC_ERR_NOMEM, "%s: out of memory allocating %zu bytes", d->label,
                    n);
}

/* Checks dtype, rank and dims; fills out->dtype/rank/dims and the element count. */
static osc_status decode_header(const Onnx__TensorProto *tp, const osc_tdec *d,
                                const osc_limits *lim, osc_tensor *out, int64_t *count) {
    int32_t dtype = tp->has_data_type ? tp->data_type : 0;
    if (!osc_dtype_valid(dtype))
        return osc_fail(d->err, OSC_ERR_MODEL, "%s: unknown dtype %d (allowed 1..%d)", d->label,
                        (int)dtype, OSC_DTYPE_COUNT - 1);
    int32_t max_rank = lim ? lim->max_rank : OSC_MAX_RANK;
    if (tp->n_dims > (size_t)max_rank)
        return osc_fail(d->err, OSC_ERR_LIMIT, "%s: rank %zu exceeds the limit of %d "
                        "(opts.max_rank)", d->label, tp->n_dims, (int)max_rank);
    out->dtype = dtype;
    out->rank = (int32_t)tp->n_dims;
    for (size_t i = 0; i < tp->n_dims; i++) {
        if (tp->dims[i] < 0)
            return osc_fail(d->err, OSC_ERR_MODEL, "%s: dim %zu is %lld; dims must be >= 0",
                            d->label, i, (long long)tp->dims[i]);
        out->dims[i] = tp->dims[i];
    }
    /* as osc_tensor_count: a zero dim makes the count 0 whatever the other dims are */
    int64_t n = osc_dims_prod(out->dims, out->rank);
    if (n < 0)
        return osc_fail(d->err, OSC_ERR_MODEL, "%s: the element count of its %d dims overflows "
                        "int64", d->label, (int)out->rank);
    if (tp->segment)
        return osc_fail(d->err, OSC_ERR_UNSUPPORTED, "%s: segmented tensors are not supported",
                        d->label);
    *count = n;
    return OSC_OK;
}

/* Which payload field carries the data: exactly one may be present (external data counts as
 * raw bytes); -1 with an error otherwise. */
static int pick_field(const Onnx__TensorProto *tp, const osc_tdec *d, const size_t *present,
                      bool external, int typed) {
    int first = -1;
    for (int f = 0; f < P_COUNT; f++) {
        if (!present[f]) continue;
        if (first >= 0) {
            osc_fail(d->err, OSC_ERR_MODEL, "%s carries both %s and %s; exactly one may be used",
                     d->label, k_pname[first], k_pname[f]);
            return -1;
        }
        first = f;
    }
    const char *dname = osc_dtype_get(tp->data_type)->name;
    if (external) {
        if (first >= 0) {
            osc_fail(d->err, OSC_ERR_MODEL, "%s has external data and also %s", d->label,
                     k_pname[first]);
            return -1;
        }
        first = P_RAW;
    }
    if (first < 0) first = typed == P_STRING ? P_STRING : P_RAW; /* no data: 0 elements */
    if (first == P_RAW && typed == P_STRING) {
        osc_fail(d->err, OSC_ERR_MODEL, "%s: string tensors must use string_data, not %s",
                 d->label, external ? "external data" : "raw_data");
        return -1;
    }
    if (first != P_RAW && first != typed) {
        osc_fail(d->err, OSC_ERR_MODEL, "%s (dtype %s) carries %s; this dtype uses %s%s",
                 d->label, dname, k_pname[first], k_pname[typed],
                 typed == P_STRING ? "" : " or raw_data");
        return -1;
    }
    return first;
}

static osc_status decode_strings(const Onnx__TensorProto *tp, const osc_tdec *d,
                                 const osc_limits *lim, int64_t count, osc_tensor *out) {
    if (tp->n_string_data > OSC_MAX_STRING_ENTRIES)
        return osc_fail(d->err, OSC_ERR_LIMIT, "%s: string_data entries: %zu; the limit is %d "
                        "(OSC_MAX_STRING_ENTRIES)", d->label, tp->n_string_data,
                        OSC_MAX_STRING_ENTRIES);
    if ((uint64_t)count != tp->n_string_data)
        return osc_fail(d->err, OSC_ERR_MODEL, "%s: string_data has %zu values; expected %lld",
                        d->label, tp->n_string_data, (long long)count);
    uint64_t max_len = lim ? lim->max_string : (uint64_t)OSC_DEFAULT_MAX_STRING_MIB << 20;
    size_t total = tp->n_string_data * sizeof(osc_string);
    for (size_t i = 0; i < tp->n_string_data; i++) {
        if (tp->string_data[i].len > max_len)
            return osc_fail(d->err, OSC_ERR_LIMIT, "%s: string element %zu has %zu bytes; the "
                            "limit is %llu (opts.max_string_mib)", d->label, i,
                            tp->string_data[i].len, (unsigned long long)max_len);
        if (__builtin_add_overflow(total, tp->string_data[i].len, &total))
            return osc_fail(d->err, OSC_ERR_MODEL, "%s: string bytes overflow size_t", d->label);
    }
    char *block = sink_alloc(d, total);
    if (!block) return sink_fail(d, total);
    osc_string *s = (osc_string *)(void *)block;
    char *bytes = block + tp->n_string_data * sizeof(osc_string);
    for (size_t i = 0; i < tp->n_string_data; i++) {
        size_t len = tp->string_data[i].len;
        if (len) memcpy(bytes, tp->string_data[i].data, len);
        s[i].ptr = bytes;
        s[i].len = len;
        bytes += len;
    }
    out->data = block;
    out->nbytes = (size_t)count * sizeof(osc_string);
    return OSC_OK;
}

/* bool elements must be 0 or 1 (kernels combine them with | and &). */
static osc_status check_bools(const osc_tdec *d, const uint8_t *p, size_t n, const char *field) {
    for (size_t i = 0; i < n; i++)
        if (p[i] > 1)
            return osc_fail(d->err, OSC_ERR_MODEL,
                            "%s: %s element %zu of a bool tensor is %u; allowed 0 or 1", d->label,
                            field, i, (unsigned)p[i]);
    return OSC_OK;
}

/* Checks every int32_data / uint64_data value fits the element it becomes. */
static osc_status check_values(const Onnx__TensorProto *tp, const osc_tdec *d, int field,
                               int32_t dtype, unsigned w) {
    if (field == P_INT32 && w < 32) {
        int64_t lo, hi;
        int32_range(dtype, w, &lo, &hi);
        for (size_t i = 0; i < tp->n_int32_data; i++)
            if (tp->int32_data[i] < lo || tp->int32_data[i] > hi)
                return osc_fail(d->err, OSC_ERR_MODEL,
                                "%s: int32_data[%zu] = %d is out of range [%lld, %lld] for %s",
                                d->label, i, (int)tp->int32_data[i], (long long)lo,
                                (long long)hi, osc_dtype_get(dtype)->name);
    }
    if (field == P_UINT64 && w == 32)
        for (size_t i = 0; i < tp->n_uint64_data; i++)
            if (tp->uint64_data[i] > UINT32_MAX)
                return osc_fail(d->err, OSC_ERR_MODEL,
                                "%s: uint64_data[%zu] = %llu is out of range [0, 4294967295] "
                                "for uint32", d->label, i,
                                (unsigned long long)tp->uint64_data[i]);
    return OSC_OK;
}

/* Copies n values of `src_w` bytes (4 or 8: int32_data, uint64_data, ...) into elements of `w`
 * bytes (w <= src_w): the value's low bits, in the machine's byte order. */
static void narrow(uint8_t *dst, const uint8_t *src, size_t n, size_t w, size_t src_w) {
    if (w == src_w) {
        memcpy(dst, src, n * w);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t v;
        if (src_w == 8) {
            memcpy(&v, src + i * 8, 8);
        } else {
            uint32_t v32;
            memcpy(&v32, src + i * 4, 4);
            v = v32;
        }
        if (w == 1) {
            dst[i] = (uint8_t)v;
        } else if (w == 2) {
            uint16_t x = (uint16_t)v;
            memcpy(dst + i * 2, &x, 2);
        } else {
            uint32_t x = (uint32_t)v;
            memcpy(dst + i * 4, &x, 4);
        }
    }
}

/* An in-message payload: `n` values of `src_w` bytes at `src`, each becoming `w` bytes. */
typedef struct payload {
    const void *src;
    size_t n, src_w, w;
} payload;

/* Finds and checks the in-message payload of `field`: its length against the element count
 * (nbytes for raw bytes, count x values-per-element for a typed field) and its values. */
static osc_status inline_payload(const Onnx__TensorProto *tp, const osc_tdec *d, int field,
                                 int64_t count, size_t nbytes, payload *p) {
    int32_t dtype = tp->data_type;
    unsigned bits = osc_dtype_get(dtype)->bits;
    const char *dname = osc_dtype_get(dtype)->name;
    int per;
    typed_field(dtype, bits, &per);
    /* one stored value: an element (half of a complex one), or a packed byte */
    p->w = bits >= 8 ? bits / 8 / (size_t)per : 1;
    if (field == P_RAW) {
        p->src = tp->raw_data.data, p->n = tp->raw_data.len / p->w, p->src_w = p->w;
        if (tp->raw_data.len != nbytes)
            return osc_fail(d->err, OSC_ERR_MODEL,
                            "%s: raw_data has %zu bytes; expected %zu (%lld x %s%s)", d->label,
                            tp->raw_data.len, nbytes, (long long)count, dname,
                            bits < 8 ? ", packed" : "");
        return k_class[dtype] == C_BOOL ? check_bools(d, p->src, nbytes, "raw_data") : OSC_OK;
    }
    static const size_t k_src_w[P_COUNT] = {1, 4, 4, 0, 8, 8, 8};
    p->src_w = k_src_w[field];
    p->src = field == P_FLOAT    ? (const void *)tp->float_data
             : field == P_INT32  ? (const void *)tp->int32_data
             : field == P_INT64  ? (const void *)tp->int64_data
             : field == P_DOUBLE ? (const void *)tp->double_data
                                 : (const void *)tp->uint64_data;
    size_t given = field == P_FLOAT    ? tp->n_float_data
                   : field == P_INT32  ? tp->n_int32_data
                   : field == P_INT64  ? tp->n_int64_data
                   : field == P_DOUBLE ? tp->n_double_data
                                       : tp->n_uint64_data;
    p->n = nbytes / p->w;
    if (given != p->n)
        return osc_fail(d->err, OSC_ERR_MODEL, "%s: %s has %zu values; expected %zu (%lld x %s%s)",
                        d->label, k_pname[field], given, p->n, (long long)count, dname,
                        per == 2 ? ", as re/im pairs" : bits < 8 ? ", packed bytes" : "");
    return check_values(tp, d, field, dtype, (unsigned)(p->w * 8));
}

osc_status osc_tensor_from_pb(const Onnx__TensorProto *tp, const osc_tdec *d, osc_tensor *out) {
    return osc_tensor_from_pb_lim(tp, d, NULL, out);
}

osc_status osc_tensor_from_pb_lim(const Onnx__TensorProto *tp, const osc_tdec *d,
                                  const osc_limits *lim, osc_tensor *out) {
    memset(out, 0, sizeof *out);
    int64_t count = 0;
    osc_status st = decode_header(tp, d, lim, out, &count);
    if (st) goto fail;
    int32_t dtype = out->dtype;
    int per;
    int typed = typed_field(dtype, osc_dtype_get(dtype)->bits, &per);
    bool external = tp->has_data_location &&
                    tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    size_t present[P_COUNT] = {tp->has_raw_data, tp->n_float_data,  tp->n_int32_data,
                               tp->n_string_data, tp->n_int64_data, tp->n_double_data,
                               tp->n_uint64_data};
    int field = pick_field(tp, d, present, external, typed);
    if (field < 0) {
        st = d->err->status;
        goto fail;
    }
    if (field == P_STRING) {
        st = decode_strings(tp, d, lim, count, out);
        if (st) goto fail;
        return OSC_OK;
    }
    size_t nbytes;
    uint64_t nbytes64;
    if (!osc_dtype_bytes64(dtype, count, &nbytes64)) {
        st = osc_fail(d->err, OSC_ERR_MODEL, "%s: %lld elements of %s overflow int64 bytes",
                      d->label, (long long)count, osc_dtype_get(dtype)->name);
        goto fail;
    }
    if (nbytes64 > SIZE_MAX) { /* a 32-bit machine: never wrapped */
        st = osc_fail(d->err, OSC_ERR_LIMIT, "%s: %lld elements of %s take %llu bytes; this "
                      "machine addresses at most %zu (size_t)", d->label, (long long)count,
                      osc_dtype_get(dtype)->name, (unsigned long long)nbytes64, (size_t)SIZE_MAX);
        goto fail;
    }
    nbytes = (size_t)nbytes64;
    osc_extref ref;
    payload p = {0};
    st = external ? osc_external_resolve(tp, d, nbytes, &ref)
                  : inline_payload(tp, d, field, count, nbytes, &p);
    if (st) goto fail;

    out->nbytes = nbytes;
    /* raw bytes need a swap here: a big-endian machine and scalars of 2 bytes or more */
    const bool swap = OSC_BIG_ENDIAN && field == P_RAW && osc_dtype_scalar_bytes(dtype) > 1;
    if (p.src && !swap && d->borrow && d->pool && p.src_w == p.w && osc_pb_in_pool(p.src)) {
        out->data = (void *)p.src; /* protobuf-c's copy already lives in the model's pool */
        return OSC_OK;
    }
    /* Large external payloads at an offset aligned for any element are mapped, not copied. */
    if (external && !swap && d->pool && nbytes >= OSC_MMAP_MIN && ref.offset % 16 == 0) {
        void *mapped = NULL;
        st = osc_external_map(&ref, d, &mapped);
        if (!st && k_class[dtype] == C_BOOL) st = check_bools(d, mapped, nbytes, "external data");
        if (!st) {
            out->data = mapped;
            return OSC_OK;
        }
        if (st != OSC_ERR_UNSUPPORTED) goto fail; /* a mapping stays registered in the pool */
        st = OSC_OK;
    }
    void *dst = sink_alloc(d, nbytes);
    if (!dst) {
        st = sink_fail(d, nbytes);
        goto fail;
    }
    if (external) {
        st = osc_external_read(&ref, d, dst);
        if (!st && k_class[dtype] == C_BOOL) st = check_bools(d, dst, nbytes, "external data");
        if (st) {
            sink_drop(d, dst);
            goto fail;
        }
    } else if (p.n) {
        narrow(dst, p.src, p.n, p.w, p.src_w);
    }
    if (swap) osc_swap_elems(dtype, dst, nbytes);
    out->data = dst;
    return OSC_OK;
fail:
    memset(out, 0, sizeof *out);
    return st;
}
