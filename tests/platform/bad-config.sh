#!/usr/bin/env bash
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
echo "bad values reported, defaults used"
