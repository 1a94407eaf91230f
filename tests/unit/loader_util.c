/* loader_util.c: helpers shared by the loader tests (see loader_util.h). */
#define _XOPEN_SOURCE 700 /* nftw */
#include "loader_util.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lu_expect_(osc_status st, osc_status want, const char *msg, const char *file, int line, ...) {
    if (st != want)
        fail_msg("%s:%d: status %s (%d), expected %s (%d); message: %s", file, line,
                 osc_status_name(st), (int)st, osc_status_name(want), (int)want, msg);
    va_list ap;
    va_start(ap, line);
    for (const char *needle; (needle = va_arg(ap, const char *)) != NULL;)
        if (!strstr(msg, needle)) {
            va_end(ap);
            fail_msg("%s:%d: message \"%s\" lacks \"%s\"", file, line, msg, needle);
        }
    va_end(ap);
}

void *lu_pack(const ProtobufCMessage *m, size_t *len) {
    *len = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(*len ? *len : 1);
    assert_non_null(buf);
    protobuf_c_message_pack(m, buf);
    return buf;
}

osc_status lu_decode(const Onnx__TensorProto *tp, osc_tensor *out, char *msg, size_t msg_size) {
    size_t len;
    void *buf = lu_pack(&tp->base, &len);
    osc_status st = osc_tensor_decode_pb(buf, len, out, NULL, 0, msg, msg_size);
    free(buf);
    return st;
}

osc_status lu_parse(lu_model *m, const void *buf, size_t len, const char *base_dir) {
    return lu_parse_opts(m, buf, len, base_dir, NULL);
}

osc_status lu_parse_opts(lu_model *m, const void *buf, size_t len, const char *base_dir,
                         const osc_options *opts) {
    osc_allocator_init(&m->alloc, opts);
    osc_pool_init(&m->pool, &m->alloc, 0);
    osc_err_clear(&m->err);
    return osc_loader_parse_model(buf, len, base_dir, &m->pool, &m->g, &m->err);
}

void lu_model_free(lu_model *m) { osc_pool_free(&m->pool); }

osc_status lu_parse_mw(lu_model *m, osc_mw *mw) {
    void *buf;
    size_t len;
    osc_status st = osc_mw_serialize(mw, &buf, &len);
    if (st) fail_msg("osc_mw_serialize: %s", osc_mw_error(mw));
    st = lu_parse(m, buf, len, NULL);
    free(buf);
    return st;
}

int32_t lu_value(const osc_graph *g, const char *name) {
    for (int32_t i = 0; i < g->n_values; i++)
        if (strcmp(g->values[i].name, name) == 0) return i;
    fail_msg("no value named '%s'", name);
    return -1;
}

void lu_mp_init(lu_mp *m) {
    onnx__model_proto__init(&m->model);
    onnx__graph_proto__init(&m->graph);
    onnx__operator_set_id_proto__init(&m->opset);
    m->opset.has_version = 1;
    m->opset.version = 18;
    m->opsets[0] = &m->opset;
    m->model.has_ir_version = 1;
    m->model.ir_version = 8;
    m->model.n_opset_import = 1;
    m->model.opset_import = m->opsets;
    m->model.graph = &m->graph;
}

void lu_tmpdir(char *path, size_t size) {
    const char *base = getenv("TMPDIR");
    snprintf(path, size, "%s/osc-loader-XXXXXX", base && base[0] ? base : "/tmp");
    assert_non_null(mkdtemp(path));
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

void lu_rmtree(const char *path) { nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS); }

void lu_write_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

void *lu_track_fn(void *ud, void *ptr, size_t osize, size_t nsize) {
    lu_track *t = ud;
    if (nsize == 0) {
        free(ptr);
        t->cur -= osize;
        return NULL;
    }
    if (t->calls++ == t->fail_at) return NULL;
    void *q = realloc(ptr, nsize);
    if (!q) return NULL;
    t->cur = t->cur - osize + nsize;
    if (t->cur > t->peak) t->peak = t->cur;
    return q;
}

osc_status lu_decode_init(lu_model *m, Onnx__TensorProto *tp, const osc_tensor **out) {
    lu_mp mp;
    lu_mp_init(&mp);
    Onnx__TensorProto *inits[1] = {tp};
    mp.graph.n_initializer = 1;
    mp.graph.initializer = inits;
    size_t len;
    void *buf = lu_pack(&mp.model.base, &len);
    osc_status st = lu_parse(m, buf, len, NULL);
    free(buf);
    *out = NULL;
    if (st == OSC_OK) {
        assert_int_equal(m->g.n_values, 1);
        *out = m->g.values[0].init;
        assert_non_null(*out);
    }
    return st;
}

osc_status lu_read(const char *path, osc_allocator *a, osc_err *err, void **buf, size_t *len) {
    osc_allocator_init(a, NULL);
    osc_err_clear(err);
    *buf = NULL;
    *len = 0;
    int fd;
    uint64_t size;
    osc_status st = osc_open_file(path, &fd, &size, err);
    if (st) return st;
    void *p = size ? osc_malloc(a, (size_t)size) : NULL;
    assert_true(p || !size);
    osc_src src = {NULL, fd, size, path};
    st = osc_src_read(&src, 0, p, (size_t)size, err);
    close(fd);
    if (st) {
        osc_free(a, p, (size_t)size);
        return st;
    }
    *buf = p;
    *len = (size_t)size;
    return OSC_OK;
}
