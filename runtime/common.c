/* common.c: error messages, the allocator hook with byte accounting, and the chunk pool. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud;
    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

void osc_allocator_init(osc_allocator *a, const osc_options *opts) {
    a->fn = (opts && opts->alloc) ? opts->alloc : default_alloc;
    a->ud = opts ? opts->alloc_ud : NULL;
    a->cap = opts ? opts->max_bytes : 0;
    a->used = 0;
}

void *osc_realloc(osc_allocator *a, void *p, size_t osize, size_t nsize) {
    if (nsize > osize && a->cap && (nsize - osize > a->cap || a->used + (nsize - osize) > a->cap))
        return NULL;
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
    osc_pool_block *next;
    size_t size; /* usable bytes after the header */
    size_t used;
    max_align_t align[]; /* payload */
};

void osc_pool_init(osc_pool *p, osc_allocator *a, size_t chunk) {
    p->alloc = a;
    p->head = NULL;
    p->chunk = chunk ? chunk : 16384;
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
        nb->used = 0;
        if (b && size == need && b->size - b->used >= 64) {
            /* a dedicated big block goes second so the current chunk stays usable */
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            p->head = nb;
        }
        b = nb;
    }
    char *r = (char *)b->align + b->used;
    b->used += need;
    memset(r, 0, n);
    return r;
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
    osc_pool_block *b = p->head;
    while (b) {
        osc_pool_block *next = b->next;
        osc_free(p->alloc, b, sizeof *b + b->size);
        b = next;
    }
    p->head = NULL;
}

void osc_pool_free(osc_pool *p) { osc_pool_reset(p); }
