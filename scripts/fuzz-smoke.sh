#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds refcl's libFuzzer targets (fuzz/) with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer in <build dir>, and runs each for a short
# while (FUZZ_SECONDS, 20 by default) on a copy of its seed corpus: a
# smoke run that any crash, hang or unexpected error code fails. Prints
# "N passed, N failed" last.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/fuzz}
seconds=${FUZZ_SECONDS:-20}
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREFCL_WERROR=ON \
    -DCMAKE_C_COMPILER=clang -DREFCL_FUZZ=ON -DREFCL_SANITIZE=address,undefined \
    -DBUILD_TESTING=OFF -DREFCL_BUILD_BENCH=OFF -DREFCL_BUILD_LOADERCHECK=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)"
dir=$(cd "$dir" && pwd)
passed=0 failed=0
for name in options binary; do
    corpus="$dir/fuzz/corpus-$name"
    rm -rf "$corpus" && cp -r fuzz/corpus/$name "$corpus"
    echo "== fuzz/$name for $seconds s"
    if REFCL_COMPILER_DIR="$dir/compiler" REFCL_CACHE=0 \
        ASAN_OPTIONS=detect_leaks=0 \
        "$dir/fuzz/refcl_fuzz_$name" -max_total_time="$seconds" -timeout=60 \
        -rss_limit_mb=4096 -artifact_prefix="$dir/fuzz/$name-" "$corpus" \
        2>"$dir/fuzz/$name.log"; then
        passed=$((passed + 1))
        tail -n 2 "$dir/fuzz/$name.log"
    else
        failed=$((failed + 1))
        tail -n 40 "$dir/fuzz/$name.log"
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
