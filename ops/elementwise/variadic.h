/* variadic.h: what the variadic elementwise kernels share (minmax.c: Min, Max; summean.c: Sum,
 * Mean): the parameters init parses and the checks of their 1..N inputs. Internal to ops/. */
#ifndef OSC_VARIADIC_H
#define OSC_VARIADIC_H

#include "ew_common.h"

/* What init parses: which op, the dtypes its version accepts, whether it broadcasts. */
typedef struct osc_variadic_params {
    int32_t op;         /* the row's variant, in [first, end) of the kernel's own enum */
    bool broadcast;     /* from version 8 on; before, every input has data_0's shape */
    osc_typeset types;
} osc_variadic_params;

/* init: no attribute (version 1's consumed_inputs ignored); fails (OSC_ERR_UNSUPPORTED) unless
 * the row's variant is in [first, end). */
osc_status osc_variadic_init(osc_kctx *k, const osc_node *node, int32_t first, int32_t end,
                             void **params);
/* infer's and run's checks: at least one input, all present, data_0 of a dtype the version
 * accepts and the others of its dtype; *want = the broadcast of every input (equal shapes
 * before version 8), with their dtype. */
osc_status osc_variadic_shape(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                              osc_tensor *want);

#endif
