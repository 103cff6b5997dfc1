; SPDX-License-Identifier: Apache-2.0
; refcl-guard-division: an integer division or remainder whose divisor may
; be 0 (or, signed, -1 with the most negative dividend) divides by 1 in
; those lanes instead (OpenCL C: an unspecified value, never a trap);
; a constant divisor safe in every lane is left as it is.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-guard-division -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @signed_maybe_zero(i32 %a, i32 %b)
; CHECK-DAG: [[ZERO:%.*]] = icmp eq i32 %b, 0
; CHECK-DAG: [[MINUS_ONE:%.*]] = icmp eq i32 %b, -1
; CHECK-DAG: [[MIN:%.*]] = icmp eq i32 %a, -2147483648
; CHECK: [[OVERFLOW:%.*]] = and i1 [[MINUS_ONE]], [[MIN]]
; CHECK-NEXT: [[BAD:%.*]] = or i1 [[ZERO]], [[OVERFLOW]]
; CHECK-NEXT: [[DIVISOR:%.*]] = select i1 [[BAD]], i32 1, i32 %b
; CHECK-NEXT: %q = sdiv i32 %a, [[DIVISOR]]
; CHECK-NEXT: ret i32 %q
define i32 @signed_maybe_zero(i32 %a, i32 %b) {
  %q = sdiv i32 %a, %b
  ret i32 %q
}

; Unsigned: only 0 is guarded.
; CHECK-LABEL: define i64 @unsigned_remainder(i64 %a, i64 %b)
; CHECK-NEXT: [[ZERO:%.*]] = icmp eq i64 %b, 0
; CHECK-NEXT: [[DIVISOR:%.*]] = select i1 [[ZERO]], i64 1, i64 %b
; CHECK-NEXT: %r = urem i64 %a, [[DIVISOR]]
define i64 @unsigned_remainder(i64 %a, i64 %b) {
  %r = urem i64 %a, %b
  ret i64 %r
}

; A constant -1 is INT_MIN / -1's divisor: guarded when signed.
; CHECK-LABEL: define i16 @signed_by_minus_one(i16 %a)
; CHECK-NEXT: [[MIN:%.*]] = icmp eq i16 %a, -32768
; CHECK-NEXT: [[OVERFLOW:%.*]] = and i1 true, [[MIN]]
; CHECK-NEXT: [[BAD:%.*]] = or i1 false, [[OVERFLOW]]
; CHECK-NEXT: [[DIVISOR:%.*]] = select i1 [[BAD]], i16 1, i16 -1
; CHECK-NEXT: %r = srem i16 %a, [[DIVISOR]]
define i16 @signed_by_minus_one(i16 %a) {
  %r = srem i16 %a, -1
  ret i16 %r
}

; Safe constants: 3 signed, -1 unsigned.
; CHECK-LABEL: define i32 @safe_constants(i32 %a)
; CHECK-NEXT: %q = sdiv i32 %a, 3
; CHECK-NEXT: %u = udiv i32 %q, -1
; CHECK-NEXT: ret i32 %u
define i32 @safe_constants(i32 %a) {
  %q = sdiv i32 %a, 3
  %u = udiv i32 %q, -1
  ret i32 %u
}

; A vector divisor with one zero lane is guarded (the guard folds to a
; constant: 1 in that lane); one safe in every lane is not.
; CHECK-LABEL: define <2 x i32> @vectors(<2 x i32> %a)
; CHECK-NEXT: %q = udiv <2 x i32> %a, <i32 1, i32 1>
; CHECK-NEXT: %r = srem <2 x i32> %q, <i32 2, i32 -3>
define <2 x i32> @vectors(<2 x i32> %a) {
  %q = udiv <2 x i32> %a, <i32 1, i32 0>
  %r = srem <2 x i32> %q, <i32 2, i32 -3>
  ret <2 x i32> %r
}
