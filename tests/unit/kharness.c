/* kharness.c: a minimal stand-in for the executor, to unit-test kernels one node at a time. */
#include "kharness.h"

#include "ops/registry.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

static void count_warning(void *ud, const char *msg) {
    (void)msg;
    ((kh *)ud)->n_warnings++;
}

void kh_init(kh *h, const char *op_type, int64_t opset) {
    memset(h, 0, sizeof *h);
    osc_allocator_init(&h->alloc, NULL);
    osc_pool_init(&h->strings, &h->alloc, 0);
    h->node.name = "n0";
    h->node.op_type = op_type;
    h->node.domain = "";
    h->node.attrs = h->attrs;
    h->node.inputs = h->inputs;
    h->node.outputs = h->outputs;
    h->node.opset = opset;
    h->kernel = osc_kernel_find("", op_type, opset);
    h->node.kernel = h->kernel;
    h->k.err = &h->err;
    h->k.node = &h->node;
    h->k.row = h->kernel;
    h->k.since_version = h->kernel ? h->kernel->since : opset;
    h->k.pool = &h->strings; /* the node's parameters live as long as the harness */
    h->k.alloc = &h->alloc;
    h->k.strings = &h->strings;
    h->k.warn = count_warning;
    h->k.warn_ud = h;
}

void kh_attr_int(kh *h, const char *name, int64_t v) {
    osc_attr *a = &h->attrs[h->node.n_attrs++];
    a->name = name;
    a->type = OSC_ATTR_INT;
    a->i = v;
}

void kh_attr_str(kh *h, const char *name, const char *s) {
    osc_attr *a = &h->attrs[h->node.n_attrs++];
    a->name = name;
    a->type = OSC_ATTR_STRING;
    a->s = s;
    a->s_len = strlen(s);
}

void kh_attr_ints(kh *h, const char *name, const int64_t *v, size_t n) {
    osc_attr *a = &h->attrs[h->node.n_attrs++];
    a->name = name;
    a->type = OSC_ATTR_INTS;
    a->ints = (int64_t *)v;
    a->n = n;
}

void kh_attr_float(kh *h, const char *name, float v) {
    osc_attr *a = &h->attrs[h->node.n_attrs++];
    a->name = name;
    a->type = OSC_ATTR_FLOAT;
    a->f = v;
}

void kh_attr_floats(kh *h, const char *name, const float *v, size_t n) {
    osc_attr *a = &h->attrs[h->node.n_attrs++];
    a->name = name;
    a->type = OSC_ATTR_FLOATS;
    a->floats = (float *)v;
    a->n = n;
}

void kh_attr_tensor(kh *h, const char *name, osc_tensor *t) {
    osc_attr *a = &h->attrs[h->node.n_attrs++];
    a->name = name;
    a->type = OSC_ATTR_TENSOR;
    a->t = t;
}

osc_status kh_check(kh *h) {
    if (!h->kernel) return osc_fail(&h->err, OSC_ERR_UNSUPPORTED, "no kernel");
    void *params = NULL;
    osc_status st = h->kernel->init(&h->k, &h->node, &params);
    h->node.params = h->k.params = params;
    return st;
}

static osc_status run(kh *h, int32_t n_in, const osc_tensor *const *in, bool inplace) {
    if (n_in > KH_MAX_INPUTS) return osc_fail(&h->err, OSC_ERR_ARG, "too many inputs");
    osc_status st = kh_check(h);
    if (st) return st;
    h->node.n_inputs = n_in;
    h->node.n_outputs = 1;
    for (int32_t i = 0; i < n_in; i++) h->inputs[i] = in[i] ? i : -1;
    st = h->kernel->infer(&h->k, in, n_in, &h->out, 1);
    if (st) return st;
    int64_t count = osc_tensor_count(&h->out);
    size_t nbytes;
    if (count < 0 || !osc_dtype_bytes(h->out.dtype, count, &nbytes))
        return osc_fail(&h->err, OSC_ERR_SHAPE, "bad output size");
    h->out.nbytes = nbytes;
    if (inplace) {
        h->out.data = in[0]->data;
    } else {
        h->out.data = malloc(nbytes ? nbytes : 1);
        h->owns_out = true;
        memset(h->out.data, 0xA5, nbytes);
    }
    return h->kernel->run(&h->k, in, n_in, &h->out, 1);
}

osc_status kh_run(kh *h, int32_t n_in, const osc_tensor *const *in) {
    return run(h, n_in, in, false);
}

osc_status kh_run1(kh *h, const osc_tensor *a) { return kh_run(h, 1, &a); }

osc_status kh_run2(kh *h, const osc_tensor *a, const osc_tensor *b) {
    const osc_tensor *in[2] = {a, b};
    return kh_run(h, 2, in);
}

osc_status kh_run3(kh *h, const osc_tensor *a, const osc_tensor *b, const osc_tensor *c) {
    const osc_tensor *in[3] = {a, b, c};
    return kh_run(h, 3, in);
}

osc_status kh_run_inplace(kh *h, int32_t n_in, const osc_tensor *const *in) {
    return run(h, n_in, in, true);
}

/* Node wiring plus check and infer into outs[0..n_out-1]. */
static osc_status infer_outs(kh *h, int32_t n_in, const osc_tensor *const *in, int32_t n_out) {
    if (n_in > KH_MAX_INPUTS || n_out < 1 || n_out > KH_MAX_OUTPUTS)
        return osc_fail(&h->err, OSC_ERR_ARG, "too many inputs or outputs");
    osc_status st = kh_check(h);
    if (st) return st;
    h->node.n_inputs = n_in;
    h->node.n_outputs = n_out;
    for (int32_t i = 0; i < n_in; i++) h->inputs[i] = in[i] ? i : -1;
    for (int32_t j = 0; j < n_out; j++) h->outputs[j] = j;
    memset(h->outs, 0, sizeof h->outs);
    h->n_outs = n_out;
    return h->kernel->infer(&h->k, in, n_in, h->outs, n_out);
}

osc_status kh_infer(kh *h, int32_t n_in, const osc_tensor *const *in, int32_t n_out) {
    return infer_outs(h, n_in, in, n_out);
}

osc_status kh_run_multi(kh *h, int32_t n_in, const osc_tensor *const *in, int32_t n_out) {
    osc_status st = infer_outs(h, n_in, in, n_out);
    if (st) return st;
    for (int32_t j = 0; j < n_out; j++) {
        osc_tensor *o = &h->outs[j];
        int64_t count = osc_tensor_count(o);
        size_t nbytes;
        if (count < 0 || !osc_dtype_bytes(o->dtype, count, &nbytes))
            return osc_fail(&h->err, OSC_ERR_SHAPE, "bad size of output %d", (int)j);
        o->nbytes = nbytes;
        o->data = malloc(nbytes ? nbytes : 1);
        h->owns_outs = true;
        memset(o->data, 0xA5, nbytes);
    }
    h->out = h->outs[0]; /* a view: kh_free frees outs[] */
    return h->kernel->run(&h->k, in, n_in, h->outs, n_out);
}

void kh_free(kh *h) {
    if (h->owns_out) free(h->out.data); /* in-place outputs belong to the caller's input */
    h->out.data = NULL;
    h->owns_out = false;
    for (int32_t j = 0; h->owns_outs && j < KH_MAX_OUTPUTS; j++) free(h->outs[j].data);
    memset(h->outs, 0, sizeof h->outs);
    h->owns_outs = false;
    osc_pool_free(&h->strings);
}

osc_tensor kh_tensor(int32_t dtype, int32_t rank, const int64_t *dims, const void *data) {
    osc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.rank = rank;
    if (rank > 0) memcpy(t.dims, dims, (size_t)rank * sizeof *dims);
    t.data = (void *)data;
    int64_t count = osc_tensor_count(&t);
    if (count >= 0) osc_dtype_bytes(dtype, count, &t.nbytes);
    return t;
}

void kh_assert_untouched(const osc_tensor *t) {
    const unsigned char *p = t->data;
    for (size_t i = 0; i < t->nbytes; i++)
        if (p[i] != 0xA5) fail_msg("output byte %zu was written (0x%02x)", i, p[i]);
}

void kh_assert_msg_has(const kh *h, const char *needle) {
    if (!strstr(h->err.msg, needle)) fail_msg("message \"%s\" lacks \"%s\"", h->err.msg, needle);
}

void kh_expect_ok(const kh *h, osc_status st) {
    if (st) fail_msg("status %s: %s", osc_status_name(st), h->err.msg);
}

void kh_expect_fail(const kh *h, osc_status got, osc_status want, const char *part) {
    if (got != want)
        fail_msg("status %s, expected %s (%s)", osc_status_name(got), osc_status_name(want),
                 h->err.msg);
    if (part) kh_assert_msg_has(h, part);
}

void kh_init_since(kh *h, const char *op_type, int64_t opset, int64_t since) {
    kh_init(h, op_type, opset);
    if (!h->kernel) fail_msg("%s at opset %lld: no row", op_type, (long long)opset);
    if (h->kernel->since != since)
        fail_msg("%s at opset %lld: row %lld, want %lld", op_type, (long long)opset,
                 (long long)h->kernel->since, (long long)since);
}

void kh_init_fails(kh *h, osc_status status, const char *needle) {
    assert_int_equal(kh_check(h), status);
    kh_assert_msg_has(h, needle);
    kh_assert_msg_has(h, "node 'n0'");
    kh_free(h);
}

void kh_assert_rows(const kh_row *rows, size_t n) {
    for (size_t i = 0; i < n; i++) {
        kh h;
        if (rows[i].since) {
            kh_init_since(&h, rows[i].op, rows[i].opset, rows[i].since);
        } else {
            kh_init(&h, rows[i].op, rows[i].opset);
            if (h.kernel)
                fail_msg("%s at opset %lld: row %lld, want none", rows[i].op,
                         (long long)rows[i].opset, (long long)h.kernel->since);
        }
        kh_free(&h);
    }
}
