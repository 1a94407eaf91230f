/* unique.c: Unique-11: the distinct elements of X (or its distinct slices along an axis),
 * sorted or in order of first occurrence, with their first indices, the inverse map and the
 * counts. How many there are depends on X's values, so infer reads them (infer_reads bit 0)
 * and sorts them; in a session it keeps the groups in the node's slot for the run that
 * follows in the same session run (on the same X), which sorts only when infer did not. */
#include <string.h>

#include "core/dtype.h"
#include "ops/shape/shape_ops.h"
#include "unique_sort.h"

OSC_KERNEL_DECLARE(osc_unique)

/* Attributes init parses. */
typedef struct unique_params {
    bool has_axis; /* without an axis X is flattened */
    int64_t axis;  /* as written; normalised by view_of */
    bool sorted;   /* false: in order of first occurrence */
} unique_params;

osc_status osc_unique_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"axis", "sorted", NULL};
    int64_t axis;
    bool sorted;
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_attr_int(k, node, "axis", 0, &axis);
    if (!st) st = osc_sh_attr_bool(k, node, "sorted", true, &sorted);
    unique_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->has_axis = osc_node_attr(node, "axis") != NULL;
    p->axis = axis;
    p->sorted = sorted;
    *params = p;
    return OSC_OK;
}

/* X as Unique's slices (unique_sort.h); *axis the axis normalised, -1 without one. Checks X
 * is present, of an allowed dtype, with its data. */
static osc_status view_of(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_uq_view *v, int32_t *axis) {
    const unique_params *p = k->params;
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "X", &count);
    if (!st) st = osc_sh_need_data(k, 0, "X", in[0]);
    if (st) return st;
    const osc_tensor *x = in[0];
    *v = (osc_uq_view){.x = x->data, .dtype = x->dtype, .flat = !p->has_axis, .n = count,
                       .outer = 1, .inner = 1};
    *axis = -1;
    if (!p->has_axis) return OSC_OK;
    if ((st = osc_norm_axis(k, p->axis, x->rank, axis))) return st;
    v->n = x->dims[*axis];
    /* slices without elements (all equal): no product is taken, it might overflow */
    v->outer = count ? osc_dims_prod(x->dims, *axis) : 0;
    v->inner = count ? osc_dims_prod(x->dims + *axis + 1, x->rank - *axis - 1) : 0;
    return OSC_OK;
}

/* The sorted slices and their groups, in the block osc_uq_sort works in: after sort_groups,
 * perm[g] is the first slice of group g (groups in sorted order, u of them) and grp[s] the
 * group of slice s. */
typedef struct uq_groups {
    int64_t *perm, *grp;
    int64_t u;
    size_t bytes;
} uq_groups;

static osc_status sort_groups(osc_kctx *k, const osc_uq_view *v, uq_groups *g) {
    const int64_t n = v->n;
    memset(g, 0, sizeof *g);
    if (n == 0) return OSC_OK;
    g->bytes = osc_uq_block_bytes(v);
    if (!g->bytes)
        return osc_kfail(k, OSC_ERR_LIMIT, "input 0 'X' (%s) has %lld slices to sort; more "
                         "than this machine can address", osc_kinput_name(k, 0), (long long)n);
    g->perm = k->alloc ? osc_malloc(k->alloc, g->bytes) : NULL;
    if (!g->perm)
        return osc_kfail(k, OSC_ERR_NOMEM, "input 0 'X' (%s): cannot allocate %zu bytes to "
                         "sort its %lld %s", osc_kinput_name(k, 0), g->bytes, (long long)n,
                         v->flat ? "elements" : "slices");
    g->grp = g->perm + n;
    osc_uq_sort(v, g->perm);
    /* numpy's adjacent comparison; perm is compacted in place (a write at u - 1 <= p) */
    int64_t u = 0, prev = 0;
    for (int64_t p = 0; p < n; p++) {
        const int64_t s = g->perm[p];
        if (p == 0 || !osc_uq_same(v, prev, s)) g->perm[u++] = s;
        g->grp[s] = u - 1;
        prev = s;
    }
    g->u = u;
    return OSC_OK;
}

static void free_groups(osc_kctx *k, uq_groups *g) {
    if (g->perm) osc_free(k->alloc, g->perm, g->bytes);
}

/* The groups infer made in session run `run` for X's data at x, kept for run (osc_kslot). */
typedef struct uq_stash {
    uq_groups g;
    uint64_t run;
    const void *x;
    osc_allocator *a;
} uq_stash;

static void drop_stash(void *p) {
    uq_stash *st = p;
    if (st->g.perm) osc_free(st->a, st->g.perm, st->g.bytes);
    osc_free(st->a, st, sizeof *st);
}

/* Hands g to the slot (the session's run k->run); without a slot or room, frees it. */
static void keep_groups(osc_kctx *k, const void *x, uq_groups *g) {
    uq_stash *st = osc_kslot_state(k, sizeof *st, drop_stash);
    if (!st) {
        free_groups(k, g);
        return;
    }
    st->a = k->alloc;
    if (st->g.perm) osc_free(st->a, st->g.perm, st->g.bytes);
    st->g = *g;
    st->run = k->run;
    st->x = x;
}

/* The groups infer kept for this run and X, moved out of the slot; else X sorted now. */
static osc_status take_groups(osc_kctx *k, const osc_uq_view *v, uq_groups *g) {
    uq_stash *st = k->slot && k->run ? k->slot->p : NULL;
    if (!st || st->run != k->run || st->x != v->x || !st->g.perm) return sort_groups(k, v, g);
    *g = st->g;
    memset(&st->g, 0, sizeof st->g);
    st->run = 0;
    return OSC_OK;
}

/* Y is X's shape with u along the axis ([u] without one); indices and counts [u];
 * inverse_indices one per slice. */
static void shapes(const osc_tensor *x, int32_t axis, int64_t n, int64_t u, osc_tensor *want) {
    memset(want, 0, 4 * sizeof *want);
    if (axis < 0) {
        want[0].dtype = x->dtype;
        want[0].rank = 1;
        want[0].dims[0] = u;
    } else {
        osc_same_shape(&want[0], x);
        want[0].dims[axis] = u;
    }
    for (int32_t j = 1; j < 4; j++) {
        want[j].dtype = OSC_INT64;
        want[j].rank = 1;
        want[j].dims[0] = j == 2 ? n : u;
    }
}

osc_status osc_unique_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, int32_t n_out) {
    osc_uq_view v;
    uq_groups g;
    osc_tensor want[4];
    int32_t axis;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs output 0 'Y'");
    osc_status st = view_of(k, in, n_in, &v, &axis);
    if (!st) st = sort_groups(k, &v, &g);
    if (st) return st;
    shapes(in[0], axis, v.n, g.u, want);
    keep_groups(k, v.x, &g);
    for (int32_t j = 0; j < n_out && j < 4; j++) osc_same_shape(&out[j], &want[j]);
    return OSC_OK;
}

/* Writes the outputs present from the groups: id[g] is group g's place in the outputs (g when
 * sorted, else its rank by first occurrence), cnt[g] its slice count. */
static void write_outputs(const osc_uq_view *v, const uq_groups *g, const int64_t *id,
                          const int64_t *cnt, size_t esize, osc_tensor *out, int32_t n_out) {
    const int64_t n = v->n, u = g->u, in = v->inner;
    const size_t row = (size_t)in * esize;
    int64_t *ind = n_out > 1 ? out[1].data : NULL, *inv = n_out > 2 ? out[2].data : NULL;
    int64_t *counts = n_out > 3 ? out[3].data : NULL;
    for (int64_t q = 0; q < u; q++) {
        const int64_t at = id[q], s = g->perm[q];
        for (int64_t o = 0; row && o < v->outer; o++)
            memcpy((char *)out[0].data + (size_t)((o * u + at) * in) * esize,
                   (const char *)v->x + (size_t)((o * n + s) * in) * esize, row);
        if (ind) ind[at] = s;
        if (counts) counts[at] = cnt[q];
    }
    for (int64_t s = 0; inv && s < n; s++) inv[s] = id[g->grp[s]];
}

osc_status osc_unique_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    osc_uq_view v;
    uq_groups g;
    osc_tensor want[4];
    int32_t axis;
    if (n_out < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs output 0 'Y'");
    osc_status st = view_of(k, in, n_in, &v, &axis);
    if (!st) st = take_groups(k, &v, &g);
    if (st) return st;
    shapes(in[0], axis, v.n, g.u, want);
    for (int32_t j = 0; j < n_out && j < 4 && !st; j++)
        st = osc_sh_check_out(k, j, &out[j], &want[j]);
    if (!st) st = osc_sh_check_inputs(k, in, n_in);
    if (st || g.u == 0) { /* no slice: every output is empty */
        free_groups(k, &g);
        return st;
    }
    const size_t ib = 2 * (size_t)g.u * sizeof(int64_t);
    int64_t *id = osc_malloc(k->alloc, ib);
    if (!id) {
        free_groups(k, &g);
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate %zu bytes for the counts", ib);
    }
    int64_t *cnt = id + g.u;
    memset(cnt, 0, (size_t)g.u * sizeof *cnt);
    for (int64_t s = 0; s < v.n; s++) cnt[g.grp[s]]++;
    if (((const unique_params *)k->params)->sorted) {
        for (int64_t q = 0; q < g.u; q++) id[q] = q;
    } else { /* a group's first slice comes first in X's order */
        for (int64_t s = 0, next = 0; s < v.n; s++)
            if (g.perm[g.grp[s]] == s) id[g.grp[s]] = next++;
    }
    write_outputs(&v, &g, id, cnt, osc_sh_bits(v.dtype) / 8, out, n_out);
    osc_free(k->alloc, id, ib);
    free_groups(k, &g);
    return OSC_OK;
}
