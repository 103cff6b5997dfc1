; SPDX-License-Identifier: Apache-2.0
; refcl-program-table: images and samplers as arguments. An image is
; REFCL_ABI_ARG_IMAGE (4) with its access qualifier and its type's name,
; whatever typedef names it (the kind follows kernel_arg_base_type); a
; sampler is REFCL_ABI_ARG_SAMPLER (5); both have 8-byte slots aligned to
; 8. A pipe is REFCL_ABI_ARG_UNSUPPORTED (6).
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-program-table -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @k(ptr addrspace(1) %src, ptr addrspace(1) %dst, ptr addrspace(1) %rw, ptr addrspace(1) %named, ptr addrspace(2) %s, ptr addrspace(1) %p, ptr addrspace(1) align 4 %out) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !4 !kernel_arg_type_qual !5 {
  ret void
}

define internal void @refcl.run.k(ptr %args, ptr %group) {
  ret void
}

!refcl.kernels = !{!0}
!0 = !{ptr @k, ptr @refcl.run.k, i1 false, i1 false, i64 0, i64 0, i64 0, i64 4}
!1 = !{i32 1, i32 1, i32 1, i32 1, i32 0, i32 1, i32 1}
!2 = !{!"read_only", !"write_only", !"read_write", !"read_only", !"none", !"read_only", !"none"}
!3 = !{!"image2d_t", !"image3d_t", !"image2d_array_depth_t", !"picture", !"sampler_t", !"int", !"image2d_t*"}
!4 = !{!"image2d_t", !"image3d_t", !"image2d_array_depth_t", !"image1d_buffer_t", !"sampler_t", !"int", !"image2d_t*"}
!5 = !{!"", !"", !"", !"", !"", !"pipe", !""}

; CHECK-DAG: @[[IMAGE2D:refcl.str[.0-9]*]] = private unnamed_addr constant [10 x i8] c"image2d_t\00"
; CHECK-DAG: @[[IMAGE3D:refcl.str[.0-9]*]] = private unnamed_addr constant [10 x i8] c"image3d_t\00"
; CHECK-DAG: @[[ARRAY:refcl.str[.0-9]*]] = private unnamed_addr constant [22 x i8] c"image2d_array_depth_t\00"
; CHECK-DAG: @[[PICTURE:refcl.str[.0-9]*]] = private unnamed_addr constant [8 x i8] c"picture\00"
; CHECK-DAG: @[[SAMPLER:refcl.str[.0-9]*]] = private unnamed_addr constant [10 x i8] c"sampler_t\00"
; Kinds IMAGE (4) with CL_KERNEL_ARG_ACCESS_READ_ONLY, _WRITE_ONLY,
; _READ_WRITE (0x11A0-0x11A2), SAMPLER (5) with _NONE (0x11A3), a pipe
; UNSUPPORTED (6) with the pipe qualifier (8), and a pointer to images,
; which no kernel can have, still a __global pointer (1).
; CHECK-DAG: @refcl.args.k = private constant [7 x { i32, i32, i32, i32, i64, ptr, ptr }] [{ i32, i32, i32, i32, i64, ptr, ptr } { i32 4, i32 8, i32 8, i32 4512, i64 0, ptr @[[IMAGE2D]], ptr null }, { i32, i32, i32, i32, i64, ptr, ptr } { i32 4, i32 8, i32 8, i32 4513, i64 0, ptr @[[IMAGE3D]], ptr null }, { i32, i32, i32, i32, i64, ptr, ptr } { i32 4, i32 8, i32 8, i32 4514, i64 0, ptr @[[ARRAY]], ptr null }, { i32, i32, i32, i32, i64, ptr, ptr } { i32 4, i32 8, i32 8, i32 4512, i64 0, ptr @[[PICTURE]], ptr null }, { i32, i32, i32, i32, i64, ptr, ptr } { i32 5, i32 8, i32 8, i32 4515, i64 0, ptr @[[SAMPLER]], ptr null }, { i32, i32, i32, i32, i64, ptr, ptr } { i32 6, i32 8, i32 1, i32 4512, i64 8, ptr @{{refcl.str[.0-9]*}}, ptr null }, { i32, i32, i32, i32, i64, ptr, ptr } { i32 1, i32 8, i32 4, i32 4515, i64 0, ptr @{{refcl.str[.0-9]*}}, ptr null }]
