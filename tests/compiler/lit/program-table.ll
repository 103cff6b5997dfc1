; SPDX-License-Identifier: Apache-2.0
; refcl-program-table: refcl_program_table (refcl/kernel_abi.h) from the
; kernels !refcl.kernels records, with their arguments and attributes from
; clang's kernel metadata and the program-scope __global variables' bytes;
; the record is consumed. refcl-work-items-per-step then puts in the kernel's
; entry the work-items refcl-jam-items runs at a time, which it leaves on the
; work-group function.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-program-table -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%plugin \
; RUN:   -passes='refcl-program-table,refcl-work-items-per-step' -S %s \
; RUN:   | FileCheck --check-prefix=STEPS %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; 16 bytes of __global variables; __constant ones and declarations do not count.
@counts = addrspace(1) global [4 x i32] zeroinitializer, align 4
@limits = addrspace(2) constant [8 x i32] zeroinitializer, align 4
@elsewhere = external addrspace(1) global i64

define spir_kernel void @k(ptr addrspace(1) align 4 %out, i32 %n, ptr addrspace(3) align 8 %scratch) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 !kernel_arg_name !5 !reqd_work_group_size !6 {
  ret void
}

define internal void @refcl.run.k(ptr %args, ptr %group) #0 {
  ret void
}

!refcl.kernels = !{!0}
; A barrier, printf, 64 bytes of __local variables, a 128-byte frame, 132 private bytes.
!0 = !{ptr @k, ptr @refcl.run.k, i1 true, i1 true, i64 64, i64 128, i64 132, i64 8}
!1 = !{i32 1, i32 0, i32 3}
!2 = !{!"none", !"none", !"none"}
!3 = !{!"int*", !"int", !"float4*"}
!4 = !{!"const restrict", !"", !""}
!5 = !{!"out", !"n", !"scratch"}
!6 = !{i32 8, i32 2, i32 1}

; CHECK-DAG: @[[NAME:refcl.str[.0-9]*]] = private unnamed_addr constant [2 x i8] c"k\00"
; CHECK-DAG: @[[OUT:refcl.str[.0-9]*]] = private unnamed_addr constant [4 x i8] c"out\00"
; CHECK-DAG: @[[INT_PTR:refcl.str[.0-9]*]] = private unnamed_addr constant [5 x i8] c"int*\00"
; CHECK-DAG: @[[ATTRIBUTES:refcl.str[.0-9]*]] = private unnamed_addr constant [28 x i8] c"reqd_work_group_size(8,2,1)\00"
; Arguments: kind (GLOBAL 1, VALUE 0, LOCAL 3), size, alignment, access
; (CL_KERNEL_ARG_ACCESS_NONE), type qualifiers (const | restrict), type, name.
; CHECK-DAG: @refcl.args.k = private constant [3 x { i32, i32, i32, i32, i64, ptr, ptr }] [{ i32, i32, i32, i32, i64, ptr, ptr } { i32 1, i32 8, i32 4, i32 4515, i64 3, ptr @[[INT_PTR]], ptr @[[OUT]] }, { i32, i32, i32, i32, i64, ptr, ptr } { i32 0, i32 4, i32 4, i32 4515, i64 0, ptr @{{refcl.str[.0-9]*}}, ptr @{{refcl.str[.0-9]*}} }, { i32, i32, i32, i32, i64, ptr, ptr } { i32 3, i32 8, i32 8, i32 4515, i64 0, ptr @{{refcl.str[.0-9]*}}, ptr @{{refcl.str[.0-9]*}} }]
; The kernel: name, work-group function, 3 arguments, a barrier, its
; arguments, 64 __local bytes, a 128-byte frame, 132 private bytes,
; reqd_work_group_size, no work_group_size_hint, no vec_type_hint, the
; attributes' string, printf.
; CHECK-DAG: @refcl.kernels = private constant [1 x { ptr, ptr, i32, i32, ptr, i64, i64, i64, [3 x i32], [3 x i32], ptr, ptr, i32, i32, i32 }] [{ ptr, ptr, i32, i32, ptr, i64, i64, i64, [3 x i32], [3 x i32], ptr, ptr, i32, i32, i32 } { ptr @[[NAME]], ptr @refcl.run.k, i32 3, i32 1, ptr @refcl.args.k, i64 64, i64 128, i64 132, [3 x i32] [i32 8, i32 2, i32 1], [3 x i32] zeroinitializer, ptr null, ptr @[[ATTRIBUTES]], i32 1, i32 8, i32 0 }]
; Version 3 (REFCL_ABI_VERSION), one kernel, 16 bytes of __global variables.
; STEPS: @refcl.kernels = {{.*}} ptr @refcl.run.k, {{.*}}, i32 1, i32 8, i32 128 }]
; CHECK-DAG: @refcl_program_table = constant { i32, i32, ptr, i64 } { i32 5, i32 1, ptr @refcl.kernels, i64 16 }, align 8
; The record is gone.
; CHECK-NOT: !refcl.kernels

attributes #0 = { "refcl-work-items-per-step"="128" }
