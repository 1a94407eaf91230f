/* test_cli_random.c: unit tests of --random's index ranges and values (tools/random.c, shapes.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "tests/support/mw_check.h"
#include "tests/support/check.h"

/* data[N, C] -> ScatterElements(axis -1, i0[K, C]) -> ScatterND(i1[M, 2]) -> a;
 * GatherND(a, i2[N, P, 1], batch_dims 1) -> y; TensorScatter(cache[B, S, H], upd[B, T, H], w[B]);
 * GatherElements(data2[N, D], i0, axis 1) -> z: i0 is read by two nodes. */
static osc_model *load_model(void) {
    const int64_t d2[2] = {-1, -1}, m2[2] = {-1, 2}, p3[3] = {-1, -1, 1}, c3[3] = {-1, -1, 2}, b1[1] = {-1};
    const char *NC[2] = {"N", "C"}, *KC[2] = {"K", "C"}, *M2[2] = {"M", NULL}, *NP[3] = {"N", "P", NULL};
    const char *BSH[3] = {"B", "S", NULL}, *BTH[3] = {"B", "T", NULL}, *B[1] = {"B"};
    const char *ND[2] = {"N", "D"};
    const osc_mw_value ins[10] = {
        {"data", OSC_FLOAT, 2, d2, NC},   {"i0", OSC_INT32, 2, d2, KC},
        {"u0", OSC_FLOAT, 2, d2, KC},     {"i1", OSC_INT64, 2, m2, M2},
        {"u1", OSC_FLOAT, 1, d2, M2},     {"i2", OSC_INT64, 3, p3, NP},
        {"cache", OSC_FLOAT, 3, c3, BSH}, {"upd", OSC_FLOAT, 3, c3, BTH},
        {"w", OSC_INT64, 1, b1, B},       {"data2", OSC_FLOAT, 2, d2, ND},
    };
    osc_mw *mw = osc_mw_new(10);
    osc_mw_opset(mw, "", 24);
    osc_mw_inputs(mw, 10, ins);
    const char *in0[3] = {"data", "i0", "u0"}, *o0[1] = {"s"};
    int n = osc_mw_node(mw, "ScatterElements", "se", 3, in0, 1, o0);
    osc_mw_attr_int(mw, n, "axis", -1);
    const char *in1[3] = {"s", "i1", "u1"}, *o1[1] = {"a"};
    osc_mw_node(mw, "ScatterND", "snd", 3, in1, 1, o1);
    const char *in2[2] = {"a", "i2"}, *o2[1] = {"y"};
    n = osc_mw_node(mw, "GatherND", "gnd", 2, in2, 1, o2);
    osc_mw_attr_int(mw, n, "batch_dims", 1);
    const char *in3[3] = {"cache", "upd", "w"}, *o3[1] = {"present"};
    osc_mw_node(mw, "TensorScatter", "ts", 3, in3, 1, o3);
    const char *in4[2] = {"data2", "i0"}, *o4[1] = {"z"};
    n = osc_mw_node(mw, "GatherElements", "ge", 2, in4, 1, o4);
    osc_mw_attr_int(mw, n, "axis", 1);
    const osc_mw_value outs[3] = {
        {"z", OSC_FLOAT, 2, d2, KC}, {"y", OSC_FLOAT, 2, d2, NP}, {"present", OSC_FLOAT, 3, c3, BSH}};
    osc_mw_outputs(mw, 3, outs);
    return osc_check_load(mw, NULL);
}

static void set(cli_shapes *sh, const char *name, int32_t rank, int64_t d0, int64_t d1, int64_t d2) {
    const int64_t dims[3] = {d0, d1, d2};
    assert_int_equal(cli_shapes_set(sh, name, rank, dims), 0);
}

/* N = 5, C = 3, K = 2, M = 12, P = 4, B = 2, S = 7, T = 3, D = 2 */
static void shapes_of_inputs(cli_shapes *sh) {
    set(sh, "data", 2, 5, 3, 0);
    set(sh, "i0", 2, 2, 3, 0);
    set(sh, "u0", 2, 2, 3, 0);
    set(sh, "i1", 2, 12, 2, 0);
    set(sh, "u1", 1, 12, 0, 0);
    set(sh, "i2", 3, 5, 4, 1);
    set(sh, "cache", 3, 2, 7, 2);
    set(sh, "upd", 3, 2, 3, 2);
    set(sh, "w", 1, 2, 0, 0);
    set(sh, "data2", 2, 5, 2, 0);
}

static void test_propagated_shapes(void **state) {
    (void)state;
    osc_model *m = load_model();
    cli_shapes sh = {0};
    shapes_of_inputs(&sh);
    assert_int_equal(cli_shapes_propagate(&sh, m), 0);
    const cli_vshape *a = cli_shapes_get(&sh, "a"), *y = cli_shapes_get(&sh, "y");
    assert_non_null(a);
    assert_true(a->rank == 2 && a->dims[0] == 5 && a->dims[1] == 3);
    assert_non_null(y); /* indices [5, 4, 1] with batch_dims 1 over data [5, 3]: [5, 4] */
    assert_true(y->rank == 2 && y->dims[0] == 5 && y->dims[1] == 4);
    char buf[256];
    cli_shapes_node(&sh, m, 2, buf, sizeof buf);
    assert_string_equal(buf, "[5, 3] [5, 4, 1] -> [5, 4]");
    cli_shapes_free(&sh);
    osc_model_free(m);
}

static void test_ranges(void **state) {
    (void)state;
    osc_model *m = load_model();
    cli_shapes sh = {0};
    cli_irange r[10];
    memset(r, 0, sizeof r);
    shapes_of_inputs(&sh);
    assert_int_equal(cli_shapes_propagate(&sh, m), 0);
    assert_int_equal(cli_index_ranges(m, &sh, r), 0);
    /* i0: ScatterElements axis -1 of data [5, 3] allows [-3, 2], GatherElements axis 1 of
     * data2 [5, 2] allows [-2, 1]: both hold in the intersection */
    assert_true(r[1].set && r[1].k == 0 && r[1].lo[0] == -2 && r[1].hi[0] == 1);
    /* i1: ScatterND tuples of 2 over a [5, 3], distinct (reduction none) */
    assert_true(r[3].set && r[3].k == 2 && r[3].distinct);
    assert_true(r[3].lo[0] == 0 && r[3].hi[0] == 4 && r[3].lo[1] == 0 && r[3].hi[1] == 2);
    /* i2: GatherND batch_dims 1: component 0 indexes data dim 1 */
    assert_true(r[5].set && r[5].k == 1 && r[5].hi[0] == 2 && !r[5].distinct);
    /* w: TensorScatter along axis -2: 0 <= w <= S - T = 4 */
    assert_true(r[8].set && r[8].k == 0 && r[8].lo[0] == 0 && r[8].hi[0] == 4);
    /* data, updates and cache are not indices */
    assert_false(r[0].set || r[2].set || r[4].set || r[6].set || r[7].set || r[9].set);
    cli_shapes_free(&sh);
    osc_model_free(m);
}

/* Filled values stay in range for many seeds; ScatterND tuples never repeat while they fit. */
static void test_fill(void **state) {
    (void)state;
    cli_irange el = {.set = 1, .k = 0, .lo = {-3}, .hi = {2}};
    cli_irange tup = {.set = 1, .k = 2, .lo = {0, 0}, .hi = {4, 2}, .distinct = 1};
    char msg[256];
    for (uint64_t seed = 0; seed < 50; seed++) {
        osc_tensor t;
        const int64_t d1[1] = {200};
        assert_int_equal(cli_tensor_alloc(&t, OSC_INT32, 1, d1, 0, msg, sizeof msg), 0);
        assert_int_equal(cli_random_fill(&t, &el, seed, 1, msg, sizeof msg), 0);
        int seen_lo = 0, seen_hi = 0;
        for (int i = 0; i < 200; i++) {
            int32_t v = ((int32_t *)t.data)[i];
            assert_true(v >= -3 && v <= 2);
            seen_lo |= v == -3, seen_hi |= v == 2;
        }
        assert_true(seen_lo && seen_hi); /* both ends are drawn */
        free(t.data);
        const int64_t d2[2] = {15, 2}; /* 15 tuples, 5 x 3 = 15 places: a permutation */
        assert_int_equal(cli_tensor_alloc(&t, OSC_INT64, 2, d2, 0, msg, sizeof msg), 0);
        assert_int_equal(cli_random_fill(&t, &tup, seed, 3, msg, sizeof msg), 0);
        int used[5][3] = {{0}};
        for (int q = 0; q < 15; q++) {
            int64_t a = ((int64_t *)t.data)[2 * q], b = ((int64_t *)t.data)[2 * q + 1];
            assert_true(a >= 0 && a <= 4 && b >= 0 && b <= 2);
            if (used[a][b]++) fail_msg("seed %llu: tuple (%lld, %lld) repeats", (unsigned long long)seed, (long long)a, (long long)b);
        }
        free(t.data);
    }
    /* the same seed and input give the same values; another input position other values */
    osc_tensor a, b, c;
    const int64_t d[1] = {64};
    cli_tensor_alloc(&a, OSC_FLOAT, 1, d, 0, msg, sizeof msg);
    cli_tensor_alloc(&b, OSC_FLOAT, 1, d, 0, msg, sizeof msg);
    cli_tensor_alloc(&c, OSC_FLOAT, 1, d, 0, msg, sizeof msg);
    cli_random_fill(&a, NULL, 9, 0, msg, sizeof msg);
    cli_random_fill(&b, NULL, 9, 0, msg, sizeof msg);
    cli_random_fill(&c, NULL, 9, 1, msg, sizeof msg);
    assert_memory_equal(a.data, b.data, a.nbytes);
    assert_memory_not_equal(a.data, c.data, a.nbytes);
    for (int i = 0; i < 64; i++) assert_true(((float *)a.data)[i] >= -1 && ((float *)a.data)[i] < 1);
    free(a.data), free(b.data), free(c.data);
    /* an empty range with elements to fill is an error naming the readers */
    cli_irange none = {.set = 1, .k = 0, .lo = {0}, .hi = {-1}, .lo_by = "node A", .hi_by = "node B"};
    cli_tensor_alloc(&a, OSC_INT64, 1, d, 0, msg, sizeof msg);
    assert_int_equal(cli_random_fill(&a, &none, 0, 0, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "no value is valid for every node reading it: node A; node B"));
    cli_irange refused = {.none = 1, .why = "it is the target shape of node R"};
    assert_int_equal(cli_random_fill(&a, &refused, 0, 0, msg, sizeof msg), 1);
    assert_non_null(strstr(msg, "no random value is safe: it is the target shape of node R"));
    free(a.data);
    /* a range wider than the dtype is clamped to it */
    cli_irange wide = {.set = 1, .k = 0, .lo = {-1000}, .hi = {1000}};
    cli_tensor_alloc(&a, OSC_INT8, 1, d, 0, msg, sizeof msg);
    assert_int_equal(cli_random_fill(&a, &wide, 3, 0, msg, sizeof msg), 0);
    free(a.data);
    cli_tensor_alloc(&a, OSC_UINT8, 1, d, 0, msg, sizeof msg);
    assert_int_equal(cli_random_fill(&a, &wide, 3, 0, msg, sizeof msg), 0);
    for (int i = 0; i < 64; i++) assert_true(((uint8_t *)a.data)[i] <= 255);
    free(a.data);
    /* a scalar (a position or a count) is drawn from 0 on: within [-5, 5], and unconstrained;
     * both ends of [0, 5] are seen */
    cli_irange pos = {.set = 1, .k = 0, .lo = {-5}, .hi = {5}};
    int seen0 = 0, seen5 = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        cli_tensor_alloc(&a, OSC_INT64, 0, d, 0, msg, sizeof msg);
        assert_int_equal(cli_random_fill(&a, &pos, seed, 0, msg, sizeof msg), 0);
        int64_t v = *(int64_t *)a.data;
        assert_true(v >= 0 && v <= 5);
        seen0 |= v == 0, seen5 |= v == 5;
        assert_int_equal(cli_random_fill(&a, NULL, seed, 0, msg, sizeof msg), 0);
        assert_true(*(int64_t *)a.data >= 0 && *(int64_t *)a.data <= 100);
        free(a.data);
    }
    assert_true(seen0 && seen5);
}

/* idx [3] -> Unsqueeze(axes 1) -> Cast(int32) -> Gather(x [6, 4], axis 1): [-4, 3] through
 * two ops; rows [3] -> Unsqueeze(-1) -> Concat(-1) with cols -> ScatterND(x) tuples: rows is
 * component 0 ([0, 5]), cols component 1 ([0, 3]). */
static void test_walk(void **state) {
    (void)state;
    const int64_t dx[2] = {6, 4}, d3[1] = {3}, one[1] = {1}, minus[1] = {-1};
    osc_mw *mw = osc_mw_graph(13, 5, (const osc_mw_value[5]){
        {"x", OSC_FLOAT, 2, dx, NULL}, {"idx", OSC_INT64, 1, d3, NULL},
        {"rows", OSC_INT64, 1, d3, NULL}, {"cols", OSC_INT64, 1, d3, NULL},
        {"u", OSC_FLOAT, 1, d3, NULL}});
    osc_tensor t1 = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = (void *)one, .nbytes = 8};
    osc_tensor tm = {.dtype = OSC_INT64, .rank = 1, .dims = {1}, .data = (void *)minus, .nbytes = 8};
    osc_mw_initializer(mw, "one", &t1);
    osc_mw_initializer(mw, "minus", &tm);
    const char *a[2] = {"idx", "one"}, *ao[1] = {"iu"}, *b[1] = {"iu"}, *bo[1] = {"ic"};
    osc_mw_node(mw, "Unsqueeze", "u0", 2, a, 1, ao);
    osc_mw_attr_int(mw, osc_mw_node(mw, "Cast", "c0", 1, b, 1, bo), "to", OSC_INT32);
    const char *c[2] = {"x", "ic"}, *co[1] = {"g"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "Gather", "g0", 2, c, 1, co), "axis", 1);
    const char *r[2] = {"rows", "minus"}, *ro[1] = {"ru"}, *q[2] = {"cols", "minus"}, *qo[1] = {"cu"};
    osc_mw_node(mw, "Unsqueeze", "u1", 2, r, 1, ro);
    osc_mw_node(mw, "Unsqueeze", "u2", 2, q, 1, qo);
    const char *k[2] = {"ru", "cu"}, *ko[1] = {"t"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "Concat", "cat", 2, k, 1, ko), "axis", -1);
    const char *s[3] = {"x", "t", "u"}, *so[1] = {"s"};
    osc_mw_node(mw, "ScatterND", "snd", 3, s, 1, so);
    const int64_t dg[3] = {6, 3, 1};
    osc_mw_output(mw, "g", OSC_FLOAT, 3, dg, NULL);
    osc_mw_output(mw, "s", OSC_FLOAT, 2, dx, NULL);
    osc_model *m = osc_check_load(mw, NULL);
    cli_shapes sh = {0};
    cli_irange rg[5];
    memset(rg, 0, sizeof rg);
    assert_int_equal(cli_index_ranges(m, &sh, rg), 0);
    assert_true(rg[1].set && rg[1].k == 0 && rg[1].lo[0] == -4 && rg[1].hi[0] == 3);
    assert_non_null(strstr(rg[1].lo_by, "node 'g0' (Gather-13) input 1 (through Unsqueeze, Cast)"));
    assert_true(rg[2].set && rg[2].k == 0 && rg[2].lo[0] == 0 && rg[2].hi[0] == 5);
    assert_true(rg[3].set && rg[3].k == 0 && rg[3].lo[0] == 0 && rg[3].hi[0] == 3);
    assert_false(rg[0].set || rg[4].set);
    cli_shapes_free(&sh);
    osc_model_free(m);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_propagated_shapes),
    cmocka_unit_test(test_ranges),
    cmocka_unit_test(test_fill),
    cmocka_unit_test(test_walk),
)
