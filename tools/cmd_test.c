/* cmd_test.c: `onnx-scatter test PATH...`: runs ONNX node-test folders and checks every output. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MSG_SIZE 2048

/* The .pb files of one data set: prefix_K.pb for K = 0, 1, ... while they exist. */
typedef struct pb_set {
    osc_tensor *t;
    char (*names)[256];
    size_t count;
} pb_set;

static void pb_set_free(pb_set *p) {
    for (size_t k = 0; k < p->count; k++) osc_tensor_free_data(&p->t[k]);
    free(p->t);
    free(p->names);
    memset(p, 0, sizeof *p);
}

/* Loads dir/prefix_K.pb for every K present. Returns 0, or 1 with the reason in msg. */
static int pb_set_load(const char *dir, const char *prefix, pb_set *p, char *msg, size_t msg_size) {
    char file[64], why[1024];
    memset(p, 0, sizeof *p);
    for (size_t k = 0;; k++) {
        snprintf(file, sizeof file, "%s_%zu.pb", prefix, k);
        char *path = cli_join(dir, file);
        if (!path) goto nomem;
        if (!cli_is_file(path)) {
            free(path);
            return 0;
        }
        osc_tensor *t = realloc(p->t, (k + 1) * sizeof *t);
        if (t) p->t = t;
        char(*n)[256] = t ? realloc(p->names, (k + 1) * sizeof *n) : NULL;
        if (n) p->names = n;
        if (!t || !n) {
            free(path);
            goto nomem;
        }
        osc_status st = cli_load_tensor(path, &p->t[k], p->names[k], sizeof p->names[k], why,
                                        sizeof why);
        free(path);
        if (st != OSC_OK) {
            snprintf(msg, msg_size, "%s (%s)", why, osc_status_name(st));
            return 1;
        }
        p->count = k + 1;
    }
nomem:
    snprintf(msg, msg_size, "out of memory");
    return 1;
}

/* Binds input_K.pb to the graph input of its name, else to graph input K. */
static int bind_inputs(const osc_model *m, osc_session *s, const pb_set *in, char *msg,
                       size_t msg_size) {
    size_t n = osc_model_input_count(m);
    char *bound = calloc(n ? n : 1, 1);
    osc_value_desc d;
    int rc = 0;
    if (!bound) {
        snprintf(msg, msg_size, "out of memory");
        return 1;
    }
    for (size_t k = 0; k < in->count && !rc; k++) {
        size_t idx = k;
        for (size_t i = 0; i < n; i++)
            if (osc_model_input(m, i, &d) == OSC_OK && in->names[k][0] &&
                !strcmp(d.name, in->names[k]))
                idx = i;
        if (idx >= n) {
            snprintf(msg, msg_size, "input_%zu.pb ('%s') matches no graph input (the model has %zu)",
                     k, in->names[k], n);
            rc = 1;
        } else if (bound[idx]) {
            osc_model_input(m, idx, &d);
            snprintf(msg, msg_size, "input_%zu.pb binds graph input '%s' a second time", k, d.name);
            rc = 1;
        } else {
            bound[idx] = 1;
            osc_status st = osc_session_set_input_at(s, idx, &in->t[k]);
            if (st != OSC_OK) {
                snprintf(msg, msg_size, "input_%zu.pb (%s): %s", k, osc_status_name(st),
                         osc_session_error(s));
                rc = 1;
            }
        }
    }
    for (size_t i = 0; i < n && !rc; i++)
        if (!bound[i] && osc_model_input(m, i, &d) == OSC_OK && !d.has_default) {
            snprintf(msg, msg_size, "no input_K.pb gives graph input '%s'", d.name);
            rc = 1;
        }
    free(bound);
    return rc;
}

/* Runs one data set folder; 0 when every output matches, else 1 with the reason in msg. */
static int check_data_set(const osc_model *m, const char *ds, char *msg, size_t msg_size) {
    pb_set in, out;
    osc_session *s = NULL;
    int rc = pb_set_load(ds, "input", &in, msg, msg_size);
    if (!rc) rc = pb_set_load(ds, "output", &out, msg, msg_size);
    else memset(&out, 0, sizeof out);
    if (!rc && out.count != osc_model_output_count(m)) {
        snprintf(msg, msg_size, "%zu output_K.pb files for %zu model outputs", out.count,
                 osc_model_output_count(m));
        rc = 1;
    }
    if (!rc && osc_session_create(m, &s) != OSC_OK) {
        snprintf(msg, msg_size, "cannot create a session (out of memory)");
        rc = 1;
    }
    if (!rc) rc = bind_inputs(m, s, &in, msg, msg_size);
    if (!rc && osc_session_run(s) != OSC_OK) {
        snprintf(msg, msg_size, "run failed: %s", osc_session_error(s));
        rc = 1;
    }
    for (size_t k = 0; k < out.count && !rc; k++) {
        osc_value_desc d;
        osc_tensor act;
        if (osc_model_output(m, k, &d) != OSC_OK || osc_session_output(s, k, &act) != OSC_OK) {
            snprintf(msg, msg_size, "cannot read output %zu: %s", k, osc_session_error(s));
            rc = 1;
        } else {
            rc = cli_compare(d.name, &out.t[k], &act, msg, msg_size);
        }
    }
    if (s) osc_session_free(s);
    pb_set_free(&in);
    pb_set_free(&out);
    return rc;
}

typedef struct tally {
    size_t passed, failed, skipped;
} tally;

/* Runs the node test in folder dir and prints its one line. */
static void run_test(const char *dir, tally *t) {
    char name[256], msg[MSG_SIZE] = "out of memory";
    cli_strlist sets = {0};
    osc_model *m = NULL;
    osc_options opts;
    int failed = 0;
    cli_basename(dir, name, sizeof name);
    char *model = cli_join(dir, "model.onnx");
    osc_options_init(&opts);
    osc_status st = model ? osc_model_load_file(model, &opts, &m, msg, sizeof msg) : OSC_ERR_NOMEM;
    free(model);
    if (st == OSC_ERR_UNSUPPORTED) {
        printf("SKIP %s: %s\n", name, msg);
        t->skipped++;
        return;
    }
    if (st != OSC_OK) {
        printf("FAIL %s: cannot load model.onnx (%s): %s\n", name, osc_status_name(st), msg);
        t->failed++;
        return;
    }
    if (cli_find_data_sets(dir, &sets, msg, sizeof msg)) {
        printf("FAIL %s: %s\n", name, msg);
        failed = 1;
    } else if (sets.count == 0) {
        printf("FAIL %s: no test_data_set_N folder: nothing to check\n", name);
        failed = 1;
    }
    for (size_t i = 0; i < sets.count && !failed; i++) {
        if (!check_data_set(m, sets.items[i], msg, sizeof msg)) continue;
        char ds[64];
        printf("FAIL %s: %s: %s\n", name, cli_basename(sets.items[i], ds, sizeof ds), msg);
        failed = 1;
    }
    if (!failed) printf("PASS %s\n", name);
    if (failed) t->failed++;
    else t->passed++;
    cli_strlist_free(&sets);
    osc_model_free(m);
}

int cmd_test(int argc, char **argv) {
    cli_strlist dirs = {0};
    char msg[MSG_SIZE];
    int npaths = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            usage_test(stdout);
            return CLI_OK;
        }
        if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("test", "unknown option '%s'", argv[i]);
        npaths++;
    }
    if (!npaths) return cli_usage_error("test", "missing PATH (a node-test folder or a folder of them)");
    for (int i = 1; i < argc; i++)
        if (cli_find_tests(argv[i], &dirs, msg, sizeof msg)) {
            cli_strlist_free(&dirs);
            return cli_error("%s", msg);
        }
    cli_sort_tests(&dirs);
    tally t = {0};
    for (size_t i = 0; i < dirs.count; i++) {
        run_test(dirs.items[i], &t);
        fflush(stdout); /* progress stays visible if a later test crashes the process */
    }
    printf("%zu passed, %zu failed, %zu skipped\n", t.passed, t.failed, t.skipped);
    cli_strlist_free(&dirs);
    return t.failed ? CLI_FAIL : CLI_OK;
}
