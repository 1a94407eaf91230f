/* gen_bad_dynamic.c: malformed-suite cases of models with dynamic axes, loaded unpinned, so that
 * the symbolic pass (runtime/symbolic.c) shapes them and the fusion rules (shape_of,
 * gather_pieces, gather_scatter_se, expand_view, row_epilogue) rewrite them: the small GNN
 * layers of tests/models (linked, not copied) on bad graphs, and a GCN layer spelled as an
 * exporter writes it with dynamic axes, in variants that look like the fused patterns but are
 * not. test_bad.c runs each fused and unfused: the same status, the same bytes on success,
 * nothing written on failure, the message texts given here. */
#include <stdbool.h>
#include <string.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

/* ---- the GNN layers of tests/models with inputs x [N, F] and edge_index [2, E] ---- */

#define MAX_N 8
#define MAX_E 16

typedef struct gnn_in {
    float x[MAX_N * 64];
    int64_t ei[3 * MAX_E];
    tin t[2];
} gnn_in;

/* x [n, f] of small exact values (multiples of 1/8), edge_index [rows, e] (rows 1: [e]) from ei
 * (NULL: element k of row r is (k + r) % n, a valid graph). */
static tin *gnn_inputs(int64_t n, int64_t f, int64_t rows, int64_t e, const int64_t *ei) {
    gnn_in *g = A(sizeof *g);
    for (int64_t i = 0; i < n * f; i++) g->x[i] = (float)((i * 7 + 3) % 17 - 8) * 0.125f;
    for (int64_t k = 0; k < rows * e; k++) g->ei[k] = ei ? ei[k] : (k % e + k / e) % (n ? n : 1);
    g->t[0] = (tin){OSC_FLOAT, 2, {n, f}, g->x, (size_t)(n * f) * sizeof(float)};
    g->t[1] = rows == 1 ? (tin){OSC_INT64, 1, {e}, g->ei, (size_t)e * sizeof(int64_t)}
                        : (tin){OSC_INT64, 2, {rows, e}, g->ei,
                                (size_t)(rows * e) * sizeof(int64_t)};
    return g->t;
}

/* A case running tests/models/gnn_<model>_small_dynamic_opsetNN (model: "gcn_..._opset17") on
 * x [n, f] and edge_index [rows, e]. */
static void gnn_case(const char *name, const char *model, const char *status, const char *why,
                     int64_t n, int64_t f, int64_t rows, int64_t e, const int64_t *ei) {
    emit_at(name, NULL, 0, F("../../../models/gnn_%s/model.onnx", model), status, "run", why,
            2, gnn_inputs(n, f, rows, e, ei));
}

#define GCN "gcn_small_dynamic_opset17"
#define SAGE "sage_small_dynamic_opset17"
#define GAT "gat_small_dynamic_opset18"
#define EDGE "edgeconv_small_dynamic_opset18"
#define SAGE_MAX "sage_small_max_dynamic_opset18"
#define GCN_IA "gcn_small_index_add_dynamic_opset17"

/* edge_index rows src, dst of 7 edges on 5 nodes, with one value changed. */
static const int64_t *edges7(int row, int pos, int64_t v) {
    int64_t *ei = A(14 * sizeof *ei);
    static const int64_t ok[14] = {0, 1, 2, 3, 4, 0, 1, 1, 2, 3, 4, 0, 2, 3};
    memcpy(ei, ok, sizeof ok);
    ei[row * 7 + pos] = v;
    return ei;
}

static void gnn_cases(void) {
    static const struct {
        const char *tag, *model;
        int64_t f;
    } layers[] = {{"gcn", GCN, 64}, {"sage", SAGE, 64}, {"gat", GAT, 64}, {"edgeconv", EDGE, 3},
                  {"sage_max", SAGE_MAX, 64}, {"gcn_index_add", GCN_IA, 64}};
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++) {
        const char *t = layers[i].tag, *md = layers[i].model;
        const int64_t f = layers[i].f;
        gnn_case(F("dyn_%s_valid", t), md, "OSC_OK", F("tests/models' dynamic %s layer unpinned, "
                 "5 nodes, 7 edges (control)", t), 5, f, 2, 7, edges7(0, 0, 0));
        gnn_case(F("dyn_%s_no_edges", t), md, "OSC_OK", F("dynamic %s layer, E = 0", t), 5, f, 2,
                 0, NULL);
        gnn_case(F("dyn_%s_no_nodes", t), md, "OSC_OK", F("dynamic %s layer, N = 0 and E = 0", t),
                 0, f, 2, 0, NULL);
    }
    /* SAGE: fused, the count's RowScatter (a scatter of ones) reads the destinations first (the
     * fused sum runs where the mean's Div was, its epilogue); its source indices reach the fused
     * node first */
    expect_msg("node '/ScatterElements_1' (RowScatter-1)\ninput 1 'indices'\nposition 6\n"
               "value 5 \nrange [-5, 4]", "value 5 \nrange [-5, 4]");
    gnn_case("dyn_sage_dst_past_end", SAGE, "OSC_ERR_INDEX", "dynamic SAGE layer, destination 5 "
             "on 5 nodes, last edge: the count's RowScatter reads it first", 5, 64, 2, 7,
             edges7(1, 6, 5));
    expect_msg("node '/ScatterElements_1' (RowScatter-1)\nposition 0\nvalue -6 \n"
               "range [-5, 4]", "value -6 \nrange [-5, 4]");
    gnn_case("dyn_sage_dst_below", SAGE, "OSC_ERR_INDEX", "dynamic SAGE layer, destination -6 "
             "on 5 nodes, first edge", 5, 64, 2, 7, edges7(1, 0, -6));
    expect_msg("node '/ScatterElements' (GatherScatter-1)\ninput 3 'source indices'\n"
               "position 4\nvalue 9 \nrange [-5, 4]",
               "node '/Gather_3'\nposition 4\nvalue 9 \nrange [-5, 4]");
    gnn_case("dyn_sage_src_past_end", SAGE, "OSC_ERR_INDEX", "dynamic SAGE layer, source 9 on 5 "
             "nodes: the fused Gather's index", 5, 64, 2, 7, edges7(0, 4, 9));
    expect_msg("node '/ScatterElements' (GatherScatter-1)\nposition 3\nvalue -6 \n"
               "range [-5, 4]", "node '/Gather_3'\nposition 3\nvalue -6 \nrange [-5, 4]");
    gnn_case("dyn_sage_src_below", SAGE, "OSC_ERR_INDEX", "dynamic SAGE layer, source -6 on 5 "
             "nodes", 5, 64, 2, 7, edges7(0, 3, -6));
    expect_msg("value 1 \nrange [0, -1]\nsize 0", "value \nrange [0, -1]\nsize 0");
    gnn_case("dyn_sage_no_nodes_with_edges", SAGE, "OSC_ERR_INDEX", "dynamic SAGE layer, N = 0 "
             "with 2 edges: every index is out of range", 0, 64, 2, 2,
             (const int64_t[]){0, 1, 1, 0});
    /* SAGE max: the -inf reset taken in by the fused max scatter (unfused, the reset fails) */
    expect_msg("node '/ScatterReduce' (GatherScatter-1)\ninput 1 'indices'\nposition 6\n"
               "value 5 \nrange [-5, 4]", "node '/ScatterElements'\nposition 384\nvalue 5 \n"
               "range [-5, 4]");
    gnn_case("dyn_sage_max_dst_past_end", SAGE_MAX, "OSC_ERR_INDEX", "dynamic SAGE max layer, "
             "destination 5 on 5 nodes, last edge: the fused scatter (its reset taken in)", 5, 64,
             2, 7, edges7(1, 6, 5));
    /* GCN: the degree's ScatterElements and GatherPieces read edge_index before the fused node */
    expect_msg("node '/ScatterElements'\nposition 6\nvalue 5 \nrange [-5, 4]",
               "node '/ScatterElements'\nposition 6\nvalue 5 \nrange [-5, 4]");
    gnn_case("dyn_gcn_dst_past_end", GCN, "OSC_ERR_INDEX", "dynamic GCN layer, destination 5 on "
             "5 nodes, last edge", 5, 64, 2, 7, edges7(1, 6, 5));
    expect_msg("node '/ScatterElements'\nposition 6\nvalue 5 \nrange [-5, 4]",
               "node '/ScatterElements'\nposition 6\nvalue 5 \nrange [-5, 4]");
    gnn_case("dyn_gcn_index_add_dst_past_end", GCN_IA, "OSC_ERR_INDEX", "dynamic GCN layer "
             "spelled with index_add_ (its Add of zeros the fused scatter's epilogue), destination "
             "5 on 5 nodes, last edge", 5, 64, 2, 7, edges7(1, 6, 5));
    expect_msg("node '/ScatterElements_1' (GatherScatter-1)\nedge_index\nposition 4\n"
               "value -6 \nrange [-5, 4]", "node '/Gather_4'\nposition 4\nvalue -6 \n"
               "range [-5, 4]");
    gnn_case("dyn_gcn_src_below", GCN, "OSC_ERR_INDEX", "dynamic GCN layer, source -6 on 5 "
             "nodes: the fused aggregation, which reads the edge norm's two tables, reads the "
             "piece of edge_index in place", 5, 64, 2, 7, edges7(0, 4, -6));
    expect_msg("node '/Gather_4' (GatherPieces-1)\nedge_index\nposition 6\nvalue 5 \n"
               "range [-5, 4]", "node '/Gather_4'\nposition 6\nvalue 5 \nrange [-5, 4]");
    gnn_case("dyn_gat_dst_past_end", GAT, "OSC_ERR_INDEX", "dynamic GAT layer, destination 5 on "
             "5 nodes, last edge", 5, 64, 2, 7, edges7(1, 6, 5));
    expect_msg("node '/Gather_3' (GatherPieces-1)\nposition 2\nvalue 9 \nrange [-5, 4]",
               "node '/Gather_3'\nposition 2\nvalue 9 \nrange [-5, 4]");
    gnn_case("dyn_gat_src_past_end", GAT, "OSC_ERR_INDEX", "dynamic GAT layer, source 9 on 5 "
             "nodes", 5, 64, 2, 7, edges7(0, 2, 9));
    expect_msg("position 0\nvalue -6 \nrange [-5, 4]", "position 0\nvalue -6 \nrange [-5, 4]");
    gnn_case("dyn_edgeconv_dst_below", EDGE, "OSC_ERR_INDEX", "dynamic EdgeConv layer, "
             "destination -6 on 5 points, first edge", 5, 3, 2, 7, edges7(1, 0, -6));
    /* shapes the declaration refuses when bound */
    expect_msg("input 'edge_index'\n[3,4]", "input 'edge_index'\n[3,4]");
    gnn_case("dyn_gcn_edge_index_3_rows", GCN, "OSC_ERR_SHAPE", "dynamic GCN layer, edge_index "
             "[3, 4]: declared [2, E]", 5, 64, 3, 4, NULL);
    expect_msg("input 'edge_index'\n[8]", "input 'edge_index'\n[8]");
    gnn_case("dyn_sage_edge_index_rank_1", SAGE, "OSC_ERR_SHAPE", "dynamic SAGE layer, "
             "edge_index [8]: declared [2, E]", 5, 64, 1, 8, NULL);
    expect_msg("input 'x'\n[5,63]", "input 'x'\n[5,63]");
    gnn_case("dyn_gat_x_63_features", GAT, "OSC_ERR_SHAPE", "dynamic GAT layer, x [5, 63]: "
             "declared [N, 64]", 5, 63, 2, 7, edges7(0, 0, 0));
}

/* ---- a GCN layer written as an exporter writes dynamic axes, and look-alikes ---- */

/* What dyn_model changes; all zero: the pattern the fusion rewrites. */
typedef struct dyn_opts {
    int64_t shape_at;   /* the Shape(x) element the data's rows read (0: N) */
    bool swap_concat;   /* the data shape Concat([2], [N]): data [2, N] */
    int64_t cols;       /* the data's columns (0: 2, the messages' width) */
    bool ones;          /* ConstantOfShape's value 1, not 0 */
    bool expand_to_x;   /* the index Expanded to Shape(x), not Shape(msg) */
    int64_t w_sym;      /* w's first dim: -2 (E, default), -3 (E2, a symbol of its own) */
    int64_t max_rows;   /* the data's rows Max(N, this) (0: N) */
} dyn_opts;

/* y = ScatterElements(ConstantOfShape(Concat(Unsqueeze(Gather(Shape(x), 0)), [2])),
 *                     Expand(Unsqueeze(dst, 1), Shape(msg)), msg = Gather(x, src) * w, add)
 * over x [N, 2], src [E], dst [E], w [E, 1]: GCN's message passing with dynamic axes N, E. */
static Onnx__ModelProto *dyn_model(const dyn_opts *o) {
    static const float zero = 0, one = 1;
    const int64_t xd[2] = {-1, 2}, ed[1] = {-2}, wd[2] = {o->w_sym ? o->w_sym : -2, 1};
    const int64_t one_d[1] = {1}, cols = o->cols ? o->cols : 2;
    Onnx__ModelProto *m = model(18);
    input(m, "x", OSC_FLOAT, 2, xd);
    input(m, "src", OSC_INT64, 1, ed);
    input(m, "dst", OSC_INT64, 1, ed);
    input(m, "w", OSC_FLOAT, 2, wd);
    init(m, tensor("at", OSC_INT64, 0, NULL, &o->shape_at, 8));
    init(m, tensor("axes0", OSC_INT64, 1, one_d, (const int64_t[]){0}, 8));
    init(m, tensor("axes1", OSC_INT64, 1, one_d, (const int64_t[]){1}, 8));
    init(m, tensor("cols", OSC_INT64, 1, one_d, &cols, 8));
    node(m, "Shape", "shape_x", 1, (const char *[]){"x"}, 1, (const char *[]){"xs"});
    node(m, "Gather", "rows", 2, (const char *[]){"xs", "at"}, 1, (const char *[]){"n"});
    node(m, "Unsqueeze", "rows_col", 2, (const char *[]){"n", "axes0"}, 1,
         (const char *[]){"n1"});
    const char *rows = "n1";
    if (o->max_rows) { /* Max(N, max_rows): N in every size but the small ones */
        init(m, tensor("least", OSC_INT64, 1, one_d, &o->max_rows, 8));
        node(m, "Max", "rows_max", 2, (const char *[]){"n1", "least"}, 1,
             (const char *[]){"nmax"});
        rows = "nmax";
    }
    attr_i(node(m, "Concat", "data_shape", 2,
                o->swap_concat ? (const char *[]){"cols", rows} : (const char *[]){rows, "cols"},
                1, (const char *[]){"dshape"}), "axis", 0);
    Onnx__NodeProto *c = node(m, "ConstantOfShape", "zeros", 1, (const char *[]){"dshape"}, 1,
                              (const char *[]){"data"});
    Onnx__AttributeProto *a = A(sizeof *a);
    onnx__attribute_proto__init(a);
    a->name = S("value");
    a->has_type = 1;
    a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
    a->t = tensor(NULL, OSC_FLOAT, 1, one_d, o->ones ? &one : &zero, 4);
    c->n_attribute = 1;
    c->attribute = A(sizeof *c->attribute);
    c->attribute[0] = a;
    node(m, "Gather", "gather", 2, (const char *[]){"x", "src"}, 1, (const char *[]){"g"});
    node(m, "Mul", "mul", 2, (const char *[]){"g", "w"}, 1, (const char *[]){"msg"});
    node(m, "Unsqueeze", "dst_col", 2, (const char *[]){"dst", "axes1"}, 1,
         (const char *[]){"dcol"});
    node(m, "Shape", "shape_msg", 1, (const char *[]){o->expand_to_x ? "x" : "msg"}, 1,
         (const char *[]){"es"});
    node(m, "Expand", "expand", 2, (const char *[]){"dcol", "es"}, 1, (const char *[]){"idx"});
    attr_s(node(m, "ScatterElements", "scatter", 3, (const char *[]){"data", "idx", "msg"}, 1,
                (const char *[]){"y"}), "reduction", "add");
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

/* x [n, 2], src and dst [e], w [we, 1]: exact values, so sums do not depend on their order. */
static tin *dyn_inputs(int64_t n, int64_t e, int64_t we, const int64_t *src, const int64_t *dst) {
    float *x = A((size_t)(2 * n + 1) * sizeof *x), *w = A((size_t)(we + 1) * sizeof *w);
    for (int64_t i = 0; i < 2 * n; i++) x[i] = (float)(i + 1) * 0.5f;
    for (int64_t i = 0; i < we; i++) w[i] = (float)(i % 3) - 0.75f;
    tin *t = A(4 * sizeof *t);
    t[0] = (tin){OSC_FLOAT, 2, {n, 2}, x, (size_t)(2 * n) * sizeof *x};
    t[1] = (tin){OSC_INT64, 1, {e}, src, (size_t)e * 8};
    t[2] = (tin){OSC_INT64, 1, {e}, dst, (size_t)e * 8};
    t[3] = (tin){OSC_FLOAT, 2, {we, 1}, w, (size_t)we * sizeof *w};
    return t;
}

static void dyn_case(const char *name, const dyn_opts *o, const char *status, const char *why,
                     int64_t n, int64_t e, int64_t we, const int64_t *src, const int64_t *dst) {
    emit_model(name, dyn_model(o), status, "run", why, 4, dyn_inputs(n, e, we, src, dst));
}

static void synthetic_cases(void) {
    static const int64_t s4[4] = {0, 4, 2, -1}, d4[4] = {1, 0, 1, -5}, lo4[4] = {1, 0, 1, -2};
    static const int64_t s5[5] = {0, 1, 2, 3, 4}, d5[5] = {4, 0, 4, 1, 2};
    const dyn_opts plain = {0};
    dyn_case("dyn_scatter_valid", &plain, "OSC_OK", "GCN message passing exported with dynamic "
             "axes N, E, 5 nodes and 4 edges: fused through the symbolic shapes (control)", 5, 4,
             4, s4, d4);
    expect_msg("node 'scatter'\nposition 2\nvalue 5 \nrange [-5, 4]",
               "node 'scatter'\nvalue 5 \nrange [-5, 4]");
    dyn_case("dyn_scatter_dst_past_end", &plain, "OSC_ERR_INDEX", "dynamic GCN message passing, "
             "destination 5 on 5 rows", 5, 4, 4, s4, (const int64_t[]){1, 0, 5, 2});
    expect_msg("node 'scatter'\nposition 1\nvalue -6 \nrange [-5, 4]",
               "node 'gather'\nposition 1\nvalue -6 \nrange [-5, 4]");
    dyn_case("dyn_scatter_src_below", &plain, "OSC_ERR_INDEX", "dynamic GCN message passing, "
             "source -6 on 5 rows", 5, 4, 4, (const int64_t[]){0, -6, 2, 1}, d4);
    /* one symbol, two sizes: refused before any node runs, fused or not */
    expect_msg("input 'w' dim 0 ('E') is 3\ninput 'src' dim 0 gives 'E' = 4",
               "input 'w' dim 0 ('E') is 3\ninput 'src' dim 0 gives 'E' = 4");
    dyn_case("dyn_symbol_two_sizes", &plain, "OSC_ERR_SHAPE", "src and dst [E = 4], w [E = 3, 1]: "
             "one symbol bound to two sizes", 5, 4, 3, s4, d4);
    /* w with a symbol of its own: its size meets E only in the Mul */
    const dyn_opts own = {.w_sym = -3};
    dyn_case("dyn_own_symbol_valid", &own, "OSC_OK", "w [E2, 1], a symbol of its own, given E "
             "rows: fused or not, the same bytes", 5, 4, 4, s4, d4);
    dyn_case("dyn_own_symbol_broadcast", &own, "OSC_OK", "w [E2 = 1, 1] broadcast over E = 4 "
             "messages: the same bytes fused and unfused", 5, 4, 1, s4, d4);
    expect_msg("node 'mul'\n(w)\n[3,1]\n[4,2]", "node 'mul'\n(w)\n[3,1]\n[4,2]");
    dyn_case("dyn_own_symbol_disagrees", &own, "OSC_ERR_SHAPE", "w [E2 = 3, 1] against E = 4 "
             "messages: a symbolic size that disagrees at run", 5, 4, 3, s4, d4);
    /* look-alikes: the same nodes, another meaning; fused or not, the same bytes */
    const dyn_opts at1 = {.shape_at = 1};
    dyn_case("dyn_lookalike_rows_from_dim_1", &at1, "OSC_OK", "the data's rows read Shape(x)[1] "
             "(2), not N: data [2, 2]", 5, 4, 4, s4, lo4);
    expect_msg("value 4 \nrange [-2, 1]", "value 4 \nrange [-2, 1]");
    dyn_case("dyn_lookalike_rows_from_dim_1_past_end", &at1, "OSC_ERR_INDEX", "data rows "
             "Shape(x)[1] = 2, destination 4 (valid for N = 5)", 5, 4, 4, s4,
             (const int64_t[]){1, 0, 4, 0});
    const dyn_opts swap = {.swap_concat = true};
    dyn_case("dyn_lookalike_concat_swapped", &swap, "OSC_OK", "the data shape Concat([2], [N]): "
             "data [2, N], destinations below 2", 5, 4, 4, s4, lo4);
    const dyn_opts wide = {.cols = 3};
    dyn_case("dyn_lookalike_data_3_columns", &wide, "OSC_OK", "ConstantOfShape [N, 3] for "
             "messages [E, 2]: a column left as it was", 5, 4, 4, s4, d4);
    const dyn_opts max1 = {.max_rows = 1};
    dyn_case("dyn_lookalike_rows_max_1_no_nodes", &max1, "OSC_OK", "the data's rows Max(N, 1), "
             "N in every probe but the zero one, given N = 0: data [1, 2], not [0, 2]", 0, 0, 0,
             s4, d4);
    dyn_case("dyn_lookalike_rows_max_1", &max1, "OSC_OK", "the data's rows Max(N, 1) given N = "
             "5: the same bytes fused and unfused", 5, 4, 4, s4, d4);
    const dyn_opts ones = {.ones = true};
    dyn_case("dyn_lookalike_ones", &ones, "OSC_OK", "ConstantOfShape of ones: the sums start at "
             "1", 5, 4, 4, s4, d4);
    const dyn_opts ex = {.expand_to_x = true};
    dyn_case("dyn_lookalike_expand_to_x", &ex, "OSC_OK", "the index Expanded to Shape(x) [N, 2], "
             "not the messages' shape; E = N = 5, so it runs", 5, 5, 5, s5, d5);
    expect_msg("node 'expand'\nvalue 5\nsize 4", "node 'expand'\nvalue 5\nsize 4");
    dyn_case("dyn_lookalike_expand_to_x_disagrees", &ex, "OSC_ERR_SHAPE", "the index Expanded to "
             "Shape(x) [5, 2] with E = 4: the shapes do not broadcast", 5, 4, 4, s4, d4);
    /* zero-size symbols */
    dyn_case("dyn_scatter_no_edges", &plain, "OSC_OK", "dynamic GCN message passing, E = 0", 5, 0,
             0, s4, d4);
    dyn_case("dyn_scatter_no_nodes", &plain, "OSC_OK", "dynamic GCN message passing, N = 0 and "
             "E = 0", 0, 0, 0, s4, d4);
    expect_msg("range [0, -1]", "range [0, -1]");
    dyn_case("dyn_scatter_no_nodes_with_edges", &plain, "OSC_ERR_INDEX", "dynamic GCN message "
             "passing, N = 0 with 4 edges", 0, 4, 4, (const int64_t[]){0, 0, 0, 0}, d4);
}

void dynamic_cases(void) {
    gnn_cases();
    synthetic_cases();
}
