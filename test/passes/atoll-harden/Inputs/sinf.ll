; A kernel that calls libdevice (__nv_sinf) through a helper function: the
; runtime's preparation links libdevice, folds __nvvm_reflect and inlines both.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define float @helper(float %x) {
  %s = call float @__nv_sinf(float %x)
  ret float %s
}

define ptx_kernel void @sin_kernel(ptr %out, float %x) {
  %s = call float @helper(float %x)
  store float %s, ptr %out, align 4
  ret void
}

declare float @__nv_sinf(float)
