; SPDX-License-Identifier: Apache-2.0
; The plugin's pipeline: before the vectorizer, a generic pointer that is a
; __global one converted (a helper taking generic pointers, inlined) is
; made __global again (InferAddressSpaces told OpenCL's generic space 4),
; so that the loop over it vectorizes as the same loop over __global
; pointers does (scalar evolution does not look through addrspacecast).
; RUN: opt -load-pass-plugin=%plugin -passes='default<O3>' -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @update(ptr addrspace(4) %x, ptr addrspace(4) %y) {
  %v = load float, ptr addrspace(4) %x, align 4
  %m = fmul float %v, 2.5
  store float %m, ptr addrspace(4) %y, align 4
  ret void
}

; CHECK-LABEL: define void @axpy(
; CHECK: load <4 x float>, ptr addrspace(1)
; CHECK: store <4 x float> {{.*}}, ptr addrspace(1)
; CHECK-NOT: addrspace(4)
define void @axpy(ptr addrspace(1) noalias %x, ptr addrspace(1) noalias %y, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  %gx = addrspacecast ptr addrspace(1) %px to ptr addrspace(4)
  %gy = addrspacecast ptr addrspace(1) %py to ptr addrspace(4)
  call void @update(ptr addrspace(4) %gx, ptr addrspace(4) %gy)
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
