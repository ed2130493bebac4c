; discard.global.L2 makes 128 bytes at a global address undefined (a write, to
; the tenant whose data is there): no row, so refused with the pointer-operand
; rule's message.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': unsupported memory intrinsic 'llvm.nvvm.discard.global.L2': call void @llvm.nvvm.discard.global.L2(ptr addrspace(1) %g, i64 128)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @llvm.nvvm.discard.global.L2(ptr addrspace(1), i64)

define ptx_kernel void @k(ptr %p, ptr addrspace(1) %g) {
  call void @llvm.nvvm.discard.global.L2(ptr addrspace(1) %g, i64 128)
  ret void
}
