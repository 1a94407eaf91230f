/* mkseeds.c: builds the seed corpora of the four harnesses from folders holding model.onnx and
 * optionally test_data_set_0/input_K.pb (the official node tests, read in place, and the
 * malformed suite tests/bad): OUT/load/NAME (the model), OUT/run/NAME (flags, model and input
 * stream in fuzz_run.c's layout; NAME-nofusion-diff too, with flag 64, NAME-recompute-diff,
 * with flags 64 and 128, and NAME-smallint-diff, with flags 16 and 64 when every integer input
 * element fits a byte, when the model fuses),
 * OUT/inputs/NAME_K.pb and NAME_K.npy (each input tensor), and
 * OUT/shapes/recipe-HEX (a few fixed recipes of fuzz_shapes.c; it reads no model files).
 * Usage: osc-fuzz-mkseeds OUT FOLDER...   (a FOLDER without model.onnx is searched one level) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "onnx_scatter.h"

/* snprintf into an array; true when the result was truncated (the caller skips that path). */
#define FMT(buf, ...) (snprintf(buf, sizeof buf, __VA_ARGS__) >= (int)sizeof buf)

/* Seeds over this size are left out: they would raise libFuzzer's max_len and slow every run.
 * 40 KiB takes the small dynamic GNN layers of tests/models run on tests/bad's small graphs (SAGE:
 * a 38 KiB model). */
#define MAX_SEED ((size_t)40 << 10)

static void write_all(const char *path, const void *a, size_t na, const void *b, size_t nb) {
    if (na + nb > MAX_SEED) return;
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "mkseeds: cannot write %s\n", path);
        exit(1);
    }
    if (na) fwrite(a, 1, na, f);
    if (nb) fwrite(b, 1, nb, f);
    fclose(f);
}

/* A growing byte buffer. */
typedef struct bytes {
    uint8_t *p;
    size_t n, cap;
} bytes;

static void put(bytes *b, const void *src, size_t n) {
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n) cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) exit(1);
        b->p = p;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void put_byte(bytes *b, int v) {
    uint8_t c = (uint8_t)v;
    put(b, &c, 1);
}

#define MAX_PB 16

static void seed_folder(const char *out, const char *dir, const char *name) {
    char path[4096], why[1024];
    void *model;
    size_t model_len;
    if (FMT(path, "%s/model.onnx", dir)) return;
    if (cli_read_file(path, 0, &model, &model_len, why, sizeof why)) return;
    if (!FMT(path, "%s/load/%s", out, name)) write_all(path, model, model_len, NULL, 0);

    /* input_K.pb of the first data set, decoded */
    osc_tensor pb[MAX_PB];
    char pbname[MAX_PB][256];
    int n_pb = 0;
    for (; n_pb < MAX_PB; n_pb++) {
        void *buf;
        size_t len;
        char msg[OSC_MESSAGE_SIZE];
        if (FMT(path, "%s/test_data_set_0/input_%d.pb", dir, n_pb)) break;
        if (cli_read_file(path, 0, &buf, &len, msg, sizeof msg)) break;
        char dst[4096];
        if (!FMT(dst, "%s/inputs/%s_%d.pb", out, name, n_pb)) write_all(dst, buf, len, NULL, 0);
        osc_status st = osc_tensor_decode_pb(buf, len, &pb[n_pb], pbname[n_pb], 256, msg,
                                             sizeof msg);
        free(buf);
        if (st != OSC_OK) break;
        void *npy;
        size_t npy_len;
        if (cli_npy_encode(&pb[n_pb], &npy, &npy_len, msg, sizeof msg) == 0) {
            if (!FMT(dst, "%s/inputs/%s_%d.npy", out, name, n_pb))
                write_all(dst, npy, npy_len, NULL, 0);
            free(npy);
        }
    }

    /* the run seed: flags 0, the model, then each input in osc_model_input order; a model the
     * fusion pass rewrites gets a second one with flag 64 (compare with fusion off) and a third
     * with flags 64 and 128 (the same with opts.fuse_recompute) */
    bytes s = {0}, s8 = {0}; /* s8: flag 16, integer elements one signed byte each */
    int fits = 1;            /* every integer element fits one signed byte */
    put_byte(&s, 0);
    for (int k = 0; k < 4; k++) put_byte(&s, (int)(model_len >> (8 * k)));
    put(&s, model, model_len);
    put(&s8, s.p, s.n);
    osc_model *m = NULL;
    char msg[OSC_MESSAGE_SIZE];
    int fused = 0;
    if (osc_model_load_buffer(model, model_len, dir, NULL, &m, msg, sizeof msg) == OSC_OK) {
        for (size_t i = 0; i < osc_model_node_count(m); i++) {
            osc_node_desc nd;
            fused |= osc_model_node(m, i, &nd) == OSC_OK && nd.n_fused > 0;
        }
        for (size_t i = 0; i < osc_model_input_count(m); i++) {
            osc_value_desc vd;
            osc_model_input(m, i, &vd);
            if (vd.has_default) continue;
            const osc_tensor *t = NULL;
            for (int k = 0; k < n_pb && !t; k++)
                if (strcmp(pbname[k], vd.name) == 0) t = &pb[k];
            if (!t && (int)i < n_pb) t = &pb[i];
            if (!t) break;
            const size_t head = s.n;
            if (!vd.dtype) put_byte(&s, t->dtype - 1);
            if (vd.rank < 0) put_byte(&s, t->rank);
            for (int32_t d = 0; d < t->rank; d++)
                if (vd.rank < 0 || vd.dims[d] < 0) put_byte(&s, (int)t->dims[d]);
            put(&s8, s.p + head, s.n - head);
            if (t->dtype == OSC_INT64 || t->dtype == OSC_INT32) {
                const size_t count = t->nbytes / (t->dtype == OSC_INT64 ? 8 : 4);
                for (size_t e = 0; e < count; e++) {
                    int64_t x = t->dtype == OSC_INT64 ? ((const int64_t *)t->data)[e]
                                                      : ((const int32_t *)t->data)[e];
                    fits = fits && x >= -128 && x <= 127;
                    put_byte(&s8, (int)(x & 0xff));
                }
            } else if (t->dtype != OSC_STRING) {
                put(&s8, t->data, t->nbytes);
            } else {
                fits = 0;
            }
            if (t->dtype == OSC_STRING) {
                const osc_string *str = t->data;
                size_t count = t->nbytes / sizeof *str;
                for (size_t e = 0; e < count; e++) /* lengths, then bytes (at most 255) */
                    put_byte(&s, str[e].len > 255 ? 255 : (int)str[e].len);
                for (size_t e = 0; e < count; e++)
                    put(&s, str[e].ptr, str[e].len > 255 ? 255 : str[e].len);
            } else {
                put(&s, t->data, t->nbytes);
            }
        }
        osc_model_free(m);
    }
    if (!FMT(path, "%s/run/%s", out, name)) write_all(path, s.p, s.n, NULL, 0);
    if (fused && !FMT(path, "%s/run/%s-nofusion-diff", out, name)) {
        s.p[0] = 64;
        write_all(path, s.p, s.n, NULL, 0);
    }
    if (fused && !FMT(path, "%s/run/%s-recompute-diff", out, name)) {
        s.p[0] = 64 | 128; /* opts.fuse_recompute, compared with fusion off */
        write_all(path, s.p, s.n, NULL, 0);
    }
    /* indices one byte each: mutations keep them small, so more runs pass the index checks */
    if (fused && fits && !FMT(path, "%s/run/%s-smallint-diff", out, name)) {
        s8.p[0] = 16 | 64;
        write_all(path, s8.p, s8.n, NULL, 0);
    }
    free(s.p);
    free(s8.p);
    for (int k = 0; k < n_pb; k++) osc_tensor_free_data(&pb[k]);
    free(model);
}

static int has_model(const char *dir) {
    char path[4096];
    struct stat sb;
    if (FMT(path, "%s/model.onnx", dir)) return 0;
    return stat(path, &sb) == 0;
}

/* "PARENT_BASE" from a folder path, so node tests of two ONNX releases do not collide. */
static void seed_name(const char *path, char *buf, size_t size) {
    char tmp[4096];
    if (FMT(tmp, "%s", path)) tmp[0] = '\0';
    size_t n = strlen(tmp);
    while (n > 1 && tmp[n - 1] == '/') tmp[--n] = '\0';
    char *b = strrchr(tmp, '/');
    if (!b) {
        snprintf(buf, size, "%s", tmp);
        return;
    }
    *b = '\0';
    char *p = strrchr(tmp, '/');
    snprintf(buf, size, "%s_%s", p ? p + 1 : tmp, b + 1);
}

/* Seed recipes of the shapes harness (fuzz_shapes.c): byte 0 picks the shape (byte % 6: live,
 * stages, strings, fields, mix, fusion; both top bits set: control) and flags (bits 3-5), the
 * next bytes sizes and choices.
 * Two per shape, eight for fusion: a GCN layer, heads Reshaped with a per-head weight (double,
 * max), ScatterND with two steps onto input data, RowScatter onto ones, the Gather's output read
 * twice (opset 16), symbolic dims, a mismatched Expand shape, int64 data. */
static const char *const shape_recipes[] = {
    "00203f", "12ff0340", "0110", "13904002", "02030810", "1481304005", "0320102030",
    "09a00010ff", "04", "1cff05",
    "0500000000000000" "040b050103010008",
    "05002003030200000" "40e05020203010010",
    "0500010001030000" "0412050102020601" "0308",
    "05001200020400000" "2080001010000803f",
    "0502040000000000" "040b050103010008",
    "1100000000000000" "040b050103010008",
    "0500800000000000" "040b0501030100080102",
    "0500000500030000" "040b050103010008",
    /* control: Loop with an If in its body (equal shapes; Concat growing), Scan, SequenceMap */
    "c003" "00" "00" "05" "02" "00" "01", "c003" "00" "01" "05" "02" "00" "01", "c003" "01" "21",
    "c004" "02" "00" "02", "c004" "02" "02" "02"};

/* Recipes of the fusion shape with the symbolic flag (fuzz_shapes.c's dyn byte): a GCN layer
 * x [M, 4] -> E = 7 edges with one per-edge operand, spelled with dynamic axes (dyn 0x07: E
 * symbolic, the data's shape read through Shape -> Gather -> Unsqueeze -> Concat, the index
 * Expanded to Shape(updates)) and look-alikes: another dim read (0x17), a wider data (0x87), one
 * dim more (0x43), Expand to Shape(x) (0x0b), static shapes with E symbolic (0x03, 0x05); 0x87
 * with the dst's E byte's top bit set gives dst a size of its own (refused at run). The inputs
 * follow: M = 5, src (k % 5), w, dst (3k + 1) % 5. */
static void seed_shapes_dynamic(const char *out) {
    static const uint8_t dyns[] = {0x07, 0x17, 0x87, 0x43, 0x0b, 0x03, 0x05, 0x87};
    enum { M = 5, E = 7, COLS = 4 };
    for (size_t i = 0; i < sizeof dyns; i++) {
        bytes b = {0};
        const uint8_t head[] = {0x11, 0, 0, dyns[i], 0, 0, 0, 0, 0, 0x04, 0x0b, 0x05, 0x01, 0x03,
                                0x01, 0, 0};
        put(&b, head, sizeof head);
        put_byte(&b, M);
        for (int k = 0; k < M * COLS * 4; k++) put_byte(&b, 0x3f); /* x: 0.75 */
        put_byte(&b, E);
        for (int k = 0; k < E; k++) put_byte(&b, k % M);
        put_byte(&b, 0);                                                /* w's E: the same */
        for (int k = 0; k < E * COLS * 4; k++) put_byte(&b, 0x40);  /* w: 3.0 */
        put_byte(&b, i + 1 == sizeof dyns ? 0x85 : 0);              /* dst's E */
        for (int k = 0; k < E; k++) put_byte(&b, (3 * k + 1) % M);
        char path[4096];
        if (!FMT(path, "%s/shapes/dynamic-%02x%s", out, dyns[i],
                 i + 1 == sizeof dyns ? "-dst-own-size" : ""))
            write_all(path, b.p, b.n, NULL, 0);
        free(b.p);
    }
}

static void seed_shapes(const char *out) {
    for (size_t i = 0; i < sizeof shape_recipes / sizeof *shape_recipes; i++) {
        uint8_t b[32];
        size_t n = strlen(shape_recipes[i]) / 2;
        for (size_t k = 0; k < n && k < sizeof b; k++) {
            unsigned v;
            sscanf(shape_recipes[i] + 2 * k, "%2x", &v);
            b[k] = (uint8_t)v;
        }
        char path[4096];
        if (FMT(path, "%s/shapes/recipe-%s", out, shape_recipes[i])) continue;
        write_all(path, b, n, NULL, 0);
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: osc-fuzz-mkseeds OUT FOLDER...\n");
        return 2;
    }
    const char *out = argv[1];
    const char *subs[] = {"", "/load", "/run", "/inputs", "/shapes"};
    for (size_t i = 0; i < 5; i++) {
        char p[4096];
        if (FMT(p, "%s%s", out, subs[i])) return 1;
        mkdir(p, 0755);
    }
    seed_shapes(out);
    seed_shapes_dynamic(out);
    int n = 0;
    for (int a = 2; a < argc; a++) {
        char name[512];
        if (has_model(argv[a])) {
            seed_name(argv[a], name, sizeof name);
            seed_folder(out, argv[a], name);
            n++;
            continue;
        }
        DIR *d = opendir(argv[a]);
        if (!d) continue;
        for (struct dirent *e; (e = readdir(d));) {
            char sub[4096];
            if (e->d_name[0] == '.') continue;
            if (FMT(sub, "%s/%s", argv[a], e->d_name)) continue;
            if (!has_model(sub)) continue;
            seed_name(sub, name, sizeof name);
            seed_folder(out, sub, name);
            n++;
        }
        closedir(d);
    }
    printf("mkseeds: %d folders -> %s\n", n, out);
    return 0;
}
