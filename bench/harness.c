/* harness.c: times onnx-scatter against a plain C loop, memcpy and onnxruntime on bench cases. */
/* Usage: osc-bench-harness [options] CASE_DIR...   (see usage() below)
 *
 * Per case, the inputs are loaded once and every contender is set up once; then rounds run. A
 * round calls every contender in a new shuffled order (with a fixed rotation, the contender
 * after onnxruntime always ran right after another process had the CPU and the memory bus, and
 * measured ~15% slow), each for a burst of calls in a row sized to last about --burst-ms (so a
 * call of microseconds is timed warm; see run_case). After onnxruntime the harness pauses 2 ms
 * so that node's freeing of its output copies does not overlap the next contender. The first
 * --warmup rounds are not recorded; round 0 calls each contender once, in contender order, so
 * copy 1t, the reference of the output checks, runs first. Every call is timed on its own
 * (CLOCK_MONOTONIC), and only the operation: osc_session_run, the C loop, memcpy, or, for
 * onnxruntime, the "model_run" duration its own profiler records inside the run.
 *
 * In-place contenders consume their input: before each of their runs the harness copies the
 * pristine data into a scratch buffer and binds it (osc_session_set_input_at), both outside the
 * timed region; only osc_session_run (or the C loop's scatter) is timed. Copy contenders read the
 * pristine buffer, which nothing writes.
 *
 * Outputs are compared byte for byte in the first warm-up round and the last round: onnx-scatter
 * copy 1t with output_0.pb, every other scatter contender with onnx-scatter copy 1t's output,
 * memcpy with data (onnxruntime compares itself with output_0.pb). A mismatch is printed as
 * MISMATCH and makes the exit status 1.
 *
 * Peak RSS: each contender runs again in a child process of its own (this program with
 * --rss-child, or the node script's rss mode) that loads the case, resets the kernel's peak-RSS
 * mark (writing 5 to /proc/self/clear_refs), notes VmRSS ("base": the inputs and the process
 * itself), sets the contender up and runs it 3 times, then reads VmHWM ("peak"). */
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

enum {
    C_COPY1, C_COPY2, C_INPL1, C_INPL2, C_LOOP, C_LOOP_INPL, C_MEMCPY, C_MEMCPY2, C_ORT1, C_ORT2,
    C_COUNT
};

static const char *const k_names[C_COUNT] = {
    "onnx-scatter copy 1t", "onnx-scatter copy 2t", "onnx-scatter in-place 1t",
    "onnx-scatter in-place 2t", "C loop copy", "C loop in-place", "memcpy 1t", "memcpy 2t",
    "onnxruntime 1t", "onnxruntime 2t"};
static const char *const k_ids[C_COUNT] = {"copy1",        "copy2",  "inplace1", "inplace2",
                                           "loop",         "loop_inplace", "memcpy", "memcpy2",
                                           "ort1",         "ort2"};

static int is_osc(int id) { return id <= C_INPL2; }
static int is_inplace(int id) { return id == C_INPL1 || id == C_INPL2 || id == C_LOOP_INPL; }
static int is_ort(int id) { return id == C_ORT1 || id == C_ORT2; }
static int threads_of(int id) {
    return id == C_COPY2 || id == C_INPL2 || id == C_MEMCPY2 || id == C_ORT2 ? 2 : 1;
}
static int is_memcpy(int id) { return id == C_MEMCPY || id == C_MEMCPY2; }
/* Denominators of the ratio columns (-1: no ratio). "÷ C loop": an onnx-scatter contender over
 * the C loop of the same mode. "÷ ORT": onnx-scatter over onnxruntime with the same thread
 * count; the C loops over onnxruntime 1t. */
static int loop_ref(int id) {
    return !is_osc(id) ? -1 : is_inplace(id) ? C_LOOP_INPL : C_LOOP;
}
static int ort_ref(int id) {
    if (is_osc(id)) return threads_of(id) == 2 ? C_ORT2 : C_ORT1;
    return id == C_LOOP || id == C_LOOP_INPL ? C_ORT1 : -1;
}

typedef struct contender {
    int active;
    char note[256];          /* why inactive, or a remark (e.g. threads) */
    osc_model *m;
    osc_session *s;
    void *buf;               /* C loop / memcpy output */
    pcopy pc;                /* memcpy 2t: its helper thread */
    int pc_on;
    double *ms;              /* timed runs */
    size_t n_ms;
    int64_t calls;           /* calls per round (a burst), set after each warm-up round */
    double est_ms;           /* latest time of one call, to size the burst */
    int64_t warm_runs;       /* onnxruntime: runs made in warm-up rounds (dropped) */
    double cpu_ms, wall_ms;  /* sums over the timed runs */
    int checks, mismatches;
    char check[256];         /* result of the last check */
    long rss_base_kb, rss_peak_kb; /* -1: not measured */
    long rss_file_kb;        /* file-backed part of the base (code pages); -1: not measured */
    double med, min, max;
} contender;

typedef struct options {
    bench_opts c;
    int64_t max_calls;
    double burst_ms;
} options;

/* One case's results, kept for the Markdown report. */
typedef struct result {
    char name[256], what[512], extra[512];
    int64_t rounds, warmup;
    double io_kb;            /* bytes of the inputs plus the output, in KiB */
    contender c[C_COUNT];
} result;

typedef struct bench {
    const options *o;
    bench_case bc;
    cloop loop;
    void *scratch;           /* in-place contenders' data buffer, restored before each run */
    size_t data_bytes;
    ort_peer peer;
    int peer_ok;
    char ort_reason[512];    /* why onnxruntime is not available (suite-wide) */
    char *line;
    size_t cap;
    int failed;
} bench;

/* CPU time (all threads) over wall time of the timed runs: about 1 for one busy thread, 2 for
 * two. Reading the process CPU clock is a system call of a few hundred ns that falls inside the
 * interval, so runs under 0.05 ms get no figure. */
static int cpu_meaningful(const contender *c) { return c->wall_ms > 0 && c->med >= 0.05; }

static void stats(contender *c) { bench_summary(c->ms, c->n_ms, &c->med, &c->min, &c->max); }

/* ---- contender setup (shared by the timed runs and the RSS child) ---- */

static osc_tensor data_view(const bench *b, void *data) {
    osc_tensor t = b->bc.in[0];
    t.data = data;
    return t;
}

static int setup(bench *b, int id, contender *c, int need_scratch) {
    char msg[OSC_MESSAGE_SIZE];
    c->rss_base_kb = c->rss_peak_kb = c->rss_file_kb = -1;
    if (is_osc(id)) {
        osc_options opts;
        osc_options_init(&opts);
        opts.threads = threads_of(id);
        opts.inplace_inputs = is_inplace(id);
        char path[1200];
        snprintf(path, sizeof path, "%s/model.onnx", b->bc.dir);
        if (osc_model_load_file(path, &opts, &c->m, msg, sizeof msg) != OSC_OK) {
            snprintf(c->note, sizeof c->note, "load failed: %.230s", msg);
            return 1;
        }
        if (osc_session_create(c->m, &c->s) != OSC_OK) {
            snprintf(c->note, sizeof c->note, "cannot create a session");
            return 1;
        }
        for (size_t k = 0; k < b->bc.n_in; k++)
            if (osc_session_set_input_at(c->s, k, &b->bc.in[k]) != OSC_OK) {
                snprintf(c->note, sizeof c->note, "input %zu: %s", k, osc_session_error(c->s));
                return 1;
            }
        if (is_inplace(id)) {
            int32_t mode = -1;
            osc_model_node_inplace(c->m, 0, &mode);
            if (mode != OSC_INPLACE_INPUT) {
                snprintf(c->note, sizeof c->note, "NOT IN PLACE: node 0 reports in-place mode %d",
                         (int)mode);
                fprintf(stderr, "bench: %s: %s: %s\n", b->bc.name, k_names[id], c->note);
            }
        }
        if (threads_of(id) == 2)
            snprintf(c->note, sizeof c->note, "%d threads", (int)osc_session_threads(c->s));
    } else if (id == C_LOOP || id == C_LOOP_INPL) {
        if (b->loop.kind == CL_NONE) {
            snprintf(c->note, sizeof c->note, "%s", b->loop.why);
            return 1;
        }
        if (id == C_LOOP && !(c->buf = malloc(b->data_bytes ? b->data_bytes : 1))) {
            snprintf(c->note, sizeof c->note, "out of memory");
            return 1;
        }
    } else if (is_memcpy(id)) {
        if (!(c->buf = malloc(b->data_bytes ? b->data_bytes : 1))) {
            snprintf(c->note, sizeof c->note, "out of memory");
            return 1;
        }
        if (id == C_MEMCPY2 && !(c->pc_on = !pcopy_start(&c->pc))) {
            snprintf(c->note, sizeof c->note, "cannot start a second thread");
            return 1;
        }
    }
    if (need_scratch && is_inplace(id) && !b->scratch &&
        !(b->scratch = malloc(b->data_bytes ? b->data_bytes : 1))) {
        snprintf(c->note, sizeof c->note, "out of memory (scratch)");
        return 1;
    }
    c->active = 1;
    return 0;
}

static void teardown(contender *c) {
    if (c->pc_on) pcopy_stop(&c->pc);
    c->pc_on = 0;
    osc_session_free(c->s);
    osc_model_free(c->m);
    free(c->buf);
    c->s = NULL, c->m = NULL, c->buf = NULL;
}

/* One run of contender id; *ms is the timed part. scratch: the in-place buffer, restored from
 * the pristine data first unless restore is 0 (RSS child: the data buffer itself, any content).
 * onnxruntime runs ort_calls times in a row (its times come from its profiler later). */
static int run_once(bench *b, int id, contender *c, void *scratch, int restore, double *ms,
                    double *cpu, int64_t ort_calls) {
    const bench_case *bc = &b->bc;
    double t0 = 0, c0 = 0;
    if (is_inplace(id) && restore) memcpy(scratch, bc->in[0].data, b->data_bytes);
    if (is_osc(id)) {
        if (is_inplace(id)) {
            osc_tensor t = data_view(b, scratch);
            if (osc_session_set_input_at(c->s, 0, &t) != OSC_OK) goto osc_fail;
        }
        c0 = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = bench_now_ms(CLOCK_MONOTONIC);
        osc_status st = osc_session_run(c->s);
        *ms = bench_now_ms(CLOCK_MONOTONIC) - t0, *cpu = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        if (st != OSC_OK) goto osc_fail;
        return 0;
    }
    if (is_ort(id)) {
        char cmd[64];
        const char *rest;
        snprintf(cmd, sizeof cmd, "run %d %lld", threads_of(id), (long long)ort_calls);
        if (peer_cmd(&b->peer, cmd, &b->line, &b->cap, &rest)) {
            snprintf(c->note, sizeof c->note, "run failed: %.200s", rest);
            return 1;
        }
        /* the time comes from ORT's profiler at the end of the case; the answer's JavaScript wall
         * time per run only sizes the bursts */
        *ms = strtod(rest, NULL), *cpu = 0;
        return 0;
    }
    c0 = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = bench_now_ms(CLOCK_MONOTONIC);
    if (id == C_MEMCPY) {
        memcpy(c->buf, bc->in[0].data, b->data_bytes);
    } else if (id == C_MEMCPY2) {
        pcopy_run(&c->pc, c->buf, bc->in[0].data, b->data_bytes);
    } else if (id == C_LOOP) {
        memcpy(c->buf, bc->in[0].data, b->data_bytes);
        cloop_scatter(&b->loop, c->buf);
    } else {
        cloop_scatter(&b->loop, scratch);
    }
    *ms = bench_now_ms(CLOCK_MONOTONIC) - t0, *cpu = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    return 0;
osc_fail:
    snprintf(c->note, sizeof c->note, "run failed: %s", osc_session_error(c->s));
    return 1;
}

/* The bytes contender id produced in its last run (NULL: none to compare). */
static const void *output_of(bench *b, int id, contender *c, size_t *n) {
    if (is_osc(id)) {
        osc_tensor t;
        if (osc_session_output(c->s, 0, &t) != OSC_OK) return NULL;
        *n = t.nbytes;
        return t.data;
    }
    *n = b->data_bytes;
    return id == C_LOOP_INPL ? b->scratch : c->buf;
}

static void mismatch_text(char *out, size_t size, const void *got, size_t n_got, const void *want,
                          size_t n_want, const char *what) {
    if (n_got != n_want) {
        snprintf(out, size, "MISMATCH: %zu bytes, %s has %zu", n_got, what, n_want);
        return;
    }
    const unsigned char *g = got, *w = want;
    size_t first = 0, count = 0;
    for (size_t i = 0; i < n_got; i++)
        if (g[i] != w[i]) {
            if (!count) first = i;
            count++;
        }
    snprintf(out, size, "MISMATCH vs %s: %zu bytes differ, first at byte %zu", what, count, first);
}

/* Compares contender id's last output (see the top of the file); returns 1 on a mismatch. */
static int check(bench *b, int id, contender *all) {
    contender *c = &all[id];
    c->checks++;
    if (is_ort(id)) {
        char cmd[32];
        const char *rest;
        snprintf(cmd, sizeof cmd, "check %d", threads_of(id));
        int bad = peer_cmd(&b->peer, cmd, &b->line, &b->cap, &rest);
        snprintf(c->check, sizeof c->check, "%s%.200s", bad ? "check failed: " : "", rest);
        bad |= strncmp(rest, "bit-identical", 13) != 0;
        if (bad) fprintf(stderr, "bench: %s: %s: %s\n", b->bc.name, k_names[id], c->check);
        c->mismatches += bad;
        return 0; /* onnxruntime's results are reported, they do not fail the suite */
    }
    size_t n = 0, n_ref = 0;
    const void *got = output_of(b, id, c, &n), *ref;
    const char *what;
    if (is_memcpy(id)) {
        ref = b->bc.in[0].data, n_ref = b->data_bytes, what = "data";
    } else if (id == C_COPY1 || !all[C_COPY1].active) {
        ref = b->bc.expected.data, n_ref = b->bc.expected.nbytes, what = "output_0.pb";
    } else {
        ref = output_of(b, C_COPY1, &all[C_COPY1], &n_ref), what = "onnx-scatter copy 1t";
    }
    if (!got || !ref) {
        snprintf(c->check, sizeof c->check, "MISMATCH: no output to compare");
    } else if (n == n_ref && memcmp(got, ref, n) == 0) {
        snprintf(c->check, sizeof c->check, "bit-identical");
        return 0;
    } else {
        mismatch_text(c->check, sizeof c->check, got, n, ref, n_ref, what);
    }
    c->mismatches++;
    fprintf(stderr, "bench: %s: %s: %s\n", b->bc.name, k_names[id], c->check);
    return 1;
}

/* ---- ORT peer per case ---- */

/* Parses the "times T N ms..." lines that answer "finish W1 W2" (runs to drop per session) into
 * the onnxruntime contenders' ms arrays. */
static void ort_finish(bench *b, contender *all) {
    const char *rest;
    const int64_t warm[2] = {all[C_ORT1].warm_runs, all[C_ORT2].warm_runs};
    double *times[2];
    size_t n[2];
    int bad = peer_finish(&b->peer, warm, times, n, &b->line, &b->cap, &rest);
    for (int t = 0; t < 2; t++) {
        contender *c = &all[t ? C_ORT2 : C_ORT1];
        if (bad && c->active) snprintf(c->note, sizeof c->note, "no timings: %.200s", rest);
        if (bad) c->active = 0;
        if (c->active && times[t]) {
            free(c->ms);
            c->ms = times[t], c->n_ms = n[t];
        } else {
            free(times[t]); /* failed during the rounds: no timings */
        }
    }
}

/* ---- one case ---- */

static void describe(const bench *b, const osc_model *m, char *out, size_t size) {
    osc_node_desc nd;
    size_t p = 0;
    if (osc_model_node(m, 0, &nd) == OSC_OK)
        p += (size_t)snprintf(out + p, size - p, "%s-%lld", nd.op_type,
                              (long long)nd.since_version);
    for (size_t k = 0; k < b->bc.n_in && p < size; k++) {
        osc_value_desc d;
        const osc_tensor *t = &b->bc.in[k];
        p += (size_t)snprintf(out + p, size - p, "%s %s %s[", k ? "," : ";",
                              osc_model_input(m, k, &d) == OSC_OK ? d.name : "?",
                              osc_dtype_name(t->dtype));
        for (int32_t i = 0; i < t->rank && p < size; i++)
            p += (size_t)snprintf(out + p, size - p, i ? ",%lld" : "%lld", (long long)t->dims[i]);
        if (p < size) p += (size_t)snprintf(out + p, size - p, "]");
    }
    const char *red;
    int64_t axis;
    if (p < size && osc_model_node_attr_int(m, 0, "axis", &axis) == OSC_OK)
        p += (size_t)snprintf(out + p, size - p, "; axis %lld", (long long)axis);
    if (p < size && osc_model_node_attr_str(m, 0, "reduction", &red) == OSC_OK)
        snprintf(out + p, size - p, "; reduction %s", red);
}

/* The node's share of a run, from a profiled session (opts.profile = 1), into r->extra. */
static void profile_pass(bench *b, result *r, int64_t runs) {
    osc_options opts;
    osc_options_init(&opts);
    opts.profile = 1;
    osc_model *m = NULL;
    osc_session *s = NULL;
    char path[1200], msg[OSC_MESSAGE_SIZE];
    snprintf(path, sizeof path, "%s/model.onnx", b->bc.dir);
    double *run = calloc((size_t)runs, sizeof *run), *node = calloc((size_t)runs, sizeof *node);
    int ok = run && node && osc_model_load_file(path, &opts, &m, msg, sizeof msg) == OSC_OK &&
             osc_session_create(m, &s) == OSC_OK;
    for (size_t k = 0; ok && k < b->bc.n_in; k++)
        ok = osc_session_set_input_at(s, k, &b->bc.in[k]) == OSC_OK;
    for (int64_t i = -2; ok && i < runs; i++) {
        double t0 = bench_now_ms(CLOCK_MONOTONIC);
        ok = osc_session_run(s) == OSC_OK;
        if (i < 0) continue;
        run[i] = bench_now_ms(CLOCK_MONOTONIC) - t0;
        node[i] = 0;
        for (size_t n = 0; n < osc_model_node_count(m); n++)
            node[i] += (double)osc_session_node_ns(s, n) / 1e6;
    }
    if (ok && runs > 0) {
        qsort(run, (size_t)runs, sizeof *run, bench_cmp_double);
        qsort(node, (size_t)runs, sizeof *node, bench_cmp_double);
        double mr = run[runs / 2], mn = node[runs / 2];
        snprintf(r->extra, sizeof r->extra, "with opts.profile = 1 (copy, 1 thread, %lld runs): "
                 "median run %.4g ms, of which the node %.4g ms (%.0f%%); %.3g us outside the "
                 "kernel",
                 (long long)runs, mr, mn, mr > 0 ? 100 * mn / mr : 0, (mr - mn) * 1e3);
    }
    osc_session_free(s);
    osc_model_free(m);
    free(run);
    free(node);
}

/* Measures peak RSS of every active contender in a child process each. */
static void rss_pass(bench *b, result *r, const char *self) {
    for (int id = 0; id < C_COUNT; id++) {
        contender *c = &r->c[id];
        if (!c->active) continue;
        char line[512], t[8];
        snprintf(t, sizeof t, "%d", threads_of(id));
        char *argv_c[] = {(char *)self, "--rss-child", (char *)k_ids[id], b->bc.dir, NULL};
        char *argv_o[] = {(char *)b->o->c.node, (char *)b->o->c.ort_script, "rss", b->bc.dir, t, NULL};
        c->rss_file_kb = -1; /* (the onnxruntime child does not report it) */
        if (child_line(is_ort(id) ? argv_o : argv_c, "rss ", line, sizeof line) ||
            sscanf(line, "rss %ld %ld %ld", &c->rss_base_kb, &c->rss_peak_kb,
                   &c->rss_file_kb) < 2) {
            fprintf(stderr, "bench: %s: %s: peak RSS not measured: %s\n", b->bc.name,
                    k_names[id], line);
            c->rss_base_kb = c->rss_peak_kb = c->rss_file_kb = -1;
        }
    }
}

static int run_case(bench *b, const char *dir, result *r, const char *self) {
    const options *o = b->o;
    char msg[1024];
    memset(r, 0, sizeof *r);
    if (case_load(&b->bc, dir, 1, msg, sizeof msg)) {
        fprintf(stderr, "bench: %s\n", msg);
        return 1;
    }
    snprintf(r->name, sizeof r->name, "%s", b->bc.name);
    b->data_bytes = b->bc.in[0].nbytes;
    r->io_kb = (double)b->data_bytes / 1024; /* the output is data-shaped */
    for (size_t i = 0; i < b->bc.n_in; i++) r->io_kb += (double)b->bc.in[i].nbytes / 1024;
    contender *all = r->c;
    for (int id = 0; id < C_COUNT; id++)
        all[id].rss_base_kb = all[id].rss_peak_kb = all[id].rss_file_kb = -1;
    printf("== %s\n", b->bc.name);
    fflush(stdout);

    memset(&b->loop, 0, sizeof b->loop);
    snprintf(b->loop.why, sizeof b->loop.why, "no model to describe the node");
    for (int id = 0; id < C_COUNT; id++) {
        if (is_ort(id)) continue;
        if (id == C_COPY2 && all[C_COPY1].m) { /* the node as the copy-mode model has it */
            cloop_prepare(&b->loop, all[C_COPY1].m, &b->bc);
            describe(b, all[C_COPY1].m, r->what, sizeof r->what);
        }
        if (setup(b, id, &all[id], 1)) {
            fprintf(stderr, "bench: %s: %s: %s\n", b->bc.name, k_names[id], all[id].note);
            b->failed = 1; /* every contender but onnxruntime is required */
            teardown(&all[id]);
        }
    }
    if (b->peer_ok && b->peer.dead) {
        b->peer_ok = 0;
        snprintf(b->ort_reason, sizeof b->ort_reason, "the onnxruntime process exited");
    }
    if (b->peer_ok) {
        char cmd[1200];
        const char *rest;
        snprintf(cmd, sizeof cmd, "case %s", b->bc.dir);
        if (peer_cmd(&b->peer, cmd, &b->line, &b->cap, &rest)) {
            for (int id = C_ORT1; id <= C_ORT2; id++)
                snprintf(all[id].note, sizeof all[id].note, "case not run: %.200s", rest);
            printf("onnxruntime: %s: not run (%s)\n", b->bc.name, rest);
        } else {
            all[C_ORT1].active = all[C_ORT2].active = 1;
        }
    } else {
        for (int id = C_ORT1; id <= C_ORT2; id++)
            snprintf(all[id].note, sizeof all[id].note, "not available");
    }

    /* Warm-up rounds, then as many timed rounds as --seconds allows within the bounds. Each
     * round calls every contender for a burst of `calls` runs in a row, sized after each warm-up
     * round so that a burst lasts about --burst-ms: a call of a few microseconds is then timed
     * warm, as a program calling it in a loop sees it, not right after another process evicted
     * its cache lines (only the first call of a burst is). */
    int64_t total = o->c.warmup + (o->c.rounds > 0 ? o->c.rounds : o->c.min_rounds);
    double round_ms = 0;
    uint64_t seed = 8;
    int order[C_COUNT];
    for (int id = 0; id < C_COUNT; id++) all[id].calls = 1;
    for (int64_t round = 0; round < total; round++) {
        int timed = round >= o->c.warmup;
        double r0 = bench_now_ms(CLOCK_MONOTONIC);
        bench_shuffle(order, C_COUNT, (int)round, &seed);
        for (int j = 0; j < C_COUNT; j++) {
            int id = order[j];
            contender *c = &all[id];
            if (!c->active) continue;
            if (timed && !is_ort(id) && !c->ms &&
                !(c->ms = calloc((size_t)((total - o->c.warmup) * c->calls), sizeof *c->ms))) {
                snprintf(c->note, sizeof c->note, "out of memory");
                c->active = 0;
                b->failed = 1;
                continue;
            }
            int64_t n = is_ort(id) ? 1 : c->calls;
            for (int64_t i = 0; i < n && c->active; i++) {
                double ms = 0, cpu = 0, w0 = bench_now_ms(CLOCK_MONOTONIC);
                if (run_once(b, id, c, b->scratch, 1, &ms, &cpu, c->calls)) {
                    fprintf(stderr, "bench: %s: %s: %s\n", b->bc.name, k_names[id], c->note);
                    c->active = 0;
                    b->failed |= !is_ort(id);
                    break;
                }
                if (is_ort(id)) {
                    c->est_ms = ms > 0 ? ms : (bench_now_ms(CLOCK_MONOTONIC) - w0) / (double)c->calls;
                    if (!timed) c->warm_runs += c->calls;
                    /* let node finish freeing its copies of the output */
                    struct timespec pause = {0, 2000000};
                    nanosleep(&pause, NULL);
                    continue;
                }
                c->est_ms = ms;
                if (timed) {
                    c->ms[c->n_ms++] = ms;
                    c->cpu_ms += cpu, c->wall_ms += ms;
                }
            }
            if (c->active && (round == 0 || round == total - 1)) b->failed |= check(b, id, all);
        }
        round_ms = bench_now_ms(CLOCK_MONOTONIC) - r0;
        if (round < o->c.warmup - 1) {
            for (int id = 0; id < C_COUNT; id++) { /* bursts from the next round on */
                double k = o->burst_ms / (all[id].est_ms > 1e-6 ? all[id].est_ms : 1e-6);
                all[id].calls = k < 1 ? 1 : k > (double)o->max_calls ? o->max_calls : (int64_t)k;
            }
        } else if (round == o->c.warmup - 1 && o->c.rounds <= 0) { /* the last warm-up round */
            double want = o->c.seconds * 1e3 / (round_ms > 0 ? round_ms : 1e-3);
            int64_t n = want > (double)o->c.max_rounds ? o->c.max_rounds : (int64_t)want;
            total = o->c.warmup + (n < o->c.min_rounds ? o->c.min_rounds : n);
        }
    }
    r->warmup = o->c.warmup, r->rounds = total - o->c.warmup;
    if (all[C_ORT1].active || all[C_ORT2].active) ort_finish(b, all);
    for (int id = 0; id < C_COUNT; id++) stats(&all[id]);
    if (all[C_COPY1].active) profile_pass(b, r, r->rounds < 30 ? r->rounds : 30);
    for (int id = 0; id < C_COUNT; id++) teardown(&all[id]);
    free(b->scratch);
    b->scratch = NULL;
    if (o->c.rss) rss_pass(b, r, self);
    case_free(&b->bc);

    /* the console table */
    printf("%s\n%lld timed rounds after %lld warm-up\n", r->what, (long long)r->rounds,
           (long long)r->warmup);
    printf("  %-26s %7s %10s %10s %10s %8s %8s %8s %9s  %s\n", "contender", "runs", "median ms",
           "min ms", "max ms", "xCloop", "xORT", "cpu/wall", "peakMiB", "output");
    for (int id = 0; id < C_COUNT; id++) {
        contender *c = &all[id];
        if (!c->n_ms) {
            printf("  %-26s %s\n", k_names[id], c->note[0] ? c->note : "not run");
            continue;
        }
        int lp = loop_ref(id), ort = ort_ref(id);
        printf("  %-26s %7zu %10.4g %10.4g %10.4g", k_names[id], c->n_ms, c->med, c->min, c->max);
        if (lp >= 0 && all[lp].n_ms) printf(" %8.2f", c->med / all[lp].med);
        else printf(" %8s", "-");
        if (ort >= 0 && all[ort].n_ms) printf(" %8.2f", c->med / all[ort].med);
        else printf(" %8s", "-");
        if (cpu_meaningful(c)) printf(" %8.2f", c->cpu_ms / c->wall_ms);
        else printf(" %8s", "-");
        if (c->rss_peak_kb >= 0) printf(" %9.1f", (double)c->rss_peak_kb / 1024);
        else printf(" %9s", "-");
        printf("  %s%s%s\n", c->check, c->note[0] ? "; " : "", c->note);
    }
    if (r->extra[0]) printf("  %s\n", r->extra);
    fflush(stdout);
    return 0;
}

/* ---- Markdown ---- */

static void md_num(FILE *f, double v) {
    if (isnan(v)) fputs(" – |", f);
    else if (v >= 100) fprintf(f, " %.1f |", v);
    else if (v >= 1) fprintf(f, " %.2f |", v);
    else if (v >= 0.01) fprintf(f, " %.4f |", v);
    else fprintf(f, " %.6f |", v);
}

static void md_ratio(FILE *f, const contender *c, const contender *d) {
    if (!c->n_ms || !d || !d->n_ms) fputs(" – |", f);
    else fprintf(f, c->med / d->med < 0.1 ? " %.2g |" : " %.2f |", c->med / d->med);
}

static void write_markdown(const char *path, const result *res, size_t n, const bench *b) {
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench: cannot write %s\n", path);
        return;
    }
    fputs("## Headline\n\nMedian time of one run, and the ratio of medians measured in the same "
          "rounds (lower is better for onnx-scatter; 1.00 = as fast as the reference). "
          "memcpy 2t ÷ 1t: glibc memcpy of data split over two threads against one, in the "
          "same rounds (what two threads can gain on a pure copy here). "
          "RSS ÷ I/O: peak RSS of the copy 1t child over the bytes of the case's inputs plus "
          "its output; in parentheses the same without the file-backed pages (the program's "
          "and the C library's code) the child had mapped before the run. Both only for cases "
          "of at least 1 MiB.\n\n"
          "| case | copy 1t ms | ÷ C loop | ÷ ORT 1t | copy 2t ms | 2t ÷ 1t | memcpy 2t ÷ 1t "
          "| in-place 1t ms | in-place ÷ copy | in-place 2t ms | ORT 1t ms | ORT 2t ÷ 1t "
          "| RSS ÷ I/O |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", f);
    for (size_t i = 0; i < n; i++) {
        const contender *c = res[i].c;
        fprintf(f, "| %s |", res[i].name);
        md_num(f, c[C_COPY1].med);
        md_ratio(f, &c[C_COPY1], &c[C_LOOP]), md_ratio(f, &c[C_COPY1], &c[C_ORT1]);
        md_num(f, c[C_COPY2].med);
        md_ratio(f, &c[C_COPY2], &c[C_COPY1]);
        const int big = res[i].io_kb >= 1024; /* (ratios of tiny cases say nothing) */
        md_ratio(f, &c[C_MEMCPY2], big ? &c[C_MEMCPY] : NULL);
        md_num(f, c[C_INPL1].med);
        md_ratio(f, &c[C_INPL1], &c[C_COPY1]);
        md_num(f, c[C_INPL2].med);
        md_num(f, c[C_ORT1].n_ms ? c[C_ORT1].med : NAN);
        md_ratio(f, &c[C_ORT2], &c[C_ORT1]);
        const contender *rc = &c[C_COPY1];
        if (rc->rss_peak_kb > 0 && big && rc->rss_file_kb >= 0)
            fprintf(f, " %.2f (%.2f) |", (double)rc->rss_peak_kb / res[i].io_kb,
                    (double)(rc->rss_peak_kb - rc->rss_file_kb) / res[i].io_kb);
        else if (rc->rss_peak_kb > 0 && big)
            fprintf(f, " %.2f |", (double)rc->rss_peak_kb / res[i].io_kb);
        else
            fputs(" – |", f);
        fputc('\n', f);
    }
    if (!b->peer_ok && b->ort_reason[0])
        fprintf(f, "\nonnxruntime: not available (%s)\n", b->ort_reason);
    fputs("\n## Cases\n", f);
    for (size_t i = 0; i < n; i++) {
        const result *r = &res[i];
        fprintf(f, "\n### %s\n\n%s. %lld timed rounds after %lld warm-up.\n\n", r->name, r->what,
                (long long)r->rounds, (long long)r->warmup);
        fputs("| contender | runs | median ms | min ms | max ms | ÷ C loop (same mode) "
              "| ÷ ORT (same threads) "
              "| CPU/wall | peak RSS MiB | RSS over base MiB | output |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n", f);
        for (int id = 0; id < C_COUNT; id++) {
            const contender *c = &r->c[id];
            fprintf(f, "| %s |", k_names[id]);
            if (!c->n_ms) {
                fprintf(f, " – | – | – | – | – | – | – | – | – | %s |\n",
                        c->note[0] ? c->note : "not run");
                continue;
            }
            fprintf(f, " %zu |", c->n_ms);
            md_num(f, c->med), md_num(f, c->min), md_num(f, c->max);
            md_ratio(f, c, loop_ref(id) >= 0 ? &r->c[loop_ref(id)] : NULL);
            md_ratio(f, c, ort_ref(id) >= 0 ? &r->c[ort_ref(id)] : NULL);
            if (cpu_meaningful(c)) fprintf(f, " %.2f |", c->cpu_ms / c->wall_ms);
            else fputs(" – |", f);
            if (c->rss_peak_kb >= 0)
                fprintf(f, " %.1f | %.1f |", (double)c->rss_peak_kb / 1024,
                        (double)(c->rss_peak_kb - c->rss_base_kb) / 1024);
            else fputs(" – | – |", f);
            fprintf(f, " %s%s%s |\n", c->check, c->note[0] ? "; " : "", c->note);
        }
        if (r->extra[0]) fprintf(f, "\nProfile: %s.\n", r->extra);
    }
    fclose(f);
}

/* ---- the RSS child ---- */

static int rss_child(const char *which, const char *dir) {
    bench b;
    memset(&b, 0, sizeof b);
    int id = -1;
    for (int i = 0; i < C_COUNT; i++)
        if (!strcmp(which, k_ids[i])) id = i;
    char msg[1024];
    if (id < 0 || is_ort(id)) {
        fprintf(stderr, "bench: --rss-child: unknown contender '%s'\n", which);
        return 2;
    }
    if (case_load(&b.bc, dir, 0, msg, sizeof msg)) {
        fprintf(stderr, "bench: %s\n", msg);
        return 1;
    }
    b.data_bytes = b.bc.in[0].nbytes;
    contender c;
    memset(&c, 0, sizeof c);
    /* the .pb buffers the loader freed stay in the C library's heap; give them back so that
     * the base is the process and the inputs, not the reading of the files */
    malloc_trim(0);
    if (rss_reset_peak()) {
        fprintf(stderr, "bench: cannot reset the peak RSS (/proc/self/clear_refs)\n");
        return 1;
    }
    long base = rss_status_kb("VmRSS"), file = rss_status_kb("RssFile");
    /* the C loop needs a model to describe the node; it is freed before anything is measured */
    if (id == C_LOOP || id == C_LOOP_INPL) {
        contender d;
        memset(&d, 0, sizeof d);
        if (setup(&b, C_COPY1, &d, 0)) return 1;
        cloop_prepare(&b.loop, d.m, &b.bc);
        teardown(&d);
        rss_reset_peak();
        base = rss_status_kb("VmRSS"), file = rss_status_kb("RssFile");
    }
    if (setup(&b, id, &c, 0)) {
        fprintf(stderr, "bench: %s\n", c.note);
        return 1;
    }
    for (int i = 0; i < 3; i++) {
        double ms, cpu;
        /* in place: the case's own data buffer is consumed (contents do not matter here) */
        if (run_once(&b, id, &c, b.bc.in[0].data, 0, &ms, &cpu, 1)) {
            fprintf(stderr, "bench: %s\n", c.note);
            return 1;
        }
    }
    /* the file-backed pages mapped at base (the program's and the C library's code) stay
     * mapped: the peak less them bounds the memory the run itself holds from above */
    printf("rss %ld %ld %ld\n", base, rss_status_kb("VmHWM"), file);
    teardown(&c);
    case_free(&b.bc);
    return 0;
}

/* ---- main ---- */

static void usage(FILE *f) {
    fputs("usage: osc-bench-harness [options] CASE_DIR...\n"
          "  --rounds N       timed rounds per case (default: from --seconds)\n"
          "  --seconds S      aim at about S seconds of rounds per case (default 12)\n"
          "  --min-rounds N   at least N timed rounds (default 15)\n"
          "  --max-rounds N   at most N timed rounds (default 1000)\n"
          "  --warmup N       untimed rounds first (default 3, at least 1)\n"
          "  --burst-ms T     per round, call each contender for about T ms in a row (default 1;\n"
          "                   the calls are timed one by one)\n"
          "  --max-calls N    at most N calls per contender and round (default 1000)\n"
          "  --ort SCRIPT     add onnxruntime through node SCRIPT (bench/ort/ort_bench.js);\n"
          "                   node is $OSC_BENCH_NODE or `node`\n"
          "  --ort-off WHY    no onnxruntime; say why in the report\n"
          "  --no-rss         skip the peak-RSS child processes\n"
          "  --markdown FILE  also write the results as Markdown\n"
          "Exit status: 0 when every run succeeded and every output is bit-identical,\n"
          "else 1 (onnxruntime's differences are reported, they do not fail the run).\n", f);
}

int main(int argc, char **argv) {
    if (argc == 4 && !strcmp(argv[1], "--rss-child")) return rss_child(argv[2], argv[3]);
    options o = {.max_calls = 1000, .burst_ms = 1.0};
    bench_opts_init(&o.c, 3, 15, 1000, 12.0);
    const char **dirs = calloc((size_t)argc, sizeof *dirs);
    size_t n_dirs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0, takes = 1;
        if (bench_opt(&o.c, a, v, &bad, &takes)) {
        } else if (!strcmp(a, "--max-calls")) bad = bench_parse_int(v, &o.max_calls) || o.max_calls < 1;
        else if (!strcmp(a, "--burst-ms")) bad = !v || (o.burst_ms = strtod(v, NULL)) <= 0;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "bench: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else {
            dirs[n_dirs++] = a, takes = 0;
        }
        if (bad) {
            fprintf(stderr, "bench: %s needs a valid value\n", a);
            return 2;
        }
        i += takes;
    }
    if (!n_dirs) {
        usage(stderr);
        return 2;
    }
    char self[1024];
    bench b;
    memset(&b, 0, sizeof b);
    b.o = &o;
    b.peer_ok = bench_start(&o.c, argv[0], self, sizeof self, "C loop, memcpy", &b.peer,
                            b.ort_reason, sizeof b.ort_reason);

    result *res = calloc(n_dirs, sizeof *res);
    size_t n_res = 0;
    for (size_t i = 0; res && i < n_dirs; i++) {
        if (run_case(&b, dirs[i], &res[n_res], self)) b.failed = 1;
        else n_res++;
    }
    if (o.c.markdown && res) write_markdown(o.c.markdown, res, n_res, &b);
    for (size_t i = 0; res && i < n_res; i++)
        for (int id = 0; id < C_COUNT; id++) free(res[i].c[id].ms);
    if (b.peer_ok) peer_stop(&b.peer);
    free(b.line);
    free(res);
    free(dirs);
    printf("%s\n", b.failed ? "FAILED: a run failed or an output differs (see above)"
                            : "all onnx-scatter and C loop outputs bit-identical");
    return b.failed ? 1 : 0;
}
