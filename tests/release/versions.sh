#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# release/versions: refcl has one version number, CMakeLists.txt's
# project(refcl VERSION ...), and everything that names a version agrees
# with it: debian/changelog's top entry, NEWS.md's top entry, the library's
# file name (librefcl.so.1.<minor>.<patch>, soname librefcl.so.1) and
# CL_DRIVER_VERSION (followed by the compiler's identity where it is
# installed) and the platform version as clinfo reports them through
# the system's ICD loader (REFCL_CLINFO: another clinfo command, e.g. under
# qemu).
# Usage: versions.sh SOURCE_DIR CMAKE_VERSION LIBRARY_FILE OBJDUMP
set -u
src=$1 version=$2 library=$3 objdump=$4
fail() { echo "FAIL: $*"; failed=1; }
failed=0

changelog=$(sed -n '1s/^refcl (\([^)]*\)).*/\1/p' "$src/debian/changelog")
[ "$changelog" = "$version" ] ||
    fail "debian/changelog's top entry is '$changelog', CMakeLists.txt's version $version"
news=$(sed -n 's/^## \([0-9][^ ]*\) .*/\1/p' "$src/NEWS.md" | head -1)
[ "$news" = "$version" ] ||
    fail "NEWS.md's top entry is '$news', CMakeLists.txt's version $version"
IFS=. read -r _ minor patch <<<"$version"
[ "$(basename "$library")" = "librefcl.so.1.$minor.$patch" ] ||
    fail "the library is $(basename "$library"), not librefcl.so.1.$minor.$patch"
soname=$("$objdump" -p "$library" | sed -n 's/^ *SONAME *//p')
[ "$soname" = librefcl.so.1 ] || fail "the soname is '$soname', not librefcl.so.1"

if [ "${REFCL_SANITIZE:-}" = thread ]; then
    echo "clinfo is not built with ThreadSanitizer: its versions are not read"
else
    if [[ "${REFCL_SANITIZE:-}" == *address* ]]; then
        # clinfo itself is not instrumented: the ASan runtime must come first.
        export LD_PRELOAD=$(gcc -print-file-name=libasan.so)
        export ASAN_OPTIONS=detect_leaks=0
    fi
    # The value of clinfo's line NAME, from its output on stdin.
    field() { sed -n "s/^ *$1  *//p"; }
    out=$(${REFCL_CLINFO:-clinfo} 2>&1) || fail "clinfo failed: $out"
    driver=$(field "Driver Version" <<<"$out")
    # With the compiler, "+" and 16 hex digits of its identity follow: the
    # same from run to run, another where the compiler makes other code.
    if [ "${REFCL_TEST_PROFILE:-}" = FULL ]; then
        [[ "$driver" =~ ^"$version"\+[0-9a-f]{16}$ ]] ||
            fail "clinfo's Driver Version (CL_DRIVER_VERSION) is '$driver', not $version+<16 hex digits>"
        again=$(${REFCL_CLINFO:-clinfo} 2>&1 | field "Driver Version")
        [ "$again" = "$driver" ] || fail "Driver Version '$driver', then '$again'"
        scalar=$(REFCL_VECTORIZE=0 ${REFCL_CLINFO:-clinfo} 2>&1 | field "Driver Version")
        [ "$scalar" != "$driver" ] ||
            fail "Driver Version '$driver' with the vectorizer and without"
    else
        [ "$driver" = "$version" ] ||
            fail "clinfo's Driver Version (CL_DRIVER_VERSION) is '$driver', not $version"
    fi
    platform=$(field "Platform Version" <<<"$out")
    [ "$platform" = "OpenCL 3.0 refcl $version" ] ||
        fail "clinfo's Platform Version is '$platform', not 'OpenCL 3.0 refcl $version'"
fi
[ $failed = 0 ] || exit 1
echo "version $version everywhere: CMake, debian/changelog, NEWS.md, librefcl.so.1.$minor.$patch, CL_DRIVER_VERSION"
