#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what refcl needs to build and test, from Debian 12's packages.
set -euo pipefail
packages=(
    build-essential cmake ninja-build pkg-config clang binutils
    # clang's runtimes: its sanitizers and libFuzzer (scripts/fuzz-smoke.sh).
    libclang-rt-14-dev
    opencl-headers ocl-icd-libopencl1 ocl-icd-opencl-dev clinfo
    libhwloc-dev hwloc valgrind
    dpkg-dev debhelper lintian
    # The OpenCL C compiler (docs/compiler.md): LLVM 15, as Debian 12 ships
    # it; python3 generates the builtin library; llvm-spirv-15 reads SPIR-V
    # (clCreateProgramWithIL); lld's libraries link programs inside the
    # compiler process; llvm-15-tools has lit and FileCheck (the passes'
    # IR tests, tests/compiler/lit); spirv-tools' spirv-as assembles the
    # SPIR-V 1.4 test module (tests/program/il/spirv14.spvasm).
    clang-15 llvm-15 llvm-15-dev libclang-15-dev liblld-15-dev zlib1g-dev
    python3 llvm-spirv-15 llvm-15-tools spirv-tools
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "installing: ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
