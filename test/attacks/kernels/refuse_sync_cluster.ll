; Cluster and launch-order primitives: a cluster barrier, getctarank, griddepcontrol
; (each one kernel) -> refused (kernels are launched without a cluster; PDL orders
; this grid against other tenants' launches).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @cluster_barrier(ptr %out) {
  call void @llvm.nvvm.barrier.cluster.arrive()
  call void @llvm.nvvm.barrier.cluster.wait()
  store i32 1, ptr %out, align 4
  ret void
}

declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()
