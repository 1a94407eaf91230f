/* cache_write.c: CacheWrite (rotary.h): a KV cache's new rows written where they belong
 * straight from X, rotated first when the chain had a RotaryEmbedding, instead of the chain's
 * three or four passes (rotation, transposed copy, Cast, TensorScatter's copy). Per (batch,
 * seq) row of X: RotaryEmbedding's own row code into a scratch row of X's dtype (the bits
 * RotaryEmbedding stores), then each head's vector converted by Cast's own conversion to row
 * (write_index + seq) of that head in the cache (modulo max_seq when circular), which is where
 * TensorScatter puts it. Everything is checked before the first write. */
#include <string.h>

#include "core/dtype.h"
#include "ops/elementwise/cast.h"
#include "ops/norm/norm_common.h"
#include "rotary.h"

osc_status osc_cache_write_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 osc_tensor *out, int32_t n_out);
osc_status osc_cache_write_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, int32_t n_out);

/* The cache's geometry and X's rows, from the inputs and the parameters. */
typedef struct cw_geo {
    int64_t batch, heads, max_seq, head, seq;
    osc_rope_geo rope;
} cw_geo;

static const char *const k_names[6] = {"past_cache", "X", "cos_cache", "sin_cache",
                                       "position_ids", "write_indices"};

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, bool run,
                           cw_geo *g) {
    const osc_cache_write_params *p = k->params;
    char a[256], b[256];
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < 2 && !st; i++) st = osc_need_input(k, in, n_in, i, k_names[i]);
    for (int32_t i = 0; i < 2 && !st; i++)
        st = osc_ew_check_type(k, i, k_names[i], in[i], osc_kernel_types(k->row, i));
    if (st) return st;
    const osc_tensor *c = in[0], *x = in[1];
    if (c->rank != 4)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'past_cache' (%s) has shape %s; expected "
                         "rank 4 (batch, heads, max_seq, head_size)", osc_kinput_name(k, 0),
                         osc_shape_str(c, a, sizeof a));
    memset(g, 0, sizeof *g);
    g->batch = c->dims[0], g->heads = c->dims[1], g->max_seq = c->dims[2], g->head = c->dims[3];
    g->seq = p->seq;
    int64_t want = 0, have = 0, cache_n;
    if ((st = osc_check_count(k, 0, "past_cache", c, &cache_n))) return st;
    if ((st = osc_check_count(k, 1, "X", x, &have))) return st;
    const bool fits = g->seq <= g->max_seq && osc_mul_ok(g->batch, g->heads, &want) &&
                      osc_mul_ok(want, g->seq, &want) && osc_mul_ok(want, g->head, &want);
    if (!fits || want != have)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'X' (%s) has shape %s; expected %lld "
                         "rows of %lld x %lld elements for input 0 'past_cache' (%s) of shape "
                         "%s (at most %lld rows per batch)", osc_kinput_name(k, 1),
                         osc_shape_str(x, a, sizeof a), (long long)(g->batch * g->seq),
                         (long long)g->heads, (long long)g->head, osc_kinput_name(k, 0),
                         osc_shape_str(c, b, sizeof b), (long long)g->max_seq);
    if (p->rotate) {
        osc_tensor y;
        if ((st = osc_rope_check(k, &p->rope, in, n_in, 1, run, &y, &g->rope))) return st;
        const osc_rope_geo *r = &g->rope;
        if (r->seq != g->seq || (p->bshd ? x->rank != 3 : r->heads != g->heads))
            return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'X' (%s) of shape %s does not hold the "
                             "update's %s rows of %lld", osc_kinput_name(k, 1),
                             osc_shape_str(x, a, sizeof a),
                             p->bshd ? "(batch, seq, hidden)" : "(batch, heads, seq)",
                             (long long)g->seq);
    }
    const osc_tensor *wi = n_in > 5 ? in[5] : NULL;
    if (wi) {
        if ((st = osc_check_index_dtype(k, 5, "write_indices", wi, false))) return st;
        if (wi->rank != 1 || wi->dims[0] != g->batch)
            return osc_kfail(k, OSC_ERR_SHAPE, "input 5 'write_indices' (%s) has shape %s; "
                             "expected [%lld] (batch_size)", osc_kinput_name(k, 5),
                             osc_shape_str(wi, a, sizeof a), (long long)g->batch);
        if (run && (st = osc_check_buffer(k, "input", 5, "write_indices", wi))) return st;
    }
    const int64_t *w = wi && run ? wi->data : NULL;
    for (int64_t bi = 0; w && !p->circular && bi < g->batch; bi++)
        if (w[bi] < 0 || w[bi] > g->max_seq - g->seq)
            return osc_kfail(k, OSC_ERR_INDEX, "input 5 'write_indices' (%s): value %lld at "
                             "batch position %lld is out of range [0, %lld] (linear mode needs "
                             "write_index + sequence_length %lld <= max_sequence_length %lld)",
                             osc_kinput_name(k, 5), (long long)w[bi], (long long)bi,
                             (long long)(g->max_seq - g->seq), (long long)g->seq,
                             (long long)g->max_seq);
    return run ? osc_check_buffer(k, "input", 1, "X", x) : OSC_OK;
}

osc_status osc_cache_write_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 osc_tensor *out, int32_t n_out) {
    cw_geo g;
    osc_status st = validate(k, in, n_in, false, &g);
    if (st) return st;
    osc_tensor want;
    memset(&want, 0, sizeof want);
    osc_same_shape(&want, in[0]);
    return osc_infer_out0(k, OSC_OK, &want, out, n_out);
}

osc_status osc_cache_write_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, int32_t n_out) {
    const osc_cache_write_params *p = k->params;
    cw_geo g;
    osc_status st = validate(k, in, n_in, true, &g);
    if (!st) st = osc_nc_check_out(k, out, n_out, 0, "past_cache", in[0]);
    if (st) return st;
    const osc_tensor *c = in[0], *x = in[1];
    const int32_t xt = x->dtype, ct = c->dtype;
    const size_t xz = osc_dtype_get(xt)->bits / 8, cz = osc_dtype_get(ct)->bits / 8;
    /* one row of X rotated: its heads (batch, seq, heads order) or one head */
    const int64_t row = p->bshd ? g.heads * g.head : g.head;
    void *scr = NULL, *own = NULL;
    const size_t bytes = (size_t)row * xz;
    if (p->rotate && bytes) {
        scr = k->scratch ? osc_scratch_get(k->scratch, bytes) : NULL;
        if (!scr) scr = own = osc_malloc(k->alloc, bytes);
        if (!scr)
            return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes of scratch (a "
                             "rotated row)", bytes);
    }
    if (out[0].data != c->data) osc_par_memcpy(k->tpool, out[0].data, c->data, out[0].nbytes);
    if (osc_tensor_count(x) == 0) { /* no row to write (nor a scratch row to rotate into) */
        if (own) osc_free(k->alloc, own, bytes);
        return OSC_OK;
    }
    const int64_t *wi = n_in > 5 && in[5] ? in[5]->data : NULL;
    const int64_t *pos = p->rotate && n_in > 4 && in[4] ? in[4]->data : NULL;
    const osc_mf_mode mode = {true, false, OSC_MF_UP}; /* (read by float8 kinds only) */
    for (int64_t b = 0; b < g.batch; b++) {
        int64_t w = wi ? wi[b] : 0;
        if (p->circular && g.max_seq) w = (w % g.max_seq + g.max_seq) % g.max_seq;
        for (int64_t s = 0; s < g.seq; s++) {
            const int64_t at = p->circular ? (w + s) % g.max_seq : w + s;
            for (int64_t h = 0; h < g.heads; h += p->bshd ? g.heads : 1) {
                /* X's element offset of this row, and the rows' source */
                const int64_t xo = (p->bshd ? b * g.seq + s : (b * g.heads + h) * g.seq + s) * row;
                const char *src = (const char *)x->data + (size_t)xo * xz;
                if (p->rotate) {
                    osc_rope_heads(xt, scr, 0, g.rope.head, x->data, in[2]->data, in[3]->data,
                                   pos, &g.rope, p->rope.interleaved, b, s,
                                   p->bshd ? 0 : h, p->bshd ? g.rope.heads : 1);
                    src = scr;
                }
                for (int64_t e = 0; e < row; e += g.head) {
                    const int64_t hh = p->bshd ? e / g.head : h;
                    char *dst = (char *)out[0].data +
                                (size_t)(((b * g.heads + hh) * g.max_seq + at) * g.head) * cz;
                    if (xt == ct)
                        memcpy(dst, src + (size_t)e * xz, (size_t)g.head * xz);
                    else
                        osc_cast_elems(ct, dst, xt, src + (size_t)e * xz, g.head, &mode);
                }
            }
        }
    }
    if (own) osc_free(k->alloc, own, bytes);
    return OSC_OK;
}
