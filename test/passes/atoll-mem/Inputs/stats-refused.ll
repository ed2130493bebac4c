; A refusal for statistics.ll: a write to constant memory.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@c = internal addrspace(4) constant [4 x i32] zeroinitializer, align 4

define ptx_kernel void @bad(i32 %v) {
  store i32 %v, ptr addrspace(4) @c, align 4
  ret void
}
