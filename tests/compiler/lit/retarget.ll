; SPDX-License-Identifier: Apache-2.0
; refcl-retarget<cpu=NAME> sets "target-cpu"=NAME on every function
; defined, replacing the front end's, and on no declaration; it needs a CPU
; and takes no other option.
; RUN: opt -load-pass-plugin=%plugin -passes='refcl-retarget<cpu=x86-64-v3>' -S %s | FileCheck %s
; RUN: not opt -load-pass-plugin=%plugin -passes=refcl-retarget -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-CPU
; RUN: not opt -load-pass-plugin=%plugin -passes='refcl-retarget<arch=x86-64-v3>' -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-OPTION

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: define void @baseline() #[[BASELINE:[0-9]+]]
define void @baseline() #0 {
  ret void
}

; CHECK: define void @plain() #[[PLAIN:[0-9]+]]
define void @plain() {
  call void @library()
  ret void
}

; CHECK: declare void @library(){{$}}
declare void @library()

; CHECK-DAG: attributes #[[BASELINE]] = { nounwind "target-cpu"="x86-64-v3" "target-features"="+sse2" }
; CHECK-DAG: attributes #[[PLAIN]] = { "target-cpu"="x86-64-v3" }
attributes #0 = { nounwind "target-cpu"="x86-64" "target-features"="+sse2" }

; NO-CPU: refcl-retarget: needs a CPU: refcl-retarget<cpu=NAME>
; BAD-OPTION: refcl-retarget: unknown option 'arch=x86-64-v3' (it takes cpu=NAME)
