# Loader unit tests.
# Official ONNX node tests every model/.pb of which must load (skipped when the folder is absent),
# and Debian's older set (libonnx-testdata).
set(OSC_NODE_TESTS_DIR "${PROJECT_SOURCE_DIR}/../shared/onnx-node-tests" CACHE PATH
  "folder of ONNX node tests (<test>/model.onnx) the loader tests parse")
set(OSC_DEBIAN_NODE_TESTS_DIR "/usr/share/libonnx-testdata/data/node" CACHE PATH
  "Debian's libonnx-testdata node tests the loader tests parse")

foreach(t test_loader_tensor test_loader_external test_loader_model test_loader_skeleton
    test_loader_nodetests)
  osc_unit_test(${t} unit/${t}.c unit/loader_util.c)
  target_link_libraries(${t} PRIVATE osc_proto osc_test_support) # loader_util.h: the writer
  set_tests_properties(${t} PROPERTIES LABELS "unit;loader")
endforeach()
target_compile_definitions(test_loader_nodetests PRIVATE
  "OSC_NODE_TESTS_DIR=\"${OSC_NODE_TESTS_DIR}\""
  "OSC_DEBIAN_NODE_TESTS_DIR=\"${OSC_DEBIAN_NODE_TESTS_DIR}\"")
