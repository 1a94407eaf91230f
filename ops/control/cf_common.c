/* cf_common.c: the result sets of If, Loop and Scan, their shared infer and run (cf.h), and
 * their attribute and scalar checks. */
#include <string.h>

#include "cf.h"
#include "core/dtype.h"
#include "core/kattr.h"

cf_set *cf_set_new(osc_kctx *k, int32_t n) {
    cf_set *s = osc_calloc(k->alloc, 1, sizeof *s);
    if (s) {
        s->alloc = k->alloc;
        s->n = n;
        s->t = osc_calloc(k->alloc, (size_t)n + 1, sizeof *s->t);
        s->cap = osc_calloc(k->alloc, (size_t)n + 1, sizeof *s->cap);
        osc_pool_init(&s->strings, k->alloc, 0);
    }
    if (!s || !s->t || !s->cap) {
        cf_set_free(s);
        osc_kfail(k, OSC_ERR_NOMEM, "out of memory keeping results");
        return NULL;
    }
    return s;
}

void cf_set_free(cf_set *s) {
    if (!s) return;
    for (int32_t i = 0; s->t && s->cap && i < s->n; i++) osc_free(s->alloc, s->t[i].data, s->cap[i]);
    osc_pool_free(&s->strings);
    osc_free(s->alloc, s->t, ((size_t)s->n + 1) * sizeof *s->t);
    osc_free(s->alloc, s->cap, ((size_t)s->n + 1) * sizeof *s->cap);
    osc_allocator *a = s->alloc;
    osc_free(a, s, sizeof *s);
}

static void drop(void *p) { cf_set_free(p); }

void cf_set_clear(cf_set *s) {
    for (int32_t i = 0; i < s->n; i++) {
        void *data = s->t[i].data;
        memset(&s->t[i], 0, sizeof s->t[i]);
        s->t[i].data = data;
    }
    osc_pool_reset(&s->strings);
}

/* Room for `need` bytes in tensor i (its old bytes are not kept). */
static osc_status room(osc_kctx *k, cf_set *s, int32_t i, size_t need) {
    if (need <= s->cap[i]) return OSC_OK;
    void *p = osc_malloc(s->alloc, need);
    if (!p) return osc_kfail(k, OSC_ERR_NOMEM, "out of memory keeping a result of %zu bytes",
                             need);
    osc_free(s->alloc, s->t[i].data, s->cap[i]);
    s->t[i].data = p;
    s->cap[i] = need;
    return OSC_OK;
}

/* String elements of t (count of them) get bytes of their own from pool. */
static osc_status own_strings(osc_kctx *k, osc_pool *pool, osc_tensor *t) {
    osc_string *str = t->data;
    for (int64_t e = 0, n = t->dtype == OSC_STRING ? osc_tensor_count(t) : 0; e < n; e++) {
        if (!str[e].len) continue;
        char *copy = osc_pool_strndup(pool, str[e].ptr, str[e].len);
        if (!copy) return osc_kfail(k, OSC_ERR_NOMEM, "out of memory copying strings");
        str[e].ptr = copy;
    }
    return OSC_OK;
}

osc_status cf_set_put(osc_kctx *k, cf_set *s, int32_t i, const osc_tensor *t) {
    osc_status st = room(k, s, i, t->nbytes);
    if (st) return st;
    void *data = s->t[i].data;
    s->t[i] = *t;
    s->t[i].data = data;
    if (t->nbytes) memcpy(data, t->data, t->nbytes);
    return own_strings(k, &s->strings, &s->t[i]);
}

osc_status cf_set_append(osc_kctx *k, cf_set *s, int32_t i, const osc_tensor *t,
                         const char *what) {
    osc_tensor *o = &s->t[i];
    size_t used = o->nbytes;
    if (o->rank == 0) { /* the first append */
        o->dtype = t->dtype;
        o->rank = t->rank + 1;
        memcpy(o->dims + 1, t->dims, (size_t)t->rank * sizeof *t->dims);
        o->dims[0] = 0;
        used = o->nbytes = 0;
    }
    if (osc_dtype_get(t->dtype)->bits % 8)
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "%s: a scan output of packed dtype %s is not "
                         "supported", what, osc_dtype_get(t->dtype)->name);
    bool same = o->dtype == t->dtype && o->rank == t->rank + 1;
    for (int32_t d = 0; same && d < t->rank; d++) same = o->dims[d + 1] == t->dims[d];
    if (!same)
        return osc_kfail(k, OSC_ERR_SHAPE, "%s: a scan output must have one dtype and shape in "
                         "every iteration; it changed at iteration %lld", what,
                         (long long)o->dims[0]);
    if (used + t->nbytes > s->cap[i]) {
        size_t cap = s->cap[i] ? s->cap[i] : 64;
        while (cap < used + t->nbytes) {
            if (cap > SIZE_MAX / 2)
                return osc_kfail(k, OSC_ERR_LIMIT, "%s: the scan output is too large", what);
            cap *= 2;
        }
        void *p = osc_realloc(s->alloc, o->data, s->cap[i], cap);
        if (!p) return osc_kfail(k, OSC_ERR_NOMEM, "%s: out of memory growing a scan output to "
                                 "%zu bytes", what, cap);
        o->data = p;
        s->cap[i] = cap;
    }
    if (t->nbytes) memcpy((char *)o->data + used, t->data, t->nbytes);
    o->nbytes = used + t->nbytes;
    o->dims[0]++;
    osc_tensor added = *t;
    added.data = o->data ? (char *)o->data + used : NULL; /* NULL: nothing appended, ever */
    return own_strings(k, &s->strings, &added);
}

osc_status cf_set_write(osc_kctx *k, cf_set *s, int32_t i, size_t at, const void *src,
                        size_t n) {
    char *base = s->t[i].data; /* NULL for an empty output */
    osc_tensor part = {.dtype = s->t[i].dtype, .rank = 1, .data = base ? base + at : NULL,
                       .nbytes = n};
    part.dims[0] = part.dtype == OSC_STRING ? (int64_t)(n / sizeof(osc_string)) : 0;
    if (n) memcpy(part.data, src, n);
    return own_strings(k, &s->strings, &part);
}

osc_status cf_set_make(osc_kctx *k, cf_set *s, int32_t i, int32_t dtype, int32_t rank,
                       const int64_t *dims) {
    osc_tensor t = {.dtype = dtype, .rank = rank};
    memcpy(t.dims, dims, (size_t)rank * sizeof *dims);
    int64_t count = osc_tensor_count(&t);
    if (count < 0 || !osc_dtype_bytes(dtype, count, &t.nbytes))
        return osc_kfail(k, OSC_ERR_LIMIT, "output %d has too many elements to address", i);
    osc_status st = room(k, s, i, t.nbytes);
    if (st) return st;
    t.data = s->t[i].data;
    if (t.nbytes) memset(t.data, 0, t.nbytes);
    s->t[i] = t;
    return OSC_OK;
}

osc_status cf_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                    int32_t n_out, cf_eval_fn eval) {
    cf_set *s = k->slot ? k->slot->p : NULL;
    if (!s) {
        s = cf_set_new(k, n_out);
        if (!s) return k->err->status;
        if (k->slot) {
            k->slot->p = s;
            k->slot->drop = drop;
        }
    }
    s->run = 0;
    cf_set_clear(s);
    osc_status st = eval(k, in, n_in, s, n_out);
    for (int32_t j = 0; !st && j < n_out; j++) {
        memset(&out[j], 0, sizeof out[j]);
        out[j].dtype = s->t[j].dtype;
        out[j].rank = s->t[j].rank;
        memcpy(out[j].dims, s->t[j].dims, sizeof out[j].dims);
    }
    if (!k->slot) cf_set_free(s);
    else if (!st) s->run = k->run;
    return st;
}

osc_status cf_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                  int32_t n_out, cf_eval_fn eval) {
    cf_set *s = k->slot ? k->slot->p : NULL, *temp = NULL;
    osc_status st = OSC_OK;
    if (!s || !k->run || s->run != k->run) { /* not inferred in this run: compute now */
        s = temp = cf_set_new(k, n_out);
        st = s ? eval(k, in, n_in, s, n_out) : k->err->status;
    }
    for (int32_t j = 0; !st && j < n_out; j++) { /* what infer said, unless the data changed */
        const osc_tensor *t = &s->t[j];
        bool same = t->dtype == out[j].dtype && t->rank == out[j].rank &&
                    t->nbytes == out[j].nbytes;
        for (int32_t d = 0; same && d < t->rank; d++) same = t->dims[d] == out[j].dims[d];
        if (!same)
            st = osc_kfail(k, OSC_ERR_SHAPE, "output %d has another dtype or shape than when "
                           "its shape was inferred", (int)j);
    }
    for (int32_t j = 0; !st && j < n_out; j++) {
        if (out[j].nbytes) memcpy(out[j].data, s->t[j].data, out[j].nbytes);
        st = own_strings(k, k->strings, &out[j]);
    }
    cf_set_free(temp);
    return st;
}

osc_status cf_graph_attr(osc_kctx *k, const osc_node *node, const char *name, int32_t inputs,
                         int32_t outputs, const osc_attr **out) {
    const osc_attr *a = osc_node_attr(node, name);
    if (!a || a->type != OSC_ATTR_GRAPH || !a->g || !a->body)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute '%s' must be a graph", name);
    const osc_graph *g = a->g;
    const int32_t own = g->n_inputs - g->n_captures;
    if ((inputs >= 0 && own != inputs) || (outputs >= 0 && g->n_outputs != outputs))
        return osc_kfail(k, OSC_ERR_MODEL, "subgraph '%s' (attribute '%s') has %d inputs and %d "
                         "outputs; this node needs %d inputs and %d outputs", g->name, name,
                         (int)own, (int)g->n_outputs, (int)(inputs >= 0 ? inputs : own),
                         (int)(outputs >= 0 ? outputs : g->n_outputs));
    *out = a;
    return OSC_OK;
}

osc_status cf_scalar(osc_kctx *k, const osc_tensor *t, int32_t input, const char *what,
                     int32_t dtype, int64_t *out) {
    if (t->dtype != dtype || osc_tensor_count(t) != 1 || !t->data)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d (%s) must hold one %s element; it has "
                         "dtype %s and %lld elements", (int)input, what,
                         osc_dtype_get(dtype)->name, osc_dtype_get(t->dtype)->name,
                         (long long)osc_tensor_count(t));
    /* a bool byte may hold any value (a caller's buffer): nonzero is true */
    *out = dtype == OSC_BOOL ? *(const uint8_t *)t->data != 0 : *(const int64_t *)t->data;
    return OSC_OK;
}
