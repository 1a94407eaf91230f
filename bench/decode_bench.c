/* decode_bench.c: one decoder step (the attention block of one layer: RotaryEmbedding of q and
 * k, the new k and v cast to float16 and written by TensorScatter into float16 K/V caches,
 * Attention-24 over the valid keys, y back to float32), written with the project's model
 * writer, timed in onnx-scatter (caches donated: opts.inplace_inputs) and onnxruntime (the same
 * model.onnx, bench/ort/ort_bench.js), 1 and 2 threads, side by side in shuffled rounds, with a
 * single-thread memcpy of the valid K and V bytes timed in the same rounds.
 * Usage: osc-bench-decode OUT_DIR [--ort SCRIPT] [--rounds N] [--small] [POSITION...]
 *   positions default to 1 512 4000; --small: 4 q heads, 2 kv heads, head size 8, capacity 64
 *   (the smoke test's sizes). Prints one Markdown table (per-token ms, medians over the rounds,
 *   and ratios of medians of per-round ratios). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"

typedef struct dims {
    int64_t qh, kvh, hd, cap;
} dims;

static uint64_t g_rng = 0x5eed;
static float rnd_float(void) { return (float)(bench_mix(&g_rng) >> 40) / 8388608.0f - 1.0f; }

/* float32 -> float16 bits, round to nearest even (normal range: the values here are). */
static uint16_t to_half(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    int32_t e = (int32_t)((x >> 23) & 0xff) - 127 + 15;
    if (e <= 0) return (uint16_t)sign; /* tiny values flush to zero here */
    uint32_t m = x & 0x7fffffu, h = ((uint32_t)e << 10) | (m >> 13);
    const uint32_t rest = m & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++;
    return (uint16_t)(sign | h);
}

static int save(const char *dir, const char *file, const char *name, const osc_tensor *t) {
    void *buf = NULL;
    size_t len = 0;
    char msg[256];
    if (osc_tensor_encode_pb(t, name, &buf, &len, msg, sizeof msg) != OSC_OK)
        return fprintf(stderr, "decode_bench: %s\n", msg), 1;
    const int rc = !osc_test_write_file(dir, file, buf, len, "decode_bench");
    free(buf);
    return rc;
}

/* The step's model: inputs q [1,1,H*D], k, v [1,1,KVH*D] float32, position [1,1], k_cache,
 * v_cache [1,KVH,CAP,D] float16, write_index, valid [1] int64; outputs y [1,1,H*D] float32 and
 * the caches as written (k_out, v_out). */
static void *model(const dims *d, size_t *len) {
    const int64_t qw = d->qh * d->hd, kw = d->kvh * d->hd;
    osc_mw *mw = osc_mw_new(11);
    osc_mw_names(mw, "onnx-scatter bench/decode_bench", "decode_step");
    osc_mw_opset(mw, "", 24);
    osc_mw_input(mw, "q", OSC_FLOAT, 3, (const int64_t[]){1, 1, qw}, NULL);
    osc_mw_input(mw, "k", OSC_FLOAT, 3, (const int64_t[]){1, 1, kw}, NULL);
    osc_mw_input(mw, "v", OSC_FLOAT, 3, (const int64_t[]){1, 1, kw}, NULL);
    osc_mw_input(mw, "position", OSC_INT64, 2, (const int64_t[]){1, 1}, NULL);
    const int64_t cd[4] = {1, d->kvh, d->cap, d->hd};
    osc_mw_input(mw, "k_cache", OSC_FLOAT16, 4, cd, NULL);
    osc_mw_input(mw, "v_cache", OSC_FLOAT16, 4, cd, NULL);
    osc_mw_input(mw, "write_index", OSC_INT64, 1, (const int64_t[]){1}, NULL);
    osc_mw_input(mw, "valid", OSC_INT64, 1, (const int64_t[]){1}, NULL);
    /* the rotary tables: theta 10000, positions 0..cap-1, head size / 2 columns */
    const int64_t half = d->hd / 2, td[2] = {d->cap, half};
    float *cs = malloc((size_t)(d->cap * half) * sizeof *cs);
    float *sn = malloc((size_t)(d->cap * half) * sizeof *sn);
    if (!cs || !sn) return free(cs), free(sn), osc_mw_free(mw), NULL;
    for (int64_t p = 0; p < d->cap; p++)
        for (int64_t i = 0; i < half; i++) {
            const double a = (double)p * pow(10000.0, -2.0 * (double)i / (double)d->hd);
            cs[p * half + i] = (float)cos(a), sn[p * half + i] = (float)sin(a);
        }
    osc_tensor tc = osc_test_view(OSC_FLOAT, 2, td, cs), ts = osc_test_view(OSC_FLOAT, 2, td, sn);
    osc_mw_initializer(mw, "cos", &tc);
    osc_mw_initializer(mw, "sin", &ts);
    free(cs), free(sn);
    const int64_t sq[4] = {1, 1, d->qh, d->hd}, sk[4] = {1, 1, d->kvh, d->hd};
    osc_tensor tq = osc_test_view(OSC_INT64, 1, (const int64_t[]){4}, sq);
    osc_tensor tk = osc_test_view(OSC_INT64, 1, (const int64_t[]){4}, sk);
    osc_tensor ty = osc_test_view(OSC_INT64, 1, (const int64_t[]){3}, (const int64_t[]){1, 1, qw});
    osc_mw_initializer(mw, "q_heads", &tq);
    osc_mw_initializer(mw, "kv_heads", &tk);
    osc_mw_initializer(mw, "y_flat", &ty);
    const int64_t perm[4] = {0, 2, 1, 3};
    int n = osc_mw_node(mw, "RotaryEmbedding", "rope_q", 4,
                        (const char *[]){"q", "cos", "sin", "position"}, 1, (const char *[]){"qr"});
    osc_mw_attr_int(mw, n, "num_heads", d->qh);
    n = osc_mw_node(mw, "RotaryEmbedding", "rope_k", 4,
                    (const char *[]){"k", "cos", "sin", "position"}, 1, (const char *[]){"kr"});
    osc_mw_attr_int(mw, n, "num_heads", d->kvh);
    static const char *const src[3] = {"qr", "kr", "v"}, *const shp[3] = {"q_heads", "kv_heads",
                                                                        "kv_heads"};
    static const char *const r4[3] = {"q4", "k4", "v4"}, *const tr[3] = {"qt", "kt", "vt"};
    static const char *const h16[3] = {"q16", "k16", "v16"};
    for (int i = 0; i < 3; i++) {
        osc_mw_node(mw, "Reshape", NULL, 2, (const char *[]){src[i], shp[i]}, 1, &r4[i]);
        n = osc_mw_node(mw, "Transpose", NULL, 1, &r4[i], 1, &tr[i]);
        osc_mw_attr_ints(mw, n, "perm", perm, 4);
        n = osc_mw_node(mw, "Cast", NULL, 1, &tr[i], 1, &h16[i]);
        osc_mw_attr_int(mw, n, "to", OSC_FLOAT16);
    }
    osc_mw_node(mw, "TensorScatter", "write_k", 3,
                (const char *[]){"k_cache", "k16", "write_index"}, 1, (const char *[]){"k_out"});
    osc_mw_node(mw, "TensorScatter", "write_v", 3,
                (const char *[]){"v_cache", "v16", "write_index"}, 1, (const char *[]){"v_out"});
    osc_mw_node(mw, "Attention", "attend", 7,
                (const char *[]){"q16", "k_out", "v_out", "", "", "", "valid"}, 1,
                (const char *[]){"y16"});
    n = osc_mw_node(mw, "Transpose", NULL, 1, (const char *[]){"y16"}, 1,
                    (const char *[]){"y16t"});
    osc_mw_attr_ints(mw, n, "perm", perm, 4);
    osc_mw_node(mw, "Reshape", NULL, 2, (const char *[]){"y16t", "y_flat"}, 1,
                (const char *[]){"y16f"});
    n = osc_mw_node(mw, "Cast", NULL, 1, (const char *[]){"y16f"}, 1, (const char *[]){"y"});
    osc_mw_attr_int(mw, n, "to", OSC_FLOAT);
    osc_mw_output(mw, "y", OSC_FLOAT, 3, (const int64_t[]){1, 1, qw}, NULL);
    osc_mw_output(mw, "k_out", OSC_FLOAT16, 4, cd, NULL);
    osc_mw_output(mw, "v_out", OSC_FLOAT16, 4, cd, NULL);
    void *buf = NULL;
    if (osc_mw_serialize(mw, &buf, len) != OSC_OK) {
        fprintf(stderr, "decode_bench: %s\n", osc_mw_error(mw));
        buf = NULL;
    }
    osc_mw_free(mw);
    return buf;
}

/* One position's inputs: caches holding pos random tokens (zeros after), the step writing at
 * pos with pos + 1 valid keys. */
typedef struct step {
    osc_tensor in[8];
    int64_t pos, valid;
} step;
static const char *const k_inputs[8] = {"q", "k", "v", "position", "k_cache", "v_cache",
                                        "write_index", "valid"};

static int make_step(const dims *d, int64_t pos, step *s) {
    memset(s, 0, sizeof *s);
    s->pos = pos, s->valid = pos + 1;
    const int64_t qw = d->qh * d->hd, kw = d->kvh * d->hd;
    const int64_t shapes[8][4] = {{1, 1, qw}, {1, 1, kw}, {1, 1, kw}, {1, 1}, {1, d->kvh, d->cap,
                                  d->hd}, {1, d->kvh, d->cap, d->hd}, {1}, {1}};
    static const int32_t ranks[8] = {3, 3, 3, 2, 4, 4, 1, 1};
    static const int32_t types[8] = {OSC_FLOAT, OSC_FLOAT, OSC_FLOAT, OSC_INT64, OSC_FLOAT16,
                                     OSC_FLOAT16, OSC_INT64, OSC_INT64};
    for (int i = 0; i < 8; i++) {
        osc_tensor *t = &s->in[i];
        *t = osc_test_view(types[i], ranks[i], shapes[i], NULL);
        t->data = calloc(1, t->nbytes);
        if (!t->data) return 1;
    }
    for (int i = 0; i < 3; i++)
        for (int64_t j = 0; j < osc_tensor_count(&s->in[i]); j++)
            ((float *)s->in[i].data)[j] = rnd_float();
    for (int c = 4; c < 6; c++)
        for (int64_t g = 0; g < d->kvh; g++)
            for (int64_t t = 0; t < pos; t++)
                for (int64_t e = 0; e < d->hd; e++)
                    ((uint16_t *)s->in[c].data)[(g * d->cap + t) * d->hd + e] =
                        to_half(rnd_float());
    *(int64_t *)s->in[3].data = pos, *(int64_t *)s->in[6].data = pos;
    *(int64_t *)s->in[7].data = pos + 1;
    return 0;
}

static void free_step(step *s) {
    for (int i = 0; i < 8; i++) free(s->in[i].data);
}

static int write_case(const char *dir, const void *bytes, size_t len, step *s,
                      const osc_tensor *y) {
    char set[1200];
    snprintf(set, sizeof set, "%s/test_data_set_0", dir);
    if ((mkdir(dir, 0777) && errno != EEXIST) || (mkdir(set, 0777) && errno != EEXIST)) return 1;
    if (!osc_test_write_file(dir, "model.onnx", bytes, len, "decode_bench")) return 1;
    for (int i = 0; i < 8; i++) {
        char f[32];
        snprintf(f, sizeof f, "input_%d.pb", i);
        if (save(set, f, k_inputs[i], &s->in[i])) return 1;
    }
    return save(set, "output_0.pb", "y", y);
}

/* Binds the step (caches included: a run consumes them) and runs it; 0 on success. */
static int osc_step(osc_session *se, const step *s) {
    for (int i = 0; i < 8; i++)
        if (osc_session_set_input(se, k_inputs[i], &s->in[i])) return 1;
    return osc_session_run(se) != OSC_OK;
}

enum { C_OSC1, C_OSC2, C_ORT1, C_ORT2, C_COPY, C_N };
static const char *const k_names[C_N] = {"onnx-scatter 1t", "onnx-scatter 2t", "onnxruntime 1t",
                                         "onnxruntime 2t", "memcpy 1t"};

int main(int argc, char **argv) {
    const char *out = NULL, *script = NULL;
    int rounds = 15, small = 0, n_pos = 0;
    int64_t pos[16];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--ort") && i + 1 < argc) script = argv[++i];
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--small")) small = 1;
        else if (!out) out = argv[i];
        else if (n_pos < 16) pos[n_pos++] = atoll(argv[i]);
    }
    if (!out || rounds < 1) {
        fprintf(stderr, "usage: osc-bench-decode OUT_DIR [--ort SCRIPT] [--rounds N] [--small] "
                        "[POSITION...]\n");
        return 2;
    }
    const dims d = small ? (dims){4, 2, 8, 64} : (dims){32, 8, 64, 4096};
    if (!n_pos) {
        const int64_t def[3] = {1, 512, 4000}, sdef[3] = {1, 20, 60};
        for (; n_pos < 3; n_pos++) pos[n_pos] = small ? sdef[n_pos] : def[n_pos];
    }
    if (mkdir(out, 0777) && errno != EEXIST) return fprintf(stderr, "cannot make %s\n", out), 1;
    size_t len = 0;
    void *bytes = model(&d, &len);
    if (!bytes) return 1;
    osc_model *m[2] = {NULL, NULL};
    osc_session *se[2] = {NULL, NULL};
    char msg[512];
    for (int t = 0; t < 2; t++) {
        osc_options o;
        osc_options_init(&o);
        o.inplace_inputs = 1, o.threads = t + 1;
        if (osc_model_load_buffer(bytes, len, NULL, &o, &m[t], msg, sizeof msg) ||
            osc_session_create(m[t], &se[t]))
            return fprintf(stderr, "decode_bench: load: %s\n", msg), 1;
    }
    ort_peer peer;
    int have_ort = 0;
    if (script) {
        have_ort = !peer_start(&peer, "node", script, msg, sizeof msg);
        if (!have_ort) fprintf(stderr, "decode_bench: onnxruntime: not available (%s)\n", msg);
    }
    printf("| position | valid K+V MiB | %s | %s | %s | %s | %s | ort1/osc1 | ort2/osc2 | "
           "osc1/copy | check |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
           k_names[0], k_names[1], k_names[2], k_names[3], k_names[4]);
    char *line = NULL;
    size_t cap = 0;
    const char *rest = "";
    int rc = 0;
    for (int p = 0; p < n_pos && !rc; p++) {
        step s;
        if (pos[p] < 0 || pos[p] >= d.cap || make_step(&d, pos[p], &s))
            return fprintf(stderr, "decode_bench: position %lld\n", (long long)pos[p]), 1;
        /* the bytes the step must touch: the valid keys and values, read once */
        const size_t kv = (size_t)(2 * d.kvh * s.valid * d.hd) * 2;
        char *src = malloc(kv), *dst = malloc(kv);
        if (!src || !dst) return 1;
        memset(src, 1, kv), memset(dst, 2, kv);
        osc_tensor y;
        if (osc_step(se[0], &s) || osc_session_output(se[0], 0, &y))
            return fprintf(stderr, "decode_bench: %s\n", osc_session_error(se[0])), 1;
        char dir[1100];
        snprintf(dir, sizeof dir, "%s/decode_pos%lld", out, (long long)pos[p]);
        if (write_case(dir, bytes, len, &s, &y)) return 1;
        char cmd[1300];
        int ort_ok = have_ort;
        snprintf(cmd, sizeof cmd, "case %s", dir);
        if (ort_ok && peer_cmd(&peer, cmd, &line, &cap, &rest))
            fprintf(stderr, "decode_bench: onnxruntime: %s\n", rest), ort_ok = 0;
        /* runs per round: about 20 ms of onnx-scatter's one-thread step */
        double t0 = bench_now_ms(CLOCK_MONOTONIC);
        int k = 0;
        while (k < 1000 && bench_now_ms(CLOCK_MONOTONIC) - t0 < 20) k += !osc_step(se[0], &s);
        if (k < 3) k = 3;
        double *ms[C_N];
        for (int c = 0; c < C_N; c++) ms[c] = calloc((size_t)rounds, sizeof(double));
        uint64_t seed = 1;
        for (int r = -1; r < rounds && !rc; r++) { /* round -1 warms every contender */
            int order[C_N];
            bench_shuffle(order, C_N, r < 0 ? 0 : r + 1, &seed);
            for (int oi = 0; oi < C_N; oi++) {
                const int c = order[oi];
                if ((c == C_ORT1 || c == C_ORT2) && !ort_ok) continue;
                double a = bench_now_ms(CLOCK_MONOTONIC), per = NAN;
                if (c == C_OSC1 || c == C_OSC2) {
                    for (int j = 0; j < k; j++) rc |= osc_step(se[c - C_OSC1], &s);
                    per = (bench_now_ms(CLOCK_MONOTONIC) - a) / k;
                } else if (c == C_COPY) {
                    for (int j = 0; j < k; j++) memcpy(dst, src, kv), src[j % kv] ^= dst[kv - 1];
                    per = (bench_now_ms(CLOCK_MONOTONIC) - a) / k;
                } else {
                    snprintf(cmd, sizeof cmd, "run %d %d", c - C_ORT1 + 1, k);
                    if (peer_cmd(&peer, cmd, &line, &cap, &rest)) {
                        fprintf(stderr, "decode_bench: onnxruntime: %s\n", rest);
                        ort_ok = 0;
                    }
                }
                if (r >= 0) ms[c][r] = per;
            }
        }
        if (rc) fprintf(stderr, "decode_bench: %s\n", osc_session_error(se[0]));
        char check[200] = "-";
        if (ort_ok) {
            /* onnxruntime's own profiler times, the warm-up round's runs dropped */
            double *times[2] = {NULL, NULL};
            size_t nt[2] = {0, 0};
            if (peer_cmd(&peer, "check 1 0.002 0.002", &line, &cap, &rest) == 0)
                snprintf(check, sizeof check, "%s", rest);
            const int64_t warm[2] = {k, k};
            if (!peer_finish(&peer, warm, times, nt, &line, &cap, &rest))
                for (int t = 0; t < 2; t++)
                    for (int r = 0; r < rounds && nt[t] >= (size_t)(rounds * k); r++) {
                        double v[1000];
                        memcpy(v, times[t] + (size_t)(r * k), (size_t)k * sizeof *v);
                        double med, lo, hi;
                        bench_summary(v, (size_t)k, &med, &lo, &hi);
                        ms[C_ORT1 + t][r] = med;
                    }
            free(times[0]), free(times[1]);
        }
        double med[C_N], ratio[3], lo, hi, v[3][256];
        for (int c = 0; c < C_N; c++) bench_summary(ms[c], (size_t)rounds, &med[c], &lo, &hi);
        for (int r = 0; r < rounds && r < 256; r++) {
            v[0][r] = ms[C_ORT1][r] / ms[C_OSC1][r];
            v[1][r] = ms[C_ORT2][r] / ms[C_OSC2][r];
            v[2][r] = ms[C_OSC1][r] / ms[C_COPY][r];
        }
        for (int i = 0; i < 3; i++) bench_summary(v[i], (size_t)rounds, &ratio[i], &lo, &hi);
        printf("| %lld | %.2f | %.4f | %.4f | %.4f | %.4f | %.4f | %.2f | %.2f | %.2f | %s |\n",
               (long long)pos[p], (double)kv / 1048576.0, med[0], med[1], med[2], med[3], med[4],
               ratio[0], ratio[1], ratio[2], check);
        printf("<!-- position %lld: %d runs per round, %d rounds; memcpy %.2f GB/s -->\n",
               (long long)pos[p], k, rounds, (double)kv / med[C_COPY] / 1e6);
        fflush(stdout);
        for (int c = 0; c < C_N; c++) free(ms[c]);
        free(src), free(dst);
        free_step(&s);
    }
    if (have_ort) peer_stop(&peer);
    free(line);
    for (int t = 0; t < 2; t++) osc_session_free(se[t]), osc_model_free(m[t]);
    free(bytes);
    return rc;
}
