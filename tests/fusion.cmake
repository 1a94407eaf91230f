# tests/fusion.cmake: the gather-scatter fusion pass (issue 15). test_fusion: pattern boundaries
# (fused or not), outputs with fusion on equal to fusion off and to loops in the test, bit for
# bit, on 1 and 2 threads; test_fusion_tiny: the same against the tiny-threshold library
# (oracle.cmake), where 2 and 3 threads really split the fused kernel's rows; fusion_exact: every
# tests/models folder through the CLI with fusion on and off, 1 and 2 threads, byte-identical.
osc_unit_test(test_fusion unit/test_fusion.c)
target_link_libraries(test_fusion PRIVATE osc_test_support)
set_tests_properties(test_fusion PROPERTIES LABELS "unit;fusion" TIMEOUT 120)

add_executable(test_fusion_tiny unit/test_fusion.c)
target_link_libraries(test_fusion_tiny PRIVATE osc_test_support_tiny osc_flags PkgConfig::CMOCKA)
target_include_directories(test_fusion_tiny PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
target_compile_definitions(test_fusion_tiny PRIVATE OSC_FUSION_TINY)
add_test(NAME test_fusion_tiny COMMAND test_fusion_tiny)
set_tests_properties(test_fusion_tiny PROPERTIES LABELS "unit;fusion;threads" TIMEOUT 300)
set_property(GLOBAL APPEND PROPERTY OSC_THREADS_TARGETS test_fusion_tiny)

# The tiled scatter (ops/fused/fused_tiled.h) on EdgeConv-shaped graphs, against both libraries.
osc_unit_test(test_fusion_tiled unit/test_fusion_tiled.c)
target_link_libraries(test_fusion_tiled PRIVATE osc_test_support)
set_tests_properties(test_fusion_tiled PROPERTIES LABELS "unit;fusion")
add_executable(test_fusion_tiled_tiny unit/test_fusion_tiled.c)
target_link_libraries(test_fusion_tiled_tiny PRIVATE osc_test_support_tiny osc_flags PkgConfig::CMOCKA)
target_include_directories(test_fusion_tiled_tiny PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
target_compile_definitions(test_fusion_tiled_tiny PRIVATE OSC_FUSION_TINY)
add_test(NAME test_fusion_tiled_tiny COMMAND test_fusion_tiled_tiny)
set_tests_properties(test_fusion_tiled_tiny PROPERTIES LABELS "unit;fusion;threads")
set_property(GLOBAL APPEND PROPERTY OSC_THREADS_TARGETS test_fusion_tiled_tiny)

if(TARGET onnx-scatter)
  find_program(OSC_SH sh REQUIRED)
  add_test(NAME fusion_exact COMMAND ${OSC_SH} "${CMAKE_CURRENT_SOURCE_DIR}/cli/fusion_exact.sh"
    $<TARGET_FILE:onnx-scatter> "${CMAKE_CURRENT_BINARY_DIR}/fusion_exact"
    "${CMAKE_CURRENT_SOURCE_DIR}/models")
  set_tests_properties(fusion_exact PROPERTIES LABELS "cli;fusion" TIMEOUT 300)
endif()

# opts.fuse_recompute (TiledGatherScatter) on GAT-shaped graphs, against both libraries.
osc_unit_test(test_fusion_recompute unit/test_fusion_recompute.c)
target_link_libraries(test_fusion_recompute PRIVATE osc_test_support m)
set_tests_properties(test_fusion_recompute PROPERTIES LABELS "unit;fusion")
add_executable(test_fusion_recompute_tiny unit/test_fusion_recompute.c)
target_link_libraries(test_fusion_recompute_tiny PRIVATE osc_test_support_tiny osc_flags m
                      PkgConfig::CMOCKA)
target_include_directories(test_fusion_recompute_tiny PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
target_compile_definitions(test_fusion_recompute_tiny PRIVATE OSC_FUSION_TINY)
add_test(NAME test_fusion_recompute_tiny COMMAND test_fusion_recompute_tiny)
set_tests_properties(test_fusion_recompute_tiny PROPERTIES LABELS "unit;fusion;threads")
set_property(GLOBAL APPEND PROPERTY OSC_THREADS_TARGETS test_fusion_recompute_tiny)
