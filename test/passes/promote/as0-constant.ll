; A constant in the generic space moves to constant memory. Generic uses keep a
; generic pointer (now into the constant window); a direct cast to the global space
; becomes a constant-space pointer.
; RUN: %opt-atoll -passes=promote-ptx-constant-globals -S %s | FileCheck %s
; RUN: %opt-atoll -passes=promote-ptx-constant-globals %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@lut = internal constant [4 x float] [float 1.0, float 2.0, float 4.0, float 8.0], align 4

; CHECK: @lut = internal addrspace(4) constant [4 x float] [float 1.000000e+00, float 2.000000e+00, float 4.000000e+00, float 8.000000e+00], align 4

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %p = getelementptr inbounds float, ptr addrspacecast (ptr addrspace(4) @lut to ptr), i64 %i
; CHECK: %a = load float, ptr %p
; CHECK: %q = getelementptr inbounds float, ptr addrspace(4) @lut, i64 %i
; CHECK: %b = load float, ptr addrspace(4) %q
; CHECK-NOT: %g = addrspacecast
; CHECK: %r = getelementptr inbounds nuw i8, ptr addrspace(4) @lut, i64 4
; CHECK: %c = load float, ptr addrspace(4) %r
define ptx_kernel void @k(ptr %out, i64 %i) {
  %p = getelementptr inbounds float, ptr @lut, i64 %i
  %a = load float, ptr %p, align 4
  %q = getelementptr inbounds float, ptr addrspace(1) addrspacecast (ptr @lut to ptr addrspace(1)), i64 %i
  %b = load float, ptr addrspace(1) %q, align 4
  %g = addrspacecast ptr @lut to ptr addrspace(1)
  %r = getelementptr inbounds nuw i8, ptr addrspace(1) %g, i64 4
  %c = load float, ptr addrspace(1) %r, align 4
  %s = fadd float %a, %b
  %t = fadd float %s, %c
  store float %t, ptr %out, align 4
  ret void
}

; PTX: .const .align 4 .b8 lut[16]
; PTX-NOT: {{^(\.visible |\.extern )?\.global}}
; PTX: ld.const
