; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup, before it cuts a kernel at its barriers, unrolls the
; loops of constant trip count and splits the private arrays they index
; into values. A tile of accumulators that lives across barriers then
; takes a frame slot per element (4 bytes a work-item, the elements of
; consecutive work-items side by side) instead of one slot for the whole
; array (16 bytes a work-item); the four sums its loop computes are
; stored to their slots once, after the loop, not in every iteration. An
; array indexed by a value the kernel reads stays whole.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; acc[i] = 0; barrier; for j < n: acc[i] += tile[j]; barrier; out[4 * gid + i] = acc[i]
define spir_kernel void @tile(ptr addrspace(1) %out, ptr addrspace(3) %tile, i64 %n) {
entry:
  %acc = alloca [4 x float], align 16
  br label %init

init:
  %i = phi i64 [ 0, %entry ], [ %i.next, %init ]
  %pi = getelementptr inbounds [4 x float], ptr %acc, i64 0, i64 %i
  store float 0.0, ptr %pi, align 4
  %i.next = add nuw nsw i64 %i, 1
  %i.done = icmp eq i64 %i.next, 4
  br i1 %i.done, label %fill, label %init

fill:
  %lid = call i64 @_Z12get_local_idj(i32 0)
  %t = getelementptr inbounds float, ptr addrspace(3) %tile, i64 %lid
  store float 1.0, ptr addrspace(3) %t, align 4
  call void @_Z7barrierj(i32 1)
  br label %add

add:
  %j = phi i64 [ 0, %fill ], [ %j.next, %add.done ]
  %tj = getelementptr inbounds float, ptr addrspace(3) %tile, i64 %j
  %x = load float, ptr addrspace(3) %tj, align 4
  br label %add.each

add.each:
  %e = phi i64 [ 0, %add ], [ %e.next, %add.each ]
  %pe = getelementptr inbounds [4 x float], ptr %acc, i64 0, i64 %e
  %old = load float, ptr %pe, align 4
  %new = fadd float %old, %x
  store float %new, ptr %pe, align 4
  %e.next = add nuw nsw i64 %e, 1
  %e.done = icmp eq i64 %e.next, 4
  br i1 %e.done, label %add.done, label %add.each

add.done:
  %j.next = add nuw i64 %j, 1
  %j.done = icmp uge i64 %j.next, %n
  br i1 %j.done, label %wait, label %add

wait:
  call void @_Z7barrierj(i32 1)
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %base = shl i64 %gid, 2
  br label %store

store:
  %k = phi i64 [ 0, %wait ], [ %k.next, %store ]
  %pk = getelementptr inbounds [4 x float], ptr %acc, i64 0, i64 %k
  %v = load float, ptr %pk, align 4
  %ok = add i64 %base, %k
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %ok
  store float %v, ptr addrspace(1) %o, align 4
  %k.next = add nuw nsw i64 %k, 1
  %k.done = icmp eq i64 %k.next, 4
  br i1 %k.done, label %exit, label %store

exit:
  ret void
}

; The same array indexed by %n: no loop to unroll, so one slot whole.
define spir_kernel void @indexed(ptr addrspace(1) %out, i64 %n) {
  %acc = alloca [4 x float], align 16
  store <4 x float> zeroinitializer, ptr %acc, align 16
  %p = getelementptr inbounds [4 x float], ptr %acc, i64 0, i64 %n
  store float 1.0, ptr %p, align 4
  call void @_Z7barrierj(i32 1)
  %v = load float, ptr %acc, align 16
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %o = getelementptr inbounds float, ptr addrspace(1) %out, i64 %gid
  store float %v, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z12get_local_idj(i32)
declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

; CHECK-LABEL: define internal void @refcl.run.tile(
; CHECK-NOT: alloca [4 x float]
; CHECK-NOT: mul i64 %refcl.lid2{{[.a-z0-9]*}}, 16
; CHECK: mul i64 %refcl.lid2{{[.a-z0-9]*}}, 4
; CHECK: {{^}}add.each{{[.a-z0-9]*}}:
; CHECK-COUNT-4: fadd float
; CHECK-NOT: store
; CHECK: {{^}}wait{{[.a-z0-9]*}}:
; CHECK-COUNT-4: store float %new{{[.0-9a-z]*}}.lcssa
; CHECK-NOT: mul i64 %refcl.lid2{{[.a-z0-9]*}}, 16
; CHECK-LABEL: define internal void @refcl.run.indexed(
; CHECK: mul i64 %refcl.lid2{{[.a-z0-9]*}}, 16
