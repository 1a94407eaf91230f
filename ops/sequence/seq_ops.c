/* seq_ops.c: SequenceEmpty, SequenceConstruct, SequenceInsert, SequenceErase, SequenceAt and
 * SequenceLength. Positions follow the spec: [-n, n - 1], and [-n, n] for an insert. */
#include "core/dtype.h"
#include "seq.h"

OSC_KERNEL_DECLARE(osc_seq_empty)
OSC_KERNEL_DECLARE(osc_seq_construct)
OSC_KERNEL_DECLARE(osc_seq_insert)
OSC_KERNEL_DECLARE(osc_seq_erase)
OSC_KERNEL_DECLARE(osc_seq_at)
OSC_KERNEL_DECLARE(osc_seq_length)

static const char *const k_none[] = {NULL};

osc_status osc_seq_empty_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"dtype", NULL};
    int64_t dt;
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_attr_int(k, node, "dtype", OSC_FLOAT, &dt);
    if (st) return st;
    if (!osc_dtype_valid((int32_t)dt) || dt == OSC_STRING)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'dtype' is %lld; allowed: a tensor dtype "
                         "number in [1, %d] but string (8)", (long long)dt, OSC_DTYPE_COUNT - 1);
    int32_t *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    *p = (int32_t)dt;
    *params = p;
    return OSC_OK;
}

static osc_status empty_build(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              seq_items *it) {
    (void)in, (void)n_in;
    osc_status st = seq_items_new(k, 0, it);
    it->kind = OSC_SEQUENCE;
    it->elem = *(const int32_t *)k->params;
    return st;
}
SEQ_VALUE_KERNEL(osc_seq_empty, empty_build, NULL)

osc_status osc_seq_construct_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    return osc_attr_known(k, node, k_none);
}

static osc_status construct_build(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                  seq_items *it) {
    if (n_in < 1) return osc_kfail(k, OSC_ERR_MODEL, "needs at least one input");
    for (int32_t i = 0; i < n_in; i++) {
        osc_status st = osc_need_input(k, in, n_in, i, "inputs");
        if (!st) st = seq_item_ok(k, i, "inputs", in[i], in[0]->dtype);
        if (st) return st;
    }
    osc_status st = seq_items_new(k, n_in, it);
    for (int32_t i = 0; !st && i < n_in; i++) it->p[i] = in[i];
    it->kind = OSC_SEQUENCE;
    it->elem = n_in ? in[0]->dtype : 0;
    return st;
}
SEQ_VALUE_KERNEL(osc_seq_construct, construct_build, NULL)

osc_status osc_seq_insert_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    return osc_attr_known(k, node, k_none);
}

/* Items 0..n-1 of input 0 into it->t[at..], skipping item `skip` (-1: none). */
static void views(const osc_tensor *seq, int64_t n, int64_t skip, seq_items *it, int64_t at) {
    for (int64_t i = 0; i < n; i++)
        if (i != skip) osc_pack_item_view(seq, i, &it->t[at++]);
}

static osc_status insert_build(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               seq_items *it) {
    osc_pack_head h;
    int64_t pos;
    osc_status st = seq_input(k, in, n_in, 0, "input_sequence", &h);
    if (!st) st = osc_need_input(k, in, n_in, 1, "tensor");
    if (!st) st = seq_item_ok(k, 1, "tensor", in[1], h.elem);
    if (!st && n_in > 2 && in[2]) st = seq_position(k, in[2], 2, h.count, true, &pos);
    else pos = h.count;
    if (!st) st = seq_items_new(k, h.count + 1, it);
    if (st) return st;
    views(in[0], pos, -1, it, 0);
    it->p[pos] = in[1];
    for (int64_t i = pos; i < h.count; i++) osc_pack_item_view(in[0], i, &it->t[i + 1]);
    it->kind = OSC_SEQUENCE;
    it->elem = in[1]->dtype;
    return OSC_OK;
}
SEQ_VALUE_KERNEL(osc_seq_insert, insert_build, NULL)

osc_status osc_seq_erase_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    return osc_attr_known(k, node, k_none);
}

static osc_status erase_build(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              seq_items *it) {
    osc_pack_head h;
    int64_t pos = 0;
    osc_status st = seq_input(k, in, n_in, 0, "input_sequence", &h);
    if (!st && h.count == 0)
        st = osc_kfail(k, OSC_ERR_INDEX, "input 0 'input_sequence' (%s) is empty: there is no "
                       "item to erase", osc_kinput_name(k, 0));
    if (!st && n_in > 1 && in[1]) st = seq_position(k, in[1], 1, h.count, false, &pos);
    else pos = h.count - 1;
    if (!st) st = seq_items_new(k, h.count - 1, it);
    if (st) return st;
    views(in[0], h.count, pos, it, 0);
    it->kind = OSC_SEQUENCE;
    it->elem = h.elem;
    return OSC_OK;
}
SEQ_VALUE_KERNEL(osc_seq_erase, erase_build, NULL)

osc_status osc_seq_at_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    return osc_attr_known(k, node, k_none);
}

/* The item SequenceAt picks, as a view. */
static osc_status at_item(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *item) {
    osc_pack_head h;
    int64_t pos;
    osc_status st = seq_input(k, in, n_in, 0, "input_sequence", &h);
    if (!st) st = osc_need_input(k, in, n_in, 1, "position");
    if (!st) st = seq_position(k, in[1], 1, h.count, false, &pos);
    if (!st) osc_pack_item_view(in[0], pos, item);
    return st;
}

osc_status osc_seq_at_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            osc_tensor *out, int32_t n_out) {
    osc_tensor item;
    osc_status st = at_item(k, in, n_in, &item);
    return osc_infer_out0(k, st, &item, out, n_out);
}

osc_status osc_seq_at_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                          osc_tensor *out, int32_t n_out) {
    osc_tensor item;
    osc_status st = at_item(k, in, n_in, &item);
    if (!st) st = seq_check_out(k, out, n_out, &item);
    if (!st && item.nbytes) memcpy(out[0].data, item.data, item.nbytes);
    return st;
}

osc_status osc_seq_length_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    return osc_attr_known(k, node, k_none);
}

osc_status osc_seq_length_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    memset(&want, 0, sizeof want);
    want.dtype = OSC_INT64; /* a scalar */
    return osc_infer_out0(k, osc_need_input(k, in, n_in, 0, "input_sequence"), &want, out,
                          n_out);
}

osc_status osc_seq_length_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *out, int32_t n_out) {
    osc_pack_head h;
    osc_tensor want = {.dtype = OSC_INT64}; /* a scalar */
    osc_status st = seq_input(k, in, n_in, 0, "input_sequence", &h);
    if (!st) st = seq_check_out(k, out, n_out, &want);
    if (!st) memcpy(out[0].data, &h.count, sizeof h.count);
    return st;
}
