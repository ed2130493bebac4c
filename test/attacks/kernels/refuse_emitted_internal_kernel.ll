; Class 4 (issue 13): a kernel that -O2 deletes (internal linkage, no uses) next
; to one it keeps. Signatures read before -O2 listed a kernel the PTX lacks.
; Refused before -O2 (weak/linkonce kernels are made external instead); signatures
; come from the final module.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal ptx_kernel void @emitted_internal_kernel(ptr %out) {
  store i32 1, ptr %out, align 4
  ret void
}

define ptx_kernel void @emitted_kept_kernel(ptr %out) {
  store i32 2, ptr %out, align 4
  ret void
}
