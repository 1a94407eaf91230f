# Kernel unit tests: each kernel run directly through tests/unit/kharness.c.
osc_unit_test(test_ops_elements unit/test_ops_elements.c unit/kharness.c)
osc_unit_test(test_ops_nd unit/test_ops_nd.c unit/kharness.c)
osc_unit_test(test_reduce unit/test_reduce.c)
osc_unit_test(test_ops_elementwise unit/test_ops_elementwise.c unit/kharness.c)
# The broadcast iterator over ranges of its output (what each thread of an elementwise op walks).
osc_unit_test(test_broadcast unit/test_broadcast.c)
# Elementwise ops, Where and reductions split over 2 and 3 threads: the 1-thread bits.
osc_unit_test(test_threads_ew unit/test_threads_ew.c)
target_link_libraries(test_threads_ew PRIVATE osc_test_support)
set_tests_properties(test_threads_ew PROPERTIES LABELS "unit;threads")
set_property(GLOBAL APPEND PROPERTY OSC_THREADS_TARGETS test_threads_ew)
osc_unit_test(test_ops_shape unit/test_ops_shape.c unit/kharness.c)
osc_unit_test(test_ops_reduce unit/test_ops_reduce.c unit/kharness.c)
osc_unit_test(test_ops_matmul unit/test_ops_matmul.c unit/kharness.c)
osc_unit_test(test_ops_math unit/test_ops_math.c unit/kharness.c)
osc_unit_test(test_ops_layout unit/test_ops_layout.c unit/kharness.c)
osc_unit_test(test_ops_norm unit/test_ops_norm.c unit/kharness.c)
target_link_libraries(test_ops_norm PRIVATE osc_test_support) # a model through the engine
osc_unit_test(test_ops_normalize unit/test_ops_normalize.c unit/kharness.c)
osc_unit_test(test_ops_loss unit/test_ops_loss.c unit/kharness.c)
osc_unit_test(test_scatter_loops unit/test_scatter_loops.c)
# Every registry row against the spec's Changelog (version ranges, type constraints); skipped
# when ../shared/spec is absent.
osc_unit_test(test_registry unit/test_registry.c)
target_compile_definitions(test_registry PRIVATE
  OSC_CHANGELOG="${PROJECT_SOURCE_DIR}/../shared/spec/onnx-Changelog.md")
# The elementwise ops added with CastLike: one file per group of ops.
osc_unit_test(test_ops_castlike unit/test_ops_castlike.c unit/kharness.c)
osc_unit_test(test_ops_summean unit/test_ops_summean.c unit/kharness.c)
osc_unit_test(test_ops_bitwise unit/test_ops_bitwise.c unit/kharness.c)
osc_unit_test(test_ops_trig_act unit/test_ops_trig_act.c unit/kharness.c)
# Unique (gather and index) and the two scatters MaxUnpool and Col2Im, against references
# written in the tests.
osc_unit_test(test_ops_unique unit/test_ops_unique.c unit/kharness.c)
target_link_libraries(test_ops_unique PRIVATE osc_test_support) # a model for the session case
osc_unit_test(test_ops_unpool unit/test_ops_unpool.c unit/kharness.c)
# DepthToSpace, SpaceToDepth, CenterCropPad, Det and BitCast, on values worked out by hand.
osc_unit_test(test_ops_rearrange unit/test_ops_rearrange.c unit/kharness.c)
# Trilu, Compress, ReverseSequence, EyeLike and CumProd on every dtype of their rows.
osc_unit_test(test_ops_select unit/test_ops_select.c unit/kharness.c)
# RMSNormalization and RotaryEmbedding against float64 references written in the test.
osc_unit_test(test_ops_rope unit/test_ops_rope.c unit/kharness.c)
# Attention-23/24 against a float64 reference written in the test (grouped heads, a past, causal,
# nonpad_kv_seqlen with poisoned padding, fully masked rows, every dtype).
osc_unit_test(test_ops_attention unit/test_ops_attention.c unit/kharness.c)
target_link_libraries(test_ops_attention PRIVATE osc_test_support) # a model through the engine
# One decoder step through the engine: TensorScatter into donated K/V caches, Attention-24
# reading them in place (no cache-sized block, NaN past the valid length), bad steps refused
# with the caches untouched.
osc_unit_test(test_decode_step unit/test_decode_step.c)
target_link_libraries(test_decode_step PRIVATE osc_test_support)
# MaxPool (Indices, MaxUnpool round trip), AveragePool, LpPool, the Global* pools and LRN against
# naive loops written in the test (ceil_mode, count_include_pad, dilations, auto_pad, halves).
osc_unit_test(test_ops_pool unit/test_ops_pool.c unit/kharness.c)
# Resize, Upsample, GridSample and AffineGrid against naive per-element formulas written in the
# test; the invalid inputs.
osc_unit_test(test_ops_resize unit/test_ops_resize.c unit/kharness.c)
# Conv, ConvTranspose and DeformConv against direct loops written in the test (groups, dilations,
# strides, pads, auto_pad, 1-D to 3-D, every dtype) and their invalid nodes.
osc_unit_test(test_ops_conv unit/test_ops_conv.c unit/kharness.c)
target_link_libraries(test_ops_conv PRIVATE osc_test_support) # a model on 1 and 3 threads
# Conv's path without columns (float, 2-D, AVX-512): the same bits as DeformConv's columns and
# the product on 1 and 3 threads, with Relu taken in or not; values against a loop in double.
osc_unit_test(test_conv_direct unit/test_conv_direct.c)
target_link_libraries(test_conv_direct PRIVATE osc_test_support)
# RoiAlign and NonMaxSuppression (detection), against naive loops written in the test.
osc_unit_test(test_ops_detect unit/test_ops_detect.c unit/kharness.c)
