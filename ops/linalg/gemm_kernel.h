/* gemm_kernel.h: the matrix-product kernels MatMul and Gemm share (ops/linalg/gemm_kernel.c). Internal
 * to ops/ (matmul.c, gemm.c). */
#ifndef OSC_GEMM_KERNEL_H
#define OSC_GEMM_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/kernel.h"

/* Y = A * B for one M x K matrix A and one K x N matrix B, both read through strides so that a
 * transposed operand needs no copy: element (i, p) of A is a[i*ars + p*acs], element (p, j) of
 * B is b[p*brs + j*bcs], element (i, j) of Y is y[i*ldy + j]. Y must not overlap A or B
 * (osc_gemm_par allows Y over the rows of A and C: a node written in place).
 *
 * float and double (the blocked kernel): B is packed into panels of NR columns (zero-padded)
 * per block of KC rows and NC columns; A is read in place when its rows are contiguous (acs 1),
 * else packed into panels of MR rows (zero-padded) per block, as are the last rows; a
 * micro-kernel keeps an MR x NR tile of Y in vector registers. Summation order, the documented
 * semantics: for each element of Y, the products a(i,p)*b(p,j) of one K block
 * (p in [q*KC, (q+1)*KC)) are added in increasing p to a sum that starts at 0, and the block
 * sums are added to Y in increasing q (y = block 0, then y = y + block 1, ...). Each product is
 * added with one rounding, s = fma(a, b, s) as C's fma (the instruction where the CPU has it,
 * else the C library's exact fma). The order depends only on K, never on M, N, the tile an
 * element falls in, the CPU's vector width or the thread count, so every run on every CPU
 * gives the same bits. K == 0 writes zeros.
 *
 * Integer dtypes: exact sums modulo 2^bits (two's complement wrap, no undefined behaviour).
 *
 * `pack` holds osc_gemm_pack_bytes(dtype, n, k) bytes (float and double; integers need none). */
typedef struct osc_gemm_args {
    int64_t m, n, k;
    const void *a;
    int64_t ars, acs;
    const void *b;
    int64_t brs, bcs;
    void *y;
    int64_t ldy;
    /* float and double only (NULL for the others): Y = A * B + C, C[i][j] at c[i*c_rs + j]
     * (c_rs 0: one row for all), added after the last K block's sum, as a separate pass
     * y = y + c would add it. */
    const void *c;
    int64_t c_rs;
    /* float and double only: then Y = Relu(Y) as it is stored (x < 0 ? +0 : x, the Relu
     * kernel's rule: NaN and -0 stay) */
    bool relu;
} osc_gemm_args;

typedef void (*osc_gemm_fn)(const osc_gemm_args *g, void *pack);

/* The kernel for a compute dtype (float, double and the integer types); NULL for others. */
osc_gemm_fn osc_gemm_get(int32_t dtype);
/* One float/double variant, for tests that run each against the documented order: 0 the
 * default, 1 AVX2, 2 AVX-512 (x86-64); NULL when the build or the CPU has none. K must be > 0.
 * osc_gemm_get's kernel runs the fastest the CPU has. */
osc_gemm_fn osc_gemm_variant(int32_t dtype, int32_t v);
/* Bytes of packed-B scratch the kernel of `dtype` needs for products with n columns and depth
 * k (0 for integer dtypes and for empty products). */
size_t osc_gemm_pack_bytes(int32_t dtype, int64_t n, int64_t k);

/* float16/bfloat16 <-> float, element by element (other dtypes: nothing is done). Narrowing
 * rounds to nearest even. */
void osc_gemm_widen(int32_t dtype, const void *src, float *dst, int64_t count);
void osc_gemm_narrow(int32_t dtype, const float *src, void *dst, int64_t count);

/* The blocking, for tests that cross every boundary. The register tile is MR x NR, NR two
 * vectors: 6 x 32 floats / 6 x 16 doubles with AVX-512, 6 x 16 / 6 x 8 with AVX2, 4 x 8 / 4 x 4
 * otherwise. KC: depth of a K block; NC (columns of a packed B block) is
 * OSC_GEMM_NC_BYTES / (KC * element size): 256 floats, 128 doubles, a 256 KiB block that stays
 * in L2. */
#define OSC_GEMM_KC 256
#define OSC_GEMM_NC_BYTES (256 * 1024)

#endif

/* ---- What MatMul and Gemm share around the kernel ---- */
/* A run's scratch: the packed B block (pack bytes, rounded up to 64), then `floats` floats
 * (f: the float copies of half-precision operands); from the session's block (k->scratch) when
 * there is one, else k->alloc. */
typedef struct osc_gemm_mem {
    void *p;     /* the packed B block (NULL when both parts are empty) */
    float *f;    /* the floats */
    size_t size;
    size_t pack; /* bytes of one thread's block (osc_gemm_operands): its packed B, then */
    size_t rows_at; /* from here a block of Y's rows when `rows` (Y written over A or C) */
    bool rows;
    bool owned;  /* from k->alloc: osc_gemm_mem_put frees it */
} osc_gemm_mem;
/* Fails with OSC_ERR_LIMIT when floats < 0 (a count that overflowed) or the size overflows,
 * with OSC_ERR_NOMEM when the memory cannot be had; `what` names the floats in messages. */
osc_status osc_gemm_mem_get(osc_kctx *k, size_t pack, int64_t floats, const char *what,
                            osc_gemm_mem *m);
void osc_gemm_mem_put(osc_kctx *k, osc_gemm_mem *m);

/* The operands of one product, from osc_gemm_operands: the compute dtype; for float16/bfloat16
 * A and B widened to float in the scratch and a float Y there too (the caller narrows it into
 * the output); otherwise the tensors' own data and the output's. */
typedef struct osc_gemm_ops {
    int32_t ct;
    bool half;
    const void *a, *b;
    void *y;
} osc_gemm_ops;
/* Takes the scratch (*mem: the packed B block for n x kk, the float copies when half, and a
 * block of the output's rows per thread when the output's buffer overlaps A or C, a node
 * written in place: OSC_KF_INPLACE_SAME) and fills *o; writes only scratch. c: the tensor
 * added to the product (NULL: none). Fails as osc_gemm_mem_get does. */
osc_status osc_gemm_operands(osc_kctx *k, const osc_tensor *a, const osc_tensor *b,
                             const osc_tensor *c, osc_tensor *out, int64_t n, int64_t kk,
                             osc_gemm_mem *mem, osc_gemm_ops *o);

/* Runs fn on g, the rows of Y split among k->tpool's threads when the product is large, each
 * with its own block of mem's packed B (as osc_gemm_operands sized it); the bits are those of
 * one call. Y may be A's or C's buffer, row i of Y over row i of A (A not transposed) and of
 * C: each part then makes a few rows at a time in its block and copies them over. */
void osc_gemm_par(osc_kctx *k, osc_gemm_fn fn, int32_t dtype, const osc_gemm_args *g,
                  const osc_gemm_mem *mem);

/* The dtype the kernel computes in for a tensor dtype: float for float16/bfloat16, else the
 * dtype itself; -1 when there is no kernel for it. */
int32_t osc_gemm_compute_dtype(int32_t dtype);
