# toolchain-s390x.cmake: cross build for IBM Z (64-bit, big-endian) with Debian's
# gcc-s390x-linux-gnu; tests run under qemu-s390x (tools/run-tests.sh cross s390x).
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(OSC_CROSS_TRIPLE s390x-linux-gnu)
set(OSC_CROSS_QEMU qemu-s390x)
include("${CMAKE_CURRENT_LIST_DIR}/toolchain-debian-cross.cmake")
