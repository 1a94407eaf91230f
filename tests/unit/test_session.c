/* test_session.c: models built in memory, loaded and run through the public API end to end:
 * dispatch by opset, input checks, symbolic dims, defaults, in-place planning, failures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/models.h"
#include "tests/support/testutil.h"
#include "onnx_scatter.h"
#include "tests/support/check.h"
#include "runtime/session.h" /* plans made (osc_session.plans) */

static char g_msg[512];

static osc_status load(osc_mw *mw, const osc_options *opts, osc_model **m) {
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    osc_status st = osc_model_load_buffer(buf, len, NULL, opts, m, g_msg, sizeof g_msg);
    free(buf);
    return st;
}

static osc_tensor view(int32_t dtype, int32_t rank, const int64_t *dims, void *data,
                       size_t nbytes) {
    osc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.rank = rank;
    memcpy(t.dims, dims, (size_t)rank * sizeof *dims);
    t.data = data;
    t.nbytes = nbytes;
    return t;
}

/* ScatterElements(data, indices, updates) with optional symbolic dims on every input. */
static osc_mw *se_model(int64_t opset, const char *op, const int64_t *ddims,
                        const char *const *dnames, const int64_t *idims,
                        const char *const *inames) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", opset);
    osc_mw_input(mw, "data", OSC_FLOAT, 2, ddims, dnames);
    osc_mw_input(mw, "indices", OSC_INT64, 2, idims, inames);
    osc_mw_input(mw, "updates", OSC_FLOAT, 2, idims, inames);
    const char *in[3] = {"data", "indices", "updates"}, *out[1] = {"y"};
    osc_mw_node(mw, op, "s", 3, in, 1, out);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, ddims, dnames);
    return mw;
}

static void spec_example_end_to_end(void **state) {
    (void)state;
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3};
    osc_model *m;
    assert_int_equal(load(se_model(18, "ScatterElements", dd, NULL, id, NULL), NULL, &m), OSC_OK);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float data[9] = {0}, upd[6] = {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f};
    int64_t idx[6] = {1, 0, 2, 0, 2, 1};
    const osc_tensor in[3] = {view(OSC_FLOAT, 2, dd, data, sizeof data),
                              view(OSC_INT64, 2, id, idx, sizeof idx),
                              view(OSC_FLOAT, 2, id, upd, sizeof upd)};
    osc_tensor y = osc_check_run(s, 3, (const char *[]){"data", "indices", "updates"}, in);
    const float want[9] = {2.0f, 1.1f, 0.0f, 1.0f, 0.0f, 2.2f, 0.0f, 2.1f, 1.2f}; /* spec */
    assert_int_equal(y.dtype, OSC_FLOAT);
    assert_int_equal(y.rank, 2);
    assert_int_equal(y.dims[0], 3);
    assert_int_equal(y.nbytes, sizeof want);
    assert_memory_equal(y.data, want, sizeof want);
    for (int i = 0; i < 9; i++) assert_true(data[i] == 0.0f); /* caller's data untouched */
    assert_true(osc_model_arena_bytes(m) >= sizeof want);
    /* a second run with the same shapes reuses the plan and gives the same answer */
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_memory_equal(y.data, want, sizeof want);
    osc_session_free(s);
    osc_model_free(m);
}

/* opts.profile makes a session record each node's time; without it nothing is recorded. */
static void profiling_records_node_times(void **state) {
    (void)state;
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3};
    for (int on = 0; on < 2; on++) {
        osc_options o;
        osc_options_init(&o);
        o.profile = on;
        osc_model *m;
        osc_session *s;
        assert_int_equal(load(se_model(18, "ScatterElements", dd, NULL, id, NULL), &o, &m),
                         OSC_OK);
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        float data[9] = {0}, upd[6] = {0};
        int64_t idx[6] = {0};
        osc_tensor td = view(OSC_FLOAT, 2, dd, data, sizeof data);
        osc_tensor ti = view(OSC_INT64, 2, id, idx, sizeof idx);
        osc_tensor tu = view(OSC_FLOAT, 2, id, upd, sizeof upd);
        osc_session_set_input(s, "data", &td);
        osc_session_set_input(s, "indices", &ti);
        osc_session_set_input(s, "updates", &tu);
        assert_int_equal(osc_session_node_ns(s, 0), 0); /* nothing ran yet */
        assert_int_equal(osc_session_run(s), OSC_OK);
        if (on) assert_true(osc_session_node_ns(s, 0) > 0);
        else assert_int_equal(osc_session_node_ns(s, 0), 0);
        assert_int_equal(osc_session_node_ns(s, 1), 0); /* no such node */
        osc_session_free(s);
        osc_model_free(m);
    }
}

static int64_t resolved(int64_t opset, const char *op, size_t *warnings) {
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3};
    osc_model *m;
    if (load(se_model(opset, op, dd, NULL, id, NULL), NULL, &m) != OSC_OK) return -1;
    osc_node_desc nd;
    assert_int_equal(osc_model_node(m, 0, &nd), OSC_OK);
    assert_int_equal(nd.opset, opset);
    assert_int_equal(nd.n_inputs, 3);
    assert_string_equal(nd.inputs[1], "indices");
    assert_int_equal(nd.n_outputs, 1);
    assert_string_equal(nd.outputs[0], "y");
    if (warnings) *warnings = osc_model_warning_count(m);
    osc_model_free(m);
    return nd.since_version;
}

static void dispatch_by_opset(void **state) {
    (void)state;
    size_t w = 99;
    assert_int_equal(resolved(11, "ScatterElements", NULL), 11);
    assert_int_equal(resolved(12, "ScatterElements", NULL), 11);
    assert_int_equal(resolved(15, "ScatterElements", NULL), 13);
    assert_int_equal(resolved(17, "ScatterElements", NULL), 16);
    assert_int_equal(resolved(24, "ScatterElements", NULL), 18);
    assert_int_equal(resolved(10, "Scatter", &w), 9);
    assert_int_equal(w, 0);
    assert_int_equal(resolved(13, "Scatter", &w), 11);
    assert_int_equal(w, 1); /* deprecated: a warning through the API */
    assert_int_equal(resolved(10, "ScatterElements", NULL), -1);
    assert_non_null(strstr(g_msg, "unsupported op ScatterElements-10"));
    assert_non_null(strstr(g_msg, "older than the first version"));
    assert_int_equal(resolved(18, "Foo", NULL), -1);
    assert_non_null(strstr(g_msg, "unsupported op Foo-18"));
}

/* An IR version outside 1..13 (missing, negative, or newer) loads with a warning naming it; strict
 * mode refuses it. */
static void unknown_ir_version_warns(void **state) {
    (void)state;
    const int64_t irs[4] = {0, -1, 14, 13};
    for (int i = 0; i < 4; i++) {
        for (int strict = 0; strict < 2; strict++) {
            const int64_t d[1] = {4};
            osc_mw *mw = osc_mw_new(irs[i]);
            osc_mw_opset(mw, "", 18);
            osc_mw_input(mw, "x", OSC_FLOAT, 1, d, NULL);
            const char *in[1] = {"x"}, *out[1] = {"y"};
            osc_mw_node(mw, "Relu", "r", 1, in, 1, out);
            osc_mw_output(mw, "y", OSC_FLOAT, 1, d, NULL);
            osc_options o;
            osc_options_init(&o);
            o.strict = strict;
            osc_model *m = NULL;
            osc_status st = load(mw, &o, &m);
            char want[96];
            snprintf(want, sizeof want, "declares IR version %lld; this library knows IR "
                     "versions 1 to 13", (long long)irs[i]);
            if (irs[i] == 13) {
                assert_int_equal(st, OSC_OK);
                assert_int_equal(osc_model_warning_count(m), 0);
            } else if (strict) {
                assert_int_equal(st, OSC_ERR_UNSUPPORTED);
                assert_non_null(strstr(g_msg, want));
            } else {
                assert_int_equal(st, OSC_OK);
                assert_int_equal(osc_model_warning_count(m), 1);
                assert_non_null(strstr(osc_model_warning(m, 0), want));
            }
            osc_model_free(m);
        }
    }
}

/* The load error counts the nodes with and without a kernel, and names every unsupported op. */
static void unsupported_counts_supported_nodes(void **state) {
    (void)state;
    const int64_t d[1] = {4};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, d, NULL);
    const char *ops[4] = {"Relu", "Foo", "Neg", "Bar"};
    const char *names[5] = {"x", "a", "b", "c", "y"};
    for (int i = 0; i < 4; i++) osc_mw_node(mw, ops[i], ops[i], 1, &names[i], 1, &names[i + 1]);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d, NULL);
    osc_model *m;
    assert_int_equal(load(mw, NULL, &m), OSC_ERR_UNSUPPORTED);
    assert_non_null(strstr(g_msg, "unsupported op Foo-18 (node 'Foo'"));
    assert_non_null(strstr(g_msg, "2 of 4 node(s) without a kernel (2 supported)"));
    assert_non_null(strstr(g_msg, "also unsupported: Bar-18"));
}

static void strict_mode_refuses_deprecated(void **state) {
    (void)state;
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3};
    osc_options o;
    osc_options_init(&o);
    o.strict = 1;
    osc_model *m;
    assert_int_equal(load(se_model(11, "Scatter", dd, NULL, id, NULL), &o, &m),
                     OSC_ERR_UNSUPPORTED);
    assert_null(m);
    assert_non_null(strstr(g_msg, "deprecated"));
    assert_non_null(strstr(g_msg, "node 's' (Scatter-11)"));
    assert_int_equal(load(se_model(10, "Scatter", dd, NULL, id, NULL), &o, &m), OSC_OK);
    assert_int_equal(osc_model_warning_count(m), 0); /* Scatter-9 is not deprecated */
    osc_model_free(m);
}

static void input_checks(void **state) {
    (void)state;
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3}, bad[2] = {3, 4}, r1[1] = {9};
    osc_model *m;
    osc_session *s;
    assert_int_equal(load(se_model(18, "ScatterElements", dd, NULL, id, NULL), NULL, &m), OSC_OK);
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float f[12] = {0};
    int32_t i32[9] = {0};
    osc_tensor t = view(OSC_INT32, 2, dd, i32, sizeof i32);
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_SHAPE);
    assert_non_null(strstr(osc_session_error(s), "input 'data': expected dtype float, given int32"));
    t = view(OSC_FLOAT, 2, bad, f, 12 * sizeof(float));
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_SHAPE);
    assert_non_null(strstr(osc_session_error(s), "expected shape [3,3], given [3,4]"));
    t = view(OSC_FLOAT, 1, r1, f, 9 * sizeof(float));
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_SHAPE);
    t = view(OSC_FLOAT, 2, dd, f, 8 * sizeof(float));
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "nbytes is 32"));
    t = view(OSC_FLOAT, 2, dd, NULL, 9 * sizeof(float));
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_ARG);
    assert_int_equal(osc_session_set_input(s, "nope", &t), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "no input named 'nope'"));
    assert_int_equal(osc_session_set_input_at(s, 3, &t), OSC_ERR_ARG);
    assert_int_equal(osc_session_run(s), OSC_ERR_ARG); /* nothing bound */
    assert_non_null(strstr(osc_session_error(s), "input 'data' (index 0) is not bound"));
    osc_tensor y;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_ERR_STATE);
    osc_session_free(s);
    osc_model_free(m);
}

static void symbolic_dims_replan(void **state) {
    (void)state;
    const int64_t dd[2] = {-1, 2}, id[2] = {-1, 2};
    const char *dn[2] = {"N", NULL}, *in[2] = {"M", NULL};
    osc_model *m;
    osc_session *s;
    assert_int_equal(load(se_model(18, "ScatterElements", dd, dn, id, in), NULL, &m), OSC_OK);
    assert_int_equal(osc_model_arena_bytes(m), 0); /* not static: planned at run */
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    for (int64_t n = 2; n <= 5; n += 3) { /* two shapes: the second run re-plans */
        float data[10] = {0}, upd[2] = {7, 8};
        int64_t idx[2] = {n - 1, -n}; /* last row, first column; first row, second column */
        const int64_t d[2] = {n, 2}, u[2] = {1, 2};
        osc_tensor td = view(OSC_FLOAT, 2, d, data, (size_t)(2 * n) * sizeof(float));
        osc_tensor ti = view(OSC_INT64, 2, u, idx, sizeof idx);
        osc_tensor tu = view(OSC_FLOAT, 2, u, upd, sizeof upd);
        assert_int_equal(osc_session_set_input(s, "data", &td), OSC_OK);
        assert_int_equal(osc_session_set_input(s, "indices", &ti), OSC_OK);
        assert_int_equal(osc_session_set_input(s, "updates", &tu), OSC_OK);
        assert_int_equal(osc_session_run(s), OSC_OK);
        osc_tensor y;
        assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
        assert_int_equal(y.dims[0], n);
        const float *yv = y.data;
        for (int64_t k = 0; k < 2 * n; k++) {
            float want = k == 2 * (n - 1) ? 7.0f : k == 1 ? 8.0f : 0.0f;
            assert_true(yv[k] == want);
        }
    }
    /* indices and updates share the symbol M: giving them different sizes is an error */
    float data[4] = {0}, upd[3] = {0};
    int64_t idx[2] = {0, 0};
    const int64_t d[2] = {2, 2}, i1[2] = {1, 2}, u1[2] = {1, 3};
    osc_tensor td = view(OSC_FLOAT, 2, d, data, sizeof data);
    osc_tensor ti = view(OSC_INT64, 2, i1, idx, sizeof idx);
    osc_tensor tu = view(OSC_FLOAT, 2, u1, upd, sizeof upd);
    assert_int_equal(osc_session_set_input(s, "data", &td), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "indices", &ti), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "updates", &tu), OSC_ERR_SHAPE); /* static dim 2 */
    const int64_t i2[2] = {2, 2};
    int64_t idx2[4] = {0};
    ti = view(OSC_INT64, 2, i2, idx2, sizeof idx2);
    assert_int_equal(osc_session_set_input(s, "indices", &ti), OSC_OK);
    const int64_t u2[2] = {1, 2};
    tu = view(OSC_FLOAT, 2, u2, upd, 2 * sizeof(float));
    assert_int_equal(osc_session_set_input(s, "updates", &tu), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_ERR_SHAPE);
    assert_non_null(strstr(osc_session_error(s), "('M')"));
    osc_session_free(s);
    osc_model_free(m);
}

/* x -> ScatterElements -> t -> ScatterElements -> y: t dies at the second node, so y takes
 * t's buffer (one buffer in the arena). When t is also a graph output it must not be reused. */
static osc_model *chain(bool t_is_output) {
    const int64_t d[1] = {256}, i[1] = {1};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, d, NULL);
    osc_mw_input(mw, "i", OSC_INT64, 1, i, NULL);
    osc_mw_input(mw, "u", OSC_FLOAT, 1, i, NULL);
    osc_mw_input(mw, "v", OSC_FLOAT, 1, i, NULL);
    const char *in1[3] = {"x", "i", "u"}, *o1[1] = {"t"}, *in2[3] = {"t", "i", "v"},
               *o2[1] = {"y"};
    osc_mw_node(mw, "ScatterElements", "first", 3, in1, 1, o1);
    int n2 = osc_mw_node(mw, "ScatterElements", "second", 3, in2, 1, o2);
    osc_mw_attr_string(mw, n2, "reduction", "add");
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d, NULL);
    if (t_is_output) osc_mw_output(mw, "t", OSC_FLOAT, 1, d, NULL);
    osc_model *m;
    assert_int_equal(load(mw, NULL, &m), OSC_OK);
    return m;
}

static void inplace_reuses_dying_data(void **state) {
    (void)state;
    for (int t_out = 0; t_out < 2; t_out++) {
        osc_model *m = chain(t_out);
        const char *sv;
        int64_t iv;
        assert_int_equal(osc_model_node_attr_str(m, 1, "reduction", &sv), OSC_OK);
        assert_string_equal(sv, "add");
        assert_int_equal(osc_model_node_attr_int(m, 1, "reduction", &iv), OSC_ERR_ARG);
        assert_int_equal(osc_model_node_attr_str(m, 0, "reduction", &sv), OSC_ERR_ARG);
        assert_int_equal(osc_model_arena_bytes(m), (t_out ? 2 : 1) * 256 * sizeof(float));
        osc_session *s;
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        float x[256], u = 5.0f, v = 2.0f;
        int64_t i = -256; /* element 0 */
        for (int k = 0; k < 256; k++) x[k] = (float)k;
        const int64_t d[1] = {256}, one[1] = {1};
        osc_tensor tx = view(OSC_FLOAT, 1, d, x, sizeof x), ti = view(OSC_INT64, 1, one, &i, 8),
                   tu = view(OSC_FLOAT, 1, one, &u, 4), tv = view(OSC_FLOAT, 1, one, &v, 4);
        osc_session_set_input(s, "x", &tx);
        osc_session_set_input(s, "i", &ti);
        osc_session_set_input(s, "u", &tu);
        osc_session_set_input(s, "v", &tv);
        assert_int_equal(osc_session_run(s), OSC_OK);
        osc_tensor y, t;
        assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
        const float *yv = y.data;
        assert_true(yv[0] == 7.0f && yv[1] == 1.0f && yv[255] == 255.0f);
        if (t_out) {
            assert_int_equal(osc_session_output(s, 1, &t), OSC_OK);
            assert_ptr_not_equal(t.data, y.data);
            assert_true(((const float *)t.data)[0] == 5.0f); /* not overwritten by the add */
        }
        assert_true(x[0] == 0.0f); /* the graph input is never written */
        osc_session_free(s);
        osc_model_free(m);
    }
}

/* ScatterElements(t, rev, t): t dies here but is also read as updates, so the output must not
 * take its buffer (the writes would clobber updates not yet read). Expect reverse(t). */
static void no_inplace_when_data_is_read_twice(void **state) {
    (void)state;
    const int64_t d[1] = {4}, one[1] = {1};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, d, NULL);
    osc_mw_input(mw, "i", OSC_INT64, 1, one, NULL);
    osc_mw_input(mw, "u", OSC_FLOAT, 1, one, NULL);
    osc_mw_input(mw, "rev", OSC_INT64, 1, d, NULL);
    const char *in1[3] = {"x", "i", "u"}, *o1[1] = {"t"}, *in2[3] = {"t", "rev", "t"},
               *o2[1] = {"y"};
    osc_mw_node(mw, "ScatterElements", "first", 3, in1, 1, o1);
    osc_mw_node(mw, "ScatterElements", "second", 3, in2, 1, o2);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d, NULL);
    osc_model *m;
    osc_session *s;
    assert_int_equal(load(mw, NULL, &m), OSC_OK);
    assert_int_equal(osc_model_arena_bytes(m), 2 * 64); /* t and y: two buffers */
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[4] = {1, 2, 3, 4}, u = 9;
    int64_t i = 0, rev[4] = {3, 2, 1, 0};
    osc_tensor tx = view(OSC_FLOAT, 1, d, x, sizeof x), ti = view(OSC_INT64, 1, one, &i, 8),
               tu = view(OSC_FLOAT, 1, one, &u, 4), tr = view(OSC_INT64, 1, d, rev, sizeof rev);
    osc_session_set_input(s, "x", &tx);
    osc_session_set_input(s, "i", &ti);
    osc_session_set_input(s, "u", &tu);
    osc_session_set_input(s, "rev", &tr);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_tensor y;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    const float want[4] = {4, 3, 2, 9};
    assert_memory_equal(y.data, want, sizeof want);
    osc_session_free(s);
    osc_model_free(m);
}

static void failed_run_leaves_nothing(void **state) {
    (void)state;
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3};
    osc_model *m;
    osc_session *s;
    assert_int_equal(load(se_model(18, "ScatterElements", dd, NULL, id, NULL), NULL, &m), OSC_OK);
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float data[9] = {0}, upd[6] = {1, 2, 3, 4, 5, 6};
    int64_t idx[6] = {0, 1, 2, 0, 1, 2};
    osc_tensor td = view(OSC_FLOAT, 2, dd, data, sizeof data);
    osc_tensor ti = view(OSC_INT64, 2, id, idx, sizeof idx);
    osc_tensor tu = view(OSC_FLOAT, 2, id, upd, sizeof upd);
    osc_session_set_input(s, "data", &td);
    osc_session_set_input(s, "indices", &ti);
    osc_session_set_input(s, "updates", &tu);
    assert_int_equal(osc_session_run(s), OSC_OK);
    idx[4] = 3; /* out of range at flat position 4 */
    assert_int_equal(osc_session_run(s), OSC_ERR_INDEX);
    const char *e = osc_session_error(s);
    assert_non_null(strstr(e, "node 's'"));
    assert_non_null(strstr(e, "position 4"));
    assert_non_null(strstr(e, "[-3, 2]"));
    osc_tensor y;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_ERR_STATE);
    for (int k = 0; k < 9; k++) assert_true(data[k] == 0.0f);
    idx[4] = -3; /* fixed: runs again */
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_string_equal(osc_session_error(s), "");
    osc_session_free(s);
    osc_model_free(m);
}

static void defaults_and_declared_outputs(void **state) {
    (void)state;
    const int64_t dd[2] = {3, 3}, id[2] = {1, 3}, wrong[2] = {3, 4};
    /* indices has an initializer default; the caller may override it */
    osc_mw *mw = se_model(18, "ScatterElements", dd, NULL, id, NULL);
    int64_t def[3] = {2, 2, 2};
    osc_tensor tdef = view(OSC_INT64, 2, id, def, sizeof def);
    osc_mw_initializer(mw, "indices", &tdef);
    osc_model *m;
    assert_int_equal(load(mw, NULL, &m), OSC_OK);
    assert_int_equal(osc_model_input_count(m), 3);
    osc_value_desc vd;
    int64_t iv;
    assert_int_equal(osc_model_node_attr_int(m, 0, "axis", &iv), OSC_ERR_ARG); /* absent */
    assert_int_equal(osc_model_input(m, 2, &vd), OSC_OK); /* defaults come last */
    assert_string_equal(vd.name, "indices");
    assert_true(vd.has_default);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float data[9] = {0}, upd[3] = {1, 2, 3};
    osc_tensor td = view(OSC_FLOAT, 2, dd, data, sizeof data);
    osc_tensor tu = view(OSC_FLOAT, 2, id, upd, sizeof upd);
    osc_session_set_input(s, "data", &td);
    osc_session_set_input(s, "updates", &tu);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_tensor y;
    osc_session_output(s, 0, &y);
    assert_true(((float *)y.data)[6] == 1.0f && ((float *)y.data)[8] == 3.0f);
    int64_t mine[3] = {0, 0, 0};
    osc_tensor ti = view(OSC_INT64, 2, id, mine, sizeof mine);
    assert_int_equal(osc_session_set_input(s, "indices", &ti), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_session_output(s, 0, &y);
    assert_true(((float *)y.data)[0] == 1.0f && ((float *)y.data)[6] == 0.0f);
    osc_session_free(s);
    osc_model_free(m);
    /* a declared static dim the graph computes otherwise (a stale declaration) loads with a
     * warning naming both shapes, and the computed shape wins; strict mode refuses it; a
     * declared rank that differs is an error */
    const char *in[3] = {"data", "indices", "updates"}, *out[1] = {"y2"};
    for (int strict = 0; strict < 2; strict++) {
        osc_options o;
        osc_options_init(&o);
        o.strict = strict;
        mw = se_model(18, "ScatterElements", dd, NULL, id, NULL);
        osc_mw_output(mw, "y2", OSC_FLOAT, 2, wrong, NULL);
        osc_mw_node(mw, "ScatterElements", "bad", 3, in, 1, out);
        if (strict) {
            assert_int_equal(load(mw, &o, &m), OSC_ERR_SHAPE);
            assert_non_null(strstr(g_msg, "graph output 'y2' is declared as float [3,4] but the "
                                          "graph computes float [3,3] (strict mode refuses"));
            continue;
        }
        assert_int_equal(load(mw, &o, &m), OSC_OK);
        const char *w = osc_model_warning(m, osc_model_warning_count(m) - 1);
        assert_non_null(w);
        assert_non_null(strstr(w, "graph output 'y2' is declared as float [3,4] but the graph "
                                  "computes float [3,3]; the computed shape is used"));
        assert_int_equal(osc_model_output(m, 1, &vd), OSC_OK);
        assert_true(vd.rank == 2 && vd.dims[0] == 3 && vd.dims[1] == 3);
        osc_model_free(m);
    }
    const int64_t rank3[3] = {3, 3, 1};
    mw = se_model(18, "ScatterElements", dd, NULL, id, NULL);
    osc_mw_output(mw, "y2", OSC_FLOAT, 3, rank3, NULL);
    osc_mw_node(mw, "ScatterElements", "bad", 3, in, 1, out);
    assert_int_equal(load(mw, NULL, &m), OSC_ERR_SHAPE);
    assert_non_null(strstr(g_msg, "graph output 'y2' is declared as float [3,3,1] but the graph "
                                  "computes float [3,3]"));
}

/* The loader accepts non-tensor types so that an unsupported op is named first; when every op
 * is supported, the runtime refuses the non-tensor value itself. The value_info is appended as
 * a second `graph` field, which protobuf merges into the first. */
static void non_tensor_value_refused(void **state) {
    (void)state;
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3};
    const unsigned char extra[] = {0x3a, 0x0c,                   /* ModelProto.graph */
                                   0x6a, 0x0a,                   /* GraphProto.value_info */
                                   0x0a, 0x04, 'd', 'a', 't', 'a', /* name */
                                   0x12, 0x02, 0x2a, 0x00};      /* type: map_type {} */
    for (int op = 0; op < 2; op++) {
        osc_mw *mw = se_model(18, op ? "Foo" : "ScatterElements", dd, NULL, id, NULL);
        void *buf;
        size_t len;
        assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
        osc_mw_free(mw);
        unsigned char *all = malloc(len + sizeof extra);
        memcpy(all, buf, len);
        memcpy(all + len, extra, sizeof extra);
        osc_model *m;
        assert_int_equal(osc_model_load_buffer(all, len + sizeof extra, NULL, NULL, &m, g_msg,
                                               sizeof g_msg), OSC_ERR_UNSUPPORTED);
        assert_non_null(strstr(g_msg, op ? "unsupported op Foo-18"
                                         : "value 'data' has a map type"));
        free(all);
        free(buf);
    }
}

/* y = Reshape(x, Shape(t)): with t static, Shape folds at load and the plan is static; with t
 * symbolic the reshape target is only known at run (staged inference), and changes with t. */
static osc_mw *reshape_model(bool symbolic) {
    const int64_t xd[1] = {6}, td[2] = {symbolic ? -1 : 2, symbolic ? -1 : 3};
    const char *tn[2] = {"A", "B"};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, xd, NULL);
    osc_mw_input(mw, "t", OSC_FLOAT, 2, td, symbolic ? tn : NULL);
    const char *in1[1] = {"t"}, *o1[1] = {"s"}, *in2[2] = {"x", "s"}, *o2[1] = {"y"};
    osc_mw_node(mw, "Shape", "shape", 1, in1, 1, o1);
    osc_mw_node(mw, "Reshape", "reshape", 2, in2, 1, o2);
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    return mw;
}

static void folding_and_staged_shapes(void **state) {
    (void)state;
    for (int sym = 0; sym < 2; sym++) {
        osc_model *m;
        osc_session *s;
        assert_int_equal(load(reshape_model(sym), NULL, &m), OSC_OK);
        osc_node_desc nd;
        assert_int_equal(osc_model_node(m, 0, &nd), OSC_OK);
        assert_int_equal(nd.folded, !sym);
        assert_int_equal(osc_model_node(m, 1, &nd), OSC_OK);
        assert_int_equal(nd.folded, 0);
        if (!sym) assert_true(osc_model_arena_bytes(m) > 0); /* planned at load */
        else assert_int_equal(osc_model_arena_bytes(m), 0);
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        float x[6] = {1, 2, 3, 4, 5, 6}, t[6] = {0};
        const int64_t xd[1] = {6};
        osc_tensor tx = view(OSC_FLOAT, 1, xd, x, sizeof x);
        assert_int_equal(osc_session_set_input(s, "x", &tx), OSC_OK);
        for (int shape = 0; shape < (sym ? 3 : 1); shape++) {
            const int64_t dims[3][2] = {{2, 3}, {3, 2}, {6, 1}};
            osc_tensor tt = view(OSC_FLOAT, 2, dims[shape], t, sizeof t);
            assert_int_equal(osc_session_set_input(s, "t", &tt), OSC_OK);
            assert_int_equal(osc_session_run(s), OSC_OK);
            osc_tensor y;
            assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
            assert_int_equal(y.rank, 2);
            assert_int_equal(y.dims[0], dims[shape][0]);
            assert_int_equal(y.dims[1], dims[shape][1]);
            assert_memory_equal(y.data, x, sizeof x);
        }
        osc_session_free(s);
        osc_model_free(m);
    }
}

/* A string output folded at load (Identity of a string initializer) is the model's constant:
 * runs must neither rewrite it nor leave it pointing into a session's per-run string bytes
 * (fuzz finding: the second run read strings the first run's pool had freed). */
static void folded_string_output_stays_the_models(void **state) {
    (void)state;
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    const osc_string sv[2] = {{"a", 1}, {"bc", 2}};
    const int64_t d[1] = {2};
    osc_tensor init = view(OSC_STRING, 1, d, (void *)sv, sizeof sv);
    osc_mw_initializer(mw, "s", &init);
    const char *in[1] = {"s"}, *out[1] = {"y"};
    osc_mw_node(mw, "Identity", "i", 1, in, 1, out);
    osc_mw_output(mw, "y", OSC_STRING, 1, d, NULL);
    osc_model *m;
    assert_int_equal(load(mw, NULL, &m), OSC_OK);
    osc_node_desc nd;
    assert_int_equal(osc_model_node(m, 0, &nd), OSC_OK);
    assert_int_equal(nd.folded, 1);
    osc_session *s1, *s2;
    assert_int_equal(osc_session_create(m, &s1), OSC_OK);
    assert_int_equal(osc_session_create(m, &s2), OSC_OK);
    for (int run = 0; run < 4; run++) { /* s1 twice (its string bytes are reset per run) */
        osc_session *s = run == 2 ? s2 : s1;
        assert_int_equal(osc_session_run(s), OSC_OK);
        osc_tensor y;
        assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
        const osc_string *got = y.data;
        assert_int_equal(got[0].len, 1);
        assert_memory_equal(got[0].ptr, "a", 1);
        assert_int_equal(got[1].len, 2);
        assert_memory_equal(got[1].ptr, "bc", 2);
    }
    osc_session_free(s1);
    osc_session_free(s2);
    osc_model_free(m);
}

/* The reshape target is a graph input: its DATA changes between runs while every input shape
 * stays the same, so a plan cached by input shapes would be stale. */
static void data_dependent_shape_from_input(void **state) {
    (void)state;
    const int64_t xd[1] = {6}, sd[1] = {2};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, xd, NULL);
    osc_mw_input(mw, "shape", OSC_INT64, 1, sd, NULL);
    const char *in[2] = {"x", "shape"}, *out[1] = {"y"};
    osc_mw_node(mw, "Reshape", "reshape", 2, in, 1, out);
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    osc_model *m;
    osc_session *s;
    assert_int_equal(load(mw, NULL, &m), OSC_OK);
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[6] = {1, 2, 3, 4, 5, 6};
    int64_t shape[2] = {2, 3};
    osc_tensor tx = view(OSC_FLOAT, 1, xd, x, sizeof x), ts = view(OSC_INT64, 1, sd, shape, 16);
    osc_session_set_input(s, "x", &tx);
    osc_session_set_input(s, "shape", &ts);
    osc_tensor y;
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_int_equal(y.dims[0], 2);
    shape[0] = 3, shape[1] = -1;
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_int_equal(y.dims[0], 3);
    assert_int_equal(y.dims[1], 2);
    shape[0] = 4; /* 4 x ? cannot hold 6 elements */
    assert_int_equal(osc_session_run(s), OSC_ERR_SHAPE);
    osc_session_free(s);
    osc_model_free(m);
}

/* A dynamic model plans each stage at its first run; a run whose shapes repeat the previous
 * run's reuses every stage's plan and arena: no placement, no allocation. A run with other
 * shapes places the stages again. */
static void dynamic_stages_plan_once(void **state) {
    (void)state;
    enum { STAGES = 2000 };
    osc_test_mem mem = {0};
    osc_options o;
    osc_options_init(&o);
    o.alloc = osc_test_counting_alloc;
    o.alloc_ud = &mem;
    osc_model *m;
    assert_int_equal(load(osc_test_stage_model(STAGES), &o, &m), OSC_OK);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int64_t d8 = 8;
    osc_tensor tx = view(OSC_FLOAT, 1, &d8, x, sizeof x);
    assert_int_equal(osc_session_set_input(s, "v0", &tx), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(s->plans, STAGES);
    const long after_first = mem.allocs;
    for (int run = 0; run < 2; run++) {
        assert_int_equal(osc_session_set_input(s, "v0", &tx), OSC_OK);
        assert_int_equal(osc_session_run(s), OSC_OK);
    }
    assert_int_equal(s->plans, STAGES);
    assert_int_equal(mem.allocs, after_first);
    osc_tensor y;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    const float *yv = y.data;
    for (int i = 0; i < 8; i++) assert_true(yv[i] == (float)(i + 1));
    /* one zero in the input: every stage's values have 7 elements now, so every stage is placed
     * again (once: the run after repeats those shapes) */
    x[3] = 0;
    assert_int_equal(osc_session_set_input(s, "v0", &tx), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(s->plans, 2 * STAGES);
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_int_equal(y.dims[0], 7);
    yv = y.data;
    for (int i = 0; i < 7; i++) assert_true(yv[i] == (float)(i + 1));
    assert_int_equal(osc_session_set_input(s, "v0", &tx), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(s->plans, 2 * STAGES);
    osc_session_free(s);
    osc_model_free(m);
}

/* What a debugger or profiler reads (osc_model_value, osc_model_value_data,
 * osc_model_node_attr_at, osc_session_set_node_hook), and the spelling of an unnamed node:
 * x [2, 3] -> Shape (folded) ; unnamed Add(x, x) -> a ; GatherElements(a, idx, axis 1) -> y. */
typedef struct seen_nodes {
    int calls;
    size_t node[4];
    int32_t out_rank[4];
    int64_t out_dim1[4];
} seen_nodes;

static void record(void *ud, size_t node, const osc_tensor *const *in, int32_t n_in,
                   const osc_tensor *out, int32_t n_out) {
    seen_nodes *sn = ud;
    assert_true(n_in >= 1 && in[0] != NULL && n_out == 1);
    if (sn->calls < 4) {
        sn->node[sn->calls] = node;
        sn->out_rank[sn->calls] = out[0].rank;
        sn->out_dim1[sn->calls] = out[0].dims[1];
    }
    sn->calls++;
}

static void values_attributes_hook_and_labels(void **state) {
    (void)state;
    const int64_t dx[2] = {2, 3}, di[2] = {2, 2};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "x", OSC_FLOAT, 2, dx, NULL);
    osc_mw_input(mw, "idx", OSC_INT64, 2, di, NULL);
    const char *sx[1] = {"x"}, *so[1] = {"shape"}, *ax[2] = {"x", "x"}, *ao[1] = {"a"};
    osc_mw_node(mw, "Shape", "shape_of_x", 1, sx, 1, so);
    osc_mw_node(mw, "Add", NULL, 2, ax, 1, ao);
    const char *gi[2] = {"a", "idx"}, *go[1] = {"y"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "GatherElements", NULL, 2, gi, 1, go), "axis", 1);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, di, NULL);
    osc_mw_output(mw, "shape", OSC_INT64, 1, (const int64_t[1]){2}, NULL);
    osc_model *m;
    assert_int_equal(load(mw, NULL, &m), OSC_OK);
    osc_value_desc d;
    assert_int_equal(osc_model_value(m, "a", &d), OSC_OK); /* an intermediate: inferred */
    assert_true(d.dtype == OSC_FLOAT && d.rank == 2 && d.dims[0] == 2 && d.dims[1] == 3);
    assert_int_equal(osc_model_value(m, "nope", &d), OSC_ERR_ARG);
    osc_tensor c;
    assert_int_equal(osc_model_value_data(m, "shape", &c), OSC_OK); /* folded */
    assert_true(c.dtype == OSC_INT64 && ((int64_t *)c.data)[1] == 3);
    assert_int_equal(osc_model_value_data(m, "a", &c), OSC_ERR_ARG); /* computed at run */
    assert_int_equal(osc_model_value_data(m, "x", &c), OSC_ERR_ARG); /* an input */
    assert_int_equal(osc_model_node_attr_count(m, 2), 1);
    osc_attr_desc at;
    assert_int_equal(osc_model_node_attr_at(m, 2, 0, &at), OSC_OK);
    assert_true(!strcmp(at.name, "axis") && at.type == 2 && at.i == 1);
    assert_int_equal(osc_model_node_attr_at(m, 2, 1, &at), OSC_ERR_ARG);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    seen_nodes sn = {0};
    assert_int_equal(osc_session_set_node_hook(s, record, &sn), OSC_OK);
    float x[6] = {1, 2, 3, 4, 5, 6};
    int64_t idx[4] = {0, 2, 1, 7}; /* 7 is out of range */
    osc_tensor tx = view(OSC_FLOAT, 2, dx, x, sizeof x), ti = view(OSC_INT64, 2, di, idx, sizeof idx);
    osc_session_set_input(s, "x", &tx);
    osc_session_set_input(s, "idx", &ti);
    assert_int_equal(osc_session_run(s), OSC_ERR_INDEX);
    /* an unnamed node is "#INDEX OP", as osc_model_node counts */
    assert_non_null(strstr(osc_session_error(s), "node #2 GatherElements (GatherElements-13): "));
    assert_int_equal(sn.calls, 1); /* the folded Shape does not run, the failing node is not seen */
    assert_true(sn.node[0] == 1 && sn.out_rank[0] == 2 && sn.out_dim1[0] == 3);
    idx[3] = 1;
    sn.calls = 0;
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_true(sn.calls == 2 && sn.node[1] == 2 && sn.out_dim1[1] == 2);
    assert_int_equal(osc_session_set_node_hook(s, NULL, NULL), OSC_OK);
    sn.calls = 0;
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(sn.calls, 0);
    assert_int_equal(osc_session_set_node_hook(NULL, record, &sn), OSC_ERR_ARG);
    osc_session_free(s);
    osc_model_free(m);
}

/* A Constant larger than any folded value (1 MiB) folds all the same: its output is its
 * attribute's bytes (no copy at load, none per run), and runs read them. */
static void large_constant_shares_its_bytes(void **state) {
    (void)state;
    enum { N = 1 << 19 }; /* 2 MiB of floats */
    float *c = malloc(sizeof(float) * N), *x = malloc(sizeof(float) * N);
    assert_true(c && x);
    for (int i = 0; i < N; i++) c[i] = (float)(i % 1000) - 500.0f, x[i] = 0.25f;
    const int64_t dn[1] = {N};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, dn, NULL);
    osc_tensor t = view(OSC_FLOAT, 1, dn, c, sizeof(float) * N);
    const char *co[1] = {"c"}, *ai[2] = {"x", "c"}, *ao[1] = {"y"};
    osc_mw_attr_tensor(mw, osc_mw_node(mw, "Constant", "big", 0, NULL, 1, co), "value", &t);
    osc_mw_node(mw, "Add", "add", 2, ai, 1, ao);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, dn, NULL);
    osc_model *m;
    assert_int_equal(load(mw, NULL, &m), OSC_OK);
    osc_node_desc nd;
    assert_int_equal(osc_model_node(m, 0, &nd), OSC_OK);
    assert_int_equal(nd.folded, 1);
    osc_tensor v;
    osc_attr_desc at;
    assert_int_equal(osc_model_value_data(m, "c", &v), OSC_OK);
    assert_int_equal(osc_model_node_attr_at(m, 0, 0, &at), OSC_OK);
    assert_true(at.t != NULL && at.t->data == v.data && v.nbytes == sizeof(float) * N);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    osc_tensor tx = view(OSC_FLOAT, 1, dn, x, sizeof(float) * N), y;
    for (int run = 0; run < 2; run++) {
        assert_int_equal(osc_session_set_input(s, "x", &tx), OSC_OK);
        assert_int_equal(osc_session_run(s), OSC_OK);
        assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
        for (int i = 0; i < N; i++)
            if (((const float *)y.data)[i] != 0.25f + c[i])
                fail_msg("run %d: y[%d] = %g; want %g", run, i, ((const float *)y.data)[i],
                         0.25f + c[i]);
    }
    osc_session_free(s);
    osc_model_free(m);
    free(c), free(x);
}

/* At load, constants over 16 KiB with equal bytes share them, and those no node left to run
 * reads are given back unless a read one shares their bytes; a folded Constant's output
 * shares its attribute's bytes:
 *   Constant w ; nw = Neg(w) (folded: w is read by nothing at run) ; y = x + nw
 *   Constant k ; Constant k2 (k's bytes) ; z = x * k + k2
 *   Constant u (nw's bytes, read by nothing at run) ; Constant u2 (the same) ; v = x * u2. */
static void unread_constants_released(void **state) {
    (void)state;
    enum { N = 8192 }; /* 32 KiB: always a pool block of its own */
    static float w[N], nw[N], k[N], x[N];
    for (int i = 0; i < N; i++)
        w[i] = 0.5f * (float)i, nw[i] = -w[i], k[i] = (float)(i % 7), x[i] = 2;
    const int64_t dn[1] = {N};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, dn, NULL);
    static const char *const names[5] = {"w", "k", "k2", "u", "u2"};
    const float *bytes[5] = {w, k, k, nw, nw};
    for (int c = 0; c < 5; c++) {
        osc_tensor t = view(OSC_FLOAT, 1, dn, (void *)bytes[c], sizeof w);
        const char *o[1] = {names[c]};
        osc_mw_attr_tensor(mw, osc_mw_node(mw, "Constant", names[c], 0, NULL, 1, o), "value", &t);
    }
    const char *ni[1] = {"w"}, *no[1] = {"nw"}, *ai[2] = {"x", "nw"}, *ao[1] = {"y"};
    const char *mi[2] = {"x", "k"}, *mo[1] = {"xk"}, *zi[2] = {"xk", "k2"}, *zo[1] = {"z"};
    const char *vi[2] = {"x", "u2"}, *vo[1] = {"v"};
    osc_mw_node(mw, "Neg", "neg", 1, ni, 1, no);
    osc_mw_node(mw, "Add", "add", 2, ai, 1, ao);
    osc_mw_node(mw, "Mul", "mul", 2, mi, 1, mo);
    osc_mw_node(mw, "Add", "add_k2", 2, zi, 1, zo);
    osc_mw_node(mw, "Mul", "mul_u2", 2, vi, 1, vo);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, dn, NULL);
    osc_mw_output(mw, "z", OSC_FLOAT, 1, dn, NULL);
    osc_mw_output(mw, "v", OSC_FLOAT, 1, dn, NULL);
    osc_model *m;
    assert_int_equal(load(mw, NULL, &m), OSC_OK);
    osc_tensor c, c2;
    osc_attr_desc at;
    assert_int_equal(osc_model_value_data(m, "w", &c), OSC_ERR_ARG); /* released */
    assert_int_equal(osc_model_node_attr_at(m, 0, 0, &at), OSC_OK);
    assert_true(at.t != NULL && at.t->data == NULL && at.t->dims[0] == N);
    assert_int_equal(osc_model_value_data(m, "nw", &c), OSC_OK);
    assert_true(c.nbytes == sizeof w && memcmp(c.data, nw, sizeof nw) == 0);
    assert_int_equal(osc_model_value_data(m, "k", &c), OSC_OK); /* read at run: kept, shared */
    assert_int_equal(osc_model_node_attr_at(m, 1, 0, &at), OSC_OK);
    assert_true(at.t->data == c.data && memcmp(c.data, k, sizeof k) == 0);
    assert_int_equal(osc_model_value_data(m, "k2", &c2), OSC_OK); /* k's bytes */
    assert_true(c2.data == c.data);
    /* u is read by nothing at run but holds the bytes u2 reads (nw's too): kept */
    assert_int_equal(osc_model_value_data(m, "u", &c), OSC_OK);
    assert_int_equal(osc_model_value_data(m, "u2", &c2), OSC_OK);
    assert_true(c2.data == c.data && memcmp(c.data, nw, sizeof nw) == 0);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    osc_tensor tx = view(OSC_FLOAT, 1, dn, x, sizeof x), y, z, v;
    assert_int_equal(osc_session_set_input(s, "x", &tx), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_int_equal(osc_session_output(s, 1, &z), OSC_OK);
    assert_int_equal(osc_session_output(s, 2, &v), OSC_OK);
    for (int i = 0; i < N; i++) {
        assert_true(((const float *)y.data)[i] == 2 - w[i]);
        assert_true(((const float *)z.data)[i] == 2 * k[i] + k[i]);
        assert_true(((const float *)v.data)[i] == 2 * nw[i]);
    }
    osc_session_free(s);
    osc_model_free(m);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(spec_example_end_to_end),
    cmocka_unit_test(dispatch_by_opset),
    cmocka_unit_test(unsupported_counts_supported_nodes),
    cmocka_unit_test(unknown_ir_version_warns),
    cmocka_unit_test(profiling_records_node_times),
    cmocka_unit_test(strict_mode_refuses_deprecated),
    cmocka_unit_test(input_checks),
    cmocka_unit_test(symbolic_dims_replan),
    cmocka_unit_test(inplace_reuses_dying_data),
    cmocka_unit_test(no_inplace_when_data_is_read_twice),
    cmocka_unit_test(failed_run_leaves_nothing),
    cmocka_unit_test(defaults_and_declared_outputs),
    cmocka_unit_test(non_tensor_value_refused),
    cmocka_unit_test(folding_and_staged_shapes),
    cmocka_unit_test(folded_string_output_stays_the_models),
    cmocka_unit_test(data_dependent_shape_from_input),
    cmocka_unit_test(dynamic_stages_plan_once),
    cmocka_unit_test(values_attributes_hook_and_labels),
    cmocka_unit_test(unread_constants_released),
    cmocka_unit_test(large_constant_shares_its_bytes),
)
