# family.cmake: the sources of ops/linalg/, MatMul, Gemm (and MatMulAdd), Einsum, Det; paths from this folder, the
# helpers of other families it calls included (ops/CMakeLists.txt compiles each once).
set(OSC_FAMILY_SOURCES
  gemm_kernel.c matmul.c matmul_add.c gemm.c prod_bn.c einsum_parse.c einsum.c det.c ../shape/shape_util.c
  ../elementwise/broadcast.c ../elementwise/ew_common.c ../elementwise/minifloat.c
  ../norm/norm_common.c)
