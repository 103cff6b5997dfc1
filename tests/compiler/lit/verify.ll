; SPDX-License-Identifier: Apache-2.0
; refcl-verify: a module the verifier rejects ends the compile with the
; verifier's log and a fatal error (a build log, not a miscompile); a valid
; one passes unchanged.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-verify -S %s | FileCheck %s --check-prefix=VALID
; RUN: sed 's/;BROKEN //' %s > %t.ll
; RUN: not --crash opt -disable-verify -load-pass-plugin=%plugin -passes=refcl-verify -S %t.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=BROKEN

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; VALID: define i32 @f(i32 %a)
; VALID-NEXT: %b = add i32 %a, 1
; BROKEN: Instruction does not dominate all uses!
; BROKEN: LLVM ERROR: refcl: the work-group passes made invalid IR
define i32 @f(i32 %a) {
;BROKEN  %c = add i32 %b, 1
  %b = add i32 %a, 1
  ret i32 %b
}
