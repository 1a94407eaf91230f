/* convt.c: the run of ConvTranspose (1, 11, 22): per sample and group, the output planes start
 * as the bias (or zeros); for each tile of input positions, cols[mg * prod(k), tile] =
 * W_group^T * X[C/group, tile] through the product kernel (W transposed once per run), and
 * col2im adds the columns onto the output in row-major order (the same order on every run).
 * float16/bfloat16 are widened to float and accumulate in a float copy of the group's output,
 * rounded once at the end. Samples and groups (and, when they are fewer than the threads,
 * chunks of their output channels, whose planes no other chunk writes) run on the session's
 * threads; every output element takes its sums in the same order whatever the split. */
#include <string.h>

#include "conv.h"
#include "ops/linalg/gemm_kernel.h"

#define OSC_CONVT_COL_BYTES ((int64_t)1 << 20)

typedef struct tr_job {
    const osc_conv_geom *g;
    int32_t dt, ct;
    bool half, relu;
    size_t esz, tsz;
    const void *x, *wt, *bias; /* wt: [group][mg * prod(k)][C/group]; bias in ct or NULL */
    void *y;
    osc_gemm_fn fn;
    int64_t pt, split; /* split: the chunks of output channels of one sample and group */
    char *scratch;
    size_t per_thread, pack_bytes, col_bytes, xt_bytes;
} tr_job;

/* The planes of acc (mb of out_size, compute type) set to the biases of channels from ch0, or
 * zeros. */
static void acc_start(const tr_job *j, int64_t ch0, int64_t mb, void *acc) {
    const osc_conv_geom *g = j->g;
    for (int64_t i = 0; i < mb; i++) {
        const int64_t ch = ch0 + i, o = i * g->out_size;
        if (j->ct == OSC_DOUBLE) {
            const double b = j->bias ? ((const double *)j->bias)[ch] : 0;
            for (int64_t e = 0; e < g->out_size; e++) ((double *)acc)[o + e] = b;
        } else {
            const float b = j->bias ? ((const float *)j->bias)[ch] : 0;
            for (int64_t e = 0; e < g->out_size; e++) ((float *)acc)[o + e] = b;
        }
    }
}

/* Relu over count elements of acc. */
static void acc_relu(const tr_job *j, void *acc, int64_t count) {
    if (j->ct == OSC_DOUBLE)
        for (int64_t e = 0; e < count; e++) {
            double *v = (double *)acc + e;
            *v = *v < 0 ? 0 : *v;
        }
    else
        for (int64_t e = 0; e < count; e++) {
            float *v = (float *)acc + e;
            *v = *v < 0 ? 0 : *v;
        }
}

static void tr_part(void *ctx, int32_t part, int32_t parts) {
    const tr_job *j = ctx;
    const osc_conv_geom *g = j->g;
    int64_t j0, j1;
    osc_par_range(g->n * g->group * j->split, 1, part, parts, &j0, &j1);
    char *mine = j->scratch + (size_t)part * j->per_thread;
    void *pack = mine, *cols = mine + j->pack_bytes;
    float *xt = (float *)(mine + j->pack_bytes + j->col_bytes);
    float *acc_f = (float *)(mine + j->pack_bytes + j->col_bytes + j->xt_bytes);
    const int64_t rows = g->mg * g->k_size, I = g->in_size;
    for (int64_t job = j0; job < j1; job++) {
        /* channels [m0, m1) of group grp of sample n: planes no other job writes */
        const int64_t chunk = job % j->split, grp = job / j->split % g->group;
        const int64_t n = job / j->split / g->group;
        const int64_t m0 = chunk * g->mg / j->split, m1 = (chunk + 1) * g->mg / j->split;
        const int64_t mb = m1 - m0, ch0 = grp * g->mg + m0;
        const int64_t xch = n * g->c + grp * g->cg, plane = (n * g->m + ch0) * g->out_size;
        void *acc = j->half ? (void *)acc_f : (char *)j->y + (size_t)plane * j->esz;
        acc_start(j, ch0, mb, acc);
        /* no input channels: the planes stay the bias (no product, no scatter of zeros) */
        for (int64_t p0 = 0; p0 < I && mb > 0 && g->cg > 0; p0 += j->pt) {
            const int64_t w = j->pt < I - p0 ? j->pt : I - p0;
            const int64_t a0 = (grp * rows + m0 * g->k_size) * g->cg;
            osc_gemm_args ga = {.m = mb * g->k_size, .n = w, .k = g->cg,
                                .a = (const char *)j->wt + (size_t)a0 * j->esz,
                                .ars = g->cg, .acs = 1, .bcs = 1, .y = cols, .ldy = w};
            const char *xs = (const char *)j->x + (size_t)(xch * I + p0) * j->tsz;
            if (j->half) {
                for (int64_t c = 0; c < g->cg; c++)
                    osc_gemm_widen(j->dt, xs + (size_t)(c * I) * j->tsz, xt + c * w, w);
                ga.b = xt;
                ga.brs = w;
            } else {
                ga.b = xs;
                ga.brs = I;
            }
            j->fn(&ga, pack);
            osc_conv_col2im(g, j->ct, cols, mb, p0, w, acc);
        }
        if (j->relu) acc_relu(j, acc, mb * g->out_size);
        if (j->half)
            osc_gemm_narrow(j->dt, acc_f, (char *)j->y + (size_t)plane * j->tsz,
                            mb * g->out_size);
    }
}

/* W [C, mg, k...] (dtype dt) into wt [group][mg * prod(k)][C/group] of the compute type. */
static void transpose_w(const osc_conv_geom *g, int32_t dt, const void *w, void *wt) {
    const int64_t rows = g->mg * g->k_size;
    for (int64_t grp = 0; grp < g->group; grp++)
        for (int64_t c = 0; c < g->cg; c++) {
            const int64_t src = (grp * g->cg + c) * rows, dst = grp * rows * g->cg + c;
            for (int64_t r = 0; r < rows; r++) {
                const int64_t s = src + r, d = dst + r * g->cg;
                switch (dt) {
                    case OSC_DOUBLE: ((double *)wt)[d] = ((const double *)w)[s]; break;
                    case OSC_FLOAT: ((float *)wt)[d] = ((const float *)w)[s]; break;
                    default: osc_gemm_widen(dt, (const uint16_t *)w + s, (float *)wt + d, 1);
                }
            }
        }
}

osc_status osc_conv_run_transpose(osc_kctx *k, const osc_tensor *const *in, osc_tensor *y,
                                  const osc_conv_geom *g) {
    const osc_conv_params *p = k->params;
    const osc_tensor *x = in[0], *w = in[1], *b = g->has_b ? in[2] : NULL;
    tr_job j = {.g = g, .dt = x->dtype, .ct = osc_gemm_compute_dtype(x->dtype),
                .relu = p->prod.relu, .x = x->data, .bias = b ? b->data : NULL, .y = y->data};
    j.half = j.ct != j.dt;
    j.esz = osc_dtype_get(j.ct)->bits / 8;
    j.tsz = osc_dtype_get(j.dt)->bits / 8;
    j.fn = osc_gemm_get(j.ct);
    const int64_t rows = g->mg * g->k_size, I = g->in_size;
    int64_t pt = OSC_CONVT_COL_BYTES / ((rows > 0 ? rows : 1) * (int64_t)j.esz);
    pt = pt >= 32 ? pt / 16 * 16 : 16;
    j.pt = pt < I ? pt : (I > 0 ? I : 1);
    const double work = (double)g->n * (double)g->c * (double)rows * (double)I * (double)j.esz;
    const int32_t pool = osc_tpool_size(k->tpool);
    /* fewer samples x groups than threads: each split by output channels too */
    j.split = g->n * g->group < pool ? (g->mg < pool ? (g->mg > 0 ? g->mg : 1) : pool) : 1;
    const bool par = k->tpool && g->n * g->group * j.split > 1 &&
                     work >= (double)OSC_PAR_MIN_BYTES;
    const int32_t parts = par ? pool : 1;
    j.pack_bytes = OSC_CONV_R64(osc_gemm_pack_bytes(j.ct, j.pt, g->cg));
    j.col_bytes = OSC_CONV_R64((size_t)(rows * j.pt) * j.esz);
    j.xt_bytes = j.half ? OSC_CONV_R64((size_t)(g->cg * j.pt) * 4) : 0;
    const size_t acc_bytes = j.half ? OSC_CONV_R64((size_t)(g->mg * g->out_size) * 4) : 0;
    j.per_thread = j.pack_bytes + j.col_bytes + j.xt_bytes + acc_bytes;
    const size_t wt_bytes = OSC_CONV_R64((size_t)(g->c * rows) * j.esz);
    const size_t bias_bytes = (size_t)g->m * 4;
    osc_gemm_mem mem;
    osc_status st = OSC_OK;
    if (j.per_thread > (SIZE_MAX - wt_bytes - bias_bytes - 64) / (size_t)parts)
        st = osc_kfail(k, OSC_ERR_LIMIT, "the scratch of the columns needs more than 2^64 "
                       "bytes");
    /* at least one block, so that no offset is taken from a NULL base (no channels) */
    if (!st) st = osc_gemm_mem_get(k, j.per_thread * (size_t)parts + wt_bytes + bias_bytes + 64, 0,
                                   "", &mem);
    if (st) return st;
    /* Validation is complete: from here on the output is written. */
    j.scratch = mem.p;
    char *shared = j.scratch + j.per_thread * (size_t)parts;
    transpose_w(g, j.dt, w->data, shared);
    j.wt = shared;
    if (j.half && b) {
        osc_gemm_widen(j.dt, b->data, (float *)(shared + wt_bytes), g->m);
        j.bias = shared + wt_bytes;
    }
    osc_tpool_run(par ? k->tpool : NULL, tr_part, &j);
    osc_gemm_mem_put(k, &mem);
    return OSC_OK;
}
