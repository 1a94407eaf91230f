/* test_loader_skeleton.c: a model is unpacked as a skeleton and each tensor's raw_data is read
 * once from its source: a file is never in memory twice, protobuf's rules (the last raw_data
 * wins, a message given twice is merged) still hold, and a file reads as its bytes do. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader_util.h"
#include "tests/support/wire.h"

/* ---- wire bytes written by hand (protobuf-c never writes a field twice) ---- */

/* TensorProto fields, GraphProto's initializer and doc_string, ModelProto's. */
enum { T_DIMS = 1, T_TYPE = 2, T_FLOATS = 4, T_NAME = 8, T_RAW = 9 };
enum { G_NODE = 1, G_INIT = 5, G_DOC = 10, G_OUTPUT = 12 };
enum { M_IR = 1, M_GRAPH = 7, M_OPSET = 8 };

/* A float tensor of n elements named `name`, its payload not yet written. */
static osc_wire *tensor(const char *name, size_t n) {
    osc_wire *t = calloc(1, sizeof *t);
    assert_non_null(t);
    osc_wire_int(t, T_DIMS, n);
    osc_wire_int(t, T_TYPE, OSC_FLOAT);
    osc_wire_str(t, T_NAME, name);
    return t;
}

/* A model (IR 9, opset 18) around the graph g. */
static osc_wire *model(const osc_wire *g) {
    osc_wire *m = calloc(1, sizeof *m), op = {.n = 0};
    assert_non_null(m);
    osc_wire_int(m, M_IR, 9);
    osc_wire_int(&op, 2, 18);
    osc_wire_msg(m, M_OPSET, &op);
    osc_wire_msg(m, M_GRAPH, g);
    return m;
}

/* ---- sources ---- */

static char g_dir[256];

static int setup(void **state) {
    (void)state;
    lu_tmpdir(g_dir, sizeof g_dir);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    lu_rmtree(g_dir);
    return 0;
}

/* Parses bytes from memory (file false) or from a file holding them, allocating through opts'
 * hook (NULL: the C library). */
static osc_status parse_opts(lu_model *m, const void *buf, size_t len, bool file,
                             const osc_options *opts) {
    if (!file) return lu_parse_opts(m, buf, len, NULL, opts);
    osc_allocator_init(&m->alloc, opts);
    osc_pool_init(&m->pool, &m->alloc, 0);
    osc_err_clear(&m->err);
    char path[300];
    snprintf(path, sizeof path, "%s/m.onnx", g_dir);
    lu_write_file(path, buf, len);
    int fd;
    uint64_t flen;
    assert_int_equal(osc_open_file(path, &fd, &flen, &m->err), OSC_OK);
    osc_src src = {NULL, fd, flen, path};
    osc_status st = osc_loader_parse_model_src(&src, NULL, NULL, &m->pool, &m->g, &m->err);
    close(fd);
    return st;
}

static osc_status parse(lu_model *m, const void *buf, size_t len, bool file) {
    return parse_opts(m, buf, len, file, NULL);
}

static const osc_tensor *init_of(lu_model *m, const char *name) {
    const osc_tensor *t = m->g.values[lu_value(&m->g, name)].init;
    assert_non_null(t);
    return t;
}

/* ---- the load's peak: the payloads once ---- */

static void file_in_memory_once(void **state) {
    (void)state;
    enum { N = 1 << 20 }; /* 4 MiB of floats */
    float *v = malloc(N * sizeof *v);
    assert_non_null(v);
    for (size_t i = 0; i < N; i++) v[i] = (float)i * 0.5f;
    osc_mw *mw = osc_mw_new(9);
    osc_mw_opset(mw, "", 18);
    int64_t dims[1] = {N};
    osc_mw_input(mw, "x", OSC_FLOAT, 1, dims, NULL);
    osc_tensor w = {.dtype = OSC_FLOAT, .rank = 1, .dims = {N}, .data = v, .nbytes = N * 4};
    osc_mw_initializer(mw, "w", &w);
    const char *in[2] = {"x", "w"}, *out[1] = {"y"};
    osc_mw_node(mw, "Add", "add", 2, in, 1, out);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, dims, NULL);
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    char path[300];
    snprintf(path, sizeof path, "%s/big.onnx", g_dir);
    lu_write_file(path, buf, len);
    free(buf);

    lu_track t = {0, 0, 0, -1};
    osc_options o;
    osc_options_init(&o);
    o.alloc = lu_track_fn;
    o.alloc_ud = &t;
    osc_model *m = NULL;
    char msg[512];
    assert_int_equal(osc_model_load_file(path, &o, &m, msg, sizeof msg), OSC_OK);
    osc_tensor got;
    assert_int_equal(osc_model_value_data(m, "w", &got), OSC_OK);
    assert_int_equal(got.nbytes, N * sizeof *v);
    assert_memory_equal(got.data, v, N * sizeof *v);
    /* read whole and unpacked, the file was there twice (2.0x its bytes) */
    if (t.peak > len + len / 8)
        fail_msg("loading a %zu-byte file peaked at %zu bytes (%.2fx)", len, t.peak,
                 (double)t.peak / (double)len);
    osc_model_free(m);
    free(v);
}

/* ---- protobuf's rules ---- */

/* raw_data given twice: the last one counts, whichever of them is elided where. */
static void last_raw_data_wins(void **state) {
    (void)state;
    const float a[2] = {1, 2}, b[2] = {3, 4};
    for (int file = 0; file < 2; file++) {
        osc_wire *t = tensor("w", 2), g = {.n = 0};
        osc_wire_bytes(t, T_RAW, a, sizeof a);
        osc_wire_bytes(t, T_RAW, b, sizeof b);
        osc_wire_msg(&g, G_INIT, t);
        osc_wire *mb = model(&g);
        lu_model m;
        lu_expect(parse(&m, mb->b, mb->n, file), OSC_OK, m.err.msg, "");
        assert_memory_equal(init_of(&m, "w")->data, b, sizeof b);
        lu_model_free(&m);
        free(t);
        free(mb);
    }
}

/* A TensorProto holding the skeleton's marker field already: an unknown field, ignored, and
 * dropped from the skeleton: the file loads as its skeleton, at the peak of a load from memory,
 * not read whole as a skeleton whose markers do not add up would be. */
static void source_markers_are_ignored(void **state) {
    (void)state;
    size_t peak[2];
    static float a[8192];
    const float c[3] = {7, 8, 9};
    for (int i = 0; i < 8192; i++) a[i] = (float)i;
    for (int file = 0; file < 2; file++) {
        osc_wire *t = tensor("w", 8192), *u = tensor("u", 3), g = {.n = 0};
        osc_wire_int(t, OSC_PB_MARK, 7);
        osc_wire_bytes(t, T_RAW, a, sizeof a);
        osc_wire_int(u, OSC_PB_MARK, 0); /* names the first payload: not this tensor's */
        osc_wire_bytes(u, T_FLOATS, c, sizeof c); /* packed float_data */
        osc_wire_msg(&g, G_INIT, t);
        osc_wire_msg(&g, G_INIT, u);
        osc_wire *mb = model(&g);
        lu_track tr = {0, 0, 0, -1};
        osc_options o;
        osc_options_init(&o);
        o.alloc = lu_track_fn;
        o.alloc_ud = &tr;
        lu_model m;
        lu_expect(parse_opts(&m, mb->b, mb->n, file, &o), OSC_OK, m.err.msg, "");
        assert_memory_equal(init_of(&m, "w")->data, a, sizeof a);
        assert_memory_equal(init_of(&m, "u")->data, c, sizeof c);
        peak[file] = tr.peak;
        if (file && peak[1] > peak[0] + mb->n / 2)
            fail_msg("the file's load peaked at %zu bytes, from memory %zu (file of %zu bytes)",
                     peak[1], peak[0], mb->n);
        lu_model_free(&m);
        free(t);
        free(u);
        free(mb);
    }
}

/* A message field given twice is merged (protobuf's rule), tensors inside it included: a
 * Constant's value `t` twice takes the dims of the first and the raw_data of the second. */
static void merged_tensor(void **state) {
    (void)state;
    const float a[2] = {1, 2}, b[2] = {-3, -4};
    for (int file = 0; file < 2; file++) {
        osc_wire *t1 = tensor("", 2), t2 = {.n = 0}, at = {.n = 0}, node = {.n = 0}, g = {.n = 0};
        osc_wire_bytes(t1, T_RAW, a, sizeof a);
        osc_wire_bytes(&t2, T_RAW, b, sizeof b);
        osc_wire_str(&at, 1, "value");
        osc_wire_int(&at, 20, 4); /* type TENSOR */
        osc_wire_msg(&at, 5, t1);
        osc_wire_msg(&at, 5, &t2);
        osc_wire_str(&node, 2, "y");
        osc_wire_str(&node, 4, "Constant");
        osc_wire_msg(&node, 5, &at);
        osc_wire_msg(&g, G_NODE, &node);
        osc_wire out = {.n = 0};
        osc_wire_str(&out, 1, "y");
        osc_wire_msg(&g, G_OUTPUT, &out);
        osc_wire *mb = model(&g);
        char path[300];
        snprintf(path, sizeof path, "%s/c.onnx", g_dir);
        lu_write_file(path, mb->b, mb->n);
        osc_model *m = NULL;
        char msg[512];
        osc_status st = file ? osc_model_load_file(path, NULL, &m, msg, sizeof msg)
                             : osc_model_load_buffer(mb->b, mb->n, NULL, NULL, &m, msg,
                                                     sizeof msg);
        lu_expect(st, OSC_OK, msg, "");
        osc_tensor got;
        assert_int_equal(osc_model_value_data(m, "y", &got), OSC_OK);
        assert_int_equal(got.rank, 1);
        assert_int_equal(got.dims[0], 2);
        assert_memory_equal(got.data, b, sizeof b);
        osc_model_free(m);
        free(t1);
        free(mb);
    }
}

/* Every allocation of a load from a file or from memory fails in turn (the skeleton, its
 * unpack, a payload's block below and above OSC_PB_BIG): each load fails cleanly and gives
 * every byte back. */
static void each_allocation_fails(void **state) {
    (void)state;
    static float small[4] = {1, 2, 3, 4}, big[2048];
    for (size_t i = 0; i < 2048; i++) big[i] = (float)i;
    osc_wire *t = tensor("s", 4), *u = tensor("b", 2048), g = {.n = 0};
    osc_wire_bytes(t, T_RAW, small, sizeof small);
    osc_wire_bytes(u, T_RAW, big, sizeof big);
    osc_wire_msg(&g, G_INIT, t);
    osc_wire_msg(&g, G_INIT, u);
    osc_wire *mb = model(&g);
    for (int file = 0; file < 2; file++) {
        long n = 0;
        for (bool failed = true; failed; n++) {
            lu_track tr = {0, 0, 0, n};
            osc_options o;
            osc_options_init(&o);
            o.alloc = lu_track_fn;
            o.alloc_ud = &tr;
            lu_model m;
            osc_status st = parse_opts(&m, mb->b, mb->n, file, &o);
            failed = tr.calls > n;
            if (failed) lu_expect(st, OSC_ERR_NOMEM, m.err.msg, "out of memory");
            else lu_expect(st, OSC_OK, m.err.msg, "");
            if (!failed) assert_memory_equal(init_of(&m, "b")->data, big, sizeof big);
            lu_model_free(&m);
            if (tr.cur) fail_msg("allocation %ld failed: %zu bytes not given back", n, tr.cur);
        }
        assert_true(n > 5);
    }
    free(t);
    free(u);
    free(mb);
}

/* ---- a file reads as its bytes do ---- */

/* Fields longer than the reader's window (a doc string, float_data) and an error past it: the
 * same tensors, and the same message naming the same byte, from a file as from memory. */
static void file_reads_as_memory(void **state) {
    (void)state;
    static char doc[20000];
    static float f[5000];
    memset(doc, 'd', sizeof doc - 1);
    for (size_t i = 0; i < 5000; i++) f[i] = (float)i;
    for (int nul = 0; nul < 2; nul++) {
        doc[12345] = nul ? '\0' : 'd';
        osc_wire *t = tensor("f", 5000), g = {.n = 0};
        osc_wire_bytes(t, T_FLOATS, f, sizeof f);
        osc_wire_msg(&g, G_INIT, t);
        osc_wire_bytes(&g, G_DOC, doc, sizeof doc - 1);
        osc_wire *mb = model(&g);
        char msgs[2][OSC_MSG_SIZE];
        for (int file = 0; file < 2; file++) {
            lu_model m;
            osc_status st = parse(&m, mb->b, mb->n, file);
            snprintf(msgs[file], sizeof msgs[file], "%s", m.err.msg);
            if (nul) {
                lu_expect(st, OSC_ERR_PARSE, m.err.msg, "doc_string", "NUL byte");
            } else {
                lu_expect(st, OSC_OK, m.err.msg, "");
                assert_memory_equal(init_of(&m, "f")->data, f, sizeof f);
            }
            lu_model_free(&m);
        }
        assert_string_equal(msgs[0], msgs[1]);
        free(t);
        free(mb);
    }
}

/* A model of many small tensors behind a model doc string of `pad` bytes: as pad runs over a
 * tensor's size, each tag and length (two bytes) of the walk meets the end of the file
 * reader's first window (8 KiB) once. */
static osc_wire *padded(size_t pad) {
    static char doc[300];
    static float v[50];
    memset(doc, 'p', sizeof doc);
    osc_wire g = {.n = 0}, *m = calloc(1, sizeof *m), op = {.n = 0};
    assert_non_null(m);
    for (int i = 0; i < 60; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%d", i);
        for (int k = 0; k < 50; k++) v[k] = (float)(i * 50 + k);
        osc_wire *t = tensor(name, 50);
        osc_wire_bytes(t, T_RAW, v, sizeof v);
        osc_wire_msg(&g, G_INIT, t);
        free(t);
    }
    osc_wire_bytes(m, 6, doc, pad); /* ModelProto.doc_string */
    osc_wire_int(m, M_IR, 9);
    osc_wire_int(&op, 2, 18);
    osc_wire_msg(m, M_OPSET, &op);
    osc_wire_msg(m, M_GRAPH, &g);
    return m;
}

/* Bytes changed at random (a byte, or the end cut): a file gives the status and message
 * memory gives, and the same tensors when both load. The model's fields cross the file reader's
 * windows (8 KiB) and their lengths sit at random places in them. Before: every tag and length
 * of a model of small tensors at the end of the first window. */
static void file_and_memory_agree(void **state) {
    (void)state;
    for (size_t pad = 0; pad < 240; pad++) {
        osc_wire *pm = padded(pad);
        for (int file = 0; file < 2; file++) {
            lu_model m;
            lu_expect(parse(&m, pm->b, pm->n, file), OSC_OK, m.err.msg, "");
            float last;
            memcpy(&last, (const char *)init_of(&m, "t59")->data + 49 * 4, 4);
            assert_true(last == 2999.0f);
            lu_model_free(&m);
        }
        free(pm);
    }
    static char doc[20000];
    static float f[3000], r[1500];
    memset(doc, 'x', sizeof doc);
    for (size_t i = 0; i < 3000; i++) f[i] = (float)i;
    for (size_t i = 0; i < 1500; i++) r[i] = -(float)i;
    osc_wire *t = tensor("f", 3000), *u = tensor("r", 1500), g = {.n = 0};
    osc_wire_bytes(t, T_FLOATS, f, sizeof f);
    osc_wire_bytes(u, T_RAW, r, sizeof r);
    osc_wire_msg(&g, G_INIT, t);
    osc_wire_bytes(&g, G_DOC, doc, sizeof doc);
    osc_wire_msg(&g, G_INIT, u);
    osc_wire *mb = model(&g), *bad = calloc(1, sizeof *bad);
    assert_non_null(bad);
    uint32_t rng = 7;
    int loaded = 0;
    for (int k = 0; k < 400; k++) {
        *bad = *mb;
        rng = rng * 1664525u + 1013904223u;
        const size_t at = (rng >> 8) % mb->n;
        if (k % 4 == 3) bad->n = at + 1; /* cut */
        else bad->b[at] ^= (uint8_t)(1u << (rng & 7));
        lu_model m[2];
        osc_status st[2];
        for (int file = 0; file < 2; file++) st[file] = parse(&m[file], bad->b, bad->n, file);
        if (st[0] != st[1] || strcmp(m[0].err.msg, m[1].err.msg))
            fail_msg("change %d (byte %zu): memory gives %d '%s', the file %d '%s'", k, at,
                     (int)st[0], m[0].err.msg, (int)st[1], m[1].err.msg);
        if (!st[0] && m[0].g.n_values == 2) {
            for (int i = 0; i < 2; i++) {
                const osc_tensor *a = m[0].g.values[i].init, *b = m[1].g.values[i].init;
                assert_int_equal(a->nbytes, b->nbytes);
                assert_memory_equal(a->data, b->data, a->nbytes);
            }
            loaded++;
        }
        lu_model_free(&m[0]);
        lu_model_free(&m[1]);
    }
    assert_true(loaded > 10); /* (a change inside a payload or the doc string still loads) */
    free(t);
    free(u);
    free(mb);
    free(bad);
}

/* A file that ends before a range it should hold: an I/O error naming it, never a crash. */
static void short_file_read(void **state) {
    (void)state;
    char path[300], buf[16];
    snprintf(path, sizeof path, "%s/short.bin", g_dir);
    lu_write_file(path, "0123456789", 10);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    osc_src src = {NULL, fd, 20, path}; /* as if it had shrunk from 20 bytes */
    osc_err err;
    osc_err_clear(&err);
    assert_int_equal(osc_src_read(&src, 4, buf, 6, &err), OSC_OK);
    assert_memory_equal(buf, "456789", 6);
    lu_expect(osc_src_read(&src, 6, buf, 8, &err), OSC_ERR_IO, err.msg, "short.bin", "shrank",
              "at byte 10");
    close(fd);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(file_in_memory_once),   cmocka_unit_test(last_raw_data_wins),
        cmocka_unit_test(source_markers_are_ignored), cmocka_unit_test(merged_tensor),
        cmocka_unit_test(each_allocation_fails),
        cmocka_unit_test(file_reads_as_memory),  cmocka_unit_test(file_and_memory_agree),
        cmocka_unit_test(short_file_read),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
