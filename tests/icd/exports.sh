#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# icd/exports: librefcl's dynamic symbols are exactly the three a loader
# looks up by name, its soname is librefcl.so.1, and it neither names hwloc
# as a dependency nor leaves an hwloc function undefined: hwloc is loaded on
# the first topology load (device/hwloc_lazy.c), and every hwloc call binds
# to refcl's forwarders.
set -u
lib=$1
expected="clGetExtensionFunctionAddress clGetPlatformInfo clIcdGetPlatformIDsKHR"
actual=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWwDdBbRrVvi]$/ {print $3}' | sed 's/@.*//' | sort | tr '\n' ' ' | sed 's/ $//')
status=0
if [ "$actual" != "$expected" ]; then
    echo "exported: '$actual'"
    echo "expected: '$expected'"
    status=1
fi
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$soname" != "librefcl.so.1" ]; then
    echo "soname: '$soname', expected 'librefcl.so.1'"
    status=1
fi
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ' | sed 's/ $//')
case " $needed " in
*" libhwloc"*)
    echo "needs hwloc: $needed"
    status=1 ;;
esac
undefined=$(nm -D --undefined-only "$lib" | awk '$2 ~ /^hwloc_/ {print $2}' | tr '\n' ' ')
if [ -n "$undefined" ]; then
    echo "hwloc functions left to the dynamic linker: $undefined"
    status=1
fi
[ $status = 0 ] && echo "exports: $actual; soname: $soname; needs: $needed"
exit $status
