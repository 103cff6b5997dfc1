; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup: a kernel's work-group function refcl.run.<kernel>(args,
; group): its arguments loaded from their 8-byte slots, the loops over the
; local ids (x innermost, marked parallel) around the inlined kernel, the
; work-item functions read from the group and the loop counters; what the
; table will say, in !refcl.kernels. Helpers that reach a work-item
; function are inlined; others are not.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @scale(ptr addrspace(1) %out, i32 %n) {
  %id = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %id to i32
  %v = call i32 @times(i32 %i, i32 %n)
  %w = call i32 @plain(i32 %v)
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %id
  store i32 %w, ptr addrspace(1) %p, align 4
  ret void
}

; Reaches a work-item function: inlined.
define i32 @times(i32 %a, i32 %b) {
  %size = call i64 @_Z14get_local_sizej(i32 0)
  %s = trunc i64 %size to i32
  %m = mul i32 %a, %b
  %r = add i32 %m, %s
  ret i32 %r
}

; Does not: called as it is.
define i32 @plain(i32 %a) {
  %r = add i32 %a, 7
  ret i32 %r
}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z14get_local_sizej(i32)

; The kernel stays (refcl-remove-dead removes it once internal).
; CHECK: define spir_kernel void @scale(

; CHECK-LABEL: define internal void @refcl.run.scale(ptr noalias nocapture readonly %0, ptr noalias nocapture readonly %1)
; CHECK: entry:
; The group's fields (refcl_abi_group): global offset (2), enqueued local
; size (4), group id (6), local size (7).
; CHECK: getelementptr inbounds {{.*}}, ptr %1, i32 0, i32 2, i32 0
; CHECK-NEXT: [[OFFSET:%.*]] = load i64
; CHECK: getelementptr inbounds {{.*}}, ptr %1, i32 0, i32 4, i32 0
; CHECK-NEXT: [[ENQUEUED:%.*]] = load i64
; CHECK: getelementptr inbounds {{.*}}, ptr %1, i32 0, i32 6, i32 0
; CHECK-NEXT: [[GROUP:%.*]] = load i64
; CHECK: getelementptr inbounds {{.*}}, ptr %1, i32 0, i32 7, i32 0
; CHECK-NEXT: [[LSIZE:%.*]] = load i64
; The arguments, from their 8-byte slots.
; CHECK: [[SLOT0:%.*]] = getelementptr inbounds i64, ptr %0, i32 0
; CHECK-NEXT: [[OUT:%.*]] = load ptr addrspace(1), ptr [[SLOT0]], align 8
; CHECK-NEXT: [[SLOT1:%.*]] = getelementptr inbounds i64, ptr %0, i32 1
; CHECK-NEXT: [[N:%.*]] = load i32, ptr [[SLOT1]], align 8
; CHECK: z:
; CHECK: y:
; CHECK: x:
; CHECK-NEXT: [[LID:%.*]] = phi i64 [ 0, %y ], [ [[NEXT:%.*]], %x.latch ]
; CHECK: body:
; get_global_id(0): group id * enqueued local size + local id + offset.
; CHECK-NEXT: [[BASE:%.*]] = mul i64 [[GROUP]], [[ENQUEUED]]
; CHECK-NEXT: [[FROM_ZERO:%.*]] = add i64 [[BASE]], [[LID]]
; CHECK: [[GID:%.*]] = add i64 [[FROM_ZERO]], [[OFFSET]]
; CHECK: [[I:%.*]] = trunc i64 [[GID]] to i32
; @times inlined, its get_local_size(0) the group's.
; CHECK-NEXT: [[S:%.*]] = trunc i64 [[LSIZE]] to i32
; CHECK-NEXT: [[M:%.*]] = mul i32 [[I]], [[N]]
; CHECK-NEXT: [[R:%.*]] = add i32 [[M]], [[S]]
; CHECK-NEXT: [[W:%.*]] = call i32 @plain(i32 [[R]]), !llvm.access.group [[ACCESS:![0-9]+]]
; CHECK-NEXT: [[P:%.*]] = getelementptr inbounds i32, ptr addrspace(1) [[OUT]], i64 [[GID]]
; CHECK-NEXT: store i32 [[W]], ptr addrspace(1) [[P]], align 4, {{.*}}!llvm.access.group [[ACCESS]]
; CHECK: x.latch:
; CHECK-NEXT: [[NEXT]] = add nuw i64 [[LID]], 1
; CHECK-NEXT: [[MORE:%.*]] = icmp ult i64 [[NEXT]], [[LSIZE]]
; CHECK-NEXT: br i1 [[MORE]], label %x, label %y.latch, !llvm.loop [[LOOP:![0-9]+]]
; CHECK: ret void

; No barrier, no printf, no __local bytes, no frame, no private bytes.
; CHECK: !refcl.kernels = !{[[RECORD:![0-9]+]]}
; CHECK: [[RECORD]] = !{ptr @scale, ptr @refcl.run.scale, i1 false, i1 false, i64 0, i64 0, i64 0, i64 4}
; CHECK: [[LOOP]] = distinct !{[[LOOP]], [[PARALLEL:![0-9]+]], [[PROGRESS:![0-9]+]]}
; CHECK-NEXT: [[PARALLEL]] = !{!"llvm.loop.parallel_accesses", [[ACCESS]]}
; CHECK-NEXT: [[PROGRESS]] = !{!"llvm.loop.mustprogress"}
