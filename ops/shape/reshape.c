/* reshape.c: Reshape, Flatten, Squeeze and Unsqueeze: same elements, new shape (in place when
 * the executor shares the buffer). */
#include <stdio.h>
#include <string.h>

#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_reshape)
OSC_KERNEL_DECLARE(osc_flatten)
OSC_KERNEL_DECLARE(osc_squeeze)
OSC_KERNEL_DECLARE(osc_unsqueeze)

/* Each op's output dtype and shape from its inputs (and, for the data-dependent ones, from the
 * values of input 1). Infer sets it; run recomputes it and checks the executor's output. */

/* The run of all four: the bytes are the same in the same order; in place (out == data) there
 * is nothing to do. */
static osc_status same_bytes(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, const osc_tensor *want,
                             const osc_sh_none *aux) {
    (void)aux, (void)k, (void)n_in, (void)want;
    if (out[0].data != in[0]->data && out[0].nbytes)
        memcpy(out[0].data, in[0]->data, out[0].nbytes);
    return OSC_OK;
}

/* ---- Reshape-5/13/14/19/21/23/24/25 ---- */

/* Attributes init parses. */
typedef struct reshape_params {
    bool allowzero;  /* 14 */
} reshape_params;

osc_status osc_reshape_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const none[] = {NULL};
    static const char *const v14[] = {"allowzero", NULL};
    bool allowzero;
    osc_status st = osc_attr_known(k, node, k->since_version >= 14 ? v14 : none);
    if (!st) st = osc_sh_attr_bool(k, node, "allowzero", false, &allowzero);
    reshape_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->allowzero = allowzero;
    *params = p;
    return OSC_OK;
}

static osc_status reshape_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                   osc_tensor *o, void *aux) {
    (void)aux; /* none */
    int64_t count, s[OSC_MAX_RANK];
    int32_t n, neg = -1, zero = -1;
    char buf[256];
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (!st) st = osc_sh_need(k, in, n_in, 1, "shape");
    if (!st) st = osc_sh_read_ints(k, 1, "shape", in[1], false, false, OSC_MAX_RANK, s, &n);
    if (st) return st;
    const osc_tensor *data = in[0];
    bool allowzero = ((const reshape_params *)k->params)->allowzero;
    memset(o, 0, sizeof *o);
    o->dtype = data->dtype;
    o->rank = n;
    for (int32_t i = 0; i < n; i++) {
        if (s[i] == -1) {
            if (neg >= 0)
                return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'shape' (%s) has -1 at positions %d "
                                 "and %d; at most one dim may be -1", osc_kinput_name(k, 1),
                                 (int)neg, (int)i);
            neg = i;
            o->dims[i] = 1;
        } else if (s[i] < -1) {
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'shape' (%s): value %lld at position %d "
                             "is out of range [-1, 2^63-1]", osc_kinput_name(k, 1),
                             (long long)s[i], (int)i);
        } else if (s[i] == 0 && !allowzero) {
            if (i >= data->rank)
                return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'shape' (%s): value 0 at position %d "
                                 "copies dim %d of input 0 'data' (%s), which has rank %d",
                                 osc_kinput_name(k, 1), (int)i, (int)i, osc_kinput_name(k, 0),
                                 (int)data->rank);
            o->dims[i] = data->dims[i];
        } else {
            if (s[i] == 0) zero = i;
            o->dims[i] = s[i];
        }
    }
    if (neg >= 0 && zero >= 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'shape' (%s) has 0 at position %d and -1 at "
                         "position %d; with allowzero = 1 the -1 cannot be inferred",
                         osc_kinput_name(k, 1), (int)zero, (int)neg);
    int64_t known = osc_tensor_count(o); /* the -1 counted as 1 */
    if (known < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "input 1 'shape' (%s) = %s: more than 2^63-1 elements",
                         osc_kinput_name(k, 1), osc_shape_str(o, buf, sizeof buf));
    if (neg >= 0) {
        if (known == 0 || count % known != 0)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'shape' (%s): the -1 at position %d "
                             "cannot be inferred: input 0 'data' (%s) has %lld elements and the "
                             "other dims multiply to %lld", osc_kinput_name(k, 1), (int)neg,
                             osc_kinput_name(k, 0), (long long)count, (long long)known);
        o->dims[neg] = count / known;
        return OSC_OK;
    }
    if (known != count)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'shape' (%s) gives shape %s with %lld "
                         "elements but input 0 'data' (%s) has %lld", osc_kinput_name(k, 1),
                         osc_shape_str(o, buf, sizeof buf), (long long)known,
                         osc_kinput_name(k, 0), (long long)count);
    return OSC_OK;
}

OSC_SH_KERNEL(osc_reshape, reshape_geometry, same_bytes)

/* ---- Flatten-1/9/11/13/21/23/24/25 ---- */

/* Attributes init parses. */
typedef struct flatten_params {
    int64_t axis;  /* as written; checked against the input's rank by infer */
} flatten_params;

osc_status osc_flatten_init(osc_kctx *k, const osc_node *node, void **params) {
    _Static_assert(offsetof(flatten_params, axis) == 0, "osc_init_axis writes the first member");
    return osc_init_axis(k, node, 1, false, sizeof(flatten_params), params);
}

static osc_status flatten_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                   osc_tensor *o, void *aux) {
    (void)aux; /* none */
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (st) return st;
    const osc_tensor *data = in[0];
    int32_t r = data->rank;
    /* negative axes are accepted in every version (the text adds them at 11) */
    int64_t axis = ((const flatten_params *)k->params)->axis;
    if (axis < -(int64_t)r || axis > r)
        return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'axis' = %lld is out of range [%d, %d] for "
                         "input 0 'data' (%s) of rank %d", (long long)axis, -r, r,
                         osc_kinput_name(k, 0), (int)r);
    if (axis < 0) axis += r;
    memset(o, 0, sizeof *o);
    o->dtype = data->dtype;
    o->rank = 2;
    o->dims[0] = osc_dims_prod(data->dims, (int32_t)axis);
    o->dims[1] = osc_dims_prod(data->dims + axis, r - (int32_t)axis);
    if (o->dims[0] < 0 || o->dims[1] < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'data' (%s): a flattened dim exceeds 2^63-1",
                         osc_kinput_name(k, 0));
    return OSC_OK;
}

OSC_SH_KERNEL(osc_flatten, flatten_geometry, same_bytes)

/* ---- Squeeze-1/11/13/21/23/24/25 and Unsqueeze-1/11/13/21/23/24/25 ---- */

/* Input 0 'data' checked, then the axes: the attribute before 13, input 1 from 13 (required
 * there when `required`). *present is false when neither is given. */
static osc_status read_axes(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            bool required, int64_t *axes, int32_t *n, bool *present,
                            const char **what) {
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "data", &count);
    if (!st && required && k->since_version >= 13) st = osc_sh_need(k, in, n_in, 1, "axes");
    if (st) return st;
    *n = 0;
    if (k->since_version < 13) {
        const osc_sh_ints *a = k->params; /* the axes attribute (init bounded it) */
        *what = "attribute 'axes'";
        *present = a->present;
        *n = a->n;
        if (a->n) memcpy(axes, a->v, (size_t)a->n * sizeof *axes);
        return OSC_OK;
    }
    *what = "input 1 'axes'";
    const osc_tensor *t = osc_sh_in(in, n_in, 1);
    *present = t != NULL;
    if (!t) return OSC_OK;
    return osc_sh_read_ints(k, 1, "axes", t, false, true, 2 * OSC_MAX_RANK, axes, n);
}

/* Before 13 the params are the axes attribute (an osc_sh_ints); from 13 there are none. */
static osc_status squeeze_init_common(osc_kctx *k, const osc_node *node, bool required,
                                      void **params) {
    static const char *const none[] = {NULL};
    static const char *const v1[] = {"axes", NULL};
    bool attr = k->since_version < 13;
    osc_status st = osc_attr_known(k, node, attr ? v1 : none);
    if (st || !attr) return st;
    osc_sh_ints *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    if ((st = osc_sh_attr_ints(k, node, "axes", required, p))) return st;
    *params = p;
    return OSC_OK;
}

osc_status osc_squeeze_init(osc_kctx *k, const osc_node *node, void **params) {
    return squeeze_init_common(k, node, false, params);
}

static osc_status squeeze_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                   osc_tensor *o, void *aux) {
    (void)aux; /* none */
    int64_t axes[2 * OSC_MAX_RANK];
    int32_t n;
    bool present, drop[OSC_MAX_RANK] = {false};
    const char *what;
    osc_status st = read_axes(k, in, n_in, false, axes, &n, &present, &what);
    if (st) return st;
    const osc_tensor *data = in[0];
    if ((st = osc_sh_norm_axes(k, what, axes, n, data->rank))) return st;
    /* No axes: every size-1 dim goes. Axes given but empty: nothing goes, as the ONNX reference
     * does (np.squeeze(axis=())). */
    for (int32_t d = 0; !present && d < data->rank; d++) drop[d] = data->dims[d] == 1;
    for (int32_t i = 0; i < n; i++) {
        if (data->dims[axes[i]] != 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "%s: value %lld at position %d selects dim %lld "
                             "of input 0 'data' (%s), which has size %lld; only size-1 dims can "
                             "be squeezed", what, (long long)axes[i], (int)i, (long long)axes[i],
                             osc_kinput_name(k, 0), (long long)data->dims[axes[i]]);
        drop[axes[i]] = true;
    }
    memset(o, 0, sizeof *o);
    o->dtype = data->dtype;
    for (int32_t d = 0; d < data->rank; d++)
        if (!drop[d]) o->dims[o->rank++] = data->dims[d];
    return OSC_OK;
}

OSC_SH_KERNEL(osc_squeeze, squeeze_geometry, same_bytes)

osc_status osc_unsqueeze_init(osc_kctx *k, const osc_node *node, void **params) {
    return squeeze_init_common(k, node, true, params);
}

static osc_status unsqueeze_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                     osc_tensor *o, void *aux) {
    (void)aux; /* none */
    int64_t axes[2 * OSC_MAX_RANK];
    int32_t n;
    bool present, ins[2 * OSC_MAX_RANK] = {false};
    const char *what;
    osc_status st = read_axes(k, in, n_in, true, axes, &n, &present, &what);
    if (st) return st;
    const osc_tensor *data = in[0];
    int32_t r = data->rank + n; /* axes index the output */
    if (r > OSC_MAX_RANK)
        return osc_kfail(k, OSC_ERR_LIMIT, "%s: the output rank %d (input rank %d + %d axes) "
                         "exceeds %d", what, (int)r, (int)data->rank, (int)n, OSC_MAX_RANK);
    if ((st = osc_sh_norm_axes(k, what, axes, n, r))) return st;
    for (int32_t i = 0; i < n; i++) ins[axes[i]] = true;
    memset(o, 0, sizeof *o);
    o->dtype = data->dtype;
    o->rank = r;
    for (int32_t d = 0, j = 0; d < r; d++) o->dims[d] = ins[d] ? 1 : data->dims[j++];
    return OSC_OK;
}

OSC_SH_KERNEL(osc_unsqueeze, unsqueeze_geometry, same_bytes)
