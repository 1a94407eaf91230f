/* fused_index.c: indices that fused nodes read in place (fused_scatter.h, "Index pieces"): a
 * row of a whole tensor (edge_index[k]) and the pieces of a Concat along axis 0 (edge lists
 * with self loops appended), bound and checked at run time, so that the concatenated [E] index
 * is never written out (the rewrite finds them: rewrite/index_view.c). */
#include <stdio.h>
#include <string.h>

#include "core/dtype.h"
#include "fused_index.h"
#include "core/kattr.h"

osc_status osc_ixv_bind(osc_kctx *k, const osc_ix_pieces *pc, int32_t at, const char *what,
                        const osc_tensor *const *in, int32_t n_in, int64_t count, osc_ixv *v) {
    memset(v, 0, sizeof *v);
    if (!pc->n) {
        osc_status st = osc_need_input(k, in, n_in, at, what);
        if (!st) st = osc_check_index_dtype(k, at, what, in[at], true);
        if (st) return st;
        if (osc_tensor_count(in[at]) != count)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has %lld elements; expected "
                             "%lld", at, what, osc_kinput_name(k, at),
                             (long long)osc_tensor_count(in[at]), (long long)count);
        *v = (osc_ixv){.n = 1, .i64 = in[at]->dtype == OSC_INT64, .p = {in[at]->data},
                       .end = {count}, .cut = {INT64_MAX, INT64_MAX, INT64_MAX}};
        return OSC_OK;
    }
    int64_t end = 0;
    for (int32_t q = 0; q < pc->n; q++) {
        const int32_t i = pc->input[q];
        osc_status st = osc_need_input(k, in, n_in, i, what);
        if (!st) st = osc_check_index_dtype(k, i, what, in[i], true);
        if (st) return st;
        const bool i64 = in[i]->dtype == OSC_INT64;
        const int64_t row = pc->row[q];
        char sh[256];
        if (q && i64 != v->i64)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d (%s, piece %d of the index '%s' read "
                             "in place) is %s; piece 1 is %s", i, osc_kinput_name(k, i), q + 1,
                             osc_kvalue_name(k, pc->value), osc_dtype_get(in[i]->dtype)->name,
                             v->i64 ? "int64" : "int32");
        if (row >= 0 && (in[i]->rank != 2 || in[i]->dims[0] <= row))
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d (%s, piece %d of the index '%s' read "
                             "in place) has shape %s; the fusion reads its row %lld of a [K, E] "
                             "tensor", i, osc_kinput_name(k, i), q + 1,
                             osc_kvalue_name(k, pc->value), osc_shape_str(in[i], sh, sizeof sh),
                             (long long)row);
        const int64_t len = row >= 0 ? in[i]->dims[1] : osc_tensor_count(in[i]);
        const size_t first = (size_t)(row >= 0 ? row * len : 0);
        v->i64 = i64;
        /* (no data at load, when infer binds shapes only; none in a 0-element tensor) */
        v->p[q] = in[i]->data ? (const char *)in[i]->data + first * (i64 ? 8 : 4) : NULL;
        v->start[q] = end;
        v->end[q] = end += len;
    }
    for (int32_t q = 0; q < OSC_IX_MAX_PIECES - 1; q++)
        v->cut[q] = q + 1 < pc->n ? v->end[q] : INT64_MAX;
    v->n = pc->n;
    if (count >= 0 && end != count)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s, read in place from %d pieces) "
                         "has %lld elements; expected %lld", at, what,
                         osc_kvalue_name(k, pc->value), (int)pc->n, (long long)end,
                         (long long)count);
    return OSC_OK;
}

void osc_ixv_piece(const osc_ixv *v, int32_t q, osc_tensor *t) {
    osc_tensor_vec(t, v->i64 ? OSC_INT64 : OSC_INT32, v->i64 ? 8 : 4, v->end[q] - v->start[q],
                   v->p[q]);
}

/* The index pieces checked in this session's runs (osc_kshared): a piece (its graph value and
 * row) checked against a row count needs no second check in the same run (a graph value is
 * not written while a node reads it), nor in a later run when the caller declared its graph
 * input unchanged (k->unchanged) and its bytes hash as they did in the run before. The pieces
 * of an index with a declared piece are all hashed, so that the index is known the same as in
 * the run before (*same: what was derived from it then still holds). */
#define IX_SEEN_MAX 16
typedef struct ix_seen {
    uint64_t run;    /* the run that last checked it (0: a free entry) */
    uint64_t hashed; /* the run whose bytes `hash` is (0: none) */
    uint64_t same;   /* the last run that found its bytes those of the run before */
    int32_t value;
    int64_t row, rows, len;
    uint64_t hash;
} ix_seen;
typedef struct ix_memo {
    ix_seen e[IX_SEEN_MAX];
} ix_memo;
static const char k_ix_memo_key = 0;

/* The entry of (value, row, rows), else the least recently used one of earlier runs, cleared;
 * NULL when every entry is this run's. */
static ix_seen *seen_of(ix_memo *m, uint64_t run, int32_t value, int64_t row, int64_t rows) {
    ix_seen *old = NULL;
    for (int32_t i = 0; i < IX_SEEN_MAX; i++) {
        ix_seen *e = &m->e[i];
        if (e->run && e->value == value && e->row == row && e->rows == rows) return e;
        if (e->run != run && (!old || e->run < old->run)) old = e;
    }
    if (old) *old = (ix_seen){.value = value, .row = row, .rows = rows};
    return old;
}

/* A 64-bit hash of n bytes (whole 8-byte words in four independent lanes, then the tail). */
static uint64_t hash_bytes(const void *p, size_t n) {
    const uint64_t k1 = 0x9E3779B97F4A7C15u, k2 = 0xC2B2AE3D27D4EB4Fu;
    uint64_t h[4] = {n, k1, k2, k1 ^ k2}, w;
    const char *c = p;
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int32_t l = 0; l < 4; l++) {
            memcpy(&w, c + i + 8 * (size_t)l, 8);
            h[l] = (h[l] ^ w) * k1;
            h[l] ^= h[l] >> 29;
        }
    uint64_t r = h[0] ^ (h[1] * k2) ^ ((h[2] << 17 | h[2] >> 47) * k1) ^ (h[3] * k2 * k2);
    for (; i < n; i++) r = (r ^ (uint8_t)c[i]) * k1;
    r ^= r >> 31;
    return r * k2 ^ (r >> 27);
}

/* The graph value of piece q (its node input's). */
static int32_t piece_value(const osc_kctx *k, const osc_ix_pieces *pc, int32_t at, int32_t q) {
    return k->node->inputs[pc->n ? pc->input[q] : at];
}

osc_status osc_ixv_check(osc_kctx *k, const osc_ixv *v, const osc_ix_pieces *pc, int32_t at,
                         const char *what, const char *role, int64_t rows, bool *same) {
    ix_memo *m = k->store && k->node ? osc_kshared(k, &k_ix_memo_key, sizeof *m, NULL) : NULL;
    if (k->store && k->node && !m)
        return osc_kfail(k, OSC_ERR_NOMEM, "out of memory keeping the checked index pieces");
    bool declared = false, all_same = m != NULL, ok = rows > 0 || v->end[v->n - 1] == 0;
    for (int32_t q = 0; m && k->unchanged && q < v->n; q++)
        declared = declared || k->unchanged[piece_value(k, pc, at, q)];
    osc_tensor piece;
    for (int32_t q = 0; ok && q < v->n; q++) {
        osc_ixv_piece(v, q, &piece);
        const int64_t len = piece.dims[0];
        const int32_t value = m ? piece_value(k, pc, at, q) : -1;
        ix_seen *e = m ? seen_of(m, k->run, value, pc->n ? pc->row[q] : -1, rows) : NULL;
        if (e && e->run == k->run && e->len == len) { /* checked by a node before */
            all_same = all_same && e->same == k->run;
            continue;
        }
        const size_t bytes = (size_t)len * (v->i64 ? 8 : 4);
        const uint64_t h = declared && e ? hash_bytes(piece.data, bytes) : 0;
        if (e && declared && e->hashed && e->hashed + 1 == k->run && e->len == len) {
            if (h == e->hash) {
                e->run = e->hashed = e->same = k->run;
                continue;
            }
            if (k->unchanged[value])
                return osc_kfail(k, OSC_ERR_ARG, "input %d '%s' (%s%s): its graph input '%s' "
                                 "was declared unchanged since the last run "
                                 "(osc_session_input_unchanged), but its bytes differ from that "
                                 "run's", at, what, osc_kinput_name(k, pc->n ? pc->input[q] : at),
                                 role, osc_kvalue_name(k, value));
        }
        all_same = false;
        ok = len == 0 || osc_index_in_range(k, &piece, rows);
        if (ok && e)
            *e = (ix_seen){.run = k->run, .hashed = declared ? k->run : 0, .value = value,
                           .row = e->row, .rows = rows, .len = len, .hash = h};
    }
    if (same) *same = ok && all_same;
    for (int32_t q = 0; !ok && q < v->n; q++) {
        for (int64_t i = v->start[q]; i < v->end[q]; i++) {
            const int64_t x = osc_fs_ix(v->p[q], v->i64, i - v->start[q]);
            if (x >= -rows && x < rows) continue;
            char where[256];
            if (pc->n)
                snprintf(where, sizeof where, "%s, piece %d of the index '%s' read in place",
                         osc_kinput_name(k, pc->input[q]), q + 1,
                         osc_kvalue_name(k, pc->value));
            else
                snprintf(where, sizeof where, "%s", osc_kinput_name(k, at));
            return osc_kfail(k, OSC_ERR_INDEX, "input %d '%s' (%s%s) flat position %lld: value "
                             "%lld is out of range [%lld, %lld] for axis 0 of size %lld", at,
                             what, where, role, (long long)i, (long long)x, (long long)-rows,
                             (long long)(rows - 1), (long long)rows);
        }
    }
    return OSC_OK;
}
