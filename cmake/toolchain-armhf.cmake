# toolchain-armhf.cmake: cross build for 32-bit ARM, hard float (size_t of 32 bits, little-endian) with Debian's
# gcc-arm-linux-gnueabihf; tests run under qemu-arm (tools/run-tests.sh cross armhf).
set(CMAKE_SYSTEM_PROCESSOR arm)
set(OSC_CROSS_TRIPLE arm-linux-gnueabihf)
set(OSC_CROSS_QEMU qemu-arm)
include("${CMAKE_CURRENT_LIST_DIR}/toolchain-debian-cross.cmake")
