/* graph.h: the in-memory model the loader produces and the runtime prepares and executes.
 * No protobuf types appear here; every pointer lives in the model's pool. */
#ifndef OSC_GRAPH_H
#define OSC_GRAPH_H

#include "common.h"

/* Attribute types, numbered as ONNX AttributeProto.AttributeType. */
enum {
    OSC_ATTR_UNDEFINED = 0,
    OSC_ATTR_FLOAT = 1,
    OSC_ATTR_INT = 2,
    OSC_ATTR_STRING = 3,
    OSC_ATTR_TENSOR = 4,
    OSC_ATTR_GRAPH = 5,
    OSC_ATTR_FLOATS = 6,
    OSC_ATTR_INTS = 7,
    OSC_ATTR_STRINGS = 8,
    OSC_ATTR_TENSORS = 9,
    OSC_ATTR_GRAPHS = 10,
    OSC_ATTR_SPARSE_TENSOR = 11,
    OSC_ATTR_SPARSE_TENSORS = 12,
    OSC_ATTR_TYPE_PROTO = 13,
    OSC_ATTR_TYPE_PROTOS = 14
};

typedef struct osc_attr {
    const char *name;
    int32_t type;       /* OSC_ATTR_* */
    int64_t i;          /* INT */
    float f;            /* FLOAT */
    const char *s;      /* STRING: bytes, NUL-terminated for convenience */
    size_t s_len;
    int64_t *ints;      /* INTS */
    float *floats;      /* FLOATS */
    size_t n;           /* element count of ints/floats */
    osc_tensor *t;      /* TENSOR (decoded, data in the pool) */
    const struct osc_type *tp; /* TYPE_PROTO (a map or sparse type: non_tensor set) */
    struct osc_graph *g; /* GRAPH: the subgraph (loaded, its free names resolved) */
    /* GRAPH, from the runtime's load on: the subgraph prepared to run (runtime/body.c) */
    void *body;
} osc_attr;

struct osc_kernel;

typedef struct osc_node {
    const char *name;    /* "" when the model gives none */
    const char *op_type;
    const char *domain;  /* normalised: "ai.onnx" is stored as "" */
    int32_t n_inputs;
    int32_t *inputs;     /* value ids; -1 for an omitted optional input ("") */
    /* The last n_implicit inputs are not the model's: values of this graph (or of one around
     * it) that the node's subgraphs read by name (osc_graph.capture_outer). */
    int32_t n_implicit;
    int32_t n_outputs;
    int32_t *outputs;    /* value ids; -1 for an omitted optional output */
    int32_t n_attrs;
    osc_attr *attrs;
    /* Filled when the model is prepared. */
    const struct osc_kernel *kernel;
    int64_t opset;       /* the model's opset for this node's domain */
    const void *params;  /* what the kernel's init parsed from the attributes */
    bool folded;         /* computed at load (constant inputs); its outputs carry `init` */
    /* A node the fusion pass made: the nodes it replaced (names and op types, in graph
     * order, this node's original among them); 0 and NULL otherwise. */
    int32_t n_fused;
    const char **fused_names;
    const char **fused_ops;
    const char *fused_rule; /* the rewrite rule that made it (rewrite/rules.def) */
    /* A node a rule was anchored on that stayed as it is: the rule and the condition that
     * failed (osc_rw_no), for `info`; NULL otherwise. */
    const char *not_fused;
} osc_node;

/* Declared type of a value (graph input/output/value_info). */
typedef struct osc_type {
    int32_t dtype;                      /* 0: not declared; OSC_SEQUENCE, OSC_OPTIONAL too */
    int32_t elem;                       /* a sequence's or optional's items' dtype; 0: not said */
    int32_t rank;                       /* -1: unknown */
    int64_t dims[OSC_MAX_RANK];         /* -1: symbolic or unknown */
    const char *dim_names[OSC_MAX_RANK]; /* dim_param or NULL */
    /* Non-NULL for a value declared with a type the engine does not carry: "a map",
     * "a sparse tensor", "an unknown". The loader accepts such models so that the runtime can
     * first name an unsupported op (the usual cause); then it refuses the type itself. */
    const char *non_tensor;
} osc_type;

typedef struct osc_value {
    const char *name;
    osc_type decl;        /* declared type; dtype 0 when nothing declares it */
    osc_tensor *init;     /* initializer (constant, or default of a graph input); NULL if none */
    int32_t producer;     /* producing node index, -1 for graph inputs and initializers */
    bool is_input;        /* listed in graph.input */
    bool is_output;       /* listed in graph.output */
} osc_value;

typedef struct osc_opset {
    const char *domain;  /* normalised: "" for the default domain */
    int64_t version;
} osc_opset;

typedef struct osc_graph {
    int64_t ir_version;
    const char *producer_name;
    const char *name;
    /* metadata (osc_model_meta): "" when the model leaves a field unset */
    const char *producer_version;
    const char *domain;
    int64_t model_version;
    const char *doc_string;
    const char *graph_doc_string;
    int32_t n_props;              /* metadata_props entries */
    const char **prop_keys;
    const char **prop_values;
    int32_t n_opsets;
    osc_opset *opsets;
    int32_t n_values;
    osc_value *values;
    int32_t n_nodes;
    osc_node *nodes;     /* in the model's (topological) order */
    int32_t n_inputs;
    int32_t *inputs;     /* value ids of graph.input, in model order */
    int32_t n_outputs;
    int32_t *outputs;    /* value ids of graph.output */
    /* A subgraph: the last n_captures graph inputs are the names it reads from the graph around
     * it; capture_outer[k] is the value id there of inputs[n_inputs - n_captures + k]. */
    int32_t n_captures;
    int32_t *capture_outer;
} osc_graph;

/* Attribute lookup by name; NULL when absent. */
const osc_attr *osc_node_attr(const osc_node *n, const char *name);
/* How messages name node n of g: 'NAME' (quoted) when the model names it, else #INDEX OP
 * (INDEX in g's current order, as osc_model_node counts: "#12 ScatterND"), the one spelling the
 * command line uses too. Written into buf; returns buf. */
const char *osc_node_label(const osc_graph *g, const osc_node *n, char *buf, size_t size);
/* Opset version the model imports for a domain ("" == "ai.onnx"); -1 if none. */
int64_t osc_graph_opset(const osc_graph *g, const char *domain);

#endif
