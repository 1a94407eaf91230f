/* det.c: Det-11/22: the determinant of each [M, M] matrix of X [..., M, M]; Y is [...].
 * LU factorisation with partial pivoting (the largest magnitude in the column below the
 * diagonal, the first one on a tie), the product of the pivots, the sign flipped per row swap.
 * Every type is widened to double and factored in double; the result is rounded once to the
 * output type. A matrix holding a NaN gives NaN; otherwise a zero pivot column gives 0 and Inf
 * goes through the arithmetic; M = 0 gives 1 (the empty product). */
#include <math.h>
#include <string.h>

#include "ops/elementwise/ew_common.h"
#include "ops/elementwise/minifloat.h"

OSC_KERNEL_DECLARE(osc_det)

osc_status osc_det_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_none[] = {NULL};
    osc_status st = osc_attr_known(k, node, k_none);
    osc_typeset *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    *p = osc_kernel_types(k->row, 0);
    *params = p;
    return OSC_OK;
}

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    osc_status st = osc_need_input(k, in, n_in, 0, "X");
    if (!st) st = osc_ew_check_type(k, 0, "X", in[0], *(const osc_typeset *)k->params);
    if (st) return st;
    const osc_tensor *x = in[0];
    const int32_t r = x->rank;
    char sh[256];
    if (r < 2 || x->dims[r - 1] != x->dims[r - 2])
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s; expected [..., M, "
                         "M]: rank at least 2 and the last two dims equal",
                         osc_kinput_name(k, 0), osc_shape_str(x, sh, sizeof sh));
    memset(want, 0, sizeof *want);
    osc_same_shape(want, x);
    want->rank = r - 2;
    return OSC_OK;
}

OSC_INFER_OUT0(osc_det, validate)

/* Widen element i of src (dtype) to double, and narrow d into element i of dst. */
#define LD_CASE(E, T, CLS) \
    case E: return LD_##CLS(((const T *)src)[i]);
#define LD_FLOAT(v) (double)(v)
#define LD_F16(v) (double)osc_f16_to_f32(v)
#define LD_BF16(v) (double)osc_bf16_to_f32(v)
static double load(int32_t dtype, const void *src, int64_t i) {
    switch (dtype) {
        OSC_FLOAT_TYPES(LD_CASE)
        default: return 0.0;
    }
}

static void store(int32_t dtype, void *dst, int64_t i, double d) {
    static const osc_mf_mode mode = {false, false, OSC_MF_RNE};
    switch (dtype) {
    case OSC_FLOAT: ((float *)dst)[i] = (float)d; break;
    case OSC_DOUBLE: ((double *)dst)[i] = d; break;
    default: /* float16, bfloat16: rounded once from the double */
        ((uint16_t *)dst)[i] = (uint16_t)osc_mf_from_double(osc_mf_get(dtype), d, &mode);
    }
}

/* The determinant of the m x m row-major matrix a (overwritten by its factors). */
static double lu_det(double *a, int64_t m) {
    double det = 1.0;
    for (int64_t c = 0; c < m; c++) {
        int64_t p = c;
        for (int64_t r = c + 1; r < m; r++)
            if (fabs(a[r * m + c]) > fabs(a[p * m + c])) p = r;
        const double piv = a[p * m + c];
        if (piv == 0.0) return 0.0; /* singular */
        if (p != c) {
            for (int64_t j = c; j < m; j++) {
                const double t = a[c * m + j];
                a[c * m + j] = a[p * m + j];
                a[p * m + j] = t;
            }
            det = -det;
        }
        det *= piv;
        for (int64_t r = c + 1; r < m; r++) {
            const double f = a[r * m + c] / piv;
            if (f == 0.0) continue;
            for (int64_t j = c + 1; j < m; j++) a[r * m + j] -= f * a[c * m + j];
        }
    }
    return det;
}

osc_status osc_det_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                       osc_tensor *out, int32_t n_out) {
    static const char *const k_what[1] = {"X"};
    osc_tensor want;
    osc_status st = validate(k, in, n_in, &want);
    if (!st) st = osc_ew_check_io(k, in, 1, k_what, out, n_out, &want);
    if (st) return st;
    const osc_tensor *x = in[0];
    const int64_t m = x->dims[x->rank - 1], batches = osc_tensor_count(&want);
    if (batches == 0) return OSC_OK;
    /* X holds batches * m * m elements, so m * m fits; its double copy might not fit size_t */
    size_t bytes = 0;
    if (!osc_dtype_bytes(OSC_DOUBLE, m * m, &bytes))
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'X' (%s): a %lld x %lld matrix in double "
                         "needs more memory than this machine addresses", osc_kinput_name(k, 0),
                         (long long)m, (long long)m);
    double *a = bytes && k->alloc ? osc_malloc(k->alloc, bytes) : NULL;
    if (bytes && !a)
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes of scratch (a %lld x %lld "
                         "matrix in double)", bytes, (long long)m, (long long)m);
    for (int64_t b = 0; b < batches; b++) {
        bool nan = false;
        for (int64_t i = 0; i < m * m; i++) {
            a[i] = load(x->dtype, x->data, b * m * m + i);
            nan = nan || isnan(a[i]);
        }
        store(out->dtype, out->data, b, nan ? NAN : lu_det(a, m));
    }
    if (a) osc_free(k->alloc, a, bytes);
    return OSC_OK;
}
