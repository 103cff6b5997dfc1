; SPDX-License-Identifier: Apache-2.0
; refcl-jam-items and a work-item's narrow vectors (float4, uchar4 on
; x86-64-v4). Where the work-item has no loop of its own, its loop is not
; jammed and its vectors stay whole, loads and stores and arithmetic: the
; SLP vectorizer would take no lanes out of its vector loads, and W copies
; of the work-item ran slower than one at a time. Where it has a loop, it
; is jammed, its arithmetic made scalars and its loads kept whole.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-jam-items \
; RUN:   -pass-remarks-analysis=refcl-jam-items -S %s 2>%t.remarks | FileCheck %s
; RUN: FileCheck --check-prefix=REMARK %s < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; REMARK-NOT: kernel pixels
; REMARK: remark: <unknown>:0:0: kernel chain4: work-items run 64 at a time
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

; A float4 work-item with a loop keeps its loads whole.
; CHECK-LABEL: define void @refcl.run.chain4(
; CHECK: %v = load <4 x float>
; CHECK: %v.lane1 = load <4 x float>
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

attributes #0 = { "target-cpu"="x86-64-v4" "prefer-vector-width"="512" }

!1 = distinct !{}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.parallel_accesses", !1}
