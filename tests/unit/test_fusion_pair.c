/* test_fusion_pair.c: a fused gather-scatter whose per-edge operand is the product of two
 * per-node tables (rewrite/pair_operand.c, OSC_FS_PAIR in ops/fused/fused_scatter.h): GCN's edge
 * norm, Mul(Gather(A, src), Gather(B, dst)), read by the aggregation from A and B. Outputs with
 * fusion on must equal fusion off and a loop here bit for bit, on 1 to 3 threads, for every
 * reduction, float and double, int32 and int64 indices with negative values, either operand
 * order, static or dynamic axes, the output from zeros, from an input, or in place over an
 * intermediate (the kernel computes the values where it places its records, else into an array
 * first: the tiny-threshold build takes the first path, the library's the second). The fused
 * model keeps no Gather or Mul; look-alikes keep theirs: A gathered by another index, B by the
 * source index, A longer than the gathered rows. Each allocation of a run failing in turn gives
 * a clean OSC_ERR_NOMEM with the output untouched, or the loop's bits. */
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

enum { N = 7, E = 23, C = 16 }; /* (rows of 16: room in the output for a record per edge) */
enum { DATA_ZEROS, DATA_INPUT, DATA_IN_PLACE };
enum { PATTERN, OTHER_INDEX, SRC_TWICE, LONG_TABLE };

typedef struct spelling {
    int32_t dtype, itype;
    const char *reduction;
    bool swap_norm, swap_msg; /* Mul(B[dst], A[src]); Mul(norm, h[src]) */
    int data;
    bool dynamic;             /* N and E as dim_params */
    int look;                 /* PATTERN, or a look-alike the rewrite must leave */
} spelling;

static const char *const k_in[7] = {"h", "a", "b", "src", "dst", "other", "d"};

static void *build(const spelling *s, size_t *len) {
    const char *nd[2] = {"N", NULL}, *ed[1] = {"E"};
    const int64_t hd[2] = {s->dynamic ? -1 : N, C}, td[1] = {s->dynamic ? -1 : N};
    const int64_t ld[1] = {N + 1}, ix[1] = {s->dynamic ? -1 : E};
    osc_mw *mw = osc_mw_graph(18, 0, NULL);
    osc_mw_input(mw, "h", s->dtype, 2, hd, nd);
    osc_mw_input(mw, "a", s->dtype, 1, s->look == LONG_TABLE ? ld : td, nd);
    osc_mw_input(mw, "b", s->dtype, 1, td, nd);
    for (int i = 3; i < 6; i++) osc_mw_input(mw, k_in[i], s->itype, 1, ix, ed);
    if (s->data != DATA_ZEROS) osc_mw_input(mw, "d", s->dtype, 2, hd, nd);
    const int64_t one = 1;
    const osc_tensor axes = osc_test_view(OSC_INT64, 1, (const int64_t[]){1}, &one);
    osc_mw_initializer(mw, "axes", &axes);
    osc_mw_node(mw, "Gather", "ga", 2,
                (const char *[]){"a", s->look == OTHER_INDEX ? "other" : "src"}, 1,
                (const char *[]){"ga"});
    osc_mw_node(mw, "Gather", "gb", 2, (const char *[]){"b", s->look == SRC_TWICE ? "src" : "dst"},
                1, (const char *[]){"gb"});
    osc_mw_node(mw, "Mul", "norm", 2,
                s->swap_norm ? (const char *[]){"gb", "ga"} : (const char *[]){"ga", "gb"}, 1,
                (const char *[]){"norm"});
    osc_mw_node(mw, "Unsqueeze", "nu", 2, (const char *[]){"norm", "axes"}, 1,
                (const char *[]){"nu"});
    osc_mw_node(mw, "Gather", "xg", 2, (const char *[]){"h", "src"}, 1, (const char *[]){"xg"});
    osc_mw_node(mw, "Mul", "msg", 2,
                s->swap_msg ? (const char *[]){"nu", "xg"} : (const char *[]){"xg", "nu"}, 1,
                (const char *[]){"msg"});
    osc_mw_node(mw, "Unsqueeze", "du", 2, (const char *[]){"dst", "axes"}, 1,
                (const char *[]){"du"});
    osc_mw_node(mw, "Shape", "shape", 1, (const char *[]){"msg"}, 1, (const char *[]){"shape"});
    osc_mw_node(mw, "Expand", "idx", 2, (const char *[]){"du", "shape"}, 1,
                (const char *[]){"idx"});
    const char *data = "data";
    if (s->data == DATA_ZEROS) {
        osc_mw_node(mw, "Shape", "hs", 1, (const char *[]){"h"}, 1, (const char *[]){"hshape"});
        const int n = osc_mw_node(mw, "ConstantOfShape", "zeros", 1, (const char *[]){"hshape"},
                                  1, (const char *[]){"data"});
        const double z = 0;
        const float zf = 0;
        const osc_tensor v = osc_test_view(s->dtype, 1, (const int64_t[]){1},
                                           s->dtype == OSC_FLOAT ? (const void *)&zf : &z);
        osc_mw_attr_tensor(mw, n, "value", &v);
    } else if (s->data == DATA_IN_PLACE) { /* an intermediate read by the scatter alone */
        osc_mw_node(mw, "Neg", "neg", 1, (const char *[]){"d"}, 1, (const char *[]){"data"});
    } else {
        data = "d";
    }
    const int n = osc_mw_node(mw, "ScatterElements", "scatter", 3,
                              (const char *[]){data, "idx", "msg"}, 1, (const char *[]){"y"});
    osc_mw_attr_int(mw, n, "axis", 0);
    osc_mw_attr_string(mw, n, "reduction", s->reduction);
    osc_mw_output(mw, "y", s->dtype, 2, hd, nd);
    return osc_check_serialize(mw, len);
}

/* The inputs: small values with negative ones, a zero and a -0, and indices with negative
 * values and repeats (every row but one reached, row 3 by many edges). */
typedef struct inputs {
    double h[N * C], a[N + 1], b[N], d[N * C];
    int64_t src[E], dst[E], other[E];
} inputs;

static void make_inputs(inputs *in) {
    uint32_t r = 12345;
    for (int i = 0; i < N * C; i++) {
        in->h[i] = (double)((int)(osc_test_rnd32(&r) % 17) - 8) / 4;
        in->d[i] = (double)((int)(osc_test_rnd32(&r) % 9) - 4) / 2;
    }
    for (int i = 0; i <= N; i++) in->a[i] = (double)((int)(osc_test_rnd32(&r) % 7) - 3) / 8;
    for (int i = 0; i < N; i++) in->b[i] = 1.0 / (i + 1) - (i == 2);
    in->a[1] = -0.0;
    for (int e = 0; e < E; e++) {
        in->src[e] = (int64_t)(osc_test_rnd32(&r) % (2 * N)) - N;
        in->dst[e] = e % 3 ? 3 - N * (e % 2) : (int64_t)(osc_test_rnd32(&r) % (N - 1)) - 2;
        in->other[e] = (in->src[e] + 2 * N + 1) % N;
    }
}

static int64_t wrap(int64_t v, int64_t n) { return v < 0 ? v + n : v; }

/* The scatter computed here, in edge order, from in's values rounded to the dtype. */
static void expect(const spelling *s, const inputs *in, double *y) {
    const int32_t dt = s->dtype;
    for (int i = 0; i < N * C; i++) {
        const double d = osc_check_round(dt, in->d[i]);
        y[i] = s->data == DATA_ZEROS ? 0 : s->data == DATA_IN_PLACE ? -d : d;
    }
    for (int e = 0; e < E; e++) {
        const int64_t sr = wrap(in->src[e], N), dr = wrap(in->dst[e], N);
        const int64_t ar = wrap(s->look == OTHER_INDEX ? in->other[e] : in->src[e],
                                s->look == LONG_TABLE ? N + 1 : N);
        const double a = osc_check_round(dt, in->a[ar]);
        const double b = osc_check_round(dt, in->b[s->look == SRC_TWICE ? sr : dr]);
        const double w = osc_check_round(dt, a * b);
        for (int j = 0; j < C; j++) {
            const double m = osc_check_round(dt, osc_check_round(dt, in->h[sr * C + j]) * w);
            y[dr * C + j] = osc_check_reduce(dt, s->reduction, y[dr * C + j], m);
        }
    }
}

/* A spelling's model and inputs (`values`: the spelling whose table sizes they take), and the
 * loop's output. */
typedef struct prepared {
    void *buf;
    size_t len;
    osc_tensor t[7];
    _Alignas(8) unsigned char data[4096];
    double want[N * C];
} prepared;

static void prepare(const spelling *s, const spelling *values, prepared *p) {
    inputs in;
    make_inputs(&in);
    p->buf = build(s, &p->len);
    expect(s, &in, p->want);
    const double *v[7] = {in.h, in.a, in.b, NULL, NULL, NULL, in.d};
    const int64_t *ix[7] = {NULL, NULL, NULL, in.src, in.dst, in.other, NULL};
    const int64_t dims[7][2] = {{N, C}, {values->look == LONG_TABLE ? N + 1 : N}, {N}, {E}, {E},
                                {E}, {N, C}};
    unsigned char *at = p->data;
    for (int k = 0; k < 7; k++)
        p->t[k] = osc_test_pack(v[k] ? s->dtype : s->itype, k == 0 || k == 6 ? 2 : 1, dims[k],
                                v[k], ix[k], &at);
}


/* Runs s fused and unfused on 1 to 3 threads: every output equal to the loop's bits; the fused
 * model's nodes in `nodes`. */
static void check(const spelling *s, char *nodes, size_t size) {
    prepared p;
    prepare(s, s, &p);
    for (int fusion = 0; fusion < 2; fusion++)
        for (int threads = 1; threads <= 3; threads++) {
            osc_options o;
            osc_options_init(&o);
            o.no_fusion = !fusion;
            o.threads = threads;
            osc_model *m = osc_check_load_buffer(p.buf, p.len, &o);
            if (fusion && threads == 1) osc_check_nodes(m, OSC_CHECK_RUNNING, nodes, size);
            osc_session *ss = NULL;
            assert_int_equal(osc_session_create(m, &ss), OSC_OK);
            const osc_tensor y = osc_check_run(ss, s->data == DATA_ZEROS ? 6 : 7, k_in, p.t);
            double got;
            const int i = osc_check_first_diff(&y, p.want, N * C, &got);
            if (i >= 0)
                fail_msg("%s, %s, int%d indices, data %d%s%s%s, fusion %s, %d threads: y[%d] "
                         "is %.17g; the loop gives %.17g", s->reduction,
                         s->dtype == OSC_FLOAT ? "float" : "double",
                         s->itype == OSC_INT32 ? 32 : 64, s->data, s->swap_norm ? ", B A" : "",
                         s->swap_msg ? ", norm h" : "", s->dynamic ? ", dynamic" : "",
                         fusion ? "on" : "off", threads, i, got, p.want[i]);
            osc_session_free(ss);
            osc_model_free(m);
        }
    free(p.buf);
}

static void pair_every_spelling(void **state) {
    (void)state;
    static const char *const reds[5] = {"none", "add", "mul", "max", "min"};
    char nodes[512];
    for (int r = 0; r < 5; r++)
        for (int v = 0; v < 12; v++) {
            const spelling s = {v % 2 ? OSC_DOUBLE : OSC_FLOAT, v % 3 ? OSC_INT64 : OSC_INT32,
                                reds[r], v % 4 >= 2, v % 5 == 1, v / 4 % 3, v >= 6, PATTERN};
            check(&s, nodes, sizeof nodes);
            const char *want = s.data == DATA_IN_PLACE ? "neg:Neg scatter:GatherScatter"
                                                       : "scatter:GatherScatter";
            if (strcmp(nodes, want))
                fail_msg("%s, variant %d: nodes '%s'; want '%s'", reds[r], v, nodes, want);
        }
}

static void look_alikes_keep_their_nodes(void **state) {
    (void)state;
    char nodes[512];
    for (int look = OTHER_INDEX; look <= LONG_TABLE; look++) {
        const spelling s = {OSC_FLOAT, OSC_INT64, "add", false, false, DATA_INPUT, false, look};
        check(&s, nodes, sizeof nodes);
        if (!strstr(nodes, "norm:Mul") || !strstr(nodes, "scatter:GatherScatter"))
            fail_msg("look-alike %d: nodes '%s'; want the norm's Mul kept", look, nodes);
    }
}

/* Every allocation of a first run from the k-th on fails, for each k, on 1 and 2 threads: the
 * run fails with OSC_ERR_NOMEM and a message, the caller's output buffer untouched, or gives
 * the loop's bits (the values' array is made before the first write). */
static void memory_failures(void **state) {
    (void)state;
    const spelling s = {OSC_FLOAT, OSC_INT64, "add", false, false, DATA_INPUT, false, PATTERN};
    prepared p;
    prepare(&s, &s, &p);
    for (int threads = 1; threads <= 2; threads++)
        for (long k = 1;; k++) {
            osc_test_failing f = {.rest = true};
            osc_options o;
            osc_options_init(&o);
            o.threads = threads;
            o.alloc = osc_test_failing_alloc;
            o.alloc_ud = &f;
            osc_model *m = osc_check_load_buffer(p.buf, p.len, &o);
            osc_session *ss = NULL;
            assert_int_equal(osc_session_create(m, &ss), OSC_OK);
            float out[N * C];
            memset(out, 0x5a, sizeof out);
            assert_int_equal(osc_session_set_output_buffer(ss, 0, out, sizeof out), OSC_OK);
            osc_check_bind(ss, 7, k_in, p.t);
            f.fail_at = f.count + k;
            const osc_status st = osc_session_run(ss);
            const bool last = !f.failed; /* k is past the run's allocations */
            if (st && (st != OSC_ERR_NOMEM || !*osc_session_error(ss)))
                fail_msg("%d threads, k %ld: status %d, '%s'", threads, k, (int)st,
                         osc_session_error(ss));
            char what[64];
            snprintf(what, sizeof what, "%d threads, k %ld", threads, k);
            if (st) osc_check_untouched(out, sizeof out, 0x5a, what);
            double got;
            const osc_tensor y = osc_test_view(OSC_FLOAT, 1, (const int64_t[]){N * C}, out);
            if (!st && osc_check_first_diff(&y, p.want, N * C, &got) >= 0)
                fail_msg("%d threads, k %ld: not the loop's bits", threads, k);
            osc_session_free(ss);
            osc_model_free(m);
            if (last) break;
        }
    free(p.buf);
}

/* A dynamic export's table of another length than its symbol's other dims (a [8] against h's
 * 7 rows, both declared N): a clear error before any write, fused or not (the session's check
 * of the symbols; the fused node checks its tables' lengths too, at infer and run). */
static void tables_of_another_length(void **state) {
    (void)state;
    const spelling s = {OSC_FLOAT, OSC_INT64, "add", false, false, DATA_INPUT, true, PATTERN};
    const spelling longer = {OSC_FLOAT, OSC_INT64, "add", false, false, DATA_INPUT, true,
                             LONG_TABLE};
    prepared p;
    prepare(&s, &longer, &p); /* (a holds N + 1 values) */
    for (int fusion = 0; fusion < 2; fusion++) {
        osc_options o;
        osc_options_init(&o);
        o.no_fusion = !fusion;
        osc_model *m = osc_check_load_buffer(p.buf, p.len, &o);
        osc_session *ss = NULL;
        assert_int_equal(osc_session_create(m, &ss), OSC_OK);
        float out[N * C];
        memset(out, 0x5a, sizeof out);
        assert_int_equal(osc_session_set_output_buffer(ss, 0, out, sizeof out), OSC_OK);
        osc_status st = OSC_OK;
        for (int i = 0; !st && i < 7; i++) st = osc_session_set_input(ss, k_in[i], &p.t[i]);
        if (!st) st = osc_session_run(ss);
        assert_int_equal(st, OSC_ERR_SHAPE);
        assert_non_null(strstr(osc_session_error(ss), "input 'a' dim 0 ('N') is 8 but input "
                                                      "'h' dim 0 gives 'N' = 7"));
        osc_check_untouched(out, sizeof out, 0x5a, fusion ? "fused" : "unfused");
        osc_session_free(ss);
        osc_model_free(m);
    }
    free(p.buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pair_every_spelling),
        cmocka_unit_test(look_alikes_keep_their_nodes),
        cmocka_unit_test(memory_failures),
        cmocka_unit_test(tables_of_another_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
