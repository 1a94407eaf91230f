/* test_size32.c: tensors and arenas larger than size_t can hold (a 32-bit machine: armhf, under
 * tools/run-tests.sh cross) are refused with OSC_ERR_LIMIT, never wrapped; on a 64-bit machine
 * the same inputs take the checks they reach there. Each case claims 8 GiB or more. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader_util.h"
#include "unit/test_embed_models.h"
#include "tests/support/mw_check.h"

#define SIZE_T_32 (SIZE_MAX <= UINT32_MAX)

static void expect(osc_status st, osc_status want, const char *msg, const char *need) {
    if (st != want) fail_msg("status %d, expected %d: %s", (int)st, (int)want, msg);
    if (need && !strstr(msg, need)) fail_msg("'%s' not in: %s", need, msg);
}

/* A float initializer of dims [2^30, 2] (8 GiB) with 8 bytes of raw_data. */
static void test_initializer_over_4gib(void **state) {
    (void)state;
    int64_t dims[2] = {(int64_t)1 << 30, 2};
    uint8_t raw[8] = {0};
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_FLOAT, tp.n_dims = 2, tp.dims = dims;
    tp.has_raw_data = 1, tp.raw_data.len = sizeof raw, tp.raw_data.data = raw;
    osc_tensor t;
    char msg[OSC_MSG_SIZE];
    osc_status st = lu_decode(&tp, &t, msg, sizeof msg);
    if (SIZE_T_32) {
        expect(st, OSC_ERR_LIMIT, msg, "8589934592 bytes");
        assert_non_null(strstr(msg, "size_t"));
    } else {
        expect(st, OSC_ERR_MODEL, msg, "raw_data has 8 bytes; expected 8589934592");
    }
    assert_null(t.data);

    lu_model m;
    const osc_tensor *it;
    st = lu_decode_init(&m, &tp, &it);
    expect(st, SIZE_T_32 ? OSC_ERR_LIMIT : OSC_ERR_MODEL, m.err.msg, "initializer 'w'");
    lu_model_free(&m);
}

/* x float[2^31] (8 GiB) -> ScatterElements -> t -> GatherElements(t, i) -> y float[1]:
 * inference at load finds an intermediate of 8 GiB, which must live in the arena. 32-bit: it
 * cannot be addressed; 64-bit: it exceeds the byte cap given. */
static void test_arena_over_4gib(void **state) {
    (void)state;
    const int64_t xd[1] = {(int64_t)1 << 31}, id[1] = {1};
    osc_mw *mw = osc_mw_graph(18, 3, (const osc_mw_value[3]){{"x", OSC_FLOAT, 1, xd, NULL},
                                                            {"i", OSC_INT64, 1, id, NULL},
                                                            {"u", OSC_FLOAT, 1, id, NULL}});
    const char *in[3] = {"x", "i", "u"}, *out[1] = {"t"}, *gin[2] = {"t", "i"}, *gout[1] = {"y"};
    osc_mw_node(mw, "ScatterElements", "big", 3, in, 1, out);
    osc_mw_node(mw, "GatherElements", "g", 2, gin, 1, gout);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, id, NULL);
    size_t len;
    void *buf = osc_check_serialize(mw, &len);
    osc_options opts;
    osc_options_init(&opts);
    opts.max_bytes = (uint64_t)1 << 30;
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    osc_status st = osc_model_load_buffer(buf, len, NULL, &opts, &m, msg, sizeof msg);
    free(buf);
    expect(st, OSC_ERR_LIMIT, msg, SIZE_T_32 ? "too many elements to address" : "arena");
    assert_null(m);
}

/* A graph input of symbolic length bound with a view claiming 2^31 floats. */
static void test_binding_over_4gib(void **state) {
    (void)state;
    const char *sym[1] = {"N"};
    const int64_t nd[1] = {-1}, id[1] = {1};
    osc_mw *mw = osc_mw_graph(18, 3, (const osc_mw_value[3]){{"x", OSC_FLOAT, 1, nd, sym},
                                                            {"i", OSC_INT64, 1, id, NULL},
                                                            {"u", OSC_FLOAT, 1, id, NULL}});
    const char *in[3] = {"x", "i", "u"}, *out[1] = {"y"};
    osc_mw_node(mw, "ScatterElements", "s", 3, in, 1, out);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, nd, sym);
    size_t len;
    void *buf = osc_check_serialize(mw, &len);
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    osc_status st = osc_model_load_buffer(buf, len, NULL, NULL, &m, msg, sizeof msg);
    free(buf);
    expect(st, OSC_OK, msg, NULL);
    osc_session *s = NULL;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float one = 0;
    const long long dims[1] = {1LL << 31};
    osc_tensor x = emb_view(OSC_FLOAT, 1, dims, &one, sizeof one);
    st = osc_session_set_input(s, "x", &x);
    if (SIZE_T_32)
        expect(st, OSC_ERR_LIMIT, osc_session_error(s), "8589934592 bytes");
    else
        expect(st, OSC_ERR_ARG, osc_session_error(s), "needs 8589934592");
    osc_session_free(s);
    osc_model_free(m);
}

int main(void) {
    printf("size_t: %zu bits\n", 8 * sizeof(size_t));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initializer_over_4gib),
        cmocka_unit_test(test_arena_over_4gib),
        cmocka_unit_test(test_binding_over_4gib),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
