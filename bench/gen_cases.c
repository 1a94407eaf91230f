/* gen_cases.c: writes the benchmark cases of issue #8: node-test folders with reference outputs. */
/* Usage: osc-bench-gen OUT_DIR [--small] [CASE...]
 * Each case becomes OUT_DIR/CASE/{model.onnx, test_data_set_0/input_K.pb, output_0.pb}, so
 * `onnx-scatter test` and `onnx-scatter bench` run it as they run an official node test. The data
 * comes from a fixed-seed PRNG (same bytes on every run and machine); output_0.pb comes from a
 * straightforward coordinate loop written here, independent of the runtime's kernels. --small
 * writes the same cases with tiny shapes (for the ctest smoke test). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

/* ---- deterministic data ---- */

/* splitmix64: tiny, fast, and the same sequence everywhere. */
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) (n < 2^32: the modulo bias is below 2^-32, irrelevant here). */
static int64_t rng_below(uint64_t *s, int64_t n) { return (int64_t)(rng_next(s) % (uint64_t)n); }

/* A float in [-1, 1) with 24 random bits. */
static float rng_float(uint64_t *s) {
    return (float)(rng_next(s) >> 40) / 8388608.0f - 1.0f;
}

/* A finite, normal float16 in about [-4, 4]: random sign and mantissa, exponent 10..16. */
static uint16_t rng_half(uint64_t *s) {
    uint64_t r = rng_next(s);
    unsigned exponent = 10u + (unsigned)((r >> 16) % 7u);
    return (uint16_t)((r & 0x8000u) | (exponent << 10) | ((r >> 32) & 0x3ffu));
}

/* ---- tensors ---- */

typedef struct tensor {
    osc_tensor t;
    const char *name;
} tensor;

static int t_alloc(tensor *x, const char *name, int32_t dtype, int32_t rank, const int64_t *dims) {
    memset(x, 0, sizeof *x);
    x->name = name;
    x->t.dtype = dtype;
    x->t.rank = rank;
    memcpy(x->t.dims, dims, (size_t)rank * sizeof *dims);
    x->t.nbytes = (size_t)osc_tensor_count(&x->t) * (osc_dtype_bits(dtype) / 8);
    x->t.data = malloc(x->t.nbytes ? x->t.nbytes : 1);
    if (!x->t.data)
        fprintf(stderr, "gen_cases: out of memory (%s, %zu bytes)\n", name, x->t.nbytes);
    return x->t.data ? 0 : 1;
}

static int64_t t_count(const tensor *x) { return osc_tensor_count(&x->t); }

static void t_free(tensor *x) {
    free(x->t.data);
    x->t.data = NULL;
}

static void fill_random(tensor *x, uint64_t *s) {
    int64_t n = t_count(x);
    if (x->t.dtype == OSC_FLOAT)
        for (int64_t i = 0; i < n; i++) ((float *)x->t.data)[i] = rng_float(s);
    else if (x->t.dtype == OSC_FLOAT16)
        for (int64_t i = 0; i < n; i++) ((uint16_t *)x->t.data)[i] = rng_half(s);
}

static void set_index(tensor *x, int64_t i, int64_t v) {
    if (x->t.dtype == OSC_INT32) ((int32_t *)x->t.data)[i] = (int32_t)v;
    else ((int64_t *)x->t.data)[i] = v;
}

static int64_t get_index(const tensor *x, int64_t i) {
    return x->t.dtype == OSC_INT32 ? ((const int32_t *)x->t.data)[i]
                                   : ((const int64_t *)x->t.data)[i];
}

/* k distinct values of [0, n), in random order, into out[0], out[stride], ...: a partial
 * Fisher-Yates shuffle over perm (n entries, scratch, left shuffled for the next call). */
static void distinct(uint64_t *s, int64_t *perm, int64_t n, int64_t k, tensor *x, int64_t first,
                     int64_t stride) {
    for (int64_t i = 0; i < k; i++) {
        int64_t j = i + rng_below(s, n - i), tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
        set_index(x, first + i * stride, perm[i]);
    }
}

static int64_t *identity(int64_t n) {
    int64_t *p = malloc((size_t)n * sizeof *p);
    if (!p) fprintf(stderr, "gen_cases: out of memory (permutation of %lld)\n", (long long)n);
    for (int64_t i = 0; p && i < n; i++) p[i] = i;
    return p;
}

/* ---- files ---- */

static int write_pb(const char *dir, const char *file, const tensor *x) {
    char msg[OSC_MESSAGE_SIZE];
    void *buf;
    size_t len;
    if (osc_tensor_encode_pb(&x->t, x->name, &buf, &len, msg, sizeof msg) != OSC_OK) {
        fprintf(stderr, "gen_cases: %s: %s\n", x->name, msg);
        return 1;
    }
    int rc = !osc_test_write_file(dir, file, buf, len, "gen_cases");
    free(buf);
    return rc;
}

static int make_dir(const char *path) {
    if (mkdir(path, 0755) == 0 || errno == EEXIST) return 0;
    fprintf(stderr, "gen_cases: cannot create %s: %s\n", path, strerror(errno));
    return 1;
}

/* A one-node model: every tensor input is a graph input (no initializers, so no runtime can
 * fold the node away) with its static shape. attrs: axis (when has_axis) and reduction (when
 * not NULL). */
typedef struct model_spec {
    const char *op;
    int64_t opset;
    const tensor *in[3];
    int n_in;
    const tensor *out;
    int has_axis;
    int64_t axis;
    const char *reduction;
} model_spec;

static int write_case(const char *root, const char *name, const model_spec *ms) {
    char dir[1024], set[1100];
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    snprintf(set, sizeof set, "%s/test_data_set_0", dir);
    if (make_dir(dir) || make_dir(set)) return 1;
    /* IR 8 reads opsets up to 18; opset 24 (TensorScatter) came with IR 11 */
    osc_mw *mw = osc_mw_new(ms->opset > 18 ? 11 : 8);
    if (!mw) return 1;
    osc_mw_names(mw, "onnx-scatter bench/gen_cases", name);
    osc_mw_opset(mw, "", ms->opset);
    const char *in[3], *out[1] = {ms->out->name};
    for (int i = 0; i < ms->n_in; i++) {
        in[i] = ms->in[i]->name;
        osc_mw_input(mw, in[i], ms->in[i]->t.dtype, ms->in[i]->t.rank, ms->in[i]->t.dims, NULL);
    }
    int n = osc_mw_node(mw, ms->op, "scatter", ms->n_in, in, 1, out);
    if (ms->has_axis) osc_mw_attr_int(mw, n, "axis", ms->axis);
    if (ms->reduction) osc_mw_attr_string(mw, n, "reduction", ms->reduction);
    osc_mw_output(mw, ms->out->name, ms->out->t.dtype, ms->out->t.rank, ms->out->t.dims, NULL);
    void *buf;
    size_t len;
    int rc = 0;
    if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) {
        fprintf(stderr, "gen_cases: %s: %s\n", name, osc_mw_error(mw));
        rc = 1;
    } else {
        rc = !osc_test_write_file(dir, "model.onnx", buf, len, "gen_cases");
        free(buf);
    }
    osc_mw_free(mw);
    for (int i = 0; i < ms->n_in && !rc; i++) {
        char file[32];
        snprintf(file, sizeof file, "input_%d.pb", i);
        rc = write_pb(set, file, ms->in[i]);
    }
    if (!rc) rc = write_pb(set, "output_0.pb", ms->out);
    return rc;
}

/* ---- reference loops (clarity over speed: coordinates, one element at a time) ---- */

/* out = data; then for every updates position p in row-major order, with q = p except
 * q[axis] = indices[p] (negative counts from the back): out[q] = updates[p] (add: +=). */
static void ref_scatter_elements(const tensor *data, const tensor *idx, const tensor *upd,
                                 int64_t axis, int add, tensor *out) {
    memcpy(out->t.data, data->t.data, data->t.nbytes);
    const int32_t r = data->t.rank;
    const size_t es = osc_dtype_bits(data->t.dtype) / 8;
    int64_t c[OSC_MAX_RANK] = {0};
    for (int64_t p = 0; p < t_count(idx); p++) {
        int64_t off = 0;
        for (int32_t d = 0; d < r; d++) {
            int64_t v = c[d];
            if (d == axis) {
                v = get_index(idx, p);
                if (v < 0) v += data->t.dims[d];
            }
            off = off * data->t.dims[d] + v;
        }
        if (add) ((float *)out->t.data)[off] += ((const float *)upd->t.data)[p];
        else memcpy((char *)out->t.data + (size_t)off * es,
                    (const char *)upd->t.data + (size_t)p * es, es);
        for (int32_t d = r - 1; d >= 0 && ++c[d] == idx->t.dims[d]; d--) c[d] = 0;
    }
}

/* out = data; then for each index tuple t in row-major order, the slice data[tuple] gets
 * updates[t] (add: element-wise +=). */
static void ref_scatter_nd(const tensor *data, const tensor *idx, const tensor *upd, int add,
                           tensor *out) {
    memcpy(out->t.data, data->t.data, data->t.nbytes);
    const int32_t k = (int32_t)idx->t.dims[idx->t.rank - 1];
    const size_t es = osc_dtype_bits(data->t.dtype) / 8;
    int64_t slice = 1;
    for (int32_t d = k; d < data->t.rank; d++) slice *= data->t.dims[d];
    const int64_t tuples = k ? t_count(idx) / k : 0;
    for (int64_t t = 0; t < tuples; t++) {
        int64_t off = 0;
        for (int32_t j = 0; j < k; j++) {
            int64_t v = get_index(idx, t * k + j);
            if (v < 0) v += data->t.dims[j];
            off = off * data->t.dims[j] + v;
        }
        off *= slice;
        for (int64_t e = 0; e < slice; e++) {
            if (add) ((float *)out->t.data)[off + e] += ((const float *)upd->t.data)[t * slice + e];
            else memcpy((char *)out->t.data + (size_t)(off + e) * es,
                        (const char *)upd->t.data + (size_t)(t * slice + e) * es, es);
        }
    }
}

/* TensorScatter-24, linear mode, axis -2 of a rank-4 cache [B, H, S, D]:
 * out = past; out[b, h, w[b] + s, :] = update[b, h, s, :]. */
static void ref_tensor_scatter(const tensor *past, const tensor *upd, const tensor *wi,
                               tensor *out) {
    memcpy(out->t.data, past->t.data, past->t.nbytes);
    const int64_t *pd = past->t.dims, *ud = upd->t.dims;
    const size_t es = osc_dtype_bits(past->t.dtype) / 8;
    for (int64_t b = 0; b < ud[0]; b++)
        for (int64_t h = 0; h < ud[1]; h++)
            for (int64_t s = 0; s < ud[2]; s++) {
                int64_t dst = ((b * pd[1] + h) * pd[2] + get_index(wi, b) + s) * pd[3];
                int64_t src = ((b * ud[1] + h) * ud[2] + s) * ud[3];
                memcpy((char *)out->t.data + (size_t)dst * es,
                       (const char *)upd->t.data + (size_t)src * es, (size_t)ud[3] * es);
            }
}

/* ---- the cases ---- */

typedef struct gen_ctx {
    const char *root;
    int small;
} gen_ctx;

/* se_small_f32: ScatterElements spec example 1 (axis 0, no reduction): per-call overhead. */
static int case_se_small(const gen_ctx *g, const char *name) {
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3};
    const int64_t iv[6] = {1, 0, 2, 0, 2, 1};
    const float uv[6] = {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f};
    tensor data, idx, upd, out;
    int rc = t_alloc(&data, "data", OSC_FLOAT, 2, dd) | t_alloc(&idx, "indices", OSC_INT64, 2, id) |
             t_alloc(&upd, "updates", OSC_FLOAT, 2, id) | t_alloc(&out, "output", OSC_FLOAT, 2, dd);
    if (!rc) {
        memset(data.t.data, 0, data.t.nbytes);
        memcpy(idx.t.data, iv, sizeof iv);
        memcpy(upd.t.data, uv, sizeof uv);
        ref_scatter_elements(&data, &idx, &upd, 0, 0, &out);
        /* the spec's expected output, as a check on the reference loop itself */
        const float want[9] = {2.0f, 1.1f, 0.0f, 1.0f, 0.0f, 2.2f, 0.0f, 2.1f, 1.2f};
        if (memcmp(out.t.data, want, sizeof want) != 0) {
            fprintf(stderr, "gen_cases: %s: reference loop disagrees with the spec\n", name);
            rc = 1;
        }
    }
    model_spec ms = {"ScatterElements", 18, {&data, &idx, &upd}, 3, &out, 1, 0, NULL};
    if (!rc) rc = write_case(g->root, name, &ms);
    t_free(&data), t_free(&idx), t_free(&upd), t_free(&out);
    return rc;
}

/* Rank-2 ScatterElements family. Indices [ir, ic] into data [rows, cols] along axis:
 * unique: distinct values within each column (axis 0) or row (axis 1);
 * else uniform draws (duplicates) plus one forced duplicate, so even --small has one. */
typedef struct se_params {
    const char *op;
    int64_t opset, rows, cols, ir, ic, axis;
    int32_t index_dtype;
    int unique, add;
    uint64_t seed;
} se_params;

static int case_se(const gen_ctx *g, const char *name, const se_params *p) {
    const int64_t dd[2] = {p->rows, p->cols}, id[2] = {p->ir, p->ic};
    const int64_t along = p->axis == 0 ? p->rows : p->cols;
    uint64_t s = p->seed;
    tensor data, idx, upd, out;
    int rc = t_alloc(&data, "data", OSC_FLOAT, 2, dd) |
             t_alloc(&idx, "indices", p->index_dtype, 2, id) |
             t_alloc(&upd, "updates", OSC_FLOAT, 2, id) | t_alloc(&out, "output", OSC_FLOAT, 2, dd);
    int64_t *perm = rc ? NULL : identity(along);
    if (!perm) rc = 1;
    if (!rc) {
        fill_random(&data, &s);
        fill_random(&upd, &s);
        if (p->unique && p->axis == 0)
            for (int64_t j = 0; j < p->ic; j++) distinct(&s, perm, along, p->ir, &idx, j, p->ic);
        else if (p->unique)
            for (int64_t i = 0; i < p->ir; i++)
                distinct(&s, perm, along, p->ic, &idx, i * p->ic, 1);
        else {
            for (int64_t i = 0; i < p->ir * p->ic; i++) set_index(&idx, i, rng_below(&s, along));
            set_index(&idx, p->axis == 0 ? p->ic : 1, get_index(&idx, 0));
        }
        ref_scatter_elements(&data, &idx, &upd, p->axis, p->add, &out);
    }
    model_spec ms = {p->op, p->opset, {&data, &idx, &upd}, 3, &out, 1, p->axis,
                     p->add ? "add" : NULL};
    if (!rc) rc = write_case(g->root, name, &ms);
    free(perm);
    t_free(&data), t_free(&idx), t_free(&upd), t_free(&out);
    return rc;
}

/* ScatterND-18 with k = 1 over data [n0, row]: indices [nt, 1], updates [nt, row]. */
static int case_nd_rows(const gen_ctx *g, const char *name, int64_t n0, int64_t row, int64_t nt,
                        int unique, int add, uint64_t seed) {
    const int64_t dd[2] = {n0, row}, id[2] = {nt, 1}, ud[2] = {nt, row};
    const int32_t dr = row ? 2 : 1, ur = row ? 2 : 1;
    uint64_t s = seed;
    tensor data, idx, upd, out;
    int rc = t_alloc(&data, "data", OSC_FLOAT, dr, dd) |
             t_alloc(&idx, "indices", OSC_INT64, 2, id) |
             t_alloc(&upd, "updates", OSC_FLOAT, ur, ud) |
             t_alloc(&out, "output", OSC_FLOAT, dr, dd);
    int64_t *perm = !rc && unique ? identity(n0) : NULL;
    if (unique && !perm) rc = 1;
    if (!rc) {
        fill_random(&data, &s);
        fill_random(&upd, &s);
        if (unique) distinct(&s, perm, n0, nt, &idx, 0, 1);
        else {
            for (int64_t i = 0; i < nt; i++) set_index(&idx, i, rng_below(&s, n0));
            set_index(&idx, 1, get_index(&idx, 0));
        }
        ref_scatter_nd(&data, &idx, &upd, add, &out);
    }
    model_spec ms = {"ScatterND", 18, {&data, &idx, &upd}, 3, &out, 0, 0, add ? "add" : NULL};
    if (!rc) rc = write_case(g->root, name, &ms);
    free(perm);
    t_free(&data), t_free(&idx), t_free(&upd), t_free(&out);
    return rc;
}

/* A float16 KV cache [1, heads, seq, dim] receiving one token at position pos for every head:
 * ScatterND-18 (indices [1, heads, 1, 3] = (0, h, pos)) or TensorScatter-24 (write_indices
 * [pos]). */
static int case_kvcache(const gen_ctx *g, const char *name, int tensor_scatter, int64_t heads,
                        int64_t seq, int64_t dim, int64_t pos, uint64_t seed) {
    const int64_t cd[4] = {1, heads, seq, dim}, ud[4] = {1, heads, 1, dim};
    const int64_t id[4] = {1, heads, 1, 3}, wd[1] = {1};
    uint64_t s = seed;
    tensor cache, idx, upd, out;
    int rc = t_alloc(&cache, tensor_scatter ? "past_cache" : "data", OSC_FLOAT16, 4, cd) |
             t_alloc(&upd, tensor_scatter ? "update" : "updates", OSC_FLOAT16, 4, ud) |
             t_alloc(&out, tensor_scatter ? "present_cache" : "output", OSC_FLOAT16, 4, cd);
    rc |= tensor_scatter ? t_alloc(&idx, "write_indices", OSC_INT64, 1, wd)
                         : t_alloc(&idx, "indices", OSC_INT64, 4, id);
    if (!rc) {
        fill_random(&cache, &s);
        fill_random(&upd, &s);
        if (tensor_scatter) {
            set_index(&idx, 0, pos);
            ref_tensor_scatter(&cache, &upd, &idx, &out);
        } else {
            for (int64_t h = 0; h < heads; h++) {
                set_index(&idx, h * 3 + 0, 0);
                set_index(&idx, h * 3 + 1, h);
                set_index(&idx, h * 3 + 2, pos);
            }
            ref_scatter_nd(&cache, &idx, &upd, 0, &out);
        }
    }
    model_spec nd = {"ScatterND", 18, {&cache, &idx, &upd}, 3, &out, 0, 0, NULL};
    model_spec ts = {"TensorScatter", 24, {&cache, &upd, &idx}, 3, &out, 0, 0, NULL};
    if (!rc) rc = write_case(g->root, name, tensor_scatter ? &ts : &nd);
    t_free(&cache), t_free(&idx), t_free(&upd), t_free(&out);
    return rc;
}

static int gen(const gen_ctx *g, const char *name) {
    const int sm = g->small;
    /* full sizes are issue #8's; --small keeps every property (uniqueness, duplicates, k) */
    const int64_t n = sm ? 64 : 4096, nk = sm ? 8 : 512;
    const int64_t kv_heads = sm ? 4 : 32, kv_seq = sm ? 16 : 4096, kv_dim = sm ? 8 : 128;
    const int64_t kv_pos = sm ? 11 : 3000;
    if (!strcmp(name, "se_small_f32")) return case_se_small(g, name);
    if (!strcmp(name, "scatter9_f32")) {
        se_params p = {"Scatter", 10, sm ? 32 : 1024, sm ? 16 : 1024, sm ? 4 : 128, sm ? 16 : 1024,
                       0, OSC_INT64, 1, 0, 9};
        return case_se(g, name, &p);
    }
    if (!strcmp(name, "se_axis0_f32") || !strcmp(name, "se_i32idx_f32")) {
        se_params p = {"ScatterElements", 18, n, n, nk, n, 0,
                       name[3] == 'i' ? OSC_INT32 : OSC_INT64, 1, 0, 18};
        return case_se(g, name, &p);
    }
    if (!strcmp(name, "se_axis1_f32")) {
        se_params p = {"ScatterElements", 18, n, n, n, nk, 1, OSC_INT64, 1, 0, 181};
        return case_se(g, name, &p);
    }
    if (!strcmp(name, "se_add_f32")) {
        se_params p = {"ScatterElements", 18, n, n, nk, n, 0, OSC_INT64, 0, 1, 182};
        return case_se(g, name, &p);
    }
    if (!strcmp(name, "nd_rows_f32"))
        return case_nd_rows(g, name, sm ? 1000 : 1000000, sm ? 8 : 64, sm ? 100 : 100000, 1, 0, 1);
    if (!strcmp(name, "nd_elem_add_f32"))
        return case_nd_rows(g, name, sm ? 16000 : 16000000, 0, sm ? 2000 : 2000000, 0, 1, 2);
    if (!strcmp(name, "nd_kvcache_f16"))
        return case_kvcache(g, name, 0, kv_heads, kv_seq, kv_dim, kv_pos, 3);
    if (!strcmp(name, "ts_kvcache_f16"))
        return case_kvcache(g, name, 1, kv_heads, kv_seq, kv_dim, kv_pos, 3);
    fprintf(stderr, "gen_cases: unknown case '%s'\n", name);
    return 2;
}

static const char *const k_cases[] = {"se_small_f32",  "scatter9_f32",  "se_axis0_f32",
                                      "se_i32idx_f32", "se_axis1_f32",  "se_add_f32",
                                      "nd_rows_f32",   "nd_elem_add_f32", "nd_kvcache_f16",
                                      "ts_kvcache_f16", NULL};

int main(int argc, char **argv) {
    gen_ctx g = {NULL, 0};
    const char *only[64];
    int n_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--small")) g.small = 1;
        else if (!strcmp(argv[i], "--list")) {
            for (int c = 0; k_cases[c]; c++) puts(k_cases[c]);
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "gen_cases: unknown option %s\n", argv[i]);
            return 2;
        } else if (!g.root) g.root = argv[i];
        else if (n_only < 64) only[n_only++] = argv[i];
    }
    if (!g.root) {
        fprintf(stderr, "usage: osc-bench-gen OUT_DIR [--small] [CASE...]   (or --list)\n");
        return 2;
    }
    if (make_dir(g.root)) return 1;
    int rc = 0;
    for (int c = 0; k_cases[c] && !rc; c++) {
        int want = n_only == 0;
        for (int i = 0; i < n_only; i++) want |= !strcmp(only[i], k_cases[c]);
        if (want) rc = gen(&g, k_cases[c]);
    }
    for (int i = 0; i < n_only && !rc; i++) {
        int known = 0;
        for (int c = 0; k_cases[c]; c++) known |= !strcmp(only[i], k_cases[c]);
        if (!known) rc = gen(&g, only[i]); /* reports the unknown name */
    }
    return rc;
}
