/* rotary.c: RotaryEmbedding (23). X is (batch, heads, seq, head_size), or (batch, seq, hidden)
 * with hidden = num_heads * head_size. The first rotary_embedding_dim elements of each head
 * vector (all of them when 0) are rotated as pairs (x1, x2): halves, or neighbours when
 * interleaved; x1' = cos * x1 - sin * x2, x2' = sin * x1 + cos * x2, the rest passing through.
 * cos and sin come from row position_ids[b, s] of the 2-D caches (a negative id counts from the
 * end, as the spec's Gather does), or without position_ids from the 3-D caches' [b, s];
 * position_ids and the 3-D caches may have 1 in batch or seq, broadcast. float16 and bfloat16
 * are computed in float, rounded once per output element. */
#include <string.h>

#include "ops/norm/norm_common.h"

OSC_KERNEL_DECLARE(osc_rope)

typedef struct rope_params {
    bool interleaved;
    int64_t rot_dim;   /* the attribute: 0 for the whole head */
    int64_t num_heads; /* 0: absent */
} rope_params;

/* X's geometry, and where the cos and sin rows of (b, s) are. */
typedef struct rope_geo {
    int64_t batch, seq, heads, head, half; /* half: rotated pairs per head vector */
    int64_t xb, xs, xh;                    /* X's strides of batch, seq and head */
    /* strides of b and s in position_ids (elements) or in the 3-D caches (rows); 0 broadcast */
    int64_t pb, ps;
    int64_t max_pos; /* rows of the 2-D caches */
} rope_geo;

static const char *const k_names[4] = {"X", "cos_cache", "sin_cache", "position_ids"};

/* Per dtype: Y from X, cos and sin, pos the position ids (NULL: none). */
typedef void (*rope_loop)(void *y, const void *x, const void *cosv, const void *sinv,
                          const int64_t *pos, const rope_geo *g, bool inter);

#define LOOP(E, T, CLS)                                                                     \
    static void rope_##E(void *y, const void *x, const void *cosv, const void *sinv,        \
                         const int64_t *pos, const rope_geo *g, bool inter) {               \
        typedef OSC_NC_CT_##CLS(T) ct;                                                      \
        const int64_t half = g->half, rd = 2 * half;                                        \
        for (int64_t b = 0; b < g->batch; b++)                                              \
            for (int64_t s = 0; s < g->seq; s++) {                                          \
                int64_t row = b * g->pb + s * g->ps;                                        \
                if (pos) row = pos[row] < 0 ? pos[row] + g->max_pos : pos[row];             \
                const T *pc = (const T *)cosv + row * half, *ps = (const T *)sinv + row * half; \
                for (int64_t h = 0; h < g->heads; h++) {                                    \
                    const int64_t at = b * g->xb + s * g->xs + h * g->xh;                   \
                    const T *px = (const T *)x + at;                                        \
                    T *py = (T *)y + at;                                                    \
                    for (int64_t i = 0; i < half; i++) {                                    \
                        const int64_t i1 = inter ? 2 * i : i, i2 = inter ? 2 * i + 1 : i + half; \
                        const ct x1 = (ct)OSC_NC_WIDEN_##CLS(px[i1]);                       \
                        const ct x2 = (ct)OSC_NC_WIDEN_##CLS(px[i2]);                       \
                        const ct c = (ct)OSC_NC_WIDEN_##CLS(pc[i]);                         \
                        const ct sn = (ct)OSC_NC_WIDEN_##CLS(ps[i]);                        \
                        py[i1] = OSC_NC_NARROW_##CLS(T, c * x1 - sn * x2);                  \
                        py[i2] = OSC_NC_NARROW_##CLS(T, sn * x1 + c * x2);                  \
                    }                                                                       \
                    if (py != px) /* in place, the rest is there already */                 \
                        memcpy(py + rd, px + rd, (size_t)(g->head - rd) * sizeof(T));       \
                }                                                                           \
            }                                                                               \
    }
OSC_FLOAT_TYPES(LOOP) /* double too, which the row refuses: the list has no part without it */
#define ENTRY(E, T, CLS) [E] = rope_##E,
static const rope_loop k_loops[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY)};

osc_status osc_rope_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"interleaved", "num_heads", "rotary_embedding_dim",
                                          NULL};
    osc_status st = osc_attr_known(k, node, k_known);
    if (st) return st;
    rope_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    int64_t inter;
    st = osc_attr_int(k, node, "interleaved", 0, &inter);
    if (!st) st = osc_attr_int(k, node, "num_heads", 0, &p->num_heads);
    if (!st) st = osc_attr_int(k, node, "rotary_embedding_dim", 0, &p->rot_dim);
    if (st) return st;
    if (inter != 0 && inter != 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'interleaved' = %lld; allowed: 0 or 1",
                         (long long)inter);
    if (p->num_heads < 0 || p->rot_dim < 0)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' = %lld is negative",
                         p->num_heads < 0 ? "num_heads" : "rotary_embedding_dim",
                         (long long)(p->num_heads < 0 ? p->num_heads : p->rot_dim));
    if (p->rot_dim % 2)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'rotary_embedding_dim' = %lld is odd; "
                         "it counts elements rotated in pairs", (long long)p->rot_dim);
    p->interleaved = inter == 1;
    *params = p;
    return OSC_OK;
}

/* Fails unless dim d of input i (t) is 1 or n, `what` naming n; *stride gets 0 for 1. */
static osc_status bcast_dim(osc_kctx *k, int32_t i, const osc_tensor *t, int32_t d, int64_t n,
                            const char *what, int64_t step, int64_t *stride) {
    char a[256];
    if (t->dims[d] != n && t->dims[d] != 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s: dim %d is %lld; "
                         "expected %lld (%s of input 0 'X') or 1", (int)i, k_names[i],
                         osc_kinput_name(k, i), osc_shape_str(t, a, sizeof a), (int)d,
                         (long long)t->dims[d], (long long)n, what);
    *stride = t->dims[d] == 1 ? 0 : step;
    return OSC_OK;
}

/* X's head geometry from its shape and the attributes into g. */
static osc_status heads(osc_kctx *k, const osc_tensor *x, rope_geo *g) {
    const rope_params *p = k->params;
    char a[256];
    if (x->rank != 3 && x->rank != 4)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has shape %s; expected rank 3 "
                         "(batch, seq, hidden) or 4 (batch, heads, seq, head_size)",
                         osc_kinput_name(k, 0), osc_shape_str(x, a, sizeof a));
    g->batch = x->dims[0];
    if (x->rank == 4) {
        g->heads = x->dims[1], g->seq = x->dims[2], g->head = x->dims[3];
        if (p->num_heads && p->num_heads != g->heads)
            return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'num_heads' = %lld but input 0 'X' "
                             "(%s) of shape %s has %lld heads (dim 1)", (long long)p->num_heads,
                             osc_kinput_name(k, 0), osc_shape_str(x, a, sizeof a),
                             (long long)g->heads);
        g->xh = g->seq * g->head, g->xs = g->head, g->xb = g->heads * g->xh;
    } else {
        if (!p->num_heads)
            return osc_kfail(k, OSC_ERR_MODEL, "input 0 'X' (%s) is 3-D, so attribute "
                             "'num_heads' is required (a positive count)", osc_kinput_name(k, 0));
        if (x->dims[2] % p->num_heads)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has hidden size %lld (dim 2), "
                             "which attribute 'num_heads' = %lld does not divide",
                             osc_kinput_name(k, 0), (long long)x->dims[2],
                             (long long)p->num_heads);
        g->seq = x->dims[1], g->heads = p->num_heads, g->head = x->dims[2] / p->num_heads;
        g->xh = g->head, g->xs = x->dims[2], g->xb = g->seq * g->xs;
    }
    if (g->head % 2)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'X' (%s) has head size %lld; the spec needs "
                         "an even head size", osc_kinput_name(k, 0), (long long)g->head);
    const int64_t rd = p->rot_dim ? p->rot_dim : g->head;
    if (rd > g->head)
        return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'rotary_embedding_dim' = %lld is more "
                         "than the head size %lld of input 0 'X' (%s)", (long long)p->rot_dim,
                         (long long)g->head, osc_kinput_name(k, 0));
    g->half = rd / 2;
    return OSC_OK;
}

/* infer's and run's checks: want gets Y's dtype and shape, g the geometry. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, rope_geo *g) {
    char a[256], b[256];
    osc_status st = OSC_OK;
    const bool has_pos = n_in > 3 && in[3];
    for (int32_t i = 0; i < (has_pos ? 4 : 3) && !st; i++) {
        st = osc_need_input(k, in, n_in, i, k_names[i]);
        if (!st) st = osc_ew_check_type(k, i, k_names[i], in[i], osc_kernel_types(k->row, i));
        if (!st && i > 0 && i < 3) st = osc_check_same_dtype(k, 0, "X", in[0], i, k_names[i],
                                                             in[i]);
    }
    memset(g, 0, sizeof *g);
    if (!st) st = heads(k, in[0], g);
    if (st) return st;
    const osc_tensor *c = in[1], *pos = has_pos ? in[3] : NULL;
    if (c->rank != (pos ? 2 : 3) || c->dims[c->rank - 1] != g->half)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'cos_cache' (%s) has shape %s; expected "
                         "(%s, %lld) %s input 3 'position_ids' (the last: "
                         "rotary_embedding_dim / 2)",
                         osc_kinput_name(k, 1), osc_shape_str(c, a, sizeof a),
                         pos ? "max_position_id_plus_1" : "batch, seq", (long long)g->half,
                         pos ? "with" : "without");
    if (in[2]->rank != c->rank ||
        memcmp(in[2]->dims, c->dims, (size_t)c->rank * sizeof c->dims[0]) != 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 2 'sin_cache' (%s) has shape %s but input 1 "
                         "'cos_cache' has %s; they must be equal", osc_kinput_name(k, 2),
                         osc_shape_str(in[2], a, sizeof a), osc_shape_str(c, b, sizeof b));
    if (pos) {
        if (pos->rank != 2)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 3 'position_ids' (%s) has shape %s; "
                             "expected (batch, seq)", osc_kinput_name(k, 3),
                             osc_shape_str(pos, a, sizeof a));
        g->max_pos = c->dims[0];
    }
    const osc_tensor *t = pos ? pos : c;
    const int32_t ti = pos ? 3 : 1;
    st = bcast_dim(k, ti, t, 0, g->batch, "batch", t->dims[1], &g->pb);
    if (!st) st = bcast_dim(k, ti, t, 1, g->seq, "seq", 1, &g->ps);
    if (st) return st;
    osc_same_shape(want, in[0]);
    return OSC_OK;
}

OSC_INFER_OUT0_AUX(osc_rope, validate, rope_geo)

/* Fails (OSC_ERR_INDEX) unless every position id lies in [-max_pos, max_pos - 1]. */
static osc_status check_positions(osc_kctx *k, const osc_tensor *pos, int64_t max_pos) {
    if (osc_index_in_range(k, pos, max_pos)) return OSC_OK;
    const int64_t *v = pos->data;
    for (int64_t i = 0; i < osc_tensor_count(pos); i++)
        if (v[i] < -max_pos || v[i] >= max_pos)
            return osc_kfail(k, OSC_ERR_INDEX, "input 3 'position_ids' (%s) position [%lld, "
                             "%lld]: value %lld is out of range [%lld, %lld] for the %lld rows "
                             "of input 1 'cos_cache'", osc_kinput_name(k, 3),
                             (long long)(i / pos->dims[1]), (long long)(i % pos->dims[1]),
                             (long long)v[i], (long long)-max_pos, (long long)(max_pos - 1),
                             (long long)max_pos);
    return OSC_OK;
}

osc_status osc_rope_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    const rope_params *p = k->params;
    osc_tensor want;
    rope_geo g;
    osc_status st = validate(k, in, n_in, &want, &g);
    const bool has_pos = n_in > 3 && in[3];
    for (int32_t i = 0; i < (has_pos ? 4 : 3) && !st; i++)
        st = osc_check_buffer(k, "input", i, k_names[i], in[i]);
    if (!st) st = osc_nc_check_out(k, out, n_out, 0, "Y", &want);
    if (!st && has_pos) st = check_positions(k, in[3], g.max_pos);
    if (st || osc_tensor_count(in[0]) == 0) return st;
    k_loops[in[0]->dtype](out[0].data, in[0]->data, in[1]->data, in[2]->data,
                          has_pos ? in[3]->data : NULL, &g, p->interleaved);
    return OSC_OK;
}
