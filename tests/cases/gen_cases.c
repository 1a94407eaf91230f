/* gen_cases.c: writes tests/cases/NAME/{model.onnx, test_data_set_0/input_K.pb, output_0.pb}. */
/* Regenerate the committed folders after editing cases.c:
 *     cmake --build BUILD --target osc-regen-cases
 * (which runs BUILD/tests/osc-gen-cases SOURCE/tests/cases).
 * The ctest entry cases_up_to_date fails while the committed folders differ from a fresh run,
 * then runs `onnx-scatter test tests/cases`, which must report 0 failed and 0 skipped.
 * Output is deterministic: the same table always gives the same bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cases.h"
#include "tests/support/testutil.h"
#include "tests/support/writer.h"
#include "onnx_scatter.h"

static int make_dir(const char *path) {
    if (mkdir(path, 0755) == 0 || errno == EEXIST) return 0;
    fprintf(stderr, "gen_cases: cannot create %s\n", path);
    return 1;
}

static int write_tensor(const char *dir, const char *file, const hc_tensor *t) {
    osc_string *strs;
    uint8_t *packed;
    osc_tensor v = hc_view(t, &strs, &packed);
    void *buf;
    size_t len;
    char msg[256];
    int rc = 0;
    if (osc_tensor_encode_pb(&v, t->name, &buf, &len, msg, sizeof msg) != OSC_OK) {
        fprintf(stderr, "gen_cases: %s/%s: %s\n", dir, file, msg);
        rc = 1;
    } else {
        rc = osc_test_write_file(dir, file, buf, len, "gen_cases") ? 0 : 1;
        free(buf);
    }
    free(strs);
    free(packed);
    return rc;
}

static int write_case(const char *root, const hc_case *c) {
    char dir[1024], set[1100];
    snprintf(dir, sizeof dir, "%s/%s", root, c->name);
    snprintf(set, sizeof set, "%s/test_data_set_0", dir);
    if (make_dir(dir) || make_dir(set)) return 1;

    osc_mw *mw = osc_mw_new(10);
    osc_mw_names(mw, "onnx-scatter tests/cases/gen_cases", c->name);
    osc_mw_opset(mw, "", c->opset);
    const char *in[3], *out[1] = {c->out.name};
    for (int i = 0; i < c->n_in; i++) {
        in[i] = c->in[i].name;
        osc_mw_input(mw, in[i], c->in[i].dtype, c->in[i].rank, c->in[i].dims, NULL);
    }
    int n = osc_mw_node(mw, c->op, "node", c->n_in, in, 1, out);
    if (c->has_axis) osc_mw_attr_int(mw, n, "axis", c->axis);
    if (c->reduction) osc_mw_attr_string(mw, n, "reduction", c->reduction);
    if (c->mode) osc_mw_attr_string(mw, n, "mode", c->mode);
    if (c->has_batch_dims) osc_mw_attr_int(mw, n, "batch_dims", c->batch_dims);
    osc_mw_output(mw, c->out.name, c->out.dtype, c->out.rank, c->out.dims, NULL);
    void *buf;
    size_t len;
    if (osc_mw_serialize(mw, &buf, &len) != OSC_OK) {
        fprintf(stderr, "gen_cases: %s: %s\n", c->name, osc_mw_error(mw));
        osc_mw_free(mw);
        return 1;
    }
    osc_mw_free(mw);
    int rc = osc_test_write_file(dir, "model.onnx", buf, len, "gen_cases") ? 0 : 1;
    free(buf);
    for (int i = 0; i < c->n_in; i++) {
        char file[32];
        snprintf(file, sizeof file, "input_%d.pb", i);
        rc |= write_tensor(set, file, &c->in[i]);
    }
    rc |= write_tensor(set, "output_0.pb", &c->out);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: osc-gen-cases OUT_DIR   (writes OUT_DIR/<case>/ for each case)\n");
        return 2;
    }
    if (make_dir(argv[1])) return 1;
    int rc = 0;
    for (size_t i = 0; i < hc_count; i++) rc |= write_case(argv[1], &hc_cases[i]);
    if (!rc) printf("gen_cases: wrote %zu cases into %s\n", hc_count, argv[1]);
    return rc;
}
