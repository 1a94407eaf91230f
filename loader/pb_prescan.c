/* pb_prescan.c: a wire-format walk run before protobuf-c unpacks: it bounds message nesting
 * (protobuf-c recurses once per level) and what the unpack would allocate (osc_pb_budget), and
 * when asked writes the skeleton (every TensorProto's raw_data left in the source, a marker in
 * its place). */
#include <string.h>

#include "pb.h"

/* What protobuf-c allocates besides the payload (pb_alloc.c's header per block), and per
 * element of a repeated message or string field (its pointer in the array). */
enum { HDR = 16, SLOT = 8 };
/* Bytes of a file source read at once; the longest varint fits many times. */
enum { WINDOW = 8 << 10 };
/* A nested message's length in the skeleton: a varint padded to 5 bytes (protobuf-c reads
 * lengths of up to 5 bytes and refuses those over INT_MAX), patched once the message is out. */
enum { LEN_BYTES = 5 };

typedef struct walk {
    const osc_src *src;
    const char *what;
    osc_err *err;
    uint64_t need;   /* bytes the unpack allocates at least, so far */
    uint64_t budget; /* osc_pb_budget(src->len) */
    uint8_t *win;    /* a file source's bytes [win_at, win_at + win_n) */
    uint64_t win_at;
    size_t win_n;
    osc_pb_skeleton *sk; /* NULL: only check */
} walk;

static osc_status bad(const walk *w, uint64_t at, const char *why) {
    return osc_fail(w->err, OSC_ERR_PARSE, "%s is not a valid protobuf message: %s at byte %llu",
                    w->what, why, (unsigned long long)at);
}

/* The source's bytes from `at` on: *got of them (at least min(want, len - at) when want <=
 * WINDOW), NULL on a read error (reported). */
static const uint8_t *look(walk *w, uint64_t at, size_t want, size_t *got) {
    const osc_src *s = w->src;
    if (s->fd < 0) {
        *got = (size_t)(s->len - at);
        return s->mem + at;
    }
    uint64_t left = s->len - at;
    size_t need = want < left ? want : (size_t)left;
    if (at < w->win_at || at + need > w->win_at + w->win_n) {
        size_t n = left < WINDOW ? (size_t)left : WINDOW;
        if (osc_src_read(s, at, w->win, n, w->err)) return NULL;
        w->win_at = at;
        w->win_n = n;
    }
    *got = (size_t)(w->win_at + w->win_n - at);
    return w->win + (at - w->win_at);
}

/* The source's bytes from `at` on, *got of them and no more than end - at (at < end). */
static const uint8_t *chunk(walk *w, uint64_t at, uint64_t end, size_t *got) {
    const uint8_t *b = look(w, at, end - at < WINDOW ? (size_t)(end - at) : WINDOW, got);
    if (*got > end - at) *got = (size_t)(end - at);
    return b;
}

/* Adds n bytes to what the unpack needs; OSC_ERR_LIMIT once that passes the budget. */
static osc_status charge(walk *w, uint64_t at, uint64_t n) {
    w->need += n; /* n < 2^40 per call, need <= budget + n: no overflow */
    if (w->need <= w->budget) return OSC_OK;
    return osc_fail(w->err, OSC_ERR_LIMIT,
                    "%s would unpack into more than %llu bytes by byte %llu (allowed: %d times "
                    "its %llu bytes plus %llu MiB): too many small messages or strings for its "
                    "size", w->what, (unsigned long long)w->budget, (unsigned long long)at,
                    OSC_PB_AMPLIFICATION, (unsigned long long)w->src->len,
                    (unsigned long long)(OSC_PB_SLACK >> 20));
}

/* Reads a varint at *p (< end): 1 when read, 0 when truncated or longer than 10 bytes, -1 on
 * a read error (reported). */
static int varint(walk *w, uint64_t *p, uint64_t end, uint64_t *out) {
    size_t got;
    const uint8_t *b = look(w, *p, 10, &got);
    if (!b) return -1;
    if (got > end - *p) got = (size_t)(end - *p);
    uint64_t v = 0;
    for (unsigned i = 0, shift = 0; i < got && shift < 70; i++, shift += 7) {
        v |= (uint64_t)(b[i] & 0x7f) << (shift < 64 ? shift : 63);
        if (!(b[i] & 0x80)) {
            *p += i + 1;
            *out = v;
            return 1;
        }
    }
    return 0;
}

/* Bytes protobuf-c allocates for one length-delimited field f of n payload bytes (f known). */
static uint64_t delimited_cost(const ProtobufCFieldDescriptor *f, uint64_t n) {
    uint64_t slot = f->label == PROTOBUF_C_LABEL_REPEATED ? SLOT : 0;
    switch (f->type) {
    case PROTOBUF_C_TYPE_MESSAGE:
        return ((const ProtobufCMessageDescriptor *)f->descriptor)->sizeof_message + HDR + slot;
    case PROTOBUF_C_TYPE_STRING:
        return n + 1 + HDR + slot; /* copied with a NUL, even when empty */
    case PROTOBUF_C_TYPE_BYTES:
        return n ? n + HDR : 0; /* an empty one allocates nothing */
    default:
        return 0; /* a packed repeated scalar: at least as many bytes as on the wire */
    }
}

/* ---- the skeleton's bytes ---- */

static osc_status room(walk *w, size_t n) {
    osc_pb_skeleton *sk = w->sk;
    if (sk->cap - sk->len >= n) return OSC_OK;
    size_t cap = sk->cap ? sk->cap : 4096;
    while (cap - sk->len < n) cap *= 2;
    uint8_t *p = osc_realloc(sk->a, sk->buf, sk->cap, cap);
    if (!p) return osc_nomem(w->err, sk->a, cap - sk->cap, "the model's skeleton");
    sk->buf = p;
    sk->cap = cap;
    return OSC_OK;
}

static osc_status emit_varint(walk *w, uint64_t v) {
    osc_status st = room(w, 10);
    if (st) return st;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        w->sk->buf[w->sk->len++] = b | (v ? 0x80 : 0);
    } while (v);
    return OSC_OK;
}

/* Copies the source's bytes [at, end) to the skeleton. */
static osc_status emit_src(walk *w, uint64_t at, uint64_t end) {
    osc_status st = room(w, (size_t)(end - at));
    if (!st && w->src->fd >= 0 && end - at > WINDOW) { /* a large field: not through the window */
        st = osc_src_read(w->src, at, w->sk->buf + w->sk->len, (size_t)(end - at), w->err);
        if (!st) w->sk->len += (size_t)(end - at);
        return st;
    }
    while (!st && at < end) {
        size_t got;
        const uint8_t *b = chunk(w, at, end, &got);
        if (!b) return w->err->status;
        memcpy(w->sk->buf + w->sk->len, b, got);
        w->sk->len += got;
        at += got;
    }
    return st;
}

/* A TensorProto's raw_data of n bytes at `at`: recorded, and a marker written in its place. */
static osc_status elide(walk *w, uint64_t at, uint64_t n) {
    osc_pb_skeleton *sk = w->sk;
    if (sk->n_pay == sk->cap_pay) {
        size_t cap = sk->cap_pay ? sk->cap_pay * 2 : 16;
        osc_pb_payload *p = osc_realloc(sk->a, sk->pay, sk->cap_pay * sizeof *p, cap * sizeof *p);
        if (!p) return osc_nomem(w->err, sk->a, (cap - sk->cap_pay) * sizeof *p, "payloads");
        sk->pay = p;
        sk->cap_pay = cap;
    }
    sk->pay[sk->n_pay] = (osc_pb_payload){at, n};
    osc_status st = emit_varint(w, (uint64_t)OSC_PB_MARK << 3);
    return st ? st : emit_varint(w, sk->n_pay++);
}

static osc_status walk_msg(walk *w, const ProtobufCMessageDescriptor *desc, uint64_t p,
                           uint64_t end, int depth);

/* A nested message [p, p + n) whose tag [at, p) is read: checked, and copied with its length
 * rewritten when the skeleton is written. */
static osc_status nested(walk *w, const ProtobufCFieldDescriptor *f, uint64_t at, uint64_t tag_end,
                         uint64_t p, uint64_t n, int depth) {
    if (!w->sk) return walk_msg(w, f->descriptor, p, p + n, depth + 1);
    osc_status st = emit_src(w, at, tag_end);
    if (!st) st = room(w, LEN_BYTES);
    if (st) return st;
    size_t mark = w->sk->len;
    w->sk->len += LEN_BYTES;
    if ((st = walk_msg(w, f->descriptor, p, p + n, depth + 1))) return st;
    uint64_t len = w->sk->len - mark - LEN_BYTES;
    if (len > 0x7fffffff)
        return osc_fail(w->err, OSC_ERR_LIMIT, "%s: message field '%s' at byte %llu holds %llu "
                        "bytes besides its tensors' data; protobuf allows 2 GiB", w->what,
                        f->name, (unsigned long long)at, (unsigned long long)len);
    for (int i = 0; i < LEN_BYTES; i++, len >>= 7)
        w->sk->buf[mark + i] = (uint8_t)((len & 0x7f) | (i < LEN_BYTES - 1 ? 0x80 : 0));
    return OSC_OK;
}

/* A string field's bytes [p, p + n): protobuf-c keeps a string as a C string, so a NUL would
 * silently cut it (a name, an external-data location). */
static osc_status check_string(walk *w, const ProtobufCFieldDescriptor *f, uint64_t p,
                               uint64_t n) {
    for (uint64_t end = p + n; p < end;) {
        size_t got;
        const uint8_t *b = chunk(w, p, end, &got);
        if (!b) return w->err->status;
        const uint8_t *z = memchr(b, 0, got);
        if (z)
            return osc_fail(w->err, OSC_ERR_PARSE, "%s: string field '%s' holds a NUL byte at "
                            "byte %llu (strings may not contain NUL)", w->what, f->name,
                            (unsigned long long)(p + (uint64_t)(z - b)));
        p += got;
    }
    return OSC_OK;
}

static osc_status walk_msg(walk *w, const ProtobufCMessageDescriptor *desc, uint64_t p,
                           uint64_t end, int depth) {
    if (depth > OSC_PB_MAX_DEPTH)
        return osc_fail(w->err, OSC_ERR_LIMIT,
                        "%s nests messages deeper than %d levels at byte %llu", w->what,
                        OSC_PB_MAX_DEPTH, (unsigned long long)p);
    const bool tensor = desc == &onnx__tensor_proto__descriptor;
    while (p < end) {
        const uint64_t at = p;
        uint64_t tag, n;
        int r = varint(w, &p, end, &tag);
        if (r <= 0) return r < 0 ? w->err->status : bad(w, at, "truncated or overlong tag");
        uint64_t field = tag >> 3;
        if (field == 0 || field > 0x1fffffff) return bad(w, at, "invalid field number");
        const ProtobufCFieldDescriptor *f =
            protobuf_c_message_descriptor_get_field(desc, (unsigned)field);
        const uint64_t tag_end = p;
        bool copied = false;
        osc_status st = OSC_OK;
        switch (tag & 7) {
        case 0:
            r = varint(w, &p, end, &n);
            if (r <= 0) return r < 0 ? w->err->status : bad(w, at, "truncated varint");
            break;
        case 1:
            if (end - p < 8) return bad(w, at, "truncated 64-bit value");
            p += 8;
            break;
        case 5:
            if (end - p < 4) return bad(w, at, "truncated 32-bit value");
            p += 4;
            break;
        case 2: {
            r = varint(w, &p, end, &n);
            if (r <= 0) return r < 0 ? w->err->status : bad(w, at, "truncated length");
            if (n > end - p) return bad(w, at, "length past the end of the data");
            if (f && f->type == PROTOBUF_C_TYPE_STRING) st = check_string(w, f, p, n);
            if (!st && f) st = charge(w, at, delimited_cost(f, n));
            if (!st && f && f->type == PROTOBUF_C_TYPE_MESSAGE) {
                st = nested(w, f, at, tag_end, p, n, depth);
                copied = true;
            } else if (!st && w->sk && tensor && field == OSC_PB_RAW_DATA) {
                st = elide(w, p, n);
                copied = true;
            }
            if (st) return st;
            p += n;
            break;
        }
        default:
            return bad(w, at, "unsupported wire type (group or invalid)");
        }
        /* an unknown field is kept: an entry (24 bytes) and a copy of its bytes */
        st = f ? OSC_OK
               : charge(w, at, sizeof(ProtobufCMessageUnknownField) + HDR + (p - at));
        /* the source's own markers are dropped: an unknown field nothing reads */
        if (!st && w->sk && !copied && !(tensor && field == OSC_PB_MARK))
            st = emit_src(w, at, p);
        if (st) return st;
    }
    return OSC_OK;
}

uint64_t osc_pb_budget(size_t len) {
    return (uint64_t)len * OSC_PB_AMPLIFICATION + OSC_PB_SLACK; /* len < 2^48 in practice */
}

/* One walk over src; writes *sk unless it is NULL. A file is read through a window on the
 * stack, which the byte cap does not see. */
static osc_status run(const ProtobufCMessageDescriptor *desc, const osc_src *src,
                      const char *what, osc_pb_skeleton *sk, osc_err *err) {
    uint8_t win[WINDOW];
    walk w = {src, what, err, desc->sizeof_message + HDR, osc_pb_budget((size_t)src->len),
              win, 0, 0, sk};
    return walk_msg(&w, desc, 0, src->len, 1);
}

osc_status osc_pb_prescan(const ProtobufCMessageDescriptor *desc, const uint8_t *buf,
                          size_t len, const char *what, osc_err *err) {
    osc_src src = {buf, -1, len, what};
    return run(desc, &src, what, NULL, err);
}

osc_status osc_pb_skeleton_build(const ProtobufCMessageDescriptor *desc, const osc_src *src,
                                 const char *what, osc_allocator *a, osc_pb_skeleton *sk,
                                 osc_err *err) {
    memset(sk, 0, sizeof *sk);
    sk->a = a;
    /* checked whole first: a file the checks refuse allocates nothing */
    osc_status st = run(desc, src, what, NULL, err);
    if (!st) st = run(desc, src, what, sk, err);
    if (st) osc_pb_skeleton_free(sk);
    return st;
}

void osc_pb_skeleton_free(osc_pb_skeleton *sk) {
    if (sk->buf) osc_free(sk->a, sk->buf, sk->cap);
    if (sk->pay) osc_free(sk->a, sk->pay, sk->cap_pay * sizeof *sk->pay);
    sk->buf = NULL;
    sk->pay = NULL;
    sk->len = sk->cap = sk->n_pay = sk->cap_pay = 0;
}
