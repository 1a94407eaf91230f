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

/* Writes output t to DIR/NAME.npy or DIR/NAME.pb ('/' in the name becomes '_'). A tensor
 * numpy cannot hold (bfloat16, float8, 4-bit, non-UTF-8 strings) goes to .pb with a note on
 * stderr. The path written is left in path. */
static int write_output(const run_args *a, const char *name, const osc_tensor *t, char *path,
                        size_t path_size) {
    char msg[1024], file[512];
    size_t n = 0;
    for (; name[n] && n + 5 < sizeof file; n++) file[n] = name[n] == '/' ? '_' : name[n];
    int npy = strcmp(a->format, "npy") == 0;
    void *buf = NULL;
    size_t len = 0;
    if (npy) {
        int rc = cli_npy_encode(t, &buf, &len, msg, sizeof msg);
        if (rc < 0) return cli_error("output '%s': %s", name, msg);
        if (rc > 0) {
            fprintf(stderr, "onnx-scatter: note: output '%s' is written as .pb: %s\n", name, msg);
            npy = 0;
        }
    }
    snprintf(file + n, sizeof file - n, npy ? ".npy" : ".pb");
    char *p = cli_join(a->out_dir, file);
    if (!p) {
        free(buf);
        return cli_error("out of memory");
    }
    snprintf(path, path_size, "%s", p);
    int rc = CLI_OK;
    if (npy) {
        if (cli_write_file(p, buf, len, msg, sizeof msg)) rc = cli_error("%s", msg);
    } else if (cli_save_tensor(p, t, name, msg, sizeof msg) != OSC_OK) {
        rc = cli_error("%s", msg);
    }
    free(buf);
    free(p);
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
    if (rc == CLI_OK && a->out_dir && mkdir(a->out_dir, 0777) != 0 && errno != EEXIST)
        rc = cli_error("cannot create folder '%s': %s", a->out_dir, strerror(errno));
    size_t n = osc_model_output_count(m);
    osc_tensor *outs = calloc(n ? n : 1, sizeof *outs);
    char(*paths)[1024] = calloc(n ? n : 1, sizeof *paths);
    if (rc == CLI_OK && (!outs || !paths)) rc = cli_error("out of memory");
    for (size_t k = 0; k < n && rc == CLI_OK; k++) {
        osc_value_desc d;
        if (osc_model_output(m, k, &d) != OSC_OK || osc_session_output(s, k, &outs[k]) != OSC_OK)
            rc = cli_error("cannot read output %zu: %s", k, osc_session_error(s));
        else if (a->out_dir)
            rc = write_output(a, d.name, &outs[k], paths[k], sizeof paths[k]);
    }
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
    if (rc == CLI_OK) rc = cli_inputs_load(m, &a.in, "run", &in);
    if (rc == CLI_OK) rc = run_model(m, &a, &in);
    /* after a successful run only: a failure stays one line on stderr */
    for (size_t i = 0; rc == CLI_OK && i < osc_model_warning_count(m); i++)
        fprintf(stderr, "onnx-scatter: warning: %s\n", osc_model_warning(m, i));
    cli_inputs_free(&in);
    if (m) osc_model_free(m);
    cli_input_opts_free(&a.in);
    return rc;
}
