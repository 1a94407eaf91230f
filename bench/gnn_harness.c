/* gnn_harness.c: times issue 15's GNN layers: onnx-scatter against onnxruntime and a C layer. */
/* Usage: osc-bench-gnn [options] CASE_DIR...   (see usage() below)
 *
 * A program of its own rather than a mode of harness.c: harness.c times single scatter nodes,
 * whose output has data's shape, which run in place, take microseconds (timed in bursts) and
 * match a coordinate loop bit for bit. A GNN case is a whole exported layer with weights, runs
 * for tens of milliseconds to seconds, has no in-place mode, and its reference output comes from
 * torch, which sums floats in another order. Both programs share runner.c (the command line,
 * the rounds, the onnxruntime peer per case, peak RSS), procs.c (cases, child processes, the
 * onnxruntime peer) and clock.c.
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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnn_loops.h"
#include "harness.h"

enum { G_OSC1, G_OSC2, G_UNF1, G_REC1, G_LOOP, G_ORT1, G_ORT2, G_COUNT };

/* Names, --rss-child ids and thread counts. */
static const bench_kind k_kinds[G_COUNT] = {
    [G_OSC1] = {"onnx-scatter 1t", "osc1", 1},
    [G_OSC2] = {"onnx-scatter 2t", "osc2", 2},
    [G_UNF1] = {"onnx-scatter unfused 1t", "unfused1", 1}, /* opts.no_fusion */
    [G_REC1] = {"onnx-scatter recompute 1t", "recompute1", 1}, /* opts.fuse_recompute */
    [G_LOOP] = {"C loop", "loop", 1},
    [G_ORT1] = {"onnxruntime 1t", "ort1", 1},
    [G_ORT2] = {"onnxruntime 2t", "ort2", 2},
};

static int is_osc(int id) { return id <= G_REC1; }
static int is_ort(int id) { return id == G_ORT1 || id == G_ORT2; }
/* the onnxruntime contender with the same thread count */
static int ort_peer_of(int id) { return k_kinds[id].threads == 2 ? G_ORT2 : G_ORT1; }

typedef bench_contender contender;
typedef bench_result result;

/* The runner's state (first, so the hooks' bench_run is this), the tolerance, the C layer. */
typedef struct bench {
    bench_run r;
    double rtol, atol;
    char layer[64];          /* the case's layer (layer/layer.txt) */
    gnn_loop *loop;
} bench;

/* ---- contenders ---- */

static int setup(bench_run *r, int id, contender *c, int child) {
    bench *b = (bench *)r;
    char msg[OSC_MESSAGE_SIZE];
    (void)child;
    if (is_osc(id)) {
        osc_options opts;
        osc_options_init(&opts);
        opts.threads = k_kinds[id].threads;
        opts.no_fusion = id == G_UNF1;
        opts.fuse_recompute = id == G_REC1;
        if (bench_osc_setup(r, &opts, c)) return 1;
        if (k_kinds[id].threads == 2)
            snprintf(c->note, sizeof c->note, "%d threads", (int)osc_session_threads(c->s));
    } else if (id == G_LOOP) {
        if (r->bc.n_in != 2) {
            snprintf(c->note, sizeof c->note, "the C layers take two inputs (x, edge_index)");
            return 1;
        }
        if (!(b->loop = gnn_loop_load(r->bc.dir, &r->bc.in[0], &r->bc.in[1], msg, sizeof msg))) {
            snprintf(c->note, sizeof c->note, "%.250s", msg);
            return 1;
        }
    }
    return 0;
}

static void teardown(bench_run *r, int id) {
    bench *b = (bench *)r;
    if (id != G_LOOP) return;
    gnn_loop_free(b->loop);
    b->loop = NULL;
}

/* One run; *ms is the timed part. */
static int run_once(bench_run *r, int id, contender *c, int child, double *ms, double *cpu) {
    bench *b = (bench *)r;
    (void)child;
    double c0 = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = bench_now_ms(CLOCK_MONOTONIC);
    osc_status st = OSC_OK;
    if (id == G_LOOP) gnn_loop_run(b->loop);
    else st = osc_session_run(c->s);
    *ms = bench_now_ms(CLOCK_MONOTONIC) - t0;
    *cpu = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (st == OSC_OK) return 0;
    snprintf(c->note, sizeof c->note, "run failed: %.230s", osc_session_error(c->s));
    return 1;
}

static const osc_tensor *output_of(const bench *b, int id, const contender *c, osc_tensor *buf) {
    if (id == G_LOOP) return b->loop ? gnn_loop_output(b->loop) : NULL;
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
    const osc_tensor *want = &b->r.bc.expected;
    const double rtol = b->rtol, atol = b->atol;
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
static int check(bench_run *r, int id, contender *all) {
    bench *b = (bench *)r;
    contender *c = &all[id];
    int bad;
    if (is_ort(id)) {
        char tol[64];
        snprintf(tol, sizeof tol, " %g %g", b->rtol, b->atol);
        return bench_ort_check(r, id, c, tol);
    }
    osc_tensor tg, tr;
    const osc_tensor *got = output_of(b, id, c, &tg);
    if (!got) {
        snprintf(c->check, sizeof c->check, "MISMATCH: no output");
        bad = 1;
    } else if (id == G_OSC1 || id == G_LOOP || !all[G_OSC1].active) {
        bad = check_close(b, got, c->check, sizeof c->check);
    } else { /* 2t, unfused and recompute: the same bits as 1t */
        const osc_tensor *ref = output_of(b, G_OSC1, &all[G_OSC1], &tr);
        bad = !ref || !same_shape(got, ref) || memcmp(got->data, ref->data, got->nbytes) != 0;
        snprintf(c->check, sizeof c->check, "%s onnx-scatter 1t",
                 bad ? "MISMATCH: not bit-identical to" : "bit-identical to");
    }
    if (bad) bench_report(r, id, c->check);
    c->mismatches += bad;
    return bad;
}

/* ---- one case ---- */

static int load(bench_run *r, result *res, char *msg, size_t msg_size) {
    bench *b = (bench *)r;
    uint64_t const_bytes = 0;
    if (gnn_layer_info(r->bc.dir, b->layer, sizeof b->layer, &const_bytes, msg, msg_size))
        return 1;
    double bytes = (double)const_bytes + (double)r->bc.expected.nbytes;
    for (size_t i = 0; i < r->bc.n_in; i++) bytes += (double)r->bc.in[i].nbytes;
    res->io_kb = bytes / 1024; /* inputs, the model's constants, outputs */
    return 0;
}

/* "layer; x float[n,c], edge_index int64[2,e] -> float[n,c']; N graph nodes (F fused)" */
static void describe(const bench_run *b, const contender *all, const char *layer, char *out,
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

static void begin(bench_run *r, result *res) {
    bench_setup(r, res->c, 0, G_COUNT);
    describe(r, res->c, ((bench *)r)->layer, res->what, sizeof res->what);
}

/* " %7.2f" of a / b, or a dash when either is missing */
static void print_ratio(double a, double b) {
    if (isnan(a) || isnan(b) || a < 0 || b <= 0) printf(" %7s", "-");
    else printf(" %7.2f", a / b);
}

static double med_of(const contender *c) { return c->n_ms ? c->med : NAN; }
/* inputs + the model's constants + outputs */
static double model_mib(const result *r) { return r->io_kb / 1024; }
static double peak_mib(const contender *c) {
    return c->rss_peak_kb >= 0 ? (double)c->rss_peak_kb / 1024 : NAN;
}

static void print_case(const bench_run *b, const result *r) {
    (void)b;
    const contender *all = r->c;
    printf("%s\n%lld timed rounds after %lld warm-up; model bytes (inputs, constants, outputs) "
           "%.1f MiB\n", r->what, (long long)r->rounds, (long long)r->warmup, model_mib(r));
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

/* ---- Markdown ---- */

/* a / b, or a dash when either is missing */
static void md_ratio(FILE *f, double a, double b) {
    if (isnan(a) || isnan(b) || a < 0 || b <= 0) fputs(" – |", f);
    else fprintf(f, " %.2f |", a / b);
}

static void write_markdown(FILE *f, const bench_run *b, const result *res, size_t n) {
    fprintf(f, "| case | osc 1t ms | ÷ C loop | ÷ ORT 1t | osc 2t ms | 2t ÷ 1t | 2t ÷ ORT 2t "
            "| unfused 1t ms | fused ÷ unfused | C loop ms | ORT 1t ms | ORT 2t ms "
            "| ORT 2t ÷ 1t | osc 1t peak RSS MiB | ÷ ORT 1t RSS | ÷ model bytes |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < n; i++) {
        const contender *c = res[i].c;
        const double o1 = med_of(&c[G_OSC1]), o2 = med_of(&c[G_OSC2]);
        const double r1 = med_of(&c[G_ORT1]), r2 = med_of(&c[G_ORT2]);
        fprintf(f, "| %s |", res[i].name);
        bench_md_num(f, o1, 4), md_ratio(f, o1, med_of(&c[G_LOOP])), md_ratio(f, o1, r1);
        bench_md_num(f, o2, 4), md_ratio(f, o2, o1), md_ratio(f, o2, r2);
        bench_md_num(f, med_of(&c[G_UNF1]), 4), md_ratio(f, o1, med_of(&c[G_UNF1]));
        bench_md_num(f, med_of(&c[G_LOOP]), 4), bench_md_num(f, r1, 4), bench_md_num(f, r2, 4);
        md_ratio(f, r2, r1);
        bench_md_num(f, peak_mib(&c[G_OSC1]), 4);
        md_ratio(f, peak_mib(&c[G_OSC1]), peak_mib(&c[G_ORT1]));
        md_ratio(f, peak_mib(&c[G_OSC1]), model_mib(&res[i]));
        fputc('\n', f);
    }
    bench_md_ort_note(f, b);
    for (size_t i = 0; i < n; i++) {
        const result *r = &res[i];
        const contender *c = r->c;
        fprintf(f, "\n#### %s\n\n%s. Model bytes (inputs, constants, outputs): %.1f MiB. %lld "
                "timed rounds after %lld warm-up.\n\n", r->name, r->what, model_mib(r),
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
            bench_md_num(f, m, 4), bench_md_num(f, x->min, 4), bench_md_num(f, x->max, 4);
            md_ratio(f, is_ort(id) ? NAN : m, med_of(&c[G_ORT1]));
            md_ratio(f, id == G_OSC2 ? m : NAN, med_of(&c[G_ORT2]));
            md_ratio(f, is_osc(id) ? m : NAN, med_of(&c[G_LOOP]));
            md_ratio(f, id == G_OSC2 || id == G_ORT2 ? m : NAN,
                     med_of(&c[id == G_OSC2 ? G_OSC1 : G_ORT1]));
            md_ratio(f, x->wall_ms > 0 ? x->cpu_ms : NAN, x->wall_ms);
            bench_md_num(f, rss, 4);
            bench_md_num(f, x->rss_peak_kb >= 0 ? (double)(x->rss_peak_kb - x->rss_base_kb) / 1024
                                                : NAN, 4);
            md_ratio(f, is_ort(id) ? NAN : rss, peak_mib(&c[ort_peer_of(id)]));
            md_ratio(f, rss, model_mib(r));
            fprintf(f, " %s%s%s |\n", x->check, x->note[0] ? "; " : "", x->note);
        }
    }
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

static int option(bench_run *r, const char *a, const char *v, int *bad, int *takes) {
    bench *b = (bench *)r;
    (void)takes;
    if (!strcmp(a, "--rtol")) *bad = parse_pos(v, &b->rtol);
    else if (!strcmp(a, "--atol")) *bad = parse_pos(v, &b->atol);
    else return 0;
    return 1;
}

static const bench_spec k_spec = {
    .loops = "C loop",
    .all_ok = "onnx-scatter and the C loop within tolerance of torch; onnx-scatter 2t, unfused "
              "and recompute bit-identical to 1t",
    .count = G_COUNT,
    .kinds = k_kinds,
    .ort1 = G_ORT1,
    .ort2 = G_ORT2,
    .seed = 15,
    .ort_pause_ns = 0,
    .check_after_round = 1,
    .rss_file = 0,
    .usage = usage,
    .option = option,
    .load = load,
    .begin = begin,
    .setup = setup,
    .teardown = teardown,
    .run = run_once,
    .check = check,
    .print = print_case,
    .markdown = write_markdown,
};

int main(int argc, char **argv) {
    static bench b;
    b.r.sp = &k_spec;
    b.rtol = 1e-4, b.atol = 1e-5;
    bench_opts_init(&b.r.o, 1, 5, 100, 60);
    return bench_main(argc, argv, &b.r);
}
