; Distributed shared memory: mapa maps a shared address into another CTA of the
; cluster -> refused (not supported yet).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dsm = internal addrspace(3) global [64 x i32] undef, align 4

define ptx_kernel void @dsm_mapa(i32 %rank, i32 %v) {
entry:
  %g = addrspacecast ptr addrspace(3) @dsm to ptr
  %r = call ptr @llvm.nvvm.mapa(ptr %g, i32 %rank)
  store i32 %v, ptr %r, align 4
  ret void
}

declare ptr @llvm.nvvm.mapa(ptr, i32)
