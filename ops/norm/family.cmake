# family.cmake: the sources of ops/norm/, normalisation; paths from this folder, the helpers of
# other families it calls included (ops/CMakeLists.txt compiles each once).
set(OSC_FAMILY_SOURCES
  norm_common.c softmax.c batchnorm.c layernorm.c rmsnorm.c dropout.c groupnorm.c meanvar.c lpnorm.c
  ../elementwise/math_common.c ../elementwise/ew_common.c ../elementwise/broadcast.c
  ../elementwise/minifloat.c ../shape/shape_util.c)
