# tests/bad.cmake: the malformed-model suite (tests/bad): its generator, the check that the committed
# cases are its output, and the two runners (API: test_bad; command line: cli_bad.sh).
add_executable(osc-gen-bad bad/gen_bad.c bad/gen_bad_dynamic.c bad/gen_bad_loss.c
  bad/gen_bad_control.c bad/gen_bad_scat.c bad/gen_bad_layout.c bad/gen_bad_select.c
  bad/gen_bad_rope.c bad/gen_bad_attention.c bad/gen_bad_pool.c bad/gen_bad_resize.c
  bad/gen_bad_conv.c bad/gen_bad_detect.c)
target_link_libraries(osc-gen-bad PRIVATE osc_proto onnxscatter osc_test_support osc_flags)
add_executable(test_bad bad/test_bad.c)
target_link_libraries(test_bad PRIVATE onnxscatter osc_flags)

# Limits, memory-mapped external data, pool cleanups (cmocka; protobuf-c for external models).
osc_unit_test(test_limits bad/test_limits.c)
target_link_libraries(test_limits PRIVATE osc_proto osc_test_support)
set_tests_properties(test_limits PROPERTIES LABELS "unit;bad")

# The byte cap on Unique (a 10^7-element sort refused in under 1 s), MaxUnpool and Col2Im.
osc_unit_test(test_limits_scat bad/test_limits_scat.c)
target_link_libraries(test_limits_scat PRIVATE osc_test_support)
set_tests_properties(test_limits_scat PROPERTIES LABELS "unit;bad")

# Every public call and writer call with NULL or inconsistent arguments.
osc_unit_test(test_misuse bad/test_misuse.c)
target_link_libraries(test_misuse PRIVATE osc_test_support)
set_tests_properties(test_misuse PROPERTIES LABELS "unit;bad")
# Every kernel row called directly with no outputs, no inputs, a mismatched output: refused.
osc_unit_test(test_kernel_contract bad/test_kernel_contract.c)
target_link_libraries(test_kernel_contract PRIVATE osc_test_support)
target_compile_definitions(test_kernel_contract PRIVATE OSC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
set_tests_properties(test_kernel_contract PROPERTIES LABELS "unit;bad")
# The companion kernels on every numeric dtype against references computed in the test.
osc_unit_test(test_sweep bad/test_sweep.c)
target_link_libraries(test_sweep PRIVATE osc_test_support)
set_tests_properties(test_sweep PROPERTIES LABELS "unit;bad")

set(_bad "${CMAKE_CURRENT_SOURCE_DIR}/bad")
find_program(OSC_SH sh REQUIRED)
add_test(NAME bad_up_to_date COMMAND ${OSC_SH} "${_bad}/check_up_to_date.sh" $<TARGET_FILE:osc-gen-bad>
  "${_bad}/cases" "${CMAKE_CURRENT_BINARY_DIR}/bad_gen")
# Every case within 1 s (load and first run); sanitizer builds run several times slower.
if(OSC_SANITIZE OR OSC_TSAN OR OSC_COVERAGE)
  set(_bad_limit 5)
else()
  set(_bad_limit 1)
endif()
add_test(NAME bad_api COMMAND test_bad "${_bad}/cases" --limit ${_bad_limit})
# Every case again with its 1st, 2nd, ... allocation failing: clean OSC_ERR_NOMEM, nothing leaked.
add_test(NAME bad_api_faults COMMAND test_bad "${_bad}/cases" --faults)
set_tests_properties(bad_up_to_date bad_api bad_api_faults PROPERTIES LABELS bad TIMEOUT 300)
if(TARGET onnx-scatter)
  add_test(NAME bad_cli COMMAND ${OSC_SH} "${_bad}/cli_bad.sh" $<TARGET_FILE:onnx-scatter>
    "${_bad}/cases" "${CMAKE_CURRENT_BINARY_DIR}/bad_cli" ${_bad_limit})
  set_tests_properties(bad_cli PROPERTIES LABELS bad TIMEOUT 300) # two CLI runs a case
endif()

# The hardening issue's adversaries (planner, dynamic stages, load-time counts) at n and 8n:
# growth below quadratic (ratios only), count limits refused with their message.
osc_unit_test(test_scaling bad/test_scaling.c)
target_link_libraries(test_scaling PRIVATE osc_test_support)
set_tests_properties(test_scaling PROPERTIES LABELS "unit;bad" TIMEOUT 300)
