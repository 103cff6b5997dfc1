#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# loadercheck/cli: refcl-loader-check as a CI job uses it, through the
# system's ocl-icd (behind the forwarding loader, for a check that hangs):
# it finds refcl's library beside itself; --only takes names and globs, a
# pattern matching nothing exits 2, a filtered run prints only its rows;
# JUnit has times and the seed; --keep's message comes after the report;
# SIGINT and SIGTERM leave no temporary file behind.
# usage: cli.sh <refcl-loader-check> <faulty loader> <system loader>
set -u
checker=$1 shim=$2 loader=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export TMPDIR=$work/tmp; mkdir "$TMPDIR"
status=0
fail() { echo "FAIL $*"; status=1; }
ok() { echo "ok   $*"; }

# A pattern that matches nothing is an error, with a message.
"$checker" --loader "$loader" --only clSetKernelArgs >"$work/out" 2>&1
got=$?
[ "$got" = 2 ] || fail "--only clSetKernelArgs: exit status $got, expected 2"
[ "$(cat "$work/out")" = "refcl-loader-check: --only clSetKernelArgs matches no check (--list names them)" ] ||
    fail "--only clSetKernelArgs said: $(cat "$work/out")"
[ "$status" = 0 ] && ok "a pattern matching nothing exits 2"

# An exact entry point name selects its checks, and no other entry's.
list=$("$checker" --list --only clSetKernelArg)
[ "$(wc -l <<<"$list")" = 15 ] && ! grep -qv 'clSetKernelArg\(@[a-z]\)\?$' <<<"$list" ||
    fail "--only clSetKernelArg lists: $list"
[ "$("$checker" --list --only 'single/*/clSetKernelArg*@a' | tr '\n' ' ')" = \
  "single/route/clSetKernelArg@a single/forced/clSetKernelArg@a single/route/clSetKernelArgSVMPointer@a single/forced/clSetKernelArgSVMPointer@a " ] ||
    fail "--only 'single/*/clSetKernelArg*@a' lists other checks"
[ "$status" = 0 ] && ok "--only takes names and globs"

# No --refcl: the library beside the program. A filtered run's table has
# only its row; JUnit records each check's time and the seed.
"$checker" --loader "$loader" --only single/route/clSetKernelArg@a --seed 7 \
    --junit "$work/junit.xml" >"$work/out" 2>&1
got=$?
[ "$got" = 0 ] || { fail "a run without --refcl: exit status $got"; cat "$work/out"; }
rows=$(sed -n '/^entry point/,/^$/p' "$work/out" | sed '1d;/^$/d')
[ "$(awk '{print $1, $2, $3}' <<<"$rows")" = "clSetKernelArg 38 ok/" ] ||
    fail "the filtered table has rows: $rows"
grep -q '<property name="seed" value="7"/>' "$work/junit.xml" &&
    grep -q '<testcase classname="single/route" name="clSetKernelArg@a" time="[0-9.]*"/>' "$work/junit.xml" ||
    fail "JUnit: $(cat "$work/junit.xml")"
[ "$(tail -1 "$work/out")" = "1 passed, 0 failed (seed 7)" ] || fail "closing line: $(tail -1 "$work/out")"
[ "$status" = 0 ] && ok "library found beside the program, a filtered table, JUnit"

# --keep: the message after the report, the directory left.
"$checker" --loader "$loader" --only single/route/clFinish@a --keep >"$work/out" 2>&1
kept=$(sed -n 's/^refcl-loader-check: vendors kept in //p' "$work/out")
[ "$(tail -1 "$work/out")" = "refcl-loader-check: vendors kept in $kept" ] && [ -d "$kept/single/vendors" ] ||
    fail "--keep: $(cat "$work/out")"
rm -rf "$kept"
[ "$status" = 0 ] && ok "--keep's message after the report"

# Interrupted while a check hangs: the temporary directory and the child
# are gone, and the checker dies of the signal.
for signal in INT TERM; do
    REFCL_FAULTY_LOADER=hang "$checker" --loader "$shim" \
        --only single/route/clGetPlatformInfo@a >"$work/out" 2>&1 &
    pid=$!
    for _ in $(seq 100); do
        grep -q '^# single' "$work/out" && break
        sleep 0.1
    done
    sleep 0.2
    kill -$signal $pid
    wait $pid
    got=$?
    expected=$((128 + $(kill -l $signal)))
    [ "$got" = "$expected" ] || fail "SIG$signal: exit status $got, expected $expected"
    [ -z "$(ls -A "$TMPDIR")" ] || fail "SIG$signal left $(ls "$TMPDIR")"
    pgrep -P $pid >/dev/null && fail "SIG$signal left a child"
    grep -qx 'refcl-loader-check: interrupted; temporary files removed' "$work/out" ||
        fail "SIG$signal: $(cat "$work/out")"
    [ "$status" = 0 ] && ok "SIG$signal: temporary files removed, status $got"
done
# The status of the last command (an exit here makes valgrind see bash leak
# the command it parsed).
[ "$status" = 0 ]
