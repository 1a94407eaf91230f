/* test_threads.c: two models, each shared by two threads with a session apiece, run at the same
 * time with changing shapes; results must be right. Built with OSC_TSAN=ON the whole library is
 * instrumented and ThreadSanitizer fails the test on any data race (no global mutable state). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onnx_scatter.h"
#include "test_embed_models.h"
#include "tests/support/check.h"

enum { ITERATIONS = 300, THREADS = 4 };

/* A thread-safe hook shared by both models: the library calls it from every thread at once. */
static atomic_llong g_live_bytes;
static atomic_long g_calls;

static void *shared_hook(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud;
    atomic_fetch_add(&g_calls, 1);
    if (nsize == 0) {
        free(ptr);
        atomic_fetch_sub(&g_live_bytes, (long long)osize);
        return NULL;
    }
    void *q = realloc(ptr, nsize);
    if (q) atomic_fetch_add(&g_live_bytes, (long long)nsize - (long long)(ptr ? osize : 0));
    return q;
}

typedef struct worker {
    const osc_model *m;
    int id;
    bool strings;          /* the string model, else the chain */
    bool out_buffer;       /* chain: a caller output buffer for y */
    pthread_barrier_t *start;
    int runs_ok;
    char error[OSC_MESSAGE_SIZE]; /* first failure; cmocka asserts only on the main thread */
} worker;

static void fail_w(worker *w, const char *what, const osc_session *s) {
    if (!w->error[0])
        snprintf(w->error, sizeof w->error, "thread %d: %s: %s", w->id, what,
                 s ? osc_session_error(s) : "");
}

static bool chain_once(worker *w, osc_session *s, int it) {
    long n = 1 + (it * 7 + w->id * 3) % 40; /* a new shape almost every run: re-plans */
    float x[40], u = (float)it, v = (float)w->id, t[40], want[40], yout[40];
    int64_t i = -(int64_t)(1 + it % n);
    for (long k = 0; k < n; k++) x[k] = (float)(k * (w->id + 1));
    emb_chain_expect(x, n, i, u, v, t, want);
    if (emb_bind_chain(s, x, n, &i, &u, &v) ||
        osc_session_set_output_buffer(s, 0, w->out_buffer ? yout : NULL,
                                      w->out_buffer ? sizeof yout : 0)) {
        fail_w(w, "binding", s);
        return false;
    }
    if (osc_session_run(s) != OSC_OK) {
        fail_w(w, "run", s);
        return false;
    }
    osc_tensor y, tt;
    if (osc_session_output(s, 0, &y) || osc_session_output(s, 1, &tt) ||
        memcmp(y.data, want, (size_t)n * 4) || memcmp(tt.data, t, (size_t)n * 4) ||
        (w->out_buffer && y.data != yout)) {
        fail_w(w, "wrong output", s);
        return false;
    }
    return true;
}

static bool strings_once(worker *w, osc_session *s, int it) {
    char a[4][8], b[2][8];
    osc_string in[4], up[2];
    for (int k = 0; k < 4; k++) {
        in[k].len = (size_t)snprintf(a[k], sizeof a[k], "%d", k + it % 10);
        in[k].ptr = a[k];
    }
    for (int k = 0; k < 2; k++) {
        up[k].len = (size_t)snprintf(b[k], sizeof b[k], "t%d", w->id);
        up[k].ptr = b[k];
    }
    int64_t si[2] = {it % 4, (it + 1) % 4};
    const long long d4[1] = {4}, d2[1] = {2};
    osc_tensor ts = emb_view(OSC_STRING, 1, d4, in, sizeof in);
    osc_tensor ti = emb_view(OSC_INT64, 1, d2, si, sizeof si);
    osc_tensor tu = emb_view(OSC_STRING, 1, d2, up, sizeof up);
    if (osc_session_set_input(s, "s", &ts) || osc_session_set_input(s, "si", &ti) ||
        osc_session_set_input(s, "su", &tu) || osc_session_run(s)) {
        fail_w(w, "string run", s);
        return false;
    }
    osc_tensor y;
    if (osc_session_output(s, 0, &y)) {
        fail_w(w, "string output", s);
        return false;
    }
    const osc_string *o = y.data;
    for (int k = 0; k < 4; k++) {
        char want[24];
        bool hit = k == si[0] || k == si[1];
        int len = snprintf(want, sizeof want, "%.*s%s", (int)in[k].len, in[k].ptr,
                           hit ? b[0] : "");
        if (o[k].len != (size_t)len || memcmp(o[k].ptr, want, (size_t)len) != 0) {
            fail_w(w, "wrong string", s);
            return false;
        }
    }
    return true;
}

static void *work(void *arg) {
    worker *w = arg;
    osc_session *s;
    if (osc_session_create(w->m, &s) != OSC_OK) {
        fail_w(w, "create", NULL);
        return NULL;
    }
    pthread_barrier_wait(w->start);
    for (int it = 0; it < ITERATIONS; it++) {
        /* read-only model calls from every thread, concurrently with runs */
        osc_node_desc nd;
        osc_value_desc vd;
        if (osc_model_node(w->m, 0, &nd) || osc_model_input(w->m, 0, &vd) ||
            osc_model_warning_count(w->m) != 0) {
            fail_w(w, "introspection", NULL);
            break;
        }
        if (!(w->strings ? strings_once(w, s, it) : chain_once(w, s, it))) break;
        w->runs_ok++;
    }
    osc_session_free(s);
    return NULL;
}

/* len is read after buf is made: the two arguments' evaluation order is unspecified. */
static osc_model *load(void *buf, const size_t *len) {
    osc_options o;
    osc_options_init(&o);
    o.alloc = shared_hook;
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    assert_non_null(buf);
    assert_int_equal(osc_model_load_buffer(buf, *len, NULL, &o, &m, msg, sizeof msg), OSC_OK);
    free(buf);
    return m;
}

static void two_models_four_threads(void **state) {
    (void)state;
    size_t len;
    osc_model *chain = load(emb_chain_model(-1, true, &len), &len);
    osc_model *strings = load(emb_string_model(&len), &len);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, THREADS);
    worker w[THREADS];
    pthread_t th[THREADS];
    for (int k = 0; k < THREADS; k++) {
        memset(&w[k], 0, sizeof w[k]);
        w[k].id = k;
        w[k].strings = k >= 2;
        w[k].m = w[k].strings ? strings : chain;
        w[k].out_buffer = k == 1;
        w[k].start = &start;
        assert_int_equal(pthread_create(&th[k], NULL, work, &w[k]), 0);
    }
    for (int k = 0; k < THREADS; k++) pthread_join(th[k], NULL);
    pthread_barrier_destroy(&start);
    for (int k = 0; k < THREADS; k++) {
        if (w[k].error[0]) fail_msg("%s", w[k].error);
        assert_int_equal(w[k].runs_ok, ITERATIONS);
    }
    osc_model_free(chain);
    osc_model_free(strings);
    assert_int_equal(atomic_load(&g_live_bytes), 0);
    assert_true(atomic_load(&g_calls) > THREADS * 2);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(two_models_four_threads),
)
