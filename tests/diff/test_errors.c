/* test_errors.c: every kind of invalid node fails with its documented status and message. */
/* And neither the output buffers nor the caller's input buffers change by a single byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"
#include "core/dtype.h"
#include "tests/support/check.h"

/* ---- a tracking allocator: new bytes are 0xA5, and blocks made during a run are known ----
 * The arena (where outputs live) is the block of osc_model_arena_bytes() bytes allocated in
 * the first run; reading it is reading memory this test owns, not a session internal. */
#define FRESH 0xA5
typedef struct blk {
    void *p;
    size_t n;
    bool in_run;
} blk;
static blk g_blk[4096];
static size_t g_nblk;
static bool g_in_run;

static void *track_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    (void)ud;
    size_t i = 0;
    while (ptr && i < g_nblk && g_blk[i].p != ptr) i++;
    if (!ptr) i = g_nblk;
    if (nsize == 0) {
        free(ptr);
        if (ptr && i < g_nblk) g_blk[i] = g_blk[--g_nblk];
        return NULL;
    }
    void *q = realloc(ptr, nsize);
    if (!q) return NULL;
    if (nsize > osize) memset((char *)q + osize, FRESH, nsize - osize);
    if (i == g_nblk) { /* new, or made before the records were last cleared */
        assert_true(g_nblk < sizeof g_blk / sizeof g_blk[0]);
        i = g_nblk++;
        g_blk[i].in_run = g_in_run;
    }
    g_blk[i].p = q;
    g_blk[i].n = nsize;
    return q;
}

/* The arena block(s): made during a run, exactly the session's arena size. */
static size_t arena_blocks(const osc_session *ss, blk **out) {
    size_t n = 0;
    uint64_t want = osc_session_arena_bytes(ss);
    for (size_t i = 0; i < g_nblk && want; i++)
        if (g_blk[i].in_run && g_blk[i].n == want) out[n++] = &g_blk[i];
    return n;
}

/* ---- tensors owned by the test (freed at the end of each test) ---- */
static void *g_mem[256];
static size_t g_nmem;

static void *tmem(size_t n) {
    void *p = calloc(1, n ? n : 1);
    assert_non_null(p);
    assert_true(g_nmem < sizeof g_mem / sizeof g_mem[0]);
    return g_mem[g_nmem++] = p;
}

static void free_all(void) {
    while (g_nmem) free(g_mem[--g_nmem]);
}

/* A tensor of dtype with the given dims; numbers 1, 2, 3... (so a copy into the output would
 * show), strings "s". */
static osc_tensor tdata(int32_t dtype, int32_t rank, const int64_t *dims) {
    osc_tensor t = osc_test_view(dtype, rank, dims, NULL);
    const int64_t n = osc_tensor_count(&t);
    t.data = tmem(t.nbytes);
    unsigned bits = osc_dtype_get(dtype)->bits;
    for (int64_t i = 0; i < n; i++) {
        if (dtype == OSC_STRING)
            ((osc_string *)t.data)[i] = (osc_string){"s", 1};
        else if (dtype == OSC_FLOAT)
            ((float *)t.data)[i] = (float)(i + 1);
        else if (bits >= 8)
            ((unsigned char *)t.data)[i * (bits / 8)] = (unsigned char)(i + 1);
    }
    return t;
}

/* An index tensor (int32 or int64) with the given values. */
static osc_tensor tidx(int32_t dtype, int32_t rank, const int64_t *dims, const int64_t *v) {
    osc_tensor t = tdata(dtype, rank, dims);
    int64_t n = 1;
    for (int32_t i = 0; i < rank; i++) n *= dims[i];
    for (int64_t i = 0; i < n; i++) {
        if (dtype == OSC_INT32)
            ((int32_t *)t.data)[i] = (int32_t)v[i];
        else if (dtype == OSC_INT64)
            ((int64_t *)t.data)[i] = v[i];
    }
    return t;
}

#define D(...) ((const int64_t[]){__VA_ARGS__})

/* ---- one node, built in memory ---- */
typedef struct spec {
    const char *op;
    int64_t opset;
    const char *sattr[2][2]; /* string attributes {name, value} */
    const char *iattr_name[2];
    int64_t iattr[2];
    int n_in;
    const char *names[3];
    osc_tensor in[3];
} spec;

static spec mk(const char *op, int64_t opset, int n_in) {
    spec s;
    memset(&s, 0, sizeof s);
    s.op = op;
    s.opset = opset;
    s.n_in = n_in;
    bool ts = strcmp(op, "TensorScatter") == 0;
    s.names[0] = ts ? "past_cache" : "data";
    s.names[1] = ts ? "update" : "indices";
    s.names[2] = ts ? "write_indices" : "updates";
    return s;
}
static void sattr(spec *s, const char *name, const char *v) {
    int i = s->sattr[0][0] ? 1 : 0;
    s->sattr[i][0] = name;
    s->sattr[i][1] = v;
}
static void iattr(spec *s, const char *name, int64_t v) {
    int i = s->iattr_name[0] ? 1 : 0;
    s->iattr_name[i] = name;
    s->iattr[i] = v;
}

static osc_status load(const spec *s, bool symbolic, osc_model **m, char *msg, size_t size) {
    osc_mw *mw = osc_mw_new(10);
    osc_mw_opset(mw, "", s->opset);
    int64_t unknown[OSC_MAX_RANK];
    for (int i = 0; i < OSC_MAX_RANK; i++) unknown[i] = -1;
    for (int i = 0; i < s->n_in; i++)
        osc_mw_input(mw, s->names[i], s->in[i].dtype, s->in[i].rank,
                     symbolic ? unknown : s->in[i].dims, NULL);
    const char *outs[1] = {"y"};
    int n = osc_mw_node(mw, s->op, "n0", s->n_in, s->names, 1, outs);
    for (int i = 0; i < 2; i++) {
        if (s->sattr[i][0]) osc_mw_attr_string(mw, n, s->sattr[i][0], s->sattr[i][1]);
        if (s->iattr_name[i]) osc_mw_attr_int(mw, n, s->iattr_name[i], s->iattr[i]);
    }
    osc_mw_output(mw, "y", s->in[0].dtype, -1, NULL, NULL);
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    osc_options o;
    osc_options_init(&o);
    o.alloc = track_alloc;
    osc_status st = osc_model_load_buffer(buf, len, NULL, &o, m, msg, size);
    free(buf);
    return st;
}

/* Byte image of the inputs (string bytes included). */
static size_t image(const spec *s, unsigned char *out, size_t cap) {
    size_t p = 0;
    for (int i = 0; i < s->n_in; i++) {
        const osc_tensor *t = &s->in[i];
        for (size_t j = 0; j < t->nbytes; j++, p++)
            if (p < cap) out[p] = ((const unsigned char *)t->data)[j];
        if (t->dtype != OSC_STRING) continue;
        for (size_t e = 0; e < t->nbytes / sizeof(osc_string); e++) {
            const osc_string *str = (const osc_string *)t->data + e;
            for (size_t j = 0; j < str->len; j++, p++)
                if (p < cap) out[p] = (unsigned char)str->ptr[j];
        }
    }
    return p;
}

static void assert_has(const char *msg, const char *const *subs, const char *ctx) {
    for (int i = 0; subs[i]; i++)
        if (!strstr(msg, subs[i])) fail_msg("%s: message \"%s\" lacks \"%s\"", ctx, msg, subs[i]);
}

/* Runs s; it must fail with want and a message holding every subs[i].
 * static_dims: inputs declared with their dims (shape errors surface at load), else unknown
 * dims (they surface at run). at_load: where the failure must happen.
 * After a run failure: the caller's inputs are byte-identical, no output is readable, and no
 * output byte was written, whether the output lives in the session's arena (which must still
 * hold only the allocator's fresh 0xA5 bytes) or in a caller buffer given with
 * osc_session_set_output_buffer (which the kernel writes directly: it must keep its 0x5A). */
static void expect_error(const char *ctx, const spec *s, bool static_dims, bool at_load,
                         osc_status want, const char *const *subs) {
    char msg[512] = "", where[600];
    osc_model *m = NULL;
    snprintf(where, sizeof where, "%s (%s dims)", ctx, static_dims ? "static" : "symbolic");
    g_nblk = 0;
    osc_status st = load(s, !static_dims, &m, msg, sizeof msg);
    if (at_load) {
        if (st != want)
            fail_msg("%s: load gave %s (%s), want %s", where, osc_status_name(st), msg,
                     osc_status_name(want));
        assert_null(m);
        assert_has(msg, subs, where);
        return;
    }
    if (st != OSC_OK) fail_msg("%s: load failed: %s", where, msg);
    static unsigned char before[1 << 16], after[1 << 16], outbuf[1 << 12];
    for (int caller_buf = 0; caller_buf < 2; caller_buf++) {
        osc_session *ss;
        assert_int_equal(osc_session_create(m, &ss), OSC_OK);
        size_t nb = image(s, before, sizeof before);
        for (int i = 0; i < s->n_in; i++)
            assert_int_equal(osc_session_set_input(ss, s->names[i], &s->in[i]), OSC_OK);
        memset(outbuf, 0x5A, sizeof outbuf);
        if (caller_buf)
            assert_int_equal(osc_session_set_output_buffer(ss, 0, outbuf, sizeof outbuf), OSC_OK);
        g_in_run = true;
        st = osc_session_run(ss);
        g_in_run = false;
        if (st != want)
            fail_msg("%s: run gave %s (%s), want %s", where, osc_status_name(st),
                     osc_session_error(ss), osc_status_name(want));
        assert_has(osc_session_error(ss), subs, where);
        assert_int_equal(image(s, after, sizeof after), nb);
        if (memcmp(before, after, nb) != 0) fail_msg("%s: the caller's inputs changed", where);
        osc_tensor y;
        assert_int_equal(osc_session_output(ss, 0, &y), OSC_ERR_STATE);
        for (size_t j = 0; j < sizeof outbuf; j++)
            if (outbuf[j] != 0x5A) fail_msg("%s: caller output byte %zu was written", where, j);
        blk *arena[8];
        size_t na = arena_blocks(ss, arena);
        if (static_dims && !caller_buf && osc_session_arena_bytes(ss) > 0 && na == 0)
            fail_msg("%s: no arena block of %llu bytes was allocated in the run", where,
                     (unsigned long long)osc_session_arena_bytes(ss));
        for (size_t b = 0; b < na; b++)
            for (size_t j = 0; j < arena[b]->n; j++)
                if (((unsigned char *)arena[b]->p)[j] != FRESH)
                    fail_msg("%s: output arena byte %zu was written before the failure", where, j);
        osc_session_free(ss);
    }
    osc_model_free(m);
}

/* A shape, dtype or attribute error: load fails with static dims; with unknown dims it fails at
 * load (at_load: attribute errors, checked once per node, and declared dtypes outside an op
 * version's type constraint) or at the first run (shape errors). */
static void expect_invalid(const char *ctx, const spec *s, bool at_load, osc_status want,
                           const char *const *subs) {
    expect_error(ctx, s, true, true, want, subs);
    expect_error(ctx, s, false, at_load, want, subs);
}

#define SUBS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ---- index out of range: first, middle and last position, too large and too small ---- */

/* The op at index position pos gets value bad: the run fails with OSC_ERR_INDEX naming the
 * node, the input, the position, the value and the range. A previous good run's output stays
 * byte-identical in the arena, and a fresh session's arena stays untouched. */
static void index_error(const char *ctx, spec s, int input, int64_t pos, int64_t bad,
                        const char *const *subs) {
    char where[300];
    snprintf(where, sizeof where, "%s: position %lld value %lld", ctx, (long long)pos,
             (long long)bad);
    /* fresh session: fails, arena untouched */
    osc_tensor good = s.in[input];
    osc_tensor badt = good;
    badt.data = tmem(good.nbytes);
    memcpy(badt.data, good.data, good.nbytes);
    if (good.dtype == OSC_INT32)
        ((int32_t *)badt.data)[pos] = (int32_t)bad;
    else
        ((int64_t *)badt.data)[pos] = bad;
    s.in[input] = badt;
    expect_error(where, &s, true, false, OSC_ERR_INDEX, subs);
    expect_error(where, &s, false, false, OSC_ERR_INDEX, subs);

    /* good run first, then the bad one in the same session: the output bytes stay, in the
     * arena and in a caller output buffer */
    osc_model *m;
    char msg[512];
    g_nblk = 0;
    s.in[input] = good;
    assert_int_equal(load(&s, false, &m, msg, sizeof msg), OSC_OK);
    for (int caller_buf = 0; caller_buf < 2; caller_buf++) {
        /* aligned for any element: a direct write needs its dtype's alignment (a char array
         * is 8-aligned on armhf, 32 on x86-64) */
        static _Alignas(16) unsigned char outbuf[1 << 12];
        static unsigned char outsnap[1 << 12];
        osc_session *ss;
        assert_int_equal(osc_session_create(m, &ss), OSC_OK);
        for (int i = 0; i < s.n_in; i++)
            assert_int_equal(osc_session_set_input(ss, s.names[i], &s.in[i]), OSC_OK);
        memset(outbuf, 0x5A, sizeof outbuf);
        if (caller_buf)
            assert_int_equal(osc_session_set_output_buffer(ss, 0, outbuf, sizeof outbuf), OSC_OK);
        g_in_run = true;
        assert_int_equal(osc_session_run(ss), OSC_OK);
        g_in_run = false;
        int32_t mode = -1;
        assert_int_equal(osc_session_output_mode(ss, 0, &mode), OSC_OK);
        /* with a caller buffer the kernel wrote straight into it: the strictest place to look */
        assert_int_equal(mode, caller_buf ? OSC_OUTPUT_DIRECT : OSC_OUTPUT_SESSION);
        blk *arena[8];
        size_t na = arena_blocks(ss, arena);
        unsigned char *snap = NULL;
        if (!caller_buf) {
            assert_int_equal(na, 1);
            snap = tmem(arena[0]->n);
            memcpy(snap, arena[0]->p, arena[0]->n);
        }
        memcpy(outsnap, outbuf, sizeof outbuf);
        assert_int_equal(osc_session_set_input(ss, s.names[input], &badt), OSC_OK);
        assert_int_equal(osc_session_run(ss), OSC_ERR_INDEX);
        assert_has(osc_session_error(ss), subs, where);
        if (memcmp(outsnap, outbuf, sizeof outbuf) != 0)
            fail_msg("%s: the previous run's output in the caller's buffer changed", where);
        if (!caller_buf) {
            assert_int_equal(arena_blocks(ss, arena), 1);
            if (memcmp(snap, arena[0]->p, arena[0]->n) != 0)
                fail_msg("%s: the previous run's output bytes in the arena changed", where);
        }
        osc_session_free(ss);
    }
    osc_model_free(m);
}

static const struct {
    const char *op;
    int64_t opset;
} k_elements_versions[] = {{"Scatter", 9},          {"Scatter", 11},
                           {"ScatterElements", 11}, {"ScatterElements", 13},
                           {"ScatterElements", 16}, {"ScatterElements", 18}};

static void test_elements_index_out_of_range(void **state) {
    (void)state;
    /* data [3, 4], indices [2, 4] along axis 0, allowed [-3, 2]; flat positions 0, 3, 7 */
    const int64_t v[8] = {0, 1, 2, -1, -2, -3, 0, 1};
    for (size_t vi = 0; vi < 6; vi++)
        for (int32_t it = OSC_INT32; it <= OSC_INT64; it++) {
            spec s = mk(k_elements_versions[vi].op, k_elements_versions[vi].opset, 3);
            s.in[0] = tdata(OSC_FLOAT, 2, D(3, 4));
            s.in[1] = tidx(it, 2, D(2, 4), v);
            s.in[2] = tdata(OSC_FLOAT, 2, D(2, 4));
            const int64_t pos[3] = {0, 3, 7}, bad[2] = {3, -4};
            for (int p = 0; p < 3; p++)
                for (int b = 0; b < 2; b++) {
                    char fp[64], val[64];
                    snprintf(fp, sizeof fp, "flat position %lld", (long long)pos[p]);
                    snprintf(val, sizeof val, "value %lld", (long long)bad[b]);
                    index_error(k_elements_versions[vi].op, s, 1, pos[p], bad[b],
                                SUBS("node 'n0'", "input 1 'indices'", fp, val, "[-3, 2]",
                                     "axis 0 of size 3"));
                }
            /* the extremes of the index type, along axis 1 (size 4) */
            iattr(&s, "axis", -1);
            index_error("extreme", s, 1, 5, it == OSC_INT32 ? INT32_MIN : INT64_MIN,
                        SUBS("flat position 5", "[-4, 3]", "axis 1 of size 4"));
            index_error("extreme", s, 1, 7, it == OSC_INT32 ? INT32_MAX : INT64_MAX,
                        SUBS("flat position 7", "[-4, 3]"));
            free_all();
        }
}

static void test_gather_elements_index_out_of_range(void **state) {
    (void)state;
    const int64_t v[6] = {0, 1, -1, 1, 0, -2};
    for (int64_t opset = 11; opset <= 13; opset += 2)
        for (int32_t it = OSC_INT32; it <= OSC_INT64; it++) {
            spec s = mk("GatherElements", opset, 2);
            s.in[0] = tdata(OSC_INT8, 2, D(2, 2));
            s.in[1] = tidx(it, 2, D(3, 2), v);
            iattr(&s, "axis", 0);
            const int64_t pos[3] = {0, 2, 5};
            for (int p = 0; p < 3; p++) {
                char fp[64];
                snprintf(fp, sizeof fp, "flat position %lld", (long long)pos[p]);
                index_error("GatherElements", s, 1, pos[p], 2,
                            SUBS("node 'n0'", fp, "value 2", "[-2, 1]"));
                index_error("GatherElements", s, 1, pos[p], -3, SUBS(fp, "value -3", "[-2, 1]"));
            }
            free_all();
        }
}

static void test_nd_index_out_of_range(void **state) {
    (void)state;
    /* data [2, 3]: tuples of k = 2, component 0 in [-2, 1], component 1 in [-3, 2] */
    const int64_t v[6] = {0, 0, 1, -1, -2, 2};
    const char *ops[2] = {"ScatterND", "GatherND"};
    const int64_t opsets[2][4] = {{11, 13, 16, 18}, {11, 12, 13, 13}};
    for (int o = 0; o < 2; o++)
        for (int vi = 0; vi < 4; vi++) {
            spec s = mk(ops[o], opsets[o][vi], o ? 2 : 3);
            s.in[0] = tdata(OSC_DOUBLE, 2, D(2, 3));
            s.in[1] = tidx(OSC_INT64, 2, D(3, 2), v);
            if (!o) s.in[2] = tdata(OSC_DOUBLE, 1, D(3));
            index_error(ops[o], s, 1, 0, 2,
                        SUBS("node 'n0'", "value 2 at flat position 0", "[-2, 1]", "dim 0"));
            index_error(ops[o], s, 1, 3, -4,
                        SUBS("value -4 at flat position 3", "[-3, 2]", "dim 1"));
            index_error(ops[o], s, 1, 5, 3, SUBS("value 3 at flat position 5", "[-3, 2]"));
            index_error(ops[o], s, 1, 4, INT64_MIN, SUBS("at flat position 4", "[-2, 1]"));
            free_all();
        }
    /* GatherND with batch_dims 1: components address data dims from 1 on */
    spec g = mk("GatherND", 13, 2);
    g.in[0] = tdata(OSC_UINT16, 3, D(2, 3, 4));
    g.in[1] = tidx(OSC_INT64, 3, D(2, 1, 2), (const int64_t[]){0, 0, 2, 3});
    iattr(&g, "batch_dims", 1);
    index_error("GatherND b=1", g, 1, 3, 4, SUBS("value 4 at flat position 3", "[-4, 3]", "dim 2"));
    index_error("GatherND b=1", g, 1, 0, -4,
                SUBS("value -4 at flat position 0", "[-3, 2]", "dim 1"));
    free_all();
}

static void test_tensor_scatter_write_index_out_of_range(void **state) {
    (void)state;
    /* past [3, 4, 2], update [3, 2, 2]: linear write indices in [0, 2] */
    spec s = mk("TensorScatter", 24, 3);
    s.in[0] = tdata(OSC_FLOAT16, 3, D(3, 4, 2));
    s.in[1] = tdata(OSC_FLOAT16, 3, D(3, 2, 2));
    s.in[2] = tidx(OSC_INT64, 1, D(3), (const int64_t[]){0, 1, 2});
    sattr(&s, "mode", "linear");
    for (int64_t b = 0; b < 3; b++) {
        char bp[64];
        snprintf(bp, sizeof bp, "batch position %lld", (long long)b);
        index_error("TensorScatter", s, 2, b, 3, SUBS("node 'n0'", "value 3", bp, "[0, 2]"));
        index_error("TensorScatter", s, 2, b, -1, SUBS("value -1", bp, "[0, 2]"));
    }
    free_all();
}

/* ---- shape, attribute and dtype errors ---- */

static void test_scatter_elements_invalid_nodes(void **state) {
    (void)state;
    for (size_t vi = 0; vi < 6; vi++) {
        const char *op = k_elements_versions[vi].op;
        int64_t opset = k_elements_versions[vi].opset;
        spec s = mk(op, opset, 3);
        s.in[0] = tdata(OSC_FLOAT, 2, D(3, 3));
        s.in[1] = tidx(OSC_INT64, 2, D(2, 3), (const int64_t[]){0, 1, 2, 0, 1, 2});
        s.in[2] = tdata(OSC_FLOAT, 2, D(2, 3));

        spec e = s;
        e.in[2] = tdata(OSC_FLOAT, 2, D(3, 2));
        expect_invalid("updates shape", &e, false, OSC_ERR_SHAPE,
                       SUBS("node 'n0'", "input 2 'updates'", "[3,2]", "[2,3]", "must match"));
        e = s;
        e.in[1] = tidx(OSC_INT64, 1, D(3), (const int64_t[]){0, 1, 2});
        e.in[2] = tdata(OSC_FLOAT, 1, D(3));
        expect_invalid("indices rank", &e, false, OSC_ERR_SHAPE,
                       SUBS("input 1 'indices'", "has rank 1", "rank 2"));
        e = s;
        e.in[1] = tidx(OSC_INT64, 2, D(1, 4), (const int64_t[]){0, 0, 0, 0});
        e.in[2] = tdata(OSC_FLOAT, 2, D(1, 4));
        expect_invalid("indices wider than data off axis", &e, false, OSC_ERR_SHAPE,
                       SUBS("size 4 in dim 1", "size 3 there", "out of bounds"));
        e = s;
        iattr(&e, "axis", 2);
        expect_invalid("axis 2", &e, false, OSC_ERR_MODEL,
                       SUBS("attribute 'axis' = 2 is out of range [-2, 1]"));
        e = s;
        iattr(&e, "axis", -3);
        expect_invalid("axis -3", &e, false, OSC_ERR_MODEL, SUBS("'axis' = -3", "[-2, 1]"));
        e = s;
        e.in[1] = tidx(OSC_INT16, 2, D(2, 3), (const int64_t[]){0, 0, 0, 0, 0, 0});
        expect_invalid("int16 indices", &e, true, OSC_ERR_SHAPE,
                       SUBS("input 1 'indices'", "dtype int16", "expected int32 or int64"));
        e = s;
        e.in[1] = tdata(OSC_FLOAT, 2, D(2, 3));
        expect_invalid("float indices", &e, true, OSC_ERR_SHAPE,
                       SUBS("dtype float", "int32 or int64"));
        e = s;
        e.in[2] = tdata(OSC_DOUBLE, 2, D(2, 3));
        expect_invalid("updates dtype", &e, false, OSC_ERR_SHAPE,
                       SUBS("dtype double", "must match"));
        e = s;
        e.in[0] = tdata(OSC_FLOAT, 0, D(0));
        expect_invalid("rank-0 data", &e, false, OSC_ERR_SHAPE, SUBS("input 0 'data'", "rank"));
        e = s;
        iattr(&e, "foo", 1);
        expect_invalid("unknown attribute", &e, true, OSC_ERR_MODEL,
                       SUBS("unknown attribute 'foo'"));
        e = s;
        sattr(&e, "reduction", "add");
        if (opset < 16)
            expect_invalid("reduction before 16", &e, true, OSC_ERR_MODEL,
                           SUBS("node 'n0'", "'reduction' does not exist before opset 16"));
        e = s;
        sattr(&e, "reduction", "max");
        if (opset == 16)
            expect_invalid(
                "max in 16", &e, true, OSC_ERR_UNSUPPORTED,
                SUBS("reduction 'max' is not allowed in this version", "none, add, mul"));
        e = s;
        sattr(&e, "reduction", "sum");
        if (opset >= 16)
            expect_invalid("unknown reduction", &e, true, OSC_ERR_MODEL,
                           SUBS("reduction 'sum' is unknown"));
        e = s;
        e.in[0] = tdata(OSC_STRING, 2, D(3, 3));
        e.in[2] = tdata(OSC_STRING, 2, D(2, 3));
        sattr(&e, "reduction", "mul");
        if (opset >= 16)
            expect_invalid("string mul", &e, false, OSC_ERR_UNSUPPORTED,
                           SUBS("node 'n0'", "reduction 'mul' is not defined for string"));
        free_all();
    }
}

static void test_scatter_nd_invalid_nodes(void **state) {
    (void)state;
    for (int64_t opset = 11; opset <= 18; opset += opset == 11 ? 2 : opset == 13 ? 3 : 2) {
        spec s = mk("ScatterND", opset, 3);
        s.in[0] = tdata(OSC_INT32, 2, D(2, 2));
        s.in[1] = tidx(OSC_INT64, 2, D(1, 2), (const int64_t[]){0, 1});
        s.in[2] = tdata(OSC_INT32, 1, D(1));
        spec e = s;
        e.in[1] = tidx(OSC_INT64, 2, D(1, 3), (const int64_t[]){0, 0, 0});
        expect_invalid("k > r", &e, false, OSC_ERR_SHAPE,
                       SUBS("node 'n0'", "indices.shape[-1] = 3 is out of range [0, 2]"));
        e = s;
        e.in[2] = tdata(OSC_INT32, 1, D(2));
        expect_invalid("updates shape", &e, false, OSC_ERR_SHAPE,
                       SUBS("input 2 'updates'", "has shape [2]", "expected [1]"));
        e = s;
        e.in[1] = tidx(OSC_INT64, 2, D(1, 1), (const int64_t[]){0});
        expect_invalid("updates shape k < r", &e, false, OSC_ERR_SHAPE, SUBS("expected [1,2]"));
        e = s;
        e.in[1] = tidx(OSC_INT32, 2, D(1, 2), (const int64_t[]){0, 1});
        expect_invalid("int32 indices", &e, true, OSC_ERR_SHAPE,
                       SUBS("dtype int32", "expected int64"));
        e = s;
        e.in[1] = tidx(OSC_INT64, 0, D(0), (const int64_t[]){0});
        expect_invalid("rank-0 indices", &e, false, OSC_ERR_SHAPE,
                       SUBS("input 1 'indices'", "rank 0"));
        e = s;
        sattr(&e, "reduction", "mul");
        if (opset < 16)
            expect_invalid("reduction before 16", &e, true, OSC_ERR_MODEL,
                           SUBS("does not exist before opset 16"));
        e = s;
        sattr(&e, "reduction", "min");
        if (opset == 16)
            expect_invalid("min in 16", &e, true, OSC_ERR_UNSUPPORTED,
                           SUBS("reduction 'min' is not allowed in this version"));
        e = s;
        e.in[0] = tdata(OSC_STRING, 2, D(2, 2));
        e.in[2] = tdata(OSC_STRING, 1, D(1));
        sattr(&e, "reduction", "mul");
        if (opset >= 16)
            expect_invalid("string mul", &e, false, OSC_ERR_UNSUPPORTED,
                           SUBS("reduction 'mul' is not defined for dtype string"));
        free_all();
    }
}

static void test_gather_invalid_nodes(void **state) {
    (void)state;
    spec s = mk("GatherElements", 13, 2);
    s.in[0] = tdata(OSC_BOOL, 2, D(2, 2));
    s.in[1] = tidx(OSC_INT32, 2, D(1, 2), (const int64_t[]){0, 1});
    spec e = s;
    iattr(&e, "axis", 2);
    expect_invalid("GE axis", &e, false, OSC_ERR_MODEL, SUBS("'axis' = 2 is out of range [-2, 1]"));
    e = s;
    e.in[1] = tidx(OSC_INT32, 2, D(1, 3), (const int64_t[]){0, 0, 0});
    iattr(&e, "axis", 0);
    expect_invalid("GE wide indices", &e, false, OSC_ERR_SHAPE, SUBS("read out of bounds"));
    e = s;
    e.in[1] = tidx(OSC_INT32, 1, D(2), (const int64_t[]){0, 0});
    expect_invalid("GE rank", &e, false, OSC_ERR_SHAPE, SUBS("has rank 1", "must match"));
    e = s;
    e.in[1] = tdata(OSC_UINT8, 2, D(1, 2));
    expect_invalid("GE uint8 indices", &e, true, OSC_ERR_SHAPE, SUBS("dtype uint8"));
    e = s;
    sattr(&e, "reduction", "add");
    expect_invalid("GE reduction", &e, true, OSC_ERR_MODEL, SUBS("unknown attribute 'reduction'"));

    spec g = mk("GatherND", 13, 2);
    g.in[0] = tdata(OSC_COMPLEX64, 3, D(2, 3, 2));
    g.in[1] = tidx(OSC_INT64, 2, D(2, 1), (const int64_t[]){0, 1});
    e = g;
    e.in[1] = tidx(OSC_INT64, 2, D(1, 4), (const int64_t[]){0, 0, 0, 0});
    expect_invalid("GND k > r", &e, false, OSC_ERR_SHAPE, SUBS("indices.shape[-1] = 4", "[0, 3]"));
    e = g;
    iattr(&e, "batch_dims", 1);
    e.in[1] = tidx(OSC_INT64, 2, D(2, 3), (const int64_t[]){0, 0, 0, 0, 0, 0});
    expect_invalid("GND k > r - b", &e, false, OSC_ERR_SHAPE,
                   SUBS("indices.shape[-1] = 3", "[0, 2]"));
    e = g;
    iattr(&e, "batch_dims", 2);
    expect_invalid("GND batch_dims too large", &e, false, OSC_ERR_SHAPE,
                   SUBS("'batch_dims' = 2 is out of range [0, 1]"));
    e = g;
    iattr(&e, "batch_dims", 1);
    e.in[1] = tidx(OSC_INT64, 2, D(3, 1), (const int64_t[]){0, 0, 0});
    expect_invalid("GND batch dim mismatch", &e, false, OSC_ERR_SHAPE,
                   SUBS("dim 0 is 3", "dim 0 is 2", "first batch_dims = 1 dims must be equal"));
    e = g;
    iattr(&e, "batch_dims", -1);
    expect_invalid("GND negative batch_dims", &e, true, OSC_ERR_MODEL, SUBS("must be >= 0"));
    e = g;
    e.opset = 11;
    iattr(&e, "batch_dims", 0);
    expect_invalid("GND-11 batch_dims", &e, true, OSC_ERR_MODEL,
                   SUBS("unknown attribute 'batch_dims'"));
    e = g;
    e.in[1] = tidx(OSC_INT32, 2, D(2, 1), (const int64_t[]){0, 1});
    expect_invalid("GND int32 indices", &e, true, OSC_ERR_SHAPE,
                   SUBS("dtype int32", "expected int64"));
    free_all();
}

static void test_tensor_scatter_invalid_nodes(void **state) {
    (void)state;
    spec s = mk("TensorScatter", 24, 3);
    s.in[0] = tdata(OSC_INT4, 3, D(2, 4, 3));
    s.in[1] = tdata(OSC_INT4, 3, D(2, 1, 3));
    s.in[2] = tidx(OSC_INT64, 1, D(2), (const int64_t[]){0, 3});
    spec e = s;
    iattr(&e, "axis", 0);
    expect_invalid("axis 0", &e, false, OSC_ERR_MODEL, SUBS("node 'n0'", "is the batch dim 0"));
    e = s;
    iattr(&e, "axis", -4);
    expect_invalid("axis -4", &e, false, OSC_ERR_MODEL,
                   SUBS("'axis' = -4 is out of range [-3, 2]"));
    e = s;
    e.in[1] = tdata(OSC_INT4, 3, D(2, 1, 2));
    expect_invalid("update shape", &e, false, OSC_ERR_SHAPE, SUBS("input 1 'update'", "[2,1,2]"));
    e = s;
    e.in[1] = tdata(OSC_INT4, 3, D(2, 5, 3));
    expect_invalid("seq > max_seq", &e, false, OSC_ERR_SHAPE, SUBS("sequence_length", "[0, 4]"));
    e = s;
    e.in[2] = tidx(OSC_INT64, 1, D(3), (const int64_t[]){0, 0, 0});
    expect_invalid("write_indices shape", &e, false, OSC_ERR_SHAPE,
                   SUBS("input 2 'write_indices'", "expected [2]"));
    e = s;
    e.in[2] = tidx(OSC_INT32, 1, D(2), (const int64_t[]){0, 0});
    expect_invalid("write_indices int32", &e, true, OSC_ERR_SHAPE,
                   SUBS("dtype int32", "expected int64"));
    e = s;
    e.in[1] = tdata(OSC_UINT4, 3, D(2, 1, 3));
    expect_invalid("update dtype", &e, false, OSC_ERR_SHAPE, SUBS("dtype uint4", "must match"));
    e = s;
    sattr(&e, "mode", "ring");
    expect_invalid("mode", &e, true, OSC_ERR_MODEL, SUBS("'mode' = 'ring' is unknown"));
    free_all();
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_elements_index_out_of_range),
    cmocka_unit_test(test_gather_elements_index_out_of_range),
    cmocka_unit_test(test_nd_index_out_of_range),
    cmocka_unit_test(test_tensor_scatter_write_index_out_of_range),
    cmocka_unit_test(test_scatter_elements_invalid_nodes),
    cmocka_unit_test(test_scatter_nd_invalid_nodes),
    cmocka_unit_test(test_gather_invalid_nodes),
    cmocka_unit_test(test_tensor_scatter_invalid_nodes),
)
