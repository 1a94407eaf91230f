/* rewrite.h: the rewrite layer: load-time fusion rules as data (rules.def) and the pass that
 * offers them the graph's nodes (pass.c).
 *
 * A rule names its anchor (an op of the default domain, or row traits), its priority, its
 * matcher and its rewrite. The pass walks the graph once per priority, lowest first, and offers
 * each node that still runs the rules anchored on it, in table order: the matcher reads the
 * graph (static shapes, constants, row traits and the kernels' parameters) and fills its
 * capture; the rewrite turns a capture into a proposal: the node becomes a node of a fused
 * kernel (a registry row of domain "osc" that no model may name) or keeps its row with other
 * inputs, and the chain feeding it, which it computes, is removed once nothing else reads it.
 * Rules run after constant folding and before buffers are planned, so the plan only ever sees
 * the rewritten graph, and every rule keeps the results bit-identical (docs/design.md). */
#ifndef OSC_REWRITE_H
#define OSC_REWRITE_H

#include <string.h>

#include "core/kernel.h"
#include "ops/fused/fused.h" /* OSC_FUSE_MAX_IN, OSC_SYM_DIM */

#define OSC_FUSE_MAX_NODES 32 /* nodes a rewrite may remove besides the node itself */
#define OSC_RW_CAP_MAX ((size_t)16 << 10) /* bytes of the largest matcher's capture */

/* What the engine's symbolic pass (runtime/symbolic.c) found, for a model with dynamic axes: each
 * symbol's size as a sum over the graph inputs' dims where one fits (n_terms 0: none), and the
 * values of small int64 vectors (Shape's output) in dims[0..rank-1], symbols and all (rank -1:
 * not known). */
typedef struct osc_sym_expr {
    int64_t add;
    int32_t n_terms;
    int32_t value[OSC_SYM_TERMS], dim[OSC_SYM_TERMS]; /* graph inputs (value ids), their dims */
    int64_t coef[OSC_SYM_TERMS];
} osc_sym_expr;
typedef struct osc_sym_info {
    int32_t n_syms;
    const osc_sym_expr *expr; /* [n_syms]: symbol s's, OSC_SYM_DIM(s) */
    const osc_tensor *content; /* per value */
} osc_sym_info;

/* What a matcher sees: the graph after constant folding, every value's dtype and shape where
 * known (shaped[v]; data too for constants), and how many run-time readers each value has
 * (inputs of nodes that still run, plus one for a graph output). A shape may hold symbols
 * (OSC_SYM_DIM, ops/fused/fused.h) where the model has dynamic axes: osc_fuse_shape shows only
 * shapes without any, osc_fuse_sym_shape all, to the matchers that handle them. */
typedef struct osc_fuse_view {
    const osc_graph *graph;
    const osc_tensor *vals;
    const bool *shaped;
    const int32_t *uses;
    const osc_sym_info *sym; /* NULL: no input has a symbolic dim */
    bool recompute; /* session setting fuse_recompute */
    char *why;      /* [OSC_RW_WHY_SIZE]: why the last matcher did not match (osc_rw_no) */
} osc_fuse_view;

#define OSC_RW_WHY_SIZE 256
/* A matcher's "no" once it has found its node a candidate (the pattern's start, in a graph
 * where fusing it would pay): the condition that failed, a printf format, which `info` shows
 * for the node when no rule rewrites it (osc_node.not_fused). False, for `return`. Before that
 * point a matcher returns a plain false: not every Gather is a candidate. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
bool osc_rw_no(const osc_fuse_view *v, const char *fmt, ...);

/* A rewrite's proposal: the node becomes a node of the fused kernel `op` of domain "osc" (NULL:
 * it keeps its op, domain and row) with these inputs (value ids, -1 for an omitted one) and
 * params; `absorbed` lists the nodes of the chain it computes, removed once nothing else reads
 * their outputs. `extends`: the node continues absorbed[0], a fused node of the same kernel it
 * adds to (rule row_epilogue): it takes that node's name, as messages about its inputs name it,
 * and the nodes it replaced. `takes_row`: the node becomes a node of absorbed[0]'s row, op,
 * name and attributes (a product that takes in the Relu after it, rule relu_epilogue), with
 * these inputs and params (op NULL). */
typedef struct osc_fusion {
    const char *op;
    bool extends, takes_row;
    int32_t n_inputs;
    int32_t inputs[OSC_FUSE_MAX_IN];
    const void *params;
    int32_t n_absorbed;
    int32_t absorbed[OSC_FUSE_MAX_NODES];
} osc_fusion;

/* A rule's matcher: true when node `node` (k->node) starts the rule's pattern, with what the
 * rewrite needs in *cap (the rule's own capture type, zeroed before the call). False leaves the
 * graph as it is (k->err set only when out of memory). */
typedef bool (*osc_rw_match_fn)(osc_kctx *k, const osc_fuse_view *v, int32_t node, void *cap);
/* A rule's rewrite: the proposal for a capture its matcher made, parameters allocated at their
 * real size from the model's pool (osc_kparams); false only when out of memory (k->err set). */
typedef bool (*osc_rw_rewrite_fn)(osc_kctx *k, const osc_fuse_view *v, int32_t node,
                                  const void *cap, osc_fusion *f);

typedef struct osc_rw_rule {
    const char *name;     /* for messages */
    const char *anchor;   /* op of the default domain the rule starts at (NULL: by traits) */
    uint32_t anchor_traits; /* else: any row with all of these OSC_KT_* traits */
    int32_t priority;     /* lower first: a rule that absorbs nodes runs before one of those */
    osc_rw_match_fn match; /* its capture at most OSC_RW_CAP_MAX bytes */
    osc_rw_rewrite_fn rewrite;
} osc_rw_rule;

/* The rule table (rules.c) in table order; NULL past the end. Rules a build cannot use (their
 * ops left out by OSC_OPS) are not in it. */
const osc_rw_rule *osc_rw_rule_at(size_t i);

/* What the pass rewrites: the graph, the folded values and shapes, the model's pool (the fused
 * nodes' inputs and parameters) and allocator (the pass's own tables, given back before it
 * returns). */
typedef struct osc_rw_graph {
    osc_graph *g;
    const osc_tensor *vals;
    const bool *shaped;
    const osc_sym_info *sym; /* (osc_fuse_view) */
    osc_pool *pool;
    osc_allocator *alloc;
    bool recompute, strict;
    int32_t max_in; /* out: the most inputs a node has now, at least what it was */
} osc_rw_graph;

/* Applies every rule of the table, each node offered the rules anchored on it in priority
 * order; nodes the rewrites absorbed are removed and the producers renumbered. On failure (out
 * of memory) the graph may be partly rewritten: the caller discards the model. */
osc_status osc_rewrite(osc_rw_graph *rg, osc_err *err);

/* The usual rewrite: *f is the capture's proposal `from`, with `bytes` of parameters at p
 * (none: 0) copied into the model's pool, the node becoming a node of fused kernel `op` (NULL:
 * it keeps its own). False only when out of memory (k->err set). */
bool osc_rw_emit(osc_kctx *k, const osc_fusion *from, const void *p, size_t bytes,
                 const char *op, osc_fusion *f);

/* ---- The matchers' view of the graph ---- */
/* Value id's shape, symbols and all (NULL: unknown, or of a rank over OSC_FUSED_MAX_RANK,
 * which no fused kernel takes). */
static inline const osc_tensor *osc_fuse_sym_shape(const osc_fuse_view *v, int32_t id) {
    return id >= 0 && v->shaped[id] && v->vals[id].rank <= OSC_FUSED_MAX_RANK ? &v->vals[id]
                                                                              : NULL;
}
/* Value id's static shape (NULL: unknown, holding a symbol, or of too high a rank). */
static inline const osc_tensor *osc_fuse_shape(const osc_fuse_view *v, int32_t id) {
    const osc_tensor *t = osc_fuse_sym_shape(v, id);
    for (int32_t d = 0; t && d < t->rank; d++)
        if (t->dims[d] < 0) return NULL;
    return t;
}
/* The elements of t's dims from `from` on, -1 when one is a symbol. */
static inline int64_t osc_fuse_count_from(const osc_tensor *t, int32_t from) {
    int64_t n = 1;
    for (int32_t d = from; d < t->rank; d++) {
        if (t->dims[d] < 0) return -1;
        n *= t->dims[d];
    }
    return n;
}
/* Whether a and b have as many elements by construction: the same product of sizes and the
 * same symbols (in any order). */
bool osc_fuse_same_count(const osc_tensor *a, const osc_tensor *b);
/* The node computing value id at run time (-1: an input, a constant, or a node folded at
 * load). */
static inline int32_t osc_fuse_producer(const osc_fuse_view *v, int32_t id) {
    const int32_t i = id >= 0 ? v->graph->values[id].producer : -1;
    return i >= 0 && !v->graph->nodes[i].folded ? i : -1;
}
/* The node computing value id at run time when the chain being matched is its only reader (no
 * other node, no graph output); NULL otherwise. */
static inline const osc_node *osc_fuse_sole_producer(const osc_fuse_view *v, int32_t id) {
    const int32_t i = osc_fuse_producer(v, id);
    return i >= 0 && v->uses[id] == 1 ? &v->graph->nodes[i] : NULL;
}
/* The constant value id holds at every run, folded at load (NULL: none, or a graph input). */
static inline const osc_tensor *osc_fuse_folded(const osc_fuse_view *v, int32_t id) {
    const osc_value *val = &v->graph->values[id];
    return val->init && !val->is_input ? val->init : NULL;
}
/* t's values when it is an int64 vector of n elements; NULL when not (or t is NULL). */
static inline const int64_t *osc_fuse_ints(const osc_tensor *t, int64_t n) {
    return t && t->dtype == OSC_INT64 && t->rank == 1 && t->dims[0] == n ? t->data : NULL;
}
/* Lists node i among those the fusion computes; false when the list is full. */
static inline bool osc_fuse_absorb(osc_fusion *f, int32_t i) {
    if (f->n_absorbed == OSC_FUSE_MAX_NODES) return false;
    f->absorbed[f->n_absorbed++] = i;
    return true;
}
/* Node i (NULL for i < 0), and the index of node n. */
static inline const osc_node *osc_fuse_node(const osc_fuse_view *v, int32_t i) {
    return i >= 0 ? &v->graph->nodes[i] : NULL;
}
/* Input i of node n: -1 when there is no node or it has fewer inputs (a producer found by its
 * output may be any op, a ShapeOf of no input too). */
static inline int32_t osc_fuse_in(const osc_node *n, int32_t i) {
    return n && i >= 0 && i < n->n_inputs ? n->inputs[i] : -1;
}
static inline int32_t osc_fuse_index(const osc_fuse_view *v, const osc_node *n) {
    return (int32_t)(n - v->graph->nodes);
}
static inline bool osc_fuse_same_dims(const osc_tensor *a, const osc_tensor *b) {
    return a->rank == b->rank && !memcmp(a->dims, b->dims, (size_t)a->rank * sizeof a->dims[0]);
}
/* Whether n is op `op` of the default domain. */
static inline bool osc_fuse_is_op(const osc_node *n, const char *op) {
    return !strcmp(n->op_type, op) && n->domain[0] == '\0';
}
/* Whether n runs the fused kernel `op` (domain "osc": a node an earlier rewrite made; rows of the
 * default domain have no domain). */
static inline bool osc_fuse_is_kernel(const osc_node *n, const char *op) {
    return n && n->kernel->domain && !strcmp(n->kernel->domain, "osc") &&
           !strcmp(n->kernel->op, op);
}
/* Whether n resolved to a row with every trait of `traits` (OSC_KT_*). */
static inline bool osc_fuse_has(const osc_node *n, uint32_t traits) {
    return n && (n->kernel->traits & traits) == traits;
}

#endif
