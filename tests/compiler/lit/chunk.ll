; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup, for a kernel without barriers whose work-item runs an
; outer loop round a long inner loop over memory (a GEMM's k-loop cut in
; tiles): a barrier at the top of the outer loop's body makes the group
; run it an iteration at a time, every work-item's before the next. The
; split then keeps the work-item's sum in its frame and the outer counter,
; the same in every work-item and both written and read by the region it
; goes round in, once for the group: the work-items store it to one slot,
; which the region latch copies to the one they read once all have run.
; Not round an inner loop of a count unknown at compile time (a few,
; perhaps), nor one of 8 iterations, which the unrolling of loops of
; constant count before the split unrolls (the barrier goes again), nor
; where a work-item's own value ends the loop, nor round an inner loop of
; 4 iterations, nor where an atomic orders the work-items' accesses, nor
; where some work-items return before the loop.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @nest(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %k, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %outer.latch ]
  %more = icmp slt i32 %i, %k
  br i1 %more, label %outer.body, label %done

outer.body:
  br label %inner

inner:
  %j = phi i32 [ 0, %outer.body ], [ %j.next, %inner ]
  %s = phi float [ %acc, %outer.body ], [ %s.next, %inner ]
  %row = mul i32 %i, 256
  %idx = add i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %col = add i64 %idx64, %gid
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %col
  %v = load float, ptr addrspace(1) %p, align 4
  %s.next = fadd float %s, %v
  %j.next = add i32 %j, 1
  %j.done = icmp eq i32 %j.next, 256
  br i1 %j.done, label %outer.latch, label %inner

outer.latch:
  %sum = phi float [ %s.next, %inner ]
  %i.next = add i32 %i, 1
  br label %outer

done:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %acc, ptr addrspace(1) %po, align 4
  ret void
}


define spir_kernel void @unknown(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %k, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %outer.latch ]
  %more = icmp slt i32 %i, %k
  br i1 %more, label %outer.body, label %done

outer.body:
  br label %inner

inner:
  %j = phi i32 [ 0, %outer.body ], [ %j.next, %inner ]
  %s = phi float [ %acc, %outer.body ], [ %s.next, %inner ]
  %row = mul i32 %i, 256
  %idx = add i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %col = add i64 %idx64, %gid
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %col
  %v = load float, ptr addrspace(1) %p, align 4
  %s.next = fadd float %s, %v
  %j.next = add i32 %j, 1
  %j.done = icmp eq i32 %j.next, %n
  br i1 %j.done, label %outer.latch, label %inner

outer.latch:
  %sum = phi float [ %s.next, %inner ]
  %i.next = add i32 %i, 1
  br label %outer

done:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %acc, ptr addrspace(1) %po, align 4
  ret void
}


define spir_kernel void @unrolled(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %k, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %outer.latch ]
  %more = icmp slt i32 %i, %k
  br i1 %more, label %outer.body, label %done

outer.body:
  br label %inner

inner:
  %j = phi i32 [ 0, %outer.body ], [ %j.next, %inner ]
  %s = phi float [ %acc, %outer.body ], [ %s.next, %inner ]
  %row = mul i32 %i, 256
  %idx = add i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %col = add i64 %idx64, %gid
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %col
  %v = load float, ptr addrspace(1) %p, align 4
  %s.next = fadd float %s, %v
  %j.next = add i32 %j, 1
  %j.done = icmp eq i32 %j.next, 8
  br i1 %j.done, label %outer.latch, label %inner

outer.latch:
  %sum = phi float [ %s.next, %inner ]
  %i.next = add i32 %i, 1
  br label %outer

done:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %acc, ptr addrspace(1) %po, align 4
  ret void
}


define spir_kernel void @divergent(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %k, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %outer.latch ]
  %gid32 = trunc i64 %gid to i32
  %more = icmp slt i32 %i, %gid32
  br i1 %more, label %outer.body, label %done

outer.body:
  br label %inner

inner:
  %j = phi i32 [ 0, %outer.body ], [ %j.next, %inner ]
  %s = phi float [ %acc, %outer.body ], [ %s.next, %inner ]
  %row = mul i32 %i, 256
  %idx = add i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %col = add i64 %idx64, %gid
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %col
  %v = load float, ptr addrspace(1) %p, align 4
  %s.next = fadd float %s, %v
  %j.next = add i32 %j, 1
  %j.done = icmp eq i32 %j.next, 256
  br i1 %j.done, label %outer.latch, label %inner

outer.latch:
  %sum = phi float [ %s.next, %inner ]
  %i.next = add i32 %i, 1
  br label %outer

done:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %acc, ptr addrspace(1) %po, align 4
  ret void
}


define spir_kernel void @short(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %k, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %outer.latch ]
  %more = icmp slt i32 %i, %k
  br i1 %more, label %outer.body, label %done

outer.body:
  br label %inner

inner:
  %j = phi i32 [ 0, %outer.body ], [ %j.next, %inner ]
  %s = phi float [ %acc, %outer.body ], [ %s.next, %inner ]
  %row = mul i32 %i, 256
  %idx = add i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %col = add i64 %idx64, %gid
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %col
  %v = load float, ptr addrspace(1) %p, align 4
  %s.next = fadd float %s, %v
  %j.next = add i32 %j, 1
  %j.done = icmp eq i32 %j.next, 4
  br i1 %j.done, label %outer.latch, label %inner

outer.latch:
  %sum = phi float [ %s.next, %inner ]
  %i.next = add i32 %i, 1
  br label %outer

done:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %acc, ptr addrspace(1) %po, align 4
  ret void
}


define spir_kernel void @atomic(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %k, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %outer.latch ]
  %more = icmp slt i32 %i, %k
  br i1 %more, label %outer.body, label %done

outer.body:
  br label %inner

inner:
  %j = phi i32 [ 0, %outer.body ], [ %j.next, %inner ]
  %s = phi float [ %acc, %outer.body ], [ %s.next, %inner ]
  %row = mul i32 %i, 256
  %idx = add i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %col = add i64 %idx64, %gid
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %col
  %v = load float, ptr addrspace(1) %p, align 4
  %old = atomicrmw add ptr addrspace(1) %out, i32 1 seq_cst
  %s.next = fadd float %s, %v
  %j.next = add i32 %j, 1
  %j.done = icmp eq i32 %j.next, 256
  br i1 %j.done, label %outer.latch, label %inner

outer.latch:
  %sum = phi float [ %s.next, %inner ]
  %i.next = add i32 %i, 1
  br label %outer

done:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %acc, ptr addrspace(1) %po, align 4
  ret void
}


define spir_kernel void @early(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %k, i32 %n) {
entry:
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %in = icmp ult i64 %gid, 1000
  br i1 %in, label %outer, label %leave

leave:
  ret void

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %outer.latch ]
  %more = icmp slt i32 %i, %k
  br i1 %more, label %outer.body, label %done

outer.body:
  br label %inner

inner:
  %j = phi i32 [ 0, %outer.body ], [ %j.next, %inner ]
  %s = phi float [ %acc, %outer.body ], [ %s.next, %inner ]
  %row = mul i32 %i, 256
  %idx = add i32 %row, %j
  %idx64 = sext i32 %idx to i64
  %col = add i64 %idx64, %gid
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %col
  %v = load float, ptr addrspace(1) %p, align 4
  %s.next = fadd float %s, %v
  %j.next = add i32 %j, 1
  %j.done = icmp eq i32 %j.next, 256
  br i1 %j.done, label %outer.latch, label %inner

outer.latch:
  %sum = phi float [ %s.next, %inner ]
  %i.next = add i32 %i, 1
  br label %outer

done:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %acc, ptr addrspace(1) %po, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)

; The counter's two slots, 8 and 12 bytes per work-item into the frames
; (the global id's is first): the region latch copies the one stored to
; the one read.
; CHECK-LABEL: define internal void @refcl.run.nest(
; CHECK: region.latch:
; CHECK-NEXT: %refcl.next.region = load i32, ptr %refcl.next
; CHECK-NEXT: icmp eq i32 %refcl.next.region, -1
; CHECK-NEXT: getelementptr
; CHECK-NEXT: [[FRAMES:%[0-9]+]] = load ptr
; CHECK-NEXT: [[AT8:%[0-9]+]] = mul i64 [[ITEMS:%[0-9]+]], 8
; CHECK-NEXT: [[READ:%[0-9]+]] = getelementptr inbounds i8, ptr [[FRAMES]], i64 [[AT8]]
; CHECK-NEXT: [[AT12:%[0-9]+]] = mul i64 [[ITEMS]], 12
; CHECK-NEXT: [[STORED:%[0-9]+]] = getelementptr inbounds i8, ptr [[FRAMES]], i64 [[AT12]]
; CHECK-NEXT: [[SEEN:%[0-9]+]] = load i32, ptr [[STORED]], align 4
; CHECK-NEXT: store i32 [[SEEN]], ptr [[READ]], align 4
; CHECK: outer.body.i.r0:
; CHECK-NEXT: store i32 1, ptr %refcl.next
; CHECK: {{^}$}}

; CHECK-LABEL: define internal void @refcl.run.unknown(
; CHECK-NOT: %refcl.next
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @refcl.run.unrolled(
; CHECK-NOT: %refcl.next
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @refcl.run.divergent(
; CHECK-NOT: %refcl.next
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @refcl.run.short(
; CHECK-NOT: %refcl.next
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @refcl.run.atomic(
; CHECK-NOT: %refcl.next
; CHECK: {{^}$}}
; CHECK-LABEL: define internal void @refcl.run.early(
; CHECK-NOT: %refcl.next
; CHECK: {{^}$}}
