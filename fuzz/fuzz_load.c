/* fuzz_load.c: libFuzzer harness for the loader: bytes -> ModelProto -> model, then introspection.
 * External data resolves in a scratch folder holding a data file, a subfolder and a symlink that
 * leaves it, so locations, offsets and lengths from the fuzzer reach every check of external.c.
 * The same bytes are loaded from a file in that folder too (its skeleton unpacked, its payloads
 * read from the file): the status and message must be those of the load from memory, unless
 * one of them ran out of memory or into the byte cap (the two paths allocate differently). */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink, nftw */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "tests/support/testutil.h"

/* snprintf into an array; true when the result was truncated (the caller skips that path). */
#define FMT(buf, ...) (snprintf(buf, sizeof buf, __VA_ARGS__) >= (int)sizeof buf)

static char g_dir[256];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void cleanup(void) {
    if (g_dir[0]) nftw(g_dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* A data file of size bytes (at most 8192) in the scratch folder, byte i = i * 7 % 251. */
static void write_data(const char *name, size_t size) {
    unsigned char buf[8192];
    for (size_t i = 0; i < size && i < sizeof buf; i++) buf[i] = (unsigned char)(i * 7 % 251);
    osc_test_write_file(g_dir, name, buf, size < sizeof buf ? size : sizeof buf, "fuzz_load");
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    const char *tmp = getenv("TMPDIR");
    if (FMT(g_dir, "%s/osc-fuzz-load-XXXXXX", tmp && *tmp ? tmp : "/tmp") || !mkdtemp(g_dir)) {
        g_dir[0] = '\0';
        return 0;
    }
    atexit(cleanup);
    char path[512];
    write_data("d.bin", 8192); /* "location": "d.bin", offsets inside and past its end */
    if (!FMT(path, "%s/sub", g_dir)) mkdir(path, 0700);
    write_data("sub/e.bin", 64);
    /* symlinks leaving the folder and staying inside; best effort, the harness works without */
    if (!FMT(path, "%s/out", g_dir) && symlink("/etc/hostname", path) != 0) path[0] = '\0';
    if (!FMT(path, "%s/in", g_dir) && symlink("d.bin", path) != 0) path[0] = '\0';
    return 0;
}

static void introspect(const osc_model *m) {
    osc_value_desc vd;
    osc_node_desc nd;
    const char *s;
    int64_t v;
    int32_t mode;
    for (size_t i = 0; i < osc_model_opset_count(m); i++)
        if (osc_model_opset(m, i, &s, &v) != OSC_OK || !s) __builtin_trap();
    for (size_t i = 0; i < osc_model_input_count(m); i++) {
        if (osc_model_input(m, i, &vd) != OSC_OK || !vd.name) __builtin_trap();
        if (vd.rank < -1 || vd.rank > OSC_MAX_RANK) __builtin_trap();
    }
    for (size_t i = 0; i < osc_model_output_count(m); i++) {
        if (osc_model_output(m, i, &vd) != OSC_OK || !vd.name) __builtin_trap();
        if (vd.rank < -1 || vd.rank > OSC_MAX_RANK) __builtin_trap();
    }
    for (size_t i = 0; i < osc_model_node_count(m); i++) {
        if (osc_model_node(m, i, &nd) != OSC_OK) __builtin_trap();
        for (int32_t k = 0; k < nd.n_inputs; k++) (void)strlen(nd.inputs[k]);
        for (int32_t k = 0; k < nd.n_outputs; k++) (void)strlen(nd.outputs[k]);
        (void)osc_model_node_attr_int(m, i, "axis", &v);
        if (osc_model_node_attr_str(m, i, "reduction", &s) == OSC_OK) (void)strlen(s);
        if (osc_model_node_inplace(m, i, &mode) != OSC_OK) __builtin_trap();
    }
    for (size_t i = 0; i < osc_model_warning_count(m); i++) (void)strlen(osc_model_warning(m, i));
    (void)osc_model_arena_bytes(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    osc_options o;
    osc_options_init(&o);
    o.max_bytes = FUZZ_MAX_BYTES;
    o.max_iterations = FUZZ_MAX_ITERATIONS;
    o.strict = (int32_t)(size % 2); /* both modes, decided by the input so runs reproduce */
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    osc_status st = osc_model_load_buffer(data, size, g_dir[0] ? g_dir : NULL, &o, &m, msg,
                                          sizeof msg);
    fuzz_check_msg(st, msg, sizeof msg);
    if (st != OSC_OK && m) __builtin_trap(); /* *out must be NULL on failure */
    char path[512], fmsg[OSC_MESSAGE_SIZE];
    osc_model *fm = NULL;
    if (g_dir[0] && !FMT(path, "%s/m.onnx", g_dir) &&
        osc_test_write_file(g_dir, "m.onnx", data, size, "fuzz_load")) {
        osc_status fst = osc_model_load_file(path, &o, &fm, fmsg, sizeof fmsg);
        fuzz_check_msg(fst, fmsg, sizeof fmsg);
        if (fst != OSC_OK && fm) __builtin_trap();
        if (!fuzz_resource_status(st) && !fuzz_resource_status(fst) &&
            (st != fst || strcmp(msg, fmsg) != 0)) {
            fprintf(stderr, "memory: %d %s\nfile: %d %s\n", (int)st, msg, (int)fst, fmsg);
            __builtin_trap();
        }
        if (fm && m && osc_model_node_count(fm) != osc_model_node_count(m)) __builtin_trap();
        osc_model_free(fm);
    }
    if (st != OSC_OK) return 0;
    introspect(m);
    osc_model_free(m);
    return 0;
}
