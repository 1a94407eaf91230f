/* test_values.c: sequences and optionals through the public API: packing and reading values
 * (osc_value_pack, _count, _item), their refusals, a corrupted value (each field of its head
 * and entries alone, with core/pack.h's check for the message), SequenceProto and
 * OptionalProto files (and bytes written by hand: skipped fields, nesting, each malformed
 * form), and sessions binding and returning them: SequenceConstruct then ConcatFromSequence, a
 * position out of range, SequenceMap over two sequences and a tensor, an optional input bound
 * a tensor. Expected values are written by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/check.h"
#include "tests/support/wire.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"
#include "core/pack.h"

static const float k_a[2] = {1.0f, 2.0f}, k_b[3] = {3.0f, 4.0f, 5.0f};

static osc_tensor floats(const float *v, int32_t rank, int64_t d0, int64_t d1) {
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = rank, .data = (void *)v};
    t.dims[0] = d0, t.dims[1] = d1;
    t.nbytes = (size_t)(rank == 1 ? d0 : d0 * d1) * sizeof(float);
    return t;
}

/* Loads mw (freed) and opens a session on it. */
static osc_session *open_model(osc_mw *mw, osc_model **m) {
    void *buf;
    size_t len;
    char msg[512];
    osc_session *s;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    assert_int_equal(osc_model_load_buffer(buf, len, NULL, NULL, m, msg, sizeof msg), OSC_OK);
    free(buf);
    assert_int_equal(osc_session_create(*m, &s), OSC_OK);
    return s;
}

/* A sequence of a [2] and a [1,3] float tensor. */
static osc_tensor two_items(void) {
    osc_tensor items[2] = {floats(k_a, 1, 2, 0), floats(k_b, 2, 1, 3)}, v;
    char msg[256];
    assert_int_equal(osc_value_pack(OSC_SEQUENCE, 0, items, 2, &v, msg, sizeof msg), OSC_OK);
    return v;
}

static void pack_and_read(void **state) {
    (void)state;
    osc_tensor v = two_items(), it;
    size_t n = 0;
    int32_t elem = 0;
    assert_int_equal(v.dtype, OSC_SEQUENCE);
    assert_int_equal(v.rank, 1);
    assert_int_equal(v.dims[0], (int64_t)v.nbytes);
    assert_int_equal(osc_value_count(&v, &n, &elem), OSC_OK);
    assert_int_equal(n, 2);
    assert_int_equal(elem, OSC_FLOAT);
    assert_int_equal(osc_value_item(&v, 1, &it), OSC_OK);
    osc_check_shape(&it, OSC_FLOAT, 2, (const int64_t[]){1, 3});
    osc_check_bytes(&it, k_b, sizeof k_b);
    assert_int_equal(osc_value_item(&v, 2, &it), OSC_ERR_ARG);
    /* an optional holding the sequence, and an empty one */
    osc_tensor opt, empty, inner;
    char msg[256];
    assert_int_equal(osc_value_pack(OSC_OPTIONAL, 0, &v, 1, &opt, msg, sizeof msg), OSC_OK);
    assert_int_equal(osc_value_count(&opt, &n, &elem), OSC_OK);
    assert_int_equal(n, 1);
    assert_int_equal(elem, OSC_SEQUENCE);
    assert_int_equal(osc_value_item(&opt, 0, &inner), OSC_OK);
    assert_int_equal(osc_value_count(&inner, &n, NULL), OSC_OK);
    assert_int_equal(n, 2);
    assert_int_equal(osc_value_item(&inner, 0, &it), OSC_OK);
    osc_check_bytes(&it, k_a, sizeof k_a);
    assert_int_equal(osc_value_pack(OSC_OPTIONAL, OSC_INT64, NULL, 0, &empty, msg, sizeof msg),
                     OSC_OK);
    assert_int_equal(osc_value_count(&empty, &n, &elem), OSC_OK);
    assert_int_equal(n, 0);
    assert_int_equal(elem, OSC_INT64);
    osc_tensor_free_data(&empty);
    osc_tensor_free_data(&opt);
    osc_tensor_free_data(&v);
}

static void pack_refusals(void **state) {
    (void)state;
    int64_t i64[2] = {1, 2};
    osc_string s = {"x", 1};
    osc_tensor mixed[2] = {floats(k_a, 1, 2, 0), {.dtype = OSC_INT64, .rank = 1, .dims = {2},
                                                   .data = i64, .nbytes = sizeof i64}};
    osc_tensor str = {.dtype = OSC_STRING, .rank = 1, .dims = {1}, .data = &s,
                      .nbytes = sizeof s};
    osc_tensor v;
    char msg[256];
    assert_int_equal(osc_value_pack(OSC_SEQUENCE, 0, mixed, 2, &v, msg, sizeof msg),
                     OSC_ERR_ARG);
    assert_non_null(strstr(msg, "item 1 has dtype int64; the value's items are float"));
    assert_null(v.data);
    assert_int_equal(osc_value_pack(OSC_SEQUENCE, 0, &str, 1, &v, msg, sizeof msg),
                     OSC_ERR_ARG);
    assert_non_null(strstr(msg, "string items are not supported"));
    assert_int_equal(osc_value_pack(OSC_OPTIONAL, 0, mixed, 2, &v, msg, sizeof msg),
                     OSC_ERR_ARG);
    assert_non_null(strstr(msg, "0 or 1 item"));
    assert_int_equal(osc_value_pack(OSC_FLOAT, 0, mixed, 1, &v, msg, sizeof msg), OSC_ERR_ARG);
    assert_non_null(strstr(msg, "neither OSC_SEQUENCE"));
}

/* A value whose bytes were changed is refused by osc_value_count and at binding. */
static void corrupted_value_refused(void **state) {
    (void)state;
    osc_tensor v = two_items();
    size_t n;
    unsigned char *b = v.data;
    b[0] ^= 0xff; /* the head's magic */
    assert_int_equal(osc_value_count(&v, &n, NULL), OSC_ERR_ARG);
    b[0] ^= 0xff;
    assert_int_equal(osc_value_count(&v, &n, NULL), OSC_OK);
    /* item 1's offset (after the 32-byte head and item 0's entry) past the end */
    uint64_t off;
    size_t at = 32 + 280 + 8 + 8 * OSC_MAX_RANK;
    memcpy(&off, b + at, sizeof off);
    uint64_t bad = v.nbytes;
    memcpy(b + at, &bad, sizeof bad);
    assert_int_equal(osc_value_count(&v, &n, NULL), OSC_ERR_ARG);

    osc_mw *mw = osc_mw_graph(18, 1, (const osc_mw_value[]){{"s", OSC_SEQUENCE, -1, NULL, NULL}});
    osc_mw_node(mw, "SequenceLength", "len", 1, (const char *[]){"s"}, 1,
                (const char *[]){"n"});
    osc_mw_output(mw, "n", OSC_INT64, 0, NULL, NULL);
    osc_model *m;
    osc_session *s = open_model(mw, &m);
    assert_int_equal(osc_session_set_input(s, "s", &v), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "input 's': item 1 is malformed"));
    memcpy(b + at, &off, sizeof off);
    assert_int_equal(osc_session_set_input(s, "s", &v), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_tensor out;
    assert_int_equal(osc_session_output(s, 0, &out), OSC_OK);
    assert_int_equal(*(const int64_t *)out.data, 2);
    osc_session_free(s);
    osc_model_free(m);
    osc_tensor_free_data(&v);
}

/* The fields corrupted_fields_refused changes, one at a time. */
enum { E_RANK, E_KIND, E_BYTES, E_NEG, E_MANY, E_OPT2, E_ELEM, E_DTYPE, E_DEEP, E_DIM, E_SIZE,
       E_ALIGN, E_HEAD };

/* A fresh two_items() value with field `which` changed, then refused by osc_pack_check with a
 * message holding `has` (osc_value_count gives the status alone). */
static void refused_after(int which, const char *has) {
    osc_tensor v = two_items(), w = v;
    osc_pack_head h;
    osc_pack_item e;
    unsigned char *b = v.data;
    memcpy(&h, b, sizeof h);
    memcpy(&e, b + sizeof h, sizeof e);
    switch (which) {
    case E_RANK: w.rank = 2; break;
    case E_KIND: h.kind = OSC_OPTIONAL; break;
    case E_BYTES: h.bytes--; break;
    case E_NEG: h.count = -1; break;
    case E_MANY: h.count = 1000; break;
    case E_OPT2: w.dtype = h.kind = OSC_OPTIONAL; break; /* an optional of two items */
    case E_ELEM: h.elem = OSC_STRING; break;
    case E_DTYPE: e.dtype = OSC_INT32; break;
    case E_DEEP: e.rank = OSC_MAX_RANK + 1; break;
    case E_DIM: e.dims[0] = -2; break;
    case E_SIZE: e.nbytes += 4; break;
    case E_ALIGN: e.off += 4; break;
    default: e.off = 0; break; /* E_HEAD: over the head */
    }
    memcpy(b, &h, sizeof h);
    memcpy(b + sizeof h, &e, sizeof e);
    osc_err err;
    osc_err_clear(&err);
    assert_int_equal(osc_pack_check(&w, "value", &err), OSC_ERR_ARG);
    if (!strstr(err.msg, has)) fail_msg("message \"%s\" lacks \"%s\"", err.msg, has);
    assert_int_equal(osc_value_count(&w, NULL, NULL), OSC_ERR_ARG);
    osc_tensor_free_data(&v);
}

/* Each field of a packed value's head and entries, changed alone, is refused with its reason. */
static void corrupted_fields_refused(void **state) {
    (void)state;
    static const struct { int which; const char *has; } c[] = {
        {E_RANK, "must be made by osc_value_pack"},
        {E_KIND, "bad head"},
        {E_BYTES, "bad head"},
        {E_NEG, "item count -1 does not fit"},
        {E_MANY, "item count 1000 does not fit"},
        {E_OPT2, "(an optional holds 0 or 1)"},
        {E_ELEM, "item dtype 8 is not allowed"},
        {E_DTYPE, "item 0 is malformed (dtype 6, the value's item dtype 1"},
        {E_DEEP, "item 0 is malformed (dtype 1, the value's item dtype 1; rank 33"},
        {E_DIM, "item 0 is malformed"},
        {E_SIZE, "item 0 is malformed"},
        {E_ALIGN, "item 0 is malformed"},
        {E_HEAD, "item 0 is malformed (dtype 1, the value's item dtype 1; rank 1; its bytes [0,"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) refused_after(c[i].which, c[i].has);
    /* a value at an address not 8-byte aligned */
    osc_tensor v = two_items(), w = v;
    unsigned char *moved = malloc(v.nbytes + 8);
    assert_non_null(moved);
    memcpy(moved + 4, v.data, v.nbytes);
    w.data = moved + 4;
    osc_err err;
    osc_err_clear(&err);
    assert_int_equal(osc_pack_check(&w, "value", &err), OSC_ERR_ARG);
    assert_non_null(strstr(err.msg, "data 8-byte aligned"));
    free(moved);
    /* a malformed item inside an optional holding the sequence */
    osc_tensor opt;
    char msg[256];
    assert_int_equal(osc_value_pack(OSC_OPTIONAL, 0, &v, 1, &opt, msg, sizeof msg), OSC_OK);
    osc_tensor inner;
    assert_int_equal(osc_value_item(&opt, 0, &inner), OSC_OK);
    osc_pack_item e0;
    unsigned char *ib = inner.data;
    memcpy(&e0, ib + sizeof(osc_pack_head), sizeof e0);
    e0.nbytes += 4;
    memcpy(ib + sizeof(osc_pack_head), &e0, sizeof e0);
    osc_err_clear(&err);
    assert_int_equal(osc_pack_check(&opt, "value", &err), OSC_ERR_ARG);
    assert_non_null(strstr(err.msg, "value: item 0 is malformed (dtype 1"));
    osc_tensor_free_data(&opt);
    osc_tensor_free_data(&v);
}

static void proto_roundtrip(void **state) {
    (void)state;
    osc_tensor v = two_items(), back, it;
    void *buf;
    size_t len, n;
    char msg[256], name[32];
    assert_int_equal(osc_value_encode_pb(&v, "seq", &buf, &len, msg, sizeof msg), OSC_OK);
    assert_int_equal(osc_value_decode_pb(buf, len, OSC_SEQUENCE, &back, name, sizeof name, msg,
                                         sizeof msg), OSC_OK);
    assert_string_equal(name, "seq");
    assert_int_equal(osc_value_count(&back, &n, NULL), OSC_OK);
    assert_int_equal(n, 2);
    assert_int_equal(osc_value_item(&back, 1, &it), OSC_OK);
    osc_check_shape(&it, OSC_FLOAT, 2, (const int64_t[]){1, 3});
    osc_check_bytes(&it, k_b, sizeof k_b);
    osc_tensor_free_data(&back);
    /* cut short: refused, nothing allocated */
    assert_int_equal(osc_value_decode_pb(buf, len - 3, OSC_SEQUENCE, &back, NULL, 0, msg,
                                         sizeof msg), OSC_ERR_PARSE);
    assert_null(back.data);
    free(buf);
    osc_tensor_free_data(&v);
}

/* Field f (3: a tensor value) holding tensor t as a TensorProto. */
static void w_tensor(osc_wire *w, int f, const osc_tensor *t) {
    void *buf;
    size_t len;
    char msg[256];
    assert_int_equal(osc_tensor_encode_pb(t, NULL, &buf, &len, msg, sizeof msg), OSC_OK);
    osc_wire_bytes(w, f, buf, len);
    free(buf);
}

/* osc_value_decode_pb of w as a `kind` fails with st and a message holding `has`; nothing is
 * left allocated. */
static void decode_fails(const osc_wire *w, int32_t kind, osc_status st, const char *has) {
    osc_tensor out = {.data = NULL};
    char msg[256];
    assert_int_equal(osc_value_decode_pb(w->b, w->n, kind, &out, NULL, 0, msg, sizeof msg), st);
    if (!strstr(msg, has)) fail_msg("message \"%s\" lacks \"%s\"", msg, has);
    assert_null(out.data);
}

/* SequenceProto and OptionalProto bytes written by hand: the fields a reader skips, an empty
 * value's elem_type, nesting, and each malformed or unsupported form refused with its reason. */
static void proto_wire_forms(void **state) {
    (void)state;
    const osc_tensor fa = floats(k_a, 1, 2, 0);
    static const int32_t k_i[2] = {7, 8};
    const osc_tensor ia = {.dtype = OSC_INT32, .rank = 1, .dims = {2}, .data = (void *)k_i,
                           .nbytes = sizeof k_i};
    static const uint8_t skip[] = {0x21, 1, 2, 3, 4, 5, 6, 7, 8, 0x2d, 1, 2, 3, 4};
    char msg[256], name[8];
    osc_tensor v, it;
    size_t n;
    int32_t elem;
    /* fixed64 and fixed32 fields skipped; an empty sequence of sequences */
    osc_wire w = {.n = 0};
    osc_wire_bytes(&w, 1, "a-long-name", 11);
    memcpy(w.b + w.n, skip, sizeof skip), w.n += sizeof skip;
    osc_wire_varint(&w, 2 << 3), osc_wire_varint(&w, 3); /* elem_type: SEQUENCE */
    assert_int_equal(osc_value_decode_pb(w.b, w.n, OSC_SEQUENCE, &v, name, sizeof name, msg,
                                         sizeof msg), OSC_OK);
    assert_string_equal(name, "a-long-"); /* cut to the buffer */
    assert_int_equal(osc_value_count(&v, &n, &elem), OSC_OK);
    assert_int_equal(n, 0);
    assert_int_equal(elem, OSC_SEQUENCE);
    osc_tensor_free_data(&v);
    /* an optional holding a sequence of one tensor */
    osc_wire inner = {.n = 0}, outer = {.n = 0};
    w_tensor(&inner, 3, &fa);
    osc_wire_bytes(&outer, 5, inner.b, inner.n);
    assert_int_equal(osc_value_decode_pb(outer.b, outer.n, OSC_OPTIONAL, &v, NULL, 0, msg,
                                         sizeof msg), OSC_OK);
    assert_int_equal(osc_value_count(&v, &n, &elem), OSC_OK);
    assert_int_equal(n, 1);
    assert_int_equal(elem, OSC_SEQUENCE);
    assert_int_equal(osc_value_item(&v, 0, &it), OSC_OK);
    assert_int_equal(osc_value_item(&it, 0, &it), OSC_OK);
    osc_check_bytes(&it, k_a, sizeof k_a);
    osc_tensor_free_data(&v);
    /* an optional of two values */
    w.n = 0;
    w_tensor(&w, 3, &fa);
    const size_t second = w.n;
    w_tensor(&w, 3, &fa);
    char at[64];
    snprintf(at, sizeof at, "OptionalProto: more than one value at byte %zu", second);
    decode_fails(&w, OSC_OPTIONAL, OSC_ERR_PARSE, at);
    /* items of two dtypes; a string item */
    w.n = 0;
    w_tensor(&w, 3, &fa);
    w_tensor(&w, 3, &ia);
    decode_fails(&w, OSC_SEQUENCE, OSC_ERR_UNSUPPORTED, "item 1 has dtype int32; the items "
                                                        "before it differ");
    static const uint8_t str_tensor[] = {0x10, 8, 0x32, 1, 'x'}; /* data_type 8, one string */
    w.n = 0;
    osc_wire_bytes(&w, 3, str_tensor, sizeof str_tensor);
    decode_fails(&w, OSC_SEQUENCE, OSC_ERR_UNSUPPORTED, "string items are not supported");
    /* nesting past the limit: nine sequences, one inside the next */
    w.n = 0;
    w_tensor(&w, 3, &fa);
    for (int d = 0; d < 8; d++) {
        osc_wire up = {.n = 0};
        osc_wire_bytes(&up, 5, w.b, w.n);
        w = up;
    }
    decode_fails(&w, OSC_SEQUENCE, OSC_ERR_LIMIT, "values nest deeper than 8");
    /* malformed: a varint never ending, a fixed64 cut short, a group, a length past the end */
    static const struct { uint8_t b[12]; size_t n; size_t at; } bad[] = {
        {{0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 11, 0},
        {{0x10, 3, 0x21, 1, 2, 3}, 6, 2},
        {{0x10, 3, 0x1b}, 3, 2},
        {{0x1a, 9, 0x08}, 3, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(w.b, bad[i].b, bad[i].n);
        w.n = bad[i].n;
        snprintf(at, sizeof at, "SequenceProto: malformed wire format at byte %zu", bad[i].at);
        decode_fails(&w, OSC_SEQUENCE, OSC_ERR_PARSE, at);
    }
    /* the API's own refusals */
    assert_int_equal(osc_value_decode_pb(NULL, 4, OSC_SEQUENCE, &v, NULL, 0, msg, sizeof msg),
                     OSC_ERR_ARG);
    assert_non_null(strstr(msg, "buf is NULL"));
    assert_int_equal(osc_value_decode_pb(w.b, w.n, OSC_SEQUENCE, NULL, NULL, 0, msg, sizeof msg),
                     OSC_ERR_ARG);
    assert_non_null(strstr(msg, "out is NULL"));
    osc_tensor seq = two_items();
    size_t len;
    assert_int_equal(osc_value_encode_pb(&seq, NULL, NULL, &len, msg, sizeof msg), OSC_ERR_ARG);
    assert_non_null(strstr(msg, "buf is NULL"));
    osc_tensor_free_data(&seq);
}

/* SequenceConstruct(x, y) -> ConcatFromSequence(axis 0) and SequenceAt(position). */
static void session_sequences(void **state) {
    (void)state;
    osc_mw *mw = osc_mw_graph(18, 3, (const osc_mw_value[]){
        {"x", OSC_FLOAT, 1, (const int64_t[]){-1}, NULL},
        {"y", OSC_FLOAT, 1, (const int64_t[]){-1}, NULL},
        {"p", OSC_INT64, 0, NULL, NULL}});
    osc_mw_node(mw, "SequenceConstruct", "make", 2, (const char *[]){"x", "y"}, 1,
                (const char *[]){"s"});
    int c = osc_mw_node(mw, "ConcatFromSequence", "cat", 1, (const char *[]){"s"}, 1,
                        (const char *[]){"z"});
    osc_mw_attr_int(mw, c, "axis", 0);
    osc_mw_node(mw, "SequenceAt", "at", 2, (const char *[]){"s", "p"}, 1,
                (const char *[]){"w"});
    osc_mw_output(mw, "z", OSC_FLOAT, 1, (const int64_t[]){-1}, NULL);
    osc_mw_output(mw, "w", OSC_FLOAT, -1, NULL, NULL);
    osc_mw_output(mw, "s", OSC_SEQUENCE, -1, NULL, NULL);
    osc_model *m;
    osc_session *s = open_model(mw, &m);
    osc_tensor x = floats(k_a, 1, 2, 0), y = floats(k_b, 1, 3, 0), out, it;
    int64_t pos = -1;
    osc_tensor p = {.dtype = OSC_INT64, .rank = 0, .data = &pos, .nbytes = sizeof pos};
    assert_int_equal(osc_session_set_input(s, "x", &x), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "y", &y), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "p", &p), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(osc_session_output(s, 0, &out), OSC_OK);
    osc_check_bytes(&out, (const float[]){1, 2, 3, 4, 5}, 5 * sizeof(float));
    assert_int_equal(osc_session_output(s, 1, &out), OSC_OK); /* position -1: y */
    osc_check_bytes(&out, k_b, sizeof k_b);
    assert_int_equal(osc_session_output(s, 2, &out), OSC_OK);
    size_t n;
    assert_int_equal(osc_value_count(&out, &n, NULL), OSC_OK);
    assert_int_equal(n, 2);
    assert_int_equal(osc_value_item(&out, 0, &it), OSC_OK);
    osc_check_bytes(&it, k_a, sizeof k_a);
    pos = 2; /* of 2 items: [-2, 1] */
    assert_int_equal(osc_session_set_input(s, "p", &p), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_ERR_INDEX);
    assert_non_null(strstr(osc_session_error(s), "'position' (p) is 2; the sequence has 2 "
                                                 "items, so the allowed range is [-2, 1]"));
    osc_session_free(s);
    osc_model_free(m);
}

/* A packed sequence of two float items of n0 and n1 elements. */
static osc_tensor seq2(const float *a, int64_t n0, const float *b, int64_t n1) {
    osc_tensor items[2] = {floats(a, 1, n0, 0), floats(b, 1, n1, 0)}, v;
    char msg[256];
    assert_int_equal(osc_value_pack(OSC_SEQUENCE, 0, items, 2, &v, msg, sizeof msg), OSC_OK);
    return v;
}

/* (y, z) = SequenceMap(s, t, x), body (a, b, c) -> (a + b, a * c): two sequences item by item,
 * and a tensor passed whole to every item; sequences of other lengths refused; empty ones
 * give empty outputs. */
static void sequence_map_items(void **state) {
    (void)state;
    const int64_t any[1] = {-1};
    osc_mw *mw = osc_mw_graph(17, 3, (const osc_mw_value[]){
        {"s", OSC_SEQUENCE, -1, NULL, NULL}, {"t", OSC_SEQUENCE, -1, NULL, NULL},
        {"x", OSC_FLOAT, 1, any, NULL}});
    osc_mw *b = osc_mw_new(8);
    osc_mw_names(b, NULL, "body");
    osc_mw_inputs(b, 3, (const osc_mw_value[]){{"a", OSC_FLOAT, -1, NULL, NULL},
                                               {"b", OSC_FLOAT, -1, NULL, NULL},
                                               {"c", OSC_FLOAT, 1, any, NULL}});
    osc_mw_node(b, "Add", "add", 2, (const char *[]){"a", "b"}, 1, (const char *[]){"ab"});
    osc_mw_node(b, "Mul", "mul", 2, (const char *[]){"a", "c"}, 1, (const char *[]){"ac"});
    osc_mw_output(b, "ab", OSC_FLOAT, -1, NULL, NULL);
    osc_mw_output(b, "ac", OSC_FLOAT, -1, NULL, NULL);
    int n = osc_mw_node(mw, "SequenceMap", "map", 3, (const char *[]){"s", "t", "x"}, 2,
                        (const char *[]){"y", "z"});
    osc_mw_attr_graph(mw, n, "body", b);
    osc_mw_free(b);
    osc_mw_output(mw, "y", OSC_SEQUENCE, -1, NULL, NULL);
    osc_mw_output(mw, "z", OSC_SEQUENCE, -1, NULL, NULL);
    osc_model *m;
    osc_session *ss = open_model(mw, &m);
    static const float t0[2] = {10, 20}, t1[3] = {30, 40, 50}, two[1] = {2};
    osc_tensor sv = two_items(), tv = seq2(t0, 2, t1, 3), x = floats(two, 1, 1, 0), out, it;
    /* two_items() is [1, 2] and [[3, 4, 5]]: t's second item [3] broadcasts against [1, 3] */
    assert_int_equal(osc_session_set_input(ss, "s", &sv), OSC_OK);
    assert_int_equal(osc_session_set_input(ss, "t", &tv), OSC_OK);
    assert_int_equal(osc_session_set_input(ss, "x", &x), OSC_OK);
    if (osc_session_run(ss)) fail_msg("%s", osc_session_error(ss));
    size_t count;
    assert_int_equal(osc_session_output(ss, 0, &out), OSC_OK);
    assert_int_equal(osc_value_count(&out, &count, NULL), OSC_OK);
    assert_int_equal(count, 2);
    assert_int_equal(osc_value_item(&out, 0, &it), OSC_OK);
    osc_check_bytes(&it, (const float[]){11, 22}, 2 * sizeof(float));
    assert_int_equal(osc_value_item(&out, 1, &it), OSC_OK);
    osc_check_shape(&it, OSC_FLOAT, 2, (const int64_t[]){1, 3});
    osc_check_bytes(&it, (const float[]){33, 44, 55}, 3 * sizeof(float));
    assert_int_equal(osc_session_output(ss, 1, &out), OSC_OK);
    assert_int_equal(osc_value_item(&out, 1, &it), OSC_OK);
    osc_check_bytes(&it, (const float[]){6, 8, 10}, 3 * sizeof(float));
    /* t one item short */
    osc_tensor shortv, one = floats(t0, 1, 2, 0), none;
    char msg[256];
    assert_int_equal(osc_value_pack(OSC_SEQUENCE, 0, &one, 1, &shortv, msg, sizeof msg), OSC_OK);
    assert_int_equal(osc_session_set_input(ss, "t", &shortv), OSC_OK);
    assert_int_equal(osc_session_run(ss), OSC_ERR_SHAPE);
    assert_non_null(strstr(osc_session_error(ss), "input 1 (t) is a sequence of 1 items; input 0 "
                                                  "has 2, and every sequence input must have "
                                                  "as many"));
    /* both empty: empty sequences of the body's declared float */
    assert_int_equal(osc_value_pack(OSC_SEQUENCE, OSC_FLOAT, NULL, 0, &none, msg, sizeof msg),
                     OSC_OK);
    assert_int_equal(osc_session_set_input(ss, "s", &none), OSC_OK);
    assert_int_equal(osc_session_set_input(ss, "t", &none), OSC_OK);
    assert_int_equal(osc_session_run(ss), OSC_OK);
    int32_t elem;
    for (int32_t j = 0; j < 2; j++) {
        assert_int_equal(osc_session_output(ss, j, &out), OSC_OK);
        assert_int_equal(osc_value_count(&out, &count, &elem), OSC_OK);
        assert_int_equal(count, 0);
        assert_int_equal(elem, OSC_FLOAT);
    }
    osc_session_free(ss);
    osc_model_free(m);
    osc_tensor_free_data(&sv);
    osc_tensor_free_data(&tv);
    osc_tensor_free_data(&shortv);
    osc_tensor_free_data(&none);
}

/* An optional input bound a tensor holds it; bound an empty optional it holds nothing. */
static void optional_input_wraps_a_tensor(void **state) {
    (void)state;
    osc_mw *mw = osc_mw_graph(18, 1, (const osc_mw_value[]){{"o", OSC_OPTIONAL, -1, NULL, NULL}});
    osc_mw_node(mw, "OptionalHasElement", "has", 1, (const char *[]){"o"}, 1,
                (const char *[]){"h"});
    osc_mw_node(mw, "OptionalGetElement", "get", 1, (const char *[]){"o"}, 1,
                (const char *[]){"e"});
    osc_mw_output(mw, "h", OSC_BOOL, 0, NULL, NULL);
    osc_mw_output(mw, "e", OSC_FLOAT, -1, NULL, NULL);
    osc_model *m;
    osc_session *s = open_model(mw, &m);
    osc_tensor x = floats(k_a, 1, 2, 0), out, none;
    assert_int_equal(osc_session_set_input(s, "o", &x), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(osc_session_output(s, 0, &out), OSC_OK);
    assert_int_equal(*(const uint8_t *)out.data, 1);
    assert_int_equal(osc_session_output(s, 1, &out), OSC_OK);
    osc_check_bytes(&out, k_a, sizeof k_a);
    char msg[256];
    assert_int_equal(osc_value_pack(OSC_OPTIONAL, OSC_FLOAT, NULL, 0, &none, msg, sizeof msg),
                     OSC_OK);
    assert_int_equal(osc_session_set_input(s, "o", &none), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_ERR_ARG);
    assert_non_null(strstr(osc_session_error(s), "empty optional"));
    osc_tensor_free_data(&none);
    osc_session_free(s);
    osc_model_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pack_and_read),
        cmocka_unit_test(pack_refusals),
        cmocka_unit_test(corrupted_value_refused),
        cmocka_unit_test(corrupted_fields_refused),
        cmocka_unit_test(proto_roundtrip),
        cmocka_unit_test(proto_wire_forms),
        cmocka_unit_test(session_sequences),
        cmocka_unit_test(sequence_map_items),
        cmocka_unit_test(optional_input_wraps_a_tensor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
