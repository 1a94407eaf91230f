/* dropout.c: Dropout. Inference: output = data, and the optional mask all kept (1.0 of data's
 * dtype before 10, bool true from 10). Versions 1 and 6 run as test mode whatever is_test says
 * (is_test = 0 with a nonzero ratio gets a warning at load). From 12, ratio and training_mode
 * are optional inputs; training_mode true drops each element whose uniform draw in [0, 1) is
 * below ratio and scales the rest by 1 / (1 - ratio). The draws are numpy's legacy ones after
 * np.random.seed(seed) (MT19937, 53-bit doubles), as ONNX's reference computes them; the
 * `seed` attribute defaults to 0, and every run restarts from it, so a node drops the same
 * elements each run. A ratio outside [0, 1) is an error. */
#include <string.h>

#include "ops/elementwise/math_common.h"
#include "norm_common.h"

OSC_KERNEL_DECLARE(osc_dropout)

static const char *const k_names[3] = {"data", "ratio", "training_mode"};
static const char *const k_out_names[2] = {"output", "mask"};

typedef struct dropout_params {
    uint32_t seed;
} dropout_params;

/* MT19937 (Matsumoto and Nishimura), seeded as numpy's RandomState.seed(int) does. */
typedef struct mt19937 {
    uint32_t key[624];
    int32_t pos;
} mt19937;

static void mt_seed(mt19937 *m, uint32_t seed) {
    for (int32_t i = 0; i < 624; i++) {
        m->key[i] = seed;
        seed = 1812433253u * (seed ^ (seed >> 30)) + (uint32_t)i + 1;
    }
    m->pos = 624;
}

static uint32_t mt_next(mt19937 *m) {
    if (m->pos == 624) {
        for (int32_t i = 0; i < 624; i++) {
            const uint32_t y = (m->key[i] & 0x80000000u) | (m->key[(i + 1) % 624] & 0x7fffffffu);
            m->key[i] = m->key[(i + 397) % 624] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfu : 0);
        }
        m->pos = 0;
    }
    uint32_t y = m->key[m->pos++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

/* numpy's random_sample: a double in [0, 1) from two draws */
static double mt_double(mt19937 *m) {
    const uint32_t a = mt_next(m) >> 5, b = mt_next(m) >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
}

osc_status osc_dropout_init(osc_kctx *k, const osc_node *node, void **params) {
    static const char *const k_v1[] = {"is_test", "ratio", NULL};
    static const char *const k_v7[] = {"ratio", NULL};
    static const char *const k_v12[] = {"seed", NULL};
    const int64_t v = k->since_version;
    osc_status st = osc_attr_known_legacy(k, node, v < 7 ? k_v1 : v < 12 ? k_v7 : k_v12, v == 1);
    if (st) return st;
    double ratio;
    int64_t is_test, seed;
    st = osc_attr_float(k, node, "ratio", (double)0.5f, &ratio);
    if (!st) st = osc_attr_int(k, node, "is_test", 0, &is_test);
    if (!st) st = osc_attr_int(k, node, "seed", 0, &seed);
    if (st) return st;
    if (v < 7 && is_test == 0 && ratio != 0)
        osc_kwarn(k, "is_test = 0 asks for random (training) dropout with ratio %g; this runtime "
                  "runs Dropout in test mode (output = data)", ratio);
    if (seed < 0 || seed > UINT32_MAX)
        return osc_kfail(k, OSC_ERR_MODEL, "attribute 'seed' = %lld is out of range [0, %lu]",
                         (long long)seed, (unsigned long)UINT32_MAX);
    dropout_params *p = osc_kparams(k, sizeof *p);
    if (!p) return k->err->status;
    p->seed = (uint32_t)seed;
    *params = p;
    return OSC_OK;
}

/* infer's and run's checks; want[0..1] get the outputs' dtypes and shapes. */
static osc_status validate(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *want) {
    osc_status st = osc_need_input(k, in, n_in, 0, "data");
    for (int32_t i = 0; i < (n_in < 3 ? n_in : 3) && !st; i++) {
        if (!in[i]) continue;
        char s[256];
        st = osc_need_input(k, in, n_in, i, k_names[i]);
        if (!st) st = osc_ew_check_type(k, i, k_names[i], in[i], osc_kernel_types(k->row, i));
        if (!st && i > 0 && osc_tensor_count(in[i]) != 1)
            st = osc_kfail(k, OSC_ERR_SHAPE, "input %d '%s' (%s) has shape %s; it must be a "
                           "scalar (one element)", (int)i, k_names[i], osc_kinput_name(k, i),
                           osc_shape_str(in[i], s, sizeof s));
    }
    if (st) return st;
    memset(want, 0, 2 * sizeof *want);
    osc_same_shape(&want[0], in[0]);
    osc_same_shape(&want[1], in[0]);
    if (k->since_version >= 10) want[1].dtype = OSC_BOOL;
    return OSC_OK;
}

osc_status osc_dropout_infer(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                             osc_tensor *out, int32_t n_out) {
    osc_tensor want[2];
    osc_status st = osc_infer_out0(k, validate(k, in, n_in, want), &want[0], out, n_out);
    if (!st && n_out > 1) osc_same_shape(&out[1], &want[1]);
    return st;
}

/* Version 12 on: the ratio when training_mode is true (*ratio 0: a copy), else 0. */
static osc_status training_ratio(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                                 double *ratio) {
    *ratio = 0;
    if (n_in < 3 || !in[2] || !((const uint8_t *)in[2]->data)[0]) return OSC_OK;
    *ratio = n_in > 1 && in[1] ? osc_nc_get(in[1], 0) : 0.5;
    if (!(*ratio >= 0 && *ratio < 1))
        return osc_kfail(k, OSC_ERR_MODEL, "input 1 'ratio' (%s) = %g is out of range [0, 1)",
                         osc_kinput_name(k, 1), *ratio);
    return OSC_OK;
}

/* Training: element i is kept when its draw is >= ratio, then scaled by 1 / (1 - ratio) in
 * float (in double for double data), rounded once. Reads element i before writing it. */
static void drop(const dropout_params *p, const osc_tensor *x, osc_tensor *out, int32_t n_out,
                 double ratio) {
    mt19937 m;
    mt_seed(&m, p->seed);
    const double scale = x->dtype == OSC_DOUBLE ? 1 / (1 - ratio) : (float)(1 / (1 - ratio));
    const int64_t n = osc_tensor_count(x);
    for (int64_t i = 0; i < n; i++) {
        const bool keep = mt_double(&m) >= ratio;
        const double v = osc_nc_get(x, i);
        osc_nc_set(&out[0], i, !keep ? 0.0
                                     : x->dtype == OSC_DOUBLE ? v * scale
                                                              : (double)((float)v * (float)scale));
        if (n_out > 1) ((uint8_t *)out[1].data)[i] = keep;
    }
}

osc_status osc_dropout_run(osc_kctx *k, const osc_tensor *const *in, int32_t n_in,
                           osc_tensor *out, int32_t n_out) {
    osc_tensor want[2];
    double ratio = 0;
    osc_status st = validate(k, in, n_in, want);
    for (int32_t i = 0; i < (n_in < 3 ? n_in : 3) && !st; i++)
        if (in[i]) st = osc_check_buffer(k, "input", i, k_names[i], in[i]);
    for (int32_t j = 0; j < (n_out < 1 ? 1 : n_out) && !st; j++)
        st = osc_nc_check_out(k, out, n_out, j, k_out_names[j], &want[j]);
    if (!st) st = training_ratio(k, in, n_in, &ratio);
    if (st) return st;
    if (ratio != 0) {
        drop(k->params, in[0], out, n_out, ratio);
        return OSC_OK;
    }
    size_t bytes = 0; /* validate checked the count; the buffers hold it */
    osc_dtype_bytes(in[0]->dtype, osc_tensor_count(in[0]), &bytes);
    if (out[0].data != in[0]->data && bytes) memcpy(out[0].data, in[0]->data, bytes);
    if (n_out > 1) {
        const int64_t n = osc_tensor_count(&out[1]);
        if (out[1].dtype == OSC_BOOL) memset(out[1].data, 1, (size_t)n);
        for (int64_t i = 0; out[1].dtype != OSC_BOOL && i < n; i++) osc_nc_set(&out[1], i, 1.0);
    }
    return OSC_OK;
}
