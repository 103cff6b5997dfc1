; SPDX-License-Identifier: Apache-2.0
; refcl-jam-items and a kernel's `int col = get_global_id(0)`: the 64-bit
; index made of the narrowed id, (long)col, is not provably one more from
; one work-item to the next (the id might wrap past 2^31), and the SLP
; vectorizer would gather the loads it addresses. The loop runs jammed only
; where every index it takes fits 32 bits, tested before it, and there
; work-item k's index is work-item 0's plus k; elsewhere a copy of the loop
; runs as it was, each work-item alone.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-jam-items -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; The first index, sext(trunc(base)), and the last, n - 1 steps on, both
; within [-2^31, 2^31 - 1], and at most 2^31 work-items.
; CHECK-LABEL: define void @refcl.run.narrow(
; CHECK: entry:
; CHECK: %[[LAST:.*]] = add i64 %n, -1
; CHECK-NEXT: %[[FEW:.*]] = icmp ule i64 %[[LAST]], 2147483648
; CHECK-NEXT: %[[T:.*]] = trunc i64 %base to i32
; CHECK-NEXT: %[[FIRST:.*]] = sext i32 %[[T]] to i64
; CHECK-NEXT: icmp sge i64 %[[FIRST]], -2147483648
; CHECK-NEXT: icmp sle i64 %[[FIRST]], 2147483647
; CHECK: %[[END0:.*]] = add i64 %n, %[[FIRST]]
; CHECK-NEXT: %[[END:.*]] = add i64 %[[END0]], -1
; CHECK-NEXT: icmp sge i64 %[[END]], -2147483648
; CHECK-NEXT: icmp sle i64 %[[END]], 2147483647
; CHECK: %[[FITS:.*]] = and i1 %fits, %{{.*}}
; CHECK-NEXT: br i1 %[[FITS]], label %x.header.fits, label %x.header.fits.wraps
; The copy: one work-item at a time.
; CHECK: x.header.wraps:
; CHECK: %wide.wraps = sext i32 %col.wraps to i64
; CHECK-NOT: lane
; CHECK: br i1 %x.done.wraps, label %exit, label %x.header.wraps
; CHECK: x.header:
; CHECK: %wide = sext i32 %col to i64
; CHECK-NEXT: %wide.lane1 = add nsw i64 %wide, 1
; CHECK-NEXT: %wide.lane2 = add nsw i64 %wide, 2
; CHECK: %wide.lane63 = add nsw i64 %wide, 63
; CHECK-NOT: %row.lane1
; CHECK: %i.lane1 = add i64 %row, %wide.lane1
define void @refcl.run.narrow(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %base, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %gid = add i64 %base, %x
  %col = trunc i64 %gid to i32
  %wide = sext i32 %col to i64
  br label %inner

inner:
  %k = phi i64 [ 0, %x.header ], [ %k.next, %inner ]
  %acc = phi float [ 0.0, %x.header ], [ %acc.next, %inner ]
  %row = mul i64 %k, 1024
  %i = add i64 %row, %wide
  %q = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %q, align 4
  %acc.next = fadd float %acc, %v
  %k.next = add i64 %k, 1
  %done = icmp eq i64 %k.next, 100
  br i1 %done, label %x.latch, label %inner

x.latch:
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %acc.next, ptr addrspace(1) %p, align 4, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; Two narrowed indices, the column and twice it: their tests are made in
; the order of the body, the column's first, the same from build to build
; (not in the order of the instructions' addresses).
; CHECK-LABEL: define void @refcl.run.two(
; CHECK: entry:
; CHECK: %[[C:.*]] = trunc i64 %base to i32
; CHECK-NEXT: %[[CW:.*]] = sext i32 %[[C]] to i64
; CHECK-NEXT: icmp sge i64 %[[CW]], -2147483648
; CHECK: %[[T2:.*]] = shl i32 %{{.*}}, 1
; CHECK-NEXT: %[[TW:.*]] = sext i32 %[[T2]] to i64
; CHECK-NEXT: icmp sge i64 %[[TW]], -2147483648
; CHECK: br i1 %{{.*}}, label %x.header.fits, label %x.header.fits.wraps
define void @refcl.run.two(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %base, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %gid = add i64 %base, %x
  %col = trunc i64 %gid to i32
  %wide = sext i32 %col to i64
  %twice = shl i32 %col, 1
  %twice.wide = sext i32 %twice to i64
  br label %inner

inner:
  %k = phi i64 [ 0, %x.header ], [ %k.next, %inner ]
  %acc = phi float [ 0.0, %x.header ], [ %acc.next, %inner ]
  %row = mul i64 %k, 1024
  %i = add i64 %row, %wide
  %q = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %q, align 4
  %j = add i64 %row, %twice.wide
  %r = getelementptr inbounds float, ptr addrspace(1) %in, i64 %j
  %w = load float, ptr addrspace(1) %r, align 4
  %vw = fadd float %v, %w
  %acc.next = fadd float %acc, %vw
  %k.next = add i64 %k, 1
  %done = icmp eq i64 %k.next, 100
  br i1 %done, label %x.latch, label %inner

x.latch:
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %acc.next, ptr addrspace(1) %p, align 4, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; An unsigned index, `uint col = get_global_id(0)` (an and with a mask
; once widened): within [0, 2^32 - 1].
; CHECK-LABEL: define void @refcl.run.unsigned(
; CHECK: icmp sge i64 %{{.*}}, 0
; CHECK-NEXT: icmp sle i64 %{{.*}}, 4294967295
; CHECK: %wide.lane1 = add nsw i64 %wide, 1
define void @refcl.run.unsigned(ptr addrspace(1) %out, ptr addrspace(1) %in, i64 %base, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %gid = add i64 %base, %x
  %wide = and i64 %gid, 4294967295
  br label %inner

inner:
  %k = phi i64 [ 0, %x.header ], [ %k.next, %inner ]
  %acc = phi float [ 0.0, %x.header ], [ %acc.next, %inner ]
  %row = mul i64 %k, 1024
  %i = add i64 %row, %wide
  %q = getelementptr inbounds float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %q, align 4
  %acc.next = fadd float %acc, %v
  %k.next = add i64 %k, 1
  %done = icmp eq i64 %k.next, 100
  br i1 %done, label %x.latch, label %inner

x.latch:
  %p = getelementptr inbounds float, ptr addrspace(1) %out, i64 %x
  store float %acc.next, ptr addrspace(1) %p, align 4, !llvm.access.group !1
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
