/* tensor_api.c: the public TensorProto calls (osc_tensor_decode_pb/encode_pb/free_data). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/pack.h"
#include "loader.h"
#include "pb.h"

static osc_status finish(const osc_err *err, char *msg, size_t msg_size) {
    if (msg && msg_size) snprintf(msg, msg_size, "%s", err->msg);
    return err->status;
}

osc_status osc_tensor_decode_pb(const void *buf, size_t len, osc_tensor *out, char *name,
                                size_t name_size, char *msg, size_t msg_size) {
    osc_err err;
    osc_err_clear(&err);
    if (name && name_size) name[0] = '\0';
    if (!out || (!buf && len)) {
        osc_fail(&err, OSC_ERR_ARG, "osc_tensor_decode_pb: %s is NULL", out ? "buf" : "out");
        return finish(&err, msg, msg_size);
    }
    memset(out, 0, sizeof *out);
    if (len && osc_pb_prescan(&onnx__tensor_proto__descriptor, buf, len, "TensorProto", &err))
        return finish(&err, msg, msg_size);
    osc_allocator a;
    osc_allocator_init(&a, NULL);
    osc_pb_alloc pa;
    osc_pb_alloc_init(&pa, &a, NULL, osc_pb_budget(len));
    Onnx__TensorProto *tp = onnx__tensor_proto__unpack(&pa.pc, len, buf);
    if (!tp) {
        if (pa.over_budget)
            osc_fail(&err, OSC_ERR_LIMIT, "tensor bytes: unpacking %zu bytes needs more than "
                     "%llu bytes (allowed: %d times their size plus %llu MiB)", len,
                     (unsigned long long)pa.budget, OSC_PB_AMPLIFICATION,
                     (unsigned long long)(OSC_PB_SLACK >> 20));
        else if (pa.failed)
            osc_fail(&err, OSC_ERR_NOMEM, "tensor bytes: out of memory allocating %zu bytes",
                     pa.failed_size);
        else
            osc_fail(&err, OSC_ERR_PARSE, "bytes are not a valid TensorProto (%zu bytes)", len);
        return finish(&err, msg, msg_size);
    }
    char label[300];
    if (tp->name && tp->name[0])
        snprintf(label, sizeof label, "tensor '%.200s'", tp->name);
    else
        snprintf(label, sizeof label, "tensor");
    /* One malloc() block holds the data (and the bytes of strings): the caller frees it with
     * osc_tensor_free_data. External data is refused: there is no folder to resolve it in. */
    osc_tdec d = {label, NULL, NULL, false, &err};
    if (osc_tensor_from_pb(tp, &d, out) == OSC_OK && name && name_size)
        snprintf(name, name_size, "%s", tp->name ? tp->name : "");
    onnx__tensor_proto__free_unpacked(tp, &pa.pc);
    return finish(&err, msg, msg_size);
}

osc_status osc_tensor_view_check(const osc_tensor *t, size_t *nbytes, osc_err *err) {
    if (!osc_dtype_valid(t->dtype))
        return osc_fail(err, OSC_ERR_ARG, "tensor dtype %d is unknown (allowed 1..%d)",
                        (int)t->dtype, OSC_DTYPE_COUNT - 1);
    if (t->rank < 0 || t->rank > OSC_MAX_RANK)
        return osc_fail(err, OSC_ERR_ARG, "tensor rank %d is out of range [0, %d]", (int)t->rank,
                        OSC_MAX_RANK);
    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] < 0)
            return osc_fail(err, OSC_ERR_ARG, "tensor dim %d is %lld; dims must be >= 0",
                            (int)i, (long long)t->dims[i]);
    int64_t count = osc_tensor_count(t);
    if (count < 0 || !osc_dtype_bytes(t->dtype, count, nbytes))
        return osc_fail(err, OSC_ERR_ARG, "tensor element count overflows");
    if (t->nbytes != *nbytes)
        return osc_fail(err, OSC_ERR_ARG, "tensor nbytes is %zu; expected %zu (%lld x %s)",
                        t->nbytes, *nbytes, (long long)count, osc_dtype_get(t->dtype)->name);
    if (*nbytes && !t->data) return osc_fail(err, OSC_ERR_ARG, "tensor data is NULL");
    if (t->dtype == OSC_STRING) {
        const osc_string *s = t->data;
        for (int64_t i = 0; i < count; i++)
            if (!s[i].ptr && s[i].len)
                return osc_fail(err, OSC_ERR_ARG, "string element %lld has NULL bytes",
                                (long long)i);
    }
    return OSC_OK;
}

osc_status osc_tensor_encode_pb(const osc_tensor *t, const char *name, void **buf, size_t *len,
                                char *msg, size_t msg_size) {
    osc_err err;
    osc_err_clear(&err);
    size_t nbytes = 0;
    if (buf) *buf = NULL;
    if (len) *len = 0;
    if (!t || !buf || !len) {
        osc_fail(&err, OSC_ERR_ARG, "osc_tensor_encode_pb: %s is NULL",
                 !t ? "t" : !buf ? "buf" : "len");
        return finish(&err, msg, msg_size);
    }
    if (osc_tensor_view_check(t, &nbytes, &err)) return finish(&err, msg, msg_size);

    Onnx__TensorProto tp = ONNX__TENSOR_PROTO__INIT;
    int64_t dims[OSC_MAX_RANK];
    memcpy(dims, t->dims, sizeof dims);
    tp.n_dims = (size_t)t->rank;
    tp.dims = dims;
    tp.has_data_type = 1;
    tp.data_type = t->dtype;
    if (name && name[0]) tp.name = (char *)name; /* protobuf-c only reads it while packing */
    ProtobufCBinaryData *strs = NULL;
    uint8_t *le = NULL;
    if (t->dtype == OSC_STRING) {
        size_t n = nbytes / sizeof(osc_string);
        const osc_string *s = t->data;
        strs = calloc(n ? n : 1, sizeof *strs);
        if (!strs) {
            osc_fail(&err, OSC_ERR_NOMEM, "out of memory encoding %zu strings", n);
            return finish(&err, msg, msg_size);
        }
        for (size_t i = 0; i < n; i++) {
            strs[i].len = s[i].len;
            strs[i].data = (uint8_t *)s[i].ptr;
        }
        tp.n_string_data = n;
        tp.string_data = strs;
    } else {
        tp.has_raw_data = 1; /* present even when empty: it says which field carries data */
        tp.raw_data.len = nbytes;
        tp.raw_data.data = t->data;
        if (OSC_BIG_ENDIAN && osc_dtype_scalar_bytes(t->dtype) > 1 && nbytes) {
            le = malloc(nbytes); /* raw_data is little-endian: a swapped copy */
            if (!le) {
                osc_fail(&err, OSC_ERR_NOMEM, "out of memory encoding %zu bytes", nbytes);
                return finish(&err, msg, msg_size);
            }
            memcpy(le, t->data, nbytes);
            osc_swap_elems(t->dtype, le, nbytes);
            tp.raw_data.data = le;
        }
    }
    size_t size = protobuf_c_message_get_packed_size(&tp.base);
    uint8_t *out = malloc(size ? size : 1);
    if (!out) {
        osc_fail(&err, OSC_ERR_NOMEM, "out of memory encoding a %zu-byte TensorProto", size);
    } else {
        protobuf_c_message_pack(&tp.base, out);
        *buf = out;
        *len = size;
    }
    free(strs);
    free(le);
    return finish(&err, msg, msg_size);
}

void osc_tensor_free_data(osc_tensor *t) {
    if (!t) return;
    free(t->data);
    t->data = NULL;
    t->nbytes = 0;
}

osc_status osc_value_pack(int32_t kind, int32_t elem_dtype, const osc_tensor *items, size_t n,
                          osc_tensor *out, char *msg, size_t msg_size) {
    osc_err err;
    osc_err_clear(&err);
    if (out) memset(out, 0, sizeof *out);
    const osc_tensor **ptrs = NULL;
    uint64_t bytes = 0;
    if (!out || (n && !items))
        osc_fail(&err, OSC_ERR_ARG, "osc_value_pack: %s is NULL", out ? "items" : "out");
    else if (!osc_is_pack(kind))
        osc_fail(&err, OSC_ERR_ARG, "osc_value_pack: kind %d is neither OSC_SEQUENCE (%d) nor "
                 "OSC_OPTIONAL (%d)", (int)kind, OSC_SEQUENCE, OSC_OPTIONAL);
    else if (kind == OSC_OPTIONAL && n > 1)
        osc_fail(&err, OSC_ERR_ARG, "osc_value_pack: an optional holds 0 or 1 item, given %zu",
                 n);
    else if (elem_dtype && ((!osc_dtype_valid(elem_dtype) && !osc_is_pack(elem_dtype)) ||
                            elem_dtype == OSC_STRING))
        osc_fail(&err, OSC_ERR_ARG, "osc_value_pack: elem_dtype %d is neither a tensor dtype "
                 "but string, nor OSC_SEQUENCE or OSC_OPTIONAL", (int)elem_dtype);
    else if (n > (size_t)INT32_MAX || !(ptrs = malloc((n ? n : 1) * sizeof *ptrs)))
        osc_fail(&err, OSC_ERR_ARG, "osc_value_pack: %zu items: too many", n);
    for (size_t i = 0; !err.status && i < n; i++) {
        size_t nb;
        char what[64];
        int32_t want = elem_dtype ? elem_dtype : items[0].dtype;
        snprintf(what, sizeof what, "osc_value_pack: item %zu", i);
        if (osc_is_pack(items[i].dtype)) osc_pack_check(&items[i], what, &err);
        else if (!osc_tensor_view_check(&items[i], &nb, &err) && items[i].dtype == OSC_STRING)
            osc_fail(&err, OSC_ERR_ARG, "%s: string items are not supported", what);
        if (!err.status && items[i].dtype != want)
            osc_fail(&err, OSC_ERR_ARG, "%s has dtype %s; the value's items are %s", what,
                     osc_dtype_get(items[i].dtype)->name, osc_dtype_get(want)->name);
        ptrs[i] = &items[i];
    }
    if (!err.status && (!osc_pack_bytes((int64_t)n, ptrs, &bytes) || bytes > SIZE_MAX))
        osc_fail(&err, OSC_ERR_ARG, "osc_value_pack: the items' bytes overflow");
    void *data = err.status ? NULL : malloc((size_t)bytes);
    if (!err.status && !data)
        osc_fail(&err, OSC_ERR_NOMEM, "osc_value_pack: out of memory (%llu bytes)",
                 (unsigned long long)bytes);
    if (!err.status) {
        osc_pack_write(data, kind, elem_dtype, (int64_t)n, ptrs);
        osc_pack_shape(out, kind, bytes);
        out->data = data;
    }
    free(ptrs);
    return finish(&err, msg, msg_size);
}

osc_status osc_value_count(const osc_tensor *v, size_t *n, int32_t *elem_dtype) {
    osc_err err;
    osc_err_clear(&err);
    if (!v || !osc_is_pack(v->dtype)) return OSC_ERR_ARG;
    if (osc_pack_check(v, "value", &err)) return err.status;
    if (n) *n = (size_t)osc_pack_head_of(v)->count;
    if (elem_dtype) *elem_dtype = osc_pack_head_of(v)->elem;
    return OSC_OK;
}

osc_status osc_value_item(const osc_tensor *v, size_t k, osc_tensor *out) {
    if (!v || !out || !osc_is_pack(v->dtype) || !v->data || v->nbytes < sizeof(osc_pack_head))
        return OSC_ERR_ARG;
    osc_pack_head h;
    memcpy(&h, v->data, sizeof h);
    if (h.magic != OSC_PACK_MAGIC || h.count < 0 || k >= (uint64_t)h.count ||
        sizeof h + (k + 1) * sizeof(osc_pack_item) > v->nbytes)
        return OSC_ERR_ARG;
    osc_pack_item_view(v, (int64_t)k, out);
    uint64_t off = (uint64_t)((const char *)out->data - (const char *)v->data);
    if (off > v->nbytes || out->nbytes > v->nbytes - off) { /* a value osc_value_count refuses */
        memset(out, 0, sizeof *out);
        return OSC_ERR_ARG;
    }
    return OSC_OK;
}
