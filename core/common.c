/* common.c: error messages, resource limits, the allocator hook with byte accounting, and the
 * chunk pool. */
#define _DEFAULT_SOURCE /* madvise(MADV_HUGEPAGE) */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* The struct size is part of the ABI: new fields come out of reserved[] and reserved_ext[]
 * (LP64 layout; 112 bytes from 0.3.0). */
_Static_assert(sizeof(void *) != 8 || sizeof(osc_options) == 112, "osc_options changed size");

osc_status osc_fail(osc_err *e, osc_status status, const char *fmt, ...) {
    if (e->status != OSC_OK) return e->status; /* keep the root cause */
    e->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return status;
}

void osc_err_clear(osc_err *e) {
    e->status = OSC_OK;
    e->msg[0] = '\0';
}

/* Blocks of OSC_MAP_MIN_BYTES or more get mappings of their own: freeing one gives its pages
 * back to the system at once. From malloc they could land in the heap (glibc raises its mmap
 * threshold after a large free), where a freed block in the middle stays resident: a model's
 * 25 MiB constant absorbed by fusion, or a session's arena after osc_session_free. 256 KiB: a
 * constant of a few hundred KiB the load gives back (GAT's zeros and copies: 1.2 MiB of peak
 * RSS) leaves no hole either; per-run tiles of that size cost no measurable time. The library
 * always passes back the size it allocated (tests/bad/test_bad.c aborts otherwise), so osize
 * tells which kind a block is. */
#if defined(MAP_ANONYMOUS) && !defined(OSC_NO_MMAP)
#define OSC_MAP_MIN_BYTES ((size_t)256 << 10)
static void *block_new(size_t n) {
    if (n < OSC_MAP_MIN_BYTES) return malloc(n);
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}
static void block_free(void *p, size_t n) {
    if (n < OSC_MAP_MIN_BYTES) free(p);
    else if (p) munmap(p, n);
}
static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud;
    if (ptr && osize < OSC_MAP_MIN_BYTES && nsize < OSC_MAP_MIN_BYTES && nsize)
        return realloc(ptr, nsize);
    void *q = nsize ? block_new(nsize) : NULL;
    if (nsize && !q) return NULL; /* the old block stays valid, as with realloc */
    if (ptr) {
        if (q) memcpy(q, ptr, osize < nsize ? osize : nsize);
        block_free(ptr, osize);
    }
    return q;
}
#else
static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud;
    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}
#endif

/* A decimal number at the start of a small file ("max" or anything else: 0). */
static uint64_t read_u64_file(const char *path) {
    FILE *f = fopen(path, "re");
    if (!f) return 0;
    char buf[64];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    uint64_t v = 0;
    for (size_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; i++) {
        if (v > (UINT64_MAX - 9) / 10) return 0;
        v = v * 10 + (uint64_t)(buf[i] - '0');
    }
    return v;
}

/* memory.max of the process's cgroup v2 ("0::/path" in /proc/self/cgroup); 0 when unlimited or
 * not readable. */
static uint64_t cgroup_limit(void) {
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f) return 0;
    char line[512], path[640];
    uint64_t v = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "0::", 3) != 0) continue;
        line[strcspn(line, "\n")] = '\0';
        snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max",
                 strcmp(line + 3, "/") == 0 ? "" : line + 3);
        v = read_u64_file(path);
        break;
    }
    fclose(f);
    return v;
}

static uint64_t min_known(uint64_t a, uint64_t b) { return !a ? b : !b ? a : a < b ? a : b; }

uint64_t osc_default_max_bytes(void) {
    uint64_t mem = 0;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0 && (uint64_t)pages <= UINT64_MAX / (uint64_t)page)
        mem = (uint64_t)pages * (uint64_t)page;
    mem = min_known(mem, cgroup_limit());
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        mem = min_known(mem, (uint64_t)rl.rlim_cur);
    /* a 32-bit process addresses at most SIZE_MAX bytes, whatever the machine has */
    mem = min_known(mem, (uint64_t)SIZE_MAX);
    return mem / 2;
}

osc_status osc_limits_resolve(const osc_options *opts, osc_limits *lim, osc_err *err) {
    osc_options def;
    if (!opts) {
        memset(&def, 0, sizeof def);
        opts = &def;
    }
    if (opts->max_nodes < 0)
        return osc_fail(err, OSC_ERR_ARG, "opts.max_nodes is %d; expected 0 (default %d) or more",
                        (int)opts->max_nodes, OSC_DEFAULT_MAX_NODES);
    if (opts->max_rank > OSC_MAX_RANK)
        return osc_fail(err, OSC_ERR_ARG, "opts.max_rank is %d; expected 0 (default %d) to %d",
                        (int)opts->max_rank, OSC_MAX_RANK, OSC_MAX_RANK);
    if (opts->max_iterations > INT64_MAX)
        return osc_fail(err, OSC_ERR_ARG, "opts.max_iterations is %llu; expected 0 (default %d) "
                        "to %lld", (unsigned long long)opts->max_iterations,
                        OSC_DEFAULT_MAX_ITERATIONS, (long long)INT64_MAX);
    lim->max_iterations = opts->max_iterations ? (int64_t)opts->max_iterations
                                               : OSC_DEFAULT_MAX_ITERATIONS;
    lim->max_nodes = opts->max_nodes ? opts->max_nodes : OSC_DEFAULT_MAX_NODES;
    lim->max_rank = opts->max_rank ? opts->max_rank : OSC_MAX_RANK;
    lim->max_string = (uint64_t)(opts->max_string_mib ? opts->max_string_mib
                                                       : OSC_DEFAULT_MAX_STRING_MIB) << 20;
    lim->max_bytes = opts->max_bytes == OSC_NO_LIMIT ? 0
                     : opts->max_bytes ? opts->max_bytes
                                       : osc_default_max_bytes();
    return OSC_OK;
}

void osc_allocator_init_cap(osc_allocator *a, const osc_options *opts, uint64_t cap) {
    a->fn = (opts && opts->alloc) ? opts->alloc : default_alloc;
    a->ud = opts ? opts->alloc_ud : NULL;
    a->cap = cap;
    a->used = 0;
    a->capped = false;
}

static void *forward(void *ud, void *p, size_t osize, size_t nsize) {
    return osc_realloc(ud, p, osize, nsize);
}

void osc_allocator_child(osc_allocator *child, osc_allocator *parent) {
    child->fn = forward;
    child->ud = parent;
    child->cap = 0;
    child->used = 0;
    child->capped = false;
}

void osc_allocator_init(osc_allocator *a, const osc_options *opts) {
    uint64_t cap = !opts || !opts->max_bytes ? osc_default_max_bytes()
                   : opts->max_bytes == OSC_NO_LIMIT ? 0
                                                     : opts->max_bytes;
    osc_allocator_init_cap(a, opts, cap);
}

osc_status osc_cap_explain(osc_err *e, osc_allocator *a, const char *whose) {
    if (e->status != OSC_ERR_NOMEM || !a->capped) return e->status;
    char orig[OSC_MSG_SIZE];
    snprintf(orig, sizeof orig, "%s", e->msg);
    e->status = OSC_ERR_LIMIT;
    snprintf(e->msg, sizeof e->msg, "byte cap reached: %s would need more than opts.max_bytes = "
             "%llu bytes (%.400s)", whose, (unsigned long long)a->cap, orig);
    a->capped = false;
    return e->status;
}

void *osc_realloc(osc_allocator *a, void *p, size_t osize, size_t nsize) {
    if (nsize > osize && a->cap && (nsize - osize > a->cap || a->used + (nsize - osize) > a->cap)) {
        a->capped = true;
        return NULL;
    }
    if (nsize == 0) {
        if (p) {
            a->fn(a->ud, p, osize, 0);
            a->used -= osize;
        }
        return NULL;
    }
    void *q = a->fn(a->ud, p, p ? osize : 0, nsize);
    if (!q) return NULL;
    a->used = a->used - (p ? osize : 0) + nsize;
    return q;
}

void *osc_malloc(osc_allocator *a, size_t n) { return osc_realloc(a, NULL, 0, n ? n : 1); }

void *osc_malloc_large(osc_allocator *a, size_t n) {
    void *p = osc_malloc(a, n);
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (p && n >= OSC_HUGE_MIN_BYTES && a->fn == default_alloc) {
        const uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1);
        const uintptr_t hi = ((uintptr_t)p + n) & ~(huge - 1);
        if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* advice only */
    }
#endif
    return p;
}

void *osc_scratch_get(osc_scratch *s, size_t n) {
    if (n <= s->size) return s->p;
    osc_scratch_free(s);
    const bool capped = s->alloc->capped;
    s->p = osc_malloc_large(s->alloc, n);
    if (!s->p) {
        s->alloc->capped = capped;
        return NULL;
    }
    s->size = n;
    return s->p;
}

void osc_scratch_free(osc_scratch *s) {
    if (s->p) osc_free(s->alloc, s->p, s->size);
    s->p = NULL;
    s->size = 0;
}

void *osc_calloc(osc_allocator *a, size_t count, size_t size) {
    size_t n;
    if (__builtin_mul_overflow(count, size, &n)) return NULL;
    void *p = osc_malloc(a, n);
    if (p) memset(p, 0, n ? n : 1);
    return p;
}

void osc_free(osc_allocator *a, void *p, size_t n) {
    if (p) osc_realloc(a, p, n ? n : 1, 0);
}

struct osc_pool_block {
    osc_pool_block *next, *prev; /* prev: NULL for the head */
    size_t size; /* usable bytes after the header */
    size_t used;
    size_t allocs; /* osc_pool_alloc requests it holds */
    max_align_t align[]; /* payload */
};

struct osc_pool_cleanup {
    osc_pool_cleanup *next;
    void (*fn)(void *addr, size_t len);
    void *addr;
    size_t len;
};

void osc_pool_init(osc_pool *p, osc_allocator *a, size_t chunk) {
    p->alloc = a;
    p->head = NULL;
    p->chunk = chunk ? chunk : 16384;
    p->cleanups = NULL;
}

bool osc_pool_defer(osc_pool *p, void (*fn)(void *addr, size_t len), void *addr, size_t len) {
    osc_pool_cleanup *c = osc_pool_alloc(p, sizeof *c);
    if (!c) return false;
    c->fn = fn;
    c->addr = addr;
    c->len = len;
    c->next = p->cleanups;
    p->cleanups = c;
    return true;
}

void *osc_pool_alloc(osc_pool *p, size_t n) {
    size_t need = (n + 15) & ~(size_t)15;
    if (need < n) return NULL;
    osc_pool_block *b = p->head;
    if (!b || b->size - b->used < need) {
        size_t size = need > p->chunk / 4 ? need : p->chunk;
        if (size > SIZE_MAX - sizeof *b) return NULL;
        osc_pool_block *nb = osc_malloc(p->alloc, sizeof *nb + size);
        if (!nb) return NULL;
        nb->size = size;
        nb->used = nb->allocs = 0;
        if (b && size == need && b->size - b->used >= 64) {
            /* a dedicated big block goes second so the current chunk stays usable */
            nb->next = b->next;
            nb->prev = b;
            b->next = nb;
        } else {
            nb->next = b;
            nb->prev = NULL;
            p->head = nb;
        }
        if (nb->next) nb->next->prev = nb;
        b = nb;
    }
    char *r = (char *)b->align + b->used;
    b->used += need;
    b->allocs++;
    memset(r, 0, n);
    return r;
}

/* Block b holds just the n bytes at ptr (see osc_pool_release). */
static bool holds_only(const osc_pool_block *b, const void *ptr, size_t n) {
    const char *base = (const char *)b->align;
    if ((const char *)ptr < base || (const char *)ptr > base + 16) return false;
    const size_t end = (size_t)((const char *)ptr - base) + n;
    return b->allocs == 1 && end >= n && b->used == ((end + 15) & ~(size_t)15);
}

static void unlink_free(osc_pool *p, osc_pool_block *b) {
    if (b->prev) b->prev->next = b->next;
    else p->head = b->next;
    if (b->next) b->next->prev = b->prev;
    osc_free(p->alloc, b, sizeof *b + b->size);
}

bool osc_pool_release(osc_pool *p, void *ptr, size_t n) {
    for (osc_pool_block *b = p->head; ptr && b; b = b->next) {
        const char *base = (const char *)b->align;
        if ((const char *)ptr < base || (const char *)ptr > base + 16) continue;
        if (!holds_only(b, ptr, n)) return false;
        unlink_free(p, b);
        return true;
    }
    return false;
}

static int by_address(const void *a, const void *b) {
    const uintptr_t x = ((const osc_pool_single *)a)->at, y = ((const osc_pool_single *)b)->at;
    return x < y ? -1 : x > y;
}

bool osc_pool_index_init(osc_pool_index *x, osc_pool *p) {
    x->n = 0;
    for (const osc_pool_block *b = p->head; b; b = b->next) x->n += b->allocs == 1;
    x->v = osc_malloc(p->alloc, (x->n ? x->n : 1) * sizeof *x->v);
    if (!x->v) return false;
    size_t k = 0;
    for (osc_pool_block *b = p->head; b; b = b->next)
        if (b->allocs == 1) x->v[k++] = (osc_pool_single){(uintptr_t)b, b};
    qsort(x->v, x->n, sizeof *x->v, by_address);
    return true;
}

bool osc_pool_index_release(osc_pool *p, osc_pool_index *x, void *ptr, size_t n) {
    size_t lo = 0, hi = x->n; /* the last block at or before ptr: v[lo - 1] */
    while (ptr && lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (x->v[mid].at <= (uintptr_t)ptr) lo = mid + 1;
        else hi = mid;
    }
    osc_pool_block *b = ptr && lo ? x->v[lo - 1].b : NULL;
    if (!b || !holds_only(b, ptr, n)) return false;
    unlink_free(p, b);
    x->v[lo - 1].b = NULL; /* released */
    return true;
}

void osc_pool_index_free(osc_pool_index *x, osc_pool *p) {
    osc_free(p->alloc, x->v, (x->n ? x->n : 1) * sizeof *x->v);
    x->v = NULL;
}

char *osc_pool_strndup(osc_pool *p, const char *s, size_t n) {
    char *r = osc_pool_alloc(p, n + 1);
    if (r && n) memcpy(r, s, n);
    return r;
}

char *osc_pool_strdup(osc_pool *p, const char *s) {
    return osc_pool_strndup(p, s ? s : "", s ? strlen(s) : 0);
}

void osc_pool_reset(osc_pool *p) {
    for (osc_pool_cleanup *c = p->cleanups; c; c = c->next) c->fn(c->addr, c->len);
    p->cleanups = NULL; /* the records live in the blocks freed below */
    osc_pool_block *b = p->head;
    while (b) {
        osc_pool_block *next = b->next;
        osc_free(p->alloc, b, sizeof *b + b->size);
        b = next;
    }
    p->head = NULL;
}

void osc_pool_free(osc_pool *p) { osc_pool_reset(p); }

const char *osc_dims_str(const int64_t *dims, int32_t rank, char *buf, size_t size) {
    size_t p = 0;
    if (size == 0) return buf;
    buf[0] = '\0';
    p += (size_t)snprintf(buf, size, "[");
    for (int32_t i = 0; i < rank && p < size; i++) {
        if (dims[i] < 0) p += (size_t)snprintf(buf + p, size - p, i ? ",?" : "?");
        else p += (size_t)snprintf(buf + p, size - p, i ? ",%lld" : "%lld", (long long)dims[i]);
    }
    if (p < size) snprintf(buf + p, size - p, "]");
    return buf;
}
