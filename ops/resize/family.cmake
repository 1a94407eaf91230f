# family.cmake: the sources of ops/resize/, resampling (Resize, Upsample, GridSample, AffineGrid);
# paths from this folder, the helpers of other families it calls included (ops/CMakeLists.txt
# compiles each once).
set(OSC_FAMILY_SOURCES
  resize_common.c resize.c resize_run.c grid_sample.c affine_grid.c
  ../shape/shape_util.c ../shape/pad.c ../norm/norm_common.c ../elementwise/ew_common.c
  ../elementwise/broadcast.c ../elementwise/minifloat.c)
