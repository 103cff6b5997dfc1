; SPDX-License-Identifier: Apache-2.0
; refcl-strip-optnone removes optnone and the noinline that comes with it
; (clang's -O0 marks every function with both), and nothing else: a
; noinline without optnone (the builtin library's, a kernel author's)
; stays, as does everything on a declaration.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-strip-optnone -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: define void @kernel() #[[KERNEL:[0-9]+]]
define void @kernel() #0 {
  call void @helper()
  call void @kept()
  ret void
}

; CHECK: define void @helper() #[[HELPER:[0-9]+]]
define void @helper() #1 {
  ret void
}

; CHECK: define void @kept() #[[KEPT:[0-9]+]]
define void @kept() #2 {
  ret void
}

; CHECK: declare void @elsewhere() #[[KEPT]]
declare void @elsewhere() #2

; CHECK-DAG: attributes #[[KERNEL]] = { convergent nounwind }
; CHECK-DAG: attributes #[[HELPER]] = { "target-cpu"="x86-64" }
; CHECK-DAG: attributes #[[KEPT]] = { noinline "target-cpu"="x86-64" }
attributes #0 = { convergent noinline nounwind optnone }
attributes #1 = { noinline optnone "target-cpu"="x86-64" }
attributes #2 = { noinline "target-cpu"="x86-64" }
