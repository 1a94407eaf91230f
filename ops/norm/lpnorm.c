/* lpnorm.c: LpNormalization (1, 22): each vector along the one dim `axis` (default -1) divided
 * by its L1 (p = 1) or L2 (p = 2, the default) norm; a vector whose norm is zero gives zeros, as
 * the spec says. The norm is summed in double; the quotient is computed in double for float and
 * double and in float for float16 and bfloat16, rounded once per element. */
#include <math.h>

#include "ops/elementwise/math_common.h"
#include "norm_common.h"

OSC_KERNEL_DECLARE(osc_lpn)

typedef struct lpn_params {
    int64_t axis; /* as written */
    int64_t p;    /* 1 or 2 */
} lpn_params;

/* outer vectors of n elements, inner apart, normalised into o (which may be a: each vector is
 * read whole before it is written). */
typedef void (*lpn_loop)(void *o, const void *a, int64_t outer, int64_t n, int64_t inner,
                         int64_t p);

#define LOOP(E, T, CLS)                                                                     \
    static void lpn_##E(void *o, const void *a, int64_t outer, int64_t n, int64_t inner,    \
                        int64_t p) {                                                        \
        typedef OSC_NC_WT_##CLS(T) ct;                                                      \
        const T *pa = a;                                                                    \
        T *po = o;                                                                          \
        for (int64_t b = 0; b < outer; b++)                                                 \
            for (int64_t i = 0; i < inner; i++) {                                           \
                const int64_t base = b * n * inner + i;                                     \
                double sum = 0;                                                             \
                for (int64_t j = 0; j < n; j++) {                                           \
                    const double x = (double)OSC_NC_WIDEN_##CLS(pa[base + j * inner]);      \
                    sum += p == 1 ? fabs(x) : x * x;                                        \
                }                                                                           \
                const ct norm = (ct)(p == 1 ? sum : sqrt(sum));                             \
                for (int64_t j = 0; j < n; j++) {                                           \
                    const ct x = (ct)OSC_NC_WIDEN_##CLS(pa[base + j * inner]);              \
                    po[base + j * inner] = OSC_NC_NARROW_##CLS(T, norm == 0 ? 0 : x / norm); \
                }                                                                           \
            }                                                                               \
    }
OSC_FLOAT_TYPES(LOOP)
#define ENTRY(E, T, CLS) [E] = lpn_##E,
static const lpn_loop k_loops[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY)};

osc_status osc_lpn_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"axis", "p", NULL};
    osc_status st = osc_attr_known(k, node, k_known);
    if (st) return st;
    lpn_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    st = osc_attr_int(k, node, "axis", -1, &p->axis);
    if (!st) st = osc_attr_int(k, node, "p", 2, &p->p);
    if (st) return st;
    if (p->p != 1 && p->p != 2)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'p' = %lld; allowed: 1 or 2",
                         (long long)p->p);
    *params = p;
    return OSC_OK;
}

/* infer's and run's checks: input 0 of the row's dtypes, rank >= 1, the axis in range. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, int32_t *axis) {
    const lpn_params *p = k->params;
    osc_status st = osc_m_check_x(k, in, n_in, "input", osc_kernel_types(k->row, 0), 0, want);
    if (st) return st;
    return osc_nc_axis(k, in[0], "input", p->axis, axis);
}

OSC_INFER_OUT0_AUX(osc_lpn, validate, int32_t)

osc_status osc_lpn_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                       int32_t n_out) {
    static const char *const names[1] = {"input"};
    const lpn_params *p = k->params;
    osc_tensor want;
    int32_t axis;
    osc_status st = validate(k, in, n_in, &want, &axis);
    if (!st) st = osc_ew_check_io(k, in, 1, names, out, n_out, &want);
    if (st) return st;
    const osc_tensor *x = in[0];
    if (osc_tensor_count(x) == 0) return OSC_OK;
    k_loops[x->dtype](out->data, x->data, osc_nc_span(x, 0, axis), x->dims[axis],
                      osc_nc_span(x, axis + 1, x->rank), p->p);
    return OSC_OK;
}
