/* gather.h: the parameters of Gather and of GatherPieces (gather.c), which the rewrite reads
 * and makes (rewrite/rule_gather_pieces.c). */
#ifndef OSC_GATHER_H
#define OSC_GATHER_H

#include "ops/fused/fused_scatter.h"

typedef struct osc_gather_params {
    int64_t axis;  /* as written; normalised by infer */
} osc_gather_params;

/* GatherPieces: a Gather along axis 0 whose index is a Concat of pieces (GAT's edge lists with
 * self loops), reading the pieces in place (fused_scatter.h, "Index pieces"). Inputs: 0 data,
 * 1.. the pieces. */
typedef struct osc_gather_pieces_params {
    osc_ix_pieces pc; /* (the index: as many values as the pieces have at run time) */
} osc_gather_pieces_params;

#endif
