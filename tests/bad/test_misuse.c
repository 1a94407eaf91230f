/* test_misuse.c: every public call, and every call of the model writer, given NULL handles, NULL
 * pointers, indices out of range and inconsistent tensors: each returns its documented status
 * (OSC_ERR_ARG, OSC_ERR_STATE, 0 or NULL) with a message where it keeps one, and never crashes
 * or writes through a NULL pointer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "loader/loader.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"
#include "core/dtype.h"
#include "ops/scatter/reduce.h"
#include "tests/support/check.h"

/* data[4] float, indices[1] int64, updates[1] -> ScatterElements -> y[4]. */
static osc_model *small_model(void) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    const int64_t d4[1] = {4}, d1[1] = {1};
    osc_mw_input(mw, "data", OSC_FLOAT, 1, d4, NULL);
    osc_mw_input(mw, "indices", OSC_INT64, 1, d1, NULL);
    osc_mw_input(mw, "updates", OSC_FLOAT, 1, d1, NULL);
    osc_mw_node(mw, "ScatterElements", "s", 3, (const char *[]){"data", "indices", "updates"}, 1,
                (const char *[]){"y"});
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d4, NULL);
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    osc_model *m;
    char msg[OSC_MESSAGE_SIZE];
    assert_int_equal(osc_model_load_buffer(buf, len, NULL, NULL, &m, msg, sizeof msg), OSC_OK);
    free(buf);
    return m;
}

static void model_calls(void **state) {
    (void)state;
    char msg[OSC_MESSAGE_SIZE];
    osc_model *m = (osc_model *)1;
    /* loads */
    assert_int_equal(osc_model_load_buffer(NULL, 5, NULL, NULL, &m, msg, sizeof msg), OSC_ERR_ARG);
    assert_null(m);
    assert_non_null(strstr(msg, "NULL argument"));
    assert_int_equal(osc_model_load_buffer("x", 1, NULL, NULL, NULL, msg, sizeof msg), OSC_ERR_ARG);
    assert_int_equal(osc_model_load_file(NULL, NULL, &m, msg, sizeof msg), OSC_ERR_ARG);
    assert_int_equal(osc_model_load_file("x", NULL, NULL, NULL, 0), OSC_ERR_ARG);
    /* a message buffer of size 0 or NULL is never written */
    msg[0] = 'x';
    assert_int_equal(osc_model_load_buffer("\xff", 1, NULL, NULL, &m, msg, 0), OSC_ERR_PARSE);
    assert_int_equal(msg[0], 'x');
    assert_int_equal(osc_model_load_buffer("\xff", 1, NULL, NULL, &m, NULL, 100), OSC_ERR_PARSE);
    /* a one-byte buffer gets the empty string */
    assert_int_equal(osc_model_load_buffer("\xff", 1, NULL, NULL, &m, msg, 1), OSC_ERR_PARSE);
    assert_int_equal(msg[0], '\0');
    /* a model file in the root folder and one without a folder: external data resolves there */
    assert_int_equal(osc_model_load_file("/no-such-model.onnx", NULL, &m, msg, sizeof msg),
                     OSC_ERR_IO);
    assert_int_equal(osc_model_load_file("no-such-model.onnx", NULL, &m, msg, sizeof msg),
                     OSC_ERR_IO);
    assert_int_equal(osc_model_load_file("/", NULL, &m, msg, sizeof msg), OSC_ERR_IO);
    assert_non_null(strstr(msg, "directory"));
    osc_model_free(NULL);
    /* introspection on NULL and out of range */
    osc_value_desc vd;
    osc_node_desc nd;
    const char *s;
    int64_t v;
    int32_t mode;
    osc_options o;
    assert_int_equal(osc_model_ir_version(NULL), 0);
    assert_int_equal(osc_model_opset_count(NULL), 0);
    assert_int_equal(osc_model_input_count(NULL), 0);
    assert_int_equal(osc_model_output_count(NULL), 0);
    assert_int_equal(osc_model_node_count(NULL), 0);
    assert_int_equal(osc_model_arena_bytes(NULL), 0);
    assert_int_equal(osc_model_warning_count(NULL), 0);
    assert_null(osc_model_warning(NULL, 0));
    assert_int_equal(osc_model_opset(NULL, 0, &s, &v), OSC_ERR_ARG);
    assert_int_equal(osc_model_input(NULL, 0, &vd), OSC_ERR_ARG);
    assert_int_equal(osc_model_output(NULL, 0, &vd), OSC_ERR_ARG);
    assert_int_equal(osc_model_node(NULL, 0, &nd), OSC_ERR_ARG);
    assert_int_equal(osc_model_node_attr_int(NULL, 0, "axis", &v), OSC_ERR_ARG);
    assert_int_equal(osc_model_node_attr_str(NULL, 0, "reduction", &s), OSC_ERR_ARG);
    assert_int_equal(osc_model_node_inplace(NULL, 0, &mode), OSC_ERR_ARG);
    assert_int_equal(osc_model_options(NULL, &o), OSC_ERR_ARG);
    m = small_model();
    assert_int_equal(osc_model_ir_version(m), 8);
    assert_int_equal(osc_model_opset(m, 1, &s, &v), OSC_ERR_ARG);
    assert_int_equal(osc_model_opset(m, 0, NULL, NULL), OSC_OK);
    assert_int_equal(osc_model_input(m, 3, &vd), OSC_ERR_ARG);
    assert_int_equal(osc_model_input(m, 0, NULL), OSC_ERR_ARG);
    assert_int_equal(osc_model_output(m, 1, &vd), OSC_ERR_ARG);
    assert_int_equal(osc_model_output(m, 0, NULL), OSC_ERR_ARG);
    assert_int_equal(osc_model_node(m, 1, &nd), OSC_ERR_ARG);
    assert_int_equal(osc_model_node(m, 0, NULL), OSC_ERR_ARG);
    assert_int_equal(osc_model_node_attr_int(m, 1, "axis", &v), OSC_ERR_ARG);
    assert_int_equal(osc_model_node_attr_int(m, 0, NULL, &v), OSC_ERR_ARG);
    assert_int_equal(osc_model_node_attr_int(m, 0, "axis", &v), OSC_ERR_ARG); /* absent */
    assert_int_equal(osc_model_node_attr_str(m, 0, "reduction", NULL), OSC_ERR_ARG);
    assert_int_equal(osc_model_node_inplace(m, 1, &mode), OSC_ERR_ARG);
    assert_int_equal(osc_model_node_inplace(m, 0, NULL), OSC_ERR_ARG);
    assert_null(osc_model_warning(m, 0));
    osc_model_free(m);
}

static void session_calls(void **state) {
    (void)state;
    osc_session *s = (osc_session *)1;
    osc_tensor t;
    int32_t mode;
    assert_int_equal(osc_session_create(NULL, &s), OSC_ERR_ARG);
    assert_null(s);
    osc_model *m = small_model();
    assert_int_equal(osc_session_create(m, NULL), OSC_ERR_ARG);
    osc_session_free(NULL);
    assert_string_equal(osc_session_error(NULL), "no session");
    assert_int_equal(osc_session_arena_bytes(NULL), 0);
    assert_int_equal(osc_session_node_ns(NULL, 0), 0);
    assert_int_equal(osc_session_set_input(NULL, "data", &t), OSC_ERR_ARG);
    assert_int_equal(osc_session_set_input_at(NULL, 0, &t), OSC_ERR_ARG);
    assert_int_equal(osc_session_set_output_buffer(NULL, 0, NULL, 0), OSC_ERR_ARG);
    assert_int_equal(osc_session_run(NULL), OSC_ERR_ARG);
    assert_int_equal(osc_session_output(NULL, 0, &t), OSC_ERR_ARG);
    assert_int_equal(osc_session_output_mode(NULL, 0, &mode), OSC_ERR_ARG);
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    assert_int_equal(osc_session_node_ns(s, 0), 0); /* not profiling */
    assert_int_equal(osc_session_set_input(s, NULL, &t), OSC_ERR_ARG);
    assert_int_equal(osc_session_set_input(s, "data", NULL), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "NULL tensor"));
    assert_int_equal(osc_session_set_input_at(s, 9, &t), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "out of range"));
    /* inconsistent tensors: dtype, rank, negative dim, nbytes, NULL data, wrong declaration */
    float x[4] = {0};
    osc_tensor good = {.dtype = OSC_FLOAT, .rank = 1, .dims = {4}, .data = x, .nbytes = 16};
    t = good, t.dtype = 99;
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_ARG);
    t = good, t.rank = -1;
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_ARG);
    t = good, t.dims[0] = -4;
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_ARG);
    t = good, t.nbytes = 15;
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_ARG);
    t = good, t.data = NULL;
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "data is NULL"));
    t = good, t.dtype = OSC_INT32;
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_SHAPE);
    t = good, t.dims[0] = 2, t.nbytes = 8;
    assert_int_equal(osc_session_set_input(s, "data", &t), OSC_ERR_SHAPE);
    /* a string element with bytes but no pointer (the model takes strings of any shape) */
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "s", OSC_STRING, -1, NULL, NULL);
    osc_mw_node(mw, "Identity", "i", 1, (const char *[]){"s"}, 1, (const char *[]){"y"});
    osc_mw_output(mw, "y", OSC_STRING, -1, NULL, NULL);
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    osc_model *ms;
    char msg[OSC_MESSAGE_SIZE];
    assert_int_equal(osc_model_load_buffer(buf, len, NULL, NULL, &ms, msg, sizeof msg), OSC_OK);
    free(buf);
    osc_session *ss;
    assert_int_equal(osc_session_create(ms, &ss), OSC_OK);
    osc_string strs[2] = {{"ab", 2}, {NULL, 3}};
    osc_tensor st = {.dtype = OSC_STRING, .rank = 1, .dims = {2}, .data = strs,
                     .nbytes = sizeof strs};
    assert_int_equal(osc_session_set_input(ss, "s", &st), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(ss), "NULL pointer"));
    osc_session_free(ss);
    osc_model_free(ms);
    /* outputs before any run, a bad index, a NULL mode pointer */
    assert_int_equal(osc_session_output(s, 0, &t), OSC_ERR_STATE);
    assert_int_equal(osc_session_output(s, 5, &t), OSC_ERR_ARG);
    assert_int_equal(osc_session_output(s, 0, NULL), OSC_ERR_ARG);
    assert_int_equal(osc_session_output_mode(s, 0, NULL), OSC_ERR_ARG);
    assert_int_equal(osc_session_output_mode(s, 0, &mode), OSC_ERR_STATE);
    assert_int_equal(osc_session_set_output_buffer(s, 3, x, 16), OSC_ERR_ARG);
    assert_int_equal(osc_session_set_output_buffer(s, 0, NULL, 16), OSC_ERR_ARG);
    /* a run with an input unbound */
    assert_int_equal(osc_session_run(s), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "is not bound"));
    osc_session_free(s);
    osc_model_free(m);
}

static void tensor_calls(void **state) {
    (void)state;
    osc_tensor t;
    char msg[OSC_MESSAGE_SIZE], name[8];
    void *buf = (void *)1;
    size_t len = 1;
    assert_int_equal(osc_tensor_decode_pb(NULL, 3, &t, name, sizeof name, msg, sizeof msg),
                     OSC_ERR_ARG);
    assert_non_null(strstr(msg, "buf is NULL"));
    assert_int_equal(osc_tensor_decode_pb("", 0, NULL, NULL, 0, msg, sizeof msg), OSC_ERR_ARG);
    assert_non_null(strstr(msg, "out is NULL"));
    /* empty bytes: a TensorProto with no fields, whose data_type 0 is refused */
    assert_int_equal(osc_tensor_decode_pb("", 0, &t, NULL, 0, msg, sizeof msg), OSC_ERR_MODEL);
    /* packed dims ending inside a varint: the depth walk only checks the length, protobuf-c
     * refuses the contents */
    assert_int_equal(osc_tensor_decode_pb("\x0a\x01\x80", 3, &t, NULL, 0, msg, sizeof msg),
                     OSC_ERR_PARSE);
    assert_non_null(strstr(msg, "not a valid TensorProto"));
    assert_int_equal(osc_tensor_encode_pb(NULL, "n", &buf, &len, msg, sizeof msg), OSC_ERR_ARG);
    assert_null(buf);
    assert_int_equal(len, 0);
    float x[2] = {1, 2};
    osc_tensor good = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = x, .nbytes = 8};
    assert_int_equal(osc_tensor_encode_pb(&good, "n", NULL, &len, msg, sizeof msg), OSC_ERR_ARG);
    assert_int_equal(osc_tensor_encode_pb(&good, "n", &buf, NULL, msg, sizeof msg), OSC_ERR_ARG);
    t = good, t.rank = 40;
    assert_int_equal(osc_tensor_encode_pb(&t, "n", &buf, &len, msg, sizeof msg), OSC_ERR_ARG);
    t = good, t.dims[0] = (int64_t)1 << 62;
    assert_int_equal(osc_tensor_encode_pb(&t, "n", &buf, &len, msg, sizeof msg), OSC_ERR_ARG);
    osc_string strs[2] = {{"ab", 2}, {NULL, 3}};
    osc_tensor st = {.dtype = OSC_STRING, .rank = 1, .dims = {2}, .data = strs,
                     .nbytes = sizeof strs};
    assert_int_equal(osc_tensor_encode_pb(&st, NULL, &buf, &len, msg, sizeof msg), OSC_ERR_ARG);
    assert_non_null(strstr(msg, "NULL bytes"));
    /* an unnamed tensor round-trips with an empty name */
    assert_int_equal(osc_tensor_encode_pb(&good, "", &buf, &len, msg, sizeof msg), OSC_OK);
    assert_int_equal(osc_tensor_decode_pb(buf, len, &t, name, sizeof name, msg, sizeof msg),
                     OSC_OK);
    assert_string_equal(name, "");
    free(buf);
    osc_tensor_free_data(&t);
    assert_null(t.data);
    osc_tensor_free_data(NULL);
    /* small helpers */
    assert_string_equal(osc_status_name((osc_status)99), "unknown status");
    assert_string_equal(osc_dtype_name(99), "undefined");
    assert_int_equal(osc_dtype_bits(-1), 0);
    osc_tensor big = {.dtype = OSC_FLOAT, .rank = 40};
    assert_int_equal(osc_tensor_count(&big), -1);
}

static void writer_calls(void **state) {
    (void)state;
    const int64_t d[1] = {2};
    assert_string_equal(osc_mw_error(NULL), "osc_mw: NULL writer");
    osc_mw_free(NULL);
    assert_int_equal(osc_mw_names(NULL, "p", "g"), OSC_ERR_ARG);
    assert_int_equal(osc_mw_opset(NULL, "", 18), OSC_ERR_ARG);
    assert_int_equal(osc_mw_input(NULL, "x", OSC_FLOAT, 1, d, NULL), OSC_ERR_ARG);
    assert_int_equal(osc_mw_initializer(NULL, "x", NULL), OSC_ERR_ARG);
    assert_int_equal(osc_mw_node(NULL, "Neg", NULL, 0, NULL, 0, NULL), -1);
    assert_int_equal(osc_mw_node_domain(NULL, 0, "d"), OSC_ERR_ARG);
    assert_int_equal(osc_mw_attr_int(NULL, 0, "a", 1), OSC_ERR_ARG);
    assert_int_equal(osc_mw_serialize(NULL, NULL, NULL), OSC_ERR_ARG);
    /* each bad argument makes the writer's sticky error, which later calls return */
    struct {
        int what;
        const char *needle;
    } bad[] = {{0, "name is NULL"},         {1, "dtype"},          {2, "rank"},
               {3, "tensor is NULL"},       {4, "initializer name"}, {5, "NULL op_type"},
               {6, "node 7"},               {7, "attribute name"},   {8, "buf or len"},
               {9, "nbytes is 7"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        osc_mw *mw = osc_mw_new(8);
        osc_status st = OSC_OK;
        float x[2] = {0};
        osc_tensor t = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = x, .nbytes = 8};
        void *buf;
        size_t len;
        switch (bad[i].what) {
        case 0: st = osc_mw_output(mw, NULL, OSC_FLOAT, 1, d, NULL); break;
        case 1: st = osc_mw_value_info(mw, "v", 99, 1, d, NULL); break;
        case 2: st = osc_mw_input(mw, "x", OSC_FLOAT, 40, d, NULL); break;
        case 3: st = osc_mw_initializer(mw, "w", NULL); break;
        case 4: st = osc_mw_initializer(mw, NULL, &t); break;
        case 5: st = osc_mw_node(mw, NULL, "n", 0, NULL, 0, NULL) < 0 ? OSC_ERR_ARG : OSC_OK; break;
        case 6: st = osc_mw_attr_float(mw, 7, "f", 1.0f); break;
        case 7:
            osc_mw_node(mw, "Neg", NULL, 0, NULL, 0, NULL);
            st = osc_mw_attr_ints(mw, 0, NULL, NULL, 0);
            break;
        case 8: st = osc_mw_serialize(mw, NULL, &len); break;
        case 9:
            t.nbytes = 7;
            osc_mw_node(mw, "Constant", NULL, 0, NULL, 0, NULL);
            st = osc_mw_attr_tensor(mw, 0, "value", &t);
            break;
        }
        assert_int_not_equal(st, OSC_OK);
        if (!strstr(osc_mw_error(mw), bad[i].needle))
            fail_msg("case %zu: '%s' lacks '%s'", i, osc_mw_error(mw), bad[i].needle);
        assert_int_equal(osc_mw_serialize(mw, &buf, &len), st); /* sticky */
        assert_int_equal(osc_mw_names(mw, "p", "g"), st);
        assert_int_equal(osc_mw_node(mw, "Neg", NULL, 0, NULL, 0, NULL), -1);
        assert_int_equal(osc_mw_node_domain(mw, 0, "d"), st);
        osc_mw_free(mw);
    }
    /* every attribute kind, a domain, names, value_info: the model loads and says so */
    osc_mw *mw = osc_mw_new(9);
    osc_mw_names(mw, "producer", "graph");
    osc_mw_opset(mw, "ai.onnx", 18);
    osc_mw_opset(mw, "com.example", 1);
    osc_mw_input(mw, "x", 0, -1, NULL, NULL);
    int n = osc_mw_node(mw, "Custom", NULL, 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    osc_mw_node_domain(mw, n, "com.example");
    float fs[2] = {1, 2};
    int64_t is[2] = {3, 4};
    osc_mw_attr_floats(mw, n, "fs", fs, 2);
    osc_mw_attr_ints(mw, n, "is", is, 2);
    osc_mw_attr_bytes(mw, n, "b", "a\0b", 3);
    osc_mw_value_info(mw, "y", OSC_FLOAT, 1, (const int64_t[]){-1}, (const char *[]){"N"});
    osc_mw_output(mw, "y", 0, -1, NULL, NULL);
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    osc_model *m;
    char msg[OSC_MESSAGE_SIZE];
    assert_int_equal(osc_model_load_buffer(buf, len, NULL, NULL, &m, msg, sizeof msg),
                     OSC_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, "unsupported op Custom-1"));
    assert_non_null(strstr(msg, "com.example"));
    free(buf);
}

/* Internal entry points refuse NULL and out-of-range arguments too. */
static void internal_calls(void **state) {
    (void)state;
    osc_err err = {0};
    osc_allocator a;
    osc_allocator_init(&a, NULL);
    osc_pool pool;
    osc_pool_init(&pool, &a, 0);
    osc_graph g;
    assert_int_equal(osc_loader_parse_model(NULL, 4, NULL, &pool, &g, &err), OSC_ERR_ARG);
    assert_int_equal(osc_loader_parse_model("x", 1, NULL, NULL, &g, NULL), OSC_ERR_ARG);
    assert_int_equal(osc_loader_parse_model_src(NULL, NULL, NULL, &pool, &g, NULL), OSC_ERR_ARG);
    /* the first failure's message is kept: the root cause wins */
    assert_int_equal(osc_fail(&err, OSC_ERR_INDEX, "second"), OSC_ERR_ARG);
    assert_null(strstr(err.msg, "second"));
    /* an unlimited allocator has no cap */
    osc_options o;
    osc_options_init(&o);
    o.max_bytes = OSC_NO_LIMIT;
    osc_allocator_init(&a, &o);
    assert_int_equal(a.cap, 0);
    /* the default allocator keeps the contents when a block moves between malloc (small) and
     * a mapping of its own (256 KiB and more), both ways, and its accounting returns to 0 */
    const size_t big = (size_t)3 << 20;
    unsigned char *p = osc_malloc(&a, 16);
    assert_non_null(p);
    memset(p, 0xab, 16);
    p = osc_realloc(&a, p, 16, big);
    assert_non_null(p);
    for (int i = 0; i < 16; i++) assert_int_equal(p[i], 0xab);
    p[big - 1] = 0xcd;
    p = osc_realloc(&a, p, big, big + 4096);
    assert_non_null(p);
    assert_int_equal(p[0], 0xab);
    assert_int_equal(p[big - 1], 0xcd);
    p = osc_realloc(&a, p, big + 4096, 8);
    assert_non_null(p);
    for (int i = 0; i < 8; i++) assert_int_equal(p[i], 0xab);
    osc_free(&a, p, 8);
    assert_int_equal(a.used, 0);
    /* reductions outside the enum, for every dtype */
    for (int32_t d = 0; d < OSC_DTYPE_COUNT; d++) {
        assert_false(osc_reduction_defined(d, -1));
        assert_false(osc_reduction_defined(d, OSC_RED_COUNT));
    }
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(model_calls),
    cmocka_unit_test(session_calls),
    cmocka_unit_test(tensor_calls),
    cmocka_unit_test(writer_calls),
    cmocka_unit_test(internal_calls),
)
