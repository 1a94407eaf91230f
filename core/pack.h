/* pack.h: values that are not tensors, ONNX sequences and optionals, as the engine carries
 * them: an osc_tensor of pseudo-dtype OSC_SEQUENCE or OSC_OPTIONAL (rank 1, dims[0] == nbytes)
 * whose bytes are a packed form holding no pointers: a head, one entry per item (dtype, shape,
 * offset and size of its bytes) and the items' bytes, each at a multiple of OSC_PACK_ALIGN. So
 * every part of the engine that moves tensors (the arena, Identity, If and Loop results, output
 * buffers) moves these values bytewise, and a value may hold another (an optional sequence).
 * Items are tensors of any dtype but string, or packed values themselves. */
#ifndef OSC_PACK_H
#define OSC_PACK_H

#include "common.h"

#define OSC_PACK_ALIGN 64
#define OSC_PACK_MAX_DEPTH 8 /* values inside values, counting the outermost */

typedef struct osc_pack_head {
    uint32_t magic;  /* OSC_PACK_MAGIC */
    int32_t kind;    /* OSC_SEQUENCE or OSC_OPTIONAL */
    int32_t elem;    /* the items' dtype; 0 when not known (an empty value nothing typed) */
    int32_t pad;
    int64_t count;   /* items; 0 or 1 for an optional */
    uint64_t bytes;  /* of the whole value */
} osc_pack_head;

typedef struct osc_pack_item {
    int32_t dtype, rank;
    int64_t dims[OSC_MAX_RANK];
    uint64_t off, nbytes; /* from the value's first byte */
} osc_pack_item;

#define OSC_PACK_MAGIC 0x4b504f53u /* "SOPK" */

static inline bool osc_is_pack(int32_t dtype) {
    return dtype == OSC_SEQUENCE || dtype == OSC_OPTIONAL;
}
/* Bytes of a packed value of n items (items[i] gives dtype, shape and nbytes); false when the
 * sum overflows. */
bool osc_pack_bytes(int64_t n, const osc_tensor *const *items, uint64_t *bytes);
/* The same a piece at a time, for a kernel that knows its items' sizes without listing them:
 * begin with the count, add each item's nbytes; false on overflow. */
bool osc_pack_bytes_begin(int64_t n, uint64_t *bytes);
bool osc_pack_bytes_add(uint64_t *bytes, uint64_t item_nbytes);
/* Makes *v describe a packed value of `bytes` bytes (dtype kind, rank 1, no data). */
void osc_pack_shape(osc_tensor *v, int32_t kind, uint64_t bytes);
/* Writes the packed value of n items at dst (osc_pack_bytes bytes, aligned for any type): their
 * entries and a copy of their bytes (zeros for an item of NULL data, which the caller then fills
 * through osc_pack_item_view). The items must be checked (no strings, valid shapes). */
void osc_pack_write(void *dst, int32_t kind, int32_t elem, int64_t n,
                    const osc_tensor *const *items);
/* Checks a packed value whose bytes come from outside the engine (a caller's input): its head,
 * that every item lies inside it with the size its dtype and shape give, that items agree with
 * elem, and the values inside it, to OSC_PACK_MAX_DEPTH. OSC_ERR_ARG with what is wrong. */
osc_status osc_pack_check(const osc_tensor *v, const char *what, osc_err *err);
/* Of a value the engine made or checked: */
static inline const osc_pack_head *osc_pack_head_of(const osc_tensor *v) {
    return (const osc_pack_head *)v->data;
}
/* Item k (< count) as a view into v's bytes. */
void osc_pack_item_view(const osc_tensor *v, int64_t k, osc_tensor *out);
/* "a sequence of float", "an optional" ... for messages. */
const char *osc_pack_describe(int32_t kind, int32_t elem, char *buf, size_t size);

#endif
