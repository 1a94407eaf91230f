/* attention.c: Attention (23, 24): attributes, the checks of shapes and values, the outputs'
 * shapes, and the run (present_key/present_value copied, the rows computed by att_rows.c,
 * split among the session's threads when large). Q, K, V are 4-D (batch, heads, sequence,
 * head size) or 3-D (batch, sequence, heads * head size, with q_num_heads and kv_num_heads);
 * q heads share kv heads in groups (q head h reads kv head h / (q_num_heads / kv_num_heads)). */
#include <math.h>
#include <string.h>

#include "attention.h"
#include "core/tpool.h"
#include "ops/elementwise/ew_common.h"
#include "ops/norm/norm_common.h"

OSC_KERNEL_DECLARE(osc_attention)

static const char *const k_in_names[7] = {"Q", "K", "V", "attn_mask", "past_key", "past_value",
                                          "nonpad_kv_seqlen"};
static const char *const k_out_names[4] = {"Y", "present_key", "present_value",
                                           "qk_matmul_output"};

osc_status osc_attention_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_known[] = {"is_causal", "kv_num_heads", "q_num_heads",
                                          "qk_matmul_output_mode", "scale", "softcap",
                                          "softmax_precision", NULL};
    osc_status st = osc_attr_known(k, node, k_known);
    if (st) return st;
    att_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    int64_t causal, mode, prec;
    st = osc_attr_int(k, node, "is_causal", 0, &causal);
    if (!st) st = osc_attr_int(k, node, "q_num_heads", 0, &p->q_heads);
    if (!st) st = osc_attr_int(k, node, "kv_num_heads", 0, &p->kv_heads);
    if (!st) st = osc_attr_int(k, node, "qk_matmul_output_mode", 0, &mode);
    if (!st) st = osc_attr_int(k, node, "softmax_precision", 0, &prec);
    if (!st) st = osc_attr_float(k, node, "scale", NAN, &p->scale);
    if (!st) st = osc_attr_float(k, node, "softcap", 0, &p->softcap);
    if (st) return st;
    if (causal != 0 && causal != 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'is_causal' = %lld; allowed: 0 or 1",
                         (long long)causal);
    if (mode < 0 || mode > 3)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'qk_matmul_output_mode' = %lld; "
                         "allowed: 0 to 3", (long long)mode);
    const osc_attr *qa = osc_node_attr(node, "q_num_heads");
    const osc_attr *ka = osc_node_attr(node, "kv_num_heads");
    if ((qa && p->q_heads < 1) || (ka && p->kv_heads < 1))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' = %lld; allowed: 1 or more",
                         qa && p->q_heads < 1 ? "q_num_heads" : "kv_num_heads",
                         (long long)(qa && p->q_heads < 1 ? p->q_heads : p->kv_heads));
    if (prec != 0 && prec != OSC_FLOAT && prec != OSC_FLOAT16 && prec != OSC_DOUBLE &&
        prec != OSC_BFLOAT16)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'softmax_precision' = %lld; allowed: "
                         "%d (float), %d (float16), %d (double) or %d (bfloat16)",
                         (long long)prec, OSC_FLOAT, OSC_FLOAT16, OSC_DOUBLE, OSC_BFLOAT16);
    p->causal = causal == 1;
    p->mode = (int32_t)mode;
    p->precision = (int32_t)prec;
    *params = p;
    return OSC_OK;
}

static const osc_tensor *opt_in(const osc_tensor *const *in, int32_t n_in, int32_t i) {
    return i < n_in ? in[i] : NULL;
}

static osc_status bad_dim(osc_kctx *k, int32_t i, const osc_tensor *t, int32_t dim,
                          const char *what, int64_t want) {
    char a[256];
    return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s: dim %d is %lld; it "
                     "must be %s (%lld)", (int)i, k_in_names[i], osc_kinput_name(k, i),
                     osc_shape_str(t, a, sizeof a), (int)dim, (long long)t->dims[dim], what,
                     (long long)want);
}

/* The head counts and sizes of 3-D or 4-D Q, K, V into s. */
static osc_status heads(osc_kctx *k, const osc_tensor *const *in, att_shape *s) {
    const att_params *p = k->params;
    const osc_tensor *q = in[0], *kk = in[1], *v = in[2];
    char a[256];
    for (int32_t i = 0; i < 3; i++)
        if (in[i]->rank != 3 && in[i]->rank != 4)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has rank %d; allowed: 3 "
                             "(batch, sequence, hidden) or 4 (batch, heads, sequence, head "
                             "size)", (int)i, k_in_names[i], osc_kinput_name(k, i),
                             (int)in[i]->rank);
    for (int32_t i = 1; i < 3; i++)
        if (in[i]->rank != q->rank)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has rank %d; it must be "
                             "input 0 'Q''s rank %d", (int)i, k_in_names[i],
                             osc_kinput_name(k, i), (int)in[i]->rank, (int)q->rank);
    s->rank = q->rank;
    s->batch = q->dims[0];
    for (int32_t i = 1; i < 3; i++)
        if (in[i]->dims[0] != s->batch) return bad_dim(k, i, in[i], 0, "Q's batch", s->batch);
    if (s->rank == 4) {
        s->qh = q->dims[1], s->kvh = kk->dims[1], s->qs = q->dims[2], s->kvs = kk->dims[2];
        s->d = q->dims[3], s->dv = v->dims[3];
        if (v->dims[1] != s->kvh) return bad_dim(k, 2, v, 1, "K's head count", s->kvh);
        if (kk->dims[3] != s->d) return bad_dim(k, 1, kk, 3, "Q's head size", s->d);
        if (p->q_heads && p->q_heads != s->qh)
            return bad_dim(k, 0, q, 1, "attribute 'q_num_heads'", p->q_heads);
        if (p->kv_heads && p->kv_heads != s->kvh)
            return bad_dim(k, 1, kk, 1, "attribute 'kv_num_heads'", p->kv_heads);
    } else {
        if (!p->q_heads || !p->kv_heads)
            return osc_kfail(k, OSC_ERR_MODEL, "3-D inputs need attributes 'q_num_heads' and "
                             "'kv_num_heads' (%s absent)",
                             p->q_heads ? "kv_num_heads" : "q_num_heads");
        s->qh = p->q_heads, s->kvh = p->kv_heads, s->qs = q->dims[1], s->kvs = kk->dims[1];
        const osc_tensor *t[3] = {q, kk, v};
        for (int32_t i = 0; i < 3; i++) {
            const int64_t n = i ? s->kvh : s->qh;
            if (t[i]->dims[2] % n)
                return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s: its "
                                 "hidden size %lld is not a multiple of attribute '%s' = %lld",
                                 (int)i, k_in_names[i], osc_kinput_name(k, i),
                                 osc_shape_str(t[i], a, sizeof a), (long long)t[i]->dims[2],
                                 i ? "kv_num_heads" : "q_num_heads", (long long)n);
        }
        s->d = q->dims[2] / s->qh, s->dv = v->dims[2] / s->kvh;
        if (kk->dims[2] / s->kvh != s->d)
            return bad_dim(k, 1, kk, 2, "kv_num_heads * Q's head size", s->kvh * s->d);
    }
    if (v->dims[s->rank - 2] != s->kvs)
        return bad_dim(k, 2, v, s->rank - 2, "K's sequence length", s->kvs);
    if (s->kvh < 1 || s->qh % s->kvh)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'Q' (%s) has %lld heads and inputs 1 'K' "
                         "(%s), 2 'V' (%s) have %lld: the q heads must be a multiple of the kv "
                         "heads (1 or more)", osc_kinput_name(k, 0), (long long)s->qh,
                         osc_kinput_name(k, 1), osc_kinput_name(k, 2), (long long)s->kvh);
    return OSC_OK;
}

/* past_key and past_value: both or neither, (batch, kv heads, past, head size / v head size). */
static osc_status past(osc_kctx *k, const osc_tensor *pk, const osc_tensor *pv, att_shape *s) {
    if (!pk != !pv)
        return osc_kfail(k, OSC_ERR_MODEL, "input %d '%s' is given without input %d '%s'; "
                         "they are used together", pk ? 4 : 5, pk ? "past_key" : "past_value",
                         pk ? 5 : 4, pk ? "past_value" : "past_key");
    s->past_given = pk != NULL;
    s->past = 0;
    if (!pk) return OSC_OK;
    const osc_tensor *t[2] = {pk, pv};
    for (int32_t j = 0; j < 2; j++) {
        const int32_t i = 4 + j;
        if (t[j]->rank != 4)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has rank %d; it must be 4 "
                             "(batch, kv heads, past length, head size)", (int)i,
                             k_in_names[i], osc_kinput_name(k, i), (int)t[j]->rank);
        const int64_t want[4] = {s->batch, s->kvh, pk->dims[2], j ? s->dv : s->d};
        static const char *const what[4] = {"the batch", "the kv head count",
                                            "past_key's length", "the head size"};
        for (int32_t dim = 0; dim < 4; dim++)
            if (t[j]->dims[dim] != want[dim]) return bad_dim(k, i, t[j], dim, what[dim], want[dim]);
    }
    s->past = pk->dims[2];
    return OSC_OK;
}

/* attn_mask: broadcast to (batch, q heads, queries, total keys); its last dim 1 or the total
 * (23), at most the total (24: a shorter one is padded with -inf). */
static osc_status mask(osc_kctx *k, const osc_tensor *m, att_shape *s) {
    char a[256];
    s->mask_given = m != NULL;
    s->m_len = s->total;
    if (!m) return OSC_OK;
    if (m->rank < 1 || m->rank > 4)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 3 'attn_mask' (%s) has rank %d; allowed: 1 "
                         "to 4", osc_kinput_name(k, 3), (int)m->rank);
    const int64_t want[4] = {s->batch, s->qh, s->qs, s->total};
    const int32_t lead = 4 - m->rank;
    int64_t stride = 1;
    for (int32_t p = 3; p >= 0; p--) {
        const int64_t md = p >= lead ? m->dims[p - lead] : 1;
        const bool pad = p == 3 && k->since_version >= 24;
        if (pad ? md > want[p] : md != 1 && md != want[p])
            return osc_kfail(k, OSC_ERR_SHAPE, "input 3 'attn_mask' (%s) has shape %s, which "
                             "does not broadcast to (batch, q_num_heads, q_sequence_length, "
                             "total_sequence_length) = (%lld, %lld, %lld, %lld): dim %d is "
                             "%lld; allowed: %s %lld", osc_kinput_name(k, 3),
                             osc_shape_str(m, a, sizeof a), (long long)want[0],
                             (long long)want[1], (long long)want[2], (long long)want[3],
                             (int)(p - lead), (long long)md, pad ? "0 to" : "1 or",
                             (long long)want[p]);
        s->m_st[p] = md == 1 && !pad ? 0 : stride;
        if (pad) s->m_len = md;
        if (!osc_mul_ok(stride, md, &stride)) stride = 0; /* only when m has no elements */
    }
    return OSC_OK;
}

/* infer's and run's checks: s gets the shapes, want[0..3] the outputs' dtypes and shapes. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           att_shape *s, osc_tensor *want) {
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < 3 && !st; i++) st = osc_need_input(k, in, n_in, i, k_in_names[i]);
    for (int32_t i = 0; i < 7 && !st; i++) {
        const osc_tensor *t = opt_in(in, n_in, i);
        if (i > 2 && t) st = osc_need_input(k, in, n_in, i, k_in_names[i]);
        if (!st && t)
            st = osc_ew_check_type(k, i, k_in_names[i], t, osc_kernel_types(k->row, i));
    }
    if (!st) st = osc_check_same_dtype(k, 0, "Q", in[0], 1, "K", in[1]);
    const osc_tensor *pk = opt_in(in, n_in, 4), *pv = opt_in(in, n_in, 5);
    const osc_tensor *np = opt_in(in, n_in, 6);
    if (!st && pk) st = osc_check_same_dtype(k, 0, "Q", in[0], 4, "past_key", pk);
    if (!st && pv) st = osc_check_same_dtype(k, 2, "V", in[2], 5, "past_value", pv);
    if (!st) st = heads(k, in, s);
    if (!st) st = past(k, pk, pv, s);
    if (st) return st;
    if (!osc_add_ok(s->past, s->kvs, &s->total))
        return osc_kfail(k, OSC_ERR_LIMIT, "past length %lld + kv length %lld overflows",
                         (long long)s->past, (long long)s->kvs);
    s->nonpad_given = np != NULL;
    if (np && pk)
        return osc_kfail(k, OSC_ERR_MODEL, "input 6 'nonpad_kv_seqlen' is given with inputs 4 "
                         "'past_key' and 5 'past_value'; the spec has them exclude each other");
    if (np && (np->rank != 1 || np->dims[0] != s->batch)) {
        char a[256];
        return osc_kfail(k, OSC_ERR_SHAPE, "input 6 'nonpad_kv_seqlen' (%s) has shape %s; it "
                         "must be (batch_size,) = [%lld]", osc_kinput_name(k, 6),
                         osc_shape_str(np, a, sizeof a), (long long)s->batch);
    }
    /* infer sees the values too (the row's infer_reads): a run refuses them before any node
     * runs, so a cache a TensorScatter writes in place for this node is still untouched */
    const bool np_data = np && np->data && np->nbytes == (size_t)s->batch * sizeof(int64_t);
    for (int64_t b = 0; np_data && b < s->batch; b++) {
        const int64_t v = ((const int64_t *)np->data)[b];
        if (v < 0 || v > s->kvs)
            return osc_kfail(k, OSC_ERR_INDEX, "input 6 'nonpad_kv_seqlen' (%s) holds %lld at "
                             "position %lld; allowed: 0 to the kv sequence length %lld",
                             osc_kinput_name(k, 6), (long long)v, (long long)b,
                             (long long)s->kvs);
    }
    st = mask(k, opt_in(in, n_in, 3), s);
    if (st) return st;
    memset(want, 0, 4 * sizeof *want);
    const int32_t t1 = in[0]->dtype, t2 = in[2]->dtype;
    want[0].dtype = t1, want[0].rank = s->rank;
    want[0].dims[0] = s->batch;
    if (s->rank == 4) {
        want[0].dims[1] = s->qh, want[0].dims[2] = s->qs, want[0].dims[3] = s->dv;
    } else {
        if (!osc_mul_ok(s->qh, s->dv, &want[0].dims[2]))
            return osc_kfail(k, OSC_ERR_LIMIT, "q_num_heads %lld * v head size %lld overflows",
                             (long long)s->qh, (long long)s->dv);
        want[0].dims[1] = s->qs;
    }
    const int64_t pres[2][4] = {{s->batch, s->kvh, s->total, s->d},
                                {s->batch, s->kvh, s->total, s->dv}};
    for (int32_t j = 1; j < 3; j++) {
        want[j].dtype = j == 1 ? t1 : t2, want[j].rank = 4;
        memcpy(want[j].dims, pres[j - 1], sizeof pres[0]);
    }
    want[3].dtype = t1, want[3].rank = 4;
    want[3].dims[0] = s->batch, want[3].dims[1] = s->qh, want[3].dims[2] = s->qs;
    want[3].dims[3] = s->total;
    return OSC_OK;
}

osc_status osc_attention_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, int32_t n_out) {
    att_shape s;
    osc_tensor want[4];
    osc_status st = osc_infer_out0(k, validate(k, in, n_in, &s, want), &want[0], out, n_out);
    for (int32_t j = 1; !st && j < n_out && j < 4; j++) osc_same_shape(&out[j], &want[j]);
    return st;
}

/* present = past then the new keys (or values), (batch, kv heads, total, size). */
static void present(const att_shape *s, osc_tensor *o, const osc_tensor *past,
                    const osc_tensor *cur, int64_t size) {
    const size_t z = osc_dtype_get(o->dtype)->bits / 8, row = (size_t)size * z;
    char *dst = o->data;
    for (int64_t bg = 0; bg < s->batch * s->kvh; bg++) {
        if (s->past) {
            memcpy(dst, (const char *)past->data + (size_t)(bg * s->past) * row,
                   (size_t)s->past * row);
            dst += (size_t)s->past * row;
        }
        const int64_t b = bg / s->kvh, g = bg % s->kvh;
        if (s->rank == 4) {
            memcpy(dst, (const char *)cur->data + (size_t)(bg * s->kvs) * row,
                   (size_t)s->kvs * row);
            dst += (size_t)s->kvs * row;
        } else {
            for (int64_t t = 0; t < s->kvs; t++, dst += row)
                memcpy(dst, (const char *)cur->data + (size_t)((b * s->kvs + t) * s->kvh + g) * row,
                       row);
        }
    }
}

static void att_part(void *ctx, int32_t part, int32_t parts) {
    const att_job *j = ctx;
    const att_shape *s = j->s;
    int64_t lo, hi;
    osc_par_range(s->batch * s->kvh * s->qs, 1, part, parts, &lo, &hi);
    osc_att_rows(j, part, lo, hi);
}

osc_status osc_attention_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out) {
    const att_params *p = k->params;
    att_shape s;
    osc_tensor want[4];
    osc_status st = validate(k, in, n_in, &s, want);
    for (int32_t i = 0; i < 7 && !st; i++)
        if (opt_in(in, n_in, i)) st = osc_check_buffer(k, "input", i, k_in_names[i], in[i]);
    for (int32_t j = 0; j < (n_out < 1 ? 1 : n_out) && j < 4 && !st; j++)
        st = osc_nc_check_out(k, out, n_out, j, k_out_names[j], &want[j]);
    if (st) return st;
    const osc_tensor *np = opt_in(in, n_in, 6);
    const int64_t rows = s.batch * s.qh * s.qs;
    const bool wide = in[0]->dtype == OSC_DOUBLE || in[2]->dtype == OSC_DOUBLE ||
                      p->precision == OSC_DOUBLE;
    /* threads when the keys and values read come to OSC_PAR_MIN_BYTES */
    const double work = (double)rows * (double)s.total * (double)(s.d + s.dv) *
                        (double)osc_dtype_get(in[1]->dtype)->bits / 8;
    const int32_t parts = work >= (double)OSC_PAR_MIN_BYTES && s.batch * s.kvh * s.qs > 1
                              ? osc_tpool_size(k->tpool) : 1;
    /* a part's scratch: rep * (total + d + dv + ATT_ST) + ATT_KEY_BLOCK * (d + dv) compute
     * elements (8 bytes at most each), 64 more */
    int64_t per, blk;
    if (!osc_add_ok(s.total, s.d, &per) || !osc_add_ok(per, s.dv, &per) ||
        !osc_add_ok(per, ATT_ST, &per) ||
        !osc_mul_ok(per, s.qh / s.kvh, &per) || !osc_add_ok(s.d, s.dv, &blk) ||
        !osc_mul_ok(blk, ATT_KEY_BLOCK, &blk) || !osc_add_ok(per, blk + 8, &per) ||
        (uint64_t)per > SIZE_MAX / 8 / (uint64_t)parts)
        return osc_kfail(k, OSC_ERR_LIMIT, "a scratch row of %lld + %lld + %lld elements is "
                         "too large", (long long)s.total, (long long)s.d, (long long)s.dv);
    att_job j = {.s = &s, .p = p, .q = in[0]->data, .k = in[1]->data, .v = in[2]->data,
                 .pk = s.past_given ? in[4]->data : NULL,
                 .pv = s.past_given ? in[5]->data : NULL,
                 .mask = s.mask_given ? in[3]->data : NULL, .nonpad = np ? np->data : NULL,
                 .t1 = in[0]->dtype, .t2 = in[2]->dtype,
                 .tm = s.mask_given ? in[3]->dtype : 0, .y = out[0].data,
                 .qk = n_out > 3 ? out[3].data : NULL, .wide = wide,
                 .part_bytes = osc_att_part_bytes(&s, wide)};
    j.scale = isnan(p->scale) ? 1 / sqrt((double)s.d) : p->scale;
    const size_t bytes = j.part_bytes * (size_t)parts;
    void *own = NULL;
    if (rows > 0) {
        j.scratch = k->scratch ? osc_scratch_get(k->scratch, bytes) : NULL;
        if (!j.scratch) j.scratch = own = osc_malloc(k->alloc, bytes);
        if (!j.scratch)
            return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes of scratch (score "
                             "rows)", bytes);
    }
    if (n_out > 1) present(&s, &out[1], opt_in(in, n_in, 4), in[1], s.d);
    if (n_out > 2) present(&s, &out[2], opt_in(in, n_in, 5), in[2], s.dv);
    if (rows > 0) osc_tpool_run(parts > 1 ? k->tpool : NULL, att_part, &j);
    if (own) osc_free(k->alloc, own, bytes);
    return OSC_OK;
}
