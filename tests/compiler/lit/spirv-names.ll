; SPDX-License-Identifier: Apache-2.0
; refcl-spirv-names: the translator's Itanium names, with SPIR's address
; spaces (U3AS1 global, U3AS2 constant, U3AS3 local, U3AS4 generic, a bare P
; private), become the library's (clang's -ffake-address-space-map
; spelling), definitions too (a function another module declares);
; substitutions and class names as they were; a declaration whose new name
; exists already with its type is replaced by it; unmangled names stay.
; A linkonce_odr definition becomes weak_odr (llvm-link would drop it
; before another object that declares it is linked).
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-spirv-names -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @k(ptr addrspace(1) %g, ptr addrspace(2) %c, ptr addrspace(3) %l, ptr addrspace(4) %p, ptr %q) {
; CHECK: call i32 @_Z10atomic_incPU8CLglobalVi(ptr addrspace(1) %g)
  %1 = call i32 @_Z10atomic_incPU3AS1Vi(ptr addrspace(1) %g)
; CHECK: call <4 x float> @_Z6vload4mPU10CLconstantKf(i64 0, ptr addrspace(2) %c)
  %2 = call <4 x float> @_Z6vload4mPU3AS2Kf(i64 0, ptr addrspace(2) %c)
; CHECK: call <4 x float> @_Z6vload4mPU7CLlocalKf(i64 0, ptr addrspace(3) %l)
  %3 = call <4 x float> @_Z6vload4mPU3AS3Kf(i64 0, ptr addrspace(3) %l)
; CHECK: call float @_Z5fractfPU9CLgenericf(float 1.0{{.*}}, ptr addrspace(4) %p)
  %4 = call float @_Z5fractfPU3AS4f(float 1.0, ptr addrspace(4) %p)
; CHECK: call float @_Z6sincosfPU9CLprivatef(float 1.0{{.*}}, ptr %q)
  %5 = call float @_Z6sincosfPf(float 1.0, ptr %q)
; CHECK: call <4 x float> @_Z6sincosDv4_fPU9CLprivateS_(<4 x float> zeroinitializer, ptr %q)
  %6 = call <4 x float> @_Z6sincosDv4_fPS_(<4 x float> zeroinitializer, ptr %q)
; A class name with a P in it is not a pointer.
; CHECK: call i32 @_Z5probe12Pixel_formatPU8CLglobali(ptr %q, ptr addrspace(1) %g)
  %7 = call i32 @_Z5probe12Pixel_formatPU3AS1i(ptr %q, ptr addrspace(1) %g)
; Already the library's: one declaration left.
; CHECK: call i32 @_Z10atomic_decPU8CLglobalVi(ptr addrspace(1) %g)
; CHECK: call i32 @_Z10atomic_decPU8CLglobalVi(ptr addrspace(1) %g)
  %8 = call i32 @_Z10atomic_decPU3AS1Vi(ptr addrspace(1) %g)
  %9 = call i32 @_Z10atomic_decPU8CLglobalVi(ptr addrspace(1) %g)
; CHECK: call void @_Z4minePU9CLprivate4Node(ptr %q)
  call void @_Z4mineP4Node(ptr %q)
; CHECK: call void @plain(ptr %q)
  call void @plain(ptr %q)
  ret void
}

; A definition too.
; CHECK: define void @_Z4minePU9CLprivate4Node(
define void @_Z4mineP4Node(ptr %n) {
  ret void
}

; CHECK: define weak_odr i32 @once(
define linkonce_odr i32 @once(i32 %x) {
  ret i32 %x
}

; CHECK-NOT: declare {{.*}}U3AS
; CHECK-NOT: @_Z10atomic_decPU3AS1Vi
declare i32 @_Z10atomic_incPU3AS1Vi(ptr addrspace(1))
declare i32 @_Z10atomic_decPU3AS1Vi(ptr addrspace(1))
declare i32 @_Z10atomic_decPU8CLglobalVi(ptr addrspace(1))
declare <4 x float> @_Z6vload4mPU3AS2Kf(i64, ptr addrspace(2))
declare <4 x float> @_Z6vload4mPU3AS3Kf(i64, ptr addrspace(3))
declare float @_Z5fractfPU3AS4f(float, ptr addrspace(4))
declare float @_Z6sincosfPf(float, ptr)
declare <4 x float> @_Z6sincosDv4_fPS_(<4 x float>, ptr)
declare i32 @_Z5probe12Pixel_formatPU3AS1i(ptr, ptr addrspace(1))
declare void @plain(ptr)
