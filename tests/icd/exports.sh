#!/usr/bin/env bash
# icd/exports: librefcl's dynamic symbols are exactly the three a loader
# looks up by name, and its soname is librefcl.so.1.
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
[ $status = 0 ] && echo "exports: $actual; soname: $soname"
exit $status
