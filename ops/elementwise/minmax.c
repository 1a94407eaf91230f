/* minmax.c: Min and Max (variadic, 1..N inputs): Min/Max-6 same shapes, 8+ broadcasting. */
#include "ew_ops.h"
#include "variadic.h"

OSC_KERNEL_DECLARE(osc_minmax)

/* numpy maximum/minimum: keep x when x >= y (or x is NaN), else y, so a NaN on either side wins
 * and x is kept when the two compare equal. float16/bfloat16 compare the widened values and
 * keep the original bits (no rounding happens). */
#define S_INT_MAX(T, x, y) ((x) >= (y) ? (x) : (y))
#define S_INT_MIN(T, x, y) ((x) <= (y) ? (x) : (y))
#define S_FLOAT_MAX(T, x, y) (((x) >= (y) || (x) != (x)) ? (x) : (y))
#define S_FLOAT_MIN(T, x, y) (((x) <= (y) || (x) != (x)) ? (x) : (y))

static inline uint16_t h_max(uint16_t x, uint16_t y) {
    float a = OSC_H2F(x), b = OSC_H2F(y);
    return (a >= b || a != a) ? x : y;
}
static inline uint16_t h_min(uint16_t x, uint16_t y) {
    float a = OSC_H2F(x), b = OSC_H2F(y);
    return (a <= b || a != a) ? x : y;
}
static inline uint16_t b_max(uint16_t x, uint16_t y) {
    float a = OSC_B2F(x), b = OSC_B2F(y);
    return (a >= b || a != a) ? x : y;
}
static inline uint16_t b_min(uint16_t x, uint16_t y) {
    float a = OSC_B2F(x), b = OSC_B2F(y);
    return (a <= b || a != a) ? x : y;
}
#define S_F16_MAX(T, x, y) h_max(x, y)
#define S_F16_MIN(T, x, y) h_min(x, y)
#define S_BF16_MAX(T, x, y) b_max(x, y)
#define S_BF16_MIN(T, x, y) b_min(x, y)
#define S_SINT_MAX S_INT_MAX
#define S_SINT_MIN S_INT_MIN
#define S_UINT_MAX S_INT_MAX
#define S_UINT_MIN S_INT_MIN

#define DEF(E, T, CLS) \
    OSC_EW_LOOP2(mm_##E##_MAX, T, T, S_##CLS##_MAX(T, x, y)) \
    OSC_EW_LOOP2(mm_##E##_MIN, T, T, S_##CLS##_MIN(T, x, y))
#define DEFINE_FLOAT DEF
#define DEFINE_F16 DEF
#define DEFINE_BF16 DEF
#define DEFINE_SINT DEF
#define DEFINE_UINT DEF
#define DEFINE_BOOL(E, T, CLS)
#define DEFINE_STRING(E, T, CLS)
#define DEFINE_COMPLEX(E, T, CLS)
#define DEFINE(E, T, CLS) DEFINE_##CLS(E, T, CLS)
OSC_STD_TYPES(DEFINE)

/* Each class's loops by operation (ew_ops.h); NULL where the class has none. */
#define TAB_ANY(E) {[OSC_MINMAX_MIN] = mm_##E##_MIN, [OSC_MINMAX_MAX] = mm_##E##_MAX}
#define TAB_FLOAT TAB_ANY
#define TAB_F16 TAB_ANY
#define TAB_BF16 TAB_ANY
#define TAB_SINT TAB_ANY
#define TAB_UINT TAB_ANY
#define TAB_BOOL(E) {NULL}
#define TAB_STRING(E) {NULL}
#define TAB_COMPLEX(E) {NULL}

/* op: OSC_MINMAX_MIN or OSC_MINMAX_MAX */
static osc_ew_loop2 loop_get(int32_t dtype, int32_t op) {
#define CASE(E, T, CLS)                                                  \
    case E: {                                                            \
        static const osc_ew_loop2 fns[OSC_MINMAX_END] = TAB_##CLS(E);    \
        return fns[op];                                                  \
    }
    switch (dtype) {
        OSC_STD_TYPES(CASE)
        default: return NULL;
    }
#undef CASE
}

osc_status osc_minmax_init(osc_kctx *k, const osc_node *node, void **params) {
    return osc_variadic_init(k, node, OSC_MINMAX_MIN, OSC_MINMAX_END, params);
}

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, osc_ew_loop2 *loop) {
    const osc_variadic_params *p = k->params;
    osc_status st = osc_variadic_shape(k, in, n_in, want);
    if (st) return st;
    *loop = loop_get(in[0]->dtype, p->op);
    if (!*loop)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "no %s loop for dtype %s", k->node->op_type,
                         osc_dtype_get(in[0]->dtype)->name);
    return OSC_OK;
}

OSC_INFER_OUT0_AUX(osc_minmax, validate, osc_ew_loop2)

osc_status osc_minmax_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    osc_ew_loop2 loop;
    osc_status st = validate(k, in, n_in, &want, &loop);
    if (!st) st = osc_ew_check_io(k, in, n_in, NULL, out, n_out, &want);
    if (st) return st;
    /* out = data_0 broadcast, then out = op(out, data_i) for each further input, in order
     * (numpy's reduce over np.maximum/np.minimum). The iterator's input 0 is out itself. */
    osc_bcast_copy(out, in[0], osc_dtype_get(in[0]->dtype)->bits / 8);
    for (int32_t i = 1; i < n_in; i++) {
        osc_bcast_it it;
        const osc_tensor *pair[2] = {out, in[i]};
        if (!osc_bcast_begin(&it, out, 2, pair)) break;
        loop(&it, out->data, out->data, in[i]->data);
    }
    return OSC_OK;
}
