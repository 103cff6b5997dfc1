; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup on a kernel that calls __refcl_group_scratch, as the
; work-group collective functions of the library do: every call becomes
; the same frame slot of 16 bytes per work-item (all the group's
; work-items' slots, one array), in each region, before the slots of the
; values the barrier split keeps; no call is left.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @sum(ptr addrspace(1) %data) {
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %in = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %gid
  %v = load i32, ptr addrspace(1) %in, align 4
  %scratch = call ptr @__refcl_group_scratch()
  %mine = getelementptr inbounds i32, ptr %scratch, i64 %lid
  store i32 %v, ptr %mine, align 4
  call void @_Z7barrierj(i32 1)
  %again = call ptr @__refcl_group_scratch()
  %first = load i32, ptr %again, align 4
  store i32 %first, ptr addrspace(1) %in, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z12get_local_idj(i32)
declare void @_Z7barrierj(i32)
declare ptr @__refcl_group_scratch()

; CHECK-LABEL: define internal void @refcl.run.sum(
; CHECK-NOT: call ptr @__refcl_group_scratch
; The group's items, then in region 0 the scratch at the frames' start and
; %in's slot after 16 bytes per work-item.
; CHECK: [[ROWS:%[0-9]+]] = mul i64 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK-NEXT: [[ITEMS:%[0-9]+]] = mul i64 [[ROWS]], %{{[0-9]+}}
; CHECK: x.r0:
; CHECK: [[FRAMES0:%[0-9]+]] = load ptr, ptr
; CHECK-NEXT: [[START0:%[0-9]+]] = mul i64 [[ITEMS]], 0
; CHECK-NEXT: [[SCRATCH0:%[0-9]+]] = getelementptr inbounds i8, ptr [[FRAMES0]], i64 [[START0]]
; CHECK-NEXT: [[ROW0:%[0-9]+]] = mul i64 [[ITEMS]], 16
; CHECK: body.r0:
; CHECK: %mine.i.r0 = getelementptr inbounds i32, ptr [[SCRATCH0]], i64 %refcl.lid2.r0
; CHECK-NEXT: store i32 %v.i.r0, ptr %mine.i.r0
; Region 1 reads the same array's start.
; CHECK: x.r1:
; CHECK: [[FRAMES1:%[0-9]+]] = load ptr, ptr
; CHECK-NEXT: [[START1:%[0-9]+]] = mul i64 [[ITEMS]], 0
; CHECK-NEXT: [[SCRATCH1:%[0-9]+]] = getelementptr inbounds i8, ptr [[FRAMES1]], i64 [[START1]]
; CHECK: body.split.r1:
; CHECK-NEXT: %first.i.r1 = load i32, ptr [[SCRATCH1]], align 4
; CHECK-NOT: call ptr @__refcl_group_scratch
; CHECK-LABEL: !refcl.kernels
; The frames: 16 bytes of scratch and 8 of %in per work-item, aligned.
; CHECK: !{ptr @sum, ptr @refcl.run.sum, i1 true, i1 false, i64 0, i64 128,
