/* ew_common.c: the input/output checks the elementwise kernels share, and their threaded run. */
#include "ew_common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

osc_status osc_ew_check_type(osc_kctx *k, int32_t i, const char *what, const osc_tensor *t,
                             osc_typeset types) {
    if (t->dtype > 0 && t->dtype < 64 && (types & OSC_TS(t->dtype))) return OSC_OK;
    char list[400] = "";
    size_t p = 0;
    for (int32_t d = 1; d < OSC_DTYPE_COUNT && p < sizeof list; d++)
        if (types & OSC_TS(d))
            p += (size_t)snprintf(list + p, sizeof list - p, "%s%s", p ? ", " : "",
                                  osc_dtype_get(d)->name);
    return osc_kfail(k, OSC_ERR_UNSUPPORTED, "input %d '%s' (%s) has dtype %s; this op version "
                     "accepts: %s", i, what, osc_kinput_name(k, i),
                     osc_dtype_get(t->dtype)->name, list[0] ? list : "(none)");
}

osc_status osc_ew_check_io(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           const char *const *what, const osc_tensor *out, int32_t n_out,
                           const osc_tensor *want) {
    char a[256], b[256];
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    if (out->dtype != want->dtype || out->rank != want->rank ||
        memcmp(out->dims, want->dims, (size_t)want->rank * sizeof want->dims[0]) != 0)
        return osc_kfail(k, OSC_ERR_ARG, "output 0 is %s %s but the inputs give %s %s",
                         osc_dtype_get(out->dtype)->name, osc_shape_str(out, a, sizeof a),
                         osc_dtype_get(want->dtype)->name, osc_shape_str(want, b, sizeof b));
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < n_in && !st; i++) {
        char name[32];
        if (!what) snprintf(name, sizeof name, "data_%d", (int)i);
        st = osc_check_buffer(k, "input", i, what ? what[i] : name, in[i]);
    }
    if (!st) st = osc_check_buffer(k, "output", 0, "output", out);
    return st;
}

/* lim = 2^(bits-1) (signed) or 2^bits (unsigned), exact in double. */
int64_t osc_ew_f2s(double d, int bits) {
    const double lim = ldexp(1.0, bits - 1);
    const int64_t max = (int64_t)(((uint64_t)1 << (bits - 1)) - 1);
    if (d != d) return 0;
    if (d >= lim) return max;
    if (d <= -lim) return -max - 1;
    return (int64_t)d;
}

uint64_t osc_ew_f2u(double d, int bits) {
    const double lim = ldexp(1.0, bits);
    if (d != d || d <= 0) return 0; /* (-1, 0] truncates to 0 too */
    if (d >= lim) return bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    return (uint64_t)d;
}

osc_status osc_ew_legacy_init(osc_kctx *k, const osc_node *node, bool legacy, osc_ew_legacy *lg) {
    static const char *const k_none[] = {NULL}, *const k_v1[] = {"axis", "broadcast", NULL};
    osc_status st = osc_attr_known(k, node, legacy ? k_v1 : k_none);
    if (st || !legacy) return st;
    int64_t b = 0;
    st = osc_attr_int(k, node, "broadcast", 0, &b);
    if (!st) st = osc_attr_int(k, node, "axis", 0, &lg->axis);
    if (st) return st;
    if (b != 0 && b != 1)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'broadcast' = %lld; allowed: 0 or 1",
                         (long long)b);
    lg->broadcast = b == 1;
    lg->has_axis = osc_node_attr(node, "axis") != NULL;
    return OSC_OK;
}

osc_status osc_ew_legacy_b(osc_kctx *k, const osc_ew_legacy *lg, const char *a_what,
                           const osc_tensor *a, const char *b_what, const osc_tensor *b,
                           osc_tensor *b_out) {
    char sa[256], sb[256];
    *b_out = *b;
    const bool same = b->rank == a->rank &&
                      !memcmp(b->dims, a->dims, (size_t)a->rank * sizeof a->dims[0]);
    if (!lg->broadcast) {
        if (same) return OSC_OK;
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 '%s' (%s) has shape %s but %s has %s; with "
                         "broadcast=0 the shapes must be equal", b_what, osc_kinput_name(k, 1),
                         osc_shape_str(b, sb, sizeof sb), a_what, osc_shape_str(a, sa, sizeof sa));
    }
    if (osc_tensor_count(b) == 1) {
        b_out->rank = 0;
        return OSC_OK;
    }
    int64_t axis = lg->has_axis ? lg->axis : (int64_t)a->rank - b->rank;
    if (axis < 0) axis += a->rank;
    if (b->rank > a->rank || axis < 0 || axis + b->rank > a->rank ||
        memcmp(b->dims, a->dims + axis, (size_t)b->rank * sizeof b->dims[0]))
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 '%s' (%s) has shape %s, which is not %s's "
                         "shape %s from axis %lld on (broadcast=1 of version 1)", b_what,
                         osc_kinput_name(k, 1), osc_shape_str(b, sb, sizeof sb), a_what,
                         osc_shape_str(a, sa, sizeof sa), (long long)axis);
    b_out->rank = a->rank;
    for (int32_t d = 0; d < a->rank; d++)
        b_out->dims[d] = d >= axis && d < axis + b->rank ? b->dims[d - axis] : 1;
    return OSC_OK;
}

typedef struct ew_job {
    const osc_bcast_it *it;
    osc_ew_loop2 loop2; /* one of the two */
    osc_ew_loop3 loop3;
    void *o;
    const void *a, *b, *c;
    int64_t count;
} ew_job;

static void ew_part(void *ctx, int32_t part, int32_t parts) {
    const ew_job *j = ctx;
    int64_t lo, hi;
    osc_par_range(j->count, 16, part, parts, &lo, &hi); /* 16 elements: whole cache lines */
    if (lo >= hi) return;
    osc_bcast_it it = *j->it;
    osc_bcast_range(&it, lo, hi);
    if (j->loop2) j->loop2(&it, j->o, j->a, j->b);
    else j->loop3(&it, j->o, j->a, j->b, j->c);
}

static void ew_run(osc_kctx *k, ew_job *j, size_t out_bytes) {
    j->count = j->it->rows_left * j->it->full;
    osc_tpool_run(out_bytes >= OSC_PAR_MIN_BYTES ? k->tpool : NULL, ew_part, j);
}

void osc_ew_run2(osc_kctx *k, const osc_bcast_it *it, osc_ew_loop2 loop, void *o, const void *a,
                 const void *b, size_t out_bytes) {
    ew_job j = {.it = it, .loop2 = loop, .o = o, .a = a, .b = b};
    ew_run(k, &j, out_bytes);
}

void osc_ew_run3(osc_kctx *k, const osc_bcast_it *it, osc_ew_loop3 loop, void *o, const void *a,
                 const void *b, const void *c, size_t out_bytes) {
    ew_job j = {.it = it, .loop3 = loop, .o = o, .a = a, .b = b, .c = c};
    ew_run(k, &j, out_bytes);
}
