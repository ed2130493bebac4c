; griddepcontrol.wait / launch_dependents (programmatic dependent launch) -> refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @griddep(ptr %out) {
  call void @llvm.nvvm.griddepcontrol.wait()
  store i32 1, ptr %out, align 4
  call void @llvm.nvvm.griddepcontrol.launch.dependents()
  ret void
}

declare void @llvm.nvvm.griddepcontrol.wait()
declare void @llvm.nvvm.griddepcontrol.launch.dependents()
