/* math_common.c: attribute parsing and the one-input checks the math kernels share. */
#include "math_common.h"

#include <math.h>
#include <string.h>

osc_status osc_m_check_x(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         const char *what, osc_typeset types, int32_t out_dtype,
                         osc_tensor *want) {
    osc_status st = osc_need_input(k, in, n_in, 0, what);
    if (!st) st = osc_ew_check_type(k, 0, what, in[0], types);
    if (st) return st;
    memset(want, 0, sizeof *want);
    osc_same_shape(want, in[0]);
    if (out_dtype) want->dtype = out_dtype;
    return OSC_OK;
}

static osc_status unary_validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 const char *what, int32_t out_dtype, osc_mloop_get get,
                                 osc_tensor *want, osc_mloop *loop) {
    const osc_mparams *p = k->params;
    osc_status st = osc_m_check_x(k, in, n_in, what, p->types, out_dtype, want);
    if (st) return st;
    *loop = get(in[0]->dtype, p->op); /* every dtype of the rows' type sets has one */
    return OSC_OK;
}

osc_status osc_m_unary_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out, const char *what,
                             int32_t out_dtype, osc_mloop_get get) {
    osc_tensor want;
    osc_mloop loop;
    return osc_infer_out0(k, unary_validate(k, in, n_in, what, out_dtype, get, &want, &loop),
                          &want, out, n_out);
}

typedef struct m_job {
    osc_mloop loop;
    void *o;
    const void *a;
    int64_t n;
    const osc_mparams *p;
    size_t ib, ob; /* bytes per input and output element (0: not whole bytes) */
} m_job;

static void m_part(void *ctx, int32_t part, int32_t parts) {
    const m_job *j = ctx;
    int64_t lo = 0, hi = j->n;
    if (parts > 1) osc_par_range(j->n, 16, part, parts, &lo, &hi);
    if (lo < hi)
        j->loop((char *)j->o + (size_t)lo * j->ob, (const char *)j->a + (size_t)lo * j->ib,
                hi - lo, j->p);
}

osc_status osc_m_unary_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out, const char *what, int32_t out_dtype,
                           osc_mloop_get get) {
    const char *const names[1] = {what};
    osc_tensor want;
    osc_mloop loop;
    osc_status st = unary_validate(k, in, n_in, what, out_dtype, get, &want, &loop);
    if (!st) st = osc_ew_check_io(k, in, 1, names, out, n_out, &want);
    if (st) return st;
    /* In place (out->data == in[0]->data) is fine: each loop reads an element first, and the
     * threads' element ranges are disjoint. */
    m_job j = {.loop = loop, .o = out->data, .a = in[0]->data, .n = osc_tensor_count(in[0]),
               .p = k->params, .ib = osc_dtype_bits(in[0]->dtype) / 8,
               .ob = osc_dtype_bits(out->dtype) / 8};
    const bool par = j.ib && j.ob && in[0]->dtype != OSC_STRING && out->nbytes >= OSC_PAR_MIN_BYTES;
    osc_tpool_run(par ? k->tpool : NULL, m_part, &j);
    return OSC_OK;
}
