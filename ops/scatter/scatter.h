/* scatter.h: the parameters the scatter family's init parses (tests read them). */
#ifndef OSC_SCATTER_H
#define OSC_SCATTER_H

#include "core/kattr.h"
#include "reduce.h"

typedef struct osc_se_params {   /* Scatter, ScatterElements, GatherElements */
    int64_t axis;                /* as written (may be negative); normalised by infer */
    int32_t reduction;           /* OSC_RED_* (OSC_RED_NONE for GatherElements) */
} osc_se_params;
typedef struct osc_snd_params {  /* ScatterND */
    int32_t reduction;
} osc_snd_params;
typedef struct osc_gnd_params {  /* GatherND */
    int64_t batch_dims;
} osc_gnd_params;
typedef struct osc_ts_params {   /* TensorScatter */
    int64_t axis;                /* as written */
    int32_t mode;                /* 0 linear, 1 circular */
} osc_ts_params;

#endif
