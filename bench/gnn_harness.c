/* gnn_harness.c: times issue 15's GNN layers: onnx-scatter against onnxruntime and a C layer. */
/* Usage: osc-bench-gnn [options] CASE_DIR...   (see usage() below)
 *
 * A program of its own rather than a mode of harness.c: harness.c times single scatter nodes,
 * whose output has data's shape, which run in place, take microseconds (timed in bursts) and
 * match a coordinate loop bit for bit. A GNN case is a whole exported layer with weights, runs
 * for tens of milliseconds to seconds, has no in-place mode, and its reference output comes from
 * torch, which sums floats in another order. Both programs share procs.c (cases, child processes,
 * the onnxruntime peer, peak RSS) and clock.c.
 *
 * A case is a folder written by tests/models/gen_models.py (--bench): model.onnx,
 * test_data_set_0/ (x, edge_index; output_0.pb from torch eager) and layer/ (the parameters the
 * C layer reads, and the bytes of the model's constants). Per case the inputs are loaded once and
 * every contender is set up once; then rounds run, each calling every contender once in a new
 * shuffled order (round 0 in contender order). The first --warmup rounds are not recorded. Timed:
 * osc_session_run (inputs bound once), the C layer's run, and for onnxruntime the "model_run"
 * duration its own profiler records.
 *
 * Outputs are checked in the first and the last round: onnx-scatter 1t and the C layer against
 * output_0.pb within |got - want| <= atol + rtol |want|; onnx-scatter 2t, unfused 1t and
 * recompute 1t (opts.fuse_recompute) against onnx-scatter 1t byte for byte (the runtime
 * promises the same bits whatever the thread count, and the fusion pass the same bits as the
 * graph it rewrites); onnxruntime against output_0.pb
 * within the tolerance. A failed check prints MISMATCH and makes the exit status 1 (except
 * onnxruntime's, which are reported only).
 *
 * Peak RSS: each contender runs 3 times in a child process of its own (this program with
 * --rss-child, or the node script's rss mode) that loads the inputs, resets the kernel's peak-RSS
 * mark, sets the contender up (loads the model or the parameters), runs it and reads VmHWM. */
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gnn_loops.h"
#include "harness.h"

enum { G_OSC1, G_OSC2, G_UNF1, G_REC1, G_LOOP, G_ORT1, G_ORT2, G_COUNT };

typedef struct kind {
    const char *name, *id;  /* id: the --rss-child argument */
    int threads;
    uint8_t no_fusion, fuse_recompute;
} kind;

static const kind k_kinds[G_COUNT] = {
    [G_OSC1] = {.name = "onnx-scatter 1t", .id = "osc1", .threads = 1},
    [G_OSC2] = {.name = "onnx-scatter 2t", .id = "osc2", .threads = 2},
    [G_UNF1] = {.name = "onnx-scatter unfused 1t", .id = "unfused1", .threads = 1, .no_fusion = 1},
    [G_REC1] = {.name = "onnx-scatter recompute 1t", .id = "recompute1", .threads = 1,
                .fuse_recompute = 1},
    [G_LOOP] = {.name = "C loop", .id = "loop", .threads = 1},
    [G_ORT1] = {.name = "onnxruntime 1t", .id = "ort1", .threads = 1},
    [G_ORT2] = {.name = "onnxruntime 2t", .id = "ort2", .threads = 2},
};

static int is_osc(int id) { return id <= G_REC1; }
static int is_ort(int id) { return id == G_ORT1 || id == G_ORT2; }
/* the onnxruntime contender with the same thread count */
static int ort_peer_of(int id) { return k_kinds[id].threads == 2 ? G_ORT2 : G_ORT1; }

typedef struct contender {
    int active;
    char note[256];          /* why inactive, or a remark */
    osc_model *m;
    osc_session *s;
    gnn_loop *loop;
    double *ms;              /* timed runs */
    size_t n_ms;
    int64_t warm_runs;       /* onnxruntime: runs in warm-up rounds (dropped from its profile) */
    double cpu_ms, wall_ms;  /* sums over the timed runs */
    int mismatches;
    char check[256];         /* result of the last check */
    long rss_base_kb, rss_peak_kb; /* -1: not measured */
    double med, min, max;
} contender;

typedef struct options {
    bench_opts c;
    double rtol, atol;
} options;

/* One case's results, kept for the Markdown report. */
typedef struct result {
    char name[256], what[512];
    int64_t rounds, warmup;
    double model_mib;        /* inputs + the model's constants + outputs */
    contender c[G_COUNT];
} result;

typedef struct bench {
    const options *o;
    bench_case bc;
    ort_peer peer;
    int peer_ok;
    char ort_reason[512];    /* why onnxruntime is not available (suite-wide) */
    char *line;
    size_t cap;
    int failed;
} bench;

/* ---- contenders ---- */

static int setup(bench *b, int id, contender *c) {
    char msg[OSC_MESSAGE_SIZE];
    c->rss_base_kb = c->rss_peak_kb = -1;
    if (is_osc(id)) {
        osc_options opts;
        osc_options_init(&opts);
        opts.threads = k_kinds[id].threads;
        opts.no_fusion = k_kinds[id].no_fusion;
        opts.fuse_recompute = k_kinds[id].fuse_recompute;
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
        if (k_kinds[id].threads == 2)
            snprintf(c->note, sizeof c->note, "%d threads", (int)osc_session_threads(c->s));
    } else if (id == G_LOOP) {
        if (b->bc.n_in != 2) {
            snprintf(c->note, sizeof c->note, "the C layers take two inputs (x, edge_index)");
            return 1;
        }
        if (!(c->loop = gnn_loop_load(b->bc.dir, &b->bc.in[0], &b->bc.in[1], msg, sizeof msg))) {
            snprintf(c->note, sizeof c->note, "%.250s", msg);
            return 1;
        }
    }
    c->active = 1;
    return 0;
}

static void teardown(contender *c) {
    osc_session_free(c->s);
    osc_model_free(c->m);
    gnn_loop_free(c->loop);
    c->s = NULL, c->m = NULL, c->loop = NULL;
}

/* One run; *ms is the timed part (onnxruntime's comes from its profiler at the end). */
static int run_once(bench *b, int id, contender *c, double *ms, double *cpu) {
    if (is_ort(id)) {
        char cmd[64];
        const char *rest;
        snprintf(cmd, sizeof cmd, "run %d 1", k_kinds[id].threads);
        if (peer_cmd(&b->peer, cmd, &b->line, &b->cap, &rest)) {
            snprintf(c->note, sizeof c->note, "run failed: %.200s", rest);
            return 1;
        }
        *ms = *cpu = 0;
        return 0;
    }
    double c0 = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = bench_now_ms(CLOCK_MONOTONIC);
    osc_status st = OSC_OK;
    if (c->loop) gnn_loop_run(c->loop);
    else st = osc_session_run(c->s);
    *ms = bench_now_ms(CLOCK_MONOTONIC) - t0;
    *cpu = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (st == OSC_OK) return 0;
    snprintf(c->note, sizeof c->note, "run failed: %.230s", osc_session_error(c->s));
    return 1;
}

static const osc_tensor *output_of(contender *c, osc_tensor *buf) {
    if (c->loop) return gnn_loop_output(c->loop);
    return c->s && osc_session_output(c->s, 0, buf) == OSC_OK ? buf : NULL;
}

/* ---- output checks ---- */

static int same_shape(const osc_tensor *a, const osc_tensor *b) {
    if (a->dtype != b->dtype || a->rank != b->rank || a->nbytes != b->nbytes) return 0;
    for (int32_t i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i]) return 0;
    return 1;
}

/* got against output_0.pb within the tolerance; 1 on a mismatch (text in out). */
static int check_close(const bench *b, const osc_tensor *got, char *out, size_t size) {
    const osc_tensor *want = &b->bc.expected;
    const double rtol = b->o->rtol, atol = b->o->atol;
    if (!same_shape(got, want) || got->dtype != OSC_FLOAT) {
        snprintf(out, size, "MISMATCH: dtype or shape differs from output_0.pb");
        return 1;
    }
    if (!memcmp(got->data, want->data, got->nbytes)) {
        snprintf(out, size, "bit-identical to output_0.pb");
        return 0;
    }
    const float *g = got->data, *w = want->data;
    const size_t n = got->nbytes / sizeof *g;
    size_t beyond = 0, first = 0;
    double max_abs = 0;
    for (size_t i = 0; i < n; i++) {
        const double d = fabs((double)g[i] - (double)w[i]);
        if (d > max_abs || (isnan(d) && !(isnan(g[i]) && isnan(w[i])))) max_abs = d;
        if (!(d <= atol + rtol * fabs((double)w[i])) && !(isnan(g[i]) && isnan(w[i])))
            if (!beyond++) first = i;
    }
    if (!beyond) {
        snprintf(out, size, "within tolerance of output_0.pb (max abs diff %.3g)", max_abs);
        return 0;
    }
    snprintf(out, size, "MISMATCH vs output_0.pb: %zu of %zu elements beyond rtol %g atol %g, "
             "first at %zu (got %.9g, want %.9g); max abs diff %.3g", beyond, n, rtol, atol,
             first, (double)g[first], (double)w[first], max_abs);
    return 1;
}

/* Checks contender id's last output (see the top of the file); returns 1 on a mismatch. */
static int check(bench *b, int id, contender *all) {
    contender *c = &all[id];
    int bad;
    if (is_ort(id)) {
        char cmd[96];
        const char *rest;
        snprintf(cmd, sizeof cmd, "check %d %g %g", k_kinds[id].threads, b->o->rtol, b->o->atol);
        bad = peer_cmd(&b->peer, cmd, &b->line, &b->cap, &rest);
        snprintf(c->check, sizeof c->check, "%s%.200s", bad ? "check failed: " : "", rest);
        bad |= strncmp(rest, "bit-identical", 13) != 0 && strncmp(rest, "within", 6) != 0;
        if (bad) fprintf(stderr, "bench: %s: %s: %s\n", b->bc.name, k_kinds[id].name, c->check);
        c->mismatches += bad;
        return 0; /* onnxruntime's results are reported, they do not fail the suite */
    }
    osc_tensor tg, tr;
    const osc_tensor *got = output_of(c, &tg);
    if (!got) {
        snprintf(c->check, sizeof c->check, "MISMATCH: no output");
        bad = 1;
    } else if (id == G_OSC1 || id == G_LOOP || !all[G_OSC1].active) {
        bad = check_close(b, got, c->check, sizeof c->check);
    } else { /* 2t, unfused and recompute: the same bits as 1t */
        const osc_tensor *ref = output_of(&all[G_OSC1], &tr);
        bad = !ref || !same_shape(got, ref) || memcmp(got->data, ref->data, got->nbytes) != 0;
        snprintf(c->check, sizeof c->check, "%s onnx-scatter 1t",
                 bad ? "MISMATCH: not bit-identical to" : "bit-identical to");
    }
    if (bad) fprintf(stderr, "bench: %s: %s: %s\n", b->bc.name, k_kinds[id].name, c->check);
    c->mismatches += bad;
    return bad;
}

/* ---- one case ---- */

static void ort_finish(bench *b, contender *all) {
    const char *rest;
    const int64_t warm[2] = {all[G_ORT1].warm_runs, all[G_ORT2].warm_runs};
    double *times[2];
    size_t n[2];
    int bad = peer_finish(&b->peer, warm, times, n, &b->line, &b->cap, &rest);
    for (int t = 0; t < 2; t++) {
        contender *c = &all[t ? G_ORT2 : G_ORT1];
        if (bad && c->active) snprintf(c->note, sizeof c->note, "no timings: %.200s", rest);
        if (bad) c->active = 0;
        if (c->active && times[t]) {
            free(c->ms);
            c->ms = times[t], c->n_ms = n[t];
        } else {
            free(times[t]);
        }
    }
}

/* "layer; x float[n,c], edge_index int64[2,e] -> float[n,c']; N graph nodes (F fused)" */
static void describe(const bench *b, const contender *all, const char *layer, char *out,
                     size_t size) {
    size_t p = (size_t)snprintf(out, size, "%s;", layer);
    const bench_case *bc = &b->bc;
    for (size_t k = 0; k <= bc->n_in && p < size; k++) {
        const osc_tensor *t = k < bc->n_in ? &bc->in[k] : &bc->expected;
        osc_value_desc d;
        const char *name = k == bc->n_in ? "->" :
                           all[G_OSC1].m && osc_model_input(all[G_OSC1].m, k, &d) == OSC_OK ?
                           d.name : "?";
        p += (size_t)snprintf(out + p, size - p, "%s %s %s[", k && k < bc->n_in ? "," : "", name,
                              osc_dtype_name(t->dtype));
        for (int32_t i = 0; i < t->rank && p < size; i++)
            p += (size_t)snprintf(out + p, size - p, i ? ",%lld" : "%lld", (long long)t->dims[i]);
        if (p < size) p += (size_t)snprintf(out + p, size - p, "]");
    }
    if (p < size && all[G_UNF1].m && all[G_OSC1].m)
        snprintf(out + p, size - p, "; %zu graph nodes unfused, %zu fused",
                 osc_model_node_count(all[G_UNF1].m), osc_model_node_count(all[G_OSC1].m));
}

/* Measures peak RSS of every active contender in a child process each. */
static void rss_pass(bench *b, result *r, const char *self) {
    for (int id = 0; id < G_COUNT; id++) {
        contender *c = &r->c[id];
        if (!c->active) continue;
        char line[512], t[8];
        snprintf(t, sizeof t, "%d", k_kinds[id].threads);
        char *argv_c[] = {(char *)self, "--rss-child", (char *)k_kinds[id].id, b->bc.dir, NULL};
        char *argv_o[] = {(char *)b->o->c.node, (char *)b->o->c.ort_script, "rss", b->bc.dir, t, NULL};
        if (child_line(is_ort(id) ? argv_o : argv_c, "rss ", line, sizeof line) ||
            sscanf(line, "rss %ld %ld", &c->rss_base_kb, &c->rss_peak_kb) != 2) {
            fprintf(stderr, "bench: %s: %s: peak RSS not measured: %s\n", b->bc.name,
                    k_kinds[id].name, line);
            c->rss_base_kb = c->rss_peak_kb = -1;
        }
    }
}

/* " %7.2f" of a / b, or a dash when either is missing */
static void print_ratio(double a, double b) {
    if (isnan(a) || isnan(b) || a < 0 || b <= 0) printf(" %7s", "-");
    else printf(" %7.2f", a / b);
}

static double med_of(const contender *c) { return c->n_ms ? c->med : NAN; }
static double peak_mib(const contender *c) {
    return c->rss_peak_kb >= 0 ? (double)c->rss_peak_kb / 1024 : NAN;
}

static void print_case(const result *r) {
    const contender *all = r->c;
    printf("%s\n%lld timed rounds after %lld warm-up; model bytes (inputs, constants, outputs) "
           "%.1f MiB\n", r->what, (long long)r->rounds, (long long)r->warmup, r->model_mib);
    printf("  %-24s %5s %10s %10s %10s %7s %7s %7s %9s %7s  %s\n", "contender", "runs",
           "median ms", "min ms", "max ms", "xORT", "xCloop", "cpu", "peak MiB", "xORTrss",
           "output");
    for (int id = 0; id < G_COUNT; id++) {
        const contender *c = &all[id];
        if (!c->n_ms) {
            printf("  %-24s %s\n", k_kinds[id].name, c->note[0] ? c->note : "not run");
            continue;
        }
        const contender *o = &all[is_ort(id) ? G_ORT1 : ort_peer_of(id)];
        printf("  %-24s %5zu %10.4g %10.4g %10.4g", k_kinds[id].name, c->n_ms, c->med, c->min,
               c->max);
        print_ratio(id == G_ORT1 ? NAN : c->med, med_of(o));
        print_ratio(is_osc(id) ? c->med : NAN, med_of(&all[G_LOOP]));
        print_ratio(c->wall_ms > 0 ? c->cpu_ms : NAN, c->wall_ms);
        if (c->rss_peak_kb >= 0) printf(" %9.1f", peak_mib(c));
        else printf(" %9s", "-");
        print_ratio(is_ort(id) ? NAN : peak_mib(c), peak_mib(o));
        printf("  %s%s%s\n", c->check, c->note[0] ? "; " : "", c->note);
    }
    fflush(stdout);
}

static int run_case(bench *b, const char *dir, result *r, const char *self) {
    const options *o = b->o;
    char msg[1024], layer[64];
    uint64_t const_bytes = 0;
    memset(r, 0, sizeof *r);
    if (case_load(&b->bc, dir, 1, msg, sizeof msg) ||
        gnn_layer_info(dir, layer, sizeof layer, &const_bytes, msg, sizeof msg)) {
        fprintf(stderr, "bench: %s\n", msg);
        case_free(&b->bc);
        return 1;
    }
    snprintf(r->name, sizeof r->name, "%s", b->bc.name);
    double bytes = (double)const_bytes + (double)b->bc.expected.nbytes;
    for (size_t i = 0; i < b->bc.n_in; i++) bytes += (double)b->bc.in[i].nbytes;
    r->model_mib = bytes / (1024.0 * 1024.0);
    contender *all = r->c;
    printf("== %s\n", b->bc.name);
    fflush(stdout);

    for (int id = 0; id < G_COUNT; id++) {
        all[id].rss_base_kb = all[id].rss_peak_kb = -1;
        if (is_ort(id)) continue;
        if (setup(b, id, &all[id])) {
            fprintf(stderr, "bench: %s: %s: %s\n", b->bc.name, k_kinds[id].name, all[id].note);
            b->failed = 1; /* every contender but onnxruntime is required */
            teardown(&all[id]);
        }
    }
    describe(b, all, layer, r->what, sizeof r->what);
    if (b->peer_ok && b->peer.dead) {
        b->peer_ok = 0;
        snprintf(b->ort_reason, sizeof b->ort_reason, "the onnxruntime process exited");
    }
    if (b->peer_ok) {
        char cmd[1200];
        const char *rest;
        snprintf(cmd, sizeof cmd, "case %s", b->bc.dir);
        if (peer_cmd(&b->peer, cmd, &b->line, &b->cap, &rest)) {
            for (int id = G_ORT1; id <= G_ORT2; id++)
                snprintf(all[id].note, sizeof all[id].note, "case not run: %.200s", rest);
            printf("onnxruntime: %s: not run (%s)\n", b->bc.name, rest);
        } else {
            all[G_ORT1].active = all[G_ORT2].active = 1;
        }
    } else {
        for (int id = G_ORT1; id <= G_ORT2; id++)
            snprintf(all[id].note, sizeof all[id].note, "not available");
    }

    /* Warm-up rounds, then --rounds, or as many as fit in --seconds within the bounds. */
    int64_t total = o->c.warmup + (o->c.rounds > 0 ? o->c.rounds : o->c.min_rounds);
    uint64_t seed = 15;
    int order[G_COUNT];
    for (int64_t round = 0; round < total; round++) {
        const int timed = round >= o->c.warmup;
        const double r0 = bench_now_ms(CLOCK_MONOTONIC);
        bench_shuffle(order, G_COUNT, (int)round, &seed);
        for (int j = 0; j < G_COUNT; j++) {
            const int id = order[j];
            contender *c = &all[id];
            if (!c->active) continue;
            if (timed && !is_ort(id) && !c->ms &&
                !(c->ms = calloc((size_t)(total - o->c.warmup), sizeof *c->ms))) {
                snprintf(c->note, sizeof c->note, "out of memory");
                c->active = 0;
                b->failed = 1;
                continue;
            }
            double ms, cpu;
            if (run_once(b, id, c, &ms, &cpu)) {
                fprintf(stderr, "bench: %s: %s: %s\n", b->bc.name, k_kinds[id].name, c->note);
                c->active = 0;
                b->failed |= !is_ort(id);
                continue;
            }
            if (is_ort(id)) {
                c->warm_runs += !timed;
            } else if (timed) {
                c->ms[c->n_ms++] = ms;
                c->cpu_ms += cpu, c->wall_ms += ms;
            }
        }
        for (int id = 0; id < G_COUNT; id++)
            if (all[id].active && (round == 0 || round == total - 1))
                b->failed |= check(b, id, all);
        if (round == o->c.warmup - 1 && o->c.rounds <= 0) { /* the last warm-up round sizes the rest */
            const double round_ms = bench_now_ms(CLOCK_MONOTONIC) - r0;
            const double want = o->c.seconds * 1e3 / (round_ms > 0 ? round_ms : 1e-3);
            int64_t n = want > (double)o->c.max_rounds ? o->c.max_rounds : (int64_t)want;
            total = o->c.warmup + (n < o->c.min_rounds ? o->c.min_rounds : n);
        }
    }
    r->warmup = o->c.warmup, r->rounds = total - o->c.warmup;
    if (all[G_ORT1].active || all[G_ORT2].active) ort_finish(b, all);
    for (int id = 0; id < G_COUNT; id++) {
        contender *c = &all[id];
        bench_summary(c->ms, c->n_ms, &c->med, &c->min, &c->max);
        teardown(c);
    }
    if (o->c.rss) rss_pass(b, r, self);
    case_free(&b->bc);
    print_case(r);
    return 0;
}

/* ---- Markdown ---- */

static void md_num(FILE *f, double v) {
    if (isnan(v)) fputs(" – |", f);
    else if (v >= 100) fprintf(f, " %.1f |", v);
    else if (v >= 1) fprintf(f, " %.2f |", v);
    else fprintf(f, " %.4f |", v);
}

/* a / b, or a dash when either is missing */
static void md_ratio(FILE *f, double a, double b) {
    if (isnan(a) || isnan(b) || a < 0 || b <= 0) fputs(" – |", f);
    else fprintf(f, " %.2f |", a / b);
}

static void write_markdown(const char *path, const result *res, size_t n, const bench *b) {
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench: cannot write %s\n", path);
        return;
    }
    fprintf(f, "| case | osc 1t ms | ÷ C loop | ÷ ORT 1t | osc 2t ms | 2t ÷ 1t | 2t ÷ ORT 2t "
            "| unfused 1t ms | fused ÷ unfused | C loop ms | ORT 1t ms | ORT 2t ms "
            "| ORT 2t ÷ 1t | osc 1t peak RSS MiB | ÷ ORT 1t RSS | ÷ model bytes |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < n; i++) {
        const contender *c = res[i].c;
        const double o1 = med_of(&c[G_OSC1]), o2 = med_of(&c[G_OSC2]);
        const double r1 = med_of(&c[G_ORT1]), r2 = med_of(&c[G_ORT2]);
        fprintf(f, "| %s |", res[i].name);
        md_num(f, o1), md_ratio(f, o1, med_of(&c[G_LOOP])), md_ratio(f, o1, r1);
        md_num(f, o2), md_ratio(f, o2, o1), md_ratio(f, o2, r2);
        md_num(f, med_of(&c[G_UNF1])), md_ratio(f, o1, med_of(&c[G_UNF1]));
        md_num(f, med_of(&c[G_LOOP])), md_num(f, r1), md_num(f, r2), md_ratio(f, r2, r1);
        md_num(f, peak_mib(&c[G_OSC1]));
        md_ratio(f, peak_mib(&c[G_OSC1]), peak_mib(&c[G_ORT1]));
        md_ratio(f, peak_mib(&c[G_OSC1]), res[i].model_mib);
        fputc('\n', f);
    }
    if (!b->peer_ok && b->ort_reason[0])
        fprintf(f, "\nonnxruntime: not available (%s)\n", b->ort_reason);
    for (size_t i = 0; i < n; i++) {
        const result *r = &res[i];
        const contender *c = r->c;
        fprintf(f, "\n#### %s\n\n%s. Model bytes (inputs, constants, outputs): %.1f MiB. %lld "
                "timed rounds after %lld warm-up.\n\n", r->name, r->what, r->model_mib,
                (long long)r->rounds, (long long)r->warmup);
        fputs("| contender | runs | median ms | min ms | max ms | ÷ ORT 1t | ÷ ORT 2t | ÷ C loop "
              "| 2t ÷ 1t | CPU/wall | peak RSS MiB | RSS over base MiB | RSS ÷ ORT RSS "
              "| RSS ÷ model bytes | output |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n", f);
        for (int id = 0; id < G_COUNT; id++) {
            const contender *x = &c[id];
            const double m = med_of(x), rss = peak_mib(x);
            fprintf(f, "| %s |", k_kinds[id].name);
            if (!x->n_ms) {
                fprintf(f, " – | – | – | – | – | – | – | – | – | – | – | – | – | %s |\n",
                        x->note[0] ? x->note : "not run");
                continue;
            }
            fprintf(f, " %zu |", x->n_ms);
            md_num(f, m), md_num(f, x->min), md_num(f, x->max);
            md_ratio(f, is_ort(id) ? NAN : m, med_of(&c[G_ORT1]));
            md_ratio(f, id == G_OSC2 ? m : NAN, med_of(&c[G_ORT2]));
            md_ratio(f, is_osc(id) ? m : NAN, med_of(&c[G_LOOP]));
            md_ratio(f, id == G_OSC2 || id == G_ORT2 ? m : NAN,
                     med_of(&c[id == G_OSC2 ? G_OSC1 : G_ORT1]));
            md_ratio(f, x->wall_ms > 0 ? x->cpu_ms : NAN, x->wall_ms);
            md_num(f, rss);
            md_num(f, x->rss_peak_kb >= 0 ? (double)(x->rss_peak_kb - x->rss_base_kb) / 1024 : NAN);
            md_ratio(f, is_ort(id) ? NAN : rss, peak_mib(&c[ort_peer_of(id)]));
            md_ratio(f, rss, r->model_mib);
            fprintf(f, " %s%s%s |\n", x->check, x->note[0] ? "; " : "", x->note);
        }
    }
    fclose(f);
}

/* ---- the RSS child ---- */

static int rss_child(const char *which, const char *dir) {
    bench b;
    memset(&b, 0, sizeof b);
    int id = -1;
    for (int i = 0; i < G_COUNT; i++)
        if (!strcmp(which, k_kinds[i].id)) id = i;
    if (id < 0 || is_ort(id)) {
        fprintf(stderr, "bench: --rss-child: unknown contender '%s'\n", which);
        return 2;
    }
    char msg[1024];
    if (case_load(&b.bc, dir, 0, msg, sizeof msg)) {
        fprintf(stderr, "bench: %s\n", msg);
        return 1;
    }
    /* the .pb buffers the loader freed stay in the C library's heap; give them back so that
     * the base is the process and the inputs, not the reading of the files */
    malloc_trim(0);
    if (rss_reset_peak()) {
        fprintf(stderr, "bench: cannot reset the peak RSS (/proc/self/clear_refs)\n");
        return 1;
    }
    const long base = rss_status_kb("VmRSS");
    contender c;
    memset(&c, 0, sizeof c);
    if (setup(&b, id, &c)) {
        fprintf(stderr, "bench: %s\n", c.note);
        return 1;
    }
    for (int i = 0; i < 3; i++) {
        double ms, cpu;
        if (run_once(&b, id, &c, &ms, &cpu)) {
            fprintf(stderr, "bench: %s\n", c.note);
            return 1;
        }
    }
    printf("rss %ld %ld\n", base, rss_status_kb("VmHWM"));
    teardown(&c);
    case_free(&b.bc);
    return 0;
}

/* ---- main ---- */

static void usage(FILE *f) {
    fputs("usage: osc-bench-gnn [options] CASE_DIR...\n"
          "  CASE_DIR         a folder from tests/models/gen_models.py (--bench, or the small\n"
          "                   gnn_* ones): model.onnx, test_data_set_0/, layer/\n"
          "  --rounds N       timed rounds per case (default: from --seconds)\n"
          "  --seconds S      aim at about S seconds of rounds per case (default 60)\n"
          "  --min-rounds N   at least N timed rounds (default 5)\n"
          "  --max-rounds N   at most N timed rounds (default 100)\n"
          "  --warmup N       untimed rounds first (default 1, at least 1)\n"
          "  --rtol R, --atol A  tolerance of the comparisons with output_0.pb (torch's sums run\n"
          "                   in another order): |got - want| <= A + R |want| (default 1e-4, 1e-5)\n"
          "  --ort SCRIPT     add onnxruntime through node SCRIPT (bench/ort/ort_bench.js);\n"
          "                   node is $OSC_BENCH_NODE or `node`\n"
          "  --ort-off WHY    no onnxruntime; say why in the report\n"
          "  --no-rss         skip the peak-RSS child processes\n"
          "  --markdown FILE  also write the results as Markdown tables\n"
          "Exit status: 0 when every run succeeded, onnx-scatter and the C loop are within the\n"
          "tolerance of output_0.pb, and onnx-scatter 2t, unfused and recompute are\n"
          "bit-identical to 1t;\n"
          "else 1 (onnxruntime's differences are reported, they do not fail the run).\n", f);
}

static int parse_pos(const char *s, double *v) {
    char *end;
    if (!s || !*s) return 1;
    *v = strtod(s, &end);
    return *end || !(*v >= 0);
}

int main(int argc, char **argv) {
    if (argc == 4 && !strcmp(argv[1], "--rss-child")) return rss_child(argv[2], argv[3]);
    options o = {.rtol = 1e-4, .atol = 1e-5};
    bench_opts_init(&o.c, 1, 5, 100, 60);
    const char **dirs = calloc((size_t)argc, sizeof *dirs);
    size_t n_dirs = 0;
    for (int i = 1; dirs && i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0, takes = 1;
        if (bench_opt(&o.c, a, v, &bad, &takes)) {
        } else if (!strcmp(a, "--rtol")) bad = parse_pos(v, &o.rtol);
        else if (!strcmp(a, "--atol")) bad = parse_pos(v, &o.atol);
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            free(dirs);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "bench: unknown option %s\n", a);
            usage(stderr);
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
        usage(stderr);
        free(dirs);
        return 2;
    }
    char self[1024];
    bench b;
    memset(&b, 0, sizeof b);
    b.o = &o;
    b.peer_ok = bench_start(&o.c, argv[0], self, sizeof self, "C loop", &b.peer, b.ort_reason,
                            sizeof b.ort_reason);

    result *res = calloc(n_dirs, sizeof *res);
    size_t n_res = 0;
    for (size_t i = 0; res && i < n_dirs; i++) {
        if (run_case(&b, dirs[i], &res[n_res], self)) b.failed = 1;
        else n_res++;
    }
    if (o.c.markdown && res) write_markdown(o.c.markdown, res, n_res, &b);
    for (size_t i = 0; res && i < n_res; i++)
        for (int id = 0; id < G_COUNT; id++) free(res[i].c[id].ms);
    if (b.peer_ok) peer_stop(&b.peer);
    free(b.line);
    free(res);
    free(dirs);
    printf("%s\n", b.failed ? "FAILED: a run failed or an output differs (see above)"
                            : "onnx-scatter and the C loop within tolerance of torch; onnx-scatter "
                              "2t, unfused and recompute bit-identical to 1t");
    return b.failed ? 1 : 0;
}
