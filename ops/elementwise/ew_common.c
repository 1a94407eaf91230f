/* ew_common.c: the input/output checks the elementwise kernels share, and their threaded run. */
#include "ew_common.h"

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
