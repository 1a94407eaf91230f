# toolchain-debian-cross.cmake: what the cross toolchain files (toolchain-armhf.cmake, ...) share:
# Debian's cross gcc for OSC_CROSS_TRIPLE, the target's libraries from Debian multiarch packages
# (libprotobuf-c-dev:ARCH, libcmocka-dev:ARCH, found through their pkg-config files in
# /usr/lib/TRIPLE/pkgconfig), host programs (protoc-c, pkg-config) from the host, and the tests
# run under qemu-user (OSC_CROSS_QEMU).
# docs/embedding.md, "Minimal builds", says how to add a target.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER "${OSC_CROSS_TRIPLE}-gcc")
set(CMAKE_LIBRARY_ARCHITECTURE "${OSC_CROSS_TRIPLE}")
set(CMAKE_FIND_ROOT_PATH "/usr/${OSC_CROSS_TRIPLE}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER) # protoc-c and pkg-config run on the host
# multiarch: headers in /usr/include, libraries in /usr/lib/TRIPLE (outside the root path)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${OSC_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
# No -L /usr/TRIPLE: programs run with the target's multiarch C library (libc6:ARCH, which the
# protobuf-c package brings), whose loader sits where the binary asks (/lib/ld-*.so). The cross
# toolchain's copy in /usr/TRIPLE is an older build of glibc: its loader with the multiarch
# libc.so.6 crashes in pthread_create (armhf) or hangs (arm64) under qemu 7.2.
set(CMAKE_CROSSCOMPILING_EMULATOR "${OSC_CROSS_QEMU}")
