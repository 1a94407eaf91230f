/* fused_tiled.c: the tiled scatter kernel (fused_tiled.h). Each part (thread) owns a range of
 * output rows and walks its edges in order, a tile at a time: the tile's rows of the external
 * row inputs (views, or copies when a part's edges are not contiguous), the region's nodes
 * run by their own kernels on the tile, then the tile's update rows combined into the output
 * (or, for a gather-scatter, the tile's edges applied by its edge loop, fused_scatter.c).
 * Every output row sees its updates in edge order, as the unfused scatter applies them.
 *
 * Nothing can fail once the output is written: shapes and dtypes were checked at load and
 * against the inputs here (symbols replaced by the sizes the inputs give them), every
 * destination and Gather index, the tiles and the products' scratch before the first write. */
#include <string.h>

#include "core/dtype.h"
#include "fused_tiled.h"
#include "ops/scatter/scatter.h"
#include "ops/scatter/reduce.h"

/* Combining n update rows u (R elements each) into out, row t into row d[t]. */
#define FT_NONE(T, a, b) (b)
#define FT_ADD(T, a, b) OSC_COMBINE_FLOAT_ADD(T, a, b)
#define FT_MUL(T, a, b) OSC_COMBINE_FLOAT_MUL(T, a, b)
#define FT_MAX(T, a, b) OSC_COMBINE_FLOAT_MAX(T, a, b)
#define FT_MIN(T, a, b) OSC_COMBINE_FLOAT_MIN(T, a, b)
#define FT_APPLY(E, T, RED)                                                                   \
    OSC_AVX2_CLONES static void ft_##E##_##RED(void *out, int64_t R, const int64_t *d,        \
                                               int64_t n, const void *u) {                    \
        for (int64_t t = 0; t < n; t++) {                                                     \
            T *o = (T *)out + d[t] * R;                                                       \
            const T *x = (const T *)u + t * R;                                                \
            for (int64_t i = 0; i < R; i++) o[i] = FT_##RED(T, o[i], x[i]);                   \
        }                                                                                     \
    }
/* No reduction and update rows that are all alike (a `once` node's: the -inf fill of a max
 * scatter): a run of edges into one row writes it once (the same bits as writing it again);
 * rows of 4 or 8 bytes (GAT's [N, 2]) move as one integer, not by a call to memcpy. */
#define FT_ONCE_LOOP(SIZE)                                                                    \
    do {                                                                                      \
        for (int64_t t = 0; t < n; t++)                                                       \
            if (t == 0 || d[t] != d[t - 1]) memcpy(o + (size_t)d[t] * rb, u, SIZE);           \
    } while (0)
static void ft_once(char *o, size_t rb, const int64_t *d, int64_t n, const void *u) {
    if (rb == 4) FT_ONCE_LOOP(4);
    else if (rb == 8) FT_ONCE_LOOP(8);
    else FT_ONCE_LOOP(rb);
}
typedef void (*ft_apply_fn)(void *out, int64_t R, const int64_t *d, int64_t n, const void *u);
/* ft_<dtype>[reduction], and [FT_ONCE] for ft_once */
enum { FT_ONCE = OSC_RED_MIN + 1 };
#define FT_TYPE(E, T, CLS)                                                                    \
    FT_APPLY(E, T, NONE) FT_APPLY(E, T, ADD) FT_APPLY(E, T, MUL) FT_APPLY(E, T, MAX)           \
    FT_APPLY(E, T, MIN)                                                                       \
    static void ft_##E##_ONCE(void *out, int64_t R, const int64_t *d, int64_t n,              \
                              const void *u) {                                                \
        ft_once(out, (size_t)R * sizeof(T), d, n, u);                                         \
    }                                                                                         \
    static const ft_apply_fn ft_##E[] = {                                                     \
        [OSC_RED_NONE] = ft_##E##_NONE, [OSC_RED_ADD] = ft_##E##_ADD,                         \
        [OSC_RED_MUL] = ft_##E##_MUL,   [OSC_RED_MAX] = ft_##E##_MAX,                         \
        [OSC_RED_MIN] = ft_##E##_MIN,   [FT_ONCE] = ft_##E##_ONCE};
OSC_IEEE_TYPES(FT_TYPE)

/* How the region's update rows combine into the output (NULL: a dtype or reduction without). */
static ft_apply_fn apply_of(const osc_ft_params *p, int32_t dtype) {
    int32_t red = p->fs.reduction;
    if (red < 0 || red > OSC_RED_MIN) return NULL;
    if (red == OSC_RED_NONE && p->nodes[p->updates].once) red = FT_ONCE;
#define CASE(E, T, CLS) \
    case E: return ft_##E[red];
    switch (dtype) {
        OSC_IEEE_TYPES(CASE)
        default: return NULL;
    }
#undef CASE
}

/* One part's buffers: a tile of every slot and of every external row input, the tile's
 * destinations (and sources), the products' scratch, and the first failure. */
typedef struct ft_part {
    osc_tensor slot[OSC_FT_MAX_NODES], ext[OSC_FT_MAX_EXT];
    int64_t *dst, *src;
    char *mem;
    size_t mem_size;
    osc_scratch scratch;
    osc_err err;
} ft_part;

/* A run's sizes: the symbols' (vals, for p->syms), the scatter's parameters with them in place
 * (fs: p->fs itself without symbols), where each external input's value starts, the tile. */
typedef struct ft_sizes {
    int64_t vals[OSC_SYM_MAX];
    const osc_fs_params *fs;
    osc_fs_params rfs;
    osc_fs_step steps[OSC_FS_MAX_STEPS];
    size_t offset[OSC_FT_MAX_EXT];
    int64_t tile;
} ft_sizes;

typedef struct ft_job {
    osc_kctx *k;
    const osc_ft_params *p;
    const osc_tensor *const *in;
    const ft_sizes *z;
    osc_fs_job fs; /* the output, data, split (a gather-scatter's inputs, edge loop) */
    ft_apply_fn apply; /* TiledScatter: how update rows combine */
    ft_part *part; /* one per part, from the allocator (a part is a few KiB: not the stack) */
} ft_job;

/* A tensor of value v's dtype and shape with n rows (row values), at data. */
static void tile_tensor(osc_tensor *t, const osc_ft_value *v, int64_t n, void *data) {
    memset(t, 0, sizeof *t);
    t->dtype = v->dtype;
    t->rank = v->rank;
    memcpy(t->dims, v->dims, (size_t)v->rank * sizeof v->dims[0]);
    t->dims[0] = n;
    t->nbytes = (size_t)n * v->row_bytes;
    t->data = data;
}

/* Edges q0 .. q0+n-1 of the part: the external row inputs' rows, the destinations (and the
 * sources). */
static void load_tile(const ft_job *j, ft_part *w, const uint32_t *list, int64_t q0, int64_t n) {
    const osc_ft_params *p = j->p;
    for (int32_t x = 0; x < p->n_ext; x++) {
        const osc_ft_value *v = &p->ext[x];
        if (!v->row) continue;
        const char *base = (const char *)j->in[p->ext_base + x]->data + j->z->offset[x];
        if (!list) {
            w->ext[x].data = (void *)(base + (size_t)q0 * v->row_bytes);
        } else {
            char *to = w->ext[x].data;
            for (int64_t t = 0; t < n; t++)
                memcpy(to + (size_t)t * v->row_bytes, base + (size_t)list[q0 + t] * v->row_bytes,
                       v->row_bytes);
        }
        w->ext[x].dims[0] = n;
        w->ext[x].nbytes = (size_t)n * v->row_bytes;
    }
    const int64_t N = j->fs.s.n_rows, ds = j->fs.s.dst_stride;
    osc_ixc c = osc_ixc_of(&j->fs.s.dst), cs = osc_ixc_of(&j->fs.src);
    for (int64_t t = 0; t < n; t++) {
        const int64_t e = list ? list[q0 + t] : q0 + t;
        w->dst[t] = osc_ixc_row(&c, e * ds, N);
        if (p->need_src) w->src[t] = osc_ixc_row(&cs, e, j->fs.x_rows);
    }
}

/* Region node i on a tile of n edges, by its own kernel (a `once` node: its shape with n
 * rows as input 1). */
static osc_status run_node(const ft_job *j, ft_part *w, int32_t i, int64_t n, osc_err *err) {
    const osc_ft_params *p = j->p;
    const osc_ft_node *nd = &p->nodes[i];
    const osc_tensor *ins[OSC_FT_MAX_NIN];
    for (int32_t a = 0; a < nd->n_in; a++) {
        const osc_ft_ref r = nd->in[a];
        ins[a] = r.kind == OSC_FT_SLOT ? &w->slot[r.at]
               : r.kind == OSC_FT_NONE ? NULL
               : p->ext[r.at].row      ? &w->ext[r.at] : j->in[p->ext_base + r.at];
    }
    osc_tensor by; /* the tile's destinations (or sources), or a once node's shape */
    int64_t shape[OSC_MAX_RANK];
    if (nd->once) {
        memcpy(shape, nd->shape, (size_t)nd->shape_rank * sizeof shape[0]);
        shape[0] = n;
        osc_tensor_vec(&by, OSC_INT64, sizeof shape[0], nd->shape_rank, shape);
        ins[1] = &by;
    } else if (nd->by != OSC_FT_BY_INPUT) {
        osc_tensor_vec(&by, OSC_INT64, sizeof shape[0], n,
                       nd->by == OSC_FT_BY_SRC ? w->src : w->dst);
        ins[1] = &by;
    }
    osc_tensor *o = &w->slot[i];
    o->dims[0] = n;
    o->nbytes = (size_t)n * p->slots[i].row_bytes;
    const osc_kernel *row = nd->node.kernel;
    osc_kctx kk = {.err = err, .graph = j->k->graph, .node = &nd->node, .row = row,
                   .since_version = row->since, .params = nd->node.params,
                   .alloc = j->k->alloc, .scratch = &w->scratch, .strict = j->k->strict};
    return row->run(&kk, ins, nd->n_in, o, 1);
}

/* The region's nodes on a tile of n edges (a `once` node's rows are all alike: the first n of
 * the whole tile it made; a Relu fused into its product was applied by it). */
static osc_status run_nodes(const ft_job *j, ft_part *w, int64_t n) {
    const osc_ft_params *p = j->p;
    for (int32_t i = 0; i < p->n_nodes; i++) {
        if (p->nodes[i].once || p->nodes[i].alias >= 0) {
            w->slot[i].dims[0] = n;
            w->slot[i].nbytes = (size_t)n * p->slots[i].row_bytes;
            continue;
        }
        osc_status st = run_node(j, w, i, n, &w->err);
        if (st) return st;
    }
    return OSC_OK;
}

static void ft_part_run(void *ctx, int32_t part, int32_t parts) {
    (void)parts;
    ft_job *j = ctx;
    ft_part *w = &j->part[part];
    const osc_ft_params *p = j->p;
    const osc_fs_job *fs = &j->fs;
    const int64_t lo = fs->s.bounds[part], hi = fs->s.bounds[part + 1];
    osc_fs_start_rows(fs, lo, hi);
    const uint32_t *list = fs->s.list;
    const int64_t q1 = fs->s.at[part + 1], tile = j->z->tile;
    osc_fs_reset_rows(fs, lo, hi, fs->s.at[part], q1);
    const char *opnd[OSC_FS_MAX_STEPS]; /* a gather-scatter's operands: a tiled one's tile */
    for (int32_t s = 0; s < p->fs.n_steps; s++)
        opnd[s] = p->fs.steps[s].tiled ? w->slot[p->fs.steps[s].slot].data : fs->opnd[s];
    for (int64_t q = fs->s.at[part]; q < q1; q += tile) {
        const int64_t n = q1 - q < tile ? q1 - q : tile;
        load_tile(j, w, list, q, n);
        if (run_nodes(j, w, n)) return;
        if (p->updates >= 0) j->apply(fs->out, p->fs.row, w->dst, n, w->slot[p->updates].data);
        else fs->edges(fs, lo, hi, q, q + n, opnd);
    }
}

/* Dim d of the parameters, a symbol replaced by its size in this run. */
static int64_t size_of(const osc_ft_params *p, const ft_sizes *z, int64_t d) {
    osc_sym_subst(&p->syms, z->vals, &d, 1);
    return d;
}

/* *z for this run: p's symbols read from the inputs, the scatter's parameters with them in
 * place, the tile (at most E edges). */
static osc_status resolve(osc_kctx *k, const osc_ft_params *p, const osc_tensor *const *in,
                          int32_t n_in, ft_sizes *z) {
    z->fs = &p->fs;
    z->tile = p->tile;
    if (!p->syms.n) return OSC_OK;
    osc_status st = osc_sym_resolve(k, &p->syms, in, n_in, z->vals);
    if (st) return st;
    osc_fs_params *f = &z->rfs;
    *f = p->fs;
    osc_sym_subst(&p->syms, z->vals, &f->edges, 1);
    osc_sym_subst(&p->syms, z->vals, f->dims, f->rank);
    f->steps = memcpy(z->steps, p->fs.steps, (size_t)p->fs.n_steps * sizeof z->steps[0]);
    for (int32_t s = 0; s < f->n_steps; s++) {
        osc_sym_subst(&p->syms, z->vals, z->steps[s].dims, z->steps[s].rank);
        osc_sym_subst(&p->syms, z->vals, z->steps[s].odims, z->steps[s].orank);
    }
    z->fs = f;
    if (z->tile > f->edges) z->tile = f->edges > 0 ? f->edges : 1;
    return OSC_OK;
}

/* Input x's dim d is `got` where the parameters have dim `want` (a symbol's size `size`): the
 * message names both, and where a symbol's size was read. */
static osc_status dim_fail(osc_kctx *k, const osc_ft_params *p, int32_t at, int32_t d,
                           int64_t got, int64_t want, int64_t size) {
    for (int32_t i = 0; OSC_DIM_IS_SYM(want) && i < p->syms.n; i++) {
        const osc_sym_bind *b = &p->syms.at[i];
        if (b->code != want) continue;
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d (%s) dim %d is %lld, but the fusion reads "
                         "it as a dim of the model's dynamic axes that input %d (%s) dim %d "
                         "gives as %lld", (int)at, osc_kinput_name(k, at), (int)d,
                         (long long)got, (int)b->input[0], osc_kinput_name(k, b->input[0]),
                         (int)b->dim[0], (long long)size);
    }
    return osc_kfail(k, OSC_ERR_SHAPE, "input %d (%s) dim %d is %lld; the fusion was made for "
                     "%lld", (int)at, osc_kinput_name(k, at), (int)d, (long long)got,
                     (long long)size);
}

/* The region's external inputs as the fusion saw them (symbols replaced by their sizes in
 * z), where each one's value starts (z->offset), and a TiledScatter's data and destinations (a
 * gather-scatter's own inputs: osc_fs_check, osc_fs_bind). */
static osc_status check(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, ft_sizes *z) {
    const osc_ft_params *p = k->params;
    const int32_t dtype = p->dtype;
    osc_status st = resolve(k, p, in, n_in, z);
    if (!st && p->updates >= 0) st = osc_fs_check_scatter(k, z->fs, dtype, in, n_in);
    if (st) return st;
    for (int32_t x = 0; x < p->n_ext; x++) {
        const osc_ft_value *v = &p->ext[x];
        const int32_t at = p->ext_base + x;
        const osc_tensor *t = at < n_in ? in[at] : NULL;
        if (!t || t->dtype != v->dtype || t->rank != v->src_rank)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d (%s) is not the %s tensor of rank %d "
                             "the fusion was made for", at, osc_kinput_name(k, at),
                             osc_dtype_get(v->dtype)->name, (int)v->src_rank);
        for (int32_t d = 0; d < v->src_rank; d++) {
            const int64_t want = size_of(p, z, v->src_dims[d]);
            if (t->dims[d] != want) return dim_fail(k, p, at, d, t->dims[d], v->src_dims[d], want);
        }
        /* a row view: from row `view` on (rows of a tensor of no elements are empty) */
        z->offset[x] = v->view < 0 ? 0
                                   : (size_t)v->view * (size_t)(osc_tensor_count(t) / t->dims[0]) *
                                         (osc_dtype_get(t->dtype)->bits / 8);
    }
    if (p->updates >= 0 && !apply_of(p, dtype))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "reduction '%s' on %s",
                         osc_reduction_name(p->fs.reduction), osc_dtype_get(dtype)->name);
    return OSC_OK;
}

osc_status osc_ft_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    const osc_ft_params *p = k->params;
    osc_ixv src;
    ft_sizes z;
    osc_status st = check(k, in, n_in, &z);
    if (!st && p->updates < 0) st = osc_fs_check(k, z.fs, in, n_in, &src);
    if (st) return st;
    if (n_out < 1 || !out) return osc_kfail(k, OSC_ERR_MODEL, "output 0 is required but missing");
    out->dtype = p->dtype;
    out->rank = z.fs->rank;
    memcpy(out->dims, z.fs->dims, (size_t)z.fs->rank * sizeof z.fs->dims[0]);
    return OSC_OK;
}

/* Every Gather's indices within its table's rows, the message naming that Gather; a table
 * read by the tile's destinations (sources) has the rows they were checked against. */
static osc_status check_gathers(osc_kctx *k, const osc_tensor *const *in, const ft_job *j) {
    const osc_ft_params *p = k->params;
    const osc_fs_job *fs = &j->fs;
    for (int32_t i = 0; i < p->n_nodes; i++) {
        const osc_ft_node *nd = &p->nodes[i];
        if (!nd->gather) continue;
        osc_kctx kk = *k;
        kk.node = &nd->node;
        kk.row = nd->node.kernel;
        kk.since_version = kk.row->since;
        const int64_t rows = in[p->ext_base + nd->in[0].at]->dims[0];
        if (nd->by != OSC_FT_BY_INPUT) {
            const int64_t want = nd->by == OSC_FT_BY_DST ? fs->s.n_rows : fs->x_rows;
            if (rows != want)
                return osc_kfail(&kk, OSC_ERR_SHAPE, "input 0 'data' has %lld rows; the fusion "
                                 "reads it by the scatter's %s index, of %lld rows",
                                 (long long)rows, nd->by == OSC_FT_BY_DST ? "destination"
                                                                          : "source",
                                 (long long)want);
            continue;
        }
        const int32_t x = nd->in[1].at; /* the index: an input, or a row of one */
        const osc_ft_value *v = &p->ext[x];
        osc_tensor idx;
        tile_tensor(&idx, v, size_of(p, j->z, v->dims[0]),
                    (char *)in[p->ext_base + x]->data + j->z->offset[x]);
        osc_status st = osc_check_index_range(&kk, &idx, 0, rows);
        if (st) return st;
    }
    return OSC_OK;
}

static void release(osc_kctx *k, ft_job *j, int32_t parts) {
    for (int32_t t = 0; t < parts; t++) {
        osc_free(k->alloc, j->part[t].mem, j->part[t].mem_size);
        osc_scratch_free(&j->part[t].scratch);
    }
    osc_free(k->alloc, j->part, (size_t)parts * sizeof *j->part);
}

/* Part t's tile buffers (slots, copies of external rows when `copies`, destinations), its
 * scratch, and its `once` nodes' tiles. */
static osc_status prepare_part(osc_kctx *k, ft_job *j, ft_part *w, bool copies) {
    const osc_ft_params *p = j->p;
    const size_t T = (size_t)j->z->tile;
    size_t at = 0, off[OSC_FT_MAX_NODES + OSC_FT_MAX_EXT] = {0}; /* cache-line aligned */
    for (int32_t i = 0; i < p->n_nodes + p->n_ext; i++) {
        const osc_ft_value *v = i < p->n_nodes ? &p->slots[i] : &p->ext[i - p->n_nodes];
        const bool alias = i < p->n_nodes && p->nodes[i].alias >= 0;
        off[i] = alias ? off[p->nodes[i].alias] : at;
        if ((i < p->n_nodes && !alias) || (i >= p->n_nodes && v->row && copies))
            at += (T * v->row_bytes + 63) / 64 * 64;
    }
    w->mem_size = at + (p->need_src ? 2 : 1) * T * sizeof(int64_t);
    w->scratch.alloc = k->alloc;
    w->mem = osc_malloc(k->alloc, w->mem_size);
    if (!w->mem || (p->pack_bytes && !osc_scratch_get(&w->scratch, p->pack_bytes)))
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate the tiles of %lld edges",
                         (long long)T);
    for (int32_t i = 0; i < p->n_nodes; i++)
        tile_tensor(&w->slot[i], &p->slots[i], (int64_t)T, w->mem + off[i]);
    for (int32_t x = 0; x < p->n_ext; x++)
        tile_tensor(&w->ext[x], &p->ext[x], (int64_t)T, copies ? w->mem + off[p->n_nodes + x]
                                                               : NULL);
    w->dst = (int64_t *)(void *)(w->mem + at);
    w->src = p->need_src ? w->dst + T : NULL;
    for (int32_t i = 0; i < p->n_nodes; i++) {
        osc_status st = p->nodes[i].once ? run_node(j, w, i, (int64_t)T, k->err) : OSC_OK;
        if (st) return st;
    }
    return OSC_OK;
}

osc_status osc_ft_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                         osc_tensor *out, int32_t n_out) {
    const osc_ft_params *p = k->params;
    ft_sizes z;
    osc_status st = check(k, in, n_in, &z);
    if (st) return st;
    const osc_tensor *data = n_in > 0 ? in[0] : NULL;
    const int32_t dtype = p->dtype;
    ft_job j = {.k = k, .p = p, .in = in, .z = &z};
    size_t bytes;
    if (p->updates < 0) {
        st = osc_fs_bind(k, z.fs, in, n_in, out, n_out, &j.fs, &bytes);
    } else {
        j.apply = apply_of(p, dtype);
        j.fs = (osc_fs_job){.p = z.fs, .out = out ? out->data : NULL,
                            .esize = osc_dtype_get(dtype)->bits / 8};
        st = osc_fs_prepare(k, z.fs, dtype, in, n_in, out, n_out, &j.fs.s, &bytes);
        osc_fs_set_start(&j.fs, data);
    }
    if (!st) st = check_gathers(k, in, &j);
    if (st) return st;
    /* Parts need lists (a part's edges are then copied into its tiles). Small update rows
     * (a fill) take another scatter's split but never make one: with parts, the tiles' own
     * costs (buffers, copies) outweigh the rows' (GAT's fill: 1.1 ms on one thread, 3.2 ms of
     * work on two plus the split). */
    const size_t upd_bytes = p->updates >= 0 ? p->slots[p->updates].row_bytes
                                             : (size_t)p->fs.row * j.fs.esize;
    const size_t work = bytes + (size_t)z.fs->edges * upd_bytes;
    const int32_t make = upd_bytes < OSC_FS_PAR_ROW_BYTES ? OSC_FS_SPLIT_REUSE : OSC_FS_SPLIT_MAKE;
    int32_t parts = k->tpool && work >= OSC_PAR_MIN_BYTES && j.fs.s.n_rows > 1 &&
                            osc_fs_split_shared(k, &j.fs.s, make) && j.fs.s.list
                        ? osc_tpool_size(k->tpool) : 1;
    if (parts == 1) osc_fs_split_one(&j.fs.s);
    if (!(j.part = osc_calloc(k->alloc, (size_t)parts, sizeof *j.part)))
        return osc_kfail(k, OSC_ERR_NOMEM, "cannot allocate the state of %d parts", (int)parts);
    /* (copies exactly when the edges come through a list: load_tile reads them so) */
    for (int32_t t = 0; t < parts; t++)
        if ((st = prepare_part(k, &j, &j.part[t], j.fs.s.list != NULL))) {
            release(k, &j, t + 1);
            return st;
        }
    /* Validation is complete: from here on the output is written. */
    osc_tpool_run(parts > 1 ? k->tpool : NULL, ft_part_run, &j);
    for (int32_t t = 0; t < parts && !st; t++)
        if (j.part[t].err.status) st = osc_fail(k->err, j.part[t].err.status, "%s",
                                                j.part[t].err.msg);
    release(k, &j, parts);
    return st;
}
