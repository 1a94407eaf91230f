/* fused_inf.c: ReplaceInf (fused.h): the infinities of X that the parameters select replaced by
 * one value, in one pass (in place when X dies here). */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "core/kattr.h"
#include "fused.h"
#include "ops/elementwise/ew_ops.h"

OSC_KERNEL_DECLARE(osc_replace_inf)

/* Input 0 present, float or double; output 0 present. */
static osc_status check(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                        const osc_tensor *out, int32_t n_out) {
    osc_status st = osc_need_input(k, in, n_in, 0, "X");
    if (st) return st;
    if (in[0]->dtype != OSC_FLOAT && in[0]->dtype != OSC_DOUBLE)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) is %s; expected float or double",
                         osc_kinput_name(k, 0), osc_dtype_get(in[0]->dtype)->name);
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    return OSC_OK;
}

osc_status osc_replace_inf_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 osc_tensor *out, int32_t n_out) {
    osc_status st = check(k, in, n_in, out, n_out);
    if (st) return st;
    out->dtype = in[0]->dtype;
    out->rank = in[0]->rank;
    memcpy(out->dims, in[0]->dims, (size_t)in[0]->rank * sizeof in[0]->dims[0]);
    return OSC_OK;
}

typedef struct ri_job {
    const osc_replace_inf_params *p;
    const void *x;
    void *o;
    int64_t n;
    bool dbl;
} ri_job;

/* Part `part` of parts: o[i] = x[i], or the value where x[i] is a selected infinity; x may be
 * o. */
#define RI_LOOP(T)                                                                          \
    do {                                                                                    \
        const T *x = j->x, c = (T)j->p->value;                                              \
        T *o = j->o;                                                                        \
        for (int64_t i = i0; i < i1; i++) {                                                 \
            const T y = x[i];                                                               \
            o[i] = isinf(y) && (y > 0 ? pos : neg) ? c : y;                                  \
        }                                                                                   \
    } while (0)
static void ri_part(void *ctx, int32_t part, int32_t parts) {
    const ri_job *j = ctx;
    const bool pos = j->p->detect & OSC_ISINF_DETECT_POS, neg = j->p->detect & OSC_ISINF_DETECT_NEG;
    int64_t i0, i1;
    osc_par_range(j->n, 16, part, parts, &i0, &i1);
    if (j->dbl) RI_LOOP(double);
    else RI_LOOP(float);
}

osc_status osc_replace_inf_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, int32_t n_out) {
    osc_status st = check(k, in, n_in, out, n_out);
    if (st) return st;
    const int64_t n = osc_tensor_count(in[0]);
    const size_t bytes = (size_t)n * (osc_dtype_get(in[0]->dtype)->bits / 8);
    if (out->dtype != in[0]->dtype || out->nbytes < bytes)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 (%s, %zu bytes) cannot hold the %s result of "
                         "%zu bytes", osc_dtype_get(out->dtype)->name, out->nbytes,
                         osc_dtype_get(in[0]->dtype)->name, bytes);
    ri_job j = {.p = k->params, .x = in[0]->data, .o = out->data, .n = n,
                .dbl = in[0]->dtype == OSC_DOUBLE};
    osc_tpool_run(bytes >= OSC_PAR_MIN_BYTES ? k->tpool : NULL, ri_part, &j);
    return OSC_OK;
}
