/* value_pb.c: SequenceProto and OptionalProto (onnx-data.proto, which the installed onnx.proto
 * leaves out) to and from packed values (core/pack.h), read from the wire by hand: the fields
 * are few. Tensor items go through osc_tensor_decode_pb/encode_pb. */
#include <stdio.h>
#include <stdlib.h>

#include "core/dtype.h"
#include "core/pack.h"

/* Field numbers, the same in both messages (tensor_values / tensor_value, ...). */
enum { F_NAME = 1, F_ELEM_TYPE = 2, F_TENSOR = 3, F_SEQUENCE = 5, F_OPTIONAL = 7 };
/* Their elem_type enum. */
enum { ET_TENSOR = 1, ET_SEQUENCE = 3, ET_OPTIONAL = 5 };

static bool varint(const uint8_t **p, const uint8_t *end, uint64_t *out) {
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return (*out = v), true;
    }
    return false;
}

typedef struct items {
    osc_tensor *t;
    size_t n, cap;
} items;

static void items_free(items *it) {
    for (size_t i = 0; i < it->n; i++) free(it->t[i].data);
    free(it->t);
}

static osc_status decode(const uint8_t *p, size_t len, int32_t kind, int depth, osc_tensor *out,
                         char *name, size_t name_size, char *msg, size_t msg_size);

/* One item of field f (payload [p, p + n)) into *t. */
static osc_status item(int f, const uint8_t *p, size_t n, int depth, osc_tensor *t, char *msg,
                       size_t msg_size) {
    if (f == F_TENSOR) return osc_tensor_decode_pb(p, n, t, NULL, 0, msg, msg_size);
    return decode(p, n, f == F_SEQUENCE ? OSC_SEQUENCE : OSC_OPTIONAL, depth + 1, t, NULL, 0,
                  msg, msg_size);
}

static osc_status decode(const uint8_t *p, size_t len, int32_t kind, int depth, osc_tensor *out,
                         char *name, size_t name_size, char *msg, size_t msg_size) {
    const char *what = kind == OSC_SEQUENCE ? "SequenceProto" : "OptionalProto";
    const uint8_t *end = p + len, *start = p;
    items it = {0};
    uint64_t elem_type = 0;
    int32_t elem = 0;
    osc_status st = OSC_OK;
    if (depth > OSC_PACK_MAX_DEPTH) {
        snprintf(msg, msg_size, "%s: values nest deeper than %d", what, OSC_PACK_MAX_DEPTH);
        return OSC_ERR_LIMIT;
    }
    while (!st && p < end) {
        uint64_t key, v, n = 0;
        const uint8_t *at = p;
        if (!varint(&p, end, &key)) goto bad;
        int f = (int)(key >> 3), wt = (int)(key & 7);
        if (wt == 0) {
            if (!varint(&p, end, &v)) goto bad;
            if (f == F_ELEM_TYPE) elem_type = v;
            continue;
        }
        if (wt == 1 || wt == 5) {
            if ((size_t)(end - p) < (wt == 1 ? 8u : 4u)) goto bad;
            p += wt == 1 ? 8 : 4;
            continue;
        }
        if (wt != 2 || !varint(&p, end, &n) || n > (uint64_t)(end - p)) goto bad;
        if (f == F_NAME && name && name_size)
            snprintf(name, name_size, "%.*s", (int)(n < name_size ? n : name_size - 1), p);
        if (f == F_TENSOR || f == F_SEQUENCE || f == F_OPTIONAL) {
            if (kind == OSC_OPTIONAL && it.n) {
                snprintf(msg, msg_size, "%s: more than one value at byte %zu", what,
                         (size_t)(at - start));
                st = OSC_ERR_PARSE;
                break;
            }
            if (it.n == it.cap) {
                size_t cap = it.cap ? 2 * it.cap : 8;
                osc_tensor *t = realloc(it.t, cap * sizeof *t);
                if (!t) {
                    snprintf(msg, msg_size, "%s: out of memory", what);
                    st = OSC_ERR_NOMEM;
                    break;
                }
                it.t = t, it.cap = cap;
            }
            st = item(f, p, (size_t)n, depth, &it.t[it.n], msg, msg_size);
            if (st) break;
            int32_t d = it.t[it.n++].dtype;
            if (!elem) elem = d;
            if (d != elem || d == OSC_STRING) {
                snprintf(msg, msg_size, "%s: item %zu has dtype %s; %s", what, it.n - 1,
                         osc_dtype_get(d)->name, d == OSC_STRING ? "string items are not "
                         "supported" : "the items before it differ (a value holds one dtype)");
                st = OSC_ERR_UNSUPPORTED;
                break;
            }
        }
        p += n;
        continue;
    bad:
        snprintf(msg, msg_size, "%s: malformed wire format at byte %zu", what,
                 (size_t)(at - start));
        st = OSC_ERR_PARSE;
    }
    if (!st && !elem) /* an empty value: its elem_type, as far as it says */
        elem = elem_type == ET_SEQUENCE ? OSC_SEQUENCE : elem_type == ET_OPTIONAL ? OSC_OPTIONAL
                                                                                : 0;
    if (!st) {
        char why[OSC_MESSAGE_SIZE];
        st = osc_value_pack(kind, elem, it.t, it.n, out, why, sizeof why);
        if (st) snprintf(msg, msg_size, "%s: %s", what, why);
    }
    items_free(&it);
    return st;
}

osc_status osc_value_decode_pb(const void *buf, size_t len, int32_t dtype, osc_tensor *out,
                               char *name, size_t name_size, char *msg, size_t msg_size) {
    char none[1];
    if (!msg || !msg_size) msg = none, msg_size = sizeof none;
    if (!osc_is_pack(dtype))
        return osc_tensor_decode_pb(buf, len, out, name, name_size, msg, msg_size);
    if (name && name_size) name[0] = '\0';
    if (!out || (!buf && len)) {
        snprintf(msg, msg_size, "osc_value_decode_pb: %s is NULL", out ? "buf" : "out");
        return OSC_ERR_ARG;
    }
    return decode(buf, len, dtype, 1, out, name, name_size, msg, msg_size);
}

/* ---- encoding ---- */

typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
    bool failed;
} wbuf;

static void put(wbuf *w, const void *src, size_t n) {
    if (w->failed) return;
    if (w->n + n > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap < w->n + n) cap *= 2;
        uint8_t *p = realloc(w->p, cap);
        if (!p) {
            w->failed = true;
            return;
        }
        w->p = p, w->cap = cap;
    }
    memcpy(w->p + w->n, src, n);
    w->n += n;
}

static void put_varint(wbuf *w, uint64_t v) {
    uint8_t b[10];
    size_t n = 0;
    do {
        b[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    put(w, b, n);
}

static void put_field(wbuf *w, int f, const void *src, size_t n) {
    put_varint(w, (uint64_t)f << 3 | 2);
    put_varint(w, n);
    put(w, src, n);
}

static osc_status encode(const osc_tensor *v, const char *name, wbuf *w, char *msg,
                         size_t msg_size) {
    size_t n = 0;
    int32_t elem = 0;
    if (osc_value_count(v, &n, &elem)) {
        snprintf(msg, msg_size, "not a well formed %s value", osc_dtype_get(v->dtype)->name);
        return OSC_ERR_ARG;
    }
    if (name && name[0]) put_field(w, F_NAME, name, strlen(name));
    put_varint(w, F_ELEM_TYPE << 3);
    put_varint(w, elem == OSC_SEQUENCE ? ET_SEQUENCE : elem == OSC_OPTIONAL ? ET_OPTIONAL
                                                                          : ET_TENSOR);
    for (size_t i = 0; i < n; i++) {
        osc_tensor t;
        (void)osc_value_item(v, i, &t);
        int f = t.dtype == OSC_SEQUENCE ? F_SEQUENCE : t.dtype == OSC_OPTIONAL ? F_OPTIONAL
                                                                               : F_TENSOR;
        void *buf = NULL;
        size_t len = 0;
        wbuf sub = {0};
        osc_status st = OSC_OK;
        if (f == F_TENSOR) st = osc_tensor_encode_pb(&t, NULL, &buf, &len, msg, msg_size);
        else st = encode(&t, NULL, &sub, msg, msg_size);
        if (f != F_TENSOR) buf = sub.p, len = sub.n, w->failed |= sub.failed;
        if (!st) put_field(w, f, buf, len);
        free(buf);
        if (st) return st;
    }
    return OSC_OK;
}

osc_status osc_value_encode_pb(const osc_tensor *t, const char *name, void **buf, size_t *len,
                               char *msg, size_t msg_size) {
    char none[1];
    if (!msg || !msg_size) msg = none, msg_size = sizeof none;
    if (!t || !osc_is_pack(t->dtype))
        return osc_tensor_encode_pb(t, name, buf, len, msg, msg_size);
    if (buf) *buf = NULL;
    if (len) *len = 0;
    if (!buf || !len) {
        snprintf(msg, msg_size, "osc_value_encode_pb: %s is NULL", !buf ? "buf" : "len");
        return OSC_ERR_ARG;
    }
    wbuf w = {0};
    osc_status st = encode(t, name, &w, msg, msg_size);
    if (!st && w.failed) {
        snprintf(msg, msg_size, "out of memory encoding %zu bytes", w.n);
        st = OSC_ERR_NOMEM;
    }
    if (st) {
        free(w.p);
        return st;
    }
    *buf = w.p ? w.p : malloc(1); /* an empty message is 0 bytes, still freeable */
    *len = w.n;
    if (!*buf) {
        snprintf(msg, msg_size, "out of memory");
        return OSC_ERR_NOMEM;
    }
    return OSC_OK;
}
