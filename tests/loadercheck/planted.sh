#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# loadercheck/planted-<version>: refcl-loader-check against a forwarding
# loader (faulty_loader.c) in front of ocl-icd <version>, with one planted
# bug at a time. The checker must fail on each bug, with exactly the checks
# of the entry point it corrupts and the message below; it must pass (the
# loader's own expectations, nothing more) with no bug and with the legal
# errcode_ret proxy.
# usage: planted.sh <refcl-loader-check> <faulty loader> <version>
#                   <expectations file> [<ocl-icd library dir>]
set -u
checker=$1 shim=$2 version=$3 expect=$4 libdir=${5:-}
if [ -n "$libdir" ]; then
    [ -e "$libdir/libOpenCL.so.1" ] || { echo "no ocl-icd $version in $libdir: skipped"; exit 77; }
    export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
case "$("$checker" --identify --loader "$shim")" in
*" $version)") ;;
*) echo "the loader behind $shim is not ocl-icd $version: skipped"; exit 77 ;;
esac
out=$(mktemp); trap 'rm -f "$out"' EXIT
status=0
fail() { echo "FAIL $*"; status=1; }

# run <mode> <expected exit status> [checker options...]
run() {
    local mode=$1 want=$2; shift 2
    REFCL_FAULTY_LOADER=$mode "$checker" --loader "$shim" --seed 1 \
        --expect "$expect" "$@" >"$out" 2>&1
    local got=$?
    [ "$got" = "$want" ] || { fail "$mode: exit status $got, expected $want"; cat "$out"; }
}

# The checks a bug in <entry> fails: <groups> of every vendor routed.
# 2.3.3's mixed scenario is in its expectations (finding 1): not new.
new_failures() { # <entry> <groups...>
    local entry=$1 group; shift
    local vendors="single:a classic:b mixed:a mixed:b mixed:c classic-first:b classic-first:c"
    [ "$version" = 2.3.3 ] && vendors=${vendors//mixed:?/}
    for pair in $vendors; do
        for group in "$@"; do
            [ "$group" = null ] && { [ "$pair" = single:a ] && echo "  new failure: single/null/$entry"; continue; }
            echo "  new failure: ${pair%%:*}/$group/$entry@${pair##*:}"
        done
    done | sort
}

# planted <mode> <entry> <groups> <the line the checker must print>
planted() {
    local mode=$1 entry=$2 groups=$3 line=$4
    run "$mode" 1 --only "$entry"
    local want got
    want=$(new_failures "$entry" $groups)
    got=$(grep '^  new failure: ' "$out" | sort)
    [ "$got" = "$want" ] || fail "$mode: new failures
$got
expected
$want"
    grep -qxF -- "$line" "$out" || { fail "$mode: no line
$line"; grep "^FAIL single/" "$out"; }
    [ "$status" = 0 ] && echo "ok   $mode: caught ($(grep -c '^  new failure' "$out") checks of $entry)"
}

planted arg-size-at-index-1 clSetKernelArg "route forced" \
    "FAIL single/route/clSetKernelArg@a: call 2 of 4 (arg_index=1, arg_size=8): argument 2 (arg_size): sent 8, refcl received 0"
planted code-clamped clEnqueueReadBuffer "forced" \
    "FAIL single/forced/clEnqueueReadBuffer@a: call 1 of 44 (blocking_read=2394396397 (0x8eb796ed), offset=0x82aa0856df81772, size=0xf618ec638bace02f, event_wait_list=2 entries): result: refcl returned -55048 (the result refcl was told to give), the application got CL_INVALID_VALUE (-30)"
planted output-size clGetContextInfo "route forced" \
    "FAIL single/route/clGetContextInfo@a: call 1 of 3 (param_name=4224 (0x1080)): output param_value_size_ret: refcl left 4, the application got 5"
planted errcode-dropped clCreateBuffer "route forced null" \
    "FAIL single/route/clCreateBuffer@a: call 1 of 14 (flags=1, size=16 (0x10), host_ptr=NULL): output errcode_ret: the application passed a pointer, refcl received NULL; the application's errcode_ret holds -286331154 (the checker's 0xEE fill: nothing wrote it)"
planted extension-hidden clEnqueueMarkerREFCL "route forced null" \
    "FAIL single/route/clEnqueueMarkerREFCL@a: the loader offers no clEnqueueMarkerREFCL: not exported, and clGetExtensionFunctionAddressForPlatform returns NULL"

# Each failure names the command that reproduces it.
run arg-size-at-index-1 1 --only single/route/clSetKernelArg@a
grep -qxF "     reproduce: refcl-loader-check --loader $shim --only single/route/clSetKernelArg@a --seed 1" "$out" ||
    fail "arg-size-at-index-1: no reproducer line"

# No bug, and the legal proxy: the loader's expected results, nothing new.
for mode in none errcode-proxy; do
    run "$mode" 0
    grep -q '^  [0-9]* failures expected, results as expected$' "$out" ||
        fail "$mode: results differ from $expect"
    [ "$status" = 0 ] && echo "ok   $mode: passes ($(tail -1 "$out"))"
done
# The status of the last command (an exit here makes valgrind see bash leak
# the command it parsed).
[ "$status" = 0 ]
