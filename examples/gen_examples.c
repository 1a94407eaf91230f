/* gen_examples.c: writes the bundled example (a node-test folder) from values in the ONNX spec:
 * examples/scatter_elements/{model.onnx, test_data_set_0/input_K.pb, output_0.pb}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/support/writer.h"
#include "onnx_scatter.h"

static int write_file(const char *dir, const char *name, const void *buf, size_t len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "gen_examples: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

static int write_tensor(const char *dir, const char *file, const char *name, int32_t dtype,
                        const int64_t *dims, const void *data, size_t nbytes) {
    osc_tensor t = {.dtype = dtype, .rank = 2, .data = (void *)data, .nbytes = nbytes};
    memcpy(t.dims, dims, 2 * sizeof *dims);
    void *buf;
    size_t len;
    char msg[256];
    if (osc_tensor_encode_pb(&t, name, &buf, &len, msg, sizeof msg) != OSC_OK) {
        fprintf(stderr, "gen_examples: %s\n", msg);
        return 1;
    }
    int rc = write_file(dir, file, buf, len);
    free(buf);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: gen_examples OUT_DIR   (writes OUT_DIR/scatter_elements)\n");
        return 2;
    }
    char dir[900], set[1000];
    snprintf(dir, sizeof dir, "%s/scatter_elements", argv[1]);
    snprintf(set, sizeof set, "%s/test_data_set_0", dir);
    mkdir(dir, 0755);
    mkdir(set, 0755);

    /* ScatterElements, spec Example 1 (axis 0), with reduction add to show a reduction */
    const int64_t dd[2] = {3, 3}, id[2] = {2, 3};
    osc_mw *mw = osc_mw_new(8);
    osc_mw_names(mw, "onnx-scatter gen_examples", "scatter_elements_example");
    osc_mw_opset(mw, "", 18);
    osc_mw_input(mw, "data", OSC_FLOAT, 2, dd, NULL);
    osc_mw_input(mw, "indices", OSC_INT64, 2, id, NULL);
    osc_mw_input(mw, "updates", OSC_FLOAT, 2, id, NULL);
    const char *in[3] = {"data", "indices", "updates"}, *out[1] = {"output"};
    int n = osc_mw_node(mw, "ScatterElements", "scatter", 3, in, 1, out);
    osc_mw_attr_int(mw, n, "axis", 0);
    osc_mw_attr_string(mw, n, "reduction", "add");
    osc_mw_output(mw, "output", OSC_FLOAT, 2, dd, NULL);
    void *buf;
    size_t len;
    if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) {
        fprintf(stderr, "gen_examples: %s\n", osc_mw_error(mw));
        return 1;
    }
    osc_mw_free(mw);
    int rc = write_file(dir, "model.onnx", buf, len);
    free(buf);

    const float data[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    const int64_t indices[6] = {1, 0, 2, 0, 2, 1};
    const float updates[6] = {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f};
    /* the spec's output for zeros, plus the ones of data (reduction add) */
    const float expected[9] = {3.0f, 2.1f, 1.0f, 2.0f, 1.0f, 3.2f, 1.0f, 3.1f, 2.2f};
    rc |= write_tensor(set, "input_0.pb", "data", OSC_FLOAT, dd, data, sizeof data);
    rc |= write_tensor(set, "input_1.pb", "indices", OSC_INT64, id, indices, sizeof indices);
    rc |= write_tensor(set, "input_2.pb", "updates", OSC_FLOAT, id, updates, sizeof updates);
    rc |= write_tensor(set, "output_0.pb", "output", OSC_FLOAT, dd, expected, sizeof expected);
    return rc;
}
