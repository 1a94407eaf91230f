# install.cmake: install rules: both libraries, the header, the CMake package and onnxscatter.pc.
include(CMakePackageConfigHelpers)

set(OSC_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/onnxscatter"
  CACHE STRING "Where the CMake package files go (relative to the prefix)")

install(TARGETS onnxscatter onnxscatter_shared EXPORT onnxscatterTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/include/onnx_scatter.h" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
if(TARGET onnx-scatter)
  install(TARGETS onnx-scatter RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endif()

install(EXPORT onnxscatterTargets NAMESPACE onnxscatter:: DESTINATION "${OSC_CMAKE_DIR}")
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/onnxscatterConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/onnxscatterConfig.cmake" INSTALL_DESTINATION "${OSC_CMAKE_DIR}")
# The header's versioning rule: while the major version is 0, minor versions may break the ABI.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/onnxscatterConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY ${_osc_compat})
install(FILES "${PROJECT_BINARY_DIR}/onnxscatterConfig.cmake"
  "${PROJECT_BINARY_DIR}/onnxscatterConfigVersion.cmake" DESTINATION "${OSC_CMAKE_DIR}")

# pkg-config: paths relative to the .pc file's folder when the install dirs are relative, so
# `cmake --install --prefix ANY` gives a working file.
function(_osc_pc_path var dir)
  if(IS_ABSOLUTE "${dir}")
    set(${var} "${dir}" PARENT_SCOPE)
  else()
    set(${var} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(OSC_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _osc_up "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
  string(REGEX REPLACE "/$" "" _osc_up "${_osc_up}")
  set(OSC_PC_PREFIX "\${pcfiledir}/${_osc_up}")
endif()
_osc_pc_path(OSC_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
_osc_pc_path(OSC_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
if(OSC_THREADS) # a build without threads (OSC_THREADS=OFF) needs no -pthread
  set(OSC_PC_PTHREAD " -pthread")
else()
  set(OSC_PC_PTHREAD "")
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/onnxscatter.pc.in" "${PROJECT_BINARY_DIR}/onnxscatter.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/onnxscatter.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
