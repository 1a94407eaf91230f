/* gnn_loops.c: issue 15's GNN layers written by hand in plain C, the benchmark's baseline. */
/* Each layer is what a C programmer would write for it without tuning: a dense linear as an
 * i-k-j loop (the compiler vectorises the inner loop over output channels), the aggregation as
 * one pass over the edges in their given order, and exactly the layer's math as
 * tests/models/gen_models.py's torch module computes it (sums in a different order, so outputs
 * match torch within float rounding, not bit for bit). Temporaries are allocated at load, as
 * onnx-scatter's session keeps its arena between runs. Compiled with the project's flags. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnn_loops.h"
#include "harness.h"

#define MAX_PARAMS 4
#define MAX_BUFS 8

typedef struct layer_def layer_def;

struct gnn_loop {
    const layer_def *def;
    const float *x;
    const int64_t *src, *dst; /* edge_index rows: messages go src -> dst */
    int64_t n, e, c_in, c_out;
    osc_tensor p[MAX_PARAMS]; /* parameters in def->params order, torch layout */
    float *wt[2];             /* weights transposed to [in][out] for the i-k-j loop */
    void *buf[MAX_BUFS];      /* temporaries (and wt) */
    size_t n_buf;
    osc_tensor out;
};

/* A layer: its parameter files (layer/NAME.pb) and its two steps. prepare checks the parameter
 * shapes, sets c_out and allocates; 0 on success, else 1 with msg set. */
struct layer_def {
    const char *name;
    const char *params[MAX_PARAMS + 1];
    int (*prepare)(gnn_loop *g, char *msg, size_t msg_size);
    void (*run)(gnn_loop *g);
};

/* ---- shared pieces ---- */

static void *take(gnn_loop *g, size_t bytes) {
    if (g->n_buf == MAX_BUFS) return NULL;
    return g->buf[g->n_buf++] = malloc(bytes ? bytes : 1);
}

static int is_shape(const osc_tensor *t, int32_t rank, int64_t d0, int64_t d1, int64_t d2) {
    const int64_t d[3] = {d0, d1, d2};
    if (t->dtype != OSC_FLOAT || t->rank != rank) return 0;
    for (int32_t i = 0; i < rank; i++)
        if (d[i] >= 0 && t->dims[i] != d[i]) return 0;
    return 1;
}

/* Parameter k as a [out, in] weight (out = -1: any), transposed into g->wt[slot]. */
static int weight(gnn_loop *g, int k, int slot, int64_t in, int64_t out, char *msg,
                  size_t msg_size) {
    const osc_tensor *w = &g->p[k];
    if (!is_shape(w, 2, out, in, 0)) {
        snprintf(msg, msg_size, "%s: parameter %s is not a float [%lld, %lld]", g->def->name,
                 g->def->params[k], (long long)out, (long long)in);
        return 1;
    }
    out = w->dims[0];
    float *t = take(g, (size_t)(in * out) * sizeof *t);
    if (!t) {
        snprintf(msg, msg_size, "out of memory");
        return 1;
    }
    const float *s = w->data;
    for (int64_t o = 0; o < out; o++)
        for (int64_t i = 0; i < in; i++) t[i * out + o] = s[o * in + i];
    g->wt[slot] = t;
    return 0;
}

static int vector(const gnn_loop *g, int k, int64_t len, char *msg, size_t msg_size) {
    if (is_shape(&g->p[k], 1, len, 0, 0)) return 0;
    snprintf(msg, msg_size, "%s: parameter %s is not a float [%lld]", g->def->name,
             g->def->params[k], (long long)len);
    return 1;
}

/* y[n, out] += x[n, in] * wt[in, out] */
static void matmul_add(float *restrict y, const float *restrict x, int64_t n, int64_t in,
                       const float *restrict wt, int64_t out) {
    for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < in; k++) {
            const float v = x[i * in + k];
            float *restrict yr = y + i * out;
            const float *restrict wr = wt + k * out;
            for (int64_t j = 0; j < out; j++) yr[j] += v * wr[j];
        }
}

/* y = x * wt (+ bias, added after the sum as torch's Linear does; bias may be NULL) */
static void linear(float *restrict y, const float *restrict x, int64_t n, int64_t in,
                   const float *restrict wt, int64_t out, const float *restrict bias) {
    memset(y, 0, (size_t)(n * out) * sizeof *y);
    matmul_add(y, x, n, in, wt, out);
    if (!bias) return;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < out; j++) y[i * out + j] += bias[j];
}

/* ---- GCNConv: y = sum over edges (self loops last) of h[src] / sqrt(deg(src) deg(dst)) + b,
 * h = x W, deg counting the self loop ---- */

static int gcn_prepare(gnn_loop *g, char *msg, size_t msg_size) {
    if (weight(g, 0, 0, g->c_in, -1, msg, msg_size)) return 1;
    g->c_out = g->p[0].dims[0];
    return vector(g, 1, g->c_out, msg, msg_size) ||
           !take(g, (size_t)g->n * sizeof(float)) ||
           !take(g, (size_t)(g->n * g->c_out) * sizeof(float));
}

/* dis[i] = 1 / sqrt(in-degree + 1 for the self loop) */
static void gcn_degrees(const gnn_loop *g, float *dis) {
    for (int64_t i = 0; i < g->n; i++) dis[i] = 1; /* the self loop */
    for (int64_t e = 0; e < g->e; e++) dis[g->dst[e]] += 1;
    for (int64_t i = 0; i < g->n; i++) dis[i] = 1 / sqrtf(dis[i]);
}

/* y[n, c] = sum over edges (self loops last) of h[src] dis[src] dis[dst], + b */
static void gcn_propagate(const gnn_loop *g, const float *dis, const float *h, int64_t c,
                          const float *b, float *y) {
    const int64_t n = g->n;
    memset(y, 0, (size_t)(n * c) * sizeof *y);
    for (int64_t e = 0; e < g->e; e++) {
        const int64_t s = g->src[e], d = g->dst[e];
        const float w = dis[s] * dis[d];
        for (int64_t j = 0; j < c; j++) y[d * c + j] += h[s * c + j] * w;
    }
    for (int64_t i = 0; i < n; i++) {
        const float w = dis[i] * dis[i];
        for (int64_t j = 0; j < c; j++) {
            y[i * c + j] += h[i * c + j] * w;
            y[i * c + j] += b[j];
        }
    }
}

static void gcn_run(gnn_loop *g) {
    float *dis = g->buf[1], *h = g->buf[2];
    gcn_degrees(g, dis);
    linear(h, g->x, g->n, g->c_in, g->wt[0], g->c_out, NULL);
    gcn_propagate(g, dis, h, g->c_out, g->p[1].data, g->out.data);
}

/* ---- GCNConv spelled with index_add_, as torch 1.13 exports it: a last-wins scatter, so each
 * row is the message of the last edge naming it (its self loop, appended last), + b ---- */

static void gcn_last_run(gnn_loop *g) {
    const int64_t n = g->n, c = g->c_out;
    float *dis = g->buf[1], *h = g->buf[2], *y = g->out.data;
    const float *b = g->p[1].data;
    gcn_degrees(g, dis);
    linear(h, g->x, n, g->c_in, g->wt[0], c, NULL);
    for (int64_t e = 0; e < g->e; e++) { /* each overwritten by the row's self loop below */
        const int64_t s = g->src[e], d = g->dst[e];
        const float w = dis[s] * dis[d];
        for (int64_t j = 0; j < c; j++) y[d * c + j] = h[s * c + j] * w;
    }
    for (int64_t i = 0; i < n; i++) {
        const float w = dis[i] * dis[i];
        for (int64_t j = 0; j < c; j++) y[i * c + j] = h[i * c + j] * w + b[j];
    }
}

/* ---- two GCNConv layers, ReLU between, one normalisation: y = gcn2(relu(gcn1(x))) ---- */

static int gcn2_prepare(gnn_loop *g, char *msg, size_t msg_size) {
    if (weight(g, 0, 0, g->c_in, -1, msg, msg_size)) return 1;
    const int64_t hid = g->p[0].dims[0];
    if (vector(g, 1, hid, msg, msg_size) || weight(g, 2, 1, hid, -1, msg, msg_size)) return 1;
    g->c_out = g->p[2].dims[0];
    const int64_t wide = hid > g->c_out ? hid : g->c_out;
    return vector(g, 3, g->c_out, msg, msg_size) ||
           !take(g, (size_t)g->n * sizeof(float)) ||
           !take(g, (size_t)(g->n * wide) * sizeof(float)) ||
           !take(g, (size_t)(g->n * hid) * sizeof(float));
}

static void gcn2_run(gnn_loop *g) {
    const int64_t hid = g->p[0].dims[0];
    float *dis = g->buf[2], *h = g->buf[3], *mid = g->buf[4];
    gcn_degrees(g, dis);
    linear(h, g->x, g->n, g->c_in, g->wt[0], hid, NULL);
    gcn_propagate(g, dis, h, hid, g->p[1].data, mid);
    for (int64_t i = 0; i < g->n * hid; i++) mid[i] = mid[i] > 0 ? mid[i] : 0;
    linear(h, mid, g->n, hid, g->wt[1], g->c_out, NULL);
    gcn_propagate(g, dis, h, g->c_out, g->p[3].data, g->out.data);
}

/* ---- SAGEConv (mean): y = normalize(mean over incoming edges of x[src] Wl + bl + x Wr) ---- */

static int sage_prepare(gnn_loop *g, char *msg, size_t msg_size) {
    if (weight(g, 0, 0, g->c_in, -1, msg, msg_size)) return 1;
    g->c_out = g->p[0].dims[0];
    return vector(g, 1, g->c_out, msg, msg_size) ||
           weight(g, 2, 1, g->c_in, g->c_out, msg, msg_size) ||
           !take(g, (size_t)(g->n * g->c_in) * sizeof(float)) ||
           !take(g, (size_t)g->n * sizeof(float));
}

/* y = normalize(agg Wl + bl + x Wr) */
static void sage_out(gnn_loop *g, const float *agg) {
    const int64_t n = g->n, ci = g->c_in, c = g->c_out;
    float *y = g->out.data;
    linear(y, agg, n, ci, g->wt[0], c, g->p[1].data);
    matmul_add(y, g->x, n, ci, g->wt[1], c);
    for (int64_t i = 0; i < n; i++) { /* F.normalize: y / max(||y||, 1e-12) */
        float ss = 0;
        for (int64_t j = 0; j < c; j++) ss += y[i * c + j] * y[i * c + j];
        const float norm = sqrtf(ss), d = norm > 1e-12f ? norm : 1e-12f;
        for (int64_t j = 0; j < c; j++) y[i * c + j] /= d;
    }
}

static void sage_run(gnn_loop *g) {
    const int64_t n = g->n, ci = g->c_in;
    float *agg = g->buf[2], *cnt = g->buf[3];
    memset(agg, 0, (size_t)(n * ci) * sizeof *agg);
    memset(cnt, 0, (size_t)n * sizeof *cnt);
    for (int64_t e = 0; e < g->e; e++) {
        const int64_t s = g->src[e], d = g->dst[e];
        cnt[d] += 1;
        for (int64_t k = 0; k < ci; k++) agg[d * ci + k] += g->x[s * ci + k];
    }
    for (int64_t i = 0; i < n; i++) {
        const float k = cnt[i] < 1 ? 1 : cnt[i];
        for (int64_t j = 0; j < ci; j++) agg[i * ci + j] /= k;
    }
    sage_out(g, agg);
}

/* ---- SAGEConv (max): the same with the max over incoming edges, 0 where none come ---- */

static void sage_max_run(gnn_loop *g) {
    const int64_t n = g->n, ci = g->c_in;
    float *agg = g->buf[2];
    for (int64_t i = 0; i < n * ci; i++) agg[i] = -INFINITY;
    for (int64_t e = 0; e < g->e; e++) {
        const float *xs = g->x + g->src[e] * ci;
        float *a = agg + g->dst[e] * ci;
        for (int64_t k = 0; k < ci; k++) a[k] = xs[k] > a[k] ? xs[k] : a[k];
    }
    for (int64_t i = 0; i < n * ci; i++) agg[i] = isinf(agg[i]) ? 0 : agg[i];
    sage_out(g, agg);
}

/* ---- GATConv: h = x W; per edge (self loops appended) and head, a = leaky_relu(h[src] . as +
 * h[dst] . ad, 0.2), softmax over each destination's incoming edges; y = sum a h[src] + b ---- */

typedef struct gat_dims {
    int64_t heads, ch;
} gat_dims;

static gat_dims gat_of(const gnn_loop *g) {
    return (gat_dims){g->p[1].dims[1], g->p[1].dims[2]};
}

static int gat_prepare(gnn_loop *g, char *msg, size_t msg_size) {
    if (!is_shape(&g->p[1], 3, 1, -1, -1)) {
        snprintf(msg, msg_size, "gat: att_src is not a float [1, heads, channels]");
        return 1;
    }
    const gat_dims a = gat_of(g);
    g->c_out = a.heads * a.ch;
    if (weight(g, 0, 0, g->c_in, g->c_out, msg, msg_size) ||
        !is_shape(&g->p[2], 3, 1, a.heads, a.ch) || vector(g, 3, g->c_out, msg, msg_size)) {
        if (!msg[0]) snprintf(msg, msg_size, "gat: att_dst is not shaped as att_src");
        return 1;
    }
    const size_t nh = (size_t)(g->n * a.heads) * sizeof(float);
    return !take(g, (size_t)(g->n * g->c_out) * sizeof(float)) || !take(g, nh) ||
           !take(g, nh) || !take(g, nh) || !take(g, nh) ||
           !take(g, (size_t)((g->e + g->n) * a.heads) * sizeof(float));
}

static void gat_run(gnn_loop *g) {
    const gat_dims a = gat_of(g);
    const int64_t n = g->n, H = a.heads, C = a.ch, HC = g->c_out, E = g->e + n;
    float *h = g->buf[1], *as = g->buf[2], *ad = g->buf[3], *m = g->buf[4], *den = g->buf[5];
    float *ev = g->buf[6], *y = g->out.data;
    const float *att_s = g->p[1].data, *att_d = g->p[2].data, *b = g->p[3].data;
    linear(h, g->x, n, g->c_in, g->wt[0], HC, NULL);
    for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < H; k++) {
            float s = 0, d = 0;
            for (int64_t c = 0; c < C; c++) {
                s += h[i * HC + k * C + c] * att_s[k * C + c];
                d += h[i * HC + k * C + c] * att_d[k * C + c];
            }
            as[i * H + k] = s, ad[i * H + k] = d;
            m[i * H + k] = -INFINITY, den[i * H + k] = 0;
        }
    /* edge e < g->e is edge_index's; the n after it are the self loops */
#define SRC(e) ((e) < g->e ? g->src[e] : (e) - g->e)
#define DST(e) ((e) < g->e ? g->dst[e] : (e) - g->e)
    for (int64_t e = 0; e < E; e++) {
        const int64_t s = SRC(e), d = DST(e);
        for (int64_t k = 0; k < H; k++) {
            float v = as[s * H + k] + ad[d * H + k];
            v = v > 0 ? v : 0.2f * v;
            ev[e * H + k] = v;
            if (v > m[d * H + k]) m[d * H + k] = v;
        }
    }
    for (int64_t e = 0; e < E; e++) {
        const int64_t d = DST(e);
        for (int64_t k = 0; k < H; k++) {
            ev[e * H + k] = expf(ev[e * H + k] - m[d * H + k]);
            den[d * H + k] += ev[e * H + k];
        }
    }
    memset(y, 0, (size_t)(n * HC) * sizeof *y);
    for (int64_t e = 0; e < E; e++) {
        const int64_t s = SRC(e), d = DST(e);
        for (int64_t k = 0; k < H; k++) {
            const float alpha = ev[e * H + k] / (den[d * H + k] + 1e-16f);
            for (int64_t c = 0; c < C; c++) y[d * HC + k * C + c] += h[s * HC + k * C + c] * alpha;
        }
    }
#undef SRC
#undef DST
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < HC; j++) y[i * HC + j] += b[j];
}

/* ---- EdgeConv: y[i] = max over edges j -> i of MLP([x_i, x_j - x_i]), MLP = Linear, ReLU,
 * Linear; a point without incoming edges gets 0 ---- */

static int edgeconv_prepare(gnn_loop *g, char *msg, size_t msg_size) {
    if (weight(g, 0, 0, 2 * g->c_in, -1, msg, msg_size)) return 1;
    const int64_t hid = g->p[0].dims[0];
    if (vector(g, 1, hid, msg, msg_size) || weight(g, 2, 1, hid, -1, msg, msg_size)) return 1;
    g->c_out = g->p[2].dims[0];
    return vector(g, 3, g->c_out, msg, msg_size) ||
           !take(g, (size_t)(2 * g->c_in + hid + g->c_out) * sizeof(float)) ||
           !take(g, (size_t)g->n);
}

static void edgeconv_run(gnn_loop *g) {
    const int64_t n = g->n, ci = g->c_in, hd = g->p[0].dims[0], c = g->c_out;
    float *in = g->buf[2], *hid = in + 2 * ci, *msg = hid + hd, *y = g->out.data;
    unsigned char *seen = g->buf[3];
    const float *b1 = g->p[1].data, *b2 = g->p[3].data;
    memset(seen, 0, (size_t)n);
    for (int64_t e = 0; e < g->e; e++) {
        const int64_t j = g->src[e], i = g->dst[e];
        for (int64_t k = 0; k < ci; k++) {
            in[k] = g->x[i * ci + k];
            in[ci + k] = g->x[j * ci + k] - g->x[i * ci + k];
        }
        linear(hid, in, 1, 2 * ci, g->wt[0], hd, b1);
        for (int64_t k = 0; k < hd; k++) hid[k] = hid[k] > 0 ? hid[k] : 0;
        linear(msg, hid, 1, hd, g->wt[1], c, b2);
        float *yr = y + i * c;
        if (!seen[i]) {
            memcpy(yr, msg, (size_t)c * sizeof *yr);
            seen[i] = 1;
            continue;
        }
        for (int64_t k = 0; k < c; k++) yr[k] = msg[k] > yr[k] ? msg[k] : yr[k];
    }
    for (int64_t i = 0; i < n; i++)
        if (!seen[i]) memset(y + i * c, 0, (size_t)c * sizeof *y);
}

static const layer_def k_layers[] = {
    {.name = "gcn", .params = {"lin.weight", "bias"}, .prepare = gcn_prepare, .run = gcn_run},
    {.name = "gcn2", .params = {"c1.lin.weight", "c1.bias", "c2.lin.weight", "c2.bias"},
     .prepare = gcn2_prepare, .run = gcn2_run},
    {.name = "gcn_last", .params = {"lin.weight", "bias"}, .prepare = gcn_prepare,
     .run = gcn_last_run},
    {.name = "sage", .params = {"lin_l.weight", "lin_l.bias", "lin_r.weight"},
     .prepare = sage_prepare, .run = sage_run},
    {.name = "sage_max", .params = {"lin_l.weight", "lin_l.bias", "lin_r.weight"},
     .prepare = sage_prepare, .run = sage_max_run},
    {.name = "gat", .params = {"lin.weight", "att_src", "att_dst", "bias"},
     .prepare = gat_prepare, .run = gat_run},
    {.name = "edgeconv", .params = {"mlp.0.weight", "mlp.0.bias", "mlp.2.weight", "mlp.2.bias"},
     .prepare = edgeconv_prepare, .run = edgeconv_run},
};

/* ---- API ---- */

int gnn_layer_info(const char *case_dir, char *layer, size_t layer_size, uint64_t *constant_bytes,
                   char *msg, size_t msg_size) {
    char path[1200], name[64] = "";
    snprintf(path, sizeof path, "%s/layer/layer.txt", case_dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, msg_size, "cannot read %s (made by tests/models/gen_models.py)", path);
        return 1;
    }
    unsigned long long bytes = 0;
    int ok = fscanf(f, "layer %63s constant_bytes %llu", name, &bytes) == 2;
    fclose(f);
    if (!ok) {
        snprintf(msg, msg_size, "%s: expected 'layer NAME' and 'constant_bytes N'", path);
        return 1;
    }
    snprintf(layer, layer_size, "%s", name);
    *constant_bytes = bytes;
    return 0;
}

gnn_loop *gnn_loop_load(const char *case_dir, const osc_tensor *x, const osc_tensor *edge_index,
                        char *msg, size_t msg_size) {
    char layer[64];
    uint64_t unused;
    msg[0] = '\0';
    if (gnn_layer_info(case_dir, layer, sizeof layer, &unused, msg, msg_size)) return NULL;
    const layer_def *def = NULL;
    for (size_t i = 0; i < sizeof k_layers / sizeof k_layers[0]; i++)
        if (!strcmp(layer, k_layers[i].name)) def = &k_layers[i];
    if (!def) {
        snprintf(msg, msg_size, "no C loop for layer '%s'", layer);
        return NULL;
    }
    if (!is_shape(x, 2, -1, -1, 0) || edge_index->dtype != OSC_INT64 || edge_index->rank != 2 ||
        edge_index->dims[0] != 2) {
        snprintf(msg, msg_size, "%s: the inputs must be x float[n, c] and edge_index int64[2, e]",
                 layer);
        return NULL;
    }
    gnn_loop *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(msg, msg_size, "out of memory");
        return NULL;
    }
    g->def = def;
    g->x = x->data;
    g->n = x->dims[0], g->c_in = x->dims[1], g->e = edge_index->dims[1];
    g->src = edge_index->data;
    g->dst = g->src + g->e;
    for (int k = 0; def->params[k]; k++) {
        char path[1400];
        snprintf(path, sizeof path, "%s/layer/%s.pb", case_dir, def->params[k]);
        int rc = tensor_load_pb(path, &g->p[k], msg, msg_size);
        if (rc) {
            if (rc > 0) snprintf(msg, msg_size, "%s: not found", path);
            gnn_loop_free(g);
            return NULL;
        }
    }
    if (def->prepare(g, msg, msg_size)) {
        if (!msg[0]) snprintf(msg, msg_size, "out of memory");
        gnn_loop_free(g);
        return NULL;
    }
    g->out.dtype = OSC_FLOAT, g->out.rank = 2;
    g->out.dims[0] = g->n, g->out.dims[1] = g->c_out;
    g->out.nbytes = (size_t)(g->n * g->c_out) * sizeof(float);
    if (!(g->out.data = malloc(g->out.nbytes ? g->out.nbytes : 1))) {
        snprintf(msg, msg_size, "out of memory");
        gnn_loop_free(g);
        return NULL;
    }
    return g;
}

void gnn_loop_run(gnn_loop *g) { g->def->run(g); }

const osc_tensor *gnn_loop_output(const gnn_loop *g) { return &g->out; }

void gnn_loop_free(gnn_loop *g) {
    if (!g) return;
    for (int k = 0; k < MAX_PARAMS; k++)
        if (g->p[k].data) osc_tensor_free_data(&g->p[k]);
    for (size_t i = 0; i < g->n_buf; i++) free(g->buf[i]);
    free(g->out.data);
    free(g);
}
