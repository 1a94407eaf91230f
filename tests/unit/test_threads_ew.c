/* test_threads_ew.c: elementwise ops, Where and reductions over outputs of 1 MiB and more,
 * which sessions of 2 and 3 threads split into element ranges: every thread count gives the
 * same bits, and those match loops written here.
 * Graph: m = X * S (S [A, 1, C]: a broadcast whose rows split mid-way), e = Exp(m * 0.001),
 * w = Where(X > 0, e, X), pw = Pow(e, S) (split from far fewer bytes: pow costs more),
 * r = ReduceSum(w, axes [1], keepdims 0), q = ReduceMax(w, axes [0, 2]),
 * y = Gemm(r, W, C) (3 MB of multiplies: its rows split; C [A, N] added by the kernel as it
 * stores each part's rows), (tv, ti) = TopK(w, K 5, axis 1) (its A * C lines split). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/writer.h"
#include "onnx_scatter.h"

enum { A = 97, B = 23, C = 131, N = 64, K = 5 }; /* A*B*C floats: 1.17 MB */

static float weight(int p, int j) { return (float)((p * 7 + j * 3) % 17 - 8) / 8.0f; }
static float bias(int a, int j) { return (float)((a + j) % 5) - 2.5f; }

static void *model(size_t *len) {
    const int64_t dx[3] = {A, B, C}, ds[3] = {A, 1, C}, dr[2] = {A, C}, dq[1] = {B},
                  dy[2] = {A, N}, ax1[1] = {1}, ax02[2] = {0, 2}, dt[3] = {A, K, C},
                  kv[1] = {K};
    static float wv[C * N], bv[A * N];
    for (int p = 0; p < C; p++)
        for (int j = 0; j < N; j++) wv[p * N + j] = weight(p, j);
    for (int a = 0; a < A; a++)
        for (int j = 0; j < N; j++) bv[a * N + j] = bias(a, j);
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "X", OSC_FLOAT, 3, dx, NULL);
    osc_mw_input(mw, "S", OSC_FLOAT, 3, ds, NULL);
    float k = 0.001f, zero = 0.0f;
    osc_tensor tk = {.dtype = OSC_FLOAT, .rank = 0, .data = &k, .nbytes = 4};
    osc_tensor tz = {.dtype = OSC_FLOAT, .rank = 0, .data = &zero, .nbytes = 4};
    osc_tensor t1 = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = (void *)ax1, .nbytes = 8};
    osc_tensor t02 = {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = (void *)ax02,
                      .nbytes = 16};
    osc_mw_initializer(mw, "k", &tk);
    osc_mw_initializer(mw, "zero", &tz);
    osc_mw_initializer(mw, "ax1", &t1);
    osc_mw_initializer(mw, "ax02", &t02);
    osc_tensor tkk = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = (void *)kv, .nbytes = 8};
    osc_mw_initializer(mw, "K", &tkk);
    osc_tensor tw = {.dtype = OSC_FLOAT, .rank = 2, .dims = {C, N}, .data = wv,
                     .nbytes = sizeof wv};
    osc_tensor tb = {.dtype = OSC_FLOAT, .rank = 2, .dims = {A, N}, .data = bv,
                     .nbytes = sizeof bv};
    osc_mw_initializer(mw, "W", &tw);
    osc_mw_initializer(mw, "bias", &tb);
    const char *mul[2] = {"X", "S"}, *mo[1] = {"m"}, *sc[2] = {"m", "k"}, *so[1] = {"ms"},
               *ex[1] = {"ms"}, *eo[1] = {"e"}, *gt[2] = {"X", "zero"}, *go[1] = {"pos"},
               *wh[3] = {"pos", "e", "X"}, *wo[1] = {"w"}, *rs[2] = {"w", "ax1"}, *ro[1] = {"r"},
               *rm[2] = {"w", "ax02"}, *qo[1] = {"q"}, *gm[3] = {"r", "W", "bias"},
               *yo[1] = {"y"}, *tki[2] = {"w", "K"}, *to[2] = {"tv", "ti"},
               *pi[2] = {"e", "S"}, *po[1] = {"pw"};
    osc_mw_node(mw, "Mul", "mul", 2, mul, 1, mo);
    osc_mw_node(mw, "Mul", "scale", 2, sc, 1, so);
    osc_mw_node(mw, "Exp", "exp", 1, ex, 1, eo);
    osc_mw_node(mw, "Pow", "pow", 2, pi, 1, po);
    osc_mw_node(mw, "Greater", "gt", 2, gt, 1, go);
    osc_mw_node(mw, "Where", "where", 3, wh, 1, wo);
    int n = osc_mw_node(mw, "ReduceSum", "sum", 2, rs, 1, ro);
    osc_mw_attr_int(mw, n, "keepdims", 0);
    n = osc_mw_node(mw, "ReduceMax", "max", 2, rm, 1, qo);
    osc_mw_attr_int(mw, n, "keepdims", 0);
    osc_mw_node(mw, "Gemm", "gemm", 3, gm, 1, yo);
    n = osc_mw_node(mw, "TopK", "topk", 2, tki, 2, to);
    osc_mw_attr_int(mw, n, "axis", 1);
    osc_mw_output(mw, "w", OSC_FLOAT, 3, dx, NULL);
    osc_mw_output(mw, "r", OSC_FLOAT, 2, dr, NULL);
    osc_mw_output(mw, "q", OSC_FLOAT, 1, dq, NULL);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, dy, NULL);
    osc_mw_output(mw, "tv", OSC_FLOAT, 3, dt, NULL);
    osc_mw_output(mw, "ti", OSC_INT64, 3, dt, NULL);
    osc_mw_output(mw, "pw", OSC_FLOAT, 3, dx, NULL);
    void *buf = NULL;
    assert_int_equal(osc_mw_serialize(mw, &buf, len), OSC_OK);
    osc_mw_free(mw);
    return buf;
}

typedef struct outs {
    float *w, *r, *q, *y, *tv;
    int64_t *ti;
    float *pw;
} outs;

static outs run(const void *buf, size_t len, int threads, const float *x, const float *s) {
    osc_options o;
    osc_options_init(&o);
    o.threads = threads;
    osc_model *m;
    char msg[512];
    if (osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg)) fail_msg("load: %s", msg);
    osc_session *ss;
    assert_int_equal(osc_session_create(m, &ss), OSC_OK);
    assert_int_equal(osc_session_threads(ss), threads);
    osc_tensor tx = {.dtype = OSC_FLOAT, .rank = 3, .dims = {A, B, C}, .data = (void *)x,
                     .nbytes = sizeof(float) * A * B * C};
    osc_tensor ts = {.dtype = OSC_FLOAT, .rank = 3, .dims = {A, 1, C}, .data = (void *)s,
                     .nbytes = sizeof(float) * A * C};
    assert_int_equal(osc_session_set_input(ss, "X", &tx), OSC_OK);
    assert_int_equal(osc_session_set_input(ss, "S", &ts), OSC_OK);
    if (osc_session_run(ss)) fail_msg("run: %s", osc_session_error(ss));
    outs r;
    void **dst[7] = {(void **)&r.w, (void **)&r.r, (void **)&r.q, (void **)&r.y,
                     (void **)&r.tv, (void **)&r.ti, (void **)&r.pw};
    for (size_t i = 0; i < 7; i++) {
        osc_tensor t;
        assert_int_equal(osc_session_output(ss, i, &t), OSC_OK);
        *dst[i] = malloc(t.nbytes);
        memcpy(*dst[i], t.data, t.nbytes);
    }
    osc_session_free(ss);
    osc_model_free(m);
    return r;
}

static void threads_give_the_same_bits(void **state) {
    (void)state;
    float *x = malloc(sizeof(float) * A * B * C), *s = malloc(sizeof(float) * A * C);
    uint32_t g = 7;
    for (size_t i = 0; i < (size_t)A * B * C; i++) {
        g = g * 1664525u + 1013904223u;
        x[i] = (float)((int32_t)(g >> 8) % 2000) / 7.0f;
    }
    for (size_t i = 0; i < (size_t)A * C; i++) s[i] = (float)(i % 13) - 6.0f;
    size_t len;
    void *buf = model(&len);
    /* the loops: the same float operations in the same order as the kernels */
    float *w = malloc(sizeof(float) * A * B * C), *pw = malloc(sizeof(float) * A * B * C),
          r[A * C], q[B];
    for (int a = 0; a < A; a++)
        for (int b = 0; b < B; b++)
            for (int c = 0; c < C; c++) {
                const size_t i = ((size_t)a * B + b) * C + c;
                const float m = x[i] * s[a * C + c], ms = m * 0.001f;
                w[i] = x[i] > 0.0f ? expf(ms) : x[i];
                pw[i] = (float)pow((double)expf(ms), (double)s[a * C + c]);
            }
    for (int a = 0; a < A; a++)
        for (int c = 0; c < C; c++) {
            float acc = 0;
            for (int b = 0; b < B; b++) acc = b ? acc + w[((size_t)a * B + b) * C + c]
                                                : w[((size_t)a * B + b) * C + c];
            r[a * C + c] = acc;
        }
    for (int b = 0; b < B; b++) {
        q[b] = -INFINITY;
        for (int a = 0; a < A; a++)
            for (int c = 0; c < C; c++) q[b] = fmaxf(q[b], w[((size_t)a * B + b) * C + c]);
    }
    const outs one = run(buf, len, 1, x, s);
    for (size_t i = 0; i < (size_t)A * B * C; i++)
        if (fabsf(one.w[i] - w[i]) > 1e-6f * fabsf(w[i]))
            fail_msg("w[%zu] = %g; the loop gives %g", i, one.w[i], w[i]);
    for (size_t i = 0; i < (size_t)A * B * C; i++)
        if (fabsf(one.pw[i] - pw[i]) > 1e-5f * fabsf(pw[i]))
            fail_msg("pw[%zu] = %g; the loop gives %g", i, one.pw[i], pw[i]);
    for (size_t i = 0; i < (size_t)A * C; i++)
        if (fabsf(one.r[i] - r[i]) > 1e-5f * (fabsf(r[i]) + 1))
            fail_msg("r[%zu] = %g; the loop gives %g", i, one.r[i], r[i]);
    for (int b = 0; b < B; b++)
        if (fabsf(one.q[b] - q[b]) > 1e-6f * fabsf(q[b]))
            fail_msg("q[%d] = %g; the loop gives %g", b, one.q[b], q[b]);
    /* the product in the documented order (K < OSC_GEMM_KC: one block from 0, fused
     * multiply-adds), then + C */
    for (int a = 0; a < A; a++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int p = 0; p < C; p++) acc = fmaf(one.r[a * C + p], weight(p, j), acc);
            const float want = acc + bias(a, j);
            if (one.y[a * N + j] != want)
                fail_msg("y[%d][%d] = %.9g; the loop gives %.9g", a, j, one.y[a * N + j], want);
        }
    for (int t = 2; t <= 3; t++) {
        const outs o = run(buf, len, t, x, s);
        assert_memory_equal(o.w, one.w, sizeof(float) * A * B * C);
        assert_memory_equal(o.r, one.r, sizeof(float) * A * C);
        assert_memory_equal(o.q, one.q, sizeof(float) * B);
        assert_memory_equal(o.y, one.y, sizeof(float) * A * N);
        assert_memory_equal(o.tv, one.tv, sizeof(float) * A * K * C);
        assert_memory_equal(o.ti, one.ti, sizeof(int64_t) * A * K * C);
        assert_memory_equal(o.pw, one.pw, sizeof(float) * A * B * C);
        free(o.w), free(o.r), free(o.q), free(o.y), free(o.tv), free(o.ti), free(o.pw);
    }
    /* TopK: each line's K largest, the lower index first among equals */
    for (int a = 0; a < A; a++)
        for (int c = 0; c < C; c++)
            for (int k = 0; k < K; k++) {
                int best = -1;
                for (int b = 0; b < B; b++) {
                    const float v = w[((size_t)a * B + b) * C + c];
                    bool taken = false;
                    for (int j = 0; j < k; j++) taken |= one.ti[(a * K + j) * C + c] == b;
                    if (!taken && (best < 0 || v > w[((size_t)a * B + best) * C + c])) best = b;
                }
                if (one.ti[(a * K + k) * C + c] != best)
                    fail_msg("ti[%d][%d][%d] = %lld; the selection gives %d", a, k, c,
                             (long long)one.ti[(a * K + k) * C + c], best);
            }
    free(one.w), free(one.r), free(one.q), free(one.y), free(one.tv), free(one.ti), free(one.pw);
    free(w), free(pw), free(x), free(s), free(buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(threads_give_the_same_bits)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
