#!/usr/bin/env bash
# The README's second command: the whole test suite. Builds refcl with gcc
# and clang (warnings are errors), then under AddressSanitizer +
# UndefinedBehaviorSanitizer and ThreadSanitizer, runs CTest in each, and
# runs the tests once more under valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc)

run() { # run <build dir> <ctest args...> -- <cmake args...>
    local dir=$1; shift
    local ctest_args=()
    while [ "$1" != "--" ]; do ctest_args+=("$1"); shift; done
    shift
    echo "== $dir: cmake $*"
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
    cmake --build "$dir" -j"$jobs"
    ctest --test-dir "$dir" --output-on-failure -j"$jobs" "${ctest_args[@]}"
}

run build/gcc -- -DCMAKE_C_COMPILER=gcc
run build/clang -- -DCMAKE_C_COMPILER=clang
run build/asan -- -DCMAKE_C_COMPILER=gcc -DREFCL_SANITIZE=address,undefined
run build/tsan -- -DCMAKE_C_COMPILER=clang -DREFCL_SANITIZE=thread
echo "== build/gcc under valgrind"
ctest --test-dir build/gcc --output-on-failure -j"$jobs" -T memcheck \
    --overwrite MemoryCheckCommandOptions="--error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --track-origins=yes"
