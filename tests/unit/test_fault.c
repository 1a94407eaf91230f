/* test_fault.c: fault injection through the allocator hook: a full load + run fails its 1st, 2nd,
 * ... Nth allocation in turn; each failure is a clean OSC_ERR_NOMEM with a message, and every
 * byte is given back (counted here; leaks outside the hook: LeakSanitizer, in the ASan build). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "onnx_scatter.h"
#include "test_embed_models.h"
#include "tests/support/check.h"

/* The hook: every allocation (a new block or a growing realloc) is numbered; number fail_at
 * returns NULL. A header records each block's size, so a wrong osize on free or realloc (an
 * accounting bug in the library) is caught too. */
typedef struct fault_alloc {
    long count;       /* allocations so far */
    long fail_at;     /* 0: never fail */
    bool failed;      /* the injected failure happened */
    long live_blocks;
    long long live_bytes;
    long bad_osize;   /* frees/reallocs whose osize differed from the block's size */
} fault_alloc;

typedef struct hdr {
    size_t size;
    size_t pad; /* keeps the payload 16-byte aligned */
} hdr;

static void *fault_hook(void *ud, void *ptr, size_t osize, size_t nsize) {
    fault_alloc *fa = ud;
    hdr *h = ptr ? (hdr *)ptr - 1 : NULL;
    if (h && h->size != osize) fa->bad_osize++;
    if (nsize == 0) {
        if (h) {
            fa->live_blocks--;
            fa->live_bytes -= (long long)h->size;
            free(h);
        }
        return NULL;
    }
    if (!h || nsize > h->size) {
        fa->count++;
        if (fa->count == fa->fail_at) {
            fa->failed = true;
            return NULL;
        }
    }
    hdr *q = realloc(h, sizeof *q + nsize);
    if (!q) return NULL;
    if (!h) fa->live_blocks++;
    else fa->live_bytes -= (long long)q->size;
    q->size = nsize;
    fa->live_bytes += (long long)nsize;
    return q + 1;
}

static char g_path[256];

static int setup(void **state) {
    (void)state;
    size_t len;
    void *buf = emb_chain_model(-1, true, &len); /* symbolic N: planned at run */
    snprintf(g_path, sizeof g_path, "test_fault_%d.onnx", (int)getpid());
    FILE *f = fopen(g_path, "wb");
    if (!buf || !f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) return -1;
    free(buf);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    remove(g_path);
    return 0;
}

/* A scenario returns the first failure's status and checks outputs on success; after a failed
 * run, with injection off, the same session must run correctly (it stays usable). Scenarios:
 * the chain from a file, run with two shapes, into a caller output buffer, with and without
 * inplace_inputs; the deprecated Scatter-11 model (a warning at load) and the string model (new
 * strings at run), from memory. */
typedef osc_status (*scenario_fn)(fault_alloc *fa);

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "check failed at %s:%d: %s\n", __FILE__, __LINE__, #cond);     \
            return OSC_ERR_STATE; /* not NOMEM: fails the test */                          \
        }                                                                                  \
    } while (0)

static osc_options hook_opts(fault_alloc *fa, int inplace) {
    osc_options o;
    osc_options_init(&o);
    o.alloc = fault_hook;
    o.alloc_ud = fa;
    o.inplace_inputs = inplace;
    o.profile = 1;
    return o;
}

static osc_status run_chain(osc_session *s, fault_alloc *fa, long n, bool out_buffer) {
    float x[64], u = 5, v = 2, t[64], want[64], yout[64];
    int64_t i = n - 1;
    for (long k = 0; k < n; k++) x[k] = (float)k;
    emb_chain_expect(x, n, i, u, v, t, want);
    CHECK(emb_bind_chain(s, x, n, &i, &u, &v) == OSC_OK);
    if (out_buffer) CHECK(osc_session_set_output_buffer(s, 0, yout, (size_t)n * 4) == OSC_OK);
    osc_status st = osc_session_run(s);
    if (st) {
        CHECK(st == OSC_ERR_NOMEM && osc_session_error(s)[0] != '\0');
        long saved = fa->fail_at;
        fa->fail_at = 0;
        for (long k = 0; k < n; k++) x[k] = (float)k; /* in place: x may have been written */
        CHECK(emb_bind_chain(s, x, n, &i, &u, &v) == OSC_OK);
        CHECK(osc_session_run(s) == OSC_OK); /* usable after a failed run */
        fa->fail_at = saved;
    }
    osc_tensor y, tt;
    CHECK(osc_session_output(s, 0, &y) == OSC_OK && osc_session_output(s, 1, &tt) == OSC_OK);
    CHECK(y.nbytes == (size_t)n * 4 && memcmp(y.data, want, y.nbytes) == 0);
    CHECK(memcmp(tt.data, t, tt.nbytes) == 0);
    if (out_buffer) {
        CHECK(y.data == yout);
        CHECK(osc_session_set_output_buffer(s, 0, NULL, 0) == OSC_OK); /* yout goes away */
    }
    return st;
}

static osc_status chain_scenario(fault_alloc *fa, int inplace) {
    osc_options o = hook_opts(fa, inplace);
    char msg[OSC_MESSAGE_SIZE] = "unset";
    osc_model *m;
    osc_status st = osc_model_load_file(g_path, &o, &m, msg, sizeof msg);
    if (st) {
        CHECK(st == OSC_ERR_NOMEM && m == NULL && msg[0] != '\0' && strcmp(msg, "unset") != 0);
        return st;
    }
    osc_session *s;
    st = osc_session_create(m, &s);
    if (st) { /* create has no message: its status says it all */
        CHECK(st == OSC_ERR_NOMEM && s == NULL);
        osc_model_free(m);
        return st;
    }
    osc_status first = run_chain(s, fa, 16, true);
    osc_status second = run_chain(s, fa, 48, false); /* a new shape: a new plan, a larger arena */
    osc_session_free(s);
    osc_model_free(m);
    return first ? first : second;
}

static osc_status chain_plain(fault_alloc *fa) { return chain_scenario(fa, 0); }
static osc_status chain_inplace(fault_alloc *fa) { return chain_scenario(fa, 1); }

static osc_status strings_and_warning(fault_alloc *fa) {
    osc_options o = hook_opts(fa, 0);
    char msg[OSC_MESSAGE_SIZE];
    size_t len;
    void *buf = emb_scatter11_model(&len);
    osc_model *m;
    osc_status st = osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg);
    free(buf);
    if (st) {
        CHECK(st == OSC_ERR_NOMEM && m == NULL && msg[0] != '\0');
        return st;
    }
    CHECK(osc_model_warning_count(m) == 1); /* never silently lost */
    osc_model_free(m);

    /* enough warnings that storing them takes new pool blocks: a failure there fails the load */
    buf = emb_many_warnings_model(200, &len);
    st = osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg);
    free(buf);
    if (st) {
        CHECK(st == OSC_ERR_NOMEM && m == NULL && msg[0] != '\0');
        return st;
    }
    CHECK(osc_model_warning_count(m) == 200);
    osc_model_free(m);

    buf = emb_string_model(&len);
    st = osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg);
    free(buf);
    if (st) {
        CHECK(st == OSC_ERR_NOMEM && m == NULL && msg[0] != '\0');
        return st;
    }
    osc_session *s;
    st = osc_session_create(m, &s);
    if (st) {
        CHECK(st == OSC_ERR_NOMEM && s == NULL);
        osc_model_free(m);
        return st;
    }
    osc_string in[4] = {{"a", 1}, {"b", 1}, {"c", 1}, {"d", 1}}, up[2] = {{"XY", 2}, {"Z", 1}};
    int64_t si[2] = {1, 2};
    const long long d4[1] = {4}, d2[1] = {2};
    osc_tensor ts = emb_view(OSC_STRING, 1, d4, in, sizeof in);
    osc_tensor ti = emb_view(OSC_INT64, 1, d2, si, sizeof si);
    osc_tensor tu = emb_view(OSC_STRING, 1, d2, up, sizeof up);
    CHECK(osc_session_set_input(s, "s", &ts) == OSC_OK);
    CHECK(osc_session_set_input(s, "si", &ti) == OSC_OK);
    CHECK(osc_session_set_input(s, "su", &tu) == OSC_OK);
    st = osc_session_run(s);
    if (st) {
        CHECK(st == OSC_ERR_NOMEM && osc_session_error(s)[0] != '\0');
        long saved = fa->fail_at;
        fa->fail_at = 0;
        CHECK(osc_session_run(s) == OSC_OK);
        fa->fail_at = saved;
    }
    osc_tensor y;
    CHECK(osc_session_output(s, 0, &y) == OSC_OK);
    const osc_string *o_ = y.data;
    CHECK(o_[1].len == 3 && memcmp(o_[1].ptr, "bXY", 3) == 0);
    CHECK(o_[2].len == 2 && memcmp(o_[2].ptr, "cZ", 2) == 0);
    osc_session_free(s);
    osc_model_free(m);
    return st;
}

/* Fails allocation 1, 2, ... until the scenario completes without reaching the failing one. */
static void inject_each(scenario_fn fn, const char *what) {
    long n;
    for (n = 1;; n++) {
        fault_alloc fa = {0};
        fa.fail_at = n;
        osc_status st = fn(&fa);
        if (fa.failed ? st != OSC_ERR_NOMEM : st != OSC_OK) /* OK after a failure: swallowed */
            fail_msg("%s: %s%ld gave status %d (%s)", what,
                     fa.failed ? "failing allocation " : "no failure, allocations: ",
                     fa.failed ? n : fa.count, (int)st, osc_status_name(st));
        if (fa.live_blocks || fa.live_bytes || fa.bad_osize)
            fail_msg("%s, allocation %ld failed: %ld blocks / %lld bytes not freed, %ld wrong "
                     "osize", what, n, fa.live_blocks, fa.live_bytes, fa.bad_osize);
        if (!fa.failed) break;
    }
    assert_true(n > 10); /* the scenario really allocates: the hook is used */
    printf("%s: %ld allocations, each failed once, all clean\n", what, n - 1);
}

static void fault_chain(void **state) {
    (void)state;
    inject_each(chain_plain, "chain (file, two shapes, output buffer)");
}

static void fault_chain_inplace(void **state) {
    (void)state;
    inject_each(chain_inplace, "chain with inplace_inputs");
}

static void fault_strings_warning(void **state) {
    (void)state;
    inject_each(strings_and_warning, "Scatter-11 warning + string concatenation");
}

/* Sessions allocate through their model's hook too (tables at create, the arena at run). */
static void sessions_use_the_hook(void **state) {
    (void)state;
    fault_alloc fa = {0};
    osc_options o = hook_opts(&fa, 0);
    osc_model *m;
    char msg[OSC_MESSAGE_SIZE];
    assert_int_equal(osc_model_load_file(g_path, &o, &m, msg, sizeof msg), OSC_OK);
    long long model_bytes = fa.live_bytes;
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    long long tables = fa.live_bytes;
    assert_true(tables > model_bytes);
    assert_int_equal(run_chain(s, &fa, 48, false), OSC_OK);
    assert_true(osc_session_arena_bytes(s) >= 2 * 48 * 4);
    assert_true(fa.live_bytes >= tables + (long long)osc_session_arena_bytes(s));
    osc_session_free(s);
    osc_model_free(m);
    assert_int_equal(fa.live_bytes, 0);
}

OSC_TEST_MAIN(setup, teardown,
    cmocka_unit_test(fault_chain),
    cmocka_unit_test(fault_chain_inplace),
    cmocka_unit_test(fault_strings_warning),
    cmocka_unit_test(sessions_use_the_hook),
)
