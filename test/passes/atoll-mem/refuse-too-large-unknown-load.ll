; A 1 KiB aggregate load through a pointer of unknown space (loaded from memory):
; wider than both windows the space test chooses between; refused.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': access of 1024 bytes is too large: %v = load { [128 x i64] }, ptr %p, align 8

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %table, ptr addrspace(1) %out) {
  %p = load ptr, ptr addrspace(1) %table, align 8
  %v = load { [128 x i64] }, ptr %p, align 8
  %e = extractvalue { [128 x i64] } %v, 0, 5
  store i64 %e, ptr addrspace(1) %out, align 8
  ret void
}
