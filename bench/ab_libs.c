/* ab_libs.c: times osc_session_run of two builds of libonnxscatter.so on one case, in one
 * process, in alternating blocks of runs: separate processes add ±15% of noise on a 32 MiB copy.
 * Each library is dlopen'ed with RTLD_LOCAL | RTLD_DEEPBIND, so both sets of osc_ symbols live
 * side by side; both sessions are bound to the same decoded inputs.
 *
 * usage: osc-bench-ab LIB_A LIB_B CASE_DIR [ROUNDS [RUNS]]   (defaults 40 rounds of 50 runs)
 *
 * Pass the same library twice under two file names (cp lib.so /tmp/copy.so) to see what the
 * slot alone costs: the library loaded second gets later buffers. docs/performance-targets.md
 * ("The redesign") reads the KV-cache cases this way. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

typedef struct ab_lib {
    void *handle;
    osc_model *model;
    osc_session *session;
    osc_status (*run)(osc_session *);
    double *t;
    size_t n;
} ab_lib;

/* Loads path, the case's model and a session with its inputs bound. 0 on success. */
static int ab_open(ab_lib *l, const char *path, const bench_case *bc, size_t max_runs) {
    l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!l->handle) return fprintf(stderr, "%s\n", dlerror()), 1;
    osc_status (*load)(const char *, const osc_options *, osc_model **, char *, size_t) =
        (osc_status(*)(const char *, const osc_options *, osc_model **, char *, size_t))dlsym(
            l->handle, "osc_model_load_file");
    osc_status (*create)(const osc_model *, osc_session **) =
        (osc_status(*)(const osc_model *, osc_session **))dlsym(l->handle, "osc_session_create");
    osc_status (*set_in)(osc_session *, size_t, const osc_tensor *) =
        (osc_status(*)(osc_session *, size_t, const osc_tensor *))dlsym(l->handle,
                                                                        "osc_session_set_input_at");
    l->run = (osc_status(*)(osc_session *))dlsym(l->handle, "osc_session_run");
    if (!load || !create || !set_in || !l->run) return fprintf(stderr, "%s: missing osc_ calls\n", path), 1;
    char model[1100], msg[512];
    snprintf(model, sizeof model, "%s/model.onnx", bc->dir);
    if (load(model, NULL, &l->model, msg, sizeof msg)) return fprintf(stderr, "%s: %s\n", path, msg), 1;
    if (create(l->model, &l->session)) return fprintf(stderr, "%s: session\n", path), 1;
    for (size_t i = 0; i < bc->n_in; i++)
        if (set_in(l->session, i, &bc->in[i])) return fprintf(stderr, "%s: input %zu\n", path, i), 1;
    l->t = malloc(sizeof(double) * max_runs);
    return l->t == NULL;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: osc-bench-ab LIB_A LIB_B CASE_DIR [ROUNDS [RUNS]]\n");
        return 2;
    }
    const int rounds = argc > 4 ? atoi(argv[4]) : 40, runs = argc > 5 ? atoi(argv[5]) : 50;
    if (rounds < 1 || runs < 1) return fprintf(stderr, "ROUNDS and RUNS must be positive\n"), 2;
    bench_case bc;
    char msg[512];
    if (case_load(&bc, argv[3], 0, msg, sizeof msg)) return fprintf(stderr, "%s\n", msg), 1;
    ab_lib lib[2] = {{0}};
    for (int k = 0; k < 2; k++)
        if (ab_open(&lib[k], argv[1 + k], &bc, (size_t)rounds * (size_t)runs)) return 1;
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < 2; j++) {
            ab_lib *l = &lib[(r & 1) ? 1 - j : j]; /* A first in even rounds, B first in odd */
            for (int w = 0; w < 3; w++) l->run(l->session);
            for (int i = 0; i < runs; i++) {
                const double t0 = bench_now_ms(CLOCK_MONOTONIC);
                if (l->run(l->session)) return fprintf(stderr, "run failed\n"), 1;
                l->t[l->n++] = bench_now_ms(CLOCK_MONOTONIC) - t0;
            }
        }
    double med[2];
    for (int k = 0; k < 2; k++) {
        double lo, hi;
        bench_summary(lib[k].t, lib[k].n, &med[k], &lo, &hi);
        printf("%c %s: median %.4f ms, min %.4f, max %.4f over %zu runs\n", 'A' + k, argv[1 + k],
               med[k], lo, hi, lib[k].n);
    }
    printf("B / A = %.3f\n", med[1] / med[0]);
    return 0; /* the libraries and sessions end with the process */
}
