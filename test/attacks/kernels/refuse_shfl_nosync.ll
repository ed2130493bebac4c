; shfl without .sync (no member mask; not defined on sm_70+) -> refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @shfl_nosync(i32 %v, ptr %out) {
  %r = call i32 @llvm.nvvm.shfl.idx.i32(i32 %v, i32 0, i32 31)
  store i32 %r, ptr %out, align 4
  ret void
}

declare i32 @llvm.nvvm.shfl.idx.i32(i32, i32, i32)
