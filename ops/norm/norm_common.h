/* norm_common.h: what the normalisation kernels share (ops/norm/, and ops/loss/loss.c): the
 * per-class compute types and conversions of their X-macro loops, reading or writing one element
 * of any float dtype as a double, and the statistics and affine map of the elements a walk
 * visits. Internal to ops/. */
#ifndef OSC_NORM_COMMON_H
#define OSC_NORM_COMMON_H

#include "ops/elementwise/ew_common.h"

/* softmax.c's operations, the values of its rows' .variant. They start at 1, so a row that sets
 * no variant (0) names none and init refuses it. */
enum { OSC_SOFTMAX_SOFTMAX = 1, OSC_SOFTMAX_LOG, OSC_SOFTMAX_HARD, OSC_SOFTMAX_END };
/* groupnorm.c's operations, likewise. */
enum { OSC_GN_INSTANCE = 1, OSC_GN_GROUP, OSC_GN_END };

/* Per float class (X(enum, T, class) of OSC_FLOAT_TYPES): the compute type, float16/bfloat16
 * widened to float and rounded back once per output element. */
#define OSC_NC_CT_FLOAT(T) T
#define OSC_NC_CT_F16(T) float
#define OSC_NC_CT_BF16(T) float
/* A wider compute type where the work per element is small next to its memory traffic
 * (BatchNormalization, LayerNormalization): double for float and double, float for the halves
 * (still one rounding per output element). */
#define OSC_NC_WT_FLOAT(T) double
#define OSC_NC_WT_F16(T) float
#define OSC_NC_WT_BF16(T) float
#define OSC_NC_WIDEN_FLOAT(x) (x)
#define OSC_NC_WIDEN_F16(x) OSC_H2F(x)
#define OSC_NC_WIDEN_BF16(x) OSC_B2F(x)
#define OSC_NC_NARROW_FLOAT(T, x) ((T)(x))
#define OSC_NC_NARROW_F16(T, x) OSC_F2H((float)(x))
#define OSC_NC_NARROW_BF16(T, x) OSC_F2B((float)(x))

/* Element i of a tensor of float, double, float16, bfloat16 or a float8 kind, exactly. */
double osc_nc_get(const osc_tensor *t, int64_t i);
/* Stores v into element i of a tensor of one of those dtypes, rounded once to nearest even
 * (a float8 kind without Inf gets NaN past its largest value). */
void osc_nc_set(osc_tensor *t, int64_t i, double v);

/* Product of dims [from, to) of t; the caller knows t has elements, so it cannot overflow. */
int64_t osc_nc_span(const osc_tensor *t, int32_t from, int32_t to);

/* Fails (OSC_ERR_SHAPE) unless there is an output i whose dtype and shape equal want's and
 * whose buffer holds them; `what` names it. Nothing is written. */
osc_status osc_nc_check_out(osc_kctx *k, const osc_tensor *out, int32_t n_out, int32_t i,
                            const char *what, const osc_tensor *want);

/* Attribute `axis` over input 0 `what` (x) normalised into *out; a scalar x, which has no
 * axis, or an axis out of [-rank, rank-1] is an error. */
osc_status osc_nc_axis(osc_kctx *k, const osc_tensor *x, const char *what, int64_t axis,
                       int32_t *out);

/* The strides of input i `what` (t) broadcast unidirectionally to input 0 'X' (x, rank >= 1)
 * into st[0..x->rank-1], 0 along a stretched dim; fails (OSC_ERR_SHAPE) unless t broadcasts. */
osc_status osc_nc_bcast_strides(osc_kctx *k, const osc_tensor *x, int32_t i, const char *what,
                                const osc_tensor *t, int64_t *st);

/* The elements of a tensor at base + sum of coord[d] * strides[d], coord[d] < dims[d], for
 * d < rank (rank >= 1; the last dim innermost): a group the statistics run over. */
typedef struct osc_nc_walk {
    int32_t rank;
    int64_t dims[OSC_MAX_RANK], strides[OSC_MAX_RANK];
} osc_nc_walk;

/* Moves *off to the walk's next position over its dims [0, upto) (coord[0..upto-1] start at
 * 0, the last of them the fastest); false, with coord and *off back at the start, past the end. */
static inline bool osc_nc_step(const osc_nc_walk *w, int32_t upto, int64_t *coord, int64_t *off) {
    for (int32_t d = upto - 1; d >= 0; d--) {
        *off += w->strides[d];
        if (++coord[d] < w->dims[d]) return true;
        *off -= w->strides[d] * w->dims[d];
        coord[d] = 0;
    }
    return false;
}

/* Mean and population variance, in double (two passes), of the elements of x (a float dtype)
 * the walk visits from base; the walk visits at least one. */
void osc_nc_moments(const osc_tensor *x, int64_t base, const osc_nc_walk *w, double *mean,
                    double *var);
/* y = (x - m) * a + b at each element the walk visits from base, computed in the class's
 * OSC_NC_WT type and rounded once; y may be x. */
void osc_nc_affine(osc_tensor *y, const osc_tensor *x, int64_t base, const osc_nc_walk *w,
                   double m, double a, double b);
/* The same for every element of x seen as [outer, chans, run], channel c (the middle index)
 * with m[c], a[c] and b[c], in one pass in memory order; y may be x. */
void osc_nc_affine_ch(osc_tensor *y, const osc_tensor *x, int64_t outer, int64_t chans,
                      int64_t run, const double *m, const double *a, const double *b);

#endif
