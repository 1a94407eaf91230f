/* fuzz.h: what the harnesses share: the libFuzzer entry points, the limits every harness sets. */
#ifndef OSC_FUZZ_H
#define OSC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "onnx_scatter.h"

/* libFuzzer calls these; fuzz/replay.c calls them too (plain builds replay files as tests). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Limits the harnesses load with: far below libFuzzer's 2 GiB RSS limit, so an allocation the
 * library should have refused shows up as an OSC_ERR_LIMIT path, never as an out-of-memory kill. */
#define FUZZ_MAX_BYTES ((uint64_t)256 << 20)
#define FUZZ_MAX_ARENA ((uint64_t)64 << 20)

/* Aborts (a finding) when a failed call left an empty or unterminated message, or returned a
 * status outside the enum. */
static inline void fuzz_check_msg(osc_status st, const char *msg, size_t size) {
    if ((int)st < 0 || st > OSC_ERR_STATE) __builtin_trap();
    size_t n = 0;
    while (n < size && msg[n]) n++;
    if (n == size) __builtin_trap();             /* not NUL-terminated */
    if (st != OSC_OK && n == 0) __builtin_trap(); /* a failure without a message */
}

#endif
