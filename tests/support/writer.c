/* writer.c: the ModelProto writer of writer.h, emitting protobuf wire format by hand. */
#include "writer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader.h"
#include "core/dtype.h"

/* Field numbers of onnx.proto used here. */
enum {
    MODEL_IR_VERSION = 1, MODEL_PRODUCER = 2, MODEL_PRODUCER_VERSION = 3, MODEL_DOMAIN = 4,
    MODEL_VERSION = 5, MODEL_DOC = 6, MODEL_GRAPH = 7, MODEL_OPSET = 8, MODEL_PROPS = 14,
    PROP_KEY = 1, PROP_VALUE = 2, GRAPH_DOC = 10,
    OPSET_DOMAIN = 1, OPSET_VERSION = 2,
    GRAPH_NODE = 1, GRAPH_NAME = 2, GRAPH_INIT = 5, GRAPH_INPUT = 11, GRAPH_OUTPUT = 12,
    GRAPH_VALUE_INFO = 13,
    NODE_INPUT = 1, NODE_OUTPUT = 2, NODE_NAME = 3, NODE_OP_TYPE = 4, NODE_ATTR = 5,
    NODE_DOMAIN = 7,
    ATTR_NAME = 1, ATTR_F = 2, ATTR_I = 3, ATTR_S = 4, ATTR_T = 5, ATTR_FLOATS = 7,
    ATTR_G = 6, ATTR_INTS = 8, ATTR_TYPE = 20,
    VI_NAME = 1, VI_TYPE = 2,
    TYPE_TENSOR = 1, TT_ELEM_TYPE = 1, TT_SHAPE = 2, SHAPE_DIM = 1, DIM_VALUE = 1,
    DIM_PARAM = 2,
    T_DIMS = 1, T_DATA_TYPE = 2, T_STRING_DATA = 6, T_NAME = 8, T_RAW_DATA = 9
};
enum { WT_VARINT = 0, WT_FIXED64 = 1, WT_LEN = 2, WT_FIXED32 = 5 };
enum { A_FLOAT = 1, A_INT = 2, A_STRING = 3, A_TENSOR = 4, A_GRAPH = 5, A_FLOATS = 6, A_INTS = 7 };

/* A growable byte buffer; `oom` makes every later append a no-op. */
typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
    bool oom;
} wbuf;

struct osc_mw {
    osc_err err;
    int64_t ir_version;
    wbuf producer, graph_name;  /* field bytes (tag included) or empty */
    wbuf meta, graph_doc;       /* osc_mw_meta's model fields; the graph's doc_string */
    wbuf opsets, inputs, outputs, value_info, inits;
    wbuf *nodes;                /* one NodeProto body per node */
    int n_nodes, cap_nodes;
};

static void put(wbuf *b, const void *p, size_t n) {
    if (b->oom || n == 0) return;
    if (n > SIZE_MAX - b->n) {
        b->oom = true;
        return;
    }
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n) cap = cap > SIZE_MAX / 2 ? b->n + n : cap * 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void put_varint(wbuf *b, uint64_t v) {
    uint8_t tmp[10];
    size_t n = 0;
    do {
        tmp[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v) tmp[n] |= 0x80;
        n++;
    } while (v);
    put(b, tmp, n);
}

static void put_tag(wbuf *b, unsigned field, unsigned wt) {
    put_varint(b, (uint64_t)field << 3 | wt);
}

/* int64 fields are varints of the two's complement value (negative ones take 10 bytes). */
static void f_varint(wbuf *b, unsigned field, int64_t v) {
    put_tag(b, field, WT_VARINT);
    put_varint(b, (uint64_t)v);
}

static void f_bytes(wbuf *b, unsigned field, const void *p, size_t n) {
    put_tag(b, field, WT_LEN);
    put_varint(b, n);
    put(b, p, n);
}

static void f_str(wbuf *b, unsigned field, const char *s) { f_bytes(b, field, s, strlen(s)); }

static void f_msg(wbuf *b, unsigned field, const wbuf *m) { f_bytes(b, field, m->p, m->n); }

static void f_float(wbuf *b, unsigned field, float v) {
    uint8_t le[4];
    uint32_t u;
    memcpy(&u, &v, 4);
    for (int i = 0; i < 4; i++) le[i] = (uint8_t)(u >> (8 * i)); /* the wire's fixed32 */
    put_tag(b, field, WT_FIXED32);
    put(b, le, 4);
}

static void wfree(wbuf *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* Records the first error; returns the sticky status. */
static osc_status fail(osc_mw *mw, osc_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static osc_status fail(osc_mw *mw, osc_status st, const char *fmt, ...) {
    if (mw->err.status) return mw->err.status;
    mw->err.status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(mw->err.msg, sizeof mw->err.msg, fmt, ap);
    va_end(ap);
    return st;
}

/* Folds a buffer's out-of-memory flag into the sticky error. */
static osc_status check(osc_mw *mw, wbuf *b, const char *what) {
    if (b->oom) return fail(mw, OSC_ERR_NOMEM, "osc_mw: out of memory writing %s", what);
    return mw->err.status;
}

osc_mw *osc_mw_new(int64_t ir_version) {
    osc_mw *mw = calloc(1, sizeof *mw);
    if (!mw) return NULL;
    mw->ir_version = ir_version;
    f_str(&mw->graph_name, GRAPH_NAME, "g");
    if (mw->graph_name.oom) {
        free(mw);
        return NULL;
    }
    return mw;
}

void osc_mw_free(osc_mw *mw) {
    if (!mw) return;
    wbuf *all[] = {&mw->producer, &mw->graph_name, &mw->opsets, &mw->inputs, &mw->outputs,
                   &mw->value_info, &mw->inits, &mw->meta, &mw->graph_doc};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) wfree(all[i]);
    for (int i = 0; i < mw->n_nodes; i++) wfree(&mw->nodes[i]);
    free(mw->nodes);
    free(mw);
}

const char *osc_mw_error(const osc_mw *mw) { return mw ? mw->err.msg : "osc_mw: NULL writer"; }

osc_status osc_mw_names(osc_mw *mw, const char *producer_name, const char *graph_name) {
    if (!mw) return OSC_ERR_ARG;
    if (mw->err.status) return mw->err.status;
    if (producer_name) {
        mw->producer.n = 0;
        f_str(&mw->producer, MODEL_PRODUCER, producer_name);
    }
    if (graph_name) {
        mw->graph_name.n = 0;
        f_str(&mw->graph_name, GRAPH_NAME, graph_name);
    }
    check(mw, &mw->producer, "names");
    return check(mw, &mw->graph_name, "names");
}

osc_status osc_mw_meta(osc_mw *mw, const char *producer_version, const char *domain,
                       int64_t model_version, const char *doc, const char *graph_doc) {
    if (!mw) return OSC_ERR_ARG;
    if (mw->err.status) return mw->err.status;
    if (producer_version) f_str(&mw->meta, MODEL_PRODUCER_VERSION, producer_version);
    if (domain) f_str(&mw->meta, MODEL_DOMAIN, domain);
    f_varint(&mw->meta, MODEL_VERSION, model_version);
    if (doc) f_str(&mw->meta, MODEL_DOC, doc);
    if (graph_doc) {
        mw->graph_doc.n = 0;
        f_str(&mw->graph_doc, GRAPH_DOC, graph_doc);
    }
    check(mw, &mw->graph_doc, "metadata");
    return check(mw, &mw->meta, "metadata");
}

osc_status osc_mw_meta_prop(osc_mw *mw, const char *key, const char *value) {
    if (!mw) return OSC_ERR_ARG;
    if (mw->err.status) return mw->err.status;
    if (!key || !value) return fail(mw, OSC_ERR_ARG, "osc_mw_meta_prop: key or value is NULL");
    wbuf m = {0};
    f_str(&m, PROP_KEY, key);
    f_str(&m, PROP_VALUE, value);
    f_msg(&mw->meta, MODEL_PROPS, &m);
    if (m.oom) mw->meta.oom = true;
    wfree(&m);
    return check(mw, &mw->meta, "metadata_props");
}

osc_status osc_mw_opset(osc_mw *mw, const char *domain, int64_t version) {
    if (!mw) return OSC_ERR_ARG;
    if (mw->err.status) return mw->err.status;
    wbuf m = {0};
    if (domain && domain[0]) f_str(&m, OPSET_DOMAIN, domain);
    f_varint(&m, OPSET_VERSION, version);
    f_msg(&mw->opsets, MODEL_OPSET, &m);
    bool oom = m.oom;
    wfree(&m);
    if (oom) mw->opsets.oom = true;
    return check(mw, &mw->opsets, "opset_import");
}

/* ValueInfoProto with a tensor type, appended as field `field` of the graph. */
static osc_status value_info(osc_mw *mw, wbuf *dst, unsigned field, const char *what,
                             const char *name, int32_t dtype, int32_t rank, const int64_t *dims,
                             const char *const *dim_names) {
    if (!mw) return OSC_ERR_ARG;
    if (mw->err.status) return mw->err.status;
    if (!name) return fail(mw, OSC_ERR_ARG, "osc_mw: %s name is NULL", what);
    if (dtype == OSC_SEQUENCE || dtype == OSC_OPTIONAL) { /* of tensors of no said dtype */
        wbuf vi = {0}, type = {0}, kind = {0}, elem = {0}, tt = {0};
        f_str(&vi, VI_NAME, name);
        f_msg(&elem, TYPE_TENSOR, &tt);
        f_msg(&kind, 1, &elem); /* Sequence.elem_type, Optional.elem_type */
        f_msg(&type, dtype == OSC_SEQUENCE ? 4 : 9, &kind); /* sequence_type, optional_type */
        f_msg(&vi, VI_TYPE, &type);
        f_msg(dst, field, &vi);
        bool oom = vi.oom || type.oom || kind.oom || elem.oom || tt.oom;
        wfree(&vi), wfree(&type), wfree(&kind), wfree(&elem), wfree(&tt);
        if (oom) dst->oom = true;
        return check(mw, dst, what);
    }
    if (dtype < 0 || dtype >= OSC_DTYPE_COUNT)
        return fail(mw, OSC_ERR_ARG, "osc_mw: %s '%s' dtype %d is out of range [0, %d]", what,
                    name, (int)dtype, OSC_DTYPE_COUNT - 1);
    if (rank < -1 || rank > OSC_MAX_RANK)
        return fail(mw, OSC_ERR_ARG, "osc_mw: %s '%s' rank %d is out of range [-1, %d]", what,
                    name, (int)rank, OSC_MAX_RANK);
    if (rank > 0 && !dims)
        return fail(mw, OSC_ERR_ARG, "osc_mw: %s '%s' has rank %d but dims is NULL", what, name,
                    (int)rank);
    wbuf vi = {0}, type = {0}, tt = {0}, shape = {0}, dim = {0};
    f_str(&vi, VI_NAME, name);
    if (dtype != 0 || rank >= 0) {
        if (dtype != 0) f_varint(&tt, TT_ELEM_TYPE, dtype);
        if (rank >= 0) {
            for (int32_t i = 0; i < rank; i++) {
                dim.n = 0;
                if (dims[i] >= 0)
                    f_varint(&dim, DIM_VALUE, dims[i]);
                else if (dim_names && dim_names[i])
                    f_str(&dim, DIM_PARAM, dim_names[i]);
                f_msg(&shape, SHAPE_DIM, &dim);
            }
            f_msg(&tt, TT_SHAPE, &shape);
        }
        f_msg(&type, TYPE_TENSOR, &tt);
        f_msg(&vi, VI_TYPE, &type);
    }
    f_msg(dst, field, &vi);
    bool oom = vi.oom || type.oom || tt.oom || shape.oom || dim.oom;
    wfree(&vi), wfree(&type), wfree(&tt), wfree(&shape), wfree(&dim);
    if (oom) dst->oom = true;
    return check(mw, dst, what);
}

osc_status osc_mw_input(osc_mw *mw, const char *name, int32_t dtype, int32_t rank,
                        const int64_t *dims, const char *const *dim_names) {
    return value_info(mw, mw ? &mw->inputs : NULL, GRAPH_INPUT, "input", name, dtype, rank,
                      dims, dim_names);
}

osc_status osc_mw_output(osc_mw *mw, const char *name, int32_t dtype, int32_t rank,
                         const int64_t *dims, const char *const *dim_names) {
    return value_info(mw, mw ? &mw->outputs : NULL, GRAPH_OUTPUT, "output", name, dtype, rank,
                      dims, dim_names);
}

osc_status osc_mw_value_info(osc_mw *mw, const char *name, int32_t dtype, int32_t rank,
                             const int64_t *dims, const char *const *dim_names) {
    return value_info(mw, mw ? &mw->value_info : NULL, GRAPH_VALUE_INFO, "value_info", name,
                      dtype, rank, dims, dim_names);
}

osc_status osc_mw_inputs(osc_mw *mw, int n, const osc_mw_value *v) {
    osc_status st = OSC_OK;
    for (int i = 0; i < n && !st; i++)
        st = osc_mw_input(mw, v[i].name, v[i].dtype, v[i].rank, v[i].dims, v[i].dim_names);
    return st;
}

osc_status osc_mw_outputs(osc_mw *mw, int n, const osc_mw_value *v) {
    osc_status st = OSC_OK;
    for (int i = 0; i < n && !st; i++)
        st = osc_mw_output(mw, v[i].name, v[i].dtype, v[i].rank, v[i].dims, v[i].dim_names);
    return st;
}

osc_mw *osc_mw_graph(int64_t opset, int n_in, const osc_mw_value *inputs) {
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", opset);
    osc_mw_inputs(mw, n_in, inputs);
    return mw;
}

/* TensorProto body of t into *m. */
static osc_status tensor_msg(osc_mw *mw, wbuf *m, const char *what, const char *name,
                             const osc_tensor *t) {
    if (!t) return fail(mw, OSC_ERR_ARG, "osc_mw: %s '%s' tensor is NULL", what, name);
    size_t nbytes;
    osc_err e;
    osc_err_clear(&e);
    if (osc_tensor_view_check(t, &nbytes, &e))
        return fail(mw, e.status, "osc_mw: %s '%s': %s", what, name, e.msg);
    for (int32_t i = 0; i < t->rank; i++) f_varint(m, T_DIMS, t->dims[i]);
    f_varint(m, T_DATA_TYPE, t->dtype);
    if (name[0]) f_str(m, T_NAME, name);
    if (t->dtype == OSC_STRING) {
        const osc_string *s = t->data;
        for (size_t i = 0; i < nbytes / sizeof *s; i++)
            f_bytes(m, T_STRING_DATA, s[i].ptr, s[i].len);
    } else if (OSC_BIG_ENDIAN && osc_dtype_scalar_bytes(t->dtype) > 1 && nbytes) {
        void *le = malloc(nbytes); /* raw_data is little-endian */
        if (!le) return fail(mw, OSC_ERR_NOMEM, "osc_mw: %s '%s': out of memory", what, name);
        memcpy(le, t->data, nbytes);
        osc_swap_elems(t->dtype, le, nbytes);
        f_bytes(m, T_RAW_DATA, le, nbytes);
        free(le);
    } else {
        f_bytes(m, T_RAW_DATA, t->data, nbytes); /* little-endian, as raw_data requires */
    }
    return OSC_OK;
}

osc_status osc_mw_initializer(osc_mw *mw, const char *name, const osc_tensor *t) {
    if (!mw) return OSC_ERR_ARG;
    if (mw->err.status) return mw->err.status;
    if (!name) return fail(mw, OSC_ERR_ARG, "osc_mw: initializer name is NULL");
    wbuf m = {0};
    osc_status st = tensor_msg(mw, &m, "initializer", name, t);
    if (!st) f_msg(&mw->inits, GRAPH_INIT, &m);
    if (m.oom) mw->inits.oom = true;
    wfree(&m);
    return st ? st : check(mw, &mw->inits, "initializer");
}

int osc_mw_node(osc_mw *mw, const char *op_type, const char *name, int n_in,
                const char *const *inputs, int n_out, const char *const *outputs) {
    if (!mw || mw->err.status) return -1;
    if (!op_type || n_in < 0 || n_out < 0 || (n_in && !inputs) || (n_out && !outputs)) {
        fail(mw, OSC_ERR_ARG, "osc_mw: node '%s': NULL op_type, or a negative count or NULL "
             "array of inputs/outputs", name ? name : "");
        return -1;
    }
    if (mw->n_nodes == mw->cap_nodes) {
        int cap = mw->cap_nodes ? mw->cap_nodes * 2 : 8;
        wbuf *q = cap > 0 ? realloc(mw->nodes, (size_t)cap * sizeof *q) : NULL;
        if (!q) {
            fail(mw, OSC_ERR_NOMEM, "osc_mw: out of memory adding node %d", mw->n_nodes);
            return -1;
        }
        mw->nodes = q;
        mw->cap_nodes = cap;
    }
    wbuf *b = &mw->nodes[mw->n_nodes];
    memset(b, 0, sizeof *b);
    for (int i = 0; i < n_in; i++) f_str(b, NODE_INPUT, inputs[i] ? inputs[i] : "");
    for (int i = 0; i < n_out; i++) f_str(b, NODE_OUTPUT, outputs[i] ? outputs[i] : "");
    if (name) f_str(b, NODE_NAME, name);
    f_str(b, NODE_OP_TYPE, op_type);
    mw->n_nodes++;
    if (check(mw, b, "node")) return -1;
    return mw->n_nodes - 1;
}

/* The node body to append to, or NULL with the error recorded. */
static wbuf *node_buf(osc_mw *mw, int node, const char *what) {
    if (!mw || mw->err.status) return NULL;
    if (node < 0 || node >= mw->n_nodes) {
        fail(mw, OSC_ERR_ARG, "osc_mw: %s for node %d; nodes are 0..%d", what, node,
             mw->n_nodes - 1);
        return NULL;
    }
    return &mw->nodes[node];
}

static osc_status status_of(osc_mw *mw) { return mw ? mw->err.status : OSC_ERR_ARG; }

osc_status osc_mw_node_domain(osc_mw *mw, int node, const char *domain) {
    wbuf *b = node_buf(mw, node, "domain");
    if (!b) return status_of(mw);
    f_str(b, NODE_DOMAIN, domain ? domain : "");
    return check(mw, b, "node domain");
}

/* Appends one AttributeProto: name, type, then the value field(s) `body` built by the caller. */
static osc_status add_attr(osc_mw *mw, int node, const char *name, int type, wbuf *body) {
    wbuf *b = node_buf(mw, node, "attribute");
    if (!b || !name) {
        wfree(body);
        if (b) return fail(mw, OSC_ERR_ARG, "osc_mw: attribute name is NULL");
        return status_of(mw);
    }
    wbuf a = {0};
    f_str(&a, ATTR_NAME, name);
    f_varint(&a, ATTR_TYPE, type);
    put(&a, body->p, body->n);
    f_msg(b, NODE_ATTR, &a);
    if (a.oom || body->oom) b->oom = true;
    wfree(&a);
    wfree(body);
    return check(mw, b, "attribute");
}

osc_status osc_mw_attr_int(osc_mw *mw, int node, const char *name, int64_t v) {
    wbuf body = {0};
    f_varint(&body, ATTR_I, v);
    return add_attr(mw, node, name, A_INT, &body);
}

osc_status osc_mw_attr_ints(osc_mw *mw, int node, const char *name, const int64_t *v, size_t n) {
    wbuf body = {0};
    for (size_t i = 0; v && i < n; i++) f_varint(&body, ATTR_INTS, v[i]);
    return add_attr(mw, node, name, A_INTS, &body);
}

osc_status osc_mw_attr_float(osc_mw *mw, int node, const char *name, float v) {
    wbuf body = {0};
    f_float(&body, ATTR_F, v);
    return add_attr(mw, node, name, A_FLOAT, &body);
}

osc_status osc_mw_attr_floats(osc_mw *mw, int node, const char *name, const float *v, size_t n) {
    wbuf body = {0};
    for (size_t i = 0; v && i < n; i++) f_float(&body, ATTR_FLOATS, v[i]);
    return add_attr(mw, node, name, A_FLOATS, &body);
}

osc_status osc_mw_attr_bytes(osc_mw *mw, int node, const char *name, const void *s, size_t len) {
    wbuf body = {0};
    f_bytes(&body, ATTR_S, s, s ? len : 0);
    return add_attr(mw, node, name, A_STRING, &body);
}

osc_status osc_mw_attr_string(osc_mw *mw, int node, const char *name, const char *s) {
    return osc_mw_attr_bytes(mw, node, name, s, s ? strlen(s) : 0);
}

osc_status osc_mw_attr_tensor(osc_mw *mw, int node, const char *name, const osc_tensor *t) {
    if (!node_buf(mw, node, "attribute")) return status_of(mw);
    wbuf m = {0}, body = {0};
    osc_status st = tensor_msg(mw, &m, "attribute", name ? name : "", t);
    if (st) {
        wfree(&m);
        return st;
    }
    f_msg(&body, ATTR_T, &m);
    if (m.oom) body.oom = true;
    wfree(&m);
    return add_attr(mw, node, name, A_TENSOR, &body);
}

/* The GraphProto of mw, appended to g. */
static void graph_msg(const osc_mw *mw, wbuf *g) {
    for (int i = 0; i < mw->n_nodes; i++) f_msg(g, GRAPH_NODE, &mw->nodes[i]);
    put(g, mw->graph_name.p, mw->graph_name.n);
    put(g, mw->graph_doc.p, mw->graph_doc.n);
    put(g, mw->inits.p, mw->inits.n);
    put(g, mw->inputs.p, mw->inputs.n);
    put(g, mw->outputs.p, mw->outputs.n);
    put(g, mw->value_info.p, mw->value_info.n);
}

osc_status osc_mw_attr_graph(osc_mw *mw, int node, const char *name, const osc_mw *sub) {
    if (!node_buf(mw, node, "attribute")) return status_of(mw);
    if (!sub || sub->err.status)
        return fail(mw, OSC_ERR_ARG, "osc_mw_attr_graph: the subgraph writer %s",
                    sub ? "has failed" : "is NULL");
    wbuf g = {0}, body = {0};
    graph_msg(sub, &g);
    f_msg(&body, ATTR_G, &g);
    if (g.oom) body.oom = true;
    wfree(&g);
    return add_attr(mw, node, name, A_GRAPH, &body);
}

osc_status osc_mw_serialize(osc_mw *mw, void **buf, size_t *len) {
    if (buf) *buf = NULL;
    if (len) *len = 0;
    if (!mw) return OSC_ERR_ARG;
    if (!buf || !len) return fail(mw, OSC_ERR_ARG, "osc_mw_serialize: buf or len is NULL");
    if (mw->err.status) return mw->err.status;
    wbuf g = {0}, m = {0};
    graph_msg(mw, &g);
    f_varint(&m, MODEL_IR_VERSION, mw->ir_version);
    put(&m, mw->producer.p, mw->producer.n);
    put(&m, mw->meta.p, mw->meta.n);
    f_msg(&m, MODEL_GRAPH, &g);
    put(&m, mw->opsets.p, mw->opsets.n);
    bool oom = g.oom || m.oom;
    wfree(&g);
    if (oom) {
        wfree(&m);
        return fail(mw, OSC_ERR_NOMEM, "osc_mw: out of memory serializing the model");
    }
    *buf = m.p; /* malloc'ed by realloc */
    *len = m.n;
    if (!m.p) { /* cannot happen: ir_version is always written */
        *buf = malloc(1);
        if (!*buf) return fail(mw, OSC_ERR_NOMEM, "osc_mw: out of memory");
    }
    return OSC_OK;
}
