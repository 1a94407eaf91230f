/* check.h: cmocka checks that tests of several areas share (test-support, not the library).
 * Header-only (static inline) so that a test including it links nothing more; the writer and
 * the generators, which do not use cmocka, never include it. */
#ifndef OSC_TEST_CHECK_H
#define OSC_TEST_CHECK_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "onnx_scatter.h"

/* s + a * b rounded once, in float or double as T: how the product kernel
 * (ops/linalg/gemm_kernel.h) adds each product to its sum. */
#define OSC_CHECK_MADD(T, a, b, s)                                                             \
    (sizeof(T) == sizeof(float) ? (T)fmaf((float)(a), (float)(b), (float)(s))                  \
                                : (T)fma((double)(a), (double)(b), (double)(s)))

/* main(): runs the cmocka tests given (cmocka_unit_test(...) entries) as one group with these
 * group setup and teardown functions (NULL for none); its status is the number that failed. */
#define OSC_TEST_MAIN(setup, teardown, ...)                                                    \
    int main(void) {                                                                           \
        const struct CMUnitTest tests[] = {__VA_ARGS__};                                       \
        return cmocka_run_group_tests(tests, setup, teardown);                                 \
    }

/* Binds the inputs names[i] = t[i] (i < n); fails the test with the session's message on any
 * error. */
static inline void osc_check_bind(osc_session *s, int n, const char *const *names,
                                  const osc_tensor *t) {
    for (int i = 0; i < n; i++)
        if (osc_session_set_input(s, names[i], &t[i]) != OSC_OK)
            fail_msg("input '%s': %s", names[i], osc_session_error(s));
}

/* osc_check_bind, then runs s and returns its output 0; fails the test with the session's
 * message on any error. */
static inline osc_tensor osc_check_run(osc_session *s, int n, const char *const *names,
                                       const osc_tensor *t) {
    osc_check_bind(s, n, names, t);
    if (osc_session_run(s) != OSC_OK) fail_msg("run: %s", osc_session_error(s));
    osc_tensor y;
    if (osc_session_output(s, 0, &y) != OSC_OK) fail_msg("output 0: %s", osc_session_error(s));
    return y;
}

/* The nodes of m running op `op`; why gets node `name`'s not_fused reason ("" when none). */
static inline int osc_check_fused(const osc_model *m, const char *op, const char *name,
                                  char *why, size_t why_size) {
    int n = 0;
    why[0] = '\0';
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        osc_node_desc nd;
        assert_int_equal(osc_model_node(m, i, &nd), OSC_OK);
        n += !strcmp(nd.op_type, op);
        if (!strcmp(nd.name, name) && nd.not_fused) snprintf(why, why_size, "%s", nd.not_fused);
    }
    return n;
}

/* What osc_check_nodes adds: only the nodes that run (not folded), "(in place)" after a node
 * written over an intermediate, " <- " and the names a fused node replaced. */
enum { OSC_CHECK_RUNNING = 1, OSC_CHECK_INPLACE = 2, OSC_CHECK_REPLACED = 4 };

/* m's nodes, "name:op" joined by spaces, into out; flags as above. */
static inline void osc_check_nodes(const osc_model *m, unsigned flags, char *out, size_t size) {
    out[0] = '\0';
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        osc_node_desc nd;
        int32_t mode = -1;
        assert_int_equal(osc_model_node(m, i, &nd), OSC_OK);
        assert_int_equal(osc_model_node_inplace(m, i, &mode), OSC_OK);
        if ((flags & OSC_CHECK_RUNNING) && nd.folded) continue;
        snprintf(out + strlen(out), size - strlen(out), "%s%s:%s%s", *out ? " " : "", nd.name,
                 nd.op_type,
                 (flags & OSC_CHECK_INPLACE) && mode == OSC_INPLACE_INTERMEDIATE ? "(in place)"
                                                                                 : "");
        for (int32_t r = 0; (flags & OSC_CHECK_REPLACED) && r < nd.n_fused; r++)
            snprintf(out + strlen(out), size - strlen(out), "%s%s", r ? "," : " <- ",
                     nd.fused_names[r]);
    }
}

/* t has this dtype, rank and dims. */
static inline void osc_check_shape(const osc_tensor *t, int32_t dtype, int32_t rank,
                                   const int64_t *dims) {
    assert_int_equal(t->dtype, dtype);
    assert_int_equal(t->rank, rank);
    for (int32_t i = 0; i < rank; i++) assert_int_equal(t->dims[i], dims[i]);
}

/* v rounded to dtype dt (float or double). +, -, * and / of two floats computed in double and
 * rounded once to float give the correctly rounded float result (53 >= 2 * 24 + 2). */
static inline double osc_check_round(int32_t dt, double v) {
    return dt == OSC_FLOAT ? (double)(float)v : v;
}
/* t combined with v by a scatter's reduction `red` ("none", "add", "mul", "max", "min"), in
 * dtype dt: what a loop over the updates in order computes. */
static inline double osc_check_reduce(int32_t dt, const char *red, double t, double v) {
    return !strcmp(red, "none") ? v : !strcmp(red, "add") ? osc_check_round(dt, t + v)
         : !strcmp(red, "mul") ? osc_check_round(dt, t * v) : !strcmp(red, "max") ? (v > t ? v : t)
         : (v < t ? v : t);
}

/* Every one of the n bytes at p is `fill` (a caller's buffer a failed run must leave as it
 * was); else fails the test naming `what` and the first byte written. */
static inline void osc_check_untouched(const void *p, size_t n, unsigned char fill,
                                       const char *what) {
    for (size_t i = 0; i < n; i++)
        if (((const unsigned char *)p)[i] != fill) fail_msg("%s: output byte %zu written", what, i);
}

/* The first of the n values of t (float or double) whose bits differ from want[i]'s (doubles:
 * a float is exact in one), or -1; its value in *got. */
static inline int osc_check_first_diff(const osc_tensor *t, const double *want, int n,
                                       double *got) {
    for (int i = 0; i < n; i++) {
        *got = t->dtype == OSC_FLOAT ? ((const float *)t->data)[i] : ((const double *)t->data)[i];
        if (memcmp(got, &want[i], sizeof *got)) return i;
    }
    return -1;
}

/* t holds exactly these nbytes. */
static inline void osc_check_bytes(const osc_tensor *t, const void *want, size_t nbytes) {
    assert_int_equal(t->nbytes, nbytes);
    if (nbytes) assert_memory_equal(t->data, want, nbytes);
}

#endif
