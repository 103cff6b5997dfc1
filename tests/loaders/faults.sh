#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# loaders/faults-<version>: how a real ICD loader reacts to each fault refcl
# can inject (REFCL_FAULT) and to the classic-driver mode
# (REFCL_ICD_VERSION=1). The reactions below were recorded with Debian's
# ocl-icd 2.3.1 (bookworm) and 2.3.3 (trixie); README.md has them as a
# table. A loader that reacts differently fails this test.
# usage: faults.sh <probe> <2.3.1|2.3.3> [<loader library dir>]
set -u
probe=$1 version=$2 libdir=${3:-}
if [ -n "$libdir" ]; then
    [ -e "$libdir/libOpenCL.so.1" ] || { echo "no ocl-icd $version in $libdir: skipped"; exit 77; }
    export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
working_classic="platforms=1 name=refcl devices=1 dispatch=classic context=ok"
working_icd2="platforms=1 name=refcl devices=1 dispatch=loader-managed context=ok"
dropped="platforms=0"

# setting|reaction of 2.3.1|reaction of 2.3.3
expectations="
REFCL_FAULT=none|$working_classic|$working_icd2
REFCL_ICD_VERSION=1|$working_classic|$working_classic
REFCL_FAULT=get-platforms-fails|$dropped|$dropped
REFCL_FAULT=zero-platforms|$dropped|$dropped
REFCL_FAULT=no-khr-icd|$dropped|$dropped
REFCL_FAULT=suffix-fails|$dropped|$dropped
REFCL_FAULT=one-tag|$working_classic|$dropped
REFCL_FAULT=no-get-function|$working_classic|$dropped
REFCL_FAULT=no-set-dispatch-data|$working_classic|$dropped
REFCL_PLATFORMS=3|${working_classic/platforms=1/platforms=3}|${working_icd2/platforms=1/platforms=3}
"
status=0
while IFS='|' read -r setting old new; do
    [ -n "$setting" ] || continue
    expected=$old; [ "$version" = 2.3.3 ] && expected=$new
    actual=$(env "$setting" "$probe" 2>&1)
    if [ "$actual" = "$expected" ]; then
        printf 'ok   %-34s %s\n' "$setting" "$actual"
    else
        printf 'FAIL %-34s %s\n     expected %s\n' "$setting" "$actual" "$expected"
        status=1
    fi
done <<<"$expectations"
exit $status
