# family.cmake: the sources of ops/attention/, attention; paths from this folder, the helpers of
# other families it calls included (ops/CMakeLists.txt compiles each once).
set(OSC_FAMILY_SOURCES
  attention.c att_rows.c att_avx512.c rotary.c cache_write.c ../norm/norm_common.c
  ../elementwise/ew_common.c ../elementwise/broadcast.c ../elementwise/minifloat.c
  ../elementwise/cast.c)
