#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# icd/trace-<route>: call tracing (REFCL_TRACE, docs/tracing.md) through
# ocl-icd 2.3.1, ocl-icd 2.3.3 or linked directly (the route).
#  - trace_app's trace, handles numbered (REFCL_TRACE_ADDRESSES=0), is the
#    golden trace: trace/start-<route>.golden (what the loader calls while
#    starting), then trace/app.golden (the application's calls, the same
#    through every route);
#  - with raw addresses, the same trace but for the addresses;
#  - REFCL_TRACE unset: no trace, and the dispatch table slot and the ICD2
#    lookup of clGetDeviceInfo are refcl_notify_clGetDeviceInfo, the twin
#    every slot holds untraced (refcl/notify.h); set, they are its tracing
#    wrapper;
#  - REFCL_TRACE=1 traces to stderr; a file that cannot be opened is one
#    clear message and no trace;
#  - unloading refcl closes its trace file;
#  - threads calling at once leave whole lines only.
# usage: trace.sh <trace_app> <librefcl> <2.3.1|2.3.3|direct> [<loader lib dir>]
set -u
app=$1 lib=$2 route=$3 libdir=${4:-}
golden=$(dirname "$0")/trace
if [ -n "$libdir" ]; then
    [ -e "$libdir/libOpenCL.so.1" ] || { echo "no ocl-icd $route in $libdir: skipped"; exit 77; }
    export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
unset REFCL_TRACE REFCL_TRACE_ADDRESSES
# The traces stay in the working directory for a look after a failure.
work=$PWD/trace-$route
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }

# expect_same <what> <expected file> <actual file>
expect_same() {
    if diff -u "$2" "$3" >"$work/diff"; then
        echo "ok   $1"
    else
        fail "$1"; cat "$work/diff"
    fi
}

# The golden trace, split where the application's calls start.
REFCL_TRACE=$work/numbered REFCL_TRACE_ADDRESSES=0 "$app" || fail "trace_app calls"
sed '/^clUnloadPlatformCompiler(/,$d' numbered >start
sed -n '/^clUnloadPlatformCompiler(/,$p' numbered >calls
expect_same "loader start-up ($route)" "$golden/start-$route.golden" start
expect_same "application calls" "$golden/app.golden" calls

# Raw addresses: the same lines once handles and pointers are blanked.
REFCL_TRACE=$work/raw "$app" || fail "trace_app calls, raw addresses"
blank() { sed -E 's/\b0x[0-9a-f]+\b|\b[a-z]+#[0-9]+\b|\bptr\b/ADDR/g' "$1"; }
blank numbered >numbered.blank
blank raw >raw.blank
expect_same "raw addresses" numbered.blank raw.blank
grep -q 'platform=0x[0-9a-f]\+,' raw || fail "raw trace shows no platform address"

# Off (unset, or 0): nothing written, untraced functions handed out.
offset() { nm "$lib" | awk -v f="$1" '$3 == f {print "0x" substr($1, match($1, /[1-9a-f]/))}'; }
untraced="slot $(offset refcl_notify_clGetDeviceInfo)
lookup $(offset refcl_notify_clGetDeviceInfo)"
traced="slot $(offset refcl_trace_clGetDeviceInfo)
lookup $(offset refcl_trace_clGetDeviceInfo)"
before=$status
mkdir off
out=$(cd off && "$app" 2>&1 && REFCL_TRACE=0 "$app" slot 2>&1)
[ "$out" = "$untraced" ] || fail "tracing off printed: $out; expected $untraced"
[ -z "$(ls -A off)" ] || fail "tracing off left files: $(ls -A off)"
out=$(REFCL_TRACE=$work/on "$app" slot 2>&1)
[ "$out" = "$traced" ] || fail "tracing on hands out: $out; expected $traced"
[ $status = "$before" ] && echo "ok   tracing off: nothing written, untraced functions handed out"

# REFCL_TRACE=1: stderr.
err=$(REFCL_TRACE=1 REFCL_TRACE_ADDRESSES=0 "$app" 2>&1 >/dev/null)
grep -qxF 'clUnloadPlatformCompiler(platform=platform#1) = CL_SUCCESS' <<<"$err" \
    && echo "ok   REFCL_TRACE=1 traces to stderr" || fail "REFCL_TRACE=1: $err"

# A trace that cannot be written, a bad option: a message, never a crash.
out=$(REFCL_TRACE=$work/no/such/dir/trace "$app" slot 2>&1); rc=$?
expected='refcl: ignoring REFCL_TRACE="'$work'/no/such/dir/trace": expected 0, 1 or a file refcl can write (No such file or directory); using no trace'
[ $rc = 0 ] && [ "$out" = "$expected
$untraced" ] && echo "ok   unwritable REFCL_TRACE: message, no trace" \
    || fail "unwritable REFCL_TRACE (exit $rc): $out"
out=$(REFCL_TRACE=$work/t REFCL_TRACE_ADDRESSES=maybe "$app" 2>&1); rc=$?
grep -qxF 'refcl: ignoring REFCL_TRACE_ADDRESSES="maybe": expected 0 or 1; using 1' <<<"$out" && [ $rc = 0 ] \
    && echo "ok   bad REFCL_TRACE_ADDRESSES: message, default" || fail "REFCL_TRACE_ADDRESSES=maybe (exit $rc): $out"

# Unloading closes the trace; loading again empties it (not linked to
# refcl directly, which stays loaded).
if [ "$route" != direct ]; then
    REFCL_TRACE=$work/reload REFCL_TRACE_ADDRESSES=0 "$app" reload "$lib" || fail "trace_app reload"
    expected='clGetExtensionFunctionAddress(func_name="clIcdGetPlatformIDsKHR") = ptr
clIcdGetPlatformIDsKHR(num_entries=0, platforms=NULL, num_platforms=ptr->1) = CL_SUCCESS'
    [ "$(cat reload)" = "$expected" ] && echo "ok   reloading: trace closed, then emptied" \
        || fail "reloading left: $(cat reload)"
fi

# Threads: every line whole (8 threads x 250 calls, trace_app.c).
REFCL_TRACE=$work/threads "$app" threads || fail "trace_app threads"
whole='^clGetDeviceInfo\(device=0x[0-9a-f]+, param_name=CL_DEVICE_NAME, param_value_size=256, param_value=0x[0-9a-f]+, param_value_size_ret=0x[0-9a-f]+->[0-9]+\) = CL_SUCCESS$'
calls=$(grep -c 'CL_DEVICE_NAME' threads)
broken=$(grep 'CL_DEVICE_NAME' threads | grep -cvE "$whole")
others=$(grep -vc '^cl[A-Za-z0-9]*(.*)\( = .*\)\?$' threads)
[ "$calls" = 2000 ] && [ "$broken" = 0 ] && [ "$others" = 0 ] \
    && echo "ok   threads: $calls whole lines" \
    || fail "threads: $calls lines, $broken broken, $others malformed"
exit $status
