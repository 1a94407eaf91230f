/* argmax.c: ArgMax-1/11/12/13: the index of the largest element along an axis. */
#include <math.h>
#include <string.h>

#include "../runtime/core/dtype.h"
#include "shape_ops.h"

osc_status osc_argmax_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    static const char *const v1[] = {"axis", "keepdims", NULL};
    static const char *const v12[] = {"axis", "keepdims", "select_last_index", NULL};
    int64_t axis;
    osc_status st = osc_attr_known(k, node, k->since_version >= 12 ? v12 : v1);
    if (!st) st = osc_attr_int(k, node, "axis", 0, &axis);
    if (!st) st = osc_sh_attr_bool(k, node, "keepdims");
    if (!st) st = osc_sh_attr_bool(k, node, "select_last_index");
    return st;
}

static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, int32_t *axis) {
    int64_t count;
    uint32_t types = OSC_SH_NUMERIC | (k->since_version >= 13 ? OSC_SH_BIT(OSC_BFLOAT16) : 0);
    osc_status st = osc_sh_need(k, in, n_in, 0, "data");
    if (!st) st = osc_sh_check_type(k, 0, "data", in[0], types);
    if (!st) st = osc_sh_count(k, 0, "data", in[0], &count);
    if (st) return st;
    const osc_tensor *x = in[0];
    /* negative axes are accepted in every version (the text adds them at 11) */
    if ((st = osc_norm_axis(k, osc_sh_attr_i(k->node, "axis", 0), x->rank, axis))) return st;
    bool keep = osc_sh_attr_i(k->node, "keepdims", 1) != 0;
    memset(o, 0, sizeof *o);
    o->dtype = OSC_INT64;
    for (int32_t d = 0; d < x->rank; d++)
        if (d != *axis) o->dims[o->rank++] = x->dims[d];
        else if (keep) o->dims[o->rank++] = 1;
    if (x->dims[*axis] == 0 && osc_tensor_count(o) > 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) has size 0 along axis %d; an "
                         "empty set has no largest element", osc_kinput_name(k, 0), (int)*axis);
    return OSC_OK;
}

osc_status osc_argmax_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, int32_t n_out) {
    int32_t axis;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    return geometry(k, in, n_in, &out[0], &axis);
}

/* numpy's order: NaN is larger than everything (the first NaN wins, or the last one with
 * select_last_index); otherwise the first (or last) of equal maxima. */
#define GT_INT(a, b) ((a) > (b))
#define EQ_INT(a, b) ((a) == (b))
#define GT_FLT(a, b) ((a) > (b) || (isnan(a) && !isnan(b)))
#define EQ_FLT(a, b) ((a) == (b) || (isnan(a) && isnan(b)))
#define ARGMAX_LOOP(T, LOAD, GT, EQ)                                                          \
    for (int64_t o = 0; o < outer; o++)                                                       \
        for (int64_t j = 0; j < inner; j++) {                                                 \
            const int64_t base = o * n * inner + j;                                           \
            T best = LOAD(base);                                                              \
            int64_t bi = 0;                                                                   \
            for (int64_t q = 1; q < n; q++) {                                                 \
                T v = LOAD(base + q * inner);                                                 \
                if (GT(v, best) || (last && EQ(v, best))) {                                   \
                    best = v;                                                                 \
                    bi = q;                                                                   \
                }                                                                             \
            }                                                                                 \
            y[o * inner + j] = bi;                                                            \
        }

osc_status osc_argmax_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    int32_t axis;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = geometry(k, in, n_in, &want, &axis);
    if (!st) st = osc_sh_check_out(k, 0, &out[0], &want);
    if (!st) st = osc_sh_check_inputs(k, in, n_in);
    if (st || osc_tensor_count(&want) == 0) return st;
    /* non-empty output and (geometry) a non-empty axis: the input is non-empty */
    const osc_tensor *x = in[0];
    const int64_t outer = osc_dims_prod(x->dims, axis), n = x->dims[axis];
    const int64_t inner = osc_dims_prod(x->dims + axis + 1, x->rank - axis - 1);
    const bool last = osc_sh_attr_i(k->node, "select_last_index", 0) != 0;
    const void *xp = x->data;
    int64_t *y = out[0].data;
#define LD_I8(p) (((const int8_t *)xp)[p])
#define LD_I16(p) (((const int16_t *)xp)[p])
#define LD_I32(p) (((const int32_t *)xp)[p])
#define LD_I64(p) (((const int64_t *)xp)[p])
#define LD_U8(p) (((const uint8_t *)xp)[p])
#define LD_U16(p) (((const uint16_t *)xp)[p])
#define LD_U32(p) (((const uint32_t *)xp)[p])
#define LD_U64(p) (((const uint64_t *)xp)[p])
#define LD_F(p) (((const float *)xp)[p])
#define LD_D(p) (((const double *)xp)[p])
#define LD_H(p) (osc_f16_to_f32(((const uint16_t *)xp)[p]))
#define LD_B(p) (osc_bf16_to_f32(((const uint16_t *)xp)[p]))
    switch (x->dtype) {
    case OSC_INT8: ARGMAX_LOOP(int8_t, LD_I8, GT_INT, EQ_INT) break;
    case OSC_INT16: ARGMAX_LOOP(int16_t, LD_I16, GT_INT, EQ_INT) break;
    case OSC_INT32: ARGMAX_LOOP(int32_t, LD_I32, GT_INT, EQ_INT) break;
    case OSC_INT64: ARGMAX_LOOP(int64_t, LD_I64, GT_INT, EQ_INT) break;
    case OSC_UINT8: ARGMAX_LOOP(uint8_t, LD_U8, GT_INT, EQ_INT) break;
    case OSC_UINT16: ARGMAX_LOOP(uint16_t, LD_U16, GT_INT, EQ_INT) break;
    case OSC_UINT32: ARGMAX_LOOP(uint32_t, LD_U32, GT_INT, EQ_INT) break;
    case OSC_UINT64: ARGMAX_LOOP(uint64_t, LD_U64, GT_INT, EQ_INT) break;
    case OSC_FLOAT: ARGMAX_LOOP(float, LD_F, GT_FLT, EQ_FLT) break;
    case OSC_DOUBLE: ARGMAX_LOOP(double, LD_D, GT_FLT, EQ_FLT) break;
    case OSC_FLOAT16: ARGMAX_LOOP(float, LD_H, GT_FLT, EQ_FLT) break;
    default: ARGMAX_LOOP(float, LD_B, GT_FLT, EQ_FLT) break;
    }
    return OSC_OK;
}
