; A cycle closed by indirectbr (see ../preempt-irreducible-fuel.ll).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @via_indirectbr(ptr %p) {
entry:
  br label %loop
loop:
  indirectbr ptr blockaddress(@via_indirectbr, %loop), [label %loop]
}
