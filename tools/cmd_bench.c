/* cmd_bench.c: `onnx-scatter bench MODEL|CASE_DIR`: times runs, optionally per node (--profile). */
/* The model is loaded and the inputs bound once; each timed run is one osc_session_run call,
 * as an embedding program would make it. Times are wall clock (CLOCK_MONOTONIC). */
#include <errno.h>
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
    const char *profile_out; /* --profile-out FILE: a Chrome trace of the timed runs */
    cli_strlist filters;     /* -f GLOB (CASE_DIR mode) */
    cli_input_opts in;
    osc_options opts; /* limits; profile is set from the flag */
} bench_args;

/* One row of the profile: node `node` of graph m. The model's nodes have depth 0 and no parent;
 * a subgraph's nodes are those of attribute `attr` of row `parent`'s node, one level deeper.
 * Rows are in table order: each node, then the rows of its subgraphs. */
typedef struct prow {
    const osc_model *m;
    size_t node, parent, attr;
    int depth;
    char id[160]; /* "3", or "3.body.1" for node 1 of the body of node 3 */
} prow;
#define NO_PARENT SIZE_MAX

/* What each row's node read and wrote in one run, from the session's node hook (the model's
 * nodes; row_of: node -> row): per row NULL until seen, else n_in, n_out, then per tensor its
 * dtype (-1: an omitted input), rank and dims. */
typedef struct seen_shapes {
    int64_t **rec;
    size_t nodes;       /* rows */
    const size_t *row_of;
    size_t tops;        /* the model's nodes */
    int oom;
} seen_shapes;

/* Times of the timed runs (and when each started, ms after the first), per row when profiling
 * ([run * nodes + row], ns; a subgraph's node: summed over every time it ran in the run), and
 * the shapes of one run. */
typedef struct timings {
    double *run_ms, *run_t0;
    uint64_t *node_ns;
    size_t runs, nodes, cap; /* nodes: rows (the model's nodes and its subgraphs') */
    prow *rows;
    size_t *row_of;            /* the model's node i is row row_of[i] */
    const osc_session **sess;  /* scratch: the session running each row's node */
    seen_shapes shapes;
} timings;

static void seen_free(seen_shapes *ss) {
    for (size_t i = 0; ss->rec && i < ss->nodes; i++) free(ss->rec[i]);
    free(ss->rec);
    memset(ss, 0, sizeof *ss);
}

/* Record of n tensors (any of them NULL: omitted) into *rec (malloc'ed). */
static int64_t *shape_record(const osc_tensor *const *t, int32_t n_in, int32_t n_out) {
    size_t len = 2;
    for (int32_t k = 0; k < n_in + n_out; k++) len += 2 + (t[k] ? (size_t)t[k]->rank : 0);
    int64_t *r = malloc(len * sizeof *r), *p = r;
    if (!r) return NULL;
    *p++ = n_in, *p++ = n_out;
    for (int32_t k = 0; k < n_in + n_out; k++) {
        *p++ = t[k] ? t[k]->dtype : -1;
        *p++ = t[k] ? t[k]->rank : 0;
        for (int32_t d = 0; t[k] && d < t[k]->rank; d++) *p++ = t[k]->dims[d];
    }
    return r;
}

#define MAX_NODE_IO 4096 /* tensors of one node the profile records (more: its shapes are '?') */

static void on_node(void *ud, size_t node, const osc_tensor *const *in, int32_t n_in,
                    const osc_tensor *out, int32_t n_out) {
    seen_shapes *ss = ud;
    if (node >= ss->tops) return;
    node = ss->row_of[node];
    if (ss->rec[node] || n_in + n_out > MAX_NODE_IO) return;
    const osc_tensor *all[MAX_NODE_IO];
    for (int32_t k = 0; k < n_in; k++) all[k] = in[k];
    for (int32_t k = 0; k < n_out; k++) all[n_in + k] = &out[k];
    if (!(ss->rec[node] = shape_record(all, n_in, n_out))) ss->oom = 1;
}

#define UNKNOWN_SHAPE (-2) /* recorded dtype of a value whose shape the model does not know */

/* Nodes the hook did not see (folded at load: they never run; a subgraph's nodes) get the
 * shapes the model knows. */
static void shapes_from_model(const prow *rows, seen_shapes *ss) {
    for (size_t i = 0; i < ss->nodes; i++) {
        const osc_model *m = rows[i].m;
        osc_node_desc d;
        if (ss->rec[i] || osc_model_node(m, rows[i].node, &d) != OSC_OK ||
            d.n_inputs + d.n_outputs > MAX_NODE_IO)
            continue;
        osc_tensor ts[64], *all[MAX_NODE_IO];
        int32_t n = d.n_inputs + d.n_outputs, k;
        for (k = 0; k < n && k < 64; k++) {
            const char *name = k < d.n_inputs ? d.inputs[k] : d.outputs[k - d.n_inputs];
            osc_value_desc v;
            all[k] = name[0] ? &ts[k] : NULL;
            memset(&ts[k], 0, sizeof ts[k]);
            ts[k].dtype = UNKNOWN_SHAPE;
            if (!name[0] || osc_model_value(m, name, &v) != OSC_OK || v.rank < 0) continue;
            ts[k].dtype = v.dtype, ts[k].rank = v.rank;
            memcpy(ts[k].dims, v.dims, sizeof v.dims);
        }
        if (k == n && !(ss->rec[i] = shape_record((const osc_tensor *const *)all, d.n_inputs, d.n_outputs)))
            ss->oom = 1;
    }
}

/* Side 0: inputs, 1: outputs of node i: calls fn(ctx, k, dtype, rank, dims) per tensor (dtype
 * -1 for an omitted input, UNKNOWN_SHAPE for an unknown one); nothing when the node's shapes
 * are unknown. */
static int seen_each(const seen_shapes *ss, size_t i, int side,
                     void (*fn)(void *, int32_t, int64_t, int32_t, const int64_t *), void *ctx) {
    const int64_t *r = i < ss->nodes ? ss->rec[i] : NULL;
    if (!r) return 0;
    int32_t n_in = (int32_t)r[0], n_out = (int32_t)r[1];
    const int64_t *p = r + 2;
    for (int32_t k = 0; k < n_in + n_out; k++) {
        int64_t dtype = p[0];
        int32_t rank = (int32_t)p[1];
        if ((k >= n_in) == side) fn(ctx, side ? k - n_in : k, dtype, rank, p + 2);
        p += 2 + rank;
    }
    return 1;
}

typedef struct text_ctx {
    char *buf;
    size_t size, o;
} text_ctx;

static void text_one(void *c, int32_t k, int64_t dtype, int32_t rank, const int64_t *dims) {
    text_ctx *t = c;
    char shape[512] = "-";
    if (dtype == UNKNOWN_SHAPE) strcpy(shape, "?");
    else if (dtype >= 0) cli_format_shape(rank, dims, NULL, shape, sizeof shape);
    if (t->o < t->size)
        t->o += (size_t)snprintf(t->buf + t->o, t->size - t->o, "%s%s", k ? " " : "", shape);
}

/* "[2, 3] [1, 2] -> [2, 3]" for node i ('-': an omitted input; "?" when unknown). */
static void shapes_text(const seen_shapes *ss, size_t i, char *buf, size_t size) {
    text_ctx t = {buf, size, 0};
    buf[0] = '\0';
    if (!seen_each(ss, i, 0, text_one, &t)) {
        snprintf(buf, size, "?");
        return;
    }
    if (t.o < size) t.o += (size_t)snprintf(buf + t.o, size - t.o, " -> ");
    size_t before = t.o;
    seen_each(ss, i, 1, text_one, &t);
    if (t.o == before && t.o < size) snprintf(buf + t.o, size - t.o, "?");
}

static void json_one(void *c, int32_t k, int64_t dtype, int32_t rank, const int64_t *dims) {
    FILE *f = c;
    if (k) fputc(',', f);
    if (dtype < 0) fputs("null", f);
    else cli_json_shape(f, rank, dims, NULL);
}

/* ONNX Runtime's profiler spelling: [{"float":[2,3]}, ...] (omitted inputs left out) */
typedef struct trace_ctx {
    FILE *f;
    int any;
} trace_ctx;

static void trace_one(void *c, int32_t k, int64_t dtype, int32_t rank, const int64_t *dims) {
    trace_ctx *tc = c;
    FILE *f = tc->f;
    (void)k;
    if (dtype < 0) return;
    fputs(tc->any++ ? ",{" : "{", f);
    cli_json_str(f, osc_dtype_name((int32_t)dtype));
    fputc(':', f);
    cli_json_shape(f, rank, dims, NULL);
    fputc('}', f);
}

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

/* Profiling: --profile or --profile-out. */
static int profiling(const bench_args *a) { return a->profile || a->profile_out; }

/* Rows for the nodes of m and, after each, of its subgraphs (recursively); 1: out of memory. */
static int add_rows(timings *t, const osc_model *m, size_t parent, size_t attr, int depth) {
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        if (t->nodes == t->cap) {
            size_t cap = t->cap ? 2 * t->cap : 16;
            prow *r = realloc(t->rows, cap * sizeof *r);
            if (!r) return 1;
            t->rows = r, t->cap = cap;
        }
        size_t r = t->nodes++;
        prow *p = &t->rows[r];
        const prow *up = parent == NO_PARENT ? NULL : &t->rows[parent];
        osc_attr_desc a;
        *p = (prow){.m = m, .node = i, .parent = parent, .attr = attr, .depth = depth};
        if (!up)
            snprintf(p->id, sizeof p->id, "%zu", i);
        else if (osc_model_node_attr_at(up->m, up->node, attr, &a) == OSC_OK &&
                 snprintf(p->id, sizeof p->id, "%s.%s.%zu", up->id, a.name, i) >= (int)sizeof p->id)
            strcpy(p->id + sizeof p->id - 4, "..."); /* deep nesting, long names: cut */
        for (size_t k = 0; k < osc_model_node_attr_count(m, i); k++) {
            const osc_model *sub = osc_model_node_subgraph(m, i, k);
            if (sub && add_rows(t, sub, r, k, depth + 1)) return 1;
        }
    }
    return 0;
}

/* The rows' times in run r: each row's node in the session running it (a subgraph's session
 * within its parent row's; none when the subgraph never ran in s). */
static void record_ns(const osc_session *s, timings *t, size_t run) {
    for (size_t i = 0; i < t->nodes; i++) {
        const prow *p = &t->rows[i];
        const osc_session *up = p->parent == NO_PARENT ? NULL : t->sess[p->parent];
        t->sess[i] = p->parent == NO_PARENT ? s
                     : up ? osc_session_node_subgraph(up, t->rows[p->parent].node, p->attr)
                          : NULL;
        t->node_ns[run * t->nodes + i] = t->sess[i] ? osc_session_node_ns(t->sess[i], p->node) : 0;
    }
}

/* Warmup runs, then the timed ones. When profiling, the first run (warmup or timed) also
 * records the shapes every node had (the inputs are the same at every run, so are the shapes;
 * the hook is off during the other runs). On a failed run: CLI_FAIL with the message in msg. */
static int time_runs(const osc_model *m, osc_session *s, const bench_args *a, timings *t, char *msg,
                     size_t msg_size) {
    const size_t tops = osc_model_node_count(m);
    t->runs = (size_t)a->runs;
    t->run_ms = calloc(t->runs, sizeof *t->run_ms);
    t->run_t0 = calloc(t->runs, sizeof *t->run_t0);
    int oom = !t->run_ms || !t->run_t0 || (profiling(a) && add_rows(t, m, NO_PARENT, 0, 0));
    if (!oom && profiling(a)) {
        const size_t rows = t->nodes ? t->nodes : 1;
        t->node_ns = calloc(t->runs * rows, sizeof *t->node_ns);
        t->sess = calloc(rows, sizeof *t->sess);
        t->row_of = calloc(tops ? tops : 1, sizeof *t->row_of);
        t->shapes.rec = calloc(rows, sizeof *t->shapes.rec);
        oom = !t->node_ns || !t->sess || !t->row_of || !t->shapes.rec;
    }
    if (oom) {
        snprintf(msg, msg_size, "out of memory");
        return CLI_FAIL;
    }
    for (size_t i = 0; i < t->nodes; i++)
        if (t->rows[i].depth == 0) t->row_of[t->rows[i].node] = i;
    t->shapes.nodes = t->nodes, t->shapes.row_of = t->row_of;
    t->shapes.tops = profiling(a) ? tops : 0;
    if (profiling(a)) osc_session_set_node_hook(s, on_node, &t->shapes);
    double first = 0;
    for (int64_t w = 0; w < a->warmup + a->runs; w++) {
        double t0 = now_ms();
        if (osc_session_run(s) != OSC_OK) {
            snprintf(msg, msg_size, "run failed: %s", osc_session_error(s));
            return CLI_FAIL;
        }
        double ms = now_ms() - t0;
        osc_session_set_node_hook(s, NULL, NULL);
        if (w < a->warmup) continue;
        size_t r = (size_t)(w - a->warmup);
        if (r == 0) first = t0;
        t->run_ms[r] = ms;
        t->run_t0[r] = t0 - first;
        if (profiling(a)) record_ns(s, t, r);
    }
    if (profiling(a)) shapes_from_model(t->rows, &t->shapes);
    if (t->shapes.oom) {
        snprintf(msg, msg_size, "out of memory");
        return CLI_FAIL;
    }
    return CLI_OK;
}

static void timings_free(timings *t) {
    free(t->run_ms);
    free(t->run_t0);
    free(t->node_ns);
    free(t->rows);
    free(t->row_of);
    free(t->sess);
    seen_free(&t->shapes);
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

static void print_profile(const timings *tm, const stats *st, size_t runs) {
    const size_t n = tm->nodes;
    int wid = 3, wname = 4, wop = 2, wshape = 6;
    char shapes[1024], t[32], label[1024], esc[1024];
    for (size_t i = 0; i < n; i++) {
        const prow *p = &tm->rows[i];
        osc_node_desc d;
        if (osc_model_node(p->m, p->node, &d) != OSC_OK) continue;
        int li = (int)strlen(cli_esc(p->id, esc, sizeof esc));
        int ln = (int)strlen(cli_node_label(&d, p->node, label, sizeof label));
        int lo = 2 * p->depth + (int)strlen(cli_esc(d.op_type, esc, sizeof esc));
        wid = li > wid ? li : wid;
        wname = ln > wname ? ln : wname;
        wop = lo > wop ? lo : wop;
        shapes_text(&tm->shapes, i, shapes, sizeof shapes);
        wshape = (int)strlen(shapes) > wshape ? (int)strlen(shapes) : wshape;
    }
    if (wid > 40) wid = 40;
    if (wname > 24) wname = 24;
    if (wshape > 60) wshape = 60;
    printf("\nper node (median of %zu runs; share of the median run):\n", runs);
    printf("  %*s  %-*s  %-*s  %6s  %-*s  %9s  %7s\n", wid, "#", wname, "node", wop, "op", "kernel",
           wshape, "shapes", "median", "share");
    /* the shares' whole: the median run, or the nodes' medians summed when that is more (they
     * come from different runs), so that the shares add up to 100% */
    double whole = 0;
    for (size_t i = 0; i < n; i++) {
        osc_node_desc d;
        if (!tm->rows[i].depth && osc_model_node(tm->rows[i].m, tm->rows[i].node, &d) == OSC_OK &&
            !d.folded)
            whole += st->node_ms[i];
    }
    if (whole < st->median) whole = st->median;
    double sum = 0;
    size_t folded = 0, nested = 0;
    for (size_t i = 0; i < n; i++) {
        const prow *p = &tm->rows[i];
        osc_node_desc d;
        if (osc_model_node(p->m, p->node, &d) != OSC_OK) continue;
        nested += p->depth > 0;
        shapes_text(&tm->shapes, i, shapes, sizeof shapes);
        if ((int)strlen(shapes) > wshape) strcpy(shapes + wshape - 3, "...");
        /* names from the model, escaped (and cut to the column at a character boundary) */
        char id[64], name[64], op[1024];
        cli_text_escape(p->id, strlen(p->id), id, (size_t)wid + 1);
        cli_node_label(&d, p->node, label, sizeof label);
        cli_text_escape(label, strlen(label), name, (size_t)wname + 1);
        snprintf(op, sizeof op, "%*s%s", 2 * p->depth, "", cli_esc(d.op_type, esc, sizeof esc));
        printf("  %*s  %-*s  %-*s  %6lld  %-*s  ", wid, id, wname, name, wop, op,
               (long long)d.since_version, wshape, shapes);
        if (d.folded) {
            folded++;
            printf("%9s  %7s\n", "folded", "-");
            continue;
        }
        if (p->depth && st->node_ms[i] == 0) {
            printf("%9s  %7s\n", "not run", "-");
            continue;
        }
        fmt_time(st->node_ms[i], t, sizeof t);
        const double share = whole > 0 ? 100 * st->node_ms[i] / whole : 0.0;
        if (p->depth) { /* within its node's time: in parentheses, out of the sum */
            printf("%9s  (%4.1f%%)\n", t, share);
            continue;
        }
        sum += st->node_ms[i];
        printf("%9s  %6.1f%%\n", t, share);
    }
    int any_fused = 0;
    for (size_t i = 0; i < n; i++) {
        const prow *p = &tm->rows[i];
        osc_node_desc d;
        char fused[2048];
        if (osc_model_node(p->m, p->node, &d) == OSC_OK && d.n_fused) {
            printf("  %*s  fused from: %s\n", wid, cli_esc(p->id, esc, sizeof esc),
                   cli_fused_str(&d, fused, sizeof fused));
            any_fused = 1;
        }
    }
    double rest = st->median - sum > 0 ? st->median - sum : 0;
    fmt_time(rest, t, sizeof t);
    printf("  %*s  %-*s  %9s  %6.1f%%\n", wid, "", wname + wop + wshape + 12,
           "(outside the nodes: binding, shape checks, planning)", t,
           whole > 0 ? 100 * rest / whole : 0.0);
    printf("legend:\n"
           "  #       the node's index, as 'info' numbers it; a subgraph's node is\n"
           "          NODE.ATTRIBUTE.INDEX (node 1 of the body of node 3: 3.body.1)\n"
           "  node    its name; #INDEX OP when the model leaves it unnamed\n"
           "  op      the op type, indented two spaces per subgraph level; domain osc ops\n"
           "          (GatherScatter, RowScatter, RowGather) are fused nodes: 'fused from'\n"
           "          lists the model's nodes each replaced\n"
           "  kernel  the version of the kernel the node runs (the op's since_version)\n"
           "  shapes  the shapes it read -> the shapes it wrote, as they were in the runs\n"
           "          ('-': an omitted optional input; '?': not known; a subgraph's nodes:\n"
           "          the shapes load inferred)\n"
           "  median  its median time over the timed runs; a subgraph's node: the median of\n"
           "          its time summed over every time the subgraph ran in a run (every loop\n"
           "          iteration). A control-flow node's (If, Loop, Scan) time includes the\n"
           "          rows of its subgraphs listed under it\n"
           "  share   that time as a share of the median run (of the nodes' medians\n"
           "          summed, when that is more: they come from different runs); in\n"
           "          parentheses for a subgraph's node, part of its control-flow node's\n"
           "          share\n"
           "  folded  computed once at load from constants (a shape subgraph, a Constant):\n"
           "          it never runs, so it takes no time (%zu of %zu node%s%s)\n",
           folded, n, n == 1 ? "" : "s", any_fused ? "" : "; no node was fused");
    if (nested)
        printf("  not run a subgraph's node that did not run in most timed runs (the branch of\n"
               "          an If not taken)\n"
               "  (%zu of the %zu nodes are in subgraphs; --profile-out traces the model's own\n"
               "  nodes only)\n", nested, n);
}

/* Rows from *at on that make up one graph (the model's, or a subgraph of row parent), as a JSON
 * array of node objects, each with the "subgraphs" of its node ([] for most nodes). */
static void json_rows(const timings *tm, const stats *st, size_t *at, size_t parent) {
    fputc('[', stdout);
    const size_t attr = *at < tm->nodes ? tm->rows[*at].attr : 0;
    for (int first = 1; *at < tm->nodes && tm->rows[*at].parent == parent &&
                        tm->rows[*at].attr == attr; first = 0) {
        const size_t i = (*at)++;
        const prow *p = &tm->rows[i];
        osc_node_desc d;
        if (osc_model_node(p->m, p->node, &d) != OSC_OK) continue;
        printf("%s{\"index\":%zu,\"name\":", first ? "" : ",", p->node);
        cli_json_str(stdout, d.name);
        fputs(",\"op\":", stdout);
        cli_json_str(stdout, d.op_type);
        printf(",\"kernel_version\":%lld,\"folded\":%s", (long long)d.since_version,
               d.folded ? "true" : "false");
        for (int side = 0; side < 2; side++) {
            fputs(side ? ",\"output_shapes\":" : ",\"input_shapes\":", stdout);
            fputc('[', stdout);
            if (!seen_each(&tm->shapes, i, side, json_one, stdout))
                for (int32_t k = 0; k < (side ? d.n_outputs : d.n_inputs); k++)
                    fputs(k ? ",null" : "null", stdout);
            fputc(']', stdout);
        }
        cli_json_fused(stdout, &d);
        printf(",\"median_ms\":%.6f,\"share\":%.4f", d.folded ? 0.0 : st->node_ms[i],
               st->median > 0 && !d.folded ? st->node_ms[i] / st->median : 0.0);
        fputs(",\"subgraphs\":[", stdout);
        for (int any = 0; *at < tm->nodes && tm->rows[*at].parent == i; any = 1) {
            osc_attr_desc a = {0};
            fputs(any ? ",{\"attribute\":" : "{\"attribute\":", stdout);
            osc_model_node_attr_at(p->m, p->node, tm->rows[*at].attr, &a);
            cli_json_str(stdout, a.name);
            fputs(",\"nodes\":", stdout);
            json_rows(tm, st, at, i);
            fputc('}', stdout);
        }
        fputs("]}", stdout);
    }
    fputc(']', stdout);
}

static void json_profile(const timings *tm, const stats *st) {
    size_t at = 0;
    fputs(",\"nodes\":", stdout);
    json_rows(tm, st, &at, NO_PARENT);
}

/* --profile-out FILE: the timed runs as a Chrome trace, the JSON array of trace events that
 * ONNX Runtime's profiler writes (chrome://tracing, Perfetto): one complete event ("ph":"X")
 * per run (cat "Session") and per node that ran in it (cat "Node"), times in microseconds from
 * the first timed run. The library times each node but not when it started: nodes are laid end
 * to end from their run's start, so what the run spent outside them shows as a gap at its end.
 * Only the model's own nodes: a control-flow node's event covers its subgraphs' time. */
static int write_trace(const char *file, const char *model, const osc_model *m, const timings *tm,
                       int32_t threads) {
    FILE *f = fopen(file, "w");
    if (!f) return cli_error("--profile-out '%s': %s", file, strerror(errno));
    fputc('[', f);
    for (size_t r = 0; r < tm->runs; r++) {
        double ts = tm->run_t0[r] * 1e3;
        fprintf(f, "%s\n{\"cat\":\"Session\",\"pid\":1,\"tid\":0,\"ph\":\"X\",\"ts\":%.3f,"
                "\"dur\":%.3f,\"name\":\"run %zu\",\"args\":{\"model\":", r ? "," : "", ts,
                tm->run_ms[r] * 1e3, r);
        cli_json_str(f, model);
        fprintf(f, ",\"threads\":%d}}", (int)threads);
        for (size_t row = 0; row < tm->nodes; row++) { /* the model's nodes (depth 0) only */
            const size_t i = tm->rows[row].node;
            osc_node_desc d;
            char label[1024];
            if (tm->rows[row].depth || osc_model_node(m, i, &d) != OSC_OK || d.folded) continue;
            double dur = (double)tm->node_ns[r * tm->nodes + row] / 1e3;
            fprintf(f, ",\n{\"cat\":\"Node\",\"pid\":1,\"tid\":0,\"ph\":\"X\",\"ts\":%.3f,"
                    "\"dur\":%.3f,\"name\":", ts, dur);
            cli_json_str(f, d.name && d.name[0] ? d.name : cli_node_label(&d, i, label, sizeof label));
            fputs(",\"args\":{\"op_name\":", f);
            cli_json_str(f, d.op_type);
            fprintf(f, ",\"node_index\":%zu,\"kernel_version\":%lld,\"input_type_shape\":[", i,
                    (long long)d.since_version);
            trace_ctx tin = {f, 0}, tout = {f, 0};
            seen_each(&tm->shapes, row, 0, trace_one, &tin);
            fputs("],\"output_type_shape\":[", f);
            seen_each(&tm->shapes, row, 1, trace_one, &tout);
            fputs("]}}", f);
            ts += dur;
        }
    }
    fputs("\n]\n", f);
    if (fclose(f) != 0) return cli_error("--profile-out '%s': %s", file, strerror(errno));
    return CLI_OK;
}

/* ---- MODEL mode ---- */

static int bench_model(const bench_args *a) {
    const char *path = a->targets.items[0];
    osc_model *m = NULL;
    osc_session *s = NULL;
    cli_inputs in = {0};
    timings t = {0};
    stats st = {0};
    osc_options opts = a->opts;
    char msg[1024];
    opts.profile = profiling(a);
    osc_dim_pin *pins = calloc(a->in.n_pins + 1, sizeof *pins);
    int lrc = pins ? cli_load_pinned(path, &opts, &a->in, pins, "bench", &m)
                   : cli_error("out of memory");
    if (lrc != CLI_OK) {
        free(pins);
        return lrc;
    }
    cli_input_opts io = a->in;
    io.model_path = path, io.model_opts = opts;
    int rc = cli_inputs_load(m, &io, cli_byte_limit(&opts), "bench", &in);
    if (rc == CLI_OK) rc = osc_session_create(m, &s) == OSC_OK ? CLI_OK : cli_error("out of memory");
    if (rc == CLI_OK) rc = cli_inputs_bind(m, s, &in);
    if (rc == CLI_OK && time_runs(m, s, a, &t, msg, sizeof msg) != CLI_OK) rc = cli_error("%s", msg);
    if (rc == CLI_OK && summarise(&t, &st)) rc = cli_error("out of memory");
    if (rc == CLI_OK && a->profile_out)
        rc = write_trace(a->profile_out, path, m, &t, osc_session_threads(s));
    if (rc == CLI_OK && a->json) {
        fputs("{\"model\":", stdout);
        cli_json_str(stdout, path);
        printf(",\"impl\":\"onnx-scatter\",\"threads\":%d,\"threads_requested\":%d,\"runs\":%lld,"
               "\"warmup\":%lld,\"median_ms\":%.6f,\"min_ms\":%.6f,\"max_ms\":%.6f",
               (int)osc_session_threads(s), (int)requested(a), (long long)a->runs,
               (long long)a->warmup, st.median, st.min, st.max);
        if (in.random) printf(",\"seed\":%llu", (unsigned long long)in.seed);
        if (a->profile_out) fputs(",\"profile_out\":", stdout), cli_json_str(stdout, a->profile_out);
        cli_json_warnings(stdout, m);
        if (a->profile) json_profile(&t, &st);
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
        if (a->profile) print_profile(&t, &st, t.runs);
        if (a->profile_out) {
            fputs("trace of the timed runs: ", stdout);
            cli_text_put(stdout, a->profile_out);
            fputs(" (Chrome trace events: open in ui.perfetto.dev or chrome://tracing)\n", stdout);
        }
    }
    if (rc == CLI_OK) cli_print_warnings(m, NULL);
    free(st.node_ms);
    timings_free(&t);
    if (s) osc_session_free(s);
    cli_inputs_free(&in);
    osc_model_free(m);
    free(pins);
    return rc;
}

/* ---- CASE_DIR mode: one JSON line per node-test folder ---- */

/* bench_case's result for a model using an op (version) this build lacks: SKIP, as in test. */
#define CASE_SKIP 3

/* Times one case and compares the last run's outputs with output_K.pb. */
static int bench_case(const bench_args *a, const char *dir, char *msg, size_t msg_size) {
    char name[256];
    cli_strlist sets = {0};
    cli_pbset in = {0}, out = {0};
    osc_model *m = NULL;
    osc_session *s = NULL;
    timings t = {0};
    stats st = {0};
    osc_options opts = a->opts;
    double err = 0;
    char mismatch[1024] = "";
    opts.profile = profiling(a);
    cli_basename(dir, name, sizeof name);
    char *model = cli_join(dir, "model.onnx");
    osc_status ost = model ? osc_model_load_file(model, &opts, &m, msg, msg_size) : OSC_ERR_NOMEM;
    free(model);
    int rc = ost == OSC_OK ? CLI_OK : CLI_FAIL;
    /* as test does: what --strict refuses is the model's fault, not a missing op */
    if (ost == OSC_ERR_UNSUPPORTED && !(opts.strict && strstr(msg, "strict mode"))) rc = CASE_SKIP;
    if (rc == CLI_OK && (cli_find_data_sets(dir, &sets, msg, msg_size) || !sets.count)) {
        if (!sets.count) snprintf(msg, msg_size, "no test_data_set_N folder");
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK &&
        (cli_pbset_load(sets.items[0], "input", m, cli_byte_limit(&opts), &in, msg, msg_size) ||
         cli_pbset_load(sets.items[0], "output", m, cli_byte_limit(&opts), &out, msg, msg_size)))
        rc = CLI_FAIL;
    if (rc == CLI_OK && osc_session_create(m, &s) != OSC_OK) {
        snprintf(msg, msg_size, "out of memory");
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK && cli_pbset_bind(m, s, &in, msg, msg_size)) rc = CLI_FAIL;
    if (rc == CLI_OK) rc = time_runs(m, s, a, &t, msg, msg_size);
    if (rc == CLI_OK && summarise(&t, &st)) {
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
        if (a->profile) json_profile(&t, &st);
    } else {
        fputs(rc == CASE_SKIP ? ",\"skip\":" : ",\"error\":", stdout);
        cli_json_str(stdout, msg);
    }
    if (m) cli_json_warnings(stdout, m);
    else fputs(",\"warnings\":[]", stdout);
    fputs("}\n", stdout);
    fflush(stdout);
    if (m) cli_print_warnings(m, name);
    free(st.node_ms);
    timings_free(&t);
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
        if (cli_find_tests(a->targets.items[i], 0, &dirs, msg, sizeof msg)) rc = cli_error("%s", msg);
    if (rc == CLI_OK && a->filters.count) {
        cli_filter_tests(&a->filters, &dirs);
        if (!dirs.count)
            rc = cli_error("no node-test folder matches --filter '%s'%s: check the pattern "
                           "(it matches folder names, e.g. 'test_scatter*')",
                           a->filters.items[0], a->filters.count > 1 ? " or the others" : "");
    }
    cli_sort_tests(&dirs);
    for (size_t i = 0; i < dirs.count && rc == CLI_OK; i++) {
        int one = bench_case(a, dirs.items[i], msg, sizeof msg);
        if (one == CLI_OK) continue;
        /* stdout stays one JSON line per case: the SKIP (as test prints it) and the errors
         * go to stderr */
        char name[256], esc[1024];
        cli_basename(dirs.items[i], name, sizeof name);
        if (one == CASE_SKIP) fprintf(stderr, "SKIP %s: ", cli_esc(name, esc, sizeof esc));
        else fprintf(stderr, "onnx-scatter: bench %s: ", cli_esc(name, esc, sizeof esc));
        cli_text_put(stderr, msg);
        fputc('\n', stderr);
        if (one != CASE_SKIP) failed = 1;
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
        } else if ((v = cli_opt_value(argc, argv, &i, "--profile-out", NULL)) != NULL) {
            if (!v[0]) return cli_usage_error("bench", "--profile-out wants a FILE");
            a->profile_out = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--filter", "-f")) != NULL) {
            if (!v[0]) return cli_usage_error("bench", "--filter wants a GLOB, e.g. 'test_scatter*'");
            if (cli_strlist_push(&a->filters, v)) return cli_error("out of memory");
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
    if (a->cases && (a->in.names.count || a->in.random || a->in.dims.count || a->in.save_dir))
        return cli_usage_error("bench", "a node-test folder brings its own inputs: drop --input, "
                               "--random, --dim and --save-inputs, or give its model.onnx "
                               "instead");
    if (a->cases && a->profile_out)
        return cli_usage_error("bench", "--profile-out traces one MODEL; give its model.onnx "
                               "instead of the node-test folder");
    if (!a->cases && a->filters.count)
        return cli_usage_error("bench", "--filter picks node-test folders: give CASE_DIRs, or "
                               "drop it");
    return CLI_OK;
}

int cmd_bench(int argc, char **argv) {
    if (cli_help_asked(argc, argv)) {
        usage_bench(stdout);
        return CLI_OK;
    }
    bench_args a = {.runs = DEFAULT_RUNS, .warmup = DEFAULT_WARMUP};
    osc_options_init(&a.opts);
    int rc = parse_args(argc, argv, &a);
    if (rc == CLI_OK) rc = a.cases ? bench_cases(&a) : bench_model(&a);
    cli_strlist_free(&a.targets);
    cli_strlist_free(&a.filters);
    cli_input_opts_free(&a.in);
    return rc;
}
