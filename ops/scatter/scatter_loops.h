/* scatter_loops.h: typed inner loops of the scatter family, one per dtype x reduction x index type. */
#ifndef OSC_SCATTER_LOOPS_H
#define OSC_SCATTER_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common.h"
#include "core/tpool.h"
#include "reduce.h"
#include "onnx_scatter.h"

/* One call per block, no call or index-type switch per element: each function is generated
 * from OSC_STD_TYPES and the OSC_COMBINE_* rules of ops/scatter/reduce.h, so every path (direct,
 * bucketed, threaded) combines bit for bit the same way. Implemented in scatter_loops.c (the
 * direct loops), scatter_walk.c (the block walk) and scatter_bucket.c (the bucketed drivers).
 * With reduction none only the element size matters, so those loops exist per size (1, 2, 4,
 * 8, 16 bytes) and move bytes. The direct loops check no index: the kernel has checked every
 * index against its range before calling, as the kernel contract requires (the bucketed
 * paths at the end check as they partition, before they write). */

/* Prefetch distance (elements or tuples ahead) for random accesses, and the size of the
 * data-shaped tensor from which it pays: below it the target lines are mostly in cache and the
 * extra index load per element only costs. Measured with bench/ on the direct paths: ScatterND
 * rows in place about 8% faster, ScatterElements on axis 0 about 3%. */
#define OSC_PREFETCH_DIST 24
#define OSC_PREFETCH_MIN_BYTES ((size_t)8 << 20)

/* Copy mode of ScatterElements along an innermost axis copies data in groups of rows of about
 * OSC_FUSE_ROW_BYTES just before scattering into them (rows up to OSC_FUSE_ROW_MAX_BYTES
 * long; longer ones gain nothing from it). */
#ifndef OSC_FUSE_ROW_BYTES /* (tests build with tiny sizes to run every path) */
#define OSC_FUSE_ROW_BYTES ((int64_t)64 << 10)
#endif
#define OSC_FUSE_ROW_MAX_BYTES ((size_t)1 << 20)
/* Rows per group for rows row_bytes (> 0) apart. */
static inline int64_t osc_fuse_rows(int64_t row_bytes) {
    return row_bytes >= OSC_FUSE_ROW_BYTES ? 1 : OSC_FUSE_ROW_BYTES / row_bytes;
}

/* One block of ScatterElements/GatherElements work: `rows` rows of `n` elements. The
 * index-shaped tensors (indices; updates of a scatter, output of a gather) are contiguous: row
 * r is elements [r*n, r*n + n) of each. The data-shaped tensor (output of a scatter, data of a
 * gather) has row r at element r*row_step. Element j of row r, its index v normalised into
 * [0, s), addresses element
 *     r*row_step + v*astride + j*jstride
 * (j runs along the innermost dim; jstride is 0 when that dim is the axis, "axis last")
 * of the data-shaped tensor. Elements are applied in row-major order, so duplicate indices
 * combine in the order of the updates. pf > 0: prefetch the target pf elements ahead. */
typedef struct osc_elem_block {
    void *dst;          /* scatter: the output (data-shaped); gather: the output (flat) */
    const void *src;    /* scatter: updates (flat); gather: data (data-shaped) */
    const void *idx;    /* int32_t or int64_t, as the loop was chosen for */
    int64_t rows, n, row_step, s, astride, jstride, pf;
    osc_strcat *strings; /* string add: the run's concatenations */
} osc_elem_block;

/* -1 when the block is done; else the element number r*n + j at which string add ran out of
 * memory (elements before it are applied, that one and the rest are not). */
typedef int64_t (*osc_elem_fn)(const osc_elem_block *b);

/* The loop for (dtype, reduction, index dtype int32/int64, layout); NULL when the dtype is not
 * one of OSC_STD_TYPES, the index dtype not int32/int64, or the reduction not defined for the
 * dtype (string mul). axis_last picks the moves compiled for that layout (reduction none,
 * gathers); the reduction loops serve both. */
osc_elem_fn osc_se_loop(int32_t dtype, int32_t reduction, int32_t index_dtype, bool axis_last);
osc_elem_fn osc_ge_loop(int32_t dtype, int32_t index_dtype, bool axis_last);

/* ScatterElements/GatherElements over a whole index tensor, cut into osc_elem_blocks in
 * row-major order. Index dims of size 1 (other than the axis) are dropped and neighbouring
 * dims that are contiguous in data are merged, so the innermost loop runs as long as it can
 * (data [4096,4096] with indices [512,4096] on axis 0 is one block of 512 rows of 4096). */
typedef struct osc_elem_walk {
    osc_elem_block block;  /* rows, n, row_step, s, astride, jstride of every block */
    bool axis_last;        /* the loop layout block needs */
    int64_t blocks;        /* blocks of block.rows * block.n elements each */
    int32_t nd;            /* dims walked between blocks (outermost first) */
    int64_t size[OSC_MAX_RANK], step[OSC_MAX_RANK], c[OSC_MAX_RANK];
    int64_t base;          /* data-shaped element offset of the current block */
} osc_elem_walk;

/* Needs idx->rank == data->rank, idx->dims[d] <= data->dims[d] off the axis, no zero dim in
 * either and a valid element count of data (what the kernels' validate() and index checks
 * establish). False when data's strides overflow int64. The first block is at offset 0. */
bool osc_elem_walk_init(osc_elem_walk *w, const osc_tensor *data, const osc_tensor *idx,
                        int32_t axis);
/* Advances to the next block and returns its data-shaped element offset. */
int64_t osc_elem_walk_next(osc_elem_walk *w);
/* Moves to block blk (0 <= blk < blocks) and returns its data-shaped element offset. */
int64_t osc_elem_walk_seek(osc_elem_walk *w, int64_t blk);

/* ScatterND/GatherND work: `tuples` tuples of k int64 components at idx (component j in
 * [-dims[j], dims[j]-1], normalised by adding dims[j]); tuple t addresses the slice of `slice`
 * elements at element sum_j v_j*stride[j] of the data-shaped tensor, and elements
 * [t*slice, t*slice + slice) of the flat one. Tuples are applied in order. hi > 0: only the
 * tuples whose data-shaped element lies in [lo, hi) (one thread's share of a scatter's
 * output, split at slice boundaries); hi == 0: all. */
typedef struct osc_nd_block {
    void *dst;          /* ScatterND: the output (data-shaped); GatherND: the output (flat) */
    const void *src;    /* ScatterND: updates (flat); GatherND: data of one batch */
    const int64_t *idx;
    const int64_t *dims, *stride;
    int64_t tuples, slice, pf;
    int64_t lo, hi;
    int32_t k;
    osc_strcat *strings;
} osc_nd_block;

/* -1 when done; else the tuple at which string add ran out of memory (earlier tuples are
 * applied, elements of that one may be partly applied). */
typedef int64_t (*osc_nd_fn)(const osc_nd_block *b);

/* NULL as for osc_se_loop. */
osc_nd_fn osc_snd_loop(int32_t dtype, int32_t reduction);
osc_nd_fn osc_gnd_loop(int32_t dtype);

/* ---- Bucketed scatters (large outputs) ----
 * The elements are partitioned by output region first and applied region by region, each
 * region copied from data just before (see scatter_bucket.c). The partition checks every
 * index, so the caller runs no index check of its own first. Nothing is written to `out`
 * unless the result is OSC_BK_DONE. */
typedef enum osc_bk_result {
    OSC_BK_DONE,        /* out holds the result */
    OSC_BK_SKIPPED,     /* not for this dtype/shape, or no memory: use the direct loops */
    OSC_BK_BAD_INDEX    /* some index is out of range: the caller's index check names it */
} osc_bk_result;

/* From this size of output on the bucketed path pays (below, the direct loops run from the
 * caches), when there is at least one update per OSC_BUCKET_MAX_GAP bytes of output (sparser
 * updates miss the cache a few times at most, and the direct path copies with one memcpy);
 * measured with bench/. */
#ifndef OSC_BUCKET_MIN_BYTES /* (tests build with 1 to run every path) */
#define OSC_BUCKET_MIN_BYTES ((size_t)16 << 20)
#endif
#define OSC_BUCKET_MAX_GAP 512
/* Whether n updates into an output of `bytes` bytes take the bucketed path. */
static inline bool osc_bucket_pays(size_t bytes, int64_t n) {
    return bytes >= OSC_BUCKET_MIN_BYTES && n > 0 && (size_t)n >= bytes / OSC_BUCKET_MAX_GAP;
}

/* ScatterElements over the whole walk (w as osc_elem_walk_init left it; not modified): idx
 * and upd are the index and updates tensors' data; out has count elements; data is the
 * tensor to copy into out first, or NULL when out already holds it (in place). The partition,
 * about (4 + element size) bytes per update, lives in the scratch block sc (kept for the next
 * run); sc NULL, or a block that cannot grow: OSC_BK_SKIPPED. */
osc_bk_result osc_se_bucketed(osc_scratch *sc, osc_tpool *tp, const osc_elem_walk *w,
                              int32_t dtype, int32_t reduction, int32_t index_dtype,
                              const void *idx, const void *upd, void *out, const void *data,
                              int64_t count);
/* ScatterND with slice == 1 (b as for osc_snd_loop; its dst and pf are not used). */
osc_bk_result osc_snd_bucketed(osc_scratch *sc, osc_tpool *tp, const osc_nd_block *b,
                               int32_t dtype, int32_t reduction, void *out, const void *data,
                               int64_t count);
/* With a pool (tp non-NULL, of n threads) both partition the updates in n consecutive parts
 * at once, each into a partition of its own, then apply the output regions in n ranges, each
 * region taking the parts' entries in part order: every element still receives its updates
 * in row-major order, so the result is the one thread's, bit for bit. */

#endif
