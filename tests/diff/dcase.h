/* dcase.h: random scatter-family test cases, run through the public API and through the oracle. */
#ifndef OSC_DCASE_H
#define OSC_DCASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_scatter.h"
#include "oracle/oracle.h"

/* A small deterministic generator (splitmix64): one per case, seeded from (run seed, case
 * number), so any single case can be replayed without running the ones before it. */
typedef struct drng {
    uint64_t s;
} drng;
void dr_seed(drng *r, uint64_t run_seed, uint64_t case_no);
uint64_t dr_next(drng *r);
int64_t dr_range(drng *r, int64_t lo, int64_t hi); /* uniform in [lo, hi] */
bool dr_chance(drng *r, int percent);

typedef enum dop { D_SCATTER, D_SE, D_SND, D_TS, D_GE, D_GND, D_OP_COUNT } dop;

/* What a case runs: the kernel row (op, version), the element and index dtypes, the reduction
 * (ORA_*; TensorScatter: 0 linear, 1 circular). The full list is every (op version x dtype x
 * reduction the version allows x index dtype the op allows) minus string mul. */
typedef struct dcombo {
    dop op;
    int64_t version;
    int32_t dtype;
    int32_t idx_dtype;
    int red;
} dcombo;

/* The combos, enumerated once; *n receives their count. */
const dcombo *dc_combos(size_t *n);
const char *dc_op_name(dop op);

typedef struct dc_mem dc_mem;

typedef struct dcase {
    dcombo k;
    int64_t opset;          /* the model's opset: any that resolves to k.version */
    int red;                /* ORA_* or -1: no 'reduction' attribute written */
    bool has_axis;
    int64_t axis;           /* as written: may be negative */
    bool has_batch_dims;
    int64_t batch_dims;
    int mode;               /* TensorScatter: -1 attribute absent (linear), 0 linear, 1 circular */
    int n_in;
    osc_tensor in[3];       /* data/indices/updates, past/update/write_indices, data/indices */
    bool symbolic;          /* inputs declared with unknown dims: shapes inferred at run */
    bool chain;             /* y = op(op(x, i, u), i, u): the second node runs in place */
    bool dup_none;          /* reduction none with duplicate indices: last write must win */
    bool invalid;           /* one index was put out of range on purpose */
    dc_mem *mem;
} dcase;

/* Fills c with a random valid (or, rarely, index-out-of-range) case of combo k. */
void dc_generate(dcase *c, const dcombo *k, drng *r);
/* Like dc_generate, but for reduction none with duplicate-free indices only and never
 * invalid: the round-trip property needs a unique target per update. */
void dc_generate_unique(dcase *c, const dcombo *k, drng *r);
void dc_free(dcase *c);

/* The oracle's answer for the case (applied twice when chained); res2 holds the first pass of
 * a chain (free both). */
osc_status dc_oracle(const dcase *c, ora_result *res, ora_result *res2);

/* The runtime's answer through the public API: the model is built in memory with the writer,
 * loaded, and run in a fresh session. */
typedef struct dc_exec {
    osc_model *m;
    osc_session *s;
    osc_status st;       /* first failure (load or run), or OSC_OK */
    bool failed_at_load;
    char msg[640];
    osc_tensor out;      /* output 0 after a successful run (owned by the session) */
} dc_exec;
/* opts.threads of every run: $OSC_DIFF_THREADS, default 0. */
int32_t dc_threads(void);
void dc_exec_run(const dcase *c, dc_exec *x);
void dc_exec_free(dc_exec *x);

/* A byte snapshot of the case's inputs (string bytes included) to prove they are unchanged. */
typedef struct dc_snap {
    unsigned char *bytes;
    size_t len;
} dc_snap;
void dc_snap_take(const dcase *c, dc_snap *s);
bool dc_snap_same(const dcase *c, const dc_snap *s);
void dc_snap_free(dc_snap *s);

/* Bit-exact comparison (dtype, shape, every byte; strings by length and bytes). On a
 * difference writes where and both values to why and returns false.
 * arith_nan: a NaN made by add/mul may carry either operand's payload and sign (IEEE 754 does
 * not say which, and a compiler may swap the operands of a commutative operation), so with it
 * set a float component that is NaN on both sides counts as equal. Copies and max/min select
 * an operand and are compared bit for bit. */
bool dc_equal(const osc_tensor *want, const osc_tensor *got, bool arith_nan, char *why,
              size_t size);
/* One paragraph: op, version, opset, dtypes, attributes, shapes and (small) input values. */
void dc_describe(const dcase *c, char *buf, size_t size);

#endif
