; SPDX-License-Identifier: Apache-2.0
; refcl-adapt-calls: calls as llvm-spirv makes them (every value its plain
; IR type, spir_func) of definitions as clang's x86-64 lowering makes them
; (an 8-byte vector a double, a 2-byte one an i16, a 3-byte one in an i32,
; a 32-byte vector byval, a result through sret; aarch64's large vector by
; a plain pointer) are made again with the callee's type and calling
; convention; a call that differs in another way is left as it is. refcl-program<adapt-calls> runs it first.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-adapt-calls -S %s | FileCheck %s
; RUN: opt -load-pass-plugin=%plugin -passes='refcl-program<adapt-calls>' -S %s | FileCheck %s --check-prefix=PROGRAM
; RUN: not opt -load-pass-plugin=%plugin -passes='refcl-program<adapt>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-OPTION

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NEXT: [[BYVAL:%[0-9]+]] = alloca <8 x float>, align 32
; CHECK-NEXT: [[SRET:%[0-9]+]] = alloca <8 x float>, align 32
define spir_kernel void @k(ptr addrspace(1) %img, ptr addrspace(2) %smp, <2 x i32> %at, <2 x i8> %c2, <3 x i8> %c3, <8 x float> %f8, ptr addrspace(1) %out) {
; An 8-byte vector argument as a double, the result as it was.
; CHECK-NEXT: [[AT:%[0-9]+]] = bitcast <2 x i32> %at to double
; CHECK-NEXT: %texel = call <4 x float> @read_imagef(ptr addrspace(1) %img, ptr addrspace(2) %smp, double [[AT]])
  %texel = call spir_func <4 x float> @read_imagef(ptr addrspace(1) %img, ptr addrspace(2) %smp, <2 x i32> %at)
; CHECK-NEXT: store <4 x float> %texel
  store <4 x float> %texel, ptr addrspace(1) %out

; A 2-byte vector's arguments and result as i16.
; CHECK-NEXT: [[A:%[0-9]+]] = bitcast <2 x i8> %c2 to i16
; CHECK-NEXT: [[MAX:%[0-9]+]] = call i16 @max_char2(i16 [[A]], i16 bitcast (<2 x i8> <i8 1, i8 2> to i16))
; CHECK-NEXT: %max = bitcast i16 [[MAX]] to <2 x i8>
  %max = call spir_func <2 x i8> @max_char2(<2 x i8> %c2, <2 x i8> <i8 1, i8 2>)
; CHECK-NEXT: store <2 x i8> %max
  store <2 x i8> %max, ptr addrspace(1) %out

; A 3-byte vector as the i32 its memory is, the result's padding dropped.
; CHECK-NEXT: [[W:%[0-9]+]] = shufflevector <3 x i8> %c3, <3 x i8> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 undef>
; CHECK-NEXT: [[C:%[0-9]+]] = bitcast <4 x i8> [[W]] to i32
; CHECK-NEXT: [[ABS:%[0-9]+]] = call i32 @abs_char3(i32 [[C]])
; CHECK-NEXT: [[V:%[0-9]+]] = bitcast i32 [[ABS]] to <4 x i8>
; CHECK-NEXT: %abs = shufflevector <4 x i8> [[V]], <4 x i8> poison, <3 x i32> <i32 0, i32 1, i32 2>
  %abs = call spir_func <3 x i8> @abs_char3(<3 x i8> %c3)
; CHECK-NEXT: store <3 x i8> %abs
  store <3 x i8> %abs, ptr addrspace(1) %out

; A 32-byte vector stored and passed byval, the result through sret.
; CHECK-NEXT: store <8 x float> %f8, ptr [[BYVAL]], align 32
; CHECK-NEXT: call void @sqrt_float8(ptr [[SRET]], ptr [[BYVAL]])
; CHECK-NEXT: %root = load <8 x float>, ptr [[SRET]], align 32
  %root = call spir_func <8 x float> @sqrt_float8(<8 x float> %f8)
; CHECK-NEXT: store <8 x float> %root
  store <8 x float> %root, ptr addrspace(1) %out

; The same type: only the calling convention becomes the callee's.
; CHECK-NEXT: %same = call <4 x float> @same(<4 x float> %texel)
  %same = call spir_func <4 x float> @same(<4 x float> %texel)
; CHECK-NEXT: store <4 x float> %same
  store <4 x float> %same, ptr addrspace(1) %out

; Types of different sizes: left as they were.
; CHECK-NEXT: %other = call spir_func <2 x i32> @max_char2(<2 x i32> %at, <2 x i8> %c2)
  %other = call spir_func <2 x i32> @max_char2(<2 x i32> %at, <2 x i8> %c2)
  store <2 x i32> %other, ptr addrspace(1) %out
  ret void
}

; aarch64's large vector, by a plain pointer to the caller's copy.
; CHECK-LABEL: define void @indirect_caller(
; CHECK-NEXT: [[COPY:%[0-9]+]] = alloca <8 x float>, align 32
; CHECK-NEXT: store <8 x float> %f8, ptr [[COPY]], align 32
; CHECK-NEXT: %r = call <4 x float> @indirect(ptr [[COPY]])
define void @indirect_caller(<8 x float> %f8, ptr addrspace(1) %out) {
  %r = call spir_func <4 x float> @indirect(<8 x float> %f8)
  store <4 x float> %r, ptr addrspace(1) %out
  ret void
}

define <4 x float> @indirect(ptr noundef %x) {
  %v = load <4 x float>, ptr %x, align 32
  ret <4 x float> %v
}

; PROGRAM: define internal void @refcl.run.k(
; PROGRAM: call <4 x float> @read_imagef(ptr addrspace(1) %{{[0-9a-z.]+}}, ptr addrspace(2) %{{[0-9a-z.]+}}, double %{{[0-9]+}})

define <4 x float> @read_imagef(ptr addrspace(1) %img, ptr addrspace(2) %smp, double noundef %at) {
  ret <4 x float> zeroinitializer
}

define i16 @max_char2(i16 noundef %a, i16 noundef %b) {
  ret i16 %a
}

define i32 @abs_char3(i32 %a) {
  ret i32 %a
}

define void @sqrt_float8(ptr noalias sret(<8 x float>) align 32 %r, ptr noundef byval(<8 x float>) align 32 %x) {
  %v = load <8 x float>, ptr %x, align 32
  store <8 x float> %v, ptr %r, align 32
  ret void
}

define <4 x float> @same(<4 x float> %v) {
  ret <4 x float> %v
}

; BAD-OPTION: refcl-program: unknown option 'adapt' (it takes cpu=NAME;adapt-calls)
