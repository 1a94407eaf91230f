/* gen_bad_detect.c: malformed-suite cases of RoiAlign and NonMaxSuppression: a batch index out
 * of range, rois of the wrong shape, a NaN RoI corner, a RoI of absurd size, an unknown mode;
 * NaN scores, a NaN box corner, iou_threshold outside [0, 1], a negative
 * max_output_boxes_per_class, scores that do not fit the boxes; and a valid control of each. */
#include <math.h>
#include <stdint.h>

#include "tests/bad/gen_bad.h"
#include "onnx_scatter.h"

/* The same texts with fusion and without. */
static void msg(const char *texts) { expect_msg(texts, texts); }

/* RoiAlign "ra" at opset 16 over X [2, 1, 4, 4], rois [nr, rw] and batch_indices [nr]. */
static Onnx__ModelProto *ra_model(int64_t nr, int64_t rw, const char *mode) {
    Onnx__ModelProto *m = model(16);
    input(m, "x", OSC_FLOAT, 4, (const int64_t[]){2, 1, 4, 4});
    input(m, "rois", OSC_FLOAT, 2, (const int64_t[]){nr, rw});
    input(m, "bi", OSC_INT64, 1, (const int64_t[]){nr});
    Onnx__NodeProto *n = node(m, "RoiAlign", "ra", 3, (const char *[]){"x", "rois", "bi"}, 1,
                              (const char *[]){"y"});
    attr_i(n, "output_height", 2);
    attr_i(n, "output_width", 2);
    if (mode) attr_s(n, "mode", mode);
    output(m, "y", OSC_FLOAT, -1, NULL);
    return m;
}

/* NonMaxSuppression "nms" at opset 11 over boxes [1, 3, bw], scores [1, 1, ns] and the three
 * scalars as graph inputs. */
static Onnx__ModelProto *nms_model(int64_t bw, int64_t ns) {
    Onnx__ModelProto *m = model(11);
    input(m, "boxes", OSC_FLOAT, 3, (const int64_t[]){1, 3, bw});
    input(m, "scores", OSC_FLOAT, 3, (const int64_t[]){1, 1, ns});
    input(m, "max_out", OSC_INT64, 1, (const int64_t[]){1});
    input(m, "iou", OSC_FLOAT, 1, (const int64_t[]){1});
    input(m, "thr", OSC_FLOAT, 1, (const int64_t[]){1});
    node(m, "NonMaxSuppression", "nms", 5,
         (const char *[]){"boxes", "scores", "max_out", "iou", "thr"}, 1,
         (const char *[]){"sel"});
    output(m, "sel", OSC_INT64, -1, NULL);
    return m;
}

static void roialign_cases(void) {
    static const float x[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    static const float rois[8] = {0, 0, 2, 2, 1, 1, 3, 3};
    static const float nan_rois[8] = {0, 0, 2, 2, 1, 1, NAN, 3};
    static const float huge[8] = {0, 0, 2, 2, 0, 0, 1e12f, 1e12f};
    static const int64_t bi[2] = {0, 1}, bad_bi[2] = {1, 2};
    tin ins[3] = {{OSC_FLOAT, 4, {2, 1, 4, 4}, x, sizeof x},
                  {OSC_FLOAT, 2, {2, 4}, rois, sizeof rois},
                  {OSC_INT64, 1, {2}, bi, sizeof bi}};
    emit_model("roialign_valid", ra_model(2, 4, NULL), "OSC_OK", "run",
               "RoiAlign-16 of two RoIs over a batch of 2 (control)", 3, ins);
    msg("node 'ra' (RoiAlign-16)\ninput 2 'batch_indices' (bi) at [1] is 2; allowed: 0 to 1");
    ins[2].data = bad_bi;
    emit_model("roialign_batch_index_out_of_range", ra_model(2, 4, NULL), "OSC_ERR_INDEX", "run",
               "RoiAlign with batch index 2 of a batch of 2", 3, ins);
    ins[2].data = bi;
    msg("node 'ra' (RoiAlign-16)\ninput 1 'rois' (rois) has shape [2,5]; allowed: [num_rois, 4]");
    emit_model("roialign_rois_wrong_shape", ra_model(2, 5, NULL), "OSC_ERR_SHAPE", "load",
               "RoiAlign with rois [2, 5]", 0, NULL);
    msg("input 1 'rois' (rois) at [1, 2] is nan");
    ins[1].data = nan_rois;
    emit_model("roialign_rois_nan", ra_model(2, 4, NULL), "OSC_ERR_INDEX", "run",
               "RoiAlign with a NaN RoI corner", 3, ins);
    msg("needs 1e+24 bilinear samples per channel\nallowed: up to 268435456");
    ins[1].data = huge;
    emit_model("roialign_huge_roi", ra_model(2, 4, NULL), "OSC_ERR_LIMIT", "run",
               "RoiAlign with a RoI of 1e12 x 1e12 pixels and the adaptive grid", 3, ins);
    msg("attribute 'mode' = 'median'; allowed: 'avg', 'max'");
    emit_model("roialign_bad_mode", ra_model(2, 4, "median"), "OSC_ERR_MODEL", "load",
               "RoiAlign with mode 'median'", 0, NULL);
}

static void nms_cases(void) {
    static const float boxes[12] = {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 2, 1, 3};
    static const float nan_box[12] = {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 2, NAN, 3};
    static const float scores[3] = {0.9f, 0.8f, 0.7f}, nan_scores[3] = {0.9f, NAN, 0.7f};
    static const int64_t mo[1] = {10}, neg_mo[1] = {-1};
    static const float iou[1] = {0.5f}, bad_iou[1] = {1.25f}, thr[1] = {0.0f};
    tin ins[5] = {{OSC_FLOAT, 3, {1, 3, 4}, boxes, sizeof boxes},
                  {OSC_FLOAT, 3, {1, 1, 3}, scores, sizeof scores},
                  {OSC_INT64, 1, {1}, mo, sizeof mo},
                  {OSC_FLOAT, 1, {1}, iou, sizeof iou},
                  {OSC_FLOAT, 1, {1}, thr, sizeof thr}};
    emit_model("nms_valid", nms_model(4, 3), "OSC_OK", "run",
               "NonMaxSuppression-11 of three boxes, two overlapping (control)", 5, ins);
    msg("node 'nms' (NonMaxSuppression-11)\ninput 1 'scores' (scores) at [0, 0, 1] is NaN");
    ins[1].data = nan_scores;
    emit_model("nms_nan_score", nms_model(4, 3), "OSC_ERR_INDEX", "run",
               "NonMaxSuppression with a NaN score", 5, ins);
    ins[1].data = scores;
    msg("input 0 'boxes' (boxes) at [0, 2, 2] is nan; allowed: a finite coordinate");
    ins[0].data = nan_box;
    emit_model("nms_nan_box", nms_model(4, 3), "OSC_ERR_INDEX", "run",
               "NonMaxSuppression with a NaN box corner", 5, ins);
    ins[0].data = boxes;
    msg("input 3 'iou_threshold' (iou) is 1.25; allowed: 0 to 1");
    ins[3].data = bad_iou;
    emit_model("nms_iou_out_of_range", nms_model(4, 3), "OSC_ERR_INDEX", "run",
               "NonMaxSuppression with iou_threshold 1.25", 5, ins);
    ins[3].data = iou;
    msg("input 2 'max_output_boxes_per_class' (max_out) is -1; allowed: 0 (no output) or more");
    ins[2].data = neg_mo;
    emit_model("nms_negative_max_output", nms_model(4, 3), "OSC_ERR_INDEX", "run",
               "NonMaxSuppression with max_output_boxes_per_class -1", 5, ins);
    ins[2].data = mo;
    msg("input 1 'scores' (scores) has shape [1,1,2]; allowed: [num_batches, num_classes, "
        "spatial_dimension] with boxes' [1,3,4]");
    /* the output's size depends on the values: checked at the run */
    ins[1].dims[2] = 2, ins[1].nbytes = 8;
    emit_model("nms_scores_mismatch", nms_model(4, 2), "OSC_ERR_SHAPE", "run",
               "NonMaxSuppression with 3 boxes and 2 scores", 5, ins);
}

void detect_cases(void) {
    roialign_cases();
    nms_cases();
}
