; llvm.launder.invariant.group returns its pointer operand under a new identity
; (inaccessible memory only, to LLVM): no row of the table, so it is refused as a
; memory intrinsic with pointer operands, not allowed as an inaccessible-memory one.
; RUN: not %opt-atoll -passes=atoll-mem -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: atoll-mem: refused in 'k': unsupported memory intrinsic 'llvm.launder.invariant.group.p0': %q = call ptr @llvm.launder.invariant.group.p0(ptr %p)

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare ptr @llvm.launder.invariant.group.p0(ptr)

define ptx_kernel void @k(ptr %p, ptr addrspace(1) %g) {
  %q = call ptr @llvm.launder.invariant.group.p0(ptr %p)
  ret void
}
