/* ranges.c: --random's safe values for integer inputs, found by following each input to the
 * nodes that read it as indices, positions or shapes. */
/* From each integer graph input the walk follows ops that pass values on unchanged (Unsqueeze,
 * Squeeze, Reshape, Flatten, Cast, Identity, Expand, Concat, Tile, Transpose, Split, and the
 * data input of Gather, GatherElements, GatherND and Slice) to the readers that constrain them:
 * Gather, GatherElements, ScatterElements, Scatter (indices: [-s, s-1] along the axis), GatherND,
 * ScatterND (tuples), TensorScatter (write_indices), OneHot (indices: [-depth, depth-1]), Slice
 * (starts: [0, s-1]), Reshape (target shape) and Expand (target shape: 1). The input's range is
 * the intersection of its readers'. Shapes come from the bound inputs (sh) and what the library
 * inferred at load (osc_model_value); an unknown shape leaves 0, valid for any non-empty dim. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Where the input's values are, at one value of the graph. */
typedef struct reach {
    const char *value;
    int direct;           /* the value is the input itself (only whole tuples keep their order) */
    int comp_lo, comp_hi; /* the components (last axis) of the value holding them; -1: any */
    int reshaped;         /* passed an op that may reorder or rebuild shapes (for Reshape targets) */
    char via[160];        /* the ops passed, for messages */
} reach;

/* Static shape of a value: bound inputs and what cli_shapes_propagate worked out first, then
 * the shapes the library inferred at load. */
static int shape_of(const osc_model *m, const cli_shapes *sh, const char *name, cli_vshape *out) {
    const cli_vshape *v = cli_shapes_get(sh, name);
    if (v) {
        *out = *v;
        return 1;
    }
    osc_value_desc d;
    if (!name || !name[0] || osc_model_value(m, name, &d) != OSC_OK || d.rank < 0) return 0;
    for (int32_t k = 0; k < d.rank; k++)
        if (d.dims[k] < 0) return 0;
    memset(out, 0, sizeof *out);
    out->name = d.name, out->rank = d.rank;
    memcpy(out->dims, d.dims, (size_t)d.rank * sizeof *d.dims);
    return 1;
}

/* Up to max integers of a constant value (an initializer or a folded output); -1 otherwise. */
static int const_ints(const osc_model *m, const char *name, int64_t *vals, int max) {
    osc_tensor t;
    if (!name || !name[0] || osc_model_value_data(m, name, &t) != OSC_OK) return -1;
    int64_t n = osc_tensor_count(&t);
    if (n < 0 || n > max || (t.dtype != OSC_INT64 && t.dtype != OSC_INT32)) return -1;
    for (int64_t i = 0; i < n; i++)
        vals[i] = t.dtype == OSC_INT64 ? ((const int64_t *)t.data)[i] : ((const int32_t *)t.data)[i];
    return (int)n;
}

/* INTS attribute of node i, up to max values; -1 when absent. */
static int attr_ints(const osc_model *m, size_t i, const char *name, int64_t *vals, int max) {
    osc_attr_desc a;
    for (size_t k = 0; osc_model_node_attr_at(m, i, k, &a) == OSC_OK; k++) {
        if (strcmp(a.name, name) || a.type != 7 || a.n > (size_t)max) continue;
        for (size_t j = 0; j < a.n; j++) vals[j] = a.ints[j];
        return (int)a.n;
    }
    return -1;
}

static int64_t attr_int(const osc_model *m, size_t i, const char *name, int64_t dflt) {
    int64_t v;
    return osc_model_node_attr_int(m, i, name, &v) == OSC_OK ? v : dflt;
}

/* "node '/g' (Gather-13)" or "node #3 Gather (Gather-13)", escaped. */
static void node_text(const osc_node_desc *n, size_t i, char *buf, size_t size) {
    char name[200], label[240];
    if (n->name && n->name[0]) snprintf(label, sizeof label, "'%s'", cli_esc(n->name, name, sizeof name));
    else snprintf(label, sizeof label, "#%zu %s", i, n->op_type);
    snprintf(buf, size, "node %s (%s-%lld)", label, n->op_type, (long long)n->since_version);
}

/* ---- constraints ---- */

/* Narrows r to [lo, hi] for components c_lo..c_hi (element ranges: k == 0, component 0). who
 * says which reader asks for it, kept for the message when nothing is left. */
static void narrow(cli_irange *r, int c_lo, int c_hi, int64_t lo, int64_t hi, const char *who) {
    int comps = r->k ? r->k : 1;
    if (!r->set) {
        r->set = 1;
        for (int j = 0; j < OSC_MAX_RANK; j++) r->lo[j] = INT64_MIN, r->hi[j] = INT64_MAX;
    }
    if (c_lo < 0 || !r->k) c_lo = 0, c_hi = comps - 1;
    for (int j = c_lo; j <= c_hi && j < comps; j++) {
        /* (messages longer than the fields are cut) */
        if (lo > r->lo[j])
            r->lo[j] = lo, snprintf(r->lo_by, sizeof r->lo_by, "%.*s", (int)sizeof r->lo_by - 1, who);
        if (hi < r->hi[j])
            r->hi[j] = hi, snprintf(r->hi_by, sizeof r->hi_by, "%.*s", (int)sizeof r->hi_by - 1, who);
    }
}

/* The reader cannot be satisfied by any random value. */
static void refuse(cli_irange *r, const char *why) {
    if (r->none) return;
    r->none = 1;
    snprintf(r->why, sizeof r->why, "%.*s", (int)sizeof r->why - 1, why);
}

/* Components c_lo..c_hi of index tuples over data dims first.. of `data` (k = the tuples'
 * length); whole tuples when the input is the indices itself. */
static void tuples(cli_irange *r, const reach *at, const cli_vshape *data, const cli_vshape *idx,
                   int64_t first, int distinct, const char *node) {
    char who[600];
    if (!data || !idx || idx->rank < 1) {
        snprintf(who, sizeof who, "%s (index tuples; shapes unknown here: 0)", node);
        narrow(r, -1, -1, 0, 0, who);
        return;
    }
    int64_t k = idx->dims[idx->rank - 1];
    if (k < 1 || first < 0 || first + k > data->rank) return; /* the kernel refuses it itself */
    if (at->direct && !r->set) { /* the first reader and the input itself: whole tuples */
        r->k = (int)k;
        r->distinct = distinct;
    }
    int lo = at->direct ? 0 : at->comp_lo, hi = at->direct ? (int)k - 1 : at->comp_hi;
    if (lo < 0) lo = 0, hi = (int)k - 1;
    for (int j = lo; j <= hi && j < k; j++) {
        int64_t s = data->dims[first + j];
        snprintf(who, sizeof who, "%s: component %d of its index tuples, [0, %lld] (dim %lld of "
                 "size %lld)", node, j, (long long)s - 1, (long long)(first + j), (long long)s);
        if (r->k == k && at->direct) narrow(r, j, j, 0, s - 1, who);
        else narrow(r, -1, -1, 0, s - 1, who);
    }
    if (r->k && !at->direct) r->distinct = 0;
}

/* Element indices along `axis` of data: [-s, s-1]. */
static void along(cli_irange *r, const cli_vshape *data, int64_t axis, const char *node,
                  const char *what) {
    char who[600];
    if (!data) {
        snprintf(who, sizeof who, "%s (%s; shape unknown here: 0)", node, what);
        narrow(r, -1, -1, 0, 0, who);
        return;
    }
    if (axis < 0) axis += data->rank;
    if (axis < 0 || axis >= data->rank) return; /* the kernel refuses the axis itself */
    int64_t s = data->dims[axis];
    if (s == 0) snprintf(who, sizeof who, "%s: %s along axis %lld, which has size 0", node, what,
                         (long long)axis);
    else snprintf(who, sizeof who, "%s: %s, [%lld, %lld] (axis %lld of size %lld)", node, what,
                  (long long)-s, (long long)s - 1, (long long)axis, (long long)s);
    narrow(r, -1, -1, -s, s - 1, who);
}

/* Node i reads the input's values (at `at`) as its input j: constrain r by what it accepts. */
static void reader(const osc_model *m, const cli_shapes *sh, size_t i, const osc_node_desc *n,
                   int j, const reach *at, cli_irange *r) {
    char node[400], who[800], via[200] = "";
    cli_vshape data, idx, out;
    node_text(n, i, node, sizeof node);
    if (at->via[0]) snprintf(via, sizeof via, " (through %s)", at->via);
    snprintf(node + strlen(node), sizeof node - strlen(node), " input %d%s", j, via);
    const char *op = n->op_type;
    int have_data = n->n_inputs > 0 && shape_of(m, sh, n->inputs[0], &data);
    int have_idx = n->n_inputs > 1 && shape_of(m, sh, n->inputs[1], &idx);
    if (!cli_onnx_domain(n->domain)) return;
    if (j == 1 && !strcmp(op, "Gather")) {
        along(r, have_data ? &data : NULL, attr_int(m, i, "axis", 0), node, "gather indices");
    } else if (j == 1 && (!strcmp(op, "GatherElements") || !strcmp(op, "ScatterElements") ||
                          !strcmp(op, "Scatter"))) {
        along(r, have_data ? &data : NULL, attr_int(m, i, "axis", 0), node, "element indices");
    } else if (j == 1 && (!strcmp(op, "ScatterND") || !strcmp(op, "GatherND"))) {
        const char *red = NULL;
        int distinct = !strcmp(op, "ScatterND") &&
                       (osc_model_node_attr_str(m, i, "reduction", &red) != OSC_OK ||
                        !strcmp(red, "none"));
        int64_t b = !strcmp(op, "GatherND") ? attr_int(m, i, "batch_dims", 0) : 0;
        tuples(r, at, have_data ? &data : NULL, have_idx ? &idx : NULL, b, distinct, node);
    } else if (j == 2 && !strcmp(op, "TensorScatter")) {
        cli_vshape upd;
        int64_t axis = attr_int(m, i, "axis", -2), hi = 0;
        if (have_data && shape_of(m, sh, n->inputs[1], &upd) && upd.rank == data.rank) {
            int64_t a = axis < 0 ? axis + data.rank : axis;
            if (a >= 0 && a < data.rank) hi = data.dims[a] - upd.dims[a];
        }
        snprintf(who, sizeof who, "%s: write indices, [0, %lld] (the sequence must fit)", node,
                 (long long)hi);
        narrow(r, -1, -1, 0, hi, who);
    } else if (j == 0 && !strcmp(op, "OneHot")) {
        int64_t depth[1], axis = attr_int(m, i, "axis", -1);
        int have_depth = n->n_inputs > 1 && const_ints(m, n->inputs[1], depth, 1) == 1;
        if (!have_depth && n->n_outputs > 0 && shape_of(m, sh, n->outputs[0], &out)) {
            int64_t a = axis < 0 ? axis + out.rank : axis;
            if (a >= 0 && a < out.rank) depth[0] = out.dims[a], have_depth = 1;
        }
        if (!have_depth) depth[0] = 1;
        snprintf(who, sizeof who, "%s: one-hot indices, [%lld, %lld] (depth %lld%s)", node,
                 (long long)-depth[0], (long long)depth[0] - 1, (long long)depth[0],
                 have_depth ? "" : " unknown here");
        narrow(r, -1, -1, -depth[0], depth[0] - 1, who);
    } else if (j == 1 && !strcmp(op, "Slice")) {
        /* starts[q] applies to axes[q] (input 3, default q); a start in [0, s-1] keeps the
         * slice non-empty for the usual start:start+len spelling */
        int64_t axes[OSC_MAX_RANK];
        int na = n->n_inputs > 3 && n->inputs[3][0] ? const_ints(m, n->inputs[3], axes, OSC_MAX_RANK) : -2;
        if (na == -1 || !have_data) {
            snprintf(who, sizeof who, "%s: slice starts (axes or shape unknown here: 0)", node);
            narrow(r, -1, -1, 0, 0, who);
            return;
        }
        int q_lo = at->comp_lo < 0 ? 0 : at->comp_lo;
        int q_hi = at->comp_lo < 0 ? (na == -2 ? data.rank : na) - 1 : at->comp_hi;
        for (int q = q_lo; q <= q_hi; q++) {
            int64_t a = na == -2 ? q : q < na ? axes[q] : -100;
            if (a < 0) a += data.rank;
            if (a < 0 || a >= data.rank) continue;
            snprintf(who, sizeof who, "%s: slice start along axis %lld, [0, %lld] (size %lld)",
                     node, (long long)a, (long long)data.dims[a] - 1, (long long)data.dims[a]);
            narrow(r, -1, -1, 0, data.dims[a] - 1, who);
        }
    } else if (j == 1 && !strcmp(op, "Reshape")) {
        /* A target of one element can be -1 (flatten); one of the data's rank can copy every
         * dim (0, unless allowzero); anything else has no value safe for every element. */
        int64_t len = have_idx && idx.rank == 1 ? idx.dims[0] : -1;
        int allowzero = attr_int(m, i, "allowzero", 0) != 0;
        if (!at->reshaped && at->comp_lo < 0 && len == 1) {
            snprintf(who, sizeof who, "%s: a target shape of one element, -1", node);
            narrow(r, -1, -1, -1, -1, who);
        } else if (!at->reshaped && at->comp_lo < 0 && have_data && len == data.rank && !allowzero) {
            snprintf(who, sizeof who, "%s: a target shape that keeps each dim, 0", node);
            narrow(r, -1, -1, 0, 0, who);
        } else {
            snprintf(who, sizeof who, "it is the target shape of %s, which random values would "
                     "not fit", node);
            refuse(r, who);
        }
    } else if (j == 1 && !strcmp(op, "Expand")) {
        snprintf(who, sizeof who, "%s: a target shape, 1 (broadcasts to any dim)", node);
        narrow(r, -1, -1, 1, 1, who);
    }
}

/* ---- the walk ---- */

/* The ops whose output j holds the values of their input j unchanged (reordered, repeated or
 * selected): the walk goes on through them. */
static int passes_on(const char *op, int j) {
    static const char *const data_in[] = {"Unsqueeze", "Squeeze", "Reshape", "Flatten", "Cast",
                                          "Identity", "Expand", "Tile", "Transpose", "Split",
                                          "Gather", "GatherElements", "GatherND", "Slice"};
    if (!strcmp(op, "Concat")) return 1;
    for (size_t k = 0; j == 0 && k < sizeof data_in / sizeof *data_in; k++)
        if (!strcmp(op, data_in[k])) return 1;
    return 0;
}

/* Where the values are at node i's output o, coming from input j at `at`; *work counts the
 * shapes looked at (Concat's inputs before j). */
static void step(const osc_model *m, const cli_shapes *sh, size_t i, const osc_node_desc *n,
                 int j, const reach *at, int o, reach *next, size_t *work) {
    cli_vshape in, out;
    const char *op = n->op_type;
    int have_in = shape_of(m, sh, n->inputs[j], &in), have_out = shape_of(m, sh, n->outputs[o], &out);
    *next = *at;
    next->value = n->outputs[o];
    next->direct = 0;
    size_t l = strlen(next->via);
    if (l + strlen(op) + 3 < sizeof next->via)
        snprintf(next->via + l, sizeof next->via - l, "%s%s", l ? ", " : "", op);
    if (!strcmp(op, "Cast") || !strcmp(op, "Identity")) return;
    next->reshaped = 1;
    if (!have_in || !have_out || in.rank < 1 || out.rank < 1) {
        next->comp_lo = next->comp_hi = -1;
        return;
    }
    int64_t w_in = in.dims[in.rank - 1], w_out = out.dims[out.rank - 1];
    if (!strcmp(op, "Unsqueeze")) {
        int64_t axes[OSC_MAX_RANK];
        int na = attr_ints(m, i, "axes", axes, OSC_MAX_RANK);
        if (na < 0 && n->n_inputs > 1) na = const_ints(m, n->inputs[1], axes, OSC_MAX_RANK);
        int last = 0;
        for (int q = 0; q < na; q++) last |= axes[q] == -1 || axes[q] == out.rank - 1;
        if (last) next->comp_lo = next->comp_hi = 0;
        else if (na < 0) next->comp_lo = next->comp_hi = -1;
    } else if (!strcmp(op, "Concat")) {
        int64_t axis = attr_int(m, i, "axis", 0);
        if (axis < 0) axis += out.rank;
        if (axis != out.rank - 1) return;
        int64_t off = 0;
        *work += (size_t)j;
        for (int q = 0; q < j; q++) {
            cli_vshape s;
            if (!shape_of(m, sh, n->inputs[q], &s) || s.rank != out.rank) {
                next->comp_lo = next->comp_hi = -1;
                return;
            }
            off += s.dims[s.rank - 1];
        }
        int lo = at->comp_lo < 0 ? 0 : at->comp_lo, hi = at->comp_lo < 0 ? (int)w_in - 1 : at->comp_hi;
        next->comp_lo = (int)(off + lo), next->comp_hi = (int)(off + hi);
    } else if (!strcmp(op, "Expand") || !strcmp(op, "Tile")) {
        if (w_in != w_out) next->comp_lo = 0, next->comp_hi = (int)w_out - 1;
    } else if (!strcmp(op, "Gather") || !strcmp(op, "GatherElements")) {
        int64_t axis = attr_int(m, i, "axis", 0);
        if (axis < 0) axis += in.rank;
        if (axis == in.rank - 1 || in.rank != out.rank) next->comp_lo = next->comp_hi = -1;
    } else if (w_in != w_out || in.rank != out.rank) {
        next->comp_lo = next->comp_hi = -1; /* the last axis changed */
    } else if (!strcmp(op, "Transpose") || !strcmp(op, "Reshape") || !strcmp(op, "Flatten")) {
        next->comp_lo = next->comp_hi = -1;
    }
}

/* The graph as the walk reads it, indexed once for all the inputs: value ids by name, and each
 * value's readers (node, input) in node order, so a walk costs what it reaches. */
typedef struct reader_ix {
    size_t node;
    int j;
} reader_ix;
typedef struct graph_ix {
    size_t nn, nv, slots;
    osc_node_desc *nodes;
    const char **names; /* by value id */
    size_t *slot;       /* open addressing by name: 1 + value id, 0 empty */
    size_t *first;      /* readers of value v: rd[first[v]] .. rd[first[v + 1] - 1] */
    reader_ix *rd;
    size_t *seen;       /* the walk (1, 2, ...) that last reached each value */
    size_t work, budget; /* steps the walks took, and the most they may: linear in the graph */
} graph_ix;

/* Steps (readers looked at, shapes read) all the walks together may take, per node and read:
 * k integer inputs that all reach one long chain would otherwise cost k times the chain. */
#define WALK_STEPS_PER_EDGE 16

static size_t slot_of(const graph_ix *x, const char *name) {
    size_t i = cli_str_hash(name) & (x->slots - 1);
    while (x->slot[i] && strcmp(x->names[x->slot[i] - 1], name)) i = (i + 1) & (x->slots - 1);
    return i;
}

/* Id of value `name`; SIZE_MAX when no node reads or writes it. */
static size_t value_id(const graph_ix *x, const char *name) {
    size_t s = x->slot[slot_of(x, name)];
    return s ? s - 1 : SIZE_MAX;
}

static void ix_free(graph_ix *x) {
    free(x->nodes), free(x->names), free(x->slot), free(x->first), free(x->rd), free(x->seen);
}

static int ix_build(const osc_model *m, graph_ix *x) {
    memset(x, 0, sizeof *x);
    x->nn = osc_model_node_count(m);
    size_t names = 0, reads = 0;
    x->nodes = calloc(x->nn + 1, sizeof *x->nodes);
    if (!x->nodes) return 1;
    for (size_t i = 0; i < x->nn; i++) {
        if (osc_model_node(m, i, &x->nodes[i]) != OSC_OK) x->nodes[i].folded = 1; /* skipped */
        names += (size_t)x->nodes[i].n_inputs + (size_t)x->nodes[i].n_outputs;
    }
    for (x->slots = 16; x->slots < 2 * names; x->slots *= 2) {}
    x->names = malloc((names + 1) * sizeof *x->names);
    x->slot = calloc(x->slots, sizeof *x->slot);
    if (!x->names || !x->slot) return 1;
    for (size_t i = 0; i < x->nn; i++) {
        const osc_node_desc *n = &x->nodes[i];
        for (int k = 0; k < n->n_inputs + n->n_outputs; k++) {
            const char *name = k < n->n_inputs ? n->inputs[k] : n->outputs[k - n->n_inputs];
            size_t s = slot_of(x, name);
            if (name[0] && !x->slot[s]) x->names[x->nv] = name, x->slot[s] = ++x->nv;
            reads += k < n->n_inputs && !n->folded;
        }
    }
    x->budget = WALK_STEPS_PER_EDGE * (x->nn + reads) + 65536;
    x->first = calloc(x->nv + 2, sizeof *x->first);
    x->rd = malloc((reads + 1) * sizeof *x->rd);
    x->seen = calloc(x->nv + 1, sizeof *x->seen);
    if (!x->first || !x->rd || !x->seen) return 1;
    for (int pass = 0; pass < 2; pass++) { /* counts, then the readers at their places */
        for (size_t i = 0; i < x->nn; i++)
            for (int j = 0; !x->nodes[i].folded && j < x->nodes[i].n_inputs; j++) {
                size_t v = x->nodes[i].inputs[j][0] ? value_id(x, x->nodes[i].inputs[j]) : SIZE_MAX;
                if (v == SIZE_MAX) continue;
                if (pass == 0) x->first[v + 2]++;
                else x->rd[x->first[v + 1]++] = (reader_ix){i, j};
            }
        for (size_t v = 0; pass == 0 && v < x->nv; v++) x->first[v + 2] += x->first[v + 1];
    }
    return 0;
}

/* Follows graph input `name` to its readers; r gets the intersection of what they accept.
 * Walk number `walk` marks the values it reached in x->seen. */
static int walk(const osc_model *m, const cli_shapes *sh, graph_ix *x, size_t walk_no,
                const char *name, cli_irange *r) {
    size_t cap = 64, top = 0;
    reach *stack = malloc(cap * sizeof *stack);
    if (!stack) return 1;
    memset(&stack[0], 0, sizeof *stack);
    stack[top].value = name, stack[top].direct = 1, stack[top].comp_lo = stack[top].comp_hi = -1;
    top++;
    while (top > 0) {
        reach at = stack[--top];
        const size_t v = value_id(x, at.value);
        if (v == SIZE_MAX || x->seen[v] == walk_no) continue; /* a value reached twice: once */
        x->seen[v] = walk_no;
        x->work += 1 + x->first[v + 1] - x->first[v];
        if (x->work > x->budget) {
            char why[200];
            snprintf(why, sizeof why, "its readers were not all traced (the integer inputs' "
                     "walks through the graph passed %zu steps)",
                     x->budget);
            refuse(r, why);
            break;
        }
        for (size_t k = x->first[v]; k < x->first[v + 1]; k++) {
            const size_t i = x->rd[k].node;
            const int j = x->rd[k].j;
            const osc_node_desc *n = &x->nodes[i];
            reader(m, sh, i, n, j, &at, r);
            if (!cli_onnx_domain(n->domain) || !passes_on(n->op_type, j)) continue;
            for (int o = 0; o < n->n_outputs; o++) {
                if (top == cap) {
                    reach *p = realloc(stack, 2 * cap * sizeof *p);
                    if (!p) {
                        free(stack);
                        return 1;
                    }
                    stack = p, cap *= 2;
                }
                step(m, sh, i, n, j, &at, o, &stack[top++], &x->work);
            }
        }
    }
    free(stack);
    return 0;
}

int cli_index_ranges(const osc_model *m, const cli_shapes *sh, cli_irange *ranges) {
    graph_ix x;
    int rc = ix_build(m, &x);
    for (size_t i = 0, walks = 0; !rc && i < osc_model_input_count(m); i++) {
        osc_value_desc d;
        if (osc_model_input(m, i, &d) != OSC_OK) continue;
        cli_kind kind = cli_dtype_kind(d.dtype);
        if (kind != CLI_KIND_SIGNED && kind != CLI_KIND_UNSIGNED) continue;
        rc = walk(m, sh, &x, ++walks, d.name, &ranges[i]);
    }
    ix_free(&x);
    return rc;
}
