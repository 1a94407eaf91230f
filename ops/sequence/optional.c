/* optional.c: Optional (a value holding one tensor or sequence, or none), OptionalHasElement
 * and OptionalGetElement. From 18 the last two take a tensor or sequence too (which is its own
 * element), and OptionalHasElement an omitted input (no element). */
#include "core/dtype.h"
#include "seq.h"

OSC_KERNEL_DECLARE(osc_optional)
OSC_KERNEL_DECLARE(osc_opt_has)
OSC_KERNEL_DECLARE(osc_opt_get)

static const char *const k_none[] = {NULL};

osc_status osc_optional_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"type", NULL};
    osc_status st = osc_attr_known(k, node, known);
    const osc_attr *a = osc_node_attr(node, "type");
    int32_t *elem = st ? NULL : osc_kparams(k, sizeof *elem);
    if (!elem) return k->err->status;
    if (a && (a->type != OSC_ATTR_TYPE_PROTO || !a->tp || a->tp->non_tensor || !a->tp->dtype))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'type' must be a TypeProto of a tensor "
                         "(of a said elem_type) or a sequence");
    if (a && (a->tp->dtype == OSC_OPTIONAL || a->tp->dtype == OSC_STRING))
        return osc_kfail(k, OSC_ERR_UNSUPPORTED, "attribute 'type': an optional of %s is not "
                         "supported", osc_dtype_get(a->tp->dtype)->name);
    *elem = a ? a->tp->dtype : 0;
    *params = elem;
    return OSC_OK;
}

static osc_status optional_build(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 seq_items *it) {
    int32_t elem = *(const int32_t *)k->params;
    const osc_tensor *x = n_in > 0 ? in[0] : NULL;
    if (!x && !elem)
        return osc_kfail(k, OSC_ERR_MODEL, "without an input, attribute 'type' is required");
    osc_status st = x ? seq_item_ok(k, 0, "input", x, elem) : OSC_OK;
    if (!st && x && x->dtype == OSC_OPTIONAL)
        st = osc_kfail(k, OSC_ERR_SHAPE, "input 0 'input' (%s) is an optional; an optional "
                       "holds a tensor or a sequence", osc_kinput_name(k, 0));
    if (!st) st = seq_items_new(k, x ? 1 : 0, it);
    if (st) return st;
    if (x) it->p[0] = x;
    it->kind = OSC_OPTIONAL;
    it->elem = x ? x->dtype : elem;
    return OSC_OK;
}
SEQ_VALUE_KERNEL(osc_optional, optional_build, NULL)

osc_status osc_opt_has_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    return osc_attr_known(k, node, k_none);
}

osc_status osc_opt_has_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out) {
    osc_tensor want;
    memset(&want, 0, sizeof want);
    want.dtype = OSC_BOOL; /* a scalar */
    osc_status st = k->since_version < 18 ? osc_need_input(k, in, n_in, 0, "input") : OSC_OK;
    return osc_infer_out0(k, st, &want, out, n_out);
}

osc_status osc_opt_has_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    osc_pack_head h = {0};
    const osc_tensor *x = n_in > 0 ? in[0] : NULL;
    osc_status st = k->since_version < 18 || (x && x->dtype == OSC_OPTIONAL)
                        ? seq_input(k, in, n_in, 0, "input", &h)
                        : OSC_OK;
    osc_tensor want = {.dtype = OSC_BOOL}; /* a scalar */
    if (!st) st = seq_check_out(k, out, n_out, &want);
    if (!st) *(uint8_t *)out[0].data = x && (x->dtype != OSC_OPTIONAL || h.count > 0);
    return st;
}

osc_status osc_opt_get_init(osc_kctx *k, const osc_node *node, void **params) {
    (void)params;
    return osc_attr_known(k, node, k_none);
}

/* The element: the optional's item, or the input itself (a tensor or sequence, from 18). */
static osc_status opt_element(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *e) {
    osc_pack_head h;
    osc_status st = osc_need_input(k, in, n_in, 0, "input");
    if (st || in[0]->dtype != OSC_OPTIONAL) {
        if (!st) *e = *in[0];
        return st;
    }
    if ((st = seq_input(k, in, n_in, 0, "input", &h))) return st;
    if (h.count == 0)
        return osc_kfail(k, OSC_ERR_ARG, "input 0 'input' (%s) is an empty optional: it has no "
                         "element to get", osc_kinput_name(k, 0));
    osc_pack_item_view(in[0], 0, e);
    return OSC_OK;
}

osc_status osc_opt_get_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out) {
    osc_tensor e;
    return osc_infer_out0(k, opt_element(k, in, n_in, &e), &e, out, n_out);
}

osc_status osc_opt_get_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    osc_tensor e;
    osc_status st = opt_element(k, in, n_in, &e);
    if (!st) st = seq_check_out(k, out, n_out, &e);
    if (!st && e.nbytes && out[0].data != e.data) memmove(out[0].data, e.data, e.nbytes);
    return st;
}
