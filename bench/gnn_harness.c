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
 * output_0.pb within |got - want| <= atol + rtol |want|; onnx-scatter 2t, unfused 1t,
 * recompute 1t (opts.fuse_recompute), index unchanged 1t (edge_index declared unchanged
 * before each run: osc_session_input_unchanged) and inputs donated 1t (opts.inplace_inputs = 2:
 * x W written over x) against onnx-scatter 1t byte for byte (the
 * runtime promises the same bits whatever the thread count, and the fusion pass the same bits
 * as the graph it rewrites); onnxruntime against output_0.pb
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

enum {
    G_OSC1, G_OSC2, G_UNF1, G_REC1, G_KEEP1, G_DON1, G_LOOP, G_TORCH, G_CSR, G_ORT1, G_ORT2,
    G_COUNT
};

/* Names, --rss-child ids and thread counts. */
static const bench_kind k_kinds[G_COUNT] = {
    [G_OSC1] = {"onnx-scatter 1t", "osc1", 1},
    [G_OSC2] = {"onnx-scatter 2t", "osc2", 2},
    [G_UNF1] = {"onnx-scatter unfused 1t", "unfused1", 1}, /* opts.no_fusion */
    [G_REC1] = {"onnx-scatter recompute 1t", "recompute1", 1}, /* opts.fuse_recompute */
    /* edge_index (input 1) declared unchanged before each run (osc_session_input_unchanged) */
    [G_KEEP1] = {"onnx-scatter index unchanged 1t", "keep1", 1},
    /* opts.inplace_inputs = 2: the inputs written in place are the harness's own copies,
     * restored (untimed) before each run; in the peak-RSS child, the loaded inputs themselves */
    [G_DON1] = {"onnx-scatter inputs donated 1t", "donate1", 1},
    [G_LOOP] = {"C loop", "loop", 1},
    [G_TORCH] = {"torch eager 1t", "eager", 1}, /* bench/torch_bench.py's modes */
    [G_CSR] = {"torch CSR 1t", "csr", 1},
    [G_ORT1] = {"onnxruntime 1t", "ort1", 1},
    [G_ORT2] = {"onnxruntime 2t", "ort2", 2},
};

static int is_osc(int id) { return id <= G_DON1; }
static int is_ort(int id) { return id == G_ORT1 || id == G_ORT2; }
static int is_torch(int id) { return id == G_TORCH || id == G_CSR; }
/* the onnxruntime contender with the same thread count */
static int ort_peer_of(int id) { return k_kinds[id].threads == 2 ? G_ORT2 : G_ORT1; }

typedef bench_contender contender;
typedef bench_result result;

#define MAX_PINS 8
#define MAX_CASES 64

/* What the report adds per case: the copy bandwidth, the edges, the graph's node counts, pins. */
typedef struct case_info {
    char name[256];
    double copy_gbs;         /* single-thread memcpy, bytes read + written per ns */
    double edges;            /* edge_index's columns */
    double bytes;            /* compulsory: x, edge_index, y */
    size_t nodes_unfused, nodes_fused;
    char pins[160];          /* "E=..., N=..." or "" */
} case_info;

/* The runner's state (first, so the hooks' bench_run is this), the tolerance, the C layer, the
 * torch peer, the case's dim pins and what the report adds per case. */
typedef struct bench {
    bench_run r;
    double rtol, atol;
    char layer[64];          /* the case's layer (layer/layer.txt) */
    gnn_loop *loop;
    const char *torch_script, *torch_off, *python;
    ort_peer torch;
    int torch_started, torch_ok;
    char torch_reason[300];
    char pin_names[MAX_PINS][64];
    osc_dim_pin pins[MAX_PINS];
    size_t n_pins;
    int use_pins;            /* --pins: load with the dims file's pins */
    /* G_DON1: per input, 1 when a run writes into it; the timing process's own copy of it */
    int donated[BENCH_MAX_INPUTS];
    osc_tensor donated_copy[BENCH_MAX_INPUTS];
    case_info cases[MAX_CASES];
    size_t n_cases;
} bench;

/* ---- the case's dims file (tests/models/gen_models.py: "--dim E=5000 --dim N=500") ---- */

/* Reads DIR/dims into b->pins (none when there is no file); 1 with msg set when malformed. */
static int read_pins(bench *b, const char *dir, char *msg, size_t msg_size) {
    char path[1200], tok[128];
    b->n_pins = 0;
    snprintf(path, sizeof path, "%s/dims", dir);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int bad = 0;
    while (!bad && fscanf(f, "%127s", tok) == 1) {
        char name[64];
        long long size;
        bad = strcmp(tok, "--dim") != 0 || fscanf(f, " %63[^=]=%lld", name, &size) != 2 ||
              size < 0 || b->n_pins == MAX_PINS;
        if (bad) break;
        snprintf(b->pin_names[b->n_pins], sizeof b->pin_names[0], "%s", name);
        b->pins[b->n_pins] = (osc_dim_pin){b->pin_names[b->n_pins], (int64_t)size};
        b->n_pins++;
    }
    fclose(f);
    if (bad) snprintf(msg, msg_size, "%.200s: expected --dim NAME=SIZE ...", path);
    return bad;
}

/* ---- the torch peer (bench/torch_bench.py serve) ---- */

/* Starts it once; 1 when it runs. */
static int torch_start(bench *b) {
    if (b->torch_started) return b->torch_ok;
    b->torch_started = 1;
    if (!b->torch_script) {
        snprintf(b->torch_reason, sizeof b->torch_reason, "%s",
                 b->torch_off ? b->torch_off : "not requested (--torch)");
        return 0;
    }
    char *argv[] = {(char *)b->python, (char *)b->torch_script, "serve", NULL};
    b->torch_ok = !peer_spawn(&b->torch, argv, b->torch_reason, sizeof b->torch_reason);
    if (b->torch_ok) printf("torch: %s, 1 thread\n", b->torch.version);
    else printf("torch: not available (%s)\n", b->torch_reason);
    return b->torch_ok;
}

/* The peer loads the case: the torch contenders it has a mode for become active. */
static void torch_case(bench *b, contender *all) {
    const char *rest = b->torch_reason;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "case %s", b->r.bc.dir);
    int ok = torch_start(b) && !peer_cmd(&b->torch, cmd, &b->r.line, &b->r.cap, &rest);
    char modes[256];
    snprintf(modes, sizeof modes, " %s ", ok ? rest : "");
    for (int id = G_TORCH; id <= G_CSR; id++) {
        char want[32];
        snprintf(want, sizeof want, " %s ", k_kinds[id].id);
        if (ok && strstr(modes, want)) all[id].active = 1;
        else if (ok) snprintf(all[id].note, sizeof all[id].note, "no CSR form of this layer");
        else snprintf(all[id].note, sizeof all[id].note, "not available (%.200s)", rest);
    }
}

/* ---- contenders ---- */

/* G_DON1: which inputs runs write into (a node reading one in place); in the timing process
 * (child 0) each gets a copy of its own, bound in its place. 1 on failure (note set). */
static int donate_setup(bench *b, contender *c, int child) {
    const bench_case *bc = &b->r.bc;
    for (size_t k = 0; k < bc->n_in; k++) {
        osc_value_desc in;
        b->donated[k] = 0;
        if (osc_model_input(c->m, k, &in) != OSC_OK) continue;
        for (size_t i = 0; i < osc_model_node_count(c->m); i++) {
            osc_node_desc nd;
            int32_t mode = OSC_INPLACE_NONE;
            if (osc_model_node(c->m, i, &nd) == OSC_OK && nd.n_inputs > 0 &&
                !strcmp(nd.inputs[0], in.name) &&
                osc_model_node_inplace(c->m, i, &mode) == OSC_OK && mode == OSC_INPLACE_INPUT)
                b->donated[k] = 1;
        }
        if (!b->donated[k] || child) continue;
        osc_tensor *t = &b->donated_copy[k];
        *t = bc->in[k];
        if (!(t->data = malloc(t->nbytes ? t->nbytes : 1))) {
            snprintf(c->note, sizeof c->note, "out of memory copying input %zu", k);
            return 1;
        }
    }
    return 0;
}

/* Binds G_DON1's written inputs again before a run (a run consumes them): the copies refilled
 * from the case's inputs, or in the child the inputs as the last run left them (the peak of
 * memory does not depend on their values). 1 on failure (note set). */
static int donate_rebind(bench *b, contender *c, int child) {
    const bench_case *bc = &b->r.bc;
    for (size_t k = 0; k < bc->n_in; k++) {
        if (!b->donated[k]) continue;
        const osc_tensor *t = child ? &bc->in[k] : &b->donated_copy[k];
        if (!child) memcpy(t->data, bc->in[k].data, t->nbytes);
        if (osc_session_set_input_at(c->s, k, t) != OSC_OK) {
            snprintf(c->note, sizeof c->note, "input %zu: %.200s", k, osc_session_error(c->s));
            return 1;
        }
    }
    return 0;
}

static int setup(bench_run *r, int id, contender *c, int child) {
    bench *b = (bench *)r;
    char msg[OSC_MESSAGE_SIZE];
    if (is_osc(id)) {
        osc_options opts;
        osc_options_init(&opts);
        b->n_pins = 0;
        if (b->use_pins && read_pins(b, r->bc.dir, c->note, sizeof c->note)) return 1;
        opts.dim_pins = b->pins, opts.n_dim_pins = b->n_pins; /* --pins: a dynamic export's */
        opts.threads = k_kinds[id].threads;
        opts.no_fusion = id == G_UNF1;
        opts.fuse_recompute = id == G_REC1;
        opts.inplace_inputs = id == G_DON1 ? 2 : 0;
        if (bench_osc_setup(r, &opts, c)) return 1;
        if (id == G_DON1 && donate_setup(b, c, child)) return 1;
        if (k_kinds[id].threads == 2)
            snprintf(c->note, sizeof c->note, "%d threads", (int)osc_session_threads(c->s));
    } else if (is_torch(id)) { /* set up by torch_case; its peak RSS: rss_argv */
        snprintf(c->note, sizeof c->note, "torch runs in its peer process");
        return 1;
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
    if (id == G_DON1)
        for (size_t k = 0; k < BENCH_MAX_INPUTS; k++) {
            free(b->donated_copy[k].data);
            b->donated_copy[k].data = NULL;
            b->donated[k] = 0;
        }
    if (id != G_LOOP) return;
    gnn_loop_free(b->loop);
    b->loop = NULL;
}

/* One run; *ms is the timed part. */
static int run_once(bench_run *r, int id, contender *c, int child, double *ms, double *cpu) {
    bench *b = (bench *)r;
    if (is_torch(id)) { /* the peer times the call itself: wall and its own CPU time */
        char cmd[32];
        const char *rest;
        snprintf(cmd, sizeof cmd, "run %s", k_kinds[id].id);
        if (!peer_cmd(&b->torch, cmd, &r->line, &r->cap, &rest) &&
            sscanf(rest, "%lf %lf", ms, cpu) == 2)
            return 0;
        snprintf(c->note, sizeof c->note, "torch run failed: %.230s", rest);
        return 1;
    }
    if (id == G_DON1 && donate_rebind(b, c, child)) return 1;
    double c0 = bench_now_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = bench_now_ms(CLOCK_MONOTONIC);
    osc_status st = OSC_OK;
    if (id == G_LOOP) gnn_loop_run(b->loop);
    else if (id != G_KEEP1 || !(st = osc_session_input_unchanged(c->s, 1)))
        st = osc_session_run(c->s);
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
    if (is_torch(id)) { /* torch against output_0.pb, within the tolerance */
        char cmd[96];
        const char *rest;
        snprintf(cmd, sizeof cmd, "check %s %g %g", k_kinds[id].id, b->rtol, b->atol);
        bad = peer_cmd(&b->torch, cmd, &r->line, &r->cap, &rest);
        snprintf(c->check, sizeof c->check, "%s%.200s", bad ? "check failed: " : "", rest);
        bad |= strncmp(rest, "bit-identical", 13) != 0 && strncmp(rest, "within", 6) != 0;
        if (bad) bench_report(r, id, c->check);
        c->mismatches += bad;
        return bad;
    }
    osc_tensor tg, tr;
    const osc_tensor *got = output_of(b, id, c, &tg);
    if (!got) {
        snprintf(c->check, sizeof c->check, "MISMATCH: no output");
        bad = 1;
    } else if (id == G_OSC1 || id == G_LOOP || !all[G_OSC1].active) {
        bad = check_close(b, got, c->check, sizeof c->check);
    } else { /* 2t, unfused, recompute, index unchanged: the same bits as 1t */
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
        p += (size_t)snprintf(out + p, size - p, "; %zu graph nodes unfused, %zu fused",
                              osc_model_node_count(all[G_UNF1].m),
                              osc_model_node_count(all[G_OSC1].m));
    const bench *g = (const bench *)b;
    for (size_t i = 0; i < g->n_pins && p < size; i++)
        p += (size_t)snprintf(out + p, size - p, "%s%s=%lld", i ? ", " : "; dynamic axes, "
                              "loaded with opts.dim_pins (its dims file) ", g->pins[i].name,
                              (long long)g->pins[i].size);
}

/* Single-thread copy bandwidth, (bytes read + bytes written) per ns = GB/s: median of 5 memcpys
 * of 128 MiB (far beyond the caches), the buffers touched first; NaN without the memory. */
static double copy_bandwidth(void) {
    const size_t n = (size_t)128 << 20;
    char *a = malloc(n), *c = malloc(n);
    double t[5], med = NAN, lo, hi;
    if (a && c) {
        memset(a, 1, n), memset(c, 2, n);
        memcpy(c, a, n);
        for (int i = 0; i < 5; i++) {
            const double t0 = bench_now_ms(CLOCK_MONOTONIC);
            memcpy(c, a, n);
            t[i] = bench_now_ms(CLOCK_MONOTONIC) - t0;
            a[i * 4096] ^= c[n - 1 - (size_t)i]; /* keep the copies */
        }
        bench_summary(t, 5, &med, &lo, &hi);
    }
    free(a), free(c);
    return 2.0 * (double)n / (med * 1e6);
}

static void begin(bench_run *r, result *res) {
    bench *b = (bench *)r;
    bench_setup(r, res->c, 0, G_TORCH);
    torch_case(b, res->c);
    describe(r, res->c, b->layer, res->what, sizeof res->what);
    if (b->n_cases == MAX_CASES) return;
    case_info *ci = &b->cases[b->n_cases++];
    memset(ci, 0, sizeof *ci);
    snprintf(ci->name, sizeof ci->name, "%s", res->name);
    ci->copy_gbs = copy_bandwidth();
    ci->edges = r->bc.n_in > 1 && r->bc.in[1].rank == 2 ? (double)r->bc.in[1].dims[1] : NAN;
    ci->bytes = (double)r->bc.expected.nbytes;
    for (size_t i = 0; i < r->bc.n_in; i++) ci->bytes += (double)r->bc.in[i].nbytes;
    if (res->c[G_UNF1].m) ci->nodes_unfused = osc_model_node_count(res->c[G_UNF1].m);
    if (res->c[G_OSC1].m) ci->nodes_fused = osc_model_node_count(res->c[G_OSC1].m);
    for (size_t i = 0; i < b->n_pins; i++) {
        size_t p = strlen(ci->pins);
        snprintf(ci->pins + p, sizeof ci->pins - p, "%s%s=%lld", i ? ", " : "", b->pins[i].name,
                 (long long)b->pins[i].size);
    }
}

static const case_info *info_of(const bench *b, const char *name) {
    for (size_t i = 0; i < b->n_cases; i++)
        if (!strcmp(b->cases[i].name, name)) return &b->cases[i];
    return NULL;
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

/* M edges per second, and the compulsory bytes per second as a share of the copy bandwidth */
static double medges_per_s(const case_info *ci, double ms) {
    return ci && ms > 0 ? ci->edges / ms / 1e3 : NAN;
}
static double copy_share(const case_info *ci, double ms) {
    return ci && ms > 0 ? ci->bytes / (ms * 1e6) / ci->copy_gbs : NAN;
}

static void print_case(const bench_run *b, const result *r) {
    const contender *all = r->c;
    const case_info *ci = info_of((const bench *)b, r->name);
    printf("%s\n%lld timed rounds after %lld warm-up; model bytes (inputs, constants, outputs) "
           "%.1f MiB\n", r->what, (long long)r->rounds, (long long)r->warmup, model_mib(r));
    if (ci)
        printf("compulsory bytes (x, edge_index, y) %.1f MiB; %.0f edges; single-thread copy "
               "%.2f GB/s (read + write)\n", ci->bytes / 1048576, ci->edges, ci->copy_gbs);
    printf("  %-31s %5s %10s %10s %10s %7s %7s %7s %9s %7s %8s %6s  %s\n", "contender", "runs",
           "median ms", "min ms", "max ms", "xORT", "xCloop", "cpu", "peak MiB", "xORTrss",
           "Medge/s", "xcopy", "output");
    for (int id = 0; id < G_COUNT; id++) {
        const contender *c = &all[id];
        if (!c->n_ms) {
            printf("  %-31s %s\n", k_kinds[id].name, c->note[0] ? c->note : "not run");
            continue;
        }
        const contender *o = &all[is_ort(id) ? G_ORT1 : ort_peer_of(id)];
        printf("  %-31s %5zu %10.4g %10.4g %10.4g", k_kinds[id].name, c->n_ms, c->med, c->min,
               c->max);
        print_ratio(id == G_ORT1 ? NAN : c->med, med_of(o));
        print_ratio(is_osc(id) ? c->med : NAN, med_of(&all[G_LOOP]));
        print_ratio(c->wall_ms > 0 ? c->cpu_ms : NAN, c->wall_ms);
        if (c->rss_peak_kb >= 0) printf(" %9.1f", peak_mib(c));
        else printf(" %9s", "-");
        print_ratio(is_ort(id) ? NAN : peak_mib(c), peak_mib(o));
        printf(" %8.3g %6.3f", medges_per_s(ci, c->med), copy_share(ci, c->med));
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

/* Against PyTorch, edges per second and the share of the copy bandwidth, per case. */
static void write_md_torch(FILE *f, const bench *g, const result *res, size_t n) {
    static const int ids[] = {G_OSC1, G_LOOP, G_ORT1, G_TORCH, G_CSR};
    const int k = (int)(sizeof ids / sizeof ids[0]);
    fputs("\nOne thread each. M edges/s: edge_index's columns over the median time; ÷ copy BW: "
          "the compulsory bytes (read x and edge_index, write y; no layer here has a per-edge "
          "input) per second over the single-thread copy bandwidth (memcpy of 128 MiB, read + "
          "write bytes) measured before the case's rounds.\n\n"
          "| case | edges | compulsory MiB | copy GB/s | osc 1t ms | torch eager ms "
          "| osc ÷ eager | torch CSR ms | osc ÷ CSR |", f);
    for (int j = 0; j < k; j++) fprintf(f, " %s M edges/s |", k_kinds[ids[j]].name);
    for (int j = 0; j < k; j++) fprintf(f, " %s ÷ copy BW |", k_kinds[ids[j]].name);
    fputs("\n|---|---:|---:|---:|---:|---:|---:|---:|---:|", f);
    for (int j = 0; j < 2 * k; j++) fputs("---:|", f);
    fputc('\n', f);
    for (size_t i = 0; i < n; i++) {
        const contender *c = res[i].c;
        const case_info *ci = info_of(g, res[i].name);
        if (!ci) continue;
        const double o1 = med_of(&c[G_OSC1]);
        fprintf(f, "| %s | %.0f |", res[i].name, ci->edges);
        bench_md_num(f, ci->bytes / 1048576, 4), bench_md_num(f, ci->copy_gbs, 4);
        bench_md_num(f, o1, 4), bench_md_num(f, med_of(&c[G_TORCH]), 4);
        md_ratio(f, o1, med_of(&c[G_TORCH]));
        bench_md_num(f, med_of(&c[G_CSR]), 4), md_ratio(f, o1, med_of(&c[G_CSR]));
        for (int j = 0; j < k; j++) bench_md_num(f, medges_per_s(ci, med_of(&c[ids[j]])), 4);
        for (int j = 0; j < k; j++) bench_md_num(f, copy_share(ci, med_of(&c[ids[j]])), 4);
        fputc('\n', f);
    }
}

/* Each dynamic-axes case (a name with "_dynamic") beside its static export (the name without). */
static void write_md_dynamic(FILE *f, const bench *g, const result *res, size_t n) {
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        const char *at = strstr(res[i].name, "_dynamic");
        if (!at) continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s%s", (int)(at - res[i].name), res[i].name, at + 8);
        const result *st = NULL;
        for (size_t j = 0; j < n; j++)
            if (!strcmp(res[j].name, name)) st = &res[j];
        if (!st) continue;
        if (!any++)
            fputs("\nDynamic-axes exports (N, E symbolic) loaded as they are, their symbols "
                  "unpinned (with --pins: their dims file's, `opts.dim_pins`), beside the "
                  "static export of the same module and data "
                  "(the issue's target: within 1.10x). The two are separate cases, timed minutes "
                  "apart: *÷ C loop, dynamic ÷ static* divides each by the C loop of its own "
                  "rounds (the same code on the same data) to take the machine's load out.\n\n"
                  "| case | pins | osc 1t ms static | dynamic | dynamic ÷ static | ÷ C loop, "
                  "dynamic ÷ static | 2t dynamic ÷ "
                  "static | recompute dynamic ÷ static | peak RSS MiB static | dynamic "
                  "| RSS dynamic ÷ static | graph nodes unfused / fused, static | dynamic |\n"
                  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n", f);
        const contender *d = res[i].c, *s = st->c;
        const case_info *di = info_of(g, res[i].name), *si = info_of(g, name);
        fprintf(f, "| %s | %s |", res[i].name, di && di->pins[0] ? di->pins : "none");
        bench_md_num(f, med_of(&s[G_OSC1]), 4), bench_md_num(f, med_of(&d[G_OSC1]), 4);
        md_ratio(f, med_of(&d[G_OSC1]), med_of(&s[G_OSC1]));
        md_ratio(f, med_of(&d[G_OSC1]) / med_of(&d[G_LOOP]),
                 med_of(&s[G_OSC1]) / med_of(&s[G_LOOP]));
        md_ratio(f, med_of(&d[G_OSC2]), med_of(&s[G_OSC2]));
        md_ratio(f, med_of(&d[G_REC1]), med_of(&s[G_REC1]));
        bench_md_num(f, peak_mib(&s[G_OSC1]), 4), bench_md_num(f, peak_mib(&d[G_OSC1]), 4);
        md_ratio(f, peak_mib(&d[G_OSC1]), peak_mib(&s[G_OSC1]));
        fprintf(f, " %zu / %zu | %zu / %zu |\n", si ? si->nodes_unfused : 0,
                si ? si->nodes_fused : 0, di ? di->nodes_unfused : 0, di ? di->nodes_fused : 0);
    }
}

static void write_markdown(FILE *f, const bench_run *b, const result *res, size_t n) {
    fprintf(f, "| case | osc 1t ms | ÷ C loop | ÷ ORT 1t | osc 2t ms | 2t ÷ 1t | 2t ÷ ORT 2t "
            "| unfused 1t ms | fused ÷ unfused | C loop ms | ORT 1t ms | ORT 2t ms "
            "| ORT 2t ÷ 1t | osc 1t peak RSS MiB | ÷ ORT 1t RSS | ÷ model bytes "
            "| inputs donated: peak RSS ÷ model bytes |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
            "|---:|\n");
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
        md_ratio(f, peak_mib(&c[G_DON1]), model_mib(&res[i]));
        fputc('\n', f);
    }
    bench_md_ort_note(f, b);
    const bench *g = (const bench *)b;
    if (!g->torch_ok && g->torch_reason[0])
        fprintf(f, "\ntorch: not available (%s)\n", g->torch_reason);
    write_md_torch(f, g, res, n);
    write_md_dynamic(f, g, res, n);
    for (size_t i = 0; i < n; i++) {
        const result *r = &res[i];
        const contender *c = r->c;
        const case_info *ci = info_of(g, r->name);
        fprintf(f, "\n#### %s\n\n%s. Model bytes (inputs, constants, outputs): %.1f MiB. %lld "
                "timed rounds after %lld warm-up.", r->name, r->what, model_mib(r),
                (long long)r->rounds, (long long)r->warmup);
        if (ci)
            fprintf(f, " Compulsory bytes (x, edge_index, y): %.1f MiB; %.0f edges; single-thread "
                    "copy bandwidth %.2f GB/s (read + write).", ci->bytes / 1048576, ci->edges,
                    ci->copy_gbs);
        fputs("\n\n| contender | runs | median ms | min ms | max ms | ÷ ORT 1t | ÷ ORT 2t "
              "| ÷ C loop | 2t ÷ 1t | CPU/wall | peak RSS MiB | RSS over base MiB | RSS ÷ ORT RSS "
              "| RSS ÷ model bytes | M edges/s | ÷ copy BW | output |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
              "|---|\n", f);
        for (int id = 0; id < G_COUNT; id++) {
            const contender *x = &c[id];
            const double m = med_of(x), rss = peak_mib(x);
            fprintf(f, "| %s |", k_kinds[id].name);
            if (!x->n_ms) {
                fprintf(f, " – | – | – | – | – | – | – | – | – | – | – | – | – | – | – | %s |\n",
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
            bench_md_num(f, medges_per_s(ci, m), 4), bench_md_num(f, copy_share(ci, m), 4);
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
          "  --torch SCRIPT   add torch eager and torch CSR (1 thread) through SCRIPT\n"
          "                   (bench/torch_bench.py), run by $OSC_BENCH_PYTHON or /usr/bin/python3\n"
          "  --torch-off WHY  no torch; say why in the report\n"
          "  --no-rss         skip the peak-RSS child processes\n"
          "  --markdown FILE  also write the results as Markdown tables\n"
          "  --pins           load a case folder's dims file pins (--dim NAME=SIZE ...; the\n"
          "                   dynamic-axes exports) into every onnx-scatter contender\n"
          "                   (opts.dim_pins); else such a case loads with its symbolic dims\n"
          "Exit status: 0 when every run succeeded, onnx-scatter, the C loop and torch are within\n"
          "the tolerance of output_0.pb, and onnx-scatter 2t, unfused, recompute, index\n"
          "unchanged and inputs donated are bit-identical to 1t;\n"
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
    if (!strcmp(a, "--pins")) b->use_pins = 1, *takes = 0;
    else if (!strcmp(a, "--torch")) *bad = !(b->torch_script = v);
    else if (!strcmp(a, "--torch-off")) *bad = !(b->torch_off = v);
    else if (!strcmp(a, "--rtol")) *bad = parse_pos(v, &b->rtol);
    else if (!strcmp(a, "--atol")) *bad = parse_pos(v, &b->atol);
    else return 0;
    return 1;
}

/* torch's peak RSS: its own process (torch_bench.py rss DIR MODE) */
static int rss_argv(bench_run *r, int id, char *argv[8]) {
    bench *b = (bench *)r;
    if (!is_torch(id)) return 0;
    argv[0] = (char *)b->python, argv[1] = (char *)b->torch_script, argv[2] = "rss";
    argv[3] = r->bc.dir, argv[4] = (char *)k_kinds[id].id, argv[5] = NULL;
    return 1;
}

static const bench_spec k_spec = {
    .loops = "C loop",
    .all_ok = "onnx-scatter, the C loop and torch within tolerance of torch's output_0.pb; "
              "onnx-scatter 2t, unfused, recompute, index unchanged and inputs donated "
              "bit-identical to 1t",
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
    .rss_argv = rss_argv,
};

int main(int argc, char **argv) {
    static bench b;
    b.r.sp = &k_spec;
    b.rtol = 1e-4, b.atol = 1e-5;
    b.python = getenv("OSC_BENCH_PYTHON") ? getenv("OSC_BENCH_PYTHON") : "/usr/bin/python3";
    bench_opts_init(&b.r.o, 1, 5, 100, 60);
    return bench_main(argc, argv, &b.r);
}
