/* kernel.h: the kernel contract: one registry row per op version range, and what a kernel may
 * use. Adding an op version is one row in an ops/FAMILY/rows.def file plus the kernel's
 * functions in that folder. */
#ifndef OSC_KERNEL_H
#define OSC_KERNEL_H

#include <stdatomic.h>

#include "graph.h"
#include "tpool.h"

struct osc_kernel;

/* Run time: state the session keeps for kernels across runs (osc_kshared); the engine owns
 * it and frees it with the session (osc_kstore_free). */
#define OSC_KSTORE_MAX 8
typedef struct osc_kstore {
    osc_allocator *alloc;
    int32_t n;
    struct {
        const void *key;
        void *state;
        size_t size;
        void (*drop)(void *state);
    } e[OSC_KSTORE_MAX];
} osc_kstore;
void osc_kstore_free(osc_kstore *s);

/* Run time: what one node keeps in the session between its infer and its run, or across runs
 * (a control-flow node: its subgraph's results); the engine calls drop(p), when set, as the
 * session ends. */
typedef struct osc_kslot {
    void *p;
    void (*drop)(void *p);
} osc_kslot;

struct osc_kctx;
/* Runs subgraph `graph` (a GRAPH attribute of k->node, prepared by the engine at load): in[0..
 * n_in-1] are the subgraph's own inputs, in its order; node_in are the node's inputs (the values
 * the subgraph reads from around it are among its implicit ones). out[j] (n_out of them, the
 * subgraph's output count) receives output j's dtype, shape and data, valid until the next
 * call for that attribute in this session. A failure's message is prefixed with `what`. */
typedef osc_status (*osc_body_fn)(struct osc_kctx *k, const osc_attr *graph,
                                  const osc_tensor *const *in, int32_t n_in,
                                  const osc_tensor *const *node_in, osc_tensor *out,
                                  int32_t n_out, const char *what);

/* What a kernel may use while it initialises, infers or runs one node. */
typedef struct osc_kctx {
    osc_err *err;
    const osc_graph *graph;  /* for value names in messages (NULL in kernel unit tests) */
    const osc_node *node;    /* name and op type, for messages; attributes only in init */
    const struct osc_kernel *row; /* the registry row the node resolved to */
    int64_t since_version;   /* row->since */
    const void *params;      /* what the kernel's init made for this node (NULL: nothing) */
    osc_allocator *alloc;
    osc_pool *pool;          /* load time: the model's pool (osc_kparams) */
    osc_pool *strings;       /* per-run pool for bytes of new strings (string add) */
    bool strict;
    /* Run time: the session's threads (osc_tpool_run; NULL: the calling thread only) and its
     * scratch block, kept between runs (NULL: kernels take paths that need none). */
    osc_tpool *tpool;
    osc_scratch *scratch;
    osc_kstore *store; /* run time: the session's state for kernels (NULL: none) */
    uint64_t run;      /* run time: the session's run, numbered from 1 */
    /* Run time: per graph value, nonzero when the caller declared it unchanged since the last
     * run (osc_session_input_unchanged: graph inputs only; NULL: none). A claim to verify. */
    const uint8_t *unchanged;
    int64_t max_iterations; /* of one loop node in one run (opts.max_iterations) */
    /* Run time: nonzero once the caller cancelled the run (osc_session_cancel; NULL at load):
     * kernels that iterate check it (osc_kcancelled) before each iteration. */
    const atomic_int *cancel;
    /* Infer and run: this node's slot in the session (NULL at load: folding, probes). */
    osc_kslot *slot;
    /* Infer and run, at load too: runs one of the node's subgraphs (runtime/body.c); body_ud is
     * the engine's (the session, or NULL at load). */
    osc_body_fn body;
    void *body_ud;
    /* Warnings at load: kernels call osc_kwarn; the model stores them. NULL at run time. */
    void (*warn)(void *ud, const char *msg);
    void *warn_ud;
} osc_kctx;

/* Load time, once per node: validate the node's attributes for this op version and parse them
 * into parameters the kernel owns (osc_kparams), stored in *params (left NULL when the op has
 * none). The only step that reads attributes: infer and run read k->params. */
typedef osc_status (*osc_init_fn)(osc_kctx *k, const osc_node *node, void **params);
/* Given inputs with dtype and shape set (data may be NULL), set each output's dtype, rank and
 * dims. Must reject every dtype/shape combination run() cannot handle. in[i] is NULL for an
 * omitted optional input. Scratch it needs (an infer_reads kernel reading its data) comes from
 * k->alloc and is freed before it returns. */
typedef osc_status (*osc_infer_fn)(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                   osc_tensor *out, int32_t n_out);
/* Computes outputs. Outputs have dtype/shape/nbytes set and data pointing at their buffer.
 * Contract: validate every index before the first write to any output, so a failed run leaves
 * outputs untouched. If the row has OSC_KF_INPLACE, out[0].data may equal in[0]->data: then
 * the copy of input 0 must be skipped. */
typedef osc_status (*osc_run_fn)(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 osc_tensor *out, int32_t n_out);

/* The one declaration of a kernel's three functions (pfx_init, pfx_infer, pfx_run). */
#define OSC_KERNEL_DECLARE(pfx)                                                                \
    osc_status pfx##_init(osc_kctx *k, const osc_node *node, void **params);                   \
    osc_status pfx##_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,             \
                           osc_tensor *out, int32_t n_out);                                    \
    osc_status pfx##_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,               \
                         osc_tensor *out, int32_t n_out);

/* What the engine needs to know about an op, so that it never names one. */
enum {
    /* output 0 may take input 0's buffer when that value dies at the node */
    OSC_KF_INPLACE = 1u << 0,
    /* output 0 has, by the spec, exactly input 0's dtype and shape: with opts.inplace_inputs it
     * may be written into the caller's buffer of a graph input (the scatter family) */
    OSC_KF_INPLACE_INPUT = 1u << 1,
    /* reads only its inputs' shapes (Shape, Size): folded at load once they are static */
    OSC_KF_SHAPE_ONLY = 1u << 2,
    /* the op version is deprecated: a warning at load, an error in strict mode */
    OSC_KF_DEPRECATED = 1u << 3,
    /* output 0 may take input 0's buffer when that value dies at the node and has, by the
     * static shapes known at load, output 0's dtype and shape (an op that broadcasts its inputs
     * may write over input 0 only when input 0 is not the one broadcast) */
    OSC_KF_INPLACE_SAME = 1u << 4,
    /* a fused kernel: only the load-time rewrite makes its nodes (rewrite/); a model naming
     * it is refused like an unknown op */
    OSC_KF_INTERNAL = 1u << 5,
};

/* What the rewrite rules may know of an op (rewrite/: they read these and the kernels'
 * parameters, never op names or attributes). */
enum {
    /* elementwise over inputs broadcast together (numpy), output shaped like the broadcast */
    OSC_KT_BROADCASTS = 1u << 0,
    /* output element i depends only on the input elements at i (after broadcasting), and no
     * value of the input dtype makes it fail: it may run on any subset of rows */
    OSC_KT_ROWWISE = 1u << 1,
    /* output 0 holds input 0's elements in the same order; only the shape differs (Reshape) */
    OSC_KT_SAME_ELEMENTS = 1u << 2,
    /* output 0 is input 0 broadcast to the shape input 1 holds (Expand) */
    OSC_KT_EXPAND = 1u << 3,
    /* slices of input 0 along params' axis at input 1's indices (Gather: osc_gather_params) */
    OSC_KT_GATHER = 1u << 4,
    /* inputs joined along params' axis (Concat: osc_concat_params) */
    OSC_KT_CONCAT = 1u << 5,
    /* a matrix product that can apply Relu to its output as it stores it (MatMul, Gemm: their
     * params' `relu`) */
    OSC_KT_PRODUCT = 1u << 6,
    /* max(x, 0): a product before it may take it as its epilogue */
    OSC_KT_RELU = 1u << 7,
    /* output 0 is a constant its params hold (Constant, ConstantOfShape: osc_constant_value) */
    OSC_KT_CONSTANT = 1u << 8,
    /* a row of the binary elementwise kernel: its variant is an OSC_BIN_* operation */
    OSC_KT_BINARY = 1u << 9,
    /* a Reduce* op (ops/reduce/reduce_ops.h: osc_reduce_params says which reduction, its axes) */
    OSC_KT_REDUCE = 1u << 10,
    /* Slice with inputs (from version 10): input 0 sliced by starts, ends, axes, steps */
    OSC_KT_SLICE = 1u << 11,
    /* output 0 is input 0 converted to output 0's dtype, element by element (Cast) */
    OSC_KT_CAST = 1u << 12,
    /* a bool output true where input 0 is an infinity its params select (IsInf:
     * osc_mparams, whose op holds OSC_ISINF_DETECT_* bits from bit 2 on: ew_ops.h) */
    OSC_KT_ISINF = 1u << 13,
    /* output 0 is input 0 with its dims permuted (Transpose: osc_transpose_params,
     * ops/shape/shape_ops.h) */
    OSC_KT_TRANSPOSE = 1u << 14,
    /* RotaryEmbedding (osc_rope_params, ops/attention/rotary.h) */
    OSC_KT_ROTARY = 1u << 15,
    /* its parameters start with osc_product_params (ops/linalg/linalg.h), whose `relu` a rule
     * may set: a float or double output goes through Relu as it is stored (MatMul, Gemm, Conv,
     * ConvTranspose) */
    OSC_KT_EPILOGUE = 1u << 16,
    /* with OSC_KT_EPILOGUE: its osc_product_params' `bn` may be set too: the output's channels
     * (dim 1) go through BatchNormalization as they are stored, before the Relu (Conv, Gemm:
     * ops/linalg/prod_bn.h) */
    OSC_KT_CHANNEL_NORM = 1u << 17,
    /* e^x element by element, in x's own precision (Exp: math.c) */
    OSC_KT_EXP = 1u << 18,
    /* numpy's matmul of input 0 by input 1 (MatMul: osc_mm_params, ops/linalg/linalg.h) */
    OSC_KT_MATMUL = 1u << 19,
};

/* A set of dtypes: bit d for dtype number d (OSC_TS_* lists in core/dtype.h). */
typedef uint64_t osc_typeset;
/* type constraints a row lists (Attention-24 has 7 inputs); later inputs take the last */
#define OSC_TYPED_INPUTS 7
#define OSC_VARIADIC INT32_MAX  /* .inputs max, or .outputs, of a variadic op */

typedef struct osc_kernel {
    const char *domain;  /* "" for the default ONNX domain */
    const char *op;
    int64_t since, until; /* the op versions this row implements (until: the last opset) */
    struct {
        int32_t min, max;
    } inputs;
    int32_t outputs;     /* the most outputs a node may name (OSC_VARIADIC: any number, Split) */
    /* The fewest (trailing optional outputs, as Dropout's mask); 0: exactly .outputs. */
    int32_t outputs_min;
    uint32_t flags;      /* OSC_KF_* */
    /* Which operation of a kernel that several ops share this row computes (the kernel's own
     * enum: binary.c's OSC_BIN_ADD, ...): kernels pick their arithmetic from their row, never
     * from the node's op type. 0 for a kernel of one op. */
    int32_t variant;
    /* Bit i set: infer reads the DATA of input i (a shape, axes, a count...), not only its shape.
     * The executor calls infer only once that data is known (a constant, a folded value, or a
     * value computed earlier in the run). Ops whose output shape depends on their own data
     * (NonZero) set the bit of that input. Bit 31 stands for input 31 and every later one. */
    uint32_t infer_reads;
    /* The dtypes input i may have (the spec's type constraint for this version range); inputs
     * past the last non-zero entry take that entry. Checked by the engine before infer. */
    osc_typeset types[OSC_TYPED_INPUTS];
    osc_init_fn init;
    osc_infer_fn infer;
    osc_run_fn run;
    uint32_t traits; /* OSC_KT_*: what the rewrite rules may know of the op */
} osc_kernel;

/* The newest version of the default domain's operator set this library knows
 * (../shared/spec/onnx-Changelog.md); a model importing a newer one is refused unless
 * opts.newer_opsets is set. */
#define OSC_OPSET_NEWEST 28
/* The newest ONNX IR version this library knows (ONNX 1.23's node tests declare it). */
#define OSC_IR_NEWEST 13

/* The dtypes input i of a row accepts (0 for a row with no inputs). */
osc_typeset osc_kernel_types(const osc_kernel *r, int32_t i);

/* Zero-filled parameters for the node being initialised, from the model's pool; NULL (after
 * failing with OSC_ERR_NOMEM into k->err) when out of memory. */
void *osc_kparams(osc_kctx *k, size_t size);
/* Fails with the node named: "node 'n' (ScatterND-18): <message>". */
osc_status osc_kfail(osc_kctx *k, osc_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void osc_kwarn(osc_kctx *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Graph name of the node's input i ("" when omitted), for messages. */
const char *osc_kinput_name(const osc_kctx *k, int32_t i);
/* Run time: the block of `size` bytes the session keeps for kernels across its runs under
 * `key` (the address of a kernel's own static object), shared by every node that asks with that
 * key; zeroed when made, `drop` (may be NULL) called with it when the session ends. NULL when
 * there is none (no session store, every slot taken, out of memory): the kernel then runs
 * without it. */
void *osc_kshared(osc_kctx *k, const void *key, size_t size, void (*drop)(void *state));
/* Run time: the block of `size` bytes node k->node keeps in its session slot (k->slot->p, kept
 * from its infer to its run: Unique's sort, NonMaxSuppression's selection), made zeroed on first
 * use, `drop` called with it when the session ends. NULL without a slot or a run (folding, the
 * symbolic probes) or memory: the kernel then works without it. */
void *osc_kslot_state(osc_kctx *k, size_t size, void (*drop)(void *p));
/* OSC_ERR_CANCELLED, failing into k->err, when the caller cancelled the run; else OSC_OK. */
osc_status osc_kcancelled(osc_kctx *k);
/* Graph name of value id ("" when unknown), for messages. */
const char *osc_kvalue_name(const osc_kctx *k, int32_t id);

#endif
