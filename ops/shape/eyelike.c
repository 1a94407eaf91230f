/* eyelike.c: EyeLike-9/22: a matrix shaped like the 2-D input with ones on the k-th diagonal
 * and zeros elsewhere, of the dtype attribute (default: the input's). */
#include <string.h>

#include "core/dtype.h"
#include "core/graph.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_eyelike)

/* Attributes init parses. */
typedef struct eyelike_params {
    int32_t dtype; /* 0: the input's */
    int64_t k;
} eyelike_params;

osc_status osc_eyelike_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"dtype", "k", NULL};
    int64_t dtype = 0, kv = 0;
    char buf[256];
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_attr_int(k, node, "dtype", 0, &dtype);
    if (!st) st = osc_attr_int(k, node, "k", 0, &kv);
    if (st) return st;
    /* T2 is the same list as T1 in both versions */
    const osc_typeset allowed = osc_kernel_types(k->row, 0);
    if (osc_node_attr(node, "dtype") &&
        (dtype < 1 || dtype > 63 || !osc_sh_ts_has(allowed, (int32_t)dtype)))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'dtype' = %lld (%s) is not an output type "
                         "of this op; allowed: %s", (long long)dtype,
                         dtype >= 1 && dtype <= 63 && osc_dtype_valid((int32_t)dtype)
                             ? osc_dtype_get((int32_t)dtype)->name : "unknown",
                         osc_typeset_str(allowed, buf, sizeof buf));
    eyelike_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->dtype = (int32_t)dtype;
    p->k = kv;
    *params = p;
    return OSC_OK;
}

static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    (void)aux; /* none */
    const eyelike_params *p = k->params;
    char buf[256];
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "input", &count);
    if (st) return st;
    if (in[0]->rank != 2)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has shape %s; expected rank 2",
                         osc_kinput_name(k, 0), osc_shape_str(in[0], buf, sizeof buf));
    osc_same_shape(o, in[0]);
    if (p->dtype) o->dtype = p->dtype;
    return OSC_OK;
}

/* The value one per type class (float16/bfloat16 as their bits). */
#define ONE_FLOAT(T) ((T)1)
#define ONE_F16(T) ((T)0x3C00u)
#define ONE_BF16(T) ((T)0x3F80u)
#define ONE_SINT(T) ((T)1)
#define ONE_UINT(T) ((T)1)
#define ONE_BOOL(T) ((T)1)

/* Ones at [i, i + k] for the i where 0 <= i + k < M; k beyond [-N, M] puts none. */
static osc_status eyelike_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                osc_tensor *out, const osc_tensor *want,
                                const osc_sh_none *aux) {
    (void)in, (void)n_in, (void)aux;
    const int64_t n = want->dims[0], m = want->dims[1];
    int64_t kv = ((const eyelike_params *)k->params)->k;
    size_t nbytes;
    kv = kv < -n ? -n : kv > m ? m : kv;
    osc_dtype_bytes(want->dtype, n * m, &nbytes); /* the output's buffer holds it (checked) */
    memset(out[0].data, 0, nbytes);
    const int64_t i0 = kv < 0 ? -kv : 0, i1 = n < m - kv ? n : m - kv;
    void *y = out[0].data;
#define EYE_CASE(E, T, CLS)                                                                   \
    case E:                                                                                   \
        for (int64_t i = i0; i < i1; i++) ((T *)y)[i * m + i + kv] = ONE_##CLS(T);           \
        break;
    switch (want->dtype) {
        OSC_REAL_TYPES(EYE_CASE)
        EYE_CASE(OSC_BOOL, uint8_t, BOOL)
    default: /* init and the row admit only these */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "output dtype %s",
                         osc_dtype_get(want->dtype)->name);
    }
#undef EYE_CASE
    return OSC_OK;
}

OSC_SH_KERNEL(osc_eyelike, geometry, eyelike_write)
