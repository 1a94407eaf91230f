/* range.c: Range-11/27: start, start + delta, ... up to limit (exclusive). */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_range)

static const char *const k_what[3] = {"start", "limit", "delta"};

/* Attributes init parses. */
typedef struct range_params {
    int64_t stash_type;  /* 27; OSC_FLOAT (1) before */
} range_params;

osc_status osc_range_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const none[] = {NULL};
    static const char *const v27[] = {"stash_type", NULL};
    int64_t stash;
    osc_status st = osc_attr_known(k, node, k->since_version >= 27 ? v27 : none);
    if (!st) st = osc_attr_int(k, node, "stash_type", OSC_FLOAT, &stash);
    range_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->stash_type = stash;
    *params = p;
    return OSC_OK;
}

/* The three scalars, as int64 (integer types) or double (float types; float16/bfloat16 are
 * widened exactly). */
typedef struct rg_vals {
    bool is_int;
    int64_t i[3];
    double f[3];
} rg_vals;

/* Reads scalar j of t into v by its type class; false for a dtype Range has no use for
 * (the row's type constraint admits none). */
#define RV_FLOAT(T) v->f[j] = *(const T *)t->data; return true;
#define RV_F16(T) v->f[j] = osc_f16_to_f32(*(const T *)t->data); return true;
#define RV_BF16(T) v->f[j] = osc_bf16_to_f32(*(const T *)t->data); return true;
#define RV_SINT(T) v->i[j] = *(const T *)t->data; return true;
static bool read_val(const osc_tensor *t, int32_t j, rg_vals *v) {
#define RV_CASE(E, T, CLS)                                                                    \
    case E: RV_##CLS(T)
    switch (t->dtype) {
        OSC_FLOAT_TYPES(RV_CASE)
        OSC_SINT_TYPES(RV_CASE)
    default: return false;
    }
#undef RV_CASE
}

static osc_status read_vals(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, rg_vals *v) {
    char buf[256];
    for (int32_t i = 0; i < 3; i++) {
        osc_status st = osc_sh_need(k, in, n_in, i, k_what[i]);
        if (!st) st = osc_sh_check_type(k, i, k_what[i], in[i], osc_kernel_types(k->row, i));
        if (!st && i > 0) st = osc_check_same_dtype(k, 0, k_what[0], in[0], i, k_what[i], in[i]);
        if (st) return st;
        /* a scalar; a one-element rank-1 tensor is accepted as onnxruntime does */
        if (in[i]->rank > 1 || (in[i]->rank == 1 && in[i]->dims[0] != 1))
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s; expected a "
                             "scalar", (int)i, k_what[i], osc_kinput_name(k, i),
                             osc_shape_str(in[i], buf, sizeof buf));
        if ((st = osc_sh_need_data(k, i, k_what[i], in[i]))) return st;
    }
    v->is_int = osc_sh_ts_has(OSC_TS_SINT, in[0]->dtype);
    for (int32_t i = 0; i < 3; i++)
        if (!read_val(in[i], i, v))
            return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input %d '%s' has dtype %s", (int)i,
                             k_what[i], osc_dtype_get(in[i]->dtype)->name);
    if (v->is_int ? v->i[2] == 0 : v->f[2] == 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 2 'delta' (%s) is 0; the range would never "
                         "reach limit", osc_kinput_name(k, 2));
    if (!v->is_int && (isnan(v->f[0]) || isnan(v->f[1]) || isnan(v->f[2])))
        return osc_kfail(k, OSC_ERR_SHAPE, "inputs start, limit, delta = %g, %g, %g: a NaN gives "
                         "no element count", v->f[0], v->f[1], v->f[2]);
    return OSC_OK;
}

/* The arithmetic type: double for double; float for float, and for float16/bfloat16 with
 * stash_type 1 (float), the only stash type Range-27 describes. */
static osc_status check_stash(osc_kctx *k, int32_t dtype) {
    int64_t stash = ((const range_params *)k->params)->stash_type;
    if ((dtype == OSC_FLOAT16 || dtype == OSC_BFLOAT16) && stash != OSC_FLOAT)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "attribute 'stash_type' = %lld: float16 and "
                         "bfloat16 ranges are computed in float only (stash_type 1)",
                         (long long)stash);
    return OSC_OK;
}

/* number_of_elements = max(ceil((limit - start) / delta), 0), computed in the arithmetic type
 * for floats (as the function body does) and exactly for integers. */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    rg_vals v_own, *v = aux ? aux : &v_own; /* aux: the values read */
    osc_status st = read_vals(k, in, n_in, v);
    if (!st) st = check_stash(k, in[0]->dtype);
    if (st) return st;
    int64_t n = 0;
    if (v->is_int) {
        int64_t s = v->i[0], l = v->i[1], d = v->i[2];
        uint64_t diff = 0, step = 0, cnt = 0;
        if (d > 0 && l > s) diff = (uint64_t)l - (uint64_t)s, step = (uint64_t)d;
        if (d < 0 && l < s) diff = (uint64_t)s - (uint64_t)l, step = 0 - (uint64_t)d;
        if (diff) cnt = (diff - 1) / step + 1; /* exact: diff < 2^64 */
        if (cnt > (uint64_t)INT64_MAX)
            return osc_kfail(k, OSC_ERR_LIMIT, "the range has %llu elements; at most 2^63-1",
                             (unsigned long long)cnt);
        n = (int64_t)cnt;
    } else {
        double c;
        if (in[0]->dtype == OSC_DOUBLE) {
            c = ceil((v->f[1] - v->f[0]) / v->f[2]);
        } else {
            float q = ((float)v->f[1] - (float)v->f[0]) / (float)v->f[2];
            c = ceil((double)q);
        }
        if (!(c < 0x1p62))
            return osc_kfail(k, OSC_ERR_LIMIT, "inputs start, limit, delta = %g, %g, %g give %g "
                             "elements; at most 2^62", v->f[0], v->f[1], v->f[2], c);
        n = c > 0 ? (int64_t)c : 0;
    }
    memset(o, 0, sizeof *o);
    o->dtype = in[0]->dtype;
    o->rank = 1;
    o->dims[0] = n;
    return OSC_OK;
}

static osc_status range_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *out, const osc_tensor *want, const rg_vals *aux) {
    (void)k, (void)in, (void)n_in;
    const rg_vals v = *aux;
    const int64_t n = want->dims[0];
    void *o = out[0].data;
    /* output[i] = start + i * delta, in the arithmetic type (the type itself for float and
     * double, float for float16/bfloat16); integers cannot leave their type's range because
     * every value lies between start and limit (the sum wraps in uint64_t, exact then) */
#define RS_FLOAT(T) ((T *)o)[i] = (T)v.f[0] + (T)i * (T)v.f[2];
#define RS_F16(T) ((T *)o)[i] = osc_f32_to_f16((float)v.f[0] + (float)i * (float)v.f[2]);
#define RS_BF16(T) ((T *)o)[i] = osc_f32_to_bf16((float)v.f[0] + (float)i * (float)v.f[2]);
#define RS_SINT(T) ((T *)o)[i] = (T)(int64_t)((uint64_t)v.i[0] + (uint64_t)i * (uint64_t)v.i[2]);
#define RS_CASE(E, T, CLS)                                                                    \
    case E:                                                                                   \
        for (int64_t i = 0; i < n; i++) RS_##CLS(T)                                           \
        break;
    switch (want->dtype) {
        OSC_FLOAT_TYPES(RS_CASE)
        OSC_SINT_TYPES(RS_CASE)
    default: /* read_vals admitted none */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'start' has dtype %s",
                         osc_dtype_get(want->dtype)->name);
    }
#undef RS_CASE
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_range, geometry, range_write, rg_vals)
