#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds refcl's libFuzzer targets (fuzz/) with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer in <build dir>, and runs each over its seed
# corpus (fuzz/corpus/: the seeds and the inputs of every crash found and
# fixed), each input once: a smoke run, the same every time, that any
# crash, hang or unexpected error code fails. FUZZ_SECONDS=N fuzzes for N
# seconds instead. Prints "N passed, N failed" last.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/fuzz}
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
if [ -n "${FUZZ_SECONDS:-}" ]; then
    length=(-max_total_time="$FUZZ_SECONDS")
else
    length=(-runs=0)
fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREFCL_WERROR=ON \
    -DCMAKE_C_COMPILER=clang -DREFCL_FUZZ=ON -DREFCL_SANITIZE=address,undefined \
    -DBUILD_TESTING=OFF -DREFCL_BUILD_BENCH=OFF -DREFCL_BUILD_LOADERCHECK=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)"
dir=$(cd "$dir" && pwd)
passed=0 failed=0
for name in options binary spirv spirv_lower; do
    corpus="$dir/fuzz/corpus-$name"
    rm -rf "$corpus" && cp -r fuzz/corpus/$name "$corpus"
    echo "== fuzz/$name ${length[*]}"
    if REFCL_COMPILER_DIR="$dir/compiler" REFCL_CACHE=0 \
        ASAN_OPTIONS=detect_leaks=0 \
        "$dir/fuzz/refcl_fuzz_$name" "${length[@]}" -timeout=60 \
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
