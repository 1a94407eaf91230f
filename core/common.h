/* common.h: internal error context, allocator accounting and the chunk pool shared by all layers. */
#ifndef OSC_COMMON_H
#define OSC_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "onnx_scatter.h"

/* Every message buffer; the public OSC_MESSAGE_SIZE promises callers this bound. */
#define OSC_MSG_SIZE OSC_MESSAGE_SIZE

/* Status plus message; one per model-load, per session. */
typedef struct osc_err {
    osc_status status;
    char msg[OSC_MSG_SIZE];
} osc_err;

/* Records status and a printf-formatted message in *e and returns status.
 * Keeps the first message when one is already set (the root cause wins). */
osc_status osc_fail(osc_err *e, osc_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void osc_err_clear(osc_err *e);

/* The limits of osc_options, resolved (defaults applied) once per load; a model and its
 * sessions read them from the model. */
typedef struct osc_limits {
    uint64_t max_bytes;   /* 0: no cap */
    uint64_t max_string;  /* bytes of one string element */
    int32_t max_nodes;
    int32_t max_rank;
    int64_t max_iterations; /* of one Loop node in one run */
} osc_limits;

/* Checks the limit fields of opts (NULL: all defaults) and fills *lim; OSC_ERR_ARG with a
 * message for a value out of its range. Reads the machine's memory when max_bytes is 0. */
osc_status osc_limits_resolve(const osc_options *opts, osc_limits *lim, osc_err *err);

/* The allocator hook plus byte accounting against a cap (0 = none). */
typedef struct osc_allocator {
    osc_alloc_fn fn;
    void *ud;
    uint64_t cap;
    uint64_t used;
    bool capped;  /* a request was refused because of the cap (reset by whoever reports it) */
} osc_allocator;

/* The hook of opts and the cap osc_limits_resolve gives max_bytes (opts NULL: defaults). */
void osc_allocator_init(osc_allocator *a, const osc_options *opts);
/* The same with the cap given (0: none). */
void osc_allocator_init_cap(osc_allocator *a, const osc_options *opts, uint64_t cap);
/* An allocator whose every request goes through parent (its cap, its count), for the models and
 * sessions of subgraphs; parent must outlive it. */
void osc_allocator_child(osc_allocator *child, osc_allocator *parent);
/* NULL on failure or when the cap would be exceeded (then a->capped is set; the caller reports
 * OSC_ERR_NOMEM, which osc_cap_explain turns into OSC_ERR_LIMIT). */
void *osc_malloc(osc_allocator *a, size_t n);
void *osc_calloc(osc_allocator *a, size_t count, size_t size);
/* osc_malloc for a large block written at random (arenas, bucket partitions): from
 * OSC_HUGE_MIN_BYTES on, and with the C library's allocator only, the 2 MiB-aligned part of
 * the block is advised to use transparent huge pages (fewer TLB misses; no effect where THP
 * is off). */
#define OSC_HUGE_MIN_BYTES ((size_t)4 << 20)
void *osc_malloc_large(osc_allocator *a, size_t n);
void *osc_realloc(osc_allocator *a, void *p, size_t osize, size_t nsize);
void osc_free(osc_allocator *a, void *p, size_t n);
/* Call when a model load or a run failed: if the failure is OSC_ERR_NOMEM and the allocator
 * refused a request because of its cap, the status becomes OSC_ERR_LIMIT and the message says
 * so, naming `whose` budget ("the model", "this session"). Returns the (new) status. */
osc_status osc_cap_explain(osc_err *e, osc_allocator *a, const char *whose);

/* A block kept from one run to the next (a session's scratch for the bucketed scatters): it
 * grows to the largest request and is freed with its owner, so repeated runs of the same shapes
 * allocate nothing. */
typedef struct osc_scratch {
    osc_allocator *alloc;
    void *p;
    size_t size;
} osc_scratch;
/* At least n bytes (contents unspecified), the same block as before when it is large enough.
 * NULL when it cannot grow; a refusal by the cap is not reported (a->capped is left as it was):
 * callers fall back to a path that needs no scratch. */
void *osc_scratch_get(osc_scratch *s, size_t n);
void osc_scratch_free(osc_scratch *s);

/* A pool: many small allocations freed together (a loaded model, the strings of one run).
 * Large requests get their own block; everything is released by osc_pool_free/reset. */
typedef struct osc_pool_block osc_pool_block;
typedef struct osc_pool_cleanup osc_pool_cleanup;
typedef struct osc_pool {
    osc_allocator *alloc;
    osc_pool_block *head;
    size_t chunk;  /* default chunk size */
    osc_pool_cleanup *cleanups; /* run by osc_pool_reset, newest first */
} osc_pool;

void osc_pool_init(osc_pool *p, osc_allocator *a, size_t chunk);
/* 16-byte aligned, zero-filled; NULL when out of memory. n == 0 returns a valid pointer. */
void *osc_pool_alloc(osc_pool *p, size_t n);
char *osc_pool_strdup(osc_pool *p, const char *s);
char *osc_pool_strndup(osc_pool *p, const char *s, size_t n);
/* Registers fn(addr, len), run when the pool is reset or freed: resources that live as long as
 * the pool but are not its memory (a memory-mapped file). False when out of memory: the caller
 * still owns the resource and releases it itself. */
bool osc_pool_defer(osc_pool *p, void (*fn)(void *addr, size_t len), void *addr, size_t len);
/* Frees the block holding the n bytes at ptr when that block holds a single osc_pool_alloc
 * request (a large one gets a block of its own) that starts at most 16 bytes before ptr (a
 * header of the same request: protobuf-c's payloads, loader/pb_alloc.c) and ends with them;
 * false (nothing freed) otherwise. */
bool osc_pool_release(osc_pool *p, void *ptr, size_t n);
/* The pool's blocks that hold a single request, sorted by address, so that releasing many of
 * them costs O(log n) each where osc_pool_release walks the blocks (a load releases one
 * constant per block: linear each would be quadratic). Valid while the pool neither allocates
 * nor frees a block but through osc_pool_index_release. */
typedef struct osc_pool_single {
    uintptr_t at;
    osc_pool_block *b; /* NULL once released */
} osc_pool_single;
typedef struct osc_pool_index {
    osc_pool_single *v;
    size_t n;
} osc_pool_index;
/* False when out of memory (nothing to free then). */
bool osc_pool_index_init(osc_pool_index *x, osc_pool *p);
/* osc_pool_release through the index. */
bool osc_pool_index_release(osc_pool *p, osc_pool_index *x, void *ptr, size_t n);
void osc_pool_index_free(osc_pool_index *x, osc_pool *p);
void osc_pool_reset(osc_pool *p);  /* runs the cleanups, then frees every block */
void osc_pool_free(osc_pool *p);

/* Checked 64-bit arithmetic: false on overflow. */
static inline bool osc_mul_ok(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}
static inline bool osc_add_ok(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_add_overflow(a, b, out);
}
/* *dst = *src for what a tensor holds (dtype, rank, dims[0..rank-1], data, nbytes): the dims
 * past rank are left as they were. osc_tensor is 280 bytes, mostly dims; runs copy tensors
 * between the session's tables, and after the caller's own work has pushed those tables out of
 * the caches a whole copy costs about five cache misses where this costs two (docs/design.md). */
static inline void osc_tensor_assign(osc_tensor *dst, const osc_tensor *src) {
    int32_t rank = src->rank >= 0 && src->rank <= OSC_MAX_RANK ? src->rank : 0;
    dst->dtype = src->dtype;
    dst->rank = src->rank;
    memcpy(dst->dims, src->dims, (size_t)rank * sizeof dst->dims[0]);
    dst->data = src->data;
    dst->nbytes = src->nbytes;
}
/* *t a 1-D view of n elements of `esize` bytes at data (only what a tensor of rank 1 holds is
 * written, as osc_tensor_assign does). */
static inline void osc_tensor_vec(osc_tensor *t, int32_t dtype, size_t esize, int64_t n,
                                  const void *data) {
    t->dtype = dtype;
    t->rank = 1;
    t->dims[0] = n;
    t->data = (void *)data;
    t->nbytes = (size_t)n * esize;
}
/* "[2,3,?]" (a negative dim, unknown or symbolic, as "?") into buf; returns buf. The one
 * formatter of shapes in messages. */
const char *osc_dims_str(const int64_t *dims, int32_t rank, char *buf, size_t size);
/* Product of dims[0..n-1] (1 when n == 0); 0 when any dim is 0, even if the other dims alone
 * would overflow; -1 when n or a dim is negative or the product overflows int64. */
int64_t osc_dims_prod(const int64_t *dims, int32_t n);

#endif
