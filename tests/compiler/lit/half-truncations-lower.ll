; SPDX-License-Identifier: Apache-2.0
; refcl-half-truncations: each call of __refcl_fptrunc_half, or of a
; vector form of it, an fptrunc again; the functions removed.
; RUN: opt -load-pass-plugin=%plugin -passes=refcl-half-truncations -S %s \
; RUN:   | FileCheck --check-prefix=LOWER %s

; LOWER-LABEL: define <4 x half> @lowered(
; LOWER-NEXT: %s = fptrunc float %f to half
; LOWER-NEXT: %v = fptrunc <4 x float> %g to <4 x half>
; LOWER-NEXT: %w = insertelement <4 x half> %v, half %s, i64 0
; LOWER-NEXT: ret <4 x half> %w
; LOWER-NOT: __refcl_fptrunc_half
define <4 x half> @lowered(float %f, <4 x float> %g) {
  %s = call half @__refcl_fptrunc_half(float %f)
  %v = call <4 x half> @__refcl_fptrunc_half_v4(<4 x float> %g)
  %w = insertelement <4 x half> %v, half %s, i64 0
  ret <4 x half> %w
}

declare half @__refcl_fptrunc_half(float)
declare <4 x half> @__refcl_fptrunc_half_v4(<4 x float>)
