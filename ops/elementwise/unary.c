/* unary.c: Neg, Abs, Not, BitwiseNot (loops generated from OSC_STD_TYPES) and Identity (a byte
 * copy). */
#include <math.h>
#include <string.h>

#include "ew_common.h"
#include "ew_ops.h"

OSC_KERNEL_DECLARE(osc_unary)
OSC_KERNEL_DECLARE(osc_ident)

typedef void (*unary_loop)(void *o, const void *a, int64_t n);

/* o[j] = EXPR with x = a[j]. Reads a[j] before writing o[j], so o may be a (in place). */
#define LOOP1(NAME, T, EXPR)                                  \
    static void NAME(void *o, const void *a, int64_t n) {     \
        const T *pa = a;                                      \
        T *po = o;                                            \
        for (int64_t j = 0; j < n; j++) {                     \
            const T x = pa[j];                                \
            po[j] = (EXPR);                                   \
        }                                                     \
    }

/* Integers wrap: -INT_MIN and |INT_MIN| are INT_MIN (two's complement, no C overflow).
 * float16/bfloat16 flip or clear the sign bit, which is exact (as numpy does). */
#define S_SINT_NEG(T, x) ((T)(0 - (uint64_t)(x)))
#define S_SINT_ABS(T, x) ((x) < 0 ? (T)(0 - (uint64_t)(x)) : (x))
#define S_UINT_ABS(T, x) (x)
#define S_FLOAT_NEG(T, x) ((T)(-(x)))
#define S_FLOAT_ABS(T, x) ((T)fabs((double)(x)))
#define S_F16_NEG(T, x) ((T)((x) ^ 0x8000u))
#define S_F16_ABS(T, x) ((T)((x) & 0x7fffu))
#define S_BF16_NEG S_F16_NEG
#define S_BF16_ABS S_F16_ABS
#define S_BOOL_NOT(T, x) ((T)!(x))
#define S_SINT_BITNOT(T, x) ((T) ~(x)) /* every bit flipped (two's complement) */
#define S_UINT_BITNOT S_SINT_BITNOT

#define DEF(E, T, CLS, OP) LOOP1(un_##E##_##OP, T, S_##CLS##_##OP(T, x))
#define DEFINE_SIGNED(E, T, CLS) DEF(E, T, CLS, NEG) DEF(E, T, CLS, ABS)
#define DEFINE_FLOAT(E, T) DEFINE_SIGNED(E, T, FLOAT)
#define DEFINE_F16(E, T) DEFINE_SIGNED(E, T, F16)
#define DEFINE_BF16(E, T) DEFINE_SIGNED(E, T, BF16)
#define DEFINE_SINT(E, T) DEFINE_SIGNED(E, T, SINT) DEF(E, T, SINT, BITNOT)
#define DEFINE_UINT(E, T) DEF(E, T, UINT, ABS) DEF(E, T, UINT, BITNOT)
#define DEFINE_BOOL(E, T) DEF(E, T, BOOL, NOT)
#define DEFINE_STRING(E, T)
#define DEFINE_COMPLEX(E, T)
#define DEFINE(E, T, CLS) DEFINE_##CLS(E, T)
OSC_STD_TYPES(DEFINE)

/* Each class's loops by operation (ew_ops.h); NULL where the class has none. */
#define TAB_FLOAT(E) {[OSC_UNARY_NEG] = un_##E##_NEG, [OSC_UNARY_ABS] = un_##E##_ABS}
#define TAB_F16 TAB_FLOAT
#define TAB_BF16 TAB_FLOAT
#define TAB_SINT(E)                                                                    \
    {[OSC_UNARY_NEG] = un_##E##_NEG, [OSC_UNARY_ABS] = un_##E##_ABS,                       \
     [OSC_UNARY_BITNOT] = un_##E##_BITNOT}
#define TAB_UINT(E) {[OSC_UNARY_ABS] = un_##E##_ABS, [OSC_UNARY_BITNOT] = un_##E##_BITNOT}
#define TAB_BOOL(E) {[OSC_UNARY_NOT] = un_##E##_NOT}
#define TAB_STRING(E) {NULL}
#define TAB_COMPLEX(E) {NULL}

/* op: an OSC_UNARY_* operation */
static unary_loop loop_get(int32_t dtype, int32_t op) {
#define CASE(E, T, CLS)                                             \
    case E: {                                                       \
        static const unary_loop fns[OSC_UNARY_END] = TAB_##CLS(E);  \
        return fns[op];                                             \
    }
    switch (dtype) {
        OSC_STD_TYPES(CASE)
        default: return NULL;
    }
#undef CASE
}

/* What init parses: the operation (the row's variant: OSC_UNARY_*; 0 for Identity, which needs
 * none) and the dtypes its version accepts. */
typedef struct unary_params {
    int32_t op;
    osc_typeset types;
} unary_params;

/* No version of Neg, Abs, Not, BitwiseNot or Identity from opset 6 on has an attribute. */
static osc_status check_no_attrs(osc_kctx *k, const osc_node *node) {
    static const char *const k_none[] = {NULL};
    return osc_attr_known(k, node, k_none);
}

static osc_status make_params(osc_kctx *k, int32_t op, void **params) {
    unary_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->op = op;
    p->types = osc_kernel_types(k->row, 0);
    *params = p;
    return OSC_OK;
}

/* Shared by both kernels: X present, its dtype allowed by this version, *want = X's shape. */
static osc_status validate_x(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             const char *what, osc_tensor *want) {
    const unary_params *p = k->params;
    osc_status st = osc_need_input(k, in, n_in, 0, what);
    if (!st) st = osc_ew_check_type(k, 0, what, in[0], p->types);
    if (st) return st;
    memset(want, 0, sizeof *want);
    osc_same_shape(want, in[0]);
    return OSC_OK;
}

osc_status osc_unary_init(osc_kctx *k, const osc_node *node, void **params) {
    const int32_t op = k->row->variant;
    if (op < OSC_UNARY_NEG || op >= OSC_UNARY_END)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "the row names no unary operation (variant %d)",
                         (int)op);
    osc_status st = check_no_attrs(k, node);
    if (st) return st;
    return make_params(k, op, params);
}

static osc_status unary_validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 osc_tensor *want, unary_loop *loop) {
    const int32_t op = ((const unary_params *)k->params)->op;
    osc_status st = validate_x(k, in, n_in, "X", want);
    if (st) return st;
    *loop = loop_get(in[0]->dtype, op);
    if (!*loop)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "no %s loop for dtype %s", k->node->op_type,
                         osc_dtype_get(in[0]->dtype)->name);
    return OSC_OK;
}

OSC_INFER_OUT0_AUX(osc_unary, unary_validate, unary_loop)

osc_status osc_unary_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    static const char *const k_what[1] = {"X"};
    osc_tensor want;
    unary_loop loop;
    osc_status st = unary_validate(k, in, n_in, &want, &loop);
    if (!st) st = osc_ew_check_io(k, in, 1, k_what, out, n_out, &want);
    if (st) return st;
    /* In place (out->data == in[0]->data) is fine: the loop reads each element first. */
    loop(out->data, in[0]->data, osc_tensor_count(in[0]));
    return OSC_OK;
}

osc_status osc_ident_init(osc_kctx *k, const osc_node *node, void **params) {
    osc_status st = check_no_attrs(k, node);
    if (st) return st;
    return make_params(k, 0, params);
}

osc_status osc_ident_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    return osc_infer_out0(k, validate_x(k, in, n_in, "input", &want), &want, out, n_out);
}

osc_status osc_ident_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    static const char *const k_what[1] = {"input"};
    osc_tensor want;
    osc_status st = validate_x(k, in, n_in, "input", &want);
    if (!st) st = osc_ew_check_io(k, in, 1, k_what, out, n_out, &want);
    if (st) return st;
    size_t bytes = 0;
    osc_dtype_bytes(in[0]->dtype, osc_tensor_count(in[0]), &bytes); /* checked just above */
    /* In place the executor already put the output on the input's buffer: nothing to do.
     * Strings copy as osc_string views of the input's bytes, as every kernel here does. */
    if (out->data != in[0]->data && bytes) memcpy(out->data, in[0]->data, bytes);
    return OSC_OK;
}
