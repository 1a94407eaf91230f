/* shape_util.c: helpers the shape and data-movement kernels share: type sets, int inputs, axes,
 * output checks and the strided element copy. */
#include <stdio.h>
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

osc_typeset osc_sh_ts_all(int64_t v) {
    return v >= 25   ? OSC_TS_ALL_V25
           : v >= 24 ? OSC_TS_ALL_V24
           : v >= 23 ? OSC_TS_ALL_V23
           : v >= 21 ? OSC_TS_ALL_V21
           : v >= 19 ? OSC_TS_ALL_V19
           : v >= 13 ? OSC_TS_ALL_V13
                     : OSC_TS_ALL_V1;
}

unsigned osc_sh_bits(int32_t dtype) { return osc_dtype_get(dtype)->bits; }

osc_status osc_sh_check_type(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                             osc_typeset allowed) {
    if (osc_sh_ts_has(allowed, t->dtype)) return OSC_OK;
    char list[400] = "";
    size_t p = 0;
    for (int32_t d = 1; d < OSC_DTYPE_COUNT && p < sizeof list; d++)
        if (osc_sh_ts_has(allowed, d)) {
            int w = snprintf(list + p, sizeof list - p, "%s%s", p ? ", " : "",
                             osc_dtype_get(d)->name);
            if (w > 0) p += (size_t)w;
        }
    return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has dtype %s; this op version allows: "
                     "%s", (int)input, what, osc_kinput_name(k, input),
                     osc_dtype_get(t->dtype)->name, list);
}

osc_status osc_sh_need(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                       const char *what) {
    if (osc_sh_in(in, n_in, i)) return OSC_OK;
    return osc_kfail(k, OSC_ERR_MODEL, "input %d '%s' is required but missing", (int)i, what);
}

osc_status osc_sh_need_typed(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                             const char *what, int64_t *count) {
    osc_status st = osc_sh_need(k, in, n_in, i, what);
    if (!st) st = osc_sh_check_type(k, i, what, in[i], osc_kernel_types(k->row, i));
    if (!st) st = osc_check_count(k, i, what, in[i], count);
    return st;
}

osc_status osc_sh_need_data(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t) {
    int64_t count;
    osc_status st = osc_check_count(k, input, what, t, &count);
    if (st) return st;
    if (count > 0 && !t->data)
        return osc_kfail(k, OSC_ERR_STATE, "input %d '%s' (%s): its values are not known yet, "
                         "and this op's output shape depends on them (infer_reads)", (int)input,
                         what, osc_kinput_name(k, input));
    return osc_check_buffer(k, "input", input, what, t);
}

osc_status osc_sh_read_ints(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                            bool allow_i32, bool allow_scalar, int32_t max_n, int64_t *v,
                            int32_t *n) {
    char buf[256];
    osc_status st = osc_check_index_dtype(k, input, what, t, allow_i32);
    if (st) return st;
    if (t->rank != 1 && !(allow_scalar && t->rank == 0))
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s; expected rank 1%s",
                         (int)input, what, osc_kinput_name(k, input),
                         osc_shape_str(t, buf, sizeof buf), allow_scalar ? " or 0" : "");
    if ((st = osc_sh_need_data(k, input, what, t))) return st;
    int64_t count = osc_tensor_count(t);
    if (count > max_n)
        return osc_kfail(k, OSC_ERR_LIMIT, "input %d '%s' (%s) has %lld values; at most %d are "
                         "supported", (int)input, what, osc_kinput_name(k, input),
                         (long long)count, (int)max_n);
    for (int64_t i = 0; i < count; i++) v[i] = osc_index_at(t, i);
    *n = (int32_t)count;
    return OSC_OK;
}

osc_status osc_sh_norm_axes(osc_kctx *k, const char *what, int64_t *axes, int32_t n,
                            int32_t rank) {
    bool seen[OSC_MAX_RANK * 2 + 1] = {false};
    for (int32_t i = 0; i < n; i++) {
        int64_t a = axes[i];
        if (a < -(int64_t)rank || a >= rank)
            return osc_kfail(k, OSC_ERR_SHAPE, "%s: value %lld at position %d is out of range "
                             "[%d, %d]", what, (long long)a, (int)i, -rank, rank - 1);
        if (a < 0) a += rank;
        if (seen[a])
            return osc_kfail(k, OSC_ERR_SHAPE, "%s: value %lld at position %d repeats axis %lld",
                             what, (long long)axes[i], (int)i, (long long)a);
        seen[a] = true;
        axes[i] = a;
    }
    return OSC_OK;
}

osc_status osc_sh_attr_bool(osc_kctx *k, const osc_node *node, const char *name, bool def,
                            bool *out) {
    int64_t v;
    osc_status st = osc_attr_int(k, node, name, def, &v);
    if (st) return st;
    if (v != 0 && v != 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' = %lld is out of range [0, 1]", name,
                         (long long)v);
    *out = v != 0;
    return OSC_OK;
}

osc_status osc_sh_attr_ints(osc_kctx *k, const osc_node *node, const char *name, bool required,
                            osc_sh_ints *out) {
    const osc_attr *a = osc_node_attr(node, name);
    out->present = false;
    out->n = 0;
    if (!a) {
        if (!required) return OSC_OK;
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' is required but missing", name);
    }
    if (a->type != OSC_ATTR_INTS)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' must be a list of ints (attribute "
                         "type %d)", name, (int)a->type);
    if (a->n > 2 * OSC_MAX_RANK)
        return osc_kfail(k, OSC_ERR_LIMIT, "attribute '%s' has %zu values; at most %d are "
                         "supported", name, a->n, 2 * OSC_MAX_RANK);
    out->present = true;
    out->n = (int32_t)a->n;
    if (a->n) memcpy(out->v, a->ints, a->n * sizeof *a->ints);
    return OSC_OK;
}

osc_status osc_sh_check_out(osc_kctx *k, int32_t i, const osc_tensor *out,
                            const osc_tensor *want) {
    char a[256], b[256];
    bool same = out->dtype == want->dtype && out->rank == want->rank;
    for (int32_t d = 0; same && d < want->rank; d++) same = out->dims[d] == want->dims[d];
    if (!same)
        return osc_kfail(k, OSC_ERR_ARG, "output %d is %s %s but this run's inputs give %s %s",
                         (int)i, osc_dtype_get(out->dtype)->name, osc_shape_str(out, a, sizeof a),
                         osc_dtype_get(want->dtype)->name, osc_shape_str(want, b, sizeof b));
    return osc_check_buffer(k, "output", i, "output", out);
}

osc_status osc_sh_check_inputs(osc_kctx *k, const osc_tensor *const *in, int32_t n_in) {
    for (int32_t i = 0; i < n_in; i++) {
        if (!in[i]) continue;
        osc_status st = osc_check_buffer(k, "input", i, osc_kinput_name(k, i), in[i]);
        if (st) return st;
    }
    return OSC_OK;
}

/* An a x b tile of elements of N bytes (1, 2, 4 or 8): element (i, j) from src[s0 + i + j * ss]
 * to dst[d0 + i * ds + j], in blocks of CS_TILE x CS_TILE so that each source line read is
 * reused (a transpose's reads); a = 1 is one strided run. */
#define CS_TILE 16
#define CS_SIZES(X) X(1, uint8_t) X(2, uint16_t) X(4, uint32_t) X(8, uint64_t)
#define CS_FNS(N, T)                                                                           \
    static void tile_##N(void *dst, int64_t d0, int64_t ds, const void *src, int64_t s0,       \
                         int64_t ss, int64_t a, int64_t b) {                                   \
        for (int64_t i0 = 0; i0 < a; i0 += CS_TILE)                                            \
            for (int64_t j0 = 0; j0 < b; j0 += CS_TILE) {                                      \
                const int64_t i1 = i0 + CS_TILE < a ? i0 + CS_TILE : a;                        \
                const int64_t j1 = j0 + CS_TILE < b ? j0 + CS_TILE : b;                        \
                for (int64_t i = i0; i < i1; i++) {                                            \
                    T *d = (T *)dst + d0 + i * ds;                                             \
                    const T *sp = (const T *)src + s0 + i;                                     \
                    for (int64_t j = j0; j < j1; j++) d[j] = sp[j * ss];                       \
                }                                                                              \
            }                                                                                  \
    }
CS_SIZES(CS_FNS)

void osc_sh_copy_strided(void *dst, const void *src, unsigned bits, int32_t rank,
                         const int64_t *dims, const int64_t *stride, int64_t off) {
    int64_t nd[2 * OSC_MAX_RANK], ns[2 * OSC_MAX_RANK], os[2 * OSC_MAX_RANK];
    int64_t idx[2 * OSC_MAX_RANK];
    int32_t r = 0;
    /* Drop size-1 dims and merge a dim into the one before it when they walk the source
     * contiguously, so runs get long (a Slice of whole rows is one copy per row). */
    for (int32_t d = 0; d < rank; d++) {
        if (dims[d] == 0) return;
        if (dims[d] == 1) continue;
        if (r > 0 && ns[r - 1] == stride[d] * dims[d]) {
            nd[r - 1] *= dims[d];
            ns[r - 1] = stride[d];
        } else {
            nd[r] = dims[d];
            ns[r++] = stride[d];
        }
    }
    if (r == 0) {
        osc_copy_elems(dst, 0, src, off, 1, bits);
        return;
    }
    const int64_t n_in = nd[r - 1], s_in = ns[r - 1];
    const size_t esize = bits / 8;
    const bool typed = bits == 8 || bits == 16 || bits == 32 || bits == 64;
    /* a strided innermost dim and an outer one the source walks contiguously: tiles of the
     * two (a transpose) */
    int32_t t = -1;
    for (int32_t d = 0; d < r - 1 && s_in != 1 && typed; d++)
        if (ns[d] == 1) t = d;
    os[r - 1] = 1;
    for (int32_t d = r - 2; d >= 0; d--) os[d] = os[d + 1] * nd[d + 1];
    const int64_t ta = t >= 0 ? nd[t] : 1, tds = t >= 0 ? os[t] : 0; /* the tile's rows */
    int64_t o = 0, cur = off;
    for (int32_t d = 0; d < r - 1; d++) idx[d] = 0;
    for (;;) {
        if (s_in != 1 && typed) { /* a tile of dims t and the last, or a run of the last */
            switch (esize) {
#define CS_TILE_CASE(N, T)                                                                     \
    case N: tile_##N(dst, o, tds, src, cur, s_in, ta, n_in); break;
                CS_SIZES(CS_TILE_CASE)
#undef CS_TILE_CASE
            }
        } else if (s_in == 1) {
            osc_copy_elems(dst, o, src, cur, n_in, bits);
        } else if (bits >= 8) {
            char *dp = (char *)dst + (size_t)o * esize;
            for (int64_t j = 0; j < n_in; j++, dp += esize)
                memcpy(dp, (const char *)src + (size_t)(cur + j * s_in) * esize, esize);
        } else {
            for (int64_t j = 0; j < n_in; j++)
                osc_copy_elems(dst, o + j, src, cur + j * s_in, 1, bits);
        }
        int32_t d = r - 2;
        for (; d >= 0; d--) { /* the next outer position (the tile's dim t stands still) */
            if (d == t) continue;
            cur += ns[d], o += os[d];
            if (++idx[d] < nd[d]) break;
            cur -= ns[d] * nd[d], o -= os[d] * nd[d];
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

osc_status osc_sh_infer_with(osc_kctx *k, osc_sh_geometry_fn g, const osc_tensor *const *in,
                             int32_t n_in, osc_tensor *out, int32_t n_out) {
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    return g(k, in, n_in, &out[0], NULL);
}

osc_status osc_sh_run_checks(osc_kctx *k, osc_sh_geometry_fn g, const osc_tensor *const *in,
                             int32_t n_in, osc_tensor *out, int32_t n_out, osc_tensor *want,
                             void *aux) {
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = g(k, in, n_in, want, aux);
    if (!st) st = osc_sh_check_out(k, 0, &out[0], want);
    if (!st) st = osc_sh_check_inputs(k, in, n_in);
    return st;
}
