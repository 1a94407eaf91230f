/* test_threads.c: two models, each shared by two threads with a session apiece, run at the same
 * time with changing shapes; results must be right. Two threads calling one session: the one
 * that finds it held by the other's call is refused with OSC_ERR_STATE. Built with OSC_TSAN=ON
 * the whole library is instrumented and ThreadSanitizer fails the test on any data race (no
 * global mutable state). */
#include <pthread.h>
#include <sched.h>
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

/* ---- One session, two threads: the session is held for each call, the loser is refused. ---- */
enum { N = 4, RACE_CALLS = 2000 };

typedef struct contender {
    osc_session *s;
    atomic_int *in_run, *tried; /* the holder's run is in its hook; the other thread has tried */
    pthread_barrier_t *start;   /* the racing threads start together */
    int ok, refused, other;     /* statuses of the racing calls */
    char error[OSC_MESSAGE_SIZE];
} contender;

/* Node hook of the holder: tells the other thread the run is in progress, and waits (the run
 * holds the session all along) until that thread has made its calls. */
static void hold(void *ud, size_t node, const osc_tensor *const *in, int32_t n_in,
                 const osc_tensor *out, int32_t n_out) {
    (void)in, (void)n_in, (void)out, (void)n_out;
    contender *c = ud;
    if (node != 0) return;
    atomic_store(c->in_run, 1);
    while (!atomic_load(c->tried)) sched_yield();
}

static void *run_held(void *arg) {
    contender *c = arg;
    if (osc_session_run(c->s) != OSC_OK)
        snprintf(c->error, sizeof c->error, "holder's run: %s", osc_session_error(c->s));
    return NULL;
}

/* Each call, made while another thread's run holds the session: OSC_ERR_STATE and a message
 * naming it. */
static void check_refused(contender *c, osc_status st, const char *name) {
    const char *msg = osc_session_error(c->s);
    if (!c->error[0] && (st != OSC_ERR_STATE || !strstr(msg, name)))
        snprintf(c->error, sizeof c->error, "%s during another thread's run: status %d, '%s'",
                 name, (int)st, msg);
}

static void *call_during_run(void *arg) {
    contender *c = arg;
    while (!atomic_load(c->in_run)) sched_yield();
    float x2[N] = {9, 9, 9, 9}, small[1];
    const long long d[1] = {N};
    osc_tensor tx = emb_view(OSC_FLOAT, 1, d, x2, sizeof x2), y;
    int32_t mode;
    check_refused(c, osc_session_run(c->s), "osc_session_run");
    check_refused(c, osc_session_set_input(c->s, "x", &tx), "osc_session_set_input");
    check_refused(c, osc_session_unbind_input(c->s, 0), "osc_session_unbind_input");
    check_refused(c, osc_session_set_output_buffer(c->s, 0, small, sizeof small),
                  "osc_session_set_output_buffer");
    check_refused(c, osc_session_output(c->s, 0, &y), "osc_session_output");
    check_refused(c, osc_session_output_mode(c->s, 0, &mode), "osc_session_output_mode");
    atomic_store(c->tried, 1);
    return NULL;
}

static osc_model *chain_model(void) {
    size_t len;
    return load(emb_chain_model(N, false, &len), &len);
}

/* Deterministic: thread A's run waits in its node hook while thread B calls the session. */
static void one_session_refuses_another_thread(void **state) {
    (void)state;
    osc_model *m = chain_model();
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[N] = {1, 2, 3, 4}, u = 10, v = 5, y[N], t[N], want[N];
    int64_t i = 1;
    assert_int_equal(emb_bind_chain(s, x, N, &i, &u, &v), OSC_OK);
    assert_int_equal(osc_session_set_output_buffer(s, 0, y, sizeof y), OSC_OK);
    atomic_int in_run = 0, tried = 0;
    contender a = {.s = s, .in_run = &in_run, .tried = &tried};
    contender b = a;
    assert_int_equal(osc_session_set_node_hook(s, hold, &a), OSC_OK);
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, run_held, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, call_during_run, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    if (a.error[0]) fail_msg("%s", a.error);
    if (b.error[0]) fail_msg("%s", b.error);
    emb_chain_expect(x, N, i, u, v, t, want); /* the run used what was bound when it started */
    assert_memory_equal(y, want, sizeof y);
    osc_tensor out;
    assert_int_equal(osc_session_output(s, 0, &out), OSC_OK);
    assert_ptr_equal(out.data, y);
    osc_session_free(s);
    osc_model_free(m);
}

/* Free-running: two threads run one session and read its output as fast as they can. Every
 * call either succeeds or is refused with OSC_ERR_STATE (never a data race: ThreadSanitizer
 * checks the library's accesses in the OSC_TSAN build). */
static void *race(void *arg) {
    contender *c = arg;
    pthread_barrier_wait(c->start);
    for (int k = 0; k < RACE_CALLS; k++) {
        osc_tensor y;
        osc_status st = osc_session_run(c->s);
        if (st == OSC_OK) st = osc_session_output(c->s, 0, &y);
        if (st == OSC_OK) c->ok++;
        else if (st == OSC_ERR_STATE) c->refused++;
        else c->other++;
    }
    return NULL;
}

static void two_threads_race_for_one_session(void **state) {
    (void)state;
    osc_model *m = chain_model();
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[N] = {1, 2, 3, 4}, u = 10, v = 5, t[N], want[N];
    int64_t i = 3;
    assert_int_equal(emb_bind_chain(s, x, N, &i, &u, &v), OSC_OK);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    contender c[2] = {{.s = s, .start = &start}, {.s = s, .start = &start}};
    pthread_t th[2];
    for (int k = 0; k < 2; k++) assert_int_equal(pthread_create(&th[k], NULL, race, &c[k]), 0);
    for (int k = 0; k < 2; k++) pthread_join(th[k], NULL);
    pthread_barrier_destroy(&start);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(c[k].other, 0);
        assert_int_equal(c[k].ok + c[k].refused, RACE_CALLS);
    }
    assert_true(c[0].ok + c[1].ok > 0);
    print_message("racing calls: %d succeeded, %d refused\n", c[0].ok + c[1].ok,
                  c[0].refused + c[1].refused);
    osc_tensor y; /* the threads are done: the session runs as ever */
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    emb_chain_expect(x, N, i, u, v, t, want);
    assert_memory_equal(y.data, want, sizeof want);
    osc_session_free(s);
    osc_model_free(m);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(two_models_four_threads),
    cmocka_unit_test(one_session_refuses_another_thread),
    cmocka_unit_test(two_threads_race_for_one_session),
)
