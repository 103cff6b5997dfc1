; SPDX-License-Identifier: Apache-2.0
; refcl-internalize: every definition but refcl_program_table internal
; (with default visibility), declarations as they were.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-internalize -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-DAG: @refcl_program_table = constant i32 2
; CHECK-DAG: @counter = internal addrspace(1) global i32 0
; CHECK-DAG: @table_name = internal constant [2 x i8] c"k\00"
; CHECK-DAG: @imported = external global i32
@refcl_program_table = constant i32 2
@counter = hidden addrspace(1) global i32 0
@table_name = private constant [2 x i8] c"k\00"
@imported = external global i32

; CHECK-DAG: define internal spir_kernel void @k()
; CHECK-DAG: define internal void @refcl.run.k(ptr %args, ptr %group)
; CHECK-DAG: define internal void @helper()
; CHECK-DAG: declare i64 @_Z13get_global_idj(i32)
define spir_kernel void @k() {
  ret void
}

define void @refcl.run.k(ptr %args, ptr %group) {
  ret void
}

define linkonce_odr protected void @helper() {
  ret void
}

declare i64 @_Z13get_global_idj(i32)
