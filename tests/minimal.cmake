# tests/minimal.cmake: the build options of minimal builds (docs/embedding.md, "Minimal builds"):
# test_build_config in every configuration, and in a build of some ops (OSC_OPS other than all)
# the tests that need ops beyond the scatter family are not run (ctest lists them as disabled).
osc_unit_test(test_build_config unit/test_build_config.c unit/test_embed_models.c)
target_link_libraries(test_build_config PRIVATE osc_test_support)
set_tests_properties(test_build_config PROPERTIES LABELS "unit;embed")
if(OSC_OPS_ALL)
  return()
endif()
set(_osc_needs_all_ops
  test_session test_embed test_ops_elementwise test_broadcast test_ops_shape test_ops_reduce
  test_ops_matmul test_ops_math test_ops_layout test_ops_norm test_cli_random test_cli_random_models
  test_fusion test_fusion_tiny test_limits test_misuse test_sweep test_scaling)
set_tests_properties(${_osc_needs_all_ops} PROPERTIES DISABLED TRUE)
set_target_properties(${_osc_needs_all_ops} PROPERTIES EXCLUDE_FROM_ALL TRUE)
if(TARGET onnx-scatter) # scripts over models, or over the whole CLI, with other ops
  set_tests_properties(cli_nodetests_all_debian cli_limits cli_versions cli_hardening cli_warnings
    cli_profile cli_info cli_outputs cli_random fusion_exact torch_exports model_exports bad_api
    bad_api_faults bad_cli support_table_up_to_date PROPERTIES DISABLED TRUE)
endif()
