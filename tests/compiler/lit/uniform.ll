; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup's barrier split keeps a value across a barrier by what
; the divergence analysis (uniform.cpp) says of it: a short uniform
; expression over the group's fields is computed again where used, a
; uniform load of constant memory takes one slot for the group, and a
; value loaded from memory other work-items may write (varying) one slot
; per work-item.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @keep(ptr addrspace(1) %out, ptr addrspace(2) %table, ptr addrspace(1) %shared) {
  %group = call i64 @_Z12get_group_idj(i32 0)
  %scaled = mul i64 %group, 3
  %constant = load i64, ptr addrspace(2) %table, align 8
  %varying = load i64, ptr addrspace(1) %shared, align 8
  call void @_Z7barrierj(i32 1)
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %a = add i64 %scaled, %constant
  %b = add i64 %a, %varying
  %p = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %lid
  store i64 %b, ptr addrspace(1) %p, align 8
  ret void
}

declare i64 @_Z12get_group_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare void @_Z7barrierj(i32)

; CHECK-LABEL: define internal void @refcl.run.keep(
; CHECK: x.r0:
; CHECK: %refcl.lin.r0 = add i64
; CHECK: [[FRAMES0:%[0-9]+]] = load ptr, ptr
; The group's slot: the same address for every work-item.
; CHECK-NEXT: [[GROUP_OFFSET0:%[0-9]+]] = mul i64 [[ITEMS:%[0-9]+]], 0
; CHECK-NEXT: [[GROUP_SLOT0:%[0-9]+]] = getelementptr inbounds i8, ptr [[FRAMES0]], i64 [[GROUP_OFFSET0]]
; The work-item's slot: its own 8 bytes of the next row.
; CHECK-NEXT: [[ROW0:%[0-9]+]] = mul i64 [[ITEMS]], 8
; CHECK-NEXT: [[LINE0:%[0-9]+]] = mul i64 %refcl.lin.row.r0, 8
; CHECK-NEXT: [[OFFSET0:%[0-9]+]] = add i64 [[ROW0]], [[LINE0]]
; CHECK-NEXT: [[AT0:%[0-9]+]] = getelementptr inbounds i8, ptr [[FRAMES0]], i64 [[OFFSET0]]
; CHECK-NEXT: [[ITEM_OFFSET0:%[0-9]+]] = mul i64 %refcl.lid2.r0, 8
; CHECK-NEXT: [[ITEM_SLOT0:%[0-9]+]] = getelementptr inbounds i8, ptr [[AT0]], i64 [[ITEM_OFFSET0]]
; CHECK: body.r0:
; CHECK-NEXT: %scaled.i.r0 = mul i64 [[GROUP_ID:%[0-9]+]], 3
; CHECK-NEXT: %constant.i.r0 = load i64, ptr addrspace(2)
; CHECK-NEXT: store i64 %constant.i.r0, ptr [[GROUP_SLOT0]], align 8
; CHECK-NEXT: %varying.i.r0 = load i64, ptr addrspace(1)
; CHECK-NEXT: store i64 %varying.i.r0, ptr [[ITEM_SLOT0]], align 8
; CHECK-NEXT: store i32 1, ptr %refcl.next
; CHECK: x.r1:
; CHECK: %refcl.lin.r1 = add i64
; CHECK: [[FRAMES1:%[0-9]+]] = load ptr, ptr
; CHECK-NEXT: [[GROUP_OFFSET1:%[0-9]+]] = mul i64 [[ITEMS]], 0
; CHECK-NEXT: [[GROUP_SLOT1:%[0-9]+]] = getelementptr inbounds i8, ptr [[FRAMES1]], i64 [[GROUP_OFFSET1]]
; CHECK-NEXT: [[ROW1:%[0-9]+]] = mul i64 [[ITEMS]], 8
; CHECK-NEXT: [[LINE1:%[0-9]+]] = mul i64 %refcl.lin.row.r1, 8
; CHECK-NEXT: [[OFFSET1:%[0-9]+]] = add i64 [[ROW1]], [[LINE1]]
; CHECK-NEXT: [[AT1:%[0-9]+]] = getelementptr inbounds i8, ptr [[FRAMES1]], i64 [[OFFSET1]]
; CHECK-NEXT: [[ITEM_OFFSET1:%[0-9]+]] = mul i64 %refcl.lid2.r1, 8
; CHECK-NEXT: [[ITEM_SLOT1:%[0-9]+]] = getelementptr inbounds i8, ptr [[AT1]], i64 [[ITEM_OFFSET1]]
; CHECK: body.split.r1:
; CHECK-NEXT: %scaled.i.again.r1 = mul i64 [[GROUP_ID]], 3
; CHECK-NEXT: %constant.i.reload.r1 = load i64, ptr [[GROUP_SLOT1]], align 8
; CHECK-NEXT: %a.i.r1 = add i64 %scaled.i.again.r1, %constant.i.reload.r1
; CHECK-NEXT: %varying.i.reload.r1 = load i64, ptr [[ITEM_SLOT1]], align 8
; CHECK-NEXT: %b.i.r1 = add i64 %a.i.r1, %varying.i.reload.r1

; Two 8-byte slots, the frame rounded up to REFCL_ABI_ALIGN (128); the
; private bytes add refcl.next's 4.
; CHECK: !refcl.kernels = !{[[RECORD:![0-9]+]]}
; CHECK: [[RECORD]] = !{ptr @keep, ptr @refcl.run.keep, i1 true, i1 false, i64 0, i64 128, i64 132, i64 4}
