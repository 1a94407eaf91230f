/* test_sweep.c: the companion kernels on every numeric dtype they accept, through the public API,
 * against references computed here in double: ArgMax (axis, keepdims, select_last_index, NaN),
 * ReduceSum (axes as attribute and as input, keepdims), CumSum (axis, exclusive, reverse), TopK
 * (axis, largest, ties and NaN order), Min/Max (broadcast, NaN), Neg/Abs, Where, NonZero, OneHot.
 * Each dtype has its own loop in the kernels: a dtype whose loop breaks fails here by name. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/writer.h"
#include "onnx_scatter.h"
#include "core/dtype.h"
#include "tests/support/check.h"

static const int32_t k_ints[] = {OSC_INT8,  OSC_INT16,  OSC_INT32,  OSC_INT64,
                                 OSC_UINT8, OSC_UINT16, OSC_UINT32, OSC_UINT64};
static const int32_t k_floats[] = {OSC_FLOAT, OSC_DOUBLE, OSC_FLOAT16, OSC_BFLOAT16};
#define N_INTS (sizeof k_ints / sizeof k_ints[0])
#define N_FLOATS (sizeof k_floats / sizeof k_floats[0])

static bool is_float(int32_t d) {
    return d == OSC_FLOAT || d == OSC_DOUBLE || d == OSC_FLOAT16 || d == OSC_BFLOAT16;
}
static bool is_unsigned(int32_t d) {
    return d == OSC_UINT8 || d == OSC_UINT16 || d == OSC_UINT32 || d == OSC_UINT64 ||
           d == OSC_BOOL;
}

/* Element i of t as a double (bool and every numeric dtype). */
static double get(const osc_tensor *t, int64_t i) {
    const void *p = t->data;
    switch (t->dtype) {
    case OSC_INT8: return ((const int8_t *)p)[i];
    case OSC_INT16: return ((const int16_t *)p)[i];
    case OSC_INT32: return ((const int32_t *)p)[i];
    case OSC_INT64: return (double)((const int64_t *)p)[i];
    case OSC_UINT8: case OSC_BOOL: return ((const uint8_t *)p)[i];
    case OSC_UINT16: return ((const uint16_t *)p)[i];
    case OSC_UINT32: return ((const uint32_t *)p)[i];
    case OSC_UINT64: return (double)((const uint64_t *)p)[i];
    case OSC_FLOAT: return ((const float *)p)[i];
    case OSC_DOUBLE: return ((const double *)p)[i];
    case OSC_FLOAT16: return osc_f16_to_f32(((const uint16_t *)p)[i]);
    case OSC_BFLOAT16: return osc_bf16_to_f32(((const uint16_t *)p)[i]);
    default: fail_msg("get: dtype %d", (int)t->dtype);
    }
    return 0;
}

static void set(osc_tensor *t, int64_t i, double v) {
    void *p = t->data;
    switch (t->dtype) {
    case OSC_INT8: ((int8_t *)p)[i] = (int8_t)v; break;
    case OSC_INT16: ((int16_t *)p)[i] = (int16_t)v; break;
    case OSC_INT32: ((int32_t *)p)[i] = (int32_t)v; break;
    case OSC_INT64: ((int64_t *)p)[i] = (int64_t)v; break;
    case OSC_UINT8: case OSC_BOOL: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case OSC_UINT16: ((uint16_t *)p)[i] = (uint16_t)v; break;
    case OSC_UINT32: ((uint32_t *)p)[i] = (uint32_t)v; break;
    case OSC_UINT64: ((uint64_t *)p)[i] = (uint64_t)v; break;
    case OSC_FLOAT: ((float *)p)[i] = (float)v; break;
    case OSC_DOUBLE: ((double *)p)[i] = v; break;
    case OSC_FLOAT16: ((uint16_t *)p)[i] = osc_f32_to_f16((float)v); break;
    case OSC_BFLOAT16: ((uint16_t *)p)[i] = osc_f32_to_bf16((float)v); break;
    default: fail_msg("set: dtype %d", (int)t->dtype);
    }
}

/* A tensor owning malloc'ed data (free with free(t.data)). */
static osc_tensor mk(int32_t dtype, int32_t rank, const int64_t *dims) {
    osc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.rank = rank;
    if (rank) memcpy(t.dims, dims, (size_t)rank * sizeof *dims);
    int64_t n = osc_tensor_count(&t);
    t.nbytes = (size_t)n * osc_dtype_bits(dtype) / 8;
    t.data = calloc(1, t.nbytes ? t.nbytes : 1);
    return t;
}

/* Fills t with a pattern of small values with repeats (and NaNs at `nan_every` for floats). */
static void fill(osc_tensor *t, int mod, int nan_every) {
    int64_t n = osc_tensor_count(t);
    for (int64_t i = 0; i < n; i++) {
        double v = (double)((i * 7 + 3) % mod);
        if (!is_unsigned(t->dtype)) v -= mod / 2;
        if (is_float(t->dtype)) v += 0.5;
        if (nan_every && is_float(t->dtype) && i % nan_every == nan_every - 1) v = NAN;
        set(t, i, v);
    }
}

/* A model of one node: inputs in[i] (graph inputs named "i0", "i1", ... with their dtype and
 * shape; NULL: an initializer given in inits[i] instead), outputs o0.. with no declared shape. */
typedef struct node_spec {
    const char *op;
    int64_t opset;
    int n_in, n_out;
    const osc_tensor *in[4];
    bool is_init[4];
    struct {
        const char *name;
        int64_t i;
        const char *s;
        const int64_t *ints;
        size_t n;
    } attr[4];
    int n_attr;
} node_spec;

static void attr_i(node_spec *s, const char *name, int64_t v) {
    s->attr[s->n_attr].name = name;
    s->attr[s->n_attr++].i = v;
}

/* Builds, loads and runs the node; outputs are copied into out[] (free each data). Returns the
 * run status (load failures fail the test). */
static osc_status run_node(const node_spec *s, osc_tensor *out) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", s->opset);
    const char *ins[4], *outs[4];
    char names[8][16];
    for (int i = 0; i < s->n_in; i++) {
        snprintf(names[i], sizeof names[i], "i%d", i);
        ins[i] = names[i];
        if (!s->in[i]) {
            ins[i] = "";
            continue;
        }
        if (s->is_init[i]) osc_mw_initializer(mw, names[i], s->in[i]);
        else osc_mw_input(mw, names[i], s->in[i]->dtype, s->in[i]->rank, s->in[i]->dims, NULL);
    }
    for (int o = 0; o < s->n_out; o++) {
        snprintf(names[4 + o], sizeof names[4 + o], "o%d", o);
        outs[o] = names[4 + o];
    }
    int n = osc_mw_node(mw, s->op, "n", s->n_in, ins, s->n_out, outs);
    for (int a = 0; a < s->n_attr; a++) {
        if (s->attr[a].s) osc_mw_attr_string(mw, n, s->attr[a].name, s->attr[a].s);
        else if (s->attr[a].ints) osc_mw_attr_ints(mw, n, s->attr[a].name, s->attr[a].ints,
                                                   s->attr[a].n);
        else osc_mw_attr_int(mw, n, s->attr[a].name, s->attr[a].i);
    }
    for (int o = 0; o < s->n_out; o++) osc_mw_output(mw, outs[o], 0, -1, NULL, NULL);
    void *buf;
    size_t len;
    if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) fail_msg("writer: %s", osc_mw_error(mw));
    osc_mw_free(mw);
    osc_model *m;
    char msg[OSC_MESSAGE_SIZE];
    osc_status st = osc_model_load_buffer(buf, len, NULL, NULL, &m, msg, sizeof msg);
    free(buf);
    if (st) fail_msg("%s-%lld (dtype %s): load: %s", s->op, (long long)s->opset,
                     osc_dtype_name(s->in[0]->dtype), msg);
    osc_session *sess;
    assert_int_equal(osc_session_create(m, &sess), OSC_OK);
    for (int i = 0; i < s->n_in; i++)
        if (s->in[i] && !s->is_init[i])
            assert_int_equal(osc_session_set_input(sess, names[i], s->in[i]), OSC_OK);
    st = osc_session_run(sess);
    for (int o = 0; !st && o < s->n_out; o++) {
        osc_tensor t;
        assert_int_equal(osc_session_output(sess, (size_t)o, &t), OSC_OK);
        out[o] = t;
        out[o].data = malloc(t.nbytes ? t.nbytes : 1);
        memcpy(out[o].data, t.data, t.nbytes);
    }
    osc_session_free(sess);
    osc_model_free(m);
    return st;
}

/* Fails unless got (dtype, shape) equals want and every element matches: exactly for integers,
 * NaN for NaN, else within a tolerance fitting the dtype's precision. */
static void expect(const char *what, const osc_tensor *got, const osc_tensor *want) {
    if (got->dtype != want->dtype || got->rank != want->rank ||
        memcmp(got->dims, want->dims, (size_t)got->rank * sizeof got->dims[0]) != 0)
        fail_msg("%s: dtype/shape differ (dtype %d rank %d vs %d rank %d)", what,
                 (int)got->dtype, (int)got->rank, (int)want->dtype, (int)want->rank);
    double tol = got->dtype == OSC_FLOAT16 ? 1e-2 : got->dtype == OSC_BFLOAT16 ? 4e-2
                 : got->dtype == OSC_FLOAT ? 1e-5 : 0;
    for (int64_t i = 0; i < osc_tensor_count(got); i++) {
        double g = get(got, i), w = get(want, i);
        if (isnan(w) ? !isnan(g) : fabs(g - w) > tol * (1 + fabs(w)))
            fail_msg("%s: element %lld is %g; expected %g", what, (long long)i, g, w);
    }
}

/* ---- ArgMax ---- */

static void argmax_case(int32_t dtype, int64_t opset, int axis, int keep, int last) {
    const int64_t dims[2] = {3, 4};
    osc_tensor x = mk(dtype, 2, dims);
    fill(&x, 3, 5);
    node_spec s = {"ArgMax", opset, 1, 1, {&x}, {0}, {{0}}, 0};
    attr_i(&s, "axis", axis);
    attr_i(&s, "keepdims", keep);
    if (opset >= 12) attr_i(&s, "select_last_index", last);
    osc_tensor y;
    assert_int_equal(run_node(&s, &y), OSC_OK);
    int a = axis < 0 ? axis + 2 : axis;
    int64_t wd[2];
    int32_t wr = 0;
    for (int d = 0; d < 2; d++)
        if (d != a) wd[wr++] = dims[d];
        else if (keep) wd[wr++] = 1;
    osc_tensor want = mk(OSC_INT64, wr, wd);
    int64_t other = dims[1 - a];
    for (int64_t o = 0; o < other; o++) {
        int64_t best = 0;
        for (int64_t q = 1; q < dims[a]; q++) {
            double v = get(&x, a ? o * 4 + q : q * 4 + o);
            double b = get(&x, a ? o * 4 + best : best * 4 + o);
            bool gt = v > b || (isnan(v) && !isnan(b));
            bool eq = v == b || (isnan(v) && isnan(b));
            if (gt || (last && opset >= 12 && eq)) best = q;
        }
        ((int64_t *)want.data)[o] = best;
    }
    char what[64];
    snprintf(what, sizeof what, "ArgMax-%lld %s axis %d keep %d last %d", (long long)opset,
             osc_dtype_name(dtype), axis, keep, last);
    expect(what, &y, &want);
    free(x.data);
    free(y.data);
    free(want.data);
}

static void argmax_all(void **state) {
    (void)state;
    for (size_t t = 0; t < N_INTS + N_FLOATS; t++) {
        int32_t dtype = t < N_INTS ? k_ints[t] : k_floats[t - N_INTS];
        for (int axis = -1; axis <= 1; axis++)
            for (int v = 0; v < 4; v++) {
                int64_t opset = v < 2 ? 13 : 11;
                if (dtype == OSC_BFLOAT16 && opset < 13) continue;
                argmax_case(dtype, opset, axis, v & 1, v == 1);
            }
    }
}

/* ---- ReduceSum ---- */

static void reduce_sum_case(int32_t dtype, int64_t opset, int axis, int keep) {
    const int64_t dims[2] = {3, 4};
    osc_tensor x = mk(dtype, 2, dims);
    fill(&x, 5, 0);
    int64_t ax[1] = {axis};
    osc_tensor axes = {.dtype = OSC_INT64, .rank = 1, .dims = {axis == 9 ? 0 : 1}, .data = ax,
                       .nbytes = axis == 9 ? 0 : 8};
    node_spec s = {"ReduceSum", opset, 1, 1, {&x}, {0}, {{0}}, 0};
    if (opset >= 13) {
        s.n_in = 2, s.in[1] = &axes, s.is_init[1] = true;
    } else if (axis != 9) {
        s.attr[s.n_attr].name = "axes";
        s.attr[s.n_attr].ints = ax;
        s.attr[s.n_attr++].n = 1;
    }
    attr_i(&s, "keepdims", keep);
    osc_tensor y;
    assert_int_equal(run_node(&s, &y), OSC_OK);
    /* axis 9: every axis (no axes given) */
    int a = axis == 9 ? -1 : axis < 0 ? axis + 2 : axis;
    int64_t wd[2];
    int32_t wr = 0;
    for (int d = 0; d < 2; d++)
        if (a >= 0 && d != a) wd[wr++] = dims[d];
        else if (keep) wd[wr++] = 1;
    osc_tensor want = mk(dtype, wr, wd);
    double sums[4] = {0};
    for (int64_t i = 0; i < 12; i++) sums[a < 0 ? 0 : a == 0 ? i % 4 : i / 4] += get(&x, i);
    for (int64_t o = 0; o < osc_tensor_count(&want); o++) set(&want, o, sums[o]);
    char what[64];
    snprintf(what, sizeof what, "ReduceSum-%lld %s axis %d keep %d", (long long)opset,
             osc_dtype_name(dtype), axis, keep);
    expect(what, &y, &want);
    free(x.data);
    free(y.data);
    free(want.data);
}

static void reduce_sum_all(void **state) {
    (void)state;
    const int32_t types[] = {OSC_INT32, OSC_INT64, OSC_UINT32, OSC_UINT64,
                             OSC_FLOAT, OSC_DOUBLE, OSC_FLOAT16, OSC_BFLOAT16};
    const int axes[] = {0, 1, -1, 9};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (size_t a = 0; a < 4; a++)
            for (int keep = 0; keep < 2; keep++) {
                reduce_sum_case(types[t], 13, axes[a], keep);
                if (types[t] != OSC_BFLOAT16) reduce_sum_case(types[t], 11, axes[a], keep);
            }
}

/* ---- CumSum ---- */

static void cumsum_case(int32_t dtype, int axis, int exclusive, int reverse) {
    const int64_t dims[2] = {3, 4};
    osc_tensor x = mk(dtype, 2, dims);
    fill(&x, 5, 0);
    int64_t av = axis;
    osc_tensor ax = {.dtype = OSC_INT64, .rank = 0, .data = &av, .nbytes = 8};
    node_spec s = {"CumSum", 14, 2, 1, {&x, &ax}, {0}, {{0}}, 0};
    attr_i(&s, "exclusive", exclusive);
    attr_i(&s, "reverse", reverse);
    osc_tensor y;
    assert_int_equal(run_node(&s, &y), OSC_OK);
    int a = axis < 0 ? axis + 2 : axis;
    osc_tensor want = mk(dtype, 2, dims);
    for (int64_t o = 0; o < dims[1 - a]; o++) {
        double acc = 0;
        for (int64_t q0 = 0; q0 < dims[a]; q0++) {
            int64_t q = reverse ? dims[a] - 1 - q0 : q0;
            int64_t i = a ? o * 4 + q : q * 4 + o;
            if (!exclusive) acc += get(&x, i);
            set(&want, i, acc);
            if (exclusive) acc += get(&x, i);
        }
    }
    char what[64];
    snprintf(what, sizeof what, "CumSum %s axis %d excl %d rev %d", osc_dtype_name(dtype), axis,
             exclusive, reverse);
    expect(what, &y, &want);
    free(x.data);
    free(y.data);
    free(want.data);
}

static void cumsum_all(void **state) {
    (void)state;
    const int32_t types[] = {OSC_INT32, OSC_INT64, OSC_UINT32, OSC_UINT64,
                             OSC_FLOAT, OSC_DOUBLE, OSC_FLOAT16, OSC_BFLOAT16};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (int axis = -1; axis <= 1; axis++)
            for (int v = 0; v < 4; v++) cumsum_case(types[t], axis, v & 1, v >> 1);
}

/* ---- TopK ---- */

static int g_sign;
static const osc_tensor *g_x;
static int64_t g_base, g_step;
/* Preference order of TopK: NaN above every number; ties: the lower index first. */
static int topk_cmp(const void *pa, const void *pb) {
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    double x = get(g_x, g_base + a * g_step), y = get(g_x, g_base + b * g_step);
    int c = isnan(x) ? (isnan(y) ? 0 : 1) : isnan(y) ? -1 : (x > y) - (x < y);
    if (c) return -g_sign * c;
    return (a > b) - (a < b);
}

static void topk_case(int32_t dtype, int64_t opset, int axis, int largest) {
    const int64_t dims[2] = {3, 5};
    osc_tensor x = mk(dtype, 2, dims);
    fill(&x, 4, 7); /* repeats (ties) and NaNs */
    int64_t kv[1] = {2};
    osc_tensor k = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = kv, .nbytes = 8};
    node_spec s = {"TopK", opset, 2, 2, {&x, &k}, {0, true}, {{0}}, 0};
    attr_i(&s, "axis", axis);
    attr_i(&s, "largest", largest);
    osc_tensor y[2];
    assert_int_equal(run_node(&s, y), OSC_OK);
    int a = axis < 0 ? axis + 2 : axis;
    int64_t wd[2] = {dims[0], dims[1]};
    wd[a] = 2;
    osc_tensor vals = mk(dtype, 2, wd), idx = mk(OSC_INT64, 2, wd);
    g_sign = largest ? 1 : -1;
    g_x = &x;
    g_step = a ? 1 : 5;
    for (int64_t o = 0; o < dims[1 - a]; o++) {
        int64_t order[5];
        for (int64_t q = 0; q < dims[a]; q++) order[q] = q;
        g_base = a ? o * 5 : o;
        qsort(order, (size_t)dims[a], sizeof order[0], topk_cmp);
        for (int64_t q = 0; q < 2; q++) {
            int64_t at = a ? o * 2 + q : q * 5 + o;
            set(&vals, at, get(&x, g_base + order[q] * g_step));
            ((int64_t *)idx.data)[at] = order[q];
        }
    }
    char what[64];
    snprintf(what, sizeof what, "TopK-%lld %s axis %d largest %d", (long long)opset,
             osc_dtype_name(dtype), axis, largest);
    expect(what, &y[0], &vals);
    expect(what, &y[1], &idx);
    free(x.data);
    for (int i = 0; i < 2; i++) free(y[i].data);
    free(vals.data);
    free(idx.data);
}

static void topk_all(void **state) {
    (void)state;
    for (size_t t = 0; t < N_INTS + N_FLOATS; t++) {
        int32_t dtype = t < N_INTS ? k_ints[t] : k_floats[t - N_INTS];
        for (int axis = -1; axis <= 0; axis++)
            for (int largest = 0; largest < 2; largest++)
                topk_case(dtype, dtype == OSC_BFLOAT16 ? 24 : 11, axis, largest);
    }
}

/* ---- Min / Max (broadcast [3,4] with [4]), Neg, Abs ---- */

static void minmax_case(int32_t dtype, const char *op) {
    const int64_t da[2] = {3, 4}, db[1] = {4};
    osc_tensor a = mk(dtype, 2, da), b = mk(dtype, 1, db);
    fill(&a, 6, 5);
    fill(&b, 4, 3);
    node_spec s = {op, 13, 2, 1, {&a, &b}, {0}, {{0}}, 0};
    osc_tensor y;
    assert_int_equal(run_node(&s, &y), OSC_OK);
    osc_tensor want = mk(dtype, 2, da);
    bool mx = strcmp(op, "Max") == 0;
    for (int64_t i = 0; i < 12; i++) {
        double x = get(&a, i), z = get(&b, i % 4);
        set(&want, i, isnan(x) || isnan(z) ? NAN : mx ? (x > z ? x : z) : (x < z ? x : z));
    }
    char what[64];
    snprintf(what, sizeof what, "%s %s", op, osc_dtype_name(dtype));
    expect(what, &y, &want);
    free(a.data);
    free(b.data);
    free(y.data);
    free(want.data);
}

static void unary_case(int32_t dtype, const char *op) {
    const int64_t d[1] = {12};
    osc_tensor x = mk(dtype, 1, d);
    fill(&x, 9, 5);
    node_spec s = {op, 13, 1, 1, {&x}, {0}, {{0}}, 0};
    osc_tensor y;
    assert_int_equal(run_node(&s, &y), OSC_OK);
    osc_tensor want = mk(dtype, 1, d);
    for (int64_t i = 0; i < 12; i++)
        set(&want, i, strcmp(op, "Neg") == 0 ? -get(&x, i) : fabs(get(&x, i)));
    char what[64];
    snprintf(what, sizeof what, "%s %s", op, osc_dtype_name(dtype));
    expect(what, &y, &want);
    free(x.data);
    free(y.data);
    free(want.data);
}

static void elementwise_all(void **state) {
    (void)state;
    for (size_t t = 0; t < N_INTS + N_FLOATS; t++) {
        int32_t dtype = t < N_INTS ? k_ints[t] : k_floats[t - N_INTS];
        minmax_case(dtype, "Min");
        minmax_case(dtype, "Max");
        unary_case(dtype, "Abs");
        if (!is_unsigned(dtype)) unary_case(dtype, "Neg");
    }
}

/* ---- Where, NonZero, OneHot ---- */

static void where_nonzero_onehot(void **state) {
    (void)state;
    for (size_t t = 0; t < N_INTS + N_FLOATS; t++) {
        int32_t dtype = t < N_INTS ? k_ints[t] : k_floats[t - N_INTS];
        const int64_t d2[2] = {3, 4}, d1[1] = {4};
        /* Where(cond [3,4], x [3,4], y [4]) */
        osc_tensor c = mk(OSC_BOOL, 2, d2), x = mk(dtype, 2, d2), yv = mk(dtype, 1, d1);
        for (int i = 0; i < 12; i++) ((uint8_t *)c.data)[i] = (uint8_t)(i % 3 == 0);
        fill(&x, 7, 0);
        fill(&yv, 3, 0);
        node_spec s = {"Where", 16, 3, 1, {&c, &x, &yv}, {0}, {{0}}, 0};
        osc_tensor out;
        assert_int_equal(run_node(&s, &out), OSC_OK);
        osc_tensor want = mk(dtype, 2, d2);
        for (int i = 0; i < 12; i++) set(&want, i, i % 3 == 0 ? get(&x, i) : get(&yv, i % 4));
        expect("Where", &out, &want);
        free(out.data);
        free(want.data);
        /* NonZero(x): [2, nnz] coordinates in row-major order */
        node_spec nz = {"NonZero", 13, 1, 1, {&x}, {0}, {{0}}, 0};
        assert_int_equal(run_node(&nz, &out), OSC_OK);
        int64_t nnz = 0, coords[2][12];
        for (int i = 0; i < 12; i++)
            if (get(&x, i) != 0) coords[0][nnz] = i / 4, coords[1][nnz++] = i % 4;
        const int64_t wd[2] = {2, nnz};
        want = mk(OSC_INT64, 2, wd);
        for (int r = 0; r < 2; r++)
            for (int64_t k = 0; k < nnz; k++) ((int64_t *)want.data)[r * nnz + k] = coords[r][k];
        expect("NonZero", &out, &want);
        free(out.data);
        free(want.data);
        /* OneHot(indices [4] of dtype, depth 3, values [off, on]) along the last axis; its
         * indices and depth are numeric types without bfloat16 */
        if (dtype == OSC_BFLOAT16) {
            free(c.data), free(x.data), free(yv.data);
            continue;
        }
        osc_tensor ind = mk(dtype, 1, d1), depth = mk(dtype, 0, NULL), vals = mk(OSC_FLOAT, 1,
                                                                                  (int64_t[]){2});
        const double iv[4] = {0, 2, is_unsigned(dtype) ? 1 : -1, 5}; /* 5: out of range, all off */
        for (int i = 0; i < 4; i++) set(&ind, i, iv[i]);
        set(&depth, 0, 3);
        ((float *)vals.data)[0] = 0.5f, ((float *)vals.data)[1] = 9;
        node_spec oh = {"OneHot", 11, 3, 1, {&ind, &depth, &vals}, {0}, {{0}}, 0};
        assert_int_equal(run_node(&oh, &out), OSC_OK);
        const int64_t od[2] = {4, 3};
        want = mk(OSC_FLOAT, 2, od);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++) {
                double at = iv[i] < 0 ? iv[i] + 3 : iv[i];
                set(&want, i * 3 + j, at == j ? 9 : 0.5);
            }
        char what[64];
        snprintf(what, sizeof what, "OneHot %s", osc_dtype_name(dtype));
        expect(what, &out, &want);
        free(out.data);
        free(want.data);
        free(ind.data);
        free(depth.data);
        free(vals.data);
        free(c.data);
        free(x.data);
        free(yv.data);
    }
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(argmax_all),
    cmocka_unit_test(reduce_sum_all),
    cmocka_unit_test(cumsum_all),
    cmocka_unit_test(topk_all),
    cmocka_unit_test(elementwise_all),
    cmocka_unit_test(where_nonzero_onehot),
)
