/* harness.c: times onnx-scatter against a plain C loop, memcpy and onnxruntime on bench cases. */
/* Usage: osc-bench-harness [options] CASE_DIR...   (see usage() below)
 *
 * Per case, the inputs are loaded once and every contender is set up once; then rounds run. A
 * round calls every contender in a new shuffled order (with a fixed rotation, the contender
 * after onnxruntime always ran right after another process had the CPU and the memory bus, and
 * measured ~15% slow), each for a burst of calls in a row sized to last about --burst-ms (so a
 * call of microseconds is timed warm; see rounds() in runner.c, which runs the rounds of both
 * harnesses). After onnxruntime the harness pauses 2 ms so that node's freeing of its output
 * copies does not overlap the next contender. The first
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
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

enum {
    C_COPY1, C_COPY2, C_INPL1, C_INPL2, C_LOOP, C_LOOP_INPL, C_MEMCPY, C_MEMCPY2, C_ORT1, C_ORT2,
    C_COUNT
};

/* Names, --rss-child ids and thread counts. */
static const bench_kind k_kinds[C_COUNT] = {
    [C_COPY1] = {"onnx-scatter copy 1t", "copy1", 1},
    [C_COPY2] = {"onnx-scatter copy 2t", "copy2", 2},
    [C_INPL1] = {"onnx-scatter in-place 1t", "inplace1", 1},
    [C_INPL2] = {"onnx-scatter in-place 2t", "inplace2", 2},
    [C_LOOP] = {"C loop copy", "loop", 1},
    [C_LOOP_INPL] = {"C loop in-place", "loop_inplace", 1},
    [C_MEMCPY] = {"memcpy 1t", "memcpy", 1},
    [C_MEMCPY2] = {"memcpy 2t", "memcpy2", 2},
    [C_ORT1] = {"onnxruntime 1t", "ort1", 1},
    [C_ORT2] = {"onnxruntime 2t", "ort2", 2},
};

static int is_osc(int id) { return id <= C_INPL2; }
static int is_inplace(int id) { return id == C_INPL1 || id == C_INPL2 || id == C_LOOP_INPL; }
static int is_ort(int id) { return id == C_ORT1 || id == C_ORT2; }
static int threads_of(int id) { return k_kinds[id].threads; }
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

typedef bench_contender contender;
typedef bench_result result;

/* The runner's state (first, so the hooks' bench_run is this) and the scatter contenders'. */
typedef struct bench {
    bench_run r;
    cloop loop;
    void *scratch;           /* in-place contenders' data buffer, restored before each run */
    size_t data_bytes;
    void *buf[C_COUNT];      /* C loop copy / memcpy output */
    pcopy pc;                /* memcpy 2t: its helper thread */
    int pc_on;
} bench;

/* CPU time (all threads) over wall time of the timed runs: about 1 for one busy thread, 2 for
 * two. Reading the process CPU clock is a system call of a few hundred ns that falls inside the
 * interval, so runs under 0.05 ms get no figure. */
static int cpu_meaningful(const contender *c) { return c->wall_ms > 0 && c->med >= 0.05; }

/* ---- contender setup (shared by the timed runs and the RSS child) ---- */

static osc_tensor data_view(const bench *b, void *data) {
    osc_tensor t = b->r.bc.in[0];
    t.data = data;
    return t;
}

static int setup(bench_run *r, int id, contender *c, int child) {
    bench *b = (bench *)r;
    if (is_osc(id)) {
        osc_options opts;
        osc_options_init(&opts);
        opts.threads = threads_of(id);
        opts.inplace_inputs = is_inplace(id);
        if (bench_osc_setup(r, &opts, c)) return 1;
        if (is_inplace(id)) {
            int32_t mode = -1;
            osc_model_node_inplace(c->m, 0, &mode);
            if (mode != OSC_INPLACE_INPUT) {
                snprintf(c->note, sizeof c->note, "NOT IN PLACE: node 0 reports in-place mode %d",
                         (int)mode);
                bench_report(r, id, c->note);
            }
        }
        if (threads_of(id) == 2)
            snprintf(c->note, sizeof c->note, "%d threads", (int)osc_session_threads(c->s));
    } else if (id == C_LOOP || id == C_LOOP_INPL) {
        if (b->loop.kind == CL_NONE) {
            snprintf(c->note, sizeof c->note, "%s", b->loop.why);
            return 1;
        }
        if (id == C_LOOP && !(b->buf[id] = malloc(b->data_bytes ? b->data_bytes : 1))) {
            snprintf(c->note, sizeof c->note, "out of memory");
            return 1;
        }
    } else if (is_memcpy(id)) {
        if (!(b->buf[id] = malloc(b->data_bytes ? b->data_bytes : 1))) {
            snprintf(c->note, sizeof c->note, "out of memory");
            return 1;
        }
        if (id == C_MEMCPY2 && !(b->pc_on = !pcopy_start(&b->pc))) {
            snprintf(c->note, sizeof c->note, "cannot start a second thread");
            return 1;
        }
    }
    if (!child && is_inplace(id) && !b->scratch &&
        !(b->scratch = malloc(b->data_bytes ? b->data_bytes : 1))) {
        snprintf(c->note, sizeof c->note, "out of memory (scratch)");
        return 1;
    }
    return 0;
}

static void teardown(bench_run *r, int id) {
    bench *b = (bench *)r;
    if (id == C_MEMCPY2 && b->pc_on) pcopy_stop(&b->pc), b->pc_on = 0;
    free(b->buf[id]);
    b->buf[id] = NULL;
}

/* One run of contender id; *ms is the timed part. The in-place buffer is the scratch buffer,
 * restored from the pristine data first; in the RSS child, the case's data buffer itself (any
 * content). */
static int run_once(bench_run *r, int id, contender *c, int child, double *ms, double *cpu) {
    bench *b = (bench *)r;
    const bench_case *bc = &r->bc;
    void *scratch = child ? bc->in[0].data : b->scratch;
    double t0 = 0, c0 = 0;
    if (is_inplace(id) && !child) memcpy(scratch, bc->in[0].data, b->data_bytes);
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
    c0 = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = bench_now_ms(CLOCK_MONOTONIC);
    if (id == C_MEMCPY) {
        memcpy(b->buf[id], bc->in[0].data, b->data_bytes);
    } else if (id == C_MEMCPY2) {
        pcopy_run(&b->pc, b->buf[id], bc->in[0].data, b->data_bytes);
    } else if (id == C_LOOP) {
        memcpy(b->buf[id], bc->in[0].data, b->data_bytes);
        cloop_scatter(&b->loop, b->buf[id]);
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
static const void *output_of(const bench *b, int id, const contender *c, size_t *n) {
    if (is_osc(id)) {
        osc_tensor t;
        if (osc_session_output(c->s, 0, &t) != OSC_OK) return NULL;
        *n = t.nbytes;
        return t.data;
    }
    *n = b->data_bytes;
    return id == C_LOOP_INPL ? b->scratch : b->buf[id];
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
static int check(bench_run *r, int id, contender *all) {
    bench *b = (bench *)r;
    contender *c = &all[id];
    if (is_ort(id)) return bench_ort_check(r, id, c, "");
    size_t n = 0, n_ref = 0;
    const void *got = output_of(b, id, c, &n), *ref;
    const char *what;
    if (is_memcpy(id)) {
        ref = r->bc.in[0].data, n_ref = b->data_bytes, what = "data";
    } else if (id == C_COPY1 || !all[C_COPY1].active) {
        ref = r->bc.expected.data, n_ref = r->bc.expected.nbytes, what = "output_0.pb";
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
    bench_report(r, id, c->check);
    return 1;
}

/* ---- one case ---- */

static int load(bench_run *r, result *res, char *msg, size_t msg_size) {
    bench *b = (bench *)r;
    (void)msg, (void)msg_size;
    b->data_bytes = r->bc.in[0].nbytes;
    res->io_kb = (double)b->data_bytes / 1024; /* the output is data-shaped */
    for (size_t i = 0; i < r->bc.n_in; i++) res->io_kb += (double)r->bc.in[i].nbytes / 1024;
    return 0;
}

static void describe(const bench *b, const osc_model *m, char *out, size_t size) {
    osc_node_desc nd;
    size_t p = 0;
    if (osc_model_node(m, 0, &nd) == OSC_OK)
        p += (size_t)snprintf(out + p, size - p, "%s-%lld", nd.op_type,
                              (long long)nd.since_version);
    for (size_t k = 0; k < b->r.bc.n_in && p < size; k++) {
        osc_value_desc d;
        const osc_tensor *t = &b->r.bc.in[k];
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

/* Copy 1t first: the C loops and the description take the node as its model has it. */
static void begin(bench_run *r, result *res) {
    bench *b = (bench *)r;
    memset(&b->loop, 0, sizeof b->loop);
    snprintf(b->loop.why, sizeof b->loop.why, "no model to describe the node");
    bench_setup(r, res->c, C_COPY1, C_COPY1 + 1);
    if (res->c[C_COPY1].m) {
        cloop_prepare(&b->loop, res->c[C_COPY1].m, &r->bc);
        describe(b, res->c[C_COPY1].m, res->what, sizeof res->what);
    }
    bench_setup(r, res->c, C_COPY1 + 1, C_COUNT);
}

/* The node's share of a run, from a profiled session (opts.profile = 1), into r->extra. */
static void profile_pass(bench *b, result *r, int64_t runs) {
    osc_options opts;
    osc_options_init(&opts);
    opts.profile = 1;
    osc_model *m = NULL;
    osc_session *s = NULL;
    char path[1200], msg[OSC_MESSAGE_SIZE];
    snprintf(path, sizeof path, "%s/model.onnx", b->r.bc.dir);
    double *run = calloc((size_t)runs, sizeof *run), *node = calloc((size_t)runs, sizeof *node);
    int ok = run && node && osc_model_load_file(path, &opts, &m, msg, sizeof msg) == OSC_OK &&
             osc_session_create(m, &s) == OSC_OK;
    for (size_t k = 0; ok && k < b->r.bc.n_in; k++)
        ok = osc_session_set_input_at(s, k, &b->r.bc.in[k]) == OSC_OK;
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

static void after_rounds(bench_run *r, result *res) {
    bench *b = (bench *)r;
    if (res->c[C_COPY1].active) profile_pass(b, res, res->rounds < 30 ? res->rounds : 30);
    free(b->scratch);
    b->scratch = NULL;
}

/* the console table */
static void print_case(const bench_run *r, const result *res) {
    (void)r;
    const contender *all = res->c;
    printf("%s\n%lld timed rounds after %lld warm-up\n", res->what, (long long)res->rounds,
           (long long)res->warmup);
    printf("  %-26s %7s %10s %10s %10s %8s %8s %8s %9s  %s\n", "contender", "runs", "median ms",
           "min ms", "max ms", "xCloop", "xORT", "cpu/wall", "peakMiB", "output");
    for (int id = 0; id < C_COUNT; id++) {
        const contender *c = &all[id];
        if (!c->n_ms) {
            printf("  %-26s %s\n", k_kinds[id].name, c->note[0] ? c->note : "not run");
            continue;
        }
        int lp = loop_ref(id), ort = ort_ref(id);
        printf("  %-26s %7zu %10.4g %10.4g %10.4g", k_kinds[id].name, c->n_ms, c->med, c->min,
               c->max);
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
    if (res->extra[0]) printf("  %s\n", res->extra);
    fflush(stdout);
}

/* ---- Markdown ---- */

static void md_ratio(FILE *f, const contender *c, const contender *d) {
    if (!c->n_ms || !d || !d->n_ms) fputs(" – |", f);
    else fprintf(f, c->med / d->med < 0.1 ? " %.2g |" : " %.2f |", c->med / d->med);
}

static void write_markdown(FILE *f, const bench_run *b, const result *res, size_t n) {
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
        bench_md_num(f, c[C_COPY1].med, 6);
        md_ratio(f, &c[C_COPY1], &c[C_LOOP]), md_ratio(f, &c[C_COPY1], &c[C_ORT1]);
        bench_md_num(f, c[C_COPY2].med, 6);
        md_ratio(f, &c[C_COPY2], &c[C_COPY1]);
        const int big = res[i].io_kb >= 1024; /* (ratios of tiny cases say nothing) */
        md_ratio(f, &c[C_MEMCPY2], big ? &c[C_MEMCPY] : NULL);
        bench_md_num(f, c[C_INPL1].med, 6);
        md_ratio(f, &c[C_INPL1], &c[C_COPY1]);
        bench_md_num(f, c[C_INPL2].med, 6);
        bench_md_num(f, c[C_ORT1].n_ms ? c[C_ORT1].med : NAN, 6);
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
    bench_md_ort_note(f, b);
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
            fprintf(f, "| %s |", k_kinds[id].name);
            if (!c->n_ms) {
                fprintf(f, " – | – | – | – | – | – | – | – | – | %s |\n",
                        c->note[0] ? c->note : "not run");
                continue;
            }
            fprintf(f, " %zu |", c->n_ms);
            bench_md_num(f, c->med, 6), bench_md_num(f, c->min, 6), bench_md_num(f, c->max, 6);
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
}

/* ---- the RSS child ---- */

/* The C loop needs a model to describe the node; it is freed before anything is measured. */
static int rss_prepare(bench_run *r, int id) {
    bench *b = (bench *)r;
    b->data_bytes = r->bc.in[0].nbytes;
    if (id != C_LOOP && id != C_LOOP_INPL) return 0;
    contender d;
    memset(&d, 0, sizeof d);
    if (setup(r, C_COPY1, &d, 1)) return 1;
    cloop_prepare(&b->loop, d.m, &r->bc);
    bench_teardown(r, C_COPY1, &d);
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

static int option(bench_run *r, const char *a, const char *v, int *bad, int *takes) {
    (void)takes;
    if (!strcmp(a, "--max-calls")) *bad = bench_parse_int(v, &r->max_calls) || r->max_calls < 1;
    else if (!strcmp(a, "--burst-ms")) *bad = !v || (r->burst_ms = strtod(v, NULL)) <= 0;
    else return 0;
    return 1;
}

static const bench_spec k_spec = {
    .loops = "C loop, memcpy",
    .all_ok = "all onnx-scatter and C loop outputs bit-identical",
    .count = C_COUNT,
    .kinds = k_kinds,
    .ort1 = C_ORT1,
    .ort2 = C_ORT2,
    .seed = 8,
    .ort_pause_ns = 2000000,
    .check_after_round = 0,
    .rss_file = 1,
    .usage = usage,
    .option = option,
    .load = load,
    .begin = begin,
    .setup = setup,
    .teardown = teardown,
    .run = run_once,
    .check = check,
    .after_rounds = after_rounds,
    .print = print_case,
    .markdown = write_markdown,
    .rss_prepare = rss_prepare,
};

int main(int argc, char **argv) {
    static bench b;
    b.r.sp = &k_spec;
    b.r.burst_ms = 1.0, b.r.max_calls = 1000;
    bench_opts_init(&b.r.o, 3, 15, 1000, 12.0);
    return bench_main(argc, argv, &b.r);
}
