/* test_inplace_same.c: opts.inplace_inputs = 2: a product or an elementwise node whose output has
 * its input 0's dtype and shape by the model's shapes, static or symbolic, writes into the
 * caller's buffer of a graph input that dies there (a layer's x W over x); value 1 keeps that to
 * scatters. The graph: h = MatMul(x, W), a = Add(h, z), y = Reshape(a, [-1]) (a view: it
 * continues in the buffer a is in); x and z [N, 4] or [5, 4]; W [4, 4] or, in the "narrow"
 * form, [4, 3] (h then smaller than x: never in x's buffer); a second output, Shape(x), reads
 * x's shape after the product (not its bytes: x may still be written over).
 * Every value is a small integer, so the expected output, computed here by loops, is exact in
 * any order of summation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "onnx_scatter.h"
#include "tests/support/check.h"
#include "tests/support/mw_check.h"

enum { ROWS = 5, K = 4 };

/* Element i of W (row-major, of any width): small integers, exact in any summation order. */
static float weight(int i) { return (float)(i % 5 - 2); }

typedef struct form {
    bool symbolic; /* x, z and y are [N, ...] */
    bool narrow;   /* W is [4, 3] */
    bool x_again;  /* y = Add(h, x): x read after the MatMul */
} form;

static osc_model *load(form f, int32_t inplace) {
    const int64_t cols = f.narrow ? 3 : K;
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 17);
    const int64_t dx[2] = {f.symbolic ? -1 : ROWS, K}, dy[2] = {dx[0], cols};
    const char *names[2] = {"N", NULL};
    osc_mw_input(mw, "x", OSC_FLOAT, 2, dx, names);
    osc_mw_input(mw, "z", OSC_FLOAT, 2, dy, names);
    float w[K * K];
    for (int i = 0; i < K * (int)cols; i++) w[i] = weight(i);
    const long long dw[2] = {K, cols};
    osc_tensor tw = {.dtype = OSC_FLOAT, .rank = 2, .dims = {dw[0], dw[1]}, .data = w,
                     .nbytes = sizeof(float) * K * (size_t)cols};
    osc_mw_initializer(mw, "W", &tw);
    osc_mw_node(mw, "MatMul", "mm", 2, (const char *[]){"x", "W"}, 1, (const char *[]){"h"});
    osc_mw_node(mw, "Add", "add", 2, (const char *[]){"h", f.x_again ? "x" : "z"}, 1,
                (const char *[]){"a"});
    int64_t flat = -1;
    const long long df[1] = {1};
    osc_tensor tf = {.dtype = OSC_INT64, .rank = 1, .dims = {df[0]}, .data = &flat,
                     .nbytes = sizeof flat};
    osc_mw_initializer(mw, "flat", &tf);
    osc_mw_node(mw, "Reshape", "view", 2, (const char *[]){"a", "flat"}, 1,
                (const char *[]){"y"});
    osc_mw_node(mw, "Shape", "shape", 1, (const char *[]){"x"}, 1, (const char *[]){"xs"});
    const int64_t dn[1] = {-1}, d2[1] = {2};
    osc_mw_output(mw, "y", OSC_FLOAT, 1, dn, (const char *[]){"NC"});
    osc_mw_output(mw, "xs", OSC_INT64, 1, d2, NULL);
    osc_options o;
    osc_options_init(&o);
    o.inplace_inputs = inplace;
    return osc_check_load(mw, &o);
}

static int32_t mode_of(const osc_model *m, size_t node) {
    int32_t mode = -1;
    assert_int_equal(osc_model_node_inplace(m, node, &mode), OSC_OK);
    return mode;
}

/* want = x W + (x_again ? x : z), by loops over rows x of `rows` rows. */
static void expect(form f, const float *x, const float *z, long rows, float *want) {
    const int cols = f.narrow ? 3 : K;
    for (long r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float s = 0;
            for (int k = 0; k < K; k++) s += x[r * K + k] * weight(k * cols + c);
            want[r * cols + c] = s + (f.x_again ? x[r * K + c] : z[r * cols + c]);
        }
}

static void fill(float *v, long n, int seed) {
    for (long i = 0; i < n; i++) v[i] = (float)((i * 7 + seed) % 9 - 4);
}

/* Binds x and z (rows each) and runs; the status. */
static osc_status run(osc_session *s, float *x, float *z, long xrows, long zrows, int cols) {
    const osc_tensor tx = {.dtype = OSC_FLOAT, .rank = 2, .dims = {xrows, K}, .data = x,
                           .nbytes = sizeof(float) * (size_t)(xrows * K)};
    const osc_tensor tz = {.dtype = OSC_FLOAT, .rank = 2, .dims = {zrows, cols}, .data = z,
                           .nbytes = sizeof(float) * (size_t)(zrows * cols)};
    osc_check_bind(s, 2, (const char *[]){"x", "z"}, (const osc_tensor[]){tx, tz});
    return osc_session_run(s);
}

/* Fills x and z (rows each) from seed, keeps x's copy in x0, binds them and runs s; the output
 * y must be the loops' result (want). */
static osc_tensor run_filled(osc_session *s, form f, long rows, int seed, float *x, float *x0,
                             float *z, float *want) {
    const int cols = f.narrow ? 3 : K;
    fill(x, rows * K, seed);
    fill(z, rows * cols, seed + 1);
    memcpy(x0, x, sizeof(float) * (size_t)(rows * K));
    expect(f, x, z, rows, want);
    assert_int_equal(run(s, x, z, rows, rows, cols), OSC_OK);
    osc_tensor y;
    assert_int_equal(osc_session_output(s, 0, &y), OSC_OK);
    assert_memory_equal(y.data, want, sizeof(float) * (size_t)(rows * cols));
    return y;
}

/* Static and symbolic rows: with 2 the product and the sum after it run in x's buffer (no
 * arena), y is read there, bit for bit the loops' result, and x is consumed; with 1 (scatters
 * only) and 0 neither node is, and x is left as it was. */
static void product_over_donated_input(void **state) {
    (void)state;
    for (int sym = 0; sym < 2; sym++)
        for (int32_t opt = 0; opt <= 2; opt++) {
            const form f = {.symbolic = sym};
            osc_model *m = load(f, opt);
            const int32_t want_mode = opt == 2 ? OSC_INPLACE_INPUT : OSC_INPLACE_NONE;
            assert_int_equal(mode_of(m, 0), want_mode);
            for (size_t node = 1; node < 3; node++)
                assert_int_equal(mode_of(m, node), opt == 2 ? OSC_INPLACE_INPUT
                                                            : OSC_INPLACE_INTERMEDIATE);
            if (!sym) assert_int_equal(osc_model_arena_bytes(m) == 0, opt == 2);
            osc_session *s;
            assert_int_equal(osc_session_create(m, &s), OSC_OK);
            const long rows = sym ? 7 : ROWS;
            float x[7 * K], x0[7 * K], z[7 * K], want[7 * K];
            const osc_tensor y = run_filled(s, f, rows, 1, x, x0, z, want);
            assert_true((y.data == (void *)x) == (opt == 2));
            osc_tensor xs;
            assert_int_equal(osc_session_output(s, 1, &xs), OSC_OK);
            const int64_t shape[2] = {rows, K};
            assert_memory_equal(xs.data, shape, sizeof shape);
            if (opt == 2) {
                assert_int_equal(osc_session_arena_bytes(s), 0);
                assert_int_equal(osc_session_run(s), OSC_ERR_ARG); /* x was consumed */
                assert_non_null(strstr(osc_session_error(s), "input 'x' (index 0) is not bound"));
            } else {
                assert_memory_equal(x, x0, sizeof(float) * (size_t)(rows * K));
            }
            osc_session_free(s);
            osc_model_free(m);
        }
}

/* Not eligible with 2: a product narrower than x (its output is not x's shape), x read again
 * after the product. Neither writes x, and the results are the loops'. */
static void not_eligible(void **state) {
    (void)state;
    for (int v = 0; v < 2; v++) {
        const form f = {.narrow = v == 0, .x_again = v == 1};
        osc_model *m = load(f, 2);
        assert_int_equal(mode_of(m, 0), OSC_INPLACE_NONE);
        osc_session *s;
        assert_int_equal(osc_session_create(m, &s), OSC_OK);
        float x[ROWS * K], x0[ROWS * K], z[ROWS * K], want[ROWS * K];
        run_filled(s, f, ROWS, 3, x, x0, z, want);
        assert_memory_equal(x, x0, sizeof x);
        osc_session_free(s);
        osc_model_free(m);
    }
}

/* Symbolic rows that disagree at run (z bound with other rows than x): the run fails before any
 * node runs, naming the dim, and x's buffer is untouched and stays bound. */
static void symbols_disagree(void **state) {
    (void)state;
    const form f = {.symbolic = true};
    osc_model *m = load(f, 2);
    osc_session *s;
    assert_int_equal(osc_session_create(m, &s), OSC_OK);
    float x[ROWS * K], x0[ROWS * K], z[ROWS * K], want[ROWS * K];
    fill(x, ROWS * K, 5);
    fill(z, ROWS * K, 6);
    memcpy(x0, x, sizeof x);
    assert_int_equal(run(s, x, z, ROWS, 1, K), OSC_ERR_SHAPE);
    assert_non_null(strstr(osc_session_error(s), "'N'"));
    assert_memory_equal(x, x0, sizeof x);
    const osc_tensor tz = {.dtype = OSC_FLOAT, .rank = 2, .dims = {ROWS, K}, .data = z,
                           .nbytes = sizeof z};
    assert_int_equal(osc_session_set_input(s, "z", &tz), OSC_OK);
    assert_int_equal(osc_session_run(s), OSC_OK); /* x still bound */
    expect(f, x0, z, ROWS, want);
    assert_memory_equal(x, want, sizeof want);
    osc_session_free(s);
    osc_model_free(m);
}

OSC_TEST_MAIN(NULL, NULL, cmocka_unit_test(product_over_donated_input),
              cmocka_unit_test(not_eligible), cmocka_unit_test(symbols_disagree))
