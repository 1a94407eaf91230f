/* broadcast.h: numpy-style multidirectional broadcasting: the output shape, and a row iterator. */
#ifndef OSC_BROADCAST_H
#define OSC_BROADCAST_H

#include "core/kernel.h"

/* Most inputs one iterator walks at once (Where: condition, X, Y). Variadic ops fold pairwise. */
#define OSC_BCAST_MAX_IN 3

/* Broadcasts acc (rank/dims; its dtype and data are not touched) with input i (`what`, e.g. "B")
 * in place: shapes are aligned from the right, a dim of 1 stretches to the other side's size,
 * the result's rank is the larger one. Fails (OSC_ERR_SHAPE) on two different sizes neither of
 * which is 1, naming input i, both shapes and the dim; (OSC_ERR_SHAPE) on an invalid input shape.
 * On failure acc is unchanged. A zero-size dim broadcasts like any other size (0 vs 1 -> 0). */
osc_status osc_bcast_merge(osc_kctx *k, osc_tensor *acc, int32_t i, const char *what,
                           const osc_tensor *t);

/* Walks the output of a broadcast in rows: within one row, output elements are contiguous and
 * input j advances by step[j] (0 or 1) per element. Dims of size 1 are dropped and neighbouring
 * dims that every input treats alike are merged, so rows are as long as possible. */
typedef struct osc_bcast_it {
    int32_t n_in, rank;
    int64_t dims[OSC_MAX_RANK];
    int64_t stride[OSC_BCAST_MAX_IN][OSC_MAX_RANK]; /* element strides; 0 where broadcast */
    int64_t c[OSC_MAX_RANK];                        /* odometer over dims[0..rank-2] */
    int64_t rows_left;
    /* The current row: */
    int64_t out_off;                  /* output element offset */
    int64_t off[OSC_BCAST_MAX_IN];    /* each input's element offset */
    int64_t len;                      /* elements in the row (> 0) */
    int64_t step[OSC_BCAST_MAX_IN];   /* 0 or 1 */
    /* Rows in full and where the walk starts and ends within them (osc_bcast_range): */
    int64_t full, col0, last_len;
} osc_bcast_it;

/* Positions it on the first row; false when the output has no elements.
 * Precondition: out's shape is the broadcast of in[0..n_in-1] (as osc_bcast_merge computes it),
 * its element count fits int64, 1 <= n_in <= OSC_BCAST_MAX_IN. */
bool osc_bcast_begin(osc_bcast_it *it, const osc_tensor *out, int32_t n_in,
                     const osc_tensor *const *in);
/* Restricts a fresh iterator (osc_bcast_begin) to output elements [start, end), 0 <= start <
 * end <= the element count: its first and last rows may be partial. Threads walk disjoint
 * ranges of one output this way. */
void osc_bcast_range(osc_bcast_it *it, int64_t start, int64_t end);
/* Moves to the next row; false after the last one. */
bool osc_bcast_next(osc_bcast_it *it);

/* Writes t's elements (esize bytes each: a byte-addressable dtype) broadcast to out's shape
 * into out->data, e.g. the first input of a variadic fold, or numpy's broadcast_to (Expand).
 * Precondition: out's shape is the broadcast of t and out alone (osc_bcast_merge), and the
 * buffers hold their shapes and do not overlap. */
void osc_bcast_copy(const osc_tensor *out, const osc_tensor *t, size_t esize);

#endif
