/* nonzero.c: NonZero-9/13: the coordinates of the non-zero elements, one column each. */
#include <string.h>

#include "core/dtype.h"
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_nonzero)

/* numpy's truth value, per type class: NaN is non-zero, -0.0 is zero (float16/bfloat16: any
 * bit but the sign), a string is non-zero when non-empty, a complex number when either part
 * is. False for a dtype outside OSC_STD_TYPES (geometry admits none). */
#define NZ_FLOAT(T, x) ((x) != 0)
#define NZ_F16(T, x) (((x) & 0x7fffu) != 0)
#define NZ_BF16(T, x) (((x) & 0x7fffu) != 0)
#define NZ_SINT(T, x) ((x) != 0)
#define NZ_UINT(T, x) ((x) != 0)
#define NZ_BOOL(T, x) ((x) != 0)
#define NZ_STRING(T, x) ((x).len != 0)
#define NZ_COMPLEX(T, x) ((x).re != 0 || (x).im != 0)
static bool nonzero_at(const osc_tensor *t, int64_t i) {
    const void *p = t->data;
#define NZ_CASE(E, T, CLS)                                                                    \
    case E: return NZ_##CLS(T, ((const T *)p)[i]);
    switch (t->dtype) {
        OSC_STD_TYPES(NZ_CASE)
    default: return false;
    }
#undef NZ_CASE
}

osc_status osc_nonzero_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    static const char *const none[] = {NULL};
    return osc_attr_known(k, node, none);
}

/* [rank, count of non-zeros]: depends on the data, so infer reads it (infer_reads bit 0). A
 * scalar gives [0, n] as the spec says, not numpy's [1, n]. */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    (void)aux; /* none */
    int64_t count, nnz = 0;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "X", &count);
    if (!st) st = osc_sh_need_data(k, 0, "X", in[0]);
    if (st) return st;
    for (int64_t i = 0; i < count; i++) nnz += nonzero_at(in[0], i);
    memset(o, 0, sizeof *o);
    o->dtype = OSC_INT64;
    o->rank = 2;
    o->dims[0] = in[0]->rank;
    o->dims[1] = nnz;
    return OSC_OK;
}

static osc_status write_indices(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                osc_tensor *out, const osc_tensor *want,
                                const osc_sh_none *aux) {
    (void)aux, (void)k, (void)n_in;
    const osc_tensor *x = in[0];
    const int32_t r = x->rank;
    const int64_t nnz = want->dims[1], count = osc_tensor_count(x);
    int64_t idx[OSC_MAX_RANK] = {0}, j = 0, *o = out[0].data;
    if (r == 0 || nnz == 0) return OSC_OK; /* no rows or no columns */
    for (int64_t i = 0; i < count; i++) {
        if (nonzero_at(x, i)) {
            for (int32_t d = 0; d < r; d++) o[d * nnz + j] = idx[d];
            j++;
        }
        for (int32_t d = r - 1; d >= 0 && ++idx[d] == x->dims[d]; d--) idx[d] = 0;
    }
    return OSC_OK;
}

OSC_SH_KERNEL(osc_nonzero, geometry, write_indices)
