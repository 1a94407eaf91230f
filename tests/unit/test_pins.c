/* test_pins: opts.dim_pins. A graph with symbolic dims (E updates rows of C, scattered into N
 * rows; the index Expanded to the updates' Shape, as exporters write it with dynamic axes) is
 * not fused as loaded; with E and N pinned it fuses as its static export does, and gives the
 * bytes of an independent loop and of the unfused graph. Inputs of other sizes, and pins that
 * name nothing, are refused with messages naming what is wrong. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/check.h"
#include "tests/support/writer.h"

enum { N = 5, E = 7, C = 3 };

/* data [N, C], dst [E] (int64), upd [E, C]; y = ScatterElements(data, Expand(Unsqueeze(dst,
 * [1]), Shape(upd)), upd, reduction add). */
static void *model(size_t *len) {
    const int64_t dd[2] = {-1, C}, ds[1] = {-1}, du[2] = {-1, C};
    const char *nn[2] = {"N", NULL}, *ne[1] = {"E"}, *nu[2] = {"E", NULL};
    const osc_mw_value in[3] = {{"data", OSC_FLOAT, 2, dd, nn}, {"dst", OSC_INT64, 1, ds, ne},
                                {"upd", OSC_FLOAT, 2, du, nu}};
    osc_mw *mw = osc_mw_graph(17, 3, in);
    const int64_t one = 1;
    const osc_tensor axes = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = (void *)&one,
                             .nbytes = 8};
    osc_mw_initializer(mw, "axes", &axes);
    const char *i0[2] = {"dst", "axes"}, *o0[1] = {"u"};
    osc_mw_node(mw, "Unsqueeze", "unsq", 2, i0, 1, o0);
    const char *i1[1] = {"upd"}, *o1[1] = {"shape"};
    osc_mw_node(mw, "Shape", "shape", 1, i1, 1, o1);
    const char *i2[2] = {"u", "shape"}, *o2[1] = {"idx"};
    osc_mw_node(mw, "Expand", "expand", 2, i2, 1, o2);
    const char *i3[3] = {"data", "idx", "upd"}, *o3[1] = {"y"};
    const int s = osc_mw_node(mw, "ScatterElements", "scatter", 3, i3, 1, o3);
    osc_mw_attr_string(mw, s, "reduction", "add");
    osc_mw_output(mw, "y", OSC_FLOAT, 2, dd, nn);
    void *buf = NULL;
    if (osc_mw_serialize(mw, &buf, len) != OSC_OK) fail_msg("writer: %s", osc_mw_error(mw));
    osc_mw_free(mw);
    return buf;
}

/* The model loaded with these options; its status, message in msg. */
static osc_status load(const osc_options *o, osc_model **m, char *msg) {
    size_t len;
    void *buf = model(&len);
    const osc_status st = osc_model_load_buffer(buf, len, ".", o, m, msg, OSC_MESSAGE_SIZE);
    free(buf);
    return st;
}

static size_t fused_nodes(const osc_model *m) {
    size_t n = 0;
    osc_node_desc d;
    for (size_t i = 0; i < osc_model_node_count(m); i++)
        if (osc_model_node(m, i, &d) == OSC_OK) n += d.n_fused > 0;
    return n;
}

static const osc_dim_pin k_pins[2] = {{"E", E}, {"N", N}};

static osc_options pinned(int no_fusion) {
    osc_options o;
    osc_options_init(&o);
    o.dim_pins = k_pins;
    o.n_dim_pins = 2;
    o.no_fusion = (uint8_t)no_fusion;
    return o;
}

/* Fused pinned, and unpinned on its symbols (runtime/symbolic.c) too. */
static void test_fuses_pinned_or_not(void **state) {
    (void)state;
    char msg[OSC_MESSAGE_SIZE];
    osc_model *m;
    assert_int_equal(load(NULL, &m, msg), OSC_OK);
    assert_int_equal(fused_nodes(m), 1);
    osc_model_free(m);
    const osc_options o = pinned(0);
    assert_int_equal(load(&o, &m, msg), OSC_OK);
    assert_int_equal(fused_nodes(m), 1);
    osc_value_desc d;
    assert_int_equal(osc_model_input(m, 0, &d), OSC_OK); /* data: [N, C] with N pinned */
    assert_int_equal(d.dims[0], N);
    assert_string_equal(d.dim_names[0], "N");
    osc_options back;
    assert_int_equal(osc_model_options(m, &back), OSC_OK); /* the caller's array is not kept */
    assert_null(back.dim_pins);
    assert_int_equal(back.n_dim_pins, 0);
    osc_model_free(m);
}

/* y of the model, pinned or not, fused or not, on fixed inputs, against a loop written here. */
static void test_pinned_runs_exact(void **state) {
    (void)state;
    float data[N * C], upd[E * C], want[N * C];
    const int64_t dst[E] = {4, 0, 4, -1, 2, 0, 4}; /* duplicates and a negative index */
    for (int i = 0; i < N * C; i++) data[i] = want[i] = 0.5f * (float)i - 3.0f;
    for (int i = 0; i < E * C; i++) upd[i] = 1.0f / (float)(i + 3);
    for (int e = 0; e < E; e++)
        for (int c = 0; c < C; c++) want[((dst[e] + N) % N) * C + c] += upd[e * C + c];
    const osc_tensor t[3] = {
        {.dtype = OSC_FLOAT, .rank = 2, .dims = {N, C}, .data = data, .nbytes = sizeof data},
        {.dtype = OSC_INT64, .rank = 1, .dims = {E}, .data = (void *)dst, .nbytes = sizeof dst},
        {.dtype = OSC_FLOAT, .rank = 2, .dims = {E, C}, .data = upd, .nbytes = sizeof upd}};
    const char *names[3] = {"data", "dst", "upd"};
    /* The arena each way's run planned: unpinned as pinned. Unfused and unpinned, the Expand
     * reads Shape(upd) at run: a shape node (runtime/fold.c) computed when shapes are inferred,
     * so the run plans one arena as a static model does (a staged run holds none here). */
    uint64_t arena[4];
    for (int way = 0; way < 4; way++) { /* pinned or not (bit 1), fused or not (bit 0) */
        osc_options o = pinned(way & 1);
        if (way & 2) o.dim_pins = NULL, o.n_dim_pins = 0;
        char msg[OSC_MESSAGE_SIZE];
        osc_model *m;
        osc_session *s;
        assert_int_equal(load(&o, &m, msg), OSC_OK);
        assert_int_equal(fused_nodes(m), way & 1 ? 0 : 1);
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        const osc_tensor y = osc_check_run(s, 3, names, t);
        const int64_t yd[2] = {N, C};
        osc_check_shape(&y, OSC_FLOAT, 2, yd);
        osc_check_bytes(&y, want, sizeof want);
        arena[way] = osc_session_arena_bytes(s);
        osc_session_free(s);
        osc_model_free(m);
    }
    assert_true(arena[0] > 0 && arena[1] > 0);
    assert_int_equal(arena[2], arena[0]);
    assert_int_equal(arena[3], arena[1]);
}

/* Updates of E + 1 rows against an index of dst_rows (E or E + 1) rows, the model loaded with o:
 * refused before any node runs with OSC_ERR_SHAPE, the message holding both needles, the
 * caller's output buffer untouched. */
static void refused_run(const osc_options *o, int64_t dst_rows, const char *n1, const char *n2) {
    float data[N * C] = {0}, upd[(E + 1) * C] = {0}, out[N * C];
    int64_t dst[E + 1] = {0};
    memset(out, 0x5a, sizeof out);
    char msg[OSC_MESSAGE_SIZE];
    osc_model *m;
    osc_session *s;
    assert_int_equal(load(o, &m, msg), OSC_OK);
    assert_int_equal(fused_nodes(m), 1);
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    assert_int_equal(osc_session_set_output_buffer(s, 0, out, sizeof out), OSC_OK);
    const osc_tensor t[3] = {
        {.dtype = OSC_FLOAT, .rank = 2, .dims = {N, C}, .data = data, .nbytes = sizeof data},
        {.dtype = OSC_INT64, .rank = 1, .dims = {dst_rows}, .data = dst,
         .nbytes = (size_t)dst_rows * sizeof dst[0]},
        {.dtype = OSC_FLOAT, .rank = 2, .dims = {E + 1, C}, .data = upd, .nbytes = sizeof upd}};
    const char *names[3] = {"data", "dst", "upd"};
    osc_status st = OSC_OK;
    for (int i = 0; i < 3 && !st; i++) st = osc_session_set_input(s, names[i], &t[i]);
    if (!st) st = osc_session_run(s);
    assert_int_equal(st, OSC_ERR_SHAPE);
    const char *why = osc_session_error(s);
    if (!strstr(why, n1) || !strstr(why, n2)) fail_msg("message: %s", why);
    for (size_t i = 0; i < sizeof out; i++) assert_int_equal(((unsigned char *)out)[i], 0x5a);
    osc_session_free(s);
    osc_model_free(m);
}

/* Inputs of E + 1 rows against the pin E = 7. */
static void test_run_disagreeing_with_pin(void **state) {
    (void)state;
    const osc_options o = pinned(0);
    refused_run(&o, E + 1, "'dst'", "expected shape [7], given [8]");
}

/* Unpinned, fused on its symbols: dst of E = 7 values against updates of 8 rows, both E in the
 * model: refused before any node runs (the inputs bind E twice). (Sizes derived from the
 * symbols, such as E + N, are checked by the fused node before its first write.) */
static void test_unpinned_sizes_disagree(void **state) {
    (void)state;
    refused_run(NULL, E, "'upd' dim 0 ('E') is 8", "'dst' dim 0 gives 'E' = 7");
}

/* Pins that cannot be taken: OSC_ERR_ARG at load, the message naming the pin. */
static void test_bad_pins(void **state) {
    (void)state;
    static const struct {
        osc_dim_pin pins[2];
        size_t n;
        bool null_array;
        const char *needle, *needle2;
    } k_cases[] = {
        {{{"M", 3}}, 1, false, "dim_pins[0] 'M': no graph input has a dim of that name",
         "symbolic dims: N, E"},
        {{{"N", -1}}, 1, false, "dim_pins[0] 'N': size -1", "expected 0 to"},
        {{{"N", 2}, {"N", 3}}, 2, false, "dim_pins[1] 'N': pinned already", "dim_pins[0]"},
        {{{NULL, 2}}, 1, false, "dim_pins[0]: NULL name", NULL},
        {{{"", 2}}, 1, false, "dim_pins[0]: empty name", NULL},
        {{{"N", 2}}, 1, true, "dim_pins is NULL with n_dim_pins 1", NULL},
    };
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
        osc_options o;
        osc_options_init(&o);
        o.dim_pins = k_cases[i].null_array ? NULL : k_cases[i].pins;
        o.n_dim_pins = k_cases[i].n;
        char msg[OSC_MESSAGE_SIZE];
        osc_model *m = (osc_model *)&o; /* set to NULL by a failing load */
        assert_int_equal(load(&o, &m, msg), OSC_ERR_ARG);
        assert_null(m);
        if (!strstr(msg, k_cases[i].needle) ||
            (k_cases[i].needle2 && !strstr(msg, k_cases[i].needle2)))
            fail_msg("case %zu: message '%s'", i, msg);
    }
    osc_options o;
    osc_options_init(&o);
    o.reserved_ext[1] = 1;
    char msg[OSC_MESSAGE_SIZE];
    osc_model *m;
    assert_int_equal(load(&o, &m, msg), OSC_ERR_ARG);
    assert_non_null(strstr(msg, "opts.reserved_ext[1] is 1"));
}

/* y = ConstantOfShape(Max(Shape(e), [30])), e [E]: y has max(E, 30) elements, which is E at
 * every size over 30. The symbolic pass must not take it for E (a ShapeOf computing E): at E = 5
 * the output has 30 elements, fused or not; at E = 40, 40. */
static void test_threshold_is_no_symbol(void **state) {
    (void)state;
    const int64_t de[1] = {-1};
    const char *ne[1] = {"E"};
    const osc_mw_value in[1] = {{"e", OSC_FLOAT, 1, de, ne}};
    osc_mw *mw = osc_mw_graph(17, 1, in);
    const int64_t thirty = 30;
    const osc_tensor t30 = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = (void *)&thirty,
                            .nbytes = 8};
    osc_mw_initializer(mw, "thirty", &t30);
    osc_mw_node(mw, "Shape", "shape", 1, (const char *[]){"e"}, 1, (const char *[]){"s"});
    osc_mw_node(mw, "Max", "max", 2, (const char *[]){"s", "thirty"}, 1, (const char *[]){"m"});
    osc_mw_node(mw, "ConstantOfShape", "fill", 1, (const char *[]){"m"}, 1,
                (const char *[]){"y"});
    const char *ny[1] = {"Y"};
    osc_mw_output(mw, "y", OSC_FLOAT, 1, de, ny);
    void *buf = NULL;
    size_t len = 0;
    if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) fail_msg("writer: %s", osc_mw_error(mw));
    osc_mw_free(mw);
    for (int f = 0; f < 2; f++) {
        osc_options o;
        osc_options_init(&o);
        o.no_fusion = (uint8_t)f;
        osc_model *m = NULL;
        char msg[OSC_MESSAGE_SIZE];
        if (osc_model_load_buffer(buf, len, ".", &o, &m, msg, sizeof msg)) fail_msg("%s", msg);
        osc_session *s = NULL;
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        static float e[40];
        for (int64_t n = 5; n <= 40; n += 35) {
            const osc_tensor te = {.dtype = OSC_FLOAT, .rank = 1, .dims = {n}, .data = e,
                                   .nbytes = (size_t)n * sizeof e[0]};
            assert_int_equal(osc_session_set_input_at(s, 0, &te), OSC_OK);
            if (osc_session_run(s)) fail_msg("run: %s", osc_session_error(s));
            osc_tensor y;
            assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
            if (y.dims[0] != (n > 30 ? n : 30))
                fail_msg("fusion %s, E = %lld: y has %lld elements; want %lld", f ? "off" : "on",
                         (long long)n, (long long)y.dims[0], (long long)(n > 30 ? n : 30));
        }
        osc_session_free(s);
        osc_model_free(m);
    }
    free(buf);
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(test_fuses_pinned_or_not),
              cmocka_unit_test(test_threshold_is_no_symbol),
              cmocka_unit_test(test_pinned_runs_exact),
              cmocka_unit_test(test_run_disagreeing_with_pin),
              cmocka_unit_test(test_unpinned_sizes_disagree), cmocka_unit_test(test_bad_pins))
