; A constant-space pointer forged from an integer: its object is unknown
; -> refused.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @forge_const_as(i64 %addr, ptr %out) {
entry:
  %p = inttoptr i64 %addr to ptr addrspace(4)
  %w = load i32, ptr addrspace(4) %p, align 4
  store i32 %w, ptr %out, align 4
  ret void
}
