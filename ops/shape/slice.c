/* slice.c: Slice-1 (attributes) and Slice-10/11/13 (inputs, steps): a strided sub-tensor. */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_slice)

#define SL_MAX (2 * OSC_MAX_RANK) /* more values than axes is an error found after reading */

static const char *const k_names[4] = {"starts", "ends", "axes", "steps"};

/* Slice-1's attributes starts, ends, axes (init parses them; none from 10). */
typedef struct slice_params {
    osc_sh_ints a[3];
} slice_params;

osc_status osc_slice_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const none[] = {NULL};
    static const char *const v1[] = {"starts", "ends", "axes", NULL};
    bool attrs = k->since_version < 10;
    osc_status st = osc_attr_known(k, node, attrs ? v1 : none);
    if (st || !attrs) return st;
    slice_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    for (int32_t j = 0; j < 3 && !st; j++)
        st = osc_sh_attr_ints(k, node, k_names[j], j < 2, &p->a[j]); /* axes is optional */
    if (!st) *params = p;
    return st;
}

/* starts, ends, axes, steps as given (attributes before 10, inputs 1-4 from 10). */
typedef struct sl_args {
    int64_t v[4][SL_MAX];
    int32_t n[4];
    bool present[4];
} sl_args;

static osc_status read_args(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            sl_args *a) {
    memset(a->n, 0, sizeof a->n);
    if (k->since_version < 10) {
        const slice_params *p = k->params;
        for (int32_t j = 0; j < 3; j++) {
            a->present[j] = p->a[j].present;
            a->n[j] = p->a[j].n; /* init bounded it by SL_MAX */
            if (a->n[j]) memcpy(a->v[j], p->a[j].v, (size_t)a->n[j] * sizeof *a->v[j]);
        }
        a->present[3] = false;
        return OSC_OK;
    }
    osc_status st = osc_sh_need(k, in, n_in, 1, "starts");
    if (!st) st = osc_sh_need(k, in, n_in, 2, "ends");
    for (int32_t j = 0; j < 4 && !st; j++) {
        const osc_tensor *t = osc_sh_in(in, n_in, j + 1);
        a->present[j] = t != NULL;
        if (!t) continue;
        /* one type variable Tind binds all four */
        if (j > 0) st = osc_check_same_dtype(k, 1, "starts", in[1], j + 1, k_names[j], t);
        if (!st) st = osc_sh_read_ints(k, j + 1, k_names[j], t, true, false, SL_MAX, a->v[j],
                                       &a->n[j]);
    }
    return st;
}

/* Per data dim, the first element and the step the output walks. */
typedef struct sl_walk {
    int64_t first[OSC_MAX_RANK], step[OSC_MAX_RANK];
} sl_walk;

/* Output shape plus (aux) its sl_walk. */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    sl_walk w_own, *w = aux ? aux : &w_own;
    int64_t count, *first = w->first, *step = w->step;
    sl_args a;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (!st) st = read_args(k, in, n_in, &a);
    if (st) return st;
    const osc_tensor *data = in[0];
    const bool attrs = k->since_version < 10;
    const int32_t n = a.n[0];
    for (int32_t j = 1; j < 4; j++)
        if (a.present[j] && a.n[j] != n)
            return osc_kfail(k, OSC_ERR_SHAPE, "%s '%s' has %d values but '%s' has %d; they must "
                             "match", attrs ? "attribute" : "input", k_names[j], (int)a.n[j],
                             k_names[0], (int)n);
    if (!a.present[2]) {
        if (n > data->rank)
            return osc_kfail(k, OSC_ERR_SHAPE, "'starts' has %d values but input 0 'data' (%s) "
                             "has rank %d", (int)n, osc_kinput_name(k, 0), (int)data->rank);
        for (int32_t i = 0; i < n; i++) a.v[2][i] = i;
    }
    if ((st = osc_sh_norm_axes(k, attrs ? "attribute 'axes'" : "input 3 'axes'", a.v[2], n,
                               data->rank)))
        return st;
    osc_same_shape(o, data);
    for (int32_t d = 0; d < data->rank; d++) {
        first[d] = 0;
        step[d] = 1;
    }
    for (int32_t i = 0; i < n; i++) {
        int32_t d = (int32_t)a.v[2][i];
        int64_t dim = data->dims[d], s = a.v[0][i], e = a.v[1][i];
        int64_t sp = a.present[3] ? a.v[3][i] : 1, cnt = 0;
        if (sp == 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 4 'steps' (%s): value 0 at position %d; "
                             "steps cannot be 0", osc_kinput_name(k, 4), (int)i);
        if (s < 0) s += dim; /* cannot overflow: dim >= 0 */
        if (e < 0) e += dim;
        if (sp > 0) { /* clamp start and end to [0, dim] */
            s = s < 0 ? 0 : s > dim ? dim : s;
            e = e < 0 ? 0 : e > dim ? dim : e;
            cnt = e > s ? (e - s - 1) / sp + 1 : 0;
        } else { /* start to [0, dim-1], end to [-1, dim-1] */
            s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s;
            e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
            cnt = s > e ? (sp == INT64_MIN ? 1 : (s - e - 1) / -sp + 1) : 0;
        }
        if (dim == 0) s = cnt = 0;
        o->dims[d] = cnt;
        first[d] = s;
        step[d] = cnt > 1 ? sp : 1; /* with cnt <= 1 the step never moves: keep strides small */
    }
    return OSC_OK;
}

static osc_status slice_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *out, const osc_tensor *want, const sl_walk *aux) {
    (void)k, (void)n_in;
    int64_t xs[OSC_MAX_RANK], stride[OSC_MAX_RANK];
    /* Non-empty output: every data dim is non-zero, first[d] + (cnt-1)*step[d] lies inside dim
     * d, so offsets and strides stay within data's element count. */
    const osc_tensor *data = in[0];
    int64_t off = 0;
    osc_row_strides(data, xs);
    for (int32_t d = 0; d < data->rank; d++) {
        off += aux->first[d] * xs[d];
        stride[d] = aux->step[d] * xs[d];
    }
    osc_sh_copy_strided(out[0].data, data->data, osc_sh_bits(data->dtype), want->rank, want->dims,
                        stride, off);
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_slice, geometry, slice_write, sl_walk)
