; SPDX-License-Identifier: Apache-2.0
; refcl-prefetch-strides: a load of a work-group function's innermost loop
; whose address steps by a stride not known when the kernel is built, or by
; a page (4096 bytes) or more, is preceded, at the top of the loop, by a
; prefetch of the address it reads some iterations later: as many as
; 1024 instructions of the loop take, at most 8. One per line: a load
; within 64 bytes of one prefetched is not. Loads stepping by less than a
; page, and functions other than work-group functions, are left alone.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-prefetch-strides -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; A column of a matrix of %n floats a row: 4 * %n bytes an iteration. The
; loop is short: 8 iterations ahead, 32 * %n bytes. The second load is
; 16 bytes from the first, in its line; the third steps by 4 bytes.
; CHECK-LABEL: define void @refcl.run.column(
; CHECK: [[AHEAD:%.*]] = shl i64 %n, 5
; CHECK-NEXT: [[STRIDE:%.*]] = shl i64 %n, 2
; CHECK: loop:
; CHECK: [[AT:%.*]] = mul i64 [[STRIDE]], %k
; CHECK-NEXT: [[OFFSET:%.*]] = add i64 [[AHEAD]], [[AT]]
; CHECK-NEXT: [[P:%.*]] = getelementptr i8, ptr addrspace(1) %a, i64 [[OFFSET]]
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) [[P]], i32 0, i32 3, i32 1)
; CHECK-NEXT: %row = mul
; CHECK-NOT: @llvm.prefetch
; CHECK: ret void
define void @refcl.run.column(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %out,
                              i64 %n) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %row = mul i64 %k, %n
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %row
  %x = load float, ptr addrspace(1) %pa, align 4
  %pa4 = getelementptr inbounds float, ptr addrspace(1) %pa, i64 4
  %y = load float, ptr addrspace(1) %pa4, align 4
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %k
  %z = load float, ptr addrspace(1) %pb, align 4
  %xy = fmul float %x, %y
  %acc.next = call float @llvm.fmuladd.f32(float %xy, float %z, float %acc)
  %k.next = add nuw i64 %k, 1
  %done = icmp eq i64 %k.next, 1000
  br i1 %done, label %exit, label %loop

exit:
  store float %acc, ptr addrspace(1) %out, align 4
  ret void
}

; A constant stride of 8192 bytes: 8 iterations ahead are 65536 bytes.
; CHECK-LABEL: define void @refcl.run.pages(
; CHECK: loop:
; CHECK: [[AT:%.*]] = shl nuw nsw i64 %k, 13
; CHECK-NEXT: [[OFFSET:%.*]] = add i64 [[AT]], 65536
; CHECK-NEXT: [[P:%.*]] = getelementptr i8, ptr addrspace(1) %a, i64 [[OFFSET]]
; CHECK-NEXT: call void @llvm.prefetch.p1(ptr addrspace(1) [[P]], i32 0, i32 3, i32 1)
; CHECK: ret void
define void @refcl.run.pages(ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %row = mul i64 %k, 2048
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %row
  %x = load float, ptr addrspace(1) %pa, align 4
  %acc.next = fadd float %acc, %x
  %k.next = add nuw i64 %k, 1
  %done = icmp eq i64 %k.next, 1000
  br i1 %done, label %exit, label %loop

exit:
  store float %acc, ptr addrspace(1) %out, align 4
  ret void
}

; Less than a page an iteration (2048 bytes), and a function that is not a
; work-group function: no prefetch.
; CHECK-LABEL: define void @refcl.run.short(
; CHECK-NOT: @llvm.prefetch
; CHECK: ret void
define void @refcl.run.short(ptr addrspace(1) %a, ptr addrspace(1) %out) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %row = mul i64 %k, 512
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %row
  %x = load float, ptr addrspace(1) %pa, align 4
  %acc.next = fadd float %acc, %x
  %k.next = add nuw i64 %k, 1
  %done = icmp eq i64 %k.next, 1000
  br i1 %done, label %exit, label %loop

exit:
  store float %acc, ptr addrspace(1) %out, align 4
  ret void
}

; CHECK-LABEL: define void @helper(
; CHECK-NOT: @llvm.prefetch
; CHECK: ret void
define void @helper(ptr addrspace(1) %a, ptr addrspace(1) %out, i64 %n) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %row = mul i64 %k, %n
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %row
  %x = load float, ptr addrspace(1) %pa, align 4
  %acc.next = fadd float %acc, %x
  %k.next = add nuw i64 %k, 1
  %done = icmp eq i64 %k.next, 1000
  br i1 %done, label %exit, label %loop

exit:
  store float %acc, ptr addrspace(1) %out, align 4
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)
