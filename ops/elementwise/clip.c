/* clip.c: Clip. Versions 1 and 6 take the bounds as float attributes `min` and `max`, versions
 * 11 on as optional one-element inputs of the data's dtype (integers from 12, bfloat16 from 13).
 * y = min(max(x, lo), hi): with min > max every element becomes max; NaN stays NaN. An absent
 * bound (attribute or input) clamps nothing, so +-Inf stay as they are. */
#include <math.h>
#include <string.h>

#include "math_common.h"

OSC_KERNEL_DECLARE(osc_clip)

typedef struct clip_params {
    bool inputs;           /* the bounds are inputs 1 and 2 (version 11 on) */
    double min, max;       /* the attributes (versions 1, 6) */
    bool has_min, has_max; /* attributes given */
    osc_typeset types;
} clip_params;

/* Per class: the compute type and the conversions. Clamping in the compute type and rounding
 * the result equals clamping the stored values with bounds rounded to the stored type (the
 * rounding is monotonic), so bounds are stored values of T. */
#define CT_FLOAT(T) T
#define CT_F16(T) float
#define CT_BF16(T) float
#define CT_SINT(T) T
#define CT_UINT(T) T
#define WIDEN_FLOAT(x) (x)
#define WIDEN_F16(x) OSC_H2F(x)
#define WIDEN_BF16(x) OSC_B2F(x)
#define WIDEN_SINT(x) (x)
#define WIDEN_UINT(x) (x)
#define NARROW_FLOAT(T, x) ((T)(x))
#define NARROW_F16(T, x) OSC_F2H(x)
#define NARROW_BF16(T, x) OSC_F2B(x)
#define NARROW_SINT(T, x) ((T)(x))
#define NARROW_UINT(T, x) ((T)(x))

typedef void (*clip_loop)(void *o, const void *a, int64_t n, const void *lo, const void *hi);
typedef void (*clip_store)(void *dst, double v);

/* lo/hi: one element of T, or NULL for no bound. The bounds' branches are loop-invariant. */
#define LOOP(E, T, CLS)                                                                     \
    static void clip_##E(void *o, const void *a, int64_t n, const void *lo, const void *hi) { \
        typedef CT_##CLS(T) ct;                                                             \
        const T *pa = a;                                                                    \
        T *po = o;                                                                          \
        const ct l = lo ? WIDEN_##CLS(*(const T *)lo) : 0;                                  \
        const ct h = hi ? WIDEN_##CLS(*(const T *)hi) : 0;                                  \
        for (int64_t j = 0; j < n; j++) {                                                   \
            ct x = WIDEN_##CLS(pa[j]);                                                      \
            if (lo && x < l) x = l;                                                         \
            if (hi && x > h) x = h;                                                         \
            po[j] = NARROW_##CLS(T, x);                                                     \
        }                                                                                   \
    }                                                                                       \
    static void store_##E(void *dst, double v) {                                            \
        *(T *)dst = NARROW_##CLS(T, (CT_##CLS(T))v);                                        \
    }
OSC_REAL_TYPES(LOOP)

/* Per dtype; dtype is a valid number: the row's type set admitted it. */
#define ENTRY(E, T, CLS) [E] = {clip_##E, store_##E},
static const struct {
    clip_loop loop;
    clip_store store;
} k_loops[OSC_DTYPE_COUNT] = {OSC_REAL_TYPES(ENTRY)};

osc_status osc_clip_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_none[] = {NULL}, *const k_attrs[] = {"min", "max", NULL};
    const bool inputs = k->since_version >= 11;
    osc_status st = osc_attr_known_legacy(k, node, inputs ? k_none : k_attrs,
                                      k->since_version == 1);
    if (st) return st;
    clip_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->inputs = inputs;
    p->types = osc_kernel_types(k->row, 0);
    if (!inputs) {
        st = osc_attr_float(k, node, "min", -INFINITY, &p->min);
        if (!st) st = osc_attr_float(k, node, "max", INFINITY, &p->max);
        if (st) return st;
        p->has_min = osc_node_attr(node, "min") != NULL;
        p->has_max = osc_node_attr(node, "max") != NULL;
    }
    *params = p;
    return OSC_OK;
}

static const char *const k_what[3] = {"input", "min", "max"};

/* The inputs the node has, of input, min, max (1 before version 11). */
static int32_t n_inputs(const clip_params *p, int32_t n_in) {
    return p->inputs ? (n_in < 3 ? n_in : 3) : 1;
}

/* infer's and run's checks: the data, and each bound input present of the data's dtype with
 * exactly one element. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    const clip_params *p = k->params;
    osc_status st = osc_m_check_x(k, in, n_in, "input", p->types, 0, want);
    if (st) return st;
    for (int32_t i = 1; i < n_inputs(p, n_in); i++) {
        if (!in[i]) continue; /* omitted */
        char s[256];
        st = osc_check_same_dtype(k, 0, "input", in[0], i, k_what[i], in[i]);
        if (st) return st;
        if (osc_tensor_count(in[i]) != 1)
            return osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s; it must be a "
                             "scalar (one element)", (int)i, k_what[i], osc_kinput_name(k, i),
                             osc_shape_str(in[i], s, sizeof s));
    }
    return OSC_OK;
}

OSC_INFER_OUT0(osc_clip, validate)

osc_status osc_clip_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                        osc_tensor *out, int32_t n_out) {
    const clip_params *p = k->params;
    osc_tensor want;
    osc_status st = validate(k, in, n_in, &want);
    if (st) return st;
    /* every present input must hold its one element */
    const int32_t n = n_inputs(p, n_in);
    for (int32_t i = 1; i < n && !st; i++)
        if (in[i]) st = osc_check_buffer(k, "input", i, k_what[i], in[i]);
    if (!st) st = osc_ew_check_io(k, in, 1, k_what, out, n_out, &want);
    if (st) return st;
    const void *lo = NULL, *hi = NULL;
    union { double d; int64_t i; } lo_v, hi_v; /* a T of the attribute versions' bounds */
    const clip_store store = k_loops[in[0]->dtype].store;
    if (n > 1 && in[1]) lo = in[1]->data;
    if (n > 2 && in[2]) hi = in[2]->data;
    if (p->has_min) store(&lo_v, p->min), lo = &lo_v;
    if (p->has_max) store(&hi_v, p->max), hi = &hi_v;
    /* In place (out->data == in[0]->data) is fine: the loop reads each element first. */
    k_loops[in[0]->dtype].loop(out->data, in[0]->data, osc_tensor_count(in[0]), lo, hi);
    return OSC_OK;
}
