/* test_embed_models.c: the models of test_embed_models.h, written with tests/support/writer.h. */
#include "test_embed_models.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/models.h"

/* Serializes and frees the writer; NULL on any writer error (the tests then fail loudly). */
static void *finish(osc_mw *mw, size_t *len) {
    void *buf = NULL;
    if (osc_mw_serialize(mw, &buf, len) != OSC_OK) buf = NULL;
    osc_mw_free(mw);
    return buf;
}

void *emb_chain_model(long n, bool t_is_output, size_t *len) {
    const int64_t d[1] = {n < 0 ? -1 : n}, one[1] = {1};
    const char *dn[1] = {"N"};
    osc_mw *mw = osc_mw_graph(18, 4, (const osc_mw_value[4]){
        {"x", OSC_FLOAT, 1, d, n < 0 ? dn : NULL}, {"i", OSC_INT64, 1, one, NULL},
        {"u", OSC_FLOAT, 1, one, NULL}, {"v", OSC_FLOAT, 1, one, NULL}});
    const char *in1[3] = {"x", "i", "u"}, *o1[1] = {"t"}, *in2[3] = {"t", "i", "v"},
               *o2[1] = {"y"};
    osc_mw_node(mw, "ScatterElements", "first", 3, in1, 1, o1);
    int n2 = osc_mw_node(mw, "ScatterElements", "second", 3, in2, 1, o2);
    osc_mw_attr_string(mw, n2, "reduction", "add");
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d, n < 0 ? dn : NULL);
    if (t_is_output) osc_mw_output(mw, "t", OSC_FLOAT, 1, d, n < 0 ? dn : NULL);
    return finish(mw, len);
}

void emb_chain_expect(const float *x, long n, long long i, float u, float v, float *t, float *y) {
    long k = (long)(i < 0 ? i + n : i);
    for (long j = 0; j < n; j++) t[j] = x[j];
    t[k] = u;
    for (long j = 0; j < n; j++) y[j] = t[j];
    y[k] += v;
}

void *emb_scatternd_add_model(long long count, long long n, size_t *len) {
    const int64_t dd[1] = {count}, id[2] = {n, 1}, ud[1] = {n};
    osc_mw *mw = osc_mw_graph(18, 3, (const osc_mw_value[3]){{"data", OSC_FLOAT, 1, dd, NULL},
                                                            {"indices", OSC_INT64, 2, id, NULL},
                                                            {"updates", OSC_FLOAT, 1, ud, NULL}});
    const char *in[3] = {"data", "indices", "updates"}, *out[1] = {"y"};
    int node = osc_mw_node(mw, "ScatterND", "s", 3, in, 1, out);
    osc_mw_attr_string(mw, node, "reduction", "add");
    osc_mw_output(mw, "y", OSC_FLOAT, 1, dd, NULL);
    return finish(mw, len);
}

void *emb_string_model(size_t *len) {
    const int64_t d4[1] = {4}, d2[1] = {2};
    osc_mw *mw = osc_mw_graph(18, 3, (const osc_mw_value[3]){{"s", OSC_STRING, 1, d4, NULL},
                                                            {"si", OSC_INT64, 1, d2, NULL},
                                                            {"su", OSC_STRING, 1, d2, NULL}});
    const char *in[3] = {"s", "si", "su"}, *out[1] = {"sy"};
    int n = osc_mw_node(mw, "ScatterElements", "cat", 3, in, 1, out);
    osc_mw_attr_string(mw, n, "reduction", "add");
    osc_mw_output(mw, "sy", OSC_STRING, 1, d4, NULL);
    return finish(mw, len);
}

void *emb_scatter11_model(size_t *len) {
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3};
    return finish(osc_test_scatter_gather_model(11, "Scatter", "old", OSC_FLOAT, 2, dd, 2, id),
                  len);
}

void *emb_many_warnings_model(int n, size_t *len) {
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3};
    osc_mw *mw = osc_mw_graph(11, 3, (const osc_mw_value[3]){{"y0", OSC_FLOAT, 2, dd, NULL},
                                                            {"indices", OSC_INT64, 2, id, NULL},
                                                            {"updates", OSC_FLOAT, 2, id, NULL}});
    char prev[32] = "y0", next[32], name[32];
    for (int k = 1; k <= n; k++) {
        snprintf(next, sizeof next, "y%d", k);
        snprintf(name, sizeof name, "scatter_%d", k);
        const char *in[3] = {prev, "indices", "updates"}, *out[1] = {next};
        osc_mw_node(mw, "Scatter", name, 3, in, 1, out);
        memcpy(prev, next, sizeof prev);
    }
    osc_mw_output(mw, prev, OSC_FLOAT, 2, dd, NULL);
    return finish(mw, len);
}

osc_tensor emb_view(int32_t dtype, int32_t rank, const long long *dims, void *data,
                    size_t nbytes) {
    osc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.rank = rank;
    for (int32_t k = 0; k < rank; k++) t.dims[k] = dims[k];
    t.data = data;
    t.nbytes = nbytes;
    return t;
}

osc_status emb_bind_chain(osc_session *s, float *x, long n, int64_t *i, float *u, float *v) {
    const long long d[1] = {n}, one[1] = {1};
    osc_tensor tx = emb_view(OSC_FLOAT, 1, d, x, (size_t)n * sizeof *x);
    osc_tensor ti = emb_view(OSC_INT64, 1, one, i, sizeof *i);
    osc_tensor tu = emb_view(OSC_FLOAT, 1, one, u, sizeof *u);
    osc_tensor tv = emb_view(OSC_FLOAT, 1, one, v, sizeof *v);
    osc_status st = osc_session_set_input(s, "x", &tx);
    if (!st) st = osc_session_set_input(s, "i", &ti);
    if (!st) st = osc_session_set_input(s, "u", &tu);
    if (!st) st = osc_session_set_input(s, "v", &tv);
    return st;
}
