/* bitcast.c: BitCast-26: the input's bits read as dtype 'to', of the same bit width (every
 * type but string), same shape. The bytes are the spec's little-endian ones: on a big-endian
 * machine each input scalar is put in that order and each output scalar read back from it
 * (complex64 -> uint64 takes re as the low half everywhere). A bool output holds 0 or 1, as
 * every bool tensor here: a nonzero byte reads as true (1). */
#include <string.h>

#include "ew_common.h"

OSC_KERNEL_DECLARE(osc_bitcast)

typedef struct bitcast_params {
    int32_t to;
    osc_typeset types; /* T1 (T2 is the same set) */
} bitcast_params;

osc_status osc_bitcast_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const known[] = {"to", NULL};
    osc_status st = osc_attr_known(k, node, known);
    if (st) return st;
    if (!osc_node_attr(node, "to"))
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'to' is required but missing");
    int64_t to = 0;
    if ((st = osc_attr_int(k, node, "to", 0, &to))) return st;
    const osc_typeset types = osc_kernel_types(k->row, 0);
    if (to <= 0 || to >= OSC_DTYPE_COUNT || !(types & OSC_TS(to))) {
        char buf[512];
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'to' = %lld is not a dtype BitCast "
                         "allows (allowed: %s)", (long long)to,
                         osc_typeset_str(types, buf, sizeof buf));
    }
    bitcast_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    *p = (bitcast_params){(int32_t)to, types};
    *params = p;
    return OSC_OK;
}

static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    const bitcast_params *p = k->params;
    osc_status st = osc_need_input(k, in, n_in, 0, "input");
    if (!st) st = osc_ew_check_type(k, 0, "input", in[0], p->types);
    if (st) return st;
    const osc_dtype_info *from = osc_dtype_get(in[0]->dtype), *to = osc_dtype_get(p->to);
    if (from->bits != to->bits)
        return osc_kfail(k, OSC_ERR_MODEL, "input 0 'input' (%s) is %s (%u bits) but attribute "
                         "'to' is %s (%u bits); BitCast needs the same bit width",
                         osc_kinput_name(k, 0), from->name, (unsigned)from->bits, to->name,
                         (unsigned)to->bits);
    memset(want, 0, sizeof *want);
    osc_same_shape(want, in[0]);
    want->dtype = p->to;
    return OSC_OK;
}

OSC_INFER_OUT0(osc_bitcast, validate)

osc_status osc_bitcast_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    static const char *const k_what[1] = {"input"};
    osc_tensor want;
    osc_status st = validate(k, in, n_in, &want);
    if (!st) st = osc_ew_check_io(k, in, 1, k_what, out, n_out, &want);
    if (st) return st;
    size_t bytes = 0;
    osc_dtype_bytes(out->dtype, osc_tensor_count(out), &bytes); /* checked just above */
    if (!bytes) return OSC_OK;
    unsigned char *o = out->data;
    memcpy(o, in[0]->data, bytes);
    osc_le_swap(in[0]->dtype, o, bytes); /* machine order -> little-endian (its own inverse) */
    osc_le_swap(out->dtype, o, bytes);   /* little-endian -> machine order */
    if (out->dtype == OSC_BOOL)
        for (size_t i = 0; i < bytes; i++) o[i] = o[i] != 0;
    return OSC_OK;
}
