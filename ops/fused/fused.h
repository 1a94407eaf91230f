/* fused.h: what every fused kernel (domain "osc", made only by the load-time rewrite) shares. */
#ifndef OSC_FUSED_H
#define OSC_FUSED_H

#define OSC_FUSE_MAX_IN 16 /* inputs of a fused node */
/* The largest rank of a value a fused kernel reads or writes (its parameters keep the shapes
 * at this size; the rewrite leaves values of a higher rank unfused). */
#define OSC_FUSED_MAX_RANK 8

#endif
