/* tpool.c: the session thread pool (pthreads; between jobs workers spin briefly, then sleep on a
 * condition variable). */
#include "tpool.h"

#include "copy.h"

#include <string.h>

/* Built without threads (CMake OSC_THREADS=OFF): no pool can be had, so every job runs on the
 * calling thread, as when pthread_create fails, with the same results. */
#ifdef OSC_NO_THREADS
osc_tpool *osc_tpool_new(osc_allocator *a, int32_t n) {
    (void)a;
    (void)n;
    return NULL;
}
void osc_tpool_free(osc_tpool *p) { (void)p; }
int32_t osc_tpool_size(const osc_tpool *p) {
    (void)p;
    return 1;
}
void osc_tpool_run(osc_tpool *p, osc_task_fn fn, void *ctx) {
    (void)p;
    fn(ctx, 0, 1);
}
#else
#include <pthread.h>
#include <stdatomic.h>

/* Between jobs a worker, and the caller waiting for the workers, spin this many times (about
 * 50 microseconds) before sleeping on a condition variable: a run's nodes follow each other
 * closely, and waking a sleeping thread costs 30 to 50 microseconds per job on a virtual
 * machine (measured: an empty job on 2 threads). An idle pool spins that long once. */
#define SPINS 2000
#if defined(__x86_64__) || defined(__i386__)
#define RELAX() __builtin_ia32_pause()
#else
#define RELAX() atomic_signal_fence(memory_order_seq_cst)
#endif

/* The job's handshake is lock-free while threads spin: the caller bumps gen and wakes workers
 * only when some sleep; the last worker done wakes the caller only when it sleeps. Each side
 * publishes its flag (sleepers, waiting) before it looks at the other's counter (gen,
 * pending), all sequentially consistent, so one of the two always sees the other. */
struct osc_tpool {
    osc_allocator *alloc;
    int32_t n;                /* threads counting the caller */
    int32_t started;          /* workers running */
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    _Atomic uint64_t gen;     /* bumped per job, after fn and ctx are set */
    atomic_int pending;       /* workers still on the current job */
    atomic_int stop;
    atomic_int sleepers;      /* workers asleep (or going to sleep) on `wake` */
    atomic_bool waiting;      /* the caller asleep (or going to sleep) on `done` */
    osc_task_fn fn;
    void *ctx;
    pthread_t th[];
};

typedef struct worker_arg {
    osc_tpool *p;
    int32_t part;
} worker_arg;

static bool new_job(osc_tpool *p, uint64_t seen) { return p->gen != seen || p->stop; }

static void *worker(void *arg) {
    osc_tpool *p = ((worker_arg *)arg)->p;
    const int32_t part = ((worker_arg *)arg)->part;
    uint64_t seen = 0;
    for (;;) {
        for (int i = 0; i < SPINS && !new_job(p, seen); i++) RELAX();
        if (!new_job(p, seen)) {
            pthread_mutex_lock(&p->mu);
            p->sleepers++;
            while (!new_job(p, seen)) pthread_cond_wait(&p->wake, &p->mu);
            p->sleepers--;
            pthread_mutex_unlock(&p->mu);
        }
        if (p->stop) break;
        seen = p->gen;
        p->fn(p->ctx, part, p->n);
        if (--p->pending == 0 && p->waiting) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
    return NULL;
}

static void stop_workers(osc_tpool *p) {
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int32_t i = 0; i < p->started; i++) pthread_join(p->th[i], NULL);
}

osc_tpool *osc_tpool_new(osc_allocator *a, int32_t n) {
    if (n < 2) return NULL;
    const size_t size = sizeof(osc_tpool) + (size_t)(n - 1) * (sizeof(pthread_t) +
                                                               sizeof(worker_arg));
    const bool capped = a->capped;
    osc_tpool *p = osc_malloc(a, size);
    if (!p) {
        a->capped = capped; /* not an error: the session runs on one thread */
        return NULL;
    }
    memset(p, 0, size);
    p->alloc = a;
    p->n = n;
    worker_arg *args = (worker_arg *)(void *)(p->th + (n - 1));
    if (pthread_mutex_init(&p->mu, NULL)) goto no_mutex;
    if (pthread_cond_init(&p->wake, NULL)) goto no_wake;
    if (pthread_cond_init(&p->done, NULL)) goto no_done;
    for (; p->started < n - 1; p->started++) {
        args[p->started] = (worker_arg){p, p->started + 1};
        if (pthread_create(&p->th[p->started], NULL, worker, &args[p->started])) break;
    }
    if (p->started == n - 1) return p;
    stop_workers(p);
    pthread_cond_destroy(&p->done);
no_done:
    pthread_cond_destroy(&p->wake);
no_wake:
    pthread_mutex_destroy(&p->mu);
no_mutex:
    osc_free(a, p, size);
    return NULL;
}

void osc_tpool_free(osc_tpool *p) {
    if (!p) return;
    stop_workers(p);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    osc_free(p->alloc, p, sizeof(osc_tpool) + (size_t)(p->n - 1) * (sizeof(pthread_t) +
                                                                   sizeof(worker_arg)));
}

int32_t osc_tpool_size(const osc_tpool *p) { return p ? p->n : 1; }

void osc_tpool_run(osc_tpool *p, osc_task_fn fn, void *ctx) {
    if (!p) {
        fn(ctx, 0, 1);
        return;
    }
    /* no worker reads fn or ctx before it sees the new gen */
    p->fn = fn;
    p->ctx = ctx;
    p->pending = p->n - 1;
    p->gen++;
    if (p->sleepers) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->mu);
    }
    fn(ctx, 0, p->n);
    for (int i = 0; i < SPINS && p->pending > 0; i++) RELAX();
    if (p->pending > 0) {
        pthread_mutex_lock(&p->mu);
        p->waiting = true;
        while (p->pending > 0) pthread_cond_wait(&p->done, &p->mu);
        p->waiting = false;
        pthread_mutex_unlock(&p->mu);
    }
}
#endif /* OSC_NO_THREADS */

typedef struct copy_job {
    char *dst;
    const char *src;
    size_t n;
} copy_job;

static void copy_part(void *ctx, int32_t part, int32_t parts) {
    const copy_job *j = ctx;
    int64_t lo, hi;
    osc_par_range((int64_t)j->n, 4096, part, parts, &lo, &hi);
    osc_copy_big(j->dst + lo, j->src + lo, (size_t)(hi - lo));
}

void osc_par_memcpy(osc_tpool *p, void *dst, const void *src, size_t n) {
    if (!p || n < OSC_PAR_MIN_BYTES) {
        osc_copy_big(dst, src, n);
        return;
    }
    copy_job j = {dst, src, n};
    osc_tpool_run(p, copy_part, &j);
}
