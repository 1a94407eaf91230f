/* resize.h: the parameters and geometry of Resize and Upsample (resize.c), shared with their
 * run (resize_run.c). Internal to ops/resize/. */
#ifndef OSC_RESIZE_H
#define OSC_RESIZE_H

#include "resize_common.h"

/* coordinate_transformation_mode, in the order of k_ctm_names (resize.c) */
enum {
    OSC_RZ_HALF_PIXEL = 0, OSC_RZ_HALF_PIXEL_SYMMETRIC, OSC_RZ_PYTORCH_HALF_PIXEL,
    OSC_RZ_ALIGN_CORNERS, OSC_RZ_ASYMMETRIC, OSC_RZ_TF_CROP_AND_RESIZE
};
/* nearest_mode; OSC_RZ_SIMPLE: Resize-10 and Upsample (floor, ceil when downsampling) */
enum { OSC_RZ_PREFER_FLOOR = 0, OSC_RZ_PREFER_CEIL, OSC_RZ_FLOOR, OSC_RZ_CEIL, OSC_RZ_SIMPLE };
/* keep_aspect_ratio_policy */
enum { OSC_RZ_STRETCH = 0, OSC_RZ_NOT_LARGER, OSC_RZ_NOT_SMALLER };

typedef struct osc_rz_params {
    int32_t mode, ctm, nearest, policy;
    double cubic_a, extrapolation;
    bool exclude_outside, antialias;
    osc_sh_ints axes;           /* Resize-18+: the axes scales and sizes list */
    int32_t n_scales;           /* Upsample-7: its attribute scales */
    double scales[OSC_MAX_RANK];
} osc_rz_params;

/* What run needs besides the output shape: per dim of X, the scale, the roi and whether the
 * dim is resampled at all (an identity otherwise). */
typedef struct osc_rz_geom {
    double scale[OSC_MAX_RANK], roi_start[OSC_MAX_RANK], roi_end[OSC_MAX_RANK];
    bool active[OSC_MAX_RANK];
} osc_rz_geom;

/* Writes the non-empty output (want) of a node whose inputs passed the geometry's checks
 * (resize.c), g the geometry they gave. */
osc_status osc_rz_write(osc_kctx *k, const osc_tensor *const *in, int32_t n_in, osc_tensor *out,
                        const osc_tensor *want, const osc_rz_geom *g);

#endif
