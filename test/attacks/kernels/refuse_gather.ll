; A vector of forged pointers (masked gather) -> refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @masked_gather(<4 x i64> %addrs, ptr %out) {
entry:
  %ptrs = inttoptr <4 x i64> %addrs to <4 x ptr addrspace(1)>
  %v = call <4 x i32> @llvm.masked.gather.v4i32.v4p1(<4 x ptr addrspace(1)> align 4 %ptrs, <4 x i1> splat (i1 true), <4 x i32> zeroinitializer)
  store <4 x i32> %v, ptr %out, align 16
  ret void
}

declare <4 x i32> @llvm.masked.gather.v4i32.v4p1(<4 x ptr addrspace(1)>, <4 x i1>, <4 x i32>)
