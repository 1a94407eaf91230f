/* nms_grid.h: NonMaxSuppression's boxes, the IoU test, and the boxes kept so far for one batch
 * and class in a uniform grid, so that a candidate is compared only with the kept boxes that
 * share a cell with it (ops/detect/nms_grid.c). Internal to ops/detect/. */
#ifndef OSC_NMS_GRID_H
#define OSC_NMS_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "core/common.h"

/* A box's corners: min and max per axis (y then x), and its area. */
typedef struct nms_box {
    float lo[2], hi[2], area;
} nms_box;

/* onnxruntime's SuppressByIOU: true when the IoU of p and q is strictly above thr; never
 * unless p and q overlap on both axes (hi > lo), which the grid relies on. */
static inline bool osc_nms_suppresses(const nms_box *p, const nms_box *q, float thr) {
    float inter = 1;
    for (int a = 0; a < 2; a++) {
        const float lo = p->lo[a] > q->lo[a] ? p->lo[a] : q->lo[a];
        const float hi = p->hi[a] < q->hi[a] ? p->hi[a] : q->hi[a];
        if (hi <= lo) return false;
        inter *= hi - lo;
    }
    const float ap = p->area, aq = q->area;
    const float uni = ap + aq - inter;
    if (inter <= 0 || ap <= 0 || aq <= 0 || uni <= 0) return false;
    return inter / uni > thr;
}

/* The kept boxes (ids into the caller's array) by cell: cells along each axis over the
 * candidates' extent, about one mean box wide; a kept box is listed in every cell it touches,
 * or, when it touches more than OSC_NMS_GRID_SPAN cells, in `wide` (checked by every query). */
typedef struct nms_grid {
    osc_allocator *a;
    double g0[2], inv[2];
    int64_t n[2];
    int64_t *head;            /* per cell: its last entry, -1 when none */
    int64_t *ent, n_ent, cap; /* entries: (box id, previous entry of the cell) pairs */
    int64_t *wide, n_wide, cap_wide;
} nms_grid;
#define OSC_NMS_GRID_SPAN 16

/* Sizes the grid for the m candidate boxes (m >= 1); false when out of memory. */
bool osc_nms_grid_init(nms_grid *g, osc_allocator *a, const nms_box *cand, int64_t m);
void osc_nms_grid_free(nms_grid *g);
/* Lists kept box `id` (kept[id] is b); false when out of memory. */
bool osc_nms_grid_add(nms_grid *g, const nms_box *b, int64_t id);
/* True when one of the nk kept boxes suppresses b at thr: the same answer as testing every
 * kept box, from those sharing a cell with b (all of them when b is wide). */
bool osc_nms_grid_suppressed(const nms_grid *g, const nms_box *kept, int64_t nk,
                             const nms_box *b, float thr);

#endif
