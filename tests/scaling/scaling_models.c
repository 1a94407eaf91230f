/* scaling_models.c: model families of size n for the scaling tests (tests/scaling/README.md). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scaling_models.h"
#include "tests/support/testutil.h"

const char *const osc_scaling_kinds[] = {"chain", "fold", "share_last", "share_first",
                                         "share_same", "fold_amp", "fusion", "wide", "symbolic",
                                         "ranges", "ranges_concat", "subgraphs", "captures",
                                         NULL};

static void node1(osc_mw *mw, const char *op, const char *in, const char *out) {
    const char *i[1] = {in}, *o[1] = {out};
    osc_mw_node(mw, op, NULL, 1, i, 1, o);
}

static int node2(osc_mw *mw, const char *op, const char *a, const char *b, const char *out) {
    const char *i[2] = {a, b}, *o[1] = {out};
    return osc_mw_node(mw, op, NULL, 2, i, 1, o);
}

static void int64_init(osc_mw *mw, const char *name, int64_t v) {
    int64_t d = 1;
    osc_tensor t = osc_test_view(OSC_INT64, 1, &d, &v);
    osc_mw_initializer(mw, name, &t);
}

/* x float [4] -> Identity -> y: the graph input and output of the constant families. */
static void passthrough(osc_mw *mw) {
    int64_t d = 4;
    osc_mw_input(mw, "x", OSC_FLOAT, 1, &d, NULL);
    node1(mw, "Identity", "x", "y");
    osc_mw_output(mw, "y", OSC_FLOAT, 1, &d, NULL);
}

/* n Neg nodes in a chain from x [4] (x [N] when symbolic) to y. */
static void chain(osc_mw *mw, int n, bool symbolic) {
    int64_t d = symbolic ? -1 : 4;
    const char *const dn[1] = {"N"};
    osc_mw_input(mw, "x", OSC_FLOAT, 1, &d, symbolic ? dn : NULL);
    char a[32], b[32] = "x";
    for (int i = 0; i < n; i++) {
        snprintf(a, sizeof a, "%s", b);
        snprintf(b, sizeof b, i + 1 < n ? "v%d" : "y", i);
        node1(mw, "Neg", a, b);
    }
    osc_mw_output(mw, "y", OSC_FLOAT, 1, &d, symbolic ? dn : NULL);
}

/* n folded Neg nodes from a constant, added to x. */
static void fold(osc_mw *mw, int n) {
    int64_t d = 4;
    float c[4] = {1, 2, 3, 4};
    osc_tensor t = osc_test_view(OSC_FLOAT, 1, &d, c);
    osc_mw_initializer(mw, "c0", &t);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, &d, NULL);
    char a[32], b[32] = "c0";
    for (int i = 0; i < n; i++) {
        snprintf(a, sizeof a, "%s", b);
        snprintf(b, sizeof b, "c%d", i + 1);
        node1(mw, "Neg", a, b);
    }
    node2(mw, "Add", "x", b, "y");
    osc_mw_output(mw, "y", OSC_FLOAT, 1, &d, NULL);
}

/* n folded float constants of elems + 1 elements, read by nothing: zeros (ConstantOfShape) with
 * k_i = i + 1 after them (where "last"), before them ("first"), or zeros alone ("same"). */
static void shared(osc_mw *mw, int n, int elems, const char *where) {
    bool same = !strcmp(where, "same");
    int64_init(mw, "shp", same ? elems + 1 : elems);
    passthrough(mw);
    char z[32], k[32], c[32];
    for (int i = 0; i < n; i++) {
        snprintf(z, sizeof z, "z%d", i);
        snprintf(k, sizeof k, "k%d", i);
        snprintf(c, sizeof c, "c%d", i);
        node1(mw, "ConstantOfShape", "shp", same ? c : z);
        if (same) continue;
        float kv = (float)(i + 1);
        int64_t one = 1;
        osc_tensor t = osc_test_view(OSC_FLOAT, 1, &one, &kv);
        osc_mw_initializer(mw, k, &t);
        bool last = !strcmp(where, "last");
        osc_mw_attr_int(mw, node2(mw, "Concat", last ? z : k, last ? k : z, c), "axis", 0);
    }
}

/* n folded ConstantOfShape of elems floats each (their value i: all differ), read by nothing:
 * a small file whose folding would hold n * elems * 4 bytes. */
static void fold_amp(osc_mw *mw, int n, int elems) {
    int64_init(mw, "shp", elems);
    passthrough(mw);
    char c[32];
    for (int i = 0; i < n; i++) {
        snprintf(c, sizeof c, "c%d", i);
        const char *in[1] = {"shp"}, *out[1] = {c};
        int node = osc_mw_node(mw, "ConstantOfShape", NULL, 1, in, 1, out);
        float v = (float)i;
        int64_t one = 1;
        osc_tensor t = osc_test_view(OSC_FLOAT, 1, &one, &v);
        osc_mw_attr_tensor(mw, node, "value", &t);
    }
}

/* n gather-scatter patterns the fusion pass rewrites (GCN's aggregation without weights):
 * y_i = ScatterElements(data, Expand(Unsqueeze(dst), [E, F]), Gather(x, src), add). */
static void fusion(osc_mw *mw, int n) {
    int64_t xd[2] = {8, 4}, e = 16, ef[2] = {16, 4}, one = 1;
    osc_mw_input(mw, "x", OSC_FLOAT, 2, xd, NULL);
    osc_mw_input(mw, "data", OSC_FLOAT, 2, xd, NULL);
    osc_mw_input(mw, "src", OSC_INT64, 1, &e, NULL);
    osc_mw_input(mw, "dst", OSC_INT64, 1, &e, NULL);
    int64_t ax = 1;
    osc_tensor t = osc_test_view(OSC_INT64, 1, &one, &ax);
    osc_mw_initializer(mw, "axes", &t);
    int64_t two = 2;
    t = osc_test_view(OSC_INT64, 1, &two, ef);
    osc_mw_initializer(mw, "shape", &t);
    char g[32], u[32], ix[32], y[32];
    for (int i = 0; i < n; i++) {
        snprintf(g, sizeof g, "g%d", i);
        snprintf(u, sizeof u, "u%d", i);
        snprintf(ix, sizeof ix, "ix%d", i);
        snprintf(y, sizeof y, "y%d", i);
        node2(mw, "Gather", "x", "src", g);
        node2(mw, "Unsqueeze", "dst", "axes", u);
        node2(mw, "Expand", u, "shape", ix);
        const char *in[3] = {"data", ix, g}, *out[1] = {y};
        osc_mw_attr_string(mw, osc_mw_node(mw, "ScatterElements", NULL, 3, in, 1, out),
                           "reduction", "add");
        osc_mw_output(mw, y, OSC_FLOAT, 2, xd, NULL);
    }
}

/* n values alive at once: b_i = Neg(x), then acc = Add(acc, b_i) from the last b to the first,
 * each Add freeing one b (the arena planner's staircase). */
static void wide(osc_mw *mw, int n) {
    int64_t d = 16;
    osc_mw_input(mw, "x", OSC_FLOAT, 1, &d, NULL);
    char b[32], a[32], acc[32] = "x";
    for (int i = 0; i < n; i++) {
        snprintf(b, sizeof b, "b%d", i);
        node1(mw, "Neg", "x", b);
    }
    for (int i = n - 1; i >= 0; i--) {
        snprintf(b, sizeof b, "b%d", i);
        snprintf(a, sizeof a, i ? "a%d" : "y", i);
        node2(mw, "Add", acc, b, a);
        snprintf(acc, sizeof acc, "%s", a);
    }
    osc_mw_output(mw, "y", OSC_FLOAT, 1, &d, NULL);
}

/* `inputs` int64 index inputs idx_j [2], each through a chain of n / inputs Identity nodes into
 * Gather(data, ...) -> y_j: what run --random follows to find each input's safe range. */
static void ranges(osc_mw *mw, int n, int inputs) {
    int64_t d = 8, two = 2;
    osc_mw_input(mw, "data", OSC_FLOAT, 1, &d, NULL);
    char a[32], b[32], y[32];
    for (int j = 0; j < inputs; j++) {
        snprintf(b, sizeof b, "idx%d", j);
        osc_mw_input(mw, b, OSC_INT64, 1, &two, NULL);
        for (int i = 0; i < n / inputs; i++) {
            snprintf(a, sizeof a, "%s", b);
            snprintf(b, sizeof b, "i%d_%d", j, i);
            node1(mw, "Identity", a, b);
        }
        snprintf(y, sizeof y, "y%d", j);
        node2(mw, "Gather", "data", b, y);
        osc_mw_output(mw, y, OSC_FLOAT, 1, &two, NULL);
    }
}

/* `inputs` int64 index inputs idx_j [2] concatenated, then a chain of n Identity nodes into
 * Gather(data, ...) -> y: every input's walk reaches the whole chain. */
static void ranges_concat(osc_mw *mw, int n, int inputs) {
    int64_t d = 8, two = 2, all = 2 * (int64_t)inputs;
    osc_mw_input(mw, "data", OSC_FLOAT, 1, &d, NULL);
    const char **in = calloc((size_t)inputs, sizeof *in);
    char(*names)[32] = calloc((size_t)inputs, sizeof *names);
    if (!in || !names) {
        free(in), free(names);
        return;
    }
    for (int j = 0; j < inputs; j++) {
        snprintf(names[j], sizeof names[j], "idx%d", j);
        in[j] = names[j];
        osc_mw_input(mw, names[j], OSC_INT64, 1, &two, NULL);
    }
    const char *out[1] = {"cat"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "Concat", NULL, inputs, in, 1, out), "axis", 0);
    free(in), free(names);
    char a[32], b[32] = "cat";
    for (int i = 0; i < n; i++) {
        snprintf(a, sizeof a, "%s", b);
        snprintf(b, sizeof b, "i%d", i);
        node1(mw, "Identity", a, b);
    }
    node2(mw, "Gather", "data", b, "y");
    osc_mw_output(mw, "y", OSC_FLOAT, 1, &all, NULL);
}

/* A branch of If: out = op(in), in read from the graph around it. */
static osc_mw *branch(const char *name, const char *op, int n, const char *const *in,
                      const char *out) {
    osc_mw *g = osc_mw_new(8);
    osc_mw_names(g, NULL, name);
    const char *o[1] = {out};
    int node = osc_mw_node(g, op, NULL, n, in, 1, o);
    if (!strcmp(op, "Concat")) osc_mw_attr_int(g, node, "axis", 0);
    int64_t any = -1;
    osc_mw_output(g, out, OSC_FLOAT, 1, &any, NULL);
    return g;
}

/* n If nodes in a chain, a_i = If(c, then: Identity(a_{i-1}), else: Neg(a_{i-1})): 2n
 * subgraphs, each reading the value before it from the main graph. */
static void subgraphs(osc_mw *mw, int n) {
    int64_t d = 4;
    osc_mw_input(mw, "c", OSC_BOOL, 0, NULL, NULL);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, &d, NULL);
    char a[32] = "x", b[32], t[32], e[32];
    for (int i = 0; i < n; i++) {
        snprintf(b, sizeof b, i + 1 < n ? "a%d" : "y", i);
        snprintf(t, sizeof t, "t%d", i);
        snprintf(e, sizeof e, "e%d", i);
        const char *in[1] = {a};
        osc_mw *then_g = branch(t, "Identity", 1, in, t), *else_g = branch(e, "Neg", 1, in, e);
        const char *ci[1] = {"c"}, *co[1] = {b};
        int node = osc_mw_node(mw, "If", NULL, 1, ci, 1, co);
        osc_mw_attr_graph(mw, node, "then_branch", then_g);
        osc_mw_attr_graph(mw, node, "else_branch", else_g);
        osc_mw_free(then_g), osc_mw_free(else_g);
        snprintf(a, sizeof a, "%s", b);
    }
    int64_t any = -1;
    osc_mw_output(mw, "y", OSC_FLOAT, 1, &any, NULL);
}

/* One If whose branches concatenate the n values v_i = Neg(x), the then branch in order, the
 * else branch in reverse: the node holds n captured values. */
static void captures(osc_mw *mw, int n) {
    int64_t d = 1;
    osc_mw_input(mw, "c", OSC_BOOL, 0, NULL, NULL);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, &d, NULL);
    const char **fwd = calloc((size_t)n, sizeof *fwd), **rev = calloc((size_t)n, sizeof *rev);
    char(*names)[32] = calloc((size_t)n, sizeof *names);
    if (!fwd || !rev || !names) {
        free(fwd), free(rev), free(names);
        return;
    }
    for (int i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "v%d", i);
        node1(mw, "Neg", "x", names[i]);
        fwd[i] = rev[n - 1 - i] = names[i];
    }
    osc_mw *then_g = branch("then", "Concat", n, fwd, "t"), *else_g = branch("else", "Concat", n,
                                                                            rev, "e");
    const char *ci[1] = {"c"}, *co[1] = {"y"};
    int node = osc_mw_node(mw, "If", NULL, 1, ci, 1, co);
    osc_mw_attr_graph(mw, node, "then_branch", then_g);
    osc_mw_attr_graph(mw, node, "else_branch", else_g);
    osc_mw_free(then_g), osc_mw_free(else_g);
    free(fwd), free(rev), free(names);
    int64_t all = n;
    osc_mw_output(mw, "y", OSC_FLOAT, 1, &all, NULL);
}

osc_mw *osc_scaling_model(const char *kind, int n, int elems) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    if (!strcmp(kind, "chain")) chain(mw, n, false);
    else if (!strcmp(kind, "symbolic")) chain(mw, n, true);
    else if (!strcmp(kind, "fold")) fold(mw, n);
    else if (!strcmp(kind, "share_last") || !strcmp(kind, "share_first") ||
             !strcmp(kind, "share_same"))
        shared(mw, n, elems ? elems : 1024, kind + 6);
    else if (!strcmp(kind, "fold_amp")) fold_amp(mw, n, elems ? elems : 262144);
    else if (!strcmp(kind, "fusion")) fusion(mw, n);
    else if (!strcmp(kind, "wide")) wide(mw, n);
    else if (!strcmp(kind, "ranges")) ranges(mw, n, elems ? elems : 1);
    else if (!strcmp(kind, "ranges_concat")) ranges_concat(mw, n, elems ? elems : 1);
    else if (!strcmp(kind, "subgraphs")) subgraphs(mw, n);
    else if (!strcmp(kind, "captures")) captures(mw, n);
    else {
        osc_mw_free(mw);
        return NULL;
    }
    return mw;
}
