/* runner.c: the runner both harnesses share (harness.h): the command line, the case loop, the
 * timed rounds, the onnxruntime sessions, the peak-RSS children and the report's frame.
 *
 * Per case (run_case): the case is loaded once, the harness sets its contenders up (hook
 * begin), the onnxruntime peer loads the case, then rounds run. A round calls every active
 * contender in a new shuffled order (round 0 in contender order), each for a burst of calls in a
 * row (r->burst_ms > 0, sized after each warm-up round; else one call), every call timed on its
 * own by the harness's run hook; onnxruntime's times come from its own profiler when the case
 * ends (peer_finish). The first --warmup rounds are not recorded; the last of them sizes the
 * rest to about --seconds (unless --rounds). Outputs are checked in the first and the last
 * round, after each contender's burst or after the whole round (spec check_after_round). Then
 * medians, the harness's after_rounds hook, teardown, peak RSS of each contender in a child
 * process (this program with --rss-child, or the node script's rss mode), the console table. */
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

/* ---- options ---- */

void bench_opts_init(bench_opts *o, int64_t warmup, int64_t min_rounds, int64_t max_rounds,
                     double seconds) {
    memset(o, 0, sizeof *o);
    o->warmup = warmup;
    o->min_rounds = min_rounds;
    o->max_rounds = max_rounds;
    o->seconds = seconds;
    o->rss = 1;
    o->node = getenv("OSC_BENCH_NODE") ? getenv("OSC_BENCH_NODE") : "node";
}

int bench_parse_int(const char *s, int64_t *v) {
    char *end;
    long long x = strtoll(s ? s : "", &end, 10);
    if (!s || !*s || *end || x < 0) return 1;
    *v = x;
    return 0;
}

/* When a (with v the next argument, or NULL) is one of the shared options: sets it, *takes to
 * the arguments it uses after a (0 or 1) and *bad when v is missing or invalid; returns 1.
 * Otherwise returns 0 and changes nothing. */
static int bench_opt(bench_opts *o, const char *a, const char *v, int *bad, int *takes) {
    int t = 1;
    if (!strcmp(a, "--rounds")) *bad = bench_parse_int(v, &o->rounds);
    else if (!strcmp(a, "--warmup")) *bad = bench_parse_int(v, &o->warmup) || o->warmup < 1;
    else if (!strcmp(a, "--min-rounds"))
        *bad = bench_parse_int(v, &o->min_rounds) || o->min_rounds < 1;
    else if (!strcmp(a, "--max-rounds"))
        *bad = bench_parse_int(v, &o->max_rounds) || o->max_rounds < 1;
    else if (!strcmp(a, "--seconds")) *bad = !v || !((o->seconds = strtod(v, NULL)) > 0);
    else if (!strcmp(a, "--ort")) *bad = !(o->ort_script = v);
    else if (!strcmp(a, "--ort-off")) *bad = !(o->ort_off = v);
    else if (!strcmp(a, "--markdown")) *bad = !(o->markdown = v);
    else if (!strcmp(a, "--no-rss")) o->rss = 0, t = 0;
    else return 0;
    *takes = t;
    return 1;
}

/* After parsing: max_rounds at least min_rounds; r->self gets this program's path; prints
 * "onnx-scatter VERSION; LOOPS" and onnxruntime's version, or why it is not available (kept in
 * r->ort_reason for the report). Returns 1 when the peer runs. */
static int bench_start(bench_run *r, const char *argv0) {
    bench_opts *o = &r->o;
    if (o->max_rounds < o->min_rounds) o->max_rounds = o->min_rounds;
    ssize_t sl = readlink("/proc/self/exe", r->self, sizeof r->self - 1);
    if (sl <= 0) snprintf(r->self, sizeof r->self, "%s", argv0);
    else r->self[sl] = '\0';
    printf("onnx-scatter %s; %s", osc_version(), r->sp->loops);
    int ok = 0;
    if (o->ort_script) {
        ok = peer_start(&r->peer, o->node, o->ort_script, r->ort_reason, sizeof r->ort_reason) == 0;
        if (ok) printf("; onnxruntime %s\n", r->peer.version);
    } else {
        snprintf(r->ort_reason, sizeof r->ort_reason, "%s",
                 o->ort_off ? o->ort_off : "not requested (--ort)");
    }
    if (!ok) printf("\nonnxruntime: not available (%s)\n", r->ort_reason);
    return ok;
}

/* ---- contenders ---- */

static int is_ort(const bench_run *r, int id) { return id == r->sp->ort1 || id == r->sp->ort2; }

void bench_report(const bench_run *r, int id, const char *what) {
    fprintf(stderr, "bench: %s: %s: %s\n", r->bc.name, r->sp->kinds[id].name, what);
}

int bench_osc_setup(const bench_run *r, const osc_options *opts, bench_contender *c) {
    char msg[OSC_MESSAGE_SIZE], path[1200];
    snprintf(path, sizeof path, "%s/model.onnx", r->bc.dir);
    if (osc_model_load_file(path, opts, &c->m, msg, sizeof msg) != OSC_OK) {
        snprintf(c->note, sizeof c->note, "load failed: %.230s", msg);
        return 1;
    }
    if (osc_session_create(c->m, &c->s) != OSC_OK) {
        snprintf(c->note, sizeof c->note, "cannot create a session");
        return 1;
    }
    for (size_t k = 0; k < r->bc.n_in; k++)
        if (osc_session_set_input_at(c->s, k, &r->bc.in[k]) != OSC_OK) {
            snprintf(c->note, sizeof c->note, "input %zu: %s", k, osc_session_error(c->s));
            return 1;
        }
    return 0;
}

void bench_setup(bench_run *r, bench_contender *all, int from, int to) {
    for (int id = from; id < to; id++) {
        if (is_ort(r, id)) continue;
        if (r->sp->setup(r, id, &all[id], 0) == 0) {
            all[id].active = 1;
            continue;
        }
        bench_report(r, id, all[id].note);
        r->failed = 1; /* every contender but onnxruntime is required */
        bench_teardown(r, id, &all[id]);
    }
}

void bench_teardown(bench_run *r, int id, bench_contender *c) {
    if (r->sp->teardown) r->sp->teardown(r, id);
    osc_session_free(c->s);
    osc_model_free(c->m);
    c->s = NULL, c->m = NULL;
}

/* ---- onnxruntime ---- */

/* The peer loads the case (its contenders become active), or they get a note why not. */
static void ort_case(bench_run *r, bench_contender *all) {
    const int ids[2] = {r->sp->ort1, r->sp->ort2};
    if (r->peer_ok && r->peer.dead) {
        r->peer_ok = 0;
        snprintf(r->ort_reason, sizeof r->ort_reason, "the onnxruntime process exited");
    }
    if (r->peer_ok) {
        char cmd[1200];
        const char *rest;
        snprintf(cmd, sizeof cmd, "case %s", r->bc.dir);
        if (peer_cmd(&r->peer, cmd, &r->line, &r->cap, &rest)) {
            for (int t = 0; t < 2; t++)
                snprintf(all[ids[t]].note, sizeof all[ids[t]].note, "case not run: %.200s", rest);
            printf("onnxruntime: %s: not run (%s)\n", r->bc.name, rest);
        } else {
            all[ids[0]].active = all[ids[1]].active = 1;
        }
    } else {
        for (int t = 0; t < 2; t++)
            snprintf(all[ids[t]].note, sizeof all[ids[t]].note, "not available");
    }
}

/* A burst of onnxruntime contender id: c->calls runs in a row; *ms is the peer's JavaScript wall
 * time per run, which only sizes the bursts (the times come from its profiler in ort_finish). */
static int ort_run(bench_run *r, int id, bench_contender *c, double *ms) {
    char cmd[64];
    const char *rest;
    snprintf(cmd, sizeof cmd, "run %d %lld", r->sp->kinds[id].threads, (long long)c->calls);
    if (peer_cmd(&r->peer, cmd, &r->line, &r->cap, &rest)) {
        snprintf(c->note, sizeof c->note, "run failed: %.200s", rest);
        return 1;
    }
    *ms = strtod(rest, NULL);
    return 0;
}

int bench_ort_check(bench_run *r, int id, bench_contender *c, const char *tol) {
    char cmd[96];
    const char *rest;
    snprintf(cmd, sizeof cmd, "check %d%s", r->sp->kinds[id].threads, tol);
    int bad = peer_cmd(&r->peer, cmd, &r->line, &r->cap, &rest);
    snprintf(c->check, sizeof c->check, "%s%.200s", bad ? "check failed: " : "", rest);
    bad |= strncmp(rest, "bit-identical", 13) != 0 && strncmp(rest, "within", 6) != 0;
    if (bad) bench_report(r, id, c->check);
    c->mismatches += bad;
    return 0;
}

/* Parses the "times T N ms..." lines that answer "finish W1 W2" (runs to drop per session) into
 * the onnxruntime contenders' ms arrays. */
static void ort_finish(bench_run *r, bench_contender *all) {
    const char *rest;
    bench_contender *o[2] = {&all[r->sp->ort1], &all[r->sp->ort2]};
    const int64_t warm[2] = {o[0]->warm_runs, o[1]->warm_runs};
    double *times[2];
    size_t n[2];
    int bad = peer_finish(&r->peer, warm, times, n, &r->line, &r->cap, &rest);
    for (int t = 0; t < 2; t++) {
        bench_contender *c = o[t];
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

/* ---- rounds ---- */

static int check_now(bench_run *r, bench_contender *all, int id, int64_t round, int64_t total) {
    return all[id].active && (round == 0 || round == total - 1) ? r->sp->check(r, id, all) : 0;
}

/* Warm-up rounds, then --rounds, or as many timed rounds as --seconds allows within the bounds.
 * With bursts, each round calls every contender for a burst of `calls` runs in a row, sized
 * after each warm-up round so that a burst lasts about burst_ms: a call of a few microseconds is
 * then timed warm, as a program calling it in a loop sees it, not right after another process
 * evicted its cache lines (only the first call of a burst is). Sets res->warmup, res->rounds. */
static void rounds(bench_run *r, bench_result *res) {
    const bench_spec *sp = r->sp;
    const bench_opts *o = &r->o;
    bench_contender *all = res->c;
    int64_t total = o->warmup + (o->rounds > 0 ? o->rounds : o->min_rounds);
    uint64_t seed = sp->seed;
    int order[BENCH_MAX_CONTENDERS];
    for (int id = 0; id < sp->count; id++) all[id].calls = 1;
    for (int64_t round = 0; round < total; round++) {
        const int timed = round >= o->warmup;
        const double r0 = bench_now_ms(CLOCK_MONOTONIC);
        bench_shuffle(order, sp->count, (int)round, &seed);
        for (int j = 0; j < sp->count; j++) {
            const int id = order[j], ort = is_ort(r, id);
            bench_contender *c = &all[id];
            if (!c->active) continue;
            if (timed && !ort && !c->ms &&
                !(c->ms = calloc((size_t)((total - o->warmup) * c->calls), sizeof *c->ms))) {
                snprintf(c->note, sizeof c->note, "out of memory");
                c->active = 0;
                r->failed = 1;
                continue;
            }
            const int64_t n = ort ? 1 : c->calls;
            for (int64_t i = 0; i < n && c->active; i++) {
                double ms = 0, cpu = 0, w0 = bench_now_ms(CLOCK_MONOTONIC);
                if (ort ? ort_run(r, id, c, &ms) : sp->run(r, id, c, 0, &ms, &cpu)) {
                    bench_report(r, id, c->note);
                    c->active = 0;
                    r->failed |= !ort;
                    break;
                }
                if (ort) {
                    c->est_ms = ms > 0 ? ms
                                       : (bench_now_ms(CLOCK_MONOTONIC) - w0) / (double)c->calls;
                    if (!timed) c->warm_runs += c->calls;
                    if (sp->ort_pause_ns > 0) { /* let node finish freeing its output copies */
                        struct timespec pause = {0, sp->ort_pause_ns};
                        nanosleep(&pause, NULL);
                    }
                    continue;
                }
                c->est_ms = ms;
                if (timed) {
                    c->ms[c->n_ms++] = ms;
                    c->cpu_ms += cpu, c->wall_ms += ms;
                }
            }
            if (!sp->check_after_round) r->failed |= check_now(r, all, id, round, total);
        }
        if (sp->check_after_round)
            for (int id = 0; id < sp->count; id++) r->failed |= check_now(r, all, id, round, total);
        const double round_ms = bench_now_ms(CLOCK_MONOTONIC) - r0;
        if (round < o->warmup - 1) {
            /* bursts from the next round on */
            for (int id = 0; r->burst_ms > 0 && id < sp->count; id++) {
                double k = r->burst_ms / (all[id].est_ms > 1e-6 ? all[id].est_ms : 1e-6);
                all[id].calls = k < 1 ? 1 : k > (double)r->max_calls ? r->max_calls : (int64_t)k;
            }
        } else if (round == o->warmup - 1 && o->rounds <= 0) { /* the last warm-up round */
            double want = o->seconds * 1e3 / (round_ms > 0 ? round_ms : 1e-3);
            int64_t n = want > (double)o->max_rounds ? o->max_rounds : (int64_t)want;
            total = o->warmup + (n < o->min_rounds ? o->min_rounds : n);
        }
    }
    res->warmup = o->warmup, res->rounds = total - o->warmup;
}

/* ---- peak RSS ---- */

/* Measures peak RSS of every active contender in a child process each. */
static void rss_pass(bench_run *r, bench_result *res) {
    for (int id = 0; id < r->sp->count; id++) {
        bench_contender *c = &res->c[id];
        if (!c->active) continue;
        char line[512], t[8];
        snprintf(t, sizeof t, "%d", r->sp->kinds[id].threads);
        char *argv_c[] = {r->self, "--rss-child", (char *)r->sp->kinds[id].id, r->bc.dir, NULL};
        char *argv_o[] = {(char *)r->o.node, (char *)r->o.ort_script, "rss", r->bc.dir, t, NULL};
        char *argv_h[8] = {NULL};
        char **argv = is_ort(r, id) ? argv_o
                      : r->sp->rss_argv && r->sp->rss_argv(r, id, argv_h) ? argv_h : argv_c;
        c->rss_file_kb = -1; /* (the onnxruntime child does not report it) */
        if (child_line(argv, "rss ", line, sizeof line) ||
            sscanf(line, "rss %ld %ld %ld", &c->rss_base_kb, &c->rss_peak_kb,
                   &c->rss_file_kb) < 2) {
            char what[600];
            snprintf(what, sizeof what, "peak RSS not measured: %s", line);
            bench_report(r, id, what);
            c->rss_base_kb = c->rss_peak_kb = c->rss_file_kb = -1;
        }
    }
}

/* The child: loads the case, resets the kernel's peak-RSS mark (writing 5 to
 * /proc/self/clear_refs), notes VmRSS ("base": the inputs and the process itself), sets the
 * contender up, runs it 3 times and prints "rss BASE PEAK[ FILE]" (PEAK: VmHWM). */
static int rss_child(bench_run *r, const char *which, const char *dir) {
    const bench_spec *sp = r->sp;
    int id = -1;
    for (int i = 0; i < sp->count; i++)
        if (!strcmp(which, sp->kinds[i].id)) id = i;
    if (id < 0 || is_ort(r, id)) {
        fprintf(stderr, "bench: --rss-child: unknown contender '%s'\n", which);
        return 2;
    }
    char msg[1024];
    if (case_load(&r->bc, dir, 0, msg, sizeof msg)) {
        fprintf(stderr, "bench: %s\n", msg);
        return 1;
    }
    bench_contender c;
    memset(&c, 0, sizeof c);
    /* the .pb buffers the loader freed stay in the C library's heap; give them back so that
     * the base is the process and the inputs, not the reading of the files */
    malloc_trim(0);
    if (sp->rss_prepare && sp->rss_prepare(r, id)) return 1;
    if (rss_reset_peak()) {
        fprintf(stderr, "bench: cannot reset the peak RSS (/proc/self/clear_refs)\n");
        return 1;
    }
    const long base = rss_status_kb("VmRSS"), file = sp->rss_file ? rss_status_kb("RssFile") : -1;
    if (sp->setup(r, id, &c, 1)) {
        fprintf(stderr, "bench: %s\n", c.note);
        return 1;
    }
    for (int i = 0; i < 3; i++) {
        double ms, cpu;
        if (sp->run(r, id, &c, 1, &ms, &cpu)) {
            fprintf(stderr, "bench: %s\n", c.note);
            return 1;
        }
    }
    /* the file-backed pages mapped at base (the program's and the C library's code) stay
     * mapped: the peak less them bounds the memory the run itself holds from above */
    if (sp->rss_file) printf("rss %ld %ld %ld\n", base, rss_status_kb("VmHWM"), file);
    else printf("rss %ld %ld\n", base, rss_status_kb("VmHWM"));
    bench_teardown(r, id, &c);
    case_free(&r->bc);
    return 0;
}

/* ---- one case ---- */

static int run_case(bench_run *r, const char *dir, bench_result *res) {
    const bench_spec *sp = r->sp;
    char msg[1024];
    memset(res, 0, sizeof *res);
    if (case_load(&r->bc, dir, 1, msg, sizeof msg)) {
        fprintf(stderr, "bench: %s\n", msg);
        return 1;
    }
    if (sp->load && sp->load(r, res, msg, sizeof msg)) {
        fprintf(stderr, "bench: %s\n", msg);
        case_free(&r->bc);
        return 1;
    }
    snprintf(res->name, sizeof res->name, "%s", r->bc.name);
    bench_contender *all = res->c;
    for (int id = 0; id < sp->count; id++)
        all[id].rss_base_kb = all[id].rss_peak_kb = all[id].rss_file_kb = -1;
    printf("== %s\n", r->bc.name);
    fflush(stdout);

    sp->begin(r, res);
    ort_case(r, all);
    rounds(r, res);
    if (all[sp->ort1].active || all[sp->ort2].active) ort_finish(r, all);
    for (int id = 0; id < sp->count; id++) {
        bench_contender *c = &all[id];
        bench_summary(c->ms, c->n_ms, &c->med, &c->min, &c->max);
    }
    if (sp->after_rounds) sp->after_rounds(r, res);
    for (int id = 0; id < sp->count; id++) bench_teardown(r, id, &all[id]);
    if (r->o.rss) rss_pass(r, res);
    case_free(&r->bc);
    sp->print(r, res);
    return 0;
}

/* ---- Markdown ---- */

void bench_md_num(FILE *f, double v, int tiny_digits) {
    if (isnan(v)) fputs(" – |", f);
    else if (v >= 100) fprintf(f, " %.1f |", v);
    else if (v >= 1) fprintf(f, " %.2f |", v);
    else if (v >= 0.01) fprintf(f, " %.4f |", v);
    else fprintf(f, " %.*f |", tiny_digits, v);
}

void bench_md_ort_note(FILE *f, const bench_run *r) {
    if (!r->peer_ok && r->ort_reason[0])
        fprintf(f, "\nonnxruntime: not available (%s)\n", r->ort_reason);
}

static void write_markdown(const bench_run *r, const bench_result *res, size_t n) {
    FILE *f = fopen(r->o.markdown, "w");
    if (!f) {
        fprintf(stderr, "bench: cannot write %s\n", r->o.markdown);
        return;
    }
    r->sp->markdown(f, r, res, n);
    fclose(f);
}

/* ---- main ---- */

int bench_main(int argc, char **argv, bench_run *r) {
    const bench_spec *sp = r->sp;
    if (argc == 4 && !strcmp(argv[1], "--rss-child")) return rss_child(r, argv[2], argv[3]);
    const char **dirs = calloc((size_t)argc, sizeof *dirs);
    size_t n_dirs = 0;
    for (int i = 1; dirs && i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0, takes = 1;
        if (bench_opt(&r->o, a, v, &bad, &takes)) {
        } else if (sp->option && sp->option(r, a, v, &bad, &takes)) {
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            sp->usage(stdout);
            free(dirs);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "bench: unknown option %s\n", a);
            sp->usage(stderr);
            free(dirs);
            return 2;
        } else {
            dirs[n_dirs++] = a, takes = 0;
        }
        if (bad) {
            fprintf(stderr, "bench: %s needs a valid value\n", a);
            free(dirs);
            return 2;
        }
        i += takes;
    }
    if (!n_dirs) {
        sp->usage(stderr);
        free(dirs);
        return 2;
    }
    r->peer_ok = bench_start(r, argv[0]);

    bench_result *res = calloc(n_dirs, sizeof *res);
    size_t n_res = 0;
    for (size_t i = 0; res && i < n_dirs; i++) {
        if (run_case(r, dirs[i], &res[n_res])) r->failed = 1;
        else n_res++;
    }
    if (r->o.markdown && res) write_markdown(r, res, n_res);
    for (size_t i = 0; res && i < n_res; i++)
        for (int id = 0; id < sp->count; id++) free(res[i].c[id].ms);
    if (r->peer_ok) peer_stop(&r->peer);
    free(r->line);
    free(res);
    free(dirs);
    printf("%s\n",
           r->failed ? "FAILED: a run failed or an output differs (see above)" : sp->all_ok);
    return r->failed ? 1 : 0;
}
