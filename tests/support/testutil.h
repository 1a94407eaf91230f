/* testutil.h: small helpers tests and test-data generators share (test-support library, not the
 * library): a deterministic generator, tensor views, a counting allocator hook and a file
 * writer. No cmocka, no protobuf: generators link it too. */
#ifndef OSC_TESTUTIL_H
#define OSC_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_scatter.h"

/* The next value of a linear congruential generator (a * 1664525 + 1013904223, top 24 bits):
 * each test seeds its own state, so runs are repeatable. */
uint32_t osc_test_rnd32(uint32_t *state);
/* A value with a long mantissa, magnitude in [0.25, 2), either sign: sums and products round. */
double osc_test_rnd_value(uint32_t *state);

/* A tensor view: dtype, dims[0..rank-1], data (borrowed) and the nbytes of that shape. */
osc_tensor osc_test_view(int32_t dtype, int32_t rank, const int64_t *dims, const void *data);
/* A view of dtype and shape over *at, holding v[0..count) (dtype float or double) or ix[0..count)
 * (an integer dtype) converted; *at moves past it, kept 8-byte aligned. */
osc_tensor osc_test_pack(int32_t dtype, int32_t rank, const int64_t *dims, const double *v,
                         const int64_t *ix, unsigned char **at);

/* What osc_test_counting_alloc saw (zero it before use). */
typedef struct osc_test_mem {
    long allocs; /* calls that asked for memory: new blocks and reallocs */
    size_t live; /* bytes held now */
    size_t peak; /* most bytes held at once */
} osc_test_mem;
/* An osc_options.alloc hook over malloc/realloc/free; alloc_ud is an osc_test_mem. */
void *osc_test_counting_alloc(void *ud, void *p, size_t osize, size_t nsize);

/* An osc_options.alloc hook over realloc/free that fails the call numbered fail_at (counting
 * the calls that ask for memory), once, or with `rest` every call from it on; alloc_ud is an
 * osc_test_failing. */
typedef struct osc_test_failing {
    long count, fail_at;
    bool rest;
    bool failed; /* the call fail_at came */
} osc_test_failing;
void *osc_test_failing_alloc(void *ud, void *p, size_t osize, size_t nsize);

/* Writes n bytes of p to dir/name (dir NULL: name is the path). On failure prints
 * "<who>: cannot write <path>" to stderr and returns false. */
bool osc_test_write_file(const char *dir, const char *name, const void *p, size_t n,
                         const char *who);

#endif
