/* shape.c: Shape (with start/end from 15) and Size: int64 facts about the input's shape (they
 * read only its dtype and shape, never its data). */
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_shape)
OSC_KERNEL_DECLARE(osc_size)

/* Attributes init parses (15). */
typedef struct shape_params {
    int64_t start, end;
    bool has_end;  /* absent: the rank */
} shape_params;

osc_status osc_shape_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const none[] = {NULL};
    static const char *const v15[] = {"start", "end", NULL};
    int64_t start, end;
    osc_status st = osc_attr_known(k, node, k->since_version >= 15 ? v15 : none);
    if (!st) st = osc_attr_int(k, node, "start", 0, &start);
    if (!st) st = osc_attr_int(k, node, "end", 0, &end);
    shape_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->start = start;
    p->end = end;
    p->has_end = osc_node_attr(node, "end") != NULL;
    *params = p;
    return OSC_OK;
}

/* [start, end) of the dims to report, clamped to [0, rank] as the spec says. */
static void shape_range(const osc_kctx *k, int32_t rank, int64_t *b, int64_t *e) {
    const shape_params *p = k->params;
    int64_t s = p->start, t = p->has_end ? p->end : rank;
    if (s < 0) s = s < -(int64_t)rank ? 0 : s + rank;
    if (t < 0) t = t < -(int64_t)rank ? 0 : t + rank;
    *b = s > rank ? rank : s;
    *e = t > rank ? rank : t;
}

osc_status osc_shape_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    int64_t count, b, e;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (st) return st;
    shape_range(k, in[0]->rank, &b, &e);
    memset(&out[0], 0, sizeof out[0]);
    out[0].dtype = OSC_INT64;
    out[0].rank = 1;
    out[0].dims[0] = e > b ? e - b : 0; /* start > end gives an empty shape */
    return OSC_OK;
}

osc_status osc_shape_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    int64_t b, e;
    osc_status st = osc_shape_infer(k, in, n_in, &want, n_out);
    if (!st) st = osc_sh_check_out(k, 0, &out[0], &want);
    if (st) return st;
    shape_range(k, in[0]->rank, &b, &e);
    if (e > b) memcpy(out[0].data, in[0]->dims + b, (size_t)(e - b) * sizeof(int64_t));
    return OSC_OK;
}

osc_status osc_size_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    static const char *const none[] = {NULL};
    return osc_attr_known(k, node, none);
}

osc_status osc_size_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    int64_t count;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs one output");
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (st) return st;
    memset(&out[0], 0, sizeof out[0]);
    out[0].dtype = OSC_INT64; /* a scalar */
    return OSC_OK;
}

osc_status osc_size_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                        osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    int64_t count;
    osc_status st = osc_size_infer(k, in, n_in, &want, n_out);
    if (!st) st = osc_sh_check_out(k, 0, &out[0], &want);
    if (!st) st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (st) return st;
    memcpy(out[0].data, &count, sizeof count);
    return OSC_OK;
}
