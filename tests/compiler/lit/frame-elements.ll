; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup keeps a work-item's vector that lives across a barrier
; element by element, each element a slot of its own (consecutive
; work-items' elements consecutive: once the jam has made the work-item's
; vectors scalars, the loop vectorizer loads a register of work-items'
; real parts without gathering them from every other float), where the
; work-items run no loop of their own and the regions that define and use
; the vector run their work-items as lanes. A kernel whose work-item loops
; keeps the vector in one slot, as the jam's vectors of work-items want;
; so does one whose regions keep their vectors whole (they gather them
; from addresses of the work-item's own), which would otherwise store and
; load each element apart.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @straight(ptr addrspace(1) %data) #0 {
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %in = getelementptr inbounds <2 x float>, ptr addrspace(1) %data, i64 %gid
  %v = load <2 x float>, ptr addrspace(1) %in, align 8
  %w = fmul <2 x float> %v, %v
  call void @_Z7barrierj(i32 1)
  store <2 x float> %w, ptr addrspace(1) %in, align 8
  ret void
}

define spir_kernel void @looping(ptr addrspace(1) %data, i32 %n) #0 {
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %in = getelementptr inbounds <2 x float>, ptr addrspace(1) %data, i64 %gid
  %v = load <2 x float>, ptr addrspace(1) %in, align 8
  br label %loop
loop:
  %i = phi i32 [ 0, %0 ], [ %i.next, %loop ]
  %acc = phi <2 x float> [ %v, %0 ], [ %acc.next, %loop ]
  %acc.next = fmul <2 x float> %acc, %v
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  call void @_Z7barrierj(i32 1)
  store <2 x float> %acc.next, ptr addrspace(1) %in, align 8
  ret void
}

define spir_kernel void @gathered(ptr addrspace(1) %data, ptr addrspace(1) %index,
                                  ptr addrspace(1) %out) #0 {
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %at = getelementptr inbounds i32, ptr addrspace(1) %index, i64 %gid
  %i = load i32, ptr addrspace(1) %at, align 4
  %i64 = sext i32 %i to i64
  %in = getelementptr inbounds <4 x float>, ptr addrspace(1) %data, i64 %i64
  %v = load <4 x float>, ptr addrspace(1) %in, align 16
  call void @_Z7barrierj(i32 1)
  %j = xor i64 %gid, 1
  %there = getelementptr inbounds <4 x float>, ptr addrspace(1) %data, i64 %j
  %w = load <4 x float>, ptr addrspace(1) %there, align 16
  %sum = fadd <4 x float> %v, %w
  %to = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %gid
  store <4 x float> %sum, ptr addrspace(1) %to, align 16
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

attributes #0 = { "target-cpu"="x86-64-v4" "prefer-vector-width"="512" }

; Two float slots (4 bytes a work-item each) besides %in's pointer (8):
; each element stored to its own, and loaded from it after the barrier.
; CHECK-LABEL: define internal void @refcl.run.straight(
; CHECK: x.r0:
; CHECK: mul i64 %refcl.lid2.r0, 8
; CHECK: [[REAL_AT:%[0-9]+]] = mul i64 %refcl.lid2.r0, 4
; CHECK-NEXT: [[REAL:%[0-9]+]] = getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 [[REAL_AT]]
; CHECK: [[IMAG_AT:%[0-9]+]] = mul i64 %refcl.lid2.r0, 4
; CHECK-NEXT: [[IMAG:%[0-9]+]] = getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 [[IMAG_AT]]
; CHECK: %w.i.r0 = fmul <2 x float>
; CHECK-NEXT: [[RE:%[0-9]+]] = extractelement <2 x float> %w.i.r0, i64 0
; CHECK-NEXT: store float [[RE]], ptr [[REAL]], align 4
; CHECK-NEXT: [[IM:%[0-9]+]] = extractelement <2 x float> %w.i.r0, i64 1
; CHECK-NEXT: store float [[IM]], ptr [[IMAG]], align 4
; CHECK: x.r1:
; CHECK: [[REAL_AT1:%[0-9]+]] = mul i64 %refcl.lid2.r1, 4
; CHECK-NEXT: [[REAL1:%[0-9]+]] = getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 [[REAL_AT1]]
; CHECK: [[IMAG_AT1:%[0-9]+]] = mul i64 %refcl.lid2.r1, 4
; CHECK-NEXT: [[IMAG1:%[0-9]+]] = getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 [[IMAG_AT1]]
; CHECK: [[RE1:%[0-9]+]] = load float, ptr [[REAL1]], align 4
; CHECK-NEXT: [[HALF:%[0-9]+]] = insertelement <2 x float> poison, float [[RE1]], i64 0
; CHECK-NEXT: [[IM1:%[0-9]+]] = load float, ptr [[IMAG1]], align 4
; CHECK-NEXT: [[W1:%[0-9]+]] = insertelement <2 x float> [[HALF]], float [[IM1]], i64 1
; CHECK-NEXT: store <2 x float> [[W1]], ptr addrspace(1)

; The work-item loops: the vector keeps one slot of 8 bytes.
; CHECK-LABEL: define internal void @refcl.run.looping(
; CHECK: store <2 x float> %acc.next.i.lcssa.r0, ptr
; CHECK-NOT: extractelement
; CHECK: %acc.next.i.lcssa.reload.r1 = load <2 x float>, ptr

; Regions that gather their float4s: the vector keeps one slot of 16 bytes.
; CHECK-LABEL: define internal void @refcl.run.gathered(
; CHECK: store <4 x float> %v.i.r0, ptr
; CHECK-NOT: extractelement
; CHECK: %v.i.reload.r1 = load <4 x float>, ptr
