/* place.c: the greedy arena placement (osc_plan_place) and its validity oracle (osc_plan_valid). */
#include <string.h>

#include "model.h"

static uint64_t align_up(uint64_t x) { return (x + OSC_ALIGN - 1) & ~(uint64_t)(OSC_ALIGN - 1); }

static bool live_together(const int32_t *first, const int32_t *last, int32_t a, int32_t b) {
    return first[a] <= last[b] && first[b] <= last[a];
}

/* Bigger buffers first, then earlier producers: a stable merge sort of buffer ids. */
static bool before(const uint64_t *sizes, const int32_t *first, int32_t a, int32_t b) {
    if (sizes[a] != sizes[b]) return sizes[a] > sizes[b];
    if (first[a] != first[b]) return first[a] < first[b];
    return a < b;
}

static void sort_ids(int32_t n, int32_t *ids, int32_t *tmp, const uint64_t *sizes,
                     const int32_t *first) {
    for (int32_t w = 1; w < n; w *= 2) {
        for (int32_t lo = 0; lo < n; lo += 2 * w) {
            int32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int32_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                tmp[o++] = before(sizes, first, ids[j], ids[i]) ? ids[j++] : ids[i++];
            while (i < mid) tmp[o++] = ids[i++];
            while (j < hi) tmp[o++] = ids[j++];
        }
        memcpy(ids, tmp, (size_t)n * sizeof *ids);
    }
}

uint64_t osc_plan_place(int32_t n, const uint64_t *sizes, const int32_t *first,
                        const int32_t *last, uint64_t *offsets, int32_t *scratch) {
    int32_t *order = scratch, *tmp = scratch + n, *near = scratch + 2 * (size_t)n;
    uint64_t total = 0;
    for (int32_t i = 0; i < n; i++) order[i] = i;
    sort_ids(n, order, tmp, sizes, first);
    for (int32_t p = 0; p < n; p++) {
        int32_t b = order[p], k = 0;
        /* placed buffers alive at the same time, kept sorted by offset */
        for (int32_t q = 0; q < p; q++) {
            int32_t c = order[q];
            if (sizes[c] == 0 || !live_together(first, last, b, c)) continue;
            int32_t at = k++;
            while (at > 0 && offsets[near[at - 1]] > offsets[c]) {
                near[at] = near[at - 1];
                at--;
            }
            near[at] = c;
        }
        uint64_t off = 0;
        for (int32_t q = 0; q < k; q++) {
            int32_t c = near[q];
            if (off + sizes[b] <= offsets[c]) break; /* fits in the gap before c */
            uint64_t end = align_up(offsets[c] + sizes[c]);
            if (end > off) off = end;
        }
        offsets[b] = off;
        if (off + sizes[b] > total) total = off + sizes[b];
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
