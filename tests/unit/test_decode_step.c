/* test_decode_step.c: one decoder step through the engine: TensorScatter-24 writes the new key
 * and value into K/V caches the caller donates (opts.inplace_inputs), Attention-24 reads them
 * where they lie up to nonpad_kv_seqlen. The caches' addresses and contents show the writes in
 * place, a counting allocator shows no block of a cache's size during a step, the caches past
 * the valid length hold NaN and Y is finite and matches a float64 reference written here. Bad
 * input (head counts, nonpad_kv_seqlen past the cache, a write index past the capacity, a mask
 * of the wrong shape) fails naming the node and the value, with both caches untouched. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/dtype.h"
#include "tests/support/check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"

/* Q heads, KV heads, head size, cache capacity, positions filled before the first step. */
enum { QH = 8, KVH = 2, HD = 32, CAP = 256, FILLED = 100, STEPS = 3 };
#define D(...) ((const int64_t[]){__VA_ARGS__})
#define CACHE_N ((size_t)KVH * CAP * HD)
#define CACHE_BYTES (CACHE_N * sizeof(uint16_t))

/* The largest block asked for since `largest` was zeroed. */
typedef struct watch {
    size_t largest;
} watch;
static void *watching(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)osize;
    watch *w = ud;
    if (!nsize) {
        free(ptr);
        return NULL;
    }
    if (nsize > w->largest) w->largest = nsize;
    return realloc(ptr, nsize);
}

/* The step's graph; Q's head count symbolic ("qh"); with_mask adds input "mask" (float16,
 * 4-D, every dim symbolic). Outputs y, k_out, v_out (the caches as written). */
static void *step_model(bool with_mask, size_t *len) {
    static const char *const qn[4] = {NULL, "qh", NULL, NULL};
    static const char *const mn[4] = {"m0", "m1", "m2", "m3"};
    osc_mw *mw = osc_mw_graph(24, 0, NULL);
    osc_mw_input(mw, "q", OSC_FLOAT16, 4, D(1, -1, 1, HD), qn);
    osc_mw_input(mw, "k_new", OSC_FLOAT16, 4, D(1, KVH, 1, HD), NULL);
    osc_mw_input(mw, "v_new", OSC_FLOAT16, 4, D(1, KVH, 1, HD), NULL);
    osc_mw_input(mw, "k_cache", OSC_FLOAT16, 4, D(1, KVH, CAP, HD), NULL);
    osc_mw_input(mw, "v_cache", OSC_FLOAT16, 4, D(1, KVH, CAP, HD), NULL);
    osc_mw_input(mw, "write_index", OSC_INT64, 1, D(1), NULL);
    osc_mw_input(mw, "valid", OSC_INT64, 1, D(1), NULL);
    if (with_mask) osc_mw_input(mw, "mask", OSC_FLOAT16, 4, D(-1, -1, -1, -1), mn);
    osc_mw_node(mw, "TensorScatter", "write_k", 3,
                (const char *[]){"k_cache", "k_new", "write_index"}, 1, (const char *[]){"k_out"});
    osc_mw_node(mw, "TensorScatter", "write_v", 3,
                (const char *[]){"v_cache", "v_new", "write_index"}, 1, (const char *[]){"v_out"});
    osc_mw_node(mw, "Attention", "attend", 7,
                (const char *[]){"q", "k_out", "v_out", with_mask ? "mask" : "", "", "", "valid"},
                1, (const char *[]){"y"});
    osc_mw_output(mw, "y", OSC_FLOAT16, 4, D(1, -1, 1, HD), qn);
    osc_mw_output(mw, "k_out", OSC_FLOAT16, 4, D(1, KVH, CAP, HD), NULL);
    osc_mw_output(mw, "v_out", OSC_FLOAT16, 4, D(1, KVH, CAP, HD), NULL);
    void *buf = NULL;
    if (osc_mw_serialize(mw, &buf, len) != OSC_OK) fail_msg("writer: %s", osc_mw_error(mw));
    osc_mw_free(mw);
    return buf;
}

static osc_session *open_step(const void *bytes, size_t len, int32_t inplace, watch *w,
                              osc_model **m) {
    osc_options o;
    osc_options_init(&o);
    o.inplace_inputs = inplace;
    o.alloc = watching;
    o.alloc_ud = w;
    char msg[512];
    if (osc_model_load_buffer(bytes, len, NULL, &o, m, msg, sizeof msg)) fail_msg("%s", msg);
    osc_session *s = NULL;
    assert_int_equal(osc_session_create(*m, &s), OSC_OK);
    return s;
}

static uint32_t g_seed = 777;
static uint16_t rnd_half(void) {
    return osc_f32_to_f16((float)(osc_test_rnd32(&g_seed) % 2001) / 1000.0f - 1.0f);
}

/* The caller's state: caches (valid up to `filled`, NaN after), the new rows, Q. */
typedef struct state {
    uint16_t *kc, *vc; /* CACHE_N each */
    uint16_t q[QH * HD], kn[KVH * HD], vn[KVH * HD];
    int64_t wi, valid;
} state;

static void fill_state(state *st) {
    st->kc = malloc(CACHE_BYTES), st->vc = malloc(CACHE_BYTES);
    assert_non_null(st->kc);
    assert_non_null(st->vc);
    for (size_t g = 0; g < KVH; g++)
        for (size_t t = 0; t < CAP; t++)
            for (size_t e = 0; e < HD; e++) {
                const size_t i = (g * CAP + t) * HD + e;
                st->kc[i] = t < FILLED ? rnd_half() : 0x7e00; /* quiet NaN */
                st->vc[i] = t < FILLED ? rnd_half() : 0x7e00;
            }
}

static void new_rows(state *st, int64_t pos) {
    for (int i = 0; i < QH * HD; i++) st->q[i] = rnd_half();
    for (int i = 0; i < KVH * HD; i++) st->kn[i] = rnd_half(), st->vn[i] = rnd_half();
    st->wi = pos, st->valid = pos + 1;
}

/* Binds the step's inputs (q with qh heads; mask when given). */
static void bind(osc_session *s, state *st, int64_t qh, const osc_tensor *mask) {
    static const char *const names[8] = {"q", "k_new", "v_new", "k_cache", "v_cache",
                                         "write_index", "valid", "mask"};
    const osc_tensor t[8] = {
        osc_test_view(OSC_FLOAT16, 4, D(1, qh, 1, HD), st->q),
        osc_test_view(OSC_FLOAT16, 4, D(1, KVH, 1, HD), st->kn),
        osc_test_view(OSC_FLOAT16, 4, D(1, KVH, 1, HD), st->vn),
        osc_test_view(OSC_FLOAT16, 4, D(1, KVH, CAP, HD), st->kc),
        osc_test_view(OSC_FLOAT16, 4, D(1, KVH, CAP, HD), st->vc),
        osc_test_view(OSC_INT64, 1, D(1), &st->wi),
        osc_test_view(OSC_INT64, 1, D(1), &st->valid),
        mask ? *mask : osc_test_view(OSC_FLOAT16, 0, NULL, NULL)};
    osc_check_bind(s, mask ? 8 : 7, names, t);
}

/* Y by float64 from the caches as the step leaves them (shadow: the caller's copies with the
 * new rows written), keys [0, valid); scale 1/sqrt(HD); q head h reads kv head h / (QH/KVH). */
static void reference(const state *st, const uint16_t *ks, const uint16_t *vs, double *y) {
    for (int h = 0; h < QH; h++) {
        const size_t g = (size_t)(h / (QH / KVH));
        double sc[CAP], mx = -INFINITY, sum = 0;
        for (int64_t t = 0; t < st->valid; t++) {
            double dot = 0;
            for (int e = 0; e < HD; e++)
                dot += (double)osc_f16_to_f32(st->q[h * HD + e]) *
                       (double)osc_f16_to_f32(ks[(g * CAP + (size_t)t) * HD + (size_t)e]);
            sc[t] = dot / sqrt((double)HD);
            if (sc[t] > mx) mx = sc[t];
        }
        for (int64_t t = 0; t < st->valid; t++) sum += sc[t] = exp(sc[t] - mx);
        for (int e = 0; e < HD; e++) {
            double acc = 0;
            for (int64_t t = 0; t < st->valid; t++)
                acc += sc[t] / sum *
                       (double)osc_f16_to_f32(vs[(g * CAP + (size_t)t) * HD + (size_t)e]);
            y[h * HD + e] = acc;
        }
    }
}

/* The new rows written into the shadow copies at the write index. */
static void shadow_write(const state *st, uint16_t *ks, uint16_t *vs) {
    for (size_t g = 0; g < KVH; g++) {
        memcpy(ks + (g * CAP + (size_t)st->wi) * HD, st->kn + g * HD, HD * sizeof *ks);
        memcpy(vs + (g * CAP + (size_t)st->wi) * HD, st->vn + g * HD, HD * sizeof *vs);
    }
}

/* STEPS decode steps at positions FILLED, FILLED + 1, ...: each writes in place (the outputs
 * k_out and v_out are the caller's cache buffers, holding exactly the shadow copies, NaN past
 * the write position), allocates no block of a cache's size, and gives a finite Y within
 * float16 rounding of the reference. */
static void steps_in_place(void **state_) {
    (void)state_;
    size_t len = 0;
    void *bytes = step_model(false, &len);
    watch w = {0};
    osc_model *m = NULL;
    osc_session *s = open_step(bytes, len, 1, &w, &m);
    int32_t mode = -1;
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(osc_model_node_inplace(m, i, &mode), OSC_OK);
        assert_int_equal(mode, OSC_INPLACE_INPUT);
    }
    state st;
    fill_state(&st);
    uint16_t *ks = malloc(CACHE_BYTES), *vs = malloc(CACHE_BYTES);
    assert_non_null(ks);
    assert_non_null(vs);
    memcpy(ks, st.kc, CACHE_BYTES), memcpy(vs, st.vc, CACHE_BYTES);
    for (int step = 0; step < STEPS; step++) {
        new_rows(&st, FILLED + step);
        bind(s, &st, QH, NULL);
        w.largest = 0;
        if (osc_session_run(s) != OSC_OK) fail_msg("step %d: %s", step, osc_session_error(s));
        if (w.largest >= CACHE_BYTES)
            fail_msg("step %d allocated a block of %zu bytes (a cache is %zu)", step,
                     w.largest, CACHE_BYTES);
        shadow_write(&st, ks, vs);
        osc_tensor y, ko, vo;
        assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
        assert_int_equal(osc_session_output(s, 1, &ko), OSC_OK);
        assert_int_equal(osc_session_output(s, 2, &vo), OSC_OK);
        assert_ptr_equal(ko.data, st.kc);
        assert_ptr_equal(vo.data, st.vc);
        assert_memory_equal(st.kc, ks, CACHE_BYTES);
        assert_memory_equal(st.vc, vs, CACHE_BYTES);
        for (size_t g = 0; g < KVH; g++) /* the row past the step's: still the poison */
            assert_int_equal(st.kc[(g * CAP + (size_t)st.valid) * HD], 0x7e00);
        double want[QH * HD];
        reference(&st, ks, vs, want);
        const uint16_t *yv = y.data;
        for (int i = 0; i < QH * HD; i++) {
            const double got = osc_f16_to_f32(yv[i]);
            if (!isfinite(got) || fabs(got - want[i]) > 2e-3 + 2e-3 * fabs(want[i]))
                fail_msg("step %d: y[%d] = %.6g; the reference gives %.6g", step, i, got,
                         want[i]);
        }
    }
    free(ks), free(vs), free(st.kc), free(st.vc), free(bytes);
    osc_session_free(s);
    osc_model_free(m);
}

/* Without inplace_inputs the same step copies the caches into blocks of their size: the check
 * above would see it. */
static void copies_without_donation(void **state_) {
    (void)state_;
    size_t len = 0;
    void *bytes = step_model(false, &len);
    watch w = {0};
    osc_model *m = NULL;
    osc_session *s = open_step(bytes, len, 0, &w, &m);
    state st;
    fill_state(&st);
    new_rows(&st, FILLED);
    bind(s, &st, QH, NULL);
    w.largest = 0;
    assert_int_equal(osc_session_run(s), OSC_OK);
    assert_true(w.largest >= CACHE_BYTES);
    osc_tensor ko;
    assert_int_equal(osc_session_output(s, 1, &ko), OSC_OK);
    assert_ptr_not_equal(ko.data, st.kc);
    free(st.kc), free(st.vc), free(bytes);
    osc_session_free(s);
    osc_model_free(m);
}

/* One bad step: the run fails with `status`, its message has every string of `has`, and both
 * caches hold what they held before. Then a good step runs on the same session. */
static void refused_step(osc_session *s, state *st, int64_t qh, const osc_tensor *mask,
                         osc_status status, const char *const *has) {
    uint16_t *k0 = malloc(CACHE_BYTES), *v0 = malloc(CACHE_BYTES);
    assert_non_null(k0);
    assert_non_null(v0);
    memcpy(k0, st->kc, CACHE_BYTES), memcpy(v0, st->vc, CACHE_BYTES);
    bind(s, st, qh, mask);
    assert_int_equal(osc_session_run(s), status);
    const char *msg = osc_session_error(s);
    for (int i = 0; has[i]; i++)
        if (!strstr(msg, has[i])) fail_msg("message '%s' lacks '%s'", msg, has[i]);
    assert_memory_equal(st->kc, k0, CACHE_BYTES);
    assert_memory_equal(st->vc, v0, CACHE_BYTES);
    free(k0), free(v0);
}

static void bad_steps(void **state_) {
    (void)state_;
    size_t len = 0, mlen = 0;
    void *bytes = step_model(false, &len), *mbytes = step_model(true, &mlen);
    watch w = {0};
    osc_model *m = NULL;
    osc_session *s = open_step(bytes, len, 1, &w, &m);
    state st;
    fill_state(&st);
    /* a good step first: the bad one below reuses its plan (no new inference of shapes) */
    new_rows(&st, FILLED);
    bind(s, &st, QH, NULL);
    if (osc_session_run(s) != OSC_OK) fail_msg("good step: %s", osc_session_error(s));
    new_rows(&st, FILLED + 1);
    st.valid = CAP + 1;
    refused_step(s, &st, QH, NULL, OSC_ERR_INDEX,
                 (const char *[]){"node 'attend' (Attention-24)", "'nonpad_kv_seqlen' (valid)",
                                  "holds 257 at position 0; allowed: 0 to the kv sequence "
                                  "length 256", NULL});
    st.valid = FILLED + 2;
    /* 6 q heads over 2 kv heads would do; 5 is not a multiple */
    refused_step(s, &st, 5, NULL, OSC_ERR_SHAPE,
                 (const char *[]){"node 'attend' (Attention-24)", "input 0 'Q' (q) has 5 heads "
                                  "and inputs 1 'K' (k_out), 2 'V' (v_out) have 2", NULL});
    st.wi = CAP;
    refused_step(s, &st, QH, NULL, OSC_ERR_INDEX,
                 (const char *[]){"node 'write_k' (TensorScatter-24)", "(write_index)",
                                  "value 256 at batch position 0 is out of range [0, 255]",
                                  NULL});
    st.wi = FILLED + 1;
    bind(s, &st, QH, NULL);
    if (osc_session_run(s) != OSC_OK) fail_msg("good step: %s", osc_session_error(s));
    osc_session_free(s);
    osc_model_free(m);

    /* a mask that does not broadcast to (1, 8, 1, 256): 3 heads; then 257 keys */
    s = open_step(mbytes, mlen, 1, &w, &m);
    static uint16_t z[8 * CAP + 8];
    const osc_tensor m3 = osc_test_view(OSC_FLOAT16, 4, D(1, 3, 1, CAP), z),
                     mlong = osc_test_view(OSC_FLOAT16, 4, D(1, 1, 1, CAP + 1), z),
                     mok = osc_test_view(OSC_FLOAT16, 4, D(1, 1, 1, CAP), z);
    new_rows(&st, FILLED + 2);
    refused_step(s, &st, QH, &m3, OSC_ERR_SHAPE,
                 (const char *[]){"node 'attend' (Attention-24)", "'attn_mask' (mask)",
                                  "dim 1 is 3; allowed: 1 or 8", NULL});
    refused_step(s, &st, QH, &mlong, OSC_ERR_SHAPE,
                 (const char *[]){"node 'attend' (Attention-24)", "dim 3 is 257; allowed: 0 "
                                  "to 256", NULL});
    bind(s, &st, QH, &mok);
    if (osc_session_run(s) != OSC_OK) fail_msg("good step: %s", osc_session_error(s));
    osc_session_free(s);
    osc_model_free(m);
    free(st.kc), free(st.vc), free(bytes), free(mbytes);
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(steps_in_place),
              cmocka_unit_test(copies_without_donation), cmocka_unit_test(bad_steps))
