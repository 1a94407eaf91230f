/* cumsum.c: CumSum-11/14: running sums along an axis (exclusive, reverse). */
#include <string.h>

#include "../runtime/core/dtype.h"
#include "shape_ops.h"

osc_status osc_cumsum_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    static const char *const known[] = {"exclusive", "reverse", NULL};
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_sh_attr_bool(k, node, "exclusive");
    if (!st) st = osc_sh_attr_bool(k, node, "reverse");
    return st;
}

static uint32_t cumsum_types(int64_t ver) {
    uint32_t m = OSC_SH_BIT(OSC_UINT32) | OSC_SH_BIT(OSC_UINT64) | OSC_SH_BIT(OSC_INT32) |
                 OSC_SH_BIT(OSC_INT64) | OSC_SH_BIT(OSC_FLOAT) | OSC_SH_BIT(OSC_DOUBLE);
    if (ver >= 14) m |= OSC_SH_BIT(OSC_FLOAT16) | OSC_SH_BIT(OSC_BFLOAT16);
    return m;
}

/* The output is shaped like x whatever the axis, so infer never reads axis (no infer_reads
 * bit); run reads and checks it. */
static osc_status check_inputs(osc_kctx *k, const osc_tensor *const *in, int32_t n_in) {
    char buf[256];
    int64_t count;
    osc_status st = osc_sh_need(k, in, n_in, 0, "x");
    if (!st) st = osc_sh_need(k, in, n_in, 1, "axis");
    if (!st) st = osc_sh_check_type(k, 0, "x", in[0], cumsum_types(k->since_version));
    if (!st) st = osc_sh_count(k, 0, "x", in[0], &count);
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

/* One loop per arithmetic: ACC is the running sum's type, LOAD reads x[p] into ACC, ADD adds,
 * STORE writes an ACC to y[p]. x[p] is read before y[p] is written, so in place is safe. */
#define CUMSUM_LOOP(ACC, LOAD, ADD, STORE)                                                    \
    for (int64_t o = 0; o < outer; o++)                                                       \
        for (int64_t j = 0; j < inner; j++) {                                                 \
            ACC acc = 0;                                                                      \
            for (int64_t q = 0; q < n; q++) {                                                 \
                int64_t p = (o * n + (rev ? n - 1 - q : q)) * inner + j;                      \
                ACC v = LOAD(p);                                                              \
                if (excl) {                                                                   \
                    STORE(p, acc);                                                            \
                    acc = ADD(acc, v);                                                        \
                } else { /* from the first element, so a lone -0.0 stays -0.0 */              \
                    acc = q ? ADD(acc, v) : v;                                                \
                    STORE(p, acc);                                                            \
                }                                                                             \
            }                                                                                 \
        }

osc_status osc_cumsum_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
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
    const bool excl = osc_sh_attr_i(k->node, "exclusive", 0) != 0;
    const bool rev = osc_sh_attr_i(k->node, "reverse", 0) != 0;
    const void *xp = x->data;
    void *yp = out[0].data;
    /* integers wrap (unsigned arithmetic, then the two's complement bits); float16/bfloat16
     * keep the running sum in their own type, rounding after every addition as numpy's
     * cumsum does; the sum is held in float between steps, which is exact for those values */
#define ADD_(s, v) ((s) + (v))
#define LD_U32(p) ((uint64_t)((const uint32_t *)xp)[p])
#define ST_U32(p, s) (((uint32_t *)yp)[p] = (uint32_t)(s))
#define LD_I32(p) ((uint64_t)(int64_t)((const int32_t *)xp)[p])
#define ST_I32(p, s) (((int32_t *)yp)[p] = (int32_t)(uint32_t)(s))
#define LD_U64(p) (((const uint64_t *)xp)[p])
#define ST_U64(p, s) (((uint64_t *)yp)[p] = (s))
#define LD_I64(p) ((uint64_t)((const int64_t *)xp)[p])
#define ST_I64(p, s) (((int64_t *)yp)[p] = (int64_t)(s))
#define LD_F(p) (((const float *)xp)[p])
#define ST_F(p, s) (((float *)yp)[p] = (s))
#define LD_D(p) (((const double *)xp)[p])
#define ST_D(p, s) (((double *)yp)[p] = (s))
#define LD_H(p) (osc_f16_to_f32(((const uint16_t *)xp)[p]))
#define ADD_H(s, v) (osc_f16_to_f32(osc_f32_to_f16((s) + (v))))
#define ST_H(p, s) (((uint16_t *)yp)[p] = osc_f32_to_f16(s))
#define LD_B(p) (osc_bf16_to_f32(((const uint16_t *)xp)[p]))
#define ADD_B(s, v) (osc_bf16_to_f32(osc_f32_to_bf16((s) + (v))))
#define ST_B(p, s) (((uint16_t *)yp)[p] = osc_f32_to_bf16(s))
    switch (x->dtype) {
    case OSC_UINT32: CUMSUM_LOOP(uint64_t, LD_U32, ADD_, ST_U32) break;
    case OSC_INT32: CUMSUM_LOOP(uint64_t, LD_I32, ADD_, ST_I32) break;
    case OSC_UINT64: CUMSUM_LOOP(uint64_t, LD_U64, ADD_, ST_U64) break;
    case OSC_INT64: CUMSUM_LOOP(uint64_t, LD_I64, ADD_, ST_I64) break;
    case OSC_FLOAT: CUMSUM_LOOP(float, LD_F, ADD_, ST_F) break;
    case OSC_DOUBLE: CUMSUM_LOOP(double, LD_D, ADD_, ST_D) break;
    case OSC_FLOAT16: CUMSUM_LOOP(float, LD_H, ADD_H, ST_H) break;
    default: CUMSUM_LOOP(float, LD_B, ADD_B, ST_B) break;
    }
    return OSC_OK;
}
