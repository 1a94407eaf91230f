/* pb_depth.c: a wire-format walk that bounds message nesting before protobuf-c recurses. */
#include "pb.h"

typedef struct walk {
    const uint8_t *base;
    const char *what;
    osc_err *err;
} walk;

static osc_status bad(const walk *w, const uint8_t *at, const char *why) {
    return osc_fail(w->err, OSC_ERR_PARSE, "%s is not a valid protobuf message: %s at byte %zu",
                    w->what, why, (size_t)(at - w->base));
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

static osc_status walk_msg(const walk *w, const ProtobufCMessageDescriptor *desc,
                           const uint8_t *p, const uint8_t *end, int depth) {
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
            const ProtobufCFieldDescriptor *f =
                desc ? protobuf_c_message_descriptor_get_field(desc, (unsigned)field) : NULL;
            if (f && f->type == PROTOBUF_C_TYPE_MESSAGE) {
                osc_status st = walk_msg(w, f->descriptor, p, p + n, depth + 1);
                if (st) return st;
            }
            p += n;
            break;
        }
        default:
            return bad(w, at, "unsupported wire type (group or invalid)");
        }
    }
    return OSC_OK;
}

osc_status osc_pb_check_depth(const ProtobufCMessageDescriptor *desc, const uint8_t *buf,
                              size_t len, const char *what, osc_err *err) {
    walk w = {buf, what, err};
    return walk_msg(&w, desc, buf, buf + len, 1);
}
