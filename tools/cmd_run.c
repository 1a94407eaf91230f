/* cmd_run.c: `onnx-scatter run MODEL ...`: binds .pb inputs, runs once, prints/writes outputs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Tensors with more elements than this are summarised unless --full. */
#define PRINT_MAX_ELEMS 1000

typedef struct run_args {
    const char *model, *out_dir;
    int full;
    const char **files;  /* positional FILE.pb, bound in osc_model_input order */
    size_t nfiles;
    const char **names, **named_files; /* --input NAME=FILE.pb */
    size_t nnamed;
} run_args;

/* Value of an option given as "--opt VALUE" or "--opt=VALUE"; NULL when absent. */
static const char *opt_value(int argc, char **argv, int *i, const char *lng, const char *shrt) {
    size_t n = strlen(lng);
    if (!strncmp(argv[*i], lng, n) && argv[*i][n] == '=') return argv[*i] + n + 1;
    if (strcmp(argv[*i], lng) && strcmp(argv[*i], shrt)) return NULL;
    if (*i + 1 >= argc) return "";
    return argv[++*i];
}

static int parse_args(int argc, char **argv, run_args *a) {
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = opt_value(argc, argv, &i, "--input", "-i")) != NULL) {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || !eq[1])
                return cli_usage_error("run", "--input wants NAME=FILE.pb, got '%s'", v);
            char *name = malloc((size_t)(eq - v) + 1);
            if (!name) return cli_error("out of memory");
            memcpy(name, v, (size_t)(eq - v));
            name[eq - v] = '\0';
            a->names[a->nnamed] = name;
            a->named_files[a->nnamed++] = eq + 1;
        } else if ((v = opt_value(argc, argv, &i, "--output-dir", "-o")) != NULL) {
            if (!v[0]) return cli_usage_error("run", "--output-dir wants a folder");
            a->out_dir = v;
        } else if (!strcmp(argv[i], "--full")) {
            a->full = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("run", "unknown option '%s'", argv[i]);
        } else if (!a->model) {
            a->model = argv[i];
        } else {
            a->files[a->nfiles++] = argv[i];
        }
    }
    if (!a->model) return cli_usage_error("run", "missing MODEL");
    return CLI_OK;
}

/* Index of the graph input called name, or -1. */
static long input_index(const osc_model *m, const char *name) {
    osc_value_desc d;
    for (size_t i = 0; i < osc_model_input_count(m); i++)
        if (osc_model_input(m, i, &d) == OSC_OK && !strcmp(d.name, name)) return (long)i;
    return -1;
}

/* Decides which file feeds each input (files[i], NULL when unbound). Usage errors: unknown
 * names, an input given twice, too many files, a required input left out. */
static int assign_inputs(const osc_model *m, const run_args *a, const char **files) {
    size_t n = osc_model_input_count(m);
    osc_value_desc d;
    if (a->nfiles > n)
        return cli_usage_error("run", "%zu input files given but the model has %zu inputs",
                               a->nfiles, n);
    for (size_t i = 0; i < a->nfiles; i++) files[i] = a->files[i];
    for (size_t k = 0; k < a->nnamed; k++) {
        long i = input_index(m, a->names[k]);
        if (i < 0) {
            char list[512] = "";
            for (size_t j = 0; j < n && osc_model_input(m, j, &d) == OSC_OK; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "",
                         d.name);
            return cli_usage_error("run", "the model has no input '%s' (inputs: %s)", a->names[k],
                                   list);
        }
        if (files[i]) return cli_usage_error("run", "input '%s' given twice", a->names[k]);
        files[i] = a->named_files[k];
    }
    for (size_t i = 0; i < n; i++) {
        if (files[i] || osc_model_input(m, i, &d) != OSC_OK || d.has_default) continue;
        char shape[512];
        cli_format_shape(d.rank, d.dims, d.dim_names, shape, sizeof shape);
        return cli_usage_error("run", "missing input '%s' (%s %s): add --input %s=FILE.pb", d.name,
                               osc_dtype_name(d.dtype), shape, d.name);
    }
    return CLI_OK;
}

/* Writes output t to DIR/NAME.pb ('/' in the name becomes '_'). */
static int write_output(const char *dir, const char *name, const osc_tensor *t) {
    char msg[1024];
    size_t n = strlen(name);
    char *file = malloc(n + 4);
    if (!file) return cli_error("out of memory");
    for (size_t k = 0; k < n; k++) file[k] = name[k] == '/' ? '_' : name[k];
    memcpy(file + n, ".pb", 4);
    char *path = cli_join(dir, file);
    free(file);
    if (!path) return cli_error("out of memory");
    osc_status st = cli_save_tensor(path, t, name, msg, sizeof msg);
    free(path);
    return st == OSC_OK ? CLI_OK : cli_error("%s", msg);
}

/* Loads the bound files, runs once, prints and writes the outputs. */
static int run_model(const osc_model *m, const run_args *a, const char **files) {
    size_t n = osc_model_input_count(m);
    osc_tensor *ts = calloc(n ? n : 1, sizeof *ts);
    osc_session *s = NULL;
    char msg[1024];
    int rc = CLI_OK;
    if (!ts) return cli_error("out of memory");
    for (size_t i = 0; i < n && rc == CLI_OK; i++)
        if (files[i] && cli_load_tensor(files[i], &ts[i], NULL, 0, msg, sizeof msg) != OSC_OK)
            rc = cli_error("cannot read input: %s", msg);
    if (rc == CLI_OK && osc_session_create(m, &s) != OSC_OK) rc = cli_error("out of memory");
    for (size_t i = 0; i < n && rc == CLI_OK; i++) {
        osc_value_desc d;
        if (!files[i] || osc_model_input(m, i, &d) != OSC_OK) continue;
        osc_status st = osc_session_set_input_at(s, i, &ts[i]);
        if (st != OSC_OK)
            rc = cli_error("input '%s' from '%s' (%s): %s", d.name, files[i], osc_status_name(st),
                           osc_session_error(s));
    }
    if (rc == CLI_OK && osc_session_run(s) != OSC_OK)
        rc = cli_error("run failed: %s", osc_session_error(s));
    if (rc == CLI_OK && a->out_dir && mkdir(a->out_dir, 0777) != 0 && errno != EEXIST)
        rc = cli_error("cannot create folder '%s': %s", a->out_dir, strerror(errno));
    for (size_t k = 0; k < osc_model_output_count(m) && rc == CLI_OK; k++) {
        osc_value_desc d;
        osc_tensor t;
        if (osc_model_output(m, k, &d) != OSC_OK || osc_session_output(s, k, &t) != OSC_OK) {
            rc = cli_error("cannot read output %zu: %s", k, osc_session_error(s));
            break;
        }
        cli_print_tensor(stdout, d.name, &t, a->full ? INT64_MAX : PRINT_MAX_ELEMS);
        if (a->out_dir) rc = write_output(a->out_dir, d.name, &t);
    }
    if (s) osc_session_free(s);
    for (size_t i = 0; i < n; i++)
        if (ts[i].data) osc_tensor_free_data(&ts[i]);
    free(ts);
    return rc;
}

int cmd_run(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            usage_run(stdout);
            return CLI_OK;
        }
    size_t cap = (size_t)argc;
    run_args a = {.files = calloc(cap, sizeof(char *)), .names = calloc(cap, sizeof(char *)),
                  .named_files = calloc(cap, sizeof(char *))};
    const char **files = NULL;
    osc_model *m = NULL;
    int rc = (a.files && a.names && a.named_files) ? parse_args(argc, argv, &a)
                                                   : cli_error("out of memory");
    if (rc == CLI_OK) {
        osc_options opts;
        char msg[1024];
        osc_options_init(&opts);
        osc_status st = osc_model_load_file(a.model, &opts, &m, msg, sizeof msg);
        if (st != OSC_OK)
            rc = cli_error("cannot load '%s' (%s): %s", a.model, osc_status_name(st), msg);
    }
    if (rc == CLI_OK) {
        size_t n = osc_model_input_count(m);
        files = calloc(n ? n : 1, sizeof *files);
        rc = files ? assign_inputs(m, &a, files) : cli_error("out of memory");
    }
    if (rc == CLI_OK) rc = run_model(m, &a, files);
    if (m) osc_model_free(m);
    free(files);
    for (size_t k = 0; k < a.nnamed; k++) free((char *)a.names[k]);
    free(a.files);
    free(a.names);
    free(a.named_files);
    return rc;
}
