/* reverse_sequence.c: ReverseSequence-10: for each batch entry b, the first sequence_lens[b]
 * steps along the time axis reversed, the rest copied. */
#include "core/dtype.h"
#include "shape_ops.h"

OSC_KERNEL_DECLARE(osc_revseq)

/* Attributes init parses: the two axes, 0 and 1 in either order. */
typedef struct revseq_params {
    bool batch_first; /* batch_axis 0, time_axis 1 */
} revseq_params;

osc_status osc_revseq_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"batch_axis", "time_axis", NULL};
    int64_t batch = 1, time = 0;
    osc_status st = osc_attr_known(k, node, known);
    if (!st) st = osc_attr_int(k, node, "batch_axis", 1, &batch);
    if (!st) st = osc_attr_int(k, node, "time_axis", 0, &time);
    if (st) return st;
    if (batch < 0 || batch > 1 || time < 0 || time > 1 || batch == time)
        return osc_kfail(k, OSC_ERR_MODEL, "attributes 'batch_axis' = %lld and 'time_axis' = "
                         "%lld; each must be 0 or 1, and they must differ", (long long)batch,
                         (long long)time);
    revseq_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->batch_first = batch == 0;
    *params = p;
    return OSC_OK;
}

/* The output is shaped like the input; sequence_lens must be [batch]. Its values do not
 * change the shape (no infer_reads bit): run checks them. */
static osc_status geometry(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *o, void *aux) {
    (void)aux; /* none */
    const bool bf = ((const revseq_params *)k->params)->batch_first;
    char buf[256], xb[256];
    int64_t count;
    osc_status st = osc_sh_need_typed(k, in, n_in, 0, "input", &count);
    if (!st) st = osc_sh_need_typed(k, in, n_in, 1, "sequence_lens", &count);
    if (st) return st;
    const osc_tensor *x = in[0], *sl = in[1];
    if (x->rank < 2)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) has shape %s; expected rank "
                         ">= 2", osc_kinput_name(k, 0), osc_shape_str(x, buf, sizeof buf));
    const int64_t batch = x->dims[bf ? 0 : 1];
    if (sl->rank != 1 || sl->dims[0] != batch)
        return osc_kfail(k, OSC_ERR_SHAPE, "input 1 'sequence_lens' (%s) has shape %s; expected "
                         "[%lld], the batch dim %d of input 0 'input' %s", osc_kinput_name(k, 1),
                         osc_shape_str(sl, buf, sizeof buf), (long long)batch, bf ? 0 : 1,
                         osc_shape_str(x, xb, sizeof xb));
    osc_same_shape(o, x);
    return OSC_OK;
}

static osc_status revseq_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                               osc_tensor *out, const osc_tensor *want, const osc_sh_none *aux) {
    (void)n_in, (void)aux;
    const bool bf = ((const revseq_params *)k->params)->batch_first;
    const int64_t *lens = in[1]->data;
    const int64_t nb = want->dims[bf ? 0 : 1], nt = want->dims[bf ? 1 : 0];
    const int64_t inner = osc_dims_prod(want->dims + 2, want->rank - 2);
    /* strides of the batch and time axes, in elements */
    const int64_t sb = bf ? nt * inner : inner, st = bf ? inner : nb * inner;
    const unsigned bits = osc_sh_bits(want->dtype);
    for (int64_t b = 0; b < nb; b++) /* every value checked before anything is written */
        if (lens[b] < 0 || lens[b] > nt)
            return osc_kfail(k, OSC_ERR_INDEX, "input 1 'sequence_lens' (%s) position %lld: "
                             "value %lld is out of range [0, %lld] (the time dim %d of input 0)",
                             osc_kinput_name(k, 1), (long long)b, (long long)lens[b],
                             (long long)nt, bf ? 1 : 0);
    for (int64_t b = 0; b < nb; b++)
        for (int64_t t = 0; t < nt; t++) {
            const int64_t from = t < lens[b] ? lens[b] - 1 - t : t;
            osc_copy_elems(out[0].data, b * sb + t * st, in[0]->data, b * sb + from * st, inner,
                           bits);
        }
    return OSC_OK;
}

OSC_SH_KERNEL(osc_revseq, geometry, revseq_write)
