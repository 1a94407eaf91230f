/* cmd_test.c: `onnx-scatter test PATH...`: runs ONNX node-test folders and checks every output. */
/* Folders run in parallel with -j N (a model and its sessions per folder; the library keeps no
 * global state), and their lines are printed in sorted order as they finish. */
#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define MSG_SIZE 2048
/* More folders than this show a progress line on a terminal. */
#define PROGRESS_MIN 36

/* Runs one data set folder; 0 when every output matches, else 1 with the reason in msg. */
static int check_data_set(const osc_model *m, const char *ds, const cli_tol *tol, uint64_t max,
                          char *msg, size_t msg_size) {
    cli_pbset in, out;
    osc_session *s = NULL;
    int rc = cli_pbset_load(ds, "input", m, max, &in, msg, msg_size);
    if (!rc) rc = cli_pbset_load(ds, "output", m, max, &out, msg, msg_size);
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
    if (!rc) rc = cli_pbset_bind(m, s, &in, msg, msg_size);
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
            rc = cli_compare(d.name, &out.t[k], &act, tol, msg, msg_size);
        }
    }
    if (s) osc_session_free(s);
    cli_pbset_free(&in);
    cli_pbset_free(&out);
    return rc;
}

/* T_KNOWN: a failure the --known-fail file lists: reported, not counted as a failure. */
typedef enum tstatus { T_PASS, T_FAIL, T_SKIP, T_KNOWN } tstatus;

typedef struct result {
    int done;
    tstatus status;
    char msg[MSG_SIZE]; /* why it failed or was skipped */
    double ms;
    cli_strlist ops; /* the model's distinct op types, in node order (--json prints them) */
    cli_strlist warnings; /* the model's load warnings */
} result;

/* Collects the distinct op types of m's nodes into ops: the model's own, those a fused node
 * replaced in its place. */
static void list_ops(const osc_model *m, cli_strlist *ops) {
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        osc_node_desc nd;
        if (osc_model_node(m, i, &nd) != OSC_OK) continue;
        for (int32_t f = 0; f < (nd.n_fused > 0 ? nd.n_fused : 1); f++) {
            const char *op = nd.n_fused > 0 ? nd.fused_ops[f] : nd.op_type;
            size_t k = 0;
            while (k < ops->count && strcmp(ops->items[k], op)) k++;
            if (k == ops->count && cli_strlist_push(ops, op)) return;
        }
    }
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Runs the node test in folder dir into r (thread-safe: touches nothing shared). */
static void run_test(const char *dir, const cli_tol *tol, const osc_options *opts, result *r) {
    char msg[MSG_SIZE] = "out of memory";
    cli_strlist sets = {0};
    osc_model *m = NULL;
    double t0 = now_ms();
    uint64_t max = cli_byte_limit(opts);
    char *model = cli_join(dir, "model.onnx");
    const int missing = model && !cli_is_file(model);
    osc_status st = missing ? OSC_ERR_IO
                    : model ? osc_model_load_file(model, opts, &m, msg, sizeof msg) : OSC_ERR_NOMEM;
    free(model);
    r->status = T_PASS;
    if (missing) { /* a folder given as PATH with no test in it: said, not fatal to the others */
        r->status = T_SKIP;
        snprintf(r->msg, sizeof r->msg, "no model.onnx in this folder nor in its subfolders");
    } else if (st == OSC_ERR_UNSUPPORTED && !(opts->strict && strstr(msg, "strict mode"))) {
        /* (what --strict refuses is an error of the model, not an op this build lacks) */
        r->status = T_SKIP;
        snprintf(r->msg, sizeof r->msg, "%s", msg);
    } else if (st != OSC_OK) {
        r->status = T_FAIL;
        snprintf(r->msg, sizeof r->msg, "cannot load model.onnx (%s): %.1990s", osc_status_name(st), msg);
    } else if (cli_find_data_sets(dir, &sets, msg, sizeof msg)) {
        r->status = T_FAIL;
        snprintf(r->msg, sizeof r->msg, "%s", msg);
    } else if (sets.count == 0) {
        r->status = T_FAIL;
        snprintf(r->msg, sizeof r->msg, "no test_data_set_N folder: nothing to check");
    }
    for (size_t i = 0; i < sets.count && r->status == T_PASS; i++) {
        if (!check_data_set(m, sets.items[i], tol, max, msg, sizeof msg)) continue;
        char ds[64];
        r->status = T_FAIL;
        snprintf(r->msg, sizeof r->msg, "%s: %.1960s", cli_basename(sets.items[i], ds, sizeof ds), msg);
    }
    cli_strlist_free(&sets);
    if (m) list_ops(m, &r->ops);
    for (size_t i = 0; m && i < osc_model_warning_count(m); i++)
        if (cli_strlist_push(&r->warnings, osc_model_warning(m, i))) break;
    if (m) osc_model_free(m);
    r->ms = now_ms() - t0;
}

typedef struct test_opts {
    cli_tol tol;
    osc_options opts; /* limits */
    long jobs;
    int json;
    int progress; /* -1: on a terminal with many folders; 0 never; 1 always */
    int fail_on_skip;
    cli_strlist filters;
    const char *known_file; /* --known-fail FILE */
    cli_strlist known;      /* its test names (globs) */
} test_opts;

typedef struct tally {
    size_t passed, failed, skipped, known;
} tally;

/* --known-fail FILE: one test name (or glob) per line; '#' starts a comment, blank lines are
 * ignored. Nonzero with a message when the file cannot be read or lists nothing. */
static int read_known(const char *path, cli_strlist *names, char *msg, size_t msg_size) {
    void *buf;
    size_t len;
    if (cli_read_file(path, 1 << 20, &buf, &len, msg, msg_size)) return 1;
    char *p = buf, *end = p + len;
    int rc = 0;
    while (p < end && !rc) {
        char *nl = memchr(p, '\n', (size_t)(end - p)), *line_end = nl ? nl : end;
        char *hash = memchr(p, '#', (size_t)(line_end - p)), *stop = hash ? hash : line_end;
        while (p < stop && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        char *q = p;
        while (q < stop && *q != ' ' && *q != '\t' && *q != '\r') q++;
        if (q > p) {
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(q - p), p);
            rc = cli_strlist_push(names, name);
        }
        p = line_end + 1;
    }
    free(buf);
    if (!rc && !names->count) {
        snprintf(msg, msg_size, "'%s' lists no test (one name or glob per line, '#' comments)", path);
        return 1;
    }
    if (rc) snprintf(msg, msg_size, "out of memory");
    return rc;
}

static int is_known(const test_opts *o, const char *name) {
    for (size_t k = 0; k < o->known.count; k++)
        if (fnmatch(o->known.items[k], name, 0) == 0) return 1;
    return 0;
}

/* Work shared by the -j threads: the next folder to take, and who finished. */
typedef struct pool {
    const cli_strlist *dirs;
    const cli_tol *tol;
    const osc_options *opts;
    result *res;
    size_t next;
    pthread_mutex_t mu;
    pthread_cond_t done;
} pool;

static void *worker(void *arg) {
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->mu);
        if (i >= p->dirs->count) return NULL;
        result r = {0};
        run_test(p->dirs->items[i], p->tol, p->opts, &r);
        pthread_mutex_lock(&p->mu);
        p->res[i] = r;
        p->res[i].done = 1;
        pthread_cond_broadcast(&p->done);
        pthread_mutex_unlock(&p->mu);
    }
}

static void progress(const tally *t, size_t total) {
    fprintf(stderr, "\r\033[K[%zu/%zu] %zu passed, %zu failed, %zu skipped",
            t->passed + t->failed + t->skipped, total, t->passed, t->failed, t->skipped);
    fflush(stderr);
}

/* Prints the line (or JSON object) of test i and counts it. */
static void report(const test_opts *o, const char *dir, const result *r, size_t i, tally *t) {
    static const char *const words[] = {"PASS", "FAIL", "SKIP", "KNOWN"};
    char name[256];
    cli_basename(dir, name, sizeof name);
    result known = *r;
    if (o->known.count && is_known(o, name)) {
        if (r->status == T_FAIL) known.status = T_KNOWN;
        else if (r->status == T_PASS)
            fprintf(stderr, "onnx-scatter: note: %s passed; %s lists it as a known failure\n",
                    name, o->known_file);
        r = &known;
    }
    if (o->json) {
        static const char *const status[] = {"pass", "fail", "skip", "known_fail"};
        printf("%s{\"name\":", i ? ",\n" : "");
        cli_json_str(stdout, name);
        fputs(",\"path\":", stdout);
        cli_json_str(stdout, dir);
        printf(",\"status\":\"%s\"", status[r->status]);
        if (r->status != T_PASS) {
            fputs(",\"message\":", stdout);
            cli_json_str(stdout, r->msg);
        }
        if (r->ops.count) {
            fputs(",\"ops\":[", stdout);
            for (size_t k = 0; k < r->ops.count; k++) {
                if (k) fputc(',', stdout);
                cli_json_str(stdout, r->ops.items[k]);
            }
            fputc(']', stdout);
        }
        fputs(",\"warnings\":[", stdout);
        for (size_t k = 0; k < r->warnings.count; k++) {
            if (k) fputc(',', stdout);
            cli_json_str(stdout, r->warnings.items[k]);
        }
        printf("],\"ms\":%.3f}", r->ms);
    } else {
        /* a folder name or a message cannot add a line (a forged summary) or drive the terminal */
        printf("%s ", words[r->status]);
        cli_text_put(stdout, name);
        if (r->status != T_PASS) fputs(": ", stdout), cli_text_put(stdout, r->msg);
        fputc('\n', stdout);
    }
    for (size_t k = 0; k < r->warnings.count; k++) { /* once per test: its model loads once */
        fputs("onnx-scatter: warning: ", stderr);
        cli_text_put(stderr, name);
        fputs(": ", stderr);
        cli_text_put(stderr, r->warnings.items[k]);
        fputc('\n', stderr);
    }
    fflush(stdout); /* progress stays visible if a later test crashes the process */
    if (r->status == T_PASS) t->passed++;
    else if (r->status == T_FAIL) t->failed++;
    else if (r->status == T_KNOWN) t->known++;
    else t->skipped++;
}

static void run_all(const test_opts *o, const cli_strlist *dirs, tally *t) {
    int show = o->progress == 1 || (o->progress < 0 && dirs->count > PROGRESS_MIN && isatty(2));
    size_t n = dirs->count, jobs = o->jobs < 1 ? 1 : (size_t)o->jobs;
    result *res = calloc(n ? n : 1, sizeof *res);
    pthread_t *th = calloc(jobs, sizeof *th);
    pool p = {.dirs = dirs, .tol = &o->tol, .opts = &o->opts, .res = res};
    size_t started = 0;
    if (!res || !th) jobs = 1; /* no memory for a pool: run inline below, one result at a time */
    if (jobs > n) jobs = n;
    if (jobs > 1) {
        pthread_mutex_init(&p.mu, NULL);
        pthread_cond_init(&p.done, NULL);
        while (started < jobs && pthread_create(&th[started], NULL, worker, &p) == 0) started++;
    }
    for (size_t i = 0; i < n; i++) {
        result one = {0}, *r = res ? &res[i] : &one;
        if (started) {
            pthread_mutex_lock(&p.mu);
            while (!r->done) pthread_cond_wait(&p.done, &p.mu);
            pthread_mutex_unlock(&p.mu);
        } else {
            run_test(dirs->items[i], &o->tol, &o->opts, r);
        }
        if (show) fputs("\r\033[K", stderr);
        report(o, dirs->items[i], r, i, t);
        cli_strlist_free(&r->ops);
        cli_strlist_free(&r->warnings);
        if (show) progress(t, n);
    }
    for (size_t k = 0; k < started; k++) pthread_join(th[k], NULL);
    if (jobs > 1) {
        pthread_mutex_destroy(&p.mu);
        pthread_cond_destroy(&p.done);
    }
    if (show) fputs("\r\033[K", stderr);
    free(res);
    free(th);
}

static int parse_test_args(int argc, char **argv, test_opts *o, cli_strlist *paths) {
    for (int i = 1; i < argc; i++) {
        const char *v;
        int64_t n;
        int rc = cli_runtime_option(argc, argv, &i, &o->opts, "test");
        if (rc >= 0) {
            if (rc != CLI_OK) return rc;
        } else if ((v = cli_opt_value(argc, argv, &i, "--filter", "-f")) != NULL) {
            if (!v[0]) return cli_usage_error("test", "--filter wants a GLOB, e.g. 'test_scatter*'");
            if (cli_strlist_push(&o->filters, v)) return cli_error("out of memory");
        } else if ((v = cli_opt_value(argc, argv, &i, "--jobs", "-j")) != NULL) {
            if (cli_parse_int(v, 1, 256, &n)) return cli_usage_error("test", "-j wants a count from 1 to 256, got '%s'", v);
            o->jobs = (long)n;
        } else if (!strncmp(argv[i], "-j", 2) && argv[i][2]) { /* -j4 */
            if (cli_parse_int(argv[i] + 2, 1, 256, &n)) return cli_usage_error("test", "-j wants a count from 1 to 256, got '%s'", argv[i] + 2);
            o->jobs = (long)n;
        } else if ((v = cli_opt_value(argc, argv, &i, "--rtol", NULL)) != NULL) {
            if (cli_parse_double(v, &o->tol.rtol)) return cli_usage_error("test", "--rtol wants a number >= 0, got '%s'", v);
        } else if ((v = cli_opt_value(argc, argv, &i, "--atol", NULL)) != NULL) {
            if (cli_parse_double(v, &o->tol.atol)) return cli_usage_error("test", "--atol wants a number >= 0, got '%s'", v);
        } else if ((v = cli_opt_value(argc, argv, &i, "--tolerance", NULL)) != NULL) {
            if (!strcmp(v, "onnx")) o->tol = cli_default_tol;
            else if (!strcmp(v, "ort")) o->tol = cli_ort_tol;
            else return cli_usage_error("test", "--tolerance wants 'onnx' or 'ort', got '%s'", v);
        } else if ((v = cli_opt_value(argc, argv, &i, "--known-fail", NULL)) != NULL) {
            if (!v[0]) return cli_usage_error("test", "--known-fail wants a FILE of test names");
            o->known_file = v;
        } else if (!strcmp(argv[i], "--json")) {
            o->json = 1;
        } else if (!strcmp(argv[i], "--fail-on-skip")) {
            o->fail_on_skip = 1;
        } else if (!strcmp(argv[i], "--progress")) {
            o->progress = 1;
        } else if (!strcmp(argv[i], "--no-progress")) {
            o->progress = 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("test", "unknown option '%s'", argv[i]);
        } else if (cli_strlist_push(paths, argv[i])) {
            return cli_error("out of memory");
        }
    }
    if (!paths->count) return cli_usage_error("test", "missing PATH (a node-test folder or a folder of them)");
    return CLI_OK;
}

int cmd_test(int argc, char **argv) {
    if (cli_help_asked(argc, argv)) {
        usage_test(stdout);
        return CLI_OK;
    }
    test_opts o = {.tol = cli_default_tol, .jobs = 1, .progress = -1};
    osc_options_init(&o.opts);
    cli_strlist paths = {0}, dirs = {0};
    char msg[MSG_SIZE];
    int rc = parse_test_args(argc, argv, &o, &paths);
    if (rc == CLI_OK && o.known_file && read_known(o.known_file, &o.known, msg, sizeof msg))
        rc = cli_error("--known-fail: %s", msg);
    for (size_t i = 0; i < paths.count && rc == CLI_OK; i++)
        if (cli_find_tests(paths.items[i], 1, &dirs, msg, sizeof msg)) rc = cli_error("%s", msg);
    if (rc == CLI_OK && o.filters.count) {
        cli_filter_tests(&o.filters, &dirs);
        if (!dirs.count)
            rc = cli_error("no node-test folder matches --filter '%s'%s: check the pattern "
                           "(it matches folder names, e.g. 'test_scatter*')",
                           o.filters.items[0], o.filters.count > 1 ? " or the others" : "");
    }
    if (rc == CLI_OK) {
        tally t = {0};
        cli_sort_tests(&dirs);
        if (o.json) fputs("{\"tests\":[\n", stdout);
        run_all(&o, &dirs, &t);
        if (o.json)
            printf("\n],\"passed\":%zu,\"failed\":%zu,\"skipped\":%zu,\"known_failed\":%zu,"
                   "\"jobs\":%ld,\"rtol\":%g,\"atol\":%g}\n", t.passed, t.failed, t.skipped,
                   t.known, o.jobs, o.tol.rtol, o.tol.atol);
        else if (o.known_file)
            printf("%zu passed, %zu failed, %zu skipped, %zu known failures\n", t.passed, t.failed,
                   t.skipped, t.known);
        else
            printf("%zu passed, %zu failed, %zu skipped\n", t.passed, t.failed, t.skipped);
        rc = t.failed || (o.fail_on_skip && t.skipped) ? CLI_FAIL : CLI_OK;
    }
    cli_strlist_free(&paths);
    cli_strlist_free(&dirs);
    cli_strlist_free(&o.filters);
    cli_strlist_free(&o.known);
    return rc;
}
