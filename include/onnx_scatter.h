/* onnx_scatter.h: public C API of onnx-scatter, a small ONNX runtime for scatter-family graphs. */
#ifndef ONNX_SCATTER_H
#define ONNX_SCATTER_H

/* This header is the API reference. Conventions that hold for every call unless it says otherwise:
 *
 * - Status: calls that can fail return an osc_status; OSC_OK is 0. A NULL handle or a NULL
 *   required pointer gives OSC_ERR_ARG. Calls returning a count, a size or a string return 0 or
 *   NULL for a NULL handle or an index out of range (osc_session_error: "no session").
 * - Messages: a failed load writes a one-line message into the caller's msg buffer; a failed
 *   session call leaves one readable with osc_session_error(). A model, being immutable and
 *   shared, keeps no "last message": its introspection calls can only fail with OSC_ERR_ARG
 *   (bad index or name), which needs none. Messages are at most OSC_MESSAGE_SIZE - 1 bytes.
 * - Memory: every byte the library allocates goes through the opts.alloc hook of the model
 *   (sessions use their model's hook), except osc_tensor_decode_pb/encode_pb, which use malloc
 *   as documented there. The library never keeps a pointer to caller memory beyond what each call
 *   states, never frees caller memory and never writes to caller buffers it was not given for
 *   writing (see opts.inplace_inputs and osc_session_set_output_buffer).
 * - Threads: there is no global mutable state. A model may be used from any number of threads
 *   at once (it is immutable after load); a session is used by one call at a time, and checks
 *   it: each call holds the session while it works (osc_session_run for its whole run), and a
 *   call on a session held by another, from the run's node hook or from another thread, changes
 *   nothing, writes nothing it was given and returns OSC_ERR_STATE (0 or NULL for calls
 *   returning a value; osc_session_free then frees nothing). While the session is held,
 *   osc_session_error gives the refusal, naming the call. Not refused: osc_session_cancel and
 *   osc_session_threads. Two sessions, of the same model or not, run concurrently. A custom
 *   opts.alloc hook is then called from those threads at once and must be thread-safe
 *   (malloc/realloc/free are).
 * - The library never prints, never exits or aborts, and does not install signal handlers.
 * - Compatibility: names are never removed or renumbered; new status codes, dtypes, struct
 *   fields (taken from reserved[]) and calls are only ever appended. While the major version is
 *   0, a new minor version may change the ABI (the shared library's SONAME carries
 *   MAJOR.MINOR); patch versions never do.
 * - Reserved tails: a struct that may grow ends in reserved[]; a new field takes the first
 *   unused elements, so the struct's size and its other fields' offsets stay as they were.
 *   What the caller fills (osc_options) must leave them zero: osc_options_init does, and a
 *   non-zero one fails the load, so a newer field is never silently ignored. What the library
 *   fills (osc_node_desc, osc_op_desc: uint64_t elements, one per future field, room for a
 *   pointer, an int64_t or an int32_t on every target) it writes zero there.
 * - Tuning knobs are set by name (osc_options_set, as onnxruntime's session config entries);
 *   the osc_options fields stay for source compatibility. */

#include <stddef.h>
#include <stdint.h>

/* Version of this header. osc_version() gives the library's; compare them when loading the
 * shared library dynamically. */
#define OSC_VERSION_MAJOR 0
#define OSC_VERSION_MINOR 3
#define OSC_VERSION_PATCH 0
#define OSC_VERSION_STRING "0.3.0"

/* OSC_API marks exported calls. The shared library exports exactly these (all osc_-prefixed);
 * users of the static library may define OSC_STATIC_DEFINE (the CMake package does), which
 * makes OSC_API empty. */
#if defined(OSC_STATIC_DEFINE) || !defined(__GNUC__)
#define OSC_API
#else
#define OSC_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Largest tensor rank the runtime stores. A model with a larger rank is refused at load. */
#define OSC_MAX_RANK 32

/* Size of a buffer that holds any message of the library, NUL included: load messages
 * (msg/msg_size), osc_session_error() and warnings are never longer. */
#define OSC_MESSAGE_SIZE 512

/* Every call that can fail returns one of these. New codes are only ever appended. */
typedef enum osc_status {
    OSC_OK = 0,
    OSC_ERR_ARG,         /* bad argument to an API call (NULL, index out of range, unknown name) */
    OSC_ERR_NOMEM,       /* the allocator returned NULL */
    OSC_ERR_IO,          /* a file could not be opened, read or written */
    OSC_ERR_PARSE,       /* the bytes are not a valid protobuf message */
    OSC_ERR_MODEL,       /* the model is invalid: graph structure, attributes, payloads */
    OSC_ERR_UNSUPPORTED, /* op, op version or dtype this runtime does not implement */
    OSC_ERR_SHAPE,       /* shapes, ranks or dtypes of tensors do not fit together */
    OSC_ERR_INDEX,       /* an index value is out of its allowed range */
    OSC_ERR_LIMIT,       /* a resource limit (bytes, rank, string length, nodes) was reached */
    OSC_ERR_STATE,       /* call out of order, e.g. reading outputs before a successful run */
    OSC_ERR_CANCELLED    /* the caller cancelled the run (osc_session_cancel) */
} osc_status;

/* Tensor element types, numbered as ONNX TensorProto.DataType. */
typedef enum osc_dtype {
    OSC_UNDEFINED = 0,
    OSC_FLOAT = 1,
    OSC_UINT8 = 2,
    OSC_INT8 = 3,
    OSC_UINT16 = 4,
    OSC_INT16 = 5,
    OSC_INT32 = 6,
    OSC_INT64 = 7,
    OSC_STRING = 8,
    OSC_BOOL = 9,
    OSC_FLOAT16 = 10,
    OSC_DOUBLE = 11,
    OSC_UINT32 = 12,
    OSC_UINT64 = 13,
    OSC_COMPLEX64 = 14,
    OSC_COMPLEX128 = 15,
    OSC_BFLOAT16 = 16,
    OSC_FLOAT8E4M3FN = 17,
    OSC_FLOAT8E4M3FNUZ = 18,
    OSC_FLOAT8E5M2 = 19,
    OSC_FLOAT8E5M2FNUZ = 20,
    OSC_UINT4 = 21, /* packed two per byte, first element in the low nibble */
    OSC_INT4 = 22,
    OSC_FLOAT4E2M1 = 23,
    OSC_FLOAT8E8M0 = 24,
    OSC_UINT2 = 25, /* packed four per byte, first element in the lowest bits */
    OSC_INT2 = 26,
    OSC_DTYPE_COUNT = 27,
    /* Not tensors: an ONNX sequence or optional value travels as an osc_tensor of one of these
     * "dtypes" (see "Sequences and optionals" below). */
    OSC_SEQUENCE = 60,
    OSC_OPTIONAL = 61
} osc_dtype;

/* One element of an OSC_STRING tensor: bytes (not NUL-terminated) and their count. */
typedef struct osc_string {
    const char *ptr;
    size_t len;
} osc_string;

/* A tensor view. The struct never owns `data`; who does is said at each call.
 * Elements are dense, row-major, little-endian. Strings: `data` is an osc_string[count].
 * Sub-byte types (int4, uint2, ...) are packed; nbytes is ceil(count * bits / 8).
 * `data` must be aligned for the element type (malloc'ed memory always is). */
typedef struct osc_tensor {
    int32_t dtype; /* osc_dtype */
    int32_t rank;  /* 0 for a scalar */
    int64_t dims[OSC_MAX_RANK];
    void *data;
    size_t nbytes;
} osc_tensor;

/* realloc-shaped allocator: nsize == 0 frees ptr (returns NULL); otherwise returns a block of
 * nsize bytes (aligned for any type) holding the first min(osize, nsize) bytes of ptr, or NULL
 * (the library then fails the call with OSC_ERR_NOMEM and releases what it holds; ptr stays
 * valid). osize is the exact size the block was allocated with (0 when ptr is NULL). Called
 * concurrently when sessions run on several threads (see Threads above). */
typedef void *(*osc_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

/* osc_options.max_bytes value meaning "no cap at all". */
#define OSC_NO_LIMIT UINT64_MAX
#define OSC_MAX_THREADS 256            /* largest opts.threads */
/* Defaults of the limits in osc_options (a field left 0 takes these). */
#define OSC_DEFAULT_MAX_NODES 50000    /* nodes in a graph, its subgraphs' included */
#define OSC_DEFAULT_MAX_STRING_MIB 64  /* MiB in one string element */
#define OSC_DEFAULT_MAX_ITERATIONS 10000000 /* iterations of one Loop node in one run */
/* Fixed limits on the counts of a model (not options): over one the load fails with
 * OSC_ERR_LIMIT and a message naming the count, its value and the limit. They keep every load
 * check linear (or n log n) in the file; real models stay far below them. */
#define OSC_MAX_OPSET_IMPORTS 256       /* opset_import entries */
#define OSC_MAX_NODE_ATTRIBUTES 1024    /* attributes of one node */
#define OSC_MAX_NODE_IO 65536           /* inputs of one node; outputs of one node */
#define OSC_MAX_GRAPH_IO 1000000        /* graph inputs; graph outputs */
#define OSC_MAX_INITIALIZERS 1000000    /* initializers */
#define OSC_MAX_VALUE_INFO 1000000      /* value_info entries */
#define OSC_MAX_METADATA 65536          /* metadata_props entries */
#define OSC_MAX_STRING_ENTRIES 16777216 /* strings of one tensor or one attribute */
#define OSC_MAX_GRAPH_DEPTH 16          /* subgraphs nested in subgraphs (If in Loop in ...) */

/* Load options. Fill with osc_options_init, then set options by name with osc_options_set
 * (the integer ones; the fields stay for source compatibility) and the allocator hook by field.
 * The model keeps a copy.
 * Limits (max_bytes, max_nodes, max_rank, max_string_mib) are on by default: an untrusted model
 * or input over one of them fails with OSC_ERR_LIMIT and a message naming the limit, before the
 * memory is allocated. A value out of its range fails the load with OSC_ERR_ARG. */
/* A symbolic dim given a size at load (osc_options.dim_pins). */
typedef struct osc_dim_pin {
    const char *name; /* the dim_param */
    int64_t size;
} osc_dim_pin;

typedef struct osc_options {
    osc_alloc_fn alloc;      /* NULL: the C library's realloc/free */
    void *alloc_ud;          /* passed to alloc */
    /* Cap on the bytes requested from the allocator, counted separately for the model (reading
     * the file, load, and after) and for each session (its tables, arena, string bytes and the
     * scratch block of large scatters, kept between runs;
     * caller buffers and memory-mapped external data do not count). A request over the cap
     * fails with OSC_ERR_LIMIT; nothing is allocated. A model whose static shapes need an arena
     * over the cap even with every output in a caller buffer fails at load.
     * 0 (default): half of the memory this process may use, read at each load: the smallest of
     * physical memory, the process's cgroup v2 memory.max and RLIMIT_AS (no cap when none can be
     * read). OSC_NO_LIMIT: no cap. */
    uint64_t max_bytes;
    /* 1: deprecated ops (Scatter-11) and IR versions outside those the library knows are
     * errors, not warnings */
    int32_t strict;
    int32_t profile;         /* 1: sessions time every node (osc_session_node_ns) */
    /* 1: a scatter node (Scatter, ScatterElements, ScatterND, TensorScatter) whose data input
     * (input 0) is a graph input without a default, read by no later node, not a graph output,
     * not read again by the node itself and not a string tensor, writes its output into the
     * caller's buffer of that input instead of the arena (no copy, no arena space). The runtime
     * then writes to that caller buffer, whose contents afterwards are unspecified, and the run
     * consumes the input: see osc_session_set_input and osc_model_node_inplace.
     * 2: the same, and also a node that may write its output over its input 0 (MatMul, Gemm,
     * the elementwise ops) when the model's shapes show that output has that input's dtype and
     * shape, static or by the same symbolic dims (then checked at each run before the node
     * runs), and a Reshape or Flatten of a value held there (a view of the same bytes): a
     * layer's x W written over x, for example.
     * 0 (default): the runtime never writes to input buffers. Other values: OSC_ERR_ARG. */
    int32_t inplace_inputs;
    /* Threads one run may use, counting the calling thread: 0 (default) or 1: the calling
     * thread only; 2 to OSC_MAX_THREADS: each session starts threads - 1 workers when it is
     * created (they sleep between runs and end with osc_session_free; a run never starts a
     * thread). Large scatters split the data copy by range and the updates by destination, so
     * outputs are bit-identical whatever the value, duplicates and reductions included. When
     * the workers cannot be started the session runs on one thread
     * (osc_session_threads). Out of range: OSC_ERR_ARG at load. */
    int32_t threads;
    /* Cap on one session's arena (the block holding intermediate values and outputs not in
     * caller buffers). Checked whenever a session plans (first run, new input shapes, new output
     * buffers), before anything is allocated or written: over the cap the run fails with
     * OSC_ERR_LIMIT. 0: no cap. Independent of max_bytes, which bounds all allocations. */
    uint64_t max_arena_bytes;
    /* Most nodes a graph may have (checked before anything is allocated for them). 0: the
     * default, OSC_DEFAULT_MAX_NODES; else 1 to INT32_MAX. Loading is O(n log n) in the nodes
     * (the arena planner; everything else is linear). */
    int32_t max_nodes;
    /* Largest rank of any tensor: declared (graph inputs, outputs, value_info), initializers and
     * attribute tensors at load, bound inputs, and every value shape inference computes. 0: the
     * default, OSC_MAX_RANK; else 1 to OSC_MAX_RANK. */
    uint8_t max_rank;
    /* Longest string element, in MiB (2^20 bytes): string initializers and attribute strings at
     * load, bound string inputs, and the string outputs of a run (which reduction "add" makes by
     * concatenation; checked once the run's nodes have run, so a caller buffer of that output may
     * hold its osc_string array). Strings inside a run are bounded by max_bytes.
     * 0: the default, OSC_DEFAULT_MAX_STRING_MIB; else 1 to 255. */
    uint8_t max_string_mib;
    /* 1: a model importing a version of the default operator set newer than the newest this
     * library knows (osc_opset_newest) runs each node with the kernel of that newest version,
     * and the model reports a warning saying so. 0 (default): such a model is refused at load
     * (OSC_ERR_UNSUPPORTED), since a newer version may have changed an op's meaning. */
    uint8_t newer_opsets;
    /* 1: load the graph as written. 0 (default): a load-time pass rewrites the exporters'
     * element-wise spelling of message passing (an index Expanded to the updates' shape, a
     * Gather of source rows, elementwise ops on them, a ScatterElements onto zeros) into one
     * node that walks the edges once, reading one index per row; results are bit-identical
     * either way (docs/design.md, "Fusion"). osc_model_node reports what each fused node
     * replaced. */
    uint8_t no_fusion;
    /* 1: a fused gather-scatter computes a per-edge operand (GAT's attention weights, GCN's
     * edge norms) a tile of edges at a time inside its loop, recomputing what it needs from
     * per-node values, even what the graph still computes for other readers, so the operand
     * never exists whole: a lower peak at the cost of that work (GAT: peak RSS down by its
     * [E, heads] weights, run time up by about a quarter; docs/performance.md). 0 (default):
     * the operand is computed once, whole. Results are bit-identical either way. */
    uint8_t fuse_recompute;
    uint8_t reserved[6];     /* zero (a non-zero value is OSC_ERR_ARG at load) */
    /* Symbolic dims taken as static (onnxruntime's free dimension overrides): every dim whose
     * dim_param is dim_pins[i].name, in the graph's inputs, outputs and value_info, has size
     * dim_pins[i].size, so the load folds, plans and fuses as for a model exported with static
     * shapes; a run whose inputs disagree fails before any node runs (OSC_ERR_SHAPE, naming the
     * input, the dim and the pinned size). Read during the load only (the model keeps no
     * pointer: osc_model_options reports NULL and 0). Each name must be the dim_param of a
     * graph input's dim and appear once, each size from 0 to INT64_MAX: else OSC_ERR_ARG at
     * load, naming the pin. NULL with n_dim_pins 0 (default): none. */
    const osc_dim_pin *dim_pins;
    size_t n_dim_pins;
    /* Most iterations one Loop node may run in one run (its trip count and condition aside): one
     * more fails the run with OSC_ERR_LIMIT, naming the node, so a loop that never ends cannot
     * hang the caller. 0: the default, OSC_DEFAULT_MAX_ITERATIONS; else 1 to INT64_MAX. */
    uint64_t max_iterations;
    /* Most bytes constant folding may compute at load, in all (each folded value is at most
     * 1 MiB; a Constant's output shares its attribute's bytes and counts for neither): a node
     * whose outputs would take the total past it is not folded and runs with the graph, as it
     * would without folding, so a small file of many folded constants cannot make the load
     * hold gigabytes. 0: the default, 64 times the model's bytes (the file's, or
     * its initializers' when external data makes them more) and at least 64 MiB; OSC_NO_LIMIT:
     * only max_bytes bounds them. */
    uint64_t max_fold_bytes;
    uint64_t reserved_ext[2]; /* zero (a non-zero value is OSC_ERR_ARG at load) */
} osc_options;

/* Fills *opts with the defaults: every field zero (realloc/free, not strict, default limits:
 * see each field). */
OSC_API void osc_options_init(osc_options *opts);
/* Sets the integer option `key` (its field's name: "threads", "fuse_recompute", ...; the list
 * is osc_option_name's) from `value`, a whole decimal number without sign or spaces in the
 * option's range: 0 or 1 for a switch (strict, profile, inplace_inputs, newer_opsets,
 * no_fusion, fuse_recompute), else what the field documents (threads 0 to OSC_MAX_THREADS,
 * max_nodes 0 to INT32_MAX, max_rank 0 to OSC_MAX_RANK, max_string_mib 0 to 255, max_bytes,
 * max_arena_bytes and max_fold_bytes 0 to UINT64_MAX). Same effect as setting the field; a
 * later call for a key overrides an earlier one. msg is as for a load: "" on success; on failure
 * a one-line message naming the key, the value and the allowed keys or range (truncated to
 * msg_size - 1 bytes; nothing written when msg is NULL or msg_size 0). On failure *opts is unchanged: OSC_ERR_ARG
 * for a NULL opts, key or value, an unknown key, a value that is not such a number or one out
 * of range. */
OSC_API osc_status osc_options_set(osc_options *opts, const char *key, const char *value,
                                   char *msg, size_t msg_size);
/* Reads option `key` of *opts back (as a uint64_t, whatever the field's type); OSC_ERR_ARG for
 * a NULL argument or an unknown key. */
OSC_API osc_status osc_options_get(const osc_options *opts, const char *key, uint64_t *value);
/* Name of option i (0, 1, ... in the order of osc_options' fields; static storage); NULL when
 * i is past the last. */
OSC_API const char *osc_option_name(size_t i);
/* The byte cap opts.max_bytes = 0 stands for: half of the memory this process may use, min(physical
 * memory, cgroup v2 memory.max, RLIMIT_AS) / 2; 0 (no cap) when none of them can be read. Reads
 * the system at each call, as every load does. */
OSC_API uint64_t osc_default_max_bytes(void);

/* Version of the library ("0.3.0"; static storage). */
OSC_API const char *osc_version(void);
/* English name of a status ("out of memory"; static storage; "unknown status" otherwise). */
OSC_API const char *osc_status_name(osc_status s);
/* ONNX name of a dtype ("float", "int64", "bfloat16", ...); "undefined" for unknown numbers. */
OSC_API const char *osc_dtype_name(int32_t dtype);
/* Bits per element (4 for int4, 128 for complex128, 128 for a string's osc_string on LP64);
 * 0 for an unknown dtype. */
OSC_API size_t osc_dtype_bits(int32_t dtype);
/* Number of elements (1 for rank 0; 0 when any dim is 0, even if the other dims alone would
 * overflow); -1 when the rank is outside [0, OSC_MAX_RANK], a dim is negative or the product
 * overflows int64. */
OSC_API int64_t osc_tensor_count(const osc_tensor *t);

/* ---- Models: loaded once, immutable afterwards, safe to share between threads. ---- */
typedef struct osc_model osc_model;

/* Loads an ONNX ModelProto from a file. External data is resolved relative to the file's folder.
 * opts may be NULL (defaults); it is copied. On success *out is a new model (free with
 * osc_model_free) and msg receives "" (warnings are read with osc_model_warning). On failure
 * *out is NULL, everything allocated is freed, and a one-line message is written to msg
 * (truncated to msg_size - 1 bytes; nothing when msg is NULL or msg_size is 0). */
OSC_API osc_status osc_model_load_file(const char *path, const osc_options *opts, osc_model **out,
                                       char *msg, size_t msg_size);
/* Same from memory. The model copies what it keeps: buf may be freed as soon as the call
 * returns. base_dir (may be NULL: external data is then refused) is the folder external data
 * paths are relative to. */
OSC_API osc_status osc_model_load_buffer(const void *buf, size_t len, const char *base_dir,
                                         const osc_options *opts, osc_model **out, char *msg,
                                         size_t msg_size);
/* Frees the model and every string it handed out. Its sessions must be freed first.
 * NULL is a no-op. */
OSC_API void osc_model_free(osc_model *m);

/* The options the model was loaded with (alloc hook, caps, strict, profile, inplace_inputs,
 * threads as given). */
OSC_API osc_status osc_model_options(const osc_model *m, osc_options *out);

/* Introspection. Strings returned are owned by the model and live as long as it does. The
 * calls only read the model, so they are safe from any thread. */
typedef struct osc_value_desc {
    const char *name;
    int32_t dtype;                          /* OSC_UNDEFINED when the model does not say */
    int32_t rank;                           /* -1 when unknown */
    int64_t dims[OSC_MAX_RANK];             /* -1 for a symbolic or unknown dim */
    const char *dim_names[OSC_MAX_RANK];    /* dim_param of a symbolic dim, else NULL */
    int32_t has_default;                    /* input backed by an initializer (overridable) */
} osc_value_desc;

typedef struct osc_node_desc {
    const char *name;
    const char *op_type;
    const char *domain;     /* "" for the default ONNX domain */
    int64_t since_version;  /* version of the kernel the node resolved to */
    int64_t opset;          /* the model's opset for the node's domain */
    int32_t n_inputs;
    const char *const *inputs;   /* value names; "" for an omitted optional input */
    int32_t n_outputs;
    const char *const *outputs;
    int32_t folded;              /* 1: computed at load from constants; it does not run */
    /* A node the fusion pass made (opts.no_fusion): the n_fused nodes of the model it
     * replaced, in graph order (their names and op types; those of a fused node it took in
     * where that node was); 0 and NULL for other nodes. */
    int32_t n_fused;
    const char *const *fused_names;
    const char *const *fused_ops;
    union { /* (in the first reserved element: see "Reserved tails") */
        const char *fused_rule;  /* the rule that made it (docs/design.md); NULL for others */
        uint64_t reserved0;
    };
    union { /* (in the second reserved element) */
        /* A fusion candidate left as it is (the pattern's node a rule starts at, when the
         * rule's matcher got far enough to call it one): "RULE: the condition that failed";
         * NULL for other nodes and for every node of a model loaded with opts.no_fusion. */
        const char *not_fused;
        uint64_t reserved1;
    };
    uint64_t reserved[6];        /* written zero by osc_model_node; see "Reserved tails" */
} osc_node_desc;

/* The model's IR version; 0 for NULL. */
OSC_API int64_t osc_model_ir_version(const osc_model *m);
/* Opsets the model imports: domain ("" for ai.onnx) and version of entry i. */
OSC_API size_t osc_model_opset_count(const osc_model *m);
OSC_API osc_status osc_model_opset(const osc_model *m, size_t i, const char **domain,
                                   int64_t *version);
/* Graph inputs callers bind: those without a default first, then those backed by an
 * initializer, each group in model order. This is the index osc_session_set_input_at takes. */
OSC_API size_t osc_model_input_count(const osc_model *m);
OSC_API size_t osc_model_output_count(const osc_model *m);
/* Input/output i. Shapes are the inferred ones where the model's shapes are static; otherwise
 * the declared ones, symbolic dims as -1 with their dim_names. */
OSC_API osc_status osc_model_input(const osc_model *m, size_t i, osc_value_desc *out);
OSC_API osc_status osc_model_output(const osc_model *m, size_t i, osc_value_desc *out);
/* Nodes in execution order, each with the kernel version it resolved to. */
OSC_API size_t osc_model_node_count(const osc_model *m);
OSC_API osc_status osc_model_node(const osc_model *m, size_t i, osc_node_desc *out);
/* INT attribute `name` of node i (OSC_ERR_ARG when absent or not an int). */
OSC_API osc_status osc_model_node_attr_int(const osc_model *m, size_t i, const char *name,
                                           int64_t *value);
/* STRING attribute `name` of node i (owned by the model; OSC_ERR_ARG when absent). */
OSC_API osc_status osc_model_node_attr_str(const osc_model *m, size_t i, const char *name,
                                           const char **value);

/* One attribute of a node, as the model states it (osc_model_node_attr_at). */
typedef struct osc_attr_desc {
    const char *name;
    int32_t type;           /* ONNX AttributeProto.AttributeType: 1 FLOAT, 2 INT, 3 STRING,
                             * 4 TENSOR, 6 FLOATS, 7 INTS; other types (STRINGS, GRAPH, ...)
                             * come with their name and type only (a GRAPH's model:
                             * osc_model_node_subgraph) */
    int64_t i;              /* INT */
    float f;                /* FLOAT */
    const char *s;          /* STRING: s_len bytes (NUL-terminated too) */
    size_t s_len;
    size_t n;               /* elements of ints (INTS) or floats (FLOATS) */
    const int64_t *ints;
    const float *floats;
    const osc_tensor *t;    /* TENSOR (NULL for other types) */
} osc_attr_desc;
/* Attributes of node i (0 for a bad index), and attribute k of them (OSC_ERR_ARG when out of
 * range). A node the fusion pass made keeps its scatter's attributes. Owned by the model. */
OSC_API size_t osc_model_node_attr_count(const osc_model *m, size_t i);
OSC_API osc_status osc_model_node_attr_at(const osc_model *m, size_t i, size_t k,
                                          osc_attr_desc *out);
/* The subgraph that attribute k of node i holds (a GRAPH attribute: If's branches, Loop's and
 * Scan's bodies), as a model of its own: every osc_model_* call describes it (its inputs are
 * the subgraph's, then the names it reads from the graphs around it). Owned by m; NULL when the
 * attribute is no graph or an index is out of range. */
OSC_API const osc_model *osc_model_node_subgraph(const osc_model *m, size_t i, size_t k);

/* Any value of the graph by name: a graph input or output, an initializer, a node's output.
 * dtype and shape are the ones inferred at load where they are static (for every value when
 * every input shape is, else for those folding could work out), otherwise the declared ones
 * (graph inputs and outputs, value_info; rank -1 when nothing says). OSC_ERR_ARG for a name no
 * value of the graph has (a value the fusion pass made unneeded is gone). Linear in the values. */
OSC_API osc_status osc_model_value(const osc_model *m, const char *name, osc_value_desc *out);
/* The data of a value known at load: an initializer that is not a graph input, or an output of
 * a node folded at load (osc_node_desc.folded). *out is a view owned by the model. OSC_ERR_ARG
 * for any other value or an unknown name, and for a constant that no node left to run reads
 * (read only by folded nodes, or by nodes the fusion pass removed), whose data the load gives
 * back when it has a block of its own (always over 16 KiB); a folded Constant's tensor attribute
 * of the same bytes then has no data either (osc_attr_desc.t->data NULL). Constants of equal
 * bytes may share them (the same data pointer). */
OSC_API osc_status osc_model_value_data(const osc_model *m, const char *name, osc_tensor *out);

/* Where a node writes its output, decided at load (osc_model_node_inplace). */
typedef enum osc_inplace {
    OSC_INPLACE_NONE = 0,         /* into a buffer of its own (arena) */
    OSC_INPLACE_INTERMEDIATE = 1, /* over its data input, an intermediate that dies there */
    OSC_INPLACE_INPUT = 2         /* into the caller's buffer of a graph input (inplace_inputs) */
} osc_inplace;
/* In-place mode of node i's output 0 (an osc_inplace). OSC_INPLACE_INPUT only happens with
 * opts.inplace_inputs = 1; it is also reported for a node that continues in place on a value
 * already held in a caller's input buffer. */
OSC_API osc_status osc_model_node_inplace(const osc_model *m, size_t i, int32_t *mode);

/* Arena bytes the execution plan needs without caller output buffers; 0 when shapes are only
 * known at run (see osc_session_arena_bytes for a session's actual arena). */
OSC_API uint64_t osc_model_arena_bytes(const osc_model *m);
/* Warnings of the load (e.g. a deprecated op), in order; NULL when i is out of range. */
OSC_API size_t osc_model_warning_count(const osc_model *m);
OSC_API const char *osc_model_warning(const osc_model *m, size_t i);

/* The model's metadata as its ModelProto and GraphProto state it (the fields onnxruntime's
 * ModelMetadata reads). Strings are owned by the model; "" for a field the model leaves unset. */
typedef struct osc_meta_desc {
    const char *producer_name;
    const char *producer_version;
    const char *domain;
    int64_t model_version;
    const char *doc_string;         /* the model's */
    const char *graph_name;
    const char *graph_doc_string;
    size_t n_props;                 /* metadata_props entries: osc_model_meta_prop */
} osc_meta_desc;
OSC_API osc_status osc_model_meta(const osc_model *m, osc_meta_desc *out);
/* metadata_props entry i (model order; a key the file repeats is listed each time): key and
 * value, owned by the model. OSC_ERR_ARG when i >= n_props. */
OSC_API osc_status osc_model_meta_prop(const osc_model *m, size_t i, const char **key,
                                       const char **value);

/* ---- Operators this build implements (the kernel registry, in table order). ---- */
typedef struct osc_op_desc {
    const char *domain;     /* "" for the default ONNX domain */
    const char *op_type;
    int64_t since_version;  /* the op versions this kernel implements: a model whose opset for */
    int64_t until_version;  /* the domain is in [since_version, until_version] uses it */
    int32_t min_inputs;
    int32_t max_inputs;     /* -1: any number (a variadic op) */
    int32_t n_outputs;      /* the most outputs; -1: any number (Split) */
    int32_t deprecated;     /* 1: the version is deprecated (a warning at load; strict: error) */
    int32_t min_outputs;    /* the fewest (less than n_outputs when trailing ones are optional) */
    uint64_t reserved[4];   /* written zero by osc_op_at; see "Reserved tails" */
} osc_op_desc;
OSC_API size_t osc_op_count(void);
/* Row i of the registry; OSC_ERR_ARG when i is out of range or out is NULL. */
OSC_API osc_status osc_op_at(size_t i, osc_op_desc *out);
/* The newest version of a domain's operator set this build knows ("" or "ai.onnx"); -1 for a
 * domain it has no kernels for. See opts.newer_opsets. */
OSC_API int64_t osc_opset_newest(const char *domain);

/* ---- Sessions: one per thread; each holds its arena and its inputs/outputs. ---- */
typedef struct osc_session osc_session;

/* Creates a session: its tables come from the model's allocator (the arena only at the first
 * run). The model must outlive the session. On failure *out is NULL and nothing is leaked; the
 * only failures are OSC_ERR_ARG (NULL argument), OSC_ERR_NOMEM and OSC_ERR_LIMIT (its tables
 * exceed opts.max_bytes), so no message is needed. */
OSC_API osc_status osc_session_create(const osc_model *m, osc_session **out);
/* Frees the session, its arena and every output it owns. NULL is a no-op, and so is a session
 * held by a call in progress (its run, called from its node hook or another thread). */
OSC_API void osc_session_free(osc_session *s);
/* Binds an input by graph-input name or by index (osc_model_input order). The osc_tensor is
 * copied; its data is borrowed until the next set_input of that input, a run that consumes it, or
 * osc_session_free; the runtime never writes to them unless the model was loaded with
 * opts.inplace_inputs and osc_model_node_inplace reports OSC_INPLACE_INPUT for a node reading
 * it. Such an input is consumed: once a run starts executing nodes it is unbound (bind it again
 * before every run) and its buffer's contents are unspecified. Binding an input with a default
 * overrides the default. On failure (OSC_ERR_ARG: unknown name or index, inconsistent tensor;
 * OSC_ERR_SHAPE: dtype, rank or a static dim differs from the declaration) the previous binding
 * stays and osc_session_error() says why. A new binding invalidates the last run's outputs.
 * An input declared optional may be bound a tensor or a sequence: it is bound the optional
 * holding a copy of it (then a failure leaves that input unbound). */
OSC_API osc_status osc_session_set_input(osc_session *s, const char *name, const osc_tensor *t);
OSC_API osc_status osc_session_set_input_at(osc_session *s, size_t index, const osc_tensor *t);
/* Declares that input `index` (osc_model_input order) holds the same bytes as in the last run,
 * for the next run only. The fused scatters that read it as an index then reuse what the last
 * run derived from it (its range check, its grouping by destination) once its bytes hash as
 * they did then; a declared input whose bytes differ from the last run's fails that run with
 * OSC_ERR_ARG, naming the input, before the fused node writes anything. Without a fused node
 * reading it, or when the last run did not hash it, the declaration changes nothing.
 * OSC_ERR_ARG for an index out of range (with a message). */
OSC_API osc_status osc_session_input_unchanged(osc_session *s, size_t index);
/* Removes the binding of input `index` (osc_model_input order): an input with a default uses
 * the default again, any other must be bound before the next run. The session keeps no pointer
 * to the old tensor afterwards. Invalidates the last run's outputs. OSC_ERR_ARG for an index
 * out of range (with a message). */
OSC_API osc_status osc_session_unbind_input(osc_session *s, size_t index);
/* Gives output `index` (osc_model_output order) a caller buffer of nbytes bytes, aligned for the
 * output's element type (a misaligned one works, through a copy); data == NULL removes it.
 * Borrowed until the next call for that index or osc_session_free. Each successful run then
 * leaves the output in that buffer: written there directly (zero copy) when its arena buffer is
 * not shared with something else, else copied at the end; osc_session_output_mode says which.
 * For string outputs the buffer receives the osc_string array; the bytes stay owned by the
 * session until the next run.
 * Checked at run, before any node runs (the run fails with OSC_ERR_ARG and writes nothing): the
 * buffer holds the output's nbytes, and it overlaps no input buffer nor other output buffer.
 * On a run failing in a node, a buffer written directly may hold the value its producing node
 * computed (if that node ran before the failing one); all other caller buffers are untouched.
 * A buffer written directly is also the workspace of the values that share its arena buffer
 * in place, so it may be written before its own node runs. Fails with OSC_ERR_ARG for an index
 * out of range or NULL data with nbytes > 0. Invalidates the last run's outputs. */
OSC_API osc_status osc_session_set_output_buffer(osc_session *s, size_t index, void *data,
                                                 size_t nbytes);
/* Runs the graph. On failure no output is readable, osc_session_error() says what went wrong
 * (node, input, position, value, allowed range), the session stays usable (fix the inputs and run
 * again), and caller buffers are as set_input and set_output_buffer describe: untouched unless
 * written in place or directly by a node that ran. A plan (shapes, arena) is made at the first run
 * and again only when input shapes or output buffers change. The session is held for the whole
 * run: any call on it meanwhile (from the node hook, a nested run, another thread) is refused
 * with OSC_ERR_STATE, except osc_session_cancel and osc_session_threads; a run started while
 * another call holds the session is refused the same way. */
OSC_API osc_status osc_session_run(osc_session *s);
/* Asks the session's run in progress, or its next run when none is in progress, to stop: it
 * fails with OSC_ERR_CANCELLED at its next check (before each node, and before each iteration
 * of a Loop or Scan, in subgraphs too), leaving caller buffers as any failed run does. The
 * request is used up by the run it stops. The one call that may be made from another thread
 * while the session runs. OSC_ERR_ARG for a NULL session. */
OSC_API osc_status osc_session_cancel(osc_session *s);
/* Output i of the last successful run: dtype, shape, nbytes and data. data is the caller's
 * buffer when one was set; otherwise it is owned by the session and valid until the next run,
 * set_input, set_output_buffer or osc_session_free (it may point into a caller input buffer
 * consumed in place, or, for an output that is a graph input, at that input's data).
 * OSC_ERR_STATE when the last run failed or none ran since the last binding. */
OSC_API osc_status osc_session_output(osc_session *s, size_t index, osc_tensor *out);

/* How output i of the last successful run reached the caller (osc_session_output_mode). */
typedef enum osc_output_mode {
    OSC_OUTPUT_SESSION = 0, /* owned by the session (no caller buffer) */
    OSC_OUTPUT_DIRECT = 1,  /* computed directly in the caller's buffer, no copy */
    OSC_OUTPUT_COPIED = 2   /* computed elsewhere and copied into the caller's buffer */
} osc_output_mode;
/* Mode (an osc_output_mode) of output i in the last successful run; OSC_ERR_STATE otherwise. */
OSC_API osc_status osc_session_output_mode(osc_session *s, size_t index, int32_t *mode);
/* Bytes of the arena the session holds (0 before the first run; it grows to the largest plan
 * and is kept between runs). */
OSC_API uint64_t osc_session_arena_bytes(const osc_session *s);
/* Threads the session's runs use, counting the caller: 1, or opts.threads when its workers
 * started (0 for NULL). */
OSC_API int32_t osc_session_threads(const osc_session *s);
/* Nanoseconds node i (osc_model_node order) took in the last run; 0 unless the model was
 * loaded with opts.profile = 1, or for a node that did not run. */
OSC_API uint64_t osc_session_node_ns(const osc_session *s, size_t node);
/* The session that runs the subgraph of attribute k of node i (osc_model_node_subgraph) inside
 * s, made when the subgraph first runs (NULL before, and for a bad index). Its
 * osc_session_node_ns are the sums over every time the subgraph ran in s's last run (every
 * iteration of a loop). Owned by s; for reading only. */
OSC_API const osc_session *osc_session_node_subgraph(const osc_session *s, size_t i, size_t k);
/* Observer of a run: osc_session_run calls it on the calling thread right after each node
 * that runs (osc_model_node order; folded nodes do not run) has succeeded, with the tensors
 * the node read (NULL for an omitted input) and wrote. They are views valid during the call
 * only, and must not be written. For debugging and profiling: shapes a node really had,
 * intermediate values. The session is held by its run: calls on it from the hook are refused
 * (OSC_ERR_STATE, see Threads above) and the run goes on with what was bound when it began;
 * osc_session_cancel may be called. */
typedef void (*osc_node_hook)(void *ud, size_t node, const osc_tensor *const *inputs,
                              int32_t n_inputs, const osc_tensor *outputs, int32_t n_outputs);
/* Sets the session's hook (fn NULL: none, the default); ud is passed to it. OSC_ERR_ARG for a
 * NULL session. */
OSC_API osc_status osc_session_set_node_hook(osc_session *s, osc_node_hook fn, void *ud);
/* Message of the session's last failure ("" after a success); owned by the session, valid until
 * its next call. "no session" for NULL. While a call holds the session (a run in progress), the
 * refusal of the last call refused meanwhile, a constant string naming that call. */
OSC_API const char *osc_session_error(const osc_session *s);

/* ---- TensorProto (.pb) files, as used by the ONNX node tests. ---- */
/* Decodes a serialized TensorProto into *out (data allocated with malloc, one block, strings
 * included; free with osc_tensor_free_data). name receives the tensor's name (may be NULL).
 * On failure *out holds no allocation and msg says why. */
OSC_API osc_status osc_tensor_decode_pb(const void *buf, size_t len, osc_tensor *out, char *name,
                                        size_t name_size, char *msg, size_t msg_size);
/* Serializes *t as a TensorProto with raw_data (string_data for strings) into a malloc'ed
 * buffer (*buf, *len); free it with free(). On failure *buf is NULL and msg says why. */
OSC_API osc_status osc_tensor_encode_pb(const osc_tensor *t, const char *name, void **buf,
                                        size_t *len, char *msg, size_t msg_size);
/* Frees the data of a tensor from osc_tensor_decode_pb and sets data to NULL. */
OSC_API void osc_tensor_free_data(osc_tensor *t);

/* ---- Sequences and optionals. ----
 * An ONNX sequence (tensors of one dtype, or values of one kind) or optional (empty, or holding
 * one tensor or sequence) is an osc_tensor of dtype OSC_SEQUENCE or OSC_OPTIONAL: rank 1,
 * dims[0] == nbytes, its data a packed copy of its items that holds no pointers. So it is bound,
 * read and given an output buffer like any tensor, and may be copied bytewise. Items of dtype
 * string are not supported. */
/* Packs n items (tensors, or values this call made) into *out, a value of dtype kind
 * (OSC_SEQUENCE, or OSC_OPTIONAL: at most one item). elem_dtype names the items' dtype for an
 * empty value (0: not said); the items must all have it otherwise (0 accepts theirs). out->data
 * is malloc'ed: free it with osc_tensor_free_data. On failure *out holds no allocation and msg
 * says why (OSC_ERR_ARG). */
OSC_API osc_status osc_value_pack(int32_t kind, int32_t elem_dtype, const osc_tensor *items,
                                  size_t n, osc_tensor *out, char *msg, size_t msg_size);
/* Items of value v (an optional: 0 when empty, else 1) and their dtype (0 for an empty value of
 * no said dtype); either pointer may be NULL. Checks the whole value: OSC_ERR_ARG when v is not
 * one osc_value_pack or a run made. */
OSC_API osc_status osc_value_count(const osc_tensor *v, size_t *n, int32_t *elem_dtype);
/* Item k of v (checked by osc_value_count), a view into v's data, valid while it is.
 * OSC_ERR_ARG for k out of range or v not a value. */
OSC_API osc_status osc_value_item(const osc_tensor *v, size_t k, osc_tensor *out);
/* Decodes a serialized SequenceProto (dtype OSC_SEQUENCE) or OptionalProto (OSC_OPTIONAL), as
 * the ONNX node tests store such values, into a value like osc_value_pack's (free it with
 * osc_tensor_free_data); any other dtype decodes a TensorProto (osc_tensor_decode_pb). name
 * receives its name (may be NULL). On failure *out holds no allocation and msg says why. */
OSC_API osc_status osc_value_decode_pb(const void *buf, size_t len, int32_t dtype,
                                       osc_tensor *out, char *name, size_t name_size, char *msg,
                                       size_t msg_size);
/* Serializes a value as a SequenceProto or OptionalProto, any other tensor as a TensorProto
 * (osc_tensor_encode_pb), into a malloc'ed buffer (free it with free()). */
OSC_API osc_status osc_value_encode_pb(const osc_tensor *t, const char *name, void **buf,
                                       size_t *len, char *msg, size_t msg_size);

#ifdef __cplusplus
}
#endif
#endif
