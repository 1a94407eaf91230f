/* unique_sort.h: Unique's order and equality of elements and slices, and its stable sort. */
#ifndef OSC_UNIQUE_SORT_H
#define OSC_UNIQUE_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X seen as n slices: slice j is the outer * inner elements (o * n + j) * inner + i for o in
 * [0, outer), i in [0, inner), in that (row-major) order. Without an axis, n is X's element
 * count and outer = inner = 1: each element is a slice. */
typedef struct osc_uq_view {
    const void *x;
    int32_t dtype; /* one of OSC_STD_TYPES */
    bool flat;     /* no axis: all NaNs are one value (numpy's equal_nan) */
    int64_t n, outer, inner;
} osc_uq_view;

/* Bytes of the block osc_uq_sort works in: 16 per slice along an axis; without one, where it
 * sorts (value, index) pairs, 32 per element (48 for strings and complex128); 0 when that
 * overflows size_t. */
size_t osc_uq_block_bytes(const osc_uq_view *v);

/* Leaves the slice numbers 0..n-1 sorted ascending in the block's first n int64 (the rest is
 * scratch), stably: slices that compare equal keep their order. Order (numpy's sort):
 * lexicographic over the slice's elements; numbers as usual with -0.0 equal to +0.0; NaN after
 * every number and equal to NaN; complex by (re, im), a value with a NaN part after all
 * others; strings byte-wise, a proper prefix first; bool false < true. */
void osc_uq_sort(const osc_uq_view *v, void *block);

/* True when slices a and b are one value of Unique. Without an axis: they compare equal in the
 * order above (so every NaN is one value, as numpy's unique with equal_nan). With an axis:
 * every pair of elements is == (numpy compares structured rows field by field: a slice holding
 * a NaN equals no slice, itself included). */
bool osc_uq_same(const osc_uq_view *v, int64_t a, int64_t b);

#endif
