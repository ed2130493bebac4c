; Found by review (F1): an alloca in the shared space: zeroed and accessed with
; st.shared at the depot's address, outside the shared window. Refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @alloca_shared_as(ptr %out, i64 %i) {
  %a = alloca [4096 x i8], align 1, addrspace(3)
  %p = getelementptr i8, ptr addrspace(3) %a, i64 %i
  store volatile i8 1, ptr addrspace(3) %p
  %v = load volatile i8, ptr addrspace(3) %a
  store i8 %v, ptr %out
  ret void
}
