; SPDX-License-Identifier: Apache-2.0
; Image descriptors are never written by a kernel. refcl-workgroup's load
; of an image argument's descriptor address says so (!refcl.image, with
; the 64 bytes of a struct refcl_abi_image there, aligned to 8, never
; null); a buffer argument's load says nothing. Then refcl-invariant-images
; makes the loads of the descriptor's fields !invariant.load, through
; GEPs and casts, and not the loads through the address a field holds (the
; texels), nor a store.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s --check-prefix=WG
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-invariant-images -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; WG-LABEL: define internal void @refcl.run.k(
; WG: load ptr addrspace(1), ptr %{{[0-9a-z.]+}}, align 8, !nonnull ![[EMPTY:[0-9]+]], !dereferenceable ![[SIZE:[0-9]+]], !align ![[ALIGN:[0-9]+]], !refcl.image ![[EMPTY]]
; WG-NEXT: getelementptr inbounds i64, ptr %0, i32 1
; WG-NEXT: load ptr addrspace(1), ptr %{{[0-9a-z.]+}}, align 8{{$}}
; WG-DAG: ![[SIZE]] = !{i64 64}
; WG-DAG: ![[ALIGN]] = !{i64 8}
define spir_kernel void @k(ptr addrspace(1) %img, ptr addrspace(1) %out) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
  ret void
}

; CHECK-LABEL: define void @run(
define void @run(ptr %slot, ptr addrspace(1) %out) {
  %d = load ptr addrspace(1), ptr %slot, align 8, !refcl.image !0
; CHECK: %data = load ptr addrspace(1), ptr addrspace(1) %d, align 8, !invariant.load
  %data = load ptr addrspace(1), ptr addrspace(1) %d, align 8
; CHECK: %width = load i32, ptr addrspace(1) %w.at, align 4, !invariant.load
  %w.at = getelementptr inbounds i8, ptr addrspace(1) %d, i64 24
  %width = load i32, ptr addrspace(1) %w.at, align 4
; CHECK: %order = load i32, ptr %o.at, align 4, !invariant.load
  %generic = addrspacecast ptr addrspace(1) %d to ptr
  %o.at = getelementptr inbounds i8, ptr %generic, i64 44
  %order = load i32, ptr %o.at, align 4
; CHECK: %texel = load i32, ptr addrspace(1) %data, align 4{{$}}
  %texel = load i32, ptr addrspace(1) %data, align 4
  %sum = add i32 %texel, %width
  %all = add i32 %sum, %order
; CHECK: store i32 %all, ptr addrspace(1) %out, align 4{{$}}
  store i32 %all, ptr addrspace(1) %out, align 4
  ret void
}

!0 = !{}
!1 = !{i32 1, i32 1}
!2 = !{!"read_only", !"none"}
!3 = !{!"image2d_t", !"int*"}
!4 = !{!"", !""}
