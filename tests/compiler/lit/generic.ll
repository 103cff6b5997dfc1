; SPDX-License-Identifier: Apache-2.0
; refcl-workgroup: the generic address space's queries. A helper calling
; to_local (clang's __to_local) or get_fence is inlined into the
; work-group function, where each query becomes comparisons of the
; pointer with the group's __local block (local_mem, field 8, and
; local_bytes, field 1) and, for to_private and to_global, with the
; function's stack (from the stack pointer to its return address).
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-workgroup -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define spir_kernel void @spaces(ptr addrspace(1) %out) {
  %p = addrspacecast ptr addrspace(1) %out to ptr addrspace(4)
  %f = call i32 @fence(ptr addrspace(4) %p)
  store i32 %f, ptr addrspace(1) %out, align 4
  %l = call ptr addrspace(3) @__to_local(ptr addrspace(4) %p)
  %g = call ptr addrspace(1) @__to_global(ptr addrspace(4) %p)
  %pr = call ptr @__to_private(ptr addrspace(4) %p)
  ret void
}

; Reaches an address-space query: inlined.
define i32 @fence(ptr addrspace(4) %p) {
  %f = call i32 @_Z9get_fencePU9CLgenericv(ptr addrspace(4) %p)
  ret i32 %f
}

declare i32 @_Z9get_fencePU9CLgenericv(ptr addrspace(4))
declare ptr addrspace(3) @__to_local(ptr addrspace(4))
declare ptr addrspace(1) @__to_global(ptr addrspace(4))
declare ptr @__to_private(ptr addrspace(4))

; CHECK-LABEL: define internal void @refcl.run.spaces(
; CHECK-NOT: call {{.*}}@fence(
; get_fence: local when in [local_mem, local_mem + local_bytes).
; CHECK: [[ADDR:%.*]] = ptrtoint ptr addrspace(4) [[P:%.*]] to i64
; CHECK: getelementptr inbounds {{.*}}, ptr %1, i32 0, i32 8
; CHECK: getelementptr inbounds {{.*}}, ptr %1, i32 0, i32 1
; CHECK: [[BYTES:%.*]] = load i32
; CHECK: [[IN:%.*]] = icmp ult i64
; CHECK: select i1 [[IN]], i32 2, i32 1
; to_local: the pointer or NULL.
; CHECK: select i1 {{.*}}, ptr addrspace(3) {{.*}}, ptr addrspace(3) null
; to_global and to_private look at the stack.
; CHECK: call ptr @llvm.stacksave()
; CHECK: call ptr @llvm.addressofreturnaddress.p0()
; CHECK: select i1 {{.*}}, ptr addrspace(1) {{.*}}, ptr addrspace(1) null
; CHECK: select i1 {{.*}}, ptr {{.*}}, ptr null
; CHECK-NOT: call {{.*}}@__to_
; CHECK-NOT: call {{.*}}@_Z9get_fence
; CHECK: ret void
