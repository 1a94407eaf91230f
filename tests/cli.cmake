# tests/cli.cmake: ctest entries for the onnx-scatter CLI and the official node tests run through it.
# The official folders are read in place, never copied into the repo.
set(OSC_NODE_TESTS_DIR "${PROJECT_SOURCE_DIR}/../shared/onnx-node-tests" CACHE PATH
  "ONNX 1.23 node tests (folders of model.onnx + test_data_set_N/)")
set(OSC_DEBIAN_NODE_TESTS_DIR "/usr/share/libonnx-testdata/data/node" CACHE PATH
  "Debian's ONNX 1.12 node tests (package libonnx-testdata)")

# Unit tests of the CLI's comparison and printing, built from the tools/ sources.
set(_tools "${PROJECT_SOURCE_DIR}/tools")
osc_unit_test(test_cli_compare cli/test_cli_compare.c "${_tools}/compare.c" "${_tools}/elem.c"
  "${_tools}/print.c")
osc_unit_test(test_cli_print cli/test_cli_print.c "${_tools}/print.c" "${_tools}/elem.c")
target_include_directories(test_cli_compare PRIVATE "${_tools}")
target_include_directories(test_cli_print PRIVATE "${_tools}")

if(NOT TARGET onnx-scatter)
  return() # OSC_BUILD_TOOLS=OFF: nothing to run these through
endif()

find_program(OSC_SH sh REQUIRED)
set(_cli "${CMAKE_CURRENT_SOURCE_DIR}/cli")
# The scatter and gather families: every one must load and pass (a SKIP fails the entry).
set(_families "test_scatter*" "test_tensorscatter*" "test_gather_elements*" "test_gathernd*")

# osc_nodetests(name dir timeout args...): one ctest entry running nodetests.sh; a missing
# folder makes the script exit 77, which ctest reports as skipped.
function(osc_nodetests name dir timeout)
  add_test(NAME ${name} COMMAND ${OSC_SH} "${_cli}/nodetests.sh" $<TARGET_FILE:onnx-scatter> "${dir}" ${ARGN})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT ${timeout})
endfunction()

osc_nodetests(cli_nodetests_families_1_23 "${OSC_NODE_TESTS_DIR}" 120 --expect-pass 25 --no-skip ${_families})
osc_nodetests(cli_nodetests_families_debian "${OSC_DEBIAN_NODE_TESTS_DIR}" 120 --expect-pass 15 --no-skip ${_families})
osc_nodetests(cli_nodetests_all_1_23 "${OSC_NODE_TESTS_DIR}" 900)
osc_nodetests(cli_nodetests_all_debian "${OSC_DEBIAN_NODE_TESTS_DIR}" 900)
set_tests_properties(cli_nodetests_families_1_23 cli_nodetests_families_debian PROPERTIES LABELS cli)
set_tests_properties(cli_nodetests_all_1_23 cli_nodetests_all_debian PROPERTIES LABELS "cli;nodetests")

# Behaviour of the command line itself (usage errors, exit codes, run/test/info output).
add_test(NAME cli_behaviour COMMAND ${OSC_SH} "${_cli}/behaviour.sh" $<TARGET_FILE:onnx-scatter>
  "${CMAKE_CURRENT_BINARY_DIR}/cli_behaviour" "${OSC_NODE_TESTS_DIR}" "${OSC_DEBIAN_NODE_TESTS_DIR}")
set_tests_properties(cli_behaviour PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS cli)
