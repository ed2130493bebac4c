; Pointers forged in address spaces the hardening does not model: 7 (shared::cluster,
; i.e. another CTA's shared memory) and 6. They must be refused with a clear reason;
; they must never load.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @forge_cluster_as(i64 %addr, i32 %v, ptr %out) {
entry:
  %p = inttoptr i64 %addr to ptr addrspace(7)
  store i32 %v, ptr addrspace(7) %p, align 4
  %w = load volatile i32, ptr addrspace(7) %p, align 4
  store i32 %w, ptr %out, align 4
  ret void
}
