/* onehot.c: OneHot-9/11: on_value where an index points, off_value everywhere else. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "ops/shape/shape_ops.h"

OSC_KERNEL_DECLARE(osc_onehot)

/* Attributes init parses. */
typedef struct onehot_params {
    int64_t axis;  /* as written; normalised by infer */
} onehot_params;

osc_status osc_onehot_init(osc_kctx *k, const osc_node *node, void **params) {
    _Static_assert(offsetof(onehot_params, axis) == 0, "osc_init_axis writes the first member");
    return osc_init_axis(k, node, -1, false, sizeof(onehot_params), params);
}

/* Element i of a numeric tensor as int64, casting floats by truncation as the spec says;
 * false for NaN or a float outside int64 (such an index selects nothing), and for a dtype
 * that is not a real number type (geometry admits none). Per type class: */
#define IV_SINT(T) *v = ((const T *)p)[i]; return true;
#define IV_UINT(T)                                                                            \
    {                                                                                         \
        uint64_t u = ((const T *)p)[i];                                                       \
        *v = u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u; /* out of every range anyway */ \
        return true;                                                                          \
    }
#define IV_FLOAT(T) f = ((const T *)p)[i]; break;
#define IV_F16(T) f = osc_f16_to_f32(((const T *)p)[i]); break;
#define IV_BF16(T) f = osc_bf16_to_f32(((const T *)p)[i]); break;
static bool int_value(const osc_tensor *t, int64_t i, int64_t *v) {
    const void *p = t->data;
    double f;
#define IV_CASE(E, T, CLS)                                                                    \
    case E: IV_##CLS(T)
    switch (t->dtype) {
        OSC_REAL_TYPES(IV_CASE)
    default: return false;
    }
#undef IV_CASE
    if (!(f > -0x1p63 && f < 0x1p63)) return false;
    *v = (int64_t)f;
    return true;
}

/* aux: the int32_t axis, normalised (the depth is the output's dim there) */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    static const char *const what[3] = {"indices", "depth", "values"};
    char buf[256];
    int64_t count, depth = 0;
    int32_t axis_v, *axis = aux ? aux : &axis_v;
    for (int32_t i = 0; i < 3; i++) {
        osc_status st = osc_sh_need_typed(k, in, n_in, i, what[i], &count);
        if (st) return st;
    }
    const osc_tensor *idx = in[0], *dep = in[1], *val = in[2];
    if (dep->rank > 1 || (dep->rank == 1 && dep->dims[0] != 1))
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'depth' (%s) has shape %s; expected a scalar "
                         "or one element", osc_kinput_name(k, 1),
                         osc_shape_str(dep, buf, sizeof buf));
    if (val->rank != 1 || val->dims[0] != 2)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 2 'values' (%s) has shape %s; expected [2] "
                         "(off_value, on_value)", osc_kinput_name(k, 2),
                         osc_shape_str(val, buf, sizeof buf));
    osc_status st = osc_sh_need_data(k, 1, "depth", dep);
    if (st) return st;
    if (!int_value(dep, 0, &depth) || depth < 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'depth' (%s) is %s; expected a value in "
                         "[0, 2^63-1]", osc_kinput_name(k, 1),
                         depth < 0 ? "negative" : "NaN or out of range");
    const int32_t r = idx->rank;
    if (r + 1 > OSC_MAX_RANK)
        return osc_kfail(k, OSC_ERR_LIMIT, "output rank %d exceeds %d", r + 1, OSC_MAX_RANK);
    /* axis in [-r-1, r]: negative axes are accepted in every version (the text adds them at 11) */
    if ((st = osc_norm_axis(k, ((const onehot_params *)k->params)->axis, r + 1, axis))) return st;
    memset(o, 0, sizeof *o);
    o->dtype = val->dtype;
    o->rank = r + 1;
    for (int32_t d = 0, j = 0; d <= r; d++) o->dims[d] = d == *axis ? depth : idx->dims[j++];
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output would have more than 2^63-1 elements");
    return OSC_OK;
}

static osc_status onehot_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, const osc_tensor *want, const int32_t *aux) {
    (void)n_in;
    const int32_t axis = *aux;
    const int64_t total = osc_tensor_count(want), depth = want->dims[axis];
    const osc_tensor *idx = in[0];
    const size_t esize = osc_sh_bits(want->dtype) / 8, bytes = (size_t)total * esize;
    const char *off = in[2]->data, *on = off + esize;
    char *y = out[0].data;
    /* off_value everywhere: one element, then doubling copies */
    size_t have = esize;
    memcpy(y, off, esize);
    while (have < bytes) {
        size_t n = have < bytes - have ? have : bytes - have;
        memcpy(y + have, y, n);
        have += n;
    }
    /* index i = (p, q) with q over indices dims axis.. goes to output (p, value, q). Out of
     * range values select nothing: [0, depth-1] at 9, [-depth, depth-1] from 11. */
    const int64_t post = osc_dims_prod(idx->dims + axis, idx->rank - axis);
    const int64_t n = osc_tensor_count(idx);
    const int64_t lo = k->since_version >= 11 ? -depth : 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t v;
        if (!int_value(idx, i, &v) || v < lo || v >= depth) continue;
        if (v < 0) v += depth;
        int64_t p = i / post, q = i % post;
        memcpy(y + (size_t)((p * depth + v) * post + q) * esize, on, esize);
    }
    return OSC_OK;
}

OSC_SH_KERNEL_AUX(osc_onehot, geometry, onehot_write, int32_t)
