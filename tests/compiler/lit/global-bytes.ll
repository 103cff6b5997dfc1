; SPDX-License-Identifier: Apache-2.0
; refcl-global-bytes: the table's CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE
; (its last field) counted again from the __global variables the module
; still defines, as at the end of the optimizer: the table said 1000 when
; it was made, the optimizer has left 8 + 6 bytes; __constant variables,
; declarations and the table itself do not count.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-global-bytes -S %s | FileCheck %s
; A table already right is left as it is.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-global-bytes,refcl-global-bytes -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@counter = internal addrspace(1) global i64 0, align 8
@shorts = internal addrspace(1) global [3 x i16] zeroinitializer, align 2
@limits = internal addrspace(2) constant [8 x i32] zeroinitializer, align 4
@elsewhere = external addrspace(1) global i64
@refcl.kernels = private constant [0 x ptr] zeroinitializer
@refcl_program_table = constant { i32, i32, ptr, i64 } { i32 3, i32 0, ptr @refcl.kernels, i64 1000 }, align 8

; CHECK: @refcl_program_table = constant { i32, i32, ptr, i64 } { i32 3, i32 0, ptr @refcl.kernels, i64 14 }, align 8
