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
    osc_tensor *static_vals; /* per value: dtype/shape inferred at load; NULL if not static */
    uint64_t arena_bytes;  /* plan size for static shapes, 0 otherwise */
    int32_t n_warnings;
    const char **warnings;
    const char **io_names;   /* per node: input names then output names (introspection) */
    int32_t *io_start;       /* per node: index of its first name in io_names */
};

/* Runs every kernel's infer in node order: vals[v] must have dtype/shape for graph inputs and
 * initializers; fills them for every node output (nbytes too). */
osc_status osc_infer_all(const osc_model *m, osc_tensor *vals, osc_err *err);

/* Places each buffer in one arena from the sizes of the values that use it: offsets[b] and
 * *arena_size. Buffers whose lifetimes [first, last] overlap never overlap in memory. */
osc_status osc_plan_arena(const osc_model *m, const osc_tensor *vals, uint64_t *offsets,
                          uint64_t *arena_size, osc_err *err);

/* Greedy placement core, exposed for tests: sizes/first/last in, offsets out; returns the
 * arena size. Every offset is a multiple of OSC_ALIGN. scratch: n int32_t. */
#define OSC_ALIGN 64
uint64_t osc_plan_place(int32_t n, const uint64_t *sizes, const int32_t *first,
                        const int32_t *last, uint64_t *offsets, int32_t *scratch);
/* True when no two buffers live at the same time share a byte (the planner's oracle). */
bool osc_plan_valid(int32_t n, const uint64_t *sizes, const int32_t *first, const int32_t *last,
                    const uint64_t *offsets);

#endif
