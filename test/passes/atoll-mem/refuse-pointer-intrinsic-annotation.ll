; An intrinsic with pointer operands and no row of the table is refused whatever
; its memory effects say: llvm.var.annotation claims to touch only inaccessible
; memory, the next generic rule would allow it, and its operands would then be
; pointers nobody confined.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': unsupported memory intrinsic 'llvm.var.annotation.p0.p0': call void @llvm.var.annotation.p0.p0(ptr %p, ptr %p, ptr %p, i32 1, ptr %p)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @llvm.var.annotation.p0.p0(ptr, ptr, ptr, i32, ptr)

define ptx_kernel void @k(ptr %p, ptr addrspace(1) %g) {
  call void @llvm.var.annotation.p0.p0(ptr %p, ptr %p, ptr %p, i32 1, ptr %p)
  ret void
}
