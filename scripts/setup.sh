#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's first command: install dependencies, build refcl, and show it
# working through the system's ICD loader with clinfo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
echo
echo "== clinfo through ocl-icd, OCL_ICD_VENDORS=$PWD/build/vendors/refcl.icd"
OCL_ICD_VENDORS="$PWD/build/vendors/refcl.icd" clinfo
