# tests/cross.cmake: ctest label `cross` and target osc-cross-tests: what tools/run-tests.sh cross
# builds with a cmake/toolchain-*.cmake file and runs under qemu-user (armhf: a 32-bit size_t;
# s390x: big-endian). The unit tests of what depends on the machine (dtypes and byte order, the
# loader, external data, sizes past 4 GiB, .npy files, the scatter kernels and the oracle's
# random cases) and the scatter-family official node tests through the CLI; in a build of every
# op also the sessions, the embedding API and the elementwise kernels (Cast, ...).
set(_osc_cross_units test_dtype test_size32 test_loader_tensor test_loader_external
  test_loader_model test_ops_elements test_ops_nd test_scatter_loops test_reduce test_plan
  test_cli_npy test_build_config test_diff test_errors test_roundtrip test_oracle)
if(OSC_OPS_ALL)
  list(APPEND _osc_cross_units test_session test_embed test_ops_elementwise)
endif()
set_property(TEST ${_osc_cross_units} APPEND PROPERTY LABELS cross)
set(_osc_cross_targets ${_osc_cross_units})
if(TARGET onnx-scatter)
  set_property(TEST cli_nodetests_families_1_23 cli_nodetests_families_debian APPEND
    PROPERTY LABELS cross)
  list(APPEND _osc_cross_targets onnx-scatter)
endif()
add_custom_target(osc-cross-tests DEPENDS ${_osc_cross_targets})
if(CMAKE_CROSSCOMPILING)
  # 5,000 random cases under emulation instead of the 50,000 of a native run
  set_tests_properties(test_diff PROPERTIES ENVIRONMENT "OSC_DIFF_CASES=5000")
endif()
