#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# refcl on arm64, from an x86-64 Debian 12: cross-builds it with Debian's
# cross toolchain (cmake/aarch64-linux-gnu.cmake, -Werror) and runs, under
# qemu-user, the tests linked to librefcl directly (CTest names ending in
# /direct), arm64's clinfo through arm64's ocl-icd (icd/clinfo), the
# version check (release/versions) and the layer check of the arm64 objects
# (layers/). Installs what it needs with apt-get:
# the arm64 architecture, crossbuild-essential-arm64, qemu-user and the
# arm64 -dev packages (multiarch). qemu-aarch64 is started by CTest
# (CMAKE_CROSSCOMPILING_EMULATOR), so binfmt_misc is not needed.
# Usage: scripts/cross-arm64.sh [<build dir>] (build/arm64).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/arm64}
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
jobs=$(nproc)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
apt=($sudo env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=600)
packages=(crossbuild-essential-arm64 qemu-user libhwloc-dev:arm64
          ocl-icd-opencl-dev:arm64 ocl-icd-libopencl1:arm64)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
    "${apt[@]}" update
    "${apt[@]}" install --no-install-recommends "${missing[@]}"
fi

# arm64's clinfo is not co-installable with the build machine's: unpacked.
clinfo_root=$dir/clinfo-arm64
if [ ! -x "$clinfo_root/usr/bin/clinfo" ]; then
    mkdir -p "$clinfo_root"
    (cd "$clinfo_root" && apt-get download -q clinfo:arm64 && dpkg -x clinfo_*_arm64.deb .)
fi
clinfo="qemu-aarch64 $(realpath "$clinfo_root/usr/bin/clinfo")"

echo "== $dir: arm64 cross-build"
cmake -S . -B "$dir" -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREFCL_WERROR=ON -DREFCL_BUILD_BENCH=OFF >/dev/null
cmake --build "$dir" -j"$jobs"
readelf -h "$dir/librefcl.so.1" | grep -Eq 'Machine: +AArch64' ||
    { echo "$dir/librefcl.so.1 is not an arm64 library" >&2; exit 1; }
echo "== $dir: direct tests, clinfo and versions under qemu-aarch64"
REFCL_CLINFO=$clinfo ctest --test-dir "$dir" --output-on-failure -j"$jobs" \
    -R '/direct$|^icd/clinfo$|^release/versions$|^layers/'
