# toolchain-aarch64.cmake: cross build for 64-bit ARM (little-endian) with Debian's
# gcc-aarch64-linux-gnu; tests run under qemu-aarch64 (tools/run-tests.sh cross aarch64).
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(OSC_CROSS_TRIPLE aarch64-linux-gnu)
set(OSC_CROSS_QEMU qemu-aarch64)
include("${CMAKE_CURRENT_LIST_DIR}/toolchain-debian-cross.cmake")
