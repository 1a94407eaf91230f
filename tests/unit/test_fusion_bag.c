/* test_fusion_bag.c: rule embedding_bag (rewrite/rule_embedding_bag.c) and SegmentReduce
 * (ops/fused/fused_bag.c) on every dtype ReduceSum, ReduceMean and ReduceMax take at opset 13
 * (ReduceMax's bool is from 20), with rows of 70 elements (more than the kernel's chunk of 64):
 * the Loop
 *
 *     y = Loop(M, true) { i, c -> c, Reduce(Gather(weight, Slice(indices, [starts[i]],
 *                                                   [ends[i]], axes [0])), axes [0]) }
 *
 * (opset 13, dynamic sizes; the condition passed through, unlike torch's exports) loads fused
 * and gives, at 1, 2 and 3 threads, the bytes of the Loop loaded with no_fusion: random weights
 * (floats of many magnitudes, so sums depend on their order, one NaN; integers over their whole
 * range, so sums wrap), random indices of either sign, bags empty, of one row, decreasing,
 * negative or past the end. Built against the tiny-threshold library too (test_fusion_bag_tiny),
 * where 2 and 3 threads really split the bags. A Loop of ReduceMin, or with one more node in
 * its body, stays a Loop and says why. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

enum { R = 9, D = 70, N = 40, B = 12 };

static const char *const k_ops[4] = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"};

/* The Loop over bags with reduction k_ops[red] of a weight [R, D] of dtype dt (data w); with
 * `extra` its body also computes a Neg nothing reads. */
static osc_model *bag_model(int red, int32_t dt, const void *w, bool no_fusion, int threads,
                            bool extra) {
    const char *const nsym[1] = {"N"}, *const bsym[1] = {"B"};
    const int64_t vd[1] = {-1}, yd[2] = {-1, D}, wd[2] = {R, D}, one = 1, zero = 0, rd[1] = {D};
    const osc_mw_value ins[4] = {{"indices", OSC_INT64, 1, vd, nsym},
                                 {"starts", OSC_INT64, 1, vd, bsym},
                                 {"ends", OSC_INT64, 1, vd, bsym},
                                 {"M", OSC_INT64, 0, NULL, NULL}};
    const bool t = true;
    osc_mw *mw = osc_mw_graph(13, 4, ins), *b = osc_mw_new(8);
    osc_tensor v = osc_test_view(dt, 2, wd, w);
    osc_mw_initializer(mw, "weight", &v);
    v = osc_test_view(OSC_BOOL, 0, NULL, &t);
    osc_mw_initializer(mw, "true", &v);
    osc_mw_input(b, "i", OSC_INT64, 0, NULL, NULL);
    osc_mw_input(b, "cond", OSC_BOOL, 0, NULL, NULL);
    v = osc_test_view(OSC_INT64, 1, &one, &zero);
    osc_mw_initializer(b, "axes0", &v);
    osc_mw_node(b, "Gather", "gs", 2, (const char *[]){"starts", "i"}, 1, (const char *[]){"s"});
    osc_mw_node(b, "Gather", "ge", 2, (const char *[]){"ends", "i"}, 1, (const char *[]){"e"});
    osc_mw_node(b, "Unsqueeze", "us", 2, (const char *[]){"s", "axes0"}, 1,
                (const char *[]){"s1"});
    osc_mw_node(b, "Unsqueeze", "ue", 2, (const char *[]){"e", "axes0"}, 1,
                (const char *[]){"e1"});
    osc_mw_node(b, "Slice", "sl", 4, (const char *[]){"indices", "s1", "e1", "axes0"}, 1,
                (const char *[]){"bag"});
    osc_mw_node(b, "Gather", "gw", 2, (const char *[]){"weight", "bag"}, 1,
                (const char *[]){"rows"});
    const int n = osc_mw_node(b, k_ops[red], "red", red == 0 ? 2 : 1,
                              (const char *[]){"rows", "axes0"}, 1, (const char *[]){"y_b"});
    osc_mw_attr_int(b, n, "keepdims", 0);
    if (red) osc_mw_attr_ints(b, n, "axes", &zero, 1);
    if (extra)
        osc_mw_node(b, "Neg", "neg", 1, (const char *[]){"rows"}, 1, (const char *[]){"x"});
    osc_mw_output(b, "cond", OSC_BOOL, 0, NULL, NULL);
    osc_mw_output(b, "y_b", dt, 1, rd, NULL);
    const int loop = osc_mw_node(mw, "Loop", "bag", 2, (const char *[]){"M", "true"}, 1,
                                 (const char *[]){"y"});
    osc_mw_attr_graph(mw, loop, "body", b);
    osc_mw_output(mw, "y", dt, 2, yd, NULL);
    void *buf = NULL;
    size_t len = 0;
    if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) fail_msg("writer: %s", osc_mw_error(mw));
    osc_mw_free(b);
    osc_mw_free(mw);
    osc_options o;
    osc_options_init(&o);
    o.no_fusion = no_fusion;
    o.threads = threads;
    osc_model *m = NULL;
    char msg[512];
    if (osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg)) fail_msg("load: %s", msg);
    free(buf);
    return m;
}

/* Random weight bits for dtype dt: floats of magnitudes 2^-20 to 2^20 (halves: finite), one
 * NaN; integers over their whole range. */
static void fill_weight(int32_t dt, uint8_t *w, size_t esize, uint32_t *rs) {
    for (size_t e = 0; e < (size_t)R * D; e++) {
        uint64_t bits = (uint64_t)osc_test_rnd32(rs) << 40 ^ (uint64_t)osc_test_rnd32(rs) << 16 ^
                        osc_test_rnd32(rs);
        if (dt == OSC_FLOAT) {
            float f = (float)osc_test_rnd_value(rs) * (float)(1 << (bits % 20)) /
                      (float)(1 << (bits >> 8) % 20);
            memcpy(&bits, &f, sizeof f);
        } else if (dt == OSC_DOUBLE) {
            double d = osc_test_rnd_value(rs) * (double)(1 << (bits % 20)) /
                       (double)(1 << (bits >> 8) % 20);
            memcpy(&bits, &d, sizeof d);
        } else if (dt == OSC_FLOAT16 && (bits >> 10 & 0x1f) == 0x1f) {
            bits &= ~(uint64_t)0x4000; /* no Inf or NaN */
        } else if (dt == OSC_BFLOAT16 && (bits >> 7 & 0xff) == 0xff) {
            bits &= ~(uint64_t)0x4000;
        }
        memcpy(w + e * esize, &bits, esize); /* (little-endian: the low bytes) */
    }
    if (dt == OSC_FLOAT) memcpy(w + 3 * esize, &(float){NAN}, esize);
    if (dt == OSC_DOUBLE) memcpy(w + 3 * esize, &(double){NAN}, esize);
}

/* Output 0 of m on the inputs. */
static osc_tensor run(osc_model *m, osc_session **s, const osc_tensor *in) {
    static const char *const names[4] = {"indices", "starts", "ends", "M"};
    assert_int_equal(osc_session_create(m, s), OSC_OK);
    return osc_check_run(*s, 4, names, in);
}

static void every_dtype(void **state) {
    (void)state;
    static const int32_t types[] = {OSC_FLOAT, OSC_DOUBLE, OSC_FLOAT16, OSC_BFLOAT16, OSC_INT32,
                                    OSC_INT64, OSC_UINT32, OSC_UINT64, OSC_INT8, OSC_UINT8};
    uint32_t rs = 7;
    int64_t ix[N], st[B], en[B], m = B;
    for (int i = 0; i < N; i++) ix[i] = (int64_t)(osc_test_rnd32(&rs) % (2 * R)) - R;
    for (int b = 0; b < B; b++) { /* mostly ascending cuts, some bags odd */
        st[b] = b * N / B;
        en[b] = (b + 1) * N / B;
    }
    st[2] = en[2] = 7;         /* empty */
    en[3] = st[3] + 1;         /* one row */
    st[5] = en[5] + 2;         /* decreasing: empty */
    st[6] = -12, en[6] = -3;   /* negative: from the end */
    en[B - 1] = 1000;          /* past the end */
    const int64_t nd[1] = {N}, bd[1] = {B};
    const osc_tensor in[4] = {osc_test_view(OSC_INT64, 1, nd, ix),
                              osc_test_view(OSC_INT64, 1, bd, st),
                              osc_test_view(OSC_INT64, 1, bd, en),
                              osc_test_view(OSC_INT64, 0, NULL, &m)};
    int fused = 0;
    for (int red = 0; red < 3; red++)
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
            const int32_t dt = types[t];
            if (red < 2 && (dt == OSC_INT8 || dt == OSC_UINT8)) continue;
            const size_t esize = osc_dtype_bits(dt) / 8;
            uint8_t w[(size_t)R * D * 8];
            fill_weight(dt, w, esize, &rs);
            osc_model *ref_m = bag_model(red, dt, w, true, 1, false);
            osc_session *ref_s;
            const osc_tensor ref = run(ref_m, &ref_s, in);
            assert_int_equal(ref.dims[0], B);
            for (int threads = 1; threads <= 3; threads++) {
                osc_model *fm = bag_model(red, dt, w, false, threads, false);
                osc_node_desc d;
                assert_int_equal(osc_model_node(fm, osc_model_node_count(fm) - 1, &d), OSC_OK);
                if (!d.fused_rule || strcmp(d.fused_rule, "embedding_bag") != 0)
                    fail_msg("%s on %s: the Loop is not fused (%s)", k_ops[red],
                             osc_dtype_name(dt), d.not_fused ? d.not_fused : "no reason");
                osc_session *s;
                const osc_tensor y = run(fm, &s, in);
                if (y.dtype != ref.dtype || y.rank != ref.rank || y.nbytes != ref.nbytes ||
                    memcmp(y.dims, ref.dims, sizeof y.dims) != 0 ||
                    memcmp(y.data, ref.data, y.nbytes) != 0)
                    fail_msg("%s on %s, %d threads: the fused output differs from the Loop's",
                             k_ops[red], osc_dtype_name(dt), threads);
                fused++;
                osc_session_free(s);
                osc_model_free(fm);
            }
            osc_session_free(ref_s);
            osc_model_free(ref_m);
        }
    assert_int_equal(fused, 3 * (8 + 8 + 10));
}

/* A Loop like it that the rule leaves says why (info's "not fused"). */
static void refused_with_reason(void **state) {
    (void)state;
    float w[R * D] = {0};
    static const struct {
        int red;
        bool extra;
        const char *why;
    } cases[] = {
        {3, false, "embedding_bag: the body's reduction is ReduceMin: the rule takes ReduceSum, "
                   "ReduceMean and ReduceMax"},
        {0, true, "embedding_bag: the body runs 8 nodes; the pattern has 7"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        osc_model *m = bag_model(cases[c].red, OSC_FLOAT, w, false, 1, cases[c].extra);
        osc_node_desc d;
        assert_int_equal(osc_model_node(m, osc_model_node_count(m) - 1, &d), OSC_OK);
        assert_string_equal(d.op_type, "Loop");
        assert_non_null(d.not_fused);
        assert_string_equal(d.not_fused, cases[c].why);
        osc_model_free(m);
    }
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(every_dtype), cmocka_unit_test(refused_with_reason))
