# family.cmake: the sources of ops/gather/, gather and index; paths from this folder, the helpers of
# other families it calls included (ops/CMakeLists.txt compiles each once).
set(OSC_FAMILY_SOURCES
  gather.c nonzero.c onehot.c topk.c unique.c unique_sort.c maxunpool.c col2im.c
  compress.c
  ../shape/shape_util.c)
