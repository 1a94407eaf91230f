/* loader_util.h: helpers shared by the loader tests (protobuf-c builders, temp dirs, checks). */
#ifndef OSC_LOADER_UTIL_H
#define OSC_LOADER_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "loader/loader.h"
#include "loader/pb.h"
#include "tests/support/writer.h"
#include "core/dtype.h"

/* Fails the test unless `st` is `want` and `msg` contains every NULL-terminated needle. */
#define lu_expect(st, want, msg, ...) \
    lu_expect_(st, want, msg, __FILE__, __LINE__, __VA_ARGS__, NULL)
void lu_expect_(osc_status st, osc_status want, const char *msg, const char *file, int line, ...);

/* Packs any protobuf-c message into a malloc'ed buffer. */
/* A whole file read into a block from a default allocator (*a; osc_free(a, *buf, *len); NULL
 * for an empty file), *err cleared first. */
osc_status lu_read(const char *path, osc_allocator *a, osc_err *err, void **buf, size_t *len);
void *lu_pack(const ProtobufCMessage *m, size_t *len);

/* Decodes *tp through its serialized form with the public osc_tensor_decode_pb. */
osc_status lu_decode(const Onnx__TensorProto *tp, osc_tensor *out, char *msg, size_t msg_size);

/* A model loaded into a pool; free with lu_model_free. */
typedef struct lu_model {
    osc_allocator alloc;
    osc_pool pool;
    osc_graph g;
    osc_err err;
} lu_model;
osc_status lu_parse(lu_model *m, const void *buf, size_t len, const char *base_dir);
/* Same with options (allocator hook, byte cap). */
osc_status lu_parse_opts(lu_model *m, const void *buf, size_t len, const char *base_dir,
                         const osc_options *opts);
void lu_model_free(lu_model *m);
/* Serializes the writer's model (asserting success) and parses it. */
osc_status lu_parse_mw(lu_model *m, osc_mw *mw);
/* Value id of a name in a loaded graph (fails the test when absent). */
int32_t lu_value(const osc_graph *g, const char *name);

/* A minimal ModelProto around one graph for protobuf-c built tests: opset ("", 18). The
 * returned struct owns nothing; the caller fills `graph`. */
typedef struct lu_mp {
    Onnx__ModelProto model;
    Onnx__GraphProto graph;
    Onnx__OperatorSetIdProto opset;
    Onnx__OperatorSetIdProto *opsets[1];
} lu_mp;
void lu_mp_init(lu_mp *m);

/* An allocator hook (osc_options.alloc) that counts live bytes, their peak and the calls, and
 * fails the allocation number fail_at (0-based; -1 never). */
typedef struct lu_track {
    size_t cur, peak;
    long calls, fail_at;
} lu_track;
void *lu_track_fn(void *ud, void *ptr, size_t osize, size_t nsize);

/* A TensorProto named `name` as the one initializer of a model, parsed into m; *out points
 * at the decoded initializer (valid until lu_model_free). */
osc_status lu_decode_init(lu_model *m, Onnx__TensorProto *tp, const osc_tensor **out);

/* A fresh temp dir (mkdtemp) and its recursive removal. */
void lu_tmpdir(char *path, size_t size);
void lu_rmtree(const char *path);
void lu_write_file(const char *path, const void *data, size_t len);

#endif
