/* test_busy.c: a session is held for the whole of its run. Every call on it from its node hook
 * (a nested run, binding, reading) is refused with OSC_ERR_STATE and a message naming the call;
 * the run goes on with what was bound when it started, and writes nothing a refused call was
 * given (the buffers are checked byte by byte). Another thread meets the same refusal:
 * test_threads.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onnx_scatter.h"
#include "test_embed_models.h"
#include "tests/support/check.h"

enum { N = 4, CANARY = 0xA5 };

/* The calls the hook makes, one per run. */
typedef enum call {
    RUN, SET_INPUT, SET_INPUT_AT, UNBIND, UNCHANGED, SET_OUTPUT_BUFFER, OUTPUT, OUTPUT_MODE,
    SET_HOOK, ARENA, NODE_NS, SUBGRAPH, FREE, N_CALLS
} call;

static const char *const call_name[N_CALLS] = {
    "osc_session_run", "osc_session_set_input", "osc_session_set_input", "osc_session_unbind_input",
    "osc_session_input_unchanged", "osc_session_set_output_buffer", "osc_session_output",
    "osc_session_output_mode", "osc_session_set_node_hook", "osc_session_arena_bytes",
    "_node_ns", "_node_subgraph", "osc_session_free"};

typedef struct probe {
    osc_session *s;
    call which;
    int hooks;                   /* hook calls */
    bool called;                 /* the call was made (once: a nested run calls the hook too) */
    osc_status st;               /* status of the refused call (OSC_ERR_STATE: all refused) */
    char msg[OSC_MESSAGE_SIZE];  /* osc_session_error right after it */
    /* what the refused calls are given: none may be written */
    float other_x[N];
    unsigned char small[2 * sizeof(float)];
    osc_tensor out;
    int32_t mode;
} probe;

static void ignore(void *ud, size_t node, const osc_tensor *const *in, int32_t n_in,
                   const osc_tensor *out, int32_t n_out) {
    (void)ud, (void)node, (void)in, (void)n_in, (void)out, (void)n_out;
}

/* The node hook: after node 0, makes the call under test on its own session. */
static void hook(void *ud, size_t node, const osc_tensor *const *in, int32_t n_in,
                 const osc_tensor *out, int32_t n_out) {
    (void)in, (void)n_in, (void)out, (void)n_out;
    probe *p = ud;
    p->hooks++;
    if (node != 0 || p->called) return;
    p->called = true;
    const long long d[1] = {N};
    osc_tensor tx = emb_view(OSC_FLOAT, 1, d, p->other_x, sizeof p->other_x);
    osc_session *s = p->s;
    osc_status st = OSC_ERR_STATE;
    switch (p->which) {
    case RUN: st = osc_session_run(s); break;
    case SET_INPUT: st = osc_session_set_input(s, "x", &tx); break;
    case SET_INPUT_AT: st = osc_session_set_input_at(s, 0, &tx); break;
    case UNBIND: st = osc_session_unbind_input(s, 0); break;
    case UNCHANGED: st = osc_session_input_unchanged(s, 0); break;
    case SET_OUTPUT_BUFFER: st = osc_session_set_output_buffer(s, 0, p->small, sizeof p->small);
        break;
    case OUTPUT: st = osc_session_output(s, 0, &p->out); break;
    case OUTPUT_MODE: st = osc_session_output_mode(s, 0, &p->mode); break;
    case SET_HOOK: st = osc_session_set_node_hook(s, ignore, NULL); break;
    case ARENA: st = osc_session_arena_bytes(s) == 0 ? OSC_ERR_STATE : OSC_OK; break;
    case NODE_NS: st = osc_session_node_ns(s, 0) == 0 ? OSC_ERR_STATE : OSC_OK; break;
    case SUBGRAPH: st = osc_session_node_subgraph(s, 0, 0) == NULL ? OSC_ERR_STATE : OSC_OK;
        break;
    case FREE: osc_session_free(s); break; /* refused: the run goes on (ASan: no use after free) */
    case N_CALLS: break;
    }
    p->st = st;
    strncpy(p->msg, osc_session_error(s), sizeof p->msg - 1);
}

static bool all_bytes(const void *p, size_t n, unsigned char b) {
    const unsigned char *c = p;
    for (size_t k = 0; k < n; k++)
        if (c[k] != b) return false;
    return true;
}

/* One run per call: the call is refused, the run succeeds with the bindings it started with. */
static void calls_from_the_node_hook_are_refused(void **state) {
    (void)state;
    size_t len;
    void *buf = emb_chain_model(N, false, &len);
    osc_options o;
    osc_options_init(&o);
    o.profile = 1; /* node_ns would be nonzero if read */
    osc_model *m = NULL;
    char err[OSC_MESSAGE_SIZE];
    assert_int_equal(osc_model_load_buffer(buf, len, NULL, &o, &m, err, sizeof err), OSC_OK);
    free(buf);
    for (int c = 0; c < N_CALLS; c++) {
        probe p;
        memset(&p, 0, sizeof p);
        memset(p.small, CANARY, sizeof p.small);
        memset(&p.out, CANARY, sizeof p.out);
        memset(&p.mode, CANARY, sizeof p.mode);
        for (int k = 0; k < N; k++) p.other_x[k] = -100.0f;
        p.which = (call)c;
        assert_int_equal(osc_session_create(m, &p.s), OSC_OK);
        float x[N] = {1, 2, 3, 4}, u = 10, v = 5, y[N], t[N], want[N];
        int64_t i = 2;
        memset(y, CANARY, sizeof y);
        assert_int_equal(emb_bind_chain(p.s, x, N, &i, &u, &v), OSC_OK);
        assert_int_equal(osc_session_set_output_buffer(p.s, 0, y, sizeof y), OSC_OK);
        assert_int_equal(osc_session_set_node_hook(p.s, hook, &p), OSC_OK);
        assert_int_equal(osc_session_run(p.s), OSC_OK);
        const char *name = call_name[c];
        if (p.st != OSC_ERR_STATE) fail_msg("%s from the node hook: status %d", name, p.st);
        if (!strstr(p.msg, name) || !strstr(p.msg, "the session is in use"))
            fail_msg("%s from the node hook: message '%s'", name, p.msg);
        assert_string_equal(osc_session_error(p.s), ""); /* the run's own message: success */
        assert_int_equal(p.hooks, 2);                      /* node 1 ran once, hook still set */
        /* the result: the bindings before the run, in the buffer set before it */
        emb_chain_expect(x, N, i, u, v, t, want);
        assert_memory_equal(y, want, sizeof y);
        assert_true(all_bytes(p.small, sizeof p.small, CANARY));
        assert_true(all_bytes(&p.out, sizeof p.out, CANARY));
        assert_true(all_bytes(&p.mode, sizeof p.mode, CANARY));
        for (int k = 0; k < N; k++) assert_true(p.other_x[k] == -100.0f);
        /* nothing changed: a second run reads the same bindings, x still bound */
        p.which = N_CALLS;
        memset(y, CANARY, sizeof y);
        assert_int_equal(osc_session_run(p.s), OSC_OK);
        assert_memory_equal(y, want, sizeof y);
        osc_tensor out;
        assert_int_equal(osc_session_output(p.s, 0, &out), OSC_OK);
        assert_ptr_equal(out.data, y);
        osc_session_free(p.s);
    }
    osc_model_free(m);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(calls_from_the_node_hook_are_refused),
)
