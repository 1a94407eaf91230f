/* model.h: the prepared model shared by model.c (load, introspection), plan.c and session.c. */
#ifndef OSC_MODEL_H
#define OSC_MODEL_H

#include "../ops/kernel.h"
#include "graph.h"

struct osc_model {
    osc_allocator alloc;   /* load-time allocations and the model's pool */
    osc_options opts;
    osc_pool pool;
    osc_graph g;
    int32_t n_inputs;      /* graph inputs, those without a default first */
    int32_t *input_order;  /* value ids */
    int32_t *last_use;     /* per value: last consuming node; n_nodes for graph outputs; -1 */
    int32_t *buf_of;       /* per value: arena buffer id, -1 when not in the arena */
    int32_t n_bufs;        /* buffers: node outputs, in-place outputs share their data's */
    int32_t *buf_first;    /* per buffer: producing node */
    int32_t *buf_last;     /* per buffer: last node that needs it */
    /* per buffer: the input (input_order index) whose caller buffer holds it, -1 for arena
     * buffers. Only with opts.inplace_inputs; such buffers take no arena space. */
    int32_t *buf_input;
    int8_t *node_inplace;  /* per node: osc_inplace of output 0 */
    bool *input_inplace;   /* per input (input_order index): a node writes into its buffer */
    osc_tensor *static_vals; /* per value: dtype/shape inferred at load; NULL if not static */
    uint64_t arena_bytes;  /* plan size for static shapes, 0 otherwise */
    bool warn_lost;        /* a warning could not be stored: the load fails (NOMEM) */
    int32_t n_warnings;
    const char **warnings;
    const char **io_names;   /* per node: input names then output names (introspection) */
    int32_t *io_start;       /* per node: index of its first name in io_names */
};

/* Runs every kernel's infer in node order: vals[v] must have dtype/shape for graph inputs and
 * initializers; fills them for every node output (nbytes too). */
osc_status osc_infer_all(const osc_model *m, osc_tensor *vals, osc_err *err);

/* Places each buffer in one arena from the sizes of the values that use it: offsets[b] and
 * *arena_size. Buffers whose lifetimes [first, last] overlap never overlap in memory.
 * Unaware of buffers held in caller input buffers (opts.inplace_inputs) and of caps: the
 * runtime plans with osc_plan_run. */
osc_status osc_plan_arena(const osc_model *m, const osc_tensor *vals, uint64_t *offsets,
                          uint64_t *arena_size, osc_err *err);

/* Bytes each buffer's values need (their largest nbytes, unaligned) into need[0..n_bufs-1];
 * 0 for buffers held in caller input buffers. */
void osc_buffer_need(const osc_model *m, const osc_tensor *vals, uint64_t *need);
/* The arena plan of a run from osc_buffer_need's sizes: offsets[b], and the arena size as the
 * result. Buffers with external[b] set (may be NULL; a caller output buffer holds them) or held
 * in an input take no arena space. sizes: n_bufs + 1 entries, scratch: 3 * n_bufs + 1. */
uint64_t osc_plan_run(const osc_model *m, const uint64_t *need, const bool *external,
                      uint64_t *sizes, int32_t *scratch, uint64_t *offsets);

/* Greedy placement core, exposed for tests: sizes/first/last in, offsets out; returns the
 * arena size. Every offset is a multiple of OSC_ALIGN. scratch: n int32_t. */
#define OSC_ALIGN 64
uint64_t osc_plan_place(int32_t n, const uint64_t *sizes, const int32_t *first,
                        const int32_t *last, uint64_t *offsets, int32_t *scratch);
/* True when no two buffers live at the same time share a byte (the planner's oracle). */
bool osc_plan_valid(int32_t n, const uint64_t *sizes, const int32_t *first, const int32_t *last,
                    const uint64_t *offsets);

#endif
