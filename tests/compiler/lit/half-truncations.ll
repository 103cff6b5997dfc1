; SPDX-License-Identifier: Apache-2.0
; Half arithmetic in a jammed work-group function (refcl-jam-items): each
; half fadd, fsub, fmul, fdiv computed in float on its operands extended,
; fmuladd as a rounded product and a rounded sum, and every rounding of a
; float to half a call of __refcl_fptrunc_half, whose vector forms the
; vector-function-abi-variant attribute names for the SLP vectorizer. A
; function that is not jammed keeps its half arithmetic
; (half-truncations-lower.ll: the calls made fptruncs again).
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-jam-items -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @refcl.run.chain(
; CHECK: inner:
; CHECK-NOT: fadd half
; CHECK: %[[P:.*]] = fmul float %{{.*}}, 5.000000e-01
; CHECK: %[[PH:.*]] = call half @__refcl_fptrunc_half(float %[[P]])
; CHECK: %[[PE:.*]] = fpext half %[[PH]] to float
; CHECK: %[[S:.*]] = fadd float %[[PE]], %{{.*}}
; CHECK: %x.next = call half @__refcl_fptrunc_half(float %[[S]])
; CHECK: %[[D:.*]] = fsub float %{{.*}}, %{{.*}}
; CHECK: %y.next = call half @__refcl_fptrunc_half(float %[[D]])
; CHECK: %r.t = call half @__refcl_fptrunc_half(float %r.f)
; CHECK-NOT: fptrunc float
; CHECK: ret void
define void @refcl.run.chain(ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next.item, %x.latch ]
  %xi = uitofp i64 %x to half
  br label %inner

inner:
  %i = phi i32 [ 0, %x.header ], [ %i.next, %inner ]
  %a = phi half [ %xi, %x.header ], [ %x.next, %inner ]
  %b = phi half [ 0xH3C00, %x.header ], [ %y.next, %inner ]
  %x.next = call half @llvm.fmuladd.f16(half %a, half 0xH3800, half %b)
  %y.next = fsub half %b, %x.next
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 100
  br i1 %done, label %x.latch, label %inner

x.latch:
  %r.h = phi half [ %y.next, %inner ]
  %r.f = fpext half %r.h to float
  %r.t = fptrunc float %r.f to half
  %p = getelementptr inbounds half, ptr addrspace(1) %out, i64 %x
  store half %r.t, ptr addrspace(1) %p, align 2, !llvm.access.group !1
  %x.next.item = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next.item, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; CHECK-LABEL: define void @refcl.run.flat(
; CHECK: fadd half
; CHECK-NOT: __refcl_fptrunc_half
; CHECK: ret void
define void @refcl.run.flat(ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.header ]
  %p = getelementptr inbounds half, ptr addrspace(1) %out, i64 %x
  %v = load half, ptr addrspace(1) %p, align 2, !llvm.access.group !1
  %w = fadd half %v, 0xH3C00
  store half %w, ptr addrspace(1) %p, align 2, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; CHECK: declare half @__refcl_fptrunc_half(float) #[[ROUND:[0-9]+]]
; CHECK: declare <16 x half> @__refcl_fptrunc_half_v16(<16 x float>)
; CHECK: attributes #[[ROUND]] = {{.*}}"vector-function-abi-variant"="_ZGV_LLVM_N2v___refcl_fptrunc_half(__refcl_fptrunc_half_v2),{{.*}},_ZGV_LLVM_N16v___refcl_fptrunc_half(__refcl_fptrunc_half_v16),{{.*}}"

declare half @llvm.fmuladd.f16(half, half, half)

attributes #0 = { "target-cpu"="x86-64-v4" "prefer-vector-width"="512" }

!1 = distinct !{}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.parallel_accesses", !1}
