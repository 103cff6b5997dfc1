#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# icd/clinfo: clinfo, through the system's ICD loader (ocl-icd) pointed at
# refcl alone, lists refcl's platform and device and reports no query as an
# error. With a directory argument, through the ocl-icd found there instead.
# REFCL_CLINFO: another clinfo command (scripts/cross-arm64.sh: arm64's,
# under qemu).
set -u
if [ $# -ge 1 ]; then
    if [ ! -e "$1/libOpenCL.so.1" ]; then
        echo "no ICD loader in $1: skipped"; exit 77
    fi
    export LD_LIBRARY_PATH="$1${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
if [ "${REFCL_SANITIZE:-}" = thread ]; then
    echo "clinfo is not built with ThreadSanitizer: skipped"; exit 77
fi
if [[ "${REFCL_SANITIZE:-}" == *address* ]]; then
    # clinfo itself is not instrumented: the ASan runtime must come first.
    export LD_PRELOAD=$(gcc -print-file-name=libasan.so)
    export ASAN_OPTIONS=detect_leaks=0
fi
[ -n "${REFCL_CLINFO:-}" ] || command -v clinfo >/dev/null ||
    { echo "clinfo not installed"; exit 1; }
out=$(${REFCL_CLINFO:-clinfo} 2>&1); status=$?
echo "$out"
fail() { echo "FAIL: $*"; exit 1; }
[ $status -eq 0 ] || fail "clinfo exited $status"
grep -Eq '^Number of platforms +1$' <<<"$out" || fail "not exactly one platform"
grep -Eq '^ +Platform Name +refcl$' <<<"$out" || fail "platform name"
grep -Eq '^ +Platform Version +OpenCL 3.0 refcl ' <<<"$out" || fail "platform version"
grep -Eq '^ +Device Type +CPU$' <<<"$out" || fail "device type"
grep -Eq '^ +Max compute units +[1-9][0-9]*$' <<<"$out" || fail "compute units"
# clinfo shows a failed query as "<error: ...>", "Invalid ..." or a CL_ code.
errors=$(grep -nE '<error|Invalid|CL_INVALID|CL_OUT_OF|error -[0-9]+' <<<"$out")
[ -z "$errors" ] || fail "queries reported as errors:
$errors"
echo "clinfo: refcl platform and device listed, no query failed"
