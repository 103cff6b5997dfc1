#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# package/deb: refcl the way Debian users install it. Builds the packages
# from a clean copy of the source tree, checks them with lintian, installs
# them into this system with apt-get, checks that clinfo -l through the
# system's ICD loader lists refcl beside every driver listed before and that
# a program built against the installed <CL/cl_ext_refcl.h> runs on it, then
# purges them and checks that nothing of refcl is left.
# Usage: deb.sh SOURCE_DIR [C_COMPILER]
set -euo pipefail
src=$1 cc=${2:-cc}
skip() { echo "skipped: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
trap 'echo "FAIL: deb.sh:$LINENO: $BASH_COMMAND"' ERR
step() { echo "== $(date +%T) $*"; }

command -v dpkg-buildpackage >/dev/null || skip "dpkg-buildpackage is not installed"
[ "$(id -u)" -eq 0 ] || skip "installing packages into the system needs root"
libdir=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)
vendors=/etc/OpenCL/vendors
packages=(refcl-opencl-icd refcl-dev refcl-tools refcl-opencl-compiler)

# Someone's installed refcl, packaged or not, is theirs: the purge at the
# end would take it away.
ours=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'refcl*' 2>/dev/null |
    awk 'substr($1, 2, 1) != "n" {print $2}' || true)
[ -z "$ours" ] || skip "refcl is installed already (packages: $(echo $ours)); remove it to run this test"
for f in "$vendors/refcl.icd" "$libdir"/librefcl* /usr/include/CL/cl_ext_refcl.h; do
    [ ! -e "$f" ] || skip "$f exists (cmake --install?); remove it to run this test"
done

# The system's loader, reading /etc/OpenCL/vendors, and refcl's defaults,
# as a user has them: not the build tree's .icd the other tests point at.
unset OCL_ICD_VENDORS OCL_ICD_FILENAMES $(compgen -e | grep '^REFCL_' || true)
export DEBIAN_FRONTEND=noninteractive
# Others may use apt on this machine too: wait for the lock.
apt=(apt-get -q -y -o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0)

tmp=$(mktemp -d)
installing=0
cleanup() {
    local status=$?
    if [ $installing = 1 ]; then
        step "cleanup after a failure: purging ${packages[*]}"
        "${apt[@]}" purge "${packages[@]}" || echo "FAIL: could not purge ${packages[*]}"
    fi
    rm -rf "$tmp"
    exit $status
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP   # a timeout's kill still purges

step "copying a clean source tree"
mkdir "$tmp/refcl"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    # What git would commit: tracked and new files, no build trees.
    git -C "$src" ls-files -z --cached --others --exclude-standard |
        tar -C "$src" --null -T - --ignore-failed-read -c | tar -x -C "$tmp/refcl"
else
    tar -C "$src" --exclude=./.git --exclude=./build --exclude='./build-*' \
        --exclude='./obj-*' -c . | tar -x -C "$tmp/refcl"
fi

# Without refcl's test suite (nocheck): it runs elsewhere, and this test
# must not build packages from inside a package build.
step "dpkg-buildpackage -us -uc -b"
if ! (cd "$tmp/refcl" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
        DEB_BUILD_PROFILES=nocheck dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1; then
    tail -40 "$tmp/build.log"
    fail "dpkg-buildpackage failed"
fi
debs=()
for p in "${packages[@]}"; do
    deb=$(ls "$tmp/${p}_"*.deb) || fail "no $p package built"
    debs+=("$deb")
    echo "$(basename "$deb"), its files:"
    dpkg-deb -c "$deb" | grep -v '^d' || true
done

# hwloc is opened by its soname at run time, which dpkg-shlibdeps cannot
# see: debian/rules adds the dependency.
fields=$(dpkg-deb -f "${debs[0]}" Depends Provides)
grep -q '^Depends: .*libhwloc' <<<"$fields" || fail "refcl-opencl-icd does not depend on hwloc: $fields"
grep -q '^Provides: .*opencl-icd' <<<"$fields" || fail "refcl-opencl-icd does not provide opencl-icd: $fields"
echo "$fields"
fields=$(dpkg-deb -f "${debs[3]}" Depends)
grep -q '\bclang-15\b' <<<"$fields" && grep -q 'llvm-15' <<<"$fields" ||
    fail "refcl-opencl-compiler does not depend on clang-15 and llvm-15: $fields"
grep -q 'refcl-opencl-compiler' <<<"$(dpkg-deb -f "${debs[0]}" Recommends)" ||
    fail "refcl-opencl-icd does not recommend refcl-opencl-compiler"

step "lintian"
lint=0
lintian --fail-on error,warning --display-info "${debs[@]}" >"$tmp/lintian.log" 2>&1 || lint=$?
grep -v '^running with root privileges' "$tmp/lintian.log" || true
[ $lint = 0 ] || fail "lintian reports errors or warnings (exit status $lint)"

before=$(clinfo -l 2>&1) || fail "clinfo -l fails before installing refcl: $before"
vendors_before=$([ -d "$vendors" ] && echo present || echo absent)
step "apt-get install ${debs[*]##*/}"
installing=1
"${apt[@]}" install --no-install-recommends "${debs[@]}"

step "checking the installed packages"
icd=$(cat "$vendors/refcl.icd")
[ "$icd" = librefcl.so.1 ] || fail "$vendors/refcl.icd names '$icd', not the soname librefcl.so.1"
[ -e "$libdir/librefcl.so.1" ] || fail "no $libdir/librefcl.so.1"
# (Outputs are read whole: grep -q closing a pipe early fails it under pipefail.)
grep -q 'librefcl\.so\.1 ' <<<"$(ldconfig -p)" || fail "librefcl.so.1 is not in ld.so.cache"
after=$(clinfo -l 2>&1) || fail "clinfo -l fails: $after"
echo "$after"
grep -qx 'Platform #[0-9]*: refcl' <<<"$after" || fail "clinfo -l does not list refcl"
while read -r platform; do
    grep -qxF "$platform" <<<"$(sed 's/^Platform #[0-9]*: //' <<<"$after")" ||
        fail "clinfo -l no longer lists $platform"
done < <(sed -n 's/^Platform #[0-9]*: //p' <<<"$before")
"$cc" -std=c11 -Wall -Wextra -Werror -o "$tmp/smoke" "$(dirname "$0")/smoke.c" -lOpenCL ||
    fail "a program using the installed <CL/cl_ext_refcl.h> does not build"
"$tmp/smoke" || fail "the program fails on the installed refcl"
grep -q '/tracing\.md' <<<"$(dpkg -L refcl-tools)" || fail "refcl-tools lacks docs/tracing.md"
# The compiler's parts where librefcl looks for them; the full profile once
# both are there (the builtin library alone is not a compiler).
[ -s "$libdir/refcl/refcl-builtins.bc" ] || fail "refcl-opencl-compiler lacks $libdir/refcl/refcl-builtins.bc"
info=$(OCL_ICD_VENDORS="$vendors/refcl.icd" clinfo 2>&1) || fail "clinfo fails on refcl alone: $info"
profile=$(sed -n '/^ *Platform Profile/{s/^ *Platform Profile *//p;q}' <<<"$info")
if [ -e "$libdir/refcl/librefcl-workgroup.so" ]; then
    [ "$profile" = FULL_PROFILE ] || fail "refcl reports '$profile' with the compiler installed"
else
    [ "$profile" = EMBEDDED_PROFILE ] || fail "refcl reports '$profile' without the pass plugin"
fi
# refcl-loader-check finds the installed refcl by itself and checks the
# system's loader with it.
checked=$(refcl-loader-check --only single/platforms 2>&1) ||
    fail "refcl-loader-check fails on the installed refcl: $checked"
grep -qxE '[0-9]+ passed, 0 failed \(seed [0-9]+\)' <<<"$checked" || fail "refcl-loader-check: $checked"
[ -e /usr/share/man/man1/refcl-loader-check.1.gz ] || fail "refcl-tools lacks the man page"

step "apt-get purge ${packages[*]}"
"${apt[@]}" purge "${packages[@]}"
installing=0

step "checking that nothing of refcl is left"
left=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' 'refcl*' 2>/dev/null |
    awk 'substr($1, 2, 1) != "n"' || true)
[ -z "$left" ] || fail "packages left: $left"
if owned=$(dpkg -S refcl 2>/dev/null); then fail "dpkg still knows: $owned"; fi
left=$(find "$vendors" "$libdir" /usr/include/CL /usr/share/doc -maxdepth 1 -name '*refcl*' 2>/dev/null || true)
[ -z "$left" ] || fail "files left: $left"
if [ $vendors_before = absent ] && [ -d "$vendors" ] && [ -z "$(ls -A "$vendors")" ]; then
    fail "$vendors is left behind, empty"
fi
if grep librefcl <<<"$(ldconfig -p)"; then fail "librefcl is still in ld.so.cache"; fi
now=$(clinfo -l 2>&1) || true
[ "$now" = "$before" ] || fail "clinfo -l lists other platforms than before:
$now"
echo "built, linted, installed, listed, run and purged cleanly"
