; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup's printf: a call whose format is a string literal becomes
; a record in the printf buffer, the format's address in it. A literal is
; a constant global, or any global of the __constant address space (as
; llvm-spirv reads SPIR-V's strings back: not marked constant); a format
; in a writable global is not one, and the call returns -1 there.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@spirv = internal addrspace(2) global [8 x i8] c"d = %d\0A\00"
@mutable = internal addrspace(1) global [8 x i8] c"d = %d\0A\00"

define spir_kernel void @k(i32 %v) {
  %1 = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @spirv, i32 %v)
  %2 = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) addrspacecast (ptr addrspace(1) @mutable to ptr addrspace(2)), i32 %v)
  ret void
}

declare i32 @printf(ptr addrspace(2), ...)

; CHECK-LABEL: define internal void @refcl.run.k(
; CHECK: store i64 ptrtoint (ptr addrspace(2) @spirv to i64)
; CHECK-NOT: ptrtoint ({{.*}}@mutable
; CHECK: phi i32 [ -1, %body ], [ 0, %printf.write ]
; CHECK-NOT: printf.reserve
; CHECK: ret void
