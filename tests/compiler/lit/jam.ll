; SPDX-License-Identifier: Apache-2.0
; refcl-jam-items: a work-group function's work-item loop (parallel
; accesses) whose work-item runs a loop of its own steps by W work-items,
; each varying instruction repeated for lanes 1 .. W-1 right after the
; one before (x86-64-v3: 256-bit registers of 8 i32, one value carried round
; the inner loop, so 8 registers of work-items: W = 64),
; the work-items left over in a copy of the loop; a private array gets a
; copy per lane. Refused, with the reason: a branch on a work-item's own
; value inside it, and a function that is not a work-group function.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-jam-items \
; RUN:   -pass-remarks-analysis=refcl-jam-items -S %s 2>%t.remarks | FileCheck %s
; RUN: FileCheck --check-prefix=REMARK %s < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; REMARK: remark: <unknown>:0:0: kernel powers: work-items run 64 at a time
; REMARK: remark: <unknown>:0:0: kernel divergent: work-items run one at a time: a branch on a value of the work-item's own

; CHECK-LABEL: define void @refcl.run.powers(
; CHECK: %t.lane1 = alloca [4 x i32]
; CHECK: %t.lane63 = alloca [4 x i32]
; CHECK-NOT: %t.lane64
; CHECK: %x = phi i64 [ 0, %{{.*}} ], [ %x.next.lane63, %{{.*}} ]
; CHECK: %x.lane1 = add i64 %x, 1
; CHECK: %x.lane63 = add i64 %x, 63
; CHECK: %slot.lane1 = getelementptr inbounds [4 x i32], ptr %t.lane1, i64 0, i64 %xmod.lane1
; CHECK: inner:
; CHECK: %acc = phi i32
; CHECK-NEXT: %acc.lane1 = phi i32 [ %xi.lane1, %{{.*}} ], [ %acc.next.lane1, %inner ]
; CHECK: %acc.next = mul i32 %acc, 3
; CHECK-NEXT: %acc.next.lane1 = mul i32 %acc.lane1, 3
; CHECK: %i.next = add i32 %i, 1
; CHECK-NOT: %i.next.lane1
; CHECK: store i32 %acc.lcssa.lane63, ptr addrspace(1) %p.lane63
; CHECK: %x.next.lane63 = add nuw i64 %x.lane63, 1
; The rest of the work-items, one at a time.
; CHECK: epil:
; CHECK-NOT: lane
; CHECK: ret void
define void @refcl.run.powers(ptr addrspace(1) %out, i64 %n) #0 {
entry:
  %t = alloca [4 x i32], align 4
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %xi = trunc i64 %x to i32
  %xmod = and i64 %x, 3
  %slot = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 %xmod
  store i32 %xi, ptr %slot, align 4, !llvm.access.group !1
  br label %inner

inner:
  %i = phi i32 [ 0, %x.header ], [ %i.next, %inner ]
  %acc = phi i32 [ %xi, %x.header ], [ %acc.next, %inner ]
  %acc.next = mul i32 %acc, 3
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 100
  br i1 %done, label %x.latch, label %inner

x.latch:
  %acc.lcssa = phi i32 [ %acc.next, %inner ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %acc.lcssa, ptr addrspace(1) %p, align 4, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; CHECK-LABEL: define void @refcl.run.divergent(
; CHECK-NOT: lane
; CHECK: ret void
define void @refcl.run.divergent(ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %xi = trunc i64 %x to i32
  br label %inner

inner:
  %i = phi i32 [ 0, %x.header ], [ %i.next, %inner ]
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %xi
  br i1 %done, label %x.latch, label %inner

x.latch:
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %i.next, ptr addrspace(1) %p, align 4, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; Not a work-group function: left as it is.
; CHECK-LABEL: define void @other(
; CHECK-NOT: lane
; CHECK: ret void
define void @other(ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  br label %inner

inner:
  %i = phi i32 [ 0, %x.header ], [ %i.next, %inner ]
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 100
  br i1 %done, label %x.latch, label %inner

x.latch:
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %i.next, ptr addrspace(1) %p, align 4, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

attributes #0 = { "target-cpu"="x86-64-v3" }

!1 = distinct !{}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.parallel_accesses", !1}
