/* tpool.h: a session's small thread pool: parts of one job run at once, the caller taking part 0. */
#ifndef OSC_TPOOL_H
#define OSC_TPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

/* Work below this many bytes (copied or written) stays on the calling thread: waking a worker
 * costs a few microseconds, a 1 MiB copy about 100. */
#ifndef OSC_PAR_MIN_BYTES /* (the tiny-threshold test library builds with 1) */
#define OSC_PAR_MIN_BYTES ((size_t)1 << 20)
#endif

typedef struct osc_tpool osc_tpool;

/* fn(ctx, part, parts) for every part in [0, parts); parts is the pool's size. */
typedef void (*osc_task_fn)(void *ctx, int32_t part, int32_t parts);

/* A pool of n threads counting the caller (n - 1 workers, started now and kept until
 * osc_tpool_free), its memory from `a`. NULL when n < 2 or when memory or a thread cannot be
 * had: callers then run everything on the calling thread, with the same results. */
osc_tpool *osc_tpool_new(osc_allocator *a, int32_t n);
void osc_tpool_free(osc_tpool *p);
/* Threads of the pool; 1 for NULL. */
int32_t osc_tpool_size(const osc_tpool *p);
/* Runs every part of fn and returns when all are done (NULL pool: fn(ctx, 0, 1)). Not
 * reentrant: one job at a time per pool (a session runs one node at a time). */
void osc_tpool_run(osc_tpool *p, osc_task_fn fn, void *ctx);

/* osc_copy_big of n bytes (a scatter's data copy), split into one range per thread when
 * n >= OSC_PAR_MIN_BYTES. */
void osc_par_memcpy(osc_tpool *p, void *dst, const void *src, size_t n);

/* [*lo, *hi): part `part` of `parts` of [0, n) with boundaries at multiples of `align`. */
static inline void osc_par_range(int64_t n, int64_t align, int32_t part, int32_t parts,
                                 int64_t *lo, int64_t *hi) {
    const int64_t units = (n + align - 1) / align;
    const int64_t a = units * part / parts * align, b = units * (part + 1) / parts * align;
    *lo = a < n ? a : n;
    *hi = b < n ? b : n;
}

#endif
