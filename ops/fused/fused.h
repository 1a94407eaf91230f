/* fused.h: what every fused kernel (domain "osc", made only by the load-time rewrite) shares. */
#ifndef OSC_FUSED_H
#define OSC_FUSED_H

#include "core/kernel.h"

#define OSC_FUSE_MAX_IN 16 /* inputs of a fused node */
/* The largest rank of a value a fused kernel reads or writes (its parameters keep the shapes
 * at this size; the rewrite leaves values of a higher rank unfused). */
#define OSC_FUSED_MAX_RANK 8

/* The init of the fused rows (fused_scatter.c): the parameters are the rule's, made by the
 * load-time rewrite; a node without them (read from a model, or a bare test node) is refused. */
osc_status osc_fused_init(osc_kctx *k, const osc_node *node, void **params);

#endif
