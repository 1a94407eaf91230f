/* test_control.c: If, Loop and Scan through the public API, on graphs built in memory: branches
 * of different shapes, names read from one and two graphs out, carried values that grow, the
 * condition and the trip count stopping a loop, a loop that runs no iteration, Scan's axes and
 * directions, Scan-8's sequence_lens, folding at load, and the refusals: undefined names, cycles, body arity, nesting
 * depth, the iteration cap and cancelling. Expected values are worked out by hand in comments. */
#include <pthread.h>
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
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

static const int64_t k_one[1] = {1}, k_two[1] = {2}, k_three[1] = {3}, k_any[1] = {-1};

/* Loads mw (freed); expect OSC_OK, or the status and a message holding each of want[]. */
static osc_model *load_opts(osc_mw *mw, const osc_options *o, osc_status expect,
                            const char *const *want) {
    void *buf = NULL;
    size_t len = 0;
    if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) fail_msg("writer: %s", osc_mw_error(mw));
    osc_mw_free(mw);
    osc_model *m = NULL;
    char msg[1024];
    osc_status st = osc_model_load_buffer(buf, len, NULL, o, &m, msg, sizeof msg);
    free(buf);
    if (st != expect) fail_msg("load: status %d, expected %d: %s", (int)st, (int)expect, msg);
    for (int i = 0; want && want[i]; i++)
        if (!strstr(msg, want[i])) fail_msg("load message '%s' lacks '%s'", msg, want[i]);
    return m;
}

static osc_model *load(osc_mw *mw) { return load_opts(mw, NULL, OSC_OK, NULL); }

/* A subgraph writer (no opsets: they are the model's). */
static osc_mw *sub(const char *name) {
    osc_mw *g = osc_mw_new(8);
    osc_mw_names(g, NULL, name);
    return g;
}

static osc_session *session(const osc_model *m) {
    osc_session *s = NULL;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    return s;
}

static void expect_floats(const osc_tensor *t, int64_t n, const float *want) {
    osc_check_shape(t, OSC_FLOAT, t->rank, t->dims);
    assert_int_equal(osc_tensor_count(t), n);
    osc_check_bytes(t, want, (size_t)n * sizeof *want);
}

/* y = If(c, then: a, else: Concat(a, x)), a = x + x computed outside: both branches read a,
 * the else branch x too; the branches give [3] and [6]. */
static osc_model *if_model(void) {
    const osc_mw_value ins[2] = {{"c", OSC_BOOL, 0, NULL, NULL}, {"x", OSC_FLOAT, 1, k_three, NULL}};
    osc_mw *mw = osc_mw_graph(16, 2, ins);
    osc_mw_node(mw, "Add", "add", 2, (const char *[]){"x", "x"}, 1, (const char *[]){"a"});
    osc_mw *then_g = sub("then_g"), *else_g = sub("else_g");
    osc_mw_node(then_g, "Identity", "t", 1, (const char *[]){"a"}, 1, (const char *[]){"ta"});
    osc_mw_output(then_g, "ta", OSC_FLOAT, 1, k_any, NULL);
    int c = osc_mw_node(else_g, "Concat", "e", 2, (const char *[]){"a", "x"}, 1,
                        (const char *[]){"ea"});
    osc_mw_attr_int(else_g, c, "axis", 0);
    osc_mw_output(else_g, "ea", OSC_FLOAT, 1, k_any, NULL);
    int n = osc_mw_node(mw, "If", "if", 1, (const char *[]){"c"}, 1, (const char *[]){"y"});
    osc_mw_attr_graph(mw, n, "then_branch", then_g);
    osc_mw_attr_graph(mw, n, "else_branch", else_g);
    osc_mw_free(then_g);
    osc_mw_free(else_g);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, k_any, NULL);
    return load(mw);
}

static void if_branches_of_other_shapes(void **state) {
    (void)state;
    osc_model *m = if_model();
    osc_session *s = session(m);
    const float x[3] = {1, 2, 3};
    const char *names[2] = {"c", "x"};
    for (int round = 0; round < 3; round++) { /* true, false, true: the session keeps up */
        bool c = round != 1;
        osc_tensor in[2] = {osc_test_view(OSC_BOOL, 0, NULL, &c),
                            osc_test_view(OSC_FLOAT, 1, k_three, x)};
        osc_tensor y = osc_check_run(s, 2, names, in);
        const float want_then[3] = {2, 4, 6}, want_else[6] = {2, 4, 6, 1, 2, 3};
        if (c) expect_floats(&y, 3, want_then);
        else expect_floats(&y, 6, want_else);
    }
    osc_session_free(s);
    osc_model_free(m);
}

/* Loop(M, "", v0) with body (i, cond_in, v) -> (i_f < lim, Concat(v, [i_f]), 2 * i_f), i_f =
 * float(i), lim a graph input the body reads: the carried v grows by one each iteration. With
 * `no_trip`, M is omitted (only the condition stops it). */
static osc_model *loop_model(bool no_trip, const osc_options *o, osc_status expect,
                             const char *const *want) {
    const osc_mw_value ins[3] = {{"M", OSC_INT64, 0, NULL, NULL},
                                 {"v0", OSC_FLOAT, 1, k_one, NULL},
                                 {"lim", OSC_FLOAT, 0, NULL, NULL}};
    osc_mw *mw = osc_mw_graph(13, 3, ins);
    osc_mw *b = sub("body");
    const osc_mw_value bins[3] = {{"i", OSC_INT64, 0, NULL, NULL},
                                  {"cond_in", OSC_BOOL, 0, NULL, NULL},
                                  {"v", OSC_FLOAT, 1, k_any, NULL}};
    osc_mw_inputs(b, 3, bins);
    osc_tensor axes = osc_test_view(OSC_INT64, 1, k_one, (const int64_t[]){0}), two;
    const float two_v = 2;
    two = osc_test_view(OSC_FLOAT, 0, NULL, &two_v);
    osc_mw_initializer(b, "axes", &axes);
    osc_mw_initializer(b, "two", &two);
    int n = osc_mw_node(b, "Cast", "cast", 1, (const char *[]){"i"}, 1, (const char *[]){"f"});
    osc_mw_attr_int(b, n, "to", OSC_FLOAT);
    osc_mw_node(b, "Unsqueeze", "u", 2, (const char *[]){"f", "axes"}, 1, (const char *[]){"fu"});
    n = osc_mw_node(b, "Concat", "cat", 2, (const char *[]){"v", "fu"}, 1,
                    (const char *[]){"v2"});
    osc_mw_attr_int(b, n, "axis", 0);
    osc_mw_node(b, "Mul", "mul", 2, (const char *[]){"f", "two"}, 1, (const char *[]){"s"});
    osc_mw_node(b, "Less", "less", 2, (const char *[]){"f", "lim"}, 1,
                (const char *[]){"cond_out"});
    osc_mw_output(b, "cond_out", OSC_BOOL, 0, NULL, NULL);
    osc_mw_output(b, "v2", OSC_FLOAT, 1, k_any, NULL);
    osc_mw_output(b, "s", OSC_FLOAT, 0, NULL, NULL);
    n = osc_mw_node(mw, "Loop", "loop", 3, (const char *[]){no_trip ? "" : "M", "", "v0"}, 2,
                    (const char *[]){"v", "scan"});
    osc_mw_attr_graph(mw, n, "body", b);
    osc_mw_free(b);
    osc_mw_output(mw, "v", OSC_FLOAT, 1, k_any, NULL);
    osc_mw_output(mw, "scan", OSC_FLOAT, 1, k_any, NULL);
    return load_opts(mw, o, expect, want);
}

static osc_status run_loop(osc_session *s, int64_t M, float lim, osc_tensor *v, osc_tensor *scan) {
    const float v0 = 7;
    const char *names[3] = {"M", "v0", "lim"};
    osc_tensor in[3] = {osc_test_view(OSC_INT64, 0, NULL, &M),
                        osc_test_view(OSC_FLOAT, 1, k_one, &v0),
                        osc_test_view(OSC_FLOAT, 0, NULL, &lim)};
    for (int i = 0; i < 3; i++) assert_int_equal(osc_session_set_input(s, names[i], &in[i]), 0);
    osc_status st = osc_session_run(s);
    if (!st) {
        assert_int_equal(osc_session_output(s, 0, v), OSC_OK);
        assert_int_equal(osc_session_output(s, 1, scan), OSC_OK);
    }
    return st;
}

static void loop_carries_a_growing_value(void **state) {
    (void)state;
    osc_model *m = loop_model(false, NULL, OSC_OK, NULL);
    osc_session *s = session(m);
    osc_tensor v, scan;
    /* M = 3 stops it: iterations 0, 1, 2 append 0, 1, 2 and give 0, 2, 4 */
    const float v3[4] = {7, 0, 1, 2}, s3[3] = {0, 2, 4};
    assert_int_equal(run_loop(s, 3, 100, &v, &scan), OSC_OK);
    expect_floats(&v, 4, v3);
    expect_floats(&scan, 3, s3);
    /* the condition stops it: after iteration 2, 2 < 1.5 is false */
    assert_int_equal(run_loop(s, 10, 1.5f, &v, &scan), OSC_OK);
    expect_floats(&v, 4, v3);
    expect_floats(&scan, 3, s3);
    /* M = 0: no iteration; v is v0, the scan output [0] (the body declares a scalar) */
    assert_int_equal(run_loop(s, 0, 100, &v, &scan), OSC_OK);
    expect_floats(&v, 1, (const float[]){7});
    assert_int_equal(scan.rank, 1);
    assert_int_equal(scan.dims[0], 0);
    /* one iteration */
    assert_int_equal(run_loop(s, 1, 100, &v, &scan), OSC_OK);
    expect_floats(&v, 2, (const float[]){7, 0});
    expect_floats(&scan, 1, (const float[]){0});
    osc_session_free(s);
    osc_model_free(m);
}

/* Without a trip count and with a condition that stays true, the iteration cap stops the loop
 * (OSC_ERR_LIMIT, the node named); the session still runs a loop that ends. */
static void loop_cap_stops_an_endless_loop(void **state) {
    (void)state;
    osc_options o;
    osc_options_init(&o);
    assert_int_equal(osc_options_set(&o, "max_iterations", "5", NULL, 0), OSC_OK);
    osc_model *m = loop_model(true, &o, OSC_OK, NULL);
    osc_session *s = session(m);
    osc_tensor v, scan;
    assert_int_equal(run_loop(s, 0, 1e30f, &v, &scan), OSC_ERR_LIMIT);
    const char *msg = osc_session_error(s);
    if (!strstr(msg, "'loop'") || !strstr(msg, "stopped after 5 iterations") ||
        !strstr(msg, "max_iterations"))
        fail_msg("message: %s", msg);
    assert_int_equal(run_loop(s, 0, 2.5f, &v, &scan), OSC_OK); /* 0, 1, 2 < 2.5; 3 is not */
    expect_floats(&scan, 4, (const float[]){0, 2, 4, 6});
    osc_session_free(s);
    osc_model_free(m);
}

typedef struct canceller {
    osc_session *s;
    osc_status st;
} canceller;

static void *run_endless(void *arg) {
    canceller *c = arg;
    osc_tensor v, scan;
    c->st = run_loop(c->s, 0, 1e30f, &v, &scan);
    return NULL;
}

/* A cancel before the run stops that run, once; one from another thread stops an endless loop
 * (the default cap is far away) with OSC_ERR_CANCELLED. */
static void cancel_stops_the_run(void **state) {
    (void)state;
    osc_model *m = loop_model(true, NULL, OSC_OK, NULL);
    osc_session *s = session(m);
    osc_tensor v, scan;
    assert_int_equal(osc_session_cancel(s), OSC_OK);
    assert_int_equal(run_loop(s, 0, 2.5f, &v, &scan), OSC_ERR_CANCELLED);
    assert_non_null(strstr(osc_session_error(s), "cancelled"));
    assert_int_equal(run_loop(s, 0, 2.5f, &v, &scan), OSC_OK); /* the request is used up */
    canceller c = {s, OSC_OK};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, run_endless, &c), 0);
    const struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
    assert_int_equal(osc_session_cancel(s), OSC_OK);
    pthread_join(t, NULL);
    assert_int_equal(c.st, OSC_ERR_CANCELLED);
    assert_int_equal(osc_session_cancel(NULL), OSC_ERR_ARG);
    osc_session_free(s);
    osc_model_free(m);
}

/* acc = Loop(M, "", z) with body: acc' = If(cond_in, then: acc + z, else: acc). The then branch
 * reads acc from the body around it and z from the main graph, two graphs out. acc ends as
 * (M + 1) * z. */
static void names_from_two_graphs_out(void **state) {
    (void)state;
    const osc_mw_value ins[2] = {{"M", OSC_INT64, 0, NULL, NULL},
                                 {"z", OSC_FLOAT, 1, k_two, NULL}};
    osc_mw *mw = osc_mw_graph(13, 2, ins);
    osc_mw *b = sub("body"), *t = sub("then_g"), *e = sub("else_g");
    const osc_mw_value bins[3] = {{"i", OSC_INT64, 0, NULL, NULL},
                                  {"cond_in", OSC_BOOL, 0, NULL, NULL},
                                  {"acc", OSC_FLOAT, 1, k_two, NULL}};
    osc_mw_inputs(b, 3, bins);
    osc_mw_node(t, "Add", "add", 2, (const char *[]){"acc", "z"}, 1, (const char *[]){"sum"});
    osc_mw_output(t, "sum", OSC_FLOAT, 1, k_two, NULL);
    osc_mw_node(e, "Identity", "id", 1, (const char *[]){"acc"}, 1, (const char *[]){"same"});
    osc_mw_output(e, "same", OSC_FLOAT, 1, k_two, NULL);
    int n = osc_mw_node(b, "If", "if", 1, (const char *[]){"cond_in"}, 1,
                        (const char *[]){"acc2"});
    osc_mw_attr_graph(b, n, "then_branch", t);
    osc_mw_attr_graph(b, n, "else_branch", e);
    osc_mw_node(b, "Identity", "c", 1, (const char *[]){"cond_in"}, 1,
                (const char *[]){"cond_out"});
    osc_mw_output(b, "cond_out", OSC_BOOL, 0, NULL, NULL);
    osc_mw_output(b, "acc2", OSC_FLOAT, 1, k_two, NULL);
    n = osc_mw_node(mw, "Loop", "loop", 3, (const char *[]){"M", "", "z"}, 1,
                    (const char *[]){"acc"});
    osc_mw_attr_graph(mw, n, "body", b);
    osc_mw_output(mw, "acc", OSC_FLOAT, 1, k_two, NULL);
    osc_mw_free(b);
    osc_mw_free(t);
    osc_mw_free(e);
    osc_model *m = load(mw);
    osc_session *s = session(m);
    const int64_t M = 2;
    const float z[2] = {1, 2};
    osc_tensor in[2] = {osc_test_view(OSC_INT64, 0, NULL, &M),
                        osc_test_view(OSC_FLOAT, 1, k_two, z)};
    osc_tensor acc = osc_check_run(s, 2, (const char *[]){"M", "z"}, in);
    expect_floats(&acc, 2, (const float[]){3, 6});
    osc_session_free(s);
    osc_model_free(m);
}

/* Scan-16: state s0 [2], scan input xs [2, 3] along axis 1, read in reverse; body s1 = s + x,
 * y = s1; y stacked along axis 1, in reverse when out_rev. xs = [[1,2,3],[4,5,6]]: the columns
 * read are [3,6], [2,5], [1,4]; s runs [3,6], [5,11], [6,15]. */
static void scan_axes_and_directions(void **state) {
    (void)state;
    for (int out_rev = 0; out_rev < 2; out_rev++) {
        const int64_t xd[2] = {2, 3};
        const osc_mw_value ins[2] = {{"s0", OSC_FLOAT, 1, k_two, NULL},
                                     {"xs", OSC_FLOAT, 2, xd, NULL}};
        osc_mw *mw = osc_mw_graph(16, 2, ins);
        osc_mw *b = sub("body");
        const osc_mw_value bins[2] = {{"s", OSC_FLOAT, 1, k_two, NULL},
                                      {"x", OSC_FLOAT, 1, k_two, NULL}};
        osc_mw_inputs(b, 2, bins);
        osc_mw_node(b, "Add", "add", 2, (const char *[]){"s", "x"}, 1, (const char *[]){"s1"});
        osc_mw_node(b, "Identity", "id", 1, (const char *[]){"s1"}, 1, (const char *[]){"y"});
        osc_mw_output(b, "s1", OSC_FLOAT, 1, k_two, NULL);
        osc_mw_output(b, "y", OSC_FLOAT, 1, k_two, NULL);
        int n = osc_mw_node(mw, "Scan", "scan", 2, (const char *[]){"s0", "xs"}, 2,
                            (const char *[]){"s_end", "ys"});
        osc_mw_attr_graph(mw, n, "body", b);
        osc_mw_attr_int(mw, n, "num_scan_inputs", 1);
        osc_mw_attr_ints(mw, n, "scan_input_axes", (const int64_t[]){1}, 1);
        osc_mw_attr_ints(mw, n, "scan_input_directions", (const int64_t[]){1}, 1);
        osc_mw_attr_ints(mw, n, "scan_output_axes", (const int64_t[]){-1}, 1);
        osc_mw_attr_ints(mw, n, "scan_output_directions", (const int64_t[]){out_rev}, 1);
        osc_mw_free(b);
        osc_mw_output(mw, "s_end", OSC_FLOAT, 1, k_two, NULL);
        osc_mw_output(mw, "ys", OSC_FLOAT, 2, (const int64_t[]){-1, -1}, NULL);
        osc_model *m = load(mw);
        osc_session *s = session(m);
        const float s0[2] = {0, 0}, xs[6] = {1, 2, 3, 4, 5, 6};
        osc_tensor in[2] = {osc_test_view(OSC_FLOAT, 1, k_two, s0),
                            osc_test_view(OSC_FLOAT, 2, xd, xs)};
        const char *names[2] = {"s0", "xs"};
        osc_check_bind(s, 2, names, in);
        assert_int_equal(osc_session_run(s), OSC_OK);
        osc_tensor s_end, ys;
        assert_int_equal(osc_session_output(s, 0, &s_end), OSC_OK);
        assert_int_equal(osc_session_output(s, 1, &ys), OSC_OK);
        expect_floats(&s_end, 2, (const float[]){6, 15});
        assert_int_equal(ys.rank, 2);
        assert_int_equal(ys.dims[0], 2);
        assert_int_equal(ys.dims[1], 3);
        const float fwd[6] = {3, 5, 6, 6, 11, 15}, rev[6] = {6, 5, 3, 15, 11, 6};
        expect_floats(&ys, 6, out_rev ? rev : fwd);
        osc_session_free(s);
        osc_model_free(m);
    }
}

/* Scan-8, batch of 3: state s0 [3, 1], scan input xs [3, 3, 1] = [1,2,3], [4,5,6], [7,8,9];
 * body s1 = s + x, y = s1. sequence_lens [3, 1, 0]: entry 1 scans its first position only,
 * entry 2 none (its state stays 0), and the scan outputs are zero past each length. Forward:
 * entry 0's s runs 1, 3, 6. Reverse: it reads 3, 2, 1 and runs 3, 5, 6; entry 1's one position
 * is its first (4) both ways. A length of 4 is past the inputs' 3 positions. */
static osc_model *scan8_model(int64_t reverse) {
    const int64_t bd[2] = {3, 1}, xd[3] = {3, 3, 1};
    const osc_mw_value ins[3] = {{"lens", OSC_INT64, 1, k_three, NULL},
                                 {"s0", OSC_FLOAT, 2, bd, NULL}, {"xs", OSC_FLOAT, 3, xd, NULL}};
    osc_mw *mw = osc_mw_graph(8, 3, ins);
    osc_mw *b = sub("body");
    const osc_mw_value bins[2] = {{"s", OSC_FLOAT, 1, k_one, NULL},
                                  {"x", OSC_FLOAT, 1, k_one, NULL}};
    osc_mw_inputs(b, 2, bins);
    osc_mw_node(b, "Add", "add", 2, (const char *[]){"s", "x"}, 1, (const char *[]){"s1"});
    osc_mw_node(b, "Identity", "id", 1, (const char *[]){"s1"}, 1, (const char *[]){"y"});
    osc_mw_output(b, "s1", OSC_FLOAT, 1, k_one, NULL);
    osc_mw_output(b, "y", OSC_FLOAT, 1, k_one, NULL);
    int n = osc_mw_node(mw, "Scan", "scan", 3, (const char *[]){"lens", "s0", "xs"}, 2,
                        (const char *[]){"s_end", "ys"});
    osc_mw_attr_graph(mw, n, "body", b);
    osc_mw_attr_int(mw, n, "num_scan_inputs", 1);
    osc_mw_attr_ints(mw, n, "directions", (const int64_t[]){reverse}, 1);
    osc_mw_free(b);
    osc_mw_output(mw, "s_end", OSC_FLOAT, 2, bd, NULL);
    osc_mw_output(mw, "ys", OSC_FLOAT, 3, xd, NULL);
    return load(mw);
}

static void scan8_sequence_lens(void **state) {
    (void)state;
    const int64_t bd[2] = {3, 1}, xd[3] = {3, 3, 1};
    const float s0[3] = {0, 0, 0}, xs[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const char *names[3] = {"lens", "s0", "xs"};
    for (int64_t reverse = 0; reverse < 2; reverse++) {
        osc_model *m = scan8_model(reverse);
        osc_session *s = session(m);
        const int64_t lens[3] = {3, 1, 0}, bad[3] = {3, 4, 0};
        osc_tensor in[3] = {osc_test_view(OSC_INT64, 1, k_three, lens),
                            osc_test_view(OSC_FLOAT, 2, bd, s0),
                            osc_test_view(OSC_FLOAT, 3, xd, xs)};
        osc_check_bind(s, 3, names, in);
        assert_int_equal(osc_session_run(s), OSC_OK);
        osc_tensor s_end, ys;
        assert_int_equal(osc_session_output(s, 0, &s_end), OSC_OK);
        assert_int_equal(osc_session_output(s, 1, &ys), OSC_OK);
        expect_floats(&s_end, 3, (const float[]){6, 4, 0});
        const float fwd[9] = {1, 3, 6, 4, 0, 0, 0, 0, 0}, rev[9] = {3, 5, 6, 4, 0, 0, 0, 0, 0};
        expect_floats(&ys, 9, reverse ? rev : fwd);
        in[0] = osc_test_view(OSC_INT64, 1, k_three, bad);
        osc_check_bind(s, 3, names, in);
        assert_int_equal(osc_session_run(s), OSC_ERR_INDEX);
        const char *msg = osc_session_error(s);
        if (!strstr(msg, "node 'scan'") ||
            !strstr(msg, "input 0 (sequence_lens) entry 1 is 4; expected 0 to 3"))
            fail_msg("message: %s", msg);
        osc_session_free(s);
        osc_model_free(m);
    }
}

/* An If whose inputs are all constants is computed at load (folding), branch included. */
static void if_folds_at_load(void **state) {
    (void)state;
    osc_mw *mw = osc_mw_graph(16, 0, NULL);
    const bool c = false;
    const float k[2] = {5, 6};
    osc_tensor tc = osc_test_view(OSC_BOOL, 0, NULL, &c), tk = osc_test_view(OSC_FLOAT, 1, k_two, k);
    osc_mw_initializer(mw, "c", &tc);
    osc_mw_initializer(mw, "k", &tk);
    osc_mw *t = sub("then_g"), *e = sub("else_g");
    osc_mw_node(t, "Identity", "t", 1, (const char *[]){"k"}, 1, (const char *[]){"ty"});
    osc_mw_output(t, "ty", OSC_FLOAT, 1, k_two, NULL);
    osc_mw_node(e, "Neg", "e", 1, (const char *[]){"k"}, 1, (const char *[]){"ey"});
    osc_mw_output(e, "ey", OSC_FLOAT, 1, k_two, NULL);
    int n = osc_mw_node(mw, "If", "if", 1, (const char *[]){"c"}, 1, (const char *[]){"y"});
    osc_mw_attr_graph(mw, n, "then_branch", t);
    osc_mw_attr_graph(mw, n, "else_branch", e);
    osc_mw_free(t);
    osc_mw_free(e);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, k_two, NULL);
    osc_model *m = load(mw);
    osc_node_desc d;
    assert_int_equal(osc_model_node(m, 0, &d), OSC_OK);
    assert_true(d.folded);
    osc_session *s = session(m);
    assert_int_equal(osc_session_run(s), OSC_OK);
    osc_tensor y;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    expect_floats(&y, 2, (const float[]){-5, -6});
    osc_session_free(s);
    osc_model_free(m);
}

/* An If on x with one branch reading `name` (then) and giving it out. */
static osc_mw *if_reading(const char *name, const char *out_name) {
    const osc_mw_value ins[2] = {{"c", OSC_BOOL, 0, NULL, NULL}, {"x", OSC_FLOAT, 1, k_one, NULL}};
    osc_mw *mw = osc_mw_graph(16, 2, ins);
    osc_mw *t = sub("then_g"), *e = sub("else_g");
    osc_mw_node(t, "Identity", "t", 1, (const char *[]){name}, 1, (const char *[]){"ty"});
    osc_mw_output(t, "ty", OSC_FLOAT, 1, k_one, NULL);
    osc_mw_node(e, "Identity", "e", 1, (const char *[]){"x"}, 1, (const char *[]){"ey"});
    osc_mw_output(e, "ey", OSC_FLOAT, 1, k_one, NULL);
    int n = osc_mw_node(mw, "If", "if", 1, (const char *[]){"c"}, 1, (const char *[]){out_name});
    osc_mw_attr_graph(mw, n, "then_branch", t);
    osc_mw_attr_graph(mw, n, "else_branch", e);
    osc_mw_free(t);
    osc_mw_free(e);
    osc_mw_output(mw, out_name, OSC_FLOAT, 1, k_one, NULL);
    return mw;
}

static void refused_at_load(void **state) {
    (void)state;
    /* a branch reads a name no graph defines */
    load_opts(if_reading("nope", "y"), NULL, OSC_ERR_MODEL,
              (const char *[]){"'if'", "then_g", "'nope'", "no graph around it defines", NULL});
    /* a branch reads the If's own output: a cycle through the subgraph */
    load_opts(if_reading("y", "y"), NULL, OSC_ERR_MODEL,
              (const char *[]){"'if'", "'y'", "a cycle through the subgraph", NULL});
    /* a body with the wrong number of inputs: Loop with one carried value needs 3 */
    const osc_mw_value ins[1] = {{"v0", OSC_FLOAT, 1, k_one, NULL}};
    osc_mw *mw = osc_mw_graph(13, 1, ins);
    osc_mw *b = sub("body");
    const osc_mw_value bins[2] = {{"i", OSC_INT64, 0, NULL, NULL},
                                  {"cond_in", OSC_BOOL, 0, NULL, NULL}};
    osc_mw_inputs(b, 2, bins);
    osc_mw_output(b, "cond_in", OSC_BOOL, 0, NULL, NULL);
    int n = osc_mw_node(mw, "Loop", "loop", 3, (const char *[]){"", "", "v0"}, 1,
                        (const char *[]){"v"});
    osc_mw_attr_graph(mw, n, "body", b);
    osc_mw_free(b);
    osc_mw_output(mw, "v", OSC_FLOAT, 1, k_one, NULL);
    load_opts(mw, NULL, OSC_ERR_MODEL,
              (const char *[]){"'loop'", "subgraph 'body'", "has 2 inputs and 1 outputs",
                               "needs 3 inputs and 2 outputs", NULL});
    /* an op without a kernel inside a branch: the message names the subgraph */
    mw = if_reading("x", "y");
    osc_model_free(load(mw)); /* (the well-formed model loads) */
    mw = osc_mw_graph(16, 1, (const osc_mw_value[]){{"c", OSC_BOOL, 0, NULL, NULL}});
    osc_mw *t = sub("then_g"), *e = sub("else_g");
    osc_mw_node(t, "NoSuchOp", "bad", 0, NULL, 1, (const char *[]){"ty"});
    osc_mw_output(t, "ty", OSC_FLOAT, 1, k_one, NULL);
    osc_mw_node(e, "NoSuchOp", "bad2", 0, NULL, 1, (const char *[]){"ey"});
    osc_mw_output(e, "ey", OSC_FLOAT, 1, k_one, NULL);
    n = osc_mw_node(mw, "If", "if", 1, (const char *[]){"c"}, 1, (const char *[]){"y"});
    osc_mw_attr_graph(mw, n, "then_branch", t);
    osc_mw_attr_graph(mw, n, "else_branch", e);
    osc_mw_free(t);
    osc_mw_free(e);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, k_one, NULL);
    load_opts(mw, NULL, OSC_ERR_UNSUPPORTED,
              (const char *[]){"'if'", "subgraph 'then_g'", "NoSuchOp", NULL});
}

/* Subgraphs nested OSC_MAX_GRAPH_DEPTH + 1 deep are refused (OSC_ERR_LIMIT) before any is
 * loaded; OSC_MAX_GRAPH_DEPTH deep load. */
static void nesting_depth(void **state) {
    (void)state;
    for (int depth = OSC_MAX_GRAPH_DEPTH; depth <= OSC_MAX_GRAPH_DEPTH + 1; depth++) {
        osc_mw *inner = sub("g0"); /* the innermost branch gives x */
        osc_mw_node(inner, "Identity", "id", 1, (const char *[]){"x"}, 1, (const char *[]){"y0"});
        osc_mw_output(inner, "y0", OSC_FLOAT, 1, k_one, NULL);
        for (int d = 1; d <= depth; d++) { /* wrap it in an If, `depth` times */
            char gname[16], yname[16], prev[16];
            snprintf(gname, sizeof gname, "g%d", d);
            snprintf(yname, sizeof yname, "y%d", d);
            snprintf(prev, sizeof prev, "y%d", d - 1);
            osc_mw *g = d == depth ? osc_mw_graph(16, 2, (const osc_mw_value[]){
                                                              {"c", OSC_BOOL, 0, NULL, NULL},
                                                              {"x", OSC_FLOAT, 1, k_one, NULL}})
                                   : sub(gname);
            int n = osc_mw_node(g, "If", gname, 1, (const char *[]){"c"}, 1,
                                (const char *[]){yname});
            osc_mw *other = sub("other"); /* the else branch gives x (the then branch nests) */
            osc_mw_node(other, "Identity", "o", 1, (const char *[]){"x"}, 1,
                        (const char *[]){"oy"});
            osc_mw_output(other, "oy", OSC_FLOAT, 1, k_one, NULL);
            osc_mw_attr_graph(g, n, "then_branch", inner);
            osc_mw_attr_graph(g, n, "else_branch", other);
            osc_mw_free(other);
            osc_mw_output(g, yname, OSC_FLOAT, 1, k_one, NULL);
            osc_mw_free(inner);
            inner = g;
        }
        if (depth == OSC_MAX_GRAPH_DEPTH) {
            osc_model *m = load(inner);
            osc_session *s = session(m);
            const bool c = true;
            const float x = 4;
            osc_tensor in[2] = {osc_test_view(OSC_BOOL, 0, NULL, &c),
                                osc_test_view(OSC_FLOAT, 1, k_one, &x)};
            osc_tensor y = osc_check_run(s, 2, (const char *[]){"c", "x"}, in);
            expect_floats(&y, 1, &x);
            osc_session_free(s);
            osc_model_free(m);
        } else {
            load_opts(inner, NULL, OSC_ERR_LIMIT,
                      (const char *[]){"nested", "OSC_MAX_GRAPH_DEPTH", NULL});
        }
    }
}

/* A branch whose constants cannot be computed (Reshape of 5 elements to [2]) loads: folding and
 * inference leave it, since it may never run; the other branch runs, and taking the bad one
 * fails at run, naming its node. */
static void dead_branch_errors_wait_for_the_run(void **state) {
    (void)state;
    const osc_mw_value ins[2] = {{"c", OSC_BOOL, 0, NULL, NULL}, {"x", OSC_FLOAT, 1, k_one, NULL}};
    osc_mw *mw = osc_mw_graph(16, 2, ins);
    osc_mw *t = sub("then_g"), *e = sub("else_g");
    osc_mw_node(t, "Identity", "t", 1, (const char *[]){"x"}, 1, (const char *[]){"ty"});
    osc_mw_output(t, "ty", OSC_FLOAT, 1, k_any, NULL);
    const float five[5] = {1, 2, 3, 4, 5};
    const int64_t k5[1] = {5}, two[1] = {2};
    osc_tensor tf = osc_test_view(OSC_FLOAT, 1, k5, five), ts = osc_test_view(OSC_INT64, 1, k_one,
                                                                              two);
    osc_mw_initializer(e, "five", &tf);
    osc_mw_initializer(e, "shape", &ts);
    osc_mw_node(e, "Reshape", "bad_reshape", 2, (const char *[]){"five", "shape"}, 1,
                (const char *[]){"ey"});
    osc_mw_output(e, "ey", OSC_FLOAT, 1, k_any, NULL);
    int n = osc_mw_node(mw, "If", "if", 1, (const char *[]){"c"}, 1, (const char *[]){"y"});
    osc_mw_attr_graph(mw, n, "then_branch", t);
    osc_mw_attr_graph(mw, n, "else_branch", e);
    osc_mw_free(t);
    osc_mw_free(e);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, k_any, NULL);
    osc_model *m = load(mw);
    osc_session *s = session(m);
    const float x = 3;
    for (int round = 0; round < 2; round++) {
        const bool c = round == 0;
        osc_tensor in[2] = {osc_test_view(OSC_BOOL, 0, NULL, &c),
                            osc_test_view(OSC_FLOAT, 1, k_one, &x)};
        osc_check_bind(s, 2, (const char *[]){"c", "x"}, in);
        osc_status st = osc_session_run(s);
        if (c) {
            assert_int_equal(st, OSC_OK);
            osc_tensor y;
            assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
            expect_floats(&y, 1, &x);
        } else {
            assert_int_equal(st, OSC_ERR_SHAPE);
            if (!strstr(osc_session_error(s), "else_branch") ||
                !strstr(osc_session_error(s), "'bad_reshape'"))
                fail_msg("message: %s", osc_session_error(s));
        }
    }
    osc_session_free(s);
    osc_model_free(m);
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(dead_branch_errors_wait_for_the_run), cmocka_unit_test(if_branches_of_other_shapes),
              cmocka_unit_test(loop_carries_a_growing_value),
              cmocka_unit_test(loop_cap_stops_an_endless_loop),
              cmocka_unit_test(cancel_stops_the_run), cmocka_unit_test(names_from_two_graphs_out),
              cmocka_unit_test(scan_axes_and_directions),
              cmocka_unit_test(scan8_sequence_lens), cmocka_unit_test(if_folds_at_load),
              cmocka_unit_test(refused_at_load), cmocka_unit_test(nesting_depth))
