/* loader.h: protobuf-free interface of the loader (ModelProto -> osc_graph), used by runtime/. */
#ifndef OSC_LOADER_H
#define OSC_LOADER_H

#include "core/graph.h"

/* Parses a serialized ModelProto into *g; every allocation comes from `pool` (the caller frees
 * the pool on failure too). base_dir is the folder external data is relative to; NULL refuses
 * external data. Checks the structure: payload sizes, dims, dtypes, opset_import, that every
 * node input is produced earlier (or is a graph input/initializer), one producer per name,
 * every graph output produced. Does not check ops or attributes (the runtime does). */
osc_status osc_loader_parse_model(const void *buf, size_t len, const char *base_dir,
                                  osc_pool *pool, osc_graph *g, osc_err *err);
/* The same under limits (NULL: the defaults of osc_limits_resolve): max_nodes, max_rank of every
 * tensor and declared type, max_string of every string element and string attribute; over one,
 * OSC_ERR_LIMIT before anything is allocated for it. */
osc_status osc_loader_parse_model_lim(const void *buf, size_t len, const char *base_dir,
                                      const osc_limits *lim, osc_pool *pool, osc_graph *g,
                                      osc_err *err);

/* The bytes a model is read from: in memory, or in an open file read as needed (a model file
 * is never read into memory whole). */
typedef struct osc_src {
    const uint8_t *mem; /* the bytes in memory (fd < 0) */
    int fd;             /* >= 0: read them from this file instead */
    uint64_t len;
    const char *name;   /* names the source in read errors */
} osc_src;

/* osc_loader_parse_model_lim over a source. */
osc_status osc_loader_parse_model_src(const osc_src *src, const char *base_dir,
                                      const osc_limits *lim, osc_pool *pool, osc_graph *g,
                                      osc_err *err);

/* Copies n bytes at `at` (at + n <= src->len) into dst; OSC_ERR_IO when the file gives fewer. */
osc_status osc_src_read(const osc_src *src, uint64_t at, void *dst, size_t n, osc_err *err);

/* Opens a regular file for reading: *fd and its size *len (close(*fd) when done). */
osc_status osc_open_file(const char *path, int *fd, uint64_t *len, osc_err *err);

/* Checks a tensor view before it is serialized: known dtype, rank in [0, OSC_MAX_RANK], dims
 * >= 0, element count without overflow, nbytes equal to the packed size of the elements,
 * data non-NULL when nbytes > 0, string elements with bytes. OSC_ERR_ARG otherwise; *nbytes
 * receives the size. */
osc_status osc_tensor_view_check(const osc_tensor *t, size_t *nbytes, osc_err *err);

#endif
