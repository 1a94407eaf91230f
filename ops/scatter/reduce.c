/* reduce.c: which scatter reductions each dtype defines, reduction names, string add. */
#include "reduce.h"

#include <stdint.h>
#include <string.h>

#include "core/dtype.h"

/* The dtypes each reduction is defined for, in OSC_RED_* order: every standard dtype, but no
 * string mul. */
static const uint64_t k_red_types[OSC_RED_COUNT] = {
    OSC_TS_STD, OSC_TS_STD, OSC_TS_STD & ~OSC_TS(OSC_STRING), OSC_TS_STD, OSC_TS_STD};

bool osc_reduction_defined(int32_t dtype, int32_t reduction) {
    return reduction >= 0 && reduction < OSC_RED_COUNT && dtype >= 0 && dtype < 64 &&
           (k_red_types[reduction] & OSC_TS(dtype)) != 0;
}

struct osc_strcat_slot {
    const char *ptr; /* a buffer this run made; NULL: an empty slot */
    size_t used;     /* the length of its newest view: only that view may grow in place */
    size_t cap;
};

void osc_strcat_init(osc_strcat *c, osc_pool *pool) { *c = (osc_strcat){.pool = pool}; }

static size_t slot_of(const osc_strcat *c, const char *p) {
    size_t h = ((uintptr_t)p >> 4) * (size_t)0x9E3779B97F4A7C15u;
    for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1))
        if (c->slots[i].ptr == p || !c->slots[i].ptr) return i;
}

/* Room for one more slot: the table doubles from the pool (the old one stays there until the
 * run's pool is reset: at most as much again). */
static bool reserve(osc_strcat *c) {
    if (2 * (c->used + 1) <= c->cap) return true;
    size_t cap = c->cap ? 2 * c->cap : 64;
    osc_strcat_slot *old = c->slots, *t = osc_pool_alloc(c->pool, cap * sizeof *t);
    if (!t) return false;
    size_t old_cap = c->cap;
    c->slots = t;
    c->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].ptr) c->slots[slot_of(c, old[i].ptr)] = old[i];
    return true;
}

bool osc_strcat_append(osc_strcat *c, osc_string *d, osc_string s) {
    if (s.len == 0) return true;
    if (s.len > SIZE_MAX / 4 || d->len > SIZE_MAX / 4 - s.len) return false;
    const size_t need = d->len + s.len;
    osc_strcat_slot *own = NULL;
    if (c->cap && d->len) {
        osc_strcat_slot *sl = &c->slots[slot_of(c, d->ptr)];
        if (sl->ptr == d->ptr && sl->used == d->len) own = sl;
    }
    if (own && need <= own->cap) { /* the newest view of a buffer of ours: grow in place */
        memcpy((char *)d->ptr + d->len, s.ptr, s.len);
        own->used = need;
        d->len = need;
        return true;
    }
    if (!reserve(c)) return false;
    size_t cap = own ? 2 * own->cap : need;
    if (cap < need) cap = need;
    if (cap < 16) cap = 16;
    char *buf = osc_pool_alloc(c->pool, cap);
    if (!buf) return false;
    if (d->len) memcpy(buf, d->ptr, d->len);
    memcpy(buf + d->len, s.ptr, s.len);
    c->slots[slot_of(c, buf)] = (osc_strcat_slot){buf, need, cap};
    c->used++;
    d->ptr = buf;
    d->len = need;
    return true;
}

static const char *const k_red_names[OSC_RED_COUNT] = {"none", "add", "mul", "max", "min"};

const char *osc_reduction_name(int32_t reduction) {
    return (reduction >= 0 && reduction < OSC_RED_COUNT) ? k_red_names[reduction] : "?";
}

int32_t osc_reduction_parse(const char *s) {
    for (int32_t r = 0; r < OSC_RED_COUNT; r++)
        if (strcmp(s, k_red_names[r]) == 0) return r;
    return -1;
}

osc_status osc_attr_reduction(osc_kctx *k, const osc_node *node, unsigned allowed_mask,
                              int32_t *out) {
    const char *s;
    *out = OSC_RED_NONE;
    if (allowed_mask == 0) {
        if (osc_node_attr(node, "reduction"))
            return osc_kfail(k, OSC_ERR_MODEL,
                             "attribute 'reduction' does not exist before opset 16");
        return OSC_OK;
    }
    osc_status st = osc_attr_str(k, node, "reduction", "none", &s);
    if (st) return st;
    int32_t r = osc_reduction_parse(s);
    if (r < 0 || !(allowed_mask & (1u << r))) {
        char allowed[64] = "";
        for (int32_t i = 0; i < OSC_RED_COUNT; i++) {
            if (!(allowed_mask & (1u << i))) continue;
            if (allowed[0]) strcat(allowed, ", ");
            strcat(allowed, osc_reduction_name(i));
        }
        return osc_kfail(k, r < 0 ? OSC_ERR_MODEL : OSC_ERR_UNSUPPORTED,
                         "reduction '%.64s' is %s; this version allows: %s", s,
                         r < 0 ? "unknown" : "not allowed in this version", allowed);
    }
    *out = r;
    return OSC_OK;
}
