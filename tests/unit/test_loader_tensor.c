/* test_loader_tensor.c: TensorProto decoding (every encoding, every dtype) and encoding. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader_util.h"
#include "tests/support/check.h"

enum { F_FLOAT, F_DOUBLE, F_INT32, F_INT64, F_UINT64 };

/* One typed-field encoding: dims {dim0}, field values, and the bytes they must decode to
 * (little-endian, written out by hand from the onnx.proto rules). */
typedef struct enc_case {
    int32_t dtype;
    int field;
    int64_t dim0;
    size_t n;
    double f[4];
    int64_t i[4];
    uint64_t u[4];
    size_t nb;
    uint8_t bytes[24];
} enc_case;

static const enc_case k_cases[] = {
    {OSC_FLOAT, F_FLOAT, 2, 2, {1.0, -2.5}, {0}, {0}, 8, {0, 0, 0x80, 0x3f, 0, 0, 0x20, 0xc0}},
    {OSC_COMPLEX64, F_FLOAT, 1, 2, {1.0, -2.5}, {0}, {0}, 8,
     {0, 0, 0x80, 0x3f, 0, 0, 0x20, 0xc0}},
    {OSC_DOUBLE, F_DOUBLE, 1, 1, {-2.5}, {0}, {0}, 8, {0, 0, 0, 0, 0, 0, 0x04, 0xc0}},
    {OSC_COMPLEX128, F_DOUBLE, 1, 2, {1.0, -2.5}, {0}, {0}, 16,
     {0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0x04, 0xc0}},
    {OSC_INT32, F_INT32, 2, 2, {0}, {-2, 0x01020304}, {0}, 8,
     {0xfe, 0xff, 0xff, 0xff, 4, 3, 2, 1}},
    {OSC_INT16, F_INT32, 2, 2, {0}, {-2, 0x0102}, {0}, 4, {0xfe, 0xff, 2, 1}},
    {OSC_INT8, F_INT32, 2, 2, {0}, {-128, 127}, {0}, 2, {0x80, 0x7f}},
    {OSC_UINT16, F_INT32, 2, 2, {0}, {65535, 0x0102}, {0}, 4, {0xff, 0xff, 2, 1}},
    {OSC_UINT8, F_INT32, 2, 2, {0}, {0, 255}, {0}, 2, {0, 0xff}},
    {OSC_BOOL, F_INT32, 3, 3, {0}, {1, 0, 1}, {0}, 3, {1, 0, 1}},
    {OSC_FLOAT16, F_INT32, 2, 2, {0}, {0x3c00, 0xc000}, {0}, 4, {0, 0x3c, 0, 0xc0}},
    /* a sign-extended bit pattern (0xc000 as int16) is the same half */
    {OSC_FLOAT16, F_INT32, 1, 1, {0}, {-16384}, {0}, 2, {0, 0xc0}},
    {OSC_BFLOAT16, F_INT32, 2, 2, {0}, {0x3f80, 0xc020}, {0}, 4, {0x80, 0x3f, 0x20, 0xc0}},
    {OSC_FLOAT8E4M3FN, F_INT32, 2, 2, {0}, {0x7e, 0x81}, {0}, 2, {0x7e, 0x81}},
    {OSC_FLOAT8E4M3FNUZ, F_INT32, 2, 2, {0}, {0x7e, 0x81}, {0}, 2, {0x7e, 0x81}},
    {OSC_FLOAT8E5M2, F_INT32, 2, 2, {0}, {0x7e, 0x81}, {0}, 2, {0x7e, 0x81}},
    {OSC_FLOAT8E5M2FNUZ, F_INT32, 2, 2, {0}, {0x7e, 0x81}, {0}, 2, {0x7e, 0x81}},
    {OSC_FLOAT8E8M0, F_INT32, 2, 2, {0}, {0x7f, 0xff}, {0}, 2, {0x7f, 0xff}},
    /* 4-bit: one packed byte per int32 value, first element in the low nibble */
    {OSC_UINT4, F_INT32, 3, 2, {0}, {0x21, 0x03}, {0}, 2, {0x21, 0x03}},
    {OSC_INT4, F_INT32, 3, 2, {0}, {0xf8, 0x07}, {0}, 2, {0xf8, 0x07}},
    {OSC_FLOAT4E2M1, F_INT32, 2, 1, {0}, {0x3a}, {0}, 1, {0x3a}},
    /* 2-bit: four elements per byte */
    {OSC_UINT2, F_INT32, 5, 2, {0}, {0xe4, 0x01}, {0}, 2, {0xe4, 0x01}},
    {OSC_INT2, F_INT32, 4, 1, {0}, {0x1b}, {0}, 1, {0x1b}},
    {OSC_INT64, F_INT64, 2, 2, {0}, {-1, 0x0102030405060708}, {0}, 16,
     {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 8, 7, 6, 5, 4, 3, 2, 1}},
    {OSC_UINT32, F_UINT64, 2, 2, {0}, {0}, {0xffffffffu, 0x01020304}, 8,
     {0xff, 0xff, 0xff, 0xff, 4, 3, 2, 1}},
    {OSC_UINT64, F_UINT64, 2, 2, {0}, {0}, {UINT64_MAX, 1}, 16,
     {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 0, 0, 0, 0}},
};

/* Builds the TensorProto of a case; arrays live in *store. */
typedef struct enc_store {
    int64_t dims[1];
    float f32[4];
    double f64[4];
    int32_t i32[4];
    int64_t i64[4];
    uint64_t u64[4];
} enc_store;

static void build_case(const enc_case *c, enc_store *s, Onnx__TensorProto *tp) {
    onnx__tensor_proto__init(tp);
    s->dims[0] = c->dim0;
    tp->n_dims = 1;
    tp->dims = s->dims;
    tp->has_data_type = 1;
    tp->data_type = c->dtype;
    tp->name = "t";
    for (size_t k = 0; k < c->n; k++) {
        s->f32[k] = (float)c->f[k];
        s->f64[k] = c->f[k];
        s->i32[k] = (int32_t)c->i[k];
        s->i64[k] = c->i[k];
        s->u64[k] = c->u[k];
    }
    switch (c->field) {
    case F_FLOAT: tp->n_float_data = c->n, tp->float_data = s->f32; break;
    case F_DOUBLE: tp->n_double_data = c->n, tp->double_data = s->f64; break;
    case F_INT32: tp->n_int32_data = c->n, tp->int32_data = s->i32; break;
    case F_INT64: tp->n_int64_data = c->n, tp->int64_data = s->i64; break;
    default: tp->n_uint64_data = c->n, tp->uint64_data = s->u64; break;
    }
}

/* The case's bytes are little-endian: in memory each scalar is in the machine's order. */
static void check_bytes(const osc_tensor *t, const enc_case *c) {
    assert_int_equal(t->dtype, c->dtype);
    assert_int_equal(t->rank, 1);
    assert_int_equal(t->dims[0], c->dim0);
    assert_int_equal(t->nbytes, c->nb);
    uint8_t want[sizeof c->bytes];
    memcpy(want, c->bytes, c->nb);
    osc_le_swap(c->dtype, want, c->nb);
    assert_memory_equal(t->data, want, c->nb);
}

/* Every typed field decodes to the documented bytes, through the public call and as a model
 * initializer (pool path). */
static void test_typed_fields(void **state) {
    (void)state;
    for (size_t k = 0; k < sizeof k_cases / sizeof k_cases[0]; k++) {
        const enc_case *c = &k_cases[k];
        enc_store s;
        Onnx__TensorProto tp;
        build_case(c, &s, &tp);
        osc_tensor t;
        char msg[OSC_MSG_SIZE];
        osc_status st = lu_decode(&tp, &t, msg, sizeof msg);
        if (st) fail_msg("case %zu (%s): %s", k, osc_dtype_name(c->dtype), msg);
        check_bytes(&t, c);
        osc_tensor_free_data(&t);
        assert_null(t.data);

        lu_model m;
        const osc_tensor *it;
        st = lu_decode_init(&m, &tp, &it);
        if (st)
            fail_msg("case %zu (%s) as initializer: %s", k, osc_dtype_name(c->dtype), m.err.msg);
        check_bytes(it, c);
        lu_model_free(&m);
    }
}

/* raw_data for every non-string dtype: the bytes are kept as they are (3 elements), each scalar
 * in the machine's order (swapped on a big-endian one). */
static void test_raw_every_dtype(void **state) {
    (void)state;
    for (int32_t dt = 1; dt < OSC_DTYPE_COUNT; dt++) {
        if (dt == OSC_STRING) continue;
        size_t bits = osc_dtype_bits(dt), nb = (3 * bits + 7) / 8;
        uint8_t raw[48];
        for (size_t i = 0; i < nb; i++)
            raw[i] = dt == OSC_BOOL ? (uint8_t)(i & 1) : (uint8_t)(i * 37 + 1);
        int64_t dims[2] = {3, 1};
        Onnx__TensorProto tp;
        onnx__tensor_proto__init(&tp);
        tp.n_dims = 2, tp.dims = dims, tp.has_data_type = 1, tp.data_type = dt;
        tp.has_raw_data = 1, tp.raw_data.len = nb, tp.raw_data.data = raw;
        tp.name = "t";
        osc_tensor t;
        char msg[OSC_MSG_SIZE];
        if (lu_decode(&tp, &t, msg, sizeof msg)) fail_msg("%s: %s", osc_dtype_name(dt), msg);
        assert_int_equal(t.dtype, dt);
        assert_int_equal(t.rank, 2);
        assert_int_equal(t.dims[0], 3);
        assert_int_equal(t.dims[1], 1);
        uint8_t want[48];
        memcpy(want, raw, nb);
        osc_le_swap(dt, want, nb);
        assert_int_equal(t.nbytes, nb);
        assert_memory_equal(t.data, want, nb);
        /* and the encoder writes the little-endian bytes back */
        void *buf;
        size_t len;
        if (osc_tensor_encode_pb(&t, "t", &buf, &len, msg, sizeof msg))
            fail_msg("%s: %s", osc_dtype_name(dt), msg);
        const uint8_t *at = memmem(buf, len, raw, nb);
        if (nb > 1 && !at) fail_msg("%s: the encoded raw_data is not little-endian", osc_dtype_name(dt));
        free(buf);
        osc_tensor_free_data(&t);

        lu_model m;
        const osc_tensor *it;
        if (lu_decode_init(&m, &tp, &it)) fail_msg("%s: %s", osc_dtype_name(dt), m.err.msg);
        assert_int_equal(it->nbytes, nb);
        assert_memory_equal(it->data, want, nb);
        lu_model_free(&m);
    }
}

/* Raw bytes written by hand (not by protobuf-c): dims [2], float, name "x", raw 1.0f, 2.0f. */
static void test_raw_hand_bytes(void **state) {
    (void)state;
    static const uint8_t pb[] = {0x08, 0x02, 0x10, 0x01, 0x42, 0x01, 'x', 0x4a, 0x08,
                                 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40};
    osc_tensor t;
    char name[8], msg[OSC_MSG_SIZE];
    osc_status st = osc_tensor_decode_pb(pb, sizeof pb, &t, name, sizeof name, msg, sizeof msg);
    lu_expect(st, OSC_OK, msg, "");
    assert_string_equal(name, "x");
    float want[2] = {1.0f, 2.0f};
    assert_int_equal(t.nbytes, 8);
    assert_memory_equal(t.data, want, 8);
    osc_tensor_free_data(&t);

    /* and the encoder writes exactly those bytes (fields in number order) */
    osc_tensor v = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = want, .nbytes = 8};
    void *buf;
    size_t len;
    st = osc_tensor_encode_pb(&v, "x", &buf, &len, msg, sizeof msg);
    lu_expect(st, OSC_OK, msg, "");
    assert_int_equal(len, sizeof pb);
    assert_memory_equal(buf, pb, sizeof pb);
    free(buf);
}

static void test_strings(void **state) {
    (void)state;
    ProtobufCBinaryData sd[3] = {{2, (uint8_t *)"ab"}, {0, NULL}, {3, (uint8_t *)"x\0y"}};
    int64_t dims[1] = {3};
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.n_dims = 1, tp.dims = dims, tp.has_data_type = 1, tp.data_type = OSC_STRING;
    tp.n_string_data = 3, tp.string_data = sd, tp.name = "s";
    osc_tensor t;
    char msg[OSC_MSG_SIZE];
    lu_expect(lu_decode(&tp, &t, msg, sizeof msg), OSC_OK, msg, "");
    assert_int_equal(t.nbytes, 3 * sizeof(osc_string));
    const osc_string *s = t.data;
    assert_int_equal(s[0].len, 2);
    assert_memory_equal(s[0].ptr, "ab", 2);
    assert_int_equal(s[1].len, 0);
    assert_int_equal(s[2].len, 3);
    assert_memory_equal(s[2].ptr, "x\0y", 3);
    /* bytes live inside the one block: freeing data frees them (ASan checks the rest) */
    assert_true((const char *)s[0].ptr >= (const char *)t.data &&
                (const char *)s[2].ptr + 3 <= (const char *)t.data + 3 * sizeof(osc_string) + 5);
    osc_tensor_free_data(&t);

    lu_model m;
    const osc_tensor *it;
    lu_expect(lu_decode_init(&m, &tp, &it), OSC_OK, m.err.msg, "");
    s = it->data;
    assert_int_equal(s[2].len, 3);
    assert_memory_equal(s[2].ptr, "x\0y", 3);
    lu_model_free(&m);
}

/* Scalars (rank 0, one element) and empty tensors (a zero dim, no payload at all). */
static void test_scalar_and_empty(void **state) {
    (void)state;
    float v = 3.5f;
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.has_data_type = 1, tp.data_type = OSC_FLOAT, tp.n_float_data = 1, tp.float_data = &v;
    osc_tensor t;
    char msg[OSC_MSG_SIZE];
    lu_expect(lu_decode(&tp, &t, msg, sizeof msg), OSC_OK, msg, "");
    assert_int_equal(t.rank, 0);
    assert_int_equal(t.nbytes, 4);
    assert_memory_equal(t.data, &v, 4);
    osc_tensor_free_data(&t);

    int64_t dims[2] = {2, 0};
    for (int32_t dt = 1; dt < OSC_DTYPE_COUNT; dt++) {
        onnx__tensor_proto__init(&tp);
        tp.n_dims = 2, tp.dims = dims, tp.has_data_type = 1, tp.data_type = dt;
        lu_expect(lu_decode(&tp, &t, msg, sizeof msg), OSC_OK, msg, "");
        assert_int_equal(t.nbytes, 0);
        assert_int_equal(t.dims[1], 0);
        osc_tensor_free_data(&t);
    }
}

/* A 1 MiB raw initializer is decoded without a second copy: the peak of live bytes stays
 * well under twice the payload (on a big-endian machine one copy is made, byte-swapped). */
static void test_large_payload_single_copy(void **state) {
    (void)state;
    size_t n = (size_t)1 << 18, nb = n * 4;
    float *data = malloc(nb);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++) data[i] = (float)i;
    uint8_t *le = malloc(nb); /* raw_data: little-endian */
    assert_non_null(le);
    memcpy(le, data, nb);
    osc_le_swap(OSC_FLOAT, le, nb);
    int64_t dims[1] = {(int64_t)n};
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.n_dims = 1, tp.dims = dims, tp.has_data_type = 1, tp.data_type = OSC_FLOAT;
    tp.has_raw_data = 1, tp.raw_data.len = nb, tp.raw_data.data = le;
    tp.name = "big";
    lu_mp mp;
    lu_mp_init(&mp);
    Onnx__TensorProto *inits[1] = {&tp};
    mp.graph.n_initializer = 1, mp.graph.initializer = inits;
    size_t len;
    void *buf = lu_pack(&mp.model.base, &len);
    lu_track tr = {0, 0, 0, -1};
    osc_options o;
    osc_options_init(&o);
    o.alloc = lu_track_fn, o.alloc_ud = &tr;
    lu_model m;
    lu_expect(lu_parse_opts(&m, buf, len, NULL, &o), OSC_OK, m.err.msg, "");
    const osc_tensor *t = m.g.values[0].init;
    assert_int_equal(t->nbytes, nb);
    assert_memory_equal(t->data, data, nb);
    const size_t most = OSC_BIG_ENDIAN ? 2 * nb + nb / 2 : nb + nb / 2;
    if (tr.peak > most) fail_msg("peak %zu bytes for a %zu-byte payload", tr.peak, nb);
    lu_model_free(&m);
    assert_int_equal(tr.cur, 0);
    free(buf);
    free(data);
    free(le);
}

/* ---- validation ---- */

static osc_status dec(Onnx__TensorProto *tp, char *msg) {
    osc_tensor t;
    osc_status st = lu_decode(tp, &t, msg, OSC_MSG_SIZE);
    if (st == OSC_OK) osc_tensor_free_data(&t);
    else assert_null(t.data);
    return st;
}

static void test_bad_header(void **state) {
    (void)state;
    char msg[OSC_MSG_SIZE];
    Onnx__TensorProto tp;
    int32_t bad_dtypes[] = {0, 27, -1, 1000};
    for (size_t k = 0; k < 4; k++) {
        onnx__tensor_proto__init(&tp);
        tp.name = "w", tp.has_data_type = 1, tp.data_type = bad_dtypes[k];
        char num[16];
        snprintf(num, sizeof num, "dtype %d", (int)bad_dtypes[k]);
        lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "tensor 'w'", num, "1..26");
    }
    onnx__tensor_proto__init(&tp);
    tp.name = "w"; /* data_type absent */
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "unknown dtype 0");

    int64_t dims[40];
    for (int i = 0; i < 40; i++) dims[i] = 1;
    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_FLOAT, tp.n_dims = 33, tp.dims = dims;
    lu_expect(dec(&tp, msg), OSC_ERR_LIMIT, msg, "tensor 'w'", "rank 33", "32");

    dims[1] = -2;
    tp.n_dims = 3;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "tensor 'w'", "dim 1 is -2");

    int64_t huge[3] = {(int64_t)1 << 40, (int64_t)1 << 40, 1};
    tp.dims = huge;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "tensor 'w'", "overflows int64");
    huge[2] = 0; /* a zero dim: 0 elements, whatever the other dims */
    lu_expect(dec(&tp, msg), OSC_OK, msg, "");

    /* count fits int64 but bytes do not fit size_t */
    int64_t big[1] = {INT64_MAX / 2};
    tp.n_dims = 1, tp.dims = big;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "tensor 'w'", "overflow");

    Onnx__TensorProto__Segment seg;
    onnx__tensor_proto__segment__init(&seg);
    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_FLOAT, tp.segment = &seg;
    lu_expect(dec(&tp, msg), OSC_ERR_UNSUPPORTED, msg, "tensor 'w'", "segment");
}

static void test_bad_lengths(void **state) {
    (void)state;
    char msg[OSC_MSG_SIZE];
    uint8_t raw[8] = {0};
    int64_t d2[1] = {2}, d3[1] = {3};
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_FLOAT, tp.n_dims = 1, tp.dims = d2;
    tp.has_raw_data = 1, tp.raw_data.len = 7, tp.raw_data.data = raw;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "tensor 'w'", "raw_data has 7 bytes",
              "expected 8");
    tp.has_raw_data = 0; /* no payload at all for 2 elements */
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "raw_data has 0 bytes", "expected 8");

    tp.data_type = OSC_INT4, tp.dims = d3, tp.has_raw_data = 1, tp.raw_data.len = 1;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "raw_data has 1 bytes", "expected 2", "packed");

    int32_t i32[3] = {1, 2, 3};
    tp.has_raw_data = 0, tp.n_int32_data = 3, tp.int32_data = i32; /* int4 x3: 2 packed bytes */
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "int32_data has 3 values", "expected 2");

    float f[3] = {1, 2, 3};
    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_COMPLEX64, tp.n_dims = 1, tp.dims = d2;
    tp.n_float_data = 3, tp.float_data = f;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "float_data has 3 values", "expected 4", "re/im");

    ProtobufCBinaryData sd[1] = {{1, (uint8_t *)"a"}};
    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_STRING, tp.n_dims = 1, tp.dims = d2;
    tp.n_string_data = 1, tp.string_data = sd;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "string_data has 1 values", "expected 2");
}

static void test_bad_fields(void **state) {
    (void)state;
    char msg[OSC_MSG_SIZE];
    int64_t d1[1] = {1}, i64[1] = {5};
    float f[1] = {1};
    uint8_t raw[8] = {0};
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_FLOAT, tp.n_dims = 1, tp.dims = d1;
    tp.n_int64_data = 1, tp.int64_data = i64;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "tensor 'w'", "int64_data", "float_data");

    tp.n_float_data = 1, tp.float_data = f; /* two payload fields */
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "float_data and int64_data");

    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_STRING, tp.n_dims = 1, tp.dims = d1;
    tp.has_raw_data = 1, tp.raw_data.len = 8, tp.raw_data.data = raw;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "string_data, not raw_data");

    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_FLOAT, tp.n_dims = 1, tp.dims = d1;
    tp.has_raw_data = 1, tp.raw_data.len = 4, tp.raw_data.data = raw;
    tp.n_float_data = 1, tp.float_data = f;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "raw_data and float_data");
}

static void test_bad_values(void **state) {
    (void)state;
    char msg[OSC_MSG_SIZE];
    int64_t d2[1] = {2};
    Onnx__TensorProto tp;
    struct {
        int32_t dtype;
        int32_t v;
        const char *range;
    } cases[] = {
        {OSC_INT8, 300, "[-128, 127]"},       {OSC_INT8, -129, "[-128, 127]"},
        {OSC_UINT8, -1, "[0, 255]"},          {OSC_UINT8, 256, "[0, 255]"},
        {OSC_INT16, 40000, "[-32768, 32767]"}, {OSC_UINT16, 65536, "[0, 65535]"},
        {OSC_BOOL, 2, "[0, 1]"},              {OSC_FLOAT16, 65536, "[-32768, 65535]"},
        {OSC_FLOAT8E5M2, 256, "[-128, 255]"}, {OSC_UINT4, 300, "[-128, 255]"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int32_t vals[2] = {0, cases[k].v};
        onnx__tensor_proto__init(&tp);
        tp.name = "w", tp.has_data_type = 1, tp.data_type = cases[k].dtype;
        tp.n_dims = 1, tp.dims = d2;
        /* uint4 x2 is one packed byte */
        tp.n_int32_data = cases[k].dtype == OSC_UINT4 ? 1 : 2;
        tp.int32_data = cases[k].dtype == OSC_UINT4 ? vals + 1 : vals;
        char want[64];
        snprintf(want, sizeof want, "= %d is out of range", (int)cases[k].v);
        lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "tensor 'w'", want, cases[k].range,
                  osc_dtype_name(cases[k].dtype));
    }
    uint64_t u[2] = {1, (uint64_t)1 << 32};
    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_UINT32, tp.n_dims = 1, tp.dims = d2;
    tp.n_uint64_data = 2, tp.uint64_data = u;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "uint64_data[1] = 4294967296",
              "[0, 4294967295]");

    uint8_t raw[2] = {1, 2};
    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_BOOL, tp.n_dims = 1, tp.dims = d2;
    tp.has_raw_data = 1, tp.raw_data.len = 2, tp.raw_data.data = raw;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "raw_data element 1", "is 2", "0 or 1");
}

static void test_public_decode_errors(void **state) {
    (void)state;
    char msg[OSC_MSG_SIZE], name[4];
    osc_tensor t;
    static const uint8_t garbage[] = {0xff, 0xff, 0xff, 0xff, 0x0f};
    lu_expect(osc_tensor_decode_pb(garbage, sizeof garbage, &t, NULL, 0, msg, sizeof msg),
              OSC_ERR_PARSE, msg, "not a valid protobuf");
    assert_null(t.data);
    /* truncated: raw_data says 8 bytes, 2 follow */
    static const uint8_t trunc[] = {0x10, 0x01, 0x4a, 0x08, 0x00, 0x00};
    lu_expect(osc_tensor_decode_pb(trunc, sizeof trunc, &t, NULL, 0, msg, sizeof msg),
              OSC_ERR_PARSE, msg, "");
    lu_expect(osc_tensor_decode_pb(NULL, 3, &t, NULL, 0, msg, sizeof msg), OSC_ERR_ARG, msg,
              "NULL");
    /* external data has no folder to resolve against */
    Onnx__StringStringEntryProto kv;
    onnx__string_string_entry_proto__init(&kv);
    kv.key = "location", kv.value = "w.bin";
    Onnx__StringStringEntryProto *kvs[1] = {&kv};
    int64_t d1[1] = {1};
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.name = "ext", tp.has_data_type = 1, tp.data_type = OSC_FLOAT, tp.n_dims = 1, tp.dims = d1;
    tp.has_data_location = 1, tp.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    tp.n_external_data = 1, tp.external_data = kvs;
    lu_expect(dec(&tp, msg), OSC_ERR_MODEL, msg, "tensor 'ext'", "w.bin", "refused");
    /* the name is truncated to its buffer */
    float v = 1;
    onnx__tensor_proto__init(&tp);
    tp.name = "abcdef", tp.has_data_type = 1, tp.data_type = OSC_FLOAT;
    tp.n_float_data = 1, tp.float_data = &v;
    size_t len;
    void *buf = lu_pack(&tp.base, &len);
    lu_expect(osc_tensor_decode_pb(buf, len, &t, name, sizeof name, msg, sizeof msg), OSC_OK,
              msg, "");
    assert_string_equal(name, "abc");
    osc_tensor_free_data(&t);
    free(buf);
}

/* encode -> decode gives back dtype, shape and bytes for every dtype. */
static void test_encode_roundtrip(void **state) {
    (void)state;
    for (int32_t dt = 1; dt < OSC_DTYPE_COUNT; dt++) {
        osc_tensor t = {.dtype = dt, .rank = 2, .dims = {3, 3}};
        uint8_t bytes[9 * 16];
        osc_string strs[9];
        char chars[9] = "abcdefghi";
        size_t bits = osc_dtype_bits(dt);
        if (dt == OSC_STRING) {
            for (int i = 0; i < 9; i++) strs[i] = (osc_string){chars, (size_t)i}; /* "", "a", ... */
            t.data = strs;
            t.nbytes = sizeof strs;
        } else {
            t.nbytes = (9 * bits + 7) / 8;
            for (size_t i = 0; i < t.nbytes; i++)
                bytes[i] = dt == OSC_BOOL ? (uint8_t)(i % 2) : (uint8_t)(255 - i * 7);
            t.data = bytes;
        }
        void *buf;
        size_t len;
        char msg[OSC_MSG_SIZE], name[16];
        lu_expect(osc_tensor_encode_pb(&t, "rt", &buf, &len, msg, sizeof msg), OSC_OK, msg, "");
        osc_tensor u;
        lu_expect(osc_tensor_decode_pb(buf, len, &u, name, sizeof name, msg, sizeof msg), OSC_OK,
                  msg, "");
        free(buf);
        assert_string_equal(name, "rt");
        assert_int_equal(u.dtype, dt);
        assert_int_equal(u.rank, 2);
        assert_int_equal(u.dims[0], 3);
        assert_int_equal(u.dims[1], 3);
        assert_int_equal(u.nbytes, t.nbytes);
        if (dt == OSC_STRING) {
            const osc_string *s = u.data;
            for (int i = 0; i < 9; i++) {
                assert_int_equal(s[i].len, (size_t)i);
                assert_memory_equal(s[i].ptr, chars, (size_t)i);
            }
        } else {
            assert_memory_equal(u.data, bytes, t.nbytes);
        }
        osc_tensor_free_data(&u);
    }
}

static void test_encode_errors(void **state) {
    (void)state;
    char msg[OSC_MSG_SIZE];
    void *buf = (void *)1;
    size_t len = 1;
    float f[2] = {0};
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = f, .nbytes = 4};
    lu_expect(osc_tensor_encode_pb(&t, "x", &buf, &len, msg, sizeof msg), OSC_ERR_ARG, msg,
              "nbytes is 4", "expected 8");
    assert_null(buf);
    assert_int_equal(len, 0);
    t.nbytes = 8, t.dtype = 99;
    lu_expect(osc_tensor_encode_pb(&t, "x", &buf, &len, msg, sizeof msg), OSC_ERR_ARG, msg,
              "dtype 99");
    t.dtype = OSC_FLOAT, t.dims[0] = -1;
    lu_expect(osc_tensor_encode_pb(&t, "x", &buf, &len, msg, sizeof msg), OSC_ERR_ARG, msg,
              "dim 0 is -1");
    t.dims[0] = 2, t.rank = 33;
    lu_expect(osc_tensor_encode_pb(&t, "x", &buf, &len, msg, sizeof msg), OSC_ERR_ARG, msg,
              "rank 33");
    t.rank = 1, t.data = NULL;
    lu_expect(osc_tensor_encode_pb(&t, "x", &buf, &len, msg, sizeof msg), OSC_ERR_ARG, msg,
              "NULL");
    lu_expect(osc_tensor_encode_pb(NULL, "x", &buf, &len, msg, sizeof msg), OSC_ERR_ARG, msg,
              "NULL");
}

/* A NUL inside a string field (an external-data location "w.bin\0x") is refused before
 * protobuf-c would cut the string there. */
static void test_nul_in_string_refused(void **state) {
    (void)state;
    Onnx__StringStringEntryProto kv, *kvs[1] = {&kv};
    onnx__string_string_entry_proto__init(&kv);
    kv.key = "location";
    kv.value = "w.binXx";
    int64_t dims[1] = {1};
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.name = "ext", tp.has_data_type = 1, tp.data_type = OSC_FLOAT, tp.n_dims = 1, tp.dims = dims;
    tp.has_data_location = 1, tp.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    tp.n_external_data = 1, tp.external_data = kvs;
    size_t len = onnx__tensor_proto__get_packed_size(&tp);
    uint8_t *buf = malloc(len);
    assert_non_null(buf);
    onnx__tensor_proto__pack(&tp, buf);
    uint8_t *x = memmem(buf, len, "w.binX", 6);
    assert_non_null(x);
    x[5] = 0;
    osc_tensor t;
    char msg[OSC_MSG_SIZE];
    lu_expect(osc_tensor_decode_pb(buf, len, &t, NULL, 0, msg, sizeof msg), OSC_ERR_PARSE, msg,
              "string field 'value' holds a NUL byte at byte");
    free(buf);
}

/* The unpack allocator holds at most its budget at once: a block past it fails as over budget
 * (a limit, not out of memory), and freeing gives the room back. */
static void test_pb_alloc_budget(void **state) {
    (void)state;
    osc_allocator a;
    osc_allocator_init(&a, NULL);
    osc_pb_alloc pa;
    osc_pb_alloc_init(&pa, &a, NULL, 200); /* 16-byte header per block */
    void *p = pa.pc.alloc(&pa, 100);
    assert_non_null(p);
    assert_null(pa.pc.alloc(&pa, 85)); /* 116 + 101 > 200 */
    assert_true(pa.failed && pa.over_budget);
    assert_int_equal(pa.failed_status, OSC_ERR_LIMIT);
    void *q = pa.pc.alloc(&pa, 84); /* 116 + 100 > 200 still */
    assert_null(q);
    pa.pc.free(&pa, p);
    q = pa.pc.alloc(&pa, 184); /* exactly the budget once p is back */
    assert_non_null(q);
    pa.pc.free(&pa, q);
    assert_int_equal(pa.charged, 0);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_typed_fields),
    cmocka_unit_test(test_raw_every_dtype),
    cmocka_unit_test(test_raw_hand_bytes),
    cmocka_unit_test(test_strings),
    cmocka_unit_test(test_scalar_and_empty),
    cmocka_unit_test(test_large_payload_single_copy),
    cmocka_unit_test(test_bad_header),
    cmocka_unit_test(test_bad_lengths),
    cmocka_unit_test(test_bad_fields),
    cmocka_unit_test(test_bad_values),
    cmocka_unit_test(test_public_decode_errors),
    cmocka_unit_test(test_encode_roundtrip),
    cmocka_unit_test(test_encode_errors),
    cmocka_unit_test(test_pb_alloc_budget),
    cmocka_unit_test(test_nul_in_string_refused),
)
