/* cases.h: the hand-written scatter-family cases the official node tests miss (tests/cases). */
#ifndef OSC_HCASES_H
#define OSC_HCASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_scatter.h"

/* One tensor, values written by hand. data holds the elements in row-major order as the dtype
 * stores them (float16/bfloat16 as uint16_t bits, bool as uint8_t, complex as re, im pairs,
 * packed 4-bit types one element per uint8_t); strings are a const char *const[] of
 * NUL-terminated byte strings. NULL when the tensor has no elements. */
typedef struct hc_tensor {
    const char *name;
    int32_t dtype;
    int32_t rank;
    int64_t dims[6];
    const void *data;
} hc_tensor;

/* One node-test folder: a single node, its inputs, and its expected output (worked out by
 * hand in the comment next to each case, never computed by code under test). */
typedef struct hc_case {
    const char *name; /* folder name */
    const char *op;
    int64_t opset;
    bool has_axis;
    int64_t axis;
    const char *reduction; /* NULL: attribute absent */
    const char *mode;      /* TensorScatter; NULL: absent */
    bool has_batch_dims;
    int64_t batch_dims;
    int n_in;
    hc_tensor in[3];
    hc_tensor out;
} hc_case;

extern const hc_case hc_cases[];
extern const size_t hc_count;

/* An osc_tensor view of t (strings converted into *strs, which the caller frees; packed
 * types packed into a malloc'ed buffer in *packed, which the caller frees). */
osc_tensor hc_view(const hc_tensor *t, osc_string **strs, uint8_t **packed);

#endif
