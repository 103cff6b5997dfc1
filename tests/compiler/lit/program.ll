; SPDX-License-Identifier: Apache-2.0
; refcl-program<cpu=NAME>, the module steps clang's pipeline runs at its
; start, in order: retarget, strip-optnone, guard-division, workgroup,
; program-table, internalize, remove-dead, verify. A module with a table
; already is left as it is (the second refcl-program here: its CPU is not
; set).
; RUN: opt -load-pass-plugin=%plugin -passes='refcl-program<cpu=x86-64-v2>,refcl-program<cpu=x86-64-v4>' -S %s | FileCheck %s
; Without a CPU, no "target-cpu" is changed (the clang pipeline's default
; when -refcl-target-cpu is not given).
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-program -S %s | FileCheck %s --check-prefix=NO-CPU

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @refcl_program_table = constant { i32, i32, ptr, i64 } { i32 5, i32 1, ptr @refcl.kernels, i64 0 }
; CHECK-NOT: define {{.*}}@divide(
; CHECK-NOT: define {{.*}}@ratio(
; CHECK: define internal void @refcl.run.divide(ptr noalias nocapture readonly %0, ptr noalias nocapture readonly %1) #[[ATTRS:[0-9]+]]
; The division, inlined from @ratio, guarded.
; CHECK: [[DIVISOR:%.*]] = select i1 %{{.*}}, i32 1, i32 %{{[0-9]+}}
; CHECK-NEXT: %q.i{{[0-9]*}} = sdiv i32 %i.i, [[DIVISOR]]
; CHECK-NOT: define
; CHECK: attributes #[[ATTRS]] = { nounwind "target-cpu"="x86-64-v2" }
; CHECK-NOT: !refcl.kernels
; NO-CPU: attributes #{{[0-9]+}} = { nounwind "target-cpu"="x86-64" }

define spir_kernel void @divide(ptr addrspace(1) %out, i32 %by) #0 {
  %id = call i64 @_Z13get_global_idj(i32 0)
  %i = trunc i64 %id to i32
  %q = call i32 @ratio(i32 %i, i32 %by)
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %id
  store i32 %q, ptr addrspace(1) %p, align 4
  ret void
}

; Inlined although -O0 made it noinline: it reaches get_local_size.
define i32 @ratio(i32 %a, i32 %b) #0 {
  %size = call i64 @_Z14get_local_sizej(i32 0)
  %s = trunc i64 %size to i32
  %q = sdiv i32 %a, %b
  %r = add i32 %q, %s
  ret i32 %r
}

declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z14get_local_sizej(i32)

attributes #0 = { noinline nounwind optnone "target-cpu"="x86-64" }
