/* test_diff.c: randomized differential test of the runtime against the oracle, bit-exact. */
/* Every op version x dtype x reduction x index dtype, run through the public API from models
 * built in memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "dcase.h"

/* Environment:
 *   OSC_DIFF_CASES=N   number of cases (default 50000: the CI run; raise it for a soak)
 *   OSC_DIFF_SEED=S    run seed, decimal or 0x-hex, or "time" (default fixed, so CI is stable)
 *   OSC_DIFF_ONLY=I    replay case I alone (printed with every mismatch) and describe it */
#define DEFAULT_CASES 50000
#define DEFAULT_SEED 0x05CA77E2DEC0DEull
#define MAX_REPORTS 8

static uint64_t g_seed = DEFAULT_SEED;
static long long g_cases = DEFAULT_CASES;
static long long g_only = -1;

/* What the run exercised; the coverage test below requires every item. */
typedef struct stats {
    long long cases, errors, mismatches;
    long long *combo_ok;           /* per combo: cases that ran and matched */
    long long rank[D_OP_COUNT][7]; /* rank of data/past_cache per op */
    long long zero_data[D_OP_COUNT], zero_idx[D_OP_COUNT], neg_idx[D_OP_COUNT];
    long long neg_axis[D_OP_COUNT], index_err[D_OP_COUNT], chain[D_OP_COUNT];
    long long symbolic[D_OP_COUNT], static_dims[D_OP_COUNT];
    long long dup[D_OP_COUNT][ORA_RED_COUNT]; /* duplicates combined with each reduction */
    long long snd_k0, snd_kr, snd_kmid, gnd_k0, gnd_batch, ts_wrap_big_batch, ts_wi_absent;
    long long nan, inf, negzero, subnormal, f16_round, bf16_round, wrap_add, wrap_mul;
    long long int32_idx;
} stats;

static stats g_st;
static double g_seconds;

static void run_case(long long no, const dcombo *k, stats *st, bool verbose) {
    drng r;
    dr_seed(&r, g_seed, (uint64_t)no);
    dcase c;
    dc_generate(&c, k, &r);
    ora_result want, first;
    osc_status ost = dc_oracle(&c, &want, &first);
    dc_snap snap;
    dc_snap_take(&c, &snap);
    dc_exec x;
    dc_exec_run(&c, &x);

    char why[1024] = "";
    if (x.st != ost)
        snprintf(why, sizeof why, "status: the oracle says %s (%s), the runtime %s (%s)",
                 osc_status_name(ost), ost ? want.msg : "", osc_status_name(x.st), x.msg);
    else if (ost == OSC_OK)
        dc_equal(&want.t, &x.out, c.red == ORA_ADD || c.red == ORA_MUL, why, sizeof why);
    else if (ost == OSC_ERR_INDEX && (!strstr(x.msg, "out of range") || !strstr(x.msg, "node '")))
        snprintf(why, sizeof why, "index error message lacks the node or the range: %s", x.msg);
    if (!why[0] && !dc_snap_same(&c, &snap))
        snprintf(why, sizeof why, "the caller's input buffers were modified");

    if (why[0] || verbose) {
        static char desc[16384];
        dc_describe(&c, desc, sizeof desc);
        if (why[0] && ++st->mismatches <= MAX_REPORTS)
            print_message("MISMATCH in case %lld: %s\n  replay: OSC_DIFF_SEED=0x%llx "
                          "OSC_DIFF_ONLY=%lld\n  %s\n",
                          no, why, (unsigned long long)g_seed, no, desc);
        if (verbose)
            print_message("case %lld: %s -> %s %s\n  %s\n", no, why[0] ? "MISMATCH" : "match",
                          osc_status_name(ost), x.msg, desc);
    }

    /* statistics of what this case exercised */
    dop op = c.k.op;
    const osc_tensor *data = &c.in[0], *idx = &c.in[1];
    st->cases++;
    if (ost) st->errors++;
    if (ost == OSC_ERR_INDEX && !why[0]) st->index_err[op]++;
    if (!ost && !why[0]) {
        size_t n;
        const dcombo *all = dc_combos(&n);
        st->combo_ok[k - all]++;
        if (data->rank <= 6) st->rank[op][data->rank]++;
        int64_t dn = osc_tensor_count(data), in = osc_tensor_count(idx);
        if (dn == 0) st->zero_data[op]++;
        if (dn > 0 && in == 0) st->zero_idx[op]++;
        if (want.saw & ORA_SAW_NEG_INDEX) st->neg_idx[op]++;
        if (c.has_axis && c.axis < 0) st->neg_axis[op]++;
        if (c.chain) st->chain[op]++;
        if (c.symbolic)
            st->symbolic[op]++;
        else
            st->static_dims[op]++;
        if (want.saw & ORA_SAW_DUPLICATE) st->dup[op][c.red < 0 ? ORA_NONE : c.red]++;
        if (idx->dtype == OSC_INT32) st->int32_idx++;
        if (op == D_SND) {
            int64_t kk = idx->dims[idx->rank - 1];
            if (kk == 0)
                st->snd_k0++;
            else if (kk == data->rank)
                st->snd_kr++;
            else
                st->snd_kmid++;
        }
        if (op == D_GND && idx->dims[idx->rank - 1] == 0) st->gnd_k0++;
        if (op == D_GND && c.batch_dims > 0) st->gnd_batch++;
        if (op == D_TS && c.mode == 1 && c.n_in == 3) {
            int32_t a = (int32_t)(c.has_axis ? c.axis : -2);
            if (a < 0) a += data->rank;
            int64_t max_seq = data->dims[a], seq = c.in[1].dims[a];
            bool wraps = false;
            for (int64_t b = 0; b < data->dims[0]; b++) {
                int64_t w = ((const int64_t *)c.in[2].data)[b] % (max_seq ? max_seq : 1);
                if (w < 0) w += max_seq;
                wraps |= w + seq > max_seq;
            }
            if (wraps && data->dims[0] >= max_seq && max_seq > 0) st->ts_wrap_big_batch++;
        }
        if (op == D_TS && c.n_in == 2) st->ts_wi_absent++;
        if (want.saw & ORA_SAW_NAN) st->nan++;
        if (want.saw & ORA_SAW_INF) st->inf++;
        if (want.saw & ORA_SAW_NEG_ZERO) st->negzero++;
        if (want.saw & ORA_SAW_SUBNORMAL) st->subnormal++;
        if ((want.saw & ORA_SAW_HALF_ROUND) && c.k.dtype == OSC_FLOAT16) st->f16_round++;
        if ((want.saw & ORA_SAW_HALF_ROUND) && c.k.dtype == OSC_BFLOAT16) st->bf16_round++;
        if ((want.saw & ORA_SAW_INT_WRAP) && c.red == ORA_ADD) st->wrap_add++;
        if ((want.saw & ORA_SAW_INT_WRAP) && c.red == ORA_MUL) st->wrap_mul++;
    }
    dc_exec_free(&x);
    dc_snap_free(&snap);
    ora_result_free(&want);
    ora_result_free(&first);
    dc_free(&c);
}

/* Cases go round-robin over the combos, so every combo runs g_cases / n_combos times. */
static void test_runtime_matches_oracle(void **state) {
    (void)state;
    size_t n;
    const dcombo *all = dc_combos(&n);
    g_st.combo_ok = calloc(n, sizeof *g_st.combo_ok);
    assert_non_null(g_st.combo_ok);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (g_only >= 0) {
        run_case(g_only, &all[(size_t)g_only % n], &g_st, true);
    } else {
        for (long long i = 0; i < g_cases; i++) run_case(i, &all[(size_t)i % n], &g_st, false);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    g_seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    print_message("differential: %lld cases over %zu combos (%lld expected failures), seed "
                  "0x%llx, %.2f s, %lld mismatches\n",
                  g_st.cases, n, g_st.errors, (unsigned long long)g_seed, g_seconds,
                  g_st.mismatches);
    if (g_st.mismatches)
        fail_msg("%lld of %lld cases differ from the oracle (first %d shown above)",
                 g_st.mismatches, g_st.cases, MAX_REPORTS);
}

#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            print_message(__VA_ARGS__);                                                            \
            missing++;                                                                             \
        }                                                                                          \
    } while (0)

/* The run above must have exercised everything the issue lists; a generator change that
 * silently stops producing some kind of case fails here. */
static void test_run_covered_every_kind_of_case(void **state) {
    (void)state;
    if (g_only >= 0 || g_cases < DEFAULT_CASES) skip(); /* a replay or a short run */
    size_t n;
    const dcombo *all = dc_combos(&n);
    int missing = 0;
    for (size_t i = 0; i < n; i++)
        REQUIRE(g_st.combo_ok[i] > 0, "never matched: %s-%lld %s indices %s reduction/mode %d\n",
                dc_op_name(all[i].op), (long long)all[i].version, osc_dtype_name(all[i].dtype),
                osc_dtype_name(all[i].idx_dtype), all[i].red);
    for (int op = 0; op < D_OP_COUNT; op++) {
        const char *name = dc_op_name((dop)op);
        for (int rk = op == D_TS ? 2 : 1; rk <= 6; rk++)
            REQUIRE(g_st.rank[op][rk] > 0, "%s: no case of rank %d\n", name, rk);
        REQUIRE(g_st.zero_data[op] > 0, "%s: no zero-size data\n", name);
        REQUIRE(g_st.index_err[op] > 0, "%s: no out-of-range index case\n", name);
        REQUIRE(g_st.symbolic[op] > 0 && g_st.static_dims[op] > 0,
                "%s: not both static and symbolic dims\n", name);
        if (op != D_TS) {
            REQUIRE(g_st.zero_idx[op] > 0, "%s: no empty indices on non-empty data\n", name);
            REQUIRE(g_st.neg_idx[op] > 0, "%s: no negative index\n", name);
        }
        if (op == D_SCATTER || op == D_SE || op == D_GE || op == D_TS)
            REQUIRE(g_st.neg_axis[op] > 0, "%s: no negative axis\n", name);
        if (op != D_GE && op != D_GND)
            REQUIRE(g_st.chain[op] > 0, "%s: no in-place (chained) case\n", name);
    }
    for (int red = 0; red < ORA_RED_COUNT; red++) {
        REQUIRE(g_st.dup[D_SE][red] > 0, "ScatterElements: no duplicates with %s\n",
                ora_reduction_name(red));
        REQUIRE(g_st.dup[D_SND][red] > 0, "ScatterND: no duplicates with %s\n",
                ora_reduction_name(red));
    }
    REQUIRE(g_st.dup[D_SCATTER][ORA_NONE] > 0, "Scatter: no duplicates (last write wins)\n");
    REQUIRE(g_st.snd_k0 && g_st.snd_kr && g_st.snd_kmid,
            "ScatterND: k = 0, r or between missing\n");
    REQUIRE(g_st.gnd_k0 > 0, "GatherND: no k = 0\n");
    REQUIRE(g_st.gnd_batch > 0, "GatherND: no batch_dims > 0\n");
    REQUIRE(g_st.ts_wrap_big_batch > 0, "TensorScatter: no circular wrap with batch >= max_seq\n");
    REQUIRE(g_st.ts_wi_absent > 0, "TensorScatter: no case without write_indices\n");
    REQUIRE(g_st.int32_idx > 0, "no int32 indices\n");
    REQUIRE(g_st.nan && g_st.inf && g_st.negzero && g_st.subnormal,
            "float specials missing: NaN %lld Inf %lld -0 %lld subnormal %lld\n", g_st.nan,
            g_st.inf, g_st.negzero, g_st.subnormal);
    REQUIRE(g_st.f16_round && g_st.bf16_round, "no float16/bfloat16 rounding\n");
    REQUIRE(g_st.wrap_add && g_st.wrap_mul, "no integer overflow in add/mul\n");
    print_message("coverage: per op (Scatter SE SND TS GE GND) zero-size data %lld %lld %lld "
                  "%lld %lld %lld, index errors %lld %lld %lld %lld %lld %lld, in place %lld "
                  "%lld %lld %lld; SND k=0/mid/r %lld/%lld/%lld; GND k=0 %lld, batch_dims>0 %lld; "
                  "TS wrap with batch>=max_seq %lld; duplicates SE none/add/mul/max/min "
                  "%lld/%lld/%lld/%lld/%lld, SND %lld/%lld/%lld/%lld/%lld; NaN %lld Inf %lld "
                  "-0 %lld subnormal %lld; f16/bf16 rounded %lld/%lld; int wrap add/mul "
                  "%lld/%lld\n",
                  g_st.zero_data[0], g_st.zero_data[1], g_st.zero_data[2], g_st.zero_data[3],
                  g_st.zero_data[4], g_st.zero_data[5], g_st.index_err[0], g_st.index_err[1],
                  g_st.index_err[2], g_st.index_err[3], g_st.index_err[4], g_st.index_err[5],
                  g_st.chain[0], g_st.chain[1], g_st.chain[2], g_st.chain[3], g_st.snd_k0,
                  g_st.snd_kmid, g_st.snd_kr, g_st.gnd_k0, g_st.gnd_batch, g_st.ts_wrap_big_batch,
                  g_st.dup[D_SE][0], g_st.dup[D_SE][1], g_st.dup[D_SE][2], g_st.dup[D_SE][3],
                  g_st.dup[D_SE][4], g_st.dup[D_SND][0], g_st.dup[D_SND][1], g_st.dup[D_SND][2],
                  g_st.dup[D_SND][3], g_st.dup[D_SND][4], g_st.nan, g_st.inf, g_st.negzero,
                  g_st.subnormal, g_st.f16_round, g_st.bf16_round, g_st.wrap_add, g_st.wrap_mul);
    if (missing) fail_msg("%d kinds of case were never exercised", missing);
}

static uint64_t env_u64(const char *name, uint64_t def) {
    const char *s = getenv(name);
    if (!s || !*s) return def;
    if (strcmp(s, "time") == 0) return (uint64_t)time(NULL);
    return strtoull(s, NULL, 0);
}

int main(void) {
    g_seed = env_u64("OSC_DIFF_SEED", DEFAULT_SEED);
    g_cases = (long long)env_u64("OSC_DIFF_CASES", DEFAULT_CASES);
    if (getenv("OSC_DIFF_ONLY")) g_only = (long long)env_u64("OSC_DIFF_ONLY", 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runtime_matches_oracle),
        cmocka_unit_test(test_run_covered_every_kind_of_case),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(g_st.combo_ok);
    return rc;
}
