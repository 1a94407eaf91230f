/* models.c: models more than one test builds. */
#include <string.h>
#include <stdio.h>

#include "models.h"

osc_mw *osc_test_stage_model(int stages) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    int64_t d8 = 8, d1 = 1, minus1 = -1, any = -1;
    float one = 1;
    osc_mw_input(mw, "v0", OSC_FLOAT, 1, &d8, NULL);
    osc_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = OSC_INT64;
    t.rank = 1;
    t.dims[0] = d1;
    t.data = &minus1;
    t.nbytes = sizeof minus1;
    osc_mw_initializer(mw, "flat", &t);
    t.dtype = OSC_FLOAT;
    t.data = &one;
    t.nbytes = sizeof one;
    osc_mw_initializer(mw, "one", &t);
    char prev[32] = "v0", nz[32], r[32], c[32], v[32];
    for (int i = 1; i <= stages; i++) {
        snprintf(nz, sizeof nz, "nz%d", i);
        snprintf(r, sizeof r, "r%d", i);
        snprintf(c, sizeof c, "c%d", i);
        snprintf(v, sizeof v, "v%d", i);
        const char *a[1] = {prev}, *o1[1] = {nz};
        osc_mw_node(mw, "NonZero", NULL, 1, a, 1, o1);
        const char *b[2] = {nz, "flat"}, *o2[1] = {r};
        osc_mw_node(mw, "Reshape", NULL, 2, b, 1, o2);
        const char *cc[1] = {r}, *o3[1] = {c};
        int n = osc_mw_node(mw, "Cast", NULL, 1, cc, 1, o3);
        osc_mw_attr_int(mw, n, "to", OSC_FLOAT);
        const char *dd[2] = {c, "one"}, *o4[1] = {v};
        osc_mw_node(mw, "Add", NULL, 2, dd, 1, o4);
        memcpy(prev, v, sizeof prev);
    }
    osc_mw_output(mw, prev, OSC_FLOAT, 1, &any, NULL);
    return mw;
}

osc_mw *osc_test_scatter_graph(int64_t opset, int32_t dtype, int32_t rank, const int64_t *dims,
                               int32_t irank, const int64_t *idims) {
    const osc_mw_value in[3] = {{"data", dtype, rank, dims, NULL},
                                {"indices", OSC_INT64, irank, idims, NULL},
                                {"updates", dtype, irank, idims, NULL}};
    return osc_mw_graph(opset, 3, in);
}

osc_mw *osc_test_scatter_gather_model(int64_t opset, const char *op, const char *name,
                                      int32_t dtype, int32_t rank, const int64_t *dims,
                                      int32_t irank, const int64_t *idims) {
    osc_mw *mw = osc_test_scatter_graph(opset, dtype, rank, dims, irank, idims);
    const char *in1[3] = {"data", "indices", "updates"}, *o1[1] = {"y"};
    const char *in2[2] = {"y", "indices"}, *o2[1] = {"g"};
    osc_mw_node(mw, op, name, 3, in1, 1, o1);
    osc_mw_node(mw, "GatherElements", "gather", 2, in2, 1, o2);
    osc_mw_output(mw, "y", dtype, rank, dims, NULL);
    osc_mw_output(mw, "g", dtype, irank, idims, NULL);
    return mw;
}

osc_mw *osc_test_unknown_ops_model(int n) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    const int64_t d[1] = {2};
    osc_mw_input(mw, "x", OSC_FLOAT, 1, d, NULL);
    char prev[32] = "x", cur[32], op[32];
    for (int i = 0; i < n; i++) {
        snprintf(cur, sizeof cur, i == n - 1 ? "y" : "v%d", i);
        snprintf(op, sizeof op, "Op%d", i);
        const char *in[1] = {prev}, *out[1] = {cur};
        osc_mw_node(mw, op, NULL, 1, in, 1, out);
        memcpy(prev, cur, sizeof prev);
    }
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d, NULL);
    return mw;
}
