; SPDX-License-Identifier: Apache-2.0
; refcl-jam-items on x86-64-v4's 512-bit registers: how many work-items run
; at a time follows the widest value a work-item computes, integer vectors
; included. A <16 x i32> fills a register and is kept whole: one register
; per work-item, 8 registers of them for the one chain its loop carries
; (W = 8; counting only floating point, the 32-bit store would have made it
; 16 per register, W = 128). A <8 x i32>, half a register, is made scalars
; first, each component a lane of the SLP vectorizer's vectors: the 256-bit
; store makes 2 work-items a register, and its 8 carried components leave
; 2 registers per chain (W = 4). prefer-vector-width gives the pass the
; registers' whole 512 bits, whatever LLVM's tuning for the CPU prefers.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-jam-items \
; RUN:   -pass-remarks-analysis=refcl-jam-items -S %s 2>%t.remarks | FileCheck %s
; RUN: FileCheck --check-prefix=REMARK %s < %t.remarks

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; REMARK: remark: <unknown>:0:0: kernel wide: work-items run 8 at a time
; REMARK: remark: <unknown>:0:0: kernel half: work-items run 4 at a time

; CHECK-LABEL: define void @refcl.run.wide(
; CHECK: %m.lane7 = mul <16 x i32> %acc.lane7, %acc.lane7
; CHECK-NOT: %m.lane8
; CHECK: ret void
define void @refcl.run.wide(ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %xi = trunc i64 %x to i32
  %v0 = insertelement <16 x i32> poison, i32 %xi, i64 0
  %v = shufflevector <16 x i32> %v0, <16 x i32> poison, <16 x i32> zeroinitializer
  br label %inner

inner:
  %i = phi i32 [ 0, %x.header ], [ %i.next, %inner ]
  %acc = phi <16 x i32> [ %v, %x.header ], [ %acc.next, %inner ]
  %m = mul <16 x i32> %acc, %acc
  %acc.next = add <16 x i32> %m, %v
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 100
  br i1 %done, label %x.latch, label %inner

x.latch:
  %acc.lcssa = phi <16 x i32> [ %acc.next, %inner ]
  %e = extractelement <16 x i32> %acc.lcssa, i64 3
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %x
  store i32 %e, ptr addrspace(1) %p, align 4, !llvm.access.group !1
  %x.next = add nuw i64 %x, 1
  %x.done = icmp eq i64 %x.next, %n
  br i1 %x.done, label %exit, label %x.header, !llvm.loop !2

exit:
  ret void
}

; CHECK-LABEL: define void @refcl.run.half(
; CHECK-NOT: mul <8 x i32>
; CHECK: %acc.i7.lane3 = phi i32
; CHECK-NOT: lane4
; CHECK: %m.i7.lane3 = mul i32 %acc.i7.lane3, %acc.i7.lane3
; CHECK: ret void
define void @refcl.run.half(ptr addrspace(1) %out, i64 %n) #0 {
entry:
  br label %x.header

x.header:
  %x = phi i64 [ 0, %entry ], [ %x.next, %x.latch ]
  %xi = trunc i64 %x to i32
  %v0 = insertelement <8 x i32> poison, i32 %xi, i64 0
  %v = shufflevector <8 x i32> %v0, <8 x i32> poison, <8 x i32> zeroinitializer
  br label %inner

inner:
  %i = phi i32 [ 0, %x.header ], [ %i.next, %inner ]
  %acc = phi <8 x i32> [ %v, %x.header ], [ %acc.next, %inner ]
  %m = mul <8 x i32> %acc, %acc
  %acc.next = add <8 x i32> %m, %v
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 100
  br i1 %done, label %x.latch, label %inner

x.latch:
  %acc.lcssa = phi <8 x i32> [ %acc.next, %inner ]
  %p = getelementptr inbounds <8 x i32>, ptr addrspace(1) %out, i64 %x
  store <8 x i32> %acc.lcssa, ptr addrspace(1) %p, align 32, !llvm.access.group !1
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
