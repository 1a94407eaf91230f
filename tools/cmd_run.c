/* cmd_run.c: `onnx-scatter run MODEL ...`: binds inputs, runs once, prints and writes outputs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"

/* Tensors with more elements than this are summarised unless --full (numpy's threshold). */
#define PRINT_MAX_ELEMS 1000

typedef struct run_args {
    const char *model, *out_dir, *format; /* format: "npy" or "pb" */
    int full, json, format_given;
    const char *dump_dir;  /* --dump DIR */
    cli_strlist only;      /* -O NAME: the outputs to print and write (none: all) */
    int *want;             /* per model output: selected (from only) */
    cli_input_opts in;
    osc_options opts;
} run_args;

static int parse_args(int argc, char **argv, run_args *a) {
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc = cli_input_option(argc, argv, &i, &a->in, "run");
        if (rc < 0) rc = cli_runtime_option(argc, argv, &i, &a->opts, "run");
        if (rc >= 0) {
            if (rc != CLI_OK) return rc;
        } else if ((v = cli_opt_value(argc, argv, &i, "--output-dir", "-o")) != NULL) {
            if (!v[0]) return cli_usage_error("run", "--output-dir wants a folder");
            a->out_dir = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--format", NULL)) != NULL) {
            if (strcmp(v, "npy") && strcmp(v, "pb"))
                return cli_usage_error("run", "--format wants npy or pb, got '%s'", v);
            a->format = v, a->format_given = 1;
        } else if ((v = cli_opt_value(argc, argv, &i, "--output", "-O")) != NULL) {
            if (!v[0]) return cli_usage_error("run", "-O wants an output NAME");
            if (cli_strlist_push(&a->only, v)) return cli_error("out of memory");
        } else if ((v = cli_opt_value(argc, argv, &i, "--dump", NULL)) != NULL) {
            if (!v[0]) return cli_usage_error("run", "--dump wants a folder");
            a->dump_dir = v;
        } else if (!strcmp(argv[i], "--full")) {
            a->full = 1;
        } else if (!strcmp(argv[i], "--json")) {
            a->json = 1;
        } else if (argv[i][0] == '-' && argv[i][1] && !cli_looks_like_literal(argv[i])) {
            return cli_usage_error("run", "unknown option '%s'", argv[i]);
        } else if (!a->model) {
            a->model = argv[i];
        } else if (cli_strlist_push(&a->in.pos, argv[i])) {
            return cli_error("out of memory");
        }
    }
    if (!a->model) return cli_usage_error("run", "missing MODEL");
    if (a->format_given && !a->out_dir)
        return cli_usage_error("run", "--format %s sets the format of the files -o DIR writes: "
                               "add -o DIR (printed outputs have no file format)", a->format);
    /* the dump names the values of the graph as written (fusion would hide some) */
    if (a->dump_dir) a->opts.no_fusion = 1;
    return CLI_OK;
}

/* -O NAME: each must be an output of the model; marks a->want. */
static int select_outputs(const osc_model *m, run_args *a) {
    size_t n = osc_model_output_count(m);
    osc_value_desc d;
    a->want = calloc(n ? n : 1, sizeof *a->want);
    if (!a->want) return cli_error("out of memory");
    for (size_t k = 0; k < n; k++) a->want[k] = a->only.count == 0;
    for (size_t j = 0; j < a->only.count; j++) {
        size_t k = 0;
        while (k < n && !(osc_model_output(m, k, &d) == OSC_OK && !strcmp(d.name, a->only.items[j])))
            k++;
        if (k < n) {
            a->want[k] = 1;
            continue;
        }
        char list[512] = "";
        for (size_t q = 0; q < n && osc_model_output(m, q, &d) == OSC_OK; q++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", q ? ", " : "", d.name);
        return cli_usage_error("run", "-O %s: the model has no output '%s' (outputs: %s)",
                               a->only.items[j], a->only.items[j], list);
    }
    return CLI_OK;
}

/* ---- --dump DIR: every value the run computes, as it is computed (the node hook) ---- */

typedef struct dumper {
    const osc_model *m;
    cli_outset set;
    cli_nameset files;   /* file stems used so far (cli_file_stem: one file name gets ~2) */
    FILE *index;         /* DIR/dump.txt, written to a string first */
    char *index_buf;
    size_t index_len;
    int failed;
    char msg[1024];
} dumper;

/* Writes value `name` (computed by node i) as NAME.npy, or NAME.pb when numpy cannot hold it. */
static void dump_value(dumper *dp, size_t i, const char *name, const osc_tensor *t) {
    char file[1024], note[256], label[512], shape[256], why[512];
    if (dp->failed || !name[0]) return;
    if (cli_file_stem(&dp->files, name, file, sizeof file - 4, why, sizeof why)) {
        snprintf(dp->msg, sizeof dp->msg, "value '%.60s%s': %s", name,
                 strlen(name) > 60 ? "..." : "", why);
        dp->failed = 1;
        return;
    }
    int npy = cli_npy_holds(t, note, sizeof note);
    strcat(file, npy ? ".npy" : ".pb");
    void *buf = NULL;
    size_t len = 0;
    if (npy ? cli_npy_encode(t, &buf, &len, dp->msg, sizeof dp->msg) != 0
            : osc_value_encode_pb(t, name, &buf, &len, dp->msg, sizeof dp->msg) != OSC_OK) {
        dp->failed = 1;
        free(buf);
        return;
    }
    if (cli_outset_add(&dp->set, file, buf, len, dp->msg, sizeof dp->msg)) dp->failed = 1;
    free(buf);
    osc_node_desc nd;
    if (osc_model_node(dp->m, i, &nd) != OSC_OK) return;
    cli_format_shape(t->rank, t->dims, NULL, shape, sizeof shape);
    fprintf(dp->index, "%s\t", file);
    cli_text_put(dp->index, name);
    fprintf(dp->index, "\t%s %s\tnode %s (%s)%s\n", osc_dtype_name(t->dtype), shape,
            cli_node_label(&nd, i, label, sizeof label), nd.op_type, nd.folded ? ", folded at load" : "");
}

static void dump_hook(void *ud, size_t node, const osc_tensor *const *in, int32_t n_in,
                      const osc_tensor *out, int32_t n_out) {
    dumper *dp = ud;
    osc_node_desc nd;
    (void)in, (void)n_in;
    if (osc_model_node(dp->m, node, &nd) != OSC_OK) return;
    for (int32_t k = 0; k < n_out && k < nd.n_outputs; k++) dump_value(dp, node, nd.outputs[k], &out[k]);
}

/* File name of output `name` in DIR: its stem (cli_file_stem: '/' becomes '_', ~2 when an
 * earlier output has that stem) and .npy, or .pb. A tensor numpy cannot hold (bfloat16,
 * float8, 4-bit, non-UTF-8 strings) goes to .pb: *npy says which, and note why. */
static int output_file(const run_args *a, cli_nameset *taken, const char *name,
                       const osc_tensor *t, char *file, size_t size, int *npy, char *note,
                       size_t note_size) {
    char why[512];
    if (cli_file_stem(taken, name, file, size - 4, why, sizeof why))
        return cli_error("-o %s: output '%.60s%s': %s; nothing was written", a->out_dir, name,
                         strlen(name) > 60 ? "..." : "", why);
    note[0] = '\0';
    *npy = strcmp(a->format, "npy") == 0 && cli_npy_holds(t, note, note_size);
    strcat(file, *npy ? ".npy" : ".pb");
    return CLI_OK;
}

/* Writes every output to DIR, all or none: each file is written to a temporary file in DIR
 * (its name checked: cli_outset_add), and only when all are written are they renamed into
 * place. Two outputs of one file name get ~2 (a note says so). The paths written are left in
 * paths. */
static int write_outputs(const osc_model *m, const run_args *a, const osc_tensor *outs,
                         char (*paths)[1024]) {
    size_t n = osc_model_output_count(m);
    char msg[1024], esc[512];
    char(*files)[1024] = calloc(n ? n : 1, sizeof *files);
    char(*notes)[256] = calloc(n ? n : 1, sizeof *notes);
    int *npy = calloc(n ? n : 1, sizeof *npy);
    cli_nameset taken = {0};
    osc_value_desc d;
    int rc = files && notes && npy ? CLI_OK : cli_error("out of memory");
    for (size_t k = 0; k < n && rc == CLI_OK; k++) {
        if (!a->want[k]) continue;
        osc_model_output(m, k, &d);
        rc = output_file(a, &taken, d.name, &outs[k], files[k], sizeof files[k], &npy[k],
                         notes[k], sizeof notes[k]);
    }
    cli_nameset_free(&taken);
    cli_outset set;
    if (rc == CLI_OK && cli_outset_open(&set, a->out_dir, msg, sizeof msg)) {
        rc = cli_error("%s", msg);
        cli_outset_close(&set);
    } else if (rc == CLI_OK) {
        for (size_t k = 0; k < n && rc == CLI_OK; k++) {
            void *buf = NULL;
            size_t len = 0;
            if (!a->want[k]) continue;
            osc_model_output(m, k, &d);
            if (npy[k] ? cli_npy_encode(&outs[k], &buf, &len, msg, sizeof msg) != 0
                       : osc_value_encode_pb(&outs[k], d.name, &buf, &len, msg, sizeof msg) != OSC_OK)
                rc = cli_error("cannot encode output '%s': %s", d.name, msg);
            else if (cli_outset_add(&set, files[k], buf, len, msg, sizeof msg))
                rc = cli_error("output '%s': %s; nothing was written", d.name, msg);
            free(buf);
            char *p = cli_join(a->out_dir, files[k]);
            snprintf(paths[k], sizeof paths[k], "%s", p ? p : files[k]);
            free(p);
        }
        if (rc == CLI_OK && cli_outset_commit(&set, msg, sizeof msg)) rc = cli_error("%s", msg);
        cli_outset_close(&set);
    }
    for (size_t k = 0; k < n && rc == CLI_OK; k++) {
        if (!a->want[k]) continue;
        osc_model_output(m, k, &d);
        if (notes[k][0])
            fprintf(stderr, "onnx-scatter: note: output '%s' is written as .pb: %s\n",
                    cli_esc(d.name, esc, sizeof esc), notes[k]);
        cli_note_renamed("output", d.name, files[k]);
    }
    free(files);
    free(notes);
    free(npy);
    return rc;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* {"model","threads","run_ms"[,"seed"],"inputs":[..],"outputs":[{name,dtype,shape,data}]
 *  [,"files":[..]]} on one line. */
static void print_json(const osc_model *m, const run_args *a, const cli_inputs *in,
                       const osc_tensor *outs, const char (*paths)[1024], double ms,
                       int32_t threads) {
    size_t n = osc_model_output_count(m);
    fputs("{\"model\":", stdout);
    cli_json_str(stdout, a->model);
    printf(",\"threads\":%d,\"run_ms\":%.6f", (int)threads, ms);
    if (in->random) printf(",\"seed\":%llu", (unsigned long long)in->seed);
    fputs(",\"inputs\":", stdout);
    cli_inputs_json(stdout, m, in);
    cli_json_warnings(stdout, m);
    fputs(",\"outputs\":[", stdout);
    int first = 1;
    for (size_t k = 0; k < n; k++) {
        osc_value_desc d;
        if (!a->want[k]) continue;
        osc_model_output(m, k, &d);
        if (!first) fputc(',', stdout);
        first = 0;
        cli_json_tensor(stdout, d.name, &outs[k]);
    }
    fputs("]", stdout);
    if (a->out_dir) {
        fputs(",\"files\":[", stdout);
        first = 1;
        for (size_t k = 0; k < n; k++) {
            if (!a->want[k]) continue;
            if (!first) fputc(',', stdout);
            first = 0;
            cli_json_str(stdout, paths[k]);
        }
        fputs("]", stdout);
    }
    if (a->dump_dir) fputs(",\"dump\":", stdout), cli_json_str(stdout, a->dump_dir);
    fputs("}\n", stdout);
}

/* Starts the dump: the folder, the index, the hook on s. */
static int dump_open(dumper *dp, const char *dir, osc_session *s) {
    if (cli_outset_open(&dp->set, dir, dp->msg, sizeof dp->msg)) {
        cli_outset_close(&dp->set);
        return cli_error("--dump %s: %s", dir, dp->msg);
    }
    dp->index = open_memstream(&dp->index_buf, &dp->index_len);
    if (!dp->index) {
        cli_outset_close(&dp->set);
        return cli_error("out of memory");
    }
    fputs("# file\tvalue\tdtype [shape]\tnode (op)\n", dp->index);
    osc_session_set_node_hook(s, dump_hook, dp);
    return CLI_OK;
}

/* Adds the values folded at load (constants, computed before the run), the index dump.txt,
 * and renames everything into place. A folded value whose bytes the load gave back (a
 * constant no node that runs reads: osc_model_value_data) has no data to write: the index
 * lists it as left out, and a note says how many. A note on stderr says how much was written
 * (after a failed run too). */
static int dump_close(dumper *dp, const char *dir, int ran) {
    size_t left_out = 0;
    for (size_t i = 0; i < osc_model_node_count(dp->m); i++) {
        osc_node_desc nd;
        char label[512];
        if (osc_model_node(dp->m, i, &nd) != OSC_OK || !nd.folded) continue;
        for (int32_t k = 0; k < nd.n_outputs; k++) {
            osc_tensor t;
            if (osc_model_value_data(dp->m, nd.outputs[k], &t) == OSC_OK) {
                dump_value(dp, i, nd.outputs[k], &t);
            } else if (nd.outputs[k][0]) {
                fputs("# left out: ", dp->index);
                cli_text_put(dp->index, nd.outputs[k]);
                fprintf(dp->index, "\tnode %s (%s), folded at load: released at load (a "
                        "constant no node that runs reads), no data to write\n",
                        cli_node_label(&nd, i, label, sizeof label), nd.op_type);
                left_out++;
            }
        }
    }
    fclose(dp->index);
    dp->index = NULL;
    int rc = CLI_OK;
    if (dp->failed)
        rc = cli_error("--dump %s: %s; nothing was written", dir, dp->msg);
    else if (cli_outset_add(&dp->set, "dump.txt", dp->index_buf, dp->index_len, dp->msg,
                            sizeof dp->msg) || cli_outset_commit(&dp->set, dp->msg, sizeof dp->msg))
        rc = cli_error("--dump %s: %s", dir, dp->msg);
    else if (left_out && ran)
        fprintf(stderr, "onnx-scatter: note: --dump: %zu values folded at load were released at "
                "load and are left out (dump.txt lists them)\n", left_out);
    else if (!ran) /* the run's own error line comes first and stays the last word */
        fprintf(stderr, "onnx-scatter: note: --dump: the %zu values computed before the failing "
                "node are in %s (dump.txt lists them)\n", dp->files.count, dir);
    cli_outset_close(&dp->set);
    cli_nameset_free(&dp->files);
    free(dp->index_buf);
    return rc;
}

/* Runs once, then prints (text or JSON) and writes the outputs. */
static int run_model(const osc_model *m, const run_args *a, const cli_inputs *in) {
    osc_session *s = NULL;
    int rc = osc_session_create(m, &s) == OSC_OK ? CLI_OK : cli_error("out of memory");
    if (rc == CLI_OK) rc = cli_inputs_bind(m, s, in);
    dumper dp = {.m = m};
    if (rc == CLI_OK && a->dump_dir) rc = dump_open(&dp, a->dump_dir, s);
    double t0 = now_ms(), ms = 0;
    if (rc == CLI_OK && osc_session_run(s) != OSC_OK)
        rc = cli_error("run failed: %s", osc_session_error(s));
    ms = now_ms() - t0;
    /* what the run computed is written even when a node failed: the values before it are what
     * one compares with the framework */
    if (a->dump_dir && dp.index) {
        int drc = dump_close(&dp, a->dump_dir, rc == CLI_OK);
        if (rc == CLI_OK) rc = drc;
    }
    size_t n = osc_model_output_count(m);
    osc_tensor *outs = calloc(n ? n : 1, sizeof *outs);
    char(*paths)[1024] = calloc(n ? n : 1, sizeof *paths);
    if (rc == CLI_OK && (!outs || !paths)) rc = cli_error("out of memory");
    for (size_t k = 0; k < n && rc == CLI_OK; k++) {
        osc_value_desc d;
        if (osc_model_output(m, k, &d) != OSC_OK || osc_session_output(s, k, &outs[k]) != OSC_OK)
            rc = cli_error("cannot read output %zu: %s", k, osc_session_error(s));
    }
    if (rc == CLI_OK && a->out_dir) rc = write_outputs(m, a, outs, paths);
    /* printed only once everything worked, so a failure leaves stdout empty */
    if (rc == CLI_OK && a->json) print_json(m, a, in, outs, (const char(*)[1024])paths, ms, osc_session_threads(s));
    for (size_t k = 0; k < n && rc == CLI_OK && !a->json; k++) {
        osc_value_desc d;
        if (!a->want[k]) continue;
        osc_model_output(m, k, &d);
        cli_print_tensor(stdout, d.name, &outs[k], a->full ? INT64_MAX : PRINT_MAX_ELEMS);
    }
    free(outs);
    free(paths);
    if (s) osc_session_free(s);
    return rc;
}

int cmd_run(int argc, char **argv) {
    if (cli_help_asked(argc, argv)) {
        usage_run(stdout);
        return CLI_OK;
    }
    run_args a = {.format = "npy"};
    osc_options_init(&a.opts);
    osc_model *m = NULL;
    cli_inputs in = {0};
    osc_dim_pin *pins = NULL; /* the --dim pins the model has: a.opts.dim_pins */
    int rc = parse_args(argc, argv, &a);
    if (rc == CLI_OK) {
        pins = calloc(a.in.n_pins + 1, sizeof *pins);
        rc = pins ? cli_load_pinned(a.model, &a.opts, &a.in, pins, "run", &m)
                  : cli_error("out of memory");
    }
    a.in.model_path = a.model, a.in.model_opts = a.opts;
    if (rc == CLI_OK) rc = select_outputs(m, &a);
    if (rc == CLI_OK) rc = cli_inputs_load(m, &a.in, cli_byte_limit(&a.opts), "run", &in);
    if (rc == CLI_OK) rc = run_model(m, &a, &in);
    /* after a successful run only: a failure stays one line on stderr */
    if (rc == CLI_OK) cli_print_warnings(m, NULL);
    cli_inputs_free(&in);
    if (m) osc_model_free(m);
    cli_input_opts_free(&a.in);
    cli_strlist_free(&a.only);
    free(a.want);
    free(pins);
    return rc;
}
