; SPDX-License-Identifier: Apache-2.0
; refcl-half-casts: fptrunc double to half becomes a rounding to float to
; odd (toward zero, then the last bit set where inexact) and fptrunc float
; to half, scalars and vectors; other conversions stay as they are.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-half-casts -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define half @scalar(double %d)
; CHECK-NEXT: [[F:%.*]] = fptrunc double %d to float
; CHECK-NEXT: [[BACK:%.*]] = fpext float [[F]] to double
; CHECK-NEXT: [[ABS:%.*]] = call double @llvm.fabs.f64(double [[BACK]])
; CHECK-NEXT: [[ABSD:%.*]] = call double @llvm.fabs.f64(double %d)
; CHECK-NEXT: [[AWAY:%.*]] = fcmp ogt double [[ABS]], [[ABSD]]
; CHECK-NEXT: [[INEXACT:%.*]] = fcmp une double [[BACK]], %d
; CHECK-NEXT: [[BITS:%.*]] = bitcast float [[F]] to i32
; CHECK-NEXT: [[STEP:%.*]] = zext i1 [[AWAY]] to i32
; CHECK-NEXT: [[TRUNC:%.*]] = sub i32 [[BITS]], [[STEP]]
; CHECK-NEXT: [[ODD:%.*]] = zext i1 [[INEXACT]] to i32
; CHECK-NEXT: [[ROUNDED:%.*]] = or i32 [[TRUNC]], [[ODD]]
; CHECK-NEXT: [[FLOAT:%.*]] = bitcast i32 [[ROUNDED]] to float
; CHECK-NEXT: %h = fptrunc float [[FLOAT]] to half
; CHECK-NEXT: ret half %h
define half @scalar(double %d) {
  %h = fptrunc double %d to half
  ret half %h
}

; CHECK-LABEL: define <4 x half> @vector(<4 x double> %d)
; CHECK: fptrunc <4 x double> %d to <4 x float>
; CHECK: or <4 x i32>
; CHECK: %h = fptrunc <4 x float> {{%.*}} to <4 x half>
; CHECK-NOT: fptrunc <4 x double> {{.*}} to <4 x half>
define <4 x half> @vector(<4 x double> %d) {
  %h = fptrunc <4 x double> %d to <4 x half>
  ret <4 x half> %h
}

; Float to half and double to float are single roundings already.
; CHECK-LABEL: define half @others(float %f, double %d)
; CHECK-NEXT: %h = fptrunc float %f to half
; CHECK-NEXT: %g = fptrunc double %d to float
define half @others(float %f, double %d) {
  %h = fptrunc float %f to half
  %g = fptrunc double %d to float
  ret half %h
}
