# tests/cli.cmake: ctest entries for the onnx-scatter CLI and the official node tests run through it.
# The official folders are read in place, never copied into the repo.
set(OSC_NODE_TESTS_DIR "${PROJECT_SOURCE_DIR}/../shared/onnx-node-tests" CACHE PATH
  "ONNX 1.23 node tests (folders of model.onnx + test_data_set_N/)")
set(OSC_DEBIAN_NODE_TESTS_DIR "/usr/share/libonnx-testdata/data/node" CACHE PATH
  "Debian's ONNX 1.12 node tests (package libonnx-testdata)")

# Unit tests of the CLI's pieces, built from the tools/ sources (not the tool itself, which
# OSC_BUILD_TOOLS=OFF leaves out).
set(_tools "${PROJECT_SOURCE_DIR}/tools")
add_library(osc_cli_core STATIC "${_tools}/compare.c" "${_tools}/elem.c" "${_tools}/encode.c"
  "${_tools}/numfmt.c" "${_tools}/print.c" "${_tools}/npy.c" "${_tools}/literal.c"
  "${_tools}/json.c" "${_tools}/usage.c" "${_tools}/random.c" "${_tools}/ranges.c"
  "${_tools}/shapes.c" "${_tools}/inputs.c" "${_tools}/fileio.c" "${_tools}/discover.c"
  "${_tools}/filenames.c"
  "${_tools}/runtime_opts.c" "${_tools}/args.c")
target_link_libraries(osc_cli_core PRIVATE onnxscatter osc_flags)
target_include_directories(osc_cli_core PUBLIC "${_tools}")
foreach(_t compare print npy literal random)
  osc_unit_test(test_cli_${_t} cli/test_cli_${_t}.c)
  target_link_libraries(test_cli_${_t} PRIVATE osc_cli_core)
  set_tests_properties(test_cli_${_t} PROPERTIES LABELS "unit;cli")
endforeach()
target_link_libraries(test_cli_random PRIVATE osc_test_support) # writes models
# --random on every model of tests/torch and tests/models, seeds 1 to 20, in one process
osc_unit_test(test_cli_random_models cli/test_cli_random_models.c)
target_link_libraries(test_cli_random_models PRIVATE osc_cli_core)
target_compile_definitions(test_cli_random_models PRIVATE OSC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
set_tests_properties(test_cli_random_models PROPERTIES LABELS "unit;cli;torch")

if(NOT TARGET onnx-scatter)
  return() # OSC_BUILD_TOOLS=OFF: nothing to run these through
endif()

find_program(OSC_SH sh REQUIRED)
set(_cli "${CMAKE_CURRENT_SOURCE_DIR}/cli")
# The CLI as the node-test scripts run it: through the emulator in a cross build (qemu-user,
# CMAKE_CROSSCOMPILING_EMULATOR), which ctest prepends only to commands that are targets.
set(_osc_cli_run $<TARGET_FILE:onnx-scatter>)
if(CMAKE_CROSSCOMPILING_EMULATOR)
  list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " _emu)
  set(_osc_cli_run "${CMAKE_CURRENT_BINARY_DIR}/onnx-scatter-emu.sh")
  file(GENERATE OUTPUT "${_osc_cli_run}"
    CONTENT "#!/bin/sh\nexec ${_emu} \"$<TARGET_FILE:onnx-scatter>\" \"$@\"\n"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endif()
# The scatter and gather families: every one must load and pass (a SKIP fails the entry).
set(_families "test_scatter*" "test_tensorscatter*" "test_gather_elements*" "test_gathernd*")

# osc_nodetests(name dir timeout args...): one ctest entry running nodetests.sh; a missing
# folder makes the script exit 77, which ctest reports as skipped.
function(osc_nodetests name dir timeout)
  add_test(NAME ${name} COMMAND ${OSC_SH} "${_cli}/nodetests.sh" "${_osc_cli_run}" "${dir}" ${ARGN})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT ${timeout})
endfunction()

osc_nodetests(cli_nodetests_families_1_23 "${OSC_NODE_TESTS_DIR}" 120 --expect-pass 25 --no-skip ${_families})
osc_nodetests(cli_nodetests_families_debian "${OSC_DEBIAN_NODE_TESTS_DIR}" 120 --expect-pass 15 --no-skip ${_families})
osc_nodetests(cli_nodetests_all_1_23 "${OSC_NODE_TESTS_DIR}" 900)
# ONNX 1.12's data disagrees with the spec in five tests (ONNX 1.23 agrees with us): the file
# lists them with the reasons, and `test --known-fail FILE` reports them as KNOWN.
osc_nodetests(cli_nodetests_all_debian "${OSC_DEBIAN_NODE_TESTS_DIR}" 900
  --known-fail-file "${_cli}/known-fail-debian-1.12.txt")
set_tests_properties(cli_nodetests_families_1_23 cli_nodetests_families_debian PROPERTIES LABELS cli)
set_tests_properties(cli_nodetests_all_1_23 cli_nodetests_all_debian PROPERTIES LABELS "cli;nodetests")

# Behaviour of the command line itself (usage errors, exit codes, run/test/info output).
add_test(NAME cli_behaviour COMMAND ${OSC_SH} "${_cli}/behaviour.sh" $<TARGET_FILE:onnx-scatter>
  "${CMAKE_CURRENT_BINARY_DIR}/cli_behaviour" "${OSC_NODE_TESTS_DIR}" "${OSC_DEBIAN_NODE_TESTS_DIR}")
set_tests_properties(cli_behaviour PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS cli)

# Feature tests of the command line: generated models and files, a strict JSON checker.
add_executable(gen_cli_models cli/gen_cli_models.c)
target_link_libraries(gen_cli_models PRIVATE onnxscatter osc_test_support osc_flags)
add_executable(json_query cli/json_query.c)
target_link_libraries(json_query PRIVATE osc_flags)
foreach(_s inputs json bench testcmd docs limits versions hardening random warnings profile info outputs
    subgraphs values)
  add_test(NAME cli_${_s} COMMAND ${OSC_SH} "${_cli}/${_s}.sh" $<TARGET_FILE:onnx-scatter>
    "${CMAKE_CURRENT_BINARY_DIR}/cli_${_s}" $<TARGET_FILE:gen_cli_models> $<TARGET_FILE:json_query>
    "${PROJECT_SOURCE_DIR}")
  set_tests_properties(cli_${_s} PROPERTIES TIMEOUT 300 LABELS cli)
endforeach()
