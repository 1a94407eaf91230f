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
    int full, json;
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
            a->format = v;
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
    return CLI_OK;
}

/* File name of output `name` in DIR: NAME.npy or NAME.pb ('/' becomes '_'). A tensor numpy
 * cannot hold (bfloat16, float8, 4-bit, non-UTF-8 strings) goes to .pb: *npy says which, and
 * note why. */
static void output_file(const run_args *a, const char *name, const osc_tensor *t, char *file,
                        size_t size, int *npy, char *note, size_t note_size) {
    size_t n = 0;
    for (; name[n] && n + 5 < size; n++) file[n] = name[n] == '/' ? '_' : name[n];
    note[0] = '\0';
    *npy = strcmp(a->format, "npy") == 0 && cli_npy_holds(t, note, note_size);
    snprintf(file + n, size - n, *npy ? ".npy" : ".pb");
}

/* Writes every output to DIR, all or none: the file names are checked for collisions first
 * (two outputs, one file), then each file is written to a temporary file in DIR, and only when
 * all are written are they renamed into place. The paths written are left in paths. */
static int write_outputs(const osc_model *m, const run_args *a, const osc_tensor *outs,
                         char (*paths)[1024]) {
    size_t n = osc_model_output_count(m);
    char msg[1024], esc[512], esc2[512];
    char(*files)[512] = calloc(n ? n : 1, sizeof *files);
    char(*notes)[256] = calloc(n ? n : 1, sizeof *notes);
    int *npy = calloc(n ? n : 1, sizeof *npy);
    osc_value_desc d, d2;
    int rc = files && notes && npy ? CLI_OK : cli_error("out of memory");
    for (size_t k = 0; k < n && rc == CLI_OK; k++) {
        osc_model_output(m, k, &d);
        output_file(a, d.name, &outs[k], files[k], sizeof files[k], &npy[k], notes[k],
                    sizeof notes[k]);
        for (size_t j = 0; j < k && rc == CLI_OK; j++) {
            if (strcmp(files[j], files[k])) continue;
            osc_model_output(m, j, &d2);
            rc = cli_error("-o %s: outputs '%s' (output %zu) and '%s' (output %zu) would both be "
                           "written to '%s' ('/' becomes '_'); nothing was written", a->out_dir,
                           cli_esc(d2.name, esc2, sizeof esc2), j, cli_esc(d.name, esc, sizeof esc),
                           k, files[k]);
        }
    }
    cli_outset set;
    if (rc == CLI_OK && cli_outset_open(&set, a->out_dir, msg, sizeof msg)) {
        rc = cli_error("%s", msg);
        cli_outset_close(&set);
    } else if (rc == CLI_OK) {
        for (size_t k = 0; k < n && rc == CLI_OK; k++) {
            void *buf = NULL;
            size_t len = 0;
            osc_model_output(m, k, &d);
            if (npy[k] ? cli_npy_encode(&outs[k], &buf, &len, msg, sizeof msg) != 0
                       : osc_tensor_encode_pb(&outs[k], d.name, &buf, &len, msg, sizeof msg) != OSC_OK)
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
        if (!notes[k][0]) continue;
        osc_model_output(m, k, &d);
        fprintf(stderr, "onnx-scatter: note: output '%s' is written as .pb: %s\n",
                cli_esc(d.name, esc, sizeof esc), notes[k]);
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
    for (size_t k = 0; k < n; k++) {
        osc_value_desc d;
        osc_model_output(m, k, &d);
        if (k) fputc(',', stdout);
        cli_json_tensor(stdout, d.name, &outs[k]);
    }
    fputs("]", stdout);
    if (a->out_dir) {
        fputs(",\"files\":[", stdout);
        for (size_t k = 0; k < n; k++) {
            if (k) fputc(',', stdout);
            cli_json_str(stdout, paths[k]);
        }
        fputs("]", stdout);
    }
    fputs("}\n", stdout);
}

/* Runs once, then prints (text or JSON) and writes the outputs. */
static int run_model(const osc_model *m, const run_args *a, const cli_inputs *in) {
    osc_session *s = NULL;
    int rc = osc_session_create(m, &s) == OSC_OK ? CLI_OK : cli_error("out of memory");
    if (rc == CLI_OK) rc = cli_inputs_bind(m, s, in);
    double t0 = now_ms(), ms = 0;
    if (rc == CLI_OK && osc_session_run(s) != OSC_OK)
        rc = cli_error("run failed: %s", osc_session_error(s));
    ms = now_ms() - t0;
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
        osc_model_output(m, k, &d);
        cli_print_tensor(stdout, d.name, &outs[k], a->full ? INT64_MAX : PRINT_MAX_ELEMS);
    }
    free(outs);
    free(paths);
    if (s) osc_session_free(s);
    return rc;
}

int cmd_run(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            usage_run(stdout);
            return CLI_OK;
        }
    run_args a = {.format = "npy"};
    osc_options_init(&a.opts);
    osc_model *m = NULL;
    cli_inputs in = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc == CLI_OK) {
        char msg[1024];
        osc_status st = osc_model_load_file(a.model, &a.opts, &m, msg, sizeof msg);
        if (st != OSC_OK)
            rc = cli_error("cannot load '%s' (%s): %s", a.model, osc_status_name(st), msg);
    }
    a.in.model_path = a.model, a.in.model_opts = a.opts;
    if (rc == CLI_OK) rc = cli_inputs_load(m, &a.in, cli_byte_limit(&a.opts), "run", &in);
    if (rc == CLI_OK) rc = run_model(m, &a, &in);
    /* after a successful run only: a failure stays one line on stderr */
    if (rc == CLI_OK) cli_print_warnings(m, NULL);
    cli_inputs_free(&in);
    if (m) osc_model_free(m);
    cli_input_opts_free(&a.in);
    return rc;
}
