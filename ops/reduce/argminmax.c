/* argminmax.c: ArgMax and ArgMin, versions 1/11/12/13: the index of the largest (smallest)
 * element along an axis. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_argm)

/* Attributes init parses. */
typedef struct argm_params {
    int64_t axis;      /* as written; normalised against the input's rank by infer */
    bool keepdims;
    bool select_last;  /* select_last_index (12) */
    bool min;          /* ArgMin */
} argm_params;

osc_status osc_argm_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const v1[] = {"axis", "keepdims", NULL};
    static const char *const v12[] = {"axis", "keepdims", "select_last_index", NULL};
    int64_t axis;
    bool keep, last;
    osc_status st = osc_attr_known(k, node, k->since_version >= 12 ? v12 : v1);
    if (!st) st = osc_attr_int(k, node, "axis", 0, &axis);
    if (!st) st = osc_sh_attr_bool(k, node, "keepdims", true, &keep);
    if (!st) st = osc_sh_attr_bool(k, node, "select_last_index", false, &last);
    argm_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->axis = axis;
    p->keepdims = keep;
    p->select_last = last;
    p->min = strcmp(k->row->op, "ArgMin") == 0;
    *params = p;
    return OSC_OK;
}

/* aux: the int32_t axis, normalised */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    const argm_params *p = k->params;
    int64_t count;
    int32_t axis_v, *axis = aux ? aux : &axis_v;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (st) return st;
    const osc_tensor *x = in[0];
    /* negative axes are accepted in every version (the text adds them at 11) */
    if ((st = osc_norm_axis(k, p->axis, x->rank, axis))) return st;
    const bool keep = p->keepdims;
    memset(o, 0, sizeof *o);
    o->dtype = OSC_INT64;
    for (int32_t d = 0; d < x->rank; d++)
        if (d != *axis) o->dims[o->rank++] = x->dims[d];
        else if (keep) o->dims[o->rank++] = 1;
    if (x->dims[*axis] == 0 && osc_tensor_count(o) > 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) has size 0 along axis %d; an "
                         "empty set has no %s element", osc_kinput_name(k, 0), (int)*axis,
                         p->min ? "smallest" : "largest");
    return OSC_OK;
}

/* numpy's order: NaN comes before everything (argmax and argmin both return the first NaN, or
 * the last one with select_last_index); otherwise the first (or last) of equal extremes. Per
 * type class: the type values are compared in (VAL), how element p is read (LD) and the
 * comparisons: BT(OP) "a is better than b" with OP > (max) or < (min), EQ. */
#define VAL_FLOAT(T) T
#define VAL_F16(T) float
#define VAL_BF16(T) float
#define VAL_SINT(T) T
#define VAL_UINT(T) T
#define LD_FLOAT(T, p) (((const T *)xp)[p])
#define LD_F16(T, p) (osc_f16_to_f32(((const T *)xp)[p]))
#define LD_BF16(T, p) (osc_bf16_to_f32(((const T *)xp)[p]))
#define LD_SINT(T, p) (((const T *)xp)[p])
#define LD_UINT(T, p) (((const T *)xp)[p])
#define BT_INT(OP, a, b) ((a) OP (b))
#define EQ_INT(a, b) ((a) == (b))
#define BT_FLT(OP, a, b) ((a) OP (b) || (isnan(a) && !isnan(b)))
#define EQ_FLT(a, b) ((a) == (b) || (isnan(a) && isnan(b)))
#define CMP_FLOAT FLT
#define CMP_F16 FLT
#define CMP_BF16 FLT
#define CMP_SINT INT
#define CMP_UINT INT
#define BT_(c) BT_##c
#define EQ_(c) EQ_##c
#define BT(c) BT_(c)
#define EQ(c) EQ_(c)
#define ARG_LOOP(T, CLS, OP)                                                                  \
    for (int64_t o = 0; o < outer; o++)                                                       \
        for (int64_t j = 0; j < inner; j++) {                                                 \
            const int64_t base = o * n * inner + j;                                           \
            VAL_##CLS(T) best = LD_##CLS(T, base);                                            \
            int64_t bi = 0;                                                                   \
            for (int64_t q = 1; q < n; q++) {                                                 \
                VAL_##CLS(T) v = LD_##CLS(T, base + q * inner);                               \
                if (BT(CMP_##CLS)(OP, v, best) || (last && EQ(CMP_##CLS)(v, best))) {         \
                    best = v;                                                                 \
                    bi = q;                                                                   \
                }                                                                             \
            }                                                                                 \
            y[o * inner + j] = bi;                                                            \
        }

static osc_status argm_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, const osc_tensor *want, const int32_t *aux) {
    (void)n_in, (void)want;
    const argm_params *p = k->params;
    const int32_t axis = *aux;
    /* non-empty output and (geometry) a non-empty axis: the input is non-empty */
    const osc_tensor *x = in[0];
    const int64_t outer = osc_dims_prod(x->dims, axis), n = x->dims[axis];
    const int64_t inner = osc_dims_prod(x->dims + axis + 1, x->rank - axis - 1);
    const bool last = p->select_last;
    const void *xp = x->data;
    int64_t *y = out[0].data;
#define ARG_CASE(E, T, CLS)                                                                   \
    case E:                                                                                   \
        if (p->min) ARG_LOOP(T, CLS, <) else ARG_LOOP(T, CLS, >)                              \
        break;
    switch (x->dtype) {
        OSC_REAL_TYPES(ARG_CASE)
    default: /* geometry admitted only real number types */
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input 0 'data' has dtype %s",
                         osc_dtype_get(x->dtype)->name);
    }
#undef ARG_CASE
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_argm, geometry, argm_write, int32_t)
