/* test_fusion_cache.c: rule cache_write (rewrite/rule_cache_write.c) and its kernel CacheWrite
 * (ops/attention/cache_write.c). The graphs write a KV cache's new rows as decoders export them:
 *     X -> [RotaryEmbedding] -> [Cast] -> Reshape (B, S, H, D) -> [Cast] -> Transpose [0, 2, 1, 3]
 *       -> [Cast] -> TensorScatter(cache, ., write_indices)
 * with X 3-D, or X 4-D in the cache's layout (no Reshape, no Transpose), or one row reshaped
 * straight to the cache's layout. Each spelling runs fused and unfused: the caches must be equal
 * bit for bit, within rounding of a float64 rotation written here, made by one CacheWrite node;
 * a Transpose of another order, or two rows reshaped straight to (B, H, S, D), is left unfused
 * with the reason (and still exact). A write index or a position id out of range fails naming
 * the node and the value, the donated cache untouched. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/dtype.h"
#include "tests/support/check.h"
#include "tests/support/mw_check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

enum { B = 2, H = 3, D = 8, M = 6, P = 10 };
/* X's layout: 3-D, Reshape (B, S, H, D), Transpose; 4-D in the cache's layout; 3-D reshaped
 * straight to (B, H, S, D) (the cache's layout for one row; more rows are another order) */
enum { THREE_D, CACHE_ORDER, ONE_ROW };

typedef struct spelling {
    int32_t xdt, cdt;   /* X's dtype, the cache's */
    int layout;         /* THREE_D, CACHE_ORDER, ONE_ROW */
    int64_t s;          /* rows per batch */
    bool rope, pos, inter;
    int64_t rot;        /* rotary_embedding_dim (0: the whole head) */
    int cast_at;        /* 0 none; 1 after the rotation; 2 after the Reshape; 3 last */
    bool circular;
    bool other_perm;    /* Reshape (B, D, H, S), Transpose [0, 2, 3, 1]: not the rule's */
    bool rope_out;      /* the rotation's output is a graph output too: the rotation stays */
} spelling;

static uint32_t g_seed = 4242;

/* n values in [-1, 1) of dtype t into p; their exact values into v */
static void fill(int32_t t, void *p, double *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const float f = (float)(osc_test_rnd32(&g_seed) % 2000) / 1000.0f - 1.0f;
        if (t == OSC_FLOAT) ((float *)p)[i] = f, v[i] = f;
        else if (t == OSC_FLOAT16)
            ((uint16_t *)p)[i] = osc_f32_to_f16(f), v[i] = osc_f16_to_f32(osc_f32_to_f16(f));
        else ((uint16_t *)p)[i] = osc_f32_to_bf16(f), v[i] = osc_bf16_to_f32(osc_f32_to_bf16(f));
    }
}
static double value_at(int32_t t, const void *p, size_t i) {
    return t == OSC_FLOAT     ? ((const float *)p)[i]
           : t == OSC_FLOAT16 ? osc_f16_to_f32(((const uint16_t *)p)[i])
                              : osc_bf16_to_f32(((const uint16_t *)p)[i]);
}
static size_t esize(int32_t t) { return t == OSC_FLOAT ? 4 : 2; }

/* The graph's inputs, their exact values, and the write indices. */
typedef struct inputs {
    size_t nx, nt; /* X's elements, a table's */
    char x[B * M * H * D * 4], cs[P * D * 4], sn[P * D * 4], cache[B * H * M * D * 4];
    double xv[B * M * H * D], cv[P * D], sv[P * D];
    int64_t pos[B * M], wi[B];
} inputs;

static void cache_dims(int64_t *d) { d[0] = B, d[1] = H, d[2] = M, d[3] = D; }
static void x_dims(const spelling *s, int64_t *d, int32_t *rank) {
    if (s->layout == CACHE_ORDER) *rank = 4, d[0] = B, d[1] = H, d[2] = s->s, d[3] = D;
    else *rank = 3, d[0] = B, d[1] = s->s, d[2] = H * D;
}
/* the rotation tables: (P, rot / 2) with position ids, else (B, S, rot / 2) */
static void table_dims(const spelling *s, int64_t *d, int32_t *rank) {
    const int64_t half = (s->rot ? s->rot : D) / 2;
    if (s->pos) *rank = 2, d[0] = P, d[1] = half;
    else *rank = 3, d[0] = B, d[1] = s->s, d[2] = half;
}

static void *build(const spelling *s, size_t *len) {
    int64_t xd[4], td[3], cd[4];
    int32_t xr, tr;
    x_dims(s, xd, &xr), table_dims(s, td, &tr), cache_dims(cd);
    osc_mw *mw = osc_mw_graph(24, 0, NULL);
    osc_mw_input(mw, "x", s->xdt, xr, xd, NULL);
    if (s->rope) {
        osc_mw_input(mw, "cos", s->xdt, tr, td, NULL);
        osc_mw_input(mw, "sin", s->xdt, tr, td, NULL);
        if (s->pos) osc_mw_input(mw, "pos", OSC_INT64, 2, (const int64_t[]){B, s->s}, NULL);
    }
    osc_mw_input(mw, "cache", s->cdt, 4, cd, NULL);
    osc_mw_input(mw, "wi", OSC_INT64, 1, (const int64_t[]){B}, NULL);
    const char *v = "x";
    static const char *const names[] = {"v1", "v2", "v3", "v4", "v5", "v6"};
    int k = 0, n;
    /* the next node's output */
#define NEXT (&names[k++])
#define CAST_IF(at)                                                                           \
    if (s->cast_at == (at)) {                                                                 \
        n = osc_mw_node(mw, "Cast", NULL, 1, &v, 1, NEXT);                                    \
        osc_mw_attr_int(mw, n, "to", s->cdt);                                                 \
        v = names[k - 1];                                                                     \
    }
    if (s->rope) {
        const char *ri[4] = {v, "cos", "sin", "pos"};
        n = osc_mw_node(mw, "RotaryEmbedding", "rope", s->pos ? 4 : 3, ri, 1, NEXT);
        if (xr == 3) osc_mw_attr_int(mw, n, "num_heads", H);
        if (s->rot) osc_mw_attr_int(mw, n, "rotary_embedding_dim", s->rot);
        if (s->inter) osc_mw_attr_int(mw, n, "interleaved", 1);
        v = names[k - 1];
    }
    CAST_IF(1)
    if (s->layout != CACHE_ORDER) {
        int64_t to[4] = {B, s->layout == ONE_ROW ? H : s->s, s->layout == ONE_ROW ? s->s : H, D};
        if (s->other_perm) to[1] = D, to[3] = s->s;
        osc_tensor t = osc_test_view(OSC_INT64, 1, (const int64_t[]){4}, to);
        osc_mw_initializer(mw, "shape", &t);
        osc_mw_node(mw, "Reshape", NULL, 2, (const char *[]){v, "shape"}, 1, NEXT);
        v = names[k - 1];
        CAST_IF(2)
        if (s->layout == THREE_D) {
            n = osc_mw_node(mw, "Transpose", NULL, 1, &v, 1, NEXT);
            const int64_t perm[4] = {0, 2, s->other_perm ? 3 : 1, s->other_perm ? 1 : 3};
            osc_mw_attr_ints(mw, n, "perm", perm, 4);
            v = names[k - 1];
        }
    }
    CAST_IF(3)
    n = osc_mw_node(mw, "TensorScatter", "write", 3, (const char *[]){"cache", v, "wi"}, 1,
                    (const char *[]){"cache_out"});
    if (s->circular) osc_mw_attr_string(mw, n, "mode", "circular");
#undef CAST_IF
#undef NEXT
    osc_mw_output(mw, "cache_out", s->cdt, 4, cd, NULL);
    if (s->rope_out) osc_mw_output(mw, "v1", s->xdt, xr, xd, NULL); /* (the rotation's) */
    return osc_check_serialize(mw, len);
}

static void make_inputs(const spelling *s, inputs *in) {
    memset(in, 0, sizeof *in);
    in->nx = (size_t)(B * s->s * H * D);
    in->nt = (size_t)((s->pos ? P : B * s->s) * (s->rot ? s->rot : D) / 2);
    double scratch[B * H * M * D];
    fill(s->xdt, in->x, in->xv, in->nx);
    fill(s->xdt, in->cs, in->cv, in->nt);
    fill(s->xdt, in->sn, in->sv, in->nt);
    fill(s->cdt, in->cache, scratch, (size_t)(B * H * M * D));
    for (int i = 0; i < B * s->s; i++) in->pos[i] = (int64_t)(osc_test_rnd32(&g_seed) % P) - 3;
    in->wi[0] = M - s->s, in->wi[1] = s->circular ? -1 : 0; /* circular: wraps at the end */
}

/* Binds every input (the cache as `cache`) to session ss. */
static void bind(osc_session *ss, const spelling *s, const inputs *in, void *cache) {
    int64_t xd[4], td[3], cd[4];
    int32_t xr, tr;
    x_dims(s, xd, &xr), table_dims(s, td, &tr), cache_dims(cd);
    const char *names[6] = {"x", "cache", "wi", "cos", "sin", "pos"};
    const osc_tensor t[6] = {
        osc_test_view(s->xdt, xr, xd, in->x), osc_test_view(s->cdt, 4, cd, cache),
        osc_test_view(OSC_INT64, 1, (const int64_t[]){B}, in->wi),
        osc_test_view(s->xdt, tr, td, in->cs), osc_test_view(s->xdt, tr, td, in->sn),
        osc_test_view(OSC_INT64, 2, (const int64_t[]){B, s->s}, in->pos)};
    osc_check_bind(ss, s->rope ? (s->pos ? 6 : 5) : 3, names, t);
}

/* The new value of cache element (b, h, r, e) (r counting the update's rows) by float64: the
 * element of X the layout puts there, rotated with the rest of its head vector. */
static double expected(const spelling *s, const inputs *in, int64_t b, int64_t h, int64_t r,
                       int64_t e) {
    const int64_t per = s->s * H * D; /* one batch of X */
    int64_t xi, sr = r, el = e;       /* X's element; its rotation row and place in its head */
    if (s->layout == CACHE_ORDER)
        xi = ((b * H + h) * s->s + r) * D + e;
    else {
        xi = b * per + (s->other_perm         ? (e * H + h) * s->s + r
                        : s->layout == ONE_ROW ? (h * s->s + r) * D + e
                                               : (r * H + h) * D + e);
        sr = (xi - b * per) / (H * D), el = (xi - b * per) % D;
    }
    const double *x = in->xv + (xi - el);
    const int64_t half = (s->rot ? s->rot : D) / 2;
    if (!s->rope || el >= 2 * half) return x[el];
    int64_t row = b * s->s + sr;
    if (s->pos) row = in->pos[row] < 0 ? in->pos[row] + P : in->pos[row];
    const int64_t i = s->inter ? el / 2 : el % half;
    const bool first = s->inter ? el % 2 == 0 : el < half;
    const double x1 = s->inter ? x[2 * i] : x[i], x2 = s->inter ? x[2 * i + 1] : x[i + half];
    const double c = in->cv[row * half + i], sn = in->sv[row * half + i];
    return first ? c * x1 - sn * x2 : sn * x1 + c * x2;
}

/* Runs spelling s fused and unfused; returns the fused model's CacheWrite nodes and the
 * TensorScatter's not_fused reason in why (or ""). */
static int check(const spelling *s, char *why, size_t why_size) {
    size_t len = 0;
    void *buf = build(s, &len);
    inputs *in = malloc(sizeof *in);
    assert_non_null(in);
    make_inputs(s, in);
    const size_t cbytes = (size_t)(B * H * M * D) * esize(s->cdt);
    char *out[2] = {malloc(cbytes), malloc(cbytes)};
    assert_non_null(out[0]);
    assert_non_null(out[1]);
    int fused = 0;
    for (int f = 0; f < 2; f++) {
        osc_options o;
        osc_options_init(&o);
        o.no_fusion = f == 0;
        osc_model *m = osc_check_load_buffer(buf, len, &o);
        if (f) fused = osc_check_fused(m, "CacheWrite", "write", why, why_size);
        osc_session *ss = NULL;
        assert_int_equal(osc_session_create(m, &ss), OSC_OK);
        bind(ss, s, in, in->cache);
        if (osc_session_run(ss) != OSC_OK) fail_msg("run: %s", osc_session_error(ss));
        osc_tensor y;
        assert_int_equal(osc_session_output(ss, 0, &y), OSC_OK);
        assert_int_equal(y.nbytes, cbytes);
        memcpy(out[f], y.data, cbytes);
        osc_session_free(ss);
        osc_model_free(m);
    }
    if (memcmp(out[0], out[1], cbytes)) fail_msg("the fused cache differs from the unfused");
    for (int64_t b = 0; b < B; b++)
        for (int64_t r = 0; r < M; r++) {
            const int64_t k = (r - in->wi[b] % M + 2 * M) % M; /* the row written there */
            const bool written = s->circular ? k < s->s : r >= in->wi[b] && r < in->wi[b] + s->s;
            for (int64_t h = 0; h < H; h++)
                for (int64_t e = 0; e < D; e++) {
                    const size_t i = (size_t)(((b * H + h) * M + r) * D + e);
                    const double got = value_at(s->cdt, out[1], i);
                    const double want = written ? expected(s, in, b, h, k, e)
                                                : value_at(s->cdt, in->cache, i);
                    if (fabs(got - want) > 2e-2 * fabs(want) + 1e-2)
                        fail_msg("cache (%lld, %lld, %lld, %lld) = %g; expected %g",
                                 (long long)b, (long long)h, (long long)r, (long long)e, got,
                                 want);
                }
        }
    free(out[0]), free(out[1]), free(in), free(buf);
    return fused;
}

static void fused_spellings(void **state) {
    (void)state;
    static const spelling k_fused[] = {
        /* a decoder's key: float rotated, float16 cache, one new row */
        {OSC_FLOAT, OSC_FLOAT16, THREE_D, 1, true, true, false, 0, 3, false, false, false},
        /* prefill of 3 rows, interleaved, half the head rotated, bfloat16, circular */
        {OSC_FLOAT, OSC_BFLOAT16, THREE_D, 3, true, true, true, 4, 2, true, false, false},
        {OSC_FLOAT16, OSC_FLOAT, THREE_D, 2, true, false, false, 6, 1, false, false, false},
        /* X already in the cache's layout, no Cast; tables per (batch, seq) */
        {OSC_FLOAT16, OSC_FLOAT16, CACHE_ORDER, 2, true, false, true, 0, 0, false, false, false},
        {OSC_BFLOAT16, OSC_FLOAT, CACHE_ORDER, 1, true, true, false, 2, 3, true, false, false},
        /* a value: moved and converted only */
        {OSC_FLOAT, OSC_FLOAT16, THREE_D, 2, false, false, false, 0, 3, false, false, false},
        {OSC_FLOAT, OSC_FLOAT, THREE_D, 1, false, false, false, 0, 0, true, false, false},
        /* the rotation read by a graph output too: it stays, the rest is fused */
        {OSC_FLOAT, OSC_FLOAT16, THREE_D, 2, true, true, false, 0, 3, false, false, true},
        /* one row reshaped straight to the cache's layout */
        {OSC_FLOAT, OSC_FLOAT16, ONE_ROW, 1, true, true, false, 0, 3, false, false, false},
        {OSC_FLOAT, OSC_FLOAT16, CACHE_ORDER, 3, false, false, false, 0, 3, true, false, false},
    };
    char why[256];
    for (size_t i = 0; i < sizeof k_fused / sizeof k_fused[0]; i++)
        if (check(&k_fused[i], why, sizeof why) != 1)
            fail_msg("spelling %zu not fused: %s", i, why);
}

static void left_unfused(void **state) {
    (void)state;
    char why[256];
    const spelling other = {OSC_FLOAT, OSC_FLOAT16, THREE_D, 2, true, true, false, 0, 3, false,
                            true, false};
    assert_int_equal(check(&other, why, sizeof why), 0);
    if (!strstr(why, "cache_write: the Transpose is not [0, 2, 1, 3]")) fail_msg("why: %s", why);
    const spelling rows2 = {OSC_FLOAT, OSC_FLOAT16, ONE_ROW, 2, true, true, false, 0, 3, false,
                            false, false};
    assert_int_equal(check(&rows2, why, sizeof why), 0);
    if (!strstr(why, "cache_write: a reshape without Transpose moves more than one row"))
        fail_msg("why: %s", why);
}

/* A bad write index, then a bad position id: the fused run fails naming the node and the
 * value, the donated cache as it was; then a good run writes in place. */
static void bad_runs(void **state) {
    (void)state;
    const spelling s = {OSC_FLOAT, OSC_FLOAT16, THREE_D, 2, true, true, false, 0, 3, false,
                        false, false};
    size_t len = 0;
    void *buf = build(&s, &len);
    inputs *in = malloc(sizeof *in);
    assert_non_null(in);
    make_inputs(&s, in);
    const size_t cbytes = (size_t)(B * H * M * D) * 2;
    char *before = malloc(cbytes);
    assert_non_null(before);
    memcpy(before, in->cache, cbytes);
    osc_options o;
    osc_options_init(&o);
    o.inplace_inputs = 1;
    osc_model *m = NULL;
    char msg[512];
    if (osc_model_load_buffer(buf, len, NULL, &o, &m, msg, sizeof msg)) fail_msg("%s", msg);
    osc_session *ss = NULL;
    assert_int_equal(osc_session_create(m, &ss), OSC_OK);
    static const char *const k_has[2][3] = {
        {"node 'write' (CacheWrite-1)", "'write_indices' (wi): value 5 at batch position 0 is "
                                        "out of range [0, 4]", NULL},
        {"node 'write' (CacheWrite-1)", "'position_ids' (pos) position [1, 1]: value 10 is out "
                                        "of range [-10, 9]", NULL}};
    for (int c = 0; c < 2; c++) {
        if (c == 0) in->wi[0] = M - s.s + 1;
        else in->wi[0] = 0, in->pos[B * s.s - 1] = P;
        bind(ss, &s, in, in->cache);
        assert_int_equal(osc_session_run(ss), OSC_ERR_INDEX);
        const char *e = osc_session_error(ss);
        for (int i = 0; k_has[c][i]; i++)
            if (!strstr(e, k_has[c][i])) fail_msg("message '%s' lacks '%s'", e, k_has[c][i]);
        assert_memory_equal(in->cache, before, cbytes);
    }
    in->pos[B * s.s - 1] = 0;
    bind(ss, &s, in, in->cache);
    if (osc_session_run(ss) != OSC_OK) fail_msg("good run: %s", osc_session_error(ss));
    osc_tensor y;
    assert_int_equal(osc_session_output(ss, 0, &y), OSC_OK);
    assert_ptr_equal(y.data, in->cache);
    assert_memory_not_equal(in->cache, before, cbytes);
    osc_session_free(ss);
    osc_model_free(m);
    free(before), free(in), free(buf);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(fused_spellings),
    cmocka_unit_test(left_unfused),
    cmocka_unit_test(bad_runs),
)
