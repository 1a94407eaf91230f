/* gen_cli_models.c: writes the models, .npy/.pb files and node-test folders the CLI tests use. */
/* The .npy files are assembled byte by byte here (not with tools/npy.c), as np.save writes
 * them for a (2, 3) array: a 128-byte header, then the data. Usage: gen_cli_models OUT_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/support/testutil.h"
#include "tests/support/models.h"
#include "onnx_scatter.h"

static const char *g_dir;
static int g_failed;

static void write_file(const char *name, const void *buf, size_t len) {
    if (!osc_test_write_file(g_dir, name, buf, len, "gen_cli_models")) g_failed = 1;
}

static void write_model(const char *name, osc_mw *mw) {
    void *buf;
    size_t len;
    if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) {
        fprintf(stderr, "gen_cli_models: %s: %s\n", name, osc_mw_error(mw));
        g_failed = 1;
    } else {
        write_file(name, buf, len);
        free(buf);
    }
    osc_mw_free(mw);
}

static void write_pb(const char *file, const char *name, const osc_tensor *t) {
    void *buf;
    size_t len;
    char msg[256];
    if (osc_tensor_encode_pb(t, name, &buf, &len, msg, sizeof msg) != OSC_OK) {
        fprintf(stderr, "gen_cli_models: %s: %s\n", file, msg);
        g_failed = 1;
        return;
    }
    write_file(file, buf, len);
    free(buf);
}

/* A .npy file: magic, version 1.0, u16 header length 118, the dict padded with blanks to 127
 * bytes, '\n', then the data bytes. */
static void write_npy(const char *file, const char *dict, const void *data, size_t n) {
    unsigned char buf[4096];
    size_t dl = strlen(dict);
    memcpy(buf, "\x93NUMPY\x01\x00\x76\x00", 10);
    memcpy(buf + 10, dict, dl);
    memset(buf + 10 + dl, ' ', 117 - dl);
    buf[127] = '\n';
    memcpy(buf + 128, data, n);
    write_file(file, buf, 128 + n);
}

/* GatherElements(data T[A, B], indices int64[A, B], axis 0) -> y T[A, B]: with indices
 * [[0,0,0],[1,1,1]] y equals data, so y.npy must equal the data file byte for byte. */
static void gather_model(int32_t dtype) {
    char name[64];
    const int64_t dims[2] = {-1, -1};
    const char *names[2] = {"A", "B"};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "data", dtype, 2, dims, names);
    osc_mw_input(mw, "indices", OSC_INT64, 2, dims, names);
    const char *in[2] = {"data", "indices"}, *out[1] = {"y"};
    int n = osc_mw_node(mw, "GatherElements", "gather", 2, in, 1, out);
    osc_mw_attr_int(mw, n, "axis", 0);
    osc_mw_output(mw, "y", dtype, 2, dims, names);
    snprintf(name, sizeof name, "ge_%s.onnx", osc_dtype_name(dtype));
    write_model(name, mw);
}

/* What the registry's rows mean for a model (tests/cli/versions.sh): a Concat of 20 inputs
 * (variadic ops take any number), a ScatterND-11 with bfloat16 data (outside the type
 * constraint of version 11, which adds bfloat16 only at 13), and a ScatterElements model that
 * imports opset 40, newer than any this build knows. */
static void version_models(void) {
    enum { N = 20 };
    char names[N][8];
    const char *in[N], *out[1] = {"y"};
    const int64_t one[2] = {1, 2}, all[2] = {N, 2};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "x%d", i);
        in[i] = names[i];
        osc_mw_input(mw, names[i], OSC_FLOAT, 2, one, NULL);
    }
    osc_mw_attr_int(mw, osc_mw_node(mw, "Concat", "concat", N, in, 1, out), "axis", 0);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, all, NULL);
    write_model("concat20.onnx", mw);

    /* three ConstantOfShape of 1 MiB each, folded at load while opts.max_fold_bytes allows */
    int64_t four = 4, elems = 262144;
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 18);
    osc_tensor shp = osc_test_view(OSC_INT64, 1, one, &elems);
    osc_mw_initializer(mw, "shp", &shp);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, &four, NULL);
    const char *xi[1] = {"x"}, *shi[1] = {"shp"}, *const cn[3] = {"c0", "c1", "c2"};
    osc_mw_node(mw, "Identity", NULL, 1, xi, 1, out);
    for (int i = 0; i < 3; i++) osc_mw_node(mw, "ConstantOfShape", NULL, 1, shi, 1, &cn[i]);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, &four, NULL);
    write_model("fold3.onnx", mw);

    const int64_t d4[1] = {4}, d11[2] = {1, 1}, d1[1] = {1};
    const char *sin[3] = {"data", "indices", "updates"};
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 11);
    osc_mw_input(mw, "data", OSC_BFLOAT16, 1, d4, NULL);
    osc_mw_input(mw, "indices", OSC_INT64, 2, d11, NULL);
    osc_mw_input(mw, "updates", OSC_BFLOAT16, 1, d1, NULL);
    osc_mw_node(mw, "ScatterND", "snd", 3, sin, 1, out);
    osc_mw_output(mw, "y", OSC_BFLOAT16, 1, d4, NULL);
    write_model("scatternd11_bf16.onnx", mw);

    const int64_t d3[1] = {3}, d2[1] = {2};
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 40);
    osc_mw_input(mw, "data", OSC_FLOAT, 1, d3, NULL);
    osc_mw_input(mw, "indices", OSC_INT64, 1, d2, NULL);
    osc_mw_input(mw, "updates", OSC_FLOAT, 1, d2, NULL);
    osc_mw_attr_string(mw, osc_mw_node(mw, "ScatterElements", "se", 3, sin, 1, out), "reduction",
                       "add");
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d3, NULL);
    write_model("opset40.onnx", mw);
}

/* The (2, 3) test arrays of every dtype numpy has, and their descr. */
static void numpy_arrays(void) {
    static const struct { int32_t dtype; const char *descr; int size; } types[] = {
        {OSC_BOOL, "|b1", 1},      {OSC_INT8, "|i1", 1},   {OSC_UINT8, "|u1", 1},
        {OSC_INT16, "<i2", 2},     {OSC_UINT16, "<u2", 2}, {OSC_INT32, "<i4", 4},
        {OSC_UINT32, "<u4", 4},    {OSC_INT64, "<i8", 8},  {OSC_UINT64, "<u8", 8},
        {OSC_FLOAT16, "<f2", 2},   {OSC_FLOAT, "<f4", 4},  {OSC_DOUBLE, "<f8", 8},
        {OSC_COMPLEX64, "<c8", 8}, {OSC_COMPLEX128, "<c16", 16},
    };
    const double vals[6] = {0, 1.5, -2, 3.25, 100, -0.5};
    const int64_t ints[6] = {0, 1, -2, 3, 100, -7};
    const uint16_t halfs[6] = {0x0000, 0x3E00, 0xC000, 0x4280, 0x5640, 0xB800}; /* = vals */
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        unsigned char data[6 * 16];
        int32_t dt = types[k].dtype;
        for (int i = 0; i < 6; i++) {
            unsigned char *p = data + i * types[k].size;
            float f = (float)vals[i];
            switch (dt) {
            case OSC_BOOL: p[0] = i % 3 == 0; break;
            case OSC_FLOAT16: memcpy(p, &halfs[i], 2); break;
            case OSC_FLOAT: memcpy(p, &f, 4); break;
            case OSC_DOUBLE: memcpy(p, &vals[i], 8); break;
            case OSC_COMPLEX64: memcpy(p, &f, 4), f = (float)-vals[5 - i], memcpy(p + 4, &f, 4); break;
            case OSC_COMPLEX128: {
                double im = -vals[5 - i];
                memcpy(p, &vals[i], 8), memcpy(p + 8, &im, 8);
                break;
            }
            default: { /* integers, little-endian two's complement, truncated */
                uint64_t u = (uint64_t)ints[i];
                for (int b = 0; b < types[k].size; b++) p[b] = (unsigned char)(u >> (8 * b));
            }
            }
        }
        char dict[128], file[64];
        snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (2, 3), }",
                 types[k].descr);
        snprintf(file, sizeof file, "x_%s.npy", osc_dtype_name(dt));
        write_npy(file, dict, data, 6 * (size_t)types[k].size);
        gather_model(dt);
    }
    /* strings: ['a', 'bc', '', 'é', 'xyz', '😀'] as '<U3' (UTF-32LE, NUL padded) */
    const uint32_t cps[6][3] = {{'a'}, {'b', 'c'}, {0}, {0xE9}, {'x', 'y', 'z'}, {0x1F600}};
    unsigned char u[6 * 12];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 3; j++)
            for (int b = 0; b < 4; b++) u[12 * i + 4 * j + b] = (unsigned char)(cps[i][j] >> (8 * b));
    write_npy("x_string.npy", "{'descr': '<U3', 'fortran_order': False, 'shape': (2, 3), }", u, sizeof u);
    gather_model(OSC_STRING);
    /* the same int32 array [[1, 2, 3], [4, -5, 6]] big-endian and in Fortran order */
    const int32_t c[6] = {1, 2, 3, 4, -5, 6};
    unsigned char be[24], fo[24];
    for (int i = 0; i < 6; i++)
        for (int b = 0; b < 4; b++) be[4 * i + b] = (unsigned char)((uint32_t)c[i] >> (8 * (3 - b)));
    const int order[6] = {0, 3, 1, 4, 2, 5}; /* column by column */
    for (int i = 0; i < 6; i++) memcpy(fo + 4 * i, &c[order[i]], 4);
    write_npy("c_int32.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", c, 24);
    write_npy("be_int32.npy", "{'descr': '>i4', 'fortran_order': False, 'shape': (2, 3), }", be, 24);
    write_npy("f_int32.npy", "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", fo, 24);
    /* malformed files */
    write_npy("bad_shape.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (2, -3), }", c, 24);
    write_npy("short.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 4), }", c, 24);
    write_file("not_npy.npy", "\x93NUMPX garbage", 14);
    /* a float (2, 2) for dtype/shape mismatches */
    const float f4[4] = {1, 2, 3, 4};
    write_npy("f_2x2.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", f4, 16);
}

/* bfloat16 and strings via .pb: data and the expected output (named y) */
static void pb_files(void) {
    const uint16_t bf[6] = {0x3F80, 0xC049, 0x0000, 0x7F80, 0x4120, 0xBF00};
    osc_tensor t = {.dtype = OSC_BFLOAT16, .rank = 2, .dims = {2, 3}, .data = (void *)bf, .nbytes = 12};
    write_pb("x_bfloat16.pb", "data", &t);
    write_pb("y_bfloat16.pb", "y", &t);
    const osc_string s[6] = {{"a", 1}, {"\xff\x00z", 3}, {"", 0}, {"\xc3\xa9", 2}, {"xyz", 3}, {"q", 1}};
    t = (osc_tensor){.dtype = OSC_STRING, .rank = 2, .dims = {2, 3}, .data = (void *)s, .nbytes = sizeof s};
    write_pb("x_string.pb", "data", &t); /* not UTF-8, embedded NUL: .npy cannot hold it */
    write_pb("y_string.pb", "y", &t);
    gather_model(OSC_BFLOAT16);
}

/* Scatter and gather nodes chained over symbolic dims: --random must give in-range indices
 * for all of them (element indices, ND tuples, batch_dims). */
static void random_model(void) {
    const char *NC[2] = {"N", "C"}, *KC[2] = {"K", "C"}, *M1[2] = {"M", NULL}, *MC[2] = {"M", "C"};
    const char *P2[2] = {"P", NULL}, *NG[2] = {"N", "G"}, *NQ1[3] = {"N", "Q", NULL};
    const int64_t d2[2] = {-1, -1}, m1[2] = {-1, 1}, p2[2] = {-1, 2}, q1[3] = {-1, -1, 1};
    osc_mw *mw = osc_mw_graph(18, 8, (const osc_mw_value[8]){
        {"data", OSC_FLOAT, 2, d2, NC}, {"i0", OSC_INT64, 2, d2, KC}, {"u0", OSC_FLOAT, 2, d2, KC},
        {"i1", OSC_INT64, 2, m1, M1},   {"u1", OSC_FLOAT, 2, d2, MC}, {"i2", OSC_INT64, 2, p2, P2},
        {"i3", OSC_INT32, 2, d2, NG},   {"i4", OSC_INT64, 3, q1, NQ1}});
    const char *s0[3] = {"data", "i0", "u0"}, *a[1] = {"a"};
    int n = osc_mw_node(mw, "ScatterElements", "s0", 3, s0, 1, a);
    osc_mw_attr_int(mw, n, "axis", -2);
    const char *s1[3] = {"a", "i1", "u1"}, *b[1] = {"b"};
    osc_mw_node(mw, "ScatterND", "s1", 3, s1, 1, b);
    const char *g0[2] = {"b", "i2"}, *y0[1] = {"y0"};
    osc_mw_node(mw, "GatherND", "g0", 2, g0, 1, y0);
    const char *g1[2] = {"b", "i3"}, *y1[1] = {"y1"};
    n = osc_mw_node(mw, "GatherElements", "g1", 2, g1, 1, y1);
    osc_mw_attr_int(mw, n, "axis", 1);
    const char *g2[2] = {"b", "i4"}, *y2[1] = {"y2"};
    n = osc_mw_node(mw, "GatherND", "g2", 2, g2, 1, y2);
    osc_mw_attr_int(mw, n, "batch_dims", 1);
    const int64_t p[1] = {-1}, nq[2] = {-1, -1};
    const char *P[1] = {"P"}, *NQ[2] = {"N", "Q"};
    osc_mw_outputs(mw, 3, (const osc_mw_value[3]){
        {"y0", OSC_FLOAT, 1, p, P}, {"y1", OSC_FLOAT, 2, d2, NG}, {"y2", OSC_FLOAT, 2, nq, NQ}});
    write_model("random.onnx", mw);

    /* TensorScatter: write_indices w must keep w + T <= S */
    const int64_t d3[3] = {-1, -1, 4}, bd[1] = {-1};
    const char *BSH[3] = {"B", "S", NULL}, *BTH[3] = {"B", "T", NULL}, *B[1] = {"B"};
    const osc_mw_value tsi[3] = {{"past", OSC_FLOAT, 3, d3, BSH},
                                 {"update", OSC_FLOAT, 3, d3, BTH},
                                 {"write_indices", OSC_INT64, 1, bd, B}};
    mw = osc_mw_new(10);
    osc_mw_opset(mw, "", 24);
    osc_mw_inputs(mw, 3, tsi);
    const char *ts[3] = {"past", "update", "write_indices"}, *y[1] = {"present"};
    osc_mw_node(mw, "TensorScatter", "ts", 3, ts, 1, y);
    osc_mw_output(mw, "present", OSC_FLOAT, 3, d3, BSH);
    write_model("tscatter.onnx", mw);

    /* static shapes, two nodes, for bench --profile */
    const int64_t dd[2] = {256, 64}, id[2] = {16, 64}, gd[2] = {256, 8};
    mw = osc_mw_graph(18, 4, (const osc_mw_value[4]){
        {"data", OSC_FLOAT, 2, dd, NULL}, {"indices", OSC_INT64, 2, id, NULL},
        {"updates", OSC_FLOAT, 2, id, NULL}, {"gidx", OSC_INT64, 2, gd, NULL}});
    const char *pin[3] = {"data", "indices", "updates"}, *pa[1] = {"scattered"};
    osc_mw_node(mw, "ScatterElements", "scatter", 3, pin, 1, pa);
    const char *gin[2] = {"scattered", "gidx"}, *py[1] = {"y"};
    n = osc_mw_node(mw, "GatherElements", "gather", 2, gin, 1, py);
    osc_mw_attr_int(mw, n, "axis", 1);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, gd, NULL);
    write_model("profile.onnx", mw);
}

/* Models whose names try to drive the terminal or clash as file names (hardening.sh). */
static void hostile_models(void) {
    const int64_t d2[2] = {2, 3}, d1[1] = {2}, big[2] = {20000, 20000};
    /* GatherElements named "n\n" ESC[2J: an out-of-range index makes the run fail with the
     * node's name in the message; the symbolic dim and the output carry ESC too */
    const char *sym[1] = {"N\x1b[2J"};
    const int64_t dsym[1] = {-1};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "data", OSC_FLOAT, 2, d2, NULL);
    osc_mw_input(mw, "indices", OSC_INT64, 2, d2, NULL);
    osc_mw_input(mw, "s\x1b]0;title\x07", OSC_FLOAT, 1, dsym, sym);
    const char *in[2] = {"data", "indices"}, *out[1] = {"y\n\x1b[2J"};
    int n = osc_mw_node(mw, "GatherElements", "n\n\x1b[2J\xff", 2, in, 1, out);
    osc_mw_attr_int(mw, n, "axis", 0);
    const char *in2[1] = {"s\x1b]0;title\x07"}, *out2[1] = {"t"};
    osc_mw_node(mw, "Identity", "id", 1, in2, 1, out2);
    osc_mw_output(mw, "y\n\x1b[2J", OSC_FLOAT, 2, d2, NULL);
    osc_mw_output(mw, "t", OSC_FLOAT, 1, dsym, sym);
    write_model("evil_names.onnx", mw);

    /* two outputs of x, named as given: a,b (partial writes), a/b,a_b (one file name) */
    static const char *const pairs[2][3] = {{"two_out.onnx", "a", "b"},
                                            {"collide.onnx", "a/b", "a_b"}};
    for (int k = 0; k < 2; k++) {
        mw = osc_mw_new(8);
        osc_mw_opset(mw, "", 13);
        osc_mw_input(mw, "x", OSC_FLOAT, 1, d1, NULL);
        const char *x[1] = {"x"}, *o1[1] = {pairs[k][1]}, *o2[1] = {pairs[k][2]};
        osc_mw_node(mw, "Identity", "i1", 1, x, 1, o1);
        osc_mw_node(mw, "Identity", "i2", 1, x, 1, o2);
        osc_mw_output(mw, pairs[k][1], OSC_FLOAT, 1, d1, NULL);
        osc_mw_output(mw, pairs[k][2], OSC_FLOAT, 1, d1, NULL);
        write_model(pairs[k][0], mw);
    }

    /* names no file may have (300 bytes, over NAME_MAX), next to "a": outputs a and LONG of
     * x; inputs a and LONG added; inputs a/b and a_b (one file name) added */
    char lng[301];
    memset(lng, 'l', 300);
    lng[300] = '\0';
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, d1, NULL);
    const char *lx[1] = {"x"}, *la[1] = {"a"}, *ll[1] = {lng};
    osc_mw_node(mw, "Identity", "i1", 1, lx, 1, la);
    osc_mw_node(mw, "Identity", "i2", 1, lx, 1, ll);
    osc_mw_output(mw, "a", OSC_FLOAT, 1, d1, NULL);
    osc_mw_output(mw, lng, OSC_FLOAT, 1, d1, NULL);
    write_model("long_out.onnx", mw);
    static const char *const adds[2][3] = {{"long_in.onnx", "a", NULL},
                                           {"collide_in.onnx", "a/b", "a_b"}};
    for (int k = 0; k < 2; k++) {
        const char *ab[2] = {adds[k][1], adds[k][2] ? adds[k][2] : lng}, *ay[1] = {"y"};
        mw = osc_mw_new(8);
        osc_mw_opset(mw, "", 13);
        osc_mw_input(mw, ab[0], OSC_FLOAT, 1, d1, NULL);
        osc_mw_input(mw, ab[1], OSC_FLOAT, 1, d1, NULL);
        osc_mw_node(mw, "Add", "add", 2, ab, 1, ay);
        osc_mw_output(mw, "y", OSC_FLOAT, 1, d1, NULL);
        write_model(adds[k][0], mw);
    }

    /* a float[8192] Constant (32 KiB) read only by a folded Neg: the load gives its bytes back
     * (released), Neg's output stays; y = x + Neg(w) */
    static float w[8192];
    const int64_t dw[1] = {8192};
    for (int k = 0; k < 8192; k++) w[k] = (float)k;
    osc_tensor tw = {.dtype = OSC_FLOAT, .rank = 1, .dims = {8192}, .data = w, .nbytes = sizeof w};
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "x", OSC_FLOAT, 1, dw, NULL);
    const char *wo[1] = {"w"}, *nwo[1] = {"nw"}, *xa[2] = {"x", "nw"}, *yo[1] = {"y"};
    osc_mw_attr_tensor(mw, osc_mw_node(mw, "Constant", "const_w", 0, NULL, 1, wo), "value", &tw);
    osc_mw_node(mw, "Neg", "neg", 1, wo, 1, nwo);
    osc_mw_node(mw, "Add", "add", 2, xa, 1, yo);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, dw, NULL);
    write_model("released.onnx", mw);

    /* a few hundred bytes declaring four float [20000, 20000] inputs: 6.4 GB with --random */
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    for (int k = 0; k < 4; k++) {
        char iname[8], oname[8];
        snprintf(iname, sizeof iname, "in%d", k);
        snprintf(oname, sizeof oname, "out%d", k);
        osc_mw_input(mw, iname, OSC_FLOAT, 2, big, NULL);
        const char *i1[1] = {iname}, *o1[1] = {oname};
        osc_mw_node(mw, "Identity", NULL, 1, i1, 1, o1);
        osc_mw_output(mw, oname, OSC_FLOAT, 2, big, NULL);
    }
    write_model("big_inputs.onnx", mw);
}

/* An int64 initializer of n values. */
static void init_ints(osc_mw *mw, const char *name, int32_t rank, const int64_t *v, int64_t n) {
    osc_tensor t = {.dtype = OSC_INT64, .rank = rank, .dims = {n}, .data = (void *)v,
                    .nbytes = (size_t)n * sizeof *v};
    osc_mw_initializer(mw, name, &t);
}

/* Integer inputs that reach their readers through other ops (random.sh): --random must follow
 * them. idx -> Unsqueeze -> Cast -> Gather(x [6, 4]); rows (int32) -> Cast, cols -> Unsqueeze
 * -> Concat(axis -1) -> ScatterND(x) tuples (rows in [0, 5], cols in [0, 3]); labels ->
 * OneHot(depth 7); start -> Unsqueeze -> Slice(x, axes [1]) starts; keep -> Reshape(x) target
 * of x's rank. Then models where no random value is safe. */
static void walk_models(void) {
    const int64_t dx[2] = {6, 4}, d3[1] = {3}, d5[1] = {5}, d2[1] = {2};
    const int64_t ax1[1] = {1}, axm1[1] = {-1}, ax0[1] = {0}, big[1] = {100}, depth[1] = {7};
    osc_mw *mw = osc_mw_graph(13, 8, (const osc_mw_value[8]){
        {"x", OSC_FLOAT, 2, dx, NULL},        {"idx", OSC_INT64, 1, d3, NULL},
        {"rows", OSC_INT32, 1, d3, NULL},     {"cols", OSC_INT64, 1, d3, NULL},
        {"u", OSC_FLOAT, 1, d3, NULL},        {"labels", OSC_INT64, 1, d5, NULL},
        {"start", OSC_INT64, 0, NULL, NULL},  {"keep", OSC_INT64, 1, d2, NULL}});
    init_ints(mw, "ax1", 1, ax1, 1);
    init_ints(mw, "axm1", 1, axm1, 1);
    init_ints(mw, "ax0", 1, ax0, 1);
    init_ints(mw, "big", 1, big, 1);
    init_ints(mw, "depth", 0, depth, 1);
    const float onoff[2] = {0, 1};
    osc_tensor v = {.dtype = OSC_FLOAT, .rank = 1, .dims = {2}, .data = (void *)onoff, .nbytes = 8};
    osc_mw_initializer(mw, "onoff", &v);
    const char *a[2] = {"idx", "ax1"}, *ao[1] = {"idx_u"};
    osc_mw_node(mw, "Unsqueeze", "unsq", 2, a, 1, ao);
    const char *b[1] = {"idx_u"}, *bo[1] = {"idx_c"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "Cast", "cast", 1, b, 1, bo), "to", OSC_INT32);
    const char *c[2] = {"x", "idx_c"}, *co[1] = {"g"};
    osc_mw_node(mw, "Gather", "gather", 2, c, 1, co);
    const char *d[1] = {"rows"}, *dout[1] = {"rows64"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "Cast", "cast_rows", 1, d, 1, dout), "to", OSC_INT64);
    const char *e[2] = {"rows64", "axm1"}, *eo[1] = {"rows_u"};
    osc_mw_node(mw, "Unsqueeze", "unsq_rows", 2, e, 1, eo);
    const char *f[2] = {"cols", "axm1"}, *fo[1] = {"cols_u"};
    osc_mw_node(mw, "Unsqueeze", "unsq_cols", 2, f, 1, fo);
    const char *h[2] = {"rows_u", "cols_u"}, *ho[1] = {"tuples"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "Concat", "concat", 2, h, 1, ho), "axis", -1);
    const char *k[3] = {"x", "tuples", "u"}, *ko[1] = {"s"};
    osc_mw_node(mw, "ScatterND", "scatter", 3, k, 1, ko);
    const char *l[3] = {"labels", "depth", "onoff"}, *lo[1] = {"oh"};
    osc_mw_node(mw, "OneHot", "onehot", 3, l, 1, lo);
    const char *q[2] = {"start", "ax0"}, *qo[1] = {"start_u"};
    osc_mw_node(mw, "Unsqueeze", "unsq_start", 2, q, 1, qo);
    const char *r[4] = {"x", "start_u", "big", "ax1"}, *ro[1] = {"sl"};
    osc_mw_node(mw, "Slice", "slice", 4, r, 1, ro);
    const char *t[2] = {"x", "keep"}, *to[1] = {"rs"};
    osc_mw_node(mw, "Reshape", "reshape", 2, t, 1, to);
    const int64_t dg[3] = {3, 1, 4}, doh[2] = {5, 7};
    osc_mw_output(mw, "g", OSC_FLOAT, 3, dg, NULL);
    osc_mw_output(mw, "s", OSC_FLOAT, 2, dx, NULL);
    osc_mw_output(mw, "oh", OSC_FLOAT, 2, doh, NULL);
    osc_mw_output(mw, "sl", OSC_FLOAT, 2, (const int64_t[2]){-1, -1}, NULL);
    osc_mw_output(mw, "rs", OSC_FLOAT, 2, dx, NULL);
    write_model("walk.onnx", mw);

    /* idx -> Unsqueeze -> Gather over e [0, 3]: no index fits an empty axis */
    const int64_t de[2] = {0, 3};
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "e", OSC_FLOAT, 2, de, NULL);
    osc_mw_input(mw, "idx", OSC_INT64, 1, d2, NULL);
    init_ints(mw, "ax1", 1, ax1, 1);
    const char *ea[2] = {"idx", "ax1"}, *eao[1] = {"idx_u"};
    osc_mw_node(mw, "Unsqueeze", "unsq", 2, ea, 1, eao);
    const char *eb[2] = {"e", "idx_u"}, *ebo[1] = {"y"};
    osc_mw_node(mw, "Gather", "gather", 2, eb, 1, ebo);
    osc_mw_output(mw, "y", OSC_FLOAT, 3, (const int64_t[3]){2, 1, 3}, NULL);
    write_model("walk_empty.onnx", mw);

    /* shape (three values) -> Reshape(x [6, 4]): no random target fits x */
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "x", OSC_FLOAT, 2, dx, NULL);
    osc_mw_input(mw, "shape", OSC_INT64, 1, d3, NULL);
    const char *ra[2] = {"x", "shape"}, *rao[1] = {"y"};
    osc_mw_node(mw, "Reshape", "reshape", 2, ra, 1, rao);
    osc_mw_output(mw, "y", OSC_FLOAT, 3, (const int64_t[3]){-1, -1, -1}, NULL);
    write_model("walk_reshape.onnx", mw);

    /* Identity of any tensor (no type declared): prints what --save-inputs wrote */
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "x", 0, -1, NULL, NULL);
    const char *ix[1] = {"x"}, *iy[1] = {"y"};
    osc_mw_node(mw, "Identity", "id", 1, ix, 1, iy);
    osc_mw_output(mw, "y", 0, -1, NULL, NULL);
    write_model("ident.onnx", mw);
}

/* Models that load with warnings (warnings.sh): a deprecated Scatter-11, also as a node-test
 * folder warncases/test_scatter11; an output declared [2, 4] that the graph computes [2, 3]. */
static void warning_models(void) {
    const int64_t dd[2] = {1, 5}, di[2] = {1, 2};
    osc_mw *mw = osc_test_scatter_graph(11, OSC_FLOAT, 2, dd, 2, di);
    const char *in[3] = {"data", "indices", "updates"}, *out[1] = {"y"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "Scatter", "old", 3, in, 1, out), "axis", 1);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, dd, NULL);
    write_model("scatter11.onnx", mw);
    static const char *const dirs[3] = {"warncases", "warncases/test_scatter11",
                                        "warncases/test_scatter11/test_data_set_0"};
    char src[1100];
    for (int k = 0; k < 3; k++) {
        snprintf(src, sizeof src, "%s/%s", g_dir, dirs[k]);
        mkdir(src, 0755);
    }
    snprintf(src, sizeof src, "%s/scatter11.onnx", g_dir);
    FILE *f = fopen(src, "rb");
    unsigned char buf[4096];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    write_file("warncases/test_scatter11/model.onnx", buf, len);
    const float x[5] = {1, 2, 3, 4, 5}, u[2] = {1.5f, 2.5f}, y[5] = {1, 1.5f, 3, 2.5f, 5};
    const int64_t idx[2] = {1, 3};
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = 2, .dims = {1, 5}, .data = (void *)x, .nbytes = 20};
    write_pb("warncases/test_scatter11/test_data_set_0/input_0.pb", "data", &t);
    osc_tensor ti = {.dtype = OSC_INT64, .rank = 2, .dims = {1, 2}, .data = (void *)idx, .nbytes = 16};
    write_pb("warncases/test_scatter11/test_data_set_0/input_1.pb", "indices", &ti);
    osc_tensor tu = {.dtype = OSC_FLOAT, .rank = 2, .dims = {1, 2}, .data = (void *)u, .nbytes = 8};
    write_pb("warncases/test_scatter11/test_data_set_0/input_2.pb", "updates", &tu);
    t.data = (void *)y;
    write_pb("warncases/test_scatter11/test_data_set_0/output_0.pb", "y", &t);

    const int64_t d23[2] = {2, 3}, d24[2] = {2, 4};
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "x", OSC_FLOAT, 2, d23, NULL);
    const char *ix[1] = {"x"}, *iy[1] = {"y"};
    osc_mw_node(mw, "Identity", "id", 1, ix, 1, iy);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, d24, NULL);
    write_model("stale_shape.onnx", mw);
}

/* For bench --profile (profile.sh): x [8, 4] -> an unnamed Mul -> a; a Constant [5, 4]
 * (folded at load); idx [5] -> Unsqueeze -> Expand -> GatherElements(a, axis 0), which the
 * fusion pass turns into a RowGather. And skipcases/: a node-test folder whose model uses an op
 * this build lacks (ConvInteger), next to one that runs. */
static void profile_models(void) {
    const int64_t dx[2] = {8, 4}, di[1] = {5}, shape[2] = {5, 4}, ax[1] = {1};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "x", OSC_FLOAT, 2, dx, NULL);
    osc_mw_input(mw, "idx", OSC_INT64, 1, di, NULL);
    init_ints(mw, "ax", 1, ax, 1);
    osc_tensor st = {.dtype = OSC_INT64, .rank = 1, .dims = {2}, .data = (void *)shape, .nbytes = 16};
    const char *xx[2] = {"x", "x"}, *ao[1] = {"a"}, *co[1] = {"shape"};
    osc_mw_node(mw, "Mul", NULL, 2, xx, 1, ao);
    osc_mw_attr_tensor(mw, osc_mw_node(mw, "Constant", "const", 0, NULL, 1, co), "value", &st);
    const char *u[2] = {"idx", "ax"}, *uo[1] = {"u"}, *e[2] = {"u", "shape"}, *eo[1] = {"e"};
    osc_mw_node(mw, "Unsqueeze", "unsq", 2, u, 1, uo);
    osc_mw_node(mw, "Expand", "expand", 2, e, 1, eo);
    const char *g[2] = {"a", "e"}, *go[1] = {"y"};
    osc_mw_attr_int(mw, osc_mw_node(mw, "GatherElements", "rows", 2, g, 1, go), "axis", 0);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, shape, NULL);
    write_model("chain.onnx", mw);

    /* unnamed nodes: Identity, then GatherElements(axis 1, reduction-free) reading its output */
    const int64_t d23[2] = {2, 3};
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "data", OSC_FLOAT, 2, d23, NULL);
    osc_mw_input(mw, "indices", OSC_INT64, 2, d23, NULL);
    const char *ii[1] = {"data"}, *io[1] = {"d2"}, *gi2[2] = {"d2", "indices"}, *gy[1] = {"y"};
    osc_mw_node(mw, "Identity", NULL, 1, ii, 1, io);
    osc_mw_attr_int(mw, osc_mw_node(mw, "GatherElements", NULL, 2, gi2, 1, gy), "axis", 1);
    osc_mw_output(mw, "y", OSC_FLOAT, 2, d23, NULL);
    write_model("unnamed.onnx", mw);

    static const char *const dirs[3] = {"skipcases", "skipcases/test_conv",
                                        "skipcases/test_conv/test_data_set_0"};
    char path[1100];
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/%s", g_dir, dirs[k]);
        mkdir(path, 0755);
    }
    const int64_t d4[4] = {1, 1, 2, 2};
    mw = osc_mw_new(8);
    osc_mw_opset(mw, "", 13);
    osc_mw_input(mw, "x", OSC_FLOAT, 4, d4, NULL);
    osc_mw_input(mw, "w", OSC_FLOAT, 4, d4, NULL);
    const char *ci[2] = {"x", "w"}, *cy[1] = {"y"};
    osc_mw_node(mw, "ConvInteger", NULL, 2, ci, 1, cy);
    osc_mw_output(mw, "y", OSC_FLOAT, 4, (const int64_t[4]){1, 1, 1, 1}, NULL);
    write_model("skipcases/test_conv/model.onnx", mw);
    const float v[4] = {1, 2, 3, 4}, y1[1] = {30};
    osc_tensor t = {.dtype = OSC_FLOAT, .rank = 4, .dims = {1, 1, 2, 2}, .data = (void *)v, .nbytes = 16};
    write_pb("skipcases/test_conv/test_data_set_0/input_0.pb", "x", &t);
    write_pb("skipcases/test_conv/test_data_set_0/input_1.pb", "w", &t);
    osc_tensor ty = {.dtype = OSC_FLOAT, .rank = 4, .dims = {1, 1, 1, 1}, .data = (void *)y1, .nbytes = 4};
    write_pb("skipcases/test_conv/test_data_set_0/output_0.pb", "y", &ty);
}

/* NAME (under cases/ or errcases/): a node-test folder of ge_float/ge_int64 with its expected
 * output scaled; bad_index puts an out-of-range index into input_1.pb. */
/* A subgraph writer named name (no opsets: they are the model's). */
static osc_mw *subgraph(const char *name) {
    osc_mw *g = osc_mw_new(8);
    osc_mw_names(g, NULL, name);
    return g;
}

/* nested.onnx: y = Loop(n, "", x) whose body 'step' (i, cond, acc) computes s = acc + x and
 * acc_out = If(cond, then 'keep': Identity(s), else 'flip': Neg(x)), cond_out = Identity(cond):
 * a body reading x from the model, branches reading from one (s) and two (x) graphs out. The
 * condition stays true, so 'flip' never runs; y = x * (n + 1). */
static void control_models(void) {
    const int64_t d3[1] = {3};
    osc_mw *mw = osc_mw_graph(16, 2, (const osc_mw_value[]){{"n", OSC_INT64, 0, NULL, NULL},
                                                             {"x", OSC_FLOAT, 1, d3, NULL}});
    osc_mw *body = subgraph("step"), *keep = subgraph("keep"), *flip = subgraph("flip");
    osc_mw_inputs(body, 3, (const osc_mw_value[]){{"i", OSC_INT64, 0, NULL, NULL},
                                                  {"cond", OSC_BOOL, 0, NULL, NULL},
                                                  {"acc", OSC_FLOAT, 1, d3, NULL}});
    osc_mw_node(body, "Add", "add", 2, (const char *[]){"acc", "x"}, 1, (const char *[]){"s"});
    osc_mw_node(keep, "Identity", "keep_id", 1, (const char *[]){"s"}, 1, (const char *[]){"k"});
    osc_mw_output(keep, "k", OSC_FLOAT, 1, d3, NULL);
    osc_mw_node(flip, "Neg", "flip_neg", 1, (const char *[]){"x"}, 1, (const char *[]){"f"});
    osc_mw_output(flip, "f", OSC_FLOAT, 1, d3, NULL);
    int pick = osc_mw_node(body, "If", "pick", 1, (const char *[]){"cond"}, 1,
                           (const char *[]){"acc_out"});
    osc_mw_attr_graph(body, pick, "then_branch", keep);
    osc_mw_attr_graph(body, pick, "else_branch", flip);
    osc_mw_node(body, "Identity", "cond_id", 1, (const char *[]){"cond"}, 1,
                (const char *[]){"cond_out"});
    osc_mw_output(body, "cond_out", OSC_BOOL, 0, NULL, NULL);
    osc_mw_output(body, "acc_out", OSC_FLOAT, 1, d3, NULL);
    int loop = osc_mw_node(mw, "Loop", "loop", 3, (const char *[]){"n", "", "x"}, 1,
                           (const char *[]){"y"});
    osc_mw_attr_graph(mw, loop, "body", body);
    osc_mw_output(mw, "y", OSC_FLOAT, 1, d3, NULL);
    osc_mw_free(body);
    osc_mw_free(keep);
    osc_mw_free(flip);
    write_model("nested.onnx", mw);
}

/* split.onnx: s = SplitToSequence(x) (items of one along axis 0, keepdims 0); insert.onnx:
 * t = SequenceInsert(s, v) and its length n; unique_counts.onnx (below). */
static void sequence_models(void) {
    osc_mw *mw = osc_mw_graph(18, 1, (const osc_mw_value[]){
        {"x", OSC_FLOAT, 2, (const int64_t[]){-1, 2}, NULL}});
    int n = osc_mw_node(mw, "SplitToSequence", "split", 1, (const char *[]){"x"}, 1,
                        (const char *[]){"s"});
    osc_mw_attr_int(mw, n, "keepdims", 0);
    osc_mw_output(mw, "s", OSC_SEQUENCE, -1, NULL, NULL);
    write_model("split.onnx", mw);
    mw = osc_mw_graph(18, 2, (const osc_mw_value[]){{"s", OSC_SEQUENCE, -1, NULL, NULL},
                                                    {"v", OSC_FLOAT, 1, (const int64_t[]){2},
                                                     NULL}});
    osc_mw_node(mw, "SequenceInsert", "insert", 2, (const char *[]){"s", "v"}, 1,
                (const char *[]){"t"});
    osc_mw_node(mw, "SequenceLength", "len", 1, (const char *[]){"t"}, 1, (const char *[]){"n"});
    osc_mw_output(mw, "t", OSC_SEQUENCE, -1, NULL, NULL);
    osc_mw_output(mw, "n", OSC_INT64, 0, NULL, NULL);
    write_model("insert.onnx", mw);
    /* unique_counts.onnx: Unique's values and counts, its indices and inverse left out */
    mw = osc_mw_graph(11, 1, (const osc_mw_value[]){
        {"x", OSC_INT64, 1, (const int64_t[]){-1}, NULL}});
    osc_mw_node(mw, "Unique", "uniq", 1, (const char *[]){"x"}, 4,
                (const char *[]){"y", "", "", "counts"});
    osc_mw_output(mw, "y", OSC_INT64, 1, (const int64_t[]){-1}, NULL);
    osc_mw_output(mw, "counts", OSC_INT64, 1, (const int64_t[]){-1}, NULL);
    write_model("unique_counts.onnx", mw);
}

static void node_case(const char *name, int32_t dtype, double scale, int bad_index) {
    char dir[512], file[600];
    snprintf(dir, sizeof dir, "%s/%s", g_dir, name);
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s/test_data_set_0", dir);
    mkdir(file, 0755);
    snprintf(file, sizeof file, "ge_%s.onnx", osc_dtype_name(dtype));
    char src[1300];
    snprintf(src, sizeof src, "%s/%s", g_dir, file);
    FILE *f = fopen(src, "rb");
    unsigned char buf[4096];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    snprintf(file, sizeof file, "%s/model.onnx", name);
    write_file(file, buf, len);
    const float x[6] = {1, 2.5f, -3, 4, 0.5f, 100};
    const int64_t xi[6] = {1, 2, -3, 4, 5, 100}, idx[6] = {0, 0, 0, 1, 1, bad_index ? 7 : 1};
    float y[6];
    for (int i = 0; i < 6; i++) y[i] = (float)(x[i] * scale);
    osc_tensor t = {.dtype = dtype, .rank = 2, .dims = {2, 3}, .data = dtype == OSC_FLOAT ? (void *)x : (void *)xi,
                    .nbytes = dtype == OSC_FLOAT ? sizeof x : sizeof xi};
    snprintf(file, sizeof file, "%s/test_data_set_0/input_0.pb", name);
    write_pb(file, "data", &t);
    osc_tensor ti = {.dtype = OSC_INT64, .rank = 2, .dims = {2, 3}, .data = (void *)idx, .nbytes = sizeof idx};
    snprintf(file, sizeof file, "%s/test_data_set_0/input_1.pb", name);
    write_pb(file, "indices", &ti);
    if (dtype == OSC_FLOAT) t.data = y;
    snprintf(file, sizeof file, "%s/test_data_set_0/output_0.pb", name);
    write_pb(file, "y", &t);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: gen_cli_models OUT_DIR\n");
        return 2;
    }
    g_dir = argv[1];
    char cases[1024];
    mkdir(g_dir, 0755);
    snprintf(cases, sizeof cases, "%s/cases", g_dir);
    mkdir(cases, 0755);
    snprintf(cases, sizeof cases, "%s/errcases", g_dir);
    mkdir(cases, 0755);
    numpy_arrays();
    pb_files();
    random_model();
    version_models();
    hostile_models();
    walk_models();
    warning_models();
    profile_models();
    control_models();
    sequence_models();
    node_case("cases/test_ge_float", OSC_FLOAT, 1.0, 0);
    node_case("cases/test_ge_int64", OSC_INT64, 1.0, 0);
    node_case("cases/test_ge_close", OSC_FLOAT, 1.01, 0); /* passes only with --rtol >= 0.01 */
    node_case("cases/test_ge_wrong", OSC_FLOAT, -1.0, 0);
    node_case("cases/misc_ge_float", OSC_FLOAT, 1.0, 0);
    node_case("errcases/test_ge_badindex", OSC_FLOAT, 1.0, 1);
    node_case("errcases/test_ge_ok", OSC_FLOAT, 1.0, 0);
    node_case("skipcases/test_ge_float", OSC_FLOAT, 1.0, 0);
    return g_failed;
}
