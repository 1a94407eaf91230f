/* test_fusion_inf.c: rule replace_inf (rewrite/rule_replace_inf.c) and its kernel ReplaceInf
 * (ops/fused/fused_inf.c). The graph, as torch writes masked_fill(isinf(x), value):
 *     y = Where(Cast(IsInf(Cast(x, to), detect_positive, detect_negative), bool), value, x)
 * with either Cast left out. x holds +-inf, NaN, -0, the largest finite values and 1e300 (a
 * double a Cast to float makes infinite). Fused, the output must equal a loop written here and
 * the unfused graph bit for bit, and be made by one ReplaceInf, on every thread count (the
 * tiny-threshold build splits the 20 elements); a narrowing Cast, or a mask that something else
 * reads, is left unfused (with the reason, for the Cast) and still exact. */
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

#include "tests/support/check.h"
#include "tests/support/mw_check.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

#include "fusion_threads.h"

enum { N = 4, C = 5 };

typedef struct spelling {
    int32_t dtype;     /* x's */
    int32_t widen;     /* the Cast before IsInf: to this dtype (0: none) */
    bool cast_mask;    /* the Cast of the mask to bool */
    bool mask_output;  /* the mask is a graph output too */
    int64_t pos, neg;  /* detect_positive, detect_negative */
    double value;
} spelling;

static void *build(const spelling *s, size_t *len) {
    const int64_t d[2] = {N, C};
    const osc_mw_value in = {"x", s->dtype, 2, d, NULL};
    osc_mw *mw = osc_mw_graph(18, 1, &in);
    const float vf = (float)s->value;
    osc_tensor v = osc_test_view(s->dtype, 0, NULL,
                                 s->dtype == OSC_FLOAT ? (void *)&vf : (void *)&s->value);
    osc_mw_initializer(mw, "value", &v);
    const char *x = "x";
    if (s->widen) {
        const int n = osc_mw_node(mw, "Cast", "widen", 1, &x, 1, (const char *[]){"xw"});
        osc_mw_attr_int(mw, n, "to", s->widen);
        x = "xw";
    }
    int n = osc_mw_node(mw, "IsInf", "isinf", 1, &x, 1, (const char *[]){"mask"});
    osc_mw_attr_int(mw, n, "detect_positive", s->pos);
    osc_mw_attr_int(mw, n, "detect_negative", s->neg);
    const char *mask = "mask";
    if (s->cast_mask) {
        n = osc_mw_node(mw, "Cast", "to_bool", 1, &mask, 1, (const char *[]){"mask_b"});
        osc_mw_attr_int(mw, n, "to", OSC_BOOL);
        mask = "mask_b";
    }
    osc_mw_node(mw, "Where", "where", 3, (const char *[]){mask, "value", "x"}, 1,
                (const char *[]){"y"});
    osc_mw_output(mw, "y", s->dtype, 2, d, NULL);
    if (s->mask_output) osc_mw_output(mw, "mask", OSC_BOOL, 2, d, NULL);
    return osc_check_serialize(mw, len);
}

/* x's values, as doubles (rounded to x's dtype when it is float) */
static const double k_x[N * C] = {
    INFINITY, -INFINITY, NAN, -0.0, 0.0, 1.0, -2.5, 3.4028234663852886e38, -3.4028234663852886e38,
    1e300, -1e300, 1e-45, INFINITY, 7.0, -INFINITY, -INFINITY, 5.5, NAN, 1e-300, INFINITY};

/* The graph's output computed here: out[i] = value where x[i] (widened, or narrowed) is an
 * infinity the detect attributes select; bytes of x's dtype into out. */
static void expect(const spelling *s, void *out) {
    for (int i = 0; i < N * C; i++) {
        const double x = s->dtype == OSC_FLOAT ? (double)(float)k_x[i] : k_x[i];
        const double seen = s->widen == OSC_FLOAT ? (double)(float)x : x; /* what IsInf tests */
        const bool hit = isinf(seen) && (seen > 0 ? s->pos : s->neg);
        const double y = hit ? s->value : x;
        if (s->dtype == OSC_FLOAT) ((float *)out)[i] = (float)y;
        else ((double *)out)[i] = y;
    }
}

/* Runs the spelling fused and unfused; returns the number of ReplaceInf nodes of the fused
 * model and its Where's not_fused reason in why (or ""). */
static int check(const spelling *s, char *why, size_t why_size) {
    size_t len = 0;
    void *buf = build(s, &len);
    const size_t es = s->dtype == OSC_FLOAT ? sizeof(float) : sizeof(double);
    double want[N * C], xs[N * C];
    float xf[N * C];
    expect(s, want);
    for (int i = 0; i < N * C; i++) xf[i] = (float)k_x[i], xs[i] = k_x[i];
    const int64_t d[2] = {N, C};
    const osc_tensor x = osc_test_view(s->dtype, 2, d, s->dtype == OSC_FLOAT ? (void *)xf
                                                                             : (void *)xs);
    int fused_nodes = 0;
    for (int f = 0; f < 2 * N_THREADS; f++) {
        osc_model *m = osc_fusion_round(buf, len, f);
        if (f % 2) fused_nodes = osc_check_fused(m, "ReplaceInf", "where", why, why_size);
        osc_session *ss = NULL;
        assert_int_equal(osc_session_create(m, &ss), OSC_OK);
        const osc_tensor y = osc_check_run(ss, 1, (const char *[]){"x"}, &x);
        assert_int_equal(y.nbytes, es * N * C);
        for (int i = 0; i < N * C; i++)
            if (memcmp((const char *)y.data + i * es, (const char *)want + i * es, es))
                fail_msg("fusion %s, %d threads: element %d of the output differs from the "
                         "loop's", f % 2 ? "on" : "off", k_threads[f / 2], i);
        osc_session_free(ss);
        osc_model_free(m);
    }
    free(buf);
    return fused_nodes;
}

static void fused_spellings(void **state) {
    (void)state;
    static const spelling k_fused[] = {
        {OSC_FLOAT, OSC_DOUBLE, true, false, 1, 1, 0.0},   /* torch's: both casts */
        {OSC_FLOAT, 0, false, false, 1, 1, -2.5},          /* neither */
        {OSC_FLOAT, OSC_FLOAT, false, false, 1, 0, 4.0},   /* a Cast to its own dtype */
        {OSC_FLOAT, OSC_DOUBLE, true, false, 0, 1, 0.0},   /* -inf only */
        {OSC_DOUBLE, 0, true, false, 1, 1, 1e300},
        {OSC_DOUBLE, 0, false, false, 0, 0, 9.0},          /* detects nothing */
    };
    char why[256];
    for (size_t i = 0; i < sizeof k_fused / sizeof k_fused[0]; i++)
        if (check(&k_fused[i], why, sizeof why) != 1) fail_msg("spelling %zu not fused", i);
}

static void left_unfused(void **state) {
    (void)state;
    char why[256];
    /* double narrowed to float: 1e300 becomes inf there and is replaced; ReplaceInf would not */
    const spelling narrow = {OSC_DOUBLE, OSC_FLOAT, true, false, 1, 1, 0.0};
    assert_int_equal(check(&narrow, why, sizeof why), 0);
    assert_non_null(strstr(why, "replace_inf: IsInf reads neither"));
    /* the mask is an output too: the IsInf runs anyway, nothing to gain */
    const spelling shared = {OSC_FLOAT, OSC_DOUBLE, false, true, 1, 1, 0.0};
    assert_int_equal(check(&shared, why, sizeof why), 0);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(fused_spellings),
    cmocka_unit_test(left_unfused),
)
