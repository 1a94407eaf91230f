/* cmd_bench.c: `onnx-scatter bench MODEL|CASE_DIR`: times runs, optionally per node (--profile). */
/* The model is loaded and the inputs bound once; each timed run is one osc_session_run call,
 * as an embedding program would make it. Times are wall clock (CLOCK_MONOTONIC). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define DEFAULT_RUNS 20
#define DEFAULT_WARMUP 2

typedef struct bench_args {
    cli_strlist targets; /* MODEL, or node-test folders */
    int64_t runs, warmup;
    int profile, json, cases;
    cli_input_opts in;
    osc_options opts; /* limits; profile is set from the flag */
} bench_args;

/* Times of the timed runs, and per node when profiling ([run * nodes + node], ns). */
typedef struct timings {
    double *run_ms;
    uint64_t *node_ns;
    size_t runs, nodes;
} timings;

/* The thread count asked for (--threads; 1 by default). */
static int32_t requested(const bench_args *a) { return a->opts.threads > 1 ? a->opts.threads : 1; }

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (the mean of the middle two for even n); sorts v. */
static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "950 ns", "12.3 us", "4.56 ms", "1.23 s" */
static void fmt_time(double ms, char *buf, size_t size) {
    if (ms < 1e-3) snprintf(buf, size, "%.0f ns", ms * 1e6);
    else if (ms < 1) snprintf(buf, size, "%.3g us", ms * 1e3);
    else if (ms < 1e3) snprintf(buf, size, "%.3g ms", ms);
    else snprintf(buf, size, "%.3g s", ms / 1e3);
}

/* Warmup runs, then the timed ones. On a failed run: CLI_FAIL with the message in msg. */
static int time_runs(const osc_model *m, osc_session *s, const bench_args *a, timings *t, char *msg,
                     size_t msg_size) {
    t->runs = (size_t)a->runs, t->nodes = osc_model_node_count(m);
    t->run_ms = calloc(t->runs, sizeof *t->run_ms);
    t->node_ns = a->profile ? calloc(t->runs * (t->nodes ? t->nodes : 1), sizeof *t->node_ns) : NULL;
    if (!t->run_ms || (a->profile && !t->node_ns)) {
        snprintf(msg, msg_size, "out of memory");
        return CLI_FAIL;
    }
    for (int64_t w = 0; w < a->warmup + a->runs; w++) {
        double t0 = now_ms();
        if (osc_session_run(s) != OSC_OK) {
            snprintf(msg, msg_size, "run failed: %s", osc_session_error(s));
            return CLI_FAIL;
        }
        double ms = now_ms() - t0;
        if (w < a->warmup) continue;
        size_t r = (size_t)(w - a->warmup);
        t->run_ms[r] = ms;
        for (size_t i = 0; a->profile && i < t->nodes; i++)
            t->node_ns[r * t->nodes + i] = osc_session_node_ns(s, i);
    }
    return CLI_OK;
}

static void timings_free(timings *t) {
    free(t->run_ms);
    free(t->node_ns);
    memset(t, 0, sizeof *t);
}

typedef struct stats {
    double min, median, max;
    double *node_ms; /* per node median, when profiling */
} stats;

static int summarise(timings *t, stats *st) {
    st->node_ms = NULL;
    st->min = st->max = t->run_ms[0];
    for (size_t r = 0; r < t->runs; r++) {
        if (t->run_ms[r] < st->min) st->min = t->run_ms[r];
        if (t->run_ms[r] > st->max) st->max = t->run_ms[r];
    }
    st->median = median(t->run_ms, t->runs);
    if (!t->node_ns) return 0;
    st->node_ms = calloc(t->nodes ? t->nodes : 1, sizeof *st->node_ms);
    double *col = calloc(t->runs, sizeof *col);
    if (!st->node_ms || !col) {
        free(col);
        return 1;
    }
    for (size_t i = 0; i < t->nodes; i++) {
        for (size_t r = 0; r < t->runs; r++) col[r] = (double)t->node_ns[r * t->nodes + i] / 1e6;
        st->node_ms[i] = median(col, t->runs);
    }
    free(col);
    return 0;
}

/* ---- per-node table ---- */

static void print_profile(const osc_model *m, const cli_shapes *sh, const stats *st, size_t runs) {
    size_t n = osc_model_node_count(m);
    int wname = 4, wop = 2, wshape = 6;
    char shapes[1024], t[32];
    for (size_t i = 0; i < n; i++) {
        osc_node_desc d;
        if (osc_model_node(m, i, &d) != OSC_OK) continue;
        char esc[1024];
        int ln = d.name && d.name[0] ? (int)strlen(cli_esc(d.name, esc, sizeof esc)) : 1;
        int lo = (int)strlen(cli_esc(d.op_type, esc, sizeof esc));
        wname = ln > wname ? ln : wname;
        wop = lo > wop ? lo : wop;
        cli_shapes_node(sh, m, i, shapes, sizeof shapes);
        wshape = (int)strlen(shapes) > wshape ? (int)strlen(shapes) : wshape;
    }
    if (wname > 24) wname = 24;
    if (wshape > 60) wshape = 60;
    printf("\nper node (median of %zu runs; share of the median run):\n", runs);
    printf("  %3s  %-*s  %-*s  %6s  %-*s  %9s  %6s\n", "#", wname, "node", wop, "op", "kernel",
           wshape, "shapes", "median", "share");
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        osc_node_desc d;
        if (osc_model_node(m, i, &d) != OSC_OK) continue;
        cli_shapes_node(sh, m, i, shapes, sizeof shapes);
        if ((int)strlen(shapes) > wshape) strcpy(shapes + wshape - 3, "...");
        fmt_time(st->node_ms[i], t, sizeof t);
        sum += st->node_ms[i];
        /* names from the model, escaped (and cut to the column at a character boundary) */
        char name[64], op[1024];
        const char *nm = d.name && d.name[0] ? d.name : "-";
        cli_text_escape(nm, strlen(nm), name, (size_t)wname + 1);
        cli_esc(d.op_type, op, sizeof op);
        printf("  %3zu  %-*s  %-*s  %6lld  %-*s  %9s  %5.1f%%\n", i, wname, name, wop, op,
               (long long)d.since_version,
               wshape, shapes, t, st->median > 0 ? 100 * st->node_ms[i] / st->median : 0.0);
    }
    for (size_t i = 0; i < n; i++) {
        osc_node_desc d;
        char fused[2048];
        if (osc_model_node(m, i, &d) == OSC_OK && d.n_fused)
            printf("  %3zu  fused from: %s\n", i, cli_fused_str(&d, fused, sizeof fused));
    }
    double rest = st->median - sum > 0 ? st->median - sum : 0;
    fmt_time(rest, t, sizeof t);
    printf("  %3s  %-*s  %9s  %5.1f%%\n", "", wname + wop + wshape + 12,
           "(outside the nodes: binding, shape checks, planning)", t,
           st->median > 0 ? 100 * rest / st->median : 0.0);
}

static void json_profile(const osc_model *m, const cli_shapes *sh, const stats *st) {
    fputs(",\"nodes\":[", stdout);
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        osc_node_desc d;
        if (osc_model_node(m, i, &d) != OSC_OK) continue;
        printf("%s{\"index\":%zu,\"name\":", i ? "," : "", i);
        cli_json_str(stdout, d.name);
        fputs(",\"op\":", stdout);
        cli_json_str(stdout, d.op_type);
        printf(",\"kernel_version\":%lld", (long long)d.since_version);
        for (int side = 0; side < 2; side++) {
            int32_t cnt = side ? d.n_outputs : d.n_inputs;
            const char *const *names = side ? d.outputs : d.inputs;
            fputs(side ? ",\"output_shapes\":[" : ",\"input_shapes\":[", stdout);
            for (int32_t k = 0; k < cnt; k++) {
                const cli_vshape *v = cli_shapes_get(sh, names[k]);
                if (k) fputc(',', stdout);
                if (v) cli_json_shape(stdout, v->rank, v->dims, NULL);
                else fputs("null", stdout);
            }
            fputs("]", stdout);
        }
        cli_json_fused(stdout, &d);
        printf(",\"median_ms\":%.6f,\"share\":%.4f}", st->node_ms[i],
               st->median > 0 ? st->node_ms[i] / st->median : 0.0);
    }
    fputs("]", stdout);
}

/* ---- MODEL mode ---- */

static int bench_model(const bench_args *a) {
    const char *path = a->targets.items[0];
    osc_model *m = NULL;
    osc_session *s = NULL;
    cli_inputs in = {0};
    cli_shapes sh = {0};
    timings t = {0};
    stats st = {0};
    osc_options opts = a->opts;
    char msg[1024];
    opts.profile = a->profile;
    osc_status ost = osc_model_load_file(path, &opts, &m, msg, sizeof msg);
    if (ost != OSC_OK) return cli_error("cannot load '%s' (%s): %s", path, osc_status_name(ost), msg);
    cli_input_opts io = a->in;
    io.model_path = path, io.model_opts = opts;
    int rc = cli_inputs_load(m, &io, cli_byte_limit(&opts), "bench", &in);
    if (rc == CLI_OK) rc = osc_session_create(m, &s) == OSC_OK ? CLI_OK : cli_error("out of memory");
    if (rc == CLI_OK) rc = cli_inputs_bind(m, s, &in);
    if (rc == CLI_OK && time_runs(m, s, a, &t, msg, sizeof msg) != CLI_OK) rc = cli_error("%s", msg);
    if (rc == CLI_OK && (summarise(&t, &st) || cli_inputs_shapes(m, &in, &sh) ||
                         cli_shapes_propagate(&sh, m)))
        rc = cli_error("out of memory");
    if (rc == CLI_OK && a->json) {
        fputs("{\"model\":", stdout);
        cli_json_str(stdout, path);
        printf(",\"impl\":\"onnx-scatter\",\"threads\":%d,\"threads_requested\":%d,\"runs\":%lld,"
               "\"warmup\":%lld,\"median_ms\":%.6f,\"min_ms\":%.6f,\"max_ms\":%.6f",
               (int)osc_session_threads(s), (int)requested(a), (long long)a->runs,
               (long long)a->warmup, st.median, st.min, st.max);
        if (in.random) printf(",\"seed\":%llu", (unsigned long long)in.seed);
        cli_json_warnings(stdout, m);
        if (a->profile) json_profile(m, &sh, &st);
        fputs("}\n", stdout);
    } else if (rc == CLI_OK) {
        char lo[32], mid[32], hi[32];
        fmt_time(st.min, lo, sizeof lo);
        fmt_time(st.median, mid, sizeof mid);
        fmt_time(st.max, hi, sizeof hi);
        const int32_t used = osc_session_threads(s);
        cli_text_put(stdout, path);
        printf(": %lld runs after %lld warmup, %d thread%s", (long long)a->runs,
               (long long)a->warmup, (int)used, used == 1 ? "" : "s");
        if (used != requested(a))
            printf(" (%d requested; the workers could not be started)", (int)requested(a));
        printf("\n  min %s   median %s   max %s\n", lo, mid, hi);
        if (a->profile) print_profile(m, &sh, &st, t.runs);
    }
    if (rc == CLI_OK) cli_print_warnings(m, NULL);
    free(st.node_ms);
    timings_free(&t);
    cli_shapes_free(&sh);
    if (s) osc_session_free(s);
    cli_inputs_free(&in);
    osc_model_free(m);
    return rc;
}

/* ---- CASE_DIR mode: one JSON line per node-test folder ---- */

/* Shapes of the data set's inputs, bound as cli_pbset_bind binds them (by name, else K). */
static int pbset_shapes(const osc_model *m, const cli_pbset *p, cli_shapes *sh) {
    osc_value_desc d;
    size_t n = osc_model_input_count(m);
    for (size_t k = 0; k < p->count; k++) {
        size_t idx = k;
        for (size_t i = 0; i < n; i++)
            if (osc_model_input(m, i, &d) == OSC_OK && p->names[k][0] && !strcmp(d.name, p->names[k]))
                idx = i;
        if (idx < n && osc_model_input(m, idx, &d) == OSC_OK &&
            cli_shapes_set(sh, d.name, p->t[k].rank, p->t[k].dims))
            return 1;
    }
    return 0;
}

/* Times one case and compares the last run's outputs with output_K.pb. */
static int bench_case(const bench_args *a, const char *dir, char *msg, size_t msg_size) {
    char name[256];
    cli_strlist sets = {0};
    cli_pbset in = {0}, out = {0};
    osc_model *m = NULL;
    osc_session *s = NULL;
    cli_shapes sh = {0};
    timings t = {0};
    stats st = {0};
    osc_options opts = a->opts;
    double err = 0;
    char mismatch[1024] = "";
    opts.profile = a->profile;
    cli_basename(dir, name, sizeof name);
    char *model = cli_join(dir, "model.onnx");
    osc_status ost = model ? osc_model_load_file(model, &opts, &m, msg, msg_size) : OSC_ERR_NOMEM;
    free(model);
    int rc = ost == OSC_OK ? CLI_OK : CLI_FAIL;
    if (rc == CLI_OK && (cli_find_data_sets(dir, &sets, msg, msg_size) || !sets.count)) {
        if (!sets.count) snprintf(msg, msg_size, "no test_data_set_N folder");
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK && (cli_pbset_load(sets.items[0], "input", cli_byte_limit(&opts), &in, msg, msg_size) ||
                         cli_pbset_load(sets.items[0], "output", cli_byte_limit(&opts), &out, msg,
                                        msg_size)))
        rc = CLI_FAIL;
    if (rc == CLI_OK && osc_session_create(m, &s) != OSC_OK) {
        snprintf(msg, msg_size, "out of memory");
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK && cli_pbset_bind(m, s, &in, msg, msg_size)) rc = CLI_FAIL;
    if (rc == CLI_OK) rc = time_runs(m, s, a, &t, msg, msg_size);
    if (rc == CLI_OK && (summarise(&t, &st) || pbset_shapes(m, &in, &sh) || cli_shapes_propagate(&sh, m))) {
        snprintf(msg, msg_size, "out of memory");
        rc = CLI_FAIL;
    }
    for (size_t k = 0; rc == CLI_OK && !mismatch[0] && k < osc_model_output_count(m); k++) {
        osc_value_desc d;
        osc_tensor act;
        if (osc_model_output(m, k, &d) != OSC_OK || osc_session_output(s, k, &act) != OSC_OK)
            snprintf(mismatch, sizeof mismatch, "cannot read output %zu", k);
        else if (k >= out.count)
            snprintf(mismatch, sizeof mismatch, "no output_%zu.pb to compare with", k);
        else
            cli_max_abs_err(d.name, &out.t[k], &act, &err, mismatch, sizeof mismatch);
    }
    fputs("{\"case\":", stdout);
    cli_json_str(stdout, name);
    printf(",\"impl\":\"onnx-scatter\",\"threads\":%d", s ? (int)osc_session_threads(s)
                                                               : (int)requested(a));
    if (rc == CLI_OK) {
        printf(",\"runs\":%lld,\"median_ms\":%.6f,\"min_ms\":%.6f,\"max_ms\":%.6f,\"max_abs_err\":",
               (long long)a->runs, st.median, st.min, st.max);
        if (mismatch[0]) {
            fputs("null,\"mismatch\":", stdout);
            cli_json_str(stdout, mismatch);
        } else {
            cli_json_number(stdout, err);
        }
        if (a->profile) json_profile(m, &sh, &st);
    } else {
        fputs(",\"error\":", stdout);
        cli_json_str(stdout, msg);
    }
    if (m) cli_json_warnings(stdout, m);
    fputs("}\n", stdout);
    fflush(stdout);
    if (m) cli_print_warnings(m, name);
    free(st.node_ms);
    timings_free(&t);
    cli_shapes_free(&sh);
    if (s) osc_session_free(s);
    cli_pbset_free(&in);
    cli_pbset_free(&out);
    cli_strlist_free(&sets);
    if (m) osc_model_free(m);
    return rc;
}

static int bench_cases(const bench_args *a) {
    cli_strlist dirs = {0};
    char msg[2048];
    int rc = CLI_OK, failed = 0;
    for (size_t i = 0; i < a->targets.count && rc == CLI_OK; i++)
        if (cli_find_tests(a->targets.items[i], &dirs, msg, sizeof msg)) rc = cli_error("%s", msg);
    cli_sort_tests(&dirs);
    for (size_t i = 0; i < dirs.count && rc == CLI_OK; i++) {
        if (bench_case(a, dirs.items[i], msg, sizeof msg) == CLI_OK) continue;
        char name[256], esc[1024];
        cli_basename(dirs.items[i], name, sizeof name);
        fprintf(stderr, "onnx-scatter: bench %s: ", cli_esc(name, esc, sizeof esc));
        cli_text_put(stderr, msg);
        fputc('\n', stderr);
        failed = 1;
    }
    cli_strlist_free(&dirs);
    return rc != CLI_OK ? rc : failed ? CLI_FAIL : CLI_OK;
}

static int parse_args(int argc, char **argv, bench_args *a) {
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc = cli_input_option(argc, argv, &i, &a->in, "bench");
        if (rc < 0) rc = cli_runtime_option(argc, argv, &i, &a->opts, "bench");
        if (rc >= 0) {
            if (rc != CLI_OK) return rc;
        } else if ((v = cli_opt_value(argc, argv, &i, "--runs", "-n")) != NULL) {
            if (cli_parse_int(v, 1, 100000000, &a->runs))
                return cli_usage_error("bench", "-n wants a run count >= 1, got '%s'", v);
        } else if ((v = cli_opt_value(argc, argv, &i, "--warmup", "-w")) != NULL) {
            if (cli_parse_int(v, 0, 100000000, &a->warmup))
                return cli_usage_error("bench", "-w wants a warmup count >= 0, got '%s'", v);
        } else if (!strcmp(argv[i], "--profile")) {
            a->profile = 1;
        } else if (!strcmp(argv[i], "--json")) {
            a->json = 1;
        } else if (argv[i][0] == '-' && argv[i][1] && !cli_looks_like_literal(argv[i])) {
            return cli_usage_error("bench", "unknown option '%s'", argv[i]);
        } else if (!a->targets.count || a->cases) { /* MODEL, or one CASE_DIR after another */
            if (!a->targets.count) a->cases = cli_is_dir(argv[i]);
            if (cli_strlist_push(&a->targets, argv[i])) return cli_error("out of memory");
        } else if (cli_strlist_push(&a->in.pos, argv[i])) {
            return cli_error("out of memory");
        }
    }
    if (!a->targets.count) return cli_usage_error("bench", "missing MODEL or CASE_DIR");
    if (a->cases && (a->in.names.count || a->in.random || a->in.dims.count))
        return cli_usage_error("bench", "a node-test folder brings its own inputs: drop --input, "
                               "--random and --dim, or give its model.onnx instead");
    return CLI_OK;
}

int cmd_bench(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            usage_bench(stdout);
            return CLI_OK;
        }
    bench_args a = {.runs = DEFAULT_RUNS, .warmup = DEFAULT_WARMUP};
    osc_options_init(&a.opts);
    int rc = parse_args(argc, argv, &a);
    if (rc == CLI_OK) rc = a.cases ? bench_cases(&a) : bench_model(&a);
    cli_strlist_free(&a.targets);
    cli_input_opts_free(&a.in);
    return rc;
}
