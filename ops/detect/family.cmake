# family.cmake: the sources of ops/detect/, detection (RoiAlign, NonMaxSuppression); paths from
# this folder, the helpers of other families it calls included (ops/CMakeLists.txt compiles each
# once).
set(OSC_FAMILY_SOURCES roialign.c nms.c nms_grid.c ../shape/shape_util.c)
