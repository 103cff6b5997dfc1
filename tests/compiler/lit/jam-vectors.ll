; SPDX-License-Identifier: Apache-2.0
; refcl-jam-items and a work-item's narrow vectors (float4, uchar4 on
; x86-64-v4). Where the work-item has no loop of its own, its loop is not
; jammed and its vectors stay whole, loads and stores and arithmetic: the
; SLP vectorizer would take no lanes out of its vector loads, and W copies
; of the work-item ran slower than one at a time. Where it has a loop, it
; is jammed, its arithmetic made scalars and its loads kept whole. A vector
; the loop carries round whose component c is made of component c of the
; work-item's vectors and of values all work-items share (a float4
; accumulator times a shared scalar, a GEMM's tile) has its copies ordered
; work-item by work-item, its components together, so that the SLP
; vectorizer's registers hold whole work-items; one whose components mix
; (an n-body step's acceleration, a dot product in it) keeps them ordered
; component by component, each register one component of many work-items.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-jam-items \
; RUN:   -pass-remarks-analysis=refcl-jam-items -S %s 2>%t.remarks | FileCheck %s
; RUN: FileCheck --check-prefix=REMARK %s < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; REMARK-NOT: kernel pixels
; REMARK: remark: <unknown>:0:0: kernel chain4: work-items run 64 at a time, 4 to a register, their vectors of 4 whole{{$}}
; REMARK: remark: <unknown>:0:0: kernel tile4: work-items run 32 at a time, 4 to a register, their vectors of 4 whole{{$}}
; REMARK: remark: <unknown>:0:0: kernel mixed4: work-items run 64 at a time{{$}}
; REMARK: remark: <unknown>:0:0: kernel tile4slot: work-items run 64 at a time, 4 to a register, their vectors of 4 whole{{$}}
; REMARK-NOT: kernel pixels

; CHECK-LABEL: define void @refcl.run.pixels(
; CHECK: load <4 x i8>
; CHECK: load <4 x float>
; CHECK: fmul <4 x float>
; CHECK: store <4 x float>
; CHECK-NOT: lane1
; CHECK: ret void
define void @refcl.run.pixels(ptr addrspace(1) %img, ptr addrspace(1) %out, i1 %is.bytes, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %px = getelementptr inbounds <4 x float>, ptr addrspace(1) %img, i64 %x
  br i1 %is.bytes, label %bytes, label %floats

bytes:
  %b = load <4 x i8>, ptr addrspace(1) %px, align 1, !llvm.access.group !1
  %bf = uitofp <4 x i8> %b to <4 x float>
  br label %x.latch

floats:
  %f = load <4 x float>, ptr addrspace(1) %px, align 16, !llvm.access.group !1
  br label %x.latch

x.latch:
  %v = phi <4 x float> [ %bf, %bytes ], [ %f, %floats ]
  %w = fmul <4 x float> %v, <float 2.0, float 2.0, float 2.0, float 2.0>
  %po = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %x
  store <4 x float> %w, ptr addrspace(1) %po, align 16, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; A float4 work-item with a loop keeps its loads whole; its accumulator's
; copies are ordered by work-item.
; CHECK-LABEL: define void @refcl.run.chain4(
; CHECK: %v = load <4 x float>
; CHECK: %v.lane1 = load <4 x float>
; CHECK: inner:
; CHECK: %acc.i0 = phi float
; CHECK-NEXT: %acc.i1 = phi float
; CHECK-NEXT: %acc.i2 = phi float
; CHECK-NEXT: %acc.i3 = phi float
; CHECK-NEXT: %acc.i0.lane1 = phi float
; CHECK-NEXT: %acc.i1.lane1 = phi float
; CHECK: fmul float
; CHECK-NOT: fmul <4 x float>
; CHECK: ret void
define void @refcl.run.chain4(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %pi = getelementptr inbounds <4 x float>, ptr addrspace(1) %in, i64 %x
  %v = load <4 x float>, ptr addrspace(1) %pi, align 16, !llvm.access.group !1
  br label %inner

inner:
  %i = phi i32 [ 0, %x.header ], [ %i.next, %inner ]
  %acc = phi <4 x float> [ %v, %x.header ], [ %acc.next, %inner ]
  %acc.next = fmul <4 x float> %acc, %v
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 100
  br i1 %done, label %x.latch, label %inner

x.latch:
  %r = phi <4 x float> [ %acc.next, %inner ]
  %po = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %x
  store <4 x float> %r, ptr addrspace(1) %po, align 16, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; A GEMM's tile: two float4 accumulators of the work-item's own row of A,
; each times a scalar of B all work-items share. 2 x 4 floats carried per
; work-item: 32 work-items fill the 16 registers of chains, 4 to a register.
; Each vector's copies are ordered work-item by work-item, the exit's
; phis too; the scalar counter stays where it was.
; CHECK-LABEL: define void @refcl.run.tile4(
; CHECK: k:
; CHECK-NEXT: %k.i = phi i32
; CHECK-NEXT: %c0.i0 = phi float
; CHECK-NEXT: %c0.i1 = phi float
; CHECK-NEXT: %c0.i2 = phi float
; CHECK-NEXT: %c0.i3 = phi float
; CHECK-NEXT: %c0.i0.lane1 = phi float
; CHECK-NEXT: %c0.i1.lane1 = phi float
; CHECK-NEXT: %c0.i2.lane1 = phi float
; CHECK-NEXT: %c0.i3.lane1 = phi float
; CHECK-NEXT: %c0.i0.lane2 = phi float
; CHECK: %c0.i3.lane31 = phi float
; CHECK-NEXT: %c1.i0 = phi float
; CHECK-NEXT: %c1.i1 = phi float
; CHECK: x.latch:
; CHECK-NEXT: %r0.i0 = phi float
; CHECK-NEXT: %r0.i1 = phi float
; CHECK-NEXT: %r0.i2 = phi float
; CHECK-NEXT: %r0.i3 = phi float
; CHECK-NEXT: %r0.i0.lane1 = phi float
; CHECK: ret void
define void @refcl.run.tile4(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c,
                             i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  br label %k

k:
  %k.i = phi i32 [ 0, %x.header ], [ %k.next, %k ]
  %c0 = phi <4 x float> [ zeroinitializer, %x.header ], [ %c0.next, %k ]
  %c1 = phi <4 x float> [ zeroinitializer, %x.header ], [ %c1.next, %k ]
  %k.wide = zext i32 %k.i to i64
  %row = mul i64 %k.wide, %n
  %ia = add i64 %row, %x
  %pa = getelementptr inbounds <4 x float>, ptr addrspace(1) %a, i64 %ia
  %va = load <4 x float>, ptr addrspace(1) %pa, align 16, !llvm.access.group !1
  %pb = getelementptr inbounds <2 x float>, ptr addrspace(1) %b, i64 %k.wide
  %vb = load <2 x float>, ptr addrspace(1) %pb, align 8, !llvm.access.group !1
  %b0 = shufflevector <2 x float> %vb, <2 x float> poison, <4 x i32> zeroinitializer
  %b1 = shufflevector <2 x float> %vb, <2 x float> poison, <4 x i32> <i32 1, i32 1, i32 1, i32 1>
  %c0.next = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %va, <4 x float> %b0, <4 x float> %c0)
  %c1.next = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %va, <4 x float> %b1, <4 x float> %c1)
  %k.next = add i32 %k.i, 1
  %k.done = icmp eq i32 %k.next, 64
  br i1 %k.done, label %x.latch, label %k

x.latch:
  %r0 = phi <4 x float> [ %c0.next, %k ]
  %r1 = phi <4 x float> [ %c1.next, %k ]
  %x2 = shl i64 %x, 1
  %pc0 = getelementptr inbounds <4 x float>, ptr addrspace(1) %c, i64 %x2
  store <4 x float> %r0, ptr addrspace(1) %pc0, align 16, !llvm.access.group !1
  %x2.1 = or i64 %x2, 1
  %pc1 = getelementptr inbounds <4 x float>, ptr addrspace(1) %c, i64 %x2.1
  store <4 x float> %r1, ptr addrspace(1) %pc1, align 16, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; An acceleration whose every component takes the work-item's distance,
; a sum over its components: its copies stay ordered component by
; component, and the work-items run as many at a time as without vectors.
; CHECK-LABEL: define void @refcl.run.mixed4(
; CHECK: j:
; CHECK-NEXT: %j.i = phi i32
; CHECK-NEXT: %acc.i0 = phi float
; CHECK-NEXT: %acc.i0.lane1 = phi float
; CHECK: ret void
define void @refcl.run.mixed4(ptr addrspace(1) %pos, ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %pp = getelementptr inbounds <4 x float>, ptr addrspace(1) %pos, i64 %x
  %p = load <4 x float>, ptr addrspace(1) %pp, align 16, !llvm.access.group !1
  br label %j

j:
  %j.i = phi i32 [ 0, %x.header ], [ %j.next, %j ]
  %acc = phi <4 x float> [ zeroinitializer, %x.header ], [ %acc.next, %j ]
  %j.wide = zext i32 %j.i to i64
  %pq = getelementptr inbounds <4 x float>, ptr addrspace(1) %pos, i64 %j.wide
  %q = load <4 x float>, ptr addrspace(1) %pq, align 16, !llvm.access.group !1
  %d = fsub <4 x float> %q, %p
  %dd = fmul <4 x float> %d, %d
  %d0 = extractelement <4 x float> %dd, i64 0
  %d1 = extractelement <4 x float> %dd, i64 1
  %r2 = fadd float %d0, %d1
  %s.0 = insertelement <4 x float> poison, float %r2, i64 0
  %s = shufflevector <4 x float> %s.0, <4 x float> poison, <4 x i32> zeroinitializer
  %acc.next = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %d, <4 x float> %s, <4 x float> %acc)
  %j.next = add i32 %j.i, 1
  %j.done = icmp eq i32 %j.next, 64
  br i1 %j.done, label %x.latch, label %j

x.latch:
  %r = phi <4 x float> [ %acc.next, %j ]
  %po = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %x
  store <4 x float> %r, ptr addrspace(1) %po, align 16, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>)

; The tile's accumulator stored to consecutive work-items' 16 bytes each
; (its frame slot when a barrier cuts the loop that carries it): four
; work-items' float4s are one store of a 512-bit register, built from the
; scalars themselves, and no float4 is built for a store of its own.
; CHECK-LABEL: define void @refcl.run.tile4slot(
; CHECK: x.latch:
; CHECK-NOT: store <4 x float>
; CHECK: [[WHOLE:%[0-9]+]] = insertelement <16 x float> {{%[0-9]+}}, float %r0.i3.lane3, i64 15
; CHECK-NEXT: store <16 x float> [[WHOLE]], ptr addrspace(1) %pc0, align 16
; CHECK-NOT: store <4 x float>
; CHECK: br i1 %niter.ncmp.lane63, label %exit.unr-lcssa.loopexit, label %x.header
define void @refcl.run.tile4slot(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c,
                                 i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  br label %k

k:
  %k.i = phi i32 [ 0, %x.header ], [ %k.next, %k ]
  %c0 = phi <4 x float> [ zeroinitializer, %x.header ], [ %c0.next, %k ]
  %k.wide = zext i32 %k.i to i64
  %row = mul i64 %k.wide, %n
  %ia = add i64 %row, %x
  %pa = getelementptr inbounds <4 x float>, ptr addrspace(1) %a, i64 %ia
  %va = load <4 x float>, ptr addrspace(1) %pa, align 16, !llvm.access.group !1
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %k.wide
  %vb = load float, ptr addrspace(1) %pb, align 4, !llvm.access.group !1
  %b.head = insertelement <4 x float> poison, float %vb, i64 0
  %b0 = shufflevector <4 x float> %b.head, <4 x float> poison, <4 x i32> zeroinitializer
  %c0.next = call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %va, <4 x float> %b0, <4 x float> %c0)
  %k.next = add i32 %k.i, 1
  %k.done = icmp eq i32 %k.next, 64
  br i1 %k.done, label %x.latch, label %k

x.latch:
  %r0 = phi <4 x float> [ %c0.next, %k ]
  %pc0 = getelementptr inbounds <4 x float>, ptr addrspace(1) %c, i64 %x
  store <4 x float> %r0, ptr addrspace(1) %pc0, align 16, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

attributes #0 = { "target-cpu"="x86-64-v4" "prefer-vector-width"="512" }

!1 = distinct !{}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.parallel_accesses", !1}
