# family.cmake: the sources of ops/reduce/, the reductions; paths from this folder, the helpers of
# other families it calls included (ops/CMakeLists.txt compiles each once).
set(OSC_FAMILY_SOURCES
  reduce_ops.c argminmax.c cumsum.c ../shape/shape_util.c)
