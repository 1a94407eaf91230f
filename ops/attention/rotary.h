/* rotary.h: RotaryEmbedding's pieces (rotary.c) that the fused CacheWrite kernel
 * (cache_write.c) reuses: its parameters, X's geometry and checks, and the rotation of the head
 * vectors of one (batch, seq) row. */
#ifndef OSC_ROTARY_H
#define OSC_ROTARY_H

#include "core/kattr.h"

/* The attributes (rule cache_write reads them from the RotaryEmbedding row's parameters). */
typedef struct osc_rope_params {
    bool interleaved;
    int64_t rot_dim;   /* the attribute: 0 for the whole head */
    int64_t num_heads; /* 0: absent */
} osc_rope_params;

/* X's geometry, and where the cos and sin rows of (b, s) are. */
typedef struct osc_rope_geo {
    int64_t batch, seq, heads, head, half; /* half: rotated pairs per head vector */
    int64_t xb, xs, xh;                    /* X's strides of batch, seq and head */
    /* strides of b and s in position_ids (elements) or in the 3-D caches (rows); 0 broadcast */
    int64_t pb, ps;
    int64_t max_pos; /* rows of the 2-D caches */
    int32_t in0;     /* the node's input number of X (cos, sin, position_ids follow it) */
} osc_rope_geo;

/* Checks the node's inputs in0 to in0 + 3 (X, cos_cache, sin_cache, position_ids; the last may
 * be absent or NULL) against p, as RotaryEmbedding does, into *g; want gets Y's dtype and
 * shape. `run`: also their buffers and every position id (before any write). */
osc_status osc_rope_check(osc_kctx *k, const osc_rope_params *p, const osc_tensor *const *in,
                          int32_t n_in, int32_t in0, bool run, osc_tensor *want, osc_rope_geo *g);
/* Rotates heads [h0, h0 + nh) of X's row (b, s) into y, head h at element yo + (h - h0) * yh,
 * for X of dtype `dtype` (float, float16, bfloat16: computed in float, rounded once); x, cos,
 * sin and pos (NULL: none) the node's inputs' data. */
void osc_rope_heads(int32_t dtype, void *y, int64_t yo, int64_t yh, const void *x,
                    const void *cosv, const void *sinv, const int64_t *pos,
                    const osc_rope_geo *g, bool inter, int64_t b, int64_t s, int64_t h0,
                    int64_t nh);

/* CacheWrite (cache_write.c; rule cache_write): TensorScatter-24 along axis 2 of a 4-D cache
 * (batch, heads, max_seq, head size) of an update the chain after X computes: RotaryEmbedding of
 * X when `rotate`, then X's elements taken in (batch, seq, heads, head size) order (`bshd`: a
 * Reshape to that and a Transpose [0, 2, 1, 3]) or in the cache's order, and converted to the
 * cache's dtype as Cast does. Inputs: 0 past_cache (written in place when it dies here or is
 * donated), 1 X, 2 cos_cache, 3 sin_cache, 4 position_ids (2 to 4: RotaryEmbedding's, absent
 * without rotation), 5 write_indices. */
typedef struct osc_cache_write_params {
    bool rotate, bshd;
    osc_rope_params rope;
    int64_t seq;      /* the update's sequence length (static: X holds batch * seq rows) */
    int32_t circular; /* TensorScatter's mode */
} osc_cache_write_params;

#endif
