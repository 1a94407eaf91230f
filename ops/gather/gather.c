/* gather.c: Gather-1/11/13: take whole slices of data along one axis at the given indices. */
#include <string.h>

#include "core/dtype.h"
#include "gather.h"
#include "ops/shape/shape_ops.h"



osc_status osc_gather_init(osc_kctx *k, const osc_node *node, void **params) {
    _Static_assert(offsetof(osc_gather_params, axis) == 0, "osc_init_axis writes the first member");
    return osc_init_axis(k, node, 0, false, sizeof(osc_gather_params), params);
}

/* out = data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:]; aux: the int32_t axis,
 * normalised */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    int64_t count;
    osc_status st = osc_sh_need(k, in, n_in, 0, "data");
    if (!st) st = osc_sh_need(k, in, n_in, 1, "indices");
    if (!st) st = osc_sh_check_type(k, 0, "data", in[0], osc_kernel_types(k->row, 0));
    if (!st) st = osc_check_index_dtype(k, 1, "indices", in[1], true);
    if (!st) st = osc_check_count(k, 0, "data", in[0], &count);
    if (!st) st = osc_check_count(k, 1, "indices", in[1], &count);
    if (st) return st;
    const osc_tensor *data = in[0], *idx = in[1];
    int32_t r = data->rank, q = idx->rank, axis;
    if (r < 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) has rank 0; expected rank >= 1",
                         osc_kinput_name(k, 0));
    if ((st = osc_norm_axis(k, ((const osc_gather_params *)k->params)->axis, r, &axis))) return st;
    if (q + r - 1 > OSC_MAX_RANK)
        return osc_kfail(k, OSC_ERR_LIMIT, "output rank %d exceeds %d", (int)(q + r - 1),
                         OSC_MAX_RANK);
    memset(o, 0, sizeof *o);
    o->dtype = data->dtype;
    o->rank = q + r - 1;
    memcpy(o->dims, data->dims, (size_t)axis * sizeof(int64_t));
    memcpy(o->dims + axis, idx->dims, (size_t)q * sizeof(int64_t));
    memcpy(o->dims + axis + q, data->dims + axis + 1, (size_t)(r - axis - 1) * sizeof(int64_t));
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output would have more than 2^63-1 elements");
    if (aux) *(int32_t *)aux = axis;
    return OSC_OK;
}

osc_status osc_gather_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, int32_t n_out) {
    return osc_sh_infer_with(k, geometry, in, n_in, out, n_out);
}

typedef struct gather_job {
    void *out;
    const void *data;
    const osc_tensor *idx;
    int64_t s, outer, inner, n;
    unsigned bits;
} gather_job;

/* Output slices for indices [j0, j1) of every outer block. A slice of whole bytes is one
 * chunk: chunks of 1, 2, 4, 8, 12 or 16 bytes (a gather of scalars, of pairs of floats, of 3-D
 * points, by an edge list) move as one value of that size (a call to memcpy per row was 2 ms
 * of EdgeConv's 57), larger ones by memcpy; sub-byte slices by element. */
typedef struct bytes12 {
    unsigned char b[12];
} bytes12;
typedef struct bytes16 {
    unsigned char b[16];
} bytes16;
#define GATHER_CHUNKS(T) /* memcpy of a constant size: one move, any alignment */          \
    if (g->idx->dtype == OSC_INT32) GATHER_LOOP(T, int32_t)                                \
    else GATHER_LOOP(T, int64_t)
#define GATHER_LOOP(T, IT) /* the index read through a local: stores cannot alias it */    \
    {                                                                                      \
        const IT *ix = g->idx->data;                                                       \
        const int64_t s = g->s;                                                            \
        for (int64_t r = 0; r < g->outer; r++) {                                           \
            char *o = (char *)g->out + (size_t)(r * g->n) * sizeof(T);                     \
            const char *d = (const char *)g->data + (size_t)(r * s) * sizeof(T);           \
            for (int64_t j = j0; j < j1; j++) {                                            \
                const int64_t v = ix[j];                                                   \
                memcpy(o + (size_t)j * sizeof(T), d + (size_t)(v < 0 ? v + s : v) * sizeof(T), \
                       sizeof(T));                                                         \
            }                                                                              \
        }                                                                                  \
    }
static void gather_part(void *ctx, int32_t part, int32_t parts) {
    const gather_job *g = ctx;
    int64_t j0, j1;
    osc_par_range(g->n, 1, part, parts, &j0, &j1);
    const size_t chunk = g->bits >= 8 ? (size_t)g->inner * (g->bits / 8) : 0;
    if (chunk == 1) GATHER_CHUNKS(uint8_t)
    else if (chunk == 2) GATHER_CHUNKS(uint16_t)
    else if (chunk == 4) GATHER_CHUNKS(uint32_t)
    else if (chunk == 8) GATHER_CHUNKS(uint64_t)
    else if (chunk == 12) GATHER_CHUNKS(bytes12)
    else if (chunk == 16) GATHER_CHUNKS(bytes16)
    else if (chunk > 0)
        for (int64_t r = 0; r < g->outer; r++)
            for (int64_t j = j0; j < j1; j++) {
                int64_t v = osc_index_at(g->idx, j);
                if (v < 0) v += g->s;
                memcpy((char *)g->out + (size_t)(r * g->n + j) * chunk,
                       (const char *)g->data + (size_t)(r * g->s + v) * chunk, chunk);
            }
    else
        for (int64_t r = 0; r < g->outer; r++)
            for (int64_t j = j0; j < j1; j++) {
                int64_t v = osc_index_at(g->idx, j);
                if (v < 0) v += g->s;
                osc_copy_elems(g->out, (r * g->n + j) * g->inner, g->data,
                               (r * g->s + v) * g->inner, g->inner, g->bits);
            }
}

osc_status osc_gather_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    int32_t axis = 0; /* set by geometry on success; initialised for -Wmaybe-uninitialized */
    osc_status st = osc_sh_run_checks(k, geometry, in, n_in, out, n_out, &want, &axis);
    if (st) return st;
    const osc_tensor *data = in[0], *idx = in[1];
    const int64_t s = data->dims[axis];
    /* every index in [-s, s-1] before the first write, even when the output is empty */
    if ((st = osc_check_index_range(k, idx, axis, s))) return st;
    if (osc_tensor_count(&want) == 0) return OSC_OK;
    /* non-empty output: data is non-empty too (s > 0 once an index passed), so these products
     * are factors of valid counts */
    gather_job j = {.out = out[0].data, .data = data->data, .idx = idx, .s = s,
                    .outer = osc_dims_prod(data->dims, axis),
                    .inner = osc_dims_prod(data->dims + axis + 1, data->rank - axis - 1),
                    .n = osc_tensor_count(idx), .bits = osc_sh_bits(data->dtype)};
    if (j.outer == 1 && j.n == 1 && j.bits >= 8 && data->dtype != OSC_STRING) {
        /* one slice (a row of edge_index): one copy, split among the threads when large */
        const int64_t v = osc_index_at(idx, 0);
        const size_t chunk = (size_t)j.inner * (j.bits / 8);
        osc_par_memcpy(k->tpool, j.out, (const char *)j.data + (size_t)(v < 0 ? v + s : v) * chunk,
                       chunk);
        return OSC_OK;
    }
    /* slices of whole bytes: the output splits into index ranges, one per thread */
    const bool par = k->tpool && j.bits >= 8 && data->dtype != OSC_STRING &&
                     (size_t)osc_tensor_count(&want) * (j.bits / 8) >= OSC_PAR_MIN_BYTES;
    osc_tpool_run(par ? k->tpool : NULL, gather_part, &j);
    return OSC_OK;
}
/* ---- GatherPieces: a Gather along axis 0 whose index is a Concat of pieces (GAT's edge lists
 * with self loops), fused to read the pieces in place (fused_scatter.h, "Index pieces"), so the
 * concatenated index is never written out: the slices of each piece in turn, by the loops
 * above. Inputs: 0 data, 1.. the pieces (the index's at input 1). Same output, same messages
 * (positions in the whole index) as the Gather it replaces. */

/* aux: the osc_ixv of the pieces */
static osc_status pieces_geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                  osc_tensor *o, void *aux) {
    const osc_gather_pieces_params *p = k->params;
    osc_ixv v_own, *v = aux ? aux : &v_own;
    int64_t count;
    osc_status st = osc_sh_need(k, in, n_in, 0, "data");
    if (!st) st = osc_check_count(k, 0, "data", in[0], &count);
    if (!st) st = osc_ixv_bind(k, &p->pc, 1, "indices", in, n_in, -1, v);
    if (st) return st;
    if (in[0]->rank < 1)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'data' (%s) has rank 0; expected rank >= 1",
                         osc_kinput_name(k, 0));
    *o = (osc_tensor){.dtype = in[0]->dtype, .rank = in[0]->rank};
    memcpy(o->dims, in[0]->dims, (size_t)o->rank * sizeof o->dims[0]);
    o->dims[0] = v->end[v->n - 1];
    if (osc_tensor_count(o) < 0)
        return osc_kfail(k, OSC_ERR_LIMIT, "the output would have more than 2^63-1 elements");
    return OSC_OK;
}

/* The rewrite's parameters, checked (infer and run check the inputs against them). */
osc_status osc_gather_pieces_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)node;
    const osc_gather_pieces_params *p = *params;
    if (!p || p->pc.n < 2 || p->pc.n > OSC_IX_MAX_PIECES)
        return osc_kfail(k, OSC_ERR_MODEL, "a GatherPieces node is made only by the load-time "
                         "rewrite, from the pieces of a Concat");
    return OSC_OK;
}

osc_status osc_gather_pieces_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, int32_t n_out) {
    return osc_sh_infer_with(k, pieces_geometry, in, n_in, out, n_out);
}

osc_status osc_gather_pieces_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    osc_ixv v;
    osc_status st = osc_sh_run_checks(k, pieces_geometry, in, n_in, out, n_out, &want, &v);
    if (st) return st;
    const int64_t s = in[0]->dims[0];
    st = osc_ixv_check(k, &v, &((const osc_gather_pieces_params *)k->params)->pc, 1, "indices",
                       "", s, NULL);
    if (st || osc_tensor_count(&want) == 0) return st;
    const unsigned bits = osc_sh_bits(in[0]->dtype);
    const int64_t inner = osc_dims_prod(in[0]->dims + 1, in[0]->rank - 1);
    osc_tensor idx;
    for (int32_t q = 0; q < v.n; q++) {
        osc_ixv_piece(&v, q, &idx);
        const int64_t from = v.start[q], n = idx.dims[0];
        gather_job j = {.data = in[0]->data, .idx = &idx, .s = s, .outer = 1, .inner = inner,
                        .n = n, .bits = bits};
        j.out = (char *)out[0].data + (size_t)(from * inner) * bits / 8;
        const bool par = k->tpool && bits >= 8 && (size_t)(n * inner) * (bits / 8) >=
                                                     OSC_PAR_MIN_BYTES;
        osc_tpool_run(par ? k->tpool : NULL, gather_part, &j);
    }
    return OSC_OK;
}

