/* test_fusion_degree.c: scatters of one value repeated (OSC_FS params const_updates: GCN's
 * degree, ScatterElements(zeros, Concat(edge_index[1], loops), ones)). The fused RowScatter reads
 * no updates; from its second run on, it makes the grouping of the index the layer's
 * aggregation made in the run before (the tiny-threshold build groups every fused scatter) and
 * combines the value once per edge of each row, without reading an edge. Every reduction, float
 * and double, int32 and int64 indices with negative values, the value from a ConstantOfShape or
 * a folded constant, the degree over zeros, over an input, in place over an intermediate, after
 * a -inf reset (include_self=False), or with an Add after it, the index a Concat with the self
 * loops (GCN) or edge_index[1] alone (SAGE's count): three runs of one session on 1 to 3
 * threads, fused and unfused, each the loop's bits. */
#include <math.h>
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
#include "tests/support/mw_check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

enum { N = 9, E0 = 40, L = 6, E = E0 + L, C = 16 };
enum { ZEROS, INPUT, IN_PLACE, RESET, EPILOGUE };

typedef struct spelling {
    int32_t dtype, itype;
    const char *reduction;
    double value;
    bool folded; /* the repeated value a folded initializer, else a ConstantOfShape */
    int start;
    bool plain;  /* the index edge_index[1] alone (SAGE's count), not a Concat with loops */
} spelling;

#define NODE(OP, NAME, N_IN, OUT, ...)                                                         \
    osc_mw_node(mw, OP, NAME, N_IN, (const char *[]){__VA_ARGS__}, 1, (const char *[]){OUT})

/* An initializer `name` of n values v of dtype dt (rank 1; rank 0 with n 0: one value). */
static void init(osc_mw *mw, const char *name, int32_t dt, int64_t n, double v) {
    double buf[N * C > E ? N * C : E];
    for (int64_t i = 0; i < (n ? n : 1); i++) {
        if (dt == OSC_FLOAT) ((float *)buf)[i] = (float)v;
        else if (dt == OSC_DOUBLE) buf[i] = v;
        else ((int64_t *)buf)[i] = (int64_t)v;
    }
    const osc_tensor t = osc_test_view(dt, n ? 1 : 0, (const int64_t[]){n}, buf);
    osc_mw_initializer(mw, name, &t);
}

static void *build(const spelling *s, size_t *len) {
    const int64_t xd[2] = {N, C}, ed[2] = {2, E0}, ld[1] = {L}, nd[1] = {N};
    osc_mw *mw = osc_mw_graph(18, 0, NULL);
    osc_mw_input(mw, "x", s->dtype, 2, xd, NULL);
    osc_mw_input(mw, "edge_index", s->itype, 2, ed, NULL);
    if (!s->plain) osc_mw_input(mw, "loops", s->itype, 1, ld, NULL);
    if (s->start == INPUT || s->start == IN_PLACE) osc_mw_input(mw, "d", s->dtype, 1, nd, NULL);
    init(mw, "k0", OSC_INT64, 0, 0);
    init(mw, "k1", OSC_INT64, 0, 1);
    init(mw, "axes", OSC_INT64, 1, 1);
    init(mw, "zeros", s->dtype, N, 0);
    NODE("Gather", "row", 2, "e0", "edge_index", "k0");
    NODE("Gather", "col", 2, "e1", "edge_index", "k1");
    const char *src = s->plain ? "e0" : "src", *dst = s->plain ? "e1" : "dst";
    if (!s->plain) {
        osc_mw_attr_int(mw, NODE("Concat", "cat_src", 2, "src", "e0", "loops"), "axis", 0);
        osc_mw_attr_int(mw, NODE("Concat", "cat_dst", 2, "dst", "e1", "loops"), "axis", 0);
    }
    if (s->folded) {
        init(mw, "ones", s->dtype, s->plain ? E0 : E, s->value);
    } else {
        NODE("Shape", "dshape", 1, "dst_shape", dst);
        const int n = NODE("ConstantOfShape", "fill", 1, "ones", "dst_shape");
        const float vf = (float)s->value;
        const osc_tensor t = osc_test_view(s->dtype, 1, (const int64_t[]){1},
                                           s->dtype == OSC_FLOAT ? (const void *)&vf : &s->value);
        osc_mw_attr_tensor(mw, n, "value", &t);
    }
    const char *data = s->start == INPUT ? "d" : "zeros";
    if (s->start == IN_PLACE) NODE("Neg", "neg", 1, data = "nd", "d");
    if (s->start == RESET) { /* torch's include_self=False: the reached rows start at -inf */
        init(mw, "minf", s->dtype, s->plain ? E0 : E, -INFINITY);
        NODE("ScatterElements", "reset", 3, "reset_out", "zeros", dst, "minf");
        data = "reset_out";
    }
    const int n = NODE("ScatterElements", "degree", 3, s->start == EPILOGUE ? "deg0" : "deg",
                       data, dst, "ones");
    osc_mw_attr_string(mw, n, "reduction", s->reduction);
    if (s->start == EPILOGUE) {
        init(mw, "half", s->dtype, 1, 0.5);
        NODE("Add", "plus", 2, "deg", "deg0", "half");
    }
    /* the layer's aggregation over the same index, which groups it */
    NODE("Gather", "xg", 2, "xs", "x", src);
    NODE("Unsqueeze", "du", 2, "dcol", dst, "axes");
    NODE("Shape", "xsh", 1, "xs_shape", "xs");
    NODE("Expand", "idx", 2, "didx", "dcol", "xs_shape");
    NODE("Shape", "ysh", 1, "x_shape", "x");
    const int z = NODE("ConstantOfShape", "yz", 1, "y0", "x_shape");
    double zero[1] = {0};
    const osc_tensor zt = osc_test_view(s->dtype, 1, (const int64_t[]){1}, zero);
    osc_mw_attr_tensor(mw, z, "value", &zt);
    const int a = NODE("ScatterElements", "agg", 3, "y", "y0", "didx", "xs");
    osc_mw_attr_string(mw, a, "reduction", "add");
    osc_mw_output(mw, "deg", s->dtype, 1, nd, NULL);
    osc_mw_output(mw, "y", s->dtype, 2, xd, NULL);
    return osc_check_serialize(mw, len);
}

/* The inputs: x small values, edges at random rows with negative ones, loops -3 .. 2, d. */
typedef struct inputs {
    double x[N * C], d[N];
    int64_t ei[2 * E0], loops[L];
} inputs;

static void make_inputs(inputs *in) {
    uint32_t r = 777;
    for (int i = 0; i < N * C; i++) in->x[i] = (double)((int)(osc_test_rnd32(&r) % 9) - 4) / 4;
    for (int i = 0; i < N; i++) in->d[i] = (double)((int)(osc_test_rnd32(&r) % 7) - 3) / 2;
    for (int e = 0; e < 2 * E0; e++) in->ei[e] = (int64_t)(osc_test_rnd32(&r) % (2 * N)) - N;
    in->ei[E0 + 5] = in->ei[E0 + 6] = 4; /* (a row reached at least twice) */
    for (int l = 0; l < L; l++) in->loops[l] = l - L / 2;
}

static int64_t wrap(int64_t v) { return v < 0 ? v + N : v; }

/* The degree computed here, in edge order. */
static void expect(const spelling *s, const inputs *in, double *deg) {
    const int32_t dt = s->dtype;
    const double c = osc_check_round(dt, s->value);
    bool reached[N] = {false};
    for (int i = 0; i < N; i++) {
        const double d = osc_check_round(dt, in->d[i]);
        deg[i] = s->start == INPUT ? d : s->start == IN_PLACE ? -d : 0;
    }
    for (int e = 0; e < (s->plain ? E0 : E); e++) {
        const int64_t d = wrap(e < E0 ? in->ei[E0 + e] : in->loops[e - E0]);
        const double t = s->start == RESET && !reached[d] ? -INFINITY : deg[d];
        deg[d] = osc_check_reduce(dt, s->reduction, t, c);
        reached[d] = true;
    }
    for (int i = 0; s->start == EPILOGUE && i < N; i++)
        deg[i] = osc_check_round(dt, deg[i] + 0.5);
}

/* in's values as the spelling's tensors x, edge_index, loops and d (data in *at). */
static void tensors(const spelling *s, const inputs *in, unsigned char *at, osc_tensor *t) {
    t[0] = osc_test_pack(s->dtype, 2, (const int64_t[]){N, C}, in->x, NULL, &at);
    t[1] = osc_test_pack(s->itype, 2, (const int64_t[]){2, E0}, NULL, in->ei, &at);
    t[2] = osc_test_pack(s->itype, 1, (const int64_t[]){L}, NULL, in->loops, &at);
    t[3] = osc_test_pack(s->dtype, 1, (const int64_t[]){N}, in->d, NULL, &at);
}

/* Runs s fused and unfused on 1 to 3 threads, three runs a session: each run's degree the
 * loop's bits; *fused the number of RowScatter nodes of the fused model. */
static void check(const spelling *s, int *fused) {
    size_t len;
    void *buf = build(s, &len);
    inputs in;
    make_inputs(&in);
    _Alignas(8) unsigned char data[8192];
    osc_tensor t[4];
    tensors(s, &in, data, t);
    double want[N];
    expect(s, &in, want);
    const int n_in = s->start == INPUT || s->start == IN_PLACE ? 4 : 3;
    const char *names[4] = {"x", "edge_index", s->plain ? "d" : "loops", "d"};
    t[2] = s->plain ? t[3] : t[2]; /* (no loops input) */
    for (int fusion = 0; fusion < 2; fusion++)
        for (int threads = 1; threads <= 3; threads++) {
            osc_options o;
            osc_options_init(&o);
            o.no_fusion = !fusion;
            o.threads = threads;
            osc_model *m = osc_check_load_buffer(buf, len, &o);
            char why[256];
            if (fusion && threads == 1) *fused = osc_check_fused(m, "RowScatter", "", why, 8);
            for (size_t i = 0; fusion && i < osc_model_node_count(m); i++) {
                osc_node_desc nd;
                assert_int_equal(osc_model_node(m, i, &nd), OSC_OK);
                if (!strcmp(nd.name, "degree") && (nd.n_inputs < 3 || *nd.inputs[2]))
                    fail_msg("the degree's node reads updates '%s'",
                             nd.n_inputs < 3 ? "(none)" : nd.inputs[2]);
            }
            osc_session *ss = NULL;
            assert_int_equal(osc_session_create(m, &ss), OSC_OK);
            for (int run = 0; run < 3; run++) {
                const osc_tensor deg = osc_check_run(ss, n_in - s->plain, names, t);
                double got;
                const int i = osc_check_first_diff(&deg, want, N, &got);
                if (i >= 0)
                    fail_msg("%s of %g, %s, int%d, start %d%s, fusion %s, %d threads, run %d: "
                             "deg[%d] is %.17g; the loop gives %.17g", s->reduction, s->value,
                             s->dtype == OSC_FLOAT ? "float" : "double",
                             s->itype == OSC_INT32 ? 32 : 64, s->start,
                             s->folded ? ", folded" : "", fusion ? "on" : "off", threads,
                             run + 1, i, got, want[i]);
            }
            osc_session_free(ss);
            osc_model_free(m);
        }
    free(buf);
}

static void degree_every_spelling(void **state) {
    (void)state;
    static const char *const reds[5] = {"none", "add", "mul", "max", "min"};
    for (int r = 0; r < 5; r++)
        for (int v = 0; v < 14; v++) {
            const spelling s = {v % 2 ? OSC_DOUBLE : OSC_FLOAT, v % 3 ? OSC_INT64 : OSC_INT32,
                                reds[r], v % 4 == 3 ? 0.1 : 1.0, v % 4 == 1, v % 5, v >= 10};
            int fused = 0;
            check(&s, &fused);
            /* (a reset before a scatter without reduction is not taken in: two nodes) */
            const int want = s.start == RESET && r == 0 ? 2 : 1;
            if (fused != want)
                fail_msg("%s, variant %d: %d RowScatter nodes; want %d", reds[r], v, fused, want);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(degree_every_spelling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
