/* fuzz.h: what the harnesses share: the libFuzzer entry points, the limits every harness sets. */
#ifndef OSC_FUZZ_H
#define OSC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "onnx_scatter.h"

/* libFuzzer calls these; fuzz/replay.c calls them too (plain builds replay files as tests). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Limits the harnesses load with: far below libFuzzer's 2 GiB RSS limit, so an allocation the
 * library should have refused shows up as an OSC_ERR_LIMIT path, never as an out-of-memory kill;
 * and small enough that the largest output a kernel may write, a few passes over it, and the
 * run harness's three runs stay well inside the 10 s per input of an instrumented build (a
 * cubic Resize to 51 MB took 3.2 s a run there; a linear one under a 32 MiB arena, 1.8 s). */
#define FUZZ_MAX_BYTES ((uint64_t)64 << 20)
#define FUZZ_MAX_ARENA ((uint64_t)16 << 20)
/* A loop's iterations: a mutated trip count stops at this cap (OSC_ERR_LIMIT), well inside
 * libFuzzer's per-input timeout even when each iteration copies a state near the byte cap (a
 * Loop appending its state to itself took 11 s at 1,000). */
#define FUZZ_MAX_ITERATIONS 64

/* The bytes a harness reads its choices and elements from, in order; past the end every byte
 * reads as 0 (the inputs' layouts rely on it: a short input picks the common choices). */
typedef struct fuzz_stream {
    const uint8_t *p;
    size_t n;
} fuzz_stream;

static inline uint8_t fuzz_take(fuzz_stream *s) {
    if (!s->n) return 0;
    s->n--;
    return *s->p++;
}

/* Aborts (a finding) when a failed call left an empty or unterminated message, or returned a
 * status outside the enum. */
static inline void fuzz_check_msg(osc_status st, const char *msg, size_t size) {
    if ((int)st < 0 || st > OSC_ERR_CANCELLED) __builtin_trap();
    size_t n = 0;
    while (n < size && msg[n]) n++;
    if (n == size) __builtin_trap();             /* not NUL-terminated */
    if (st != OSC_OK && n == 0) __builtin_trap(); /* a failure without a message */
}

/* Statuses a fused and an unfused load or run of one model may differ in: resources (the
 * fused graph needs less memory). */
static inline int fuzz_resource_status(osc_status st) {
    return st == OSC_ERR_LIMIT || st == OSC_ERR_NOMEM;
}

/* A run refusing its model or inputs: a shape, an index, or an attribute checked against the
 * shapes at run (OSC_ERR_MODEL: an axis past the rank of a value shaped at run). */
static inline int fuzz_refusal_status(osc_status st) {
    return st == OSC_ERR_SHAPE || st == OSC_ERR_INDEX || st == OSC_ERR_MODEL;
}

/* Whether a fused run's status st and the unfused run's st2 agree: equal, a resource limit on
 * either side, or both refusals (fuzz_refusal_status). With two faults in one model and input
 * set (an index out of range, and a shape that disagrees or an axis past a rank, both met at run
 * with symbolic shapes), which a run meets first depends on the order: fusion moves a Gather
 * into the scatter, after the Expand, and a fused dynamic model plans every shape before its
 * first node. One fault alone gives one status both ways (tests/bad checks the cases). */
static inline int fuzz_same_outcome(osc_status st, osc_status st2) {
    if (st == st2 || fuzz_resource_status(st) || fuzz_resource_status(st2)) return 1;
    return fuzz_refusal_status(st) && fuzz_refusal_status(st2);
}

/* Aborts unless sessions a (fusion on) and b (fusion off) of one model, both after a successful
 * run, hold the same outputs: dtype, shape and bytes, except that two float or double NaNs are
 * equal whatever their payloads and signs (tests/unit/test_fusion.c, known issue). */
static inline void fuzz_same_outputs(osc_session *a, osc_session *b, size_t n_out) {
    for (size_t o = 0; o < n_out; o++) {
        osc_tensor x, y;
        if (osc_session_output(a, o, &x) != OSC_OK || osc_session_output(b, o, &y) != OSC_OK ||
            x.dtype != y.dtype || x.rank != y.rank || x.nbytes != y.nbytes)
            __builtin_trap();
        for (int32_t d = 0; d < x.rank; d++)
            if (x.dims[d] != y.dims[d]) __builtin_trap();
        const size_t es = x.dtype == OSC_FLOAT ? 4 : x.dtype == OSC_DOUBLE ? 8 : 0;
        if (!es) {
            if (x.dtype != OSC_STRING && memcmp(x.data, y.data, x.nbytes) != 0) __builtin_trap();
            continue;
        }
        for (size_t i = 0; i < x.nbytes; i += es) {
            const uint8_t *p = (const uint8_t *)x.data + i, *q = (const uint8_t *)y.data + i;
            if (memcmp(p, q, es) == 0) continue;
            double u, v;
            if (es == 4) {
                float fu, fv;
                memcpy(&fu, p, 4);
                memcpy(&fv, q, 4);
                u = fu, v = fv;
            } else {
                memcpy(&u, p, 8);
                memcpy(&v, q, 8);
            }
            if (!(u != u && v != v)) __builtin_trap(); /* not both NaN: they differ */
        }
    }
}

#endif
