/* test_loader_model.c: ModelProto -> osc_graph: round trip, structural checks, hostile input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loader_util.h"
#include "tests/support/check.h"

/* ---- writer round trip ---- */

static osc_mw *roundtrip_model(void) {
    osc_mw *mw = osc_mw_new(9);
    assert_non_null(mw);
    osc_mw_names(mw, "gen", "gname");
    osc_mw_opset(mw, "", 18);
    osc_mw_opset(mw, "com.example", 2);
    int64_t d_n3[2] = {-1, 3}, d_unk[2] = {-1, -1}, d2[1] = {2}, d3[1] = {3};
    const char *n_n3[2] = {"N", NULL};
    osc_mw_input(mw, "data", OSC_FLOAT, 2, d_n3, n_n3);
    osc_mw_input(mw, "idx", OSC_INT64, 2, d_unk, NULL);
    osc_mw_input(mw, "def", OSC_INT64, 1, d2, NULL);
    osc_mw_input(mw, "any", 0, -1, NULL, NULL);
    int64_t defv[2] = {7, 8};
    osc_tensor t_def = {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = defv, .nbytes = 16};
    osc_mw_initializer(mw, "def", &t_def);
    float updv[6] = {1, 2, 3, 4, 5, 6};
    osc_tensor t_upd = {.dtype = OSC_FLOAT, .rank = 2, .dims = {2, 3}, .data = updv, .nbytes = 24};
    osc_mw_initializer(mw, "upd", &t_upd);
    osc_string sv[2] = {{"ab", 2}, {"", 0}};
    osc_tensor t_names = {.dtype = OSC_STRING, .rank = 1, .dims = {2}, .data = sv,
                          .nbytes = sizeof sv};
    osc_mw_initializer(mw, "names", &t_names);
    uint8_t qv[2] = {0x21, 0x03};
    osc_tensor t_q = {.dtype = OSC_INT4, .rank = 1, .dims = {3}, .data = qv, .nbytes = 2};
    osc_mw_initializer(mw, "q", &t_q);

    const char *in0[3] = {"data", "idx", "upd"}, *out0[1] = {"s"};
    int n0 = osc_mw_node(mw, "ScatterND", "n0", 3, in0, 1, out0);
    assert_int_equal(n0, 0);
    osc_mw_attr_string(mw, n0, "reduction", "add");
    osc_mw_node_domain(mw, n0, "ai.onnx");
    const char *in1[3] = {"s", "", "def"}, *out1[2] = {"y", NULL};
    int n1 = osc_mw_node(mw, "Custom", NULL, 3, in1, 2, out1);
    assert_int_equal(n1, 1);
    osc_mw_node_domain(mw, n1, "com.example");
    int64_t is[3] = {1, -2, 3};
    float fs[2] = {1.5f, -2.0f};
    float tv[2] = {1.0f, 2.0f};
    osc_tensor t_attr = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = tv, .nbytes = 8};
    osc_string xyz = {"xyz", 3};
    osc_tensor t_sattr = {.dtype = OSC_STRING, .rank = 1, .dims = {1}, .data = &xyz,
                          .nbytes = sizeof xyz};
    osc_mw_attr_int(mw, n1, "i", -5);
    osc_mw_attr_ints(mw, n1, "is", is, 3);
    osc_mw_attr_float(mw, n1, "f", 0.25f);
    osc_mw_attr_floats(mw, n1, "fs", fs, 2);
    osc_mw_attr_string(mw, n1, "s", "hello");
    osc_mw_attr_bytes(mw, n1, "b", "a\0b", 3);
    osc_mw_attr_tensor(mw, n1, "t", &t_attr);
    osc_mw_attr_tensor(mw, n1, "ts", &t_sattr);
    osc_mw_attr_ints(mw, n1, "none", NULL, 0);
    const char *in2[1] = {"names"}, *out2[1] = {"z"};
    assert_int_equal(osc_mw_node(mw, "Identity", "n2", 1, in2, 1, out2), 2);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, d_n3, n_n3);
    osc_mw_output(mw, "z", 0, -1, NULL, NULL);
    osc_mw_output(mw, "q", OSC_INT4, 1, d3, NULL);
    osc_mw_value_info(mw, "s", OSC_FLOAT, 2, d_n3, n_n3);
    osc_mw_value_info(mw, "unused", OSC_FLOAT, 0, NULL, NULL);
    return mw;
}

static void check_type(const osc_type *t, int32_t dtype, int32_t rank, const int64_t *dims,
                       const char *const *names) {
    assert_int_equal(t->dtype, dtype);
    assert_int_equal(t->rank, rank);
    for (int32_t i = 0; i < rank; i++) {
        assert_int_equal(t->dims[i], dims[i]);
        if (names && names[i])
            assert_string_equal(t->dim_names[i], names[i]);
        else
            assert_null(t->dim_names[i]);
    }
}

static void test_writer_roundtrip(void **state) {
    (void)state;
    osc_mw *mw = roundtrip_model();
    lu_model m;
    lu_expect(lu_parse_mw(&m, mw), OSC_OK, m.err.msg, "");
    osc_mw_free(mw);
    const osc_graph *g = &m.g;
    assert_int_equal(g->ir_version, 9);
    assert_string_equal(g->producer_name, "gen");
    assert_string_equal(g->name, "gname");
    assert_int_equal(g->n_opsets, 2);
    assert_string_equal(g->opsets[0].domain, "");
    assert_int_equal(g->opsets[0].version, 18);
    assert_string_equal(g->opsets[1].domain, "com.example");
    assert_int_equal(g->opsets[1].version, 2);
    assert_int_equal(g->n_values, 10); /* data idx def any upd names q s y z; "" is no value */

    int32_t data = lu_value(g, "data"), idx = lu_value(g, "idx"), def = lu_value(g, "def"),
            any = lu_value(g, "any"), upd = lu_value(g, "upd"), names = lu_value(g, "names"),
            q = lu_value(g, "q"), s = lu_value(g, "s"), y = lu_value(g, "y"), z = lu_value(g, "z");
    assert_int_equal(g->n_inputs, 4);
    assert_int_equal(g->inputs[0], data);
    assert_int_equal(g->inputs[1], idx);
    assert_int_equal(g->inputs[2], def);
    assert_int_equal(g->inputs[3], any);
    assert_int_equal(g->n_outputs, 3);
    assert_int_equal(g->outputs[0], y);
    assert_int_equal(g->outputs[1], z);
    assert_int_equal(g->outputs[2], q);

    const osc_value *v = g->values;
    int64_t d_n3[2] = {-1, 3}, d_unk[2] = {-1, -1}, d2[1] = {2}, d23[2] = {2, 3}, d3[1] = {3};
    const char *n_n3[2] = {"N", NULL};
    check_type(&v[data].decl, OSC_FLOAT, 2, d_n3, n_n3);
    assert_true(v[data].is_input && !v[data].is_output && !v[data].init);
    assert_int_equal(v[data].producer, -1);
    check_type(&v[idx].decl, OSC_INT64, 2, d_unk, NULL);
    check_type(&v[def].decl, OSC_INT64, 1, d2, NULL);
    assert_true(v[def].is_input);
    assert_non_null(v[def].init);
    int64_t defv[2] = {7, 8};
    assert_int_equal(v[def].init->nbytes, 16);
    assert_memory_equal(v[def].init->data, defv, 16);
    check_type(&v[any].decl, 0, -1, NULL, NULL);
    /* initializer-only values take their declared type from the initializer */
    check_type(&v[upd].decl, OSC_FLOAT, 2, d23, NULL);
    assert_false(v[upd].is_input);
    float updv[6] = {1, 2, 3, 4, 5, 6};
    assert_memory_equal(v[upd].init->data, updv, 24);
    const osc_string *sv = v[names].init->data;
    assert_int_equal(v[names].init->dtype, OSC_STRING);
    assert_int_equal(sv[0].len, 2);
    assert_memory_equal(sv[0].ptr, "ab", 2);
    assert_int_equal(sv[1].len, 0);
    check_type(&v[q].decl, OSC_INT4, 1, d3, NULL);
    assert_true(v[q].is_output && !v[q].is_input);
    assert_int_equal(((const uint8_t *)v[q].init->data)[0], 0x21);
    assert_int_equal(((const uint8_t *)v[q].init->data)[1], 0x03);
    check_type(&v[s].decl, OSC_FLOAT, 2, d_n3, n_n3); /* from value_info */
    assert_int_equal(v[s].producer, 0);
    check_type(&v[y].decl, OSC_FLOAT, 2, d_n3, n_n3);
    assert_int_equal(v[y].producer, 1);
    assert_true(v[y].is_output);
    check_type(&v[z].decl, 0, -1, NULL, NULL);
    assert_int_equal(v[z].producer, 2);

    assert_int_equal(g->n_nodes, 3);
    const osc_node *n = &g->nodes[0];
    assert_string_equal(n->name, "n0");
    assert_string_equal(n->op_type, "ScatterND");
    assert_string_equal(n->domain, ""); /* "ai.onnx" normalised */
    assert_int_equal(n->n_inputs, 3);
    assert_int_equal(n->inputs[0], data);
    assert_int_equal(n->inputs[1], idx);
    assert_int_equal(n->inputs[2], upd);
    assert_int_equal(n->n_outputs, 1);
    assert_int_equal(n->outputs[0], s);
    assert_int_equal(n->n_attrs, 1);
    assert_string_equal(n->attrs[0].name, "reduction");
    assert_int_equal(n->attrs[0].type, OSC_ATTR_STRING);
    assert_string_equal(n->attrs[0].s, "add");
    assert_int_equal(n->attrs[0].s_len, 3);
    assert_ptr_equal(osc_node_attr(n, "reduction"), &n->attrs[0]);

    n = &g->nodes[1];
    assert_string_equal(n->name, "");
    assert_string_equal(n->op_type, "Custom");
    assert_string_equal(n->domain, "com.example");
    assert_int_equal(n->n_inputs, 3);
    assert_int_equal(n->inputs[0], s);
    assert_int_equal(n->inputs[1], -1);
    assert_int_equal(n->inputs[2], def);
    assert_int_equal(n->n_outputs, 2);
    assert_int_equal(n->outputs[0], y);
    assert_int_equal(n->outputs[1], -1);
    assert_int_equal(n->n_attrs, 9);
    const osc_attr *a = osc_node_attr(n, "i");
    assert_int_equal(a->type, OSC_ATTR_INT);
    assert_int_equal(a->i, -5);
    a = osc_node_attr(n, "is");
    assert_int_equal(a->type, OSC_ATTR_INTS);
    assert_int_equal(a->n, 3);
    assert_int_equal(a->ints[0], 1);
    assert_int_equal(a->ints[1], -2);
    assert_int_equal(a->ints[2], 3);
    a = osc_node_attr(n, "f");
    assert_int_equal(a->type, OSC_ATTR_FLOAT);
    assert_true(a->f == 0.25f);
    a = osc_node_attr(n, "fs");
    assert_int_equal(a->type, OSC_ATTR_FLOATS);
    assert_int_equal(a->n, 2);
    assert_true(a->floats[0] == 1.5f && a->floats[1] == -2.0f);
    a = osc_node_attr(n, "s");
    assert_int_equal(a->type, OSC_ATTR_STRING);
    assert_int_equal(a->s_len, 5);
    assert_string_equal(a->s, "hello");
    a = osc_node_attr(n, "b");
    assert_int_equal(a->s_len, 3);
    assert_memory_equal(a->s, "a\0b", 4); /* NUL-terminated copy */
    a = osc_node_attr(n, "t");
    assert_int_equal(a->type, OSC_ATTR_TENSOR);
    assert_int_equal(a->t->dtype, OSC_FLOAT);
    assert_int_equal(a->t->rank, 1);
    assert_int_equal(a->t->dims[0], 2);
    float tv[2] = {1.0f, 2.0f};
    assert_memory_equal(a->t->data, tv, 8);
    a = osc_node_attr(n, "ts");
    assert_int_equal(a->t->dtype, OSC_STRING);
    assert_int_equal(((const osc_string *)a->t->data)[0].len, 3);
    assert_memory_equal(((const osc_string *)a->t->data)[0].ptr, "xyz", 3);
    a = osc_node_attr(n, "none");
    assert_int_equal(a->type, OSC_ATTR_INTS);
    assert_int_equal(a->n, 0);

    n = &g->nodes[2];
    assert_string_equal(n->op_type, "Identity");
    assert_int_equal(n->inputs[0], names);
    assert_int_equal(n->outputs[0], z);
    assert_int_equal(osc_graph_opset(g, ""), 18);
    lu_model_free(&m);
}

static void test_writer_errors(void **state) {
    (void)state;
    osc_mw *mw = osc_mw_new(8);
    int64_t d[1] = {2};
    assert_int_equal(osc_mw_input(mw, "x", 27, 1, d, NULL), OSC_ERR_ARG);
    assert_non_null(strstr(osc_mw_error(mw), "dtype 27"));
    /* sticky: later calls fail with the first error */
    assert_int_equal(osc_mw_opset(mw, "", 18), OSC_ERR_ARG);
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_ERR_ARG);
    assert_null(buf);
    osc_mw_free(mw);

    mw = osc_mw_new(8);
    assert_int_equal(osc_mw_attr_int(mw, 0, "a", 1), OSC_ERR_ARG);
    assert_non_null(strstr(osc_mw_error(mw), "node 0"));
    osc_mw_free(mw);

    mw = osc_mw_new(8);
    float f[2];
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = f, .nbytes = 4};
    assert_int_equal(osc_mw_initializer(mw, "w", &t), OSC_ERR_ARG);
    assert_non_null(strstr(osc_mw_error(mw), "initializer 'w'"));
    osc_mw_free(mw);

    mw = osc_mw_new(8);
    assert_int_equal(osc_mw_input(mw, "x", OSC_FLOAT, 33, d, NULL), OSC_ERR_ARG);
    osc_mw_free(mw);
    mw = osc_mw_new(8);
    assert_int_equal(osc_mw_output(mw, "x", OSC_FLOAT, 2, NULL, NULL), OSC_ERR_ARG);
    osc_mw_free(mw);
}

/* ---- structural validation ---- */

/* A writer with opset 18 and input x: float [2]. */
static osc_mw *base(void) {
    osc_mw *mw = osc_mw_new(8);
    assert_non_null(mw);
    osc_mw_opset(mw, "", 18);
    int64_t d[1] = {2};
    osc_mw_input(mw, "x", OSC_FLOAT, 1, d, NULL);
    return mw;
}

static int node1(osc_mw *mw, const char *op, const char *name, const char *in, const char *out) {
    return osc_mw_node(mw, op, name, 1, &in, 1, &out);
}

static void parse_fails(osc_mw *mw, osc_status want, ...) {
    lu_model m;
    osc_status st = lu_parse_mw(&m, mw);
    osc_mw_free(mw);
    va_list ap;
    va_start(ap, want);
    const char *needles[6] = {0};
    for (int i = 0; i < 5; i++)
        if (!(needles[i] = va_arg(ap, const char *))) break;
    va_end(ap);
    lu_expect(st, want, m.err.msg, needles[0] ? needles[0] : "", needles[1], needles[2],
              needles[3], needles[4]);
    lu_model_free(&m);
}
#define PARSE_FAILS(mw, want, ...) parse_fails(mw, want, __VA_ARGS__, NULL)

static void test_missing_parts(void **state) {
    (void)state;
    osc_mw *mw = osc_mw_new(8); /* no opset_import */
    PARSE_FAILS(mw, OSC_ERR_MODEL, "model has no opset_import");

    /* ir_version 7 and opset_import {version 18}, written by hand: no graph */
    static const uint8_t nograph[] = {0x08, 0x07, 0x42, 0x02, 0x10, 0x12};
    lu_model m;
    lu_expect(lu_parse(&m, nograph, sizeof nograph, NULL), OSC_ERR_MODEL, m.err.msg,
              "model has no graph");
    lu_model_free(&m);

    mw = base();
    osc_mw_opset(mw, "ai.onnx", 17);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "opset_import lists domain '' twice");

    mw = base();
    node1(mw, "", "a", "x", "y");
    PARSE_FAILS(mw, OSC_ERR_MODEL, "node 'a' (index 0, )", "has no op_type");

    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "", OSC_FLOAT, -1, NULL, NULL);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "graph input 0 has no name");

    mw = base();
    float f[2] = {0};
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = f, .nbytes = 8};
    osc_mw_initializer(mw, "", &t);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "initializer 0 has no name");

    mw = base();
    osc_mw_output(mw, "", OSC_FLOAT, -1, NULL, NULL);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "graph output 0 has no name");
}

static void test_unproduced_inputs(void **state) {
    (void)state;
    osc_mw *mw = base();
    const char *in[2] = {"x", "nope"}, *out[1] = {"y"};
    osc_mw_node(mw, "Add", "a", 2, in, 1, out);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "node 'a' (index 0, Add) input 1 'nope'",
                "not produced by any graph input, initializer or node");

    mw = base(); /* wrong order */
    node1(mw, "Identity", "a", "x1", "y");
    node1(mw, "Identity", "b", "x", "x1");
    osc_mw_output(mw, "y", OSC_FLOAT, -1, NULL, NULL);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "node 'a' (index 0, Identity) input 0 'x1'",
                "produced by node 'b' (index 1, Identity)", "does not come earlier");

    mw = base(); /* a node consuming its own output */
    node1(mw, "Identity", NULL, "c", "c");
    PARSE_FAILS(mw, OSC_ERR_MODEL, "node #0 Identity input 0 'c'",
                "produced by node #0 Identity");

    mw = base(); /* a two-node cycle */
    const char *ain[2] = {"x", "v2"}, *aout[1] = {"v1"};
    osc_mw_node(mw, "Add", "a", 2, ain, 1, aout);
    node1(mw, "Identity", "b", "v1", "v2");
    PARSE_FAILS(mw, OSC_ERR_MODEL, "node 'a' (index 0, Add) input 1 'v2'",
                "node 'b' (index 1, Identity)", "cycle");

    mw = base(); /* a value only declared (output / value_info) is not produced */
    osc_mw_value_info(mw, "vi", OSC_FLOAT, -1, NULL, NULL);
    node1(mw, "Identity", "a", "vi", "y");
    PARSE_FAILS(mw, OSC_ERR_MODEL, "input 0 'vi' is not produced");
}

static void test_two_producers(void **state) {
    (void)state;
    osc_mw *mw = base();
    node1(mw, "Identity", "a", "x", "y");
    node1(mw, "Neg", "b", "x", "y");
    PARSE_FAILS(mw, OSC_ERR_MODEL, "node 'b' (index 1, Neg) output 0 'y'",
                "already produced by node 'a' (index 0, Identity)");

    mw = base();
    node1(mw, "Identity", "a", "x", "x");
    PARSE_FAILS(mw, OSC_ERR_MODEL, "node 'a' (index 0, Identity) output 0 'x'",
                "already produced by graph input 'x'");

    mw = base();
    float f[2] = {0};
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = f, .nbytes = 8};
    osc_mw_initializer(mw, "w", &t);
    node1(mw, "Identity", "a", "x", "w");
    PARSE_FAILS(mw, OSC_ERR_MODEL, "output 0 'w'", "already produced by initializer 'w'");

    mw = base();
    const char *out[2] = {"y", "y"}, *in = "x";
    osc_mw_node(mw, "Split", "a", 1, &in, 2, out);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "node 'a' (index 0, Split) output 1 'y'",
                "already produced by node 'a'");
}

static void test_graph_lists(void **state) {
    (void)state;
    osc_mw *mw = base();
    osc_mw_output(mw, "ghost", OSC_FLOAT, -1, NULL, NULL);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "graph output 'ghost' is not produced");

    mw = base();
    int64_t d[1] = {2};
    osc_mw_input(mw, "x", OSC_FLOAT, 1, d, NULL);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "graph input 'x' is listed twice", "position 1");

    mw = base();
    float f[2] = {0};
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = f, .nbytes = 8};
    osc_mw_initializer(mw, "w", &t);
    osc_mw_initializer(mw, "w", &t);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "initializer 'w' is listed twice", "position 1");

    mw = base();
    osc_mw_output(mw, "x", OSC_FLOAT, -1, NULL, NULL);
    osc_mw_output(mw, "x", OSC_FLOAT, -1, NULL, NULL);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "graph output 'x' is listed twice");

    /* an initializer that defaults a graph input must fit its declared type */
    mw = base();
    int64_t iv[2] = {0};
    osc_tensor ti = {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = iv, .nbytes = 16};
    osc_mw_initializer(mw, "x", &ti);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "initializer 'x' (dtype 7 rank 1 [2])",
                "does not fit graph input 'x' (dtype 1 rank 1 [2]");
    mw = base();
    float f3[3] = {0};
    osc_tensor t3 = {.dtype = OSC_FLOAT, .rank = 1, .dims = {3}, .data = f3, .nbytes = 12};
    osc_mw_initializer(mw, "x", &t3);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "initializer 'x' (dtype 1 rank 1 [3])", "does not fit");

    /* a symbolic dim accepts any size; the default is recorded */
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    int64_t dn[1] = {-1};
    const char *nn[1] = {"N"};
    osc_mw_input(mw, "x", OSC_FLOAT, 1, dn, nn);
    osc_mw_initializer(mw, "x", &t3);
    osc_mw_output(mw, "x", 0, -1, NULL, NULL);
    lu_model m;
    lu_expect(lu_parse_mw(&m, mw), OSC_OK, m.err.msg, "");
    osc_mw_free(mw);
    const osc_value *v = &m.g.values[0];
    assert_true(v->is_input && v->is_output && v->init);
    assert_int_equal(v->decl.dims[0], -1);
    assert_string_equal(v->decl.dim_names[0], "N");
    lu_model_free(&m);
}

static void test_attributes(void **state) {
    (void)state;
    osc_mw *mw = base();
    int n = node1(mw, "Identity", "a", "x", "y");
    osc_mw_attr_int(mw, n, "axis", 1);
    osc_mw_attr_int(mw, n, "axis", 2);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "node 'a' (index 0, Identity) has attribute 'axis' twice");

    mw = base(); /* many attributes: the hashed duplicate check */
    n = node1(mw, "Identity", "a", "x", "y");
    char name[16];
    for (int i = 0; i < 40; i++) {
        snprintf(name, sizeof name, "a%d", i);
        osc_mw_attr_int(mw, n, name, i);
    }
    osc_mw_attr_int(mw, n, "a17", 0);
    PARSE_FAILS(mw, OSC_ERR_MODEL, "has attribute 'a17' twice");

    mw = base();
    n = node1(mw, "Identity", "a", "x", "y");
    for (int i = 0; i < 40; i++) {
        snprintf(name, sizeof name, "a%d", i);
        osc_mw_attr_int(mw, n, name, i);
    }
    lu_model m;
    lu_expect(lu_parse_mw(&m, mw), OSC_OK, m.err.msg, "");
    osc_mw_free(mw);
    assert_int_equal(m.g.nodes[0].n_attrs, 40);
    assert_int_equal(osc_node_attr(&m.g.nodes[0], "a39")->i, 39);
    lu_model_free(&m);
}

/* ---- protobuf-c built models: what the writer cannot express ---- */

typedef struct pc_graph {
    lu_mp mp;
    Onnx__ValueInfoProto vi;
    Onnx__ValueInfoProto *vis[1];
    Onnx__TypeProto type, inner;
    Onnx__TypeProto__Tensor tt;
    Onnx__TypeProto__Sequence seq;
    Onnx__TypeProto__Map map;
    Onnx__TypeProto__Optional opt;
    Onnx__TypeProto__SparseTensor sp;
    Onnx__TensorShapeProto shape;
    Onnx__TensorShapeProto__Dimension dim[40];
    Onnx__TensorShapeProto__Dimension *dims[40];
} pc_graph;

/* A model whose only graph input "v" has the type set up by the caller in pc->type. */
static void pc_init(pc_graph *pc) {
    memset(pc, 0, sizeof *pc);
    lu_mp_init(&pc->mp);
    onnx__value_info_proto__init(&pc->vi);
    onnx__type_proto__init(&pc->type);
    onnx__type_proto__init(&pc->inner);
    onnx__type_proto__tensor__init(&pc->tt);
    onnx__type_proto__sequence__init(&pc->seq);
    onnx__type_proto__map__init(&pc->map);
    onnx__type_proto__optional__init(&pc->opt);
    onnx__type_proto__sparse_tensor__init(&pc->sp);
    onnx__tensor_shape_proto__init(&pc->shape);
    for (int i = 0; i < 40; i++) {
        onnx__tensor_shape_proto__dimension__init(&pc->dim[i]);
        pc->dim[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
        pc->dim[i].dim_value = 1;
        pc->dims[i] = &pc->dim[i];
    }
    pc->vi.name = "v";
    pc->vi.type = &pc->type;
    pc->vis[0] = &pc->vi;
    pc->mp.graph.n_input = 1;
    pc->mp.graph.input = pc->vis;
    pc->inner.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    pc->inner.tensor_type = &pc->tt;
    pc->tt.has_elem_type = 1;
    pc->tt.elem_type = OSC_FLOAT;
}

static osc_status pc_parse(pc_graph *pc, lu_model *m) {
    size_t len;
    void *buf = lu_pack(&pc->mp.model.base, &len);
    osc_status st = lu_parse(m, buf, len, NULL);
    free(buf);
    return st;
}

/* The loaded value `name` carries no tensor type and its decl.non_tensor names `kind`. */
static void check_non_tensor(const lu_model *m, const char *name, const char *kind) {
    const osc_type *t = &m->g.values[lu_value(&m->g, name)].decl;
    if (!t->non_tensor || !strstr(t->non_tensor, kind))
        fail_msg("value '%s': decl.non_tensor is %s, want %s", name,
                 t->non_tensor ? t->non_tensor : "NULL", kind);
}

/* The loaded value `name` is declared the packed kind `dtype` (a sequence or an optional) with
 * items of `elem`. */
static void check_packed(const lu_model *m, const char *name, int32_t dtype, int32_t elem) {
    const osc_type *t = &m->g.values[lu_value(&m->g, name)].decl;
    if (t->non_tensor || t->dtype != dtype || t->elem != elem)
        fail_msg("value '%s': decl dtype %d elem %d non_tensor %s; want dtype %d elem %d", name,
                 (int)t->dtype, (int)t->elem, t->non_tensor ? t->non_tensor : "NULL",
                 (int)dtype, (int)elem);
}

/* Sequences and optionals load as their pseudo-dtypes. Other non-tensor types load too: the
 * kind is recorded on the value (the runtime refuses it after naming any unsupported op) and
 * the decl is otherwise unknown. */
static void test_non_tensor_types(void **state) {
    (void)state;
    pc_graph pc;
    lu_model m;
    pc_init(&pc);
    pc.type.value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
    pc.type.sequence_type = &pc.seq;
    pc.seq.elem_type = &pc.inner;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    check_packed(&m, "v", OSC_SEQUENCE, OSC_FLOAT);
    assert_true(m.g.values[lu_value(&m.g, "v")].is_input);
    lu_model_free(&m);

    pc.type.value_case = ONNX__TYPE_PROTO__VALUE_MAP_TYPE;
    pc.type.map_type = &pc.map;
    pc.map.has_key_type = 1, pc.map.key_type = OSC_INT64, pc.map.value_type = &pc.inner;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    check_non_tensor(&m, "v", "map");
    lu_model_free(&m);

    pc.type.value_case = ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE;
    pc.type.optional_type = &pc.opt;
    pc.opt.elem_type = &pc.inner;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    check_packed(&m, "v", OSC_OPTIONAL, OSC_FLOAT);
    lu_model_free(&m);

    pc.type.value_case = ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE;
    pc.type.sparse_tensor_type = &pc.sp;
    pc.sp.has_elem_type = 1, pc.sp.elem_type = OSC_FLOAT;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    check_non_tensor(&m, "v", "sparse tensor");
    check_type(&m.g.values[lu_value(&m.g, "v")].decl, 0, -1, NULL, NULL);
    lu_model_free(&m);

    /* a kind newer than this onnx.proto (opaque_type = 7) arrives as an unknown field */
    pc_init(&pc);
    uint8_t empty_len[1] = {0}; /* protobuf-c writes an unknown field's bytes after its tag */
    ProtobufCMessageUnknownField uf = {.tag = 7, .wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED,
                                       .len = 1, .data = empty_len};
    pc.type.base.n_unknown_fields = 1;
    pc.type.base.unknown_fields = &uf;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    check_non_tensor(&m, "v", "unknown");
    lu_model_free(&m);

    /* on a graph output and on value_info too: x (float tensor input) -> Identity -> v ->
     * Identity -> y (output). */
    Onnx__TypeProto map2, opt2;
    onnx__type_proto__init(&map2);
    onnx__type_proto__init(&opt2);
    Onnx__NodeProto n1, n2;
    onnx__node_proto__init(&n1);
    onnx__node_proto__init(&n2);
    char *in1[1] = {"x"}, *out1[1] = {"v"}, *in2[1] = {"v"}, *out2[1] = {"y"};
    n1.op_type = n2.op_type = "Identity";
    n1.n_input = n1.n_output = n2.n_input = n2.n_output = 1;
    n1.input = in1, n1.output = out1, n2.input = in2, n2.output = out2;
    Onnx__NodeProto *nodes[2] = {&n1, &n2};
    Onnx__ValueInfoProto xi, yo, vinfo[3];
    onnx__value_info_proto__init(&xi);
    onnx__value_info_proto__init(&yo);
    xi.name = "x", xi.type = &pc.inner; /* float tensor */
    yo.name = "y";
    Onnx__ValueInfoProto *ins[1] = {&xi}, *outs[1] = {&yo}, *vis[3] = {&vinfo[0], &vinfo[1],
                                                                      &vinfo[2]};
    for (int i = 0; i < 3; i++) onnx__value_info_proto__init(&vinfo[i]);

    pc_init(&pc);
    pc.type.value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
    pc.type.sequence_type = &pc.seq;
    pc.seq.elem_type = &pc.inner;
    pc.mp.graph.n_node = 2, pc.mp.graph.node = nodes;
    pc.mp.graph.n_input = 1, pc.mp.graph.input = ins;
    pc.mp.graph.n_output = 1, pc.mp.graph.output = outs;
    yo.type = &pc.type; /* graph output y: a sequence */
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    check_packed(&m, "y", OSC_SEQUENCE, OSC_FLOAT);
    assert_null(m.g.values[lu_value(&m.g, "x")].decl.non_tensor);
    assert_null(m.g.values[lu_value(&m.g, "v")].decl.non_tensor);
    lu_model_free(&m);

    /* graph output x, already declared a tensor by graph input x: the first declaration holds */
    yo.type = NULL;
    Onnx__ValueInfoProto xo = xi;
    xo.type = &pc.type;
    Onnx__ValueInfoProto *outs2[2] = {&yo, &xo};
    pc.mp.graph.n_output = 2, pc.mp.graph.output = outs2;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    assert_null(m.g.values[lu_value(&m.g, "x")].decl.non_tensor);
    assert_int_equal(m.g.values[lu_value(&m.g, "x")].decl.dtype, OSC_FLOAT);
    assert_null(m.g.values[lu_value(&m.g, "y")].decl.non_tensor);
    lu_model_free(&m);
    pc.mp.graph.n_output = 1, pc.mp.graph.output = outs;

    /* value_info: v (declared nowhere else) a map; x (a tensor graph input) an optional, and
     * y (already declared by the untyped output) a sequence, which the first declarations
     * override; an unused name is ignored */
    pc.map.has_key_type = 1, pc.map.key_type = OSC_INT64, pc.map.value_type = &pc.inner;
    map2.value_case = ONNX__TYPE_PROTO__VALUE_MAP_TYPE, map2.map_type = &pc.map;
    pc.opt.elem_type = &pc.inner;
    opt2.value_case = ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE, opt2.optional_type = &pc.opt;
    vinfo[0].name = "v", vinfo[0].type = &map2;
    vinfo[1].name = "x", vinfo[1].type = &opt2;
    vinfo[2].name = "y", vinfo[2].type = &pc.type;
    pc.mp.graph.n_value_info = 3, pc.mp.graph.value_info = vis;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    check_non_tensor(&m, "v", "map");
    check_type(&m.g.values[lu_value(&m.g, "v")].decl, 0, -1, NULL, NULL);
    assert_int_equal(m.g.values[lu_value(&m.g, "x")].decl.dtype, OSC_FLOAT);
    assert_int_equal(m.g.values[lu_value(&m.g, "y")].decl.dtype, 0);
    lu_model_free(&m);

    vinfo[0].name = "unused";
    pc.mp.graph.n_value_info = 1;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    assert_int_equal(m.g.n_values, 3); /* x, v, y */
    for (int32_t i = 0; i < m.g.n_values; i++) assert_null(m.g.values[i].decl.non_tensor);
    lu_model_free(&m);
}

static void test_bad_tensor_types(void **state) {
    (void)state;
    pc_graph pc;
    lu_model m;
    pc_init(&pc);
    pc.type.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    pc.type.tensor_type = &pc.tt;
    pc.tt.shape = &pc.shape;
    pc.shape.dim = pc.dims;
    pc.shape.n_dim = 33;
    lu_expect(pc_parse(&pc, &m), OSC_ERR_LIMIT, m.err.msg, "graph input 'v'", "rank 33", "32");
    lu_model_free(&m);

    pc.shape.n_dim = 3;
    pc.dim[1].dim_value = -3;
    lu_expect(pc_parse(&pc, &m), OSC_ERR_MODEL, m.err.msg, "graph input 'v' dim 1 is -3");
    lu_model_free(&m);

    pc.dim[1].dim_value = 4;
    pc.dim[2].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE__NOT_SET; /* neither */
    pc.tt.elem_type = 99;
    lu_expect(pc_parse(&pc, &m), OSC_ERR_MODEL, m.err.msg, "graph input 'v'",
              "unknown elem_type 99", "1..26");
    lu_model_free(&m);

    pc.tt.elem_type = OSC_UINT2;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    const osc_type *t = &m.g.values[0].decl;
    int64_t want[3] = {1, 4, -1};
    check_type(t, OSC_UINT2, 3, want, NULL);
    lu_model_free(&m);

    pc.type.tensor_type = NULL; /* a tensor type with nothing in it */
    pc.vi.type = NULL;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    check_type(&m.g.values[0].decl, 0, -1, NULL, NULL);
    lu_model_free(&m);

    Onnx__SparseTensorProto sp;
    onnx__sparse_tensor_proto__init(&sp);
    Onnx__SparseTensorProto *sps[1] = {&sp};
    pc.mp.graph.n_sparse_initializer = 1, pc.mp.graph.sparse_initializer = sps;
    lu_expect(pc_parse(&pc, &m), OSC_ERR_UNSUPPORTED, m.err.msg, "sparse initializer");
    lu_model_free(&m);
}

static void test_bad_attribute_protos(void **state) {
    (void)state;
    pc_graph pc;
    lu_model m;
    pc_init(&pc);
    pc.type.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    pc.type.tensor_type = &pc.tt;
    Onnx__NodeProto node;
    onnx__node_proto__init(&node);
    Onnx__NodeProto *nodes[1] = {&node};
    char *outs[1] = {"c"};
    node.name = "k", node.op_type = "Constant", node.n_output = 1, node.output = outs;
    Onnx__AttributeProto at;
    onnx__attribute_proto__init(&at);
    Onnx__AttributeProto *ats[1] = {&at};
    node.n_attribute = 1, node.attribute = ats;
    pc.mp.graph.n_node = 1, pc.mp.graph.node = nodes;
    at.name = "value", at.has_type = 1, at.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
    lu_expect(pc_parse(&pc, &m), OSC_ERR_MODEL, m.err.msg,
              "node 'k' (index 0, Constant) attribute 'value' has type TENSOR but no tensor");
    lu_model_free(&m);

    Onnx__TensorProto t;
    onnx__tensor_proto__init(&t); /* data_type missing */
    at.t = &t;
    lu_expect(pc_parse(&pc, &m), OSC_ERR_MODEL, m.err.msg,
              "node 'k' (index 0, Constant) attribute 'value'", "unknown dtype 0");
    lu_model_free(&m);

    at.t = NULL, at.name = NULL;
    at.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
    lu_expect(pc_parse(&pc, &m), OSC_ERR_MODEL, m.err.msg, "node 'k'", "without a name");
    lu_model_free(&m);

    at.name = "axis", at.ref_attr_name = "outer";
    lu_expect(pc_parse(&pc, &m), OSC_ERR_MODEL, m.err.msg, "attribute 'axis'", "'outer'",
              "inside a function");
    lu_model_free(&m);

    /* types the runtime does not read keep only their type */
    Onnx__GraphProto sub;
    onnx__graph_proto__init(&sub);
    at.ref_attr_name = NULL, at.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH, at.g = &sub;
    lu_expect(pc_parse(&pc, &m), OSC_OK, m.err.msg, "");
    assert_int_equal(m.g.nodes[0].attrs[0].type, OSC_ATTR_GRAPH);
    assert_int_equal(m.g.values[lu_value(&m.g, "c")].producer, 0);
    lu_model_free(&m);
}

/* ---- hostile bytes ---- */

static uint64_t read_varint(const uint8_t *b, size_t *p) {
    uint64_t v = 0;
    for (unsigned sh = 0;; sh += 7) {
        uint8_t x = b[(*p)++];
        v |= (uint64_t)(x & 0x7f) << sh;
        if (!(x & 0x80)) return v;
    }
}

static void test_truncated_and_garbage(void **state) {
    (void)state;
    osc_mw *mw = roundtrip_model();
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    /* Top-level field boundaries: a cut there leaves a shorter valid message (a model without
     * its graph or last opsets); a cut anywhere else is malformed. */
    bool boundary[4096] = {false};
    assert_true(len < sizeof boundary);
    const uint8_t *bytes = buf;
    for (size_t p = 0; p < len;) {
        boundary[p] = true;
        uint64_t tag = read_varint(bytes, &p), v = read_varint(bytes, &p); /* varint or LEN */
        if ((tag & 7) == 2) p += v;
    }
    lu_model m;
    for (size_t cut = 0; cut < len; cut++) {
        void *part = malloc(cut ? cut : 1); /* exact size, so ASan sees overreads */
        memcpy(part, buf, cut);
        osc_status st = lu_parse(&m, part, cut, NULL);
        bool ok = boundary[cut] && cut ? (st == OSC_OK || st == OSC_ERR_MODEL)
                                       : st == OSC_ERR_PARSE;
        if (!ok)
            fail_msg("cut at %zu of %zu%s: %s: %s", cut, len, boundary[cut] ? " (boundary)" : "",
                     osc_status_name(st), m.err.msg);
        lu_model_free(&m);
        free(part);
    }
    lu_expect(lu_parse(&m, buf, len - 1, NULL), OSC_ERR_PARSE, m.err.msg, "not a valid");
    lu_model_free(&m);
    lu_expect(lu_parse(&m, buf, 0, NULL), OSC_ERR_PARSE, m.err.msg, "empty");
    lu_model_free(&m);

    /* random bytes, and random corruption of a good model: never OK by accident, no crash */
    uint32_t seed = 12345;
    uint8_t *junk = malloc(len);
    for (int round = 0; round < 400; round++) {
        size_t n = 1 + (size_t)(round * 7) % len;
        if (round < 200) {
            for (size_t i = 0; i < n; i++) {
                seed = seed * 1103515245u + 12345u;
                junk[i] = (uint8_t)(seed >> 16);
            }
        } else {
            n = len;
            memcpy(junk, buf, len);
            for (int k = 0; k < 4; k++) {
                seed = seed * 1103515245u + 12345u;
                junk[(seed >> 8) % len] ^= (uint8_t)(seed >> 24 | 1);
            }
        }
        osc_status st = lu_parse(&m, junk, n, NULL);
        if (round < 200 && st == OSC_OK)
            fail_msg("random bytes parsed as a model (round %d)", round);
        if (st != OSC_OK && st != OSC_ERR_PARSE && st != OSC_ERR_MODEL && st != OSC_ERR_LIMIT &&
            st != OSC_ERR_UNSUPPORTED)
            fail_msg("round %d: %s: %s", round, osc_status_name(st), m.err.msg);
        assert_true(st == OSC_OK || m.err.msg[0]);
        lu_model_free(&m);
    }
    free(junk);
    free(buf);
}

/* Appends varint v to p. */
static size_t put_varint(uint8_t *p, uint64_t v) {
    size_t n = 0;
    do {
        p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return n;
}

/* A model whose input type nests `levels` sequence types: refused past 100 levels, before
 * protobuf-c's recursion could exhaust the stack. */
static osc_status nested_model(int levels, lu_model *m) {
    size_t cap = (size_t)levels * 32 + 64, n = 0;
    uint8_t *a = calloc(cap, 1), *b = calloc(cap, 1);
    /* innermost TypeProto: tensor_type {elem_type: 1} */
    static const uint8_t leaf[] = {0x0a, 0x02, 0x08, 0x01};
    memcpy(a, leaf, sizeof leaf);
    n = sizeof leaf;
    /* wrap: TypeProto{sequence_type(4): Sequence{elem_type(1): inner}} */
    for (int i = 0; i < levels; i++) {
        size_t k = 0;
        uint8_t hdr[24];
        size_t h = 0;
        hdr[h++] = 0x22; /* field 4, LEN */
        uint8_t seqhdr[12];
        size_t sh = 0;
        seqhdr[sh++] = 0x0a; /* field 1, LEN */
        sh += put_varint(seqhdr + sh, n);
        h += put_varint(hdr + h, sh + n);
        memcpy(b + k, hdr, h), k += h;
        memcpy(b + k, seqhdr, sh), k += sh;
        memcpy(b + k, a, n), k += n;
        uint8_t *t = a;
        a = b, b = t, n = k;
    }
    /* ValueInfo{name "v", type} -> Graph{input(11)} -> Model{graph(7), opset(8)} */
    uint8_t *out = calloc(cap + 64, 1);
    size_t k = 0;
    out[k++] = 0x42, out[k++] = 0x02, out[k++] = 0x10, out[k++] = 0x12; /* opset 18 */
    size_t vi_len = 3 + 1 + (size_t)put_varint((uint8_t[12]){0}, n) + n;
    size_t g_len = 1 + (size_t)put_varint((uint8_t[12]){0}, vi_len) + vi_len;
    out[k++] = 0x3a; /* graph */
    k += put_varint(out + k, g_len);
    out[k++] = 0x5a; /* input (11) */
    k += put_varint(out + k, vi_len);
    out[k++] = 0x0a, out[k++] = 0x01, out[k++] = 'v';
    out[k++] = 0x12; /* type (2) */
    k += put_varint(out + k, n);
    memcpy(out + k, a, n), k += n;
    osc_status st = lu_parse(m, out, k, NULL);
    free(out), free(a), free(b);
    return st;
}

static void test_nesting_bomb(void **state) {
    (void)state;
    lu_model m;
    lu_expect(nested_model(20, &m), OSC_OK, m.err.msg, ""); /* deep but within the limit */
    check_packed(&m, "v", OSC_SEQUENCE, OSC_SEQUENCE); /* sequences of sequences of ... */
    lu_model_free(&m);
    lu_expect(nested_model(5000, &m), OSC_ERR_LIMIT, m.err.msg, "deeper than 100");
    lu_model_free(&m);
}

/* Every allocation of a load fails in turn: each failure is reported as out of memory and
 * leaves nothing allocated once the pool is freed. */
static void test_allocation_failures(void **state) {
    (void)state;
    osc_mw *mw = roundtrip_model();
    void *buf;
    size_t len;
    assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
    osc_mw_free(mw);
    long fail_at = 0;
    for (;; fail_at++) {
        lu_track tr = {0, 0, 0, fail_at};
        osc_options o;
        osc_options_init(&o);
        o.alloc = lu_track_fn, o.alloc_ud = &tr;
        lu_model m;
        osc_status st = lu_parse_opts(&m, buf, len, NULL, &o);
        lu_model_free(&m);
        if (tr.cur != 0) fail_msg("fail_at %ld: %zu bytes leaked", fail_at, tr.cur);
        if (st == OSC_OK) break;
        if (st != OSC_ERR_NOMEM)
            fail_msg("fail_at %ld: %s: %s", fail_at, osc_status_name(st), m.err.msg);
        assert_non_null(strstr(m.err.msg, "out of memory"));
    }
    assert_true(fail_at > 10); /* the loop did walk through the load's allocations */

    /* a byte cap below the model's needs: a limit, named as such */
    osc_options o;
    osc_options_init(&o);
    o.max_bytes = 2048;
    lu_model m;
    lu_expect(lu_parse_opts(&m, buf, len, NULL, &o), OSC_ERR_LIMIT, m.err.msg, "byte cap",
              "2048");
    lu_model_free(&m);
    assert_int_equal(m.alloc.used, 0);
    free(buf);
}

/* A 10,000-node chain loads in well under a second (no quadratic name lookups), and so does
 * its reversed (invalid) order. */
static void test_long_chain(void **state) {
    (void)state;
    enum { N = 10000 };
    for (int reversed = 0; reversed < 2; reversed++) {
        osc_mw *mw = osc_mw_new(8);
        osc_mw_opset(mw, "", 18);
        int64_t d[1] = {1};
        osc_mw_input(mw, "v0", OSC_FLOAT, 1, d, NULL);
        char in[16], out[16];
        for (int k = 0; k < N; k++) {
            int i = reversed ? N - 1 - k : k;
            snprintf(in, sizeof in, "v%d", i);
            snprintf(out, sizeof out, "v%d", i + 1);
            node1(mw, "Identity", NULL, in, out);
        }
        snprintf(out, sizeof out, "v%d", N);
        osc_mw_output(mw, out, OSC_FLOAT, 1, d, NULL);
        void *buf;
        size_t len;
        assert_int_equal(osc_mw_serialize(mw, &buf, &len), OSC_OK);
        osc_mw_free(mw);
        lu_model m;
        clock_t t0 = clock();
        osc_status st = lu_parse(&m, buf, len, NULL);
        double sec = (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (reversed) {
            lu_expect(st, OSC_ERR_MODEL, m.err.msg, "node #0 Identity input 0 'v9999'",
                      "produced by node #1 Identity");
        } else {
            lu_expect(st, OSC_OK, m.err.msg, "");
            assert_int_equal(m.g.n_nodes, N);
            assert_int_equal(m.g.n_values, N + 1);
            assert_int_equal(m.g.values[m.g.nodes[N - 1].outputs[0]].producer, N - 1);
            assert_int_equal(m.g.nodes[N - 1].inputs[0], m.g.nodes[N - 2].outputs[0]);
        }
        if (sec > 1.0) fail_msg("loading a %d-node chain took %.2f s", N, sec);
        lu_model_free(&m);
        free(buf);
    }
}

/* ---- model files ---- */

static void test_read_file(void **state) {
    (void)state;
    char dir[256], p[512];
    lu_tmpdir(dir, sizeof dir);
    osc_allocator a;
    osc_err err;
    void *buf;
    size_t len;
    snprintf(p, sizeof p, "%s/f.bin", dir);
    lu_write_file(p, "hello", 5);
    lu_expect(lu_read(p, &a, &err, &buf, &len), OSC_OK, err.msg, "");
    assert_int_equal(len, 5);
    assert_memory_equal(buf, "hello", 5);
    osc_free(&a, buf, len);
    snprintf(p, sizeof p, "%s/empty.bin", dir);
    lu_write_file(p, "", 0);
    lu_expect(lu_read(p, &a, &err, &buf, &len), OSC_OK, err.msg, "");
    assert_int_equal(len, 0);
    assert_int_equal(a.used, 0);

    int fd = -1;
    uint64_t size = 7;
    snprintf(p, sizeof p, "%s/missing.onnx", dir);
    lu_expect(osc_open_file(p, &fd, &size, &err), OSC_ERR_IO, err.msg, p, "No such file");
    osc_err_clear(&err);
    lu_expect(osc_open_file(dir, &fd, &size, &err), OSC_ERR_IO, err.msg, dir, "directory");
    assert_int_equal(fd, -1);
    assert_int_equal(size, 7);
    lu_rmtree(dir);
}

OSC_TEST_MAIN(NULL, NULL,
    cmocka_unit_test(test_writer_roundtrip),
    cmocka_unit_test(test_writer_errors),
    cmocka_unit_test(test_missing_parts),
    cmocka_unit_test(test_unproduced_inputs),
    cmocka_unit_test(test_two_producers),
    cmocka_unit_test(test_graph_lists),
    cmocka_unit_test(test_attributes),
    cmocka_unit_test(test_non_tensor_types),
    cmocka_unit_test(test_bad_tensor_types),
    cmocka_unit_test(test_bad_attribute_protos),
    cmocka_unit_test(test_truncated_and_garbage),
    cmocka_unit_test(test_nesting_bomb),
    cmocka_unit_test(test_allocation_failures),
    cmocka_unit_test(test_long_chain),
    cmocka_unit_test(test_read_file),
)
