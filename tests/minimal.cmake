# tests/minimal.cmake: the build options of minimal builds (docs/embedding.md, "Minimal builds"):
# test_build_config in every configuration, the size budget, and in a build of some ops (OSC_OPS)
# the tests that need ops beyond the scatter family are not run (ctest lists them as disabled).
osc_unit_test(test_build_config unit/test_build_config.c unit/test_embed_models.c)
target_link_libraries(test_build_config PRIVATE osc_test_support)
set_tests_properties(test_build_config PROPERTIES LABELS "unit;embed")
# The size budget (docs/embedding.md, "Minimal builds"): tools/size-report.sh --check builds the
# scatter-only size-first library at -Os in a folder of its own here (about 10 s) and fails when
# its text passes 150 KiB. gcc on x86-64 only, where the budget was set.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64)$"
   AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME size_budget COMMAND bash "${PROJECT_SOURCE_DIR}/tools/size-report.sh" --check
    --dir "${CMAKE_CURRENT_BINARY_DIR}/size")
  set_tests_properties(size_budget PROPERTIES LABELS "unit;size" TIMEOUT 300
    ENVIRONMENT "CC=${CMAKE_C_COMPILER}")
endif()
if(NOT OSC_THREADS) # a session's own threads: there are none (osc_session_threads is 1)
  set_tests_properties(test_tpool test_diff_tiny_2t test_diff_tiny_3t test_embed test_fusion
    test_fusion_tiny test_threads_ew PROPERTIES DISABLED TRUE)
  if(TARGET onnx-scatter)
    set_tests_properties(cli_bench cli_limits PROPERTIES DISABLED TRUE)
  endif()
endif()
if(OSC_OPS_ALL)
  return()
endif()
set(_osc_needs_all_ops
  test_session test_embed test_ops_elementwise test_broadcast test_ops_shape test_ops_reduce
  test_ops_matmul test_ops_math test_ops_layout test_ops_norm test_ops_normalize test_ops_loss
  test_cli_random test_cli_random_models
  test_fusion test_fusion_tiny test_fusion_tiled test_fusion_tiled_tiny test_threads_ew
  test_fusion_bag test_fusion_bag_tiny
  test_limits test_misuse test_sweep test_scaling test_control test_ops_unique test_ops_unpool
  test_limits_scat test_values test_ops_rearrange test_ops_rope test_ops_bitwise
  test_ops_castlike test_ops_select test_ops_summean test_ops_trig_act test_pins
  test_fusion_recompute test_fusion_recompute_tiny test_fusion_group test_fusion_group_tiny
  test_fusion_why test_kernel_contract test_ops_attention test_conv_direct
  test_ops_pool test_ops_conv test_fusion_inf test_fusion_epilogue test_fusion_epilogue_tiny
  test_decode_step test_ops_detect test_fusion_cache
  test_fusion_relu)
set_tests_properties(${_osc_needs_all_ops} PROPERTIES DISABLED TRUE)
set_target_properties(${_osc_needs_all_ops} PROPERTIES EXCLUDE_FROM_ALL TRUE)
if(TARGET onnx-scatter) # scripts over models, or over the whole CLI, with other ops
  set_tests_properties(cli_nodetests_all_debian cli_limits cli_versions cli_hardening cli_warnings
    cli_profile cli_info cli_outputs cli_random fusion_exact torch_exports torch_control_exports
    torch_bag_fusion cli_subgraphs cli_values
    model_exports model_detection model_detection_parts bad_api
    bad_api_faults bad_cli support_table_up_to_date PROPERTIES DISABLED TRUE)
endif()
# the resize family's kernel tests need all four of its ops
set_tests_properties(test_ops_resize PROPERTIES DISABLED TRUE)
set_target_properties(test_ops_resize PROPERTIES EXCLUDE_FROM_ALL TRUE)
