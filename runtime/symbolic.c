/* symbolic.c: the shapes of a model with dynamic axes, symbols and all (OSC_SYM_DIM,
 * ops/fused/fused.h), for the rewrite pass: folding shapes only what is static, and an export
 * with dynamic_axes leaves every value with N or E in its shape unshaped.
 *
 * How: the graph is inferred OSC_SYM_PROBES times, each time with every symbolic dim of the
 * graph inputs at another size (a probe), by the kernels' own infer, and the small values that
 * shape subgraphs compute (Shape, Gather, Concat, Range's limit, the exporters' Where of -1s)
 * by the kernels' own run, as folding does. A dim of the same size in every probe is that
 * size; one whose size differs is a symbol, the same symbol for dims whose sizes agree in every
 * probe (E + N computed twice, or N read through Shape -> Gather -> Unsqueeze -> Concat ->
 * ConstantOfShape). Three probes size the input symbols as 5040 times primes of their own
 * (5040 divides by 2..10, so Reshapes into small factors still infer), so that different sums
 * and products of the symbols differ; the fourth sizes them 32 to 62, under 64, so that a size
 * that only looks constant at large sizes (min(E, 64)) is a symbol; the last sizes them 2 to 32
 * (even, as every probe: an exporter's Reshape into pairs still infers), so that one that only
 * looks like a sum of dims at sizes over 30 (max(E, 30)) is not taken for one; the order of
 * the symbols by size alternates between probes. A symbol's size is also fitted as a sum of at
 * most OSC_SYM_TERMS input dims times integers plus a constant, through the first probes and
 * checked on the others (E + N, 2 E, 64 E); ShapeOf computes only such sums.
 *
 * This is evidence, not proof: a shape computation that agrees with such a sum on all five
 * probes but not at some other size (a piecewise one with a threshold between the probes'
 * sizes) would be taken for it, and a ShapeOf would then compute the sum where the graph does
 * not. Exporters' shape subgraphs (Shape, Gather, Concat, Unsqueeze, Range, the -1 handling of
 * Expand and Reshape) are sums and products of the dims. A threshold under 2 (a Slice of one
 * row is min(N, 1): 1 in every probe, 0 at N = 0) is caught by the zero probe below in a
 * value's content (what a ShapeOf would compute), not in a static dim of its shape
 * (zero_agrees says why).
 *
 * A sixth probe sizes every input symbol 0 and only checks (zero_check): a value with a symbol
 * in its shape or content that the zero probe computes otherwise than the symbol's size says
 * (Max(N, 1) rows, 1 there, taken for N's) is left unshaped, so no rule builds on it. A value
 * the zero probe cannot infer keeps what the five found.
 *
 * A fused node checks at each run, before its first write, that every dim it reads agrees with
 * the sizes it bound: there a coincidence of probes could refuse a run, never compute a wrong
 * result.
 * Nothing here fails the load but a failed allocation (OSC_ERR_NOMEM, also inside a kernel's
 * infer or run: the load must not quietly skip the fusion): a node that does not infer under a
 * probe leaves its outputs unshaped. */
#include <string.h>

#include "model.h"

#define OSC_SYM_PROBES 5
#define OSC_SYM_INPUTS 16  /* distinct symbolic dims of the graph inputs the probes size */
#define OSC_SYM_CLASSES 64 /* distinct symbols the result may hold */
#define PROBE_DATA_MAX ((size_t)64 << 10) /* the largest value a probe computes the data of */

static const int16_t k_primes[3 * OSC_SYM_INPUTS] = {
    11,  13,  17,  19,  23,  29,  31,  37,  41,  43,  47,  53,  59,  61,  67,  71,
    73,  79,  83,  89,  97,  101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151,
    157, 163, 167, 173, 179, 181, 191, 193, 197, 199, 211, 223, 227, 229, 233, 239};

/* Probe k's size of input symbol s: the symbols ordered by size one way in probes 0, 2 and 4,
 * the other way in 1 and 3, so that max(E, N) is no symbol's size in every probe. */
static int64_t probe_size(int32_t k, int32_t s) {
    if (k == OSC_SYM_PROBES) return 0; /* the zero probe, which checks (zero_check) */
    const int32_t r = k % 2 ? OSC_SYM_INPUTS - 1 - s : s;
    return k < 3 ? 5040 * (int64_t)k_primes[k * OSC_SYM_INPUTS + r]
           : k == 3 ? 32 + 2 * (int64_t)r : 2 + 2 * (int64_t)r;
}

typedef struct probe {
    osc_tensor *vals;
    bool *shaped, *known;
    void **owned; /* per value: the data this probe computed, given back after it */
    bool nomem;   /* an allocation failed: the load fails (a node that does not infer does not) */
} probe;

/* The graph inputs' symbols: each one's first graph input and dim. */
typedef struct inputs {
    int32_t n;
    const char *name[OSC_SYM_INPUTS];
    int32_t value[OSC_SYM_INPUTS], dim[OSC_SYM_INPUTS];
} inputs;

/* The symbol of graph input value v's dim d (its name's, or one of its own when it has none),
 * or -1 past OSC_SYM_INPUTS symbols. */
static int32_t input_symbol(inputs *in, const osc_type *t, int32_t v, int32_t d) {
    const char *s = t->dim_names[d];
    for (int32_t i = 0; s && i < in->n; i++)
        if (in->name[i] && !strcmp(in->name[i], s)) return i;
    if (in->n == OSC_SYM_INPUTS) return -1;
    in->name[in->n] = s;
    in->value[in->n] = v;
    in->dim[in->n] = d;
    return in->n++;
}

/* Seeds probe k: folding's values where it shaped them, the graph inputs at the probe's sizes;
 * false past OSC_SYM_INPUTS symbols or with none. */
static bool seed(const osc_model *m, probe *p, int32_t k, inputs *in) {
    const osc_graph *g = &m->g;
    in->n = 0;
    for (int32_t v = 0; v < g->n_values; v++) {
        const osc_value *val = &g->values[v];
        p->owned[v] = NULL;
        p->known[v] = m->fold_shaped[v] && val->init && !val->is_input;
        p->shaped[v] = m->fold_shaped[v];
        if (m->fold_shaped[v]) p->vals[v] = m->fold_vals[v];
    }
    for (int32_t i = 0; i < g->n_inputs; i++) {
        const int32_t v = g->inputs[i];
        const osc_value *val = &g->values[v];
        if (m->fold_shaped[v] || val->init || !val->decl.dtype || val->decl.rank < 0) continue;
        osc_tensor *t = &p->vals[v];
        memset(t, 0, sizeof *t);
        t->dtype = val->decl.dtype;
        t->rank = val->decl.rank;
        for (int32_t d = 0; d < t->rank; d++) {
            t->dims[d] = val->decl.dims[d];
            if (t->dims[d] >= 0) continue;
            const int32_t s = input_symbol(in, &val->decl, v, d);
            if (s < 0) return false;
            t->dims[d] = probe_size(k, s);
        }
        p->shaped[v] = true;
    }
    return in->n > 0;
}

/* Node i's data under the probe, as folding computes it, when its inputs are known (or it reads
 * only their shapes) and its outputs are small; else they stay unknown. */
static void compute(osc_model *m, probe *p, int32_t i, osc_node_io io, osc_err *err) {
    const osc_node *n = &m->g.nodes[i];
    bool ok = true;
    for (int32_t j = 0; j < n->n_inputs; j++) {
        const int32_t v = n->inputs[j];
        ok = ok && (v < 0 || ((p->known[v] || (n->kernel->flags & OSC_KF_SHAPE_ONLY)) &&
                              p->vals[v].dtype != OSC_STRING));
    }
    for (int32_t j = 0; ok && j < n->n_outputs; j++) {
        const osc_tensor *t = &p->vals[n->outputs[j]];
        ok = n->outputs[j] >= 0 && t->dtype != OSC_STRING && t->nbytes <= PROBE_DATA_MAX;
    }
    for (int32_t j = 0; ok && j < n->n_outputs; j++) {
        const int32_t v = n->outputs[j];
        p->owned[v] = p->vals[v].data = osc_malloc(&m->alloc, p->vals[v].nbytes + 1);
        ok = p->owned[v] != NULL;
        p->nomem = p->nomem || !ok;
    }
    osc_kctx k = osc_node_ctx(m, i, NULL, err);
    const osc_status st = ok ? osc_run_node(m, i, p->vals, io, &k) : OSC_OK;
    p->nomem = p->nomem || st == OSC_ERR_NOMEM;
    ok = ok && st == OSC_OK;
    for (int32_t j = 0; j < n->n_outputs; j++)
        if (n->outputs[j] >= 0) p->known[n->outputs[j]] = ok;
}

/* Infers (and computes what is small) every node folding left, in graph order, under probe p. */
static void run_probe(osc_model *m, probe *p, osc_node_io io) {
    const osc_graph *g = &m->g;
    for (int32_t i = 0; i < g->n_nodes; i++) {
        const osc_node *n = &g->nodes[i];
        bool ready = !n->folded && osc_node_ready(m, i, p->known), done = true;
        for (int32_t j = 0; ready && j < n->n_inputs; j++)
            ready = n->inputs[j] < 0 || p->shaped[n->inputs[j]];
        for (int32_t j = 0; j < n->n_outputs; j++)
            done = done && (n->outputs[j] < 0 || m->fold_shaped[n->outputs[j]]);
        if (!ready || done) continue;
        osc_err err = {0};
        int32_t stop;
        osc_status st = osc_infer_range(m, p->vals, p->known, i, i + 1, &stop, io, NULL, &err);
        if (st == OSC_OK) st = osc_check_ranks(m, p->vals, i, i + 1, &err);
        p->nomem = p->nomem || st == OSC_ERR_NOMEM;
        if (st != OSC_OK) continue;
        for (int32_t j = 0; j < n->n_outputs; j++)
            if (n->outputs[j] >= 0) p->shaped[n->outputs[j]] = true;
        compute(m, p, i, io, &err);
    }
}

/* The symbols found so far: each one's sizes in the probes. */
typedef struct classes {
    int32_t n;
    int64_t size[OSC_SYM_CLASSES][OSC_SYM_PROBES];
} classes;

/* One element of the merge: sizes s[] across the probes as a size or a symbol (-1: the table
 * is full). */
static int64_t merge_size(classes *c, const int64_t *s) {
    bool same = true;
    for (int32_t k = 1; k < OSC_SYM_PROBES; k++) same = same && s[k] == s[0];
    if (same) return s[0];
    int32_t i = 0;
    while (i < c->n && memcmp(c->size[i], s, sizeof c->size[i]) != 0) i++;
    if (i == OSC_SYM_CLASSES) return -1;
    if (i == c->n) memcpy(c->size[c->n++], s, sizeof c->size[i]);
    return OSC_SYM_DIM(i);
}

/* Value v's shape in every probe as one shape with symbols, into *t; false when a probe did not
 * shape it, they disagree on dtype or rank, or the symbols ran out. */
static bool merge_shape(const probe *p, int32_t v, classes *c, osc_tensor *t) {
    const osc_tensor *a = &p[0].vals[v];
    for (int32_t k = 0; k < OSC_SYM_PROBES; k++)
        if (!p[k].shaped[v] || p[k].vals[v].dtype != a->dtype || p[k].vals[v].rank != a->rank)
            return false;
    memset(t, 0, sizeof *t);
    t->dtype = a->dtype;
    t->rank = a->rank;
    for (int32_t d = 0; d < a->rank; d++) {
        int64_t s[OSC_SYM_PROBES];
        for (int32_t k = 0; k < OSC_SYM_PROBES; k++) s[k] = p[k].vals[v].dims[d];
        if ((t->dims[d] = merge_size(c, s)) == -1) return false;
    }
    return true;
}

/* The values of v, an int64 scalar or small vector known in every probe (Shape's output, a
 * dim Gathered from it), into t->dims (t->rank of them, symbols and all); t->rank -1 else. */
static void merge_content(const probe *p, int32_t v, const osc_tensor *shape, classes *c,
                          osc_tensor *t) {
    memset(t, 0, sizeof *t);
    t->rank = -1;
    const int64_t n = shape->rank == 0 ? 1 : shape->rank == 1 ? shape->dims[0] : -1;
    if (shape->dtype != OSC_INT64 || n < 0 || n > OSC_FUSED_MAX_RANK) return;
    for (int32_t k = 0; k < OSC_SYM_PROBES; k++)
        if (!p[k].known[v] || !p[k].vals[v].data) return;
    for (int64_t i = 0; i < n; i++) {
        int64_t s[OSC_SYM_PROBES];
        for (int32_t k = 0; k < OSC_SYM_PROBES; k++) {
            s[k] = ((const int64_t *)p[k].vals[v].data)[i];
            if (s[k] < 0) return; /* (no size: -1 of a Reshape, which a symbol's code would be) */
        }
        if ((t->dims[i] = merge_size(c, s)) == -1) return;
    }
    t->dtype = OSC_INT64;
    t->rank = (int32_t)n;
}

/* Whether sizes t[] are sum coef[a] * (input symbol sym[a]'s sizes) + add over the probes, for
 * n (1 or 2) symbols: the coefficients solved from the first n + 1 probes in double precision,
 * rounded to integers, then checked exactly (int64, overflow checked) on every probe; *e then
 * holds it, its terms at the symbols' graph inputs. */
static bool fit(const int64_t *t, int32_t n, const int32_t *sym, const inputs *in,
                osc_sym_expr *e) {
    double a[3][3], r[3], coef[2]; /* rows: probes; columns: the symbols' sizes, then 1 */
    for (int32_t k = 0; k <= n; k++) {
        for (int32_t x = 0; x < n; x++) a[k][x] = (double)probe_size(k, sym[x]);
        a[k][n] = 1;
        r[k] = (double)t[k];
    }
    if (n == 1) {
        if (a[0][0] == a[1][0]) return false;
        coef[0] = (r[0] - r[1]) / (a[0][0] - a[1][0]);
    } else { /* Cramer's rule on 3 x 3 */
#define DET3(m) ((m)[0][0] * ((m)[1][1] * (m)[2][2] - (m)[1][2] * (m)[2][1]) -                     \
                 (m)[0][1] * ((m)[1][0] * (m)[2][2] - (m)[1][2] * (m)[2][0]) +                     \
                 (m)[0][2] * ((m)[1][0] * (m)[2][1] - (m)[1][1] * (m)[2][0]))
        const double det = DET3(a);
        if (det == 0) return false;
        for (int32_t x = 0; x < 2; x++) {
            double b[3][3];
            memcpy(b, a, sizeof b);
            for (int32_t k = 0; k < 3; k++) b[k][x] = r[k];
            coef[x] = DET3(b) / det;
        }
#undef DET3
    }
    for (int32_t x = 0; x < n; x++) {
        if (!(coef[x] > -2147483647.0 && coef[x] < 2147483647.0)) return false;
        e->coef[x] = (int64_t)(coef[x] < 0 ? coef[x] - 0.5 : coef[x] + 0.5);
        if (e->coef[x] == 0) return false;
    }
    for (int32_t k = 0; k < OSC_SYM_PROBES; k++) { /* add from probe 0, then every probe exact */
        int64_t s = k ? e->add : t[0], term;
        for (int32_t x = 0; x < n; x++) {
            if (__builtin_mul_overflow(e->coef[x], probe_size(k, sym[x]), &term) ||
                (k ? __builtin_add_overflow(s, term, &s) : __builtin_sub_overflow(s, term, &s)))
                return false;
        }
        if (k == 0) e->add = s;
        else if (s != t[k]) return false;
    }
    if (e->add > INT32_MAX || e->add < -INT32_MAX) return false;
    for (int32_t x = 0; x < n; x++) { /* where each symbol is: its first graph input's dim */
        e->value[x] = in->value[sym[x]];
        e->dim[x] = in->dim[sym[x]];
    }
    e->n_terms = n;
    return true;
}

/* Each symbol's size as a sum over the input symbols' dims, where one fits (n_terms 0 else):
 * one symbol's, else two's. */
static void fit_all(const classes *c, const inputs *in, osc_sym_expr *expr) {
    for (int32_t i = 0; i < c->n; i++) {
        osc_sym_expr *e = &expr[i];
        int32_t sym[2];
        bool ok = false;
        memset(e, 0, sizeof *e);
        for (sym[0] = 0; sym[0] < in->n && !ok; sym[0]++) ok = fit(c->size[i], 1, sym, in, e);
        for (sym[0] = 0; sym[0] < in->n && !ok; sym[0]++)
            for (sym[1] = sym[0] + 1; sym[1] < in->n && !ok; sym[1]++)
                ok = fit(c->size[i], 2, sym, in, e);
    }
}

/* Whether symbol s's size agrees with z, the zero probe's: its expression's constant where it
 * has one, else what the zero probe gave first for that symbol (zero[i], -1 before). A static
 * size is not checked: one that the five probes agree on and 0 changes is a Slice of one row
 * (min(N, 1)), the [1, C] torch's index_add_ expands its source to; checking it would unfuse
 * every index_add_ export, so that case stays uncaught (docs/design.md). */
static bool zero_agrees(int64_t s, int64_t z, const osc_sym_expr *expr, int64_t *zero) {
    if (s >= 0) return true;
    const int64_t i = -2 - s; /* OSC_SYM_DIM's inverse */
    if (expr[i].n_terms) return expr[i].add == z;
    if (zero[i] < 0) zero[i] = z;
    return zero[i] == z;
}

/* Leaves unshaped (and of unknown content) every value the zero probe z shaped, or computed,
 * otherwise than out says; and of unknown content (its shape kept) every value whose content
 * has a static element the zero probe computes otherwise (min(N, 1) as a value: a ShapeOf of
 * it would give 1 where the graph gives 0). */
static void zero_check(const osc_model *m, const probe *z, osc_sym_shapes_out *out,
                       osc_tensor *content, int32_t n_syms) {
    int64_t zero[OSC_SYM_CLASSES];
    for (int32_t i = 0; i < n_syms; i++) zero[i] = -1;
    for (int32_t v = 0; v < m->g.n_values; v++) {
        const osc_tensor *t = &out->vals[v], *zt = &z->vals[v];
        if (!out->shaped[v] || m->fold_shaped[v] || !z->shaped[v]) continue;
        bool ok = zt->dtype == t->dtype && zt->rank == t->rank;
        for (int32_t d = 0; ok && d < t->rank; d++)
            ok = zero_agrees(t->dims[d], zt->dims[d], out->expr, zero);
        const osc_tensor *c = &content[v]; /* its rank values in dims (merge_content) */
        const bool zc = z->known[v] && zt->data && c->rank >= 0;
        /* (a static length the zero probe changed: a content nothing can build on) */
        ok = ok && (!zc || zt->nbytes == (size_t)c->rank * sizeof(int64_t));
        bool static_ok = true; /* the static values of the content, which ShapeOf would emit */
        for (int32_t i = 0; ok && zc && i < c->rank; i++) {
            const int64_t zv = ((const int64_t *)zt->data)[i];
            ok = zero_agrees(c->dims[i], zv, out->expr, zero);
            static_ok &= c->dims[i] < 0 || c->dims[i] == zv;
        }
        if (!ok) out->shaped[v] = false;
        if (!ok || !static_ok) content[v].rank = -1;
    }
}

osc_status osc_sym_shapes(osc_model *m, osc_sym_shapes_out *out, osc_err *err) {
    const size_t nv = (size_t)m->g.n_values + 1;
    const size_t vb = nv * sizeof(osc_tensor), fb = nv * (2 * sizeof(bool) + sizeof(void *));
    probe p[OSC_SYM_PROBES + 1]; /* the last: the zero probe */
    char *block[OSC_SYM_PROBES + 1] = {NULL};
    inputs in;
    memset(out, 0, sizeof *out);
    out->vals = osc_malloc(&m->alloc, 2 * vb);
    out->shaped = osc_malloc(&m->alloc, nv);
    out->expr = osc_malloc(&m->alloc, OSC_SYM_CLASSES * sizeof *out->expr);
    osc_node_io io = {osc_malloc(&m->alloc, ((size_t)m->max_in + 1) * sizeof *io.ins),
                      osc_malloc(&m->alloc, ((size_t)m->max_out + 1) * sizeof *io.outs)};
    bool ok = out->vals && out->shaped && out->expr && io.ins && io.outs, any = true;
    classes *c = ok ? osc_malloc(&m->alloc, sizeof *c) : NULL;
    ok = ok && c;
    for (int32_t k = 0; ok && any && k <= OSC_SYM_PROBES; k++) {
        if (!(block[k] = osc_malloc(&m->alloc, vb + fb))) {
            ok = false;
            break;
        }
        p[k] = (probe){.vals = (osc_tensor *)block[k], .owned = (void **)(block[k] + vb)};
        p[k].shaped = (bool *)(p[k].owned + nv);
        p[k].known = p[k].shaped + nv;
        if ((any = seed(m, &p[k], k, &in))) run_probe(m, &p[k], io);
        ok = !p[k].nomem;
    }
    if (ok && any) {
        osc_tensor *content = out->vals + nv;
        c->n = 0;
        for (int32_t v = 0; v < m->g.n_values; v++) {
            out->shaped[v] = m->fold_shaped[v];
            if (m->fold_shaped[v]) out->vals[v] = m->fold_vals[v];
            else out->shaped[v] = merge_shape(p, v, c, &out->vals[v]);
            if (out->shaped[v]) merge_content(p, v, &out->vals[v], c, &content[v]);
            else content[v].rank = -1;
        }
        fit_all(c, &in, out->expr);
        zero_check(m, &p[OSC_SYM_PROBES], out, content, c->n);
        out->info = (osc_sym_info){.n_syms = c->n, .expr = out->expr, .content = content};
    }
    for (int32_t k = 0; k <= OSC_SYM_PROBES && block[k]; k++) {
        for (size_t v = 0; v + 1 < nv; v++)
            if (p[k].owned[v]) osc_free(&m->alloc, p[k].owned[v], p[k].vals[v].nbytes + 1);
        osc_free(&m->alloc, block[k], vb + fb);
    }
    osc_free(&m->alloc, c, sizeof *c);
    osc_free(&m->alloc, io.ins, ((size_t)m->max_in + 1) * sizeof *io.ins);
    osc_free(&m->alloc, io.outs, ((size_t)m->max_out + 1) * sizeof *io.outs);
    if (ok && any) return OSC_OK;
    osc_sym_shapes_free(m, out);
    return ok ? OSC_OK : osc_fail(err, OSC_ERR_NOMEM, "out of memory inferring symbolic shapes");
}

void osc_sym_shapes_free(osc_model *m, osc_sym_shapes_out *out) {
    const size_t nv = (size_t)m->g.n_values + 1;
    osc_free(&m->alloc, out->vals, 2 * nv * sizeof *out->vals);
    osc_free(&m->alloc, out->shaped, nv);
    osc_free(&m->alloc, out->expr, OSC_SYM_CLASSES * sizeof *out->expr);
    memset(out, 0, sizeof *out);
}
