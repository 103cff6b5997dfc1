; SPDX-License-Identifier: Apache-2.0
; refcl-atomics: in a work-group function's work-item loop (parallel
; accesses), relaxed atomic additions whose old value nobody reads, to an
; address the same in every work-item, become one addition per loop, after
; it, when nothing else in the loop could tell. Refused: a loop that also
; reads the address, one with a seq_cst atomic, and any function that is
; not a work-group function.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-atomics -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @refcl.run.count(
; CHECK: x:
; CHECK-NEXT: [[SUM:%.*]] = phi i32 [ 0, %entry ], [ [[NEXT_SUM:%.*]], %x ]
; CHECK-NEXT: %lid = phi i64
; CHECK-NEXT: [[NEXT_SUM]] = add i32 [[SUM]], 1
; CHECK-NEXT: %next = add nuw i64 %lid, 1
; CHECK-NOT: atomicrmw
; CHECK: done:
; Once after the loop, if the sum is not 0.
; CHECK-NEXT: [[ANY:%.*]] = icmp ne i32 [[NEXT_SUM]], 0
; CHECK-NEXT: br i1 [[ANY]], label %[[ADD:.*]], label %[[JOIN:.*]]
; CHECK: [[ADD]]:
; CHECK-NEXT: atomicrmw add ptr addrspace(1) %counter, i32 [[NEXT_SUM]] monotonic, align 4
; CHECK-NEXT: br label %[[JOIN]]
; CHECK: ret void
define void @refcl.run.count(ptr addrspace(1) %counter, i64 %items) {
entry:
  br label %x

x:
  %lid = phi i64 [ 0, %entry ], [ %next, %x ]
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic, align 4
  %next = add nuw i64 %lid, 1
  %more = icmp ult i64 %next, %items
  br i1 %more, label %x, label %done, !llvm.loop !0

done:
  ret void
}

; The work-item reads the counter after adding to it: each addition stays.
; CHECK-LABEL: define void @refcl.run.reads(
; CHECK: x:
; CHECK-NEXT: %lid = phi i64
; CHECK-NEXT: %old = atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic, align 4
; CHECK-NEXT: %seen = load i32, ptr addrspace(1) %counter
define void @refcl.run.reads(ptr addrspace(1) %counter, ptr addrspace(1) %out, i64 %items) {
entry:
  br label %x

x:
  %lid = phi i64 [ 0, %entry ], [ %next, %x ]
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic, align 4
  %seen = load i32, ptr addrspace(1) %counter, align 4
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %lid
  store i32 %seen, ptr addrspace(1) %slot, align 4
  %next = add nuw i64 %lid, 1
  %more = icmp ult i64 %next, %items
  br i1 %more, label %x, label %done, !llvm.loop !0

done:
  ret void
}

; A sequentially consistent atomic orders the loop: nothing is combined.
; CHECK-LABEL: define void @refcl.run.ordered(
; CHECK: x:
; CHECK-NEXT: %lid = phi i64
; CHECK-NEXT: %old = atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic, align 4
; CHECK-NEXT: %flag = atomicrmw xchg ptr addrspace(1) %other, i32 1 seq_cst, align 4
define void @refcl.run.ordered(ptr addrspace(1) %counter, ptr addrspace(1) %other, i64 %items) {
entry:
  br label %x

x:
  %lid = phi i64 [ 0, %entry ], [ %next, %x ]
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic, align 4
  %flag = atomicrmw xchg ptr addrspace(1) %other, i32 1 seq_cst, align 4
  %next = add nuw i64 %lid, 1
  %more = icmp ult i64 %next, %items
  br i1 %more, label %x, label %done, !llvm.loop !0

done:
  ret void
}

; Not a work-group function: left as it is.
; CHECK-LABEL: define void @count(
; CHECK: x:
; CHECK-NEXT: %lid = phi i64
; CHECK-NEXT: %old = atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic, align 4
define void @count(ptr addrspace(1) %counter, i64 %items) {
entry:
  br label %x

x:
  %lid = phi i64 [ 0, %entry ], [ %next, %x ]
  %old = atomicrmw add ptr addrspace(1) %counter, i32 1 monotonic, align 4
  %next = add nuw i64 %lid, 1
  %more = icmp ult i64 %next, %items
  br i1 %more, label %x, label %done, !llvm.loop !0

done:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.parallel_accesses", !2}
!2 = distinct !{}
