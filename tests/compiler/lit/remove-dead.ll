; SPDX-License-Identifier: Apache-2.0
; refcl-remove-dead: internal functions nothing uses are removed, until
; none is left (a dead one's callees may be dead then); external ones and
; the internal ones something uses stay.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-remove-dead -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @refcl_program_table = constant ptr @refcl.run.k
@refcl_program_table = constant ptr @refcl.run.k

; CHECK-NOT: define {{.*}}@k(
; CHECK-NOT: define {{.*}}@only_from_k(
; CHECK: define internal void @refcl.run.k()
; CHECK-NEXT: call void @used()
; CHECK: define internal void @used()
; CHECK: define void @external()
; CHECK: declare i64 @_Z13get_global_idj(i32)
; CHECK-NOT: define
define internal spir_kernel void @k() {
  call void @only_from_k()
  ret void
}

define internal void @only_from_k() {
  %id = call i64 @_Z13get_global_idj(i32 0)
  ret void
}

define internal void @refcl.run.k() {
  call void @used()
  ret void
}

define internal void @used() {
  ret void
}

define void @external() {
  ret void
}

declare i64 @_Z13get_global_idj(i32)
