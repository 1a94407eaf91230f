/* pb_alloc.c: the ProtobufCAllocator protobuf-c unpacks through, backed by an osc_allocator. */
#include "pb.h"

enum { OWNER_HEAP = 0x68656170, OWNER_POOL = 0x706f6f6c };

/* 16 bytes so the payload keeps the 16-byte alignment of both the allocator and the pool. */
typedef struct pb_hdr {
    uint64_t size;
    uint64_t owner;
} pb_hdr;

/* Bytes osc_pool_alloc(pool, n) asks its allocator for when the current chunk is full: the
 * rounded request or a whole chunk, plus the block header (a few words; 64 bounds it). */
static uint64_t pool_request(const osc_pool *pool, uint64_t n) {
    uint64_t need = (n + 15) & ~(uint64_t)15;
    return (need > pool->chunk / 4 ? need : pool->chunk) + 64;
}

static bool over_cap(const osc_allocator *a, uint64_t n) {
    return a->cap && (n > a->cap || a->used > a->cap - n);
}

static void *pb_alloc(void *ud, size_t size) {
    osc_pb_alloc *pa = ud;
    if (size > SIZE_MAX - sizeof(pb_hdr)) {
        pa->failed = true;
        pa->failed_size = SIZE_MAX;
        pa->failed_status = OSC_ERR_NOMEM;
        return NULL;
    }
    size_t total = size + sizeof(pb_hdr);
    if (total > pa->budget - pa->charged) { /* charged <= budget always */
        pa->failed = pa->over_budget = true;
        pa->failed_size = total;
        pa->failed_status = OSC_ERR_LIMIT;
        return NULL;
    }
    pb_hdr *h;
    if (pa->pool && size >= OSC_PB_BIG) {
        h = osc_pool_alloc(pa->pool, total);
        if (h) h->owner = OWNER_POOL;
    } else {
        h = osc_malloc(pa->a, total);
        if (h) h->owner = OWNER_HEAP;
    }
    if (!h) {
        /* decided now: protobuf-c frees what it unpacked before the caller can look */
        pa->failed = true;
        pa->failed_size = total;
        pa->failed_status = over_cap(pa->a, pa->pool && size >= OSC_PB_BIG
                                                ? pool_request(pa->pool, total)
                                                : total)
                                ? OSC_ERR_LIMIT
                                : OSC_ERR_NOMEM;
        return NULL;
    }
    h->size = size;
    pa->charged += total;
    return h + 1;
}

static void pb_free(void *ud, void *p) {
    osc_pb_alloc *pa = ud;
    if (!p) return;
    pb_hdr *h = (pb_hdr *)p - 1;
    if (h->owner != OWNER_HEAP) return; /* pool blocks are released with the pool */
    pa->charged -= h->size + sizeof(pb_hdr);
    osc_free(pa->a, h, (size_t)h->size + sizeof(pb_hdr));
}

void osc_pb_alloc_init(osc_pb_alloc *pa, osc_allocator *a, osc_pool *pool, uint64_t budget) {
    pa->pc.alloc = pb_alloc;
    pa->pc.free = pb_free;
    pa->pc.allocator_data = pa;
    pa->a = a;
    pa->pool = pool;
    pa->budget = budget;
    pa->charged = 0;
    pa->failed = pa->over_budget = false;
    pa->failed_size = 0;
    pa->failed_status = OSC_OK;
}

bool osc_pb_in_pool(const void *p) {
    return p && ((const pb_hdr *)p - 1)->owner == OWNER_POOL;
}

osc_status osc_nomem(osc_err *err, const osc_allocator *a, uint64_t n, const char *what) {
    if (over_cap(a, n))
        return osc_fail(err, OSC_ERR_LIMIT,
                        "%s: %llu more bytes would exceed the byte cap opts.max_bytes (%llu; "
                        "%llu in use)",
                        what, (unsigned long long)n, (unsigned long long)a->cap,
                        (unsigned long long)a->used);
    return osc_fail(err, OSC_ERR_NOMEM, "%s: out of memory allocating %llu bytes", what,
                    (unsigned long long)n);
}

osc_status osc_pool_nomem(osc_err *err, const osc_pool *pool, uint64_t n, const char *what) {
    if (over_cap(pool->alloc, pool_request(pool, n)))
        return osc_nomem(err, pool->alloc, pool_request(pool, n), what);
    return osc_fail(err, OSC_ERR_NOMEM, "%s: out of memory allocating %llu bytes", what,
                    (unsigned long long)n);
}

osc_status osc_pb_alloc_report(const osc_pb_alloc *pa, uint64_t len, osc_err *err) {
    if (pa->over_budget)
        return osc_fail(err, OSC_ERR_LIMIT, "parsing the model: unpacking its %llu bytes needs "
                        "more than %llu bytes (allowed: %d times its size plus %llu MiB)",
                        (unsigned long long)len, (unsigned long long)pa->budget,
                        OSC_PB_AMPLIFICATION, (unsigned long long)(OSC_PB_SLACK >> 20));
    if (pa->failed_status == OSC_ERR_LIMIT)
        return osc_fail(err, OSC_ERR_LIMIT, "parsing the model: %zu more bytes would exceed the "
                        "byte cap opts.max_bytes (%llu)", pa->failed_size,
                        (unsigned long long)pa->a->cap);
    return osc_fail(err, OSC_ERR_NOMEM, "parsing the model: out of memory allocating %zu bytes",
                    pa->failed_size);
}
