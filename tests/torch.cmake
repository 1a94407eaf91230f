# tests/torch.cmake: the graphs exported from PyTorch (tests/torch/, made by gen_torch_models.py)
# run through `onnx-scatter test`. Every folder must pass: a failure or a skip fails the entry.
if(NOT TARGET onnx-scatter)
  return() # OSC_BUILD_TOOLS=OFF: nothing to run these through
endif()

find_program(OSC_SH sh REQUIRED)
add_test(NAME torch_exports
  COMMAND ${OSC_SH} "${CMAKE_CURRENT_SOURCE_DIR}/cli/nodetests.sh" $<TARGET_FILE:onnx-scatter>
          "${CMAKE_CURRENT_SOURCE_DIR}/torch" --no-skip "*_opset*")
set_tests_properties(torch_exports PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "cli;torch")

# The exports with control flow (tests/torch/control/, made by gen_control_models.py, which keeps
# only folders that pass; what does not yet is listed in tests/torch/README.md).
add_test(NAME torch_control_exports
  COMMAND ${OSC_SH} "${CMAKE_CURRENT_SOURCE_DIR}/cli/nodetests.sh" $<TARGET_FILE:onnx-scatter>
          "${CMAKE_CURRENT_SOURCE_DIR}/torch/control" --no-skip "*_opset*")
set_tests_properties(torch_control_exports PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS "cli;torch")

# The nn.EmbeddingBag exports of control/: their Loop fused by rule embedding_bag (info), every
# run byte-identical to --no-fusion, an index out of range failing both ways (bag_fusion.sh).
add_test(NAME torch_bag_fusion
  COMMAND ${OSC_SH} "${CMAKE_CURRENT_SOURCE_DIR}/torch/bag_fusion.sh" $<TARGET_FILE:onnx-scatter>
          "${CMAKE_CURRENT_BINARY_DIR}/torch_bag_fusion" "${CMAKE_CURRENT_SOURCE_DIR}/torch/control")
set_tests_properties(torch_bag_fusion PROPERTIES TIMEOUT 120 LABELS "cli;torch;fusion")
