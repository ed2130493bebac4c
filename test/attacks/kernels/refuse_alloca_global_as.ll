; Found by review (F1): an alloca in the global space; its zero-init was a 4 KiB
; memset through an unconfined st.global at the depot's address. Refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @alloca_global_as(ptr %out, i64 %i) {
  %a = alloca [4096 x i8], align 1, addrspace(1)
  %p = getelementptr i8, ptr addrspace(1) %a, i64 %i
  store volatile i8 1, ptr addrspace(1) %p
  %v = load volatile i8, ptr addrspace(1) %a
  store i8 %v, ptr %out
  ret void
}
