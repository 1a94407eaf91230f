/* reduce.h: the scatter reductions (none, add, mul, max, min): which dtypes define them, and
 * the element rules (OSC_COMBINE_*) the typed loops expand. */
#ifndef OSC_REDUCE_H
#define OSC_REDUCE_H

#include <string.h>

#include "core/common.h"
#include "core/dtype.h"
#include "core/graph.h"
#include "core/kattr.h"

enum { OSC_RED_NONE = 0, OSC_RED_ADD, OSC_RED_MUL, OSC_RED_MAX, OSC_RED_MIN, OSC_RED_COUNT };

/* Whether scatter reduction `reduction` (OSC_RED_*) is defined for elements of `dtype`: for
 * every dtype of OSC_STD_TYPES and every reduction but string mul; false for any other dtype
 * or reduction number. The typed loops of ops/scatter/scatter_loops.h exist for exactly these pairs.
 * Semantics (numpy's, as the ONNX reference), the OSC_COMBINE_* rules below:
 *  none: assignment;  integers: add/mul wrap modulo 2^bits, max/min as usual;
 *  float/double: IEEE add/mul, max/min return the NaN when either side is NaN, and keep dst
 *  when equal (so max(-0.0, +0.0) keeps dst); float16/bfloat16: computed in float and rounded
 *  to nearest even after every update; bool: add = or, mul = and, max = or, min = and;
 *  string: add concatenates, max/min compare bytes lexicographically (shorter prefix first);
 *  complex: add/mul complex arithmetic, max/min compare (re, im) lexicographically. */
bool osc_reduction_defined(int32_t dtype, int32_t reduction);

/* "none", "add", "mul", "max", "min"; OSC_RED_* from a string (-1 when unknown). */
const char *osc_reduction_name(int32_t reduction);
int32_t osc_reduction_parse(const char *s);

/* The `reduction` attribute (reduce.c): absent -> OSC_RED_NONE. allowed_mask has bit
 * (1 << OSC_RED_x) for each reduction this version accepts; 0 means the attribute does not
 * exist in the version (present -> error). Unknown strings are errors. */
osc_status osc_attr_reduction(osc_kctx *k, const osc_node *node, unsigned allowed_mask,
                              int32_t *out);

/* ---- The scalar rules behind every reduction ----
 * OSC_COMBINE_<CLASS>_<RED>(T, a, b) is the new value of an element of storage type T that
 * holds a when update b arrives (CLASS as in OSC_STD_TYPES, RED one of ADD MUL MAX MIN). They
 * are the one definition of the semantics above: the typed scatter loops (ops/scatter/scatter_loops.c,
 * ops/scatter/scatter_bucket.c) expand them, so every path rounds, wraps and treats NaN the same way.
 * Arguments may be evaluated more than once. String add is not an expression (it allocates):
 * osc_strcat_append. */
#define OSC_IS_NAN(x) ((x) != (x))
/* numpy maximum/minimum: keep a when a >= b (or a is NaN), else b (so a NaN in b wins too) */
#define OSC_FMAX(a, b) (((a) >= (b) || OSC_IS_NAN(a)) ? (a) : (b))
#define OSC_FMIN(a, b) (((a) <= (b) || OSC_IS_NAN(a)) ? (a) : (b))

#define OSC_COMBINE_FLOAT_ADD(T, a, b) ((T)((a) + (b)))
#define OSC_COMBINE_FLOAT_MUL(T, a, b) ((T)((a) * (b)))
#define OSC_COMBINE_FLOAT_MAX(T, a, b) OSC_FMAX(a, b)
#define OSC_COMBINE_FLOAT_MIN(T, a, b) OSC_FMIN(a, b)

/* Integers wrap: compute modulo 2^64 in uint64_t, then truncate to T. */
#define OSC_COMBINE_SINT_ADD(T, a, b) ((T)((uint64_t)(a) + (uint64_t)(b)))
#define OSC_COMBINE_SINT_MUL(T, a, b) ((T)((uint64_t)(a) * (uint64_t)(b)))
#define OSC_COMBINE_SINT_MAX(T, a, b) ((a) >= (b) ? (a) : (b))
#define OSC_COMBINE_SINT_MIN(T, a, b) ((a) <= (b) ? (a) : (b))
#define OSC_COMBINE_UINT_ADD OSC_COMBINE_SINT_ADD
#define OSC_COMBINE_UINT_MUL OSC_COMBINE_SINT_MUL
#define OSC_COMBINE_UINT_MAX OSC_COMBINE_SINT_MAX
#define OSC_COMBINE_UINT_MIN OSC_COMBINE_SINT_MIN

#define OSC_COMBINE_BOOL_ADD(T, a, b) ((T)((a) | (b)))
#define OSC_COMBINE_BOOL_MUL(T, a, b) ((T)((a) & (b)))
#define OSC_COMBINE_BOOL_MAX OSC_COMBINE_BOOL_ADD
#define OSC_COMBINE_BOOL_MIN OSC_COMBINE_BOOL_MUL

/* float16/bfloat16: in float, rounded back to nearest even after every single update */
#define OSC_HALF_OP(TO, FROM, OP, a, b) TO(OP(float, FROM(a), FROM(b)))
#define OSC_COMBINE_F16_ADD(T, a, b) \
    OSC_HALF_OP(osc_f32_to_f16, osc_f16_to_f32, OSC_COMBINE_FLOAT_ADD, a, b)
#define OSC_COMBINE_F16_MUL(T, a, b) \
    OSC_HALF_OP(osc_f32_to_f16, osc_f16_to_f32, OSC_COMBINE_FLOAT_MUL, a, b)
#define OSC_COMBINE_F16_MAX(T, a, b) \
    OSC_HALF_OP(osc_f32_to_f16, osc_f16_to_f32, OSC_COMBINE_FLOAT_MAX, a, b)
#define OSC_COMBINE_F16_MIN(T, a, b) \
    OSC_HALF_OP(osc_f32_to_f16, osc_f16_to_f32, OSC_COMBINE_FLOAT_MIN, a, b)
#define OSC_COMBINE_BF16_ADD(T, a, b) \
    OSC_HALF_OP(osc_f32_to_bf16, osc_bf16_to_f32, OSC_COMBINE_FLOAT_ADD, a, b)
#define OSC_COMBINE_BF16_MUL(T, a, b) \
    OSC_HALF_OP(osc_f32_to_bf16, osc_bf16_to_f32, OSC_COMBINE_FLOAT_MUL, a, b)
#define OSC_COMBINE_BF16_MAX(T, a, b) \
    OSC_HALF_OP(osc_f32_to_bf16, osc_bf16_to_f32, OSC_COMBINE_FLOAT_MAX, a, b)
#define OSC_COMBINE_BF16_MIN(T, a, b) \
    OSC_HALF_OP(osc_f32_to_bf16, osc_bf16_to_f32, OSC_COMBINE_FLOAT_MIN, a, b)

#define OSC_CPLX_NAN(z) (OSC_IS_NAN((z).re) || OSC_IS_NAN((z).im))
/* numpy's CGE/CLE: a NaN imaginary part on either side makes the comparison false, so with
 * the OSC_CPLX_NAN(a) test below a NaN on either side wins, as for real floats. */
#define OSC_CPLX_IM_OK(a, b) (!OSC_IS_NAN((a).im) && !OSC_IS_NAN((b).im))
#define OSC_CPLX_GE(a, b) \
    (((a).re > (b).re && OSC_CPLX_IM_OK(a, b)) || ((a).re == (b).re && (a).im >= (b).im))
#define OSC_CPLX_LE(a, b) \
    (((a).re < (b).re && OSC_CPLX_IM_OK(a, b)) || ((a).re == (b).re && (a).im <= (b).im))
#define OSC_COMBINE_COMPLEX_ADD(T, a, b) ((T){(a).re + (b).re, (a).im + (b).im})
#define OSC_COMBINE_COMPLEX_MUL(T, a, b) \
    ((T){(a).re * (b).re - (a).im * (b).im, (a).re * (b).im + (a).im * (b).re})
#define OSC_COMBINE_COMPLEX_MAX(T, a, b) ((OSC_CPLX_GE(a, b) || OSC_CPLX_NAN(a)) ? (a) : (b))
#define OSC_COMBINE_COMPLEX_MIN(T, a, b) ((OSC_CPLX_LE(a, b) || OSC_CPLX_NAN(a)) ? (a) : (b))

/* Byte-wise order of two strings, a proper prefix first: <0, 0, >0. */
static inline int osc_string_cmp(osc_string a, osc_string b) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c) return c;
    return (a.len > b.len) - (a.len < b.len);
}
#define OSC_COMBINE_STRING_MAX(T, a, b) (osc_string_cmp(a, b) >= 0 ? (a) : (b))
#define OSC_COMBINE_STRING_MIN(T, a, b) (osc_string_cmp(a, b) <= 0 ? (a) : (b))

/* String add's concatenations within one kernel run, in linear time and memory: a result
 * grows in place while it is the newest view of its bytes, and otherwise moves to a buffer
 * twice its size, so k appends to one element cost O(its final length), not O(k * length).
 * Bytes come from the run's string pool; the table of buffers made here lives there too. */
typedef struct osc_strcat_slot osc_strcat_slot;
typedef struct osc_strcat {
    osc_pool *pool;
    osc_strcat_slot *slots; /* open addressing by buffer address */
    size_t cap, used;
} osc_strcat;
void osc_strcat_init(osc_strcat *c, osc_pool *pool);
/* *d becomes *d followed by s (d unchanged when s is empty). False, with *d unchanged, only
 * when an allocation fails. The bytes d pointed to are never written. */
bool osc_strcat_append(osc_strcat *c, osc_string *d, osc_string s);

#endif
