/* onnx_scatter.h: public C API of onnx-scatter, a small ONNX runtime for scatter-family graphs. */
#ifndef ONNX_SCATTER_H
#define ONNX_SCATTER_H

#include <stddef.h>
#include <stdint.h>

#define OSC_VERSION_MAJOR 0
#define OSC_VERSION_MINOR 1
#define OSC_VERSION_PATCH 0
#define OSC_VERSION_STRING "0.1.0"

#if defined(OSC_STATIC_DEFINE) || !defined(__GNUC__)
#define OSC_API
#else
#define OSC_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Largest tensor rank the runtime stores. A model with a larger rank is refused at load. */
#define OSC_MAX_RANK 32

/* Every call that can fail returns one of these. New codes are only ever appended. */
typedef enum osc_status {
    OSC_OK = 0,
    OSC_ERR_ARG,         /* bad argument to an API call (NULL, index out of range, unknown name) */
    OSC_ERR_NOMEM,       /* the allocator returned NULL */
    OSC_ERR_IO,          /* a file could not be opened, read or written */
    OSC_ERR_PARSE,       /* the bytes are not a valid protobuf message */
    OSC_ERR_MODEL,       /* the model is invalid: graph structure, attributes, payloads */
    OSC_ERR_UNSUPPORTED, /* op, op version or dtype this runtime does not implement */
    OSC_ERR_SHAPE,       /* shapes, ranks or dtypes of tensors do not fit together */
    OSC_ERR_INDEX,       /* an index value is out of its allowed range */
    OSC_ERR_LIMIT,       /* a resource limit (bytes, rank, string length, nodes) was reached */
    OSC_ERR_STATE        /* call out of order, e.g. reading outputs before a successful run */
} osc_status;

/* Tensor element types, numbered as ONNX TensorProto.DataType. */
typedef enum osc_dtype {
    OSC_UNDEFINED = 0,
    OSC_FLOAT = 1,
    OSC_UINT8 = 2,
    OSC_INT8 = 3,
    OSC_UINT16 = 4,
    OSC_INT16 = 5,
    OSC_INT32 = 6,
    OSC_INT64 = 7,
    OSC_STRING = 8,
    OSC_BOOL = 9,
    OSC_FLOAT16 = 10,
    OSC_DOUBLE = 11,
    OSC_UINT32 = 12,
    OSC_UINT64 = 13,
    OSC_COMPLEX64 = 14,
    OSC_COMPLEX128 = 15,
    OSC_BFLOAT16 = 16,
    OSC_FLOAT8E4M3FN = 17,
    OSC_FLOAT8E4M3FNUZ = 18,
    OSC_FLOAT8E5M2 = 19,
    OSC_FLOAT8E5M2FNUZ = 20,
    OSC_UINT4 = 21, /* packed two per byte, first element in the low nibble */
    OSC_INT4 = 22,
    OSC_FLOAT4E2M1 = 23,
    OSC_FLOAT8E8M0 = 24,
    OSC_UINT2 = 25, /* packed four per byte, first element in the lowest bits */
    OSC_INT2 = 26,
    OSC_DTYPE_COUNT = 27
} osc_dtype;

/* One element of an OSC_STRING tensor: bytes (not NUL-terminated) and their count. */
typedef struct osc_string {
    const char *ptr;
    size_t len;
} osc_string;

/* A tensor view. The struct never owns `data`; who does is said at each call.
 * Elements are dense, row-major, little-endian. Strings: `data` is an osc_string[count].
 * Sub-byte types (int4, uint2, ...) are packed; nbytes is ceil(count * bits / 8). */
typedef struct osc_tensor {
    int32_t dtype; /* osc_dtype */
    int32_t rank;  /* 0 for a scalar */
    int64_t dims[OSC_MAX_RANK];
    void *data;
    size_t nbytes;
} osc_tensor;

/* realloc-shaped allocator: nsize == 0 frees ptr (returns NULL); otherwise returns a block of
 * nsize bytes (aligned for any type) holding the first min(osize, nsize) bytes of ptr, or NULL. */
typedef void *(*osc_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

typedef struct osc_options {
    osc_alloc_fn alloc;      /* NULL: the C library's realloc/free */
    void *alloc_ud;          /* passed to alloc */
    uint64_t max_bytes;      /* cap on bytes a model or a session allocates; 0: no cap */
    int32_t strict;          /* 1: deprecated ops (Scatter-11) are errors, not warnings */
    int32_t profile;         /* 1: sessions time every node (osc_session_node_ns) */
    int32_t reserved[6];     /* zero */
} osc_options;

/* Fills *opts with the defaults. */
OSC_API void osc_options_init(osc_options *opts);

OSC_API const char *osc_version(void);
OSC_API const char *osc_status_name(osc_status s);
/* ONNX name of a dtype ("float", "int64", "bfloat16", ...); "undefined" for unknown numbers. */
OSC_API const char *osc_dtype_name(int32_t dtype);
/* Bits per element (4 for int4, 128 for complex128, 128 for a string's osc_string on LP64);
 * 0 for an unknown dtype. */
OSC_API size_t osc_dtype_bits(int32_t dtype);
/* Number of elements (1 for rank 0; 0 when any dim is 0, even if the other dims alone would
 * overflow); -1 when the rank is outside [0, OSC_MAX_RANK], a dim is negative or the product
 * overflows int64. */
OSC_API int64_t osc_tensor_count(const osc_tensor *t);

/* ---- Models: loaded once, immutable afterwards, safe to share between threads. ---- */
typedef struct osc_model osc_model;

/* Loads an ONNX ModelProto from a file. External data is resolved relative to the file's folder.
 * On success *out is a new model (free with osc_model_free). On failure *out is NULL, nothing
 * is leaked, and a one-line message is written to msg (if msg_size > 0). */
OSC_API osc_status osc_model_load_file(const char *path, const osc_options *opts, osc_model **out,
                                       char *msg, size_t msg_size);
/* Same from memory; the buffer may be freed after the call. base_dir (may be NULL: external
 * data is then refused) is the folder external data paths are relative to. */
OSC_API osc_status osc_model_load_buffer(const void *buf, size_t len, const char *base_dir,
                                         const osc_options *opts, osc_model **out, char *msg,
                                         size_t msg_size);
OSC_API void osc_model_free(osc_model *m);

/* Introspection. Strings returned are owned by the model and live as long as it does. */
typedef struct osc_value_desc {
    const char *name;
    int32_t dtype;                          /* OSC_UNDEFINED when the model does not say */
    int32_t rank;                           /* -1 when unknown */
    int64_t dims[OSC_MAX_RANK];             /* -1 for a symbolic or unknown dim */
    const char *dim_names[OSC_MAX_RANK];    /* dim_param of a symbolic dim, else NULL */
    int32_t has_default;                    /* input backed by an initializer (overridable) */
} osc_value_desc;

typedef struct osc_node_desc {
    const char *name;
    const char *op_type;
    const char *domain;     /* "" for the default ONNX domain */
    int64_t since_version;  /* version of the kernel the node resolved to */
    int64_t opset;          /* the model's opset for the node's domain */
    int32_t n_inputs;
    const char *const *inputs;   /* value names; "" for an omitted optional input */
    int32_t n_outputs;
    const char *const *outputs;
} osc_node_desc;

OSC_API int64_t osc_model_ir_version(const osc_model *m);
OSC_API size_t osc_model_opset_count(const osc_model *m);
OSC_API osc_status osc_model_opset(const osc_model *m, size_t i, const char **domain,
                                   int64_t *version);
OSC_API size_t osc_model_input_count(const osc_model *m);  /* inputs without a default first */
OSC_API size_t osc_model_output_count(const osc_model *m);
/* Input/output i. Shapes are the inferred ones where the model's shapes are static. */
OSC_API osc_status osc_model_input(const osc_model *m, size_t i, osc_value_desc *out);
OSC_API osc_status osc_model_output(const osc_model *m, size_t i, osc_value_desc *out);
OSC_API size_t osc_model_node_count(const osc_model *m);
OSC_API osc_status osc_model_node(const osc_model *m, size_t i, osc_node_desc *out);
/* INT attribute `name` of node i (OSC_ERR_ARG when absent or not an int). */
OSC_API osc_status osc_model_node_attr_int(const osc_model *m, size_t i, const char *name,
                                           int64_t *value);
/* STRING attribute `name` of node i (owned by the model; OSC_ERR_ARG when absent). */
OSC_API osc_status osc_model_node_attr_str(const osc_model *m, size_t i, const char *name,
                                           const char **value);
/* Arena bytes the execution plan needs; 0 when shapes are only known at run. */
OSC_API uint64_t osc_model_arena_bytes(const osc_model *m);
OSC_API size_t osc_model_warning_count(const osc_model *m);
OSC_API const char *osc_model_warning(const osc_model *m, size_t i);

/* ---- Sessions: one per thread; each holds its arena and its inputs/outputs. ---- */
typedef struct osc_session osc_session;

/* The model must outlive the session. */
OSC_API osc_status osc_session_create(const osc_model *m, osc_session **out);
OSC_API void osc_session_free(osc_session *s);
/* Binds an input by graph-input name or by index (osc_model_input order). The tensor's dims and
 * data are borrowed until the next set_input of that input or osc_session_free; the runtime
 * never writes to them. Binding an input with a default overrides the default. */
OSC_API osc_status osc_session_set_input(osc_session *s, const char *name, const osc_tensor *t);
OSC_API osc_status osc_session_set_input_at(osc_session *s, size_t index, const osc_tensor *t);
/* Runs the graph. On failure no output is readable, the inputs are untouched and
 * osc_session_error() says what went wrong (node, input, position, value, allowed range). */
OSC_API osc_status osc_session_run(osc_session *s);
/* Output i of the last successful run. The data is owned by the session and valid until the
 * next run or osc_session_free. */
OSC_API osc_status osc_session_output(osc_session *s, size_t index, osc_tensor *out);
/* Nanoseconds node i (osc_model_node order) took in the last run; 0 unless the model was
 * loaded with opts.profile = 1, or for a node that did not run. */
OSC_API uint64_t osc_session_node_ns(const osc_session *s, size_t node);
/* Message of the session's last failure ("" after a success). */
OSC_API const char *osc_session_error(const osc_session *s);

/* ---- TensorProto (.pb) files, as used by the ONNX node tests. ---- */
/* Decodes a serialized TensorProto into *out (data allocated with malloc, one block, strings
 * included; free with osc_tensor_free_data). name receives the tensor's name (may be NULL). */
OSC_API osc_status osc_tensor_decode_pb(const void *buf, size_t len, osc_tensor *out, char *name,
                                        size_t name_size, char *msg, size_t msg_size);
/* Serializes *t as a TensorProto with raw_data (string_data for strings) into a malloc'ed
 * buffer (*buf, *len); free it with free(). */
OSC_API osc_status osc_tensor_encode_pb(const osc_tensor *t, const char *name, void **buf,
                                        size_t *len, char *msg, size_t msg_size);
OSC_API void osc_tensor_free_data(osc_tensor *t);

#ifdef __cplusplus
}
#endif
#endif
