; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup on a kernel with a barrier: the kernel is cut at it
; into regions, each with its own loops over the work-items, one after the
; other; a varying value one region defines and another uses is kept in
; the work-item's slot of group->frames.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Each work-item writes its value to __local memory, and after the barrier
; reads its neighbour's.
define spir_kernel void @rotate(ptr addrspace(1) %data, ptr addrspace(3) %tmp) {
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %in = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %gid
  %v = load i32, ptr addrspace(1) %in, align 4
  %mine = getelementptr inbounds i32, ptr addrspace(3) %tmp, i64 %lid
  store i32 %v, ptr addrspace(3) %mine, align 4
  call void @_Z7barrierj(i32 1)
  %size = call i64 @_Z14get_local_sizej(i32 0)
  %next = add i64 %lid, 1
  %wrapped = urem i64 %next, %size
  %theirs = getelementptr inbounds i32, ptr addrspace(3) %tmp, i64 %wrapped
  %w = load i32, ptr addrspace(3) %theirs, align 4
  store i32 %w, ptr addrspace(1) %in, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z14get_local_sizej(i32)
declare void @_Z7barrierj(i32)

; CHECK-LABEL: define internal void @refcl.run.rotate(
; CHECK-NOT: call void @_Z7barrierj
; The region loop: region 0 runs first, each tells the next in refcl.next.
; CHECK: region:
; CHECK-NEXT: %refcl.region = phi i32 [ 0, %entry ], [ %refcl.next.region, %region.latch ]
; CHECK-NEXT: %cond = icmp eq i32 %refcl.region, 1
; CHECK-NEXT: br i1 %cond, label %z.r1, label %z.r0
; CHECK: region.latch:
; CHECK-NEXT: %refcl.next.region = load i32, ptr %refcl.next
; CHECK-NEXT: [[DONE:%[0-9]+]] = icmp eq i32 %refcl.next.region, -1
; CHECK-NEXT: br i1 [[DONE]], label %exit, label %region
; Region 0, before the barrier, with its own work-item loops: %in, used
; after the barrier, goes to the work-item's slot.
; CHECK: x.r0:
; CHECK: %refcl.lin.r0 = add i64
; CHECK: [[FRAMES0:%[0-9]+]] = load ptr, ptr
; CHECK-NEXT: [[ROW0:%[0-9]+]] = mul i64 [[ITEMS:%[0-9]+]], 0
; CHECK-NEXT: [[LINE0:%[0-9]+]] = mul i64 %refcl.lin.row.r0, 8
; CHECK-NEXT: [[OFFSET0:%[0-9]+]] = add i64 [[ROW0]], [[LINE0]]
; CHECK-NEXT: [[AT0:%[0-9]+]] = getelementptr inbounds i8, ptr [[FRAMES0]], i64 [[OFFSET0]]
; CHECK-NEXT: [[ITEM_OFFSET0:%[0-9]+]] = mul i64 %refcl.lid2.r0, 8
; CHECK-NEXT: [[SLOT0:%[0-9]+]] = getelementptr inbounds i8, ptr [[AT0]], i64 [[ITEM_OFFSET0]]
; CHECK: body.r0:
; CHECK: %in.i.r0 = getelementptr inbounds i32, ptr addrspace(1)
; CHECK-NEXT: store ptr addrspace(1) %in.i.r0, ptr [[SLOT0]], align 8
; CHECK-NEXT: %v.i.r0 = load i32, ptr addrspace(1) %in.i.r0
; CHECK-NEXT: %mine.i.r0 = getelementptr inbounds i32, ptr addrspace(3) [[TMP:%[0-9]+]], i64 %refcl.lid2.r0
; CHECK-NEXT: store i32 %v.i.r0, ptr addrspace(3) %mine.i.r0
; CHECK-NEXT: store i32 1, ptr %refcl.next
; CHECK: x.latch.r0:
; CHECK: br i1 %{{[0-9]+}}, label %x.r0, label %y.latch.r0, !llvm.loop
; Region 1, after it: the local id is region 1's loop counter again, %in
; is reloaded.
; CHECK: x.r1:
; CHECK: %refcl.lin.r1 = add i64
; CHECK: [[FRAMES1:%[0-9]+]] = load ptr, ptr
; CHECK-NEXT: [[ROW1:%[0-9]+]] = mul i64 [[ITEMS]], 0
; CHECK-NEXT: [[LINE1:%[0-9]+]] = mul i64 %refcl.lin.row.r1, 8
; CHECK-NEXT: [[OFFSET1:%[0-9]+]] = add i64 [[ROW1]], [[LINE1]]
; CHECK-NEXT: [[AT1:%[0-9]+]] = getelementptr inbounds i8, ptr [[FRAMES1]], i64 [[OFFSET1]]
; CHECK-NEXT: [[ITEM_OFFSET1:%[0-9]+]] = mul i64 %refcl.lid2.r1, 8
; CHECK-NEXT: [[SLOT1:%[0-9]+]] = getelementptr inbounds i8, ptr [[AT1]], i64 [[ITEM_OFFSET1]]
; CHECK: body.split.r1:
; CHECK-NEXT: %next.i.r1 = add i64 %refcl.lid2.r1, 1
; CHECK-NEXT: %wrapped.i.r1 = urem i64 %next.i.r1,
; CHECK-NEXT: %theirs.i.r1 = getelementptr inbounds i32, ptr addrspace(3) [[TMP]], i64 %wrapped.i.r1
; CHECK-NEXT: %w.i.r1 = load i32, ptr addrspace(3) %theirs.i.r1
; CHECK-NEXT: %in.i.reload.r1 = load ptr addrspace(1), ptr [[SLOT1]], align 8
; CHECK-NEXT: store i32 %w.i.r1, ptr addrspace(1) %in.i.reload.r1
; CHECK-NEXT: store i32 -1, ptr %refcl.next
; CHECK: x.latch.r1:
; CHECK: br i1 %{{[0-9]+}}, label %x.r1, label %y.latch.r1, !llvm.loop

; A barrier; one 8-byte slot, the frame rounded up to REFCL_ABI_ALIGN
; (128); the private bytes add refcl.next's 4.
; CHECK: !refcl.kernels = !{[[RECORD:![0-9]+]]}
; CHECK: [[RECORD]] = !{ptr @rotate, ptr @refcl.run.rotate, i1 true, i1 false, i64 0, i64 128, i64 132, i64 4}
