/* gen_bad_resize.c: malformed-suite cases of the resize family: Resize with a scale of 0, with
 * both scales and sizes, with a roi of the wrong length, with an output past the size limits;
 * GridSample with a grid of the wrong shape or a NaN in it; AffineGrid with theta of the wrong
 * shape; and a valid control. */
#include <math.h>
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

static const float k_x[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

static void msg(const char *texts) { expect_msg(texts, texts); }

/* Resize-19 "rs" of x [1,1,2,2] with the initializers given (NULL: the input left empty) */
static Onnx__ModelProto *resize_model(const float *roi, int n_roi, const float *scales,
                                      const int64_t *sizes, const char *ctm) {
    Onnx__ModelProto *m = model(19);
    input(m, "x", OSC_FLOAT, 4, (const int64_t[]){1, 1, 2, 2});
    const char *ins[4] = {"x", roi ? "roi" : "", scales ? "sc" : "", sizes ? "sz" : ""};
    if (roi)
        init(m, tensor("roi", OSC_FLOAT, 1, (const int64_t[]){n_roi}, roi,
                       (size_t)n_roi * sizeof *roi));
    if (scales) init(m, tensor("sc", OSC_FLOAT, 1, (const int64_t[]){4}, scales, 16));
    if (sizes) init(m, tensor("sz", OSC_INT64, 1, (const int64_t[]){4}, sizes, 32));
    Onnx__NodeProto *n = node(m, "Resize", "rs", sizes ? 4 : 3, ins, 1, (const char *[]){"y"});
    attr_s(n, "mode", "linear");
    if (ctm) attr_s(n, "coordinate_transformation_mode", ctm);
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

/* GridSample-20 "gs" of x [1,1,2,2] and a grid input of shape g */
static Onnx__ModelProto *grid_model(const int64_t *g) {
    Onnx__ModelProto *m = model(20);
    input(m, "x", OSC_FLOAT, 4, (const int64_t[]){1, 1, 2, 2});
    input(m, "grid", OSC_FLOAT, 4, g);
    node(m, "GridSample", "gs", 2, (const char *[]){"x", "grid"}, 1, (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

void resize_cases(void) {
    const tin x = {OSC_FLOAT, 4, {1, 1, 2, 2}, k_x, 16};
    static const float up[4] = {1, 1, 2, 2}, zero[4] = {1, 1, 0, 2}, huge[4] = {1, 1, 1e30f, 1};
    static const int64_t sizes[4] = {1, 1, 4, 4};
    emit_model("resize_valid", resize_model(NULL, 0, up, NULL, NULL), "OSC_OK", "run",
               "Resize-19 linear, scales [1,1,2,2] (control)", 1, &x);
    msg("node 'rs' (Resize-19)\ninput 2 'scales' (sc): value 0 at position 2 is out of range; "
        "allowed: (0, inf)");
    emit_model("resize_scale_zero", resize_model(NULL, 0, zero, NULL, NULL), "OSC_ERR_SHAPE",
               "load", "Resize with a scale of 0", 0, NULL);
    msg("input 2 'scales' (sc) and input 3 'sizes' (sz) both have values; only one of them may "
        "be given");
    emit_model("resize_scales_and_sizes", resize_model(NULL, 0, up, sizes, NULL),
               "OSC_ERR_MODEL", "load", "Resize with both scales and sizes", 0, NULL);
    static const float roi3[3] = {0, 0, 1};
    msg("input 1 'roi' (roi) has shape [3]; expected [8]: a start and an end per resized dim");
    emit_model("resize_roi_length", resize_model(roi3, 3, NULL, sizes, "tf_crop_and_resize"),
               "OSC_ERR_SHAPE", "load", "Resize tf_crop_and_resize with a roi of 3 values", 0,
               NULL);
    msg("scale 1e+30 at position 2 makes dim 2 of the output 2e+30 elements; at most 2^62");
    emit_model("resize_output_absurd", resize_model(NULL, 0, huge, NULL, NULL), "OSC_ERR_LIMIT",
               "load", "Resize with a scale of 1e30", 0, NULL);
    msg("node 'gs' (GridSample-20)\ninput 1 'grid' (grid) has shape [1,2,2,3]; with input 0 'X' "
        "(x) of shape [1,1,2,2] it must be [1, spatial dims..., 2] (rank 4)");
    emit_model("gridsample_grid_shape", grid_model((const int64_t[]){1, 2, 2, 3}),
               "OSC_ERR_SHAPE", "load", "GridSample with a grid whose last dim is 3", 0, NULL);
    static float g[8] = {0, 0, 0.5f, 0.5f, 0, 0, 0, 0};
    g[5] = NAN;
    const tin gin[2] = {x, {OSC_FLOAT, 4, {1, 2, 2, 2}, g, 32}};
    msg("input 1 'grid' (grid): value nan at position 5 is not finite");
    emit_model("gridsample_grid_nan", grid_model((const int64_t[]){1, 2, 2, 2}),
               "OSC_ERR_INDEX", "run", "GridSample with a NaN in the grid", 2, gin);
    Onnx__ModelProto *m = model(20);
    input(m, "theta", OSC_FLOAT, 3, (const int64_t[]){1, 3, 4});
    init(m, tensor("size", OSC_INT64, 1, (const int64_t[]){4}, sizes, 32));
    node(m, "AffineGrid", "ag", 2, (const char *[]){"theta", "size"}, 1,
         (const char *[]){"y"});
    output(m, "y", OSC_FLOAT, -1, NULL);
    msg("input 0 'theta' (theta) has shape [1,3,4]; with input 1 'size' of 4 values it must be "
        "[1, 2, 3]");
    emit_model("affinegrid_theta_shape", m, "OSC_ERR_SHAPE", "load",
               "AffineGrid of a 3-D theta for a 2-D size", 0, NULL);
}
