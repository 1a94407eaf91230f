/* fuzz_inputs.c: libFuzzer harness for the input file readers: every input goes through the
 * TensorProto decoder (osc_tensor_decode_pb, the .pb files of node tests and the CLI) and the
 * CLI's .npy decoder (tools/npy.c, compiled in unchanged). A decoded TensorProto must encode and
 * decode back to the same tensor; a decoded .npy must be a consistent tensor view. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    return 0;
}

/* Aborts unless t is a consistent view: known dtype, rank, dims, nbytes of its elements. */
static void check_view(const osc_tensor *t) {
    int64_t count = osc_tensor_count(t);
    size_t bits = osc_dtype_bits(t->dtype);
    if (count < 0 || !bits) __builtin_trap();
    if (t->nbytes != (size_t)(((unsigned __int128)count * bits + 7) / 8)) __builtin_trap();
    if (t->nbytes && !t->data) __builtin_trap();
    volatile uint8_t sink = 0;
    for (size_t i = 0; i < t->nbytes; i++) sink ^= ((const uint8_t *)t->data)[i];
    if (t->dtype == OSC_STRING)
        for (int64_t i = 0; i < count; i++) {
            const osc_string *s = &((const osc_string *)t->data)[i];
            for (size_t k = 0; k < s->len; k++) sink ^= (uint8_t)s->ptr[k];
        }
    (void)sink;
}

static int same(const osc_tensor *a, const osc_tensor *b) {
    if (a->dtype != b->dtype || a->rank != b->rank || a->nbytes != b->nbytes ||
        memcmp(a->dims, b->dims, (size_t)a->rank * sizeof a->dims[0]) != 0)
        return 0;
    if (a->dtype != OSC_STRING) return memcmp(a->data, b->data, a->nbytes) == 0;
    const osc_string *x = a->data, *y = b->data;
    for (size_t i = 0; i < a->nbytes / sizeof *x; i++)
        if (x[i].len != y[i].len || (x[i].len && memcmp(x[i].ptr, y[i].ptr, x[i].len) != 0))
            return 0;
    return 1;
}

static void fuzz_pb(const uint8_t *data, size_t size) {
    osc_tensor t, back;
    char name[64], name2[64], msg[OSC_MESSAGE_SIZE];
    osc_status st = osc_tensor_decode_pb(data, size, &t, name, sizeof name, msg, sizeof msg);
    fuzz_check_msg(st, msg, sizeof msg);
    if (st != OSC_OK) {
        if (t.data) __builtin_trap(); /* nothing allocated on failure */
        return;
    }
    check_view(&t);
    void *buf = NULL;
    size_t len = 0;
    st = osc_tensor_encode_pb(&t, name, &buf, &len, msg, sizeof msg);
    fuzz_check_msg(st, msg, sizeof msg);
    if (st != OSC_OK) __builtin_trap(); /* what decodes must encode */
    st = osc_tensor_decode_pb(buf, len, &back, name2, sizeof name2, msg, sizeof msg);
    if (st != OSC_OK || !same(&t, &back) || strcmp(name, name2) != 0) __builtin_trap();
    osc_tensor_free_data(&back);
    free(buf);
    osc_tensor_free_data(&t);
}

static void fuzz_npy(const uint8_t *data, size_t size) {
    osc_tensor t;
    char msg[OSC_MESSAGE_SIZE];
    memset(&t, 0, sizeof t);
    if (cli_npy_decode(data, size, &t, msg, sizeof msg) != 0) {
        msg[sizeof msg - 1] = '\0';
        if (!msg[0]) __builtin_trap(); /* a failure without a message */
        return;
    }
    check_view(&t);
    free(t.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_pb(data, size);
    /* .npy inputs start with the magic; others are tried too, the decoder must refuse them */
    fuzz_npy(data, size);
    return 0;
}
