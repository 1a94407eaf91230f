/* trilu.c: Trilu-14: the upper or lower triangle of each [N, M] matrix, from the k-th
 * diagonal; everything else zero. */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_trilu)

/* Attributes init parses. */
typedef struct trilu_params {
    bool upper;
} trilu_params;

osc_status osc_trilu_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"upper", NULL};
    bool upper;
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_sh_attr_bool(k, node, "upper", true, &upper);
    trilu_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->upper = upper;
    *params = p;
    return OSC_OK;
}

/* The output is shaped like the input whatever k, so geometry checks k's dtype and shape but
 * never reads it (no infer_reads bit); run reads it. */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    (void)aux; /* none */
    char buf[256];
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "input", &count);
    if (st) return st;
    const osc_tensor *x = in[0], *kt = osc_sh_in(in, n_in, 1);
    if (x->rank < 2)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has shape %s; expected rank "
                         ">= 2 ([*, N, M])", osc_kinput_name(k, 0),
                         osc_shape_str(x, buf, sizeof buf));
    if (kt && (st = osc_sh_need_typed(k, in, n_in, 1, "k", &count))) return st;
    /* a scalar; a one-element rank-1 tensor is accepted as onnxruntime does */
    if (kt && (kt->rank > 1 || (kt->rank == 1 && kt->dims[0] != 1)))
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'k' (%s) has shape %s; expected a scalar",
                         osc_kinput_name(k, 1), osc_shape_str(kt, buf, sizeof buf));
    osc_same_shape(o, x);
    return OSC_OK;
}

/* Row i of a matrix keeps columns j with j - i >= k (upper) or j - i <= k (lower). k is
 * clamped to [-(N + 1), M + 1] first, which keeps every answer and i + k in range. */
static osc_status trilu_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *out, const osc_tensor *want, const osc_sh_none *aux) {
    (void)aux;
    static const char empty[1] = "";
    const bool upper = ((const trilu_params *)k->params)->upper;
    const osc_tensor *kt = osc_sh_in(in, n_in, 1);
    const int32_t r = want->rank;
    const int64_t n = want->dims[r - 2], m = want->dims[r - 1];
    const int64_t mats = osc_dims_prod(want->dims, r - 2);
    const unsigned bits = osc_sh_bits(want->dtype);
    const size_t esize = bits / 8; /* every dtype of the row is byte-addressable */
    int64_t kv = kt ? ((const int64_t *)kt->data)[0] : 0;
    kv = kv < -(n + 1) ? -(n + 1) : kv > m + 1 ? m + 1 : kv;
    unsigned char zero[sizeof(osc_string) > 16 ? sizeof(osc_string) : 16] = {0};
    if (want->dtype == OSC_STRING) memcpy(zero, &(osc_string){.ptr = empty, .len = 0},
                                          sizeof(osc_string));
    char *y = out[0].data;
    for (int64_t b = 0; b < mats; b++)
        for (int64_t i = 0; i < n; i++) {
            const int64_t row = (b * n + i) * m;
            int64_t lo = upper ? i + kv : 0, hi = upper ? m : i + kv + 1; /* kept: [lo, hi) */
            lo = lo < 0 ? 0 : lo > m ? m : lo;
            hi = hi < lo ? lo : hi > m ? m : hi;
            for (int64_t j = 0; j < m; j++)
                if (j < lo || j >= hi) memcpy(y + (size_t)(row + j) * esize, zero, esize);
            if (hi > lo) osc_copy_elems(y, row + lo, in[0]->data, row + lo, hi - lo, bits);
        }
    return OSC_OK;
}

OSC_SH_KERNEL(osc_trilu, geometry, trilu_write)
