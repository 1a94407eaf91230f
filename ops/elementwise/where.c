/* where.c: Where-9/16: out = condition ? X : Y, the three inputs broadcast together. */
#include <string.h>

#include "ew_common.h"

OSC_KERNEL_DECLARE(osc_where)

typedef osc_ew_loop3 where_loop;

/* One selecting loop per dtype; strings and complex numbers are copied as values (a string
 * element is a view of the input's bytes, as every kernel here copies strings). */
#define DEFINE(E, T, CLS)                                                                    \
    static void where_##E(osc_bcast_it *it, void *o, const void *c, const void *x,          \
                          const void *y) {                                                   \
        do {                                                                                 \
            const uint8_t *pc = (const uint8_t *)c + it->off[0];                             \
            const T *px = (const T *)x + it->off[1], *py = (const T *)y + it->off[2];        \
            T *po = (T *)o + it->out_off;                                                    \
            const int64_t sc = it->step[0], sx = it->step[1], sy = it->step[2];             \
            for (int64_t j = 0; j < it->len; j++)                                            \
                po[j] = pc[j * sc] ? px[j * sx] : py[j * sy];                                \
        } while (osc_bcast_next(it));                                                        \
    }
OSC_STD_TYPES(DEFINE)
#undef DEFINE

static where_loop loop_get(int32_t dtype) {
#define CASE(E, T, CLS) \
    case E: return where_##E;
    switch (dtype) {
        OSC_STD_TYPES(CASE)
        default: return NULL;
    }
#undef CASE
}

static const char *const k_what[3] = {"condition", "X", "Y"};

/* What init parses: the dtypes of X and Y this version accepts. */
typedef struct where_params {
    osc_typeset types;
} where_params;

osc_status osc_where_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_none[] = {NULL};
    osc_status st = osc_attr_known(k, node, k_none);
    if (st) return st;
    where_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->types = osc_kernel_types(k->row, 1);
    *params = p;
    return OSC_OK;
}

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, where_loop *loop) {
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < 3 && !st; i++) st = osc_need_input(k, in, n_in, i, k_what[i]);
    if (!st) st = osc_ew_check_type(k, 0, "condition", in[0], OSC_TS(OSC_BOOL));
    if (!st) st = osc_ew_check_type(k, 1, "X", in[1], ((const where_params *)k->params)->types);
    if (!st) st = osc_check_same_dtype(k, 1, "X", in[1], 2, "Y", in[2]);
    if (st) return st;
    memset(want, 0, sizeof *want);
    osc_same_shape(want, in[0]);
    for (int32_t i = 1; i < 3 && !st; i++) st = osc_bcast_merge(k, want, i, k_what[i], in[i]);
    if (st) return st;
    want->dtype = in[1]->dtype;
    *loop = loop_get(in[1]->dtype);
    if (!*loop)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "no Where loop for dtype %s",
                         osc_dtype_get(in[1]->dtype)->name);
    return OSC_OK;
}

OSC_INFER_OUT0_AUX(osc_where, validate, where_loop)

osc_status osc_where_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    where_loop loop;
    osc_status st = validate(k, in, n_in, &want, &loop);
    if (!st) st = osc_ew_check_io(k, in, 3, k_what, out, n_out, &want);
    if (st) return st;
    osc_bcast_it it;
    if (osc_bcast_begin(&it, out, 3, in))
        osc_ew_run3(k, &it, loop, out->data, in[0]->data, in[1]->data, in[2]->data, out->nbytes);
    return OSC_OK;
}
