/* names.c: the name -> value id hash map the loader resolves every tensor name through. */
#include <string.h>

#include "pb.h"

static uint64_t hash(const char *s) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

osc_status osc_names_init(osc_names *m, osc_allocator *a, size_t max_keys, const char *what,
                          osc_err *err) {
    memset(m, 0, sizeof *m);
    m->a = a;
    if (max_keys > INT32_MAX / 2)
        return osc_fail(err, OSC_ERR_LIMIT, "%s: %zu names exceed the limit of %d", what,
                        max_keys, INT32_MAX / 2);
    size_t cap = 16;
    while (cap < 2 * max_keys) cap *= 2;
    m->cap = cap;
    m->max = (int32_t)max_keys;
    m->slots = osc_malloc(a, cap * sizeof *m->slots);
    m->keys = osc_malloc(a, (max_keys ? max_keys : 1) * sizeof *m->keys);
    if (!m->slots || !m->keys) {
        size_t need = cap * sizeof *m->slots + max_keys * sizeof *m->keys;
        osc_names_free(m);
        return osc_nomem(err, a, need, what);
    }
    memset(m->slots, 0xff, cap * sizeof *m->slots); /* every slot -1 */
    return OSC_OK;
}

/* Slot index where s is or would go. */
static size_t probe(const osc_names *m, const char *s) {
    size_t mask = m->cap - 1, i = (size_t)hash(s) & mask;
    while (m->slots[i] >= 0 && strcmp(m->keys[m->slots[i]], s) != 0) i = (i + 1) & mask;
    return i;
}

int32_t osc_names_find(const osc_names *m, const char *s) {
    return m->cap ? m->slots[probe(m, s)] : -1;
}

int32_t osc_names_add(osc_names *m, const char *s, bool *added) {
    *added = false;
    if (!m->cap) return -1;
    size_t i = probe(m, s);
    if (m->slots[i] >= 0) return m->slots[i];
    if (m->n >= m->max) return -1;
    m->keys[m->n] = s;
    m->slots[i] = m->n;
    *added = true;
    return m->n++;
}

void osc_names_free(osc_names *m) {
    if (m->slots) osc_free(m->a, m->slots, m->cap * sizeof *m->slots);
    if (m->keys) osc_free(m->a, m->keys, (m->max ? (size_t)m->max : 1) * sizeof *m->keys);
    m->slots = NULL;
    m->keys = NULL;
    m->cap = 0;
}
