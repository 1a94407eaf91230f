/* broadcast.c: numpy-style multidirectional broadcasting (shape rule and row iterator). */
#include "broadcast.h"

#include <string.h>

#include "core/kattr.h"

osc_status osc_bcast_merge(osc_kctx *k, osc_tensor *acc, int32_t i, const char *what,
                           const osc_tensor *t) {
    char a[256], b[256];
    if (osc_tensor_count(t) < 0)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has an invalid shape %s (rank %d, "
                         "negative dim or more than 2^63-1 elements)", i, what,
                         osc_kinput_name(k, i), osc_shape_str(t, a, sizeof a), (int)t->rank);
    int32_t r = acc->rank > t->rank ? acc->rank : t->rank;
    int64_t dims[OSC_MAX_RANK];
    for (int32_t d = 0; d < r; d++) {
        /* dim d of the result is dim d - (r - rank) of each side, or 1 when that is negative */
        int32_t da = d - (r - acc->rank), db = d - (r - t->rank);
        int64_t x = da >= 0 ? acc->dims[da] : 1, y = db >= 0 ? t->dims[db] : 1;
        if (x != y && x != 1 && y != 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s, which does not "
                             "broadcast with shape %s: size %lld vs %lld in dim %d from the right "
                             "(sizes must be equal or one of them 1)", i, what,
                             osc_kinput_name(k, i), osc_shape_str(t, a, sizeof a),
                             osc_shape_str(acc, b, sizeof b), (long long)y, (long long)x,
                             (int)(r - 1 - d));
        dims[d] = x == 1 ? y : x;
    }
    if (osc_dims_prod(dims, r) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "broadcasting input %d '%s' (%s) shape %s with shape "
                         "%s gives more than 2^63-1 elements", i, what, osc_kinput_name(k, i),
                         osc_shape_str(t, a, sizeof a), osc_shape_str(acc, b, sizeof b));
    acc->rank = r;
    memcpy(acc->dims, dims, (size_t)r * sizeof dims[0]);
    return OSC_OK;
}

bool osc_bcast_begin(osc_bcast_it *it, const osc_tensor *out, int32_t n_in,
                     const osc_tensor *const *in) {
    memset(it, 0, sizeof *it);
    it->n_in = n_in;
    int64_t count = osc_tensor_count(out);
    if (count <= 0) return false;
    /* bc[g][j]: input j is broadcast (size 1 against a larger output dim) in merged dim g. */
    bool bc[OSC_MAX_RANK][OSC_BCAST_MAX_IN];
    int32_t g = 0;
    for (int32_t d = 0; d < out->rank; d++) {
        if (out->dims[d] == 1) continue; /* contributes no movement to anyone */
        bool cur[OSC_BCAST_MAX_IN];
        bool same = g > 0;
        for (int32_t j = 0; j < n_in; j++) {
            int32_t dj = d - (out->rank - in[j]->rank);
            cur[j] = dj < 0 || in[j]->dims[dj] == 1;
            if (same && cur[j] != bc[g - 1][j]) same = false;
        }
        if (same) {
            it->dims[g - 1] *= out->dims[d]; /* a sub-product of count: no overflow */
        } else {
            it->dims[g] = out->dims[d];
            memcpy(bc[g], cur, sizeof cur);
            g++;
        }
    }
    if (g == 0) { /* every dim is 1: a single element */
        it->dims[0] = 1;
        for (int32_t j = 0; j < n_in; j++) bc[0][j] = true;
        g = 1;
    }
    it->rank = g;
    for (int32_t j = 0; j < n_in; j++) {
        int64_t s = 1;
        for (int32_t d = g - 1; d >= 0; d--) {
            it->stride[j][d] = bc[d][j] ? 0 : s;
            if (!bc[d][j]) s *= it->dims[d]; /* at most input j's element count */
        }
        it->step[j] = it->stride[j][g - 1];
    }
    it->len = it->full = it->last_len = it->dims[g - 1];
    it->rows_left = count / it->len;
    return true;
}

void osc_bcast_range(osc_bcast_it *it, int64_t start, int64_t end) {
    const int64_t full = it->full, row = start / full, last = (end - 1) / full;
    it->col0 = start - row * full;
    it->rows_left = last - row + 1;
    it->last_len = end - last * full;
    it->len = it->rows_left == 1 ? end - start : full - it->col0;
    it->out_off = start;
    for (int32_t j = 0; j < it->n_in; j++) it->off[j] = it->col0 * it->step[j];
    int64_t r = row; /* the row's odometer position, innermost outer dim first */
    for (int32_t d = it->rank - 2; d >= 0; d--) {
        it->c[d] = r % it->dims[d];
        r /= it->dims[d];
        for (int32_t j = 0; j < it->n_in; j++) it->off[j] += it->c[d] * it->stride[j][d];
    }
}

bool osc_bcast_next(osc_bcast_it *it) {
    if (--it->rows_left <= 0) return false;
    it->out_off += it->len;
    it->len = it->rows_left == 1 ? it->last_len : it->full;
    if (it->col0) { /* the first row began inside the row: back to its start */
        for (int32_t j = 0; j < it->n_in; j++) it->off[j] -= it->col0 * it->step[j];
        it->col0 = 0;
    }
    for (int32_t d = it->rank - 2; d >= 0; d--) {
        for (int32_t j = 0; j < it->n_in; j++) it->off[j] += it->stride[j][d];
        if (++it->c[d] < it->dims[d]) return true;
        for (int32_t j = 0; j < it->n_in; j++) it->off[j] -= it->stride[j][d] * it->dims[d];
        it->c[d] = 0;
    }
    return true;
}

void osc_bcast_copy(const osc_tensor *out, const osc_tensor *t, size_t esize) {
    osc_bcast_it it;
    const osc_tensor *in[1] = {t};
    if (!osc_bcast_begin(&it, out, 1, in)) return;
    char *o = out->data;
    const char *s = t->data;
    do {
        char *dst = o + (size_t)it.out_off * esize;
        const char *src = s + (size_t)it.off[0] * esize;
        if (it.step[0]) {
            memcpy(dst, src, (size_t)it.len * esize);
        } else {
            for (int64_t j = 0; j < it.len; j++) memcpy(dst + (size_t)j * esize, src, esize);
        }
    } while (osc_bcast_next(&it));
}
