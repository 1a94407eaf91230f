/* mm_bench.c: MatMul timing for issue #14's shapes, M x K times K x N with K = N = 64 and 128 and
 * M from 1 to 100,000: onnx-scatter (a one-node MatMul-13 model through the public API, one
 * thread) against a naive triple loop (the dot product of a row and a column per element)
 * compiled into this program with the same flags, measured in the same process, rounds
 * interleaved; medians and the ratio of medians. GFLOP/s count 2*M*K*N per product.
 *
 * usage: osc-bench-matmul [--rounds R] [--ms MS] [--cases DIR] [M...]
 *   --rounds R   rounds per shape (default 7); each round times both contenders
 *   --ms MS      each timing repeats the product until at least MS ms passed (default 20)
 *   --cases DIR  also write one node-test folder per shape (DIR/matmul_M_K: model.onnx,
 *                test_data_set_0) for `onnx-scatter bench` and bench/ort/ort_bench.js
 *   M...         the row counts (default 1 10 100 1000 10000 100000) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "onnx_scatter.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The naive loop: y[i][j] = sum over p of a[i][p] * b[p][j], in increasing p. */
static void naive(int64_t m, int64_t k, int64_t n, const float *a, const float *b, float *y) {
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float s = 0;
            for (int64_t p = 0; p < k; p++) s += a[i * k + p] * b[p * n + j];
            y[i * n + j] = s;
        }
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void *model_bytes(int64_t m, int64_t k, int64_t n, size_t *len) {
    osc_mw *mw = osc_mw_new(8);
    void *buf = NULL;
    if (!mw) return NULL;
    const int64_t da[2] = {m, k}, db[2] = {k, n}, dy[2] = {m, n};
    const char *in[2] = {"A", "B"}, *out[1] = {"Y"};
    osc_mw_names(mw, "onnx-scatter bench/mm_bench", "matmul");
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "A", OSC_FLOAT, 2, da, NULL);
    osc_mw_input(mw, "B", OSC_FLOAT, 2, db, NULL);
    osc_mw_node(mw, "MatMul", "matmul", 2, in, 1, out);
    osc_mw_output(mw, "Y", OSC_FLOAT, 2, dy, NULL);
    if (osc_mw_serialize(mw, &buf, len) != OSC_OK) {
        fprintf(stderr, "mm_bench: %s\n", osc_mw_error(mw));
        buf = NULL;
    }
    osc_mw_free(mw);
    return buf;
}

static int write_pb(const char *dir, const char *file, const char *name, const osc_tensor *t) {
    char msg[OSC_MESSAGE_SIZE];
    void *buf;
    size_t len;
    if (osc_tensor_encode_pb(t, name, &buf, &len, msg, sizeof msg) != OSC_OK) {
        fprintf(stderr, "mm_bench: %s\n", msg);
        return 1;
    }
    int rc = !osc_test_write_file(dir, file, buf, len, "mm_bench");
    free(buf);
    return rc;
}

/* DIR/matmul_M_K/{model.onnx, test_data_set_0/{input_0,input_1,output_0}.pb}; the expected
 * output is the double-precision product rounded to float. */
static int write_case(const char *root, int64_t m, int64_t k, int64_t n, const float *a,
                      const float *b, const void *model, size_t model_len) {
    char dir[1024], set[1100];
    snprintf(dir, sizeof dir, "%s/matmul_%lld_%lld", root, (long long)m, (long long)k);
    snprintf(set, sizeof set, "%s/test_data_set_0", dir);
    mkdir(root, 0755);
    mkdir(dir, 0755);
    mkdir(set, 0755);
    float *ref = malloc((size_t)(m * n) * sizeof *ref);
    if (!ref) return 1;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0;
            for (int64_t p = 0; p < k; p++) s += (double)a[i * k + p] * b[p * n + j];
            ref[i * n + j] = (float)s;
        }
    const int64_t da[2] = {m, k}, db[2] = {k, n}, dy[2] = {m, n};
    osc_tensor ta = {.dtype = OSC_FLOAT, .rank = 2, .data = (void *)a,
                     .nbytes = (size_t)(m * k) * 4};
    osc_tensor tb = {.dtype = OSC_FLOAT, .rank = 2, .data = (void *)b,
                     .nbytes = (size_t)(k * n) * 4};
    osc_tensor ty = {.dtype = OSC_FLOAT, .rank = 2, .data = ref, .nbytes = (size_t)(m * n) * 4};
    memcpy(ta.dims, da, sizeof da);
    memcpy(tb.dims, db, sizeof db);
    memcpy(ty.dims, dy, sizeof dy);
    int rc = !osc_test_write_file(dir, "model.onnx", model, model_len, "mm_bench");
    if (!rc) rc = write_pb(set, "input_0.pb", "A", &ta);
    if (!rc) rc = write_pb(set, "input_1.pb", "B", &tb);
    if (!rc) rc = write_pb(set, "output_0.pb", "Y", &ty);
    free(ref);
    return rc;
}

/* Repeats STMT until at least ms_min passed; OUT = ms per execution. */
#define TIME_IT(OUT, ms_min, STMT)                                                            \
    do {                                                                                     \
        int64_t reps_ = 0;                                                                   \
        double t0_ = now_ms(), t_;                                                           \
        do {                                                                                 \
            STMT;                                                                            \
            reps_++;                                                                         \
        } while ((t_ = now_ms() - t0_) < (ms_min));                                          \
        (OUT) = t_ / (double)reps_;                                                          \
    } while (0)

static int bench_shape(int64_t m, int64_t k, int rounds, double ms_min, const char *cases) {
    const int64_t n = k;
    float *a = malloc((size_t)(m * k) * 4), *b = malloc((size_t)(k * n) * 4);
    float *y_naive = malloc((size_t)(m * n) * 4);
    if (!a || !b || !y_naive) return 1;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int64_t i = 0; i < m * k; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = (float)((s >> 40) / 8388608.0 - 1.0);
    }
    for (int64_t i = 0; i < k * n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        b[i] = (float)((s >> 40) / 8388608.0 - 1.0);
    }
    size_t len;
    void *bytes = model_bytes(m, k, n, &len);
    if (!bytes) return 1;
    if (cases && write_case(cases, m, k, n, a, b, bytes, len)) return 1;
    char msg[OSC_MESSAGE_SIZE];
    osc_model *model = NULL;
    osc_session *sess = NULL;
    osc_options opts;
    osc_options_init(&opts);
    opts.threads = 1;
    if (osc_model_load_buffer(bytes, len, NULL, &opts, &model, msg, sizeof msg) != OSC_OK ||
        osc_session_create(model, &sess) != OSC_OK) {
        fprintf(stderr, "mm_bench: %s\n", msg);
        return 1;
    }
    free(bytes);
    const int64_t da[2] = {m, k}, db[2] = {k, n};
    osc_tensor ta = {.dtype = OSC_FLOAT, .rank = 2, .data = a, .nbytes = (size_t)(m * k) * 4};
    osc_tensor tb = {.dtype = OSC_FLOAT, .rank = 2, .data = b, .nbytes = (size_t)(k * n) * 4};
    memcpy(ta.dims, da, sizeof da);
    memcpy(tb.dims, db, sizeof db);
    if (osc_session_set_input_at(sess, 0, &ta) || osc_session_set_input_at(sess, 1, &tb) ||
        osc_session_run(sess)) {
        fprintf(stderr, "mm_bench: %s\n", osc_session_error(sess));
        return 1;
    }
    double t_naive[64], t_osc[64];
    for (int r = 0; r < rounds; r++) {
        TIME_IT(t_naive[r], ms_min, naive(m, k, n, a, b, y_naive));
        TIME_IT(t_osc[r], ms_min, (void)osc_session_run(sess));
    }
    /* the two results agree to float rounding (they sum in different orders) */
    osc_tensor y;
    osc_session_output(sess, 0, &y);
    double err = 0;
    for (int64_t i = 0; i < m * n; i++) {
        double d = fabs((double)((float *)y.data)[i] - y_naive[i]) / (1 + fabs(y_naive[i]));
        err = d > err ? d : err;
    }
    const double tn = median(t_naive, rounds), to = median(t_osc, rounds);
    const double gf = 2.0 * (double)m * (double)k * (double)n / 1e6;
    printf("%7lld x %3lld x %3lld  naive %10.4f ms %6.2f GFLOP/s   onnx-scatter %10.4f ms %6.2f "
           "GFLOP/s   naive/onnx-scatter %6.2fx   max rel diff %.1e\n",
           (long long)m, (long long)k, (long long)n, tn, gf / tn, to, gf / to, tn / to, err);
    fflush(stdout);
    osc_session_free(sess);
    osc_model_free(model);
    free(a);
    free(b);
    free(y_naive);
    return err > 1e-4;
}

int main(int argc, char **argv) {
    int rounds = 7;
    double ms_min = 20;
    const char *cases = NULL;
    int64_t ms[64];
    int n_m = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ms") && i + 1 < argc) ms_min = atof(argv[++i]);
        else if (!strcmp(argv[i], "--cases") && i + 1 < argc) cases = argv[++i];
        else if (argv[i][0] != '-' && n_m < 64) ms[n_m++] = atoll(argv[i]);
        else {
            fprintf(stderr, "usage: osc-bench-matmul [--rounds R] [--ms MS] [--cases DIR] [M...]\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > 64) rounds = 7;
    if (n_m == 0) {
        static const int64_t def[] = {1, 10, 100, 1000, 10000, 100000};
        for (n_m = 0; n_m < 6; n_m++) ms[n_m] = def[n_m];
    }
    int rc = 0;
    for (int kk = 64; kk <= 128; kk *= 2)
        for (int i = 0; i < n_m; i++) rc |= bench_shape(ms[i], kk, rounds, ms_min, cases);
    return rc;
}
