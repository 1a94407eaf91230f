/* pack.c: the packed form of sequences and optionals (pack.h). */
#include <stdio.h>

#include "dtype.h"
#include "pack.h"

static uint64_t round_up(uint64_t x) {
    return (x + OSC_PACK_ALIGN - 1) & ~(uint64_t)(OSC_PACK_ALIGN - 1);
}

/* Where item data starts: after the head and n entries. */
static bool data_start(int64_t n, uint64_t *at) {
    uint64_t e;
    if (n < 0 || __builtin_mul_overflow((uint64_t)n, (uint64_t)sizeof(osc_pack_item), &e) ||
        e > UINT64_MAX / 2)
        return false;
    *at = round_up(sizeof(osc_pack_head) + e);
    return true;
}

bool osc_pack_bytes_begin(int64_t n, uint64_t *bytes) { return data_start(n, bytes); }

bool osc_pack_bytes_add(uint64_t *bytes, uint64_t item_nbytes) {
    uint64_t sz = round_up(item_nbytes);
    return sz >= item_nbytes && !__builtin_add_overflow(*bytes, sz, bytes);
}

bool osc_pack_bytes(int64_t n, const osc_tensor *const *items, uint64_t *bytes) {
    uint64_t at;
    if (!data_start(n, &at)) return false;
    for (int64_t i = 0; i < n; i++)
        if (!osc_pack_bytes_add(&at, items[i]->nbytes)) return false;
    *bytes = at;
    return true;
}

void osc_pack_shape(osc_tensor *v, int32_t kind, uint64_t bytes) {
    memset(v, 0, sizeof *v);
    v->dtype = kind;
    v->rank = 1;
    v->dims[0] = (int64_t)bytes;
    v->nbytes = (size_t)bytes;
}

void osc_pack_write(void *dst, int32_t kind, int32_t elem, int64_t n,
                    const osc_tensor *const *items) {
    uint64_t at = 0, bytes = 0;
    (void)data_start(n, &at); /* the caller sized dst with osc_pack_bytes: no overflow */
    (void)osc_pack_bytes(n, items, &bytes);
    unsigned char *base = dst;
    osc_pack_head h = {OSC_PACK_MAGIC, kind, n ? items[0]->dtype : elem, 0, n, bytes};
    /* Entries and data are written through separate copies: an item may be a view into a value
     * being read, never into dst. */
    memset(base, 0, (size_t)at);
    memcpy(base, &h, sizeof h);
    for (int64_t i = 0; i < n; i++) {
        osc_pack_item e;
        memset(&e, 0, sizeof e);
        e.dtype = items[i]->dtype;
        e.rank = items[i]->rank;
        memcpy(e.dims, items[i]->dims, (size_t)e.rank * sizeof e.dims[0]);
        e.off = at;
        e.nbytes = items[i]->nbytes;
        memcpy(base + sizeof h + (size_t)i * sizeof e, &e, sizeof e);
        if (e.nbytes && items[i]->data) memcpy(base + at, items[i]->data, (size_t)e.nbytes);
        else if (e.nbytes) memset(base + at, 0, (size_t)e.nbytes); /* the caller fills it */
        uint64_t pad = round_up(e.nbytes) - e.nbytes;
        if (pad) memset(base + at + e.nbytes, 0, (size_t)pad);
        at += round_up(e.nbytes);
    }
}

void osc_pack_item_view(const osc_tensor *v, int64_t k, osc_tensor *out) {
    const unsigned char *base = v->data;
    osc_pack_item e;
    memcpy(&e, base + sizeof(osc_pack_head) + (size_t)k * sizeof e, sizeof e);
    memset(out, 0, sizeof *out);
    out->dtype = e.dtype;
    out->rank = e.rank;
    memcpy(out->dims, e.dims, (size_t)e.rank * sizeof e.dims[0]);
    out->nbytes = (size_t)e.nbytes;
    out->data = (void *)(base + e.off);
}

const char *osc_pack_describe(int32_t kind, int32_t elem, char *buf, size_t size) {
    const char *k = kind == OSC_OPTIONAL ? "an optional" : "a sequence";
    if (!elem) snprintf(buf, size, "%s", k);
    else if (osc_is_pack(elem)) snprintf(buf, size, "%s of %s", k, osc_dtype_get(elem)->name);
    else snprintf(buf, size, "%s of %s tensors", k, osc_dtype_get(elem)->name);
    return buf;
}

static osc_status check(const osc_tensor *v, const char *what, int depth, osc_err *err) {
    osc_pack_head h;
    uint64_t at;
    if (depth > OSC_PACK_MAX_DEPTH)
        return osc_fail(err, OSC_ERR_ARG, "%s: values nest deeper than %d", what,
                        OSC_PACK_MAX_DEPTH);
    if (!v->data || v->nbytes < sizeof h || v->rank != 1 || v->dims[0] != (int64_t)v->nbytes ||
        ((uintptr_t)v->data & 7))
        return osc_fail(err, OSC_ERR_ARG, "%s: a %s value must be made by osc_value_pack (rank "
                        "1, dims[0] == nbytes >= %zu, data 8-byte aligned)", what,
                        osc_dtype_get(v->dtype)->name, sizeof h);
    memcpy(&h, v->data, sizeof h);
    if (h.magic != OSC_PACK_MAGIC || h.kind != v->dtype || h.bytes != v->nbytes)
        return osc_fail(err, OSC_ERR_ARG, "%s: its bytes are not a packed %s value (bad head)",
                        what, osc_dtype_get(v->dtype)->name);
    int64_t most = v->dtype == OSC_OPTIONAL ? 1 : (int64_t)(v->nbytes / sizeof(osc_pack_item));
    if (h.count < 0 || h.count > most || !data_start(h.count, &at) || at > h.bytes)
        return osc_fail(err, OSC_ERR_ARG, "%s: item count %lld does not fit its %zu bytes%s",
                        what, (long long)h.count, v->nbytes,
                        v->dtype == OSC_OPTIONAL ? " (an optional holds 0 or 1)" : "");
    if (h.elem && !osc_is_pack(h.elem) && (!osc_dtype_valid(h.elem) || h.elem == OSC_STRING))
        return osc_fail(err, OSC_ERR_ARG, "%s: item dtype %d is not allowed (a tensor dtype but "
                        "string, or a sequence or optional)", what, (int)h.elem);
    for (int64_t i = 0; i < h.count; i++) {
        osc_tensor it;
        osc_pack_item_view(v, i, &it);
        const osc_pack_item *e =
            (const void *)((const unsigned char *)v->data + sizeof h + (size_t)i * sizeof *e);
        uint64_t want, end;
        bool shape_ok = it.rank >= 0 && it.rank <= OSC_MAX_RANK;
        int64_t count = 1;
        for (int32_t d = 0; shape_ok && d < it.rank; d++)
            shape_ok = it.dims[d] >= 0 && !__builtin_mul_overflow(count, it.dims[d], &count);
        if (it.dtype != h.elem || !shape_ok || !osc_dtype_bytes64(it.dtype, count, &want) ||
            want != e->nbytes || e->off % OSC_PACK_ALIGN || e->off < at ||
            __builtin_add_overflow(e->off, e->nbytes, &end) || end > h.bytes)
            return osc_fail(err, OSC_ERR_ARG, "%s: item %lld is malformed (dtype %d, the "
                            "value's item dtype %d; rank %d; its bytes [%llu, +%llu) of %llu)",
                            what, (long long)i, (int)it.dtype, (int)h.elem, (int)it.rank,
                            (unsigned long long)e->off, (unsigned long long)e->nbytes,
                            (unsigned long long)h.bytes);
        if (osc_is_pack(it.dtype)) {
            osc_status st = check(&it, what, depth + 1, err);
            if (st) return st;
        }
    }
    return OSC_OK;
}

osc_status osc_pack_check(const osc_tensor *v, const char *what, osc_err *err) {
    return check(v, what, 1, err);
}
