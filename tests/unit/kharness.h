/* kharness.h: runs one kernel directly (check -> infer -> run) for kernel unit tests. */
#ifndef OSC_KHARNESS_H
#define OSC_KHARNESS_H

#include "ops/scatter/scatter.h"
#include "core/dtype.h"
#include "ops/scatter/reduce.h"

#define KH_MAX_ATTRS 8
#define KH_MAX_INPUTS 8  /* inputs a harness node can have */
#define KH_MAX_OUTPUTS 4 /* outputs kh_run_multi and kh_infer handle */

typedef struct kh {
    osc_err err;
    osc_allocator alloc;
    osc_pool strings;
    osc_node node;
    osc_attr attrs[KH_MAX_ATTRS];
    int32_t inputs[KH_MAX_INPUTS];
    int32_t outputs[KH_MAX_OUTPUTS];
    const osc_kernel *kernel;
    osc_kctx k;
    osc_tensor out;       /* output after kh_run; data malloc'ed by the harness */
    bool owns_out;
    int n_warnings;
    /* kh_run_multi / kh_infer: every output (data malloc'ed by kh_run_multi); after
     * kh_run_multi, `out` is a view of outs[0] so single-output checks work unchanged */
    osc_tensor outs[KH_MAX_OUTPUTS];
    int32_t n_outs;
    bool owns_outs;
} kh;

/* A node of op_type resolved at `opset` (kernel NULL when no row matches). */
void kh_init(kh *h, const char *op_type, int64_t opset);
void kh_attr_int(kh *h, const char *name, int64_t v);
void kh_attr_str(kh *h, const char *name, const char *s);
/* List, float and tensor attributes; the values are borrowed until kh_free. */
void kh_attr_ints(kh *h, const char *name, const int64_t *v, size_t n);
void kh_attr_float(kh *h, const char *name, float v);
void kh_attr_floats(kh *h, const char *name, const float *v, size_t n);
void kh_attr_tensor(kh *h, const char *name, osc_tensor *t);
/* Runs the row's init (parses the attributes into the node's params); OSC_ERR_UNSUPPORTED when
 * no kernel row matched. */
osc_status kh_check(kh *h);
/* check (if not done) + infer + allocate output (filled with byte 0xA5) + run.
 * in[i] may be NULL for an omitted optional input. */
osc_status kh_run(kh *h, int32_t n_in, const osc_tensor *const *in);
/* kh_run with one, two or three inputs given directly. */
osc_status kh_run1(kh *h, const osc_tensor *a);
osc_status kh_run2(kh *h, const osc_tensor *a, const osc_tensor *b);
osc_status kh_run3(kh *h, const osc_tensor *a, const osc_tensor *b, const osc_tensor *c);
/* Like kh_run, but the output buffer is in[0]'s buffer (in-place), as the executor does. */
osc_status kh_run_inplace(kh *h, int32_t n_in, const osc_tensor *const *in);
/* check (if not done) + infer only, into outs[0..n_out-1]; no buffers, no run. Inputs whose
 * data is NULL stand for values not known yet (infer must only read infer_reads inputs). */
osc_status kh_infer(kh *h, int32_t n_in, const osc_tensor *const *in, int32_t n_out);
/* Like kh_run for a kernel with n_out outputs: each output in outs[] gets its own buffer filled
 * with byte 0xA5; the kernel receives outs as its output array. */
osc_status kh_run_multi(kh *h, int32_t n_in, const osc_tensor *const *in, int32_t n_out);
void kh_free(kh *h);

/* Fails the test unless every byte of t's buffer still holds the harness's fill 0xA5 (nothing
 * was written), or unless the harness's last message contains needle. */
void kh_assert_untouched(const osc_tensor *t);
void kh_assert_msg_has(const kh *h, const char *needle);
/* Fails the test unless st is OSC_OK (the message is the harness's last). */
void kh_expect_ok(const kh *h, osc_status st);
/* Fails the test unless got is want and, when part is given, the message holds part. */
void kh_expect_fail(const kh *h, osc_status got, osc_status want, const char *part);

/* A tensor view over caller memory. */
osc_tensor kh_tensor(int32_t dtype, int32_t rank, const int64_t *dims, const void *data);

/* kh_init, then fails the test unless op_type at opset resolved to the row of version since. */
void kh_init_since(kh *h, const char *op_type, int64_t opset, int64_t since);
/* Fails the test unless the node's init (kh_check) fails with status and a message naming the
 * node ('n0') and holding needle; frees h. */
void kh_init_fails(kh *h, osc_status status, const char *needle);

/* A row lookup: op_type at opset resolves to the row of version since (0: to no row). */
typedef struct kh_row {
    const char *op;
    int64_t opset, since;
} kh_row;
/* Checks every lookup of rows[0..n-1]. */
void kh_assert_rows(const kh_row *rows, size_t n);

#endif
