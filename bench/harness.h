/* harness.h: declarations shared by the benchmark harness files (cases, C loops, processes). */
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

/* ---- driver.c: what both harnesses' command lines share ---- */

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
/* When a (with v the next argument, or NULL) is one of the shared options: sets it, *takes to
 * the arguments it uses after a (0 or 1) and *bad when v is missing or invalid; returns 1.
 * Otherwise returns 0 and changes nothing. */
int bench_opt(bench_opts *o, const char *a, const char *v, int *bad, int *takes);
/* A non-negative integer (0) or 1. */
int bench_parse_int(const char *s, int64_t *v);
/* After parsing: max_rounds at least min_rounds; self gets this program's path (the RSS
 * children run it); prints "onnx-scatter VERSION; LOOPS" and onnxruntime's version, or why it
 * is not available (reason, also kept for the report). Returns 1 when the peer runs. */
int bench_start(bench_opts *o, const char *argv0, char *self, size_t self_size,
                const char *loops, ort_peer *peer, char *reason, size_t reason_size);

#endif
