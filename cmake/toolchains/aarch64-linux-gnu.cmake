# cmake/toolchains/aarch64-linux-gnu.cmake — cross build for AArch64 Linux
# with Debian's cross compiler, tests run under qemu-user.
#
# Debian 12 setup (as root):
#   apt-get install -y gcc-aarch64-linux-gnu qemu-user-static
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get install -y libdeflate-dev:arm64 zlib1g-dev:arm64 libzstd-dev:arm64 libcmocka-dev:arm64
# Use:
#   cmake -S . -B build-aarch64 -G Ninja \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#   cmake --build build-aarch64 -j2 && ctest --test-dir build-aarch64
# ctest runs every test binary through CMAKE_CROSSCOMPILING_EMULATOR. The
# NEON kernels are compiled natively (src/neon, no SIMDe) in this build.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(DESERT_CROSS_TRIPLE aarch64-linux-gnu CACHE STRING "GNU triple of the cross tools")
set(CMAKE_C_COMPILER ${DESERT_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${DESERT_CROSS_TRIPLE}-g++)
set(CMAKE_AR ${DESERT_CROSS_TRIPLE}-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${DESERT_CROSS_TRIPLE}-ranlib CACHE FILEPATH "")

# Debian multiarch: the arm64 libraries and headers live in the normal
# prefix under /usr/lib/aarch64-linux-gnu; the sysroot of the cross
# compiler is /usr/aarch64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE ${DESERT_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH /usr/${DESERT_CROSS_TRIPLE} /usr)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config (cmocka is found through it) must read the arm64 .pc files.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${DESERT_CROSS_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

find_program(DESERT_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(DESERT_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${DESERT_QEMU_AARCH64};-L;/usr/${DESERT_CROSS_TRIPLE}"
      CACHE STRING "Runs aarch64 test binaries on the build host")
endif()
