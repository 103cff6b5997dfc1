#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# platform/bad-config: a bad configuration value is a clear message on
# stderr and the default, never a crash.
set -u
probe=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$(REFCL_PLATFORMS=banana REFCL_ICD_VERSION=3 REFCL_FAULT=sometimes \
      REFCL_BIND=yes REFCL_PLATFORM_NAME=$(printf 'x%.0s' {1..80}) "$probe" 2>&1)
echo "$out"
grep -q '^refcl: ignoring REFCL_PLATFORMS="banana": expected a number from 1 to 16; using 1$' <<<"$out" || fail "REFCL_PLATFORMS"
grep -q '^refcl: ignoring REFCL_ICD_VERSION="3": expected 1 or 2; using 2$' <<<"$out" || fail "REFCL_ICD_VERSION"
grep -q '^refcl: ignoring REFCL_FAULT="sometimes": expected none, ' <<<"$out" || fail "REFCL_FAULT"
grep -q '^refcl: ignoring REFCL_BIND="yes": expected 0 or 1; using 1$' <<<"$out" || fail "REFCL_BIND"
grep -q '^refcl: ignoring REFCL_PLATFORM_NAME=.*items shorter than 64 characters' <<<"$out" || fail "REFCL_PLATFORM_NAME"
grep -q '^platforms=1 name=refcl devices=1 ' <<<"$out" || fail "defaults not used"
out=$(REFCL_PLATFORMS=0 "$probe" 2>&1); grep -q 'REFCL_PLATFORMS="0"' <<<"$out" || fail "0 platforms accepted"
out=$(REFCL_PLATFORMS=17 "$probe" 2>&1); grep -q 'REFCL_PLATFORMS="17"' <<<"$out" || fail "17 platforms accepted"
out=$(REFCL_INSTANCES=/nonexistent/instances.conf REFCL_PLATFORMS=2 "$probe" 2>&1)
grep -q '^refcl: ignoring REFCL_INSTANCES="/nonexistent/instances.conf": expected a readable file' <<<"$out" || fail "REFCL_INSTANCES unreadable"
grep -q '^platforms=2 ' <<<"$out" || fail "the environment not used without the instances file"
instances=$(mktemp); trap 'rm -f "$instances"' EXIT
lib=$(sed -n 1p "${OCL_ICD_VENDORS:?}"); lib=${lib##*/}
printf '[%s]
REFCL_BANANA=1
REFCL_PLATFORMS=3
' "$lib" > "$instances"
out=$(REFCL_INSTANCES=$instances "$probe" 2>&1)
grep -q '^refcl: the line refcl ignored: REFCL_BANANA=1$' <<<"$out" || fail "a bad line in REFCL_INSTANCES"
grep -q '^platforms=3 ' <<<"$out" || fail "the good lines of REFCL_INSTANCES not used"
echo "bad values reported, defaults used"
