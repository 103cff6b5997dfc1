#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's second command: the whole test suite. Builds refcl with gcc
# and clang (a distribution's hardening flags, warnings are errors), then
# under AddressSanitizer + UndefinedBehaviorSanitizer and ThreadSanitizer,
# runs CTest in each, and runs the tests once more under valgrind. Then
# builds the other build types with both compilers and the hardening
# flags, warning-free (scripts/build-matrix.sh), runs the libFuzzer targets
# for a short while (scripts/fuzz-smoke.sh), and cross-builds for arm64 and
# runs the direct tests and clinfo under qemu-user (scripts/cross-arm64.sh).
# Each stage's time is printed after it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# New build trees are Ninja's: a third faster than make's on two cores.
# A tree configured before keeps its generator.
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
jobs=$(nproc)

passed=0 skipped=0
log=$(mktemp); trap 'rm -f "$log"' EXIT

# ctest, adding its counts to the totals (it exits non-zero on failure).
count() {
    ctest "$@" | tee "$log"
    tally
}
# Adds the counts of the ctest output in $log to the totals.
tally() {
    local total skips
    total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
    skips=$(grep -c '(Skipped)' "$log" || true)
    passed=$((passed + total - skips)) skipped=$((skipped + skips))
}

run() { # run <build dir> <cmake args...>
    local dir=$1; shift
    echo "== $dir: cmake $*"
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREFCL_WERROR=ON "$@" >/dev/null
    cmake --build "$dir" -j"$jobs" 2>&1 | tee "$dir/build.log"
    if build_log_has_warnings "$dir/build.log"; then exit 1; fi
    count --test-dir "$dir" --output-on-failure -j"$jobs"
}
# How long each stage took, for the CI log.
stage_start=$SECONDS
stage_done() { # stage_done <name>
    echo "== $1: $((SECONDS - stage_start)) s"
    stage_start=$SECONDS
}

# The gcc and clang builds are the build matrix's RelWithDebInfo builds
# too: Debian's hardening flags, and no warning in their logs.
source scripts/hardening.sh
# Only here: package/deb installs refcl's packages into the system, once.
run build/gcc -DCMAKE_C_COMPILER=gcc -DREFCL_PACKAGE_TEST=ON "${hardening[@]}"
stage_done "gcc: build and tests"
run build/clang -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ "${hardening[@]}"
stage_done "clang: build and tests"
run build/asan -DCMAKE_C_COMPILER=gcc -DREFCL_SANITIZE=address,undefined
stage_done "asan+ubsan: build and tests"
run build/tsan -DCMAKE_C_COMPILER=clang -DREFCL_SANITIZE=thread
stage_done "tsan: build and tests"
echo "== build/gcc under valgrind"
count --test-dir build/gcc --output-on-failure -j"$jobs" -T memcheck -LE package \
    --overwrite MemoryCheckCommandOptions="--error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --track-origins=yes"
stage_done "valgrind"
scripts/build-matrix.sh build/matrix "Debug Release MinSizeRel"
stage_done "build matrix"
scripts/fuzz-smoke.sh build/fuzz | tee "$log"
passed=$((passed + $(sed -n 's/^fuzz: \([0-9]*\) passed.*/\1/p' "$log")))
stage_done "fuzzers"
scripts/cross-arm64.sh build/arm64 | tee "$log"
tally
stage_done "arm64"
echo "== all six runs (gcc, clang, asan+ubsan, tsan, valgrind, arm64 under qemu),"
echo "   8 warning-free builds (gcc and clang, 4 build types, hardening flags:"
echo "   RelWithDebInfo in the gcc and clang runs, the others in the matrix)"
echo "   and the fuzzers' smoke run"
echo "$passed passed, 0 failed, $skipped skipped"
