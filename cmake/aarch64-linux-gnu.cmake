# SPDX-License-Identifier: Apache-2.0
# Cross-building refcl for arm64 on Debian (scripts/cross-arm64.sh):
#   cmake -S . -B build/arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# Needs crossbuild-essential-arm64, the arm64 -dev packages installed
# multiarch (dpkg --add-architecture arm64; libhwloc-dev:arm64,
# ocl-icd-opencl-dev:arm64) and qemu-user, which runs the tests: CTest
# starts every test program through qemu-aarch64, no binfmt needed.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# The arm64 libraries (libc6:arm64 included) are installed multiarch, so
# the arm64 dynamic linker is /lib/ld-linux-aarch64.so.1 and finds them
# in /usr/lib/aarch64-linux-gnu: qemu needs no other root.
find_program(REFCL_QEMU_AARCH64 qemu-aarch64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${REFCL_QEMU_AARCH64})

# pkg-config reads arm64's .pc files, not the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
