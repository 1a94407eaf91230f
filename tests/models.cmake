# tests/models.cmake: whole scatter-heavy models exported from PyTorch (tests/models/, made by
# gen_models.py: GNN layers, point-cloud pooling, an attention step, MoE routing, ...) run through
# `onnx-scatter test` against torch eager's outputs. Every folder must pass: a failure or a skip
# (an op without a kernel) fails the entry.
if(NOT TARGET onnx-scatter)
  return() # OSC_BUILD_TOOLS=OFF: nothing to run these through
endif()

# The expected values are torch eager's, summed in its own order: an output that cancels to
# near 0 (GAT's has one of 1.6e-6 among values near 0.3) can differ from ours by a rounding of
# the terms, 1.5e-7, above `test`'s default atol of 1e-7 (under one float ulp at 1). atol 1e-6
# (torch.testing's own for float32 is 1e-5); rtol stays 1e-3.
add_test(NAME model_exports
  COMMAND ${OSC_SH} "${CMAKE_CURRENT_SOURCE_DIR}/cli/nodetests.sh" $<TARGET_FILE:onnx-scatter>
          "${CMAKE_CURRENT_SOURCE_DIR}/models" --no-skip --atol 1e-6 "*_opset*")
set_tests_properties(model_exports PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "cli;torch")

# The whole point-cloud and detection models of tests/models/detection/ (a PointPillars-style
# detector with torchvision's nms, DGCNN, a RoiAlign head) against torch eager.
add_test(NAME model_detection
  COMMAND ${OSC_SH} "${CMAKE_CURRENT_SOURCE_DIR}/cli/nodetests.sh" $<TARGET_FILE:onnx-scatter>
          "${CMAKE_CURRENT_SOURCE_DIR}/models/detection" --no-skip pointpillars_det dgcnn roi_head)
set_tests_properties(model_detection PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "cli;torch")
# Their conv-free parts (NonMaxSuppression after box decoding, RoiAlign through the MLP head, the
# pillar scatter, DGCNN's knn), each cut out with torch eager's values at the cut.
add_test(NAME model_detection_parts
  COMMAND ${OSC_SH} "${CMAKE_CURRENT_SOURCE_DIR}/cli/nodetests.sh" $<TARGET_FILE:onnx-scatter>
          "${CMAKE_CURRENT_SOURCE_DIR}/models/detection/parts" --no-skip "*")
set_tests_properties(model_detection_parts PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "cli;torch")
