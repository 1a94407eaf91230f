/* oracle.h: a slow, naive reference of every scatter-family op version, written from the spec. */
#ifndef OSC_ORACLE_H
#define OSC_ORACLE_H

/* The oracle exists to be obviously right, not fast: one loop per op over flat positions,
 * coordinates unravelled by division, every element combined by one switch on the dtype.
 * It shares no code with ops/ or ops/scatter/reduce.c; it uses only the public header and the
 * dtype table plus the float16/bfloat16 conversions of core/dtype.h (tested exhaustively
 * on their own). Rules where the spec leaves room are the ones README.md "Semantics" and
 * docs/semantics.md state:
 *  - reductions combine one element at a time in row-major order of the updates, so duplicates
 *    are deterministic and with "none" the last write wins;
 *  - numpy max/min: keep the existing value a when a >= b or a is NaN, else b;
 *  - float16/bfloat16: convert both to float, combine, round back to nearest even, per update;
 *  - integers wrap modulo 2^bits; bool add/max = or, mul/min = and;
 *  - string add concatenates, max/min compare bytes (shorter prefix first), mul is undefined;
 *  - complex add/mul as numpy, max/min lexicographic on (re, im) with numpy's NaN rules.
 *
 * Every function validates its inputs the way the runtime must and returns the status the
 * runtime must report (OSC_OK, or OSC_ERR_SHAPE / _MODEL / _UNSUPPORTED / _INDEX) with a
 * short reason in res->msg; on failure res->t.data is NULL. */

#include <stdbool.h>
#include <stdint.h>

#include "onnx_scatter.h"

enum { ORA_NONE = 0, ORA_ADD, ORA_MUL, ORA_MAX, ORA_MIN, ORA_RED_COUNT };

/* Things the oracle saw while combining, so tests can prove they exercised them. */
enum {
    ORA_SAW_INT_WRAP = 1u << 0,   /* an integer add/mul wrapped around */
    ORA_SAW_HALF_ROUND = 1u << 1, /* a float16/bfloat16 result was not exact and was rounded */
    ORA_SAW_NAN = 1u << 2,        /* a NaN took part in a float/complex combine */
    ORA_SAW_INF = 1u << 3,        /* an infinity took part */
    ORA_SAW_NEG_ZERO = 1u << 4,   /* a -0.0 took part */
    ORA_SAW_SUBNORMAL = 1u << 5,  /* a subnormal took part */
    ORA_SAW_DUPLICATE = 1u << 6,  /* an output element was combined into twice or more */
    ORA_SAW_NEG_INDEX = 1u << 7   /* a negative index value was used */
};

typedef struct ora_block ora_block;

/* An oracle output: t.data is malloc'ed and owned, as are the bytes of new strings. */
typedef struct ora_result {
    osc_tensor t;
    ora_block *blocks; /* string bytes made by string add */
    unsigned saw;      /* ORA_SAW_* */
    char msg[256];     /* reason of a failure */
} ora_result;

/* reduction: ORA_NONE..ORA_MIN, or -1 when the node has no 'reduction' attribute (same as
 * none, but the only legal form before version 16). version: the kernel version the node
 * resolves to (Scatter: 9 or 11; ScatterElements 11, 13, 16, 18; ...). */
osc_status ora_scatter_elements(int64_t version, const osc_tensor *data, const osc_tensor *idx,
                                const osc_tensor *upd, int64_t axis, int reduction,
                                ora_result *res);
osc_status ora_scatter_nd(int64_t version, const osc_tensor *data, const osc_tensor *idx,
                          const osc_tensor *upd, int reduction, ora_result *res);
/* write_indices may be NULL (all zero). circular: mode "circular", else "linear". */
osc_status ora_tensor_scatter(const osc_tensor *past, const osc_tensor *update,
                              const osc_tensor *write_indices, int64_t axis, bool circular,
                              ora_result *res);
osc_status ora_gather_elements(int64_t version, const osc_tensor *data, const osc_tensor *idx,
                               int64_t axis, ora_result *res);
/* batch_dims must be 0 for version 11 (the attribute does not exist there). */
osc_status ora_gather_nd(int64_t version, const osc_tensor *data, const osc_tensor *idx,
                         int64_t batch_dims, ora_result *res);

void ora_result_free(ora_result *res);

/* The element-wise rule alone: *dst = f(*dst, *src) for one element of a standard dtype.
 * Returns false when (dtype, reduction) is undefined (string mul, non-standard dtype).
 * String bytes made by add belong to res. Exposed so tests can state single rules. */
bool ora_combine(int32_t dtype, int reduction, void *dst, const void *src, ora_result *res);

/* "none", "add", "mul", "max", "min". */
const char *ora_reduction_name(int reduction);

#endif
