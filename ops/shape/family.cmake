# family.cmake: the sources of ops/shape/, shape and layout; paths from this folder, the helpers of
# other families it calls included (ops/CMakeLists.txt compiles each once).
set(OSC_FAMILY_SOURCES
  shape_util.c constant.c shape.c reshape.c expand.c concat.c
  slice.c transpose.c range.c split.c pad.c center_crop_pad.c depth.c trilu.c eyelike.c
  reverse_sequence.c ../elementwise/broadcast.c ../elementwise/ew_common.c)
