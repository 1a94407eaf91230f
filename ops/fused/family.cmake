# family.cmake: the sources of ops/fused/, the fused kernels the load-time fusion makes (compiled
# with the scatter family); paths from this folder, the helpers of other families it calls included
# (ops/CMakeLists.txt compiles each once).
set(OSC_FAMILY_SOURCES
  fused_scatter.c fused_tiled.c fused_gather.c fused_index.c fused_group.c fused_rows.c
  fused_place.c   fused_syms.c fused_shape.c fused_bag.c fused_inf.c
  fused_softmax.c fused_dot.c)
