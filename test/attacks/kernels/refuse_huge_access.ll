; One load of 8 KiB (larger than any access the confiner can bound) -> refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @huge_access(ptr %p, ptr %out) {
entry:
  %g = addrspacecast ptr %p to ptr addrspace(1)
  %v = load <2048 x i32>, ptr addrspace(1) %g, align 16
  %o = addrspacecast ptr %out to ptr addrspace(1)
  store <2048 x i32> %v, ptr addrspace(1) %o, align 16
  ret void
}
