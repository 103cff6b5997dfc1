; SPDX-License-Identifier: Apache-2.0
; refcl-jam-items: a work-group function's work-item loop (parallel
; accesses) whose work-item runs a loop of its own steps by W work-items,
; each varying instruction repeated for lanes 1 .. W-1 right after the
; one before (x86-64-v3: 256-bit registers of 8 i32, one value carried round
; the inner loop, so 8 registers of work-items: W = 64),
; the work-items left over in copies of the loop stepping by halves of W
; down to a register of them, then one; a private array gets a copy per
; lane. An inner loop whose exit test is each work-item's own
; runs until every lane has left it, a lane that has keeping the values it
; left with; where a test before it lets a work-item skip it, and it
; computes nothing that may fault, every work-item enters it. Refused,
; with the reason: such a loop that stores, a guard before one that
; loads, a branch on a work-item's own value inside the body, and a
; function that is not a work-group function.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-jam-items \
; RUN:   -pass-remarks-analysis=refcl-jam-items -S %s 2>%t.remarks | FileCheck %s
; RUN: FileCheck --check-prefix=REMARK %s < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; REMARK: remark: <unknown>:0:0: kernel powers: work-items run 64 at a time
; REMARK: remark: <unknown>:0:0: kernel divergent: work-items run 16 at a time, 1 inner loop(s) until the last of them is done
; REMARK: remark: <unknown>:0:0: kernel divergent_store: work-items run one at a time: a loop whose exit test is the work-item's own writes memory
; REMARK: remark: <unknown>:0:0: kernel divergent_if: work-items run one at a time: a branch on a value of the work-item's own
; REMARK: remark: <unknown>:0:0: kernel guarded: work-items run 16 at a time, 1 inner loop(s) until the last of them is done
; REMARK: remark: <unknown>:0:0: kernel guarded_load: work-items run one at a time: a branch on a value of the work-item's own

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
; The rest of the work-items (fewer than 64), 32, 16 and 8 at a time,
; down to a register of them, then one at a time.
; CHECK: %x.epil = phi i64 [ %x.unr, %{{.*}} ], [ %x.next.epil.lane31, %x.latch.epil ]
; CHECK-NOT: %x.next.epil.lane32 =
; CHECK: %x.epil.epil = phi i64 [ %x.epil.unr, %{{.*}} ], [ %x.next.epil.epil.lane15, %x.latch.epil.epil ]
; CHECK: %x.epil.epil.epil = phi i64 [ %x.epil.epil.unr, %{{.*}} ], [ %x.next.epil.epil.epil.lane7, %x.latch.epil.epil.epil ]
; CHECK: %x.epil.epil.epil.epil = phi i64 [ %x.epil.epil.epil.unr, %{{.*}} ], [ %x.next.epil.epil.epil.epil, %x.latch.epil.epil.epil.epil ]
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

; Every lane's counter steps until its own test says leave, then keeps
; its value; the loop goes round while any lane's test says again. Two
; registers of lanes, not 8: each waits for the longest.
; CHECK-LABEL: define void @refcl.run.divergent(
; CHECK: inner:
; CHECK-NEXT: %i = phi i32 [ 0, %x.header ], [ %i.kept, %inner ]
; CHECK-NEXT: %i.lane1 = phi i32 [ 0, %x.header ], [ %i.lane1.kept, %inner ]
; CHECK: %done = icmp eq i32 %i.next, %xi
; CHECK-NEXT: %done.lane1 = icmp eq i32 %i.next.lane1, %xi.lane1
; CHECK: %again0 = xor i1 %done, true
; CHECK: %again15 = xor i1 %done.lane15, true
; CHECK-NOT: %again16 =
; CHECK-NEXT: %i.kept = select i1 %again0, i32 %i.next, i32 %i
; CHECK-NEXT: %i.lane1.kept = select i1 %again1, i32 %i.next.lane1, i32 %i.lane1
; CHECK: %again = or i1 %again0, %again1
; CHECK: %[[ANY:.*]] = or i1 %{{.*}}, %again15
; CHECK-NEXT: %[[DONE:.*]] = xor i1 %[[ANY]], true
; CHECK-NEXT: br i1 %[[DONE]], label %x.latch, label %inner
; CHECK: x.latch:
; CHECK-NEXT: %i.next.lcssa = phi i32 [ %i.next, %inner ]
; CHECK-NEXT: %i.next.lcssa.lane1 = phi i32 [ %i.next.lane1, %inner ]
; CHECK: store i32 %i.next.lcssa.lane15, ptr addrspace(1) %p.lane15
; CHECK: %x.epil = phi i64 [ %x.unr, %{{.*}} ], [ %x.next.epil.lane7, %x.latch.epil ]
; CHECK: %x.epil.epil = phi i64 [ %x.epil.unr, %{{.*}} ], [ %x.next.epil.epil, %x.latch.epil.epil ]
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

; Run again, a store would happen again: left as it is.
; CHECK-LABEL: define void @refcl.run.divergent_store(
; CHECK-NOT: lane
; CHECK: ret void
define void @refcl.run.divergent_store(ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %xi = trunc i64 %x to i32
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  br label %inner

inner:
  %i = phi i32 [ 0, %x.header ], [ %i.next, %inner ]
  %i.next = add i32 %i, 1
  store i32 %i.next, ptr addrspace(1) %p, align 4, !llvm.access.group !1
  %done = icmp eq i32 %i.next, %xi
  br i1 %done, label %x.latch, label %inner

x.latch:
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; A branch on the work-item's own value, not a loop's exit: left as it is.
; CHECK-LABEL: define void @refcl.run.divergent_if(
; CHECK-NOT: lane
; CHECK: ret void
define void @refcl.run.divergent_if(ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %xi = trunc i64 %x to i32
  br label %inner

inner:
  %i = phi i32 [ 0, %x.header ], [ %i.next, %inner.latch ]
  %odd = trunc i32 %xi to i1
  br i1 %odd, label %twice, label %inner.latch

twice:
  %i.twice = add i32 %i, 1
  br label %inner.latch

inner.latch:
  %i.step = phi i32 [ %i, %inner ], [ %i.twice, %twice ]
  %i.next = add i32 %i.step, 1
  %done = icmp eq i32 %i.next, 100
  br i1 %done, label %x.latch, label %inner

x.latch:
  %i.lcssa = phi i32 [ %i.next, %inner.latch ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %i.lcssa, ptr addrspace(1) %p, align 4, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; A work-item whose guard says skip runs one iteration and leaves, with
; the value it skipped with.
; CHECK-LABEL: define void @refcl.run.guarded(
; CHECK: x.header:
; CHECK: %skip = icmp eq i32 %xi, 1
; CHECK-NEXT: %skip.lane1 = icmp eq i32 %xi.lane1, 1
; CHECK: %enters = xor i1 %skip, true
; CHECK-NEXT: %enters.lane1 = xor i1 %skip.lane1, true
; CHECK: br label %inner.preheader
; CHECK: inner:
; CHECK: %skipped = xor i1 %enters, true
; CHECK-NEXT: %skipped.lane1 = xor i1 %enters.lane1, true
; CHECK: %leaves = or i1 %done, %skipped
; CHECK-NEXT: %leaves.lane1 = or i1 %done.lane1, %skipped.lane1
; CHECK: %again0 = xor i1 %leaves, true
; CHECK: x.latch.loopexit:
; CHECK: %steps.entered = select i1 %enters, i32 %i.next.lcssa, i32 0
; CHECK-NEXT: %steps.entered.lane1 = select i1 %enters.lane1, i32 %i.next.lcssa.lane1, i32 0
; CHECK: x.latch:
; CHECK-NEXT: %steps = phi i32 [ %steps.entered, %x.latch.loopexit ]
; CHECK: %x.epil = phi i64 [ %x.unr, %{{.*}} ], [ %x.next.epil.lane7, %x.latch.epil ]
; CHECK: %x.epil.epil = phi i64 [ %x.epil.unr, %{{.*}} ], [ %x.next.epil.epil, %x.latch.epil.epil ]
; CHECK-NOT: lane
; CHECK: ret void
define void @refcl.run.guarded(ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %xi = trunc i64 %x to i32
  %skip = icmp eq i32 %xi, 1
  br i1 %skip, label %x.latch, label %inner

inner:
  %c = phi i32 [ %xi, %x.header ], [ %c.next, %inner ]
  %i = phi i32 [ 0, %x.header ], [ %i.next, %inner ]
  %half = lshr i32 %c, 1
  %triple = mul i32 %c, 3
  %odd = add i32 %triple, 1
  %bit = and i32 %c, 1
  %even = icmp eq i32 %bit, 0
  %c.next = select i1 %even, i32 %half, i32 %odd
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %c.next, 1
  br i1 %done, label %x.latch, label %inner

x.latch:
  %steps = phi i32 [ 0, %x.header ], [ %i.next, %inner ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %steps, ptr addrspace(1) %p, align 4, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; Entered by a work-item whose guard said skip, a load might read out of
; bounds: left as it is.
; CHECK-LABEL: define void @refcl.run.guarded_load(
; CHECK-NOT: lane
; CHECK: ret void
define void @refcl.run.guarded_load(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %xi = trunc i64 %x to i32
  %skip = icmp eq i32 %xi, 0
  br i1 %skip, label %x.latch, label %inner

inner:
  %k = phi i32 [ 0, %x.header ], [ %k.next, %inner ]
  %acc = phi i32 [ 0, %x.header ], [ %acc.next, %inner ]
  %q = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %k
  %v = load i32, ptr addrspace(1) %q, align 4
  %acc.next = add i32 %acc, %v
  %k.next = add i32 %k, 1
  %done = icmp eq i32 %k.next, %xi
  br i1 %done, label %x.latch, label %inner

x.latch:
  %sum = phi i32 [ 0, %x.header ], [ %acc.next, %inner ]
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %sum, ptr addrspace(1) %p, align 4, !llvm.access.group !1
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
