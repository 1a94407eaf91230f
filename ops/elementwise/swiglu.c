/* swiglu.c: SwiGLU-28, Y = A * sigmoid(alpha * A) * B (Swish of the gate A times the value B),
 * A and B of one dtype and one shape (no broadcasting). float computes in float, double in
 * double, float16/bfloat16 in float rounded once per element. Loops are generated from the
 * X-macro class lists of core/dtype.h. */
#include <math.h>
#include <string.h>

#include "math_common.h"

OSC_KERNEL_DECLARE(osc_swiglu)

typedef struct swiglu_params {
    double alpha;
    osc_typeset types;
} swiglu_params;

typedef void (*sg_loop)(void *o, const void *a, const void *b, int64_t n, double alpha);

#define DEF_SG(E, T, CLS)                                                                  \
    static void sg_##E(void *o, const void *a, const void *b, int64_t n, double alpha) {   \
        typedef OSC_MCT_##CLS(T) ct;                                                       \
        const ct al = (ct)alpha;                                                           \
        const T *pa = a, *pb = b;                                                          \
        T *po = o;                                                                         \
        for (int64_t j = 0; j < n; j++) {                                                  \
            const ct x = OSC_MWIDEN_##CLS(pa[j]), y = OSC_MWIDEN_##CLS(pb[j]), ax = al * x; \
            po[j] = OSC_MNARROW_##CLS(x * OSC_M_SIGMOID(ct, ax) * y);                      \
        }                                                                                  \
    }
#define SG_ENTRY(E, T, CLS) [E] = sg_##E,
OSC_FLOAT_TYPES(DEF_SG)
static const sg_loop k_loops[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(SG_ENTRY)};

osc_status osc_swiglu_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"alpha", NULL};
    osc_status st = osc_attr_known(k, node, k_known);
    if (st) return st;
    swiglu_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    st = osc_attr_float(k, node, "alpha", 1.0, &p->alpha);
    if (st) return st;
    p->types = osc_kernel_types(k->row, 0);
    *params = p;
    return OSC_OK;
}

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    const swiglu_params *p = k->params;
    char a[256], b[256];
    osc_status st = osc_m_check_x(k, in, n_in, "A", p->types, 0, want);
    if (!st) st = osc_need_input(k, in, n_in, 1, "B");
    if (!st) st = osc_check_same_dtype(k, 0, "A", in[0], 1, "B", in[1]);
    if (st) return st;
    if (in[1]->rank != in[0]->rank ||
        memcmp(in[1]->dims, in[0]->dims, (size_t)in[0]->rank * sizeof in[0]->dims[0]))
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'B' (%s) has shape %s but input 0 'A' (%s) "
                         "has shape %s; SwiGLU needs equal shapes (no broadcasting)",
                         osc_kinput_name(k, 1), osc_shape_str(in[1], b, sizeof b),
                         osc_kinput_name(k, 0), osc_shape_str(in[0], a, sizeof a));
    return OSC_OK;
}

OSC_INFER_OUT0(osc_swiglu, validate)

osc_status osc_swiglu_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    static const char *const k_what[2] = {"A", "B"};
    const swiglu_params *p = k->params;
    osc_tensor want;
    osc_status st = validate(k, in, n_in, &want);
    if (!st) st = osc_ew_check_io(k, in, 2, k_what, out, n_out, &want);
    if (st) return st;
    /* In place over A is fine: each element of A and B is read before its output is written. */
    k_loops[out->dtype](out->data, in[0]->data, in[1]->data, osc_tensor_count(out), p->alpha);
    return OSC_OK;
}
