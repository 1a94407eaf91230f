/* isinf.c: IsInf (detect_positive, detect_negative) and IsNaN: one float input, a bool output of
 * its shape. float and double test the value, float16/bfloat16 their widened value, the float8
 * kinds (version 20) their decoded value (the fn/fnuz kinds have no Inf: never true for IsInf). */
#include <math.h>

#include "ew_ops.h"
#include "math_common.h"
#include "minifloat.h"

OSC_KERNEL_DECLARE(osc_isinf)

/* The loops' op code is the row's variant (OSC_ISINF_INF or OSC_ISINF_NAN, in the low 2 bits);
 * IsInf's also holds the detect_* attributes: OSC_ISINF_INF | (OSC_ISINF_DETECT_* bits << 2). */
_Static_assert(OSC_ISINF_END <= 4, "the operations fit in the op code's low 2 bits");

/* IsInf's rule on a double or float v; `mode` holds the detect_* bits. */
#define IS_INF(v, mode)                                                                     \
    (isinf(v) && (((v) > 0 && ((mode) & OSC_ISINF_DETECT_POS)) ||                           \
                  ((v) < 0 && ((mode) & OSC_ISINF_DETECT_NEG))))

#define WIDEN_FLOAT(x) (x)
#define WIDEN_F16(x) OSC_H2F(x)
#define WIDEN_BF16(x) OSC_B2F(x)

#define LOOP(E, T, CLS)                                                                     \
    static void isinf_##E(void *o, const void *a, int64_t n, const osc_mparams *p) {        \
        const T *pa = a;                                                                    \
        uint8_t *po = o;                                                                    \
        const int32_t mode = p->op >> 2;                                                    \
        for (int64_t j = 0; j < n; j++) po[j] = (uint8_t)IS_INF(WIDEN_##CLS(pa[j]), mode);  \
    }                                                                                       \
    static void isnan_##E(void *o, const void *a, int64_t n, const osc_mparams *p) {        \
        (void)p;                                                                            \
        const T *pa = a;                                                                    \
        uint8_t *po = o;                                                                    \
        for (int64_t j = 0; j < n; j++) po[j] = (uint8_t)(isnan(WIDEN_##CLS(pa[j])) != 0);  \
    }
OSC_FLOAT_TYPES(LOOP)

/* The float8 kinds: one byte each, decoded exactly by their format. */
static void fp8_loop(void *o, const void *a, int64_t n, int32_t op, const osc_mf_fmt *f) {
    const uint8_t *pa = a;
    uint8_t *po = o;
    const int32_t mode = op >> 2;
    for (int64_t j = 0; j < n; j++) {
        const double v = osc_mf_decode(f, pa[j]);
        po[j] = (uint8_t)((op & 3) == OSC_ISINF_NAN ? isnan(v) != 0 : IS_INF(v, mode));
    }
}
#define FP8(E)                                                                              \
    static void fp8_##E(void *o, const void *a, int64_t n, const osc_mparams *p) {          \
        fp8_loop(o, a, n, p->op, osc_mf_get(E));                                            \
    }
FP8(OSC_FLOAT8E4M3FN)
FP8(OSC_FLOAT8E4M3FNUZ)
FP8(OSC_FLOAT8E5M2)
FP8(OSC_FLOAT8E5M2FNUZ)

/* [dtype][OSC_ISINF_INF or OSC_ISINF_NAN]; dtype is a valid number: the row's type set
 * admitted it. */
#define ROW(E, T, CLS) [E] = {[OSC_ISINF_INF] = isinf_##E, [OSC_ISINF_NAN] = isnan_##E},
#define ROW8(E) [E] = {[OSC_ISINF_INF] = fp8_##E, [OSC_ISINF_NAN] = fp8_##E},
static const osc_mloop k_loops[OSC_DTYPE_COUNT][OSC_ISINF_END] = {
    OSC_FLOAT_TYPES(ROW) ROW8(OSC_FLOAT8E4M3FN) ROW8(OSC_FLOAT8E4M3FNUZ) ROW8(OSC_FLOAT8E5M2)
    ROW8(OSC_FLOAT8E5M2FNUZ)};

static osc_mloop loop_get(int32_t dtype, int32_t op) { return k_loops[dtype][op & 3]; }

osc_status osc_isinf_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_none[] = {NULL},
                             *const k_inf[] = {"detect_positive", "detect_negative", NULL};
    const int32_t row_op = k->row->variant;
    if (row_op < OSC_ISINF_INF || row_op >= OSC_ISINF_END)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "the row names no IsInf or IsNaN (variant %d)",
                         (int)row_op);
    const bool nan = row_op == OSC_ISINF_NAN;
    osc_status st = osc_attr_known_legacy(k, node, nan ? k_none : k_inf, false);
    if (st) return st;
    int32_t op = row_op;
    static const int32_t k_bits[2] = {OSC_ISINF_DETECT_POS, OSC_ISINF_DETECT_NEG};
    for (int32_t i = 0; i < 2 && !nan; i++) { /* k_inf's two attributes */
        int64_t v = 1;
        st = osc_attr_int(k, node, k_inf[i], 1, &v);
        if (st) return st;
        if (v != 0 && v != 1)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' = %lld; allowed: 0 or 1",
                             k_inf[i], (long long)v);
        if (v) op |= k_bits[i] << 2;
    }
    osc_mparams *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->op = op;
    p->types = osc_kernel_types(k->row, 0);
    *params = p;
    return OSC_OK;
}

osc_status osc_isinf_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    return osc_m_unary_infer(k, in, n_in, out, n_out, "X", OSC_BOOL, loop_get);
}

osc_status osc_isinf_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    return osc_m_unary_run(k, in, n_in, out, n_out, "X", OSC_BOOL, loop_get);
}
