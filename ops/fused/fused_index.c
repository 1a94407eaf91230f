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

osc_status osc_ixv_check(osc_kctx *k, const osc_ixv *v, const osc_ix_pieces *pc, int32_t at,
                         const char *what, const char *role, int64_t rows) {
    bool ok = rows > 0 || v->end[v->n - 1] == 0;
    osc_tensor piece;
    for (int32_t q = 0; ok && q < v->n; q++) {
        osc_ixv_piece(v, q, &piece);
        ok = piece.dims[0] == 0 || osc_index_in_range(k, &piece, rows);
    }
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
