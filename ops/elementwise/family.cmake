# family.cmake: the sources of ops/elementwise/, arithmetic, comparisons, logic, bitwise, Cast,
# BitCast, Where, Sum/Mean, math and activations; paths from this folder, the helpers of other
# families it calls included (ops/CMakeLists.txt compiles each once).
set(OSC_FAMILY_SOURCES
  broadcast.c ew_common.c binary.c unary.c variadic.c minmax.c summean.c where.c
  cast.c bitcast.c minifloat.c math_common.c activation.c math.c prelu.c
  pow.c isinf.c clip.c swiglu.c)
