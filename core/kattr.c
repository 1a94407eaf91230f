/* kattr.c: helpers every kernel shares: node-named errors, attributes, dtype/shape/index checks. */
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "kattr.h"

osc_status osc_attr_known_legacy(osc_kctx *k, const osc_node *node, const char *const *known,
                                 bool legacy) {
    for (int32_t i = 0; i < node->n_attrs; i++) {
        const char *name = node->attrs[i].name;
        const char *const *p = known;
        while (*p && strcmp(*p, name) != 0) p++;
        if (!*p && !(legacy && strcmp(name, "consumed_inputs") == 0))
            return osc_kfail(k, OSC_ERR_MODEL, "unknown attribute '%s' for this op version",
                             name);
    }
    return OSC_OK;
}

osc_status osc_attr_known(osc_kctx *k, const osc_node *node, const char *const *known) {
    return osc_attr_known_legacy(k, node, known, false);
}

osc_status osc_attr_float(osc_kctx *k, const osc_node *node, const char *name, double def,
                          double *out) {
    const osc_attr *a = osc_node_attr(node, name);
    *out = def;
    if (!a) return OSC_OK;
    if (a->type != OSC_ATTR_FLOAT)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' must be a float (attribute type %d)",
                         name, (int)a->type);
    if (a->f != a->f)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' is NaN; it must be a number", name);
    *out = a->f;
    return OSC_OK;
}

osc_status osc_attr_int(osc_kctx *k, const osc_node *node, const char *name, int64_t def,
                        int64_t *out) {
    const osc_attr *a = osc_node_attr(node, name);
    *out = def;
    if (!a) return OSC_OK;
    if (a->type != OSC_ATTR_INT)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' must be an int (attribute type %d)",
                         name, (int)a->type);
    *out = a->i;
    return OSC_OK;
}

osc_status osc_init_axis(osc_kctx *k, const osc_node *node, int64_t def, bool required,
                         size_t size, void **params) {
    static const char *const known[] = {"axis", NULL};
    int64_t axis;
    osc_status st = osc_attr_known(k, node, known);
    if (!st && required && !osc_node_attr(node, "axis"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'axis' is required but missing");
    if (!st) st = osc_attr_int(k, node, "axis", def, &axis);
    int64_t *p = st ? NULL : osc_kparams(k, size);
    if (!p) return k->err->status;
    *p = axis;
    *params = p;
    return OSC_OK;
}

osc_status osc_attr_str(osc_kctx *k, const osc_node *node, const char *name, const char *def,
                        const char **out) {
    const osc_attr *a = osc_node_attr(node, name);
    *out = def;
    if (!a) return OSC_OK;
    if (a->type != OSC_ATTR_STRING)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' must be a string (attribute type %d)",
                         name, (int)a->type);
    *out = a->s;
    return OSC_OK;
}

static const char *const k_auto_pad[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};

const char *osc_auto_pad_name(int32_t mode) {
    return mode >= 0 && mode < 4 ? k_auto_pad[mode] : "?";
}

osc_status osc_attr_auto_pad(osc_kctx *k, const osc_node *node, int32_t *out) {
    const char *s = NULL;
    osc_status st = osc_attr_str(k, node, "auto_pad", "NOTSET", &s);
    if (st) return st;
    for (int32_t i = 0; i < 4; i++)
        if (!strcmp(s, k_auto_pad[i])) return *out = i, OSC_OK;
    return osc_kfail(k, OSC_ERR_MODEL, "attribute 'auto_pad' is '%s'; allowed: NOTSET, "
                     "SAME_UPPER, SAME_LOWER, VALID", s);
}

osc_status osc_norm_axis(osc_kctx *k, int64_t axis, int32_t rank, int32_t *out) {
    if (axis < -(int64_t)rank || axis >= rank)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'axis' = %lld is out of range [%d, %d]",
                         (long long)axis, -rank, rank - 1);
    *out = (int32_t)(axis < 0 ? axis + rank : axis);
    return OSC_OK;
}

osc_status osc_check_index_dtype(osc_kctx *k, int32_t input, const char *what,
                                 const osc_tensor *t, bool allow_i32) {
    if (t->dtype == OSC_INT64 || (allow_i32 && t->dtype == OSC_INT32)) return OSC_OK;
    return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has dtype %s; expected %s", input,
                     what, osc_kinput_name(k, input), osc_dtype_get(t->dtype)->name,
                     allow_i32 ? "int32 or int64" : "int64");
}

osc_status osc_check_std_dtype(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t) {
    if (osc_dtype_get(t->dtype)->standard) return OSC_OK;
    return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input %d '%s' (%s) has dtype %s, not supported by "
                     "this op", input, what, osc_kinput_name(k, input),
                     osc_dtype_get(t->dtype)->name);
}

osc_status osc_check_same_dtype(osc_kctx *k, int32_t ia, const char *a_what, const osc_tensor *a,
                                int32_t ib, const char *b_what, const osc_tensor *b) {
    if (a->dtype == b->dtype) return OSC_OK;
    return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has dtype %s but input %d '%s' (%s) "
                     "has dtype %s; they must match", ib, b_what, osc_kinput_name(k, ib),
                     osc_dtype_get(b->dtype)->name, ia, a_what, osc_kinput_name(k, ia),
                     osc_dtype_get(a->dtype)->name);
}

const char *osc_shape_str(const osc_tensor *t, char *buf, size_t size) {
    return osc_dims_str(t->dims, t->rank, buf, size);
}

osc_status osc_need_input(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                        const char *what) {
    char a[256];
    if (i >= n_in || !in || !in[i])
        return osc_kfail(k, OSC_ERR_MODEL, "input %d '%s' is required but missing", i, what);
    if (osc_tensor_count(in[i]) < 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has an invalid shape %s (rank %d, "
                         "negative dim or more than 2^63-1 elements)", i, what,
                         osc_kinput_name(k, i), osc_shape_str(in[i], a, sizeof a),
                         (int)in[i]->rank);
    return OSC_OK;
}

osc_status osc_check_index_dims(osc_kctx *k, const osc_tensor *data, const osc_tensor *idx,
                                int32_t axis, const char *effect) {
    for (int32_t d = 0; d < data->rank; d++)
        if (d != axis && idx->dims[d] > data->dims[d])
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'indices' (%s) has size %lld in dim %d "
                             "but input 0 'data' (%s) has size %lld there; %s",
                             osc_kinput_name(k, 1), (long long)idx->dims[d], (int)d,
                             osc_kinput_name(k, 0), (long long)data->dims[d], effect);
    return OSC_OK;
}

osc_status osc_infer_out0(osc_kctx *k, osc_status st, const osc_tensor *want, osc_tensor *out,
                          int32_t n_out) {
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    osc_same_shape(&out[0], want);
    return OSC_OK;
}

void osc_same_shape(osc_tensor *out, const osc_tensor *t) {
    out->dtype = t->dtype;
    out->rank = t->rank;
    memcpy(out->dims, t->dims, sizeof out->dims);
}

osc_status osc_check_count(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                           int64_t *out) {
    char buf[256];
    *out = osc_tensor_count(t);
    if (*out >= 0) return OSC_OK;
    return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has an invalid shape %s (rank %d, a "
                     "negative dim or more than 2^63-1 elements)", (int)input, what,
                     osc_kinput_name(k, input), osc_shape_str(t, buf, sizeof buf), (int)t->rank);
}

osc_status osc_check_buffer(osc_kctx *k, const char *kind, int32_t i, const char *what,
                            const osc_tensor *t) {
    size_t need = 0;
    if (!osc_dtype_bytes(t->dtype, osc_tensor_count(t), &need) || t->nbytes < need ||
        (need && !t->data))
        return osc_kfail(k, OSC_ERR_ARG, "%s %d '%s' buffer holds %zu bytes (data %s) but its "
                         "shape needs %zu", kind, (int)i, what, t->nbytes,
                         t->data ? "set" : "NULL", need);
    return OSC_OK;
}

/* The range checks scan every index before the first write, so they run at memory speed: a
 * min/max reduction the compiler vectorises, and only when it finds a value out of range the
 * exact search for the first one, for the message. AVX2 has the 64-bit compares SSE2 lacks,
 * which makes the int64 scan about twice as fast (measured: 16 MiB of indices in 0.6 instead
 * of 1.3 ms); the dynamic loader picks the clone once (OSC_AVX2_CLONES, ops.h). */
/* True when every one of the n values lies in [lo, hi]. */
#define DEFINE_IN_RANGE(NAME, IT)                                                      \
    OSC_AVX2_CLONES static bool NAME(const IT *p, int64_t n, int64_t lo, int64_t hi) { \
        IT mn = 0, mx = 0;                                                             \
        if (n > 0) mn = mx = p[0];                                                     \
        for (int64_t i = 0; i < n; i++) {                                              \
            mn = p[i] < mn ? p[i] : mn;                                                \
            mx = p[i] > mx ? p[i] : mx;                                                \
        }                                                                              \
        return n == 0 || (mn >= lo && mx <= hi);                                       \
    }
DEFINE_IN_RANGE(in_range_i32, int32_t)
DEFINE_IN_RANGE(in_range_i64, int64_t)

/* The scan of n int32 or int64 values, split among k's threads from OSC_PAR_MIN_BYTES on (the
 * fused GNN scatters check an index of 4 to 9 MB per node before they write). */
typedef struct range_job {
    const void *p;
    bool i32;
    int64_t n, lo, hi;
    bool ok[OSC_MAX_THREADS];
} range_job;

static void range_part(void *ctx, int32_t part, int32_t parts) {
    range_job *j = ctx;
    int64_t a, b;
    osc_par_range(j->n, 64, part, parts, &a, &b);
    j->ok[part] = b <= a || (j->i32 ? in_range_i32((const int32_t *)j->p + a, b - a, j->lo, j->hi)
                                    : in_range_i64((const int64_t *)j->p + a, b - a, j->lo, j->hi));
}

static bool in_range(osc_kctx *k, const void *p, bool i32, int64_t n, int64_t lo, int64_t hi) {
    range_job j = {.p = p, .i32 = i32, .n = n, .lo = lo, .hi = hi};
    const bool par = (size_t)n * (i32 ? 4 : 8) >= OSC_PAR_MIN_BYTES;
    osc_tpool_run(par ? k->tpool : NULL, range_part, &j);
    const int32_t parts = par ? osc_tpool_size(k->tpool) : 1;
    for (int32_t t = 0; t < parts; t++)
        if (!j.ok[t]) return false;
    return true;
}

bool osc_index_in_range(osc_kctx *k, const osc_tensor *idx, int64_t s) {
    return s > 0 && in_range(k, idx->data, idx->dtype == OSC_INT32, osc_tensor_count(idx), -s,
                             s - 1);
}

/* Reads only the indices, so callers run it before any write and a failed run leaves the
 * output untouched. */
osc_status osc_check_index_range(osc_kctx *k, const osc_tensor *idx, int32_t axis, int64_t s) {
    int64_t n = osc_tensor_count(idx);
    if (osc_index_in_range(k, idx, s)) return OSC_OK;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = osc_index_at(idx, i);
        if (v < -s || v >= s)
            return osc_kfail(k, OSC_ERR_INDEX, "input 1 'indices' (%s) flat position %lld: value "
                             "%lld is out of range [%lld, %lld] for axis %d of size %lld",
                             osc_kinput_name(k, 1), (long long)i, (long long)v, (long long)-s,
                             (long long)(s - 1), (int)axis, (long long)s);
    }
    return OSC_OK;
}

bool osc_row_strides(const osc_tensor *t, int64_t *stride) {
    int64_t s = 1;
    for (int32_t d = t->rank - 1; d >= 0; d--) {
        stride[d] = s;
        if (!osc_mul_ok(s, t->dims[d], &s)) return false;
    }
    return true;
}

/* The fast scans check every component j against dims[j] (k == 1 as one flat run); only on
 * failure does the flat loop below search the first bad value for the message. */
osc_status osc_check_index_tuples(osc_kctx *k, const osc_tensor *idx, int64_t n_elems,
                                  int32_t kk, const int64_t *dims, int32_t dim0) {
    const int64_t *v = idx->data;
    if (kk == 1 && dims[0] > 0 && in_range(k, v, false, n_elems, -dims[0], dims[0] - 1))
        return OSC_OK;
    if (kk > 1 && n_elems % kk == 0) {
        /* v lies in [-s, s-1] exactly when (uint64)v + s < 2s (s <= 2^63-1, so 2s fits) */
        uint64_t us[OSC_MAX_RANK];
        bool bad = false;
        for (int32_t j = 0; j < kk; j++) us[j] = (uint64_t)(dims[j] < 0 ? 0 : dims[j]);
        for (int64_t p = 0; p + kk <= n_elems; p += kk)
            for (int32_t j = 0; j < kk; j++) bad |= (uint64_t)v[p + j] + us[j] >= 2 * us[j];
        if (!bad) return OSC_OK;
    }
    /* the flat loop runs over all n_elems values with j cycling through kk, so component j
     * of every tuple is checked against dims[j] */
    int32_t j = 0;
    for (int64_t p = 0; p < n_elems; p++) {
        int64_t s = dims[j];
        if (v[p] < -s || v[p] >= s)
            return osc_kfail(k, OSC_ERR_INDEX, "input 1 'indices' (%s): value %lld at flat "
                             "position %lld is out of range [%lld, %lld] for dim %d of input 0 "
                             "'data' (size %lld)", osc_kinput_name(k, 1), (long long)v[p],
                             (long long)p, (long long)-s, (long long)(s - 1), (int)(dim0 + j),
                             (long long)s);
        if (++j == kk) j = 0;
    }
    return OSC_OK;
}
