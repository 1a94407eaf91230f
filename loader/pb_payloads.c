/* pb_payloads.c: the TensorProto payloads a skeleton left in its source, put back into the
 * unpacked message: each read once, from the source into the block the tensor keeps. */
#include <string.h>

#include "pb.h"

typedef struct fill {
    const osc_pb_skeleton *sk;
    const osc_src *src;
    osc_pb_alloc *pa;
    osc_err *err;
    uint8_t *seen; /* per payload: its marker was found */
    size_t found;
} fill;

/* The payload index a marker holds; false for any other unknown field. */
static bool marker(const ProtobufCMessageUnknownField *u, uint64_t *out) {
    if (u->tag != OSC_PB_MARK || u->wire_type != PROTOBUF_C_WIRE_TYPE_VARINT) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < u->len && i < 10; i++) {
        v |= (uint64_t)(u->data[i] & 0x7f) << (7 * i);
        if (!(u->data[i] & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;
}

/* Checks tp's markers (copy false) or gives it its last one's payload (copy true). */
static osc_status tensor(fill *c, Onnx__TensorProto *tp, bool copy) {
    bool any = false;
    uint64_t last = 0;
    for (size_t i = 0; i < tp->base.n_unknown_fields; i++) {
        uint64_t k;
        if (!marker(&tp->base.unknown_fields[i], &k)) continue;
        if (!copy) {
            if (k >= c->sk->n_pay || c->seen[k] || tp->has_raw_data) return OSC_ERR_UNSUPPORTED;
            c->seen[k] = 1;
            c->found++;
        }
        if (!any || k > last) last = k;
        any = true;
    }
    if (!any || !copy) return OSC_OK;
    const osc_pb_payload *pl = &c->sk->pay[last];
    if (pl->len > SIZE_MAX - 64)
        return osc_fail(c->err, OSC_ERR_LIMIT, "tensor '%.200s': raw_data of %llu bytes; this "
                        "machine addresses at most %zu", tp->name ? tp->name : "",
                        (unsigned long long)pl->len, (size_t)SIZE_MAX);
    uint8_t *data = NULL;
    if (pl->len) { /* as protobuf-c: empty bytes hold no block */
        data = c->pa->pc.alloc(c->pa, (size_t)pl->len);
        if (!data) return osc_pb_alloc_report(c->pa, c->src->len, c->err);
        osc_status st = osc_src_read(c->src, pl->at, data, (size_t)pl->len, c->err);
        if (st) {
            c->pa->pc.free(c->pa, data);
            return st;
        }
    }
    tp->has_raw_data = 1;
    tp->raw_data.len = (size_t)pl->len;
    tp->raw_data.data = data;
    return OSC_OK;
}

/* Every TensorProto under m (nesting is bounded by the prescan). */
static osc_status visit(fill *c, ProtobufCMessage *m, bool copy) {
    const ProtobufCMessageDescriptor *d = m->descriptor;
    osc_status st = OSC_OK;
    if (d == &onnx__tensor_proto__descriptor && (st = tensor(c, (Onnx__TensorProto *)m, copy)))
        return st;
    char *base = (char *)m;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->type != PROTOBUF_C_TYPE_MESSAGE) continue;
        /* a oneof's members share their storage: only the one set is this type */
        if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
            *(const uint32_t *)(base + f->quantifier_offset) != f->id)
            continue;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + f->quantifier_offset);
            ProtobufCMessage **v = *(ProtobufCMessage ***)(base + f->offset);
            for (size_t k = 0; k < n && !st; k++)
                if (v[k]) st = visit(c, v[k], copy);
        } else {
            ProtobufCMessage *sub = *(ProtobufCMessage **)(base + f->offset);
            if (sub) st = visit(c, sub, copy);
        }
        if (st) return st;
    }
    return OSC_OK;
}

osc_status osc_pb_payloads_fill(ProtobufCMessage *m, const osc_pb_skeleton *sk,
                                const osc_src *src, osc_pb_alloc *pa, osc_err *err) {
    if (!sk->n_pay) return OSC_OK;
    fill c = {sk, src, pa, err, osc_calloc(pa->a, sk->n_pay, 1), 0};
    if (!c.seen) return osc_nomem(err, pa->a, sk->n_pay, "the model's payloads");
    osc_status st = visit(&c, m, false);
    if (!st && c.found != sk->n_pay) st = OSC_ERR_UNSUPPORTED;
    osc_free(pa->a, c.seen, sk->n_pay);
    /* every marker once: nothing is read before that is known */
    return st ? st : visit(&c, m, true);
}
