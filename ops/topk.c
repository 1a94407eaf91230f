/* topk.c: TopK-1/10/11/24: the K largest (or smallest) elements along an axis and their
 * indices; two outputs. */
#include <math.h>
#include <string.h>

#include "../runtime/core/dtype.h"
#include "shape_ops.h"

osc_status osc_topk_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    static const char *const v1[] = {"axis", "k", NULL};
    static const char *const v10[] = {"axis", NULL};
    static const char *const v11[] = {"axis", "largest", "sorted", NULL};
    int64_t ver = k->since_version, v;
    osc_status st = osc_attr_known(k, node, ver >= 11 ? v11 : ver >= 10 ? v10 : v1);
    if (!st) st = osc_attr_int(k, node, "axis", -1, &v);
    if (!st) st = osc_sh_attr_bool(k, node, "largest");
    if (!st) st = osc_sh_attr_bool(k, node, "sorted");
    if (!st && ver < 10 && !osc_node_attr(node, "k"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'k' is required but missing");
    if (!st) st = osc_attr_int(k, node, "k", 0, &v);
    return st;
}

static uint32_t topk_types(int64_t ver) {
    if (ver < 11) return OSC_SH_FLOAT3;
    return OSC_SH_NUMERIC | (ver >= 24 ? OSC_SH_BIT(OSC_BFLOAT16) : 0);
}

/* Both outputs are X's shape with K along axis; K is the attribute before 10, input 1's value
 * from 10 (infer_reads bit 1). */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, int32_t *axis, int64_t *kk) {
    char buf[256];
    int64_t count, kv[1];
    int32_t n = 0;
    osc_status st = osc_sh_need(k, in, n_in, 0, "X");
    if (!st) st = osc_sh_check_type(k, 0, "X", in[0], topk_types(k->since_version));
    if (!st) st = osc_sh_count(k, 0, "X", in[0], &count);
    if (st) return st;
    const osc_tensor *x = in[0];
    if ((st = osc_norm_axis(k, osc_sh_attr_i(k->node, "axis", -1), x->rank, axis))) return st;
    const char *what = "attribute 'k'";
    if (k->since_version < 10) {
        kv[0] = osc_sh_attr_i(k->node, "k", 0);
    } else {
        what = "input 1 'K'";
        st = osc_sh_need(k, in, n_in, 1, "K");
        if (!st) st = osc_check_index_dtype(k, 1, "K", in[1], false);
        if (!st && osc_tensor_count(in[1]) != 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'K' (%s) has shape %s; expected one "
                             "value", osc_kinput_name(k, 1), osc_shape_str(in[1], buf, sizeof buf));
        if (!st) st = osc_sh_read_ints(k, 1, "K", in[1], false, true, 1, kv, &n);
        if (st) return st;
    }
    /* K = 0 (empty outputs) is accepted, as onnxruntime does; the text says positive */
    if (kv[0] < 0 || kv[0] > x->dims[*axis])
        return osc_kfail(k, OSC_ERR_SHAPE, "%s = %lld is out of range [0, %lld] (the size of "
                         "axis %d of input 0 'X' (%s))", what, (long long)kv[0],
                         (long long)x->dims[*axis], (int)*axis, osc_kinput_name(k, 0));
    *kk = kv[0];
    osc_same_shape(&o[0], x);
    o[0].dims[*axis] = kv[0];
    osc_same_shape(&o[1], &o[0]);
    o[1].dtype = OSC_INT64;
    return OSC_OK;
}

osc_status osc_topk_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    int32_t axis;
    int64_t kk;
    if (n_out < 2) return osc_kfail(k, OSC_ERR_MODEL, "needs two outputs (Values, Indices)");
    return geometry(k, in, n_in, out, &axis, &kk);
}

/* Three-way comparison of elements a and b (element offsets): NaN above every number and
 * equal to NaN, as numpy's sort orders them; -0.0 equals +0.0. */
typedef int (*cmp_fn)(const void *x, int64_t a, int64_t b);
#define CMP_INT(NAME, T)                                                                      \
    static int NAME(const void *x, int64_t a, int64_t b) {                                    \
        T va = ((const T *)x)[a], vb = ((const T *)x)[b];                                     \
        return (va > vb) - (va < vb);                                                         \
    }
#define CMP_FLT(NAME, LOAD)                                                                   \
    static int NAME(const void *x, int64_t a, int64_t b) {                                    \
        double va = LOAD(x, a), vb = LOAD(x, b);                                              \
        if (isnan(va) || isnan(vb)) return isnan(va) - isnan(vb);                             \
        return (va > vb) - (va < vb);                                                         \
    }
#define LD_F(x, i) ((double)((const float *)(x))[i])
#define LD_D(x, i) (((const double *)(x))[i])
#define LD_H(x, i) ((double)osc_f16_to_f32(((const uint16_t *)(x))[i]))
#define LD_B(x, i) ((double)osc_bf16_to_f32(((const uint16_t *)(x))[i]))
CMP_INT(cmp_i8, int8_t)
CMP_INT(cmp_i16, int16_t)
CMP_INT(cmp_i32, int32_t)
CMP_INT(cmp_i64, int64_t)
CMP_INT(cmp_u8, uint8_t)
CMP_INT(cmp_u16, uint16_t)
CMP_INT(cmp_u32, uint32_t)
CMP_INT(cmp_u64, uint64_t)
CMP_FLT(cmp_f, LD_F)
CMP_FLT(cmp_d, LD_D)
CMP_FLT(cmp_h, LD_H)
CMP_FLT(cmp_b, LD_B)

static cmp_fn cmp_for(int32_t dtype) {
    switch (dtype) {
    case OSC_INT8: return cmp_i8;
    case OSC_INT16: return cmp_i16;
    case OSC_INT32: return cmp_i32;
    case OSC_INT64: return cmp_i64;
    case OSC_UINT8: return cmp_u8;
    case OSC_UINT16: return cmp_u16;
    case OSC_UINT32: return cmp_u32;
    case OSC_UINT64: return cmp_u64;
    case OSC_FLOAT: return cmp_f;
    case OSC_DOUBLE: return cmp_d;
    case OSC_FLOAT16: return cmp_h;
    default: return cmp_b;
    }
}

/* Stable bottom-up merge sort of v[0..n) (element offsets, ascending axis index) so that the
 * preferred element comes first; ties keep the lower index first. sign is 1 for largest. */
static void sort_offsets(int64_t *v, int64_t *tmp, int64_t n, const void *x, cmp_fn cmp,
                         int sign) {
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) /* take the right one only when strictly preferred */
                tmp[o++] = sign * cmp(x, v[j], v[i]) > 0 ? v[j++] : v[i++];
            while (i < mid) tmp[o++] = v[i++];
            while (j < hi) tmp[o++] = v[j++];
        }
        memcpy(v, tmp, (size_t)n * sizeof *v);
    }
}

osc_status osc_topk_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                        osc_tensor *out, int32_t n_out) {
    osc_tensor want[2];
    int32_t axis;
    int64_t kk;
    if (n_out < 2) return osc_kfail(k, OSC_ERR_MODEL, "needs two outputs (Values, Indices)");
    osc_status st = geometry(k, in, n_in, want, &axis, &kk);
    if (!st) st = osc_sh_check_out(k, 0, &out[0], &want[0]);
    if (!st) st = osc_sh_check_out(k, 1, &out[1], &want[1]);
    if (!st) st = osc_sh_check_inputs(k, in, n_in);
    if (st || osc_tensor_count(&want[0]) == 0) return st;
    /* non-empty outputs: X is non-empty, so these products are factors of its count */
    const osc_tensor *x = in[0];
    const int64_t outer = osc_dims_prod(x->dims, axis), n = x->dims[axis];
    const int64_t inner = osc_dims_prod(x->dims + axis + 1, x->rank - axis - 1);
    size_t bytes = 2 * (size_t)n * sizeof(int64_t);
    int64_t *v = k->alloc ? osc_malloc(k->alloc, bytes) : NULL;
    if (!v)
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes of sort scratch", bytes);
    /* sorted = 0 leaves the order unspecified: the sorted order is returned then too */
    const int sign = osc_sh_attr_i(k->node, "largest", 1) ? 1 : -1;
    const cmp_fn cmp = cmp_for(x->dtype);
    const size_t esize = osc_sh_bits(x->dtype) / 8;
    char *vals = out[0].data;
    int64_t *idx = out[1].data;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t j = 0; j < inner; j++) {
            const int64_t base = o * n * inner + j;
            for (int64_t q = 0; q < n; q++) v[q] = base + q * inner;
            sort_offsets(v, v + n, n, x->data, cmp, sign);
            for (int64_t q = 0; q < kk; q++) {
                int64_t dst = (o * kk + q) * inner + j;
                memcpy(vals + (size_t)dst * esize, (const char *)x->data + (size_t)v[q] * esize,
                       esize);
                idx[dst] = (v[q] - base) / inner;
            }
        }
    osc_free(k->alloc, v, bytes);
    return OSC_OK;
}
