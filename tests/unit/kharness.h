/* kharness.h: runs one kernel directly (check -> infer -> run) for kernel unit tests. */
#ifndef OSC_KHARNESS_H
#define OSC_KHARNESS_H

#include "ops/ops.h"
#include "runtime/dtype.h"
#include "runtime/reduce.h"

#define KH_MAX_ATTRS 8

typedef struct kh {
    osc_err err;
    osc_allocator alloc;
    osc_pool strings;
    osc_node node;
    osc_attr attrs[KH_MAX_ATTRS];
    int32_t inputs[4];
    int32_t outputs[1];
    const osc_kernel *kernel;
    osc_kctx k;
    osc_tensor out;       /* output after kh_run; data malloc'ed by the harness */
    bool owns_out;
    int n_warnings;
} kh;

/* A node of op_type resolved at `opset` (kernel NULL when no row matches). */
void kh_init(kh *h, const char *op_type, int64_t opset);
void kh_attr_int(kh *h, const char *name, int64_t v);
void kh_attr_str(kh *h, const char *name, const char *s);
/* Runs check; OSC_ERR_UNSUPPORTED when no kernel row matched. */
osc_status kh_check(kh *h);
/* check (if not done) + infer + allocate output (filled with byte 0xA5) + run.
 * in[i] may be NULL for an omitted optional input. */
osc_status kh_run(kh *h, int32_t n_in, const osc_tensor *const *in);
/* Like kh_run, but the output buffer is in[0]'s buffer (in-place), as the executor does. */
osc_status kh_run_inplace(kh *h, int32_t n_in, const osc_tensor *const *in);
void kh_free(kh *h);

/* A tensor view over caller memory. */
osc_tensor kh_tensor(int32_t dtype, int32_t rank, const int64_t *dims, const void *data);

#endif
