/* scaling_models.h: the models of the scaling tests and of the load-time attacks they guard
 * against, each a family with a size n (tests/scaling/README.md lists them). */
#ifndef OSC_SCALING_MODELS_H
#define OSC_SCALING_MODELS_H

#include "tests/support/writer.h"

/* Model `kind` of size n (elems: the element count of a constant where the kind has one; 0: its
 * default); NULL for an unknown kind. */
osc_mw *osc_scaling_model(const char *kind, int n, int elems);
/* The kinds, NULL-terminated, for usage messages. */
extern const char *const osc_scaling_kinds[];

#endif
