; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup, for a kernel with a barrier: a call given the address of
; a private variable is inlined before the barrier split, so that SROA
; makes the variable a value (clFFT's butterflies take their eight float2
; by pointer; left in memory, a variable living across a barrier stayed in
; its frame slot, every operation on it a load and a store there). And
; where the kernel requires its group's size (reqd_work_group_size 64 x 2:
; 128 work-items), the frame's slots start at constant offsets, 128 times
; the bytes of the slots before them, which the back end folds into one
; register's addressing; without a required size, the group's size times
; them, computed.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define internal void @twice(ptr %p) {
  %v = load float, ptr %p, align 4
  %w = fmul float %v, 2.0
  store float %w, ptr %p, align 4
  ret void
}

define spir_kernel void @required(ptr addrspace(1) %in, ptr addrspace(1) %out) !reqd_work_group_size !0 {
  %x = alloca float, align 4
  %y = alloca double, align 8
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %pi = getelementptr inbounds float, ptr addrspace(1) %in, i64 %gid
  %a = load float, ptr addrspace(1) %pi, align 4
  store float %a, ptr %x, align 4
  %b = fpext float %a to double
  store double %b, ptr %y, align 8
  call void @twice(ptr %x)
  call void @_Z7barrierj(i32 1)
  %c = load float, ptr %x, align 4
  %d = load double, ptr %y, align 8
  %e = fptrunc double %d to float
  %f = fadd float %c, %e
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %f, ptr addrspace(1) %po, align 4
  ret void
}

define spir_kernel void @any_size(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %x = alloca float, align 4
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %pi = getelementptr inbounds float, ptr addrspace(1) %in, i64 %gid
  %a = load float, ptr addrspace(1) %pi, align 4
  store float %a, ptr %x, align 4
  call void @twice(ptr %x)
  call void @_Z7barrierj(i32 1)
  %c = load float, ptr %x, align 4
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %c, ptr addrspace(1) %po, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

!0 = !{i32 64, i32 2, i32 1}

; Three slots: the global id's and the double's (8 bytes each), the
; float's (4); each starts 128 times the bytes before it.
; CHECK-LABEL: define internal void @refcl.run.required(
; CHECK-NOT: call void @twice
; CHECK: [[ROW0:%[0-9]+]] = mul i64 %refcl.lin.row.r0, 8
; CHECK-NEXT: {{%[0-9]+}} = add i64 0, [[ROW0]]
; CHECK: [[ROW1:%[0-9]+]] = mul i64 %refcl.lin.row.r0, 8
; CHECK-NEXT: {{%[0-9]+}} = add i64 1024, [[ROW1]]
; CHECK: [[ROW2:%[0-9]+]] = mul i64 %refcl.lin.row.r0, 4
; CHECK-NEXT: {{%[0-9]+}} = add i64 2048, [[ROW2]]
; CHECK-NOT: call void @twice
; CHECK: {{^}$}}

; Without a required size, the group's work-items (the product of its
; local sizes) times the bytes before the slot.
; CHECK-LABEL: define internal void @refcl.run.any_size(
; CHECK-NOT: call void @twice
; CHECK: [[XY:%[0-9]+]] = mul i64 [[X:%[0-9]+]], [[Y:%[0-9]+]]
; CHECK-NEXT: [[ITEMS:%[0-9]+]] = mul i64 [[XY]], [[Z:%[0-9]+]]
; CHECK: {{%[0-9]+}} = mul i64 [[ITEMS]], 0
; CHECK: {{%[0-9]+}} = mul i64 [[ITEMS]], 8
; CHECK-NOT: call void @twice
; CHECK: {{^}$}}
