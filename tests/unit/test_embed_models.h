/* test_embed_models.h: small models, built in memory, shared by the embedding, fault and thread tests. */
#ifndef OSC_TEST_EMBED_MODELS_H
#define OSC_TEST_EMBED_MODELS_H

#include <stdbool.h>
#include <stddef.h>

#include "onnx_scatter.h"

/* x[n] -> ScatterElements(x, i, u) -> t -> ScatterElements(t, i, v, reduction add) -> y.
 * x: float[n] (n < 0: symbolic "N"), i: int64[1], u, v: float[1]. Outputs y, and t when
 * t_is_output. Without t as an output, t and y share one buffer (in place). */
void *emb_chain_model(long n, bool t_is_output, size_t *len);
/* Expected y (and t) for the chain: x with x[i] = u, then y[i] += v. */
void emb_chain_expect(const float *x, long n, long long i, float u, float v, float *t, float *y);

/* s: string[4], si: int64[2], su: string[2] -> ScatterElements(reduction add) -> sy: string[4]
 * (concatenation: the run makes new strings). */
void *emb_string_model(size_t *len);

/* Opset 11: Scatter (deprecated: a warning) of data float[3,3] -> y, then
 * GatherElements(y, indices) -> g. Outputs y, g. */
void *emb_scatter11_model(size_t *len);

/* Opset 11: n Scatter nodes (each deprecated: n warnings) in a chain data -> y1 -> ... -> y<n>.
 * Enough warnings that storing them needs new memory from the allocator, not only pool space. */
void *emb_many_warnings_model(int n, size_t *len);

/* ScatterND-18 with reduction add: data float[count], indices int64[n, 1], updates float[n]
 * -> y float[count]. */
void *emb_scatternd_add_model(long long count, long long n, size_t *len);

/* A tensor view with dims copied. */
/* Binds the chain model's inputs x[n], i, u, v (caller buffers); the first failing status. */
osc_status emb_bind_chain(osc_session *s, float *x, long n, int64_t *i, float *u, float *v);
osc_tensor emb_view(int32_t dtype, int32_t rank, const long long *dims, void *data, size_t nbytes);

#endif
