/* kernel.h: the kernel interface and the dispatch table lookup.
 * A kernel version is one table row {check, infer, run} in ops/registry.c plus its functions. */
#ifndef OSC_KERNEL_H
#define OSC_KERNEL_H

#include "../runtime/graph.h"
#include "../runtime/tpool.h"

/* What a kernel may use while it checks, infers or runs one node. */
typedef struct osc_kctx {
    osc_err *err;
    const osc_graph *graph;  /* for value names in messages */
    const osc_node *node;
    int64_t since_version;  /* version of the row that matched */
    osc_allocator *alloc;
    osc_pool *strings;      /* per-run pool for bytes of new strings (string add) */
    bool strict;
    /* Run time: the session's threads (osc_tpool_run; NULL: the calling thread only) and its
     * scratch block, kept between runs (NULL: kernels take paths that need none). */
    osc_tpool *tpool;
    osc_scratch *scratch;
    /* Warnings at load: kernels call osc_kwarn; the model stores them. NULL at run time. */
    void (*warn)(void *ud, const char *msg);
    void *warn_ud;
} osc_kctx;

/* Load time, once per node: parse and validate attributes into node->params. */
typedef osc_status (*osc_check_fn)(osc_kctx *k, osc_node *node);
/* Given inputs with dtype and shape set (data may be NULL), set each output's dtype, rank and
 * dims. Must reject every dtype/shape combination run() cannot handle. in[i] is NULL for an
 * omitted optional input. */
typedef osc_status (*osc_infer_fn)(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                   osc_tensor *out, int32_t n_out);
/* Computes outputs. Outputs have dtype/shape/nbytes set and data pointing at their buffer.
 * Contract: validate every index before the first write to any output, so a failed run leaves
 * outputs untouched. If the row has inplace0 set, out[0].data may equal in[0]->data: then
 * the copy of input 0 must be skipped. */
typedef osc_status (*osc_run_fn)(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 osc_tensor *out, int32_t n_out);

typedef struct osc_kernel {
    const char *domain;   /* "" for the default ONNX domain */
    const char *op_type;
    int64_t since_version;
    int32_t min_inputs, max_inputs, n_outputs;
    bool inplace0;        /* output 0 may share input 0's buffer */
    bool deprecated;      /* warn at load (error in strict mode) */
    /* Bit i set: infer reads the DATA of input i (a shape, axes, a count...), not only its shape.
     * The executor calls infer only once that data is known (a constant, a folded value, or a
     * value computed earlier in the run). 0 for ops whose output shapes follow from input shapes;
     * ops whose output shape depends on their own data (NonZero) set the bit of that input. */
    uint32_t infer_reads;
    osc_check_fn check;
    osc_infer_fn infer;
    osc_run_fn run;
} osc_kernel;

/* The row with the largest since_version <= opset for (domain, op_type); NULL if none. */
const osc_kernel *osc_kernel_find(const char *domain, const char *op_type, int64_t opset);
/* True when some row exists for (domain, op_type) whatever the version. */
bool osc_kernel_known(const char *domain, const char *op_type);

/* Fails with the node named: "node 'n' (ScatterND-18): <message>". */
osc_status osc_kfail(osc_kctx *k, osc_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void osc_kwarn(osc_kctx *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Graph name of the node's input i ("" when omitted), for messages. */
const char *osc_kinput_name(const osc_kctx *k, int32_t i);

#endif
