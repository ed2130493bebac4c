; A local-space pointer forged from an integer: its stack object is unknown
; -> refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @forge_local_as(i64 %addr, i32 %v) {
entry:
  %p = inttoptr i64 %addr to ptr addrspace(5)
  store i32 %v, ptr addrspace(5) %p, align 4
  ret void
}
