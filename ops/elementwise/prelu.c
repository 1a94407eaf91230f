/* prelu.c: PRelu: y = x < 0 ? slope * x : x. From version 7 slope broadcasts to X's shape
 * (unidirectional: the output is X's shape); versions 1 and 6 take a slope of one element or
 * of X's exact shape. Integers (9 on) multiply wrapping modulo 2^bits; float16/bfloat16 compute
 * in float, rounded once per element. */
#include <string.h>

#include "math_common.h"

OSC_KERNEL_DECLARE(osc_prelu)

#define S_FLOAT(T, x, y) ((x) < 0 ? (T)((y) * (x)) : (x))
#define S_F16(T, x, y) ((T)(OSC_H2F(x) < 0 ? OSC_F2H(OSC_H2F(y) * OSC_H2F(x)) : (x)))
#define S_BF16(T, x, y) ((T)(OSC_B2F(x) < 0 ? OSC_F2B(OSC_B2F(y) * OSC_B2F(x)) : (x)))
#define S_SINT(T, x, y) ((x) < 0 ? (T)((uint64_t)(y) * (uint64_t)(x)) : (x))
#define S_UINT(T, x, y) ((void)(y), (x)) /* never below zero */

#define DEFINE(E, T, CLS) OSC_EW_LOOP2(prelu_##E, T, T, S_##CLS(T, x, y))
OSC_REAL_TYPES(DEFINE)

/* Per dtype; dtype is a valid number: the row's type set admitted it. */
#define ENTRY(E, T, CLS) [E] = prelu_##E,
static const osc_ew_loop2 k_loops[OSC_DTYPE_COUNT] = {OSC_REAL_TYPES(ENTRY)};

osc_status osc_prelu_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_none[] = {NULL};
    osc_status st = osc_attr_known_legacy(k, node, k_none, k->since_version == 1);
    if (st) return st;
    osc_mparams *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->types = osc_kernel_types(k->row, 0);
    *params = p;
    return OSC_OK;
}

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    const osc_mparams *p = k->params;
    osc_status st = osc_m_check_x(k, in, n_in, "X", p->types, 0, want);
    if (!st) st = osc_need_input(k, in, n_in, 1, "slope");
    if (!st) st = osc_check_same_dtype(k, 0, "X", in[0], 1, "slope", in[1]);
    if (st) return st;
    const osc_tensor *x = in[0], *s = in[1];
    char a[256], b[256];
    if (k->since_version < 7) {
        if (osc_tensor_count(s) != 1 &&
            (s->rank != x->rank || memcmp(s->dims, x->dims, (size_t)x->rank * sizeof x->dims[0])))
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'slope' (%s) has shape %s; before "
                             "version 7 it must have one element or X's shape %s",
                             osc_kinput_name(k, 1), osc_shape_str(s, a, sizeof a),
                             osc_shape_str(x, b, sizeof b));
    } else {
        osc_tensor acc = *want;
        st = osc_bcast_merge(k, &acc, 1, "slope", s);
        if (st) return st;
        if (acc.rank != x->rank || memcmp(acc.dims, x->dims, (size_t)x->rank * sizeof x->dims[0]))
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'slope' (%s) has shape %s, which does "
                             "not broadcast to X's shape %s (unidirectional: the output keeps "
                             "X's shape)", osc_kinput_name(k, 1), osc_shape_str(s, a, sizeof a),
                             osc_shape_str(x, b, sizeof b));
    }
    return OSC_OK;
}

OSC_INFER_OUT0(osc_prelu, validate)

osc_status osc_prelu_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    static const char *const k_what[2] = {"X", "slope"};
    osc_tensor want;
    osc_status st = validate(k, in, n_in, &want);
    if (!st) st = osc_ew_check_io(k, in, 2, k_what, out, n_out, &want);
    if (st) return st;
    /* A slope of one element of a version-1/6 node broadcasts like a numpy scalar; one of X's
     * shape walks with X. In place is fine: X walks with the output (step 1), read first. */
    osc_tensor s1 = *in[1];
    if (osc_tensor_count(&s1) == 1) s1.rank = 0;
    const osc_tensor *ins[2] = {in[0], &s1};
    osc_bcast_it it;
    if (osc_bcast_begin(&it, out, 2, ins))
        k_loops[in[0]->dtype](&it, out->data, in[0]->data, in[1]->data);
    return OSC_OK;
}
