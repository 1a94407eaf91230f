# tests/scaling/: how each load phase and each CLI pass grows with its input (README.md beside
# this file). Included from tests/CMakeLists.txt.
set(_scaling "${CMAKE_CURRENT_SOURCE_DIR}/scaling")
add_library(osc_scaling_models STATIC "${_scaling}/scaling_models.c")
target_link_libraries(osc_scaling_models PUBLIC osc_test_support onnxscatter osc_flags)
target_include_directories(osc_scaling_models PUBLIC "${PROJECT_SOURCE_DIR}")

# gen_scaling KIND N [ELEMS] OUT.onnx: one model of a family, to reproduce an attack by hand.
add_executable(gen_scaling "${_scaling}/gen_scaling.c")
target_link_libraries(gen_scaling PRIVATE osc_scaling_models)

if(TARGET onnx-scatter)
  add_executable(test_scaling_phases "${_scaling}/test_scaling_phases.c")
  target_link_libraries(test_scaling_phases PRIVATE osc_scaling_models PkgConfig::CMOCKA)
  add_dependencies(test_scaling_phases onnx-scatter)
  add_test(NAME scaling_phases COMMAND test_scaling_phases $<TARGET_FILE:onnx-scatter>
    "${CMAKE_CURRENT_BINARY_DIR}/scaling")
  set_tests_properties(scaling_phases PROPERTIES LABELS "unit;scaling" TIMEOUT 900)
  if(OSC_COVERAGE) # -O0 with gcov's counters: `info` of fused models measured x6.3 over two
    # doublings in CI while linear at -O2; 3 per doubling (9) still fails a quadratic phase (16)
    target_compile_definitions(test_scaling_phases PRIVATE OSC_SCALING_PER_DOUBLING=3.0)
  endif()
endif()
