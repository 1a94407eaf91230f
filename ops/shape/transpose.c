/* transpose.c: Transpose-1/13/21/23/24/25: output axis i is input axis perm[i]. */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_transpose)

typedef osc_transpose_params transpose_params;

osc_status osc_transpose_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"perm", NULL};
    osc_status st = osc_attr_known(k, node, known);
    transpose_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    if ((st = osc_sh_attr_ints(k, node, "perm", false, &p->perm))) return st;
    *params = p;
    return OSC_OK;
}

/* The permutation: output dim i is input dim v[i]. */
typedef struct tr_perm {
    int64_t v[OSC_MAX_RANK];
} tr_perm;

/* aux: the tr_perm */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    tr_perm own;
    int64_t count, *perm = (aux ? (tr_perm *)aux : &own)->v;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (st) return st;
    const osc_tensor *data = in[0];
    const int32_t r = data->rank;
    const osc_sh_ints *a = &((const transpose_params *)k->params)->perm;
    if (!a->present) {
        for (int32_t i = 0; i < r; i++) perm[i] = r - 1 - i; /* default: reverse the dims */
    } else {
        bool seen[OSC_MAX_RANK] = {false};
        if (a->n != r)
            return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'perm' has %zu values but input 0 "
                             "'data' (%s) has rank %d; they must match", (size_t)a->n,
                             osc_kinput_name(k, 0), (int)r);
        for (int32_t i = 0; i < r; i++) {
            int64_t p = a->v[i];
            if (p < 0 || p >= r || seen[p])
                return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'perm': value %lld at position %d "
                                 "is %s; perm must hold each of [0, %d] once", (long long)p,
                                 (int)i, p < 0 || p >= r ? "out of range" : "repeated", r - 1);
            seen[p] = true;
            perm[i] = p;
        }
    }
    osc_same_shape(o, data);
    for (int32_t i = 0; i < r; i++) o->dims[i] = data->dims[perm[i]];
    return OSC_OK;
}

static osc_status transpose_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                  osc_tensor *out, const osc_tensor *want, const tr_perm *aux) {
    (void)k, (void)n_in;
    const int64_t *perm = aux->v;
    int64_t xs[OSC_MAX_RANK], stride[OSC_MAX_RANK];
    osc_row_strides(in[0], xs); /* non-empty: no overflow */
    for (int32_t i = 0; i < want->rank; i++) stride[i] = xs[perm[i]];
    osc_sh_copy_strided(out[0].data, in[0]->data, osc_sh_bits(want->dtype), want->rank, want->dims,
                        stride, 0);
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_transpose, geometry, transpose_write, tr_perm)
