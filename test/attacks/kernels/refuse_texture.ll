; Texture/surface queries and fetches -> refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @texture_query(i64 %tex, ptr %out) {
entry:
  %w = call i32 @llvm.nvvm.txq.width(i64 %tex)
  store i32 %w, ptr %out, align 4
  ret void
}

declare i32 @llvm.nvvm.txq.width(i64)
