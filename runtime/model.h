/* model.h: the prepared model (struct osc_model) and the calls between the engine's files. */
#ifndef OSC_MODEL_H
#define OSC_MODEL_H

#include "core/kernel.h"
#include "core/graph.h"
#include "rewrite/rewrite.h" /* osc_sym_info */

struct osc_model {
    osc_allocator alloc;   /* load-time allocations and the model's pool */
    osc_options opts;
    osc_limits lim;        /* opts' limits resolved at load (defaults applied) */
    osc_pool pool;
    osc_graph g;
    int32_t n_inputs;      /* graph inputs, those without a default first */
    int32_t *input_order;  /* value ids */
    int32_t *last_use;     /* per value: last node reading its bytes; n_nodes: an output; -1 */
    int32_t *buf_of;       /* per value: arena buffer id, -1 when not in the arena */
    /* buffers: one per node output (an in-place output shares its input's), plus one per graph
     * input a node writes in place (opts.inplace_inputs) */
    int32_t n_bufs;
    int32_t *buf_first;    /* per buffer: producing node (0 for a caller input buffer) */
    int32_t *buf_last;     /* per buffer: last node that needs it */
    /* per buffer: the input (input_order index) whose caller buffer holds it, -1 for arena
     * buffers. Only with opts.inplace_inputs; such buffers take no arena space. */
    int32_t *buf_input;
    /* per node (n_nodes + 1 entries): the first buffer id made at that node or later, so the
     * buffers nodes from..to-1 make are the ids node_buf0[from]..node_buf0[to]-1 */
    int32_t *node_buf0;
    int8_t *node_inplace;  /* per node: osc_inplace of output 0 */
    bool *input_inplace;   /* per input (input_order index): a node writes into its buffer */
    osc_tensor *static_vals; /* per value: dtype/shape inferred at load; NULL if not static */
    uint64_t arena_bytes;  /* plan size for static shapes, 0 otherwise */
    bool warn_lost;        /* a warning could not be stored: the load fails (NOMEM) */
    int32_t n_warnings;
    const char **warnings;
    /* Some node's output shape depends on data only known at run (a graph input's or an
     * intermediate's): every run infers stage by stage (osc_infer_range) instead of reusing a
     * plan keyed by input shapes. */
    bool dynamic;
    int32_t max_in, max_out; /* most inputs / outputs of any node: executor scratch sizes */
    /* Per node: its outputs are functions of the graph inputs' shapes alone (a Shape or ShapeOf
     * reading graph inputs): inference runs it (osc_infer_range) into a slot of the session's
     * (no arena buffer), so the nodes reading its values infer without running the graph;
     * n_shape_outputs of them in all. NULL: none. */
    bool *shape_node;
    int32_t n_shape_outputs;
#define OSC_SHAPE_SLOT ((size_t)OSC_MAX_RANK * sizeof(int64_t)) /* bytes of a shape slot */
    /* Per node (NULL: none): an OSC_KF_INPLACE_SAME row whose output 0 has input 0's shape by its
     * symbols (dynamic axes; symbolic.c), so it may share its buffer; each run checks the sizes
     * (osc_check_inplace). */
    bool *inplace_sym;
    /* What folding learnt, for the fusion pass: per value, dtype and shape where static
     * (fold_shaped), data where constant. */
    osc_tensor *fold_vals;
    bool *fold_shaped;
    const char **io_names;   /* per node: input names then output names (introspection) */
    int32_t *value_slot;     /* value ids by name (open addressing, -1 empty; introspection) */
    size_t value_slots;      /* a power of two, at least twice the values */
    int32_t *io_start;       /* per node: index of its first name in io_names */
    /* Subgraphs (body.c): the models of the GRAPH attributes of this graph's nodes, freed with
     * it; their sessions are the session's `bodies`, by the same index. */
    int32_t n_bodies, bodies_cap;
    struct osc_model **bodies;
    /* A subgraph's model: its index in its parent's bodies (-1 for the main graph); per capture
     * (osc_graph.capture_outer), the index of its value among the node's inputs. */
    int32_t body_id;
    int32_t *capture_at;
    struct osc_session *load_session; /* a subgraph's: the session folding runs it in */
    bool subgraph;            /* a subgraph's model (osc_model_from_graph) */
    /* Bytes constant folding may still compute (opts.max_fold_bytes): the main graph's
     * fold_budget, which its subgraphs' models point at too. */
    uint64_t fold_budget;
    uint64_t *fold_left;
};
#define OSC_FOLD_BUDGET_MIN ((uint64_t)64 << 20) /* the least default of opts.max_fold_bytes */

/* Scratch for calling kernels: m->max_in input pointers and m->max_out output tensors. */
typedef struct osc_node_io {
    const osc_tensor **ins;
    osc_tensor *outs;
} osc_node_io;

/* model.c: the model of subgraph g of parent (its options and limits, its bytes counted in
 * parent's cap); *out is set (for osc_model_free) even when a step fails. */
osc_status osc_model_from_graph(osc_model *parent, const osc_graph *g, osc_model **out,
                                osc_err *err);
/* body.c: loads the subgraphs of node n (dispatch, before the node's init): each attribute's
 * body, its model in m->bodies. */
osc_status osc_body_load(osc_model *m, osc_node *n, osc_err *err);
/* body.c: the osc_body_fn of kernels (kernel.h); k->body_ud is the session or NULL. */
osc_status osc_body_run(osc_kctx *k, const osc_attr *graph, const osc_tensor *const *in,
                        int32_t n_in, const osc_tensor *const *node_in, osc_tensor *out,
                        int32_t n_out, const char *what);
struct osc_session;
/* body.c: frees the sessions folding made for m's subgraphs (and theirs). */
void osc_body_release(osc_model *m);
/* infer.c: the context of node i's kernel: at load (s NULL) or in session s. */
osc_kctx osc_node_ctx(const osc_model *m, int32_t i, struct osc_session *s, osc_err *err);

/* dispatch.c: appends a warning (msg is copied) to the model's list; ud is the osc_model. When
 * it cannot be stored, m->warn_lost is set and the load must fail. */
void osc_model_warn(void *ud, const char *msg);

/* The load steps, in the order osc_model_load_buffer (model.c) calls them; each fails into err. */
/* dispatch.c: refuses a newer opset than OSC_OPSET_NEWEST (or warns, opts.newer_opsets),
 * resolves every node to a registry row, checks input/output counts, runs each kernel's init,
 * checks the dtypes known at load against the rows' type constraints, refuses non-tensor values.
 * Sets m->max_in and m->max_out. */
osc_status osc_dispatch(osc_model *m, osc_err *err);
/* pins.c: every dim named by opts.dim_pins (graph inputs, outputs, value_info) gets its size,
 * after checking every pin names a graph input's symbolic dim once, with a size >= 0. */
osc_status osc_pin_dims(osc_model *m, const osc_options *opts, osc_err *err);
/* symbolic.c: for the rewrite pass, when graph inputs have symbolic dims: per value, the shape
 * folding found, or the shape with symbols (OSC_SYM_DIM) that inferring the graph at several
 * probe sizes finds (shaped[v]), and what the rewrite layer's osc_sym_info says; vals NULL when
 * no input has a symbolic dim. Given back with osc_sym_shapes_free. */
typedef struct osc_sym_shapes_out {
    osc_tensor *vals; /* [n_values] shapes, then [n_values] contents (info.content) */
    bool *shaped;
    osc_sym_expr *expr;
    osc_sym_info info;
} osc_sym_shapes_out;
osc_status osc_sym_shapes(osc_model *m, osc_sym_shapes_out *out, osc_err *err);
void osc_sym_shapes_free(osc_model *m, osc_sym_shapes_out *out);
/* introspect.c: the names of each node's inputs and outputs (m->io_names, m->io_start). */
osc_status osc_name_node_io(osc_model *m, osc_err *err);
/* fold.c: computes at load the nodes whose inputs are constants (see fold.c). */
osc_status osc_fold_constants(osc_model *m, osc_err *err);
/* fold.c, after the rewrite: m->shape_node, and m->dynamic (an infer_reads input made by a
 * shape node is known when shapes are inferred). */
osc_status osc_mark_shape_nodes(osc_model *m, osc_err *err);
/* Last step of a load: frees the data of constants no node left to run reads (fold.c). */
osc_status osc_release_unread(osc_model *m, osc_err *err);
/* lifetimes.c: last uses, arena buffers (in-place outputs share their input's), per-node and
 * per-input in-place modes. */
osc_status osc_plan_buffers(osc_model *m, osc_err *err);
/* infer.c: when every input shape is static, infers every shape, checks declared outputs (a
 * declared static dim the graph computes otherwise is a warning and the computed shape wins;
 * strict mode refuses it; another dtype or rank is an error), plans the arena (m->static_vals,
 * m->arena_bytes) and refuses a model whose smallest arena exceeds opts.max_bytes. */
osc_status osc_infer_static(osc_model *m, osc_err *err);

/* infer.c: helpers of folding and inference. */
/* True (err cleared) when a subgraph's model meets a data or shape error while folding or
 * inferring at load: a branch may never run, so the node is left to fail at run if it runs. */
bool osc_load_tolerates(const osc_model *m, osc_status st, osc_err *err);
/* True when the type has a dtype, a rank and every dim known. */
bool osc_type_static(const osc_type *t);
/* The shape (and for an initializer the data) a graph input or initializer has before any
 * binding, into *t. */
void osc_seed_value(const osc_value *val, osc_tensor *t);
/* Kernel call scratch from the model's pool (either pointer NULL when out of memory). */
osc_node_io osc_node_io_alloc(osc_model *m);
/* Points io.ins at node n's inputs in vals (NULL for an omitted input). */
void osc_gather_inputs(const osc_node *n, osc_tensor *vals, osc_node_io io);

/* infer.c: fails (OSC_ERR_SHAPE) unless dtype is in the type constraint of node i's row for
 * input j; the message names the op version, the input and the allowed types. */
osc_status osc_check_input_type(const osc_graph *g, int32_t i, int32_t j, int32_t dtype,
                                 osc_err *err);
/* True when every input whose data node i's infer reads (its row's infer_reads) is known:
 * known[v] (NULL: all known), or the input is omitted. */
bool osc_node_ready(const osc_model *m, int32_t i, const bool *known);
/* Runs infer for nodes from..end-1 in order (folded nodes keep their constant outputs),
 * stopping at the first node that is not osc_node_ready: *stop is that node, or end.
 * vals[v] must have dtype/shape (and data where known) for every input of those nodes; fills
 * dtype/shape/nbytes of their outputs (data NULL), but for a shape node's (m->shape_node) whose
 * data points at a session slot: it runs into that slot. */
osc_status osc_infer_range(const osc_model *m, osc_tensor *vals, const bool *known, int32_t from,
                           int32_t end, int32_t *stop, osc_node_io io, struct osc_session *s,
                           osc_err *err);
/* OSC_ERR_LIMIT when an output of nodes from..to-1 (not folded) in vals has a rank over the
 * model's max_rank. Called after every inference. */
osc_status osc_check_ranks(const osc_model *m, const osc_tensor *vals, int32_t from, int32_t to,
                           osc_err *err);
/* infer.c: runs node i's kernel on vals (outputs' data already placed). */
osc_status osc_run_node(const osc_model *m, int32_t i, osc_tensor *vals, osc_node_io io,
                        osc_kctx *k);

/* lifetimes.c: bytes each buffer's values need (their largest nbytes, unaligned) into
 * need[0..n_bufs-1]; 0 for buffers held in caller input buffers. */
void osc_buffer_need(const osc_model *m, const osc_tensor *vals, uint64_t *need);
/* The arena plan of a run from osc_buffer_need's sizes: offsets[b], and the arena size as the
 * result. Buffers with external[b] set (may be NULL; a caller output buffer holds them) or held
 * in an input take no arena space. sizes: n_bufs + 1 entries, scratch: OSC_PLAN_SCRATCH(n_bufs + 1). */
uint64_t osc_plan_run(const osc_model *m, const uint64_t *need, const bool *external,
                      uint64_t *sizes, uint64_t *scratch, uint64_t *offsets);

/* place.c: the placement core, exposed for tests: sizes/first/last in (buffer b lives from node
 * first[b] to node last[b], both included), offsets out; returns the arena size. Sweeps the
 * buffers by first (the bigger first at one node) and puts each at the lowest offset free of
 * every buffer alive then (first fit), O(n log n); when at most OSC_PLAN_BY_SIZE_MAX buffers
 * take space, also places them biggest first (O(n^2), at most 2^24 steps) and keeps the smaller
 * plan (the greedy-by-size plan on a tie). Every offset is a multiple of OSC_ALIGN.
 * scratch: OSC_PLAN_SCRATCH(n) words. */
#define OSC_ALIGN 64
#define OSC_PLAN_BY_SIZE_MAX 4096
#define OSC_PLAN_SCRATCH(n) (6 * (size_t)(n) + 1)
uint64_t osc_plan_place(int32_t n, const uint64_t *sizes, const int32_t *first,
                        const int32_t *last, uint64_t *offsets, uint64_t *scratch);
/* True when no two buffers live at the same time share a byte (the planner's oracle; O(n^2),
 * for tests). */
bool osc_plan_valid(int32_t n, const uint64_t *sizes, const int32_t *first, const int32_t *last,
                    const uint64_t *offsets);

#endif
