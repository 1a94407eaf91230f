/* seq_map.c: SequenceMap-17: runs the body once per item of input 0 (a sequence); the body's
 * inputs are that item and, for each further input, its item of the same position (a sequence
 * as long as input 0) or the whole tensor. Output j is the sequence of the body's output j. */
#include "cf.h"
#include "core/dtype.h"
#include "core/kattr.h"
#include "core/pack.h"

OSC_KERNEL_DECLARE(osc_seq_map)

typedef struct map_params {
    const osc_attr *body;
    int32_t n_in; /* the op's own inputs */
} map_params;

osc_status osc_seq_map_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"body", NULL};
    osc_status st = osc_attr_known(k, node, known);
    map_params *p = st ? NULL : osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->n_in = node->n_inputs - node->n_implicit;
    if ((st = cf_graph_attr(k, node, "body", p->n_in, node->n_outputs, &p->body))) return st;
    *params = p;
    return OSC_OK;
}

/* The items of input i (a sequence as long as n), or -1 for a tensor. */
static osc_status check_input(osc_kctx *k, const osc_tensor *t, int32_t i, int64_t n) {
    if (!t) return osc_kfail(k, OSC_ERR_MODEL, "input %d is missing", (int)i);
    if (t->dtype == OSC_OPTIONAL)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d (%s) is an optional; SequenceMap maps "
                         "sequences and passes tensors", (int)i, osc_kinput_name(k, i));
    if (t->dtype != OSC_SEQUENCE) return OSC_OK;
    int64_t c = t->data ? osc_pack_head_of(t)->count : -1;
    if (c != n)
        return osc_kfail(k, OSC_ERR_SHAPE, "input %d (%s) is a sequence of %lld items; input 0 "
                         "has %lld, and every sequence input must have as many", (int)i,
                         osc_kinput_name(k, i), (long long)c, (long long)n);
    return OSC_OK;
}

/* Packs the n items of output j (items[j * n ...]) into out's tensor j. */
static osc_status pack_output(osc_kctx *k, const map_params *p, cf_set *items, int64_t n,
                              int32_t j, cf_set *out) {
    const osc_tensor **ptr = n ? osc_calloc(k->alloc, (size_t)n, sizeof *ptr) : NULL;
    if (n && !ptr) return osc_kfail(k, OSC_ERR_NOMEM, "out of memory");
    const osc_graph *g = p->body->g;
    int32_t elem = g->values[g->outputs[j]].decl.dtype; /* of an empty output: as declared */
    osc_status st = OSC_OK;
    for (int64_t i = 0; i < n && !st; i++) {
        ptr[i] = &items->t[(int64_t)j * n + i];
        if (ptr[i]->dtype != ptr[0]->dtype || osc_is_pack(ptr[i]->dtype) ||
            ptr[i]->dtype == OSC_STRING)
            st = osc_kfail(k, OSC_ERR_SHAPE, "body output %d is %s at item %lld and %s at item "
                           "0; a sequence holds tensors of one dtype (not strings)", (int)j,
                           osc_dtype_get(ptr[i]->dtype)->name, (long long)i,
                           osc_dtype_get(ptr[0]->dtype)->name);
    }
    uint64_t bytes = 0;
    if (!st && (!osc_pack_bytes(n, ptr, &bytes) || bytes > (uint64_t)INT64_MAX))
        st = osc_kfail(k, OSC_ERR_LIMIT, "output %d is too large", (int)j);
    if (!st) st = cf_set_make(k, out, j, OSC_SEQUENCE, 1, (const int64_t[]){(int64_t)bytes});
    if (!st)
        osc_pack_write(out->t[j].data, OSC_SEQUENCE, osc_dtype_valid(elem) ? elem : 0, n, ptr);
    if (ptr) osc_free(k->alloc, (void *)ptr, (size_t)n * sizeof *ptr);
    return st;
}

static osc_status eval(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, cf_set *out,
                       int32_t n_out) {
    (void)n_in;
    const map_params *p = k->params;
    if (!in[0] || in[0]->dtype != OSC_SEQUENCE || !in[0]->data)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 must be a sequence of known items");
    int64_t n = osc_pack_head_of(in[0])->count;
    osc_status st = OSC_OK;
    for (int32_t i = 1; i < p->n_in && !st; i++) st = check_input(k, in[i], i, n);
    if (st) return st;
    if ((uint64_t)n > (uint64_t)INT32_MAX / (uint64_t)(n_out ? n_out : 1))
        return osc_kfail(k, OSC_ERR_LIMIT, "%lld items are too many", (long long)n);
    cf_set *items = cf_set_new(k, (int32_t)(n * n_out) + 1);
    osc_tensor *views = osc_calloc(k->alloc, (size_t)p->n_in, sizeof *views);
    const osc_tensor **ins = osc_calloc(k->alloc, (size_t)p->n_in, sizeof *ins);
    osc_tensor *res = osc_calloc(k->alloc, (size_t)n_out + 1, sizeof *res);
    if (!items || !views || !ins || !res) st = osc_kfail(k, OSC_ERR_NOMEM, "out of memory");
    for (int64_t it = 0; it < n && !st; it++) {
        if ((st = osc_kcancelled(k))) break;
        for (int32_t i = 0; i < p->n_in; i++) {
            if (in[i]->dtype == OSC_SEQUENCE) osc_pack_item_view(in[i], it, &views[i]);
            else views[i] = *in[i];
            ins[i] = &views[i];
        }
        st = k->body(k, p->body, ins, p->n_in, in, res, n_out, "body");
        for (int32_t j = 0; j < n_out && !st; j++)
            st = cf_set_put(k, items, (int32_t)((int64_t)j * n + it), &res[j]);
    }
    for (int32_t j = 0; j < n_out && !st; j++) st = pack_output(k, p, items, n, j, out);
    if (items) cf_set_free(items);
    if (views) osc_free(k->alloc, views, (size_t)p->n_in * sizeof *views);
    if (ins) osc_free(k->alloc, (void *)ins, (size_t)p->n_in * sizeof *ins);
    if (res) osc_free(k->alloc, res, ((size_t)n_out + 1) * sizeof *res);
    return st;
}

osc_status osc_seq_map_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out) {
    return cf_infer(k, in, n_in, out, n_out, eval);
}

osc_status osc_seq_map_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    return cf_run(k, in, n_in, out, n_out, eval);
}
