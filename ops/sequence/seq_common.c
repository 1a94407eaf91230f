/* seq_common.c: the sequence and optional kernels' shared steps (seq.h). */
#include "core/dtype.h"
#include "seq.h"

osc_status seq_items_new(osc_kctx *k, int64_t n, seq_items *it) {
    memset(it, 0, sizeof *it);
    it->alloc = k->alloc;
    size_t m = (size_t)n;
    if (n == 0) return OSC_OK;
    if (n < 0 || (uint64_t)n > SIZE_MAX / (sizeof *it->t + sizeof *it->p))
        return osc_kfail(k, OSC_ERR_LIMIT, "%lld items are too many", (long long)n);
    if (!k->alloc) return osc_kfail(k, OSC_ERR_STATE, "no allocator to list the items in");
    it->t = osc_calloc(k->alloc, m, sizeof *it->t);
    it->p = osc_calloc(k->alloc, m, sizeof *it->p);
    if (!it->t || !it->p) {
        seq_items_free(it);
        return osc_kfail(k, OSC_ERR_NOMEM, "out of memory listing %lld items", (long long)n);
    }
    it->n = n;
    for (int64_t i = 0; i < n; i++) it->p[i] = &it->t[i];
    return OSC_OK;
}

void seq_items_free(seq_items *it) {
    size_t m = (size_t)it->n;
    if (it->t) osc_free(it->alloc, it->t, m * sizeof *it->t);
    if (it->p) osc_free(it->alloc, (void *)it->p, m * sizeof *it->p);
    it->t = NULL;
    it->p = NULL;
}

osc_status seq_input(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                     const char *what, osc_pack_head *h) {
    if (i >= n_in || !in[i])
        return osc_kfail(k, OSC_ERR_MODEL, "input %d '%s' is required but missing", (int)i,
                         what);
    const osc_tensor *t = in[i];
    if (!osc_is_pack(t->dtype) || !t->data || t->nbytes < sizeof *h)
        return osc_kfail(k, OSC_ERR_STATE, "input %d '%s' (%s): a %s value whose items are not "
                         "known", (int)i, what, osc_kinput_name(k, i),
                         osc_dtype_get(t->dtype)->name);
    memcpy(h, t->data, sizeof *h);
    return OSC_OK;
}

osc_status seq_item_ok(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                       int32_t elem) {
    if (t->dtype == OSC_STRING)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input %d '%s' (%s): sequences and optionals "
                         "of strings are not supported", (int)input, what,
                         osc_kinput_name(k, input));
    if (elem && t->dtype != elem)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has dtype %s; the sequence's "
                         "items are %s (a sequence holds one dtype)", (int)input, what,
                         osc_kinput_name(k, input), osc_dtype_get(t->dtype)->name,
                         osc_dtype_get(elem)->name);
    return OSC_OK;
}

osc_status seq_position(osc_kctx *k, const osc_tensor *t, int32_t input, int64_t n, bool end_ok,
                        int64_t *pos) {
    int64_t v;
    if (osc_tensor_count(t) != 1 || t->rank > 1 || !t->data)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d 'position' (%s) must be a scalar (shape "
                         "[]), given rank %d", (int)input, osc_kinput_name(k, input),
                         (int)t->rank);
    if (t->dtype == OSC_INT32) {
        int32_t v32;
        memcpy(&v32, t->data, sizeof v32);
        v = v32;
    } else {
        memcpy(&v, t->data, sizeof v);
    }
    int64_t hi = end_ok ? n : n - 1;
    if (v < -n || v > hi)
        return osc_kfail(k, OSC_ERR_INDEX, "input %d 'position' (%s) is %lld; the sequence has "
                         "%lld items, so the allowed range is [%lld, %lld]", (int)input,
                         osc_kinput_name(k, input), (long long)v, (long long)n, (long long)-n,
                         (long long)hi);
    *pos = v < 0 ? v + n : v;
    return OSC_OK;
}

osc_status seq_check_out(osc_kctx *k, const osc_tensor *out, int32_t n_out,
                         const osc_tensor *want) {
    char a[256], b[256];
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    bool same = out[0].dtype == want->dtype && out[0].rank == want->rank;
    for (int32_t d = 0; same && d < want->rank; d++) same = out[0].dims[d] == want->dims[d];
    if (!same)
        return osc_kfail(k, OSC_ERR_STATE, "output 0 was placed as %s %s; the op computes %s %s",
                         osc_dtype_get(out[0].dtype)->name, osc_shape_str(&out[0], a, sizeof a),
                         osc_dtype_get(want->dtype)->name, osc_shape_str(want, b, sizeof b));
    return osc_check_buffer(k, "output", 0, "output", &out[0]);
}

/* Items with their shapes; their bytes in *bytes. */
static osc_status value_size(osc_kctx *k, const seq_items *it, uint64_t *bytes) {
    if (!osc_pack_bytes(it->n, it->p, bytes) || *bytes > SIZE_MAX)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output's %lld items take more bytes than this "
                         "machine addresses", (long long)it->n);
    return OSC_OK;
}

osc_status seq_infer_value(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out, seq_build_fn build) {
    seq_items it;
    uint64_t bytes = 0;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = build(k, in, n_in, &it);
    if (st) return st;
    st = value_size(k, &it, &bytes);
    if (!st) osc_pack_shape(&out[0], it.kind, bytes);
    out[0].nbytes = 0; /* the engine's to set */
    seq_items_free(&it);
    return st;
}

osc_status seq_run_value(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out, seq_build_fn build, seq_fill_fn fill) {
    seq_items it;
    uint64_t bytes = 0;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = build(k, in, n_in, &it);
    if (st) return st;
    st = value_size(k, &it, &bytes);
    if (!st && (out[0].dtype != it.kind || out[0].nbytes != bytes || !out[0].data))
        st = osc_kfail(k, OSC_ERR_STATE, "output 0 was placed as %s of %zu bytes; the value "
                       "takes %llu", osc_dtype_get(out[0].dtype)->name, out[0].nbytes,
                       (unsigned long long)bytes);
    if (!st) osc_pack_write(out[0].data, it.kind, it.elem, it.n, it.p);
    seq_items_free(&it);
    if (!st && fill) st = fill(k, in, n_in, &out[0]);
    return st;
}

void seq_copy_slices(void *dst, int64_t dst_len, int64_t dst_at, const void *src,
                     int64_t src_len, int64_t src_at, int64_t len, int64_t outer, size_t row) {
    size_t n = (size_t)len * row;
    if (!n) return;
    for (int64_t o = 0; o < outer; o++)
        memcpy((char *)dst + ((size_t)(o * dst_len + dst_at)) * row,
               (const char *)src + ((size_t)(o * src_len + src_at)) * row, n);
}
