/* fuzz_run.c: libFuzzer harness for load + run: a model and input tensors derived from the same
 * bytes, bound, run (once or twice), outputs read back. A failed run of a one-node model must
 * leave every caller buffer as it was (kernels check every index before writing). With flag 64
 * the model is loaded again with the fusion pass off and run on the same inputs: the outcome
 * (fuzz_same_outcome) and the outputs must be the same (fuzz_same_outputs: NaNs of any payload
 * aside).
 *
 * Input layout (fuzz/mkseeds.c writes seeds in it):
 *   byte 0        flags: 1 inplace_inputs = 2, 2 caller output buffers, 4 run twice, 8 also bind
 *                 inputs that have a default, 16 integer elements from one signed byte each
 *                 (so indices are often in range), 32 strict, 64 compare with fusion off,
 *                 128 opts.fuse_recompute (so flag 64 compares that mode with fusion off)
 *   bytes 1..4    model length L, little-endian (clipped to what is there)
 *   next L bytes  the ModelProto
 *   the rest      the input stream, read per input in osc_model_input order: a dtype byte when
 *                 the model declares none, a rank byte when it declares no rank, a byte per
 *                 unknown dim (dim = byte % 16), then the elements: nbytes raw bytes (flag 16:
 *                 one byte per integer element), strings as a length byte then the bytes.
 *                 Past the end of the stream every byte reads as 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#define MAX_ELEMS 4096  /* per input: keeps each execution fast */

enum {
    F_INPLACE = 1, F_OUTBUF = 2, F_TWICE = 4, F_DEFAULTS = 8, F_SMALLINT = 16, F_STRICT = 32,
    F_NOFUSION_DIFF = 64, F_RECOMPUTE = 128
};

static void take_bytes(fuzz_stream *s, uint8_t *dst, size_t n) {
    size_t k = n < s->n ? n : s->n;
    memcpy(dst, s->p, k);
    memset(dst + k, 0, n - k);
    s->p += k;
    s->n -= k;
}

/* One bound input: the view plus the blocks it owns and a copy to compare after a failure. */
typedef struct input {
    osc_tensor t;
    void *strings; /* string bytes */
    void *copy;    /* t.data as bound */
    size_t copy_n;
    int bound;
} input;

static int make_input(const osc_value_desc *vd, fuzz_stream *s, int flags, input *in) {
    osc_tensor *t = &in->t;
    memset(in, 0, sizeof *in);
    t->dtype = vd->dtype ? vd->dtype : 1 + fuzz_take(s) % (OSC_DTYPE_COUNT - 1);
    t->rank = vd->rank >= 0 ? vd->rank : fuzz_take(s) % 5;
    int64_t count = 1;
    for (int32_t d = 0; d < t->rank; d++) {
        t->dims[d] = vd->rank >= 0 && vd->dims[d] >= 0 ? vd->dims[d] : fuzz_take(s) % 16;
        if (t->dims[d] > MAX_ELEMS) return -1;
        count *= t->dims[d];
        if (count > MAX_ELEMS) return -1;
    }
    size_t bits = osc_dtype_bits(t->dtype);
    t->nbytes = (size_t)((count * (int64_t)bits + 7) / 8);
    t->data = malloc(t->nbytes ? t->nbytes : 1);
    if (!t->data) return -1;
    if (t->dtype == OSC_STRING) {
        osc_string *str = t->data;
        size_t total = 0;
        uint8_t lens[MAX_ELEMS];
        for (int64_t i = 0; i < count; i++) total += lens[i] = fuzz_take(s);
        char *bytes = malloc(total ? total : 1);
        if (!bytes) return -1;
        take_bytes(s, (uint8_t *)bytes, total);
        in->strings = bytes;
        for (int64_t i = 0; i < count; i++) {
            str[i].ptr = bytes;
            str[i].len = lens[i];
            bytes += lens[i];
        }
    } else if ((flags & F_SMALLINT) && (t->dtype == OSC_INT64 || t->dtype == OSC_INT32)) {
        for (int64_t i = 0; i < count; i++) {
            int8_t b = (int8_t)fuzz_take(s);
            if (t->dtype == OSC_INT64) ((int64_t *)t->data)[i] = b;
            else ((int32_t *)t->data)[i] = b;
        }
    } else {
        take_bytes(s, t->data, t->nbytes);
    }
    in->copy_n = t->nbytes;
    in->copy = malloc(t->nbytes ? t->nbytes : 1);
    if (!in->copy) return -1;
    memcpy(in->copy, t->data, t->nbytes);
    return 0;
}

static void free_input(input *in) {
    free(in->t.data);
    free(in->strings);
    free(in->copy);
}

/* Reads every byte of every output, so ASan checks the whole of each. */
static void read_outputs(osc_session *s, size_t n_out) {
    volatile uint8_t sink = 0;
    for (size_t o = 0; o < n_out; o++) {
        osc_tensor t;
        if (osc_session_output(s, o, &t) != OSC_OK) __builtin_trap();
        int64_t count = osc_tensor_count(&t);
        if (count < 0) __builtin_trap();
        size_t bits = osc_dtype_bits(t.dtype);
        if (!bits || t.nbytes != (size_t)((count * (int64_t)bits + 7) / 8)) __builtin_trap();
        const uint8_t *p = t.data;
        for (size_t i = 0; i < t.nbytes; i++) sink ^= p[i];
        if (t.dtype == OSC_STRING)
            for (int64_t i = 0; i < count; i++) {
                const osc_string *str = &((const osc_string *)t.data)[i];
                for (size_t k = 0; k < str->len; k++) sink ^= (uint8_t)str->ptr[k];
            }
    }
    (void)sink;
}

/* Runs once; on failure checks the message and, for a model with one node that runs, that every
 * caller buffer is intact. */
static osc_status run_once(osc_session *s, const osc_model *m, input *ins, size_t n_in,
                           uint8_t **outbuf, size_t *outcap, size_t n_out) {
    osc_status st = osc_session_run(s);
    const char *msg = osc_session_error(s);
    fuzz_check_msg(st, msg, strlen(msg) + 1);
    if (st == OSC_OK) {
        read_outputs(s, n_out);
        return st;
    }
    size_t running = 0;
    osc_node_desc nd;
    for (size_t i = 0; i < osc_model_node_count(m); i++)
        if (osc_model_node(m, i, &nd) == OSC_OK && !nd.folded) running++;
    if (running != 1) return st;
    for (size_t i = 0; i < n_in; i++)
        if (ins[i].bound && memcmp(ins[i].t.data, ins[i].copy, ins[i].copy_n) != 0)
            __builtin_trap(); /* an input buffer changed by a failed run */
    for (size_t o = 0; o < n_out; o++)
        for (size_t k = 0; outbuf[o] && k < outcap[o]; k++)
            if (outbuf[o][k] != 0xA5) __builtin_trap(); /* an output written by a failed run */
    return st;
}

/* F_NOFUSION_DIFF: the model loaded with opts.no_fusion (and no in-place inputs) and run on the
 * inputs as first bound, with caller output buffers where the fused session had them (outbuf[o]
 * not NULL), of the same sizes (outcap[o], 0 bytes included); st is the fused session's
 * outcome. */
static void unfused_agrees(const uint8_t *model, size_t len, const osc_options *fused,
                           osc_session *sess, osc_status st, input *ins, size_t n_in,
                           uint8_t *const *outbuf, const size_t *outcap, size_t n_out) {
    osc_options o = *fused;
    o.no_fusion = 1;
    o.inplace_inputs = 0;
    osc_model *m = NULL;
    osc_session *s2 = NULL;
    char msg[OSC_MESSAGE_SIZE];
    osc_status ld = osc_model_load_buffer(model, len, NULL, &o, &m, msg, sizeof msg);
    fuzz_check_msg(ld, msg, sizeof msg);
    if (ld != OSC_OK || osc_session_create(m, &s2) != OSC_OK) {
        if (ld != OSC_OK && !fuzz_resource_status(ld)) __builtin_trap(); /* fused loaded */
        osc_model_free(m);
        return;
    }
    /* the inputs as first bound, in blocks of their own: the fused session's outputs may live
     * in the caller's input buffers it consumed in place */
    void **blocks = calloc(n_in + n_out + 1, sizeof *blocks);
    for (size_t o2 = 0; blocks && o2 < n_out; o2++) {
        if (!outbuf[o2]) continue;
        if (!(blocks[n_in + o2] = malloc(outcap[o2] ? outcap[o2] : 1))) goto done;
        if (osc_session_set_output_buffer(s2, o2, blocks[n_in + o2], outcap[o2]) != OSC_OK)
            __builtin_trap();
    }
    for (size_t i = 0; blocks && i < n_in; i++) {
        if (!ins[i].bound) continue;
        if (!(blocks[i] = malloc(ins[i].copy_n ? ins[i].copy_n : 1))) goto done;
        memcpy(blocks[i], ins[i].copy, ins[i].copy_n);
        osc_tensor t = ins[i].t;
        t.data = blocks[i];
        if (osc_session_set_input_at(s2, i, &t) != OSC_OK) __builtin_trap();
    }
    if (blocks) {
        osc_status st2 = osc_session_run(s2);
        const char *err = osc_session_error(s2);
        fuzz_check_msg(st2, err, strlen(err) + 1);
        if (!fuzz_same_outcome(st, st2)) {
            fprintf(stderr, "fuzz_run: fused %s (%s), unfused %s (%s)\n", osc_status_name(st),
                    osc_session_error(sess), osc_status_name(st2), err);
            __builtin_trap();
        }
        if (st == OSC_OK && st2 == OSC_OK) fuzz_same_outputs(sess, s2, osc_model_output_count(m));
    }
done:
    osc_session_free(s2);
    for (size_t i = 0; blocks && i < n_in + n_out; i++) free(blocks[i]);
    free(blocks);
    osc_model_free(m);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 5) return 0;
    int flags = data[0];
    size_t len = (size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16 |
                 (size_t)data[4] << 24;
    if (len > size - 5) len = size - 5;
    fuzz_stream s = {data + 5 + len, size - 5 - len};

    osc_options o;
    osc_options_init(&o);
    o.max_bytes = FUZZ_MAX_BYTES;
    o.max_iterations = FUZZ_MAX_ITERATIONS;
    o.max_arena_bytes = FUZZ_MAX_ARENA;
    o.inplace_inputs = (flags & F_INPLACE) ? 2 : 0; /* 2: scatters, products, elementwise */
    o.strict = (flags & F_STRICT) != 0;
    o.fuse_recompute = (flags & F_RECOMPUTE) != 0;
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    osc_status st = osc_model_load_buffer(data + 5, len, NULL, &o, &m, msg, sizeof msg);
    fuzz_check_msg(st, msg, sizeof msg);
    if (st != OSC_OK) return 0;
    osc_session *sess = NULL;
    if (osc_session_create(m, &sess) != OSC_OK) {
        osc_model_free(m);
        return 0;
    }
    size_t n_in = osc_model_input_count(m), n_out = osc_model_output_count(m);
    input *ins = calloc(n_in + 1, sizeof *ins);
    uint8_t **outbuf = calloc(n_out + 1, sizeof *outbuf);
    size_t *outcap = calloc(n_out + 1, sizeof *outcap);
    if (!ins || !outbuf || !outcap) goto done;
    for (size_t i = 0; i < n_in; i++) {
        osc_value_desc vd;
        if (osc_model_input(m, i, &vd) != OSC_OK) __builtin_trap();
        if (vd.has_default && !(flags & F_DEFAULTS)) continue;
        if (make_input(&vd, &s, flags, &ins[i]) != 0) goto done; /* too large for a fast run */
        ins[i].bound = osc_session_set_input_at(sess, i, &ins[i].t) == OSC_OK;
    }
    for (size_t o2 = 0; (flags & F_OUTBUF) && o2 < n_out; o2++) {
        osc_value_desc vd;
        if (osc_model_output(m, o2, &vd) != OSC_OK) __builtin_trap();
        /* the declared size when static, else room for MAX_ELEMS of the widest type */
        size_t cap = MAX_ELEMS * 16;
        osc_tensor shape = {.dtype = vd.dtype, .rank = vd.rank};
        memcpy(shape.dims, vd.dims, sizeof shape.dims);
        int64_t count = vd.rank >= 0 ? osc_tensor_count(&shape) : -1;
        if (vd.dtype && count >= 0 && count <= MAX_ELEMS)
            cap = (size_t)((count * (int64_t)osc_dtype_bits(vd.dtype) + 7) / 8);
        outbuf[o2] = malloc(cap ? cap : 1);
        if (!outbuf[o2]) goto done;
        memset(outbuf[o2], 0xA5, cap);
        outcap[o2] = cap;
        if (osc_session_set_output_buffer(sess, o2, outbuf[o2], cap) != OSC_OK) __builtin_trap();
    }
    st = run_once(sess, m, ins, n_in, outbuf, outcap, n_out);
    if (flags & F_TWICE) {
        /* inputs consumed in place are bound again, from their (restored) contents */
        for (size_t i = 0; i < n_in; i++)
            if (ins[i].bound) {
                memcpy(ins[i].t.data, ins[i].copy, ins[i].copy_n);
                ins[i].bound = osc_session_set_input_at(sess, i, &ins[i].t) == OSC_OK;
            }
        for (size_t o2 = 0; o2 < n_out; o2++)
            if (outbuf[o2]) memset(outbuf[o2], 0xA5, outcap[o2]);
        osc_status st2 = run_once(sess, m, ins, n_in, outbuf, outcap, n_out);
        if (st2 != st) __builtin_trap(); /* same inputs, same outcome */
    }
    if (flags & F_NOFUSION_DIFF)
        unfused_agrees(data + 5, len, &o, sess, st, ins, n_in, outbuf, outcap, n_out);
done:
    osc_session_free(sess);
    for (size_t i = 0; ins && i < n_in; i++) free_input(&ins[i]);
    for (size_t o2 = 0; outbuf && o2 < n_out; o2++) free(outbuf[o2]);
    free(ins);
    free(outbuf);
    free(outcap);
    osc_model_free(m);
    return 0;
}
