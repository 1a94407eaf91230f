/* test_bad.c: runs the malformed-model suite (tests/bad/cases) through the API. Every case is
 * loaded from its file and from memory and must give the status of its `expect` file with a
 * one-line message, the load from the file and the first run taking under the CPU time limit (1 s;
 * --limit S: S seconds, for sanitizer builds; --slow: 60 s, for valgrind). A case that
 * reaches the run is run twice: plainly, then with opts.inplace_inputs and caller output buffers,
 * where a failed run must leave every caller buffer (outputs and inputs written in place)
 * exactly as it was and no output readable.
 * Every case is also loaded with opts.no_fusion (the graph as written): a load must give the same
 * status, a run case the same status (the same class of error, not the same text) and, when it
 * succeeds, the same outputs byte for byte (dtype, shape and every byte) as the fused run.
 * Optional files in a case folder: `message` (one text a line, each of which the error message of
 * the default load or run must hold: node, input, position, value, range) and `message_unfused`
 * (the same for the run with opts.no_fusion).
 * With --faults, each case is loaded (and, for run cases, run) again with the 1st, 2nd, ...
 * allocation failing (every one of the first 256, then a sample), until one attempt makes no
 * failing allocation: every attempt that hits the
 * failure must give OSC_ERR_NOMEM with a message (a run may instead recover, as GEMM's scratch
 * falls back to a one-off block: then it must give the case's outcome, on success the outputs
 * of a run without faults), give back every byte, and a session that saw it must then run
 * normally. A load must not recover: one that quietly dropped the fusion was a bug.
 * Usage: test_bad CASES_DIR [--limit S | --slow] [--faults]     (exit 0: every case passed)
 * Environment: OSC_BAD_VERBOSE set: print each run's error message, fused and unfused. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "onnx_scatter.h"

#define MAX_IO 16

/* The fault-injecting allocator hook: counts allocations (a new block or a growing realloc),
 * fails number fail_at (0: never), and tracks live bytes through a size header. */
typedef struct faults {
    long count, fail_at;
    int injected;
    long long live;
} faults;

static void *fault_hook(void *ud, void *ptr, size_t osize, size_t nsize) {
    faults *f = ud;
    size_t *h = ptr ? (size_t *)ptr - 2 : NULL;
    if (h && h[0] != osize) abort(); /* the library passed back a wrong size */
    if (nsize == 0) {
        if (h) f->live -= (long long)h[0];
        free(h);
        return NULL;
    }
    if (!h || nsize > h[0]) {
        if (++f->count == f->fail_at) {
            f->injected = 1;
            return NULL;
        }
    }
    size_t *q = realloc(h, 2 * sizeof(size_t) + nsize);
    if (!q) return NULL;
    f->live += (long long)nsize - (h ? (long long)q[0] : 0);
    q[0] = nsize;
    return q + 2;
}

static const char *const k_status[] = {
    "OSC_OK",        "OSC_ERR_ARG",   "OSC_ERR_NOMEM", "OSC_ERR_IO",
    "OSC_ERR_PARSE", "OSC_ERR_MODEL", "OSC_ERR_UNSUPPORTED", "OSC_ERR_SHAPE",
    "OSC_ERR_INDEX", "OSC_ERR_LIMIT", "OSC_ERR_STATE", "OSC_ERR_CANCELLED"};

static const char *status_str(osc_status s) {
    return (unsigned)s < sizeof k_status / sizeof k_status[0] ? k_status[s] : "?";
}

/* CPU seconds of the process (every thread): the limit bounds the work a case makes, whatever
 * else shares the machine (wall time failed cases on a loaded machine). */
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int read_file(const char *path, void **buf, size_t *len) {
    *buf = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *buf = malloc(n > 0 ? (size_t)n : 1);
    *len = n > 0 ? (size_t)n : 0;
    size_t got = *len ? fread(*buf, 1, *len, f) : 0;
    fclose(f);
    return got == *len ? 0 : -1;
}

/* One-line, non-empty, NUL-terminated within OSC_MESSAGE_SIZE. */
static int msg_ok(const char *msg) {
    size_t n = strnlen(msg, OSC_MESSAGE_SIZE);
    return n > 0 && n < OSC_MESSAGE_SIZE && !strchr(msg, '\n');
}

/* The texts (one a line) of file `file` in the case folder that msg must hold: 0 when the file is
 * absent or msg holds each; else 1 with *why naming the first missing one. */
static int check_words(const char *dir, const char *file, const char *what, const char *msg,
                       char *why, size_t why_size) {
    char path[8192], line[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] && !strstr(msg, line)) {
            snprintf(why, why_size, "%s message lacks '%s': %s", what, line, msg);
            rc = 1;
        }
    }
    fclose(f);
    return rc;
}

/* Every output of a successful run, flattened: dtype, rank, dims, then the bytes (strings: each
 * length and its bytes), so that two runs compare with one memcmp. */
typedef struct outs {
    uint8_t *p;
    size_t n, cap;
} outs;

static void outs_put(outs *o, const void *src, size_t n) {
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->n + n) cap *= 2;
        uint8_t *p = realloc(o->p, cap);
        if (!p) abort();
        o->p = p;
        o->cap = cap;
    }
    if (n) memcpy(o->p + o->n, src, n);
    o->n += n;
}

static void outs_capture(osc_session *s, size_t n_out, outs *o) {
    o->n = 0;
    for (size_t i = 0; i < n_out; i++) {
        osc_tensor t;
        if (osc_session_output(s, i, &t) != OSC_OK) continue; /* reported by run_case */
        outs_put(o, &t.dtype, sizeof t.dtype);
        outs_put(o, &t.rank, sizeof t.rank);
        outs_put(o, t.dims, (size_t)t.rank * sizeof t.dims[0]);
        if (t.dtype != OSC_STRING) {
            outs_put(o, t.data, t.nbytes);
            continue;
        }
        const osc_string *str = t.data;
        for (size_t k = 0; k < t.nbytes / sizeof *str; k++) {
            outs_put(o, &str[k].len, sizeof str[k].len);
            outs_put(o, str[k].ptr, str[k].len);
        }
    }
}

typedef struct inputs {
    osc_tensor t[MAX_IO];
    void *copy[MAX_IO];
    int n;
} inputs;

static void free_inputs(inputs *in) {
    for (int i = 0; i < in->n; i++) {
        osc_tensor_free_data(&in->t[i]);
        free(in->copy[i]);
    }
    in->n = 0;
}

/* test_data_set_0/input_K.pb for K = 0, 1, ... */
static int load_inputs(const char *dir, inputs *in, char *why, size_t why_size) {
    in->n = 0;
    for (int k = 0; k < MAX_IO; k++) {
        char path[8192], msg[OSC_MESSAGE_SIZE];
        if (snprintf(path, sizeof path, "%s/test_data_set_0/input_%d.pb", dir, k) >=
            (int)sizeof path)
            break;
        void *buf;
        size_t len;
        if (read_file(path, &buf, &len) != 0) {
            free(buf);
            break;
        }
        osc_status st = osc_tensor_decode_pb(buf, len, &in->t[k], NULL, 0, msg, sizeof msg);
        free(buf);
        if (st) {
            snprintf(why, why_size, "input_%d.pb: %s", k, msg);
            return -1;
        }
        in->copy[k] = malloc(in->t[k].nbytes ? in->t[k].nbytes : 1);
        memcpy(in->copy[k], in->t[k].data, in->t[k].nbytes);
        in->n = k + 1;
    }
    return 0;
}

/* Runs m on the inputs; with `strict_buffers`, caller output buffers are set (0xA5 filled) and
 * checked after a failure, as are the input buffers. Returns the run status; *why is set when a
 * check fails (then the status is reported as -1). err receives the session's error message
 * (OSC_MESSAGE_SIZE bytes); cap (when not NULL) the outputs of a successful run. */
static int run_case(const osc_model *m, inputs *in, int strict_buffers, char *why,
                    size_t why_size, char *err, outs *cap_out) {
    osc_session *s;
    err[0] = '\0';
    if (osc_session_create(m, &s) != OSC_OK) {
        snprintf(why, why_size, "osc_session_create failed");
        return -1;
    }
    size_t n_out = osc_model_output_count(m);
    uint8_t *buf[MAX_IO] = {0};
    size_t cap[MAX_IO] = {0};
    int rc = 0;
    for (int i = 0; i < in->n; i++) {
        memcpy(in->t[i].data, in->copy[i], in->t[i].nbytes); /* consumed in place last time */
        osc_status st = osc_session_set_input_at(s, (size_t)i, &in->t[i]);
        if (st) {
            rc = (int)st; /* a binding failure is the case's outcome */
            snprintf(err, OSC_MESSAGE_SIZE, "%s", osc_session_error(s));
            goto done;
        }
    }
    for (size_t o = 0; strict_buffers && o < n_out && o < MAX_IO; o++) {
        osc_value_desc vd;
        osc_model_output(m, o, &vd);
        osc_tensor shape = {.dtype = vd.dtype, .rank = vd.rank};
        memcpy(shape.dims, vd.dims, sizeof shape.dims);
        int64_t count = vd.rank >= 0 ? osc_tensor_count(&shape) : -1;
        cap[o] = count >= 0 && vd.dtype
                     ? (size_t)(count * (int64_t)osc_dtype_bits(vd.dtype) + 7) / 8
                     : (size_t)1 << 16;
        buf[o] = malloc(cap[o] ? cap[o] : 1);
        memset(buf[o], 0xA5, cap[o]);
        osc_session_set_output_buffer(s, o, buf[o], cap[o]);
    }
    osc_status st = osc_session_run(s);
    rc = (int)st;
    snprintf(err, OSC_MESSAGE_SIZE, "%s", osc_session_error(s));
    if (st == OSC_OK && cap_out) outs_capture(s, n_out, cap_out);
    if (st == OSC_OK) {
        for (size_t o = 0; o < n_out; o++) {
            osc_tensor t;
            if (osc_session_output(s, o, &t) != OSC_OK) {
                snprintf(why, why_size, "output %zu not readable after a successful run", o);
                rc = -1;
            }
        }
        goto done;
    }
    if (!msg_ok(osc_session_error(s))) {
        snprintf(why, why_size, "run failed without a one-line message");
        rc = -1;
    }
    osc_tensor t;
    if (n_out && osc_session_output(s, 0, &t) != OSC_ERR_STATE) {
        snprintf(why, why_size, "an output is readable after a failed run");
        rc = -1;
    }
    for (size_t o = 0; o < n_out && o < MAX_IO; o++)
        for (size_t k = 0; buf[o] && k < cap[o]; k++)
            if (buf[o][k] != 0xA5) {
                snprintf(why, why_size, "failed run wrote output %zu (byte %zu)", o, k);
                rc = -1;
                break;
            }
    for (int i = 0; i < in->n; i++)
        if (memcmp(in->t[i].data, in->copy[i], in->t[i].nbytes) != 0) {
            snprintf(why, why_size, "failed run changed the buffer of input %d", i);
            rc = -1;
        }
done:
    osc_session_free(s);
    for (size_t o = 0; o < MAX_IO; o++) free(buf[o]);
    return rc;
}

static int g_faults;

/* Allocation numbers to fail: every one of the first 256, then about 3% apart, so that models
 * making thousands of allocations (the 10,000-node chain) stay within seconds. */
static long next_fault(long k) { return k < 256 ? k + 1 : k + k / 32; }

/* The --faults pass of one case (see the top of the file); 0 when every attempt was clean. */
static int fault_sweep(const char *dir, int run, int want, char *why, size_t why_size) {
    char path[8192], msg[OSC_MESSAGE_SIZE];
    snprintf(path, sizeof path, "%s/model.onnx", dir);
    faults f = {0};
    osc_options o;
    osc_options_init(&o);
    o.alloc = fault_hook;
    o.alloc_ud = &f;
    for (long k = 1;; k = next_fault(k)) {
        f = (faults){0, k, 0, 0};
        osc_model *m = NULL;
        osc_status st = osc_model_load_file(path, &o, &m, msg, sizeof msg);
        osc_model_free(m);
        if (f.live) {
            snprintf(why, why_size, "load failing allocation %ld leaked %lld bytes", k, f.live);
            return 1;
        }
        if (!f.injected) break;
        if (st != OSC_ERR_NOMEM || !msg_ok(msg)) {
            snprintf(why, why_size, "load failing allocation %ld gave %s (%s)", k,
                     status_str(st), msg);
            return 1;
        }
    }
    if (!run) return 0;
    inputs in = {0};
    if (load_inputs(dir, &in, why, why_size) != 0) return 1;
    int rc = 0;
    outs ref = {0}; /* the outputs of a run without faults */
    osc_model *clean = NULL;
    if (osc_model_load_file(path, NULL, &clean, msg, sizeof msg) == OSC_OK)
        run_case(clean, &in, 0, why, why_size, msg, &ref);
    osc_model_free(clean);
    for (long k = 1; !rc; k = next_fault(k)) {
        f = (faults){0, 0, 0, 0};
        osc_model *m = NULL;
        if (osc_model_load_file(path, &o, &m, msg, sizeof msg) != OSC_OK) {
            snprintf(why, why_size, "load with the counting hook failed: %s", msg);
            rc = 1;
            break;
        }
        long long model_live = f.live;
        f.fail_at = f.count + k;
        osc_session *s = NULL;
        osc_status st = osc_session_create(m, &s);
        for (int i = 0; !st && i < in.n; i++) {
            memcpy(in.t[i].data, in.copy[i], in.t[i].nbytes);
            st = osc_session_set_input_at(s, (size_t)i, &in.t[i]);
        }
        if (!st) st = osc_session_run(s);
        int injected = f.injected;
        /* a kernel may recover (GEMM's scratch falls back to a one-off block): then the run
         * must give the case's outcome and, when it succeeds, the outputs of a clean run */
        outs got = {0};
        if (injected && st == OSC_OK) outs_capture(s, osc_model_output_count(m), &got);
        int recovered = (int)st == want &&
                        (st != OSC_OK || (got.n == ref.n && !memcmp(got.p, ref.p, got.n)));
        free(got.p);
        if (injected && st != OSC_ERR_NOMEM && !recovered) {
            snprintf(why, why_size, "run failing allocation %ld gave %s (%s)", k, status_str(st),
                     s ? osc_session_error(s) : "");
            rc = 1;
        }
        if (injected && s && !rc && st == OSC_ERR_NOMEM) { /* the session stays usable */
            f.fail_at = 0;
            for (int i = 0; i < in.n; i++) {
                memcpy(in.t[i].data, in.copy[i], in.t[i].nbytes);
                osc_session_set_input_at(s, (size_t)i, &in.t[i]);
            }
            st = osc_session_run(s);
            if ((int)st != want) {
                snprintf(why, why_size, "after failing allocation %ld the next run gave %s", k,
                         status_str(st));
                rc = 1;
            }
        }
        osc_session_free(s);
        if (!rc && f.live != model_live) {
            snprintf(why, why_size, "run failing allocation %ld leaked %lld bytes", k,
                     f.live - model_live);
            rc = 1;
        }
        osc_model_free(m);
        if (!injected) break;
    }
    free_inputs(&in);
    free(ref.p);
    return rc;
}

/* The load with opts.no_fusion must give the fused load's status; a run case then runs unfused
 * with caller output buffers and must give the fused run's status (want), its outputs (when
 * fused holds those of a successful fused run) and the texts of `message_unfused`. */
static int unfused_checks(const char *dir, const char *path, osc_status load_st, int run,
                          int want, inputs *in, const outs *fused, char *why, size_t why_size) {
    osc_options opts;
    osc_options_init(&opts);
    opts.no_fusion = 1;
    char msg[OSC_MESSAGE_SIZE];
    osc_model *m = NULL;
    osc_status st = osc_model_load_file(path, &opts, &m, msg, sizeof msg);
    int fail = 0;
    if (st != load_st) {
        snprintf(why, why_size, "the unfused load gave %s (%s), the fused one %s",
                 status_str(st), msg, status_str(load_st));
        fail = 1;
    } else if (st != OSC_OK || !run) {
        fail = st != OSC_OK && check_words(dir, "message_unfused", "unfused load", msg, why,
                                           why_size);
    } else {
        outs got = {0};
        int r = run_case(m, in, 1, why, why_size, msg, &got);
        if (r != want) {
            if (r >= 0)
                snprintf(why, why_size, "the unfused run gave %s (%s); expected %s, as fused",
                         status_str(r), msg, status_str(want));
            fail = 1;
        } else if (r != OSC_OK) {
            if (getenv("OSC_BAD_VERBOSE")) printf("  %s (unfused): %s\n", dir, msg);
            fail = check_words(dir, "message_unfused", "unfused run", msg, why, why_size);
        } else if (got.n != fused->n || memcmp(got.p, fused->p, got.n) != 0) {
            size_t k = 0;
            while (k < got.n && k < fused->n && got.p[k] == fused->p[k]) k++;
            snprintf(why, why_size, "fused and unfused outputs differ (%zu and %zu bytes, first "
                     "difference at byte %zu of the flattened outputs)", fused->n, got.n, k);
            fail = 1;
        }
        free(got.p);
    }
    osc_model_free(m);
    return fail;
}

/* The runs of a case whose load succeeded: plainly, then with in-place inputs and caller output
 * buffers, then unfused; each must give want, failures with the texts of `message`. */
static int run_checks(const char *dir, const char *path, osc_model **m, int want, double *dt,
                      char *why, size_t why_size) {
    inputs in = {0};
    char err[OSC_MESSAGE_SIZE], msg[OSC_MESSAGE_SIZE];
    outs fused = {0};
    int fail = 0;
    if (load_inputs(dir, &in, why, why_size) != 0) return 1;
    double t0 = now();
    int r = run_case(*m, &in, 0, why, why_size, err, &fused);
    *dt += now() - t0;
    if (r != want) {
        if (r >= 0)
            snprintf(why, why_size, "run gave %s (%s); expected %s", status_str(r), err,
                     status_str(want));
        fail = 1;
    }
    if (getenv("OSC_BAD_VERBOSE")) printf("  %s: %s\n", dir, err); /* to write `message` */
    if (!fail && r != OSC_OK) fail = check_words(dir, "message", "run", err, why, why_size);
    osc_model_free(*m);
    *m = NULL;
    osc_options opts;
    osc_options_init(&opts);
    opts.inplace_inputs = 1;
    if (!fail && osc_model_load_file(path, &opts, m, msg, sizeof msg) == OSC_OK) {
        r = run_case(*m, &in, 1, why, why_size, err, NULL);
        if (r != want) {
            if (r >= 0)
                snprintf(why, why_size, "run with in-place inputs and output buffers gave %s "
                         "(%s); expected %s", status_str(r), err, status_str(want));
            fail = 1;
        }
        if (!fail && r != OSC_OK)
            fail = check_words(dir, "message", "run (output buffers)", err, why, why_size);
    }
    if (!fail) fail = unfused_checks(dir, path, OSC_OK, 1, want, &in, &fused, why, why_size);
    free(fused.p);
    free_inputs(&in);
    return fail;
}

static int check_case(const char *root, const char *name, double limit) {
    char dir[4096], path[8192], why[1200] = "";
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    snprintf(path, sizeof path, "%s/expect", dir);
    FILE *f = fopen(path, "r");
    if (!f) return -1; /* not a case folder */
    char want_s[64] = "", stage[16] = "";
    int fields = fscanf(f, "%63s %15s", want_s, stage);
    fclose(f);
    int want = -1;
    for (size_t i = 0; i < sizeof k_status / sizeof k_status[0]; i++)
        if (strcmp(want_s, k_status[i]) == 0) want = (int)i;
    if (fields != 2 || want < 0 || (strcmp(stage, "load") && strcmp(stage, "run"))) {
        printf("FAIL %s: bad expect file\n", name);
        return 1;
    }
    int run = strcmp(stage, "run") == 0;
    double t0 = now();
    snprintf(path, sizeof path, "%s/model.onnx", dir);
    char msg[OSC_MESSAGE_SIZE];
    osc_model *m = NULL;
    osc_options opts;
    osc_options_init(&opts);
    osc_status st = osc_model_load_file(path, &opts, &m, msg, sizeof msg);
    double dt = now() - t0; /* what a user pays once: the load, then the first run */
    int fail = 0;
    /* the same bytes from memory, external data resolved in the case's folder */
    void *bytes;
    size_t len;
    if (read_file(path, &bytes, &len) == 0) {
        osc_model *m2 = NULL;
        char msg2[OSC_MESSAGE_SIZE];
        osc_status st2 = osc_model_load_buffer(bytes, len, dir, &opts, &m2, msg2, sizeof msg2);
        if (st2 != st) {
            snprintf(why, sizeof why, "load_buffer gave %s, load_file %s", status_str(st2),
                     status_str(st));
            fail = 1;
        }
        osc_model_free(m2);
    }
    free(bytes);
    if (!run || st != OSC_OK) {
        if (!fail && (int)st != want) {
            snprintf(why, sizeof why, "load gave %s (%s); expected %s", status_str(st), msg,
                     want_s);
            fail = 1;
        }
        if (!fail && st != OSC_OK && (!msg_ok(msg) || m)) {
            snprintf(why, sizeof why, "failed load without a one-line message or with a model");
            fail = 1;
        }
        if (!fail && run && st == OSC_OK) {
            snprintf(why, sizeof why, "a run case failed to load: %s", msg);
            fail = 1;
        }
        if (!fail && st != OSC_OK) fail = check_words(dir, "message", "load", msg, why,
                                                      sizeof why);
        if (!fail) fail = unfused_checks(dir, path, st, 0, want, NULL, NULL, why, sizeof why);
    } else {
        fail = run_checks(dir, path, &m, want, &dt, why, sizeof why);
    }
    osc_model_free(m);
    if (!fail && g_faults) fail = fault_sweep(dir, run, want, why, sizeof why);
    if (!fail && dt > limit) {
        snprintf(why, sizeof why, "took %.3f s (limit %.0f s)", dt, limit);
        fail = 1;
    }
    printf("%s %s%s%s\n", fail ? "FAIL" : "PASS", name, fail ? ": " : "", fail ? why : "");
    return fail;
}

static int cmp(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_bad CASES_DIR [--limit S | --slow] [--faults]\n");
        return 2;
    }
    double limit = 1.0;
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--slow") == 0) limit = 60.0;
        else if (strcmp(argv[a], "--limit") == 0 && a + 1 < argc) limit = atof(argv[++a]);
        else if (strcmp(argv[a], "--faults") == 0) g_faults = 1, limit = 60.0;
    }
    DIR *d = opendir(argv[1]);
    if (!d) {
        fprintf(stderr, "test_bad: cannot open %s\n", argv[1]);
        return 1;
    }
    char *names[1024];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 1024;)
        if (e->d_name[0] != '.' && e->d_name[0] != '_') names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp);
    int failed = 0, cases = 0;
    for (int i = 0; i < n; i++) {
        int r = check_case(argv[1], names[i], limit);
        if (r >= 0) cases++;
        if (r > 0) failed++;
        free(names[i]);
    }
    printf("%d cases, %d failed\n", cases, failed);
    return failed || cases == 0 ? 1 : 0;
}
