/* test_loader_external.c: external tensor data: good ranges and every refused location/range. */
#define _XOPEN_SOURCE 700 /* symlink, pwrite */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader_util.h"
#include "tests/support/check.h"

typedef struct fixture {
    char dir[256];     /* the model's folder: w.bin (16 bytes 0..15), sub/ */
    char outside[256]; /* another temp folder: secret.bin */
} fixture;

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    lu_tmpdir(f->dir, sizeof f->dir);
    lu_tmpdir(f->outside, sizeof f->outside);
    uint8_t bytes[16];
    for (int i = 0; i < 16; i++) bytes[i] = (uint8_t)i;
    char p[512];
    snprintf(p, sizeof p, "%s/w.bin", f->dir);
    lu_write_file(p, bytes, 16);
    snprintf(p, sizeof p, "%s/sub", f->dir);
    assert_int_equal(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/secret.bin", f->outside);
    lu_write_file(p, bytes, 16);
    char link[512];
    snprintf(link, sizeof link, "%s/escape.bin", f->dir);
    assert_int_equal(symlink(p, link), 0);
    snprintf(link, sizeof link, "%s/inner.bin", f->dir);
    assert_int_equal(symlink("w.bin", link), 0); /* a symlink that stays inside is fine */
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    lu_rmtree(f->dir);
    lu_rmtree(f->outside);
    free(f);
    return 0;
}

/* Decodes a tensor of dtype and `n` elements named "ext" whose external_data has the given
 * location/offset/length (NULL: key absent). */
static osc_status ext_dt(const char *base, int32_t dtype, int64_t n, const char *loc,
                         const char *off, const char *len, osc_tensor *out, char *msg) {
    Onnx__StringStringEntryProto kv[3], *kvs[3];
    const char *keys[3] = {"location", "offset", "length"}, *vals[3] = {loc, off, len};
    size_t nkv = 0;
    for (int i = 0; i < 3; i++) {
        if (!vals[i]) continue;
        onnx__string_string_entry_proto__init(&kv[nkv]);
        kv[nkv].key = (char *)keys[i];
        kv[nkv].value = (char *)vals[i];
        kvs[nkv] = &kv[nkv];
        nkv++;
    }
    int64_t dims[1] = {n};
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.name = "ext", tp.has_data_type = 1, tp.data_type = dtype, tp.n_dims = 1, tp.dims = dims;
    tp.has_data_location = 1, tp.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    tp.n_external_data = nkv, tp.external_data = kvs;
    osc_allocator a;
    osc_allocator_init(&a, NULL);
    osc_pool pool;
    osc_pool_init(&pool, &a, 0);
    osc_err err;
    osc_err_clear(&err);
    osc_tdec d = {"initializer 'ext'", base, &pool, true, &err};
    osc_tensor t;
    osc_status st = osc_tensor_from_pb(&tp, &d, &t);
    if (st == OSC_OK) {
        /* copy out of the pool for the caller */
        *out = t;
        out->data = malloc(t.nbytes ? t.nbytes : 1);
        memcpy(out->data, t.data, t.nbytes);
    } else {
        assert_null(t.data);
        memset(out, 0, sizeof *out);
    }
    osc_pool_free(&pool);
    assert_int_equal(a.used, 0);
    snprintf(msg, OSC_MSG_SIZE, "%s", err.msg);
    return st;
}

/* The float tensor holds bytes first..first+n-1 of the file: little-endian, so each float's
 * four bytes in the machine's order (reversed on a big-endian one). */
/* The same for a float tensor. */
static osc_status ext(const char *base, int64_t n, const char *loc, const char *off,
                      const char *len, osc_tensor *out, char *msg) {
    return ext_dt(base, OSC_FLOAT, n, loc, off, len, out, msg);
}

static void check_range(const osc_tensor *t, int first, int n) {
    assert_int_equal(t->nbytes, (size_t)n);
    uint8_t want[64];
    assert_true(n <= 64);
    for (int i = 0; i < n; i++) want[i] = (uint8_t)(first + i);
    osc_le_swap(OSC_FLOAT, want, (size_t)n);
    assert_memory_equal(t->data, want, (size_t)n);
}

static void test_good(void **state) {
    fixture *f = *state;
    char msg[OSC_MSG_SIZE];
    osc_tensor t;
    lu_expect(ext(f->dir, 2, "w.bin", "4", "8", &t, msg), OSC_OK, msg, "");
    check_range(&t, 4, 8);
    free(t.data);
    lu_expect(ext(f->dir, 4, "w.bin", NULL, NULL, &t, msg), OSC_OK, msg, "");
    check_range(&t, 0, 16);
    free(t.data);
    lu_expect(ext(f->dir, 3, "w.bin", "4", NULL, &t, msg), OSC_OK, msg, ""); /* length: rest */
    check_range(&t, 4, 12);
    free(t.data);
    lu_expect(ext(f->dir, 1, "sub/../w.bin", "12", "4", &t, msg), OSC_OK, msg, "");
    check_range(&t, 12, 4);
    free(t.data);
    lu_expect(ext(f->dir, 1, "./inner.bin", "0", "4", &t, msg), OSC_OK, msg, "");
    check_range(&t, 0, 4);
    free(t.data);
    lu_expect(ext(f->dir, 0, "w.bin", "16", "0", &t, msg), OSC_OK, msg, ""); /* empty at EOF */
    assert_int_equal(t.nbytes, 0);
    free(t.data);
}

static void test_refused_locations(void **state) {
    fixture *f = *state;
    char msg[OSC_MSG_SIZE], abs[512];
    osc_tensor t;
    snprintf(abs, sizeof abs, "%s/w.bin", f->dir);
    lu_expect(ext(f->dir, 1, abs, NULL, "4", &t, msg), OSC_ERR_MODEL, msg,
              "initializer 'ext'", "absolute", abs);
    lu_expect(ext(f->dir, 1, "../x.bin", NULL, "4", &t, msg), OSC_ERR_MODEL, msg,
              "initializer 'ext'", "'../x.bin'", "leaves the model's folder");
    lu_expect(ext(f->dir, 1, "sub/../../x.bin", NULL, "4", &t, msg), OSC_ERR_MODEL, msg,
              "sub/../../x.bin", "leaves");
    lu_expect(ext(f->dir, 1, "escape.bin", NULL, "4", &t, msg), OSC_ERR_MODEL, msg,
              "initializer 'ext'", "escape.bin", "outside the model's folder", "secret.bin");
    lu_expect(ext(f->dir, 1, "missing.bin", NULL, "4", &t, msg), OSC_ERR_IO, msg,
              "initializer 'ext'", "missing.bin", "No such file");
    lu_expect(ext(f->dir, 1, "sub", NULL, "4", &t, msg), OSC_ERR_IO, msg, "not a regular file");
    lu_expect(ext(NULL, 1, "w.bin", NULL, "4", &t, msg), OSC_ERR_MODEL, msg,
              "initializer 'ext'", "w.bin", "refused");
    lu_expect(ext(f->dir, 1, NULL, "0", "4", &t, msg), OSC_ERR_MODEL, msg, "no 'location'");
    lu_expect(ext(f->dir, 1, "", "0", "4", &t, msg), OSC_ERR_MODEL, msg, "no 'location'");
}

static void test_refused_ranges(void **state) {
    fixture *f = *state;
    char msg[OSC_MSG_SIZE];
    osc_tensor t;
    lu_expect(ext(f->dir, 2, "w.bin", "12", "8", &t, msg), OSC_ERR_MODEL, msg,
              "initializer 'ext'", "[12, 20)", "past the end", "w.bin", "16 bytes");
    lu_expect(ext(f->dir, 2, "w.bin", "20", NULL, &t, msg), OSC_ERR_MODEL, msg, "past the end");
    lu_expect(ext(f->dir, 2, "w.bin", "9223372036854775807", "8", &t, msg), OSC_ERR_MODEL, msg,
              "offset 9223372036854775807 + length 8 overflows");
    lu_expect(ext(f->dir, 2, "w.bin", "99999999999999999999", "8", &t, msg), OSC_ERR_MODEL, msg,
              "offset '99999999999999999999' is not an integer");
    lu_expect(ext(f->dir, 2, "w.bin", "-4", "8", &t, msg), OSC_ERR_MODEL, msg,
              "offset '-4' is not an integer");
    lu_expect(ext(f->dir, 2, "w.bin", "0", "8x", &t, msg), OSC_ERR_MODEL, msg,
              "length '8x' is not an integer");
    lu_expect(ext(f->dir, 2, "w.bin", "0", "4", &t, msg), OSC_ERR_MODEL, msg,
              "initializer 'ext'", "has 4 bytes; expected 8");
    lu_expect(ext(f->dir, 2, "w.bin", NULL, NULL, &t, msg), OSC_ERR_MODEL, msg,
              "has 16 bytes; expected 8");
}

/* External data of every dtype is little-endian: each scalar in the machine's order once loaded
 * (3 elements read; and 1 MiB of float16, which a little-endian machine maps). */
static void test_every_dtype_byte_order(void **state) {
    fixture *f = *state;
    char p[512], msg[OSC_MSG_SIZE];
    const size_t big = (size_t)1 << 20;
    uint8_t *bytes = malloc(big), *want = malloc(big);
    assert_non_null(bytes);
    assert_non_null(want);
    for (size_t i = 0; i < big; i++) bytes[i] = (uint8_t)(i * 37 + 1);
    snprintf(p, sizeof p, "%s/all.bin", f->dir);
    lu_write_file(p, bytes, big);
    for (int32_t dt = 1; dt < OSC_DTYPE_COUNT; dt++) {
        if (dt == OSC_STRING || dt == OSC_BOOL) continue; /* never external; one byte of 0/1 */
        size_t nb;
        assert_true(osc_dtype_bytes(dt, 3, &nb));
        char len[16];
        snprintf(len, sizeof len, "%zu", nb);
        osc_tensor t;
        lu_expect(ext_dt(f->dir, dt, 3, "all.bin", "0", len, &t, msg), OSC_OK, msg, "");
        memcpy(want, bytes, nb);
        osc_le_swap(dt, want, nb);
        assert_int_equal(t.nbytes, nb);
        if (memcmp(t.data, want, nb)) fail_msg("%s: not in the machine's order", osc_dtype_name(dt));
        free(t.data);
    }
    osc_tensor t;
    lu_expect(ext_dt(f->dir, OSC_FLOAT16, (int64_t)big / 2, "all.bin", "0", NULL, &t, msg),
              OSC_OK, msg, "");
    memcpy(want, bytes, big);
    osc_le_swap(OSC_FLOAT16, want, big);
    assert_int_equal(t.nbytes, big);
    assert_memory_equal(t.data, want, big);
    free(t.data);
    free(bytes);
    free(want);
}

/* Offsets past 2 GiB and 4 GiB of a sparse file: off_t, stat and pread of 64 bits on every
 * machine (_FILE_OFFSET_BITS=64 on 32-bit ones). A range whose bytes do not fit size_t is a
 * limit there; a 64-bit machine reaches the length check instead. */
static void test_offsets_past_4gib(void **state) {
    fixture *f = *state;
    char p[512], off[32], msg[OSC_MSG_SIZE];
    snprintf(p, sizeof p, "%s/big.bin", f->dir);
    int fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    assert_true(fd >= 0);
    uint8_t bytes[16];
    for (int i = 0; i < 16; i++) bytes[i] = (uint8_t)(i + 1);
    const int64_t at[2] = {((int64_t)1 << 31) + 16, ((int64_t)1 << 32) + 32};
    for (int k = 0; k < 2; k++) assert_int_equal(pwrite(fd, bytes, 16, (off_t)at[k]), 16);
    assert_int_equal(close(fd), 0);
    osc_tensor t;
    for (int k = 0; k < 2; k++) {
        snprintf(off, sizeof off, "%lld", (long long)at[k]);
        lu_expect(ext(f->dir, 4, "big.bin", off, "16", &t, msg), OSC_OK, msg, "");
        check_range(&t, 1, 16);
        free(t.data);
    }
    /* the file's size (2^32 + 48) is read whole, not wrapped */
    lu_expect(ext(f->dir, 4, "big.bin", "6442450944", "16", &t, msg), OSC_ERR_MODEL, msg,
              "[6442450944, 6442450960)", "past the end", "(4294967344 bytes)");
    /* 2^30 floats: 4 GiB */
    osc_status st = ext(f->dir, (int64_t)1 << 30, "big.bin", "0", NULL, &t, msg);
    if (SIZE_MAX <= UINT32_MAX)
        lu_expect(st, OSC_ERR_LIMIT, msg, "initializer 'ext'", "4294967296 bytes", "size_t");
    else
        lu_expect(st, OSC_ERR_MODEL, msg, "has 4294967344 bytes; expected 4294967296");
    unlink(p);
}

/* External data and in-message data together are ambiguous; strings cannot be external. */
static void test_refused_mixtures(void **state) {
    fixture *f = *state;
    Onnx__StringStringEntryProto kv, *kvs[1] = {&kv};
    onnx__string_string_entry_proto__init(&kv);
    kv.key = "location", kv.value = "w.bin";
    int64_t dims[1] = {4};
    uint8_t raw[16] = {0};
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.name = "ext", tp.has_data_type = 1, tp.data_type = OSC_FLOAT, tp.n_dims = 1, tp.dims = dims;
    tp.has_data_location = 1, tp.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    tp.n_external_data = 1, tp.external_data = kvs;
    tp.has_raw_data = 1, tp.raw_data.len = 16, tp.raw_data.data = raw;
    lu_mp mp;
    lu_mp_init(&mp);
    Onnx__TensorProto *inits[1] = {&tp};
    mp.graph.n_initializer = 1, mp.graph.initializer = inits;
    size_t len;
    void *buf = lu_pack(&mp.model.base, &len);
    lu_model m;
    lu_expect(lu_parse(&m, buf, len, f->dir), OSC_ERR_MODEL, m.err.msg, "initializer 'ext'",
              "external data and also raw_data");
    lu_model_free(&m);
    free(buf);

    tp.has_raw_data = 0, tp.data_type = OSC_STRING;
    buf = lu_pack(&mp.model.base, &len);
    lu_expect(lu_parse(&m, buf, len, f->dir), OSC_ERR_MODEL, m.err.msg,
              "string tensors must use string_data");
    lu_model_free(&m);
    free(buf);
}

/* Through the model loader: base_dir reaches the initializer; without it, refused. */
static void test_model_base_dir(void **state) {
    fixture *f = *state;
    Onnx__StringStringEntryProto kv[3], *kvs[3] = {&kv[0], &kv[1], &kv[2]};
    const char *k[3] = {"location", "offset", "length"}, *v[3] = {"w.bin", "8", "8"};
    for (int i = 0; i < 3; i++) {
        onnx__string_string_entry_proto__init(&kv[i]);
        kv[i].key = (char *)k[i], kv[i].value = (char *)v[i];
    }
    int64_t dims[1] = {2};
    Onnx__TensorProto tp;
    onnx__tensor_proto__init(&tp);
    tp.name = "w", tp.has_data_type = 1, tp.data_type = OSC_INT32, tp.n_dims = 1, tp.dims = dims;
    tp.has_data_location = 1, tp.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    tp.n_external_data = 3, tp.external_data = kvs;
    lu_mp mp;
    lu_mp_init(&mp);
    Onnx__TensorProto *inits[1] = {&tp};
    mp.graph.n_initializer = 1, mp.graph.initializer = inits;
    size_t len;
    void *buf = lu_pack(&mp.model.base, &len);
    lu_model m;
    lu_expect(lu_parse(&m, buf, len, f->dir), OSC_OK, m.err.msg, "");
    const osc_tensor *t = m.g.values[0].init;
    check_range(t, 8, 8);
    lu_model_free(&m);
    lu_expect(lu_parse(&m, buf, len, NULL), OSC_ERR_MODEL, m.err.msg, "initializer 'w'",
              "refused");
    lu_model_free(&m);
    free(buf);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test_setup_teardown(test_good, setup, teardown),
    cmocka_unit_test_setup_teardown(test_refused_locations, setup, teardown),
    cmocka_unit_test_setup_teardown(test_refused_ranges, setup, teardown),
    cmocka_unit_test_setup_teardown(test_offsets_past_4gib, setup, teardown),
    cmocka_unit_test_setup_teardown(test_every_dtype_byte_order, setup, teardown),
    cmocka_unit_test_setup_teardown(test_refused_mixtures, setup, teardown),
    cmocka_unit_test_setup_teardown(test_model_base_dir, setup, teardown),
)
