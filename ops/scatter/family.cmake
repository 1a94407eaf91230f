# family.cmake: the sources of ops/scatter/, the scatter family and its loops (always compiled: the
# fused kernels use its loops); paths from this folder, the helpers of other families it calls
# included (ops/CMakeLists.txt compiles each once).
set(OSC_FAMILY_SOURCES
  scatter_loops.c scatter_walk.c scatter_bucket.c reduce.c scatter_elements.c gather_elements.c
  scatter_nd.c gather_nd.c tensor_scatter.c)
