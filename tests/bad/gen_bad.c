/* gen_bad.c: writes the malformed-model suite: one folder per case under OUT holding model.onnx,
 * the inputs of cases that reach the run (test_data_set_0/input_K.pb, bound in graph-input order),
 * external data files where the case needs them, and `expect` ("STATUS STAGE": what loading and
 * running it must give); plus OUT/MANIFEST.md, the list with the reason of each case.
 * The committed tests/bad/cases is this program's output (ctest bad_up_to_date checks it).
 * Usage: osc-gen-bad OUT */
#define _XOPEN_SOURCE 700 /* symlink, mkdir */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/support/testutil.h"
#include "onnx.pb-c.h"
#include "onnx_scatter.h"
#include "tests/bad/gen_bad.h"

/* ---- memory: one bump arena for the whole program (nothing is freed, nothing leaks) ---- */

static unsigned char *g_arena;
static size_t g_used, g_cap;

void *A(size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (g_used + n > g_cap) {
        fprintf(stderr, "gen_bad: arena exhausted\n");
        exit(1);
    }
    void *p = g_arena + g_used;
    g_used += n;
    memset(p, 0, n);
    return p;
}

char *S(const char *s) {
    char *r = A(strlen(s) + 1);
    memcpy(r, s, strlen(s));
    return r;
}

char *F(const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return S(buf);
}

/* Appends item to a protobuf-c repeated field of pointers (*arr, *n). The array grows to the
 * next power of two when n reaches one, so its capacity is always at least n rounded up (also
 * after a case lowers n to drop entries). */
#define PUSH(arr, n, item)                                                    \
    do {                                                                      \
        if (((n) & ((n) - 1)) == 0) {                                         \
            void **na_ = A(((n) ? 2 * (n) : 1) * sizeof(void *));             \
            if (n) memcpy(na_, (arr), (n) * sizeof(void *));                  \
            (arr) = (void *)na_;                                              \
        }                                                                     \
        ((void **)(arr))[(n)] = (item);                                       \
        (n)++;                                                                \
    } while (0)

/* ---- builders over the generated onnx.proto structs ---- */

Onnx__ModelProto *model(int64_t opset) {
    Onnx__ModelProto *m = A(sizeof *m);
    onnx__model_proto__init(m);
    m->has_ir_version = 1;
    m->ir_version = 8;
    m->producer_name = S("gen_bad");
    if (opset > 0) {
        Onnx__OperatorSetIdProto *o = A(sizeof *o);
        onnx__operator_set_id_proto__init(o);
        o->domain = S("");
        o->has_version = 1;
        o->version = opset;
        PUSH(m->opset_import, m->n_opset_import, o);
    }
    Onnx__GraphProto *g = A(sizeof *g);
    onnx__graph_proto__init(g);
    g->name = S("g");
    m->graph = g;
    return m;
}

/* The dim_params of symbolic dims: dims[i] == -1 is "N", -2 "E", -3 "E2". */
static const char *const k_syms[3] = {"N", "E", "E2"};

/* A tensor-typed ValueInfoProto: rank -1 writes no shape; a negative dims[i] is symbolic
 * (k_syms). */
static Onnx__ValueInfoProto *vi(const char *name, int32_t dtype, int rank, const int64_t *dims) {
    Onnx__ValueInfoProto *v = A(sizeof *v);
    onnx__value_info_proto__init(v);
    v->name = S(name);
    Onnx__TypeProto *t = A(sizeof *t);
    onnx__type_proto__init(t);
    Onnx__TypeProto__Tensor *tt = A(sizeof *tt);
    onnx__type_proto__tensor__init(tt);
    tt->has_elem_type = 1;
    tt->elem_type = dtype;
    if (rank >= 0) {
        Onnx__TensorShapeProto *sh = A(sizeof *sh);
        onnx__tensor_shape_proto__init(sh);
        for (int i = 0; i < rank; i++) {
            Onnx__TensorShapeProto__Dimension *d = A(sizeof *d);
            onnx__tensor_shape_proto__dimension__init(d);
            if (dims[i] < 0) {
                d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
                d->dim_param = S(k_syms[-dims[i] - 1]);
            } else {
                d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
                d->dim_value = dims[i];
            }
            PUSH(sh->dim, sh->n_dim, d);
        }
        tt->shape = sh;
    }
    t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    t->tensor_type = tt;
    v->type = t;
    return v;
}

void input(Onnx__ModelProto *m, const char *name, int32_t dtype, int rank,
           const int64_t *dims) {
    PUSH(m->graph->input, m->graph->n_input, vi(name, dtype, rank, dims));
}

void output(Onnx__ModelProto *m, const char *name, int32_t dtype, int rank,
            const int64_t *dims) {
    PUSH(m->graph->output, m->graph->n_output, vi(name, dtype, rank, dims));
}

/* A TensorProto with raw_data (string_data for strings: `raw` is then an array of C strings). */
Onnx__TensorProto *tensor(const char *name, int32_t dtype, int rank, const int64_t *dims,
                          const void *raw, size_t raw_len) {
    Onnx__TensorProto *t = A(sizeof *t);
    onnx__tensor_proto__init(t);
    if (name) t->name = S(name);
    t->has_data_type = 1;
    t->data_type = dtype;
    t->n_dims = (size_t)rank;
    t->dims = A((size_t)(rank + 1) * sizeof *t->dims);
    if (rank > 0) memcpy(t->dims, dims, (size_t)rank * sizeof *dims);
    if (dtype == OSC_STRING) {
        const char *const *strs = raw;
        t->n_string_data = raw_len;
        t->string_data = A((raw_len + 1) * sizeof *t->string_data);
        for (size_t i = 0; i < raw_len; i++) {
            t->string_data[i].len = strlen(strs[i]);
            t->string_data[i].data = (uint8_t *)S(strs[i]);
        }
    } else {
        t->has_raw_data = 1;
        t->raw_data.len = raw_len;
        t->raw_data.data = A(raw_len + 1);
        if (raw_len) memcpy(t->raw_data.data, raw, raw_len);
    }
    return t;
}

Onnx__TensorProto *init(Onnx__ModelProto *m, Onnx__TensorProto *t) {
    PUSH(m->graph->initializer, m->graph->n_initializer, t);
    return t;
}

Onnx__NodeProto *node(Onnx__ModelProto *m, const char *op, const char *name, int nin,
                      const char *const *ins, int nout, const char *const *outs) {
    Onnx__NodeProto *n = A(sizeof *n);
    onnx__node_proto__init(n);
    n->op_type = S(op);
    if (name) n->name = S(name);
    for (int i = 0; i < nin; i++) PUSH(n->input, n->n_input, S(ins[i]));
    for (int i = 0; i < nout; i++) PUSH(n->output, n->n_output, S(outs[i]));
    PUSH(m->graph->node, m->graph->n_node, n);
    return n;
}

static Onnx__AttributeProto *attr(Onnx__NodeProto *n, const char *name, int type) {
    Onnx__AttributeProto *a = A(sizeof *a);
    onnx__attribute_proto__init(a);
    a->name = S(name);
    a->has_type = 1;
    a->type = type;
    PUSH(n->attribute, n->n_attribute, a);
    return a;
}

void attr_i(Onnx__NodeProto *n, const char *name, int64_t v) {
    Onnx__AttributeProto *a = attr(n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    a->has_i = 1;
    a->i = v;
}

void attr_g(Onnx__NodeProto *n, const char *name, Onnx__ModelProto *sub) {
    Onnx__AttributeProto *a = attr(n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH);
    a->g = sub->graph;
}

void attr_ints(Onnx__NodeProto *n, const char *name, int count, const int64_t *v) {
    Onnx__AttributeProto *a = attr(n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
    a->n_ints = (size_t)count;
    a->ints = A((size_t)count * sizeof *a->ints + 1);
    memcpy(a->ints, v, (size_t)count * sizeof *v);
}

void attr_s(Onnx__NodeProto *n, const char *name, const char *v) {
    Onnx__AttributeProto *a = attr(n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    a->has_s = 1;
    a->s.len = strlen(v);
    a->s.data = (uint8_t *)S(v);
}

/* Makes t's payload external: location (and offset/length when not NULL). */
static void external(Onnx__TensorProto *t, const char *loc, const char *off, const char *len) {
    const char *keys[3] = {"location", "offset", "length"}, *vals[3] = {loc, off, len};
    t->has_raw_data = 0;
    t->raw_data.len = 0;
    t->has_data_location = 1;
    t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    for (int i = 0; i < 3; i++) {
        if (!vals[i]) continue;
        Onnx__StringStringEntryProto *kv = A(sizeof *kv);
        onnx__string_string_entry_proto__init(kv);
        kv->key = S(keys[i]);
        kv->value = S(vals[i]);
        PUSH(t->external_data, t->n_external_data, kv);
    }
}

static uint8_t *pack(const ProtobufCMessage *msg, size_t *len) {
    *len = protobuf_c_message_get_packed_size(msg);
    uint8_t *buf = A(*len + 1);
    protobuf_c_message_pack(msg, buf);
    return buf;
}

/* ---- raw wire bytes, for what the structs cannot say (a length past the end) ---- */

typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;

static bytes cat(bytes a, bytes b) {
    bytes r = {A(a.n + b.n + 1), a.n + b.n};
    memcpy(r.p, a.p, a.n);
    memcpy(r.p + a.n, b.p, b.n);
    return r;
}

static bytes varint(uint64_t v) {
    bytes r = {A(10), 0};
    do {
        r.p[r.n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return r;
}

/* A length-delimited field: tag, the length, the payload. */
static bytes ld(unsigned field, bytes payload) {
    return cat(cat(varint(field << 3 | 2), varint(payload.n)), payload);
}

static bytes raw(const void *p, size_t n) {
    bytes r = {A(n + 1), n};
    memcpy(r.p, p, n);
    return r;
}

/* ---- output ---- */

static const char *g_out;
static FILE *g_manifest;
static int g_count;

static void write_file(const char *path, const void *p, size_t n) {
    if (!osc_test_write_file(NULL, path, p, n, "gen_bad")) exit(1);
}

static char *case_dir(const char *name) {
    char *dir = F("%s/%s", g_out, name);
    mkdir(dir, 0755);
    return dir;
}


/* The texts the next case's error message must hold ('\n' between them), fused and unfused
 * (test_bad.c's `message` and `message_unfused`); emit writes them and clears them. */
static const char *g_msg, *g_msg_unfused;

void expect_msg(const char *fused, const char *unfused) {
    g_msg = fused;
    g_msg_unfused = unfused;
}

/* Writes case `name`: model bytes (NULL: a symlink to link, a model of tests/models), its
 * inputs, `expect`, the expected message texts and a MANIFEST line. stage is "load" (the load
 * fails, or for OK a load without inputs to run) or "run" (load succeeds, the run gives status). */
void emit_at(const char *name, const void *model_bytes, size_t len, const char *link,
             const char *status, const char *stage, const char *why, int n_in,
             const tin *ins) {
    char *dir = case_dir(name);
    if (model_bytes || !link) {
        write_file(F("%s/model.onnx", dir), model_bytes, len);
    } else {
        char *path = F("%s/model.onnx", dir);
        remove(path);
        if (symlink(link, path) != 0) {
            fprintf(stderr, "gen_bad: cannot create %s\n", path);
            exit(1);
        }
    }
    const char *texts[2] = {g_msg, g_msg_unfused}, *files[2] = {"message", "message_unfused"};
    for (int i = 0; i < 2; i++)
        if (texts[i]) {
            char *line = A(strlen(texts[i]) + 2);
            memcpy(line, texts[i], strlen(texts[i]));
            line[strlen(texts[i])] = '\n';
            write_file(F("%s/%s", dir, files[i]), line, strlen(texts[i]) + 1);
        }
    g_msg = g_msg_unfused = NULL;
    if (n_in) mkdir(F("%s/test_data_set_0", dir), 0755);
    for (int i = 0; i < n_in; i++) {
        Onnx__TensorProto *t =
            tensor(F("input_%d", i), ins[i].dtype, ins[i].rank, ins[i].dims, ins[i].data,
                   ins[i].nbytes);
        size_t n;
        uint8_t *p = pack(&t->base, &n);
        write_file(F("%s/test_data_set_0/input_%d.pb", dir, i), p, n);
    }
    write_file(F("%s/expect", dir), F("%s %s\n", status, stage),
               strlen(status) + strlen(stage) + 2);
    fprintf(g_manifest, "| `%s` | %s | %s | %s |\n", name, status, stage, why);
    g_count++;
}

static void emit(const char *name, const void *model_bytes, size_t len, const char *status,
                 const char *stage, const char *why, int n_in, const tin *ins) {
    emit_at(name, model_bytes, len, NULL, status, stage, why, n_in, ins);
}

void emit_model(const char *name, Onnx__ModelProto *m, const char *status,
                const char *stage, const char *why, int n_in, const tin *ins) {
    size_t n;
    uint8_t *p = pack(&m->base, &n);
    emit(name, p, n, status, stage, why, n_in, ins);
}

/* ---- the cases ---- */

static const int64_t d1[1] = {1}, d2[1] = {2}, d3[1] = {3}, d4[1] = {4}, d16[1] = {16};

/* ScatterElements over float data[4] with indices[3] (int64) and updates[3], all graph inputs. */
static Onnx__ModelProto *scatter_elements(int64_t opset, int32_t idx_dtype, const char *reduction) {
    Onnx__ModelProto *m = model(opset);
    input(m, "data", OSC_FLOAT, 1, d4);
    input(m, "indices", idx_dtype, 1, d3);
    input(m, "updates", OSC_FLOAT, 1, d3);
    const char *in[3] = {"data", "indices", "updates"}, *out[1] = {"y"};
    Onnx__NodeProto *n = node(m, "ScatterElements", "scatter", 3, in, 1, out);
    if (reduction) attr_s(n, "reduction", reduction);
    output(m, "y", OSC_FLOAT, 1, d4);
    return m;
}

static const float k_data[4] = {1, 2, 3, 4}, k_upd[3] = {10, 20, 30};

static void index_case(const char *name, const char *why, int64_t first, int64_t last) {
    int64_t idx[3] = {first, 1, last};
    tin ins[3] = {{OSC_FLOAT, 1, {4}, k_data, sizeof k_data},
                  {OSC_INT64, 1, {3}, idx, sizeof idx},
                  {OSC_FLOAT, 1, {3}, k_upd, sizeof k_upd}};
    emit_model(name, scatter_elements(18, OSC_INT64, NULL), "OSC_ERR_INDEX", "run", why, 3, ins);
}

static void index_case32(const char *name, const char *why, int32_t first, int32_t last) {
    int32_t idx[3] = {first, 1, last};
    tin ins[3] = {{OSC_FLOAT, 1, {4}, k_data, sizeof k_data},
                  {OSC_INT32, 1, {3}, idx, sizeof idx},
                  {OSC_FLOAT, 1, {3}, k_upd, sizeof k_upd}};
    emit_model(name, scatter_elements(18, OSC_INT32, NULL), "OSC_ERR_INDEX", "run", why, 3, ins);
}

static void parse_cases(void) {
    emit("empty_file", "", 0, "OSC_ERR_PARSE", "load", "zero bytes", 0, NULL);
    uint8_t rnd[256];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof rnd; i++) {
        x = x * 1103515245u + 12345u;
        rnd[i] = (uint8_t)(x >> 16);
    }
    emit("random_bytes", rnd, sizeof rnd, "OSC_ERR_PARSE", "load", "256 pseudo-random bytes",
         0, NULL);
    const char *text = "ir_version: 8\nopset_import { version: 18 }\ngraph { name: \"g\" }\n";
    emit("text_file", text, strlen(text), "OSC_ERR_PARSE", "load",
         "the protobuf text format, not the binary one", 0, NULL);
    size_t n;
    uint8_t *good = pack(&scatter_elements(18, OSC_INT64, NULL)->base, &n);
    size_t cuts[4] = {1, n / 4, n / 2, n - 1};
    const char *where[4] = {"after 1 byte", "at a quarter", "at half", "1 byte short"};
    for (int i = 0; i < 4; i++)
        emit(F("truncated_%zu_of_%zu", cuts[i], n), good, cuts[i], "OSC_ERR_PARSE", "load",
             F("a valid ScatterElements model cut %s", where[i]), 0, NULL);
    /* nesting: 200 levels of GraphProto.node -> NodeProto.attribute -> AttributeProto.g ... */
    bytes b = {A(1), 0};
    for (int i = 0; i < 200; i++) b = ld(1, ld(5, ld(6, b))); /* graph.node.attribute.g */
    emit("nesting_600_deep", cat(raw("\x08\x08", 2), ld(7, b)).p, 2 + ld(7, b).n,
         "OSC_ERR_LIMIT", "load", "messages nested 600 levels deep (the guard stops at 100)", 0,
         NULL);
    /* a string_data element claiming 2^40 bytes */
    bytes t = cat(cat(raw("\x08\x01\x10\x08", 4), varint(6 << 3 | 2)), varint((uint64_t)1 << 40));
    t = cat(t, raw("abcd", 4));
    bytes g = ld(5, t); /* graph.initializer */
    bytes mb = cat(cat(raw("\x08\x08", 2), ld(7, g)), ld(8, raw("\x10\x12", 2)));
    emit("huge_claimed_string", mb.p, mb.n, "OSC_ERR_PARSE", "load",
         "a string_data element whose length says 2^40 bytes", 0, NULL);
    bytes big = cat(raw("\x08\x01\x10\x01", 4), cat(varint(9 << 3 | 2), varint(UINT64_MAX)));
    mb = cat(cat(raw("\x08\x08", 2), ld(7, ld(5, big))), ld(8, raw("\x10\x12", 2)));
    emit("huge_claimed_raw_data", mb.p, mb.n, "OSC_ERR_PARSE", "load",
         "raw_data whose length varint is 2^64-1", 0, NULL);
}

static void structure_cases(void) {
    Onnx__ModelProto *m = model(18);
    m->graph = NULL;
    emit_model("no_graph", m, "OSC_ERR_MODEL", "load", "ModelProto without a graph", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->n_opset_import = 0;
    emit_model("no_opset_import", m, "OSC_ERR_MODEL", "load", "no opset_import entry", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->node[0]->op_type = S("FooBar");
    emit_model("unknown_op", m, "OSC_ERR_UNSUPPORTED", "load", "op FooBar", 0, NULL);
    m = model(10);
    input(m, "data", OSC_FLOAT, 1, d4);
    input(m, "indices", OSC_INT64, 2, (const int64_t[]){1, 1});
    input(m, "updates", OSC_FLOAT, 1, d1);
    node(m, "ScatterND", "s", 3, (const char *[]){"data", "indices", "updates"}, 1,
         (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, 1, d4);
    emit_model("opset_too_old", m, "OSC_ERR_UNSUPPORTED", "load",
               "ScatterND at opset 10 (it exists from 11)", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->node[0]->n_input = 2;
    emit_model("missing_required_input", m, "OSC_ERR_MODEL", "load",
               "ScatterElements with 2 of its 3 inputs", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->node[0]->input[1] = S("nowhere");
    emit_model("dangling_input", m, "OSC_ERR_MODEL", "load",
               "a node input no graph input, initializer or node produces", 0, NULL);
    m = model(18);
    input(m, "x", OSC_FLOAT, 1, d2);
    node(m, "Add", "a", 2, (const char *[]){"x", "b_out"}, 1, (const char *[]){"a_out"});
    node(m, "Add", "b", 2, (const char *[]){"x", "a_out"}, 1, (const char *[]){"b_out"});
    output(m, "b_out", OSC_FLOAT, 1, d2);
    emit_model("two_node_cycle", m, "OSC_ERR_MODEL", "load", "a reads b's output, b reads a's",
               0, NULL);
    m = model(18);
    input(m, "x", OSC_FLOAT, 1, d2);
    node(m, "Neg", "a", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    node(m, "Abs", "b", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, 1, d2);
    emit_model("duplicate_output_names", m, "OSC_ERR_MODEL", "load", "two nodes produce 'y'", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    output(m, "z", OSC_FLOAT, 1, d4);
    emit_model("output_never_produced", m, "OSC_ERR_MODEL", "load",
               "graph output 'z' that nothing produces", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->output[0]->type->tensor_type->elem_type = OSC_INT32;
    emit_model("output_declared_wrong", m, "OSC_ERR_SHAPE", "load",
               "graph output declared int32, computed float", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->input[2]->type->value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
    m->graph->input[2]->type->sequence_type = A(sizeof(Onnx__TypeProto__Sequence));
    onnx__type_proto__sequence__init(m->graph->input[2]->type->sequence_type);
    emit_model("sequence_input", m, "OSC_ERR_SHAPE", "load",
               "a graph input of sequence type given as a scatter's updates", 0, NULL);
    m = model(18);
    input(m, "x", OSC_FLOAT, 1, d2);
    input(m, "i", OSC_INT64, 1, d2);
    node(m, "SequenceConstruct", "seq", 2, (const char *[]){"x", "i"}, 1,
         (const char *[]){"s"});
    output(m, "s", OSC_FLOAT, 1, d2);
    m->graph->output[0]->type->value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
    m->graph->output[0]->type->sequence_type = A(sizeof(Onnx__TypeProto__Sequence));
    onnx__type_proto__sequence__init(m->graph->output[0]->type->sequence_type);
    emit_model("sequence_mixed_dtypes", m, "OSC_ERR_SHAPE", "load",
               "a SequenceConstruct of a float and an int64 tensor (a sequence holds one dtype)",
               0, NULL);
}

/* Structural faults the loader and the dispatcher name, each on the ScatterElements model. */
static void more_structure_cases(void) {
    Onnx__ModelProto *m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->node[0]->input[1] = S("");
    emit_model("required_input_empty_name", m, "OSC_ERR_MODEL", "load",
               "ScatterElements inputs ['data', '', 'updates']: a required input left empty", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->node[0]->output[0] = S("");
    m->graph->n_output = 0;
    emit_model("output_empty_name", m, "OSC_ERR_MODEL", "load", "the node's output named ''", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->node[0]->domain = S("com.example");
    emit_model("domain_not_imported", m, "OSC_ERR_MODEL", "load",
               "a node of domain com.example, which opset_import does not list", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->node[0]->domain = S("com.example");
    Onnx__OperatorSetIdProto *o = A(sizeof *o);
    onnx__operator_set_id_proto__init(o);
    o->domain = S("com.example");
    o->has_version = 1;
    o->version = 1;
    PUSH(m->opset_import, m->n_opset_import, o);
    emit_model("custom_domain_op", m, "OSC_ERR_UNSUPPORTED", "load",
               "ScatterElements in domain com.example (imported): no kernel", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->opset_import[0]->version = 0;
    emit_model("opset_version_0", m, "OSC_ERR_MODEL", "load", "opset_import version 0", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    PUSH(m->opset_import, m->n_opset_import, m->opset_import[0]);
    emit_model("opset_domain_twice", m, "OSC_ERR_MODEL", "load",
               "opset_import lists the default domain twice", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->node[0]->op_type = S("");
    emit_model("node_without_op_type", m, "OSC_ERR_MODEL", "load", "op_type ''", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->input[1]->name = S("");
    emit_model("input_without_name", m, "OSC_ERR_MODEL", "load", "a graph input named ''", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    PUSH(m->graph->input, m->graph->n_input, m->graph->input[0]);
    emit_model("input_listed_twice", m, "OSC_ERR_MODEL", "load", "graph input 'data' twice", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    PUSH(m->graph->output, m->graph->n_output, m->graph->output[0]);
    emit_model("output_listed_twice", m, "OSC_ERR_MODEL", "load", "graph output 'y' twice", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->output[0]->name = S("");
    emit_model("output_without_name", m, "OSC_ERR_MODEL", "load", "a graph output named ''", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    node(m, "Neg", "n", 1, (const char *[]){"data"}, 1, (const char *[]){"updates"});
    emit_model("node_output_is_graph_input", m, "OSC_ERR_MODEL", "load",
               "a node writes 'updates', a graph input", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->input[0]->type->tensor_type->elem_type = 99;
    emit_model("input_elem_type_99", m, "OSC_ERR_MODEL", "load", "graph input elem_type 99", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    PUSH(m->graph->value_info, m->graph->n_value_info, vi("y", 77, 1, d4));
    emit_model("value_info_elem_type_77", m, "OSC_ERR_MODEL", "load", "value_info elem_type 77",
               0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->node[0]->attribute = NULL;
    attr_s(m->graph->node[0], "reduction", "add");
    attr_s(m->graph->node[0], "reduction", "mul");
    emit_model("attribute_twice", m, "OSC_ERR_MODEL", "load", "attribute 'reduction' twice", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    attr_i(m->graph->node[0], "", 0);
    emit_model("attribute_without_name", m, "OSC_ERR_MODEL", "load", "an attribute named ''", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    attr_i(m->graph->node[0], "axis", 0);
    m->graph->node[0]->attribute[0]->ref_attr_name = S("outer_axis");
    emit_model("attribute_ref_outside_function", m, "OSC_ERR_MODEL", "load",
               "attribute 'axis' refers to a function attribute outside a function", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    attr(m->graph->node[0], "axis", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    emit_model("attribute_tensor_missing", m, "OSC_ERR_MODEL", "load",
               "attribute of type TENSOR without a tensor", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    attr_s(m->graph->node[0], "axis", "0");
    emit_model("attribute_wrong_type", m, "OSC_ERR_MODEL", "load", "axis given as a string", 0,
               NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    Onnx__SparseTensorProto *sp = A(sizeof *sp);
    onnx__sparse_tensor_proto__init(sp);
    PUSH(m->graph->sparse_initializer, m->graph->n_sparse_initializer, sp);
    emit_model("sparse_initializer", m, "OSC_ERR_UNSUPPORTED", "load", "a sparse initializer", 0,
               NULL);
    /* 1000 Scatter-11 nodes: each deprecated op is a warning; strict mode refuses the first */
    m = model(11);
    input(m, "x0", OSC_FLOAT, 1, d4);
    input(m, "i", OSC_INT64, 1, d1);
    input(m, "u", OSC_FLOAT, 1, d1);
    for (int k = 0; k < 1000; k++)
        node(m, "Scatter", NULL, 3, (const char *[]){F("x%d", k), "i", "u"}, 1,
             (const char *[]){F("x%d", k + 1)});
    output(m, "x1000", OSC_FLOAT, 1, d4);
    float x[4] = {1, 2, 3, 4}, u[1] = {5};
    int64_t i1[1] = {-1};
    tin ins[3] = {{OSC_FLOAT, 1, {4}, x, sizeof x},
                  {OSC_INT64, 1, {1}, i1, sizeof i1},
                  {OSC_FLOAT, 1, {1}, u, sizeof u}};
    emit_model("deprecated_1000_warnings", m, "OSC_OK", "run",
               "1000 deprecated Scatter-11 nodes: 1000 warnings kept, runs", 3, ins);
}

static void index_cases(void) {
    index_case("index_last_past_end", "indices [0, 1, 4] on an axis of 4: last position", 0, 4);
    index_case("index_first_past_end", "indices [4, 1, 0]: first position", 4, 0);
    index_case("index_first_below", "indices [-5, 1, 0]: below -size, first position", -5, 0);
    index_case("index_last_below", "indices [0, 1, -5]: below -size, last position", 0, -5);
    index_case("index_int64_max", "INT64_MAX", 0, INT64_MAX);
    index_case("index_int64_min", "INT64_MIN (negating it overflows)", INT64_MIN, 0);
    index_case32("index_int32_max", "int32 indices, INT32_MAX", 0, INT32_MAX);
    index_case32("index_int32_min", "int32 indices, INT32_MIN", INT32_MIN, 0);
    /* the edges that are valid: -size and size - 1 */
    int64_t ok_idx[3] = {-4, 1, 3};
    float y[4];
    (void)y;
    tin ins[3] = {{OSC_FLOAT, 1, {4}, k_data, sizeof k_data},
                  {OSC_INT64, 1, {3}, ok_idx, sizeof ok_idx},
                  {OSC_FLOAT, 1, {3}, k_upd, sizeof k_upd}};
    emit_model("index_edges_valid", scatter_elements(18, OSC_INT64, NULL), "OSC_OK", "run",
               "indices [-4, 1, 3]: the first and last valid values", 3, ins);

    /* ScatterND: an index tuple past the end */
    Onnx__ModelProto *m = model(18);
    input(m, "data", OSC_FLOAT, 2, (const int64_t[]){2, 2});
    input(m, "indices", OSC_INT64, 2, (const int64_t[]){2, 2});
    input(m, "updates", OSC_FLOAT, 1, d2);
    node(m, "ScatterND", "s", 3, (const char *[]){"data", "indices", "updates"}, 1,
         (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, 2, (const int64_t[]){2, 2});
    int64_t nd_idx[4] = {0, 0, 1, 2};
    float nd_data[4] = {1, 2, 3, 4}, nd_upd[2] = {5, 6};
    tin nd[3] = {{OSC_FLOAT, 2, {2, 2}, nd_data, sizeof nd_data},
                 {OSC_INT64, 2, {2, 2}, nd_idx, sizeof nd_idx},
                 {OSC_FLOAT, 1, {2}, nd_upd, sizeof nd_upd}};
    emit_model("scatter_nd_index_past_end", m, "OSC_ERR_INDEX", "run",
               "ScatterND tuple (1, 2) on a 2x2 tensor, last position", 3, nd);
    /* GatherND, GatherElements */
    m = model(13);
    input(m, "data", OSC_FLOAT, 2, (const int64_t[]){2, 2});
    input(m, "indices", OSC_INT64, 2, (const int64_t[]){1, 2});
    node(m, "GatherND", "g", 2, (const char *[]){"data", "indices"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, 1, d1);
    int64_t gnd_idx[2] = {-3, 0};
    tin gnd[2] = {{OSC_FLOAT, 2, {2, 2}, nd_data, sizeof nd_data},
                  {OSC_INT64, 2, {1, 2}, gnd_idx, sizeof gnd_idx}};
    emit_model("gather_nd_index_below", m, "OSC_ERR_INDEX", "run", "GatherND tuple (-3, 0) on 2x2",
               2, gnd);
    m = model(13);
    input(m, "data", OSC_FLOAT, 1, d4);
    input(m, "indices", OSC_INT32, 1, d2);
    node(m, "GatherElements", "g", 2, (const char *[]){"data", "indices"}, 1,
         (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, 1, d2);
    int32_t ge_idx[2] = {0, INT32_MIN};
    tin ge[2] = {{OSC_FLOAT, 1, {4}, k_data, sizeof k_data},
                 {OSC_INT32, 1, {2}, ge_idx, sizeof ge_idx}};
    emit_model("gather_elements_int32_min", m, "OSC_ERR_INDEX", "run",
               "GatherElements int32 index INT32_MIN, last position", 2, ge);
    /* TensorScatter: write index past max_sequence_length - sequence_length */
    m = model(24);
    input(m, "past", OSC_FLOAT, 3, (const int64_t[]){1, 4, 1});
    input(m, "update", OSC_FLOAT, 3, (const int64_t[]){1, 2, 1});
    input(m, "write_indices", OSC_INT64, 1, d1);
    Onnx__NodeProto *ts = node(m, "TensorScatter", "t", 3,
                               (const char *[]){"past", "update", "write_indices"}, 1,
                               (const char *[]){"y"});
    attr_i(ts, "axis", 1);
    output(m, "y", OSC_FLOAT, 3, (const int64_t[]){1, 4, 1});
    int64_t wi[1] = {3};
    float past[4] = {1, 2, 3, 4}, upd[2] = {5, 6};
    tin tsi[3] = {{OSC_FLOAT, 3, {1, 4, 1}, past, sizeof past},
                  {OSC_FLOAT, 3, {1, 2, 1}, upd, sizeof upd},
                  {OSC_INT64, 1, {1}, wi, sizeof wi}};
    emit_model("tensor_scatter_write_past_end", m, "OSC_ERR_INDEX", "run",
               "TensorScatter linear, write index 3 + 2 updates > 4", 3, tsi);
    /* A zero-element cache whose other dims multiply past 2^63: folded at load (constant
     * inputs), so even `info` runs the kernel; products of dims must wait for the emptiness
     * test (a UBSan abort before). */
    const int64_t big = (int64_t)1 << 62;
    m = model(24);
    init(m, tensor("past", OSC_FLOAT, 3, (const int64_t[]){0, big, big}, NULL, 0));
    init(m, tensor("update", OSC_FLOAT, 3, (const int64_t[]){0, 2, big}, NULL, 0));
    attr_i(node(m, "TensorScatter", "t", 2, (const char *[]){"past", "update"}, 1,
                (const char *[]){"y"}),
           "axis", 1);
    output(m, "y", OSC_FLOAT, 3, (const int64_t[]){0, big, big});
    emit_model("tensor_scatter_empty_huge_dims", m, "OSC_OK", "load",
               "TensorScatter of a [0, 2^62, 2^62] cache folded at load: an empty output", 0,
               NULL);
}

static void attr_shape_cases(void) {
    Onnx__ModelProto *m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->input[2]->type->tensor_type->shape->dim[0]->dim_value = 2;
    emit_model("shape_updates_vs_indices", m, "OSC_ERR_SHAPE", "load",
               "updates [2] but indices [3] (static shapes: checked at load)", 0, NULL);
    /* the same mismatch with a symbolic dim: found when the inputs are bound */
    m = model(18);
    input(m, "data", OSC_FLOAT, 1, d4);
    input(m, "indices", OSC_INT64, 1, (const int64_t[]){-1});
    input(m, "updates", OSC_FLOAT, 1, (const int64_t[]){-1});
    node(m, "ScatterElements", "scatter", 3, (const char *[]){"data", "indices", "updates"}, 1,
         (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, 1, d4);
    int64_t idx3[3] = {0, 1, 2};
    float upd2[2] = {5, 6};
    tin sm[3] = {{OSC_FLOAT, 1, {4}, k_data, sizeof k_data},
                 {OSC_INT64, 1, {3}, idx3, sizeof idx3},
                 {OSC_FLOAT, 1, {2}, upd2, sizeof upd2}};
    emit_model("shape_mismatch_at_run", m, "OSC_ERR_SHAPE", "run",
               "indices [N=3] and updates [N=2] bound to one symbolic dim", 3, sm);
    m = model(18);
    input(m, "data", OSC_FLOAT, 2, (const int64_t[]){2, 2});
    input(m, "indices", OSC_INT64, 2, (const int64_t[]){1, 1});
    input(m, "updates", OSC_FLOAT, 1, d3);
    node(m, "ScatterND", "s", 3, (const char *[]){"data", "indices", "updates"}, 1,
         (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, 2, (const int64_t[]){2, 2});
    emit_model("scatter_nd_updates_shape", m, "OSC_ERR_SHAPE", "load",
               "ScatterND updates [3]; expected [1, 2]", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    attr_i(m->graph->node[0], "axis", 1);
    emit_model("axis_out_of_range", m, "OSC_ERR_MODEL", "load", "axis 1 on rank-1 data", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    attr_i(m->graph->node[0], "axis", INT64_MIN);
    emit_model("axis_int64_min", m, "OSC_ERR_MODEL", "load", "axis INT64_MIN", 0, NULL);
    emit_model("bad_reduction_string", scatter_elements(18, OSC_INT64, "sum"), "OSC_ERR_MODEL",
               "load", "reduction 'sum'", 0, NULL);
    emit_model("reduction_empty_string", scatter_elements(18, OSC_INT64, ""), "OSC_ERR_MODEL",
               "load", "reduction ''", 0, NULL);
    emit_model("reduction_before_16", scatter_elements(13, OSC_INT64, "add"), "OSC_ERR_MODEL",
               "load", "reduction 'add' at opset 13 (the attribute exists from 16)", 0, NULL);
    emit_model("reduction_max_at_16", scatter_elements(16, OSC_INT64, "max"),
               "OSC_ERR_UNSUPPORTED", "load",
               "reduction 'max' at opset 16 (added in 18: a later version has it)", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    attr_i(m->graph->node[0], "axes", 0);
    emit_model("unknown_attribute", m, "OSC_ERR_MODEL", "load", "attribute 'axes'", 0, NULL);
    /* max/min on complex: a reduction of its own (issue #2); defined from opset 18 */
    for (int k = 0; k < 2; k++) {
        int64_t opset = k ? 18 : 16;
        m = model(opset);
        input(m, "data", OSC_COMPLEX64, 1, d2);
        input(m, "indices", OSC_INT64, 1, d2);
        input(m, "updates", OSC_COMPLEX64, 1, d2);
        Onnx__NodeProto *n = node(m, "ScatterElements", "scatter", 3,
                                  (const char *[]){"data", "indices", "updates"}, 1,
                                  (const char *[]){"y"});
        attr_s(n, "reduction", "max");
        output(m, "y", OSC_COMPLEX64, 1, d2);
        float c_data[4] = {1, 2, 3, 4}, c_upd[4] = {1, 3, 2, 0};
        int64_t c_idx[2] = {0, 0};
        tin ci[3] = {{OSC_COMPLEX64, 1, {2}, c_data, sizeof c_data},
                     {OSC_INT64, 1, {2}, c_idx, sizeof c_idx},
                     {OSC_COMPLEX64, 1, {2}, c_upd, sizeof c_upd}};
        if (!k)
            emit_model("complex_max_opset16", m, "OSC_ERR_UNSUPPORTED", "load",
                       "reduction 'max' on complex64 at opset 16: max is not allowed before 18",
                       0, NULL);
        else
            emit_model("complex_max_opset18", m, "OSC_OK", "run",
                       "reduction 'max' on complex64 at opset 18: defined (lexicographic on (re, "
                       "im), NaN wins; issue #2), so it runs", 3, ci);
    }
    m = scatter_elements(18, OSC_FLOAT, NULL);
    emit_model("float_indices", m, "OSC_ERR_SHAPE", "load", "indices of dtype float", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->input[2]->type->tensor_type->elem_type = OSC_DOUBLE;
    emit_model("updates_dtype_differs", m, "OSC_ERR_SHAPE", "load", "float data, double updates",
               0, NULL);
}

static void tensor_cases(void) {
    /* initializers with bad payloads: indices given as an initializer */
    struct {
        const char *name, *status, *why;
        int32_t dtype;
        int rank;
        int64_t dims[2];
        size_t raw;
    } bad[] = {
        {"payload_too_short", "OSC_ERR_MODEL", "int64 indices [3] with 23 raw bytes", OSC_INT64, 1,
         {3, 0}, 23},
        {"payload_too_long", "OSC_ERR_MODEL", "int64 indices [3] with 25 raw bytes", OSC_INT64, 1,
         {3, 0}, 25},
        {"negative_dim_initializer", "OSC_ERR_MODEL", "initializer dims [-3]", OSC_INT64, 1,
         {-3, 0}, 24},
        {"overflowing_dims", "OSC_ERR_MODEL", "initializer dims [2^40, 2^40]: the count overflows",
         OSC_INT64, 2, {(int64_t)1 << 40, (int64_t)1 << 40}, 24},
        {"claims_1e12_elements", "OSC_ERR_MODEL",
         "initializer dims [10^6, 10^6] with 24 bytes: refused before allocating", OSC_INT64, 2,
         {1000000, 1000000}, 24},
        {"data_type_0", "OSC_ERR_MODEL", "initializer data_type 0 (undefined)", 0, 1, {3, 0}, 24},
        {"data_type_99", "OSC_ERR_MODEL", "initializer data_type 99", 99, 1, {3, 0}, 24},
    };
    uint8_t zeros[32] = {0};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Onnx__ModelProto *m = scatter_elements(18, OSC_INT64, NULL);
        init(m, tensor("indices", bad[i].dtype, bad[i].rank, bad[i].dims, zeros, bad[i].raw));
        m->graph->input[1] = m->graph->input[2]; /* indices is no longer a graph input */
        m->graph->n_input = 2;
        emit_model(bad[i].name, m, bad[i].status, "load", bad[i].why, 0, NULL);
    }
    /* payload encodings: two fields, the wrong typed field, values out of the element's range */
    struct {
        const char *name, *why;
        int32_t dtype;
        int field; /* 4 float_data, 5 int32_data, 7 int64_data, 11 uint64_data, 9 raw + 7 */
        int64_t v;
    } enc[] = {
        {"payload_two_fields", "int64 indices in raw_data and int64_data", OSC_INT64, 9, 0},
        {"payload_wrong_field", "int64 indices in float_data", OSC_INT64, 4, 0},
        {"int32_data_out_of_int8", "int8 initializer with int32_data 300", OSC_INT8, 5, 300},
        {"int32_data_out_of_uint16", "uint16 initializer with int32_data -1", OSC_UINT16, 5, -1},
        {"uint64_data_out_of_uint32", "uint32 initializer with uint64_data 2^32", OSC_UINT32, 11,
         (int64_t)1 << 32},
        {"int32_data_bool_2", "bool initializer with int32_data 2", OSC_BOOL, 5, 2},
        {"string_in_raw_data", "string initializer given as raw_data", OSC_STRING, 9, 0},
        {"typed_count_short", "int64 [3] with 2 int64_data values", OSC_INT64, 7, 0},
    };
    for (size_t i = 0; i < sizeof enc / sizeof enc[0]; i++) {
        Onnx__ModelProto *m = model(18);
        Onnx__TensorProto *t = init(m, tensor("w", enc[i].dtype == OSC_STRING ? OSC_INT8
                                                                               : enc[i].dtype,
                                              1, d3, zeros, enc[i].field == 9 ? 24 : 0));
        t->data_type = enc[i].dtype;
        if (enc[i].field != 9 || i == 0) t->has_raw_data = i == 0;
        if (enc[i].field == 4) {
            t->n_float_data = 3;
            t->float_data = A(3 * sizeof(float));
        } else if (enc[i].field == 5) {
            t->n_int32_data = 3;
            t->int32_data = A(3 * sizeof(int32_t));
            t->int32_data[2] = (int32_t)enc[i].v;
        } else if (enc[i].field == 11) {
            t->n_uint64_data = 3;
            t->uint64_data = A(3 * sizeof(uint64_t));
            t->uint64_data[1] = (uint64_t)enc[i].v;
        } else if (enc[i].field == 7 || i == 0) {
            t->n_int64_data = i == 0 ? 3 : 2;
            t->int64_data = A(3 * sizeof(int64_t));
        }
        if (enc[i].dtype == OSC_STRING) {
            t->has_raw_data = 1;
            t->raw_data.len = 3;
        }
        node(m, "Identity", "i", 1, (const char *[]){"w"}, 1, (const char *[]){"y"});
        output(m, "y", enc[i].dtype, -1, NULL);
        emit_model(enc[i].name, m, "OSC_ERR_MODEL", "load", enc[i].why, 0, NULL);
    }
    Onnx__ModelProto *m = model(18);
    init(m, tensor("w", OSC_FLOAT, 1, d1, zeros, 4))->segment =
        A(sizeof(Onnx__TensorProto__Segment));
    onnx__tensor_proto__segment__init(m->graph->initializer[0]->segment);
    node(m, "Identity", "i", 1, (const char *[]){"w"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    emit_model("segmented_tensor", m, "OSC_ERR_UNSUPPORTED", "load", "a TensorProto segment", 0,
               NULL);
    m = model(18);
    init(m, tensor("", OSC_FLOAT, 1, d1, zeros, 4));
    input(m, "x", OSC_FLOAT, 1, d1);
    node(m, "Identity", "i", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    emit_model("initializer_without_name", m, "OSC_ERR_MODEL", "load", "an initializer named ''",
               0, NULL);
    m = model(18);
    init(m, tensor("x", OSC_FLOAT, 1, d1, zeros, 4));
    init(m, tensor("x", OSC_FLOAT, 1, d1, zeros, 4));
    node(m, "Identity", "i", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    emit_model("initializer_twice", m, "OSC_ERR_MODEL", "load", "initializer 'x' twice", 0, NULL);
    m = model(18);
    input(m, "x", OSC_FLOAT, 1, d2);
    init(m, tensor("x", OSC_FLOAT, 1, d1, zeros, 4));
    node(m, "Identity", "i", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    emit_model("default_does_not_fit", m, "OSC_ERR_MODEL", "load",
               "graph input x float [2] with an initializer (default) of shape [1]", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    m->graph->input[0]->type->tensor_type->shape->dim[0]->dim_value = -4;
    emit_model("negative_dim_input", m, "OSC_ERR_MODEL", "load", "graph input dim -4", 0, NULL);
    m = scatter_elements(18, OSC_INT64, NULL);
    init(m, tensor("bools", OSC_BOOL, 1, d2, "\x01\x02", 2));
    emit_model("bool_value_2", m, "OSC_ERR_MODEL", "load", "a bool initializer holding 2", 0, NULL);
    /* rank 100: over OSC_MAX_RANK (32); refused cleanly at load */
    int64_t ones[100];
    for (int i = 0; i < 100; i++) ones[i] = 1;
    m = model(18);
    input(m, "x", OSC_FLOAT, 100, ones);
    node(m, "Identity", "i", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    emit_model("rank_100_input", m, "OSC_ERR_LIMIT", "load", "a graph input of rank 100", 0, NULL);
    m = model(18);
    init(m, tensor("x", OSC_FLOAT, 100, ones, zeros, 4));
    node(m, "Identity", "i", 1, (const char *[]){"x"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    emit_model("rank_100_initializer", m, "OSC_ERR_LIMIT", "load", "an initializer of rank 100", 0,
               NULL);
    /* a 10^12-element intermediate: ConstantOfShape of a constant shape */
    m = model(18);
    int64_t shape[2] = {1000000, 1000000};
    init(m, tensor("shape", OSC_INT64, 1, d2, shape, sizeof shape));
    node(m, "ConstantOfShape", "c", 1, (const char *[]){"shape"}, 1, (const char *[]){"big"});
    node(m, "ReduceSum", "r", 1, (const char *[]){"big"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    emit_model("intermediate_1e12_elements", m, "OSC_ERR_LIMIT", "load",
               "ConstantOfShape [10^6, 10^6] feeding ReduceSum: 4 TB, over the byte cap before "
               "anything is allocated", 0, NULL);
    /* a dim product that overflows int64 in shape inference */
    m = model(18);
    int64_t huge[3] = {(int64_t)1 << 31, (int64_t)1 << 31, (int64_t)1 << 31};
    init(m, tensor("shape", OSC_INT64, 1, d3, huge, sizeof huge));
    node(m, "ConstantOfShape", "c", 1, (const char *[]){"shape"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    emit_model("inferred_dims_overflow", m, "OSC_ERR_LIMIT", "load",
               "ConstantOfShape [2^31, 2^31, 2^31]: the element count overflows int64", 0, NULL);
    /* a string initializer longer than the element count says */
    m = model(18);
    const char *strs[2] = {"a", "b"};
    init(m, tensor("s", OSC_STRING, 1, d3, strs, 2));
    node(m, "Identity", "i", 1, (const char *[]){"s"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_STRING, -1, NULL);
    emit_model("string_count_mismatch", m, "OSC_ERR_MODEL", "load",
               "string initializer [3] with 2 string_data values", 0, NULL);
}

/* ---- the gather-scatter fusion pattern (rewrite/gather_scatter.c), malformed around the pass ---- */

/* What to change in the GCN-layer model of fused_model. */
typedef struct fuse_opts {
    bool src_init;      /* src is an initializer holding src_init_v, not a graph input */
    int64_t src_init_v[3];
    bool nd;            /* ScatterND with dst Unsqueezed to [E, 1] (an initializer: nd_dst) */
    int64_t nd_dst[3];
    int64_t shape[2];   /* the Expand's shape; {0, 0}: the updates' [3, 2] */
    int src_rank;       /* 2: src is [3, 1] */
    int32_t data_dtype; /* 0: float */
    bool no_edges;      /* E = 0 instead of 3 */
    bool tiled;         /* msg = Relu(Gather * w): a tiled scatter (ops/fused/fused_tiled.h) */
} fuse_opts;

/* y = ScatterElements(zeros [4, 2], Expand(Unsqueeze(dst, [1]), [E, 2]),
 *                     Gather(x [3, 2], src) * w [E, 1], reduction add): a GCN layer, which the
 * fusion pass turns into one GatherScatter node. Graph inputs x, src (unless an initializer),
 * dst (unless ScatterND's indices are an initializer), w. */
static Onnx__ModelProto *fused_model(const fuse_opts *o) {
    static const float zeros[8] = {0};
    static const double dzeros[8] = {0};
    const int64_t e = o->no_edges ? 0 : 3, de[1] = {e}, ed[2] = {e, 1}, xd[2] = {3, 2};
    const int64_t sd[2] = {e, 1}, nd[2] = {4, 2};
    Onnx__ModelProto *m = model(18);
    input(m, "x", OSC_FLOAT, 2, xd);
    if (o->src_init) init(m, tensor("src", OSC_INT64, 1, de, o->src_init_v, (size_t)e * 8));
    else input(m, "src", OSC_INT64, o->src_rank == 2 ? 2 : 1, o->src_rank == 2 ? sd : de);
    if (o->nd) init(m, tensor("dst", OSC_INT64, 1, de, o->nd_dst, (size_t)e * 8));
    else input(m, "dst", OSC_INT64, 1, de);
    input(m, "w", OSC_FLOAT, 2, ed);
    const int32_t dt = o->data_dtype ? o->data_dtype : OSC_FLOAT;
    init(m, tensor("zeros", dt, 2, nd, dt == OSC_DOUBLE ? (const void *)dzeros : zeros,
                   dt == OSC_DOUBLE ? sizeof dzeros : sizeof zeros));
    init(m, tensor("axes", OSC_INT64, 1, d1, (const int64_t[]){1}, 8));
    const int64_t shape[2] = {o->shape[0] ? o->shape[0] : e, o->shape[0] ? o->shape[1] : 2};
    init(m, tensor("shape", OSC_INT64, 1, d2, shape, sizeof shape));
    node(m, "Unsqueeze", "unsqueeze", 2, (const char *[]){"dst", "axes"}, 1,
         (const char *[]){"dst_col"});
    node(m, "Gather", "gather", 2, (const char *[]){"x", "src"}, 1, (const char *[]){"g"});
    node(m, "Mul", "mul", 2, (const char *[]){"g", "w"}, 1,
         (const char *[]){o->tiled ? "prod" : "msg"});
    if (o->tiled) node(m, "Relu", "relu", 1, (const char *[]){"prod"}, 1, (const char *[]){"msg"});
    Onnx__NodeProto *n;
    if (o->nd) {
        n = node(m, "ScatterND", "scatter", 3, (const char *[]){"zeros", "dst_col", "msg"}, 1,
                 (const char *[]){"y"});
    } else {
        node(m, "Expand", "expand", 2, (const char *[]){"dst_col", "shape"}, 1,
             (const char *[]){"idx"});
        n = node(m, "ScatterElements", "scatter", 3, (const char *[]){"zeros", "idx", "msg"}, 1,
                 (const char *[]){"y"});
    }
    attr_s(n, "reduction", "add");
    output(m, "y", dt, 2, nd);
    return m;
}

static const float k_fx[6] = {1, 2, 3, 4, 5, 6}, k_fw[3] = {0.5f, 2, -1};

/* The fused GCN layer run with src and dst given (graph inputs x, src, dst, w). */
static void fused_run_case(const char *name, const char *status, const char *why,
                           const int64_t *src, const int64_t *dst, bool tiled) {
    fuse_opts o = {.tiled = tiled};
    tin ins[4] = {{OSC_FLOAT, 2, {3, 2}, k_fx, sizeof k_fx}, {OSC_INT64, 1, {3}, src, 24},
                  {OSC_INT64, 1, {3}, dst, 24}, {OSC_FLOAT, 2, {3, 1}, k_fw, sizeof k_fw}};
    emit_model(name, fused_model(&o), status, "run", why, 4, ins);
}

static void fusion_cases(void) {
    static const int64_t ok[3] = {0, 2, 1}, neg[3] = {-3, 0, -1};
    fused_run_case("fused_gcn_valid", "OSC_OK", "the fused GCN layer (control): src [0, 2, 1], "
                   "dst [0, 2, 1]", ok, ok, false);
    fused_run_case("fused_gcn_negative_valid", "OSC_OK", "the fused GCN layer, src [-3, 0, -1], "
                   "dst [-3, 0, -1]: the lowest valid values", neg, neg, false);
    fused_run_case("fused_dst_past_end", "OSC_ERR_INDEX", "fused GCN layer, dst [0, 2, 4] on 4 "
                   "rows: the destination past the end, last position", ok,
                   (const int64_t[]){0, 2, 4}, false);
    fused_run_case("fused_dst_below", "OSC_ERR_INDEX", "fused GCN layer, dst [-5, 0, 1] on 4 "
                   "rows: below -rows, first position", ok, (const int64_t[]){-5, 0, 1}, false);
    fused_run_case("fused_dst_int64_min", "OSC_ERR_INDEX", "fused GCN layer, dst INT64_MIN "
                   "(negating it overflows)", ok, (const int64_t[]){0, INT64_MIN, 1}, false);
    fused_run_case("fused_src_past_end", "OSC_ERR_INDEX", "fused GCN layer, src [0, 3, 1] on 3 "
                   "rows of x: the fused Gather's index past the end", (const int64_t[]){0, 3, 1},
                   ok, false);
    fused_run_case("fused_src_int64_max", "OSC_ERR_INDEX", "fused GCN layer, src INT64_MAX",
                   (const int64_t[]){0, 1, INT64_MAX}, ok, false);
    /* a Relu after the Mul: the Gather, Mul and Relu run tiled into the scatter */
    fused_run_case("fused_tiled_valid", "OSC_OK", "the GCN layer with a Relu on the messages, "
                   "tiled (control): src [-3, 0, -1], dst [0, 2, 1]", neg, ok, true);
    fused_run_case("fused_tiled_src_past_end", "OSC_ERR_INDEX", "tiled GCN layer with a Relu, "
                   "src [0, 3, 1] on 3 rows of x: the tiled Gather's index past the end",
                   (const int64_t[]){0, 3, 1}, ok, true);
    fused_run_case("fused_tiled_dst_int64_min", "OSC_ERR_INDEX", "tiled GCN layer with a Relu, "
                   "dst INT64_MIN", ok, (const int64_t[]){0, INT64_MIN, 1}, true);
    /* an initializer index: the Gather's src (the Gather still runs, so it fuses) */
    fuse_opts o = {.src_init = true, .src_init_v = {0, 1, -4}};
    tin ins[3] = {{OSC_FLOAT, 2, {3, 2}, k_fx, sizeof k_fx}, {OSC_INT64, 1, {3}, ok, 24},
                  {OSC_FLOAT, 2, {3, 1}, k_fw, sizeof k_fw}};
    emit_model("fused_src_initializer_below", fused_model(&o), "OSC_ERR_INDEX", "run",
               "fused GCN layer whose Gather index is an initializer [0, 1, -4] on 3 rows", 3,
               ins);
    /* ScatterND: indices Unsqueeze(an initializer), folded at load; the Gather chain fuses */
    o = (fuse_opts){.nd = true, .nd_dst = {1, 4, 0}};
    tin nd_ins[3] = {{OSC_FLOAT, 2, {3, 2}, k_fx, sizeof k_fx}, {OSC_INT64, 1, {3}, ok, 24},
                     {OSC_FLOAT, 2, {3, 1}, k_fw, sizeof k_fw}};
    emit_model("fused_scatter_nd_initializer_past_end", fused_model(&o), "OSC_ERR_INDEX", "run",
               "fused ScatterND GCN layer whose indices are Unsqueeze(initializer [1, 4, 0]) on 4 "
               "rows", 3, nd_ins);
    o = (fuse_opts){.nd = true, .nd_dst = {1, 3, -4}};
    emit_model("fused_scatter_nd_initializer_valid", fused_model(&o), "OSC_OK", "run",
               "fused ScatterND GCN layer, indices Unsqueeze(initializer [1, 3, -4]) (control)",
               3, nd_ins);
    /* shapes that do not fit: refused at load, before the pass sees them */
    o = (fuse_opts){.shape = {3, 1}};
    emit_model("fused_expand_shape_mismatch", fused_model(&o), "OSC_ERR_SHAPE", "load",
               "fused GCN layer whose Expand makes [3, 1] indices for [3, 2] updates", 0, NULL);
    o = (fuse_opts){.shape = {2, 3}};
    emit_model("fused_expand_shape_not_broadcast", fused_model(&o), "OSC_ERR_SHAPE", "load",
               "fused GCN layer whose Expand shape [2, 3] does not broadcast with [3, 1]", 0, NULL);
    o = (fuse_opts){.src_rank = 2};
    emit_model("fused_gather_index_rank_2", fused_model(&o), "OSC_ERR_SHAPE", "load",
               "fused GCN layer whose Gather index is [3, 1]: the updates become [3, 3, 2]", 0,
               NULL);
    o = (fuse_opts){.data_dtype = OSC_DOUBLE};
    emit_model("fused_data_double_updates_float", fused_model(&o), "OSC_ERR_SHAPE", "load",
               "fused GCN layer with double zeros and float messages", 0, NULL);
    /* no edges: the pass leaves the graph as it is; the output is the zeros */
    o = (fuse_opts){.no_edges = true};
    tin none[4] = {{OSC_FLOAT, 2, {3, 2}, k_fx, sizeof k_fx}, {OSC_INT64, 1, {0}, ok, 0},
                   {OSC_INT64, 1, {0}, ok, 0}, {OSC_FLOAT, 2, {0, 1}, k_fw, 0}};
    emit_model("fused_pattern_no_edges", fused_model(&o), "OSC_OK", "run",
               "the GCN layer with 0 edges: not fused (nothing to walk), runs", 4, none);
}

static void chain_case(void) {
    /* 10,000 Neg nodes (an even count: y == x): must load and run, fast */
    enum { N = 10000 };
    Onnx__ModelProto *m = model(18);
    input(m, "x", OSC_FLOAT, 1, d2);
    char prev[16] = "x", cur[16];
    for (int i = 0; i < N; i++) {
        snprintf(cur, sizeof cur, i == N - 1 ? "y" : "%x", i);
        node(m, "Neg", NULL, 1, (const char *[]){prev}, 1, (const char *[]){cur});
        memcpy(prev, cur, sizeof prev);
    }
    output(m, "y", OSC_FLOAT, 1, d2);
    float x[2] = {1, 2};
    tin in[1] = {{OSC_FLOAT, 1, {2}, x, sizeof x}};
    emit_model("chain_10000_nodes", m, "OSC_OK", "run", "10,000 Neg nodes in a chain", 1, in);
}

static void external_cases(void) {
    struct {
        const char *name, *loc, *off, *len, *status, *why;
    } ext[] = {
        {"ext_absolute", "/etc/passwd", NULL, NULL, "OSC_ERR_MODEL", "location /etc/passwd"},
        {"ext_dotdot", "../_outside/secret.bin", NULL, NULL, "OSC_ERR_MODEL",
         "location ../_outside/secret.bin leaves the model's folder"},
        {"ext_dotdot_inner", "sub/../../_outside/secret.bin", NULL, NULL, "OSC_ERR_MODEL",
         "location sub/../../_outside/secret.bin"},
        {"ext_symlink_out", "link.bin", NULL, NULL, "OSC_ERR_MODEL",
         "location link.bin, a symlink to ../_outside/secret.bin"},
        {"ext_missing_file", "missing.bin", NULL, NULL, "OSC_ERR_IO", "location missing.bin"},
        {"ext_past_end", "data.bin", "8", "16", "OSC_ERR_MODEL",
         "offset 8 + length 16 in a 16-byte file"},
        {"ext_offset_past_end", "data.bin", "100", NULL, "OSC_ERR_MODEL",
         "offset 100 in a 16-byte file"},
        {"ext_offset_overflow", "data.bin", "9223372036854775800", "16", "OSC_ERR_MODEL",
         "offset + length overflows int64"},
        {"ext_offset_too_big", "data.bin", "99999999999999999999", "16", "OSC_ERR_MODEL",
         "offset over INT64_MAX"},
        {"ext_offset_negative", "data.bin", "-8", "16", "OSC_ERR_MODEL", "offset -8"},
        {"ext_length_not_number", "data.bin", "0", "16x", "OSC_ERR_MODEL", "length '16x'"},
        {"ext_length_wrong", "data.bin", "0", "8", "OSC_ERR_MODEL",
         "length 8 for a 16-byte tensor"},
        {"ext_directory", "sub", NULL, NULL, "OSC_ERR_IO", "location names a folder"},
        {"ext_no_location", NULL, "0", "16", "OSC_ERR_MODEL", "no location key"},
        {"ext_valid", "data.bin", "0", "16", "OSC_OK", "a valid external initializer (control)"},
        {"ext_location_twice", "data.bin", "0", "16", "OSC_ERR_MODEL", "key 'location' twice"},
        {"ext_location_too_long", "LONG", NULL, NULL, "OSC_ERR_MODEL",
         "a location of 5000 characters (over PATH_MAX with the folder)"},
        {"ext_dotted_valid", "./sub/.././data.bin", NULL, NULL, "OSC_OK",
         "location ./sub/.././data.bin stays inside: valid"},
        {"ext_location_no_value", "data.bin", "0", "16", "OSC_ERR_MODEL",
         "a 'location' entry without a value, and an entry without a key"},
        {"ext_and_raw_data", "data.bin", "0", "16", "OSC_ERR_MODEL",
         "external data and raw_data both given"},
    };
    mkdir(F("%s/_outside", g_out), 0755);
    write_file(F("%s/_outside/secret.bin", g_out), "0123456789abcdef", 16);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        Onnx__ModelProto *m = model(18);
        Onnx__TensorProto *t = init(m, tensor("w", OSC_FLOAT, 1, d4, NULL, 0));
        char *loc = (char *)ext[i].loc;
        if (loc && strcmp(loc, "LONG") == 0) {
            loc = A(5001);
            memset(loc, 'a', 5000);
        }
        external(t, loc, ext[i].off, ext[i].len);
        if (strcmp(ext[i].name, "ext_location_twice") == 0)
            PUSH(t->external_data, t->n_external_data, t->external_data[0]);
        if (strcmp(ext[i].name, "ext_and_raw_data") == 0) t->has_raw_data = 1;
        if (strcmp(ext[i].name, "ext_location_no_value") == 0) {
            t->external_data[0]->value = NULL; /* location present, value absent */
            Onnx__StringStringEntryProto *kv = A(sizeof *kv);
            onnx__string_string_entry_proto__init(kv); /* neither key nor value */
            PUSH(t->external_data, t->n_external_data, kv);
        }
        node(m, "Identity", "i", 1, (const char *[]){"w"}, 1, (const char *[]){"y"});
        output(m, "y", OSC_FLOAT, 1, d4);
        char *dir = case_dir(ext[i].name);
        float w[4] = {1, 2, 3, 4};
        write_file(F("%s/data.bin", dir), w, sizeof w);
        mkdir(F("%s/sub", dir), 0755);
        write_file(F("%s/sub/.keep", dir), "", 0);
        if (strcmp(ext[i].name, "ext_symlink_out") == 0) {
            char *link = F("%s/link.bin", dir);
            remove(link);
            if (symlink("../_outside/secret.bin", link) != 0) {
                fprintf(stderr, "gen_bad: cannot create %s\n", link);
                exit(1);
            }
        }
        emit_model(ext[i].name, m, ext[i].status, ext[i].status[4] == 'O' ? "run" : "load",
                   ext[i].why, 0, NULL);
    }
    (void)d16;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: osc-gen-bad OUT\n");
        return 2;
    }
    g_cap = (size_t)64 << 20;
    g_arena = malloc(g_cap);
    if (!g_arena) return 1;
    g_out = argv[1];
    mkdir(g_out, 0755);
    g_manifest = fopen(F("%s/MANIFEST.md", g_out), "w");
    if (!g_manifest) return 1;
    fprintf(g_manifest,
            "# Malformed-model suite (generated by tests/bad/gen_bad.c; do not edit)\n\n"
            "Each folder holds `model.onnx`, `expect` (status and stage) and, when the case "
            "reaches the run, `test_data_set_0/input_K.pb`. Stage `load`: loading fails with the "
            "status (or, for `OSC_OK`, loads). Stage `run`: loading succeeds and the run gives "
            "the status.\n\n| case | status | stage | what |\n|---|---|---|---|\n");
    parse_cases();
    structure_cases();
    more_structure_cases();
    index_cases();
    attr_shape_cases();
    fusion_cases();
    tensor_cases();
    chain_case();
    external_cases();
    dynamic_cases();
    loss_cases();
    control_cases();
    scat_cases();
    layout_cases();
    select_cases();
    rope_cases();
    attention_cases();
    pool_cases();
    resize_cases();
    conv_cases();
    detect_cases();
    fclose(g_manifest);
    free(g_arena);
    printf("gen_bad: %d cases in %s\n", g_count, g_out);
    return 0;
}
