/* test_embed.c: the embedding API: options (threads, reserved, arena cap), caller output buffers
 * (direct, copied, checks, failures), in-place writes into caller inputs, unbinding inputs,
 * model metadata, messages and versions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"
#include "test_embed_models.h"
#include "tests/support/check.h"

static char g_msg[OSC_MESSAGE_SIZE];

/* len is read after buf is made: the two arguments' evaluation order is unspecified. */
static osc_model *load_or_fail(void *buf, const size_t *len, const osc_options *o,
                               osc_status want) {
    osc_model *m = (osc_model *)1;
    assert_non_null(buf);
    memset(g_msg, 'x', sizeof g_msg - 1); /* success must overwrite it with "" */
    g_msg[sizeof g_msg - 1] = '\0';
    osc_status st = osc_model_load_buffer(buf, *len, NULL, o, &m, g_msg, sizeof g_msg);
    free(buf); /* the model copies what it keeps */
    assert_int_equal(st, want);
    if (st) assert_null(m);
    return m;
}

static osc_model *chain(long n, bool t_out, const osc_options *o) {
    size_t len;
    void *buf = emb_chain_model(n, t_out, &len);
    return load_or_fail(buf, &len, o, OSC_OK);
}

/* Binds the chain's inputs; x is the caller's buffer of n floats. */
static void bind_chain(osc_session *s, float *x, long n, int64_t *i, float *u, float *v) {
    assert_int_equal(emb_bind_chain(s, x, n, i, u, v), OSC_OK);
}

static void iota(float *x, long n) {
    for (long k = 0; k < n; k++) x[k] = (float)k;
}

static void versions_and_messages(void **state) {
    (void)state;
    assert_string_equal(osc_version(), OSC_VERSION_STRING);
    osc_model *m = chain(8, false, NULL);
    assert_string_equal(g_msg, ""); /* success clears the caller's message buffer */
    osc_options o;
    memset(&o, 0x5a, sizeof o);
    assert_int_equal(osc_model_options(m, &o), OSC_OK); /* NULL opts: the defaults */
    osc_options def;
    osc_options_init(&def);
    assert_memory_equal(&o, &def, sizeof o);
    assert_int_equal(osc_model_options(m, NULL), OSC_ERR_ARG);
    assert_int_equal(osc_model_options(NULL, &o), OSC_ERR_ARG);
    /* a session message never exceeds OSC_MESSAGE_SIZE - 1, even for a very long name */
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    char name[2000];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    osc_tensor t = {0};
    assert_int_equal(osc_session_set_input(s, name, &t), OSC_ERR_ARG);
    assert_true(strlen(osc_session_error(s)) == OSC_MESSAGE_SIZE - 1);
    osc_session_free(s);
    osc_model_free(m);
    /* a failed load leaves a one-line message in the caller's buffer */
    const unsigned char junk[3] = {0xff, 0xff, 0xff};
    void *copy = malloc(sizeof junk);
    memcpy(copy, junk, sizeof junk);
    size_t jlen = sizeof junk;
    load_or_fail(copy, &jlen, NULL, OSC_ERR_PARSE);
    assert_true(g_msg[0] != '\0' && g_msg[0] != 'x' && !strchr(g_msg, '\n'));
}

static void options_threads_and_reserved(void **state) {
    (void)state;
    osc_options o;
    osc_options_init(&o);
    o.threads = -1;
    size_t len;
    load_or_fail(emb_chain_model(8, false, &len), &len, &o, OSC_ERR_ARG);
    assert_non_null(strstr(g_msg, "opts.threads is -1"));
    osc_options_init(&o);
    o.inplace_inputs = 3;
    load_or_fail(emb_chain_model(8, false, &len), &len, &o, OSC_ERR_ARG);
    assert_non_null(strstr(g_msg, "opts.inplace_inputs is 3; expected 0 (default), 1"));
    osc_options_init(&o);
    o.reserved[0] = 7;
    load_or_fail(emb_chain_model(8, false, &len), &len, &o, OSC_ERR_ARG);
    assert_non_null(strstr(g_msg, "opts.reserved[0] is 7"));
    /* threads is accepted and stored; results do not depend on it */
    float want[2][8];
    for (int k = 0; k < 2; k++) {
        osc_options_init(&o);
        o.threads = k ? 4 : 0;
        o.strict = 1;
        osc_model *m = chain(8, false, &o);
        osc_options got;
        assert_int_equal(osc_model_options(m, &got), OSC_OK);
        assert_int_equal(got.threads, o.threads);
        assert_int_equal(got.strict, 1);
        assert_int_equal(got.inplace_inputs, 0);
        osc_session *s;
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        float x[8], u = 5, v = 2;
        int64_t i = 3;
        iota(x, 8);
        bind_chain(s, x, 8, &i, &u, &v);
        assert_int_equal(osc_session_run(s), OSC_OK);
        osc_tensor y;
        assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
        memcpy(want[k], y.data, sizeof want[k]);
        osc_session_free(s);
        osc_model_free(m);
    }
    assert_memory_equal(want[0], want[1], sizeof want[0]);
    assert_true(want[0][3] == 7.0f);
}

/* The single output of the chain (t and y share one buffer) is computed in the caller's buffer:
 * the session's arena is empty, and the output's data is the caller's pointer. */
static void output_buffer_direct(void **state) {
    (void)state;
    osc_model *m = chain(256, false, NULL);
    assert_int_equal(osc_model_arena_bytes(m), 256 * sizeof(float));
    osc_session *s, *plain;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    assert_int_equal(osc_session_create(m, &plain), OSC_OK);
    assert_int_equal(osc_session_arena_bytes(s), 0); /* nothing before the first run */
    float x[256], u = 5, v = 2, out[256], t[256], want[256];
    int64_t i = -1;
    iota(x, 256);
    emb_chain_expect(x, 256, i, u, v, t, want);
    bind_chain(s, x, 256, &i, &u, &v);
    bind_chain(plain, x, 256, &i, &u, &v);
    assert_int_equal(osc_session_set_output_buffer(s, 0, out, sizeof out), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(osc_session_run(plain), OSC_OK);
    osc_tensor y;
    int32_t mode = -1;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_ptr_equal(y.data, out);
    assert_int_equal(y.nbytes, sizeof out);
    assert_memory_equal(out, want, sizeof want);
    assert_int_equal(osc_session_output_mode(s, 0, &mode), OSC_OK);
    assert_int_equal(mode, OSC_OUTPUT_DIRECT);
    assert_int_equal(osc_session_arena_bytes(s), 0);
    assert_int_equal(osc_session_arena_bytes(plain), 256 * sizeof(float));
    assert_int_equal(osc_session_output_mode(plain, 0, &mode), OSC_OK);
    assert_int_equal(mode, OSC_OUTPUT_SESSION);
    assert_int_equal(osc_session_output(plain, 0, &y), OSC_OK);
    assert_memory_equal(y.data, want, sizeof want);
    assert_true(x[255] == 255.0f); /* inputs are never written without inplace_inputs */
    /* removing the buffer: the output lives in the session again (a new plan) */
    assert_int_equal(osc_session_set_output_buffer(s, 0, NULL, 0), OSC_OK);
    assert_int_equal(osc_session_output(s, 0, &y), OSC_ERR_STATE); /* invalidated */
    memset(out, 0, sizeof out);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_ptr_not_equal(y.data, out);
    assert_memory_equal(y.data, want, sizeof want);
    assert_true(out[0] == 0.0f);
    /* argument checks */
    assert_int_equal(osc_session_set_output_buffer(s, 1, out, sizeof out), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "output index 1 is out of range"));
    assert_int_equal(osc_session_set_output_buffer(s, 0, NULL, 4), OSC_ERR_ARG);
    assert_int_equal(osc_session_output_mode(s, 3, &mode), OSC_ERR_ARG);
    osc_session_free(plain);
    osc_session_free(s);
    osc_model_free(m);
}

/* Outputs that cannot be computed in the caller's buffer are copied there at the end: a
 * misaligned buffer, an output listed twice (one buffer claims the value), a graph input
 * passed through, an output held in a caller's input buffer (inplace_inputs). */
static void output_buffer_copied(void **state) {
    (void)state;
    osc_model *m = chain(16, true, NULL); /* outputs y, t: separate buffers */
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[16], u = 5, v = 2, t[16], want[16];
    int64_t i = 4;
    iota(x, 16);
    emb_chain_expect(x, 16, i, u, v, t, want);
    bind_chain(s, x, 16, &i, &u, &v);
    _Alignas(16) unsigned char raw[16 * sizeof(float) + 1];
    float tout[16];
    assert_int_equal(osc_session_set_output_buffer(s, 0, raw + 1, 16 * sizeof(float)), OSC_OK);
    assert_int_equal(osc_session_set_output_buffer(s, 1, tout, sizeof tout), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    int32_t mode;
    osc_tensor y;
    assert_int_equal(osc_session_output_mode(s, 0, &mode), OSC_OK);
    assert_int_equal(mode, OSC_OUTPUT_COPIED);
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_ptr_equal(y.data, raw + 1);
    assert_memory_equal(raw + 1, want, sizeof want);
    assert_int_equal(osc_session_output_mode(s, 1, &mode), OSC_OK);
    assert_int_equal(mode, OSC_OUTPUT_DIRECT);
    assert_memory_equal(tout, t, sizeof t);
    osc_session_free(s);
    osc_model_free(m);

    /* inplace_inputs: y is computed in x's buffer, so a caller buffer for y gets a copy */
    osc_options o;
    osc_options_init(&o);
    o.inplace_inputs = 1;
    m = chain(16, false, &o);
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    iota(x, 16);
    bind_chain(s, x, 16, &i, &u, &v);
    float yout[16];
    assert_int_equal(osc_session_set_output_buffer(s, 0, yout, sizeof yout), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(osc_session_output_mode(s, 0, &mode), OSC_OK);
    assert_int_equal(mode, OSC_OUTPUT_COPIED);
    assert_memory_equal(yout, want, sizeof want);
    assert_memory_equal(x, want, sizeof want); /* x's buffer held the computation */
    osc_session_free(s);
    osc_model_free(m);
}

/* Too small or overlapping caller buffers fail the run before any node runs: nothing written. */
static void output_buffer_checks(void **state) {
    (void)state;
    osc_model *m = chain(16, true, NULL);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[16], u = 5, v = 2, big[64], small[15];
    int64_t i = 0;
    iota(x, 16);
    bind_chain(s, x, 16, &i, &u, &v);
    for (int k = 0; k < 64; k++) big[k] = -1.0f;
    for (int k = 0; k < 15; k++) small[k] = -1.0f;
    assert_int_equal(osc_session_set_output_buffer(s, 0, big, 16 * sizeof(float)), OSC_OK);
    assert_int_equal(osc_session_set_output_buffer(s, 1, small, sizeof small), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "output 't' (index 1): the caller buffer has 60 "
                                                 "bytes; the output, float [16], needs 64"));
    for (int k = 0; k < 64; k++) assert_true(big[k] == -1.0f);
    /* the two outputs' buffers overlap */
    assert_int_equal(osc_session_set_output_buffer(s, 1, big + 8, 16 * sizeof(float)), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "overlaps the one of output 0"));
    /* an output buffer over an input */
    assert_int_equal(osc_session_set_output_buffer(s, 1, x, sizeof x), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "overlaps the buffer of input 'x'"));
    for (int k = 0; k < 16; k++) assert_true(x[k] == (float)k);
    for (int k = 0; k < 64; k++) assert_true(big[k] == -1.0f);
    /* fixed: runs, and the session outputs land in the caller buffers */
    assert_int_equal(osc_session_set_output_buffer(s, 1, big + 32, 16 * sizeof(float)), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_true(big[0] == 7.0f && big[32] == 5.0f && big[31] == -1.0f);
    osc_session_free(s);
    osc_model_free(m);
}

/* A node failing on an index leaves the caller's output buffer untouched (kernels check every
 * index before writing); the session stays usable. */
static void failed_run_keeps_output_buffer(void **state) {
    (void)state;
    osc_model *m = chain(16, false, NULL);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[16], u = 5, v = 2, out[16];
    int64_t i = 16; /* out of range for both nodes: the first fails */
    iota(x, 16);
    for (int k = 0; k < 16; k++) out[k] = -1.0f;
    bind_chain(s, x, 16, &i, &u, &v);
    assert_int_equal(osc_session_set_output_buffer(s, 0, out, sizeof out), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_ERR_INDEX);
    assert_non_null(strstr(osc_session_error(s), "node 'first'"));
    for (int k = 0; k < 16; k++) assert_true(out[k] == -1.0f);
    int32_t mode;
    assert_int_equal(osc_session_output_mode(s, 0, &mode), OSC_ERR_STATE);
    i = 15;
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_true(out[15] == 7.0f && out[0] == 0.0f);
    osc_session_free(s);
    osc_model_free(m);
}

static int32_t node_mode(const osc_model *m, size_t n) {
    int32_t mode = -1;
    assert_int_equal(osc_model_node_inplace(m, n, &mode), OSC_OK);
    return mode;
}

/* inplace_inputs: the chain runs in x's buffer (no arena), the run consumes x, and each rule of
 * eligibility holds. */
static void inplace_inputs(void **state) {
    (void)state;
    osc_model *m = chain(256, false, NULL);
    assert_int_equal(node_mode(m, 0), OSC_INPLACE_NONE);
    assert_int_equal(node_mode(m, 1), OSC_INPLACE_INTERMEDIATE);
    int32_t mode;
    assert_int_equal(osc_model_node_inplace(m, 2, &mode), OSC_ERR_ARG);
    osc_model_free(m);

    osc_options o;
    osc_options_init(&o);
    o.inplace_inputs = 1;
    m = chain(256, false, &o);
    assert_int_equal(node_mode(m, 0), OSC_INPLACE_INPUT);
    assert_int_equal(node_mode(m, 1), OSC_INPLACE_INPUT); /* continues in x's buffer */
    assert_int_equal(osc_model_arena_bytes(m), 0);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[256], u = 5, v = 2, t[256], want[256];
    int64_t i = 10;
    iota(x, 256);
    emb_chain_expect(x, 256, i, u, v, t, want);
    bind_chain(s, x, 256, &i, &u, &v);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_tensor y;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_ptr_equal(y.data, x);
    assert_memory_equal(x, want, sizeof want);
    assert_int_equal(osc_session_arena_bytes(s), 0);
    /* x was consumed: running again without binding it is an error naming the reason */
    assert_int_equal(osc_session_run(s), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "input 'x' (index 0) is not bound"));
    assert_non_null(strstr(osc_session_error(s), "consumes it"));
    /* a run failing before any node runs does not consume it */
    float other[256];
    iota(other, 256);
    const long long d[1] = {256}, one[1] = {1};
    osc_tensor tx = emb_view(OSC_FLOAT, 1, d, other, sizeof other);
    assert_int_equal(osc_session_set_input(s, "x", &tx), OSC_OK);
    osc_tensor tu = emb_view(OSC_FLOAT, 1, one, other + 3, sizeof(float)); /* u inside x */
    assert_int_equal(osc_session_set_input(s, "u", &tu), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "input 'x' is written in place"));
    assert_non_null(strstr(osc_session_error(s), "overlaps the one of input 'u'"));
    for (int k = 0; k < 256; k++) assert_true(other[k] == (float)k);
    tu = emb_view(OSC_FLOAT, 1, one, &u, sizeof u);
    assert_int_equal(osc_session_set_input(s, "u", &tu), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK); /* x still bound: the failed run kept it */
    assert_memory_equal(other, want, sizeof want);
    osc_session_free(s);
    osc_model_free(m);

    /* t is a graph output: x's buffer holds t; y gets an arena buffer of its own */
    m = chain(256, true, &o);
    assert_int_equal(node_mode(m, 0), OSC_INPLACE_INPUT);
    assert_int_equal(node_mode(m, 1), OSC_INPLACE_NONE);
    assert_int_equal(osc_model_arena_bytes(m), 256 * sizeof(float));
    osc_model_free(m);

    /* not eligible: a string input (the caller owns its osc_string array) */
    size_t len;
    osc_model *ms = load_or_fail(emb_string_model(&len), &len, &o, OSC_OK);
    assert_int_equal(node_mode(ms, 0), OSC_INPLACE_NONE);
    osc_model_free(ms);
    /* not eligible: data with a default (it lives in the shared model), data used later */
    osc_model *m11 = load_or_fail(emb_scatter11_model(&len), &len, &o, OSC_OK);
    assert_int_equal(node_mode(m11, 0), OSC_INPLACE_INPUT); /* data is read by no later node */
    assert_int_equal(node_mode(m11, 1), OSC_INPLACE_NONE);  /* GatherElements: not a scatter */
    osc_model_free(m11);
}

/* Eligibility rules: a data input read again by the node itself (as updates), read by a later
 * node, or backed by a default is never written in place; the deprecated Scatter-11 model runs
 * in data's buffer while its output stays readable by the GatherElements after it. */
static void inplace_inputs_not_eligible(void **state) {
    (void)state;
    osc_options o;
    osc_options_init(&o);
    o.inplace_inputs = 1;
    const int64_t d4[1] = {4};
    for (int variant = 0; variant < 3; variant++) {
        osc_mw *mw = osc_mw_new(8);
        osc_mw_opset(mw, "", 18);
        osc_mw_input(mw, "x", OSC_FLOAT, 1, d4, NULL);
        osc_mw_input(mw, "rev", OSC_INT64, 1, d4, NULL);
        osc_mw_input(mw, "u", OSC_FLOAT, 1, d4, NULL);
        const char *twice[3] = {"x", "rev", "x"}, *plain[3] = {"x", "rev", "u"};
        const char *y[1] = {"y"}, *z[1] = {"z"};
        osc_mw_node(mw, "ScatterElements", "a", 3, variant == 0 ? twice : plain, 1, y);
        if (variant == 1) osc_mw_node(mw, "ScatterElements", "b", 3, plain, 1, z);
        if (variant == 2) {
            float def[4] = {0};
            const long long dd[1] = {4};
            osc_tensor t = emb_view(OSC_FLOAT, 1, dd, def, sizeof def);
            osc_mw_initializer(mw, "x", &t);
        }
        osc_mw_output(mw, "y", OSC_FLOAT, 1, d4, NULL);
        if (variant == 1) osc_mw_output(mw, "z", OSC_FLOAT, 1, d4, NULL);
        void *buf;
        size_t len;
        assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
        osc_mw_free(mw);
        osc_model *m = load_or_fail(buf, &len, &o, OSC_OK);
        assert_int_equal(node_mode(m, 0), OSC_INPLACE_NONE);
        if (variant == 1) assert_int_equal(node_mode(m, 1), OSC_INPLACE_INPUT); /* x dies */
        osc_session *s;
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        float x[4] = {1, 2, 3, 4}, u[4] = {9, 9, 9, 9};
        int64_t rev[4] = {3, 2, 1, 0};
        const long long d[1] = {4};
        const osc_tensor in[3] = {emb_view(OSC_FLOAT, 1, d, x, sizeof x),
                                  emb_view(OSC_INT64, 1, d, rev, sizeof rev),
                                  emb_view(OSC_FLOAT, 1, d, u, sizeof u)};
        osc_tensor ty = osc_check_run(s, 3, (const char *[]){"x", "rev", "u"}, in);
        const float rev_x[4] = {4, 3, 2, 1}, nines[4] = {9, 9, 9, 9};
        assert_memory_equal(ty.data, variant == 0 ? rev_x : nines, sizeof rev_x);
        if (variant != 1) { /* x never written */
            const float orig[4] = {1, 2, 3, 4};
            assert_memory_equal(x, orig, sizeof orig);
        } else {
            osc_tensor tz;
            assert_int_equal(osc_session_output(s, 1, &tz), OSC_OK);
            assert_ptr_equal(tz.data, x);
            assert_memory_equal(x, nines, sizeof nines);
        }
        osc_session_free(s);
        osc_model_free(m);
    }

    size_t len;
    osc_model *m = load_or_fail(emb_scatter11_model(&len), &len, &o, OSC_OK);
    assert_int_equal(node_mode(m, 0), OSC_INPLACE_INPUT);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float data[9] = {0}, upd[6] = {1, 2, 3, 4, 5, 6}, g[6];
    int64_t idx[6] = {0, 1, 2, 2, 0, 1}; /* six distinct cells */
    const long long dd[2] = {3, 3}, id[2] = {2, 3};
    osc_tensor td = emb_view(OSC_FLOAT, 2, dd, data, sizeof data);
    osc_tensor ti = emb_view(OSC_INT64, 2, id, idx, sizeof idx);
    osc_tensor tu = emb_view(OSC_FLOAT, 2, id, upd, sizeof upd);
    assert_int_equal(osc_session_set_input(s, "data", &td), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "indices", &ti), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "updates", &tu), OSC_OK);
    assert_int_equal(osc_session_set_output_buffer(s, 1, g, sizeof g), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_memory_equal(g, upd, sizeof upd); /* gathering the scattered cells gives updates */
    osc_tensor y;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_ptr_equal(y.data, data);
    assert_true(data[0] == 1 && data[4] == 2 && data[8] == 3 && data[6] == 4);
    assert_int_equal(osc_model_warning_count(m), 1);
    assert_non_null(strstr(osc_model_warning(m, 0), "deprecated"));
    osc_session_free(s);
    osc_model_free(m);
}

/* max_arena_bytes bounds each session's arena: a run over it fails before allocating; moving the
 * output into a caller buffer brings the arena under the cap. */
static void arena_cap(void **state) {
    (void)state;
    osc_options o;
    osc_options_init(&o);
    o.max_arena_bytes = 512;
    osc_model *m = chain(256, false, &o); /* needs 1024 arena bytes */
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[256], u = 1, v = 1, out[256];
    int64_t i = 0;
    iota(x, 256);
    bind_chain(s, x, 256, &i, &u, &v);
    assert_int_equal(osc_session_run(s), OSC_ERR_LIMIT);
    assert_non_null(strstr(osc_session_error(s), "needs an arena of 1024 bytes; "
                                                 "opts.max_arena_bytes is 512"));
    assert_int_equal(osc_session_arena_bytes(s), 0); /* nothing was allocated */
    assert_int_equal(osc_session_set_output_buffer(s, 0, out, sizeof out), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_true(out[0] == 2.0f);
    osc_session_free(s);
    osc_model_free(m);
    o.max_arena_bytes = 1024;
    m = chain(256, false, &o);
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    bind_chain(s, x, 256, &i, &u, &v);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_session_free(s);
    osc_model_free(m);
}

/* String outputs in a caller buffer: the osc_string array is written there, the bytes belong to
 * the session. */
static void string_output_buffer(void **state) {
    (void)state;
    size_t len;
    osc_model *m = load_or_fail(emb_string_model(&len), &len, NULL, OSC_OK);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    osc_string in[4] = {{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}}, up[2] = {{"XY", 2}, {"Z", 1}};
    int64_t si[2] = {3, 0};
    const long long d4[1] = {4}, d2[1] = {2};
    const osc_tensor tin[3] = {emb_view(OSC_STRING, 1, d4, in, sizeof in),
                               emb_view(OSC_INT64, 1, d2, si, sizeof si),
                               emb_view(OSC_STRING, 1, d2, up, sizeof up)};
    osc_check_bind(s, 3, (const char *[]){"s", "si", "su"}, tin);
    osc_string out[4];
    assert_int_equal(osc_session_set_output_buffer(s, 0, out, sizeof out), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    int32_t mode;
    assert_int_equal(osc_session_output_mode(s, 0, &mode), OSC_OK);
    assert_int_equal(mode, OSC_OUTPUT_DIRECT);
    assert_int_equal(out[0].len, 2);
    assert_memory_equal(out[0].ptr, "aZ", 2);
    assert_int_equal(out[3].len, 3);
    assert_memory_equal(out[3].ptr, "dXY", 3);
    assert_memory_equal(out[1].ptr, "b", 1);
    assert_true(out[1].ptr != in[1].ptr); /* the session's own copy */
    assert_true(in[0].len == 1 && in[0].ptr[0] == 'a');
    osc_session_free(s);
    osc_model_free(m);
}

/* Add(x, b) -> y, float[2]: x has no default, b defaults to {10, 20}; with metadata. */
static osc_model *meta_model(void) {
    osc_mw *mw = osc_mw_new(8);
    assert_non_null(mw);
    const int64_t two[1] = {2};
    float b[2] = {10, 20};
    const long long d2[1] = {2};
    osc_tensor tb = emb_view(OSC_FLOAT, 1, d2, b, sizeof b);
    const char *ins[2] = {"x", "b"}, *outs[1] = {"y"};
    osc_mw_names(mw, "exporter", "graph-a");
    osc_mw_meta(mw, "1.2.3", "org.example", 42, "model doc", "graph doc");
    osc_mw_meta_prop(mw, "author", "me");
    osc_mw_meta_prop(mw, "empty", "");
    osc_mw_opset(mw, "", 14);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, two, NULL);
    osc_mw_input(mw, "b", OSC_FLOAT, 1, two, NULL);
    osc_mw_initializer(mw, "b", &tb);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, two, NULL);
    osc_mw_node(mw, "Add", "add", 2, ins, 1, outs);
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    return load_or_fail(buf, &len, NULL, OSC_OK);
}

static void model_metadata(void **state) {
    (void)state;
    osc_model *m = meta_model();
    osc_meta_desc d;
    assert_int_equal(osc_model_meta(m, &d), OSC_OK);
    assert_string_equal(d.producer_name, "exporter");
    assert_string_equal(d.producer_version, "1.2.3");
    assert_string_equal(d.domain, "org.example");
    assert_int_equal(d.model_version, 42);
    assert_string_equal(d.doc_string, "model doc");
    assert_string_equal(d.graph_name, "graph-a");
    assert_string_equal(d.graph_doc_string, "graph doc");
    assert_int_equal(d.n_props, 2);
    const char *k = NULL, *v = NULL;
    assert_int_equal(osc_model_meta_prop(m, 0, &k, &v), OSC_OK);
    assert_string_equal(k, "author");
    assert_string_equal(v, "me");
    assert_int_equal(osc_model_meta_prop(m, 1, &k, &v), OSC_OK);
    assert_string_equal(k, "empty");
    assert_string_equal(v, "");
    assert_int_equal(osc_model_meta_prop(m, 2, &k, &v), OSC_ERR_ARG);
    assert_int_equal(osc_model_meta(NULL, &d), OSC_ERR_ARG);
    assert_int_equal(osc_model_meta(m, NULL), OSC_ERR_ARG);
    osc_model_free(m);
    /* unset fields are "" and 0 */
    m = chain(4, false, NULL);
    assert_int_equal(osc_model_meta(m, &d), OSC_OK);
    assert_string_equal(d.producer_version, "");
    assert_string_equal(d.doc_string, "");
    assert_string_equal(d.graph_doc_string, "");
    assert_int_equal(d.model_version, 0);
    assert_int_equal(d.n_props, 0);
    osc_model_free(m);
}

/* Runs the meta model and checks y. */
static void run_expect(osc_session *s, float y0, float y1) {
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_tensor out;
    assert_int_equal(osc_session_output(s, 0, &out), OSC_OK);
    assert_true(((float *)out.data)[0] == y0 && ((float *)out.data)[1] == y1);
}

static void unbind_input(void **state) {
    (void)state;
    osc_model *m = meta_model();
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[2] = {1, 2}, b[2] = {100, 200};
    const long long d2[1] = {2};
    osc_tensor tx = emb_view(OSC_FLOAT, 1, d2, x, sizeof x);
    osc_tensor tb = emb_view(OSC_FLOAT, 1, d2, b, sizeof b);
    assert_int_equal(osc_session_set_input(s, "x", &tx), OSC_OK);
    run_expect(s, 11, 22); /* b's default */
    assert_int_equal(osc_session_set_input(s, "b", &tb), OSC_OK);
    run_expect(s, 101, 202);
    assert_int_equal(osc_session_unbind_input(s, 1), OSC_OK); /* b: the default again */
    osc_tensor out;
    assert_int_equal(osc_session_output(s, 0, &out), OSC_ERR_STATE);
    b[0] = -1; /* the session no longer reads the old buffer */
    run_expect(s, 11, 22);
    assert_int_equal(osc_session_unbind_input(s, 0), OSC_OK); /* x has no default */
    assert_int_equal(osc_session_run(s), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "input 'x' (index 0) is not bound"));
    assert_int_equal(osc_session_unbind_input(s, 2), OSC_ERR_ARG);
    assert_string_equal(osc_session_error(s), "input index 2 is out of range [0, 1]");
    assert_int_equal(osc_session_unbind_input(NULL, 0), OSC_ERR_ARG);
    osc_session_free(s);
    osc_model_free(m);
}

/* After the first run, runs of the same shapes allocate nothing: the arena, the bucketed
 * scatter's partition (a ScatterND add of 2^16 single elements into 2^22 floats, large enough
 * for that path) and, with threads, the pool are all kept by the session. */
static void repeated_runs_allocate_nothing(void **state) {
    (void)state;
    const long long count = 1LL << 22, n = 1LL << 16, id[2] = {n, 1};
    for (int32_t threads = 1; threads <= 2; threads++) {
        size_t len;
        void *buf = emb_scatternd_add_model(count, n, &len);
        osc_test_mem mem = {0}; /* counts the allocations (new blocks and reallocs) */
        osc_options o;
        osc_options_init(&o);
        o.alloc = osc_test_counting_alloc;
        o.alloc_ud = &mem;
        o.threads = threads;
        osc_model *m = load_or_fail(buf, &len, &o, OSC_OK);
        float *data = calloc((size_t)count, sizeof *data), *upd = malloc((size_t)n * sizeof *upd);
        int64_t *idx = malloc((size_t)n * sizeof *idx);
        assert_true(data && upd && idx);
        for (int64_t i = 0; i < n; i++) {
            idx[i] = (i * 7919) % count; /* spread over the output */
            upd[i] = 1.0f;
        }
        osc_session *s;
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        assert_int_equal(osc_session_threads(s), threads);
        osc_tensor td = emb_view(OSC_FLOAT, 1, &count, data, (size_t)count * sizeof *data);
        osc_tensor ti = emb_view(OSC_INT64, 2, id, idx, (size_t)n * sizeof *idx);
        osc_tensor tu = emb_view(OSC_FLOAT, 1, &n, upd, (size_t)n * sizeof *upd);
        assert_int_equal(osc_session_set_input(s, "data", &td), OSC_OK);
        assert_int_equal(osc_session_set_input(s, "indices", &ti), OSC_OK);
        assert_int_equal(osc_session_set_input(s, "updates", &tu), OSC_OK);
        assert_int_equal(osc_session_run(s), OSC_OK);
        const long after_first = mem.allocs;
        for (int run = 0; run < 3; run++) assert_int_equal(osc_session_run(s), OSC_OK);
        assert_int_equal(mem.allocs, after_first);
        osc_tensor y;
        assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
        const float *yv = y.data;
        assert_true(yv[0] == 1.0f && yv[7919] == 1.0f && yv[1] == 0.0f);
        osc_session_free(s);
        osc_model_free(m);
        free(data), free(upd), free(idx);
    }
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(versions_and_messages),
    cmocka_unit_test(options_threads_and_reserved),
    cmocka_unit_test(output_buffer_direct),
    cmocka_unit_test(output_buffer_copied),
    cmocka_unit_test(output_buffer_checks),
    cmocka_unit_test(failed_run_keeps_output_buffer),
    cmocka_unit_test(inplace_inputs),
    cmocka_unit_test(inplace_inputs_not_eligible),
    cmocka_unit_test(arena_cap),
    cmocka_unit_test(string_output_buffer),
    cmocka_unit_test(model_metadata),
    cmocka_unit_test(unbind_input),
    cmocka_unit_test(repeated_runs_allocate_nothing),
)
