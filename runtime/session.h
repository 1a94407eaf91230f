/* session.h: the session struct shared by session.c (API), bindings.c (checks of what the caller
 * binds), prepare.c (planning a static run) and exec.c (running nodes). */
#ifndef OSC_SESSION_H
#define OSC_SESSION_H

#include "core/tpool.h"
#include "model.h"

/* One stage of a dynamic run: nodes from..stop-1 and the arena of the buffers they make. */
typedef struct osc_stage {
    int32_t from, stop;       /* -1, -1 until planned */
    void *arena;
    uint64_t cap;             /* bytes allocated */
    uint64_t size;            /* bytes the plan uses */
} osc_stage;

struct osc_session {
    const osc_model *m;
    char *shape_slots;        /* m->n_shape_outputs of OSC_SHAPE_SLOT bytes (model.h) */
    osc_allocator alloc;
    osc_err err;
    osc_tensor *bound;        /* per model input (input_order index); data borrowed */
    bool *is_bound;
    /* per model input declared optional and bound a tensor or sequence: the optional holding a
     * copy of it (osc_session_set_input_at), and its room */
    void **wrap;
    size_t *wrap_cap;
    osc_tensor *vals;         /* per value: shape and data of the current run */
    osc_tensor *plan_inputs;  /* input shapes vals' inferred shapes were made for */
    bool inferred;            /* vals hold the shapes for plan_inputs */
    bool planned;             /* offsets hold a plan for those shapes and `direct` */
    /* per buffer (n_bufs + 1 entries each) */
    uint64_t *offsets;        /* place in the arena (dynamic runs: in the current stage's) */
    uint64_t *need;           /* bytes its values need */
    uint64_t *sizes;          /* planner input */
    uint64_t *scratch;        /* planner scratch, OSC_PLAN_SCRATCH(n_bufs + 1) words */
    int32_t *direct;          /* output index whose caller buffer holds it, or -1 */
    int32_t *plan_direct;     /* `direct` the current plan was made for */
    /* takes no arena space in the plan being made: static runs direct[b] >= 0, dynamic runs
     * not made by the current stage */
    bool *external;
    void *arena;
    uint64_t arena_size;
    osc_pool strings;         /* bytes of strings made during a run */
    uint64_t *node_ns;        /* per node: time of the last run (opts.profile), else NULL */
    /* per graph output */
    void **out_data;          /* caller buffer or NULL (borrowed) */
    size_t *out_cap;          /* its bytes */
    int32_t *out_mode;        /* osc_output_mode of the last successful run */
    osc_node_io io;           /* kernel call scratch: m->max_in inputs, m->max_out outputs */
    bool *known;              /* per value: data known (dynamic models, staged inference) */
    uint8_t *unchanged;       /* per value: declared unchanged for the next run only
                               * (osc_session_input_unchanged; the kernels' k->unchanged) */
    void **buf_data;          /* per buffer: memory of the current run (dynamic models) */
    /* Dynamic models: per stage (n_nodes + 1 entries) its nodes and its arena, kept between
     * runs; per buffer (n_bufs + 1) the bytes the stage's current plan was made for. A stage
     * whose buffers need the same bytes as at its last plan reuses plan and arena. */
    struct osc_stage *stages;
    uint64_t *plan_need;
    uint64_t plans;           /* placements made (osc_plan_place calls), for tests */
    bool ok;                  /* outputs readable */
    max_align_t empty;        /* data of zero-size values when the arena is empty */
    osc_tpool *tpool;         /* opts.threads >= 2: the workers; NULL: the caller alone */
    osc_scratch kscratch;     /* kernels' scratch block, kept between runs */
    osc_kstore kstore;        /* state kernels keep across runs (osc_kshared) */
    uint64_t runs;            /* runs started (the kernels' k->run) */
    osc_kslot *slots;         /* per node: what its kernel keeps in the session (osc_kslot) */
    /* per subgraph of the model (m->bodies): its session, made when it first runs */
    struct osc_session **bodies;
    bool borrowed_tpool;      /* a subgraph's session: tpool is the outer session's */
    atomic_int cancel_req;    /* osc_session_cancel's request */
    atomic_int *cancel;       /* the request runs check: cancel_req, or the outer session's */
    osc_node_hook hook;       /* osc_session_set_node_hook */
    void *hook_ud;
    /* 1 while a call holds the session (osc_session_enter): osc_session_run for its whole run,
     * the other calls for their own few steps. A call finding it held is refused. */
    atomic_int in_use;
    atomic_int refused;       /* the osc_call refused last, for osc_session_error */
};

/* The session calls that are refused while another holds the session. */
typedef enum osc_call {
    OSC_CALL_NONE, OSC_CALL_RUN, OSC_CALL_SET_INPUT, OSC_CALL_UNBIND_INPUT,
    OSC_CALL_INPUT_UNCHANGED, OSC_CALL_SET_OUTPUT_BUFFER, OSC_CALL_OUTPUT, OSC_CALL_OUTPUT_MODE,
    OSC_CALL_SET_NODE_HOOK, OSC_CALL_READ, OSC_CALL_FREE, OSC_CALL_COUNT
} osc_call;

/* session.c: takes the session for call `call` (true), or, when a call holds it (a run in
 * progress, reached from its node hook or from another thread), records the refusal for
 * osc_session_error and returns false; the session is untouched then. osc_session_leave
 * releases it. */
bool osc_session_enter(osc_session *s, osc_call call);
void osc_session_leave(osc_session *s);

/* exec.c: a monotonic clock, for the node times of opts.profile. */
uint64_t osc_now_ns(void);

/* session.c: a session of subgraph model m inside session outer: its bytes counted in outer's
 * allocator, its kernels on outer's threads. */
osc_status osc_session_create_body(const osc_model *m, osc_session *outer, osc_session **out);

/* bindings.c. Each fails into s->err with a message naming the input or output. */
/* A caller tensor bound to graph input value v: self-consistent, within the limits, and fitting
 * the declared dtype, rank and static dims (symbolic dims are checked together at run). */
osc_status osc_check_input(osc_session *s, int32_t v, const osc_tensor *t);
/* Symbolic dims (dim_param) take one value across all bound inputs (s->vals). */
osc_status osc_check_symbols(osc_session *s);
/* Caller output buffers hold their outputs (shapes in s->vals) and alias no input or other
 * output buffer. */
osc_status osc_check_output_buffers(osc_session *s);
/* Inputs written in place overlap no other input, and the values nodes from..to-1 compute in
 * them fit. */
osc_status osc_check_inplace(osc_session *s, int32_t from, int32_t to);

/* prepare.c: before a static run, with inputs in s->vals: shapes (re-inferred when input shapes
 * changed), caller buffer checks, the arena plan (redone when shapes or zero-copy outputs
 * changed) and every buffered value's data pointer. Writes nothing the caller sees. */
osc_status osc_prepare_run(osc_session *s);

#endif
