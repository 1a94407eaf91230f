/* writer.h: a protobuf-free ONNX ModelProto writer for tests and small generator programs. */
#ifndef OSC_WRITER_H
#define OSC_WRITER_H

#include "onnx_scatter.h"

/* Usage:
 *     osc_mw *mw = osc_mw_new(10);
 *     osc_mw_opset(mw, "", 18);
 *     int64_t d[2] = {-1, 3};  const char *dn[2] = {"N", NULL};
 *     osc_mw_input(mw, "data", OSC_FLOAT, 2, d, dn);            // [N,3]
 *     osc_mw_initializer(mw, "indices", &idx);                  // any dtype, strings too
 *     const char *in[3] = {"data", "indices", "updates"}, *out[1] = {"y"};
 *     int n = osc_mw_node(mw, "ScatterND", "s", 3, in, 1, out);
 *     osc_mw_attr_string(mw, n, "reduction", "add");
 *     osc_mw_output(mw, "y", OSC_FLOAT, 2, d, dn);
 *     void *buf; size_t len;
 *     if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) puts(osc_mw_error(mw));
 *     ... free(buf); osc_mw_free(mw);
 *
 * Errors are sticky: the first failing call (bad argument or out of memory) records a status
 * and message, every later call returns that status and does nothing, and osc_mw_serialize
 * reports it. So callers may check only the serialize result.
 *
 * The writer checks arguments, not the graph: it writes models the loader will reject
 * (unknown names, duplicate producers, no opset_import when osc_mw_opset is never called),
 * which is what loader tests need. Everything is copied at each call; the caller's buffers
 * may be reused at once. Memory comes from malloc. */
typedef struct osc_mw osc_mw;

/* A new empty model (graph name "g", no producer, no opset_import); NULL when out of memory. */
osc_mw *osc_mw_new(int64_t ir_version);
void osc_mw_free(osc_mw *mw);
/* First error message ("" while none). */
const char *osc_mw_error(const osc_mw *mw);

/* producer_name and graph name (NULL leaves a field unset/unchanged). */
osc_status osc_mw_names(osc_mw *mw, const char *producer_name, const char *graph_name);
/* The other metadata of the model (NULL strings are left unset; model_version is always
 * written) and of its graph (doc_string; NULL leaves it unchanged). Appends to what earlier
 * calls wrote. */
osc_status osc_mw_meta(osc_mw *mw, const char *producer_version, const char *domain,
                       int64_t model_version, const char *doc, const char *graph_doc);
/* One metadata_props entry (repeated keys are written as given). */
osc_status osc_mw_meta_prop(osc_mw *mw, const char *key, const char *value);
/* One opset_import entry; "" (or "ai.onnx") is the default domain. */
osc_status osc_mw_opset(osc_mw *mw, const char *domain, int64_t version);

/* A graph input / output / value_info entry with a tensor type.
 * dtype: an osc_dtype, or 0 = elem_type not written; OSC_SEQUENCE or OSC_OPTIONAL write a
 * sequence or optional of tensors of no said dtype (rank and dims ignored).  rank: -1 = no shape written (dims
 * ignored), else 0..OSC_MAX_RANK dims. dims[i] >= 0 is a fixed dim; dims[i] < 0 is symbolic:
 * dim_param dim_names[i] when dim_names and dim_names[i] are non-NULL, else a dim with neither
 * value (unknown). dtype 0 with rank -1 writes no type at all. */
osc_status osc_mw_input(osc_mw *mw, const char *name, int32_t dtype, int32_t rank,
                        const int64_t *dims, const char *const *dim_names);
osc_status osc_mw_output(osc_mw *mw, const char *name, int32_t dtype, int32_t rank,
                         const int64_t *dims, const char *const *dim_names);
osc_status osc_mw_value_info(osc_mw *mw, const char *name, int32_t dtype, int32_t rank,
                             const int64_t *dims, const char *const *dim_names);

/* A graph input or output as osc_mw_input and osc_mw_output take it, for the table forms:
 * osc_mw_inputs / osc_mw_outputs write v[0..n-1] in order (errors are sticky, as above). */
typedef struct osc_mw_value {
    const char *name;
    int32_t dtype, rank;
    const int64_t *dims;
    const char *const *dim_names;
} osc_mw_value;
osc_status osc_mw_inputs(osc_mw *mw, int n, const osc_mw_value *v);
osc_status osc_mw_outputs(osc_mw *mw, int n, const osc_mw_value *v);
/* The usual start of a test model: osc_mw_new(8), the default domain at opset, then the
 * inputs[0..n_in-1]. */
osc_mw *osc_mw_graph(int64_t opset, int n_in, const osc_mw_value *inputs);

/* An initializer: raw_data for every dtype except strings (string_data). t must be a
 * consistent view (nbytes == packed size of its elements). To give a graph input a default,
 * also call osc_mw_input with the same name. */
osc_status osc_mw_initializer(osc_mw *mw, const char *name, const osc_tensor *t);

/* Appends a node; returns its index (0, 1, ...) for the calls below, or -1 on error.
 * An input or output that is NULL or "" is written as "" (an omitted optional one).
 * name may be NULL (no name written). Domain: the default one unless osc_mw_node_domain. */
int osc_mw_node(osc_mw *mw, const char *op_type, const char *name, int n_in,
                const char *const *inputs, int n_out, const char *const *outputs);
osc_status osc_mw_node_domain(osc_mw *mw, int node, const char *domain);

/* Attributes of node `node`, written in call order (the writer does not reject duplicates). */
osc_status osc_mw_attr_int(osc_mw *mw, int node, const char *name, int64_t v);
osc_status osc_mw_attr_ints(osc_mw *mw, int node, const char *name, const int64_t *v, size_t n);
osc_status osc_mw_attr_float(osc_mw *mw, int node, const char *name, float v);
osc_status osc_mw_attr_floats(osc_mw *mw, int node, const char *name, const float *v, size_t n);
/* NUL-terminated bytes; osc_mw_attr_bytes for bytes that may contain NUL. */
osc_status osc_mw_attr_string(osc_mw *mw, int node, const char *name, const char *s);
osc_status osc_mw_attr_bytes(osc_mw *mw, int node, const char *name, const void *s, size_t len);
/* A TENSOR attribute (e.g. Constant's "value"), encoded as osc_mw_initializer does. */
osc_status osc_mw_attr_tensor(osc_mw *mw, int node, const char *name, const osc_tensor *t);

/* A GRAPH attribute (If's branches, Loop's body): the graph sub holds (its nodes, name,
 * initializers, inputs, outputs, value_info; its opsets and IR version are not written). */
osc_status osc_mw_attr_graph(osc_mw *mw, int node, const char *name, const osc_mw *sub);

/* The serialized ModelProto in a malloc'ed buffer (*buf, *len; free with free()). The writer
 * stays usable (more calls, serialize again). Fails with the first recorded error. */
osc_status osc_mw_serialize(osc_mw *mw, void **buf, size_t *len);

#endif
