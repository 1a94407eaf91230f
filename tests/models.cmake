# tests/models.cmake: whole scatter-heavy models exported from PyTorch (tests/models/, made by
# gen_models.py: GNN layers, point-cloud pooling, an attention step, MoE routing, ...) run through
# `onnx-scatter test` against torch eager's outputs. Every folder must pass: a failure or a skip
# (an op without a kernel) fails the entry.
if(NOT TARGET onnx-scatter)
  return() # OSC_BUILD_TOOLS=OFF: nothing to run these through
endif()

add_test(NAME model_exports
  COMMAND ${OSC_SH} "${CMAKE_CURRENT_SOURCE_DIR}/cli/nodetests.sh" $<TARGET_FILE:onnx-scatter>
          "${CMAKE_CURRENT_SOURCE_DIR}/models" --no-skip "*_opset*")
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
