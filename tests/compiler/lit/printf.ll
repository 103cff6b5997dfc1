; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup's printf: a call whose format is a string literal becomes
; a record in the printf buffer, the format's address in it. A literal is
; a constant global, or any global of the __constant address space (as
; llvm-spirv reads SPIR-V's strings back: not marked constant); a format
; in a writable global is not one, and the call returns -1 there. Scalar
; arguments get C's default promotions (llvm-spirv passes a float as it
; is): a float or half a double, a narrower integer an int.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@spirv = internal addrspace(2) global [8 x i8] c"d = %d\0A\00"
@mutable = internal addrspace(1) global [8 x i8] c"d = %d\0A\00"
@promote = internal addrspace(2) constant [12 x i8] c"%f %f %d %d\00"

define spir_kernel void @k(i32 %v, float %f, half %h, i16 %s, i1 %b) {
  %1 = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @spirv, i32 %v)
  %2 = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) addrspacecast (ptr addrspace(1) @mutable to ptr addrspace(2)), i32 %v)
  %3 = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @promote, float %f, half %h, i16 %s, i1 %b)
  ret void
}

declare i32 @printf(ptr addrspace(2), ...)

; CHECK-LABEL: define internal void @refcl.run.k(
; CHECK: store i64 ptrtoint (ptr addrspace(2) @spirv to i64)
; CHECK-NOT: ptrtoint ({{.*}}@mutable
; CHECK: phi i32 [ -1, %body ], [ 0, %printf.write ]
; CHECK-NOT: ptrtoint ({{.*}}@mutable
; CHECK-DAG: fpext float %{{[0-9]+}} to double
; CHECK-DAG: fpext half %{{[0-9]+}} to double
; CHECK-DAG: sext i16 %{{[0-9]+}} to i32
; CHECK-DAG: zext i1 %{{[0-9]+}} to i32
; CHECK: store i64 ptrtoint (ptr addrspace(2) @promote to i64)
; CHECK: store i64 8,
; CHECK-NEXT: getelementptr
; CHECK-NEXT: store double
; CHECK: ret void
