/* pool_window.c: MaxPool (with its Indices), AveragePool and LpPool over 1 to OSC_POOL_MAX_ND
 * spatial axes. Each output element's window is, per axis, the taps t in [lo, hi) that land in
 * the input (start + t * dilation in [0, size)), computed once per output element and axis; the
 * taps are then read in row-major order. Max keeps the first largest value, NaN never one (its
 * Indices: X's flat position, row-major, or column-major over the spatial axes with
 * storage_order 1; the first tap when every value is NaN or the lowest).
 * Average divides by the taps in the input, or with count_include_pad by those in the input and
 * its explicit (or auto) pads, never the ceil_mode overhang. LpPool: (sum |x|^p)^(1/p). Sums in
 * the compute type (float for float16/bfloat16, rounded once per output element). */
#include <math.h>
#include <string.h>

#include "ops/norm/norm_common.h"
#include "pool.h"

OSC_KERNEL_DECLARE(osc_wpool)

/* What the typed loops read: the geometry, strides and, per output element, its window. */
typedef struct pool_run {
    const osc_pl_params *p;
    const osc_pl_geom *g;
    int64_t planes, in_plane, out_plane;
    int64_t istride[OSC_POOL_MAX_ND]; /* element strides of the spatial axes in a plane */
    int64_t *idx;                     /* MaxPool's Indices, or NULL */
} pool_run;

/* One output element's window along each axis: its first input position, the taps in the
 * input [lo, hi) and, for count_include_pad, the taps in the padded input. */
typedef struct pool_win {
    int64_t start[OSC_POOL_MAX_ND], lo[OSC_POOL_MAX_ND], hi[OSC_POOL_MAX_ND];
    int64_t padded[OSC_POOL_MAX_ND];
} pool_win;

/* ceil(a / b) for a >= 0, b >= 1, without overflow */
static inline int64_t cdiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/* Axis d of the window of output position o; a window inside the input needs no division. */
static inline void axis_window(const pool_run *r, int32_t d, int64_t o, pool_win *w) {
    const osc_pl_params *p = r->p;
    const int64_t dil = p->dilations[d], k = p->kernel[d], in = r->g->in[d];
    const int64_t start = o * p->strides[d] - r->g->pb[d];
    w->start[d] = start;
    if (start >= 0 && start + (k - 1) * dil < in) {
        w->lo[d] = 0;
        w->hi[d] = w->padded[d] = k;
        return;
    }
    int64_t lo = start < 0 ? cdiv(-start, dil) : 0, hi = in > start ? cdiv(in - start, dil) : 0;
    int64_t pad_end = in + r->g->pe[d] - start; /* > 0 unless ceil_mode overhangs */
    w->lo[d] = lo < k ? lo : k;
    w->hi[d] = hi < k ? hi : k;
    if (w->hi[d] < w->lo[d]) w->hi[d] = w->lo[d];
    w->padded[d] = pad_end <= 0 ? 0 : cdiv(pad_end, dil) < k ? cdiv(pad_end, dil) : k;
}

/* X's flat position of the tap at plane offset off (row-major), as Indices holds it. */
static int64_t index_of(const pool_run *r, int64_t plane, int64_t off) {
    if (!r->p->storage_order) return plane * r->in_plane + off;
    int64_t pos = 0, cs = 1; /* column-major: the first spatial axis fastest */
    for (int32_t d = 0; d < r->g->nd; d++) {
        pos += off / r->istride[d] % r->g->in[d] * cs;
        cs *= r->g->in[d];
    }
    return plane * r->in_plane + pos;
}

/* The typed loop: every plane (n, c), every output element in row-major order; the taps of
 * axes 0..nd-2 by an odometer, those of the last axis in the innermost loop. */
#define POOL_LOOP(E, T, CLS)                                                                  \
    static void pool_##E(const pool_run *r, const void *xv, void *yv) {                      \
        typedef OSC_PL_CT_##CLS(T) ct;                                                        \
        const osc_pl_params *p = r->p;                                                      \
        const int32_t nd = r->g->nd, last = nd - 1;                                           \
        const int64_t dl = p->dilations[last];                                                \
        const T *x = xv;                                                                      \
        T *y = yv;                                                                            \
        int64_t o[OSC_POOL_MAX_ND] = {0}, t[OSC_POOL_MAX_ND];                                 \
        pool_win w;                                                                           \
        for (int32_t d = 0; d < nd; d++) axis_window(r, d, 0, &w);                            \
        for (int64_t pl = 0, j = 0; pl < r->planes; pl++) {                                   \
            const T *xp = x + pl * r->in_plane;                                               \
            for (int64_t e = 0; e < r->out_plane; e++, j++) {                                 \
                bool empty = false;                                                           \
                int64_t base = 0, taps = 1, padded = 1;                                       \
                for (int32_t d = 0; d < nd; d++) {                                            \
                    empty = empty || w.lo[d] == w.hi[d];                                      \
                    t[d] = w.lo[d];                                                           \
                    taps *= w.hi[d] - w.lo[d];                                                \
                    padded *= w.padded[d];                                                    \
                    if (d < last) base += (w.start[d] + w.lo[d] * p->dilations[d]) *          \
                                          r->istride[d];                                      \
                }                                                                             \
                ct acc = p->op == OSC_POOL_MAX ? OSC_PL_LOWEST_##CLS(T) : (ct)0;              \
                int64_t best = -1;                                                            \
                while (!empty) {                                                              \
                    const T *row = xp + base + w.start[last];                                 \
                    const int64_t lo = w.lo[last], hi = w.hi[last];                           \
                    if (p->op == OSC_POOL_MAX && r->idx) {                                    \
                        if (best < 0) best = base + w.start[last] + lo * dl;                  \
                        for (int64_t u = lo; u < hi; u++) {                                   \
                            const ct v = (ct)OSC_PL_WIDEN_##CLS(row[u * dl]);                 \
                            if (v > acc) {                                                    \
                                acc = v;                                                      \
                                best = base + w.start[last] + u * dl;                         \
                            }                                                                 \
                        }                                                                     \
                    } else if (p->op == OSC_POOL_MAX) {                                       \
                        for (int64_t u = lo; u < hi; u++) {                                   \
                            const ct v = (ct)OSC_PL_WIDEN_##CLS(row[u * dl]);                 \
                            acc = v > acc ? v : acc;                                          \
                        }                                                                     \
                    } else if (p->op == OSC_POOL_AVG || p->p == 1) {                          \
                        for (int64_t u = lo; u < hi; u++) {                                   \
                            const ct v = (ct)OSC_PL_WIDEN_##CLS(row[u * dl]);                 \
                            acc += p->op == OSC_POOL_AVG ? v : OSC_PL_ABS_##CLS(v);            \
                        }                                                                     \
                    } else if (p->p == 2) {                                                   \
                        for (int64_t u = lo; u < hi; u++) {                                   \
                            const ct v = (ct)OSC_PL_WIDEN_##CLS(row[u * dl]);                 \
                            acc += v * v;                                                     \
                        }                                                                     \
                    } else {                                                                  \
                        for (int64_t u = lo; u < hi; u++)                                     \
                            acc += (ct)pow(fabs((double)OSC_PL_WIDEN_##CLS(row[u * dl])),     \
                                           p->p);                                             \
                    }                                                                         \
                    int32_t d = last - 1; /* the next tap of the outer axes */                \
                    for (; d >= 0; d--) {                                                     \
                        base += p->dilations[d] * r->istride[d];                              \
                        if (++t[d] < w.hi[d]) break;                                          \
                        base -= (w.hi[d] - w.lo[d]) * p->dilations[d] * r->istride[d];        \
                        t[d] = w.lo[d];                                                       \
                    }                                                                         \
                    if (d < 0) break;                                                         \
                }                                                                             \
                if (p->op == OSC_POOL_AVG)                                                    \
                    acc = acc / (ct)(p->count_include_pad ? padded : taps);                   \
                else if (p->op == OSC_POOL_LP)                                                \
                    acc = p->p == 1 ? acc : p->p == 2 ? (ct)sqrt((double)acc)                 \
                                                      : (ct)pow((double)acc, 1.0 / p->p);     \
                y[j] = OSC_PL_NARROW_##CLS(T, acc);                                           \
                if (r->idx) r->idx[j] = best < 0 ? -1 : index_of(r, pl, best);                \
                for (int32_t d = last; d >= 0; d--) { /* the next output element */           \
                    if (++o[d] < r->g->out[d]) {                                              \
                        axis_window(r, d, o[d], &w);                                          \
                        break;                                                                \
                    }                                                                         \
                    o[d] = 0;                                                                 \
                    axis_window(r, d, 0, &w);                                                 \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    }
OSC_POOL_TYPES(POOL_LOOP)
typedef void (*pool_loop)(const pool_run *r, const void *x, void *y);
#define POOL_ENTRY(E, T, CLS) [E] = pool_##E,
static const pool_loop k_loops[OSC_DTYPE_COUNT] = {OSC_POOL_TYPES(POOL_ENTRY)};

osc_status osc_wpool_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    osc_pl_geom g;
    osc_tensor want;
    osc_status st = osc_pl_geometry(k, k->params, in, n_in, &g, &want);
    st = osc_infer_out0(k, st, &want, out, n_out);
    if (!st && n_out > 1) {
        osc_same_shape(&out[1], &want);
        out[1].dtype = OSC_INT64;
    }
    return st;
}

osc_status osc_wpool_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    const osc_pl_params *p = k->params;
    osc_pl_geom g;
    osc_tensor want[2];
    osc_status st = osc_pl_geometry(k, p, in, n_in, &g, &want[0]);
    if (!st) st = osc_check_buffer(k, "input", 0, "X", in[0]);
    if (!st) st = osc_nc_check_out(k, out, n_out, 0, "Y", &want[0]);
    if (!st && n_out > 1) {
        want[1] = want[0];
        want[1].dtype = OSC_INT64;
        st = osc_nc_check_out(k, out, n_out, 1, "Indices", &want[1]);
    }
    if (st || osc_tensor_count(&want[0]) == 0) return st;
    const osc_tensor *x = in[0];
    pool_run r = {.p = p, .g = &g, .idx = n_out > 1 ? out[1].data : NULL};
    r.planes = x->dims[0] * x->dims[1];
    r.in_plane = osc_nc_span(x, 2, x->rank);
    r.out_plane = osc_nc_span(&want[0], 2, want[0].rank);
    int64_t stride = 1;
    for (int32_t d = g.nd - 1; d >= 0; d--) {
        r.istride[d] = stride;
        stride *= g.in[d];
    }
    k_loops[x->dtype](&r, x->data, out[0].data);
    return OSC_OK;
}
