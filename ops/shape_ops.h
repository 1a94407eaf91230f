/* shape_ops.h: kernels of the shape and data-movement rows (ops/rows_shape.h) and their helpers. */
#ifndef OSC_SHAPE_OPS_H
#define OSC_SHAPE_OPS_H

#include "ops.h"

OSC_KERNEL_DECLARE(osc_constant)   /* Constant (ops/constant.c) */
OSC_KERNEL_DECLARE(osc_cofshape)   /* ConstantOfShape (ops/constant.c) */
OSC_KERNEL_DECLARE(osc_shape)      /* Shape (ops/shape.c) */
OSC_KERNEL_DECLARE(osc_size)       /* Size (ops/shape.c) */
OSC_KERNEL_DECLARE(osc_reshape)    /* Reshape (ops/reshape.c) */
OSC_KERNEL_DECLARE(osc_flatten)    /* Flatten (ops/reshape.c) */
OSC_KERNEL_DECLARE(osc_squeeze)    /* Squeeze (ops/reshape.c) */
OSC_KERNEL_DECLARE(osc_unsqueeze)  /* Unsqueeze (ops/reshape.c) */
OSC_KERNEL_DECLARE(osc_expand)     /* Expand (ops/expand.c) */
OSC_KERNEL_DECLARE(osc_tile)       /* Tile (ops/expand.c) */
OSC_KERNEL_DECLARE(osc_concat)     /* Concat (ops/concat.c) */
OSC_KERNEL_DECLARE(osc_gather)     /* Gather (ops/gather.c) */
OSC_KERNEL_DECLARE(osc_slice)      /* Slice (ops/slice.c) */
OSC_KERNEL_DECLARE(osc_transpose)  /* Transpose (ops/transpose.c) */
OSC_KERNEL_DECLARE(osc_range)      /* Range (ops/range.c) */
OSC_KERNEL_DECLARE(osc_nonzero)    /* NonZero (ops/nonzero.c) */
OSC_KERNEL_DECLARE(osc_cumsum)     /* CumSum (ops/cumsum.c) */
OSC_KERNEL_DECLARE(osc_rsum)       /* ReduceSum (ops/reduce_sum.c) */
OSC_KERNEL_DECLARE(osc_argmax)     /* ArgMax (ops/argmax.c) */
OSC_KERNEL_DECLARE(osc_topk)       /* TopK, two outputs (ops/topk.c) */
OSC_KERNEL_DECLARE(osc_onehot)     /* OneHot (ops/onehot.c) */

/* ---- Helpers of this family (ops/shape_util.c) ---- */

/* Dtype sets, bit d for dtype number d, as the spec's type constraints list them. */
#define OSC_SH_BIT(d) (1u << (d))
#define OSC_SH_FLOAT3 (OSC_SH_BIT(OSC_FLOAT16) | OSC_SH_BIT(OSC_FLOAT) | OSC_SH_BIT(OSC_DOUBLE))
#define OSC_SH_INT8X                                                                      \
    (OSC_SH_BIT(OSC_UINT8) | OSC_SH_BIT(OSC_UINT16) | OSC_SH_BIT(OSC_UINT32) |             \
     OSC_SH_BIT(OSC_UINT64) | OSC_SH_BIT(OSC_INT8) | OSC_SH_BIT(OSC_INT16) |               \
     OSC_SH_BIT(OSC_INT32) | OSC_SH_BIT(OSC_INT64))
/* the eight integers and float16/float/double (ArgMax, TopK-11, OneHot indices and depth) */
#define OSC_SH_NUMERIC (OSC_SH_INT8X | OSC_SH_FLOAT3)
#define OSC_SH_FLOAT8                                                                     \
    (OSC_SH_BIT(OSC_FLOAT8E4M3FN) | OSC_SH_BIT(OSC_FLOAT8E4M3FNUZ) |                      \
     OSC_SH_BIT(OSC_FLOAT8E5M2) | OSC_SH_BIT(OSC_FLOAT8E5M2FNUZ))
/* The "all tensor types" list of an op version: 15 classic types, bfloat16 from 13, the float8
 * kinds from 19, int4/uint4 from 21, float4e2m1 from 23, float8e8m0 from 24, int2/uint2 from
 * 25. Valid for every op whose list follows that history (each row sits at a changelog
 * version, so an op without a 19 row gets the 13 list until its next row). */
uint32_t osc_sh_all_types(int64_t since_version);
/* ConstantOfShape's value types: numbers and bool at 9, bfloat16 and float8 from 20, then as
 * osc_sh_all_types from 21 (never string or complex). */
uint32_t osc_sh_cofshape_types(int64_t since_version);

/* Fails (OSC_ERR_SHAPE) unless t's dtype is in `allowed`; the message lists the allowed types. */
osc_status osc_sh_check_type(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                             uint32_t allowed);
/* Input i when present (i < n_in and not omitted), else NULL. */
static inline const osc_tensor *osc_sh_in(const osc_tensor *const *in, int32_t n_in, int32_t i) {
    return i < n_in ? in[i] : NULL;
}
/* Fails (OSC_ERR_MODEL) when input i is absent; names it. */
osc_status osc_sh_need(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, int32_t i,
                       const char *what);
/* Fails (OSC_ERR_SHAPE) unless t's shape has a valid element count; *count receives it. */
osc_status osc_sh_count(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                        int64_t *count);
/* Fails unless t's data is present and holds its elements: OSC_ERR_STATE when infer runs
 * before the data of an infer_reads input is known, OSC_ERR_ARG for a short buffer. */
osc_status osc_sh_need_data(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t);
/* Reads an int64 (or int32 when allow_i32) tensor of rank 1 (rank 0 too when allow_scalar)
 * with at most max_n values into v[], *n the count. Checks dtype, rank and data. */
osc_status osc_sh_read_ints(osc_kctx *k, int32_t input, const char *what, const osc_tensor *t,
                            bool allow_i32, bool allow_scalar, int32_t max_n, int64_t *v,
                            int32_t *n);
/* Normalises n axes in place to [0, rank-1] (from [-rank, rank-1]); fails naming `what`, the
 * position and value on a value out of range or a repeated axis. */
osc_status osc_sh_norm_axes(osc_kctx *k, const char *what, int64_t *axes, int32_t n,
                            int32_t rank);
/* The INT attribute `name` (def when absent). check validated its type, so infer and run read
 * it back with this (osc_params has no room for this family's attributes). */
int64_t osc_sh_attr_i(const osc_node *node, const char *name, int64_t def);
/* check-time: the INT attribute `name` must be 0 or 1 when present. */
osc_status osc_sh_attr_bool(osc_kctx *k, const osc_node *node, const char *name);
/* check-time: the INTS attribute `name` has the right type (when present). */
osc_status osc_sh_attr_ints(osc_kctx *k, const osc_node *node, const char *name, bool required);

/* Run-time: fails unless out has exactly the dtype and shape `want` (what this run's inputs
 * give) and a buffer that holds it, so a kernel never writes past what the executor sized. */
osc_status osc_sh_check_out(osc_kctx *k, int32_t i, const osc_tensor *out,
                            const osc_tensor *want);
/* Run-time: every present input holds its elements (osc_check_buffer for each). */
osc_status osc_sh_check_inputs(osc_kctx *k, const osc_tensor *const *in, int32_t n_in);

/* Writes the row-major tensor of `rank` (<= 2 * OSC_MAX_RANK) dims `dims` to dst from element
 * 0: element (i_0..i_{r-1}) is src element off + sum_d i_d * stride[d] (element strides, zero or
 * negative allowed). The caller guarantees every addressed source element exists and that
 * prod(dims) fits int64. Packed sub-byte types move element by element; strings as osc_string. */
void osc_sh_copy_strided(void *dst, const void *src, unsigned bits, int32_t rank,
                         const int64_t *dims, const int64_t *stride, int64_t off);
/* Bits per element of a dtype (osc_dtype_get(dtype)->bits). */
unsigned osc_sh_bits(int32_t dtype);

#endif
