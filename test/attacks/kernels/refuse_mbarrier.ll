; mbarrier objects in shared memory (TMA / bulk-copy synchronisation)
; -> refused (not supported yet).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@bar = internal addrspace(3) global i64 undef, align 8

define ptx_kernel void @mbarrier_init(i32 %count) {
entry:
  call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 %count)
  ret void
}

declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
