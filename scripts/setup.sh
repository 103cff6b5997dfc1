#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's first command: install dependencies, build refcl, and show it
# working through the system's ICD loader: clinfo, then a saxpy built from
# OpenCL C source and checked.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
# The build tree's compiler (plugin and builtin library), not an installed
# one: FULL_PROFILE once both are built (docs/compiler.md).
export REFCL_COMPILER_DIR="$PWD/build/compiler"
echo
echo "== clinfo through ocl-icd, OCL_ICD_VENDORS=$PWD/build/vendors/refcl.icd"
OCL_ICD_VENDORS="$PWD/build/vendors/refcl.icd" clinfo
echo
echo "== a kernel from OpenCL C source (bench/hello.c)"
OCL_ICD_VENDORS="$PWD/build/vendors/refcl.icd" build/bench/refcl_hello
