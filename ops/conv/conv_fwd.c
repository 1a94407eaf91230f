/* conv_fwd.c: the run of Conv (1, 11, 22) and DeformConv (19, 22): per sample, group and tile of
 * output positions, Y[mg, tile] = W_group[mg, C/group * prod(k)] * cols[.., tile] through the
 * product kernel (ops/linalg/gemm_kernel.h), then the bias (and, when a rule sets prod.relu, a
 * Relu) added to the tile while it is in cache. The columns come from im2col (or, for a 1x1
 * kernel with strides 1 and no pads on float and double, are X itself); a tile holds at most
 * OSC_CONV_COL_BYTES of them, so the scratch stays small for large images. Float 2-D images on
 * AVX-512 make no columns: conv_direct.c's tiles read X in place, in the product's order, so
 * the same bits. float16 and bfloat16 are widened to float, summed in float and rounded once
 * per output element. Tiles run on the session's threads; each element of Y is one product of
 * depth C/group * prod(k) whatever the tiling or thread count, so every run gives the same
 * bits. */
#include <string.h>

#include "conv.h"
#include "ops/linalg/gemm_kernel.h"

#define OSC_CONV_COL_BYTES ((int64_t)1 << 20)
/* and a tile of Y at most this (it stays in cache for the epilogue) */
#define OSC_CONV_Y_BYTES ((int64_t)256 << 10)

typedef struct fwd_job {
    const osc_conv_geom *g;
    int32_t dt, ct;
    bool half, direct, relu, cd; /* cd: conv_direct.c runs the tiles */
    const osc_prod_bn *bn; /* bn->m NULL: none */
    size_t esz, tsz; /* bytes of a compute element, of a tensor element */
    const void *x, *w, *bias, *off, *mask, *cdw; /* cdw: what conv_direct.c shares */
    void *y;
    osc_gemm_fn fn;
    int64_t pt, tiles, jobs;
    char *scratch;
    size_t per_thread, pack_bytes, col_bytes;
} fwd_job;

/* Bias, the normalisation, Relu and (half) the narrowing of rows [0, mg) of a tile of width w
 * at y (pitch ldy), for sample n, group grp, positions from p0. */
static void epilogue(const fwd_job *j, int64_t n, int64_t grp, int64_t p0, int64_t w, void *y,
                     int64_t ldy) {
    const osc_conv_geom *g = j->g;
    const bool bn = j->bn->m, relu = j->relu && !bn; /* (bn: Relu after it) */
    for (int64_t i = 0; i < g->mg; i++) {
        const int64_t ch = grp * g->mg + i, at = (n * g->m + ch) * g->out_size + p0;
        if (j->ct == OSC_DOUBLE) {
            double *r = (double *)y + i * ldy;
            const double b = j->bias ? ((const double *)j->bias)[ch] : 0;
            for (int64_t e = 0; e < w; e++) {
                const double v = r[e] + b;
                r[e] = relu && v < 0 ? 0 : v;
            }
            if (bn) osc_prod_bn_run(OSC_DOUBLE, r, w, j->bn, ch, j->relu);
            continue;
        }
        float *r = (float *)y + i * ldy;
        const float b = j->bias ? ((const float *)j->bias)[ch] : 0;
        if (j->bias || relu)
            for (int64_t e = 0; e < w; e++) {
                const float v = r[e] + b;
                r[e] = relu && v < 0 ? 0 : v;
            }
        if (bn) osc_prod_bn_run(OSC_FLOAT, r, w, j->bn, ch, j->relu);
        if (j->half) osc_gemm_narrow(j->dt, r, (char *)j->y + (size_t)at * j->tsz, w);
    }
}

static void fwd_part(void *ctx, int32_t part, int32_t parts) {
    const fwd_job *j = ctx;
    const osc_conv_geom *g = j->g;
    int64_t j0, j1;
    osc_par_range(j->jobs, 1, part, parts, &j0, &j1);
    char *mine = j->scratch + (size_t)part * j->per_thread;
    void *pack = mine, *cols = mine + j->pack_bytes;
    float *yt = (float *)(mine + j->pack_bytes + j->col_bytes);
    const int64_t kc = g->cg * g->k_size, P = g->out_size;
    for (int64_t job = j0; job < j1; job++) {
        const int64_t t = job % j->tiles, grp = job / j->tiles % g->group;
        const int64_t n = job / j->tiles / g->group, p0 = t * j->pt;
        const int64_t w = j->pt < P - p0 ? j->pt : P - p0;
        const int64_t xch = n * g->c + grp * g->cg;
        void *y = j->half ? (void *)yt
                          : (char *)j->y + (size_t)((n * g->m + grp * g->mg) * P + p0) * j->esz;
        const int64_t ldy = j->half ? w : P;
        if (kc == 0 || g->in_size == 0) { /* no input elements (maybe not even a buffer) */
            for (int64_t i = 0; i < g->mg; i++)
                memset((char *)y + (size_t)(i * ldy) * j->esz, 0, (size_t)w * j->esz);
            epilogue(j, n, grp, p0, w, y, ldy);
            continue;
        }
        if (j->cd) {
            osc_conv_direct_run(g, (const float *)j->x + xch * g->in_size, j->cdw, grp, p0, w,
                                y, ldy, mine);
            epilogue(j, n, grp, p0, w, y, ldy);
            continue;
        }
        osc_gemm_args ga = {.m = g->mg, .n = w, .k = kc, .a = (const char *)j->w +
                            (size_t)(grp * g->mg * kc) * j->esz, .ars = kc, .acs = 1,
                            .b = cols, .brs = w, .bcs = 1, .y = y, .ldy = ldy};
        if (j->direct) {
            ga.b = (const char *)j->x + (size_t)(xch * P + p0) * j->tsz;
            ga.brs = P;
        } else if (g->variant == OSC_CONV_DEFORM) {
            osc_conv_deform_cols(g, j->dt, j->x, j->off, j->mask, n, grp, p0, w, cols);
        } else {
            osc_conv_im2col(g, j->dt, (const char *)j->x + (size_t)(xch * g->in_size) * j->tsz,
                            p0, w, cols);
        }
        j->fn(&ga, pack);
        epilogue(j, n, grp, p0, w, y, ldy);
    }
}

osc_status osc_conv_run_forward(osc_kctx *k, const osc_tensor *const *in, osc_tensor *y,
                                const osc_conv_geom *g, const osc_prod_bn *bn) {
    const osc_conv_params *p = k->params;
    const osc_tensor *x = in[0], *wt = in[1];
    const osc_tensor *b = g->has_b ? in[g->variant == OSC_CONV_DEFORM ? 3 : 2] : NULL;
    fwd_job j = {.g = g, .dt = x->dtype, .ct = osc_gemm_compute_dtype(x->dtype),
                 .relu = p->prod.relu, .bn = bn, .x = x->data, .w = wt->data,
                 .bias = b ? b->data : NULL,
                 .y = y->data};
    j.half = j.ct != j.dt;
    j.esz = osc_dtype_get(j.ct)->bits / 8;
    j.tsz = osc_dtype_get(j.dt)->bits / 8;
    j.fn = osc_gemm_get(j.ct);
    if (g->variant == OSC_CONV_DEFORM) {
        j.off = in[2]->data;
        j.mask = g->has_mask ? in[4]->data : NULL;
    }
    bool direct = !j.half && g->variant == OSC_CONV_PLAIN && g->k_size == 1;
    for (int32_t d = 0; d < g->nd; d++)
        direct = direct && g->stride[d] == 1 && g->pad[d] == 0 && g->in[d] == g->out[d];
    j.direct = direct;
    j.cd = !direct && osc_conv_direct_ok(g, j.dt);
    /* tile width: columns within OSC_CONV_COL_BYTES (the direct path makes none), the tile of Y
     * within OSC_CONV_Y_BYTES */
    const int64_t kc = g->cg * g->k_size, P = g->out_size;
    int64_t pt = j.cd ? INT64_MAX : OSC_CONV_COL_BYTES / ((kc > 0 ? kc : 1) * (int64_t)j.esz);
    if (pt > OSC_CONV_Y_BYTES / (g->mg * (int64_t)j.esz))
        pt = OSC_CONV_Y_BYTES / (g->mg * (int64_t)j.esz);
    pt = pt >= 64 ? pt / 16 * 16 : 64;
    if (j.cd) /* whole rows: fewer tiles cut short at a row's end */
        pt = pt > g->out[1] ? pt / g->out[1] * g->out[1] : pt;
    j.pt = pt < P ? pt : P;
    j.tiles = (P + j.pt - 1) / j.pt;
    j.jobs = g->n * g->group * j.tiles;
    const double work = (double)g->n * (double)g->m * (double)P * (double)kc * (double)j.esz;
    const bool par = k->tpool && j.jobs > 1 && work >= (double)OSC_PAR_MIN_BYTES;
    const int32_t parts = par ? osc_tpool_size(k->tpool) : 1;
    j.pack_bytes = OSC_CONV_R64(osc_gemm_pack_bytes(j.ct, j.pt, kc));
    j.col_bytes = direct ? 0 : OSC_CONV_R64((size_t)(kc * j.pt) * j.esz);
    const size_t yt_bytes = j.half ? OSC_CONV_R64((size_t)(g->mg * j.pt) * 4) : 0;
    j.per_thread = j.cd ? osc_conv_direct_scratch(g, j.pt) : j.pack_bytes + j.col_bytes + yt_bytes;
    /* float copies of W and B for the halves; or what the direct tiles share */
    const size_t shared = j.cd     ? osc_conv_direct_shared(g)
                          : j.half ? (size_t)(g->m * kc + g->m) * 4
                                   : 0;
    osc_gemm_mem mem;
    osc_status st = OSC_OK;
    if (j.per_thread > (SIZE_MAX - shared - 64) / (size_t)parts)
        st = osc_kfail(k, OSC_ERR_LIMIT, "the scratch of the columns needs more than 2^64 "
                       "bytes");
    /* at least one block, so that no offset is taken from a NULL base (no channels) */
    if (!st) st = osc_gemm_mem_get(k, j.per_thread * (size_t)parts + shared + 64, 0, "", &mem);
    if (st) return st;
    /* Validation is complete: from here on the output is written. */
    j.scratch = mem.p;
    if (j.cd) {
        j.cdw = j.scratch + j.per_thread * (size_t)parts;
        osc_conv_direct_pack(g, wt->data, (void *)j.cdw);
    }
    if (j.half) {
        float *wf = (float *)(j.scratch + j.per_thread * (size_t)parts);
        osc_gemm_widen(j.dt, wt->data, wf, g->m * kc);
        j.w = wf;
        if (b) {
            osc_gemm_widen(j.dt, b->data, wf + g->m * kc, g->m);
            j.bias = wf + g->m * kc;
        }
    }
    osc_tpool_run(par ? k->tpool : NULL, fwd_part, &j);
    osc_gemm_mem_put(k, &mem);
    return OSC_OK;
}
