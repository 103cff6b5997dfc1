#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds refcl (library, compiler, tests, refcl-loader-check, bench) in
# every CMake build type with gcc and g++ and with clang and clang++, each
# with Debian's hardening flags (scripts/hardening.sh), with -Werror: a
# distribution's build must see no warning. Compiles only (without the
# builtin library's OpenCL C test programs, which no host compiler
# touches), except a last build without the OpenCL C compiler
# (-DREFCL_COMPILER=OFF), which also runs the test suite: a user without
# LLVM gets a working refcl.
# Usage: scripts/build-matrix.sh [<build dir> [<build types>]]
# (build/matrix, "Debug Release RelWithDebInfo MinSizeRel").
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:-build/matrix}
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
jobs=$(nproc)
failed=()

source scripts/hardening.sh
read -r -a types <<<"${2:-Debug Release RelWithDebInfo MinSizeRel}"

for cc in gcc clang; do
    cxx=g++
    [ "$cc" = clang ] && cxx=clang++
    for type in "${types[@]}"; do
        dir=$root/$cc-$type
        echo "== $dir: $cc and $cxx, CMAKE_BUILD_TYPE=$type, hardening, -Werror"
        cmake -S . -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
            -DCMAKE_BUILD_TYPE="$type" -DREFCL_WERROR=ON "${hardening[@]}" \
            -DREFCL_BUILTINS_TEST_PROGRAMS=OFF >/dev/null
        # A warning that -Werror does not turn into an error (a #pragma
        # message, a linker warning) fails the build too. Keep going:
        # every warning of this build, not just the first.
        keep_going=(-k)
        grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt" &&
            keep_going=(-k 0)
        if ! cmake --build "$dir" -j"$jobs" -- "${keep_going[@]}" \
                >"$dir/build.log" 2>&1 ||
           build_log_has_warnings "$dir/build.log"; then
            build_log_has_warnings "$dir/build.log" || true
            failed+=("$dir")
        fi
    done
done
dir=$root/no-compiler
echo "== $dir: gcc, REFCL_COMPILER=OFF, built and tested"
cmake -S . -B "$dir" -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DREFCL_WERROR=ON -DREFCL_COMPILER=OFF >"$dir.configure.log" 2>&1 || failed+=("$dir")
grep -q 'The OpenCL C compiler is not built' "$dir.configure.log" || failed+=("$dir (says nothing of the compiler)")
if ! cmake --build "$dir" -j"$jobs" >"$dir/build.log" 2>&1 ||
   ! ctest --test-dir "$dir" -j"$jobs" --output-on-failure -E 'icd2loader|2\.3\.3' >"$dir/test.log" 2>&1; then
    tail -40 "$dir/build.log" "$dir/test.log" >&2 || true
    failed+=("$dir")
fi
if [ ${#failed[@]} -gt 0 ]; then
    echo "== build matrix: not warning-free: ${failed[*]} (see their build.log)" >&2
    exit 1
fi
echo "== build matrix: $((2 * ${#types[@]})) builds (gcc and clang: ${types[*]}), no warning;"
echo "   without the compiler: built, and its tests pass"
