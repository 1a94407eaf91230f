/* softmax.c: Softmax, LogSoftmax and Hardmax. Versions 1 and 11 coerce the input to 2-D at
 * `axis` (default 1): each row [a_0*...*a_{k-1}] x [a_k*...*a_{n-1}] is normalised as one
 * vector; version 13 normalises along the single dimension `axis` (default -1). Numerically
 * stable: the largest element of each vector is subtracted first; a NaN makes its whole vector
 * NaN. float computes in float (exps summed in double), double in double, float16/bfloat16 in
 * float rounded once per output element. Hardmax writes 1 at the first largest element of each
 * vector and 0 elsewhere; a NaN counts as the largest (the first NaN wins, as numpy's argmax). */
#include <math.h>

#include "ops/elementwise/math_common.h"
#include "norm_common.h"

OSC_KERNEL_DECLARE(osc_softmax)

typedef struct sm_params {
    int64_t axis;      /* as written */
    bool coerce;       /* versions 1 and 11: the axis splits the input into 2-D */
    bool log;          /* LogSoftmax */
    bool hard;         /* Hardmax */
    osc_typeset types;
} sm_params;

/* outer vectors of n elements, inner apart, each normalised in place or into o. Reads every
 * element of a vector before writing it, so o may be a. */
typedef void (*sm_loop)(void *o, const void *a, int64_t outer, int64_t n, int64_t inner, bool lg);

#define LOOP(E, T, CLS)                                                                     \
    static void sm_##E(void *o, const void *a, int64_t outer, int64_t n, int64_t inner,     \
                       bool lg) {                                                           \
        typedef OSC_NC_CT_##CLS(T) ct;                                                      \
        const T *pa = a;                                                                    \
        T *po = o;                                                                          \
        for (int64_t b = 0; b < outer; b++)                                                 \
            for (int64_t i = 0; i < inner; i++) {                                           \
                const int64_t base = b * n * inner + i;                                     \
                ct mx = (ct)-INFINITY;                                                      \
                for (int64_t j = 0; j < n; j++) {                                           \
                    const ct x = OSC_NC_WIDEN_##CLS(pa[base + j * inner]);                  \
                    if (x > mx || x != x) mx = x;                                           \
                    if (mx != mx) break; /* NaN: the vector's result is NaN */              \
                }                                                                           \
                double sum = 0;                                                             \
                for (int64_t j = 0; j < n; j++)                                             \
                    sum += OSC_M(exp, (ct)(OSC_NC_WIDEN_##CLS(pa[base + j * inner]) - mx)); \
                const ct ls = (ct)log(sum), s = (ct)sum;                                    \
                for (int64_t j = 0; j < n; j++) {                                           \
                    const ct d = (ct)(OSC_NC_WIDEN_##CLS(pa[base + j * inner]) - mx);       \
                    po[base + j * inner] =                                                  \
                        OSC_NC_NARROW_##CLS(T, lg ? d - ls : OSC_M(exp, d) / s);            \
                }                                                                           \
            }                                                                               \
    }
OSC_FLOAT_TYPES(LOOP)

/* Hardmax of the same vectors (lg unused): finds the first largest element, then writes. */
#define HLOOP(E, T, CLS)                                                                    \
    static void hm_##E(void *o, const void *a, int64_t outer, int64_t n, int64_t inner,     \
                       bool lg) {                                                           \
        typedef OSC_NC_CT_##CLS(T) ct;                                                      \
        (void)lg;                                                                           \
        const T *pa = a;                                                                    \
        T *po = o;                                                                          \
        const T one = OSC_NC_NARROW_##CLS(T, (ct)1), zero = OSC_NC_NARROW_##CLS(T, (ct)0);  \
        for (int64_t b = 0; b < outer; b++)                                                 \
            for (int64_t i = 0; i < inner; i++) {                                           \
                const int64_t base = b * n * inner + i;                                     \
                int64_t best = 0;                                                           \
                ct mx = OSC_NC_WIDEN_##CLS(pa[base]);                                       \
                for (int64_t j = 1; j < n && mx == mx; j++) {                               \
                    const ct x = OSC_NC_WIDEN_##CLS(pa[base + j * inner]);                  \
                    if (x > mx || x != x) mx = x, best = j;                                 \
                }                                                                           \
                for (int64_t j = 0; j < n; j++) po[base + j * inner] = j == best ? one : zero; \
            }                                                                               \
    }
OSC_FLOAT_TYPES(HLOOP)

#define ENTRY(E, T, CLS) [E] = sm_##E,
static const sm_loop k_loops[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY)};
#define HENTRY(E, T, CLS) [E] = hm_##E,
static const sm_loop k_hard[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(HENTRY)};

osc_status osc_softmax_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"axis", NULL};
    const int32_t op = k->row->variant;
    if (op < OSC_SOFTMAX_SOFTMAX || op >= OSC_SOFTMAX_END)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED,
                         "the row names no Softmax, LogSoftmax or Hardmax (variant %d)", (int)op);
    osc_status st = osc_attr_known(k, node, k_known);
    if (st) return st;
    sm_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->coerce = k->since_version < 13;
    p->log = op == OSC_SOFTMAX_LOG;
    p->hard = op == OSC_SOFTMAX_HARD;
    p->types = osc_kernel_types(k->row, 0);
    st = osc_attr_int(k, node, "axis", p->coerce ? 1 : -1, &p->axis);
    if (st) return st;
    *params = p;
    return OSC_OK;
}

/* infer's and run's checks: input 0 of the row's dtypes, rank >= 1, the axis in range. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, int32_t *axis) {
    const sm_params *p = k->params;
    osc_status st = osc_m_check_x(k, in, n_in, "input", p->types, 0, want);
    if (st) return st;
    return osc_nc_axis(k, in[0], "input", p->axis, axis);
}

OSC_INFER_OUT0_AUX(osc_softmax, validate, int32_t)

osc_status osc_softmax_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    static const char *const names[1] = {"input"};
    const sm_params *p = k->params;
    osc_tensor want;
    int32_t axis;
    osc_status st = validate(k, in, n_in, &want, &axis);
    if (!st) st = osc_ew_check_io(k, in, 1, names, out, n_out, &want);
    if (st) return st;
    const osc_tensor *x = in[0];
    if (osc_tensor_count(x) == 0) return OSC_OK;
    const int64_t outer = osc_nc_span(x, 0, axis);
    const int64_t n = p->coerce ? osc_nc_span(x, axis, x->rank) : x->dims[axis];
    const int64_t inner = p->coerce ? 1 : osc_nc_span(x, axis + 1, x->rank);
    (p->hard ? k_hard : k_loops)[x->dtype](out->data, x->data, outer, n, inner, p->log);
    return OSC_OK;
}
