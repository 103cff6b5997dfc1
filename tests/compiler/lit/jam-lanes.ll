; SPDX-License-Identifier: Apache-2.0
; refcl-jam-items and work-items without loops of their own whose vectors
; would be the loop vectorizer's lanes: it takes no loop computing vectors,
; so their loads and stores are made an element at a time (each at its own
; element type's address) and their arithmetic scalars, where that pays:
; a work-item reading vectors at addresses of its own (a pixel at a
; clamped coordinate) would gather each element apart, and keeps them
; whole. The choice is the work-item loop's: of a kernel's regions, those
; it pays in.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-jam-items -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Consecutive work-items' complex values: made scalars.
; CHECK-LABEL: define void @refcl.run.complex(
; CHECK: [[RE_AT:%[a-z0-9.]+]] = getelementptr float, ptr addrspace(1) %p, i32 0
; CHECK-NEXT: [[RE:%[a-z0-9.]+]] = load float, ptr addrspace(1) [[RE_AT]], align 8
; CHECK: [[IM_AT:%[a-z0-9.]+]] = getelementptr float, ptr addrspace(1) %p, i32 1
; CHECK-NEXT: [[IM:%[a-z0-9.]+]] = load float, ptr addrspace(1) [[IM_AT]], align 4
; CHECK: fmul float
; CHECK: store float %{{[a-z0-9.]+}}, ptr addrspace(1) %{{[a-z0-9.]+}}, align 8
; CHECK-NOT: <2 x float>
; CHECK-LABEL: define void @refcl.run.pixels(
define void @refcl.run.complex(ptr addrspace(1) %data, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.header ]
  %p = getelementptr inbounds <2 x float>, ptr addrspace(1) %data, i64 %x
  %v = load <2 x float>, ptr addrspace(1) %p, align 8, !llvm.access.group !1
  %sq = fmul <2 x float> %v, %v
  %sw = shufflevector <2 x float> %sq, <2 x float> poison, <2 x i32> <i32 1, i32 0>
  %w = fadd <2 x float> %sq, %sw
  store <2 x float> %w, ptr addrspace(1) %p, align 8, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; A work-item reading a pixel at a clamped coordinate: 4 bytes gathered
; apart, kept whole.
; CHECK: load <4 x i8>
; CHECK: fmul <4 x float>
; CHECK-LABEL: define void @refcl.run.texel(
define void @refcl.run.pixels(ptr addrspace(1) %img, ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.header ]
  %left = add i64 %x, -1
  %inside = icmp sgt i64 %left, 0
  %u = select i1 %inside, i64 %left, i64 0
  %pi = getelementptr inbounds <4 x i8>, ptr addrspace(1) %img, i64 %u
  %b = load <4 x i8>, ptr addrspace(1) %pi, align 4, !llvm.access.group !1
  %f = uitofp <4 x i8> %b to <4 x float>
  %w = fmul <4 x float> %f, <float 2.0, float 2.0, float 2.0, float 2.0>
  %po = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %x
  store <4 x float> %w, ptr addrspace(1) %po, align 16, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; One address written as a float4 on one path and as 4 bytes on the
; other: each element's address is of its own type, the bytes 1, 2 and 3
; bytes on, the floats 4, 8 and 12 (LLVM 15's Scalarizer gave the bytes
; the floats' addresses).
; CHECK: bytes:
; CHECK: [[B1:%[a-z0-9.]+]] = getelementptr i8, ptr addrspace(1) %p, i32 1
; CHECK: store i8 %{{[a-z0-9.]+}}, ptr addrspace(1) [[B1]], align 1
; CHECK: floats:
; CHECK: [[F1:%[a-z0-9.]+]] = getelementptr float, ptr addrspace(1) %p, i32 1
; CHECK: store float %{{[a-z0-9.]+}}, ptr addrspace(1) [[F1]], align 4
define void @refcl.run.texel(ptr addrspace(1) %img, ptr addrspace(1) %in, i1 %is.bytes, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %pin = getelementptr inbounds <4 x float>, ptr addrspace(1) %in, i64 %x
  %c = load <4 x float>, ptr addrspace(1) %pin, align 16, !llvm.access.group !1
  %c1 = fmul <4 x float> %c, %c
  %c2 = fmul <4 x float> %c1, %c
  %c3 = fmul <4 x float> %c2, %c
  %c4 = fmul <4 x float> %c3, %c
  %c5 = fmul <4 x float> %c4, %c
  %c6 = fmul <4 x float> %c5, %c
  %c7 = fmul <4 x float> %c6, %c
  %c8 = fmul <4 x float> %c7, %c
  %c9 = fmul <4 x float> %c8, %c
  %c10 = fmul <4 x float> %c9, %c
  %c11 = fmul <4 x float> %c10, %c
  %c12 = fmul <4 x float> %c11, %c
  %p = getelementptr inbounds <4 x float>, ptr addrspace(1) %img, i64 %x
  br i1 %is.bytes, label %bytes, label %floats

bytes:
  %b = fptoui <4 x float> %c12 to <4 x i8>
  store <4 x i8> %b, ptr addrspace(1) %p, align 16, !llvm.access.group !1
  br label %x.latch

floats:
  store <4 x float> %c12, ptr addrspace(1) %p, align 16, !llvm.access.group !1
  br label %x.latch

x.latch:
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !3

exit:
  ret void
}

; Two work-item loops, as a barrier's two regions: a transpose's tile
; written to __local memory a column at a time (scattered: kept whole) and
; read back a row at a time (consecutive: made element by element).
; CHECK-LABEL: define void @refcl.run.transpose(
; CHECK: x.scatter:
; CHECK: store <2 x float> %{{[a-z0-9.]+}}, ptr addrspace(3)
; CHECK: x.rows:
; CHECK: load float, ptr addrspace(3)
; CHECK: store float %{{[a-z0-9.]+}}, ptr addrspace(1)
; CHECK-NOT: store <2 x float>
define void @refcl.run.transpose(ptr addrspace(1) %in, ptr addrspace(3) %tile, ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.scatter

x.scatter:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.scatter ]
  %pi = getelementptr inbounds <2 x float>, ptr addrspace(1) %in, i64 %x
  %v = load <2 x float>, ptr addrspace(1) %pi, align 8, !llvm.access.group !1
  %column = mul i64 %x, 64
  %pt = getelementptr inbounds <2 x float>, ptr addrspace(3) %tile, i64 %column
  store <2 x float> %v, ptr addrspace(3) %pt, align 8, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %between, label %x.scatter, !llvm.loop !5

between:
  br label %x.rows

x.rows:
  %r = phi i64 [ 0, %between ], [ %r.next, %x.rows ]
  %pr = getelementptr inbounds <2 x float>, ptr addrspace(3) %tile, i64 %r
  %w = load <2 x float>, ptr addrspace(3) %pr, align 8, !llvm.access.group !6
  %po = getelementptr inbounds <2 x float>, ptr addrspace(1) %out, i64 %r
  store <2 x float> %w, ptr addrspace(1) %po, align 8, !llvm.access.group !6
  %r.next = add nuw i64 %r, 1
  %r.done = icmp eq i64 %r.next, %n
  br i1 %r.done, label %exit, label %x.rows, !llvm.loop !7

exit:
  ret void
}

attributes #0 = { "target-cpu"="x86-64-v4" "prefer-vector-width"="512" }

!1 = distinct !{}
!2 = distinct !{!2, !4}
!3 = distinct !{!3, !4}
!4 = !{!"llvm.loop.parallel_accesses", !1}
!5 = distinct !{!5, !4}
!6 = distinct !{}
!7 = distinct !{!7, !8}
!8 = !{!"llvm.loop.parallel_accesses", !6}
