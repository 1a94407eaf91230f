/* fused_group.c: a fused scatter's edges grouped by destination row (osc_fs_group_rows,
 * fused_scatter.h): a stable counting sort of the edge numbers by their checked destination,
 * into the CSR the row loop (fused_rows.c) walks, the rows split among threads by edge count.
 *
 * On `parts` threads, each takes an equal range of edges: (0) it counts its edges per row in a
 * histogram of its own; (1) each sums a range of rows over every histogram; (2) each turns its
 * rows' counts into start positions, thread u's edges of a row after those of threads 0..u-1;
 * (3) each places its edges at their row's position in its histogram, in edge order. Edges of
 * a row thus stay in edge order whatever the thread count. */
#include <string.h>

#include "fused.h"
#include "fused_group.h"

#define GP_AHEAD 16 /* edges between the fetch of an edge's place in the list and its write */

typedef struct group_job {
    const osc_fs_split *s;
    int32_t phase;
    uint32_t *hist;   /* [parts][N]: counts, then each thread's next position per row */
    uint32_t *row_at; /* [N + 1] */
    uint32_t *list;   /* [E] */
    int64_t sum[OSC_MAX_THREADS]; /* phase 1: the edges of each thread's rows */
} group_job;

static void group_part(void *ctx, int32_t t, int32_t parts) {
    group_job *g = ctx;
    const osc_fs_split *s = g->s;
    const int64_t N = s->n_rows, ds = s->dst_stride;
    int64_t e0, e1, r0, r1;
    osc_par_range(s->edges, 1, t, parts, &e0, &e1);
    osc_par_range(N, 16, t, parts, &r0, &r1); /* 16 rows: a cache line of counts */
    uint32_t *h = g->hist + (size_t)t * (size_t)N;
    osc_ixc c = osc_ixc_of(&s->dst);
    switch (g->phase) {
    case 0:
        memset(h, 0, (size_t)N * sizeof *h);
        for (int64_t e = e0; e < e1; e++) h[osc_ixc_row(&c, e * ds, N)]++;
        break;
    case 1: {
        int64_t n = 0;
        for (int32_t u = 0; u < parts; u++) {
            const uint32_t *hu = g->hist + (size_t)u * (size_t)N;
            for (int64_t d = r0; d < r1; d++) n += hu[d];
        }
        g->sum[t] = n;
        break;
    }
    case 2: {
        uint32_t at = (uint32_t)g->sum[t]; /* (phase 1's sums made starts by the caller) */
        for (int64_t d = r0; d < r1; d++) {
            g->row_at[d] = at;
            for (int32_t u = 0; u < parts; u++) {
                uint32_t *x = &g->hist[(size_t)u * (size_t)N + (size_t)d];
                const uint32_t n = *x;
                *x = at;
                at += n;
            }
        }
        break;
    }
    default: { /* each edge's place is a random write: fetched for writing GP_AHEAD edges early */
        osc_ixc a = osc_ixc_of(&s->dst);
        int64_t e = e0;
        for (; e + GP_AHEAD < e1; e++) {
            OSC_PREFETCH(&g->list[h[osc_ixc_row(&a, (e + GP_AHEAD) * ds, N)]], 1);
            g->list[h[osc_ixc_row(&c, e * ds, N)]++] = (uint32_t)e;
        }
        for (; e < e1; e++) g->list[h[osc_ixc_row(&c, e * ds, N)]++] = (uint32_t)e;
        break;
    }
    }
}

bool osc_fs_group_rows(osc_fs_split *s, osc_tpool *pool, osc_scratch *scratch) {
    const int32_t parts = osc_tpool_size(pool);
    const int64_t N = s->n_rows, E = s->edges;
    if (!scratch || N < 1 || E < 0 || (uint64_t)E > UINT32_MAX ||
        (uint64_t)N > (SIZE_MAX / sizeof(uint32_t) - (uint64_t)E - 1) / ((uint64_t)parts + 1))
        return false;
    const size_t words = (size_t)E + (size_t)N + 1 + (size_t)parts * (size_t)N;
    uint32_t *mem = osc_scratch_get(scratch, words * sizeof(uint32_t));
    if (!mem) return false;
    group_job g = {.s = s, .list = mem, .row_at = mem + E, .hist = mem + E + N + 1};
    osc_tpool_run(pool, group_part, &g);
    if (parts > 1) {
        g.phase = 1;
        osc_tpool_run(pool, group_part, &g);
    }
    int64_t at = 0; /* each thread's rows start after the edges of the rows before */
    for (int32_t t = 0; t < parts; t++) {
        const int64_t n = g.sum[t];
        g.sum[t] = at;
        at += n;
    }
    g.phase = 2;
    osc_tpool_run(pool, group_part, &g);
    g.row_at[N] = (uint32_t)E;
    g.phase = 3;
    osc_tpool_run(pool, group_part, &g);
    /* part t: the rows from the first whose edges start at or after E * t / parts */
    s->bounds[0] = s->at[0] = 0;
    for (int32_t t = 1; t < parts; t++) {
        const int64_t want = E * t / parts;
        int64_t a = s->bounds[t - 1], b = N; /* the first row d in [a, b] with row_at[d] >= want */
        while (a < b) {
            const int64_t m = a + (b - a) / 2;
            if (g.row_at[m] >= want) b = m;
            else a = m + 1;
        }
        s->bounds[t] = a;
        s->at[t] = g.row_at[a];
    }
    s->bounds[parts] = N;
    s->at[parts] = E;
    s->list = g.list;
    s->row_at = g.row_at;
    return true;
}
