; Uses inside device (non-kernel) functions are rewritten, and a table passed to a
; device function is followed into it: reading through the parameter is fine,
; writing through it makes the table writable storage.
; RUN: split-file %s %t
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %t/reads.ll | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %t/reads.ll | %llc-sm90 -o /dev/null
; RUN: not %opt-atoll -passes=promote-ptx-constant-globals -disable-output %t/writes.ll 2>&1 | FileCheck %s --check-prefix=WRITES

;--- reads.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@coeffs = internal addrspace(1) constant [4 x double] [double 1.0, double 0.5, double 0.25, double 0.125], align 8
@weights = internal constant [2 x float] [float 3.0, float 4.0], align 4

; CHECK: @coeffs = internal addrspace(4) constant [4 x double]
; CHECK: @weights = internal addrspace(4) constant [2 x float]

; CHECK-LABEL: define internal double @poly(
; CHECK: getelementptr inbounds double, ptr addrspace(4) @coeffs, i64 %i
; CHECK: load double, ptr addrspace(4)
define internal double @poly(i64 %i) {
  %p = getelementptr inbounds double, ptr addrspace(1) @coeffs, i64 %i
  %c = load double, ptr addrspace(1) %p, align 8
  ret double %c
}

; Not read-only by attributes: the pass looks into the body.
; CHECK-LABEL: define float @sum(ptr %w, i64 %i)
define float @sum(ptr %w, i64 %i) {
  %p = getelementptr inbounds float, ptr %w, i64 %i
  %a = load float, ptr %p, align 4
  %b = load float, ptr %w, align 4
  %s = fadd float %a, %b
  ret float %s
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call float @sum(ptr addrspacecast (ptr addrspace(4) @weights to ptr), i64 %i)
define ptx_kernel void @k(ptr %out, i64 %i) {
  %c = call double @poly(i64 %i)
  %s = call float @sum(ptr @weights, i64 %i)
  %e = fpext float %s to double
  %t = fadd double %c, %e
  store double %t, ptr %out, align 8
  ret void
}

;--- writes.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@weights = internal global [2 x float] [float 3.0, float 4.0], align 4

define void @scale(ptr %w, float %f) {
  %a = load float, ptr %w, align 4
  %b = fmul float %a, %f
  store float %b, ptr %w, align 4
  ret void
}

define ptx_kernel void @k(float %f) {
  call void @scale(ptr @weights, float %f)
  ret void
}

; WRITES: error: promote-ptx-constant-globals: refused global 'weights': writable module-scope storage (written by 'store float %b, ptr %w, align 4' in 'scale')
