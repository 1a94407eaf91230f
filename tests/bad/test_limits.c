/* test_limits.c: resource limits (options, defaults, byte cap, nodes, rank, string length), each
 * refused with OSC_ERR_LIMIT and a message naming the limit; memory-mapped external data; files
 * that are not regular files; the pool's cleanups; the refusal of many unknown ops at once. */
#define _XOPEN_SOURCE 700 /* mkdtemp, mkfifo, nftw */
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/support/models.h"
#include "tests/support/mw_check.h"
#include "tests/support/testutil.h"
#include "onnx.pb-c.h"
#include "onnx_scatter.h"
#include "core/common.h"
#include "tests/support/check.h"

static char g_msg[OSC_MESSAGE_SIZE];

/* Serializes mw (asserting success) and frees it. */
static osc_status load(const void *buf, size_t len, const osc_options *o, osc_model **m) {
    return osc_model_load_buffer(buf, len, NULL, o, m, g_msg, sizeof g_msg);
}

/* Fails unless g_msg contains needle. */
static void msg_has(const char *needle) {
    if (!strstr(g_msg, needle)) fail_msg("message '%s' lacks '%s'", g_msg, needle);
}

/* x[2] -> n Neg nodes -> y. */
static void *neg_chain(int n, size_t *len) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    const int64_t d[1] = {2};
    osc_mw_input(mw, "x", OSC_FLOAT, 1, d, NULL);
    char prev[32] = "x", cur[32];
    for (int i = 0; i < n; i++) {
        snprintf(cur, sizeof cur, i == n - 1 ? "y" : "v%d", i);
        const char *in[1] = {prev}, *out[1] = {cur};
        osc_mw_node(mw, "Neg", NULL, 1, in, 1, out);
        memcpy(prev, cur, sizeof prev);
    }
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d, NULL);
    return osc_check_serialize(mw, len);
}

static void options_are_checked(void **state) {
    (void)state;
    size_t len;
    void *buf = neg_chain(2, &len);
    osc_options o;
    osc_model *m;
    osc_options_init(&o);
    o.max_nodes = -1;
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_ARG);
    msg_has("opts.max_nodes is -1");
    osc_options_init(&o);
    o.max_rank = OSC_MAX_RANK + 1;
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_ARG);
    msg_has("opts.max_rank is 33");
    osc_options_init(&o);
    o.reserved[0] = 1;
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_ARG);
    msg_has("opts.reserved[0] is 1");
    /* the same checks before a file is read */
    osc_options_init(&o);
    o.max_rank = 200;
    assert_int_equal(osc_model_load_file("/nonexistent", &o, &m, g_msg, sizeof g_msg), OSC_ERR_ARG);
    free(buf);
}

static void defaults(void **state) {
    (void)state;
    osc_limits lim;
    osc_err err = {0};
    assert_int_equal(osc_limits_resolve(NULL, &lim, &err), OSC_OK);
    assert_int_equal(lim.max_nodes, OSC_DEFAULT_MAX_NODES);
    assert_int_equal(lim.max_rank, OSC_MAX_RANK);
    assert_int_equal(lim.max_string, (uint64_t)OSC_DEFAULT_MAX_STRING_MIB << 20);
    /* the default cap: half of physical memory at most, and on (this machine has memory) */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    assert_true(lim.max_bytes > 0);
    assert_true(lim.max_bytes <= (uint64_t)pages * (uint64_t)page / 2);
    assert_int_equal(lim.max_bytes, osc_default_max_bytes());
    osc_options o;
    osc_options_init(&o);
    o.max_bytes = OSC_NO_LIMIT;
    o.max_nodes = 7;
    o.max_rank = 3;
    o.max_string_mib = 2;
    assert_int_equal(osc_limits_resolve(&o, &lim, &err), OSC_OK);
    assert_int_equal(lim.max_bytes, 0); /* no cap */
    assert_int_equal(lim.max_nodes, 7);
    assert_int_equal(lim.max_rank, 3);
    assert_int_equal(lim.max_string, (uint64_t)2 << 20);
    /* the model keeps the options as given: 0 stays 0 (the default is resolved at each load) */
    size_t len;
    void *buf = neg_chain(2, &len);
    osc_model *m;
    assert_int_equal(load(buf, len, NULL, &m), OSC_OK);
    osc_options got;
    assert_int_equal(osc_model_options(m, &got), OSC_OK);
    assert_int_equal(got.max_bytes, 0);
    osc_model_free(m);
    free(buf);
}

static void max_nodes(void **state) {
    (void)state;
    size_t len;
    void *buf = neg_chain(10, &len);
    osc_options o;
    osc_options_init(&o);
    o.max_nodes = 9;
    osc_model *m;
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_LIMIT);
    msg_has("graph has 10 nodes; the limit is 9 (opts.max_nodes)");
    assert_null(m);
    o.max_nodes = 10;
    assert_int_equal(load(buf, len, &o, &m), OSC_OK);
    osc_model_free(m);
    free(buf);
}

/* Many distinct unknown ops are refused with one message that counts them and lists some (its
 * time, linear in the nodes, is checked as a ratio by tests/bad/test_scaling.c). */
static void many_unknown_ops_named(void **state) {
    (void)state;
    osc_mw *mw = osc_test_unknown_ops_model(40000);
    size_t len;
    void *buf = osc_check_serialize(mw, &len);
    osc_model *m;
    assert_int_equal(load(buf, len, NULL, &m), OSC_ERR_UNSUPPORTED);
    msg_has("40000 of 40000 node(s) without a kernel (0 supported); also unsupported: Op1-18");
    free(buf);
}

static void max_rank(void **state) {
    (void)state;
    osc_options o;
    osc_options_init(&o);
    o.max_rank = 2;
    osc_model *m;
    size_t len;
    /* a declared input of rank 3 */
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    const int64_t d3[3] = {1, 2, 3};
    osc_mw_input(mw, "x", OSC_FLOAT, 3, d3, NULL);
    osc_mw_node(mw, "Neg", "n", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    void *buf = osc_check_serialize(mw, &len);
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_LIMIT);
    msg_has("graph input 'x' has rank 3; the limit is 2 (opts.max_rank)");
    o.max_rank = 3;
    assert_int_equal(load(buf, len, &o, &m), OSC_OK);
    osc_model_free(m);
    free(buf);
    /* an initializer of rank 3 */
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    float w[6] = {0};
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = 3, .dims = {1, 2, 3}, .data = w,
                    .nbytes = sizeof w};
    osc_mw_initializer(mw, "w", &t);
    osc_mw_input(mw, "x", OSC_FLOAT, -1, NULL, NULL);
    osc_mw_node(mw, "Add", "a", 2, (const char *[]){"w", "x"}, 1, (const char *[]){"y"});
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    buf = osc_check_serialize(mw, &len);
    o.max_rank = 2;
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_LIMIT);
    msg_has("initializer 'w': rank 3 exceeds the limit of 2 (opts.max_rank)");
    /* rank 3 allowed: the input of unknown rank is bound with rank 3, then with rank 4 over a
     * limit of 3; a rank-4 sum is inferred at run over the limit too (broadcasting w) */
    o.max_rank = 3;
    assert_int_equal(load(buf, len, &o, &m), OSC_OK);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x4[6] = {0};
    osc_tensor in = {.dtype = OSC_FLOAT, .rank = 4, .dims = {1, 1, 2, 3}, .data = x4,
                     .nbytes = sizeof x4};
    assert_int_equal(osc_session_set_input(s, "x", &in), OSC_ERR_LIMIT);
    assert_non_null(strstr(osc_session_error(s), "rank 4; the limit is 3 (opts.max_rank)"));
    in.rank = 3;
    memcpy(in.dims, (int64_t[]){1, 2, 3}, 3 * sizeof(int64_t));
    assert_int_equal(osc_session_set_input(s, "x", &in), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_session_free(s);
    osc_model_free(m);
    o.max_rank = 2; /* and a rank the run's inference computes */
    free(buf);
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    const int64_t d2[2] = {2, 3};
    osc_mw_input(mw, "x", OSC_FLOAT, 2, d2, NULL);
    int64_t axes[1] = {0};
    osc_tensor ax = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = axes,
                     .nbytes = sizeof axes};
    osc_mw_initializer(mw, "axes", &ax);
    osc_mw_node(mw, "Unsqueeze", "u", 2, (const char *[]){"x", "axes"}, 1, (const char *[]){"y"});
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    buf = osc_check_serialize(mw, &len);
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_LIMIT);
    msg_has("output 'y' has rank 3; the limit is 2 (opts.max_rank)");
    free(buf);
}

/* A one-string initializer of n bytes of 'a', returned through Identity. */
static void *string_model(size_t n, size_t *len) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    char *bytes = malloc(n + 1);
    memset(bytes, 'a', n);
    osc_string s = {bytes, n};
    osc_tensor t = {.dtype = OSC_STRING, .rank = 1, .dims = {1}, .data = &s, .nbytes = sizeof s};
    osc_mw_initializer(mw, "s", &t);
    osc_mw_input(mw, "x", OSC_STRING, 1, (const int64_t[]){1}, NULL);
    osc_mw_node(mw, "Identity", "i", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    osc_mw_output(mw, "y", OSC_STRING, -1, NULL, NULL);
    osc_mw_output(mw, "s", OSC_STRING, -1, NULL, NULL);
    free(bytes);
    return osc_check_serialize(mw, len);
}

static void max_string(void **state) {
    (void)state;
    const size_t mib = (size_t)1 << 20;
    osc_options o;
    osc_options_init(&o);
    o.max_string_mib = 1;
    osc_model *m;
    size_t len;
    void *buf = string_model(mib + 1, &len);
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_LIMIT);
    msg_has("initializer 's': string element 0 has 1048577 bytes; the limit is 1048576");
    free(buf);
    buf = string_model(mib, &len);
    assert_int_equal(load(buf, len, &o, &m), OSC_OK);
    free(buf);
    /* a bound input over the limit */
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    char *big = malloc(mib + 2);
    memset(big, 'b', mib + 2);
    osc_string str = {big, mib + 1};
    osc_tensor in = {.dtype = OSC_STRING, .rank = 1, .dims = {1}, .data = &str,
                     .nbytes = sizeof str};
    assert_int_equal(osc_session_set_input(s, "x", &in), OSC_ERR_LIMIT);
    assert_non_null(strstr(osc_session_error(s), "string 0 has 1048577 bytes; the limit is"));
    str.len = mib;
    assert_int_equal(osc_session_set_input(s, "x", &in), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_session_free(s);
    osc_model_free(m);
    /* a string attribute over the limit */
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, (const int64_t[]){2}, NULL);
    int n = osc_mw_node(mw, "Neg", "n", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    big[mib + 1] = '\0';
    osc_mw_attr_string(mw, n, "note", big);
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    buf = osc_check_serialize(mw, &len);
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_LIMIT);
    msg_has("attribute 'note' is a string of 1048577 bytes");
    free(buf);
    /* strings a run makes: ScatterElements add concatenates past the limit */
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "data", OSC_STRING, 1, (const int64_t[]){1}, NULL);
    osc_mw_input(mw, "upd", OSC_STRING, 1, (const int64_t[]){1}, NULL);
    int64_t zero = 0;
    osc_tensor idx = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = &zero,
                      .nbytes = sizeof zero};
    osc_mw_initializer(mw, "idx", &idx);
    n = osc_mw_node(mw, "ScatterElements", "s", 3, (const char *[]){"data", "idx", "upd"}, 1,
                    (const char *[]){"y"});
    osc_mw_attr_string(mw, n, "reduction", "add");
    osc_mw_output(mw, "y", OSC_STRING, 1, (const int64_t[]){1}, NULL);
    buf = osc_check_serialize(mw, &len);
    assert_int_equal(load(buf, len, &o, &m), OSC_OK);
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    osc_string half = {big, mib / 2 + 1};
    osc_tensor h = {.dtype = OSC_STRING, .rank = 1, .dims = {1}, .data = &half,
                    .nbytes = sizeof half};
    assert_int_equal(osc_session_set_input(s, "data", &h), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "upd", &h), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_ERR_LIMIT);
    assert_non_null(strstr(osc_session_error(s), "output 'y': string 0 has 1048578 bytes"));
    osc_session_free(s);
    osc_model_free(m);
    free(buf);
    free(big);
}

/* data[N] float -> ScatterElements(indices [1], updates [1]) -> y, plus a static variant whose
 * intermediate t = Neg(data) is `n` floats (y = Cast(t) is the output). */
static void *scatter_model(long n, bool intermediate, size_t *len) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    const int64_t d[1] = {n}, one[1] = {1};
    const char *dn[1] = {"N"};
    osc_mw_input(mw, "data", OSC_FLOAT, 1, d, dn);
    if (intermediate) {
        osc_mw_node(mw, "Neg", "a", 1, (const char *[]){"data"}, 1, (const char *[]){"t"});
        /* Cast: not in place, so t keeps a buffer of its own */
        int b = osc_mw_node(mw, "Cast", "b", 1, (const char *[]){"t"}, 1, (const char *[]){"y"});
        osc_mw_attr_int(mw, b, "to", OSC_FLOAT);
    } else {
        osc_mw_input(mw, "i", OSC_INT64, 1, one, NULL);
        osc_mw_input(mw, "u", OSC_FLOAT, 1, one, NULL);
        osc_mw_node(mw, "ScatterElements", "s", 3, (const char *[]){"data", "i", "u"}, 1,
                    (const char *[]){"y"});
    }
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d, dn);
    return osc_check_serialize(mw, len);
}

static void byte_cap(void **state) {
    (void)state;
    osc_options o;
    osc_options_init(&o);
    osc_model *m;
    size_t len;
    /* at load: a cap the model does not fit in */
    void *buf = neg_chain(50, &len);
    o.max_bytes = 4096;
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_LIMIT);
    msg_has("4096");
    free(buf);
    /* at run: an arena over the cap, reported before anything is allocated or written */
    buf = scatter_model(-1, false, &len);
    o.max_bytes = (uint64_t)1 << 20;
    assert_int_equal(load(buf, len, &o, &m), OSC_OK);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    size_t n = (size_t)1 << 19; /* 2 MiB of floats */
    float *x = calloc(n, sizeof *x), u = 1;
    int64_t i = 0;
    osc_tensor tx = {.dtype = OSC_FLOAT, .rank = 1, .dims = {(int64_t)n}, .data = x,
                     .nbytes = n * sizeof *x};
    osc_tensor ti = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = &i, .nbytes = 8};
    osc_tensor tu = {.dtype = OSC_FLOAT, .rank = 1, .dims = {1}, .data = &u, .nbytes = 4};
    assert_int_equal(osc_session_set_input(s, "data", &tx), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "i", &ti), OSC_OK);
    assert_int_equal(osc_session_set_input(s, "u", &tu), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_ERR_LIMIT);
    assert_non_null(strstr(osc_session_error(s), "exceeds opts.max_bytes (1048576)"));
    assert_int_equal(osc_session_arena_bytes(s), 0);
    /* a caller output buffer takes the output out of the arena: the run fits */
    float *y = malloc(n * sizeof *y);
    assert_int_equal(osc_session_set_output_buffer(s, 0, y, n * sizeof *y), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_true(y[0] == 1.0f);
    osc_session_free(s);
    osc_model_free(m);
    free(buf);
    /* at load: static shapes whose intermediate alone exceeds the cap */
    buf = scatter_model((long)n, true, &len);
    assert_int_equal(load(buf, len, &o, &m), OSC_ERR_LIMIT);
    msg_has("largest value 't', 2097152 bytes); opts.max_bytes is 1048576");
    o.max_bytes = OSC_NO_LIMIT;
    assert_int_equal(load(buf, len, &o, &m), OSC_OK);
    osc_model_free(m);
    free(buf);
    free(x);
    free(y);
}

/* A model whose shapes depend on data (NonZero): every run plans stage by stage, each stage's
 * arena checked against max_arena_bytes and the byte cap before it is allocated. */
static void dynamic_caps(void **state) {
    (void)state;
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    const int64_t dn[1] = {-1};
    const char *names[1] = {"N"};
    osc_mw_input(mw, "x", OSC_FLOAT, 1, dn, names);
    osc_mw_node(mw, "NonZero", "nz", 1, (const char *[]){"x"}, 1, (const char *[]){"i"});
    osc_mw_node(mw, "Neg", "neg", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    osc_mw_output(mw, "i", OSC_INT64, -1, NULL, NULL);
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    size_t len;
    void *buf = osc_check_serialize(mw, &len);
    size_t n = (size_t)1 << 18; /* 1 MiB of floats, all nonzero: NonZero makes 2 MiB */
    float *x = malloc(n * sizeof *x);
    for (size_t k = 0; k < n; k++) x[k] = 1;
    osc_tensor tx = {.dtype = OSC_FLOAT, .rank = 1, .dims = {(int64_t)n}, .data = x,
                     .nbytes = n * sizeof *x};
    for (int k = 0; k < 3; k++) {
        osc_options o;
        osc_options_init(&o);
        if (k == 0) o.max_arena_bytes = (uint64_t)1 << 20;
        if (k == 1) o.max_bytes = (uint64_t)1 << 20;
        osc_model *m;
        assert_int_equal(load(buf, len, &o, &m), OSC_OK);
        osc_session *s;
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        assert_int_equal(osc_session_set_input(s, "x", &tx), OSC_OK);
        osc_status st = osc_session_run(s);
        if (k == 0) {
            assert_int_equal(st, OSC_ERR_LIMIT);
            assert_non_null(strstr(osc_session_error(s), "opts.max_arena_bytes is 1048576"));
        } else if (k == 1) {
            assert_int_equal(st, OSC_ERR_LIMIT);
            assert_non_null(strstr(osc_session_error(s), "byte cap reached: this session"));
        } else {
            assert_int_equal(st, OSC_OK);
            osc_tensor t;
            assert_int_equal(osc_session_output(s, 0, &t), OSC_OK);
            assert_int_equal(t.dims[1], (int64_t)n);
        }
        osc_session_free(s);
        osc_model_free(m);
    }
    free(x);
    free(buf);
}

/* Atomicity on the large-tensor paths (outputs of 16 MiB and more take bucketed loops): a run
 * whose last index is out of range leaves the caller's in-place input and output buffer as they
 * were, for ScatterElements and ScatterND. */
static void atomic_large(void **state) {
    (void)state;
    enum { N = 5 << 20 }; /* 20 MiB of floats */
    const char *ops[2] = {"ScatterElements", "ScatterND"};
    for (int op = 0; op < 2; op++) {
        for (int inplace = 0; inplace < 2; inplace++) {
            enum { K = 1000 };
            osc_mw *mw = osc_mw_new(8);
            osc_mw_opset(mw, "", 18);
            osc_mw_input(mw, "data", OSC_FLOAT, 1, (const int64_t[]){N}, NULL);
            if (op == 0) osc_mw_input(mw, "i", OSC_INT64, 1, (const int64_t[]){K}, NULL);
            else osc_mw_input(mw, "i", OSC_INT64, 2, (const int64_t[]){K, 1}, NULL);
            osc_mw_input(mw, "u", OSC_FLOAT, 1, (const int64_t[]){K}, NULL);
            osc_mw_node(mw, ops[op], "s", 3, (const char *[]){"data", "i", "u"}, 1,
                        (const char *[]){"y"});
            osc_mw_output(mw, "y", OSC_FLOAT, 1, (const int64_t[]){N}, NULL);
            size_t len;
            void *buf = osc_check_serialize(mw, &len);
            osc_options o;
            osc_options_init(&o);
            o.inplace_inputs = inplace;
            osc_model *m;
            assert_int_equal(load(buf, len, &o, &m), OSC_OK);
            free(buf);
            float *x = malloc((size_t)N * sizeof *x), *y = malloc((size_t)N * sizeof *y);
            int64_t idx[K];
            float u[K];
            for (int64_t e = 0; e < N; e++) x[e] = (float)(e % 977), y[e] = -1;
            for (int k = 0; k < K; k++) idx[k] = (int64_t)k * 4099 % N, u[k] = 7;
            idx[K - 1] = N; /* out of range, at the last position */
            osc_session *s;
            assert_int_equal(osc_session_create(m, &s), OSC_OK);
            osc_tensor tx = {.dtype = OSC_FLOAT, .rank = 1, .dims = {N}, .data = x,
                             .nbytes = (size_t)N * 4};
            osc_tensor ti = {.dtype = OSC_INT64, .rank = op ? 2 : 1, .dims = {K, 1}, .data = idx,
                             .nbytes = sizeof idx};
            osc_tensor tu = {.dtype = OSC_FLOAT, .rank = 1, .dims = {K}, .data = u,
                             .nbytes = sizeof u};
            assert_int_equal(osc_session_set_input(s, "data", &tx), OSC_OK);
            assert_int_equal(osc_session_set_input(s, "i", &ti), OSC_OK);
            assert_int_equal(osc_session_set_input(s, "u", &tu), OSC_OK);
            assert_int_equal(osc_session_set_output_buffer(s, 0, y, (size_t)N * 4), OSC_OK);
            assert_int_equal(osc_session_run(s), OSC_ERR_INDEX);
            for (int64_t e = 0; e < N; e++)
                if (x[e] != (float)(e % 977) || y[e] != -1)
                    fail_msg("%s (in place %d): element %lld changed by a failed run", ops[op],
                             inplace, (long long)e);
            osc_session_free(s);
            osc_model_free(m);
            free(x);
            free(y);
        }
    }
}

/* Every cap from tiny up: the load and the session's creation fail with OSC_ERR_LIMIT (never
 * NOMEM: the hook never fails here) until they fit. */
static void cap_failures_are_limits(void **state) {
    (void)state;
    size_t len;
    void *buf = neg_chain(30, &len);
    bool loaded = false, created = false;
    for (uint64_t cap = 256; !created && cap < ((uint64_t)1 << 24); cap += cap / 8) {
        osc_options o;
        osc_options_init(&o);
        o.max_bytes = cap;
        osc_model *m;
        osc_status st = load(buf, len, &o, &m);
        if (st != OSC_OK) {
            assert_false(loaded);
            assert_int_equal(st, OSC_ERR_LIMIT);
            msg_has("opts.max_bytes");
            continue;
        }
        loaded = true;
        osc_session *s;
        st = osc_session_create(m, &s);
        if (st == OSC_OK) {
            created = true;
            osc_session_free(s);
        } else {
            assert_int_equal(st, OSC_ERR_LIMIT);
        }
        osc_model_free(m);
    }
    assert_true(created);
    free(buf);
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

static void mkdtemp_or_fail(char *dir, size_t size) {
    snprintf(dir, size, "/tmp/osc-limits-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* A model whose initializer w (float or bool, n elements) is external (location, offset, the
 * length of n elements); y = w + x (Or for bool), x a graph input, so nothing is folded. */
static void *external_model(int32_t dtype, int64_t n, const char *loc, const char *off,
                            size_t *len) {
    Onnx__StringStringEntryProto kv[3], *kvs[3] = {&kv[0], &kv[1], &kv[2]};
    char length[32];
    snprintf(length, sizeof length, "%lld", (long long)(n * (dtype == OSC_BOOL ? 1 : 4)));
    for (int k = 0; k < 3; k++) onnx__string_string_entry_proto__init(&kv[k]);
    kv[0].key = "location", kv[0].value = (char *)loc;
    kv[1].key = "offset", kv[1].value = (char *)off;
    kv[2].key = "length", kv[2].value = length;
    Onnx__TensorProto t;
    onnx__tensor_proto__init(&t);
    int64_t dims[1] = {n};
    t.name = "w", t.has_data_type = 1, t.data_type = dtype, t.n_dims = 1, t.dims = dims;
    t.has_data_location = 1, t.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    t.n_external_data = 3, t.external_data = kvs;
    Onnx__TensorProto *inits[1] = {&t};
    Onnx__NodeProto node;
    onnx__node_proto__init(&node);
    char *ins[2] = {"w", "x"}, *outs[1] = {"y"};
    node.op_type = dtype == OSC_BOOL ? "Or" : "Add";
    node.n_input = 2, node.input = ins, node.n_output = 1, node.output = outs;
    Onnx__NodeProto *nodes[1] = {&node};
    Onnx__TypeProto__Tensor tt;
    onnx__type_proto__tensor__init(&tt);
    tt.has_elem_type = 1, tt.elem_type = dtype;
    Onnx__TypeProto tp;
    onnx__type_proto__init(&tp);
    tp.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE, tp.tensor_type = &tt;
    Onnx__ValueInfoProto vx, vy;
    onnx__value_info_proto__init(&vx);
    onnx__value_info_proto__init(&vy);
    vx.name = "x", vx.type = &tp;
    vy.name = "y";
    Onnx__ValueInfoProto *gin[1] = {&vx}, *gout[1] = {&vy};
    Onnx__GraphProto g;
    onnx__graph_proto__init(&g);
    g.name = "g", g.n_node = 1, g.node = nodes, g.n_initializer = 1, g.initializer = inits;
    g.n_input = 1, g.input = gin, g.n_output = 1, g.output = gout;
    Onnx__OperatorSetIdProto op;
    onnx__operator_set_id_proto__init(&op);
    op.domain = "", op.has_version = 1, op.version = 18;
    Onnx__OperatorSetIdProto *ops[1] = {&op};
    Onnx__ModelProto mp;
    onnx__model_proto__init(&mp);
    mp.has_ir_version = 1, mp.ir_version = 8, mp.graph = &g, mp.n_opset_import = 1;
    mp.opset_import = ops;
    *len = protobuf_c_message_get_packed_size(&mp.base);
    void *buf = malloc(*len);
    protobuf_c_message_pack(&mp.base, buf);
    return buf;
}

/* True when /proc/self/maps lists a mapping of path. */
static bool mapped(const char *path) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, path) != NULL;
    fclose(f);
    return found;
}

static void external_mmap(void **state) {
    (void)state;
    char dir[64], path[128], data_path[128];
    mkdtemp_or_fail(dir, sizeof dir);
    enum { N = 65536 }; /* 256 KiB of floats, over OSC_MMAP_MIN */
    float *w = malloc((N + 8) * sizeof *w);
    for (int k = 0; k < N + 8; k++) w[k] = (float)k;
    snprintf(data_path, sizeof data_path, "%s/w.bin", dir);
    assert_true(osc_test_write_file(NULL, data_path, w, (N + 8) * sizeof *w, "test_limits"));
    char real[4096];
    assert_non_null(realpath(data_path, real));
    const char *offsets[2] = {"16", "4"}; /* aligned: mapped; misaligned: read */
    for (int k = 0; k < 2; k++) {
        size_t len;
        void *buf = external_model(OSC_FLOAT, N, "w.bin", offsets[k], &len);
        snprintf(path, sizeof path, "%s/model.onnx", dir);
        assert_true(osc_test_write_file(NULL, path, buf, len, "test_limits"));
        free(buf);
        osc_options o;
        osc_options_init(&o);
        o.max_bytes = (uint64_t)3 << 17; /* 384 KiB: the data must not be copied twice */
        osc_model *m;
        if (osc_model_load_file(path, &o, &m, g_msg, sizeof g_msg) != OSC_OK)
            fail_msg("offset %s: %s", offsets[k], g_msg);
        assert_int_equal(mapped(real), k == 0);
        osc_session *s;
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        float *x = calloc(N, sizeof *x);
        osc_tensor tx = {.dtype = OSC_FLOAT, .rank = 1, .dims = {N}, .data = x,
                         .nbytes = N * sizeof *x};
        assert_int_equal(osc_session_set_input(s, "x", &tx), OSC_OK);
        float *y = malloc(N * sizeof *y);
        assert_int_equal(osc_session_set_output_buffer(s, 0, y, N * sizeof *y), OSC_OK);
        assert_int_equal(osc_session_run(s), OSC_OK);
        int first = k == 0 ? 4 : 1; /* offset 16 bytes = 4 floats, 4 bytes = 1 */
        for (int e = 0; e < N; e += 4099) assert_true(y[e] == (float)(e + first));
        osc_session_free(s);
        osc_model_free(m);
        assert_false(mapped(real)); /* unmapped with the model */
        free(x);
        free(y);
    }
    /* a mapped bool payload holding 2 is refused, and the mapping released */
    uint8_t *b = calloc(N, 1);
    b[N - 1] = 2;
    assert_true(osc_test_write_file(NULL, data_path, b, N, "test_limits"));
    size_t len;
    void *buf = external_model(OSC_BOOL, N, "w.bin", "0", &len);
    osc_model *m;
    assert_int_equal(osc_model_load_buffer(buf, len, dir, NULL, &m, g_msg, sizeof g_msg),
                     OSC_ERR_MODEL);
    msg_has("external data element 65535 of a bool tensor is 2");
    assert_false(mapped(real));
    /* a base folder that does not exist */
    assert_int_equal(osc_model_load_buffer(buf, len, "/nonexistent-osc-folder", NULL, &m, g_msg,
                                           sizeof g_msg), OSC_ERR_IO);
    msg_has("model folder '/nonexistent-osc-folder'");
    /* a FIFO as external data or as the model file is refused at once, never waited on */
    remove(data_path);
    assert_int_equal(mkfifo(data_path, 0600), 0);
    assert_int_equal(osc_model_load_buffer(buf, len, dir, NULL, &m, g_msg, sizeof g_msg),
                     OSC_ERR_IO);
    msg_has("not a regular file");
    assert_int_equal(osc_model_load_file(data_path, NULL, &m, g_msg, sizeof g_msg), OSC_ERR_IO);
    msg_has("not a regular file");
    free(buf);
    free(b);
    free(w);
    nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static int g_calls;
static void count_cleanup(void *addr, size_t n) {
    assert_int_equal((uintptr_t)addr, 42);
    assert_int_equal(n, 7);
    g_calls++;
}

static void pool_cleanups(void **state) {
    (void)state;
    osc_allocator a;
    osc_allocator_init_cap(&a, NULL, 0);
    osc_pool p;
    osc_pool_init(&p, &a, 0);
    assert_true(osc_pool_defer(&p, count_cleanup, (void *)(uintptr_t)42, 7));
    assert_true(osc_pool_defer(&p, count_cleanup, (void *)(uintptr_t)42, 7));
    osc_pool_reset(&p);
    assert_int_equal(g_calls, 2);
    osc_pool_free(&p); /* already run: not again */
    assert_int_equal(g_calls, 2);
    assert_int_equal(a.used, 0);
    /* a cap too small for the record: false, nothing registered */
    osc_allocator_init_cap(&a, NULL, 8);
    osc_pool_init(&p, &a, 0);
    assert_false(osc_pool_defer(&p, count_cleanup, (void *)(uintptr_t)42, 7));
    assert_true(a.capped);
    osc_pool_free(&p);
    assert_int_equal(g_calls, 2);
}

static void cap_explain(void **state) {
    (void)state;
    osc_allocator a;
    osc_allocator_init_cap(&a, NULL, 100);
    osc_err e = {0};
    osc_fail(&e, OSC_ERR_NOMEM, "out of memory allocating 200 bytes");
    assert_int_equal(osc_cap_explain(&e, &a, "the model"), OSC_ERR_NOMEM); /* not capped */
    assert_null(osc_malloc(&a, 200));
    assert_true(a.capped);
    assert_int_equal(osc_cap_explain(&e, &a, "the model"), OSC_ERR_LIMIT);
    assert_non_null(strstr(e.msg, "byte cap reached: the model would need more than "
                                  "opts.max_bytes = 100 bytes (out of memory allocating 200"));
    assert_false(a.capped);
    /* other failures stay as they are */
    osc_err_clear(&e);
    osc_fail(&e, OSC_ERR_INDEX, "index");
    a.capped = true;
    assert_int_equal(osc_cap_explain(&e, &a, "the model"), OSC_ERR_INDEX);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(options_are_checked),
    cmocka_unit_test(defaults),
    cmocka_unit_test(max_nodes),
    cmocka_unit_test(many_unknown_ops_named),
    cmocka_unit_test(max_rank),
    cmocka_unit_test(max_string),
    cmocka_unit_test(byte_cap),
    cmocka_unit_test(cap_failures_are_limits),
    cmocka_unit_test(dynamic_caps),
    cmocka_unit_test(atomic_large),
    cmocka_unit_test(external_mmap),
    cmocka_unit_test(pool_cleanups),
    cmocka_unit_test(cap_explain),
)
