/* cumsum.c: CumSum-11/14 and CumProd-26: running sums or products along an axis (exclusive,
 * reverse); the row's variant picks the operation (OSC_CUM_*). */
#include <string.h>

#include "core/dtype.h"
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_cumsum)

/* The rows' variants (ops/reduce/rows.def). */
enum { OSC_CUM_SUM = 0, OSC_CUM_PROD = 1 };

/* Attributes init parses. */
typedef struct cumsum_params {
    bool exclusive, reverse;
} cumsum_params;

osc_status osc_cumsum_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"exclusive", "reverse", NULL};
    bool excl, rev;
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_sh_attr_bool(k, node, "exclusive", false, &excl);
    if (!st) st = osc_sh_attr_bool(k, node, "reverse", false, &rev);
    cumsum_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->exclusive = excl;
    p->reverse = rev;
    *params = p;
    return OSC_OK;
}

/* The output is shaped like x whatever the axis, so infer never reads axis (no infer_reads
 * bit); run reads and checks it. */
static osc_status check_inputs(osc_kctx *k, const osc_tensor *const *in, int32_t n_in) {
    char buf[256];
    int64_t count;
    osc_status st = osc_sh_need(k, in, n_in, 0, "x");
    if (!st) st = osc_sh_need(k, in, n_in, 1, "axis");
    if (!st) st = osc_sh_check_type(k, 0, "x", in[0], osc_kernel_types(k->row, 0));
    if (!st) st = osc_check_count(k, 0, "x", in[0], &count);
    if (!st) st = osc_check_index_dtype(k, 1, "axis", in[1], true);
    if (st) return st;
    /* a scalar; a one-element rank-1 tensor is accepted as onnxruntime does */
    if (in[1]->rank > 1 || (in[1]->rank == 1 && in[1]->dims[0] != 1))
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'axis' (%s) has shape %s; expected a scalar",
                         osc_kinput_name(k, 1), osc_shape_str(in[1], buf, sizeof buf));
    return OSC_OK;
}

osc_status osc_cumsum_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, int32_t n_out) {
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = check_inputs(k, in, n_in);
    if (!st) osc_same_shape(&out[0], in[0]);
    return st;
}

/* One loop per type and operation: ACC is the running value's type, LD reads x[p] into ACC,
 * OP is ADD or MUL (ID its identity, 0 or 1, what an exclusive scan writes first), ST writes
 * an ACC to y[p]. x[p] is read before y[p] is written, so in place is safe. */
#define CUM_LOOP(T, CLS, OP, ID)                                                              \
    for (int64_t o = 0; o < outer; o++)                                                       \
        for (int64_t j = 0; j < inner; j++) {                                                 \
            ACC_##CLS(T) acc = ID;                                                            \
            for (int64_t q = 0; q < n; q++) {                                                 \
                int64_t p = (o * n + (rev ? n - 1 - q : q)) * inner + j;                      \
                ACC_##CLS(T) v = LD_##CLS(T, p);                                              \
                if (excl) {                                                                   \
                    ST_##CLS(T, p, acc);                                                      \
                    acc = OP##_##CLS(acc, v);                                                 \
                } else { /* from the first element, so a lone -0.0 stays -0.0 */              \
                    acc = q ? OP##_##CLS(acc, v) : v;                                         \
                    ST_##CLS(T, p, acc);                                                      \
                }                                                                             \
            }                                                                                 \
        }

/* Per type class: integers wrap (unsigned arithmetic, then the two's complement bits);
 * float16/bfloat16 keep the running value in their own type, rounding after every step as
 * numpy's cumsum and cumprod do; it is held in float between steps, which is exact for those
 * values. */
#define ACC_FLOAT(T) T
#define ACC_F16(T) float
#define ACC_BF16(T) float
#define ACC_SINT(T) uint64_t
#define ACC_UINT(T) uint64_t
#define LD_FLOAT(T, p) (((const T *)xp)[p])
#define LD_F16(T, p) (osc_f16_to_f32(((const T *)xp)[p]))
#define LD_BF16(T, p) (osc_bf16_to_f32(((const T *)xp)[p]))
#define LD_SINT(T, p) ((uint64_t)(int64_t)((const T *)xp)[p])
#define LD_UINT(T, p) ((uint64_t)((const T *)xp)[p])
#define ADD_FLOAT(s, v) ((s) + (v))
#define ADD_F16(s, v) (osc_f16_to_f32(osc_f32_to_f16((s) + (v))))
#define ADD_BF16(s, v) (osc_bf16_to_f32(osc_f32_to_bf16((s) + (v))))
#define ADD_SINT(s, v) ((s) + (v))
#define ADD_UINT(s, v) ((s) + (v))
#define MUL_FLOAT(s, v) ((s) * (v))
#define MUL_F16(s, v) (osc_f16_to_f32(osc_f32_to_f16((s) * (v))))
#define MUL_BF16(s, v) (osc_bf16_to_f32(osc_f32_to_bf16((s) * (v))))
#define MUL_SINT(s, v) ((s) * (v))
#define MUL_UINT(s, v) ((s) * (v))
#define ST_FLOAT(T, p, s) (((T *)yp)[p] = (s))
#define ST_F16(T, p, s) (((T *)yp)[p] = osc_f32_to_f16(s))
#define ST_BF16(T, p, s) (((T *)yp)[p] = osc_f32_to_bf16(s))
#define ST_SINT(T, p, s) (((T *)yp)[p] = (T)(s))
#define ST_UINT(T, p, s) (((T *)yp)[p] = (T)(s))

osc_status osc_cumsum_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    const cumsum_params *prm = k->params;
    osc_tensor want;
    int64_t a;
    int32_t axis;
    osc_status st = osc_cumsum_infer(k, in, n_in, &want, n_out);
    if (!st) st = osc_sh_check_out(k, 0, &out[0], &want);
    if (!st) st = osc_sh_check_inputs(k, in, n_in);
    if (st) return st;
    const osc_tensor *x = in[0];
    const int32_t r = x->rank;
    a = osc_index_at(in[1], 0);
    if (a < -(int64_t)r || a >= r)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'axis' (%s): value %lld is out of range "
                         "[%d, %d] for input 0 'x' of rank %d", osc_kinput_name(k, 1),
                         (long long)a, -r, r - 1, (int)r);
    axis = (int32_t)(a < 0 ? a + r : a);
    if (osc_tensor_count(x) == 0) return OSC_OK;
    const int64_t outer = osc_dims_prod(x->dims, axis), n = x->dims[axis];
    const int64_t inner = osc_dims_prod(x->dims + axis + 1, r - axis - 1);
    const bool excl = prm->exclusive, rev = prm->reverse, prod = k->row->variant == OSC_CUM_PROD;
    const void *xp = x->data;
    void *yp = out[0].data;
#define CUM_CASE(E, T, CLS)                                                                   \
    case E:                                                                                   \
        if (prod) CUM_LOOP(T, CLS, MUL, 1) else CUM_LOOP(T, CLS, ADD, 0)                     \
        break;
    switch (x->dtype) {
        OSC_REAL_TYPES(CUM_CASE)
    default: /* infer admitted only real number types */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'x' has dtype %s",
                         osc_dtype_get(x->dtype)->name);
    }
#undef CUM_CASE
    return OSC_OK;
}
