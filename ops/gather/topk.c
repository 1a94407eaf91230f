/* topk.c: TopK-1/10/11/24: the K largest (or smallest) elements along an axis and their
 * indices; two outputs. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_topk)

/* Attributes init parses. */
typedef struct topk_params {
    int64_t axis;   /* as written; normalised by infer */
    int64_t k;      /* the attribute before 10 */
    bool largest;   /* from 11 (true before) */
    bool sorted;    /* from 11; sorted = 0 leaves the order unspecified: sorted either way */
} topk_params;

osc_status osc_topk_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const v1[] = {"axis", "k", NULL};
    static const char *const v10[] = {"axis", NULL};
    static const char *const v11[] = {"axis", "largest", "sorted", NULL};
    int64_t ver = k->since_version, axis, kv;
    bool largest, sorted;
    osc_status st = osc_attr_known(k, node, ver >= 11 ? v11 : ver >= 10 ? v10 : v1);
    if (!st) st = osc_attr_int(k, node, "axis", -1, &axis);
    if (!st) st = osc_sh_attr_bool(k, node, "largest", true, &largest);
    if (!st) st = osc_sh_attr_bool(k, node, "sorted", true, &sorted);
    if (!st && ver < 10 && !osc_node_attr(node, "k"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'k' is required but missing");
    if (!st) st = osc_attr_int(k, node, "k", 0, &kv);
    topk_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->axis = axis;
    p->k = kv;
    p->largest = largest;
    p->sorted = sorted;
    *params = p;
    return OSC_OK;
}

/* Both outputs are X's shape with K along axis; K is the attribute before 10, input 1's value
 * from 10 (infer_reads bit 1). */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, int32_t *axis, int64_t *kk) {
    const topk_params *p = k->params;
    char buf[256];
    int64_t count, kv[1];
    int32_t n = 0;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "X", &count);
    if (st) return st;
    const osc_tensor *x = in[0];
    if ((st = osc_norm_axis(k, p->axis, x->rank, axis))) return st;
    const char *what = "attribute 'k'";
    if (k->since_version < 10) {
        kv[0] = p->k;
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
/* Per type class: integers compare as themselves, floats as double (exact). */
#define CMP_INT(T)                                                                            \
    T va = ((const T *)x)[a], vb = ((const T *)x)[b];                                         \
    return (va > vb) - (va < vb);
#define CMP_FLT(T, LD)                                                                        \
    double va = LD(T, x, a), vb = LD(T, x, b);                                                \
    if (isnan(va) || isnan(vb)) return isnan(va) - isnan(vb);                                 \
    return (va > vb) - (va < vb);
#define LD_FLOAT(T, x, i) ((double)((const T *)(x))[i])
#define LD_F16(T, x, i) ((double)osc_f16_to_f32(((const T *)(x))[i]))
#define LD_BF16(T, x, i) ((double)osc_bf16_to_f32(((const T *)(x))[i]))
#define CMP_FLOAT(T) CMP_FLT(T, LD_FLOAT)
#define CMP_F16(T) CMP_FLT(T, LD_F16)
#define CMP_BF16(T) CMP_FLT(T, LD_BF16)
#define CMP_SINT(T) CMP_INT(T)
#define CMP_UINT(T) CMP_INT(T)
#define DEFINE_CMP(E, T, CLS)                                                                 \
    static int cmp_##E(const void *x, int64_t a, int64_t b) { CMP_##CLS(T) }
OSC_REAL_TYPES(DEFINE_CMP)

/* NULL for a dtype without a comparison (geometry admits none). */
static cmp_fn cmp_for(int32_t dtype) {
#define CMP_CASE(E, T, CLS)                                                                   \
    case E: return cmp_##E;
    switch (dtype) {
        OSC_REAL_TYPES(CMP_CASE)
    default: return NULL;
    }
#undef CMP_CASE
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
    const cmp_fn cmp = cmp_for(x->dtype);
    if (!cmp) /* geometry admitted only real number types */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'X' has dtype %s",
                         osc_dtype_get(x->dtype)->name);
    size_t bytes = 2 * (size_t)n * sizeof(int64_t);
    int64_t *v = k->alloc ? osc_malloc(k->alloc, bytes) : NULL;
    if (!v)
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes of sort scratch", bytes);
    const int sign = ((const topk_params *)k->params)->largest ? 1 : -1;
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
