/* place.c: the arena placement (osc_plan_place) and its validity oracle (osc_plan_valid).
 *
 * The placer sweeps the buffers in the order they are produced (by `first`; at one node the
 * bigger first) and puts each at the lowest offset where it overlaps none of the buffers alive
 * at that moment (first fit); a buffer leaves the live set once the sweep passes its `last`.
 * The live set is a treap keyed by offset; each block records the free bytes between its
 * predecessor's (aligned) end and its own offset, and each subtree the largest such gap, so the
 * lowest gap that fits is found in one descent. Every step is O(log n) expected: the whole plan
 * is O(n log n) time and O(n) scratch, whatever the lifetimes (the earlier placer compared each
 * buffer with every buffer placed before it, O(n^2) to O(n^3) on graphs whose values are all
 * alive at once). The treap's priorities are a hash of the buffer id with a seed taken from the
 * scratch's address: the shape of the tree, never the plan, depends on them, so a model cannot
 * pick the ids that would make the tree deep.
 *
 * Plans of at most OSC_PLAN_BY_SIZE_MAX buffers taking space are also made the earlier way,
 * biggest first (O(n^2) in at most 4096 buffers), and the smaller plan is kept: on every model
 * of the tests and benchmarks that gives the arena of earlier versions byte for byte. */
#include <string.h>

#include "model.h"

static uint64_t align_up(uint64_t x) { return (x + OSC_ALIGN - 1) & ~(uint64_t)(OSC_ALIGN - 1); }

static bool live_together(const int32_t *first, const int32_t *last, int32_t a, int32_t b) {
    return first[a] <= last[b] && first[b] <= last[a];
}

/* ---- stable merge sort of buffer ids ---- */

typedef struct order_by {
    const uint64_t *sizes;
    const int32_t *first, *last;
    bool by_last; /* by last, then id */
    bool by_size; /* bigger first, then by first, then id; else by first, bigger first, id */
} order_by;

static bool before(const order_by *o, int32_t a, int32_t b) {
    if (o->by_last) return o->last[a] != o->last[b] ? o->last[a] < o->last[b] : a < b;
    if (o->by_size && o->sizes[a] != o->sizes[b]) return o->sizes[a] > o->sizes[b];
    if (o->first[a] != o->first[b]) return o->first[a] < o->first[b];
    if (o->sizes[a] != o->sizes[b]) return o->sizes[a] > o->sizes[b];
    return a < b;
}

static void sort_ids(int32_t n, int32_t *ids, int32_t *tmp, const order_by *o) {
    for (int32_t w = 1; w < n; w *= 2) {
        for (int32_t lo = 0; lo < n; lo += 2 * w) {
            int32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = before(o, ids[j], ids[i]) ? ids[j++] : ids[i++];
            while (i < mid) tmp[k++] = ids[i++];
            while (j < hi) tmp[k++] = ids[j++];
        }
        memcpy(ids, tmp, (size_t)n * sizeof *ids);
    }
}

/* ---- the live set: a treap of blocks keyed by offset ---- */

typedef struct live {
    int32_t *l, *r;          /* children, -1 for none */
    uint64_t *gap;           /* free bytes between the predecessor's aligned end and this block */
    uint64_t *maxgap;        /* the largest gap in the subtree */
    const uint64_t *off;     /* the blocks' offsets (the plan being made) */
    const uint64_t *sizes;
    uint64_t seed;
} live;

static uint64_t prio(const live *t, int32_t x) {
    uint64_t z = (uint64_t)(uint32_t)x + t->seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void pull(live *t, int32_t x) {
    uint64_t m = t->gap[x];
    if (t->l[x] >= 0 && t->maxgap[t->l[x]] > m) m = t->maxgap[t->l[x]];
    if (t->r[x] >= 0 && t->maxgap[t->r[x]] > m) m = t->maxgap[t->r[x]];
    t->maxgap[x] = m;
}

/* Splits x into the blocks with offset < key (*a) and the others (*b). */
static void split(live *t, int32_t x, uint64_t key, int32_t *a, int32_t *b) {
    if (x < 0) {
        *a = *b = -1;
    } else if (t->off[x] < key) {
        split(t, t->r[x], key, &t->r[x], b);
        pull(t, x);
        *a = x;
    } else {
        split(t, t->l[x], key, a, &t->l[x]);
        pull(t, x);
        *b = x;
    }
}

/* Every offset in a is below every offset in b. */
static int32_t merge(live *t, int32_t a, int32_t b) {
    if (a < 0) return b;
    if (b < 0) return a;
    if (prio(t, a) > prio(t, b)) {
        t->r[a] = merge(t, t->r[a], b);
        pull(t, a);
        return a;
    }
    t->l[b] = merge(t, a, t->l[b]);
    pull(t, b);
    return b;
}

/* Adds delta (may wrap: a decrease) to the gap of the block at offset key and refreshes the
 * maxima on its path. */
static void add_gap(live *t, int32_t x, uint64_t key, uint64_t delta) {
    if (x < 0) return;
    if (key < t->off[x]) add_gap(t, t->l[x], key, delta);
    else if (key > t->off[x]) add_gap(t, t->r[x], key, delta);
    else t->gap[x] += delta;
    pull(t, x);
}

/* The first block (lowest offset) whose gap holds `need` bytes, or -1. */
static int32_t first_fit(const live *t, int32_t x, uint64_t need) {
    if (x < 0 || t->maxgap[x] < need) return -1;
    for (;;) {
        if (t->l[x] >= 0 && t->maxgap[t->l[x]] >= need) x = t->l[x];
        else if (t->gap[x] >= need) return x;
        else x = t->r[x];
    }
}

/* The block with the smallest offset above key, or -1. */
static int32_t successor(const live *t, int32_t x, uint64_t key) {
    int32_t s = -1;
    while (x >= 0) {
        if (t->off[x] > key) {
            s = x;
            x = t->l[x];
        } else {
            x = t->r[x];
        }
    }
    return s;
}

/* The aligned end of the highest block, 0 when empty. */
static uint64_t top(const live *t, int32_t x) {
    if (x < 0) return 0;
    while (t->r[x] >= 0) x = t->r[x];
    return align_up(t->off[x] + t->sizes[x]);
}

/* The sweep: offsets of every buffer, the arena size (unaligned) as the result. */
static uint64_t sweep(int32_t n, const uint64_t *sizes, const int32_t *first,
                      const int32_t *last, uint64_t *offsets, uint64_t *scratch) {
    size_t nn = (size_t)n;
    int32_t *order = (int32_t *)scratch, *by_last = order + nn, *l = by_last + nn, *r = l + nn;
    uint64_t *gap = scratch + 2 * nn, *maxgap = gap + nn;
    int32_t *tmp = l; /* l and r are free until the sweep starts */
    uint8_t *placed = (uint8_t *)(maxgap + nn); /* n bytes */
    for (int32_t i = 0; i < n; i++) order[i] = by_last[i] = i;
    order_by o = {sizes, first, last, false, false};
    sort_ids(n, order, tmp, &o);
    o.by_last = true;
    sort_ids(n, by_last, tmp, &o);
    live t = {l, r, gap, maxgap, offsets, sizes, (uint64_t)(uintptr_t)scratch ^ (uint64_t)nn};
    memset(placed, 0, nn);
    int32_t root = -1, freed = 0;
    uint64_t total = 0;
    for (int32_t p = 0; p < n; p++) {
        int32_t b = order[p];
        /* blocks dead before b is made leave the live set */
        for (; freed < n && last[by_last[freed]] < first[b]; freed++) {
            int32_t c = by_last[freed];
            if (!placed[c]) continue; /* zero-size, or a lifetime ending before it starts */
            placed[c] = 0;
            uint64_t key = offsets[c];
            int32_t s = successor(&t, root, key);
            if (s >= 0) add_gap(&t, root, offsets[s], gap[c] + (align_up(key + sizes[c]) - key));
            int32_t a, mid, z;
            split(&t, root, key, &a, &mid);
            split(&t, mid, key + 1, &mid, &z);
            root = merge(&t, a, z);
        }
        offsets[b] = 0;
        if (!sizes[b]) continue;
        int32_t c = first_fit(&t, root, sizes[b]);
        if (c >= 0) {
            offsets[b] = offsets[c] - gap[c];
            add_gap(&t, root, offsets[c], (uint64_t)0 - (align_up(offsets[b] + sizes[b]) -
                                                         offsets[b]));
        } else {
            offsets[b] = top(&t, root);
        }
        l[b] = r[b] = -1;
        gap[b] = maxgap[b] = 0;
        int32_t a, z;
        split(&t, root, offsets[b], &a, &z);
        root = merge(&t, merge(&t, a, b), z);
        placed[b] = 1;
        if (offsets[b] + sizes[b] > total) total = offsets[b] + sizes[b];
    }
    return total;
}

/* Greedy by size (the placer of earlier versions, kept for small plans, where it is cheap and
 * sometimes tighter): biggest first, each at the lowest offset clear of every placed buffer
 * alive at the same time, found by walking the placed buffers in offset order. O(n^2). */
static uint64_t by_size(int32_t n, const uint64_t *sizes, const int32_t *first,
                        const int32_t *last, uint64_t *offsets, uint64_t *scratch) {
    size_t nn = (size_t)n;
    int32_t *order = (int32_t *)scratch, *tmp = order + nn, *next = tmp + nn, head = -1;
    for (int32_t i = 0; i < n; i++) order[i] = i;
    order_by o = {sizes, first, last, false, true};
    sort_ids(n, order, tmp, &o);
    uint64_t total = 0;
    for (int32_t p = 0; p < n; p++) {
        int32_t b = order[p], prev = -1, at = -1;
        uint64_t off = 0;
        offsets[b] = 0;
        if (!sizes[b]) continue;
        for (int32_t c = head; c >= 0; c = next[c]) {
            if (!live_together(first, last, b, c)) continue;
            if (off + sizes[b] <= offsets[c]) break; /* fits in the gap before c */
            uint64_t end = align_up(offsets[c] + sizes[c]);
            if (end > off) off = end;
        }
        offsets[b] = off;
        for (int32_t c = head; c >= 0 && offsets[c] <= off; c = next[c]) prev = c;
        at = prev < 0 ? head : next[prev];
        next[b] = at;
        if (prev < 0) head = b;
        else next[prev] = b;
        if (off + sizes[b] > total) total = off + sizes[b];
    }
    return total;
}

uint64_t osc_plan_place(int32_t n, const uint64_t *sizes, const int32_t *first,
                        const int32_t *last, uint64_t *offsets, uint64_t *scratch) {
    if (n <= 0) return 0;
    uint64_t total = sweep(n, sizes, first, last, offsets, scratch);
    int32_t placed = 0;
    for (int32_t i = 0; i < n; i++) placed += sizes[i] != 0;
    if (placed <= OSC_PLAN_BY_SIZE_MAX) {
        uint64_t *alt = scratch + 5 * (size_t)n;
        uint64_t t2 = by_size(n, sizes, first, last, alt, scratch);
        if (t2 <= total) {
            memcpy(offsets, alt, (size_t)n * sizeof *offsets);
            total = t2;
        }
    }
    return align_up(total);
}

bool osc_plan_valid(int32_t n, const uint64_t *sizes, const int32_t *first, const int32_t *last,
                    const uint64_t *offsets) {
    for (int32_t a = 0; a < n; a++) {
        if (offsets[a] % OSC_ALIGN) return false;
        for (int32_t b = a + 1; b < n; b++) {
            if (!sizes[a] || !sizes[b] || !live_together(first, last, a, b)) continue;
            if (offsets[a] < offsets[b] + sizes[b] && offsets[b] < offsets[a] + sizes[a])
                return false;
        }
    }
    return true;
}
