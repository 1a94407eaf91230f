/* driver.c: the command-line options and start-up both harnesses share (harness.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

void bench_opts_init(bench_opts *o, int64_t warmup, int64_t min_rounds, int64_t max_rounds,
                     double seconds) {
    memset(o, 0, sizeof *o);
    o->warmup = warmup;
    o->min_rounds = min_rounds;
    o->max_rounds = max_rounds;
    o->seconds = seconds;
    o->rss = 1;
    o->node = getenv("OSC_BENCH_NODE") ? getenv("OSC_BENCH_NODE") : "node";
}

int bench_parse_int(const char *s, int64_t *v) {
    char *end;
    long long x = strtoll(s ? s : "", &end, 10);
    if (!s || !*s || *end || x < 0) return 1;
    *v = x;
    return 0;
}

int bench_opt(bench_opts *o, const char *a, const char *v, int *bad, int *takes) {
    int t = 1;
    if (!strcmp(a, "--rounds")) *bad = bench_parse_int(v, &o->rounds);
    else if (!strcmp(a, "--warmup")) *bad = bench_parse_int(v, &o->warmup) || o->warmup < 1;
    else if (!strcmp(a, "--min-rounds"))
        *bad = bench_parse_int(v, &o->min_rounds) || o->min_rounds < 1;
    else if (!strcmp(a, "--max-rounds"))
        *bad = bench_parse_int(v, &o->max_rounds) || o->max_rounds < 1;
    else if (!strcmp(a, "--seconds")) *bad = !v || !((o->seconds = strtod(v, NULL)) > 0);
    else if (!strcmp(a, "--ort")) *bad = !(o->ort_script = v);
    else if (!strcmp(a, "--ort-off")) *bad = !(o->ort_off = v);
    else if (!strcmp(a, "--markdown")) *bad = !(o->markdown = v);
    else if (!strcmp(a, "--no-rss")) o->rss = 0, t = 0;
    else return 0;
    *takes = t;
    return 1;
}

int bench_start(bench_opts *o, const char *argv0, char *self, size_t self_size,
                const char *loops, ort_peer *peer, char *reason, size_t reason_size) {
    if (o->max_rounds < o->min_rounds) o->max_rounds = o->min_rounds;
    ssize_t sl = readlink("/proc/self/exe", self, self_size - 1);
    if (sl <= 0) snprintf(self, self_size, "%s", argv0);
    else self[sl] = '\0';
    printf("onnx-scatter %s; %s", osc_version(), loops);
    int ok = 0;
    if (o->ort_script) {
        ok = peer_start(peer, o->node, o->ort_script, reason, reason_size) == 0;
        if (ok) printf("; onnxruntime %s\n", peer->version);
    } else {
        snprintf(reason, reason_size, "%s", o->ort_off ? o->ort_off : "not requested (--ort)");
    }
    if (!ok) printf("\nonnxruntime: not available (%s)\n", reason);
    return ok;
}
