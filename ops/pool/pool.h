/* pool.h: what the pooling kernels share (ops/pool/): the operations of their rows' .variant,
 * the parameters init parses, the geometry of a windowed pool (output size, effective pads) and
 * the per-class compute types of their X-macro loops. Internal to ops/pool/. */
#ifndef OSC_POOL_H
#define OSC_POOL_H

#include "core/dtype.h"
#include "core/kattr.h"

/* The operation of a row (.variant). From 1: a row without one (0) is refused by init. */
enum { OSC_POOL_MAX = 1, OSC_POOL_AVG, OSC_POOL_LP, OSC_POOL_END };
#define OSC_POOL_MAX_ND (OSC_MAX_RANK - 2) /* spatial axes: the rank past N and C */

/* A windowed pool's attributes, defaulted (strides and dilations 1, pads 0). */
typedef struct osc_pl_params {
    int32_t op, nd, auto_pad;
    bool ceil_mode, count_include_pad, storage_order;
    double p; /* LpPool's (and GlobalLpPool's) exponent */
    int64_t kernel[OSC_POOL_MAX_ND], strides[OSC_POOL_MAX_ND], dilations[OSC_POOL_MAX_ND];
    int64_t pads[2 * OSC_POOL_MAX_ND]; /* begins, then ends */
} osc_pl_params;

/* Per spatial axis of one input: the input and output sizes, the effective kernel
 * ((k - 1) * dilation + 1) and the pads the windows see (auto_pad resolved). */
typedef struct osc_pl_geom {
    int32_t nd;
    int64_t in[OSC_POOL_MAX_ND], out[OSC_POOL_MAX_ND], pb[OSC_POOL_MAX_ND], pe[OSC_POOL_MAX_ND];
} osc_pl_geom;

/* Checks input 0 'X' (rank nd + 2, a dtype of the row, a valid count) against p and fills g
 * and want (X's dtype; N, C and the output sizes); fails naming the axis, size and kernel when
 * a window does not fit the padded input or a size overflows. */
osc_status osc_pl_geometry(osc_kctx *k, const osc_pl_params *p, const osc_tensor *const *in,
                             int32_t n_in, osc_pl_geom *g, osc_tensor *want);
/* Input 0 'X' present, of a dtype the row allows, with a valid count and rank >= min_rank. */
osc_status osc_pl_check_x(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                            int32_t min_rank);
/* The exponent p of an LpPool or GlobalLpPool row: a FLOAT in version 1, an INT from 2, default
 * 2; at least 1 (finite and above 0 for the float). */
osc_status osc_pl_attr_p(osc_kctx *k, const osc_node *node, double *p);

/* Per class (X(enum, T, class) of core/dtype.h): the compute type (halves widened to float,
 * rounded back once per output element), the widening and the narrowing. */
#define OSC_PL_CT_FLOAT(T) T
#define OSC_PL_CT_F16(T) float
#define OSC_PL_CT_BF16(T) float
#define OSC_PL_CT_SINT(T) T
#define OSC_PL_CT_UINT(T) T
#define OSC_PL_WIDEN_FLOAT(x) (x)
#define OSC_PL_WIDEN_F16(x) osc_f16_to_f32(x)
#define OSC_PL_WIDEN_BF16(x) osc_bf16_to_f32(x)
#define OSC_PL_WIDEN_SINT(x) (x)
#define OSC_PL_WIDEN_UINT(x) (x)
#define OSC_PL_NARROW_FLOAT(T, x) ((T)(x))
#define OSC_PL_NARROW_F16(T, x) osc_f32_to_f16((float)(x))
#define OSC_PL_NARROW_BF16(T, x) osc_f32_to_bf16((float)(x))
#define OSC_PL_NARROW_SINT(T, x) ((T)(x))
#define OSC_PL_NARROW_UINT(T, x) ((T)(x))
/* |v| in the compute type (the unsigned one: v). */
#define OSC_PL_ABS_FLOAT(v) ((v) < 0 ? -(v) : (v))
#define OSC_PL_ABS_F16(v) ((v) < 0 ? -(v) : (v))
#define OSC_PL_ABS_BF16(v) ((v) < 0 ? -(v) : (v))
#define OSC_PL_ABS_SINT(v) ((v) < 0 ? -(v) : (v))
#define OSC_PL_ABS_UINT(v) (v)
/* The lowest value of the compute type: a max over no element. */
#define OSC_PL_LOWEST_FLOAT(T) (-(T)INFINITY)
#define OSC_PL_LOWEST_F16(T) (-INFINITY)
#define OSC_PL_LOWEST_BF16(T) (-INFINITY)
#define OSC_PL_LOWEST_SINT(T) ((T)(-(1LL << (sizeof(T) * 8 - 1))))
#define OSC_PL_LOWEST_UINT(T) ((T)0)
/* The dtypes the pooling kernels compute on: the float ones, and int8/uint8 (MaxPool-12 on). */
#define OSC_POOL_TYPES(X) OSC_FLOAT_TYPES(X) X(OSC_INT8, int8_t, SINT) X(OSC_UINT8, uint8_t, UINT)

#endif
