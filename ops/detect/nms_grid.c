/* nms_grid.c: the kept boxes of one NonMaxSuppression selection in a uniform grid (the contract
 * is in nms_grid.h). A kept box that suppresses a candidate overlaps it strictly on both axes,
 * so on each axis both contain the larger of their two lows; the cell of a coordinate is a
 * non-decreasing function of it, so that point's cell lies in both boxes' cell ranges: the
 * kept box is listed in a cell the candidate looks at. */
#include "nms_grid.h"

#include <string.h>

/* The cell of coordinate v along axis a: non-decreasing in v, clamped to [0, n - 1]. */
static int64_t cell_of(const nms_grid *g, int a, float v) {
    const double t = ((double)v - g->g0[a]) * g->inv[a];
    if (!(t > 0)) return 0;
    return t < (double)(g->n[a] - 1) ? (int64_t)t : g->n[a] - 1;
}

/* The cells b touches: [c0[a], c1[a]] per axis; their count. */
static int64_t span_of(const nms_grid *g, const nms_box *b, int64_t *c0, int64_t *c1) {
    int64_t count = 1;
    for (int a = 0; a < 2; a++) {
        c0[a] = cell_of(g, a, b->lo[a]);
        c1[a] = cell_of(g, a, b->hi[a]);
        count *= c1[a] - c0[a] + 1;
    }
    return count;
}

bool osc_nms_grid_init(nms_grid *g, osc_allocator *a, const nms_box *cand, int64_t m) {
    memset(g, 0, sizeof *g);
    g->a = a;
    double lo[2] = {cand[0].lo[0], cand[0].lo[1]}, hi[2] = {cand[0].hi[0], cand[0].hi[1]};
    double ext[2] = {0, 0};
    for (int64_t i = 0; i < m; i++)
        for (int d = 0; d < 2; d++) {
            lo[d] = cand[i].lo[d] < lo[d] ? cand[i].lo[d] : lo[d];
            hi[d] = cand[i].hi[d] > hi[d] ? cand[i].hi[d] : hi[d];
            ext[d] += (double)cand[i].hi[d] - cand[i].lo[d];
        }
    /* cells about one mean box wide, at most 2m + 16 of them in all */
    for (int d = 0; d < 2; d++) {
        const double range = hi[d] - lo[d], mean = ext[d] / (double)m;
        const double want = mean > 0 ? range / mean : 1;
        g->n[d] = want >= 4096 ? 4096 : want >= 1 ? (int64_t)want : 1;
    }
    while (g->n[0] * g->n[1] > 2 * m + 16) g->n[g->n[0] >= g->n[1] ? 0 : 1] /= 2;
    for (int d = 0; d < 2; d++) {
        const double range = hi[d] - lo[d];
        g->g0[d] = lo[d];
        g->inv[d] = range > 0 ? (double)g->n[d] / range : 0;
    }
    const int64_t cells = g->n[0] * g->n[1];
    g->head = osc_malloc(a, (size_t)cells * sizeof *g->head);
    if (!g->head) return false;
    memset(g->head, 0xff, (size_t)cells * sizeof *g->head); /* -1: empty */
    return true;
}

void osc_nms_grid_free(nms_grid *g) {
    if (g->head) osc_free(g->a, g->head, (size_t)(g->n[0] * g->n[1]) * sizeof *g->head);
    if (g->ent) osc_free(g->a, g->ent, (size_t)g->cap * 2 * sizeof *g->ent);
    if (g->wide) osc_free(g->a, g->wide, (size_t)g->cap_wide * sizeof *g->wide);
    memset(g, 0, sizeof *g);
}

/* Room for `more` ids in *v (n used of *cap, `per` int64 each); false when out of memory. */
static bool reserve(osc_allocator *a, int64_t **v, int64_t n, int64_t *cap, int64_t more,
                    int64_t per) {
    if (n + more <= *cap) return true;
    int64_t c = *cap ? *cap : 64;
    while (c < n + more) c *= 2;
    int64_t *p =
        osc_realloc(a, *v, (size_t)(*cap * per) * sizeof *p, (size_t)(c * per) * sizeof *p);
    if (!p) return false;
    *v = p, *cap = c;
    return true;
}

bool osc_nms_grid_add(nms_grid *g, const nms_box *b, int64_t id) {
    int64_t c0[2], c1[2];
    const int64_t count = span_of(g, b, c0, c1);
    if (count > OSC_NMS_GRID_SPAN) {
        if (!reserve(g->a, &g->wide, g->n_wide, &g->cap_wide, 1, 1)) return false;
        g->wide[g->n_wide++] = id;
        return true;
    }
    if (!reserve(g->a, &g->ent, g->n_ent, &g->cap, count, 2)) return false;
    for (int64_t y = c0[0]; y <= c1[0]; y++)
        for (int64_t x = c0[1]; x <= c1[1]; x++) {
            int64_t *h = &g->head[y * g->n[1] + x], *e = g->ent + 2 * g->n_ent;
            e[0] = id, e[1] = *h, *h = g->n_ent++;
        }
    return true;
}

bool osc_nms_grid_suppressed(const nms_grid *g, const nms_box *kept, int64_t nk,
                             const nms_box *b, float thr) {
    int64_t c0[2], c1[2];
    if (span_of(g, b, c0, c1) > OSC_NMS_GRID_SPAN) { /* a wide candidate: every kept box */
        for (int64_t q = 0; q < nk; q++)
            if (osc_nms_suppresses(&kept[q], b, thr)) return true;
        return false;
    }
    for (int64_t w = 0; w < g->n_wide; w++)
        if (osc_nms_suppresses(&kept[g->wide[w]], b, thr)) return true;
    for (int64_t y = c0[0]; y <= c1[0]; y++)
        for (int64_t x = c0[1]; x <= c1[1]; x++)
            for (int64_t e = g->head[y * g->n[1] + x]; e >= 0; e = g->ent[2 * e + 1])
                if (osc_nms_suppresses(&kept[g->ent[2 * e]], b, thr)) return true;
    return false;
}
