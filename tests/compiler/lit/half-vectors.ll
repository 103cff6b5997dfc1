; SPDX-License-Identifier: Apache-2.0
; refcl-half-vectors: a vector fcmp, fneg or rounding, fabs, min or max
; intrinsic on half (which LLVM 15's x86 back end splits into lanes or
; cannot select) becomes the float operation on the extended halves, the
; result truncated back; fneg flips the sign bits. Scalars and float
; vectors stay as they are.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-half-vectors -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define <8 x i1> @compare(<8 x half> %a, <8 x half> %b)
; CHECK-NEXT: [[A:%.*]] = fpext <8 x half> %a to <8 x float>
; CHECK-NEXT: [[B:%.*]] = fpext <8 x half> %b to <8 x float>
; CHECK-NEXT: %c = fcmp olt <8 x float> [[A]], [[B]]
; CHECK-NEXT: ret <8 x i1> %c
define <8 x i1> @compare(<8 x half> %a, <8 x half> %b) {
  %c = fcmp olt <8 x half> %a, %b
  ret <8 x i1> %c
}

; CHECK-LABEL: define <4 x half> @negate(<4 x half> %a)
; CHECK-NEXT: [[BITS:%.*]] = bitcast <4 x half> %a to <4 x i16>
; CHECK-NEXT: [[FLIPPED:%.*]] = xor <4 x i16> [[BITS]], <i16 -32768, i16 -32768, i16 -32768, i16 -32768>
; CHECK-NEXT: %n = bitcast <4 x i16> [[FLIPPED]] to <4 x half>
define <4 x half> @negate(<4 x half> %a) {
  %n = fneg <4 x half> %a
  ret <4 x half> %n
}

; CHECK-LABEL: define <16 x half> @rounding(<16 x half> %a, <16 x half> %b)
; CHECK-NEXT: [[A:%.*]] = fpext <16 x half> %a to <16 x float>
; CHECK-NEXT: [[F:%.*]] = call <16 x float> @llvm.floor.v16f32(<16 x float> [[A]])
; CHECK-NEXT: %f = fptrunc <16 x float> [[F]] to <16 x half>
; CHECK: call <16 x float> @llvm.maxnum.v16f32
; CHECK: %m = fptrunc <16 x float> {{%.*}} to <16 x half>
define <16 x half> @rounding(<16 x half> %a, <16 x half> %b) {
  %f = call <16 x half> @llvm.floor.v16f16(<16 x half> %a)
  %m = call <16 x half> @llvm.maxnum.v16f16(<16 x half> %f, <16 x half> %b)
  ret <16 x half> %m
}

; Scalars, float vectors and half arithmetic (which the back end widens
; whole) are left as they are.
; CHECK-LABEL: define <8 x half> @others(half %s, half %t, <8 x float> %v, <8 x half> %h)
; CHECK-NEXT: %c = fcmp olt half %s, %t
; CHECK-NEXT: %n = fneg <8 x float> %v
; CHECK-NEXT: %p = fmul <8 x half> %h, %h
define <8 x half> @others(half %s, half %t, <8 x float> %v, <8 x half> %h) {
  %c = fcmp olt half %s, %t
  %n = fneg <8 x float> %v
  %p = fmul <8 x half> %h, %h
  ret <8 x half> %p
}

declare <16 x half> @llvm.floor.v16f16(<16 x half>)
declare <16 x half> @llvm.maxnum.v16f16(<16 x half>, <16 x half>)
