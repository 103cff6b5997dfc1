; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup moves a private array that lives across a barrier into
; the work-item's slot of group->frames: slot k of every work-item, then
; slot k+1, each work-item's as aligned as the array was. A 20-byte array
; aligned to 16 takes 32 bytes a work-item (its size rounded to its
; alignment), so that every work-item's copy starts 16-aligned. (Read
; at an index the kernel is given, the array stays an array.)
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @keep(ptr addrspace(1) %out, i64 %n) {
  %arr = alloca [5 x i32], align 16
  store <4 x i32> <i32 1, i32 2, i32 3, i32 4>, ptr %arr, align 16
  call void @_Z7barrierj(i32 1)
  %at = getelementptr inbounds [5 x i32], ptr %arr, i64 0, i64 %n
  %v = load i32, ptr %at, align 4
  %gid = call i64 @_Z13get_global_idj(i32 0)
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %gid
  store i32 %v, ptr addrspace(1) %o, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare void @_Z7barrierj(i32)

; CHECK-LABEL: define internal void @refcl.run.keep(
; CHECK: [[ITEM_OFFSET:%[0-9]+]] = mul i64 %refcl.lid2{{[.a-z0-9]*}}, 32
; CHECK-NOT: mul i64 %refcl.lid2{{[.a-z0-9]*}}, 20
