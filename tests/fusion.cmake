# tests/fusion.cmake: the gather-scatter fusion pass (issue 15). test_fusion: pattern boundaries
# (fused or not), outputs with fusion on equal to fusion off and to loops in the test, bit for
# bit, on 1 and 2 threads; test_fusion_tiny: the same against the tiny-threshold library
# (oracle.cmake), where 2 and 3 threads really split the fused kernel's rows; fusion_exact: every
# tests/models folder through the CLI with fusion on and off, 1 and 2 threads, byte-identical.
# osc_fusion_test(NAME [TIMEOUT S] [TINY_TIMEOUT S]): unit/NAME.c against the library (labels unit, fusion) and
# as NAME_tiny against the tiny-threshold library (oracle.cmake; OSC_FUSION_TINY; labels unit,
# fusion, threads, and the TSan stage's targets), where 2 and 3 threads really split the rows.
function(osc_fusion_test name)
  cmake_parse_arguments(F "" "TIMEOUT;TINY_TIMEOUT" "" ${ARGN})
  osc_unit_test(${name} unit/${name}.c)
  target_link_libraries(${name} PRIVATE osc_test_support m)
  set_tests_properties(${name} PROPERTIES LABELS "unit;fusion")
  add_executable(${name}_tiny unit/${name}.c)
  target_link_libraries(${name}_tiny PRIVATE osc_test_support_tiny osc_flags m PkgConfig::CMOCKA)
  target_include_directories(${name}_tiny PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
  target_compile_definitions(${name}_tiny PRIVATE OSC_FUSION_TINY)
  add_test(NAME ${name}_tiny COMMAND ${name}_tiny)
  set_tests_properties(${name}_tiny PROPERTIES LABELS "unit;fusion;threads")
  if(F_TIMEOUT)
    set_tests_properties(${name} PROPERTIES TIMEOUT ${F_TIMEOUT})
  endif()
  if(F_TINY_TIMEOUT)
    set_tests_properties(${name}_tiny PROPERTIES TIMEOUT ${F_TINY_TIMEOUT})
  endif()
  set_property(GLOBAL APPEND PROPERTY OSC_THREADS_TARGETS ${name}_tiny)
endfunction()

osc_fusion_test(test_fusion TIMEOUT 120 TINY_TIMEOUT 300)
# The tiled scatter (ops/fused/fused_tiled.h) on EdgeConv-shaped graphs.
osc_fusion_test(test_fusion_tiled)
# opts.fuse_recompute (TiledGatherScatter) on GAT-shaped graphs.
osc_fusion_test(test_fusion_recompute)
# The gather-scatter grouped by destination keeps each row's updates in edge order
# (ops/fused/fused_group.c, fused_rows.c).
osc_fusion_test(test_fusion_group)
# Rule embedding_bag: the Loop over bags fused into SegmentReduce on every dtype of its
# reductions, byte-identical to the Loop at 1, 2 and 3 threads.
osc_fusion_test(test_fusion_bag)
# Rule row_epilogue: an elementwise op with one value per row taken in by the fused scatter,
# bit for bit on 1 to 3 threads.
osc_fusion_test(test_fusion_epilogue)
# Rule replace_inf: Where(IsInf(x), value, x) as one ReplaceInf, bit for bit on 1 to 3 threads,
# and the spellings left unfused (a narrowing Cast, a mask read elsewhere).
osc_fusion_test(test_fusion_inf)
# Rule segment_softmax: torch's segment softmax (GAT's attention) as one SegmentSoftmax, bit for
# bit on 1 to 3 threads, grouped by destination or not.
osc_fusion_test(test_fusion_softmax)
# Rule row_dot: ReduceSum(Mul(X, W)) over the last axis (GAT's logits) as one RowDot, bit for
# bit on 1 to 3 threads.
osc_fusion_test(test_fusion_dot)
# Rule cache_write: a KV cache's update rotated, moved and converted on its way to TensorScatter,
# as one CacheWrite, bit for bit; errors before any write to the donated cache.
osc_unit_test(test_fusion_cache unit/test_fusion_cache.c)
target_link_libraries(test_fusion_cache PRIVATE osc_test_support m)
set_tests_properties(test_fusion_cache PROPERTIES LABELS "unit;fusion")
# Rule relu_epilogue: a product's Relu as its store (MatMul, Gemm, Conv, ConvTranspose), bit for
# bit; float16 and a shared product output left unfused.
osc_unit_test(test_fusion_matmul_add unit/test_fusion_matmul_add.c)
target_link_libraries(test_fusion_matmul_add PRIVATE osc_test_support m)
set_tests_properties(test_fusion_matmul_add PROPERTIES LABELS "unit;fusion")
osc_unit_test(test_fusion_relu unit/test_fusion_relu.c)
target_link_libraries(test_fusion_relu PRIVATE osc_test_support m)
set_tests_properties(test_fusion_relu PROPERTIES LABELS "unit;fusion")
# Rule bn_epilogue: a Conv's or Gemm's BatchNormalization (and the Relu after it) as its store,
# bit for bit against the unfused graph and the normalisation's expression; a bad scale's error.
osc_unit_test(test_fusion_bn unit/test_fusion_bn.c)
target_link_libraries(test_fusion_bn PRIVATE osc_test_support m)
set_tests_properties(test_fusion_bn PROPERTIES LABELS "unit;fusion")
# A fusion candidate left as it is says why (osc_node_desc.not_fused, info's "not fused").
osc_unit_test(test_fusion_why unit/test_fusion_why.c)
target_link_libraries(test_fusion_why PRIVATE osc_test_support m)
set_tests_properties(test_fusion_why PROPERTIES LABELS "unit;fusion")

if(TARGET onnx-scatter)
  find_program(OSC_SH sh REQUIRED)
  add_test(NAME fusion_exact COMMAND ${OSC_SH} "${CMAKE_CURRENT_SOURCE_DIR}/cli/fusion_exact.sh"
    $<TARGET_FILE:onnx-scatter> "${CMAKE_CURRENT_BINARY_DIR}/fusion_exact"
    "${CMAKE_CURRENT_SOURCE_DIR}/models")
  set_tests_properties(fusion_exact PROPERTIES LABELS "cli;fusion" TIMEOUT 300)
endif()
# A fused gather-scatter's per-edge operand made of two per-node tables (GCN's edge norm), bit
# for bit on 1 to 3 threads, its look-alikes left unfused.
osc_fusion_test(test_fusion_pair)
# A scatter of one value repeated (GCN's degree): no updates read, the rows combined from the
# grouping the aggregation of the same index made, bit for bit on 1 to 3 threads over runs.
osc_fusion_test(test_fusion_degree)
