/* scan.c: Scan-8 to 25: runs the body once per position along the scan inputs' axes, carrying N
 * state values from one iteration to the next (as Loop does) and stacking the K scan outputs
 * along their axes. Scan-8 has a batch axis 0 on every input and output (the node runs the body
 * per batch entry) and an optional sequence_lens input 0; from 9 on, attributes choose the axes
 * and directions. */
#include <stdio.h>
#include <string.h>

#include "cf.h"
#include "core/dtype.h"
#include "core/kattr.h"

OSC_KERNEL_DECLARE(osc_scan)

typedef struct scan_params {
    const osc_attr *body;
    int32_t first;              /* the first state input: 1 with Scan-8's sequence_lens */
    int32_t n_state, n_in, n_out;
    bool batched;               /* Scan-8 */
    int64_t *in_axis, *in_rev, *out_axis, *out_rev; /* per scan input / scan output */
} scan_params;

/* INTS attribute `name` of n entries into *out (from the model's pool); absent: n times def. */
static osc_status ints(osc_kctx *k, const osc_node *node, const char *name, int32_t n,
                       int64_t def, bool flag, int64_t **out) {
    const osc_attr *a = osc_node_attr(node, name);
    int64_t *v = osc_kparams(k, ((size_t)n + 1) * sizeof *v);
    if (!v) return k->err->status;
    if (a && (a->type != OSC_ATTR_INTS || a->n != (size_t)n))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' must list %d integers, one per scan "
                         "%s", name, (int)n, strstr(name, "output") ? "output" : "input");
    for (int32_t i = 0; i < n; i++) {
        v[i] = a ? a->ints[i] : def;
        if (flag && v[i] != 0 && v[i] != 1)
            return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' entry %d is %lld; expected 0 "
                             "(forward) or 1 (reverse)", name, (int)i, (long long)v[i]);
    }
    *out = v;
    return OSC_OK;
}

osc_status osc_scan_init(osc_kctx *k, const osc_node *node, void **params) {
    const bool v8 = k->since_version < 9;
    static const char *const known8[] = {"body", "num_scan_inputs", "directions", NULL};
    static const char *const known[] = {"body", "num_scan_inputs", "scan_input_axes",
                                        "scan_input_directions", "scan_output_axes",
                                        "scan_output_directions", NULL};
    int64_t m;
    osc_status st = osc_attr_known(k, node, v8 ? known8 : known);
    if (!st) st = osc_attr_int(k, node, "num_scan_inputs", -1, &m);
    scan_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->batched = v8;
    p->first = v8 ? 1 : 0;
    const int32_t named = node->n_inputs - node->n_implicit - p->first;
    if (m < 1 || m > named)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'num_scan_inputs' is %lld; expected 1 to "
                         "%d, the node's state and scan inputs", (long long)m, (int)named);
    p->n_in = (int32_t)m;
    p->n_state = named - p->n_in;
    p->n_out = node->n_outputs - p->n_state;
    if (p->n_out < 0)
        return osc_kfail(k, OSC_ERR_MODEL, "has %d state inputs but %d outputs; it needs one "
                         "output per state value, then the scan outputs", (int)p->n_state,
                         (int)node->n_outputs);
    if ((st = cf_graph_attr(k, node, "body", p->n_state + p->n_in, p->n_state + p->n_out,
                            &p->body)) ||
        (st = ints(k, node, v8 ? "directions" : "scan_input_directions", p->n_in, 0, true,
                   &p->in_rev)) ||
        (st = ints(k, node, "scan_input_axes", p->n_in, 0, false, &p->in_axis)) ||
        (st = ints(k, node, "scan_output_axes", p->n_out, 0, false, &p->out_axis)) ||
        (st = ints(k, node, "scan_output_directions", p->n_out, 0, true, &p->out_rev)))
        return st;
    *params = p;
    return OSC_OK;
}

/* What one scan (one batch entry of Scan-8) works with. */
typedef struct scan_run {
    const scan_params *p;
    const osc_tensor *x;   /* the scan inputs (views of one batch entry for Scan-8) */
    const osc_tensor **state;
    int32_t *axis;         /* per scan input, normalised */
    int64_t len;           /* the sequence length */
    int64_t steps;         /* the iterations: len, or Scan-8's sequence_lens entry */
    osc_tensor *slice;     /* per scan input: this iteration's slice */
    char **buf;            /* per scan input: room for a slice when its axis is not 0 */
    size_t *buf_cap;
    const osc_tensor **ins;
    osc_tensor *res;
    cf_set *cur, *next;
} scan_run;

/* Slice t of scan input i (along its axis) into r->slice[i]. */
static osc_status take_slice(osc_kctx *k, scan_run *r, int32_t i, int64_t t) {
    const osc_tensor *x = &r->x[i];
    const int32_t a = r->axis[i];
    const size_t es = osc_dtype_get(x->dtype)->bits / 8;
    int64_t outer = 1, inner = 1;
    for (int32_t d = 0; d < a; d++) outer *= x->dims[d];
    for (int32_t d = a + 1; d < x->rank; d++) inner *= x->dims[d];
    osc_tensor *s = &r->slice[i];
    memset(s, 0, sizeof *s);
    s->dtype = x->dtype;
    s->rank = x->rank - 1;
    for (int32_t d = 0, e = 0; d < x->rank; d++)
        if (d != a) s->dims[e++] = x->dims[d];
    s->nbytes = (size_t)(outer * inner) * es;
    const size_t row = (size_t)inner * es;
    if (outer == 1) { /* a slice in place */
        s->data = (char *)x->data + (size_t)t * row;
        return OSC_OK;
    }
    if (s->nbytes > r->buf_cap[i]) {
        char *b = osc_malloc(k->alloc, s->nbytes);
        if (!b) return osc_kfail(k, OSC_ERR_NOMEM, "out of memory slicing scan input %d", i);
        osc_free(k->alloc, r->buf[i], r->buf_cap[i]);
        r->buf[i] = b;
        r->buf_cap[i] = s->nbytes;
    }
    for (int64_t o = 0; o < outer; o++)
        memcpy(r->buf[i] + (size_t)o * row, (const char *)x->data + ((size_t)(o * r->len + t)) *
               row, row);
    s->data = r->buf[i];
    return OSC_OK;
}

/* Scan output j's result y of iteration t into out's tensor n_state + j. */
static osc_status place_output(osc_kctx *k, scan_run *r, cf_set *out, int32_t j, int64_t t,
                               const osc_tensor *y, const char *what) {
    const scan_params *p = r->p;
    const int32_t o = p->n_state + j;
    int64_t a = p->out_axis[j];
    if (a < -(y->rank + 1) || a > y->rank)
        return osc_kfail(k, OSC_ERR_MODEL, "scan_output_axes entry %d is %lld; expected %d to "
                         "%d for a scan output of rank %d", (int)j, (long long)a,
                         (int)-(y->rank + 1), (int)y->rank, (int)y->rank);
    if (a < 0) a += y->rank + 1;
    if (osc_dtype_get(y->dtype)->bits % 8)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "%s: a scan output of packed dtype %s is not "
                         "supported", what, osc_dtype_get(y->dtype)->name);
    int64_t dims[OSC_MAX_RANK];
    for (int32_t d = 0, e = 0; d <= y->rank; d++) dims[d] = d == a ? r->len : y->dims[e++];
    osc_tensor *z = &out->t[o];
    osc_status st = OSC_OK;
    if (t == 0) st = cf_set_make(k, out, o, y->dtype, y->rank + 1, dims);
    bool same = !st && z->dtype == y->dtype && z->rank == y->rank + 1;
    for (int32_t d = 0; same && d <= y->rank; d++) same = z->dims[d] == dims[d];
    if (st || !same)
        return st ? st : osc_kfail(k, OSC_ERR_SHAPE, "%s: scan output %d has another dtype or "
                                   "shape than at the first iteration", what, (int)j);
    int64_t outer = 1, inner = 1;
    for (int32_t d = 0; d < a; d++) outer *= y->dims[d];
    for (int32_t d = (int32_t)a; d < y->rank; d++) inner *= y->dims[d];
    const size_t row = (size_t)inner * (osc_dtype_get(y->dtype)->bits / 8);
    const int64_t at = p->out_rev[j] ? r->len - 1 - t : t;
    for (int64_t q = 0; q < outer && !st; q++)
        st = cf_set_write(k, out, o, (size_t)(q * r->len + at) * row,
                          (const char *)y->data + (size_t)q * row, row);
    return st;
}

/* One scan over r->len positions: out gets the N final states, then the K scan outputs. */
static osc_status scan_once(osc_kctx *k, scan_run *r, const osc_tensor *const *node_in,
                            cf_set *out) {
    const scan_params *p = r->p;
    const int32_t n = p->n_state;
    osc_status st = OSC_OK;
    for (int32_t i = 0; i < n; i++) r->ins[i] = r->state[i];
    for (int64_t t = 0; !st && t < r->steps; t++) {
        if ((st = osc_kcancelled(k))) break;
        char what[64];
        snprintf(what, sizeof what, "body, iteration %lld", (long long)t);
        for (int32_t i = 0; !st && i < p->n_in; i++) {
            st = take_slice(k, r, i, p->in_rev[i] ? r->steps - 1 - t : t);
            r->ins[n + i] = &r->slice[i];
        }
        if (!st) st = k->body(k, p->body, r->ins, n + p->n_in, node_in, r->res, n + p->n_out, what);
        cf_set_clear(r->next);
        for (int32_t i = 0; !st && i < n; i++) st = cf_set_put(k, r->next, i, &r->res[i]);
        for (int32_t j = 0; !st && j < p->n_out; j++)
            st = place_output(k, r, out, j, t, &r->res[n + j], what);
        cf_set *sw = r->cur;
        r->cur = r->next;
        r->next = sw;
        for (int32_t i = 0; i < n; i++) r->ins[i] = &r->cur->t[i];
    }
    for (int32_t i = 0; !st && i < n; i++) st = cf_set_put(k, out, i, r->ins[i]);
    for (int32_t j = 0; !st && r->steps == 0 && j < p->n_out; j++) {
        const osc_graph *g = p->body->g;
        const osc_value *v = &g->values[g->outputs[n + j]];
        int64_t a = p->out_axis[j], dims[OSC_MAX_RANK] = {0};
        if (!v->decl.dtype || v->decl.rank < 0 || v->decl.rank >= OSC_MAX_RANK)
            return osc_kfail(k, OSC_ERR_SHAPE, "the scan runs no iteration, and the body does "
                             "not declare the dtype and rank of scan output '%s'", v->name);
        if (a < 0) a += v->decl.rank + 1;
        for (int32_t d = 0, e = 0; d <= v->decl.rank; d++)
            dims[d] = d == a ? r->len : v->decl.dims[e] > 0 ? v->decl.dims[e++] : (e++, 0);
        st = cf_set_make(k, out, n + j, v->decl.dtype, v->decl.rank + 1, dims);
    }
    return st;
}

/* Entry b of a batched (Scan-8) input: its dims after the first, its bytes. */
static osc_tensor entry(const osc_tensor *t, int64_t b) {
    osc_tensor e = *t;
    e.rank = t->rank - 1;
    memmove(e.dims, t->dims + 1, (size_t)e.rank * sizeof *e.dims);
    e.nbytes = t->dims[0] ? t->nbytes / (size_t)t->dims[0] : 0;
    e.data = (char *)t->data + (size_t)b * e.nbytes;
    return e;
}

/* The scan inputs' sequence length (r->x set): their axes in range, one length for all. */
static osc_status sequence(osc_kctx *k, scan_run *r, int32_t shift) {
    const scan_params *p = r->p;
    for (int32_t i = 0; i < p->n_in; i++) {
        const osc_tensor *x = &r->x[i];
        int64_t a = p->in_axis[i];
        if (x->rank < 1 || a < -x->rank || a >= x->rank)
            return osc_kfail(k, OSC_ERR_SHAPE, "scan input %d has rank %d; its axis %lld must "
                             "be within it", (int)(p->first + p->n_state + i + shift),
                             (int)x->rank, (long long)a);
        r->axis[i] = (int32_t)(a < 0 ? a + x->rank : a);
        if (osc_dtype_get(x->dtype)->bits % 8)
            return osc_kfail(k, OSC_ERR_UNSUPPORTED, "scan input %d has packed dtype %s; not "
                             "supported", (int)i, osc_dtype_get(x->dtype)->name);
        const int64_t len = x->dims[r->axis[i]];
        if (i == 0) r->len = r->steps = len;
        else if (len != r->len)
            return osc_kfail(k, OSC_ERR_SHAPE, "scan input %d has %lld positions along its "
                             "axis; scan input 0 has %lld (one sequence length for all)",
                             (int)i, (long long)len, (long long)r->len);
    }
    return OSC_OK;
}

/* Scan-8's sequence_lens: nb int64 lengths from 0 to len, checked before the first entry runs;
 * an entry of a shorter length scans its first positions (from the last one back, for a
 * reverse input) and its scan outputs are zero past them, as the spec's padding says. */
static osc_status check_lens(osc_kctx *k, const osc_tensor *t, int64_t nb, int64_t len) {
    if (t->dtype != OSC_INT64 || osc_tensor_count(t) != nb)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 (sequence_lens) must hold %lld int64 "
                         "lengths, one per batch entry", (long long)nb);
    const int64_t *v = t->data;
    for (int64_t b = 0; b < nb; b++)
        if (v[b] < 0 || v[b] > len)
            return osc_kfail(k, OSC_ERR_INDEX, "input 0 (sequence_lens) entry %lld is %lld; "
                             "expected 0 to %lld, the scan inputs' length", (long long)b,
                             (long long)v[b], (long long)len);
    return OSC_OK;
}

/* Scan-8: the body per batch entry, the results stacked along a new axis 0. */
static osc_status batches(osc_kctx *k, scan_run *r, const osc_tensor *const *in,
                          osc_tensor *state_v, cf_set *one, cf_set *out) {
    const scan_params *p = r->p;
    const osc_tensor *const *xs = in + p->first + p->n_state;
    const int64_t nb = xs[0]->rank ? xs[0]->dims[0] : 0;
    for (int32_t i = 0; i < p->n_state + p->n_in; i++) {
        const osc_tensor *t = in[p->first + i];
        if (t->rank < 1 || t->dims[0] != nb || nb < 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d must have the batch axis 0 of the "
                             "first scan input (%lld entries, at least 1)", (int)(p->first + i),
                             (long long)nb);
    }
    osc_status st = OSC_OK;
    for (int64_t b = 0; !st && b < nb; b++) {
        for (int32_t i = 0; i < p->n_state; i++) {
            state_v[i] = entry(in[p->first + i], b);
            r->state[i] = &state_v[i];
        }
        osc_tensor *xv = (osc_tensor *)r->x;
        for (int32_t i = 0; i < p->n_in; i++) xv[i] = entry(xs[i], b);
        st = sequence(k, r, 0);
        if (!st && b == 0 && in[0]) st = check_lens(k, in[0], nb, r->len);
        if (!st && in[0]) r->steps = ((const int64_t *)in[0]->data)[b];
        cf_set_clear(one);
        if (!st) st = scan_once(k, r, in, one);
        for (int32_t j = 0; !st && j < one->n; j++) {
            const osc_tensor *y = &one->t[j];
            int64_t dims[OSC_MAX_RANK];
            dims[0] = nb;
            memcpy(dims + 1, y->dims, (size_t)y->rank * sizeof *dims);
            if (b == 0 && y->rank + 1 > OSC_MAX_RANK)
                st = osc_kfail(k, OSC_ERR_LIMIT, "output %d would have rank %d", (int)j,
                               (int)(y->rank + 1));
            if (!st && b == 0) st = cf_set_make(k, out, j, y->dtype, y->rank + 1, dims);
            bool same = !st && out->t[j].dtype == y->dtype && out->t[j].nbytes == y->nbytes *
                        (size_t)nb;
            for (int32_t d = 0; same && d < y->rank; d++) same = out->t[j].dims[d + 1] == y->dims[d];
            if (!st && !same)
                st = osc_kfail(k, OSC_ERR_SHAPE, "output %d of batch entry %lld has another "
                               "dtype or shape than entry 0's", (int)j, (long long)b);
            if (!st) st = cf_set_write(k, out, j, (size_t)b * y->nbytes, y->data, y->nbytes);
        }
    }
    return st;
}

static osc_status eval(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, cf_set *out,
                       int32_t n_out) {
    (void)n_in, (void)n_out;
    const scan_params *p = k->params;
    const size_t n = (size_t)p->n_state, m = (size_t)p->n_in, K = (size_t)p->n_out;
    scan_run r = {.p = p};
    osc_tensor *x = osc_calloc(k->alloc, m, sizeof *x), *state_v = osc_calloc(k->alloc, n + 1,
                                                                               sizeof *state_v);
    r.x = x;
    r.state = osc_calloc(k->alloc, n + 1, sizeof *r.state);
    r.axis = osc_calloc(k->alloc, m, sizeof *r.axis);
    r.slice = osc_calloc(k->alloc, m, sizeof *r.slice);
    r.buf = osc_calloc(k->alloc, m, sizeof *r.buf);
    r.buf_cap = osc_calloc(k->alloc, m, sizeof *r.buf_cap);
    r.ins = osc_calloc(k->alloc, n + m, sizeof *r.ins);
    r.res = osc_calloc(k->alloc, n + K, sizeof *r.res);
    r.cur = cf_set_new(k, p->n_state);
    r.next = r.cur ? cf_set_new(k, p->n_state) : NULL;
    cf_set *one = p->batched && r.next ? cf_set_new(k, p->n_state + p->n_out) : NULL;
    osc_status st = OSC_OK;
    if (!r.cur || !r.next || (p->batched && !one)) st = k->err->status;
    else if (!x || !state_v || !r.state || !r.axis || !r.slice || !r.buf || !r.buf_cap ||
             !r.ins || !r.res)
        st = osc_kfail(k, OSC_ERR_NOMEM, "out of memory");
    else if (p->batched)
        st = batches(k, &r, in, state_v, one, out);
    else {
        for (size_t i = 0; i < m; i++) x[i] = *in[n + i];
        for (size_t i = 0; i < n; i++) r.state[i] = in[i];
        st = sequence(k, &r, 0);
        if (!st) st = scan_once(k, &r, in, out);
    }
    for (size_t i = 0; r.buf && r.buf_cap && i < m; i++) osc_free(k->alloc, r.buf[i], r.buf_cap[i]);
    osc_free(k->alloc, x, m * sizeof *x);
    osc_free(k->alloc, state_v, (n + 1) * sizeof *state_v);
    osc_free(k->alloc, r.state, (n + 1) * sizeof *r.state);
    osc_free(k->alloc, r.axis, m * sizeof *r.axis);
    osc_free(k->alloc, r.slice, m * sizeof *r.slice);
    osc_free(k->alloc, r.buf, m * sizeof *r.buf);
    osc_free(k->alloc, r.buf_cap, m * sizeof *r.buf_cap);
    osc_free(k->alloc, r.ins, (n + m) * sizeof *r.ins);
    osc_free(k->alloc, r.res, (n + K) * sizeof *r.res);
    cf_set_free(r.cur);
    cf_set_free(r.next);
    cf_set_free(one);
    return st;
}

osc_status osc_scan_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    return cf_infer(k, in, n_in, out, n_out, eval);
}

osc_status osc_scan_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    return cf_run(k, in, n_in, out, n_out, eval);
}
