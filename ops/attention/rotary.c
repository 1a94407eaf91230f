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
#include "rotary.h"

OSC_KERNEL_DECLARE(osc_rope)

typedef osc_rope_params rope_params;
typedef osc_rope_geo rope_geo;

static const char *const k_names[4] = {"X", "cos_cache", "sin_cache", "position_ids"};

/* Per dtype: osc_rope_heads. */
typedef void (*rope_row)(void *y, int64_t yo, int64_t yh, const void *x, const void *cosv,
                         const void *sinv, const int64_t *pos, const rope_geo *g, bool inter,
                         int64_t b, int64_t s, int64_t h0, int64_t nh);

#define ROW(E, T, CLS)                                                                      \
    static void rope_##E(void *y, int64_t yo, int64_t yh, const void *x, const void *cosv,  \
                         const void *sinv, const int64_t *pos, const rope_geo *g, bool inter, \
                         int64_t b, int64_t s, int64_t h0, int64_t nh) {                    \
        typedef OSC_NC_CT_##CLS(T) ct;                                                      \
        const int64_t half = g->half, rd = 2 * half;                                        \
        int64_t row = b * g->pb + s * g->ps;                                                \
        if (pos) row = pos[row] < 0 ? pos[row] + g->max_pos : pos[row];                     \
        const T *pc = (const T *)cosv + row * half, *ps = (const T *)sinv + row * half;     \
        for (int64_t h = h0; h < h0 + nh; h++) {                                            \
            const T *px = (const T *)x + b * g->xb + s * g->xs + h * g->xh;                 \
            T *py = (T *)y + yo + (h - h0) * yh;                                            \
            for (int64_t i = 0; i < half; i++) {                                            \
                const int64_t i1 = inter ? 2 * i : i, i2 = inter ? 2 * i + 1 : i + half;   \
                const ct x1 = (ct)OSC_NC_WIDEN_##CLS(px[i1]);                               \
                const ct x2 = (ct)OSC_NC_WIDEN_##CLS(px[i2]);                               \
                const ct c = (ct)OSC_NC_WIDEN_##CLS(pc[i]);                                 \
                const ct sn = (ct)OSC_NC_WIDEN_##CLS(ps[i]);                                \
                py[i1] = OSC_NC_NARROW_##CLS(T, c * x1 - sn * x2);                          \
                py[i2] = OSC_NC_NARROW_##CLS(T, sn * x1 + c * x2);                          \
            }                                                                               \
            if (py != px) /* in place, the rest is there already */                         \
                memcpy(py + rd, px + rd, (size_t)(g->head - rd) * sizeof(T));               \
        }                                                                                   \
    }
OSC_FLOAT_TYPES(ROW) /* double too, which the row refuses: the list has no part without it */
#define ENTRY(E, T, CLS) [E] = rope_##E,
static const rope_row k_rows[OSC_DTYPE_COUNT] = {OSC_FLOAT_TYPES(ENTRY)};

void osc_rope_heads(int32_t dtype, void *y, int64_t yo, int64_t yh, const void *x,
                    const void *cosv, const void *sinv, const int64_t *pos,
                    const osc_rope_geo *g, bool inter, int64_t b, int64_t s, int64_t h0,
                    int64_t nh) {
    k_rows[dtype](y, yo, yh, x, cosv, sinv, pos, g, inter, b, s, h0, nh);
}

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
static osc_status bcast_dim(osc_kctx *k, int32_t i0, int32_t i, const osc_tensor *t, int32_t d,
                            int64_t n, const char *what, int64_t step, int64_t *stride) {
    char a[256];
    if (t->dims[d] != n && t->dims[d] != 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s: dim %d is %lld; "
                         "expected %lld (%s of input %d 'X') or 1", (int)(i0 + i), k_names[i],
                         osc_kinput_name(k, i0 + i), osc_shape_str(t, a, sizeof a), (int)d,
                         (long long)t->dims[d], (long long)n, what, (int)i0);
    *stride = t->dims[d] == 1 ? 0 : step;
    return OSC_OK;
}

/* X's head geometry from its shape and the attributes into g (g->in0 set). */
static osc_status heads(osc_kctx *k, const rope_params *p, const osc_tensor *x, rope_geo *g) {
    const int32_t i0 = g->in0;
    const char *xn = osc_kinput_name(k, i0);
    char a[256];
    if (x->rank != 3 && x->rank != 4)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d 'X' (%s) has shape %s; expected rank 3 "
                         "(batch, seq, hidden) or 4 (batch, heads, seq, head_size)", (int)i0, xn,
                         osc_shape_str(x, a, sizeof a));
    g->batch = x->dims[0];
    if (x->rank == 4) {
        g->heads = x->dims[1], g->seq = x->dims[2], g->head = x->dims[3];
        if (p->num_heads && p->num_heads != g->heads)
            return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'num_heads' = %lld but input %d 'X' "
                             "(%s) of shape %s has %lld heads (dim 1)", (long long)p->num_heads,
                             (int)i0, xn, osc_shape_str(x, a, sizeof a), (long long)g->heads);
        g->xh = g->seq * g->head, g->xs = g->head, g->xb = g->heads * g->xh;
    } else {
        if (!p->num_heads)
            return osc_kfail(k, OSC_ERR_MODEL, "input %d 'X' (%s) is 3-D, so attribute "
                             "'num_heads' is required (a positive count)", (int)i0, xn);
        if (x->dims[2] % p->num_heads)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d 'X' (%s) has hidden size %lld (dim 2), "
                             "which attribute 'num_heads' = %lld does not divide", (int)i0, xn,
                             (long long)x->dims[2], (long long)p->num_heads);
        g->seq = x->dims[1], g->heads = p->num_heads, g->head = x->dims[2] / p->num_heads;
        g->xh = g->head, g->xs = x->dims[2], g->xb = g->seq * g->xs;
    }
    if (g->head % 2)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d 'X' (%s) has head size %lld; the spec needs "
                         "an even head size", (int)i0, xn, (long long)g->head);
    const int64_t rd = p->rot_dim ? p->rot_dim : g->head;
    if (rd > g->head)
        return osc_kfail(k, OSC_ERR_SHAPE, "attribute 'rotary_embedding_dim' = %lld is more "
                         "than the head size %lld of input %d 'X' (%s)", (long long)p->rot_dim,
                         (long long)g->head, (int)i0, xn);
    g->half = rd / 2;
    return OSC_OK;
}

/* Fails (OSC_ERR_INDEX) unless every position id lies in [-max_pos, max_pos - 1]. */
static osc_status check_positions(osc_kctx *k, const osc_tensor *pos, const rope_geo *g) {
    const int64_t max_pos = g->max_pos;
    if (osc_index_in_range(k, pos, max_pos)) return OSC_OK;
    const int64_t *v = pos->data;
    for (int64_t i = 0; i < osc_tensor_count(pos); i++)
        if (v[i] < -max_pos || v[i] >= max_pos)
            return osc_kfail(k, OSC_ERR_INDEX, "input %d 'position_ids' (%s) position [%lld, "
                             "%lld]: value %lld is out of range [%lld, %lld] for the %lld rows "
                             "of input %d 'cos_cache'", (int)g->in0 + 3,
                             osc_kinput_name(k, g->in0 + 3), (long long)(i / pos->dims[1]),
                             (long long)(i % pos->dims[1]), (long long)v[i],
                             (long long)-max_pos, (long long)(max_pos - 1), (long long)max_pos,
                             (int)g->in0 + 1);
    return OSC_OK;
}

osc_status osc_rope_check(osc_kctx *k, const rope_params *p, const osc_tensor *const *in,
                          int32_t n_in, int32_t i0, bool run, osc_tensor *want, rope_geo *g) {
    char a[256], b[256];
    osc_status st = OSC_OK;
    const bool has_pos = n_in > i0 + 3 && in[i0 + 3];
    for (int32_t i = 0; i < (has_pos ? 4 : 3) && !st; i++) {
        st = osc_need_input(k, in, n_in, i0 + i, k_names[i]);
        if (!st) st = osc_ew_check_type(k, i0 + i, k_names[i], in[i0 + i],
                                        osc_kernel_types(k->row, i0 + i));
        if (!st && i > 0 && i < 3) st = osc_check_same_dtype(k, i0, "X", in[i0], i0 + i,
                                                             k_names[i], in[i0 + i]);
    }
    memset(g, 0, sizeof *g);
    g->in0 = i0;
    if (!st) st = heads(k, p, in[i0], g);
    if (st) return st;
    const osc_tensor *c = in[i0 + 1], *s = in[i0 + 2], *pos = has_pos ? in[i0 + 3] : NULL;
    if (c->rank != (pos ? 2 : 3) || c->dims[c->rank - 1] != g->half)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d 'cos_cache' (%s) has shape %s; expected "
                         "(%s, %lld) %s input %d 'position_ids' (the last: "
                         "rotary_embedding_dim / 2)", (int)i0 + 1,
                         osc_kinput_name(k, i0 + 1), osc_shape_str(c, a, sizeof a),
                         pos ? "max_position_id_plus_1" : "batch, seq", (long long)g->half,
                         pos ? "with" : "without", (int)i0 + 3);
    if (s->rank != c->rank || memcmp(s->dims, c->dims, (size_t)c->rank * sizeof c->dims[0]) != 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d 'sin_cache' (%s) has shape %s but input %d "
                         "'cos_cache' has %s; they must be equal", (int)i0 + 2,
                         osc_kinput_name(k, i0 + 2), osc_shape_str(s, a, sizeof a),
                         (int)i0 + 1, osc_shape_str(c, b, sizeof b));
    if (pos) {
        if (pos->rank != 2)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d 'position_ids' (%s) has shape %s; "
                             "expected (batch, seq)", (int)i0 + 3, osc_kinput_name(k, i0 + 3),
                             osc_shape_str(pos, a, sizeof a));
        g->max_pos = c->dims[0];
    }
    const osc_tensor *t = pos ? pos : c;
    const int32_t ti = pos ? 3 : 1;
    st = bcast_dim(k, i0, ti, t, 0, g->batch, "batch", t->dims[1], &g->pb);
    if (!st) st = bcast_dim(k, i0, ti, t, 1, g->seq, "seq", 1, &g->ps);
    for (int32_t i = 0; run && i < (has_pos ? 4 : 3) && !st; i++)
        st = osc_check_buffer(k, "input", i0 + i, k_names[i], in[i0 + i]);
    if (!st && run && pos) st = check_positions(k, pos, g);
    if (st) return st;
    osc_same_shape(want, in[i0]);
    return OSC_OK;
}

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want, rope_geo *g) {
    return osc_rope_check(k, k->params, in, n_in, 0, false, want, g);
}

OSC_INFER_OUT0_AUX(osc_rope, validate, rope_geo)

osc_status osc_rope_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    const rope_params *p = k->params;
    osc_tensor want;
    rope_geo g;
    osc_status st = osc_rope_check(k, p, in, n_in, 0, true, &want, &g);
    if (!st) st = osc_nc_check_out(k, out, n_out, 0, "Y", &want);
    if (st || osc_tensor_count(in[0]) == 0) return st;
    const int64_t *pos = n_in > 3 && in[3] ? in[3]->data : NULL;
    for (int64_t b = 0; b < g.batch; b++)
        for (int64_t s = 0; s < g.seq; s++)
            k_rows[in[0]->dtype](out[0].data, b * g.xb + s * g.xs, g.xh, in[0]->data, in[1]->data,
                                 in[2]->data, pos, &g, p->interleaved, b, s, 0, g.heads);
    return OSC_OK;
}
