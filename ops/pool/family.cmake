# family.cmake: the sources of ops/pool/, pooling; paths from this folder, the helpers of other
# families it calls included (ops/CMakeLists.txt compiles each once).
set(OSC_FAMILY_SOURCES
  pool_geom.c pool_window.c pool_global.c lrn.c
  ../norm/norm_common.c ../shape/shape_util.c ../elementwise/minifloat.c)
