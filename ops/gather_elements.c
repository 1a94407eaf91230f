/* gather_elements.c: placeholder until the kernel lands. */
#include "ops.h"

osc_status osc_ge_check(osc_kctx *k, osc_node *node) {
    (void)node;
    return osc_kfail(k, OSC_ERR_UNSUPPORTED, "kernel not built yet");
}
osc_status osc_ge_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        int32_t n_out) {
    (void)in; (void)n_in; (void)out; (void)n_out;
    return osc_kfail(k, OSC_ERR_UNSUPPORTED, "kernel not built yet");
}
osc_status osc_ge_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                      int32_t n_out) {
    (void)in; (void)n_in; (void)out; (void)n_out;
    return osc_kfail(k, OSC_ERR_UNSUPPORTED, "kernel not built yet");
}
