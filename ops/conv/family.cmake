# family.cmake: the sources of ops/conv/, Conv, ConvTranspose, DeformConv; paths from this
# folder, the helpers of other families it calls included (ops/CMakeLists.txt compiles each
# once): the product kernel of linalg and what it and the attribute parsing need.
set(OSC_FAMILY_SOURCES
  conv_attr.c conv_cols.c conv_direct.c conv_fwd.c convt.c ../linalg/gemm_kernel.c
  ../linalg/prod_bn.c ../norm/norm_common.c ../shape/shape_util.c ../elementwise/ew_common.c
  ../elementwise/broadcast.c ../elementwise/minifloat.c)
