/* gen_bad_control.c: malformed-suite cases of If, Loop and Scan: subgraphs that read a name no
 * graph defines or the node's own output (a cycle), a body of the wrong arity, a trip count of
 * the wrong dtype (refused at load); a condition of two elements, a scatter index out of range
 * in one iteration, scan inputs of different lengths (refused at run, nothing written); torch's
 * nn.EmbeddingBag Loop, which rule embedding_bag fuses into SegmentReduce: its sums in the
 * Loop's order, an index out of range in a bag, more bags than starts (refused at run, naming
 * the Loop node, fused and not). */
#include <stdbool.h>
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

static const int64_t k1[1] = {1}, k2[1] = {2}, k4[1] = {4};

/* A subgraph builder named `name`. */
static Onnx__ModelProto *sub(const char *name) {
    Onnx__ModelProto *g = model(0);
    g->graph->name = S(name);
    return g;
}

/* y = If(c, then: Identity(then_reads), else: Identity(x)), x float [1]; c bool of `c_rank`
 * (rank 1: two elements). */
static Onnx__ModelProto *if_model(const char *then_reads, int c_rank) {
    Onnx__ModelProto *m = model(16), *t = sub("then_g"), *e = sub("else_g");
    input(m, "c", OSC_BOOL, c_rank, k2);
    input(m, "x", OSC_FLOAT, 1, k1);
    node(t, "Identity", "t", 1, (const char *[]){then_reads}, 1, (const char *[]){"ty"});
    output(t, "ty", OSC_FLOAT, 1, k1);
    node(e, "Identity", "e", 1, (const char *[]){"x"}, 1, (const char *[]){"ey"});
    output(e, "ey", OSC_FLOAT, 1, k1);
    Onnx__NodeProto *n = node(m, "If", "if", 1, (const char *[]){"c"}, 1, (const char *[]){"y"});
    attr_g(n, "then_branch", t);
    attr_g(n, "else_branch", e);
    output(m, "y", OSC_FLOAT, 1, k1);
    return m;
}

/* v = Loop(M, "", v0 [4]) whose body writes 1.0 at index 2 * i of v (ScatterElements): with M
 * 3 the index is 4 at iteration 2, past the end. With `arity_bad` the body lacks its carried
 * input; M is declared of dtype m_dtype. */
static Onnx__ModelProto *loop_model(bool arity_bad, int32_t m_dtype) {
    Onnx__ModelProto *m = model(16), *b = sub("body");
    input(m, "M", m_dtype, 0, NULL);
    input(m, "v0", OSC_FLOAT, 1, k4);
    input(b, "i", OSC_INT64, 0, NULL);
    input(b, "cond_in", OSC_BOOL, 0, NULL);
    if (!arity_bad) input(b, "v", OSC_FLOAT, 1, k4);
    const int64_t two = 2, zero = 0;
    const float one = 1;
    init(b, tensor("two", OSC_INT64, 0, NULL, &two, sizeof two));
    init(b, tensor("axes", OSC_INT64, 1, k1, &zero, sizeof zero));
    init(b, tensor("upd", OSC_FLOAT, 1, k1, &one, sizeof one));
    node(b, "Mul", "mul", 2, (const char *[]){"i", "two"}, 1, (const char *[]){"i2"});
    node(b, "Unsqueeze", "u", 2, (const char *[]){"i2", "axes"}, 1, (const char *[]){"idx"});
    Onnx__NodeProto *s = node(b, "ScatterElements", "scatter", 3,
                              (const char *[]){arity_bad ? "v0" : "v", "idx", "upd"}, 1,
                              (const char *[]){"v2"});
    attr_i(s, "axis", 0);
    node(b, "Identity", "c", 1, (const char *[]){"cond_in"}, 1, (const char *[]){"cond_out"});
    output(b, "cond_out", OSC_BOOL, 0, NULL);
    output(b, "v2", OSC_FLOAT, 1, k4);
    Onnx__NodeProto *n = node(m, "Loop", "loop", 3, (const char *[]){"M", "", "v0"}, 1,
                              (const char *[]){"v"});
    attr_g(n, "body", b);
    output(m, "v", OSC_FLOAT, 1, k4);
    return m;
}

/* Scan-16 over xs [2] and ws [4] (lengths that differ), body y = x + w, one scan output. */
static Onnx__ModelProto *scan_model(void) {
    Onnx__ModelProto *m = model(16), *b = sub("body");
    input(m, "xs", OSC_FLOAT, 1, k2);
    input(m, "ws", OSC_FLOAT, 1, k4);
    input(b, "x", OSC_FLOAT, 0, NULL);
    input(b, "w", OSC_FLOAT, 0, NULL);
    node(b, "Add", "add", 2, (const char *[]){"x", "w"}, 1, (const char *[]){"y"});
    output(b, "y", OSC_FLOAT, 0, NULL);
    Onnx__NodeProto *n = node(m, "Scan", "scan", 2, (const char *[]){"xs", "ws"}, 1,
                              (const char *[]){"ys"});
    attr_g(n, "body", b);
    attr_i(n, "num_scan_inputs", 2);
    output(m, "ys", OSC_FLOAT, 1, k2);
    return m;
}

/* y = Loop(M, "") over bags b < M, as torch exports nn.EmbeddingBag(mode='sum'): the body
 * sums the rows of weight [4, 3] at indices[starts[b] : ends[b]] (Gather, Unsqueeze, Slice,
 * Gather, ReduceSum-13 over axis 0) and keeps its condition true (Identity of a constant). */
static Onnx__ModelProto *bag_model(void) {
    Onnx__ModelProto *m = model(16), *b = sub("bag_body");
    const int64_t k5[1] = {5}, k43[2] = {4, 3}, yd[2] = {-3, 3}, zero = 0;
    const bool t = true;
    /* rows whose sum depends on the order: 1e8 + 1 - 1e8 is 0 in float, -1e8 + 1e8 + 1 is 1 */
    const float w[12] = {1e8f, 0.1f, 3, 1, 0.2f, -1, -1e8f, 0.3f, 7, 0.5f, -0.7f, 1e-3f};
    input(m, "indices", OSC_INT64, 1, k5);
    input(m, "starts", OSC_INT64, 1, (const int64_t[]){3});
    input(m, "ends", OSC_INT64, 1, (const int64_t[]){3});
    input(m, "M", OSC_INT64, 0, NULL);
    init(m, tensor("weight", OSC_FLOAT, 2, k43, w, sizeof w));
    input(b, "i", OSC_INT64, 0, NULL);
    input(b, "cond_in", OSC_BOOL, 0, NULL);
    init(b, tensor("axes0", OSC_INT64, 1, k1, &zero, sizeof zero));
    init(b, tensor("true", OSC_BOOL, 0, NULL, &t, sizeof t));
    node(b, "Gather", "gather_s", 2, (const char *[]){"starts", "i"}, 1, (const char *[]){"s"});
    node(b, "Gather", "gather_e", 2, (const char *[]){"ends", "i"}, 1, (const char *[]){"e"});
    node(b, "Unsqueeze", "us", 2, (const char *[]){"s", "axes0"}, 1, (const char *[]){"s1"});
    node(b, "Unsqueeze", "ue", 2, (const char *[]){"e", "axes0"}, 1, (const char *[]){"e1"});
    node(b, "Slice", "slice", 4, (const char *[]){"indices", "s1", "e1", "axes0"}, 1,
         (const char *[]){"bag"});
    node(b, "Gather", "gather_w", 2, (const char *[]){"weight", "bag"}, 1,
         (const char *[]){"rows"});
    attr_i(node(b, "ReduceSum", "sum", 2, (const char *[]){"rows", "axes0"}, 1,
                (const char *[]){"red"}),
           "keepdims", 0);
    node(b, "Identity", "c", 1, (const char *[]){"true"}, 1, (const char *[]){"cond_out"});
    output(b, "cond_out", OSC_BOOL, 0, NULL);
    output(b, "red", OSC_FLOAT, 1, (const int64_t[]){3});
    attr_g(node(m, "Loop", "bag", 2, (const char *[]){"M", ""}, 1, (const char *[]){"y"}),
           "body", b);
    output(m, "y", OSC_FLOAT, 2, yd);
    return m;
}

/* bag_model's cases: sums in the Loop's order, then an index and a bag out of range. */
static void bag_cases(void) {
    const int64_t ok_ix[5] = {0, 1, 2, -1, 3}, bad_ix[5] = {0, 1, 4, 3, 3};
    const int64_t starts[3] = {0, 3, -2}, ends[3] = {3, 2, 9}, m3 = 3, m4 = 4;
#define BAG_INS(IX, M)                                                                        \
    {{OSC_INT64, 1, {5}, IX, sizeof IX}, {OSC_INT64, 1, {3}, starts, sizeof starts},          \
     {OSC_INT64, 1, {3}, ends, sizeof ends}, {OSC_INT64, 0, {0}, &M, sizeof M}}
    const tin ok[4] = BAG_INS(ok_ix, m3), bad[4] = BAG_INS(bad_ix, m3), many[4] = BAG_INS(ok_ix, m4);
#undef BAG_INS
    emit_model("cf_bag_sum_valid", bag_model(), "OSC_OK", "run",
               "EmbeddingBag Loop (fused: SegmentReduce): rows 1e8, 1, -1e8 summed in the "
               "Loop's order, a bag [3:2] empty, a bag [-2:9] clamped to [3:5] (control)", 4, ok);
    expect_msg("'bag'\nSegmentReduce\nbag 0\nposition 2\nvalue 4\nout of range [-4, 3]",
               "'bag'\niteration 0\n'gather_w'\nvalue 4\nout of range [-4, 3]");
    emit_model("cf_bag_index_out_of_range", bag_model(), "OSC_ERR_INDEX", "run",
               "EmbeddingBag Loop: index 4 of weight's 4 rows in bag 0", 4, bad);
    expect_msg("'bag'\nSegmentReduce\nbag 3\n'starts'\nhas 3 values",
               "'bag'\niteration 3\n'gather_s'\nvalue 3\nout of range");
    emit_model("cf_bag_more_bags_than_starts", bag_model(), "OSC_ERR_INDEX", "run",
               "EmbeddingBag Loop: trip count 4, starts and ends of 3 bags", 4, many);
}

void control_cases(void) {
    const char *msg = "'if'\nthen_g\n'nope'\nno graph around it defines";
    expect_msg(msg, msg);
    emit_model("cf_if_reads_undefined_name", if_model("nope", 0), "OSC_ERR_MODEL", "load",
               "If: a branch reads a name no graph around it defines", 0, NULL);
    msg = "'if'\n'y'\na cycle through the subgraph";
    expect_msg(msg, msg);
    emit_model("cf_if_reads_its_own_output", if_model("y", 0), "OSC_ERR_MODEL", "load",
               "If: a branch reads the If's own output (a cycle through the subgraph)", 0, NULL);
    msg = "'loop'\nsubgraph 'body'\nneeds 3 inputs and 2 outputs";
    expect_msg(msg, msg);
    emit_model("cf_loop_body_arity", loop_model(true, OSC_INT64), "OSC_ERR_MODEL", "load",
               "Loop: the body takes 2 inputs; one carried value needs 3", 0, NULL);
    msg = "'loop'\ninput 0\nfloat\nexpected int64";
    expect_msg(msg, msg);
    emit_model("cf_loop_trip_count_float", loop_model(false, OSC_FLOAT), "OSC_ERR_SHAPE",
               "load", "Loop: the trip count M is declared float", 0, NULL);

    const bool c2[2] = {true, false};
    const float x = 5;
    const tin if_ins[2] = {{OSC_BOOL, 1, {2}, c2, sizeof c2}, {OSC_FLOAT, 1, {1}, &x, sizeof x}};
    msg = "'if'\ncond\nhold one bool element\n2 elements";
    expect_msg(msg, msg);
    emit_model("cf_if_cond_two_elements", if_model("x", 1), "OSC_ERR_SHAPE", "run",
               "If: the condition has two elements", 2, if_ins);

    const int64_t trips = 3;
    const float v0[4] = {0, 0, 0, 0};
    const tin loop_ins[2] = {{OSC_INT64, 0, {0}, &trips, sizeof trips},
                             {OSC_FLOAT, 1, {4}, v0, sizeof v0}};
    msg = "'loop'\niteration 2\nsubgraph 'body'\n'scatter'\nvalue 4\nout of range";
    expect_msg(msg, msg);
    emit_model("cf_loop_index_past_end_in_iteration_2", loop_model(false, OSC_INT64),
               "OSC_ERR_INDEX", "run",
               "Loop: the body's scatter index is 2 * i, past the end of [4] at iteration 2", 2,
               loop_ins);

    const float xs[2] = {1, 2}, ws[4] = {1, 2, 3, 4};
    const tin scan_ins[2] = {{OSC_FLOAT, 1, {2}, xs, sizeof xs},
                             {OSC_FLOAT, 1, {4}, ws, sizeof ws}};
    msg = "'scan'\nscan input 1 has 4 positions\nscan input 0 has 2";
    expect_msg(msg, msg);
    emit_model("cf_scan_lengths_differ", scan_model(), "OSC_ERR_SHAPE", "run",
               "Scan: two scan inputs of lengths 2 and 4", 2, scan_ins);
    bag_cases();
}
