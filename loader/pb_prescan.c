/* pb_prescan.c: a wire-format walk run before protobuf-c unpacks: it bounds message nesting
 * (protobuf-c recurses once per level) and what the unpack would allocate (osc_pb_budget). */
#include <string.h>

#include "pb.h"

/* What protobuf-c allocates besides the payload (pb_alloc.c's header per block), and per
 * element of a repeated message or string field (its pointer in the array). */
enum { HDR = 16, SLOT = 8 };

typedef struct walk {
    const uint8_t *base;
    const char *what;
    osc_err *err;
    uint64_t need;   /* bytes the unpack allocates at least, so far */
    uint64_t budget; /* osc_pb_budget(len) */
} walk;

static osc_status bad(const walk *w, const uint8_t *at, const char *why) {
    return osc_fail(w->err, OSC_ERR_PARSE, "%s is not a valid protobuf message: %s at byte %zu",
                    w->what, why, (size_t)(at - w->base));
}

/* Adds n bytes to what the unpack needs; OSC_ERR_LIMIT once that passes the budget. */
static osc_status charge(walk *w, const uint8_t *at, uint64_t n) {
    w->need += n; /* n < 2^40 per call, need <= budget + n: no overflow */
    if (w->need <= w->budget) return OSC_OK;
    size_t len = (size_t)((w->budget - OSC_PB_SLACK) / OSC_PB_AMPLIFICATION);
    return osc_fail(w->err, OSC_ERR_LIMIT,
                    "%s would unpack into more than %llu bytes by byte %zu (allowed: %d times "
                    "its %zu bytes plus %llu MiB): too many small messages or strings for its "
                    "size", w->what, (unsigned long long)w->budget, (size_t)(at - w->base),
                    OSC_PB_AMPLIFICATION, len, (unsigned long long)(OSC_PB_SLACK >> 20));
}

/* Reads a varint at *p (< end); false when truncated or longer than 10 bytes. */
static bool varint(const uint8_t **p, const uint8_t *end, uint64_t *out) {
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 70 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << (shift < 64 ? shift : 63);
        if (!(b & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;
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

static osc_status walk_msg(walk *w, const ProtobufCMessageDescriptor *desc, const uint8_t *p,
                           const uint8_t *end, int depth) {
    if (depth > OSC_PB_MAX_DEPTH)
        return osc_fail(w->err, OSC_ERR_LIMIT,
                        "%s nests messages deeper than %d levels at byte %zu", w->what,
                        OSC_PB_MAX_DEPTH, (size_t)(p - w->base));
    while (p < end) {
        const uint8_t *at = p;
        uint64_t tag, n;
        if (!varint(&p, end, &tag)) return bad(w, at, "truncated or overlong tag");
        uint64_t field = tag >> 3;
        if (field == 0 || field > 0x1fffffff) return bad(w, at, "invalid field number");
        const ProtobufCFieldDescriptor *f =
            protobuf_c_message_descriptor_get_field(desc, (unsigned)field);
        switch (tag & 7) {
        case 0:
            if (!varint(&p, end, &n)) return bad(w, at, "truncated varint");
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
            if (!varint(&p, end, &n)) return bad(w, at, "truncated length");
            if (n > (uint64_t)(end - p)) return bad(w, at, "length past the end of the data");
            /* protobuf-c keeps a string as a C string: a NUL would silently cut it (a name, an
             * external-data location) */
            if (f && f->type == PROTOBUF_C_TYPE_STRING && memchr(p, 0, (size_t)n))
                return osc_fail(w->err, OSC_ERR_PARSE,
                                "%s: string field '%s' holds a NUL byte at byte %zu (strings "
                                "may not contain NUL)", w->what, f->name,
                                (size_t)((const uint8_t *)memchr(p, 0, (size_t)n) - w->base));
            osc_status st = f ? charge(w, at, delimited_cost(f, n)) : OSC_OK;
            if (!st && f && f->type == PROTOBUF_C_TYPE_MESSAGE)
                st = walk_msg(w, f->descriptor, p, p + n, depth + 1);
            if (st) return st;
            p += n;
            break;
        }
        default:
            return bad(w, at, "unsupported wire type (group or invalid)");
        }
        /* an unknown field is kept: an entry (24 bytes) and a copy of its bytes */
        osc_status st = f ? OSC_OK
                          : charge(w, at, sizeof(ProtobufCMessageUnknownField) + HDR +
                                              (uint64_t)(p - at));
        if (st) return st;
    }
    return OSC_OK;
}

uint64_t osc_pb_budget(size_t len) {
    return (uint64_t)len * OSC_PB_AMPLIFICATION + OSC_PB_SLACK; /* len < 2^48 in practice */
}

osc_status osc_pb_prescan(const ProtobufCMessageDescriptor *desc, const uint8_t *buf,
                          size_t len, const char *what, osc_err *err) {
    walk w = {buf, what, err, desc->sizeof_message + HDR, osc_pb_budget(len)};
    return walk_msg(&w, desc, buf, buf + len, 1);
}
