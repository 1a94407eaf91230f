/* harness.h: declarations shared by the benchmark harness files (cases, C loops, processes, the
 * runner). */
#ifndef OSC_BENCH_HARNESS_H
#define OSC_BENCH_HARNESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "onnx_scatter.h"

#define BENCH_MAX_INPUTS 8

/* One node-test folder loaded into memory: the decoded inputs of test_data_set_0 (malloc'ed by
 * osc_tensor_decode_pb) and, unless skipped, output_0.pb. */
typedef struct bench_case {
    char dir[1024];
    char name[256];         /* the folder's last component */
    osc_tensor in[BENCH_MAX_INPUTS];
    size_t n_in;
    osc_tensor expected;    /* data NULL when not loaded */
} bench_case;

/* Reads a TensorProto file into *t (data malloc'ed: osc_tensor_free_data). 1 when the file does
 * not exist; 0 loaded; -1 failed (msg set). */
int tensor_load_pb(const char *path, osc_tensor *t, char *msg, size_t msg_size);

/* Loads dir/test_data_set_0/input_K.pb (K = 0, 1, ... while present) and, when want_expected,
 * output_0.pb. 0 on success; else 1 with msg set and nothing held. */
int case_load(bench_case *bc, const char *dir, int want_expected, char *msg, size_t msg_size);
void case_free(bench_case *bc);

/* The plain C contender: what a programmer would write by hand for this one node, specialised
 * to its op and shapes but not tuned: memcpy(out, data), then one loop over the updates in
 * row-major order (so duplicates land in the same order as in the runtime and the results are
 * bit-identical). It normalises negative indices but checks no bounds. */
typedef enum cloop_kind { CL_NONE, CL_SE2D, CL_ND, CL_TS } cloop_kind;
typedef struct cloop {
    cloop_kind kind;
    int add;                /* reduction add on float32; otherwise plain assignment */
    size_t esize;           /* bytes per element of data */
    int32_t index_bits;     /* 32 or 64 */
    int64_t axis;           /* CL_SE2D: 0 or 1 */
    const osc_tensor *data, *idx, *upd;
    char why[160];          /* CL_NONE: why the case has no C loop */
} cloop;

/* Describes node 0 of model m for the C loop; kind CL_NONE (why set) when not covered. */
void cloop_prepare(cloop *c, const osc_model *m, const bench_case *bc);
/* Applies the updates to out, which already holds a copy of data (or is data, in place). */
void cloop_scatter(const cloop *c, void *out);

/* memcpy on two threads: a helper thread, started once, copies the second half while the
 * caller copies the first (the "two-thread memcpy" the premise is about). */
typedef struct pcopy {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t posted, done;  /* jobs handed to the helper / finished by it */
    int quit;
    char *dst;
    const char *src;
    size_t n;
} pcopy;

/* 0 when the helper runs; else 1 (nothing to stop). */
int pcopy_start(pcopy *p);
void pcopy_run(pcopy *p, void *dst, const void *src, size_t n);
void pcopy_stop(pcopy *p);

/* Runs argv (argv[0] looked up in PATH) with stdout to a pipe and returns its first line that
 * starts with `prefix` (without the newline) in line; waits for the child. 0 on success, else 1
 * with the reason in line. */
int child_line(char *const argv[], const char *prefix, char *line, size_t size);

/* The onnxruntime-node peer process (bench/ort/ort_bench.js serve), driven line by line. */
typedef struct ort_peer {
    FILE *to, *from;
    int pid;
    int dead;               /* a write or read failed: the process is gone */
    char version[64];
} ort_peer;

/* Starts node on script; 0 when it answers hello, else 1 with the reason in msg. */
int peer_start(ort_peer *p, const char *node, const char *script, char *msg, size_t msg_size);
/* Starts argv (another peer speaking the same line protocol, e.g. bench/torch_bench.py serve);
 * 0 when it answers hello (the rest of the answer in p->version), else 1 with msg set. */
int peer_spawn(ort_peer *p, char *const argv[], char *msg, size_t msg_size);
/* Sends one command line and reads one answer line into *line (getline buffer, *cap).
 * 0 when the answer starts with "ok" (the rest, after "ok ", in *rest), else 1 (the answer or
 * the I/O failure in *rest). */
int peer_cmd(ort_peer *p, const char *cmd, char **line, size_t *cap, const char **rest);
/* Reads one more line (for multi-line answers); NULL at end of stream. */
const char *peer_read(ort_peer *p, char **line, size_t *cap);
void peer_stop(ort_peer *p);

/* Ends the case on the peer ("finish W1 W2": the first W1 runs of its 1-thread session and W2 of
 * its 2-thread one are dropped) and reads onnxruntime's profiler times in ms: times[t - 1] (malloc'ed)
 * and n[t - 1] for the t-thread session; a session the peer reports nothing for gets NULL, 0.
 * 0 on success; else 1 with *rest saying why. */
int peer_finish(ort_peer *p, const int64_t warm[2], double *times[2], size_t n[2], char **line,
                size_t *cap, const char **rest);

/* Timing (clock.c). bench_shuffle: order = 0..n-1, shuffled unless round is 0 (splitmix64 from
 * *seed, so every run of the harness uses the same orders). bench_summary: median, min, max of
 * v (NaN when n is 0). */
uint64_t bench_mix(uint64_t *s);
void bench_shuffle(int *order, int n, int round, uint64_t *seed);
double bench_now_ms(clockid_t clk);
int bench_cmp_double(const void *a, const void *b);
void bench_summary(const double *v, size_t n, double *med, double *min, double *max);

/* Peak RSS helpers (Linux): resets the process's high-water mark to its current RSS (writes 5 to
 * /proc/self/clear_refs; 0 on success), and reads a field of /proc/self/status in kB (-1 when
 * absent). */
int rss_reset_peak(void);
long rss_status_kb(const char *field);

/* ---- runner.c: what both harnesses (harness.c, gnn_harness.c) share: the command line, the
 * case loop, the timed rounds, the onnxruntime sessions, the peak-RSS children ---- */

#define BENCH_MAX_CONTENDERS 12

/* The options of harness.c and gnn_harness.c alike. */
typedef struct bench_opts {
    int64_t rounds, warmup, min_rounds, max_rounds; /* rounds 0: from seconds */
    double seconds;
    const char *ort_script, *ort_off, *markdown, *node;
    int rss;
} bench_opts;

/* Defaults, node from $OSC_BENCH_NODE (else `node`), peak RSS on. */
void bench_opts_init(bench_opts *o, int64_t warmup, int64_t min_rounds, int64_t max_rounds,
                     double seconds);
/* A non-negative integer (0) or 1. */
int bench_parse_int(const char *s, int64_t *v);

/* A contender: its name in the reports, its --rss-child argument and its thread count. */
typedef struct bench_kind {
    const char *name, *id;
    int threads;
} bench_kind;

/* One contender of a case. The runner keeps the timings, the onnxruntime state and the RSS
 * figures; a harness's setup hook loads m and s (bench_osc_setup) or its own state. */
typedef struct bench_contender {
    int active;
    char note[256];          /* why inactive, or a remark (e.g. threads) */
    osc_model *m;
    osc_session *s;
    double *ms;              /* timed runs */
    size_t n_ms;
    int64_t calls;           /* calls per round (a burst); 1 without bursts */
    double est_ms;           /* latest time of one call, to size the burst */
    int64_t warm_runs;       /* onnxruntime: runs made in warm-up rounds (dropped) */
    double cpu_ms, wall_ms;  /* sums over the timed runs */
    int mismatches;
    char check[256];         /* result of the last check */
    long rss_base_kb, rss_peak_kb; /* -1: not measured */
    long rss_file_kb;        /* file-backed part of the base (code pages); -1: not measured */
    double med, min, max;
} bench_contender;

/* One case's results, kept for the Markdown report. */
typedef struct bench_result {
    char name[256], what[512], extra[512]; /* extra: a line the harness adds (or "") */
    int64_t rounds, warmup;
    double io_kb;            /* KiB of the case's tensors, as the harness counts them */
    bench_contender c[BENCH_MAX_CONTENDERS];
} bench_result;

typedef struct bench_run bench_run;

/* What a harness tells the runner: its contenders and its hooks. A hook gets the bench_run the
 * harness passed to bench_main (the first member of its own state). child: in the --rss-child
 * process (no timed rounds, the case loaded without output_0.pb). */
typedef struct bench_spec {
    const char *loops;       /* the first line's contenders besides the runtimes */
    const char *all_ok;      /* the last line when nothing failed */
    int count;               /* contenders, kinds[0 .. count - 1] (at most BENCH_MAX_CONTENDERS) */
    const bench_kind *kinds;
    int ort1, ort2;          /* the onnxruntime contenders (1 and 2 intra-op threads) */
    uint64_t seed;           /* of the rounds' shuffles */
    long ort_pause_ns;       /* pause after each onnxruntime burst (0: none) */
    int check_after_round;   /* outputs checked after the round; 0: after each contender's burst */
    int rss_file;            /* the RSS child also reports RssFile */
    void (*usage)(FILE *f);
    /* An option of this harness only: as the shared ones (v the next argument or NULL; *bad
     * when invalid; *takes preset to 1); 0 when a is not one. NULL: none. */
    int (*option)(bench_run *r, const char *a, const char *v, int *bad, int *takes);
    /* The case is loaded (r->bc, res->name): reads what else it needs and sizes res->io_kb;
     * 1 (msg set) skips the case. */
    int (*load)(bench_run *r, bench_result *res, char *msg, size_t msg_size);
    /* Sets the contenders up (bench_setup) and describes the case in res->what. */
    void (*begin)(bench_run *r, bench_result *res);
    /* One contender (never onnxruntime): 0 when ready, else 1 with c->note set. */
    int (*setup)(bench_run *r, int id, bench_contender *c, int child);
    /* Frees what setup made besides the contender's m and s (NULL: nothing). */
    void (*teardown)(bench_run *r, int id);
    /* One timed call (never onnxruntime): *ms the timed part, *cpu the process CPU time in it;
     * 1 on failure with c->note set. */
    int (*run)(bench_run *r, int id, bench_contender *c, int child, double *ms, double *cpu);
    /* Checks contender id's last output (onnxruntime's: bench_ort_check); 1 fails the run. */
    int (*check)(bench_run *r, int id, bench_contender *all);
    /* After the rounds and the medians, before the contenders are torn down (NULL: nothing). */
    void (*after_rounds)(bench_run *r, bench_result *res);
    /* The case's console table (after the peak RSS). */
    void (*print)(const bench_run *r, const bench_result *res);
    /* The Markdown report of the n cases into f (bench_md_ort_note says why no onnxruntime). */
    void (*markdown)(FILE *f, const bench_run *r, const bench_result *res, size_t n);
    /* In the RSS child, before the base is measured (NULL: nothing); 1 fails the child. */
    int (*rss_prepare)(bench_run *r, int id);
    /* The RSS child of contender id (not onnxruntime) when it is another program: fills argv
     * (at most 7 entries and the NULL) and returns 1; the program prints "rss BASE PEAK". NULL
     * or 0: this program with --rss-child. */
    int (*rss_argv)(bench_run *r, int id, char *argv[8]);
} bench_spec;

struct bench_run {
    const bench_spec *sp;
    bench_opts o;
    double burst_ms;         /* > 0: bursts of calls lasting about this long (at most
                              * max_calls); 0: one call per contender and round */
    int64_t max_calls;
    char self[1024];         /* this program (the RSS children run it) */
    bench_case bc;           /* the case being run */
    ort_peer peer;
    int peer_ok;
    char ort_reason[512];    /* why onnxruntime is not available (suite-wide) */
    char *line;              /* the peer's answers (getline buffer) */
    size_t cap;
    int failed;
};

/* The program: --rss-child ID DIR, or the options and CASE_DIRs; each case loaded, set up, run
 * for the rounds, measured for peak RSS and printed, then the Markdown report. r->sp and the
 * defaults of r->o (bench_opts_init) are set; the rest of r is zero. Returns the exit status. */
int bench_main(int argc, char **argv, bench_run *r);
/* "bench: CASE: CONTENDER: what" on stderr. */
void bench_report(const bench_run *r, int id, const char *what);
/* Sets up contenders from .. to - 1 but onnxruntime's; a failure is reported and fails the run
 * (every contender but onnxruntime is required). */
void bench_setup(bench_run *r, bench_contender *all, int from, int to);
/* Frees a contender's state (the teardown hook, the session and the model). */
void bench_teardown(bench_run *r, int id, bench_contender *c);
/* Loads the case's model.onnx with opts into c->m, makes c->s and binds the case's inputs; 1
 * with c->note set on failure. */
int bench_osc_setup(const bench_run *r, const osc_options *opts, bench_contender *c);
/* Sends "check T" plus tol (e.g. " RTOL ATOL", or "") for onnxruntime contender id into
 * c->check; a failed check or an answer other than bit-identical / within is reported and
 * counted, but returns 0: onnxruntime's results do not fail the suite. */
int bench_ort_check(bench_run *r, int id, bench_contender *c, const char *tol);
/* A Markdown table cell " V |": 1, 2 or 4 decimals by size, tiny_digits below 0.01; a dash
 * for NaN. */
void bench_md_num(FILE *f, double v, int tiny_digits);
/* "\nonnxruntime: not available (WHY)\n" when it was not. */
void bench_md_ort_note(FILE *f, const bench_run *r);

#endif
