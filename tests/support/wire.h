/* wire.h: protobuf messages written by hand, field by field, for tests of what protobuf-c's
 * packer never writes (a field twice, unknown fields, malformed bytes). Include after
 * <cmocka.h>. */
#ifndef OSC_TEST_WIRE_H
#define OSC_TEST_WIRE_H

#include <stdint.h>
#include <string.h>

typedef struct osc_wire {
    uint8_t b[1 << 16];
    size_t n;
} osc_wire;

static inline void osc_wire_varint(osc_wire *w, uint64_t v) {
    do {
        assert_true(w->n < sizeof w->b);
        w->b[w->n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
}

/* Field f of wire type 0 holding v. */
static inline void osc_wire_int(osc_wire *w, uint32_t f, uint64_t v) {
    osc_wire_varint(w, (uint64_t)f << 3);
    osc_wire_varint(w, v);
}

/* Field f of wire type 2 holding n bytes from src. */
static inline void osc_wire_bytes(osc_wire *w, uint32_t f, const void *src, size_t n) {
    osc_wire_varint(w, (uint64_t)f << 3 | 2);
    osc_wire_varint(w, n);
    assert_true(n <= sizeof w->b - w->n);
    memcpy(w->b + w->n, src, n);
    w->n += n;
}

/* Field f holding the message m, or the string s. */
static inline void osc_wire_msg(osc_wire *w, uint32_t f, const osc_wire *m) {
    osc_wire_bytes(w, f, m->b, m->n);
}
static inline void osc_wire_str(osc_wire *w, uint32_t f, const char *s) {
    osc_wire_bytes(w, f, s, strlen(s));
}

#endif
