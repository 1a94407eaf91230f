/* test_cli_npy.c: unit tests of .npy reading and writing (tools/npy.c) against hand-written bytes. */
/* The expected headers are written out here, not produced by the code under test: np.save
 * writes magic, version 1.0, a little-endian u16 length, the dict with sorted keys, 21 minus
 * the digits of dim 0 blanks (room to grow), then blanks and '\n' up to a multiple of 64. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "core/dtype.h"
#include "tests/support/check.h"

/* A .npy file assembled by hand: magic, version, header length, dict, blanks, '\n', data. */
typedef struct file {
    unsigned char b[4096];
    size_t n;
} file;

static void put(file *f, const void *p, size_t n) {
    memcpy(f->b + f->n, p, n);
    f->n += n;
}

/* Header of format `major` whose dict is followed by blanks up to `total` bytes (with '\n'). */
static void header(file *f, int major, const char *dict, size_t total) {
    size_t pre = major == 1 ? 10 : 12, hlen = total - pre;
    f->n = 0;
    put(f, "\x93NUMPY", 6);
    f->b[f->n++] = (unsigned char)major;
    f->b[f->n++] = 0;
    for (size_t k = 0; k < pre - 8; k++) f->b[f->n++] = (unsigned char)(hlen >> (8 * k));
    put(f, dict, strlen(dict));
    while (f->n < total - 1) f->b[f->n++] = ' ';
    f->b[f->n++] = '\n';
}

/* n bytes of dtype elements in the machine's order, appended little-endian (as '<' says). */
static void put_le(file *f, int32_t dtype, const void *p, size_t n) {
    put(f, p, n);
    osc_le_swap(dtype, f->b + f->n - n, n);
}

static char g_msg[512];

static osc_tensor decode_ok(const file *f) {
    osc_tensor t;
    if (cli_npy_decode(f->b, f->n, &t, g_msg, sizeof g_msg)) fail_msg("decode: %s", g_msg);
    return t;
}

static void expect_bytes(const void *got, size_t got_n, const void *want, size_t want_n) {
    if (got_n != want_n) fail_msg("%zu bytes, expected %zu", got_n, want_n);
    const unsigned char *g = got, *w = want;
    for (size_t i = 0; i < want_n; i++)
        if (g[i] != w[i]) fail_msg("byte %zu is 0x%02x, expected 0x%02x ('%c')", i, g[i], w[i], w[i]);
}

/* Every numeric dtype numpy has: np.save of a (2, 3) array gives this header and the raw
 * little-endian bytes; reading it back gives the same tensor. */
static void test_every_dtype_round_trip(void **state) {
    (void)state;
    static const struct { int32_t dtype; const char *descr; size_t size; } cases[] = {
        {OSC_BOOL, "|b1", 1},     {OSC_INT8, "|i1", 1},     {OSC_UINT8, "|u1", 1},
        {OSC_INT16, "<i2", 2},    {OSC_UINT16, "<u2", 2},   {OSC_INT32, "<i4", 4},
        {OSC_UINT32, "<u4", 4},   {OSC_INT64, "<i8", 8},    {OSC_UINT64, "<u8", 8},
        {OSC_FLOAT16, "<f2", 2},  {OSC_FLOAT, "<f4", 4},    {OSC_DOUBLE, "<f8", 8},
        {OSC_COMPLEX64, "<c8", 8}, {OSC_COMPLEX128, "<c16", 16},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        unsigned char data[6 * 16];
        for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)(i * 37 + c);
        if (cases[c].dtype == OSC_BOOL)
            for (size_t i = 0; i < 6; i++) data[i] = i % 2;
        osc_tensor t = {.dtype = cases[c].dtype, .rank = 2, .dims = {2, 3}, .data = data,
                        .nbytes = 6 * cases[c].size};
        char dict[128];
        file want;
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (2, 3), }",
                 cases[c].descr);
        header(&want, 1, dict, 128);
        put_le(&want, cases[c].dtype, data, t.nbytes);
        void *buf;
        size_t len;
        assert_int_equal(cli_npy_encode(&t, &buf, &len, g_msg, sizeof g_msg), 0);
        expect_bytes(buf, len, want.b, want.n);
        free(buf);
        osc_tensor back = decode_ok(&want);
        assert_int_equal(back.dtype, cases[c].dtype);
        assert_int_equal(back.rank, 2);
        assert_true(back.dims[0] == 2 && back.dims[1] == 3);
        expect_bytes(back.data, back.nbytes, data, t.nbytes);
        free(back.data);
    }
}

static void test_scalar_and_vector_headers(void **state) {
    (void)state;
    const int64_t v[] = {7, -1, 3};
    void *buf;
    size_t len;
    file want;
    osc_tensor s = {.dtype = OSC_INT64, .rank = 0, .data = (void *)v, .nbytes = 8};
    assert_int_equal(cli_npy_encode(&s, &buf, &len, g_msg, sizeof g_msg), 0);
    header(&want, 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }", 128);
    put_le(&want, OSC_INT64, v, 8);
    expect_bytes(buf, len, want.b, want.n); /* no growth blanks without a dim 0 */
    free(buf);
    osc_tensor t = {.dtype = OSC_INT64, .rank = 1, .dims = {3}, .data = (void *)v, .nbytes = 24};
    assert_int_equal(cli_npy_encode(&t, &buf, &len, g_msg, sizeof g_msg), 0);
    header(&want, 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", 128);
    put_le(&want, OSC_INT64, v, 24);
    expect_bytes(buf, len, want.b, want.n);
    /* the growth blanks are really there: 21 - 1 of them right after the dict */
    assert_memory_equal((char *)buf + 10 + 57, "                    \n", 20);
    free(buf);
    /* exactly 21 - digits growth blanks: here they make dict + '\n' end on byte 128, and numpy
     * then pads a whole 64 more (its pad is 64 - len % 64), so the header takes 192 bytes */
    float hundred[100] = {0};
    osc_tensor r14 = {.dtype = OSC_FLOAT, .rank = 14, .data = hundred, .nbytes = sizeof hundred};
    for (int d = 0; d < 13; d++) r14.dims[d] = 1;
    r14.dims[13] = 100;
    assert_int_equal(cli_npy_encode(&r14, &buf, &len, g_msg, sizeof g_msg), 0);
    header(&want, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, "
                     "1, 1, 100), }", 192);
    put_le(&want, OSC_FLOAT, hundred, sizeof hundred);
    expect_bytes(buf, len, want.b, want.n);
    free(buf);
    /* an empty (0, 5) tensor has a header and no data */
    osc_tensor e = {.dtype = OSC_FLOAT, .rank = 2, .dims = {0, 5}, .data = (void *)v, .nbytes = 0};
    assert_int_equal(cli_npy_encode(&e, &buf, &len, g_msg, sizeof g_msg), 0);
    header(&want, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }", 128);
    expect_bytes(buf, len, want.b, want.n);
    osc_tensor back = decode_ok(&want);
    assert_true(back.rank == 2 && back.dims[0] == 0 && back.dims[1] == 5 && back.nbytes == 0);
    free(back.data);
    free(buf);
}

static void test_big_endian(void **state) {
    (void)state;
    file f;
    header(&f, 1, "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", 128);
    put(&f, "\x00\x00\x01\x02\xff\xff\xff\xfe", 8);
    osc_tensor t = decode_ok(&f);
    assert_int_equal(t.dtype, OSC_INT32);
    assert_int_equal(((int32_t *)t.data)[0], 0x102);
    assert_int_equal(((int32_t *)t.data)[1], -2);
    free(t.data);
    /* complex: each part swapped on its own */
    header(&f, 1, "{'descr': '>c8', 'fortran_order': False, 'shape': (1,), }", 128);
    put(&f, "\x3f\x80\x00\x00\xc0\x00\x00\x00", 8); /* 1 - 2j */
    t = decode_ok(&f);
    assert_true(((float *)t.data)[0] == 1.0f && ((float *)t.data)[1] == -2.0f);
    free(t.data);
    header(&f, 1, "{'descr': '>f2', 'fortran_order': False, 'shape': (1,), }", 128);
    put(&f, "\x3c\x00", 2);
    t = decode_ok(&f);
    assert_int_equal(((uint16_t *)t.data)[0], 0x3C00);
    free(t.data);
}

/* The same values from either byte order, written out byte by byte: '<' and '>' read alike on
 * every machine, and '=' (or no order) is the machine's own. */
static void test_either_byte_order(void **state) {
    (void)state;
    static const struct { const char *le, *be, *lb, *bb; size_t n; int count; } cases[] = {
        {"<i4", ">i4", "\x02\x01\x00\x00\xfe\xff\xff\xff", "\x00\x00\x01\x02\xff\xff\xff\xfe", 8, 2},
        {"<u2", ">u2", "\x02\x01\xff\x00", "\x01\x02\x00\xff", 4, 2},
        {"<f8", ">f8", "\x00\x00\x00\x00\x00\x00\x04\xc0", "\xc0\x04\x00\x00\x00\x00\x00\x00", 8, 1},
        {"<c8", ">c8", "\x00\x00\x80\x3f\x00\x00\x00\xc0", "\x3f\x80\x00\x00\xc0\x00\x00\x00", 8, 1},
        {"<f2", ">f2", "\x00\x3c\x00\xc0", "\x3c\x00\xc0\x00", 4, 2},
        {"<U2", ">U2", "a\0\0\0\xe9\0\0\0", "\0\0\0a\0\0\0\xe9", 8, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        file f;
        char dict[128];
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }",
                 cases[c].le, cases[c].count);
        header(&f, 1, dict, 128);
        put(&f, cases[c].lb, cases[c].n);
        osc_tensor a = decode_ok(&f);
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }",
                 cases[c].be, cases[c].count);
        header(&f, 1, dict, 128);
        put(&f, cases[c].bb, cases[c].n);
        osc_tensor b = decode_ok(&f);
        assert_int_equal(a.dtype, b.dtype);
        if (a.dtype == OSC_STRING) {
            const osc_string *x = a.data, *y = b.data;
            assert_int_equal(x->len, 3); /* "a" and U+00E9 in UTF-8 */
            assert_memory_equal(x->ptr, "a\xc3\xa9", 3);
            assert_int_equal(y->len, 3);
            assert_memory_equal(y->ptr, "a\xc3\xa9", 3);
        } else {
            expect_bytes(a.data, a.nbytes, b.data, b.nbytes);
        }
        free(a.data);
        free(b.data);
    }
    /* the values themselves, in the machine's order */
    file f;
    header(&f, 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", 128);
    put(&f, "\x02\x01\x00\x00\xfe\xff\xff\xff", 8);
    osc_tensor t = decode_ok(&f);
    assert_int_equal(((int32_t *)t.data)[0], 0x102);
    assert_int_equal(((int32_t *)t.data)[1], -2);
    free(t.data);
    const double d = -2.5;
    header(&f, 1, "{'descr': '=f8', 'fortran_order': False, 'shape': (1,), }", 128);
    put(&f, &d, 8);
    t = decode_ok(&f);
    assert_true(((double *)t.data)[0] == -2.5);
    free(t.data);
}

static void test_fortran_order(void **state) {
    (void)state;
    file f;
    /* a = [[1, 2, 3], [4, 5, 6]] in Fortran order is stored column by column */
    const int16_t cols[] = {1, 4, 2, 5, 3, 6}, rows[] = {1, 2, 3, 4, 5, 6};
    header(&f, 1, "{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3), }", 128);
    put_le(&f, OSC_INT16, cols, sizeof cols);
    osc_tensor t = decode_ok(&f);
    expect_bytes(t.data, t.nbytes, rows, sizeof rows);
    free(t.data);
    /* rank 3, shape (2, 2, 2): element [i][j][k] at i + 2j + 4k */
    int32_t fv[8], cv[8];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 2; k++) fv[i + 2 * j + 4 * k] = cv[4 * i + 2 * j + k] = 100 * i + 10 * j + k;
    header(&f, 1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 2, 2), }", 128);
    put_le(&f, OSC_INT32, fv, sizeof fv);
    t = decode_ok(&f);
    expect_bytes(t.data, t.nbytes, cv, sizeof cv);
    free(t.data);
}

static void test_versions_2_and_3(void **state) {
    (void)state;
    file f;
    const float v[] = {1.5f, -2};
    for (int major = 2; major <= 3; major++) {
        header(&f, major, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 128);
        put_le(&f, OSC_FLOAT, v, sizeof v);
        osc_tensor t = decode_ok(&f);
        expect_bytes(t.data, t.nbytes, v, sizeof v);
        free(t.data);
    }
    /* keys in another order, double quotes, no trailing comma, a Python 2 long: all numpy-valid */
    header(&f, 1, "{\"shape\": (2L,), \"fortran_order\": False, \"descr\": \"<f4\"}", 128);
    put_le(&f, OSC_FLOAT, v, sizeof v);
    osc_tensor t = decode_ok(&f);
    assert_true(t.rank == 1 && t.dims[0] == 2);
    free(t.data);
}

static void test_strings(void **state) {
    (void)state;
    file f;
    /* '<U2': UTF-32LE code units, trailing NULs dropped: ["é", "a😀"] */
    header(&f, 1, "{'descr': '<U2', 'fortran_order': False, 'shape': (2,), }", 128);
    put(&f, "\xe9\x00\x00\x00\x00\x00\x00\x00" "a\x00\x00\x00\x00\xf6\x01\x00", 16);
    osc_tensor t = decode_ok(&f);
    const osc_string *s = t.data;
    assert_int_equal(t.dtype, OSC_STRING);
    assert_true(s[0].len == 2 && !memcmp(s[0].ptr, "\xc3\xa9", 2));
    assert_true(s[1].len == 5 && !memcmp(s[1].ptr, "a\xf0\x9f\x98\x80", 5));
    /* written back: the same bytes (the widest string has 2 code points) */
    void *buf;
    size_t len;
    assert_int_equal(cli_npy_encode(&t, &buf, &len, g_msg, sizeof g_msg), 0);
    expect_bytes(buf, len, f.b, f.n);
    free(buf);
    free(t.data);
    /* '|S3' bytes and big-endian '>U1' */
    header(&f, 1, "{'descr': '|S3', 'fortran_order': False, 'shape': (2,), }", 128);
    put(&f, "ab\0xyz", 6);
    t = decode_ok(&f);
    s = t.data;
    assert_true(s[0].len == 2 && !memcmp(s[0].ptr, "ab", 2) && s[1].len == 3);
    free(t.data);
    header(&f, 1, "{'descr': '>U1', 'fortran_order': False, 'shape': (1,), }", 128);
    put(&f, "\x00\x00\x00z", 4);
    t = decode_ok(&f);
    s = t.data;
    assert_true(s[0].len == 1 && s[0].ptr[0] == 'z');
    free(t.data);
    /* empty strings still give '<U1' (numpy's narrowest), invalid UTF-8 cannot be written */
    osc_string e[] = {{"", 0}}, bad[] = {{"\xff", 1}};
    osc_tensor te = {.dtype = OSC_STRING, .rank = 1, .dims = {1}, .data = e, .nbytes = sizeof e};
    assert_int_equal(cli_npy_encode(&te, &buf, &len, g_msg, sizeof g_msg), 0);
    assert_non_null(strstr((char *)buf + 10, "'<U1'"));
    free(buf);
    te.data = bad;
    assert_int_equal(cli_npy_encode(&te, &buf, &len, g_msg, sizeof g_msg), 1);
    assert_non_null(strstr(g_msg, "not valid UTF-8"));
}

static void test_unrepresentable(void **state) {
    (void)state;
    const uint16_t v[] = {0x3F80};
    void *buf;
    size_t len;
    osc_tensor t = {.dtype = OSC_BFLOAT16, .rank = 1, .dims = {1}, .data = (void *)v, .nbytes = 2};
    assert_int_equal(cli_npy_encode(&t, &buf, &len, g_msg, sizeof g_msg), 1);
    assert_string_equal(g_msg, "numpy has no bfloat16 dtype");
    assert_false(cli_npy_supports(OSC_BFLOAT16));
    assert_false(cli_npy_supports(OSC_FLOAT8E4M3FN));
    assert_true(cli_npy_supports(OSC_FLOAT16) && cli_npy_supports(OSC_STRING));
}

/* Malformed files: each is refused with a message that says what is wrong. */
static void test_malformed(void **state) {
    (void)state;
    static const struct { const char *dict; size_t data; const char *want; } bad[] = {
        {"{'descr': '<f4', 'fortran_order': False}", 0, "no 'shape' key"},
        {"{'descr': '<f4', 'shape': (1,)}", 4, "no 'fortran_order' key"},
        {"{'fortran_order': False, 'shape': (1,)}", 4, "no 'descr' key"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", 4, "unknown key"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 4, "a key appears twice"},
        {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (1,)}", 4, "fortran_order must be True or False"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", 0, "negative dim"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3)}", 12, "not a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [3]}", 12, "shape must be a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", 0,
         "a shape dim is larger than int64 allows (9223372036854775807)"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775808,)}", 0,
         "larger than int64 allows"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775807,)}", 0,
         "shape [9223372036854775807] of '<f4' needs more than 2^64 bytes"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 2)}", 0,
         "has more elements than int64 holds"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000000000,)}", 0,
         "data is 0 bytes but shape [1000000000000000000] of '<f4' needs 4000000000000000000"},
        {"{'descr': '<f16', 'fortran_order': False, 'shape': (1,)}", 16, "long double"},
        {"{'descr': '|O', 'fortran_order': False, 'shape': (1,)}", 8, "Python objects"},
        {"{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (1,)}", 8, "datetime"},
        {"{'descr': '|V2', 'fortran_order': False, 'shape': (1,)}", 2, "raw bytes"},
        {"{'descr': '<x4', 'fortran_order': False, 'shape': (1,)}", 4, "not a dtype"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", 4, "structured"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", 4, "the file is truncated"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 8, "data is 8 bytes but shape [1]"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} x", 4, "after the closing"},
        {"['descr']", 0, "expected a dict"},
        {"{'descr: '<f4'}", 0, "expected ':'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,)", 4, "expected ',' or '}'"},
        {"{'descr': '<f4' 'fortran_order': False}", 4, "expected ',' or '}'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        file f;
        osc_tensor t;
        header(&f, 1, bad[i].dict, 128);
        memset(f.b + f.n, 0, bad[i].data);
        f.n += bad[i].data;
        g_msg[0] = '\0';
        if (!cli_npy_decode(f.b, f.n, &t, g_msg, sizeof g_msg)) fail_msg("accepted: %s", bad[i].dict);
        if (!strstr(g_msg, bad[i].want)) fail_msg("%s: message '%s' lacks '%s'", bad[i].dict, g_msg, bad[i].want);
        assert_null(t.data);
    }
    /* broken framing */
    osc_tensor t;
    /* dims past 9.2e17 are fine when the tensor is (an empty one here) ... */
    file e;
    header(&e, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (930000000000000000, 0), }", 128);
    if (cli_npy_decode(e.b, e.n, &t, g_msg, sizeof g_msg)) fail_msg("refused: %s", g_msg);
    assert_int_equal(t.dims[0], 930000000000000000LL);
    free(t.data);
    /* ... and what refuses a large shape is the byte limit, before allocating */
    header(&e, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000000000,), }", 128);
    assert_int_equal(cli_npy_decode_max(e.b, e.n, 1 << 20, &t, g_msg, sizeof g_msg), 1);
    if (!strstr(g_msg, ".npy shape [1000000000000000000] of '<f4' makes a tensor of "
                       "4000000000000000000 bytes, over the byte limit of 1048576 bytes (opts.max_bytes)"))
        fail_msg("message: %s", g_msg);
    assert_null(t.data);
    header(&e, 1, "{'descr': '|S1', 'fortran_order': False, 'shape': (3000,), }", 128);
    memset(e.b + e.n, 'a', 3000);
    e.n += 3000; /* 3000 bytes of data, but an osc_string and a byte an element once decoded
                  * (17 bytes on a 64-bit machine, 9 on a 32-bit one) */
    const size_t decoded = 3000 * (sizeof(osc_string) + 1), cap = 3000 * sizeof(osc_string);
    char want[128];
    snprintf(want, sizeof want, "makes a tensor of %zu bytes, over the byte limit of %zu bytes",
             decoded, cap);
    assert_int_equal(cli_npy_decode_max(e.b, e.n, cap, &t, g_msg, sizeof g_msg), 1);
    if (!strstr(g_msg, want)) fail_msg("message: %s", g_msg);
    assert_int_equal(cli_npy_decode("PK\x03\x04 zip", 8, &t, g_msg, sizeof g_msg), 1);
    assert_non_null(strstr(g_msg, "not a .npy file"));
    assert_int_equal(cli_npy_decode("\x93NUMPY\x01", 7, &t, g_msg, sizeof g_msg), 1);
    assert_non_null(strstr(g_msg, "ends inside the .npy header"));
    assert_int_equal(cli_npy_decode("\x93NUMPY\x04\x00\x10\x00{}", 12, &t, g_msg, sizeof g_msg), 1);
    assert_non_null(strstr(g_msg, "version 4.0 is unknown"));
    assert_int_equal(cli_npy_decode("\x93NUMPY\x01\x00\xff\x00{}", 12, &t, g_msg, sizeof g_msg), 1);
    assert_non_null(strstr(g_msg, "header length 255 runs past the end of the file (12 bytes)"));
    file f;
    header(&f, 1, "{'descr': '<U1', 'fortran_order': False, 'shape': (1,), }", 128);
    put(&f, "\x00\xd8\x00\x00", 4); /* a lone surrogate */
    assert_int_equal(cli_npy_decode(f.b, f.n, &t, g_msg, sizeof g_msg), 1);
    assert_non_null(strstr(g_msg, "invalid code point"));
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_every_dtype_round_trip),
    cmocka_unit_test(test_scalar_and_vector_headers),
    cmocka_unit_test(test_big_endian),
    cmocka_unit_test(test_fortran_order),
    cmocka_unit_test(test_either_byte_order),
    cmocka_unit_test(test_versions_2_and_3),
    cmocka_unit_test(test_strings),
    cmocka_unit_test(test_unrepresentable),
    cmocka_unit_test(test_malformed),
)
